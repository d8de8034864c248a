//! A killed run keeps what it measured: `report` reads its folder, and
//! `bench --resume` measures only what it lacks and ends as the whole run
//! would have.

use crate::common::bin_in as bin;
use crate::common::{csv_rows, example};
use std::path::Path;
use std::time::{Duration, Instant};
use sudoku_bench::harness::{PuzzleResult, SummaryRow};

/// The fixture's table for hard-9x9 (puzzle and answer a line).
fn table(dir: &Path) -> std::path::PathBuf {
    let lines: String = crate::common::hard_lines(300)
        .iter()
        .map(|(p, s)| format!("{p}\t{s}\n"))
        .collect();
    let path = dir.join("table.tsv");
    std::fs::write(&path, lines).unwrap();
    path
}

/// The run's arguments: a strategy and a program that takes 10 ms a puzzle
/// (by the clock on the wall: a loaded machine makes it no faster), so the
/// run lasts seconds and writes its rows round by round.
fn args(table: &Path, out: &str) -> Vec<String> {
    let fx = format!(
        "fx={} {} slow:10000",
        example("fixture-contender").display(),
        table.display()
    );
    [
        "bench",
        "--solver",
        "bitset-mrv",
        "--contender",
        &fx,
        "--dataset",
        "hard-9x9",
        "--rounds",
        "10",
        "--min-time",
        "0",
        "--threads",
        "1",
        "--warmup",
        "0",
        "--quiet",
        "--no-report",
        "--out",
        out,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Runs the workbench with `words` in `dir` and kills it (SIGKILL) once
/// `file` has `at_least` lines: on the file, not on a clock.
fn kill_once(dir: &Path, words: &[String], file: &Path, at_least: usize) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
        .current_dir(dir)
        .args(words)
        .spawn()
        .unwrap();
    let waited = Instant::now();
    while lines(file) < at_least {
        assert!(waited.elapsed() < Duration::from_secs(300), "no rows came");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

fn lines(path: &Path) -> usize {
    std::fs::read(path)
        .map(|b| b.iter().filter(|&&c| c == b'\n').count())
        .unwrap_or(0)
}

/// What must match between a resumed run and an uninterrupted one.
fn counts(dir: &Path) -> Vec<(String, String, u64, u64, u64, u64, u64)> {
    let rows: Vec<SummaryRow> = csv_rows(&dir.join("summary.csv"));
    rows.into_iter()
        .map(|r| {
            (
                r.variant, r.dataset, r.puzzles, r.solved, r.wrong, r.errors, r.budget,
            )
        })
        .collect()
}

#[test]
fn a_killed_run_reports_and_resumes_to_what_a_whole_run_gives() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path());
    bin(dir.path()).args(args(&t, "whole")).assert().success();
    let whole = dir.path().join("whole");

    // The same run, killed (SIGKILL) once two of its ten rounds are on disk.
    let results = dir.path().join("cut/results.csv");
    kill_once(dir.path(), &args(&t, "cut"), &results, 1 + 2 * 2 * 30);
    let kept = lines(&results);
    assert!(kept < 1 + 2 * 300, "killed before the end ({kept} lines)");
    // A row cut off mid-write, as a kill during a write leaves one.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&results)
        .unwrap();
    std::io::Write::write_all(&mut f, b"external,fx,hard-9x9,29").unwrap();
    drop(f);

    // `report` works on the folder and says what it lacks.
    bin(dir.path()).args(["report", "cut"]).assert().success();
    let md = std::fs::read_to_string(dir.path().join("cut/summary.md")).unwrap();
    assert!(md.contains("cut short"), "{md}");
    assert!(md.contains("`fx` on hard-9x9:"), "{md}");
    assert!(md.contains("cut off by the kill"), "{md}");

    // Other options beside --resume are refused, naming them.
    bin(dir.path())
        .args(["bench", "--resume", "cut", "--threads", "2"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("--threads"));
    // --resume completes it: the same counts, rows and exit code as the whole run.
    bin(dir.path())
        .args(["bench", "--resume", "cut"])
        .assert()
        .success();
    let cut = dir.path().join("cut");
    assert_eq!(counts(&cut), counts(&whole));
    assert_eq!(lines(&cut.join("results.csv")), 1 + 2 * 300);
    let mut keys: Vec<(String, u64)> = csv_rows::<PuzzleResult>(&cut.join("results.csv"))
        .into_iter()
        .map(|r| (r.variant.to_string(), r.puzzle_index))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 2 * 300, "each puzzle once per contender");
    let rounds: Vec<u32> = csv_rows::<PuzzleResult>(&cut.join("results.csv"))
        .into_iter()
        .filter(|r| r.puzzle_index % 10 == 3)
        .map(|r| r.round)
        .collect();
    assert!(
        rounds.iter().all(|&r| r == 3),
        "each puzzle in its own round"
    );
    // Complete now: said so, exit 0.
    bin(dir.path())
        .args(["bench", "--resume", "cut"])
        .assert()
        .success()
        .stdout(predicates::str::contains("nothing to resume"));
    // A folder that is no run.
    std::fs::create_dir_all(dir.path().join("empty")).unwrap();
    bin(dir.path())
        .args(["bench", "--resume", "empty"])
        .assert()
        .failure()
        .stderr(predicates::str::contains("not a run folder"));
}

#[test]
fn a_killed_scaling_run_resumes_its_counts_and_writes_its_curve() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path());
    let mut words = args(&t, "sc");
    let at = words.iter().position(|w| w == "--threads").unwrap();
    words[at + 1] = "1,2".into();
    let first = dir.path().join("sc/threads-1/results.csv");
    kill_once(dir.path(), &words, &first, 1 + 2 * 2 * 30);
    assert!(
        !dir.path().join("sc/threads-2").exists(),
        "killed in the first count"
    );
    bin(dir.path())
        .args(["bench", "--resume", "sc"])
        .assert()
        .success();
    for count in ["threads-1", "threads-2"] {
        let rows: Vec<SummaryRow> =
            csv_rows(&dir.path().join("sc").join(count).join("summary.csv"));
        assert_eq!(rows.len(), 2, "{count}");
        assert!(
            rows.iter().all(|r| (r.puzzles, r.solved) == (300, 300)),
            "{count}"
        );
    }
    assert!(dir.path().join("sc/scaling.md").is_file());
}

