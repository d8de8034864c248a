//! Charts drawn with plotters from finished run data, one file per chart.
//! Each chart is drawn to SVG (kept as text for the HTML report) and, from
//! that SVG, to PNG (see [`figure`]).

pub mod cactus;
mod compare;
mod distribution;
pub mod figure;
pub mod hardness;
pub mod head_to_head;
pub mod history;
mod hunt;
mod machines;
pub mod memory;
mod outline;
pub mod relative;
mod scaling;
pub mod search_cost;
mod study;
pub mod throughput;

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

use plotters::coord::combinators::{BindKeyPoints, LogCoord, WithKeyPoints};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// Chart size in pixels: the double-column figure's (see [`figure::DOUBLE`]).
pub const SIZE: (u32, u32) = figure::DOUBLE.px;
/// The font family every chart names (DejaVu Sans, embedded).
pub const FONT: &str = "sans-serif";
/// The embedded font.
const FONT_BYTES: &[u8] = include_bytes!("../../../assets/DejaVuSans.ttf");

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

/// Okabe and Ito's colours, safe for colour-blind readers, without their
/// yellow (1.6:1 on white), in an order where neighbours differ most in
/// lightness (at least 12.9 L*): black, bluish green, orange, vermillion,
/// sky blue, blue, reddish purple.
const PALETTE: [(u8, u8, u8); 8] = [
    (0, 0, 0),
    (0, 158, 115),
    (230, 159, 0),
    (213, 94, 0),
    (86, 180, 233),
    (0, 114, 178),
    (204, 121, 167),
    // An eighth, for the eighth series of the default run: a mid grey
    // (the palette's yellow is too pale on white).
    (119, 119, 119),
];

/// Colours for datasets (Paul Tol's muted scheme and a dark grey), apart
/// from the strategies' so that a dataset never reads as a strategy: ten,
/// for the default run's ten datasets. Those that share a marker (`i` and
/// `i + 7`) lie far apart in grayscale.
const DATASET_PALETTE: [(u8, u8, u8); 10] = [
    (51, 34, 136),
    (68, 170, 153),
    (136, 34, 85),
    (153, 153, 51),
    (204, 102, 119),
    (17, 119, 51),
    (85, 85, 85),
    (136, 204, 238),
    (221, 204, 119),
    (170, 68, 153),
];

/// The colour of dataset `i` in a chart whose series are datasets.
pub fn dataset_color(i: usize) -> RGBColor {
    let (r, g, b) = DATASET_PALETTE[i % DATASET_PALETTE.len()];
    RGBColor(r, g, b)
}

/// Marker shapes, one per series with its colour (see [`marker_shape`]).
pub const MARKERS: usize = 7;

/// The colour of series slot `i`: slots 7 apart share a colour and differ
/// in marker.
pub fn color(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
}

/// The marker shape of series slot `i`: slots that share a colour (eight
/// apart) differ in shape, and slots that share a shape (seven apart, up to
/// slot 13) differ in lightness for a grayscale print.
pub fn marker_kind(i: usize) -> usize {
    i % MARKERS
}

/// The built-in strategies, each in its own slot in every chart of every
/// command (`bench`, `report`, `study`, `compare`).
const SLOTS: [&str; 15] = [
    "band",
    "bitset-mrv",
    "dlx",
    "backtracking",
    "naive-exact-cover",
    "cdcl",
    "sat-varisat",
    // The other reference, beside sat-varisat in the default run.
    "dlx-crate",
    "bitset-mrv-locked",
    "cdcl-hybrid",
    "dlx-first-column",
    "band-portable",
    "bitset-mrv-plain",
    "bitset-mrv-naked",
    "naive-exact-cover-pure",
];

/// Each series' slot: a built-in strategy's own; any other name, in the
/// order given, the next slot after them whose colour no series drawn here
/// has yet (while one of the eight is free), and whose marker none has
/// where one is left, so that an outside contender's bars never share a
/// colour with a strategy's beside them, nor a marker with a grey like its own.
pub fn slots<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<usize> {
    let known: Vec<Option<usize>> = names
        .into_iter()
        .map(|n| SLOTS.iter().position(|s| *s == n))
        .collect();
    let mut colours: Vec<usize> = known.iter().flatten().map(|s| s % PALETTE.len()).collect();
    let mut markers: Vec<usize> = known.iter().flatten().map(|&s| marker_kind(s)).collect();
    let mut next = SLOTS.len();
    known
        .iter()
        .map(|k| {
            k.unwrap_or_else(|| {
                // A colour no series here has, with a marker none has
                // where one is left, else a free colour alone.
                let free = |s: &usize| !colours.contains(&(s % PALETTE.len()));
                let slot = (next..next + PALETTE.len() * MARKERS)
                    .find(|s| free(s) && !markers.contains(&marker_kind(*s)))
                    .or_else(|| (next..next + PALETTE.len()).find(free))
                    .unwrap_or(next);
                colours.push(slot % PALETTE.len());
                markers.push(marker_kind(slot));
                next = slot + 1;
                slot
            })
        })
        .collect()
}

