//! Legends: where a box goes clear of the data, the room kept for one, and
//! labels set on lines.

use super::{color, draw_marks, err, legend_mark, DrawError, Line, FONT, TEXT};
use plotters::chart::SeriesAnno;
use plotters::coord::Shift;
use plotters::element::IntoDynElement;
use plotters::prelude::*;

/// Markers along a line: this many, evenly spread over its points.
const MARKS_ON_A_LINE: usize = 8;

/// Draws one strategy's line in slot `slot`'s colour, with its markers spread
/// along it (so it reads in grayscale), and its legend entry (a stroke and
/// the marker).
pub fn labelled_line<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    key: &mut Key<'a, DB>,
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
    let anno = chart
        .draw_series(LineSeries::new(points, c.stroke_width(2)))
        .map_err(err)?;
    key.add(anno, name, move |p| legend_mark(p, slot, true));
    draw_marks(chart, marks, slot, 9)
}

/// A line of the legend with no series: a strategy drawn nowhere on the
/// chart (it solved none), named so that it is not dropped silently.
pub fn legend_note<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    key: &mut Key<'a, DB>,
    text: &str,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    let anno = chart
        .draw_series(std::iter::empty::<
            EmptyElement<(X::ValueType, Y::ValueType), DB>,
        >())
        .map_err(err)?;
    key.add(anno, text, |p| {
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

/// The legend's lines of a chart of [`Line`]s: theirs, then each strategy
/// in `unsolved` (drawn nowhere).
pub fn lines_labels(lines: &[Line], unsolved: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.label.clone())
        .chain(unsolved.iter().cloned())
        .collect()
}

/// The legend of a chart of [`Line`]s outside its plot, where [`outside`]
/// made room for it: the lines' entries in `key`, then a line naming each
/// strategy in `unsolved` (drawn nowhere).
pub fn lines_legend_outside<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    key: &mut Key<'a, DB>,
    unsolved: &[String],
    room: &Outside<DB>,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    for u in unsolved {
        legend_note(chart, key, u)?;
    }
    legend_outside(chart, key, room)
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
    let area = chart.plotting_area();
    let base = area.get_base_pixel();
    let dims = area.dim_in_pixel();
    let size = legend_size(area, labels);
    let paths = pixel_paths(chart, avoid);
    let at = legend_place(size, dims, &paths, preferred);
    let (x, y) = (base.0 + at.0, base.1 + at.1);
    (at, (x, y, x + size.0, y + size.1))
}

/// The size in pixels of the legend box of `labels` drawn on `area`:
/// plotters' layout, a 30 px column for the marks, 10 px margins, lines
/// 1.25 text heights apart.
fn legend_size<DB: DrawingBackend, C>(area: &DrawingArea<DB, C>, labels: &[String]) -> (i32, i32)
where
    C: plotters::coord::CoordTranslate,
{
    let font = TextStyle::from((FONT, TEXT).into_font());
    let width = labels
        .iter()
        .map(|l| area.estimate_text_size(l, &font).map_or(0, |d| d.0 as i32))
        .max()
        .unwrap_or(0);
    let n = labels.len().max(1) as f64;
    (
        width + 30 + 20,
        ((n - 1.0) * TEXT as f64 * 1.25 + TEXT as f64) as i32 + 20,
    )
}

/// A legend's entries, gathered as a chart draws its series: each label
/// with the mark drawn before it. Each entry is given to plotters' legend
/// too, which draws only inside the plot; [`legend_outside`] draws the
/// entries outside it.
pub struct Key<'a, DB: DrawingBackend> {
    entries: Vec<(String, Mark<'a, DB>)>,
}

/// A point on the canvas, in pixels.
type BackendCoord = (i32, i32);

/// A legend entry's mark, drawn on an area with its left end at a point.
type Mark<'a, DB> =
    Box<dyn Fn(&DrawingArea<DB, Shift>, BackendCoord) -> Result<(), DrawError> + 'a>;

impl<'a, DB: DrawingBackend + 'a> Default for Key<'a, DB> {
    fn default() -> Self {
        Key {
            entries: Vec::new(),
        }
    }
}

impl<'a, DB: DrawingBackend + 'a> Key<'a, DB> {
    /// Labels `anno` (a series just drawn) with `label` and `mark`, for
    /// plotters' legend and this one.
    pub fn add<E, F>(&mut self, anno: &mut SeriesAnno<'a, DB>, label: impl Into<String>, mark: F)
    where
        E: IntoDynElement<'a, DB, BackendCoord> + 'a,
        F: Fn(BackendCoord) -> E + Clone + 'a,
    {
        let label = label.into();
        anno.label(label.clone()).legend(mark.clone());
        let mark: Mark<'a, DB> =
            Box::new(move |area, p| area.draw(&mark(p).into_dyn()).map_err(err));
        self.entries.push((label, mark));
    }

    /// The entries' labels, in order.
    pub fn labels(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.0.clone()).collect()
    }
}

