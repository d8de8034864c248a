//! Charts as a paper needs them, read back from their SVGs: no text under
//! 8 pt at the printed width, no text outside the canvas, no legend over
//! data, and each PNG the drawing of its SVG.

use crate::common::bin;
use std::path::Path;
use sudoku_bench::report::charts::{figure, text_width};

/// A text element's box, in SVG pixels: `(left, top, right, bottom)`.
fn text_box(n: &roxmltree::Node) -> (f64, f64, f64, f64) {
    let num = |a: &str| {
        n.attribute(a)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let (x, y, px) = (num("x"), num("y"), num("font-size"));
    let text: String = n.text().unwrap_or("").trim().to_string();
    let w = text_width(&text, px);
    let (l, r) = match n.attribute("text-anchor") {
        Some("middle") => (x - w / 2.0, x + w / 2.0),
        Some("end") => (x - w, x),
        _ => (x, x + w),
    };
    // plotters places text by its top (0.76em), middle (0.5ex) or bottom.
    let (t, b) = match n.attribute("dy") {
        Some("0.76em") => (y, y + px),
        Some("0.5ex") => (y - px / 2.0, y + px / 2.0),
        Some("-0.5ex") => (y - px, y),
        _ => (y - 0.76 * px, y + 0.24 * px),
    };
    match n.attribute("transform") {
        // Turned a quarter left about (x, y): x runs up, y runs right.
        Some(tr) if tr.starts_with("rotate(270") => {
            (x + (t - y), y - (r - x), x + (b - y), y - (l - x))
        }
        _ => (l, t, r, b),
    }
}

/// The faults of one chart's SVG drawn at `size`.
fn faults(svg: &str, size: &figure::Size) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("an SVG parses");
    let (w, h) = (size.px.0 as f64, size.px.1 as f64);
    let mut out = Vec::new();
    let nodes: Vec<roxmltree::Node> = doc.descendants().filter(|n| n.is_element()).collect();
    for n in nodes.iter().filter(|n| n.has_tag_name("text")) {
        let label = n.text().unwrap_or("").trim().to_string();
        if label.trim().is_empty() {
            continue;
        }
        let px: f64 = n.attribute("font-size").unwrap().parse().unwrap();
        let pt = px * size.points_per_px();
        if pt < figure::MIN_POINTS - 1e-9 {
            out.push(format!("{label:?} is {pt:.1} pt"));
        }
        let (l, t, r, b) = text_box(n);
        if l < -1.0 || t < -1.0 || r > w + 1.0 || b > h + 1.0 {
            out.push(format!(
                "{label:?} leaves the canvas: ({l:.0}, {t:.0})–({r:.0}, {b:.0}) in {w}×{h}"
            ));
        }
    }
    // The legend: its box (white at 0.85) comes after every series.
    let is_box = |n: &roxmltree::Node| {
        n.has_tag_name("rect")
            && n.attribute("fill") == Some("#FFFFFF")
            && n.attribute("opacity") == Some("0.85")
    };
    if let Some(at) = nodes.iter().position(is_box) {
        let num = |a: &str| nodes[at].attribute(a).unwrap().parse::<f64>().unwrap();
        let (x0, y0) = (num("x"), num("y"));
        let (x1, y1) = (x0 + num("width"), y0 + num("height"));
        let inside = |x: f64, y: f64| x > x0 + 1.0 && x < x1 - 1.0 && y > y0 + 1.0 && y < y1 - 1.0;
        for n in &nodes[..at] {
            let points = match n.tag_name().name() {
                "polyline" | "polygon" => n.attribute("points").unwrap_or("").to_string(),
                "circle" => format!(
                    "{},{}",
                    n.attribute("cx").unwrap(),
                    n.attribute("cy").unwrap()
                ),
                _ => continue,
            };
            let hit = points.split_whitespace().filter_map(|p| {
                let (x, y) = p.split_once(',')?;
                Some((x.parse::<f64>().ok()?, y.parse::<f64>().ok()?))
            });
            if let Some((x, y)) = hit.into_iter().find(|&(x, y)| inside(x, y)) {
                out.push(format!(
                    "the legend covers a point of the data at ({x}, {y})"
                ));
                break;
            }
        }
    }
    out
}

