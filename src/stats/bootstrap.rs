//! Percentile bootstrap intervals, and the geometric mean built in bounded memory.

use super::{Estimate, BOOTSTRAP_MAX, RESAMPLES, SEED};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The percentile interval of `stat` over seeded resamples (with replacement) of `values`.
fn bootstrap(values: &[f64], stat: impl Fn(&mut [f64]) -> f64) -> (f64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut sample = vec![0.0; values.len()];
    let mut stats: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            for s in sample.iter_mut() {
                *s = values[rng.gen_range(0..values.len())];
            }
            stat(&mut sample)
        })
        .collect();
    percentile_interval(&mut stats)
}

/// The 2.5% and 97.5% points of resampled statistics (sorted in place): the
/// values at ranks ⌊0.025·n⌋ and ⌊0.975·n⌋. `stats` must not be empty.
pub fn percentile_interval(stats: &mut [f64]) -> (f64, f64) {
    stats.sort_by(f64::total_cmp);
    let n = stats.len();
    let at = |q: f64| stats[((q * n as f64) as usize).min(n - 1)];
    (at(0.025), at(0.975))
}

/// The geometric mean of positive `ratios` with its 95% interval; `None` when empty.
pub fn geometric_mean(ratios: &[f64]) -> Option<Estimate> {
    let mut acc = LogMean::default();
    for &r in ratios {
        acc.push(r);
    }
    acc.estimate()
}

/// A geometric mean built one ratio at a time in bounded memory: the values are
/// kept for the bootstrap up to [`BOOTSTRAP_MAX`], and past that only their
/// count and the sums of their logs and squared logs (the normal interval).
#[derive(Clone, Debug, Default)]
pub struct LogMean {
    logs: Vec<f64>,
    n: usize,
    pub(super) sum: f64,
    sum_sq: f64,
}

impl LogMean {
    /// Adds one positive ratio.
    pub fn push(&mut self, ratio: f64) {
        let l = ratio.ln();
        self.n += 1;
        self.sum += l;
        self.sum_sq += l * l;
        if self.n <= BOOTSTRAP_MAX {
            self.logs.push(l);
        } else if !self.logs.is_empty() {
            self.logs = Vec::new();
        }
    }

    /// Ratios added.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True before the first ratio.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The mean of the logs (the log of the geometric mean); `None` when empty.
    pub(super) fn mean_log(&self) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        Some(if self.n <= BOOTSTRAP_MAX {
            // Summed in order, as the bootstrap's resamples are.
            self.logs.iter().sum::<f64>() / self.n as f64
        } else {
            self.sum / self.n as f64
        })
    }

    /// The geometric mean with its 95% interval; `None` when empty.
    pub fn estimate(&self) -> Option<Estimate> {
        let m = self.mean_log()?;
        let n = self.n as f64;
        let (lo, hi) = if self.n <= BOOTSTRAP_MAX {
            let mean = |v: &mut [f64]| v.iter().sum::<f64>() / v.len() as f64;
            bootstrap(&self.logs, mean)
        } else {
            let var = ((self.sum_sq - n * m * m) / (n - 1.0)).max(0.0);
            let half = 1.96 * var.sqrt() / n.sqrt();
            (m - half, m + half)
        };
        Some(Estimate {
            value: m.exp(),
            lo: lo.exp(),
            hi: hi.exp(),
        })
    }
}
