//! A chart's text as glyph outlines: each `<text>` of an SVG becomes a
//! `<path>` drawn from the embedded font, so the PNG needs no text engine.
//! The SVG files keep their text (searchable, selectable); only the PNG is
//! drawn from the outlined copy.

use super::{err, DrawError};
use ab_glyph::{Font, FontRef, GlyphId, OutlineCurve, Point};
use std::fmt::Write;
use std::sync::OnceLock;

/// The embedded font, parsed once.
fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(super::FONT_BYTES)
            .unwrap_or_else(|_| panic!("the embedded font parses"))
    })
}

/// `svg` with every `<text>` element replaced by a `<path>` of its glyphs,
/// placed as an SVG renderer places them: `x`, `y`, `dy` (`em`, `ex` as half
/// an em, or pixels), `text-anchor`, and the element's own `transform`,
/// `fill` and opacities.
pub fn outline_text(svg: &str) -> Result<String, DrawError> {
    let doc = roxmltree::Document::parse(svg).map_err(err)?;
    let mut out = String::with_capacity(svg.len() * 2);
    let mut at = 0;
    for node in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let range = node.range();
        if range.start < at {
            continue; // Inside a text already replaced.
        }
        out.push_str(&svg[at..range.start]);
        path_of(&node, &mut out);
        at = range.end;
    }
    out.push_str(&svg[at..]);
    Ok(out)
}

/// Writes one text element's glyphs as a path.
fn path_of(node: &roxmltree::Node, out: &mut String) {
    let inherited = |name: &str| node.ancestors().find_map(|n| n.attribute(name));
    let size = inherited("font-size").and_then(number).unwrap_or(16.0);
    let text = collapse(
        &node
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect::<String>(),
    );
    let x = node.attribute("x").and_then(number).unwrap_or(0.0);
    let y = node.attribute("y").and_then(number).unwrap_or(0.0);
    let dy = node.attribute("dy").map_or(0.0, |d| length(d, size));
    let font = font();
    let scale = f64::from(font.units_per_em().unwrap_or(2048.0));
    let s = size / scale;
    let ids: Vec<GlyphId> = text.chars().map(|c| font.glyph_id(c)).collect();
    // Each glyph's origin in font units, kerning included; the last is the width.
    let mut pens = vec![0.0f64];
    for (i, &id) in ids.iter().enumerate() {
        let kern = ids
            .get(i + 1)
            .map_or(0.0, |&next| font.kern_unscaled(id, next));
        let last = pens[pens.len() - 1];
        pens.push(last + f64::from(font.h_advance_unscaled(id) + kern));
    }
    let width = pens[ids.len()];
    let start = x - s
        * width
        * match inherited("text-anchor") {
            Some("middle") => 0.5,
            Some("end") => 1.0,
            _ => 0.0,
        };
    let baseline = y + dy;
    let mut d = String::new();
    for (&id, &origin) in ids.iter().zip(&pens) {
        let Some(outline) = font.outline(id) else {
            continue;
        };
        let pen = start + s * origin;
        let at = |p: Point| (pen + s * f64::from(p.x), baseline - s * f64::from(p.y));
        let mut last: Option<Point> = None;
        for curve in &outline.curves {
            let (first, rest): (Point, &[Point]) = match curve {
                OutlineCurve::Line(a, b) => (*a, &[*b][..]),
                OutlineCurve::Quad(a, b, c) => (*a, &[*b, *c][..]),
                OutlineCurve::Cubic(a, b, c, e) => (*a, &[*b, *c, *e][..]),
            };
            if last != Some(first) {
                if last.is_some() {
                    d.push('Z');
                }
                let (px, py) = at(first);
                let _ = write!(d, "M{px:.2} {py:.2}");
            }
            d.push(match rest.len() {
                1 => 'L',
                2 => 'Q',
                _ => 'C',
            });
            for (k, p) in rest.iter().enumerate() {
                let (px, py) = at(*p);
                let sep = if k == 0 { "" } else { " " };
                let _ = write!(d, "{sep}{px:.2} {py:.2}");
            }
            last = rest.last().copied();
        }
        if last.is_some() {
            d.push('Z');
        }
    }
    let _ = write!(out, "<path d=\"{d}\"");
    for a in node.attributes() {
        if matches!(
            a.name(),
            "fill" | "fill-opacity" | "opacity" | "transform" | "stroke" | "stroke-width"
        ) {
            let _ = write!(out, " {}=\"{}\"", a.name(), escape(a.value()));
        }
    }
    out.push_str("/>");
}

/// SVG's default white-space handling: no newlines, tabs as spaces, runs of
/// spaces as one, none at either end.
fn collapse(text: &str) -> String {
    text.split([' ', '\t', '\n', '\r'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first number of an attribute (`12`, `12px`, `10 20`).
fn number(value: &str) -> Option<f64> {
    let first = value.split([' ', ',']).find(|w| !w.is_empty())?;
    first.trim_end_matches("px").parse().ok()
}

/// A length in pixels at font size `size`: `em`, `ex` (half an em, as SVG
/// renderers take it) or pixels.
fn length(value: &str, size: f64) -> f64 {
    let v = value.trim();
    if let Some(n) = v.strip_suffix("em") {
        n.parse::<f64>().map_or(0.0, |n| n * size)
    } else if let Some(n) = v.strip_suffix("ex") {
        n.parse::<f64>().map_or(0.0, |n| n * size / 2.0)
    } else {
        number(v).unwrap_or(0.0)
    }
}

fn escape(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_becomes_a_path_placed_by_its_anchor() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/><text x="100" y="50" dy="0.76em" text-anchor="end" font-size="20" fill="#112233" transform="rotate(270, 16, 244)">A &amp; b</text><text x="0" y="0">  </text></svg>"##;
        let out = outline_text(svg).unwrap();
        assert!(!out.contains("<text"), "{out}");
        assert!(out.starts_with(
            r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/><path d="M"#
        ));
        assert!(out.contains(r##" fill="#112233" transform="rotate(270, 16, 244)"/>"##));
        // Anchored at its end: every point lies left of x = 100, and the
        // glyphs stand on the baseline 50 + 0.76 × 20 = 65.2.
        let doc = roxmltree::Document::parse(&out).unwrap();
        let d = doc
            .descendants()
            .find(|n| n.has_tag_name("path"))
            .and_then(|n| n.attribute("d"))
            .unwrap();
        let nums: Vec<f64> = d
            .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
            .filter_map(|w| w.parse().ok())
            .collect();
        let xs: Vec<f64> = nums.iter().step_by(2).copied().collect();
        let ys: Vec<f64> = nums.iter().skip(1).step_by(2).copied().collect();
        assert!(xs.iter().all(|&x| x <= 100.0 + 1e-9), "{xs:?}");
        assert!(xs.iter().any(|&x| x < 70.0), "three glyphs wide: {xs:?}");
        let bottom = ys.iter().copied().fold(f64::MIN, f64::max);
        assert!((bottom - 65.2).abs() < 0.5, "on the baseline: {bottom}");
        // The blank text draws nothing.
        assert!(out.ends_with(r#"<path d=""/></svg>"#), "{out}");
    }

    #[test]
    fn lengths_read_as_renderers_read_them() {
        assert_eq!(length("0.5ex", 20.0), 5.0);
        assert_eq!(length("-0.5em", 20.0), -10.0);
        assert_eq!(length("3px", 20.0), 3.0);
        assert_eq!(number("12 14"), Some(12.0));
        assert_eq!(collapse(" a \n b  c "), "a b c");
    }
}
