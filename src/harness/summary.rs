//! Per-phase statistics, accumulated row by row.

use super::record::{PuzzleResult, RowStatus, SummaryRow};
use crate::perf::Event;
use crate::stats::{rounds_interval, Sketch};

/// What `puzzles_per_sec` is, in words every chart and page that shows it
/// takes: the wall time it is over, and what that wall takes in.
pub const PUZZLES_PER_SEC_MEANS: &str = "verified solves over the contender's own wall time in the timed passes, over the workers: its timed calls (a built-in's; a library's as its host timed them) or, for a program, each puzzle's round trip through its pipe; the harness's work around them (handing out puzzles, reading the clock, checking answers, recording rows) is left out";

/// Accumulates one strategy variant's puzzles over one dataset, in bounded
/// memory: each [`PuzzleResult`] (a puzzle's median over its solves) goes
/// into a [`Sketch`], over the run and over its round.
#[derive(Clone, Debug, Default)]
pub struct SummaryBuilder {
    /// Each puzzle's median time, every puzzle.
    times: Sketch,
    /// The same, per round.
    round_times: Vec<Sketch>,
    puzzles: u64,
    solves: u64,
    /// Every solve's time, summed.
    timed_ns: u64,
    solved: u64,
    budget: u64,
    memory: u64,
    wrong: u64,
    errors: u64,
    unchecked: u64,
    /// Guesses summed: in 128 bits, so no contender's counts wrap.
    guesses: u128,
    /// Verified puzzles that report their guesses.
    counted: u64,
    no_guess: u64,
    /// Nodes of the verified puzzles that report them, and those puzzles.
    nodes: (u128, u64),
    /// Timed solves of the verified puzzles.
    verified_solves: u64,
    /// The first three distinct reasons of failed rows, as `#INDEX STATUS: DETAIL`.
    first_failures: Vec<String>,
    /// Each counter's counts over the puzzles that have one, summed, and
    /// those puzzles (in [`Event::ALL`]'s order).
    counted_sums: [(u128, u64); 4],
}

/// Wrong and failed puzzles over a summary.
pub fn failures(summary: &[SummaryRow]) -> (u64, u64) {
    (
        summary.iter().map(|s| s.wrong).sum(),
        summary.iter().map(|s| s.errors).sum(),
    )
}

/// The `q` quantile (0..=1) of sorted values, nearest rank.
pub fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[crate::stats::quantile_ranks(sorted.len(), q).0 - 1]
}

impl SummaryBuilder {
    /// True once a puzzle was wrong or an error.
    pub fn failed(&self) -> bool {
        self.wrong + self.errors > 0
    }

    /// The mean count of `e` over the puzzles that have one.
    fn mean_count(&self, e: Event) -> Option<f64> {
        let (sum, n) = self.counted_sums[e as usize];
        (n > 0).then(|| sum as f64 / n as f64)
    }

    /// Adds one puzzle's row. Its time, counts, guesses and nodes count only
    /// when it was verified: a figure is never drawn from a failed row.
    pub fn add(&mut self, r: &PuzzleResult) {
        self.puzzles += 1;
        self.solves += u64::from(r.solves);
        match r.status {
            s if s.is_solved() => self.solved += 1,
            s if s.is_budget() => self.budget += 1,
            RowStatus::Wrong => self.wrong += 1,
            RowStatus::Unchecked => self.unchecked += 1,
            RowStatus::Memory => self.memory += 1,
            _ => self.errors += 1,
        }
        // "not run" rows of a contender given up are said where it is given up.
        if matches!(
            r.status,
            RowStatus::Wrong | RowStatus::Error | RowStatus::Memory
        ) && self.first_failures.len() < 3
            && !r.detail.starts_with("not run")
        {
            // The first three distinct reasons, each with its first puzzle.
            let detail: String = r
                .detail
                .chars()
                .take(200)
                .collect::<String>()
                .replace('|', "/");
            let said = format!(" {}: {detail}", r.status);
            if !self.first_failures.iter().any(|f| f.ends_with(&said)) {
                self.first_failures
                    .push(format!("#{}{said}", r.puzzle_index));
            }
        }
        if !r.status.is_solved() {
            return;
        }
        self.verified_solves += u64::from(r.solves);
        if let Some(g) = r.guesses {
            self.counted += 1;
            self.guesses += u128::from(g);
            if g == 0 {
                self.no_guess += 1;
            }
        }
        if let Some(n) = r.nodes {
            self.nodes.0 += u128::from(n);
            self.nodes.1 += 1;
        }
        let counts = r.counts();
        for (e, (sum, n)) in Event::ALL.into_iter().zip(&mut self.counted_sums) {
            if let Some(v) = counts.get(e) {
                *sum += u128::from(v);
                *n += 1;
            }
        }
        let round = r.round as usize;
        if self.round_times.len() <= round {
            // Exact to 2^14 readings a round, then within 0.8%: bounded memory.
            self.round_times
                .resize_with(round + 1, || Sketch::with_exact_max(1 << 14));
        }
        self.times.push(r.median_ns);
        self.round_times[round].push(r.median_ns);
    }

