//! What a run guarantees (docs/benchmarking.md): no process it started
//! outlives it, on any exit path; its temporary folders are its own. Each
//! test marks the processes it causes with a variable of its own
//! (`HYGIENE_NEEDLE`, inherited by every descendant) and counts them after.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{bin_in, example, running, table};

const NEEDLE: &str = "HYGIENE_NEEDLE";

/// The run's words, its contender given after.
const RUN: [&str; 11] = [
    "bench",
    "--min-time",
    "0",
    "--quiet",
    "--no-report",
    "--warmup",
    "0",
    "--rounds",
    "1",
    "--dataset",
    "hard-9x9",
];

/// `--contender fx=sh -c '<prelude> exec FIXTURE TABLE BEHAVIOUR'` (the
/// prelude ends with `&`).
fn forking(table: &Path, prelude: &str, behaviour: &str) -> String {
    format!(
        "fx=sh -c '{prelude} exec {} {} {behaviour}'",
        example("fixture-contender").display(),
        table.display()
    )
}

/// Waits up to a minute for `f`.
fn until(what: &str, f: impl Fn() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(60), "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits up to two minutes for `child` to exit.
fn exit_of(child: &mut Child) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("the workbench did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// How many marked processes are left, once the kernel has had a moment
/// to deliver the kills (a dying process can take a few ms to go).
fn left(needle: &str) -> usize {
    let start = Instant::now();
    loop {
        let n = running(needle);
        if n == 0 || start.elapsed() > Duration::from_secs(10) {
            return n;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn contenders_that_fork_leave_nothing_running_setsid_or_not() {
    let dir = tempfile::tempdir().unwrap();
    let needle = dir.path().display().to_string();
    let t = table(dir.path(), &["hard-9x9"]);
    // A program that starts a daemon in a session of its own, a child in its
    // group and a double-forked one, then answers; and one that does the same
    // and crashes on its third puzzle, so it is started again and again.
    for behaviour in ["good", "crash-at:3"] {
        bin_in(dir.path())
            .env(NEEDLE, &needle)
            .args(RUN)
            .args(["--limit", "12", "--out", "run", "--force", "--threads", "2"])
            .args([
                "--contender",
                &forking(
                    &t,
                    "(sleep 779 &); setsid sleep 777 & sleep 778 &",
                    behaviour,
                ),
            ])
            .assert()
            .code(if behaviour == "good" { 0 } else { 1 });
        assert_eq!(left(&needle), 0, "{behaviour}: no process is left");
    }
}

#[test]
fn a_program_that_exits_while_its_child_holds_its_stdout_is_a_crash_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let needle = dir.path().display().to_string();
    // Its child keeps the pipe open; the program itself is gone. With a time
    // limit far off, only its own exit can say what happened.
    bin_in(dir.path())
        .env(NEEDLE, &needle)
        .args(RUN)
        .args(["--limit", "3", "--time-limit", "10m", "--out", "run"])
        .args(["--contender", "fx=sh -c 'sleep 600 & read -r line; exit 1'"])
        .assert()
        .code(1);
    let rows = std::fs::read_to_string(dir.path().join("run/results.csv")).unwrap();
    let fx: Vec<&str> = rows.lines().filter(|l| l.contains(",fx,")).collect();
    assert!(!fx.is_empty(), "{rows}");
    for row in &fx {
        assert!(row.contains("exit code 1"), "a crash, said as one: {row}");
        assert!(!row.contains("time limit"), "never a time-out: {row}");
    }
    assert_eq!(left(&needle), 0, "the child holding the pipe is ended too");
}

/// Starts a run whose contender never answers, waits until it holds the
/// run up, signals the workbench with `sig` and gives the exit status.
fn signalled(dir: &Path, sig: i32, contender: &str, env: &[(&str, &str)]) -> Option<i32> {
    let needle = dir.display().to_string();
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"));
    cmd.current_dir(dir)
        .env(NEEDLE, &needle)
        .args(RUN)
        .args(["--limit", "4", "--time-limit", "10m", "--out", "run"])
        .args(["--contender", contender])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    // The program is started (it carries the needle), and has had its puzzle.
    until("the contender runs", || running(&needle) > 1);
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: signalling our own child.
    unsafe { libc::kill(child.id() as i32, sig) };
    let status = exit_of(&mut child);
    assert_eq!(left(&needle), 0, "signal {sig}: no process is left");
    status.code()
}

#[test]
fn sigterm_and_sighup_stop_a_run_as_ctrl_c_does_and_end_its_programs() {
    for (sig, code) in [(libc::SIGTERM, 143), (libc::SIGHUP, 129)] {
        let dir = tempfile::tempdir().unwrap();
        let t = table(dir.path(), &["hard-9x9"]);
        let contender = forking(&t, "setsid sleep 777 & sleep 778 &", "hang");
        assert_eq!(signalled(dir.path(), sig, &contender, &[]), Some(code));
        let json = std::fs::read_to_string(dir.path().join("run/run.json")).unwrap();
        assert!(
            json.contains("\"interrupted\": true"),
            "signal {sig}: run.json says interrupted"
        );
        assert!(dir.path().join("run/results.csv").is_file());
    }
}

#[test]
fn sigkill_ends_a_looping_library_and_a_sleeping_program_with_the_workbench() {
    let lib = format!(
        "fx={}:fixture_solver:sudoku-bench",
        example("libfixture_library.so").display()
    );
    let dir = tempfile::tempdir().unwrap();
    let needle = dir.path().display().to_string();
    let counter = dir.path().join("calls").display().to_string();
    for (args, env) in [
        (
            vec!["--library", lib.as_str()],
            vec![
                ("SUDOKU_BENCH_FIXTURE", "hang:1"),
                ("SUDOKU_BENCH_FIXTURE_COUNTER", counter.as_str()),
            ],
        ),
        (vec!["--contender", "fx=sleep 600"], vec![]),
    ] {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
            .current_dir(dir.path())
            .env(NEEDLE, &needle)
            .envs(env)
            .args(RUN)
            .args([
                "--limit",
                "4",
                "--time-limit",
                "10m",
                "--out",
                "run",
                "--force",
            ])
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        until("the contender runs", || running(&needle) > 1);
        std::thread::sleep(Duration::from_millis(300));
        child.kill().unwrap(); // SIGKILL: no clean-up of its own
        let _ = child.wait();
        assert_eq!(left(&needle), 0, "the kernel ends what it started");
    }
}

#[test]
fn what_a_killed_run_left_in_sessions_of_their_own_the_next_run_ends() {
    let dir = tempfile::tempdir().unwrap();
    let needle = dir.path().display().to_string();
    let t = table(dir.path(), &["hard-9x9"]);
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
        .current_dir(dir.path())
        .env(NEEDLE, &needle)
        .args(RUN)
        .args(["--limit", "4", "--time-limit", "10m", "--out", "run"])
        .args(["--contender", &forking(&t, "setsid sleep 777 &", "hang")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    until("the daemon runs", || running(&needle) > 2);
    child.kill().unwrap();
    let _ = child.wait();
    // The daemon escaped the kernel's parent-death signal; the next run's
    // start ends it.
    bin_in(dir.path())
        .args(RUN)
        .args(["--limit", "2", "--out", "next", "--solver", "band"])
        .assert()
        .success()
        .stderr(predicates::str::contains("left running by a killed run"));
    assert_eq!(left(&needle), 0);
}

#[test]
fn contender_check_leaves_no_process_and_no_folder() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let needle = dir.path().display().to_string();
    let t = table(dir.path(), &["hard-9x9"]);
    // A victim, and links to it planted where the old fixed names were
    // (`sudoku-bench-check-PID/stderr.log`) for the next 300 process ids.
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "untouched").unwrap();
    let next = std::process::id();
    for pid in next..next + 300 {
        let planted = tmp.join(format!("sudoku-bench-check-{pid}"));
        std::fs::create_dir(&planted).unwrap();
        std::os::unix::fs::symlink(&victim, planted.join("stderr.log")).unwrap();
    }
    // A folder a killed check left (its process gone) is removed.
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let stale = tmp.join(format!("sudoku-bench-check-{dead}-AbC123"));
    std::fs::create_dir(&stale).unwrap();
    std::fs::write(stale.join("stderr.log"), "old").unwrap();
    let before = std::fs::read_dir(&tmp).unwrap().count() - 1;
    let program = format!(
        "setsid sleep 777 & sleep 778 & echo said >&2; exec {} {} crash-at:2",
        example("fixture-contender").display(),
        t.display()
    );
    bin_in(dir.path())
        .env(NEEDLE, &needle)
        .env("TMPDIR", &tmp)
        .args(["contender", "check", "--", "sh", "-c", &program])
        .assert()
        .code(1);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        before,
        "its private folder is gone, and so is the stale one"
    );
    assert!(!stale.exists());
    assert_eq!(left(&needle), 0);
}
