//! `sudoku-bench hunt` and `report RUN_A RUN_B`, end to end.

use crate::common::bin_in as bin;
use predicates::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};

fn hunt(cwd: &Path, out: &str, extra: &[&str]) {
    bin(cwd)
        .args(["hunt", "--quiet", "--out", out])
        .args(extra)
        .assert()
        .success();
}

/// The puzzles of a hunt's `puzzles.txt`, without their comments.
fn puzzles(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("puzzles.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn a_seeded_hunt_repeats_and_its_puzzles_feed_bench_and_solve() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "--solver",
        "band",
        "--iterations",
        "1500",
        "--threads",
        "1",
        "--keep",
        "5",
        "--seed",
        "7",
    ];
    hunt(dir.path(), "a", &args);
    hunt(dir.path(), "b", &args);
    let (a, b) = (
        puzzles(&dir.path().join("a")),
        puzzles(&dir.path().join("b")),
    );
    assert_eq!(a, b, "the same seed, the same puzzles");
    assert_eq!(a.len(), 5);
    let text = std::fs::read_to_string(dir.path().join("a/puzzles.txt")).unwrap();
    assert!(text.contains("checked by dlx-crate"), "{text}");
    assert!(
        text.lines().nth(4).unwrap().contains("guesses (band)"),
        "{text}"
    );
    for f in ["found.csv", "progress.csv", "charts/hunt-progress.svg"] {
        assert!(dir.path().join("a").join(f).exists(), "{f}");
    }
    // The file is a dataset: solve says unique for each, bench runs it.
    let out = bin(dir.path())
        .args([
            "solve",
            "--solver",
            "dlx",
            "--mode",
            "unique",
            "a/puzzles.txt",
        ])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("unique")).count(),
        5,
        "{stdout}"
    );
    bin(dir.path())
        .args([
            "bench",
            "--quiet",
            "--no-report",
            "--min-time",
            "0",
            "--rounds",
            "1",
        ])
        .args([
            "--solver",
            "band",
            "--dataset",
            "a/puzzles.txt",
            "--out",
            "run",
        ])
        .assert()
        .success();
}

#[test]
fn the_progress_file_never_falls() {
    let dir = tempfile::tempdir().unwrap();
    hunt(
        dir.path(),
        "h",
        &[
            "--solver",
            "bitset-mrv",
            "--against",
            "dlx",
            "--objective",
            "nodes",
            "--iterations",
            "3000",
            "--threads",
            "2",
        ],
    );
    // A row each time an island betters its own best: the best of all
    // (`overall`) never falls, and each island's rises.
    let mut r = csv::Reader::from_path(dir.path().join("h/progress.csv")).unwrap();
    let header = r.headers().unwrap().clone();
    let named: Vec<&str> = header.iter().collect();
    assert_eq!(named[2..5], ["island", "best", "overall"]);
    let rows: Vec<(usize, f64, f64)> = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            let num = |i: usize| rec[i].parse::<f64>().unwrap();
            (rec[2].parse::<usize>().unwrap(), num(3), num(4))
        })
        .collect();
    assert!(rows.len() >= 2, "{rows:?}");
    assert!(rows.windows(2).all(|w| w[1].2 >= w[0].2), "{rows:?}");
    for i in 0..sudoku_bench::hunt::ISLANDS {
        let mine: Vec<f64> = rows.iter().filter(|r| r.0 == i).map(|r| r.1).collect();
        assert!(mine.windows(2).all(|w| w[1] > w[0]), "island {i}: {mine:?}");
    }
    let text = std::fs::read_to_string(dir.path().join("h/puzzles.txt")).unwrap();
    assert!(
        text.contains("relative to dlx") && text.contains(": bitset-mrv "),
        "{text}"
    );
}

#[test]
fn ctrl_c_keeps_the_best_found_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
        .current_dir(dir.path())
        .args([
            "hunt", "--quiet", "--solver", "band", "--budget", "10m", "--out", "h",
        ])
        .spawn()
        .unwrap();
    // Once the progress file has its first row (the best start), the hunt is under way.
    let progress = dir.path().join("h/progress.csv");
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until
        && std::fs::read_to_string(&progress).map_or(0, |t| t.lines().count()) < 2
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let kept = puzzles(&dir.path().join("h"));
    assert!(!kept.is_empty());
    let text = std::fs::read_to_string(dir.path().join("h/puzzles.txt")).unwrap();
    assert!(text.contains("stopped by Ctrl-C"), "{text}");
}

#[test]
fn bad_hunts_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |args: &[&str], says: &str| {
        bin(dir.path())
            .args(["hunt", "--quiet", "--out", "h"])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    };
    refused(
        &["--solver", "band", "--objective", "speed"],
        "invalid value 'speed' for '--objective <OBJECTIVE>'",
    );
    refused(
        &["--solver", "band", "--against", "band"],
        "two different contenders",
    );
    refused(&["--solver", "band", "--budget", "0s"], "budget above zero");
    refused(&["--solver", "nope"], "unknown contender \"nope\"");
    std::fs::write(dir.path().join("bad.txt"), "# nothing here\n").unwrap();
    refused(&["--solver", "band", "--from", "bad.txt"], "bad.txt");
    assert!(!dir.path().join("h/puzzles.txt").exists());
}