    /// Adds the time of solves already counted in their puzzles' rows, ns.
    pub fn add_timed(&mut self, ns: u64) {
        self.timed_ns = self.timed_ns.saturating_add(ns);
    }

    /// The timed solves of every puzzle added, summed, in nanoseconds.
    pub fn timed_ns(&self) -> u64 {
        self.timed_ns
    }

    /// The summary row of everything added, given the phase's identity and
    /// wall time. Time statistics are over each puzzle's median across its
    /// solves; with two or more rounds, the median's and 90th percentile's
    /// intervals are [`rounds_interval`]s over the rounds' own quantiles, else
    /// order-statistic intervals.
    pub fn finish(
        mut self,
        strategy: &str,
        variant: &str,
        dataset: &str,
        threads: usize,
        wall_s: f64,
    ) -> SummaryRow {
        let counted = self.counted;
        let per = |x: u128| (counted > 0).then(|| x as f64 / counted as f64);
        let us =
            |e: Option<crate::stats::Estimate>| e.map(|e| (e.value / 1e3, e.lo / 1e3, e.hi / 1e3));
        let mut rounds: Vec<Sketch> = std::mem::take(&mut self.round_times);
        rounds.retain(|s| !s.is_empty());
        let mut over_rounds = |q: f64| {
            let mut e = self.times.quantile(q)?;
            let logs: Vec<f64> = rounds
                .iter_mut()
                .filter_map(|s| s.quantile(q))
                .map(|r| (r.value.max(1.0)).ln())
                .collect();
            if let Some((lo, hi)) = rounds_interval(e.value.max(1.0).ln(), &logs) {
                if lo.exp().is_finite() && hi.exp().is_finite() {
                    (e.lo, e.hi) = (lo.exp(), hi.exp());
                }
            }
            Some(e)
        };
        let median = us(over_rounds(0.5));
        let p90 = us(over_rounds(0.9));
        let p99 = us(self.times.quantile(0.99));
        let timed = !self.times.is_empty();
        let mut row = SummaryRow {
            strategy: strategy.to_string(),
            variant: variant.to_string(),
            dataset: dataset.to_string(),
            threads,
            puzzles: self.puzzles,
            solves: self.solves,
            solved: self.solved,
            budget: self.budget,
            memory: self.memory,
            wrong: self.wrong,
            errors: self.errors,
            unchecked: self.unchecked,
            puzzles_per_sec: if wall_s > 0.0 {
                self.verified_solves as f64 / wall_s
            } else {
                0.0
            },
            mean_us: timed.then(|| self.times.mean() / 1e3),
            median_us: median.map(|m| m.0),
            p90_us: p90.map(|m| m.0),
            p99_us: p99.map(|m| m.0),
            max_us: timed.then(|| self.times.max() as f64 / 1e3),
            guesses_per_puzzle: per(self.guesses),
            no_guess_pct: per(u128::from(self.no_guess)).map(|x| 100.0 * x),
            wall_s,
            median_lo_us: median.map(|m| m.1),
            median_hi_us: median.map(|m| m.2),
            p90_lo_us: p90.map(|m| m.1),
            p90_hi_us: p90.map(|m| m.2),
            rounds: rounds.len().max(1) as u32,
            instructions_per_puzzle: self.mean_count(Event::Instructions),
            cycles_per_puzzle: self.mean_count(Event::Cycles),
            branch_misses_per_puzzle: self.mean_count(Event::BranchMisses),
            task_clock_ns_per_puzzle: self.mean_count(Event::TaskClock),
            nodes_per_puzzle: (self.nodes.1 > 0).then(|| self.nodes.0 as f64 / self.nodes.1 as f64),
            first_failures: self.first_failures.join(" | "),
            ..SummaryRow::default()
        };
        if !row.stands() {
            // Figures over a few puzzles would read as the dataset's: none.
            row.mean_us = None;
            row.median_us = None;
            row.p90_us = None;
            row.p99_us = None;
            row.max_us = None;
            (row.median_lo_us, row.median_hi_us) = (None, None);
            (row.p90_lo_us, row.p90_hi_us) = (None, None);
            row.guesses_per_puzzle = None;
            row.no_guess_pct = None;
            row.nodes_per_puzzle = None;
            row.instructions_per_puzzle = None;
            row.cycles_per_puzzle = None;
            row.branch_misses_per_puzzle = None;
            row.task_clock_ns_per_puzzle = None;
        }
        row
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One puzzle's row of strategy `s` on dataset `d`, in round `puzzle % 2`.
    pub(super) fn result(
        puzzle: u64,
        solves: u32,
        median_ns: u64,
        status: RowStatus,
        detail: &str,
    ) -> PuzzleResult {
        PuzzleResult {
            strategy: "s".into(),
            variant: "s".into(),
            dataset: "d".into(),
            puzzle_index: puzzle,
            round: (puzzle % 2) as u32,
            status,
            solutions: 1,
            nodes: Some(7),
            guesses: Some(0),
            solves,
            median_ns,
            min_ns: median_ns / 2,
            own_ns: None,
            threads: 1,
            detail: detail.into(),
            timing: crate::contender::Timing::Call,
            checked: Default::default(),
            instructions: None,
            cycles: None,
            branch_misses: None,
            task_clock_ns: None,
        }
    }

    #[test]
    fn quantiles_nearest_rank() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(quantile(&v, 0.5), 50);
        assert_eq!(quantile(&v, 0.9), 90);
        assert_eq!(quantile(&v, 0.99), 99);
        assert_eq!(quantile(&v, 1.0), 100);
        assert_eq!(quantile(&[7], 0.5), 7);
        assert_eq!(quantile(&[], 0.5), 0);
    }

