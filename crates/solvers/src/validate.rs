//! Checks on givens and on solutions (the traversal article's conflict check, for every size).

use crate::grid::{Geometry, Grid, Unit};
use std::fmt;

/// A digit that appears more than once in one unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// Kind of unit.
    pub unit: Unit,
    /// 0-based index of the unit.
    pub index: usize,
    /// The repeated digit.
    pub digit: u8,
    /// The cells holding it, two or more (row-major indices, in the unit's order).
    pub cells: Vec<usize>,
    /// Geometry, for naming cells.
    pub geometry: Geometry,
}

fn cell_name(g: Geometry, cell: usize) -> String {
    format!("r{}c{}", g.row(cell) + 1, g.col(cell) + 1)
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self
            .cells
            .iter()
            .map(|&c| cell_name(self.geometry, c))
            .collect();
        let (last, rest) = names
            .split_last()
            .expect("a conflict has two cells or more");
        let times = match names.len() {
            2 => "twice".to_string(),
            n => format!("{n} times"),
        };
        write!(
            f,
            "digit {} appears {times} in {} {}: {} and {last}",
            self.digit,
            self.unit,
            self.index + 1,
            rest.join(", ")
        )
    }
}

/// Conflicts named in a message at most; the rest are counted.
const CONFLICTS_NAMED: usize = 8;

/// Why a puzzle is `invalid` before any search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Flaw {
    /// Givens conflict: every conflict, rows first, then columns, then boxes.
    Conflicts(Vec<Conflict>),
    /// The pencilmarks leave an empty cell no candidate.
    NoCandidate {
        /// The cell (row-major index).
        cell: usize,
        /// Geometry, for naming the cell.
        geometry: Geometry,
    },
    /// A given's digit is excluded by its own cell's pencilmarks.
    ExcludedGiven {
        /// The cell (row-major index).
        cell: usize,
        /// The given digit.
        digit: u8,
        /// Geometry, for naming the cell.
        geometry: Geometry,
    },
}

impl fmt::Display for Flaw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Flaw::Conflicts(ref all) => {
                if all.len() > 1 {
                    write!(f, "{} conflicts: ", all.len())?;
                }
                for (i, c) in all.iter().take(CONFLICTS_NAMED).enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    c.fmt(f)?;
                }
                match all.len().saturating_sub(CONFLICTS_NAMED) {
                    0 => Ok(()),
                    more => write!(f, "; and {more} more"),
                }
            }
            Flaw::NoCandidate { cell, geometry } => write!(
                f,
                "the pencilmarks leave cell {} no candidate",
                cell_name(geometry, cell)
            ),
            Flaw::ExcludedGiven {
                cell,
                digit,
                geometry,
            } => write!(
                f,
                "cell {} gives {digit}, which its pencilmarks exclude",
                cell_name(geometry, cell)
            ),
        }
    }
}

/// What makes the puzzle `invalid`, if anything: a conflict among the givens,
/// or pencilmarks that leave a cell nothing (an empty cell no candidate, a
/// given its own digit). Cells are looked at in row-major order after conflicts.
pub fn find_flaw(grid: &Grid) -> Option<Flaw> {
    if has_conflict(grid) {
        let all = conflicts(grid);
        if !all.is_empty() {
            return Some(Flaw::Conflicts(all));
        }
    }
    let marks = grid.marks()?;
    let geometry = grid.geometry();
    for (cell, (&d, &m)) in grid.cells().iter().zip(marks).enumerate() {
        if d == 0 && m == 0 {
            return Some(Flaw::NoCandidate { cell, geometry });
        }
        if d != 0 && m & (1 << (d - 1)) == 0 {
            return Some(Flaw::ExcludedGiven {
                cell,
                digit: d,
                geometry,
            });
        }
    }
    None
}

/// The first conflict among the givens (rows, then columns, then boxes), if any.
pub fn find_conflict(grid: &Grid) -> Option<Conflict> {
    // One pass with a digit mask per unit says whether there is any conflict;
    // only then are the units walked in order to name the first.
    if !has_conflict(grid) {
        return None;
    }
    first_conflict(grid)
}

/// True when some digit is given twice in a row, column or box.
fn has_conflict(grid: &Grid) -> bool {
    match grid.geometry().box_size() {
        2 => clash::<2, 4>(grid),
        3 => clash::<3, 9>(grid),
        4 => clash::<4, 16>(grid),
        5 => clash::<5, 25>(grid),
        6 => clash::<6, 36>(grid),
        7 => clash::<7, 49>(grid),
        8 => clash::<8, 64>(grid),
        _ => true, // too wide for the masks: let the walk decide
    }
}

/// Digit `d`'s bit `d - 1` in a mask of `N` digits; no bit for `d = 0`.
#[inline(always)]
fn digit_bit<const N: usize>(d: u8) -> u64 {
    if N < 64 {
        (1u64 << d) >> 1
    } else {
        ((1u128 << d) >> 1) as u64
    }
}

