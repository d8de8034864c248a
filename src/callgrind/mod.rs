//! Instructions counted by valgrind's callgrind, from inside the process it
//! runs: the workbench re-runs itself under `valgrind --tool=callgrind
//! --collect-atstart=no`, and each timed call is counted alone. Around the
//! call, client requests (valgrind's documented in-process interface: a
//! no-op sequence of rotations that valgrind recognises) zero the counts,
//! switch collection on and off, and dump them to a file, which is read
//! back and removed. Outside valgrind the sequence does nothing, so the
//! counter is only switched on when [`on_valgrind`] says so.
//!
//! Only the calling thread's instructions are counted: callgrind keeps each
//! thread's counts apart (`--separate-threads=yes`), and the dump read is the
//! one of the thread that ran [`count`]'s call (it holds [`MARKER`]). Other
//! threads (a progress bar, a writer) wake at times of their own.
//!
//! Instructions are the same on every run of a build, on any machine: a
//! measure of work, not of time (cache misses and mispredictions cost time
//! without adding instructions). What other threads do must not change
//! them: besides their own counts, they change the heap, and with it the
//! addresses some paths depend on; so the counting thread allocates from a
//! region of its own ([`Heap`]). Instructions inside the C allocator
//! ([`ALLOCATOR`], for blocks made before counting began) are left out.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Instant;

/// The environment variable that holds the dump file's path (valgrind's
/// `--callgrind-out-file`) in a run counted under callgrind.
pub const OUT_VAR: &str = "SUDOKU_BENCH_CALLGRIND_OUT";

mod heap;
pub use heap::{counts as counts_heap, watch as watch_heap, watched, Heap, Watch as HeapWatch};

/// Set by [`start_from_env`] once this process counts (and never cleared):
/// the counting thread's blocks come from [`Heap`]'s region from then on,
/// and calls are counted.
static COUNTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Callgrind's requests: `VG_USERREQ_TOOL_BASE('C', 'T')` and on.
const BASE: u64 = ((b'C' as u64) << 24) | ((b'T' as u64) << 16);
const ZERO_STATS: u64 = BASE + 1;
const TOGGLE_COLLECT: u64 = BASE + 2;
const DUMP_STATS_AT: u64 = BASE + 3;
/// The core's request that answers how many valgrinds run this process.
const RUNNING_ON_VALGRIND: u64 = 0x1001;

/// Sends a client request; outside valgrind it does nothing and gives 0.
#[cfg(target_arch = "x86_64")]
fn request(code: u64, arg: u64) -> u64 {
    let args: [u64; 6] = [code, arg, 0, 0, 0, 0];
    let mut answer: u64 = 0;
    // SAFETY: the four rotations of rdi add up to 128 bits, two whole turns,
    // and `xchg rbx, rbx` swaps a register with itself: natively nothing
    // changes but the flags (declared by leaving out `preserves_flags`).
    // Under valgrind the sequence is a request that reads the six words at
    // rax, which live until the block ends, and writes its answer to rdx.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            inout("rdx") answer,
            in("rax") args.as_ptr(),
            inout("rdi") 0u64 => _,
            options(nostack),
        );
    }
    answer
}

/// No client requests on other machines: never under valgrind.
#[cfg(not(target_arch = "x86_64"))]
fn request(_code: u64, _arg: u64) -> u64 {
    0
}

/// True when this process runs under valgrind.
pub fn on_valgrind() -> bool {
    request(RUNNING_ON_VALGRIND, 0) > 0
}

/// Why a count could not be had.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CountError {
    /// The dump callgrind was asked for is not there or does not read.
    #[error("callgrind's dump {}: {why}", path.display())]
    Dump {
        /// The dump file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
}

/// Counts calls one at a time; one per process (callgrind numbers its dumps
/// for the whole process).
pub struct Counter {
    /// `--callgrind-out-file`: dump `n` is written to `OUT.n`.
    out: PathBuf,
    dumps: u64,
}

/// The process's counter: set when it runs under callgrind with [`OUT_VAR`].
static COUNTER: Mutex<Option<Counter>> = Mutex::new(None);

/// Switches counting on for this process when it runs under valgrind and
/// [`OUT_VAR`] names callgrind's output file; gives whether it is on.
pub fn start_from_env() -> bool {
    match std::env::var_os(OUT_VAR) {
        Some(out) => start(PathBuf::from(out)),
        None => false,
    }
}

