//! A study cut short, read back: `shares.csv` says which shares were
//! measured and how many solves each wrote to `solves.csv`, in order, so a
//! resumed study takes those as they are and measures the rest.

use super::session::Resumed;
use super::{Measured, Share, StudyFile, StudyInfo, StudyOptions};
use crate::columns::{header, Columns, Row};
use crate::harness::recover::read_rows_of;
use crate::harness::SolveRecord;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

crate::columns! {
    #[cells]
    /// One line of `shares.csv`: a share measured, and its solves written
    /// to `solves.csv` before this line.
    #[derive(Clone, Copy, Debug)]
    pub struct ShareLine in ShareColumns {
        /// Index into [`StudyOptions::points`].
        pub point: usize,
        /// Index into [`StudyOptions::modes`].
        pub mode: usize,
        /// The round.
        pub round: usize,
        /// Its solves.
        pub solves: usize,
    }
}

/// `shares.csv`, appended to a share at a time.
pub struct ShareLog {
    out: std::fs::File,
}

impl ShareLog {
    /// Creates the file with its header, or (`append`) opens it to add to.
    pub fn open(path: &Path, append: bool) -> io::Result<ShareLog> {
        if append {
            let out = crate::files::append(path)?;
            return Ok(ShareLog { out });
        }
        let mut out = crate::files::create(path)?;
        out.write_all(&header::<ShareLine>())?;
        Ok(ShareLog { out })
    }

    /// Says that `share` is measured, its `solves` solves written before this line.
    pub fn add(&mut self, share: Share, solves: usize) -> io::Result<()> {
        let mut line = Vec::new();
        ShareLine {
            point: share.point,
            mode: share.mode,
            round: share.round,
            solves,
        }
        .row(&mut line);
        self.out.write_all(&line)?;
        self.out.flush()
    }
}

