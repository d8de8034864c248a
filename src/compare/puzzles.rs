//! Each contender's puzzles in both runs, puzzle by puzzle: the ones both
//! verified (what a change in time or instructions is computed over), and
//! the ones that failed in one run and not in the other.

use crate::report::RunData;
use serde::Serialize;
use std::collections::HashMap;

/// One puzzle of one variant: its median time over repeats and what it found.
#[derive(Clone, Copy, Debug)]
pub(super) struct PuzzleStat {
    pub puzzle: u64,
    pub round: u32,
    pub ns: u64,
    pub solved: bool,
    pub failed: bool,
    pub nodes: Option<u64>,
    pub guesses: Option<u64>,
    pub instructions: Option<u64>,
}

/// Each (variant, dataset)'s puzzles, sorted by puzzle index.
pub(super) fn per_puzzle(data: &RunData) -> HashMap<(String, String), Vec<PuzzleStat>> {
    let mut groups: HashMap<(usize, usize), Vec<PuzzleStat>> = HashMap::new();
    for p in &data.points {
        groups
            .entry((p.variant, p.dataset))
            .or_default()
            .push(PuzzleStat {
                puzzle: p.puzzle,
                round: p.round,
                ns: p.solve_ns,
                solved: p.status.is_solved(),
                failed: p.status.is_failure(),
                nodes: p.nodes,
                guesses: p.guesses,
                instructions: p.instructions,
            });
    }
    groups
        .into_iter()
        .map(|((v, d), mut stats)| {
            stats.sort_by_key(|s| s.puzzle);
            ((data.variants[v].clone(), data.datasets[d].clone()), stats)
        })
        .collect()
}

/// The puzzles verified in both runs, paired (both lists are sorted by puzzle).
pub(super) fn verified_in_both<'a>(
    base: &'a [PuzzleStat],
    cur: &'a [PuzzleStat],
) -> Vec<(&'a PuzzleStat, &'a PuzzleStat)> {
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < base.len() && j < cur.len() {
        match base[i].puzzle.cmp(&cur[j].puzzle) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                if base[i].solved && cur[j].solved {
                    out.push((&base[i], &cur[j]));
                }
                i += 1;
                j += 1;
            }
        }
    }
    out
}

/// Mean instructions a puzzle on each side, over the `pairs` that counted
/// them in both runs, and how many those are; `None` when none did (runs
/// saved before `results.csv` kept each puzzle's count).
pub(super) fn instructions_over(pairs: &[(&PuzzleStat, &PuzzleStat)]) -> Option<(f64, f64, usize)> {
    let counted: Vec<(u64, u64)> = pairs
        .iter()
        .filter_map(|(b, c)| b.instructions.zip(c.instructions))
        .collect();
    let n = counted.len();
    let sum = |f: fn(&(u64, u64)) -> u64| counted.iter().map(f).sum::<u64>() as f64 / n as f64;
    (n > 0).then(|| (sum(|p| p.0), sum(|p| p.1), n))
}

/// How a contender's failed puzzles ([`RowStatus::is_failure`]: wrong,
/// errors, over the budget or the memory limit) changed from
/// the baseline to the current run, puzzle by puzzle. A puzzle that fails
/// now and did not before is a regression, whatever the time; a puzzle
/// fixed is an improvement, never a regression.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Failures {
    /// Puzzles failed in the baseline.
    pub before: u64,
    /// Puzzles failed now.
    pub after: u64,
    /// Puzzles that failed in the baseline and are verified now.
    pub fixed: u64,
    /// Puzzles that fail now and did not in the baseline (or were not in it).
    pub new: u64,
}

impl Failures {
    /// The change between two runs' puzzles of one contender and dataset.
    pub(super) fn of(base: &[PuzzleStat], cur: &[PuzzleStat]) -> Failures {
        let failed_before: HashMap<u64, bool> = base.iter().map(|s| (s.puzzle, s.failed)).collect();
        let mut f = Failures {
            before: base.iter().filter(|s| s.failed).count() as u64,
            after: cur.iter().filter(|s| s.failed).count() as u64,
            ..Failures::default()
        };
        for s in cur {
            let before = failed_before.get(&s.puzzle).copied().unwrap_or(false);
            if before && s.solved {
                f.fixed += 1;
            } else if !before && s.failed {
                f.new += 1;
            }
        }
        f
    }

    /// True when some puzzle fails now that did not before.
    pub fn regressed(self) -> bool {
        self.new > 0
    }

    /// True when the verified puzzles changed: some fixed, or some failing anew.
    pub fn changed(self) -> bool {
        self.fixed > 0 || self.new > 0
    }

    /// The change in words, the first thing said of a row:
    /// `13 puzzles now fail (0 → 13 failed)`, `fixed 13 puzzles (13 → 0
    /// failed)`, `2 puzzles now fail, 13 fixed (13 → 2 failed)`; `None`
    /// when the same puzzles failed.
    pub fn words(self) -> Option<String> {
        let puzzles = |n: u64| format!("{n} puzzle{}", if n == 1 { "" } else { "s" });
        let counts = format!("({} → {} failed)", self.before, self.after);
        match (self.new, self.fixed) {
            (0, 0) => None,
            (0, fixed) => Some(format!("fixed {} {counts}", puzzles(fixed))),
            (new, 0) => Some(format!("{} now {} {counts}", puzzles(new), fail(new))),
            (new, fixed) => Some(format!(
                "{} now {}, {fixed} fixed {counts}",
                puzzles(new),
                fail(new)
            )),
        }
    }

    /// The change in a table's cell: `13 now fail`, `fixed 13`, `2 now
    /// fail, 13 fixed`; `None` when the same puzzles failed.
    pub fn short(self) -> Option<String> {
        match (self.new, self.fixed) {
            (0, 0) => None,
            (0, fixed) => Some(format!("fixed {fixed}")),
            (new, 0) => Some(format!("{new} now {}", fail(new))),
            (new, fixed) => Some(format!("{new} now {}, {fixed} fixed", fail(new))),
        }
    }
}

fn fail(n: u64) -> &'static str {
    if n == 1 {
        "fails"
    } else {
        "fail"
    }
}
