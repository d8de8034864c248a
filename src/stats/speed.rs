//! A contender's speed against a reference: paired by puzzle, or unpaired.

use super::{
    percentile_interval, rounds_interval, Estimate, LogMean, BOOTSTRAP_MAX, RESAMPLES, SEED,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A contender's speed against a reference over the puzzles both solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Speed {
    /// Geometric mean of the per-puzzle ratios reference time / contender time
    /// (above 1: faster than the reference), with its interval.
    pub ratio: Estimate,
    /// Share of the paired puzzles on which the contender took less time, %.
    pub faster_pct: f64,
    /// Puzzles paired.
    pub pairs: usize,
    /// Rounds the interval is computed over (0 or 1: over the puzzles only).
    pub rounds: usize,
}

/// A contender's speed against a reference, built from one stretch of puzzles
/// after another (each pairing by puzzle), in bounded memory; with rounds,
/// each round's mean log ratio is kept too.
#[derive(Clone, Debug, Default)]
pub struct SpeedSum {
    ratios: LogMean,
    faster: usize,
    /// Per round: ratios paired and the sum of their logs.
    rounds: Vec<(u64, f64)>,
}

impl SpeedSum {
    /// Pairs `(puzzle, ns)` lists, each sorted by puzzle, and adds their ratios.
    pub fn add(&mut self, reference: &[(u64, u64)], times: &[(u64, u64)]) {
        self.add_in_round(0, reference, times);
    }

    /// [`SpeedSum::add`], the ratios measured in round `round` (0-based).
    pub fn add_in_round(&mut self, round: usize, reference: &[(u64, u64)], times: &[(u64, u64)]) {
        if self.rounds.len() <= round {
            self.rounds.resize(round + 1, (0, 0.0));
        }
        let before = (self.ratios.len(), self.ratios.sum);
        let (mut i, mut j) = (0, 0);
        while i < reference.len() && j < times.len() {
            let (a, b) = (reference[i], times[j]);
            match a.0.cmp(&b.0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    // A zero reading (below the clock's resolution) counts as one nanosecond.
                    let (r, t) = (a.1.max(1) as f64, b.1.max(1) as f64);
                    self.ratios.push(r / t);
                    self.faster += usize::from(t < r);
                    i += 1;
                    j += 1;
                }
            }
        }
        let r = &mut self.rounds[round];
        r.0 += (self.ratios.len() - before.0) as u64;
        r.1 += self.ratios.sum - before.1;
    }

    /// The speed so far; `None` without a paired puzzle. With two or more
    /// rounds that paired a puzzle, the interval is [`rounds_interval`] over
    /// the rounds' mean log ratios; otherwise the bootstrap over puzzles.
    pub fn finish(&self) -> Option<Speed> {
        let m = self.ratios.mean_log()?;
        let pairs = self.ratios.len();
        let means: Vec<f64> = self
            .rounds
            .iter()
            .filter(|r| r.0 > 0)
            .map(|r| r.1 / r.0 as f64)
            .collect();
        // The bootstrap only where the rounds give no interval.
        let ratio = match rounds_interval(m, &means) {
            Some((lo, hi)) => Estimate {
                value: m.exp(),
                lo: lo.exp(),
                hi: hi.exp(),
            },
            None => self.ratios.estimate()?,
        };
        Some(Speed {
            ratio,
            faster_pct: 100.0 * self.faster as f64 / pairs as f64,
            pairs,
            rounds: means.len().max(1),
        })
    }
}

/// Pairs two contenders' per-puzzle times by puzzle (`(puzzle, ns)`, sorted by
/// puzzle) and measures `times` against `reference`; `None` without a common puzzle.
pub fn speed(reference: &[(u64, u64)], times: &[(u64, u64)]) -> Option<Speed> {
    let mut s = SpeedSum::default();
    s.add(reference, times);
    s.finish()
}

/// Speed of `times` against `reference` when the two were measured on different
/// puzzles (or differently permuted ones): the ratio of their geometric means,
/// reference over `times`, with a 95% interval from resampling each side on its
/// own (above [`BOOTSTRAP_MAX`] values a side, the normal interval of the
/// difference of mean logs). `None` when either side is empty.
pub fn unpaired_speed(reference: &[u64], times: &[u64]) -> Option<Estimate> {
    if reference.is_empty() || times.is_empty() {
        return None;
    }
    let logs = |v: &[u64]| -> Vec<f64> { v.iter().map(|&t| (t.max(1) as f64).ln()).collect() };
    let (a, b) = (logs(reference), logs(times));
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let value = mean(&a) - mean(&b);
    let (lo, hi) = if a.len().max(b.len()) <= BOOTSTRAP_MAX {
        let mut rng = ChaCha8Rng::seed_from_u64(SEED);
        let mut draw = |v: &[f64]| -> f64 {
            (0..v.len())
                .map(|_| v[rng.gen_range(0..v.len())])
                .sum::<f64>()
                / v.len() as f64
        };
        percentile_interval(
            &mut (0..RESAMPLES)
                .map(|_| draw(&a) - draw(&b))
                .collect::<Vec<_>>(),
        )
    } else {
        let var = |v: &[f64]| {
            let m = mean(v);
            v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0).max(1.0)
        };
        let half = 1.96 * (var(&a) / a.len() as f64 + var(&b) / b.len() as f64).sqrt();
        (value - half, value + half)
    };
    Some(Estimate {
        value: value.exp(),
        lo: lo.exp(),
        hi: hi.exp(),
    })
}