/// Why a study folder cannot be resumed.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// study.json asks for more threads than this machine takes.
    #[error(transparent)]
    Threads(RecordedThreads),
    /// study.json records a value no `study` command takes (edited by hand).
    #[error("{}: study.json records {what}, which no study takes: not resumed", path.display())]
    Recorded {
        /// The study's folder.
        path: PathBuf,
        /// The value, in words.
        what: String,
    },
    /// The folder holds no study.
    #[error("{}: not a study folder (no {})", .0.display(), super::JSON)]
    NotAStudy(PathBuf),
    /// `study.json` does not read.
    #[error("reading {}: {source}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// Another build began it, and resuming it was not forced.
    #[error("{}: the study was {why}; not resumed (--force resumes anyway)", dir.display())]
    OtherBuild {
        /// The study folder.
        dir: PathBuf,
        /// How the builds differ.
        why: String,
    },
    /// Its options no longer make a study.
    #[error(transparent)]
    Study(#[from] super::StudyError),
    /// A file could not be read or rewritten.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// A file says something other than what the study wrote.
    #[error("{}:{line}: {message}", path.display())]
    Bad {
        /// The file.
        path: std::path::PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
}

/// More threads than this machine takes, as study.json records them.
#[derive(Debug, thiserror::Error)]
#[error("{}: study.json: {source}", path.display())]
pub struct RecordedThreads {
    /// The study's folder.
    pub path: std::path::PathBuf,
    /// The bound it passes.
    #[source]
    pub source: crate::usage::TooManyThreads,
}

/// What `study resume` finds in a study folder.
pub enum Resumable {
    /// The study finished (at this time): nothing to resume.
    Complete(String),
    /// The study was cut short: what to run again, and what it measured.
    CutShort {
        /// Its options, as study.json records them.
        info: Box<StudyInfo>,
        /// What it wrote and measured.
        resumed: Box<Resumed>,
        /// Why it is resumed although another build began it (`force`).
        despite: Option<String>,
    },
}

/// Reads the study in `dir` back: complete, or cut short with its options
/// and the shares it measured (see [`measured`]). One another build began
/// is refused unless `force`.
pub fn resumable(dir: &Path, force: bool) -> Result<Resumable, ResumeError> {
    let json = dir.join(super::JSON);
    if !json.is_file() {
        return Err(ResumeError::NotAStudy(dir.to_path_buf()));
    }
    let text = std::fs::read_to_string(&json).map_err(|source| ResumeError::Io {
        path: json.clone(),
        source,
    })?;
    let file: StudyFile =
        serde_json::from_str(&text).map_err(|source| ResumeError::Json { path: json, source })?;
    if !file.run.finished.is_empty() && !file.run.interrupted {
        return Ok(Resumable::Complete(file.run.finished));
    }
    let despite = file
        .run
        .other_build()
        .map(|why| format!("the study was {why}"));
    if let (Some(why), false) = (&file.run.other_build(), force) {
        return Err(ResumeError::OtherBuild {
            dir: dir.to_path_buf(),
            why: why.clone(),
        });
    }
    let info = file.study.clone();
    crate::usage::check_threads(info.options.threads, crate::usage::cores()).map_err(|source| {
        ResumeError::Threads(RecordedThreads {
            path: dir.to_path_buf(),
            source,
        })
    })?;
    let o = &info.options;
    let most = crate::harness::plan::MOST_REPEATS;
    let wrong = [
        (o.puzzles == 0, "0 puzzles a point".to_string()),
        (o.rounds == 0, "0 rounds".to_string()),
        (
            o.repeat == 0 || o.repeat > most,
            format!("repeat {} (1 to {most})", o.repeat),
        ),
    ];
    if let Some((_, what)) = wrong.into_iter().find(|w| w.0) {
        return Err(ResumeError::Recorded {
            path: dir.to_path_buf(),
            what,
        });
    }
    super::check_handled(&info.options)?;
    let earlier = measured(dir, &info.options)?;
    Ok(Resumable::CutShort {
        info: Box::new(info),
        resumed: Box::new(Resumed { file, earlier }),
        despite,
    })
}

/// The shares a study in `dir` measured, with their solves. Both files are
/// cut back to the last share whose line is whole (what a kill left after
/// it is measured again).
pub fn measured(dir: &Path, opts: &StudyOptions) -> Result<Measured, ResumeError> {
    let shares_path = dir.join(super::write::SHARES_CSV);
    let solves_path = dir.join(super::write::SOLVES_CSV);
    let io_err = |p: &Path| {
        let path = p.to_path_buf();
        move |source| ResumeError::Io { path, source }
    };
    // The shares whose lines are whole.
    let text = std::fs::read(&shares_path).map_err(io_err(&shares_path))?;
    let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut shares = Vec::new();
    for (i, line) in String::from_utf8_lossy(&text[..whole])
        .lines()
        .enumerate()
        .skip(1)
    {
        let bad = |message: String| ResumeError::Bad {
            path: shares_path.clone(),
            line: i as u64 + 1,
            message,
        };
        let n: Vec<usize> = line
            .split(',')
            .map(|w| w.trim().parse())
            .collect::<Result<_, _>>()
            .map_err(|_| {
                bad(format!(
                    "{line:?}: expected {}",
                    ShareLine::COLUMNS.join(",")
                ))
            })?;
        let [point, mode, round, solves] = n[..] else {
            return Err(bad(format!("{line:?}: expected four numbers")));
        };
        if point >= opts.points.len() || mode >= opts.modes.len() {
            return Err(bad(format!(
                "{line:?}: no such point or mode in this study"
            )));
        }
        shares.push((Share { point, mode, round }, solves));
    }
    // Their solves, in the order they were written.
    let mut all: Vec<SolveRecord> = Vec::new();
    read_rows_of(&solves_path, &mut |r: SolveRecord| all.push(r)).map_err(|e| {
        ResumeError::Bad {
            path: solves_path.clone(),
            line: 0,
            message: e.to_string(),
        }
    })?;
    let wanted: usize = shares.iter().map(|s| s.1).sum();
    if all.len() < wanted {
        return Err(ResumeError::Bad {
            path: solves_path.clone(),
            line: all.len() as u64 + 1,
            message: format!(
                "{} solves, but {} counts {wanted} before the end",
                all.len(),
                super::write::SHARES_CSV
            ),
        });
    }
    all.truncate(wanted);
    rewrite(&solves_path, &all).map_err(io_err(&solves_path))?;
    crate::files::write(&shares_path, &text[..whole]).map_err(io_err(&shares_path))?;
    let mut out = Measured::new();
    let mut rest = all.into_iter();
    for (share, n) in shares {
        out.insert(share, rest.by_ref().take(n).collect());
    }
    Ok(out)
}

/// Writes `solves.csv` again with just these solves.
fn rewrite(path: &Path, solves: &[SolveRecord]) -> io::Result<()> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(io::BufWriter::new(crate::files::create(path)?));
    w.write_record(SolveRecord::COLUMNS)
        .map_err(io::Error::other)?;
    for s in solves {
        w.serialize(s).map_err(io::Error::other)?;
    }
    w.flush()?;
    Ok(())
}
