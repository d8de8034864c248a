//! Measuring a [`Plan`] into its run folder, and what follows: the report,
//! `run.json` with the whole process's time, the baseline gate.

use super::{BenchError, Plan};
use crate::compare::{self, baseline, Comparison};
use crate::contender::Timing;
use crate::export::{self, csv::CsvSink, Exporter, RunReport};
use crate::external::{floor, Program};
use crate::harness::{self, verdicts, Contender, OwnTime, RunInfo, RunResult};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// What watches a run from outside: the interrupt flag, the progress
/// observer, and where the run's notes go (resumed, torn rows) as it goes.
pub struct Watch<'a> {
    /// Set to stop the run after the puzzles in flight.
    pub cancel: &'a Arc<AtomicBool>,
    /// Hears phases and rows as they are done.
    pub observer: &'a dyn harness::Observer,
    /// Say nothing of the reference verdicts' cost.
    pub quiet: bool,
    /// Hears a line for each thing worth saying before the run.
    pub say: &'a mut dyn FnMut(&str),
}

/// What a run measured, written to its folder, for [`finish`].
pub struct Measured {
    /// What `summary.*` and `run.json` were written from.
    pub report: RunReport,
    /// The harness's account of the run.
    pub result: RunResult,
    /// The tool's own time so far.
    pub own: OwnTime,
    /// The baseline's folder, when the run gates on one.
    pub baseline_dir: Option<PathBuf>,
}

/// Starts the contenders, runs the plan into `out_dir` (run.json first, so an
/// interrupted run still says what it was) and writes the results. With
/// `resumed` (the run.json of the run in `out_dir`), only the puzzles its
/// `results.csv` lacks are measured, their rows appended, and the summary is
/// made from every row. `command` is the command line `run.json` records.
pub fn measure(
    plan: Plan,
    out_dir: &Path,
    resumed: Option<&RunInfo>,
    command: Vec<String>,
    watch: Watch<'_>,
) -> Result<Measured, BenchError> {
    let Plan {
        mut options,
        solvers: plan_solvers,
        mut datasets,
        baseline_dir,
        load_s,
        ..
    } = plan;
    let memory = set_up_measure(&mut options, watch.say)?;
    let opts = options.bench_options();
    let contenders = start_contenders(&options, &plan_solvers, out_dir, memory)?;
    let mut own = OwnTime {
        load_s,
        ..OwnTime::default()
    };
    let mut info = RunInfo::new(
        options.clone(),
        command,
        datasets.iter().map(|d| d.info.clone()).collect(),
    );
    // Known now, so that a killed run's folder says what was never meant to run.
    info.skipped = harness::left_out(&contenders, &datasets);
    // Read before the run rewrites the summary: what the stopped run measured.
    let earlier = resumed.map(|_| Stopped::read(out_dir)).unwrap_or_default();
    if let Some(old) = resumed {
        info.command.clone_from(&old.command);
        info.started.clone_from(&old.started);
        info.resumed = old.resumed + 1;
        // The contenders as the run began: a forced resume does not vouch for them.
        info.contender_prints.clone_from(&old.contender_prints);
        datasets = super::leave_out_measured(out_dir, old, &contenders, datasets, watch.say)?;
    }
    // The pipe's floor, when a program answers over it: a note names those it dominates.
    if contenders.iter().any(|c| c.timing == Timing::Pipe) {
        info.pipe_floor_ns = std::env::current_exe()
            .ok()
            .and_then(|exe| floor::measure(&exe))
            .map(|d| d.as_nanos() as u64);
    }
    // Reference verdicts, untimed, before anything is measured.
    let how = verdicts::VerdictOptions {
        budget: options.reference_budget,
        cache: verdicts::cache_dir(),
        threads: opts.threads,
    };
    let cost =
        crate::harness::prepare::attach_verdicts(&mut datasets, opts.mode, &how, watch.cancel)
            .map_err(BenchError::Verdicts)?;
    if !watch.quiet {
        (watch.say)(&cost.to_string());
    }
    for n in &cost.notes {
        (watch.say)(&format!("note: {n}"));
    }
    info.verdicts = Some(cost);
    write_all(out_dir, &info, Vec::new())?;

    let results_path = out_dir.join(harness::RESULTS_CSV);
    let solves_path = out_dir.join(harness::files::SOLVES_CSV);
    let solves = options.keep_solves.then_some(&*solves_path);
    let mut sink = match resumed {
        Some(_) => CsvSink::append(&results_path, solves),
        None => CsvSink::create(&results_path, solves),
    }
    .map_err(BenchError::io(&results_path))?;
    let running = Instant::now();
    let mut result = harness::run(
        &contenders,
        &datasets,
        &opts,
        watch.cancel,
        &mut sink,
        watch.observer,
    )
    .map_err(BenchError::io(&results_path))?;
    drop(sink);
    if resumed.is_some() {
        // Every row, the earlier run's and these, makes the summary.
        let cover = harness::recover::Coverage::read(out_dir, &info)?;
        let mut rows = harness::recover::summarize(out_dir, &cover, opts.reference.as_deref())?;
        earlier.walls(&mut rows, &result.summary);
        result.summary = rows;
    }
    close(&mut info, &result, &contenders);
    own.run_s = (running.elapsed() - result.statistics).as_secs_f64();
    own.timed_solves_s = result.timed_solves.as_secs_f64();
    own.statistics_s = result.statistics.as_secs_f64();
    own.writer_s = result.writer.as_secs_f64();
    let writing = Instant::now();
    info.own_time = Some(own.clone());
    let report = write_all(out_dir, &info, result.summary.clone())?;
    own.write_s = writing.elapsed().as_secs_f64();
    Ok(Measured {
        report,
        result,
        own,
        baseline_dir,
    })
}

