//! The benchmark harness: strategies × datasets in parallel, every answer checked.
//!
//! Workers (rayon) take puzzles one after another and time only each answer
//! with a monotonic clock (a call in this process, or an outside program's
//! answer line: [`crate::external`]), check the answer after the clock stops,
//! and hand compact rows in batches to the calling thread, which turns them
//! into [`PuzzleRecord`]s for a [`RecordSink`]. Nothing about output happens in
//! the timed region, and the harness never sees a file format. A run goes round
//! by round, each round a share of every dataset ([`schedule`]).

pub mod info;
pub mod prepare;
pub mod record;
pub mod schedule;
pub mod summary;

pub use info::{OwnTime, RunInfo, RunOptions};
pub use prepare::{BenchDataset, BenchPuzzle, DatasetInfo, Selection};
pub use record::{PuzzleRecord, RowStatus, Skipped, SummaryRow};
use schedule::DatasetRun;
pub use schedule::{rounds_for, Schedule, MIN_PER_ROUND};

use crate::format::write_line_into;
use crate::grid::{Geometry, Grid};
use crate::solver::{Limits, Mode, Outcome, Solver, SolverId, Status};
use crate::validate::check_solution;
use rayon::prelude::*;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, SyncSender, TryRecvError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A solve function the harness can time.
pub type SolveFn = dyn Fn(&Grid, &Limits) -> Outcome + Send + Sync;

/// How a contender solves: a call in this process, or an outside program.
#[derive(Clone)]
pub enum Engine {
    /// A function the harness calls and times itself.
    InProcess(Arc<SolveFn>),
    /// A program spoken to over the line protocol.
    External(Arc<crate::external::Program>),
}

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
    /// Where it comes from.
    pub origin: Origin,
    /// False when its search counters are not reported (they stay empty).
    pub counts: bool,
    engine: Engine,
}

/// What became of one puzzle, as a contender's worker reports it.
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
    /// When the answer came.
    pub at: Instant,
}

impl Contender {
    /// A contender for a registry entry.
    pub fn from_id(id: SolverId) -> Contender {
        Contender {
            strategy: id.strategy().to_string(),
            variant: id.name().to_string(),
            default_budget: id.default_node_budget(),
            sizes: id.sizes().to_vec(),
            origin: if id.is_reference() {
                Origin::Reference
            } else {
                Origin::BuiltIn
            },
            counts: id.counts_search(),
            engine: Engine::InProcess(Arc::new(move |g, l| id.solve(g, l))),
        }
    }

    /// A contender for an outside program.
    pub fn external(program: Arc<crate::external::Program>) -> Contender {
        Contender {
            strategy: "external".to_string(),
            variant: program.spec.name.clone(),
            default_budget: None,
            sizes: program.spec.sizes.clone(),
            origin: Origin::External,
            counts: false,
            engine: Engine::External(program),
        }
    }

    /// True when the contender handles grids of this geometry.
    pub fn supports(&self, g: Geometry) -> bool {
        self.sizes.contains(&g.side())
    }

    /// Solves one puzzle through the very call the harness times; `None` for an
    /// outside program (the harness speaks to those a pipeline at a time).
    pub fn solve(&self, grid: &Grid, limits: &Limits) -> Option<Outcome> {
        match &self.engine {
            Engine::InProcess(solve) => Some(solve(grid, limits)),
            Engine::External(_) => None,
        }
    }

    /// A contender for any solve function (the harness's own tests use a wrong one).
    pub fn custom(strategy: &str, variant: &str, solve: Arc<SolveFn>) -> Contender {
        Contender {
            strategy: strategy.to_string(),
            variant: variant.to_string(),
            default_budget: None,
            sizes: crate::solver::ALL_SIZES.to_vec(),
            origin: Origin::BuiltIn,
            counts: true,
            engine: Engine::InProcess(solve),
        }
    }

    /// The same contender made slower by `fraction` (0.2: 20%) on every puzzle:
    /// after each solve it spins until the call has lasted `1 + fraction` times
    /// the solve, inside the timed call. For checking that a regression gate
    /// catches a known slowdown; an outside program is left as it is.
    pub fn handicapped(mut self, fraction: f64) -> Contender {
        if let Engine::InProcess(inner) = self.engine {
            self.engine = Engine::InProcess(Arc::new(move |g, l| {
                let t0 = Instant::now();
                let out = inner(g, l);
                let until = t0 + t0.elapsed().mul_f64(1.0 + fraction);
                while Instant::now() < until {
                    std::hint::spin_loop();
                }
                out
            }));
        }
        self
    }

