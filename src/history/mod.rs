//! Results over time: many saved runs and baselines in order, each
//! contender's figure on each dataset as a timeline, and each step between
//! two runs that `compare` would call a regression or an improvement.
//!
//! A timeline holds runs of one machine and one setting (mode, subset,
//! permutation, measure, threads) on one version of a dataset (its
//! checksum): runs that differ in any of these are kept apart, never drawn
//! as one line. Runs are read one pair at a time, so memory does not grow
//! with their number.

pub mod write;

use crate::compare::{self, baseline, CompareError, Failures, Side, Verdict};
use crate::harness::plan::Measure;
use crate::harness::{files, RunInfo, SummaryRow};
use crate::report::{ReportError, RunData};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Why a history cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// A run or baseline does not resolve.
    #[error(transparent)]
    Compare(#[from] CompareError),
    /// A run folder does not read.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A run folder has no `run.json`.
    #[error("{}: {run_json} is missing, so the run's time, machine and setting are unknown", .0.display(), run_json = crate::harness::files::RUN_JSON)]
    NoInfo(PathBuf),
    /// A folder that is neither a run nor holds runs.
    #[error("{}: a folder, but neither a run (no {results_csv}) nor a folder of runs (none of its folders holds one)", .0.display(), results_csv = crate::harness::files::RESULTS_CSV)]
    NoRuns(PathBuf),
    /// Fewer than two runs.
    #[error("a history needs at least two runs or baselines ({0} given, each run counted once)")]
    TooFew(usize),
    /// The files cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// Another process writes into the history's folder.
    #[error(transparent)]
    Lock(#[from] crate::lock::LockError),
}

/// The order runs are read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// By the time each run started (run.json).
    Time,
    /// By label, numbers in them read as numbers (`v2` before `v10`); runs
    /// without a label after, by time.
    Label,
    /// As given on the command line.
    Given,
}

impl Order {
    /// Each order with its word.
    pub const WORDS: [(&'static str, Order); 3] = [
        ("time", Order::Time),
        ("label", Order::Label),
        ("given", Order::Given),
    ];
}

/// One run of the history.
#[derive(Clone, Debug)]
pub struct HistoryRun {
    /// How it was named: a folder or a baseline name.
    pub spec: String,
    /// Its folder.
    pub dir: PathBuf,
    /// Its `run.json`.
    pub info: RunInfo,
    /// What it lacks, when it was cut short (read as `report` reads it).
    pub cut_short: Vec<String>,
}

impl HistoryRun {
    /// Its name in tables and on the charts' x axis: its label, else the
    /// minute it started (`2026-11-27 08:10`).
    pub fn name(&self) -> String {
        match &self.info.options.label {
            Some(l) => l.clone(),
            None => self
                .info
                .started
                .replace('T', " ")
                .chars()
                .take(16)
                .collect(),
        }
    }
}

/// The machine a run was made on, in words: CPU, cores, instruction set.
pub fn machine(info: &RunInfo) -> String {
    let isa = if info.isa.is_empty() {
        String::new()
    } else {
        format!(", {}", info.isa)
    };
    format!("{}, {} cores{isa}", info.cpu_model, info.cores)
}

/// What a run's figures depend on besides the machine and the code, in the
/// command line's words: the report across machines' setting, and threads.
pub fn setting(info: &RunInfo) -> String {
    let [mode, subset, order, measure] = crate::report::machines::setting(info);
    let threads = info.options.threads;
    let mut parts = vec![format!("mode {}", mode.1), subset.1];
    if info.options.permute {
        parts.push(order.1);
    }
    parts.push(format!(
        "{threads} thread{}",
        if threads == 1 { "" } else { "s" }
    ));
    parts.push(format!("measure {}", measure.1));
    parts.join(", ")
}

/// One run's figure on a timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The run (its index in [`History::runs`]).
    pub run: usize,
    /// The median time (µs) or instructions a puzzle; `None` where the row's
    /// figures do not stand (too few puzzles verified).
    pub value: Option<f64>,
    /// The 95% interval of the median time, where there is one.
    pub interval: Option<(f64, f64)>,
    /// Puzzles verified.
    pub solved: u64,
    /// Puzzles measured.
    pub puzzles: u64,
    /// Puzzles failed: wrong, errors, stopped, over the memory limit.
    pub failed: u64,
    /// Of those, answered wrongly.
    pub wrong: u64,
}

