//! A study's cost curves: one line per strategy against the study's parameter
//! (clue count, or cells on a log axis), its 95% intervals as a band, censored
//! points hollow (in their strategy's marker shape) at their lower bound, an
//! interval with no upper end as an arrow running to the plot's top edge, a
//! fitted line where the study fitted one, and a ring on a peak the study
//! located.

use super::{color, compact, err, frame, log_range, Chart, DrawError, FONT};
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One point of a curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CurvePoint {
    /// The parameter: clue count, or cells.
    pub x: f64,
    /// The median cost (a lower bound when censored).
    pub value: f64,
    /// Its interval's lower end.
    pub lo: f64,
    /// Its upper end (`None`: unbounded).
    pub hi: Option<f64>,
    /// Half or more of the solves hit a limit.
    pub censored: bool,
}

/// One strategy's curve.
#[derive(Clone, Debug)]
pub struct StudyCurve {
    /// The variant.
    pub name: String,
    /// Palette index.
    pub color: usize,
    /// Its points, by parameter.
    pub points: Vec<CurvePoint>,
    /// The fitted cost at each parameter, drawn dashed, with what it is.
    pub fitted: Option<(String, Vec<(f64, f64)>)>,
    /// The curve's peak, where the study located one: `(at, lo, hi)`, its
    /// parameter and that location's 95% interval. Ringed, the interval a
    /// bar under it.
    pub peak: Option<(f64, f64, f64)>,
}

/// A study chart.
pub struct StudyChart {
    /// File stem, like `study-clues-time-first`.
    pub name: String,
    /// Title.
    pub title: String,
    /// One sentence.
    pub caption: String,
    /// The x axis's name.
    pub x_desc: String,
    /// The y axis's name.
    pub y_desc: String,
    /// Cells on a log x axis (size studies) rather than a linear one.
    pub log_x: bool,
    /// The curves.
    pub curves: Vec<StudyCurve>,
    /// Why a curve has no fitted line where others may (`cdcl: not
    /// fitted, fewer than 3 sizes with a known median`): said under the
    /// chart.
    pub unfitted: Vec<String>,
}

impl Chart for StudyChart {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn title(&self) -> String {
        self.title.clone()
    }
    fn caption(&self) -> String {
        self.caption.clone()
    }
    fn key(&self) -> Option<String> {
        let mut parts = Vec::new();
        if !self.unfitted.is_empty() {
            parts.push(format!("No fitted line: {}.", self.unfitted.join("; ")));
        }
        // A peak the study located at the sweep's edge is no peak inside
        // it: not ringed, and said so.
        let edge: Vec<String> = self
            .curves
            .iter()
            .filter(|c| c.peak.is_some() && c.ringed().is_none())
            .map(|c| c.name.clone())
            .collect();
        if !edge.is_empty() {
            parts.push(format!(
                "Not ringed (the highest median at the edge of the sweep, which may not hold the peak): {}.",
                edge.join(", ")
            ));
        }
        parts.extend(self.hidden());
        (!parts.is_empty()).then(|| parts.join(" "))
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let pts = || self.curves.iter().flat_map(|c| c.points.iter());
        let y = log_range(
            pts()
                .flat_map(|p| [p.value, p.lo, p.hi.unwrap_or(p.value)])
                .chain(
                    self.curves
                        .iter()
                        .flat_map(|c| c.fitted.iter().flat_map(|f| f.1.iter().map(|p| p.1))),
                ),
        );
        // An interval with no upper end gets an arrow at least an eighth of
        // the plot tall: the axis runs on past its point (the chevron never
        // sits on the point's own marker).
        let open_top = pts()
            .filter(|p| p.hi.is_none())
            .map(|p| p.value)
            .fold(0.0, f64::max);
        let data = y.clone();
        let y = match open_top > 0.0 {
            true => y.start..y.end.max(open_top * (0.125 * (y.end / y.start).ln()).exp()),
            false => y,
        };
        let (xmin, xmax) = pts().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.x), b.max(p.x))
        });
        let (xmin, xmax) = if xmin.is_finite() {
            (xmin, xmax)
        } else {
            (1.0, 2.0)
        };
        // The legend goes beside or under the plot: the data keeps its height.
        let (root, room) = super::outside(root, &self.legend_texts());
        let root = &root;
        // No tick is named above the data; the arrows run to the edge.
        let (top, edge) = (data.end, y.end);
        let b = frame(root, &self.title);
        if self.log_x {
            // Ticks at the sizes measured, and only there: a grid's cells
            // take no values between them.
            let mut at: Vec<f64> = pts().map(|p| p.x).collect();
            at.sort_by(f64::total_cmp);
            at.dedup();
            let x = (xmin / 1.4..xmax * 1.4)
                .log_scale()
                .with_key_points(at)
                .with_light_points(Vec::<f64>::new());
            let mut chart = { b }
                .build_cartesian_2d(x, super::log_y_axis_over(root, y.clone(), data.clone()))
                .map_err(err)?;
            self.body(&mut chart, top, edge, &room)
        } else {
            let pad = ((xmax - xmin) * 0.03).max(0.5);
            let mut chart = { b }
                .build_cartesian_2d(
                    xmin - pad..xmax + pad,
                    super::log_y_axis_over(root, y.clone(), data.clone()),
                )
                .map_err(err)?;
            self.body(&mut chart, top, edge, &room)
        }
    }
}