/// The outline of marker shape `kind`, `size` pixels across, around (0, 0):
/// a circle, square, triangle, diamond, downward triangle, cross or plus.
/// Every shape is one polygon, so a series' marks are one element type.
pub fn marker_shape(kind: usize, size: i32) -> Vec<(i32, i32)> {
    let r = size / 2;
    let (a, b) = (r + 1, (r / 3).max(1));
    match kind % MARKERS {
        0 => (0..16)
            .map(|k| {
                let t = k as f64 * std::f64::consts::TAU / 16.0;
                (
                    (r as f64 * t.cos()).round() as i32,
                    (r as f64 * t.sin()).round() as i32,
                )
            })
            .collect(),
        1 => vec![(-r, -r), (r, -r), (r, r), (-r, r)],
        2 => vec![(0, -a), (a, r), (-a, r)],
        3 => vec![(0, -a), (a, 0), (0, a), (-a, 0)],
        4 => vec![(0, a), (a, -r), (-a, -r)],
        5 => vec![
            (-a, -a + b),
            (-a + b, -a),
            (0, -b),
            (a - b, -a),
            (a, -a + b),
            (b, 0),
            (a, a - b),
            (a - b, a),
            (0, b),
            (-a + b, a),
            (-a, a - b),
            (-b, 0),
        ],
        _ => vec![
            (-b, -a),
            (b, -a),
            (b, -b),
            (a, -b),
            (a, b),
            (b, b),
            (b, a),
            (-b, a),
            (-b, b),
            (-a, b),
            (-a, -b),
            (-b, -b),
        ],
    }
}

/// Draws series slot `slot`'s marker, `size` pixels across, at each point.
pub fn draw_marks<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    points: impl IntoIterator<Item = (f64, f64)>,
    slot: usize,
    size: i32,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let shape = marker_shape(marker_kind(slot), size);
    let style = color(slot).filled();
    chart
        .draw_series(
            points
                .into_iter()
                .map(|p| EmptyElement::at(p) + Polygon::new(shape.clone(), style)),
        )
        .map_err(err)?;
    Ok(())
}

/// The legend entry of series slot `slot`: its marker, and a stroke through
/// it when the series is a line.
pub fn legend_mark<'a, DB: DrawingBackend + 'a>(
    (x, y): (i32, i32),
    slot: usize,
    line: bool,
) -> impl plotters::element::IntoDynElement<'a, DB, (i32, i32)> {
    let c = color(slot);
    let stroke = if line { 24 } else { 0 };
    EmptyElement::at((x, y))
        + PathElement::new(vec![(0, 0), (stroke, 0)], c.stroke_width(2))
        + Polygon::new(
            marker_shape(marker_kind(slot), 9)
                .into_iter()
                .map(|(dx, dy)| (dx + stroke.max(12) / 2 + if line { 0 } else { 2 }, dy))
                .collect::<Vec<_>>(),
            c.filled(),
        )
}

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

/// The share of a plot's height a legend of `lines` lines takes, with its
/// margins, in a chart drawn on `root`: what a chart whose curves span its
/// width leaves free above them, so that the legend covers none.
pub fn legend_room<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, lines: usize) -> f64 {
    let plot = root.dim_in_pixel().1 as f64 - 130.0;
    let legend = lines.max(1) as f64 * TEXT as f64 * 1.25 + 24.0;
    (legend / plot.max(1.0)).min(0.75)
}

/// Empty rows to add above a chart's `n` rows (see [`rows_chart_with_room`])
/// so that a legend of `lines` lines fits above the first.
pub fn legend_rows<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, lines: usize, n: f64) -> f64 {
    let plot = (root.dim_in_pixel().1 as f64 - 130.0).max(1.0);
    let key = lines as f64 * TEXT as f64 * 1.25 + 30.0;
    (key * n / (plot - key).max(plot * 0.25)).ceil()
}

/// A log range `lo..hi` made taller, so that its top `share` is free.
pub fn log_headroom(r: std::ops::Range<f64>, share: f64) -> std::ops::Range<f64> {
    let span = (r.end / r.start).ln() / (1.0 - share);
    r.start..r.start * span.exp()
}

/// `text`, an axis's name, as it fits in `width` pixels: whole, else with
/// its parenthesis cut to the first clause, else without it; a log axis's
/// name keeps its `(log)` whatever is cut, its words shortened with `…`
/// where they must be.
pub fn fit(text: &str, width: f64) -> String {
    let fits = |t: &str| text_width(t, AXIS as f64 / 1.24) <= width;
    if fits(text) {
        return text.to_string();
    }
    let log = text.contains("(log") || text.contains("log)");
    let tail = if log { " (log)" } else { "" };
    if let Some((head, _)) = text.split_once(';') {
        let shorter = if log && !head.contains("log") {
            format!("{}{tail}", head.split_once(" (").map_or(head, |h| h.0))
        } else {
            format!("{head})")
        };
        if fits(&shorter) {
            return shorter;
        }
    }
    let head = text.split_once(" (").map_or(text, |(head, _)| head);
    let whole = format!("{head}{tail}");
    if fits(&whole) || !log {
        return whole;
    }
    // Words off the end of the head until it fits beside `(log)`.
    let mut words: Vec<&str> = head.split(' ').collect();
    while words.len() > 1 {
        words.pop();
        let cut = format!("{}…{tail}", words.join(" ").trim_end_matches(','));
        if fits(&cut) {
            return cut;
        }
    }
    format!("{}…{tail}", words.join(" "))
}

