//! What a check found: each finding, fine or not, and the verdict in words,
//! with the declaration of the sizes that passed.

/// One finding: fine or not, and what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// True when this part of the protocol was followed.
    pub ok: bool,
    /// What was checked and seen.
    pub text: String,
}

/// Every finding of a check, in order.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// The findings.
    pub findings: Vec<Finding>,
    /// Each size checked, and whether all its puzzles were answered right.
    pub sides: Vec<(usize, bool)>,
}

impl CheckReport {
    pub(super) fn ok(&mut self, text: String) {
        self.findings.push(Finding { ok: true, text });
    }
    pub(super) fn fail(&mut self, text: String) {
        self.findings.push(Finding { ok: false, text });
    }
    /// How many findings are problems.
    pub fn problems(&self) -> usize {
        self.findings.iter().filter(|f| !f.ok).count()
    }

    /// The findings a line each, what the program last wrote to stderr, and
    /// the verdict: with no problem, ready for `bench` with the declaration
    /// of the sizes checked (`declare` writes the flag and the file's line for
    /// a list of sides); with problems on some sizes only, the declaration of
    /// the sizes that passed, which skips the others; else how many problems.
    pub fn text(&self, stderr_tail: &str, declare: &dyn Fn(&[usize]) -> String) -> String {
        let mut out = String::new();
        for f in &self.findings {
            let mark = if f.ok { "ok  " } else { "FAIL" };
            out += &format!("{mark} {}\n", f.text);
        }
        if !stderr_tail.is_empty() {
            out += &format!("its stderr ended with: {stderr_tail}\n");
        }
        let (passed, failed): (Vec<_>, Vec<_>) = self.sides.iter().partition(|(_, ok)| *ok);
        let passed: Vec<usize> = passed.iter().map(|(s, _)| *s).collect();
        let names = |sides: &[(usize, bool)]| {
            sides
                .iter()
                .map(|(s, _)| format!("{s}x{s}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self.problems() {
            0 => out += &format!("\nno problems: ready for {}\n", declare(&passed)),
            n if !passed.is_empty() && !failed.is_empty() && self.only_on_sides() => {
                out += &format!(
                    "\n{n} problem(s), all on {}; {} passed. To race it on {} alone: {}\n",
                    names(&failed),
                    passed
                        .iter()
                        .map(|s| format!("{s}x{s}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if passed.len() == 1 {
                        "that size"
                    } else {
                        "those sizes"
                    },
                    declare(&passed)
                )
            }
            n => out += &format!("\n{n} problem(s)\n"),
        }
        out
    }

    /// True when every problem was found within a size's puzzles (none in the
    /// start, the counters or the exit).
    fn only_on_sides(&self) -> bool {
        self.findings.iter().filter(|f| !f.ok).all(|f| {
            self.sides
                .iter()
                .any(|(s, _)| f.text.starts_with(&format!("{s}x{s} ")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_marks_each_finding_and_counts_the_problems() {
        let declare = |s: &[usize]| format!("--contender NAME@{s:?}=COMMAND");
        let mut r = CheckReport::default();
        r.ok("started".into());
        r.sides.push((9, true));
        assert!(r
            .text("", &declare)
            .ends_with("ok   started\n\nno problems: ready for --contender NAME@[9]=COMMAND\n"));
        r.fail("no answer".into());
        let text = r.text("boom", &declare);
        assert!(text.contains("FAIL no answer\n"), "{text}");
        assert!(text.contains("its stderr ended with: boom\n"), "{text}");
        assert!(text.ends_with("\n1 problem(s)\n"), "{text}");
    }

    #[test]
    fn problems_on_some_sizes_only_end_with_the_declaration_of_the_others() {
        let declare = |s: &[usize]| format!("--contender NAME@{s:?}=COMMAND");
        let mut r = CheckReport::default();
        r.ok("started".into());
        r.fail("4x4 puzzle with one solution: the program ended".into());
        r.sides.push((4, false));
        r.ok("9x9 puzzle with one solution: unique".into());
        r.sides.push((9, true));
        r.fail("16x16 puzzle with none: wrong".into());
        r.sides.push((16, false));
        let text = r.text("", &declare);
        assert!(
            text.ends_with("2 problem(s), all on 4x4, 16x16; 9x9 passed. To race it on that size alone: --contender NAME@[9]=COMMAND\n"),
            "{text}"
        );
        // A problem outside the sizes (the exit) is no size's: no declaration.
        r.fail("printed 1 line(s) no puzzle asked for".into());
        assert!(r.text("", &declare).ends_with("\n3 problem(s)\n"));
    }
}
