//! A contender's stderr, bounded. Each process's stderr is a pipe that a
//! thread of its own drains ([`Drain`]) into the contender's log ([`Log`]):
//! the log keeps the first [`HEAD`] bytes its processes wrote and the last
//! [`TAIL`], with a line saying how many were cut between; each drain keeps
//! its own process's last [`OWN_TAIL`] bytes in memory, for what ended it.
//! Memory stays bounded whatever a program writes.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The first bytes of a contender's stderr its log keeps.
pub const HEAD: usize = 64 << 10;
/// The last bytes of a contender's stderr its log keeps.
pub const TAIL: usize = 64 << 10;
/// The last bytes of one process's stderr kept in memory: what ended it
/// ([`Drain::tail`]).
pub const OWN_TAIL: usize = 16 << 10;
/// Bytes read from the pipe at a time.
const CHUNK: usize = 16 << 10;
/// While a program writes, its log's tail is written out this often at most
/// (and always when a process's stderr closes).
const SAVE_EVERY: Duration = Duration::from_secs(1);
/// Most bytes read after a drain is told to stop, from a program that
/// keeps writing (a child of it that escaped being ended).
const AFTER_STOP: usize = 1 << 20;
/// Longest wait for a drain's thread (in the ordinary case it takes
/// microseconds; this only bounds a thread starved of the processor).
const WAIT: Duration = Duration::from_secs(5);

/// The last bytes pushed, `cap` at most.
struct Ring {
    bytes: VecDeque<u8>,
    cap: usize,
}

impl Ring {
    fn new(cap: usize) -> Ring {
        Ring {
            bytes: VecDeque::new(),
            cap,
        }
    }

    /// Adds `more`, dropping the oldest past the cap; gives how many bytes
    /// were dropped.
    fn push(&mut self, more: &[u8]) -> u64 {
        let keep = &more[more.len().saturating_sub(self.cap)..];
        let over = (self.bytes.len() + keep.len()).saturating_sub(self.cap);
        self.bytes.drain(..over);
        self.bytes.extend(keep);
        (more.len() - keep.len() + over) as u64
    }

    /// The last `most` bytes.
    fn last(&self, most: usize) -> Vec<u8> {
        let skip = self.bytes.len().saturating_sub(most);
        self.bytes.range(skip..).copied().collect()
    }
}

/// A contender's stderr log, shared by its processes: the first [`HEAD`]
/// bytes they write go to the file as they come; past those, the last
/// [`TAIL`] are held and written after the head, with the cut's size,
/// whenever a process's stderr closes (and every second while it writes).
#[derive(Clone)]
pub struct Log(Arc<Shared>);

struct Shared {
    path: PathBuf,
    state: Mutex<State>,
}

struct State {
    file: File,
    /// Bytes of the head written.
    head: u64,
    /// The last bytes past the head.
    tail: Ring,
    /// Bytes dropped between the head and the tail.
    cut: u64,
    /// The tail changed since it was last written.
    unsaved: bool,
    saved: Instant,
}

impl Log {
    /// An empty log at `path` (what was there is replaced; never through a
    /// link planted where the log goes).
    pub fn create(path: &Path) -> io::Result<Log> {
        let file = crate::files::create(path)?;
        Ok(Log(Arc::new(Shared {
            path: path.to_path_buf(),
            state: Mutex::new(State {
                file,
                head: 0,
                tail: Ring::new(TAIL),
                cut: 0,
                unsaved: false,
                saved: Instant::now(),
            }),
        })))
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.0.path
    }

    /// The last three non-empty lines of the log's file, joined by ` | `.
    pub fn last_lines(&self) -> String {
        let Ok(f) = File::open(self.path()) else {
            return String::new();
        };
        let len = f.metadata().map_or(0, |m| m.len());
        let from = len.saturating_sub(2048);
        let mut bytes = vec![0; (len - from) as usize];
        let got = f.read_at(&mut bytes, from).unwrap_or(0);
        bytes.truncate(got);
        last_lines(&bytes)
    }

