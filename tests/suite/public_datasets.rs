//! The public benchmark lists (read from the folder in SUDOKU_BENCH_DATASETS):
//! every file reads without error, and all strategies agree on their puzzles.

use crate::common;

use rayon::prelude::*;
use std::time::Instant;
use sudoku_bench::format::{read_path, ReadOptions};
use sudoku_bench::solver::{
    Band, BitsetMrv, Boxes, Isa, Limits, Mode, Singles, Solver, SolverId, Status,
};
use sudoku_bench::{Grid, Puzzle};

#[test]
fn every_public_file_reads() {
    let Some(dir) = common::shared_datasets("every_public_file_reads") else {
        return;
    };
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            continue;
        }
        let started = Instant::now();
        let ds = read_path(&path, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        eprintln!(
            "{}: {} puzzles in {:?}",
            path.display(),
            ds.puzzles.len(),
            started.elapsed()
        );
        assert!(!ds.puzzles.is_empty());
        if path.ends_with("puzzles2_17_clue") {
            assert_eq!(ds.puzzles.len(), 49_158);
            assert!(ds.puzzles.iter().all(|p| p.grid.givens() == 17));
        }
        files += 1;
    }
    assert!(files >= 3);
}

/// Per-strategy node budgets: the slow strategies take part within them. On the
/// 17-clue sample they mostly cannot finish (tdoku's table gives plain
/// backtracking 0.1 puzzles/s there), so they get a small budget.
fn budget(s: SolverId, dataset: &str) -> Option<u64> {
    let clue17 = dataset == "17_clue";
    match s {
        SolverId::NaiveExactCoverPure => Some(20_000),
        _ if clue17 && (s.default_node_budget().is_some() || s == SolverId::BitsetMrvPlain) => {
            Some(100_000)
        }
        SolverId::NaiveExactCover => Some(1_000_000),
        SolverId::Backtracking | SolverId::BitsetMrvPlain | SolverId::BitsetMrvNaked => {
            Some(2_000_000)
        }
        SolverId::DlxFirstColumn => Some(500_000),
        _ => None,
    }
}

fn agree(name: &str, puzzles: &[Puzzle]) {
    // The reference verdict: dlx and bitset-mrv, independent implementations, must agree fully.
    let reference: Vec<Grid> = puzzles
        .par_iter()
        .map(|p| {
            let a = SolverId::Dlx.solve(&p.grid, &Limits::new(Mode::Count(2)));
            let b = SolverId::BitsetMrv.solve(&p.grid, &Limits::new(Mode::Count(2)));
            assert_eq!(a.status, Status::Unique, "{name}:{} dlx", p.line);
            assert_eq!(a.status, b.status, "{name}:{}", p.line);
            assert_eq!(a.solutions, b.solutions, "{name}:{}", p.line);
            a.solutions.into_iter().next().unwrap()
        })
        .collect();
    for s in SolverId::ALL {
        let limits = Limits::new(Mode::Count(2)).with_node_budget(budget(*s, name));
        let compared: usize = puzzles
            .par_iter()
            .zip(&reference)
            .map(|(p, want)| {
                let out = s.solve(&p.grid, &limits);
                if out.status == Status::Budget {
                    return 0; // not compared: never counted as agreement
                }
                assert_eq!(out.status, Status::Unique, "{s} on {name}:{}", p.line);
                assert_eq!(out.first(), Some(want), "{s} on {name}:{}", p.line);
                1
            })
            .sum();
        eprintln!(
            "{name}: {s} compared {compared} of {} puzzles",
            puzzles.len()
        );
        if budget(*s, name).is_none() {
            assert_eq!(
                compared,
                puzzles.len(),
                "{s} has no budget and must compare everything"
            );
        }
        if matches!(
            s,
            SolverId::Backtracking | SolverId::NaiveExactCover | SolverId::DlxFirstColumn
        ) && name != "17_clue"
        {
            assert!(compared > 0, "{s} compared nothing on {name}");
        }
    }
}

#[test]
fn all_strategies_agree_on_public_puzzles() {
    let Some(dir) = common::shared_datasets("all_strategies_agree_on_public_puzzles") else {
        return;
    };
    let top = common::load(&dir.join("puzzles3_magictour_top1465"));
    agree("top1465", &top.puzzles);
    let hardest = common::load(&dir.join("puzzles6_forum_hardest_1106"));
    agree("hardest_1106", &hardest.puzzles);
    // 2,000+ puzzles spread over the whole 17-clue list.
    let clue17 = common::load(&dir.join("puzzles2_17_clue"));
    let sample: Vec<Puzzle> = clue17.puzzles.iter().step_by(24).cloned().collect();
    assert!(sample.len() >= 2000);
    agree("17_clue", &sample);
}

