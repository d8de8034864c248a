//! `hunt`: a seeded search for the puzzles that maximise a contender's cost,
//! or the ratio of its cost to another's (the puzzles that separate them).
//!
//! Cost is counted in guesses or nodes (exact, the same on every machine) or
//! measured as time (the median of repeated timed solves). Every contender
//! takes part through its engine, as the harness runs it, so outside programs
//! and libraries hunt by the counters they report, or by time.
//!
//! The search is islands of simulated annealing, run in generations, the
//! stale ones restarted and the best shared (see [`search`]); the moves
//! ([`moves`]) keep every puzzle at one solution.

mod islands;
pub mod merge;
pub mod moves;
pub mod plan;
mod score;
mod search;
pub mod session;
pub mod write;

pub use islands::{default_islands, ISLANDS, ISLANDS_A_THREAD, POLISH};
pub use moves::Unique;
pub use score::score_text;
pub use search::{hunt, EPOCH};

use crate::grid::{Geometry, Grid};
use std::time::Duration;

/// What a hunt maximises for one contender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Branch points of the search (exact, machine-independent).
    Guesses,
    /// Search nodes (exact, machine-independent).
    Nodes,
    /// The median of repeated timed solves (machine-dependent, noisy).
    Time,
}

impl Objective {
    /// Every objective, in listing order.
    pub const ALL: [Objective; 3] = [Objective::Guesses, Objective::Nodes, Objective::Time];

    /// The objective's name on the command line and in files.
    pub fn name(self) -> &'static str {
        Objective::WORDS[self as usize]
    }

    /// The names `--objective` takes.
    pub const WORDS: [&'static str; 3] = ["guesses", "nodes", "time"];

    /// The unit of one cost, for reports: `guesses`, `nodes`, `ns`.
    pub fn unit(self) -> &'static str {
        match self {
            Objective::Time => "ns",
            o => o.name(),
        }
    }

    /// Added to both costs of a ratio: a puzzle solved with no guess costs 0
    /// guesses, and 0/0 or 5/0 says nothing; nodes and time are never 0.
    fn smoothing(self) -> f64 {
        match self {
            Objective::Guesses => 1.0,
            _ => 0.0,
        }
    }
}

crate::words_of!(Objective, "an objective");

/// When a hunt stops (or at Ctrl-C, whichever comes first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// After this many moves in all, shared evenly between the chains: the same
    /// seed then gives the same puzzles (with an exact objective).
    Iterations(u64),
    /// After this much wall time.
    Time(Duration),
}

/// Where the chains start.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// From minimal puzzles generated from the seed, one per chain.
    Generated(Geometry),
    /// From these puzzles: all are scored, chain `i` starts from the `i`-th best.
    Puzzles(Vec<Grid>),
}

/// What to hunt for, and for how long.
#[derive(Clone, Debug)]
pub struct HuntOptions {
    /// What a contender's cost is.
    pub objective: Objective,
    /// When to stop.
    pub stop: Stop,
    /// Puzzles kept: the best, one per solution grid.
    pub keep: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Threads the islands are spread over.
    pub threads: usize,
    /// Islands: chains with a seed and a temperature of their own (see
    /// [`search`]); the same puzzles at any thread count.
    pub islands: usize,
    /// Moves of one island's annealing epoch, a generation
    /// ([`search::EPOCH`] from the command line).
    pub epoch: u64,
    /// Random symmetric copies of its best each island scores between
    /// generations ([`POLISH`] from the command line for an exact objective,
    /// none for time; see [`search`]).
    pub polish: u32,
    /// Timed solves per puzzle for the time objective (their median is the cost).
    pub repeat: u32,
    /// Longest wait for one solve (`--time-limit`, as `bench` has it): past
    /// it a solve is stopped (an outside program's process killed) and its
    /// cost is a lower bound. `None`: a silent program is waited for until
    /// Ctrl-C.
    pub time_limit: Option<Duration>,
    /// Where the chains start.
    pub start: Start,
}

/// A puzzle the hunt found, with its score.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    /// The puzzle and its one solution.
    pub unique: Unique,
    /// The objective: the cost, or the ratio of the two costs.
    pub score: f64,
    /// The hunted contender's cost.
    pub cost: f64,
    /// The other contender's cost, in a pair hunt.
    pub against: Option<f64>,
    /// A node budget or time limit stopped a solve: the cost is a lower bound.
    pub censored: bool,
    /// Moves made in all when it was found.
    pub iteration: u64,
    /// Seconds into the hunt when it was found.
    pub elapsed_s: f64,
}

/// One line of the progress file: an island's best, each time it improves.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgressRow {
    /// Seconds since the hunt began.
    pub elapsed_s: f64,
    /// Moves made in all so far.
    pub iterations: u64,
    /// The island that bettered its best.
    pub island: usize,
    /// Its best score now.
    pub best: f64,
    /// The best score of any island so far.
    pub overall: f64,
    /// The island's best puzzle's cost.
    pub cost: f64,
    /// The other contender's cost on it, in a pair hunt.
    pub against: Option<f64>,
    /// The island's best puzzle.
    pub puzzle: Grid,
    /// Whether that puzzle is a symmetric copy of the island's best before
    /// (not the result of a move).
    pub copy: bool,
}

