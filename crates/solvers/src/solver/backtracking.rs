//! Cell backtracking (the state-compression article and the traversal article), recursive as in the state-compression article.
//!
//! Empty cells are visited in row-major order and digits tried in increasing
//! order; a digit is accepted when its row, column and box do not hold it yet.
//! The check reads one occupancy bitset per row, column and box instead of
//! scanning the units: the same decisions in the same order, only cheaper.
//! A pencilmark puzzle's excluded digits are skipped like held ones.

use super::tables::Tables;
use super::{Control, Event, Reason, Solver, Tracer, Why};
use crate::grid::Grid;

/// Row-major cell backtracking with no heuristic.
#[derive(Clone, Copy, Debug, Default)]
pub struct Backtracking;

struct State<'t> {
    t: &'t Tables,
    empties: Vec<u16>,
    /// Occupied digits (bit d-1) per row, column and box: `3n` masks.
    used: Vec<u64>,
    cells: Vec<u8>,
    /// Digits the pencilmarks exclude, per empty cell in `empties` order.
    excluded: Vec<u64>,
}

impl Solver for Backtracking {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        let g = puzzle.geometry();
        let t = Tables::get(g);
        let n = g.side();
        let mut st = State {
            t,
            empties: Vec::with_capacity(g.cells()),
            used: vec![0; 3 * n],
            cells: puzzle.cells().to_vec(),
            excluded: Vec::new(),
        };
        if puzzle.marks_refuse_a_given() {
            ctl.node(); // no solution: the root still counts as visited
            return;
        }
        for (c, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                st.empties.push(c as u16);
                if puzzle.is_pencilmark() {
                    if puzzle.allowed(c) == 0 {
                        ctl.node(); // a cell with no candidate: as for conflicting givens
                        return;
                    }
                    st.excluded.push(!puzzle.allowed(c));
                }
                continue;
            }
            let bit = 1u64 << (d - 1);
            let [r, col, b] = t.rcb[c];
            let slots = [r as usize, n + col as usize, 2 * n + b as usize];
            if slots.iter().any(|&s| st.used[s] & bit != 0) {
                // Conflicting givens: no solution, but the root still counts as visited.
                ctl.node();
                return;
            }
            for s in slots {
                st.used[s] |= bit;
            }
        }
        recurse(&mut st, 0, g, ctl);
    }
}

fn recurse<T: Tracer>(
    st: &mut State<'_>,
    step: usize,
    g: crate::grid::Geometry,
    ctl: &mut Control<'_, T>,
) {
    if !ctl.node() {
        return;
    }
    if step == st.empties.len() {
        let cells = &st.cells;
        ctl.solution(|| Grid::from_cells(g, cells).expect("complete grid"));
        return;
    }
    let n = st.t.n;
    let c = st.empties[step] as usize;
    let [r, col, b] = st.t.rcb[c];
    let (r, col, b) = (r as usize, n + col as usize, 2 * n + b as usize);
    let taken =
        st.used[r] | st.used[col] | st.used[b] | st.excluded.get(step).copied().unwrap_or(0);
    let allowed = !taken & (u64::MAX >> (64 - n));
    ctl.branch(allowed.count_ones());
    if T::ENABLED {
        ctl.tracer.event(Event::Branch {
            depth: step,
            cell: Some(c),
            options: allowed.count_ones(),
        });
    }
    for d in 1..=n as u8 {
        let bit = 1u64 << (d - 1);
        if allowed & bit == 0 {
            continue;
        }
        st.used[r] |= bit;
        st.used[col] |= bit;
        st.used[b] |= bit;
        st.cells[c] = d;
        if T::ENABLED {
            let reason = if allowed.count_ones() > 1 {
                Reason::Guess
            } else {
                Reason::Forced
            };
            ctl.tracer.event(Event::Place {
                depth: step,
                cell: c,
                digit: d,
                reason,
            });
        }
        recurse(st, step + 1, g, ctl);
        st.used[r] &= !bit;
        st.used[col] &= !bit;
        st.used[b] &= !bit;
        st.cells[c] = 0;
        if ctl.stopped() {
            return;
        }
    }
    // Back to the step before; at the first, only a dead end is told (the
    // search simply ends once every candidate there was tried).
    if T::ENABLED && (step > 0 || allowed == 0) {
        ctl.tracer.event(Event::Backtrack {
            depth: step.saturating_sub(1),
            why: if allowed == 0 {
                Why::NoCandidate { cell: c }
            } else {
                Why::Tried { cell: Some(c) }
            },
        });
    }
}
