//! `contender check`: the protocol against a few known puzzles, one at a time,
//! saying what is wrong with a program's answers or framing.

use crate::contender::{BenchPuzzle, Checked, Reference, Verdict};
use crate::external::process::{Process, ReadError};
use crate::external::{protocol, ContenderError};
use crate::format::Alphabet;
use crate::grid::{Geometry, Grid};
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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
    fn ok(&mut self, text: String) {
        self.findings.push(Finding { ok: true, text });
    }
    fn fail(&mut self, text: String) {
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

/// A reference puzzle and what a correct answer says (mode `unique`).
struct Case {
    what: &'static str,
    puzzle: BenchPuzzle,
}

/// Reference puzzles of a size: its embedded set, or (49×49, which has none)
/// two seeded unique puzzles with three quarters of the cells given.
fn candidates(side: usize) -> Vec<Grid> {
    let name = match side {
        4 => "set-4x4",
        16 => "set-16x16",
        25 => "set-25x25",
        36 => "set-36x36",
        64 => "set-64x64",
        9 => "hard-9x9",
        _ => {
            let Some(g) = Geometry::from_side(side) else {
                return Vec::new();
            };
            let opts = crate::generate::GenerateOptions {
                minimal: false,
                min_clues: Some(g.cells() * 3 / 4),
                max_clues: Some(g.cells() * 4 / 5),
                ..crate::generate::GenerateOptions::minimal(g)
            };
            return (0..2)
                .filter_map(|i| crate::generate::generate_indexed(&opts, 1, i).ok())
                .map(|(p, _)| p)
                .collect();
        }
    };
    let set = crate::datasets::embedded(name).expect("embedded set");
    let ds = crate::format::read_str(set.name, set.text, &Default::default())
        .expect("embedded sets parse");
    ds.puzzles.into_iter().map(|p| p.grid).collect()
}

fn count(grid: &Grid, k: u64) -> crate::solver::Outcome {
    SolverId::BitsetMrv.solve(grid, &Limits::new(Mode::Count(k)))
}

/// Two puzzles with one solution from the size's reference puzzles, one with
/// several (cells of a solution blanked until a second solution appears) and
/// one with none (a first puzzle with one empty cell given a digit no solution has).
fn cases(side: usize) -> Vec<Case> {
    let mut out = Vec::new();
    let unique: Vec<Grid> = candidates(side)
        .into_iter()
        .filter(|g| count(g, 2).status == Status::Unique)
        .take(2)
        .collect();
    let Some(first) = unique.first().cloned() else {
        return out;
    };
    for g in unique {
        let answer = count(&g, 1).solutions.into_iter().next();
        out.push(Case {
            what: "one solution",
            puzzle: BenchPuzzle {
                index: 0,
                grid: g,
                expected: answer,
                invalid: false,
                reference: Default::default(),
            },
        });
    }
    let solution = count(&first, 1).solutions.remove(0);
    let mut several = solution.clone();
    for cell in 0..several.cells().len() {
        several.set(cell, 0);
        if cell % 4 == 3 && count(&several, 2).solution_count >= 2 {
            out.push(Case {
                what: "several solutions",
                puzzle: BenchPuzzle {
                    index: 0,
                    grid: several,
                    expected: None,
                    invalid: false,
                    reference: Default::default(),
                },
            });
            break;
        }
    }
    let g = first.geometry();
    'cells: for cell in (0..g.cells()).filter(|&c| first.get(c) == 0) {
        for d in 1..=g.side() as u8 {
            let mut trial = first.clone();
            trial.set(cell, d);
            if d != solution.get(cell)
                && crate::validate::find_conflict(&trial).is_none()
                && count(&trial, 1).status == Status::None
            {
                out.push(Case {
                    what: "no solution",
                    puzzle: BenchPuzzle {
                        index: 0,
                        grid: trial,
                        expected: None,
                        invalid: false,
                        reference: Default::default(),
                    },
                });
                break 'cells;
            }
        }
    }
    out
}

