//! `sudoku-bench study`: the study folder, and the options refused before anything runs.

use predicates::prelude::*;

use crate::common::{bin, csv_rows};

#[test]
fn a_clue_study_writes_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("study");
    let run = bin()
        .args([
            "study",
            "clues",
            "--size",
            "4",
            "--clues",
            "4..8",
            "--step",
            "2",
            "--puzzles",
            "5",
            "--solver",
            "bitset-mrv,dlx",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).into_owned();
    assert!(
        stdout.contains("bitset-mrv (mode first): time peaks at"),
        "{stdout}"
    );
    assert!(stdout.lines().all(|l| l.chars().count() <= 100), "{stdout}");
    let rows: Vec<sudoku_bench::study::StudyRow> = csv::Reader::from_path(out.join("study.csv"))
        .unwrap()
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    // 3 clue counts × 2 modes × 2 strategies.
    assert_eq!(rows.len(), 12);
    assert!(rows.iter().all(|r| r.puzzles == 5 && r.wrong == 0));
    // Every timed solve: 3 clue counts × 2 modes × 2 strategies × 5 puzzles.
    let solves = csv::Reader::from_path(out.join("solves.csv"))
        .unwrap()
        .records()
        .count();
    assert_eq!(solves, 60);
    let file: sudoku_bench::study::StudyFile =
        serde_json::from_str(&std::fs::read_to_string(out.join("study.json")).unwrap()).unwrap();
    assert_eq!(file.study.options.points.len(), 3);
    assert_eq!(file.study.options.seed, 1);
    // Time for both strategies, nodes for both, in both modes.
    assert_eq!(file.findings.peaks.len(), 8);
    for chart in ["time-first", "time-unique", "nodes-first", "nodes-unique"] {
        assert!(
            out.join(format!("charts/study-clues-{chart}.svg")).exists(),
            "{chart}"
        );
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("<section id=\"study\">") && html.contains("<svg"));
    // The folder holds a study now: another is refused without --force.
    bin()
        .args([
            "study",
            "clues",
            "--size",
            "4",
            "--clues",
            "4",
            "--puzzles",
            "2",
            "--out",
        ])
        .arg(&out)
        .assert()
        .failure()
        .stderr(predicate::str::contains("already holds a study"));
}

#[test]
fn a_size_study_fits_growth_and_names_the_better_model() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("study");
    bin()
        .args([
            "study",
            "size",
            "--sizes",
            "4,9,16",
            "--givens",
            "0.6",
            "--puzzles",
            "5",
            "--solver",
            "bitset-mrv,dlx",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    let file: sudoku_bench::study::StudyFile =
        serde_json::from_str(&std::fs::read_to_string(out.join("study.json")).unwrap()).unwrap();
    assert_eq!(file.study.fraction, Some(0.6));
    // Time, nodes and the peak heap of a call, for each strategy.
    assert_eq!(file.findings.growth.len(), 6);
    for f in &file.findings.growth {
        let g = f.growth.as_ref().expect("three measured sizes");
        assert_eq!(g.fitted, vec![4, 9, 16]);
        let best = g.best();
        assert!(best.rss <= g.power.rss.min(g.exponential.rss));
    }
    // dlx's links grow with the grid's constraints: so does its heap.
    let f = file
        .findings
        .growth
        .iter()
        .find(|f| f.variant == "dlx" && f.cost == sudoku_bench::study::analysis::Cost::Memory)
        .expect("a memory finding");
    let g = f.growth.as_ref().unwrap();
    assert!(!g.flat && g.power.slope > 0.5, "{g:?}");
    let rows: Vec<std::collections::HashMap<String, String>> = csv_rows(&out.join("study.csv"));
    assert_eq!(rows.len(), 6);
    for r in &rows {
        let heap: f64 = r["median_heap_bytes"].parse().expect("a heap median");
        assert!(heap > 0.0, "{r:?}");
    }
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("dlx (mode first): peak heap grows as"), "{md}");
    for what in ["time", "nodes", "memory"] {
        assert!(out
            .join(format!("charts/study-size-{what}-first.svg"))
            .exists());
    }
}

#[test]
fn bad_study_options_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    for (args, said) in [
        (vec!["size", "--givens", "1.2"], "strictly between 0 and 1"),
        (vec!["size", "--givens", "0"], "strictly between 0 and 1"),
        (vec!["size", "--sizes", "4,10"], "10 is not a grid side"),
        (vec!["clues", "--clues", "30..20"], "has no points"),
        (vec!["clues", "--size", "7"], "not a grid side"),
        (vec!["clues", "--clues", "10..100"], "81 cells"),
        (
            vec!["clues", "--mode", "count"],
            "modes are first and unique",
        ),
        (vec!["threads", "--threads", "2"], "two or more counts"),
    ] {
        bin()
            .arg("study")
            .args(&args)
            .arg("--out")
            .arg(&out)
            .assert()
            .failure()
            .stderr(predicate::str::contains(said));
        assert!(!out.exists(), "{args:?} made the folder");
    }
    // No strategy of the set handles the sizes: said, exit 2.
    bin()
        .args([
            "study", "size", "--sizes", "4,16", "--solver", "band", "--out",
        ])
        .arg(&out)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "no strategy of the study (band) handles 4x4, 16x16",
        ));
    assert!(!out.exists());
}
