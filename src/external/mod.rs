//! Outside programs and shared libraries as contenders, over the line
//! protocol (docs/contenders.md).
//!
//! A [`Program`] keeps one process per worker thread for the whole run. In
//! protocol version 1 it writes one puzzle at a time and times each answer from
//! just before the puzzle's line is written to the moment the answer is read;
//! in version 2 (`batch = K`) it writes up to K puzzles before reading their
//! answers and shares out each batch's wall time. A library contender is a
//! program too: the workbench's own host ([`library`]), which times each call
//! itself and says so in `ns=`, the rows' time.

mod feed;
pub mod floor;
pub mod host;
pub mod library;
pub mod process;
pub mod protocol;
pub mod spec;
pub mod stderr;

pub use host::host_command;
pub(crate) use host::host_ready;
pub use spec::{
    load_file, parse_argument, parse_library_argument, specs, ContenderError, ContenderSpec,
    DEFAULT_SIZES, LIBRARY_BATCH, MAX_BATCH,
};

use crate::contender::{Contender, Engine, Job, Origin, Solved, Timing};
use crate::solver::Mode;
use process::Process;
use spec::batch_too_large;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

impl Program {
    /// True when pencilmark puzzles may be sent to it.
    fn takes_pencilmarks(&self) -> bool {
        let host_says = crate::sync::lock(&self.library).as_ref().map(|(_, pm)| *pm);
        self.spec.takes_pencilmarks(host_says)
    }
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

/// Crashes on one grid size, with no answer at all on that size, after which
/// a contender is given up on it: its puzzles left there are `error` rows.
///
/// Longest wait for a started program to settle before its first puzzle is
/// sent: past it, the rest of its start is timed with that puzzle.
pub const READY_CAP: Duration = Duration::from_secs(3);

/// Each crash costs a restart (a few milliseconds for a program or a
/// library's host), so a contender that answers nothing is given up after
/// well under a second. One that answers even a tenth of the puzzles, in any
/// order, crashes on all of its first 50 with a chance of 0.5%; one crash
/// pattern in the puzzles never gives up the rows it can answer.
pub const UNANSWERED_BOUND: u32 = 50;

/// What a contender has done on one grid size: crashes and answers.
#[derive(Clone, Copy, Debug, Default)]
struct Attempts {
    crashes: u32,
    answers: u32,
}

/// Where a contender was given up: on one side, or everywhere.
#[derive(Clone, Debug, Default)]
struct GivenUp {
    /// Sides given up on, each with why.
    sides: Vec<(usize, String)>,
    /// Given up everywhere (`max_crashes` reached), with why.
    all: Option<String>,
}

/// A contender program at run time: its idle processes (one per worker that
/// has used it), its stderr log, and how often it had to be restarted.
pub struct Program {
    /// What the user asked for.
    pub spec: ContenderSpec,
    /// What is run: the command, or for a library the workbench's host.
    command: Vec<String>,
    /// Puzzles written before their answers are read (1: protocol version 1).
    batch: usize,
    /// What its row times stand for.
    timing: Timing,
    /// A library's sides and pencilmarks, as its host said when it started.
    library: Mutex<Option<(Vec<usize>, bool)>>,
    log: Option<stderr::Log>,
    idle: Mutex<Vec<Process>>,
    /// Crashes and answers per grid side.
    attempts: Mutex<Vec<(usize, Attempts)>>,
    /// Crashes over the run, every side.
    crashes: AtomicU32,
    gave_up: Mutex<GivenUp>,
    /// True when the run's workers and programs outnumber the cores: readers sleep.
    crowded: AtomicBool,
    /// CPU time and peak memory of every process it started.
    usage: std::sync::Arc<crate::usage::Usage>,
    /// The memory limit each of its processes runs under (`--memory-limit`).
    memory: Option<std::sync::Arc<crate::usage::MemoryLimit>>,
}

impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program").field("spec", &self.spec).finish()
    }
}

