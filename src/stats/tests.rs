use super::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod intervals {
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
