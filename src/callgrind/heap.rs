//! The global allocator of a program that counts: the system's, except
//! inside a counted call. The blocks that call makes come from a region of
//! its own, handed out in power-of-two size classes with a free list per
//! class, so that where each block lies depends on the counted calls' own
//! allocations alone. A block the counting thread frees later goes back to
//! the region; one another thread frees is left unused. Outside a count,
//! the counting thread allocates from the system too: what it does between
//! calls depends on time (a batch of rows goes to the writer when it is
//! 50 ms old), and blocks made then would move the next call's. When a
//! later thread counts (a study runs each share on fresh workers), the
//! region passes to it as the last one left it.
//!
//! Why: some instruction counts depend on addresses. glibc's `memcpy` takes
//! longer or shorter paths by its buffers' alignment and distance, and the
//! compiler's vectorised loops check at run time whether two buffers
//! overlap. Under the system allocator a block's address depends on the
//! heap's history, which the run's other threads change at times of their
//! own; measured, that moved `dlx-crate`'s count by up to 128 instructions
//! a puzzle (0.012% of its mean) between two runs of one build.
//!
//! The region's bookkeeping is a few instructions a call, inlined into the
//! caller and counted with it; the same on every run.
//!
//! The allocator also watches a thread's heap when asked ([`watch`],
//! [`watched`]): the most bytes one call held at once, which is the peak
//! heap of a built-in strategy's calls. When no thread watches, that costs
//! a load of a global and a branch per allocation, per free and per call.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// The global allocator (installed by the binary): see the module's doc.
pub struct Heap;

/// How many threads watch their heap: while none does, no allocation looks
/// at the thread-local record.
static WATCHING: AtomicUsize = AtomicUsize::new(0);

/// A thread's heap watch: whether it has one, whether a watched call is
/// running, the bytes held since that call began, the most that call has
/// held, and the most any watched call held.
#[derive(Clone, Copy)]
struct Record {
    watched: bool,
    on: bool,
    held: isize,
    call: isize,
    most: isize,
}

/// No watch.
const UNWATCHED: Record = Record {
    watched: false,
    on: false,
    held: 0,
    call: 0,
    most: 0,
};

thread_local! {
    static RECORD: Cell<Record> = const { Cell::new(UNWATCHED) };
}

/// Adds `bytes` (negative: freed) to the calling thread's record, in a
/// watched call.
#[inline]
fn note(bytes: isize) {
    if WATCHING.load(Ordering::Relaxed) == 0 {
        return;
    }
    let _ = RECORD.try_with(|r| {
        let mut v = r.get();
        if v.on {
            v.held += bytes;
            v.call = v.call.max(v.held);
            v.most = v.most.max(v.held);
            r.set(v);
        }
    });
}

/// Starts a watch of the calling thread's heap in the calls it makes
/// through [`watched`]: see [`Watch`].
pub fn watch() -> Watch {
    RECORD.with(|r| {
        r.set(Record {
            watched: true,
            ..UNWATCHED
        })
    });
    WATCHING.fetch_add(1, Ordering::Relaxed);
    Watch {
        _not_send: std::marker::PhantomData,
    }
}

/// Runs `f`; when the calling thread has a [`Watch`], the most heap bytes
/// `f` held at once (from 0 at its start) raise the watch's peak, and are
/// returned beside `f`'s result (`None` without a watch).
#[inline]
pub fn watched<T>(f: impl FnOnce() -> T) -> (T, Option<u64>) {
    if WATCHING.load(Ordering::Relaxed) == 0 || !RECORD.with(|r| r.get().watched) {
        return (f(), None);
    }
    RECORD.with(|r| {
        r.set(Record {
            on: true,
            held: 0,
            call: 0,
            ..r.get()
        })
    });
    let out = f();
    let call = RECORD.with(|r| {
        let v = r.get();
        r.set(Record { on: false, ..v });
        v.call
    });
    (out, Some(call.max(0) as u64))
}

