//! Shared libraries as contenders, end to end: the example library in each
//! ABI, a fixture that crashes, hangs or must not be entered twice at once,
//! `contender check` on a library, and bad entries refused before the run.

use crate::common::{example, running};
use predicates::prelude::*;
use sudoku_bench::harness::{PuzzleResult, RowStatus, SummaryRow};

use crate::common::bin_in as bin;

use crate::common::csv_rows as rows;

/// `NAME=PATH:SYMBOL:ABI` for a symbol of a built example library.
fn library(name: &str, file: &str, symbol: &str, abi: &str) -> String {
    format!("{name}={}:{symbol}:{abi}", example(file).display())
}

const EXAMPLE: &str = "libexample_library.so";
const FIXTURE: &str = "libfixture_library.so";

#[test]
fn the_example_library_answers_every_embedded_set_in_each_abi() {
    let dir = tempfile::tempdir().unwrap();
    for threads in ["1", "2"] {
        bin(dir.path())
            .args(["bench", "--quiet", "--no-report", "--min-time", "0"])
            .args(["--threads", threads, "--out", "run", "--force"])
            .args([
                "--library",
                &library("sb", EXAMPLE, "example_solver", "sudoku-bench"),
            ])
            .args([
                "--library",
                &library("td", EXAMPLE, "example_tdoku", "tdoku"),
            ])
            .args([
                "--library",
                &library("js", EXAMPLE, "example_jsolve", "jsolve"),
            ])
            .assert()
            .success();
        let summary: Vec<SummaryRow> = rows(&dir.path().join("run/summary.csv"));
        let on = |v: &str| summary.iter().filter(|r| r.variant == v).count();
        // The workbench's ABI at every size; tdoku's and JSolve's on the five 9x9 sets.
        assert_eq!(
            (on("sb"), on("td"), on("js")),
            (10, 5, 5),
            "{threads} threads"
        );
        for r in &summary {
            assert_eq!(
                (r.solved, r.wrong, r.errors, r.timing.as_str()),
                (r.puzzles, 0, 0, "call"),
                "{} on {}",
                r.variant,
                r.dataset
            );
        }
        let results: Vec<PuzzleResult> = rows(&dir.path().join("run/results.csv"));
        // Counters: the workbench's ABI says nodes and guesses, tdoku's guesses, JSolve's neither.
        let has = |v: &str, f: fn(&PuzzleResult) -> bool| {
            results.iter().filter(|r| &*r.variant == v).all(f)
        };
        assert!(has("sb", |r| r.nodes.is_some() && r.guesses.is_some()));
        assert!(has("td", |r| r.nodes.is_none() && r.guesses.is_some()));
        assert!(has("js", |r| r.nodes.is_none() && r.guesses.is_none()));
        assert!(results.iter().all(|r| r.median_ns > 0));
    }
}

#[test]
fn a_library_that_crashes_or_hangs_costs_those_rows_and_leaves_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let counter = dir.path().join("calls");
    let lib = library("fx", FIXTURE, "fixture_solver", "sudoku-bench");
    for threads in ["1", "2"] {
        let _ = std::fs::remove_file(&counter);
        bin(dir.path())
            .env("SUDOKU_BENCH_FIXTURE", "crash:7,hang:13")
            .env("SUDOKU_BENCH_FIXTURE_COUNTER", &counter)
            .args([
                "bench",
                "--quiet",
                "--no-report",
                "--min-time",
                "0",
                "--warmup",
                "0",
            ])
            .args([
                "--dataset",
                "easy-9x9",
                "--limit",
                "20",
                "--time-limit",
                "1s",
            ])
            .args([
                "--threads",
                threads,
                "--out",
                "run",
                "--force",
                "--library",
                &lib,
            ])
            .assert()
            .code(1)
            .stderr(predicate::str::contains("1 failed, by fx (1 errors)"));
        let results: Vec<PuzzleResult> = rows(&dir.path().join("run/results.csv"));
        assert_eq!(results.len(), 20, "every puzzle has its row");
        let with = |s: RowStatus| results.iter().filter(|r| r.status == s).count();
        assert_eq!(
            (
                with(RowStatus::Unique),
                with(RowStatus::Error),
                with(RowStatus::Budget)
            ),
            (18, 1, 1)
        );
        let crash = results
            .iter()
            .find(|r| r.status == RowStatus::Error)
            .unwrap();
        assert!(crash.detail.contains("SIGSEGV"), "{}", crash.detail);
        // 20 calls: each puzzle called once, the crashed and hung ones not again.
        assert_eq!(std::fs::read_to_string(&counter).unwrap().trim(), "20");
        // The hosts carry the test's own counter path in their environment.
        assert_eq!(running(&counter.display().to_string()), 0);
    }
}

