//! Band bitboards (9×9 only): one 27-bit word per digit and band of three rows.
//!
//! Propagation works on whole words. For one digit in one band, the 3×3
//! row × box "triads" that still hold a candidate must contain a permutation
//! (the digit sits once in each row and once in each box of the band); one
//! table lookup keeps exactly the triads of such permutations, which is
//! pointing and claiming inside the band in one AND. A row left with one cell
//! places the digit there (hidden singles of rows and, through the triads, of
//! boxes), clearing that cell from the other digits and its column from the
//! other two bands. The same triad table applied to columns × bands of a
//! stack gives the column constraints. Across digits, the three cells of a triad
//! (row or column) hold exactly three digits: a triad only three digits can
//! reach takes all three, and one with three digits settled in it refuses the
//! rest (tdoku's cardinality rule). Naked singles come from bit-sliced
//! candidate counts. A branch follows tdoku's heuristic: the band with the
//! fewest triad configurations over its open digits, then its digit with the
//! fewest, one alternative per configuration; a cell is branched on only when
//! every digit's configuration is settled.
//! Only changed words are revisited, and the whole state is 192 bytes copied at
//! each guess: nothing is allocated while solving.
//!
//! The column and exactly-three rules run only when some word changed since
//! they last did. They and the other kernels that touch every word (candidate
//! counts, clearing a cell from every digit) have a portable scalar form and
//! x86-64 forms (AVX2, AVX-512; `wide` holds the vector rules) chosen at run
//! time; every path reaches the same state at every node.

use super::{Control, Event, Reason, Solver, Tracer};
use crate::grid::{Geometry, Grid};
use kernels::*;
use state::State;
use tables::*;

mod kernels;
mod state;
pub(super) mod tables;
#[cfg(target_arch = "x86_64")]
mod wide;

/// Which instruction-set path runs the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// The fastest path this processor supports.
    Auto,
    /// Plain scalar code, on every machine.
    Portable,
    /// AVX2, BMI1/2, POPCNT and LZCNT (x86-64).
    Avx2,
    /// AVX-512 F/VL/BW plus the AVX2 set (x86-64).
    Avx512,
}