impl StudyChart {
    /// A curve drawn under a later one over two or more of its points
    /// (medians within 2%: the same node counts), said under the chart:
    /// `band lies under bitset-mrv at 40 to 60 (equal medians)`.
    fn hidden(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, low) in self.curves.iter().enumerate() {
            for high in &self.curves[i + 1..] {
                let at: Vec<f64> = low
                    .points
                    .iter()
                    .filter(|p| {
                        high.points
                            .iter()
                            .any(|q| q.x == p.x && (q.value / p.value - 1.0).abs() <= 0.02)
                    })
                    .map(|p| p.x)
                    .collect();
                if let (true, Some(a), Some(b)) = (at.len() >= 2, at.first(), at.last()) {
                    out.push(format!(
                        "{} lies under {} at {} to {} (equal medians).",
                        low.name,
                        high.name,
                        compact(*a),
                        compact(*b)
                    ));
                    break;
                }
            }
        }
        out
    }
}

impl StudyCurve {
    /// The peak to ring, `(at, lo, hi)`, and the median at it: where the
    /// study located one on a point inside the sweep (a peak at either end
    /// of it is only its edge).
    fn ringed(&self) -> Option<((f64, f64, f64), f64)> {
        let (at, lo, hi) = self.peak?;
        let inside = self.points.first().is_some_and(|p| p.x < at)
            && self.points.last().is_some_and(|p| p.x > at);
        if !inside {
            return None;
        }
        let p = self.points.iter().find(|p| p.x == at)?;
        Some(((at, lo, hi), p.value))
    }
}

impl StudyChart {
    /// The lines of the legend [`StudyChart::body`] draws, to size it.
    fn legend_texts(&self) -> Vec<String> {
        let mut texts = Vec::new();
        for c in &self.curves {
            texts.push(match c.points.iter().any(|p| !p.censored) {
                true => c.name.clone(),
                false => format!("{} (stopped by the budget)", c.name),
            });
            if let Some((what, _)) = &c.fitted {
                texts.push(format!("{} fit: {what}", c.name));
            }
        }
        let notes = [
            (self.any(|p| p.censored), NOTE_HOLLOW),
            (self.any(|p| p.hi.is_none()), NOTE_ARROW),
            (self.curves.iter().any(|c| c.points.len() > 1), NOTE_BAND),
            (self.curves.iter().any(|c| c.ringed().is_some()), NOTE_RING),
        ];
        texts.extend(notes.iter().filter(|n| n.0).map(|n| n.1.to_string()));
        texts
    }

    /// Whether some point of some curve is `what`.
    fn any(&self, what: impl Fn(&CurvePoint) -> bool) -> bool {
        self.curves.iter().any(|c| c.points.iter().any(&what))
    }

