use super::*;
use crate::grid::Geometry;
use crate::harness::Silent;
use crate::seeded::stream;
use crate::validate::check_solution;

fn g(side: usize) -> Geometry {
    Geometry::from_side(side).unwrap()
}

#[test]
fn a_holes_puzzle_keeps_exactly_k_givens_of_a_solution() {
    for (side, ks) in [
        (4, vec![0, 1, 7, 16]),
        (9, vec![17, 30, 80]),
        (16, vec![0, 100, 255]),
    ] {
        for k in ks {
            for i in 0..3 {
                let (puzzle, full) = holes_puzzle(g(side), k, &mut stream(5, i));
                assert_eq!(puzzle.givens(), k, "{side}x{side}, k {k}");
                assert!(full.is_complete());
                // The grid it came from is a solution of the puzzle: it keeps
                // every given and breaks no rule.
                check_solution(&puzzle, &full).unwrap();
            }
        }
    }
}

#[test]
fn a_points_puzzles_depend_on_the_seed_and_the_point_only() {
    let p = PointSpec {
        side: 9,
        givens: 25,
    };
    let a = point_puzzles(p, 4, 11);
    assert_eq!(a, point_puzzles(p, 4, 11));
    // A longer set starts with the same puzzles.
    assert_eq!(a[..], point_puzzles(p, 6, 11)[..4]);
    assert_ne!(a, point_puzzles(p, 4, 12));
    assert!(a.iter().all(|b| b.grid.givens() == 25 && !b.invalid));
    let other = point_puzzles(PointSpec { givens: 26, ..p }, 4, 11);
    assert!(a.iter().zip(&other).all(|(x, y)| x.grid != y.grid));
}

#[test]
fn bad_ranges_sizes_and_fractions_are_refused_before_anything_runs() {
    let msg = |r: Result<Vec<PointSpec>, StudyError>| r.unwrap_err().to_string();
    assert!(msg(clue_points(g(9), 30, 20, 1)).contains("has no points"));
    assert!(msg(clue_points(g(9), 20, 90, 1)).contains("81 cells"));
    assert!(msg(clue_points(g(9), 20, 30, 0)).contains("step"));
    assert!(msg(size_points(&[4, 10], 0.5)).contains("10 is not a grid side"));
    for f in [0.0, 1.0, -0.2, 1.5, f64::NAN] {
        assert!(msg(size_points(&[9], f)).contains("strictly between 0 and 1"));
    }
    assert!(msg(size_points(&[], 0.5)).contains("no grid sizes"));
    for (text, range) in [("17..60", (17, 60)), ("17..=60", (17, 60)), ("5-9", (5, 9))] {
        assert_eq!(clue_range(text).unwrap(), range);
    }
    assert_eq!(clue_range(" 30 ").unwrap(), (30, 30));
    for bad in ["17..", "a..b", "", "1..2..3"] {
        let e = clue_range(bad).unwrap_err().to_string();
        assert!(e.contains("a range of clue counts"), "{bad:?}: {e}");
    }
    assert!(side_geometry(10)
        .unwrap_err()
        .to_string()
        .contains("4, 9, 16"));
    let pts = clue_points(g(9), 20, 30, 5).unwrap();
    assert_eq!(
        pts.iter().map(|p| p.givens).collect::<Vec<_>>(),
        vec![20, 25, 30]
    );
    let sizes = size_points(&[16, 4, 9, 4], 0.5).unwrap();
    assert_eq!(
        sizes.iter().map(|p| (p.side, p.givens)).collect::<Vec<_>>(),
        vec![(4, 8), (9, 41), (16, 128)]
    );
}

fn options(axis: Axis, points: Vec<PointSpec>, solvers: Vec<SolverId>) -> StudyOptions {
    StudyOptions {
        axis,
        points,
        solvers,
        modes: vec![Mode::First, Mode::Unique],
        puzzles: 6,
        seed: 3,
        threads: 1,
        budget: Budget::StrategyDefault,
        time_limit: None,
        repeat: 1,
        warmup: 0,
        stop_after_censored: false,
        rounds: 4,
        measure: Default::default(),
    }
}

