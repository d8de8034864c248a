//! Whole runs: wrong, panicking and slow contenders, budgets, time limits,
//! samples, sizes skipped, speed columns.

use super::*;

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
    // A valid grid that keeps the givens but is not the dataset's answer: the exact-cover article's
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
    let (median, p99, max) = (s.median_us.unwrap(), s.p99_us.unwrap(), s.max_us.unwrap());
    assert!(median > 0.0 && max >= p99 && p99 >= median);
    assert!(s.puzzles_per_sec > 0.0);
    let no_guess = s.no_guess_pct.expect("built-in strategies count guesses");
    assert!((no_guess - 100.0 * 2.0 / 3.0).abs() < 1e-9, "{no_guess}");
}

#[test]
fn speed_columns_compare_with_the_fastest_or_the_chosen_reference() {
    // `slow` solves like `fast`, then waits 200 µs: about 0.2× or less against it.
    let text = include_str!("../../../datasets/easy-9x9.txt");
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
    let m = o.median_us.unwrap();
    assert!(o.median_lo_us.unwrap() <= m && m <= o.median_hi_us.unwrap());
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
    let text: String = include_str!("../../../datasets/reference/sizes-4x4.txt").to_string();
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

#[test]
fn sizes_a_strategy_does_not_handle_are_skipped_not_failed() {
    let named = |name: &str, text: &str| {
        let ds = read_str(name, text, &ReadOptions::default()).unwrap();
        BenchDataset::prepare(ds, 0, String::new(), &Selection::default())
    };
    let small = named(
        "small",
        include_str!("../../../datasets/reference/sizes-4x4.txt"),
    );
    let nine = named(
        "nine",
        include_str!("../../../datasets/reference/seeds-9x9.txt"),
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
fn row_status_words_are_the_solvers_then_the_harnesss() {
    for s in crate::solver::Status::ALL {
        assert_eq!(RowStatus::from(s).word(), s.word());
    }
    for r in RowStatus::ALL {
        assert_eq!(r.word().parse::<RowStatus>(), Ok(r));
        // The CSV files' serde names are the same words.
        assert_eq!(serde_json::to_string(&r).unwrap(), format!("\"{r}\""));
    }
    assert!("solved ".parse::<RowStatus>().is_err());
}

#[test]
fn a_solution_of_a_puzzle_with_several_is_checked_by_the_rules_under_mode_first() {
    // The exact-cover article's second puzzle has two solutions; the dataset
    // gives one, the contender finds the other and says `solved`.
    let e2 = "74.12.65.263495187.59678.43.1.....28.82..4.61.76....3..24.3.81689.54.372.3.2.159.";
    let seed_answer =
        "748123659263495187159678243415367928382954761976812435524739816891546372637281594";
    let mut ds = dataset(&format!("{e2} {seed_answer}\n"), &Selection::default());
    ds.puzzles[0].reference = crate::contender::Reference::Count { found: 2, limit: 2 };
    let want = ds.puzzles[0].expected.clone().unwrap();
    let finds_other: Arc<SolveFn> = Arc::new(move |g: &Grid, _: &Limits| {
        let mut out = SolverId::Dlx.solve(g, &Limits::new(Mode::Count(2)));
        out.solutions.retain(|s| *s != want);
        out.status = crate::solver::Status::Solved;
        out.solution_count = 1;
        out
    });
    let mut o = opts(1);
    o.mode = Mode::First;
    let (result, rows) = run_one(Contender::custom("other", "other", finds_other), &ds, &o);
    assert_eq!(result.wrong(), 0, "{rows:?}");
    assert_eq!(rows[0].status, RowStatus::Solved, "{rows:?}");
}
