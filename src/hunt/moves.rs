//! The hunt's moves: each takes a puzzle with one solution to another with one
//! solution. A move removes, adds, moves or changes one given; a result with
//! several solutions gets givens back from one of them, one at a time at a cell
//! where two of its solutions differ, until one solution is left; a result with
//! none is no move.
//!
//! Most of a hunt's time is `band`'s search (80% by `perf`), in these
//! checks (about five solves a move) and in the score's one. Two
//! cheaper-looking restores were measured (2026-11-26, 60,000 moves from
//! 20 puzzles of 421–1,237 guesses; this one 2.57 s):
//! - listing up to 4, 8 or 32 solutions at once and picking givens among
//!   them in memory: 2.56, 2.70 and 3.45 s (a list that is all of them
//!   costs the whole tree of the emptier puzzle);
//! - after a removal, one search for a solution without the old digit in
//!   the emptied cell, restoring from the old solution: 2.37 s, and in
//!   2-minute hunts, seeds 1–10, again 8 of 10 past 600 guesses (3 and 10
//!   fell short, where this restore misses with 8 and 9).
//!
//! Neither was kept.

use crate::grid::{Geometry, Grid};
use crate::solver::{Limits, Mode, Solver, SolverId, Status};
use rand::Rng;

/// A puzzle with its one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unique {
    /// The givens.
    pub puzzle: Grid,
    /// Its one solution.
    pub solution: Grid,
}

/// Nodes one uniqueness check may take before the candidate is given up
/// (far above what 9×9 needs; it bounds a 16×16 or 25×25 check).
const CHECK_BUDGET: u64 = 2_000_000;

/// Givens added at most while restoring one solution: past this, the move is dropped.
const MAX_RESTORE: usize = 64;

/// The puzzle's verdict by `checker`: its solution when it has one only,
/// `Err(Some((a, b)))` two of its solutions, `Err(None)` none (or too costly).
fn verdict(checker: SolverId, puzzle: &Grid) -> Result<Grid, Option<(Grid, Grid)>> {
    let limits = Limits::new(Mode::Unique).with_node_budget(Some(CHECK_BUDGET));
    let mut out = checker.solve(puzzle, &limits);
    match out.status {
        Status::Unique => Ok(out.solutions.swap_remove(0)),
        Status::Multiple if out.solutions.len() >= 2 => {
            let b = out.solutions.swap_remove(1);
            let a = out.solutions.swap_remove(0);
            Err(Some((a, b)))
        }
        _ => Err(None),
    }
}

/// `puzzle` made to have one solution: while it has several, a random cell
/// where two of them differ gets one of their digits. `None` when it has no
/// solution, or the restoring takes too long.
pub fn restore<R: Rng>(checker: SolverId, mut puzzle: Grid, rng: &mut R) -> Option<Unique> {
    for _ in 0..=MAX_RESTORE {
        match verdict(checker, &puzzle) {
            Ok(solution) => return Some(Unique { puzzle, solution }),
            Err(None) => return None,
            Err(Some((a, b))) => {
                let differ: Vec<usize> = (0..a.cells().len())
                    .filter(|&c| a.get(c) != b.get(c))
                    .collect();
                let c = differ[rng.gen_range(0..differ.len())];
                let from = if rng.gen_bool(0.5) { &a } else { &b };
                puzzle.set(c, from.get(c));
            }
        }
    }
    None
}

/// The digits `cell` may hold given the other givens (bit `d - 1` for `d`).
fn candidates(puzzle: &Grid, cell: usize) -> u64 {
    let g = puzzle.geometry();
    let (r, c, b) = (g.row(cell), g.col(cell), g.boxed(cell));
    let mut used = 0u64;
    for other in 0..g.cells() {
        let v = puzzle.get(other);
        if v != 0
            && other != cell
            && (g.row(other) == r || g.col(other) == c || g.boxed(other) == b)
        {
            used |= 1 << (v - 1);
        }
    }
    crate::grid::full_mask(g.side()) & !used
}

/// A random digit `cell` may hold, if any.
fn random_candidate<R: Rng>(puzzle: &Grid, cell: usize, rng: &mut R) -> Option<u8> {
    let mut mask = candidates(puzzle, cell);
    let k = mask.count_ones();
    if k == 0 {
        return None;
    }
    for _ in 0..rng.gen_range(0..k) {
        mask &= mask - 1;
    }
    Some(mask.trailing_zeros() as u8 + 1)
}

