//! The CPU's own counters around each timed call (`--measure
//! cycles,instructions,branch-misses`), read through Linux's
//! `perf_event_open` where the machine offers them: each worker thread opens
//! one group of counters for itself, user-space only, resets and enables it
//! just before the call's clock starts and disables it just after the clock
//! stops. What the clock reads and the switching cost is counted once on an
//! empty call and taken off. `task-clock`, the kernel's count of the
//! thread's time on a CPU, is a software counter: it works where hardware
//! ones do not (most virtual machines and CI runners).
//!
//! Unlike callgrind's counts (see [`crate::callgrind`]), these come from the
//! machine itself: cycles and branch misses are what time is made of, and
//! move a little from run to run.

use perf_event::events::{Hardware, Software};
use perf_event::{Builder, Counter, Group};
use std::cell::RefCell;
use std::sync::atomic::{AtomicU8, Ordering};

/// A counter `--measure` can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// CPU cycles spent in the call.
    Cycles,
    /// Instructions the CPU retired in it.
    Instructions,
    /// Branches it mispredicted.
    BranchMisses,
    /// Nanoseconds the thread ran on a CPU during it (a software counter).
    TaskClock,
}

impl Event {
    /// Every counter, in [`Event::WORDS`]'s order.
    pub const ALL: [Event; 4] = [
        Event::Cycles,
        Event::Instructions,
        Event::BranchMisses,
        Event::TaskClock,
    ];
    /// Their names, as `perf stat` spells them.
    pub const WORDS: [&'static str; 4] = ["cycles", "instructions", "branch-misses", "task-clock"];

    fn bit(self) -> u8 {
        1 << self as u8
    }

    fn builder(self) -> Builder<'static> {
        match self {
            Event::Cycles => Builder::new(Hardware::CPU_CYCLES),
            Event::Instructions => Builder::new(Hardware::INSTRUCTIONS),
            Event::BranchMisses => Builder::new(Hardware::BRANCH_MISSES),
            Event::TaskClock => Builder::new(Software::TASK_CLOCK),
        }
    }
}

crate::words_of!(Event, "a counter");

/// A set of counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Events(u8);

impl Events {
    /// The set of `list`.
    pub fn of(list: &[Event]) -> Events {
        Events(list.iter().fold(0, |b, e| b | e.bit()))
    }

    /// True when `e` is in the set.
    pub fn contains(self, e: Event) -> bool {
        self.0 & e.bit() != 0
    }

    /// The counters of the set, in [`Event::ALL`]'s order.
    pub fn iter(self) -> impl Iterator<Item = Event> {
        Event::ALL.into_iter().filter(move |e| self.contains(*e))
    }

    /// True for the empty set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::fmt::Display for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words: Vec<String> = self.iter().map(|e| e.to_string()).collect();
        f.write_str(&words.join(","))
    }
}

impl std::str::FromStr for Events {
    type Err = crate::words::UnknownWord;

    /// A comma-separated list of counter names.
    fn from_str(text: &str) -> Result<Events, Self::Err> {
        let list: Vec<Event> = text
            .split(',')
            .map(|w| w.trim().parse())
            .collect::<Result<_, _>>()?;
        Ok(Events::of(&list))
    }
}

/// What was counted of one call: instructions (callgrind's exact count, or
/// the CPU's), the CPU's cycles, branch misses and the thread's CPU time,
/// and a built-in's peak heap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Instructions.
    pub instructions: Option<u64>,
    /// CPU cycles.
    pub cycles: Option<u64>,
    /// Mispredicted branches.
    pub branch_misses: Option<u64>,
    /// Nanoseconds on a CPU.
    pub task_clock_ns: Option<u64>,
    /// The most heap bytes a built-in's call held at once, when the run
    /// watches its heap (see [`crate::callgrind::watched`]).
    pub heap_bytes: Option<u64>,
}

impl Counts {
    /// The count of `e`.
    pub fn get(&self, e: Event) -> Option<u64> {
        match e {
            Event::Cycles => self.cycles,
            Event::Instructions => self.instructions,
            Event::BranchMisses => self.branch_misses,
            Event::TaskClock => self.task_clock_ns,
        }
    }

