//! The charts' shared frame, palette, axes and legends, pinned.

/// CIELAB of a colour as a reader sees it: as given, or (`deutan`)
/// through Machado et al.'s simulation of deuteranopia.
fn lab(c: plotters::style::RGBColor, deutan: bool) -> [f64; 3] {
    let lin = |v: u8| {
        let v = v as f64 / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    let mut rgb = [lin(c.0), lin(c.1), lin(c.2)];
    if deutan {
        let m = [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ];
        rgb = m.map(|row| (0..3).map(|j| row[j] * rgb[j]).sum::<f64>().clamp(0.0, 1.0));
    }
    let [r, g, b] = rgb;
    let (x, y, z) = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    );
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    [
        116.0 * f(y) - 16.0,
        500.0 * (f(x) - f(y)),
        200.0 * (f(y) - f(z)),
    ]
}

#[test]
fn every_two_series_differ_for_a_deuteranope_and_in_grayscale_or_by_marker() {
    let dist = |a: [f64; 3], b: [f64; 3]| {
        ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
    };
    // A chart holds up to 14 series.
    for a in 0..14 {
        for b in a + 1..14 {
            if super::marker_kind(a) != super::marker_kind(b) {
                continue;
            }
            let (ca, cb) = (super::color(a), super::color(b));
            let deutan = dist(lab(ca, true), lab(cb, true));
            let gray = (lab(ca, false)[0] - lab(cb, false)[0]).abs();
            assert!(
                deutan >= 15.0,
                "slots {a} and {b}: ΔE {deutan:.1} for a deuteranope"
            );
            assert!(
                gray >= 12.0,
                "slots {a} and {b}: ΔL* {gray:.1} in grayscale"
            );
        }
    }
    // No colour is pale on white: each has L* under 75 (yellow's 88 is out).
    for i in 0..7 {
        let l = lab(super::color(i), false)[0];
        assert!(l < 75.0, "slot {i}: L* {l:.1}");
    }
}

#[test]
fn no_tick_is_named_above_the_data() {
    assert_eq!(super::tick_below(1e5, 4.2e5), "100k");
    assert_eq!(super::tick_below(4.2e5, 4.2e5), super::compact(4.2e5));
    assert_eq!(super::tick_below(1e6, 4.2e5), "");
    assert_eq!(super::tick_below(1e12, 4.2e5), "");
}

#[test]
fn a_strategy_keeps_its_slot_whatever_else_is_drawn() {
    let a = super::slots(["dlx", "band", "my-solver"]);
    let b = super::slots(["tdoku", "band", "bitset-mrv", "dlx", "jcz"]);
    assert_eq!((a[0], a[1]), (b[3], b[1]));
    // Other names follow the built-ins, each in a colour no other series
    // of its chart has, while one is free.
    assert!(a[2] >= 15 && b[0] >= 15 && b[4] > b[0]);
    let colours = |s: &[usize]| {
        let mut c: Vec<usize> = s.iter().map(|s| s % super::PALETTE.len()).collect();
        c.sort();
        c.dedup();
        c.len()
    };
    assert_eq!(colours(&a), 3);
    assert_eq!(colours(&b), 5);
    // The default run's eight contenders: eight colours.
    let default = super::slots([
        "band",
        "bitset-mrv",
        "dlx",
        "backtracking",
        "naive-exact-cover",
        "cdcl",
        "sat-varisat",
        "dlx-crate",
    ]);
    assert_eq!(colours(&default), 8);
    // And eight markers: no two of them share a shape.
    let mut shapes: Vec<usize> = default.iter().map(|&s| super::marker_kind(s)).collect();
    shapes.sort();
    shapes.dedup();
    assert_eq!(shapes.len(), 8, "{default:?}");
    // Past eight series colours repeat, and slots stay distinct.
    let many = super::slots(["band", "a", "b", "c", "d", "e", "f", "g", "h"]);
    assert_eq!(colours(&many), 8);
    let mut distinct = many.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), many.len());
    // Every marker shape is a closed outline of at least three points.
    for k in 0..super::MARKERS {
        assert!(super::marker_shape(k, 9).len() >= 3);
    }
}

use super::*;

