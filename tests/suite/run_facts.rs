//! A run folder read as a set of facts, each counted once: rows repeated,
//! contradicting, or for puzzles, datasets and contenders the run does not
//! have, as `report`, `compare`, `history` and `bench --resume` read them;
//! and a property: a run damaged at random is refused at a line or counts
//! each puzzle once.

use crate::common::{bin_in as bin, csv_rows};
use predicates::prelude::*;
use std::path::Path;
use sudoku_bench::harness::{PuzzleResult, SolveRecord, SummaryRow};

/// A two-strategy run of easy-9x9 (300 puzzles) into `cwd/NAME`.
fn bench(cwd: &Path, name: &str, extra: &[&str]) {
    let mut args = vec![
        "bench",
        "--quiet",
        "--no-report",
        "--min-time",
        "0",
        "--threads",
        "1",
        "--rounds",
        "3",
        "--solver",
        "bitset-mrv,dlx",
        "--dataset",
        "easy-9x9",
        "--out",
        name,
    ];
    args.extend(extra);
    bin(cwd).args(&args).assert().success();
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() && !e.file_name().to_string_lossy().starts_with('.') {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// The run as a kill leaves it: no end in run.json, no summary.
fn unfinish(dir: &Path) {
    let path = dir.join("run.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    json["finished"] = "".into();
    std::fs::write(&path, json.to_string()).unwrap();
    let summary = lines(&dir.join("summary.csv"));
    write_lines(&dir.join("summary.csv"), &summary[..1]);
}

/// Each variant's puzzles and verified puzzles in `summary.csv`.
fn counted(dir: &Path) -> Vec<(String, u64, u64)> {
    csv_rows::<SummaryRow>(&dir.join("summary.csv"))
        .into_iter()
        .map(|r| (r.variant, r.puzzles, r.solved))
        .collect()
}

/// Everything a command said, stdout and stderr.
fn said(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

#[test]
fn rows_repeated_with_the_same_values_are_counted_once_with_a_note() {
    let tmp = tempfile::tempdir().unwrap();
    bench(tmp.path(), "run", &[]);
    let (run, dup) = (tmp.path().join("run"), tmp.path().join("dup"));
    copy(&run, &dup);
    let mut rows = lines(&dup.join("results.csv"));
    let again: Vec<String> = rows[1..6].to_vec();
    rows.extend(again);
    write_lines(&dup.join("results.csv"), &rows);

    // compare: the copied rows are not counted again.
    let out = bin(tmp.path())
        .args(["compare", "run", "dup"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", said(&out));
    assert!(
        said(&out).contains("5 rows repeat the same values as a row before them, dropped (lines 602, 603, 604, 605, 606)"),
        "{}",
        said(&out)
    );
    let mut r = csv::Reader::from_path(dup.join("compare/compare.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let at = |n: &str| h.iter().position(|c| c == n).unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        assert_eq!(rec[at("cur_solved")], rec[at("base_solved")], "{rec:?}");
    }

    // report of the folder cut short: its summary made from the rows counts
    // 300 puzzles, not 305.
    unfinish(&dup);
    let out = bin(tmp.path()).args(["report", "dup"]).output().unwrap();
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("5 rows repeat"), "{}", said(&out));
    assert_eq!(counted(&dup), counted(&run));
    assert!(
        counted(&dup).iter().all(|c| c.1 == 300),
        "{:?}",
        counted(&dup)
    );
}

#[test]
fn a_repeated_row_with_other_values_refuses_the_folder_naming_both_lines() {
    let tmp = tempfile::tempdir().unwrap();
    bench(tmp.path(), "run", &[]);
    let dir = tmp.path().join("run");
    let mut rows = lines(&dir.join("results.csv"));
    // Line 2's row again, its status changed.
    let mut r: PuzzleResult = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(rows[1].as_bytes())
        .deserialize()
        .next()
        .unwrap()
        .unwrap();
    r.status = "wrong".parse().unwrap();
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.serialize(&r).unwrap();
    let line = String::from_utf8(w.into_inner().unwrap()).unwrap();
    rows.push(line.trim_end().to_string());
    write_lines(&dir.join("results.csv"), &rows);
    let n = rows.len();
    for words in [vec!["report", "run"], vec!["compare", "run", "run"]] {
        bin(tmp.path())
            .args(&words)
            .assert()
            .failure()
            .stderr(predicate::str::contains(format!("results.csv:{n}:")))
            .stderr(predicate::str::contains("other values than line 2"));
    }
    unfinish(&dir);
    bin(tmp.path())
        .args(["bench", "--resume", "run"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!("results.csv:{n}:")));
}

#[test]
fn rows_for_what_the_run_does_not_have_are_refused_naming_their_line() {
    let tmp = tempfile::tempdir().unwrap();
    bench(tmp.path(), "run", &[]);
    let run = tmp.path().join("run");
    let rows = lines(&run.join("results.csv"));
    let first = rows[1].clone();
    let cases = [
        (
            "index",
            first.replacen(",easy-9x9,0,", ",easy-9x9,99999,", 1),
            "puzzle 99999 of easy-9x9",
        ),
        (
            "ghost",
            first.replacen(",easy-9x9,", ",ghost,", 1),
            "dataset `ghost`",
        ),
        (
            "nosuch",
            first.replacen("bitset-mrv,bitset-mrv,", "nosuch,nosuch,", 1),
            "contender `nosuch`",
        ),
    ];
    for (name, row, what) in cases {
        assert_ne!(row, first, "{name}: the row was not changed");
        let dir = tmp.path().join(name);
        copy(&run, &dir);
        let mut damaged = rows.clone();
        damaged.insert(5, row);
        write_lines(&dir.join("results.csv"), &damaged);
        for words in [vec!["report", name], vec!["compare", "run", name]] {
            bin(tmp.path())
                .args(&words)
                .assert()
                .failure()
                .stderr(predicate::str::contains("results.csv:6:"))
                .stderr(predicate::str::contains(what))
                .stderr(predicate::str::contains("which the run does not have"));
        }
        unfinish(&dir);
        bin(tmp.path())
            .args(["bench", "--resume", name])
            .assert()
            .failure()
            .stderr(predicate::str::contains("results.csv:6:"))
            .stderr(predicate::str::contains(what));
    }
}

#[test]
fn a_resume_counts_repeated_rows_and_solves_once() {
    let tmp = tempfile::tempdir().unwrap();
    bench(tmp.path(), "whole", &["--keep-solves"]);
    let (whole, cut) = (tmp.path().join("whole"), tmp.path().join("cut"));
    copy(&whole, &cut);
    // Killed a third of the way: the rows so far, ten of them written twice;
    // the solves of those rows, seven of them twice, and the solves of
    // fifteen puzzles whose rows were not written yet.
    let rows = lines(&cut.join("results.csv"));
    let mut kept: Vec<String> = rows[..201].to_vec();
    kept.extend(rows[40..50].iter().cloned());
    write_lines(&cut.join("results.csv"), &kept);
    let written: std::collections::HashSet<(String, u64)> =
        csv_rows::<PuzzleResult>(&cut.join("results.csv"))
            .into_iter()
            .map(|r| (r.variant.to_string(), r.puzzle_index))
            .collect();
    let solves = lines(&cut.join("solves.csv"));
    let records: Vec<SolveRecord> = csv_rows(&cut.join("solves.csv"));
    let (mut kept, mut ahead) = (vec![solves[0].clone()], 0);
    for (line, r) in solves[1..].iter().zip(&records) {
        if written.contains(&(r.variant.to_string(), r.puzzle_index)) {
            kept.push(line.clone());
        } else if ahead < 15 {
            kept.push(line.clone());
            ahead += 1;
        }
    }
    kept.extend(solves[20..27].iter().cloned());
    write_lines(&cut.join("solves.csv"), &kept);
    unfinish(&cut);

    let out = bin(tmp.path())
        .args(["bench", "--resume", "cut"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", said(&out));
    assert!(said(&out).contains("10 rows repeat"), "{}", said(&out));
    assert!(said(&out).contains("7 rows repeat"), "{}", said(&out));
    assert_eq!(counted(&cut), counted(&whole));
    let results: Vec<PuzzleResult> = csv_rows(&cut.join("results.csv"));
    assert_eq!(results.len(), 2 * 300, "a row per puzzle and contender");
    let mut keys: Vec<_> = results
        .iter()
        .map(|r| (r.variant.clone(), r.puzzle_index))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), 2 * 300);
    let solves: Vec<SolveRecord> = csv_rows(&cut.join("solves.csv"));
    let whole_solves: Vec<SolveRecord> = csv_rows(&whole.join("solves.csv"));
    let mut keys: Vec<_> = solves
        .iter()
        .map(|r| (r.variant.clone(), r.puzzle_index, r.repeat))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), solves.len(), "no solve written twice");
    assert_eq!(solves.len(), whole_solves.len());
}

/// A run of bitset-mrv and the fixture program (reading `table`) over
/// set-4x4 into `cwd/NAME`.
fn bench_fx(cwd: &Path, name: &str, table: &Path) {
    let fx = crate::common::fixture(table, "good");
    bin(cwd)
        .args([
            "bench",
            "--quiet",
            "--no-report",
            "--min-time",
            "0",
            "--threads",
            "1",
            "--solver",
            "bitset-mrv",
            "--contender",
            &fx,
            "--dataset",
            "set-4x4",
            "--out",
            name,
        ])
        .assert()
        .success();
}

/// The run cut back to its header and `keep` rows, as a kill leaves it.
fn cut_to(dir: &Path, keep: usize) {
    let rows = lines(&dir.join("results.csv"));
    write_lines(&dir.join("results.csv"), &rows[..1 + keep]);
    unfinish(dir);
}

#[test]
fn a_resume_refuses_a_contender_whose_files_changed_unless_forced() {
    let tmp = tempfile::tempdir().unwrap();
    let table = crate::common::table(tmp.path(), &["set-4x4"]);
    bench_fx(tmp.path(), "run", &table);
    let dir = tmp.path().join("run");
    cut_to(&dir, 3);
    // The table the program reads is one of the files it runs: changed.
    let mut text = std::fs::read_to_string(&table).unwrap();
    text.push_str("# changed\n");
    std::fs::write(&table, text).unwrap();
    bin(tmp.path())
        .args(["bench", "--resume", "run"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("contender `fx`:"))
        .stderr(predicate::str::contains(format!(
            "{} changed (SHA-256",
            table.display()
        )));
    bin(tmp.path())
        .args(["bench", "--resume", "run", "--force"])
        .assert()
        .success()
        .stderr(predicate::str::contains("resuming despite"));
}

#[test]
fn a_contender_run_json_gained_after_the_run_began_is_never_run() {
    let tmp = tempfile::tempdir().unwrap();
    let table = crate::common::table(tmp.path(), &["set-4x4"]);
    bench_fx(tmp.path(), "run", &table);
    let dir = tmp.path().join("run");
    cut_to(&dir, 3);
    let path = dir.join("run.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut other = json["options"]["contenders"][0].clone();
    other["name"] = "added".into();
    json["options"]["contenders"]
        .as_array_mut()
        .unwrap()
        .push(other);
    std::fs::write(&path, json.to_string()).unwrap();
    let before = lines(&dir.join("results.csv"));
    for force in [false, true] {
        let mut args = vec!["bench", "--resume", "run"];
        if force {
            args.push("--force");
        }
        bin(tmp.path())
            .args(&args)
            .assert()
            .failure()
            .stderr(predicate::str::contains("contender `added`"))
            .stderr(predicate::str::contains("did not begin with"));
        assert_eq!(lines(&dir.join("results.csv")), before, "nothing ran");
    }
}

#[test]
fn a_run_said_finished_is_resumed_when_its_rows_fall_short() {
    let tmp = tempfile::tempdir().unwrap();
    bench(tmp.path(), "run", &[]);
    let run = tmp.path().join("run");
    let rows = lines(&run.join("results.csv"));
    let cases: [(&str, Option<&[String]>); 3] = [
        ("deleted", None),
        ("header", Some(&rows[..1])),
        ("short", Some(&rows[..100])),
    ];
    for (name, kept) in cases {
        let dir = tmp.path().join(name);
        copy(&run, &dir);
        match kept {
            None => std::fs::remove_file(dir.join("results.csv")).unwrap(),
            Some(k) => write_lines(&dir.join("results.csv"), k),
        }
        let out = bin(tmp.path())
            .args(["bench", "--resume", name])
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", said(&out));
        assert!(
            said(&out).contains("says the run finished")
                && !said(&out).contains("nothing to resume"),
            "{name}: {}",
            said(&out)
        );
        let results: Vec<PuzzleResult> = csv_rows(&dir.join("results.csv"));
        assert_eq!(results.len(), 2 * 300, "{name}");
        assert_eq!(counted(&dir), counted(&run), "{name}");
    }
    // Whole, it is complete.
    bin(tmp.path())
        .args(["bench", "--resume", "run"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nothing to resume"));
}

/// One way to damage `results.csv`'s data rows (`rows[0]` is the header).
#[derive(Clone, Debug)]
enum Damage {
    /// A row written again at the end, as a resumed writer may.
    Repeat(usize),
    /// A run of rows lost.
    Lose(usize, usize),
    /// Two rows swapped.
    Swap(usize, usize),
    /// A row's dataset made one the run does not have.
    ForeignDataset(usize),
    /// A row's contender made one the run does not have.
    ForeignContender(usize),
    /// The file cut part way into its last line, as a kill leaves it.
    Cut(usize),
    /// `run.json`'s rounds of the dataset changed.
    Rounds(u64),
    /// `run.json`'s puzzles run of the dataset changed.
    PuzzlesRun(u64),
}

fn damage() -> impl proptest::strategy::Strategy<Value = Damage> {
    use proptest::prelude::*;
    prop_oneof![
        (1usize..601).prop_map(Damage::Repeat),
        (1usize..601, 1usize..40).prop_map(|(a, n)| Damage::Lose(a, n)),
        (1usize..601, 1usize..601).prop_map(|(a, b)| Damage::Swap(a, b)),
        (1usize..601).prop_map(Damage::ForeignDataset),
        (1usize..601).prop_map(Damage::ForeignContender),
        (1usize..200).prop_map(Damage::Cut),
        (1u64..6).prop_map(Damage::Rounds),
        (0u64..400).prop_map(Damage::PuzzlesRun),
    ]
}

fn apply(rows: &mut Vec<String>, d: &Damage) -> Option<usize> {
    let last = rows.len() - 1;
    let at = |i: usize| 1 + (i - 1) % last.max(1);
    match *d {
        Damage::Repeat(i) => rows.push(rows[at(i)].clone()),
        Damage::Lose(i, n) => {
            let from = at(i);
            let to = (from + n).min(rows.len());
            rows.drain(from..to);
        }
        Damage::Swap(a, b) => rows.swap(at(a), at(b)),
        Damage::ForeignDataset(i) => {
            let i = at(i);
            rows[i] = rows[i].replacen(",easy-9x9,", ",ghost,", 1);
        }
        Damage::ForeignContender(i) => {
            let i = at(i);
            rows[i] = rows[i].replacen("bitset-mrv,bitset-mrv,", "nosuch,nosuch,", 1);
        }
        Damage::Cut(k) => return Some(k),
        Damage::Rounds(_) | Damage::PuzzlesRun(_) => {}
    }
    None
}

/// `run.json`'s part of a damage.
fn apply_json(dir: &Path, d: &Damage) {
    let (key, value) = match *d {
        Damage::Rounds(n) => ("rounds", n),
        Damage::PuzzlesRun(n) => ("puzzles_run", n),
        _ => return,
    };
    let path = dir.join("run.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    json["datasets"][0][key] = value.into();
    std::fs::write(&path, json.to_string()).unwrap();
}

/// Says whether `out` is a refusal that names a line of a run's file
/// (`results.csv:N:`), or `run.json`, whose settings the rows are read by.
fn refused_at_a_line(out: &std::process::Output) -> bool {
    let text = said(out);
    !out.status.success()
        && text
            .match_indices("results.csv:")
            .chain(text.match_indices("run.json"))
            .any(|(i, m)| {
                m == "run.json"
                    || text[i + m.len()..]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_digit())
            })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]

    #[test]
    fn a_damaged_run_is_refused_at_a_line_or_counts_each_puzzle_once(
        damages in proptest::collection::vec(damage(), 1..4),
    ) {
        let tmp = run_once();
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("case{n}");
        let dir = tmp.join(&name);
        copy(&tmp.join("run"), &dir);
        let path = dir.join("results.csv");
        let mut rows = lines(&path);
        let mut cut = None;
        for d in &damages {
            cut = cut.or(apply(&mut rows, d));
        }
        let mut text = rows.join("\n") + "\n";
        if let Some(k) = cut {
            let keep = text.len().saturating_sub(1 + k % rows.last().map_or(1, |l| l.len().max(1)));
            text.truncate(keep.max(rows[0].len() + 1));
        }
        std::fs::write(&path, text).unwrap();
        unfinish(&dir);
        for d in &damages {
            apply_json(&dir, d);
        }
        let each_once = |dir: &Path| {
            counted(dir).iter().all(|c| c.1 <= 300 && c.2 <= c.1)
        };
        // report: refused at a line, or a summary of at most 300 puzzles a contender.
        let out = bin(&tmp).args(["report", &name]).output().unwrap();
        proptest::prop_assert!(
            refused_at_a_line(&out) || (out.status.success() && each_once(&dir)),
            "report {damages:?}: {}", said(&out)
        );
        // compare against the run whole.
        let out = bin(&tmp).args(["compare", "run", &name]).output().unwrap();
        let fine = out.status.success() && {
            let mut r = csv::Reader::from_path(dir.join("compare/compare.csv")).unwrap();
            let h = r.headers().unwrap().clone();
            let col = h.iter().position(|c| c == "cur_solved").unwrap();
            r.records().all(|rec| rec.unwrap()[col].parse::<u64>().unwrap() <= 300)
        };
        proptest::prop_assert!(
            refused_at_a_line(&out) || fine,
            "compare {damages:?}: {}", said(&out)
        );
        // history of another run and this one (a copy of `run` is `run` again).
        let out = bin(&tmp)
            .args(["history", "other", &name, "--out", &format!("hist{n}")])
            .output()
            .unwrap();
        proptest::prop_assert!(
            refused_at_a_line(&out) || out.status.success(),
            "history {damages:?}: {}", said(&out)
        );
        // bench --resume: refused at a line, or every puzzle once a contender.
        let out = bin(&tmp).args(["bench", "--resume", &name]).output().unwrap();
        let fine = out.status.success() && each_once(&dir) && {
            let results: Vec<PuzzleResult> = csv_rows(&path);
            let mut keys: Vec<_> =
                results.iter().map(|r| (r.variant.clone(), r.puzzle_index)).collect();
            keys.sort();
            keys.dedup();
            keys.len() == results.len() && results.len() == 2 * 300
        };
        // (A run.json whose datasets differ from what they are now is
        // refused as a whole, naming the dataset and what differs.)
        let changed = !out.status.success() && said(&out).contains("not resumed (--force");
        proptest::prop_assert!(
            refused_at_a_line(&out) || changed || fine,
            "bench --resume {damages:?}: {}", said(&out)
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}

/// Case folders made so far.
static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The folder holding `run`, a whole run every case copies, and `other`,
/// a run of the same settings: made once.
fn run_once() -> std::path::PathBuf {
    static RUN: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    RUN.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        bench(tmp.path(), "run", &[]);
        bench(tmp.path(), "other", &[]);
        tmp
    })
    .path()
    .to_path_buf()
}
