//! Puzzle generation: a random complete grid, then clues removed while the
//! solution stays unique. After removing a clue, the puzzle stays unique exactly
//! when no solution puts another digit in that cell: a naked single needs no
//! check, otherwise one first-solution search of the bitset engine decides.
//!
//! A pencilmark puzzle (`pencilmark`) starts from a complete grid with every
//! cell's other candidates excluded and admits them again in random order,
//! keeping each that leaves the solution unique: one admitted digit can only
//! make a second solution that puts it in its cell, so one first-solution
//! search with the cell fixed to it decides. Up to 9×9 every exclusion left is
//! needed; above, a check that passes its node budget keeps its exclusion.
//!
//! The holes form (`holes`) keeps random cells of a complete grid instead,
//! with no uniqueness check: the quasigroup-with-holes construction, the only
//! practical one for many blanks above 25×25, where the checks stop finishing.
//!
//! Puzzle `i` of a run draws from its own random stream, seeded from the run
//! seed and `i`, so output is the same at any thread count.

pub mod write;

use crate::grid::{Geometry, Grid};
use crate::rating::{rate, Level, Rating, DEFAULT_PERMUTATIONS};
use crate::seeded::stream;
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use crate::transform::Transform;
use rand::seq::SliceRandom;
use rand::Rng;

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateOptions {
    /// Grid size.
    pub geometry: Geometry,
    /// Keep removing clues until none can go (a minimal puzzle).
    pub minimal: bool,
    /// Remove clues in pairs symmetric under 180° rotation.
    pub symmetric: bool,
    /// Fewest clues wanted (removal stops here).
    pub min_clues: Option<usize>,
    /// Most clues accepted: a puzzle left with more is drawn again.
    pub max_clues: Option<usize>,
    /// Draws allowed per puzzle before giving up.
    pub max_attempts: u32,
    /// Keep only puzzles of this difficulty level.
    pub level: Option<Level>,
    /// Keep only puzzles whose mean guesses (see [`crate::rating`]) are at least this.
    pub min_guesses: Option<f64>,
    /// Keep only puzzles whose mean guesses are at most this.
    pub max_guesses: Option<f64>,
    /// The holes form: a clue count drawn in the range, that many random
    /// cells of a complete grid kept; solvable, not always uniquely.
    pub holes: bool,
    /// Pencilmark puzzles with one solution (see [`pencilmark_puzzle`]; sides
    /// to 25, the pencilmark format's reach).
    pub pencilmark: bool,
}

impl GenerateOptions {
    /// Minimal puzzles of a size, no symmetry, any clue count.
    pub fn minimal(geometry: Geometry) -> GenerateOptions {
        GenerateOptions {
            geometry,
            minimal: true,
            symmetric: false,
            min_clues: None,
            max_clues: None,
            max_attempts: 200,
            level: None,
            min_guesses: None,
            max_guesses: None,
            holes: false,
            pencilmark: false,
        }
    }
}

/// The largest side whose unique puzzles the clue removal reaches at any clue count.
pub const UNIQUE_MAX_SIDE: usize = 25;

/// Why a request cannot be met.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenerateError {
    /// The clue range is impossible for the size.
    #[error("{0}")]
    Impossible(String),
    /// No puzzle within the range after the allowed attempts.
    #[error("no {size} puzzle with {min}..={max} clues (and the difficulty asked) after {attempts} attempts (puzzle {index}); widen the range or raise --max-attempts")]
    GaveUp {
        /// Grid size.
        size: String,
        /// Fewest clues asked for.
        min: usize,
        /// Most clues asked for.
        max: usize,
        /// Attempts made.
        attempts: u32,
        /// Index of the puzzle that failed.
        index: u64,
    },
}

/// Fewest clues a uniquely solvable puzzle can have (known results for 4×4 and 9×9,
/// the `n - 1` digits bound otherwise, since a digit absent from the givens can be relabelled).
pub fn clue_lower_bound(g: Geometry) -> usize {
    match g.side() {
        4 => 4,
        9 => 17,
        n => n - 1,
    }
}

