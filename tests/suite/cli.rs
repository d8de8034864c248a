//! Command-line behaviour of `solve`, `solvers` and `generate`, and the
//! `--threads` every command takes.

use predicates::prelude::*;

const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const HARD_ANSWER: &str =
    "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

use crate::common::{bin, repo_datasets};

fn reference(file: &str) -> String {
    format!("{}/datasets/reference/{file}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_command_refuses_more_threads_than_the_machine_takes() {
    // Each started thousands of threads and did not finish within a minute.
    let dir = tempfile::tempdir().unwrap();
    let file = reference("verdicts-9x9.txt");
    let commands: [&[&str]; 8] = [
        &["generate", "--count", "1", "--threads", "100000"],
        &["solve", &file, "--threads", "100000"],
        &["rate", &file, "--threads", "100000"],
        &["bench", "--dataset", "easy-9x9", "--threads", "1,100000"],
        &["study", "clues", "--threads", "100000"],
        &["study", "size", "--threads", "100000"],
        &["study", "threads", "--threads", "1,2,100000"],
        &[
            "hunt",
            "--solver",
            "band",
            "--iterations",
            "1",
            "--threads",
            "100000",
        ],
    ];
    let most = sudoku_bench::usage::most_threads(sudoku_bench::usage::cores());
    for args in commands {
        let out = crate::common::bin_in(dir.path())
            .args(args)
            .timeout(std::time::Duration::from_secs(120))
            .assert()
            .code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        let said =
            format!("100000 threads is more than this machine takes: at most {most} (4 a core");
        assert!(
            stderr.contains(&said) && stderr.contains("--threads"),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing was written"
    );
}

#[test]
fn solve_prints_status_tab_solution_in_input_order() {
    let out = bin()
        .args(["solve", "--threads", "2", &reference("verdicts-9x9.txt")])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let words: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(
        words,
        ["invalid", "invalid", "none", "none", "multiple", "multiple"]
    );
    assert!(text.lines().all(|l| l.split('\t').count() == 2));
    assert!(text.lines().next().unwrap().ends_with("\t-"));
}

/// `HARD` in tdoku's pencilmark form, some of each empty cell's wrong
/// candidates excluded (so its answer is still `HARD_ANSWER`, alone).
fn hard_pencilmarks() -> String {
    let mut line = String::new();
    for (c, (p, a)) in HARD.chars().zip(HARD_ANSWER.chars()).enumerate() {
        for d in '1'..='9' {
            let allowed = if p == '.' {
                d == a || !(c + d as usize).is_multiple_of(4)
            } else {
                d == p
            };
            line.push(if allowed { d } else { '.' });
        }
    }
    line
}

#[test]
fn solve_takes_pencilmark_lines_and_names_what_makes_one_invalid() {
    let pm = hard_pencilmarks();
    assert_eq!(pm.len(), 729);
    // Cell r1c2 left no candidate.
    let empty = format!("{}{}{}", &pm[..9], ".".repeat(9), &pm[18..]);
    let input = format!(
        "{pm}
{empty}
"
    );
    for solver in ["band", "bitset-mrv", "dlx", "sat-varisat", "backtracking"] {
        bin()
            .args(["solve", "--solver", solver, "-"])
            .write_stdin(input.clone())
            .assert()
            .success()
            .stdout(format!("unique\t{HARD_ANSWER}\ninvalid\t-\n"))
            .stderr("<stdin>:2: invalid: the pencilmarks leave cell r1c2 no candidate\n");
    }
    // --trace has nothing to trace on an invalid puzzle: it says so.
    bin()
        .args(["solve", "--trace", "-"])
        .write_stdin(format!("55{}\n", &HARD[2..]))
        .assert()
        .success()
        .stdout("invalid\t-\n")
        // Every conflict, each with its cells: the 5 put at r1c2 also meets
        // the 5 given at r4c2.
        .stderr("<stdin>:1: invalid: 3 conflicts: digit 5 appears twice in row 1: r1c1 and r1c2; digit 5 appears twice in column 2: r1c2 and r4c2; digit 5 appears twice in box 1: r1c1 and r1c2\n");
    // A file's invalid puzzles are named with its path and line.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pm.txt");
    std::fs::write(&path, format!("# sukaku\n{input}")).unwrap();
    bin()
        .args(["solve", path.to_str().unwrap()])
        .assert()
        .success()
        .stderr(format!(
            "{}:3: invalid: the pencilmarks leave cell r1c2 no candidate\n",
            path.display()
        ));
}

#[test]
fn solve_reads_stdin_with_every_strategy_and_mode() {
    for solver in ["dlx", "bitset-mrv", "backtracking", "naive-exact-cover"] {
        bin()
            .args(["solve", "--solver", solver, "-"])
            .write_stdin(format!("{HARD}\n"))
            .assert()
            .success()
            .stdout(format!("unique\t{HARD_ANSWER}\n"));
    }
    bin()
        .args(["solve", "--mode", "first"])
        .write_stdin(HARD)
        .assert()
        .stdout(format!("solved\t{HARD_ANSWER}\n"));
    bin()
        .args(["solve", "--mode", "count", "--count-limit", "1000"])
        .write_stdin("................\n")
        .assert()
        .stdout(predicate::str::starts_with("multiple\t288\t"));
}

#[test]
fn budgets_give_the_budget_status() {
    bin()
        .args([
            "solve",
            "--solver",
            "naive-exact-cover-pure",
            "--node-budget",
            "1000",
        ])
        .write_stdin(HARD)
        .assert()
        .success()
        .stdout("budget\t-\n");
    bin()
        .args([
            "solve",
            "--solver",
            "naive-exact-cover-pure",
            "--time-limit",
            "50ms",
        ])
        .write_stdin(HARD)
        .assert()
        .success()
        .stdout("budget\t-\n");
}

#[test]
fn trace_prints_decisions() {
    bin()
        .args(["solve", "--trace", "--solver", "bitset-mrv"])
        .write_stdin(HARD)
        .assert()
        .success()
        .stdout(format!("unique\t{HARD_ANSWER}\n"))
        .stderr(
            predicate::str::contains("hidden single")
                .and(predicate::str::contains("(guess)"))
                .and(predicate::str::contains("backtrack")),
        );
}

#[test]
fn solvers_lists_the_registry() {
    let assert = bin().arg("solvers").assert().success();
    let out = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    for name in [
        "naive-exact-cover",
        "naive-exact-cover-pure",
        "backtracking",
        "bitset-mrv-plain",
        "bitset-mrv-naked",
        "bitset-mrv",
        "dlx",
        "dlx-first-column",
    ] {
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(name)),
            "{name} missing"
        );
    }
}