/// One pass over the givens of a grid of box size `B` and side `N = B²`
/// (constants, so no division is left at run time) with a digit mask per row,
/// column and box.
#[inline]
fn clash<const B: usize, const N: usize>(grid: &Grid) -> bool {
    if grid.cells().len() != N * N {
        return true;
    }
    let (mut rows, mut cols, mut boxes) = ([0u64; N], [0u64; N], [0u64; N]);
    !grid.each_given(|cell, d| {
        if d as usize > N {
            return false; // not a digit of this size: let the walk decide
        }
        let (r, c) = (cell / N, cell % N);
        let bit = digit_bit::<N>(d);
        let x = r / B * B + c / B;
        if (rows[r] | cols[c] | boxes[x]) & bit != 0 {
            return false;
        }
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[x] |= bit;
        true
    })
}

fn first_conflict(grid: &Grid) -> Option<Conflict> {
    let mut found = None;
    walk_conflicts(grid, &mut |c| {
        found = Some(c);
        false
    });
    found
}

/// Every conflict among the givens: each unit (rows, then columns, then
/// boxes) and digit given more than once in it, with all its cells.
pub fn conflicts(grid: &Grid) -> Vec<Conflict> {
    let mut all = Vec::new();
    walk_conflicts(grid, &mut |c| {
        all.push(c);
        true
    });
    all
}

/// Hands each conflict to `each` in order while it returns true.
fn walk_conflicts(grid: &Grid, each: &mut dyn FnMut(Conflict) -> bool) {
    let g = grid.geometry();
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); g.side() + 1];
    for unit in Unit::ALL {
        for index in 0..g.side() {
            at.iter_mut().for_each(Vec::clear);
            for cell in g.unit_cells(unit, index) {
                let d = grid.get(cell) as usize;
                if d != 0 && d < at.len() {
                    at[d].push(cell);
                }
            }
            for (d, cells) in at.iter_mut().enumerate() {
                if cells.len() > 1 {
                    let c = Conflict {
                        unit,
                        index,
                        digit: d as u8,
                        cells: std::mem::take(cells),
                        geometry: g,
                    };
                    if !each(c) {
                        return;
                    }
                }
            }
        }
    }
}

/// Why a proposed solution is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolutionError {
    /// The solution is for a grid of another size.
    #[error("the solution is {found}, the puzzle {expected}")]
    WrongSize {
        /// Size of the solution.
        found: String,
        /// Size of the puzzle.
        expected: String,
    },
    /// A cell is empty.
    #[error("cell {0} is empty")]
    Incomplete(String),
    /// A unit is not a permutation.
    #[error("{0}")]
    Conflict(Conflict),
    /// A cell holds a digit the puzzle's pencilmarks exclude.
    #[error("cell {cell} holds {digit}, which the puzzle's pencilmarks exclude")]
    Excluded {
        /// The cell, like `r1c2`.
        cell: String,
        /// The digit in the solution.
        digit: u8,
    },
    /// A given was changed.
    #[error("cell {cell} holds {found} where the puzzle gives {given}")]
    ChangesGiven {
        /// The cell, like `r1c2`.
        cell: String,
        /// The given digit.
        given: u8,
        /// The digit in the solution.
        found: u8,
    },
}

/// Confirms that `solution` is complete, every unit a permutation, and agrees
/// with every given of `puzzle` and every exclusion of its pencilmarks.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> Result<(), SolutionError> {
    check_cells(puzzle, solution)?;
    let Some(marks) = puzzle.marks() else {
        return Ok(());
    };
    let g = puzzle.geometry();
    for (cell, (&d, &m)) in solution.cells().iter().zip(marks).enumerate() {
        if m & (1 << (d - 1)) == 0 {
            return Err(SolutionError::Excluded {
                cell: cell_name(g, cell),
                digit: d,
            });
        }
    }
    Ok(())
}

