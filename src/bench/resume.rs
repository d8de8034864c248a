//! Finishing a run that was cut short: what its folder holds already, and
//! how its record differs from the same plan now.

use super::{BenchError, Plan};
use crate::harness::{self, recover, BenchDataset, Contender, RunInfo};
use std::path::{Path, PathBuf};

/// A scaling run's folder (a `threads-N` folder per count, no run.json of
/// its own): the folders of its counts that began, in order of name.
pub fn scaling_counts(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("threads-"))
                && p.join(harness::RUN_JSON).is_file()
        })
        .collect();
    found.sort();
    found
}

/// What `bench --resume` finds in a run folder.
pub enum Reopened {
    /// The run finished (at this time): nothing to resume.
    Complete(String),
    /// The run was cut short: its record, and its plan made again.
    CutShort {
        /// Its run.json.
        info: Box<RunInfo>,
        /// The plan it recorded, checked and with its datasets read again.
        plan: Box<Plan>,
        /// How it differs from the same plan now, resumed anyway (`force`).
        despite: Vec<String>,
    },
}

/// Reads the run in `dir` back and plans the rest of it on `cores` cores,
/// with the report left off when `no_report`; one that differs from the
/// same plan now (another build, changed datasets, a contender's program or
/// library changed) is refused unless `force`; one whose `run.json` gained or
/// changed a contender since it began is refused, forced or not. A run
/// `run.json` says finished is resumed when its rows fall short.
pub fn reopen(
    dir: &Path,
    force: bool,
    no_report: bool,
    cores: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<Reopened, BenchError> {
    let info = recover::read_info(dir)?;
    if recover::is_complete(&info) {
        // "Finished" is the record's word: the rows must bear it out.
        let short = recover::not_whole(dir, &info)?;
        if short.is_empty() {
            return Ok(Reopened::Complete(info.finished));
        }
        progress(&format!(
            "note: {} says the run finished ({}), but its rows do not: {}; resuming it",
            harness::RUN_JSON,
            info.finished,
            short.join("; ")
        ));
    }
    let now = harness::prints::prints(&info.options);
    let contenders = match &info.contender_prints {
        Some(then) => harness::prints::compare(then, &now),
        None => harness::prints::Differences {
            gained: Vec::new(),
            changed: vec![format!(
                "contenders: {} records no prints of them, so their programs cannot be vouched for",
                harness::RUN_JSON
            )],
        },
    };
    if !contenders.gained.is_empty() {
        return Err(BenchError::Gained {
            dir: dir.to_path_buf(),
            gained: contenders.gained.join("\n  "),
        });
    }
    let mut options = super::recorded(&info, dir)?;
    options.after.report &= !no_report;
    let plan = Plan::new(options, cores, progress).map_err(|e| BenchError::Replan {
        path: dir.join(harness::RUN_JSON),
        source: Box::new(e),
    })?;
    let mut despite = differences(&info, &plan);
    despite.extend(contenders.changed);
    if !despite.is_empty() && !force {
        return Err(BenchError::Changed {
            dir: dir.to_path_buf(),
            differences: despite.join("\n  "),
        });
    }
    Ok(Reopened::CutShort {
        info: Box::new(info),
        plan: Box::new(plan),
        despite,
    })
}

/// What differs between the run's record and the same plan now: the build,
/// the datasets' content, the contenders.
pub fn differences(info: &RunInfo, plan: &Plan) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(why) = info.other_build() {
        out.push(format!("build: the run was {why}"));
    }
    let then: Vec<_> = info
        .datasets
        .iter()
        .map(|d| (&d.name, &d.sha256, d.puzzles_run))
        .collect();
    let here: Vec<_> = plan
        .datasets
        .iter()
        .map(|d| (&d.info.name, &d.info.sha256, d.info.puzzles_run))
        .collect();
    if then != here {
        for d in &plan.datasets {
            match info.datasets.iter().find(|t| t.name == d.info.name) {
                None => out.push(format!("dataset {}: not in the run", d.info.name)),
                Some(t) if t.sha256 != d.info.sha256 => out.push(format!(
                    "dataset {}: its file changed (SHA-256 {} then, {} now)",
                    d.info.name,
                    &t.sha256[..t.sha256.len().min(12)],
                    &d.info.sha256[..d.info.sha256.len().min(12)]
                )),
                Some(t) if t.puzzles_run != d.info.puzzles_run => out.push(format!(
                    "dataset {}: {} puzzles then, {} now",
                    d.info.name, t.puzzles_run, d.info.puzzles_run
                )),
                _ => {}
            }
        }
        for t in &info.datasets {
            if !plan.datasets.iter().any(|d| d.info.name == t.name) {
                out.push(format!("dataset {}: not found now", t.name));
            }
        }
    }
    out
}

/// Reads what the run in `dir` measured and leaves those puzzles out of
/// `datasets`: a puzzle counts as measured when every contender that runs on
/// its dataset has its row. Rows of puzzles measured only in part (the
/// window in flight when the run was killed) and a torn last line are
/// dropped from `results.csv`, so that the resumed run measures those
/// puzzles whole. `say` hears what was found.
pub fn leave_out_measured(
    dir: &Path,
    info: &RunInfo,
    contenders: &[Contender],
    datasets: Vec<BenchDataset>,
    say: &mut dyn FnMut(&str),
) -> Result<Vec<BenchDataset>, BenchError> {
    let cover = recover::Coverage::read(dir, info)?;
    if let Some(t) = &cover.torn {
        say(&format!("note: {t}"));
    }
    let mut done = Vec::new();
    for ds in &datasets {
        let here: Vec<String> = contenders
            .iter()
            .filter(|c| ds.admits(c))
            .map(|c| c.variant.clone())
            .collect();
        done.push((ds.name.clone(), cover.done(&ds.name, &here)));
    }
    let keep = |name: &str, index: u64| {
        done.iter()
            .find(|(d, _)| d == name)
            .is_some_and(|(_, bits)| bits.get(index))
    };
    let recover::Kept { dropped, repeats } = recover::keep_whole_puzzles(dir, info, &keep)?;
    for note in &repeats {
        say(&format!("note: {note}"));
    }
    let kept: u64 = done.iter().map(|(_, b)| b.count()).sum();
    let total: u64 = datasets.iter().map(|d| d.info.puzzles_run).sum();
    say(&format!(
        "resuming {}: {} of {} puzzles measured already{}",
        dir.display(),
        crate::stats::thousands(kept),
        crate::stats::thousands(total),
        if dropped > 0 {
            format!(" ({dropped} rows of puzzles measured in part dropped, to be measured whole)")
        } else {
            String::new()
        }
    ));
    Ok(datasets
        .into_iter()
        .zip(done)
        .map(|(ds, (_, bits))| ds.without(bits))
        .collect())
}