/// Switches counting on for this process when it runs under valgrind,
/// whose `--callgrind-out-file` is `out` (`%p` in it stands for this
/// process's id, as it does for valgrind); gives whether it is on.
pub fn start(out: PathBuf) -> bool {
    if !on_valgrind() {
        return false;
    }
    let out = match out.to_str() {
        Some(t) if t.contains("%p") => {
            PathBuf::from(t.replace("%p", &std::process::id().to_string()))
        }
        _ => out,
    };
    heap::reserve();
    let counter = Counter { out, dumps: 0 };
    *crate::sync::lock(&COUNTER) = Some(counter);
    COUNTING.store(true, std::sync::atomic::Ordering::Relaxed);
    true
}

/// True when calls are being counted ([`start_from_env`] switched it on).
pub fn counting() -> bool {
    COUNTING.load(std::sync::atomic::Ordering::Relaxed)
}

/// valgrind's options for a process that counts with [`count`]: callgrind,
/// collection off until a call switches it on, each thread counted apart,
/// dumps to `out` (`OUT.N-THREAD`) and valgrind's messages to `log`.
pub fn valgrind_options(out: &Path, log: &Path) -> Vec<std::ffi::OsString> {
    let flag = |name: &str, path: &Path| {
        let mut f = std::ffi::OsString::from(name);
        f.push(path);
        f
    };
    vec![
        "--tool=callgrind".into(),
        "--collect-atstart=no".into(),
        // No gdb server, so no vgdb FIFOs in $TMPDIR outside the private
        // folder (left behind when the run is killed).
        "--vgdb=no".into(),
        "--separate-threads=yes".into(),
        flag("--callgrind-out-file=", out),
        flag("--log-file=", log),
    ]
}

/// The host of a library contender, run by a process that counts: the
/// words to put before its command (valgrind and its options), and the
/// dump file to pass it (`--callgrind-out`); `None` when not counting.
/// Its dumps and log go beside this process's, named by its process id.
pub fn host_under_valgrind() -> Option<(Vec<String>, String)> {
    let dir = scratch_dir()?;
    let out = dir.join("host.%p");
    let log = dir.join("host.%p.log");
    let mut words = vec!["valgrind".to_string()];
    words.extend(
        valgrind_options(&out, &log)
            .into_iter()
            .map(|w| w.to_string_lossy().into_owned()),
    );
    Some((words, out.to_string_lossy().into_owned()))
}

/// Why valgrind stopped the library host `pid` (started as
/// [`host_under_valgrind`] says): an instruction it cannot run, from the
/// host's valgrind log; `None` when the log says no such thing.
pub fn host_stopped(pid: u32) -> Option<String> {
    let dir = scratch_dir()?;
    let log = std::fs::read_to_string(dir.join(format!("host.{pid}.log"))).ok()?;
    stopped_by(&log)
}

/// The folder of this process's dumps, when it counts.
fn scratch_dir() -> Option<PathBuf> {
    Some(
        crate::sync::lock(&COUNTER)
            .as_ref()?
            .out
            .parent()?
            .to_path_buf(),
    )
}

/// The line of a valgrind log that says it met an instruction it cannot
/// run, without valgrind's `==PID==` prefix.
pub fn stopped_by(log: &str) -> Option<String> {
    log.lines()
        .find(|l| {
            let l = l.to_ascii_lowercase();
            l.contains("unrecognised instruction") || l.contains("unhandled instruction")
        })
        .map(|l| {
            l.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit())
                .trim()
                .to_string()
        })
}

/// The name of the function [`count`] runs the counted call in: the dump
/// that holds it is the calling thread's.
pub const MARKER: &str = "callgrind::counted_call";

/// Runs `f`; its own function, never inlined, so that it is named in the
/// calling thread's dump (see [`MARKER`]).
#[inline(never)]
fn counted_call<T>(f: impl FnOnce() -> T) -> T {
    std::hint::black_box(f())
}

/// A call's result, its time and (when this process counts) its counts.
pub struct Timed<T> {
    /// What the call gave.
    pub out: T,
    /// Its time, ns: the call's alone (when counting, taken around the
    /// count, whose requests it then includes).
    pub ns: u64,
    /// When it ended.
    pub at: Instant,
    /// Its instructions, when this process counts.
    pub instructions: Option<Result<u64, CountError>>,
    /// The CPU's counters, when this process reads them ([`crate::perf`]).
    pub perf: Option<Result<crate::perf::Counts, String>>,
}

