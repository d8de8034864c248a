//! A hunt's folder: `puzzles.txt` (the best found, best first, each with its
//! score as a comment: readable by `bench` and `solve`), `found.csv` (the same
//! with every figure), `progress.csv` (a row each time the best improved,
//! written as the hunt goes), `charts/hunt-progress.svg|png` and `hunt.json`
//! (what the puzzles were scored for, read back by `hunt --merge`).

use super::{Found, HuntResult, Objective, ProgressRow};
use crate::columns::Columns;
use crate::export::cells::thousands;
use crate::format::{write_line, Alphabet};
use crate::harness::files;
use crate::report::charts::{render, HuntProgress};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The best puzzles found, best first.
pub const PUZZLES_TXT: &str = "puzzles.txt";
/// The same, with every figure.
pub const FOUND_CSV: &str = "found.csv";
/// A row each time the best improved ([`ProgressLine`]).
pub const PROGRESS_CSV: &str = "progress.csv";
/// Every file a hunt (or a merge) writes into its folder, beside `charts/`.
pub const FILES: [&str; 4] = [PUZZLES_TXT, FOUND_CSV, PROGRESS_CSV, HuntRecord::FILE];

/// What a hunt's score is, in words (and in its `hunt.json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreName {
    /// The contender hunted, by the name `--solver` gives it.
    pub hunted: String,
    /// The other contender of a pair hunt.
    #[serde(default)]
    pub against: Option<String>,
    /// The objective.
    #[serde(with = "crate::words::text")]
    pub objective: Objective,
}

/// `hunt.json`: what a hunt's folder (or a merge's) scored its puzzles for,
/// which `hunt --merge` reads back when `--solver` is left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HuntRecord {
    /// The record's version: [`HuntRecord::VERSION`] when written.
    pub version: u32,
    /// The score: the contenders and the objective.
    pub score: ScoreName,
}

impl HuntRecord {
    /// The version this workbench writes, and the newest it reads.
    pub const VERSION: u32 = 1;
    /// Its file in the folder.
    pub const FILE: &'static str = crate::files::HUNT_JSON;

    /// Writes `dir/hunt.json` for `score`; returns its path.
    pub fn write(dir: &Path, score: &ScoreName) -> io::Result<PathBuf> {
        let record = HuntRecord {
            version: HuntRecord::VERSION,
            score: score.clone(),
        };
        let path = dir.join(HuntRecord::FILE);
        let text = serde_json::to_string_pretty(&record).map_err(io::Error::other)?;
        crate::files::write(&path, text + "\n")?;
        Ok(path)
    }

    /// Reads `dir/hunt.json` back: `None` when the folder has none (a hunt
    /// by an older workbench, or puzzles gathered by hand); why not when it
    /// does not read.
    pub fn read(dir: &Path) -> Result<Option<HuntRecord>, RecordError> {
        let path = dir.join(HuntRecord::FILE);
        let text = match std::fs::read_to_string(&path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(RecordError::Read { path, error }),
            Ok(text) => text,
        };
        let record: HuntRecord = match serde_json::from_str(&text) {
            Ok(record) => record,
            Err(error) => return Err(RecordError::Parse { path, error }),
        };
        if record.version > HuntRecord::VERSION {
            return Err(RecordError::Newer {
                path,
                version: record.version,
            });
        }
        Ok(Some(record))
    }
}

/// Why a folder's `hunt.json` does not read ([`HuntRecord::read`]).
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The file is there, but reading it failed.
    #[error("cannot read {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// It is no hunt record.
    #[error("{} does not read: {error}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why.
        error: serde_json::Error,
    },
    /// A newer workbench wrote it.
    #[error("{} is version {version}, newer than this workbench reads ({})", path.display(), HuntRecord::VERSION)]
    Newer {
        /// The file.
        path: PathBuf,
        /// The version it says.
        version: u32,
    },
}

impl ScoreName {
    /// `band guesses`, or `bitset-mrv / dlx nodes` for a pair.
    pub fn short(&self) -> String {
        match &self.against {
            Some(b) => format!("{} / {} {}", self.hunted, b, self.objective.name()),
            None => format!("{} {}", self.hunted, self.objective.name()),
        }
    }

    /// One found puzzle's comment: its score and the costs behind it.
    pub(super) fn comment(
        &self,
        score: f64,
        cost: f64,
        against: Option<f64>,
        censored: bool,
    ) -> String {
        let unit = self.objective.unit();
        let mut s = match (&self.against, against) {
            (Some(b), Some(c)) => format!(
                "ratio {score:.2}: {} {} {unit}, {b} {} {unit}",
                self.hunted,
                count(cost),
                count(c)
            ),
            _ => format!("{} {unit} ({})", count(cost), self.hunted),
        };
        if censored {
            s.push_str(", a limit stopped a solve: a lower bound");
        }
        s
    }
}