/// A bench run of two strategies on `datasets` into `cwd/name`, its run.json
/// then claiming the CPU `cpu`.
fn run_on(cwd: &Path, name: &str, datasets: &str, cpu: &str) {
    run_against(cwd, name, datasets, cpu, "dlx");
}

/// [`run_on`], measured against `reference`.
fn run_against(cwd: &Path, name: &str, datasets: &str, cpu: &str, reference: &str) {
    bin(cwd)
        .args([
            "bench",
            "--quiet",
            "--no-report",
            "--min-time",
            "0",
            "--rounds",
            "2",
            "--threads",
            "1",
        ])
        .args([
            "--solver",
            "band,dlx",
            "--reference",
            reference,
            "--dataset",
            datasets,
            "--out",
            name,
        ])
        .assert()
        .success();
    let path = cwd.join(name).join("run.json");
    let mut info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    info["cpu_model"] = cpu.into();
    std::fs::write(&path, serde_json::to_string_pretty(&info).unwrap()).unwrap();
}

#[test]
fn one_report_across_two_machines_names_both() {
    let dir = tempfile::tempdir().unwrap();
    run_on(
        dir.path(),
        "zen",
        "easy-9x9,medium-9x9,set-4x4",
        "AMD EPYC Zen 3",
    );
    run_on(
        dir.path(),
        "xeon",
        "medium-9x9,set-4x4,easy-9x9",
        "Intel Xeon Emerald Rapids",
    );
    bin(dir.path())
        .args(["report", "zen", "xeon", "--out", "both"])
        .assert()
        .success()
        .stdout(predicate::str::contains("2 runs, 2 datasets, 2 charts"));
    let md = std::fs::read_to_string(dir.path().join("both/report.md")).unwrap();
    for s in [
        "AMD EPYC Zen 3",
        "Intel Xeon Emerald Rapids",
        "M1 speed",
        "M2 speed",
        "## easy-9x9",
        "## medium-9x9",
        "dlx (reference)",
        // band does not handle 4x4: one contender there, nothing to compare.
        "Left out (not in every run, or one contender only): set-4x4.",
    ] {
        assert!(md.contains(s), "{s}: {md}");
    }
    let html = std::fs::read_to_string(dir.path().join("both/report.html")).unwrap();
    assert!(html.contains("Intel Xeon Emerald Rapids") && html.contains("<svg"));
    assert!(dir
        .path()
        .join("both/charts/machines-easy-9x9.svg")
        .exists());
}

#[test]
fn runs_with_no_common_dataset_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    run_on(dir.path(), "a", "easy-9x9", "cpu a");
    run_on(dir.path(), "b", "set-4x4", "cpu b");
    bin(dir.path())
        .args(["report", "a", "b", "--out", "both"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("share no dataset"));
}

#[test]
fn a_library_contender_is_hunted_by_the_counters_it_reports() {
    let dir = tempfile::tempdir().unwrap();
    let lib = format!(
        "ex={}:example_solver:sudoku-bench",
        crate::common::example("libexample_library.so").display()
    );
    hunt(
        dir.path(),
        "h",
        &[
            "--library",
            &lib,
            "--solver",
            "ex",
            "--against",
            "dlx",
            "--objective",
            "nodes",
            "--iterations",
            "400",
            "--threads",
            "2",
            "--keep",
            "3",
        ],
    );
    let text = std::fs::read_to_string(dir.path().join("h/puzzles.txt")).unwrap();
    assert_eq!(puzzles(&dir.path().join("h")).len(), 3, "{text}");
    assert!(
        text.contains(": ex ") && text.contains("nodes, dlx "),
        "{text}"
    );
}

#[test]
fn a_silent_contender_cannot_hold_a_hunt_past_its_time_limit() {
    // Without --time-limit a program that never answers held the hunt forever.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("table.tsv"), "").unwrap();
    let silent = format!(
        "fx={} {} hang",
        crate::common::example("fixture-contender").display(),
        dir.path().join("table.tsv").display()
    );
    let base = [
        "--contender",
        &silent,
        "--solver",
        "fx",
        "--time-limit",
        "100ms",
        "--iterations",
        "2",
        "--islands",
        "1",
        "--threads",
        "1",
    ];
    // By time: each stopped solve's cost is a lower bound.
    hunt(
        dir.path(),
        "t",
        &[&base[..], &["--objective", "time", "--repeat", "1"]].concat(),
    );
    let text = std::fs::read_to_string(dir.path().join("t/puzzles.txt")).unwrap();
    assert!(
        text.contains("a limit stopped a solve: a lower bound"),
        "{text}"
    );
    // By guesses: a stopped program reported none, which the hunt says.
    bin(dir.path())
        .args(["hunt", "--quiet", "--out", "g"])
        .args(base)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "fx failed on the first puzzle: fx: no answer within the time limit (100ms); killed",
        ));
    let needle = dir.path().display().to_string();
    assert_eq!(crate::common::running(&needle), 0, "no process is left");
}