impl GenerateOptions {
    fn rating_wanted(&self) -> bool {
        self.level.is_some() || self.min_guesses.is_some() || self.max_guesses.is_some()
    }

    fn accepts(&self, r: &Rating) -> bool {
        self.level.is_none_or(|b| Level::of(r) == b)
            && self.min_guesses.is_none_or(|m| r.guesses >= m)
            && self.max_guesses.is_none_or(|m| r.guesses <= m)
    }

    /// Settles what the command line leaves open (with no clue option,
    /// neither bound nor the holes form, and no pencilmarks: minimal
    /// puzzles, as tdoku's generator and the `sudoku` crate's make), then
    /// checks it ([`GenerateOptions::validate`]).
    pub fn settled(mut self) -> Result<GenerateOptions, GenerateError> {
        let clue_options = self.min_clues.is_some() || self.max_clues.is_some() || self.holes;
        self.minimal |= !clue_options && !self.pencilmark;
        self.validate()?;
        Ok(self)
    }

    /// Checks the request before any work.
    pub fn validate(&self) -> Result<(), GenerateError> {
        let g = self.geometry;
        let lo = clue_lower_bound(g);
        let (min, max) = (
            self.min_clues.unwrap_or(0),
            self.max_clues.unwrap_or(g.cells()),
        );
        if min > max {
            return Err(GenerateError::Impossible(format!(
                "the clue range {min}..={max} is empty"
            )));
        }
        if max < lo {
            return Err(GenerateError::Impossible(format!(
                "no {g} puzzle with at most {max} clues has a unique solution: the fewest possible is {lo}"
            )));
        }
        if let (Some(lo), Some(hi)) = (self.min_guesses, self.max_guesses) {
            if lo > hi {
                return Err(GenerateError::Impossible(format!(
                    "the guess range {lo}..={hi} is empty"
                )));
            }
        }
        if self.level == Some(Level::Easy) && self.min_guesses.is_some_and(|m| m > 0.0) {
            return Err(GenerateError::Impossible(
                "easy puzzles need no guess, so --min-guesses must be 0".into(),
            ));
        }
        if min > g.cells() {
            return Err(GenerateError::Impossible(format!(
                "a {g} grid has only {} cells, fewer than {min} clues",
                g.cells()
            )));
        }
        if self.pencilmark {
            if self.holes || self.symmetric || self.min_clues.is_some() || self.max_clues.is_some()
            {
                return Err(GenerateError::Impossible(
                    "--pencilmark excludes candidates, not cells: it has no --holes, --symmetric, --min-clues or --max-clues (a difficulty filter applies)".into(),
                ));
            }
            if g.side() > 25 {
                return Err(GenerateError::Impossible(format!(
                    "pencilmark puzzles are written n³ characters a line, sides 4 to 25: not {g}"
                )));
            }
            if g.side() > 9 && self.rating_wanted() {
                return Err(GenerateError::Impossible(format!(
                    "a difficulty filter rates pencilmark puzzles up to 9x9 only: rating a {g} one takes unbounded search"
                )));
            }
        }
        if self.holes && (self.minimal || self.symmetric || self.rating_wanted()) {
            return Err(GenerateError::Impossible(
                "--holes keeps random cells of a complete grid: it has no --minimal, --symmetric or difficulty filter".into(),
            ));
        }
        if !self.holes && g.side() > UNIQUE_MAX_SIDE && (self.minimal || self.min_clues.is_none()) {
            return Err(GenerateError::Impossible(format!(
                "minimal and sparse unique {g} puzzles are out of reach: each clue removed needs a search \
                 that stops finishing below about 60% givens (measured: two 49x49 puzzles with 55% givens \
                 took over a minute). Give --min-clues (for example {}), or --holes for any clue count \
                 without the uniqueness check",
                g.cells() * 7 / 10
            )));
        }
        Ok(())
    }
}