#[test]
fn a_library_is_never_entered_twice_at_once() {
    // The fixture fails any call that finds another inside: each worker's
    // host is a process of its own, so none does, at any thread count.
    let dir = tempfile::tempdir().unwrap();
    bin(dir.path())
        .env("SUDOKU_BENCH_FIXTURE", "busy")
        .args([
            "bench",
            "--quiet",
            "--no-report",
            "--min-time",
            "0",
            "--warmup",
            "0",
        ])
        .args(["--dataset", "set-4x4,easy-9x9", "--limit", "60"])
        .args(["--threads", "3", "--out", "run"])
        .args([
            "--library",
            &library("fx", FIXTURE, "fixture_solver", "sudoku-bench"),
        ])
        .assert()
        .success();
    let results: Vec<PuzzleResult> = rows(&dir.path().join("run/results.csv"));
    assert_eq!(results.len(), 120);
    assert!(results.iter().all(|r| r.status == RowStatus::Unique));
}

#[test]
fn contender_check_takes_a_library_and_names_what_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example(EXAMPLE).display().to_string();
    bin(dir.path())
        .args(["contender", "check", "--library"])
        .arg(format!("{lib}:example_solver:sudoku-bench"))
        .args(["--sizes", "4,9,16"])
        .assert()
        .success()
        .stdout(predicate::str::contains("loaded example_solver from"))
        .stdout(predicate::str::contains("no problems"));
    bin(dir.path())
        .args(["contender", "check", "--library"])
        .arg(format!("{lib}:example_tdoku:tdoku"))
        .assert()
        .success()
        .stdout(predicate::str::contains("sizes 9x9"));
    // A missing symbol, a file that is no library, a table of another ABI.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "hello").unwrap();
    for (spec, want) in [
        (
            format!("{lib}:no_such_fn:tdoku"),
            "no symbol no_such_fn".to_string(),
        ),
        (
            format!("{}:f:jsolve", notes.display()),
            format!("{}: not a shared library", notes.display()),
        ),
        // A function of another shape called as the table: it crashes the host.
        (
            format!("{lib}:example_tdoku:sudoku-bench"),
            "ended while loading the library (signal: 11 (SIGSEGV)".to_string(),
        ),
    ] {
        bin(dir.path())
            .args(["contender", "check", "--library", &spec])
            .assert()
            .code(1)
            .stdout(predicate::str::contains(want));
    }
}

