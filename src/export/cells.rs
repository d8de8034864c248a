//! A run's figures laid out: the markup table both `summary.md` and the
//! terminal print ([`table`]), numbers and ratios as cells ([`num`],
//! [`times`]), the summary and relative-speed tables, and the matrices of
//! each contender against each dataset (speed, instructions, the CPU's
//! counters) that the terminal and `summary.md` both show.

use super::first_seen;
use crate::harness::SummaryRow;
use crate::perf::{Event, Events};

/// A markdown table with columns padded to line up in a terminal too.
pub fn table(header: &[&str], rows: &[Vec<String>], right_aligned: &[bool]) -> String {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([header[i].len(), 3])
                .max()
                .unwrap_or(3)
        })
        .collect();
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .zip(right_aligned)
            .map(|((c, &w), &right)| {
                if right {
                    format!("{c:>w$}")
                } else {
                    format!("{c:<w$}")
                }
            })
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let mut out = line(header.iter().map(|h| h.to_string()).collect());
    let rule: Vec<String> = widths
        .iter()
        .zip(right_aligned)
        .map(|(&w, &right)| {
            if right {
                format!("{}:", "-".repeat(w + 1))
            } else {
                "-".repeat(w + 2)
            }
        })
        .collect();
    out.push_str(&format!("|{}|\n", rule.join("|")));
    for r in rows {
        out.push_str(&line(r.clone()));
    }
    out
}

pub use crate::stats::thousands;

/// Formats a number with 3 significant digits, thousands separated.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    if x >= 1000.0 {
        thousands(x.round() as u64)
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// A figure that may be missing: [`num`], or empty.
pub fn opt(x: Option<f64>) -> String {
    x.map(num).unwrap_or_default()
}

/// Column heads of the summary table: its columns' names where a head is one.
pub const SUMMARY_HEADER: [&str; 18] = {
    let c = SummaryRow::NAMES;
    [
        c.dataset,
        c.variant,
        c.puzzles,
        c.solves,
        c.solved,
        c.budget,
        c.wrong,
        c.errors,
        c.unchecked,
        "puzzles/s",
        "mean µs",
        "median µs",
        "p90 µs",
        "p99 µs",
        "max µs",
        "guesses",
        "nodes",
        "no guess %",
    ]
};

/// One summary row as display cells (the first two are text, the rest
/// numbers). Times, guesses and nodes are over the verified puzzles, and
/// empty where the row's figures do not stand.
pub fn summary_cells(r: &SummaryRow) -> [String; 18] {
    [
        r.dataset.clone(),
        r.label(),
        r.puzzles.to_string(),
        // Runs saved before solves were counted: not known.
        if r.solves > 0 {
            r.solves.to_string()
        } else {
            "-".into()
        },
        r.solved.to_string(),
        r.budget.to_string(),
        r.wrong.to_string(),
        r.errors.to_string(),
        r.unchecked.to_string(),
        // Under half verified: no figure at all, throughput included.
        if r.stands() {
            num(r.puzzles_per_sec)
        } else {
            String::new()
        },
        opt(r.mean_us),
        opt(r.median_us),
        opt(r.p90_us),
        opt(r.p99_us),
        opt(r.max_us),
        opt(r.guesses_per_puzzle),
        opt(r.nodes_per_puzzle),
        r.no_guess_pct
            .map(|p| format!("{p:.1}"))
            .unwrap_or_default(),
    ]
}

/// The summary table: one row per strategy variant and dataset; wrong answers in bold.
pub fn summary_table(rows: &[SummaryRow]) -> String {
    summary_table_of(rows, false)
}

/// The columns of [`summary_cells`] that are times (puzzles/s and µs):
/// left out of a counted run's tables, whose clock is valgrind's.
pub const TIME_CELLS: std::ops::RangeInclusive<usize> = 9..=14;

/// [`summary_table`], its time columns (puzzles/s and µs) left out when
/// `untimed` (a counted run, whose clock is valgrind's).
pub fn summary_table_of(rows: &[SummaryRow], untimed: bool) -> String {
    let keep = |i: usize| !(untimed && TIME_CELLS.contains(&i));
    let header: Vec<&str> = (0..SUMMARY_HEADER.len())
        .filter(|&i| keep(i))
        .map(|i| SUMMARY_HEADER[i])
        .collect();
    let right: Vec<bool> = (0..SUMMARY_HEADER.len())
        .filter(|&i| keep(i))
        .map(|i| i >= 2)
        .collect();
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut cells = summary_cells(r);
            if r.wrong > 0 {
                cells[6] = format!("**{}**", r.wrong);
            }
            (0..cells.len())
                .filter(|&i| keep(i))
                .map(|i| std::mem::take(&mut cells[i]))
                .collect()
        })
        .collect();
    table(&header, &body, &right)
}

