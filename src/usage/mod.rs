//! What a contender used beside the wall clock: CPU time and peak memory,
//! read from the operating system (Linux: the thread's CPU clock, and
//! `/proc/PID/stat` and `/proc/PID/status` for a program's process).

mod limit;
pub use limit::{
    parse_memory_limit, parse_size, says_out_of_memory, size_words, Cage, LimitBy, MemoryLimit,
};

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

pub use sudoku_solvers::clock::thread_cpu;

/// A process's CPU clock: the CPU time of every thread of it, to the
/// nanosecond (`clock_getcpuclockid`), readable from outside it. It does not
/// take in the children the process waits for; [`process_cpu`] does, in
/// whole clock ticks.
#[derive(Clone, Copy, Debug)]
pub struct ProcessClock(libc::clockid_t);

impl ProcessClock {
    /// The CPU clock of process `pid`; `None` where the system gives none.
    pub fn of(pid: u32) -> Option<ProcessClock> {
        let mut id: libc::clockid_t = 0;
        // SAFETY: clock_getcpuclockid writes one clockid_t, which `id` is.
        let ok = unsafe { libc::clock_getcpuclockid(pid as libc::pid_t, &mut id) } == 0;
        ok.then_some(ProcessClock(id))
    }

    /// The process's CPU time so far; `None` once it is gone.
    pub fn read(&self) -> Option<Duration> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec, which `ts` is.
        let ok = unsafe { libc::clock_gettime(self.0, &mut ts) } == 0;
        ok.then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
}

/// The kernel's clock tick, what [`process_cpu`] counts in (10 ms on most
/// Linux systems).
pub fn clock_tick() -> Duration {
    Duration::from_secs_f64(1.0 / clock_ticks())
}

/// CPU time (user and system, every thread) of process `pid` so far, and
/// of the children it has waited for (a program that forks helpers and
/// joins them), from `/proc/PID/stat` at the clock tick's resolution
/// (10 ms on most Linux systems); `None` once the process is gone, or off
/// Linux.
pub fn process_cpu(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name, in parentheses, may hold spaces: count after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime, stime, cutime and cstime are fields 14 to 17 of the line, 12
    // to 15 after ')'.
    let mut ticks = 0u64;
    for i in 11..15 {
        ticks += fields.get(i)?.parse::<u64>().ok()?;
    }
    Some(Duration::from_secs_f64(ticks as f64 / clock_ticks()))
}

/// Peak resident memory of process `pid` in bytes (`VmHWM`), `None` once it
/// is gone, or off Linux.
pub fn process_peak(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf reads a constant.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as f64
    } else {
        100.0
    }
}

/// The cores this process may use: the default worker count.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Worker threads a command may be given per core ([`most_threads`]).
pub const THREADS_A_CORE: usize = 4;
/// Worker threads any machine may be given, however few its cores.
pub const THREADS_FLOOR: usize = 16;

/// The most worker threads a command takes (`--threads`) on a machine of
/// `cores` cores: [`THREADS_A_CORE`] a core, and [`THREADS_FLOOR`] on any
/// machine. Past the cores, threads only take turns: a few times the cores
/// is enough to see a scaling curve flatten and bend, and a small machine
/// can still run `--threads 1,2,4,8,16`. Thousands (each with its stack,
/// and with an outside program's process beside each worker) stop a run
/// from finishing and can exhaust the memory or the process table.
pub fn most_threads(cores: usize) -> usize {
    cores.saturating_mul(THREADS_A_CORE).max(THREADS_FLOOR)
}

/// How [`most_threads`] came to its figure, in words.
fn why_most(cores: usize) -> String {
    let cores_word = if cores == 1 { "core" } else { "cores" };
    let by_cores = cores.saturating_mul(THREADS_A_CORE);
    if by_cores >= THREADS_FLOOR {
        format!("{THREADS_A_CORE} a core on its {cores} {cores_word}")
    } else {
        format!("{THREADS_A_CORE} a core on its {cores} {cores_word} is {by_cores}, raised to the {THREADS_FLOOR} every machine may take")
    }
}

/// More worker threads than a machine takes ([`most_threads`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{threads} threads is more than this machine takes: at most {most} ({}); past the cores threads only take turns, and thousands stop a run from finishing", why_most(*cores)
)]
pub struct TooManyThreads {
    /// The threads asked for.
    pub threads: usize,
    /// The machine's cores.
    pub cores: usize,
    /// The most it takes.
    pub most: usize,
}

/// `threads`, when a machine of `cores` cores takes that many
/// ([`most_threads`]).
pub fn check_threads(threads: usize, cores: usize) -> Result<usize, TooManyThreads> {
    let most = most_threads(cores);
    if threads > most {
        return Err(TooManyThreads {
            threads,
            cores,
            most,
        });
    }
    Ok(threads)
}

