//! `history`: many runs in order, kept apart per machine and setting, each
//! change marked where it came in; and `--export` for bencher and
//! github-action-benchmark. Verdicts are asserted only on counted runs,
//! whose instructions do not depend on the machine's speed.

use crate::common::{bin_in as bin, break_puzzles, csv_rows, valgrind};
use predicates::prelude::*;
use std::path::Path;
use sudoku_bench::history::{self, write, Order};

/// Sets `key` of the run.json in `dir` to `value`.
fn set_in_run_json(dir: &Path, key: &str, value: &str) {
    let path = dir.join("run.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v[key] = serde_json::json!(value);
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// Sets run.json's CPU, as if the run had been made on another machine.
fn move_to_machine(dir: &Path, cpu: &str) {
    set_in_run_json(dir, "cpu_model", cpu);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn twelve_counted_runs_mark_the_slowdown_where_it_came_in_and_nowhere_else() {
    if !valgrind() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    let mut names = Vec::new();
    for i in 1..=12 {
        let name = format!("a{i}");
        let mut cmd = bin(cwd);
        cmd.args(["bench", "--measure", "instructions", "--solver", "band"])
            .args(["--dataset", "hard-9x9", "--limit", "8", "--warmup", "2"])
            .args(["--threads", "1", "--no-report", "--quiet"])
            .args(["--label", &format!("v{i}"), "--out", &name]);
        if i >= 7 {
            cmd.args(["--handicap", "band=5%"]);
        }
        cmd.assert().success();
        names.push(name);
    }
    // Given out of order: --order label puts v10 after v9.
    names.reverse();
    bin(cwd)
        .arg("history")
        .args(&names)
        .args(["--order", "label", "--out", "h"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "12 runs, 1 machine, 1 timeline: 1 regression, 0 improvements",
        ))
        .stdout(predicate::str::contains(
            "band on hard-9x9 (M1): regressed at run 7 (v7)",
        ));
    let rows: Vec<std::collections::HashMap<String, String>> =
        csv_rows(&cwd.join("h").join(write::HISTORY_CSV));
    assert_eq!(rows.len(), 12);
    let marked: Vec<&str> = rows
        .iter()
        .filter(|r| !r["verdict"].is_empty())
        .map(|r| r["name"].as_str())
        .collect();
    assert_eq!(marked, ["v7"], "{rows:?}");
    let change: f64 = rows[6]["change"].parse().unwrap();
    assert!((1.03..1.08).contains(&change), "a 5% handicap: {change}");
    let specs: Vec<String> = names
        .iter()
        .map(|n| cwd.join(n).display().to_string())
        .collect();
    let h = history::history(&specs, &cwd.join("none"), Order::Label, None).unwrap();
    let groups = write::chart_groups(&h);
    assert_eq!(groups.len(), 1);
    let chart = write::timeline_chart(&h, &groups[0]);
    assert_eq!(chart.series.len(), 1);
    assert_eq!(chart.series[0].points.len(), 12);
    assert_eq!(chart.marks.len(), 1);
    assert_eq!(chart.marks[0].x, 6);
    assert!(cwd
        .join("h/charts/history-band-hard-9x9-instructions.svg")
        .is_file());

    // The same twelve runs made on a second machine: two lines, each
    // marked at its own run 7, never one line of 24.
    let mut both = specs.clone();
    for (i, s) in specs.iter().enumerate() {
        let other = cwd.join(format!("b{}", 12 - i));
        copy_dir(Path::new(s), &other);
        move_to_machine(&other, "Another CPU Model 9000");
        both.push(other.display().to_string());
    }
    let h = history::history(&both, &cwd.join("none"), Order::Label, None).unwrap();
    assert_eq!(h.timelines.len(), 2);
    let groups = write::chart_groups(&h);
    assert_eq!(groups.len(), 1, "one chart");
    let chart = write::timeline_chart(&h, &groups[0]);
    assert_eq!(chart.series.len(), 2, "two series, never one");
    for (t, s) in h.timelines.iter().zip(&chart.series) {
        assert_eq!(s.points.len(), 12);
        assert_eq!(t.steps.len(), 1, "{:?}", t.steps);
        assert_eq!(h.runs[t.steps[0].to].name(), "v7");
    }
}

/// A quick timed run of band and dlx on seeds-9x9 into `cwd/out`, with `args`.
fn timed_run(cwd: &Path, out: &str, args: &[&str]) {
    bin(cwd)
        .args(["bench", "--solver", "band,dlx", "--dataset", "seeds-9x9"])
        .args([
            "--threads",
            "1",
            "--no-report",
            "--quiet",
            "--min-time",
            "0",
        ])
        .args(args)
        .args(["--out", out])
        .assert()
        .success();
}

/// Quick timed runs (no verdict is asserted on them: times move with the machine).
fn timed_runs(cwd: &Path, n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| {
            let name = format!("t{i}");
            timed_run(cwd, &name, &["--label", &format!("r{i}")]);
            cwd.join(name).display().to_string()
        })
        .collect()
}

#[test]
fn runs_from_two_machines_make_two_lines_never_one() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    let mut specs = timed_runs(cwd, 4);
    for (i, s) in specs.clone().iter().enumerate() {
        let other = cwd.join(format!("m{}", i + 1));
        copy_dir(Path::new(s), &other);
        move_to_machine(&other, "Another CPU Model 9000");
        specs.push(other.display().to_string());
    }
    let h = history::history(&specs, &cwd.join("none"), Order::Time, None).unwrap();
    assert_eq!(h.runs.len(), 8);
    assert_eq!(h.machines().len(), 2);
    // band and dlx, each on two machines.
    assert_eq!(h.timelines.len(), 4);
    for t in &h.timelines {
        assert_eq!(t.points.len(), 4, "{}: {:?}", t.machine, t.points);
    }
    let band: Vec<_> = write::chart_groups(&h)
        .into_iter()
        .filter(|g| g[0].variant == "band")
        .collect();
    assert_eq!(band.len(), 1, "one chart for band on seeds-9x9");
    let chart = write::timeline_chart(&h, &band[0]);
    assert_eq!(chart.series.len(), 2);
    assert!(chart.series.iter().all(|s| s.points.len() == 4));
    assert!(
        h.notes
            .iter()
            .any(|n| n.starts_with("band on seeds-9x9: 2 timelines kept apart by machine")),
        "{:?}",
        h.notes
    );
}

#[test]
fn a_killed_run_is_read_as_report_reads_it_and_said() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    let specs = timed_runs(cwd, 3);
    // The second run as if killed: no summary yet, no end, half its rows.
    let killed = Path::new(&specs[1]);
    let results = std::fs::read_to_string(killed.join("results.csv")).unwrap();
    let lines: Vec<&str> = results.lines().collect();
    std::fs::write(
        killed.join("results.csv"),
        lines[..lines.len() / 2 + 1].join("\n") + "\n",
    )
    .unwrap();
    std::fs::write(killed.join("summary.csv"), "").unwrap();
    set_in_run_json(killed, "finished", "");
    bin(cwd)
        .arg("history")
        .args(&specs)
        .args(["--out", "h"])
        .assert()
        .success()
        .stderr(
            predicate::str::contains("run 2 (r2").and(predicate::str::contains("was cut short")),
        );
    let md = std::fs::read_to_string(cwd.join("h").join(write::HISTORY_MD)).unwrap();
    assert!(md.contains("cut short"), "{md}");
    // As report would have: its summary made from its rows.
    assert!(
        std::fs::read_to_string(killed.join("summary.csv"))
            .unwrap()
            .lines()
            .count()
            > 1
    );
}

