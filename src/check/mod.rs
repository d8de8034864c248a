//! `contender check`: the protocol against a few known puzzles, one at a time,
//! saying what is wrong with a program's answers or framing.

use crate::contender::{Checked, Reference, Verdict};
use crate::external::process::{Process, ReadError};
use crate::external::{self, protocol, ContenderError, ContenderSpec};
use crate::format::Alphabet;
use crate::grid::{Geometry, Grid};
use crate::solver::{Mode, Status};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

mod cases;
mod report;

use cases::{cases, count, pencilmark_cases, Case};
pub use report::{CheckReport, Finding};

/// What `contender check` is asked to check.
pub struct Request {
    /// A shared library, `PATH:SYMBOL:ABI`, checked instead of a program.
    pub library: Option<String>,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The sides checked (none: [`crate::external::DEFAULT_SIZES`] for a
    /// program, the library's own for a library).
    pub sizes: Vec<usize>,
    /// It takes pencilmark lines too.
    pub pencilmark: bool,
    /// It answers verdicts without solutions.
    pub no_solutions: bool,
    /// How long each answer may take.
    pub timeout: Duration,
}

/// Why a check could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The contender cannot be started or named.
    #[error(transparent)]
    Contender(#[from] ContenderError),
    /// The folder for its stderr, or the log in it, cannot be made.
    #[error("cannot create {}: {source}", path.display())]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Runs the check asked for, its stderr kept in a private folder while it
/// runs; gives what it found in words (see [`CheckReport::text`], with the
/// declaration `bench` takes for the sizes that passed) and the exit code
/// (1 on a problem).
pub fn run(r: &Request) -> Result<(String, u8), CheckError> {
    let dir = crate::hygiene::private_folder("sudoku-bench-check")
        .map_err(|(path, source)| CheckError::Folder { path, source })?;
    // Removed by an exit through a signal as well as when `dir` drops.
    let _removal = crate::hygiene::remove_on_exit(dir.path());
    let path = dir.path().join("stderr.log");
    let log = external::stderr::Log::create(&path)
        .map_err(|source| CheckError::Folder { path, source })?;
    let report = match &r.library {
        Some(lib) => {
            let mut spec = external::parse_library_argument(&format!("checked={lib}"))?;
            spec.sizes.clone_from(&r.sizes);
            spec.pencilmark = r.pencilmark.then_some(true);
            spec.solutions = r.no_solutions.then_some(false);
            check_library(&spec, r.timeout, &log)?
        }
        None => {
            let sizes = match r.sizes.is_empty() {
                true => external::DEFAULT_SIZES,
                false => &r.sizes,
            };
            let checked = match r.no_solutions {
                true => Checked::Verdict,
                false => Checked::Solution,
            };
            check(&r.command, sizes, r.pencilmark, checked, r.timeout, &log)?
        }
    };
    let tail = log.last_lines();
    drop(dir);
    // What `bench` would be given, named NAME, to declare the sizes found.
    let named = match &r.library {
        Some(lib) => external::parse_library_argument(&format!("NAME={lib}"))?,
        None => ContenderSpec::program("NAME", r.command.clone()),
    };
    let declare = |sides: &[usize]| {
        format!(
            "`bench {}`, or `{}` in its contenders-file entry",
            named.sized_flag(sides),
            ContenderSpec::sizes_line(sides)
        )
    };
    let code = u8::from(report.problems() > 0);
    Ok((report.text(&tail, &declare), code))
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
    log: &external::stderr::Log,
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
    log: &external::stderr::Log,
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
    finish(p, keys, opts.who, &mut report);
    Ok(report)
}

/// What counters the program reported, and whether it exits when its
/// stdin closes with nothing more on its stdout; `who` answered (a
/// library's host ends as a program does, and is said as itself).
fn finish(p: Process, keys: (bool, bool, bool), who: &str, report: &mut CheckReport) {
    let counted: Vec<&str> = [(keys.0, "nodes"), (keys.1, "guesses"), (keys.2, "ns")]
        .iter()
        .filter(|k| k.0)
        .map(|k| k.1)
        .collect();
    report.ok(if counted.is_empty() {
        let results = crate::files::RESULTS_CSV;
        format!("reports no counters (nodes, guesses and ns stay empty in {results})")
    } else {
        format!("reports {}", counted.join(", "))
    });
    match p.finish(Duration::from_secs(2)) {
        Ok(extra) if extra.is_empty() => report.ok(match who {
            "the program" => "exited when stdin closed".into(),
            host => format!("{host} ended cleanly when the check was done"),
        }),
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
                // A known puzzle `band` settles in microseconds, given the
                // whole time limit: one never answered is no answer.
                Verdict::Right(s @ (Status::Budget | Status::Cancelled)) => report.fail(format!(
                    "{name}: answered `{s}` (gave up) in {:.1} ms, given {:?}: a solver must answer a puzzle this small",
                    took.as_secs_f64() * 1e3,
                    opts.timeout
                )),
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
