//! A chart's text as glyph outlines of the embedded font, so that every
//! viewer draws the same figure whatever fonts it has.
//!
//! [`outline_svg`] gives the SVG a chart's files hold: each glyph the chart
//! uses is defined once, each `<text>` is drawn by `<use>` of those glyphs,
//! and the text itself stays over its drawing, invisible and stretched to
//! the drawn width, so it can still be searched and selected.
//! [`outline_text`] gives the copy the PNG is drawn from, with no text left
//! for a renderer that has no text engine.

use super::{err, DrawError};
use ab_glyph::{Font, FontRef, GlyphId, OutlineCurve, Point};
use std::collections::{BTreeMap, BTreeSet};
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
/// `fill` and opacities. Text that draws nothing (`fill-opacity="0"`, as
/// [`outline_svg`] leaves it) is dropped.
pub fn outline_text(svg: &str) -> Result<String, DrawError> {
    let doc = roxmltree::Document::parse(svg).map_err(err)?;
    let mut out = String::with_capacity(svg.len() * 2);
    let mut at = 0;
    for node in texts(&doc) {
        let range = node.range();
        out.push_str(&svg[at..range.start]);
        if node.attribute("fill-opacity") != Some("0") {
            path_of(&layout(&node), &node, &mut out);
        }
        at = range.end;
    }
    out.push_str(&svg[at..]);
    Ok(out)
}

/// `svg` as a chart's file holds it: its glyphs defined once under ids that
/// start with `prefix` (unique in a page that shows several charts), each
/// `<text>` drawn by a group of `<use>`s of them, and the text kept over
/// the drawing with `fill-opacity="0"` and a `textLength` of the drawn
/// width, for search, selection and screen readers.
pub fn outline_svg(svg: &str, prefix: &str) -> Result<String, DrawError> {
    let doc = roxmltree::Document::parse(svg).map_err(err)?;
    let prefix: String = prefix
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let mut used = BTreeSet::new();
    let mut body = String::with_capacity(svg.len() * 2);
    let root = doc.root_element();
    let open_end = root
        .first_child()
        .map_or(root.range().end, |c| c.range().start);
    let mut at = open_end;
    for node in texts(&doc) {
        let range = node.range();
        body.push_str(&svg[at..range.start]);
        at = range.end;
        let lay = layout(&node);
        let _ = write!(
            body,
            "<g aria-hidden=\"true\" transform=\"{}translate({} {}) scale({} {})\"",
            node.attribute("transform")
                .map_or(String::new(), |t| format!("{} ", escape(t))),
            num(lay.start, 2),
            num(lay.baseline, 2),
            num(lay.scale, 6),
            num(-lay.scale, 6),
        );
        copy_paint(&node, &mut body);
        body.push('>');
        for (id, pen) in lay.glyphs.iter().zip(&lay.pens) {
            if font().outline(*id).is_some() {
                used.insert(id.0);
                let _ = write!(
                    body,
                    "<use href=\"#{prefix}{}\" x=\"{}\"/>",
                    id.0,
                    num(*pen, 0)
                );
            }
        }
        body.push_str("</g>");
        // The text itself, invisible, as wide as its drawing.
        body.push_str("<text");
        for a in node.attributes() {
            if !matches!(a.name(), "fill-opacity" | "textLength" | "lengthAdjust") {
                let _ = write!(body, " {}=\"{}\"", a.name(), escape(a.value()));
            }
        }
        let width = lay.width * lay.scale;
        let _ = write!(body, " fill-opacity=\"0\"");
        if width > 0.0 {
            let _ = write!(
                body,
                " textLength=\"{}\" lengthAdjust=\"spacingAndGlyphs\"",
                num(width, 2)
            );
        }
        body.push('>');
        let inner = node
            .first_child()
            .map_or("", |c| &svg[c.range().start..range.end - "</text>".len()]);
        body.push_str(inner);
        body.push_str("</text>");
    }
    body.push_str(&svg[at..]);
    let mut out = String::with_capacity(body.len() + used.len() * 400);
    out.push_str(&svg[..open_end]);
    out.push_str("<defs>");
    for id in used {
        let _ = write!(out, "<path id=\"{prefix}{id}\" d=\"");
        glyph_path(
            GlyphId(id),
            |p| (f64::from(p.x), f64::from(p.y)),
            0,
            &mut out,
        );
        out.push_str("\"/>");
    }
    out.push_str("</defs>\n");
    out.push_str(&body);
    Ok(out)
}

