//! A sudoku-bench contender in Rust: a small solver behind the line protocol,
//! with no dependencies, to copy as the adapter for a solver of your own.
//!
//! Race it against the built-in strategies:
//!
//! ```text
//! cargo build --release --example rust-contender
//! sudoku-bench bench --contender rust=target/release/examples/rust-contender --solver bitset-mrv
//! ```
//!
//! Protocol (docs/contenders.md): a puzzle per line on stdin, an answer line per
//! puzzle on stdout (`STATUS [SOLUTION] [key=value ...]`), flushed; the mode is
//! in `SUDOKU_BENCH_MODE`. The solver: candidate bitmasks, naked singles, and
//! branching on the cell with fewest candidates.

use std::io::{BufRead, Write};
use std::time::Instant;

/// Peers of every cell of one grid size.
struct Geometry {
    side: usize,
    symbols: Vec<u8>,
    peers: Vec<Vec<u16>>,
}

impl Geometry {
    fn new(side: usize) -> Option<Geometry> {
        let boxed = (1..=5).find(|b| b * b == side)?;
        let symbols: Vec<u8> = if side == 25 {
            (b'A'..).take(25).collect()
        } else {
            (b'1'..=b'9').chain(b'A'..=b'P').take(side).collect()
        };
        let peers = (0..side * side)
            .map(|cell| {
                let (r, c) = (cell / side, cell % side);
                let (br, bc) = (r - r % boxed, c - c % boxed);
                let mut ps: Vec<u16> = (0..side * side)
                    .filter(|&o| {
                        let (or, oc) = (o / side, o % side);
                        o != cell
                            && (or == r
                                || oc == c
                                || (or - or % boxed == br && oc - oc % boxed == bc))
                    })
                    .map(|o| o as u16)
                    .collect();
                ps.sort_unstable();
                ps
            })
            .collect();
        Some(Geometry {
            side,
            symbols,
            peers,
        })
    }

    fn digit(&self, c: u8) -> Option<u32> {
        let up = c.to_ascii_uppercase();
        self.symbols.iter().position(|&s| s == up).map(|i| i as u32)
    }
}

struct Search<'a> {
    g: &'a Geometry,
    limit: u64,
    count: u64,
    first: Option<Vec<u32>>,
    nodes: u64,
    guesses: u64,
}

impl Search<'_> {
    /// Places `bit` in `cell` and removes it from the peers, following naked singles.
    fn assign(
        &self,
        cand: &mut [u32],
        cell: usize,
        bit: u32,
        stack: &mut Vec<(usize, u32)>,
    ) -> bool {
        stack.clear();
        stack.push((cell, bit));
        while let Some((cell, bit)) = stack.pop() {
            if cand[cell] & bit == 0 {
                return false;
            }
            cand[cell] = bit;
            for &p in &self.g.peers[cell] {
                let p = p as usize;
                let m = cand[p];
                if m & bit != 0 {
                    let m = m & !bit;
                    if m == 0 {
                        return false;
                    }
                    cand[p] = m;
                    if m & (m - 1) == 0 {
                        stack.push((p, m));
                    }
                }
            }
        }
        true
    }

    /// Depth-first search; true once `limit` solutions are found.
    fn solve(&mut self, cand: &[u32], stack: &mut Vec<(usize, u32)>) -> bool {
        self.nodes += 1;
        let mut best = None;
        let mut fewest = u32::MAX;
        for (cell, &m) in cand.iter().enumerate() {
            let k = m.count_ones();
            if k > 1 && k < fewest {
                best = Some(cell);
                fewest = k;
                if k == 2 {
                    break;
                }
            }
        }
        let Some(cell) = best else {
            self.count += 1;
            if self.first.is_none() {
                self.first = Some(cand.iter().map(|m| m.trailing_zeros()).collect());
            }
            return self.count >= self.limit;
        };
        self.guesses += 1;
        let mut m = cand[cell];
        while m != 0 {
            let bit = m & m.wrapping_neg();
            m &= m - 1;
            let mut trial = cand.to_vec();
            if self.assign(&mut trial, cell, bit, stack) && self.solve(&trial, stack) {
                return true;
            }
        }
        false
    }
}

fn answer(line: &str, mode: &str, limit: u64, sizes: &mut Vec<Geometry>, out: &mut String) {
    let text = line.trim().as_bytes();
    let side = (1..=25).find(|s| s * s == text.len()).unwrap_or(0);
    if !sizes.iter().any(|g| g.side == side) {
        match Geometry::new(side) {
            Some(g) => sizes.push(g),
            None => {
                out.push_str("none");
                return;
            }
        }
    }
    let g = sizes.iter().find(|g| g.side == side).expect("added above");
    let started = Instant::now();
    let mut search = Search {
        g,
        limit,
        count: 0,
        first: None,
        nodes: 0,
        guesses: 0,
    };
    let full = if side == 32 {
        u32::MAX
    } else {
        (1u32 << side) - 1
    };
    let mut cand = vec![full; side * side];
    let mut stack = Vec::new();
    let consistent = text.iter().enumerate().all(|(cell, &c)| match g.digit(c) {
        Some(d) => search.assign(&mut cand, cell, 1 << d, &mut stack),
        None => true,
    });
    if consistent {
        search.solve(&cand, &mut stack);
    }
    let ns = started.elapsed().as_nanos();
    let status = match search.count {
        0 => "none",
        1 if mode == "first" => "solved",
        1 => "unique",
        _ => "multiple",
    };
    out.push_str(status);
    if let Some(first) = &search.first {
        out.push(' ');
        out.extend(first.iter().map(|&d| g.symbols[d as usize] as char));
    }
    out.push_str(&format!(
        " nodes={} guesses={} ns={ns}",
        search.nodes, search.guesses
    ));
}

fn main() {
    let mode = std::env::var("SUDOKU_BENCH_MODE").unwrap_or_else(|_| "unique".into());
    let limit = match mode.as_str() {
        "first" => 1,
        m => m
            .strip_prefix("count:")
            .and_then(|k| k.parse().ok())
            .map_or(2, |k: u64| k.max(2)),
    };
    let mut sizes = Vec::new();
    let mut out = std::io::stdout().lock();
    let mut reply = String::new();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        reply.clear();
        answer(&line, &mode, limit, &mut sizes, &mut reply);
        reply.push('\n');
        if out
            .write_all(reply.as_bytes())
            .and_then(|_| out.flush())
            .is_err()
        {
            break;
        }
    }
}
