use super::*;
use crate::harness::{DatasetInfo, RunOptions};

pub(crate) mod failures;

/// Writes a run folder: `variants` over dataset `tiny` (checksum `sha`), 200
/// puzzles, two repeats; puzzle i takes `ns(variant index, i)`.
fn run_folder(dir: &Path, sha: &str, mode: &str, ns: impl Fn(usize, u64) -> u64) {
    std::fs::create_dir_all(dir).unwrap();
    let variants = ["fast", "slow"];
    let mut results = String::from(
        "strategy,variant,dataset,puzzle_index,repeat,puzzle,status,solutions,nodes,guesses,solve_ns,threads,detail\n",
    );
    let mut summary = String::from("strategy,variant,dataset,threads,puzzles,solved,budget,wrong,errors,puzzles_per_sec,mean_us,median_us,p90_us,p99_us,max_us,guesses_per_puzzle,no_guess_pct,wall_s\n");
    for (k, v) in variants.iter().enumerate() {
        for repeat in 0..2 {
            for i in 0..200u64 {
                results.push_str(&format!(
                    "{v},{v},tiny,{i},{repeat},-,unique,1,{},{},{},1,\n",
                    10 + i % 7,
                    i % 3,
                    ns(k, i) + repeat
                ));
            }
        }
        summary.push_str(&format!(
            "{v},{v},tiny,1,400,400,0,0,0,1000,1,1,1,1,1,1,0,0.4\n"
        ));
    }
    std::fs::write(dir.join("results.csv"), results).unwrap();
    std::fs::write(dir.join("summary.csv"), summary).unwrap();
    let options = RunOptions {
        solvers: variants.iter().map(|v| v.to_string()).collect(),
        mode: mode.parse().unwrap(),
        rounds: 1, // written without rounds
        ..RunOptions::default()
    };
    write_info(dir, options, sha);
}

/// Writes `run.json` for a run over `tiny` (200 puzzles, checksum `sha`), one thread.
fn write_info(dir: &Path, options: RunOptions, sha: &str) {
    write_info_of(dir, options, sha, 200);
}

/// [`write_info`] of a `tiny` of `puzzles` puzzles.
pub(crate) fn write_info_of(dir: &Path, options: RunOptions, sha: &str, puzzles: u64) {
    let mut info = crate::harness::RunInfo::new(
        RunOptions {
            datasets: vec!["tiny".into()],
            threads: 1,
            ..options
        },
        vec![],
        vec![DatasetInfo {
            name: "tiny".into(),
            source: "embedded:tiny".into(),
            size: "9x9".into(),
            bytes: 1,
            sha256: sha.into(),
            puzzles_in_source: puzzles,
            puzzles_run: puzzles,
            skipped: 0,
            pencilmarks: 0,
            rounds: None,
        }],
    );
    info.finished = info.started.clone();
    std::fs::write(dir.join("run.json"), serde_json::to_string(&info).unwrap()).unwrap();
}

/// Uneven but fixed times: 5–50 µs, slow 3× fast.
fn times(k: usize, i: u64) -> u64 {
    (5_000 + (i * 7919) % 45_000) * (1 + 2 * k as u64)
}

pub(crate) fn side(dir: &Path) -> (Side, RunData) {
    load_side(dir, &dir.display().to_string()).unwrap()
}

#[test]
fn a_run_against_itself_is_within_noise_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let a = tmp.path().join("a");
    run_folder(&a, "aa", "unique", times);
    let c = compare(side(&a), side(&a), Some(0.03)).unwrap();
    assert_eq!(c.rows.len(), 2);
    for r in &c.rows {
        assert_eq!(r.verdict, Verdict::WithinNoise, "{r:?}");
        assert!(r.paired);
        assert_eq!((r.speed, r.speed_lo, r.speed_hi), (1.0, 1.0, 1.0));
        assert!(!r.search_changed);
        assert_eq!(r.puzzles, 200);
    }
    assert!(!c.regressed());
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    // Written without rounds (no round column): the intervals are over puzzles only, and it says so.
    assert!(
        c.notes.iter().any(|n| n.contains("cover the puzzles only")),
        "{:?}",
        c.notes
    );
}

