//! Outside programs as contenders, end to end: the table-answer fixture
//! (`tests/fixtures/contender.rs`) behaving well and badly, the examples, and
//! `contender check`.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{example, fixture, table};

use crate::common::bin_in as bin;

/// Rows of a run's results.csv as (variant, puzzle index, status, detail, nodes).
fn rows(run: &Path) -> Vec<(String, u64, String, String, String)> {
    let mut r = csv::Reader::from_path(run.join("results.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let at = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (v, i, s, d, n) = (
        at("variant"),
        at("puzzle_index"),
        at("status"),
        at("detail"),
        at("nodes"),
    );
    let mut out: Vec<_> = r
        .records()
        .map(|x| {
            let x = x.unwrap();
            (
                x[v].to_string(),
                x[i].parse().unwrap(),
                x[s].to_string(),
                x[d].to_string(),
                x[n].to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

fn of<'a>(
    rows: &'a [(String, u64, String, String, String)],
    variant: &str,
) -> Vec<&'a (String, u64, String, String, String)> {
    rows.iter().filter(|r| r.0 == variant).collect()
}

use crate::common::running;

/// A measured pass per puzzle (`--min-time 0`), so the rows can be counted.
const RUN: [&str; 8] = [
    "bench",
    "--min-time",
    "0",
    "--quiet",
    "--no-report",
    "--dataset",
    "hard-9x9",
    "--solver",
];

#[test]
fn the_table_fixture_runs_beside_a_strategy_and_reports_no_counters() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    bin(dir.path())
        .args(RUN)
        .args(["band", "--threads", "2", "--out", "run"])
        .args(["--contender", &fixture(&t, "good")])
        .assert()
        .success();
    let run = dir.path().join("run");
    let all = rows(&run);
    let fx = of(&all, "fx");
    assert_eq!(fx.len(), 300);
    assert!(
        fx.iter().all(|r| r.2 == "unique" && r.4.is_empty()),
        "{:?}",
        fx[0]
    );
    assert!(of(&all, "band")
        .iter()
        .all(|r| r.2 == "unique" && !r.4.is_empty()));
    let summary = std::fs::read_to_string(run.join("summary.csv")).unwrap();
    let line = summary
        .lines()
        .find(|l| l.starts_with("external,fx,"))
        .unwrap();
    assert!(
        line.starts_with("external,fx,hard-9x9,2,300,300,0,0,0,"),
        "{line}"
    );
    // guesses per puzzle and the no-guess share are empty, not zero
    let mut r = csv::Reader::from_path(run.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let g = h.iter().position(|x| x == "guesses_per_puzzle").unwrap();
    let row = r
        .records()
        .map(|x| x.unwrap())
        .find(|x| &x[1] == "fx")
        .unwrap();
    assert_eq!((&row[g], &row[g + 1]), ("", ""));
    let json = std::fs::read_to_string(run.join("run.json")).unwrap();
    assert!(
        json.contains("fixture-contender"),
        "run.json names the command"
    );
    assert!(run.join("contenders/fx.stderr.log").is_file());
    assert_eq!(running(&t.display().to_string()), 0, "no process is left");
}

#[test]
fn wrong_answers_are_caught_and_cost_only_their_rows() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    bin(dir.path())
        .args(RUN)
        .args(["bitset-mrv", "--out", "run"])
        .args(["--contender", &fixture(&t, "wrong")])
        .assert()
        .code(1);
    let all = rows(&dir.path().join("run"));
    let fx = of(&all, "fx");
    assert_eq!(fx.len(), 300);
    assert!(fx
        .iter()
        .all(|r| r.2 == "wrong" && r.3.contains("fails the check")));
    assert!(of(&all, "bitset-mrv").iter().all(|r| r.2 == "unique"));
}

/// After [`RUN`]: beside `bitset-mrv`, one worker, no warm-up, one round.
const ONE_BESIDE_BITSET: [&str; 7] = [
    "bitset-mrv",
    "--threads",
    "1",
    "--warmup",
    "0",
    "--rounds",
    "1",
];

#[test]
fn a_crashing_program_costs_only_its_own_rows_and_is_restarted_each_time() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    bin(dir.path())
        .args(RUN)
        .args(ONE_BESIDE_BITSET)
        .args(["--out", "run"])
        .args(["--contender", &fixture(&t, "crash-at:5")])
        .assert()
        .code(1);
    let run = dir.path().join("run");
    let all = rows(&run);
    let fx = of(&all, "fx");
    assert_eq!(fx.len(), 300, "every puzzle has its row");
    // Each process answers four puzzles and dies reading the fifth; answers
    // come between the crashes, so this is no crash loop: never given up.
    for r in &fx {
        if r.1 % 5 == 4 {
            assert_eq!(r.2, "error");
            assert!(r.3.contains("exit code 3"), "{}", r.3);
            assert!(r.3.contains("crashing on puzzle 5"), "{}", r.3);
        } else {
            assert_eq!(r.2, "unique", "puzzle {}", r.1);
        }
    }
    assert!(of(&all, "bitset-mrv").iter().all(|r| r.2 == "unique"));
    let log = std::fs::read_to_string(run.join("contenders/fx.stderr.log")).unwrap();
    assert_eq!(log.matches("crashing on puzzle 5").count(), 60);
}

#[test]
fn a_program_flooding_stderr_leaves_a_bounded_log_with_its_last_words() {
    // Its log was 30 MB after 3 puzzles.
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    bin(dir.path())
        .args(RUN)
        .args(ONE_BESIDE_BITSET)
        .args(["--limit", "3", "--out", "run"])
        .args(["--contender", &fixture(&t, "stderr:5000")])
        .assert()
        .success();
    let log = std::fs::read(dir.path().join("run/contenders/fx.stderr.log")).unwrap();
    let text = String::from_utf8_lossy(&log);
    use sudoku_bench::external::stderr::{HEAD, TAIL};
    // 5,000 KiB before each of its three answers, then its last line.
    let written: usize = (1..=3)
        .map(|n| 5000 * 1024 + format!("fixture: puzzle {n} said all\n").len())
        .sum();
    let note = format!(
        "\n[sudoku-bench: {} bytes of stderr cut here; a contender's log keeps the first 64 KiB and the last 64 KiB]\n",
        written - HEAD - TAIL
    );
    assert_eq!(log.len(), HEAD + note.len() + TAIL);
    assert_eq!(&text[HEAD..HEAD + note.len()], note);
    assert!(text.starts_with("fixture: puzzle      1 line          0....."));
    assert!(
        text.ends_with("line      79999.........................\nfixture: puzzle 3 said all\n")
    );
    let rows = rows(&dir.path().join("run"));
    assert!(of(&rows, "fx").iter().all(|r| r.2 == "unique"));
}

#[test]
fn a_program_that_answers_nothing_is_given_up_after_the_documented_bound() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    let out = bin(dir.path())
        .args(RUN)
        .args(ONE_BESIDE_BITSET)
        .args(["--limit", "60", "--out", "run"])
        .args(["--contender", &fixture(&t, "crash-at:1")])
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let run = dir.path().join("run");
    let all = rows(&run);
    let fx = of(&all, "fx");
    assert_eq!(fx.len(), 60, "every puzzle has its row");
    let k = sudoku_bench::external::UNANSWERED_BOUND as usize;
    let crashed = fx
        .iter()
        .filter(|r| r.3.contains("exit code 3") && !r.3.starts_with("not run:"))
        .count();
    let given_up = fx.iter().filter(|r| r.3.starts_with("not run:")).count();
    assert_eq!((crashed, given_up), (k, 60 - k));
    assert!(fx.iter().all(|r| r.2 == "error"));
    // Said once, in the terminal and in the summary.
    assert_eq!(stderr.matches("given up").count(), 1, "{stderr}");
    assert!(stderr.contains("9x9 puzzles"), "{stderr}");
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert_eq!(md.matches("given up").count(), 1, "{md}");
    let log = std::fs::read_to_string(run.join("contenders/fx.stderr.log")).unwrap();
    assert_eq!(log.matches("crashing on puzzle 1").count(), k);
}

