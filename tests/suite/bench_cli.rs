//! `sudoku-bench bench`: the default run, bad options and files, interruption.

use predicates::prelude::*;
use std::path::Path;
use std::time::{Duration, Instant};
use sudoku_bench::harness::{PuzzleResult, SolveRecord, SummaryRow};

const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

use crate::common::bin;

use crate::common::csv_rows as rows;

#[test]
fn default_run_writes_a_run_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let run = bin()
        .args(["bench", "--out", out.to_str().unwrap()])
        .assert()
        .success();
    // The terminal leads with the answer in 100 columns; the full tables are in summary.md.
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).into_owned();
    let wide: Vec<&str> = stdout.lines().filter(|l| l.chars().count() > 100).collect();
    assert!(wide.is_empty(), "lines over 100 columns: {wide:#?}");
    assert!(
        stdout.contains("Speed against each dataset's reference"),
        "{stdout}"
    );
    assert!(
        stdout.contains("faster than") && stdout.contains("summary.md"),
        "{stdout}"
    );
    assert!(!stdout.contains("0.00×"), "{stdout}");
    for f in ["results.csv", "summary.csv", "summary.md", "run.json"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    assert!(
        !out.join("solves.csv").exists(),
        "solves are kept only when asked"
    );
    let results: Vec<PuzzleResult> = rows(&out.join("results.csv"));
    let summary: Vec<SummaryRow> = rows(&out.join("summary.csv"));
    let strategies = ["naive-exact-cover", "backtracking", "bitset-mrv", "dlx"];
    for s in strategies {
        assert!(
            summary.iter().any(|r| r.variant == s),
            "{s} missing from the summary"
        );
    }
    let total: u64 = summary.iter().map(|r| r.puzzles).sum();
    assert_eq!(total as usize, results.len());
    assert!(summary.iter().all(|r| r.wrong == 0 && r.errors == 0));
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    // One puzzle, one row: every summary row counts its dataset's puzzles,
    // however many passes --min-time made, and the solves behind them.
    for r in &summary {
        let ds = run["datasets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["name"] == r.dataset.as_str())
            .unwrap();
        assert_eq!(
            r.puzzles,
            ds["puzzles_run"].as_u64().unwrap(),
            "{} on {}",
            r.variant,
            r.dataset
        );
        let solves: u64 = results
            .iter()
            .filter(|p| p.variant.as_ref() == r.variant && p.dataset.as_ref() == r.dataset)
            .map(|p| u64::from(p.solves))
            .sum();
        assert_eq!(r.solves, solves);
        assert!(r.solves >= r.puzzles);
    }
    assert!(
        summary.iter().any(|r| r.solves > 2 * r.puzzles),
        "--min-time made several passes somewhere"
    );
    assert_eq!(run["interrupted"], false);
    assert!(run["datasets"][0]["sha256"].as_str().unwrap().len() == 64);
    assert!(!run["finished"].as_str().unwrap().is_empty());
    // The tool's own time beside the solvers': the timed solves are at least
    // every puzzle's fastest solve times its solves, and every phase fits in the whole.
    let own = &run["own_time"];
    let f = |k: &str| {
        own[k]
            .as_f64()
            .unwrap_or_else(|| panic!("own_time.{k}: {own}"))
    };
    let least_ns: u64 = results.iter().map(|r| r.min_ns * u64::from(r.solves)).sum();
    assert!(f("timed_solves_s") >= least_ns as f64 / 1e9 - 1e-6, "{own}");
    let phases = ["load_s", "run_s", "statistics_s", "write_s", "report_s"];
    assert!(phases.iter().all(|k| f(k) >= 0.0), "{own}");
    assert!(
        f("report_s") > 0.0,
        "the default run draws the report: {own}"
    );
    assert!(
        phases.iter().map(|k| f(k)).sum::<f64>() <= f("wall_s"),
        "{own}"
    );
    let threads = run["options"]["threads"].as_f64().unwrap();
    let share = (f("wall_s") * threads - f("timed_solves_s")) / f("timed_solves_s");
    assert!((f("own_share") - share).abs() < 1e-9, "{own}");
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(md.contains("| dataset") && md.contains("bitset-mrv"));
}

#[test]
fn summary_table_is_printed_and_options_apply() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hard.txt");
    std::fs::write(&file, format!("{HARD}\n{HARD}\n{HARD}\n")).unwrap();
    let out = dir.path().join("r");
    bin()
        .args([
            "bench",
            "--min-time",
            "0",
            "--solver",
            "dlx,bitset-mrv",
            "--dataset",
            file.to_str().unwrap(),
            "--threads",
            "1",
            "--repeat",
            "3",
            "--permute",
            "--keep-solves",
            "--out",
            out.to_str().unwrap(),
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(" hard\n").and(predicate::str::contains("dlx ")));
    // One row per strategy and puzzle in results.csv; every solve in solves.csv.
    let results: Vec<PuzzleResult> = rows(&out.join("results.csv"));
    let solves: Vec<SolveRecord> = rows(&out.join("solves.csv"));
    assert_eq!((results.len(), solves.len()), (2 * 3, 2 * 3 * 3));
    assert!(results.iter().all(|r| r.threads == 1
        && r.solves == 3
        && r.status == sudoku_bench::harness::RowStatus::Unique));
    for r in &results {
        let mut ns: Vec<u64> = solves
            .iter()
            .filter(|s| s.variant == r.variant && s.puzzle_index == r.puzzle_index)
            .map(|s| s.solve_ns)
            .collect();
        ns.sort_unstable();
        assert_eq!(
            (ns.len(), ns[0], ns[1]),
            (3, r.min_ns, r.median_ns),
            "{r:?}"
        );
    }
    let summary: Vec<SummaryRow> = rows(&out.join("summary.csv"));
    assert!(summary.iter().all(|s| s.puzzles == 3 && s.solves == 9));
    // The kept solves add up to the timed solves of run.json.
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let timed = run["own_time"]["timed_solves_s"].as_f64().unwrap();
    let sum: u64 = solves.iter().map(|s| s.solve_ns).sum();
    assert!(
        (timed - sum as f64 / 1e9).abs() < 1e-6,
        "{timed} against {sum} ns"
    );
}

#[test]
fn bad_options_and_files_fail_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = out.to_str().unwrap();
    bin()
        .args(["bench", "--solver", "quantum", "--out", o])
        .assert()
        .failure()
        .stderr(predicate::str::contains("\"quantum\" is not a strategy"));
    bin()
        .args(["bench", "--dataset", "no-such-set", "--out", o])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no dataset named \"no-such-set\""));
    bin()
        .args(["bench", "--threads", "0", "--out", o])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--threads"));
    for zero in ["--repeat", "--limit", "--sample", "--count-limit"] {
        bin()
            .args(["bench", zero, "0", "--out", o])
            .assert()
            .failure()
            .stderr(predicate::str::contains(format!(
                "invalid value '0' for '{zero} <"
            )))
            .stderr(predicate::str::contains(
                "expected a whole number of 1 or more",
            ));
    }
    bin()
        .args(["bench", "--node-budget", "lots", "--out", o])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--node-budget"));
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, format!("{HARD}\n{}x\n", &HARD[..80])).unwrap();
    bin()
        .args(["bench", "--dataset", bad.to_str().unwrap(), "--out", o])
        .assert()
        .failure()
        .stderr(predicate::str::contains("bad.txt:2:81: unknown symbol 'x'"));
}

