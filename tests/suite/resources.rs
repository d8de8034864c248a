//! What a contender uses beside the wall clock: CPU time (and a flag when it
//! exceeds the wall time) and an outside program's peak memory, read from
//! fixtures that misbehave on purpose.

use crate::common::bin_in as bin;
use crate::common::{csv_rows, example, hard_lines as puzzles};
use std::path::Path;
use sudoku_bench::harness::SummaryRow;

/// Writes 12 puzzles and the fixture's table; returns the contenders file
/// for `(name, behaviour)` pairs of the fixture program.
fn setup(dir: &Path, fixtures: &[(&str, &str)]) {
    setup_n(dir, 12, fixtures);
}

/// [`setup`] with `n` puzzles.
fn setup_n(dir: &Path, n: usize, fixtures: &[(&str, &str)]) {
    let all = puzzles(n);
    let set: String = all.iter().map(|(p, _)| format!("{p}\n")).collect();
    let table: String = all.iter().map(|(p, s)| format!("{p}\t{s}\n")).collect();
    std::fs::write(dir.join("set.txt"), set).unwrap();
    std::fs::write(dir.join("table.tsv"), table).unwrap();
    let fx = example("fixture-contender");
    let toml: String = fixtures
        .iter()
        .map(|(name, behaviour)| {
            format!(
                "[[contender]]\nname = \"{name}\"\ncommand = [\"{}\", \"{}\", \"{behaviour}\"]\n\n",
                fx.display(),
                dir.join("table.tsv").display()
            )
        })
        .collect();
    std::fs::write(dir.join("c.toml"), toml).unwrap();
}

fn run(dir: &Path, extra: &[&str]) -> (Vec<SummaryRow>, String) {
    bin(dir)
        .args(["bench", "--rounds", "1", "--warmup", "1"])
        .args([
            "--no-report",
            "--dataset",
            "set.txt",
            "--contenders",
            "c.toml",
        ])
        .args(["--threads", "1", "--out", "run", "--force"])
        .args(extra)
        .assert()
        .success();
    let summary = std::fs::read_to_string(dir.join("run/summary.md")).unwrap();
    (csv_rows(&dir.join("run/summary.csv")), summary)
}

#[test]
fn a_programs_cpu_time_is_counted_over_all_its_threads() {
    let dir = tempfile::tempdir().unwrap();
    // Four threads, 2 ms of CPU each, a puzzle: 8 ms of CPU a puzzle.
    setup(
        dir.path(),
        &[
            ("spinner", "threads:2000"),
            ("calm", "slow:3000"),
            ("single", "good"),
        ],
    );
    // Some hundreds of milliseconds of passes: the kernel counts a
    // process's CPU time in ticks (10 ms).
    let (rows, _) = run(
        dir.path(),
        &["--solver", "bitset-mrv", "--min-time", "0.5s"],
    );
    let of = |name: &str| rows.iter().find(|r| r.variant == name).unwrap();
    let spinner = of("spinner").cpu_us.unwrap();
    assert!(
        (7_000.0..10_000.0).contains(&spinner),
        "spinner: {spinner} µs of CPU a puzzle"
    );
    // Sleeping is no CPU time.
    let calm = of("calm").cpu_us.unwrap();
    assert!(
        calm < 1_000.0,
        "a sleeping program: {calm} µs of CPU a puzzle"
    );
    assert!(of("calm").cpu_ratio.unwrap() < 0.5);
    // Read on each program's CPU clock inside its calls' wall time: a
    // program of one thread can never read above 1, whatever the machine.
    for name in ["spinner", "calm", "single"] {
        assert_eq!(of(name).cpu_clock, "process", "{name}");
        assert_eq!(of(name).cpu_margin, Some(0.0), "{name}");
    }
    let single = of("single").cpu_ratio.unwrap();
    assert!(single <= 1.0, "one thread: CPU/wall {single}");
    assert!(!of("single").over_cores() && !of("calm").over_cores());
    // (Whether the spinner reads above 1.1 depends on the cores free for
    // its threads: the flag itself is tested on faked readings.)
    // A built-in uses its worker thread's core, about one to one.
    let built_in = of("bitset-mrv");
    assert!(
        built_in.cpu_ratio.unwrap() <= 1.1,
        "{:?}",
        built_in.cpu_ratio
    );
    assert!(built_in.cpu_us.unwrap() > 0.0);
    eprintln!(
        "CPU/wall: spinner {:.2}, calm {:.2}",
        of("spinner").cpu_ratio.unwrap(),
        of("calm").cpu_ratio.unwrap()
    );
}

#[test]
fn the_cpu_time_of_children_a_program_waits_for_is_its_own() {
    let dir = tempfile::tempdir().unwrap();
    // Three child processes, 3 ms of CPU each, a puzzle: 9 ms a puzzle.
    setup(dir.path(), &[("forks", "children:3000")]);
    let (rows, _) = run(dir.path(), &["--min-time", "0.5s"]);
    // Without the children it would be the parent's own, well under 1 ms;
    // each child's start (exec, loading) adds a little to their 3 ms.
    let cpu = rows[0].cpu_us.unwrap();
    assert!(
        (8_500.0..40_000.0).contains(&cpu),
        "forks: {cpu} µs of CPU a puzzle"
    );
}

