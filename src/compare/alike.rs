//! What two runs' settings allow a comparison to be: runs of another
//! measure, mode or subset refused, other machines and limits warned of,
//! and how their puzzles and rounds pair up.

use super::CompareError;
use crate::harness::plan::Measure;
use crate::harness::RunInfo;

/// What two runs' settings allow a comparison to be.
pub(super) struct Alike {
    pub metric: Measure,
    pub warnings: Vec<String>,
    pub same_permutation: bool,
    pub by_rounds: bool,
    pub notes: Vec<String>,
}

/// Refuses runs of another measure, mode or subset; warns of other
/// machines and limits; says how the puzzles and rounds pair up.
pub(super) fn alike(bi: &RunInfo, ci: &RunInfo) -> Result<Alike, CompareError> {
    let (bo, co) = (&bi.options, &ci.options);
    if bo.measure.metric() != co.measure.metric() {
        return Err(CompareError::Metric {
            baseline: bo.measure.to_string(),
            current: co.measure.to_string(),
        });
    }
    if bo.mode != co.mode {
        return Err(CompareError::Mode {
            baseline: bo.mode.to_string(),
            current: co.mode.to_string(),
        });
    }
    let mut warnings = Vec::new();
    let mut differs = |what: &str, b: String, c: String| {
        if b != c {
            warnings.push(format!("{what} differs: {b} in the baseline, {c} now"));
        }
    };
    let limit = |t: Option<std::time::Duration>| t.map_or("none".into(), |t| format!("{t:?}"));
    differs("CPU", bi.cpu_model.clone(), ci.cpu_model.clone());
    differs("core count", bi.cores.to_string(), ci.cores.to_string());
    differs(
        "worker threads",
        bo.threads.to_string(),
        co.threads.to_string(),
    );
    differs(
        "node budget",
        bo.node_budget.to_string(),
        co.node_budget.to_string(),
    );
    differs("time limit", limit(bo.time_limit), limit(co.time_limit));
    let same_permutation = bo.permute == co.permute && (!bo.permute || bo.seed == co.seed);
    if !same_permutation {
        warnings.push(format!(
            "the puzzles differ: {} in the baseline, {} now; each dataset is compared as two independent samples, not puzzle by puzzle",
            permutation(bo),
            permutation(co)
        ));
    }
    if (bo.limit, bo.sample) != (co.limit, co.sample) {
        return Err(CompareError::Subset {
            baseline: subset(bo),
            current: subset(co),
        });
    }
    // Rounds pair up when both runs dealt their puzzles into the same number of them.
    let by_rounds = bo.rounds == co.rounds && co.rounds > 1;
    let mut notes = Vec::new();
    if !by_rounds {
        notes.push(if bo.rounds.max(co.rounds) > 1 {
            format!(
                "intervals cover the puzzles only: the baseline ran {} round(s), the current run {}",
                bo.rounds, co.rounds
            )
        } else {
            "intervals cover the puzzles only: the runs were not measured in rounds".to_string()
        });
    }
    Ok(Alike {
        metric: co.measure.metric(),
        warnings,
        same_permutation,
        by_rounds,
        notes,
    })
}

/// What a comparison on `dataset` holds for when the runs measured
/// different puzzles of it, or both a subset; empty when both measured all.
pub(super) fn puzzles_said(
    (bi, ci): (&RunInfo, &RunInfo),
    dataset: &str,
    compared: usize,
) -> String {
    fn of<'a>(info: &'a RunInfo, dataset: &str) -> Option<&'a crate::harness::DatasetInfo> {
        info.datasets.iter().find(|d| d.name == dataset)
    }
    let (base_run, cur_run) = (
        of(bi, dataset).map_or(0, |d| d.puzzles_run),
        of(ci, dataset).map_or(0, |d| d.puzzles_run),
    );
    let in_source = of(ci, dataset).map_or(0, |d| d.puzzles_in_source);
    if base_run != cur_run {
        format!(
            "{dataset}: compared on the {compared} puzzles both runs verified (the baseline ran {}, the current run {})",
            crate::stats::thousands(base_run),
            crate::stats::thousands(cur_run)
        )
    } else if cur_run < in_source {
        format!(
            "{dataset}: both runs measured {} ({} of its {} puzzles): the comparison holds for that subset",
            subset(&ci.options),
            crate::stats::thousands(cur_run),
            crate::stats::thousands(in_source)
        )
    } else {
        String::new()
    }
}

/// How a run's puzzles were arranged: `as given` or `--permute, seed 7`.
fn permutation(o: &crate::harness::RunOptions) -> String {
    if o.permute {
        format!("--permute, seed {}", o.seed)
    } else {
        "as given".into()
    }
}

/// Which of each dataset's puzzles a run measured: `all`, `--limit 50`, `--sample 40 (seed 7)`.
fn subset(o: &crate::harness::RunOptions) -> String {
    match (o.limit, o.sample) {
        (None, None) => "all".into(),
        (Some(l), None) => format!("--limit {l}"),
        (None, Some(s)) => format!("--sample {s} (seed {})", o.seed),
        (Some(l), Some(s)) => format!("--limit {l}, --sample {s} (seed {})", o.seed),
    }
}