    /// Adds what a process wrote: to the head while it has room, else to
    /// the tail. A failed write is dropped (a full disk stops no run).
    fn write(&self, bytes: &[u8]) {
        let mut s = crate::sync::lock(&self.0.state);
        let room = (HEAD as u64).saturating_sub(s.head).min(bytes.len() as u64) as usize;
        if room > 0 {
            let _ = s.file.write_all_at(&bytes[..room], s.head);
            s.head += room as u64;
        }
        if room < bytes.len() {
            s.cut += s.tail.push(&bytes[room..]);
            s.unsaved = true;
        }
    }

    /// How long until the tail is due to be written, when it changed.
    fn due_in(&self) -> Option<Duration> {
        let s = crate::sync::lock(&self.0.state);
        s.unsaved
            .then(|| SAVE_EVERY.saturating_sub(s.saved.elapsed()))
    }

    /// Writes the tail after the head, with the cut's size before it, if it
    /// changed (and `due`: only when [`SAVE_EVERY`] has passed since).
    fn save(&self, due: bool) {
        let mut s = crate::sync::lock(&self.0.state);
        if !s.unsaved || (due && s.saved.elapsed() < SAVE_EVERY) {
            return;
        }
        let mut out = match s.cut {
            0 => Vec::new(),
            cut => cut_note(cut).into_bytes(),
        };
        out.extend(s.tail.last(TAIL));
        let head = s.head;
        let _ = s.file.set_len(head);
        let _ = s.file.write_all_at(&out, head);
        (s.unsaved, s.saved) = (false, Instant::now());
    }
}

/// The line a log holds where bytes were cut.
fn cut_note(cut: u64) -> String {
    format!(
        "\n[sudoku-bench: {cut} bytes of stderr cut here; a contender's log keeps the first {} KiB and the last {} KiB]\n",
        HEAD >> 10,
        TAIL >> 10
    )
}

/// The last three non-empty lines of `bytes`, each quoted, joined by ` | `.
fn last_lines(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines[lines.len().saturating_sub(3)..]
        .iter()
        .map(|l| super::protocol::quote(l))
        .collect::<Vec<_>>()
        .join(" | ")
}

/// One process's stderr, drained by a thread into its contender's [`Log`].
/// Dropping it (once the process and its group are ended) stops the thread:
/// it reads what is left, writes the log's tail and closes the pipe, even
/// when a process that escaped still holds the pipe's other end.
pub struct Drain {
    own: Arc<Own>,
    /// Wakes the thread: a byte for [`Drain::settle`], closed for the stop.
    wake: Option<io::PipeWriter>,
}

/// What a drain's thread shares with its [`Drain`].
struct Own {
    state: Mutex<OwnState>,
    changed: Condvar,
    stop: AtomicBool,
}

struct OwnState {
    /// The process's last words.
    tail: Ring,
    /// Times the thread found the pipe empty.
    empties: u64,
    /// The thread has ended (the pipe closed, or it was stopped).
    done: bool,
}