/// A ratio like `2.47×`; below 0.01, as a fraction like `1/770×`.
pub fn times(x: f64) -> String {
    if x > 0.0 && x < 0.01 {
        format!("1/{}×", num((1.0 / x).round()))
    } else if x >= 100.0 {
        format!("{x:.0}×")
    } else if x >= 10.0 {
        format!("{x:.1}×")
    } else {
        format!("{x:.2}×")
    }
}

/// Column heads of the relative-speed table.
pub const RELATIVE_HEADER: [&str; 8] = [
    "dataset",
    "variant",
    "reference",
    "speed",
    "95% CI",
    "faster on %",
    "median µs",
    "95% CI",
];

/// One row of the relative-speed table as display cells (the first three are text);
/// `None` for a row that was not compared.
pub fn relative_cells(r: &SummaryRow) -> Option<[String; 8]> {
    if r.reference.is_empty() {
        return None;
    }
    let interval = |lo: Option<f64>, hi: Option<f64>, f: fn(f64) -> String| match (lo, hi) {
        (Some(lo), Some(hi)) => format!("{}–{}", f(lo), f(hi)),
        _ => "-".into(),
    };
    Some([
        r.dataset.clone(),
        r.label(),
        r.reference.clone(),
        match r.stands() {
            true => speed_cell(r),
            false => r.failure_cell(),
        },
        interval(r.speed_lo, r.speed_hi, times),
        r.faster_pct.map_or("-".into(), |p| format!("{p:.0}")),
        r.median_us.map_or("-".into(), num),
        interval(r.median_lo_us, r.median_hi_us, num),
    ])
}

/// The relative-speed table: per dataset, each variant's speed against the
/// dataset's reference with its 95% interval, the share of puzzles it was faster
/// on, and its median with its interval. Empty when no row was compared.
pub fn relative_table(rows: &[SummaryRow]) -> String {
    let body: Vec<Vec<String>> = rows
        .iter()
        .filter_map(relative_cells)
        .map(|c| c.to_vec())
        .collect();
    if body.is_empty() {
        return String::new();
    }
    let right: Vec<bool> = (0..RELATIVE_HEADER.len()).map(|i| i >= 3).collect();
    table(&RELATIVE_HEADER, &body, &right)
}

/// What the speed columns mean, in one sentence.
pub const RELATIVE_NOTE: &str = "Speed: the geometric mean, over the puzzles both solved, of the reference's time over the variant's (2× = twice as fast).";

/// Strategies as rows, datasets as columns, each cell the strategy's speed
/// against that dataset's reference (`ref` for the reference itself, `-` where
/// it did not run or was not compared; see [`speed_cell`]). Datasets that do not fit in `width`
/// columns go to a further block below. Empty when nothing was compared.
pub fn speed_matrix(rows: &[SummaryRow], width: usize) -> String {
    if rows.iter().all(|r| r.speed.is_none()) {
        return String::new();
    }
    matrix(rows, width, "speed", &speed_cell)
}

/// A contender's cell in the speed matrix: `ref`, its speed, or where its
/// figures do not stand its failures (`282/300 errors`); with the verified
/// puzzles it stands on when that is fewer than all (`0.52× 269/300`).
pub fn speed_cell(r: &SummaryRow) -> String {
    if !r.stands() {
        return if r.puzzles > 0 {
            r.failure_cell()
        } else {
            "-".into()
        };
    }
    let part = if r.solved < r.puzzles {
        format!(" {}/{}", r.solved, r.puzzles)
    } else {
        String::new()
    };
    match (r.variant == r.reference, r.speed) {
        (true, _) => format!("ref{part}"),
        (false, Some(x)) => format!("{}{part}", times(x)),
        (false, None) => "-".into(),
    }
}

/// Strategies as rows, datasets as columns, each cell the mean instructions
/// per puzzle (`-` where none were counted). Empty when none were.
pub fn instructions_matrix(rows: &[SummaryRow], width: usize) -> String {
    if rows.iter().all(|r| r.instructions_per_puzzle.is_none()) {
        return String::new();
    }
    matrix(rows, width, "instructions", &|r| {
        r.instructions_per_puzzle
            .map_or("-".into(), |n| crate::stats::thousands(n.round() as u64))
    })
}