#[test]
fn a_run_folder_is_not_overwritten_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = out.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut c = bin();
        c.args(["bench", "--quiet", "--dataset", "seeds-9x9", "--out", o])
            .args(extra);
        c
    };
    run(&["--solver", "dlx"]).assert().success();
    let first = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let stale = out.join("charts").join("cactus-gone.svg");
    std::fs::write(&stale, "<svg/>").unwrap();
    let notes = out.join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();

    run(&["--solver", "bitset-mrv"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "already holds a run (results.csv,",
        ))
        .stderr(predicate::str::contains("--force"));
    assert_eq!(
        std::fs::read_to_string(out.join("results.csv")).unwrap(),
        first
    );

    run(&["--solver", "bitset-mrv", "--force"])
        .assert()
        .success();
    let results: Vec<PuzzleResult> = rows(&out.join("results.csv"));
    assert!(!results.is_empty() && results.iter().all(|r| &*r.variant == "bitset-mrv"));
    assert!(!stale.exists(), "charts of the replaced run are gone");
    assert!(out.join("report.md").is_file());
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine");
}

#[test]
fn runs_without_out_get_folders_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    for _ in 0..3 {
        bin()
            .current_dir(dir.path())
            .args(["bench", "--quiet", "--no-report", "--dataset", "set-4x4"])
            .args(["--solver", "dlx", "--limit", "2", "--min-time", "0"])
            .assert()
            .success();
    }
    let mut runs: Vec<String> = std::fs::read_dir(dir.path().join("reports"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    runs.sort();
    assert_eq!(runs.len(), 3, "{runs:?}");
    assert!(runs.iter().all(|r| r.starts_with("run-")));
    for r in &runs {
        let rows: Vec<PuzzleResult> = rows(&dir.path().join("reports").join(r).join("results.csv"));
        assert_eq!(rows.len(), 2);
    }
}

fn wait_for_rows(path: &Path, n: usize) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if std::fs::read_to_string(path)
            .map(|s| s.lines().count() > n)
            .unwrap_or(false)
        {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no rows appeared in {}", path.display());
}

fn slow_run(dir: &Path) -> (std::process::Child, std::path::PathBuf) {
    let file = dir.join("many.txt");
    std::fs::write(&file, format!("{HARD}\n").repeat(400)).unwrap();
    let out = dir.join("r");
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
        .args([
            "bench",
            "--quiet",
            "--solver",
            "naive-exact-cover-pure",
            "--node-budget",
            "none",
            "--time-limit",
            "20ms",
            "--warmup",
            "0",
            "--threads",
            "1",
            "--dataset",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    (child, out)
}

#[test]
fn a_killed_run_keeps_valid_rows() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, out) = slow_run(dir.path());
    let results = out.join("results.csv");
    wait_for_rows(&results, 5);
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let text = std::fs::read_to_string(&results).unwrap();
    assert!(text.ends_with('\n'), "the last row is complete");
    let records: Vec<PuzzleResult> = rows(&results);
    assert!(records.len() >= 5 && records.len() < 400);
    assert!(records
        .iter()
        .all(|r| r.status == sudoku_bench::harness::RowStatus::Budget));
    assert!(
        out.join("run.json").is_file(),
        "run.json is written before measuring"
    );
}

#[test]
fn an_interrupted_run_writes_its_summary() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, out) = slow_run(dir.path());
    wait_for_rows(&out.join("results.csv"), 3);
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let records: Vec<PuzzleResult> = rows(&out.join("results.csv"));
    let summary: Vec<SummaryRow> = rows(&out.join("summary.csv"));
    assert_eq!(summary[0].puzzles as usize, records.len());
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(run["interrupted"], true);
}