impl Drain {
    /// A pipe drained into `log` by a thread of its own: gives the drain and
    /// the pipe's write end, for the process's stderr.
    pub fn start(log: &Log) -> io::Result<(Drain, io::PipeWriter)> {
        // Both made close-on-exec: no program holds another's pipe.
        let (reader, writer) = io::pipe()?;
        let (woken, wake) = io::pipe()?;
        for fd in [reader.as_raw_fd(), woken.as_raw_fd(), wake.as_raw_fd()] {
            nonblocking(fd)?;
        }
        let own = Arc::new(Own {
            state: Mutex::new(OwnState {
                tail: Ring::new(OWN_TAIL),
                empties: 0,
                done: false,
            }),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let (theirs, log) = (own.clone(), log.clone());
        std::thread::Builder::new()
            .name("sudoku-bench-stderr".into())
            .stack_size(256 << 10)
            .spawn(move || drain(reader, woken, &log, &theirs))?;
        let wake = Some(wake);
        Ok((Drain { own, wake }, writer))
    }

    /// Waits (a moment at most) until everything written to the pipe before
    /// the call has been read: call it once the process has ended, before
    /// [`Drain::tail`]. The thread is woken, and once it finds the pipe
    /// empty, what was there is read.
    pub fn settle(&self) {
        let until = Instant::now() + WAIT;
        let mut s = crate::sync::lock(&self.own.state);
        let seen = s.empties;
        if let Some(wake) = &self.wake {
            // A full pipe wakes it as well.
            let _ = (&*wake).write(&[1]);
        }
        while !s.done && s.empties == seen {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            s = match self.own.changed.wait_timeout(s, left) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
        }
    }

    /// The last `most` bytes the process wrote ([`OWN_TAIL`] at most), as text.
    pub fn tail(&self, most: usize) -> String {
        let s = crate::sync::lock(&self.own.state);
        String::from_utf8_lossy(&s.tail.last(most)).into_owned()
    }

    /// The last three non-empty lines the process wrote, joined by ` | `.
    pub fn last_lines(&self) -> String {
        let s = crate::sync::lock(&self.own.state);
        last_lines(&s.tail.last(2048))
    }
}

impl Drop for Drain {
    fn drop(&mut self) {
        self.own.stop.store(true, Ordering::Release);
        self.wake = None;
        let until = Instant::now() + WAIT;
        let mut s = crate::sync::lock(&self.own.state);
        while !s.done {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return; // it ends on its own, unjoined
            }
            s = match self.own.changed.wait_timeout(s, left) {
                Ok((s, _)) => s,
                Err(e) => e.into_inner().0,
            };
        }
    }
}

/// Sets `O_NONBLOCK` on a descriptor this process owns.
fn nonblocking(fd: std::os::fd::RawFd) -> io::Result<()> {
    // SAFETY: F_GETFL/F_SETFL on a descriptor this process owns.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// A drain's thread: reads the pipe until it closes, or until told to stop
/// and it is empty (or [`AFTER_STOP`] bytes later), then writes the log's
/// tail and says it is done, the pipe closed. Each time it finds the pipe
/// empty it counts it ([`Drain::settle`] waits for one), then sleeps in
/// `poll` until the pipe has more, it is woken (a byte, or the stop), or
/// the log's tail is due.
fn drain(mut pipe: io::PipeReader, mut woken: io::PipeReader, log: &Log, own: &Own) {
    let mut buf = vec![0u8; CHUNK];
    let mut after_stop = 0;
    loop {
        match pipe.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                log.write(&buf[..n]);
                crate::sync::lock(&own.state).tail.push(&buf[..n]);
                if own.stop.load(Ordering::Acquire) {
                    after_stop += n;
                    if after_stop >= AFTER_STOP {
                        break;
                    }
                }
                log.save(true);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                crate::sync::lock(&own.state).empties += 1;
                own.changed.notify_all();
                if own.stop.load(Ordering::Acquire) {
                    break;
                }
                log.save(true);
                let nap = log
                    .due_in()
                    .map_or(-1, |d| d.as_millis().min(1000) as i32 + 1);
                let mut fds = [pipe.as_raw_fd(), woken.as_raw_fd()].map(|fd| libc::pollfd {
                    fd,
                    events: libc::POLLIN,
                    revents: 0,
                });
                // SAFETY: two valid pollfds for the duration of the call.
                unsafe { libc::poll(fds.as_mut_ptr(), 2, nap) };
                // Each wake-up's bytes are taken after the sleep, so that
                // one sent after the count above always brings another.
                let mut bytes = [0u8; 64];
                while matches!(woken.read(&mut bytes), Ok(n) if n > 0) {}
            }
            Err(_) => break,
        }
    }
    drop(pipe);
    log.save(false);
    crate::sync::lock(&own.state).done = true;
    own.changed.notify_all();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_keeps_the_last_bytes_and_counts_the_rest() {
        let mut r = Ring::new(4);
        assert_eq!(r.push(b"ab"), 0);
        assert_eq!(r.push(b"cde"), 1);
        assert_eq!(r.last(9), b"bcde");
        assert_eq!(r.push(b"0123456789"), 10);
        assert_eq!((r.last(9), r.last(2)), (b"6789".to_vec(), b"89".to_vec()));
    }