    /// Solves the puzzles `next` hands out (slots into `puzzles`), reporting
    /// each through `done`: the one loop a worker runs, for any kind of contender.
    fn work(
        &self,
        puzzles: &[BenchPuzzle],
        opts: &BenchOptions,
        cancel: &Arc<AtomicBool>,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        match &self.engine {
            Engine::InProcess(solve) => {
                // A deadline is per puzzle; otherwise the limits never change.
                let shared = limits_for(self, opts, cancel);
                while let Some(slot) = next() {
                    let own;
                    let limits = match opts.time_limit {
                        Some(_) => {
                            own = limits_for(self, opts, cancel);
                            &own
                        }
                        None => &shared,
                    };
                    let grid = &puzzles[slot].grid;
                    let t0 = Instant::now();
                    let out = catch_unwind(AssertUnwindSafe(|| solve(grid, limits)));
                    let t1 = Instant::now();
                    let counters = out
                        .as_ref()
                        .ok()
                        .filter(|_| self.counts)
                        .map(|o| o.counters);
                    done(
                        slot,
                        Solved {
                            result: out.map_err(|p| format!("panicked: {}", panic_message(p))),
                            ns: (t1 - t0).as_nanos() as u64,
                            nodes: counters.map(|c| c.nodes),
                            guesses: counters.map(|c| c.guesses),
                            own_ns: None,
                            at: t1,
                        },
                    );
                }
            }
            Engine::External(program) => {
                let job = crate::external::Job {
                    puzzles,
                    mode: opts.mode,
                    time_limit: opts.time_limit,
                    cancel,
                };
                program.work(&job, next, done);
            }
        }
    }

    /// Ends the warm-up: an outside program's restart limit counts measured puzzles only.
    fn warmed_up(&self) {
        if let Engine::External(p) = &self.engine {
            p.forgive();
        }
    }

    /// Ends the contender's part in a run (outside programs are closed).
    fn finish(&self) {
        if let Engine::External(p) = &self.engine {
            p.shutdown();
        }
    }
}

/// The node budget of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Each strategy's default (slow strategies only).
    StrategyDefault,
    /// No node budget for anyone.
    Unlimited,
    /// This many nodes for everyone.
    Nodes(u64),
}

/// How to run.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Worker threads.
    pub threads: usize,
    /// What each solve looks for.
    pub mode: Mode,
    /// Per-puzzle node budget.
    pub budget: Budget,
    /// Per-puzzle time limit.
    pub time_limit: Option<Duration>,
    /// Puzzles solved untimed before each strategy's timed pass.
    pub warmup: usize,
    /// Timed passes over each round's share of a dataset (at least).
    pub repeat: u32,
    /// Rounds the run is measured in: each takes every dataset's share of
    /// puzzles (see [`rounds_for`]) at its own time in the run.
    pub rounds: usize,
    /// More passes over a dataset, for each contender, until its timed passes
    /// add up to at least this much wall time.
    pub min_time: Option<Duration>,
    /// How contenders take turns over a dataset.
    pub schedule: Schedule,
    /// Puzzles per interleaved block (default: [`Schedule::block_size`]).
    pub block: Option<usize>,
    /// The variant the speed columns compare with (default: each dataset's fastest).
    pub reference: Option<String>,
}

/// Receives every record as it is measured.
pub trait RecordSink {
    /// Takes one record.
    fn record(&mut self, r: &PuzzleRecord) -> io::Result<()>;
    /// Makes everything taken so far durable.
    fn flush(&mut self) -> io::Result<()>;
}

/// Hears about progress (the binary draws a bar).
pub trait Observer {
    /// A strategy starts on a dataset with `rows` timed solves.
    fn phase_started(&self, _variant: &str, _dataset: &str, _rows: u64) {}
    /// `rows` more timed solves were added to the phase (`--min-time` asked for another pass).
    fn rows_added(&self, _rows: u64) {}
    /// One row is done.
    fn row_done(&self, _r: &PuzzleRecord) {}
    /// The phase is done.
    fn phase_done(&self, _summary: &SummaryRow) {}
}

/// An observer that ignores everything.
pub struct Silent;
impl Observer for Silent {}

