//! Contenders: what the harness times, whatever it is.
//!
//! A [`Contender`] is a name, the sizes it handles and an [`Engine`]: the one
//! loop that solves the puzzles a worker is handed and reports each through a
//! callback as a [`Solved`]. Strategies of this workbench run as
//! [`InProcess`] engines; outside programs ([`crate::external::Program`]) are
//! the other implementation. The harness sees only this module, and every
//! answer, whoever gave it, goes through the same [`check`].

use crate::grid::{Geometry, Grid};
use crate::solver::{Limits, Mode, Outcome, Solver, SolverId, Status};
use crate::validate::check_solution;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One puzzle as a contender is given it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPuzzle {
    /// 0-based position in the dataset file.
    pub index: u64,
    /// The givens (permuted when asked).
    pub grid: Grid,
    /// The expected answer (permuted alike), if the dataset has one.
    pub expected: Option<Grid>,
    /// The givens conflict.
    pub invalid: bool,
    /// What the workbench itself knows of the puzzle's solutions, for
    /// checking verdicts (see [`Reference`]).
    pub reference: Reference,
}

/// A puzzle's reference verdict: its solutions counted by a strategy the
/// workbench trusts, untimed, before the run (`harness::verdicts`). Every
/// verdict a contender gives is checked against it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reference {
    /// Not computed: only what a row's own solutions prove is taken.
    #[default]
    Unknown,
    /// `found` solutions, counted up to `limit` (`found == limit`: at least that many).
    Count {
        /// Solutions found.
        found: u64,
        /// Where the count stopped.
        limit: u64,
    },
    /// The reference search ran out of its node budget: nothing to check against.
    Undecided,
}

impl Reference {
    /// The count, when it was decided.
    pub fn count(self) -> Option<(u64, u64)> {
        match self {
            Reference::Count { found, limit } => Some((found, limit)),
            _ => None,
        }
    }
}

/// How a contender's answers are checked: by their solutions (and their
/// verdict against the reference), or by the verdict alone (a contender that
/// returns no solutions, `solutions = false`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Checked {
    /// Each solution is checked, and the verdict against the reference.
    #[default]
    Solution,
    /// The verdict alone, against the reference.
    Verdict,
}

impl Checked {
    /// Every way, in declaration order.
    pub const ALL: [Checked; 2] = [Checked::Solution, Checked::Verdict];

    /// Their words, as CSV files write them.
    pub const WORDS: [&'static str; 2] = ["solution", "verdict"];

    /// The word written in CSV files.
    pub fn word(self) -> &'static str {
        Checked::WORDS[self as usize]
    }
}

crate::words_of!(Checked, "a way of checking", serde);

/// What the check of one answer found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The verdict is right.
    Right(Status),
    /// Nothing wrong was found, but nothing decides the verdict either (the
    /// reference ran out of budget): never counted as solved. Says why.
    Unchecked(String),
    /// The answer is wrong. Says what is wrong.
    Wrong(String),
}

/// What became of one puzzle, as a contender's engine reports it.
#[derive(Debug)]
pub struct Solved {
    /// The outcome, or why there is none (a panic, a crashed program, an unreadable answer).
    pub result: Result<Outcome, String>,
    /// Time of the solve, ns.
    pub ns: u64,
    /// Search nodes, when the contender counts them.
    pub nodes: Option<u64>,
    /// Guesses, likewise.
    pub guesses: Option<u64>,
    /// The contender's own time measure, when it gives one.
    pub own_ns: Option<u64>,
    /// What was counted of the call, when the run counts (`--measure
    /// instructions`, see [`crate::callgrind`]; the CPU's counters, see
    /// [`crate::perf`]).
    pub counts: crate::perf::Counts,
    /// When the answer came.
    pub at: Instant,
    /// What the row's detail should say of a verdict that needs a word (the
    /// limit that stopped a hung program).
    pub note: Option<String>,
    /// The contender's process went over the memory limit: the row is
    /// `memory`, and `result`'s error says how it was stopped.
    pub memory: bool,
}

