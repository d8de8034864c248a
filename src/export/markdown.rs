//! `summary.md`: a run's opening lines, its failures, its sentences and
//! notes ([`super::words`]), the matrices and tables ([`super::cells`]),
//! and its datasets.

use super::cells::{
    counter_matrices, instructions_matrix, relative_table, summary_table_of, table, COUNTERS_HEAD,
    RELATIVE_NOTE,
};
use super::words::{counted_sentences, interval_note, run_notes, sentences};
use super::{Exporter, RunReport};
use crate::harness::files;
use crate::harness::plan::Measure;
use crate::harness::SummaryRow;
use std::fmt::Write;
use std::io;

/// The `## Failures` section that opens a run's summary and report: every
/// contender given up, then a line per contender and dataset that failed
/// (see [`super::failures::lines`]). Empty when nothing failed.
pub fn failures_section(rows: &[SummaryRow], given_up: &[String]) -> String {
    let lines = super::failures::lines(rows);
    let bare = super::failures::without_figures(rows);
    let share = 100.0 * crate::harness::record::STANDING_SHARE;
    let mut s = String::new();
    if !lines.is_empty() || !given_up.is_empty() {
        let _ = write!(
            s,
            "\n## Failures\n\n**{}.** A contender's figures count only its verified puzzles; under {share:.0}% verified it has none.\n\n",
            super::failures::headline(rows)
        );
        for why in given_up {
            let _ = writeln!(s, "- **{why}.**");
        }
        for l in lines {
            let _ = writeln!(s, "- {l}");
        }
    }
    if !bare.is_empty() {
        let _ = write!(
            s,
            "\n## Without figures\n\nThese answered nothing wrong and never failed, but were verified on under {share:.0}% of their puzzles (the rest stopped by a node budget or time limit), so they have no time, speed or interval:\n\n"
        );
        for l in bare {
            let _ = writeln!(s, "- {l}");
        }
    }
    s
}

/// `summary.md`: the run's metadata and the summary table.
pub struct SummaryMarkdown;

impl Exporter for SummaryMarkdown {
    fn file_name(&self) -> &'static str {
        files::SUMMARY_MD
    }

    fn render(&self, run: &RunReport) -> io::Result<Vec<u8>> {
        let i = &run.info;
        let mut s = String::from("# sudoku-bench run\n\n");
        s.push_str(&run_lines(i));
        s.push_str(&failures_section(&run.summary, &i.given_up));
        let counted_run = i.options.measure.metric() == Measure::Instructions;
        let mut parts = if counted_run {
            counted_sentences(&run.summary)
        } else {
            sentences(&run.summary)
        };
        parts.extend(run_notes(&run.summary, i.pipe_floor_ns));
        parts.extend(i.fewer_rounds());
        if !parts.is_empty() {
            s.push('\n');
            for line in parts {
                let _ = writeln!(s, "- {line}");
            }
        }
        let counted = instructions_matrix(&run.summary, usize::MAX);
        if !counted.is_empty() {
            s.push_str("\n## Instructions per puzzle\n\n");
            s.push_str("Counted by valgrind's callgrind around each call (the C allocator's own instructions left out): the same on every run of this build, on any machine.\n\n```text\n");
            s.push_str(&counted);
            s.push_str("```\n");
        }
        if let Measure::Counters(events) = i.options.measure {
            let counted = counter_matrices(&run.summary, usize::MAX, events);
            if !counted.is_empty() {
                let head = COUNTERS_HEAD;
                let _ = write!(
                    s,
                    "\n## The CPU's counters\n\n{head}\n\n```text\n{counted}```\n"
                );
            }
        }
        s.push_str("\n## Summary\n\n");
        if counted_run {
            // Valgrind's clock ranks nothing: the counts above do.
            s.push_str("Under valgrind: the verdicts are the run's, the times (puzzles/s and µs) are valgrind's and left out; the instructions above are what was measured.\n\n");
        }
        s.push_str(&summary_table_of(&run.summary, counted_run));
        let relative = if counted_run {
            String::new()
        } else {
            relative_table(&run.summary)
        };
        if !relative.is_empty() {
            s.push_str("\n## Relative speed\n\n");
            s.push_str(&relative);
            let _ = writeln!(
                s,
                "\n{RELATIVE_NOTE} {}",
                interval_note(&run.summary, i.rounds_complete, i.options.rounds)
            );
        }
        if !i.skipped.is_empty() {
            s.push_str("\nNot run (size not handled):\n\n");
            for k in &i.skipped {
                let _ = writeln!(s, "- {k}");
            }
        }
        s.push_str("\n## Datasets\n\n");
        s.push_str(&datasets_table(i));
        Ok(s.into_bytes())
    }
}

/// `summary.md`'s opening lines: when the run started and ended (or what it
/// lacks), its label, build, machine and options.
fn run_lines(i: &crate::harness::RunInfo) -> String {
    let mut s = String::new();
    if i.incomplete.is_empty() {
        let _ = writeln!(
            s,
            "- started {}, finished {}{}{}",
            i.started,
            i.finished,
            if i.interrupted { " (interrupted)" } else { "" },
            match i.resumed {
                0 => String::new(),
                n => format!(", resumed {n}× after it was cut short"),
            }
        );
    } else {
        let _ = writeln!(
            s,
            "- started {}, **cut short**: killed before it ended; this summary is made from the rows it wrote. It lacks:",
            i.started
        );
        for l in &i.incomplete {
            let _ = writeln!(s, "  - {l}");
        }
    }
    if let Some(label) = &i.options.label {
        let _ = writeln!(s, "- label: **{label}**");
    }
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
    let _ = writeln!(s, "- {}", i.options.describe());
    s
}

/// `summary.md`'s table of datasets: size, puzzles run, source, checksum.
fn datasets_table(i: &crate::harness::RunInfo) -> String {
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
    table(
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
    )
}
