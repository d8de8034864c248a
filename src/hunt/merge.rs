//! `hunt --merge`: the kept puzzles of several hunts (other seeds, other
//! machines) as one list. Each puzzle is checked again for one solution,
//! scored again on this machine, and kept once up to symmetry: a puzzle
//! that is another under a permutation of bands, rows within a band,
//! stacks, columns within a stack, a transposition and a relabelling of
//! the digits is the same find. Without `--solver`, the puzzles are scored
//! for what the hunts recorded in their `hunt.json` ([`recorded_score`]).

use super::moves::Unique;
use super::score::Scorer;
use super::write::{write_found, HuntRecord, MergedLine, ScoreName, FOUND_CSV, PUZZLES_TXT};
use super::{Found, HuntError, HuntOptions};
use crate::contender::Contender;
use crate::format::{write_line, Alphabet};
use crate::grid::Grid;
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use crate::transform::symmetric;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A kept puzzle, with where it came from.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The puzzle, scored on this machine.
    pub found: Found,
    /// `DIR/puzzles.txt:LINE` of its first copy.
    pub source: String,
    /// Other copies (the same or symmetric), where they were.
    pub copies: Vec<String>,
}

/// What a merge came to.
#[derive(Clone, Debug, Default)]
pub struct MergeResult {
    /// The puzzles kept, best first.
    pub kept: Vec<Merged>,
    /// Puzzles read in all.
    pub read: usize,
    /// Why each puzzle that was dropped was (not one solution, a failed score).
    pub dropped: Vec<String>,
}

/// The puzzles of `dirs` (each a hunt's folder with its `puzzles.txt`),
/// checked, scored for `hunted` (relative to `against`) as `opts` asks, and
/// kept once up to symmetry, best first.
pub fn merge(
    dirs: &[PathBuf],
    hunted: &Contender,
    against: Option<&Contender>,
    opts: &HuntOptions,
    cancel: &Arc<AtomicBool>,
) -> Result<MergeResult, HuntError> {
    let scorer = Scorer::new(hunted, against, opts, cancel);
    let checker = SolverId::DlxCrate;
    let mut out = MergeResult::default();
    let mut all: Vec<Merged> = Vec::new();
    for dir in dirs {
        for (grid, source) in read(dir)? {
            out.read += 1;
            let verdict = checker.solve(&grid, &Limits::new(Mode::Unique));
            let (Status::Unique, Some(solution)) = (verdict.status, verdict.first()) else {
                out.dropped.push(format!(
                    "{source}: {} says {}, not one solution",
                    checker.name(),
                    verdict.status
                ));
                continue;
            };
            let unique = Unique {
                puzzle: grid,
                solution: solution.clone(),
            };
            match scorer.score(&unique) {
                Ok(s) => all.push(Merged {
                    found: s.found(unique, 0, 0.0),
                    source,
                    copies: Vec::new(),
                }),
                Err(why) => out.dropped.push(format!("{source}: {why}")),
            }
        }
    }
    // Best first; a tie to fewer givens, then the first read.
    all.sort_by(|a, b| {
        b.found.score.total_cmp(&a.found.score).then_with(|| {
            a.found
                .unique
                .puzzle
                .givens()
                .cmp(&b.found.unique.puzzle.givens())
        })
    });
    for m in all {
        match out
            .kept
            .iter_mut()
            .find(|k| symmetric(&k.found.unique.puzzle, &m.found.unique.puzzle))
        {
            Some(k) => k.copies.push(m.source),
            None => out.kept.push(m),
        }
    }
    out.kept.truncate(opts.keep.max(1));
    Ok(out)
}

/// The score the hunts of `dirs` were hunted for, as their `hunt.json`
/// records it: every folder must keep one, and all the same.
pub fn recorded_score(dirs: &[PathBuf]) -> Result<ScoreName, HuntError> {
    let mut agreed: Option<(&PathBuf, ScoreName)> = None;
    for dir in dirs {
        let unrecorded = |why: String| HuntError::Unrecorded {
            dir: dir.clone(),
            why,
        };
        let score = match HuntRecord::read(dir) {
            Ok(Some(record)) => record.score,
            Ok(None) => {
                return Err(unrecorded(format!(
                    "no {} there (a hunt by an older workbench, or puzzles gathered by hand)",
                    HuntRecord::FILE
                )))
            }
            Err(e) => return Err(unrecorded(e.to_string())),
        };
        match &agreed {
            Some((first, s)) if *s != score => {
                return Err(HuntError::Disagree {
                    first: first.to_path_buf(),
                    first_score: s.short(),
                    dir: dir.clone(),
                    score: score.short(),
                })
            }
            Some(_) => {}
            None => agreed = Some((dir, score)),
        }
    }
    agreed
        .map(|(_, score)| score)
        .ok_or_else(|| HuntError::NoStart("--merge names no folder".into()))
}

