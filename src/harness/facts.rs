//! A run folder's rows as a set of facts, each counted once: the one place
//! every reader of `results.csv` and `solves.csv` (`report`, `compare`,
//! `history`, `bench --resume`) asks whether a row is new.
//!
//! A row of `results.csv` is keyed by its variant, dataset and puzzle index:
//! it stands for every pass over the puzzle (its `solves`), and the round is
//! the puzzle's own. A row of `solves.csv` (and of `results.csv` in runs
//! saved with a row per solve) adds its pass, `repeat`. A second row with a
//! key seen before is dropped when it repeats the first one's values, with
//! a note; one with other values refuses the folder, naming both lines. A
//! row for a dataset, variant or puzzle the run's `run.json` does not have
//! refuses the folder, naming its line.
//!
//! Memory stays at a bit per puzzle, contender and pass: a repeated key is
//! kept aside with its row, and the rows seen first are looked up in a
//! second read of the file, only when some key was repeated.

use super::info::RunInfo;
use super::prepare::Bits;
use super::record::{PuzzleResult, SolveRecord};
use std::collections::HashMap;
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};

/// A row that cannot be counted: the folder is refused.
#[derive(Debug, thiserror::Error)]
pub enum FactError {
    /// Two rows with the same key and different values.
    #[error("{}:{line}: {key}: a second row for it, with other values than line {first} (a run writes one row per puzzle{pass}): the folder's rows contradict each other; remove one of the two", path.display(), pass = if *.per_pass { " and pass" } else { "" })]
    Conflict {
        /// The file.
        path: PathBuf,
        /// 1-based line of the row seen first.
        first: u64,
        /// 1-based line of the second row.
        line: u64,
        /// The key, in words.
        key: String,
        /// True when the key holds the pass.
        per_pass: bool,
    },
    /// A row for something the run does not have.
    #[error("{}:{line}: {what}, which the run does not have ({run_json} {has}): a row from elsewhere; remove it", path.display(), run_json = super::files::RUN_JSON)]
    Foreign {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// What the row is for.
        what: String,
        /// What the run has instead.
        has: String,
    },
    /// The file could not be read again to look up a repeated key.
    #[error("{}: {message}", path.display())]
    Reread {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

/// A row's key: variant, dataset, puzzle index and pass (0 where a row
/// stands for every pass).
type Key = (String, String, u64, u32);

/// What the run's `run.json` says a row may be for.
#[derive(Clone, Debug, Default)]
struct Known {
    /// Datasets and the puzzles in their source (indices run below it).
    datasets: Vec<(String, u64)>,
    /// Variant names (strategies and outside contenders).
    variants: Vec<String>,
}

/// A repeated key: the row, kept until the row seen first is read again.
struct Repeat {
    key: Key,
    line: u64,
    record: csv::ByteRecord,
}

/// The facts of one file read so far (see the module's docs).
pub struct Facts {
    path: PathBuf,
    known: Option<Known>,
    /// Column positions of variant, dataset, puzzle index and (when the
    /// rows are per pass) repeat.
    columns: Option<[Option<usize>; 4]>,
    per_pass: bool,
    seen: HashMap<(String, String, u32), Bits>,
    repeats: Vec<Repeat>,
}

impl Facts {
    /// Facts of the file at `path` with the header `header`; `info` is the
    /// run's `run.json`, when it has one (rows are then checked against it).
    /// A file without the key's columns is read as it is.
    pub fn new(path: &Path, header: &csv::StringRecord, info: Option<&RunInfo>) -> Facts {
        let at = |name: &str| header.iter().position(|h| h.trim() == name);
        let (c, s) = (PuzzleResult::NAMES, SolveRecord::NAMES);
        let per_pass = at(c.median_ns).is_none() && at(s.repeat).is_some();
        let columns = match (at(c.variant), at(c.dataset), at(c.puzzle_index)) {
            (Some(v), Some(d), Some(i)) => {
                Some([Some(v), Some(d), Some(i), at(s.repeat).filter(|_| per_pass)])
            }
            _ => None,
        };
        Facts {
            path: path.to_path_buf(),
            known: info.map(|i| Known {
                datasets: i
                    .datasets
                    .iter()
                    .map(|d| (d.name.clone(), d.puzzles_in_source))
                    .collect(),
                variants: i.options.contender_names(),
            }),
            columns,
            per_pass,
            seen: HashMap::new(),
            repeats: Vec::new(),
        }
    }

    /// Facts of a `solves.csv`: its rows are per pass.
    pub fn of_solves(path: &Path, header: &csv::StringRecord, info: Option<&RunInfo>) -> Facts {
        let mut f = Facts::new(path, header, info);
        f.per_pass = true;
        if let Some(cols) = &mut f.columns {
            cols[3] = header
                .iter()
                .position(|h| h.trim() == SolveRecord::NAMES.repeat);
        }
        f
    }

    /// The key of `record`: variant, dataset, puzzle index and pass; `None`
    /// where a field is missing or the index is not a number (the reader
    /// says what is wrong with it).
    fn key(&self, record: &csv::StringRecord) -> Option<Key> {
        let [v, d, i, r] = self.columns?;
        let field = |c: Option<usize>| record.get(c?).map(str::trim);
        let index = field(i)?.parse().ok()?;
        let pass = match r {
            Some(_) => field(r)?.parse().ok()?,
            None => 0,
        };
        Some((field(v)?.to_string(), field(d)?.to_string(), index, pass))
    }

    /// True when `record` is a fact not seen before, to be counted; false
    /// for a repeat of a row seen before (kept aside, to be checked by
    /// [`Facts::finish`]); an error for a row the run does not have.
    pub fn admit(&mut self, record: &csv::StringRecord) -> Result<bool, FactError> {
        let Some(key) = self.key(record) else {
            return Ok(true);
        };
        let line = record.position().map_or(0, |p| p.line());
        if let Some(known) = &self.known {
            self.check(known, &key, line)?;
        }
        let bits = self
            .seen
            .entry((key.0.clone(), key.1.clone(), key.3))
            .or_default();
        if bits.get(key.2) {
            self.repeats.push(Repeat {
                key,
                line,
                record: record.as_byte_record().clone(),
            });
            return Ok(false);
        }
        bits.set(key.2);
        Ok(true)
    }

    fn check(
        &self,
        known: &Known,
        (variant, dataset, index, _): &Key,
        line: u64,
    ) -> Result<(), FactError> {
        let foreign = |what: String, has: String| FactError::Foreign {
            path: self.path.clone(),
            line,
            what,
            has,
        };
        let list = |names: &mut dyn Iterator<Item = &String>| {
            let names: Vec<&str> = names.map(String::as_str).collect();
            names.join(", ")
        };
        if !known.datasets.is_empty() {
            match known.datasets.iter().find(|d| d.0 == *dataset) {
                None => {
                    return Err(foreign(
                        format!("a row for dataset `{dataset}`"),
                        format!("lists {}", list(&mut known.datasets.iter().map(|d| &d.0))),
                    ))
                }
                Some((_, n)) if index >= n => {
                    return Err(foreign(
                        format!("a row for puzzle {index} of {dataset}"),
                        format!(
                            "says it holds {n} puzzles, indices 0 to {}",
                            n.saturating_sub(1)
                        ),
                    ))
                }
                Some(_) => {}
            }
        }
        if !known.variants.is_empty() && !known.variants.contains(variant) {
            return Err(foreign(
                format!("a row for contender `{variant}`"),
                format!("lists {}", list(&mut known.variants.iter())),
            ));
        }
        Ok(())
    }

    /// Checks the repeated keys against the rows seen first (reading the
    /// file again when there are some): an error for one with other values;
    /// else a note on the identical rows dropped, if any.
    pub fn finish(self) -> Result<Option<String>, FactError> {
        if self.repeats.is_empty() {
            return Ok(None);
        }
        let reread = |message: String| FactError::Reread {
            path: self.path.clone(),
            message,
        };
        let mut firsts: HashMap<&Key, Option<(u64, csv::ByteRecord)>> =
            self.repeats.iter().map(|r| (&r.key, None)).collect();
        let mut file = std::fs::File::open(&self.path).map_err(|e| reread(e.to_string()))?;
        let whole = whole_lines(&mut file).map_err(|e| reread(e.to_string()))?;
        let mut reader = csv::ReaderBuilder::new()
            .flexible(true)
            .from_reader(std::io::BufReader::new(file.take(whole)));
        let mut record = csv::StringRecord::new();
        loop {
            match reader.read_record(&mut record) {
                Ok(false) => break,
                Ok(true) => {}
                Err(e) => return Err(reread(e.to_string())),
            }
            let Some(key) = self.key(&record) else {
                continue;
            };
            if let Some(first @ None) = firsts.get_mut(&key) {
                let line = record.position().map_or(0, |p| p.line());
                *first = Some((line, record.as_byte_record().clone()));
            }
        }
        let mut lines = Vec::new();
        for r in &self.repeats {
            let Some(Some((first, record))) = firsts.get(&r.key) else {
                continue;
            };
            if !same(record, &r.record) {
                return Err(FactError::Conflict {
                    path: self.path.clone(),
                    first: *first,
                    line: r.line,
                    key: describe(&r.key, self.per_pass),
                    per_pass: self.per_pass,
                });
            }
            lines.push(r.line);
        }
        let name = self
            .path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let shown: Vec<String> = lines.iter().take(10).map(u64::to_string).collect();
        let more = if lines.len() > shown.len() {
            format!(" and {} more", lines.len() - shown.len())
        } else {
            String::new()
        };
        Ok(Some(format!(
            "{name}: {} {} the same values as a row before {}, dropped (line{} {}{more})",
            lines.len(),
            if lines.len() == 1 {
                "row repeats"
            } else {
                "rows repeat"
            },
            if lines.len() == 1 { "it" } else { "them" },
            if lines.len() == 1 { "" } else { "s" },
            shown.join(", ")
        )))
    }
}

/// True when two rows hold the same values (fields compared trimmed).
fn same(a: &csv::ByteRecord, b: &csv::ByteRecord) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.trim_ascii() == y.trim_ascii())
}

