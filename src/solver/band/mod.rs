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
use tables::*;

mod kernels;
mod tables;
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
        let Some((mut st, dirty)) = State::from_puzzle(puzzle) else {
            ctl.node(); // conflicting givens: the root is a dead end
            return;
        };
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

/// The search state: candidates, and what is still to place.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct State {
    /// Candidates of digit `d` in band `b` at `4d + b` (bit `9r + c` for row `r`
    /// of the band, column `c`); slot `4d + 3` and words 36..40 are always zero.
    cand: [u32; 40],
    /// Cells not placed yet, per band (slot 3 zero).
    unsolved: [u32; 4],
    /// Per band: bit `3d + r` while digit `d` has no place yet in row `r` of the band.
    rows: [u32; 4],
}

impl State {
    /// The state after the givens, with every word marked for a first look:
    /// the same state as placing each given in turn, built digit by digit from
    /// the rows, columns and boxes each digit's givens take.
    fn from_puzzle(puzzle: &Grid) -> Option<(State, u64)> {
        let mut st = State {
            cand: [0; 40],
            unsolved: [BAND, BAND, BAND, 0],
            rows: [BAND, BAND, BAND, 0],
        };
        // Per digit: rows (bits 0..9), columns (9..18) and boxes (18..27) taken.
        let mut taken = [0u32; 9];
        for (c, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                let (d, r, col) = (v as usize - 1, c / 9, c % 9);
                let units = 1 << r | 1 << (9 + col) | 1 << (18 + r / 3 * 3 + col / 3);
                if taken[d] & units != 0 {
                    return None; // the digit twice in a unit
                }
                taken[d] |= units;
                let (b, p) = (c / 27, c % 27);
                st.cand[4 * d + b] |= 1 << p; // the givens themselves, for now
                st.unsolved[b] &= !(1 << p);
                st.rows[b] &= !(1 << (3 * d + p / 9));
            }
        }
        for (d, &t) in taken.iter().enumerate() {
            let free_columns = BAND & !columns(t >> 9 & 0x1ff);
            for b in 0..3 {
                let (rows, boxes) = (t >> (3 * b) & 7, t >> (18 + 3 * b) & 7);
                let row_cells =
                    ((rows & 1) * 0x1ff) | ((rows >> 1 & 1) * 0x3fe00) | ((rows >> 2) * 0x7fc0000);
                let box_cells =
                    columns(((boxes & 1) * 7) | ((boxes >> 1 & 1) * 0o70) | ((boxes >> 2) * 0o700));
                let i = 4 * d + b;
                st.cand[i] |= free_columns & !row_cells & !box_cells & st.unsolved[b];
            }
        }
        Some((st, ALL_WORDS))
    }

    /// Places digit `d` in cell `p` of band `b` (a candidate there). Returns the changed words.
    #[inline(always)]
    fn place<K: Kernels>(&mut self, d: usize, b: usize, p: u32) -> u64 {
        let bit = 1u32 << p;
        let i = 4 * d + b;
        let mut dirty = K::clear_others(&mut self.cand, d, b, bit);
        let x = self.cand[i];
        let kept = x & KEEP[p as usize];
        if kept != x {
            self.cand[i] = kept;
            dirty |= 1 << i;
        }
        dirty |= self.clear_columns(d, b, columns(1 << (p % 9)));
        self.unsolved[b] &= !bit;
        self.rows[b] &= !(1 << (3 * d + p as usize / 9));
        dirty
    }

    /// Clears the cells `mask` from digit `d` in the two bands other than `b`.
    #[inline(always)]
    fn clear_columns(&mut self, d: usize, b: usize, mask: u32) -> u64 {
        let mut dirty = 0;
        for bb in 0..3 {
            let j = 4 * d + bb;
            let x = self.cand[j];
            let y = if bb == b { x } else { x & !mask };
            dirty |= ((x != y) as u64) << j;
            self.cand[j] = y;
        }
        dirty
    }

    /// Re-examines word `i` (digit `i / 4`, band `i % 4`): triads, then rows left
    /// with one cell. Returns the words it changed, or `None` on a contradiction.
    #[inline(always)]
    fn update<K: Kernels, T: Tracer>(
        &mut self,
        i: usize,
        ctl: &mut Control<'_, T>,
        depth: usize,
    ) -> Option<u64> {
        let (d, b) = (i / 4, i % 4);
        let mut a = self.cand[i];
        a &= COMPLEX[K::triads(a)];
        if a == 0 {
            return None;
        }
        self.cand[i] = a;
        let open = self.rows[b] >> (3 * d) & 7;
        let single = (ONE[(a & 0x1ff) as usize]
            | ONE[(a >> 9 & 0x1ff) as usize] << 1
            | ONE[(a >> 18) as usize] << 2) as u32
            & open;
        if single == 0 {
            return Some(0);
        }
        let cells = a & ROWS[single as usize];
        if T::ENABLED {
            let mut m = cells;
            while m != 0 {
                let p = m.trailing_zeros() as usize;
                m &= m - 1;
                ctl.tracer.event(Event::Place {
                    depth,
                    cell: 27 * b + p,
                    digit: d as u8 + 1,
                    reason: Reason::HiddenSingle,
                });
            }
        }
        self.rows[b] &= !(single << (3 * d));
        self.unsolved[b] &= !cells;
        let dirty = K::clear_others(&mut self.cand, d, b, cells);
        Some(dirty | self.clear_columns(d, b, columns(column_set(cells))))
    }

    /// Column constraints of digit `d`: in each stack the 3 columns × 3 bands
    /// triads must hold a permutation (the digit once per column, once per box).
    /// Returns the changed words, or `None` on a contradiction.
    #[inline(always)]
    fn stacks(cand: &mut [u32; 40], d: usize) -> Option<u64> {
        let c = [
            column_set(cand[4 * d]),
            column_set(cand[4 * d + 1]),
            column_set(cand[4 * d + 2]),
        ];
        // Triad bit 3*band + column-in-stack, for each stack; keep the feasible ones.
        let mut keep = [0u32; 3];
        for s in 0..3 {
            let sh = 3 * s;
            let t = (c[0] >> sh & 7) | (c[1] >> sh & 7) << 3 | (c[2] >> sh & 7) << 6;
            let f = FEASIBLE[t as usize] as u32;
            if f == 0 {
                return None;
            }
            for (b, k) in keep.iter_mut().enumerate() {
                *k |= (f >> (3 * b) & 7) << sh;
            }
        }
        let mut dirty = 0;
        for (b, k) in keep.iter().enumerate() {
            dirty |= restrict(cand, 4 * d + b, columns(*k));
        }
        Some(dirty)
    }

    /// The exactly-three rule on every row triad (per band) and column triad
    /// (per stack). Returns the changed words, or `None` on a contradiction.
    #[inline(always)]
    fn triad_rule<K: Kernels>(cand: &mut [u32; 40]) -> Option<u64> {
        let mut dirty = 0;
        let mut cols = [[0u32; 3]; 9];
        for b in 0..3 {
            let mut t = [0u32; 9];
            for (d, (x, c)) in t.iter_mut().zip(&mut cols).enumerate() {
                let a = cand[4 * d + b];
                *x = K::triads(a) as u32;
                c[b] = column_set(a);
            }
            let lose = exactly_three(&t)?;
            for (d, &l) in lose.iter().enumerate() {
                dirty |= restrict(cand, 4 * d + b, !CELLS[l as usize]);
            }
        }
        for s in 0..3 {
            let sh = 3 * s;
            let mut t = [0u32; 9];
            for d in 0..9 {
                let c = &cols[d];
                t[d] = (c[0] >> sh & 7) | (c[1] >> sh & 7) << 3 | (c[2] >> sh & 7) << 6;
            }
            let lose = exactly_three(&t)?;
            for (d, &l) in lose.iter().enumerate() {
                for b in 0..3 {
                    dirty |= restrict(cand, 4 * d + b, !columns((l >> (3 * b) & 7) << sh));
                }
            }
        }
        Some(dirty)
    }

    /// Propagates until nothing changes. False on a contradiction.
    #[inline(always)]
    fn propagate<K: Kernels, T: Tracer>(
        &mut self,
        mut dirty: u64,
        ctl: &mut Control<'_, T>,
        depth: usize,
    ) -> bool {
        // Words changed since the digit-wide passes last ran: a pass over words
        // that have not changed since it reached its fixpoint would find nothing.
        let (mut stale_stacks, mut stale_triads) = (0, 0);
        loop {
            stale_stacks |= dirty;
            stale_triads |= dirty;
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                match self.update::<K, T>(i, ctl, depth) {
                    Some(more) => {
                        dirty |= more;
                        stale_stacks |= more;
                        stale_triads |= more;
                    }
                    None => return false,
                }
            }
            let counts = K::counts(&self.cand);
            for b in 0..3 {
                let u = self.unsolved[b];
                if u & !counts.one[b] != 0 {
                    return false; // an empty cell
                }
                let mut singles = u & !counts.two[b];
                while singles != 0 {
                    let p = singles.trailing_zeros();
                    singles &= singles - 1;
                    let bit = 1u32 << p;
                    let Some(d) = (0..9).find(|&d| self.cand[4 * d + b] & bit != 0) else {
                        return false; // emptied by a single placed just before
                    };
                    if T::ENABLED {
                        ctl.tracer.event(Event::Place {
                            depth,
                            cell: 27 * b + p as usize,
                            digit: d as u8 + 1,
                            reason: Reason::NakedSingle,
                        });
                    }
                    dirty |= self.place::<K>(d, b, p);
                }
            }
            if dirty != 0 {
                continue;
            }
            if stale_stacks != 0 {
                let stale = std::mem::take(&mut stale_stacks);
                match K::stacks(&mut self.cand, stale) {
                    Some(0) => {}
                    Some(more) => {
                        dirty = more;
                        continue;
                    }
                    None => return false,
                }
            }
            if stale_triads == 0 {
                return true;
            }
            stale_triads = 0;
            match K::triad_rule(&mut self.cand) {
                Some(0) => return true,
                Some(more) => dirty = more,
                None => return false,
            }
        }
    }

    /// True once every cell is placed.
    #[inline(always)]
    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to branch on (band, cell of the band): the first with two
    /// candidates, else the first with the fewest.
    #[inline(always)]
    fn choose<K: Kernels>(&self) -> (usize, u32) {
        let c = K::counts(&self.cand);
        for b in 0..3 {
            let m = self.unsolved[b] & c.two[b] & !c.three[b];
            if m != 0 {
                return (b, m.trailing_zeros());
            }
        }
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let mut m = self.unsolved[b];
            while m != 0 {
                let p = m.trailing_zeros();
                m &= m - 1;
                let n = self.digits(b, p).count_ones();
                if n < best.2 {
                    best = (b, p, n);
                    if n == 3 {
                        return (b, p);
                    }
                }
            }
        }
        (best.0, best.1)
    }

    /// The digit and band to branch on (tdoku's heuristic): the band with the
    /// fewest triad configurations over its open digits, then its open digit
    /// with the fewest. `None` when every open digit is down to one configuration.
    #[inline(always)]
    fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)> {
        let mut best: Option<(usize, usize, u32)> = None;
        let mut best_total = u32::MAX;
        for b in 0..3 {
            let mut total = 0;
            let mut pick: Option<(usize, u32)> = None;
            for d in 0..9 {
                let n = CONFIGS[triads(cand[4 * d + b])] as u32;
                if n > 1 {
                    total += n;
                    if pick.is_none_or(|(_, m)| n < m) {
                        pick = Some((d, n));
                    }
                }
            }
            if let Some((d, n)) = pick {
                if total < best_total {
                    best_total = total;
                    best = Some((d, b, n));
                }
            }
        }
        best
    }

    /// The candidate digits of cell `p` of band `b`, as bit `d`.
    #[inline(always)]
    fn digits(&self, b: usize, p: u32) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= (self.cand[4 * d + b] >> p & 1) << d;
        }
        m
    }

    /// The solved grid.
    fn grid(&self) -> Grid {
        let mut cells = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut m = self.cand[4 * d + b];
                while m != 0 {
                    let p = m.trailing_zeros() as usize;
                    m &= m - 1;
                    cells[27 * b + p] = d as u8 + 1;
                }
            }
        }
        Grid::from_cells(Geometry::new(3).expect("9x9"), &cells).expect("81 cells")
    }
}

/// Every word of the state, as dirty bits.
const ALL_WORDS: u64 = 0x7_7777_7777;

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
