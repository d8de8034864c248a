//! The figure lint: a chart's SVG read back as a reviewer would read the
//! printed figure. Text boxes come from the embedded font's own metrics
//! (`text_width`), placed as plotters places them. It finds text under
//! 8 pt at the print width, text outside the canvas, text over text, a log
//! axis not said to be one, ticks more than a step past the data, series
//! a reader cannot tell apart (one colour, or within 10 L* in grayscale,
//! with one marker and one dash), a legend over the data, and a chart
//! without its data line. Tests feed it charts with each fault.

use super::{figure, text_width};

/// A text element as drawn: its words and box `(left, top, right, bottom)`.
#[derive(Clone, Debug)]
struct Text {
    label: String,
    px: f64,
    anchor: String,
    dy: String,
    x: f64,
    y: f64,
    opacity: String,
    rotated: bool,
    bounds: (f64, f64, f64, f64),
}

fn num(n: &roxmltree::Node, a: &str) -> f64 {
    n.attribute(a)
        .and_then(|v| v.parse::<f64>().ok())
        .unwrap_or(0.0)
}

/// A text element's box, in SVG pixels: `(left, top, right, bottom)`.
fn text_of(n: &roxmltree::Node) -> Text {
    let (x, y, px) = (num(n, "x"), num(n, "y"), num(n, "font-size"));
    let label: String = n.text().unwrap_or("").trim().to_string();
    let w = text_width(&label, px);
    let anchor = n.attribute("text-anchor").unwrap_or("start").to_string();
    let (l, r) = match anchor.as_str() {
        "middle" => (x - w / 2.0, x + w / 2.0),
        "end" => (x - w, x),
        _ => (x, x + w),
    };
    let dy = n.attribute("dy").unwrap_or("").to_string();
    // plotters places text by its top (0.76em), middle (0.5ex) or bottom.
    let (t, b) = match dy.as_str() {
        "0.76em" => (y, y + px),
        "0.5ex" => (y - px / 2.0, y + px / 2.0),
        "-0.5ex" => (y - px, y),
        _ => (y - 0.76 * px, y + 0.24 * px),
    };
    let rotated = n
        .attribute("transform")
        .is_some_and(|tr| tr.starts_with("rotate(270"));
    // Turned a quarter left about (x, y): x runs up, y runs right.
    let bounds = match rotated {
        true => (x + (t - y), y - (r - x), x + (b - y), y - (l - x)),
        false => (l, t, r, b),
    };
    Text {
        label,
        px,
        anchor,
        dy,
        x,
        y,
        opacity: n.attribute("opacity").unwrap_or("1").to_string(),
        rotated,
        bounds,
    }
}

/// The points of a polyline or polygon.
fn points(n: &roxmltree::Node) -> Vec<(f64, f64)> {
    n.attribute("points")
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|p| {
            let (x, y) = p.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .collect()
}

/// A tick label's value: `1k`, `2.5M`, `40%`, `0.01`, `12,500`.
fn value(label: &str) -> Option<f64> {
    let t = label.trim().replace(',', "");
    let t = t.trim_end_matches('%');
    let (body, scale) = match t.chars().last()? {
        'k' => (&t[..t.len() - 1], 1e3),
        'M' => (&t[..t.len() - 1], 1e6),
        'G' => (&t[..t.len() - 1], 1e9),
        _ => (t, 1.0),
    };
    body.parse::<f64>().ok().map(|v| v * scale)
}

/// True when values at pixel positions lie on a log scale and not on a
/// linear one (three labels at least).
fn is_log(ticks: &[(f64, f64)]) -> bool {
    let ticks: Vec<(f64, f64)> = ticks.iter().copied().filter(|t| t.1 > 0.0).collect();
    if ticks.len() < 3 {
        return false;
    }
    let fits = |f: &dyn Fn(f64) -> f64| {
        let (p0, v0) = (ticks[0].0, f(ticks[0].1));
        let (pn, vn) = (ticks[ticks.len() - 1].0, f(ticks[ticks.len() - 1].1));
        let slope = (vn - v0) / (pn - p0);
        let span = (vn - v0).abs().max(1e-12);
        ticks
            .iter()
            .all(|&(p, v)| ((v0 + slope * (p - p0)) - f(v)).abs() <= 0.04 * span)
    };
    fits(&|v: f64| v.ln()) && !fits(&|v| v)
}

/// L* of an sRGB colour `#RRGGBB`: its lightness in a grayscale print.
fn lightness(hex: &str) -> Option<f64> {
    let h = hex.trim_start_matches('#');
    if h.len() != 6 {
        return None;
    }
    let c = |i: usize| -> Option<f64> {
        let v = u8::from_str_radix(&h[i..i + 2], 16).ok()? as f64 / 255.0;
        Some(if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        })
    };
    let y = 0.2126 * c(0)? + 0.7152 * c(2)? + 0.0722 * c(4)?;
    Some(if y > 216.0 / 24389.0 {
        116.0 * y.cbrt() - 16.0
    } else {
        y * 24389.0 / 27.0
    })
}