/// Pencilmark forms of a size's cases (sides to 25): each one-solution case
/// with a fixed share of its empty cells' wrong candidates excluded (one
/// solution still), the several-solutions case likewise (two of its solutions
/// kept), and the first pencilmark case with its answer excluded from a cell
/// that keeps other candidates (none). Made from the reference puzzles, not from
/// `generate --pencilmark`, whose puzzles can take a search without hidden
/// singles many seconds.
fn pencilmark_cases(plain: &[Case]) -> Vec<Case> {
    let case = |what, grid: Grid, expected| Case {
        what,
        puzzle: BenchPuzzle {
            index: 0,
            grid,
            expected,
            invalid: false,
            reference: Default::default(),
        },
    };
    // `p`'s givens kept; each empty cell keeps the digits of `solutions`
    // there and, of the others, those with (cell + digit) not a multiple of 3.
    let pencilmarks = |p: &Grid, solutions: &[Grid]| {
        let g = p.geometry();
        let marks = (0..g.cells())
            .map(|cell| match p.get(cell) {
                0 => (1..=g.side() as u8)
                    .filter(|&d| {
                        !(cell + d as usize).is_multiple_of(3)
                            || solutions.iter().any(|s| s.get(cell) == d)
                    })
                    .fold(0u64, |m, d| m | 1 << (d - 1)),
                d => 1 << (d - 1),
            })
            .collect();
        crate::format::from_marks(g, marks)
    };
    let mut out = Vec::new();
    for c in plain.iter().filter(|c| c.what == "one solution") {
        let (p, Some(answer)) = (&c.puzzle.grid, &c.puzzle.expected) else {
            continue;
        };
        if p.geometry().side() > 25 {
            return Vec::new();
        }
        let pm = pencilmarks(p, std::slice::from_ref(answer));
        out.push(case("one solution (pencilmarks)", pm, Some(answer.clone())));
    }
    let Some(first) = out.first().map(|c| c.puzzle.clone()) else {
        return out;
    };
    // The plain several-solutions case, keeping two of its solutions.
    let g = first.grid.geometry();
    if let Some(c) = plain.iter().find(|c| c.what == "several solutions") {
        let two = count(&c.puzzle.grid, 2).solutions;
        let several = pencilmarks(&c.puzzle.grid, &two);
        if two.len() == 2 && count(&several, 2).status == Status::Multiple {
            out.push(case("several solutions (pencilmarks)", several, None));
        }
    }
    let answer = first.expected.expect("a one-solution case has its answer");
    let mut marks = first.grid.marks().expect("pencilmarks").to_vec();
    if let Some(cell) = (0..g.cells()).find(|&c| marks[c].count_ones() >= 2) {
        marks[cell] &= !(1 << (answer.get(cell) - 1));
        let none = crate::format::from_marks(g, marks);
        if crate::validate::find_flaw(&none).is_none() && count(&none, 1).status == Status::None {
            out.push(case("no solution (pencilmarks)", none, None));
        }
    }
    out
}

/// Starts `command` in mode `unique` and sends it each size's reference
/// puzzles one at a time (with `pencilmark`, their pencilmark forms too, sides
/// to 25), waiting up to `timeout` for each answer; then closes its stdin
/// and checks that it prints nothing more and exits.
/// `Err` only when the program cannot be started at all.
pub fn check(
    command: &[String],
    sizes: &[usize],
    pencilmark: bool,
    checked: Checked,
    timeout: Duration,
    log: &std::path::Path,
) -> Result<CheckReport, ContenderError> {
    let start = || {
        Process::spawn(command, Mode::Unique, pencilmark, Some(log)).map_err(|source| {
            ContenderError::CannotStart {
                name: "checked".into(),
                command: command.join(" "),
                source,
            }
        })
    };
    let mut report = CheckReport::default();
    let p = start()?;
    report.ok(format!(
        "started {:?} with {}={} and {}=unique{}",
        command.join(" "),
        protocol::PROTOCOL_VAR,
        protocol::PROTOCOL_VERSION,
        protocol::MODE_VAR,
        if pencilmark {
            format!(" and {}=1", protocol::PENCILMARK_VAR)
        } else {
            String::new()
        }
    ));
    let opts = CaseOptions {
        pencilmark,
        checked,
        timeout,
        who: "the program",
    };
    run_cases(p, &start, sizes, &opts, report)
}

