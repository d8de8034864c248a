//! JCZSolve, as ported by the `sudoku` crate, behind sudoku-bench's line
//! protocol (9×9 only). Reports its own time per puzzle (`ns`); the crate has
//! no search counters to report.

use std::io::{BufRead, Write};
use std::time::Instant;
use sudoku::Sudoku;

fn main() {
    let mode = std::env::var("SUDOKU_BENCH_MODE").unwrap_or_else(|_| "unique".into());
    let limit = match mode.as_str() {
        "first" => 1,
        m => m
            .strip_prefix("count:")
            .and_then(|k| k.parse().ok())
            .map_or(2, |k: usize| k.max(2)),
    };
    let mut out = std::io::stdout().lock();
    let mut buf = [[0u8; 81]; 2];
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(puzzle) = Sudoku::from_str_line(line.trim()) else {
            let _ = writeln!(out, "not a 9x9 puzzle");
            let _ = out.flush();
            continue;
        };
        let started = Instant::now();
        // One search finds the first solution and tells unique from multiple;
        // only `count:K` beyond two counts again.
        let found = puzzle.solutions_up_to_buffer(&mut buf, limit.min(2));
        let count = if found == 2 && limit > 2 {
            puzzle.solutions_count_up_to(limit)
        } else {
            found
        };
        let ns = started.elapsed().as_nanos();
        let status = match count {
            0 => "none",
            1 if limit == 1 => "solved",
            1 => "unique",
            _ => "multiple",
        };
        let mut reply = String::from(status);
        if count > 0 {
            reply.push(' ');
            reply.extend(buf[0].iter().map(|&d| (b'0' + d) as char));
        }
        let ok = writeln!(out, "{reply} ns={ns}").and_then(|_| out.flush());
        if ok.is_err() {
            break;
        }
    }
}
