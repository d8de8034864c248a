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
const BAND: u32 = (1 << 27) - 1;

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

/// Bits of a 9-bit row pattern's three boxes: bit `k` when box `k` has a candidate.
static SHRINK: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if (x >> (3 * k)) & 7 != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// 1 when a 9-bit row pattern has exactly one bit.
static ONE: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x as u32).count_ones() == 1) as u8;
        x += 1;
    }
    t
};

/// The six ways three rows take three boxes, as 9-bit triad masks (bit `3r + k`).
const PERMUTATIONS: [u32; 6] = {
    const P: [[u32; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = [0u32; 6];
    let mut i = 0;
    while i < 6 {
        out[i] = (1 << P[i][0]) | (1 << (3 + P[i][1])) | (1 << (6 + P[i][2]));
        i += 1;
    }
    out
};

/// The band cells of each of the six [`PERMUTATIONS`].
const PERMUTATION_CELLS: [u32; 6] = {
    let mut out = [0u32; 6];
    let mut i = 0;
    while i < 6 {
        out[i] = triad_cells(PERMUTATIONS[i]);
        i += 1;
    }
    out
};

/// The permutations inside a 9-bit triad pattern (bit `3r + k`: row `r` has a
/// candidate in box `k`): the union of their triads, and how many there are.
const fn fit(x: u32) -> (u16, u8) {
    let (mut union, mut count) = (0u16, 0u8);
    let mut i = 0;
    while i < 6 {
        let p = PERMUTATIONS[i];
        if x & p == p {
            union |= p as u16;
            count += 1;
        }
        i += 1;
    }
    (union, count)
}

/// The triads that lie on a permutation inside a 9-bit triad pattern.
static FEASIBLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = fit(x as u32).0;
        x += 1;
    }
    t
};

/// [`FEASIBLE`] as a 27-bit cell mask of the band (0 when no permutation fits).
static COMPLEX: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = triad_cells(FEASIBLE[x] as u32);
        x += 1;
    }
    t
};

/// The band cells of each 9-bit triad pattern.
static CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = triad_cells(x as u32);
        x += 1;
    }
    t
};

/// How many permutations fit in a 9-bit triad pattern (0 to 6).
static CONFIGS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = fit(x as u32).1;
        x += 1;
    }
    t
};

/// The triads of a 9-bit pattern whose row has no other triad (bit `3r + k`).
static SETTLED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        let mut r = 0;
        while r < 3 {
            let g = (x >> (3 * r)) & 7;
            if g == 1 || g == 2 || g == 4 {
                t[x] |= (g << (3 * r)) as u16;
            }
            r += 1;
        }
        x += 1;
    }
    t
};

/// For each triad `3r + k` of a 9-bit pattern: the other triads of row `r` and of box `k`.
const TRIAD_PEERS: [u16; 9] = {
    let mut t = [0u16; 9];
    let mut e = 0;
    while e < 9 {
        let (r, k) = (e / 3, e % 3);
        t[e] = ((7 << (3 * r)) | (0x49 << k)) as u16 & !(1 << e);
        e += 1;
    }
    t
};

/// The exactly-three rule: the three cells of a triad hold three different
/// digits. Given each digit's feasible triads in one band or stack (9-bit
/// patterns), returns per digit the triads it loses, or `None` when some triad
/// can no longer be filled or is claimed by four digits. A triad that only
/// three digits can reach takes all three; a triad three digits are settled in
/// refuses the others.
#[inline(always)]
fn exactly_three(t: &[u32; 9]) -> Option<[u32; 9]> {
    let (mut g1, mut g2, mut g3, mut g4) = (0, 0, 0, 0);
    let (mut s1, mut s2, mut s3, mut s4) = (0, 0, 0, 0);
    let mut settled = [0u32; 9];
    for d in 0..9 {
        let x = t[d];
        g4 |= g3 & x;
        g3 |= g2 & x;
        g2 |= g1 & x;
        g1 |= x;
        let s = SETTLED[x as usize] as u32;
        settled[d] = s;
        s4 |= s3 & s;
        s3 |= s2 & s;
        s2 |= s1 & s;
        s1 |= s;
    }
    if g3 != 0x1ff || s4 != 0 {
        return None;
    }
    let only_three = g3 & !g4;
    let full = s3;
    let mut lose = [0u32; 9];
    if only_three == full {
        // Every triad reachable by exactly three digits already has them settled.
        return Some(lose);
    }
    for d in 0..9 {
        let x = t[d];
        let mut l = full & !settled[d];
        let mut forced = x & only_three & !settled[d];
        while forced != 0 {
            let e = forced.trailing_zeros() as usize;
            forced &= forced - 1;
            l |= TRIAD_PEERS[e] as u32;
        }
        lose[d] = l & x;
    }
    Some(lose)
}

