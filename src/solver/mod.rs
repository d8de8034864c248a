//! The `Solver` contract shared by every strategy, and the closed registry of strategies.
//!
//! A strategy implements [`Solver::search`], driving a [`Control`] that counts
//! nodes and guesses, enforces the node budget, the deadline and the cancel
//! flag, collects solutions and forwards trace events. Everything else
//! ([`Solver::solve`], [`Solver::solve_first`], [`Solver::is_unique`],
//! [`Solver::count_up_to`]) is provided on top of it.

mod backtracking;
mod band;
mod bitset_mrv;
mod dlx;
mod naive_exact_cover;
mod reference;
#[cfg(target_arch = "x86_64")]
mod simd;
pub(crate) mod tables;
pub mod trace;

pub use backtracking::Backtracking;
pub use band::{Band, Isa};
pub use bitset_mrv::{BitsetMrv, Singles};
pub use dlx::{ColumnRule, Dlx};
pub use naive_exact_cover::NaiveExactCover;
pub use reference::{DlxCrate, SatVarisat};
pub use trace::{Event, NoTrace, Reason, TraceLog, Tracer};

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

    /// Sets the cancel flag.
    pub fn with_cancel(mut self, cancel: Arc<AtomicBool>) -> Limits {
        self.cancel = Some(cancel);
        self
    }
}

/// The verdict of one solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
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
}

impl Status {
    /// Every status, in a fixed order.
    pub const ALL: [Status; 7] = [
        Status::Unique,
        Status::Multiple,
        Status::Solved,
        Status::None,
        Status::Budget,
        Status::Cancelled,
        Status::Invalid,
    ];

    /// The word printed for this status.
    pub fn word(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Solved => "solved",
            Status::None => "none",
            Status::Budget => "budget",
            Status::Cancelled => "cancelled",
            Status::Invalid => "invalid",
        }
    }

    /// Parses a word from [`Status::word`].
    pub fn from_word(word: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.word() == word)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

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
pub trait Solver {
    /// Searches `puzzle` for solutions, reporting to `ctl`. Must not panic on
    /// any puzzle, including one whose givens conflict (report no solution).
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

/// Grid sides every strategy handles unless its entry says otherwise.
pub const ALL_SIZES: &[usize] = &[4, 9, 16, 25, 36, 49, 64];

/// Everything the registry knows of one variant.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Stable name (used on the command line and in CSV files).
    pub name: &'static str,
    /// The strategy family (the name of its default variant).
    pub family: &'static str,
    /// Grid sides handled (4 to 64); other sizes are skipped with a note.
    pub sizes: &'static [usize],
    /// Per-puzzle node budget the harness applies by default (slow strategies only).
    pub default_budget: Option<u64>,
    /// One-line description.
    pub description: &'static str,
}

/// The registry: one entry per variant, with every fact about it. Adding a
/// strategy is its file plus one entry here.
macro_rules! registry {
    ($(
        $(#[$doc:meta])*
        $id:ident => {
            name: $name:literal,
            family: $family:literal,
            sizes: $sizes:expr,
            budget: $budget:expr,
            solver: $solver:expr,
            about: $about:literal $(,)?
        }
    ),* $(,)?) => {
        /// Every selectable strategy and variant: the closed registry.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum SolverId {
            $($(#[$doc])* $id,)*
        }

        impl SolverId {
            /// Every entry of the registry, in listing order.
            pub const ALL: &'static [SolverId] = &[$(SolverId::$id,)*];

            /// This variant's entry.
            pub fn entry(self) -> &'static Entry {
                match self {
                    $(SolverId::$id => &Entry {
                        name: $name,
                        family: $family,
                        sizes: $sizes,
                        default_budget: $budget,
                        description: $about,
                    },)*
                }
            }
        }

        /// The registry dispatches to the strategy each entry names.
        impl Solver for SolverId {
            fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
                match self {
                    $(SolverId::$id => $solver.search(puzzle, ctl),)*
                }
            }
        }
    };
}

