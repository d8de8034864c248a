//! Datasets streamed in windows run exactly like ones held in memory.

use super::*;

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
    let text: String = include_str!("../../../datasets/easy-9x9.txt")
        .lines()
        .chain(include_str!("../../../datasets/hard-9x9.txt").lines())
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
    let text: String = include_str!("../../../datasets/easy-9x9.txt")
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
