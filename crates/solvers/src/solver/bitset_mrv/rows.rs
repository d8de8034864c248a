//! The 9×9 candidate-mask engine on AVX2: each row of cell masks is one vector
//! of sixteen 16-bit lanes, so a placement clears its digit from all 20 peers
//! in thirteen vector operations, and naked singles, hidden singles (all 27
//! units at once) and locked candidates read the whole board in lanes.
//!
//! Column `c` sits in lane `c + c / 3`: each box is a group of four lanes whose
//! fourth is padding, so no box straddles the two 128-bit halves and in-half
//! byte shifts fold a box. Solved cells and padding hold [`SOLVED`], a bit
//! outside the digits, so an empty lane always means a contradiction.
//!
//! The rules are the scalar engine's and reach the same fixpoint at every node
//! (each only removes candidates, so the order does not matter), the branch
//! choice is the scalar one, and a guess that empties a cell is not entered:
//! the search, its node and guess counts are the scalar ones.
//!
//! # Safety
//! Every `unsafe fn` here is unsafe for one reason: it runs AVX2, BMI1/2 and
//! POPCNT instructions (its loads and stores stay inside the board it
//! borrows). Call it only from [`solve`], which `bitset-mrv` enters after
//! `Isa::supported` saw the features.

use super::SCORE_STOP;
use crate::grid::{Geometry, Grid};
use crate::solver::simd::{and, and_not, is_zero, or, V};
use crate::solver::{Control, Tracer};
use std::arch::x86_64::*;

/// Every digit.
const FULL: u16 = 0x1ff;
/// Solved cells and padding lanes: no digit, never empty.
const SOLVED: u16 = 0x8000;

/// Lane of column `c`.
const fn lane(c: usize) -> usize {
    c + c / 3
}

/// Column of lane `l` (a real lane).
const fn column(l: usize) -> usize {
    l - l / 4
}

/// All ones in lane `l`.
static LANE: [[u16; 16]; 16] = {
    let mut t = [[0; 16]; 16];
    let mut l = 0;
    while l < 16 {
        t[l][l] = 0xffff;
        l += 1;
    }
    t
};

/// All ones in the three real lanes of box group `g`.
static GROUP: [[u16; 16]; 3] = {
    let mut t = [[0; 16]; 3];
    let mut g = 0;
    while g < 3 {
        t[g][4 * g] = 0xffff;
        t[g][4 * g + 1] = 0xffff;
        t[g][4 * g + 2] = 0xffff;
        g += 1;
    }
    t
};

/// `movemask_epi8` bits of the nine real lanes.
const REAL: u32 = 0x3f | 0x3f << 8 | 0x3f << 16;

/// One search node's board.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Board {
    /// Candidates per row, lane layout; [`SOLVED`] in solved cells and padding.
    cand: [[u16; 16]; 9],
    /// Digits placed per column, lane layout (padding: every digit, so it needs none).
    col_used: [u16; 16],
    /// Digits placed per box, in each of the box's lanes, one vector per band.
    box_used: [[u16; 16]; 3],
    /// Digits placed per row.
    row_used: [u16; 16],
    /// Placed digits, row-major; 0 for open cells.
    value: [u8; 96],
    unsolved: u32,
}

/// A row of open cells: every digit in the nine real lanes, [`SOLVED`] in padding.
const OPEN_ROW: [u16; 16] = {
    let mut row = [SOLVED; 16];
    let mut c = 0;
    while c < 9 {
        row[lane(c)] = FULL;
        c += 1;
    }
    row
};

/// Nothing placed yet: no digit in the real lanes, every digit in padding.
const NONE_USED: [u16; 16] = {
    let mut used = [FULL; 16];
    let mut c = 0;
    while c < 9 {
        used[lane(c)] = 0;
        c += 1;
    }
    used
};