/// A random complete grid: random permutations in the diagonal boxes, completed
/// by `bitset-mrv` (fixed, so that output does not change with the fastest
/// strategy: the first solution depends on the search order), then shuffled by
/// a random symmetry.
pub fn complete_grid<R: Rng>(g: Geometry, rng: &mut R) -> Grid {
    let (b, n) = (g.box_size(), g.side());
    loop {
        let mut grid = Grid::empty(g);
        // Above 25x25 four random boxes, not b: with every diagonal box drawn
        // at random the fill needed over 200,000 nodes in 21 of 27 tries at
        // 64x64, against 5 of 11 with four.
        for k in 0..if b <= 5 { b } else { 4 } {
            let mut digits: Vec<u8> = (1..=n as u8).collect();
            digits.shuffle(rng);
            for (i, d) in digits.into_iter().enumerate() {
                grid.set(g.cell(k * b + i / b, k * b + i % b), d);
            }
        }
        let limits = Limits::new(Mode::First).with_node_budget(Some(200_000));
        if let Some(full) = SolverId::BitsetMrv.solve(&grid, &limits).solutions.pop() {
            return Transform::random(g, rng).apply(&full);
        }
    }
}

/// A puzzle with `givens` givens: a random complete grid (see
/// [`complete_grid`]) with that many random cells kept. Returns the puzzle and
/// the grid it came from (one of its solutions).
pub fn holes_puzzle<R: Rng>(g: Geometry, givens: usize, rng: &mut R) -> (Grid, Grid) {
    let full = complete_grid(g, rng);
    let mut cells: Vec<usize> = (0..g.cells()).collect();
    cells.shuffle(rng);
    let mut puzzle = Grid::empty(g);
    for &c in cells.iter().take(givens) {
        puzzle.set(c, full.get(c));
    }
    (puzzle, full)
}

/// Nodes a pencilmark generator's check may take: up to 9×9, and above. At
/// 9×9 no check came near it (seeds 1 to 3); at 16×16 about 60% of checks
/// pass 1,000 nodes, and as many pass 10,000 at ten times the cost.
pub const PENCILMARK_CHECK_BUDGET: [u64; 2] = [100_000, 1_000];

/// A pencilmark puzzle whose one solution is a random complete grid (see
/// [`complete_grid`]): the other candidates of every cell, excluded at first,
/// admitted again in random order unless one makes a second solution or its
/// check passes [`PENCILMARK_CHECK_BUDGET`]. Returns the puzzle and its
/// solution. Up to 9×9 every exclusion left is needed; above, only some are
/// proven so.
pub fn pencilmark_puzzle<R: Rng>(g: Geometry, rng: &mut R) -> (Grid, Grid) {
    let solution = complete_grid(g, rng);
    let n = g.side();
    let mut marks: Vec<u64> = solution.cells().iter().map(|&d| 1 << (d - 1)).collect();
    let mut order: Vec<(usize, u8)> = (0..g.cells())
        .flat_map(|c| (1..=n as u8).map(move |d| (c, d)))
        .filter(|&(c, d)| solution.get(c) != d)
        .collect();
    order.shuffle(rng);
    // `band` on 9x9; otherwise `dlx` (measured on 16x16 checks: 5.7x as many
    // nodes a second as `bitset-mrv`).
    let solver = if SolverId::Band.supports(g) {
        SolverId::Band
    } else {
        SolverId::Dlx
    };
    let budget = PENCILMARK_CHECK_BUDGET[usize::from(n > 9)];
    let limits = Limits::new(Mode::First).with_node_budget(Some(budget));
    for (c, d) in order {
        // Any new solution puts `d` in `c`: look for one with `c` fixed to it.
        // A check that passes its budget keeps the exclusion (unique still).
        let kept = std::mem::replace(&mut marks[c], 1 << (d - 1));
        let trial = crate::format::from_marks(g, marks.clone());
        let out = solver.solve(&trial, &limits);
        let keep_out = out.solution_count > 0 || out.status == Status::Budget;
        marks[c] = if keep_out { kept } else { kept | 1 << (d - 1) };
    }
    (crate::format::from_marks(g, marks), solution)
}

