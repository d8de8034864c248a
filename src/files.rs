//! The names of a run folder's files, in one place, below every layer
//! that names one (`check` says `results.csv` as `harness` writes it), and
//! the one way a command writes files and subfolders: never through a link.

/// One row per puzzle.
pub const RESULTS_CSV: &str = "results.csv";
/// The record of the run: build, machine, options, datasets.
pub const RUN_JSON: &str = "run.json";
/// Every timed solve (`--keep-solves`).
pub const SOLVES_CSV: &str = "solves.csv";
/// One row per contender and dataset.
pub const SUMMARY_CSV: &str = "summary.csv";
/// The summary's tables and sentences.
pub const SUMMARY_MD: &str = "summary.md";
/// The report, with every chart inline.
pub const REPORT_HTML: &str = "report.html";
/// The report in Markdown, its charts beside it.
pub const REPORT_MD: &str = "report.md";
/// The charts' folder.
pub const CHARTS: &str = "charts";
/// Outside contenders' stderr logs.
pub const CONTENDER_LOGS: &str = "contenders";
/// A comparison's folder in the current run's.
pub const COMPARE: &str = "compare";
/// A comparison's tables and verdicts, in its folder.
pub const COMPARE_MD: &str = "compare.md";
/// A study's record, in its folder.
pub const STUDY_JSON: &str = "study.json";
/// A hunt's record, in its folder.
pub const HUNT_JSON: &str = "hunt.json";
/// Each kind of folder a command writes, by the record that marks it.
pub const KINDS: [(&str, &str); 3] = [
    (RUN_JSON, "run"),
    (STUDY_JSON, "study"),
    (HUNT_JSON, "hunt"),
];
/// A scaling run's curve, in the folder above its counts' runs.
pub const SCALING_CSV: &str = "scaling.csv";
/// A scaling run's table and sentences, beside `scaling.csv`.
pub const SCALING_MD: &str = "scaling.md";
/// The subfolders a command makes in a run folder.
pub const SUBFOLDERS: [&str; 3] = [CHARTS, CONTENDER_LOGS, COMPARE];
/// The files of a run or a scaling run that an export must never replace,
/// beside the exporters' own.
pub const OWN: [&str; 10] = [
    RESULTS_CSV,
    RUN_JSON,
    SOLVES_CSV,
    SUMMARY_CSV,
    SUMMARY_MD,
    REPORT_HTML,
    REPORT_MD,
    SCALING_CSV,
    SCALING_MD,
    LOCK,
];
/// The lock a command holds on a folder while it writes there
/// (`crate::lock`): hidden, and removed when the command lets go.
pub const LOCK: &str = ".sudoku-bench.lock";

// Writing. A folder someone else can write to may hold a link planted
// where a file or subfolder of ours goes; writing through it would write
// outside the folder the user named. Every file a command writes is opened
// here, never through a link at its end, and every subfolder it makes is
// refused when a link stands in its place.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// The error for a link found where a file or folder of ours goes.
fn linked(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{} is a symbolic link; sudoku-bench never writes through one (remove it, or choose another folder)",
            path.display()
        ),
    )
}

/// Opens `path` with `options` and `O_NOFOLLOW`, naming a link as such
/// (the OS says only "too many levels of symbolic links").
pub fn open(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    match options.custom_flags(libc::O_NOFOLLOW).open(path) {
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => Err(linked(path)),
        other => other,
    }
}

/// A new or emptied file at `path`, refused when `path` is a link.
pub fn create(path: impl AsRef<Path>) -> io::Result<File> {
    open(
        path.as_ref(),
        OpenOptions::new().write(true).create(true).truncate(true),
    )
}

/// `path` opened to append to, refused when it is a link.
pub fn append(path: impl AsRef<Path>) -> io::Result<File> {
    open(path.as_ref(), OpenOptions::new().append(true))
}

/// `bytes` written to `path` in place of what it held, refused when `path`
/// is a link.
pub fn write(path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    create(path)?.write_all(bytes.as_ref())
}

/// Makes `path` a folder (and its parents), refused when `path` itself is
/// a link: for the subfolders a command makes in a folder it was given
/// (`charts/`, `contenders/`, `compare/`, one per thread count). The folder
/// a user names may be a link; what the command makes in it may not.
pub fn folder(path: impl AsRef<Path>) -> io::Result<()> {
    let path = path.as_ref();
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(linked(path));
    }
    std::fs::create_dir_all(path)?;
    // Made just now, or a link planted between the look and the making.
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(linked(path)),
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// Refuses `dir` when a link stands in it: a folder a command writes
/// holds none of its own, so one found there was planted, and writing by
/// its name (a file, a subfolder, a count's folder) would write outside.
/// Said before a command starts rather than when it first writes there.
pub fn refuse_links(dir: impl AsRef<Path>) -> io::Result<()> {
    let Ok(entries) = std::fs::read_dir(dir.as_ref()) else {
        return Ok(()); // nothing there yet, or unreadable: each write says
    };
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_symlink()) {
            return Err(linked(&entry.path()));
        }
    }
    Ok(())
}

/// The run folder `dir` is, or is a subfolder of (`charts/`,
/// `contenders/`, `compare/`, but those in `except`): where no other
/// command's files may go.
pub fn in_run(dir: &Path, except: &[&str]) -> Option<std::path::PathBuf> {
    if dir.join(RUN_JSON).is_file() {
        return Some(dir.to_path_buf());
    }
    let name = dir.file_name()?.to_str()?;
    let parent = dir.parent()?;
    let sub = SUBFOLDERS.contains(&name) && !except.contains(&name);
    (sub && parent.join(RUN_JSON).is_file()).then(|| parent.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_refused_and_their_targets_untouched() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "kept").unwrap();
        let planted = tmp.path().join("summary.md");
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        for err in [
            write(&planted, "overwritten").unwrap_err(),
            create(&planted).map(drop).unwrap_err(),
            append(&planted).map(drop).unwrap_err(),
        ] {
            assert!(err.to_string().contains("symbolic link"), "{err}");
        }
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "kept");

        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let sub = tmp.path().join("contenders");
        std::os::unix::fs::symlink(&elsewhere, &sub).unwrap();
        assert!(folder(&sub)
            .unwrap_err()
            .to_string()
            .contains("symbolic link"));

        let fresh = tmp.path().join("a/b");
        folder(&fresh).unwrap();
        write(fresh.join("x"), "1").unwrap();
        append(fresh.join("x")).unwrap().write_all(b"2").unwrap();
        assert_eq!(std::fs::read_to_string(fresh.join("x")).unwrap(), "12");
    }
}