/// A cost or count as written: whole numbers with thousands separated.
fn count(v: f64) -> String {
    if v.fract() == 0.0 && (0.0..1e15).contains(&v) {
        thousands(v as u64)
    } else {
        format!("{v:.1}")
    }
}

crate::columns! {
    /// One row of `progress.csv`: a [`ProgressRow`] as written, its scores
    /// as Rust prints them.
    #[derive(Clone, Debug, Default, Serialize)]
    pub struct ProgressLine in ProgressColumns {
        /// Seconds since the hunt began, to the millisecond.
        pub elapsed_s: String,
        /// Moves made in all so far.
        pub iterations: u64,
        /// The island that bettered its best.
        pub island: usize,
        /// Its best score now.
        pub best: String,
        /// The best score of any island so far.
        pub overall: String,
        /// The island's best puzzle's cost.
        pub cost: String,
        /// The other contender's cost on it, in a pair hunt.
        pub against_cost: String,
        /// `copy` for a symmetric copy of the island's best, else `move`.
        pub by: &'static str,
        /// The island's best puzzle.
        pub puzzle: String,
    }
}

/// `progress.csv`, a row written (and flushed) each time the best improves,
/// so that a hunt stopped any way leaves its progress behind.
pub struct ProgressFile {
    out: Mutex<csv::Writer<std::fs::File>>,
    alphabet: Alphabet,
    steps: Mutex<Vec<(f64, usize, f64)>>,
}

impl ProgressFile {
    /// Creates `dir/progress.csv` with its header.
    pub fn create(dir: &Path, alphabet: Alphabet) -> io::Result<ProgressFile> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(crate::files::create(dir.join(PROGRESS_CSV))?);
        w.write_record(ProgressLine::COLUMNS)?;
        w.flush()?;
        Ok(ProgressFile {
            out: Mutex::new(w),
            alphabet,
            steps: Mutex::new(Vec::new()),
        })
    }

    /// Appends one row.
    pub fn row(&self, r: &ProgressRow) -> io::Result<()> {
        crate::sync::lock(&self.steps).push((r.elapsed_s, r.island, r.best));
        let mut w = crate::sync::lock(&self.out);
        w.serialize(ProgressLine {
            elapsed_s: format!("{:.3}", r.elapsed_s),
            iterations: r.iterations,
            island: r.island,
            best: format!("{}", r.best),
            overall: format!("{}", r.overall),
            cost: format!("{}", r.cost),
            against_cost: r.against.map_or(String::new(), |a| format!("{a}")),
            by: if r.copy { "copy" } else { "move" },
            puzzle: write_line(&r.puzzle, &self.alphabet),
        })
        .map_err(io::Error::other)?;
        w.flush()
    }

    /// `(seconds, island, its best)` of every row so far.
    pub fn steps(&self) -> Vec<(f64, usize, f64)> {
        crate::sync::lock(&self.steps).clone()
    }
}

/// What the folder's files say of the hunt, beside the puzzles.
#[derive(Clone, Debug)]
pub struct Header {
    /// The score's name.
    pub score: ScoreName,
    /// The seed.
    pub seed: u64,
    /// Threads.
    pub threads: usize,
    /// Islands.
    pub islands: usize,
    /// Where the chains started, in words.
    pub start: String,
    /// Timed solves behind each time cost.
    pub repeat: u32,
}

