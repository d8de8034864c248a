//! The flat records the harness produces: one per puzzle (`results.csv`), one
//! per timed solve (kept on request), one summary per phase.

use crate::contender::{Checked, Timing};
use crate::solver::Status;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

crate::verdicts! {
    /// What became of one puzzle: the solver's verdict (checked), or a
    /// harness finding.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum RowStatus {
        /// Nothing decides the verdict (the reference search ran out of its
        /// budget; see `detail`): neither solved nor wrong.
        Unchecked,
        /// The strategy's answer failed a check (see `detail`).
        Wrong,
        /// The strategy panicked (see `detail`).
        Error,
        /// The contender's process went over the memory limit (`--memory-limit`)
        /// and was stopped (see `detail`): neither solved nor wrong.
        Memory,
    }
}

impl From<Status> for RowStatus {
    /// The solver's own verdict, before the harness checks it.
    fn from(s: Status) -> RowStatus {
        // Both enums open with the verdicts, in one order (`verdicts!`).
        RowStatus::ALL[s as usize]
    }
}

impl RowStatus {
    /// True when the strategy reached a verdict checked correct.
    pub fn is_solved(self) -> bool {
        matches!(
            self,
            RowStatus::Unique
                | RowStatus::Multiple
                | RowStatus::Solved
                | RowStatus::None
                | RowStatus::Invalid
        )
    }

    /// True when the puzzle failed: answered wrong, an error, stopped by the
    /// time or node budget, or over the memory limit. What `compare`,
    /// `history` and the exports count as failed (an interrupted solve and
    /// an unchecked one are neither solved nor failed).
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            RowStatus::Wrong | RowStatus::Error | RowStatus::Budget | RowStatus::Memory
        )
    }

    /// True when a limit stopped the search.
    pub fn is_budget(self) -> bool {
        matches!(self, RowStatus::Budget | RowStatus::Cancelled)
    }

    /// How much a solve's verdict weighs against the others of its puzzle
    /// (the heaviest is the puzzle's): a puzzle wrong (or failing) in any
    /// solve is wrong (failing); one that ran out of budget in any is out of
    /// budget. An interrupted solve weighs nothing beside a finished one.
    pub fn weight(self) -> u8 {
        match self {
            RowStatus::Wrong => 5,
            RowStatus::Error => 4,
            RowStatus::Memory => 3,
            RowStatus::Budget => 2,
            RowStatus::Cancelled => 0,
            _ => 1,
        }
    }

    /// Every row status's word, in [`RowStatus::ALL`]'s order: a verdict's
    /// is the solver's own ([`Status::WORDS`]), then the harness's findings'.
    pub const WORDS: [&'static str; 11] = {
        let findings = ["unchecked", "wrong", "error", "memory"];
        let mut words = [""; 11];
        let mut i = 0;
        while i < words.len() {
            words[i] = if i < Status::WORDS.len() {
                Status::WORDS[i]
            } else {
                findings[i - Status::WORDS.len()]
            };
            i += 1;
        }
        words
    };

    /// The word written in CSV files.
    pub fn word(self) -> &'static str {
        RowStatus::WORDS[self as usize]
    }
}

crate::words_of!(RowStatus, "a row status", serde);
crate::word_cells!(RowStatus);