/// One puzzle from a random stream, with its solution (and its rating when a level or guess range was asked).
pub fn generate_one<R: Rng>(opts: &GenerateOptions, rng: &mut R) -> Option<(Grid, Grid)> {
    generate_rated(opts, rng).map(|(p, s, _)| (p, s))
}

/// Like [`generate_one`], returning the rating when one was computed.
pub fn generate_rated<R: Rng>(
    opts: &GenerateOptions,
    rng: &mut R,
) -> Option<(Grid, Grid, Option<Rating>)> {
    let g = opts.geometry;
    let cells = g.cells();
    let min = opts.min_clues.unwrap_or(0);
    let max = opts.max_clues.unwrap_or(cells);
    let t = crate::solver::tables::Tables::get(g);
    for _ in 0..opts.max_attempts.max(1) {
        if opts.holes {
            let givens = rng.gen_range(min..=max);
            let (puzzle, solution) = holes_puzzle(g, givens, rng);
            return Some((puzzle, solution, None));
        }
        if opts.pencilmark {
            let (puzzle, solution) = pencilmark_puzzle(g, rng);
            if !opts.rating_wanted() {
                return Some((puzzle, solution, None));
            }
            let r = rate(&puzzle, DEFAULT_PERMUTATIONS);
            if opts.accepts(&r) {
                return Some((puzzle, solution, Some(r)));
            }
            continue;
        }
        let solution = complete_grid(g, rng);
        let mut puzzle = solution.clone();
        let mut order: Vec<usize> = (0..cells).collect();
        order.shuffle(rng);
        let mut clues = cells;
        // Without --minimal, stop at a random clue count in the range.
        let target = if opts.minimal {
            min
        } else {
            rng.gen_range(min.max(clue_lower_bound(g))..=max)
        };
        for &c in &order {
            if clues <= target {
                break;
            }
            let mirror = cells - 1 - c;
            let pair = opts.symmetric && mirror != c;
            if puzzle.get(c) == 0 || (pair && puzzle.get(mirror) == 0) {
                continue;
            }
            let removed = 1 + usize::from(pair);
            if clues - removed < min {
                continue;
            }
            puzzle.set(c, 0);
            if pair {
                puzzle.set(mirror, 0);
            }
            // A removed clue that is the only candidate of its cell among the remaining
            // givens (a naked single) cannot make a second solution: no solver call needed.
            let forced = |x: usize| {
                let seen = t
                    .peers_of(x)
                    .iter()
                    .fold(0u64, |m, &p| match puzzle.get(p as usize) {
                        0 => m,
                        d => m | 1 << (d - 1),
                    });
                seen.count_ones() as usize == g.side() - 1
            };
            // Any other solution differs from `solution` at a removed cell.
            let stays_unique = |x: usize| {
                forced(x) || !crate::solver::solvable_without(&puzzle, x, solution.get(x))
            };
            if stays_unique(c) && (!pair || stays_unique(mirror)) {
                clues -= removed;
            } else {
                puzzle.set(c, solution.get(c));
                if pair {
                    puzzle.set(mirror, solution.get(mirror));
                }
            }
        }
        if !(min..=max).contains(&clues) {
            continue;
        }
        if !opts.rating_wanted() {
            return Some((puzzle, solution, None));
        }
        let r = rate(&puzzle, DEFAULT_PERMUTATIONS);
        if opts.accepts(&r) {
            return Some((puzzle, solution, Some(r)));
        }
    }
    None
}

