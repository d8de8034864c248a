//! One running contender program: its pipes, read without blocking past a
//! deadline; its stderr drained into its contender's log ([`super::stderr`]).

use super::protocol::{MAX_ANSWER_BYTES, MODE_VAR, PENCILMARK_VAR, PROTOCOL_VAR, PROTOCOL_VERSION};
use super::stderr::{Drain, Log};
use crate::solver::Mode;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Why no answer line came.
#[derive(Debug)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The process's CPU time since [`Process::limit_cpu`] reached its limit.
    CpuLimit,
    /// The cancel flag was raised.
    Cancelled,
    /// The program closed its stdout (it exited or crashed).
    Closed,
    /// A line grew past [`MAX_ANSWER_BYTES`] without ending.
    TooLong,
    /// Reading failed.
    Io(io::Error),
}

/// A program that did not exit when its stdin closed (it is killed), in words.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Lingered(pub String);

/// A call's window opened by [`Process::begin_call`].
#[derive(Clone, Copy, Debug)]
pub struct CallWindow {
    wall: Instant,
    cpu: Duration,
}

/// A started program. Dropping it kills and reaps the process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: ChildStdout,
    buf: Vec<u8>,
    start: usize,
    /// What the program was told to look for.
    pub mode: Mode,
    /// How long a read stays awake before sleeping ([`SPIN`], or zero when
    /// workers and programs would outnumber the cores).
    spin: Duration,
    /// Where its CPU time and peak memory are added up, with its own part.
    usage: Option<(std::sync::Arc<crate::usage::Usage>, crate::usage::Tracked)>,
    /// Its CPU clock, read around each call ([`Process::begin_call`]).
    clock: Option<crate::usage::ProcessClock>,
    /// Its process group and marker: what it leaves running is killed
    /// once it is reaped (dropped after the process is, before its cage).
    _group: crate::hygiene::Group,
    /// Its stderr, drained into its contender's log (none without one):
    /// stopped once the group is ended, so all it wrote is read.
    stderr: Option<Drain>,
    /// Its memory limit, when it has one: its cgroup goes once it is reaped
    /// (the last field, dropped after the process is).
    cage: Option<crate::usage::Cage>,
    /// The CPU time it may use before an answer (`--cpu-limit`), and its
    /// CPU time when that began.
    cpu_budget: Option<(Duration, Duration)>,
}

/// After a would-block read, how long to keep trying (yielding the core to
/// anyone who wants it) before sleeping in `poll`. A program whose answer must
/// wake a sleeping reader pays for the wake-up in its own time: 10–30 µs an
/// answer on this project's virtual machines, against about 1 µs when the
/// reader is awake.
const SPIN: Duration = Duration::from_millis(1);
/// Polls in a row that must find a starting program asleep, and not run
/// since the poll before, for [`Process::wait_ready`].
const SETTLED: u32 = 2;
/// Longest sleep in `poll`, so the cancel flag is seen.
const NAP_MS: i32 = 20;

impl Process {
    /// Starts `command` (no shell) with the protocol's environment (and, for a
    /// program that takes pencilmark lines, [`PENCILMARK_VAR`]`=1`); its stderr
    /// goes to `log` (or is dropped without one).
    pub fn spawn(
        command: &[String],
        mode: Mode,
        pencilmark: bool,
        log: Option<&Log>,
    ) -> io::Result<Process> {
        Process::spawn_version(command, mode, pencilmark, log, PROTOCOL_VERSION, None)
    }

