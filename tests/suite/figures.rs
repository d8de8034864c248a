//! Charts as a paper needs them, read back from their SVGs by the figure
//! lint ([`crate::lint`]) at both print widths, and each PNG the drawing of
//! its SVG.

use crate::common::bin;
use std::path::Path;
use sudoku_bench::report::charts::figure;

/// Every chart in `dir` at both print sizes: none has a fault, and each
/// PNG is the drawing of its SVG.
fn check_charts(dir: &Path, paper: bool) -> usize {
    let mut all = Vec::new();
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".svg") else {
            continue;
        };
        let size = if stem.ends_with(figure::SINGLE.suffix) {
            figure::SINGLE
        } else {
            figure::DOUBLE
        };
        let svg = std::fs::read_to_string(&path).unwrap();
        for f in crate::lint::lint(&svg, &size) {
            all.push(format!("{name}: {f}"));
        }
        let png = std::fs::read(dir.join(format!("{stem}.png"))).unwrap();
        assert!(
            png == figure::png(&svg, &size).unwrap(),
            "{stem}.png is not its SVG's drawing"
        );
        if paper && size == figure::DOUBLE {
            assert!(
                dir.join(format!("{stem}{}.svg", figure::SINGLE.suffix))
                    .is_file(),
                "{stem}: no single-column figure"
            );
        }
        n += 1;
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
    n
}

#[test]
fn a_runs_charts_are_fit_for_print_at_both_widths() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    // Two slow strategies stopped on every 25×25 puzzle, the fast ones not.
    bin()
        .args([
            "bench",
            "--quiet",
            "--dataset",
            "set-25x25,hard-9x9,set-4x4",
            "--limit",
            "12",
        ])
        .args([
            "--node-budget",
            "20000",
            "--min-time",
            "0",
            "--figures",
            "paper",
        ])
        .args(["--out", out.to_str().unwrap()])
        .assert()
        .success();
    let n = check_charts(&out.join("charts"), true);
    assert!(n >= 20, "{n} charts");
    let dist = std::fs::read_to_string(out.join("charts/distribution-set-25x25.svg")).unwrap();
    assert!(
        dist.contains("backtracking (0/12)"),
        "a strategy that solved none is named"
    );
}

#[test]
fn study_hunt_and_compare_charts_are_fit_for_print() {
    let dir = tempfile::tempdir().unwrap();
    let at = |p: &str| dir.path().join(p);
    bin()
        .args([
            "study", "clues", "--size", "4", "--clues", "4..8", "--step", "2",
        ])
        .args(["--puzzles", "5", "--solver", "bitset-mrv,dlx", "--out"])
        .arg(at("study"))
        .assert()
        .success();
    let svg = std::fs::read_to_string(at("study/charts/study-clues-time-first.svg")).unwrap();
    assert!(svg.contains("shaded: each median"), "the band is said");
    let hunt = ["hunt", "--quiet", "--solver", "band", "--iterations", "800"];
    bin()
        .args(hunt)
        .args(["--threads", "1", "--seed", "7", "--out"])
        .arg(at("hunt"))
        .assert()
        .success();
    let svg = std::fs::read_to_string(at("hunt/charts/hunt-progress.svg")).unwrap();
    assert!(
        svg.contains("hunt for"),
        "the data line says what was hunted"
    );
    let bench = |name: &str| {
        bin()
            .current_dir(dir.path())
            .args(["bench", "--quiet", "--min-time", "0", "--threads", "1"])
            .args([
                "--solver",
                "bitset-mrv,dlx",
                "--dataset",
                "easy-9x9",
                "--out",
                name,
            ])
            .assert()
            .success();
    };
    bench("a");
    bench("b");
    // Within noise (0) or not (1) as the machine had it; never refused (2).
    let cmp = bin()
        .current_dir(dir.path())
        .args(["compare", "a", "b", "--out", "cmp"])
        .output()
        .unwrap();
    assert!(matches!(cmp.status.code(), Some(0 | 1)), "{cmp:?}");
    let mut n = 0;
    for d in ["study/charts", "hunt/charts", "cmp/charts", "a/charts"] {
        if at(d).is_dir() {
            n += check_charts(&at(d), false);
        }
    }
    assert!(n >= 8, "{n} charts");
    assert!(at("cmp/charts").is_dir(), "compare drew its charts");
}
