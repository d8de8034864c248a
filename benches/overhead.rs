//! The harness's own cost, as ratios: a bare loop and `harness::run` (streaming a
//! new `results.csv`) take turns over the whole 17-clue list at 1 thread, and the
//! harness takes turns at 1 and 2 threads over hardest_1106 (four times over).
//! Taking turns keeps the machine's drift out of the ratio; medians are printed.
//!
//! `SUDOKU_BENCH_DATASETS=../shared/datasets cargo bench --bench overhead [-- ROUNDS]`

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use sudoku_bench::export::csv::CsvSink;
use sudoku_bench::format::{read_path, ReadOptions};
use sudoku_bench::harness::{self, BenchDataset, BenchOptions, Budget, Contender, Selection};
use sudoku_bench::solver::{Limits, Mode, SolverId};

fn dataset(dir: &Path, file: &str, copies: usize) -> BenchDataset {
    let mut ds = read_path(&dir.join(file), &ReadOptions::default()).expect("public list");
    let one = ds.puzzles.clone();
    for _ in 1..copies {
        ds.puzzles.extend(one.iter().cloned());
    }
    BenchDataset::prepare(ds, 0, String::new(), &Selection::default())
}

/// Seconds for one harness run of the fastest strategy, results to a new file.
fn harness_run(ds: &BenchDataset, threads: usize, results: &Path) -> f64 {
    let _ = std::fs::remove_file(results);
    let opts = BenchOptions {
        threads,
        mode: Mode::Unique,
        budget: Budget::StrategyDefault,
        time_limit: None,
        cpu_limit: None,
        warmup: 0,
        repeat: 1,
        rounds: 1,
        min_time: None,
        stretch: None,
        schedule: harness::Schedule::Sequential,
        reference: None,
        pin: false,
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let t = Instant::now();
    let mut sink = CsvSink::create(results, None).expect("results file");
    let run = harness::run(
        &[Contender::from_id(SolverId::FASTEST)],
        std::slice::from_ref(ds),
        &opts,
        &cancel,
        &mut sink,
        &harness::Silent,
    )
    .expect("harness run");
    let s = t.elapsed().as_secs_f64();
    assert_eq!(run.wrong() + run.errors(), 0);
    s
}

/// Seconds for the same solves in a plain loop, through the very call the harness
/// times (a loop calling the strategy directly gets its own inlined copy of the
/// solver, laid out differently, which alone moves the figure by a few %).
fn bare_loop(ds: &BenchDataset, contender: &Contender) -> f64 {
    let limits = Limits::new(Mode::Unique);
    let solve = contender
        .engine
        .solve_fn()
        .expect("a built-in strategy is a call in this process");
    let t = Instant::now();
    for p in &ds.puzzles {
        std::hint::black_box(solve(std::hint::black_box(&p.grid), &limits));
    }
    t.elapsed().as_secs_f64()
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let Some(dir) = std::env::var_os("SUDOKU_BENCH_DATASETS").map(PathBuf::from) else {
        eprintln!("NOTICE: SUDOKU_BENCH_DATASETS is not set; the overhead bench is SKIPPED");
        return;
    };
    // `cargo bench` passes `--bench`; a bare number is the count of rounds.
    let rounds = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(15)
        .max(1);
    let tmp = tempfile::tempdir().expect("temp dir");
    let results = tmp.path().join("results.csv");

    let clue17 = dataset(&dir, "puzzles2_17_clue", 1);
    let n = clue17.puzzles.len() as f64;
    let (mut bare, mut harn) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        bare.push(bare_loop(&clue17, &Contender::from_id(SolverId::FASTEST)));
        harn.push(harness_run(&clue17, 1, &results));
    }
    let (b, h) = (median(bare), median(harn));
    println!(
        "17_clue, {} puzzles, {}, 1 thread, {rounds} rounds: bare loop {:.0}/s, harness {:.0}/s: {:.1}% of the bare loop",
        clue17.puzzles.len(),
        SolverId::FASTEST.name(),
        n / b,
        n / h,
        100.0 * b / h
    );

    let hard = dataset(&dir, "puzzles6_forum_hardest_1106", 4);
    let n = hard.puzzles.len() as f64;
    let (mut one, mut two) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        one.push(harness_run(&hard, 1, &results));
        two.push(harness_run(&hard, 2, &results));
    }
    let (t1, t2) = (median(one), median(two));
    println!(
        "hardest_1106 x4, {} puzzles, {rounds} rounds: 1 thread {:.0}/s, 2 threads {:.0}/s: {:.2}x",
        hard.puzzles.len(),
        n / t1,
        n / t2,
        t1 / t2
    );
}