    /// [`Process::spawn`], telling the program protocol `version`
    /// ([`PROTOCOL_VAR`]), in `cage` when it has one (a memory limit).
    pub fn spawn_version(
        command: &[String],
        mode: Mode,
        pencilmark: bool,
        log: Option<&Log>,
        version: &str,
        cage: Option<crate::usage::Cage>,
    ) -> io::Result<Process> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the command is empty"))?;
        // Drained before the program starts: if it cannot start, the pipe
        // closes and the drain ends.
        let (drain, stderr) = match log {
            Some(log) => {
                let (drain, pipe) = Drain::start(log)?;
                (Some(drain), Stdio::from(pipe))
            }
            None => (None, Stdio::null()),
        };
        let mut cmd = Command::new(program);
        if pencilmark {
            cmd.env(PENCILMARK_VAR, "1");
        } else {
            cmd.env_remove(PENCILMARK_VAR);
        }
        if let Some(cage) = &cage {
            cage.enter(&mut cmd);
        }
        cmd.args(args)
            .env(PROTOCOL_VAR, version)
            .env(MODE_VAR, mode.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        // Its own process group, marked, ended with it (and with this process).
        let (mut child, group) = crate::hygiene::spawn(cmd)?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        // SAFETY: F_GETFL/F_SETFL on a pipe descriptor this process owns.
        unsafe {
            let fd = stdout.as_raw_fd();
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(Process {
            child,
            stdin,
            stdout,
            buf: Vec::with_capacity(64 * 1024),
            start: 0,
            mode,
            spin: SPIN,
            usage: None,
            clock: None,
            _group: group,
            stderr: drain,
            cage,
            cpu_budget: None,
        })
    }

    /// Adds this process's CPU time and peak memory to `usage`, read now and
    /// whenever it ends (see [`Process::count`]), and its calls' windows
    /// ([`Process::begin_call`]).
    pub fn count_into(&mut self, usage: std::sync::Arc<crate::usage::Usage>) {
        self.usage = Some((usage, Default::default()));
        self.clock = crate::usage::ProcessClock::of(self.child.id());
        self.count();
    }

    /// Opens a call's window: the wall clock, then the process's CPU clock
    /// (taken outside the call's own timing). `None` when its use is not
    /// counted or it has no clock.
    pub fn begin_call(&self) -> Option<CallWindow> {
        self.usage.as_ref()?;
        let wall = Instant::now();
        let cpu = self.clock?.read()?;
        Some(CallWindow { wall, cpu })
    }

    /// Closes a call's window: the CPU clock, then the wall clock, so that
    /// the CPU time read lies inside the wall time; adds both to its usage.
    pub fn end_call(&self, w: Option<CallWindow>) {
        let (Some(w), Some(clock), Some((usage, _))) = (w, self.clock, &self.usage) else {
            return;
        };
        if let Some(cpu) = clock.read() {
            usage.add_call(cpu.saturating_sub(w.cpu), w.wall.elapsed());
        }
    }

    /// Adds what the process used since it was last read to its usage.
    pub fn count(&mut self) {
        let pid = self.child.id();
        if let Some((usage, tracked)) = &mut self.usage {
            tracked.read(pid, usage);
            // A cgroup's peak takes in the program's children too.
            if let Some(peak) = self.cage.as_ref().and_then(crate::usage::Cage::peak) {
                usage.note_peak(peak);
            }
        }
    }

    /// Waits, `cap` at most, until the program is ready for its first
    /// puzzle: every thread of it (and of the processes it started) asleep,
    /// one of them waiting for input (a read of stdin, or an event loop's
    /// poll; a timer's sleep is no wait for input), its run time unchanged
    /// over [`SETTLED`] polls 1 ms apart; or it has ended. So a program's
    /// start (an interpreter loading its modules, a JIT warming up, a
    /// `sleep` before it reads) is not timed as the puzzle it is sent
    /// first. Where the kernel does not say which call a thread sleeps in,
    /// asleep and unchanged is taken as ready. True when it settled; false
    /// when it ended, `cap` passed, or nothing can be read of it (off Linux).
    pub fn wait_ready(&mut self, cap: Duration) -> bool {
        let until = Instant::now() + cap;
        let (mut before, mut calm) = (None, 0);
        loop {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return false;
            }
            let Some(a) = crate::usage::activity(self.child.id()) else {
                return false;
            };
            let waiting = a.asleep && (a.reading || !a.calls_known);
            calm = if waiting && before == Some(a.ran_ns) {
                calm + 1
            } else {
                0
            };
            if calm >= SETTLED {
                return true;
            }
            before = Some(a.ran_ns);
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Sleeps in `poll` as soon as no answer is there, instead of staying awake
    /// for [`SPIN`]: for runs with more workers than half the cores, where an
    /// awake reader would take the core its program needs.
    pub fn sleep_when_idle(&mut self) {
        self.spin = Duration::ZERO;
    }

    /// Writes puzzle lines to the program's stdin.
    pub fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin is closed"))?;
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    /// The next answer line (without its line ending), waiting until `deadline`
    /// at most (awake for [`SPIN`] unless told to sleep, then asleep in `poll`), and giving up when
    /// `cancel` is raised.
    pub fn read_line(
        &mut self,
        deadline: Option<Instant>,
        cancel: &AtomicBool,
    ) -> Result<&str, ReadError> {
        let mut scanned = self.start;
        let mut idle_since: Option<Instant> = None;
        loop {
            if let Some(i) = self.buf[scanned..].iter().position(|&b| b == b'\n') {
                let end = scanned + i;
                let line = self.start..end;
                self.start = end + 1;
                let mut text = &self.buf[line];
                if text.last() == Some(&b'\r') {
                    text = &text[..text.len() - 1];
                }
                return std::str::from_utf8(text).map_err(|_| {
                    ReadError::Io(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "the answer line is not UTF-8",
                    ))
                });
            }
            scanned = self.buf.len();
            if self.buf.len() - self.start > MAX_ANSWER_BYTES {
                return Err(ReadError::TooLong);
            }
            if self.start > 0 && self.start == self.buf.len() {
                self.buf.clear();
                scanned = 0;
                self.start = 0;
            } else if self.start > self.buf.capacity() / 2 {
                self.buf.drain(..self.start);
                scanned -= self.start;
                self.start = 0;
            }
            let len = self.buf.len();
            self.buf.resize(len + 16 * 1024, 0);
            let got = self.stdout.read(&mut self.buf[len..]);
            self.buf.truncate(len + *got.as_ref().unwrap_or(&0));
            match got {
                Ok(0) => return Err(ReadError::Closed),
                Ok(_) => idle_since = None,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let now = Instant::now();
                    if cancel.load(Ordering::Relaxed) {
                        return Err(ReadError::Cancelled);
                    }
                    if deadline.is_some_and(|d| now >= d) {
                        return Err(ReadError::Timeout);
                    }
                    let since = *idle_since.get_or_insert(now);
                    if now - since < self.spin {
                        std::thread::yield_now();
                        continue;
                    }
                    // The program itself ended, though a child of it may hold
                    // its stdout open: what it wrote is read, then it is gone.
                    if self.exited() {
                        if self.drain_after_exit() {
                            continue;
                        }
                        return Err(ReadError::Closed);
                    }
                    if let Some((limit, from)) = self.cpu_budget {
                        let used = crate::usage::process_cpu(self.child.id())
                            .map_or(Duration::ZERO, |c| c.saturating_sub(from));
                        if used >= limit {
                            return Err(ReadError::CpuLimit);
                        }
                    }
                    let mut nap = NAP_MS;
                    if let Some(d) = deadline {
                        nap = nap.min((d - now).as_millis() as i32 + 1);
                    }
                    let mut fd = libc::pollfd {
                        fd: self.stdout.as_raw_fd(),
                        events: libc::POLLIN,
                        revents: 0,
                    };
                    // SAFETY: one valid pollfd for the duration of the call.
                    unsafe { libc::poll(&mut fd, 1, nap) };
                }
                Err(e) => return Err(ReadError::Io(e)),
            }
        }
    }

