//! Charts drawn with plotters from finished run data, one file per chart.
//! Each chart is drawn to SVG (kept as text for the HTML report) and, from
//! that SVG, to PNG (see [`figure`]).

mod axes;
pub mod cactus;
mod compare;
mod curve;
mod distribution;
pub mod figure;
mod font;
pub mod hardness;
pub mod head_to_head;
pub mod history;
mod hunt;
mod legend;
pub mod lint;
mod machines;
pub mod memory;
mod outline;
pub mod relative;
mod scaling;
pub mod search_cost;
mod study;
mod style;
pub mod throughput;
mod words;

pub use cactus::Cactus;
pub use compare::{BeforeAfter, RatioDistribution};
pub use distribution::Distribution;
pub use hardness::{Hardness, HardnessSeries, Metric};
pub use head_to_head::HeadToHead;
pub use history::{ChangeMark, TimePoint, TimeSeries, Timeline};
pub use hunt::HuntProgress;
pub use machines::{legend_names as machine_names, MachineSpeed};
pub use outline::share_glyphs;
pub use relative::{RelativeSpeed, SpeedRow};
pub use scaling::Scaling;
pub use search_cost::{CostPoint, SearchCost};
pub use study::{CurvePoint, StudyChart, StudyCurve};
pub use throughput::Throughput;

pub use axes::*;
pub use curve::*;
pub use font::*;
pub use legend::*;
pub use style::*;
pub use words::*;

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// A chart that can be drawn on any plotters backend.
pub trait Chart {
    /// File stem, like `cactus-top1465`.
    fn name(&self) -> String;
    /// Title drawn on the chart.
    fn title(&self) -> String;
    /// One sentence saying what the chart shows.
    fn caption(&self) -> String;
    /// Draws the chart.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError>;
    /// The contenders that ran but are left off the chart, each with why
    /// (`naive-exact-cover (0/20 verified)`): said on the chart itself,
    /// under it with its data line.
    fn not_shown(&self) -> Vec<String> {
        Vec::new()
    }
    /// What the chart's marks mean where a mark does not say so itself
    /// (whiskers, a shaded band, dashed lines, jitter): drawn under the
    /// chart above its data line, so that a figure taken out of its report
    /// still explains itself. `None` where every mark is in the legend.
    fn key(&self) -> Option<String> {
        None
    }
    /// [`Chart::key`] for a figure `width` px wide: a chart with more to
    /// say where there is room for it says it here.
    fn key_at(&self, width: u32) -> Option<String> {
        let _ = width;
        self.key()
    }
    /// The datasets a chart of several draws, for its data line (how many,
    /// and their puzzles); empty for a chart of one (its name says which).
    fn datasets(&self) -> Vec<String> {
        Vec::new()
    }
}

/// One variant's line on a chart of curves (cactus, distribution).
#[derive(Clone, Debug)]
pub struct Line {
    /// The variant's label.
    pub label: String,
    /// Its palette index.
    pub color: usize,
    /// Its values.
    pub curve: Curve,
}

/// A chart drawn to files.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// File stem.
    pub name: String,
    /// Title.
    pub title: String,
    /// One sentence.
    pub caption: String,
    /// The SVG text.
    pub svg: String,
}

/// The frame every chart shares: title, margins, room for axis labels.
pub fn frame<'a, 'b, DB: DrawingBackend>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
) -> ChartBuilder<'a, 'b, DB> {
    let mut b = ChartBuilder::on(root);
    // A title too long for a narrow figure is set smaller, down to the text size.
    let room = root.dim_in_pixel().0 as f64 - 32.0;
    let size = (TEXT..=TITLE)
        .rev()
        .find(|&s| text_width(title, s as f64 / 1.24) <= room)
        .unwrap_or(TEXT);
    b.caption(title, (FONT, size))
        .margin(16)
        .margin_right(30)
        .x_label_area_size(52)
        .y_label_area_size(84);
    b
}

/// Why a chart could not be drawn: the plotting backend's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DrawError(pub String);

/// Maps a backend error to a [`DrawError`].
pub fn err<E: std::fmt::Display>(e: E) -> DrawError {
    DrawError(e.to_string())
}

/// Height of one line of the strip under a chart that says what its data is.
const DATA_LINE: u32 = 24;

