//! Reference solvers from the field's own crates, for comparison rows: a CDCL
//! SAT solver (`varisat`) and a third-party dancing-links crate (`dlx`).
//!
//! Neither crate exposes its search counters in a form that means what ours
//! do, so these entries report none (see [`super::SolverId::counts_search`]);
//! the control's node counter only marks the root, for its limits.

use super::{Control, Solver, Tracer};
use crate::grid::Grid;
use varisat::ExtendFormula;

/// Variables of the CNF: one per candidate of [`super::cnf::candidates`],
/// numbered from 1.
struct Encoding {
    /// `(cell, digit)` of variable `i + 1`.
    vars: Vec<(usize, u8)>,
    clauses: Vec<Vec<isize>>,
}

/// The extended encoding (each open cell takes exactly one digit; each digit
/// not given in a unit goes in exactly one of its cells), over the candidates
/// the givens leave: the encoding that propagates best of the classic three,
/// and no clause for what the givens already decide. "At most one" is written
/// pairwise. `None` when the givens alone show there is no solution.
fn encode(puzzle: &Grid) -> Option<Encoding> {
    let cands = super::cnf::candidates(puzzle)?;
    let mut clauses = Vec::new();
    for group in cands.groups() {
        let vs: Vec<isize> = group.iter().map(|&v| v as isize + 1).collect();
        for i in 0..vs.len() {
            for j in i + 1..vs.len() {
                clauses.push(vec![-vs[i], -vs[j]]);
            }
        }
        clauses.push(vs);
    }
    Some(Encoding {
        vars: cands.vars,
        clauses,
    })
}

/// CDCL SAT (the `varisat` crate) on [`encode`]'s CNF; after each solution
/// the next solve runs with that solution blocked, so `unique` is two solves.
#[derive(Clone, Copy, Debug, Default)]
pub struct SatVarisat;

impl Solver for SatVarisat {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        if !ctl.node() {
            return;
        }
        let Some(enc) = encode(puzzle) else {
            return;
        };
        let mut sat = varisat::Solver::new();
        let lit = |v: isize| varisat::Lit::from_dimacs(v);
        for c in &enc.clauses {
            sat.add_clause(&c.iter().map(|&v| lit(v)).collect::<Vec<_>>());
        }
        while !ctl.stopped() {
            if !matches!(sat.solve(), Ok(true)) {
                return;
            }
            let Some(model) = sat.model() else { return };
            let mut cells = puzzle.cells().to_vec();
            let mut block = Vec::new();
            for l in model.iter().filter(|l| l.is_positive()) {
                let (c, d) = enc.vars[l.var().index()];
                cells[c] = d;
                block.push(!*l);
            }
            let g = puzzle.geometry();
            if !ctl.solution(|| Grid::from_cells(g, &cells).expect("a full grid")) {
                return;
            }
            sat.add_clause(&block);
        }
    }
}

/// Algorithm X with dancing links as the `dlx` crate implements it (smallest
/// column first), on the standard matrix: a row per cell and digit, columns
/// for cell, row-digit, column-digit and box-digit; the givens' rows as the
/// partial solution.
#[derive(Clone, Copy, Debug, Default)]
pub struct DlxCrate;

/// Counts solutions for the `dlx` crate, keeping the first `keep`.
struct Collect {
    want: u64,
    keep: usize,
    found: u64,
    kept: Vec<Vec<Vec<usize>>>,
}

impl ::dlx::Solutions for Collect {
    fn push(&mut self, sol: ::dlx::Solution) -> bool {
        self.found += 1;
        if self.kept.len() < self.keep {
            self.kept.push(sol.collect());
        }
        self.found < self.want
    }
}

impl Solver for DlxCrate {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        if !ctl.node() || crate::validate::find_flaw(puzzle).is_some() {
            return;
        }
        let g = puzzle.geometry();
        let (n, cells) = (g.side(), g.cells());
        let row = |c: usize, d: usize| -> Vec<usize> {
            let (r, k, b) = (g.row(c), g.col(c), g.boxed(c));
            vec![
                c,
                cells + r * n + d,
                2 * cells + k * n + d,
                3 * cells + b * n + d,
            ]
        };
        // A pencilmark puzzle's excluded candidates have no row.
        let rows = (0..cells).flat_map(|c| {
            (0..n)
                .filter(move |&d| puzzle.allowed(c) & (1 << d) != 0)
                .map(move |d| (c, d))
        });
        let mut solver = ::dlx::Solver::new(4 * cells, rows.map(|(c, d)| row(c, d)));
        let partial: Vec<Vec<usize>> = (0..cells)
            .filter(|&c| puzzle.get(c) != 0)
            .map(|c| row(c, puzzle.get(c) as usize - 1))
            .collect();
        let mut out = Collect {
            want: ctl.limits.max_solutions,
            keep: ctl.limits.keep_solutions.max(1),
            found: 0,
            kept: Vec::new(),
        };
        solver.solve(partial, &mut out);
        let grids: Vec<Grid> = out
            .kept
            .iter()
            .map(|rows| {
                let mut grid = Grid::empty(g);
                for r in rows {
                    // The cell column comes first in a row; the row-digit column gives the digit.
                    grid.set(r[0], ((r[1] - cells) % n) as u8 + 1);
                }
                grid
            })
            .collect();
        // The crate counts past the solutions kept; the control stores no more than those.
        for k in 0..out.found as usize {
            let made = grids.get(k).unwrap_or(&grids[0]).clone();
            if !ctl.solution(|| made) {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Geometry;
    use crate::solver::{Limits, Mode, Status};

    fn grid(text: &str) -> Grid {
        let g = Geometry::from_side(9).unwrap();
        let cells: Vec<u8> = text
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        Grid::from_cells(g, &cells).unwrap()
    }

    #[test]
    fn both_find_the_unique_answer_and_tell_multiple_and_none() {
        let p = grid(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        );
        let want = grid(
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293",
        );
        let empty = Grid::empty(p.geometry());
        // r1c1 needs a 9 (its row holds 1-8) and its column holds one: no solution,
        // though no two givens conflict.
        let dead = grid(&format!(".12345678{}9{}", ".".repeat(27), ".".repeat(44)));
        for solve in [
            |g: &Grid, l: &Limits| SatVarisat.solve(g, l),
            |g: &Grid, l: &Limits| DlxCrate.solve(g, l),
        ] {
            let out = solve(&p, &Limits::new(Mode::Unique));
            assert_eq!(out.status, Status::Unique);
            assert_eq!(out.solutions[0], want);
            let many = solve(&empty, &Limits::new(Mode::Count(3)));
            assert_eq!((many.status, many.solution_count), (Status::Multiple, 3));
            assert!(many
                .solutions
                .iter()
                .all(|s| crate::validate::check_solution(&empty, s).is_ok()));
            assert_eq!(
                solve(&dead, &Limits::new(Mode::Unique)).status,
                Status::None
            );
        }
    }
}