/// A page of charts (each as [`outline_svg`] wrote it) with every glyph
/// defined once: each chart's `<defs>` of glyphs lifted into one hidden
/// `<svg>` at the top of the body, under page-wide ids (`sb-g42`), and
/// each `<use>` pointed there. A glyph drawn by forty charts is then
/// written once, not forty times.
pub fn share_glyphs(page: &str) -> String {
    const OPEN: &str = "<defs><path id=\"";
    let mut glyphs: BTreeMap<u32, &str> = BTreeMap::new();
    let mut prefixes: BTreeSet<&str> = BTreeSet::new();
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(i) = rest.find(OPEN) {
        let block = &rest[i + "<defs>".len()..];
        let Some(end) = block.find("</defs>") else {
            break;
        };
        out.push_str(&rest[..i]);
        for path in block[..end].split("/>") {
            let Some((id, tail)) = path
                .strip_prefix("<path id=\"")
                .and_then(|p| p.split_once('"'))
            else {
                continue;
            };
            let prefix = id.trim_end_matches(|c: char| c.is_ascii_digit());
            let (Ok(n), Some(d)) = (
                id[prefix.len()..].parse::<u32>(),
                tail.trim_start()
                    .strip_prefix("d=\"")
                    .and_then(|t| t.strip_suffix('"')),
            ) else {
                continue;
            };
            glyphs.entry(n).or_insert(d);
            prefixes.insert(prefix);
        }
        rest = block[end + "</defs>".len()..]
            .strip_prefix('\n')
            .unwrap_or(&block[end + "</defs>".len()..]);
    }
    out.push_str(rest);
    if glyphs.is_empty() {
        return out;
    }
    // Each use of a chart's glyph, pointed at the page's.
    let mut shared = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(i) = rest.find("href=\"#") {
        let at = i + "href=\"#".len();
        shared.push_str(&rest[..at]);
        rest = &rest[at..];
        let id = rest.split('"').next().unwrap_or("");
        let prefix = id.trim_end_matches(|c: char| c.is_ascii_digit());
        if prefix.len() < id.len() && prefixes.contains(prefix) {
            shared.push_str("sb-g");
            rest = &rest[prefix.len()..];
        }
    }
    shared.push_str(rest);
    let mut defs = String::from(
        "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>",
    );
    for (n, d) in glyphs {
        let _ = write!(defs, "<path id=\"sb-g{n}\" d=\"{d}\"/>");
    }
    defs.push_str("</defs></svg>\n");
    match shared.find("<body>\n") {
        Some(i) => shared.insert_str(i + "<body>\n".len(), &defs),
        None => shared.insert_str(0, &defs),
    }
    shared
}

/// The `<text>` elements of a document, outermost only.
fn texts<'a, 'i>(
    doc: &'a roxmltree::Document<'i>,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter(|n| !n.ancestors().skip(1).any(|a| a.has_tag_name("text")))
}

/// Where one text element's glyphs go.
struct Layout {
    glyphs: Vec<GlyphId>,
    /// Each glyph's origin in font units, kerning included.
    pens: Vec<f64>,
    /// The whole run's advance in font units.
    width: f64,
    /// SVG pixels per font unit.
    scale: f64,
    /// The run's left end and baseline in the element's coordinates.
    start: f64,
    baseline: f64,
}

/// One text element laid out as an SVG renderer lays it out.
fn layout(node: &roxmltree::Node) -> Layout {
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
    let scale = size / f64::from(font.units_per_em().unwrap_or(2048.0));
    let glyphs: Vec<GlyphId> = text.chars().map(|c| font.glyph_id(c)).collect();
    let mut pens = Vec::with_capacity(glyphs.len());
    let mut width = 0.0f64;
    for (i, &id) in glyphs.iter().enumerate() {
        let kern = glyphs
            .get(i + 1)
            .map_or(0.0, |&next| font.kern_unscaled(id, next));
        pens.push(width);
        width += f64::from(font.h_advance_unscaled(id) + kern);
    }
    let anchor = match inherited("text-anchor") {
        Some("middle") => 0.5,
        Some("end") => 1.0,
        _ => 0.0,
    };
    Layout {
        glyphs,
        pens,
        width,
        scale,
        start: x - scale * width * anchor,
        baseline: y + dy,
    }
}

/// Writes one text element's glyphs as a single path in its coordinates.
fn path_of(lay: &Layout, node: &roxmltree::Node, out: &mut String) {
    let mut d = String::new();
    for (&id, &origin) in lay.glyphs.iter().zip(&lay.pens) {
        let pen = lay.start + lay.scale * origin;
        let s = lay.scale;
        let b = lay.baseline;
        glyph_path(
            id,
            |p| (pen + s * f64::from(p.x), b - s * f64::from(p.y)),
            2,
            &mut d,
        );
    }
    let _ = write!(out, "<path d=\"{d}\"");
    if let Some(t) = node.attribute("transform") {
        let _ = write!(out, " transform=\"{}\"", escape(t));
    }
    copy_paint(node, out);
    out.push_str("/>");
}