/// Draws `chart` to `dir/NAME.svg` and `dir/NAME.png` (the double-column
/// figure), with `data` (what the chart's data is: puzzles, threads,
/// machine, build) under it, so a figure taken out of its report still says
/// so; with `paper`, also to `dir/NAME-3.5in.svg|png`, a single-column one.
pub fn render<C: Chart>(
    chart: &C,
    dir: &Path,
    data: &str,
    paper: bool,
) -> Result<Rendered, DrawError> {
    let svg = write_figure(chart, dir, data, &figure::DOUBLE)?;
    if paper {
        write_figure(chart, dir, data, &figure::SINGLE)?;
    }
    Ok(Rendered {
        name: chart.name(),
        title: chart.title(),
        caption: chart.caption(),
        svg,
    })
}

/// Draws `chart` at `size` to its SVG and PNG files, the SVG's text as
/// outlines of the embedded font (see [`outline`]); returns the SVG.
fn write_figure<C: Chart>(
    chart: &C,
    dir: &Path,
    data: &str,
    size: &figure::Size,
) -> Result<String, DrawError> {
    let stem = format!("{}{}", chart.name(), size.suffix);
    // The file's text drawn in the embedded font's own glyphs, ids unique
    // to this chart so that a page can show several.
    let (svg, size) = draw_fitted(chart, data, size)?;
    let svg = outline::outline_svg(&svg, &format!("{stem}-g"))?;
    crate::files::write(dir.join(format!("{stem}.svg")), &svg).map_err(err)?;
    let png = figure::png(&svg, &size)?;
    crate::files::write(dir.join(format!("{stem}.png")), png).map_err(err)?;
    Ok(svg)
}

/// `chart` drawn at `size` as SVG text, `data` under it; taller than
/// `size` where its legend under the plot would leave the plot too short.
pub fn draw_svg<C: Chart>(chart: &C, data: &str, size: &figure::Size) -> Result<String, DrawError> {
    Ok(draw_fitted(chart, data, size)?.0)
}

/// [`draw_svg`], with the size it was drawn at: `size`, or as much taller
/// as a legend set under its plot needs.
fn draw_fitted<C: Chart>(
    chart: &C,
    data: &str,
    size: &figure::Size,
) -> Result<(String, figure::Size), DrawError> {
    register_font();
    let mut size = *size;
    loop {
        legend::short_reset();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, size.px).into_drawing_area();
            draw_with_line(chart, &root, data)?;
        }
        // Drawn again at most once or twice: the legend's height does not
        // change with the canvas's.
        match legend::short_by() {
            0 => return Ok((svg, size)),
            more if size.px.1 < 4 * figure::DOUBLE.px.1 => size.px.1 += more,
            _ => return Ok((svg, size)),
        }
    }
}

fn draw_with_line<C: Chart, DB: DrawingBackend>(
    chart: &C,
    root: &DrawingArea<DB, Shift>,
    data: &str,
) -> Result<(), DrawError> {
    root.fill(&WHITE).map_err(err)?;
    let style = (FONT, TEXT).into_font().color(&BLACK.mix(0.75));
    let (w, h) = root.dim_in_pixel();
    let measure = |t: &str| root.estimate_text_size(t, &style).map_or(0, |d| d.0);
    // What the marks mean, then what the data is.
    let mut lines = Vec::new();
    for text in [chart.key_at(w).unwrap_or_default().as_str(), data] {
        if !text.is_empty() {
            lines.extend(wrap(text, w.saturating_sub(32), measure));
        }
    }
    if lines.is_empty() {
        chart.draw(root)?;
    } else {
        let (plot, strip) = root.split_vertically(h - DATA_LINE * lines.len() as u32 - 4);
        chart.draw(&plot)?;
        for (i, l) in lines.into_iter().enumerate() {
            strip
                .draw(&Text::new(
                    l,
                    (16, 2 + DATA_LINE as i32 * i as i32),
                    style.clone(),
                ))
                .map_err(err)?;
        }
    }
    root.present().map_err(err)
}

/// `text` in lines no wider than `width` by `measure`, broken after "; "
/// or ", " where it must be, and between words inside a part wider than a
/// line (a word wider than a line stays whole).
pub fn wrap(text: &str, width: u32, measure: impl Fn(&str) -> u32) -> Vec<String> {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find([';', ',']) {
        parts.push(&rest[..i + 1]);
        rest = &rest[i + 1..];
    }
    parts.push(rest);
    // A part wider than a line is broken between its words.
    let parts: Vec<&str> = parts
        .into_iter()
        .flat_map(|p| match measure(p.trim_start()) > width {
            true => p.split_inclusive(' ').collect::<Vec<_>>(),
            false => vec![p],
        })
        .collect();
    let mut lines: Vec<String> = Vec::new();
    for p in parts {
        match lines.last_mut() {
            Some(l) if measure(&format!("{l}{p}")) <= width => l.push_str(p),
            _ => lines.push(p.trim_start().to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests;
