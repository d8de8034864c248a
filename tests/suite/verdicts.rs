//! Every verdict checked against a reference, on files that carry no
//! answers: programs that answer `none`, `multiple` or a false `unique`,
//! contenders that return verdicts without solutions, puzzles the reference
//! cannot decide, the verdict cache, and pencilmarks only where declared.

use crate::common::bin_in as bin;
use crate::common::{csv_rows, example};
use std::path::{Path, PathBuf};
use sudoku_bench::grid::Grid;
use sudoku_bench::harness::{PuzzleResult, RowStatus, SummaryRow};
use sudoku_bench::solver::{Limits, Mode, Solver, SolverId};

/// The puzzles of an embedded set, without their answers.
fn bare(set: &str, n: usize) -> Vec<Grid> {
    crate::common::embedded_puzzles(set)
        .into_iter()
        .take(n)
        .map(|p| p.grid)
        .collect()
}

use crate::common::line9 as line;

/// Puzzles with several solutions: a unique puzzle's solution with cells
/// blanked in order until a second solution appears.
fn several(n: usize) -> Vec<Grid> {
    bare("hard-9x9", n)
        .into_iter()
        .map(|p| {
            let mut g = first_solution(&p);
            for cell in 0..81 {
                g.set(cell, 0);
                let o = SolverId::Dlx.solve(&g, &Limits::new(Mode::Unique));
                if o.solution_count >= 2 {
                    break;
                }
            }
            g
        })
        .collect()
}

fn first_solution(g: &Grid) -> Grid {
    SolverId::Dlx
        .solve(g, &Limits::new(Mode::First))
        .solutions
        .remove(0)
}

/// Writes puzzles (one line each, no answers) and the fixture's table
/// (each puzzle and one solution), returning their paths.
fn files(dir: &Path, name: &str, puzzles: &[Grid]) -> (PathBuf, PathBuf) {
    let text: String = puzzles.iter().map(|g| line(g) + "\n").collect();
    let table: String = puzzles
        .iter()
        .map(|g| format!("{}\t{}\n", line(g), line(&first_solution(g))))
        .collect();
    let (p, t) = (
        dir.join(format!("{name}.txt")),
        dir.join(format!("{name}.tsv")),
    );
    std::fs::write(&p, text).unwrap();
    std::fs::write(&t, table).unwrap();
    (p, t)
}

fn fixture(name: &str, table: &Path, behaviour: &str) -> String {
    format!(
        "{name}={} {} {behaviour}",
        example("fixture-contender").display(),
        table.display()
    )
}

fn bench(dir: &Path, dataset: &Path) -> assert_cmd::Command {
    let mut c = bin(dir);
    c.args(["bench", "--min-time", "0", "--rounds", "1", "--no-report"])
        .args([
            "--solver",
            "band",
            "--threads",
            "1",
            "--out",
            "run",
            "--force",
        ])
        .arg("--dataset")
        .arg(dataset)
        .env("SUDOKU_BENCH_CACHE", dir.join("cache"));
    c
}

fn results(dir: &Path) -> Vec<PuzzleResult> {
    csv_rows(&dir.join("run/results.csv"))
}

fn of<'a>(rows: &'a [PuzzleResult], variant: &str) -> Vec<&'a PuzzleResult> {
    rows.iter().filter(|r| &*r.variant == variant).collect()
}

