//! The exact-cover article's naive depth-first search over the exact-cover matrix.
//!
//! The matrix has 4·n² columns (cell filled; row, column and box has digit)
//! and one row per candidate placement, built as the seed builds it: a given
//! contributes one row; an empty cell one row per digit its row and column do
//! not already hold (and, in a pencilmark puzzle, its marks allow). The search
//! adds matrix rows in index order, rejecting a row that collides with a
//! covered column (covered columns are a bitset), until every column is
//! covered. There is no column heuristic. The default
//! form backtracks as soon as some uncovered column has no row left after the
//! current one; the `-pure` variant is the seed's search exactly.

use super::{Control, Event, Reason, Solver, Tracer, Why};
use crate::grid::Grid;

/// Naive exact-cover DFS.
#[derive(Clone, Copy, Debug)]
pub struct NaiveExactCover {
    /// Backtrack once a column can no longer be covered by any remaining row.
    pub prune: bool,
}

struct Matrix {
    /// The four columns of each row.
    rows: Vec<[u32; 4]>,
    /// Cell and digit of each row.
    placement: Vec<(u16, u8)>,
    /// Columns whose last row is row `i`: `closes[close_start[i]..close_start[i + 1]]`.
    close_start: Vec<u32>,
    closes: Vec<u32>,
    columns: usize,
}

impl Matrix {
    fn build(puzzle: &Grid) -> Matrix {
        let g = puzzle.geometry();
        let (n, cells) = (g.side(), g.cells());
        let mut rows = Vec::new();
        let mut placement = Vec::new();
        for cell in 0..cells {
            let (r, c, b) = (g.row(cell), g.col(cell), g.boxed(cell));
            let given = puzzle.get(cell);
            let mut add = |d: usize| {
                rows.push([
                    cell as u32,
                    (cells + r * n + d - 1) as u32,
                    (2 * cells + c * n + d - 1) as u32,
                    (3 * cells + b * n + d - 1) as u32,
                ]);
                placement.push((cell as u16, d as u8));
            };
            let allowed = puzzle.allowed(cell);
            if given != 0 {
                if allowed & (1 << (given - 1)) != 0 {
                    add(given as usize);
                }
                continue;
            }
            for d in (1..=n).filter(|d| allowed & (1 << (d - 1)) != 0) {
                let excluded = (0..n).any(|k| {
                    puzzle.get(g.cell(r, k)) as usize == d || puzzle.get(g.cell(k, c)) as usize == d
                });
                if !excluded {
                    add(d);
                }
            }
        }
        let columns = 4 * cells;
        let mut last = vec![u32::MAX; columns];
        for (i, row) in rows.iter().enumerate() {
            for &col in row {
                last[col as usize] = i as u32;
            }
        }
        let mut close_start = vec![0u32; rows.len() + 1];
        for &l in &last {
            if l != u32::MAX {
                close_start[l as usize + 1] += 1;
            }
        }
        for i in 0..rows.len() {
            close_start[i + 1] += close_start[i];
        }
        let mut fill = close_start.clone();
        let mut closes = vec![0u32; close_start[rows.len()] as usize];
        for (col, &l) in last.iter().enumerate() {
            if l != u32::MAX {
                closes[fill[l as usize] as usize] = col as u32;
                fill[l as usize] += 1;
            }
        }
        Matrix {
            rows,
            placement,
            close_start,
            closes,
            columns,
        }
    }

    /// True when some column has no row at all.
    fn has_empty_column(&self) -> bool {
        self.closes.len() < self.columns
    }

    #[inline]
    fn closing_at(&self, row: usize) -> &[u32] {
        &self.closes[self.close_start[row] as usize..self.close_start[row + 1] as usize]
    }
}

struct Search<'m> {
    m: &'m Matrix,
    prune: bool,
    covered: Vec<u64>,
    covered_count: usize,
    chosen: Vec<u32>,
}

impl Search<'_> {
    #[inline]
    fn is_covered(&self, col: u32) -> bool {
        self.covered[col as usize / 64] & (1 << (col % 64)) != 0
    }

    #[inline]
    fn flip(&mut self, row: usize) {
        for &col in &self.m.rows[row] {
            self.covered[col as usize / 64] ^= 1 << (col % 64);
        }
    }

    /// True when a column closing at `row` is still uncovered.
    #[inline]
    fn dead_after(&self, row: usize) -> bool {
        self.prune && self.m.closing_at(row).iter().any(|&c| !self.is_covered(c))
    }

    /// Tries every row after `after` (or from 0 at the root) as the next one.
    fn children<T: Tracer>(
        &mut self,
        after: Option<usize>,
        g: crate::grid::Geometry,
        ctl: &mut Control<'_, T>,
    ) {
        let start = after.map_or(0, |r| r + 1);
        let mut accepted = 0;
        for i in start..self.m.rows.len() {
            if i > start && self.dead_after(i - 1) {
                break; // a skipped row was the last chance for some column
            }
            if self.dfs(i, g, ctl) {
                accepted += 1;
                if accepted == 2 {
                    ctl.branch(2);
                }
            }
            if ctl.stopped() {
                return;
            }
        }
    }

    /// Adds row `row` if it does not collide, then searches on. Returns whether it was added.
    fn dfs<T: Tracer>(
        &mut self,
        row: usize,
        g: crate::grid::Geometry,
        ctl: &mut Control<'_, T>,
    ) -> bool {
        if !ctl.node() {
            return false;
        }
        if self.m.rows[row].iter().any(|&c| self.is_covered(c)) {
            return false;
        }
        self.flip(row);
        self.covered_count += 4;
        self.chosen.push(row as u32);
        if T::ENABLED {
            let (cell, digit) = self.m.placement[row];
            ctl.tracer.event(Event::Place {
                depth: self.chosen.len() - 1,
                cell: cell as usize,
                digit,
                reason: Reason::Guess,
            });
        }
        let mut why = Why::Tried { cell: None };
        if self.covered_count == self.m.columns {
            let (m, chosen) = (self.m, &self.chosen);
            ctl.solution(|| {
                let mut grid = Grid::empty(g);
                for &r in chosen {
                    let (cell, d) = m.placement[r as usize];
                    grid.set(cell as usize, d);
                }
                grid
            });
        } else if self.dead_after(row) {
            why = Why::Uncoverable;
        } else {
            self.children(Some(row), g, ctl);
        }
        self.chosen.pop();
        self.covered_count -= 4;
        self.flip(row);
        if T::ENABLED && !ctl.stopped() {
            ctl.tracer.event(Event::Backtrack {
                depth: self.chosen.len().saturating_sub(1),
                why,
            });
        }
        true
    }
}

impl Solver for NaiveExactCover {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        if !ctl.node() {
            return;
        }
        let m = Matrix::build(puzzle);
        if self.prune && m.has_empty_column() {
            return;
        }
        let mut s = Search {
            m: &m,
            prune: self.prune,
            covered: vec![0; m.columns.div_ceil(64)],
            covered_count: 0,
            chosen: Vec::with_capacity(puzzle.geometry().cells()),
        };
        s.children(None, puzzle.geometry(), ctl);
    }
}