/// Starts what the run's measure needs (the CPU's counters; under
/// callgrind, its counting) and the memory limit, set the way this machine
/// allows and said in the options.
fn set_up_measure(
    options: &mut harness::RunOptions,
    say: &mut dyn FnMut(&str),
) -> Result<Option<Arc<crate::usage::MemoryLimit>>, BenchError> {
    if let crate::harness::plan::Measure::Counters(events) = options.measure {
        crate::perf::start(events)?;
    }
    let counting = options.measure == crate::harness::plan::Measure::Instructions;
    if counting && !crate::callgrind::start_from_env() {
        return Err(BenchError::NotUnderCallgrind);
    }
    if let Some(note) = counting.then(crate::valgrind::slowdown_note).flatten() {
        say(&note);
    }
    // The memory limit, set the way this machine allows, said in run.json.
    let memory = options
        .memory_limit
        .as_ref()
        .map(|m| Arc::new(crate::usage::MemoryLimit::new(m.bytes)));
    if let (Some(m), Some(limit)) = (&mut options.memory_limit, &memory) {
        m.by = limit.by.word().to_string();
        if options.contenders.is_empty() {
            say("note: --memory-limit holds for outside contenders only: the built-in strategies run in the workbench's own process, which no limit stops");
        }
    }
    Ok(memory)
}

/// What `run.json` says of a run that has ended: who was given up, when it
/// ended, how, and which rounds are whole.
fn close(info: &mut RunInfo, result: &harness::RunResult, contenders: &[Contender]) {
    info.given_up = contenders
        .iter()
        .flat_map(|c| c.engine.given_up())
        .collect();
    info.finished = harness::info::now_rfc3339();
    info.interrupted = result.interrupted;
    info.wrong = result.wrong();
    info.errors = result.errors();
    info.skipped = result.skipped.clone();
    info.rounds_complete = Some(result.rounds_complete);
}

/// The run's contenders: its strategies (slowed where handicapped), then
/// its outside contenders, started now: one that cannot start is an error
/// before anything is measured.
fn start_contenders(
    options: &harness::RunOptions,
    solvers: &[crate::solver::SolverId],
    out_dir: &Path,
    memory: Option<Arc<crate::usage::MemoryLimit>>,
) -> Result<Vec<Contender>, BenchError> {
    let mut contenders: Vec<Contender> = solvers
        .iter()
        .map(|&s| {
            let c = Contender::from_id(s);
            match options.handicaps.iter().find(|h| h.variant == s.name()) {
                Some(h) => c.handicapped(h.share),
                None => c,
            }
        })
        .collect();
    let logs = out_dir.join(harness::files::CONTENDER_LOGS);
    for spec in &options.contenders {
        let program = Program::new(spec.clone(), Some(&logs))
            .map_err(BenchError::io(&logs))?
            .with_memory_limit(memory.clone());
        program.start(options.threads, options.mode)?;
        contenders.push(Arc::new(program).contender());
    }
    Ok(contenders)
}

/// Writes every summary file of the run folder.
fn write_all(
    out_dir: &Path,
    info: &RunInfo,
    summary: Vec<harness::SummaryRow>,
) -> Result<RunReport, BenchError> {
    let report = RunReport {
        info: info.clone(),
        summary,
    };
    export::write_all(out_dir, &report).map_err(BenchError::io(out_dir))?;
    Ok(report)
}

/// Each contender's wall time and puzzles per dataset in the summary a
/// stopped run wrote (none when it was killed before writing one).
#[derive(Default)]
struct Stopped(HashMap<(String, String), (f64, u64)>);

impl Stopped {
    fn read(dir: &Path) -> Stopped {
        let rows = crate::report::load_summary(dir).map_or_else(|_| Vec::new(), |(_, r)| r);
        let walls = rows
            .into_iter()
            .map(|r| ((r.variant, r.dataset), (r.wall_s, r.puzzles)));
        Stopped(walls.collect())
    }

