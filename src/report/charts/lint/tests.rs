//! The lint fed charts with each fault, and the readings it rests on.

use super::*;

/// A chart as plotters would draw it, with `body` inside: a 960×560
/// canvas, a plot from (100, 40) to (900, 480) and its axes.
fn chart(body: &str) -> String {
    format!(
        r##"<svg width="960" height="560" viewBox="0 0 960 560" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="960" height="560" opacity="1" fill="#FFFFFF" stroke="none"/>
<polyline fill="none" opacity="1" stroke="#000000" stroke-width="1" points="100,40 100,480 "/>
<polyline fill="none" opacity="1" stroke="#000000" stroke-width="1" points="100,480 900,480 "/>
{body}
</svg>"##
    )
}

fn text(x: f64, y: f64, anchor: &str, dy: &str, label: &str, extra: &str) -> String {
    format!(
        r##"<text x="{x}" y="{y}" dy="{dy}" text-anchor="{anchor}" font-family="sans-serif" font-size="16.129032258064516" {extra} fill="#000000">{label}</text>"##
    )
}

fn data_line() -> String {
    text(
        16.0,
        534.0,
        "start",
        "0.76em",
        "10 puzzles; 1 thread",
        r#"opacity="0.75""#,
    )
}

#[test]
fn a_clean_chart_passes_and_each_fault_is_found() {
    let size = figure::DOUBLE;
    let ticks = |labels: &[&str]| -> String {
        labels
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let y = 440.0 - 100.0 * i as f64;
                format!(
                    "{}\n<polyline fill=\"none\" opacity=\"1\" stroke=\"#000000\" stroke-width=\"1\" points=\"95,{y} 100,{y} \"/>",
                    text(90.0, y, "end", "0.5ex", l, r#"opacity="1""#)
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let data = r##"<polyline fill="none" opacity="1" stroke="#E69F00" stroke-width="2" points="150,440 850,150 "/>"##;
    let clean = chart(&format!(
        "{}\n{data}\n{}",
        ticks(&["0", "10", "20", "30"]),
        data_line()
    ));
    assert_eq!(lint(&clean, &size), Vec::<String>::new());

    // No data line.
    let bare = chart(&format!("{}\n{data}", ticks(&["0", "10", "20", "30"])));
    assert_eq!(lint(&bare, &size), ["no data line under the chart"]);

    // A log axis (1, 10, 100, 1k evenly spaced) that nothing marks; marked, it passes.
    let log = chart(&format!(
        "{}\n{data}\n{}",
        ticks(&["1", "10", "100", "1k"]),
        data_line()
    ));
    let f = lint(&log, &size);
    assert!(
        f.len() == 1 && f[0].starts_with("the y axis is logarithmic"),
        "{f:?}"
    );
    let marked = log.replace(
        "</svg>",
        &format!(
            "{}\n</svg>",
            text(
                300.0,
                500.0,
                "middle",
                "0.76em",
                "µs (log)",
                r#"opacity="1""#
            )
        ),
    );
    assert_eq!(lint(&marked, &size), Vec::<String>::new());

    // Two labels over each other.
    let crowded = clean.replace(
        "</svg>",
        &format!(
            "{}\n{}\n</svg>",
            text(
                400.0,
                300.0,
                "start",
                "0.76em",
                "seeds-9x9",
                r#"opacity="1""#
            ),
            text(
                440.0,
                304.0,
                "start",
                "0.76em",
                "medium-9x9",
                r#"opacity="1""#
            )
        ),
    );
    let f = lint(&crowded, &size);
    assert_eq!(f, [r#""seeds-9x9" overlaps "medium-9x9""#], "{f:?}");

    // Text off the canvas, and text too small to print.
    let off = clean.replace(
        "</svg>",
        &format!(
            "{}\n</svg>",
            text(
                900.0,
                300.0,
                "start",
                "0.76em",
                "a long legend line",
                r#"opacity="1""#
            )
        ),
    );
    assert!(lint(&off, &size)[0].contains("leaves the canvas"));
    let small = clean.replace("font-size=\"16.129032258064516\"", "font-size=\"8\"");
    assert!(lint(&small, &size).iter().any(|f| f.ends_with(" pt")));

    // Ticks far above the data: the line reaches y = 150 only.
    let tall = chart(&format!(
        "{}\n{}\n{}",
        ticks(&["0", "10", "20", "30"]),
        data.replace("850,150", "850,400"),
        data_line()
    ));
    let f = lint(&tall, &size);
    assert!(
        f.len() == 1 && f[0].starts_with("2 y tick(s) more than a step above"),
        "{f:?}"
    );

    // A legend of two series a grayscale print cannot tell apart.
    let legend = |a: &str, b: &str| {
        format!(
            r##"<rect x="600" y="50" width="280" height="70" opacity="1" fill="#FFFFFF" stroke="none"/>
{}
{}
<polyline fill="none" opacity="1" stroke="{a}" stroke-width="2" points="610,68 634,68 "/>
<polyline fill="none" opacity="1" stroke="{b}" stroke-width="2" points="610,93 634,93 "/>"##,
            text(
                640.0,
                60.0,
                "start",
                "0.76em",
                "naive-exact-cover",
                r#"opacity="1""#
            ),
            text(640.0, 85.0, "start", "0.76em", "dlx", r#"opacity="1""#),
        )
    };
    let twins = clean.replace(
        "</svg>",
        &format!("{}\n</svg>", legend("#56B4E9", "#56B4E9")),
    );
    let f = lint(&twins, &size);
    assert!(f.len() == 1 && f[0].contains("share a colour"), "{f:?}");
    // One colour for two series of a few, though their marks differ.
    let marked = twins.replace(
        r##"<polyline fill="none" opacity="1" stroke="#56B4E9" stroke-width="2" points="610,93 634,93 "/>"##,
        r##"<polygon opacity="1" fill="#56B4E9" points="618,89 626,89 626,97 618,97 "/>"##,
    );
    assert_ne!(marked, twins);
    let f = lint(&marked, &size);
    assert!(f.len() == 1 && f[0].contains("in a legend of 2"), "{f:?}");
    // Sky blue (L* 69.8) and orange (L* 70.6): one grey in print.
    let greys = clean.replace(
        "</svg>",
        &format!("{}\n</svg>", legend("#56B4E9", "#E69F00")),
    );
    let f = lint(&greys, &size);
    assert!(f.len() == 1 && f[0].contains("L* apart"), "{f:?}");
    let apart = clean.replace(
        "</svg>",
        &format!("{}\n</svg>", legend("#56B4E9", "#000000")),
    );
    assert_eq!(lint(&apart, &size), Vec::<String>::new());
}

#[test]
fn tick_values_and_scales_read_as_a_reader_reads_them() {
    assert_eq!(value("1k"), Some(1e3));
    assert_eq!(value("2.5M"), Some(2.5e6));
    assert_eq!(value("40%"), Some(40.0));
    assert_eq!(value("12,500"), Some(12_500.0));
    assert_eq!(value(""), None);
    assert!(is_log(&[(0.0, 1.0), (100.0, 10.0), (200.0, 100.0)]));
    assert!(!is_log(&[(0.0, 10.0), (100.0, 20.0), (200.0, 30.0)]));
    assert!(
        !is_log(&[(0.0, 1.0), (100.0, 10.0)]),
        "two labels say nothing"
    );
    let black = lightness("#000000").unwrap();
    let white = lightness("#FFFFFF").unwrap();
    assert!(black.abs() < 1e-9 && (white - 100.0).abs() < 1e-6);
}
