//! The benchmark harness: contenders × datasets in parallel, every answer checked.
//!
//! The harness times [`crate::contender`]s without knowing their kind. A run
//! goes round by round, each round a share of every dataset; within a round
//! the [`schedule`] decides who takes part in each pass, and the workers
//! solve a pass stretch by stretch, every contender in turn on each, timing
//! only each answer and checking it after the clock stops. The checked
//! solves go to the calling thread, which gathers them puzzle by puzzle
//! ([`tally`]): when a window of puzzles is done, each puzzle becomes one
//! [`PuzzleResult`] for the [`RecordSink`], its median over its solves. A sink
//! that keeps every solve also gets [`SolveRecord`]s, made on the calling
//! thread while it has a core of its own, else on the workers (encoded by
//! the sink's [`RowEncoder`]s); the harness never sees a file format.

pub mod facts;
pub mod info;
pub mod plan;
pub mod prepare;
pub mod prints;
pub mod record;
pub mod recover;
mod resolve;
pub mod schedule;
mod store;
pub mod summary;
mod tally;
pub mod verdicts;
mod workers;

pub use info::{OwnTime, RunInfo};
pub use plan::RunOptions;
pub use prepare::{BenchDataset, DatasetInfo, Selection};
pub use record::{PuzzleResult, RowStatus, Skipped, SolveRecord, SummaryRow};
pub use resolve::{resolve, resolve_windowed};
use schedule::DatasetRun;
pub use schedule::{fewer_rounds_note, rounds_for, Schedule, MIN_PER_ROUND};

/// The harness runs contenders; the type is re-exported for its callers.
pub use crate::contender::Contender;
use crate::solver::Mode;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use files::{RESULTS_CSV, RUN_JSON};

/// The run folder's file names (kept below every layer that names one).
pub use crate::files;

pub use crate::usage::cores;

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

impl std::fmt::Display for Budget {
    /// The budget as run files record it: `strategy-default`, `none` or a number.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::StrategyDefault => f.write_str("strategy-default"),
            Budget::Unlimited => f.write_str("none"),
            Budget::Nodes(n) => write!(f, "{n}"),
        }
    }
}

impl std::str::FromStr for Budget {
    type Err = crate::words::UnknownWord;

    /// Reads what `Display` writes (`--node-budget` takes `none` or a number).
    fn from_str(text: &str) -> Result<Budget, Self::Err> {
        match text {
            "strategy-default" => Ok(Budget::StrategyDefault),
            "none" => Ok(Budget::Unlimited),
            n => n.parse().map(Budget::Nodes).map_err(|_| {
                crate::words::UnknownWord::new("a node budget", text, "a number of nodes or `none`")
            }),
        }
    }
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
    /// Per-puzzle CPU-time limit.
    pub cpu_limit: Option<Duration>,
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
    /// Puzzles per interleaved stretch (default: [`Schedule::stretch_size`]).
    pub stretch: Option<usize>,
    /// The variant the speed columns compare with (default: each dataset's fastest).
    pub reference: Option<String>,
    /// Each worker on a processor of its own, its outside program's
    /// processes on the same one.
    pub pin: bool,
}

/// What a run hands down to its rounds and passes, together: the workers,
/// the options, the interrupt flag, where rows go and who watches.
pub(crate) struct Going<'a> {
    pub(crate) pool: &'a rayon::ThreadPool,
    pub(crate) opts: &'a BenchOptions,
    pub(crate) cancel: &'a Arc<AtomicBool>,
    pub(crate) sink: &'a mut dyn RecordSink,
    pub(crate) observer: &'a dyn Observer,
}

/// Receives every puzzle's row as its window ends, and every timed solve if it keeps them.
///
/// A sink that writes solves as bytes can hand the workers [`RowEncoder`]s:
/// they then encode their own solves, and the calling thread only passes the
/// bytes on (through [`RecordSink::encoded`]), so it stays cheap at any thread count.
pub trait RecordSink {
    /// Takes one puzzle's row, once every solve of it is in.
    fn puzzle(&mut self, r: &PuzzleResult) -> io::Result<()>;
    /// True when the sink wants every timed solve as well.
    fn keeps_solves(&self) -> bool {
        false
    }
    /// Takes one timed solve (only when [`RecordSink::keeps_solves`]).
    fn solve(&mut self, _r: &SolveRecord) -> io::Result<()> {
        Ok(())
    }
    /// Makes everything taken so far durable.
    fn flush(&mut self) -> io::Result<()>;
    /// An encoder of solves for one worker, or `None` to have every solve come to [`RecordSink::solve`].
    fn encoder(&self) -> Option<Box<dyn RowEncoder>> {
        None
    }
    /// Takes solves encoded by this sink's encoders, whole rows in order.
    fn encoded(&mut self, _bytes: &[u8]) -> io::Result<()> {
        Err(io::Error::other("this sink has no encoder"))
    }
}

