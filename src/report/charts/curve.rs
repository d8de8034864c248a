//! Sorted samples as curves and dots: at most so many points drawn,
//! whatever the number of puzzles.

/// Most points a curve is drawn from, whatever the number of puzzles.
pub const CURVE_POINTS: usize = 2000;

/// A sorted sample as a chart draws it: its size, and `(1-based rank, value)`
/// at every rank up to [`CURVE_POINTS`] / 2 values, else at [`CURVE_POINTS`]
/// evenly spaced ranks (first and last included), which a chart cannot tell
/// apart from every point.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve {
    /// Values in the sample.
    pub n: usize,
    /// `(rank, value)`, by rank.
    pub points: Vec<(usize, f64)>,
}

impl Curve {
    /// The curve of `n` sorted values, `value(rank)` giving the value of a 1-based rank.
    pub fn from_ranks(n: usize, mut value: impl FnMut(usize) -> f64) -> Curve {
        let points = if n <= CURVE_POINTS / 2 {
            (1..=n).map(|r| (r, value(r))).collect()
        } else {
            thin(n).map(|i| (i + 1, value(i + 1))).collect()
        };
        Curve { n, points }
    }

    /// The curve of sorted values held in memory.
    pub fn from_sorted(sorted: &[f64]) -> Curve {
        Curve::from_ranks(sorted.len(), |r| sorted[r - 1])
    }

    /// True without values.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The values drawn.
    pub fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.points.iter().map(|p| p.1)
    }

    /// The empirical distribution: `(value, share at or below it)`, as steps
    /// when every value is held.
    pub fn ecdf(&self) -> Vec<(f64, f64)> {
        let n = self.n.max(1) as f64;
        if self.points.len() == self.n {
            let mut pts = Vec::with_capacity(2 * self.n);
            for &(r, v) in &self.points {
                pts.push((v, (r - 1) as f64 / n));
                pts.push((v, r as f64 / n));
            }
            return pts;
        }
        self.points
            .iter()
            .map(|&(r, v)| (v, r as f64 / n))
            .collect()
    }
}

/// The step curve of an empirical distribution of `sorted` values (see [`Curve`]).
pub fn ecdf(sorted: &[f64]) -> Vec<(f64, f64)> {
    Curve::from_sorted(sorted).ecdf()
}

/// Up to [`CURVE_POINTS`] evenly spaced indices into `0..n`, first and last included.
pub fn thin(n: usize) -> impl Iterator<Item = usize> {
    let k = n.min(CURVE_POINTS);
    (0..k).map(move |j| if k < 2 { 0 } else { j * (n - 1) / (k - 1) })
}

/// Most dots a scatter plot draws; beyond, a seeded sample of this many.
pub const MAX_DOTS: usize = 5000;

/// The dots a scatter plot draws: all of them up to [`MAX_DOTS`], else a
/// seeded random sample of that many (the same data give the same sample), in order.
pub fn dots<T: Copy>(points: &[T]) -> Vec<T> {
    use rand::SeedableRng;
    if points.len() <= MAX_DOTS {
        return points.to_vec();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5EED_D075);
    let mut idx = rand::seq::index::sample(&mut rng, points.len(), MAX_DOTS).into_vec();
    idx.sort_unstable();
    idx.into_iter().map(|i| points[i]).collect()
}