impl Solved {
    /// No outcome: `why` says what went wrong.
    pub fn failed(why: String, ns: u64, at: Instant) -> Solved {
        Solved {
            result: Err(why),
            ns,
            nodes: None,
            guesses: None,
            own_ns: None,
            counts: Default::default(),
            at,
            note: None,
            memory: false,
        }
    }

    /// Stopped by a limit or the cancel flag, with no solution.
    pub fn stopped(status: Status, ns: u64, at: Instant) -> Solved {
        Solved {
            result: Ok(Outcome {
                status,
                solutions: Vec::new(),
                solution_count: 0,
                counters: Default::default(),
            }),
            ns,
            nodes: None,
            guesses: None,
            own_ns: None,
            counts: Default::default(),
            at,
            note: None,
            memory: false,
        }
    }
}

/// A share of puzzles as the harness hands it to an engine on one worker.
pub struct Job<'a> {
    /// The puzzles; the worker's slots index into them.
    pub puzzles: &'a [BenchPuzzle],
    /// What each solve looks for.
    pub mode: Mode,
    /// Per-puzzle node budget.
    pub node_budget: Option<u64>,
    /// Per-puzzle time limit.
    pub time_limit: Option<Duration>,
    /// Per-puzzle CPU-time limit.
    pub cpu_limit: Option<Duration>,
    /// Raised to stop the run.
    pub cancel: &'a Arc<AtomicBool>,
    /// The worker is pinned to one processor (`--pin`): an outside
    /// program's processes go on that processor with it.
    pub pin: bool,
}

impl Job<'_> {
    /// The limits of one solve: the budget, a deadline from now (on the
    /// wall clock, and on the calling thread's CPU clock), the cancel flag.
    pub fn limits(&self) -> Limits {
        Limits::new(self.mode)
            .with_node_budget(self.node_budget)
            .with_deadline(self.time_limit.map(|t| Instant::now() + t))
            .with_cpu_deadline(self.cpu_limit.map(|t| crate::usage::thread_cpu() + t))
            .with_cancel(self.cancel.clone())
    }
}

/// How a contender solves: the loop a worker runs, timing each answer.
pub trait Engine: Send + Sync {
    /// Solves the puzzles `next` hands out (slots into `job.puzzles`), one at a
    /// time, reporting each through `done` with the time of its answer alone.
    fn work(
        &self,
        job: &Job<'_>,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    );

    /// The function timed for each puzzle, when the engine is a call in this process.
    fn solve_fn(&self) -> Option<Arc<SolveFn>> {
        None
    }

    /// The warm-up is over (an outside program forgets its crashes so far).
    fn warmed_up(&self) {}

    /// The run is over (an outside program's processes are closed).
    fn finish(&self) {}

    /// What its processes used so far, for an engine that runs outside
    /// this process (read between passes); `None` for one that runs in it,
    /// whose CPU time is its worker thread's.
    fn usage(&self) -> Option<Used> {
        None
    }

    /// Why the engine was given up during the run (it answered nothing on a
    /// size, or crashed past its limit), once for each place it was.
    fn given_up(&self) -> Vec<String> {
        Vec::new()
    }
}

/// What an outside contender's processes used: CPU time (user and system,
/// every thread) and the highest peak resident memory of any of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Used {
    /// CPU time.
    pub cpu: Duration,
    /// Peak resident memory, in bytes.
    pub peak_bytes: u64,
    /// CPU time inside its calls and their wall time, read on its
    /// processes' CPU clocks (nanoseconds).
    pub calls: crate::usage::CallUse,
}

/// A solve function the harness can time.
pub type SolveFn = dyn Fn(&Grid, &Limits) -> Outcome + Send + Sync;

/// An engine that calls a function in this process and times each call.
pub struct InProcess {
    solve: Arc<SolveFn>,
    /// Extra work done after each counted call, as a share of its
    /// instructions (a handicap under `--measure instructions`).
    extra_work: f64,
}