crate::columns! {
    #[cells]
    /// One timed solve of one puzzle by one contender: what `--keep-solves`
    /// writes to `solves.csv`, and what a study reads.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct SolveRecord in SolveColumns {
        /// Strategy family, like `dlx`.
        pub strategy: Arc<str>,
        /// Variant, like `dlx-first-column` (the family name for the default variant).
        pub variant: Arc<str>,
        /// Dataset name.
        pub dataset: Arc<str>,
        /// 0-based position of the puzzle in its dataset file.
        pub puzzle_index: u64,
        /// 0-based round the solve was measured in.
        pub round: u32,
        /// 0-based pass over the puzzle's round share (`--repeat`, `--min-time`).
        pub repeat: u32,
        /// Verdict, or `wrong` / `error`.
        pub status: RowStatus,
        /// Solutions found.
        pub solutions: u64,
        /// Search nodes visited (empty when an outside contender does not say).
        pub nodes: Option<u64>,
        /// Branch points with two or more alternatives (empty when not reported).
        pub guesses: Option<u64>,
        /// Time of the solve as the harness measured it, in nanoseconds.
        pub solve_ns: u64,
        /// An outside contender's own measure of its time on the puzzle, when it gives one.
        #[serde(default)]
        pub own_ns: Option<u64>,
        /// Worker threads of the run.
        pub threads: usize,
        /// Why a row is `wrong` or `error`; empty otherwise.
        pub detail: String,
        /// What `solve_ns` stands for: `call`, `pipe` or `batch`.
        #[serde(default)]
        pub timing: Timing,
        /// Instructions the call executed, counted by callgrind
        /// (`--measure instructions`) or by the CPU (`--measure
        /// cycles,instructions`); empty otherwise.
        #[serde(default)]
        pub instructions: Option<u64>,
        /// CPU cycles of the call, when the run reads the CPU's counters.
        #[serde(default)]
        pub cycles: Option<u64>,
        /// Branches the call mispredicted, likewise.
        #[serde(default)]
        pub branch_misses: Option<u64>,
        /// Nanoseconds the thread ran on a CPU during the call (`task-clock`).
        #[serde(default)]
        pub task_clock_ns: Option<u64>,
        /// The most heap bytes the call held at once: a built-in strategy's,
        /// when the run watches the heap (not when it counts instructions).
        #[serde(default)]
        pub heap_bytes: Option<u64>,
    }
}

impl SolveRecord {
    /// Sets the counts of the call.
    pub fn set_counts(&mut self, c: &crate::perf::Counts) {
        self.instructions = c.instructions;
        self.cycles = c.cycles;
        self.branch_misses = c.branch_misses;
        self.task_clock_ns = c.task_clock_ns;
        self.heap_bytes = c.heap_bytes;
    }
}

crate::columns! {
    #[cells]
    /// One row of `results.csv`: one puzzle of one dataset, for one contender,
    /// over all its timed solves (the passes of `--repeat` and `--min-time`).
    ///
    /// The puzzle is named by its dataset and its 0-based position in the
    /// dataset's file; `run.json` gives each dataset's source and SHA-256 (and
    /// the seed of `--sample` and `--permute`), so the text is not repeated here.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    pub struct PuzzleResult in ResultColumns {
        /// Strategy family.
        pub strategy: Arc<str>,
        /// Variant.
        pub variant: Arc<str>,
        /// Dataset name.
        pub dataset: Arc<str>,
        /// 0-based position of the puzzle in its dataset file.
        pub puzzle_index: u64,
        /// 0-based round the puzzle was measured in.
        pub round: u32,
        /// The puzzle's verdict over its solves: `wrong` or `error` if any solve
        /// was, else `budget` if any ran out, else the solves' verdict.
        pub status: RowStatus,
        /// Solutions found (by the solve that gave the status).
        pub solutions: u64,
        /// Search nodes of that solve (empty when not reported).
        pub nodes: Option<u64>,
        /// Guesses of that solve (empty when not reported).
        pub guesses: Option<u64>,
        /// Timed solves behind the times.
        pub solves: u32,
        /// Median time of those solves, ns.
        pub median_ns: u64,
        /// Fastest of them, ns.
        pub min_ns: u64,
        /// Median of an outside contender's own measure, when it gives one.
        pub own_ns: Option<u64>,
        /// Worker threads of the run.
        pub threads: usize,
        /// Why the puzzle is `wrong`, `error` or `invalid`; empty otherwise.
        pub detail: String,
        /// What the times stand for: `call` (the solve call alone), `pipe` (a
        /// program's round trip, one puzzle in flight) or `batch` (a share of a
        /// batch's wall time: throughput, not a per-puzzle measurement).
        #[serde(default)]
        pub timing: Timing,
        /// How the answer was checked: `solution`, or `verdict` for a contender
        /// that returns no solutions.
        #[serde(default)]
        pub checked: Checked,
        /// Instructions of the puzzle's solve, counted by callgrind
        /// (`--measure instructions`: the same on every pass), or the median of
        /// the CPU's counts; empty otherwise.
        #[serde(default)]
        pub instructions: Option<u64>,
        /// Median CPU cycles of its solves, when the run reads the CPU's counters.
        #[serde(default)]
        pub cycles: Option<u64>,
        /// Median mispredicted branches, likewise.
        #[serde(default)]
        pub branch_misses: Option<u64>,
        /// Median nanoseconds on a CPU (`task-clock`), likewise.
        #[serde(default)]
        pub task_clock_ns: Option<u64>,
    }
}