    /// Numbered lines of 34 bytes, `n` of them from line `from`.
    fn lines(from: usize, n: usize) -> Vec<u8> {
        (from..from + n)
            .flat_map(|i| format!("line {i:>10} of the program...\n").into_bytes())
            .collect()
    }

    #[test]
    fn a_log_keeps_its_head_and_tail_and_says_what_was_cut() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.stderr.log");
        let log = Log::create(&path).unwrap();
        // What fits is kept whole.
        let small = lines(0, 100);
        log.write(&small);
        log.save(false);
        assert_eq!(std::fs::read(&path).unwrap(), small);
        // 5 MB later: the first and the last 64 KiB, the cut said between.
        let total = 160_100;
        for from in (100..total).step_by(1000) {
            log.write(&lines(from, 1000));
        }
        log.save(false);
        let kept = std::fs::read(&path).unwrap();
        let all = lines(0, total);
        let cut = (all.len() - HEAD - TAIL) as u64;
        let note = cut_note(cut);
        assert_eq!(kept.len(), HEAD + note.len() + TAIL);
        assert_eq!(&kept[..HEAD], &all[..HEAD]);
        assert_eq!(&kept[HEAD..HEAD + note.len()], note.as_bytes());
        assert_eq!(&kept[HEAD + note.len()..], &all[all.len() - TAIL..]);
        assert!(note.contains(&format!("{cut} bytes of stderr cut here")));
        let last = format!("{:?}", format!("line {:>10} of the program...", total - 1));
        assert!(log.last_lines().ends_with(&last), "{}", log.last_lines());
    }

    #[test]
    fn a_drain_reads_a_pipe_into_the_log_and_keeps_its_own_last_words() {
        let dir = tempfile::tempdir().unwrap();
        let log = Log::create(&dir.path().join("x.stderr.log")).unwrap();
        let (a, mut to_a) = Drain::start(&log).unwrap();
        let (b, mut to_b) = Drain::start(&log).unwrap();
        for from in (0..160_000).step_by(1000) {
            to_a.write_all(&lines(from, 1000)).unwrap();
        }
        to_a.write_all(b"a: out of memory\n").unwrap();
        drop(to_a);
        a.settle();
        to_b.write_all(b"b: fine\n").unwrap();
        b.settle();
        // Each process's own words, bounded.
        assert!(a.tail(OWN_TAIL).ends_with("a: out of memory\n"));
        assert_eq!(a.tail(usize::MAX).len(), OWN_TAIL);
        assert!(a.last_lines().ends_with("\"a: out of memory\""));
        assert_eq!(b.last_lines(), "\"b: fine\"");
        drop((a, b, to_b));
        // The log, both processes' words in the order they came.
        let kept = std::fs::read(log.path()).unwrap();
        assert!(kept.len() <= HEAD + TAIL + 200, "{}", kept.len());
        let text = String::from_utf8_lossy(&kept);
        assert!(text.contains(" bytes of stderr cut here"));
        assert!(text.ends_with("a: out of memory\nb: fine\n"));
        assert!(log
            .last_lines()
            .ends_with("\"a: out of memory\" | \"b: fine\""));
    }

    #[test]
    fn a_drain_stops_though_something_still_holds_the_pipe() {
        let dir = tempfile::tempdir().unwrap();
        let log = Log::create(&dir.path().join("x.stderr.log")).unwrap();
        let (d, mut held) = Drain::start(&log).unwrap();
        held.write_all(b"a daemon's line\n").unwrap();
        d.settle();
        let own = d.own.clone();
        // A child that escaped keeps the write end: dropping the drain
        // still ends its thread, which closes the pipe.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            drop(d);
            let _ = tx.send(());
        });
        rx.recv_timeout(Duration::from_secs(60))
            .expect("the drop returns");
        let mut s = crate::sync::lock(&own.state);
        while !s.done {
            s = own.changed.wait(s).unwrap();
        }
        drop(s);
        let e = held.write_all(b"more\n").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(std::fs::read(log.path()).unwrap(), b"a daemon's line\n");
    }
}