/// Why a call's counts could not be had: the row's error.
#[derive(Clone, Debug, thiserror::Error)]
pub enum CallCountError {
    /// The CPU's counters could not be read around it ([`crate::perf`]'s words).
    #[error("{0}")]
    Counters(String),
    /// Its instructions could not be counted.
    #[error("counting its instructions: {0}")]
    Instructions(#[source] CountError),
}

impl<T> Timed<T> {
    /// What was counted of the call (nothing, when nothing counts), or why
    /// a count could not be had.
    pub fn counts(&self) -> Result<crate::perf::Counts, CallCountError> {
        let mut counts = match &self.perf {
            Some(Err(why)) => return Err(CallCountError::Counters(why.clone())),
            Some(Ok(c)) => *c,
            None => Default::default(),
        };
        match &self.instructions {
            Some(Err(e)) => return Err(CallCountError::Instructions(e.clone())),
            Some(Ok(n)) => counts.instructions = Some(*n),
            None => {}
        }
        Ok(counts)
    }
}

/// Runs `f`, timing it and, when this process counts, counting it. The
/// clock is read outside callgrind's count, so that the count holds the
/// call's instructions alone (when not counting, [`count`] is `f` itself),
/// and inside the CPU's counters, whose switching it would otherwise time.
pub fn timed<T>(f: impl FnOnce() -> T) -> Timed<T> {
    let ((out, instructions, t0, at), perf) = crate::perf::around(|| {
        let t0 = Instant::now();
        let (out, instructions) = count(f);
        (out, instructions, t0, Instant::now())
    });
    Timed {
        out,
        ns: (at - t0).as_nanos() as u64,
        at,
        instructions,
        perf,
    }
}

/// Runs `f`, counting its instructions when this process counts; the
/// count is `None` otherwise. Calls are counted one at a time: a second
/// thread waits for the first's count.
pub fn count<T>(f: impl FnOnce() -> T) -> (T, Option<Result<u64, CountError>>) {
    // Not counting (every timed run): no lock for the workers to share.
    if !counting() {
        return (f(), None);
    }
    let mut guard = crate::sync::lock(&COUNTER);
    let Some(counter) = guard.as_mut() else {
        drop(guard);
        return (f(), None);
    };
    let open = heap::open();
    request(ZERO_STATS, 0);
    request(TOGGLE_COLLECT, 0);
    let out = counted_call(f);
    request(TOGGLE_COLLECT, 0);
    drop(open);
    (out, Some(counter.dump()))
}

/// Extra work of `share` times `n` instructions, done and counted now (by
/// a handicapped contender, after its call): a loop of a calibrated number
/// of turns, its own count given back (within a turn's instructions of the
/// share asked). Nothing is done when this process does not count.
pub fn extra_work(n: u64, share: f64) -> u64 {
    fn spin(turns: u64) -> u64 {
        let mut x = 0u64;
        for i in 0..turns {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(i));
        }
        x
    }
    // The loop's instructions a turn, counted once over many turns.
    static PER_TURN: std::sync::OnceLock<Option<f64>> = std::sync::OnceLock::new();
    const TURNS: u64 = 100_000;
    let per_turn = PER_TURN.get_or_init(|| match count(|| spin(TURNS)).1 {
        Some(Ok(n)) => Some(n as f64 / TURNS as f64),
        _ => None,
    });
    let Some(per_turn) = *per_turn else {
        return 0;
    };
    let turns = (share * n as f64 / per_turn).round() as u64;
    match count(|| spin(turns)).1 {
        Some(Ok(done)) => done,
        _ => 0,
    }
}

