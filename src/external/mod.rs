//! Outside programs as contenders, over the line protocol (see the README).
//!
//! A [`Program`] keeps one process per worker thread for the whole run, writes
//! it one puzzle at a time, and times each answer from just before the
//! puzzle's line is written to the moment the answer is read.

pub mod check;
pub mod process;
pub mod protocol;

use crate::contender::{Contender, Engine, Job, Origin, Solved};
use crate::format::Alphabet;
use crate::solver::{Mode, Status};
use process::{Process, ReadError};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An outside contender as the user described it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContenderSpec {
    /// Its name in tables and charts.
    pub name: String,
    /// The program and its arguments (run without a shell).
    pub command: Vec<String>,
    /// Grid sides it handles (default 4, 9, 16, 25; up to 64 when named).
    #[serde(default = "all_sizes")]
    pub sizes: Vec<usize>,
    /// One line on what it is.
    #[serde(default)]
    pub description: String,
    /// It reads pencilmark lines (`n³` characters); datasets with pencilmark
    /// puzzles are skipped for it otherwise.
    #[serde(default)]
    pub pencilmark: bool,
}

fn all_sizes() -> Vec<usize> {
    DEFAULT_SIZES.to_vec()
}

/// The sides an outside program is sent unless it names its own: the classic
/// ones, which every one-character line holds (36 and up are asked for by name).
pub const DEFAULT_SIZES: &[usize] = &[4, 9, 16, 25];

/// Why a contender cannot take part.
#[derive(Debug, thiserror::Error)]
pub enum ContenderError {
    /// `--contender` was not `NAME=COMMAND`.
    #[error("--contender {0:?}: {1}")]
    BadArgument(String, String),
    /// The contenders file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The contenders file is not valid.
    #[error("{}:{line}:{column}: {message}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What was expected.
        message: String,
    },
    /// The program could not be started.
    #[error("contender {name}: cannot start {command:?}")]
    CannotStart {
        /// The contender.
        name: String,
        /// The program.
        command: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
}

/// Checks a contender's name and sizes; `Err` says what is wrong.
fn validate(spec: &ContenderSpec) -> Result<(), String> {
    let ok = |c: char| c.is_ascii_alphanumeric() || "-_.+".contains(c);
    if spec.name.is_empty() || !spec.name.chars().all(ok) || spec.name.starts_with('.') {
        return Err(format!(
            "the name {:?} should be letters, digits, and - _ . + (it names a log file)",
            spec.name
        ));
    }
    if crate::solver::SolverId::from_name(&spec.name).is_some() {
        return Err(format!(
            "{:?} is the name of a built-in strategy",
            spec.name
        ));
    }
    if spec.command.is_empty() || spec.command[0].is_empty() {
        return Err("the command is empty".into());
    }
    if let Some(s) = spec
        .sizes
        .iter()
        .find(|s| !crate::solver::ALL_SIZES.contains(s))
    {
        return Err(format!(
            "size {s} is not one of {}",
            crate::grid::SIDES_TEXT
        ));
    }
    if spec.sizes.is_empty() {
        return Err("sizes is empty".into());
    }
    Ok(())
}

/// Reads `NAME=COMMAND`: the command is split into words as a shell would
/// (quotes and backslashes), then run without one.
pub fn parse_argument(arg: &str) -> Result<ContenderSpec, ContenderError> {
    let bad = |why: String| ContenderError::BadArgument(arg.to_string(), why);
    let (name, command) = arg
        .split_once('=')
        .ok_or_else(|| bad("expected NAME=COMMAND, like jcz=./jcz --quiet".into()))?;
    let words = shlex::split(command)
        .ok_or_else(|| bad("the command has an unclosed quote or a trailing backslash".into()))?;
    let spec = ContenderSpec {
        name: name.trim().to_string(),
        command: words,
        sizes: all_sizes(),
        description: String::new(),
        pencilmark: false,
    };
    validate(&spec).map_err(bad)?;
    Ok(spec)
}

/// Reads a contenders file: `[[contender]]` tables with `name`, `command` (a
/// list of words), and optional `sizes` and `description`.
pub fn load_file(path: &Path) -> Result<Vec<ContenderSpec>, ContenderError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct File {
        #[serde(default)]
        contender: Vec<ContenderSpec>,
    }
    let text = std::fs::read_to_string(path).map_err(|source| ContenderError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let at = |offset: usize, message: String| {
        let before = &text[..offset.min(text.len())];
        ContenderError::File {
            path: path.to_path_buf(),
            line: before.matches('\n').count() + 1,
            column: before.chars().rev().take_while(|&c| c != '\n').count() + 1,
            message,
        }
    };
    let file: File = toml::from_str(&text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        at(offset, e.message().to_string())
    })?;
    if file.contender.is_empty() {
        return Err(at(
            0,
            "no contenders: expected [[contender]] tables with name and command".into(),
        ));
    }
    for spec in &file.contender {
        validate(spec).map_err(|why| {
            let offset = text.find(&format!("\"{}\"", spec.name)).unwrap_or(0);
            at(offset, format!("contender {}: {why}", spec.name))
        })?;
    }
    Ok(file.contender)
}

