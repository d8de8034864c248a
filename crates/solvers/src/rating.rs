//! Difficulty ratings, tdoku's way: the mean `guesses` and `nodes` of a fixed
//! strategy over k seeded random symmetry permutations of a puzzle, plus
//! whether singles alone solve it. Only a puzzle with exactly one solution is
//! rated: each gets its verdict first (see [`verdict`]).
//!
//! The strategy is `bitset-mrv` (naked and hidden singles) unless asked
//! otherwise, fixed so ratings never change when faster strategies arrive.
//! Permutation `i` is drawn from stream `i` of a fixed seed, so a puzzle's
//! rating depends on nothing else.

use crate::grid::Grid;
use crate::seeded::stream;
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use crate::transform::Transform;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The strategy ratings are measured with unless another is asked for.
pub const REFERENCE: SolverId = SolverId::BitsetMrv;
/// Permutations per rating by default.
pub const DEFAULT_PERMUTATIONS: u32 = 8;
const SEED: u64 = 0x005E_ED0F_D1FF;

/// A puzzle's difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Mean guesses of the rating strategy over the permutations.
    pub guesses: f64,
    /// Mean nodes over the permutations.
    pub nodes: f64,
    /// Naked and hidden singles alone solve the puzzle.
    pub singles: bool,
    /// A stronger strategy's propagation alone solves it: `bitset-mrv-locked`
    /// (singles and locked candidates) or, on 9×9, `band` (triad rules) makes no guess.
    pub propagation: bool,
}