#[test]
fn max_crashes_gives_a_program_up_at_that_many_crashes() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    let out = bin(dir.path())
        .args(RUN)
        .args(ONE_BESIDE_BITSET)
        .args(["--limit", "60", "--out", "run", "--max-crashes", "4"])
        .args(["--contender", &fixture(&t, "crash-at:5")])
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let all = rows(&dir.path().join("run"));
    let fx = of(&all, "fx");
    // Four answers, then a crash: four times, then nothing more is sent.
    let crashed = fx
        .iter()
        .filter(|r| r.3.contains("exit code 3") && !r.3.starts_with("not run:"))
        .count();
    let given_up = fx.iter().filter(|r| r.3.starts_with("not run:")).count();
    assert_eq!((crashed, given_up), (4, 60 - 20), "{stderr}");
    assert_eq!(stderr.matches("given up").count(), 1, "{stderr}");
    assert!(stderr.contains("max_crashes (4"), "{stderr}");
}

#[test]
fn a_line_that_is_not_an_answer_is_an_error_row_quoting_it() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    bin(dir.path())
        .args(RUN)
        .args(["bitset-mrv", "--limit", "10", "--out", "run"])
        .args(["--contender", &fixture(&t, "garbage")])
        .assert()
        .code(1);
    let all = rows(&dir.path().join("run"));
    let fx = of(&all, "fx");
    assert_eq!(fx.len(), 10);
    for r in fx {
        assert_eq!(r.2, "error");
        assert!(r.3.contains("\"hello from the fixture\""), "{}", r.3);
    }
}