/// The result of a run.
#[derive(Clone, Debug)]
pub struct RunResult {
    /// One row per strategy variant and dataset, in run order.
    pub summary: Vec<SummaryRow>,
    /// Strategy × dataset pairs not run because the strategy does not handle the size.
    pub skipped: Vec<Skipped>,
    /// True when the cancel flag stopped the run early.
    pub interrupted: bool,
    /// Rounds that ran to their end over every dataset.
    pub rounds_complete: usize,
    /// The timed solves of every row, summed over the workers.
    pub timed_solves: Duration,
    /// Time spent computing the summary from the rows, after the last solve.
    pub statistics: Duration,
}

impl RunResult {
    /// Rows with a wrong answer, over the whole run.
    pub fn wrong(&self) -> u64 {
        self.summary.iter().map(|s| s.wrong).sum()
    }

    /// Rows where a strategy panicked.
    pub fn errors(&self) -> u64 {
        self.summary.iter().map(|s| s.errors).sum()
    }
}

/// What a worker sends for one solve: checked already, the outcome dropped where it was made.
struct Measured {
    slot: usize,
    repeat: u32,
    status: RowStatus,
    detail: String,
    nodes: Option<u64>,
    guesses: Option<u64>,
    solutions: u64,
    ns: u64,
    own_ns: Option<u64>,
}

impl Measured {
    /// Checks a contender's answer (outside the timed region) and keeps only what the record needs.
    fn checked(p: &BenchPuzzle, slot: usize, repeat: u32, s: Solved) -> Measured {
        let (status, detail, solutions) = match s.result {
            Err(why) => (RowStatus::Error, why, 0),
            Ok(o) => match check(p, &o) {
                Ok(st) => (st, String::new(), o.solution_count),
                Err(why) => (RowStatus::Wrong, why, o.solution_count),
            },
        };
        Measured {
            slot,
            repeat,
            status,
            detail,
            nodes: s.nodes,
            guesses: s.guesses,
            solutions,
            ns: s.ns,
            own_ns: s.own_ns,
        }
    }
}

/// A worker's rows on their way to the writer: sent every [`Batch::ROWS`] rows or
/// [`Batch::AGE`], whichever comes first, and when the worker's share ends, so the
/// timed loop pays for a channel hand-off only once in a while.
struct Batch {
    tx: SyncSender<Vec<Measured>>,
    rows: Vec<Measured>,
    since: Instant,
}

impl Batch {
    const ROWS: usize = 1024;
    const AGE: Duration = Duration::from_millis(50);

    fn new(tx: SyncSender<Vec<Measured>>) -> Batch {
        Batch {
            tx,
            rows: Vec::with_capacity(Self::ROWS),
            since: Instant::now(),
        }
    }

    fn push(&mut self, m: Measured, now: Instant) {
        self.rows.push(m);
        if self.rows.len() >= Self::ROWS || now.duration_since(self.since) >= Self::AGE {
            self.send();
        }
    }

    fn send(&mut self) {
        if !self.rows.is_empty() {
            let rows = std::mem::replace(&mut self.rows, Vec::with_capacity(Self::ROWS));
            let _ = self.tx.send(rows);
        }
        self.since = Instant::now();
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        self.send();
    }
}

fn panic_message(payload: Box<dyn std::any::Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic with a non-text payload".to_string())
}