impl InProcess {
    /// An engine around `solve`.
    pub fn new(solve: Arc<SolveFn>) -> InProcess {
        InProcess {
            solve,
            extra_work: 0.0,
        }
    }
}

impl Engine for InProcess {
    fn work(
        &self,
        job: &Job<'_>,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        // A deadline is per puzzle; otherwise the limits never change.
        let shared = job.limits();
        while let Some(slot) = next() {
            let own;
            let limits = match job.time_limit.or(job.cpu_limit) {
                Some(_) => {
                    own = job.limits();
                    &own
                }
                None => &shared,
            };
            let grid = &job.puzzles[slot].grid;
            let (timed, heap) = crate::callgrind::watched(|| {
                crate::callgrind::timed(|| {
                    catch_unwind(AssertUnwindSafe(|| (self.solve)(grid, limits)))
                })
            });
            let (counted, ns, at) = (timed.counts(), timed.ns, timed.at);
            let counters = timed.out.as_ref().ok().map(|o| o.counters);
            let mut result = timed
                .out
                .map_err(|p| format!("panicked: {}", panic_message(p)));
            let mut counts = counted.unwrap_or_else(|why| {
                result = Err(why.to_string());
                Default::default()
            });
            // A handicap's extra work, counted as part of the call.
            if let (Some(n), true) = (counts.instructions, self.extra_work > 0.0) {
                counts.instructions = Some(n + crate::callgrind::extra_work(n, self.extra_work));
            }
            counts.heap_bytes = heap;
            done(
                slot,
                Solved {
                    result,
                    ns,
                    nodes: counters.map(|c| c.nodes),
                    guesses: counters.map(|c| c.guesses),
                    own_ns: None,
                    counts,
                    at,
                    note: None,
                    memory: false,
                },
            );
        }
    }

    fn solve_fn(&self) -> Option<Arc<SolveFn>> {
        Some(self.solve.clone())
    }
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic with a non-text payload".to_string())
}

/// What a contender's row times stand for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Timing {
    /// The solve call alone, by the workbench's clock: a strategy of this
    /// workbench, or a library called in the workbench's host.
    #[default]
    Call,
    /// From writing the puzzle line to reading its answer, one puzzle in
    /// flight: the pipe's round trip is in every row.
    Pipe,
    /// A share of a batch's wall time (by the program's own `ns=` where it
    /// gives them, else even): throughput, not a per-puzzle measurement.
    Batch,
}

impl Timing {
    /// Every kind, in declaration order.
    pub const ALL: [Timing; 3] = [Timing::Call, Timing::Pipe, Timing::Batch];

    /// Their words, as CSV files write them.
    pub const WORDS: [&'static str; 3] = ["call", "pipe", "batch"];

    /// The word written in CSV files.
    pub fn word(self) -> &'static str {
        Timing::WORDS[self as usize]
    }
}

crate::words_of!(Timing, "a timing", serde);
crate::word_cells!(Timing, Checked);

/// Where a contender comes from, as tables and charts mark it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A strategy of this workbench.
    BuiltIn,
    /// An outside program (`--contender`).
    External,
    /// A well-known outside solver shipped for comparison.
    Reference,
}

impl Origin {
    /// The word used in `summary.csv`.
    pub fn word(self) -> &'static str {
        match self {
            Origin::BuiltIn => "built-in",
            Origin::External => "external",
            Origin::Reference => "reference",
        }
    }
}

/// One contender: a registry strategy, an outside program, or (for tests) any solve function.
#[derive(Clone)]
pub struct Contender {
    /// Strategy family.
    pub strategy: String,
    /// Variant name.
    pub variant: String,
    /// Node budget applied unless the run sets one.
    pub default_budget: Option<u64>,
    /// Grid sides handled (4, 9, 16, 25); datasets of other sizes are skipped.
    pub sizes: Vec<usize>,
    /// True when it takes pencilmark puzzles; datasets with some are skipped otherwise.
    pub pencilmark: bool,
    /// How its answers are checked: by their solutions, or (a contender that
    /// returns none) by the verdict alone.
    pub checked: Checked,
    /// Where it comes from.
    pub origin: Origin,
    /// What its row times stand for.
    pub timing: Timing,
    /// False when the counters its engine gives are no search counts (a
    /// reference crate's): they are left empty.
    pub counts: bool,
    /// How it solves.
    pub engine: Arc<dyn Engine>,
}