/// Named difficulty levels, by mean guesses `g` of the rating strategy
/// ([`REFERENCE`] unless another is asked for): easy `g = 0`
/// (singles solve it); medium `0 < g ≤ 1.5`, or any puzzle some strategy's
/// propagation solves without a guess ([`Rating::propagation`]); hard
/// `1.5 < g ≤ 6`; extreme `g > 6`. So hard and extreme puzzles need a guess
/// from every strategy of the workbench.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Singles alone solve it.
    Easy,
    /// A guess or so.
    Medium,
    /// Several guesses.
    Hard,
    /// Many guesses.
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Extreme];

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Extreme => "extreme",
        }
    }

    /// Parses a name.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Mean-guess range `(above, at_most)`: a rating is at the level when `above < g ≤ at_most`
    /// (easy: exactly 0).
    pub fn guess_range(self) -> (f64, f64) {
        match self {
            Level::Easy => (-1.0, 0.0),
            Level::Medium => (0.0, 1.5),
            Level::Hard => (1.5, 6.0),
            Level::Extreme => (6.0, f64::INFINITY),
        }
    }

    /// The level of a rating.
    pub fn of(r: &Rating) -> Level {
        let by_guesses = Level::ALL
            .into_iter()
            .find(|b| {
                let (lo, hi) = b.guess_range();
                r.guesses > lo && r.guesses <= hi
            })
            .unwrap_or(Level::Extreme);
        if r.propagation && by_guesses > Level::Medium {
            Level::Medium
        } else {
            by_guesses
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Rates a puzzle over `permutations` seeded symmetry permutations (the
/// first is the puzzle as given) with [`REFERENCE`].
pub fn rate(puzzle: &Grid, permutations: u32) -> Rating {
    rate_with(REFERENCE, puzzle, permutations)
}

/// Rates a puzzle with `solver` (which must handle its size), as [`rate`] does.
pub fn rate_with(solver: SolverId, puzzle: &Grid, permutations: u32) -> Rating {
    let limits = Limits::new(Mode::Unique);
    let g = puzzle.geometry();
    let k = permutations.max(1);
    let (mut guesses, mut nodes) = (0u64, 0u64);
    let mut singles = false;
    for i in 0..k {
        let p = if i == 0 {
            puzzle.clone()
        } else {
            Transform::random(g, &mut stream(SEED, i as u64)).apply(puzzle)
        };
        let c = solver.solve(&p, &limits).counters;
        if i == 0 {
            singles = if solver == REFERENCE {
                c.no_guess()
            } else {
                REFERENCE.solve(puzzle, &limits).counters.no_guess()
            };
        }
        guesses += c.guesses;
        nodes += c.nodes;
    }
    let no_guess = |s: SolverId| s.supports(g) && s.solve(puzzle, &limits).counters.no_guess();
    let propagation = singles || no_guess(SolverId::BitsetMrvLocked) || no_guess(SolverId::Band);
    Rating {
        guesses: guesses as f64 / k as f64,
        nodes: nodes as f64 / k as f64,
        singles,
        propagation,
    }
}

/// Nodes the verdict search may visit on one puzzle before it is left
/// `budget` (undecided): the same budget as a run's reference verdicts.
pub const VERDICT_BUDGET: u64 = 20_000_000;

/// A puzzle's verdict, searched by the strategy `solve` trusts on its size:
/// `invalid` (the givens conflict), `none`, `multiple`, `unique` (with the
/// solution), or `budget` when [`VERDICT_BUDGET`] nodes did not decide it.
pub fn verdict(puzzle: &Grid) -> (Status, Option<Grid>) {
    if crate::validate::find_flaw(puzzle).is_some() {
        return (Status::Invalid, None);
    }
    let limits = Limits {
        max_solutions: 2,
        keep_solutions: 1,
        ..Limits::new(Mode::Unique)
    }
    .with_node_budget(Some(VERDICT_BUDGET));
    let mut out = SolverId::fastest_for(puzzle.geometry()).solve(puzzle, &limits);
    let solution = (out.status == Status::Unique).then(|| out.solutions.swap_remove(0));
    (out.status, solution)
}

/// What `rate` found of one puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Rated {
    /// See [`verdict`].
    pub verdict: Status,
    /// The solution, when the puzzle has exactly one.
    pub solution: Option<Grid>,
    /// The rating, when the puzzle has exactly one solution.
    pub rating: Option<Rating>,
}

/// A puzzle's verdict, and its rating by `solver` when it has one solution.
pub fn rate_puzzle(solver: SolverId, puzzle: &Grid, permutations: u32) -> Rated {
    let (verdict, solution) = verdict(puzzle);
    let rating = solution
        .is_some()
        .then(|| rate_with(solver, puzzle, permutations));
    Rated {
        verdict,
        solution,
        rating,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_grid as grid;

    #[test]
    fn ratings_are_reproducible_and_ordered() {
        let easy = grid(
            ".9.6..3...3..5..285.1..27....61.8..2.1.....3.8..5.96....97..4.314..2..9...8..6.7.",
        );
        let hard = grid(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let (re, rh) = (rate(&easy, 8), rate(&hard, 8));
        assert_eq!(rate(&hard, 8), rh);
        assert!(re.singles && re.guesses == 0.0 && Level::of(&re) == Level::Easy);
        assert!(!rh.singles && rh.guesses > re.guesses && rh.nodes > re.nodes);
        assert_ne!(Level::of(&rh), Level::Easy);
    }

    #[test]
    fn another_strategy_rates_by_its_own_guesses() {
        let hard = grid(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let by_mrv = rate(&hard, 4);
        let by_dlx = rate_with(SolverId::Dlx, &hard, 4);
        assert_ne!(by_mrv.nodes, by_dlx.nodes);
        // Singles and propagation do not depend on the strategy asked for.
        assert_eq!(
            (by_mrv.singles, by_mrv.propagation),
            (by_dlx.singles, by_dlx.propagation)
        );
    }

    #[test]
    fn levels_partition_the_line() {
        let at = |g: f64| {
            Level::of(&Rating {
                guesses: g,
                nodes: 1.0,
                singles: g == 0.0,
                propagation: g == 0.0,
            })
        };
        assert_eq!(at(0.0), Level::Easy);
        assert_eq!(at(0.125), Level::Medium);
        assert_eq!(at(1.5), Level::Medium);
        assert_eq!(at(1.6), Level::Hard);
        assert_eq!(at(6.0), Level::Hard);
        assert_eq!(at(6.1), Level::Extreme);
        for b in Level::ALL {
            assert_eq!(Level::from_name(b.name()), Some(b));
        }
        let locked = |g: f64| {
            Level::of(&Rating {
                guesses: g,
                nodes: 1.0,
                singles: false,
                propagation: true,
            })
        };
        assert_eq!(locked(9.0), Level::Medium);
        assert_eq!(locked(0.5), Level::Medium);
    }
}