#[test]
fn a_study_measures_every_point_mode_and_strategy_and_hears_each_solve() {
    let opts = options(
        Axis::Clues,
        clue_points(g(4), 4, 8, 2).unwrap(),
        vec![SolverId::BitsetMrv, SolverId::Dlx, SolverId::SatVarisat],
    );
    let mut heard = Vec::new();
    let data = run(
        &opts,
        &Arc::new(AtomicBool::new(false)),
        Default::default(),
        &mut |_, r| {
            heard.extend_from_slice(r);
            Ok(())
        },
        &Silent,
    )
    .unwrap();
    assert_eq!(data.rows.len(), 3 * 2 * 3);
    // Every solve was heard: 3 points × 2 modes × 3 strategies × 6 puzzles,
    // each puzzle once per point, mode and strategy.
    assert_eq!(heard.len(), 3 * 2 * 3 * 6);
    let mut seen: Vec<_> = heard
        .iter()
        .map(|r| (r.dataset.to_string(), r.variant.to_string(), r.puzzle_index))
        .collect();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 3 * 3 * 6);
    assert_eq!(data.samples.len(), data.rows.len());
    assert!(!data.interrupted);
    for r in &data.rows {
        // Every verdict had a reference to check it, whichever round its
        // puzzle fell in (puzzle 5 is the second of round 1's share).
        assert_eq!(
            (r.puzzles, r.solved, r.wrong, r.errors, r.unchecked),
            (6, 6, 0, 0, 0)
        );
        assert_eq!(r.state, PointState::Measured);
        assert!(r.median_us.is_some());
        // Share of unique puzzles: in mode unique only, the same for every strategy.
        assert_eq!(r.unique_pct.is_some(), r.mode == "unique", "{r:?}");
        // The reference crate counts no search nodes.
        assert_eq!(r.median_nodes.is_some(), r.variant != "sat-varisat");
    }
    for p in [4, 6, 8] {
        let shares: Vec<_> = data
            .rows
            .iter()
            .filter(|r| r.givens == p && r.mode == "unique")
            .map(|r| r.unique_pct)
            .collect();
        assert!(shares.windows(2).all(|w| w[0] == w[1]), "{shares:?}");
        // The share is what the rows said, over all six puzzles.
        let said: Vec<&SolveRecord> = heard
            .iter()
            .filter(|r| *r.dataset == format!("4x4-k{p}") && &*r.variant == "dlx")
            .filter(|r| matches!(r.status, RowStatus::Unique | RowStatus::Multiple))
            .collect();
        assert_eq!(said.len(), 6);
        let unique = said
            .iter()
            .filter(|r| r.status == RowStatus::Unique)
            .count();
        assert_eq!(shares[0], Some(100.0 * unique as f64 / 6.0));
    }
    assert!(heard.iter().all(|r| r.status != RowStatus::Unchecked));
    let f = analysis::analyse(&opts, &data);
    // Time for all three, nodes for the two that count them; in both modes.
    assert_eq!(f.peaks.len(), 2 * (3 + 2));
    assert!(f.growth.is_empty());
    for p in &f.peaks {
        let peak = p.peak.clone().unwrap();
        assert!([4.0, 6.0, 8.0].contains(&peak.at) && peak.lo <= peak.at && peak.at <= peak.hi);
    }
}

#[test]
fn budget_stopped_points_are_censored_and_larger_sizes_not_run() {
    let mut opts = options(
        Axis::Size,
        size_points(&[4, 9, 16], 0.3).unwrap(),
        vec![SolverId::Backtracking, SolverId::BitsetMrv],
    );
    opts.modes = vec![Mode::First];
    opts.budget = Budget::Nodes(2);
    opts.stop_after_censored = true;
    let data = run(
        &opts,
        &Arc::new(AtomicBool::new(false)),
        Default::default(),
        &mut |_, _| Ok(()),
        &Silent,
    )
    .unwrap();
    // Per strategy, in size order: measured points, then the first censored
    // one, then nothing run. Backtracking (a node per placement) is censored
    // at once; bitset-mrv's propagation may solve 4x4 at the root, never 16x16.
    for v in ["backtracking", "bitset-mrv"] {
        let states: Vec<PointState> = data
            .rows
            .iter()
            .filter(|r| r.variant == v)
            .map(|r| r.state)
            .collect();
        let at = states
            .iter()
            .position(|s| *s == PointState::Censored)
            .unwrap_or_else(|| panic!("{v} never censored: {states:?}"));
        assert!(
            states[..at].iter().all(|s| *s == PointState::Measured),
            "{v}: {states:?}"
        );
        assert!(
            states[at + 1..].iter().all(|s| *s == PointState::Skipped),
            "{v}: {states:?}"
        );
        assert_eq!(states.len(), 3);
    }
    let first = &data.rows[0];
    assert_eq!((first.side, first.variant.as_str()), (4, "backtracking"));
    assert_eq!(first.state, PointState::Censored);
    assert!(first.censored * 2 >= first.puzzles && first.median_hi_us.is_none());
    // Stopping applies to larger sizes only: every round still ran its share
    // of the size where the strategy was censored (a larger size may have had
    // a round's share before the stop).
    assert_eq!(first.puzzles, 6);
    let f = analysis::analyse(&opts, &data);
    let time = f
        .growth
        .iter()
        .find(|g| g.variant == "backtracking" && g.cost == analysis::Cost::Time)
        .unwrap();
    assert!(time.growth.is_none());
    assert_eq!(
        (time.censored.clone(), time.not_run.clone()),
        (vec![4], vec![9, 16])
    );
}

