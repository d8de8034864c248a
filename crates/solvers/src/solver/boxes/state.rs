//! `box`'s search state and its propagation: nine box vectors, one lane a digit.
//!
//! Every rule here is written lane by lane over `[u16; 16]`: the portable
//! path runs them as they are (the compiler vectorizes some), and `x86`
//! writes the same rules in AVX2 instructions, held to these by the tests.

use super::super::band::tables::{CONFIGS, PERMUTATIONS};
use crate::grid::{Geometry, Grid};

/// One box: lane `d` (0..9) holds digit `d`'s candidate cells of the box as a
/// 9-bit mask (bit `3r + c` for row `r`, column `c` of the box); lanes 9..16
/// are always zero.
pub(super) type Lanes = [u16; 16];

/// All nine cells of a box.
pub(super) const ALL: u16 = 0x1ff;

/// Lanes that hold a digit, as all-ones (the other seven are padding).
const LIVE: Lanes = {
    let mut l = [0u16; 16];
    let mut i = 0;
    while i < 9 {
        l[i] = 0xffff;
        i += 1;
    }
    l
};

/// The search state: every box's candidates, 288 bytes copied at each guess.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(super) struct State {
    /// Box `b` (row-major, 0..9) as its digits' cell masks.
    pub(super) boxes: [Lanes; 9],
    /// Per band (0..3) and stack (3..6): its triads when its rule last ran
    /// (all ones before it first does). Triads as they were mean nothing to do.
    pub(super) lines: [Lanes; 6],
}

// The x86-64 copy moves the state as 15 vectors of 32 bytes.
const _: () = assert!(std::mem::size_of::<State>() == 15 * 32);

/// What a propagation found wrong: the search turns back.
pub(super) struct Dead;

/// The rules, one implementation a path: [`Portable`] is the lane code of
/// [`State`] itself; the x86-64 paths write the same rules in vector
/// instructions and must reach the same state (the tests hold them to it).
pub(super) trait Rules {
    /// [`State::box_rule`].
    fn box_rule(st: &mut State, b: usize) -> Result<bool, Dead>;
    /// [`State::line_rule`].
    fn line_rule(st: &mut State, k: usize, stack: bool) -> Result<u32, Dead>;
    /// [`State::triad_rule`].
    fn triad_rule(st: &mut State, b: usize) -> Result<bool, Dead>;
    /// [`State::choose_config`].
    fn choose(st: &State) -> Option<(usize, usize, u16)> {
        st.choose_config()
    }
    /// A copy of the state, for a child node.
    fn copy(st: &State) -> State {
        *st
    }
}

/// The rules as [`State`] writes them, lane by lane.
pub(super) struct Portable;

impl Rules for Portable {
    #[inline(always)]
    fn box_rule(st: &mut State, b: usize) -> Result<bool, Dead> {
        st.box_rule(b)
    }
    #[inline(always)]
    fn line_rule(st: &mut State, k: usize, stack: bool) -> Result<u32, Dead> {
        st.line_rule(k, stack)
    }
    #[inline(always)]
    fn triad_rule(st: &mut State, b: usize) -> Result<bool, Dead> {
        st.triad_rule(b)
    }
}

/// The lanes `$e` gives for each lane index `$i`, as a plain loop (no
/// closure: it inlines into each path and vectorizes there).
macro_rules! map {
    (|$i:ident| $e:expr) => {{
        let mut o = [0u16; 16];
        for $i in 0..16 {
            o[$i] = $e;
        }
        o
    }};
}

/// Lane `i` takes lane `i ^ S`: one step of a butterfly over the 16 lanes.
#[inline(always)]
fn swap<const S: usize>(a: &Lanes) -> Lanes {
    map!(|i| a[i ^ S])
}

/// The sum of all lanes, in every lane's place (lanes add without carries
/// between their nibbles: each is at most 9).
#[inline(always)]
fn sum(a: Lanes) -> u16 {
    let a = map!(|i| a[i] + a[i ^ 8]);
    let a = map!(|i| a[i] + a[i ^ 4]);
    let a = map!(|i| a[i] + a[i ^ 2]);
    let a = map!(|i| a[i] + a[i ^ 1]);
    a[0]
}

/// Any bit set in any lane.
#[inline(always)]
fn any(a: &Lanes) -> bool {
    a.iter().fold(0, |x, &y| x | y) != 0
}