/// The element's paint, copied onto what draws it.
fn copy_paint(node: &roxmltree::Node, out: &mut String) {
    for a in node.attributes() {
        if matches!(
            a.name(),
            "fill" | "fill-opacity" | "opacity" | "stroke" | "stroke-width"
        ) {
            let _ = write!(out, " {}=\"{}\"", a.name(), escape(a.value()));
        }
    }
}

/// Appends glyph `id`'s outline as path data, each point placed by `at`
/// and written with `places` decimals at most.
fn glyph_path(id: GlyphId, at: impl Fn(Point) -> (f64, f64), places: usize, d: &mut String) {
    let Some(outline) = font().outline(id) else {
        return;
    };
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
            let _ = write!(d, "M{} {}", num(px, places), num(py, places));
        }
        d.push(match rest.len() {
            1 => 'L',
            2 => 'Q',
            _ => 'C',
        });
        for (k, p) in rest.iter().enumerate() {
            let (px, py) = at(*p);
            let sep = if k == 0 { "" } else { " " };
            let _ = write!(d, "{sep}{} {}", num(px, places), num(py, places));
        }
        last = rest.last().copied();
    }
    if last.is_some() {
        d.push('Z');
    }
}

/// `v` with at most `places` decimals and no trailing zeros.
fn num(v: f64, places: usize) -> String {
    let s = format!("{v:.places$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        &s
    };
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
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
        assert!(out.contains(r##" transform="rotate(270, 16, 244)" fill="#112233"/>"##));
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
    fn a_files_text_is_drawn_by_glyphs_and_kept_invisible_over_them() {
        let svg = r##"<svg width="200" height="100" xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/><text x="10" y="50" font-size="20" opacity="0.75" fill="#112233" transform="rotate(270, 16, 244)">
AVA &amp; AA
</text></svg>"##;
        let out = outline_svg(svg, "c.1-").unwrap();
        let doc = roxmltree::Document::parse(&out).unwrap();
        // Each glyph defined once, under the chart's own prefix.
        let defs: Vec<&str> = doc
            .descendants()
            .filter(|n| n.has_tag_name("path"))
            .filter_map(|n| n.attribute("id"))
            .collect();
        let ids = |c: char| font().glyph_id(c).0;
        let want: BTreeSet<String> = "AV&".chars().map(|c| format!("c-1-{}", ids(c))).collect();
        assert_eq!(defs.len(), 3, "{defs:?}");
        assert_eq!(
            defs.iter().map(|d| d.to_string()).collect::<BTreeSet<_>>(),
            want
        );
        // Drawn by one use a glyph (the space has no outline), kerned:
        // "AV" sits closer than its advances.
        let uses: Vec<(String, f64)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("use"))
            .map(|n| {
                (
                    n.attribute("href").unwrap().to_string(),
                    n.attribute("x").unwrap().parse().unwrap(),
                )
            })
            .collect();
        assert_eq!(uses.len(), 6);
        assert_eq!(uses[0].0, format!("#c-1-{}", ids('A')));
        let f = font();
        let advance = f64::from(f.h_advance_unscaled(f.glyph_id('A')));
        assert!(uses[1].1 < advance, "kerned: {uses:?}");
        let g = doc.descendants().find(|n| n.has_tag_name("g")).unwrap();
        assert!(g
            .attribute("transform")
            .unwrap()
            .starts_with("rotate(270, 16, 244) translate(10 50) scale(0.009766 -0.009766)"));
        assert_eq!(g.attribute("fill"), Some("#112233"));
        assert_eq!(g.attribute("opacity"), Some("0.75"));
        // The text kept, invisible, as wide as its glyphs.
        let text = doc.descendants().find(|n| n.has_tag_name("text")).unwrap();
        assert_eq!(text.attribute("fill-opacity"), Some("0"));
        assert_eq!(text.attribute("opacity"), Some("0.75"));
        assert_eq!(text.text(), Some("\nAVA & AA\n"));
        let len: f64 = text.attribute("textLength").unwrap().parse().unwrap();
        let lay = layout(&doc.descendants().find(|n| n.has_tag_name("text")).unwrap());
        assert!(
            (len - lay.width * lay.scale).abs() < 0.01 && len > 50.0,
            "{len}"
        );
        // The PNG's copy draws the glyphs and drops the invisible text.
        let png = outline_text(&out).unwrap();
        assert!(!png.contains("<text"), "{png}");
        assert_eq!(png.matches("<use").count(), 6);
    }

    #[test]
    fn lengths_read_as_renderers_read_them() {
        assert_eq!(length("0.5ex", 20.0), 5.0);
        assert_eq!(length("-0.5em", 20.0), -10.0);
        assert_eq!(length("3px", 20.0), 3.0);
        assert_eq!(number("12 14"), Some(12.0));
        assert_eq!(collapse(" a \n b  c "), "a b c");
        assert_eq!(num(1.50, 2), "1.5");
        assert_eq!(num(-0.001, 2), "0");
        assert_eq!(num(12.0, 1), "12");
    }
}