#[test]
fn rounds_that_cannot_work_are_refused_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = out.to_str().unwrap();
    bin()
        .args(["bench", "--rounds", "0", "--out", o])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "invalid value '0' for '--rounds <",
        ));
    bin()
        .args(["bench", "--rounds", "5", "--min-time", "2ms", "--out", o])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "--min-time 2ms over 5 rounds gives each round 400µs",
        ));
    assert!(!out.join("results.csv").exists(), "nothing ran");
}

#[test]
fn the_default_rounds_shrink_on_a_small_dataset_and_the_summary_says_what_intervals_cover() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let run = bin()
        .args(["bench", "--solver", "dlx,bitset-mrv", "--no-report"])
        .args(["--dataset", "seeds-9x9,set-4x4", "--min-time", "0"])
        .args(["--out", out.to_str().unwrap()])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        text.contains(
            "note: seeds-9x9 is measured in 1 round, not the 5 asked (3 puzzles; 2 a round at least)"
        ),
        "{text}"
    );
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).into_owned();
    assert!(
        stdout.contains("95% intervals are t-intervals over up to 5 rounds")
            && stdout
                .contains("On seeds-9x9 (too few puzzles for rounds) they cover the puzzles only."),
        "{stdout}"
    );
    let summary: Vec<SummaryRow> = rows(&out.join("summary.csv"));
    let rounds = |d: &str| summary.iter().find(|r| r.dataset == d).unwrap().rounds;
    assert_eq!((rounds("seeds-9x9"), rounds("set-4x4")), (1, 5));
    let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        md.contains("rounds 5") && md.contains("95% intervals are t-intervals"),
        "{md}"
    );
    let json = std::fs::read_to_string(out.join("run.json")).unwrap();
    assert!(
        json.contains("\"rounds\": 5") && json.contains("\"rounds_complete\": 5"),
        "{json}"
    );
}

