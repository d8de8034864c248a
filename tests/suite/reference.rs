//! Every strategy against the reference puzzles in `datasets/reference`.

use crate::common;

use common::{load, repo_datasets};
use sudoku_bench::format::write_line;
use sudoku_bench::solver::{Limits, Mode, Solver, SolverId, Status};
use sudoku_bench::validate::check_solution;

fn limits() -> Limits {
    Limits::new(Mode::Unique).with_node_budget(Some(20_000_000))
}

#[test]
fn every_strategy_finds_every_reference_answer() {
    let dir = repo_datasets().join("reference");
    let mut checked = 0;
    for file in [
        "seeds-9x9.txt",
        "sizes-4x4.txt",
        "sizes-16x16.txt",
        "sizes-25x25.txt",
    ] {
        let ds = load(&dir.join(file));
        for p in &ds.puzzles {
            let answer = p
                .expected
                .as_ref()
                .expect("every reference puzzle has its answer");
            assert_eq!(
                check_solution(&p.grid, answer),
                Ok(()),
                "{file}: the stored answer is wrong"
            );
            for s in SolverId::ALL
                .iter()
                .filter(|s| s.supports(p.grid.geometry()))
            {
                let out = s.solve_checked(&p.grid, &limits());
                if out.status == Status::Budget {
                    // Only the slow strategies may run out, and never on the seed puzzles marked easy.
                    assert!(
                        s.default_node_budget().is_some(),
                        "{s} ran out on {file}:{}",
                        p.line
                    );
                    assert!(
                        !(file == "seeds-9x9.txt" && *s == SolverId::NaiveExactCover),
                        "naive-exact-cover must solve the seed puzzles"
                    );
                    continue;
                }
                assert_eq!(out.status, Status::Unique, "{s} on {file}:{}", p.line);
                assert_eq!(out.first(), Some(answer), "{s} on {file}:{}", p.line);
                checked += 1;
            }
        }
    }
    assert!(checked > 60, "only {checked} checks ran");
}

#[test]
fn every_strategy_gives_the_expected_verdicts() {
    let ds = load(&repo_datasets().join("reference/verdicts-9x9.txt"));
    assert!(ds.puzzles.len() >= 6);
    for p in &ds.puzzles {
        let want = p
            .comment
            .as_deref()
            .expect("verdict comment")
            .parse::<Status>()
            .expect("a status word");
        for s in SolverId::ALL
            .iter()
            .filter(|s| **s != SolverId::NaiveExactCoverPure)
        {
            let out = s.solve_checked(&p.grid, &limits());
            assert_eq!(out.status, want, "{s} on line {}", p.line);
            if want == Status::Multiple {
                assert_eq!(out.solutions.len(), 2);
                for sol in &out.solutions {
                    assert_eq!(check_solution(&p.grid, sol), Ok(()));
                }
            }
        }
    }
}

#[test]
fn hdu_sample_matches_the_printed_answer() {
    let dir = repo_datasets().join("reference");
    let puzzle = load(&dir.join("hdu1426-sample.txt"));
    let answer = load(&dir.join("hdu1426-sample.answer.txt"));
    assert_eq!(puzzle.format, sudoku_bench::format::Format::Hdu);
    let want = &answer.puzzles[0].grid;
    assert!(want.is_complete());
    for s in SolverId::ALL
        .iter()
        .filter(|s| **s != SolverId::NaiveExactCoverPure)
    {
        assert_eq!(
            s.solve_first(&puzzle.puzzles[0].grid).as_ref(),
            Some(want),
            "{s}"
        );
    }
}

#[test]
fn seed001_letter_block_reads_and_solves() {
    let dir = repo_datasets().join("reference");
    let ds = load(&dir.join("seed001-16x16-letters.txt"));
    let answer = load(&dir.join("seed001-16x16-letters.answer.txt"));
    assert_eq!(ds.alphabet.encode(16), 'P');
    let line_form = load(&dir.join("sizes-16x16.txt"));
    assert_eq!(
        ds.puzzles[0].grid, line_form.puzzles[0].grid,
        "same puzzle as sizes-16x16 line 2"
    );
    for s in [SolverId::Dlx, SolverId::BitsetMrv] {
        let sol = s.solve_first(&ds.puzzles[0].grid).unwrap();
        assert_eq!(
            write_line(&sol, &ds.alphabet),
            write_line(&answer.puzzles[0].grid, &ds.alphabet)
        );
    }
}
