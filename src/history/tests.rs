use super::*;
use crate::compare::tests::failures::{month, puzzle_folder};

#[test]
fn labels_order_their_numbers_as_numbers() {
    let mut labels = vec!["v10", "v2", "v1", "abc", "v2a"];
    labels.sort_by_key(|l| natural_key(l));
    assert_eq!(labels, ["abc", "v1", "v2", "v2a", "v10"]);
}

#[test]
fn a_span_of_runs_reads_as_a_range_or_a_list() {
    let p = |run| Point {
        run,
        value: None,
        interval: None,
        solved: 0,
        puzzles: 0,
        failed: 0,
        wrong: 0,
    };
    assert_eq!(run_span(&[p(0), p(1), p(2)]), "runs 1–3");
    assert_eq!(run_span(&[p(0), p(3)]), "runs 1, 4");
    assert_eq!(run_span(&[p(4)]), "run 5");
}

/// The month's runs v1 to v9 in `dir`, each counted: v2 to v6 halve the
/// cost (five speed-ups), v8 answers puzzles 0 to 12 wrongly and costs the
/// others 4.3% less, and v9 fixes them at v8's cost on the others.
fn month_runs(dir: &Path) -> Vec<String> {
    let cost = [
        1.0, 0.5, 0.25, 0.125, 0.0625, 0.03125, 0.03125, 0.0299, 0.0299,
    ];
    (1..=9)
        .map(|v| {
            let run = dir.join(format!("v{v}"));
            puzzle_folder(&run, Measure::Instructions, month(v == 8, cost[v - 1]));
            let path = run.join(files::RUN_JSON);
            let mut info: RunInfo =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            info.options.label = Some(format!("v{v}"));
            std::fs::write(&path, serde_json::to_string(&info).unwrap()).unwrap();
            run.display().to_string()
        })
        .collect()
}

#[test]
fn a_bug_and_its_fix_are_said_first_and_never_hidden() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = month_runs(tmp.path());
    let h = history(&runs, &tmp.path().join("none"), Order::Given, None).unwrap();
    let steps = &h.timelines[0].steps;
    let at = |v: &str| steps.iter().find(|s| h.runs[s.to].name() == v);
    // v7 costs as v6: no step.
    assert!(at("v7").is_none(), "{steps:?}");
    let bug = at("v8").unwrap();
    assert_eq!(bug.verdict, Verdict::Regressed);
    assert_eq!((bug.failures.new, bug.cost), (13, Verdict::Improved));
    let fix = at("v9").unwrap();
    assert_eq!((fix.failures.fixed, fix.failures.new), (13, 0));
    assert_eq!(
        (fix.verdict, fix.cost),
        (Verdict::Improved, Verdict::WithinNoise)
    );
    assert_eq!(fix.puzzles, 87);
    let said = |s: &Step| write::step_sentence(&h, &h.timelines[0], s);
    assert!(
        said(bug).starts_with("mine on tiny (M1): regressed at run 8 (v8): 13 puzzles now fail (0 → 13 failed); −4.3% over the 87 puzzles both verified"),
        "{}",
        said(bug)
    );
    assert!(
        said(fix).starts_with("mine on tiny (M1): improved at run 9 (v9): fixed 13 puzzles (13 → 0 failed); +0.0% over the 87 puzzles both verified"),
        "{}",
        said(fix)
    );
    // Seven steps; the terminal's top two are the bug and the fix, and a
    // top of one still shows both: failures are never "… and N more".
    let lines = write::summary_lines(&h, 2);
    assert_eq!(
        lines[0],
        "9 runs, 1 machine, 1 timeline: 1 regression, 6 improvements"
    );
    assert!(lines[1].contains("(v8): 13 puzzles now fail"), "{lines:?}");
    assert!(lines[2].contains("(v9): fixed 13 puzzles"), "{lines:?}");
    assert_eq!(lines[3], "  … and 5 more in history.md");
    let lines = write::summary_lines(&h, 1);
    assert!(lines[2].contains("(v9): fixed 13 puzzles"), "{lines:?}");
    assert_eq!(lines[3], "  … and 5 more in history.md");
    // Its table says the failures too.
    let out = tmp.path().join("h");
    write::write(&h, &out).unwrap();
    let md = std::fs::read_to_string(out.join(write::HISTORY_MD)).unwrap();
    assert!(md.contains("| improved: fixed 13; +0.0% "), "{md}");
    assert!(md.contains("| regressed: 13 now fail; −4.3% "), "{md}");
}

#[test]
fn a_run_named_twice_and_a_file_beside_the_runs_are_passed_over_and_said() {
    let tmp = tempfile::tempdir().unwrap();
    let runs = month_runs(tmp.path());
    // The baseline saved from v9: the same run in another folder.
    let copy = tmp.path().join("baselines").join("main");
    std::fs::create_dir_all(&copy).unwrap();
    for f in std::fs::read_dir(&runs[8]).unwrap().flatten() {
        if f.path().is_file() {
            std::fs::copy(f.path(), copy.join(f.file_name())).unwrap();
        }
    }
    std::fs::write(tmp.path().join("v9.log"), "a log").unwrap();
    let mut specs = runs.clone();
    specs.push(copy.display().to_string());
    specs.push(tmp.path().join("v9.log").display().to_string());
    let h = history(&specs, &tmp.path().join("none"), Order::Given, None).unwrap();
    assert_eq!(h.runs.len(), 9, "the copy is read once");
    assert!(
        h.notes
            .iter()
            .any(|n| n.contains("main: passed over: the same run as")),
        "{:?}",
        h.notes
    );
    assert!(
        h.notes
            .iter()
            .any(|n| n.contains("v9.log: passed over: a file, not a run folder")),
        "{:?}",
        h.notes
    );
}