/// Every chart in `dir` at both print sizes: none has a fault, and each
/// PNG is the drawing of its SVG.
fn check_charts(dir: &Path, paper: bool) -> usize {
    let mut all = Vec::new();
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(stem) = name.strip_suffix(".svg") else {
            continue;
        };
        let size = if stem.ends_with(figure::SINGLE.suffix) {
            figure::SINGLE
        } else {
            figure::DOUBLE
        };
        let svg = std::fs::read_to_string(&path).unwrap();
        for f in faults(&svg, &size) {
            all.push(format!("{name}: {f}"));
        }
        let png = std::fs::read(dir.join(format!("{stem}.png"))).unwrap();
        assert!(
            png == figure::png(&svg, &size).unwrap(),
            "{stem}.png is not its SVG's drawing"
        );
        if paper && size == figure::DOUBLE {
            assert!(
                dir.join(format!("{stem}{}.svg", figure::SINGLE.suffix))
                    .is_file(),
                "{stem}: no single-column figure"
            );
        }
        n += 1;
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
    n
}

#[test]
fn a_runs_charts_are_fit_for_print_at_both_widths() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    // Two slow strategies stopped on every 25×25 puzzle, the fast ones not.
    bin()
        .args([
            "bench",
            "--quiet",
            "--dataset",
            "set-25x25,hard-9x9,set-4x4",
            "--limit",
            "12",
        ])
        .args([
            "--node-budget",
            "20000",
            "--min-time",
            "0",
            "--figures",
            "paper",
        ])
        .args(["--out", out.to_str().unwrap()])
        .assert()
        .success();
    let n = check_charts(&out.join("charts"), true);
    assert!(n >= 20, "{n} charts");
    let dist = std::fs::read_to_string(out.join("charts/distribution-set-25x25.svg")).unwrap();
    assert!(
        dist.contains("backtracking (0/12)"),
        "a strategy that solved none is named"
    );
}

#[test]
fn study_hunt_and_compare_charts_are_fit_for_print() {
    let dir = tempfile::tempdir().unwrap();
    let at = |p: &str| dir.path().join(p);
    bin()
        .args([
            "study", "clues", "--size", "4", "--clues", "4..8", "--step", "2",
        ])
        .args(["--puzzles", "5", "--solver", "bitset-mrv,dlx", "--out"])
        .arg(at("study"))
        .assert()
        .success();
    let svg = std::fs::read_to_string(at("study/charts/study-clues-time-first.svg")).unwrap();
    assert!(svg.contains("shaded: each median"), "the band is said");
    let hunt = ["hunt", "--quiet", "--solver", "band", "--iterations", "800"];
    bin()
        .args(hunt)
        .args(["--threads", "1", "--seed", "7", "--out"])
        .arg(at("hunt"))
        .assert()
        .success();
    let svg = std::fs::read_to_string(at("hunt/charts/hunt-progress.svg")).unwrap();
    assert!(
        svg.contains("hunt for"),
        "the data line says what was hunted"
    );
    let bench = |name: &str| {
        bin()
            .current_dir(dir.path())
            .args(["bench", "--quiet", "--min-time", "0", "--threads", "1"])
            .args([
                "--solver",
                "bitset-mrv,dlx",
                "--dataset",
                "easy-9x9",
                "--out",
                name,
            ])
            .assert()
            .success();
    };
    bench("a");
    bench("b");
    // Within noise (0) or not (1) as the machine had it; never refused (2).
    let cmp = bin()
        .current_dir(dir.path())
        .args(["compare", "a", "b", "--out", "cmp"])
        .output()
        .unwrap();
    assert!(matches!(cmp.status.code(), Some(0 | 1)), "{cmp:?}");
    let mut n = 0;
    for d in ["study/charts", "hunt/charts", "cmp/charts", "a/charts"] {
        if at(d).is_dir() {
            n += check_charts(&at(d), false);
        }
    }
    assert!(n >= 8, "{n} charts");
    assert!(at("cmp/charts").is_dir(), "compare drew its charts");
}
