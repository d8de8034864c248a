//! The terminal's compact view of a run: each strategy's speed against each
//! dataset's reference, as a matrix that fits a narrow terminal (the full
//! tables are in `summary.md`), and how a run ended.

use super::cells::{
    compact_summary, counter_matrices, instructions_matrix, speed_matrix, COUNTERS_HEAD,
};
use super::words::{interval_note, run_notes, sentences};
use crate::harness::plan::Measure;

/// Columns the matrix fits in.
pub const WIDTH: usize = 100;

/// Where a command's words go: what it answers on standard output, notes,
/// warnings and its last line on standard error; and its Ctrl-C. The
/// library says; the binary prints.
pub trait Console {
    /// Text for standard output, as it is (no newline added).
    fn out(&mut self, text: &str);
    /// A line for standard error.
    fn err(&mut self, line: &str);
    /// The flag that stops a run after the puzzles in flight (Ctrl-C), one
    /// for the whole process; `message` is said when it is set.
    fn cancel(&mut self, message: &'static str) -> std::sync::Arc<std::sync::atomic::AtomicBool>;
}

/// `text` broken at spaces into lines of at most `width` columns (a word
/// longer than that stands on its own line).
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let n = word.chars().count();
        if line > 0 && line + 1 + n > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
}

/// A run's answer on the terminal, in [`WIDTH`] columns: the speeds against
/// each dataset's reference (or, with nothing compared, the compact
/// summary), the sentences, what the intervals cover, the run's notes, and
/// where the full tables are.
pub fn answer(report: &super::RunReport, summary_md: &std::path::Path) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let matrix = speed_matrix(&report.summary, WIDTH);
    let counted = instructions_matrix(&report.summary, WIDTH);
    if !counted.is_empty() {
        let head = "Instructions per puzzle, counted by callgrind (the same on every run of this build; the times are valgrind's, not this machine's):";
        out.push_str(&wrap(head, WIDTH));
        out.push_str("\n\n");
        out.push_str(&counted);
        out.push('\n');
    } else if matrix.is_empty() {
        out.push_str(&compact_summary(&report.summary));
    } else {
        let head = "Speed against each dataset's reference (ref; above 1× is faster; n/m: over the n verified of m puzzles; a contender verified on under half shows its failures):";
        out.push_str(&wrap(head, WIDTH));
        out.push_str("\n\n");
        out.push_str(&matrix);
        out.push('\n');
        for line in sentences(&report.summary) {
            let _ = writeln!(out, "{}", wrap(&line.replace('`', ""), WIDTH));
        }
        let rounds = report.info.options.rounds;
        let note = interval_note(&report.summary, report.info.rounds_complete, rounds);
        let _ = writeln!(out, "{}", wrap(&note, WIDTH));
    }
    if let Measure::Counters(events) = report.info.options.measure {
        let counted = counter_matrices(&report.summary, WIDTH, events);
        if !counted.is_empty() {
            let _ = writeln!(out, "\n{}\n\n{counted}", wrap(COUNTERS_HEAD, WIDTH));
        }
    }
    for line in run_notes(&report.summary, report.info.pipe_floor_ns) {
        let _ = writeln!(out, "{}", wrap(&line.replace('`', ""), WIDTH));
    }
    let _ = writeln!(out, "Full tables: {}\n", summary_md.display());
    out
}

/// `text` as a list item (`- `) wrapped to `width` columns, its lines
/// after the first indented under it.
pub fn list_item(text: &str, width: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let body = wrap(&words.join(" "), width.saturating_sub(2));
    if body.is_empty() {
        return "-\n".into();
    }
    body.lines()
        .enumerate()
        .map(|(i, l)| format!("{} {l}\n", if i == 0 { '-' } else { ' ' }))
        .collect()
}