fn random_cell<R: Rng>(puzzle: &Grid, given: bool, rng: &mut R) -> Option<usize> {
    let cells: Vec<usize> = (0..puzzle.cells().len())
        .filter(|&c| (puzzle.get(c) != 0) == given)
        .collect();
    (!cells.is_empty()).then(|| cells[rng.gen_range(0..cells.len())])
}

/// The kinds of move, drawn with these weights: removing most often, since
/// hard puzzles have few givens and every other move tends to add one.
const MOVES: [(Move, u32); 4] = [
    (Move::Remove, 4),
    (Move::Add, 1),
    (Move::Shift, 3),
    (Move::Change, 2),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    /// A given is removed.
    Remove,
    /// An empty cell gets a digit its peers allow.
    Add,
    /// A given is removed and an empty cell gets a digit.
    Shift,
    /// A given gets another digit its peers allow.
    Change,
}

/// One random move from `from`: a different puzzle with one solution, or
/// `None` when the move drawn leads nowhere (no solution, or no cell for it).
pub fn step<R: Rng>(checker: SolverId, from: &Unique, rng: &mut R) -> Option<Unique> {
    let total: u32 = MOVES.iter().map(|m| m.1).sum();
    let mut pick = rng.gen_range(0..total);
    let kind = MOVES
        .iter()
        .find(|m| {
            let hit = pick < m.1;
            pick = pick.saturating_sub(m.1);
            hit
        })
        .map_or(Move::Remove, |m| m.0);
    let mut p = from.puzzle.clone();
    match kind {
        Move::Remove => {
            let c = random_cell(&p, true, rng)?;
            p.set(c, 0);
        }
        Move::Add => {
            let c = random_cell(&p, false, rng)?;
            p.set(c, random_candidate(&p, c, rng)?);
        }
        Move::Shift => {
            let a = random_cell(&p, true, rng)?;
            let b = random_cell(&p, false, rng)?;
            p.set(a, 0);
            p.set(b, random_candidate(&p, b, rng)?);
        }
        Move::Change => {
            let c = random_cell(&p, true, rng)?;
            let old = p.get(c);
            p.set(c, 0);
            let d = random_candidate(&p, c, rng)?;
            if d == old {
                return None;
            }
            p.set(c, d);
        }
    }
    let next = restore(checker, p, rng)?;
    (next.puzzle != from.puzzle).then_some(next)
}

/// The strategy that checks a move's result at this size: the fastest.
pub fn checker(g: Geometry) -> SolverId {
    SolverId::fastest_for(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded::stream;

    fn start() -> Unique {
        let g = Geometry::from_side(9).unwrap();
        let mut rng = stream(7, 0);
        let (puzzle, solution) =
            crate::generate::generate_one(&crate::generate::GenerateOptions::minimal(g), &mut rng)
                .expect("a puzzle");
        Unique { puzzle, solution }
    }

    #[test]
    fn every_step_leaves_one_solution_and_changes_the_puzzle() {
        let mut u = start();
        let mut rng = stream(8, 0);
        let mut moved = 0;
        for _ in 0..400 {
            if let Some(next) = step(SolverId::Band, &u, &mut rng) {
                assert_ne!(next.puzzle, u.puzzle);
                let out = SolverId::Dlx.solve(&next.puzzle, &Limits::new(Mode::Unique));
                assert_eq!(out.status, Status::Unique, "{:?}", next.puzzle);
                assert_eq!(out.solutions[0], next.solution);
                for c in 0..81 {
                    let v = next.puzzle.get(c);
                    assert!(v == 0 || v == next.solution.get(c));
                }
                u = next;
                moved += 1;
            }
        }
        assert!(moved > 100, "only {moved} of 400 moves led anywhere");
    }

    #[test]
    fn restore_gives_one_solution_or_none() {
        let g = Geometry::from_side(9).unwrap();
        let mut rng = stream(3, 0);
        let empty = restore(SolverId::Band, Grid::empty(g), &mut rng).expect("restored");
        let out = SolverId::Dlx.solve(&empty.puzzle, &Limits::new(Mode::Unique));
        assert_eq!(out.status, Status::Unique);
        let mut clash = Grid::empty(g);
        clash.set(0, 1);
        clash.set(1, 1);
        assert!(restore(SolverId::Band, clash, &mut rng).is_none());
    }
}
