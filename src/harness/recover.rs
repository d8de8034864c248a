//! A run folder read back from `results.csv` and `run.json` alone: the rows a
//! killed run left (a torn last line dropped and named), its summary rebuilt
//! from them, what it lacks, and which puzzles a resumed run still measures.
//! Everything streams: memory grows with one round's share of a dataset, not
//! with the file.

use super::facts::{whole_lines, FactError, Facts};
use super::files;
use super::info::RunInfo;
use super::prepare::Bits;
use super::record::{PuzzleResult, RowStatus, SolveRecord, SummaryRow};
use super::schedule::Pairs;
use super::summary::SummaryBuilder;
use crate::columns::Columns;
use std::collections::HashMap;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a run folder cannot be read back.
#[derive(Debug, thiserror::Error)]
pub enum RecoverError {
    /// No `run.json`: not a run folder.
    #[error("{}: not a run folder (no {})", .0.display(), files::RUN_JSON)]
    NotARun(PathBuf),
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// `run.json` does not parse.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// A row of `results.csv` (not the last) does not parse.
    #[error("{}:{line}: {message}", path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// A row the run cannot count: a contradicting repeat, or one from elsewhere.
    #[error(transparent)]
    Facts(#[from] FactError),
}

/// The last line of a `results.csv`, cut off mid-row by a kill: dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Torn {
    /// Its 1-based line number.
    pub line: u64,
    /// Where it starts: the file's length without it.
    pub offset: u64,
    /// Its bytes.
    pub bytes: u64,
}

impl std::fmt::Display for Torn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} line {}: a row cut off by the kill ({} bytes without a line end), dropped",
            files::RESULTS_CSV,
            self.line,
            self.bytes
        )
    }
}

/// Reads `run.json`.
pub fn read_info(dir: &Path) -> Result<RunInfo, RecoverError> {
    let path = dir.join(crate::harness::RUN_JSON);
    if !path.is_file() {
        return Err(RecoverError::NotARun(dir.to_path_buf()));
    }
    let text = std::fs::read_to_string(&path).map_err(|source| RecoverError::Io {
        path: path.clone(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|e| RecoverError::Json {
        path,
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })
}

/// True when `run.json` says the run ended by itself (not killed, not interrupted).
pub fn is_complete(info: &RunInfo) -> bool {
    !info.finished.is_empty() && !info.interrupted
}

/// What reading a file's rows found besides them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    /// A torn last line, not read.
    pub torn: Option<Torn>,
    /// Rows that repeated one before them, dropped (see [`super::facts`]).
    pub repeats: Option<String>,
}

/// Why a run `run.json` says finished is not whole by its rows: what it
/// lacks (see [`lacking`]) and a torn last line; empty when it is whole.
pub fn not_whole(dir: &Path, info: &RunInfo) -> Result<Vec<String>, RecoverError> {
    let results = dir.join(crate::harness::RESULTS_CSV);
    if !results.is_file() {
        return Ok(vec![format!("no {}", files::RESULTS_CSV)]);
    }
    let cover = Coverage::read(dir, info)?;
    let mut out = lacking(info, &cover);
    out.extend(cover.torn.map(|t| t.to_string()));
    Ok(out)
}

/// Hands every fact of `path` (a `results.csv`) to `each`, once, in file
/// order: a repeated row is dropped, a contradicting or foreign one is an
/// error (see [`super::facts`]; checked against `info` when given). A last
/// line without its line end is a torn write, returned and not read.
pub fn read_rows(
    path: &Path,
    info: Option<&RunInfo>,
    each: &mut dyn FnMut(PuzzleResult),
) -> Result<Rows, RecoverError> {
    read_csv(path, Some(&|p, h| Facts::new(p, h, info)), each)
}

/// [`read_rows`] for a `solves.csv`: a fact is a pass over a puzzle.
pub fn read_solves(
    path: &Path,
    info: Option<&RunInfo>,
    each: &mut dyn FnMut(SolveRecord),
) -> Result<Rows, RecoverError> {
    read_csv(path, Some(&|p, h| Facts::of_solves(p, h, info)), each)
}

/// Hands every whole row of `path` to `each`, in file order, with no check
/// of their keys (a study's solves); returns a torn last line, not read.
pub fn read_rows_of<T: serde::de::DeserializeOwned>(
    path: &Path,
    each: &mut dyn FnMut(T),
) -> Result<Option<Torn>, RecoverError> {
    Ok(read_csv(path, None, each)?.torn)
}

/// How the facts of a file are made from its path and header.
type FactsOf<'a> = &'a dyn Fn(&Path, &csv::StringRecord) -> Facts;

fn read_csv<T: serde::de::DeserializeOwned>(
    path: &Path,
    facts: Option<FactsOf<'_>>,
    each: &mut dyn FnMut(T),
) -> Result<Rows, RecoverError> {
    let io_err = |source| RecoverError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(io_err)?;
    let len = file.metadata().map_err(io_err)?.len();
    let whole = whole_lines(&mut file).map_err(io_err)?;
    let mut reader = csv::Reader::from_reader(io::BufReader::new(file.take(whole)));
    let row_err = |line: u64, message: String| RecoverError::Row {
        path: path.to_path_buf(),
        line,
        message,
    };
    let header = reader
        .headers()
        .map_err(|e| row_err(1, e.to_string()))?
        .clone();
    let mut facts = facts.map(|f| f(path, &header));
    let mut lines = 1u64;
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map_or(lines + 1, |p| p.line());
                return Err(row_err(line, e.to_string()));
            }
        }
        lines += 1;
        if let Some(f) = &mut facts {
            if !f.admit(&record)? {
                continue;
            }
        }
        match record.deserialize::<T>(Some(&header)) {
            Ok(r) => each(r),
            Err(e) => {
                let line = record.position().map_or(lines, |p| p.line());
                return Err(row_err(line, e.to_string()));
            }
        }
    }
    let repeats = match facts {
        Some(f) => f.finish()?,
        None => None,
    };
    Ok(Rows {
        torn: (whole < len).then(|| Torn {
            line: lines + u64::from(whole > 0),
            offset: whole,
            bytes: len - whole,
        }),
        repeats,
    })
}