impl Point {
    /// Its failures in a chart's words: `13 wrong`, `4 failed`, `13 failed
    /// (9 wrong)`; `None` where none failed.
    pub fn failed_words(&self) -> Option<String> {
        match (self.failed, self.wrong) {
            (0, _) => None,
            (f, w) if f == w => Some(format!("{f} wrong")),
            (f, 0) => Some(format!("{f} failed")),
            (f, w) => Some(format!("{f} failed ({w} wrong)")),
        }
    }
}

/// A step between two runs of a timeline that `compare` judged beyond
/// noise, or where puzzles were fixed or failed anew.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The run before (index in [`History::runs`]).
    pub from: usize,
    /// The run the change came in.
    pub to: usize,
    /// Regressed or improved: failures first, then the cost.
    pub verdict: Verdict,
    /// The verdict of the time (or instructions) alone.
    pub cost: Verdict,
    /// The later run's time (or instructions) over the earlier's, over the
    /// puzzles both verified: 1.05 is 5% more.
    pub change: f64,
    /// Its 95% interval (a point for instructions).
    pub interval: (f64, f64),
    /// The puzzles both runs verified, which `change` is over.
    pub puzzles: usize,
    /// True when `puzzles` is every puzzle either run verified.
    pub all_puzzles: bool,
    /// True when `change` is the two runs' means over their own verified
    /// puzzles (a counted run saved without each puzzle's count).
    pub means_only: bool,
    /// The puzzles fixed and failing anew.
    pub failures: Failures,
}

impl Step {
    /// True when puzzles were fixed or failed anew: said before any change in speed.
    pub fn failures_changed(&self) -> bool {
        self.failures.changed()
    }
}

/// One contender on one dataset, on one machine in one setting, over time.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// The variant.
    pub variant: String,
    /// The dataset.
    pub dataset: String,
    /// [`machine`] of its runs.
    pub machine: String,
    /// [`setting`] of its runs.
    pub setting: String,
    /// The dataset's checksum in its runs.
    pub sha256: String,
    /// Time, or instructions (counted runs).
    pub metric: Measure,
    /// Its figures, in the history's order.
    pub points: Vec<Point>,
    /// The steps judged beyond noise.
    pub steps: Vec<Step>,
}

impl Timeline {
    /// The unit of its values.
    pub fn unit(&self) -> &'static str {
        match self.metric {
            Measure::Instructions => "instructions a puzzle",
            _ => "µs",
        }
    }
}

/// Many runs, in order, and the timelines they make.
#[derive(Clone, Debug)]
pub struct History {
    /// The runs, in order.
    pub runs: Vec<HistoryRun>,
    /// The order they were put in.
    pub order: Order,
    /// The timelines, by variant, then dataset, then first run.
    pub timelines: Vec<Timeline>,
    /// What was kept apart, cut short or left out, in sentences.
    pub notes: Vec<String>,
    /// The noise thresholds used, by metric: times', instructions'.
    pub thresholds: (f64, f64),
}

impl History {
    /// The machines, in order of first appearance.
    pub fn machines(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.runs {
            let m = machine(&r.info);
            if !out.contains(&m) {
                out.push(m);
            }
        }
        out
    }

    /// Every marked step with its timeline: steps where puzzles failed
    /// anew first, then those that fixed some (the most puzzles first),
    /// then the other regressions, then the improvements, each by the size
    /// of its change in speed.
    pub fn moves(&self) -> Vec<(&Timeline, &Step)> {
        let mut out: Vec<(&Timeline, &Step)> = self
            .timelines
            .iter()
            .flat_map(|t| t.steps.iter().map(move |s| (t, s)))
            .collect();
        let size = |s: &Step| s.change.ln().abs();
        out.sort_by(|(_, a), (_, b)| {
            let rank = |s: &Step| {
                (
                    s.failures.new,
                    s.failures.fixed,
                    s.verdict == Verdict::Regressed,
                )
            };
            rank(b).cmp(&rank(a)).then(size(b).total_cmp(&size(a)))
        });
        out
    }
}

/// A run as it was named, and its folder.
type Named = (String, PathBuf);

/// The runs read, their summaries, and what was passed over.
type RunsRead = (Vec<HistoryRun>, Vec<Vec<SummaryRow>>, Vec<String>);