/// The first of `names` (an axis's name, longest first) that fits in
/// `width` pixels whole, else the last as [`fit`] cuts it.
pub fn fit_any(names: &[String], width: f64) -> String {
    names
        .iter()
        .find(|t| text_width(t, AXIS as f64 / 1.24) <= width)
        .cloned()
        .unwrap_or_else(|| fit(names.last().map_or("", |t| t.as_str()), width))
}

/// A log axis's tick label: [`compact`] up to `top`, the data's top, and
/// none above it, in the room a legend is given there.
pub fn tick_below(v: f64, top: f64) -> String {
    match v <= top * 1.001 {
        true => compact(v),
        false => String::new(),
    }
}

/// Why a chart could not be drawn: the plotting backend's message.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct DrawError(pub String);

/// Maps a backend error to a [`DrawError`].
pub fn err<E: std::fmt::Display>(e: E) -> DrawError {
    DrawError(e.to_string())
}

/// The machine and build of a run, for a chart's data line: `AMD EPYC (2
/// cores), sudoku-bench 0.1.0 (8f34ad2)`, with its GPUs where it has any,
/// and the day it started (`run 2026-11-29`) where known.
pub fn machine_line(info: &crate::harness::RunInfo) -> String {
    let commit: String = info.git_commit.chars().take(7).collect();
    let label = info
        .options
        .label
        .as_ref()
        .map_or(String::new(), |l| format!("; label {l}"));
    let gpus = match info.gpus.as_slice() {
        [] => String::new(),
        g => format!(", GPU {}", g.join(", ")),
    };
    let day: String = info.started.chars().take(10).collect();
    let day = match day.len() {
        10 => format!("; run {day}"),
        _ => String::new(),
    };
    format!(
        "{} ({} cores){gpus}, sudoku-bench {} ({commit}){label}{day}",
        info.cpu_model, info.cores, info.version
    )
}

/// [`machine_line`] for this machine and build, for a chart drawn outside a
/// bench run (a hunt, a scaling run).
pub fn machine_here() -> String {
    let info = crate::harness::RunInfo::new(Default::default(), Vec::new(), Vec::new());
    machine_line(&info)
}

/// What a run's chart shows, for its data line: how it was measured, then
/// [`machine_line`]; `puzzles` names the dataset when the chart has one.
pub fn run_line(info: &crate::harness::RunInfo, puzzles: Option<(&str, u64, u64)>) -> String {
    let t = info.options.threads;
    described(
        info,
        puzzles,
        format!("{t} thread{}", if t == 1 { "" } else { "s" }),
    )
}

/// [`run_line`] for a chart drawn over several of the run's datasets:
/// how many, and their puzzles (`5 datasets, 1,500 puzzles; ...`).
pub fn run_line_over(info: &crate::harness::RunInfo, datasets: &[String]) -> String {
    let drawn: Vec<_> = info
        .datasets
        .iter()
        .filter(|d| datasets.contains(&d.name))
        .collect();
    let line = run_line(info, None);
    if drawn.is_empty() {
        return line;
    }
    let run: u64 = drawn.iter().map(|d| d.puzzles_run).sum();
    let of: u64 = drawn.iter().map(|d| d.puzzles_in_source).sum();
    let puzzles = match run < of {
        true => format!(
            "{} of their {} puzzles",
            crate::stats::thousands(run),
            crate::stats::thousands(of)
        ),
        false => format!("{} puzzles", crate::stats::thousands(run)),
    };
    format!(
        "{} dataset{}, {puzzles}; {line}",
        drawn.len(),
        if drawn.len() == 1 { "" } else { "s" }
    )
}

/// [`run_line`] for a scaling run's chart: the thread counts it ran,
/// from the first count's record (every count's options but the threads
/// are the same).
pub fn counts_line(
    info: &crate::harness::RunInfo,
    puzzles: Option<(&str, u64, u64)>,
    counts: &[usize],
) -> String {
    let counts: Vec<String> = counts.iter().map(usize::to_string).collect();
    described(info, puzzles, format!("threads {}", counts.join(", ")))
}

fn described(
    info: &crate::harness::RunInfo,
    puzzles: Option<(&str, u64, u64)>,
    threads: String,
) -> String {
    let o = &info.options;
    let mut s = match puzzles {
        Some((name, n, of)) if n < of => format!(
            "{name}: {} of its {} puzzles; ",
            crate::stats::thousands(n),
            crate::stats::thousands(of)
        ),
        Some((name, n, _)) => format!("{name}: {} puzzles; ", crate::stats::thousands(n)),
        None => String::new(),
    };
    // The dataset's own rounds (fewer than asked on a small one); across
    // datasets, the most any was measured in.
    let (rounds, up_to) = match puzzles {
        Some((name, _, _)) => (info.rounds_of(name), ""),
        None => {
            let most = info.most_rounds();
            let fewer = info.datasets.iter().any(|d| info.rounds_of(&d.name) < most);
            (most, if fewer { "up to " } else { "" })
        }
    };
    s += &format!(
        "mode {}, {threads}, {up_to}{rounds} round{}, {}; {}",
        o.mode,
        if rounds == 1 { "" } else { "s" },
        measure_words(o.measure),
        machine_line(info)
    );
    s
}