/// Whole rows of a band for a 3-bit row mask.
static ROWS: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut m = 0;
    while m < 8 {
        let mut r = 0;
        while r < 3 {
            if m >> r & 1 != 0 {
                t[m] |= 0x1ff << (9 * r);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// For each cell of a band: the band's cells that are not its row or box peers (itself kept).
static KEEP: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, k) = (p / 9, (p % 9) / 3);
        let peers = (0x1ff << (9 * r)) | ((0x7 << (3 * k)) * 0x40201);
        t[p] = (BAND & !peers) | (1 << p);
        p += 1;
    }
    t
};

/// The 9-bit triad pattern of a band word (bit `3r + k`: row `r` has a candidate in box `k`).
#[inline(always)]
fn triads(a: u32) -> usize {
    SHRINK[(a & 0x1ff) as usize] as usize
        | (SHRINK[(a >> 9 & 0x1ff) as usize] as usize) << 3
        | (SHRINK[(a >> 18) as usize] as usize) << 6
}

/// The band cells of the triads in a 9-bit pattern.
#[inline(always)]
const fn triad_cells(t: u32) -> u32 {
    let (mut m, mut bit) = (0, 0);
    while bit < 9 {
        if t >> bit & 1 != 0 {
            m |= 7 << (9 * (bit / 3) + 3 * (bit % 3));
        }
        bit += 1;
    }
    m
}

/// Spreads a 9-bit column mask over the three rows of a band.
#[inline(always)]
fn columns(cols: u32) -> u32 {
    cols * 0x40201
}

/// The 9-bit mask of columns holding a cell of `cells`.
#[inline(always)]
fn column_set(cells: u32) -> u32 {
    (cells | cells >> 9 | cells >> 18) & 0x1ff
}

/// Bit-sliced candidate counts of one band's cells: at least one, two, three.
#[derive(Clone, Copy, Default)]
struct Counts {
    one: [u32; 4],
    two: [u32; 4],
    three: [u32; 4],
}

/// The operations that touch every digit's word, one implementation per path.
trait Kernels {
    /// Candidate counts of every band.
    fn counts(cand: &[u32; 40]) -> Counts;
    /// Clears `cells` of band `b` from every digit but `d`; returns the changed words as bits `4d' + b`.
    fn clear_others(cand: &mut [u32; 40], d: usize, b: usize, cells: u32) -> u64;
    /// The 9-bit triad pattern of a band word, as [`triads`].
    fn triads(a: u32) -> usize;
    /// The column rule, as [`State::stacks`], of at least the digits with a word
    /// in `stale` (bits `4d + b`): the changed words, or `None` on a contradiction.
    fn stacks(cand: &mut [u32; 40], stale: u64) -> Option<u64>;
    /// The exactly-three rule, as [`State::triad_rule`]: the changed words, or
    /// `None` on a contradiction.
    fn triad_rule(cand: &mut [u32; 40]) -> Option<u64>;
    /// The digit and band to branch on, as [`State::choose_config`].
    fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)>;
}

/// Keeps only `mask` of word `j`; returns bit `j` when that changed it.
#[inline(always)]
fn restrict(cand: &mut [u32; 40], j: usize, mask: u32) -> u64 {
    let x = cand[j];
    cand[j] = x & mask;
    ((x & mask != x) as u64) << j
}

/// The scalar kernels.
struct Scalar;

impl Kernels for Scalar {
    #[inline(always)]
    fn triads(a: u32) -> usize {
        triads(a)
    }

    #[inline(always)]
    fn counts(cand: &[u32; 40]) -> Counts {
        let mut c = Counts::default();
        for d in 0..9 {
            for b in 0..3 {
                let x = cand[4 * d + b];
                c.three[b] |= c.two[b] & x;
                c.two[b] |= c.one[b] & x;
                c.one[b] |= x;
            }
        }
        c
    }

    #[inline(always)]
    fn stacks(cand: &mut [u32; 40], mut stale: u64) -> Option<u64> {
        let mut dirty = 0;
        while stale != 0 {
            let d = stale.trailing_zeros() as usize / 4;
            stale &= !(0xf << (4 * d));
            dirty |= State::stacks(cand, d)?;
        }
        Some(dirty)
    }