/// One butterfly step of two bit-sliced counts (at least one, at least two).
#[inline(always)]
fn fold<const S: usize>(one: &mut Lanes, two: &mut Lanes) {
    let (o, t) = (swap::<S>(one), swap::<S>(two));
    *two = map!(|i| two[i] | t[i] | (one[i] & o[i]));
    *one = map!(|i| one[i] | o[i]);
}

/// For each lane of a 9-bit triad pattern (bit `3r + k`: row `r` may use
/// column `k`), the triads that lie on a permutation inside it: triad
/// `(r, k)` stays when the other two rows can take the other two columns.
#[inline(always)]
fn closure(t: &Lanes) -> Lanes {
    map!(|i| {
        let x = t[i];
        let c1 = col1(x);
        let c2 = col1(c1);
        x & ((row1(c1) & row2(c2)) | (row1(c2) & row2(c1)))
    })
}

/// Column `k` of a triad pattern reads column `k + 1` (mod 3).
#[inline(always)]
fn col1(x: u16) -> u16 {
    ((x >> 1) & 0o333) | ((x << 2) & 0o444)
}

/// Row `r` of a triad pattern reads row `r + 1` (mod 3).
#[inline(always)]
fn row1(x: u16) -> u16 {
    ((x >> 3) | (x << 6)) & ALL
}

/// Row `r` of a triad pattern reads row `r + 2` (mod 3).
#[inline(always)]
fn row2(x: u16) -> u16 {
    ((x >> 6) | (x << 3)) & ALL
}

/// `x` when it has at most one bit, else 0.
#[inline(always)]
fn lone(x: u16) -> u16 {
    if x & x.wrapping_sub(1) == 0 {
        x
    } else {
        0
    }
}

/// Bits 0, `step` and `2 step` of `x` moved to 0, 4 and 8: three counters a lane.
#[inline(always)]
fn spread<const STEP: u32>(x: u16) -> u16 {
    (x & 1) | (x >> STEP & 1) << 4 | (x >> (2 * STEP) & 1) << 8
}

/// A box's rows with a candidate, as bits 0, 3 and 6.
#[inline(always)]
fn rows_of(m: u16) -> u16 {
    (m | m >> 1 | m >> 2) & 0o111
}

/// A box's columns with a candidate, as bits 0, 1 and 2.
#[inline(always)]
fn columns_of(m: u16) -> u16 {
    (m | m >> 3 | m >> 6) & 7
}

impl State {
    /// Every candidate open: an empty grid before propagation.
    pub(super) const OPEN: State = State {
        lines: [[u16::MAX; 16]; 6],
        boxes: [{
            let mut l = [0u16; 16];
            let mut i = 0;
            while i < 9 {
                l[i] = ALL;
                i += 1;
            }
            l
        }; 9],
    };

    /// The givens and, for a pencilmark puzzle, the marks of its open cells,
    /// written into the boxes alone: the first propagation clears their peers.
    pub(super) fn set(&mut self, puzzle: &Grid) {
        // Per box: the given cells, and each digit's given cell.
        let mut given = [0u16; 9];
        let mut placed = [[0u16; 9]; 9];
        puzzle.each_given(|c, v| {
            let (b, p) = BOX_OF[c];
            given[b as usize] |= 1 << p;
            placed[b as usize][v as usize - 1] |= 1 << p;
            true
        });
        for (b, lanes) in self.boxes.iter_mut().enumerate() {
            for (lane, &at) in lanes[..9].iter_mut().zip(&placed[b]) {
                *lane = if at != 0 { at } else { ALL & !given[b] };
            }
        }
        if let Some(marks) = puzzle.marks() {
            // An open cell loses the digits its marks exclude.
            for (c, &m) in marks.iter().enumerate() {
                let (b, p) = BOX_OF[c];
                if given[b as usize] >> p & 1 == 0 {
                    for (d, lane) in self.boxes[b as usize][..9].iter_mut().enumerate() {
                        *lane &= !(((!m >> d) as u16 & 1) << p);
                    }
                }
            }
        }
    }

    /// Singles inside box `b`. A digit left one cell holds it, and every other
    /// digit leaves that cell (hidden single of the box); a cell left one digit
    /// takes it (naked single). True when the box changed.
    #[inline(always)]
    pub(super) fn box_rule(&mut self, b: usize) -> Result<bool, Dead> {
        let start = self.boxes[b];
        // One pass clears the cells of the digits single when it began, so it
        // is repeated while it leaves more digits single.
        while self.box_pass(b)? {}
        Ok(any(&map!(|i| self.boxes[b][i] ^ start[i])))
    }

