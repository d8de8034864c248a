//! Public benchmark lists by name: downloaded on first use, checked against
//! their SHA-256, kept in the user's cache folder and read from there offline.
//!
//! The lists are the ones tdoku's benchmark collection publishes (one zip
//! archive holding every list). [`SUDOKU_BENCH_MIRROR`](MIRROR_VAR) points
//! at a base URL (or a folder) holding the lists as plain files instead.

use super::checksum::Hashing;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

/// Environment variable naming a base URL (or folder) that holds the lists as
/// plain files, under their file names: `$SUDOKU_BENCH_MIRROR/puzzles2_17_clue`.
pub const MIRROR_VAR: &str = "SUDOKU_BENCH_MIRROR";
/// Environment variable naming the folder the lists are cached in.
pub const CACHE_VAR: &str = "SUDOKU_BENCH_CACHE";

/// tdoku's archive of public benchmark lists.
pub const TDOKU_ARCHIVE: &str = "https://raw.githubusercontent.com/t-dillon/tdoku/master/data.zip";

/// A public list known by name.
#[derive(Clone, Copy, Debug)]
pub struct Public {
    /// Name used with `--dataset`.
    pub name: &'static str,
    /// File name, in the archive, on a mirror and in the cache.
    pub file: &'static str,
    /// Where it is downloaded from: a zip archive holding `file`.
    pub archive: &'static str,
    /// Size in bytes.
    pub bytes: u64,
    /// Hex SHA-256 of the file.
    pub sha256: &'static str,
    /// Number of puzzles.
    pub puzzles: usize,
    /// Grid size, like `9x9`.
    pub size: &'static str,
    /// Who made it, and what it is.
    pub origin: &'static str,
}

/// Every public list known by name. Adding one is one entry.
pub const PUBLIC: &[Public] = &[
    Public {
        name: "17-clue",
        file: "puzzles2_17_clue",
        archive: TDOKU_ARCHIVE,
        bytes: 4_080_411,
        sha256: "2cf268735dfd40d32269b5f20ebbea067037e5976b4d016ce0b4d3c0a50deb30",
        puzzles: 49_158,
        size: "9x9",
        origin: "every known 17-clue puzzle: Gordon Royle's list, completed on the \
                 enjoysudoku forum; mostly easy",
    },
    Public {
        name: "top1465",
        file: "puzzles3_magictour_top1465",
        archive: TDOKU_ARCHIVE,
        bytes: 120_176,
        sha256: "ca0369f516dac7dfdd987d2c310ac33dcfc7478db5171bea5bca1f3878758bce",
        puzzles: 1_465,
        size: "9x9",
        origin: "magictour's classic 'top 1465' hard list (magictour.free.fr)",
    },
    Public {
        name: "hardest-1106",
        file: "puzzles6_forum_hardest_1106",
        archive: TDOKU_ARCHIVE,
        bytes: 30_863,
        sha256: "45d0afc5892d6797621d7c00f518df8f1483eceb921416984b8687e16128eb06",
        puzzles: 375,
        size: "9x9",
        origin: "the enjoysudoku forum's hardest list of 2011-06-26; \
                 the hardest of the three for backtracking",
    },
];

/// Largest download accepted, so a wrong URL cannot fill the disk.
const MAX_DOWNLOAD: u64 = 512 << 20;

/// Why a public list could not be had.
#[derive(Debug, thiserror::Error)]
pub enum DownloadError {
    /// No cache folder: neither the variable nor a platform convention gives one.
    #[error("no cache folder for downloaded datasets: set {CACHE_VAR} to one")]
    NoCacheDir,
    /// The cache folder could not be written or read.
    #[error("dataset cache {}: {source}", path.display())]
    Cache {
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The download failed: offline, refused, not found, cut short.
    #[error(
        "cannot download {name} from {url}: {reason}\n  (set {MIRROR_VAR} to a base URL \
         or folder holding {file}, or give the file's path instead of the name)"
    )]
    Fetch {
        /// The dataset's name.
        name: String,
        /// Its file name.
        file: String,
        /// The URL tried.
        url: String,
        /// What went wrong.
        reason: String,
    },
    /// What was downloaded is not the list the table names.
    #[error(
        "{name} downloaded from {url} is not the published list: SHA-256 {got} ({bytes} bytes), \
         expected {expected} ({expected_bytes} bytes); nothing was kept"
    )]
    Checksum {
        /// The dataset's name.
        name: String,
        /// The URL it came from.
        url: String,
        /// The SHA-256 found.
        got: String,
        /// The size found.
        bytes: u64,
        /// The SHA-256 in the table.
        expected: String,
        /// The size in the table.
        expected_bytes: u64,
    },
}

