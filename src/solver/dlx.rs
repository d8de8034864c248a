//! Dancing Links (seed 001): Knuth's Algorithm X on a flat node array.
//!
//! Columns are the constraints the givens leave open (cell filled; row, column
//! and box has digit); options are the placements the givens do not exclude.
//! Nodes live in one vector addressed by index: entries `1..=C` are column
//! headers (entry 0 is the root of the list of live columns), then each
//! option's four nodes sit side by side, so an option's other nodes are found
//! by position instead of left/right links. `cover`, `uncover`, `hide` and
//! `unhide` follow Knuth (TAOCP 7.2.2.1, Algorithm X). The column chosen is the
//! one of smallest size (`dlx`) or the leftmost live one (`dlx-first-column`).

use super::{Control, Event, Reason, Solver, Tracer};
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
    /// Column header of an option node; the size of a header node.
    top: u32,
}

struct Matrix {
    nodes: Vec<Node>,
    /// Horizontal links of column headers (index 0 is the root).
    left: Vec<u32>,
    right: Vec<u32>,
    /// Index of the first option node.
    first: u32,
    /// Cell and digit of each option.
    options: Vec<(u16, u8)>,
}

impl Matrix {
    /// Builds the matrix for the puzzle, or `None` when the givens conflict.
    fn build(puzzle: &Grid) -> Option<Matrix> {
        let g = puzzle.geometry();
        let (n, b) = (g.side(), g.box_size());
        let cells = g.cells();
        // used[k*n + i] = digits present in unit i of kind k.
        let mut used = vec![0u32; 3 * n];
        for (c, &d) in puzzle.cells().iter().enumerate() {
            if d == 0 {
                continue;
            }
            let bit = 1 << (d - 1);
            let u = [g.row(c), n + g.col(c), 2 * n + g.boxed(c)];
            if u.iter().any(|&i| used[i] & bit != 0) {
                return None;
            }
            u.iter().for_each(|&i| used[i] |= bit);
        }
        // Map the 4·n² constraints to compact column numbers 1..=C for the open ones.
        let mut column_of = vec![0u32; 4 * cells];
        let mut count = 0u32;
        for (k, slot) in column_of.iter_mut().enumerate() {
            let open = if k < cells {
                puzzle.get(k) == 0
            } else {
                let (kind, rest) = ((k - cells) / cells, (k - cells) % cells);
                used[kind * n + rest / n] & (1 << (rest % n)) == 0
            };
            if open {
                count += 1;
                *slot = count;
            }
        }
        let c = count as usize;
        let mut nodes = vec![Node::default(); c + 1];
        for (i, node) in nodes.iter_mut().enumerate() {
            node.up = i as u32;
            node.down = i as u32;
            node.top = 0;
        }
        let left = (0..=c)
            .map(|i| if i == 0 { c as u32 } else { i as u32 - 1 })
            .collect();
        let right = (0..=c)
            .map(|i| if i == c { 0 } else { i as u32 + 1 })
            .collect();
        let first = (c + 1) as u32;
        let mut options = Vec::new();
        for cell in 0..cells {
            if puzzle.get(cell) != 0 {
                continue;
            }
            let (r, col) = (g.row(cell), g.col(cell));
            let bx = (r / b) * b + col / b;
            let free = !(used[r] | used[n + col] | used[2 * n + bx]);
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
                }
                options.push((cell as u16, d as u8 + 1));
            }
        }
        Some(Matrix {
            nodes,
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

    #[inline(always)]
    fn hide(&mut self, p: u32) {
        for q in self.others(p) {
            let Node { up, down, top } = self.nodes[q as usize];
            self.nodes[up as usize].down = down;
            self.nodes[down as usize].up = up;
            self.nodes[top as usize].top -= 1;
        }
    }

    #[inline(always)]
    fn unhide(&mut self, p: u32) {
        let o = self.others(p);
        for q in [o[2], o[1], o[0]] {
            let Node { up, down, top } = self.nodes[q as usize];
            self.nodes[up as usize].down = q;
            self.nodes[down as usize].up = q;
            self.nodes[top as usize].top += 1;
        }
    }

    fn cover(&mut self, i: u32) {
        let mut p = self.nodes[i as usize].down;
        while p != i {
            self.hide(p);
            p = self.nodes[p as usize].down;
        }
        let (l, r) = (self.left[i as usize], self.right[i as usize]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
    }

    fn uncover(&mut self, i: u32) {
        let (l, r) = (self.left[i as usize], self.right[i as usize]);
        self.right[l as usize] = i;
        self.left[r as usize] = i;
        let mut p = self.nodes[i as usize].up;
        while p != i {
            self.unhide(p);
            p = self.nodes[p as usize].up;
        }
    }

    fn choose(&self, rule: ColumnRule) -> u32 {
        let first = self.right[0];
        if rule == ColumnRule::First {
            return first;
        }
        let (mut best, mut best_len) = (first, u32::MAX);
        let mut i = first;
        while i != 0 {
            let len = self.nodes[i as usize].top;
            if len < best_len {
                best = i;
                best_len = len;
                if len <= 1 {
                    break;
                }
            }
            i = self.right[i as usize];
        }
        best
    }
}

struct Search<'m> {
    m: &'m mut Matrix,
    rule: ColumnRule,
    chosen: Vec<u32>,
    base: &'m Grid,
}

impl Solver for Dlx {
    fn search<T: Tracer>(&self, puzzle: &Grid, ctl: &mut Control<'_, T>) {
        let Some(mut m) = Matrix::build(puzzle) else {
            ctl.node();
            return;
        };
        let mut s = Search {
            m: &mut m,
            rule: self.rule,
            chosen: Vec::with_capacity(puzzle.geometry().cells()),
            base: puzzle,
        };
        s.run(puzzle.geometry(), ctl);
    }
}

impl Search<'_> {
    fn run<T: Tracer>(&mut self, g: Geometry, ctl: &mut Control<'_, T>) {
        if !ctl.node() {
            return;
        }
        let depth = self.chosen.len();
        if self.m.right[0] == 0 {
            let (m, chosen, base) = (&*self.m, &self.chosen, self.base);
            ctl.solution(|| {
                let mut grid = base.clone();
                for &x in chosen {
                    let (cell, d) = m.options[((x - m.first) / 4) as usize];
                    grid.set(cell as usize, d);
                }
                grid
            });
            let _ = g;
            return;
        }
        let i = self.m.choose(self.rule);
        let size = self.m.nodes[i as usize].top;
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
                });
            }
            return;
        }
        self.m.cover(i);
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
                self.m.cover(top);
            }
            self.chosen.push(x);
            self.run(g, ctl);
            self.chosen.pop();
            let o = self.m.others(x);
            for p in [o[2], o[1], o[0]] {
                let top = self.m.nodes[p as usize].top;
                self.m.uncover(top);
            }
            if ctl.stopped() {
                break;
            }
            x = self.m.nodes[x as usize].down;
        }
        self.m.uncover(i);
        if T::ENABLED && !ctl.stopped() {
            ctl.tracer.event(Event::Backtrack {
                depth: depth.saturating_sub(1),
            });
        }
    }
}