#[test]
fn a_hanging_program_is_killed_at_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    let started = Instant::now();
    bin(dir.path())
        .args(RUN)
        .args([
            "bitset-mrv",
            "--limit",
            "5",
            "--warmup",
            "0",
            "--out",
            "run",
        ])
        .args(["--time-limit", "100ms", "--threads", "1"])
        .args(["--contender", &fixture(&t, "hang")])
        .assert()
        .success();
    // Five puzzles at 100 ms each, plus restarts: far from the hour it sleeps
    // (the bound is loose so that a loaded machine cannot fail it).
    assert!(started.elapsed() < Duration::from_secs(600));
    let all = rows(&dir.path().join("run"));
    let fx = of(&all, "fx");
    assert_eq!(fx.len(), 5);
    assert!(fx.iter().all(|r| r.2 == "budget"), "{fx:?}");
    assert!(of(&all, "bitset-mrv").iter().all(|r| r.2 == "unique"));
    assert_eq!(running(&t.display().to_string()), 0, "no process is left");
}

#[test]
fn ctrl_c_keeps_the_rows_and_leaves_no_process() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
        .current_dir(dir.path())
        .args(RUN)
        .args([
            "bitset-mrv",
            "--schedule",
            "sequential",
            "--rounds",
            "1",
            "--warmup",
            "0",
            "--out",
            "run",
        ])
        .args(["--contender", &fixture(&t, "hang")])
        .spawn()
        .unwrap();
    // bitset-mrv runs first; then the hanging program holds the run up.
    let results = dir.path().join("run/results.csv");
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until
        && std::fs::read_to_string(&results).map_or(0, |t| t.lines().count()) < 301
    {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let all = rows(&dir.path().join("run"));
    assert_eq!(
        of(&all, "bitset-mrv").len(),
        300,
        "the measured rows are kept"
    );
    assert_eq!(running(&t.display().to_string()), 0, "no process is left");
}

#[test]
fn a_command_that_cannot_start_is_an_error_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    bin(dir.path())
        .args(RUN)
        .args(["bitset-mrv", "--out", "run"])
        .args(["--contender", "fx=./no-such-program --flag"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "contender fx: cannot start \"./no-such-program --flag\"",
        ));
    assert!(!dir.path().join("run/results.csv").exists());
}

