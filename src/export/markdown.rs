//! `summary.md` and the terminal table: a shared table helper for markup.

use super::{Exporter, RunReport};
use crate::harness::SummaryRow;
use std::fmt::Write;
use std::io;

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

/// Formats a number with 3 significant digits, thousands separated.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return "-".into();
    }
    if x >= 1000.0 {
        let s = format!("{:.0}", x);
        let mut out = String::new();
        for (i, ch) in s.chars().enumerate() {
            if i > 0 && (s.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(ch);
        }
        out
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// Column heads of the summary table.
pub const SUMMARY_HEADER: [&str; 15] = [
    "dataset",
    "variant",
    "puzzles",
    "solved",
    "budget",
    "wrong",
    "errors",
    "puzzles/s",
    "mean µs",
    "median µs",
    "p90 µs",
    "p99 µs",
    "max µs",
    "guesses",
    "no guess %",
];

/// One summary row as display cells (the first two are text, the rest numbers).
pub fn summary_cells(r: &SummaryRow) -> [String; 15] {
    [
        r.dataset.clone(),
        r.variant.clone(),
        r.puzzles.to_string(),
        r.solved.to_string(),
        r.budget.to_string(),
        r.wrong.to_string(),
        r.errors.to_string(),
        num(r.puzzles_per_sec),
        num(r.mean_us),
        num(r.median_us),
        num(r.p90_us),
        num(r.p99_us),
        num(r.max_us),
        num(r.guesses_per_puzzle),
        format!("{:.1}", r.no_guess_pct),
    ]
}

/// The summary table: one row per strategy variant and dataset; wrong answers in bold.
pub fn summary_table(rows: &[SummaryRow]) -> String {
    let right: Vec<bool> = (0..SUMMARY_HEADER.len()).map(|i| i >= 2).collect();
    let body: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut cells = summary_cells(r);
            if r.wrong > 0 {
                cells[5] = format!("**{}**", r.wrong);
            }
            cells.to_vec()
        })
        .collect();
    table(&SUMMARY_HEADER, &body, &right)
}

/// `summary.md`: the run's metadata and the summary table.
pub struct SummaryMarkdown;

impl Exporter for SummaryMarkdown {
    fn file_name(&self) -> &'static str {
        "summary.md"
    }

    fn render(&self, run: &RunReport) -> io::Result<Vec<u8>> {
        let i = &run.info;
        let mut s = String::from("# sudoku-bench run\n\n");
        let _ = writeln!(
            s,
            "- started {}, finished {}{}",
            i.started,
            i.finished,
            if i.interrupted { " (interrupted)" } else { "" }
        );
        let _ = writeln!(
            s,
            "- {} {} ({}), {}",
            i.tool, i.version, i.git_commit, i.rustc
        );
        let _ = writeln!(
            s,
            "- {}, {} cores, worker threads: {}, {}",
            i.cpu_model, i.cores, i.options.threads, i.os
        );
        let _ =
            writeln!(
            s,
            "- mode {}, node budget {}, time limit {}, warmup {}, repeat {}, permute {}, seed {}",
            i.options.mode,
            i.options.node_budget,
            i.options.time_limit_ms.map_or("none".into(), |t| format!("{t} ms")),
            i.options.warmup,
            i.options.repeat,
            i.options.permute,
            i.options.seed
        );
        if i.wrong > 0 || i.errors > 0 {
            let _ = writeln!(
                s,
                "\n**{} wrong answers and {} strategy errors: see `results.csv`.**",
                i.wrong, i.errors
            );
        }
        s.push_str("\n## Summary\n\n");
        s.push_str(&summary_table(&run.summary));
        if !i.skipped.is_empty() {
            s.push_str("\nNot run (size not handled):\n\n");
            for k in &i.skipped {
                let _ = writeln!(s, "- {k}");
            }
        }
        s.push_str("\n## Datasets\n\n");
        let rows: Vec<Vec<String>> = i
            .datasets
            .iter()
            .map(|d| {
                vec![
                    d.name.clone(),
                    d.size.clone(),
                    d.puzzles_run.to_string(),
                    d.puzzles_in_source.to_string(),
                    d.source.clone(),
                    d.sha256[..16.min(d.sha256.len())].to_string(),
                ]
            })
            .collect();
        s.push_str(&table(
            &[
                "dataset",
                "size",
                "run",
                "in source",
                "source",
                "sha256 (first 16)",
            ],
            &rows,
            &[false, false, true, true, false, false],
        ));
        Ok(s.into_bytes())
    }
}