/// `band` and `box` on every puzzle of the three lists: the same verdict and
/// solution as `dlx`, and every instruction-set path this machine runs makes
/// exactly the same search as the portable one (outcome and counters).
#[test]
fn band_and_box_agree_with_dlx_on_every_public_puzzle_on_every_path() {
    let Some(dir) = common::shared_datasets("band_and_box_agree_with_dlx_on_every_public_puzzle")
    else {
        return;
    };
    let paths = Isa::available();
    eprintln!("band and box paths on this machine: {paths:?}");
    for file in [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles6_forum_hardest_1106",
    ] {
        let ds = common::load(&dir.join(file));
        let limits = Limits::new(Mode::Count(2));
        let guesses: [u64; 2] = ds
            .puzzles
            .par_iter()
            .map(|p| {
                let want = SolverId::Dlx.solve(&p.grid, &limits);
                let band = Band { isa: Isa::Portable }.solve(&p.grid, &limits);
                let boxes = Boxes { isa: Isa::Portable }.solve(&p.grid, &limits);
                for portable in [&band, &boxes] {
                    assert_eq!(portable.status, Status::Unique, "{file}:{}", p.line);
                    assert_eq!(portable.solutions, want.solutions, "{file}:{}", p.line);
                }
                for &isa in &paths {
                    let out = Band { isa }.solve(&p.grid, &limits);
                    assert_eq!(out, band, "band {isa:?} on {file}:{}", p.line);
                    let out = Boxes { isa }.solve(&p.grid, &limits);
                    assert_eq!(out, boxes, "box {isa:?} on {file}:{}", p.line);
                }
                [band.counters.guesses, boxes.counters.guesses]
            })
            .reduce(|| [0, 0], |a, b| [a[0] + b[0], a[1] + b[1]]);
        let n = ds.puzzles.len() as f64;
        eprintln!(
            "{file}: band and box agree on all {} puzzles; guesses per puzzle {:.2} and {:.2}",
            ds.puzzles.len(),
            guesses[0] as f64 / n,
            guesses[1] as f64 / n
        );
    }
}

/// The bitset family's engines with hidden singles on every puzzle of the three
/// lists: the same verdict and solution as `dlx`, and the vector path (AVX2,
/// where present) makes exactly the portable search (outcome and counters).
#[test]
fn bitset_mrv_agrees_with_dlx_on_every_public_puzzle_on_every_path() {
    let Some(dir) = common::shared_datasets("bitset_mrv_agrees_with_dlx_on_every_public_puzzle")
    else {
        return;
    };
    let engines = [Singles::NakedAndHidden, Singles::NakedHiddenLocked];
    for file in [
        "puzzles2_17_clue",
        "puzzles3_magictour_top1465",
        "puzzles6_forum_hardest_1106",
    ] {
        let ds = common::load(&dir.join(file));
        let limits = Limits::new(Mode::Count(2));
        let guesses = ds
            .puzzles
            .par_iter()
            .map(|p| {
                let want = SolverId::Dlx.solve(&p.grid, &limits);
                engines.map(|singles| {
                    let portable = BitsetMrv {
                        singles,
                        isa: Isa::Portable,
                    }
                    .solve(&p.grid, &limits);
                    assert_eq!(portable.status, Status::Unique, "{file}:{}", p.line);
                    assert_eq!(portable.solutions, want.solutions, "{file}:{}", p.line);
                    for isa in Isa::available() {
                        let out = BitsetMrv { singles, isa }.solve(&p.grid, &limits);
                        assert_eq!(out, portable, "{singles:?} {isa:?} on {file}:{}", p.line);
                    }
                    portable.counters.guesses
                })
            })
            .reduce(|| [0, 0], |a, b| [a[0] + b[0], a[1] + b[1]]);
        let n = ds.puzzles.len() as f64;
        eprintln!(
            "{file}: bitset-mrv and bitset-mrv-locked agree on all {} puzzles; {:.2} and {:.2} guesses per puzzle",
            ds.puzzles.len(),
            guesses[0] as f64 / n,
            guesses[1] as f64 / n
        );
    }
}
