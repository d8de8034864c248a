//! Comparing two saved runs (run folders or baselines): per strategy variant and
//! dataset, the puzzles fixed or failing anew, the change in time (or
//! instructions) over the puzzles both verified with its 95% interval, the
//! change in search size, and a verdict: failures first, then the cost
//! against a noise threshold.
//!
//! Times are paired by puzzle when both runs solved the same puzzles the same
//! way (same dataset checksum, same permutation); otherwise the geometric means
//! are compared as independent samples.

mod alike;
pub mod baseline;
mod puzzles;
pub mod write;

use alike::{alike, puzzles_said, Alike};
pub use puzzles::Failures;
use puzzles::{instructions_over, per_puzzle, verified_in_both, PuzzleStat};

use crate::harness::plan::Measure;
use crate::harness::{RunInfo, SummaryRow};
use crate::report::{load_points, ReportError, RunData};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Why two runs cannot be compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// A run folder does not read.
    #[error(transparent)]
    Load(#[from] ReportError),
    /// A run folder has no `run.json`, so its datasets cannot be checked.
    #[error("{}: {} is missing, so its datasets and mode cannot be checked", dir.display(), crate::harness::files::RUN_JSON)]
    NoInfo {
        /// The folder.
        dir: PathBuf,
    },
    /// The runs looked for different things.
    #[error("not comparable: the baseline ran mode {baseline}, the current run mode {current}")]
    Mode {
        /// The baseline's mode.
        baseline: String,
        /// The current run's mode.
        current: String,
    },
    /// The runs measured different things.
    #[error("not comparable: the baseline measured {baseline}, the current run {current}; compare runs of one measure (bench --measure)")]
    Metric {
        /// The baseline's measure.
        baseline: String,
        /// The current run's.
        current: String,
    },
    /// The runs measured different subsets of their datasets.
    #[error("not comparable: the baseline measured {baseline} of each dataset's puzzles, the current run {current}; a run of a subset times its puzzles differently (a --limit 50 run timed the same build's dlx 6-15% faster than a full run, on every puzzle), so a verdict between them would be about the subset, not the code: compare runs of one subset")]
    Subset {
        /// The baseline's subset, like `all` or `--limit 50`.
        baseline: String,
        /// The current run's.
        current: String,
    },
    /// No strategy variant ran on the same dataset in both.
    #[error("not comparable: no strategy variant ran on the same dataset in both runs{}", detail_list(.details))]
    Nothing {
        /// Why each candidate dropped out.
        details: Vec<String>,
    },
    /// A baseline or folder name does not resolve.
    #[error("{0}")]
    NotFound(String),
    /// Another process writes the folder.
    #[error(transparent)]
    Lock(#[from] crate::lock::LockError),
    /// `--out` names a run's folder, whose charts the comparison's would replace.
    #[error("--out {}: a run's folder or one of its subfolders: give the comparison a folder of its own", .0.display())]
    IntoRun(PathBuf),
    /// A baseline cannot be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
}

fn detail_list(details: &[String]) -> String {
    if details.is_empty() {
        String::new()
    } else {
        format!(" ({})", details.join("; "))
    }
}

/// What became of one (variant, dataset) from baseline to current, or of
/// its cost alone ([`CompareRow::cost`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Puzzles fixed and none failing anew, the cost not regressed; or
    /// faster beyond the threshold, the whole interval included.
    Improved,
    /// A puzzle that fails now and did not before; or slower beyond the
    /// threshold (the whole interval).
    Regressed,
    /// Neither.
    WithinNoise,
}

impl Verdict {
    /// The word written in tables.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Improved => "improved",
            Verdict::Regressed => "regressed",
            Verdict::WithinNoise => "within noise",
        }
    }
}