/// Room made outside a plot for its legend (see [`outside`]).
pub struct Outside<DB: DrawingBackend> {
    /// The canvas's part the legend goes on.
    area: DrawingArea<DB, Shift>,
    /// To the right of the plot, else under it.
    beside: bool,
    /// The legend's columns and lines, and a column's width.
    grid: (usize, usize, f64),
}

/// A wide canvas gives its legend at most this share of its width beside the plot.
const BESIDE_AT_MOST: f64 = 0.36;

/// The least height in pixels of a chart's part of the canvas (its title,
/// plot and axes) with its legend under it: about 240 px of data. Where a
/// legend leaves less, the figure is drawn again that much taller (see
/// [`super::draw_svg`]).
const LEAST_PLOT: i32 = 360;

thread_local! {
    /// How much taller the figure being drawn on this thread needs to be.
    static SHORT: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

/// Starts a figure's drawing: nothing is short yet.
pub(super) fn short_reset() {
    SHORT.with(|s| s.set(0));
}

/// How many pixels taller the figure drawn since [`short_reset`] needs to
/// be for each plot to keep [`LEAST_PLOT`] with its legend under it.
pub(super) fn short_by() -> u32 {
    SHORT.with(|s| s.get()).max(0) as u32
}

/// Splits `root` into the part a chart is drawn on and room outside it
/// for the legend of `labels`, so that the legend covers no data and the
/// data keeps the plot's whole height: beside the plot on a canvas 700 px
/// wide or more (a double-column figure) where the box takes at most about
/// a third of the width, else under it, in as many columns as fit (the
/// figure is then drawn taller where the plot would keep less than
/// [`LEAST_PLOT`]).
pub fn outside<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    labels: &[String],
) -> (DrawingArea<DB, Shift>, Outside<DB>) {
    let (w, h) = (root.dim_in_pixel().0 as i32, root.dim_in_pixel().1 as i32);
    let (bw, _) = legend_size(root, labels);
    let n = labels.len().max(1);
    let text = TEXT as f64;
    let height = |lines: usize| ((lines as f64 - 1.0) * text * 1.25 + text) as i32 + 20;
    if w >= 700 && bw as f64 <= BESIDE_AT_MOST * w as f64 {
        let (plot, area) = root.split_horizontally(w - bw - 4);
        let grid = (1, n, (bw - 20 + 16) as f64);
        let beside = true;
        (plot, Outside { area, beside, grid })
    } else {
        // Columns 16 px apart, as many as the canvas holds.
        let col_w = (bw - 20 + 16) as f64;
        let cols = (((w - 16 - 20 + 16) as f64 / col_w).floor() as usize).clamp(1, n);
        let lines = n.div_ceil(cols);
        // The plot's bottom margin (16 px) is part of the gap.
        let cut = h - height(lines) - 6;
        SHORT.with(|s| s.set(s.get().max(LEAST_PLOT - cut)));
        let cut = cut.max(h / 3);
        let (plot, area) = root.split_vertically(cut);
        let grid = (cols, lines, col_w);
        let beside = false;
        (plot, Outside { area, beside, grid })
    }
}

/// [`outside`] unless `inside` (the legend has a place in the plot, or
/// there is none to draw): the chart's part of `root`, and the room made.
pub fn outside_unless<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    labels: &[String],
    inside: bool,
) -> (DrawingArea<DB, Shift>, Option<Outside<DB>>) {
    match inside {
        true => (root.clone(), None),
        false => {
            let (area, room) = outside(root, labels);
            (area, Some(room))
        }
    }
}

/// Draws `key` where [`outside`] made room for it, beside the plot level
/// with its top, or under it, centred under the plot as far as the canvas
/// allows; in the style of every legend.
pub fn legend_outside<'a, DB, X, Y>(
    chart: &ChartContext<'a, DB, Cartesian2d<X, Y>>,
    key: &Key<'a, DB>,
    room: &Outside<DB>,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    let plot = chart.plotting_area();
    let (px, py) = plot.get_base_pixel();
    let pw = plot.dim_in_pixel().0 as i32;
    let (ax, ay) = room.area.get_base_pixel();
    let (cols, lines, col_w) = room.grid;
    let at = match room.beside {
        true => (0, py - ay),
        false => {
            let bw = (cols as f64 * col_w - 16.0 + 20.0) as i32;
            // The y labels' room is free under the axis.
            let right = px + pw + 26;
            let x = match bw > pw {
                // Wider than the plot: centred on the canvas.
                true => ax + (room.area.dim_in_pixel().0 as i32 - bw) / 2,
                false => (px + (pw - bw) / 2).min(right - bw),
            };
            (x.max(ax + 8) - ax, 0)
        }
    };
    let names = key.labels();
    let mark = |area: &DrawingArea<DB, Shift>, j: usize, p: (i32, i32)| (key.entries[j].1)(area, p);
    columns_legend(&room.area, &names, (cols, lines, col_w), at, &mark)
}