/// Looks a public list up by name.
pub fn find(name: &str) -> Option<&'static Public> {
    PUBLIC.iter().find(|p| p.name == name)
}

/// The folder the lists are cached in: `$SUDOKU_BENCH_CACHE`, else the
/// platform's cache folder (`~/.cache/sudoku-bench/datasets` on Linux).
pub fn cache_dir() -> Result<PathBuf, DownloadError> {
    if let Some(dir) = std::env::var_os(CACHE_VAR).filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(dir));
    }
    dirs::cache_dir()
        .map(|d| d.join("sudoku-bench").join("datasets"))
        .ok_or(DownloadError::NoCacheDir)
}

impl Public {
    /// True when a cached copy with the right checksum is present.
    pub fn is_cached(&self) -> bool {
        cache_dir()
            .map(|dir| self.check_cached(&dir.join(self.file)).unwrap_or(false))
            .unwrap_or(false)
    }

    /// True when `path` holds the list; a copy that does not is removed.
    fn check_cached(&self, path: &Path) -> Result<bool, DownloadError> {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(source) => {
                return Err(DownloadError::Cache {
                    path: path.to_path_buf(),
                    source,
                })
            }
        };
        let cache_err = |source| DownloadError::Cache {
            path: path.to_path_buf(),
            source,
        };
        let (bytes, sha) = Hashing::new(std::io::BufReader::new(file))
            .finish()
            .map_err(cache_err)?;
        if bytes == self.bytes && sha == self.sha256 {
            return Ok(true);
        }
        // A damaged copy is never used: it goes, and the list is fetched again.
        std::fs::remove_file(path).map_err(cache_err)?;
        Ok(false)
    }

    /// The path of a checked copy of the list, downloaded first if the cache
    /// has none. `progress` hears one line before a download starts.
    pub fn ensure(&self, progress: &mut dyn FnMut(&str)) -> Result<PathBuf, DownloadError> {
        let mirror = std::env::var(MIRROR_VAR).ok().filter(|v| !v.is_empty());
        self.ensure_in(&cache_dir()?, mirror.as_deref(), progress)
    }

    /// [`Public::ensure`] with the cache folder and mirror given.
    fn ensure_in(
        &self,
        dir: &Path,
        mirror: Option<&str>,
        progress: &mut dyn FnMut(&str),
    ) -> Result<PathBuf, DownloadError> {
        let path = dir.join(self.file);
        if self.check_cached(&path)? {
            return Ok(path);
        }
        std::fs::create_dir_all(dir).map_err(|source| DownloadError::Cache {
            path: dir.to_path_buf(),
            source,
        })?;
        if let Some(base) = mirror {
            let url = format!("{}/{}", base.trim_end_matches('/'), self.file);
            progress(&format!("downloading {} from {url}", self.name));
            let part = self.fetch(&url, dir, self.bytes.saturating_mul(2))?;
            self.install(&part, &url, &path)?;
            return Ok(path);
        }
        progress(&format!(
            "downloading {} (in an archive of public lists) from {}",
            self.name, self.archive
        ));
        let zip = self.fetch(self.archive, dir, MAX_DOWNLOAD)?;
        let unpacked = unpack(&zip.path, self, dir)
            .map_err(|reason| self.fetch_error(self.archive, reason))?;
        self.install(&unpacked, self.archive, &path)?;
        // The archive's other known lists come along, so naming them later
        // needs no second download; one that fails its check is left out and
        // fetched when it is named.
        for other in PUBLIC.iter().filter(|o| o.archive == self.archive) {
            let dest = dir.join(other.file);
            if !other.check_cached(&dest).unwrap_or(true) {
                if let Ok(part) = unpack(&zip.path, other, dir) {
                    let _ = other.install(&part, other.archive, &dest);
                }
            }
        }
        Ok(path)
    }

    fn fetch_error(&self, url: &str, reason: String) -> DownloadError {
        DownloadError::Fetch {
            name: self.name.to_string(),
            file: self.file.to_string(),
            url: url.to_string(),
            reason,
        }
    }

    /// Copies `url` (or a file, where the mirror is a folder) into a part
    /// file in `dir`, at most `limit` bytes, hashing as it goes.
    fn fetch(&self, url: &str, dir: &Path, limit: u64) -> Result<Part, DownloadError> {
        let reader: Box<dyn Read> = if url.starts_with("http://") || url.starts_with("https://") {
            Box::new(Transfer::start(url, limit).map_err(|reason| self.fetch_error(url, reason))?)
        } else {
            let local = Path::new(url.strip_prefix("file://").unwrap_or(url));
            Box::new(std::fs::File::open(local).map_err(|e| self.fetch_error(url, e.to_string()))?)
        };
        // Named after what is fetched: the archive's part file must not be
        // the one its list is unpacked into.
        let fetched = url.rsplit('/').next().unwrap_or(self.file);
        let mut part = Part::create(dir, &format!("{}.{fetched}", self.file))?;
        let mut hashing = Hashing::new(reader.take(limit.saturating_add(1)));
        let copied = std::io::copy(&mut hashing, &mut part.file);
        let (bytes, sha) = match copied.and_then(|_| hashing.finish()) {
            Ok(done) => done,
            Err(e) => return Err(self.fetch_error(url, e.to_string())),
        };
        if bytes > limit {
            return Err(self.fetch_error(url, format!("more than {limit} bytes")));
        }
        part.file
            .flush()
            .map_err(|e| self.fetch_error(url, e.to_string()))?;
        part.bytes = bytes;
        part.sha256 = sha;
        Ok(part)
    }

    /// Checks a part file and moves it into place.
    fn install(&self, part: &Part, url: &str, path: &Path) -> Result<(), DownloadError> {
        if part.bytes != self.bytes || part.sha256 != self.sha256 {
            return Err(DownloadError::Checksum {
                name: self.name.to_string(),
                url: url.to_string(),
                got: part.sha256.clone(),
                bytes: part.bytes,
                expected: self.sha256.to_string(),
                expected_bytes: self.bytes,
            });
        }
        part.file
            .sync_all()
            .map_err(|source| DownloadError::Cache {
                path: part.path.clone(),
                source,
            })?;
        std::fs::rename(&part.path, path).map_err(|source| DownloadError::Cache {
            path: path.to_path_buf(),
            source,
        })
    }
}

