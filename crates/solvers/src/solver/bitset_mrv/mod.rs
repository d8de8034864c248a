//! Bitset MRV (the state-compression article's state compression; the basic-methods article's singles).
//!
//! `bitset-mrv-plain` keeps one occupancy bitset per row, column and box and
//! branches on the empty cell with the fewest candidates, exactly as the state-compression article.
//! The other variants keep a candidate bitset per cell, eliminate a placed
//! digit from the cell's peers, and before each branch repeatedly fill naked
//! singles (`bitset-mrv-naked`, the basic-methods article), naked and hidden singles
//! (`bitset-mrv`), or those plus locked candidates (`bitset-mrv-locked`).
//! The seed forms branch on the first cell with fewest candidates; the two
//! with hidden singles break the tie between two-candidate cells by how many
//! peers share a candidate with the cell. Boards are copied onto a heap stack
//! at each guess, as the basic-methods article saves its state. The code is monomorphised per
//! grid size. On 9×9, with AVX2, the two engines with hidden singles run as
//! [`rows`]: the same rules over the whole board in vector lanes, reaching the
//! same fixpoint at every node, so the search is the scalar one node for node.

use super::tables::Tables;
use super::{Control, Event, Isa, Reason, Solver, Tracer, Why};
use crate::grid::{Geometry, Grid};

mod plain;
#[cfg(target_arch = "x86_64")]
mod rows;
mod words;

use words::{Digits, Units};

/// Which singles are filled before branching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Singles {
    /// None: MRV branching only (the state-compression article).
    None,
    /// Cells with one candidate left (the basic-methods article).
    Naked,
    /// Naked singles and digits with one place left in a unit.
    NakedAndHidden,
    /// Naked and hidden singles, then locked candidates (pointing and claiming).
    NakedHiddenLocked,
}

/// Bitset MRV solver.
#[derive(Clone, Copy, Debug)]
pub struct BitsetMrv {
    /// Which singles are filled before branching.
    pub singles: Singles,
    /// The instruction-set path on 9×9 with hidden singles (`Auto`: AVX2 where
    /// present); every other case, and every traced search, runs the portable code.
    pub isa: Isa,
}

impl BitsetMrv {
    /// This singles variant on the best path the processor has.
    pub const fn new(singles: Singles) -> BitsetMrv {
        BitsetMrv {
            singles,
            isa: Isa::Auto,
        }
    }

    /// True when this search runs on the AVX2 rows engine.
    #[cfg(target_arch = "x86_64")]
    fn vector<T: Tracer>(&self, g: Geometry) -> bool {
        !T::ENABLED
            && g.box_size() == 3
            && matches!(
                self.singles,
                Singles::NakedAndHidden | Singles::NakedHiddenLocked
            )
            && !matches!(self.isa.resolve(), Isa::Portable)
            && Isa::Avx2.supported()
    }
}

impl Solver for BitsetMrv {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        let g = puzzle.geometry();
        #[cfg(target_arch = "x86_64")]
        if self.vector::<T>(g) {
            let locked = self.singles == Singles::NakedHiddenLocked;
            // SAFETY: `vector` checked that the processor has AVX2, BMI1/2 and POPCNT.
            unsafe { rows::solve(puzzle, locked, ctl) };
            return;
        }
        match (self.singles, g.box_size()) {
            (Singles::None, _) => plain::solve(puzzle, ctl),
            (s, 2) => run::<T, u32, u128, 4, 16>(puzzle, s, ctl),
            (s, 3) => run::<T, u32, u128, 9, 81>(puzzle, s, ctl),
            (s, 4) => run::<T, u32, u128, 16, 256>(puzzle, s, ctl),
            (s, 5) => run::<T, u32, u128, 25, 625>(puzzle, s, ctl),
            (s, 6) => run::<T, u64, u128, 36, 1296>(puzzle, s, ctl),
            (s, 7) => run::<T, u64, [u64; 3], 49, 2401>(puzzle, s, ctl),
            (s, _) => run::<T, u64, [u64; 3], 64, 4096>(puzzle, s, ctl),
        }
    }
}

fn run<T: Tracer, M: Digits, U: Units, const N: usize, const NN: usize>(
    puzzle: &Grid,
    singles: Singles,
    ctl: &mut Control<'_, T>,
) {
    match singles {
        Singles::NakedHiddenLocked => Engine::<M, U, N, NN, true, true>::solve(puzzle, None, ctl),
        Singles::NakedAndHidden => Engine::<M, U, N, NN, true, false>::solve(puzzle, None, ctl),
        _ => Engine::<M, U, N, NN, false, false>::solve(puzzle, None, ctl),
    }
}