#[test]
fn a_baseline_20_percent_faster_is_a_20_percent_regression() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, cur) = (tmp.path().join("base"), tmp.path().join("cur"));
    run_folder(&base, "aa", "unique", |k, i| times(k, i) * 8 / 10);
    run_folder(&cur, "aa", "unique", times);
    let c = compare(side(&base), side(&cur), Some(0.03)).unwrap();
    for r in &c.rows {
        assert_eq!(r.verdict, Verdict::Regressed, "{r:?}");
        assert!((r.speed - 0.8).abs() < 0.005, "{r:?}");
        assert!(r.speed_lo <= r.speed && r.speed <= r.speed_hi && r.speed_hi < 0.81);
        assert!((r.time_change_pct - 25.0).abs() < 0.5, "{r:?}");
        assert_eq!(r.faster_pct, Some(0.0));
        assert_eq!(r.ratios.len(), 200);
    }
    assert!(c.regressed());
    // The other way round: improved.
    let c = compare(side(&cur), side(&base), Some(0.03)).unwrap();
    assert!(c.rows.iter().all(|r| r.verdict == Verdict::Improved));
    assert!(!c.regressed());
    // A 2% change is inside a 3% threshold, outside a 1% one.
    run_folder(&base, "aa", "unique", |k, i| times(k, i) * 100 / 102);
    let c = compare(side(&base), side(&cur), Some(0.03)).unwrap();
    assert!(c.rows.iter().all(|r| r.verdict == Verdict::WithinNoise));
    let c = compare(side(&base), side(&cur), Some(0.01)).unwrap();
    assert!(c.rows.iter().all(|r| r.verdict == Verdict::Regressed));
}

#[test]
fn different_datasets_or_modes_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, m) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("m"),
    );
    run_folder(&a, "aa", "unique", times);
    run_folder(&b, "bb", "unique", times);
    run_folder(&m, "aa", "first", times);
    let e = compare(side(&a), side(&b), Some(0.03))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("not comparable") && e.contains("checksum differs"),
        "{e}"
    );
    let e = compare(side(&a), side(&m), Some(0.03))
        .unwrap_err()
        .to_string();
    assert!(e.contains("mode unique") && e.contains("mode first"), "{e}");
}

#[test]
fn other_machines_and_thread_counts_are_warned_about() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    run_folder(&a, "aa", "unique", times);
    run_folder(&b, "aa", "unique", times);
    let (base, data) = side(&a);
    let mut other = base.clone();
    other.info.cpu_model = "Other CPU".into();
    other.info.options.threads = 4;
    let c = compare((other, data), side(&b), Some(0.03)).unwrap();
    assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
    assert!(c.warnings.iter().any(|w| w.contains("Other CPU")));
    assert!(c.warnings.iter().any(|w| w.contains("worker threads")));
}

