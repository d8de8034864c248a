//! Are the intervals honest? K back-to-back runs of the whole binary, as a user
//! would make them, and how often each run's 95% interval holds the median of
//! the K point estimates; then how often `compare` calls two runs of the same
//! binary "within noise", and how often it flags a 20% slowdown.
//!
//! `cargo bench --bench calibrate [-- K [coverage|compare]]` (K defaults to 10).
//! `SUDOKU_BENCH_BIN=path` measures another build (one without `--handicap`
//! skips the detection check). Extra `bench` options for every run go in
//! `SUDOKU_BENCH_ARGS` (split on spaces).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The comparisons checked: `band` against `bitset-mrv`.
const SOLVERS: &str = "band,bitset-mrv";
const DATASETS: [&str; 2] = ["easy-9x9", "hard-9x9"];
const THREADS: [usize; 2] = [1, 2];

fn binary() -> PathBuf {
    std::env::var_os("SUDOKU_BENCH_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_sudoku-bench")))
}

fn extra() -> Vec<String> {
    std::env::var("SUDOKU_BENCH_ARGS")
        .map(|s| s.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// One `bench` run into `out`; panics if it fails.
fn bench(out: &Path, args: &[&str]) {
    let status = Command::new(binary())
        .args(["bench", "--quiet", "--no-report", "--force", "--out"])
        .arg(out)
        .args(args)
        .args(extra())
        .status()
        .expect("the binary runs");
    assert!(status.success(), "bench {args:?} failed: {status}");
}

/// `(speed, lo, hi)` of `variant` on `dataset` in a run's summary.csv.
fn speed(dir: &Path, variant: &str, dataset: &str) -> (f64, f64, f64) {
    let mut r = csv::Reader::from_path(dir.join("summary.csv")).expect("summary.csv");
    let h = r.headers().expect("header").clone();
    let col = |name: &str| h.iter().position(|c| c == name).expect(name);
    let (v, d, s, lo, hi) = (
        col("variant"),
        col("dataset"),
        col("speed"),
        col("speed_lo"),
        col("speed_hi"),
    );
    for row in r.records() {
        let row = row.expect("row");
        if &row[v] == variant && &row[d] == dataset {
            let num = |i: usize| row[i].parse::<f64>().expect("a number");
            return (num(s), num(lo), num(hi));
        }
    }
    panic!("{variant} on {dataset} is not in {}", dir.display());
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn coverage(k: usize, tmp: &Path) {
    println!("coverage: {SOLVERS}, bitset-mrv's speed against band, {k} runs each");
    println!(
        "| dataset | threads | covered | median speed | half-width (median) | half-width (max) |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for dataset in DATASETS {
        for threads in THREADS {
            let t = threads.to_string();
            let runs: Vec<(f64, f64, f64)> = (0..k)
                .map(|i| {
                    let out = tmp.join(format!("cov-{dataset}-{threads}-{i}"));
                    bench(
                        &out,
                        &["--solver", SOLVERS, "--dataset", dataset, "--threads", &t],
                    );
                    speed(&out, "bitset-mrv", dataset)
                })
                .collect();
            let centre = median(runs.iter().map(|r| r.0).collect());
            let covered = runs
                .iter()
                .filter(|r| r.1 <= centre && centre <= r.2)
                .count();
            let halves: Vec<f64> = runs
                .iter()
                .map(|r| 100.0 * (r.2 - r.1) / (2.0 * r.0))
                .collect();
            let worst = halves.iter().copied().fold(0.0, f64::max);
            println!(
                "| {dataset} | {threads} | {covered}/{k} | {centre:.3} | ±{:.1}% | ±{worst:.1}% |",
                median(halves.clone())
            );
        }
    }
}

/// Runs `compare BASE CUR`; true when its exit code says a regression.
fn regressed(base: &Path, cur: &Path) -> bool {
    let status = Command::new(binary())
        .args(["compare", "--quiet"])
        .arg(base)
        .arg(cur)
        .status()
        .expect("compare runs");
    match status.code() {
        Some(0) => false,
        Some(1) => true,
        _ => panic!("compare failed: {status}"),
    }
}

fn gate(k: usize, tmp: &Path) {
    let sets = DATASETS.join(",");
    let args = ["--solver", SOLVERS, "--dataset", &sets];
    let (mut alarms, mut caught, mut tried) = (0, 0, 0);
    for i in 0..k {
        let (a, b) = (
            tmp.join(format!("gate-a-{i}")),
            tmp.join(format!("gate-b-{i}")),
        );
        bench(&a, &args);
        bench(&b, &args);
        alarms += usize::from(regressed(&a, &b));
        let slow = tmp.join(format!("gate-slow-{i}"));
        let mut with = args.to_vec();
        with.extend(["--handicap", "band=20%"]);
        let status = Command::new(binary())
            .args(["bench", "--quiet", "--no-report", "--force", "--out"])
            .arg(&slow)
            .args(&with)
            .args(extra())
            .status()
            .expect("the binary runs");
        if status.success() {
            tried += 1;
            caught += usize::from(regressed(&b, &slow));
        }
    }
    println!("compare, default threshold, {SOLVERS} on {sets}:");
    println!("- two runs of the same build: a regression reported in {alarms} of {k} tries");
    if tried > 0 {
        println!(
            "- band made 20% slower (--handicap band=20%): flagged in {caught} of {tried} tries"
        );
    } else {
        println!("- this build has no --handicap: detection not checked");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let k = args
        .iter()
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(10)
        .max(2);
    let only = args
        .iter()
        .find(|a| matches!(a.as_str(), "coverage" | "compare"));
    let tmp = tempfile::tempdir().expect("temp dir");
    println!("binary: {}", binary().display());
    if only.is_none_or(|o| o == "coverage") {
        coverage(k, tmp.path());
    }
    if only.is_none_or(|o| o == "compare") {
        gate(k, tmp.path());
    }
}