    /// The chart's curves drawn on `chart`: `top` is the top of the data
    /// (no tick is named above it), `edge` the top edge of the plot, where
    /// an interval with no upper end runs to.
    fn body<'a, DB, X, Y>(
        &self,
        chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
        top: f64,
        edge: f64,
        room: &super::Outside<DB>,
    ) -> Result<(), DrawError>
    where
        DB: DrawingBackend + 'a,
        X: Ranged<ValueType = f64> + ValueFormatter<f64>,
        Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
    {
        let (w, h) = chart.plotting_area().dim_in_pixel();
        chart
            .configure_mesh()
            .x_desc(super::fit(&self.x_desc, w as f64))
            .y_desc(super::fit_any(&shorter(&self.y_desc), h as f64))
            .x_label_formatter(&|v| match self.log_x {
                // A grid's cells, exactly (1296, not 1.30k).
                true => format!("{}", v.round()),
                false => compact(*v),
            })
            .y_label_formatter(&|v| super::tick_below(*v, top))
            // No light line at every clue count: the labelled ones are grid
            // enough, and a line a clue crowds the bands.
            .x_max_light_lines(0)
            .label_style((FONT, super::TEXT))
            .axis_desc_style((FONT, super::AXIS))
            .draw()
            .map_err(err)?;
        let mut pen = Pen {
            chart,
            key: super::Key::default(),
            rings: false,
        };
        // The open intervals' arrows first, under every curve's marks: an
        // arrow passing another strategy's point goes behind it.
        for c in &self.curves {
            pen.open(c, edge)?;
        }
        for c in &self.curves {
            pen.curve(c, edge)?;
        }
        pen.notes(
            self.curves.iter().any(|c| c.points.len() > 1),
            self.any(|p| p.censored),
            self.any(|p| p.hi.is_none()),
        )?;
        super::legend_outside(pen.chart, &pen.key, room)
    }
}

/// Draws a study chart's curves one after another, and gathers what its
/// legend lists.
struct Pen<'c, 'a, DB: DrawingBackend, X: Ranged, Y: Ranged> {
    chart: &'c mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    /// The legend's lines, in the order their series were drawn.
    key: super::Key<'a, DB>,
    /// Whether a peak was ringed.
    rings: bool,
}

