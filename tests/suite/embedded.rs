//! The embedded datasets: every puzzle unique, its stored answer right (checked by
//! a second strategy), hard and extreme puzzles needing a guess from every strategy.

use rayon::prelude::*;
use sudoku_bench::datasets::EMBEDDED;
use sudoku_bench::format::{read_str, ReadOptions};
use sudoku_bench::solver::{Limits, Mode, Solver, SolverId, Status};
use sudoku_bench::validate::check_solution;

#[test]
fn embedded_sets_are_sound() {
    assert!(EMBEDDED.len() >= 8);
    for e in EMBEDDED {
        let ds =
            read_str(e.name, e.text, &ReadOptions::default()).unwrap_or_else(|err| panic!("{err}"));
        ds.puzzles.par_iter().for_each(|p| {
            let answer = p
                .expected
                .as_ref()
                .unwrap_or_else(|| panic!("{}:{} has no answer", e.name, p.line));
            assert_eq!(
                check_solution(&p.grid, answer),
                Ok(()),
                "{}:{}",
                e.name,
                p.line
            );
            let out = SolverId::Dlx.solve(&p.grid, &Limits::new(Mode::Unique));
            assert_eq!(out.status, Status::Unique, "{}:{}", e.name, p.line);
            assert_eq!(out.first(), Some(answer), "{}:{}", e.name, p.line);
        });
    }
}

#[test]
fn sizes_and_counts_match_the_table() {
    let want = [
        ("easy-9x9", 9, 300),
        ("medium-9x9", 9, 300),
        ("hard-9x9", 9, 300),
        ("extreme-9x9", 9, 200),
        ("set-4x4", 4, 100),
        ("set-16x16", 16, 100),
        ("set-25x25", 25, 20),
    ];
    for (name, side, count) in want {
        let e = sudoku_bench::datasets::embedded(name).unwrap();
        let ds = read_str(name, e.text, &ReadOptions::default()).unwrap();
        assert_eq!(
            (ds.geometry.side(), ds.puzzles.len()),
            (side, count),
            "{name}"
        );
    }
}

#[test]
fn hard_and_extreme_need_a_guess_from_every_strategy() {
    for name in ["hard-9x9", "extreme-9x9"] {
        let e = sudoku_bench::datasets::embedded(name).unwrap();
        let ds = read_str(name, e.text, &ReadOptions::default()).unwrap();
        for s in SolverId::ALL.iter().filter(|s| s.counts_search()) {
            // A guess shows up early; a small budget keeps the slow strategies quick.
            let limits = Limits::new(Mode::Unique).with_node_budget(Some(20_000));
            let without: Vec<u32> = ds
                .puzzles
                .par_iter()
                .filter(|p| s.solve(&p.grid, &limits).counters.no_guess())
                .map(|p| p.line)
                .collect();
            assert!(
                without.is_empty(),
                "{s} needs no guess on {name} lines {without:?}"
            );
        }
    }
}

#[test]
fn large_sets_are_easy_enough_for_the_strong_strategies() {
    let e = sudoku_bench::datasets::embedded("set-25x25").unwrap();
    let ds = read_str("set-25x25", e.text, &ReadOptions::default()).unwrap();
    for s in [SolverId::Dlx, SolverId::BitsetMrv] {
        for p in &ds.puzzles {
            // Under a second is a speed figure for the benches; here: solved within a modest node count.
            let out = s.solve(
                &p.grid,
                &Limits::new(Mode::Unique).with_node_budget(Some(100_000)),
            );
            assert_eq!(out.status, Status::Unique, "{s} on line {}", p.line);
        }
    }
}