#[test]
fn contenders_file_sizes_skip_other_sizes_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["set-4x4"]);
    let toml = format!(
        "[[contender]]\nname = \"fx\"\ncommand = [{:?}, {:?}]\nsizes = [4]\ndescription = \"answers from a table\"\n",
        example("fixture-contender").display().to_string(),
        t.display().to_string()
    );
    std::fs::write(dir.path().join("c.toml"), toml).unwrap();
    bin(dir.path())
        .args([
            "bench",
            "--min-time",
            "0",
            "--no-report",
            "--dataset",
            "set-4x4,seeds-9x9",
        ])
        .args(["--solver", "dlx", "--contenders", "c.toml", "--out", "run"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "fx skipped on seeds-9x9 (9x9): it handles 4x4 only",
        ));
    let all = rows(&dir.path().join("run"));
    assert_eq!(of(&all, "fx").len(), 100);
    assert!(of(&all, "fx").iter().all(|r| r.2 == "unique"));
    // A bad file names the line and column.
    std::fs::write(
        dir.path().join("bad.toml"),
        "[[contender]]\nname = \"x\"\ncommand = 3\n",
    )
    .unwrap();
    bin(dir.path())
        .args(["bench", "--contenders", "bad.toml"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bad.toml:3:11"));
}

#[test]
fn contender_check_passes_the_rust_example_and_names_an_unflushed_answer() {
    let dir = tempfile::tempdir().unwrap();
    bin(dir.path())
        .args(["contender", "check", "--"])
        .arg(example("rust-contender"))
        .assert()
        .success()
        .stdout(predicates::str::contains("no problems"))
        .stdout(predicates::str::contains(
            "25x25 puzzle with several solutions: multiple",
        ))
        .stdout(predicates::str::contains(
            "9x9 puzzle with no solution: none",
        ));
    let t = table(dir.path(), &["hard-9x9"]);
    bin(dir.path())
        .args([
            "contender",
            "check",
            "--sizes",
            "9",
            "--timeout",
            "300ms",
            "--",
        ])
        .arg(example("fixture-contender"))
        .arg(&t)
        .arg("unflushed")
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "flush stdout after every answer line",
        ));
    bin(dir.path())
        .args(["contender", "check", "--sizes", "9", "--"])
        .arg(example("fixture-contender"))
        .arg(&t)
        .arg("wrong")
        .assert()
        .code(1)
        .stdout(predicates::str::contains(
            "9x9 puzzle with one solution: wrong: solution 1 fails the check",
        ));
}

/// The Python example's path, or `None` (with a notice) where there is no python3.
fn python_example() -> Option<std::path::PathBuf> {
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output();
    if !python.is_ok_and(|o| o.status.success()) {
        eprintln!("NOTICE: python3 not found: the Python example test is SKIPPED");
        return None;
    }
    Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/contenders/solver.py"))
}

/// The Python example answers every embedded 9×9 and 4×4 set correctly.
#[test]
fn the_python_example_solves_the_embedded_sets() {
    let Some(script) = python_example() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sets = "seeds-9x9,easy-9x9,medium-9x9,hard-9x9,extreme-9x9,set-4x4";
    bin(dir.path())
        .args([
            "bench",
            "--quiet",
            "--no-report",
            "--dataset",
            sets,
            "--out",
            "run",
        ])
        .args([
            "--contender",
            &format!("python=python3 {}", script.display()),
        ])
        .assert()
        .success();
    let all = rows(&dir.path().join("run"));
    let py = of(&all, "python");
    assert!(py.len() > 1000, "{}", py.len());
    assert!(
        py.iter().all(|r| r.2 == "unique" && !r.4.is_empty()),
        "{:?}",
        py.iter().find(|r| r.2 != "unique")
    );
}

/// Past 25×25 the protocol sends 36×36 in `0-9A-Z` and 49×49, 64×64 as
/// numbers separated by spaces: the Python example, which reads and writes
/// both, passes `contender check` on those sizes and solves the 64×64 set.
#[test]
fn the_python_example_speaks_every_size_to_64() {
    let Some(script) = python_example() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let script = script.display().to_string();
    let out = bin(dir.path())
        .args([
            "contender",
            "check",
            "--sizes",
            "36,49,64",
            "--",
            "python3",
            &script,
        ])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    for size in ["36x36", "49x49", "64x64"] {
        assert!(
            text.contains(&format!(
                "ok   {size} puzzle with several solutions: multiple"
            )),
            "{text}"
        );
    }
    let toml = format!(
        "[[contender]]\nname = \"python\"\ncommand = [\"python3\", {script:?}]\nsizes = [64]\n"
    );
    std::fs::write(dir.path().join("c.toml"), toml).unwrap();
    bin(dir.path())
        .args(["bench", "--quiet", "--no-report", "--dataset", "set-64x64"])
        .args([
            "--solver",
            "bitset-mrv",
            "--contenders",
            "c.toml",
            "--out",
            "run",
        ])
        .assert()
        .success();
    let all = rows(&dir.path().join("run"));
    let py = of(&all, "python");
    assert!(
        !py.is_empty() && py.iter().all(|r| r.2 == "unique"),
        "{py:?}"
    );
}

