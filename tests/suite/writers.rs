//! One writer per folder, and nothing a run made replaced unasked (issue
//! 77): a second `bench`, `--resume`, `study`, `hunt`, `report` or
//! `history` into a folder another process writes is refused at once with
//! that process's PID; `hunt --out` over a hunt, an export over a run's
//! file or over another export, and a report across machines into a run's
//! folder are refused before anything is written.

use crate::common::{bin_in as bin, csv_rows, example, hard_lines};
use predicates::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use sudoku_bench::files::LOCK;
use sudoku_bench::harness::PuzzleResult;
use sudoku_bench::lock::FolderLock;

/// Puzzles a held run measures, with each of its two contenders.
const PUZZLES: usize = 20;

/// The fixture's table for hard-9x9 (puzzle and answer a line).
fn table(dir: &Path) -> PathBuf {
    let lines: String = hard_lines(PUZZLES)
        .iter()
        .map(|(p, s)| format!("{p}\t{s}\n"))
        .collect();
    let path = dir.join("table.tsv");
    std::fs::write(&path, lines).unwrap();
    path
}

/// A run of a strategy and the fixture program into `out`, labelled.
fn bench_words(table: &Path, out: &str, label: &str) -> Vec<String> {
    let fx = format!(
        "fx={} {}",
        example("fixture-contender").display(),
        table.display()
    );
    let limit = PUZZLES.to_string();
    [
        "bench",
        "--solver",
        "bitset-mrv",
        "--contender",
        &fx,
        "--dataset",
        "hard-9x9",
        "--limit",
        &limit,
        "--min-time",
        "0",
        "--threads",
        "1",
        "--warmup",
        "0",
        "--quiet",
        "--no-report",
        "--label",
        label,
        "--out",
        out,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// A workbench process whose fixture program waits for `gate` before its
/// first puzzle: the run holds its folder, with no clock, until the gate
/// opens. Dropped, it opens the gate and kills what is left.
struct Held {
    child: Child,
    gate: PathBuf,
}

impl Held {
    fn start(cwd: &Path, words: &[String], gate: &Path) -> Held {
        let child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
            .current_dir(cwd)
            .args(words)
            .env("FIXTURE_START_GATE", gate)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        Held {
            child,
            gate: gate.to_path_buf(),
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Opens the gate and waits for the run to end: its exit code.
    fn finish(mut self) -> Option<i32> {
        std::fs::write(&self.gate, "open").unwrap();
        self.child.wait().unwrap().code()
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        let _ = std::fs::write(&self.gate, "open");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until `ready` holds, checked every few milliseconds, for at most
/// five minutes (a loaded machine is slow, never wrong).
fn wait_until(what: &str, ready: impl Fn() -> bool) {
    let since = Instant::now();
    while !ready() {
        assert!(since.elapsed() < Duration::from_secs(300), "{what}: never");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The PID written in `dir`'s lock file, if any.
fn holder(dir: &Path) -> Option<u32> {
    let text = std::fs::read_to_string(dir.join(LOCK)).ok()?;
    text.trim().parse().ok()
}

/// What the refused one says of the folder and its holder.
fn refusal(dir: &Path, pid: u32) -> String {
    format!(
        "{} is being written by another sudoku-bench process (PID {pid})",
        dir.display()
    )
}

/// Every row of `results.csv` whole and each puzzle measured once by each
/// contender: one run's rows, no torn line.
fn one_runs_rows(dir: &Path) {
    let text = std::fs::read_to_string(dir.join("results.csv")).unwrap();
    assert!(text.ends_with('\n'), "a torn last line");
    let rows: Vec<PuzzleResult> = csv_rows(&dir.join("results.csv"));
    let mut seen: Vec<(String, u64)> = rows
        .iter()
        .map(|r| (r.variant.to_string(), r.puzzle_index))
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), rows.len(), "a puzzle measured twice");
    assert_eq!(rows.len(), 2 * PUZZLES, "{seen:?}");
}

fn label(dir: &Path) -> String {
    let json = std::fs::read_to_string(dir.join("run.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["options"]["label"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_second_run_into_a_folder_being_written_is_refused_with_the_writers_pid() {
    let tmp = tempfile::tempdir().unwrap();
    let table = table(tmp.path());
    let out = tmp.path().join("same");
    let first = Held::start(
        tmp.path(),
        &bench_words(&table, "same", "first"),
        &tmp.path().join("gate"),
    );
    let pid = first.pid();
    wait_until("the first run holds its folder", || {
        holder(&out) == Some(pid)
    });
    bin(tmp.path())
        .args(bench_words(&table, "same", "second"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(refusal(Path::new("same"), pid)));
    assert_eq!(first.finish(), Some(0));
    one_runs_rows(&out);
    assert_eq!(label(&out), "first");
    assert!(!out.join(LOCK).exists(), "the lock file goes with the run");
    bin(tmp.path()).args(["report", "same"]).assert().success();
    bin(tmp.path())
        .args(["bench", "--resume", "same"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nothing to resume"));
}

#[test]
fn a_second_resume_of_a_folder_is_refused_and_the_first_finishes_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let table = table(tmp.path());
    let out = tmp.path().join("cut");
    let gate = tmp.path().join("gate");
    // A run killed before its first answer: run.json and results.csv's
    // header written, its lock file left behind with a dead PID.
    let mut killed = Held::start(tmp.path(), &bench_words(&table, "cut", "one"), &gate);
    let pid = killed.pid();
    wait_until("the run is under way", || {
        out.join("results.csv").is_file() && holder(&out) == Some(pid)
    });
    killed.child.kill().unwrap();
    killed.child.wait().unwrap();
    assert_eq!(holder(&out), Some(pid), "a killed holder leaves its file");
    let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let resume = words(&["bench", "--resume", "cut"]);
    let first = Held::start(tmp.path(), &resume, &gate);
    let pid = first.pid();
    wait_until("the first resume holds the folder", || {
        holder(&out) == Some(pid)
    });
    bin(tmp.path())
        .args(&resume)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(refusal(Path::new("cut"), pid)));
    assert_eq!(first.finish(), Some(0));
    one_runs_rows(&out);
    bin(tmp.path())
        .args(&resume)
        .assert()
        .success()
        .stdout(predicate::str::contains("nothing to resume"));
}

/// A quick run of `dlx` on two puzzles, but its `--out`.
const QUICK: [&str; 10] = [
    "bench",
    "--quiet",
    "--solver",
    "dlx",
    "--dataset",
    "seeds-9x9",
    "--limit",
    "2",
    "--min-time",
    "0",
];

/// [`QUICK`] into `cwd/out`.
fn quick_run(cwd: &Path, out: &str, extra: &[&str]) -> assert_cmd::assert::Assert {
    bin(cwd)
        .args(QUICK)
        .args(["--out", out])
        .args(extra)
        .assert()
}

#[test]
fn every_command_that_writes_a_folder_is_refused_while_another_holds_it() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    quick_run(cwd, "a", &[]).success();
    quick_run(cwd, "b", &[]).success();
    assert!(!cwd.join("a").join(LOCK).exists());
    let results = std::fs::read_to_string(cwd.join("a/results.csv")).unwrap();
    let pid = std::process::id();
    let refused = |args: &[&str], dir: &str| {
        bin(cwd)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(refusal(Path::new(dir), pid)));
    };
    // A run's folder, held: no new run (even forced), no resume, no report.
    let held = FolderLock::take(&cwd.join("a")).unwrap();
    let run = [&QUICK[..], &["--force", "--out", "a"]].concat();
    refused(&run, "a");
    refused(&["bench", "--resume", "a"], "a");
    refused(&["report", "a"], "a");
    drop(held);
    assert_eq!(
        std::fs::read_to_string(cwd.join("a/results.csv")).unwrap(),
        results
    );
    // Any other folder, held: no study, study resume, hunt, report across
    // machines or history into it.
    std::fs::create_dir(cwd.join("x")).unwrap();
    let held = FolderLock::take(&cwd.join("x")).unwrap();
    let study = [
        "study",
        "clues",
        "--size",
        "4",
        "--clues",
        "4",
        "--puzzles",
        "4",
        "--quiet",
        "--out",
        "x",
    ];
    refused(&study, "x");
    refused(&["study", "resume", "x"], "x");
    let hunt = [
        "hunt",
        "--quiet",
        "--solver",
        "dlx",
        "--iterations",
        "10",
        "--out",
        "x",
    ];
    refused(&hunt, "x");
    refused(&["report", "a", "b", "--out", "x"], "x");
    refused(&["history", "a", "b", "--out", "x"], "x");
    drop(held);
    let left: Vec<_> = std::fs::read_dir(cwd.join("x")).unwrap().collect();
    assert!(left.is_empty(), "nothing written: {left:?}");
    bin(cwd).args(["report", "a"]).assert().success();
    bin(cwd).args(hunt).assert().success();
}

#[test]
fn a_hunt_is_not_replaced_without_force() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    let hunt = |out: &str, seed: &str, extra: &[&str]| {
        let mut c = bin(cwd);
        c.args(["hunt", "--quiet", "--solver", "dlx", "--iterations", "200"])
            .args([
                "--threads",
                "1",
                "--keep",
                "3",
                "--seed",
                seed,
                "--out",
                out,
            ])
            .args(extra);
        c
    };
    hunt("h", "1", &[]).assert().success();
    let first = std::fs::read_to_string(cwd.join("h/puzzles.txt")).unwrap();
    hunt("h", "2", &[])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{} already holds a hunt (puzzles.txt, found.csv, progress.csv, hunt.json); choose another --out, or pass --force to replace it",
            Path::new("h").display()
        )));
    assert_eq!(
        std::fs::read_to_string(cwd.join("h/puzzles.txt")).unwrap(),
        first
    );
    hunt("h", "2", &["--force"]).assert().success();
    let second = std::fs::read_to_string(cwd.join("h/puzzles.txt")).unwrap();
    assert!(second.contains("# Seed 2,"), "{second}");
    // A merge into a folder it merges, forced, would empty it first.
    bin(cwd)
        .args(["hunt", "--merge", "h", "--out", "h"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already holds a hunt"));
    bin(cwd)
        .args(["hunt", "--merge", "h", "--out", "h", "--force"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--out h: a folder --merge reads; merge into another folder",
        ));
    assert_eq!(
        std::fs::read_to_string(cwd.join("h/puzzles.txt")).unwrap(),
        second
    );
}

#[test]
fn exports_over_a_runs_files_or_each_other_and_reports_into_a_run_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    quick_run(cwd, "a", &[]).success();
    quick_run(cwd, "b", &[]).success();
    let kept: Vec<(PathBuf, Vec<u8>)> = ["results.csv", "summary.csv", "run.json", "report.md"]
        .iter()
        .map(|f| {
            let path = cwd.join("a").join(f);
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    let runs_file = |file: &str, dir: &str| {
        format!("that is the {file} of the run folder {dir}, which the export would replace: give the export a file of its own")
    };
    // bench: into another run's folder, or the folder it writes; nothing runs.
    quick_run(cwd, "c", &["--export", "bmf=a/results.csv"])
        .code(2)
        .stderr(predicate::str::contains("--export bmf=a/results.csv: "))
        .stderr(predicate::str::contains(runs_file(
            "results.csv",
            &std::fs::canonicalize(cwd.join("a"))
                .unwrap()
                .display()
                .to_string(),
        )));
    quick_run(
        cwd,
        "c",
        &["--export", "github-action-benchmark=c/summary.csv"],
    )
    .code(2)
    .stderr(predicate::str::contains("summary.csv of the run folder"));
    let twice = [
        "--export",
        "bmf=x.json",
        "--export",
        "github-action-benchmark=./x.json",
    ];
    quick_run(cwd, "c", &twice).code(2).stderr(predicate::str::contains(
        "--export bmf=x.json and --export github-action-benchmark=./x.json name one file, which the second would replace: give each export a file of its own",
    ));
    assert!(!cwd.join("c").exists(), "refused before anything ran");
    // report --export likewise.
    bin(cwd)
        .args(["report", "a", "--export", "bmf=a/run.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("run.json of the run folder"));
    bin(cwd)
        .args([
            "report",
            "a",
            "--export",
            "bmf=x.json",
            "--export",
            "bmf=x.json",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("name one file"));
    // A report across machines into a run's folder.
    bin(cwd)
        .args(["report", "a", "b", "--out", "a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--out a: a run's folder (it holds run.json), whose report is its own: give a folder of its own to the report across machines",
        ));
    for (path, bytes) in &kept {
        assert_eq!(&std::fs::read(path).unwrap(), bytes, "{}", path.display());
    }
    assert!(!cwd.join("x.json").exists());
    // An export of its own is written.
    bin(cwd)
        .args(["report", "a", "--export", "bmf=a/bmf.json"])
        .assert()
        .success();
    assert!(cwd.join("a/bmf.json").is_file());
}

/// Plants a link at `dir/name` to `target`.
fn plant(dir: &Path, name: &str, target: &Path) {
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_dir_all(&path);
    std::os::unix::fs::symlink(target, path).unwrap();
}

#[test]
fn links_planted_in_a_folder_are_never_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    quick_run(cwd, "a", &[]).success();
    let victim = cwd.join("victim");
    std::fs::write(&victim, "kept").unwrap();
    let elsewhere = cwd.join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let untouched = |what: &str| {
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "kept", "{what}");
        let left: Vec<_> = std::fs::read_dir(&elsewhere).unwrap().collect();
        assert!(left.is_empty(), "{what}: {left:?}");
    };
    let refused = |args: &[&str], link: &str| {
        bin(cwd)
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{} is a symbolic link; sudoku-bench never writes through one",
                Path::new("a").join(link).display()
            )));
    };
    // A file's place (summary.md) and a subfolder's (contenders/, charts/):
    // resume, a forced run over the folder, and a report of it refuse it.
    for (name, target) in [
        ("summary.md", &victim),
        ("contenders", &elsewhere),
        ("charts", &elsewhere),
    ] {
        plant(&cwd.join("a"), name, target);
        refused(&["bench", "--resume", "a"], name);
        refused(&["report", "a"], name);
        let force = [&QUICK[..], &["--force", "--out", "a"]].concat();
        refused(&force, name);
        untouched(name);
        std::fs::remove_file(cwd.join("a").join(name)).unwrap();
    }
    // A dangling link where a hunt's progress.csv goes, and one where a
    // scaling run's scaling.csv goes: refused before anything runs.
    let outside = cwd.join("made-outside.csv");
    std::fs::create_dir(cwd.join("h")).unwrap();
    plant(&cwd.join("h"), "progress.csv", &outside);
    bin(cwd)
        .args(["hunt", "--quiet", "--solver", "dlx", "--iterations", "10"])
        .args(["--threads", "1", "--out", "h"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("progress.csv is a symbolic link"));
    std::fs::create_dir(cwd.join("s")).unwrap();
    plant(&cwd.join("s"), "scaling.csv", &victim);
    quick_run(cwd, "s", &["--threads", "1,2"])
        .code(2)
        .stderr(predicate::str::contains("scaling.csv is a symbolic link"));
    assert!(!outside.exists(), "nothing made outside");
    assert!(!cwd.join("s/threads-1").exists(), "refused before it ran");
    untouched("hunt and scaling");
    // The lock file's own place.
    plant(&cwd.join("a"), LOCK, &victim);
    bin(cwd)
        .args(["report", "a"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a symbolic link"));
    untouched("lock");
}

#[test]
fn a_hunt_or_an_export_never_lands_in_a_runs_folder_or_subfolder() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    quick_run(cwd, "a", &[]).success();
    let before: Vec<_> = {
        let mut v: Vec<_> = std::fs::read_dir(cwd.join("a"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        v.sort();
        v
    };
    for force in [&[][..], &["--force"][..]] {
        bin(cwd)
            .args(["hunt", "--quiet", "--solver", "dlx", "--iterations", "10"])
            .args(["--out", "a"])
            .args(force)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "{} holds a run (run.json), not a hunt; choose another --out (--force replaces only a hunt)",
                Path::new("a").display()
            )));
    }
    std::fs::create_dir(cwd.join("a/contenders")).unwrap();
    quick_run(cwd, "c", &["--export", "bmf=a/contenders"])
        .code(2)
        .stderr(predicate::str::contains("--export bmf=a/contenders: "))
        .stderr(predicate::str::contains("a/contenders is a folder"));
    std::fs::remove_dir(cwd.join("a/contenders")).unwrap();
    quick_run(cwd, "c", &["--export", "bmf=a/charts"])
        .code(2)
        .stderr(predicate::str::contains("--export bmf=a/charts: "));
    // Into a run's subfolder, or over a scaling run's own files.
    quick_run(cwd, "c", &["--export", "bmf=a/contenders/x.json"])
        .code(2)
        .stderr(predicate::str::contains(
            "a/contenders is a run's own folder; give the export a file outside it",
        ));
    quick_run(
        cwd,
        "e",
        &["--threads", "1,2", "--export", "bmf=e/scaling.csv"],
    )
    .code(2)
    .stderr(predicate::str::contains(
        "that is the scaling.csv of the run folder",
    ));
    assert!(!cwd.join("e").exists());
    // compare --out into a run's folder, whose charts are its own.
    quick_run(cwd, "b", &[]).success();
    bin(cwd)
        .args(["compare", "b", "b", "--out", "a", "--quiet"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--out a: a run's folder or one of its subfolders: give the comparison a folder of its own",
        ));
    bin(cwd)
        .args(["compare", "b", "b", "--out", "a/charts", "--quiet"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "a run's folder or one of its subfolders",
        ));
    let mut after: Vec<_> = std::fs::read_dir(cwd.join("a"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    after.sort();
    assert_eq!(before, after);
    assert!(!cwd.join("c").exists());
}

#[test]
fn compare_and_baselines_wait_for_no_writer_and_share_no_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    quick_run(cwd, "a", &[]).success();
    quick_run(cwd, "b", &[]).success();
    let pid = std::process::id();
    // A run being written is not read; its comparison's folder not shared.
    let held = FolderLock::take(&cwd.join("b")).unwrap();
    bin(cwd)
        .args(["compare", "a", "b", "--quiet"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(refusal(Path::new("b"), pid)));
    drop(held);
    std::fs::create_dir(cwd.join("b/compare")).unwrap();
    let held = FolderLock::take(&cwd.join("b/compare")).unwrap();
    bin(cwd)
        .args(["compare", "a", "b", "--quiet"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is being written by another"));
    drop(held);
    bin(cwd)
        .args(["compare", "a", "b", "--quiet"])
        .assert()
        .code(predicate::in_iter([0, 1]));
    assert!(cwd.join("b/compare/compare.md").is_file());
    // Two saves of baselines at once: the second is refused.
    let root = cwd.join("reports/baselines");
    std::fs::create_dir_all(&root).unwrap();
    let held = FolderLock::take(&root).unwrap();
    quick_run(cwd, "c", &["--save-baseline", "x"])
        .code(2)
        .stderr(predicate::str::contains("is being written by another"));
    drop(held);
    assert!(!root.join("x").exists());
}

#[test]
fn a_scaling_runs_export_holds_every_count() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    quick_run(cwd, "s", &["--threads", "1,2", "--export", "bmf=s.json"]).success();
    let text = std::fs::read_to_string(cwd.join("s.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&String> = json.as_object().unwrap().keys().collect();
    assert_eq!(
        names,
        ["dlx/seeds-9x9 @ 1 threads", "dlx/seeds-9x9 @ 2 threads"],
        "{text}"
    );
    for name in names {
        assert!(json[name]["latency"]["value"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn history_into_a_record_an_export_over_the_lock_and_a_hand_edited_study_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    quick_run(cwd, "a", &[]).success();
    quick_run(cwd, "b", &[]).success();
    let before = std::fs::read_dir(cwd.join("b")).unwrap().count();
    bin(cwd)
        .args(["history", "a", "b", "--out", "b"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "it holds run.json, another command's record: give the history a folder of its own",
        ));
    assert_eq!(std::fs::read_dir(cwd.join("b")).unwrap().count(), before);
    quick_run(cwd, "c", &["--export", &format!("bmf=c/{LOCK}")])
        .code(2)
        .stderr(predicate::str::contains(format!(
            "that is the {LOCK} of the run folder"
        )));
    // A study whose study.json was edited to what no study command takes.
    bin(cwd)
        .args([
            "study",
            "clues",
            "--size",
            "4",
            "--clues",
            "4",
            "--puzzles",
            "4",
        ])
        .args(["--quiet", "--out", "s"])
        .assert()
        .success();
    let path = cwd.join("s/study.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    json["run"]["interrupted"] = true.into();
    for (field, value, said) in [
        ("repeat", 100_000, "repeat 100000 (1 to 1000)"),
        ("puzzles_per_point", 0, "0 puzzles a point"),
        ("rounds", 0, "0 rounds"),
    ] {
        let mut edited = json.clone();
        edited["study"][field] = value.into();
        std::fs::write(&path, edited.to_string()).unwrap();
        bin(cwd)
            .args(["study", "resume", "s"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!(
                "study.json records {said}, which no study takes: not resumed"
            )));
    }
}