impl Program {
    /// A program whose processes write their stderr to `log_dir/NAME.stderr.log`
    /// (the folder is created; its first and last 64 KiB kept, see
    /// [`stderr::Log`]), or nowhere. A library contender runs the
    /// workbench's own binary as its host.
    pub fn new(spec: ContenderSpec, log_dir: Option<&Path>) -> std::io::Result<Program> {
        let (command, batch, timing) = match (&spec.library, spec.abi) {
            (Some(_), Some(_)) => (host_command(&spec)?, LIBRARY_BATCH, Timing::Call),
            _ => match spec.batch {
                // Checked where it is read; a run.json edited by hand is not.
                Some(k) if k > MAX_BATCH => {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        format!("contender {}: {}", spec.name, batch_too_large(k)),
                    ))
                }
                Some(k) if k > 1 => (spec.command.clone(), k, Timing::Batch),
                _ => (spec.command.clone(), 1, Timing::Pipe),
            },
        };
        let log = match log_dir {
            Some(dir) => {
                crate::files::folder(dir)?;
                let path = dir.join(format!("{}.stderr.log", spec.name));
                Some(stderr::Log::create(&path)?)
            }
            None => None,
        };
        Ok(Program {
            spec,
            command,
            batch,
            timing,
            library: Mutex::new(None),
            log,
            idle: Mutex::new(Vec::new()),
            usage: Default::default(),
            attempts: Mutex::new(Vec::new()),
            crashes: AtomicU32::new(0),
            gave_up: Mutex::new(GivenUp::default()),
            crowded: AtomicBool::new(false),
            memory: None,
        })
    }

    /// The program, each of its processes under `limit` (a fresh process
    /// takes the place of one the limit stopped).
    pub fn with_memory_limit(
        mut self,
        limit: Option<std::sync::Arc<crate::usage::MemoryLimit>>,
    ) -> Program {
        self.memory = limit;
        self
    }

    /// The stderr log, if any.
    pub fn log(&self) -> Option<&Path> {
        self.log.as_ref().map(stderr::Log::path)
    }

    fn spawn(&self, mode: Mode) -> Result<Process, ContenderError> {
        let version = if self.batch > 1 && self.spec.library.is_none() {
            protocol::BATCH_VERSION
        } else {
            protocol::PROTOCOL_VERSION
        };
        let cannot = |source| ContenderError::CannotStart {
            name: self.spec.name.clone(),
            command: self.command.join(" "),
            source,
        };
        let cage = self.memory.as_ref().map(|m| m.cage()).transpose();
        let mut p = Process::spawn_version(
            &self.command,
            mode,
            self.spec.pencilmark == Some(true) || self.spec.library.is_some(),
            self.log.as_ref(),
            version,
            cage.map_err(cannot)?,
        )
        .map_err(|source| ContenderError::CannotStart {
            name: self.spec.name.clone(),
            command: self.command.join(" "),
            source,
        })?;
        if self.spec.library.is_some() {
            let (ready, host_says) = host_ready(p).map_err(|message| ContenderError::Library {
                name: self.spec.name.clone(),
                message,
            })?;
            p = ready;
            *crate::sync::lock(&self.library) = Some(host_says);
        }
        if self.crowded.load(Ordering::Relaxed) {
            p.sleep_when_idle();
        }
        p.count_into(self.usage.clone());
        Ok(p)
    }

    /// Starts `n` processes ahead of a run, so a command that cannot start is
    /// an error before anything is measured. With more than half the cores as
    /// workers, their reads sleep instead of staying awake for the answer (an
    /// awake reader would take the core its program needs).
    pub fn start(&self, n: usize, mode: Mode) -> Result<(), ContenderError> {
        let cores = crate::usage::cores();
        self.crowded.store(crowded(n, cores), Ordering::Relaxed);
        let mut started = Vec::new();
        for _ in 0..n.max(1) {
            started.push(self.spawn(mode)?);
        }
        // They start side by side; each is waited for once.
        for p in &mut started {
            self.settle(p);
        }
        crate::sync::lock(&self.idle).extend(started);
        Ok(())
    }

    /// Closes every idle process's stdin and waits a moment for it to exit
    /// (then kills it): the end of a run.
    pub fn shutdown(&self) {
        let idle = std::mem::take(&mut *crate::sync::lock(&self.idle));
        for p in idle {
            p.close(Duration::from_millis(500));
        }
    }

    fn take(&self, mode: Mode, side: usize, pin: bool) -> Result<Process, String> {
        {
            let gave_up = crate::sync::lock(&self.gave_up);
            if let Some(why) = &gave_up.all {
                return Err(format!("not run: {why}"));
            }
            if let Some((_, why)) = gave_up.sides.iter().find(|(s, _)| *s == side) {
                return Err(format!("not run: {why}"));
            }
        }
        let found = {
            let mut idle = crate::sync::lock(&self.idle);
            let at = idle.iter().position(|p| p.mode == mode);
            at.map(|i| idle.swap_remove(i))
        };
        let mut p = match found {
            Some(p) => p,
            None => {
                let mut p = self.spawn(mode).map_err(|e| e.to_string())?;
                self.settle(&mut p);
                p
            }
        };
        // A worker pinned to one processor (--pin) shares it with its program:
        // every thread of it, and those it starts. Its reads then sleep.
        if let Some(cpu) = pin.then(crate::usage::pinned_cpu).flatten() {
            crate::usage::pin_process(p.id(), cpu);
            p.sleep_when_idle();
        }
        Ok(p)
    }

    /// Waits for a program that was just started to be ready for its first
    /// puzzle ([`Process::wait_ready`], [`READY_CAP`] at most), so that its
    /// start is not timed as that puzzle: after a crash, the puzzle a fresh
    /// process gets would otherwise carry an interpreter's start-up. A
    /// library host has said it is ready already.
    fn settle(&self, p: &mut Process) {
        if self.spec.library.is_none() {
            p.wait_ready(READY_CAP);
        }
    }

    fn put_back(&self, p: Process) {
        if p.drained() {
            crate::sync::lock(&self.idle).push(p);
        }
    }

    /// Forgets the crashes so far (those of the warm-up, which has no rows).
    pub fn forgive(&self) {
        self.crashes.store(0, Ordering::Relaxed);
        crate::sync::lock(&self.attempts).clear();
        *crate::sync::lock(&self.gave_up) = GivenUp::default();
    }

    /// This side's attempts, changed by `f`; returns them after.
    fn attempt(&self, side: usize, f: impl FnOnce(&mut Attempts)) -> Attempts {
        let mut all = crate::sync::lock(&self.attempts);
        let at = match all.iter().position(|(s, _)| *s == side) {
            Some(i) => i,
            None => {
                all.push((side, Attempts::default()));
                all.len() - 1
            }
        };
        f(&mut all[at].1);
        all[at].1
    }

    /// Counts a crash on a puzzle of `side`. Gives the contender up on that
    /// side after [`UNANSWERED_BOUND`] crashes there with no answer at all,
    /// and everywhere at its `max_crashes` over the run.
    fn crashed(&self, why: &str, side: usize) {
        let total = self.crashes.fetch_add(1, Ordering::Relaxed) + 1;
        let here = self.attempt(side, |a| a.crashes += 1);
        let mut gave_up = crate::sync::lock(&self.gave_up);
        let name = &self.spec.name;
        if let Some(max) = self.spec.max_crashes.filter(|&m| total >= m) {
            gave_up.all.get_or_insert(format!(
                "`{name}` was given up after {total} crashes, its max_crashes ({max}; last: {why}): its puzzles left are `error` rows reading \"not run\""
            ));
        } else if here.answers == 0
            && here.crashes >= UNANSWERED_BOUND
            && !gave_up.sides.iter().any(|(s, _)| *s == side)
        {
            gave_up.sides.push((
                side,
                format!(
                    "`{name}` was given up on {side}x{side} puzzles: its first {} calls there all crashed, with no answer (last: {why}); its {side}x{side} puzzles left are `error` rows reading \"not run\"",
                    here.crashes
                ),
            ));
        }
    }

    /// An answer came for a puzzle of `side`.
    fn answered(&self, side: usize) {
        self.attempt(side, |a| a.answers += 1);
    }

    /// Why the contender was given up, where it was.
    pub fn given_up(&self) -> Vec<String> {
        let gave_up = crate::sync::lock(&self.gave_up);
        gave_up
            .sides
            .iter()
            .map(|(_, why)| why.clone())
            .chain(gave_up.all.clone())
            .collect()
    }

    /// This program as a contender of a run (after [`Program::start`], which
    /// learns a library's sizes and pencilmarks from its host).
    pub fn contender(self: Arc<Self>) -> Contender {
        let host_says = crate::sync::lock(&self.library).clone();
        let (sizes, pencilmark) = match host_says {
            Some((sides, pm)) => (
                self.spec
                    .sizes
                    .iter()
                    .copied()
                    .filter(|s| sides.contains(s))
                    .collect(),
                self.spec.takes_pencilmarks(Some(pm)),
            ),
            None => (self.spec.sizes.clone(), self.spec.takes_pencilmarks(None)),
        };
        Contender {
            strategy: if self.spec.library.is_some() {
                "library"
            } else {
                "external"
            }
            .to_string(),
            variant: self.spec.name.clone(),
            default_budget: None,
            sizes,
            pencilmark,
            checked: self.spec.checked(),
            origin: Origin::External,
            timing: self.timing,
            // Whatever the program reports (nothing, when it says nothing).
            counts: true,
            engine: self,
        }
    }
}