#[test]
fn none_multiple_and_a_false_unique_are_wrong_on_files_without_answers() {
    let dir = tempfile::tempdir().unwrap();
    let (unique, unique_table) = files(dir.path(), "unique", &bare("hard-9x9", 40));
    bench(dir.path(), &unique)
        .args(["--contender", &fixture("nonep", &unique_table, "none")])
        .args(["--contender", &fixture("multi", &unique_table, "multiple")])
        .args(["--contender", &fixture("good", &unique_table, "good")])
        .assert()
        .code(1);
    let rows = results(dir.path());
    for (v, said) in [("nonep", "said none"), ("multi", "said multiple")] {
        let mine = of(&rows, v);
        assert_eq!(mine.len(), 40);
        assert!(
            mine.iter()
                .all(|r| r.status == RowStatus::Wrong && r.detail.contains(said)),
            "{v}: {:?}",
            mine[0]
        );
    }
    assert!(of(&rows, "good")
        .iter()
        .all(|r| r.status == RowStatus::Unique));
    assert!(of(&rows, "band")
        .iter()
        .all(|r| r.status == RowStatus::Unique));

    // Puzzles with several solutions: `unique` with a valid first solution is wrong.
    let (multi, multi_table) = files(dir.path(), "several", &several(30));
    bench(dir.path(), &multi)
        .args(["--contender", &fixture("first", &multi_table, "good")])
        .assert()
        .code(1);
    let rows = results(dir.path());
    let first = of(&rows, "first");
    assert_eq!(first.len(), 30);
    assert!(
        first.iter().all(|r| r.status == RowStatus::Wrong
            && r.detail
                .contains("said unique, but the puzzle has at least 2 solutions")),
        "{:?}",
        first[0]
    );
    assert!(of(&rows, "band")
        .iter()
        .all(|r| r.status == RowStatus::Multiple));
    let summary: Vec<SummaryRow> = csv_rows(&dir.path().join("run/summary.csv"));
    let f = summary.iter().find(|r| r.variant == "first").unwrap();
    assert_eq!((f.solved, f.wrong), (0, 30));
}

#[test]
fn puzzles_the_reference_cannot_decide_give_unchecked_rows_counted_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (p, t) = files(dir.path(), "hard", &bare("extreme-9x9", 30));
    // One node: the reference decides only the puzzles its root settles.
    let out = bench(dir.path(), &p)
        .args(["--reference-budget", "1"])
        .args(["--contender", &fixture("fx", &t, "good")])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let rows = results(dir.path());
    let fx = of(&rows, "fx");
    let unchecked = fx
        .iter()
        .filter(|r| r.status == RowStatus::Unchecked)
        .count();
    assert!(unchecked > 0, "{stderr}");
    assert!(
        fx.iter()
            .all(|r| matches!(r.status, RowStatus::Unique | RowStatus::Unchecked)),
        "never wrong, never solved unless decided"
    );
    assert!(fx
        .iter()
        .filter(|r| r.status == RowStatus::Unchecked)
        .all(|r| r.detail.contains("ran out of its node budget")));
    let summary: Vec<SummaryRow> = csv_rows(&dir.path().join("run/summary.csv"));
    let s = summary.iter().find(|r| r.variant == "fx").unwrap();
    assert_eq!(
        (s.unchecked as usize, s.solved as usize),
        (unchecked, 30 - unchecked)
    );
    assert!(
        stderr.contains(&format!("{unchecked} undecided within the budget")),
        "{stderr}"
    );
    let md = std::fs::read_to_string(dir.path().join("run/summary.md")).unwrap();
    assert!(md.contains("puzzles unchecked"), "{md}");
}

#[test]
fn reference_verdicts_are_cached_by_checksum_and_redone_when_the_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    let (p, _) = files(dir.path(), "some", &bare("hard-9x9", 25));
    let said = |c: &mut assert_cmd::Command| {
        let out = c.assert().success();
        let text = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        text.lines()
            .find(|l| l.starts_with("reference verdicts"))
            .unwrap_or_default()
            .to_string()
    };
    let first = said(&mut bench(dir.path(), &p));
    assert!(
        first.starts_with("reference verdicts for 25 puzzles"),
        "{first}"
    );
    assert!(!first.contains("cached"), "{first}");
    assert!(said(&mut bench(dir.path(), &p)).ends_with("(cached)"));
    // A changed file is another checksum: searched again.
    let (_, _) = files(dir.path(), "some", &bare("hard-9x9", 26));
    let changed = said(&mut bench(dir.path(), &p));
    assert!(
        changed.starts_with("reference verdicts for 26 puzzles"),
        "{changed}"
    );
    assert!(!changed.contains("cached"), "{changed}");
}

