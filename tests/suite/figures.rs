//! Charts as a paper needs them, read back from their SVGs by the figure
//! lint (`sudoku_bench::report::charts::lint`) at both print widths, and each PNG the drawing of
//! its SVG.

use crate::common::bin;
use std::path::Path;
use sudoku_bench::report::charts::figure;
use sudoku_bench::report::charts::lint::lint;

/// Every chart in `dir` at both print sizes: none has a fault, and each
/// PNG is the drawing of its SVG.
/// A chart's words, its wrapped lines joined by spaces.
fn words_of(svg: &Path) -> String {
    let svg = std::fs::read_to_string(svg).unwrap();
    let words: Vec<&str> = svg
        .split("<text")
        .filter_map(|t| t.split_once('>')?.1.split_once("</text>"))
        .map(|(w, _)| w.trim())
        .collect();
    words.join(" ")
}

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
        for f in lint(&svg, &size) {
            all.push(format!("{name}: {f}"));
        }
        let png = std::fs::read(dir.join(format!("{stem}.png"))).unwrap();
        assert!(
            png == figure::png(&svg, &size.of_svg(&svg)).unwrap(),
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

/// The charts the run test does not make: an outside contender that fails
/// some puzzles beside the built-ins, threads scaled, machines side by side
/// and, where valgrind runs, a counted measure. Each at both widths.
#[test]
fn scaling_machines_outside_and_counted_charts_are_fit_for_print() {
    let dir = tempfile::tempdir().unwrap();
    let at = |p: &str| dir.path().join(p);
    let table = crate::common::table(dir.path(), &["hard-9x9"]);
    // The outside contender says `multiple` on three of the puzzles: wrong.
    let lies: String = std::fs::read_to_string(&table)
        .unwrap()
        .lines()
        .take(3)
        .map(|l| format!("lie {}\n", l.split('\t').next().unwrap()))
        .collect();
    std::fs::write(at("faults.txt"), lies).unwrap();
    let outside = crate::common::fixture(&table, &format!("faults:{}", at("faults.txt").display()));
    let bench = |out: &str, more: &[&str]| {
        let cmd = bin()
            .args(["bench", "--quiet", "--dataset", "hard-9x9", "--limit", "12"])
            .args(["--solver", "band,dlx,bitset-mrv", "--min-time", "0"])
            .args(["--contender", &outside, "--figures", "paper", "--out"])
            .arg(at(out))
            .args(more)
            .output()
            .unwrap();
        // The wrong answers fail the run (1); nothing else may.
        assert_eq!(cmd.status.code(), Some(1), "{cmd:?}");
    };
    bench("scaled", &["--threads", "1,2"]);
    let names = |d: &str| -> Vec<String> {
        std::fs::read_dir(at(d))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
            .collect()
    };
    assert!(
        names("scaled/charts")
            .iter()
            .any(|n| n.starts_with("scaling-")),
        "{:?}",
        names("scaled/charts")
    );
    // The lying contender's failures are said under its scaling curve.
    let scaled = words_of(&at("scaled/charts/scaling-hard-9x9.svg"));
    assert!(
        scaled.contains("fx (external) failed 3 of 12 at 1 thread, 3 of 12 at 2 threads"),
        "{scaled}"
    );
    let mut n = check_charts(&at("scaled/charts"), true);
    // A strategy keeps its own colour on a scaling chart, alone or not:
    // dlx is orange (#E69F00) in every chart.
    bin()
        .args(["bench", "--quiet", "--dataset", "easy-9x9", "--limit", "4"])
        .args([
            "--solver",
            "dlx",
            "--min-time",
            "0",
            "--threads",
            "1,2",
            "--out",
        ])
        .arg(at("alone"))
        .assert()
        .success();
    let alone = std::fs::read_to_string(at("alone/charts/scaling-easy-9x9.svg")).unwrap();
    assert!(alone.contains("#E69F00"), "dlx in its own colour");
    bench("m1", &["--threads", "1"]);
    bench("m2", &["--threads", "1"]);
    let cactus = std::fs::read_to_string(at("m1/charts/cactus-hard-9x9.svg")).unwrap();
    assert!(
        cactus.contains("fx (external) (9/12; 3 wrong)"),
        "the partial outside contender says its share"
    );
    n += check_charts(&at("m1/charts"), true);
    bin()
        .args(["report"])
        .args([at("m1"), at("m2")])
        .args(["--figures", "paper", "--out"])
        .arg(at("machines"))
        .assert()
        .success();
    assert!(names("machines/charts")
        .iter()
        .any(|n| n.starts_with("machines-")));
    // Across machines too, the outside contender is marked as such and
    // its failures are said, machine by machine.
    let words = words_of(&at("machines/charts/machines-hard-9x9.svg"));
    assert!(
        words.contains("fx (external)")
            && words.contains("fx failed 3 of 12 on M1 (3 wrong), 3 of 12 on M2 (3 wrong)"),
        "a failing contender across machines: {words}"
    );
    n += check_charts(&at("machines/charts"), true);
    // Compared, its charts say what their curves and medians leave out.
    let cmp = bin()
        .args(["compare"])
        .args([at("m1"), at("m2")])
        .arg("--out")
        .arg(at("cmp"))
        .output()
        .unwrap();
    assert!(matches!(cmp.status.code(), Some(0 | 1)), "{cmp:?}");
    for chart in ["ratio-distribution-hard-9x9", "before-after-hard-9x9"] {
        let words = words_of(&at(&format!("cmp/charts/{chart}.svg")));
        assert!(
            words.contains(
                "fx: over the 9 puzzles both runs verified (3 failed in the baseline, 3 now)"
            ),
            "{chart}: {words}"
        );
    }
    if crate::common::valgrind() {
        // Counted: the built-ins beside a library that answers the same
        // three puzzles wrongly.
        let wrong: String = std::fs::read_to_string(&table)
            .unwrap()
            .lines()
            .take(3)
            .map(|l| format!("{}\n", l.split('\t').next().unwrap()))
            .collect();
        std::fs::write(at("wrong.txt"), wrong).unwrap();
        let library = format!(
            "mine={}:fixture_solver:sudoku-bench",
            crate::common::example("libfixture_library.so").display()
        );
        let count = |out: &str| {
            bin()
                .env(
                    "SUDOKU_BENCH_FIXTURE",
                    format!("wrong:{}", at("wrong.txt").display()),
                )
                .args(["bench", "--quiet", "--dataset", "hard-9x9", "--limit", "6"])
                .args([
                    "--solver",
                    "band,dlx",
                    "--library",
                    &library,
                    "--threads",
                    "1",
                ])
                // One reference in both runs, whatever valgrind's times
                // (a loaded machine could rank them otherwise).
                .args(["--reference", "band"])
                .args(["--measure", "instructions", "--figures", "paper", "--out"])
                .arg(at(out))
                .output()
                .unwrap()
        };
        let counted = count("counted");
        assert_eq!(counted.status.code(), Some(1), "{counted:?}");
        let throughput = std::fs::read_to_string(at("counted/charts/instructions.svg")).unwrap();
        assert!(throughput.contains("3/6"), "the library's share is drawn");
        n += check_charts(&at("counted/charts"), true);
        // Two counted runs across machines: their ratios are of counts
        // (valgrind's times say nothing of a speed).
        assert_eq!(count("counted2").status.code(), Some(1));
        bin()
            .args(["report"])
            .args([at("counted"), at("counted2")])
            .args(["--figures", "paper", "--out"])
            .arg(at("work"))
            .assert()
            .success();
        let work = std::fs::read_to_string(at("work/charts/machines-hard-9x9.svg")).unwrap();
        assert!(
            work.contains("Relative work by machine") && !work.contains("Relative speed"),
            "counted runs compared by speed"
        );
        n += check_charts(&at("work/charts"), true);
    }
    assert!(n >= 12, "{n} charts");
}

/// The figure lint over charts made by hand: `SUDOKU_BENCH_LINT=DIR[:DIR…]
/// cargo test --release --test suite lint_charts_of -- --ignored` reads
/// every chart in each folder at its width and lists each fault.
#[test]
#[ignore]
fn lint_charts_of_the_folders_named() {
    let dirs = std::env::var("SUDOKU_BENCH_LINT").expect("SUDOKU_BENCH_LINT=DIR[:DIR...]");
    let mut faults = Vec::new();
    for dir in dirs.split(':') {
        for e in std::fs::read_dir(dir).unwrap() {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let Some(stem) = name.strip_suffix(".svg") else {
                continue;
            };
            let size = match stem.ends_with(figure::SINGLE.suffix) {
                true => figure::SINGLE,
                false => figure::DOUBLE,
            };
            let svg = std::fs::read_to_string(&path).unwrap();
            for f in lint(&svg, &size) {
                faults.push(format!("{dir}/{name}: {f}"));
            }
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}