/// One strategy variant on one dataset, baseline against current.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompareRow {
    /// Strategy variant.
    pub variant: String,
    /// Dataset.
    pub dataset: String,
    /// True when times were paired by puzzle.
    pub paired: bool,
    /// Puzzles the cost is compared over: those verified in both runs.
    pub puzzles: usize,
    /// Baseline median µs over its solved puzzles (each puzzle's median over repeats).
    pub base_median_us: f64,
    /// Current median µs, likewise.
    pub cur_median_us: f64,
    /// Current speed over baseline speed (above 1: faster now), geometric mean of per-puzzle ratios.
    pub speed: f64,
    /// Lower end of its 95% interval.
    pub speed_lo: f64,
    /// Upper end of its 95% interval.
    pub speed_hi: f64,
    /// Change in time per puzzle, % (the inverse of `speed`, minus one).
    pub time_change_pct: f64,
    /// Share of paired puzzles solved faster now, % (`None` unpaired).
    pub faster_pct: Option<f64>,
    /// Baseline guesses per puzzle (over the compared puzzles).
    pub base_guesses: Option<f64>,
    /// Current guesses per puzzle.
    pub cur_guesses: Option<f64>,
    /// Baseline nodes per puzzle.
    pub base_nodes: Option<f64>,
    /// Current nodes per puzzle.
    pub cur_nodes: Option<f64>,
    /// True when the search itself changed: guesses or nodes differ on a paired puzzle.
    pub search_changed: bool,
    /// Puzzles solved correctly in the baseline.
    pub base_solved: u64,
    /// Puzzles solved correctly now.
    pub cur_solved: u64,
    /// Mean instructions per puzzle in the baseline (runs that counted
    /// them), over the puzzles both runs verified.
    pub base_instructions: Option<f64>,
    /// The same in the current run.
    pub cur_instructions: Option<f64>,
    /// True when the instructions are the two summaries' means, each over
    /// its own run's verified puzzles: a run saved without each puzzle's count.
    pub means_only: bool,
    /// Wrong answers and errors, before and after, puzzle by puzzle.
    pub failures: Failures,
    /// The verdict of the time (or instructions) alone, over the puzzles both verified.
    pub cost: Verdict,
    /// The verdict: a puzzle failing anew regresses, whatever the cost; else
    /// a cost beyond the threshold regresses; else puzzles fixed improve.
    pub verdict: Verdict,
    /// Per-puzzle time ratios, current over baseline, sorted (paired rows only; for charts).
    #[serde(skip)]
    pub ratios: Vec<f64>,
}

/// A run as a comparison sees it.
#[derive(Clone, Debug, Serialize)]
pub struct Side {
    /// How the user named it (a baseline name or a folder).
    pub label: String,
    /// `run.json`.
    pub info: RunInfo,
}

/// Two runs compared.
#[derive(Clone, Debug, Serialize)]
pub struct Comparison {
    /// The reference.
    pub baseline: Side,
    /// The run measured against it.
    pub current: Side,
    /// What was compared: time, or instructions per puzzle.
    #[serde(with = "crate::words::text")]
    pub metric: Measure,
    /// The noise threshold, as a fraction (0.03 = 3%).
    pub threshold: f64,
    /// Differences between the two runs' machines or settings that weaken the comparison.
    pub warnings: Vec<String>,
    /// How the 95% intervals were made, in words.
    pub intervals: String,
    /// Variants or datasets in only one run, or left out, with why.
    pub notes: Vec<String>,
    /// One row per variant and dataset present in both.
    pub rows: Vec<CompareRow>,
}

impl Comparison {
    /// True when some row regressed: what makes `compare` exit 1.
    pub fn regressed(&self) -> bool {
        self.rows.iter().any(|r| r.verdict == Verdict::Regressed)
    }
}

/// A run folder read for comparing: its data and `run.json`.
pub fn load_side(dir: &Path, label: &str) -> Result<(Side, RunData), CompareError> {
    let data = load_points(dir)?;
    let info = data
        .info
        .clone()
        .ok_or_else(|| CompareError::NoInfo { dir: dir.into() })?;
    Ok((
        Side {
            label: label.to_string(),
            info,
        },
        data,
    ))
}