#[test]
fn a_programs_peak_memory_is_what_it_held() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &[("holder", "hold:100"), ("small", "good")]);
    let (rows, _) = run(dir.path(), &["--min-time", "0"]);
    let of = |name: &str| rows.iter().find(|r| r.variant == name).unwrap();
    let held = of("holder").peak_mem_bytes.unwrap() as f64;
    let want = 100.0 * 1024.0 * 1024.0;
    assert!(
        (held - want).abs() <= 0.1 * want,
        "peak {held} bytes for 100 MiB held"
    );
    let small = of("small").peak_mem_bytes.unwrap() as f64;
    assert!(
        small < 0.2 * want,
        "a program that holds nothing: {small} bytes"
    );
}

#[test]
fn pinned_a_programs_threads_share_its_workers_core() {
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &[("spinner", "threads:2000")]);
    let (rows, _) = run(dir.path(), &["--min-time", "0.5s", "--pin"]);
    let spinner = &rows[0];
    // Four threads on one processor: at most its wall time in CPU time,
    // whatever else the machine runs (the CPU clock is read inside each
    // call's wall window).
    let ratio = spinner.cpu_ratio.unwrap();
    assert!(ratio <= 1.0, "pinned spinner: CPU/wall {ratio}");
    assert!(!spinner.over_cores());
    assert!(
        spinner.cpu_us.unwrap() > 7_000.0,
        "its CPU time is all still counted"
    );
    let run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("run/run.json")).unwrap())
            .unwrap();
    assert_eq!(
        run["options"]["pin"], true,
        "run.json says the run was pinned"
    );
    eprintln!("pinned CPU/wall {ratio:.2}");
}

/// Processes whose command line names `needle` (a test's own folder).
fn running_with(needle: &str) -> usize {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|c| String::from_utf8_lossy(c).contains(needle))
        .count()
}

/// 60 puzzles, of which the fixture takes 1 GiB on 3 (by content, whichever
/// process gets them), run with `--memory-limit 256M` at `threads`.
fn hogs(by: Option<&str>, threads: &str) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let all = puzzles(60);
    let hogs: String = [7, 30, 51]
        .iter()
        .map(|&i| format!("hog {}\n", all[i].0))
        .collect();
    std::fs::write(d.join("hogs.txt"), hogs).unwrap();
    let faults = format!("faults:{}", d.join("hogs.txt").display());
    setup_n(d, 60, &[("hog", faults.as_str())]);
    let mut cmd = bin(d);
    if let Some(by) = by {
        cmd.env("SUDOKU_BENCH_MEMORY_LIMIT_BY", by);
    }
    cmd.args(["bench", "--rounds", "1", "--warmup", "0", "--min-time", "0"])
        .args([
            "--no-report",
            "--dataset",
            "set.txt",
            "--contenders",
            "c.toml",
        ])
        .args([
            "--memory-limit",
            "256M",
            "--threads",
            threads,
            "--out",
            "run",
        ])
        .assert()
        .success();
    let rows = csv_rows::<SummaryRow>(&d.join("run/summary.csv"));
    let hog = &rows[0];
    assert_eq!(
        (hog.memory, hog.solved, hog.errors, hog.wrong),
        (3, 57, 0, 0),
        "{by:?}, {threads} threads"
    );
    let results = std::fs::read_to_string(d.join("run/results.csv")).unwrap();
    let memory: Vec<&str> = results.lines().filter(|l| l.contains(",memory,")).collect();
    assert_eq!(memory.len(), 3, "{results}");
    assert!(
        memory
            .iter()
            .all(|l| l.contains("over the memory limit (256 MiB, by ")),
        "each names the limit: {memory:?}"
    );
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("run/run.json")).unwrap()).unwrap();
    let said = info["options"]["memory_limit"]["by"]
        .as_str()
        .unwrap()
        .to_string();
    if by == Some("rlimit") {
        assert_eq!(said, "rlimit (RLIMIT_DATA)");
    }
    assert!(memory[0].contains(&said), "the row names how: {said}");
    let summary = std::fs::read_to_string(d.join("run/summary.md")).unwrap();
    assert!(
        summary.contains("memory limit 256 MiB a process"),
        "{summary}"
    );
    assert!(summary.contains("3 over the memory limit"), "{summary}");
    assert_eq!(
        running_with(&d.display().to_string()),
        0,
        "nothing left running"
    );
}

#[test]
fn a_program_over_the_memory_limit_costs_its_rows_only_by_rlimit() {
    hogs(Some("rlimit"), "1");
    hogs(Some("rlimit"), "2");
}

#[test]
fn a_program_over_the_memory_limit_costs_its_rows_only_by_what_the_machine_allows() {
    hogs(None, "1");
    hogs(None, "2");
}