#[test]
fn a_bad_entry_after_many_good_ones_fails_before_any_output_at_every_thread_count() {
    // Past the first chunks: with several threads the file is parsed beside the
    // solving, and what was solved before the bad entry must not be printed.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("late.txt");
    let mut text = format!("{HARD}\n").repeat(1500);
    text.push_str(&HARD[..80]);
    text.push('\n');
    std::fs::write(&path, &text).unwrap();
    for threads in ["1", "2", "3"] {
        bin()
            .args(["solve", "--threads", threads, path.to_str().unwrap()])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("late.txt:1501:1"));
        let ok = bin()
            .args([
                "solve",
                "--threads",
                threads,
                "--skip-invalid",
                path.to_str().unwrap(),
            ])
            .assert()
            .success()
            .stderr(predicate::str::contains("skipped 1 bad entry"));
        let out = String::from_utf8_lossy(&ok.get_output().stdout).into_owned();
        assert_eq!(
            out,
            format!("unique\t{HARD_ANSWER}\n").repeat(1500),
            "threads {threads}"
        );
    }
}

#[test]
fn answers_beyond_the_memory_spool_come_back_whole_and_in_order() {
    // 105,000 puzzles: about 9.5 MB of answers, past the 8 MB held in memory.
    let easy =
        std::fs::read_to_string(crate::common::repo_datasets().join("easy-9x9.txt")).unwrap();
    let pairs: Vec<(&str, &str)> = easy
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .collect();
    assert_eq!(pairs.len(), 300);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.txt");
    let mut input = String::new();
    let mut expected = String::new();
    for _ in 0..350 {
        for (puzzle, answer) in &pairs {
            input.push_str(puzzle);
            input.push('\n');
            expected.push_str(&format!("unique\t{answer}\n"));
        }
    }
    std::fs::write(&path, input).unwrap();
    for threads in ["1", "2"] {
        let run = bin()
            .args(["solve", "--threads", threads, path.to_str().unwrap()])
            .assert()
            .success();
        let out = &run.get_output().stdout;
        assert!(
            out == expected.as_bytes(),
            "threads {threads}: {} bytes",
            out.len()
        );
    }
}