#[test]
fn reference_and_outside_rows_are_marked_and_count_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["set-4x4"]);
    bin(dir.path())
        .args([
            "bench",
            "--min-time",
            "0",
            "--dataset",
            "set-4x4",
            "--out",
            "run",
        ])
        .args(["--solver", "sat-varisat,dlx-crate,dlx"])
        .args(["--contender", &fixture(&t, "good")])
        .assert()
        .success();
    let run = dir.path().join("run");
    let mut r = csv::Reader::from_path(run.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    let o = h.iter().position(|x| x == "origin").unwrap();
    let origins: Vec<(String, String)> = r
        .records()
        .map(|x| x.unwrap())
        .map(|x| (x[1].to_string(), x[o].to_string()))
        .collect();
    let want = [
        ("sat-varisat", "reference"),
        ("dlx-crate", "reference"),
        ("dlx", "built-in"),
        ("fx", "external"),
    ];
    for (v, origin) in want {
        assert!(
            origins.contains(&(v.to_string(), origin.to_string())),
            "{origins:?}"
        );
    }
    let md = std::fs::read_to_string(run.join("summary.md")).unwrap();
    assert!(
        md.contains("| sat-varisat (reference) ") && md.contains("| fx (external) "),
        "{md}"
    );
    let all = rows(&run);
    assert!(of(&all, "sat-varisat")
        .iter()
        .all(|r| r.2 == "unique" && r.4.is_empty()));
    assert!(of(&all, "dlx-crate")
        .iter()
        .all(|r| r.2 == "unique" && r.4.is_empty()));
    assert!(of(&all, "dlx")
        .iter()
        .all(|r| r.2 == "unique" && !r.4.is_empty()));
    let svg = std::fs::read_dir(run.join("charts"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "svg"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect::<String>();
    assert!(
        svg.contains("sat-varisat (reference)"),
        "charts mark the reference rows"
    );
}

#[test]
fn answers_that_arrive_together_are_timed_per_puzzle_never_below_the_programs_own_clock() {
    // The fixture works 300 µs on each puzzle and answers two at once when it has two.
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    for threads in ["1", "2"] {
        bin(dir.path())
            .args(RUN)
            .args(["band", "--limit", "24", "--warmup", "0", "--rounds", "2"])
            .args([
                "--threads",
                threads,
                "--out",
                "run",
                "--force",
                "--keep-solves",
            ])
            .args(["--contender", &fixture(&t, "pairs:300")])
            .assert()
            .success();
        let mut r = csv::Reader::from_path(dir.path().join("run/solves.csv")).unwrap();
        let h = r.headers().unwrap().clone();
        let col = |n: &str| h.iter().position(|x| x == n).unwrap();
        let (v, ns, own) = (col("variant"), col("solve_ns"), col("own_ns"));
        let fx: Vec<(u64, u64)> = r
            .records()
            .map(|x| x.unwrap())
            .filter(|x| &x[v] == "fx")
            .map(|x| (x[ns].parse().unwrap(), x[own].parse().unwrap()))
            .collect();
        assert_eq!(fx.len(), 24);
        // The run timed the pipe's floor, for its transport note.
        let run: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join("run/run.json")).unwrap(),
        )
        .unwrap();
        assert!(
            run["pipe_floor_ns"].as_u64().is_some_and(|f| f > 0),
            "{run}"
        );
        for (harness, own) in fx {
            assert!(own >= 300_000, "the fixture's own clock: {own}");
            assert!(
                harness + 1_000 >= own,
                "{threads} threads: timed {harness} ns, the program's own {own} ns"
            );
        }
    }
}