/// How a run or study ended: its exit code and the line that says why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// Every answer right, nothing regressed.
    Passed,
    /// Wrong answers or failed rows (exit 1).
    Failed {
        /// Puzzles answered wrong.
        wrong: u64,
        /// Puzzles a contender failed on (a panic, a crash, no answer).
        errors: u64,
        /// The contenders that failed, each as [`super::failures::names`] says it.
        by: Vec<String>,
        /// The baseline the run also regressed against, where it did: said
        /// on a line of its own (a bug is a regression too).
        regressed: Option<String>,
    },
    /// Stopped by Ctrl-C: what was measured is kept (exit 130).
    Interrupted,
    /// Slower than the baseline it was gated on (exit 1).
    Regressed {
        /// The baseline's name or folder.
        baseline: String,
    },
}

impl Ending {
    /// The ending of a run with these counts: a failure first, then an
    /// interruption, then a regression.
    pub fn of(wrong: u64, errors: u64, interrupted: bool, regressed: Option<&str>) -> Ending {
        match (wrong + errors > 0, interrupted, regressed) {
            (true, _, _) => Ending::Failed {
                wrong,
                errors,
                by: Vec::new(),
                regressed: regressed.map(str::to_string),
            },
            (_, true, _) => Ending::Interrupted,
            (_, _, Some(b)) => Ending::Regressed {
                baseline: b.to_string(),
            },
            _ => Ending::Passed,
        }
    }

    /// The same ending, naming the contenders that failed.
    pub fn by(self, names: Vec<String>) -> Ending {
        match self {
            Ending::Failed {
                wrong,
                errors,
                regressed,
                ..
            } => Ending::Failed {
                wrong,
                errors,
                by: names,
                regressed,
            },
            other => other,
        }
    }

    /// The process's exit code: 0, 1 or 130.
    pub fn code(&self) -> u8 {
        match self {
            Ending::Passed => 0,
            Ending::Failed { .. } | Ending::Regressed { .. } => 1,
            Ending::Interrupted => 130,
        }
    }

    /// The last line for stderr, naming the file that holds the rows
    /// (none when the run passed).
    pub fn line(&self, rows: &std::path::Path) -> Option<String> {
        let path = rows;
        let rows = rows.display();
        Some(match self {
            Ending::Passed => return None,
            Ending::Failed {
                wrong,
                errors,
                by,
                regressed,
            } => {
                let failed = format!(
                    "FAILED: {wrong} puzzles answered wrong and {errors} failed{} (rows with status wrong/error in {rows})",
                    if by.is_empty() {
                        String::new()
                    } else {
                        format!(", by {}", by.join("; "))
                    }
                );
                match regressed {
                    Some(b) => format!("{failed}\n{}", regressed_line(b, path)),
                    None => failed,
                }
            }
            Ending::Interrupted => {
                let dir = path.parent().unwrap_or(path).display();
                format!("interrupted: {rows} keeps every puzzle measured so far; `sudoku-bench bench --resume {dir}` measures the rest")
            }
            Ending::Regressed { baseline } => regressed_line(baseline, path),
        })
    }
}

