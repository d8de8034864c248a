//! Statistics for comparisons: paired speed ratios and quantiles with 95%
//! confidence intervals.
//!
//! - Geometric means of ratios: a percentile bootstrap of [`RESAMPLES`] resamples
//!   drawn from a fixed seed (the same measurements always give the same
//!   interval); above [`BOOTSTRAP_MAX`] values, where the bootstrap would cost
//!   seconds and agrees with it anyway, the normal interval of the mean log.
//! - Quantiles: the distribution-free order-statistic interval (the ranks
//!   `nq ± 1.96 √(nq(1−q))`), cheap at any size.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Bootstrap resamples per interval.
pub const RESAMPLES: usize = 2000;
/// Above this many values, geometric-mean intervals use the normal approximation.
pub const BOOTSTRAP_MAX: usize = 20_000;
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
}

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
    stats.sort_by(f64::total_cmp);
    let at = |q: f64| stats[((q * RESAMPLES as f64) as usize).min(RESAMPLES - 1)];
    (at(0.025), at(0.975))
}

/// The geometric mean of positive `ratios` with its 95% interval; `None` when empty.
pub fn geometric_mean(ratios: &[f64]) -> Option<Estimate> {
    if ratios.is_empty() {
        return None;
    }
    let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
    let mean = |v: &mut [f64]| v.iter().sum::<f64>() / v.len() as f64;
    let value = mean(&mut logs.clone()).exp();
    let (lo, hi) = if logs.len() <= BOOTSTRAP_MAX {
        bootstrap(&logs, mean)
    } else {
        let n = logs.len() as f64;
        let m = value.ln();
        let sd = (logs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let half = 1.96 * sd / n.sqrt();
        (m - half, m + half)
    };
    Some(Estimate {
        value,
        lo: lo.exp(),
        hi: hi.exp(),
    })
}

/// The `q` quantile (nearest rank) of `values` with its 95% order-statistic
/// interval; `None` when empty.
pub fn quantile(values: &[f64], q: f64) -> Option<Estimate> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len() as f64;
    let at = |rank: f64| v[(rank.ceil() as usize).clamp(1, v.len()) - 1];
    let half = 1.96 * (n * q * (1.0 - q)).sqrt();
    Some(Estimate {
        value: at(q * n),
        lo: at(q * n - half),
        hi: at(q * n + half + 1.0),
    })
}

