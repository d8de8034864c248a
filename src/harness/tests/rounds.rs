//! Rounds: each puzzle dealt once, interrupted rounds.

use super::*;

fn two_contenders() -> Vec<Contender> {
    vec![
        Contender::from_id(SolverId::BitsetMrv),
        Contender::from_id(SolverId::Dlx),
    ]
}

#[test]
fn rounds_deal_each_puzzle_once_and_visit_every_dataset_in_turn() {
    let easy = dataset(
        include_str!("../../../datasets/easy-9x9.txt"),
        &Selection {
            limit: Some(40),
            ..Selection::default()
        },
    );
    let mut hard = dataset(
        include_str!("../../../datasets/hard-9x9.txt"),
        &Selection {
            limit: Some(25),
            ..Selection::default()
        },
    );
    hard.name = "h".into();
    let o = BenchOptions {
        repeat: 2,
        rounds: 3,
        stretch: Some(4),
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
        dlx.median_lo_us.unwrap() <= dlx.median_us.unwrap()
            && dlx.median_us.unwrap() <= dlx.median_hi_us.unwrap()
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
        include_str!("../../../datasets/easy-9x9.txt"),
        &Selection {
            limit: Some(60),
            ..Selection::default()
        },
    );
    let o = BenchOptions {
        rounds: 3,
        stretch: Some(5),
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
