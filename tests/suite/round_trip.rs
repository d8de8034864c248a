//! Every file the workbench writes that holds puzzles reads back as a
//! dataset: `generate` in every form, `solve`'s answers in every notation,
//! `rate`'s CSV, and hunts, merged ones too. Each is read by the same reader
//! `bench`, `solve` and `rate` use, and by `solve` itself.

use crate::common::bin_in;
use std::path::Path;
use sudoku_bench::format::{read_path, ReadOptions};
use sudoku_bench::Grid;

/// Runs the workbench in `dir` and keeps its standard output in `file`.
fn write(dir: &Path, file: &str, args: &[&str]) -> String {
    let out = bin_in(dir)
        .args(args)
        .assert()
        .success()
        .get_output()
        .clone();
    let text = String::from_utf8(out.stdout).unwrap();
    std::fs::write(dir.join(file), &text).unwrap();
    text
}

/// The grids of a file as the dataset reader reads it (it must read it).
fn read_back(dir: &Path, file: &str) -> Vec<(Grid, Option<Grid>)> {
    let ds = read_path(&dir.join(file), &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{file} does not read back: {e}"));
    ds.puzzles
        .into_iter()
        .map(|p| (p.grid, p.expected))
        .collect()
}

/// `solve FILE` reads it too, and answers each puzzle.
fn solves(dir: &Path, file: &str, puzzles: usize) {
    let out = bin_in(dir)
        .args(["solve", file])
        .assert()
        .success()
        .get_output()
        .clone();
    let lines = String::from_utf8(out.stdout).unwrap().lines().count();
    assert_eq!(lines, puzzles, "solve {file}");
}

#[test]
fn every_generated_form_reads_back_with_its_puzzles() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let base = ["generate", "--count", "4", "--seed", "7"];
    let forms: [(&str, &[&str]); 8] = [
        ("line.txt", &[]),
        ("bare.txt", &["--no-answer"]),
        ("block.txt", &["--output", "block"]),
        ("marks.txt", &["--pencilmark"]),
        (
            "holes.txt",
            &["--holes", "--min-clues", "30", "--max-clues", "30"],
        ),
        ("four.txt", &["--size", "4"]),
        ("sixteen.txt", &["--size", "16", "--min-clues", "150"]),
        ("hard.txt", &["--level", "hard"]),
    ];
    let mut first: Option<Vec<(Grid, Option<Grid>)>> = None;
    for (file, extra) in forms {
        write(d, file, &[&base[..], extra].concat());
        let read = read_back(d, file);
        assert_eq!(read.len(), 4, "{file}");
        // An answer written with a puzzle comes back with it, and solves it.
        for (grid, answer) in &read {
            if let Some(a) = answer {
                sudoku_bench::validate::check_solution(grid, a).unwrap();
            }
        }
        assert_eq!(
            read.iter().all(|(_, a)| a.is_some()),
            !matches!(file, "bare.txt" | "block.txt" | "holes.txt"),
            "{file}"
        );
        solves(d, file, 4);
        match file {
            "line.txt" => first = Some(read),
            // The same seed and options give the same puzzles in every layout.
            "bare.txt" | "block.txt" => {
                let grids =
                    |v: &[(Grid, Option<Grid>)]| v.iter().map(|p| p.0.clone()).collect::<Vec<_>>();
                assert_eq!(grids(&read), grids(first.as_ref().unwrap()), "{file}");
            }
            _ => {}
        }
    }
}

#[test]
fn solves_answers_read_back_as_their_solutions_in_every_notation() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "puzzles.txt",
        &["generate", "--count", "3", "--seed", "4"],
    );
    let given = read_back(d, "puzzles.txt");
    // Two that conflict, two with no solution, two with several: answered, never read back.
    let verdicts =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/reference/verdicts-9x9.txt");
    std::fs::copy(&verdicts, d.join("verdicts.txt")).unwrap();
    for (file, extra) in [
        ("line.out", &[][..]),
        ("numbers.out", &["--output", "numbers"]),
        ("block.out", &["--output", "block"]),
        ("count.out", &["--mode", "count", "--count-limit", "5"]),
    ] {
        write(d, file, &[&["solve", "puzzles.txt"][..], extra].concat());
        let read = read_back(d, file);
        let solutions: Vec<Grid> = given.iter().map(|p| p.1.clone().unwrap()).collect();
        assert_eq!(
            read.iter().map(|p| p.0.clone()).collect::<Vec<_>>(),
            solutions,
            "{file}"
        );
        solves(d, file, 3);
        // Verdicts without a solution are no puzzles; `multiple` shows its first.
        let mixed = format!("verdicts-{file}");
        write(d, &mixed, &[&["solve", "verdicts.txt"][..], extra].concat());
        assert_eq!(read_back(d, &mixed).len(), 2, "{mixed}");
    }
}