/// Writes `puzzles.txt`, `found.csv` and the progress chart; returns the
/// files written.
pub fn write_results(
    dir: &Path,
    header: &Header,
    result: &HuntResult,
    alphabet: &Alphabet,
    steps: &[(f64, usize, f64)],
) -> io::Result<Vec<PathBuf>> {
    let name = &header.score;
    let mut text = String::new();
    let aim = match &name.against {
        Some(b) => format!(
            "the puzzles on which {} needs the most {} relative to {b}",
            name.hunted,
            name.objective.name()
        ),
        None => format!(
            "the puzzles on which {} needs the most {}",
            name.hunted,
            name.objective.name()
        ),
    };
    let _ = writeln!(
        text,
        "# sudoku-bench hunt: {aim} (mode unique), best first."
    );
    let _ = writeln!(
        text,
        "# Seed {}, {} island{} on {} thread{}, started from {}; {} moves, {} puzzles scored in {:.1} s{}.",
        header.seed,
        header.islands,
        if header.islands == 1 { "" } else { "s" },
        header.threads,
        if header.threads == 1 { "" } else { "s" },
        header.start,
        count(result.iterations as f64),
        count(result.evaluations as f64),
        result.elapsed.as_secs_f64(),
        if result.interrupted {
            " (stopped by Ctrl-C)"
        } else {
            ""
        }
    );
    if name.objective == Objective::Time {
        let _ = writeln!(
            text,
            "# Time: the median of {} timed solves in this workbench's harness, on this machine; it varies between runs.",
            header.repeat
        );
    }
    let _ = writeln!(
        text,
        "# Each puzzle has one solution, checked by {}.",
        result.checked_by
    );
    for f in &result.found {
        let _ = writeln!(
            text,
            "{}  # {}",
            write_line(&f.unique.puzzle, alphabet),
            name.comment(f.score, f.cost, f.against, f.censored)
        );
    }
    let puzzles = dir.join(PUZZLES_TXT);
    crate::files::write(&puzzles, text)?;

    let found = dir.join(FOUND_CSV);
    let rows = result.found.iter().enumerate().map(|(i, f)| {
        let at = format!("{:.3}", f.elapsed_s);
        FoundLine::of(i + 1, f, alphabet, at, f.iteration)
    });
    write_found(&found, rows)?;

    let charts = dir.join(files::CHARTS);
    crate::files::folder(&charts)?;
    let chart = HuntProgress {
        score: name.short(),
        plus_one: name.against.is_some() && name.objective == Objective::Guesses,
        steps: steps.to_vec(),
        end_s: result.elapsed.as_secs_f64(),
        islands: header.islands,
        start_best: result.start_best,
    };
    // The grid hunted on: its puzzles'.
    let side = result
        .found
        .first()
        .map(|f| f.unique.puzzle.geometry().side());
    let on = side.map_or(String::new(), |s| format!(" on {s}×{s}"));
    let line = format!(
        "hunt for {}{on} (mode unique): seed {}, {} island{}, {} thread{}, {} s; {}",
        name.short(),
        header.seed,
        header.islands,
        if header.islands == 1 { "" } else { "s" },
        header.threads,
        if header.threads == 1 { "" } else { "s" },
        crate::report::charts::compact(result.elapsed.as_secs_f64()),
        crate::report::charts::machine_here()
    );
    render(&chart, &charts, &line, false).map_err(io::Error::other)?;
    let mut out = vec![puzzles, found, dir.join(PROGRESS_CSV)];
    out.push(charts.join("hunt-progress.svg"));
    out.push(HuntRecord::write(dir, name)?);
    Ok(out)
}

/// Writes the hunt's result lines to `out`: the best few puzzles with their scores.
pub fn print_best(
    out: &mut dyn Write,
    name: &ScoreName,
    result: &HuntResult,
    alphabet: &Alphabet,
    shown: usize,
) -> io::Result<()> {
    for (i, f) in result.found.iter().take(shown).enumerate() {
        writeln!(
            out,
            "{:>3}. {}  {}",
            i + 1,
            write_line(&f.unique.puzzle, alphabet),
            name.comment(f.score, f.cost, f.against, f.censored)
        )?;
    }
    Ok(())
}

/// Declares a `found.csv` row ([`crate::columns!`]): a puzzle kept, best
/// first, its rank, score, costs and givens, the given columns, then the
/// puzzle; and `of`, which makes a row of a [`Found`] and those columns.
macro_rules! found_line {
    ($(#[$m:meta])* $name:ident in $names:ident { $($(#[$fm:meta])* $f:ident: $ty:ty,)* }) => {
        crate::columns! {
            #[cells]
            $(#[$m])*
            pub struct $name in $names {
                /// Its place, from 1.
                pub rank: usize,
                /// Its score, as Rust prints it.
                pub score: String,
                /// The hunted contender's cost.
                pub cost: String,
                /// The other contender's cost, in a pair hunt.
                pub against_cost: Option<String>,
                /// A limit stopped a solve: the cost is a lower bound.
                pub censored: bool,
                /// Its givens.
                pub givens: usize,
                $( $(#[$fm])* pub $f: $ty, )*
                /// The puzzle, on one line.
                pub puzzle: String,
            }
        }

        impl $name {
            /// The row of `found`, ranked `rank`.
            pub fn of(rank: usize, found: &Found, alphabet: &Alphabet, $($f: $ty),*) -> $name {
                $name {
                    rank,
                    score: found.score.to_string(),
                    cost: found.cost.to_string(),
                    against_cost: found.against.map(|a| a.to_string()),
                    censored: found.censored,
                    givens: found.unique.puzzle.givens(),
                    $($f,)*
                    puzzle: write_line(&found.unique.puzzle, alphabet),
                }
            }
        }
    };
}

found_line! {
    /// One row of a hunt's `found.csv`.
    FoundLine in FoundColumns {
        /// Seconds into the hunt when it was found, to the millisecond.
        found_at_s: String,
        /// Moves made in all when it was found.
        found_at_iteration: u64,
    }
}

found_line! {
    /// One row of a merge's `found.csv`: where the puzzle was found.
    MergedLine in MergedColumns {
        /// `DIR/puzzles.txt:LINE` of its first copy.
        source: String,
        /// Where its other copies were, space-separated.
        copies: String,
    }
}

/// Writes `found.csv`: its header, then `rows`.
pub(super) fn write_found<T: crate::columns::Row>(
    path: &Path,
    rows: impl Iterator<Item = T>,
) -> io::Result<()> {
    let mut out = crate::columns::header::<T>();
    for r in rows {
        r.row(&mut out);
    }
    crate::files::write(path, out)
}
