//! What a run leaves behind, ended on every exit path. Each process the
//! workbench starts ([`spawn`]) runs in a process group of its own, carries a
//! marker in its environment ([`OWNER_VAR`]) that its descendants inherit,
//! and is killed by the kernel if the workbench dies (`PR_SET_PDEATHSIG`).
//! Ending its [`Group`] kills the group and every process that still carries
//! its marker, `setsid` or double fork or not. Paths made for a run are
//! registered ([`remove_on_exit`]) so that an exit by a signal removes them;
//! [`signals`] hears SIGINT, SIGTERM and SIGHUP once for the whole process.

pub mod signals;

use std::collections::BTreeMap;
use std::io;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};

/// The environment variable that marks every process a run started, and
/// their descendants: `/`-separated tokens, one per workbench above it
/// (`PID-START.N`: the workbench's process id and start time, and the
/// number of the process it started).
pub const OWNER_VAR: &str = "SUDOKU_BENCH_OWNER";

/// How many times a sweep looks again for marked processes after killing
/// some (a dying process may have forked once more).
const SWEEPS: usize = 20;

static NEXT: AtomicU64 = AtomicU64::new(1);
static GROUPS: Mutex<BTreeMap<u64, i32>> = Mutex::new(BTreeMap::new());
/// Set once [`end_all`] has begun: nothing more is started.
static ENDING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
static PATHS: Mutex<BTreeMap<u64, PathBuf>> = Mutex::new(BTreeMap::new());

/// This process's own token prefix: `PID-START-NS` (its start time in
/// clock ticks since boot, so a reused process id is another owner; its
/// process-id namespace, so an id is never read in another's).
fn me() -> &'static str {
    static ME: OnceLock<String> = OnceLock::new();
    ME.get_or_init(|| {
        let pid = std::process::id();
        format!("{pid}-{}-{}", start_ticks(pid).unwrap_or(0), namespace())
    })
}

/// This process's process-id namespace, as the kernel numbers it
/// (`/proc/self/ns/pid` links to `pid:[NUMBER]`); 0 where it cannot be read.
fn namespace() -> u64 {
    std::fs::read_link("/proc/self/ns/pid")
        .ok()
        .and_then(|l| {
            let l = l.to_string_lossy().into_owned();
            l.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
        })
        .unwrap_or(0)
}

/// A process's start time in clock ticks since boot (`/proc/PID/stat`'s
/// field 22).
fn start_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// A started process's group and marker: dropping it (or [`Group::end`])
/// kills the process group and every process that carries the marker.
#[derive(Debug)]
pub struct Group {
    id: u64,
    pgid: i32,
    token: String,
}

impl Group {
    /// The marker its processes carry.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Kills what is left of the process's group and every process that
    /// still carries its marker; gives how many marked processes were found
    /// outside the group and killed.
    pub fn end(&self) -> usize {
        kill_group(self.pgid);
        sweep(|t| t == self.token)
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.end();
        crate::sync::lock(&GROUPS).remove(&self.id);
    }
}

fn kill_group(pgid: i32) {
    if pgid > 1 {
        // SAFETY: kill with a negative id signals a process group; no memory is touched.
        unsafe { libc::kill(-pgid, libc::SIGKILL) };
    }
}

/// Starts `cmd` tracked: in a process group of its own, marked, killed by
/// the kernel if this process dies. The fork happens on one thread that
/// lives as long as the process (the kernel's parent-death signal follows
/// the thread that forked). The [`Group`] ends what the child leaves.
pub fn spawn(mut cmd: Command) -> io::Result<(Child, Group)> {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    let own = format!("{}.{id}", me());
    cmd.env(
        OWNER_VAR,
        chain(std::env::var(OWNER_VAR).ok().as_deref(), &own),
    );
    cmd.process_group(0);
    // SAFETY: getpid has no preconditions.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the closure runs in the child between fork and exec and calls
    // only async-signal-safe functions (prctl, getppid) on plain values.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(io::Error::last_os_error());
            }
            // The parent died before the death signal was armed.
            if libc::getppid() != parent {
                return Err(io::Error::other(
                    "the workbench ended as the program started",
                ));
            }
            Ok(())
        });
    }
    // Held from the fork to the group's registration, so that `end_all`
    // (which sets ENDING, then lists the groups under this lock) either sees
    // this process or keeps it from starting.
    let mut groups = crate::sync::lock(&GROUPS);
    if ENDING.load(Ordering::SeqCst) {
        return Err(io::Error::other(
            "the workbench is ending: nothing more is started",
        ));
    }
    let child = forker(cmd)?;
    let pgid = child.id() as i32;
    groups.insert(id, pgid);
    drop(groups);
    Ok((
        child,
        Group {
            id,
            pgid,
            token: own,
        },
    ))
}