/// `contender check` for a library: its host loads it (a file that is no
/// library, a missing symbol or a table of another ABI version is the one
/// finding), then the same puzzles as a program's, sizes as the library says
/// unless `sizes` names some; pencilmarks only where `spec` declares them
/// (see [`crate::external::ContenderSpec::takes_pencilmarks`]).
pub fn check_library(
    spec: &crate::external::ContenderSpec,
    timeout: Duration,
    log: &std::path::Path,
) -> Result<CheckReport, ContenderError> {
    let (Some(library), Some(abi)) = (spec.library.as_deref(), spec.abi) else {
        return Err(ContenderError::Library {
            name: spec.name.clone(),
            message: "not a library contender".into(),
        });
    };
    let symbol = spec.symbol.as_deref().unwrap_or_default();
    let command =
        crate::external::host_command(spec).map_err(|source| ContenderError::CannotStart {
            name: "checked".into(),
            command: crate::external::library::HOST_COMMAND.into(),
            source,
        })?;
    let start = || {
        let p = Process::spawn(&command, Mode::Unique, true, Some(log)).map_err(|source| {
            ContenderError::CannotStart {
                name: "checked".into(),
                command: command.join(" "),
                source,
            }
        })?;
        crate::external::host_ready(p).map_err(|message| ContenderError::Library {
            name: "checked".into(),
            message,
        })
    };
    let mut report = CheckReport::default();
    let (p, (sides, pencilmark)) = match start() {
        Ok(x) => x,
        Err(ContenderError::Library { message, .. }) => {
            report.fail(message);
            return Ok(report);
        }
        Err(e) => return Err(e),
    };
    report.ok(format!(
        "loaded {symbol} from {} ({} ABI): sizes {}, {}",
        library.display(),
        abi.name(),
        sides
            .iter()
            .map(|s| format!("{s}x{s}"))
            .collect::<Vec<_>>()
            .join(", "),
        if pencilmark {
            "takes pencilmarks"
        } else {
            "no pencilmarks"
        }
    ));
    let sizes: Vec<usize> = if spec.sizes.is_empty() {
        sides
    } else {
        spec.sizes.clone()
    };
    let declared = spec.takes_pencilmarks(Some(pencilmark));
    if pencilmark && !declared {
        report.ok(
            "pencilmarks: not declared, so not sent (`pencilmark = true` in a contenders file, \
             `--pencilmark` here, has them sent and checked)"
                .into(),
        );
    }
    let restart = || start().map(|(p, _)| p);
    let opts = CaseOptions {
        pencilmark: declared,
        checked: spec.checked(),
        timeout,
        who: "the library's host",
    };
    run_cases(p, &restart, &sizes, &opts, report)
}

/// What a check sends and expects.
struct CaseOptions {
    /// Pencilmark forms of the puzzles are sent too.
    pencilmark: bool,
    /// The answers carry solutions, or verdicts alone.
    checked: Checked,
    /// How long each answer may take.
    timeout: Duration,
    /// What answers: the program, or the library's host.
    who: &'static str,
}

/// The reference verdict of a check's puzzle: its solutions counted to two.
fn reference_of(grid: &Grid) -> Reference {
    Reference::Count {
        found: count(grid, 2).solution_count.min(2),
        limit: 2,
    }
}