/// What a run folder holds, contender by contender.
#[derive(Clone, Debug, Default)]
pub struct Coverage {
    /// Per dataset (in `run.json` order): the contenders that have rows, in
    /// first-seen order, with the puzzles each has a row for.
    pub datasets: Vec<(String, Vec<(String, Bits)>)>,
    /// Rows read.
    pub rows: u64,
    /// A torn last line, dropped.
    pub torn: Option<Torn>,
    /// The rounds that have rows.
    pub rounds: std::collections::BTreeSet<u32>,
    /// Rows that repeated one before them with the same values, dropped.
    pub repeats: Option<String>,
}

impl Coverage {
    /// Reads `results.csv` once, each fact once (see [`super::facts`]).
    pub fn read(dir: &Path, info: &RunInfo) -> Result<Coverage, RecoverError> {
        let mut c = Coverage {
            datasets: info
                .datasets
                .iter()
                .map(|d| (d.name.clone(), Vec::new()))
                .collect(),
            ..Default::default()
        };
        let path = dir.join(crate::harness::RESULTS_CSV);
        if !path.is_file() {
            return Ok(c);
        }
        let mut rows = 0;
        let read = read_rows(&path, Some(info), &mut |r| {
            rows += 1;
            c.rounds.insert(r.round);
            let at = match c.datasets.iter().position(|d| d.0 == *r.dataset) {
                Some(i) => i,
                None => {
                    c.datasets.push((r.dataset.to_string(), Vec::new()));
                    c.datasets.len() - 1
                }
            };
            let cs = &mut c.datasets[at].1;
            let ci = match cs.iter().position(|v| v.0 == *r.variant) {
                Some(i) => i,
                None => {
                    cs.push((r.variant.to_string(), Bits::default()));
                    cs.len() - 1
                }
            };
            // An interrupted solve is no measurement: a resumed run redoes it.
            if r.status != RowStatus::Cancelled {
                cs[ci].1.set(r.puzzle_index);
            }
        })?;
        c.rows = rows;
        c.torn = read.torn;
        c.repeats = read.repeats;
        Ok(c)
    }