    /// True once the program's own process has ended (reaped or not).
    fn exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// After the program ended: reads what it left in the pipe; true when
    /// that was anything (a line may be there to take).
    fn drain_after_exit(&mut self) -> bool {
        let len = self.buf.len();
        self.buf.resize(len + 16 * 1024, 0);
        let got = self.stdout.read(&mut self.buf[len..]);
        self.buf.truncate(len + *got.as_ref().unwrap_or(&0));
        matches!(got, Ok(n) if n > 0)
    }

    /// True when nothing is left unread: no partial or extra answer lines.
    pub fn drained(&self) -> bool {
        self.start == self.buf.len()
    }

    /// How the program's memory limit stopped it, when it did: its cgroup
    /// says the limit killed it, or (an rlimit) its last words, `said` or
    /// the last 16 KiB of its stderr, say an allocation failed (a backtrace
    /// may follow the words). Read once the process has ended.
    pub fn over_memory(&self, said: &str) -> Option<String> {
        let cage = self.cage.as_ref()?;
        let over = match cage.hit() {
            Some(hit) => hit,
            None => {
                crate::usage::says_out_of_memory(said)
                    || self.stderr.as_ref().is_some_and(|d| {
                        crate::usage::says_out_of_memory(&d.tail(super::stderr::OWN_TAIL))
                    })
            }
        };
        over.then(|| format!("over the memory limit ({})", cage.describe()))
    }

