//! A chart's files at a print size: its SVG, drawn by plotters, and its PNG,
//! drawn from that SVG by resvg, its text as outlines of the embedded font
//! (see [`outline`](super::outline)), so the two read the same. The PNG has
//! 300 dots per inch of the printed width.

use super::{err, DrawError};
use resvg::{tiny_skia, usvg};

/// A size a chart is drawn at: its canvas in SVG pixels and the width it
/// prints at. Text is sized in SVG pixels, so a narrower canvas prints it
/// larger.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    /// What the files' names end with (`""`, `-3.5in`).
    pub suffix: &'static str,
    /// Canvas width and height in SVG pixels.
    pub px: (u32, u32),
    /// Printed width in inches.
    pub inches: f64,
}

/// A double-column figure, 7 in wide: every chart's main size, also the one
/// report.html shows.
pub const DOUBLE: Size = Size {
    suffix: "",
    px: (960, 560),
    inches: 7.0,
};

/// A single-column figure, 3.5 in wide (`--figures paper`).
/// Taller than wide: the data line and key take more lines at this width,
/// and a plot of rows needs a text height a row. A chart whose legend goes
/// under its plot is drawn taller still where the plot would be short.
pub const SINGLE: Size = Size {
    suffix: "-3.5in",
    px: (480, 600),
    inches: 3.5,
};

/// Dots per inch of the printed width in a PNG.
pub const DPI: f64 = 300.0;

/// No text is smaller than this, in points, at a size's printed width.
pub const MIN_POINTS: f64 = 8.0;

impl Size {
    /// Points per SVG pixel when printed.
    pub fn points_per_px(&self) -> f64 {
        self.inches * 72.0 / self.px.0 as f64
    }

    /// The PNG's width and height in pixels.
    pub fn png_px(&self) -> (u32, u32) {
        let scale = self.png_scale();
        (
            (self.px.0 as f64 * scale).round() as u32,
            (self.px.1 as f64 * scale).round() as u32,
        )
    }

    /// This size as `svg` was drawn at it: as tall as the SVG says (a
    /// chart whose legend goes under its plot may be drawn taller).
    pub fn of_svg(&self, svg: &str) -> Size {
        let height = svg
            .find("<svg")
            .and_then(|at| svg[at..].find('>').map(|end| &svg[at..at + end]))
            .and_then(|tag| tag.split_once(" height=\""))
            .and_then(|(_, rest)| rest.split_once('"'))
            .and_then(|(h, _)| h.parse::<u32>().ok());
        Size {
            px: (self.px.0, height.unwrap_or(self.px.1)),
            ..*self
        }
    }

    fn png_scale(&self) -> f64 {
        self.inches * DPI / self.px.0 as f64
    }
}

/// Draws `svg`, a chart drawn at `size`, as a PNG of [`Size::png_px`]
/// pixels, with its resolution (300 dpi) recorded in the file.
pub fn png(svg: &str, size: &Size) -> Result<Vec<u8>, DrawError> {
    let outlined = super::outline::outline_text(svg)?;
    let tree = usvg::Tree::from_str(&outlined, &usvg::Options::default()).map_err(err)?;
    let (w, h) = size.png_px();
    let mut pixmap = tiny_skia::Pixmap::new(w, h)
        .ok_or_else(|| DrawError(format!("a {w}×{h} image cannot be made")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let s = size.png_scale() as f32;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(s, s),
        &mut pixmap.as_mut(),
    );
    let rgba: Vec<u8> = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect();
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_pixel_dims(Some(png::PixelDimensions {
            // Dots per metre.
            xppu: (DPI / 0.0254).round() as u32,
            yppu: (DPI / 0.0254).round() as u32,
            unit: png::Unit::Meter,
        }));
        let mut writer = enc.write_header().map_err(err)?;
        writer.write_image_data(&rgba).map_err(err)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_sizes_give_300_dpi_and_keep_the_floor() {
        assert_eq!(DOUBLE.png_px(), (2100, 1225));
        assert_eq!(SINGLE.png_px(), (1050, 1313));
        // The smallest text the charts use, 8 pt or more at both widths.
        for size in [DOUBLE, SINGLE] {
            let pt = super::super::SMALLEST_PX * size.points_per_px();
            assert!(pt >= MIN_POINTS, "{size:?}: {pt:.2} pt");
        }
    }

    #[test]
    fn a_size_is_as_tall_as_its_svg_says() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="480" height="720" viewBox="0 0 480 720"><rect x="0" y="0" width="10" height="10"/></svg>"##;
        assert_eq!(SINGLE.of_svg(svg).px, (480, 720));
        assert_eq!(SINGLE.of_svg(svg).png_px(), (1050, 1575));
        assert_eq!(SINGLE.of_svg("<svg>").px, SINGLE.px);
    }

    #[test]
    fn a_png_is_the_drawing_of_its_svg() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="480" height="400" viewBox="0 0 480 400"><rect x="0" y="0" width="240" height="400" fill="#000000"/><text x="300" y="200" font-family="sans-serif" font-size="20">cdcl</text></svg>"##;
        let a = png(svg, &SINGLE).unwrap();
        assert_eq!(a, png(svg, &SINGLE).unwrap(), "drawn again, the same bytes");
        let dec = png::Decoder::new(std::io::Cursor::new(&a));
        let mut reader = dec.read_info().unwrap();
        let info = reader.info();
        assert_eq!((info.width, info.height), SINGLE.png_px());
        let dims = info.pixel_dims.unwrap();
        assert_eq!(dims.xppu, 11811, "300 dpi");
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        reader.next_frame(&mut buf).unwrap();
        let at = |x: usize, y: usize| buf[(y * 1050 + x) * 4];
        // The left half is black, the right white but for the text's ink.
        assert_eq!(at(100, 100), 0);
        assert_eq!(at(1000, 100), 255);
        let ink = (600..1000)
            .flat_map(|x| (300..480).map(move |y| (x, y)))
            .filter(|&(x, y)| at(x, y) < 128)
            .count();
        assert!(
            ink > 200,
            "the text is drawn with the embedded font: {ink} dark pixels"
        );
    }
}
