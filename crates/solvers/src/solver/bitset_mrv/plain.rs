//! The state-compression article's search: row, column and box bitsets, MRV, no singles
//! (`bitset-mrv-plain`).

use super::super::tables::Tables;
use super::super::{Control, Event, Reason, Tracer, Why};
use crate::grid::Grid;

struct State<'t> {
    t: &'t Tables,
    used: Vec<u64>,
    cells: Vec<u8>,
    empty: usize,
    /// The pencilmarks, if any.
    allowed: Option<Vec<u64>>,
}

pub(super) fn solve<T: Tracer>(puzzle: &Grid, ctl: &mut Control<'_, T>) {
    let g = puzzle.geometry();
    let t = Tables::get(g);
    let n = t.n;
    let mut st = State {
        t,
        used: vec![0; 3 * n],
        cells: puzzle.cells().to_vec(),
        empty: 0,
        allowed: puzzle.marks().map(<[u64]>::to_vec),
    };
    if puzzle.marks_refuse_a_given() {
        ctl.node();
        return;
    }
    for (c, &d) in puzzle.cells().iter().enumerate() {
        if d == 0 {
            st.empty += 1;
            continue;
        }
        let bit = 1u64 << (d - 1);
        let slots = slots(t, c);
        if slots.iter().any(|&s| st.used[s] & bit != 0) {
            ctl.node();
            return;
        }
        slots.iter().for_each(|&s| st.used[s] |= bit);
    }
    dfs(&mut st, 0, g, ctl);
}

#[inline]
fn slots(t: &Tables, c: usize) -> [usize; 3] {
    let [r, col, b] = t.rcb[c];
    [r as usize, t.n + col as usize, 2 * t.n + b as usize]
}

fn dfs<T: Tracer>(
    st: &mut State<'_>,
    depth: usize,
    g: crate::grid::Geometry,
    ctl: &mut Control<'_, T>,
) {
    if !ctl.node() {
        return;
    }
    if st.empty == 0 {
        let cells = &st.cells;
        ctl.solution(|| Grid::from_cells(g, cells).expect("complete grid"));
        return;
    }
    let full = u64::MAX >> (64 - st.t.n);
    let (mut best, mut best_mask, mut best_count) = (0, 0, u32::MAX);
    for c in 0..st.cells.len() {
        if st.cells[c] != 0 {
            continue;
        }
        let [a, b, x] = slots(st.t, c);
        let mut mask = !(st.used[a] | st.used[b] | st.used[x]) & full;
        if let Some(allowed) = &st.allowed {
            mask &= allowed[c];
        }
        let k = mask.count_ones();
        if k < best_count {
            (best, best_mask, best_count) = (c, mask, k);
            if k <= 1 {
                break;
            }
        }
    }
    ctl.branch(best_count);
    if T::ENABLED {
        ctl.tracer.event(Event::Branch {
            depth,
            cell: Some(best),
            options: best_count,
        });
    }
    let s = slots(st.t, best);
    let mut m = best_mask;
    while m != 0 {
        let bit = m & m.wrapping_neg();
        m ^= bit;
        let d = bit.trailing_zeros() as u8 + 1;
        if T::ENABLED {
            let reason = if best_count > 1 {
                Reason::Guess
            } else {
                Reason::Forced
            };
            ctl.tracer.event(Event::Place {
                depth,
                cell: best,
                digit: d,
                reason,
            });
        }
        s.iter().for_each(|&i| st.used[i] |= bit);
        st.cells[best] = d;
        st.empty -= 1;
        dfs(st, depth + 1, g, ctl);
        s.iter().for_each(|&i| st.used[i] &= !bit);
        st.cells[best] = 0;
        st.empty += 1;
        if ctl.stopped() {
            return;
        }
    }
    if T::ENABLED && (depth > 0 || best_mask == 0) {
        ctl.tracer.event(Event::Backtrack {
            depth: depth.saturating_sub(1),
            why: if best_mask == 0 {
                Why::NoCandidate { cell: best }
            } else {
                Why::Tried { cell: Some(best) }
            },
        });
    }
}