/// Pencilmark lines reach a program that says `pencilmark = true` (started
/// with SUDOKU_BENCH_PENCILMARK=1), and a program that does not is skipped on
/// a dataset with pencilmarks, with a note: the Python example reads them,
/// passes `contender check --pencilmark`, and solves them in a run.
#[test]
fn pencilmark_lines_go_to_programs_that_take_them() {
    let Some(script) = python_example() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let script = script.display().to_string();
    let out = bin(dir.path())
        .args(["contender", "check", "--pencilmark", "--sizes", "4,9,16"])
        .args(["--", "python3", &script])
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("SUDOKU_BENCH_PENCILMARK=1"), "{text}");
    for size in ["4x4", "9x9", "16x16"] {
        for verdict in [
            "one solution (pencilmarks): unique",
            "several solutions (pencilmarks): multiple",
            "no solution (pencilmarks): none",
        ] {
            assert!(
                text.contains(&format!("ok   {size} puzzle with {verdict}")),
                "{text}"
            );
        }
    }
    // The easy set in pencilmark form: every third wrong candidate excluded.
    let ds = sudoku_bench::harness::resolve(
        "easy-9x9",
        &Default::default(),
        &sudoku_bench::harness::Selection::default(),
        &mut |_| {},
    )
    .unwrap()
    .remove(0);
    let alphabet = sudoku_bench::format::Alphabet::default_for(ds.geometry);
    let mut file = String::new();
    for p in &ds.puzzles[..60] {
        let answer = p.expected.as_ref().unwrap();
        let marks = (0..81)
            .map(|c| {
                (1..=9u8)
                    .filter(|&d| {
                        d == answer.get(c)
                            || (p.grid.get(c) == 0 && !(c + d as usize).is_multiple_of(3))
                    })
                    .fold(0u64, |m, d| m | 1 << (d - 1))
            })
            .collect();
        let pm = sudoku_bench::format::from_marks(ds.geometry, marks);
        let line = sudoku_bench::format::write_line(&pm, &alphabet);
        assert_eq!(line.len(), 729);
        file.push_str(&format!(
            "{line} {}\n",
            sudoku_bench::format::write_line(answer, &alphabet)
        ));
    }
    // A last line whose r1c1 has no candidate: an `invalid` row, the cell named.
    let first = file
        .lines()
        .next()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    file.push_str(&format!("{}{}\n", ".".repeat(9), &first[9..]));
    std::fs::write(dir.path().join("pm.txt"), file).unwrap();
    let toml = format!(
        "[[contender]]\nname = \"python\"\ncommand = [\"python3\", {script:?}]\npencilmark = true\n\n\
         [[contender]]\nname = \"plain\"\ncommand = [\"python3\", {script:?}]\n"
    );
    std::fs::write(dir.path().join("c.toml"), toml).unwrap();
    bin(dir.path())
        .args([
            "bench",
            "--min-time",
            "0",
            "--no-report",
            "--dataset",
            "pm.txt",
        ])
        .args(["--solver", "dlx", "--contenders", "c.toml", "--out", "run"])
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "plain skipped on pm (9x9): it handles puzzles without pencilmarks only",
        ));
    let all = rows(&dir.path().join("run"));
    for variant in ["python", "dlx"] {
        let got = of(&all, variant);
        assert_eq!(got.len(), 61, "{variant}");
        assert!(
            got[..60].iter().all(|r| r.2 == "unique"),
            "{variant}: {got:?}"
        );
        assert_eq!(
            (got[60].2.as_str(), got[60].3.as_str()),
            ("invalid", "the pencilmarks leave cell r1c1 no candidate")
        );
    }
    assert!(of(&all, "plain").is_empty());
    let run: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("run/run.json")).unwrap()).unwrap();
    assert!(run.to_string().contains("\"pencilmarks\":61"), "{run}");
}