/// Run folders and baseline names as given, a folder of runs (like
/// `reports/baselines`) read as each run in it. Among several, a folder
/// that is neither (a history's own, a comparison's: `history reports/*`)
/// is passed over, and said in the second list.
fn resolve_all(specs: &[String], root: &Path) -> Result<(Vec<Named>, Vec<String>), HistoryError> {
    let mut out = Vec::new();
    let mut passed = Vec::new();
    for spec in specs {
        let dir = Path::new(spec);
        let is_run = dir.join(files::RESULTS_CSV).is_file();
        if !is_run && dir.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(dir)
                .map_err(|source| ReportError::Io {
                    path: dir.to_path_buf(),
                    source,
                })?
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.join(files::RESULTS_CSV).is_file())
                .filter(|p| {
                    !p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                })
                .collect();
            if !inner.is_empty() {
                inner.sort();
                out.extend(inner.into_iter().map(|p| (p.display().to_string(), p)));
                continue;
            }
        }
        // A file among several (a log beside the runs: `history reports/*`).
        if dir.is_file() && specs.len() > 1 {
            passed.push(format!(
                "{}: passed over: a file, not a run folder",
                dir.display()
            ));
            continue;
        }
        if dir.is_dir() && !is_run && !root.join(spec).is_dir() {
            if specs.len() == 1 {
                return Err(HistoryError::NoRuns(dir.to_path_buf()));
            }
            passed.push(format!(
                "{}: passed over: neither a run (no {}) nor a folder of runs",
                dir.display(),
                files::RESULTS_CSV
            ));
            continue;
        }
        out.push((spec.clone(), baseline::resolve(spec, root)?));
    }
    // A run named twice (a folder and its baseline name, a glob over both)
    // is read once.
    let mut seen = std::collections::HashSet::new();
    out.retain(|(_, dir)| seen.insert(std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone())));
    Ok((out, passed))
}

/// A label's key for ordering: runs of digits compare as numbers.
fn natural_key(label: &str) -> Vec<(bool, u128, String)> {
    let mut out = Vec::new();
    let mut chars = label.chars().peekable();
    while let Some(&c) = chars.peek() {
        let digit = c.is_ascii_digit();
        let mut part = String::new();
        while let Some(&c) = chars.peek() {
            if c.is_ascii_digit() != digit {
                break;
            }
            part.push(c);
            chars.next();
        }
        let n = if digit {
            part.parse().unwrap_or(u128::MAX)
        } else {
            0
        };
        out.push((digit, n, part));
    }
    out
}

/// Reads each run's `run.json` and `summary.csv` (a run cut short has its
/// summary made from its rows first, as `report` does), in `order`.
fn read_runs(specs: &[String], root: &Path, order: Order) -> Result<RunsRead, HistoryError> {
    let mut read = Vec::new();
    let (dirs, passed) = resolve_all(specs, root)?;
    for (spec, dir) in dirs {
        let rebuilt = crate::report::rebuild_if_cut_short(&dir)?;
        let (info, summary) = crate::report::load_summary(&dir)?;
        let info = info.ok_or_else(|| HistoryError::NoInfo(dir.clone()))?;
        let cut_short = rebuilt.unwrap_or_else(|| {
            if info.finished.is_empty() {
                info.incomplete.clone()
            } else {
                Vec::new()
            }
        });
        read.push((
            HistoryRun {
                spec,
                dir,
                info,
                cut_short,
            },
            summary,
        ));
    }
    // A run named twice under two folders (a run and the baseline saved
    // from it: `history reports/* reports/baselines`) is read once: its
    // run.json (start, command, machine, label) and the size of its rows
    // say it is one run.
    type Identity = (String, Vec<String>, String, Option<String>, u64);
    let mut first: HashMap<Identity, String> = HashMap::new();
    let mut passed = passed;
    read.retain(|(r, _)| {
        let rows = std::fs::metadata(r.dir.join(files::RESULTS_CSV)).map_or(0, |m| m.len());
        let key = (
            r.info.started.clone(),
            r.info.command.clone(),
            r.info.cpu_model.clone(),
            r.info.options.label.clone(),
            rows,
        );
        match first.get(&key) {
            Some(kept) => {
                passed.push(format!(
                    "{}: passed over: the same run as {kept} (its run.json and rows), read once",
                    r.dir.display()
                ));
                false
            }
            None => {
                first.insert(key, r.dir.display().to_string());
                true
            }
        }
    });
    match order {
        Order::Given => {}
        Order::Time => read.sort_by(|a, b| a.0.info.started.cmp(&b.0.info.started)),
        Order::Label => read.sort_by(|a, b| {
            let key = |r: &HistoryRun| {
                (
                    r.info.options.label.is_none(),
                    r.info.options.label.as_deref().map(natural_key),
                    r.info.started.clone(),
                )
            };
            key(&a.0).cmp(&key(&b.0))
        }),
    }
    let (runs, summaries) = read.into_iter().unzip();
    Ok((runs, summaries, passed))
}

