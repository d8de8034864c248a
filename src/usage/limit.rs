//! A memory limit for each process a contender runs in (`--memory-limit`),
//! set the way the machine allows: a cgroup of its own (v2's `memory.max`,
//! else v1's `memory.limit_in_bytes`), where this process may make one,
//! else `RLIMIT_DATA`. A cgroup counts every page the process and its
//! children hold and says when its limit killed them; an rlimit caps the
//! process's data segment and heap mappings (not its stack or code), and a
//! process over it sees an allocation fail, which it reports its own way.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// How a [`MemoryLimit`] is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitBy {
    /// A cgroup v2 of its own per process, `memory.max` (swap off:
    /// `memory.swap.max` 0).
    CgroupV2,
    /// A cgroup v1 of its own per process, `memory.limit_in_bytes` (and
    /// `memory.memsw.limit_in_bytes`, where swap is accounted).
    CgroupV1,
    /// `setrlimit(RLIMIT_DATA)` in the process before it starts.
    Rlimit,
}

impl LimitBy {
    /// The words `run.json` and the reports use.
    pub fn word(self) -> &'static str {
        match self {
            LimitBy::CgroupV2 => "cgroup v2 (memory.max)",
            LimitBy::CgroupV1 => "cgroup v1 (memory.limit_in_bytes)",
            LimitBy::Rlimit => "rlimit (RLIMIT_DATA)",
        }
    }
}

/// A limit on each contender process's memory, and where its cgroups go.
#[derive(Debug)]
pub struct MemoryLimit {
    /// The limit, bytes.
    pub bytes: u64,
    /// How it is set.
    pub by: LimitBy,
    /// The cgroup the processes' cgroups are made in (none for an rlimit).
    parent: Option<PathBuf>,
}

/// Processes given a cgroup so far: names them apart.
static CAGES: AtomicU64 = AtomicU64::new(0);

impl MemoryLimit {
    /// A limit of `bytes` by the first way that works here: a cgroup of
    /// this process's v2 hierarchy, else of its v1 memory hierarchy, else
    /// an rlimit. `SUDOKU_BENCH_MEMORY_LIMIT_BY=rlimit` skips the cgroups.
    pub fn new(bytes: u64) -> MemoryLimit {
        let rlimit_only = std::env::var("SUDOKU_BENCH_MEMORY_LIMIT_BY").as_deref() == Ok("rlimit");
        let found = [LimitBy::CgroupV2, LimitBy::CgroupV1]
            .into_iter()
            .filter(|_| !rlimit_only)
            .find_map(|by| {
                let parent = own_cgroup(by)?;
                let limit = MemoryLimit {
                    bytes,
                    by,
                    parent: Some(parent),
                };
                // One made and removed: the hierarchy lets this process write.
                limit.cage().ok().map(|_| limit)
            });
        found.unwrap_or(MemoryLimit {
            bytes,
            by: LimitBy::Rlimit,
            parent: None,
        })
    }

    /// A cage for one process: its cgroup made and limited now (an rlimit
    /// needs nothing here). Put the process in it with [`Cage::enter`].
    pub fn cage(&self) -> io::Result<Cage> {
        let Some(parent) = &self.parent else {
            return Ok(Cage {
                dir: None,
                procs: None,
                bytes: self.bytes,
                by: self.by,
            });
        };
        let n = CAGES.fetch_add(1, Ordering::Relaxed);
        let dir = parent.join(format!("sudoku-bench-{}-{n}", std::process::id()));
        std::fs::create_dir(&dir)?;
        let mut cage = Cage {
            dir: Some(dir.clone()),
            procs: None,
            bytes: self.bytes,
            by: self.by,
        };
        let bytes = self.bytes.to_string();
        match self.by {
            LimitBy::CgroupV2 => {
                std::fs::write(dir.join("memory.max"), &bytes)?;
                // No swap to spill into, where swap is accounted.
                let _ = std::fs::write(dir.join("memory.swap.max"), "0");
            }
            _ => {
                std::fs::write(dir.join("memory.limit_in_bytes"), &bytes)?;
                let memsw = dir.join("memory.memsw.limit_in_bytes");
                if memsw.exists() {
                    std::fs::write(memsw, &bytes)?;
                }
            }
        }
        cage.procs = Some(
            std::fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))?,
        );
        Ok(cage)
    }
}

