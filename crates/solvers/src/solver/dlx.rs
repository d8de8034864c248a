//! Dancing Links (the dancing-links article): Knuth's Algorithm X on a flat node array.
//!
//! Columns are the constraints the givens leave open (cell filled; row, column
//! and box has digit); options are the placements the givens (and a
//! pencilmark puzzle's marks) do not exclude.
//! Nodes live in one vector addressed by index: entries `1..=C` are column
//! headers (entry 0 is the root of the list of live columns), then each
//! option's four nodes sit side by side, so an option's other nodes are found
//! by position instead of left/right links. `cover`, `uncover`, `hide` and
//! `unhide` follow Knuth (TAOCP 7.2.2.1, Algorithm X). Column sizes live in a
//! dense array of keys (size, then column number; covered columns marked), so
//! choosing the column of smallest size (`dlx`) is one vectorised minimum
//! instead of a walk along the live list; `dlx-first-column` takes the
//! leftmost live column.

use super::{Control, Event, Reason, Solver, Tracer, Why};
use crate::grid::{Geometry, Grid};

/// How Algorithm X picks the column to branch on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnRule {
    /// The live column with the fewest options (Knuth's MRV).
    Smallest,
    /// The leftmost live column.
    First,
}

/// Dancing links solver.
#[derive(Clone, Copy, Debug)]
pub struct Dlx {
    /// Column choice rule.
    pub rule: ColumnRule,
}

#[derive(Clone, Copy, Default)]
struct Node {
    up: u32,
    down: u32,
    /// Column header of an option node; the size of a header node (kept
    /// for `dlx-first-column`, which has no keys).
    top: u32,
}

/// Bit of a covered column's key.
const COVERED: u32 = 1 << 31;
/// One unit of size in a key (the column number is below it).
const SIZE: u32 = 1 << 16;

struct Matrix {
    nodes: Vec<Node>,
    /// Per column: `size * SIZE + column`, plus `COVERED` once covered; the
    /// root's key (index 0) is never the smallest.
    key: Vec<u32>,
    /// Horizontal links of column headers (index 0 is the root).
    left: Vec<u32>,
    right: Vec<u32>,
    /// Index of the first option node.
    first: u32,
    /// Cell and digit of each option.
    options: Vec<(u16, u8)>,
}

/// `used[k*n + i]`: the digits given in unit `i` of kind `k` (rows, columns,
/// boxes); `None` when two givens of a unit clash.
fn units_used(puzzle: &Grid, rcb: &[[u16; 3]]) -> Option<Vec<u64>> {
    let n = puzzle.geometry().side();
    let mut used = vec![0u64; 3 * n];
    for (c, &d) in puzzle.cells().iter().enumerate() {
        if d == 0 {
            continue;
        }
        let bit = 1u64 << (d - 1);
        let [r, col, bx] = rcb[c];
        let u = [r as usize, n + col as usize, 2 * n + bx as usize];
        if u.iter().any(|&i| used[i] & bit != 0) {
            return None;
        }
        u.iter().for_each(|&i| used[i] |= bit);
    }
    Some(used)
}

/// The 4·n² constraints mapped to compact column numbers 1..=C for the open
/// ones, 0 for the met (constraint k: cell k, then unit-digit k - cells as
/// kind, unit, digit); and C.
fn open_columns(puzzle: &Grid, used: &[u64]) -> (Vec<u32>, u32) {
    let g = puzzle.geometry();
    let (n, cells) = (g.side(), g.cells());
    let mut column_of = vec![0u32; 4 * cells];
    let mut count = 0u32;
    for (slot, &d) in column_of.iter_mut().zip(puzzle.cells()) {
        if d == 0 {
            count += 1;
            *slot = count;
        }
    }
    for (unit, slots) in column_of[cells..].chunks_exact_mut(n).enumerate() {
        for (d, slot) in slots.iter_mut().enumerate() {
            if used[unit] & (1 << d) == 0 {
                count += 1;
                *slot = count;
            }
        }
    }
    (column_of, count)
}