#[test]
fn runs_that_cannot_be_compared_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    let specs = timed_runs(cwd, 1);
    // One run, even named twice, is not a history.
    bin(cwd)
        .arg("history")
        .args([&specs[0], &specs[0]])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "at least two runs or baselines (1 given",
        ));
    // A folder that holds no run says so, named alone.
    std::fs::create_dir(cwd.join("empty")).unwrap();
    bin(cwd)
        .args(["history", "empty"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("neither a run"));
    // Among others it is passed over and said: `history reports/*` over a
    // folder where an earlier history wrote its own still reads the runs.
    timed_run(cwd, "again", &["--label", "again"]);
    bin(cwd)
        .args(["history", &specs[0], "again", "--out", "hist"])
        .assert()
        .success();
    bin(cwd)
        .args(["history", &specs[0], "again", "hist", "empty"])
        .assert()
        .success()
        .stderr(
            predicate::str::contains("hist: passed over: neither a run")
                .and(predicate::str::contains("empty: passed over")),
        );
    // Another subset is another timeline: nothing to compare, and said.
    timed_run(cwd, "two", &["--limit", "2"]);
    let both = [specs[0].clone(), cwd.join("two").display().to_string()];
    bin(cwd)
        .arg("history")
        .args(&both)
        .args(["--out", "h"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Nothing was compared"))
        .stderr(predicate::str::contains("kept apart by setting"));
    let h = history::history(&both, &cwd.join("none"), Order::Time, None).unwrap();
    let groups = write::chart_groups(&h);
    let chart = write::timeline_chart(&h, &groups[0]);
    let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names.len(), 2);
    assert_ne!(names[0], names[1], "the legend tells the lines apart");
    assert!(
        names.iter().any(|n| n.ends_with("; --limit 2")),
        "{names:?}"
    );
}

/// Checks a BMF document against bencher's published rules: an object of
/// benchmarks, each an object of measures, each measure an object with a
/// numeric `value` and optionally numeric `lower_value` and `upper_value`.
fn check_bmf(v: &serde_json::Value) -> Vec<String> {
    let mut names = Vec::new();
    for (bench, measures) in v.as_object().expect("BMF is an object") {
        assert!(!bench.is_empty());
        let measures = measures.as_object().expect("a benchmark is an object");
        assert!(!measures.is_empty(), "{bench}: no measure");
        for (m, metric) in measures {
            let metric = metric.as_object().expect("a measure is an object");
            assert!(metric["value"].is_number(), "{bench}/{m}");
            for (k, x) in metric {
                assert!(
                    ["value", "lower_value", "upper_value"].contains(&k.as_str()),
                    "{bench}/{m}: {k}"
                );
                assert!(x.is_number(), "{bench}/{m}/{k}");
            }
            if let (Some(lo), Some(hi)) = (metric.get("lower_value"), metric.get("upper_value")) {
                let value = metric["value"].as_f64().unwrap();
                assert!(lo.as_f64().unwrap() <= value && value <= hi.as_f64().unwrap());
            }
        }
        names.push(bench.clone());
    }
    names
}

/// Checks github-action-benchmark's `customSmallerIsBetter` rules: an array
/// of objects with a string `name` and `unit` and a numeric `value`, and
/// optionally a string `range` and `extra`.
fn check_github_action_benchmark(v: &serde_json::Value) -> Vec<String> {
    let mut names = Vec::new();
    for e in v.as_array().expect("an array") {
        let e = e.as_object().expect("an entry is an object");
        assert!(e["name"].is_string() && e["unit"].is_string() && e["value"].is_number());
        for (k, x) in e {
            match k.as_str() {
                "name" | "unit" | "range" | "extra" => assert!(x.is_string(), "{k}"),
                "value" => {}
                other => panic!("unexpected key {other}"),
            }
        }
        names.push(e["name"].as_str().unwrap().to_string());
    }
    names
}

#[test]
fn exports_hold_every_contender_and_dataset_once_with_summary_values() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    bin(cwd)
        .args(["bench", "--solver", "band,dlx,bitset-mrv"])
        .args(["--dataset", "seeds-9x9,hard-9x9", "--limit", "12"])
        .args([
            "--threads",
            "1",
            "--no-report",
            "--quiet",
            "--min-time",
            "0",
        ])
        .args(["--label", "abc1234", "--out", "run"])
        .args(["--export", "bmf=out/bmf.json"])
        .args(["--export", "github-action-benchmark=out/gab.json"])
        .assert()
        .success();
    let read = |p: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(cwd.join(p)).unwrap()).unwrap()
    };
    let summary: Vec<sudoku_bench::harness::SummaryRow> = csv_rows(&cwd.join("run/summary.csv"));
    assert_eq!(summary.len(), 6);
    let bmf = read("out/bmf.json");
    let mut names = check_bmf(&bmf);
    names.sort();
    let mut expected: Vec<String> = summary
        .iter()
        .map(|r| format!("{}/{}", r.variant, r.dataset))
        .collect();
    expected.sort();
    assert_eq!(names, expected, "every (contender, dataset) once");
    let gab = read("out/gab.json");
    let mut gab_names = check_github_action_benchmark(&gab);
    gab_names.sort();
    // Each contender and dataset's figure, and its failed puzzles beside it.
    let mut with_failures: Vec<String> = expected
        .iter()
        .flat_map(|n| [n.clone(), format!("{n} (failed puzzles)")])
        .collect();
    with_failures.sort();
    assert_eq!(gab_names, with_failures);
    for r in &summary {
        let b = &bmf[format!("{}/{}", r.variant, r.dataset)];
        let ns = |us: Option<f64>| us.unwrap() * 1e3;
        // Equal up to the last bit of a float's product.
        let same = |a: &serde_json::Value, b: f64| {
            let a = a.as_f64().unwrap();
            assert!((a - b).abs() <= 1e-12 * b.abs(), "{a} against {b}");
        };
        same(&b["latency"]["value"], ns(r.median_us));
        same(&b["latency"]["lower_value"], ns(r.median_lo_us));
        same(&b["latency"]["upper_value"], ns(r.median_hi_us));
        same(&b["throughput"]["value"], r.puzzles_per_sec);
        assert_eq!(b["failures"]["value"].as_f64().unwrap(), 0.0);
        let g = gab
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == format!("{}/{}", r.variant, r.dataset))
            .unwrap();
        same(&g["value"], ns(r.median_us));
        assert!(g["extra"].as_str().unwrap().contains("label: abc1234"));
        let f = gab
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == format!("{}/{} (failed puzzles)", r.variant, r.dataset))
            .unwrap();
        assert_eq!(
            f["value"].as_u64(),
            Some(r.wrong + r.errors + r.budget + r.memory)
        );
    }
    // `report --export` of the same folder writes the same files.
    bin(cwd)
        .args(["report", "run", "--export", "bmf=again.json"])
        .assert()
        .success();
    assert_eq!(read("again.json"), bmf);
    // The label is kept and shown.
    let info = std::fs::read_to_string(cwd.join("run/run.json")).unwrap();
    assert!(info.contains("\"label\": \"abc1234\""));
    let md = std::fs::read_to_string(cwd.join("run/summary.md")).unwrap();
    assert!(md.contains("label: **abc1234**"));
}