/// A download by `curl` (or `wget` where curl is missing), read from its
/// output as it comes. The programs the Rust installer itself downloads
/// with, so the build needs no TLS stack. Its exit status is read at the
/// end: a failed transfer is an error, never a short file.
struct Transfer {
    child: Child,
    out: ChildStdout,
    program: &'static str,
    pace: Pace,
    /// Its process group, ended with the transfer (and with this process).
    _group: crate::hygiene::Group,
}

/// The slowest a download may go: under [`LOW_SPEED_BYTES`] in
/// [`LOW_SPEED_WINDOW`] stops it (a mirror that trickles a byte a second
/// would otherwise hold the run for ever).
const LOW_SPEED_BYTES: u64 = 1024;
/// See [`LOW_SPEED_BYTES`].
const LOW_SPEED_WINDOW: std::time::Duration = std::time::Duration::from_secs(30);

/// Bytes over time: a window that must carry [`LOW_SPEED_BYTES`].
#[derive(Debug)]
struct Pace {
    since: std::time::Instant,
    bytes: u64,
}

impl Pace {
    fn new(now: std::time::Instant) -> Pace {
        Pace {
            since: now,
            bytes: 0,
        }
    }

    /// Counts `n` bytes read at `now`; an error once a whole window passed
    /// with fewer than [`LOW_SPEED_BYTES`].
    fn note(&mut self, n: usize, now: std::time::Instant) -> Result<(), String> {
        self.bytes += n as u64;
        if now.duration_since(self.since) < LOW_SPEED_WINDOW {
            return Ok(());
        }
        if self.bytes < LOW_SPEED_BYTES {
            return Err(format!(
                "slower than {LOW_SPEED_BYTES} bytes in {} s ({} bytes): stopped",
                LOW_SPEED_WINDOW.as_secs(),
                self.bytes
            ));
        }
        *self = Pace::new(now);
        Ok(())
    }
}