/// Pairs two contenders' per-puzzle times by puzzle (`(puzzle, ns)`, sorted by
/// puzzle) and measures `times` against `reference`; `None` without a common puzzle.
pub fn speed(reference: &[(u64, u64)], times: &[(u64, u64)]) -> Option<Speed> {
    let mut ratios = Vec::new();
    let mut faster = 0;
    let (mut i, mut j) = (0, 0);
    while i < reference.len() && j < times.len() {
        let (a, b) = (reference[i], times[j]);
        match a.0.cmp(&b.0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                // A zero reading (below the clock's resolution) counts as one nanosecond.
                let (r, t) = (a.1.max(1) as f64, b.1.max(1) as f64);
                ratios.push(r / t);
                faster += usize::from(t < r);
                i += 1;
                j += 1;
            }
        }
    }
    let ratio = geometric_mean(&ratios)?;
    Some(Speed {
        ratio,
        faster_pct: 100.0 * faster as f64 / ratios.len() as f64,
        pairs: ratios.len(),
    })
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
        let mut stats: Vec<f64> = (0..RESAMPLES).map(|_| draw(&a) - draw(&b)).collect();
        stats.sort_by(f64::total_cmp);
        let at = |q: f64| stats[((q * RESAMPLES as f64) as usize).min(RESAMPLES - 1)];
        (at(0.025), at(0.975))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bootstrap_interval_of_a_geometric_mean_matches_the_normal_approximation() {
        // 1000 fixed ratios, log-uniform between 1/2 and 4 (a deterministic spread).
        let ratios: Vec<f64> = (0..1000)
            .map(|i| 2f64.powf(-1.0 + 3.0 * ((i * 7919) % 1000) as f64 / 999.0))
            .collect();
        let e = geometric_mean(&ratios).unwrap();
        // Computed here independently: the mean of the logs and its standard error.
        let logs: Vec<f64> = ratios.iter().map(|r| r.ln()).collect();
        let n = logs.len() as f64;
        let m = logs.iter().sum::<f64>() / n;
        let sd = (logs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let half = 1.96 * sd / n.sqrt();
        assert!((e.value - m.exp()).abs() < 1e-12);
        assert!(
            (e.lo.ln() - (m - half)).abs() < 0.1 * half,
            "{} vs {}",
            e.lo.ln(),
            m - half
        );
        assert!(
            (e.hi.ln() - (m + half)).abs() < 0.1 * half,
            "{} vs {}",
            e.hi.ln(),
            m + half
        );
        // Seeded: the same data give the same interval.
        assert_eq!(geometric_mean(&ratios), Some(e));
    }

    #[test]
    fn large_sets_take_the_normal_interval() {
        let ratios: Vec<f64> = (0..50_000).map(|i| 1.0 + (i % 7) as f64 / 10.0).collect();
        let e = geometric_mean(&ratios).unwrap();
        assert!(
            e.lo < e.value && e.value < e.hi && e.hi / e.lo < 1.01,
            "{e:?}"
        );
    }

    #[test]
    fn speed_pairs_by_puzzle() {
        let reference = [(0, 100), (1, 200), (2, 300), (5, 50)];
        let times = [(1, 100), (2, 600), (3, 1), (5, 25)];
        let s = speed(&reference, &times).unwrap();
        assert_eq!(s.pairs, 3);
        // Ratios 2, 0.5, 2: geometric mean 2^(1/3); faster on two of three.
        assert!((s.ratio.value - 2f64.powf(1.0 / 3.0)).abs() < 1e-12);
        assert!((s.faster_pct - 200.0 / 3.0).abs() < 1e-9);
        assert!(s.ratio.lo <= s.ratio.value && s.ratio.value <= s.ratio.hi);
        assert_eq!(speed(&reference, &[(9, 1)]), None);
        // Identical times: ratio 1 exactly, interval [1, 1].
        let same = speed(&reference, &reference).unwrap();
        assert_eq!(
            (same.ratio.value, same.ratio.lo, same.ratio.hi),
            (1.0, 1.0, 1.0)
        );
    }

    #[test]
    fn quantile_intervals_hold_the_estimate() {
        let v: Vec<f64> = (1..=1001).map(f64::from).collect();
        let e = quantile(&v, 0.5).unwrap();
        assert_eq!(e.value, 501.0);
        assert!(
            e.lo < 501.0 && e.hi > 501.0 && e.lo > 440.0 && e.hi < 560.0,
            "{e:?}"
        );
        assert_eq!(quantile(&[], 0.5), None);
    }
}

#[cfg(test)]
mod unpaired {
    use super::*;

    #[test]
    fn unpaired_speed_is_the_ratio_of_geometric_means() {
        let a: Vec<u64> = (1..=200).map(|i| 1000 + 37 * (i % 11)).collect();
        let b: Vec<u64> = a.iter().map(|t| t * 2).collect();
        let e = unpaired_speed(&b, &a).unwrap();
        assert!((e.value - 2.0).abs() < 1e-9, "{e:?}");
        assert!(e.lo < 2.0 && e.hi > 2.0 && e.hi / e.lo < 1.1, "{e:?}");
        // The same side twice: exactly 1, and an interval around it.
        let same = unpaired_speed(&a, &a).unwrap();
        assert!((same.value - 1.0).abs() < 1e-12 && same.lo < 1.0 && same.hi > 1.0);
        assert_eq!(unpaired_speed(&[], &a), None);
    }
}