/// The marker of a process started here: the one this process inherited,
/// if any, then its own token.
fn chain(above: Option<&str>, own: &str) -> String {
    match above {
        Some(above) if !above.is_empty() => format!("{above}/{own}"),
        _ => own.to_string(),
    }
}

type Request = (Command, mpsc::Sender<io::Result<Child>>);

/// Spawns on the forking thread, which is started once and never ends.
fn forker(cmd: Command) -> io::Result<Child> {
    static TX: OnceLock<Mutex<mpsc::Sender<Request>>> = OnceLock::new();
    let tx = TX.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Request>();
        std::thread::Builder::new()
            .name("sudoku-bench-forker".into())
            .spawn(move || {
                for (mut cmd, back) in rx {
                    let _ = back.send(cmd.spawn());
                }
            })
            .expect("a thread for starting processes");
        Mutex::new(tx)
    });
    let (back, answer) = mpsc::channel();
    crate::sync::lock(tx)
        .send((cmd, back))
        .map_err(|_| io::Error::other("the forking thread is gone"))?;
    answer
        .recv()
        .map_err(|_| io::Error::other("the forking thread is gone"))?
}

/// Kills every process whose marker has a token for which `hit` holds,
/// looking again until none is left (or [`SWEEPS`] times); gives how many
/// were killed. Never this process.
fn sweep(hit: impl Fn(&str) -> bool) -> usize {
    let mut killed = 0;
    for _ in 0..SWEEPS {
        let found = marked(&hit);
        if found.is_empty() {
            break;
        }
        for pid in &found {
            // SAFETY: kill sends a signal; no memory is touched.
            unsafe { libc::kill(*pid as i32, libc::SIGKILL) };
        }
        killed += found.len();
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    killed
}

/// The live processes (not zombies) whose [`OWNER_VAR`] has a token for
/// which `hit` holds, this one left out.
fn marked(hit: &impl Fn(&str) -> bool) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return found;
    };
    let me = std::process::id();
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Some(value) = owner_of(pid) else {
            continue;
        };
        if value.split('/').any(hit) && !zombie(pid) {
            found.push(pid);
        }
    }
    found
}

/// Process `pid`'s [`OWNER_VAR`], when it has one and it can be read.
fn owner_of(pid: u32) -> Option<String> {
    let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let key = format!("{OWNER_VAR}=");
    env.split(|&b| b == 0)
        .find_map(|entry| entry.strip_prefix(key.as_bytes()))
        .map(|v| String::from_utf8_lossy(v).into_owned())
}

fn zombie(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            let rest = &s[s.rfind(')')? + 1..];
            rest.split_whitespace().next().map(|state| state == "Z")
        })
        .unwrap_or(true)
}

/// The processes still running that this process started (and their
/// descendants that kept the marker), by process id.
pub fn mine() -> Vec<u32> {
    let prefix = format!("{}.", me());
    marked(&|t: &str| t.starts_with(&prefix))
}

/// Processes left running by a workbench that has since died (a SIGKILL
/// ends a run without its clean-up): every marked process whose owner, a
/// workbench of this process-id namespace, is gone, killed. Gives how many.
pub fn end_strays() -> usize {
    let ns = namespace();
    sweep(|token| {
        owner(token).is_some_and(|(pid, start, of)| of == ns && start_ticks(pid) != Some(start))
    })
}

