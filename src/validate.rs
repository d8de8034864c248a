//! Checks on givens and on solutions (seed 003's conflict check, for every size).

use crate::grid::{Geometry, Grid, Unit};
use std::fmt;

/// A digit that appears twice in one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// Kind of unit.
    pub unit: Unit,
    /// 0-based index of the unit.
    pub index: usize,
    /// The repeated digit.
    pub digit: u8,
    /// The two cells holding it (row-major indices).
    pub cells: (usize, usize),
    /// Geometry, for naming cells.
    pub geometry: Geometry,
}

fn cell_name(g: Geometry, cell: usize) -> String {
    format!("r{}c{}", g.row(cell) + 1, g.col(cell) + 1)
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "digit {} appears twice in {} {}: {} and {}",
            self.digit,
            self.unit,
            self.index + 1,
            cell_name(self.geometry, self.cells.0),
            cell_name(self.geometry, self.cells.1)
        )
    }
}

/// The first conflict among the givens (rows, then columns, then boxes), if any.
pub fn find_conflict(grid: &Grid) -> Option<Conflict> {
    let g = grid.geometry();
    let mut seen = vec![usize::MAX; g.side() + 1];
    for unit in Unit::ALL {
        for index in 0..g.side() {
            seen.fill(usize::MAX);
            for cell in g.unit_cells(unit, index) {
                let d = grid.get(cell);
                if d == 0 {
                    continue;
                }
                let first = seen[d as usize];
                if first != usize::MAX {
                    return Some(Conflict {
                        unit,
                        index,
                        digit: d,
                        cells: (first, cell),
                        geometry: g,
                    });
                }
                seen[d as usize] = cell;
            }
        }
    }
    None
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

/// Confirms that `solution` is complete, every unit a permutation, and agrees with every given of `puzzle`.
pub fn check_solution(puzzle: &Grid, solution: &Grid) -> Result<(), SolutionError> {
    let g = puzzle.geometry();
    if solution.geometry() != g {
        return Err(SolutionError::WrongSize {
            found: solution.geometry().name(),
            expected: g.name(),
        });
    }
    if let Some(cell) = solution.cells().iter().position(|&d| d == 0) {
        return Err(SolutionError::Incomplete(cell_name(g, cell)));
    }
    // Complete with every unit holding n distinct digits: every unit is a permutation.
    // A bitmask pass decides; the slower scan names the conflict when there is one.
    let (n, b) = (g.side(), g.box_size());
    let mut seen = [0u32; 75];
    let (rows, rest) = seen.split_at_mut(n);
    let (cols, boxes) = rest.split_at_mut(n);
    for (r, row) in solution.cells().chunks_exact(n).enumerate() {
        let band = r / b * b;
        for (stack, chunk) in row.chunks_exact(b).enumerate() {
            for (k, &d) in chunk.iter().enumerate() {
                let bit = 1u32 << (d - 1);
                rows[r] |= bit;
                cols[stack * b + k] |= bit;
                boxes[band + stack] |= bit;
            }
        }
    }
    let full = (1u32 << n) - 1;
    if seen[..3 * n].iter().any(|&m| m != full) {
        return Err(SolutionError::Conflict(
            find_conflict(solution).expect("a unit misses a digit, so one repeats"),
        ));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, ReadOptions};

    const SOLVED: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn grid(s: &str) -> Grid {
        read_str("t", s, &ReadOptions::default()).unwrap().puzzles[0]
            .grid
            .clone()
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
            (c.unit, c.index, c.digit, c.cells),
            (Unit::Box, 8, 5, (60, 80))
        );
        assert_eq!(
            c.to_string(),
            "digit 5 appears twice in box 9: r7c7 and r9c9"
        );
        s.replace_range(8..9, "5"); // r1c9 repeats row 1
        let c = find_conflict(&grid(&s)).unwrap();
        assert_eq!((c.unit, c.index, c.cells), (Unit::Row, 0, (0, 8)));
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
        // A valid grid that is not this puzzle's answer: relabel digits 1 and 2.
        let relabel: Vec<u8> = sol
            .cells()
            .iter()
            .map(|&d| match d {
                1 => 2,
                2 => 1,
                d => d,
            })
            .collect();
        let other = Grid::from_cells(sol.geometry(), &relabel).unwrap();
        assert!(matches!(
            check_solution(&puzzle, &other),
            Err(SolutionError::ChangesGiven { .. })
        ));
    }
}