/// [`check_solution`] but for the pencilmarks.
fn check_cells(puzzle: &Grid, solution: &Grid) -> Result<(), SolutionError> {
    let g = puzzle.geometry();
    if solution.geometry() != g {
        return Err(SolutionError::WrongSize {
            found: solution.geometry().name(),
            expected: g.name(),
        });
    }
    let fine = match g.box_size() {
        2 => passes::<2, 4>(puzzle.cells(), solution.cells()),
        3 => passes::<3, 9>(puzzle.cells(), solution.cells()),
        4 => passes::<4, 16>(puzzle.cells(), solution.cells()),
        5 => passes::<5, 25>(puzzle.cells(), solution.cells()),
        6 => passes::<6, 36>(puzzle.cells(), solution.cells()),
        7 => passes::<7, 49>(puzzle.cells(), solution.cells()),
        _ => passes::<8, 64>(puzzle.cells(), solution.cells()),
    };
    if fine {
        return Ok(());
    }
    // Something is wrong: name it.
    if let Some(cell) = solution.cells().iter().position(|&d| d == 0) {
        return Err(SolutionError::Incomplete(cell_name(g, cell)));
    }
    // Complete and free of repeats: every unit is a permutation.
    if let Some(conflict) = find_conflict(solution) {
        return Err(SolutionError::Conflict(conflict));
    }
    for (cell, (&given, &found)) in puzzle.cells().iter().zip(solution.cells()).enumerate() {
        if given != 0 && given != found {
            return Err(SolutionError::ChangesGiven {
                cell: cell_name(g, cell),
                given,
                found,
            });
        }
    }
    Ok(())
}

