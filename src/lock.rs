//! One writer per folder. A command that writes into a folder (a run, a
//! study, a hunt, a report, a history) holds a [`FolderLock`] on it while it
//! writes; a second one is refused at once, told the holder's PID.
//!
//! The lock is an `flock` on the hidden file [`files::LOCK`] in the folder,
//! the holder's PID written in it. It goes with its process however that
//! ends (a SIGKILL too); the holder removes the file when it lets go, so
//! nothing that lists a folder finds it afterwards (a killed holder leaves
//! it, and the next writer takes it over). A folder a link stands in is
//! refused too: whoever planted it would have the writer write outside the
//! folder.

use crate::files;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why a folder's lock was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process writes into the folder.
    #[error("{} is being written by another sudoku-bench process ({}): wait for it to end, or write elsewhere", dir.display(), holder(*pid))]
    Held {
        /// The folder.
        dir: PathBuf,
        /// The holder's process id, when its lock file says it.
        pid: Option<u32>,
    },
    /// A link stands in the folder ([`files::refuse_links`]): writing by
    /// its name would write outside the folder.
    #[error("will not write in {}: {source}", dir.display())]
    Linked {
        /// The folder.
        dir: PathBuf,
        /// The link, named.
        #[source]
        source: io::Error,
    },
    /// The lock file cannot be opened or locked.
    #[error("cannot lock {}: {source}", path.display())]
    Io {
        /// The lock file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
}

fn holder(pid: Option<u32>) -> String {
    pid.map_or("its PID unknown".into(), |p| format!("PID {p}"))
}

/// The lock on one folder, held until dropped.
#[derive(Debug)]
pub struct FolderLock {
    file: File,
    path: PathBuf,
}

impl FolderLock {
    /// Takes the lock on `dir`, an existing folder, or says who holds it.
    pub fn take(dir: &Path) -> Result<FolderLock, LockError> {
        let path = dir.join(files::LOCK);
        let io = |source| LockError::Io {
            path: path.clone(),
            source,
        };
        // A holder letting go removes the file: one opened just before that
        // is locked in vain, and opened again.
        for _ in 0..100 {
            let file = files::open(
                &path,
                OpenOptions::new()
                    .read(true)
                    .write(true)
                    .create(true)
                    .truncate(false),
            )
            .map_err(io)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    return Err(LockError::Held {
                        dir: dir.to_path_buf(),
                        pid: read_pid(&path),
                    })
                }
                Err(TryLockError::Error(e)) => return Err(io(e)),
            }
            if !is_at(&file, &path) {
                continue;
            }
            files::refuse_links(dir).map_err(|source| LockError::Linked {
                dir: dir.to_path_buf(),
                source,
            })?;
            file.set_len(0).map_err(io)?;
            (&file)
                .write_all(format!("{}\n", std::process::id()).as_bytes())
                .map_err(io)?;
            return Ok(FolderLock { file, path });
        }
        Err(io(io::Error::other("its lock file kept being replaced")))
    }

    /// [`take`](Self::take), or nothing when `dir` is not a folder (what
    /// reads it then says so).
    pub fn take_if_there(dir: &Path) -> Result<Option<FolderLock>, LockError> {
        if dir.is_dir() {
            FolderLock::take(dir).map(Some)
        } else {
            Ok(None)
        }
    }

    /// Refuses `dir` now if another process holds it, taking nothing: for
    /// a command that hands the writing to a process it starts.
    pub fn check(dir: &Path) -> Result<(), LockError> {
        FolderLock::take_if_there(dir).map(drop)
    }

    /// Refuses `dir` if a process writes it now, writing nothing there: for a
    /// command that only reads the folder (which may be read-only), so that
    /// it never reads half a run.
    pub fn refuse_if_written(dir: &Path) -> Result<(), LockError> {
        let path = dir.join(files::LOCK);
        let Ok(file) = files::open(&path, OpenOptions::new().read(true)) else {
            return Ok(()); // no lock file, or none readable: no writer
        };
        match file.try_lock_shared() {
            Err(TryLockError::WouldBlock) => Err(LockError::Held {
                dir: dir.to_path_buf(),
                pid: read_pid(&path),
            }),
            _ => Ok(()),
        }
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still held (closing the file lets go), and only if
        // it is still this lock's file.
        if is_at(&self.file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Whether `path` names the open `file`.
fn is_at(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// The PID in a held lock file: its holder writes it just after locking,
/// so an empty file is read again for a moment.
fn read_pid(path: &Path) -> Option<u32> {
    for _ in 0..50 {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        if let Ok(pid) = text.trim().parse() {
            return Some(pid);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_with_the_holders_pid_until_the_first_lets_go() {
        let tmp = tempfile::tempdir().unwrap();
        let first = FolderLock::take(tmp.path()).unwrap();
        let file = tmp.path().join(files::LOCK);
        let pid = std::process::id();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), format!("{pid}\n"));
        let e = FolderLock::take(tmp.path()).unwrap_err();
        assert!(matches!(e, LockError::Held { pid: Some(p), .. } if p == pid));
        let text = e.to_string();
        let dir = tmp.path().display();
        assert!(
            text.contains(&format!(
                "{dir} is being written by another sudoku-bench process (PID {pid})"
            )),
            "{text}"
        );
        assert!(FolderLock::check(tmp.path()).is_err());
        drop(first);
        assert!(!file.exists(), "the lock file goes with the lock");
        FolderLock::check(tmp.path()).unwrap();
        let again = FolderLock::take(tmp.path()).unwrap();
        drop(again);
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_lock_file_left_behind_is_taken_over_and_a_missing_folder_is_not_locked() {
        let tmp = tempfile::tempdir().unwrap();
        // A holder that was killed: its file stays, its flock went with it.
        std::fs::write(tmp.path().join(files::LOCK), "4194304\n").unwrap();
        let lock = FolderLock::take(tmp.path()).unwrap();
        let text = std::fs::read_to_string(tmp.path().join(files::LOCK)).unwrap();
        assert_eq!(text.trim(), std::process::id().to_string());
        drop(lock);
        let gone = tmp.path().join("gone");
        assert!(FolderLock::take_if_there(&gone).unwrap().is_none());
        FolderLock::check(&gone).unwrap();
        assert!(matches!(FolderLock::take(&gone), Err(LockError::Io { .. })));
    }

    #[test]
    fn a_file_replaced_under_a_would_be_holder_is_locked_afresh() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(files::LOCK);
        let stale = File::create(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, "").unwrap();
        assert!(!is_at(&stale, &path));
        let lock = FolderLock::take(tmp.path()).unwrap();
        assert!(is_at(&lock.file, &path));
    }
}
