//! The run's own store: a private copy of an input that cannot be opened
//! again (a named pipe, a device), written as it is first read and read
//! from for each pass after.

use crate::error::LoadError;

/// The most bytes a pipe or device given as a dataset may hold: they are
/// copied into the run's store (under the system's temporary folder) as
/// they are read, for the passes that read them again.
pub const STORE_LIMIT: u64 = 4 << 30;

/// A private copy of an input that cannot be opened again (a FIFO, a
/// device): written as it is read, streamed from for each pass, removed
/// when the run's last use of it ends (or on an exit by a signal).
#[derive(Debug)]
pub struct Store {
    folder: tempfile::TempDir,
    _removal: crate::hygiene::Removal,
}

impl Store {
    /// A fresh private folder for `input`'s copy.
    pub(super) fn new(input: &std::path::Path) -> Result<Store, LoadError> {
        let folder =
            crate::hygiene::private_folder("sudoku-bench-store").map_err(|(path, e)| {
                LoadError::Io {
                    path: input.to_path_buf(),
                    source: std::io::Error::new(
                        e.kind(),
                        format!(
                            "it is no regular file, to be copied into {}: {e}",
                            path.display()
                        ),
                    ),
                }
            })?;
        let _removal = crate::hygiene::remove_on_exit(folder.path());
        Ok(Store { folder, _removal })
    }

    /// The copy's path.
    pub(super) fn file(&self) -> std::path::PathBuf {
        self.folder.path().join("input")
    }

    pub(super) fn create(&self) -> std::io::Result<std::fs::File> {
        std::fs::File::create_new(self.file())
    }
}

/// Every byte read from `inner` also written to `copy`, up to `left` bytes.
pub(super) struct Tee<'c, R> {
    pub(super) inner: R,
    pub(super) copy: &'c mut std::io::BufWriter<std::fs::File>,
    pub(super) left: u64,
}

impl<R: std::io::Read> std::io::Read for Tee<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(std::io::Error::other(format!(
                "it is no regular file, so it is read once into the run's own store, \
                 which holds at most {} GiB: write it to a file and name that",
                STORE_LIMIT >> 30
            )));
        }
        self.left -= n as u64;
        std::io::Write::write_all(self.copy, &buf[..n])?;
        Ok(n)
    }
}
