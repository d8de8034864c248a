//! Statistics for comparisons: paired speed ratios and quantiles with 95%
//! confidence intervals.
//!
//! - Geometric means of ratios: a percentile bootstrap of [`RESAMPLES`] resamples
//!   drawn from a fixed seed (the same measurements always give the same
//!   interval); above [`BOOTSTRAP_MAX`] values, where the bootstrap would cost
//!   seconds and agrees with it anyway, the normal interval of the mean log.
//! - Quantiles: the distribution-free order-statistic interval (the ranks
//!   `nq ± 1.96 √(nq(1−q))`), cheap at any size.
//! - Measured in rounds (each a share of the puzzles, run at its own time):
//!   the t-interval of the rounds' values ([`rounds_interval`]), which carries
//!   both which puzzles a round drew and the machine's state while it ran.

mod bootstrap;
mod quantile;
mod sketch;
mod speed;

pub use bootstrap::{geometric_mean, percentile_interval, LogMean};
pub use quantile::{quantile, quantile_ranks};
pub use sketch::{Sketch, EXACT_MAX};
pub use speed::{speed, unpaired_speed, Speed, SpeedSum};

/// Bootstrap resamples per interval.
pub const RESAMPLES: usize = 2000;
/// Above this many values, geometric-mean intervals use the normal approximation.
pub const BOOTSTRAP_MAX: usize = 20_000;
/// The bootstrap's fixed seed: the same measurements give the same interval.
const SEED: u64 = 0x0B00_7572_A9CE;

/// An estimate with its 95% confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the interval.
    pub lo: f64,
    /// Upper end of the interval.
    pub hi: f64,
}

/// The 97.5% point of Student's t distribution with `df` degrees of freedom
/// (at least 1): tabled to 30, then interpolated in `1/df` towards 1.96
/// (within 0.002 of the exact value).
pub fn t975(df: f64) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    let df = df.max(1.0);
    if df >= 30.0 {
        return 1.96 + (T[29] - 1.96) * 30.0 / df;
    }
    let (lo, frac) = (df.floor(), df - df.floor());
    let (a, b) = (T[lo as usize - 1], T[(lo as usize).min(29)]);
    // Linear in 1/df between the two tabled points.
    let (ia, ib, i) = (1.0 / lo, 1.0 / (lo + 1.0), 1.0 / df);
    if frac == 0.0 {
        a
    } else {
        a + (b - a) * (ia - i) / (ia - ib)
    }
}

/// The 95% interval of a quantity measured in independent rounds: `point`
/// (the run's estimate, a log) ± `t975(R−1) · s / √R`, where `s` is the
/// standard deviation of the `R` rounds' own estimates (logs). `None` with
/// fewer than two rounds.
pub fn rounds_interval(point: f64, rounds: &[f64]) -> Option<(f64, f64)> {
    let r = rounds.len();
    if r < 2 {
        return None;
    }
    let n = r as f64;
    let mean = rounds.iter().sum::<f64>() / n;
    let var = rounds.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = t975(n - 1.0) * (var / n).sqrt();
    Some((point - half, point + half))
}

#[cfg(test)]
mod tests;

/// A whole number with its thousands separated: `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
