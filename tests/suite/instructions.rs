//! `bench --measure instructions`: each call's instructions counted under
//! valgrind's callgrind, the same on every run of a build, and `compare`
//! judging them exactly. The tests that need valgrind say so and pass
//! without it (`.ci/run` installs it).

use predicates::prelude::*;
use std::collections::HashMap;
use std::path::Path;

use crate::common::{bin_in as bin, csv_rows};

fn valgrind() -> bool {
    let ok = std::process::Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("valgrind is not installed: the instruction-counting test is skipped");
    }
    ok
}

/// Every strategy variant's instructions per puzzle in the run `cwd/name`.
fn counted(cwd: &Path, name: &str) -> HashMap<String, f64> {
    let rows: Vec<sudoku_bench::harness::SummaryRow> =
        csv_rows(&cwd.join(name).join("summary.csv"));
    rows.into_iter()
        .map(|r| {
            let n = r.instructions_per_puzzle.expect("every row counted");
            (r.variant, n)
        })
        .collect()
}

#[test]
fn counts_repeat_run_after_run_and_compare_finds_no_change() {
    if !valgrind() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str| {
        bin(tmp.path())
            .args(["bench", "--measure", "instructions", "--solver", "all"])
            .args(["--dataset", "hard-9x9", "--limit", "6", "--warmup", "2"])
            .args(["--no-report", "--out", name])
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "Instructions per puzzle, counted by callgrind",
            ));
    };
    run("a");
    run("b");
    let (a, b) = (counted(tmp.path(), "a"), counted(tmp.path(), "b"));
    assert_eq!(a.len(), sudoku_bench::solver::SolverId::ALL.len(), "{a:?}");
    for (variant, n) in &a {
        let m = b[variant];
        assert!(*n > 1_000.0, "{variant}: {n} instructions a puzzle");
        // Most variants repeat exactly; a few tens of instructions a puzzle
        // still move at times (0.023% of bitset-mrv's 44k once in about ten
        // runs of this test, cause not yet found: see issue 50's note), so
        // the bound is 0.1%, ten times under the gate's default threshold.
        let drift = (m - n).abs() / n;
        assert!(
            drift <= 1e-3,
            "{variant}: {n} then {m} ({:.4}%)",
            100.0 * drift
        );
    }
    // run.json says what was measured; results.csv has a count a puzzle.
    let json = std::fs::read_to_string(tmp.path().join("a/run.json")).unwrap();
    assert!(json.contains("\"measure\": \"instructions\""), "{json}");
    let md = std::fs::read_to_string(tmp.path().join("a/summary.md")).unwrap();
    assert!(md.contains("## Instructions per puzzle"), "{md}");
    bin(tmp.path()).args(["report", "a"]).assert().success();
    assert!(tmp.path().join("a/charts/instructions.svg").is_file());
    bin(tmp.path())
        .args(["compare", "a", "b"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "in instructions per puzzle (noise threshold ±1.0%)",
        ))
        .stdout(predicate::str::contains(
            "within ±1.0% in instructions per puzzle",
        ));
}

#[test]
fn a_handicap_of_one_percent_more_work_is_flagged_at_half_a_percent() {
    if !valgrind() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        bin(tmp.path())
            .args([
                "bench",
                "--quiet",
                "--measure",
                "instructions",
                "--solver",
                "band,dlx",
            ])
            .args([
                "--dataset",
                "hard-9x9",
                "--limit",
                "10",
                "--no-report",
                "--out",
                name,
            ])
            .args(extra)
            .assert()
            .success();
    };
    run("base", &[]);
    run("one", &["--handicap", "dlx=1%"]);
    run("five", &["--handicap", "band=5%"]);
    let (base, one) = (counted(tmp.path(), "base"), counted(tmp.path(), "one"));
    assert_eq!(base["band"], one["band"]);
    let extra = one["dlx"] / base["dlx"] - 1.0;
    assert!(
        (0.0095..0.0105).contains(&extra),
        "{:.4}% more",
        100.0 * extra
    );
    bin(tmp.path())
        .args(["compare", "base", "one", "--noise-threshold", "0.5%"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "dlx on hard-9x9: regressed, +1.0% instructions per puzzle",
        ));
    // 5% more is beyond the default threshold of 1%.
    bin(tmp.path())
        .args(["compare", "base", "five"])
        .assert()
        .code(1)
        .stdout(predicate::str::contains("band on hard-9x9: regressed, +5."));
}

#[test]
fn what_cannot_be_counted_is_refused_before_valgrind_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let base = [
        "bench",
        "--measure",
        "instructions",
        "--dataset",
        "set-4x4",
        "--out",
        "x",
    ];
    bin(tmp.path())
        .args(base)
        .args(["--contender", "echoer=cat"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "echoer cannot be counted that way",
        ));
    // No valgrind on the PATH: one line naming the package.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    bin(tmp.path())
        .args(base)
        .args(["--solver", "dlx"])
        .env("PATH", &empty)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("install the `valgrind` package"));
    assert!(!tmp.path().join("x").exists(), "nothing was measured");
}
