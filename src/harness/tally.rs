//! One contender's solves of a window, gathered puzzle by puzzle into the
//! window's [`PuzzleResult`]s: each puzzle counts once, however many passes
//! `--repeat` and `--min-time` made over it.

use super::record::{PuzzleResult, RowStatus};
use super::summary::quantile;
use crate::contender::{Checked, Timing};
use crate::perf::Event;
use std::sync::Arc;

/// What one timed solve says, as the tally takes it.
#[derive(Clone, Debug)]
pub(super) struct Solve<'a> {
    pub status: RowStatus,
    pub detail: &'a str,
    pub solutions: u64,
    pub nodes: Option<u64>,
    pub guesses: Option<u64>,
    pub ns: u64,
    pub own_ns: Option<u64>,
    pub counts: crate::perf::Counts,
}

/// One puzzle's solves so far.
#[derive(Clone, Debug, Default)]
struct Puzzle {
    ns: Vec<u64>,
    own: Vec<u64>,
    /// Each counter's counts, in [`Event::ALL`]'s order.
    counts: [Vec<u64>; 4],
    /// The verdict so far, with the solve that gave it.
    status: Option<RowStatus>,
    solutions: u64,
    nodes: Option<u64>,
    guesses: Option<u64>,
    detail: String,
}

/// One contender's solves of one window, by the puzzle's slot in the window.
#[derive(Clone, Debug)]
pub(super) struct Tally {
    slots: Vec<Puzzle>,
    /// Every solve's time, summed.
    timed_ns: u64,
    failed: bool,
}

impl Tally {
    /// An empty tally for a window of `n` puzzles.
    pub fn new(n: usize) -> Tally {
        Tally {
            slots: vec![Puzzle::default(); n],
            timed_ns: 0,
            failed: false,
        }
    }

    /// True once a solve of the window was wrong or failed.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// The time of every solve added, summed, ns.
    pub fn timed_ns(&self) -> u64 {
        self.timed_ns
    }

    /// Adds one solve of the puzzle in `slot`.
    pub fn add(&mut self, slot: usize, s: &Solve<'_>) {
        self.timed_ns += s.ns;
        self.failed |= matches!(s.status, RowStatus::Wrong | RowStatus::Error);
        let p = &mut self.slots[slot];
        if s.status == RowStatus::Cancelled && p.status.is_some() {
            return; // the interrupted pass adds nothing to the finished ones
        }
        if p.status == Some(RowStatus::Cancelled) {
            *p = Puzzle::default();
        }
        p.ns.push(s.ns);
        p.own.extend(s.own_ns);
        for (e, v) in Event::ALL.into_iter().zip(&mut p.counts) {
            v.extend(s.counts.get(e));
        }
        if p.status.is_none_or(|now| s.status.weight() > now.weight()) {
            p.status = Some(s.status);
            p.solutions = s.solutions;
            p.nodes = s.nodes;
            p.guesses = s.guesses;
            p.detail.clear();
            p.detail.push_str(s.detail);
        }
    }

    /// The window's rows, in slot order, for the puzzles solved at least once:
    /// `index(slot)` gives a slot's position in its dataset.
    pub fn finish(
        self,
        index: impl Fn(usize) -> u64,
        names: (&Arc<str>, &Arc<str>, &Arc<str>),
        round: u32,
        threads: usize,
        (timing, checked): (Timing, Checked),
    ) -> Vec<PuzzleResult> {
        let mut out = Vec::new();
        for (slot, mut p) in self.slots.into_iter().enumerate() {
            let Some(status) = p.status else { continue };
            p.ns.sort_unstable();
            p.own.sort_unstable();
            let mut counts = [None; 4];
            for (c, v) in counts.iter_mut().zip(&mut p.counts) {
                v.sort_unstable();
                *c = (!v.is_empty()).then(|| quantile(v, 0.5));
            }
            let [cycles, instructions, branch_misses, task_clock_ns] = counts;
            out.push(PuzzleResult {
                strategy: names.0.clone(),
                variant: names.1.clone(),
                dataset: names.2.clone(),
                puzzle_index: index(slot),
                round,
                status,
                solutions: p.solutions,
                nodes: p.nodes,
                guesses: p.guesses,
                solves: p.ns.len() as u32,
                median_ns: quantile(&p.ns, 0.5),
                min_ns: p.ns[0],
                own_ns: (!p.own.is_empty()).then(|| quantile(&p.own, 0.5)),
                instructions,
                cycles,
                branch_misses,
                task_clock_ns,
                threads,
                detail: p.detail,
                timing,
                checked,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(status: RowStatus, ns: u64) -> Solve<'static> {
        Solve {
            status,
            detail: if status == RowStatus::Wrong {
                "bad"
            } else {
                ""
            },
            solutions: 1,
            nodes: Some(ns / 10),
            guesses: Some(0),
            ns,
            own_ns: None,
            counts: Default::default(),
        }
    }

    fn rows(t: Tally) -> Vec<PuzzleResult> {
        let n: Arc<str> = "x".into();
        t.finish(
            |slot| 100 + slot as u64,
            (&n, &n, &n),
            2,
            1,
            (Timing::Call, Checked::Solution),
        )
    }

    #[test]
    fn each_puzzle_is_one_row_with_its_median_and_fastest_solve() {
        let mut t = Tally::new(3);
        for ns in [30, 10, 20, 50] {
            t.add(0, &solve(RowStatus::Unique, ns));
        }
        t.add(2, &solve(RowStatus::Unique, 7));
        assert_eq!(t.timed_ns(), 117);
        let r = rows(t);
        assert_eq!(r.len(), 2, "slot 1 had no solve");
        assert_eq!(
            (r[0].puzzle_index, r[0].solves, r[0].median_ns, r[0].min_ns),
            (100, 4, 20, 10)
        );
        assert_eq!((r[1].puzzle_index, r[1].solves, r[1].round), (102, 1, 2));
    }

    #[test]
    fn a_puzzle_wrong_in_any_solve_is_wrong_and_says_why() {
        let mut t = Tally::new(2);
        t.add(0, &solve(RowStatus::Unique, 10));
        t.add(0, &solve(RowStatus::Wrong, 10));
        t.add(0, &solve(RowStatus::Budget, 10));
        t.add(1, &solve(RowStatus::Unique, 10));
        t.add(1, &solve(RowStatus::Budget, 99));
        assert!(t.failed());
        let r = rows(t);
        assert_eq!(
            (r[0].status, r[0].detail.as_str()),
            (RowStatus::Wrong, "bad")
        );
        assert_eq!((r[1].status, r[1].solves), (RowStatus::Budget, 2));
    }

    #[test]
    fn an_interrupted_solve_adds_nothing_beside_finished_ones() {
        let mut t = Tally::new(2);
        t.add(0, &solve(RowStatus::Unique, 10));
        t.add(0, &solve(RowStatus::Cancelled, 1));
        t.add(1, &solve(RowStatus::Cancelled, 3));
        let r = rows(t);
        assert_eq!(
            (r[0].status, r[0].solves, r[0].min_ns),
            (RowStatus::Unique, 1, 10)
        );
        assert_eq!((r[1].status, r[1].solves), (RowStatus::Cancelled, 1));
    }
}