    /// From now, a read fails with [`ReadError::CpuLimit`] once the
    /// process (every thread, and the children it waited for) has used
    /// `limit` more CPU time, seen when the read wakes (every 20 ms at
    /// most) at the kernel tick's resolution; `None` lifts it.
    pub fn limit_cpu(&mut self, limit: Option<Duration>) {
        self.cpu_budget = limit.map(|l| {
            let now = crate::usage::process_cpu(self.child.id()).unwrap_or_default();
            (l, now)
        });
    }

    /// The program's process id.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Kills the program and says how it ended.
    pub fn kill(mut self) -> String {
        self.count();
        let _ = self.child.kill();
        self.status()
    }

    /// Waits a moment for a program that closed its stdout to exit (killing it
    /// if it does not) and says how it ended, with the last lines of its stderr.
    pub fn ended(mut self) -> String {
        self.ending()
    }

    /// [`Process::ended`], and what the memory limit says of it: `Some(why)`
    /// when the limit is what ended it ([`Process::over_memory`]).
    pub fn ended_by(mut self) -> (String, Option<String>) {
        let how = self.ending();
        let over = self.over_memory(&how);
        (how, over)
    }

    fn ending(&mut self) -> String {
        self.count();
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = self.child.kill();
        let status = self.status();
        // Ended: what it wrote is in the pipe, read once the drain settles.
        let tail = self.stderr.as_ref().map(|d| {
            d.settle();
            d.last_lines()
        });
        match tail {
            Some(tail) if !tail.is_empty() => format!("{status}; its stderr ended: {tail}"),
            _ => status,
        }
    }

    /// Closes stdin (the program should exit), waits up to `grace`, then kills.
    pub fn close(mut self, grace: Duration) {
        self.count();
        self.stdin = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Closes the program's stdin: the protocol's signal to exit.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Closes stdin, collects any lines printed after it, and waits up to
    /// `grace` for the program to exit; `Err` says it did not (it is killed).
    pub fn finish(mut self, grace: Duration) -> Result<Vec<String>, Lingered> {
        self.count();
        self.close_stdin();
        let until = Instant::now() + grace;
        let never = AtomicBool::new(false);
        let mut extra = Vec::new();
        loop {
            match self.read_line(Some(until), &never) {
                Ok(line) => extra.push(line.to_string()),
                Err(ReadError::Closed) => break,
                Err(_) => {
                    let _ = self.child.kill();
                    return Err(Lingered(format!(
                        "did not exit within {grace:?} after its stdin closed (killed): exit when stdin ends"
                    )));
                }
            }
        }
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return Ok(extra);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        Err(Lingered(format!(
            "closed its stdout but did not exit within {grace:?} after its stdin closed (killed)"
        )))
    }

    fn status(&mut self) -> String {
        match self.child.wait() {
            Ok(s) => match s.code() {
                Some(c) => format!("exit code {c}"),
                None => s.to_string(),
            },
            Err(e) => format!("unknown exit ({e})"),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            self.count();
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}