impl<'a, DB, X, Y> Pen<'_, 'a, DB, X, Y>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    /// One strategy's curve: its band, the line of its medians, its censored
    /// points, its ringed peak and its fit, in that order; `edge` is the top
    /// edge of the plot, where an interval with no upper end runs to (never
    /// closed at a number). Its arrows ([`Pen::open`]) are drawn before
    /// every curve.
    fn curve(&mut self, c: &StudyCurve, edge: f64) -> Result<(), DrawError> {
        if c.points.len() > 1 {
            // The band: the intervals, unbounded ones to the plot's edge.
            // Lightly filled, its edges drawn thin in the curve's colour:
            // where bands overlap, each edge still says whose it is.
            let lows: Vec<(f64, f64)> = c.points.iter().map(|p| (p.x, p.lo)).collect();
            let highs: Vec<(f64, f64)> = c
                .points
                .iter()
                .map(|p| (p.x, p.hi.unwrap_or(edge)))
                .collect();
            let mut band = lows.clone();
            band.extend(highs.iter().rev());
            let col = color(c.color);
            self.chart
                .draw_series(std::iter::once(Polygon::new(band, col.mix(0.14))))
                .map_err(err)?;
            for line in [lows, highs] {
                self.chart
                    .draw_series(std::iter::once(PathElement::new(
                        line,
                        col.mix(0.55).stroke_width(1),
                    )))
                    .map_err(err)?;
            }
        }
        let labelled = self.medians(c)?;
        self.censored(c, labelled)?;
        self.peak(c)?;
        self.fit(c)
    }

    /// The line joining the curve's known medians, broken at each censored
    /// point, with marks; labelled at its first piece. Returns whether it
    /// had one (and so took the curve's legend line).
    fn medians(&mut self, c: &StudyCurve) -> Result<bool, DrawError> {
        let col = color(c.color);
        let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for p in &c.points {
            if p.censored {
                runs.push(Vec::new());
            } else {
                runs.last_mut().expect("one run").push((p.x, p.value));
            }
        }
        let mut labelled = false;
        for run in runs.into_iter().filter(|r| !r.is_empty()) {
            let s = self
                .chart
                .draw_series(LineSeries::new(run.clone(), col.stroke_width(2)))
                .map_err(err)?;
            if !labelled {
                let slot = c.color;
                self.key.add(s, c.name.clone(), move |p| {
                    super::legend_mark(p, slot, true)
                });
                labelled = true;
            }
            super::draw_marks(self.chart, run.iter().copied(), c.color, 8)?;
        }
        Ok(labelled)
    }

    /// The censored points, hollow in the curve's own marker shape at their
    /// lower bound; labelled as the curve's when it had no line (`labelled`
    /// false).
    fn censored(&mut self, c: &StudyCurve, labelled: bool) -> Result<(), DrawError> {
        let slot = c.color;
        let censored: Vec<(f64, f64)> = c
            .points
            .iter()
            .filter(|p| p.censored)
            .map(|p| (p.x, p.value))
            .collect();
        // Filled white inside: no line, band or arrow shows through.
        let s = self
            .chart
            .draw_series(censored.iter().map(|&p| {
                EmptyElement::at(p)
                    + Polygon::new(outline(slot, 10), WHITE.filled())
                    + PathElement::new(outline(slot, 10), color(slot).stroke_width(2))
            }))
            .map_err(err)?;
        if !labelled && !censored.is_empty() {
            let text = format!("{} (stopped by the budget)", c.name);
            self.key.add(s, text, move |(x, y)| {
                EmptyElement::at((x + 12, y))
                    + PathElement::new(outline(slot, 10), color(slot).stroke_width(2))
            });
        }
        Ok(())
    }

    /// An arrow from each point whose interval has no upper end up to the
    /// plot's top edge (`edge`), its head there: the interval is open.
    fn open(&mut self, c: &StudyCurve, edge: f64) -> Result<(), DrawError> {
        let col = color(c.color);
        let open: Vec<(f64, f64)> = c
            .points
            .iter()
            .filter(|p| p.hi.is_none())
            .map(|p| (p.x, p.value))
            .collect();
        let area = self.chart.plotting_area();
        let base = area.get_base_pixel();
        for &(x, value) in &open {
            let from = self.chart.backend_coord(&(x, value));
            let to = self.chart.backend_coord(&(x, edge));
            let (x, y0, y1) = (from.0 - base.0, from.1 - base.1 - 7, to.1 - base.1);
            let area = self.chart.plotting_area().strip_coord_spec();
            if y0 > y1 {
                area.draw(&PathElement::new(
                    vec![(x, y0), (x, y1)],
                    col.stroke_width(1),
                ))
                .map_err(err)?;
            }
            area.draw(&PathElement::new(arrow_head((x, y1)), col.stroke_width(2)))
                .map_err(err)?;
        }
        Ok(())
    }

    /// A ring on the curve's peak ([`StudyCurve::ringed`]), and under it a
    /// bar over the peak location's 95% interval.
    fn peak(&mut self, c: &StudyCurve) -> Result<(), DrawError> {
        let Some(((at, lo, hi), value)) = c.ringed() else {
            return Ok(());
        };
        let col = color(c.color);
        let chart = &mut *self.chart;
        let ring = Circle::new((at, value), 11, col.stroke_width(2));
        chart.plotting_area().draw(&ring).map_err(err)?;
        // The location's interval: a bar just under the ring, capped at
        // both ends and joined to the ring by a stem, so it reads as the
        // ring's own.
        let area = chart.plotting_area();
        let base = area.get_base_pixel();
        let (cx, cy) = chart.backend_coord(&(at, value));
        let (cx, cy) = (cx - base.0, cy - base.1);
        let y = cy + 18;
        let lx = chart.backend_coord(&(lo, value)).0 - base.0;
        let hx = chart.backend_coord(&(hi, value)).0 - base.0;
        let pixels = area.strip_coord_spec();
        // A location known to the clue (an interval of no width) has no bar.
        let bar = match hx - lx >= 2 {
            true => vec![
                vec![(lx, y), (hx, y)],
                vec![(lx, y - 4), (lx, y + 4)],
                vec![(hx, y - 4), (hx, y + 4)],
                vec![(cx, cy + 11), (cx, y)],
            ],
            false => Vec::new(),
        };
        for line in bar {
            pixels
                .draw(&PathElement::new(line, col.stroke_width(1)))
                .map_err(err)?;
        }
        self.rings = true;
        Ok(())
    }

    /// The curve's fitted cost, dashed, labelled with what it is.
    fn fit(&mut self, c: &StudyCurve) -> Result<(), DrawError> {
        let Some((what, line)) = &c.fitted else {
            return Ok(());
        };
        let col = color(c.color);
        let anno = self
            .chart
            .draw_series(DashedLineSeries::new(
                line.iter().copied(),
                6,
                4,
                col.stroke_width(1),
            ))
            .map_err(err)?;
        self.key
            .add(anno, format!("{} fit: {what}", c.name), move |(x, y)| {
                // Dashed, as the fit is drawn.
                EmptyElement::at((x, y))
                    + PathElement::new(vec![(0, 0), (6, 0)], col.stroke_width(1))
                    + PathElement::new(vec![(10, 0), (16, 0)], col.stroke_width(1))
                    + PathElement::new(vec![(20, 0), (24, 0)], col.stroke_width(1))
            });
        Ok(())
    }

    /// What the bands (where some curve has one, `bands`), the rings, the
    /// hollow marks (where some point is `censored`) and the arrows (where
    /// some interval is `open`) are, said in the legend.
    fn notes(&mut self, bands: bool, censored: bool, open: bool) -> Result<(), DrawError> {
        if censored {
            self.note(NOTE_HOLLOW, |(x, y)| {
                EmptyElement::at((x + 12, y))
                    + PathElement::new(outline(0, 10), NOTE.stroke_width(2))
            })?;
        }
        if open {
            self.note(NOTE_ARROW, |(x, y)| {
                EmptyElement::at((x + 12, y))
                    + PathElement::new(vec![(0, 8), (0, -8)], NOTE.stroke_width(1))
                    + PathElement::new(arrow_head((0, -8)), NOTE.stroke_width(2))
            })?;
        }
        if bands {
            self.note(NOTE_BAND, |(x, y)| {
                Rectangle::new([(x + 2, y - 6), (x + 22, y + 6)], BLACK.mix(0.2).filled())
            })?;
        }
        if self.rings {
            self.note(NOTE_RING, |(x, y)| {
                Circle::new((x + 12, y), 7, NOTE.stroke_width(2))
            })?;
        }
        Ok(())
    }

    /// A legend line that explains a mark (`text` beside `mark`), drawn
    /// with no series of its own.
    fn note<E, F>(&mut self, text: &str, mark: F) -> Result<(), DrawError>
    where
        E: IntoDynElement<'a, DB, (i32, i32)> + 'a,
        F: Fn((i32, i32)) -> E + Clone + 'a,
    {
        let anno = self
            .chart
            .draw_series(std::iter::empty::<EmptyElement<(f64, f64), DB>>())
            .map_err(err)?;
        self.key.add(anno, text, mark);
        Ok(())
    }
}

