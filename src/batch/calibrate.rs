//! `solve`'s 9×9 engine when none is named: `band` and `box` timed on the
//! input's own first puzzles, on this machine, and the faster one kept.
//!
//! The two engines give the same answers; which is faster depends on the
//! machine (shuffle throughput, AVX-512) and on the puzzles (`box` does less
//! work a guess, `band` less a puzzle that needs none). So the first chunk's
//! first puzzles are solved by each, in turns (band, box, box, band), each
//! pass timed on the thread's CPU clock, and the one with the smaller total
//! solves everything. An untimed pass of `band` first picks the puzzles: up
//! to [`PUZZLES`], or as many as [`PASS`] of CPU time takes (at least
//! [`FEWEST`]); it reads the clock after each puzzle (a system call, some
//! 0.2 µs), which the timed passes do not. A few milliseconds in all. Fewer than
//! [`FEWEST`] puzzles, a node budget or a time limit (which count the
//! engines' work differently) keep `band`.

use super::BatchOptions;
use crate::format::Puzzle;
use crate::solver::{Limits, Solver, SolverId};
use std::time::Duration;
use sudoku_solvers::clock::thread_cpu;

/// Puzzles each engine is timed on, at most.
pub const PUZZLES: usize = 64;

/// A first chunk with fewer puzzles keeps `band`; a pass takes at least
/// this many.
pub const FEWEST: usize = 4;

/// The untimed first pass stops taking puzzles once it has spent this.
pub const PASS: Duration = Duration::from_millis(2);

/// What the timing measured: each engine's CPU time over the same puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// `band`'s two passes.
    pub band: Duration,
    /// `box`'s two passes.
    pub boxes: Duration,
    /// Puzzles in each pass.
    pub puzzles: usize,
}

impl Timing {
    /// The engine the timing chose: `box` only when strictly faster.
    pub fn winner(&self) -> SolverId {
        match self.boxes < self.band {
            true => SolverId::Box,
            false => SolverId::Band,
        }
    }

    /// The `note:` line `solve` writes to the log, for the input `name`.
    pub fn note(&self, name: &str) -> String {
        let each = |d: Duration| d.as_secs_f64() * 1e6 / (2 * self.puzzles) as f64;
        format!(
            "note: {name}: 9x9 engine {} (timed on the first {} puzzles, in turns: band {:.1} µs, box {:.1} µs a puzzle)",
            self.winner(),
            self.puzzles,
            each(self.band),
            each(self.boxes)
        )
    }
}

/// Times `band` and `box` on the first puzzles of `chunk` (9×9), up to [`PUZZLES`],
/// or `None` when the options or the chunk leave `band` without a timing.
pub fn time_engines(opts: &BatchOptions, chunk: &[Puzzle]) -> Option<Timing> {
    if opts.node_budget.is_some() || opts.time_limit.is_some() || chunk.len() < FEWEST {
        return None;
    }
    let limits = Limits::new(opts.mode);
    let solve = |s: SolverId, p: &Puzzle| std::hint::black_box(s.solve(&p.grid, &limits));
    let pass = |s: SolverId, puzzles: &[Puzzle]| {
        let start = thread_cpu();
        puzzles.iter().for_each(|p| drop(solve(s, p)));
        thread_cpu().saturating_sub(start)
    };
    // An untimed pass picks how many puzzles the timed ones take.
    let start = thread_cpu();
    let mut n = 0;
    for p in chunk.iter().take(PUZZLES) {
        drop(solve(SolverId::Band, p));
        n += 1;
        if n >= FEWEST && thread_cpu().saturating_sub(start) >= PASS {
            break;
        }
    }
    let puzzles = &chunk[..n];
    let mut t = Timing {
        band: pass(SolverId::Band, puzzles),
        boxes: Duration::ZERO,
        puzzles: n,
    };
    t.boxes += pass(SolverId::Box, puzzles);
    t.boxes += pass(SolverId::Box, puzzles);
    t.band += pass(SolverId::Band, puzzles);
    Some(t)
}