#[test]
fn a_cpu_limit_stops_a_program_that_spends_it_and_spares_one_that_sleeps() {
    let dir = tempfile::tempdir().unwrap();
    // 4 threads × 100 ms of CPU a puzzle (the reader, waking every 20 ms,
    // has 340 ms of CPU past the limit to see it), against 100 ms asleep.
    setup(
        dir.path(),
        &[("spinner", "threads:100000"), ("sleeper", "slow:100000")],
    );
    let (rows, summary) = run(dir.path(), &["--min-time", "0", "--cpu-limit", "60ms"]);
    let of = |name: &str| rows.iter().find(|r| r.variant == name).unwrap();
    assert_eq!((of("spinner").budget, of("spinner").solved), (12, 0));
    assert_eq!((of("sleeper").budget, of("sleeper").solved), (0, 12));
    assert!(summary.contains("CPU limit 60 ms"), "{summary}");
    let results = std::fs::read_to_string(dir.path().join("run/results.csv")).unwrap();
    assert!(results.contains("no answer within the CPU limit (60ms); killed"));
    assert_eq!(running_with(&dir.path().display().to_string()), 0);
}

#[test]
fn each_built_in_reports_the_heap_its_calls_held() {
    let dir = tempfile::tempdir().unwrap();
    bin(dir.path())
        .args(["bench", "--rounds", "1", "--warmup", "0", "--min-time", "0"])
        .args([
            "--no-report",
            "--dataset",
            "set-64x64,hard-9x9",
            "--limit",
            "4",
        ])
        .args(["--solver", "dlx,bitset-mrv,band", "--out", "run"])
        .assert()
        .success();
    let rows = csv_rows::<SummaryRow>(&dir.path().join("run/summary.csv"));
    let heap = |v: &str, d: &str| {
        rows.iter()
            .find(|r| r.variant == v && r.dataset == d)
            .and_then(|r| r.peak_heap_bytes)
            .unwrap_or_else(|| panic!("{v} on {d}: no peak heap"))
    };
    // bitset-mrv keeps a board of 4096 64-bit candidate sets a search level.
    assert!(heap("bitset-mrv", "set-64x64") > 4096 * 8);
    assert!(heap("dlx", "set-64x64") > 10 * heap("dlx", "hard-9x9"));
    // band works on the stack: its heap is the answer it returns.
    assert!(
        heap("band", "hard-9x9") < 4096,
        "{}",
        heap("band", "hard-9x9")
    );
    assert!(heap("band", "hard-9x9") >= 81);
}

/// A program that takes its time to start (here 300 ms of CPU, as an
/// interpreter loading its modules) is sent its first puzzle only once it
/// has settled: its start is never timed as that puzzle, after a crash too.
/// Read from its CPU time, not from a clock, so a loaded machine only makes
/// the wait longer.
#[test]
fn a_fresh_program_is_sent_its_first_puzzle_once_it_has_started() {
    use sudoku_bench::external::process::Process;
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &[]);
    let spin = std::time::Duration::from_millis(300);
    let command: Vec<String> = vec![
        "env".into(),
        format!("FIXTURE_START_SPIN_US={}", spin.as_micros()),
        example("fixture-contender").display().to_string(),
        dir.path().join("table.tsv").display().to_string(),
    ];
    let mut p = Process::spawn(&command, sudoku_bench::solver::Mode::First, false, None).unwrap();
    assert!(
        p.wait_ready(std::time::Duration::from_secs(120)),
        "it settles"
    );
    let cpu = sudoku_bench::usage::process_cpu(p.id()).unwrap();
    // /proc counts in clock ticks: at most one short of the spin.
    assert!(
        cpu + std::time::Duration::from_millis(10) >= spin,
        "{cpu:?}"
    );
    // Settled means reading: it answers.
    let (line, _) = &puzzles(1)[0];
    p.send(format!("{line}\n").as_bytes()).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let answer = p.read_line(None, &never).unwrap();
    assert!(answer.starts_with("unique"), "{answer}");
}

/// A program that sleeps before its first read (a `sleep`, a lock, a file
/// on a slow disk) is asleep, but not waiting for input: it is not ready
/// until it reads. It marks the moment it reaches its read, so no clock is
/// needed to tell.
#[test]
fn a_program_asleep_in_its_start_is_not_taken_for_ready() {
    use sudoku_bench::external::process::Process;
    let dir = tempfile::tempdir().unwrap();
    setup(dir.path(), &[]);
    let mark = dir.path().join("started");
    let command: Vec<String> = vec![
        "env".into(),
        "FIXTURE_START_SLEEP_US=300000".into(),
        format!("FIXTURE_READY_MARK={}", mark.display()),
        example("fixture-contender").display().to_string(),
        dir.path().join("table.tsv").display().to_string(),
    ];
    let mut p = Process::spawn(&command, sudoku_bench::solver::Mode::First, false, None).unwrap();
    let can_tell = std::fs::read_to_string(format!("/proc/{}/syscall", p.id())).is_ok();
    assert!(
        p.wait_ready(std::time::Duration::from_secs(120)),
        "it settles"
    );
    if can_tell {
        assert!(
            mark.exists(),
            "taken for ready while still asleep in its start"
        );
    }
}
