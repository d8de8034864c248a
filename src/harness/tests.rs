use super::*;
use crate::contender::SolveFn;
use crate::export::csv::CsvSink;
use crate::format::{read_str, ReadOptions};
use crate::grid::Grid;
use crate::solver::{Limits, Solver, SolverId, Status};
use std::time::Instant;

const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

fn dataset(text: &str, sel: &Selection) -> BenchDataset {
    let ds = read_str("t", text, &ReadOptions::default()).unwrap();
    BenchDataset::prepare(
        ds,
        text.len() as u64,
        crate::datasets::checksum::sha256_hex(text.as_bytes()),
        sel,
    )
}

fn reference() -> BenchDataset {
    dataset(
        include_str!("../../datasets/reference/seeds-9x9.txt"),
        &Selection::default(),
    )
}

fn opts(threads: usize) -> BenchOptions {
    BenchOptions {
        threads,
        mode: Mode::Unique,
        budget: Budget::StrategyDefault,
        time_limit: None,
        warmup: 1,
        repeat: 1,
        rounds: 1,
        min_time: None,
        schedule: Schedule::Interleaved,
        block: None,
        reference: None,
    }
}

use super::Collected;

fn run_one(c: Contender, ds: &BenchDataset, o: &BenchOptions) -> (RunResult, Vec<SolveRecord>) {
    run_many(&[c], ds, o)
}

/// Runs `cs` over `ds`: the result and the records in the order the sink got them.
fn run_many(
    cs: &[Contender],
    ds: &BenchDataset,
    o: &BenchOptions,
) -> (RunResult, Vec<SolveRecord>) {
    let mut sink = Collected::default();
    let cancel = Arc::new(AtomicBool::new(false));
    let r = run(cs, std::slice::from_ref(ds), o, &cancel, &mut sink, &Silent).unwrap();
    (r, sink.solves)
}

#[test]
fn a_wrong_strategy_is_caught() {
    // Returns the right answer with two cells swapped: a valid-looking but wrong grid.
    let wrong: Arc<SolveFn> = Arc::new(|g: &Grid, l: &Limits| {
        let mut out = SolverId::Dlx.solve(g, l);
        if let Some(s) = out.solutions.first_mut() {
            let (a, b) = (s.get(0), s.get(1));
            s.set(0, b);
            s.set(1, a);
        }
        out
    });
    let (result, rows) = run_one(
        Contender::custom("broken", "broken", wrong),
        &reference(),
        &opts(2),
    );
    assert_eq!(result.wrong(), 3);
    assert!(rows
        .iter()
        .all(|r| r.status == RowStatus::Wrong && r.detail.contains("fails the check")));
    // A valid grid that keeps the givens but is not the dataset's answer: seed 000's
    // second puzzle has two solutions; the strategy claims `unique` with the other one.
    let e2 = "74.12.65.263495187.59678.43.1.....28.82..4.61.76....3..24.3.81689.54.372.3.2.159.";
    let seed_answer =
        "748123659263495187159678243415367928382954761976812435524739816891546372637281594";
    let ds = dataset(&format!("{e2} {seed_answer}\n"), &Selection::default());
    let want = ds.puzzles[0].expected.clone().unwrap();
    let claims_other: Arc<SolveFn> = Arc::new(move |g: &Grid, _: &Limits| {
        let mut out = SolverId::Dlx.solve(g, &Limits::new(Mode::Count(2)));
        assert_eq!(out.solution_count, 2);
        out.solutions.retain(|s| *s != want);
        out.status = crate::solver::Status::Unique;
        out.solution_count = 1;
        out
    });
    let (result, rows) = run_one(
        Contender::custom("other", "other", claims_other),
        &ds,
        &opts(1),
    );
    assert_eq!(result.wrong(), 1, "{rows:?}");
    assert!(
        rows[0]
            .detail
            .contains("differs from the expected answer at r"),
        "{}",
        rows[0].detail
    );
    // The honest verdict on the same puzzle is fine.
    let (result, rows) = run_one(Contender::from_id(SolverId::Dlx), &ds, &opts(1));
    assert_eq!((result.wrong(), rows[0].status), (0, RowStatus::Multiple));
}

#[test]
fn a_panicking_strategy_gives_error_rows_and_the_run_goes_on() {
    let flaky: Arc<SolveFn> = Arc::new(|g: &Grid, l: &Limits| {
        if g.get(0) == 8 {
            panic!("boom on the hard puzzle");
        }
        SolverId::BitsetMrv.solve(g, l)
    });
    let (result, rows) = run_one(
        Contender::custom("flaky", "flaky", flaky),
        &reference(),
        &opts(2),
    );
    assert_eq!(result.errors(), 1);
    assert_eq!(result.summary[0].solved, 2);
    let err = rows.iter().find(|r| r.status == RowStatus::Error).unwrap();
    assert!(err.detail.contains("boom on the hard puzzle"));
}

