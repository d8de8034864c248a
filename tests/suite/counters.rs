//! `bench --measure cycles,instructions,branch-misses` (and `task-clock`):
//! the CPU's counters read around each call through perf_event_open where
//! the machine has them, and one clear line where it does not. Each test
//! asserts whichever of the two this machine gives.

use predicates::prelude::*;
use std::path::Path;

use crate::common::{bin_in as bin, csv_rows, example};
use sudoku_bench::harness::{PuzzleResult, SummaryRow};

/// Runs `bench --measure MEASURE` on a few hard puzzles with two strategies
/// and the example library; gives its exit code and stderr.
fn run(cwd: &Path, measure: &str, out: &str) -> (i32, String) {
    let lib = format!(
        "ex={}:example_solver:sudoku-bench",
        example("libexample_library.so").display()
    );
    let o = bin(cwd)
        .args(["bench", "--measure", measure, "--solver", "band,dlx"])
        .args(["--dataset", "hard-9x9", "--limit", "8", "--warmup", "2"])
        .args(["--library", &lib, "--no-report", "--out", out])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    (o.status.code().unwrap_or(-1), err)
}

/// The refusal of a machine without the counters: exit 2, one line that
/// names the counter and points to callgrind, and no run folder.
fn refused(cwd: &Path, code: i32, err: &str, out: &str) {
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.trim().lines().count(), 1, "one line: {err}");
    assert!(err.contains("does not count"), "{err}");
    assert!(err.contains("--measure instructions"), "{err}");
    assert!(!cwd.join(out).exists(), "nothing was measured");
}

#[test]
fn the_task_clock_is_read_around_every_call_in_process_and_in_a_librarys_host() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, err) = run(tmp.path(), "task-clock", "t");
    if code != 0 {
        // A sandbox that forbids perf_event_open altogether.
        return refused(tmp.path(), code, &err, "t");
    }
    let rows: Vec<PuzzleResult> = csv_rows(&tmp.path().join("t/results.csv"));
    assert_eq!(rows.len(), 3 * 8, "band, dlx and the library on 8 puzzles");
    for r in &rows {
        let ns = r.task_clock_ns.unwrap_or(0);
        // On a CPU for part of the call: never for longer than it lasted
        // (plus the counter's own switching, a few µs at most).
        assert!(
            ns > 0,
            "{} {}: {:?}",
            r.variant,
            r.puzzle_index,
            r.task_clock_ns
        );
        assert!(ns <= r.median_ns.max(r.min_ns) * 4 + 1_000_000, "{r:?}");
        assert_eq!((r.cycles, r.instructions), (None, None), "not asked for");
    }
    let summary: Vec<SummaryRow> = csv_rows(&tmp.path().join("t/summary.csv"));
    assert!(summary.iter().all(|s| s.task_clock_ns_per_puzzle.is_some()));
    let json = std::fs::read_to_string(tmp.path().join("t/run.json")).unwrap();
    assert!(json.contains("\"measure\": \"task-clock\""), "{json}");
    let md = std::fs::read_to_string(tmp.path().join("t/summary.md")).unwrap();
    assert!(md.contains("## The CPU's counters"), "{md}");
    assert!(md.contains("task-clock, ns"), "{md}");
}

#[test]
fn the_cpus_counters_are_read_where_it_has_them_and_refused_in_one_line_where_not() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, err) = run(tmp.path(), "cycles,instructions,branch-misses", "c");
    if code != 0 {
        return refused(tmp.path(), code, &err, "c");
    }
    let rows: Vec<PuzzleResult> = csv_rows(&tmp.path().join("c/results.csv"));
    assert_eq!(rows.len(), 3 * 8);
    for r in &rows {
        let (c, i) = (r.cycles.unwrap_or(0), r.instructions.unwrap_or(0));
        // A solve of a hard 9x9 puzzle retires thousands of instructions.
        assert!(c > 0 && i > 1_000, "{r:?}");
        assert!(r.branch_misses.is_some(), "{r:?}");
    }
    let md = std::fs::read_to_string(tmp.path().join("c/summary.md")).unwrap();
    assert!(md.contains("instructions/cycle"), "{md}");
}

#[test]
fn counters_refuse_a_program_contender_and_an_unknown_counter() {
    let tmp = tempfile::tempdir().unwrap();
    bin(tmp.path())
        .args(["bench", "--measure", "task-clock", "--dataset", "set-4x4"])
        .args(["--contender", "echoer=cat", "--out", "x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--measure task-clock counts the calls of built-in strategies",
        ))
        .stderr(predicate::str::contains(
            "the program contender echoer cannot be counted so",
        ));
    bin(tmp.path())
        .args(["bench", "--measure", "cycles,cache-misses", "--out", "x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "\"cycles,cache-misses\" is not a measure",
        ))
        .stderr(predicate::str::contains("branch-misses, task-clock"));
    // `instructions` alone is callgrind's count, never the CPU's.
    let m: sudoku_bench::harness::plan::Measure = "instructions".parse().unwrap();
    assert_eq!(m, sudoku_bench::harness::plan::Measure::Instructions);
    assert!(!tmp.path().join("x").exists());
}