/// Turns solves into a sink's bytes on a worker thread.
pub trait RowEncoder: Send {
    /// Encodes one solve after those before it.
    fn encode(&mut self, r: &SolveRecord) -> io::Result<()>;
    /// Everything encoded since the last call, ready for [`RecordSink::encoded`].
    fn take(&mut self) -> io::Result<Vec<u8>>;
}

/// A sink that keeps every puzzle's row and every solve in memory (a study's share, a test).
#[derive(Debug, Default)]
pub struct Collected {
    /// One row per contender, dataset and puzzle, in the order they came.
    pub puzzles: Vec<PuzzleResult>,
    /// Every timed solve.
    pub solves: Vec<SolveRecord>,
}

impl RecordSink for Collected {
    fn puzzle(&mut self, r: &PuzzleResult) -> io::Result<()> {
        self.puzzles.push(r.clone());
        Ok(())
    }
    fn keeps_solves(&self) -> bool {
        true
    }
    fn solve(&mut self, r: &SolveRecord) -> io::Result<()> {
        self.solves.push(r.clone());
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Hears about progress (the binary draws a bar).
pub trait Observer {
    /// A strategy starts on a dataset with `rows` timed solves.
    fn phase_started(&self, _variant: &str, _dataset: &str, _rows: u64) {}
    /// `rows` more timed solves were added to the phase (`--min-time` asked for another pass).
    fn rows_added(&self, _rows: u64) {}
    /// `rows` more timed solves are done.
    fn rows_done(&self, _rows: u64) {}
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
    /// The calling thread's time with the rows while the workers solved
    /// (passing them on; with fewer workers than cores, also making records of them).
    pub writer: Duration,
}

impl RunResult {
    /// Puzzles with a wrong answer, over the whole run.
    pub fn wrong(&self) -> u64 {
        summary::failures(&self.summary).0
    }

    /// Puzzles where a strategy failed.
    pub fn errors(&self) -> u64 {
        summary::failures(&self.summary).1
    }
}

/// The contender × dataset pairs a run leaves out: sizes (or pencilmarks) the
/// contender does not take.
pub fn left_out(contenders: &[Contender], datasets: &[BenchDataset]) -> Vec<Skipped> {
    datasets
        .iter()
        .flat_map(|ds| {
            contenders
                .iter()
                .filter(|c| !ds.admits(c))
                .map(move |c| Skipped::new(c, ds))
        })
        .collect()
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
    // Every verdict is checked against a reference: a caller that attached
    // none gets them now (uncached).
    let limit = verdicts::limit_for(opts.mode);
    let attached;
    let datasets = if datasets
        .iter()
        .all(|d| d.verdicts().is_some_and(|v| v.limit() == limit))
    {
        datasets
    } else {
        let mut sets = datasets.to_vec();
        let how = verdicts::VerdictOptions {
            threads: opts.threads,
            ..Default::default()
        };
        prepare::attach_verdicts(&mut sets, opts.mode, &how, cancel)?;
        attached = sets;
        &attached
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(opts.threads.max(1))
        .build()
        .map_err(io::Error::other)?;
    let skipped = left_out(contenders, datasets);
    let mut states: Vec<DatasetRun> = datasets
        .iter()
        .map(|ds| {
            let here = contenders.iter().filter(|c| ds.admits(c)).collect();
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
                let mut going = Going {
                    pool: &pool,
                    opts,
                    cancel,
                    sink: &mut *sink,
                    observer,
                };
                st.run_round(&mut going, ds, round)?;
            }
        }
        if !cancel.load(Ordering::Relaxed) {
            complete += 1;
        }
    }
    let statistics = Instant::now();
    let mut summary = Vec::new();
    let (mut timed_ns, mut writer) = (0, Duration::ZERO);
    for (ds, st) in datasets.iter().zip(states) {
        summary.extend(st.finish(ds, opts, observer, &mut timed_ns, &mut writer));
    }
    let statistics = statistics.elapsed();
    for c in contenders {
        c.engine.finish();
    }
    Ok(RunResult {
        summary,
        skipped,
        interrupted: cancel.load(Ordering::Relaxed),
        rounds_complete: complete,
        timed_solves: Duration::from_nanos(timed_ns),
        statistics,
        writer,
    })
}

#[cfg(test)]
mod tests;