#[test]
fn bad_input_fails_with_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.txt");
    std::fs::write(&path, format!("{HARD}\n{}\n", &HARD[..79])).unwrap();
    bin()
        .args(["solve", path.to_str().unwrap()])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "bad.txt:2:1: found a puzzle of 79 symbols",
        ));
    bin()
        .args(["solve", "--skip-invalid", path.to_str().unwrap()])
        .assert()
        .success()
        .stdout(format!("unique\t{HARD_ANSWER}\n"))
        .stderr(predicate::str::contains("skipped 1"));
    bin()
        .args(["solve", "/no/such/file"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("/no/such/file"));
    bin()
        .args(["solve", "--solver", "nope"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("is not a strategy"));
    bin()
        .args(["solve", "--time-limit", "soon"])
        .write_stdin(HARD)
        .assert()
        .failure();
}

#[test]
fn generate_is_reproducible_and_refuses_the_impossible() {
    let run = |threads: &str| {
        bin()
            .args([
                "generate",
                "--count",
                "20",
                "--minimal",
                "--seed",
                "5",
                "--threads",
                threads,
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(String::from_utf8(one).unwrap().lines().count(), 20);
    bin()
        .args(["generate", "--max-clues", "10"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("fewest possible is 17"));
}

#[test]
fn generate_with_no_clue_option_writes_minimal_puzzles() {
    use sudoku_bench::format::{read_str, ReadOptions};
    use sudoku_bench::solver::{Limits, Mode, Solver, SolverId, Status};
    // The puzzles `generate ARGS` writes.
    let generated = |args: &[&str]| {
        let out = bin().arg("generate").args(args).assert().success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        read_str("gen", &text, &ReadOptions::default())
            .unwrap()
            .puzzles
    };
    let puzzles = generated(&["--count", "8", "--seed", "3"]);
    assert_eq!(puzzles.len(), 8);
    let status =
        |g: &sudoku_bench::grid::Grid| SolverId::Dlx.solve(g, &Limits::new(Mode::Unique)).status;
    for p in &puzzles {
        assert_eq!(status(&p.grid), Status::Unique);
        // Minimal: no clue can go without a second solution.
        for c in 0..81 {
            if p.grid.get(c) != 0 {
                let mut q = p.grid.clone();
                q.set(c, 0);
                assert_eq!(status(&q), Status::Multiple, "clue {c} could go");
            }
        }
    }
    // A clue range still stops at a random count inside it.
    let ranged = generated(&["--count", "4", "--seed", "3", "--min-clues", "40"]);
    assert!(ranged.iter().all(|p| p.grid.givens() >= 40));
}

#[test]
fn generate_writes_pencilmark_puzzles_that_solve_reads_back() {
    let out = bin()
        .args(["generate", "--pencilmark", "--count", "6", "--seed", "2"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let answers: Vec<&str> = text
        .lines()
        .map(|l| {
            let (puzzle, answer) = l.split_once(' ').unwrap();
            assert_eq!((puzzle.len(), answer.len()), (729, 81), "{l}");
            answer
        })
        .collect();
    assert_eq!(answers.len(), 6);
    // `solve` reads them, answer and all (the read checks each answer against
    // its line's exclusions), and finds that answer alone.
    let solved = bin()
        .args(["solve", "--solver", "dlx", "-"])
        .write_stdin(text.clone())
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let want: String = answers.iter().map(|a| format!("unique\t{a}\n")).collect();
    assert_eq!(String::from_utf8(solved).unwrap(), want);
    for bad in [
        &["--output", "block"][..],
        &["--holes"],
        &["--min-clues", "30"],
        &["--size", "36"],
    ] {
        bin()
            .args(["generate", "--pencilmark"])
            .args(bad)
            .assert()
            .failure()
            .stderr(predicate::str::contains("pencilmark"));
    }
}

#[test]
fn alphabet_takes_names_and_ranges() {
    // The dancing-links article's 16x16 in letters A-P: the range and the name read it alike.
    let file = reference("seed001-16x16-letters.txt");
    let run = |alphabet: &str| {
        bin()
            .args(["solve", "--alphabet", alphabet, &file])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let by_name = run("letters");
    assert!(String::from_utf8_lossy(&by_name).starts_with("unique\t"));
    assert_eq!(run("A-P"), by_name);
    assert_eq!(run("a-p"), by_name);
    bin()
        .args(["solve", "--alphabet", "A-Z", &file])
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("\"A-Z\" is not an alphabet")
                .and(predicate::str::contains("1-9A-G")),
        );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 16, ..Default::default() })]

    /// `solve` answers in input order whatever the thread count, for files
    /// and standard input that end just before, on and just after its chunk
    /// boundaries (a file is parsed beside the solving in chunks of 512;
    /// standard input is read in chunks of 4,096).
    #[test]
    fn solve_output_follows_the_input_across_chunk_boundaries(
        n in proptest::prop_oneof![1usize..4, 510usize..515, 1022usize..1027, 4094usize..4099],
        threads in 1usize..=3,
        seed in proptest::prelude::any::<u64>(),
        from_file in proptest::prelude::any::<bool>(),
    ) {
        let pairs: Vec<(&str, &str)> = include_str!("../../datasets/easy-9x9.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split_once(' ').unwrap())
            .collect();
        // A seeded walk over the set, so neighbours differ from case to case.
        let order: Vec<usize> = (0..n)
            .map(|i| (seed.wrapping_mul(6364136223846793005).wrapping_add((i as u64).wrapping_mul(1442695040888963407)) >> 33) as usize % pairs.len())
            .collect();
        let input: String = order.iter().map(|&k| format!("{}\n", pairs[k].0)).collect();
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("in.txt");
        let mut cmd = bin();
        cmd.args(["solve", "--threads", &threads.to_string()]);
        if from_file {
            std::fs::write(&file, &input).unwrap();
            cmd.arg(&file);
        } else {
            cmd.arg("-").write_stdin(input);
        }
        let out = cmd
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        proptest::prop_assert_eq!(lines.len(), n);
        for (i, (&k, line)) in order.iter().zip(&lines).enumerate() {
            proptest::prop_assert_eq!(*line, format!("unique\t{}", pairs[k].1), "line {}", i + 1);
        }
    }
}

/// `solve` answers in the notation a puzzle came in, at every size, and in
/// another when `--output` asks.
#[test]
fn solve_answers_in_the_notation_it_was_given() {
    use crate::common::{embedded_puzzles, load, repo_datasets};
    use sudoku_bench::format::{write_line, Alphabet};
    let dir = tempfile::tempdir().unwrap();
    // A 49x49 puzzle: the holes form, as no embedded set has that size.
    let made = bin()
        .args(["generate", "--size", "49", "--count", "1", "--holes"])
        .args(["--min-clues", "2000", "--max-clues", "2000", "--no-answer"])
        .output()
        .unwrap();
    assert!(made.status.success());
    let p49 = dir.path().join("49.txt");
    std::fs::write(&p49, &made.stdout).unwrap();
    let mut grids: Vec<sudoku_bench::Grid> = ["set-16x16", "set-25x25", "set-36x36", "set-64x64"]
        .iter()
        .map(|s| embedded_puzzles(s)[0].grid.clone())
        .collect();
    grids.insert(3, load(&p49).puzzles[0].grid.clone());
    for grid in grids {
        let (g, n) = (grid.geometry(), grid.geometry().side());
        let numbers = dir.path().join(format!("numbers-{n}.txt"));
        let line = write_line(&grid, &Alphabet::numbers(g));
        std::fs::write(&numbers, format!("{line}\n")).unwrap();
        let answer = |words: &[&str]| -> String {
            let out = bin()
                .arg("solve")
                .arg(&numbers)
                .args(["--mode", "first"])
                .args(words)
                .output()
                .unwrap();
            assert!(out.status.success(), "{n}x{n}: {out:?}");
            String::from_utf8(out.stdout).unwrap()
        };
        // Numbers in, numbers out: n² numbers 1..=n that keep the givens.
        let out = answer(&[]);
        let (status, cells) = out.trim_end().split_once('\t').expect("status and answer");
        assert_eq!(status, "solved", "{n}x{n}");
        let cells: Vec<usize> = cells
            .split(' ')
            .map(|t| {
                t.parse()
                    .unwrap_or_else(|_| panic!("{n}x{n}: {t:?} is no number"))
            })
            .collect();
        assert_eq!(cells.len(), g.cells(), "{n}x{n}");
        assert!(cells.iter().all(|&d| (1..=n).contains(&d)), "{n}x{n}");
        for (i, &given) in grid.cells().iter().enumerate() {
            assert!(given == 0 || cells[i] == given as usize, "{n}x{n} cell {i}");
        }
        // --output line: the size's one-character symbols (numbers past 36).
        let line = answer(&["--output", "line"]);
        let symbols = line.trim_end().split_once('\t').unwrap().1;
        assert_eq!(symbols.contains(' '), n > 36, "{n}x{n}: {symbols:.40}");
        // A block keeps the numbers.
        let block = answer(&["--output", "block"]);
        // The status, n rows, the rules between bands, a blank line after.
        assert_eq!(block.lines().count(), 2 + n + (g.box_size() - 1), "{n}x{n}");
        assert!(block
            .lines()
            .nth(1)
            .unwrap()
            .trim_start()
            .starts_with(&cells[0].to_string()));
        // Given as a block of numbers (n rows of n), it is answered in numbers too.
        let rows: String = write_line(&grid, &Alphabet::numbers(g))
            .split(' ')
            .collect::<Vec<_>>()
            .chunks(n)
            .map(|r| r.join(" ") + "\n")
            .collect();
        let block_in = dir.path().join(format!("block-{n}.txt"));
        std::fs::write(&block_in, rows).unwrap();
        let out = bin()
            .arg("solve")
            .arg(&block_in)
            .args(["--mode", "first"])
            .output()
            .unwrap();
        let out = String::from_utf8(out.stdout).unwrap();
        let from_block = out
            .trim_end()
            .split_once('\t')
            .expect("status and answer")
            .1;
        assert_eq!(
            from_block.split(' ').count(),
            g.cells(),
            "{n}x{n} block: {from_block:.40}"
        );
    }
    // Letters in, the same letters out; --output numbers turns them to numbers.
    let letters = repo_datasets().join("set-25x25.txt");
    let out = bin().arg("solve").arg(&letters).output().unwrap();
    let first = String::from_utf8(out.stdout).unwrap();
    let answer = first.lines().next().unwrap().split_once('\t').unwrap().1;
    assert!(
        answer.chars().all(|c| c.is_ascii_uppercase()),
        "{answer:.40}"
    );
    let out = bin()
        .arg("solve")
        .arg(&letters)
        .args(["--output", "numbers"])
        .output()
        .unwrap();
    let first = String::from_utf8(out.stdout).unwrap();
    let answer = first.lines().next().unwrap().split_once('\t').unwrap().1;
    assert_eq!(answer.split(' ').count(), 625, "{answer:.40}");
}

#[test]
fn rate_gives_verdicts_first_and_rates_only_puzzles_with_one_solution() {
    let verdicts = repo_datasets().join("reference/verdicts-9x9.txt");
    let out = bin()
        .arg("rate")
        .arg(&verdicts)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "rated 0 of 6 puzzles by bitset-mrv's mean guesses over 8 permutations; left out (only a puzzle with one solution has a rating): 2 invalid (the givens conflict), 2 with no solution, 2 with several solutions",
        ))
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let verdicts: Vec<&str> = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap())
        .collect();
    assert_eq!(
        verdicts,
        ["invalid", "invalid", "none", "none", "multiple", "multiple"]
    );
    // No level on any of them: the columns after the verdict are empty.
    assert!(text.lines().skip(1).all(|l| l.ends_with(",,,,,")), "{text}");
    // `--solver` rates by another strategy's guesses, and names it.
    let out = bin()
        .args(["rate", "--quiet", "--solver", "band", "hard-9x9"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.lines().count(), 301);
    assert!(text.lines().skip(1).all(|l| l.contains(",unique,band,")));
    for (args, says) in [
        (
            &["--solver", "sat-varisat", "hard-9x9"][..],
            "counts no guesses",
        ),
        (
            &["--solver", "band", "set-16x16"],
            "16x16 puzzles, which --solver band does not handle",
        ),
    ] {
        bin()
            .arg("rate")
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(says));
    }
}

/// `n` puzzles of the easy set, repeated in order, one per line.
fn easy_lines(n: usize) -> Vec<String> {
    let text = std::fs::read_to_string(repo_datasets().join("easy-9x9.txt")).unwrap();
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(String::from)
        .collect();
    lines.iter().cycle().take(n).cloned().collect()
}

#[test]
fn rate_answers_standard_input_chunk_by_chunk_as_it_comes() {
    // `rate` once read its whole input before a row (367 MB for 1M
    // puzzles): its first rows must come while standard input is still open.
    use std::io::{BufRead, Write};
    use std::sync::mpsc;
    let lines = easy_lines(2 * 4096);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku-bench"))
        .args([
            "rate",
            "--permutations",
            "1",
            "--threads",
            "1",
            "--quiet",
            "-",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (close, closed) = mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        for l in &lines {
            if writeln!(stdin, "{l}").is_err() {
                return;
            }
        }
        stdin.flush().ok();
        // Held open until the first rows are seen (or the test gives up).
        let _ = closed.recv();
    });
    let (rows, seen) = mpsc::channel::<String>();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if rows.send(line).is_err() {
                return;
            }
        }
    });
    // A guard against a hang only, never a measure of speed.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(300);
    let mut got = Vec::new();
    while got.len() < 1 + 4096 {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match seen.recv_timeout(left) {
            Ok(line) => got.push(line),
            Err(_) => {
                let _ = child.kill();
                panic!("only {} lines while standard input was open", got.len());
            }
        }
    }
    assert!(got[0].starts_with("puzzle,solution,verdict"), "{}", got[0]);
    drop(close);
    writer.join().unwrap();
    got.extend(seen.iter());
    reader.join().unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(got.len(), 1 + 2 * 4096);
    assert!(got[1..].iter().all(|l| l.contains(",unique,bitset-mrv,")));
}