impl Contender {
    /// A contender for a registry entry.
    pub fn from_id(id: SolverId) -> Contender {
        Contender {
            strategy: id.strategy().to_string(),
            variant: id.name().to_string(),
            default_budget: id.default_node_budget(),
            sizes: id.sizes().to_vec(),
            pencilmark: true,
            checked: Checked::Solution,
            origin: if id.is_reference() {
                Origin::Reference
            } else {
                Origin::BuiltIn
            },
            timing: Timing::Call,
            counts: id.counts_search(),
            engine: Arc::new(InProcess::new(Arc::new(move |g, l| id.solve(g, l)))),
        }
    }

    /// A contender for any solve function (the harness's own tests use a wrong one).
    pub fn custom(strategy: &str, variant: &str, solve: Arc<SolveFn>) -> Contender {
        Contender {
            strategy: strategy.to_string(),
            variant: variant.to_string(),
            default_budget: None,
            sizes: crate::solver::ALL_SIZES.to_vec(),
            pencilmark: true,
            checked: Checked::Solution,
            origin: Origin::BuiltIn,
            timing: Timing::Call,
            counts: true,
            engine: Arc::new(InProcess::new(solve)),
        }
    }

    /// True when the contender handles grids of this geometry.
    pub fn supports(&self, g: Geometry) -> bool {
        self.sizes.contains(&g.side())
    }

    /// Solves one puzzle through the very call the harness times; `None` for an
    /// outside program (the harness speaks to those a pipeline at a time).
    pub fn solve(&self, grid: &Grid, limits: &Limits) -> Option<Outcome> {
        self.engine.solve_fn().map(|solve| solve(grid, limits))
    }

    /// The same contender made slower by `fraction` (0.2: 20%) on every puzzle:
    /// after each solve it spins until the call has lasted `1 + fraction` times
    /// the solve, inside the timed call; when instructions are counted, it
    /// does `fraction` times the call's instructions of extra work instead
    /// (see [`crate::callgrind::extra_work`]). For checking that a regression
    /// gate catches a known slowdown; an outside program is left as it is.
    pub fn handicapped(mut self, fraction: f64) -> Contender {
        if let (Some(inner), true) = (self.engine.solve_fn(), crate::callgrind::counting()) {
            self.engine = Arc::new(InProcess {
                solve: inner,
                extra_work: fraction,
            });
        } else if let Some(inner) = self.engine.solve_fn() {
            self.engine = Arc::new(InProcess::new(Arc::new(move |g, l| {
                let t0 = Instant::now();
                let out = inner(g, l);
                let until = t0 + t0.elapsed().mul_f64(1.0 + fraction);
                while Instant::now() < until {
                    std::hint::spin_loop();
                }
                out
            })));
        }
        self
    }
}

/// Checks one outcome against the puzzle, its expected answer and its
/// reference verdict: the checks every contender's answers get. `by` says
/// whether the contender returns solutions (they are then required).
pub fn check(p: &BenchPuzzle, outcome: &Outcome, by: Checked) -> Verdict {
    judge(p, outcome, by).unwrap_or_else(Verdict::Wrong)
}