impl Engine for Program {
    /// Calls `done` for each puzzle as its answer arrives (a batch's rows once
    /// the batch is answered). With one puzzle in flight (protocol version 1)
    /// each is timed from just before its line is written to the moment its
    /// answer is read, so no row carries another puzzle's work or wait. A
    /// library's host times the call itself (the row's time is its `ns=`)
    /// and writes each answer as its call returns.
    ///
    /// A crash or a hang costs exactly its own puzzle's row: where answers
    /// come one at a time (a program of protocol version 1, a library's
    /// host), the first unanswered puzzle is the one that failed, and the
    /// rest go to a fresh process; a batch program may hold its answers, so
    /// every unanswered puzzle of a failed batch is sent again alone, to a
    /// fresh process, and timed there.
    fn work(
        &self,
        job: &Job<'_>,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        feed::work(self, job, next, done);
    }

    fn warmed_up(&self) {
        self.forgive();
    }

    fn usage(&self) -> Option<crate::contender::Used> {
        // Between passes every process is idle: read each now.
        for p in crate::sync::lock(&self.idle).iter_mut() {
            p.count();
        }
        Some(crate::contender::Used {
            cpu: self.usage.cpu(),
            peak_bytes: self.usage.peak(),
            calls: self.usage.calls(),
        })
    }

    fn finish(&self) {
        self.shutdown();
    }

    fn given_up(&self) -> Vec<String> {
        Program::given_up(self)
    }
}

#[cfg(test)]
mod tests;