#[test]
fn bad_library_entries_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example(EXAMPLE).display().to_string();
    let run = |args: &[&str], want: &str| {
        bin(dir.path())
            .args(["bench", "--quiet", "--dataset", "seeds-9x9", "--out", "run"])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(want.to_string()));
        assert!(!dir.path().join("run/results.csv").exists());
    };
    run(
        &["--library", &format!("x={lib}:missing_fn:tdoku")],
        &format!("contender x: {lib}: no symbol missing_fn"),
    );
    run(
        &["--library", &format!("x={lib}:example_tdoku:tdoku2")],
        &format!("--library \"x={lib}:example_tdoku:tdoku2\": \"tdoku2\" is not an ABI"),
    );
    std::fs::write(
        dir.path().join("c.toml"),
        "[[contender]]\nname = \"both\"\ncommand = [\"./a\"]\nlibrary = \"lib.so\"\nsymbol = \"f\"\nabi = \"tdoku\"\n",
    )
    .unwrap();
    run(
        &["--contenders", "c.toml"],
        "c.toml:2:8: contender both: give `library` or `command`, not both",
    );
    std::fs::write(
        dir.path().join("c.toml"),
        format!("[[contender]]\nname = \"rel\"\nlibrary = \"{}\"\nsymbol = \"nope\"\nabi = \"jsolve\"\n", lib),
    )
    .unwrap();
    run(&["--contenders", "c.toml"], "no symbol nope");
    // A declaration of the wrong type, and an unknown key, named with their place.
    let entry = format!("[[contender]]\nname = \"t\"\nlibrary = \"{lib}\"\nsymbol = \"example_tdoku\"\nabi = \"tdoku\"\n");
    std::fs::write(
        dir.path().join("c.toml"),
        format!("{entry}pencilmarks = \"yes\"\n"),
    )
    .unwrap();
    run(
        &["--contenders", "c.toml"],
        "c.toml:6:15: invalid type: string \"yes\", expected a boolean",
    );
    std::fs::write(
        dir.path().join("c.toml"),
        format!("{entry}solution = false\n"),
    )
    .unwrap();
    run(
        &["--contenders", "c.toml"],
        "c.toml:6:1: unknown field `solution`",
    );
}

#[test]
fn ctrl_c_in_a_later_count_of_a_scaling_run_stops_the_whole_run() {
    // Count 1 makes 5 calls; the 7th, in count 2, never returns (its time
    // limit is far off; the other worker may go on), so only Ctrl-C can end
    // count 2. Before one handler
    // served the whole process, that Ctrl-C went to count 1's flag.
    let dir = tempfile::tempdir().unwrap();
    let counter = dir.path().join("calls");
    let lib = library("fx", FIXTURE, "fixture_solver", "sudoku-bench");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
        .current_dir(dir.path())
        .env("SUDOKU_BENCH_FIXTURE", "hang:7")
        .env("SUDOKU_BENCH_FIXTURE_COUNTER", &counter)
        .args(["bench", "--quiet", "--no-report", "--min-time", "0"])
        .args(["--warmup", "0", "--rounds", "1", "--dataset", "easy-9x9"])
        .args(["--limit", "5", "--time-limit", "10m", "--threads", "1,2,4"])
        .args(["--out", "run", "--library", &lib])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let calls = || {
        std::fs::read_to_string(&counter)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
    };
    let start = std::time::Instant::now();
    while calls().is_none_or(|n| n < 7) {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(120),
            "the 7th call never came: {:?}",
            calls()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > std::time::Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("Ctrl-C did not stop the second count");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let run = dir.path().join("run");
    assert!(run.join("threads-2/results.csv").is_file());
    assert!(
        !run.join("threads-4").exists(),
        "no count starts after Ctrl-C"
    );
    assert!(
        run.join("scaling.csv").is_file(),
        "the finished counts are kept"
    );
    assert_eq!(running(&counter.display().to_string()), 0);
}

#[test]
fn a_host_told_a_mode_that_is_no_mode_says_so_and_never_guesses() {
    let dir = tempfile::tempdir().unwrap();
    let lib = example(EXAMPLE).display().to_string();
    let out = bin(dir.path())
        .args([
            "library-host",
            "--library",
            &lib,
            "--symbol",
            "example_tdoku",
        ])
        .args(["--abi", "tdoku"])
        .env("SUDOKU_BENCH_MODE", "uniq")
        .write_stdin("")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        text.starts_with("error \"uniq\" is not a mode (SUDOKU_BENCH_MODE)"),
        "{text}"
    );
}