impl Matrix {
    /// Builds the matrix for the puzzle, or `None` when the givens conflict
    /// (or a given is excluded by its own pencilmarks).
    fn build(puzzle: &Grid) -> Option<Matrix> {
        if puzzle.marks_refuse_a_given() {
            return None;
        }
        let g = puzzle.geometry();
        let n = g.side();
        let cells = g.cells();
        // Row, column and box of each cell, without a division.
        let rcb = &super::tables::Tables::get(g).rcb;
        let used = units_used(puzzle, rcb)?;
        let (column_of, count) = open_columns(puzzle, &used);
        let c = count as usize;
        // Each open cell's options, counted first so the node array is made once.
        let free_of = |cell: usize| {
            let [r, col, bx] = rcb[cell].map(|x| x as usize);
            !(used[r] | used[n + col] | used[2 * n + bx]) & puzzle.allowed(cell)
        };
        let total: usize = (0..cells)
            .filter(|&cell| puzzle.get(cell) == 0)
            .map(|cell| free_of(cell).count_ones() as usize)
            .sum();
        let mut nodes = Vec::with_capacity(c + 1 + 4 * total);
        nodes.resize(c + 1, Node::default());
        for (i, node) in nodes.iter_mut().enumerate() {
            node.up = i as u32;
            node.down = i as u32;
        }
        // At most 4·4096 columns (64×64): the column number fits below `SIZE`.
        debug_assert!(c < SIZE as usize);
        let mut key: Vec<u32> = (0..=c as u32).collect();
        key[0] = u32::MAX;
        let left = (0..=c)
            .map(|i| if i == 0 { c as u32 } else { i as u32 - 1 })
            .collect();
        let right = (0..=c)
            .map(|i| if i == c { 0 } else { i as u32 + 1 })
            .collect();
        let first = (c + 1) as u32;
        let mut options = Vec::with_capacity(total);
        for cell in 0..cells {
            if puzzle.get(cell) != 0 {
                continue;
            }
            let [r, col, bx] = rcb[cell].map(|x| x as usize);
            let free = free_of(cell);
            for d in 0..n {
                if free & (1 << d) == 0 {
                    continue;
                }
                let cols = [
                    column_of[cell],
                    column_of[cells + r * n + d],
                    column_of[2 * cells + col * n + d],
                    column_of[3 * cells + bx * n + d],
                ];
                for col_header in cols {
                    let x = nodes.len() as u32;
                    let h = col_header as usize;
                    let last = nodes[h].up;
                    nodes.push(Node {
                        up: last,
                        down: col_header,
                        top: col_header,
                    });
                    nodes[last as usize].down = x;
                    nodes[h].up = x;
                    nodes[h].top += 1;
                    key[h] += SIZE;
                }
                options.push((cell as u16, d as u8 + 1));
            }
        }
        // Exclusions that leave a constraint no option: no solution, found at
        // the root (the leftmost-column rule would otherwise reach it late).
        if puzzle.is_pencilmark() && nodes[1..=c].iter().any(|h| h.top == 0) {
            return None;
        }
        Some(Matrix {
            nodes,
            key,
            left,
            right,
            first,
            options,
        })
    }

    /// The other nodes of `x`'s option, in cyclic order after `x`.
    #[inline(always)]
    fn others(&self, x: u32) -> [u32; 3] {
        let base = x - (x - self.first) % 4;
        let o = x - base;
        [base + (o + 1) % 4, base + (o + 2) % 4, base + (o + 3) % 4]
    }

    // `KEYS`: sizes are kept in `key` (smallest column first), else in the
    // header nodes (leftmost column first, which never looks at other sizes).

    #[inline(always)]
    fn hide<const KEYS: bool>(&mut self, p: u32) {
        for q in self.others(p) {
            let Node { up, down, top } = self.nodes[q as usize];
            self.nodes[up as usize].down = down;
            self.nodes[down as usize].up = up;
            if KEYS {
                self.key[top as usize] -= SIZE;
            } else {
                self.nodes[top as usize].top -= 1;
            }
        }
    }

    #[inline(always)]
    fn unhide<const KEYS: bool>(&mut self, p: u32) {
        let o = self.others(p);
        for q in [o[2], o[1], o[0]] {
            let Node { up, down, top } = self.nodes[q as usize];
            self.nodes[up as usize].down = q;
            self.nodes[down as usize].up = q;
            if KEYS {
                self.key[top as usize] += SIZE;
            } else {
                self.nodes[top as usize].top += 1;
            }
        }
    }

    fn cover<const KEYS: bool>(&mut self, i: u32) {
        let mut p = self.nodes[i as usize].down;
        while p != i {
            self.hide::<KEYS>(p);
            p = self.nodes[p as usize].down;
        }
        let (l, r) = (self.left[i as usize], self.right[i as usize]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
        if KEYS {
            self.key[i as usize] |= COVERED;
        }
    }

    fn uncover<const KEYS: bool>(&mut self, i: u32) {
        if KEYS {
            self.key[i as usize] &= !COVERED;
        }
        let (l, r) = (self.left[i as usize], self.right[i as usize]);
        self.right[l as usize] = i;
        self.left[r as usize] = i;
        let mut p = self.nodes[i as usize].up;
        while p != i {
            self.unhide::<KEYS>(p);
            p = self.nodes[p as usize].up;
        }
    }

    /// The size of column `i`.
    #[inline(always)]
    fn size<const KEYS: bool>(&self, i: u32) -> u32 {
        if KEYS {
            (self.key[i as usize] & !COVERED) / SIZE
        } else {
            self.nodes[i as usize].top
        }
    }

    /// The column to branch on (some column is live): with keys the smallest
    /// (the smallest size, then the leftmost), else the leftmost.
    fn choose<const KEYS: bool>(&self) -> u32 {
        if KEYS {
            smallest_key(&self.key) % SIZE
        } else {
            self.right[0]
        }
    }
}

/// The smallest of `keys`, vectorised with AVX2 where the processor has it.
fn smallest_key(keys: &[u32]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        #[target_feature(enable = "avx2")]
        fn avx2(keys: &[u32]) -> u32 {
            keys.iter().copied().fold(u32::MAX, u32::min)
        }
        // SAFETY: the processor has AVX2 (checked just above).
        return unsafe { avx2(keys) };
    }
    keys.iter().copied().fold(u32::MAX, u32::min)
}