    /// One pass of [`State::box_rule`]: true when more digits are single after it.
    #[inline(always)]
    fn box_pass(&mut self, b: usize) -> Result<bool, Dead> {
        let m = self.boxes[b];
        let single = map!(|i| lone(m[i]));
        // Per cell: at least one digit, at least two; and the same for single digits.
        let (mut one, mut two) = (m, [0u16; 16]);
        let (mut s1, mut s2) = (single, [0u16; 16]);
        fold::<8>(&mut one, &mut two);
        fold::<8>(&mut s1, &mut s2);
        fold::<4>(&mut one, &mut two);
        fold::<4>(&mut s1, &mut s2);
        fold::<2>(&mut one, &mut two);
        fold::<2>(&mut s1, &mut s2);
        fold::<1>(&mut one, &mut two);
        fold::<1>(&mut s1, &mut s2);
        // Every lane now holds the whole box's counts.
        if one[0] != ALL || s2[0] != 0 {
            return Err(Dead); // a cell without a digit, or two digits in one cell
        }
        let (taken, only) = (s1[0], one[0] & !two[0]);
        let mut bad = [0u16; 16];
        let mut next = [0u16; 16];
        for i in 0..16 {
            let kept = if single[i] != 0 { m[i] } else { m[i] & !taken };
            let naked = kept & only;
            next[i] = if naked != 0 { naked } else { kept };
            // A digit with no cell, or with two cells that only it can fill.
            bad[i] = (((next[i] == 0) as u16).wrapping_neg() & LIVE[i])
                | (naked & naked.wrapping_sub(1));
        }
        if any(&bad) {
            return Err(Dead);
        }
        self.boxes[b] = next;
        let before = single.iter().filter(|&&x| x != 0).count();
        Ok(next.iter().filter(|&&x| lone(x) != 0).count() > before)
    }

    /// The exactly-three rule on box `b`'s row and column triads (tdoku's
    /// cardinality rule): a triad's three cells hold three digits, so a triad
    /// only three digits can reach takes all three, one with three digits
    /// settled in it refuses the rest, and fewer than three, or more than
    /// three settled, is a contradiction. True when the box changed.
    #[inline(always)]
    pub(super) fn triad_rule(&mut self, b: usize) -> Result<bool, Dead> {
        let m = self.boxes[b];
        // Per lane: the triads it reaches and those it is settled in, one
        // nibble a triad (rows in one word, columns in another), summed across lanes.
        let rr = sum(map!(|i| spread::<3>(rows_of(m[i]))));
        let cc = sum(map!(|i| spread::<1>(columns_of(m[i]))));
        let rs = sum(map!(|i| spread::<3>(lone(rows_of(m[i])))));
        let cs = sum(map!(|i| spread::<1>(lone(columns_of(m[i])))));
        // Triads reached by exactly three digits (force) or settled by three
        // (refuse), as row bits 0, 3, 6 and column bits 0, 1, 2.
        let (mut force_r, mut force_c, mut refuse_r, mut refuse_c) = (0u16, 0u16, 0u16, 0u16);
        for t in 0..3 {
            let (nr, sr) = (rr >> (4 * t) & 15, rs >> (4 * t) & 15);
            let (nc, sc) = (cc >> (4 * t) & 15, cs >> (4 * t) & 15);
            if nr < 3 || sr > 3 || nc < 3 || sc > 3 {
                return Err(Dead);
            }
            force_r |= ((nr == 3) as u16) << (3 * t);
            refuse_r |= ((sr == 3) as u16) << (3 * t);
            force_c |= ((nc == 3) as u16) << t;
            refuse_c |= ((sc == 3) as u16) << t;
        }
        if force_r | force_c | refuse_r | refuse_c == 0 {
            return Ok(false);
        }
        let next = map!(|i| {
            let (r, c) = (rows_of(m[i]), columns_of(m[i]));
            // A digit reaching a forced triad keeps only it (two: none).
            let (fr, fc) = (r & force_r, c & force_c);
            let keep_r = if fr == 0 { ALL } else { lone(fr) * 7 };
            let keep_c = if fc == 0 { ALL } else { lone(fc) * 0o111 };
            // A digit not settled in a full triad leaves it.
            let lose = ((refuse_r & !lone(r)) * 7) | ((refuse_c & !lone(c)) * 0o111);
            m[i] & keep_r & keep_c & !lose
        });
        let changed = any(&map!(|i| next[i] ^ m[i]));
        self.boxes[b] = next;
        Ok(changed)
    }