#[test]
fn rounds_asked_for_by_name_shrink_on_a_small_dataset_downstream_and_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    let run = bin()
        .args(["bench", "--solver", "dlx,bitset-mrv", "--rounds", "3"])
        .args(["--dataset", "seeds-9x9,set-4x4", "--min-time", "0"])
        .args(["--warmup", "0", "--threads", "1"])
        .args(["--out", whole.to_str().unwrap()])
        .assert()
        .success();
    let note = "seeds-9x9 is measured in 1 round, not the 3 asked (3 puzzles; 2 a round at least)";
    let text = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(text.contains(&format!("note: {note}")), "{text}");
    for file in ["summary.md", "report.md"] {
        let md = std::fs::read_to_string(whole.join(file)).unwrap();
        assert!(md.contains(note), "{file}: {md}");
    }
    // run.json: each dataset's own rounds, recomputed here from its puzzles.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(whole.join("run.json")).unwrap()).unwrap();
    assert_eq!(json["options"]["rounds"], 3);
    for d in json["datasets"].as_array().unwrap() {
        let n = d["puzzles_run"].as_u64().unwrap();
        let own = (n / 2).clamp(1, 3);
        assert_eq!(d["rounds"].as_u64(), Some(own), "{d}");
    }
    // The rows: puzzle i of a dataset in round i mod its own rounds.
    let own = |d: &str| if d == "seeds-9x9" { 1 } else { 3 };
    let results: Vec<PuzzleResult> = rows(&whole.join("results.csv"));
    assert_eq!(results.len(), 2 * (3 + 100));
    for r in &results {
        assert_eq!(
            u64::from(r.round),
            r.puzzle_index % own(&r.dataset),
            "{r:?}"
        );
    }
    // summary.csv's rounds column and the intervals: the dataset's own.
    let summary: Vec<SummaryRow> = rows(&whole.join("summary.csv"));
    for s in &summary {
        assert_eq!(s.rounds as u64, own(&s.dataset), "{}", s.dataset);
    }
    // Charts' data lines say the dataset's own rounds.
    let charts: String = std::fs::read_dir(whole.join("charts"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .collect();
    assert!(charts.contains("seeds-9x9: 3 puzzles; mode unique, 1 thread, 1 round, timed;"));
    assert!(charts.contains("set-4x4: 100 puzzles; mode unique, 1 thread, 3 rounds, timed;"));
    assert!(!charts.contains("seeds-9x9: 3 puzzles; mode unique, 1 thread, 3 rounds"));

    // Cut back to its first round, as a kill leaves it, and resumed: the
    // same rows, in the same rounds, as the whole run.
    let cut = dir.path().join("cut");
    std::fs::create_dir_all(&cut).unwrap();
    for f in ["results.csv", "run.json"] {
        std::fs::copy(whole.join(f), cut.join(f)).unwrap();
    }
    let mut reader = csv::Reader::from_path(whole.join("results.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let at = header.iter().position(|c| c == "round").unwrap();
    let mut writer = csv::Writer::from_path(cut.join("results.csv")).unwrap();
    writer.write_record(&header).unwrap();
    for record in reader.records() {
        let record = record.unwrap();
        if &record[at] == "0" {
            writer.write_record(&record).unwrap();
        }
    }
    writer.flush().unwrap();
    let mut json = json;
    json["finished"] = "".into();
    std::fs::write(cut.join("run.json"), json.to_string()).unwrap();
    bin()
        .args(["bench", "--resume", cut.to_str().unwrap()])
        .assert()
        .success();
    let key = |r: &PuzzleResult| {
        (
            r.variant.to_string(),
            r.dataset.to_string(),
            r.puzzle_index,
            r.round,
        )
    };
    let mut again: Vec<_> = rows::<PuzzleResult>(&cut.join("results.csv"))
        .iter()
        .map(key)
        .collect();
    let mut before: Vec<_> = results.iter().map(key).collect();
    again.sort();
    before.sort();
    assert_eq!(again, before);
    let summary: Vec<SummaryRow> = rows(&cut.join("summary.csv"));
    assert_eq!(summary.len(), 4);
    for s in &summary {
        assert_eq!(s.rounds as u64, own(&s.dataset), "resumed: {}", s.dataset);
    }
}

#[test]
fn empty_folders_missing_paths_and_skipped_entries_are_said_plainly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let o = out.to_str().unwrap();
    // An empty folder: an error before the run, exit 2, no run folder.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    bin()
        .args(["bench", "--dataset", empty.to_str().unwrap(), "--out", o])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("the folder holds no puzzle files"));
    assert!(!out.exists(), "no half-written run");
    // A path that does not exist says so.
    bin()
        .args(["bench", "--dataset", "missing/set.txt", "--out", o])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no dataset named \"missing/set.txt\": there is no such file or folder",
        ));
    // Bad entries among good ones: the hint, then with --skip-invalid the count.
    let some_bad = dir.path().join("some-bad.txt");
    std::fs::write(&some_bad, format!("{HARD}\n{}x\n{HARD}\n", &HARD[..80])).unwrap();
    bin()
        .args(["bench", "--dataset", some_bad.to_str().unwrap(), "--out", o])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "1 bad entry (use --skip-invalid to skip them)",
        ));
    bin()
        .args([
            "bench",
            "--solver",
            "dlx",
            "--min-time",
            "0",
            "--no-report",
            "--quiet",
        ])
        .args([
            "--dataset",
            some_bad.to_str().unwrap(),
            "--skip-invalid",
            "--out",
            o,
        ])
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "note: some-bad: skipped 1 bad entry (--skip-invalid)",
        ));
    // Nothing but bad entries: nothing left, and no hint that cannot help.
    let all_bad = dir.path().join("all-bad.txt");
    std::fs::write(&all_bad, format!("{}x\n", &HARD[..80])).unwrap();
    let run = bin()
        .args([
            "bench",
            "--dataset",
            all_bad.to_str().unwrap(),
            "--skip-invalid",
        ])
        .args(["--out", dir.path().join("r2").to_str().unwrap()])
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        err.contains("all-bad.txt: 1 bad entry") && !err.contains("use --skip-invalid"),
        "{err}"
    );
    // `solve` counts in words.
    bin()
        .args(["solve", "--skip-invalid", some_bad.to_str().unwrap()])
        .assert()
        .success()
        .stderr(predicate::str::contains("skipped 1 bad entry"))
        .stderr(predicate::str::contains("entries").not());
}