impl Transfer {
    fn start(url: &str, limit: u64) -> Result<Transfer, String> {
        let max = limit.to_string();
        let (speed, window) = (
            LOW_SPEED_BYTES.to_string(),
            LOW_SPEED_WINDOW.as_secs().to_string(),
        );
        let idle = format!("--read-timeout={window}");
        let tries: [(&'static str, Vec<&str>); 2] = [
            (
                "curl",
                vec![
                    "--fail",
                    "--silent",
                    "--show-error",
                    "--location",
                    "--proto",
                    "=http,https",
                    "--connect-timeout",
                    "20",
                    "--max-filesize",
                    &max,
                    "--speed-limit",
                    &speed,
                    "--speed-time",
                    &window,
                    "--",
                    url,
                ],
            ),
            (
                "wget",
                vec![
                    "--no-verbose",
                    "--timeout=20",
                    &idle,
                    "--output-document=-",
                    "--",
                    url,
                ],
            ),
        ];
        for (program, args) in tries {
            let mut cmd = Command::new(program);
            cmd.args(&args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            match crate::hygiene::spawn(cmd) {
                Ok((mut child, group)) => {
                    let out = child.stdout.take().ok_or("no output pipe")?;
                    return Ok(Transfer {
                        child,
                        out,
                        program,
                        pace: Pace::new(std::time::Instant::now()),
                        _group: group,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(format!("{program} could not be started: {e}")),
            }
        }
        Err("downloading needs curl or wget, and neither is on PATH".to_string())
    }
}

impl Read for Transfer {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.out.read(buf)?;
        if let Err(slow) = self.pace.note(n, std::time::Instant::now()) {
            return Err(std::io::Error::other(format!("{}: {slow}", self.program)));
        }
        if n == 0 && !buf.is_empty() {
            let status = self.child.wait()?;
            if !status.success() {
                let mut said = String::new();
                if let Some(mut err) = self.child.stderr.take() {
                    let _ = err.read_to_string(&mut said);
                }
                let said = said.trim();
                let said = if said.is_empty() {
                    format!("{}: {status}", self.program)
                } else if said.starts_with(self.program) {
                    said.to_string()
                } else {
                    format!("{}: {said}", self.program)
                };
                return Err(std::io::Error::other(said));
            }
        }
        Ok(n)
    }
}

impl Drop for Transfer {
    fn drop(&mut self) {
        // Read no further than the limit: a transfer left unfinished stops.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A file being downloaded, removed unless it was moved into place (and
/// by an exit through a signal).
#[derive(Debug)]
struct Part {
    _removal: crate::hygiene::Removal,
    path: PathBuf,
    file: std::fs::File,
    bytes: u64,
    sha256: String,
}

impl Part {
    fn create(dir: &Path, file: &str) -> Result<Part, DownloadError> {
        let path = dir.join(format!(".{file}.{}.part", std::process::id()));
        let f = crate::files::create(&path).map_err(|source| DownloadError::Cache {
            path: path.clone(),
            source,
        })?;
        Ok(Part {
            _removal: crate::hygiene::remove_on_exit(&path),
            path,
            file: f,
            bytes: 0,
            sha256: String::new(),
        })
    }
}

impl Drop for Part {
    fn drop(&mut self) {
        // After a rename this finds nothing, which is fine.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Takes `list`'s file out of the zip archive at `zip`, into a part file.
fn unpack(zip: &Path, list: &Public, dir: &Path) -> Result<Part, String> {
    let file = std::fs::File::open(zip).map_err(|e| e.to_string())?;
    let mut archive = zip::ZipArchive::new(std::io::BufReader::new(file))
        .map_err(|e| format!("not a zip archive: {e}"))?;
    let index = (0..archive.len())
        .find(|&i| {
            archive
                .name_for_index(i)
                .and_then(Result::ok)
                .is_some_and(|n| n.rsplit('/').next() == Some(list.file))
        })
        .ok_or_else(|| format!("the archive holds no file named {}", list.file))?;
    let member = archive.by_index(index).map_err(|e| e.to_string())?;
    let mut part = Part::create(dir, list.file).map_err(|e| e.to_string())?;
    let mut hashing = Hashing::new(member.take(list.bytes.saturating_mul(2)));
    std::io::copy(&mut hashing, &mut part.file).map_err(|e| e.to_string())?;
    let (bytes, sha) = hashing.finish().map_err(|e| e.to_string())?;
    part.bytes = bytes;
    part.sha256 = sha;
    Ok(part)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trickle_is_stopped_after_a_window_and_a_steady_stream_is_not() {
        let t0 = std::time::Instant::now();
        let mut trickle = Pace::new(t0);
        for s in 1..30 {
            assert!(trickle
                .note(1, t0 + std::time::Duration::from_secs(s))
                .is_ok());
        }
        let err = trickle.note(1, t0 + LOW_SPEED_WINDOW).unwrap_err();
        assert!(err.contains("(30 bytes)"), "{err}");
        let mut steady = Pace::new(t0);
        for s in 1..=90 {
            assert!(steady
                .note(100, t0 + std::time::Duration::from_secs(s))
                .is_ok());
        }
    }

    fn zip_with(members: &[(&str, &[u8])]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, data) in members {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(data).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn the_table_has_unique_names_and_files_and_well_formed_checksums() {
        for (i, p) in PUBLIC.iter().enumerate() {
            assert_eq!(p.sha256.len(), 64, "{}", p.name);
            assert!(p.sha256.bytes().all(|b| b.is_ascii_hexdigit()));
            assert!(crate::datasets::embedded(p.name).is_none(), "{}", p.name);
            for q in &PUBLIC[i + 1..] {
                assert_ne!(p.name, q.name);
                assert_ne!(p.file, q.file);
            }
        }
    }

    #[test]
    fn a_list_is_unpacked_from_the_archive_by_its_file_name() {
        let dir = tempfile::tempdir().unwrap();
        let text = b"1.3.\n";
        let zip = dir.path().join("data.zip");
        std::fs::write(
            &zip,
            zip_with(&[("data/other", b"x"), ("data/puzzles_x", text)]),
        )
        .unwrap();
        let list = Public {
            name: "x",
            file: "puzzles_x",
            archive: "unused",
            bytes: text.len() as u64,
            sha256: "unused",
            puzzles: 1,
            size: "2x2",
            origin: "",
        };
        let part = unpack(&zip, &list, dir.path()).unwrap();
        assert_eq!(std::fs::read(&part.path).unwrap(), text);
        assert_eq!(part.bytes, 5);
        assert_eq!(part.sha256, crate::datasets::checksum::sha256_hex(text));
        let path = part.path.clone();
        drop(part);
        assert!(
            !path.exists(),
            "a part file not moved into place is removed"
        );

        let missing = Public {
            file: "puzzles_y",
            ..list
        };
        let e = unpack(&zip, &missing, dir.path()).unwrap_err();
        assert!(e.contains("no file named puzzles_y"), "{e}");
        std::fs::write(&zip, b"not a zip").unwrap();
        let e = unpack(&zip, &list, dir.path()).unwrap_err();
        assert!(e.contains("not a zip archive"), "{e}");
    }

    #[test]
    fn a_list_comes_out_of_its_archive_once_then_from_the_cache() {
        let tmp = tempfile::tempdir().unwrap();
        let text = b"12.4\n....\n";
        let zip = tmp.path().join("data.zip");
        std::fs::write(&zip, zip_with(&[("data/puzzles_x", text)])).unwrap();
        let archive = zip.display().to_string();
        let archive: &'static str = Box::leak(archive.into_boxed_str());
        let sha: &'static str =
            Box::leak(crate::datasets::checksum::sha256_hex(text).into_boxed_str());
        let list = Public {
            name: "x",
            file: "puzzles_x",
            archive,
            bytes: text.len() as u64,
            sha256: sha,
            puzzles: 2,
            size: "2x2",
            origin: "",
        };
        let cache = tmp.path().join("cache");
        let mut heard = Vec::new();
        let path = list
            .ensure_in(&cache, None, &mut |m| heard.push(m.to_string()))
            .unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), text);
        assert_eq!(heard.len(), 1, "{heard:?}");
        assert!(heard[0].contains(archive), "{heard:?}");
        // The archive is gone: the cache serves, without a word.
        std::fs::remove_file(&zip).unwrap();
        let again = list
            .ensure_in(&cache, None, &mut |m| panic!("{m}"))
            .unwrap();
        assert_eq!(again, path);

        // An archive whose list has other bytes is refused, and nothing stays.
        std::fs::write(&zip, zip_with(&[("puzzles_x", b"1...\n")])).unwrap();
        std::fs::remove_file(&path).unwrap();
        let e = list.ensure_in(&cache, None, &mut |_| {}).unwrap_err();
        assert!(matches!(e, DownloadError::Checksum { .. }), "{e}");
        assert!(e.to_string().contains(archive), "{e}");
        assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0);
    }
}
