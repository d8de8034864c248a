//! The `Solver` contract shared by every strategy; the closed registry of
//! strategies is the one table in `registry.rs`.
//!
//! A strategy implements [`Solver::search`], driving a [`Control`] that counts
//! nodes and guesses, enforces the node budget, the deadline and the cancel
//! flag, collects solutions and forwards trace events. Everything else
//! ([`Solver::solve`], [`Solver::solve_first`], [`Solver::is_unique`],
//! [`Solver::count_up_to`]) is provided on top of it.

mod backtracking;
mod band;
mod bitset_mrv;
mod boxes;
mod cdcl;
mod cnf;
mod dlx;
mod naive_exact_cover;
mod reference;
mod registry;
#[cfg(target_arch = "x86_64")]
mod simd;
pub(crate) mod tables;
pub mod trace;

pub use backtracking::Backtracking;
pub use band::{Band, Isa};
pub use bitset_mrv::{BitsetMrv, Singles};
pub use boxes::Boxes;
pub use cdcl::{Cdcl, CdclHybrid, HANDOVER_NODES};
pub use dlx::{ColumnRule, Dlx};
pub use naive_exact_cover::NaiveExactCover;
pub use reference::{DlxCrate, SatVarisat};
pub(crate) use registry::solvable_without;
pub use registry::{Entry, SolverId, ALL_SIZES};
pub use trace::{Event, NoTrace, Reason, TraceLog, Tracer, Why};

use crate::grid::{Geometry, Grid};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How many solutions to look for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Stop at the first solution.
    First,
    /// Stop at the second solution: tells unique from multiple.
    Unique,
    /// Count solutions, stopping at the given number.
    Count(u64),
}

/// The count `--mode count` stops at unless told.
pub const DEFAULT_COUNT_LIMIT: u64 = 1_000_000;

impl Mode {
    /// The number of solutions after which the search stops.
    pub fn max_solutions(self) -> u64 {
        match self {
            Mode::First => 1,
            Mode::Unique => 2,
            Mode::Count(k) => k.max(1),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mode::First => f.write_str("first"),
            Mode::Unique => f.write_str("unique"),
            Mode::Count(k) => write!(f, "count:{k}"),
        }
    }
}

impl std::str::FromStr for Mode {
    type Err = crate::words::UnknownWord;

    /// Reads what [`Mode`]'s `Display` writes: `first`, `unique` or `count:K`
    /// (K at least 1). Any other text is an error, never a default.
    fn from_str(text: &str) -> Result<Mode, Self::Err> {
        match text {
            "first" => Ok(Mode::First),
            "unique" => Ok(Mode::Unique),
            t => match t.strip_prefix("count:").map(str::parse::<u64>) {
                Some(Ok(k)) if k >= 1 => Ok(Mode::Count(k)),
                _ => Err(crate::words::UnknownWord::new(
                    "a mode",
                    text,
                    "first, unique or count:K (K 1 or more)",
                )),
            },
        }
    }
}

/// Limits of one solve.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Stop after this many solutions (1 = first, 2 = uniqueness, k = count up to k).
    pub max_solutions: u64,
    /// How many of the solutions found are kept in the [`Outcome`].
    pub keep_solutions: usize,
    /// Stop after visiting this many search nodes.
    pub node_budget: Option<u64>,
    /// Stop at this instant (checked every [`CHECK_INTERVAL`] nodes).
    pub deadline: Option<Instant>,
    /// Stop when this flag becomes true (checked with the deadline).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stop when the calling thread's CPU clock ([`crate::clock::thread_cpu`])
    /// reaches this (checked with the deadline).
    pub cpu_deadline: Option<std::time::Duration>,
}

/// Nodes between two looks at the clock and the cancel flag. Every strategy's
/// node costs well under 40 µs even on 25×25, so a stop is noticed within about 10 ms.
pub const CHECK_INTERVAL: u64 = 256;