    /// The triads of digit lanes over three boxes `bx` of a band (rows) or a
    /// stack (columns): bit `3r + k` when line `r` has a candidate in box `k`
    /// (band), or bit `3k + c` when box `k` has one in column `c` (stack).
    #[inline(always)]
    pub(super) fn triads(&self, bx: [usize; 3], stack: bool) -> Lanes {
        let [x0, x1, x2] = bx.map(|b| &self.boxes[b]);
        map!(|i| match stack {
            false => rows_of(x0[i]) | rows_of(x1[i]) << 1 | rows_of(x2[i]) << 2,
            true => columns_of(x0[i]) | columns_of(x1[i]) << 3 | columns_of(x2[i]) << 6,
        })
    }

    /// Each digit once per row and once per box of band `k` (`stack` false), or
    /// once per column and box of stack `k`: its triads must hold a permutation,
    /// which is pointing, claiming and the peers of a placed digit in one step.
    /// Returns the boxes changed (bit per box).
    #[inline(always)]
    pub(super) fn line_rule(&mut self, k: usize, stack: bool) -> Result<u32, Dead> {
        let bx = match stack {
            false => [3 * k, 3 * k + 1, 3 * k + 2],
            true => [k, k + 3, k + 6],
        };
        let t = self.triads(bx, stack);
        let line = 3 * stack as usize + k;
        if t == self.lines[line] {
            return Ok(0);
        }
        let fit = closure(&t);
        if any(&map!(|i| ((fit[i] == 0) as u16).wrapping_neg() & LIVE[i])) {
            return Err(Dead);
        }
        // The triads the boxes keep below are exactly those that fit.
        self.lines[line] = fit;
        let mut changed = 0;
        for (j, &b) in bx.iter().enumerate() {
            let m = self.boxes[b];
            let next = map!(|i| match stack {
                false => {
                    let r = (fit[i] >> j) & 0o111;
                    m[i] & (r | r << 1 | r << 2)
                }
                true => {
                    let c = (fit[i] >> (3 * j)) & 7;
                    m[i] & (c | c << 3 | c << 6)
                }
            });
            if any(&map!(|i| next[i] ^ m[i])) {
                changed |= 1 << b;
                self.boxes[b] = next;
            }
        }
        Ok(changed)
    }

    /// Runs the rules until nothing changes, starting from the boxes `dirty`
    /// changed. Bands and stacks look again only at boxes changed since they last did.
    #[inline(always)]
    pub(super) fn propagate<R: Rules>(&mut self, dirty: u32) -> Result<(), Dead> {
        // Boxes changed since each rule last looked at them. (Looking closer,
        // at whether a box's rows or columns changed, cost more than the
        // rules it saved; so did running naked singles less often than
        // hidden ones.)
        let (mut boxes, mut bands, mut stacks, mut triads) = (dirty, dirty, dirty, dirty);
        loop {
            while boxes != 0 {
                let b = boxes.trailing_zeros() as usize;
                boxes &= boxes - 1;
                if R::box_rule(self, b)? {
                    bands |= 1 << b;
                    stacks |= 1 << b;
                    triads |= 1 << b;
                }
            }
            for k in 0..3 {
                if bands & (7 << (3 * k)) != 0 {
                    let c = R::line_rule(self, k, false)?;
                    boxes |= c;
                    stacks |= c;
                    triads |= c;
                }
            }
            bands = 0;
            for k in 0..3 {
                if stacks & (0o111 << k) != 0 {
                    let c = R::line_rule(self, k, true)?;
                    boxes |= c;
                    bands |= c;
                    triads |= c;
                }
            }
            stacks = 0;
            if boxes != 0 || bands != 0 {
                continue;
            }
            // Everything else is at its fixpoint: the triad rule, least often.
            let mut again = 0;
            while triads != 0 {
                let b = triads.trailing_zeros() as usize;
                triads &= triads - 1;
                if R::triad_rule(self, b)? {
                    again |= 1 << b;
                }
            }
            if again == 0 {
                return Ok(());
            }
            (boxes, bands, stacks, triads) = (again, again, again, again);
        }
    }

    /// True when every digit has one cell in every box (after propagation:
    /// a solution).
    #[inline(always)]
    pub(super) fn solved(&self) -> bool {
        let mut more = 0;
        for m in &self.boxes {
            for x in m {
                more |= x & x.wrapping_sub(1);
            }
        }
        more == 0
    }

