//! Memory that does not grow with the dataset: a run and its report over 300,000
//! and 1,200,000 puzzles peak at about the same heap (counted by this test's
//! allocator). Ignored by default (about a minute on two cores):
//! `cargo test --release --test bounded -- --ignored --nocapture`.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use sudoku_bench::export::csv::CsvSink;
use sudoku_bench::format::ReadOptions;
use sudoku_bench::harness::{self, BenchOptions, Budget, Contender, Schedule, Selection};
use sudoku_bench::solver::{Mode, SolverId};

use crate::counting::peak_of;

/// Peak heap bytes of a run (two strategies, two repeats, permuted, interleaved)
/// and of its report, over `n` puzzles of the embedded easy set repeated.
fn peaks(n: usize) -> (usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.txt");
    {
        let easy: Vec<&str> = include_str!("../../datasets/easy-9x9.txt")
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .collect();
        let mut f = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        for i in 0..n {
            writeln!(f, "{}", easy[i % easy.len()]).unwrap();
        }
    }
    let run = dir.path().join("run");
    std::fs::create_dir_all(&run).unwrap();
    let ((), run_peak) = peak_of(|| {
        let sel = Selection {
            permute: true,
            seed: 1,
            ..Selection::default()
        };
        let ds = sudoku_bench::harness::resolve(
            file.to_str().unwrap(),
            &ReadOptions::default(),
            &sel,
            &mut |_| {},
        )
        .unwrap();
        assert!(ds[0].is_streamed());
        let opts = BenchOptions {
            threads: 2,
            mode: Mode::Unique,
            budget: Budget::StrategyDefault,
            time_limit: None,
            cpu_limit: None,
            warmup: 20,
            repeat: 2,
            rounds: 5,
            min_time: None,
            schedule: Schedule::Interleaved,
            stretch: None,
            reference: None,
            pin: false,
        };
        let cs = [
            Contender::from_id(SolverId::FASTEST),
            Contender::from_id(SolverId::BitsetMrv),
        ];
        let mut sink = CsvSink::create(&run.join("results.csv"), None).unwrap();
        let cancel = Arc::new(AtomicBool::new(false));
        let result = harness::run(&cs, &ds, &opts, &cancel, &mut sink, &harness::Silent).unwrap();
        drop(sink);
        assert_eq!(result.summary[0].puzzles, n as u64);
        assert_eq!(result.summary[0].solves, 2 * n as u64);
        let info = harness::RunInfo::new(
            harness::RunOptions::default(),
            vec![],
            ds.iter().map(|d| d.info.clone()).collect(),
        );
        sudoku_bench::export::write_all(
            &run,
            &sudoku_bench::export::RunReport {
                info,
                summary: result.summary,
            },
        )
        .unwrap();
    });
    let (_, report_peak) =
        peak_of(|| sudoku_bench::report::write(&run, &Default::default()).unwrap());
    (run_peak, report_peak)
}

#[test]
#[ignore = "a minute of work; run by hand for the memory figures"]
fn run_and_report_memory_do_not_grow_with_the_dataset() {
    let (small_run, small_report) = peaks(300_000);
    let (big_run, big_report) = peaks(1_200_000);
    let mb = |b: usize| b as f64 / (1 << 20) as f64;
    println!(
        "heap peak, run: {:.1} MB at 300k puzzles, {:.1} MB at 1.2M; report: {:.1} MB, {:.1} MB",
        mb(small_run),
        mb(big_run),
        mb(small_report),
        mb(big_report)
    );
    // Four times the puzzles: within a few MB (the exact time sketch holds up to
    // 2^20 readings of 8 bytes per strategy before it turns into a histogram).
    assert!(
        big_run < small_run + (24 << 20),
        "run: {small_run} -> {big_run}"
    );
    assert!(
        big_report < small_report + (24 << 20),
        "report: {small_report} -> {big_report}"
    );
    assert!(big_run < 96 << 20 && big_report < 96 << 20);
}