    #[test]
    fn each_puzzle_counts_once_by_its_median() {
        let mut b = SummaryBuilder::default();
        let row = |puzzle, solves, median_ns, status| result(puzzle, solves, median_ns, status, "");
        b.add(&row(0, 3, 20_000, RowStatus::Unique));
        b.add(&row(1, 3, 5_000, RowStatus::Unique));
        b.add(&row(2, 1, 7_000, RowStatus::Budget));
        b.add(&row(3, 2, 9_000, RowStatus::Wrong));
        let s = b.finish("s", "s", "d", 1, 0.5);
        assert_eq!((s.puzzles, s.solves), (4, 9));
        assert_eq!((s.solved, s.budget, s.wrong, s.errors), (2, 1, 1, 0));
        // Times over the verified puzzles only: 20 and 5 µs.
        assert_eq!((s.median_us, s.max_us), (Some(5.0), Some(20.0)));
        assert!((s.mean_us.unwrap() - 12.5).abs() < 1e-9, "{:?}", s.mean_us);
        // Verified puzzles' solves over the wall time.
        assert!((s.puzzles_per_sec - 12.0).abs() < 1e-9);
        assert!(s.stands() && s.over() == "over 2 of 4", "{}", s.over());
        assert!(
            s.first_failures.starts_with("#3 wrong"),
            "{}",
            s.first_failures
        );
    }
}

#[cfg(test)]
mod standing {
    use super::tests::result;
    use super::*;

    fn rows(statuses: &[RowStatus]) -> SummaryRow {
        let mut b = SummaryBuilder::default();
        for (i, &status) in statuses.iter().enumerate() {
            b.add(&super::tests::result(
                i as u64,
                1,
                1_000 * (i as u64 + 1),
                status,
                "signal 11",
            ));
        }
        b.finish("s", "s", "d", 1, 1.0)
    }

    #[test]
    fn a_row_verified_on_under_half_its_puzzles_has_no_figures() {
        let mut statuses = vec![RowStatus::Error; 282];
        statuses.extend([RowStatus::Unique; 18]);
        let r = rows(&statuses);
        assert!(!r.stands());
        assert_eq!((r.solved, r.errors), (18, 282));
        assert_eq!((r.median_us, r.median_lo_us, r.mean_us), (None, None, None));
        assert_eq!(r.nodes_per_puzzle, None);
        assert_eq!(r.failure_cell(), "282/300 errors");
        assert_eq!(r.over(), "");
        // One reason, said once with its first puzzle.
        assert_eq!(r.first_failures, "#0 error: signal 11");
        // Nothing verified at all: nothing to show, and no sentinel.
        let none = rows(&[RowStatus::Error; 5]);
        assert!(!none.stands() && none.median_us.is_none() && none.max_us.is_none());
        assert_eq!(none.puzzles_per_sec, 0.0);
    }

    #[test]
    fn a_row_verified_on_most_puzzles_says_over_how_many() {
        let mut statuses = vec![RowStatus::Unique; 269];
        statuses.extend([RowStatus::Budget; 31]);
        let r = rows(&statuses);
        assert!(r.stands());
        assert_eq!(r.over(), "over 269 of 300");
        assert_eq!(r.nodes_per_puzzle, Some(7.0));
        assert_eq!(r.failed_kinds(), "31 stopped");
        // The slowest verified puzzle is the 269th: the stopped ones are not timed.
        assert_eq!(r.max_us, Some(269.0));
        let lo = r.median_lo_us.unwrap();
        assert!(lo.is_finite() && lo <= r.median_us.unwrap());
    }

    #[test]
    fn counts_near_the_top_of_u64_are_summed_without_wrapping() {
        for big in [1u64 << 63, u64::MAX] {
            let mut b = SummaryBuilder::default();
            for i in 0..10 {
                let mut r = result(i, 1, 1_000, RowStatus::Unique, "");
                (r.nodes, r.guesses) = (Some(big), Some(big));
                b.add(&r);
                b.add_timed(u64::MAX / 4);
            }
            assert_eq!(b.timed_ns(), u64::MAX, "a time sum saturates");
            let row = b.finish("s", "s", "d", 1, 1.0);
            let want = big as f64;
            assert_eq!(row.guesses_per_puzzle, Some(want), "{big}");
            assert_eq!(row.nodes_per_puzzle, Some(want), "{big}");
        }
    }
}