impl PuzzleResult {
    /// The counts of the puzzle's solves.
    pub fn counts(&self) -> crate::perf::Counts {
        crate::perf::Counts {
            instructions: self.instructions,
            cycles: self.cycles,
            branch_misses: self.branch_misses,
            task_clock_ns: self.task_clock_ns,
            heap_bytes: None,
        }
    }
}

crate::columns! {
    /// One row of `summary.csv`: a strategy variant over one dataset.
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
    pub struct SummaryRow in SummaryColumns {
        /// Strategy family.
        pub strategy: String,
        /// Variant.
        pub variant: String,
        /// Dataset name.
        pub dataset: String,
        /// Worker threads.
        pub threads: usize,
        /// Distinct puzzles measured (runs saved before one row a puzzle: solves).
        pub puzzles: u64,
        /// Puzzles with a verdict checked correct in every solve: by its
        /// solutions, or by the verdict against the reference (`unchecked` ones
        /// are not counted). Written `verified`.
        #[serde(alias = "solved")]
        pub solved as "verified": u64,
        /// Puzzles stopped by the node budget, time limit or an interrupt.
        pub budget: u64,
        /// Puzzles with an answer that failed a check in some solve.
        pub wrong: u64,
        /// Puzzles where the strategy failed (panicked, crashed) in some solve.
        pub errors: u64,
        /// Puzzles whose verdict nothing could decide (the reference search ran
        /// out of its budget): neither verified nor wrong.
        #[serde(default)]
        pub unchecked: u64,
        /// Timed solves of verified puzzles over the contender's wall time
        /// in the timed passes (its workers' time in its own loop, over the
        /// workers: [`crate::harness::summary::PUZZLES_PER_SEC_MEANS`]):
        /// what it solved a second, not what it attempted.
        pub puzzles_per_sec: f64,
        /// Mean time per puzzle, µs (each puzzle's median over its repeats; so
        /// are the quantiles). Every time figure is over the verified puzzles
        /// only, and empty where the row's figures do not stand (see
        /// [`SummaryRow::stands`]).
        #[serde(default)]
        pub mean_us: Option<f64>,
        /// Median time per puzzle, µs.
        #[serde(default)]
        pub median_us: Option<f64>,
        /// 90th percentile, µs.
        #[serde(default)]
        pub p90_us: Option<f64>,
        /// 99th percentile, µs.
        #[serde(default)]
        pub p99_us: Option<f64>,
        /// Slowest puzzle, µs.
        #[serde(default)]
        pub max_us: Option<f64>,
        /// Mean guesses per puzzle, over the verified puzzles that report guesses (empty when none does).
        pub guesses_per_puzzle: Option<f64>,
        /// Share of those puzzles solved without a guess, %.
        pub no_guess_pct: Option<f64>,
        /// Wall time of this strategy over this dataset, seconds.
        pub wall_s: f64,
        /// 95% interval of the median, µs (order statistics).
        #[serde(default)]
        pub median_lo_us: Option<f64>,
        /// Upper end of that interval, µs.
        #[serde(default)]
        pub median_hi_us: Option<f64>,
        /// 95% interval of the 90th percentile, µs.
        #[serde(default)]
        pub p90_lo_us: Option<f64>,
        /// Upper end of that interval, µs.
        #[serde(default)]
        pub p90_hi_us: Option<f64>,
        /// The variant the speed columns compare with: the dataset's fastest (highest
        /// puzzles/s) unless the run chose one; empty when nothing was compared.
        #[serde(default)]
        pub reference: String,
        /// Speed against the reference: the geometric mean, over the puzzles both
        /// solved, of reference time / this variant's time (2 = twice as fast).
        #[serde(default)]
        pub speed: Option<f64>,
        /// 95% interval of `speed`, lower end: over the rounds (see `rounds`), else
        /// a bootstrap over the puzzles.
        #[serde(default)]
        pub speed_lo: Option<f64>,
        /// Upper end.
        #[serde(default)]
        pub speed_hi: Option<f64>,
        /// Share of those puzzles on which this variant took less time than the reference, %.
        #[serde(default)]
        pub faster_pct: Option<f64>,
        /// Where the contender comes from: `built-in`, `external` (an outside
        /// program) or `reference` (a well-known outside solver shipped for comparison).
        #[serde(default)]
        pub origin: String,
        /// Rounds the intervals are computed over; 0 or 1 (and runs saved before
        /// rounds): intervals over the puzzles only.
        #[serde(default)]
        pub rounds: u32,
        /// Timed solves behind the figures (0 in runs saved before it was counted).
        #[serde(default)]
        pub solves: u64,
        /// What the times stand for (see [`PuzzleResult::timing`]); empty in older runs.
        #[serde(default)]
        pub timing: String,
        /// How the answers were checked: `solution` (each solution, and the
        /// verdict against the reference) or `verdict` (a contender that returns
        /// no solutions: its verdict alone); empty in older runs.
        #[serde(default)]
        pub checked: String,
        /// Mean instructions per puzzle, counted by callgrind (`--measure
        /// instructions`): the same on every run of a build, on any machine.
        /// Empty when the run measured time.
        #[serde(default)]
        pub instructions_per_puzzle: Option<f64>,
        /// Mean CPU cycles per puzzle, when the run read the CPU's counters.
        #[serde(default)]
        pub cycles_per_puzzle: Option<f64>,
        /// Mean mispredicted branches per puzzle, likewise.
        #[serde(default)]
        pub branch_misses_per_puzzle: Option<f64>,
        /// Mean nanoseconds on a CPU per puzzle (`task-clock`), likewise.
        #[serde(default)]
        pub task_clock_ns_per_puzzle: Option<f64>,
        /// Mean search nodes per puzzle, over the verified puzzles that report
        /// nodes (empty when none does).
        #[serde(default)]
        pub nodes_per_puzzle: Option<f64>,
        /// The first three distinct reasons of failed rows (wrong or error),
        /// each as `#INDEX STATUS: DETAIL` with the first puzzle that gave it,
        /// joined by ` | `; empty when none failed.
        #[serde(default)]
        pub first_failures: String,
        /// CPU time per timed solve, µs: the worker thread's for a built-in
        /// strategy, its processes' (user and system, every thread) for an
        /// outside program or library host. Empty in older runs.
        #[serde(default)]
        pub cpu_us: Option<f64>,
        /// CPU time over the wall time of the same windows (see
        /// `cpu_clock`). Above [`CPU_RATIO_FLAG`] plus `cpu_margin` the
        /// contender ran on more cores than it was given, and its wall times
        /// are not comparable with the others' ([`SummaryRow::over_cores`]).
        #[serde(default)]
        pub cpu_ratio: Option<f64>,
        /// The clock `cpu_ratio` was read on, and over which windows:
        /// `thread` (a built-in's worker thread, ns, over its busy time),
        /// `process` (an outside program's CPU clock, ns, every thread of it,
        /// read inside the wall window of each call), `ticks` (its processes'
        /// CPU time in clock ticks over the passes, where no CPU clock could
        /// be read); empty in older runs.
        #[serde(default)]
        pub cpu_clock: String,
        /// How far the clock's resolution leaves `cpu_ratio` uncertain,
        /// either way (0 on a nanosecond clock; a tick a pass a worker over
        /// the busy time on `ticks`).
        #[serde(default)]
        pub cpu_margin: Option<f64>,
        /// Peak resident memory of an outside program's processes (the largest
        /// of them), bytes; empty for a built-in strategy.
        #[serde(default)]
        pub peak_mem_bytes: Option<u64>,
        /// The most heap one call of a built-in strategy held at once, bytes
        /// (what it allocated; its stack and the code are not in it); empty
        /// for an outside contender, and when instructions were counted.
        #[serde(default)]
        pub peak_heap_bytes: Option<u64>,
        /// Puzzles whose process went over the memory limit (`--memory-limit`)
        /// in some solve: neither verified nor wrong. 0 in older runs.
        #[serde(default)]
        pub memory: u64,
    }
}