/// What a hunt tells as it goes (its progress file and display).
pub trait HuntObserver: Sync {
    /// The best score improved (never called with a lower one).
    fn improved(&self, row: &ProgressRow);
    /// Moves made in all so far, and the best score (every few hundred moves).
    fn tick(&self, _iterations: u64, _best: f64) {}
    /// What the search did between generations (an island restarted, a
    /// best shared), in words.
    fn event(&self, _line: &str) {}
}

/// An observer that ignores everything.
pub struct Quiet;

impl HuntObserver for Quiet {
    fn improved(&self, _: &ProgressRow) {}
}

/// The outcome of a hunt.
#[derive(Clone, Debug)]
pub struct HuntResult {
    /// The best puzzles, best first, each checked for one solution by `checked_by`.
    pub found: Vec<Found>,
    /// Moves made in all.
    pub iterations: u64,
    /// Puzzles scored (moves that led to a puzzle, and the starts).
    pub evaluations: u64,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// Stopped by Ctrl-C.
    pub interrupted: bool,
    /// The strategy that checked each kept puzzle, independent of the hunted ones.
    pub checked_by: &'static str,
    /// Answers that failed the check (a wrong answer, a crash): the first few, and how many in all.
    pub failures: (Vec<String>, u64),
    /// The best score among the starts.
    pub start_best: f64,
}

/// Why a hunt cannot run.
#[derive(Debug, thiserror::Error)]
pub enum HuntError {
    /// The same contender on both sides.
    #[error(
        "--against names {0:?}, the contender hunted: a pair hunt needs two different contenders"
    )]
    SameContender(String),
    /// Nothing to do.
    #[error("a hunt needs a budget above zero: give --budget (such as 2m) or --iterations of at least 1")]
    ZeroBudget,
    /// No puzzle to start from.
    #[error("{0}")]
    NoStart(String),
    /// Generated starts of a size the hunt cannot move in.
    #[error("--size {0}: generated starts have sides 4, 9, 16 or 25 (above, a uniqueness check per move stops finishing)")]
    StartSize(usize),
    /// The dataset to start from does not read.
    #[error("cannot read --from {spec}: {source}")]
    From {
        /// The dataset asked for.
        spec: String,
        /// Why.
        #[source]
        source: Box<crate::datasets::DatasetError>,
    },
    /// No contender of that name.
    #[error(
        "unknown contender {name:?}: expected a strategy or an outside contender's name ({known})"
    )]
    Unknown {
        /// The name given.
        name: String,
        /// The names there are.
        known: String,
    },
    /// An outside contender cannot start.
    #[error(transparent)]
    Contender(Box<crate::external::ContenderError>),
    /// Reading the starts or writing the contender's log failed.
    #[error(transparent)]
    Io(std::io::Error),
    /// A file of the hunt's folder cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A contender cannot take the puzzles.
    #[error("{name} does not handle {size} puzzles")]
    Size {
        /// The contender.
        name: String,
        /// The grid size.
        size: String,
    },
    /// `hunt --merge` without `--solver`: a folder keeps no record of what
    /// it was hunted for.
    #[error("--merge {}: {why}: name the contender to score for with --solver", dir.display())]
    Unrecorded {
        /// The folder.
        dir: std::path::PathBuf,
        /// Why its record is not there.
        why: String,
    },
    /// `hunt --merge` without `--solver`: the folders were hunted for
    /// different scores.
    #[error("--merge {} was hunted for {first_score} and {} for {score}: name the contender to score for with --solver", first.display(), dir.display())]
    Disagree {
        /// The first folder read.
        first: std::path::PathBuf,
        /// Its score, in words.
        first_score: String,
        /// A folder with another score.
        dir: std::path::PathBuf,
        /// That score, in words.
        score: String,
    },
    /// A contender gives no counter for the objective.
    #[error("{name} reports no {objective}: hunt it with --objective time, or with a contender that counts its search")]
    NoCounters {
        /// The contender.
        name: String,
        /// The counter missing.
        objective: &'static str,
    },
    /// A contender fails on the very first puzzle.
    #[error("{name} failed on the first puzzle: {why}")]
    Failed {
        /// The contender.
        name: String,
        /// What went wrong.
        why: String,
    },
    /// The hunt's folder cannot be made, or holds a hunt not to be replaced.
    #[error(transparent)]
    RunDir(#[from] crate::export::run_dir::RunDirError),
    /// Another process writes into the hunt's folder.
    #[error(transparent)]
    Lock(#[from] crate::lock::LockError),
    /// `hunt --merge --force` into a folder it merges, which it would empty first.
    #[error("--out {}: a folder --merge reads; merge into another folder", .0.display())]
    MergeInto(std::path::PathBuf),
    /// More threads than the machine takes.
    #[error("--threads: {0}")]
    Threads(#[from] crate::usage::TooManyThreads),
}

#[cfg(test)]
mod tests;