fn median_us(stats: &[&PuzzleStat]) -> f64 {
    let mut ns: Vec<u64> = stats.iter().map(|s| s.ns).collect();
    ns.sort_unstable();
    crate::harness::summary::quantile(&ns, 0.5) as f64 / 1e3
}

/// The noise threshold when none is given: 3% for times, which move with
/// the machine; 1% for instructions, which do not.
pub fn default_threshold(metric: Measure) -> f64 {
    match metric.metric() {
        Measure::Instructions => 0.01,
        _ => 0.03,
    }
}

/// Compares `current` with `baseline` (the reference); `threshold` is the noise
/// threshold as a fraction (default: [`default_threshold`] of the runs' measure).
/// Runs that counted instructions are compared by them, exactly: no interval.
pub fn compare(
    (baseline, base_data): (Side, RunData),
    (current, cur_data): (Side, RunData),
    threshold: Option<f64>,
) -> Result<Comparison, CompareError> {
    compare_read((baseline, &base_data), (current, &cur_data), threshold)
}

/// [`compare`], of runs read once and kept by the caller (a history compares
/// each run with the one before it and the one after).
pub fn compare_read(
    (baseline, base_data): (Side, &RunData),
    (current, cur_data): (Side, &RunData),
    threshold: Option<f64>,
) -> Result<Comparison, CompareError> {
    let (bi, ci) = (&baseline.info, &current.info);
    let Alike {
        metric,
        mut warnings,
        same_permutation,
        by_rounds,
        mut notes,
    } = alike(bi, ci)?;
    for (side, data) in [(&baseline, base_data), (&current, cur_data)] {
        notes.extend(data.notes.iter().map(|n| format!("{}: {n}", side.label)));
    }
    let threshold = threshold.unwrap_or(default_threshold(metric));
    let base = per_puzzle(base_data);
    let cur = per_puzzle(cur_data);
    let checksum = |info: &RunInfo, name: &str| {
        info.datasets
            .iter()
            .find(|d| d.name == name)
            .map(|d| d.sha256.clone())
    };
    let mut details = Vec::new();
    let mut rows = Vec::new();
    // In the current run's order.
    for r in &cur_data.summary {
        let key = (r.variant.clone(), r.dataset.clone());
        let (Some(b), Some(c)) = (base.get(&key), cur.get(&key)) else {
            notes.push(format!(
                "{} on {}: not in the baseline",
                r.variant, r.dataset
            ));
            continue;
        };
        let (bs, cs) = (checksum(bi, &r.dataset), checksum(ci, &r.dataset));
        if bs.is_none() || bs != cs {
            let why = format!(
                "{}: the dataset's checksum differs ({} in the baseline, {} now)",
                r.dataset,
                short(bs.as_deref()),
                short(cs.as_deref())
            );
            if !details.contains(&why) {
                details.push(why.clone());
                notes.push(why);
            }
            continue;
        }
        let mut row = compare_one(&key, b, c, same_permutation, by_rounds, threshold);
        let said = puzzles_said((bi, ci), &r.dataset, row.puzzles);
        if !said.is_empty() && !warnings.contains(&said) {
            warnings.push(said);
        }
        if metric == Measure::Instructions {
            let base_row = base_data
                .summary
                .iter()
                .find(|s| s.variant == r.variant && s.dataset == r.dataset);
            if let Some(said) = counted(&mut row, base_row, r, threshold) {
                warnings.push(said);
            }
        }
        rows.push(row);
    }
    for r in &base_data.summary {
        if !cur_data
            .summary
            .iter()
            .any(|c| c.variant == r.variant && c.dataset == r.dataset)
        {
            notes.push(format!(
                "{} on {}: not in the current run",
                r.variant, r.dataset
            ));
        }
    }
    if rows.is_empty() {
        return Err(CompareError::Nothing { details });
    }
    let intervals = if by_rounds {
        format!("a t-interval over the {} rounds' own estimates (each round measured the same puzzles in both runs, so it covers the machine's drift between rounds)", ci.options.rounds)
    } else {
        "a bootstrap over the puzzles (the runs were not measured in matching rounds, so it covers the puzzles' spread, not the machine's drift)".into()
    };
    Ok(Comparison {
        baseline,
        current,
        metric,
        threshold,
        warnings,
        intervals,
        notes,
        rows,
    })
}