/// Worker threads for a run with outside programs when none are asked for:
/// half the cores, since each worker waits awake for its program's answer and
/// the two need a core each.
pub fn default_threads(cores: usize) -> usize {
    (cores / 2).max(1)
}

/// True when `threads` workers and their programs outnumber `cores`: an awake
/// worker would then take the core its program needs.
pub fn crowded(threads: usize, cores: usize) -> bool {
    2 * threads > cores
}

/// Crashes a contender may have in one run before its remaining puzzles are
/// given up as `error` rows.
pub const MAX_RESTARTS: u32 = 5;

/// A contender program at run time: its idle processes (one per worker that
/// has used it), its stderr log, and how often it had to be restarted.
pub struct Program {
    /// What the user asked for.
    pub spec: ContenderSpec,
    log: Option<PathBuf>,
    idle: Mutex<Vec<Process>>,
    crashes: AtomicU32,
    gave_up: Mutex<Option<String>>,
    /// True when the run's workers and programs outnumber the cores: readers sleep.
    crowded: AtomicBool,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program").field("spec", &self.spec).finish()
    }
}

impl Program {
    /// A program whose processes write their stderr to `log_dir/NAME.stderr.log`
    /// (the folder is created), or nowhere.
    pub fn new(spec: ContenderSpec, log_dir: Option<&Path>) -> std::io::Result<Program> {
        let log = match log_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir)?;
                let path = dir.join(format!("{}.stderr.log", spec.name));
                std::fs::File::create(&path)?;
                Some(path)
            }
            None => None,
        };
        Ok(Program {
            spec,
            log,
            idle: Mutex::new(Vec::new()),
            crashes: AtomicU32::new(0),
            gave_up: Mutex::new(None),
            crowded: AtomicBool::new(false),
        })
    }

    /// The stderr log, if any.
    pub fn log(&self) -> Option<&Path> {
        self.log.as_deref()
    }

    fn spawn(&self, mode: Mode) -> Result<Process, ContenderError> {
        let mut p = Process::spawn(
            &self.spec.command,
            mode,
            self.spec.pencilmark,
            self.log.as_deref(),
        )
        .map_err(|source| ContenderError::CannotStart {
            name: self.spec.name.clone(),
            command: self.spec.command.join(" "),
            source,
        })?;
        if self.crowded.load(Ordering::Relaxed) {
            p.sleep_when_idle();
        }
        Ok(p)
    }

    /// Starts `n` processes ahead of a run, so a command that cannot start is
    /// an error before anything is measured. With more than half the cores as
    /// workers, their reads sleep instead of staying awake for the answer (an
    /// awake reader would take the core its program needs).
    pub fn start(&self, n: usize, mode: Mode) -> Result<(), ContenderError> {
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        self.crowded.store(crowded(n, cores), Ordering::Relaxed);
        let mut started = Vec::new();
        for _ in 0..n.max(1) {
            started.push(self.spawn(mode)?);
        }
        self.idle
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(started);
        Ok(())
    }

    /// Closes every idle process's stdin and waits a moment for it to exit
    /// (then kills it): the end of a run.
    pub fn shutdown(&self) {
        let idle = std::mem::take(&mut *self.idle.lock().unwrap_or_else(|e| e.into_inner()));
        for p in idle {
            p.close(Duration::from_millis(500));
        }
    }

    fn take(&self, mode: Mode) -> Result<Process, String> {
        if let Some(msg) = &*self.gave_up.lock().unwrap_or_else(|e| e.into_inner()) {
            return Err(msg.clone());
        }
        let found = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            let at = idle.iter().position(|p| p.mode == mode);
            at.map(|i| idle.swap_remove(i))
        };
        match found {
            Some(p) => Ok(p),
            None => self.spawn(mode).map_err(|e| e.to_string()),
        }
    }

    fn put_back(&self, p: Process) {
        if p.drained() {
            self.idle.lock().unwrap_or_else(|e| e.into_inner()).push(p);
        }
    }

    /// Forgets the crashes so far (those of the warm-up, which has no rows).
    pub fn forgive(&self) {
        self.crashes.store(0, Ordering::Relaxed);
        *self.gave_up.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// Counts a crash; past [`MAX_RESTARTS`], gives the contender up.
    fn crashed(&self, why: &str) {
        let n = self.crashes.fetch_add(1, Ordering::Relaxed) + 1;
        if n > MAX_RESTARTS {
            let mut gave_up = self.gave_up.lock().unwrap_or_else(|e| e.into_inner());
            gave_up.get_or_insert(format!(
                "not run: the program failed {n} times, and is not restarted after {MAX_RESTARTS} (last: {why})"
            ));
        }
    }

    /// This program as a contender of a run.
    pub fn contender(self: Arc<Self>) -> Contender {
        Contender {
            strategy: "external".to_string(),
            variant: self.spec.name.clone(),
            default_budget: None,
            sizes: self.spec.sizes.clone(),
            pencilmark: self.spec.pencilmark,
            origin: Origin::External,
            // Whatever the program reports (nothing, when it says nothing).
            counts: true,
            engine: self,
        }
    }
}