#[test]
fn a_batch_program_is_sent_puzzles_in_batches_and_its_rows_say_batch() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    let fx = example("fixture-contender");
    for (behaviour, status) in [("good", "unique"), ("wrong", "wrong")] {
        std::fs::write(
            dir.path().join("batch.toml"),
            format!(
                "[[contender]]\nname = \"fx\"\ncommand = [{:?}, {:?}, {behaviour:?}]\nsizes = [9]\nbatch = 8\n",
                fx.display().to_string(),
                t.display().to_string()
            ),
        )
        .unwrap();
        bin(dir.path())
            .args(RUN)
            .args([
                "band",
                "--limit",
                "40",
                "--threads",
                "1",
                "--out",
                "run",
                "--force",
            ])
            .args(["--contenders", "batch.toml"])
            .assert()
            .code(if behaviour == "good" { 0 } else { 1 });
        let results: Vec<sudoku_bench::harness::PuzzleResult> =
            crate::common::csv_rows(&dir.path().join("run/results.csv"));
        let fx_rows: Vec<_> = results.iter().filter(|r| &*r.variant == "fx").collect();
        assert_eq!(fx_rows.len(), 40);
        // Checked like any answer, and marked as shares of a batch.
        assert!(fx_rows.iter().all(
            |r| r.status.word() == status && r.timing == sudoku_bench::contender::Timing::Batch
        ));
        let band = results.iter().find(|r| &*r.variant == "band").unwrap();
        assert_eq!(band.timing, sudoku_bench::contender::Timing::Call);
        let summary = std::fs::read_to_string(dir.path().join("run/summary.csv")).unwrap();
        assert!(
            summary
                .lines()
                .any(|l| l.contains(",fx,") && l.contains(",batch,solution,,,,,")),
            "{summary}"
        );
    }
}

#[test]
fn a_batch_past_the_most_is_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let fx = example("fixture-contender");
    // One panicked on capacity overflow, the other aborted allocating 800 GB.
    for k in ["9223372036854775807", "100000000000"] {
        std::fs::write(
            dir.path().join("batch.toml"),
            format!(
                "[[contender]]\nname = \"fx\"\ncommand = [{:?}]\nbatch = {k}\n",
                fx.display().to_string()
            ),
        )
        .unwrap();
        let out = bin(dir.path())
            .args(RUN)
            .args(["band", "--limit", "4", "--out", "run"])
            .args(["--contenders", "batch.toml"])
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        let want = format!("batch.toml:4:1: contender fx: batch is {k}: give at most 4096 puzzles");
        assert!(stderr.contains(&want), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!dir.path().join("run").exists(), "nothing ran");
    }
}

/// Every number in a file, as written (digits, a point, separators).
fn numbers(text: &str) -> Vec<f64> {
    // Words with letters in them are names, not figures: a commit or a
    // checksum (`da5ba832520a2d6439477946683b7d2c…`) holds long runs of digits.
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == ','))
        .filter(|w| !w.chars().any(|c| c.is_ascii_alphabetic()))
        .flat_map(|w| w.split(',').map(str::to_string).collect::<Vec<_>>())
        .filter_map(|w| w.trim_matches('.').parse::<f64>().ok())
        .collect()
}

