//! What a study's points say: each point's median under censoring, growth
//! fitted by least squares on the log of the median (a power law in cells, an
//! exponential in the side), and the location of a peak; every interval a
//! percentile bootstrap that resamples the puzzles of each point.

use crate::stats::{quantile_ranks, RESAMPLES};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

const SEED: u64 = 0x57D7_F17E_5EED;

/// One puzzle's cost at a point: a time or a node count, and whether a limit
/// stopped it (then the value is what was spent before the stop: a lower bound).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obs {
    /// The cost, or its lower bound when censored.
    pub value: f64,
    /// A budget or time limit stopped the solve.
    pub censored: bool,
}

impl Obs {
    fn key(self) -> f64 {
        if self.censored {
            f64::INFINITY
        } else {
            self.value
        }
    }
}

/// A point's median with its 95% order-statistic interval, censored solves
/// ranked above every finished one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Median {
    /// The median when `known`, else a lower bound (the median of what was spent).
    pub value: f64,
    /// Lower end of the interval.
    pub lo: f64,
    /// Upper end; `None` when it falls on a censored solve (unbounded).
    pub hi: Option<f64>,
    /// False when half or more of the solves were censored: the median is then
    /// not known, only bounded below.
    pub known: bool,
}

fn sorted_keys(obs: &[Obs]) -> Vec<f64> {
    let mut k: Vec<f64> = obs.iter().map(|o| o.key()).collect();
    k.sort_by(f64::total_cmp);
    k
}

/// The median of a point; `None` without observations.
pub fn median(obs: &[Obs]) -> Option<Median> {
    if obs.is_empty() {
        return None;
    }
    let keys = sorted_keys(obs);
    let (r, lo, hi) = quantile_ranks(keys.len(), 0.5);
    let at = keys[r - 1];
    if at.is_finite() {
        let h = keys[hi - 1];
        return Some(Median {
            value: at,
            lo: keys[lo - 1],
            hi: h.is_finite().then_some(h),
            known: true,
        });
    }
    let mut spent: Vec<f64> = obs.iter().map(|o| o.value).collect();
    spent.sort_by(f64::total_cmp);
    Some(Median {
        value: spent[r - 1],
        lo: spent[r - 1],
        hi: None,
        known: false,
    })
}

/// The nearest-rank median key of a resample of `obs` (∞ when censored).
fn resampled_median<R: Rng>(obs: &[Obs], rng: &mut R, buf: &mut Vec<f64>) -> f64 {
    buf.clear();
    buf.extend((0..obs.len()).map(|_| obs[rng.gen_range(0..obs.len())].key()));
    buf.sort_by(f64::total_cmp);
    let (r, _, _) = quantile_ranks(buf.len(), 0.5);
    buf[r - 1]
}

/// The two growth models a size study fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    /// `cost = a · cells^p`: a straight line on log-log axes; `p` is the slope.
    Power,
    /// `cost = a · e^(r · side)`: a straight line against the side on a log axis; `r` is the slope.
    Exponential,
}

impl Model {
    /// The model's name.
    pub fn name(self) -> &'static str {
        match self {
            Model::Power => "power",
            Model::Exponential => "exponential",
        }
    }

    /// The regressor: ln(cells) for the power law, the side for the exponential.
    pub fn x(self, side: f64) -> f64 {
        match self {
            Model::Power => (side * side).ln(),
            Model::Exponential => side,
        }
    }
}

/// One model fitted to one strategy's points.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// Which model.
    pub model: Model,
    /// ln of the constant `a`.
    pub intercept: f64,
    /// The exponent `p` (power) or rate `r` per unit of side (exponential).
    pub slope: f64,
    /// 95% bootstrap interval of the slope, lower end (`None` when too few resamples were usable).
    pub slope_lo: Option<f64>,
    /// Upper end.
    pub slope_hi: Option<f64>,
    /// Residual sum of squares of ln(cost): the smaller, the better the fit.
    pub rss: f64,
    /// Share of the variance of ln(cost) the fit explains.
    pub r2: f64,
}

