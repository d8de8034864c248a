//! Criterion benches: one group per dataset, one `BenchmarkId` per strategy variant,
//! throughput in puzzles. Public lists are sampled when SUDOKU_BENCH_DATASETS points
//! at them. The `harness` groups compare a bare solve loop with the harness.

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use sudoku_bench::export::csv::CsvSink;
use sudoku_bench::format::{read_path, read_str, ReadOptions};
use sudoku_bench::harness::{
    self, BenchDataset, BenchOptions, Budget, Contender, Selection, Silent,
};
use sudoku_bench::solver::{Limits, Mode, Solver, SolverId};
use sudoku_bench::Grid;

fn public(file: &str, every: usize) -> Option<Vec<Grid>> {
    let dir = PathBuf::from(std::env::var_os("SUDOKU_BENCH_DATASETS")?);
    let ds = read_path(&dir.join(file), &ReadOptions::default()).ok()?;
    Some(
        ds.puzzles
            .into_iter()
            .step_by(every)
            .map(|p| p.grid)
            .collect(),
    )
}

fn embedded(name: &str) -> Vec<Grid> {
    let e = sudoku_bench::datasets::embedded(name).expect("embedded set");
    read_str(name, e.text, &ReadOptions::default())
        .unwrap()
        .puzzles
        .into_iter()
        .map(|p| p.grid)
        .collect()
}

/// Solves every puzzle to uniqueness, one thread, with the strategy's default budget.
fn solve_all(s: SolverId, puzzles: &[Grid]) -> u64 {
    let limits = Limits::new(Mode::Unique).with_node_budget(s.default_node_budget());
    puzzles
        .iter()
        .map(|p| s.solve(black_box(p), &limits).counters.nodes)
        .sum()
}

fn group(c: &mut Criterion, dataset: &str, puzzles: &[Grid], solvers: &[SolverId]) {
    let mut g = c.benchmark_group(dataset);
    g.throughput(Throughput::Elements(puzzles.len() as u64));
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(3));
    for &s in solvers {
        g.bench_with_input(BenchmarkId::new(s.name(), dataset), puzzles, |b, p| {
            b.iter(|| solve_all(s, p))
        });
    }
    g.finish();
}

fn fast() -> Vec<SolverId> {
    SolverId::ALL
        .iter()
        .copied()
        .filter(|s| s.default_node_budget().is_none() || *s == SolverId::DlxFirstColumn)
        .collect()
}

fn solvers(c: &mut Criterion) {
    for set in ["seeds-9x9", "extreme-9x9", "set-16x16", "set-25x25"] {
        group(
            c,
            set,
            &embedded(set),
            &[SolverId::BitsetMrv, SolverId::Dlx, SolverId::BitsetMrvNaked],
        );
    }
    if let Some(p) = public("puzzles2_17_clue", 10) {
        group(
            c,
            "17_clue",
            &p,
            &[SolverId::BitsetMrv, SolverId::Dlx, SolverId::DlxFirstColumn],
        );
        group(
            c,
            "17_clue_small",
            &p[..200],
            &[SolverId::BitsetMrvNaked, SolverId::BitsetMrvPlain],
        );
    }
    if let Some(p) = public("puzzles3_magictour_top1465", 1) {
        group(c, "top1465", &p, &fast());
    }
    if let Some(p) = public("puzzles6_forum_hardest_1106", 1) {
        group(c, "hardest_1106", &p, &fast());
    }
}

fn bench_dataset(puzzles: &[Grid]) -> BenchDataset {
    let text: String = puzzles
        .iter()
        .map(|g| {
            sudoku_bench::format::write_line(
                g,
                &sudoku_bench::format::Alphabet::default_for(g.geometry()),
            ) + "\n"
        })
        .collect();
    let ds = read_str("bench", &text, &ReadOptions::default()).unwrap();
    BenchDataset::prepare(ds, 0, String::new(), &Selection::default())
}

/// Harness overhead: a bare loop against `harness::run` streaming `results.csv`,
/// 1 thread, over the whole 17-clue list; and the harness at 1 against 2 threads on
/// hard puzzles. Each run writes a new file, as every real run does: rewriting one
/// file would time ext4 discarding the previous run's blocks, not the harness.
fn harness_overhead(c: &mut Criterion) {
    let Some(clue17) = public("puzzles2_17_clue", 1) else {
        return;
    };
    let hard = public("puzzles6_forum_hardest_1106", 1).expect("hardest list");
    let dir = tempfile::tempdir().unwrap();
    let results = dir.path().join("results.csv");
    let fresh = || {
        let _ = std::fs::remove_file(&results);
    };
    let run = |ds: &BenchDataset, threads: usize| {
        let opts = BenchOptions {
            threads,
            mode: Mode::Unique,
            budget: Budget::StrategyDefault,
            time_limit: None,
            warmup: 0,
            repeat: 1,
        };
        let mut sink = CsvSink::create(&results).unwrap();
        let cancel = Arc::new(AtomicBool::new(false));
        harness::run(
            &[Contender::from_id(SolverId::FASTEST)],
            std::slice::from_ref(ds),
            &opts,
            &cancel,
            &mut sink,
            &Silent,
        )
        .unwrap()
    };
    let mut g = c.benchmark_group("harness_17_clue");
    g.throughput(Throughput::Elements(clue17.len() as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(8));
    g.bench_function("bare-loop", |b| {
        b.iter(|| solve_all(SolverId::FASTEST, &clue17))
    });
    let ds = bench_dataset(&clue17);
    g.bench_function("harness-1-thread", |b| {
        b.iter_batched(fresh, |()| run(&ds, 1), BatchSize::PerIteration)
    });
    g.finish();

    let mut g = c.benchmark_group("harness_hardest_threads");
    g.throughput(Throughput::Elements(hard.len() as u64 * 4));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(5));
    let many: Vec<Grid> = (0..4).flat_map(|_| hard.iter().cloned()).collect();
    let ds = bench_dataset(&many);
    for threads in [1, 2] {
        g.bench_with_input(BenchmarkId::new("harness", threads), &threads, |b, &t| {
            b.iter_batched(fresh, |()| run(&ds, t), BatchSize::PerIteration)
        });
    }
    g.finish();
}

/// Generator speed: 9x9 minimal puzzles, one thread (compare: the `sudoku` crate's ~7,000/s).
fn generator(c: &mut Criterion) {
    use sudoku_bench::generate::{generate_indexed, GenerateOptions};
    let opts = GenerateOptions::minimal(sudoku_bench::Geometry::new(3).unwrap());
    let mut g = c.benchmark_group("generate_9x9_minimal");
    g.throughput(Throughput::Elements(100));
    g.sample_size(10);
    g.bench_function("100 puzzles", |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            (0..100)
                .map(|i| generate_indexed(&opts, seed, i).unwrap().0.givens())
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, solvers, harness_overhead, generator);
criterion_main!(benches);