    #[inline(always)]
    fn triad_rule(cand: &mut [u32; 40]) -> Option<u64> {
        State::triad_rule::<Scalar>(cand)
    }

    #[inline(always)]
    fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)> {
        State::choose_config(cand)
    }

    #[inline(always)]
    fn clear_others(cand: &mut [u32; 40], d: usize, b: usize, cells: u32) -> u64 {
        let mut dirty = 0u64;
        for dd in 0..9 {
            let j = 4 * dd + b;
            let x = cand[j];
            let y = if dd == d { x } else { x & !cells };
            dirty |= ((x != y) as u64) << j;
            cand[j] = y;
        }
        dirty
    }
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
mod x86 {
    use super::wide;
    use super::*;
    use std::arch::x86_64::*;

    /// Combines two sets of bit-sliced counts (saturating at three).
    macro_rules! fold {
        ($or:ident, $and:ident, $a1:expr, $a2:expr, $a3:expr, $b1:expr, $b2:expr, $b3:expr) => {{
            let one = $or($a1, $b1);
            let two = $or($or($a2, $b2), $and($a1, $b1));
            let three = $or($or($a3, $b3), $or($and($a2, $b1), $and($a1, $b2)));
            (one, two, three)
        }};
    }

    /// Every word as a lane: AVX2 (8 lanes of 32 bits).
    pub(super) struct Avx2;

    impl Kernels for Avx2 {
        #[inline(always)]
        fn counts(cand: &[u32; 40]) -> Counts {
            // SAFETY: only reached from functions compiled with AVX2 enabled (see `search!`
            // below), which are only called after the processor was checked for it.
            unsafe {
                let p = cand.as_ptr() as *const __m256i;
                // Lanes 0-3 and 4-7 are two digits' bands; five loads cover 40 words
                // (the 36 used and 4 padding words, always zero).
                let (mut one, mut two, mut three) = (
                    _mm256_setzero_si256(),
                    _mm256_setzero_si256(),
                    _mm256_setzero_si256(),
                );
                for k in 0..5 {
                    let x = _mm256_loadu_si256(p.add(k));
                    three = _mm256_or_si256(three, _mm256_and_si256(two, x));
                    two = _mm256_or_si256(two, _mm256_and_si256(one, x));
                    one = _mm256_or_si256(one, x);
                }
                let lo = |v| _mm256_castsi256_si128(v);
                let hi = |v| _mm256_extracti128_si256::<1>(v);
                let (o, t, h) = fold!(
                    _mm_or_si128,
                    _mm_and_si128,
                    lo(one),
                    lo(two),
                    lo(three),
                    hi(one),
                    hi(two),
                    hi(three)
                );
                let mut c = Counts::default();
                _mm_storeu_si128(c.one.as_mut_ptr() as *mut __m128i, o);
                _mm_storeu_si128(c.two.as_mut_ptr() as *mut __m128i, t);
                _mm_storeu_si128(c.three.as_mut_ptr() as *mut __m128i, h);
                c
            }
        }

        #[inline(always)]
        fn clear_others(cand: &mut [u32; 40], d: usize, b: usize, cells: u32) -> u64 {
            Scalar::clear_others(cand, d, b, cells)
        }

        #[inline(always)]
        fn triads(a: u32) -> usize {
            // SAFETY: BMI2 is part of this path's features (see `Avx2::counts`).
            unsafe { _pext_u32(a | a >> 1 | a >> 2, 0x124_9249) as usize }
        }

        #[inline(always)]
        fn stacks(cand: &mut [u32; 40], _stale: u64) -> Option<u64> {
            // Every digit at once costs what one does.
            // SAFETY: as for `Avx2::counts`.
            unsafe { wide::stacks(cand) }
        }

        #[inline(always)]
        fn triad_rule(cand: &mut [u32; 40]) -> Option<u64> {
            // SAFETY: as for `Avx2::counts`.
            unsafe { wide::triad_rule(cand) }
        }