/// The processors this process may run on, in order (`sched_getaffinity`):
/// with `--pin`, worker `i` takes the `i`-th of them.
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: a zeroed cpu_set_t is an empty set; sched_getaffinity fills it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// Restricts thread `tid` (0: the calling thread) to processor `cpu`.
pub fn pin(tid: i32, cpu: usize) -> bool {
    // SAFETY: as in `allowed_cpus`; sched_setaffinity reads the set.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(tid, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

/// The one processor the calling thread is pinned to, if it is pinned to one.
pub fn pinned_cpu() -> Option<usize> {
    match allowed_cpus().as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// Restricts every thread of process `pid` to processor `cpu` (threads it
/// starts later inherit it).
pub fn pin_process(pid: u32, cpu: usize) {
    match std::fs::read_dir(format!("/proc/{pid}/task")) {
        Ok(tasks) => {
            for t in tasks.flatten() {
                if let Some(tid) = t.file_name().to_str().and_then(|s| s.parse().ok()) {
                    pin(tid, cpu);
                }
            }
        }
        Err(_) => {
            pin(pid as i32, cpu);
        }
    }
}

/// What [`activity`] read of a process and its descendants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Activity {
    /// Every thread sleeps (state `S`: waiting on a read, a lock, a child or
    /// a timer).
    pub asleep: bool,
    /// Some thread waits for input: blocked in a read of its stdin, or in
    /// `poll`, `select` or `epoll_wait` (an event loop). A thread asleep in
    /// a timer (`sleep`) does not count.
    pub reading: bool,
    /// The kernel said which call each sleeping thread is in
    /// (`/proc/PID/task/TID/syscall`); without that, `reading` is false and
    /// means nothing.
    pub calls_known: bool,
    /// Time those threads have run so far, ns.
    pub ran_ns: u64,
}

/// The system calls a thread waits for input in, on this architecture:
/// `read` and `readv` (of fd 0 only), then the polls.
#[cfg(target_arch = "x86_64")]
const INPUT_CALLS: (&[u64], &[u64]) = (&[0, 19], &[7, 23, 232, 270, 271, 281, 441]);
#[cfg(target_arch = "aarch64")]
const INPUT_CALLS: (&[u64], &[u64]) = (&[63, 65], &[22, 72, 73, 441]);
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const INPUT_CALLS: (&[u64], &[u64]) = (&[], &[]);

/// Whether a thread's `/proc/.../syscall` line shows it waiting for input;
/// `None` when the line says nothing (`running`, or no such file).
fn waits_for_input(line: &str) -> Option<bool> {
    let mut words = line.split_whitespace();
    let nr: u64 = words.next()?.parse().ok()?;
    let fd = words
        .next()
        .and_then(|w| u64::from_str_radix(w.trim_start_matches("0x"), 16).ok());
    let (reads, polls) = INPUT_CALLS;
    Some((reads.contains(&nr) && fd == Some(0)) || polls.contains(&nr))
}

/// What process `pid` and its descendants are doing (see [`Activity`]),
/// from `/proc/PID/task/*/{stat,schedstat,syscall,children}` (the run
/// time at the clock tick's resolution from `stat` where the kernel keeps
/// no schedstat); `None` when it cannot be read (the process is gone, or
/// off Linux). A wrapper script that waits for the solver it started is
/// asleep; the solver is looked at too.
pub fn activity(pid: u32) -> Option<Activity> {
    let mut a = Activity {
        asleep: true,
        calls_known: true,
        ..Activity::default()
    };
    let mut todo = vec![pid];
    let mut seen = 0;
    while let Some(p) = todo.pop() {
        seen += 1;
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else {
            // The first is the program itself; a child may end as it is read.
            if p == pid {
                return None;
            }
            continue;
        };
        for t in tasks.flatten() {
            let dir = t.path();
            let Ok(stat) = std::fs::read_to_string(dir.join("stat")) else {
                continue;
            };
            let rest = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let sleeping = fields.first() == Some(&"S");
            a.asleep &= sleeping;
            if sleeping {
                match std::fs::read_to_string(dir.join("syscall"))
                    .ok()
                    .and_then(|l| waits_for_input(&l))
                {
                    Some(input) => a.reading |= input,
                    None => a.calls_known = false,
                }
            }
            a.ran_ns += match std::fs::read_to_string(dir.join("schedstat")) {
                Ok(text) => text
                    .split_whitespace()
                    .next()
                    .and_then(|f| f.parse().ok())
                    .unwrap_or(0),
                // utime and stime: fields 14 and 15, 12 and 13 after ')'.
                Err(_) => {
                    let ticks: u64 = (11..13)
                        .filter_map(|i| fields.get(i).and_then(|f| f.parse::<u64>().ok()))
                        .sum();
                    (ticks as f64 / clock_ticks() * 1e9) as u64
                }
            };
            if seen < 64 {
                if let Ok(kids) = std::fs::read_to_string(dir.join("children")) {
                    todo.extend(
                        kids.split_whitespace()
                            .filter_map(|k| k.parse::<u32>().ok()),
                    );
                }
            }
        }
    }
    Some(a)
}

/// CPU time and peak memory of a contender's processes, added up as each
/// is read (see [`Tracked`]).
#[derive(Debug, Default)]
pub struct Usage {
    cpu_ns: AtomicU64,
    peak: AtomicU64,
    /// CPU time inside the calls' windows ([`Usage::add_call`]), ns.
    call_cpu_ns: AtomicU64,
    /// The calls' windows, wall time, ns.
    call_wall_ns: AtomicU64,
}

/// The CPU time a contender's processes used inside its calls, and the
/// wall time of those calls: the same windows, each CPU reading taken
/// inside its wall window, so that a process of one thread can never read
/// more CPU than wall time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallUse {
    /// CPU time inside the windows (every thread of the process).
    pub cpu: Duration,
    /// The windows' wall time.
    pub wall: Duration,
}

