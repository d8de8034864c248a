//! `sudoku-bench compare` and `bench --save-baseline / --baseline`, end to end.

use predicates::prelude::*;
use std::path::Path;

use crate::common::{bin_in as bin, break_puzzles};

/// The arguments of a two-strategy run of an embedded set into `cwd/NAME`.
fn bench_args<'a>(name: &'a str, dataset: &'a str) -> Vec<&'a str> {
    vec![
        "bench",
        "--quiet",
        "--no-report",
        "--min-time",
        "0",
        "--threads",
        "1",
        "--solver",
        "bitset-mrv,dlx",
        "--dataset",
        dataset,
        "--out",
        name,
    ]
}

/// That run, saved as baseline `save` if given.
fn bench(cwd: &Path, name: &str, dataset: &str, save: Option<&str>) {
    let mut args = bench_args(name, dataset);
    if let Some(s) = save {
        args.extend(["--save-baseline", s]);
    }
    bin(cwd).args(&args).assert().success();
}

/// Rewrites every time of a run's results.csv (`median_ns`, `min_ns`) through `f`.
fn scale_times(results: &Path, f: impl Fn(u64) -> u64) {
    let mut r = csv::Reader::from_path(results).unwrap();
    let header = r.headers().unwrap().clone();
    let times: Vec<usize> = header
        .iter()
        .enumerate()
        .filter(|(_, h)| ["median_ns", "min_ns"].contains(h))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(times.len(), 2, "{header:?}");
    let rows: Vec<csv::StringRecord> = r.records().map(|x| x.unwrap()).collect();
    let mut w = csv::Writer::from_path(results).unwrap();
    w.write_record(&header).unwrap();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if times.contains(&i) {
                    f(c.parse().unwrap()).to_string()
                } else {
                    c.to_string()
                }
            })
            .collect();
        w.write_record(&cells).unwrap();
    }
    w.flush().unwrap();
}

#[test]
fn a_run_compared_with_itself_is_within_noise_and_exits_0() {
    let tmp = tempfile::tempdir().unwrap();
    bench(tmp.path(), "run", "easy-9x9", Some("main"));
    assert!(tmp.path().join("reports/baselines/main/run.json").is_file());
    bin(tmp.path())
        .args(["compare", "main", "run"])
        .assert()
        .success()
        .stdout(predicate::str::contains("within noise"))
        .stdout(predicate::str::contains("regressed").not());
    for f in ["compare.md", "compare.csv", "compare.json"] {
        assert!(tmp.path().join("run/compare").join(f).is_file(), "{f}");
    }
}

#[test]
fn a_faster_baseline_is_a_regression_and_exits_1() {
    let tmp = tempfile::tempdir().unwrap();
    bench(tmp.path(), "run", "easy-9x9", Some("quick"));
    // The baseline's times made 20% shorter: the run is 20% slower than it.
    scale_times(
        &tmp.path().join("reports/baselines/quick/results.csv"),
        |ns| ns * 8 / 10,
    );
    let out = bin(tmp.path())
        .args(["compare", "quick", "run", "--out", "cmp"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("bitset-mrv on easy-9x9: regressed, time per puzzle +25.0%, 95% CI"),
        "{text}"
    );
    assert!(
        text.contains("dlx on easy-9x9: regressed, time per puzzle +25.0%, 95% CI"),
        "{text}"
    );
    // bench --baseline gates the same way: a new run against a baseline. Its
    // times are scaled a millionfold either way, so the verdict cannot hang on
    // how fast this (possibly loaded) machine runs the new run.
    let baselines = tmp.path().join("reports/baselines");
    for (name, f) in [
        ("far-slower", (|ns| ns * 1_000_000) as fn(u64) -> u64),
        ("far-faster", |ns| ns / 1_000_000),
    ] {
        std::fs::create_dir_all(baselines.join(name)).unwrap();
        for file in ["run.json", "summary.csv", "results.csv"] {
            std::fs::copy(
                baselines.join("quick").join(file),
                baselines.join(name).join(file),
            )
            .unwrap();
        }
        scale_times(&baselines.join(name).join("results.csv"), f);
    }
    let mut args = bench_args("again", "easy-9x9");
    args.extend(["--baseline", "far-slower"]);
    bin(tmp.path()).args(&args).assert().success();
    let md = std::fs::read_to_string(tmp.path().join("again/compare/compare.md")).unwrap();
    assert!(md.contains("improved"), "{md}");
    let mut args = bench_args("again2", "easy-9x9");
    args.extend(["--baseline", "far-faster"]);
    bin(tmp.path())
        .args(&args)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "REGRESSED against baseline far-faster: see again2/compare/compare.md",
        ));
    assert!(tmp.path().join("again2/compare/compare.md").is_file());
}