/// What a run measured, for a data line: `timed`, `instructions counted by
/// callgrind`, or the CPU's counters read.
pub fn measure_words(m: crate::harness::plan::Measure) -> String {
    use crate::harness::plan::Measure;
    match m {
        Measure::Time => "timed".into(),
        Measure::Instructions => "instructions counted by callgrind".into(),
        Measure::Counters(events) => format!("timed, counters {}", Measure::Counters(events)),
    }
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
    let svg = outline::outline_svg(&draw_svg(chart, data, size)?, &format!("{stem}-g"))?;
    crate::files::write(dir.join(format!("{stem}.svg")), &svg).map_err(err)?;
    let png = figure::png(&svg, size)?;
    crate::files::write(dir.join(format!("{stem}.png")), png).map_err(err)?;
    Ok(svg)
}

/// `chart` drawn at `size` as SVG text, `data` under it.
pub fn draw_svg<C: Chart>(chart: &C, data: &str, size: &figure::Size) -> Result<String, DrawError> {
    register_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size.px).into_drawing_area();
        draw_with_line(chart, &root, data)?;
    }
    Ok(svg)
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
    for text in [chart.key().unwrap_or_default().as_str(), data] {
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

/// A log-axis range padded around positive values.
pub fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for v in values.filter(|v| *v > 0.0 && v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return 0.1..10.0;
    }
    (lo / 2.0)..(hi * 2.0)
}

/// A log axis over `r` with the grid every log chart shares: bold lines and
/// labels at 1, 2 and 5 times the powers of ten (only at the powers of ten when
/// the range spans more than three decades), light lines at the other whole
/// multiples; so no stretch of the axis gets denser lines than another.
pub fn log_axis(r: std::ops::Range<f64>) -> WithKeyPoints<LogCoord<f64>> {
    log_axis_labels(r, usize::MAX)
}

/// A [`log_axis`] for the x axis of a chart drawn on `root`: labels only at
/// the powers of ten where 1, 2 and 5 would crowd its width.
pub fn log_x_axis<DB: DrawingBackend>(
    r: std::ops::Range<f64>,
    root: &DrawingArea<DB, Shift>,
) -> WithKeyPoints<LogCoord<f64>> {
    let room = root.dim_in_pixel().0.saturating_sub(140) as usize;
    log_axis_labels(r, (room / 64).max(2))
}

/// A [`log_axis`] over `r` whose labels and grid are chosen for the data's
/// range `data` alone, at most `most` labels (every other power of ten, or
/// fewer, where even those would crowd): a chart that keeps room above its
/// data for a legend gets its 1-2-5 labels where the data is, not only the
/// powers of ten of the whole axis.
pub fn log_axis_over(
    r: std::ops::Range<f64>,
    data: std::ops::Range<f64>,
    most: usize,
) -> WithKeyPoints<LogCoord<f64>> {
    let (bold, light) = log_points(data, most);
    r.log_scale().with_key_points(bold).with_light_points(light)
}

/// A y axis by [`log_axis_over`] for a chart drawn on `root`, as many
/// labels as the data's share of the plot's height holds (one a 1.4 text
/// heights): the room a legend keeps above the data has no tick.
pub fn log_y_axis_over<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    r: std::ops::Range<f64>,
    data: std::ops::Range<f64>,
) -> WithKeyPoints<LogCoord<f64>> {
    let share = ((data.end / data.start).ln() / (r.end / r.start).ln()).clamp(0.0, 1.0);
    let share = if share.is_finite() { share } else { 1.0 };
    let data_px = (root.dim_in_pixel().1 as f64 - 130.0) * share;
    let most = (data_px / (TEXT as f64 * 1.4)).floor().max(2.0) as usize;
    log_axis_over(r, data, most)
}

/// A [`log_axis`] with at most `most` labels where fewer will do.
fn log_axis_labels(r: std::ops::Range<f64>, most: usize) -> WithKeyPoints<LogCoord<f64>> {
    let (bold, light) = log_points(r.clone(), most);
    r.log_scale().with_key_points(bold).with_light_points(light)
}