    /// Gives each row rebuilt from every result the wall time measured, the
    /// stopped run's plus this one's (`fresh`), where those two cover all its
    /// puzzles; elsewhere (rows of a run killed before its summary) the
    /// rebuilt estimate stays: the timed solves over the threads.
    fn walls(&self, rows: &mut [harness::SummaryRow], fresh: &[harness::SummaryRow]) {
        for row in rows {
            let key = (row.variant.clone(), row.dataset.clone());
            let (wall, puzzles) = self.0.get(&key).copied().unwrap_or((0.0, 0));
            let now = fresh
                .iter()
                .find(|f| f.variant == row.variant && f.dataset == row.dataset)
                .map_or((0.0, 0), |f| (f.wall_s, f.puzzles));
            let measured = wall + now.0;
            if puzzles + now.1 == row.puzzles && measured > 0.0 && row.wall_s > 0.0 {
                row.puzzles_per_sec *= row.wall_s / measured;
                row.wall_s = measured;
            }
        }
    }
}

/// What followed the measuring.
pub struct Finished {
    /// The report, unless the run asked for none.
    pub report: Option<crate::report::Report>,
    /// The comparison with the baseline, when the run gates on one (its
    /// files are written in the run folder's `compare/`).
    pub comparison: Option<Comparison>,
    /// Where the run was saved as a baseline, when it asked to be.
    pub saved: Option<PathBuf>,
    /// What the exports (`--export`) left out, a line each.
    pub export_notes: Vec<String>,
}

/// Draws the report, rewrites `run.json` with the whole process's time
/// (since `started`), compares with the baseline and saves the run as one
/// (not an interrupted run), as the run's options ask.
pub fn finish(m: &mut Measured, out_dir: &Path, started: Instant) -> Result<Finished, BenchError> {
    let after = m.report.info.options.after.clone();
    // Under valgrind, the process that started this run draws the report.
    let report = if after.report && !crate::valgrind::report_later(out_dir) {
        let drawing = Instant::now();
        let r =
            crate::report::write(out_dir, &after.charts).map_err(|source| BenchError::Report {
                dir: out_dir.to_path_buf(),
                source: Box::new(source),
            })?;
        m.own.report_s = drawing.elapsed().as_secs_f64();
        Some(r)
    } else {
        None
    };
    m.own.close(started, m.report.info.options.threads);
    m.report.info.own_time = Some(m.own.clone());
    let json = export::json::RunJson;
    let path = out_dir.join(json.file_name());
    let text = json.render(&m.report).map_err(BenchError::io(&path))?;
    crate::files::write(&path, text).map_err(BenchError::io(&path))?;
    // From summary.csv as written, so that `report --export` gives the same.
    let export_notes = if after.exports.is_empty() {
        Vec::new()
    } else {
        let (_, summary) =
            crate::report::load_summary(out_dir).map_err(|source| BenchError::Report {
                dir: out_dir.to_path_buf(),
                source: Box::new(source),
            })?;
        let run = export::RunReport {
            info: m.report.info.clone(),
            summary,
        };
        export::track::write(&after.exports, &run)?
    };
    let comparison = match (&m.baseline_dir, &after.baseline) {
        (Some(dir), Some(label)) => {
            let c = compare::compare(
                compare::load_side(dir, label)?,
                compare::load_side(out_dir, &out_dir.display().to_string())?,
                Some(after.noise_threshold),
            )?;
            let to = out_dir.join(harness::files::COMPARE);
            compare::write::write(&c, &to)?;
            Some(c)
        }
        _ => None,
    };
    let saved = match &after.save_baseline {
        Some(name) if !m.result.interrupted => {
            Some(baseline::save(out_dir, Path::new(baseline::ROOT), name)?)
        }
        _ => None,
    };
    Ok(Finished {
        report,
        comparison,
        saved,
        export_notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::SummaryRow;

    fn row(wall_s: f64, puzzles: u64, per_sec: f64) -> SummaryRow {
        SummaryRow {
            variant: "band".into(),
            dataset: "hard-9x9".into(),
            wall_s,
            puzzles,
            puzzles_per_sec: per_sec,
            ..SummaryRow::default()
        }
    }

    #[test]
    fn a_resumed_row_takes_the_wall_time_both_parts_measured() {
        let key = ("band".to_string(), "hard-9x9".to_string());
        let stopped = Stopped([(key, (3.0, 120))].into_iter().collect());
        // Rebuilt from 300 rows: 2.5 s of timed solves, 120 puzzles a second.
        let mut rows = [row(2.5, 300, 120.0)];
        stopped.walls(&mut rows, &[row(2.0, 180, 90.0)]);
        assert_eq!(rows[0].wall_s, 5.0);
        assert!((rows[0].puzzles_per_sec - 60.0).abs() < 1e-9);
        // Rows the two summaries do not cover (a part killed before its
        // summary) keep the estimate.
        let mut rows = [row(2.5, 300, 120.0)];
        stopped.walls(&mut rows, &[row(1.0, 100, 100.0)]);
        assert_eq!((rows[0].wall_s, rows[0].puzzles_per_sec), (2.5, 120.0));
        // A run killed before any summary: nothing is known, nothing changes.
        let mut rows = [row(2.5, 300, 120.0)];
        Stopped::default().walls(&mut rows, &[row(2.0, 180, 90.0)]);
        assert_eq!(rows[0].wall_s, 2.5);
    }
}
