//! Difficulty ratings, tdoku's way: the mean `guesses` and `nodes` of a fixed
//! reference strategy over k seeded random symmetry permutations of a puzzle,
//! plus whether singles alone solve it.
//!
//! The reference strategy is `bitset-mrv` (naked and hidden singles), fixed so
//! ratings never change when faster strategies arrive. Permutation `i` is drawn
//! from stream `i` of a fixed seed, so a puzzle's rating depends on nothing else.

use crate::grid::Grid;
use crate::seeded::stream;
use crate::solver::{Limits, Mode, Solver, SolverId};
use crate::transform::Transform;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The strategy ratings are measured with.
pub const REFERENCE: SolverId = SolverId::BitsetMrv;
/// Permutations per rating by default.
pub const DEFAULT_PERMUTATIONS: u32 = 8;
const SEED: u64 = 0x005E_ED0F_D1FF;

/// A puzzle's difficulty.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Mean guesses of the reference strategy over the permutations.
    pub guesses: f64,
    /// Mean nodes over the permutations.
    pub nodes: f64,
    /// Naked and hidden singles alone solve the puzzle.
    pub singles: bool,
    /// A stronger strategy's propagation alone solves it: `bitset-mrv-locked`
    /// (singles and locked candidates) or, on 9×9, `band` (triad rules) makes no guess.
    pub propagation: bool,
}

/// Named difficulty bands, by mean guesses `g` of [`REFERENCE`]: easy `g = 0`
/// (singles solve it); medium `0 < g ≤ 1.5`, or any puzzle some strategy's
/// propagation solves without a guess ([`Rating::propagation`]); hard
/// `1.5 < g ≤ 6`; extreme `g > 6`. So hard and extreme puzzles need a guess
/// from every strategy of the workbench.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Band {
    /// Singles alone solve it.
    Easy,
    /// A guess or so.
    Medium,
    /// Several guesses.
    Hard,
    /// Many guesses.
    Extreme,
}

impl Band {
    /// Every band, easiest first.
    pub const ALL: [Band; 4] = [Band::Easy, Band::Medium, Band::Hard, Band::Extreme];

    /// The band's name.
    pub fn name(self) -> &'static str {
        match self {
            Band::Easy => "easy",
            Band::Medium => "medium",
            Band::Hard => "hard",
            Band::Extreme => "extreme",
        }
    }

    /// Parses a name.
    pub fn from_name(name: &str) -> Option<Band> {
        Band::ALL.into_iter().find(|b| b.name() == name)
    }

    /// Mean-guess range `(above, at_most)`: a rating is in the band when `above < g ≤ at_most`
    /// (easy: exactly 0).
    pub fn guess_range(self) -> (f64, f64) {
        match self {
            Band::Easy => (-1.0, 0.0),
            Band::Medium => (0.0, 1.5),
            Band::Hard => (1.5, 6.0),
            Band::Extreme => (6.0, f64::INFINITY),
        }
    }

    /// The band of a rating.
    pub fn of(r: &Rating) -> Band {
        let by_guesses = Band::ALL
            .into_iter()
            .find(|b| {
                let (lo, hi) = b.guess_range();
                r.guesses > lo && r.guesses <= hi
            })
            .unwrap_or(Band::Extreme);
        if r.propagation && by_guesses > Band::Medium {
            Band::Medium
        } else {
            by_guesses
        }
    }
}

impl fmt::Display for Band {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Rates a puzzle over `permutations` seeded symmetry permutations (the first is the puzzle as given).
pub fn rate(puzzle: &Grid, permutations: u32) -> Rating {
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
        let c = REFERENCE.solve(&p, &limits).counters;
        if i == 0 {
            singles = c.no_guess();
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

/// Writes `rate`'s CSV for every puzzle of `datasets` (a header, then a
/// row a puzzle in order), rating on `pool`.
pub fn write_csv(
    datasets: &[crate::format::Dataset],
    permutations: u32,
    pool: &rayon::ThreadPool,
    out: &mut dyn std::io::Write,
) -> Result<(), csv::Error> {
    use crate::format::write_line;
    use rayon::prelude::*;
    let mut w = csv::Writer::from_writer(out);
    w.write_record(["puzzle", "solution", "guesses", "nodes", "singles", "band"])?;
    for ds in datasets {
        let ratings: Vec<Rating> = pool.install(|| {
            let puzzles = ds.puzzles.par_iter();
            puzzles.map(|p| rate(&p.grid, permutations)).collect()
        });
        for (p, r) in ds.puzzles.iter().zip(ratings) {
            let expected = p.expected.as_ref();
            w.write_record([
                write_line(&p.grid, &ds.alphabet),
                expected.map_or(String::new(), |e| write_line(e, &ds.alphabet)),
                format!("{:.3}", r.guesses),
                format!("{:.1}", r.nodes),
                r.singles.to_string(),
                Band::of(&r).to_string(),
            ])?;
        }
    }
    w.flush()?;
    Ok(())
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
        assert!(re.singles && re.guesses == 0.0 && Band::of(&re) == Band::Easy);
        assert!(!rh.singles && rh.guesses > re.guesses && rh.nodes > re.nodes);
        assert_ne!(Band::of(&rh), Band::Easy);
    }

    #[test]
    fn the_csv_has_a_row_a_puzzle_in_order() {
        let text = "1......2..3..4..\n..3..4..1......2\n";
        let read = crate::format::ReadOptions::default();
        let sets = [crate::format::read_str("t", text, &read).unwrap()];
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut out = Vec::new();
        write_csv(&sets, 2, &pool, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "puzzle,solution,guesses,nodes,singles,band");
        assert_eq!(lines.len(), 3, "{out}");
        assert!(lines[1].starts_with("1......2..3..4..,,"), "{out}");
        assert!(lines[2].starts_with("..3..4..1......2,,"), "{out}");
    }

    #[test]
    fn bands_partition_the_line() {
        let at = |g: f64| {
            Band::of(&Rating {
                guesses: g,
                nodes: 1.0,
                singles: g == 0.0,
                propagation: g == 0.0,
            })
        };
        assert_eq!(at(0.0), Band::Easy);
        assert_eq!(at(0.125), Band::Medium);
        assert_eq!(at(1.5), Band::Medium);
        assert_eq!(at(1.6), Band::Hard);
        assert_eq!(at(6.0), Band::Hard);
        assert_eq!(at(6.1), Band::Extreme);
        for b in Band::ALL {
            assert_eq!(Band::from_name(b.name()), Some(b));
        }
        let locked = |g: f64| {
            Band::of(&Rating {
                guesses: g,
                nodes: 1.0,
                singles: false,
                propagation: true,
            })
        };
        assert_eq!(locked(9.0), Band::Medium);
        assert_eq!(locked(0.5), Band::Medium);
    }
}