#[test]
fn a_killed_study_resumes_to_what_a_whole_study_gives() {
    let dir = tempfile::tempdir().unwrap();
    // A node budget, not a time limit: what is censored does not depend on the machine.
    let study = |out: &str| -> Vec<String> {
        [
            "study",
            "clues",
            "--size",
            "9",
            "--clues",
            "1..60",
            "--puzzles",
            "20",
            "--rounds",
            "5",
            "--solver",
            "dlx,backtracking",
            "--node-budget",
            "100000",
            "--time-limit",
            "0",
            "--quiet",
            "--out",
            out,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    bin(dir.path()).args(study("whole")).assert().success();
    let shares = dir.path().join("cut/shares.csv");
    kill_once(dir.path(), &study("cut"), &shares, 1 + 5);
    if lines(&shares) == 1 + 60 * 2 * 5 {
        // The study ended before the kill came: leave its folder as a kill
        // after five shares would have, so that the resume is tested all the same.
        cut_back(&dir.path().join("cut"), 5);
    }
    bin(dir.path())
        .args(["study", "resume", "cut"])
        .assert()
        .success();
    type Row = (usize, String, String, u64, u64, u64, Option<f64>);
    let rows = |d: &str| -> Vec<Row> {
        csv_rows::<sudoku_bench::study::StudyRow>(&dir.path().join(d).join("study.csv"))
            .into_iter()
            .map(|r| {
                (
                    r.givens,
                    r.mode,
                    r.variant,
                    r.puzzles,
                    r.solved,
                    r.censored,
                    r.median_nodes,
                )
            })
            .collect()
    };
    assert_eq!(rows("cut"), rows("whole"));
    bin(dir.path())
        .args(["study", "resume", "cut"])
        .assert()
        .success()
        .stdout(predicates::str::contains("nothing to resume"));
}

/// Cuts a finished study's folder back to its first `k` shares, with a
/// solve cut off mid-row after them and study.json as it was when it began.
fn cut_back(dir: &Path, k: usize) {
    let shares = std::fs::read_to_string(dir.join("shares.csv")).unwrap();
    let kept: Vec<&str> = shares.lines().take(1 + k).collect();
    let solves: usize = kept[1..]
        .iter()
        .map(|l| l.rsplit(',').next().unwrap().parse::<usize>().unwrap())
        .sum();
    std::fs::write(dir.join("shares.csv"), kept.join("\n") + "\n").unwrap();
    let text = std::fs::read_to_string(dir.join("solves.csv")).unwrap();
    let mut rows: Vec<&str> = text.lines().take(1 + solves).collect();
    let torn = text.lines().nth(1 + solves).unwrap_or("dlx,dlx");
    rows.push(&torn[..torn.len() / 2]);
    std::fs::write(dir.join("solves.csv"), rows.join("\n")).unwrap();
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("study.json")).unwrap()).unwrap();
    json["run"]["finished"] = "".into();
    std::fs::write(dir.join("study.json"), json.to_string()).unwrap();
}
