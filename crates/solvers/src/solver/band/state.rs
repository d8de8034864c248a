//! `band`'s search state: each digit's candidates per band, what is still to
//! place, and the propagation that keeps them consistent.

use super::kernels::*;
use super::tables::*;
use super::BAND;
use crate::grid::{Geometry, Grid};
use crate::solver::{Control, Event, Reason, Tracer};

/// The search state: candidates, and what is still to place.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct State {
    /// Candidates of digit `d` in band `b` at `4d + b` (bit `9r + c` for row `r`
    /// of the band, column `c`); slot `4d + 3` and words 36..40 are always zero.
    pub(super) cand: [u32; 40],
    /// Cells not placed yet, per band (slot 3 zero).
    pub(super) unsolved: [u32; 4],
    /// Per band: bit `3d + r` while digit `d` has no place yet in row `r` of the band.
    pub(super) rows: [u32; 4],
}

impl State {
    /// The state of an empty grid before its candidates are set: nothing placed.
    pub(super) const BLANK: State = State {
        cand: [0; 40],
        unsolved: [BAND, BAND, BAND, 0],
        rows: [BAND, BAND, BAND, 0],
    };

    /// Turns a [`State::BLANK`] into the state after the givens, every word
    /// then due a first look ([`super::ALL_WORDS`]): the same state as placing each
    /// given in turn, built digit by digit from the rows, columns and boxes
    /// each digit's givens take. False when two givens conflict.
    #[inline(always)]
    pub(super) fn set_givens(&mut self, puzzle: &Grid) -> bool {
        let st = self;
        // Per digit: rows (bits 0..9), columns (9..18) and boxes (18..27) taken.
        let mut taken = [0u32; 9];
        let distinct = puzzle.each_given(|c, v| {
            let (d, units) = (v as usize - 1, UNITS[c]);
            if taken[d] & units != 0 {
                return false; // the digit twice in a unit
            }
            taken[d] |= units;
            let (b, p) = (c / 27, c % 27);
            st.cand[4 * d + b] |= 1 << p; // the givens themselves, for now
            st.unsolved[b] &= !(1 << p);
            st.rows[b] &= !(1 << (3 * d + p / 9));
            true
        });
        if !distinct {
            return false;
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
        true
    }

    /// Places digit `d` in cell `p` of band `b` (a candidate there). Returns the changed words.
    #[inline(always)]
    pub(super) fn place<K: Kernels>(&mut self, d: usize, b: usize, p: u32) -> u64 {
        K::clear_others(&mut self.cand, d, b, 1 << p) | self.place_lone(d, b, p)
    }

    /// [`State::place`] where `d` is the cell's only candidate (a naked
    /// single): no other digit has the cell to lose, so none is looked at.
    #[inline(always)]
    pub(super) fn place_lone(&mut self, d: usize, b: usize, p: u32) -> u64 {
        let bit = 1u32 << p;
        let i = 4 * d + b;
        let mut dirty = 0;
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
    pub(super) fn clear_columns(&mut self, d: usize, b: usize, mask: u32) -> u64 {
        // As `clear_others`: all three words lose the cells, then band `b`'s
        // gets its own back.
        let own = self.cand[4 * d + b];
        let mut hit = 0u64;
        for bb in 0..3 {
            let j = 4 * d + bb;
            let x = self.cand[j];
            hit |= ((x & mask != 0) as u64) << bb;
            self.cand[j] = x & !mask;
        }
        self.cand[4 * d + b] = own;
        (hit & !(1 << b)) << (4 * d)
    }

    /// Re-examines word `i` (digit `i / 4`, band `i % 4`): triads, then rows left
    /// with one cell. Returns the words it changed, or `None` on a contradiction.
    #[inline(always)]
    pub(super) fn update<K: Kernels, T: Tracer>(
        &mut self,
        i: usize,
        ctl: &mut Control<'_, T>,
        depth: usize,
    ) -> Option<u64> {
        let (d, b) = (i / 4, i % 4);
        let mut a = self.cand[i];
        a &= COMPLEX[K::triads(a) & 0x1ff];
        if a == 0 {
            return None;
        }
        self.cand[i] = a;
        let open = self.rows[b] >> (3 * d) & 7;
        let single = K::singles(a) & open;
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
    pub(super) fn stacks(cand: &mut [u32; 40], d: usize) -> Option<u64> {
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
    pub(super) fn triad_rule<K: Kernels>(cand: &mut [u32; 40]) -> Option<u64> {
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
    pub(super) fn propagate<K: Kernels, T: Tracer>(
        &mut self,
        mut dirty: u64,
        ctl: &mut Control<'_, T>,
        depth: usize,
    ) -> bool {
        // Words changed since the digit-wide passes last ran: a pass over words
        // that have not changed since it reached its fixpoint would find nothing.
        let (mut stale_stacks, mut stale_triads) = (0, 0);
        loop {
            let mut changed = dirty;
            while dirty != 0 {
                let i = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                match self.update::<K, T>(i, ctl, depth) {
                    Some(more) => {
                        dirty |= more;
                        changed |= more;
                    }
                    None => return false,
                }
            }
            stale_stacks |= changed;
            stale_triads |= changed;
            if self.solved() {
                // Every cell holds a digit that its placement cleared from all
                // its peers: a full grid with no unit repeating a digit is a
                // solution, and no later rule could refute it.
                return true;
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
                    let digits = self.digits(b, p);
                    if digits == 0 {
                        return false; // emptied by a single placed just before
                    }
                    let d = digits.trailing_zeros() as usize;
                    if T::ENABLED {
                        ctl.tracer.event(Event::Place {
                            depth,
                            cell: 27 * b + p as usize,
                            digit: d as u8 + 1,
                            reason: Reason::NakedSingle,
                        });
                    }
                    dirty |= self.place_lone(d, b, p);
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
    pub(super) fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to branch on (band, cell of the band): the first with two
    /// candidates, else the first with the fewest.
    #[inline(always)]
    pub(super) fn choose<K: Kernels>(&self) -> (usize, u32) {
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
    pub(super) fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)> {
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
    pub(super) fn digits(&self, b: usize, p: u32) -> u32 {
        let mut m = 0;
        for d in 0..9 {
            m |= (self.cand[4 * d + b] >> p & 1) << d;
        }
        m
    }

    /// The solved grid.
    pub(super) fn grid(&self) -> Grid {
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

/// The row (bit r), column (bit 9 + c) and box (bit 18 + box) of each cell.
const UNITS: [u32; 81] = {
    let mut t = [0; 81];
    let mut c = 0;
    while c < 81 {
        let (r, col) = (c / 9, c % 9);
        t[c] = 1 << r | 1 << (9 + col) | 1 << (18 + r / 3 * 3 + col / 3);
        c += 1;
    }
    t
};