/// A watch of the calling thread's heap, from [`watch`] until it drops:
/// [`Watch::peak`] is the most heap bytes any one call through [`watched`]
/// held at once, its blocks counted from when it began (one that it frees
/// and did not make counts against it; the peak is never below 0). Only
/// blocks made through [`Heap`] are seen: a process whose global allocator
/// is another sees none ([`counts`] says which).
pub struct Watch {
    /// A watch belongs to its thread.
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Watch {
    /// The most heap bytes a watched call held at once.
    pub fn peak(&self) -> u64 {
        RECORD.with(|r| r.get().most.max(0) as u64)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = RECORD.try_with(|r| r.set(UNWATCHED));
        WATCHING.fetch_sub(1, Ordering::Relaxed);
    }
}

/// True when this process's allocations go through [`Heap`] (the binary
/// installs it; a test or another program using the library may not), so
/// that a [`Watch`] sees them.
pub fn counts() -> bool {
    static COUNTS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *COUNTS.get_or_init(|| {
        let w = watch();
        let b = watched(|| std::hint::black_box(vec![0u8; 4096]));
        let seen = w.peak() >= 4096;
        drop(b);
        seen
    })
}

/// The region's size: address space reserved at once, its pages taken
/// only when first written.
const REGION: usize = 1 << 32;
/// Size classes: blocks of 2^k bytes, k from [`MIN_CLASS`] up.
const CLASSES: usize = 48;
const MIN_CLASS: u32 = 4;
/// Blocks are aligned to their size, up to a page.
const PAGE: usize = 4096;

/// The region's bounds, set once (0 until then): a block inside came from it.
static START: AtomicUsize = AtomicUsize::new(0);
static END: AtomicUsize = AtomicUsize::new(0);
/// The id of the thread that owns the region (0: none yet).
static OWNER: AtomicU64 = AtomicU64::new(0);
/// The last thread id handed out.
static LAST_ID: AtomicU64 = AtomicU64::new(0);
/// Whether a counted call is running: only then does the owner take blocks
/// from the region.
static OPEN: AtomicBool = AtomicBool::new(false);

/// The owning thread's view of the region.
struct Region {
    /// Next unused byte.
    next: usize,
    /// Its end.
    end: usize,
    /// The first free block of each class (0: none); each free block holds
    /// the address of the next.
    free: [usize; CLASSES],
}

/// The region's state, behind a lock: its owner uses it, and a thread that
/// owned it before may still free into it (a few uncontended instructions a
/// call, the same on every run).
struct Shared {
    busy: AtomicBool,
    region: UnsafeCell<Region>,
}

// SAFETY: `region` is only reached through `with_region`, which holds `busy`.
unsafe impl Sync for Shared {}

static STATE: Shared = Shared {
    busy: AtomicBool::new(false),
    region: UnsafeCell::new(Region {
        next: 0,
        end: 0,
        free: [0; CLASSES],
    }),
};

/// Runs `f` on the region's state, holding its lock.
fn with_region<R>(f: impl FnOnce(&mut Region) -> R) -> R {
    while STATE.busy.swap(true, Ordering::Acquire) {
        std::hint::spin_loop();
    }
    // SAFETY: `busy` is held: no other reference to the state exists.
    let out = f(unsafe { &mut *STATE.region.get() });
    STATE.busy.store(false, Ordering::Release);
    out
}

thread_local! {
    /// This thread's id (0 until it claims the region).
    static ME: Cell<u64> = const { Cell::new(0) };
}

/// Maps the region, once (called by [`super::start`] when the process
/// starts counting: early, so that where it lies among the process's other
/// mappings does not depend on when other threads map theirs).
pub(super) fn reserve() {
    if START.load(Ordering::Relaxed) != 0 {
        return;
    }
    // SAFETY: an anonymous private mapping; no memory is touched here.
    let start = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            REGION,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if start == libc::MAP_FAILED {
        return; // no region: the system's allocator serves every thread
    }
    let start = start as usize;
    with_region(|r| (r.next, r.end) = (start, start + REGION));
    START.store(start, Ordering::Relaxed);
    END.store(start + REGION, Ordering::Relaxed);
}

/// Makes the calling thread the region's owner, when it is mapped, and
/// lets it take blocks from the region until the guard drops (called by
/// [`super::count`] around the counted call, one thread at a time). A
/// thread that owned it before allocates from the system from then on.
pub(super) fn open() -> Open {
    if START.load(Ordering::Relaxed) != 0 && !owner() {
        let id = LAST_ID.fetch_add(1, Ordering::Relaxed) + 1;
        ME.with(|m| m.set(id));
        OWNER.store(id, Ordering::Release);
    }
    OPEN.store(true, Ordering::Release);
    Open
}

/// While it lives, the owner takes its blocks from the region.
pub(super) struct Open;

impl Drop for Open {
    fn drop(&mut self) {
        OPEN.store(false, Ordering::Release);
    }
}

/// The class of a layout: the power of two at least its size and alignment.
fn class(layout: Layout) -> usize {
    let size = layout.size().max(layout.align()).max(1 << MIN_CLASS);
    size.next_power_of_two().trailing_zeros() as usize
}

/// True when `ptr` came from the region.
fn in_region(ptr: *mut u8) -> bool {
    let p = ptr as usize;
    p >= START.load(Ordering::Relaxed) && p < END.load(Ordering::Relaxed)
}

/// True when this thread owns the region (its blocks go back to it).
fn owner() -> bool {
    let me = ME.try_with(Cell::get).unwrap_or(0);
    me != 0 && OWNER.load(Ordering::Acquire) == me
}

/// True when this thread's new blocks come from the region: it owns it
/// and is in a counted call.
fn taking() -> bool {
    OPEN.load(Ordering::Acquire) && owner()
}

/// A block of `layout` from the region (null when it is used up).
fn take(layout: Layout) -> *mut u8 {
    let k = class(layout);
    if k >= CLASSES {
        return std::ptr::null_mut();
    }
    with_region(|m| {
        let head = m.free[k];
        if head != 0 {
            // SAFETY: a free block of this class holds the next one's address.
            m.free[k] = unsafe { *(head as *const usize) };
            return head as *mut u8;
        }
        let size = 1usize << k;
        let align = size.min(PAGE).max(layout.align());
        let at = m.next.next_multiple_of(align);
        if at.checked_add(size).is_none_or(|e| e > m.end) {
            return std::ptr::null_mut();
        }
        m.next = at + size;
        at as *mut u8
    })
}

/// Hands a block of the region back (by its owner; a block freed by another
/// thread is left unused, so that the owner's blocks never depend on when).
fn give(ptr: *mut u8, layout: Layout) {
    if !owner() {
        return;
    }
    let k = class(layout);
    with_region(|m| {
        // SAFETY: the block is at least 16 bytes, aligned, and no longer used.
        unsafe { *(ptr as *mut usize) = m.free[k] };
        m.free[k] = ptr as usize;
    });
}

// SAFETY: a block from the region is of its class's size, at least the
// layout's size, aligned to at least the layout's alignment, and handed out
// once until it is given back; every other block is the system allocator's
// with the caller's own layout, and is handed back to it.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as isize);
        if taking() {
            let p = take(layout);
            if !p.is_null() {
                return p;
            }
        }
        // SAFETY: the caller's promises for `layout`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as isize);
        if taking() {
            let p = take(layout);
            if !p.is_null() {
                // SAFETY: the block holds at least `layout.size()` bytes.
                unsafe { std::ptr::write_bytes(p, 0, layout.size()) };
                return p;
            }
        }
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize));
        if in_region(ptr) {
            give(ptr, layout);
        } else {
            // SAFETY: not the region's, so the system's, with this layout.
            unsafe { System.dealloc(ptr, layout) }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let mine = in_region(ptr);
        if !mine && !taking() {
            note(new_size as isize - layout.size() as isize);
            // SAFETY: the system's block, with the caller's layout and size.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // SAFETY: the caller promises a valid size for this alignment.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if mine && class(new) == class(layout) {
            note(new_size as isize - layout.size() as isize);
            return ptr;
        }
        // (`alloc` and `dealloc` below note the new block and the old.)
        // SAFETY: `new` is a valid non-zero layout (the caller's promise).
        let p = unsafe { self.alloc(new) };
        if !p.is_null() {
            // SAFETY: both blocks hold the bytes copied; they do not overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_hold_size_and_alignment() {
        let l = |s, a| Layout::from_size_align(s, a).unwrap();
        assert_eq!(class(l(1, 1)), 4);
        assert_eq!(class(l(16, 8)), 4);
        assert_eq!(class(l(17, 8)), 5);
        assert_eq!(class(l(24, 64)), 6);
        assert_eq!(class(l(4097, 8)), 13);
    }

    #[test]
    fn a_counts_blocks_are_reused_by_class_and_aligned_and_others_are_the_systems() {
        // A thread of its own: it becomes the owner (unless another test's
        // thread did first, when the system serves it and this is moot).
        std::thread::spawn(|| {
            reserve();
            let counting = open();
            if !owner() {
                return;
            }
            let l = Layout::from_size_align(100, 8).unwrap();
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            let a = unsafe { Heap.alloc(l) };
            assert!(in_region(a));
            assert_eq!(a as usize % 128, 0);
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            unsafe { Heap.dealloc(a, l) };
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            let b = unsafe { Heap.alloc(Layout::from_size_align(120, 4).unwrap()) };
            assert_eq!(a, b, "a freed block of the class is reused");
            let big = Layout::from_size_align(10_000, 4096).unwrap();
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            let c = unsafe { Heap.alloc_zeroed(big) };
            assert_eq!(c as usize % 4096, 0);
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            assert!(unsafe { std::slice::from_raw_parts(c, 10_000) }
                .iter()
                .all(|&x| x == 0));
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            let d = unsafe { Heap.realloc(b, Layout::from_size_align(120, 4).unwrap(), 5000) };
            assert!(in_region(d) && d != b);
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            unsafe { Heap.dealloc(d, Layout::from_size_align(5000, 4).unwrap()) };
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            let e = unsafe { Heap.alloc(l) };
            assert!(in_region(e));
            drop(counting);
            // Outside a count the owner's new blocks are the system's, and
            // the region's blocks it frees go back to the region.
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            let f = unsafe { Heap.alloc(l) };
            assert!(!in_region(f));
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            unsafe { Heap.dealloc(f, l) };
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            unsafe { Heap.dealloc(e, l) };
            let _counting = open();
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            let g = unsafe { Heap.alloc(l) };
            assert_eq!(g, e, "a block freed between counts is the next count's");
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            unsafe { Heap.dealloc(g, l) };
            // SAFETY: non-zero layouts; each block is freed once, with its layout.
            unsafe { Heap.dealloc(c, big) };
        })
        .join()
        .unwrap();
    }

    #[test]
    fn a_watch_holds_the_most_one_watched_call_held() {
        std::thread::spawn(|| {
            let l = |n| Layout::from_size_align(n, 8).unwrap();
            // SAFETY: a non-zero layout.
            let alloc = |n| unsafe { Heap.alloc(l(n)) };
            // SAFETY: each block below is freed once, with its layout then.
            let free = |p, n| unsafe { Heap.dealloc(p, l(n)) };
            let outside = alloc(1 << 20);
            let w = watch();
            let (kept, call) = watched(|| {
                let a = alloc(1000);
                // SAFETY: a non-zero layout.
                let b = unsafe { Heap.alloc_zeroed(l(500)) };
                free(a, 1000);
                // SAFETY: `b` is a live block of this layout.
                unsafe { Heap.realloc(b, l(500), 5000) }
            });
            assert_eq!(w.peak(), 5000, "1500 at once, then 5000 after the realloc");
            assert_eq!(call, Some(5000), "the call's own peak");
            // Made outside a watched call: not seen, and its free is not either.
            free(alloc(1 << 16), 1 << 16);
            let ((), call) = watched(|| {
                // Frees a block made before the call: counts against it.
                free(outside, 1 << 20);
                free(alloc(3000), 3000);
            });
            assert_eq!(call, Some(0), "never above what it held at its start");
            assert_eq!(w.peak(), 5000, "the most of any one call");
            let ((), call) = watched(|| free(kept, 5000));
            assert_eq!(call, Some(0));
            let (e, call) = watched(|| alloc(8000));
            assert_eq!((w.peak(), call), (8000, Some(8000)));
            let ((), call) = watched(|| free(alloc(200), 200));
            assert_eq!(call, Some(200), "each call from 0, whatever came before");
            free(e, 8000);
            drop(w);
            // No watch: calls are not recorded.
            let (b, call) = watched(|| alloc(1 << 20));
            assert_eq!(call, None);
            free(b, 1 << 20);
            assert_eq!(watch().peak(), 0);
        })
        .join()
        .unwrap();
        // The test binary's allocator is the system's: nothing goes through `Heap`.
        assert!(!counts());
    }
}
