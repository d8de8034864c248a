//! Saved baselines: `reports/baselines/NAME/` holds what a later comparison needs
//! (`run.json` with the dataset checksums, `summary.csv`, and `results.csv`:
//! per-puzzle times, statuses and counters; runs saved with a row per solve
//! lose their puzzle text on the way).

use super::CompareError;
use crate::harness::files;
use std::path::{Path, PathBuf};

/// Where baselines live, relative to the working folder.
pub const ROOT: &str = "reports/baselines";

/// The longest baseline name: its folder, and the one it is saved through
/// (`.NAME.saving`), fit any file system's name limit.
pub const NAME_MAX: usize = 100;

/// Checks a baseline name: 1 to [`NAME_MAX`] letters, digits, `.`, `_`,
/// `-`, not starting with `.`.
pub fn check_name(name: &str) -> Result<(), CompareError> {
    let ok = !name.is_empty()
        && name.len() <= NAME_MAX
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if ok {
        Ok(())
    } else {
        Err(CompareError::NotFound(format!(
            "baseline name {name:?}: expected 1 to {NAME_MAX} letters, digits, '.', '_' or '-' (not starting with '.')"
        )))
    }
}

/// Saves the run in `run_dir` as baseline `name` under `root`, replacing one of
/// that name. Returns the baseline's folder.
pub fn save(run_dir: &Path, root: &Path, name: &str) -> Result<PathBuf, CompareError> {
    check_name(name)?;
    let dir = root.join(name);
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CompareError::Write { path, source }
    };
    std::fs::create_dir_all(root).map_err(write_err(root))?;
    // Two saves at once would write one `.NAME.saving`.
    let _writer = crate::lock::FolderLock::take(root)?;
    // Written beside, then swapped in: a failure leaves the old baseline whole.
    let tmp = root.join(format!(".{name}.saving"));
    let _ = std::fs::remove_dir_all(&tmp);
    crate::files::folder(&tmp).map_err(write_err(&tmp))?;
    for file in [files::RUN_JSON, files::SUMMARY_CSV] {
        std::fs::copy(run_dir.join(file), tmp.join(file)).map_err(write_err(&tmp.join(file)))?;
    }
    copy_results(
        &run_dir.join(files::RESULTS_CSV),
        &tmp.join(files::RESULTS_CSV),
    )?;
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(write_err(&dir))?;
    }
    std::fs::rename(&tmp, &dir).map_err(write_err(&dir))?;
    Ok(dir)
}

/// Streams `results.csv` to `to`, every column but the puzzle text of runs
/// saved with a row per solve.
fn copy_results(from: &Path, to: &Path) -> Result<(), CompareError> {
    let read_err = |e: csv::Error| {
        CompareError::Load(crate::report::ReportError::Csv {
            path: from.to_path_buf(),
            message: e.to_string(),
        })
    };
    let write_err = |e: csv::Error| CompareError::Write {
        path: to.to_path_buf(),
        source: std::io::Error::other(e),
    };
    let mut r = csv::Reader::from_path(from).map_err(read_err)?;
    let header = r.headers().map_err(read_err)?.clone();
    let columns: Vec<usize> = (0..header.len())
        .filter(|&i| &header[i] != "puzzle")
        .collect();
    let kept: Vec<&str> = columns.iter().map(|&i| &header[i]).collect();
    let file = crate::files::create(to).map_err(|source| CompareError::Write {
        path: to.to_path_buf(),
        source,
    })?;
    let mut w = csv::Writer::from_writer(file);
    w.write_record(&kept).map_err(write_err)?;
    let mut row = csv::StringRecord::new();
    while r.read_record(&mut row).map_err(read_err)? {
        w.write_record(columns.iter().map(|&i| row.get(i).unwrap_or("")))
            .map_err(write_err)?;
    }
    w.flush().map_err(|source| CompareError::Write {
        path: to.to_path_buf(),
        source,
    })
}

/// A run folder, or the name of a baseline under `root`: its folder.
pub fn resolve(spec: &str, root: &Path) -> Result<PathBuf, CompareError> {
    let as_dir = Path::new(spec);
    if as_dir.join(files::RESULTS_CSV).is_file() {
        return Ok(as_dir.to_path_buf());
    }
    let named = root.join(spec);
    if check_name(spec).is_ok() && named.join(files::RESULTS_CSV).is_file() {
        return Ok(named);
    }
    let mut known: Vec<String> = std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join(files::RESULTS_CSV).is_file())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| !n.starts_with('.'))
        .collect();
    known.sort();
    Err(CompareError::NotFound(format!(
        "{spec:?} is neither a run folder (with {}) nor a baseline in {}{}",
        files::RESULTS_CSV,
        root.display(),
        if known.is_empty() {
            " (there are none yet: `bench --save-baseline NAME` makes one)".to_string()
        } else {
            format!(" (baselines: {})", known.join(", "))
        }
    )))
}