        #[inline(always)]
        fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)> {
            // SAFETY: as for `Avx2::counts`.
            unsafe { wide::choose_config(cand) }
        }
    }

    /// Every word as a lane: AVX-512 (16 lanes of 32 bits, mask registers).
    pub(super) struct Avx512;

    impl Kernels for Avx512 {
        #[inline(always)]
        fn counts(cand: &[u32; 40]) -> Counts {
            Avx2::counts(cand)
        }

        #[inline(always)]
        fn triads(a: u32) -> usize {
            Avx2::triads(a)
        }

        #[inline(always)]
        fn stacks(cand: &mut [u32; 40], stale: u64) -> Option<u64> {
            Avx2::stacks(cand, stale)
        }

        #[inline(always)]
        fn triad_rule(cand: &mut [u32; 40]) -> Option<u64> {
            Avx2::triad_rule(cand)
        }

        #[inline(always)]
        fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)> {
            Avx2::choose_config(cand)
        }

        #[inline(always)]
        fn clear_others(cand: &mut [u32; 40], d: usize, b: usize, cells: u32) -> u64 {
            // Lanes of band `b` (every fourth word from `b`), digit `d` left out.
            let lanes = (0x1_1111_1111u64 << b) & !(1u64 << (4 * d + b));
            // SAFETY: as for `Avx2::counts`, with AVX-512 F/VL/BW; the masked load and
            // store of the third vector touch only words 32..36, inside the array.
            unsafe {
                let p = cand.as_mut_ptr() as *mut i32;
                let c = _mm512_set1_epi32(cells as i32);
                let v0 = _mm512_loadu_si512(p as *const _);
                let v1 = _mm512_loadu_si512(p.add(16) as *const _);
                let v2 = _mm512_maskz_loadu_epi32(0xf, p.add(32));
                let k0 = _mm512_mask_test_epi32_mask(lanes as u16, v0, c);
                let k1 = _mm512_mask_test_epi32_mask((lanes >> 16) as u16, v1, c);
                let k2 = _mm512_mask_test_epi32_mask((lanes >> 32) as u16 & 0xf, v2, c);
                _mm512_mask_storeu_epi32(p, k0, _mm512_andnot_si512(c, v0));
                _mm512_mask_storeu_epi32(p.add(16), k1, _mm512_andnot_si512(c, v1));
                _mm512_mask_storeu_epi32(p.add(32), k2, _mm512_andnot_si512(c, v2));
                k0 as u64 | (k1 as u64) << 16 | (k2 as u64) << 32
            }
        }
    }

    search!(
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
        pub(super) fn node_avx2,
        Avx2
    );

    search!(
        #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw")]
        pub(super) fn node_avx512,
        Avx512
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triad_table_keeps_permutations_only() {
        // Every row may use every box: everything stays.
        assert_eq!(FEASIBLE[0x1ff], 0x1ff);
        // Row 0 only in box 0: rows 1 and 2 lose box 0.
        let t = 0b111_111_001;
        assert_eq!(FEASIBLE[t], 0b110_110_001);
        // Two rows confined to the same single box: nothing fits.
        assert_eq!(FEASIBLE[0b111_001_001], 0);
        assert_eq!(COMPLEX[0b111_001_001], 0);
        assert_eq!(COMPLEX[0x1ff], BAND);
    }

    #[test]
    fn exactly_three_forces_and_refuses() {
        // Nothing known: every digit may use every triad; nothing changes.
        assert_eq!(exactly_three(&[0x1ff; 9]), Some([0; 9]));
        // Triad 0 (row 0, box 0) is reachable by digits 0, 1, 2 only: each takes
        // it, losing the rest of row 0 and of box 0.
        let mut t = [0x1ff; 9];
        for x in &mut t[3..] {
            *x = 0x1fe;
        }
        let lose = exactly_three(&t).unwrap();
        for l in &lose[..3] {
            assert_eq!(*l, TRIAD_PEERS[0] as u32);
            assert_eq!(*l, 0b001_001_110);
        }
        assert!(lose[3..].iter().all(|&l| l == 0));
        // Digits 0, 1, 2 settled in triad 0 (their row 0 has no other triad):
        // digit 3 loses it.
        let mut t = [0x1ff; 9];
        for x in &mut t[..3] {
            *x = 0b110_110_001;
        }
        let lose = exactly_three(&t).unwrap();
        assert!(lose[..3].iter().all(|&l| l == 0));
        assert!(lose[3..].iter().all(|&l| l == 1));
        // Only two digits reach triad 0, or four are settled there: a contradiction.
        let mut t = [0x1fe; 9];
        t[0] = 0x1ff;
        t[1] = 0x1ff;
        assert_eq!(exactly_three(&t), None);
        let mut t = [0x1ff; 9];
        for x in &mut t[..4] {
            *x = 0b110_110_001;
        }
        assert_eq!(exactly_three(&t), None);
    }

    #[test]
    fn root_state_is_the_givens_placed_in_turn() {
        let check = |puzzle: &Grid| {
            let line = crate::format::write_line(
                puzzle,
                &crate::format::Alphabet::default_for(puzzle.geometry()),
            );
            let mut stepwise = State {
                cand: [0; 40],
                unsolved: [BAND, BAND, BAND, 0],
                rows: [BAND, BAND, BAND, 0],
            };
            for d in 0..9 {
                stepwise.cand[4 * d..4 * d + 3].fill(BAND);
            }
            let mut conflict = false;
            for (c, &v) in puzzle.cells().iter().enumerate() {
                if v != 0 {
                    let (d, b, p) = (v as usize - 1, c / 27, (c % 27) as u32);
                    conflict |= stepwise.cand[4 * d + b] & (1 << p) == 0;
                    stepwise.place::<Scalar>(d, b, p);
                }
            }
            match State::from_puzzle(puzzle) {
                None => assert!(conflict, "{line}"),
                Some((st, _)) => {
                    assert!(!conflict, "{line}");
                    assert_eq!(st.cand, stepwise.cand, "{line}");
                    assert_eq!(st.unsolved, stepwise.unsolved, "{line}");
                    assert_eq!(st.rows, stepwise.rows, "{line}");
                }
            }
        };
        let opts = crate::format::ReadOptions::default();
        let mut seen = 0;
        for set in crate::datasets::EMBEDDED {
            let ds = crate::format::read_str(set.name, set.text, &opts).unwrap();
            for p in ds.puzzles.iter().filter(|p| p.grid.geometry().side() == 9) {
                check(&p.grid);
                seen += 1;
            }
        }
        assert!(seen > 100, "{seen}");
        // Conflicts in a row, a column and a box, and the empty and full grids.
        let g = crate::format::test_grid;
        check(&g(&format!("11{}", ".".repeat(79))));
        check(&g(&format!("1{}1{}", ".".repeat(8), ".".repeat(71))));
        check(&g(&format!("1{}1{}", ".".repeat(9), ".".repeat(70))));
        check(&g(&".".repeat(81)));
        check(&g(
            "534678912672195348198342567859761423426913756713824691961537284287419635345286179",
        ));
    }

    /// A state's words with each cell kept at `percent` per cent (padding zero);
    /// `around` keeps a solution's cells as well, so that fewer states contradict.
    fn random_words(seed: u64, percent: u32, around: bool) -> [u32; 40] {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut cand = [0u32; 40];
        if around {
            let solution =
                b"534678912672195348198342567859761423426913756713824691961537284287419635345286179";
            for (c, v) in solution.iter().enumerate() {
                cand[4 * (v - b'1') as usize + c / 27] |= 1 << (c % 27);
            }
        }
        for d in 0..9 {
            for b in 0..3 {
                for p in 0..27 {
                    if rng.gen_range(0..100) < percent {
                        cand[4 * d + b] |= 1 << p;
                    }
                }
            }
        }
        cand
    }

    proptest::proptest! {
        /// The vector forms of the digit-wide rules change the same words to the
        /// same bits as the scalar forms and see the same contradictions, and the
        /// vector branch choice is the scalar one.
        #[test]
        fn wide_rules_agree_with_the_scalar_rules(
            seed in proptest::prelude::any::<u64>(),
            percent in 0u32..=100,
            around in proptest::prelude::any::<bool>(),
        ) {
            if !Isa::Avx2.supported() {
                return Ok(());
            }
            let start = random_words(seed, percent, around);
            let (mut s, mut v) = (start, start);
            let (ds, dv) = (Scalar::stacks(&mut s, ALL_WORDS), x86::Avx2::stacks(&mut v, ALL_WORDS));
            proptest::prop_assert_eq!(ds, dv);
            if ds.is_some() {
                proptest::prop_assert_eq!(s, v);
            }
            let (mut s, mut v) = (start, start);
            let (ds, dv) = (Scalar::triad_rule(&mut s), x86::Avx2::triad_rule(&mut v));
            proptest::prop_assert_eq!(ds, dv);
            if ds.is_some() {
                proptest::prop_assert_eq!(s, v);
            }
            proptest::prop_assert_eq!(
                Scalar::choose_config(&start),
                x86::Avx2::choose_config(&start)
            );
        }
    }

    #[test]
    fn keep_mask_clears_row_and_box_peers() {
        // Cell r0c0: its row and box go, the rest of the band stays.
        let k = KEEP[0];
        assert_eq!(k & 0x1ff, 1);
        assert_eq!(k >> 9 & 7, 0);
        assert_eq!(k >> 18 & 7, 0);
        assert_eq!((k >> 9 & 0x1ff).count_ones(), 6);
        assert_eq!(k.count_ones(), 1 + 6 + 6);
    }
}