impl Board {
    /// The board the givens leave (before any single); `None` when two givens
    /// conflict. A cell the givens leave no digit is found by [`naked`].
    ///
    /// # Safety
    /// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
    #[inline(always)]
    unsafe fn from_puzzle(cells: &[u8], marks: Option<&[u64]>) -> Option<Board> {
        // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
        unsafe {
            let mut b = Board {
                cand: [OPEN_ROW; 9],
                col_used: NONE_USED,
                box_used: [NONE_USED; 3],
                row_used: [0; 16],
                value: [0; 96],
                unsolved: 81,
            };
            for (i, &d) in cells.iter().enumerate() {
                if d == 0 {
                    continue;
                }
                let (r, l, bit) = (i / 9, lane(i % 9), 1u16 << (d - 1));
                if (b.row_used[r] | b.col_used[l] | b.box_used[r / 3][l]) & bit != 0 {
                    return None;
                }
                b.settle(r, l, bit);
            }
            // Each open cell loses the digits its three units hold.
            let col = ld(&b.col_used);
            for r in 0..9 {
                let used = or(or(splat(b.row_used[r]), col), ld(&b.box_used[r / 3]));
                let row = and_not(ld(&b.cand[r]), used);
                st(&mut b.cand[r], row);
            }
            // A pencilmark puzzle's open cells keep only their marks; a given
            // must be one of its own cell's marks.
            if let Some(marks) = marks {
                for (i, &m) in marks.iter().enumerate().take(81) {
                    let (r, l) = (i / 9, lane(i % 9));
                    match cells[i] {
                        0 => b.cand[r][l] &= m as u16 & FULL,
                        d if m & (1 << (d - 1)) == 0 => return None,
                        _ => {}
                    }
                }
            }
            Some(b)
        }
    }

    /// Records the digit `bit` in row `r`, lane `l`: the cell is solved and its
    /// row, column and box hold the digit. The peers are left as they are.
    #[inline(always)]
    fn settle(&mut self, r: usize, l: usize, bit: u16) {
        self.value[9 * r + column(l)] = bit.trailing_zeros() as u8 + 1;
        self.cand[r][l] = SOLVED;
        self.unsolved -= 1;
        self.row_used[r] |= bit;
        self.col_used[l] |= bit;
        let g = l / 4;
        for j in 4 * g..4 * g + 3 {
            self.box_used[r / 3][j] |= bit;
        }
    }
}

thread_local! {
    /// The boards of a search, one per depth, kept between searches.
    static BOARDS: std::cell::RefCell<Vec<Board>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn ld(p: &[u16; 16]) -> V {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe { _mm256_loadu_si256(p.as_ptr() as *const V) }
}

/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn st(p: &mut [u16; 16], v: V) {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe { _mm256_storeu_si256(p.as_mut_ptr() as *mut V, v) }
}

/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn splat(x: u16) -> V {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe { _mm256_set1_epi16(x as i16) }
}

/// Lanes equal to zero, as all ones.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn eq0(a: V) -> V {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe { _mm256_cmpeq_epi16(a, _mm256_setzero_si256()) }
}

/// Each lane without its lowest set bit.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn drop_low(a: V) -> V {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe { and(a, _mm256_sub_epi16(a, splat(1))) }
}

/// True when every lane of `o` holds every digit of the same lane of `need`.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn covers(o: V, need: V) -> bool {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe { is_zero(and_not(need, o)) }
}

/// Adds the units `BYTES / 2` lanes up (within each half) to each lane's
/// seen-once and seen-twice sets.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn fold<const BYTES: i32>(o: &mut V, t: &mut V) {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let (o2, t2) = (
            _mm256_srli_si256::<BYTES>(*o),
            _mm256_srli_si256::<BYTES>(*t),
        );
        *t = or(or(*t, t2), and(*o, o2));
        *o = or(*o, o2);
    }
}

/// Lane `4g` copied to the four lanes of its group.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn spread(a: V) -> V {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let s = _mm256_setr_epi8(
            0, 1, 0, 1, 0, 1, 0, 1, 8, 9, 8, 9, 8, 9, 8, 9, 0, 1, 0, 1, 0, 1, 0, 1, 8, 9, 8, 9, 8,
            9, 8, 9,
        );
        _mm256_shuffle_epi8(a, s)
    }
}

/// Each box group given the next group's lanes (groups taken round).
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn next_box(a: V) -> V {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe { _mm256_permutevar8x32_epi32(a, _mm256_setr_epi32(2, 3, 4, 5, 0, 1, 6, 7)) }
}

/// Each box group given the group after next.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn next_box2(a: V) -> V {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe { _mm256_permutevar8x32_epi32(a, _mm256_setr_epi32(4, 5, 0, 1, 2, 3, 6, 7)) }
}

