//! The benchmark harness: strategies × datasets in parallel, every answer checked.
//!
//! Workers (rayon) time only the solver call with a monotonic clock, check the
//! answer after the clock stops, and hand compact rows in batches to the calling
//! thread, which turns them into [`PuzzleRecord`]s for a [`RecordSink`]. Nothing
//! about output happens in the timed region, and the harness never sees a file format.

pub mod info;
pub mod prepare;
pub mod record;
pub mod summary;

pub use info::{RunInfo, RunOptions};
pub use prepare::{BenchDataset, BenchPuzzle, DatasetInfo, Selection};
pub use record::{PuzzleRecord, RowStatus, Skipped, SummaryRow};

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

/// One contender: a registry strategy, or (for tests) any solve function.
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
    solve: Arc<SolveFn>,
}

impl Contender {
    /// A contender for a registry entry.
    pub fn from_id(id: SolverId) -> Contender {
        Contender {
            strategy: id.strategy().to_string(),
            variant: id.name().to_string(),
            default_budget: id.default_node_budget(),
            sizes: id.sizes().to_vec(),
            solve: Arc::new(move |g, l| id.solve(g, l)),
        }
    }

    /// True when the contender handles grids of this geometry.
    pub fn supports(&self, g: Geometry) -> bool {
        self.sizes.contains(&g.side())
    }

    /// Solves one puzzle: the very call the harness times.
    pub fn solve(&self, grid: &Grid, limits: &Limits) -> Outcome {
        (self.solve)(grid, limits)
    }

    /// A contender for any solve function (the harness's own tests use a wrong one).
    pub fn custom(strategy: &str, variant: &str, solve: Arc<SolveFn>) -> Contender {
        Contender {
            strategy: strategy.to_string(),
            variant: variant.to_string(),
            default_budget: None,
            sizes: crate::solver::ALL_SIZES.to_vec(),
            solve,
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
    /// Timed passes over each dataset.
    pub repeat: u32,
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
    counters: crate::solver::Counters,
    solutions: u64,
    ns: u64,
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

/// Checks one outcome against the puzzle and its expected answer.
fn check(p: &BenchPuzzle, outcome: &Outcome) -> Result<RowStatus, String> {
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

/// Runs every contender over every dataset, dataset by dataset.
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
    let mut summary = Vec::new();
    let mut skipped = Vec::new();
    'outer: for ds in datasets {
        for c in contenders {
            if cancel.load(Ordering::Relaxed) {
                break 'outer;
            }
            if !c.supports(ds.geometry) {
                skipped.push(Skipped::new(c, ds));
                continue;
            }
            summary.push(run_phase(&pool, c, ds, opts, cancel, sink, observer)?);
            observer.phase_done(summary.last().expect("just pushed"));
        }
    }
    Ok(RunResult {
        summary,
        skipped,
        interrupted: cancel.load(Ordering::Relaxed),
    })
}

fn run_phase(
    pool: &rayon::ThreadPool,
    c: &Contender,
    ds: &BenchDataset,
    opts: &BenchOptions,
    cancel: &Arc<AtomicBool>,
    sink: &mut dyn RecordSink,
    observer: &dyn Observer,
) -> io::Result<SummaryRow> {
    let budget = match opts.budget {
        Budget::StrategyDefault => c.default_budget,
        Budget::Unlimited => None,
        Budget::Nodes(n) => Some(n),
    };
    let limits_now = || {
        Limits::new(opts.mode)
            .with_node_budget(budget)
            .with_deadline(opts.time_limit.map(|t| Instant::now() + t))
            .with_cancel(cancel.clone())
    };
    let shared_limits = limits_now();
    // Warm-up: untimed, unrecorded.
    pool.install(|| {
        ds.puzzles
            .par_iter()
            .take(opts.warmup)
            .filter(|p| !p.invalid)
            .for_each(|p| {
                let _ = catch_unwind(AssertUnwindSafe(|| c.solve(&p.grid, &limits_now())));
            })
    });
    let rows = ds.puzzles.len() as u64 * opts.repeat as u64;
    observer.phase_started(&c.variant, &ds.name, rows);
    let (tx, rx) = sync_channel::<Vec<Measured>>(256);
    let mut builder = summary::SummaryBuilder::default();
    let mut failure: Option<io::Error> = None;
    let wall = std::thread::scope(|scope| {
        let workers = scope.spawn(|| {
            let started = Instant::now();
            pool.install(|| {
                for repeat in 0..opts.repeat {
                    (0..ds.puzzles.len()).into_par_iter().for_each_init(
                        || Batch::new(tx.clone()),
                        |batch, slot| {
                            if cancel.load(Ordering::Relaxed) {
                                return;
                            }
                            let p = &ds.puzzles[slot];
                            let (outcome, ns, now) = if p.invalid {
                                (Ok(Outcome::invalid()), 0, Instant::now())
                            } else {
                                // A deadline is per puzzle; otherwise the limits never change.
                                let own;
                                let limits = match opts.time_limit {
                                    Some(_) => {
                                        own = limits_now();
                                        &own
                                    }
                                    None => &shared_limits,
                                };
                                let t0 = Instant::now();
                                let out =
                                    catch_unwind(AssertUnwindSafe(|| c.solve(&p.grid, limits)));
                                let t1 = Instant::now();
                                (out.map_err(panic_message), (t1 - t0).as_nanos() as u64, t1)
                            };
                            // Outside the timed region: check, and keep only what the record needs.
                            let (status, detail, counters, solutions) = match outcome {
                                Err(msg) => (
                                    RowStatus::Error,
                                    format!("panicked: {msg}"),
                                    Default::default(),
                                    0,
                                ),
                                Ok(o) => match check(p, &o) {
                                    Ok(s) => (s, String::new(), o.counters, o.solution_count),
                                    Err(why) => {
                                        (RowStatus::Wrong, why, o.counters, o.solution_count)
                                    }
                                },
                            };
                            batch.push(
                                Measured {
                                    slot,
                                    repeat,
                                    status,
                                    detail,
                                    counters,
                                    solutions,
                                    ns,
                                },
                                now,
                            );
                        },
                    );
                }
            });
            drop(tx);
            started.elapsed()
        });
        // One record, refilled for every row: the writer allocates nothing per row.
        let mut record = PuzzleRecord {
            strategy: c.strategy.as_str().into(),
            variant: c.variant.as_str().into(),
            dataset: ds.name.as_str().into(),
            puzzle_index: 0,
            repeat: 0,
            puzzle: String::new(),
            status: RowStatus::Unique,
            solutions: 0,
            nodes: 0,
            guesses: 0,
            solve_ns: 0,
            threads: opts.threads,
            detail: String::new(),
        };
        let fill = |r: &mut PuzzleRecord, m: Measured| {
            let p = &ds.puzzles[m.slot];
            r.puzzle_index = p.index;
            r.repeat = m.repeat;
            write_line_into(&mut r.puzzle, &p.grid, &ds.alphabet);
            r.status = m.status;
            r.solutions = m.solutions;
            r.nodes = m.counters.nodes;
            r.guesses = m.counters.guesses;
            r.solve_ns = m.ns;
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
        workers.join().unwrap_or_default()
    });
    if let Some(e) = failure {
        return Err(e);
    }
    sink.flush()?;
    Ok(builder.finish(
        &c.strategy,
        &c.variant,
        &ds.name,
        opts.threads,
        wall.as_secs_f64(),
    ))
}

#[cfg(test)]
mod tests;