#[test]
fn records_and_summary_describe_the_run() {
    let ds = reference();
    let o = BenchOptions {
        repeat: 2,
        rounds: 1,
        ..opts(2)
    };
    let (result, rows) = run_one(Contender::from_id(SolverId::BitsetMrv), &ds, &o);
    assert_eq!(rows.len(), 6);
    let mut keys: Vec<(u64, u32)> = rows.iter().map(|r| (r.puzzle_index, r.repeat)).collect();
    keys.sort();
    assert_eq!(keys, vec![(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]);
    assert!(rows
        .iter()
        .all(|r| r.status == RowStatus::Unique && r.solve_ns > 0 && r.threads == 2));
    let s = &result.summary[0];
    assert_eq!(
        (s.puzzles, s.solves, s.solved, s.budget, s.wrong, s.errors),
        (3, 6, 3, 0, 0, 0)
    );
    assert!(s.median_us > 0.0 && s.max_us >= s.p99_us && s.p99_us >= s.median_us);
    assert!(s.puzzles_per_sec > 0.0);
    let no_guess = s.no_guess_pct.expect("built-in strategies count guesses");
    assert!((no_guess - 100.0 * 2.0 / 3.0).abs() < 1e-9, "{no_guess}");
}

/// Three contenders (the same fast strategy under three names) over 150 puzzles,
/// twice, on `threads` workers, into `sink`: the records it got, in order.
fn three_way_into(
    schedule: Schedule,
    threads: usize,
    sink: &mut dyn RecordSink,
    got: impl FnOnce(&mut dyn RecordSink) -> Vec<SolveRecord>,
) -> (BenchDataset, Vec<SolveRecord>) {
    let text = include_str!("../../datasets/easy-9x9.txt");
    let sel = Selection {
        limit: Some(150),
        ..Selection::default()
    };
    let ds = dataset(text, &sel);
    let cs: Vec<Contender> = ["a", "b", "c"]
        .iter()
        .map(|n| {
            let solve: Arc<SolveFn> =
                Arc::new(|g: &Grid, l: &Limits| SolverId::BitsetMrv.solve(g, l));
            Contender::custom(n, n, solve)
        })
        .collect();
    let o = BenchOptions {
        repeat: 2,
        rounds: 1,
        schedule,
        block: Some(64),
        ..opts(threads)
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let r = run(&cs, std::slice::from_ref(&ds), &o, &cancel, sink, &Silent).unwrap();
    assert_eq!(r.summary.len(), 3);
    // Each puzzle counts once, whatever the passes: 150 puzzles, 300 solves.
    assert!(r
        .summary
        .iter()
        .all(|s| s.puzzles == 150 && s.solved == 150 && s.solves == 300));
    let rows = got(sink);
    (ds, rows)
}

/// [`three_way_into`] a sink that keeps the records (the writer fills them).
fn three_way(schedule: Schedule) -> (BenchDataset, Vec<SolveRecord>) {
    let mut sink = Collected::default();
    let (ds, _) = three_way_into(schedule, 2, &mut sink, |_| Vec::new());
    (ds, sink.solves)
}

/// The records of a `solves.csv`, read back through serde.
fn read_back(text: &[u8]) -> Vec<SolveRecord> {
    csv::Reader::from_reader(text)
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Checks the interleaved order of `rows` (of [`three_way_into`]): 150 puzzles
/// in stretches of 64, 64 and 22; three contenders; two repeats. A stretch's
/// rows come together: contender after contender, each over the whole stretch
/// in file order, the first to go rotating with the stretch's number (counted
/// on across passes); every stretch of every repeat once.
fn assert_stretch_order(ds: &BenchDataset, rows: &[SolveRecord]) {
    let names = ["a", "b", "c"];
    let slot_of = |index: u64| ds.puzzles.iter().position(|p| p.index == index).unwrap();
    let mut seen = Vec::new();
    let mut at = 0;
    while at < rows.len() {
        let first = &rows[at];
        let k = slot_of(first.puzzle_index) / 64;
        let slots = k * 64..((k + 1) * 64).min(150);
        let repeat = first.repeat;
        let number = repeat as usize * 3 + k;
        for j in 0..3 {
            let variant = names[(number + j) % 3];
            for slot in slots.clone() {
                let r = &rows[at];
                assert_eq!(
                    (&*r.variant, r.puzzle_index, r.repeat),
                    (variant, ds.puzzles[slot].index, repeat),
                    "row {at}: stretch {k} of repeat {repeat}, turn {j}"
                );
                at += 1;
            }
        }
        seen.push((repeat, k));
    }
    seen.sort();
    assert_eq!(seen, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]);
    // Every contender solved every puzzle exactly once per repeat.
    let mut all: Vec<(&str, u64, u32)> = rows
        .iter()
        .map(|r| (&*r.variant, r.puzzle_index, r.repeat))
        .collect();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 3 * 150 * 2);
}

/// Runs of consecutive records by the same contender: (variant, [(puzzle, repeat)]).
fn segments(rows: &[SolveRecord]) -> Vec<(String, Vec<(u64, u32)>)> {
    let mut out: Vec<(String, Vec<(u64, u32)>)> = Vec::new();
    for r in rows {
        match out.last_mut() {
            Some((v, keys)) if *v == *r.variant => keys.push((r.puzzle_index, r.repeat)),
            _ => out.push((r.variant.to_string(), vec![(r.puzzle_index, r.repeat)])),
        }
    }
    out
}

#[test]
fn interleaving_rotates_contenders_stretch_by_stretch() {
    let (ds, rows) = three_way(Schedule::Interleaved);
    assert_stretch_order(&ds, &rows);
}

#[test]
fn solves_csv_keeps_the_stretch_order_when_the_workers_encode_their_rows() {
    // More workers than cores: the workers encode solves.csv rows themselves.
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let mut sink = CsvSink::new(Vec::new(), Some(Vec::new())).unwrap();
    let (ds, rows) = three_way_into(Schedule::Interleaved, cores + 1, &mut sink, |_| Vec::new());
    assert!(rows.is_empty());
    let back = read_back(&sink.into_inner().unwrap().1.unwrap());
    assert_stretch_order(&ds, &back);
    assert!(back
        .iter()
        .all(|r| r.threads == cores + 1 && r.status == RowStatus::Unique));
}

#[test]
fn solves_csv_is_the_same_whoever_encodes_the_rows() {
    // One thread leaves the writer a core of its own (it fills and encodes
    // every record); more workers than cores encode their own. Apart from
    // times, threads and order, the two files hold the same rows, a wrong
    // strategy's details (commas, quotes) included.
    let wrong: Arc<SolveFn> = Arc::new(|g: &Grid, l: &Limits| {
        let mut o = SolverId::Dlx.solve(g, l);
        o.status = Status::Multiple;
        o
    });
    let cs = [
        Contender::from_id(SolverId::BitsetMrv),
        Contender::custom("broken, \"quoted\"", "broken", wrong),
    ];
    let ds = reference();
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let file = |threads: usize| {
        let mut sink = CsvSink::new(Vec::new(), Some(Vec::new())).unwrap();
        let o = BenchOptions {
            repeat: 2,
            rounds: 2,
            ..opts(threads)
        };
        let cancel = Arc::new(AtomicBool::new(false));
        run(
            &cs,
            std::slice::from_ref(&ds),
            &o,
            &cancel,
            &mut sink,
            &Silent,
        )
        .unwrap();
        let mut back = read_back(&sink.into_inner().unwrap().1.unwrap());
        for r in &mut back {
            (r.solve_ns, r.threads) = (0, 0);
        }
        back.sort_by_key(|r| (r.variant.clone(), r.round, r.repeat, r.puzzle_index));
        back
    };
    let (one, many) = (file(1), file(cores + 1));
    assert_eq!(one.len(), 2 * 2 * ds.puzzles.len());
    assert!(one
        .iter()
        .any(|r| r.status == RowStatus::Wrong && !r.detail.is_empty()));
    assert_eq!(one, many);
}

#[test]
fn the_sequential_schedule_runs_one_contender_after_another() {
    let (_, rows) = three_way(Schedule::Sequential);
    let segs = segments(&rows);
    let order: Vec<&str> = segs.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(order, ["a", "b", "c"]);
    assert!(segs.iter().all(|s| s.1.len() == 300));
}

#[test]
fn speed_columns_compare_with_the_fastest_or_the_chosen_reference() {
    // `slow` solves like `fast`, then waits 200 µs: about 0.2× or less against it.
    let text = include_str!("../../datasets/easy-9x9.txt");
    let ds = dataset(
        text,
        &Selection {
            limit: Some(40),
            ..Selection::default()
        },
    );
    let fast: Arc<SolveFn> = Arc::new(|g: &Grid, l: &Limits| SolverId::BitsetMrv.solve(g, l));
    let slow: Arc<SolveFn> = Arc::new(|g: &Grid, l: &Limits| {
        let t = Instant::now();
        let out = SolverId::BitsetMrv.solve(g, l);
        while t.elapsed() < Duration::from_micros(200) {}
        out
    });
    let cs = [
        Contender::custom("slow", "slow", slow),
        Contender::custom("fast", "fast", fast),
    ];
    let go = |reference: Option<&str>| {
        let o = BenchOptions {
            reference: reference.map(String::from),
            ..opts(1)
        };
        run_many(&cs, &ds, &o).0.summary
    };
    // Only what holds however fast the machine runs them (a preempted solve of
    // `fast` may take longer than `slow`'s): the reference is the row with the
    // most puzzles/s, it has speed 1 and no "faster on" share, and the other's
    // interval holds its estimate.
    let rows = go(None);
    let by = |rows: &[SummaryRow], v: &str| rows.iter().find(|r| r.variant == v).unwrap().clone();
    let most = rows
        .iter()
        .max_by(|a, b| a.puzzles_per_sec.total_cmp(&b.puzzles_per_sec))
        .unwrap()
        .variant
        .clone();
    let other = if most == "fast" { "slow" } else { "fast" };
    let (r, o) = (by(&rows, &most), by(&rows, other));
    assert!(rows.iter().all(|x| x.reference == most), "{rows:?}");
    assert_eq!(
        (r.speed, r.speed_lo, r.speed_hi, r.faster_pct),
        (Some(1.0), Some(1.0), Some(1.0), None)
    );
    let (lo, v, hi) = (o.speed_lo.unwrap(), o.speed.unwrap(), o.speed_hi.unwrap());
    assert!(lo <= v && v <= hi, "{lo} {v} {hi}");
    assert!((0.0..=100.0).contains(&o.faster_pct.unwrap()));
    assert!(o.median_lo_us.unwrap() <= o.median_us && o.median_us <= o.median_hi_us.unwrap());
    // A chosen reference is used whatever the speeds.
    let rows = go(Some("slow"));
    let (f, s) = (by(&rows, "fast"), by(&rows, "slow"));
    assert_eq!(
        (f.reference.as_str(), s.reference.as_str()),
        ("slow", "slow")
    );
    assert_eq!((s.speed, s.faster_pct), (Some(1.0), None));
    assert!(f.speed.is_some() && f.faster_pct.is_some());
    // One contender: nothing to compare.
    let (r, _) = run_one(cs[1].clone(), &ds, &opts(1));
    assert!(r.summary[0].reference.is_empty() && r.summary[0].speed.is_none());
}

#[test]
fn budgets_invalid_puzzles_and_interrupts() {
    let text = format!("{HARD}\n5...5{}\n", ".".repeat(76));
    let ds = dataset(&text, &Selection::default());
    assert!(ds.puzzles[1].invalid);
    let o = BenchOptions {
        budget: Budget::Nodes(10),
        ..opts(1)
    };
    let (result, rows) = run_one(Contender::from_id(SolverId::Dlx), &ds, &o);
    let statuses: Vec<RowStatus> = {
        let mut v: Vec<_> = rows.iter().map(|r| (r.puzzle_index, r.status)).collect();
        v.sort();
        v.into_iter().map(|x| x.1).collect()
    };
    assert_eq!(statuses, vec![RowStatus::Budget, RowStatus::Invalid]);
    assert_eq!((result.summary[0].budget, result.summary[0].solved), (1, 1));
    // A set cancel flag stops the run before anything is measured.
    let cancel = Arc::new(AtomicBool::new(true));
    let mut sink = Collected::default();
    let r = run(
        &[Contender::from_id(SolverId::Dlx)],
        &[ds],
        &opts(1),
        &cancel,
        &mut sink,
        &Silent,
    )
    .unwrap();
    assert!(r.interrupted && sink.solves.is_empty());
}

#[test]
fn the_time_limit_is_per_puzzle() {
    // Each call takes 10 ms, the limit is 100 ms and the phase 250 ms or more:
    // with one deadline for the whole phase, the later calls would start late.
    let late = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = late.clone();
    let slow: Arc<SolveFn> = Arc::new(move |g, l| {
        let deadline = l.deadline.expect("a time limit gives a deadline");
        std::thread::sleep(Duration::from_millis(10));
        if Instant::now() > deadline {
            seen.fetch_add(1, Ordering::Relaxed);
        }
        SolverId::Dlx.solve(g, l)
    });
    let text = format!("{HARD}\n").repeat(25);
    let o = BenchOptions {
        time_limit: Some(Duration::from_millis(100)),
        warmup: 0,
        ..opts(1)
    };
    let (result, rows) = run_one(
        Contender::custom("slow", "slow", slow),
        &dataset(&text, &Selection::default()),
        &o,
    );
    assert_eq!(late.load(Ordering::Relaxed), 0);
    assert_eq!(rows.len(), 25);
    assert_eq!(result.summary[0].solved, 25);
}

#[test]
fn sample_limit_and_permute_are_seeded() {
    let text: String = include_str!("../../datasets/reference/sizes-4x4.txt").to_string();
    let all = dataset(&text, &Selection::default());
    let sel = Selection {
        sample: Some(2),
        seed: 3,
        ..Selection::default()
    };
    let a = dataset(&text, &sel);
    assert_eq!(a.puzzles.len(), 2);
    assert!(a.puzzles[0].index < a.puzzles[1].index, "file order kept");
    assert_eq!(
        a.puzzles.iter().map(|p| p.index).collect::<Vec<_>>(),
        dataset(&text, &sel)
            .puzzles
            .iter()
            .map(|p| p.index)
            .collect::<Vec<_>>()
    );
    let limited = dataset(
        &text,
        &Selection {
            limit: Some(3),
            ..Selection::default()
        },
    );
    assert_eq!(
        limited.puzzles.iter().map(|p| p.index).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    let permuted = dataset(
        &text,
        &Selection {
            permute: true,
            seed: 9,
            ..Selection::default()
        },
    );
    assert_ne!(
        permuted.puzzles.iter().map(|p| &p.grid).collect::<Vec<_>>(),
        all.puzzles.iter().map(|p| &p.grid).collect::<Vec<_>>()
    );
    for (p, orig) in permuted.puzzles.iter().zip(&all.puzzles) {
        assert_eq!(p.grid.givens(), orig.grid.givens());
        let want = p.expected.as_ref().unwrap();
        assert_eq!(crate::validate::check_solution(&p.grid, want), Ok(()));
        assert_eq!(SolverId::Dlx.solve_first(&p.grid).as_ref(), Some(want));
    }
}

fn fixed_result(i: u64) -> PuzzleResult {
    PuzzleResult {
        strategy: "dlx".into(),
        variant: "dlx-first-column".into(),
        dataset: "tiny".into(),
        puzzle_index: i,
        round: 0,
        status: if i == 0 {
            RowStatus::Unique
        } else {
            RowStatus::Wrong
        },
        solutions: 1,
        nodes: Some(12 + i),
        guesses: (i != 2).then_some(i),
        solves: 3,
        median_ns: 1500 * (i + 1),
        min_ns: 1400 * (i + 1),
        own_ns: (i == 1).then_some(900),
        threads: 1,
        detail: if i == 0 {
            String::new()
        } else {
            "differs from the expected answer at r1c2".into()
        },
        timing: crate::contender::Timing::Call,
    }
}

#[test]
fn results_csv_snapshot() {
    let mut sink = CsvSink::new(Vec::new(), None).unwrap();
    for i in 0..2 {
        sink.puzzle(&fixed_result(i)).unwrap();
    }
    let (text, solves) = sink.into_inner().unwrap();
    assert!(solves.is_none());
    insta::assert_snapshot!(String::from_utf8(text).unwrap());
}

#[test]
fn results_csv_has_its_header_before_any_row() {
    let (text, solves) = CsvSink::new(Vec::new(), Some(Vec::new()))
        .unwrap()
        .into_inner()
        .unwrap();
    assert_eq!(
        String::from_utf8(text).unwrap(),
        format!("{}\n", PuzzleResult::COLUMNS.join(","))
    );
    assert_eq!(
        String::from_utf8(solves.unwrap()).unwrap(),
        format!("{}\n", SolveRecord::COLUMNS.join(","))
    );
}

#[test]
fn results_csv_rows_read_back_through_serde() {
    // The sink writes fields by hand; serde must read the same records back,
    // awkward text included, under the struct's own header.
    let mut awkward = fixed_result(1);
    awkward.dataset = "odd, \"quoted\" name".into();
    awkward.detail = "panicked: line one\nline two, with \"quotes\"".into();
    awkward.puzzle_index = u64::MAX;
    awkward.median_ns = 0;
    let records = [fixed_result(0), awkward, fixed_result(2)];
    let mut sink = CsvSink::new(Vec::new(), None).unwrap();
    for r in &records {
        sink.puzzle(r).unwrap();
    }
    let text = sink.into_inner().unwrap().0;
    let mut serde_writer = csv::Writer::from_writer(Vec::new());
    serde_writer.serialize(&records[0]).unwrap();
    let serde_text = serde_writer.into_inner().unwrap();
    let header = |t: &[u8]| t.split(|&b| b == b'\n').next().unwrap().to_vec();
    assert_eq!(header(&text), header(&serde_text));
    let back: Vec<PuzzleResult> = csv::Reader::from_reader(&text[..])
        .deserialize()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(back, records);
}

fn fixed_report() -> crate::export::RunReport {
    let mut b = summary::SummaryBuilder::default();
    for i in 0..2 {
        b.add(&fixed_result(i));
    }
    let row = b.finish("dlx", "dlx-first-column", "tiny", 1, 0.5);
    let info = RunInfo {
        tool: "sudoku-bench".into(),
        version: "0.1.0".into(),
        git_commit: "abc123".into(),
        rustc: "rustc 1.95.0".into(),
        cpu_model: "Test CPU".into(),
        cores: 2,
        os: "TestOS".into(),
        command: vec!["sudoku-bench".into(), "bench".into()],
        options: RunOptions {
            solvers: vec!["dlx-first-column".into()],
            datasets: vec!["tiny".into()],
            threads: 1,
            mode: "unique".into(),
            node_budget: "none".into(),
            ..RunOptions::default()
        },
        started: "2026-01-01T00:00:00Z".into(),
        finished: "2026-01-01T00:00:01Z".into(),
        interrupted: false,
        wrong: 1,
        errors: 0,
        skipped: Vec::new(),
        rounds_complete: None,
        own_time: None,
        pipe_floor_ns: None,
        datasets: vec![DatasetInfo {
            name: "tiny".into(),
            source: "embedded:tiny".into(),
            size: "4x4".into(),
            bytes: 17,
            sha256: "00".repeat(32),
            puzzles_in_source: 2,
            puzzles_run: 2,
            skipped: 0,
            pencilmarks: 0,
        }],
    };
    crate::export::RunReport {
        info,
        summary: vec![row],
    }
}

#[test]
fn summary_writers_snapshot() {
    use crate::export::Exporter;
    let report = fixed_report();
    let csv = String::from_utf8(crate::export::csv::SummaryCsv.render(&report).unwrap()).unwrap();
    insta::assert_snapshot!("summary_csv", csv);
    let md = String::from_utf8(
        crate::export::markdown::SummaryMarkdown
            .render(&report)
            .unwrap(),
    )
    .unwrap();
    insta::assert_snapshot!("summary_md", md);
    let json = String::from_utf8(crate::export::json::RunJson.render(&report).unwrap()).unwrap();
    let back: RunInfo = serde_json::from_str(&json).unwrap();
    assert_eq!(back, report.info);
}

#[test]
fn sizes_a_strategy_does_not_handle_are_skipped_not_failed() {
    let named = |name: &str, text: &str| {
        let ds = read_str(name, text, &ReadOptions::default()).unwrap();
        BenchDataset::prepare(ds, 0, String::new(), &Selection::default())
    };
    let small = named(
        "small",
        include_str!("../../datasets/reference/sizes-4x4.txt"),
    );
    let nine = named(
        "nine",
        include_str!("../../datasets/reference/seeds-9x9.txt"),
    );
    let mut sink = Collected::default();
    let cancel = Arc::new(AtomicBool::new(false));
    let r = run(
        &[
            Contender::from_id(SolverId::Band),
            Contender::from_id(SolverId::Dlx),
        ],
        &[small.clone(), nine.clone()],
        &opts(1),
        &cancel,
        &mut sink,
        &Silent,
    )
    .unwrap();
    // band runs on 9x9 only; dlx on both; nothing is an error row.
    let phases: Vec<(&str, &str)> = r
        .summary
        .iter()
        .map(|s| (s.variant.as_str(), s.dataset.as_str()))
        .collect();
    assert_eq!(
        phases,
        vec![
            ("dlx", small.name.as_str()),
            ("band", nine.name.as_str()),
            ("dlx", nine.name.as_str())
        ]
    );
    assert_eq!(r.errors() + r.wrong(), 0);
    assert_eq!(r.skipped.len(), 1);
    let k = &r.skipped[0];
    assert_eq!((k.variant.as_str(), k.size.as_str()), ("band", "4x4"));
    assert_eq!(k.handles, "9x9");
    assert!(k.to_string().contains("handles 9x9 only"), "{k}");
    assert!(sink
        .puzzles
        .iter()
        .all(|row| !(row.variant.as_ref() == "band" && row.dataset.as_ref() == small.name)));
}

#[test]
fn min_time_adds_passes_until_each_contender_has_done_enough() {
    // 8 puzzles, one thread: `slow` spends at least 2 ms a pass, `quick` at least 0.4 ms.
    let text = include_str!("../../datasets/easy-9x9.txt");
    let ds = dataset(
        text,
        &Selection {
            limit: Some(8),
            ..Selection::default()
        },
    );
    let waiting = |us: u64| -> Arc<SolveFn> {
        Arc::new(move |g: &Grid, l: &Limits| {
            let out = SolverId::BitsetMrv.solve(g, l);
            std::thread::sleep(Duration::from_micros(us));
            out
        })
    };
    let cs = [
        Contender::custom("slow", "slow", waiting(250)),
        Contender::custom("quick", "quick", waiting(50)),
    ];
    let o = BenchOptions {
        repeat: 2,
        rounds: 1,
        min_time: Some(Duration::from_millis(6)),
        ..opts(1)
    };
    let (r, rows) = run_many(&cs, &ds, &o);
    let passes = |v: &str| {
        rows.iter()
            .filter(|r| &*r.variant == v)
            .map(|r| r.repeat + 1)
            .max()
            .unwrap()
    };
    // A pass of `slow` sleeps 8 × 250 µs at least, so three passes always reach
    // 6 ms and it never makes a fourth, however busy the machine.
    assert!(passes("slow") <= 3, "slow made {} passes", passes("slow"));
    for s in &r.summary {
        let n = passes(&s.variant);
        assert!(n >= 2, "{}: fewer passes than --repeat", s.variant);
        assert!(s.wall_s >= 0.006, "{}: {} s", s.variant, s.wall_s);
        assert_eq!((s.puzzles, s.solves), (8, 8 * n as u64));
        // A pass beyond --repeat only while short of the minimum: the timed work
        // before the last pass (never more than its wall time) was under 6 ms.
        if n > 2 {
            let before: u64 = rows
                .iter()
                .filter(|r| *r.variant == *s.variant && r.repeat + 1 < n)
                .map(|r| r.solve_ns)
                .sum();
            assert!(
                before < 6_000_000,
                "{}: {before} ns before its last pass",
                s.variant
            );
        }
    }
    // Every pass covers every puzzle once.
    let mut keys: Vec<(&str, u64, u32)> = rows
        .iter()
        .map(|r| (&*r.variant, r.puzzle_index, r.repeat))
        .collect();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), rows.len());
}