/// The puzzles of `dir/puzzles.txt`, each with `DIR/puzzles.txt:LINE`.
fn read(dir: &Path) -> Result<Vec<(Grid, String)>, HuntError> {
    let path = dir.join(PUZZLES_TXT);
    let set = crate::format::read_path(&path, &Default::default()).map_err(|e| {
        HuntError::NoStart(format!(
            "--merge {}: no hunt's {} there ({e})",
            dir.display(),
            PUZZLES_TXT
        ))
    })?;
    Ok(set
        .puzzles
        .into_iter()
        .map(|p| (p.grid, format!("{}:{}", path.display(), p.line)))
        .collect())
}

/// Writes a merge's `puzzles.txt` (best first, each with its score and
/// where it came from), `found.csv` and `hunt.json` into `dir`; returns the
/// files.
pub fn write_merged(
    dir: &Path,
    name: &ScoreName,
    merged: &MergeResult,
    folders: usize,
    alphabet: &Alphabet,
) -> io::Result<Vec<PathBuf>> {
    let mut text = format!(
        "# sudoku-bench hunt --merge of {folders} hunts: the puzzles on which {} (mode unique), best first.\n",
        match &name.against {
            Some(b) => format!("{} needs the most {} relative to {b}", name.hunted, name.objective.name()),
            None => format!("{} needs the most {}", name.hunted, name.objective.name()),
        }
    );
    let _ = writeln!(
        text,
        "# {} puzzles read, {} kept: each checked for one solution by dlx-crate, scored on this machine, once up to symmetry.",
        merged.read,
        merged.kept.len()
    );
    for m in &merged.kept {
        let f = &m.found;
        let copies = match m.copies.len() {
            0 => String::new(),
            n => format!(
                " (and {n} cop{} up to symmetry)",
                if n == 1 { "y" } else { "ies" }
            ),
        };
        let _ = writeln!(
            text,
            "{}  # {}; from {}{copies}",
            write_line(&f.unique.puzzle, alphabet),
            name.comment(f.score, f.cost, f.against, f.censored),
            m.source
        );
    }
    let puzzles = dir.join(PUZZLES_TXT);
    crate::files::write(&puzzles, text)?;
    let found = dir.join(FOUND_CSV);
    let rows = merged.kept.iter().enumerate().map(|(i, m)| {
        let copies = m.copies.join(" ");
        MergedLine::of(i + 1, &m.found, alphabet, m.source.clone(), copies)
    });
    write_found(&found, rows)?;
    let record = HuntRecord::write(dir, name)?;
    Ok(vec![puzzles, found, record])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_score_is_taken_when_every_folder_keeps_the_same() {
        let root = tempfile::tempdir().unwrap();
        let folder = |name: &str, score: Option<&ScoreName>| {
            let dir = root.path().join(name);
            std::fs::create_dir(&dir).unwrap();
            if let Some(s) = score {
                HuntRecord::write(&dir, s).unwrap();
            }
            dir
        };
        let pair = ScoreName {
            hunted: "bitset-mrv".into(),
            against: Some("dlx".into()),
            objective: super::super::Objective::Nodes,
        };
        let alone = ScoreName {
            hunted: "band".into(),
            against: None,
            objective: super::super::Objective::Guesses,
        };
        let (a, b) = (folder("a", Some(&pair)), folder("b", Some(&pair)));
        let (c, d) = (folder("c", Some(&alone)), folder("d", None));
        assert_eq!(recorded_score(&[a.clone(), b]).unwrap(), pair);
        let e = recorded_score(&[a.clone(), c]).unwrap_err().to_string();
        assert!(
            e.contains("bitset-mrv / dlx nodes") && e.contains("band guesses"),
            "{e}"
        );
        let e = recorded_score(&[a, d]).unwrap_err().to_string();
        assert!(
            e.contains("no hunt.json there") && e.contains("--solver"),
            "{e}"
        );
    }
}