    /// The puzzles of `dataset` that every one of `contenders` has a row for.
    pub fn done(&self, dataset: &str, contenders: &[String]) -> Bits {
        let Some((_, cs)) = self.datasets.iter().find(|d| d.0 == dataset) else {
            return Bits::default();
        };
        let mut all: Option<Bits> = None;
        for want in contenders {
            let have = cs
                .iter()
                .find(|c| &c.0 == want)
                .map(|c| c.1.clone())
                .unwrap_or_default();
            match &mut all {
                Some(a) => a.and(&have),
                None => all = Some(have),
            }
        }
        all.unwrap_or_default()
    }
}

/// The contenders a run meant to measure on each dataset: its strategies and
/// outside contenders, less the pairs `run.json` says were left out.
pub fn planned(info: &RunInfo, dataset: &str) -> Vec<String> {
    info.options
        .contender_names()
        .into_iter()
        .filter(|v| {
            !info
                .skipped
                .iter()
                .any(|s| &s.variant == v && s.dataset == dataset)
        })
        .collect()
}

/// What a cut-short run lacks, a line per contender and dataset short of
/// rows (empty when nothing is).
pub fn lacking(info: &RunInfo, cover: &Coverage) -> Vec<String> {
    let mut out = Vec::new();
    for d in &info.datasets {
        for v in planned(info, &d.name) {
            let have = cover
                .datasets
                .iter()
                .find(|x| x.0 == d.name)
                .and_then(|x| x.1.iter().find(|c| c.0 == v))
                .map_or(0, |c| c.1.count());
            if have < d.puzzles_run {
                out.push(format!(
                    "`{v}` on {}: {} of {} puzzles",
                    d.name,
                    crate::stats::thousands(have),
                    crate::stats::thousands(d.puzzles_run)
                ));
            }
        }
    }
    // The rounds the run is dealt into: fewer than asked when every dataset
    // is too small for them.
    let (seen, asked) = (cover.rounds.len(), info.most_rounds());
    if !out.is_empty() && asked > 1 {
        out.push(format!("rows from {seen} of its {asked} rounds"));
    }
    out
}

/// What a resumed run keeps of a file it appends to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// Rows dropped: of puzzles measured in part, cancelled, or a torn last line.
    pub dropped: u64,
    /// Rows that repeated one before them, dropped (see [`super::facts`]).
    pub repeats: Vec<String>,
}

/// Keeps only the rows of puzzles that `keep` says are whole (every planned
/// contender has its row), each once, dropping a torn last line too: the
/// file a resumed run appends to. `solves.csv`, where the run kept it, is
/// cut the same way, so that no solve is written twice. A row the run
/// cannot count (see [`super::facts`]) refuses the folder.
pub fn keep_whole_puzzles(
    dir: &Path,
    info: &RunInfo,
    keep: &dyn Fn(&str, u64) -> bool,
) -> Result<Kept, RecoverError> {
    let path = dir.join(crate::harness::RESULTS_CSV);
    if !path.is_file() {
        // Killed before its first row: the file is begun, header only.
        let mut header = csv::Writer::from_writer(Vec::new());
        let io_err = |source| RecoverError::Io {
            path: path.clone(),
            source,
        };
        header
            .write_record(PuzzleResult::COLUMNS)
            .map_err(|e| io_err(io::Error::other(e)))?;
        let bytes = header
            .into_inner()
            .map_err(|e| io_err(io::Error::other(e.to_string())))?;
        crate::files::write(&path, bytes).map_err(io_err)?;
        return Ok(Kept::default());
    }
    let mut kept = Kept::default();
    let (dropped, repeats) = rewrite::<PuzzleResult>(&path, &mut |path, each| {
        read_rows(path, Some(info), &mut |r: PuzzleResult| {
            let whole = r.status != RowStatus::Cancelled && keep(&r.dataset, r.puzzle_index);
            each(r, whole)
        })
    })?;
    kept.dropped += dropped;
    kept.repeats.extend(repeats);
    let solves = dir.join(files::SOLVES_CSV);
    if solves.is_file() {
        let (dropped, repeats) = rewrite::<SolveRecord>(&solves, &mut |path, each| {
            read_solves(path, Some(info), &mut |r: SolveRecord| {
                let whole = r.status != RowStatus::Cancelled && keep(&r.dataset, r.puzzle_index);
                each(r, whole)
            })
        })?;
        kept.dropped += dropped;
        kept.repeats.extend(repeats);
    }
    Ok(kept)
}

