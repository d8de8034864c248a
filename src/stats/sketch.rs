//! Nanosecond readings in bounded memory: exact, then a log-linear histogram.

use super::{quantile_ranks, Estimate};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::quantile;

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
mod capped {
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