impl Fit {
    /// The fitted cost at a side.
    pub fn at(&self, side: f64) -> f64 {
        (self.intercept + self.slope * self.model.x(side)).exp()
    }
}

/// Ordinary least squares of `ys` on `xs`: `(intercept, slope, rss, r²)`;
/// `None` with fewer than two distinct `xs`.
pub fn least_squares(xs: &[f64], ys: &[f64]) -> Option<(f64, f64, f64, f64)> {
    let n = xs.len() as f64;
    if xs.len() < 2 || xs.len() != ys.len() {
        return None;
    }
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    if sxx <= f64::EPSILON * n {
        return None;
    }
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let rss: f64 = xs
        .iter()
        .zip(ys)
        .map(|(x, y)| (y - intercept - slope * x).powi(2))
        .sum();
    let tss: f64 = ys.iter().map(|y| (y - my).powi(2)).sum();
    let r2 = if tss > 0.0 { 1.0 - rss / tss } else { 1.0 };
    Some((intercept, slope, rss, r2))
}

/// One point of a growth series: a side and its puzzles' costs.
#[derive(Clone, Debug)]
pub struct SizePoint {
    /// The grid side.
    pub side: f64,
    /// The costs of its puzzles.
    pub obs: Vec<Obs>,
}

/// Both models fitted to a series, and which fits better.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Growth {
    /// The power law in cells.
    pub power: Fit,
    /// The exponential in the side.
    pub exponential: Fit,
    /// The model with the smaller residual (both have two parameters).
    pub better: Model,
    /// Sides whose median entered the fit.
    pub fitted: Vec<usize>,
    /// Sides left out because their median is censored (or the point was not run).
    pub censored: Vec<usize>,
    /// Every fitted median is the same: nothing grows, so there is nothing
    /// to fit (both fits are flat, with an R² that means nothing).
    #[serde(default)]
    pub flat: bool,
    /// The first two fitted sides (in order) where the median falls to
    /// under half from one to the next (a strategy with a path of its own
    /// at one size): no steady law holds across such a sweep.
    #[serde(default)]
    pub falls: Option<(usize, usize)>,
}

/// A fall that breaks a law: the next size's median under this share of
/// the last's (noise moves a median by far less).
pub const FALL: f64 = 0.5;

impl Growth {
    /// The better model's fit.
    pub fn best(&self) -> &Fit {
        match self.better {
            Model::Power => &self.power,
            Model::Exponential => &self.exponential,
        }
    }
}

/// Fewest fitted points for a growth rate: two points fit any line exactly.
pub const MIN_FIT_POINTS: usize = 3;