#[test]
fn a_bad_export_or_label_is_refused_by_the_parser() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, says) in [
        (&["--export", "csv=x.json"][..], "expected FORMAT=FILE"),
        (&["--export", "bmf"][..], "expected FORMAT=FILE"),
        (&["--label", ""][..], "expected a label"),
    ] {
        bin(tmp.path())
            .arg("bench")
            .args(args)
            .assert()
            .failure()
            .stderr(predicate::str::contains(says));
    }
}

/// The CI recipe's `env:` block and its `run: sudoku-bench …` commands, in
/// the order the workflow runs them.
pub(crate) fn recipe() -> (Vec<(String, String)>, Vec<String>) {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/ci/sudoku-bench.yml"),
    )
    .unwrap();
    let mut env = Vec::new();
    let mut in_env = false;
    let mut commands = Vec::new();
    for line in text.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            in_env = line.trim_end() == "env:";
            continue;
        }
        let t = line.trim();
        if in_env && !t.starts_with('#') {
            if let Some((k, v)) = t.split_once(": ") {
                env.push((k.to_string(), v.to_string()));
            }
        }
        if let Some(cmd) = t.strip_prefix("run: sudoku-bench ") {
            commands.push(cmd.to_string());
        }
    }
    (env, commands)
}

/// A recipe command (`bench … --save-baseline main` or `--baseline main`)
/// run as the runner's shell runs it, in `dir`, with the recipe's `env:`
/// block and then `vars` (`CONTENDERS`, `DATASETS`, the fixture's setting).
pub(crate) fn recipe_step(dir: &Path, cmd: &str, vars: &[(&str, String)]) -> std::process::Output {
    let (env, _) = recipe();
    let bin_dir = assert_cmd::cargo::cargo_bin("sudoku-bench")
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut c = std::process::Command::new("bash");
    c.arg("-c")
        .arg(format!("sudoku-bench {cmd}"))
        .current_dir(dir)
        .env("PATH", &path)
        .env("GITHUB_SHA", "0123abc");
    for (k, v) in &env {
        if !v.contains("${{") {
            c.env(k, v);
        }
    }
    for (k, v) in vars {
        c.env(k, v);
    }
    c.output().unwrap()
}