/// The colour of the legend's marks that are not a strategy's (a hollow
/// mark, an arrow, a ring): a grey no strategy has.
const NOTE: RGBAColor = RGBAColor(0, 0, 0, 0.6);

/// An axis name and shorter forms of it that keep its unit, longest
/// first: `median time per puzzle, µs (log)`, `time per puzzle, µs (log)`,
/// `time, µs (log)`.
fn shorter(name: &str) -> Vec<String> {
    let plain = name.replacen("median ", "", 1);
    let short = plain.replace(" per puzzle", "").replace(" of a call", "");
    vec![name.to_string(), plain, short]
}

/// The legend's words for the marks that are not a strategy's.
const NOTE_HOLLOW: &str = "hollow: stopped by the budget (a lower bound)";
const NOTE_ARROW: &str = "arrow to the top: no upper bound";
const NOTE_BAND: &str = "shaded: each median's 95% interval";
const NOTE_RING: &str = "ringed: the peak; bar: where it lies (95%)";

/// The outline of series slot `slot`'s marker, `size` pixels across,
/// closed: a hollow mark (a point stopped by the budget).
fn outline(slot: usize, size: i32) -> Vec<(i32, i32)> {
    let mut outline = super::marker_shape(super::marker_kind(slot), size);
    outline.push(outline[0]);
    outline
}

/// An arrow's head pointing up, its tip at `tip` (pixels): an open
/// chevron, so that it reads as no strategy's (filled) triangle marker.
fn arrow_head((x, y): (i32, i32)) -> Vec<(i32, i32)> {
    vec![(x - 5, y + 8), (x, y), (x + 5, y + 8)]
}

#[cfg(test)]
mod tests;