#[test]
fn a_changed_search_or_new_wrong_answers_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    run_folder(&a, "aa", "unique", times);
    run_folder(&b, "aa", "unique", times);
    // `slow` now guesses more on puzzle 3 and answers puzzle 4 wrongly.
    let text = std::fs::read_to_string(b.join("results.csv")).unwrap();
    let text = text
        .replace(
            "slow,slow,tiny,3,0,-,unique,1,13,0,",
            "slow,slow,tiny,3,0,-,unique,1,13,9,",
        )
        .replace(
            "slow,slow,tiny,4,1,-,unique,",
            "slow,slow,tiny,4,1,-,wrong,",
        );
    std::fs::write(b.join("results.csv"), text).unwrap();
    let c = compare(side(&a), side(&b), Some(0.03)).unwrap();
    let slow = c.rows.iter().find(|r| r.variant == "slow").unwrap();
    assert!(slow.search_changed);
    assert!(slow.cur_guesses.unwrap() > slow.base_guesses.unwrap());
    assert_eq!((slow.failures.before, slow.failures.after), (0, 1));
    assert_eq!(slow.failures.new, 1);
    assert_eq!(slow.verdict, Verdict::Regressed);
    let said = write::sentences(&c).join("\n");
    assert!(
        said.contains(
            "slow on tiny: regressed: 1 puzzle now fails (0 → 1 failed); time per puzzle"
        ),
        "{said}"
    );
    let fast = c.rows.iter().find(|r| r.variant == "fast").unwrap();
    assert_eq!(fast.verdict, Verdict::WithinNoise);
}

#[test]
fn a_comparison_writes_its_files_and_charts() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    run_folder(&a, "aa", "unique", |k, i| times(k, i) * 8 / 10);
    run_folder(&b, "aa", "unique", times);
    let c = compare(side(&a), side(&b), Some(0.03)).unwrap();
    let out = tmp.path().join("out");
    write::write(&c, &out).unwrap();
    let csv = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3);
    assert!(csv.lines().nth(1).unwrap().ends_with(",regressed"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("compare.json")).unwrap()).unwrap();
    assert_eq!(json["rows"].as_array().unwrap().len(), 2);
    assert_eq!(json["rows"][0]["verdict"], "regressed");
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(md.contains("regressed, time per puzzle +25.0%"), "{md}");
    for chart in ["ratio-distribution-tiny", "before-after-tiny"] {
        assert!(out.join("charts").join(format!("{chart}.svg")).is_file());
        assert!(md.contains(&format!("(charts/{chart}.svg)")));
    }
}

#[test]
fn baselines_keep_what_a_comparison_needs() {
    let tmp = tempfile::tempdir().unwrap();
    let (run, root) = (tmp.path().join("run"), tmp.path().join("baselines"));
    run_folder(&run, "aa", "unique", times);
    let dir = baseline::save(&run, &root, "main").unwrap();
    assert_eq!(baseline::resolve("main", &root).unwrap(), dir);
    // No puzzle text: smaller than the run's results.
    let size = |p: &Path| std::fs::metadata(p.join("results.csv")).unwrap().len();
    assert!(size(&dir) < size(&run));
    let c = compare(side(&dir), side(&run), Some(0.03)).unwrap();
    assert!(c
        .rows
        .iter()
        .all(|r| r.verdict == Verdict::WithinNoise && r.speed == 1.0));
    // Saving again replaces it; bad names and unknown ones are refused with the list.
    baseline::save(&run, &root, "main").unwrap();
    assert!(baseline::save(&run, &root, "../up").is_err());
    let e = baseline::resolve("nope", &root).unwrap_err().to_string();
    assert!(e.contains("baselines: main"), "{e}");
}

/// A run folder measured in 5 rounds: variant `v` over `tiny`, 200 puzzles,
/// puzzle i in round i mod 5 taking `times(0, i) * slow * machine[round]`.
fn rounds_folder(dir: &Path, rounds: usize, slow: f64, machine: [f64; 5]) {
    std::fs::create_dir_all(dir).unwrap();
    let mut results = String::from("strategy,variant,dataset,puzzle_index,repeat,puzzle,status,solutions,nodes,guesses,solve_ns,own_ns,threads,detail,round\n");
    for i in 0..200u64 {
        let r = (i % 5) as usize;
        let ns = times(0, i) as f64 * slow * machine[r];
        results.push_str(&format!(
            "v,v,tiny,{i},0,-,unique,1,10,1,{},,1,,{}\n",
            ns as u64,
            if rounds > 1 { r } else { 0 }
        ));
    }
    std::fs::write(dir.join("results.csv"), results).unwrap();
    std::fs::write(dir.join("summary.csv"), "strategy,variant,dataset,threads,puzzles,solved,budget,wrong,errors,puzzles_per_sec,mean_us,median_us,p90_us,p99_us,max_us,guesses_per_puzzle,no_guess_pct,wall_s\nv,v,tiny,1,200,200,0,0,0,1000,1,1,1,1,1,1,0,0.2\n").unwrap();
    let options = RunOptions {
        solvers: vec!["v".into()],
        mode: crate::solver::Mode::Unique,
        rounds,
        ..RunOptions::default()
    };
    write_info(dir, options, "aa");
}