/// The labelled and the light points of a log axis over `r`.
fn log_points(r: std::ops::Range<f64>, most: usize) -> (Vec<f64>, Vec<f64>) {
    let (lo, hi) = (r.start, r.end);
    let decades = (hi.log10().floor() - lo.log10().ceil()) as usize + 1;
    let labelled: &[u32] = if hi / lo > 1e3 || 3 * decades > most && decades >= 2 {
        &[1]
    } else {
        &[1, 2, 5]
    };
    let (mut bold, mut light) = (Vec::new(), Vec::new());
    let mut decade = 10f64.powi(lo.log10().floor() as i32);
    while decade <= hi {
        for m in 1..10u32 {
            let v = decade * m as f64;
            if (lo..=hi).contains(&v) {
                // A label at the axis's far end would stick out of the
                // plot, into the title above a y axis.
                let at_end = (hi / v).ln() < 0.03 * (hi / lo).ln();
                if labelled.contains(&m) && !at_end {
                    bold.push(v);
                } else {
                    light.push(v);
                }
            }
        }
        decade *= 10.0;
    }
    if bold.len() < 2 {
        // A narrow range: every whole multiple gets a label.
        bold.append(&mut light);
        bold.sort_by(f64::total_cmp);
    }
    if bold.len() > most.max(2) {
        // Too many even at the powers of ten: every k-th keeps its label.
        let k = bold.len().div_ceil(most.max(2));
        let all = std::mem::take(&mut bold);
        for (i, v) in all.into_iter().enumerate() {
            match i % k {
                0 => bold.push(v),
                _ => light.push(v),
            }
        }
        light.sort_by(f64::total_cmp);
    }
    (bold, light)
}

/// The coordinates of a chart with two [`log_axis`] axes.
pub type LogLog = Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>;

/// Draws the grid, labels and axis names of a chart with two log axes.
pub fn log_log_mesh<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, LogLog>,
    x_desc: &str,
    y_desc: &str,
) -> Result<(), DrawError> {
    let (w, h) = chart.plotting_area().dim_in_pixel();
    chart
        .configure_mesh()
        .x_desc(fit(x_desc, w as f64))
        .y_desc(fit(y_desc, h as f64))
        .x_label_formatter(&|v| compact(*v))
        .y_label_formatter(&|v| compact(*v))
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, AXIS))
        .draw()
        .map_err(err)
}

/// Formats a value on a log axis compactly (1, 10, 100, 1k, 10k, 1M).
pub fn compact(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e3 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

fn trim(v: f64) -> String {
    let s = if v >= 10.0 {
        format!("{v:.0}")
    } else if v == 0.0 || v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        // Two significant digits below 1 (0.5, 0.015, 0.0025), never "0".
        let places = (-v.abs().log10().floor()) as usize + 1;
        format!("{v:.places$}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The share axis, 0 to `top` (above 100%, the legend's room): a label
/// every 20%, or every 25% or 50% where the shares' height (`share` of the
/// plot's) holds fewer, light lines every 10%, no tick above 100%.
pub fn share_axis<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    top: f64,
    share: f64,
) -> Ticked {
    let px = (root.dim_in_pixel().1 as f64 - 130.0) * share;
    let fit = px / (TEXT as f64 * 1.4);
    let k = [5, 4, 2]
        .into_iter()
        .find(|&k| fit >= k as f64 + 1.0)
        .unwrap_or(1);
    Ticked {
        range: 0.0..top,
        bold: (0..=k).map(|i| i as f64 / k as f64).collect(),
        light: (0..=10).map(|i| i as f64 / 10.0).collect(),
    }
}

/// The coordinates of a chart with one row per name and a log x axis.
pub type Rows = Cartesian2d<WithKeyPoints<LogCoord<f64>>, Ticked>;

/// A linear axis over `range` ticked at `bold` (labelled) and `light`
/// alone: none in the room a chart keeps past its data for a legend.
#[derive(Clone, Debug)]
pub struct Ticked {
    /// The axis's span.
    pub range: std::ops::Range<f64>,
    /// Labelled ticks and grid lines.
    pub bold: Vec<f64>,
    /// Light grid lines.
    pub light: Vec<f64>,
}

impl Ranged for Ticked {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;
    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let share = (v - self.range.start) / (self.range.end - self.range.start);
        (limit.0 as f64 + (limit.1 - limit.0) as f64 * share).round() as i32
    }
    fn key_points<H: plotters::coord::ranged1d::KeyPointHint>(&self, hint: H) -> Vec<f64> {
        match hint.weight().allow_light_points() {
            true => self.light.clone(),
            false => self.bold.clone(),
        }
    }
    fn range(&self) -> std::ops::Range<f64> {
        self.range.clone()
    }
}

/// A chart with one row per name (the first at the top, at y = n−1) over a log
/// x axis, its mesh and labels drawn; `x_label` formats the x axis.
pub fn rows_chart<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
    x: std::ops::Range<f64>,
    names: &[String],
    x_label: &dyn Fn(&f64) -> String,
    x_desc: &str,
) -> Result<ChartContext<'a, DB, Rows>, DrawError> {
    rows_chart_with_room(root, title, x, names, x_label, x_desc, 0.0)
}