#[test]
fn a_program_failing_every_row_gets_no_figure_anywhere_and_its_failures_come_first() {
    let dir = tempfile::tempdir().unwrap();
    let t = table(dir.path(), &["hard-9x9"]);
    let out = bin(dir.path())
        .args(["bench", "--min-time", "0", "--dataset", "hard-9x9"])
        .args(["--solver", "bitset-mrv", "--threads", "1", "--warmup", "0"])
        .args(["--limit", "5", "--out", "run"])
        .args(["--contender", &fixture(&t, "wrong")])
        .assert()
        .code(1);
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    // The matrix shows its failures, and the last line names it.
    let fx = stdout
        .lines()
        .find(|l| l.starts_with("fx (external)"))
        .unwrap();
    assert!(fx.contains("5/5 wrong"), "{stdout}");
    assert!(
        !stdout.contains("`fx`") && !stdout.contains("fx is"),
        "{stdout}"
    );
    assert!(
        stderr
            .trim_end()
            .ends_with("by fx (5 wrong) (rows with status wrong/error in run/results.csv)"),
        "{stderr}"
    );
    let run = dir.path().join("run");
    let mut r = csv::Reader::from_path(run.join("summary.csv")).unwrap();
    let h = r.headers().unwrap().clone();
    for row in r.records() {
        let row = row.unwrap();
        let get = |n: &str| row.get(h.iter().position(|x| x == n).unwrap()).unwrap();
        if get("variant") == "fx" {
            for col in [
                "speed",
                "speed_lo",
                "speed_hi",
                "median_us",
                "median_lo_us",
                "mean_us",
                "max_us",
            ] {
                assert_eq!(get(col), "", "{col}");
            }
            assert_eq!(get("puzzles_per_sec"), "0.0");
            assert!(get("first_failures").starts_with("#0 wrong:"));
        }
    }
    // Failures first, and no figure, sentence or advice for it.
    for name in ["summary.md", "report.md"] {
        let md = std::fs::read_to_string(run.join(name)).unwrap();
        let failures = md
            .find("## Failures")
            .unwrap_or_else(|| panic!("{name}: {md}"));
        assert!(md.find("## Summary").unwrap() > failures, "{name}");
        assert!(
            md.contains("`fx` on hard-9x9: 5 wrong of 5 puzzles (0 verified)"),
            "{md}"
        );
        assert!(
            !md.contains("than `fx`") && !md.contains("`fx` is"),
            "{name}: {md}"
        );
        assert!(!md.contains("pipe's own round trip"), "{name}");
    }
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(html.find("id=\"failures\"").unwrap() < html.find("id=\"overview\"").unwrap());
    assert!(html.contains("<td class=\"failed\"") || html.contains("<td class=\"failed wrap\""));
    // No number out of range in any file: no sentinel, no infinity.
    for name in ["summary.csv", "summary.md", "report.md"] {
        let text = std::fs::read_to_string(run.join(name)).unwrap();
        assert!(!text.contains("inf") && !text.contains("NaN"), "{name}");
        assert!(
            numbers(&text).iter().all(|x| x.is_finite() && *x < 1e12),
            "{name}: {text}"
        );
    }
}

#[test]
fn a_program_named_with_its_sizes_is_skipped_on_the_others_and_passes() {
    let dir = tempfile::tempdir().unwrap();
    let nines = [
        "seeds-9x9",
        "easy-9x9",
        "medium-9x9",
        "hard-9x9",
        "extreme-9x9",
    ];
    let t = table(dir.path(), &nines);
    // Not declared: every 4x4 puzzle fails, and the last line says how to skip them.
    let out = bin(dir.path())
        .args(["bench", "--min-time", "0", "--quiet", "--no-report"])
        .args(["--solver", "bitset-mrv", "--threads", "1", "--warmup", "0"])
        .args([
            "--dataset",
            "hard-9x9,set-4x4",
            "--limit",
            "10",
            "--out",
            "bare",
        ])
        .args(["--contender", &fixture(&t, "good")])
        .assert()
        .code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    let last = stderr.lines().last().unwrap();
    assert!(
        last.contains("by fx (10 wrong): every 4x4 puzzle failed; declaring its sizes skips them: `--contender 'fx@9="),
        "{last}"
    );
    assert!(last.contains("`sizes = [9]`"), "{last}");
    let named = fixture(&t, "good").replacen("fx=", "fx@9=", 1);
    let out = bin(dir.path())
        .args(["bench", "--min-time", "0", "--quiet", "--no-report"])
        .args(["--solver", "bitset-mrv", "--threads", "1", "--warmup", "0"])
        .args(["--limit", "10", "--out", "run", "--contender", &named])
        .assert()
        .code(0);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    for set in [
        "set-4x4",
        "set-16x16",
        "set-25x25",
        "set-36x36",
        "set-64x64",
    ] {
        assert!(
            stderr.contains(&format!("fx skipped on {set}")),
            "{set}: {stderr}"
        );
    }
    let all = rows(&dir.path().join("run"));
    let fx = of(&all, "fx");
    assert_eq!(
        fx.len(),
        10 * (nines.len() - 1) + 3,
        "seeds-9x9 has 3 puzzles"
    );
    assert!(fx.iter().all(|r| r.2 == "unique"));
}