#[test]
fn different_datasets_are_refused_and_unknown_baselines_listed() {
    let tmp = tempfile::tempdir().unwrap();
    bench(tmp.path(), "easy", "easy-9x9", Some("easy"));
    bench(tmp.path(), "four", "set-4x4", None);
    bin(tmp.path())
        .args(["compare", "easy", "four"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not comparable"));
    bin(tmp.path())
        .args(["compare", "nope", "four"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("baselines: easy"));
    // A typo in --baseline is caught before the run, not after it.
    bin(tmp.path())
        .args([
            "bench",
            "--quiet",
            "--dataset",
            "set-4x4",
            "--out",
            "x",
            "--baseline",
            "nope",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("baselines: easy"));
    assert!(!tmp.path().join("x/results.csv").exists());
}

/// Like with like: a `--limit` run, a mode-`first` run and a permuted run
/// against a full mode-`unique` run, through `compare` and `report`.
#[test]
fn comparisons_and_reports_across_runs_keep_unlike_runs_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        bin(tmp.path())
            .args(bench_args(name, "easy-9x9"))
            .args(extra)
            .assert()
            .success();
    };
    run("full", &[]);
    run("again", &[]);
    run("lim50", &["--limit", "50"]);
    run("first", &["--mode", "first"]);
    run("permuted", &["--permute", "--seed", "3"]);
    // compare refuses runs of different subsets, naming both…
    bin(tmp.path())
        .args(["compare", "full", "lim50"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "not comparable: the baseline measured all of each dataset's puzzles, the current run --limit 50",
        ));
    // …and names the subset two runs of one subset were compared on.
    run("lim50b", &["--limit", "50"]);
    let out = bin(tmp.path())
        .args(["compare", "lim50", "lim50b", "--noise-threshold", "50%"])
        .assert()
        .get_output()
        .clone();
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        text.contains("easy-9x9: both runs measured --limit 50 (50 of its 300 puzzles)"),
        "{text}"
    );
    // …and that permuted puzzles are not paired.
    let out = bin(tmp.path())
        .args(["compare", "full", "permuted", "--noise-threshold", "50%"])
        .assert()
        .get_output()
        .clone();
    let text = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(
        text.contains("the puzzles differ: as given in the baseline, --permute, seed 3 now"),
        "{text}"
    );
    // report across runs refuses unlike runs, naming what differs.
    for (other, says) in [
        ("first", "mode: first in first, unique in full"),
        ("lim50", "subset: --limit 50 in lim50, every puzzle in full"),
        (
            "permuted",
            "permutation: --permute (seed 3) in permuted, puzzles as given in full",
        ),
    ] {
        bin(tmp.path())
            .args(["report", "full", other, "--out", &format!("r-{other}")])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
    // Two runs of one machine are said to be that.
    bin(tmp.path())
        .args(["report", "full", "again", "--out", "same"])
        .assert()
        .success();
    let md = std::fs::read_to_string(tmp.path().join("same/report.md")).unwrap();
    assert!(md.contains("M1 and M2 ran on one machine"), "{md}");
}

/// Copies the files a comparison reads from one run folder to another.
fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for file in ["run.json", "summary.csv", "results.csv"] {
        std::fs::copy(from.join(file), to.join(file)).unwrap();
    }
}

#[test]
fn a_fix_passes_the_gate_and_a_bug_fails_it() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    bench(cwd, "run", "easy-9x9", None);
    // The same run, with 13 puzzles answered wrongly: the bug.
    copy_run(&cwd.join("run"), &cwd.join("buggy"));
    break_puzzles(&cwd.join("buggy/results.csv"), 13);
    // The fix: the bug as the baseline, the same times on the others.
    let out = bin(cwd)
        .args(["compare", "buggy", "run", "--out", "fix"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    for variant in ["bitset-mrv", "dlx"] {
        assert!(
            text.contains(&format!("{variant} on easy-9x9: improved: fixed 13 puzzles (13 → 0 failed); time per puzzle +0.0% over the ")),
            "{text}"
        );
    }
    assert!(text.contains("fixed 13; improved"), "{text}");
    let md = std::fs::read_to_string(cwd.join("fix/compare.md")).unwrap();
    assert!(md.contains("improved: fixed 13 puzzles"), "{md}");
    // The bug: the run as the baseline.
    let out = bin(cwd)
        .args(["compare", "run", "buggy", "--out", "bug"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("dlx on easy-9x9: regressed: 13 puzzles now fail (0 → 13 failed); "),
        "{text}"
    );
    // bench --baseline gates the same way: a new run against the bug saved
    // as a baseline, its times a millionfold (so the cost cannot regress on
    // a loaded machine): the new run fixes its 13 puzzles and passes.
    let baseline = cwd.join("reports/baselines/buggy");
    copy_run(&cwd.join("buggy"), &baseline);
    scale_times(&baseline.join("results.csv"), |ns| ns * 1_000_000);
    let mut args = bench_args("again", "easy-9x9");
    args.extend(["--baseline", "buggy"]);
    bin(cwd).args(&args).assert().success();
    let md = std::fs::read_to_string(cwd.join("again/compare/compare.md")).unwrap();
    assert!(
        md.contains("dlx on easy-9x9: improved: fixed 13 puzzles"),
        "{md}"
    );
}
