//! Charts drawn with plotters from finished run data, one file per chart.
//! Each chart is drawn to SVG (kept as text for the HTML report) and to PNG.

pub mod cactus;
mod compare;
mod distribution;
pub mod hardness;
pub mod head_to_head;
mod hunt;
mod machines;
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
pub use hunt::HuntProgress;
pub use machines::MachineSpeed;
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

/// Chart size in pixels.
pub const SIZE: (u32, u32) = (960, 560);
/// The font family every chart uses (DejaVu Sans, embedded).
pub const FONT: &str = "sans-serif";

/// Registers the embedded font with plotters (once per process).
pub fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let bytes: &'static [u8] = include_bytes!("../../../assets/DejaVuSans.ttf");
        for style in [FontStyle::Normal, FontStyle::Bold] {
            plotters::style::register_font(FONT, style, bytes)
                .unwrap_or_else(|_| panic!("the embedded font loads"));
        }
    });
}

/// Tableau 10: one colour per strategy variant, the same in every chart of a report.
const PALETTE: [(u8, u8, u8); 10] = [
    (78, 121, 167),
    (242, 142, 43),
    (225, 87, 89),
    (118, 183, 178),
    (89, 161, 79),
    (237, 201, 72),
    (176, 122, 161),
    (255, 157, 167),
    (156, 117, 95),
    (186, 176, 172),
];

/// The colour of series `i`.
pub fn color(i: usize) -> RGBColor {
    let (r, g, b) = PALETTE[i % PALETTE.len()];
    RGBColor(r, g, b)
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
    b.caption(title, (FONT, 24))
        .margin(16)
        .x_label_area_size(44)
        .y_label_area_size(72);
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

/// Draws `chart` to `dir/NAME.svg` and `dir/NAME.png`.
pub fn render<C: Chart>(chart: &C, dir: &Path) -> Result<Rendered, DrawError> {
    register_font();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        chart.draw(&root)?;
        root.present().map_err(err)?;
    }
    std::fs::write(dir.join(format!("{}.svg", chart.name())), &svg).map_err(err)?;
    let png = dir.join(format!("{}.png", chart.name()));
    {
        let root = BitMapBackend::new(&png, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        chart.draw(&root)?;
        root.present().map_err(err)?;
    }
    Ok(Rendered {
        name: chart.name(),
        title: chart.title(),
        caption: chart.caption(),
        svg,
    })
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
    let (lo, hi) = (r.start, r.end);
    let labelled: &[u32] = if hi / lo > 1e3 { &[1] } else { &[1, 2, 5] };
    let (mut bold, mut light) = (Vec::new(), Vec::new());
    let mut decade = 10f64.powi(lo.log10().floor() as i32);
    while decade <= hi {
        for m in 1..10u32 {
            let v = decade * m as f64;
            if (lo..=hi).contains(&v) {
                if labelled.contains(&m) {
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
    r.log_scale().with_key_points(bold).with_light_points(light)
}

/// The coordinates of a chart with two [`log_axis`] axes.
pub type LogLog = Cartesian2d<WithKeyPoints<LogCoord<f64>>, WithKeyPoints<LogCoord<f64>>>;

/// Draws the grid, labels and axis names of a chart with two log axes.
pub fn log_log_mesh<'a, DB: DrawingBackend + 'a>(
    chart: &mut ChartContext<'a, DB, LogLog>,
    x_desc: &str,
    y_desc: &str,
) -> Result<(), DrawError> {
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&|v| compact(*v))
        .y_label_formatter(&|v| compact(*v))
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 16))
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
    } else if v == 0.0 || v.abs() >= 0.01 {
        format!("{v:.2}")
    } else {
        // Two significant digits below 0.01 (0.005, 0.0025), never "0".
        let places = (-v.abs().log10().floor()) as usize + 1;
        format!("{v:.places$}")
    };
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The coordinates of a chart with one row per name and a log x axis.
pub type Rows = Cartesian2d<WithKeyPoints<LogCoord<f64>>, plotters::coord::types::RangedCoordf64>;

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
    let n = names.len().max(1) as f64;
    let mut chart = frame(root, title)
        .y_label_area_size(150)
        .build_cartesian_2d(log_axis(x), -0.5..n - 0.5)
        .map_err(err)?;
    let label = row_label(names);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(names.len() + 2)
        .y_label_formatter(&label)
        .x_label_formatter(x_label)
        .x_desc(x_desc)
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 16))
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

/// Draws one strategy's line with its legend entry (a short stroke in its colour).
pub fn labelled_line<'a, DB, X, Y>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    name: &str,
    c: RGBColor,
    points: Vec<(f64, f64)>,
) -> Result<(), DrawError>
where
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged<ValueType = f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64>,
{
    chart
        .draw_series(LineSeries::new(points, c.stroke_width(2)))
        .map_err(err)?
        .label(name)
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
    Ok(())
}

/// Legend box in the corner, the same style in every chart.
pub fn legend<
    'a,
    DB: DrawingBackend + 'a,
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
>(
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    position: SeriesLabelPosition,
) -> Result<(), DrawError> {
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.4))
        .label_font((FONT, 14))
        .draw()
        .map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

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