fn describe((variant, dataset, index, pass): &Key, per_pass: bool) -> String {
    if per_pass {
        format!("`{variant}` on puzzle {index} of {dataset}, pass {pass}")
    } else {
        format!("`{variant}` on puzzle {index} of {dataset}")
    }
}

/// The length of `file` up to its last line end (everything after it is a
/// row a kill cut off); the file is left at its start.
pub fn whole_lines(file: &mut std::fs::File) -> io::Result<u64> {
    let mut whole = file.metadata()?.len();
    let mut tail = vec![0u8; 64 * 1024];
    while whole > 0 {
        let from = whole.saturating_sub(tail.len() as u64);
        let n = (whole - from) as usize;
        file.seek(io::SeekFrom::Start(from))?;
        file.read_exact(&mut tail[..n])?;
        match tail[..n].iter().rposition(|&b| b == b'\n') {
            Some(i) => {
                whole = from + i as u64 + 1;
                break;
            }
            None => whole = from,
        }
    }
    file.rewind()?;
    Ok(whole)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads `text` as a `results.csv` through [`Facts`]: the puzzle
    /// indices kept, and the note or error.
    fn read(text: &str) -> (Vec<String>, Result<Option<String>, String>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("results.csv");
        std::fs::write(&path, text).unwrap();
        let mut r = csv::Reader::from_path(&path).unwrap();
        let header = r.headers().unwrap().clone();
        let mut facts = Facts::new(&path, &header, None);
        let mut kept = Vec::new();
        for rec in r.records() {
            let rec = rec.unwrap();
            match facts.admit(&rec) {
                Ok(true) => kept.push(rec[2].to_string()),
                Ok(false) => {}
                Err(e) => return (kept, Err(e.to_string())),
            }
        }
        (kept, facts.finish().map_err(|e| e.to_string()))
    }

    const HEAD: &str = "variant,dataset,puzzle_index,round,median_ns\n";

    #[test]
    fn a_repeat_is_dropped_and_named_and_a_contradiction_refused() {
        let rows = "a,d,0,0,5\na,d,1,1,6\nb,d,0,0,7\n";
        let (kept, note) = read(&format!("{HEAD}{rows}a,d,1,1,6\n"));
        assert_eq!(kept, ["0", "1", "0"]);
        assert_eq!(
            note.unwrap().unwrap(),
            "results.csv: 1 row repeats the same values as a row before it, dropped (line 5)"
        );
        let (_, e) = read(&format!("{HEAD}{rows}a,d,1,1,9\n"));
        let e = e.unwrap_err();
        assert!(e.contains("results.csv:5: `a` on puzzle 1 of d"), "{e}");
        assert!(e.contains("other values than line 3"), "{e}");
        // Nothing repeated: no note.
        assert_eq!(read(&format!("{HEAD}{rows}")).1.unwrap(), None);
    }

    #[test]
    fn rows_per_solve_are_keyed_by_their_pass() {
        let head = "variant,dataset,puzzle_index,repeat,solve_ns\n";
        let (kept, note) = read(&format!("{head}a,d,0,0,5\na,d,0,1,6\na,d,0,1,6\n"));
        assert_eq!(kept.len(), 2);
        assert!(note.unwrap().unwrap().contains("(line 4)"));
    }
}