registry! {
    /// Seed 000's DFS over the exact-cover matrix, with the dead-column prune.
    NaiveExactCover => {
        name: "naive-exact-cover",
        family: "naive-exact-cover",
        sizes: ALL_SIZES,
        budget: Some(2_000_000),
        solver: NaiveExactCover { prune: true },
        about: "DFS over the exact-cover matrix in row order, backtracking once a column can no longer be covered (seed 000)",
    },
    /// Seed 000's DFS exactly, without any prune.
    NaiveExactCoverPure => {
        name: "naive-exact-cover-pure",
        family: "naive-exact-cover",
        sizes: ALL_SIZES,
        budget: Some(2_000_000),
        solver: NaiveExactCover { prune: false },
        about: "DFS over the exact-cover matrix in row order with no prune: shows the blow-up (seed 000)",
    },
    /// Row-major cell backtracking, digits in increasing order (seeds 002, 003).
    Backtracking => {
        name: "backtracking",
        family: "backtracking",
        sizes: ALL_SIZES,
        budget: Some(2_000_000),
        solver: Backtracking,
        about: "cell backtracking: empty cells row-major, digits ascending, row/column/box check (seeds 002, 003)",
    },
    /// Bitsets + MRV only (seed 002's state compression).
    BitsetMrvPlain => {
        name: "bitset-mrv-plain",
        family: "bitset-mrv",
        sizes: ALL_SIZES,
        budget: None,
        solver: BitsetMrv::new(Singles::None),
        about: "row/column/box bitsets, branch on the cell with fewest candidates (seed 002)",
    },
    /// Bitsets + MRV + repeated naked singles (seed 004).
    BitsetMrvNaked => {
        name: "bitset-mrv-naked",
        family: "bitset-mrv",
        sizes: ALL_SIZES,
        budget: None,
        solver: BitsetMrv::new(Singles::Naked),
        about: "cell candidate bitsets, repeated naked singles, then MRV branching (seed 004)",
    },
    /// Bitsets + MRV + naked and hidden singles.
    BitsetMrv => {
        name: "bitset-mrv",
        family: "bitset-mrv",
        sizes: ALL_SIZES,
        budget: None,
        solver: BitsetMrv::new(Singles::NakedAndHidden),
        about: "cell candidate bitsets, naked and hidden singles, then MRV branching (ties between two-candidate cells to the one sharing a candidate with the most peers)",
    },
    /// Bitsets + MRV + naked and hidden singles + locked candidates.
    BitsetMrvLocked => {
        name: "bitset-mrv-locked",
        family: "bitset-mrv",
        sizes: ALL_SIZES,
        budget: None,
        solver: BitsetMrv::new(Singles::NakedHiddenLocked),
        about: "bitset-mrv plus locked candidates (pointing and claiming) before branching",
    },
    /// Knuth's Algorithm X with dancing links, smallest column first (seed 001).
    Dlx => {
        name: "dlx",
        family: "dlx",
        sizes: ALL_SIZES,
        budget: None,
        solver: Dlx { rule: ColumnRule::Smallest },
        about: "Knuth's Algorithm X with dancing links, smallest column first (seed 001)",
    },
    /// Dancing links taking the leftmost live column.
    DlxFirstColumn => {
        name: "dlx-first-column",
        family: "dlx",
        sizes: ALL_SIZES,
        // No column heuristic: fine on 9x9, explodes on 25x25.
        budget: Some(5_000_000),
        solver: Dlx { rule: ColumnRule::First },
        about: "dancing links, leftmost live column first",
    },
    /// Band bitboards with triads, singles and the best instruction set the processor has.
    Band => {
        name: "band",
        family: "band",
        sizes: &[9],
        budget: None,
        solver: Band { isa: Isa::Auto },
        about: "9x9 band bitboards (27-bit word per digit and band): triads, singles, branching on a digit's band configuration; AVX2/AVX-512 when present",
    },
    /// The band solver's portable path (no instruction-set extensions).
    BandPortable => {
        name: "band-portable",
        family: "band",
        sizes: &[9],
        budget: None,
        solver: Band { isa: Isa::Portable },
        about: "band with the portable scalar kernels only (same decisions and counters)",
    },
    /// Reference: CDCL SAT (the varisat crate) on a CNF encoding.
    SatVarisat => {
        name: "sat-varisat",
        family: "sat-varisat",
        sizes: ALL_SIZES,
        budget: None,
        solver: SatVarisat,
        about: "reference: CDCL SAT solver (varisat crate) on the extended CNF encoding over the candidates the givens leave; unique = a second solve with the first solution blocked; no counters",
    },
    /// Reference: the dlx crate's dancing links.
    DlxCrate => {
        name: "dlx-crate",
        family: "dlx-crate",
        sizes: ALL_SIZES,
        budget: None,
        solver: DlxCrate,
        about: "reference: Algorithm X with dancing links from the dlx crate (smallest column first) on the standard 4n² columns; no counters",
    },
}

