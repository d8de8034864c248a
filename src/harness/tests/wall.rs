//! What a contender's wall time takes in: its timed calls (a library's as
//! its host timed them), never the harness's work around them.

use super::*;
use crate::contender::{Engine, Job, Solved, Timing};

/// An engine outside this process whose host says each call took `ns` (a
/// library's host), answering with the reference solver at once.
struct HostTimed {
    ns: u64,
}

impl Engine for HostTimed {
    fn work(
        &self,
        job: &Job<'_>,
        next: &mut dyn FnMut() -> Option<usize>,
        done: &mut dyn FnMut(usize, Solved),
    ) {
        while let Some(slot) = next() {
            let outcome = SolverId::Dlx.solve(&job.puzzles[slot].grid, &job.limits());
            let mut s = Solved::failed(String::new(), self.ns, Instant::now());
            s.result = Ok(outcome);
            done(slot, s);
        }
    }
}

fn host_timed(name: &str, ns: u64) -> Contender {
    Contender {
        timing: Timing::Call,
        engine: Arc::new(HostTimed { ns }),
        ..Contender::custom(name, name, Arc::new(|g, l| SolverId::Dlx.solve(g, l)))
    }
}

#[test]
fn a_librarys_wall_is_its_hosts_calls_and_nothing_of_the_harness() {
    // 10 ms a call, whatever this machine takes to hand it out and check it.
    let ds = reference();
    for threads in [1, 2] {
        let (r, _) = run_one(host_timed("lib", 10_000_000), &ds, &opts(threads));
        let row = &r.summary[0];
        let calls = row.solves as f64 * 0.010;
        assert!(
            (row.wall_s - calls / threads as f64).abs() < 1e-9,
            "{threads} threads: wall {} for {} calls of 10 ms",
            row.wall_s,
            row.solves
        );
        let per_sec = row.solved as f64 * threads as f64 / calls;
        assert!((row.puzzles_per_sec - per_sec).abs() < 1e-6, "{row:?}");
    }
}

#[test]
fn a_built_ins_wall_is_its_timed_calls() {
    // One pass: each verified puzzle's one solve is its median, so the
    // mean times the puzzles is every call's time, and the wall is that.
    let ds = reference();
    let (r, _) = run_one(Contender::from_id(SolverId::Dlx), &ds, &opts(1));
    let row = &r.summary[0];
    let calls = row.mean_us.unwrap() * row.solved as f64 * 1e-6;
    assert_eq!(row.solves, row.solved, "{row:?}");
    assert!((row.wall_s - calls).abs() < 1e-9, "{row:?}");
}
