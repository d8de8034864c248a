//! Instructions counted by valgrind's callgrind, from inside the process it
//! runs: the workbench re-runs itself under `valgrind --tool=callgrind
//! --collect-atstart=no`, and each timed call is counted alone. Around the
//! call, client requests (valgrind's documented in-process interface: a
//! no-op sequence of rotations that valgrind recognises) zero the counts,
//! switch collection on and off, and dump them to a file, which is read
//! back and removed. Outside valgrind the sequence does nothing, so the
//! counter is only switched on when [`on_valgrind`] says so.
//!
//! Instructions are the same on every run of a build, on any machine: a
//! measure of work, not of time (cache misses and mispredictions cost time
//! without adding instructions). One part is left out: the instructions
//! inside the C allocator's own bookkeeping ([`ALLOCATOR`]). glibc's malloc
//! takes a longer or shorter path depending on the heap's history, which the
//! run's other threads change at times of their own, so they would make two
//! runs of the same build differ; the solver's own instructions up to each
//! call are counted.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The environment variable that holds the dump file's path (valgrind's
/// `--callgrind-out-file`) in a run counted under callgrind.
pub const OUT_VAR: &str = "SUDOKU_BENCH_CALLGRIND_OUT";

/// The global allocator of a program that counts: the system's, except
/// that while this process counts, every block is aligned to 64 bytes.
/// glibc's `memcpy` and `memset` take longer or shorter paths by the
/// alignment of their buffers, and a block's alignment would otherwise
/// depend on the heap's history, which other threads change.
pub struct Aligned;

/// Set by [`start_from_env`] once this process counts (and never cleared):
/// blocks are aligned from then on, and calls counted.
static COUNTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The alignment every block gets while counting.
const BLOCK_ALIGN: usize = 64;

impl Aligned {
    fn layout(layout: std::alloc::Layout) -> std::alloc::Layout {
        if layout.align() < BLOCK_ALIGN && counting() {
            // The same size at a larger power of two: always a valid layout.
            std::alloc::Layout::from_size_align(layout.size(), BLOCK_ALIGN).unwrap_or(layout)
        } else {
            layout
        }
    }
}

// SAFETY: each call is passed to the system allocator with the same size
// and an alignment at least the one asked for, so every block it gives is
// valid for the layout the caller holds. A block made before `COUNTING` was
// set may be freed or grown after it with the larger alignment: on Unix
// the system allocator frees every block with `free`, whatever the
// alignment, and grows a block of a larger alignment by a new block, a
// copy of the old block's size (the size is never changed here) and
// `free`; so a block is always handed back to the allocator that made it,
// and never read past its size.
unsafe impl std::alloc::GlobalAlloc for Aligned {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: the caller's promises for `layout` hold for the same size
        // at a larger alignment (see above).
        unsafe { std::alloc::System.alloc(Aligned::layout(layout)) }
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        unsafe { std::alloc::System.alloc_zeroed(Aligned::layout(layout)) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from the system allocator (see above).
        unsafe { std::alloc::System.dealloc(ptr, Aligned::layout(layout)) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from the system allocator, `layout.size()` is
        // its size (see above), and `new_size` is the caller's.
        unsafe { std::alloc::System.realloc(ptr, Aligned::layout(layout), new_size) }
    }
}

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
#[derive(Debug, thiserror::Error)]
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
    let Some(out) = std::env::var_os(OUT_VAR) else {
        return false;
    };
    if !on_valgrind() {
        return false;
    }
    let counter = Counter {
        out: PathBuf::from(out),
        dumps: 0,
    };
    *crate::sync::lock(&COUNTER) = Some(counter);
    COUNTING.store(true, std::sync::atomic::Ordering::Relaxed);
    true
}

/// True when calls are being counted ([`start_from_env`] switched it on).
pub fn counting() -> bool {
    COUNTING.load(std::sync::atomic::Ordering::Relaxed)
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
    request(ZERO_STATS, 0);
    request(TOGGLE_COLLECT, 0);
    let out = f();
    request(TOGGLE_COLLECT, 0);
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
    /// Dumps the counts collected since they were zeroed, and reads them.
    fn dump(&mut self) -> Result<u64, CountError> {
        const LABEL: &[u8] = b"sudoku-bench call\0";
        request(DUMP_STATS_AT, LABEL.as_ptr() as u64);
        self.dumps += 1;
        let mut name = self.out.clone().into_os_string();
        name.push(format!(".{}", self.dumps));
        let path = PathBuf::from(name);
        let total = read_total(&path);
        let _ = std::fs::remove_file(&path);
        total
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
    let (mut total, mut allocator) = (None, 0u64);
    for line in text.lines() {
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
    Ok(Counts { total, allocator })
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
                allocator: 67
            }
        );
        assert_eq!(
            read_total(&path).unwrap(),
            112,
            "solve 103 and its own memcpy 9"
        );
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