#[test]
fn a_narrow_log_axis_labels_its_ones_twos_and_fives() {
    // Guesses + 1 from just under 1 to just under 10 (the hardness chart
    // at 3.5 in): 1, 2 and 5, never 0.9 or 6.
    let (bold, light) = log_points(0.87..9.5, 5);
    assert_eq!(bold, [1.0, 2.0, 5.0]);
    assert!(light.contains(&0.9) && light.contains(&6.0));
    // A ratio from 0.38× to 1.35×: labelled over 1× too.
    let (bold, _) = log_points(0.38..1.35, usize::MAX);
    assert!(bold.iter().any(|&v| v > 1.1), "{bold:?}");
    // Thinned, the labels that stay start from a power of ten.
    let (bold, _) = log_points(0.5..90.0, 2);
    assert!(bold.contains(&1.0), "{bold:?}");
}

#[test]
fn no_log_label_sits_at_the_axis_far_end() {
    // 5 is the range's top: its label would cross into the title.
    let (bold, light) = log_points(0.5..5.0, usize::MAX);
    assert_eq!(bold, [0.5, 1.0, 2.0]);
    assert!(light.contains(&5.0));
    let (bold, _) = log_points(0.5..5.5, usize::MAX);
    assert_eq!(bold, [0.5, 1.0, 2.0, 5.0]);
}

#[test]
fn curves_are_bounded_and_keep_their_ends() {
    let small: Vec<f64> = (1..=10).map(f64::from).collect();
    let pts = ecdf(&small);
    assert_eq!(pts.len(), 20);
    assert_eq!((pts[0], pts[19]), ((1.0, 0.0), (10.0, 1.0)));
    let big: Vec<f64> = (1..=1_000_000).map(f64::from).collect();
    let pts = ecdf(&big);
    assert_eq!(pts.len(), CURVE_POINTS);
    assert_eq!(pts[0].0, 1.0);
    assert_eq!(*pts.last().unwrap(), (1e6, 1.0));
    // Each point lies on the full curve: share = rank / n.
    for &(v, share) in &pts {
        assert!((share - v / 1e6).abs() < 1e-12, "{v} {share}");
    }
    assert!(ecdf(&[]).is_empty());
    assert_eq!(thin(1).collect::<Vec<_>>(), [0]);
    assert_eq!(thin(0).count(), 0);
    let many: Vec<u32> = (0..100_000).collect();
    let d = dots(&many);
    assert_eq!(d.len(), MAX_DOTS);
    assert!(d.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(dots(&many), d, "seeded");
    assert_eq!(dots(&many[..10]), &many[..10]);
}

#[test]
fn compact_labels_keep_small_values() {
    let cases = [
        (0.002, "0.002"),
        (0.005, "0.005"),
        (0.0025, "0.0025"),
        (0.015, "0.015"),
        (0.25, "0.25"),
        (0.01, "0.01"),
        (0.5, "0.5"),
        (2.0, "2"),
        (1500.0, "1.5k"),
    ];
    for (v, want) in cases {
        assert_eq!(compact(v), want);
    }
}

#[test]
fn log_axes_have_even_grids() {
    for (lo, hi) in [
        (1.6, 150.0),
        (4.0, 220.0),
        (0.3, 9e5),
        (80.0, 110.0),
        (2e3, 4e6),
    ] {
        let axis = log_axis(lo..hi);
        let (bold, light) = (axis.bold_points(), axis.light_points());
        assert!(bold.len() >= 2, "{lo}..{hi}: {bold:?}");
        let all: Vec<f64> = bold.iter().chain(light).copied().collect();
        for v in &all {
            assert!((lo..=hi).contains(v), "{lo}..{hi}: {v} outside");
            // Every line sits on a whole multiple of a power of ten.
            let m = v / 10f64.powf(v.log10().floor());
            assert!((m - m.round()).abs() < 1e-9, "{lo}..{hi}: {v}");
        }
        // At most nine lines per decade, never a dense band.
        for d in (lo.log10().floor() as i32)..=(hi.log10().ceil() as i32) {
            let inside = all
                .iter()
                .filter(|v| (10f64.powi(d)..10f64.powi(d + 1)).contains(*v))
                .count();
            assert!(inside <= 9, "{lo}..{hi}: {inside} lines in 1e{d}");
        }
        if hi / lo > 10.0 {
            // Labels at 1, 2, 5 × 10^k only.
            for v in bold {
                let m = (v / 10f64.powf(v.log10().floor())).round() as u32;
                assert!([1, 2, 5].contains(&m), "{lo}..{hi}: label at {v}");
            }
        }
    }
}

#[test]
fn a_range_between_two_whole_multiples_is_ticked_at_its_tenths() {
    // 11.2 to 17.6 MB holds no whole multiple of 10 MB.
    let (bold, _) = log_points(11.2e6..17.6e6, usize::MAX);
    assert!(bold.len() >= 2, "{bold:?}");
    assert!(
        bold.iter().all(|v| (11.2e6..=17.6e6).contains(v)),
        "{bold:?}"
    );
}

#[test]
fn a_dataset_keeps_its_colour_whatever_else_the_run_holds() {
    use super::dataset_slots;
    // An embedded set: its place among the embedded sets, in any run.
    let one = dataset_slots(["hard-9x9", "set-4x4"]);
    let two = dataset_slots(["set-4x4", "mine.txt", "hard-9x9"]);
    assert_eq!((one[0], one[1]), (two[2], two[0]));
    // Any other name: the same slot from run to run, and no colour of a
    // set drawn beside it.
    assert_eq!(
        two[1],
        dataset_slots(["set-4x4", "mine.txt", "hard-9x9"])[1]
    );
    let names = ["a.txt", "b.txt", "c.txt", "easy-9x9", "top1465", "17-clue"];
    let slots = dataset_slots(names);
    let mut colours: Vec<usize> = slots.iter().map(|s| s % 10).collect();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), names.len(), "{slots:?}");
}

