//! `hunt --merge`: the kept puzzles of several hunts (other seeds, other
//! machines) as one list. Each puzzle is checked again for one solution,
//! scored again on this machine, and kept once up to symmetry: a puzzle
//! that is another under a permutation of bands, rows within a band,
//! stacks, columns within a stack, a transposition and a relabelling of
//! the digits is the same find. Without `--solver`, the puzzles are scored
//! for what the hunts recorded in their `hunt.json` ([`recorded_score`]).

use super::moves::Unique;
use super::search::Scorer;
use super::write::{HuntRecord, ScoreName};
use super::{Found, HuntError, HuntOptions};
use crate::contender::Contender;
use crate::grid::Grid;
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use crate::transform::Transform;
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
            Err(why) => return Err(unrecorded(why)),
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
    let path = dir.join(super::write::PUZZLES_TXT);
    let set = crate::format::read_path(&path, &Default::default()).map_err(|e| {
        HuntError::NoStart(format!(
            "--merge {}: no hunt's {} there ({e})",
            dir.display(),
            super::write::PUZZLES_TXT
        ))
    })?;
    Ok(set
        .puzzles
        .into_iter()
        .map(|p| (p.grid, format!("{}:{}", path.display(), p.line)))
        .collect())
}

/// True when `b` is `a` under a symmetry of the grid: bands permuted, rows
/// within each band, stacks, columns within each stack, a transposition,
/// and the digits relabelled.
pub fn symmetric(a: &Grid, b: &Grid) -> bool {
    if a.geometry() != b.geometry() || a.givens() != b.givens() {
        return false;
    }
    let n = a.geometry().side();
    let transposed = Transform::transposition(a.geometry()).apply(a);
    let maps = |a: &Grid| {
        let rows = arrangements(a, b, false);
        let cols = arrangements(a, b, true);
        rows.iter()
            .any(|rp| cols.iter().any(|cp| relabels(a, b, rp, cp, n)))
    };
    maps(a) || maps(&transposed)
}

/// Whether `a` with its rows taken in order `rp` and columns in `cp` is `b`
/// with its digits renamed one to one.
fn relabels(a: &Grid, b: &Grid, rp: &[usize], cp: &[usize], n: usize) -> bool {
    let (mut fwd, mut back) = ([0u8; 256], [0u8; 256]);
    for (r, &ar) in rp.iter().enumerate() {
        for (c, &ac) in cp.iter().enumerate() {
            let (x, y) = (a.cells()[ar * n + ac], b.cells()[r * n + c]);
            if (x == 0) != (y == 0) {
                return false;
            }
            if x == 0 {
                continue;
            }
            let (f, k) = (&mut fwd[x as usize], &mut back[y as usize]);
            if (*f != 0 && *f != y) || (*k != 0 && *k != x) {
                return false;
            }
            (*f, *k) = (y, x);
        }
    }
    true
}

/// Every order of `a`'s rows (or columns) that keeps bands (stacks)
/// together and gives each line of `b` a line of `a` with the same givens
/// per crossing line count (a necessary condition of any symmetry).
fn arrangements(a: &Grid, b: &Grid, columns: bool) -> Vec<Vec<usize>> {
    let n = a.geometry().side();
    let k = a.geometry().box_size();
    let given = |g: &Grid, line: usize, i: usize| {
        let cell = if columns { i * n + line } else { line * n + i };
        g.cells()[cell] != 0
    };
    // A line's signature: how many givens its crossing lines hold, at each
    // of its givens, sorted (unchanged by any order of the crossing lines).
    let signature = |g: &Grid, line: usize| {
        let crossing = |i: usize| (0..n).filter(|&j| given(g, j, i)).count();
        let mut s: Vec<usize> = (0..n)
            .filter(|&i| given(g, line, i))
            .map(crossing)
            .collect();
        s.sort_unstable();
        s
    };
    let (sa, sb): (Vec<_>, Vec<_>) = (0..n).map(|l| (signature(a, l), signature(b, l))).unzip();
    let mut walk = Arranging {
        k,
        sa,
        sb,
        order: vec![0; n],
        used_band: vec![false; k],
        out: Vec::new(),
    };
    walk.place(0);
    walk.out
}

/// The walk of [`arrangements`]: `a`'s bands taken in turn, each band's
/// lines matched to `b`'s by signature.
struct Arranging {
    /// Lines of a band.
    k: usize,
    /// The lines' signatures in `a` and in `b`.
    sa: Vec<Vec<usize>>,
    sb: Vec<Vec<usize>>,
    /// The order being built, and which of `a`'s bands it has taken.
    order: Vec<usize>,
    used_band: Vec<bool>,
    /// The complete orders.
    out: Vec<Vec<usize>>,
}

impl Arranging {
    /// Enough for any real puzzle; past it a symmetric copy may go unseen.
    const CAP: usize = 50_000;

    /// Fills bands `band..` of the order with a band of `a` each.
    fn place(&mut self, band: usize) {
        if self.out.len() >= Self::CAP {
            return;
        }
        if band == self.k {
            self.out.push(self.order.clone());
            return;
        }
        for from in 0..self.k {
            if self.used_band[from] {
                continue;
            }
            self.used_band[from] = true;
            self.lines(band, from, 0, &mut vec![false; self.k]);
            self.used_band[from] = false;
        }
    }

    /// Within band `band` (taken from `a`'s band `from`), line `i` onwards,
    /// `used` marking the lines of `from` already placed.
    fn lines(&mut self, band: usize, from: usize, i: usize, used: &mut [bool]) {
        let k = self.k;
        if i == k {
            self.place(band + 1);
            return;
        }
        for j in 0..k {
            let line = from * k + j;
            if used[j] || self.sa[line] != self.sb[band * k + i] {
                continue;
            }
            used[j] = true;
            self.order[band * k + i] = line;
            self.lines(band, from, i + 1, used);
            used[j] = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(line: &str) -> Grid {
        crate::format::read_str("t", line, &Default::default())
            .unwrap()
            .puzzles
            .remove(0)
            .grid
    }

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

    #[test]
    fn a_symmetric_copy_is_seen_and_another_puzzle_is_not() {
        let a = grid(
            ".8.6.....4..2.5...5..1..8..9.47........4.....8....3.24.2.3....1.......65..9.1....",
        );
        let mut rng = crate::seeded::stream(3, 0);
        for _ in 0..20 {
            let t = Transform::random(a.geometry(), &mut rng);
            assert!(symmetric(&a, &t.apply(&a)), "{:?}", t.apply(&a));
        }
        let mut other = a.clone();
        // One given moved to another cell of its row: no symmetry gives that.
        other.set(1, 0);
        other.set(2, 8);
        assert!(!symmetric(&a, &other));
        let mut relabelled_wrong = a.clone();
        relabelled_wrong.set(1, 4); // the 8 at r1c2 becomes a 4, the others stay
        assert!(!symmetric(&a, &relabelled_wrong));
    }
}