#[test]
fn rounds_carry_the_machines_drift_into_the_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = |n: &str| tmp.path().join(n);
    // The machine's speed in each round of two runs of the same build: ±6% drift.
    let base = [1.00, 1.06, 0.97, 1.03, 0.95];
    let again = [0.96, 1.01, 1.05, 0.94, 1.02];
    rounds_folder(&dir("base"), 5, 1.0, base);
    rounds_folder(&dir("again"), 5, 1.0, again);
    rounds_folder(&dir("slower"), 5, 1.2, again);
    let c = compare(side(&dir("base")), side(&dir("again")), Some(0.03)).unwrap();
    let r = &c.rows[0];
    assert_eq!(r.verdict, Verdict::WithinNoise, "{r:?}");
    assert!(r.speed_lo < 1.0 && r.speed_hi > 1.0, "{r:?}");
    assert!(c.notes.is_empty(), "{:?}", c.notes);
    // Without rounds the same times give an interval over puzzles only, which
    // misses the drift (every puzzle of a round moved together) and is narrower.
    rounds_folder(&dir("base1"), 1, 1.0, base);
    rounds_folder(&dir("again1"), 1, 1.0, again);
    let flat = compare(side(&dir("base1")), side(&dir("again1")), Some(0.03)).unwrap();
    let f = &flat.rows[0];
    assert!(
        f.speed_hi / f.speed_lo < r.speed_hi / r.speed_lo,
        "{f:?} vs {r:?}"
    );
    assert!(
        flat.notes.iter().any(|n| n.contains("puzzles only")),
        "{:?}",
        flat.notes
    );
    // A true 20% slowdown under the same drift is flagged.
    let c = compare(side(&dir("base")), side(&dir("slower")), Some(0.03)).unwrap();
    let r = &c.rows[0];
    assert_eq!(r.verdict, Verdict::Regressed, "{r:?}");
    assert!((r.speed - 1.0 / 1.2).abs() < 0.05, "{r:?}");
    assert!(c.regressed());
}

#[test]
fn a_run_saved_a_row_per_solve_compares_with_one_saved_a_row_per_puzzle() {
    // The baseline as runs were saved before one row a puzzle (two solves of
    // each puzzle, ns and ns+1: median ns); the current run the same puzzles,
    // a row each, median ns.
    let tmp = tempfile::tempdir().unwrap();
    let (old, new) = (tmp.path().join("old"), tmp.path().join("new"));
    run_folder(&old, "aa", "unique", times);
    std::fs::create_dir_all(&new).unwrap();
    let mut results = format!(
        "{}\n",
        <crate::harness::PuzzleResult as crate::columns::Columns>::COLUMNS.join(",")
    );
    for (k, v) in ["fast", "slow"].iter().enumerate() {
        for i in 0..200u64 {
            let ns = times(k, i);
            results.push_str(&format!(
                "{v},{v},tiny,{i},0,unique,1,{},{},2,{ns},{ns},,1,\n",
                10 + i % 7,
                i % 3
            ));
        }
    }
    std::fs::write(new.join("results.csv"), results).unwrap();
    std::fs::copy(old.join("summary.csv"), new.join("summary.csv")).unwrap();
    write_info(
        &new,
        RunOptions {
            solvers: vec!["fast".into(), "slow".into()],
            mode: crate::solver::Mode::Unique,
            rounds: 1,
            ..RunOptions::default()
        },
        "aa",
    );
    let c = compare(side(&old), side(&new), Some(0.03)).unwrap();
    assert_eq!(c.rows.len(), 2);
    for r in &c.rows {
        assert!(r.paired, "{r:?}");
        assert_eq!(r.puzzles, 200);
        assert_eq!(r.verdict, Verdict::WithinNoise, "{r:?}");
        assert!((r.speed - 1.0).abs() < 1e-9, "{r:?}");
    }
}

