//! The charts' font and text sizes: DejaVu Sans, embedded, measured by
//! its own metrics.

use super::figure;
use plotters::prelude::*;
use std::sync::Once;

/// Chart size in pixels: the double-column figure's (see [`figure::DOUBLE`]).
pub const SIZE: (u32, u32) = figure::DOUBLE.px;
/// The font family every chart names (DejaVu Sans, embedded).
pub const FONT: &str = "sans-serif";
/// The embedded font.
pub(super) const FONT_BYTES: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");

/// Text sizes as plotters takes them (it writes 1/1.24 of each as the SVG's
/// font size): every tick, legend, note and data line.
pub const TEXT: u32 = 20;
/// An axis's name.
pub const AXIS: u32 = 22;
/// A chart's title.
pub const TITLE: u32 = 28;
/// The smallest text in SVG pixels: 8.4 pt on a 7 in or a 3.5 in figure.
pub const SMALLEST_PX: f64 = TEXT as f64 / 1.24;

/// The width in SVG pixels of `text` set in the embedded font at a font
/// size of `px` SVG pixels, as plotters lays it out.
pub fn text_width(text: &str, px: f64) -> f64 {
    register_font();
    (FONT, px * 1.24)
        .into_font()
        .box_size(text)
        .map_or(0.0, |b| b.0 as f64)
}

/// Registers the embedded font with plotters (once per process).
pub fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for style in [FontStyle::Normal, FontStyle::Bold] {
            plotters::style::register_font(FONT, style, FONT_BYTES)
                .unwrap_or_else(|_| panic!("the embedded font loads"));
        }
    });
}
