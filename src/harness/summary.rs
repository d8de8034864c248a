//! Per-phase statistics, accumulated row by row.

use super::record::{PuzzleRecord, RowStatus, SummaryRow};

/// Accumulates the rows of one strategy variant over one dataset.
#[derive(Clone, Debug, Default)]
pub struct SummaryBuilder {
    /// `(puzzle index, solve ns, solved)` per row.
    times: Vec<(u64, u64, bool)>,
    solved: u64,
    budget: u64,
    wrong: u64,
    errors: u64,
    guesses: u64,
    no_guess: u64,
}

/// The `q` quantile (0..=1) of sorted values, nearest rank.
pub fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

impl SummaryRow {
    /// A row holding only the intervals of the median and p90 of `times` (ns).
    fn intervals(times: &[u64]) -> SummaryRow {
        let us: Vec<f64> = times.iter().map(|&t| t as f64 / 1e3).collect();
        let median = crate::stats::quantile(&us, 0.5);
        let p90 = crate::stats::quantile(&us, 0.9);
        SummaryRow {
            median_lo_us: median.map(|e| e.lo),
            median_hi_us: median.map(|e| e.hi),
            p90_lo_us: p90.map(|e| e.lo),
            p90_hi_us: p90.map(|e| e.hi),
            ..SummaryRow::default()
        }
    }
}

impl SummaryBuilder {
    /// Adds one row.
    pub fn add(&mut self, r: &PuzzleRecord) {
        self.times
            .push((r.puzzle_index, r.solve_ns, r.status.is_solved()));
        match r.status {
            s if s.is_solved() => self.solved += 1,
            s if s.is_budget() => self.budget += 1,
            RowStatus::Wrong => self.wrong += 1,
            _ => self.errors += 1,
        }
        self.guesses += r.guesses;
        if r.guesses == 0 && r.status.is_solved() {
            self.no_guess += 1;
        }
    }

    /// Each puzzle's median time over its rows (its repeats), by puzzle index;
    /// with `solved_only`, over its solved rows, leaving out puzzles never solved.
    pub fn per_puzzle(&self, solved_only: bool) -> Vec<(u64, u64)> {
        let mut rows: Vec<(u64, u64)> = self
            .times
            .iter()
            .filter(|t| t.2 || !solved_only)
            .map(|t| (t.0, t.1))
            .collect();
        rows.sort_unstable();
        rows.chunk_by(|a, b| a.0 == b.0)
            .map(|g| {
                let ns: Vec<u64> = g.iter().map(|x| x.1).collect();
                (g[0].0, quantile(&ns, 0.5))
            })
            .collect()
    }

    /// The summary row, given the phase's identity and wall time. Time statistics
    /// are over each puzzle's median across repeats.
    pub fn finish(
        self,
        strategy: &str,
        variant: &str,
        dataset: &str,
        threads: usize,
        wall_s: f64,
    ) -> SummaryRow {
        let mut times: Vec<u64> = self.per_puzzle(false).into_iter().map(|t| t.1).collect();
        times.sort_unstable();
        let n = self.times.len() as u64;
        let us = |ns: u64| ns as f64 / 1e3;
        let per = |x: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
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
            mean_us: if times.is_empty() {
                0.0
            } else {
                times.iter().sum::<u64>() as f64 / times.len() as f64 / 1e3
            },
            median_us: us(quantile(&times, 0.5)),
            p90_us: us(quantile(&times, 0.9)),
            p99_us: us(quantile(&times, 0.99)),
            max_us: us(times.last().copied().unwrap_or(0)),
            guesses_per_puzzle: per(self.guesses),
            no_guess_pct: 100.0 * per(self.no_guess),
            wall_s,
            ..SummaryRow::intervals(&times)
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
            repeat: 0,
            puzzle: String::new(),
            status,
            solutions: 1,
            nodes: 1,
            guesses: 0,
            solve_ns: ns,
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
        assert_eq!(
            b.per_puzzle(false),
            vec![(0, 20_000), (1, 5_000), (2, 7_000)]
        );
        assert_eq!(b.per_puzzle(true), vec![(0, 20_000), (1, 5_000)]);
        let s = b.finish("s", "s", "d", 1, 1.0);
        assert_eq!(s.puzzles, 7);
        assert_eq!((s.median_us, s.max_us), (7.0, 20.0));
        assert!((s.mean_us - 32.0 / 3.0).abs() < 1e-9, "{}", s.mean_us);
    }
}