/// [`check`], with what is wrong as the error.
fn judge(p: &BenchPuzzle, outcome: &Outcome, by: Checked) -> Result<Verdict, String> {
    for (i, s) in outcome.solutions.iter().enumerate() {
        check_solution(&p.grid, s)
            .map_err(|e| format!("solution {} fails the check: {e}", i + 1))?;
    }
    if outcome.solutions.len() >= 2 && outcome.solutions[0] == outcome.solutions[1] {
        return Err("reported the same solution twice".into());
    }
    let found = outcome.solutions.len() as u64;
    let count = outcome.solution_count;
    let shown_ok = match by {
        Checked::Solution => found == 1,
        Checked::Verdict => found <= 1,
    };
    match outcome.status {
        Status::Unique | Status::Solved if found == 0 && by == Checked::Solution => {
            return Err(format!(
                "said {} without its solution: a contender that returns none says \
                 `solutions = false`, and its verdicts are checked alone",
                outcome.status
            ))
        }
        Status::Unique | Status::Solved if !shown_ok || count != 1 => {
            return Err(format!(
                "said {} with {found} solutions shown and a count of {count}",
                outcome.status
            ))
        }
        Status::Multiple if count < 2 => return Err("said multiple with a count under two".into()),
        Status::None | Status::Invalid if found > 0 => {
            return Err(format!("said {} but returned a solution", outcome.status))
        }
        _ => {}
    }
    // A puzzle of several solutions solved (`--mode first`): the dataset's
    // answer is one of them, and a solution is checked by the rules alone
    // (above); one said unique is still held to the answer.
    let several =
        outcome.status == Status::Solved && p.reference.count().is_some_and(|(n, _)| n >= 2);
    if let (Some(want), true) = (
        &p.expected,
        p.invalid == (outcome.status == Status::Invalid),
    ) {
        match outcome.status {
            Status::Unique | Status::Solved
                if found == 1 && !several && outcome.solutions[0] != *want =>
            {
                let g = want.geometry();
                let cell = (0..g.cells())
                    .find(|&c| outcome.solutions[0].get(c) != want.get(c))
                    .unwrap_or(0);
                return Err(format!(
                    "differs from the expected answer at r{}c{}",
                    g.row(cell) + 1,
                    g.col(cell) + 1
                ));
            }
            Status::None => return Err("said none, but the dataset gives an answer".into()),
            _ => {}
        }
    }
    if p.invalid != (outcome.status == Status::Invalid) {
        return Err(format!(
            "said {} for a puzzle whose givens {}",
            outcome.status,
            if p.invalid {
                "conflict"
            } else {
                "do not conflict"
            }
        ));
    }
    against_reference(p.reference, outcome)
}

/// The verdict of a well-formed outcome against the puzzle's reference.
fn against_reference(reference: Reference, outcome: &Outcome) -> Result<Verdict, String> {
    let status = outcome.status;
    let shown = outcome.solutions.len();
    let undecided = || {
        Verdict::Unchecked(format!(
            "said {status}; {}",
            match reference {
                Reference::Undecided =>
                    "the reference search ran out of its node budget, so nothing decides it",
                _ => "no reference verdict to check it against",
            }
        ))
    };
    let Some((found, limit)) = reference.count() else {
        // Only what the row's own solutions prove is taken.
        return Ok(match status {
            Status::Solved if shown == 1 => Verdict::Right(status),
            Status::Multiple if shown >= 2 && outcome.solution_count == 2 => Verdict::Right(status),
            Status::Budget | Status::Cancelled | Status::Invalid => Verdict::Right(status),
            _ => undecided(),
        });
    };
    let several = match found {
        0 => "no solution".to_string(),
        1 if limit > 1 => "one solution".to_string(),
        n if n == limit => format!("at least {n} solutions"),
        n => format!("{n} solutions"),
    };
    let wrong = |verdict: &str| Err(format!("said {verdict}, but the puzzle has {several}"));
    match status {
        Status::None if found > 0 => wrong(status.word()),
        Status::Solved if found == 0 => wrong(status.word()),
        Status::Unique if found != 1 => wrong(status.word()),
        Status::Multiple if found < 2 => wrong(status.word()),
        Status::Multiple if limit > 2 && outcome.solution_count.min(limit) != found => {
            wrong(&format!("{} solutions", outcome.solution_count))
        }
        _ => Ok(Verdict::Right(status)),
    }
}
