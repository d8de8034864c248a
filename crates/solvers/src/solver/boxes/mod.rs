//! Box vectors (9×9 only): each box one vector, one 16-bit lane a digit
//! holding its candidate cells in the box.
//!
//! One vector operation updates every digit of a box at once. Inside a box,
//! bit-sliced counts across the lanes find hidden singles (a digit with one
//! cell) and naked singles (a cell with one digit). Between boxes, the three
//! boxes of a band exchange each digit's row triads, and those of a stack its
//! column triads: the triads must hold a permutation (the digit once per line
//! and once per box), which is pointing, claiming and a placed digit's peers in
//! one step, for all nine digits together; each band and stack keeps the
//! triads its rule last saw, and unchanged triads skip it. A box's triads also
//! hold exactly three digits (tdoku's rule). Only boxes changed since a rule
//! last looked are looked at again. A branch follows tdoku's heuristic: the
//! band with the fewest triad configurations over its unsettled digits, then
//! its digit with the fewest, one alternative per configuration; a cell is
//! branched on only when every digit's configuration is settled. The whole
//! state is 480 bytes (boxes and cached triads), copied at each guess.
//!
//! The portable path runs the rules as `state` writes them, lane by lane;
//! the x86-64 path writes them in AVX2 instructions (`x86`), compiled once
//! with AVX2 and once with AVX-512 enabled, chosen at run time ([`Isa`]).
//! Every path makes the same search, node for node.

use super::{Control, Event, Reason, Solver, Tracer, Why};
use crate::grid::{Geometry, Grid};
use state::{cell_of, permutations, Portable, Rules, State};

pub use super::band::Isa;

mod state;

/// The box-vector solver (9×9).
#[derive(Clone, Copy, Debug)]
pub struct Boxes {
    /// The instruction-set path; a path the processor lacks falls back to `Portable`.
    pub isa: Isa,
}

impl Solver for Boxes {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        if puzzle.geometry() != Geometry::new(3).expect("9x9") {
            // Not this strategy's size (the registry says 9x9 only): stop as a budget.
            ctl.give_up();
            return;
        }
        if puzzle.marks_refuse_a_given() {
            ctl.node();
            return;
        }
        let mut st = State::OPEN;
        st.set(puzzle);
        let isa = match self.isa.resolve() {
            i if i.supported() => i,
            _ => Isa::Portable,
        };
        match isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the processor supports the path's features (checked just above).
            Isa::Avx512 => unsafe { x86::node_avx512(&mut st, 0x1ff, ctl, 0) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Isa::Avx2 => unsafe { x86::node_avx2(&mut st, 0x1ff, ctl, 0) },
            _ => node_portable(&mut st, 0x1ff, ctl, 0),
        }
    }
}

/// Reports, when tracing, each digit that propagation left with one cell in
/// a box where it had more: the only place left for it in that box.
fn trace_places<T: Tracer>(before: &State, after: &State, ctl: &mut Control<'_, T>, depth: usize) {
    for (b, (x, y)) in before.boxes.iter().zip(&after.boxes).enumerate() {
        for d in 0..9 {
            if x[d] & x[d].wrapping_sub(1) != 0 && y[d].count_ones() == 1 {
                ctl.tracer.event(Event::Place {
                    depth,
                    cell: cell_of(b, y[d].trailing_zeros() as usize),
                    digit: d as u8 + 1,
                    reason: Reason::HiddenSingle,
                });
            }
        }
    }
}

/// The search, one copy per path: `$node` enters a node whose choice is made
/// but not yet propagated, with the boxes it changed in `dirty`.
macro_rules! search {
    ($(#[$attr:meta])* $vis:vis fn $node:ident, $rules:ty) => {
        $(#[$attr])*
        $vis fn $node<T: Tracer>(st: &mut State, dirty: u32, ctl: &mut Control<'_, T>, depth: usize) {
            if !ctl.node() {
                return;
            }
            let before = if T::ENABLED { Some(*st) } else { None };
            if st.propagate::<$rules>(dirty).is_err() {
                if T::ENABLED {
                    ctl.tracer.event(Event::Backtrack {
                        depth: depth.saturating_sub(1),
                        why: Why::Contradiction,
                    });
                }
                return;
            }
            if let Some(before) = before {
                trace_places(&before, st, ctl, depth);
            }
            if let Some((k, d, t)) = <$rules>::choose(st) {
                let options = permutations(t).count() as u32;
                ctl.branch(options);
                if T::ENABLED {
                    ctl.tracer.event(Event::Branch { depth, cell: None, options });
                }
                let mut left = options;
                for p in permutations(t) {
                    left -= 1;
                    // The last alternative reuses this node's state.
                    let mut copy;
                    let child = match left {
                        0 => &mut *st,
                        _ => {
                            copy = <$rules>::copy(st);
                            &mut copy
                        }
                    };
                    child.confine(k, d, p);
                    if T::ENABLED {
                        let cells = (0..3)
                            .flat_map(|j| {
                                let (b, m) = (3 * k + j, child.boxes[3 * k + j][d]);
                                (0..9).filter(move |q| m >> q & 1 != 0).map(move |q| cell_of(b, q))
                            })
                            .collect::<Vec<_>>();
                        ctl.tracer.event(Event::Confine { depth, digit: d as u8 + 1, cells });
                    }
                    $node(child, 7 << (3 * k), ctl, depth + 1);
                    if left == 0 || ctl.stopped() {
                        return;
                    }
                }
                return;
            }
            // Every digit's rows are settled: solved, or a cell to branch on.
            if st.solved() {
                ctl.solution(|| st.grid());
                return;
            }
            let cell = st.choose_cell();
            let mut rest = st.digits(cell);
            let options = rest.count_ones();
            ctl.branch(options);
            if T::ENABLED {
                ctl.tracer.event(Event::Branch { depth, cell: Some(cell), options });
            }
            while rest != 0 {
                let d = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if T::ENABLED {
                    ctl.tracer.event(Event::Place {
                        depth,
                        cell,
                        digit: d as u8 + 1,
                        reason: if options > 1 { Reason::Guess } else { Reason::Forced },
                    });
                }
                if rest == 0 {
                    // The last alternative reuses this node's state.
                    let dirty = st.place(cell, d);
                    $node(st, dirty, ctl, depth + 1);
                    return;
                }
                let mut child = <$rules>::copy(st);
                let dirty = child.place(cell, d);
                $node(&mut child, dirty, ctl, depth + 1);
                if ctl.stopped() {
                    return;
                }
            }
        }
    };
}

search!(fn node_portable, Portable);

#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
mod tests;