fn short(sha: Option<&str>) -> String {
    sha.map_or("none".into(), |s| format!("{}…", &s[..s.len().min(12)]))
}

/// The change's interval over rounds: per round, the mean log time of the baseline's puzzles minus the current
/// run's, and [`crate::stats::rounds_interval`] over those; `None` with fewer
/// than two rounds.
fn over_rounds(point: f64, base: &[&PuzzleStat], cur: &[&PuzzleStat]) -> Option<(f64, f64)> {
    let mut sums: std::collections::BTreeMap<u32, [(f64, u64); 2]> = Default::default();
    for (side, stats) in [base, cur].into_iter().enumerate() {
        for s in stats {
            let e = &mut sums.entry(s.round).or_default()[side];
            e.0 += (s.ns.max(1) as f64).ln();
            e.1 += 1;
        }
    }
    let values: Vec<f64> = sums
        .values()
        .filter(|[b, c]| b.1 > 0 && c.1 > 0)
        .map(|[b, c]| b.0 / b.1 as f64 - c.0 / c.1 as f64)
        .collect();
    crate::stats::rounds_interval(point, &values)
}

fn compare_one(
    (variant, dataset): &(String, String),
    base: &[PuzzleStat],
    cur: &[PuzzleStat],
    paired: bool,
    by_rounds: bool,
    threshold: f64,
) -> CompareRow {
    let solved = |v: &[PuzzleStat]| v.iter().filter(|s| s.solved).count() as u64;
    // Every figure is over the puzzles both runs verified: a puzzle fixed
    // or failing anew is a change of its own, never a change in cost.
    let pairs = verified_in_both(base, cur);
    let compared_base: Vec<&PuzzleStat> = pairs.iter().map(|p| p.0).collect();
    let compared_cur: Vec<&PuzzleStat> = pairs.iter().map(|p| p.1).collect();
    let mut search_changed = false;
    let mut ratios = Vec::new();
    let (speed, faster_pct) = if paired {
        search_changed = pairs
            .iter()
            .any(|(b, c)| b.nodes != c.nodes || b.guesses != c.guesses);
        let base_times: Vec<(u64, u64)> = pairs.iter().map(|p| (p.0.puzzle, p.0.ns)).collect();
        let cur_times: Vec<(u64, u64)> = pairs.iter().map(|p| (p.1.puzzle, p.1.ns)).collect();
        let s = crate::stats::speed(&base_times, &cur_times);
        ratios = pairs
            .iter()
            .map(|(b, c)| c.ns.max(1) as f64 / b.ns.max(1) as f64)
            .collect();
        ratios.sort_by(f64::total_cmp);
        (s.map(|s| s.ratio), s.map(|s| s.faster_pct))
    } else {
        // Measured in another order: the same puzzles, as two samples.
        let ns = |v: &[&PuzzleStat]| -> Vec<u64> { v.iter().map(|s| s.ns).collect() };
        (
            crate::stats::unpaired_speed(&ns(&compared_base), &ns(&compared_cur)),
            None,
        )
    };
    // Over the puzzles that report the counter; none when no puzzle does.
    let mean = |v: &[&PuzzleStat], f: fn(&PuzzleStat) -> Option<u64>| {
        let counted: Vec<u64> = v.iter().filter_map(|s| f(s)).collect();
        (!counted.is_empty()).then(|| counted.iter().sum::<u64>() as f64 / counted.len() as f64)
    };
    let mut s = speed.unwrap_or(crate::stats::Estimate {
        value: f64::NAN,
        lo: f64::NAN,
        hi: f64::NAN,
    });
    if by_rounds && s.value.is_finite() {
        // Both runs dealt puzzle i to round i mod R: each round's two halves are
        // the same puzzles, measured at two times.
        if let Some((lo, hi)) = over_rounds(s.value.ln(), &compared_base, &compared_cur) {
            (s.lo, s.hi) = (lo.exp(), hi.exp());
        }
    }
    // Slower beyond the threshold means the whole interval below 1/(1+t) in speed,
    // that is, time grown by more than t; faster likewise.
    let cost = if s.hi < 1.0 / (1.0 + threshold) {
        Verdict::Regressed
    } else if s.lo > 1.0 + threshold {
        Verdict::Improved
    } else {
        Verdict::WithinNoise
    };
    let failures = Failures::of(base, cur);
    let counts = instructions_over(&pairs);
    CompareRow {
        variant: variant.clone(),
        dataset: dataset.clone(),
        paired,
        puzzles: pairs.len(),
        base_median_us: median_us(&compared_base),
        cur_median_us: median_us(&compared_cur),
        speed: s.value,
        speed_lo: s.lo,
        speed_hi: s.hi,
        time_change_pct: 100.0 * (1.0 / s.value - 1.0),
        faster_pct,
        base_guesses: mean(&compared_base, |s| s.guesses),
        cur_guesses: mean(&compared_cur, |s| s.guesses),
        base_nodes: mean(&compared_base, |s| s.nodes),
        cur_nodes: mean(&compared_cur, |s| s.nodes),
        search_changed,
        base_solved: solved(base),
        cur_solved: solved(cur),
        base_instructions: counts.map(|c| c.0),
        cur_instructions: counts.map(|c| c.1),
        means_only: false,
        failures,
        cost,
        verdict: overall(failures, cost),
        ratios,
    }
}