/// A contenders file with one library entry of the fixture's tdoku shape.
fn library_file(dir: &Path, extra: &str) -> PathBuf {
    let path = dir.join("lib.toml");
    std::fs::write(
        &path,
        format!(
            "[[contender]]\nname = \"lib\"\nlibrary = \"{}\"\nsymbol = \"fixture_tdoku\"\nabi = \"tdoku\"\n{extra}",
            example("libfixture_library.so").display()
        ),
    )
    .unwrap();
    path
}

#[test]
fn a_library_without_solutions_is_checked_by_verdict_and_a_wrong_count_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let puzzles = bare("hard-9x9", 40);
    let (p, _) = files(dir.path(), "some", &puzzles);
    let lies: Vec<&Grid> = puzzles.iter().step_by(7).collect();
    let faults: String = lies.iter().map(|g| format!("lie {}\n", line(g))).collect();
    std::fs::write(dir.path().join("faults"), faults).unwrap();
    let setting = format!("no-solution,faults:{}", dir.path().join("faults").display());

    // The library's rows of a run with `extra` in its entry (each run has wrong rows).
    let run = |extra: &str| {
        let file = library_file(dir.path(), extra);
        bench(dir.path(), &p)
            .args(["--contenders"])
            .arg(&file)
            .env("SUDOKU_BENCH_FIXTURE", &setting)
            .assert()
            .code(1);
        let rows = results(dir.path());
        of(&rows, "lib").into_iter().cloned().collect::<Vec<_>>()
    };
    // Undeclared: each answer lacks its solution, and the row says which setting to use.
    let lib = run("");
    let honest: Vec<_> = lib
        .iter()
        .filter(|r| !lies.contains(&&puzzles[r.puzzle_index as usize]))
        .collect();
    assert!(honest
        .iter()
        .all(|r| r.status == RowStatus::Wrong && r.detail.contains("`solutions = false`")));

    // Declared: checked by verdict; the lies, and only they, are wrong.
    let lib = run("solutions = false\n");
    assert_eq!(lib.len(), 40);
    for r in &lib {
        let lied = lies.contains(&&puzzles[r.puzzle_index as usize]);
        let want = if lied {
            RowStatus::Wrong
        } else {
            RowStatus::Unique
        };
        assert_eq!(r.status, want, "{r:?}");
        assert_eq!(r.checked, sudoku_bench::contender::Checked::Verdict);
    }
    let summary: Vec<SummaryRow> = csv_rows(&dir.path().join("run/summary.csv"));
    let s = summary.iter().find(|r| r.variant == "lib").unwrap();
    assert_eq!(
        (s.wrong as usize, s.checked.as_str()),
        (lies.len(), "verdict")
    );
    let md = std::fs::read_to_string(dir.path().join("run/summary.md")).unwrap();
    assert!(md.contains("Checked by verdict alone"), "{md}");
}

#[test]
fn contender_check_names_the_solutions_setting_and_tests_pencilmarks_only_when_declared() {
    let dir = tempfile::tempdir().unwrap();
    let lib = format!(
        "{}:fixture_tdoku:tdoku",
        example("libfixture_library.so").display()
    );
    let out = bin(dir.path())
        .args(["contender", "check", "--library", &lib])
        .env("SUDOKU_BENCH_FIXTURE", "no-solution")
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("`solutions = false`"), "{text}");
    assert!(
        !text.contains("(pencilmarks)"),
        "not declared, not sent: {text}"
    );
    assert!(text.contains("pencilmarks: not declared"), "{text}");

    let out = bin(dir.path())
        .args(["contender", "check", "--no-solutions", "--library", &lib])
        .env("SUDOKU_BENCH_FIXTURE", "no-solution")
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("(checked by verdict)"), "{text}");

    // Declared: the pencilmark forms are sent and checked (this fixture
    // reads only the first 81 characters, so they fail).
    let out = bin(dir.path())
        .args(["contender", "check", "--pencilmark", "--library", &lib])
        .assert()
        .code(1);
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        text.contains("FAIL 9x9 puzzle with one solution (pencilmarks)"),
        "{text}"
    );
}