/// `avoid`'s paths in pixels from the plot's top-left corner.
fn pixel_paths<'a, DB, X, Y>(
    chart: &ChartContext<'a, DB, Cartesian2d<X, Y>>,
    avoid: &[Vec<(X::ValueType, Y::ValueType)>],
) -> Vec<Vec<(i32, i32)>>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    let base = chart.plotting_area().get_base_pixel();
    avoid
        .iter()
        .map(|p| {
            p.iter()
                .map(|v| {
                    let (x, y) = chart.backend_coord(v);
                    (x - base.0, y - base.1)
                })
                .collect()
        })
        .collect()
}

/// Whether [`legend`] finds a place for its box that covers none of
/// `avoid` (data coordinates) in `chart`: a chart that would keep room
/// above its data for a legend needs none where this holds.
pub fn legend_fits<'a, DB, X, Y>(
    chart: &ChartContext<'a, DB, Cartesian2d<X, Y>>,
    labels: &[String],
    avoid: &[Vec<(X::ValueType, Y::ValueType)>],
    preferred: SeriesLabelPosition,
) -> bool
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    let (at, b) = legend_spot(chart, labels, avoid, preferred);
    let paths = pixel_paths(chart, avoid);
    covered((b.2 - b.0, b.3 - b.1), at, &paths) == 0
}

/// Whether a log-log chart titled `title` over `x` and `y` on `root`,
/// with no room kept above its data, has a place for its legend that
/// covers none of `marks` ([`legend_fits`]): laid out on a scratch canvas
/// of `root`'s size, as [`super::frame`] lays it out there.
pub fn legend_fits_log_log<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    (x, y): (std::ops::Range<f64>, std::ops::Range<f64>),
    labels: &[String],
    marks: &[Vec<(f64, f64)>],
    preferred: SeriesLabelPosition,
) -> Result<bool, DrawError> {
    let mut scratch = String::new();
    let area = SVGBackend::with_string(&mut scratch, root.dim_in_pixel()).into_drawing_area();
    let chart = super::frame(&area, title)
        .build_cartesian_2d(
            super::log_x_axis(x, &area),
            super::log_y_axis_over(&area, y.clone(), y),
        )
        .map_err(err)?;
    Ok(legend_fits(&chart, labels, marks, preferred))
}

/// A legend's marks drawn on an area: entry `j`'s at the left end of its
/// line, `(x, y)` (its 30 px column starts at `x`, `y` is the line's middle).
pub type DrawMark<'m, DB> =
    dyn Fn(&DrawingArea<DB, Shift>, usize, (i32, i32)) -> Result<(), DrawError> + 'm;

/// A legend of `names` in `cols` columns of `lines` lines, `col_w` px
/// apart, its box's top-left corner at `at` on `root`, in the style of
/// every legend (a white box, a grey border, each mark by `mark` in a
/// 30 px column before its name): where one column would take the height
/// the data needs.
pub fn columns_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    names: &[String],
    (cols, lines, col_w): (usize, usize, f64),
    at: (i32, i32),
    mark: &DrawMark<'_, DB>,
) -> Result<(), DrawError> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let text = TEXT as f64;
    let (x, y) = at;
    let w = (cols as f64 * col_w - 16.0 + 20.0) as i32;
    let h = ((lines as f64 - 1.0) * text * 1.25 + text) as i32 + 20;
    root.draw(&Rectangle::new([(x, y), (x + w, y + h)], WHITE.filled()))
        .map_err(err)?;
    root.draw(&Rectangle::new([(x, y), (x + w, y + h)], BLACK.mix(0.4)))
        .map_err(err)?;
    let style = (FONT, TEXT)
        .into_font()
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (j, name) in names.iter().enumerate() {
        let (col, line) = (j / lines.max(1), j % lines.max(1));
        let left = x + 10 + (col as f64 * col_w) as i32;
        let cy = y + 10 + (line as f64 * text * 1.25 + text / 2.0) as i32;
        mark(root, j, (left, cy))?;
        root.draw(&Text::new(name.clone(), (left + 30, cy), style.clone()))
            .map_err(err)?;
    }
    Ok(())
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
    let covered = |at: (i32, i32)| covered(size, at, paths);
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

/// How many points of `paths` (pixels; sampled at most 3 px apart along
/// a line) a legend box of `size` at `(x0, y0)` covers, with a 4 px
/// clearance.
fn covered(size: (i32, i32), (x0, y0): (i32, i32), paths: &[Vec<(i32, i32)>]) -> usize {
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