#[test]
fn rate_writes_no_row_of_a_file_with_a_bad_entry_past_its_first_chunk() {
    // Rated chunk by chunk, a file is still checked whole before a row of
    // it goes out, as `solve`'s answers are.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("late.txt");
    let mut lines = easy_lines(5000);
    lines.push("12345".into());
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    bin()
        .args(["rate", "--permutations", "1", "--threads", "1"])
        .arg(&file)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(format!(
            "{}:5001:1: found a puzzle of 5 symbols",
            file.display()
        )));
}

#[test]
fn solve_lists_the_first_ten_bad_entries_of_a_file_and_counts_the_rest() {
    // Both of solve's readers stopped at the first: `1 bad entry`.
    let dir = tempfile::tempdir().unwrap();
    let mut lines = Vec::new();
    for i in 0..13 {
        lines.push(HARD.to_string());
        lines.push(format!(
            "{}{}",
            &HARD[..80],
            if i % 2 == 0 { "" } else { "12" }
        ));
    }
    let line_file = dir.path().join("bad.txt");
    std::fs::write(&line_file, lines.join("\n") + "\n").unwrap();
    let csv_file = dir.path().join("bad.csv");
    std::fs::write(&csv_file, format!("puzzle\n{}\n", lines.join("\n"))).unwrap();
    for (file, first) in [(&line_file, 2), (&csv_file, 3)] {
        for threads in ["1", "2"] {
            let out = bin()
                .args(["solve", "--threads", threads])
                .arg(file)
                .assert()
                .code(2)
                .stdout("")
                .get_output()
                .clone();
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            let name = file.display().to_string();
            assert!(
                err.contains(&format!("{name}: 13 bad entries (use --skip-invalid")),
                "{err}"
            );
            let listed: Vec<&str> = err
                .lines()
                .filter(|l| l.trim_start().starts_with(&format!("{name}:")))
                .filter(|l| !l.contains("bad entries"))
                .collect();
            assert_eq!(listed.len(), 10, "{err}");
            assert!(listed[0].contains(&format!("{name}:{first}:")), "{err}");
            assert!(
                listed[9].contains(&format!("{name}:{}:", first + 18)),
                "{err}"
            );
            assert!(err.contains("... and 3 more"), "{err}");
        }
    }
}

#[test]
fn solve_reads_a_csv_of_one_column_as_csv() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.csv");
    std::fs::write(&file, format!("puzzle\n{HARD}\n{HARD}\n")).unwrap();
    bin()
        .args(["solve", "--threads", "1"])
        .arg(&file)
        .assert()
        .success()
        .stdout(format!("unique\t{HARD_ANSWER}\n").repeat(2));
}