impl Limits {
    /// Limits for a mode, with no budget.
    pub fn new(mode: Mode) -> Limits {
        Limits {
            max_solutions: mode.max_solutions(),
            keep_solutions: 2,
            node_budget: None,
            deadline: None,
            cancel: None,
            cpu_deadline: None,
        }
    }

    /// Sets the node budget.
    pub fn with_node_budget(mut self, budget: Option<u64>) -> Limits {
        self.node_budget = budget;
        self
    }

    /// Sets the deadline.
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Limits {
        self.deadline = deadline;
        self
    }

    /// Sets the CPU-clock deadline.
    pub fn with_cpu_deadline(mut self, at: Option<std::time::Duration>) -> Limits {
        self.cpu_deadline = at;
        self
    }

    /// Sets the cancel flag.
    pub fn with_cancel(mut self, cancel: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(cancel);
        self
    }
}

/// Declares an enum whose first variants are the verdicts of a solve, in
/// this order, followed by any given: [`Status`], and the harness's row
/// status after it, so that each verdict is declared once. `ALL` holds every
/// value in declaration order.
#[macro_export]
macro_rules! verdicts {
    ($(#[$m:meta])* $vis:vis enum $name:ident { $($(#[$vm:meta])* $more:ident,)* }) => {
        $(#[$m])*
        $vis enum $name {
            /// Exactly one solution (the search was complete).
            Unique,
            /// Two or more solutions.
            Multiple,
            /// A solution was found; the search stopped there (mode `first`).
            Solved,
            /// No solution exists.
            None,
            /// The node budget or time limit ran out first.
            Budget,
            /// The cancel flag stopped the search.
            Cancelled,
            /// The givens conflict (reported before solving).
            Invalid,
            $( $(#[$vm])* $more, )*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; 7 $(+ $crate::verdicts!(@one $more))*] = [
                $name::Unique,
                $name::Multiple,
                $name::Solved,
                $name::None,
                $name::Budget,
                $name::Cancelled,
                $name::Invalid,
                $($name::$more,)*
            ];
        }
    };
    (@one $more:ident) => { 1 };
}

verdicts! {
    /// The verdict of one solve.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum Status {}
}

impl Status {
    /// Every status's word, in [`Status::ALL`]'s order.
    pub const WORDS: [&'static str; 7] = crate::format::RESULT_WORDS;

    /// The word printed for this status.
    pub fn word(self) -> &'static str {
        Status::WORDS[self as usize]
    }
}

crate::words_of!(Status, "a status");

/// Search counters, with one meaning for every strategy.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Search-tree nodes visited: every state the search entered, the root included.
    pub nodes: u64,
    /// Branch points: nodes where the search chose among two or more open
    /// alternatives (a cell's candidates, a column's rows), as tdoku counts guesses.
    pub guesses: u64,
}

impl Counters {
    /// True when the puzzle was solved without any guess.
    pub fn no_guess(&self) -> bool {
        self.guesses == 0
    }
}

/// The result of one solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The verdict.
    pub status: Status,
    /// Solutions found, in search order (at most `keep_solutions`).
    pub solutions: Vec<Grid>,
    /// How many solutions were found in all.
    pub solution_count: u64,
    /// Search counters.
    pub counters: Counters,
}

impl Outcome {
    /// The first solution, if any.
    pub fn first(&self) -> Option<&Grid> {
        self.solutions.first()
    }

    /// The outcome for a puzzle whose givens conflict.
    pub fn invalid() -> Outcome {
        Outcome {
            status: Status::Invalid,
            solutions: Vec::new(),
            solution_count: 0,
            counters: Counters::default(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Enough,
    Budget,
    Cancelled,
}

/// What a strategy's search drives: counters, limits, solutions and the tracer.
pub struct Control<'a, T: Tracer> {
    limits: &'a Limits,
    node_limit: u64,
    /// Counters so far.
    pub counters: Counters,
    found: u64,
    solutions: Vec<Grid>,
    stop: Option<Stop>,
    /// The tracer ([`NoTrace`] compiles every event away).
    pub tracer: &'a mut T,
}

impl<'a, T: Tracer> Control<'a, T> {
    /// A control for one solve.
    pub fn new(limits: &'a Limits, tracer: &'a mut T) -> Self {
        Control {
            limits,
            node_limit: limits.node_budget.unwrap_or(u64::MAX),
            counters: Counters::default(),
            found: 0,
            solutions: Vec::new(),
            stop: None,
            tracer,
        }
    }

    /// Enters a search node. Returns `false` when the search must stop now.
    #[inline]
    pub fn node(&mut self) -> bool {
        if self.stop.is_some() {
            return false;
        }
        self.counters.nodes += 1;
        if self.counters.nodes > self.node_limit {
            self.counters.nodes -= 1;
            self.stop = Some(Stop::Budget);
            return false;
        }
        if self.counters.nodes.is_multiple_of(CHECK_INTERVAL) {
            return self.check_clock();
        }
        true
    }

    #[cold]
    fn check_clock(&mut self) -> bool {
        if let Some(flag) = &self.limits.cancel {
            if flag.load(Ordering::Relaxed) {
                self.stop = Some(Stop::Cancelled);
                return false;
            }
        }
        if let Some(deadline) = self.limits.deadline {
            if Instant::now() >= deadline {
                self.stop = Some(Stop::Budget);
                return false;
            }
        }
        if let Some(at) = self.limits.cpu_deadline {
            if crate::clock::thread_cpu() >= at {
                self.stop = Some(Stop::Budget);
                return false;
            }
        }
        true
    }

    /// Records a branch point with `options` open alternatives (a guess when two or more).
    #[inline]
    pub fn branch(&mut self, options: u32) {
        if options >= 2 {
            self.counters.guesses += 1;
        }
    }

    /// Records a solution. Returns `false` when enough solutions have been found.
    pub fn solution(&mut self, make: impl FnOnce() -> Grid) -> bool {
        self.found += 1;
        if self.solutions.len() < self.limits.keep_solutions {
            self.solutions.push(make());
        }
        if T::ENABLED {
            self.tracer.event(Event::Solution { index: self.found });
        }
        if self.found >= self.limits.max_solutions {
            self.stop = Some(Stop::Enough);
            return false;
        }
        true
    }

    /// Runs `search` with at most `budget` more nodes. Returns `true` when
    /// that budget alone stopped it: the solutions it found are then
    /// forgotten (its counters stay), so that another search can start over
    /// under this control. Any other ending (done, enough solutions, the
    /// run's own budget, the deadline, the cancel flag) stands.
    pub fn try_within(&mut self, budget: u64, search: impl FnOnce(&mut Self)) -> bool {
        let (outer, found, kept) = (self.node_limit, self.found, self.solutions.len());
        let inner = self.counters.nodes.saturating_add(budget);
        self.node_limit = outer.min(inner);
        search(self);
        self.node_limit = outer;
        let exhausted = self.stop == Some(Stop::Budget)
            && inner < outer
            && self.counters.nodes >= inner
            && self.limits.deadline.is_none_or(|d| Instant::now() < d)
            && self
                .limits
                .cpu_deadline
                .is_none_or(|d| crate::clock::thread_cpu() < d);
        if exhausted {
            self.stop = None;
            self.found = found;
            self.solutions.truncate(kept);
        }
        exhausted
    }

    /// Stops a search that cannot handle this puzzle (a size the strategy does
    /// not support); it is reported as [`Status::Budget`].
    pub fn give_up(&mut self) {
        self.stop = Some(Stop::Budget);
    }

    /// True once the search must unwind.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.is_some()
    }

    /// The outcome: the verdict follows from the solutions found and why the search stopped.
    pub fn finish(self) -> Outcome {
        let status = match (self.stop, self.found) {
            (_, n) if n >= 2 => Status::Multiple,
            (Some(Stop::Enough), _) => Status::Solved, // max_solutions == 1
            (Some(Stop::Budget), _) => Status::Budget,
            (Some(Stop::Cancelled), _) => Status::Cancelled,
            (None, 1) => Status::Unique,
            (None, _) => Status::None,
        };
        Outcome {
            status,
            solutions: self.solutions,
            solution_count: self.found,
            counters: self.counters,
        }
    }
}

/// A Sudoku-solving strategy. Implementors write [`Solver::search`]; the rest is provided.
///
/// # A strategy's duties
///
/// What `search` owes its [`Control`], which the tests in `solver/tests.rs`
/// and the property tests (`tests/suite/properties.rs`, every size the
/// registry declares for it) hold every registered strategy to:
///
/// - **Count every node, the root included.** Call [`Control::node`] on
///   entering each search state, the first one too (a puzzle whose givens
///   conflict, or that propagation alone solves, still visits its root), and
///   unwind at once when it returns `false`: that is how a node budget, a
///   deadline, a CPU deadline and the cancel flag stop a search, and a budget
///   of `n` nodes must stop it at exactly `n`.
/// - **Count guesses the common way.** Call [`Control::branch`] at each
///   branch point with the number of alternatives still open: two or more is
///   a guess, so a puzzle that propagation solves reports none
///   ([`Counters::no_guess`]), as `rate` and the property tests read it.
/// - **Hand in each solution** through [`Control::solution`], and stop when
///   it returns `false` (the mode's limit is reached).
/// - **Trace its decisions** through `ctl.tracer` when [`Tracer::ENABLED`]:
///   a [`trace::Event::Place`] for each digit placed (with its
///   [`trace::Reason`], a guess included), a [`trace::Event::Confine`] for a
///   guess that confines a digit without placing it, a
///   [`trace::Event::Backtrack`] for each return. With tracing on, the
///   outcome and counters are the same as without it.
/// - **Honour pencilmarks.** A pencilmark puzzle ([`Grid::is_pencilmark`])
///   excludes candidates; the strategy never places an excluded digit, and a
///   cell left without a candidate means no solution.
/// - **Never panic**, on any puzzle of a size it declares, including one
///   whose givens conflict (report no solution).
///
/// The reference strategies that wrap other crates (`sat-varisat`,
/// `dlx-crate`) count only the root, and say so through
/// [`SolverId::counts_search`].
pub trait Solver {
    /// Searches `puzzle` for solutions, reporting to `ctl` as the trait's
    /// duties say.
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>);

    /// Solves within `limits`.
    fn solve(&self, puzzle: &Grid, limits: &Limits) -> Outcome {
        let mut tracer = NoTrace;
        let mut ctl = Control::new(limits, &mut tracer);
        self.search(puzzle, &mut ctl);
        ctl.finish()
    }

    /// Solves within `limits`, recording every decision in `log`.
    fn solve_traced(&self, puzzle: &Grid, limits: &Limits, log: &mut TraceLog) -> Outcome {
        let mut ctl = Control::new(limits, log);
        self.search(puzzle, &mut ctl);
        ctl.finish()
    }

    /// The first solution found, if any.
    fn solve_first(&self, puzzle: &Grid) -> Option<Grid> {
        self.solve(puzzle, &Limits::new(Mode::First))
            .solutions
            .into_iter()
            .next()
    }

    /// True when the puzzle has exactly one solution.
    fn is_unique(&self, puzzle: &Grid) -> bool {
        self.solve(puzzle, &Limits::new(Mode::Unique)).status == Status::Unique
    }

    /// The number of solutions, counting no further than `limit`.
    fn count_up_to(&self, puzzle: &Grid, limit: u64) -> u64 {
        self.solve(puzzle, &Limits::new(Mode::Count(limit)))
            .solution_count
    }
}

#[cfg(test)]
mod tests;