    fn slot(&mut self, e: Event) -> &mut Option<u64> {
        match e {
            Event::Cycles => &mut self.cycles,
            Event::Instructions => &mut self.instructions,
            Event::BranchMisses => &mut self.branch_misses,
            Event::TaskClock => &mut self.task_clock_ns,
        }
    }
}

/// Why the counters cannot be read here.
#[derive(Debug, thiserror::Error)]
#[error("--measure {events}: this machine does not count {event} for a thread ({why}); --measure instructions counts instructions exactly, under valgrind, on any machine")]
pub struct PerfError {
    /// The counters asked for.
    pub events: Events,
    /// The first that failed.
    pub event: Event,
    /// What the kernel said.
    pub why: String,
}

/// The counters of this process (0: it reads none).
static EVENTS: AtomicU8 = AtomicU8::new(0);

/// One thread's open counters, and what an empty call counts: the CPU's
/// in one group (scheduled together, user space only), the task clock
/// apart (a software clock in a group is read stale, and counts nothing
/// with the kernel left out).
struct Open {
    group: Option<Group>,
    members: Vec<(Event, Counter)>,
    clock: Option<Counter>,
    overhead: Counts,
}

thread_local! {
    /// This thread's group, opened at its first counted call.
    static GROUP: RefCell<Option<Result<Open, String>>> = const { RefCell::new(None) };
}

/// Checks that `events` can be counted on this machine, opening them once.
pub fn check(events: Events) -> Result<(), PerfError> {
    open(events).map(drop)
}

/// Checks `events` ([`check`]) and makes every later timed call in this
/// process read them.
pub fn start(events: Events) -> Result<(), PerfError> {
    check(events)?;
    EVENTS.store(events.0, Ordering::Relaxed);
    Ok(())
}

/// The counters this process reads around each call (empty: none).
pub fn events() -> Events {
    Events(EVENTS.load(Ordering::Relaxed))
}