/// The CPU's counters a run read (`--measure cycles,...`): a matrix of the
/// mean count per puzzle for each of `events`, and of instructions per
/// cycle when both were read. Empty when none were.
pub fn counter_matrices(rows: &[SummaryRow], width: usize, events: Events) -> String {
    let mean = |r: &SummaryRow, e: Event| match e {
        Event::Cycles => r.cycles_per_puzzle,
        Event::Instructions => r.instructions_per_puzzle,
        Event::BranchMisses => r.branch_misses_per_puzzle,
        Event::TaskClock => r.task_clock_ns_per_puzzle,
    };
    let mut out = String::new();
    for e in events.iter() {
        if rows.iter().all(|r| mean(r, e).is_none()) {
            continue;
        }
        let corner = match e {
            Event::TaskClock => "task-clock, ns".to_string(),
            e => e.to_string(),
        };
        out.push_str(&matrix(rows, width, &corner, &|r| {
            mean(r, e).map_or("-".into(), |n| crate::stats::thousands(n.round() as u64))
        }));
        out.push('\n');
    }
    let ipc = |r: &SummaryRow| Some(mean(r, Event::Instructions)? / mean(r, Event::Cycles)?);
    if rows.iter().any(|r| ipc(r).is_some()) {
        out.push_str(&matrix(rows, width, "instructions/cycle", &|r| {
            ipc(r).map_or("-".into(), |x| format!("{x:.2}"))
        }));
        out.push('\n');
    }
    let end = out.trim_end().len();
    out.truncate(end);
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The words above [`counter_matrices`].
pub const COUNTERS_HEAD: &str = "The CPU's counters per puzzle (means; read around each call through perf_event_open, the CPU's in user space only; they move a little from run to run, as times do):";

/// The matrix of `cell` over strategies (rows) and datasets (columns),
/// blocks of datasets that fit in `width`, `corner` above the names.
fn matrix(
    rows: &[SummaryRow],
    width: usize,
    corner: &str,
    cell: &dyn Fn(&SummaryRow) -> String,
) -> String {
    let variants = first_seen(rows.iter().map(|r| r.variant.as_str()));
    let labels: Vec<String> = variants
        .iter()
        .map(|&v| {
            rows.iter()
                .find(|r| r.variant == v)
                .map_or(v.to_string(), |r| r.label())
        })
        .collect();
    let datasets = first_seen(rows.iter().map(|r| r.dataset.as_str()));
    let cell = |v: &str, d: &str| -> String {
        rows.iter()
            .find(|r| r.variant == v && r.dataset == d)
            .map_or("-".into(), cell)
    };
    let first = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(8)
        .max(corner.chars().count());
    let columns: Vec<(usize, &str)> = datasets
        .iter()
        .map(|d| {
            let w = variants
                .iter()
                .map(|v| cell(v, d).chars().count())
                .chain([d.chars().count()])
                .max()
                .unwrap_or(3);
            (w, *d)
        })
        .collect();
    let mut out = String::new();
    let mut start = 0;
    while start < columns.len() {
        // As many datasets as fit beside the strategy names (at least one).
        let mut used = first;
        let mut end = start;
        while end < columns.len() && (end == start || used + 2 + columns[end].0 <= width) {
            used += 2 + columns[end].0;
            end += 1;
        }
        if start > 0 {
            out.push('\n');
        }
        out.push_str(&format!("{corner:<first$}"));
        for &(w, d) in &columns[start..end] {
            out.push_str(&format!("  {d:>w$}"));
        }
        out.push('\n');
        for (v, label) in variants.iter().zip(&labels) {
            out.push_str(&format!("{label:<first$}"));
            for &(w, d) in &columns[start..end] {
                out.push_str(&format!("  {:>w$}", cell(v, d)));
            }
            out.push('\n');
        }
        start = end;
    }
    out
}

/// Per dataset and strategy: puzzles solved, median and puzzles/s, in few
/// columns: the terminal's view of a run where nothing was compared.
pub fn compact_summary(rows: &[SummaryRow]) -> String {
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.dataset.clone(),
                r.label(),
                format!("{}/{}", r.solved, r.puzzles),
                opt(r.median_us),
                num(r.puzzles_per_sec),
            ]
        })
        .collect();
    let c = SummaryRow::NAMES;
    table(
        &[c.dataset, c.variant, c.solved, "median µs", "puzzles/s"],
        &body,
        &[false, false, true, true, true],
    )
}