/// A token's owner: its process id, start time and namespace.
fn owner(token: &str) -> Option<(u32, u64, u64)> {
    let (owner, n) = token.split_once('.')?;
    n.parse::<u64>().ok()?;
    let mut parts = owner.split('-');
    let pid = parts.next()?.parse().ok()?;
    let start = parts.next()?.parse().ok()?;
    let ns = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((pid, start, ns))
}

/// A fresh private folder under the system's temporary folder, named
/// `PREFIX-PID-` and random letters: made anew with mode 0700, never one
/// that exists (so a folder or link planted under a guessed name is never
/// used), removed when dropped. Gives the path it tried on failure.
pub fn private_folder(prefix: &str) -> Result<tempfile::TempDir, (PathBuf, io::Error)> {
    let pid = std::process::id();
    use std::os::unix::fs::PermissionsExt;
    tempfile::Builder::new()
        .prefix(&format!("{prefix}-{pid}-"))
        .permissions(std::fs::Permissions::from_mode(0o700))
        .tempdir()
        .map_err(|e| (std::env::temp_dir().join(format!("{prefix}-{pid}-*")), e))
}

/// The prefixes of the private folders the workbench makes
/// ([`private_folder`]), which [`remove_stale_folders`] looks for.
pub const FOLDER_PREFIXES: [&str; 3] = [
    "sudoku-bench-callgrind",
    "sudoku-bench-check",
    "sudoku-bench-store",
];

/// Removes the private folders that a workbench killed by SIGKILL left
/// under the system's temporary folder: named by [`private_folder`] for one
/// of [`FOLDER_PREFIXES`], owned by this user, their process gone. Gives how
/// many.
pub fn remove_stale_folders() -> usize {
    use std::os::unix::fs::MetadataExt;
    let Ok(dir) = std::fs::read_dir(std::env::temp_dir()) else {
        return 0;
    };
    // SAFETY: geteuid has no preconditions.
    let uid = unsafe { libc::geteuid() };
    let mut removed = 0;
    for entry in dir.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(stale_owner) else {
            continue;
        };
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != uid || alive(pid) {
            continue;
        }
        if std::fs::remove_dir_all(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// The process id in a private folder's name (`PREFIX-PID-RANDOM`).
fn stale_owner(name: &str) -> Option<u32> {
    let rest = FOLDER_PREFIXES
        .iter()
        .find_map(|p| name.strip_prefix(p)?.strip_prefix('-'))?;
    let (pid, random) = rest.split_once('-')?;
    (!random.is_empty()).then_some(())?;
    pid.parse().ok()
}

fn alive(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid as i32, 0) };
    r == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// A path removed if the process exits through [`exit`] (a signal)
/// before the guard drops; dropping the guard only forgets it.
#[derive(Debug)]
pub struct Removal {
    id: u64,
}

impl Drop for Removal {
    fn drop(&mut self) {
        crate::sync::lock(&PATHS).remove(&self.id);
    }
}

/// Registers `path` (a file or a folder) for removal on an exit by a signal.
pub fn remove_on_exit(path: impl Into<PathBuf>) -> Removal {
    let id = NEXT.fetch_add(1, Ordering::Relaxed);
    crate::sync::lock(&PATHS).insert(id, path.into());
    Removal { id }
}

/// Ends everything this process started and removes every registered
/// path: what an exit by a signal does before it leaves. From then on
/// [`spawn`] starts nothing (a loop restarting a program cannot outrun it).
pub fn end_all() {
    ENDING.store(true, Ordering::SeqCst);
    let groups: Vec<i32> = crate::sync::lock(&GROUPS).values().copied().collect();
    for pgid in groups {
        kill_group(pgid);
    }
    let prefix = format!("{}.", me());
    sweep(|t| t.starts_with(&prefix));
    let paths: Vec<PathBuf> = crate::sync::lock(&PATHS).values().cloned().collect();
    for path in paths {
        if path.is_dir() && !path.is_symlink() {
            let _ = std::fs::remove_dir_all(&path);
        } else {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// [`end_all`], then leaves with `code`.
pub fn exit(code: i32) -> ! {
    end_all();
    std::process::exit(code)
}

#[cfg(test)]
mod tests;
