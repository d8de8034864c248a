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

/// The percentile interval of `stat` over seeded resamples (with replacement) of `values`.
fn bootstrap(values: &[f64], stat: impl Fn(&mut [f64]) -> f64) -> (f64, f64) {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut sample = vec![0.0; values.len()];
    let stats: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            for s in sample.iter_mut() {
                *s = values[rng.gen_range(0..values.len())];
            }
            stat(&mut sample)
        })
        .collect();
    percentile_interval(stats)
}

/// The 2.5% and 97.5% points of [`RESAMPLES`] resampled statistics.
fn percentile_interval(mut stats: Vec<f64>) -> (f64, f64) {
    stats.sort_by(f64::total_cmp);
    let at = |q: f64| stats[((q * RESAMPLES as f64) as usize).min(RESAMPLES - 1)];
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
    sum: f64,
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
    fn mean_log(&self) -> Option<f64> {
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

/// The 1-based ranks of the `q` quantile of `n` values (nearest rank) and of
/// its 95% order-statistic interval (`nq ± 1.96 √(nq(1−q))`), clamped to `1..=n`.
pub fn quantile_ranks(n: usize, q: f64) -> (usize, usize, usize) {
    let nf = n as f64;
    let rank = |r: f64| (r.ceil() as usize).clamp(1, n.max(1));
    let half = 1.96 * (nf * q * (1.0 - q)).sqrt();
    (rank(q * nf), rank(q * nf - half), rank(q * nf + half + 1.0))
}

/// The `q` quantile (nearest rank) of `values` with its 95% order-statistic
/// interval; `None` when empty.
pub fn quantile(values: &[f64], q: f64) -> Option<Estimate> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let (r, lo, hi) = quantile_ranks(v.len(), q);
    Some(Estimate {
        value: v[r - 1],
        lo: v[lo - 1],
        hi: v[hi - 1],
    })
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

/// Values kept exactly by a [`Sketch`]; past this many, a histogram.
pub const EXACT_MAX: usize = 1 << 20;
/// Sub-buckets per power of two of a [`Sketch`]'s histogram: values within 1/128 (0.8%).
const SUB: u32 = 128;

/// Nanosecond readings in bounded memory: exact up to [`EXACT_MAX`] values,
/// then a log-linear histogram (128 buckets per power of two, so a quantile is
/// within 0.8% of the exact one), with the count, sum and maximum exact throughout.
#[derive(Clone, Debug, Default)]
pub struct Sketch {
    exact: Vec<u64>,
    hist: Vec<u64>,
    n: u64,
    sum: u128,
    max: u64,
    sorted: bool,
    /// Values kept exactly before the histogram; 0 means [`EXACT_MAX`].
    exact_max: usize,
}

fn bucket(v: u64) -> usize {
    if v < SUB as u64 {
        return v as usize;
    }
    let e = 63 - v.leading_zeros(); // 7 ..= 63
    let sub = (v >> (e - 7)) as u32 - SUB; // 0 .. 128
    ((e - 6) * SUB + sub) as usize
}

/// The middle of bucket `b`'s range.
fn bucket_value(b: usize) -> u64 {
    let b = b as u32;
    if b < SUB {
        return b as u64;
    }
    let (e, sub) = (b / SUB + 6, b % SUB);
    let lo = ((SUB + sub) as u64) << (e - 7);
    lo + (1u64 << (e - 7)) / 2
}

impl Sketch {
    /// A sketch that keeps only `exact_max` readings exactly (at least one)
    /// before it turns into the histogram: for the many small sketches of a run
    /// (one per round), whose memory must not grow with the dataset.
    pub fn with_exact_max(exact_max: usize) -> Sketch {
        Sketch {
            exact_max: exact_max.max(1),
            ..Sketch::default()
        }
    }

    /// Adds one reading.
    pub fn push(&mut self, v: u64) {
        self.n += 1;
        self.sum += v as u128;
        self.max = self.max.max(v);
        let cap = if self.exact_max == 0 {
            EXACT_MAX
        } else {
            self.exact_max
        };
        if self.hist.is_empty() && self.exact.len() < cap {
            self.exact.push(v);
            self.sorted = false;
            return;
        }
        if self.hist.is_empty() {
            self.hist = vec![0; bucket(u64::MAX) + 1];
            for x in std::mem::take(&mut self.exact) {
                self.hist[bucket(x)] += 1;
            }
        }
        self.hist[bucket(v)] += 1;
    }

    /// Readings added.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// True before the first reading.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Mean of the readings (0 when empty).
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum as f64 / self.n as f64
        }
    }

    /// The largest reading (0 when empty).
    pub fn max(&self) -> u64 {
        self.max
    }

    /// Sorts the readings held exactly, so that [`Sketch::at_rank`] reads them in place.
    pub fn seal(&mut self) {
        if !self.sorted {
            self.exact.sort_unstable();
            self.sorted = true;
        }
    }

    /// The reading of 1-based rank `r` (exact, or its bucket's middle); 0 when empty.
    pub fn at_rank(&self, r: usize) -> u64 {
        if self.n == 0 {
            return 0;
        }
        let r = r.clamp(1, self.n as usize);
        if self.hist.is_empty() {
            if self.sorted {
                return self.exact[r - 1];
            }
            let mut v = self.exact.clone();
            v.sort_unstable();
            return v[r - 1];
        }
        let mut seen = 0u64;
        for (b, &c) in self.hist.iter().enumerate() {
            seen += c;
            if seen >= r as u64 {
                return bucket_value(b).min(self.max);
            }
        }
        self.max
    }

    /// The `q` quantile (nearest rank) with its 95% order-statistic interval;
    /// `None` when empty.
    pub fn quantile(&mut self, q: f64) -> Option<Estimate> {
        if self.n == 0 {
            return None;
        }
        self.seal();
        let (r, lo, hi) = quantile_ranks(self.n as usize, q);
        Some(Estimate {
            value: self.at_rank(r) as f64,
            lo: self.at_rank(lo) as f64,
            hi: self.at_rank(hi) as f64,
        })
    }
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
        percentile_interval((0..RESAMPLES).map(|_| draw(&a) - draw(&b)).collect())
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

#[cfg(test)]
mod sketch {
    use super::*;

    #[test]
    fn sketches_are_exact_when_small_and_close_when_large() {
        let values: Vec<u64> = (0..5000u64).map(|i| 1_000 + (i * 7919) % 90_000).collect();
        let mut s = Sketch::default();
        for &v in &values {
            s.push(v);
        }
        let as_f: Vec<f64> = values.iter().map(|&v| v as f64).collect();
        for q in [0.5, 0.9, 0.99] {
            assert_eq!(s.quantile(q), quantile(&as_f, q));
        }
        // Past EXACT_MAX: a histogram, every quantile within 0.8%.
        let mut big = Sketch::default();
        let n = EXACT_MAX as u64 + 100_000;
        for i in 0..n {
            big.push(500 + (i * 104_729) % 3_000_000);
        }
        assert!(!big.hist.is_empty() && big.exact.is_empty());
        for q in [0.5, 0.9, 0.99] {
            let want = 500.0 + q * 3_000_000.0;
            let got = big.quantile(q).unwrap();
            assert!(
                (got.value / want - 1.0).abs() < 0.01,
                "{q}: {got:?} vs {want}"
            );
            assert!(got.lo <= got.value && got.value <= got.hi);
        }
        assert_eq!(big.len(), n);
        assert!(big.max() < 3_000_500);
        // Every bucket's middle falls back into the bucket.
        for v in [
            0u64,
            1,
            127,
            128,
            129,
            255,
            256,
            1000,
            123_456_789,
            u64::MAX / 3,
        ] {
            assert_eq!(bucket(bucket_value(bucket(v))), bucket(v), "{v}");
        }
    }
}

#[cfg(test)]
mod rounds {
    use super::*;

    #[test]
    fn t_quantiles_match_the_table_and_approach_the_normal() {
        assert_eq!(t975(1.0), 12.706);
        assert_eq!(t975(4.0), 2.776);
        assert!((t975(4.5) - 2.67).abs() < 0.02, "{}", t975(4.5));
        assert!((t975(60.0) - 2.000).abs() < 0.003);
        assert!((t975(1e6) - 1.96).abs() < 1e-3);
        assert_eq!(t975(0.2), t975(1.0));
    }

    #[test]
    fn the_rounds_interval_is_the_t_interval_of_the_round_values() {
        // Round values with mean 0 and standard deviation exactly 0.1 (sum of squares 0.04 over 4 df).
        let v = [-0.1, 0.1, -0.1, 0.1, 0.0];
        let (lo, hi) = rounds_interval(0.0, &v).unwrap();
        let want = 2.776 * (0.04f64 / 4.0).sqrt() / 5f64.sqrt();
        assert!(
            (hi - want).abs() < 1e-12 && (lo + want).abs() < 1e-12,
            "{lo} {hi}"
        );
        // Centred on the point given; agreeing rounds give a point interval.
        let (lo, hi) = rounds_interval(0.5, &[0.3, 0.3, 0.3]).unwrap();
        assert_eq!((lo, hi), (0.5, 0.5));
        assert_eq!(rounds_interval(0.0, &[1.0]), None);
    }

    /// Per-puzzle (puzzle, ns) times of `n` puzzles in one round: the reference
    /// takes `base`, the other `base * slow * round_factor * jitter`.
    fn round_times(n: u64, round: u64, factor: f64, rng: &mut ChaCha8Rng) -> [Vec<(u64, u64)>; 2] {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for i in 0..n {
            let p = i * 7 + round;
            let base = 1_000.0 * (1.0 + (p % 13) as f64);
            let jitter = 1.0 + 0.05 * (rng.gen::<f64>() - 0.5);
            a.push((p, base as u64));
            b.push((p, (base * 2.0 * factor * jitter) as u64));
        }
        [a, b]
    }

    #[test]
    fn speed_over_rounds_widens_when_rounds_disagree_and_covers_as_it_claims() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let run = |spread: f64, rng: &mut ChaCha8Rng| {
            let mut s = SpeedSum::default();
            for r in 0..5 {
                // The machine's state in this round: a shift drawn from N(0, spread²).
                let z: f64 = (0..12).map(|_| rng.gen::<f64>()).sum::<f64>() - 6.0;
                let [a, b] = round_times(200, r, (spread * z).exp(), rng);
                s.add_in_round(r as usize, &a, &b);
            }
            s.finish().unwrap()
        };
        let calm = run(0.0, &mut rng);
        let noisy = run(0.08, &mut rng);
        assert_eq!((calm.rounds, calm.pairs), (5, 1000));
        let width = |s: &Speed| s.ratio.hi / s.ratio.lo - 1.0;
        assert!(width(&calm) < 0.01, "{calm:?}");
        assert!(width(&noisy) > 10.0 * width(&calm), "{noisy:?} {calm:?}");
        assert!((calm.ratio.value - 0.5).abs() < 0.01, "{calm:?}");
        // Coverage: the true speed (1/2) lies inside about 95% of 400 seeded intervals.
        let inside = (0..400)
            .filter(|_| {
                let s = run(0.08, &mut rng);
                s.ratio.lo <= 0.5 && 0.5 <= s.ratio.hi
            })
            .count();
        assert!((360..=396).contains(&inside), "{inside} of 400");
        // One round: the bootstrap over puzzles, as before rounds.
        let mut one = SpeedSum::default();
        let [a, b] = round_times(200, 0, 1.0, &mut rng);
        one.add(&a, &b);
        let one = one.finish().unwrap();
        assert_eq!(one.rounds, 1);
        let ratios: Vec<f64> = a
            .iter()
            .zip(&b)
            .map(|(x, y)| x.1 as f64 / y.1 as f64)
            .collect();
        assert_eq!(one.ratio, geometric_mean(&ratios).unwrap());
    }
}

#[cfg(test)]
mod small_sketch {
    use super::*;

    #[test]
    fn a_capped_sketch_turns_into_the_histogram_past_its_cap() {
        let mut s = Sketch::with_exact_max(100);
        for i in 0..100u64 {
            s.push(1_000 + i);
        }
        assert!(s.hist.is_empty() && s.exact.len() == 100);
        assert_eq!(s.quantile(0.5).unwrap().value, 1_049.0);
        for i in 100..10_000u64 {
            s.push(1_000 + i);
        }
        assert!(s.exact.is_empty() && !s.hist.is_empty());
        let m = s.quantile(0.5).unwrap().value;
        assert!((m / 5_999.5 - 1.0).abs() < 0.01, "{m}");
        assert_eq!(s.len(), 10_000);
    }
}
