//! Per-phase statistics, accumulated row by row.

use super::record::{PuzzleRecord, RowStatus, SummaryRow};

/// Accumulates the rows of one strategy variant over one dataset.
#[derive(Clone, Debug, Default)]
pub struct SummaryBuilder {
    times_ns: Vec<u64>,
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

impl SummaryBuilder {
    /// Adds one row.
    pub fn add(&mut self, r: &PuzzleRecord) {
        self.times_ns.push(r.solve_ns);
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

    /// The summary row, given the phase's identity and wall time.
    pub fn finish(
        mut self,
        strategy: &str,
        variant: &str,
        dataset: &str,
        threads: usize,
        wall_s: f64,
    ) -> SummaryRow {
        self.times_ns.sort_unstable();
        let n = self.times_ns.len() as u64;
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
            mean_us: per(self.times_ns.iter().sum::<u64>()) / 1e3,
            median_us: us(quantile(&self.times_ns, 0.5)),
            p90_us: us(quantile(&self.times_ns, 0.9)),
            p99_us: us(quantile(&self.times_ns, 0.99)),
            max_us: us(self.times_ns.last().copied().unwrap_or(0)),
            guesses_per_puzzle: per(self.guesses),
            no_guess_pct: 100.0 * per(self.no_guess),
            wall_s,
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
}