/// Sends each size's cases to `p` (restarted through `start` after a failure)
/// and checks every answer, then that it exits when its stdin closes.
fn run_cases(
    mut p: Process,
    start: &dyn Fn() -> Result<Process, ContenderError>,
    sizes: &[usize],
    opts: &CaseOptions,
    mut report: CheckReport,
) -> Result<CheckReport, ContenderError> {
    let timeout = opts.timeout;
    let never = AtomicBool::new(false);
    let mut keys = (false, false, false);
    for &side in sizes {
        let before = report.problems();
        let Some(g) = Geometry::from_side(side) else {
            report.fail(format!(
                "size {side} does not exist ({})",
                crate::grid::SIDES_TEXT
            ));
            continue;
        };
        let alphabet = Alphabet::default_for(g);
        let mut all = cases(side);
        if opts.pencilmark {
            let more = pencilmark_cases(&all);
            all.extend(more);
        }
        for mut case in all {
            case.puzzle.reference = reference_of(&case.puzzle.grid);
            let name = format!("{} puzzle with {}", g.name(), case.what);
            let mut line = Vec::new();
            protocol::puzzle_line(&mut line, &case.puzzle.grid, &alphabet);
            if let Err(e) = p.send(&line) {
                report.fail(format!("{name}: could not be written ({e}); restarting it"));
                p = start()?;
                continue;
            }
            let sent = Instant::now();
            match p.read_line(Some(sent + timeout), &never) {
                Ok(text) => {
                    let took = sent.elapsed();
                    judge(
                        text,
                        (&name, &case, &alphabet),
                        took,
                        opts,
                        &mut keys,
                        &mut report,
                    );
                }
                Err(ReadError::Timeout | ReadError::CpuLimit) => {
                    // Perhaps the answer waits in its buffer: closing stdin tells.
                    let late = flushed_only_at_exit(p, timeout);
                    report.fail(match late {
                        Some(text) => format!(
                            "{name}: no answer within {timeout:?}, but {} came when stdin closed: flush stdout after every answer line",
                            protocol::quote(&text)
                        ),
                        None => format!("{name}: no answer within {timeout:?} (the run's --time-limit would count it as budget)"),
                    });
                    p = start()?;
                }
                Err(ReadError::Closed) => {
                    report.fail(format!(
                        "{name}: {} ended without answering ({})",
                        opts.who,
                        p.ended()
                    ));
                    p = start()?;
                }
                Err(ReadError::TooLong) => {
                    report.fail(format!(
                        "{name}: the answer ran past {} KiB without a line end",
                        protocol::MAX_ANSWER_BYTES / 1024
                    ));
                    p = start()?;
                }
                Err(ReadError::Cancelled) | Err(ReadError::Io(_)) => {
                    report.fail(format!("{name}: its stdout could not be read"));
                    p = start()?;
                }
            }
        }
        report.sides.push((side, report.problems() == before));
    }
    finish(p, keys, &mut report);
    Ok(report)
}

/// What counters the program reported, and whether it exits when its
/// stdin closes with nothing more on its stdout.
fn finish(p: Process, keys: (bool, bool, bool), report: &mut CheckReport) {
    let counted: Vec<&str> = [(keys.0, "nodes"), (keys.1, "guesses"), (keys.2, "ns")]
        .iter()
        .filter(|k| k.0)
        .map(|k| k.1)
        .collect();
    report.ok(if counted.is_empty() {
        "reports no counters (nodes, guesses and ns stay empty in results.csv)".into()
    } else {
        format!("reports {}", counted.join(", "))
    });
    match p.finish(Duration::from_secs(2)) {
        Ok(extra) if extra.is_empty() => report.ok("exited when stdin closed".into()),
        Ok(extra) => report.fail(format!(
            "printed {} line(s) no puzzle asked for, first {}: one answer line per puzzle, nothing else on stdout (use stderr for messages)",
            extra.len(),
            protocol::quote(&extra[0])
        )),
        Err(why) => report.fail(why.0),
    }
}

/// Checks one answer line to a case, and notes which counters it gave.
fn judge(
    text: &str,
    (name, case, alphabet): (&str, &Case, &Alphabet),
    took: Duration,
    opts: &CaseOptions,
    keys: &mut (bool, bool, bool),
    report: &mut CheckReport,
) {
    match protocol::parse_answer(text, &case.puzzle.grid, alphabet) {
        Err(why) => report.fail(format!("{name}: {why}")),
        Ok(a) => {
            keys.0 |= a.nodes.is_some();
            keys.1 |= a.guesses.is_some();
            keys.2 |= a.ns.is_some();
            match crate::contender::check(&case.puzzle, &a.outcome, opts.checked) {
                Verdict::Right(s) => report.ok(format!(
                    "{name}: {s} in {:.1} ms{}",
                    took.as_secs_f64() * 1e3,
                    match opts.checked {
                        Checked::Verdict => " (checked by verdict)",
                        Checked::Solution => "",
                    }
                )),
                Verdict::Unchecked(why) => report.fail(format!("{name}: {why}")),
                Verdict::Wrong(why) => report.fail(format!("{name}: wrong: {why}")),
            }
        }
    }
}

/// Closes stdin of a program that did not answer, and returns the first line
/// it prints then (its answer was sitting in an unflushed buffer).
fn flushed_only_at_exit(mut p: Process, wait: Duration) -> Option<String> {
    p.close_stdin();
    let never = AtomicBool::new(false);
    let line = p
        .read_line(
            Some(Instant::now() + wait.min(Duration::from_secs(2))),
            &never,
        )
        .ok()
        .map(str::to_string);
    drop(p);
    line
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