/// How [`rewrite`] reads a file: each row with whether it is kept.
type ReadKept<'a, T> =
    &'a mut dyn FnMut(&Path, &mut dyn FnMut(T, bool)) -> Result<Rows, RecoverError>;

/// Writes the rows of `path` that `read` keeps to a file beside it, then puts
/// that file in its place; returns the rows dropped (a torn line counted)
/// and the note on repeated rows.
fn rewrite<T: serde::Serialize + Columns>(
    path: &Path,
    read: ReadKept<'_, T>,
) -> Result<(u64, Option<String>), RecoverError> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let tmp = path.with_file_name(format!("{name}.resume"));
    let io_err = |p: &Path| {
        let p = p.to_path_buf();
        move |source| RecoverError::Io { path: p, source }
    };
    let file = crate::files::create(&tmp).map_err(io_err(&tmp))?;
    let mut out = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(io::BufWriter::new(file));
    out.write_record(T::COLUMNS)
        .map_err(|e| io_err(&tmp)(io::Error::other(e)))?;
    let (mut dropped, mut failed) = (0u64, None);
    let read = read(path, &mut |r, whole| {
        if whole {
            if failed.is_none() {
                if let Err(e) = out.serialize(&r) {
                    failed = Some(io::Error::other(e));
                }
            }
        } else {
            dropped += 1;
        }
    });
    let read = match read {
        Ok(read) => read,
        Err(e) => {
            drop(out);
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
    };
    if let Some(e) = failed {
        return Err(io_err(&tmp)(e));
    }
    let inner = out
        .into_inner()
        .map_err(|e| io_err(&tmp)(io::Error::other(e.to_string())))?;
    inner
        .into_inner()
        .map_err(|e| io_err(&tmp)(e.into_error()))?
        .sync_all()
        .map_err(io_err(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_err(path))?;
    Ok((dropped + u64::from(read.torn.is_some()), read.repeats))
}

/// One dataset's rows gathered for its summary.
struct Gathered {
    variants: Vec<Arc<str>>,
    builders: Vec<SummaryBuilder>,
    meta: Vec<Option<PuzzleResult>>,
    pairs: Pairs,
    /// The current chunk: its round and each variant's solved (index, ns).
    chunk: Option<u32>,
    times: Vec<Vec<(u64, u64)>>,
}

impl Gathered {
    fn new(variants: Vec<Arc<str>>) -> Gathered {
        let k = variants.len();
        Gathered {
            builders: vec![SummaryBuilder::default(); k],
            meta: vec![None; k],
            pairs: Pairs::new(k),
            chunk: None,
            times: vec![Vec::new(); k],
            variants,
        }
    }

    fn flush(&mut self) {
        if let Some(round) = self.chunk.take() {
            for t in &mut self.times {
                t.sort_unstable();
            }
            self.pairs.add(round as usize, &self.times);
            self.times.iter_mut().for_each(Vec::clear);
        }
    }

    fn add(&mut self, r: PuzzleResult) {
        let Some(ci) = self.variants.iter().position(|v| *v == r.variant) else {
            return;
        };
        if self.chunk != Some(r.round) {
            self.flush();
            self.chunk = Some(r.round);
        }
        self.builders[ci].add(&r);
        self.builders[ci].add_timed(r.median_ns.saturating_mul(u64::from(r.solves)));
        if r.status.is_solved() {
            self.times[ci].push((r.puzzle_index, r.median_ns));
        }
        if self.meta[ci].is_none() {
            self.meta[ci] = Some(r);
        }
    }
}

/// The summary of the rows in `dir`'s `results.csv`, rebuilt as the harness
/// builds it: each dataset's contenders in first-seen order, intervals over
/// the rounds, speeds against `reference` or the fastest. The wall time of
/// a rebuilt row is not known: it is taken as the row's timed solves over
/// the threads, so its puzzles/s leaves out the harness's own work.
pub fn summarize(
    dir: &Path,
    cover: &Coverage,
    reference: Option<&str>,
) -> Result<Vec<SummaryRow>, RecoverError> {
    let mut sets: HashMap<String, Gathered> = cover
        .datasets
        .iter()
        .map(|(d, cs)| {
            let vs = cs.iter().map(|c| Arc::from(c.0.as_str())).collect();
            (d.clone(), Gathered::new(vs))
        })
        .collect();
    let path = dir.join(crate::harness::RESULTS_CSV);
    if path.is_file() {
        read_rows(&path, None, &mut |r| {
            if let Some(g) = sets.get_mut(&*r.dataset) {
                g.add(r);
            }
        })?;
    }
    let mut out = Vec::new();
    for (name, _) in &cover.datasets {
        let Some(mut g) = sets.remove(name) else {
            continue;
        };
        g.flush();
        let mut rows: Vec<SummaryRow> = Vec::new();
        for ((b, meta), variant) in g.builders.into_iter().zip(g.meta).zip(&g.variants) {
            let Some(m) = meta else { continue };
            let threads = m.threads.max(1);
            let wall = b.timed_ns() as f64 / 1e9 / threads as f64;
            let mut row = b.finish(&m.strategy, variant, name, threads, wall);
            row.origin = origin(&m.strategy, variant).to_string();
            row.timing = m.timing.word().to_string();
            row.checked = m.checked.word().to_string();
            rows.push(row);
        }
        g.pairs.relate(&mut rows, reference);
        out.extend(rows);
    }
    Ok(out)
}

/// Where a variant comes from, by its strategy's word.
fn origin(strategy: &str, variant: &str) -> &'static str {
    use crate::contender::Origin;
    match (strategy, crate::solver::SolverId::from_name(variant)) {
        ("external" | "library", _) => Origin::External,
        (_, Some(id)) if id.is_reference() => Origin::Reference,
        _ => Origin::BuiltIn,
    }
    .word()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(i: u64) -> String {
        format!("band,band,hard-9x9,{i},0,unique,1,3,0,1,900,900,,1,,call,solution,,,,\n")
    }

    #[test]
    fn a_torn_last_row_is_dropped_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.csv");
        let header = PuzzleResult::COLUMNS.join(",") + "\n";
        let whole = format!("{header}{}{}", row(0), row(1));
        std::fs::write(&path, format!("{whole}band,band,hard-9x9,2,0,uni")).unwrap();
        let mut seen = Vec::new();
        let torn = read_rows(&path, None, &mut |r| seen.push(r.puzzle_index))
            .unwrap()
            .torn;
        assert_eq!(seen, [0, 1]);
        let t = torn.expect("torn");
        assert_eq!((t.line, t.offset), (4, whole.len() as u64));
        assert!(t
            .to_string()
            .starts_with("results.csv line 4: a row cut off"));
        // Whole lines only: nothing torn.
        std::fs::write(&path, &whole).unwrap();
        assert_eq!(read_rows(&path, None, &mut |_| {}).unwrap().torn, None);
        // A bad row before the end is an error naming its line.
        std::fs::write(&path, format!("{header}{}x,y\n{}", row(0), row(1))).unwrap();
        let e = read_rows(&path, None, &mut |_| {}).unwrap_err().to_string();
        assert!(e.contains("results.csv:3"), "{e}");
    }

    #[test]
    fn done_puzzles_are_those_every_contender_has() {
        let mut a = Bits::default();
        let mut b = Bits::default();
        for i in [1, 5, 70, 200] {
            a.set(i);
        }
        for i in [5, 70, 71] {
            b.set(i);
        }
        let cover = Coverage {
            datasets: vec![("d".into(), vec![("a".into(), a), ("b".into(), b)])],
            ..Default::default()
        };
        let done = cover.done("d", &["a".into(), "b".into()]);
        assert_eq!(done.count(), 2);
        assert!(done.get(5) && done.get(70) && !done.get(1) && !done.get(71));
        // A contender with no rows: nothing is done.
        assert_eq!(cover.done("d", &["a".into(), "c".into()]).count(), 0);
    }
}