/// What column `column` of the matrix built for `puzzle` stands for, as a
/// dead end (it has no option left): an open cell with no candidate, or a
/// digit with no place in a unit. Counts the open constraints in
/// [`Matrix::build`]'s order; only tracing calls it.
fn constraint_left(puzzle: &Grid, column: u32) -> Why {
    let g = puzzle.geometry();
    let (n, cells) = (g.side(), g.cells());
    let mut used = vec![0u64; 3 * n];
    for unit in crate::grid::Unit::ALL {
        for index in 0..n {
            let k = match unit {
                crate::grid::Unit::Row => 0,
                crate::grid::Unit::Column => 1,
                crate::grid::Unit::Box => 2,
            };
            for c in g.unit_cells(unit, index) {
                if let d @ 1.. = puzzle.get(c) {
                    used[k * n + index] |= 1 << (d - 1);
                }
            }
        }
    }
    let mut count = 0u32;
    for cell in (0..cells).filter(|&c| puzzle.get(c) == 0) {
        count += 1;
        if count == column {
            return Why::NoCandidate { cell };
        }
    }
    for (slot, mask) in used.iter().enumerate() {
        for d in 0..n {
            if mask & (1 << d) == 0 {
                count += 1;
                if count == column {
                    return Why::NoPlace {
                        digit: d as u8 + 1,
                        unit: crate::grid::Unit::ALL[slot / n],
                        index: slot % n,
                    };
                }
            }
        }
    }
    Why::Uncoverable
}

/// The search; `KEYS` for the smallest-column rule.
struct Search<'m, const KEYS: bool> {
    m: &'m mut Matrix,
    chosen: Vec<u32>,
    base: &'m Grid,
}

impl Solver for Dlx {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        let Some(mut m) = Matrix::build(puzzle) else {
            ctl.node();
            return;
        };
        let chosen = Vec::with_capacity(puzzle.geometry().cells());
        let g = puzzle.geometry();
        match self.rule {
            ColumnRule::Smallest => Search::<true> {
                m: &mut m,
                chosen,
                base: puzzle,
            }
            .run(g, ctl),
            ColumnRule::First => Search::<false> {
                m: &mut m,
                chosen,
                base: puzzle,
            }
            .run(g, ctl),
        }
    }
}

impl<const KEYS: bool> Search<'_, KEYS> {
    fn run<T: Tracer>(&mut self, g: Geometry, ctl: &mut Control<'_, T>) {
        if !ctl.node() {
            return;
        }
        let depth = self.chosen.len();
        if self.m.right[0] == 0 {
            let (m, chosen, base) = (&*self.m, &self.chosen, self.base);
            ctl.solution(|| {
                let mut grid = base.without_marks();
                for &x in chosen {
                    let (cell, d) = m.options[((x - m.first) / 4) as usize];
                    grid.set(cell as usize, d);
                }
                grid
            });
            let _ = g;
            return;
        }
        let i = self.m.choose::<KEYS>();
        let size = self.m.size::<KEYS>(i);
        ctl.branch(size);
        if T::ENABLED {
            ctl.tracer.event(Event::Branch {
                depth,
                cell: None,
                options: size,
            });
        }
        if size == 0 {
            if T::ENABLED {
                ctl.tracer.event(Event::Backtrack {
                    depth: depth.saturating_sub(1),
                    why: constraint_left(self.base, i),
                });
            }
            return;
        }
        self.m.cover::<KEYS>(i);
        let mut x = self.m.nodes[i as usize].down;
        while x != i {
            if T::ENABLED {
                let (cell, digit) = self.m.options[((x - self.m.first) / 4) as usize];
                let reason = if size > 1 {
                    Reason::Guess
                } else {
                    Reason::Forced
                };
                ctl.tracer.event(Event::Place {
                    depth,
                    cell: cell as usize,
                    digit,
                    reason,
                });
            }
            for p in self.m.others(x) {
                let top = self.m.nodes[p as usize].top;
                self.m.cover::<KEYS>(top);
            }
            self.chosen.push(x);
            self.run(g, ctl);
            self.chosen.pop();
            let o = self.m.others(x);
            for p in [o[2], o[1], o[0]] {
                let top = self.m.nodes[p as usize].top;
                self.m.uncover::<KEYS>(top);
            }
            if ctl.stopped() {
                break;
            }
            x = self.m.nodes[x as usize].down;
        }
        self.m.uncover::<KEYS>(i);
        if T::ENABLED && !ctl.stopped() && depth > 0 {
            ctl.tracer.event(Event::Backtrack {
                depth: depth - 1,
                why: Why::Tried { cell: None },
            });
        }
    }
}