/// `REGRESSED against baseline main: see …/compare/compare.md`, named by
/// path: with --quiet no comparison was printed above.
fn regressed_line(baseline: &str, rows: &std::path::Path) -> String {
    format!(
        "REGRESSED against baseline {baseline}: see {}",
        rows.with_file_name(crate::harness::files::COMPARE)
            .join(crate::harness::files::COMPARE_MD)
            .display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::cells::speed_matrix;
    use crate::harness::SummaryRow;

    fn row(variant: &str, dataset: &str, reference: &str, speed: Option<f64>) -> SummaryRow {
        SummaryRow {
            strategy: variant.into(),
            variant: variant.into(),
            dataset: dataset.into(),
            reference: reference.into(),
            speed,
            puzzles: 10,
            solved: 10,
            origin: if variant == "sat" {
                "reference".into()
            } else {
                "built-in".into()
            },
            ..SummaryRow::default()
        }
    }

    #[test]
    fn the_matrix_fits_its_width_and_marks_the_reference() {
        let sets: Vec<String> = (0..9).map(|i| format!("dataset-number-{i}")).collect();
        let mut rows = Vec::new();
        for d in &sets {
            rows.push(row("band", d, "band", Some(1.0)));
            rows.push(row("bitset-mrv", d, "band", Some(0.52)));
            rows.push(row("sat", d, "band", Some(1.0 / 770.0)));
        }
        let m = speed_matrix(&rows, WIDTH);
        assert!(m.lines().all(|l| l.chars().count() <= WIDTH), "{m}");
        // Nine wide columns do not fit in one block: the rest go below.
        assert!(m.matches("speed ").count() >= 2, "{m}");
        for d in &sets {
            assert_eq!(m.matches(d.as_str()).count(), 1, "{d} once: {m}");
        }
        let band = m.lines().find(|l| l.starts_with("band")).unwrap();
        assert!(band.contains("ref") && !band.contains('×'), "{band}");
        assert!(m.contains("sat (reference)") && m.contains("1/770×"), "{m}");
        assert!(m.contains("0.52×"));
        // A strategy that did not run on a dataset, and a run with nothing compared.
        let mut two = vec![
            row("band", "a", "band", Some(1.0)),
            row("dlx", "a", "band", Some(0.3)),
        ];
        two.push(row("dlx", "b", "", None));
        let m = speed_matrix(&two, WIDTH);
        let band = m.lines().find(|l| l.starts_with("band")).unwrap();
        assert!(band.trim_end().ends_with('-'), "{m}");
        assert_eq!(speed_matrix(&[row("dlx", "a", "", None)], WIDTH), "");
    }

    #[test]
    fn wrapping_keeps_words_whole_and_lines_short() {
        let text = "band is 1.85× faster than bitset-mrv on easy-9x9 (95% CI 1.77×–1.93×, faster on 100% of puzzles).";
        let w = wrap(text, 40);
        assert!(w.lines().all(|l| l.chars().count() <= 40), "{w}");
        assert_eq!(w.replace('\n', " "), text);
        assert_eq!(wrap("a-very-long-word b", 5), "a-very-long-word\nb");
    }

    #[test]
    fn a_list_item_hangs_its_lines_under_the_dash() {
        let item = list_item("one two three four\nfive", 12);
        assert_eq!(item, "- one two\n  three four\n  five\n");
        assert!(item.lines().all(|l| l.chars().count() <= 12));
        assert_eq!(list_item("", 12), "-\n");
    }

    #[test]
    fn a_failure_outranks_an_interruption_and_is_said_with_a_regression() {
        let rows = std::path::Path::new("r/results.csv");
        let failed = Ending::of(2, 1, true, Some("main"));
        assert_eq!(
            failed,
            Ending::Failed {
                wrong: 2,
                errors: 1,
                by: Vec::new(),
                regressed: Some("main".into()),
            }
        );
        // Both said: the failure, and the regression on a line of its own.
        let both = failed.line(rows).unwrap();
        assert_eq!(both.lines().count(), 2, "{both}");
        assert!(both
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("REGRESSED against baseline main"));
        let named = failed.clone().by(vec!["mine (1 errors)".into()]);
        assert!(named
            .line(rows)
            .unwrap()
            .contains("1 failed, by mine (1 errors) (rows"));
        assert_eq!(failed.code(), 1);
        assert!(failed
            .line(rows)
            .unwrap()
            .contains("2 puzzles answered wrong and 1"));
        let cut = Ending::of(0, 0, true, Some("main"));
        assert_eq!((cut.code(), cut.clone()), (130, Ending::Interrupted));
        let line = cut.line(rows).unwrap();
        assert!(line.contains("r/results.csv keeps"), "{line}");
        assert!(
            line.contains("bench --resume r` measures the rest"),
            "{line}"
        );
        let slower = Ending::of(0, 0, false, Some("main"));
        assert_eq!(slower.code(), 1);
        let line = slower.line(rows).unwrap();
        assert!(
            line.contains("baseline main: see r/compare/compare.md"),
            "{line}"
        );
        assert_eq!(Ending::of(0, 0, false, None).line(rows), None);
        assert_eq!(Ending::Passed.code(), 0);
    }
}