    /// The branch of tdoku's heuristic: in the band with the fewest triad
    /// configurations over its unsettled digits, that digit with the fewest.
    /// Returns (band, digit, its triads), or `None` when every digit is settled.
    /// Read after propagation, when each band's triads are those its rule last
    /// saw ([`State::lines`]).
    #[inline(always)]
    pub(super) fn choose_config(&self) -> Option<(usize, usize, u16)> {
        let mut best = None;
        let mut best_total = u32::MAX;
        for (k, t) in self.lines[..3].iter().enumerate() {
            let (mut total, mut pick) = (0, None::<(usize, u32)>);
            for (d, &x) in t[..9].iter().enumerate() {
                let n = CONFIGS[x as usize] as u32;
                if n > 1 {
                    total += n;
                    if pick.is_none_or(|(_, m)| n < m) {
                        pick = Some((d, n));
                    }
                }
            }
            if let Some((d, _)) = pick {
                if total < best_total {
                    best_total = total;
                    best = Some((k, d, t[d]));
                }
            }
        }
        best
    }

    /// Confines digit `d` of band `k` to the permutation `p` of its triads.
    #[inline(always)]
    pub(super) fn confine(&mut self, k: usize, d: usize, p: u32) {
        for j in 0..3 {
            let r = (p >> j) as u16 & 0o111;
            self.boxes[3 * k + j][d] &= r | r << 1 | r << 2;
        }
    }

    /// The candidate digits of a cell, as bit `d`.
    pub(super) fn digits(&self, cell: usize) -> u16 {
        let (b, p) = box_of(cell);
        let mut m = 0;
        for (d, lane) in self.boxes[b][..9].iter().enumerate() {
            m |= (lane >> p & 1) << d;
        }
        m
    }

    /// The cell to branch on when every digit's configuration is settled: the
    /// first open cell (row-major) with two candidates, else with the fewest.
    pub(super) fn choose_cell(&self) -> usize {
        let mut best = (usize::MAX, u32::MAX);
        for c in 0..81 {
            let n = self.digits(c).count_ones();
            if n > 1 && n < best.1 {
                best = (c, n);
                if n == 2 {
                    break;
                }
            }
        }
        best.0
    }

    /// Places digit `d` in `cell` (a candidate there) within its box; the next
    /// propagation clears its peers.
    pub(super) fn place(&mut self, cell: usize, d: usize) -> u32 {
        let (b, p) = box_of(cell);
        for (e, lane) in self.boxes[b][..9].iter_mut().enumerate() {
            *lane &= if e == d { 1 << p } else { !(1 << p) };
        }
        1 << b
    }

    /// The solved grid.
    pub(super) fn grid(&self) -> Grid {
        let mut cells = [0u8; 81];
        for (b, m) in self.boxes.iter().enumerate() {
            for (d, &x) in m[..9].iter().enumerate() {
                cells[CELL_OF[b][x.trailing_zeros() as usize & 15] as usize] = d as u8 + 1;
            }
        }
        Grid::from_cells(Geometry::new(3).expect("9x9"), &cells).expect("81 cells")
    }
}

/// The box of a row-major cell and its place there (bit `3r + c`).
pub(super) fn box_of(cell: usize) -> (usize, usize) {
    let (b, p) = BOX_OF[cell];
    (b as usize, p as usize)
}

/// The row-major cell at place `p` of box `b`.
pub(super) fn cell_of(b: usize, p: usize) -> usize {
    CELL_OF[b][p] as usize
}

/// [`box_of`] for every cell.
const BOX_OF: [(u8, u8); 81] = {
    let mut t = [(0, 0); 81];
    let mut c = 0;
    while c < 81 {
        let (r, col) = (c / 9, c % 9);
        t[c] = ((r / 3 * 3 + col / 3) as u8, (r % 3 * 3 + col % 3) as u8);
        c += 1;
    }
    t
};

/// [`cell_of`] for every box and place (places 9..16 map to cell 0: a lane
/// read past its last bit, which a solved state never has).
const CELL_OF: [[u8; 16]; 9] = {
    let mut t = [[0; 16]; 9];
    let mut b = 0;
    while b < 9 {
        let mut p = 0;
        while p < 9 {
            t[b][p] = ((b / 3 * 3 + p / 3) * 9 + b % 3 * 3 + p % 3) as u8;
            p += 1;
        }
        b += 1;
    }
    t
};

/// The permutations that fit a 9-bit triad pattern, in table order.
pub(super) fn permutations(t: u16) -> impl Iterator<Item = u32> {
    PERMUTATIONS.into_iter().filter(move |&p| t as u32 & p == p)
}