impl Engine for Program {
    /// Calls `done` for each puzzle as its answer arrives. One puzzle is in
    /// flight at a time: the next is written only after the last answer was
    /// read, and each is timed from just before its line is written to the
    /// moment its answer is read, so no row carries another puzzle's work or wait.
    fn work(
        &self,
        job: &Job<'_>,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        let Some(first) = job.puzzles.first() else {
            return;
        };
        let alphabet = Alphabet::default_for(first.grid.geometry());
        // A puzzle whose line could not be written: it goes to a restarted program.
        let mut resend: Option<usize> = None;
        let mut out: Vec<u8> = Vec::new();
        let mut proc: Option<Process> = None;
        let failed = |msg: &str, at: Instant| Solved::failed(msg.to_string(), 0, at);
        while let Some(slot) = resend.take().or_else(&mut *next) {
            let p = match proc.as_mut() {
                Some(p) => p,
                None => match self.take(job.mode) {
                    Ok(p) => proc.insert(p),
                    Err(msg) => {
                        // Given up: this puzzle and every one this worker would get is an error row.
                        let now = Instant::now();
                        done(slot, failed(&msg, now));
                        while let Some(slot) = next() {
                            done(slot, failed(&msg, now));
                        }
                        return;
                    }
                },
            };
            let grid = &job.puzzles[slot].grid;
            if grid.is_pencilmark() && !self.spec.pencilmark {
                // A dataset with pencilmarks is skipped for it; this is a safeguard.
                done(slot, failed(protocol::NO_PENCILMARKS, Instant::now()));
                continue;
            }
            out.clear();
            protocol::puzzle_line(&mut out, grid, &alphabet);
            let start = Instant::now();
            if p.send(&out).is_err() {
                // The program is gone (it ended after its last answer): a new one gets this puzzle.
                let why = proc.take().expect("running").ended();
                self.crashed(&why);
                resend = Some(slot);
                continue;
            }
            let deadline = job.time_limit.map(|t| start + t);
            let read = p.read_line(deadline, job.cancel);
            let now = Instant::now();
            let ns = (now - start).as_nanos() as u64;
            let ended = match read {
                Ok(line) => {
                    let puzzle = &job.puzzles[slot].grid;
                    let solved = match protocol::parse_answer(line, puzzle, &alphabet) {
                        Ok(a) => Solved {
                            result: Ok(a.outcome),
                            ns,
                            nodes: a.nodes,
                            guesses: a.guesses,
                            own_ns: a.ns,
                            at: now,
                        },
                        Err(why) => Solved::failed(why, ns, now),
                    };
                    done(slot, solved);
                    continue;
                }
                Err(ReadError::Timeout) => {
                    let _ = proc.take().expect("running").kill();
                    done(slot, Solved::stopped(Status::Budget, ns, now));
                    None
                }
                Err(ReadError::Cancelled) => {
                    done(slot, Solved::stopped(Status::Cancelled, 0, now));
                    return; // the process is killed as it drops
                }
                Err(ReadError::TooLong) => {
                    let why = proc.take().expect("running").kill();
                    Some(format!(
                        "the answer line ran past {} KiB without a line end; killed ({why})",
                        protocol::MAX_ANSWER_BYTES / 1024
                    ))
                }
                Err(ReadError::Closed) => Some(format!(
                    "the program ended before answering: {}",
                    proc.take().expect("running").ended()
                )),
                Err(ReadError::Io(e)) => {
                    let why = proc.take().expect("running").kill();
                    Some(format!("reading its answer failed: {e} ({why})"))
                }
            };
            if let Some(why) = ended {
                done(slot, Solved::failed(why.clone(), ns, now));
                self.crashed(&why);
            }
        }
        if let Some(p) = proc {
            self.put_back(p);
        }
    }

    fn warmed_up(&self) {
        self.forgive();
    }

    fn finish(&self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests;