/// What keeps two runs' figures of one contender on one dataset apart.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    variant: String,
    dataset: String,
    sha256: String,
    machine: String,
    setting: String,
}

/// Reads `specs` (run folders, baseline names, folders of runs) in `order`
/// and makes their timelines; `threshold` is the noise threshold as a
/// fraction (default: `compare`'s for each measure).
pub fn history(
    specs: &[String],
    root: &Path,
    order: Order,
    threshold: Option<f64>,
) -> Result<History, HistoryError> {
    let (runs, summaries, passed) = read_runs(specs, root, order)?;
    if runs.len() < 2 {
        return Err(HistoryError::TooFew(runs.len()));
    }
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut timelines: Vec<Timeline> = Vec::new();
    for (r, (run, summary)) in runs.iter().zip(&summaries).enumerate() {
        let info = &run.info;
        for row in summary {
            let sha256 = info
                .datasets
                .iter()
                .find(|d| d.name == row.dataset)
                .map(|d| d.sha256.clone())
                .unwrap_or_default();
            let key = Key {
                variant: row.variant.clone(),
                dataset: row.dataset.clone(),
                sha256: sha256.clone(),
                machine: machine(info),
                setting: setting(info),
            };
            let metric = info.options.measure.metric();
            let t = *index.entry(key.clone()).or_insert_with(|| {
                timelines.push(Timeline {
                    variant: key.variant,
                    dataset: key.dataset,
                    machine: key.machine,
                    setting: key.setting,
                    sha256,
                    metric,
                    points: Vec::new(),
                    steps: Vec::new(),
                });
                timelines.len() - 1
            });
            timelines[t].points.push(point(r, row, metric));
        }
    }
    let thresholds = (
        threshold.unwrap_or(compare::default_threshold(Measure::Time)),
        threshold.unwrap_or(compare::default_threshold(Measure::Instructions)),
    );
    mark_steps(&runs, &mut timelines, thresholds)?;
    timelines.sort_by(|a, b| {
        (&a.variant, &a.dataset, a.points[0].run).cmp(&(&b.variant, &b.dataset, b.points[0].run))
    });
    let mut notes = passed;
    notes.extend(notes_of(&runs, &timelines));
    Ok(History {
        runs,
        order,
        timelines,
        notes,
        thresholds,
    })
}

fn point(run: usize, row: &SummaryRow, metric: Measure) -> Point {
    let value = if !row.stands() {
        None
    } else if metric == Measure::Instructions {
        row.instructions_per_puzzle
    } else {
        row.median_us
    };
    let interval = match metric {
        Measure::Instructions => None,
        _ => row.median_lo_us.zip(row.median_hi_us),
    };
    Point {
        run,
        value,
        interval: value.and(interval),
        solved: row.solved,
        puzzles: row.puzzles,
        failed: crate::export::track::failures(row),
        wrong: row.wrong,
    }
}

