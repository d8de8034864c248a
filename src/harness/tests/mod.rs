use super::*;
use crate::contender::SolveFn;
use crate::export::csv::CsvSink;
use crate::format::{read_str, ReadOptions};
use crate::grid::Grid;
use crate::solver::{Limits, Solver, SolverId, Status};
use std::time::Instant;

const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn dataset(text: &str, sel: &Selection) -> BenchDataset {
    let ds = read_str("t", text, &ReadOptions::default()).unwrap();
    BenchDataset::prepare(
        ds,
        text.len() as u64,
        crate::datasets::checksum::sha256_hex(text.as_bytes()),
        sel,
    )
}

fn reference() -> BenchDataset {
    dataset(
        include_str!("../../../datasets/reference/seeds-9x9.txt"),
        &Selection::default(),
    )
}

fn opts(threads: usize) -> BenchOptions {
    BenchOptions {
        threads,
        mode: Mode::Unique,
        budget: Budget::StrategyDefault,
        time_limit: None,
        cpu_limit: None,
        warmup: 1,
        repeat: 1,
        rounds: 1,
        min_time: None,
        schedule: Schedule::Interleaved,
        stretch: None,
        reference: None,
        pin: false,
    }
}

use super::Collected;

fn run_one(c: Contender, ds: &BenchDataset, o: &BenchOptions) -> (RunResult, Vec<SolveRecord>) {
    run_many(&[c], ds, o)
}

/// Runs `cs` over `ds`: the result and the records in the order the sink got them.
fn run_many(
    cs: &[Contender],
    ds: &BenchDataset,
    o: &BenchOptions,
) -> (RunResult, Vec<SolveRecord>) {
    let mut sink = Collected::default();
    let cancel = Arc::new(AtomicBool::new(false));
    let r = run(cs, std::slice::from_ref(ds), o, &cancel, &mut sink, &Silent).unwrap();
    (r, sink.solves)
}

/// A sink that raises the cancel flag once it has taken `after` solves (Ctrl-C mid-run).
struct StopAfter {
    rows: Vec<SolveRecord>,
    puzzles: Vec<PuzzleResult>,
    after: usize,
    cancel: Arc<AtomicBool>,
}
impl RecordSink for StopAfter {
    fn puzzle(&mut self, r: &PuzzleResult) -> io::Result<()> {
        self.puzzles.push(r.clone());
        Ok(())
    }
    fn keeps_solves(&self) -> bool {
        true
    }
    fn solve(&mut self, r: &SolveRecord) -> io::Result<()> {
        self.rows.push(r.clone());
        if self.rows.len() >= self.after {
            self.cancel.store(true, Ordering::Relaxed);
        }
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

mod cpu;
mod rounds;
mod runs;
mod schedule;
mod streaming;
mod wall;