/// Kills every process left in cgroup `dir`: all at once where the kernel
/// has `cgroup.kill` (v2, Linux 5.14), else each process it lists.
fn end_cgroup(dir: &Path) {
    if std::fs::write(dir.join("cgroup.kill"), "1").is_ok() {
        return;
    }
    for _ in 0..10 {
        let Ok(text) = std::fs::read_to_string(dir.join("cgroup.procs")) else {
            return;
        };
        let pids: Vec<i32> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
        if pids.is_empty() {
            return;
        }
        for pid in pids {
            // SAFETY: kill sends a signal; no memory is touched.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// The limit for one process: its cgroup (removed when the cage drops,
/// after the process has ended), or its rlimit.
#[derive(Debug)]
pub struct Cage {
    dir: Option<PathBuf>,
    procs: Option<File>,
    bytes: u64,
    by: LimitBy,
}

impl Cage {
    /// Makes `cmd`'s process enter the cage as it starts, before it runs
    /// the program: it writes itself into the cgroup, or sets its rlimit.
    pub fn enter(&self, cmd: &mut std::process::Command) {
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        let procs = self.procs.as_ref().map(|f| f.as_raw_fd());
        let bytes = self.bytes;
        // SAFETY: the closure runs in the child between fork and exec and
        // calls only async-signal-safe functions (write, setrlimit) on a
        // descriptor and values made before the fork.
        unsafe {
            cmd.pre_exec(move || {
                match procs {
                    Some(fd) => {
                        // "0": the writing process itself.
                        if libc::write(fd, b"0\n".as_ptr().cast(), 2) != 2 {
                            return Err(io::Error::last_os_error());
                        }
                    }
                    None => {
                        let lim = libc::rlimit {
                            rlim_cur: bytes as libc::rlim_t,
                            rlim_max: bytes as libc::rlim_t,
                        };
                        if libc::setrlimit(libc::RLIMIT_DATA, &lim) != 0 {
                            return Err(io::Error::last_os_error());
                        }
                    }
                }
                Ok(())
            });
        }
    }

    /// True when the limit stopped the caged process: its cgroup's OOM
    /// killer killed it (v1's `oom_kill` in `memory.oom_control`, or its
    /// `memory.failcnt` on kernels without it; v2's `oom_kill` in
    /// `memory.events`). An rlimit cannot tell: see [`says_out_of_memory`].
    pub fn hit(&self) -> Option<bool> {
        let dir = self.dir.as_ref()?;
        let count = |file: &str, key: &str| -> Option<u64> {
            let text = std::fs::read_to_string(dir.join(file)).ok()?;
            text.lines()
                .find_map(|l| l.strip_prefix(key)?.trim().parse().ok())
        };
        Some(match self.by {
            LimitBy::CgroupV2 => count("memory.events", "oom_kill ")? > 0,
            _ => match count("memory.oom_control", "oom_kill ") {
                Some(n) => n > 0,
                None => {
                    let fails = std::fs::read_to_string(dir.join("memory.failcnt")).ok()?;
                    fails.trim().parse::<u64>().ok()? > 0
                }
            },
        })
    }

    /// The most memory the cgroup held (v1's `memory.max_usage_in_bytes`,
    /// v2's `memory.peak`): the process and its children together.
    pub fn peak(&self) -> Option<u64> {
        let file = match self.by {
            LimitBy::CgroupV2 => "memory.peak",
            LimitBy::CgroupV1 => "memory.max_usage_in_bytes",
            LimitBy::Rlimit => return None,
        };
        let text = std::fs::read_to_string(self.dir.as_ref()?.join(file)).ok()?;
        text.trim().parse().ok()
    }

    /// The limit in words, as a `memory` row names it: `256 MiB, by cgroup
    /// v1 (memory.limit_in_bytes)`.
    pub fn describe(&self) -> String {
        format!("{}, by {}", size_words(self.bytes), self.by.word())
    }
}

impl Drop for Cage {
    fn drop(&mut self) {
        self.procs = None;
        if let Some(dir) = &self.dir {
            end_cgroup(dir);
            // Empty once its process is reaped: a moment after a kill.
            for _ in 0..50 {
                if std::fs::remove_dir(dir).is_ok() {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        }
    }
}

/// This process's cgroup in hierarchy `by`, as a folder, when it exists
/// and takes a memory limit for cgroups made in it.
fn own_cgroup(by: LimitBy) -> Option<PathBuf> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    // mountinfo: "... MOUNT_POINT OPTIONS ... - FSTYPE SOURCE SUPER_OPTIONS".
    let mount = mounts.lines().find_map(|l| {
        let (left, right) = l.split_once(" - ")?;
        let point = left.split_whitespace().nth(4)?;
        let mut r = right.split_whitespace();
        let fs = r.next()?;
        let opts = r.nth(1).unwrap_or("");
        let wanted = match by {
            LimitBy::CgroupV2 => fs == "cgroup2",
            _ => fs == "cgroup" && opts.split(',').any(|o| o == "memory"),
        };
        wanted.then(|| PathBuf::from(point))
    })?;
    let path = text.lines().find_map(|l| {
        let mut f = l.splitn(3, ':');
        let (_, controllers, path) = (f.next()?, f.next()?, f.next()?);
        let wanted = match by {
            LimitBy::CgroupV2 => controllers.is_empty(),
            _ => controllers.split(',').any(|c| c == "memory"),
        };
        wanted.then_some(path)
    })?;
    let dir = mount.join(path.trim_start_matches('/'));
    if by == LimitBy::CgroupV2 {
        let on = std::fs::read_to_string(dir.join("cgroup.subtree_control")).ok()?;
        if !on.split_whitespace().any(|c| c == "memory") {
            return None;
        }
    }
    dir.is_dir().then_some(dir)
}

/// True when a program's last words say an allocation failed: how a
/// process over an rlimit ends (Rust's `memory allocation of N bytes
/// failed`, C++'s `std::bad_alloc`, Python's `MemoryError`, the JVM's
/// `OutOfMemoryError`, Go's `out of memory`, C's `Cannot allocate memory`).
pub fn says_out_of_memory(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    [
        "memory allocation of",
        "bad_alloc",
        "memoryerror",
        "outofmemoryerror",
        "out of memory",
        "cannot allocate memory",
    ]
    .iter()
    .any(|w| t.contains(w))
}

/// A size in bytes as people write it: `256 MiB`, `1.5 GiB`, `900 B`.
pub fn size_words(bytes: u64) -> String {
    let units = [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in units {
        if bytes >= size {
            let v = bytes as f64 / size as f64;
            return if (v - v.round()).abs() < 0.05 {
                format!("{:.0} {unit}", v)
            } else {
                format!("{v:.1} {unit}")
            };
        }
    }
    format!("{bytes} B")
}

/// The smallest `--memory-limit`: below it no program could even start.
pub const MIN_MEMORY_LIMIT: u64 = 1 << 20;

/// Reads `--memory-limit`: a size ([`parse_size`]) of at least 1 MiB.
pub fn parse_memory_limit(text: &str) -> Result<u64, String> {
    let bytes = parse_size(text)?;
    if bytes < MIN_MEMORY_LIMIT {
        return Err(format!(
            "`{text}` is {bytes} bytes, too little for any program to start in: give 1M or more (a unit: K, M, G)"
        ));
    }
    Ok(bytes)
}

/// Reads a size as a person writes it: `64M`, `1G`, `512k`, `300MiB`,
/// `1000000` (bytes); powers of 1024.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let value: f64 = num
        .parse()
        .map_err(|_| format!("`{text}` is not a size: give a number and a unit, like 64M or 2G"))?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        other => {
            return Err(format!(
                "`{text}`: `{other}` is no size unit (give K, M, G or T)"
            ))
        }
    };
    let bytes = value * scale as f64;
    if !(bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err(format!("`{text}` is no size a limit can be"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_and_say_as_people_write_them() {
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("512kib"), Ok(512 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5Q").unwrap_err().contains("no size unit"));
        assert!(parse_size("0M").is_err());
        assert_eq!(size_words(256 << 20), "256 MiB");
        assert_eq!(size_words(3 << 29), "1.5 GiB");
        assert_eq!(size_words(900), "900 B");
        assert!(parse_memory_limit("64").unwrap_err().contains("too little"));
        assert_eq!(parse_memory_limit("1M"), Ok(1 << 20));
    }

    #[test]
    fn last_words_of_a_failed_allocation_are_known() {
        assert!(says_out_of_memory(
            "memory allocation of 1073741824 bytes failed"
        ));
        assert!(says_out_of_memory(
            "terminate called after throwing an instance of 'std::bad_alloc'"
        ));
        assert!(says_out_of_memory("MemoryError"));
        assert!(!says_out_of_memory("fixture: crashing on a listed puzzle"));
    }
}