#[test]
fn a_strategy_set_that_handles_no_size_is_refused() {
    let opts = options(
        Axis::Size,
        size_points(&[4, 16], 0.5).unwrap(),
        vec![SolverId::Band],
    );
    let err = run(
        &opts,
        &Arc::new(AtomicBool::new(false)),
        Default::default(),
        &mut |_, _| Ok(()),
        &Silent,
    )
    .unwrap_err();
    assert!(matches!(err, StudyError::NoStrategy { .. }), "{err}");
    assert!(err.to_string().contains("band") && err.to_string().contains("16x16"));
}

#[test]
fn an_interrupted_study_keeps_only_finished_points() {
    let opts = options(
        Axis::Clues,
        clue_points(g(4), 5, 6, 1).unwrap(),
        vec![SolverId::BitsetMrv],
    );
    let cancel = Arc::new(AtomicBool::new(true));
    let data = run(
        &opts,
        &cancel,
        Default::default(),
        &mut |_, _| Ok(()),
        &Silent,
    )
    .unwrap();
    assert!(data.interrupted);
    assert!(data.rows.is_empty());
}

fn solve(index: u64, status: RowStatus, ns: u64) -> SolveRecord {
    SolveRecord {
        strategy: "dlx".into(),
        variant: "dlx".into(),
        dataset: "9x9-k30".into(),
        puzzle_index: index,
        round: 0,
        repeat: 0,
        status,
        solutions: 1,
        nodes: Some(10),
        guesses: Some(1),
        solve_ns: ns,
        own_ns: None,
        threads: 1,
        detail: String::new(),
        timing: Default::default(),
        instructions: None,
        cycles: None,
        branch_misses: None,
        task_clock_ns: None,
        heap_bytes: None,
    }
}

#[test]
fn unchecked_verdicts_are_counted_apart_and_said() {
    let p = PointSpec {
        side: 9,
        givens: 30,
    };
    // Two unique, one multiple, three whose verdict nothing could check
    // (slow ones: they would move the median if they counted).
    let mut records = vec![
        solve(0, RowStatus::Unique, 1_000),
        solve(1, RowStatus::Unique, 2_000),
        solve(2, RowStatus::Multiple, 3_000),
    ];
    records.extend((3..6).map(|i| solve(i, RowStatus::Unchecked, 900_000)));
    let (row, sample) = summarise(Axis::Clues, p, 0, "unique", SolverId::Dlx, &records);
    assert_eq!((row.puzzles, row.solved, row.unchecked), (6, 3, 3));
    assert_eq!(row.unique_pct, Some(100.0 * 2.0 / 3.0));
    assert_eq!(sample.times.len(), 3);
    assert_eq!(row.median_us, Some(2.0));
    let said = write::checks(std::slice::from_ref(&row)).join("\n");
    assert!(
        said.contains("dlx (mode unique): of 6 puzzles, 3 unchecked"),
        "{said}"
    );
    assert!(said.contains("one-solution share"), "{said}");
    let clean = StudyRow {
        unchecked: 0,
        puzzles: 3,
        ..row
    };
    let said = write::checks(&[clean]).join("\n");
    assert!(
        said.starts_with("Every answer (3 in all) was checked"),
        "{said}"
    );
}