#[test]
fn rates_csv_reads_back_and_rates_the_same_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let verdicts =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/reference/verdicts-9x9.txt");
    std::fs::copy(&verdicts, d.join("verdicts.txt")).unwrap();
    write(d, "some.txt", &["generate", "--count", "3", "--seed", "9"]);
    let joined = std::fs::read_to_string(d.join("verdicts.txt")).unwrap()
        + &std::fs::read_to_string(d.join("some.txt")).unwrap();
    std::fs::write(d.join("mixed.txt"), joined).unwrap();
    let first = write(d, "rated.csv", &["rate", "--quiet", "mixed.txt"]);
    let read = read_back(d, "rated.csv");
    assert_eq!(read.len(), 9);
    // The three rated ones carry their solution; the others none.
    assert_eq!(read.iter().filter(|p| p.1.is_some()).count(), 3);
    solves(d, "rated.csv", 9);
    let again = write(d, "again.csv", &["rate", "--quiet", "rated.csv"]);
    assert_eq!(again, first);
}

#[test]
fn hunts_read_back_merged_or_not_whatever_their_comments_hold() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hunt = |out: &str, extra: &[&str]| {
        let base = ["hunt", "--quiet"];
        let search = ["--iterations", "300", "--keep", "3"];
        let merging = extra.contains(&"--merge");
        bin_in(d)
            .args(base)
            .args(if merging { &[][..] } else { &search[..] })
            .args(["--out", out])
            .args(extra)
            .assert()
            .success();
    };
    // A time hunt's comments hold `12,613 ns`; a pair hunt's `ratio 0.12: a 11
    // nodes, b 89 nodes`; a merged one's `from h2/puzzles.txt:4` besides.
    hunt(
        "time",
        &[
            "--solver",
            "bitset-mrv",
            "--objective",
            "time",
            "--seed",
            "1",
        ],
    );
    hunt(
        "pair",
        &[
            "--solver",
            "bitset-mrv",
            "--against",
            "dlx",
            "--objective",
            "nodes",
            "--seed",
            "2",
        ],
    );
    hunt(
        "nodes",
        &["--solver", "dlx", "--objective", "nodes", "--seed", "3"],
    );
    let merge = [
        "--solver",
        "bitset-mrv",
        "--against",
        "dlx",
        "--objective",
        "nodes",
    ];
    hunt(
        "merged",
        &[&merge[..], &["--merge", "time", "pair", "nodes"]].concat(),
    );
    for h in ["time", "pair", "nodes", "merged"] {
        let file = format!("{h}/puzzles.txt");
        let text = std::fs::read_to_string(d.join(&file)).unwrap();
        let kept = text.lines().filter(|l| !l.starts_with('#')).count();
        assert!(kept > 0, "{text}");
        assert_eq!(read_back(d, &file).len(), kept, "{text}");
        solves(d, &file, kept);
    }
    let merged = std::fs::read_to_string(d.join("merged/puzzles.txt")).unwrap();
    // What once made a merged file read as CSV: a comma and the word `puzzle`.
    let last = merged.lines().last().unwrap();
    assert!(
        last.contains(", ") && last.contains("puzzles.txt"),
        "{merged}"
    );
    bin_in(d)
        .args(["rate", "--quiet", "merged/puzzles.txt"])
        .assert()
        .success();
    bin_in(d)
        .args([
            "bench",
            "--quiet",
            "--dataset",
            "merged/puzzles.txt",
            "--solver",
            "dlx",
        ])
        .args(["--warmup", "0", "--rounds", "1", "--out", "run"])
        .assert()
        .success();
}