/// One pass deciding that a solution's cells (box size `B`, digits `0..=n` as
/// every [`Grid`] holds) are right: every unit holds all `n` digits, so no cell is
/// empty, and every given is kept. False means "look closer".
#[inline]
fn passes<const B: usize, const N: usize>(given: &[u8], found: &[u8]) -> bool {
    let n = N;
    let (Some(given), Some(found)) = (given.get(..n * n), found.get(..n * n)) else {
        return false;
    };
    let (mut rows, mut cols, mut boxes) = ([0u64; N], [0u64; N], [0u64; N]);
    let mut changed = false;
    for r in 0..n {
        for c in 0..n {
            let (p, d) = (given[r * n + c], found[r * n + c]);
            // An empty cell sets no bit.
            let bit = digit_bit::<N>(d);
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[r / B * B + c / B] |= bit;
            changed |= (p != 0) & (p != d);
        }
    }
    let full = u64::MAX >> (64 - N);
    !changed && (0..n).all(|i| rows[i] & cols[i] & boxes[i] == full)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_grid as grid;

    const SOLVED: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    proptest::proptest! {
        /// The one-pass mask check says "conflict" exactly when the walk over
        /// the units finds one, at every size, on sparse and crowded grids.
        #[test]
        fn the_mask_pass_agrees_with_the_walk(
            b in 2usize..=8,
            seed in proptest::prelude::any::<u64>(),
            density in 1u64..=100,
        ) {
            let g = Geometry::new(b).unwrap();
            let n = g.side() as u64;
            let mut x = seed | 1;
            let cells: Vec<u8> = (0..g.cells())
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    if x % 100 < density / (b as u64) { (x >> 8) as u8 % n as u8 + 1 } else { 0 }
                })
                .collect();
            let grid = Grid::from_vec(g, cells).unwrap();
            proptest::prop_assert_eq!(has_conflict(&grid), first_conflict(&grid).is_some());
        }
    }

    #[test]
    fn reports_unit_digit_and_cells() {
        let mut s = ".".repeat(81);
        s.replace_range(0..1, "5");
        s.replace_range(80..81, "5"); // same digit, no shared unit: fine
        assert_eq!(find_conflict(&grid(&s)), None);
        s.replace_range(60..61, "5"); // r7c7 shares box 9 with r9c9
        let c = find_conflict(&grid(&s)).unwrap();
        assert_eq!(
            (c.unit, c.index, c.digit, c.cells.clone()),
            (Unit::Box, 8, 5, vec![60, 80])
        );
        assert_eq!(
            c.to_string(),
            "digit 5 appears twice in box 9: r7c7 and r9c9"
        );
        s.replace_range(8..9, "5"); // r1c9 repeats row 1
        let c = find_conflict(&grid(&s)).unwrap();
        assert_eq!((c.unit, c.index, c.cells), (Unit::Row, 0, vec![0, 8]));
    }

    #[test]
    fn every_conflict_is_named_with_all_its_cells() {
        // Three conflicts: 5 three times in row 1 (r1c1, r1c5, r1c9), 7
        // twice in column 2 (r4c2, r8c2), and 5 twice in box 1 (r1c1, r3c3).
        let mut s = ".".repeat(81);
        for (cell, d) in [
            (0, "5"),
            (4, "5"),
            (8, "5"),
            (28, "7"),
            (64, "7"),
            (20, "5"),
        ] {
            s.replace_range(cell..cell + 1, d);
        }
        let all = conflicts(&grid(&s));
        let said: Vec<String> = all.iter().map(|c| c.to_string()).collect();
        assert_eq!(
            said,
            [
                "digit 5 appears 3 times in row 1: r1c1, r1c5 and r1c9",
                "digit 7 appears twice in column 2: r4c2 and r8c2",
                "digit 5 appears twice in box 1: r1c1 and r3c3",
            ]
        );
        let flaw = find_flaw(&grid(&s)).unwrap().to_string();
        assert_eq!(flaw, format!("3 conflicts: {}", said.join("; ")));
        assert_eq!(find_conflict(&grid(&s)), all.first().cloned());
        // A long list names the first few and counts the rest.
        let row = "123456789".repeat(9);
        let flaw = find_flaw(&grid(&row)).unwrap().to_string();
        assert!(
            flaw.starts_with("36 conflicts: digit 1 appears 9 times in column 1"),
            "{flaw}"
        );
        assert!(flaw.ends_with("; and 28 more"), "{flaw}");
    }

    #[test]
    fn solution_check() {
        let sol = grid(SOLVED);
        let mut puzzle = sol.clone();
        for i in (0..81).step_by(2) {
            puzzle.set(i, 0);
        }
        assert_eq!(check_solution(&puzzle, &sol), Ok(()));
        let mut holed = sol.clone();
        holed.set(5, 0);
        assert!(matches!(
            check_solution(&puzzle, &holed),
            Err(SolutionError::Incomplete(_))
        ));
        let mut swapped = sol.clone();
        swapped.set(0, sol.get(1));
        assert!(matches!(
            check_solution(&puzzle, &swapped),
            Err(SolutionError::Conflict(_))
        ));
        // Valid grids that are not this puzzle's answer: relabel any two digits,
        // checked against a puzzle with one given (so no other given gives it away).
        for x in 1..=9u8 {
            let cell = sol.cells().iter().position(|&d| d == x).unwrap();
            let mut puzzle = Grid::empty(sol.geometry());
            puzzle.set(cell, x);
            for y in (1..=9).filter(|&y| y != x) {
                let relabel: Vec<u8> = sol
                    .cells()
                    .iter()
                    .map(|&d| match d {
                        d if d == x => y,
                        d if d == y => x,
                        d => d,
                    })
                    .collect();
                let other = Grid::from_cells(sol.geometry(), &relabel).unwrap();
                assert!(
                    matches!(
                        check_solution(&puzzle, &other),
                        Err(SolutionError::ChangesGiven { .. })
                    ),
                    "digits {x} and {y} swapped"
                );
            }
        }
    }

    #[test]
    fn pencilmarks_are_checked_and_their_flaws_named() {
        let sol = grid(SOLVED);
        let g = sol.geometry();
        // Cell r1c2 may be its answer or 9; every other cell anything.
        let mut marks = vec![crate::grid::full_mask(9); 81];
        marks[1] = 1 << (sol.get(1) - 1) | 1 << 8;
        let puzzle = Grid::empty(g).with_marks(marks.clone()).unwrap();
        assert_eq!(find_flaw(&puzzle), None);
        assert_eq!(check_solution(&puzzle, &sol), Ok(()));
        // A valid grid with another digit at r1c2 breaks the exclusion.
        let other_digit = (1..=9).find(|&d| d != sol.get(1) && d != 9).unwrap();
        let relabel: Vec<u8> = sol
            .cells()
            .iter()
            .map(|&d| match d {
                d if d == other_digit => sol.get(1),
                d if d == sol.get(1) => other_digit,
                d => d,
            })
            .collect();
        let other = Grid::from_cells(g, &relabel).unwrap();
        assert_eq!(
            check_solution(&puzzle, &other),
            Err(SolutionError::Excluded {
                cell: "r1c2".into(),
                digit: other_digit
            })
        );
        // No candidate at r2c3; a given its marks refuse at r1c1.
        marks[11] = 0;
        let empty = Grid::empty(g).with_marks(marks.clone()).unwrap();
        let flaw = find_flaw(&empty).unwrap();
        assert_eq!(
            flaw.to_string(),
            "the pencilmarks leave cell r2c3 no candidate"
        );
        let mut refused = Grid::empty(g);
        refused.set(1, other_digit);
        let refused = refused.with_marks(marks).unwrap();
        assert_eq!(
            find_flaw(&refused).unwrap().to_string(),
            format!("cell r1c2 gives {other_digit}, which its pencilmarks exclude")
        );
        // Conflicts come first.
        let mut clash = refused.clone();
        clash.set(0, other_digit);
        assert!(matches!(find_flaw(&clash), Some(Flaw::Conflicts(_))));
    }

    #[test]
    fn the_mask_pass_agrees_with_the_unit_walk() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for g in Geometry::all() {
            let n = g.side();
            for _ in 0..2000 {
                let cells: Vec<u8> = (0..g.cells())
                    .map(|_| {
                        if rng.gen_range(0..n) == 0 {
                            rng.gen_range(1..=n as u8)
                        } else {
                            0
                        }
                    })
                    .collect();
                let grid = Grid::from_vec(g, cells).unwrap();
                assert_eq!(has_conflict(&grid), first_conflict(&grid).is_some());
                assert_eq!(find_conflict(&grid), first_conflict(&grid));
            }
        }
    }
}
