//! Schedules: stretches, interleaving order, sequential runs, --min-time passes.

use super::*;

/// Three contenders (the same fast strategy under three names) over 150 puzzles,
/// twice, on `threads` workers, into `sink`: the records it got, in order.
fn three_way_into(
    schedule: Schedule,
    threads: usize,
    sink: &mut dyn RecordSink,
    got: impl FnOnce(&mut dyn RecordSink) -> Vec<SolveRecord>,
) -> (BenchDataset, Vec<SolveRecord>) {
    let text = include_str!("../../../datasets/easy-9x9.txt");
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
        stretch: Some(64),
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
    let cores = crate::harness::cores();
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
    let cores = crate::harness::cores();
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
fn min_time_adds_passes_until_each_contender_has_done_enough() {
    // 8 puzzles, one thread: `slow` spends at least 2 ms a pass, `quick` at least 0.4 ms.
    let text = include_str!("../../../datasets/easy-9x9.txt");
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
        // Its wall time is its own (its timed calls), never less than the
        // sleeps in them. --min-time counts its share of the passes' wall,
        // which a loaded machine makes larger than its own: the passes stop
        // when the share is reached, so the own time can be under 6 ms.
        let sleep = if &*s.variant == "slow" { 250e-6 } else { 50e-6 };
        assert!(
            s.wall_s >= n as f64 * 8.0 * sleep,
            "{}: {} s over {n} passes",
            s.variant,
            s.wall_s
        );
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
        Schedule::stretch_size(us(40), 1465),
        25.max(Schedule::MIN_STRETCH)
    );
    assert_eq!(Schedule::stretch_size(us(2), 49_151), 500);
    assert_eq!(
        Schedule::stretch_size(Duration::from_nanos(400), 1000),
        1000
    );
    assert_eq!(
        Schedule::stretch_size(Duration::MAX, 500),
        Schedule::MIN_STRETCH
    );
    assert_eq!(Schedule::stretch_size(us(1), 0), 1);
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
