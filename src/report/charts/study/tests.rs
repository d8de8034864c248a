//! The study charts' tests: what each mark is and where it goes.

use super::*;

fn chart(peak: Option<(f64, f64, f64)>) -> StudyChart {
    let points = (1..=5)
        .map(|x| CurvePoint {
            x: 20.0 + x as f64,
            value: 10.0 * x as f64,
            lo: 9.0 * x as f64,
            hi: Some(11.0 * x as f64),
            censored: false,
        })
        .collect();
    StudyChart {
        name: "study".into(),
        title: "t".into(),
        caption: String::new(),
        x_desc: "clues".into(),
        y_desc: "µs".into(),
        log_x: false,
        curves: vec![StudyCurve {
            name: "dlx".into(),
            color: 2,
            points,
            fitted: None,
            peak,
        }],
        unfitted: Vec::new(),
    }
}

#[test]
fn a_peak_inside_the_sweep_is_ringed_and_one_at_its_edge_is_not() {
    let svg = |p| super::super::draw_svg(&chart(p), "", &super::super::figure::DOUBLE).unwrap();
    let inside = svg(Some((23.0, 22.0, 24.0)));
    assert!(inside.contains("ringed: the peak"), "{inside}");
    assert!(inside.contains("shaded: each median"));
    let edge = svg(Some((25.0, 24.0, 25.0)));
    assert!(!edge.contains("ringed: the peak"));
    assert!(!svg(None).contains("ringed"));
}

#[test]
fn the_legend_covers_no_data_however_the_curves_fill_the_plot() {
    // Curves and bands over the whole plot, at its top and bottom, and
    // one with an unbounded interval: no corner of it is free of data.
    // The interval's arrow runs up to the plot's edge, through the room
    // kept for the legend: so in a double-column figure only; a
    // single-column one's legend here spans its plot, and an arrow shows
    // through the box.
    let curve = |color: usize, at: fn(f64) -> f64, open: usize| StudyCurve {
        name: format!("s{color}"),
        color,
        points: (0..=12)
            .map(|k| {
                let x = 4.0 + k as f64;
                CurvePoint {
                    x,
                    value: at(x),
                    lo: at(x) / 3.0,
                    hi: (k != open).then_some(at(x) * 3.0),
                    censored: false,
                }
            })
            .collect(),
        fitted: None,
        peak: Some((10.0, 9.0, 11.0)),
    };
    for log_x in [false, true] {
        for (size, open) in [
            (super::super::figure::DOUBLE, 6),
            (super::super::figure::SINGLE, usize::MAX),
        ] {
            let mut c = chart(None);
            c.log_x = log_x;
            c.curves = vec![
                curve(0, |_| 1e4, open),
                curve(1, |_| 1.0, open),
                curve(2, |x| if x as i64 % 2 == 0 { 1e4 } else { 1.0 }, open),
            ];
            let svg = super::super::draw_svg(&c, "", &size).unwrap();
            assert_eq!(
                super::super::legend_covers(&svg),
                None,
                "log x {log_x} {:?}",
                size.px
            );
        }
    }
}

/// A polygon's or polyline's tag, fill, stroke and points.
type Shape = (String, String, String, Vec<(f64, f64)>);

/// Each polygon and polyline of chart SVG `svg`.
fn shapes(svg: &str) -> Vec<Shape> {
    let doc = roxmltree::Document::parse(svg).expect("an SVG");
    doc.descendants()
        .filter(|n| n.has_tag_name("polygon") || n.has_tag_name("polyline"))
        .map(|n| {
            let points = n
                .attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .filter_map(|p| {
                    let (x, y) = p.split_once(',')?;
                    Some((x.parse().ok()?, y.parse().ok()?))
                })
                .collect();
            let a = |k| n.attribute(k).unwrap_or("").to_string();
            (
                n.tag_name().name().to_string(),
                a("fill"),
                a("stroke"),
                points,
            )
        })
        .collect()
}

