//! Clause learning over the candidates: a CDCL search (first-UIP learning,
//! VSIDS, restarts) whose propagation knows Sudoku's "exactly one" groups.
//!
//! It is the strategy for big grids near the hardness peak (25×25 to 64×64
//! with 35–50% of the cells blank), where a wrong early guess hides a
//! contradiction deep below it: chronological backtracking searches the whole
//! subtree again and again, clause learning remembers why it failed and jumps
//! back past the guesses that played no part.
//!
//! Counters: every decision is a guess (a candidate set true or false) and a
//! node; each conflict is a node too (the state the learnt clause leads to),
//! and the root is one. Unique and count modes block each solution found with
//! the clause "not all of its decisions" and search on.

mod engine;
mod heap;

use self::engine::{split, Engine, Keep, Kind};
use super::{cnf, Control, Event, Reason, Solver, Tracer, Why};
use crate::grid::Grid;

/// Clause-learning search over the candidates the givens leave.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cdcl;

impl Solver for Cdcl {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        run(puzzle, ctl, Keep::DEFAULT);
    }
}

/// The search, keeping learnt clauses as `keep` says; the engine at the
/// end, for tests (`None` when it was never built).
fn run<T: Tracer>(puzzle: &Grid, ctl: &mut Control<'_, T>, keep: Keep) -> Option<Engine> {
    if !ctl.node() {
        return None;
    }
    let cnf::Candidates {
        vars,
        members,
        starts,
        cell_groups,
    } = cnf::candidates(puzzle)?;
    let mut e = Engine::new(vars.len(), starts, members, keep);
    if !e.add_groups(cell_groups) {
        return Some(e);
    }
    // Trail entries already reported to the tracer.
    let mut traced = 0;
    loop {
        if let Some(conflict) = e.propagate() {
            if e.depth() == 0 || !ctl.node() {
                return Some(e);
            }
            let level = e.learn(conflict);
            if T::ENABLED {
                ctl.tracer.event(Event::Backtrack {
                    depth: level,
                    why: Why::Contradiction,
                });
            }
            traced = traced.min(e.trail_len() - 1);
            continue;
        }
        if T::ENABLED {
            trace_placements(&e, &vars, traced, ctl);
            traced = e.trail_len();
        }
        if e.restart_due() {
            e.backtrack(0);
            if T::ENABLED {
                ctl.tracer.event(Event::Backtrack {
                    depth: 0,
                    why: Why::Restart,
                });
            }
            traced = traced.min(e.trail_len());
        }
        e.reduce_if_due();
        match e.decide() {
            Some(lit) => {
                if !ctl.node() {
                    return Some(e);
                }
                ctl.branch(2);
                if T::ENABLED {
                    let (v, positive) = split(lit);
                    let (cell, digit) = vars[v];
                    let depth = e.depth();
                    ctl.tracer.event(Event::Branch {
                        depth,
                        cell: Some(cell),
                        options: 2,
                    });
                    if positive {
                        ctl.tracer.event(Event::Place {
                            depth,
                            cell,
                            digit,
                            reason: Reason::Guess,
                        });
                    }
                    traced = e.trail_len();
                }
            }
            None => {
                let mut cells = puzzle.cells().to_vec();
                for (v, &(cell, digit)) in vars.iter().enumerate() {
                    if e.is_true(v) {
                        cells[cell] = digit;
                    }
                }
                let g = puzzle.geometry();
                if !ctl.solution(|| Grid::from_cells(g, &cells).expect("a full grid")) {
                    return Some(e);
                }
                let block = e.blocking_clause();
                e.backtrack(0);
                if T::ENABLED {
                    ctl.tracer.event(Event::Backtrack {
                        depth: 0,
                        why: Why::Restart,
                    });
                }
                traced = traced.min(e.trail_len());
                if !e.add_clause(&block, Kind::Block) {
                    return Some(e);
                }
            }
        }
    }
}

/// Nodes `cdcl-hybrid` gives `bitset-mrv-locked` before handing over.
pub const HANDOVER_NODES: u64 = 2_000;

/// `bitset-mrv-locked` for its first [`HANDOVER_NODES`] nodes, then [`Cdcl`]
/// from the start: the first solves typical puzzles of every size at its
/// speed, the second what lies near the hardness peak, where the first never
/// finishes. Its counters add both searches'.
#[derive(Clone, Copy, Debug, Default)]
pub struct CdclHybrid;

impl Solver for CdclHybrid {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        let mrv = super::BitsetMrv::new(super::Singles::NakedHiddenLocked);
        if ctl.try_within(HANDOVER_NODES, |c| mrv.search(puzzle, c)) {
            if T::ENABLED {
                ctl.tracer.event(Event::Backtrack {
                    depth: 0,
                    why: Why::Restart,
                });
            }
            Cdcl.search(puzzle, ctl);
        }
    }
}

/// Reports the digits placed by propagation since trail position `from`: a
/// cell's last candidate, a unit's last place, or a learnt clause's verdict.
fn trace_placements<T: Tracer>(
    e: &Engine,
    vars: &[(usize, u8)],
    from: usize,
    ctl: &mut Control<'_, T>,
) {
    let depth = e.depth();
    for &lit in e.trail_from(from) {
        let (v, positive) = split(lit);
        let Some(kind) = e.implied_by(v).filter(|_| positive) else {
            continue;
        };
        let reason = match kind {
            Kind::Cell => Reason::NakedSingle,
            Kind::Unit => Reason::HiddenSingle,
            Kind::Learnt | Kind::Block => Reason::Forced,
        };
        let (cell, digit) = vars[v];
        ctl.tracer.event(Event::Place {
            depth,
            cell,
            digit,
            reason,
        });
    }
}

#[cfg(test)]
mod tests;