#[test]
fn several_thread_counts_make_one_run_each_and_a_scaling_curve() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let run = bin()
        .args(["bench", "--threads", "2,1", "--solver", "dlx,bitset-mrv"])
        .args(["--dataset", "set-4x4", "--limit", "20", "--min-time", "0"])
        .args(["--out", out.to_str().unwrap()])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).into_owned();
    assert!(stdout.contains("| set-4x4 | dlx |"), "{stdout}");
    for t in [1, 2] {
        let summary: Vec<SummaryRow> = rows(&out.join(format!("threads-{t}/summary.csv")));
        assert!(summary.iter().all(|r| r.threads == t), "threads-{t}");
    }
    #[derive(serde::Deserialize)]
    struct Point {
        dataset: String,
        variant: String,
        threads: usize,
        puzzles_per_sec: f64,
        speedup: f64,
        efficiency: f64,
    }
    let points: Vec<Point> = rows(&out.join("scaling.csv"));
    assert_eq!(points.len(), 4, "two strategies at two counts");
    for p in &points {
        assert_eq!(p.dataset, "set-4x4");
        let base = points
            .iter()
            .find(|q| q.variant == p.variant && q.threads == 1)
            .unwrap();
        assert!((p.speedup - p.puzzles_per_sec / base.puzzles_per_sec).abs() < 1e-9);
        assert!((p.efficiency - p.speedup / p.threads as f64).abs() < 1e-9);
    }
    assert!(out.join("charts/scaling-set-4x4.svg").is_file());
    let md = std::fs::read_to_string(out.join("scaling.md")).unwrap();
    assert!(md.contains("(charts/scaling-set-4x4.svg)"), "{md}");
    assert!(
        md.contains("Verified puzzles per second at each count of worker threads"),
        "the table says its unit: {md}"
    );

    bin()
        .args(["bench", "--threads", "1,2", "--baseline", "x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("take one thread count"));
}

#[test]
fn two_datasets_of_one_file_name_stay_apart_with_their_folders() {
    let dir = tempfile::tempdir().unwrap();
    let hard = crate::common::hard_lines(10);
    for (folder, part) in [("h1", &hard[..5]), ("h2", &hard[5..])] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        let text: String = part.iter().map(|(p, _)| format!("{p}\n")).collect();
        std::fs::write(dir.path().join(folder).join("puzzles.txt"), text).unwrap();
    }
    let out = dir.path().join("run");
    let sets = format!(
        "{},{}",
        dir.path().join("h1/puzzles.txt").display(),
        dir.path().join("h2/puzzles.txt").display()
    );
    bin()
        .args([
            "bench",
            "--solver",
            "band,dlx",
            "--threads",
            "1",
            "--min-time",
            "0",
        ])
        .args([
            "--quiet",
            "--dataset",
            &sets,
            "--out",
            out.to_str().unwrap(),
        ])
        .assert()
        .success();
    let summary: Vec<SummaryRow> = rows(&out.join("summary.csv"));
    let mut names: Vec<&str> = summary.iter().map(|r| r.dataset.as_str()).collect();
    names.dedup();
    assert_eq!(names, ["h1/puzzles", "h2/puzzles"]);
    for chart in ["cactus-h1_puzzles.svg", "cactus-h2_puzzles.svg"] {
        assert!(out.join("charts").join(chart).is_file(), "{chart}");
    }
}