/// [`rows_chart`] with `room` empty rows' height above the first row (for
/// a legend of its own). `x_desc` may hold several names for the axis, one
/// a line, longest first: the first that fits is drawn ([`fit_any`]).
pub fn rows_chart_with_room<'a, DB: DrawingBackend + 'a>(
    root: &'a DrawingArea<DB, Shift>,
    title: &str,
    x: std::ops::Range<f64>,
    names: &[String],
    x_label: &dyn Fn(&f64) -> String,
    x_desc: &str,
    room: f64,
) -> Result<ChartContext<'a, DB, Rows>, DrawError> {
    let n = names.len().max(1) as f64 + room;
    let widest = names
        .iter()
        .map(|l| text_width(l, TEXT as f64 / 1.24))
        .fold(0.0, f64::max);
    let labels = widest as u32 + 16;
    let plot = root.dim_in_pixel().0.saturating_sub(labels + 46) as f64;
    let descs: Vec<String> = x_desc.lines().map(str::to_string).collect();
    let x_desc = fit_any(&descs, plot);
    let mut chart = frame(root, title)
        .y_label_area_size(labels)
        .build_cartesian_2d(
            log_x_axis(x, root),
            // A tick at each name's row, none in the room above them.
            Ticked {
                range: -0.5..n - 0.5,
                bold: (0..names.len()).map(|i| i as f64).collect(),
                light: Vec::new(),
            },
        )
        .map_err(err)?;
    let label = row_label(names);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_label_formatter(&label)
        .x_label_formatter(x_label)
        .x_desc(x_desc)
        .label_style((FONT, TEXT))
        .axis_desc_style((FONT, AXIS))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

/// The y-label formatter of a chart with one row per name, the first at the top
/// (rows sit at y = 0 … n−1, bottom up).
pub fn row_label(names: &[String]) -> impl Fn(&f64) -> String + '_ {
    let n = names.len() as f64;
    move |y: &f64| {
        let i = y.round();
        if (y - i).abs() > 1e-6 || i < 0.0 || i >= n {
            return String::new();
        }
        names[(n - 1.0 - i) as usize].clone()
    }
}

/// Most points a curve is drawn from, whatever the number of puzzles.
pub const CURVE_POINTS: usize = 2000;

/// A sorted sample as a chart draws it: its size, and `(1-based rank, value)`
/// at every rank up to [`CURVE_POINTS`] / 2 values, else at [`CURVE_POINTS`]
/// evenly spaced ranks (first and last included), which a chart cannot tell
/// apart from every point.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Curve {
    /// Values in the sample.
    pub n: usize,
    /// `(rank, value)`, by rank.
    pub points: Vec<(usize, f64)>,
}

impl Curve {
    /// The curve of `n` sorted values, `value(rank)` giving the value of a 1-based rank.
    pub fn from_ranks(n: usize, mut value: impl FnMut(usize) -> f64) -> Curve {
        let points = if n <= CURVE_POINTS / 2 {
            (1..=n).map(|r| (r, value(r))).collect()
        } else {
            thin(n).map(|i| (i + 1, value(i + 1))).collect()
        };
        Curve { n, points }
    }

    /// The curve of sorted values held in memory.
    pub fn from_sorted(sorted: &[f64]) -> Curve {
        Curve::from_ranks(sorted.len(), |r| sorted[r - 1])
    }

    /// True without values.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The values drawn.
    pub fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.points.iter().map(|p| p.1)
    }

    /// The empirical distribution: `(value, share at or below it)`, as steps
    /// when every value is held.
    pub fn ecdf(&self) -> Vec<(f64, f64)> {
        let n = self.n.max(1) as f64;
        if self.points.len() == self.n {
            let mut pts = Vec::with_capacity(2 * self.n);
            for &(r, v) in &self.points {
                pts.push((v, (r - 1) as f64 / n));
                pts.push((v, r as f64 / n));
            }
            return pts;
        }
        self.points
            .iter()
            .map(|&(r, v)| (v, r as f64 / n))
            .collect()
    }
}

/// The step curve of an empirical distribution of `sorted` values (see [`Curve`]).
pub fn ecdf(sorted: &[f64]) -> Vec<(f64, f64)> {
    Curve::from_sorted(sorted).ecdf()
}

/// Up to [`CURVE_POINTS`] evenly spaced indices into `0..n`, first and last included.
pub fn thin(n: usize) -> impl Iterator<Item = usize> {
    let k = n.min(CURVE_POINTS);
    (0..k).map(move |j| if k < 2 { 0 } else { j * (n - 1) / (k - 1) })
}

/// Most dots a scatter plot draws; beyond, a seeded sample of this many.
pub const MAX_DOTS: usize = 5000;

/// The dots a scatter plot draws: all of them up to [`MAX_DOTS`], else a
/// seeded random sample of that many (the same data give the same sample), in order.
pub fn dots<T: Copy>(points: &[T]) -> Vec<T> {
    use rand::SeedableRng;
    if points.len() <= MAX_DOTS {
        return points.to_vec();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x5EED_D075);
    let mut idx = rand::seq::index::sample(&mut rng, points.len(), MAX_DOTS).into_vec();
    idx.sort_unstable();
    idx.into_iter().map(|i| points[i]).collect()
}