#[test]
fn runs_against_different_references_are_refused_with_the_way_out() {
    let dir = tempfile::tempdir().unwrap();
    run_against(dir.path(), "a", "medium-9x9", "cpu a", "dlx");
    run_against(dir.path(), "b", "medium-9x9", "cpu b", "band");
    bin(dir.path())
        .args(["report", "a", "b", "--out", "both"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("against band").and(predicate::str::contains("--reference")),
        );
}

#[test]
fn merged_hunts_keep_each_puzzle_once_up_to_symmetry_and_recheck_each() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2"] {
        let args = ["--solver", "band", "--iterations", "1500", "--keep", "4"];
        hunt(dir.path(), seed, &[&args[..], &["--seed", seed]].concat());
    }
    // A third folder: a copy of seed 1's best, a symmetric copy of it, and
    // a puzzle with many solutions.
    let best = puzzles(&dir.path().join("1"))[0].clone();
    let grid = sudoku_bench::format::read_str("b", &best, &Default::default())
        .unwrap()
        .puzzles
        .remove(0)
        .grid;
    let t = sudoku_bench::transform::Transform::random(grid.geometry(), &mut {
        sudoku_bench::seeded::stream(9, 0)
    });
    let alphabet = sudoku_bench::format::Alphabet::default_for(grid.geometry());
    let twin = sudoku_bench::format::write_line(&t.apply(&grid), &alphabet);
    assert_ne!(twin, best);
    std::fs::create_dir(dir.path().join("3")).unwrap();
    let many = "1".to_string() + &".".repeat(80);
    let text = format!("# by hand\n{best}\n{twin}  # the same, turned\n{many}\n");
    std::fs::write(dir.path().join("3/puzzles.txt"), text).unwrap();
    bin(dir.path())
        .args([
            "hunt", "--solver", "band", "--merge", "1", "2", "3", "--out", "m",
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "3/puzzles.txt:4: dlx-crate says multiple, not one solution",
        ))
        .stdout(predicate::str::contains("from 3 hunts"));
    let kept = puzzles(&dir.path().join("m"));
    let read = 4 + 4 + 3;
    let text = std::fs::read_to_string(dir.path().join("m/puzzles.txt")).unwrap();
    assert!(text.contains(&format!("{read} puzzles read")), "{text}");
    // Seed 1's best once, with its two copies named.
    assert_eq!(
        kept.iter().filter(|p| **p == best || **p == twin).count(),
        1,
        "{text}"
    );
    assert!(text.contains("(and 2 copies up to symmetry)"), "{text}");
    assert!(kept.len() <= 8);
    // Scored again here: each score is band's guesses on the puzzle, best first.
    let mut scores = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let g: f64 = line
            .split("# ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap();
        scores.push(g);
    }
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
}

#[test]
fn a_merge_without_solver_scores_for_what_its_hunts_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let pair = [
        "--solver",
        "bitset-mrv",
        "--against",
        "dlx",
        "--objective",
        "nodes",
    ];
    for seed in ["1", "2"] {
        let args = ["--iterations", "300", "--keep", "3", "--seed", seed];
        hunt(dir.path(), seed, &[&pair[..], &args[..]].concat());
    }
    let record = |folder: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.path().join(folder).join("hunt.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    assert_eq!(
        record("1")["score"],
        serde_json::json!({"hunted": "bitset-mrv", "against": "dlx", "objective": "nodes"})
    );
    bin(dir.path())
        .args(["hunt", "--merge", "1", "2", "--out", "m"])
        .assert()
        .success()
        .stdout(predicate::str::contains("from 2 hunts"));
    let text = std::fs::read_to_string(dir.path().join("m/puzzles.txt")).unwrap();
    assert!(
        text.contains("bitset-mrv needs the most nodes relative to dlx"),
        "{text}"
    );
    // The merge keeps the same record: it merges again without --solver.
    assert_eq!(record("m"), record("1"));
    // Folders hunted for different scores: refused, naming both.
    hunt(
        dir.path(),
        "3",
        &["--solver", "band", "--iterations", "300", "--keep", "3"],
    );
    bin(dir.path())
        .args(["hunt", "--merge", "m", "3", "--out", "x"])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("bitset-mrv / dlx nodes")
                .and(predicate::str::contains("band guesses"))
                .and(predicate::str::contains("--solver")),
        );
    // A folder with no record (an older hunt, puzzles by hand): refused
    // unless --solver names the contender.
    std::fs::create_dir(dir.path().join("4")).unwrap();
    std::fs::copy(
        dir.path().join("1/puzzles.txt"),
        dir.path().join("4/puzzles.txt"),
    )
    .unwrap();
    bin(dir.path())
        .args(["hunt", "--merge", "1", "4", "--out", "y"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--merge 4: no hunt.json there"));
    bin(dir.path())
        .args([
            "hunt", "--solver", "band", "--merge", "1", "4", "--out", "y",
        ])
        .assert()
        .success();
    // --against or --objective without --solver would mix two scores: refused.
    bin(dir.path())
        .args(["hunt", "--merge", "1", "--objective", "time", "--out", "z"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--solver <NAME>"));
}