#[test]
fn a_long_row_label_breaks_before_its_parenthesis_else_near_its_middle() {
    use super::two_lines;
    let pair = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
    assert_eq!(
        two_lines("sat-varisat (reference)"),
        pair("sat-varisat", "(reference)")
    );
    assert_eq!(
        two_lines("naive-exact-cover"),
        pair("naive-", "exact-cover")
    );
    assert_eq!(two_lines("band"), None);
}

#[test]
fn a_narrow_row_chart_labels_as_many_ticks_as_their_widths_allow() {
    // Speeds over four decades, on a single-column figure: the widest
    // label (0.0001×) would leave room for two, yet every other power of
    // ten fits beside its neighbours.
    let row = |label: &str, speed: f64| super::relative::SpeedRow {
        label: label.into(),
        color: 1,
        speed,
        lo: speed,
        hi: speed,
    };
    let chart = super::relative::RelativeSpeed {
        dataset: "hard".into(),
        reference: "band".into(),
        rows: vec![
            row("band", 1.0),
            row("dlx", 0.1),
            row("naive-exact-cover", 0.00006),
        ],
        method: "a t-interval over 2 rounds".into(),
        left_out: Vec::new(),
    };
    let svg = draw_svg(&chart, "", &figure::SINGLE).unwrap();
    for label in ["0.0001×", "0.01×", "1×"] {
        assert!(
            svg.contains(&format!(">\n{label}\n<")),
            "no {label} in {svg}"
        );
    }
    // The labels chosen keep clear of each other.
    let x = 0.00006 / 1.25..1.25;
    let w = |v: f64| text_width(&format!("{}×", compact(v)), TEXT as f64 / 1.24);
    assert!(!super::axes::labels_clear(
        &[1e-4, 1e-3, 1e-2, 1e-1, 1.0],
        &x,
        180.0,
        &w
    ));
    assert!(super::axes::labels_clear(&[1e-4, 1e-2, 1.0], &x, 180.0, &w));
}

#[test]
fn a_range_around_one_whole_multiple_is_labelled_at_round_steps() {
    // 1.84 to 2.44 MB holds one whole multiple (2 MB): one label would
    // leave the axis unreadable; round tenths are labelled instead.
    let (bold, light) = log_points(1.84e6..2.44e6, 5);
    assert!(bold.len() >= 2 && bold.len() <= 5, "{bold:?}");
    for v in &bold {
        assert!((1.84e6..=2.44e6).contains(v), "{bold:?}");
        let tenths = v / 1e5;
        assert!(
            (tenths - tenths.round()).abs() < 1e-6,
            "{v} is not a round tenth"
        );
    }
    // Evenly apart, with the light lines between them.
    let gaps: Vec<f64> = bold.windows(2).map(|p| p[1] - p[0]).collect();
    assert!(
        gaps.iter().all(|g| (g / gaps[0] - 1.0).abs() < 1e-6),
        "{bold:?}"
    );
    assert!(!light.is_empty(), "{light:?}");
}