impl Usage {
    /// CPU time counted so far.
    pub fn cpu(&self) -> Duration {
        Duration::from_nanos(self.cpu_ns.load(Ordering::Relaxed))
    }

    /// The highest peak resident memory of any process, in bytes.
    pub fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }

    /// Adds one call's window: `cpu` of the process's CPU clock read inside
    /// `wall` of wall time.
    pub fn add_call(&self, cpu: Duration, wall: Duration) {
        let ns = |d: Duration| d.as_nanos().min(u64::MAX as u128) as u64;
        self.call_cpu_ns.fetch_add(ns(cpu), Ordering::Relaxed);
        self.call_wall_ns.fetch_add(ns(wall), Ordering::Relaxed);
    }

    /// The calls' windows added so far.
    pub fn calls(&self) -> CallUse {
        CallUse {
            cpu: Duration::from_nanos(self.call_cpu_ns.load(Ordering::Relaxed)),
            wall: Duration::from_nanos(self.call_wall_ns.load(Ordering::Relaxed)),
        }
    }

    /// Raises the peak to `bytes` (a process's cgroup's, read apart).
    pub fn note_peak(&self, bytes: u64) {
        self.peak.fetch_max(bytes, Ordering::Relaxed);
    }
}

/// One process's part of a [`Usage`]: what it has added so far.
#[derive(Debug, Default)]
pub struct Tracked {
    counted: Duration,
}

impl Tracked {
    /// Adds what process `pid` used since the last reading to `usage`.
    pub fn read(&mut self, pid: u32, usage: &Usage) {
        if let Some(cpu) = process_cpu(pid) {
            let more = cpu.saturating_sub(self.counted);
            self.counted = self.counted.max(cpu);
            usage
                .cpu_ns
                .fetch_add(more.as_nanos() as u64, Ordering::Relaxed);
        }
        if let Some(peak) = process_peak(pid) {
            usage.peak.fetch_max(peak, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_thread_and_process_show_their_use() {
        let before = thread_cpu();
        // Work that no optimiser can skip.
        let mut x = 1u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
        }
        assert!(std::hint::black_box(x) != 0 || x == 0);
        assert!(thread_cpu() > before, "the thread's CPU clock moves");
        let me = std::process::id();
        assert!(process_cpu(me).is_some());
        assert!(
            process_peak(me).unwrap() > 1 << 20,
            "a process holds over 1 MB"
        );
        assert_eq!(process_cpu(u32::MAX), None, "no such process");
        let clock = ProcessClock::of(me).unwrap();
        let (a, b) = (clock.read().unwrap(), clock.read().unwrap());
        assert!(b >= a && a > Duration::ZERO, "{a:?} then {b:?}");
        // Past the largest process id Linux gives (2^22).
        let gone = ProcessClock::of(4_194_305).and_then(|c| c.read());
        assert_eq!(gone, None, "no such process");
    }

    #[test]
    fn calls_add_up_their_windows() {
        let u = Usage::default();
        u.add_call(Duration::from_micros(3), Duration::from_micros(5));
        u.add_call(Duration::from_micros(4), Duration::from_micros(5));
        let c = u.calls();
        assert_eq!(
            (c.cpu, c.wall),
            (Duration::from_micros(7), Duration::from_micros(10))
        );
    }
}