/// Checks one outcome against the puzzle and its expected answer: the checks
/// every contender's answers get. `Err` says what is wrong.
pub fn check(p: &BenchPuzzle, outcome: &Outcome) -> Result<RowStatus, String> {
    for (i, s) in outcome.solutions.iter().enumerate() {
        check_solution(&p.grid, s)
            .map_err(|e| format!("solution {} fails the check: {e}", i + 1))?;
    }
    if outcome.solutions.len() >= 2 && outcome.solutions[0] == outcome.solutions[1] {
        return Err("reported the same solution twice".into());
    }
    let found = outcome.solutions.len() as u64;
    match outcome.status {
        Status::Unique | Status::Solved if found != 1 || outcome.solution_count != 1 => {
            return Err(format!("said {} with {found} solutions", outcome.status))
        }
        Status::Multiple if outcome.solution_count < 2 => {
            return Err("said multiple with fewer than two solutions".into())
        }
        Status::None | Status::Invalid if found > 0 => {
            return Err(format!("said {} but returned a solution", outcome.status))
        }
        _ => {}
    }
    if let (Some(want), true) = (
        &p.expected,
        p.invalid == (outcome.status == Status::Invalid),
    ) {
        match outcome.status {
            Status::Unique | Status::Solved if outcome.solutions[0] != *want => {
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
    Ok(outcome.status.into())
}

/// Runs every contender over every dataset: in [`BenchOptions::rounds`] rounds,
/// each visiting every dataset in turn and solving its share of the puzzles
/// (see [`rounds_for`]), so a dataset's rounds are spread over the whole run.
pub fn run(
    contenders: &[Contender],
    datasets: &[BenchDataset],
    opts: &BenchOptions,
    cancel: &Arc<AtomicBool>,
    sink: &mut dyn RecordSink,
    observer: &dyn Observer,
) -> io::Result<RunResult> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .map_err(io::Error::other)?;
    let mut skipped = Vec::new();
    let mut states: Vec<DatasetRun> = datasets
        .iter()
        .map(|ds| {
            let mut here = Vec::new();
            for c in contenders {
                if c.supports(ds.geometry) {
                    here.push(c);
                } else {
                    skipped.push(Skipped::new(c, ds));
                }
            }
            DatasetRun::new(here, ds, opts)
        })
        .collect();
    let rounds = opts.rounds.max(1);
    let mut complete = 0;
    'rounds: for round in 0..rounds {
        for (ds, st) in datasets.iter().zip(&mut states) {
            if cancel.load(Ordering::Relaxed) {
                break 'rounds;
            }
            if round < st.rounds {
                st.run_round(&pool, ds, round, opts, cancel, sink, observer)?;
            }
        }
        if !cancel.load(Ordering::Relaxed) {
            complete += 1;
        }
    }
    let statistics = Instant::now();
    let mut summary = Vec::new();
    let mut timed_ns = 0;
    for (ds, st) in datasets.iter().zip(states) {
        summary.extend(st.finish(ds, opts, observer, &mut timed_ns));
    }
    let statistics = statistics.elapsed();
    for c in contenders {
        c.finish();
    }
    Ok(RunResult {
        summary,
        skipped,
        interrupted: cancel.load(Ordering::Relaxed),
        rounds_complete: complete,
        timed_solves: Duration::from_nanos(timed_ns),
        statistics,
    })
}

/// The limits of one contender's solves: its node budget, the run's time limit
/// (a deadline from now) and the cancel flag.
fn limits_for(c: &Contender, opts: &BenchOptions, cancel: &Arc<AtomicBool>) -> Limits {
    let budget = match opts.budget {
        Budget::StrategyDefault => c.default_budget,
        Budget::Unlimited => None,
        Budget::Nodes(n) => Some(n),
    };
    Limits::new(opts.mode)
        .with_node_budget(budget)
        .with_deadline(opts.time_limit.map(|t| Instant::now() + t))
        .with_cancel(cancel.clone())
}

/// Solves the first `--warmup` puzzles of `window` with each contender,
/// unrecorded; returns the fastest contender's wall time per puzzle (which
/// sizes the interleaved blocks), `Duration::MAX` without a warm-up.
fn warm_up(
    pool: &rayon::ThreadPool,
    cs: &[&Contender],
    window: &[BenchPuzzle],
    opts: &BenchOptions,
    cancel: &Arc<AtomicBool>,
) -> Duration {
    let mut fastest = Duration::MAX;
    let some = &window[..opts.warmup.min(window.len())];
    for c in cs {
        let started = Instant::now();
        let solved = std::sync::atomic::AtomicUsize::new(0);
        pool.install(|| {
            drive(
                c,
                some,
                opts,
                cancel,
                || (),
                |_, _| {},
                |_, _, _| {
                    solved.fetch_add(1, Ordering::Relaxed);
                },
            )
        });
        c.warmed_up();
        let solved = solved.into_inner();
        if solved > 0 {
            fastest = fastest.min(started.elapsed() / solved as u32);
        }
    }
    fastest
}

/// Runs contender `c` over `puzzles` on the current pool: one worker per
/// thread, each taking the next puzzle whenever it is free, with its own state
/// from `init`. Puzzles whose givens conflict go to `invalid` unsolved; every
/// answer goes to `each`. Stops handing out puzzles when `cancel` is raised.
fn drive<W>(
    c: &Contender,
    puzzles: &[BenchPuzzle],
    opts: &BenchOptions,
    cancel: &Arc<AtomicBool>,
    init: impl Fn() -> W + Sync,
    invalid: impl Fn(&mut W, usize) + Sync,
    each: impl Fn(&mut W, usize, Solved) + Sync,
) {
    let counter = std::sync::atomic::AtomicUsize::new(0);
    let workers = opts.threads.max(1).min(puzzles.len());
    (0..workers).into_par_iter().for_each(|_| {
        let state = std::cell::RefCell::new(init());
        let mut next = || loop {
            let slot = counter.fetch_add(1, Ordering::Relaxed);
            if slot >= puzzles.len() || cancel.load(Ordering::Relaxed) {
                return None;
            }
            if puzzles[slot].invalid {
                invalid(&mut state.borrow_mut(), slot);
                continue;
            }
            return Some(slot);
        };
        let mut done = |slot, solved| each(&mut state.borrow_mut(), slot, solved);
        c.work(puzzles, opts, cancel, &mut next, &mut done);
    });
}

/// One contender's share of one pass: a range of a dataset's puzzles.
struct Part<'a> {
    c: &'a Contender,
    ds: &'a BenchDataset,
    puzzles: &'a [BenchPuzzle],
    round: u32,
    repeat: u32,
}