#[test]
fn a_long_stretch_past_the_last_label_takes_whole_multiples() {
    // 4.3 to 48 µs: 5, 10 and 20 labelled, and 20 to 48 unlabelled
    // before; 30 now carries a label, 40 (1.33× from it) not.
    use super::axes::fill_stretches;
    let r = 4.3..48.0;
    let (bold, _) = fill_stretches(&r, log_points(r.clone(), 12), 2.0);
    assert_eq!(bold, [5.0, 10.0, 20.0, 30.0]);
    // ... never at the far end: 0.5 to 5 gives 3, not 5.
    let r = 0.5..5.0;
    let (bold, light) = fill_stretches(&r, log_points(r.clone(), 12), 2.0);
    assert_eq!(bold, [0.5, 1.0, 2.0, 3.0]);
    assert!(light.contains(&5.0));
    // Below the first label too: 0.21 to 0.9 labels 0.3 under 0.5.
    // A thinned set stays as it is: 10 and 50 over 2.5 to 60 get no 4 or 6.
    let r = 2.5..60.0;
    assert_eq!(
        fill_stretches(&r, (vec![10.0, 50.0], vec![3.0, 4.0, 5.0, 6.0, 20.0]), 2.0).0,
        [10.0, 50.0]
    );
    let r = 0.21..0.9;
    let (low, _) = fill_stretches(&r, log_points(r.clone(), 12), 2.0);
    assert!(low.iter().any(|b| (b / 0.3 - 1.0).abs() < 1e-9), "{low:?}");
}

#[test]
fn a_span_under_a_decade_with_two_labels_gets_a_third() {
    // Time per node from 0.58 to 2.9 µs, padded to 0.505..3.36: 1 and 2
    // alone left dlx's 0.58 between unlabelled lines.
    let (bold, _) = log_points(0.505..3.36, 15);
    let want = [0.6, 1.0, 2.0, 3.0];
    assert_eq!(bold.len(), want.len(), "{bold:?}");
    assert!(
        bold.iter()
            .zip(want)
            .all(|(b, w)| (b / w - 1.0).abs() < 1e-9),
        "{bold:?}"
    );
    assert!(
        bold.windows(2).all(|p| p[1] / p[0] >= 1.45 - 1e-9),
        "{bold:?}"
    );
}

#[test]
fn an_end_stretch_over_one_and_a_half_takes_a_label_on_a_y_axis() {
    use super::axes::fill_stretches;
    // Instructions from 29.6k to 306k, padded: 50k, 100k, 200k alone.
    let r = 25e3..350e3;
    let (bold, _) = fill_stretches(&r, log_points(r.clone(), 12), 1.5);
    assert!(bold.contains(&30e3) && bold.contains(&300e3), "{bold:?}");
}

#[test]
fn a_filled_label_keeps_a_line_of_text_from_the_axis_ends() {
    use super::axes::clear_of_ends;
    // 1 to 10 over 200 px, a line of text 20 px: 9 lies 9 px under the top,
    // 7 31 px, 1.1 8 px over the bottom. Labels the filling added that close
    // become light; the axis's own labels (`kept`) stay, however close.
    assert_eq!(super::TEXT, 20);
    let r = 1.0..10.0;
    let added = (vec![1.1, 2.0, 5.0, 7.0, 9.0], vec![3.0]);
    let (bold, light) = clear_of_ends(added, &[1.0, 2.0, 5.0], &r, 200.0);
    assert_eq!(bold, vec![2.0, 5.0, 7.0]);
    assert_eq!(light, vec![1.1, 3.0, 9.0]);
    // Kept labels stay at the very ends.
    let (bold, _) = clear_of_ends((vec![1.0, 10.0], vec![]), &[1.0, 10.0], &r, 200.0);
    assert_eq!(bold, vec![1.0, 10.0]);
}
