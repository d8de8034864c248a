//! A `bench` run from its options to its folder: [`Plan`] checks the typed
//! [`RunOptions`] and reads the datasets, [`measure`] runs the plan into a run
//! folder (or finishes one that was cut short), [`finish`] draws the report
//! and gates on a baseline. The command only maps its arguments and prints.

mod measure;
mod resume;
pub mod scaling;
mod session;

pub use measure::{finish, measure, Finished, Measured, Watch};
pub use resume::{differences, leave_out_measured, reopen, scaling_counts, Reopened};
pub use session::{Console, Request, Session};

use crate::compare::{baseline, CompareError};
use crate::datasets::DatasetError;
use crate::external::{self, ContenderError};
use crate::harness::plan::{Measure, RunOptions};
use crate::harness::{self, BenchDataset};
use crate::solver::SolverId;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The least share of `--min-time` a round may get.
pub const MIN_ROUND_TIME: Duration = Duration::from_millis(1);

/// Why a run cannot go ahead or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A dataset argument does not read.
    #[error("dataset {spec:?}: {source}")]
    Dataset {
        /// The argument.
        spec: String,
        /// Why.
        #[source]
        source: Box<DatasetError>,
    },
    /// A dataset leaves nothing to run.
    #[error("dataset {0} has no puzzles to run")]
    Empty(String),
    /// More worker threads than the machine takes (a run.json edited by hand).
    #[error("--threads: {0}")]
    Threads(#[from] crate::usage::TooManyThreads),
    /// More timed passes than a run takes (a run.json edited by hand).
    #[error("--repeat {0}: at most {most} passes", most = crate::harness::plan::MOST_REPEATS)]
    Repeat(u32),
    /// `--min-time` spread over the rounds gives each too little.
    #[error("--min-time {min_time:?} over {rounds} rounds gives each round {:?}, less than the {MIN_ROUND_TIME:?} a round needs: give --min-time {:?} or more, or fewer --rounds", *min_time / *rounds as u32, MIN_ROUND_TIME * *rounds as u32)]
    MinTime {
        /// The time asked for.
        min_time: Duration,
        /// The rounds asked for.
        rounds: usize,
    },
    /// `--reference` or `--handicap` names no contender of the run.
    #[error("{option} {name} is not a strategy of this run ({})", run.join(", "))]
    NotInRun {
        /// The option.
        option: &'static str,
        /// The name given.
        name: String,
        /// The run's contenders.
        run: Vec<String>,
    },
    /// `--handicap` names an outside contender, whose calls the workbench does not run.
    #[error("--handicap {0}: a handicap slows a built-in strategy, and this names an outside contender (its calls run in its own process)")]
    HandicapOutside(String),
    /// An outside contender cannot take part.
    #[error(transparent)]
    Contender(Box<ContenderError>),
    /// A strategy's name is none of the registry's.
    #[error(transparent)]
    Strategy(#[from] crate::words::UnknownWord),
    /// The baseline cannot be found, read or saved.
    #[error(transparent)]
    Compare(Box<CompareError>),
    /// The report cannot be drawn.
    #[error("drawing the report in {}: {source}", dir.display())]
    Report {
        /// The run folder.
        dir: PathBuf,
        /// Why.
        #[source]
        source: Box<crate::report::ReportError>,
    },
    /// The run folder cannot be claimed or cleared.
    #[error(transparent)]
    RunDir(#[from] crate::export::run_dir::RunDirError),
    /// Another process writes into the run folder.
    #[error(transparent)]
    Lock(#[from] crate::lock::LockError),
    /// An export (`--export`) would replace a run's file or another export.
    #[error(transparent)]
    ExportRefused(#[from] crate::export::track::ExportRefused),
    /// An export (`--export`) cannot be written.
    #[error(transparent)]
    Export(#[from] crate::export::track::TrackError),
    /// The reference verdicts cannot be counted or cached.
    #[error("computing reference verdicts: {0}")]
    Verdicts(#[source] std::io::Error),
    /// A file of the run folder cannot be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A run that was cut short cannot be read back.
    #[error(transparent)]
    Recover(Box<harness::recover::RecoverError>),
    /// Instructions asked for, but this process is not counted by callgrind.
    #[error("--measure instructions: this process is not running under callgrind with {} set (`sudoku-bench bench` starts it so itself)", crate::callgrind::OUT_VAR)]
    NotUnderCallgrind,
    /// The counted run under valgrind could not be made.
    #[error(transparent)]
    Valgrind(#[from] crate::valgrind::ValgrindError),
    /// What `--measure instructions` (or the CPU's counters) cannot count.
    #[error("--measure {measure} counts the calls of built-in strategies and of library contenders (in their host); the program contender {name} cannot be counted so (its process does more than the solve between a puzzle and its answer): leave it out, or measure time")]
    NotCounted {
        /// The measure asked for.
        measure: String,
        /// The program contender.
        name: String,
    },
    /// The CPU's counters cannot be read here.
    #[error(transparent)]
    Perf(#[from] crate::perf::PerfError),
    /// A baseline asked of a run at several thread counts.
    #[error("--baseline and --save-baseline take one thread count: several (--threads {0}) make one run per count")]
    ScalingBaseline(String),
    /// The plan a run recorded does not hold now.
    #[error("planning the run again from {}: {source}", path.display())]
    Replan {
        /// Its run.json.
        path: PathBuf,
        /// Why.
        source: Box<BenchError>,
    },
    /// A run made with another build, datasets or contenders, not to be resumed unforced.
    #[error("{} was made with another build, datasets or contenders; not resumed (--force resumes anyway):\n  {differences}", dir.display())]
    Changed {
        /// The run folder.
        dir: PathBuf,
        /// What differs, a line each.
        differences: String,
    },
    /// A run whose `run.json` gained or changed a contender after it began:
    /// never resumed, forced or not.
    #[error("{}: {} lists contenders the run did not begin with; not resumed (a contender added to a run's record is never run):\n  {gained}", dir.display(), crate::harness::files::RUN_JSON)]
    Gained {
        /// The run folder.
        dir: PathBuf,
        /// The contenders, a line each.
        gained: String,
    },
    /// A run recorded before its options were typed cannot be made again.
    #[error("{}: recorded by an older sudoku-bench ({version}), whose {} does not keep all a run needs to be resumed; `sudoku-bench report {}` reports what it measured", dir.display(), crate::harness::files::RUN_JSON, dir.display())]
    TooOld {
        /// The run folder.
        dir: PathBuf,
        /// The version that recorded it.
        version: String,
    },
}

impl From<ContenderError> for BenchError {
    fn from(e: ContenderError) -> BenchError {
        BenchError::Contender(Box::new(e))
    }
}

impl From<CompareError> for BenchError {
    fn from(e: CompareError) -> BenchError {
        BenchError::Compare(Box::new(e))
    }
}

impl From<harness::recover::RecoverError> for BenchError {
    fn from(e: harness::recover::RecoverError) -> BenchError {
        BenchError::Recover(Box::new(e))
    }
}

impl BenchError {
    /// An I/O error on `path`.
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> BenchError + '_ {
        move |source| BenchError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The options of the run recorded in `dir` (its run.json read as `info`),
/// to make the rest of it: refused for a run recorded before the options
/// were typed.
pub fn recorded(info: &harness::RunInfo, dir: &Path) -> Result<RunOptions, BenchError> {
    if info.options.version < harness::plan::VERSION {
        return Err(BenchError::TooOld {
            dir: dir.to_path_buf(),
            version: info.version.clone(),
        });
    }
    Ok(info.options.clone())
}

/// A run's options, checked, with its datasets read: nothing is written or
/// started yet, so a typo, a bad combination or an unknown dataset fails
/// before any of it.
pub struct Plan {
    /// The options as they will run (threads and datasets filled in).
    pub options: RunOptions,
    /// The strategies, in run order.
    pub solvers: Vec<SolverId>,
    /// The datasets, in run order.
    pub datasets: Vec<BenchDataset>,
    /// The baseline's folder, when the run gates on one.
    pub baseline_dir: Option<PathBuf>,
    /// Said before the run: skipped entries, threads, rounds.
    pub notes: Vec<String>,
    /// Seconds spent reading the datasets.
    pub load_s: f64,
}

impl Plan {
    /// Checks `options` on a machine of `cores` cores and reads the
    /// datasets (`progress` hears what is downloaded).
    pub fn new(
        mut options: RunOptions,
        cores: usize,
        progress: &mut dyn FnMut(&str),
    ) -> Result<Plan, BenchError> {
        let baseline_dir = match &options.after.baseline {
            Some(b) => Some(baseline::resolve(b, Path::new(baseline::ROOT))?),
            None => None,
        };
        if let Some(name) = &options.after.save_baseline {
            baseline::check_name(name)?;
        }
        let solvers = options
            .solvers
            .iter()
            .map(|s| s.parse())
            .collect::<Result<Vec<SolverId>, _>>()?;
        let mut notes = Vec::new();
        if let Some(c) = options.contenders.iter().find(|c| c.library.is_none()) {
            if !options.measure.is_time() {
                return Err(BenchError::NotCounted {
                    measure: options.measure.to_string(),
                    name: c.name.clone(),
                });
            }
        }
        match options.measure {
            Measure::Instructions => instructions(&mut options, &mut notes),
            Measure::Counters(events) => crate::perf::check(events)?,
            Measure::Time => {}
        }
        for &t in std::iter::once(&options.threads).chain(&options.scaling) {
            crate::usage::check_threads(t, cores)?;
        }
        if options.repeat > crate::harness::plan::MOST_REPEATS {
            return Err(BenchError::Repeat(options.repeat));
        }
        threads(&mut options, cores);
        let loading = Instant::now();
        let mut datasets = read_datasets(&options, progress)?;
        let load_s = loading.elapsed().as_secs_f64();
        options.datasets = datasets.iter().map(|d| d.name.clone()).collect();
        for d in &datasets {
            let n = d.info.skipped;
            if n > 0 {
                notes.push(format!(
                    "{}: skipped {n} bad {} (--skip-invalid)",
                    d.name,
                    if n == 1 { "entry" } else { "entries" }
                ));
            }
        }
        rounds(&options, &mut datasets, &mut notes)?;
        let names = options.contender_names();
        let not_in_run = |option, name: &str| BenchError::NotInRun {
            option,
            name: name.to_string(),
            run: names.clone(),
        };
        if let Some(r) = options.reference.as_deref() {
            if !names.iter().any(|n| n == r) {
                return Err(not_in_run("--reference", r));
            }
        }
        for h in &options.handicaps {
            if options.contenders.iter().any(|c| c.name == h.variant) {
                return Err(BenchError::HandicapOutside(h.to_string()));
            }
            if !options.solvers.contains(&h.variant) {
                return Err(not_in_run("--handicap", &h.to_string()));
            }
        }
        Ok(Plan {
            options,
            solvers,
            datasets,
            baseline_dir,
            notes,
            load_s,
        })
    }
}

/// Refuses a `--min-time` too short for the rounds; gives each dataset the
/// rounds it is measured in ([`harness::rounds_for`], what `run.json` keeps),
/// and notes those measured in fewer than asked: a dataset too small for
/// `--rounds N`, whether N was given or is the default, is measured in as
/// many as give each round two puzzles.
fn rounds(
    options: &RunOptions,
    datasets: &mut [BenchDataset],
    notes: &mut Vec<String>,
) -> Result<(), BenchError> {
    let rounds = options.rounds;
    if let Some(t) = options.min_time {
        if t < MIN_ROUND_TIME * rounds as u32 {
            return Err(BenchError::MinTime {
                min_time: t,
                rounds,
            });
        }
    }
    if !options.threads_note.is_empty() {
        notes.push(options.threads_note.clone());
    }
    for d in datasets {
        let got = harness::rounds_for(d.len(), rounds);
        d.info.rounds = Some(got);
        if got < rounds {
            notes.push(harness::fewer_rounds_note(&d.name, d.len(), got, rounds));
        }
    }
    Ok(())
}

/// What a run that counts instructions changes, or refuses: calls are
/// counted one at a time in this process, once each (a count is the same
/// on every pass).
fn instructions(options: &mut RunOptions, notes: &mut Vec<String>) {
    if options.threads > 1 {
        notes.push(format!(
            "--measure instructions counts one call at a time: 1 worker thread, not {}",
            options.threads
        ));
    }
    options.threads = 1;
    options.repeat = 1;
    options.min_time = None;
    options.schedule = harness::Schedule::Sequential;
    // Said only where the processor has the path valgrind takes away.
    let avx512 = crate::solver::Isa::Avx512.supported();
    if avx512 && options.solvers.iter().any(|s| s.starts_with("band")) {
        notes.push(
            "instructions are counted under valgrind, whose processor has no AVX-512: band runs its AVX2 path".into(),
        );
    }
}

/// Fills in the worker threads (0: the machine's default) and says why
/// when outside programs change or question the count: a program's worker
/// waits awake for its answers, so a worker and its program each need a core,
/// or one of them is timed while descheduled.
fn threads(options: &mut RunOptions, cores: usize) {
    let outside = !options.contenders.is_empty();
    let t = options.threads;
    options.threads = match t {
        0 if outside => {
            let t = external::default_threads(cores);
            options.threads_note = format!(
                "{t} worker thread{} (half of {cores} cores): each outside program and the worker timing it need a core of their own",
                if t == 1 { "" } else { "s" }
            );
            t
        }
        0 => cores,
        t => {
            if outside && external::crowded(t, cores) {
                options.threads_note = format!(
                    "{t} threads with outside programs on {cores} cores: each worker and its program need a core, so some answers may be timed while descheduled (default {})",
                    external::default_threads(cores)
                );
            }
            t
        }
    };
}

/// Reads every dataset asked for (every embedded set when none is).
fn read_datasets(
    options: &RunOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<Vec<BenchDataset>, BenchError> {
    let specs: Vec<String> = if options.inputs.is_empty() {
        crate::datasets::EMBEDDED
            .iter()
            .map(|e| e.name.to_string())
            .collect()
    } else {
        options.inputs.clone()
    };
    let sel = options.selection();
    let mut datasets = Vec::new();
    for spec in &specs {
        let found = harness::resolve(spec, &options.input, &sel, progress).map_err(|source| {
            BenchError::Dataset {
                spec: spec.clone(),
                source: Box::new(source),
            }
        })?;
        datasets.extend(found);
    }
    unique_names(&mut datasets);
    if let Some(d) = datasets.iter().find(|d| d.is_empty()) {
        return Err(BenchError::Empty(d.name.clone()));
    }
    Ok(datasets)
}

/// Datasets that share a name (two `puzzles.txt` from two hunt folders)
/// take their parent folder's name before it (`h1/puzzles.txt`), then a
/// number if that still clashes, so that every row, summary line and chart
/// of each stays its own.
fn unique_names(datasets: &mut [harness::BenchDataset]) {
    let names: Vec<String> = datasets.iter().map(|d| d.name.clone()).collect();
    for (i, name) in names.iter().enumerate() {
        if names.iter().filter(|n| *n == name).count() < 2 {
            continue;
        }
        let parent = Path::new(&datasets[i].info.source)
            .parent()
            .and_then(|p| p.file_name())
            .map(|p| p.to_string_lossy().into_owned());
        if let Some(p) = parent {
            datasets[i].name = format!("{p}/{name}");
        }
    }
    for i in 0..datasets.len() {
        let mut k = 2;
        while datasets[..i].iter().any(|d| d.name == datasets[i].name) {
            datasets[i].name = format!("{} #{k}", names[i]);
            k += 1;
        }
        datasets[i].info.name = datasets[i].name.clone();
    }
}

#[cfg(test)]
mod tests;
