//! Run folders: claiming a new one, or replacing the run an existing one holds.

use crate::harness::files;
use std::io;
use std::path::{Path, PathBuf};

/// Why a run folder could not be claimed or cleared.
#[derive(Debug, thiserror::Error)]
pub enum RunDirError {
    /// The folder (or its parent) could not be created.
    #[error("cannot create {}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// The folder holds an earlier run and replacing it was not asked for.
    #[error(
        "{} already holds a {what} ({}); choose another --out, or pass --force to replace it",
        path.display(),
        files.join(", ")
    )]
    Occupied {
        /// The folder.
        path: PathBuf,
        /// What it holds: `run`, `study` or `hunt`.
        what: &'static str,
        /// The run files found in it.
        files: Vec<&'static str>,
    },
    /// The folder holds another kind of record than the one to be written.
    #[error(
        "{} holds a {kind} ({record}), not a {what}; choose another --out (--force replaces only a {what})",
        path.display()
    )]
    OtherKind {
        /// The folder.
        path: PathBuf,
        /// What it holds: `run`, `study` or `hunt`.
        kind: &'static str,
        /// The record that says so.
        record: &'static str,
        /// What was to be written there.
        what: &'static str,
    },
    /// A link stands where one of the folder's files goes.
    #[error("cannot write in {}", path.display())]
    Linked {
        /// The folder.
        path: PathBuf,
        /// The link, named.
        source: io::Error,
    },
    /// A file of the earlier run could not be removed.
    #[error("cannot remove {}", path.display())]
    Remove {
        /// The file or folder.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

/// The name of a run started now: `run-YYYYMMDD-HHMMSS` (UTC).
pub fn run_id() -> String {
    let t = crate::harness::info::now_rfc3339();
    format!(
        "run-{}",
        t.trim_end_matches('Z')
            .replace([':', '-'], "")
            .replace('T', "-")
    )
}

/// Claims a new folder `parent/run-<UTC time>` (`-2`, `-3`, ... when runs start in
/// the same second); creating it is the claim, so two runs never share one.
pub fn new_run_dir(parent: &Path) -> Result<PathBuf, RunDirError> {
    new_dir(parent, &run_id())
}

/// Where run, report and history folders go unless `--out` says.
pub const REPORTS: &str = "reports";

/// An output folder: `out` as given (created if need be), or a new one
/// under `parent` named `KIND-<UTC time>`.
pub fn out_dir(out: Option<&Path>, parent: &Path, kind: &str) -> Result<PathBuf, RunDirError> {
    match out {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|source| RunDirError::Create {
                path: dir.to_path_buf(),
                source,
            })?;
            Ok(dir.to_path_buf())
        }
        None => new_dir(parent, &run_id().replacen("run", kind, 1)),
    }
}

/// Claims a new folder `parent/ID` (`ID-2`, `ID-3`, ... when it exists).
pub fn new_dir(parent: &Path, id: &str) -> Result<PathBuf, RunDirError> {
    std::fs::create_dir_all(parent).map_err(|source| RunDirError::Create {
        path: parent.to_path_buf(),
        source,
    })?;
    let mut dir = parent.join(id);
    let mut k = 1;
    loop {
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                k += 1;
                dir = parent.join(format!("{id}-{k}"));
            }
            Err(source) => return Err(RunDirError::Create { path: dir, source }),
        }
    }
}

/// Refuses a folder that holds an earlier run, or with `force` removes that run's
/// files and charts (nothing else in the folder).
pub fn replace_earlier_run(dir: &Path, force: bool) -> Result<(), RunDirError> {
    if !replace_earlier(dir, "run", super::run_files(), force)? {
        return Ok(());
    }
    // The stderr logs of the earlier run's outside contenders.
    let logs = dir.join(files::CONTENDER_LOGS);
    if logs.is_dir() {
        for entry in std::fs::read_dir(&logs).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.to_string_lossy().ends_with(".stderr.log") {
                std::fs::remove_file(&path)
                    .map_err(|source| RunDirError::Remove { path, source })?;
            }
        }
    }
    Ok(())
}

/// Refuses a folder that holds any of `files` (an earlier `what`: a run, a
/// study, a hunt), or with `force` removes them and the charts. True when something
/// was replaced.
pub fn replace_earlier(
    dir: &Path,
    what: &'static str,
    files: Vec<&'static str>,
    force: bool,
) -> Result<bool, RunDirError> {
    for (record, kind) in files::KINDS {
        if kind != what && dir.join(record).exists() {
            return Err(RunDirError::OtherKind {
                path: dir.to_path_buf(),
                kind,
                record,
                what,
            });
        }
    }
    files::refuse_links(dir).map_err(|source| RunDirError::Linked {
        path: dir.to_path_buf(),
        source,
    })?;
    let earlier: Vec<_> = files.into_iter().filter(|f| dir.join(f).exists()).collect();
    if earlier.is_empty() {
        return Ok(false);
    }
    if !force {
        return Err(RunDirError::Occupied {
            path: dir.to_path_buf(),
            what,
            files: earlier,
        });
    }
    for f in earlier {
        let path = dir.join(f);
        std::fs::remove_file(&path).map_err(|source| RunDirError::Remove { path, source })?;
    }
    let charts = dir.join(files::CHARTS);
    if charts.is_dir() {
        clear_charts(&charts).map_err(|source| RunDirError::Remove {
            path: charts,
            source,
        })?;
    }
    Ok(true)
}

/// Makes `charts` an existing folder without the charts of an earlier drawing
/// (its `.svg` and `.png` files; nothing else is touched).
pub fn clear_charts(charts: &Path) -> std::io::Result<()> {
    crate::files::folder(charts)?;
    for entry in std::fs::read_dir(charts)? {
        let path = entry?.path();
        let drawn = path.extension().is_some_and(|e| e == "svg" || e == "png");
        if drawn && path.is_file() {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}