#[test]
fn blocks_hold_a_millisecond_of_the_fastest_contenders_work() {
    let us = Duration::from_micros;
    assert_eq!(
        Schedule::block_size(us(40), 1465),
        25.max(Schedule::MIN_BLOCK)
    );
    assert_eq!(Schedule::block_size(us(2), 49_151), 500);
    assert_eq!(Schedule::block_size(Duration::from_nanos(400), 1000), 1000);
    assert_eq!(
        Schedule::block_size(Duration::MAX, 500),
        Schedule::MIN_BLOCK
    );
    assert_eq!(Schedule::block_size(us(1), 0), 1);
}

/// Every record of a run as `(variant, puzzle, round, repeat, status, nodes, guesses)`, sorted.
type Key = (String, u64, u32, u32, RowStatus, Option<u64>, Option<u64>);
fn keys(rows: &[SolveRecord]) -> Vec<Key> {
    let mut k: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r.variant.to_string(),
                r.puzzle_index,
                r.round,
                r.repeat,
                r.status,
                r.nodes,
                r.guesses,
            )
        })
        .collect();
    k.sort();
    k
}

#[test]
fn a_streamed_dataset_runs_exactly_like_one_in_memory() {
    // 300 puzzles in a file, streamed in windows of 64 or held whole.
    let text: String = include_str!("../../datasets/easy-9x9.txt")
        .lines()
        .chain(include_str!("../../datasets/hard-9x9.txt").lines())
        .take(300)
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.txt");
    std::fs::write(&file, &text).unwrap();
    let spec = file.to_str().unwrap();
    let cs = [
        Contender::from_id(SolverId::BitsetMrv),
        Contender::from_id(SolverId::Dlx),
    ];
    let selections = [
        Selection::default(),
        Selection {
            sample: Some(70),
            seed: 3,
            ..Selection::default()
        },
        Selection {
            limit: Some(130),
            ..Selection::default()
        },
        Selection {
            permute: true,
            seed: 5,
            sample: Some(200),
            limit: Some(150),
        },
    ];
    // Rounds deal by position in the whole run, so windows must not change which round a puzzle is in.
    let plans = [
        (Schedule::Interleaved, 1),
        (Schedule::Sequential, 1),
        (Schedule::Interleaved, 3),
    ];
    for sel in selections {
        for (schedule, rounds) in plans {
            let o = BenchOptions {
                repeat: 2,
                rounds,
                schedule,
                ..opts(2)
            };
            let read = |window| {
                crate::harness::resolve_windowed(spec, &ReadOptions::default(), &sel, window)
                    .unwrap()
                    .remove(0)
            };
            let (held, streamed) = (read(1 << 16), read(64));
            assert!(!held.is_streamed() && streamed.is_streamed());
            assert_eq!(held.info, streamed.info);
            // Hashed while it was read: the checksum of the file's bytes.
            assert_eq!(
                held.info.sha256,
                crate::datasets::checksum::sha256_hex(text.as_bytes())
            );
            assert_eq!(held.info.bytes, text.len() as u64);
            let (a, rows_a) = run_many(&cs, &held, &o);
            let (b, rows_b) = run_many(&cs, &streamed, &o);
            assert_eq!(keys(&rows_a), keys(&rows_b), "{sel:?} {schedule:?}");
            assert_eq!(rows_a.len(), 2 * 2 * held.len());
            for (x, y) in a.summary.iter().zip(&b.summary) {
                // (The reference, the faster by wall time, may differ between two runs.)
                assert_eq!(
                    (x.puzzles, x.solved, x.guesses_per_puzzle),
                    (y.puzzles, y.solved, y.guesses_per_puzzle)
                );
                assert!(y.speed.is_some(), "{sel:?}: no speed for {}", y.variant);
            }
        }
    }
}