/// The sentence a scatter plot's caption ends with when it drew a sample:
/// `points` dots were available out of a dataset of `population` puzzles
/// (`None`: every puzzle was available).
pub fn sampled_note(points: usize, population: Option<u64>) -> String {
    let drawn = points.min(MAX_DOTS);
    match population {
        Some(n) if (drawn as u64) < n => format!(
            " Drawn from a seeded random sample of {drawn} of the {n} puzzles (counts are over the sample)."
        ),
        _ if drawn < points => {
            format!(" Drawn from a seeded random sample of {drawn} of the {points} puzzles.")
        }
        _ => String::new(),
    }
}

/// Markers along a line: this many, evenly spread over its points.
const MARKS_ON_A_LINE: usize = 8;

/// Draws one strategy's line in slot `slot`'s colour, with its markers spread
/// along it (so it reads in grayscale), and its legend entry (a stroke and
/// the marker).
pub fn labelled_line<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    name: &str,
    slot: usize,
    points: Vec<(f64, f64)>,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    let c = color(slot);
    let n = points.len();
    // Staggered by slot, so two lines that run together keep their marks apart.
    let marks: Vec<(f64, f64)> = (0..MARKS_ON_A_LINE.min(n))
        .map(|k| {
            let at = (2 * k + 1) * n / (2 * MARKS_ON_A_LINE.min(n));
            points[(at + slot * n / 97) % n]
        })
        .collect();
    chart
        .draw_series(LineSeries::new(points, c.stroke_width(2)))
        .map_err(err)?
        .label(name)
        .legend(move |p| legend_mark(p, slot, true));
    draw_marks(chart, marks, slot, 9)
}

/// A line of the legend with no series: a strategy drawn nowhere on the
/// chart (it solved none), named so that it is not dropped silently.
pub fn legend_note<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    text: &str,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    chart
        .draw_series(std::iter::empty::<
            EmptyElement<(X::ValueType, Y::ValueType), DB>,
        >())
        .map_err(err)?
        .label(text)
        .legend(|p| {
            PathElement::new(
                vec![(p.0 + 2, p.1), (p.0 + 22, p.1)],
                BLACK.mix(0.4).stroke_width(1),
            )
        });
    Ok(())
}

/// A share as a y label, `40%`; none above 100% (the room a legend takes).
pub fn share_label(v: &f64) -> String {
    if *v <= 1.0 + 1e-9 {
        format!("{:.0}%", v * 100.0)
    } else {
        String::new()
    }
}

/// The legend of a chart of [`Line`]s: theirs, then a line naming each
/// strategy in `unsolved` (drawn nowhere), kept clear of `paths`.
pub fn lines_legend<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    lines: &[Line],
    unsolved: &[String],
    paths: &[Vec<(X::ValueType, Y::ValueType)>],
    preferred: SeriesLabelPosition,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    for u in unsolved {
        legend_note(chart, u)?;
    }
    let labels: Vec<String> = lines
        .iter()
        .map(|l| l.label.clone())
        .chain(unsolved.iter().cloned())
        .collect();
    legend(chart, &labels, paths, preferred)
}

/// The legend box, the same style in every chart, in the first place among
/// `preferred` and then the four corners where it covers no part of the
/// `avoid` paths (data coordinates; a path of one point is a mark), else
/// where it covers the least. `labels` are the legend's lines, to size it.
pub fn legend<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    labels: &[String],
    avoid: &[Vec<(X::ValueType, Y::ValueType)>],
    preferred: SeriesLabelPosition,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    let spot = legend_spot(chart, labels, avoid, preferred);
    legend_at(chart, spot)
}

/// Where [`legend`] would put its box: its top-left corner within the plot,
/// and its box in the backend's pixels `(left, top, right, bottom)`, so
/// that labels placed before it is drawn can keep clear of it.
pub fn legend_spot<'a, DB, X, Y>(
    chart: &ChartContext<'a, DB, Cartesian2d<X, Y>>,
    labels: &[String],
    avoid: &[Vec<(X::ValueType, Y::ValueType)>],
    preferred: SeriesLabelPosition,
) -> ((i32, i32), (i32, i32, i32, i32))
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    let font = (FONT, TEXT).into_font();
    let area = chart.plotting_area();
    let base = area.get_base_pixel();
    let dims = area.dim_in_pixel();
    let width = labels
        .iter()
        .map(|l| {
            area.estimate_text_size(l, &TextStyle::from(font.clone()))
                .map_or(0, |d| d.0 as i32)
        })
        .max()
        .unwrap_or(0);
    // plotters' layout: a 30 px column for the marks, 10 px margins, lines
    // 1.25 text heights apart.
    let n = labels.len().max(1) as f64;
    let size = (
        width + 30 + 20,
        ((n - 1.0) * TEXT as f64 * 1.25 + TEXT as f64) as i32 + 20,
    );
    let paths: Vec<Vec<(i32, i32)>> = avoid
        .iter()
        .map(|p| {
            p.iter()
                .map(|v| {
                    let (x, y) = chart.backend_coord(v);
                    (x - base.0, y - base.1)
                })
                .collect()
        })
        .collect();
    let at = legend_place(size, dims, &paths, preferred);
    let (x, y) = (base.0 + at.0, base.1 + at.1);
    (at, (x, y, x + size.0, y + size.1))
}