fn hex(slot: usize) -> String {
    let c = color(slot);
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[test]
fn a_point_stopped_by_the_budget_is_hollow_in_its_own_shape_and_named() {
    // dlx (slot 2, a triangle) and naive-exact-cover (slot 4, a downward
    // triangle), each stopped by the budget at its last point.
    let mut c = chart(None);
    let mut other = c.curves[0].clone();
    other.name = "naive-exact-cover".into();
    other.color = 4;
    c.curves.push(other);
    for curve in &mut c.curves {
        let last = curve.points.last_mut().unwrap();
        (last.censored, last.lo, last.hi) = (true, last.value, None);
    }
    let svg = super::super::draw_svg(&c, "", &super::super::figure::DOUBLE).unwrap();
    assert!(svg.contains("hollow: stopped by the budget (a lower bound)"));
    let all = shapes(&svg);
    for slot in [2, 4] {
        // Closed outlines in the series' colour, with its marker's corners.
        let corners = super::super::marker_shape(super::super::marker_kind(slot), 10).len();
        let outlines: Vec<_> = all
            .iter()
            .filter(|s| s.0 == "polyline" && s.2 == hex(slot) && s.3.len() == corners + 1)
            .filter(|s| s.3.first() == s.3.last())
            .collect();
        assert_eq!(outlines.len(), 1, "slot {slot}");
        assert_eq!(outlines[0].1, "none");
        // No filled mark of that colour where the hollow one is.
        let centre = |p: &[(f64, f64)]| {
            let n = p.len() as f64;
            let (x, y) = p.iter().fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
            (x / n, y / n)
        };
        let at = centre(&outlines[0].3[..corners]);
        assert!(!all.iter().any(|s| s.0 == "polygon"
            && s.1 == hex(slot)
            && s.3.len() == corners
            && {
                let c = centre(&s.3);
                (c.0 - at.0).abs() < 3.0 && (c.1 - at.1).abs() < 3.0
            }));
    }
}

#[test]
fn an_interval_with_no_upper_end_runs_to_the_plots_edge() {
    let top_of = |svg: &str| {
        // The y axis: the longest vertical black line.
        shapes(svg)
            .into_iter()
            .filter(|s| s.2 == "#000000" && s.3.len() == 2 && s.3[0].0 == s.3[1].0)
            .max_by(|a, b| {
                (a.3[1].1 - a.3[0].1)
                    .abs()
                    .total_cmp(&(b.3[1].1 - b.3[0].1).abs())
            })
            .map(|s| s.3[0].1.min(s.3[1].1))
            .unwrap()
    };
    let reaches = |svg: &str, top: f64| {
        shapes(svg)
            .iter()
            .filter(|s| s.1 == hex(2))
            .any(|s| s.3.iter().any(|p| (p.1 - top).abs() <= 1.0))
    };
    let closed = super::super::draw_svg(&chart(None), "", &super::super::figure::DOUBLE).unwrap();
    assert!(!reaches(&closed, top_of(&closed)));
    assert!(!closed.contains("no upper bound"));
    // 85.2 [36.7–∞] at the middle point: known, but open above.
    let mut c = chart(None);
    c.curves[0].points[2] = CurvePoint {
        x: 23.0,
        value: 85.2,
        lo: 36.7,
        hi: None,
        censored: false,
    };
    let open = super::super::draw_svg(&c, "", &super::super::figure::DOUBLE).unwrap();
    let top = top_of(&open);
    assert!(
        reaches(&open, top),
        "an arrow's head at the plot's top edge"
    );
    assert!(open.contains("arrow to the top: no upper bound"));
    // Its head is an open chevron (a polyline), never a filled
    // triangle that would read as a triangle marker; and it is drawn
    // before any curve's marks, which so cover it where it passes them.
    let all = shapes(&open);
    let head = all
        .iter()
        .position(|s| {
            s.0 == "polyline" && s.2 == hex(2) && s.3.len() == 3 && (s.3[1].1 - top).abs() <= 1.0
        })
        .expect("a chevron at the edge");
    assert!(!all.iter().any(|s| s.0 == "polygon"
        && s.1 == hex(2)
        && s.3.len() == 3
        && (s.3[0].1 - top).abs() <= 1.0));
    let first_mark = all
        .iter()
        .position(|s| {
            s.0 == "polygon"
                && s.3.len() >= 3
                && s.3.len() < 10
                && s.1 != "none"
                && s.1 != "#FFFFFF"
        })
        .expect("marks");
    assert!(head < first_mark, "arrow {head}, first mark {first_mark}");
    // The band runs there too, not to a number.
    let band = shapes(&open)
        .into_iter()
        .find(|s| s.0 == "polygon" && s.1 == hex(2) && s.3.len() == 10)
        .unwrap();
    let highest = band.3.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    assert!(
        (highest - top).abs() <= 1.0,
        "band top {highest}, edge {top}"
    );
}

#[test]
fn a_curve_under_an_equal_one_is_said() {
    let mut c = chart(None);
    let mut twin = c.curves[0].clone();
    twin.name = "twin".into();
    twin.color = 3;
    c.curves.push(twin);
    let key = c.key().unwrap_or_default();
    assert!(
        key.contains(&format!(
            "{} lies under twin at 21 to 25 (equal medians)",
            c.curves[0].name
        )),
        "{key}"
    );
    // Apart by more than 2%: nothing said.
    for p in &mut c.curves[1].points {
        p.value *= 1.1;
    }
    assert!(!c.key().unwrap_or_default().contains("lies under"));
}