#[test]
fn the_ci_recipe_keeps_a_baseline_on_main_and_gates_a_pull_request_on_it() {
    if !valgrind() {
        return;
    }
    let (_, commands) = recipe();
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert!(commands[0].contains("--save-baseline main"));
    assert!(commands[1].contains("--baseline main"));
    let tmp = tempfile::tempdir().unwrap();
    // Built-in strategies stand for the user's solver, and a handicap for
    // a slower change. Ten puzzles, not the recipe's hundred: each counted
    // call costs valgrind a dump.
    let run = |cmd: &str, contenders: &str| {
        recipe_step(
            tmp.path(),
            cmd,
            &[
                ("CONTENDERS", contenders.to_string()),
                ("DATASETS", "--dataset hard-9x9 --limit 10".to_string()),
            ],
        )
    };
    let main = run(&commands[0], "--solver band");
    assert!(main.status.success(), "{main:?}");
    assert!(tmp.path().join("reports/baselines/main/run.json").is_file());
    let same = run(&commands[1], "--solver band");
    assert!(same.status.success(), "the same code passes: {same:?}");
    let bmf: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("bmf.json")).unwrap())
            .unwrap();
    assert_eq!(check_bmf(&bmf), ["band/hard-9x9"]);
    assert!(
        bmf["band/hard-9x9"]["instructions"]["value"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    let slower = run(&commands[1], "--solver band --handicap band=5%");
    assert_eq!(
        slower.status.code(),
        Some(1),
        "a 5% slower change fails: {slower:?}"
    );
    let said = String::from_utf8_lossy(&slower.stderr).to_lowercase();
    assert!(said.contains("regressed against baseline main"), "{said}");
    // Main with a bug (3 puzzles answered wrongly), the pull request
    // fixing it at the same count on the other 7: not a regression.
    break_puzzles(&tmp.path().join("reports/baselines/main/results.csv"), 3);
    let fix = run(&commands[1], "--solver band");
    assert!(fix.status.success(), "a fix passes: {fix:?}");
    let newest = std::fs::read_dir(tmp.path().join("reports"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("compare/compare.md").is_file())
        .max_by_key(|p| std::fs::metadata(p).unwrap().modified().unwrap())
        .unwrap();
    let md = std::fs::read_to_string(newest.join("compare/compare.md")).unwrap();
    assert!(
        md.contains("band on hard-9x9: improved: fixed 3 puzzles (3 → 0 failed); +0.0% instructions per puzzle over the 7 puzzles both verified"),
        "{md}"
    );
}