#[test]
fn an_interrupted_streamed_run_stops_and_keeps_its_rows() {
    let text: String = include_str!("../../datasets/easy-9x9.txt")
        .lines()
        .cycle()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .take(1000)
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("many.txt");
    std::fs::write(&file, &text).unwrap();
    let ds = crate::harness::resolve_windowed(
        file.to_str().unwrap(),
        &ReadOptions::default(),
        &Selection::default(),
        64,
    )
    .unwrap()
    .remove(0);
    assert!(ds.is_streamed());
    let cancel = Arc::new(AtomicBool::new(false));
    let solves = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (c2, s2) = (cancel.clone(), solves.clone());
    // Asks to stop at its 150th solve, as Ctrl-C would.
    let stopping: Arc<SolveFn> = Arc::new(move |g: &Grid, l: &Limits| {
        if s2.fetch_add(1, Ordering::SeqCst) == 150 {
            c2.store(true, Ordering::SeqCst);
        }
        SolverId::BitsetMrv.solve(g, l)
    });
    let mut sink = Collected::default();
    let o = BenchOptions {
        warmup: 0,
        ..opts(1)
    };
    let r = run(
        &[Contender::custom("stop", "stop", stopping)],
        std::slice::from_ref(&ds),
        &o,
        &cancel,
        &mut sink,
        &Silent,
    )
    .unwrap();
    assert!(r.interrupted);
    let rows = sink.solves.len();
    // Rows up to the window in flight, none after: no window is run twice or later.
    assert!((150..=192).contains(&rows), "{rows} rows");
    assert!(solves.load(Ordering::SeqCst) <= 192);
    let mut seen: Vec<u64> = sink.solves.iter().map(|r| r.puzzle_index).collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), rows, "a puzzle recorded twice");
}