/// Each lane given the next column of its box (taken round inside the box).
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn next_col(a: V) -> V {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let s = _mm256_setr_epi8(
            2, 3, 4, 5, 0, 1, 6, 7, 10, 11, 12, 13, 8, 9, 14, 15, 2, 3, 4, 5, 0, 1, 6, 7, 10, 11,
            12, 13, 8, 9, 14, 15,
        );
        _mm256_shuffle_epi8(a, s)
    }
}

/// Each lane given the column after next of its box.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn next_col2(a: V) -> V {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let s = _mm256_setr_epi8(
            4, 5, 0, 1, 2, 3, 6, 7, 12, 13, 8, 9, 10, 11, 14, 15, 4, 5, 0, 1, 2, 3, 6, 7, 12, 13,
            8, 9, 10, 11, 14, 15,
        );
        _mm256_shuffle_epi8(a, s)
    }
}

/// Places digit `bit` in row `r`, lane `l` (it is a candidate there) and clears
/// it from the cell's peers: its column in every row, its box in the band's
/// rows, its whole row.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn place(b: &mut Board, r: usize, l: usize, bit: u16) {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let (g, k) = (l / 4, r / 3);
        b.settle(r, l, bit);
        let d = splat(bit);
        let col = and(d, ld(&LANE[l]));
        let bx = and(d, ld(&GROUP[g]));
        for row in b.cand.iter_mut() {
            st(row, and_not(ld(row), col));
        }
        for row in b.cand[3 * k..3 * k + 3].iter_mut() {
            st(row, and_not(ld(row), bx));
        }
        let row = and_not(ld(&b.cand[r]), d);
        st(&mut b.cand[r], row);
    }
}

/// True when some cell has no candidate left.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn has_empty(b: &Board) -> bool {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let mut e = _mm256_setzero_si256();
        for row in &b.cand {
            e = or(e, eq0(ld(row)));
        }
        !is_zero(e)
    }
}

/// Places naked singles until none is left. False on a contradiction.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn naked(b: &mut Board) -> bool {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let full = splat(FULL);
        loop {
            let mut placed = false;
            for r in 0..9 {
                let m = ld(&b.cand[r]);
                if !is_zero(eq0(m)) {
                    return false;
                }
                let d = and(m, full);
                let single = and_not(eq0(drop_low(d)), eq0(d));
                let mut bits = _mm256_movemask_epi8(single) as u32 & 0x5555_5555;
                while bits != 0 {
                    let l = bits.trailing_zeros() as usize / 2;
                    bits &= bits - 1;
                    // An earlier placement may have taken the digit: the cell is empty.
                    let x = b.cand[r][l];
                    if x == 0 {
                        return false;
                    }
                    place(b, r, l, x);
                    placed = true;
                }
            }
            if !placed {
                return true;
            }
        }
    }
}