/// Draws the legend box with its top-left corner at `spot` (from
/// [`legend_spot`]), in the style every chart shares.
pub fn legend_at<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    spot: ((i32, i32), (i32, i32, i32, i32)),
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    let at = spot.0;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::Coordinate(at.0, at.1))
        .background_style(WHITE.filled())
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, TEXT).into_font())
        .draw()
        .map_err(err)
}

/// Where a legend box of `size` pixels goes in a plot of `dims` pixels:
/// the top-left corner of the first place (`preferred`, then the corners,
/// then the edges' middles) that no path of `paths` (pixels) enters, else
/// of the place that the fewest path points enter.
pub fn legend_place(
    size: (i32, i32),
    dims: (u32, u32),
    paths: &[Vec<(i32, i32)>],
    preferred: SeriesLabelPosition,
) -> (i32, i32) {
    use SeriesLabelPosition::*;
    let (w, h) = (dims.0 as i32, dims.1 as i32);
    let place = |p: &SeriesLabelPosition| -> (i32, i32) {
        let x = match p {
            UpperLeft | MiddleLeft | LowerLeft => 5,
            UpperMiddle | MiddleMiddle | LowerMiddle => (w - size.0) / 2,
            _ => w - size.0 - 5,
        };
        let y = match p {
            UpperLeft | UpperMiddle | UpperRight => 5,
            MiddleLeft | MiddleMiddle | MiddleRight => (h - size.1) / 2,
            _ => h - size.1 - 5,
        };
        match p {
            Coordinate(x, y) => (*x, *y),
            _ => (x, y),
        }
    };
    // Points along each path, at most 3 px apart, and a 4 px clearance.
    let covered = |(x0, y0): (i32, i32)| -> usize {
        let inside = |(x, y): (f64, f64)| {
            x >= (x0 - 4) as f64
                && x <= (x0 + size.0 + 4) as f64
                && y >= (y0 - 4) as f64
                && y <= (y0 + size.1 + 4) as f64
        };
        let mut n = 0;
        for path in paths {
            if let [p] = path.as_slice() {
                n += inside((p.0 as f64, p.1 as f64)) as usize;
            }
            for seg in path.windows(2) {
                let (a, b) = (seg[0], seg[1]);
                let len = ((b.0 - a.0) as f64).hypot((b.1 - a.1) as f64);
                let steps = (len / 3.0).ceil().clamp(1.0, 2000.0) as usize;
                n += (0..=steps)
                    .map(|k| {
                        let t = k as f64 / steps as f64;
                        (
                            a.0 as f64 + t * (b.0 - a.0) as f64,
                            a.1 as f64 + t * (b.1 - a.1) as f64,
                        )
                    })
                    .filter(|&p| inside(p))
                    .count();
            }
        }
        n
    };
    let places = [
        preferred,
        UpperLeft,
        UpperRight,
        LowerRight,
        LowerLeft,
        UpperMiddle,
        LowerMiddle,
        MiddleLeft,
        MiddleRight,
    ];
    let mut best = (usize::MAX, place(&places[0]));
    for p in &places {
        let at = place(p);
        let n = covered(at);
        if n == 0 {
            return at;
        }
        if n < best.0 {
            best = (n, at);
        }
    }
    best.1
}

/// For tests: the first point of the data (a vertex of a line or area,
/// or a mark's centre) that the legend box of chart SVG `svg` covers.
#[cfg(test)]
pub(crate) fn legend_covers(svg: &str) -> Option<(f64, f64)> {
    let doc = roxmltree::Document::parse(svg).expect("an SVG");
    let nodes: Vec<_> = doc.descendants().filter(|n| n.is_element()).collect();
    // The legend's box: opaque white, and not the canvas.
    let at = nodes.iter().position(|n| {
        n.has_tag_name("rect")
            && n.attribute("fill") == Some("#FFFFFF")
            && n.attribute("opacity") == Some("1")
            && (n.attribute("x"), n.attribute("y")) != (Some("0"), Some("0"))
    })?;
    let num = |a: &str| nodes[at].attribute(a).unwrap().parse::<f64>().unwrap();
    let (x0, y0) = (num("x"), num("y"));
    let (x1, y1) = (x0 + num("width"), y0 + num("height"));
    let inside =
        |&(x, y): &(f64, f64)| x > x0 + 1.0 && x < x1 - 1.0 && y > y0 + 1.0 && y < y1 - 1.0;
    nodes[..at].iter().find_map(|n| {
        let points = match n.tag_name().name() {
            "polyline" | "polygon" => n.attribute("points")?.to_string(),
            "circle" => format!("{},{}", n.attribute("cx")?, n.attribute("cy")?),
            _ => return None,
        };
        let found = points.split_whitespace().find_map(|p| {
            let (x, y) = p.split_once(',')?;
            Some((x.parse::<f64>().ok()?, y.parse::<f64>().ok()?)).filter(inside)
        });
        found
    })
}

#[cfg(test)]
mod tests {
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
}