/// A run folder as [`run_folder`] writes it, its instructions counted:
/// `fast` and `slow` took `per_puzzle` instructions a puzzle.
fn counted_folder(dir: &Path, per_puzzle: [f64; 2]) {
    run_folder(dir, "aa", "unique", times);
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap();
    let mut lines = summary.lines();
    let mut text = format!("{},instructions_per_puzzle\n", lines.next().unwrap());
    for (line, n) in lines.zip(per_puzzle) {
        text += &format!("{line},{n}\n");
    }
    std::fs::write(dir.join("summary.csv"), text).unwrap();
    let options = RunOptions {
        solvers: vec!["fast".into(), "slow".into()],
        rounds: 1,
        measure: Measure::Instructions,
        ..RunOptions::default()
    };
    write_info(dir, options, "aa");
}

#[test]
fn instructions_are_judged_exactly_against_the_threshold() {
    let tmp = tempfile::tempdir().unwrap();
    let (base, same, more, less) = (
        tmp.path().join("base"),
        tmp.path().join("same"),
        tmp.path().join("more"),
        tmp.path().join("less"),
    );
    counted_folder(&base, [100_000.0, 300_000.0]);
    counted_folder(&same, [100_000.0, 300_000.0]);
    counted_folder(&more, [101_000.0, 300_000.0]); // fast does 1% more
    counted_folder(&less, [100_000.0, 290_000.0]); // slow does 3.3% less
    let verdicts = |cur: &Path, t: Option<f64>| -> Vec<Verdict> {
        let c = compare(side(&base), side(cur), t).unwrap();
        assert_eq!(c.metric, Measure::Instructions);
        c.rows.iter().map(|r| r.verdict).collect()
    };
    use Verdict::*;
    assert_eq!(verdicts(&same, None), [WithinNoise, WithinNoise]);
    assert_eq!(verdicts(&same, Some(0.0)), [WithinNoise, WithinNoise]);
    // 1% more is flagged at 0.5%, and is not beyond the default 1%.
    assert_eq!(verdicts(&more, Some(0.005)), [Regressed, WithinNoise]);
    assert_eq!(verdicts(&more, None), [WithinNoise, WithinNoise]);
    assert_eq!(verdicts(&less, None), [WithinNoise, Improved]);
    let c = compare(side(&base), side(&more), Some(0.005)).unwrap();
    assert!(c.regressed());
    assert_eq!(
        (c.rows[0].speed_lo, c.rows[0].speed_hi),
        (c.rows[0].speed, c.rows[0].speed)
    );
    let said = write::sentences(&c).join(" ");
    assert!(
        said.contains("fast on tiny: regressed, +1.0% instructions per puzzle"),
        "{said}"
    );
    assert!(write::table_text(&c).contains("before instructions"));
}

#[test]
fn runs_of_two_measures_are_not_compared() {
    let tmp = tempfile::tempdir().unwrap();
    let (timed, counted) = (tmp.path().join("t"), tmp.path().join("c"));
    run_folder(&timed, "aa", "unique", times);
    counted_folder(&counted, [1.0, 2.0]);
    for (a, b) in [(&timed, &counted), (&counted, &timed)] {
        let e = compare(side(a), side(b), None).unwrap_err().to_string();
        assert!(e.contains("measured") && e.contains("instructions"), "{e}");
    }
}