/// A group of `events` for the calling thread, user space only, disabled.
fn open(events: Events) -> Result<Open, PerfError> {
    let failed = |event, e: std::io::Error| PerfError {
        events,
        event,
        why: explain(&e),
    };
    let first = events.iter().next().unwrap_or(Event::TaskClock);
    let cpu: Vec<Event> = events.iter().filter(|e| *e != Event::TaskClock).collect();
    let mut group = None;
    let mut members = Vec::new();
    if let Some(&lead) = cpu.first() {
        let g = group.insert(Group::new().map_err(|e| failed(lead, e))?);
        for &e in &cpu {
            let mut b = e.builder();
            b.observe_self()
                .any_cpu()
                .exclude_kernel(true)
                .exclude_hv(true);
            members.push((e, g.add(&b).map_err(|err| failed(e, err))?));
        }
    }
    let clock = match events.contains(Event::TaskClock) {
        true => Some(
            Event::TaskClock
                .builder()
                .observe_self()
                .any_cpu()
                .build()
                .map_err(|e| failed(Event::TaskClock, e))?,
        ),
        false => None,
    };
    let mut open = Open {
        group,
        members,
        clock,
        overhead: Counts::default(),
    };
    // What switching the group and reading the clock count: the least of a
    // few empty calls.
    let mut least = Counts::default();
    for _ in 0..5 {
        let (_, c) = open.around(|| (std::time::Instant::now(), std::time::Instant::now()));
        let c = c.map_err(|why| PerfError {
            events,
            event: first,
            why,
        })?;
        for e in events.iter() {
            let v = c.get(e);
            let slot = least.slot(e);
            *slot = match (*slot, v) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
    }
    open.overhead = least;
    Ok(open)
}

/// The kernel's error in words, with the setting that refuses it.
fn explain(e: &std::io::Error) -> String {
    let paranoid = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".into());
    match e.raw_os_error() {
        Some(libc::ENOENT) | Some(libc::EOPNOTSUPP) | Some(libc::ENODEV) => format!(
            "perf_event_open: {e}: no such counter, as in most virtual machines and CI runners"
        ),
        Some(libc::EACCES) | Some(libc::EPERM) => format!(
            "perf_event_open: {e}: kernel.perf_event_paranoid is {paranoid}; 2 or lower lets a process count itself"
        ),
        _ => format!("perf_event_open: {e}"),
    }
}

impl Open {
    /// Runs `f` with the counters counting, and reads them.
    fn around<T>(&mut self, f: impl FnOnce() -> T) -> (T, Result<Counts, String>) {
        let mut on = Ok(());
        if let Some(g) = &mut self.group {
            on = on.and(g.reset()).and(g.enable());
        }
        if let Some(c) = &mut self.clock {
            on = on.and(c.reset()).and(c.enable());
        }
        let out = f();
        let mut off = Ok(());
        if let Some(c) = &mut self.clock {
            off = off.and(c.disable());
        }
        if let Some(g) = &mut self.group {
            off = off.and(g.disable());
        }
        (
            out,
            on.and(off)
                .map_err(|e| e.to_string())
                .and_then(|()| self.read()),
        )
    }

    /// The counts since the counters were reset, less the overhead.
    fn read(&mut self) -> Result<Counts, String> {
        let mut c = Counts::default();
        if let Some(g) = &mut self.group {
            let data = g
                .read()
                .map_err(|e| format!("reading the CPU's counters: {e}"))?;
            if data.time_running() < data.time_enabled() {
                return Err("the CPU's counters were shared with another program during the call: its counts are incomplete".into());
            }
            for (e, counter) in &self.members {
                *c.slot(*e) = data.get(counter).map(|v| v.value());
            }
        }
        if let Some(clock) = &mut self.clock {
            let ns = clock
                .read()
                .map_err(|e| format!("reading the task clock: {e}"))?;
            c.task_clock_ns = Some(ns);
        }
        for e in Event::ALL {
            let least = self.overhead.get(e).unwrap_or(0);
            if let Some(v) = c.slot(e) {
                *v = v.saturating_sub(least);
            }
        }
        Ok(c)
    }
}

/// Runs `f`, reading the process's counters around it when it reads any
/// (`None` otherwise); the calling thread's group is opened at its first call.
pub fn around<T>(f: impl FnOnce() -> T) -> (T, Option<Result<Counts, String>>) {
    let events = events();
    if events.is_empty() {
        return (f(), None);
    }
    GROUP.with(|g| {
        let mut g = g.borrow_mut();
        let open = g.get_or_insert_with(|| open(events).map_err(|e| e.to_string()));
        match open {
            Ok(open) => {
                let (out, counts) = open.around(f);
                (out, Some(counts))
            }
            Err(why) => (f(), Some(Err(why.clone()))),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_lists_read_and_write_in_one_order() {
        let e: Events = "branch-misses,cycles".parse().unwrap();
        assert_eq!(e.to_string(), "cycles,branch-misses");
        assert!(e.contains(Event::Cycles) && !e.contains(Event::Instructions));
        let err = "cycles,cache-misses".parse::<Events>().unwrap_err();
        assert!(err.to_string().contains("cache-misses"), "{err}");
        assert!(err.to_string().contains("task-clock"), "{err}");
    }

    #[test]
    fn the_task_clock_counts_a_call_or_says_why_not() {
        // A software counter: every Linux kernel has it, unless a sandbox
        // forbids perf_event_open altogether, when the refusal says why.
        let events = Events::of(&[Event::TaskClock]);
        match open(events) {
            Ok(mut open) => {
                let (_, c) = open.around(|| {
                    let t = std::time::Instant::now();
                    while t.elapsed() < std::time::Duration::from_millis(2) {}
                });
                let ns = c.unwrap().task_clock_ns.unwrap();
                // Busy for 2 ms of wall time: on a CPU for some of it, and
                // never for longer than the call lasted plus a tick.
                assert!(ns > 0 && ns < 60_000_000, "{ns} ns");
            }
            Err(e) => assert!(e.to_string().contains("--measure instructions"), "{e}"),
        }
    }
}
