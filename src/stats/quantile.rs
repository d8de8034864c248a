//! Quantiles with their distribution-free order-statistic intervals.

use super::Estimate;

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