/// A row's verdict, failures first: a puzzle failing anew is a regression
/// whatever the cost; puzzles fixed with none failing anew are an
/// improvement whatever the cost (a correctness fix is never blocked: its
/// cost on the puzzles both verified is said beside it, with its own
/// verdict); otherwise the cost decides.
pub fn overall(failures: Failures, cost: Verdict) -> Verdict {
    if failures.regressed() {
        Verdict::Regressed
    } else if failures.fixed > 0 {
        Verdict::Improved
    } else {
        cost
    }
}

/// Judges a row by instructions per puzzle, which are the same on every run
/// of a build: the ratio is exact (its interval a point), and a change
/// beyond `threshold` either way is the cost's verdict. The means are over
/// the puzzles both runs verified; a run saved without each puzzle's count
/// falls back to the summaries' means, and the sentence returned says so.
fn counted(
    row: &mut CompareRow,
    base: Option<&SummaryRow>,
    cur: &SummaryRow,
    threshold: f64,
) -> Option<String> {
    let mut said = None;
    if row.base_instructions.is_none() || row.cur_instructions.is_none() {
        row.base_instructions = base.and_then(|b| b.instructions_per_puzzle);
        row.cur_instructions = cur.instructions_per_puzzle;
        row.means_only = true;
        said = Some(format!(
            "{} on {}: instructions compared as each run's mean over its own verified puzzles ({} and {}), not over the puzzles both verified: {} has no instructions a puzzle (a run saved before it kept them)",
            row.variant,
            row.dataset,
            row.base_solved,
            row.cur_solved,
            crate::harness::files::RESULTS_CSV
        ));
    }
    let (Some(b), Some(c)) = (row.base_instructions, row.cur_instructions) else {
        return said;
    };
    let speed = b / c.max(1.0);
    (row.speed, row.speed_lo, row.speed_hi) = (speed, speed, speed);
    row.time_change_pct = 100.0 * (c / b.max(1.0) - 1.0);
    row.cost = if c > b * (1.0 + threshold) {
        Verdict::Regressed
    } else if c * (1.0 + threshold) < b {
        Verdict::Improved
    } else {
        Verdict::WithinNoise
    };
    row.verdict = overall(row.failures, row.cost);
    said
}

#[cfg(test)]
pub(crate) mod tests;