/// A CPU/wall ratio above this (10% more CPU time than wall time) is
/// flagged: the contender used more cores than it was given.
pub const CPU_RATIO_FLAG: f64 = 1.1;

impl SummaryRow {
    /// True when the contender used more CPU time than wall time beyond
    /// what its clock can tell: `cpu_ratio` − `cpu_margin` above
    /// [`CPU_RATIO_FLAG`].
    pub fn over_cores(&self) -> bool {
        self.cpu_ratio
            .is_some_and(|r| r - self.cpu_margin.unwrap_or(0.0) > CPU_RATIO_FLAG)
    }
}

/// The share of a row's decidable puzzles (all but the `unchecked`) that
/// must be verified for its time, speed and interval to stand. Below it the
/// figures would describe the few puzzles a contender happened to solve, not
/// the dataset: every view shows the failures instead. Above it, a figure
/// over fewer than every puzzle says over how many.
pub const STANDING_SHARE: f64 = 0.5;

impl SummaryRow {
    /// True when its figures stand: at least [`STANDING_SHARE`] of its
    /// decidable puzzles were verified.
    pub fn stands(&self) -> bool {
        let decidable = self.puzzles.saturating_sub(self.unchecked);
        self.solved > 0 && self.solved as f64 >= STANDING_SHARE * decidable as f64
    }