/// A sink that raises the cancel flag once it has taken `after` solves (Ctrl-C mid-run).
struct StopAfter {
    rows: Vec<SolveRecord>,
    puzzles: Vec<PuzzleResult>,
    after: usize,
    cancel: Arc<AtomicBool>,
}
impl RecordSink for StopAfter {
    fn puzzle(&mut self, r: &PuzzleResult) -> io::Result<()> {
        self.puzzles.push(r.clone());
        Ok(())
    }
    fn keeps_solves(&self) -> bool {
        true
    }
    fn solve(&mut self, r: &SolveRecord) -> io::Result<()> {
        self.rows.push(r.clone());
        if self.rows.len() >= self.after {
            self.cancel.store(true, Ordering::Relaxed);
        }
        Ok(())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn two_contenders() -> Vec<Contender> {
    vec![
        Contender::from_id(SolverId::BitsetMrv),
        Contender::from_id(SolverId::Dlx),
    ]
}

#[test]
fn rounds_deal_each_puzzle_once_and_visit_every_dataset_in_turn() {
    let easy = dataset(
        include_str!("../../datasets/easy-9x9.txt"),
        &Selection {
            limit: Some(40),
            ..Selection::default()
        },
    );
    let mut hard = dataset(
        include_str!("../../datasets/hard-9x9.txt"),
        &Selection {
            limit: Some(25),
            ..Selection::default()
        },
    );
    hard.name = "h".into();
    let o = BenchOptions {
        repeat: 2,
        rounds: 3,
        block: Some(4),
        ..opts(2)
    };
    let mut sink = Collected::default();
    let cancel = Arc::new(AtomicBool::new(false));
    let r = run(
        &two_contenders(),
        &[easy.clone(), hard],
        &o,
        &cancel,
        &mut sink,
        &Silent,
    )
    .unwrap();
    assert_eq!(r.rounds_complete, 3);
    let rows = sink.solves;
    // Every puzzle, every contender, every repeat: once, in round `position mod 3`.
    let mut keys: Vec<(String, String, u64, u32)> = rows
        .iter()
        .map(|r| {
            (
                r.dataset.to_string(),
                r.variant.to_string(),
                r.puzzle_index,
                r.repeat,
            )
        })
        .collect();
    keys.sort();
    let before = keys.len();
    keys.dedup();
    assert_eq!((before, keys.len()), (2 * 2 * (40 + 25), 2 * 2 * (40 + 25)));
    assert!(rows.iter().all(|r| r.round as u64 == r.puzzle_index % 3));
    // Round-major: round 0 on both datasets, then round 1 on both, then round 2.
    let mut visits: Vec<(u32, String)> = Vec::new();
    for r in &rows {
        let v = (r.round, r.dataset.to_string());
        if visits.last() != Some(&v) {
            visits.push(v);
        }
    }
    let want: Vec<(u32, String)> = (0..3)
        .flat_map(|r| [(r, "t".to_string()), (r, "h".to_string())])
        .collect();
    assert_eq!(visits, want);
    assert!(r.summary.iter().all(|s| s.rounds == 3 && s.puzzles > 0));
    let dlx = r.summary.iter().find(|s| s.variant == "dlx").unwrap();
    let (lo, v, hi) = (
        dlx.speed_lo.unwrap(),
        dlx.speed.unwrap(),
        dlx.speed_hi.unwrap(),
    );
    assert!(lo <= v && v <= hi, "{lo} {v} {hi}");
    assert!(
        dlx.median_lo_us.unwrap() <= dlx.median_us && dlx.median_us <= dlx.median_hi_us.unwrap()
    );
    // A dataset too small for the rounds asked gets fewer: two puzzles a round at least.
    assert_eq!(
        (
            rounds_for(40, 3),
            rounds_for(5, 3),
            rounds_for(1, 3),
            rounds_for(9, 1)
        ),
        (3, 2, 1, 1)
    );
}

#[test]
fn an_interrupted_round_keeps_its_rows_and_counts_only_complete_rounds() {
    let ds = dataset(
        include_str!("../../datasets/easy-9x9.txt"),
        &Selection {
            limit: Some(60),
            ..Selection::default()
        },
    );
    let o = BenchOptions {
        rounds: 3,
        block: Some(5),
        ..opts(1)
    };
    let cancel = Arc::new(AtomicBool::new(false));
    // Round 0 has 20 puzzles × 2 contenders = 40 rows; stop in the middle of round 1.
    let mut sink = StopAfter {
        rows: Vec::new(),
        puzzles: Vec::new(),
        after: 50,
        cancel: cancel.clone(),
    };
    let r = run(&two_contenders(), &[ds], &o, &cancel, &mut sink, &Silent).unwrap();
    assert!(r.interrupted);
    assert_eq!(r.rounds_complete, 1);
    let rows = sink.rows;
    assert!(rows.len() >= 50 && rows.len() < 120, "{}", rows.len());
    assert_eq!(rows.iter().filter(|r| r.round == 0).count(), 40);
    assert!(rows.iter().any(|r| r.round == 1));
    let measured: u64 = r.summary.iter().map(|s| s.puzzles).sum();
    assert_eq!(
        (measured, sink.puzzles.len()),
        (rows.len() as u64, rows.len()),
        "the summary and results.csv count every puzzle measured (one pass each)"
    );
}

#[test]
fn a_handicapped_contender_takes_the_share_longer_inside_the_timed_call() {
    // The inner solve records how long it took; the wrapped call must last at least 1.2× that.
    let inner_ns = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = inner_ns.clone();
    let solve: Arc<SolveFn> = Arc::new(move |g: &Grid, l: &Limits| {
        let t = Instant::now();
        let o = SolverId::Dlx.solve(g, l);
        seen.store(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
        o
    });
    let slow = Contender::custom("s", "s", solve).handicapped(0.2);
    let ds = reference();
    for p in &ds.puzzles {
        let t = Instant::now();
        let out = slow.solve(&p.grid, &Limits::new(Mode::Unique));
        let outer = t.elapsed().as_nanos() as f64;
        assert!(out.is_some());
        let inner = inner_ns.load(Ordering::Relaxed) as f64;
        assert!(outer >= 1.2 * inner, "{outer} < 1.2 × {inner}");
    }
}

#[test]
fn stretches_keep_every_worker_busy_on_small_windows() {
    let us = Duration::from_micros;
    // hardest_1106's round windows (75 puzzles): every worker gets stretches.
    for threads in [1, 2, 4, 8, 16] {
        let s = Schedule::stretch(None, us(150), 3, 75, 375, threads);
        assert!(75usize.div_ceil(s) >= threads.min(75), "{threads}: {s}");
    }
    // A large window keeps a millisecond's work per stretch.
    assert_eq!(Schedule::stretch(None, us(2), 3, 9831, 49_158, 2), 500);
    // Asked for, a block is kept as it is.
    assert_eq!(Schedule::stretch(Some(7), us(2), 3, 75, 375, 16), 7);
    // Alone, a contender's stretches are small.
    assert_eq!(Schedule::stretch(None, us(2), 1, 75, 375, 16), 1);
}