/// Searches `puzzle` with `exclude = (cell, digit)` struck from an empty
/// cell's candidates (naked and hidden singles engine).
pub(crate) fn search_excluding<T: Tracer>(
    puzzle: &Grid,
    exclude: Option<(usize, u8)>,
    ctl: &mut Control<'_, T>,
) {
    match puzzle.geometry().box_size() {
        2 => Engine::<u32, u128, 4, 16, true, false>::solve(puzzle, exclude, ctl),
        3 => Engine::<u32, u128, 9, 81, true, false>::solve(puzzle, exclude, ctl),
        4 => Engine::<u32, u128, 16, 256, true, false>::solve(puzzle, exclude, ctl),
        5 => Engine::<u32, u128, 25, 625, true, false>::solve(puzzle, exclude, ctl),
        6 => Engine::<u64, u128, 36, 1296, true, false>::solve(puzzle, exclude, ctl),
        7 => Engine::<u64, [u64; 3], 49, 2401, true, false>::solve(puzzle, exclude, ctl),
        _ => Engine::<u64, [u64; 3], 64, 4096, true, false>::solve(puzzle, exclude, ctl),
    }
}

#[derive(Clone, Copy)]
struct Board<M, const N: usize, const NN: usize> {
    /// Candidates of unsolved cells; 0 for solved cells.
    cand: [M; NN],
    /// Placed digits; 0 for unsolved cells.
    value: [u8; NN],
    /// Digits placed per row, column and box.
    used: [[M; N]; 3],
    unsolved: u32,
}

/// A two-candidate cell sharing a candidate with this many peers is branched on at once.
pub(crate) const SCORE_STOP: u32 = 10;

struct Engine<'t, M, U, const N: usize, const NN: usize, const HIDDEN: bool, const LOCKED: bool> {
    t: &'t Tables,
    work: Pending<U>,
    boards: Vec<Board<M, N, NN>>,
}

/// Work left for propagation: cells that became singles, units that changed.
struct Pending<U> {
    queue: Vec<u16>,
    /// Units (`row`, `n + col`, `2n + box`) to scan for hidden singles.
    dirty: U,
}

