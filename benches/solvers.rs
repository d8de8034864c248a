//! Criterion benches: one group per dataset, one `BenchmarkId` per strategy variant,
//! throughput in puzzles. Public lists are sampled when SUDOKU_BENCH_DATASETS points
//! at them. The harness's own cost is `benches/overhead.rs`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;
use sudoku_bench::format::{read_path, read_str, ReadOptions};
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
        // Every family (and the reference entries) on every tenth puzzle.
        group(c, "17_clue", &p, &fast());
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

criterion_group!(benches, solvers, generator);
criterion_main!(benches);
