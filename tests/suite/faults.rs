//! A crash or a hang costs exactly its own row, for library, program and
//! batch contenders alike, at one and two threads: the faults are chosen by
//! the puzzle's content, so whichever process gets a puzzle fails on it.

use crate::common::bin_in as bin;
use crate::common::{csv_rows, example, hard_lines as puzzles, running};
use std::path::Path;
use sudoku_bench::harness::{PuzzleResult, RowStatus};

const CRASH: [usize; 4] = [3, 17, 18, 41];
const HANG: [usize; 2] = [20, 28];

/// Writes the dataset (60 puzzles), the fixtures' table and the faults file.
fn setup(dir: &Path) {
    let all = puzzles(60);
    let set: String = all.iter().map(|(p, _)| format!("{p}\n")).collect();
    let table: String = all.iter().map(|(p, s)| format!("{p}\t{s}\n")).collect();
    let mut faults = String::new();
    for &i in &CRASH {
        faults.push_str(&format!("crash {}\n", all[i].0));
    }
    for &i in &HANG {
        faults.push_str(&format!("hang {}\n", all[i].0));
    }
    std::fs::write(dir.join("set.txt"), set).unwrap();
    std::fs::write(dir.join("table.tsv"), table).unwrap();
    std::fs::write(dir.join("faults"), faults).unwrap();
}

/// The three kinds of contender, each failing on the same puzzles.
fn contenders(dir: &Path) -> String {
    let fx = example("fixture-contender");
    let lib = example("libfixture_library.so");
    let args = |behaviour: &str| {
        format!(
            "[\"{}\", \"{}\", \"{behaviour}\"]",
            fx.display(),
            dir.join("table.tsv").display()
        )
    };
    let faults = format!("faults:{}", dir.join("faults").display());
    format!(
        "[[contender]]\nname = \"program\"\ncommand = {}\n\n\
         [[contender]]\nname = \"batched\"\ncommand = {}\nbatch = 8\n\n\
         [[contender]]\nname = \"lib\"\nlibrary = \"{}\"\nsymbol = \"fixture_tdoku\"\nabi = \"tdoku\"\n",
        args(&faults),
        args(&faults),
        lib.display()
    )
}

#[test]
fn a_crash_or_a_hang_costs_exactly_its_own_row_at_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    std::fs::write(dir.path().join("c.toml"), contenders(dir.path())).unwrap();
    let faults = format!("faults:{}", dir.path().join("faults").display());
    for threads in ["1", "2"] {
        let out = bin(dir.path())
            .args(["bench", "--min-time", "0", "--rounds", "1", "--warmup", "0"])
            .args([
                "--no-report",
                "--dataset",
                "set.txt",
                "--contenders",
                "c.toml",
            ])
            .args([
                "--time-limit",
                "1s",
                "--threads",
                threads,
                "--out",
                "run",
                "--force",
            ])
            .env("SUDOKU_BENCH_FIXTURE", &faults)
            .assert()
            .code(1);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(!stderr.contains("given up"), "{stderr}");
        let rows: Vec<PuzzleResult> = csv_rows(&dir.path().join("run/results.csv"));
        for name in ["program", "batched", "lib"] {
            let mine: Vec<&PuzzleResult> = rows.iter().filter(|r| &*r.variant == name).collect();
            assert_eq!(mine.len(), 60, "{name} at {threads} threads");
            for r in mine {
                let i = r.puzzle_index as usize;
                let (want, says) = if CRASH.contains(&i) {
                    (RowStatus::Error, "ended before answering")
                } else if HANG.contains(&i) {
                    (RowStatus::Budget, "no answer within the time limit (1s)")
                } else {
                    (RowStatus::Unique, "")
                };
                assert_eq!(
                    r.status, want,
                    "{name}, {threads} threads, puzzle {i}: {}",
                    r.detail
                );
                assert!(r.detail.contains(says), "{name}, puzzle {i}: {}", r.detail);
            }
        }
        assert_eq!(
            running(&dir.path().display().to_string()),
            0,
            "no process is left"
        );
    }
}

#[test]
fn a_library_that_crashes_on_every_puzzle_is_given_up_once() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path());
    let all = puzzles(60);
    let faults: String = all.iter().map(|(p, _)| format!("crash {p}\n")).collect();
    std::fs::write(dir.path().join("faults"), faults).unwrap();
    let lib = format!(
        "lib={}:fixture_tdoku:tdoku",
        example("libfixture_library.so").display()
    );
    let out = bin(dir.path())
        .args(["bench", "--min-time", "0", "--rounds", "1", "--warmup", "0"])
        .args(["--no-report", "--dataset", "set.txt", "--library", &lib])
        .args(["--threads", "1", "--out", "run", "--force"])
        .env(
            "SUDOKU_BENCH_FIXTURE",
            format!("faults:{}", dir.path().join("faults").display()),
        )
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert_eq!(stderr.matches("was given up").count(), 1, "{stderr}");
    let rows: Vec<PuzzleResult> = csv_rows(&dir.path().join("run/results.csv"));
    let k = sudoku_bench::external::UNANSWERED_BOUND as usize;
    let crashed = rows
        .iter()
        .filter(|r| r.detail.contains("ended before answering") && !r.detail.starts_with("not run"))
        .count();
    let not_run = rows
        .iter()
        .filter(|r| r.detail.starts_with("not run"))
        .count();
    assert_eq!((crashed, not_run), (k, 60 - k));
}

/// A library that crashes whenever the first cell is blank (212 of hard-9x9's
/// 300 puzzles): a pattern in the puzzles, not a crash loop. Exactly those
/// rows are errors, every other puzzle is answered, nothing is given up.
#[test]
fn a_crash_pattern_in_the_puzzles_costs_only_its_rows_and_gives_nothing_up() {
    let dir = tempfile::tempdir().unwrap();
    let all = puzzles(300);
    let blank: Vec<bool> = all.iter().map(|(p, _)| p.starts_with('.')).collect();
    assert_eq!(blank.iter().filter(|&&b| b).count(), 212);
    let faults: String = all
        .iter()
        .filter(|(p, _)| p.starts_with('.'))
        .map(|(p, _)| format!("crash {p}\n"))
        .collect();
    std::fs::write(dir.path().join("faults"), faults).unwrap();
    let lib = format!(
        "lib@9={}:fixture_tdoku:tdoku",
        example("libfixture_library.so").display()
    );
    for threads in ["1", "2"] {
        let out = bin(dir.path())
            .args(["bench", "--min-time", "0", "--rounds", "1", "--warmup", "0"])
            .args(["--no-report", "--dataset", "hard-9x9", "--library", &lib])
            .args(["--threads", threads, "--out", "run", "--force"])
            .env(
                "SUDOKU_BENCH_FIXTURE",
                format!("faults:{}", dir.path().join("faults").display()),
            )
            .assert()
            .code(1);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(!stderr.contains("given up"), "{stderr}");
        let rows: Vec<PuzzleResult> = csv_rows(&dir.path().join("run/results.csv"));
        assert_eq!(rows.len(), 300);
        for r in &rows {
            let want = if blank[r.puzzle_index as usize] {
                RowStatus::Error
            } else {
                RowStatus::Unique
            };
            assert_eq!(r.status, want, "puzzle {}: {}", r.puzzle_index, r.detail);
        }
    }
}