impl<
        't,
        M: Digits,
        U: Units,
        const N: usize,
        const NN: usize,
        const HIDDEN: bool,
        const LOCKED: bool,
    > Engine<'t, M, U, N, NN, HIDDEN, LOCKED>
{
    /// Box side.
    const BS: usize = match N {
        4 => 2,
        9 => 3,
        16 => 4,
        25 => 5,
        36 => 6,
        49 => 7,
        _ => 8,
    };
    /// Peers per cell.
    const PEERS: usize = 3 * N - 2 * Self::BS - 1;

    /// Solves `puzzle`, with `exclude = (cell, digit)` struck from an empty cell's candidates.
    fn solve<T: Tracer>(puzzle: &Grid, exclude: Option<(usize, u8)>, ctl: &mut Control<'_, T>) {
        let Some(root) = Self::root(puzzle, exclude) else {
            ctl.node(); // the givens leave a dead end
            return;
        };
        let t = Tables::get(puzzle.geometry());
        debug_assert_eq!((t.n, t.peer_count), (N, Self::PEERS));
        let mut e = Engine::<M, U, N, NN, HIDDEN, LOCKED> {
            t,
            work: Pending {
                queue: Vec::with_capacity(NN),
                dirty: U::all(3 * N), // every unit, once
            },
            boards: Vec::with_capacity(16),
        };
        e.boards.push(root);
        e.search(0, puzzle.geometry(), ctl);
    }

    /// The board the givens and pencilmarks leave (before any single), with
    /// `exclude` struck; `None` when two givens conflict, a given's digit is
    /// excluded, or an empty cell is left no digit.
    fn root(puzzle: &Grid, exclude: Option<(usize, u8)>) -> Option<Board<M, N, NN>> {
        let t = Tables::get(puzzle.geometry());
        let full = M::full(N);
        let mut root = Board {
            cand: [full; NN],
            value: [0; NN],
            used: [[M::ZERO; N]; 3],
            unsolved: NN as u32,
        };
        // The root in two sweeps (the same board as placing each given in turn,
        // without touching every given's peers): the givens' digits per unit,
        // then each empty cell's candidates from its three units.
        for (c, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                continue;
            }
            let bit = M::bit(d);
            let [r, col, bx] = t.rcb[c];
            let u = &mut root.used;
            if (u[0][r as usize] | u[1][col as usize] | u[2][bx as usize]) & bit != M::ZERO {
                return None; // conflicting givens
            }
            u[0][r as usize] |= bit;
            u[1][col as usize] |= bit;
            u[2][bx as usize] |= bit;
            root.cand[c] = M::ZERO;
            root.value[c] = d;
            root.unsolved -= 1;
        }
        if puzzle.marks_refuse_a_given() {
            return None;
        }
        let marks = puzzle.marks();
        for c in 0..NN {
            if root.value[c] == 0 {
                let [r, col, bx] = t.rcb[c];
                let u = &root.used;
                let mut cand = full & !(u[0][r as usize] | u[1][col as usize] | u[2][bx as usize]);
                if let Some(m) = marks {
                    cand &= M::from_mask(m[c]);
                }
                if cand == M::ZERO {
                    return None; // an empty cell the givens leave no digit
                }
                root.cand[c] = cand;
            }
        }
        if let Some((c, d)) = exclude {
            if puzzle.get(c) == 0 {
                root.cand[c] &= !M::bit(d);
            }
        }
        Some(root)
    }

    /// Peers of cell `c`: `Tables::peers_of` with a constant count, so loops over them unroll.
    #[inline(always)]
    fn peers(t: &Tables, c: usize) -> &[u16] {
        &t.peers[c * Self::PEERS..c * Self::PEERS + Self::PEERS]
    }

    /// Places `d` in cell `c`, eliminating it from the peers. False on a contradiction.
    #[inline(always)]
    fn place(
        t: &Tables,
        work: &mut Pending<U>,
        b: &mut Board<M, N, NN>,
        c: usize,
        d: u8,
        queue_singles: bool,
    ) -> bool {
        let bit = M::bit(d);
        if b.cand[c] & bit == M::ZERO {
            return false;
        }
        b.cand[c] = M::ZERO;
        b.value[c] = d;
        b.unsolved -= 1;
        let [r, col, bx] = t.rcb[c];
        b.used[0][r as usize] |= bit;
        b.used[1][col as usize] |= bit;
        b.used[2][bx as usize] |= bit;
        if HIDDEN {
            work.dirty.add_cell(t, c);
        }
        let mut ok = true;
        for &p in Self::peers(t, c) {
            let p = p as usize;
            let m = b.cand[p];
            if m & bit != M::ZERO {
                let m = m & !bit;
                b.cand[p] = m;
                ok &= m != M::ZERO;
                if HIDDEN {
                    work.dirty.add_cell(t, p);
                }
                if queue_singles && m.rest() == M::ZERO {
                    work.queue.push(p as u16);
                }
            }
        }
        ok
    }

    /// Places a digit that a single forces, telling the tracer why. False on a contradiction.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn place_single<T: Tracer>(
        t: &Tables,
        work: &mut Pending<U>,
        b: &mut Board<M, N, NN>,
        c: usize,
        d: u8,
        reason: Reason,
        depth: usize,
        ctl: &mut Control<'_, T>,
    ) -> bool {
        if T::ENABLED {
            ctl.tracer.event(Event::Place {
                depth,
                cell: c,
                digit: d,
                reason,
            });
        }
        Self::place(t, work, b, c, d, true)
    }

    /// Fills singles until none is left. False on a contradiction.
    fn propagate<T: Tracer>(&mut self, depth: usize, ctl: &mut Control<'_, T>) -> bool {
        let (t, work, b) = (self.t, &mut self.work, &mut self.boards[depth]);
        Self::propagate_board(t, work, b, depth, ctl)
    }

    fn propagate_board<T: Tracer>(
        t: &Tables,
        work: &mut Pending<U>,
        b: &mut Board<M, N, NN>,
        depth: usize,
        ctl: &mut Control<'_, T>,
    ) -> bool {
        loop {
            while let Some(p) = work.queue.pop() {
                let p = p as usize;
                if b.value[p] != 0 {
                    continue;
                }
                let m = b.cand[p];
                if m == M::ZERO {
                    return false;
                }
                let d = m.first();
                if !Self::place_single(t, work, b, p, d, Reason::NakedSingle, depth, ctl) {
                    return false;
                }
            }
            if !HIDDEN || b.unsolved == 0 {
                return true;
            }
            // One changed unit at a time, naked singles first after each.
            let Some(u) = work.dirty.pop() else {
                if LOCKED {
                    match Self::locked_candidates(t, work, b) {
                        None => return false,
                        Some(true) => continue,
                        Some(false) => {}
                    }
                }
                return true;
            };
            if !Self::hidden_singles(t, work, b, u, depth, ctl) {
                return false;
            }
        }
    }

    /// Removes `mask` from cell `c`'s candidates. False on a contradiction.
    #[inline(always)]
    fn eliminate(
        t: &Tables,
        work: &mut Pending<U>,
        b: &mut Board<M, N, NN>,
        c: usize,
        mask: M,
    ) -> bool {
        let m = b.cand[c];
        if m & mask == M::ZERO {
            return true;
        }
        let m = m & !mask;
        b.cand[c] = m;
        work.dirty.add_cell(t, c);
        if m.rest() == M::ZERO {
            work.queue.push(c as u16);
        }
        m != M::ZERO
    }

    /// Locked candidates on a snapshot of the row and column segments (a row or
    /// column inside one box): a digit confined to one segment of a box leaves
    /// the rest of that line (pointing), and a digit confined to one segment of
    /// a line leaves the rest of that box (claiming). `None` on a contradiction,
    /// else whether anything was eliminated.
    fn locked_candidates(
        t: &Tables,
        work: &mut Pending<U>,
        b: &mut Board<M, N, NN>,
    ) -> Option<bool> {
        const MAXB: usize = crate::grid::MAX_BOX;
        let bs = Self::BS;
        // Segment masks: rseg[r][k] = row r inside box column k; cseg[c][k] = column c inside box row k.
        let mut rseg = [[M::ZERO; MAXB]; N];
        let mut cseg = [[M::ZERO; MAXB]; N];
        for (r, segs) in rseg.iter_mut().enumerate() {
            for (k, seg) in segs[..bs].iter_mut().enumerate() {
                *seg = (0..bs).fold(M::ZERO, |m, j| m | b.cand[r * N + k * bs + j]);
            }
        }
        for (c, segs) in cseg.iter_mut().enumerate() {
            for (k, seg) in segs[..bs].iter_mut().enumerate() {
                *seg = (0..bs).fold(M::ZERO, |m, j| m | b.cand[(k * bs + j) * N + c]);
            }
        }
        let before = work.dirty;
        let mut ok = true;
        for across in [false, true] {
            let lines = if across { &cseg } else { &rseg };
            let cell = |l: usize, k: usize| if across { k * N + l } else { l * N + k };
            for band in 0..bs {
                for line in band * bs..band * bs + bs {
                    for seg in 0..bs {
                        let m = lines[line][seg];
                        if m == M::ZERO {
                            continue;
                        }
                        // Same box, other lines; same line, other boxes.
                        let mut other_lines = M::ZERO;
                        let mut other_segs = M::ZERO;
                        for j in 0..bs {
                            if band * bs + j != line {
                                other_lines |= lines[band * bs + j][seg];
                            }
                            if j != seg {
                                other_segs |= lines[line][j];
                            }
                        }
                        let pointing = m & !other_lines & other_segs;
                        if pointing != M::ZERO {
                            for k in 0..N {
                                if k / bs != seg {
                                    ok &= Self::eliminate(t, work, b, cell(line, k), pointing);
                                }
                            }
                        }
                        let claiming = m & !other_segs & other_lines;
                        if claiming != M::ZERO {
                            for l2 in band * bs..band * bs + bs {
                                if l2 != line {
                                    for k in seg * bs..seg * bs + bs {
                                        ok &= Self::eliminate(t, work, b, cell(l2, k), claiming);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        ok.then_some(work.dirty != before || !work.queue.is_empty())
    }

    /// Scans unit `u`: every missing digit must have a place; a digit with one place is placed.
    fn hidden_singles<T: Tracer>(
        t: &Tables,
        work: &mut Pending<U>,
        b: &mut Board<M, N, NN>,
        u: usize,
        depth: usize,
        ctl: &mut Control<'_, T>,
    ) -> bool {
        let cells = &t.units[u * N..u * N + N];
        let (mut once, mut twice) = (M::ZERO, M::ZERO);
        for &c in cells {
            let m = b.cand[c as usize];
            twice |= once & m;
            once |= m;
        }
        let need = M::full(N) & !b.used[u / N][u % N];
        if once & need != need {
            return false;
        }
        let mut hidden = once & !twice & need;
        while hidden != M::ZERO {
            let bit = hidden.lowest();
            hidden ^= bit;
            let Some(c) = cells
                .iter()
                .map(|&c| c as usize)
                .find(|&c| b.cand[c] & bit != M::ZERO)
            else {
                return false; // an earlier placement in this unit took the digit's only place
            };
            let d = bit.first();
            if !Self::place_single(t, work, b, c, d, Reason::HiddenSingle, depth, ctl) {
                return false;
            }
        }
        true
    }

    /// The cell to branch on and its candidate count. Propagation leaves every
    /// open cell two candidates or more, so a cell with two is a fewest-candidates
    /// cell (found without counting bits). The seed's form takes the first such
    /// cell in row-major order; with hidden singles, the one sharing a candidate
    /// with the most peers (deciding it removes the most candidates), stopping
    /// at the first that shares one with `SCORE_STOP` peers.
    #[inline(always)]
    fn choose(&self, depth: usize) -> (usize, u32) {
        let b = &self.boards[depth];
        let (mut best, mut best_score) = (usize::MAX, 0);
        for c in 0..NN {
            let m = b.cand[c];
            let rest = m.rest();
            if rest == M::ZERO || rest.rest() != M::ZERO {
                continue; // solved (0), or three candidates or more
            }
            if !HIDDEN {
                return (c, 2);
            }
            let mut score = 0;
            for &p in Self::peers(self.t, c) {
                score += u32::from(b.cand[p as usize] & m != M::ZERO);
            }
            if score > best_score || best == usize::MAX {
                (best, best_score) = (c, score);
                if score >= SCORE_STOP {
                    break;
                }
            }
        }
        if best != usize::MAX {
            return (best, 2);
        }
        // No cell with two: the first with fewest.
        let (mut best, mut best_count) = (0, u32::MAX);
        for c in 0..NN {
            if b.value[c] == 0 {
                let k = b.cand[c].count();
                if k < best_count {
                    (best, best_count) = (c, k);
                }
            }
        }
        (best, best_count)
    }

    fn search<T: Tracer>(&mut self, depth: usize, g: Geometry, ctl: &mut Control<'_, T>) {
        if !ctl.node() {
            return;
        }
        if depth == 0 {
            // Singles and dead cells left by the givens.
            let b = &self.boards[0];
            for c in 0..NN {
                let m = b.cand[c];
                if b.value[c] == 0 && m.rest() == M::ZERO {
                    self.work.queue.push(c as u16);
                }
            }
        }
        if !self.propagate(depth, ctl) {
            self.work.queue.clear();
            self.work.dirty = U::none();
            if T::ENABLED {
                let b = &self.boards[depth];
                ctl.tracer.event(Event::Backtrack {
                    depth: depth.saturating_sub(1),
                    why: super::trace::dead_end(g, |c| b.value[c], |c| b.cand[c].to_mask()),
                });
            }
            return;
        }
        let b = &self.boards[depth];
        if b.unsolved == 0 {
            ctl.solution(|| Grid::from_cells(g, &b.value).expect("complete grid"));
            return;
        }
        let (best, best_count) = self.choose(depth);
        ctl.branch(best_count);
        if T::ENABLED {
            ctl.tracer.event(Event::Branch {
                depth,
                cell: Some(best),
                options: best_count,
            });
        }
        if self.boards.len() <= depth + 1 {
            // In place: a board of a large grid (12 KB at 36×36, 38 KB at
            // 64×64) copied through the stack at every level of a deep search
            // would overflow a worker's stack.
            self.boards.extend_from_within(depth..=depth);
        }
        let mut m = self.boards[depth].cand[best];
        while m != M::ZERO {
            let bit = m.lowest();
            m ^= bit;
            let d = bit.first();
            if T::ENABLED {
                ctl.tracer.event(Event::Place {
                    depth,
                    cell: best,
                    digit: d,
                    reason: Reason::Guess,
                });
            }
            // A slice copy is a memcpy in place (an assignment may go through the stack).
            let (done, next) = self.boards.split_at_mut(depth + 1);
            next[..1].copy_from_slice(&done[depth..]);
            if Self::place(
                self.t,
                &mut self.work,
                &mut self.boards[depth + 1],
                best,
                d,
                true,
            ) {
                self.search(depth + 1, g, ctl);
            } else {
                self.work.queue.clear();
                self.work.dirty = U::none();
            }
            if ctl.stopped() {
                return;
            }
        }
        if T::ENABLED && depth > 0 {
            ctl.tracer.event(Event::Backtrack {
                depth: depth - 1,
                why: Why::Tried { cell: Some(best) },
            });
        }
    }
}