impl Counter {
    /// Dumps the counts collected since they were zeroed, and reads the
    /// calling thread's (callgrind writes `OUT.N-THREAD` for each thread
    /// that ran while collecting); the dumps are removed.
    fn dump(&mut self) -> Result<u64, CountError> {
        const LABEL: &[u8] = b"sudoku-bench call\0";
        request(DUMP_STATS_AT, LABEL.as_ptr() as u64);
        self.dumps += 1;
        let dir = self.out.parent().unwrap_or(Path::new("."));
        let stem = self.out.file_name().unwrap_or_default().to_string_lossy();
        let prefix = format!("{stem}.{}-", self.dumps);
        let pattern = dir.join(format!("{prefix}*"));
        let bad = |why: String| CountError::Dump {
            path: pattern.clone(),
            why,
        };
        let entries = std::fs::read_dir(dir).map_err(|e| bad(e.to_string()))?;
        let mut found: Option<Result<Counts, CountError>> = None;
        for entry in entries.flatten() {
            if !entry.file_name().to_string_lossy().starts_with(&prefix) {
                continue;
            }
            let path = entry.path();
            let counts = read_counts(&path);
            let _ = std::fs::remove_file(&path);
            match counts {
                Ok(c) if !c.marked => {}
                other => found = found.or(Some(other)),
            }
        }
        found
            .unwrap_or_else(|| Err(bad("no thread's dump holds the counted call".into())))
            .map(Counts::counted)
    }
}

/// The C allocator's functions (glibc's): a name that is one of these, or
/// that begins with one of [`ALLOCATOR_PREFIXES`]. Their own instructions,
/// and those of what they call (the copy a `realloc` makes when it cannot
/// grow in place), are left out of a count.
pub const ALLOCATOR: &[&str] = &[
    "malloc",
    "free",
    "cfree",
    "realloc",
    "calloc",
    "memalign",
    "posix_memalign",
    "aligned_alloc",
    "sysmalloc",
    "systrim",
];

/// Beginnings of the allocator's internal functions' names.
pub const ALLOCATOR_PREFIXES: &[&str] = &[
    "__libc_malloc",
    "__libc_free",
    "__libc_realloc",
    "__libc_calloc",
    "__libc_memalign",
    "_int_",
    "_mid_memalign",
    "malloc_consolidate",
    "unlink_chunk",
    "alloc_perturb",
    "free_perturb",
    "tcache_",
    "arena_get",
    "checked_request2size",
];

/// What one dump counts: all instructions, and those inside [`ALLOCATOR`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Every instruction the dump covers (its `totals:`).
    pub total: u64,
    /// The allocator's: its functions' own instructions, and those of the
    /// calls they make to other functions.
    pub allocator: u64,
    /// Whether the dump names [`MARKER`]: it is the counting thread's.
    pub marked: bool,
}

impl Counts {
    /// The count reported: all but the allocator's internals.
    pub fn counted(self) -> u64 {
        self.total.saturating_sub(self.allocator)
    }
}

/// The instructions a callgrind dump counts, less the allocator's internals.
pub fn read_total(path: &Path) -> Result<u64, CountError> {
    read_counts(path).map(Counts::counted)
}

/// Reads a callgrind dump (its format: `fn=` opens a function, a cost line
/// `POSITION COST` adds to its self cost unless it follows `calls=`, when it
/// is the callee's inclusive cost; names are given once as `(ID) NAME`).
pub fn read_counts(path: &Path) -> Result<Counts, CountError> {
    let bad = |why: String| CountError::Dump {
        path: path.to_path_buf(),
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let mut names: std::collections::HashMap<String, bool> = std::collections::HashMap::new();
    let (mut in_allocator, mut after_call, mut callee) = (false, false, false);
    let (mut total, mut allocator, mut marked) = (None, 0u64, false);
    for line in text.lines() {
        if line.contains(MARKER) {
            marked = true;
        }
        if let Some(rest) = line.strip_prefix("fn=") {
            in_allocator = allocator_fn(rest, &mut names);
            after_call = false;
        } else if let Some(rest) = line.strip_prefix("cfn=") {
            callee = allocator_fn(rest, &mut names);
        } else if line.starts_with("calls=") {
            after_call = true;
        } else if let Some(t) = line
            .strip_prefix("totals:")
            .or(line.strip_prefix("summary:"))
        {
            let t = t.split_whitespace().next().unwrap_or_default();
            let n = t
                .parse()
                .map_err(|_| bad(format!("totals {t:?} is not a count")))?;
            total = total.max(Some(n));
        } else if line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
            let cost: u64 = line
                .split_whitespace()
                .nth(1)
                .and_then(|c| c.parse().ok())
                .unwrap_or(0);
            // Its own cost, or (after `calls=`) a callee's whole cost, which
            // counts here when the allocator calls something else.
            if in_allocator && (!after_call || !callee) {
                allocator += cost;
            }
            after_call = false;
        }
    }
    let total = total.ok_or_else(|| bad("no totals: line".into()))?;
    Ok(Counts {
        total,
        allocator,
        marked,
    })
}

