//! A study from its options to its folder: `study.json` first (so a
//! killed study says what it was), each share's solves appended to
//! `solves.csv` and its line to `shares.csv` as it ends, then the rows,
//! the findings, the charts and the report. With what a killed study
//! measured, only the shares it lacks are run.

use super::{Measured, Share, StudyData, StudyError, StudyFile, StudyInfo, StudyOptions};
use crate::export::csv::SolvesCsv;
use crate::harness::plan::Measure;
use crate::harness::{self, RunInfo, RunOptions, Schedule, SolveRecord};
use std::io;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// What a resumed study takes from its folder.
pub struct Resumed {
    /// Its study.json as it was written when it began.
    pub file: StudyFile,
    /// The shares it measured, with their solves.
    pub earlier: Measured,
}

/// What a study came to.
pub struct Studied {
    /// Its rows and whether it was interrupted.
    pub data: StudyData,
    /// What study.json now holds.
    pub file: StudyFile,
    /// The findings in words.
    pub findings: Vec<String>,
}

impl Studied {
    /// What the terminal shows: the findings as a list, then where the
    /// report is, the rows and the time.
    pub fn summary(&self, dir: &Path) -> String {
        let mut out: String = self
            .findings
            .iter()
            .map(|l| crate::export::terminal::list_item(l, 100))
            .collect();
        out += &format!(
            "Study: {} ({} rows in {}, {:.1} s)\n",
            dir.join(crate::harness::files::REPORT_MD).display(),
            self.data.rows.len(),
            super::CSV,
            self.file.elapsed_s
        );
        out
    }
}

/// Runs the study `info` asks for into `dir`; `on_share` hears the
/// dataset of each share as it ends; `command` is the command line
/// study.json records (a resumed study keeps its own).
pub fn measure(
    info: StudyInfo,
    dir: &Path,
    resumed: Option<Resumed>,
    command: Vec<String>,
    cancel: &Arc<AtomicBool>,
    on_share: &mut dyn FnMut(&str),
) -> Result<Studied, StudyError> {
    let started = Instant::now();
    let opts = info.options.clone();
    if opts.measure == Measure::Instructions && !crate::callgrind::start_from_env() {
        return Err(StudyError::Options(format!(
            "--measure instructions: this process is not running under callgrind with {} set (`sudoku-bench study` starts it so itself)",
            crate::callgrind::OUT_VAR
        )));
    }
    let mut run = RunInfo::new(run_options(&opts), command, Vec::new());
    let (earlier, resumes) = match resumed {
        Some(r) => {
            run.command = r.file.run.command;
            run.started = r.file.run.started;
            run.resumed = r.file.run.resumed + 1;
            (r.earlier, true)
        }
        None => (Measured::new(), false),
    };
    let begun = StudyFile {
        run: run.clone(),
        study: info.clone(),
        unhandled: Vec::new(),
        elapsed_s: 0.0,
        findings: Default::default(),
    };
    let json = serde_json::to_string_pretty(&begun).map_err(io::Error::other)?;
    std::fs::write(dir.join(super::JSON), json + "\n")?;
    let solves_path = dir.join(super::SOLVES_CSV);
    let mut solves = if resumes {
        SolvesCsv::append(&solves_path)
    } else {
        SolvesCsv::create(&solves_path)
    }?;
    let mut shares = super::ShareLog::open(&dir.join(super::SHARES_CSV), resumes)?;
    let mut each = |share: Share, records: &[SolveRecord]| -> io::Result<()> {
        for r in records {
            solves.write(r)?;
        }
        solves.flush()?;
        shares.add(share, records.len())?;
        on_share(records.first().map_or("", |r| &r.dataset));
        Ok(())
    };
    let data = super::run(&opts, cancel, earlier, &mut each, &harness::Silent)?;
    let mut csv = csv::Writer::from_path(dir.join(super::CSV)).map_err(io::Error::other)?;
    for r in &data.rows {
        csv.serialize(r).map_err(io::Error::other)?;
    }
    csv.flush()?;
    let findings = super::analysis::analyse(&opts, &data);
    run.finished = harness::info::now_rfc3339();
    run.interrupted = data.interrupted;
    run.wrong = data.rows.iter().map(|r| r.wrong).sum();
    run.errors = data.rows.iter().map(|r| r.errors).sum();
    let file = StudyFile {
        run,
        study: info,
        unhandled: data.unhandled.clone(),
        elapsed_s: started.elapsed().as_secs_f64(),
        findings,
    };
    let findings = super::write_outputs(dir, &file, &data.rows)?;
    Ok(Studied {
        data,
        file,
        findings,
    })
}

/// The run's options study.json's `run` records: the study's first mode
/// (its `study` lists them all).
fn run_options(opts: &StudyOptions) -> RunOptions {
    RunOptions {
        solvers: opts.solvers.iter().map(|s| s.name().to_string()).collect(),
        datasets: opts.points.iter().map(|p| p.name()).collect(),
        threads: opts.threads,
        mode: opts.modes[0],
        node_budget: opts.budget,
        time_limit: opts.time_limit,
        warmup: opts.warmup,
        repeat: opts.repeat,
        rounds: opts.rounds,
        min_time: None,
        schedule: Schedule::Interleaved,
        seed: opts.seed,
        measure: opts.measure,
        ..RunOptions::default()
    }
}