/// A strategy that solved nothing has no throughput bar, and the chart says
/// why where its bar would stand; references are drawn with the rest.
#[test]
fn throughput_draws_verified_puzzles_and_names_a_strategy_without_any() {
    let dir = tempfile::tempdir().unwrap();
    bin()
        .current_dir(dir.path())
        .args([
            "bench",
            "--quiet",
            "--out",
            "run",
            "--dataset",
            "set-25x25",
            "--limit",
            "2",
        ])
        .args([
            "--solver",
            "naive-exact-cover,dlx,sat-varisat",
            "--threads",
            "2",
        ])
        .assert()
        .success();
    let svg = std::fs::read_to_string(dir.path().join("run/charts/throughput.svg")).unwrap();
    assert!(
        svg.contains("2/2 stopped"),
        "naive-exact-cover's missing bar is named"
    );
    assert!(svg.contains("verified puzzles per second"));
    assert!(
        svg.contains("sat-varisat (reference)"),
        "the reference is in the legend"
    );
    // What the note stands for: none solved, both stopped by the budget.
    let summary: Vec<SummaryRow> = rows(&dir.path().join("run/summary.csv"));
    let naive = summary
        .iter()
        .find(|r| r.variant == "naive-exact-cover")
        .unwrap();
    assert_eq!((naive.solved, naive.budget), (0, 2));
}

#[cfg(unix)]
#[test]
fn a_fifo_of_more_puzzles_than_a_window_is_read_once_into_the_runs_store() {
    // A file past 65,536 puzzles is read again for each pass; a FIFO cannot
    // be, and `bench` waited on it for ever.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("puzzles.fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path and a mode.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let text =
        std::fs::read_to_string(crate::common::repo_datasets().join("easy-9x9.txt")).unwrap();
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(String::from)
        .collect();
    let n = (1 << 16) + 4000;
    let writing = fifo.clone();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut w = std::io::BufWriter::new(std::fs::File::create(&writing).unwrap());
        for l in lines.iter().cycle().take(n) {
            writeln!(w, "{l}").unwrap();
        }
    });
    let out = dir.path().join("r");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
        .args(["bench", "--quiet", "--no-report", "--solver", "band"])
        .args([
            "--limit",
            "50",
            "--min-time",
            "0",
            "--warmup",
            "0",
            "--threads",
            "1",
        ])
        .arg("--dataset")
        .arg(&fifo)
        .arg("--out")
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // A guard against a hang only, never a measure of speed.
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            // Let the writer go, should it still wait for a reader.
            use std::os::unix::fs::OpenOptionsExt;
            let _ = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&fifo);
            panic!("bench still ran after 300 s on a FIFO");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    writer.join().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(status.success(), "{stderr}");
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("run.json")).unwrap()).unwrap();
    let said = run.to_string();
    assert!(
        said.contains(&format!("\"puzzles_in_source\":{n}")),
        "{said}"
    );
    let records: Vec<PuzzleResult> = rows(&out.join("results.csv"));
    assert_eq!(records.len(), 50, "each of the 50 puzzles once");
}