/// Whether the function a `fn=`/`cfn=` line names is the allocator's,
/// learning `(ID) NAME` pairs as they come.
fn allocator_fn(spec: &str, names: &mut std::collections::HashMap<String, bool>) -> bool {
    let is_allocator = |name: &str| {
        let name = name.split('\'').next().unwrap_or(name);
        ALLOCATOR.contains(&name) || ALLOCATOR_PREFIXES.iter().any(|a| name.starts_with(a))
    };
    match spec.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((id, rest)) => {
            let name = rest.trim();
            if !name.is_empty() {
                names.insert(id.to_string(), is_allocator(name));
            }
            names.get(id).copied().unwrap_or(false)
        }
        None => is_allocator(spec.trim()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_valgrind_nothing_is_counted() {
        assert!(!on_valgrind());
        assert!(!counting());
        let (v, n) = count(|| 7);
        assert_eq!((v, n.is_none()), (7, true));
    }

    #[test]
    fn the_allocators_own_instructions_are_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cg.out.2");
        let dump = "events: Ir\nfn=(1) solve\n0 100\ncfn=(2) malloc\ncalls=1 0\n0 60\n\
                    fn=(2)\n0 10\ncfn=(3) _int_malloc\ncalls=1 0\n0 50\n\
                    fn=(3)\n0 30\ncfn=(5) memcpy\ncalls=1 0\n0 20\n\
                    fn=(4) unlink_chunk.constprop.0\n0 7\nfn=(5)\n0 20\nfn=(1)\n0 3\n\
                    cfn=(5)\ncalls=1 0\n0 9\nfn=(5)\n0 9\ntotals: 179\n";
        std::fs::write(&path, dump).unwrap();
        let c = read_counts(&path).unwrap();
        // malloc 10, _int_malloc 30 and the memcpy it called 20, unlink 7.
        assert_eq!(
            c,
            Counts {
                total: 179,
                allocator: 67,
                marked: false,
            }
        );
        assert_eq!(
            read_total(&path).unwrap(),
            112,
            "solve 103 and its own memcpy 9"
        );
    }

    #[test]
    fn the_counting_threads_dump_is_the_one_naming_the_marker() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cg.out.1-03");
        let dump = "events: Ir\nfn=(1) sudoku_bench::callgrind::counted_call::<u8>\n0 4\n\
                    cfn=(2) solve\ncalls=1 0\n0 90\nfn=(2)\n0 90\ntotals: 94\n";
        std::fs::write(&path, dump).unwrap();
        assert!(read_counts(&path).unwrap().marked);
        std::fs::write(&path, "events: Ir\nfn=(1) futex_wait\n0 6\ntotals: 6\n").unwrap();
        assert!(!read_counts(&path).unwrap().marked);
    }

    #[test]
    fn valgrinds_unrecognised_instruction_is_found_in_its_log() {
        let log = "==5806== Callgrind, a call-graph generating cache profiler\n\
                   ==5806== valgrind: Unrecognised instruction at address 0x10912d.\n\
                   ==5806==    at 0x10912D: main (in /tmp/ill)\n";
        assert_eq!(
            stopped_by(log).as_deref(),
            Some("valgrind: Unrecognised instruction at address 0x10912d.")
        );
        assert_eq!(stopped_by("==1== Events    : Ir\n"), None);
    }

    #[test]
    fn a_dump_is_read_by_its_totals() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cg.out.1");
        std::fs::write(
            &path,
            "version: 1\nevents: Ir\nsummary: 9012\ntotals: 9016\n",
        )
        .unwrap();
        assert_eq!(read_total(&path).unwrap(), 9016);
        std::fs::write(&path, "events: Ir\nsummary: 12\n").unwrap();
        assert_eq!(read_total(&path).unwrap(), 12);
        std::fs::write(&path, "events: Ir\n").unwrap();
        assert!(read_total(&path)
            .unwrap_err()
            .to_string()
            .contains("no totals"));
        let gone = dir.path().join("none");
        assert!(read_total(&gone).is_err());
    }
}
