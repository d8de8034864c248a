//! The pipe's floor: what the line protocol costs with nothing to solve.
//!
//! A run with programs measures it once, before the first puzzle: puzzle
//! lines sent one at a time to `sudoku-bench pipe-echo` (hidden), a program of
//! the workbench's own that answers each at once, timed as a program's rows
//! are. A program whose median time is within a few times that floor is
//! measured mostly as transport, and the run says so.

use super::process::Process;
use crate::solver::Mode;
use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The hidden subcommand that answers every line at once.
pub const ECHO_COMMAND: &str = "pipe-echo";

/// Round trips measured (after as many unmeasured).
pub const TRIPS: usize = 400;

/// How many times the floor a program's median must exceed for its times to
/// be more than mostly transport.
pub const FLOOR_FACTOR: f64 = 3.0;

/// The echo's side: `budget` for every line, flushed at once.
pub fn echo(input: impl BufRead, output: impl Write) -> io::Result<()> {
    let mut out = io::BufWriter::new(output);
    for line in input.split(b'\n') {
        line?;
        out.write_all(b"budget\n")?;
        out.flush()?;
    }
    Ok(())
}

/// The median round trip of a 9×9 puzzle line to the echo started from
/// `exe`, as a worker reading awake times it; `None` if it cannot be run.
pub fn measure(exe: &std::path::Path) -> Option<Duration> {
    let command = vec![exe.display().to_string(), ECHO_COMMAND.to_string()];
    let mut p = Process::spawn(&command, Mode::Unique, false, None).ok()?;
    let line = [b'.'; 81]
        .iter()
        .copied()
        .chain(std::iter::once(b'\n'))
        .collect::<Vec<u8>>();
    let never = AtomicBool::new(false);
    let mut trips = Vec::with_capacity(TRIPS);
    for i in 0..2 * TRIPS {
        let t0 = Instant::now();
        p.send(&line).ok()?;
        p.read_line(Some(t0 + Duration::from_secs(5)), &never)
            .ok()?;
        if i >= TRIPS {
            trips.push(t0.elapsed());
        }
    }
    p.close(Duration::from_millis(200));
    trips.sort_unstable();
    Some(trips[trips.len() / 2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_echo_answers_every_line_with_a_status() {
        let mut out = Vec::new();
        echo(&b"a\nb\n"[..], &mut out).unwrap();
        assert_eq!(out, b"budget\nbudget\n");
    }
}