/// Fits both models to the points whose median is known; censored points are
/// kept apart (listed, never fitted). `None` with fewer than [`MIN_FIT_POINTS`].
pub fn growth(points: &[SizePoint]) -> Option<Growth> {
    let (mut fitted, mut censored) = (Vec::new(), Vec::new());
    for p in points {
        match median(&p.obs) {
            Some(m) if m.known && m.value > 0.0 => fitted.push(p),
            _ => censored.push(p.side as usize),
        }
    }
    if fitted.len() < MIN_FIT_POINTS {
        return None;
    }
    let ys: Vec<f64> = fitted
        .iter()
        .map(|p| median(&p.obs).expect("known").value.ln())
        .collect();
    let fit_model = |model: Model, ys: &[f64]| {
        let xs: Vec<f64> = fitted.iter().map(|p| model.x(p.side)).collect();
        least_squares(&xs, ys)
    };
    // The bootstrap: each resample redraws every point's puzzles and refits.
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let (mut pw, mut ex) = (Vec::new(), Vec::new());
    let mut buf = Vec::new();
    let mut yb = vec![0.0; fitted.len()];
    'resample: for _ in 0..RESAMPLES {
        for (y, p) in yb.iter_mut().zip(&fitted) {
            let m = resampled_median(&p.obs, &mut rng, &mut buf);
            if !(m.is_finite() && m > 0.0) {
                continue 'resample;
            }
            *y = m.ln();
        }
        if let (Some(a), Some(b)) = (
            fit_model(Model::Power, &yb),
            fit_model(Model::Exponential, &yb),
        ) {
            pw.push(a.1);
            ex.push(b.1);
        }
    }
    let make = |model: Model, slopes: &mut Vec<f64>| -> Option<Fit> {
        let (intercept, slope, rss, r2) = fit_model(model, &ys)?;
        let (lo, hi) = usable_interval(slopes);
        Some(Fit {
            model,
            intercept,
            slope,
            slope_lo: lo,
            slope_hi: hi,
            rss,
            r2,
        })
    };
    let power = make(Model::Power, &mut pw)?;
    let exponential = make(Model::Exponential, &mut ex)?;
    let flat = ys.iter().all(|y| (y - ys[0]).abs() <= 1e-12);
    let falls = (1..ys.len())
        .find(|&i| ys[i] - ys[i - 1] < FALL.ln())
        .map(|i| (fitted[i - 1].side as usize, fitted[i].side as usize));
    Some(Growth {
        flat,
        falls,
        better: if power.rss <= exponential.rss {
            Model::Power
        } else {
            Model::Exponential
        },
        power,
        exponential,
        fitted: fitted.iter().map(|p| p.side as usize).collect(),
        censored,
    })
}

/// The 2.5% and 97.5% points of a bootstrap distribution, when at least half
/// of the resamples were usable.
fn usable_interval(v: &mut [f64]) -> (Option<f64>, Option<f64>) {
    if v.len() < RESAMPLES / 2 {
        return (None, None);
    }
    let (lo, hi) = crate::stats::percentile_interval(v);
    (Some(lo), Some(hi))
}

/// Where a strategy's cost peaks along the clue axis.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Peak {
    /// The clue count with the highest median cost.
    pub at: f64,
    /// 95% bootstrap interval of that location, lower end.
    pub lo: f64,
    /// Upper end.
    pub hi: f64,
    /// The median cost there (a lower bound when `censored`).
    pub value: f64,
    /// The peak's median is censored: the cost there is only bounded below, and
    /// the location is the first such point.
    pub censored: bool,
    /// Every point whose known median equals the highest, when more than one
    /// does: then there is no single peak (a flat stretch, or a flat curve).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tied: Vec<f64>,
}