/// Hidden singles in all 27 units at once: each digit a unit still needs must
/// have a place there, and a digit with one place leaves that cell only that
/// digit (a naked single for [`naked`]). `None` on a contradiction, else
/// whether any cell was narrowed.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn hidden(b: &mut Board) -> Option<bool> {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let full = splat(FULL);
        let zero = _mm256_setzero_si256();
        let mut rows = [zero; 9];
        for (v, row) in rows.iter_mut().zip(&b.cand) {
            *v = ld(row);
        }
        // Columns: down the rows, lane by lane.
        let (mut o, mut t) = (rows[0], zero);
        for &x in &rows[1..] {
            t = or(t, and(o, x));
            o = or(o, x);
        }
        let need = and_not(full, ld(&b.col_used));
        if !covers(o, need) {
            return None;
        }
        let col = and(and_not(o, t), need);
        // Boxes: a band's three rows, then across each group of lanes.
        let mut boxes = [zero; 3];
        for (k, h) in boxes.iter_mut().enumerate() {
            let (x, y, z) = (rows[3 * k], rows[3 * k + 1], rows[3 * k + 2]);
            let mut t = or(and(x, y), and(or(x, y), z));
            let mut o = or(or(x, y), z);
            fold::<2>(&mut o, &mut t);
            fold::<4>(&mut o, &mut t);
            let (o, t) = (spread(o), spread(t));
            let need = and_not(full, ld(&b.box_used[k]));
            if !covers(o, need) {
                return None;
            }
            *h = and(and_not(o, t), need);
        }
        // Rows: across the lanes, then every lane given the row's sets.
        let mut any = false;
        for r in 0..9 {
            let (mut o, mut t) = (rows[r], zero);
            fold::<2>(&mut o, &mut t);
            fold::<4>(&mut o, &mut t);
            fold::<8>(&mut o, &mut t);
            let (o2, t2) = (
                _mm256_permute2x128_si256::<0x01>(o, o),
                _mm256_permute2x128_si256::<0x01>(t, t),
            );
            let t = or(or(t, t2), and(o, o2));
            let o = or(o, o2);
            let (o, t) = (
                _mm256_broadcastw_epi16(_mm256_castsi256_si128(o)),
                _mm256_broadcastw_epi16(_mm256_castsi256_si128(t)),
            );
            let need = splat(FULL & !b.row_used[r]);
            if !covers(o, need) {
                return None;
            }
            let f = and(rows[r], or(or(col, boxes[r / 3]), and(and_not(o, t), need)));
            if is_zero(f) {
                continue;
            }
            if !is_zero(drop_low(f)) {
                return None; // a cell would have to hold two digits
            }
            st(&mut b.cand[r], _mm256_blendv_epi8(f, rows[r], eq0(f)));
            any = true;
        }
        Some(any)
    }
}

/// Locked candidates (pointing and claiming) between boxes and rows, then
/// boxes and columns, all read from one snapshot. True when a candidate went.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn locked(b: &mut Board) -> bool {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let full = splat(FULL);
        let zero = _mm256_setzero_si256();
        let mut rows = [zero; 9];
        for (v, row) in rows.iter_mut().zip(&b.cand) {
            *v = and(ld(row), full);
        }
        let mut elim = [zero; 9];
        // A row's segment in each box, spread over the box's lanes.
        let mut seg = [zero; 9];
        for (s, &x) in seg.iter_mut().zip(&rows) {
            let x = or(x, _mm256_srli_si256::<2>(x));
            *s = spread(or(x, _mm256_srli_si256::<4>(x)));
        }
        for k in 0..3 {
            for i in 0..3 {
                let (r, r1, r2) = (3 * k + i, 3 * k + (i + 1) % 3, 3 * k + (i + 2) % 3);
                let s = seg[r];
                let lines = or(seg[r1], seg[r2]); // same box, other rows
                let segs = or(next_box(s), next_box2(s)); // same row, other boxes
                let point = and(and_not(s, lines), segs);
                elim[r] = or(elim[r], or(next_box(point), next_box2(point)));
                let claim = and(and_not(s, segs), lines);
                elim[r1] = or(elim[r1], claim);
                elim[r2] = or(elim[r2], claim);
            }
        }
        // A column's segment in each band, lane by lane.
        let mut cseg = [zero; 3];
        for (k, s) in cseg.iter_mut().enumerate() {
            *s = or(or(rows[3 * k], rows[3 * k + 1]), rows[3 * k + 2]);
        }
        for k in 0..3 {
            let s = cseg[k];
            let segs = or(cseg[(k + 1) % 3], cseg[(k + 2) % 3]); // same column, other bands
            let lines = or(next_col(s), next_col2(s)); // same box, other columns
            let point = and(and_not(s, lines), segs);
            let claim = and(and_not(s, segs), lines);
            let claim = or(next_col(claim), next_col2(claim));
            for (r, e) in elim.iter_mut().enumerate() {
                *e = or(*e, if r / 3 == k { claim } else { point });
            }
        }
        let mut changed = zero;
        for (row, &e) in b.cand.iter_mut().zip(&elim) {
            let x = ld(row);
            changed = or(changed, and(x, e));
            st(row, and_not(x, e));
        }
        !is_zero(changed)
    }
}

/// Singles and (with `LOCKED`) locked candidates until none applies. False on a contradiction.
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn propagate<const LOCKED: bool>(b: &mut Board) -> bool {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        loop {
            if !naked(b) {
                return false;
            }
            if b.unsolved == 0 {
                return true;
            }
            match hidden(b) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if LOCKED && locked(b) {
                continue;
            }
            return true;
        }
    }
}