impl SolverId {
    /// The fastest strategy (9x9): `solve`'s default there.
    pub const FASTEST: SolverId = SolverId::Band;

    /// The fastest strategy for a grid size: `solve`'s default.
    pub fn fastest_for(g: Geometry) -> SolverId {
        [SolverId::FASTEST, SolverId::BitsetMrvLocked]
            .into_iter()
            .find(|s| s.supports(g))
            .unwrap_or(SolverId::BitsetMrv)
    }

    /// Stable name (used on the command line and in CSV files).
    pub fn name(self) -> &'static str {
        self.entry().name
    }

    /// The strategy family this variant belongs to (the name of its default variant).
    pub fn strategy(self) -> &'static str {
        self.entry().family
    }

    /// True for the default variant of each strategy.
    pub fn is_default_variant(self) -> bool {
        self.name() == self.strategy()
    }

    /// True for the reference entries: well-known outside solvers shipped for comparison.
    pub fn is_reference(self) -> bool {
        matches!(self, SolverId::SatVarisat | SolverId::DlxCrate)
    }

    /// True when the node budget, time limit and cancel flag can stop a solve
    /// (every entry but the reference ones: their crates offer no hook).
    pub fn honours_limits(self) -> bool {
        !self.is_reference()
    }

    /// True when the entry's `nodes` and `guesses` mean what the counters say
    /// (every entry but the reference ones, whose crates count otherwise).
    pub fn counts_search(self) -> bool {
        !self.is_reference()
    }

    /// One-line description.
    pub fn description(self) -> &'static str {
        self.entry().description
    }

    /// Grid sides this variant handles.
    pub fn sizes(self) -> &'static [usize] {
        self.entry().sizes
    }

    /// True when this variant handles grids of this geometry.
    pub fn supports(self, g: Geometry) -> bool {
        self.sizes().contains(&g.side())
    }

    /// Looks a name up in the registry.
    pub fn from_name(name: &str) -> Option<SolverId> {
        SolverId::ALL.iter().copied().find(|s| s.name() == name)
    }

    /// The per-puzzle node budget the harness applies by default (slow strategies only).
    pub fn default_node_budget(self) -> Option<u64> {
        self.entry().default_budget
    }

    /// Validates the givens first (conflict → [`Status::Invalid`]), then solves.
    pub fn solve_checked(self, puzzle: &Grid, limits: &Limits) -> Outcome {
        if crate::validate::find_flaw(puzzle).is_some() {
            return Outcome::invalid();
        }
        self.solve(puzzle, limits)
    }
}

/// True when `puzzle` has a solution with `digit` not in the empty `cell`
/// (first solution; `band` on 9×9, `bitset-mrv` elsewhere). The generator asks
/// this after removing a clue: the puzzle stays unique exactly when it is false.
pub(crate) fn solvable_without(puzzle: &Grid, cell: usize, digit: u8) -> bool {
    let limits = Limits::new(Mode::First);
    let mut tracer = NoTrace;
    let mut ctl = Control::new(&limits, &mut tracer);
    let exclude = Some((cell, digit));
    if SolverId::Band.supports(puzzle.geometry()) {
        Band { isa: Isa::Auto }.search_excluding(puzzle, exclude, &mut ctl);
    } else {
        bitset_mrv::search_excluding(puzzle, exclude, &mut ctl);
    }
    ctl.finish().solution_count > 0
}

impl fmt::Display for SolverId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;