/// Locates the peak over `(parameter, costs)` points: the highest median, a
/// censored median counting above every known one; its interval from the
/// argmax of each resample. `None` without points.
pub fn peak(points: &[(f64, Vec<Obs>)]) -> Option<Peak> {
    let pts: Vec<&(f64, Vec<Obs>)> = points.iter().filter(|p| !p.1.is_empty()).collect();
    let argmax = |keys: &[f64]| {
        let mut best = 0;
        for (i, k) in keys.iter().enumerate() {
            if *k > keys[best] {
                best = i;
            }
        }
        best
    };
    let medians: Vec<Median> = pts
        .iter()
        .map(|p| median(&p.1).expect("non-empty"))
        .collect();
    let keys: Vec<f64> = medians
        .iter()
        .map(|m| if m.known { m.value } else { f64::INFINITY })
        .collect();
    if keys.is_empty() {
        return None;
    }
    let i = argmax(&keys);
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ 1);
    let (mut buf, mut kb) = (Vec::new(), vec![0.0; pts.len()]);
    let mut at: Vec<f64> = (0..RESAMPLES)
        .map(|_| {
            for (k, p) in kb.iter_mut().zip(&pts) {
                *k = resampled_median(&p.1, &mut rng, &mut buf);
            }
            pts[argmax(&kb)].0
        })
        .collect();
    let (lo, hi) = usable_interval(&mut at);
    let tied: Vec<f64> = if medians[i].known {
        pts.iter()
            .zip(&keys)
            .filter(|(_, k)| **k == keys[i])
            .map(|(p, _)| p.0)
            .collect()
    } else {
        Vec::new()
    };
    Some(Peak {
        at: pts[i].0,
        lo: lo.unwrap_or(pts[i].0),
        hi: hi.unwrap_or(pts[i].0),
        value: medians[i].value,
        censored: !medians[i].known,
        tied: if tied.len() > 1 { tied } else { Vec::new() },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A standard normal draw (Box–Muller), so the tests need no distribution crate.
    fn normal<R: Rng>(rng: &mut R) -> f64 {
        let (u, v): (f64, f64) = (rng.gen_range(f64::EPSILON..1.0), rng.gen());
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    fn synthetic(cost: impl Fn(f64) -> f64, sides: &[usize], per: usize) -> Vec<SizePoint> {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        sides
            .iter()
            .map(|&s| SizePoint {
                side: s as f64,
                obs: (0..per)
                    .map(|_| Obs {
                        value: cost(s as f64) * (0.4 * normal(&mut rng)).exp(),
                        censored: false,
                    })
                    .collect(),
            })
            .collect()
    }

    const SIDES: [usize; 7] = [4, 9, 16, 25, 36, 49, 64];

    #[test]
    fn a_known_power_law_is_recovered_within_its_interval() {
        let pts = synthetic(|s| 0.3 * (s * s).powf(1.7), &SIDES, 40);
        let g = growth(&pts).unwrap();
        let (lo, hi) = (g.power.slope_lo.unwrap(), g.power.slope_hi.unwrap());
        assert!(lo <= 1.7 && 1.7 <= hi, "{lo}..{hi}");
        assert!(hi - lo < 0.3, "{lo}..{hi}");
        assert!((g.power.slope - 1.7).abs() < 0.1, "{}", g.power.slope);
        assert_eq!(g.better, Model::Power);
        assert_eq!(g.fitted, SIDES.to_vec());
    }

    #[test]
    fn constant_data_is_said_to_have_no_growth_not_fitted() {
        // Every puzzle costs one node at every size: nothing to fit.
        let pts: Vec<SizePoint> = SIDES
            .iter()
            .map(|&s| SizePoint {
                side: s as f64,
                obs: vec![
                    Obs {
                        value: 1.0,
                        censored: false
                    };
                    10
                ],
            })
            .collect();
        assert!(growth(&pts).unwrap().flat);
        let growing = synthetic(|s| 0.3 * (s * s).powf(1.7), &SIDES, 40);
        assert!(!growth(&growing).unwrap().flat);
    }

    #[test]
    fn a_median_that_falls_by_half_breaks_the_law() {
        // A heap that is a board at 4x4, the answer alone at 9x9 (its own
        // path there), then a board again: a V no law describes.
        let heap = |s: f64| match s as usize {
            9 => 241.0,
            _ => 20.0 * (s * s).powf(1.2),
        };
        let g = growth(&synthetic(heap, &[4, 9, 16, 25], 40)).unwrap();
        assert_eq!(g.falls, Some((4, 9)));
        // A steady law with the same noise never falls by half.
        let steady = growth(&synthetic(
            |s| 20.0 * (s * s).powf(1.2),
            &[4, 9, 16, 25],
            40,
        ))
        .unwrap();
        assert_eq!(steady.falls, None);
    }

    #[test]
    fn a_known_exponential_is_recovered_within_its_interval() {
        let pts = synthetic(|s| 2.0 * (0.15 * s).exp(), &SIDES, 40);
        let g = growth(&pts).unwrap();
        let (lo, hi) = (
            g.exponential.slope_lo.unwrap(),
            g.exponential.slope_hi.unwrap(),
        );
        assert!(lo <= 0.15 && 0.15 <= hi, "{lo}..{hi}");
        assert_eq!(g.better, Model::Exponential);
    }

    #[test]
    fn censored_points_are_kept_apart() {
        let mut pts = synthetic(|s| (s * s).powf(2.0), &SIDES, 30);
        let clean = growth(&pts[..5]).unwrap();
        // The two largest sides: most solves stopped by the budget, at a spent
        // time far below the law (as a budget makes it).
        for p in &mut pts[5..] {
            for (i, o) in p.obs.iter_mut().enumerate() {
                o.censored = i % 3 != 0;
                if o.censored {
                    o.value = 1.0;
                }
            }
        }
        let g = growth(&pts).unwrap();
        assert_eq!(g.censored, vec![49, 64]);
        assert_eq!(g.fitted, vec![4, 9, 16, 25, 36]);
        assert_eq!(g.power, clean.power);
        let m = median(&pts[6].obs).unwrap();
        assert!(!m.known && m.hi.is_none());
    }

    #[test]
    fn too_few_known_points_give_no_fit() {
        let pts = synthetic(|s| s, &[4, 9], 10);
        assert!(growth(&pts).is_none());
    }

    #[test]
    fn median_ranks_censored_solves_above_finished_ones() {
        let o = |value, censored| Obs { value, censored };
        // 3 of 5 finished: the median is the third finished value.
        let m = median(&[
            o(5.0, false),
            o(1.0, true),
            o(2.0, false),
            o(9.0, false),
            o(1.0, true),
        ])
        .unwrap();
        assert!(m.known);
        assert_eq!(m.value, 9.0);
        assert_eq!(m.hi, None);
        // 3 of 5 censored: not known, bounded below by what was spent.
        let m = median(&[
            o(5.0, false),
            o(7.0, true),
            o(2.0, false),
            o(8.0, true),
            o(6.0, true),
        ])
        .unwrap();
        assert!(!m.known);
        assert_eq!(m.value, 6.0);
    }

    #[test]
    fn the_peak_and_its_interval_cover_the_hardest_point() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let pts: Vec<(f64, Vec<Obs>)> = (17..=40)
            .map(|k| {
                let mean = 100.0 * (-((k as f64 - 26.0) / 3.0).powi(2)).exp() + 1.0;
                let obs = (0..60)
                    .map(|_| Obs {
                        value: mean * (0.3 * normal(&mut rng)).exp(),
                        censored: false,
                    })
                    .collect();
                (k as f64, obs)
            })
            .collect();
        let p = peak(&pts).unwrap();
        assert!((25.0..=27.0).contains(&p.at), "{p:?}");
        assert!(
            p.lo <= p.at && p.at <= p.hi && p.lo >= 23.0 && p.hi <= 29.0,
            "{p:?}"
        );
        assert!(!p.censored);
        assert!(p.tied.is_empty());
    }

    #[test]
    fn a_flat_curve_or_a_shared_top_has_no_single_peak() {
        let at = |v: &[f64]| Obs {
            value: v[0],
            censored: false,
        };
        let ones = |k: f64| (k, vec![at(&[1.0]), at(&[1.0]), at(&[1.0])]);
        let flat = peak(&[ones(45.0), ones(50.0), ones(55.0)]).unwrap();
        assert_eq!(flat.tied, vec![45.0, 50.0, 55.0]);
        let twos = |k: f64| (k, vec![at(&[2.0]), at(&[2.0]), at(&[2.0])]);
        let shared = peak(&[ones(45.0), twos(50.0), twos(55.0)]).unwrap();
        assert_eq!(shared.tied, vec![50.0, 55.0]);
    }

    #[test]
    fn least_squares_is_exact_on_a_line() {
        let (a, b, rss, r2) = least_squares(&[1.0, 2.0, 3.0], &[3.0, 5.0, 7.0]).unwrap();
        assert!((a - 1.0).abs() < 1e-12 && (b - 2.0).abs() < 1e-12);
        assert!(rss < 1e-20 && (r2 - 1.0).abs() < 1e-12);
        assert!(least_squares(&[2.0, 2.0], &[1.0, 3.0]).is_none());
    }
}