/// The scalar engine's branch choice: the first two-candidate cell sharing a
/// candidate with the most peers (stopping at [`SCORE_STOP`]), else the first
/// cell with fewest candidates. Returns (row, lane, candidates).
///
/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[inline(always)]
unsafe fn choose(b: &Board) -> (usize, usize, u32) {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let full = splat(FULL);
        let mut best = None;
        let mut best_score = 0;
        'rows: for r in 0..9 {
            let m = and(ld(&b.cand[r]), full);
            let rest = drop_low(m);
            let two = and_not(eq0(drop_low(rest)), eq0(rest));
            let mut bits = _mm256_movemask_epi8(two) as u32 & 0x5555_5555;
            while bits != 0 {
                let l = bits.trailing_zeros() as usize / 2;
                bits &= bits - 1;
                let mv = splat(b.cand[r][l]);
                let (cell, group) = (3u32 << (2 * l), 0x3fu32 << (8 * (l / 4)));
                let mut score = 0;
                for (i, row) in b.cand.iter().enumerate() {
                    let peers = if i == r {
                        REAL & !cell
                    } else if i / 3 == r / 3 {
                        group
                    } else {
                        cell
                    };
                    let miss = _mm256_movemask_epi8(eq0(and(ld(row), mv))) as u32;
                    score += (peers & !miss).count_ones();
                }
                let score = score / 2;
                if best.is_none() || score > best_score {
                    (best, best_score) = (Some((r, l)), score);
                    if score >= SCORE_STOP {
                        break 'rows;
                    }
                }
            }
        }
        if let Some((r, l)) = best {
            return (r, l, 2);
        }
        let (mut best, mut best_count) = ((0, 0), u32::MAX);
        for r in 0..9 {
            for c in 0..9 {
                let x = b.cand[r][lane(c)];
                if x & SOLVED == 0 && x.count_ones() < best_count {
                    (best, best_count) = ((r, lane(c)), x.count_ones());
                }
            }
        }
        (best.0, best.1, best_count)
    }
}

/// # Safety
/// The processor must support AVX2, BMI1/2 and POPCNT (this module's contract).
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
unsafe fn search<T: Tracer, const LOCKED: bool>(
    boards: &mut Vec<Board>,
    depth: usize,
    g: Geometry,
    ctl: &mut Control<'_, T>,
) {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        if !ctl.node() {
            return;
        }
        if !propagate::<LOCKED>(&mut boards[depth]) {
            return;
        }
        let b = &boards[depth];
        if b.unsolved == 0 {
            ctl.solution(|| Grid::from_cells(g, &b.value[..81]).expect("complete grid"));
            return;
        }
        let (r, l, count) = choose(b);
        ctl.branch(count);
        if boards.len() <= depth + 1 {
            boards.push(boards[depth]);
        }
        let mut m = boards[depth].cand[r][l];
        while m != 0 {
            let bit = m & m.wrapping_neg();
            m ^= bit;
            boards[depth + 1] = boards[depth];
            let child = &mut boards[depth + 1];
            place(child, r, l, bit);
            // A guess that empties a peer is not entered (as the scalar engine's).
            if !has_empty(child) {
                search::<T, LOCKED>(boards, depth + 1, g, ctl);
            }
            if ctl.stopped() {
                return;
            }
        }
    }
}

/// Searches a 9×9 puzzle.
///
/// # Safety
/// The processor must have AVX2, BMI1, BMI2 and POPCNT.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt")]
pub(super) unsafe fn solve<T: Tracer>(puzzle: &Grid, locked: bool, ctl: &mut Control<'_, T>) {
    // SAFETY: the module's contract: the features are present; memory stays in what is borrowed.
    unsafe {
        let Some(root) = Board::from_puzzle(puzzle.cells(), puzzle.marks()) else {
            ctl.node(); // conflicting givens: the root is a dead end
            return;
        };
        let g = puzzle.geometry();
        BOARDS.with_borrow_mut(|boards| {
            boards.clear();
            boards.push(root);
            if locked {
                search::<T, true>(boards, 0, g, ctl);
            } else {
                search::<T, false>(boards, 0, g, ctl);
            }
        });
    }
}