/// Solves one part on the pool, records every row, and returns its wall time.
fn run_block(
    pool: &rayon::ThreadPool,
    part: &Part<'_>,
    opts: &BenchOptions,
    cancel: &Arc<AtomicBool>,
    sink: &mut dyn RecordSink,
    observer: &dyn Observer,
    builder: &mut summary::SummaryBuilder,
) -> io::Result<Duration> {
    let (c, ds, round, repeat) = (part.c, part.ds, part.round, part.repeat);
    let (tx, rx) = sync_channel::<Vec<Measured>>(256);
    let mut failure: Option<io::Error> = None;
    let mut wall = Duration::ZERO;
    let wall_out = &mut wall;
    // The workers are a job on the pool; this thread writes the rows they send.
    // (No thread is started per block: blocks are short under interleaving.)
    pool.in_place_scope(|scope| {
        scope.spawn(move |_| {
            let started = Instant::now();
            let puzzles = part.puzzles;
            drive(
                c,
                puzzles,
                opts,
                cancel,
                || Batch::new(tx.clone()),
                |batch, slot| {
                    let now = Instant::now();
                    let s = Solved {
                        result: Ok(Outcome::invalid()),
                        ns: 0,
                        nodes: Some(0),
                        guesses: Some(0),
                        own_ns: None,
                        at: now,
                    };
                    batch.push(Measured::checked(&puzzles[slot], slot, repeat, s), now);
                },
                |batch, slot, s| {
                    let at = s.at;
                    batch.push(Measured::checked(&puzzles[slot], slot, repeat, s), at);
                },
            );
            drop(tx);
            *wall_out = started.elapsed();
        });
        // One record, refilled for every row: the writer allocates nothing per row.
        let mut record = PuzzleRecord {
            strategy: c.strategy.as_str().into(),
            variant: c.variant.as_str().into(),
            dataset: ds.name.as_str().into(),
            puzzle_index: 0,
            round,
            repeat: 0,
            puzzle: String::new(),
            status: RowStatus::Unique,
            solutions: 0,
            nodes: None,
            guesses: None,
            solve_ns: 0,
            own_ns: None,
            threads: opts.threads,
            detail: String::new(),
        };
        let fill = |r: &mut PuzzleRecord, m: Measured| {
            let p = &part.puzzles[m.slot];
            r.puzzle_index = p.index;
            r.repeat = m.repeat;
            write_line_into(&mut r.puzzle, &p.grid, &ds.alphabet);
            r.status = m.status;
            r.solutions = m.solutions;
            r.nodes = m.nodes;
            r.guesses = m.guesses;
            r.solve_ns = m.ns;
            r.own_ns = m.own_ns;
            r.detail = m.detail;
        };
        loop {
            let batch = match rx.try_recv() {
                Ok(b) => b,
                Err(TryRecvError::Empty) => {
                    // Nothing waiting: make what was written durable, then wait.
                    if failure.is_none() {
                        if let Err(e) = sink.flush() {
                            failure = Some(e);
                            cancel.store(true, Ordering::Relaxed);
                        }
                    }
                    match rx.recv() {
                        Ok(b) => b,
                        Err(_) => break,
                    }
                }
                Err(TryRecvError::Disconnected) => break,
            };
            for m in batch {
                fill(&mut record, m);
                builder.add(&record);
                observer.row_done(&record);
                if failure.is_none() {
                    if let Err(e) = sink.record(&record) {
                        failure = Some(e);
                        cancel.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    sink.flush()?;
    Ok(wall)
}

#[cfg(test)]
mod tests;
