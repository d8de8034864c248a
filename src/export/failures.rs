//! What failed in a run, said first: per contender and dataset, the counts
//! by kind, the first reasons and where the rows are; and the names the
//! terminal's last line gives, with the size declaration that would skip a
//! size a contender fails on every puzzle of.

use crate::harness::{files, RunInfo, SummaryRow};

/// One line per contender and dataset with a failed row (wrong, error, or
/// over the memory limit): what failed, the first reasons, and where its
/// rows are. Empty when nothing failed.
pub fn lines(rows: &[SummaryRow]) -> Vec<String> {
    said(rows, |r| r.wrong + r.errors + r.memory > 0)
}

/// The failures' headline: `3 puzzles answered wrong and 2 failed`, and
/// how many went over the memory limit, when any did.
pub fn headline(rows: &[SummaryRow]) -> String {
    let (wrong, errors) = crate::harness::summary::failures(rows);
    let memory: u64 = rows.iter().map(|r| r.memory).sum();
    let mut s = format!("{wrong} puzzles answered wrong and {errors} failed");
    if memory > 0 {
        s.push_str(&format!(", {memory} over the memory limit"));
    }
    s
}

/// One line per contender and dataset with no failed row whose figures do
/// not stand all the same: stopped by its budget (or unchecked) on over
/// half its puzzles.
pub fn without_figures(rows: &[SummaryRow]) -> Vec<String> {
    said(rows, |r| {
        r.wrong + r.errors + r.memory == 0 && !r.stands() && r.puzzles > 0
    })
}

fn said(rows: &[SummaryRow], which: impl Fn(&SummaryRow) -> bool) -> Vec<String> {
    rows.iter()
        .filter(|r| which(r))
        .map(|r| {
            let mut line = format!(
                "`{}` on {}: {} of {} puzzles ({} verified)",
                r.variant,
                r.dataset,
                if r.failed_kinds().is_empty() {
                    "none failed".to_string()
                } else {
                    r.failed_kinds()
                },
                r.puzzles,
                r.solved
            );
            if !r.stands() && r.wrong + r.errors + r.memory > 0 {
                line.push_str(&format!(
                    "; under {:.0}% verified, so no time, speed or interval is given for it",
                    100.0 * crate::harness::record::STANDING_SHARE
                ));
            }
            if !r.first_failures.is_empty() {
                line.push_str(&format!(
                    "; first reasons, in the order measured: {}",
                    r.first_failures
                ));
            }
            let statuses: Vec<&str> = [
                (r.wrong, "`wrong`"),
                (r.errors, "`error`"),
                (r.memory, "`memory`"),
            ]
            .iter()
            .filter(|k| k.0 > 0)
            .map(|k| k.1)
            .collect();
            if !statuses.is_empty() {
                line.push_str(&format!(
                    "; rows: `{}`, variant `{}`, status {}",
                    files::RESULTS_CSV,
                    r.variant,
                    statuses.join(" and ")
                ));
            }
            line
        })
        .collect()
}

/// Each contender with a wrong or failed row, as the terminal's last line
/// names it: `mine (282 errors)`. An outside contender that failed on every
/// puzzle of some grid sizes and answered on others is told the
/// declaration that would skip those sizes.
pub fn names(rows: &[SummaryRow], info: &RunInfo) -> Vec<String> {
    let variants = super::first_seen(rows.iter().map(|r| r.variant.as_str()));
    let mut out = Vec::new();
    for v in variants {
        let mine: Vec<&SummaryRow> = rows.iter().filter(|r| r.variant == v).collect();
        let (wrong, errors) = mine
            .iter()
            .fold((0, 0), |a, r| (a.0 + r.wrong, a.1 + r.errors));
        if wrong + errors == 0 {
            continue;
        }
        let mut kinds = Vec::new();
        if errors > 0 {
            kinds.push(format!("{errors} errors"));
        }
        if wrong > 0 {
            kinds.push(format!("{wrong} wrong"));
        }
        let mut said = format!("{v} ({})", kinds.join(", "));
        if let Some(hint) = undeclared(&mine, info) {
            said.push_str(&format!(": {hint}"));
        }
        out.push(said);
    }
    out
}

/// For an outside contender that failed every puzzle of some sizes and
/// answered on others: which sizes, and the declaration that skips them.
fn undeclared(mine: &[&SummaryRow], info: &RunInfo) -> Option<String> {
    let name = &mine.first()?.variant;
    let spec = info.options.contenders.iter().find(|s| &s.name == name)?;
    let side_of = |dataset: &str| {
        let size = &info.datasets.iter().find(|d| d.name == dataset)?.size;
        size.split('x').next()?.parse::<usize>().ok()
    };
    let mut sides: Vec<(usize, bool)> = Vec::new(); // (side, every puzzle failed)
    for r in mine {
        let Some(side) = side_of(&r.dataset) else {
            continue;
        };
        let all_failed = r.puzzles > 0 && r.wrong + r.errors == r.puzzles;
        match sides.iter_mut().find(|(s, _)| *s == side) {
            Some(e) => e.1 &= all_failed,
            None => sides.push((side, all_failed)),
        }
    }
    let failed: Vec<usize> = sides.iter().filter(|s| s.1).map(|s| s.0).collect();
    let kept: Vec<usize> = sides.iter().filter(|s| !s.1).map(|s| s.0).collect();
    if failed.is_empty() || kept.is_empty() {
        return None;
    }
    Some(format!(
        "every {} puzzle failed; declaring its sizes skips them: `{}`, or `{}` in its contenders-file entry",
        failed
            .iter()
            .map(|s| format!("{s}x{s}"))
            .collect::<Vec<_>>()
            .join(", "),
        spec.sized_flag(&kept),
        crate::external::ContenderSpec::sizes_line(&kept)
    ))
}