/// One line of a legend: its words, colour, marker (its polygon's points
/// about their centre, empty for none) and strokes (2 for a dashed sample).
#[derive(Debug)]
struct Entry {
    label: String,
    colour: String,
    marker: Vec<(i64, i64)>,
    strokes: usize,
}

/// A marker's shape: its points about their centre, whatever its place.
fn shape(p: &[(f64, f64)]) -> Vec<(i64, i64)> {
    let n = p.len().max(1) as f64;
    let (cx, cy) = (
        p.iter().map(|q| q.0).sum::<f64>() / n,
        p.iter().map(|q| q.1).sum::<f64>() / n,
    );
    let mut out: Vec<(i64, i64)> = p
        .iter()
        .map(|q| ((q.0 - cx).round() as i64, (q.1 - cy).round() as i64))
        .collect();
    out.sort_unstable();
    out
}

/// Every fault of one chart's SVG drawn at `size`.
pub fn lint(svg: &str, size: &figure::Size) -> Vec<String> {
    let doc = match roxmltree::Document::parse(svg) {
        Ok(d) => d,
        Err(e) => return vec![format!("the SVG does not parse: {e}")],
    };
    // A figure is drawn taller than its size where its legend needs room.
    let size = &size.of_svg(svg);
    let (w, h) = (size.px.0 as f64, size.px.1 as f64);
    let mut out = Vec::new();
    let nodes: Vec<roxmltree::Node> = doc.descendants().filter(|n| n.is_element()).collect();
    let texts: Vec<Text> = nodes
        .iter()
        .filter(|n| n.has_tag_name("text"))
        .map(text_of)
        .collect();
    let words: Vec<&Text> = texts.iter().filter(|t| !t.label.is_empty()).collect();
    // Size, and the canvas.
    for t in &words {
        let pt = t.px * size.points_per_px();
        if pt < figure::MIN_POINTS - 1e-9 {
            out.push(format!("{:?} is {pt:.1} pt", t.label));
        }
        let (l, tp, r, b) = t.bounds;
        if l < -1.0 || tp < -1.0 || r > w + 1.0 || b > h + 1.0 {
            out.push(format!(
                "{:?} leaves the canvas: ({l:.0}, {tp:.0})–({r:.0}, {b:.0}) in {w}×{h}",
                t.label
            ));
        }
    }
    // Text over text.
    for (i, a) in words.iter().enumerate() {
        for b in &words[i + 1..] {
            let (x0, y0) = (a.bounds.0.max(b.bounds.0), a.bounds.1.max(b.bounds.1));
            let (x1, y1) = (a.bounds.2.min(b.bounds.2), a.bounds.3.min(b.bounds.3));
            if x1 - x0 > 1.5 && y1 - y0 > 1.5 {
                out.push(format!("{:?} overlaps {:?}", a.label, b.label));
            }
        }
    }
    // The data line under the chart.
    if !words
        .iter()
        .any(|t| t.opacity == "0.75" && t.bounds.1 > h * 0.75)
    {
        out.push("no data line under the chart".into());
    }
    // Axes: the y axis's labels are set at its end, the x axis's under it.
    let axis_labels = |pick: &dyn Fn(&Text) -> Option<f64>| -> Vec<(f64, String)> {
        let mut at: Vec<(f64, String)> = words
            .iter()
            .filter_map(|t| pick(t).map(|p| (p, t.label.clone())))
            .collect();
        at.sort_by(|a, b| a.0.total_cmp(&b.0));
        at
    };
    let common = |keys: Vec<f64>| -> Option<f64> {
        let mut best = (0, 0.0);
        for k in &keys {
            let n = keys.iter().filter(|o| (*o - k).abs() < 0.5).count();
            if n > best.0 {
                best = (n, *k);
            }
        }
        (best.0 >= 2).then_some(best.1)
    };
    let tick_px = texts
        .iter()
        .filter(|t| t.anchor == "end" && t.dy == "0.5ex")
        .map(|t| t.px)
        .next();
    let y_at = common(
        texts
            .iter()
            .filter(|t| t.anchor == "end" && t.dy == "0.5ex" && !t.rotated)
            .map(|t| t.x)
            .collect(),
    );
    let x_at = common(
        texts
            .iter()
            .filter(|t| {
                t.anchor == "middle"
                    && t.dy == "0.76em"
                    && !t.rotated
                    && Some(t.px) == tick_px.or(Some(t.px))
                    && t.y > h * 0.4
            })
            .map(|t| t.y)
            .collect(),
    );
    let said_log = texts.iter().any(|t| t.label.to_lowercase().contains("log"));
    let y_labels = axis_labels(&|t| {
        (y_at.is_some_and(|x| (t.x - x).abs() < 0.5) && t.anchor == "end" && t.dy == "0.5ex")
            .then_some(t.y)
    });
    let x_labels = axis_labels(&|t| {
        (x_at.is_some_and(|y| (t.y - y).abs() < 0.5) && t.anchor == "middle" && t.dy == "0.76em")
            .then_some(t.x)
    });
    for (axis, labels) in [("y", &y_labels), ("x", &x_labels)] {
        let ticks: Vec<(f64, f64)> = labels
            .iter()
            .filter_map(|(p, l)| value(l).map(|v| (*p, v)))
            .collect();
        if is_log(&ticks) && !said_log {
            out.push(format!(
                "the {axis} axis is logarithmic ({}) and nothing says so",
                labels
                    .iter()
                    .map(|l| l.1.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }
    out.extend(ticks_past_data(&nodes, &words));
    out.extend(legend_faults(&nodes, &words));
    out
}

/// Ticks more than a step beyond the drawn data (the legend and the labels
/// in the plot count as drawn): above it on the y axis, right of it on x.
fn ticks_past_data(nodes: &[roxmltree::Node], words: &[&Text]) -> Vec<String> {
    let black_1 = |n: &roxmltree::Node| {
        n.has_tag_name("polyline")
            && n.attribute("stroke") == Some("#000000")
            && n.attribute("stroke-width") == Some("1")
            && n.attribute("opacity") == Some("1")
    };
    // The axes: the longest black vertical and horizontal lines.
    let mut y_axis: Option<(f64, f64, f64)> = None; // x, top, bottom
    let mut x_axis: Option<(f64, f64, f64)> = None; // y, left, right
    for n in nodes.iter().filter(|n| black_1(n)) {
        let p = points(n);
        if p.len() != 2 {
            continue;
        }
        let ((x0, y0), (x1, y1)) = (p[0], p[1]);
        if x0 == x1 && (y1 - y0).abs() > 50.0 {
            let len = (y1 - y0).abs();
            if y_axis.is_none_or(|a| a.2 - a.1 < len) {
                y_axis = Some((x0, y0.min(y1), y0.max(y1)));
            }
        } else if y0 == y1 && (x1 - x0).abs() > 50.0 {
            let len = (x1 - x0).abs();
            if x_axis.is_none_or(|a| a.2 - a.1 < len) {
                x_axis = Some((y0, x0.min(x1), x0.max(x1)));
            }
        }
    }
    let (Some(ya), Some(xa)) = (y_axis, x_axis) else {
        return Vec::new();
    };
    let (left, top, right, bottom) = (ya.0, ya.1, xa.2, xa.0);
    let inside =
        |x: f64, y: f64| x > left + 0.5 && x < right + 0.5 && y > top - 0.5 && y < bottom - 0.5;
    // What is drawn inside the plot.
    let (mut high, mut far) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut take = |x: f64, y: f64| {
        if inside(x, y) {
            high = high.min(y);
            far = far.max(x);
        }
    };
    for n in nodes {
        match n.tag_name().name() {
            "polyline" if !black_1(n) => points(n).into_iter().for_each(|(x, y)| take(x, y)),
            "polygon" => points(n).into_iter().for_each(|(x, y)| take(x, y)),
            "circle" => take(num(n, "cx"), num(n, "cy")),
            "rect" if num(n, "width") < (right - left) + 1.0 => {
                let (x, y) = (num(n, "x"), num(n, "y"));
                take(x, y);
                take(x + num(n, "width"), y + num(n, "height"));
            }
            _ => {}
        }
    }
    for t in words {
        let (l, tp, r, b) = t.bounds;
        if inside((l + r) / 2.0, (tp + b) / 2.0) {
            take(r.min(right), tp.max(top));
        }
    }
    if !high.is_finite() {
        return Vec::new();
    }
    // The tick marks: short black lines outside the plot, at its axes (a
    // panel beside it, as head to head's, has axes and ticks of its own).
    let mut y_ticks = Vec::new();
    let mut x_ticks = Vec::new();
    for n in nodes.iter().filter(|n| black_1(n)) {
        let p = points(n);
        if p.len() != 2 {
            continue;
        }
        let ((x0, y0), (x1, y1)) = (p[0], p[1]);
        let at_y = x0.max(x1) <= left + 0.5 && x0.min(x1) >= left - 7.0;
        let at_x = y0.min(y1) >= bottom - 0.5 && y0.max(y1) <= bottom + 7.0;
        if y0 == y1 && (x1 - x0).abs() <= 6.0 && at_y {
            y_ticks.push(y0);
        } else if x0 == x1 && (y1 - y0).abs() <= 6.0 && at_x && x0 <= xa.2 + 0.5 {
            x_ticks.push(x0);
        }
    }
    let mut out = Vec::new();
    let step = |ticks: &mut Vec<f64>| -> Option<f64> {
        ticks.sort_by(f64::total_cmp);
        ticks.dedup();
        let mut gaps: Vec<f64> = ticks.windows(2).map(|w| w[1] - w[0]).collect();
        gaps.sort_by(f64::total_cmp);
        gaps.get(gaps.len() / 2).copied()
    };
    if let Some(s) = step(&mut y_ticks) {
        let past = y_ticks.iter().filter(|&&y| y < high - s - 1.0).count();
        if past > 0 {
            out.push(format!(
                "{past} y tick(s) more than a step above the data (top of the data at y = {high:.0}, a step {s:.0} px)"
            ));
        }
    }
    if let Some(s) = step(&mut x_ticks) {
        let past = x_ticks.iter().filter(|&&x| x > far + s + 1.0).count();
        if past > 0 {
            out.push(format!(
                "{past} x tick(s) more than a step right of the data (its right end at x = {far:.0}, a step {s:.0} px)"
            ));
        }
    }
    out
}

/// The legend's entries, and what would keep a reader from telling two
/// apart; and a legend over the data.
fn legend_faults(nodes: &[roxmltree::Node], words: &[&Text]) -> Vec<String> {
    let mut out = Vec::new();
    // Opaque white, and not the canvas.
    let is_box = |n: &roxmltree::Node| {
        n.has_tag_name("rect")
            && n.attribute("fill") == Some("#FFFFFF")
            && n.attribute("opacity") == Some("1")
            && (n.attribute("x"), n.attribute("y")) != (Some("0"), Some("0"))
    };
    let Some(at) = nodes.iter().position(is_box) else {
        return out;
    };
    let (x0, y0) = (num(&nodes[at], "x"), num(&nodes[at], "y"));
    let (x1, y1) = (
        x0 + num(&nodes[at], "width"),
        y0 + num(&nodes[at], "height"),
    );
    let inside = |x: f64, y: f64| x > x0 + 1.0 && x < x1 - 1.0 && y > y0 + 1.0 && y < y1 - 1.0;
    // The legend over data drawn before it.
    for n in &nodes[..at] {
        let hit = match n.tag_name().name() {
            "polyline" | "polygon" => points(n),
            "circle" => vec![(num(n, "cx"), num(n, "cy"))],
            _ => continue,
        };
        if let Some((x, y)) = hit.into_iter().find(|&(x, y)| inside(x, y)) {
            out.push(format!(
                "the legend covers a point of the data at ({x}, {y})"
            ));
            break;
        }
    }
    // Its entries: each text in the box, with the marks on its line.
    let lines: Vec<&&Text> = words
        .iter()
        .filter(|t| inside(t.bounds.0, (t.bounds.1 + t.bounds.3) / 2.0))
        .collect();
    let mut entries: Vec<Entry> = Vec::new();
    for t in &lines {
        let (top, bottom) = (t.bounds.1, t.bounds.3);
        let mut e = Entry {
            label: t.label.clone(),
            colour: String::new(),
            marker: Vec::new(),
            strokes: 0,
        };
        // A line of the legend with a faint mark is a note (a contender
        // drawn nowhere), not a series.
        let mut note = false;
        // In a legend of columns, the marks of this entry lie right of
        // the entry before it on its line.
        let after = lines
            .iter()
            .filter(|o| o.bounds.2 <= t.bounds.0 && o.bounds.1 < bottom && o.bounds.3 > top)
            .map(|o| o.bounds.2)
            .fold(x0, f64::max);
        for n in &nodes[at + 1..] {
            let (colour, p) = match n.tag_name().name() {
                "polyline" => (n.attribute("stroke"), points(n)),
                "polygon" => (n.attribute("fill"), points(n)),
                _ => continue,
            };
            let on_line = !p.is_empty()
                && p.iter().all(|&(x, y)| {
                    x < t.bounds.0 && x > after && y >= top - 2.0 && y <= bottom + 2.0
                });
            if !on_line {
                continue;
            }
            if e.colour.is_empty() {
                e.colour = colour.unwrap_or("").to_string();
            }
            note |= n.attribute("opacity").is_some_and(|o| o != "1");
            match n.tag_name().name() {
                "polygon" => e.marker = shape(&p),
                _ => e.strokes += 1,
            }
        }
        if !e.colour.is_empty() && !note {
            entries.push(e);
        }
    }
    for (i, a) in entries.iter().enumerate() {
        for b in &entries[i + 1..] {
            // Up to eight series (the palette's colours), no two share one,
            // but for a series and its dashed companion (a fit).
            let dashed = |e: &Entry| e.strokes >= 2;
            if entries.len() <= 8 && a.colour == b.colour && dashed(a) == dashed(b) {
                out.push(format!(
                    "{:?} and {:?} share a colour ({}) in a legend of {}",
                    a.label,
                    b.label,
                    a.colour,
                    entries.len()
                ));
                continue;
            }
            if a.marker != b.marker || a.strokes != b.strokes {
                continue;
            }
            if a.colour == b.colour {
                out.push(format!(
                    "{:?} and {:?} share a colour ({}) and a mark",
                    a.label, b.label, a.colour
                ));
            } else if let (Some(la), Some(lb)) = (lightness(&a.colour), lightness(&b.colour)) {
                if (la - lb).abs() < 10.0 {
                    out.push(format!(
                        "{:?} and {:?} are {:.1} L* apart in grayscale with one mark",
                        a.label,
                        b.label,
                        (la - lb).abs()
                    ));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
