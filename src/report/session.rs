//! `report` from what was asked to what it says: one run's report (and its
//! `--export`s) drawn into the run's folder, or one report across machines
//! into a folder of its own; each written under the folder's
//! [`FolderLock`], so a report is never drawn into a folder a run writes.

use super::{ReportError, ReportOptions};
use crate::export::terminal::Console;
use crate::export::track::refuse_clashes;
use crate::harness::files;
use crate::harness::plan::ExportTo;
use crate::lock::FolderLock;
use std::path::{Path, PathBuf};

/// Draws the report of the run in `dir` and writes `exports` (refused
/// before anything is written when one would replace a run's file or
/// another export); says where they went.
pub fn one(
    dir: &Path,
    opts: &ReportOptions,
    exports: &[ExportTo],
    console: &mut dyn Console,
) -> Result<(), ReportError> {
    refuse_clashes(exports, &[dir])?;
    // No folder: reading it says so.
    let _writer = FolderLock::take_if_there(dir)?;
    super::write(dir, opts)?.tell(dir, console);
    if !exports.is_empty() {
        super::export(dir, exports, console)?;
    }
    Ok(())
}

/// Writes one report across the machines of the runs in `dirs` into
/// `out`, which must not be a run's folder; says what it found.
pub fn machines(
    dirs: &[PathBuf],
    out: &Path,
    paper: bool,
    console: &mut dyn Console,
) -> Result<(), ReportError> {
    if out.join(files::RUN_JSON).is_file() {
        return Err(ReportError::IntoRun(out.to_path_buf()));
    }
    let _writer = FolderLock::take(out)?;
    super::machines::write(dirs, out, paper)?.tell(out, console);
    Ok(())
}
