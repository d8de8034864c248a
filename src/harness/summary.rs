//! Per-phase statistics, accumulated row by row.

use super::record::{PuzzleRecord, RowStatus, SummaryRow};
use crate::stats::{rounds_interval, Sketch};

/// Accumulates the rows of one strategy variant over one dataset, in bounded
/// memory: rows are held for the current window of puzzles only; at its end
/// ([`SummaryBuilder::end_window`]) each puzzle's median over its repeats goes
/// into a [`Sketch`].
#[derive(Clone, Debug, Default)]
pub struct SummaryBuilder {
    /// `(puzzle index, solve ns, solved)` per row of the current window.
    window: Vec<(u64, u64, bool)>,
    /// Each puzzle's median time across repeats, every puzzle.
    times: Sketch,
    /// The same, per round.
    round_times: Vec<Sketch>,
    rows: u64,
    /// Every row's timed solve, summed.
    timed_ns: u64,
    solved: u64,
    budget: u64,
    wrong: u64,
    errors: u64,
    guesses: u64,
    /// Rows that report their guesses.
    counted: u64,
    no_guess: u64,
}

/// The `q` quantile (0..=1) of sorted values, nearest rank.
pub fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    sorted[crate::stats::quantile_ranks(sorted.len(), q).0 - 1]
}

impl SummaryBuilder {
    /// True once a row was wrong or an error.
    pub fn failed(&self) -> bool {
        self.wrong + self.errors > 0
    }

    /// Adds one row.
    pub fn add(&mut self, r: &PuzzleRecord) {
        self.add_row(r.puzzle_index, r.solve_ns, r.status, r.guesses);
    }

    /// Adds one row given by the fields the summary reads.
    pub fn add_row(&mut self, puzzle_index: u64, ns: u64, status: RowStatus, guesses: Option<u64>) {
        self.window.push((puzzle_index, ns, status.is_solved()));
        self.rows += 1;
        self.timed_ns += ns;
        match status {
            s if s.is_solved() => self.solved += 1,
            s if s.is_budget() => self.budget += 1,
            RowStatus::Wrong => self.wrong += 1,
            _ => self.errors += 1,
        }
        if let Some(g) = guesses {
            self.counted += 1;
            self.guesses += g;
            if g == 0 && status.is_solved() {
                self.no_guess += 1;
            }
        }
    }

    /// Ends a window of puzzles measured in `round`: each puzzle's median time
    /// over its rows (its repeats) joins the summary's times, and the window's
    /// solved puzzles come back as `(puzzle index, median ns)` over their solved
    /// rows, by puzzle index, for pairing with other contenders.
    pub fn end_window(&mut self, round: usize) -> Vec<(u64, u64)> {
        let mut rows = std::mem::take(&mut self.window);
        rows.sort_unstable();
        let mut solved = Vec::new();
        if self.round_times.len() <= round {
            // Exact to 2^14 readings a round, then within 0.8%: bounded memory.
            self.round_times
                .resize_with(round + 1, || Sketch::with_exact_max(1 << 14));
        }
        for g in rows.chunk_by(|a, b| a.0 == b.0) {
            let all: Vec<u64> = g.iter().map(|x| x.1).collect();
            let median = quantile(&all, 0.5);
            self.times.push(median);
            self.round_times[round].push(median);
            let ok: Vec<u64> = g.iter().filter(|x| x.2).map(|x| x.1).collect();
            if !ok.is_empty() {
                solved.push((g[0].0, quantile(&ok, 0.5)));
            }
        }
        solved
    }

    /// The summary row, given the phase's identity and wall time. Time statistics
    /// are over each puzzle's median across repeats; with two or more rounds,
    /// the median's and 90th percentile's intervals are [`rounds_interval`]s
    /// over the rounds' own quantiles, else order-statistic intervals.
    /// The timed solves of every row added, summed, in nanoseconds.
    pub fn timed_ns(&self) -> u64 {
        self.timed_ns
    }

    /// The summary row of everything added.
    pub fn finish(
        mut self,
        strategy: &str,
        variant: &str,
        dataset: &str,
        threads: usize,
        wall_s: f64,
    ) -> SummaryRow {
        if !self.window.is_empty() {
            self.end_window(0);
        }
        let n = self.rows;
        let counted = self.counted;
        let per = |x: u64| (counted > 0).then(|| x as f64 / counted as f64);
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
                (e.lo, e.hi) = (lo.exp(), hi.exp());
            }
            Some(e)
        };
        let median = us(over_rounds(0.5));
        let p90 = us(over_rounds(0.9));
        let p99 = us(self.times.quantile(0.99));
        SummaryRow {
            strategy: strategy.to_string(),
            variant: variant.to_string(),
            dataset: dataset.to_string(),
            threads,
            puzzles: n,
            solved: self.solved,
            budget: self.budget,
            wrong: self.wrong,
            errors: self.errors,
            puzzles_per_sec: if wall_s > 0.0 { n as f64 / wall_s } else { 0.0 },
            mean_us: self.times.mean() / 1e3,
            median_us: median.map_or(0.0, |m| m.0),
            p90_us: p90.map_or(0.0, |m| m.0),
            p99_us: p99.map_or(0.0, |m| m.0),
            max_us: self.times.max() as f64 / 1e3,
            guesses_per_puzzle: per(self.guesses),
            no_guess_pct: per(self.no_guess).map(|x| 100.0 * x),
            wall_s,
            median_lo_us: median.map(|m| m.1),
            median_hi_us: median.map(|m| m.2),
            p90_lo_us: p90.map(|m| m.1),
            p90_hi_us: p90.map(|m| m.2),
            rounds: rounds.len().max(1) as u32,
            ..SummaryRow::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn repeats_count_by_each_puzzles_median() {
        let mut b = SummaryBuilder::default();
        let row = |puzzle, ns, status| PuzzleRecord {
            strategy: "s".into(),
            variant: "s".into(),
            dataset: "d".into(),
            puzzle_index: puzzle,
            round: 0,
            repeat: 0,
            puzzle: String::new(),
            status,
            solutions: 1,
            nodes: Some(1),
            guesses: Some(0),
            solve_ns: ns,
            own_ns: None,
            threads: 1,
            detail: String::new(),
        };
        for (p, ns) in [
            (0, 10_000),
            (1, 5_000),
            (0, 30_000),
            (1, 5_000),
            (0, 20_000),
            (1, 900_000),
        ] {
            b.add(&row(p, ns, RowStatus::Unique));
        }
        b.add(&row(2, 7_000, RowStatus::Budget));
        assert_eq!(b.end_window(0), vec![(0, 20_000), (1, 5_000)]);
        let s = b.finish("s", "s", "d", 1, 1.0);
        assert_eq!(s.puzzles, 7);
        assert_eq!((s.median_us, s.max_us), (7.0, 20.0));
        assert!((s.mean_us - 32.0 / 3.0).abs() < 1e-9, "{}", s.mean_us);
    }
}