    /// `over 269 of 300` when its figures stand on fewer than every puzzle;
    /// empty when they stand on all (or do not stand).
    pub fn over(&self) -> String {
        if self.stands() && self.solved < self.puzzles {
            format!("over {} of {}", self.solved, self.puzzles)
        } else {
            String::new()
        }
    }

    /// Its puzzles that failed or went unchecked, by kind, named by their
    /// count columns (but `stopped` for the budget's, and `over the memory
    /// limit`).
    pub fn kinds(&self) -> [(u64, &'static str); 5] {
        let c = SummaryRow::NAMES;
        [
            (self.errors, c.errors),
            (self.wrong, c.wrong),
            (self.budget, "stopped"),
            (self.unchecked, c.unchecked),
            (self.memory, "over the memory limit"),
        ]
    }

    /// What failed, by kind, largest first: `282 errors, 3 wrong`
    /// (`stopped` for the budget's rows); empty when nothing did.
    pub fn failed_kinds(&self) -> String {
        let mut kinds = self.kinds().to_vec();
        kinds.retain(|k| k.1 != SummaryRow::NAMES.unchecked);
        kinds.sort_by_key(|k| std::cmp::Reverse(k.0));
        kinds
            .iter()
            .filter(|k| k.0 > 0)
            .map(|k| format!("{} {}", k.0, k.1))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A cell for a row whose figures do not stand, in place of a speed:
    /// its largest kind of failure over its puzzles, like `282/300 errors`.
    pub fn failure_cell(&self) -> String {
        let kinds = self.kinds();
        let (n, kind) = kinds
            .iter()
            .max_by_key(|k| k.0)
            .copied()
            .unwrap_or((0, SummaryRow::NAMES.errors));
        format!("{n}/{} {kind}", self.puzzles)
    }
}

impl SummaryRow {
    /// The variant as tables and charts show it: outside and reference
    /// contenders are marked, a library as one.
    pub fn label(&self) -> String {
        label(&self.variant, self.origin_word())
    }

    /// `library` for a library contender, else its origin.
    pub fn origin_word(&self) -> &str {
        match (self.origin.as_str(), self.strategy.as_str()) {
            ("external", "library") => "library",
            (o, _) => o,
        }
    }
}

/// A variant's name, marked when its origin is not built in.
pub fn label(variant: &str, origin: &str) -> String {
    match origin {
        "external" | "reference" | "library" => format!("{variant} ({origin})"),
        _ => variant.to_string(),
    }
}

/// A strategy × dataset pair a run left out: the strategy does not handle the size.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Variant name.
    pub variant: String,
    /// Dataset name.
    pub dataset: String,
    /// The dataset's grid size, like `16x16`.
    pub size: String,
    /// The sizes the strategy handles, like `9x9`.
    pub handles: String,
}

impl Skipped {
    pub(crate) fn new(c: &super::Contender, ds: &super::BenchDataset) -> Skipped {
        Skipped {
            variant: c.variant.clone(),
            dataset: ds.name.clone(),
            size: ds.geometry.name(),
            handles: if c.supports(ds.geometry) {
                "puzzles without pencilmarks".into()
            } else {
                c.sizes
                    .iter()
                    .map(|n| format!("{n}x{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        }
    }
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} skipped on {} ({}): it handles {} only",
            self.variant, self.dataset, self.size, self.handles
        )
    }
}