impl Isa {
    /// True when this processor can run the path.
    pub fn supported(self) -> bool {
        match self {
            Isa::Auto | Isa::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("popcnt")
                    // The AVX2 kernels are compiled with `lzcnt` enabled too.
                    && std::arch::is_x86_feature_detected!("lzcnt")
            }
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => {
                Isa::Avx2.supported()
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                    && std::arch::is_x86_feature_detected!("avx512bw")
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The path `Auto` stands for on this processor; other paths stand for themselves.
    pub fn resolve(self) -> Isa {
        match self {
            // AVX2 before AVX-512: on Zen 4 the AVX-512 masked stores measured 2% slower
            // (`cargo bench --bench band`); AVX-512 stays selectable and tested.
            Isa::Auto => [Isa::Avx2, Isa::Avx512]
                .into_iter()
                .find(|i| i.supported())
                .unwrap_or(Isa::Portable),
            other => other,
        }
    }

    /// Every path this processor can run, the portable one first.
    pub fn available() -> Vec<Isa> {
        [Isa::Portable, Isa::Avx2, Isa::Avx512]
            .into_iter()
            .filter(|i| i.supported())
            .collect()
    }
}

/// The band-bitboard solver (9×9).
#[derive(Clone, Copy, Debug)]
pub struct Band {
    /// The instruction-set path; a path the processor lacks falls back to `Portable`.
    pub isa: Isa,
}

impl Solver for Band {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        self.search_excluding(puzzle, None, ctl);
    }
}

impl Band {
    /// Searches with `exclude = (cell, digit)` struck from an empty cell's candidates.
    pub(crate) fn search_excluding<T: Tracer>(
        &self,
        puzzle: &Grid,
        exclude: Option<(usize, u8)>,
        ctl: &mut Control<'_, T>,
    ) {
        if puzzle.geometry() != Geometry::new(3).expect("9x9") {
            // Not this strategy's size: the registry says 9x9 only, and callers skip
            // other sizes; answering "no solution" here would be a lie, so stop as a budget.
            ctl.give_up();
            return;
        }
        let (mut st, dirty) = (State::BLANK, ALL_WORDS);
        if !st.set_givens(puzzle) {
            ctl.node(); // conflicting givens: the root is a dead end
            return;
        }
        if let Some((c, d)) = exclude.filter(|&(c, _)| puzzle.get(c) == 0) {
            st.cand[4 * (d as usize - 1) + c / 27] &= !(1 << (c % 27));
        }
        if let Some(marks) = puzzle.marks() {
            // A pencilmark puzzle: each open cell loses the digits its marks exclude.
            if puzzle.marks_refuse_a_given() {
                ctl.node();
                return;
            }
            for (c, &m) in marks.iter().enumerate() {
                if puzzle.get(c) != 0 {
                    continue;
                }
                let mut out = !m & 0x1ff;
                while out != 0 {
                    let d = out.trailing_zeros() as usize;
                    out &= out - 1;
                    st.cand[4 * d + c / 27] &= !(1 << (c % 27));
                }
            }
        }
        let isa = match self.isa.resolve() {
            i if i.supported() => i,
            _ => Isa::Portable,
        };
        match isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the processor supports the path's features (checked just above).
            Isa::Avx512 => unsafe { x86::node_avx512(&mut st, dirty, ctl, 0) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Isa::Avx2 => unsafe { x86::node_avx2(&mut st, dirty, ctl, 0) },
            _ => node_portable(&mut st, dirty, ctl, 0),
        }
    }
}

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;

/// Every word of the state, as dirty bits.
pub(super) const ALL_WORDS: u64 = 0x7_7777_7777;

/// The search, one copy per path: `$node` enters a node whose placement is made
/// but not yet propagated, with the words it changed in `dirty`.
macro_rules! search {
    ($(#[$attr:meta])* $vis:vis fn $node:ident, $k:ty) => {
        $(#[$attr])*
        $vis fn $node<T: Tracer>(st: &mut State, dirty: u64, ctl: &mut Control<'_, T>, depth: usize) {
            if !ctl.node() {
                return;
            }
            if !st.propagate::<$k, T>(dirty, ctl, depth) {
                if T::ENABLED {
                    ctl.tracer.event(Event::Backtrack {
                        depth: depth.saturating_sub(1),
                        why: $crate::solver::Why::Contradiction,
                    });
                }
                return;
            }
            if st.solved() {
                ctl.solution(|| st.grid());
                return;
            }
            if let Some((d, b, options)) = <$k>::choose_config(&st.cand) {
                ctl.branch(options);
                if T::ENABLED {
                    ctl.tracer.event(Event::Branch { depth, cell: None, options });
                }
                let i = 4 * d + b;
                let t = <$k>::triads(st.cand[i]) as u32;
                let cells_of = |mask: u32| {
                    (0..27).filter(move |p| mask >> p & 1 != 0).map(move |p| 27 * b + p)
                };
                let mut left = options;
                for (p, mask) in PERMUTATIONS.into_iter().zip(PERMUTATION_CELLS) {
                    if t & p != p {
                        continue;
                    }
                    left -= 1;
                    if T::ENABLED {
                        ctl.tracer.event(Event::Confine {
                            depth,
                            digit: d as u8 + 1,
                            cells: cells_of(st.cand[i] & mask).collect(),
                        });
                    }
                    if left == 0 {
                        st.cand[i] &= mask;
                        $node(st, 1 << i, ctl, depth + 1);
                        return;
                    }
                    let mut child = *st;
                    child.cand[i] &= mask;
                    $node(&mut child, 1 << i, ctl, depth + 1);
                    if ctl.stopped() {
                        return;
                    }
                }
                return;
            }
            let (b, p) = st.choose::<$k>();
            let mut rest = st.digits(b, p);
            let options = rest.count_ones();
            ctl.branch(options);
            if T::ENABLED {
                ctl.tracer.event(Event::Branch {
                    depth,
                    cell: Some(27 * b + p as usize),
                    options,
                });
            }
            while rest != 0 {
                let d = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if T::ENABLED {
                    ctl.tracer.event(Event::Place {
                        depth,
                        cell: 27 * b + p as usize,
                        digit: d as u8 + 1,
                        reason: if options > 1 { Reason::Guess } else { Reason::Forced },
                    });
                }
                if rest == 0 {
                    // The last alternative reuses this node's state.
                    let dirty = st.place::<$k>(d, b, p);
                    $node(st, dirty, ctl, depth + 1);
                    return;
                }
                let mut child = *st;
                let dirty = child.place::<$k>(d, b, p);
                $node(&mut child, dirty, ctl, depth + 1);
                if ctl.stopped() {
                    return;
                }
            }
        }
    };
}

search!(fn node_portable, Scalar);

#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
mod tests;