/// Compares each timeline's neighbouring runs as `compare` would, reading
/// each run once and keeping only the runs a later step still needs.
fn mark_steps(
    runs: &[HistoryRun],
    timelines: &mut [Timeline],
    thresholds: (f64, f64),
) -> Result<(), HistoryError> {
    // For each run, the earlier runs it is compared with.
    let mut pairs: Vec<Vec<usize>> = vec![Vec::new(); runs.len()];
    let mut last_use: Vec<usize> = (0..runs.len()).collect();
    for t in timelines.iter() {
        for w in t.points.windows(2) {
            let (a, b) = (w[0].run, w[1].run);
            if !pairs[b].contains(&a) {
                pairs[b].push(a);
            }
            last_use[a] = last_use[a].max(b);
        }
    }
    let mut kept: HashMap<usize, (Side, RunData)> = HashMap::new();
    let mut results: HashMap<(usize, usize), compare::Comparison> = HashMap::new();
    for b in 0..runs.len() {
        if pairs[b].is_empty() && last_use[b] == b {
            continue;
        }
        let side = |r: &HistoryRun| -> Result<(Side, RunData), HistoryError> {
            let data = crate::report::load_points(&r.dir)?;
            Ok((
                Side {
                    label: r.spec.clone(),
                    info: r.info.clone(),
                },
                data,
            ))
        };
        let cur = side(&runs[b])?;
        for &a in &pairs[b] {
            let Some(base) = kept.get(&a) else { continue };
            let metric = runs[b].info.options.measure.metric();
            let threshold = match metric {
                Measure::Instructions => thresholds.1,
                _ => thresholds.0,
            };
            // Timelines keep machines and settings apart, so the runs compare.
            if let Ok(c) = compare::compare_read(
                (base.0.clone(), &base.1),
                (cur.0.clone(), &cur.1),
                Some(threshold),
            ) {
                results.insert((a, b), c);
            }
        }
        kept.retain(|&a, _| last_use[a] > b);
        if last_use[b] > b {
            kept.insert(b, cur);
        }
    }
    for t in timelines.iter_mut() {
        let mut steps = Vec::new();
        for w in t.points.windows(2) {
            let (a, b) = (w[0].run, w[1].run);
            let Some(row) = results.get(&(a, b)).and_then(|c| {
                c.rows
                    .iter()
                    .find(|r| r.variant == t.variant && r.dataset == t.dataset)
            }) else {
                continue;
            };
            if row.verdict == Verdict::WithinNoise {
                continue;
            }
            let inv = |s: f64| if s > 0.0 { 1.0 / s } else { f64::NAN };
            steps.push(Step {
                from: a,
                to: b,
                verdict: row.verdict,
                cost: row.cost,
                change: inv(row.speed),
                interval: (inv(row.speed_hi), inv(row.speed_lo)),
                puzzles: row.puzzles,
                all_puzzles: row.puzzles as u64 == row.base_solved.max(row.cur_solved),
                means_only: row.means_only,
                failures: row.failures,
            });
        }
        t.steps = steps;
    }
    Ok(())
}

/// The sentences on what was kept apart and what was cut short.
fn notes_of(runs: &[HistoryRun], timelines: &[Timeline]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        if !r.cut_short.is_empty() {
            out.push(format!(
                "run {} ({}, {}) was cut short: its figures are made from the rows it wrote; it lacks {}",
                i + 1,
                r.name(),
                r.dir.display(),
                r.cut_short.join("; ")
            ));
        }
    }
    let mut told: Vec<(&str, &str)> = Vec::new();
    for t in timelines {
        let key = (t.variant.as_str(), t.dataset.as_str());
        if told.contains(&key) {
            continue;
        }
        let apart: Vec<&Timeline> = timelines
            .iter()
            .filter(|u| u.variant == t.variant && u.dataset == t.dataset)
            .collect();
        if apart.len() < 2 {
            continue;
        }
        told.push(key);
        let differs = |f: fn(&Timeline) -> &str| apart.iter().any(|u| f(u) != f(apart[0]));
        let mut by = Vec::new();
        if differs(|u| &u.machine) {
            by.push("machine");
        }
        if differs(|u| &u.setting) {
            by.push("setting");
        }
        if differs(|u| &u.sha256) {
            by.push("dataset checksum");
        }
        out.push(format!(
            "{} on {}: {} timelines kept apart by {}, never averaged: {}",
            t.variant,
            t.dataset,
            apart.len(),
            by.join(" and "),
            apart
                .iter()
                .map(|u| format!("{} ({})", series_name(u, &by), run_span(&u.points)))
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    out
}

/// What tells a timeline from others of its contender and dataset.
pub fn series_name(t: &Timeline, by: &[&str]) -> String {
    let mut parts = Vec::new();
    if by.contains(&"machine") {
        parts.push(t.machine.clone());
    }
    if by.contains(&"setting") {
        parts.push(t.setting.clone());
    }
    if by.contains(&"dataset checksum") {
        parts.push(format!("sha256 {}…", &t.sha256[..t.sha256.len().min(12)]));
    }
    parts.join(", ")
}

/// `runs 1–12` or `runs 1, 4, 7`.
fn run_span(points: &[Point]) -> String {
    let runs: Vec<usize> = points.iter().map(|p| p.run + 1).collect();
    let consecutive = runs.windows(2).all(|w| w[1] == w[0] + 1);
    match runs.as_slice() {
        [one] => format!("run {one}"),
        [first, .., last] if consecutive => format!("runs {first}–{last}"),
        _ => format!(
            "runs {}",
            runs.iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

#[cfg(test)]
mod tests;