/// Puzzle `index` of a run: deterministic in `(seed, index, opts)`.
pub fn generate_indexed(
    opts: &GenerateOptions,
    seed: u64,
    index: u64,
) -> Result<(Grid, Grid), GenerateError> {
    generate_one(opts, &mut stream(seed, index)).ok_or_else(|| GenerateError::GaveUp {
        size: opts.geometry.name(),
        min: opts.min_clues.unwrap_or(0),
        max: opts.max_clues.unwrap_or(opts.geometry.cells()),
        attempts: opts.max_attempts,
        index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::check_solution;

    /// Uniqueness by a second, independent strategy.
    fn unique(puzzle: &Grid) -> bool {
        SolverId::Dlx
            .solve(puzzle, &Limits::new(Mode::Unique))
            .status
            == Status::Unique
    }

    #[test]
    fn minimal_puzzles_are_unique_and_minimal() {
        for g in Geometry::all().take(3) {
            let opts = GenerateOptions::minimal(g);
            let (p, s) = generate_indexed(&opts, 1, 0).unwrap();
            assert_eq!(check_solution(&p, &s), Ok(()));
            assert_eq!(
                SolverId::Dlx.solve(&p, &Limits::new(Mode::Unique)).status,
                Status::Unique
            );
            for c in 0..g.cells() {
                if p.get(c) != 0 {
                    let mut q = p.clone();
                    q.set(c, 0);
                    assert!(!unique(&q), "clue {c} of a minimal {g} puzzle could go");
                }
            }
        }
    }

    /// Pencilmark puzzles are unique, up to 9x9 keep every exclusion they
    /// need and no other, and come out the same from the same seed.
    #[test]
    fn pencilmark_puzzles_are_unique_and_every_exclusion_is_needed() {
        for (side, count) in [(4, 4), (9, 3), (16, 1)] {
            let g = Geometry::from_side(side).unwrap();
            let opts = GenerateOptions {
                pencilmark: true,
                ..GenerateOptions::minimal(g)
            };
            assert_eq!(opts.validate(), Ok(()));
            for i in 0..count {
                let (p, s) = generate_indexed(&opts, 11, i).unwrap();
                assert!(p.is_pencilmark());
                assert_eq!(check_solution(&p, &s), Ok(()));
                let out = SolverId::Dlx.solve(&p, &Limits::new(Mode::Unique));
                assert_eq!(out.status, Status::Unique, "{g} #{i}");
                assert_eq!(out.first(), Some(&s));
                assert_eq!(generate_indexed(&opts, 11, i).unwrap().0, p);
                if side > 9 {
                    continue; // past 9x9 a check may pass its budget: not minimal
                }
                // Admitting any excluded candidate again makes a second solution.
                let marks = p.marks().unwrap();
                let mut excluded = 0;
                for c in 0..g.cells() {
                    for d in (1..=side as u8).filter(|d| marks[c] & 1 << (d - 1) == 0) {
                        let mut more = marks.to_vec();
                        more[c] |= 1 << (d - 1);
                        let q = crate::format::from_marks(g, more);
                        assert_eq!(
                            SolverId::Dlx.solve(&q, &Limits::new(Mode::Unique)).status,
                            Status::Multiple,
                            "{g} #{i}: candidate {d} of cell {c} was not needed"
                        );
                        excluded += 1;
                    }
                }
                assert!(excluded > 0);
            }
        }
        // Cells and clue counts have no meaning here; nor do sides past 25,
        // nor ratings past 9x9.
        let g = Geometry::new(3).unwrap();
        for opts in [
            GenerateOptions {
                pencilmark: true,
                holes: true,
                ..GenerateOptions::minimal(g)
            },
            GenerateOptions {
                pencilmark: true,
                min_clues: Some(30),
                ..GenerateOptions::minimal(g)
            },
            GenerateOptions {
                pencilmark: true,
                ..GenerateOptions::minimal(Geometry::from_side(36).unwrap())
            },
            GenerateOptions {
                pencilmark: true,
                level: Some(Level::Hard),
                ..GenerateOptions::minimal(Geometry::from_side(16).unwrap())
            },
        ] {
            assert!(matches!(opts.validate(), Err(GenerateError::Impossible(_))));
        }
    }

    #[test]
    fn large_grids_generate() {
        let g = Geometry::new(5).unwrap();
        let opts = GenerateOptions {
            minimal: false,
            min_clues: Some(330),
            max_clues: Some(360),
            ..GenerateOptions::minimal(g)
        };
        let (p, s) = generate_indexed(&opts, 3, 0).unwrap();
        assert!((330..=360).contains(&p.givens()));
        assert_eq!(check_solution(&p, &s), Ok(()));
        assert_eq!(
            SolverId::Dlx.solve(&p, &Limits::new(Mode::Unique)).status,
            Status::Unique
        );
    }

    #[test]
    fn past_25x25_unique_puzzles_keep_many_clues_and_holes_reach_any_count() {
        let g = Geometry::from_side(64).unwrap();
        // Sparse or minimal unique puzzles are refused, with the way out named.
        for opts in [
            GenerateOptions::minimal(g),
            GenerateOptions {
                minimal: false,
                ..GenerateOptions::minimal(g)
            },
        ] {
            let err = opts.validate().unwrap_err().to_string();
            assert!(
                err.contains("--min-clues") && err.contains("--holes"),
                "{err}"
            );
        }
        let g = Geometry::from_side(49).unwrap();
        let holes = GenerateOptions {
            minimal: false,
            holes: true,
            min_clues: Some(900),
            max_clues: Some(900),
            ..GenerateOptions::minimal(g)
        };
        assert_eq!(holes.validate(), Ok(()));
        let (p, s) = generate_indexed(&holes, 5, 0).unwrap();
        assert_eq!(p.givens(), 900);
        assert_eq!(check_solution(&p, &s), Ok(()));
        let rated = GenerateOptions {
            level: Some(Level::Hard),
            ..holes.clone()
        };
        assert!(rated.validate().is_err());
    }

    #[test]
    fn levels_are_met() {
        let g = Geometry::new(3).unwrap();
        for level in Level::ALL {
            let opts = GenerateOptions {
                level: Some(level),
                max_attempts: 5000,
                ..GenerateOptions::minimal(g)
            };
            let (p, _) = generate_indexed(&opts, 11, 0).unwrap();
            let r = rate(&p, DEFAULT_PERMUTATIONS);
            assert_eq!(Level::of(&r), level);
            if level >= Level::Hard {
                for s in SolverId::ALL.iter().filter(|s| s.counts_search()) {
                    let out = s.solve(
                        &p,
                        &Limits::new(Mode::Unique).with_node_budget(Some(5_000_000)),
                    );
                    assert!(
                        !out.counters.no_guess(),
                        "{s} solved a {level} puzzle without a guess"
                    );
                }
            }
        }
    }

    #[test]
    fn same_seed_same_puzzle() {
        let g = Geometry::new(3).unwrap();
        let opts = GenerateOptions::minimal(g);
        assert_eq!(
            generate_indexed(&opts, 42, 3).unwrap(),
            generate_indexed(&opts, 42, 3).unwrap()
        );
        assert_ne!(
            generate_indexed(&opts, 42, 3).unwrap(),
            generate_indexed(&opts, 42, 4).unwrap()
        );
    }

    #[test]
    fn impossible_requests_fail_fast() {
        let g = Geometry::new(3).unwrap();
        let opts = GenerateOptions {
            max_clues: Some(10),
            ..GenerateOptions::minimal(g)
        };
        assert!(matches!(opts.validate(), Err(GenerateError::Impossible(_))));
        let opts = GenerateOptions {
            min_clues: Some(40),
            max_clues: Some(30),
            ..GenerateOptions::minimal(g)
        };
        assert!(opts.validate().is_err());
    }
}
