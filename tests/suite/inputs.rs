//! Every input checked where it enters: a dataset's answers, numbers on the
//! command line, and output that cannot be written.

use crate::common::bin_in as bin;
use predicates::prelude::*;

const P: &str = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const S: &str = "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

#[test]
fn a_dataset_answer_that_is_no_solution_refuses_the_dataset_before_anything_runs() {
    let tmp = tempfile::tempdir().unwrap();
    // Complete, keeping the givens, but 7 twice in row 9.
    let broken = format!("{}7", &S[..80]);
    std::fs::write(
        tmp.path().join("bad.txt"),
        format!("{P} {S}\n{P} {broken}\n"),
    )
    .unwrap();
    std::fs::write(tmp.path().join("short.txt"), format!("{P} 12345\n")).unwrap();
    for (file, at, what) in [
        ("bad.txt", "bad.txt:2:163", "digit 7 appears twice in row 9"),
        ("short.txt", "short.txt:1:83", "a token of 5 symbols"),
    ] {
        bin(tmp.path())
            .args([
                "bench",
                "--quiet",
                "--no-report",
                "--solver",
                "dlx",
                "--dataset",
                file,
                "--out",
                "run",
            ])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(at))
            .stderr(predicate::str::contains(what));
        assert!(
            !tmp.path().join("run/results.csv").exists(),
            "{file}: nothing ran"
        );
    }
}

#[test]
fn a_puzzle_of_several_solutions_with_an_answer_is_verified_under_mode_first() {
    let tmp = tempfile::tempdir().unwrap();
    // Several solutions; the line gives the one dlx finds first, band
    // finds another.
    let e2 = "74.12.65.263495187.59678.43.1.....28.82..4.61.76....3..24.3.81689.54.372.3.2.159.";
    let answer =
        "748123659263495187159678243415367928382954761976812435524739816891546372637281594";
    std::fs::write(tmp.path().join("two.txt"), format!("{e2} {answer}\n")).unwrap();
    bin(tmp.path())
        .args([
            "bench",
            "--quiet",
            "--no-report",
            "--min-time",
            "0",
            "--mode",
            "first",
            "--solver",
            "dlx,bitset-mrv,band",
            "--dataset",
            "two.txt",
            "--out",
            "run",
        ])
        .assert()
        .success();
    let rows: Vec<sudoku_bench::harness::PuzzleResult> =
        crate::common::csv_rows(&tmp.path().join("run/results.csv"));
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|r| r.status.is_solved()), "{rows:?}");
}

#[test]
fn numbers_that_cannot_be_honoured_are_refused_before_anything_runs() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("p.txt"), format!("{P}\n")).unwrap();
    let long = "b".repeat(300);
    let cases: [(&[&str], &str); 8] = [
        (
            &[
                "bench",
                "--dataset",
                "set-4x4",
                "--time-limit",
                "0",
                "--out",
                "r",
            ],
            "no time",
        ),
        (
            &[
                "bench",
                "--dataset",
                "set-4x4",
                "--time-limit",
                "0ms",
                "--out",
                "r",
            ],
            "no time",
        ),
        (&["solve", "--time-limit", "0", "p.txt"], "no time"),
        (&["rate", "--permutations", "0", "p.txt"], "1 or more"),
        (
            &["generate", "--min-guesses", "NaN"],
            "mean number of guesses",
        ),
        (
            &["generate", "--max-guesses", "inf"],
            "mean number of guesses",
        ),
        (&["generate", "--max-attempts", "0"], "1 or more"),
        (
            &[
                "bench",
                "--dataset",
                "set-4x4",
                "--save-baseline",
                &long,
                "--out",
                "r",
            ],
            "1 to 100",
        ),
    ];
    for (words, said) in cases {
        bin(tmp.path())
            .args(words)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(said));
        assert!(!tmp.path().join("r").exists(), "{words:?}: nothing ran");
    }
}

#[test]
fn output_that_cannot_be_written_is_an_error() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("NOTICE: no /dev/full here: SKIPPED");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for name in ["run", "run2"] {
        bin(tmp.path())
            .args(["bench", "--quiet", "--no-report", "--min-time", "0"])
            .args(["--solver", "dlx", "--dataset", "set-4x4", "--out", name])
            .assert()
            .success();
    }
    let runs: [&[&str]; 5] = [
        &["solvers"],
        &["datasets"],
        &["compare", "run", "run"],
        &["history", "run", "run2", "--out", "h"],
        &[
            "bench",
            "--no-report",
            "--min-time",
            "0",
            "--solver",
            "dlx",
            "--dataset",
            "set-4x4",
            "--out",
            "again",
        ],
    ];
    for words in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
            .current_dir(tmp.path())
            .args(words)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{words:?}: {err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{words:?}: {err}"
        );
    }
    // A reader that went away before anything was written is no error.
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
        .arg("solvers")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_byte_order_mark_before_the_first_puzzle_is_skipped() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("bom.txt"), format!("\u{FEFF}{P}\n")).unwrap();
    bin(tmp.path())
        .args(["solve", "bom.txt"])
        .assert()
        .success()
        .stdout(predicate::str::contains(S));
}

#[test]
fn contender_check_fails_a_program_that_only_answers_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let t = crate::common::table(tmp.path(), &["hard-9x9"]);
    bin(tmp.path())
        .args(["contender", "check", "--sizes", "9", "--"])
        .arg(crate::common::example("fixture-contender"))
        .arg(&t)
        .arg("budget")
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "9x9 puzzle with one solution: answered `budget` (gave up)",
        ))
        .stdout(predicate::str::contains("no problems").not());
}
