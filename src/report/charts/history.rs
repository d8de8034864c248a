//! A contender's figure on one dataset over many runs: one line per machine
//! (or setting), each run a point with its 95% interval as a bar; a red ✕
//! with its count where puzzles failed; a gap with a mark at the foot where
//! a run has no figure; and a dashed rule at each run where `compare` saw a
//! change, labelled with it. The x axis holds this chart's own runs.

use super::{color, compact, err, frame, Chart, DrawError, FONT, TEXT};
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One point: the run's position on the x axis, its value and interval.
#[derive(Clone, Debug, PartialEq)]
pub struct TimePoint {
    /// The run's position among [`Timeline::runs`].
    pub x: usize,
    /// Its value; `None` where the run's figure does not stand (a gap).
    pub value: Option<f64>,
    /// Its 95% interval, where it has one.
    pub interval: Option<(f64, f64)>,
    /// Its failed puzzles in words (`13 wrong`), where any failed.
    pub failed: Option<String>,
}

/// One line: a machine's (or a setting's) runs.
#[derive(Clone, Debug)]
pub struct TimeSeries {
    /// Its name in the legend.
    pub name: String,
    /// Palette slot.
    pub slot: usize,
    /// Its points, by run.
    pub points: Vec<TimePoint>,
}

/// A run where a change came in.
#[derive(Clone, Debug)]
pub struct ChangeMark {
    /// The run's position among [`Timeline::runs`].
    pub x: usize,
    /// What changed, like `+5.0%` or `13 now fail`.
    pub text: String,
    /// A regression (drawn in vermillion) or an improvement (bluish green).
    pub regressed: bool,
}

/// The timeline chart.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// File stem, like `history-band-hard-9x9`.
    pub name: String,
    /// Title.
    pub title: String,
    /// One sentence.
    pub caption: String,
    /// The y axis's name.
    pub y_desc: String,
    /// The x axis's name: what [`Timeline::runs`] are.
    pub x_desc: String,
    /// The names of the runs this chart's lines hold, in order: the x axis
    /// (their labels, or their numbers in the history; see [`axis_names`]).
    pub runs: Vec<String>,
    /// The lines.
    pub series: Vec<TimeSeries>,
    /// The changes.
    pub marks: Vec<ChangeMark>,
    /// Each machine of the lines, by its tag (`M1: Intel Xeon, 2 cores,
    /// x86-64 AVX2`): said under the chart, so that a legend line is short.
    pub machines: Vec<String>,
    /// The rounds of the runs whose intervals are drawn (distinct,
    /// ascending): said under the chart with what the bars are, since
    /// two rounds make a t-interval of ±12.7 standard errors.
    pub rounds: Vec<usize>,
}

/// Vermillion: a regression.
const REGRESSED: RGBColor = RGBColor(213, 94, 0);
/// Bluish green: an improvement.
const IMPROVED: RGBColor = RGBColor(0, 158, 115);
/// Dark red: failed puzzles.
const FAILED: RGBColor = RGBColor(190, 0, 0);
/// Grey: a run without a figure.
const NO_FIGURE: RGBColor = RGBColor(110, 110, 110);
/// A row of labels, pixels.
const ROW: i32 = (TEXT as f64 * 1.25) as i32;
/// The longest run name on the x axis, in characters.
const X_LABEL_CHARS: usize = 12;

/// Where each label goes: its row (0 nearest the data), given its centre
/// and width in pixels; labels in one row keep 8 px apart.
fn rows(labels: &[(f64, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by(|&a, &b| labels[a].0.total_cmp(&labels[b].0));
    let mut ends: Vec<f64> = Vec::new();
    let mut out = vec![0; labels.len()];
    for i in order {
        let (centre, width) = labels[i];
        let left = centre - width / 2.0;
        let row = match ends.iter().position(|&end| end + 8.0 <= left) {
            Some(r) => r,
            None => {
                ends.push(f64::NEG_INFINITY);
                ends.len() - 1
            }
        };
        ends[row] = left + width;
        out[i] = row;
    }
    out
}

/// What the bars are, over the runs' `rounds`: a t-interval over each
/// run's rounds, whose width for few rounds is said (a bootstrap over
/// puzzles for a run of one round).
pub fn bars_sentence(rounds: &[usize]) -> String {
    let over = match (rounds.first(), rounds.last()) {
        (Some(1), Some(1)) => {
            return "Bars: each median's 95% interval (over its puzzles: one round).".into()
        }
        (Some(a), Some(b)) if a == b => format!("over its run's {a} rounds"),
        (Some(a), Some(b)) => format!("over its run's rounds ({a} to {b})"),
        _ => return "Bars: each median's 95% interval.".into(),
    };
    let fewest = rounds.iter().copied().find(|&r| r >= 2).unwrap_or(2);
    let at = match rounds.len() {
        1 => String::new(),
        _ => format!(" at {fewest} rounds"),
    };
    let wide = match fewest <= 3 {
        true => format!(
            " (±{:.1} standard errors{at}: wide by nature)",
            crate::stats::t975((fewest - 1) as f64)
        ),
        false => String::new(),
    };
    format!("Bars: each median's 95% t-interval {over}{wide}.")
}

fn label_width(text: &str) -> f64 {
    super::text_width(text, TEXT as f64 / 1.24)
}

/// The runs' names on the x axis: their `labels` where every run has one
/// and each reads apart from the others once cut to fit, else their
/// `numbers` (as the history's table numbers them); with the axis's name.
pub fn axis_names(labels: &[Option<String>], numbers: &[usize]) -> (Vec<String>, String) {
    let named: Option<Vec<String>> = labels.iter().cloned().collect();
    if let Some(named) = named {
        let mut cut: Vec<String> = named.iter().map(|n| short(n)).collect();
        cut.sort();
        cut.dedup();
        if cut.len() == named.len() {
            return (named, "run, by its label, in the history's order".into());
        }
    }
    (
        numbers.iter().map(usize::to_string).collect(),
        "run, numbered as in the history's runs table".into(),
    )
}

/// A run's name as the x axis shows it.
fn short(name: &str) -> String {
    match name.chars().count() > X_LABEL_CHARS {
        true => name.chars().take(X_LABEL_CHARS - 1).chain(['…']).collect(),
        false => name.to_string(),
    }
}

/// What is laid out before the axes are made.
struct Layout {
    /// Each change label's row above the data.
    mark_rows: Vec<usize>,
    /// Each failure label's row under its point, by series then point.
    fail_rows: Vec<Vec<usize>>,
    /// Rows of labels for runs without a figure, at the foot.
    foot_rows: usize,
    /// Each no-figure label's row at the foot, by series then point.
    foot_of: Vec<Vec<usize>>,
    /// The top of the data, in its units: the change rules end here.
    data_top: f64,
    /// The plot's bottom, in its units: no-figure marks sit on it.
    bottom: f64,
}

impl Chart for Timeline {
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
        // The bars in words, not in the legend: drawn in each line's own
        // colour, a legend mark of its own would share one with a line.
        let mut parts = Vec::new();
        if self.has_intervals() {
            parts.push(bars_sentence(&self.rounds));
        }
        if !self.machines.is_empty() {
            parts.push(format!("{}.", self.machines.join("; ")));
        }
        (!parts.is_empty()).then(|| parts.join(" "))
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let (lo, hi) = self.value_range();
        let log = lo > 0.0 && hi / lo > 10.0;
        let n = self.runs.len().max(1);
        // The legend beside or under the plot, clear of the data.
        let (root, legend) = super::outside(root, &self.legend_labels());
        let root = &root;
        let (w, h) = root.dim_in_pixel();
        let y_area = self.y_area(hi);
        let plot_w = (w as f64 - 16.0 - 30.0 - y_area as f64).max(1.0);
        let plot_h = (h as f64 - 130.0).max(1.0);
        let per_run = plot_w / n as f64;
        let px = |pos: f64| (pos + 0.5) * per_run;
        // The change labels, in rows over the data.
        let marks: Vec<(f64, f64)> = self
            .marks
            .iter()
            .map(|m| (px(m.x as f64 - 0.5), label_width(&m.text)))
            .collect();
        let mark_rows = rows(&marks);
        let top_rows = mark_rows.iter().max().map_or(0, |r| r + 1);
        // The failure labels under their points; no-figure ones at the foot.
        let mut fail_rows = Vec::new();
        let mut foot_of = Vec::new();
        let (mut under, mut foot) = (Vec::new(), Vec::new());
        for s in &self.series {
            for p in &s.points {
                let text = self.point_words(p);
                let label = (px(p.x as f64), label_width(&text));
                match p.value {
                    Some(_) if p.failed.is_some() => under.push(label),
                    Some(_) => {}
                    None => foot.push(label),
                }
            }
        }
        let (under_rows, foot_label_rows) = (rows(&under), rows(&foot));
        let (mut u, mut f) = (under_rows.iter(), foot_label_rows.iter());
        for s in &self.series {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for p in &s.points {
                match p.value {
                    Some(_) if p.failed.is_some() => a.push(*u.next().unwrap_or(&0)),
                    Some(_) => a.push(0),
                    None => b.push(*f.next().unwrap_or(&0)),
                }
            }
            fail_rows.push(a);
            foot_of.push(b);
        }
        let foot_rows = match foot.is_empty() {
            true => 0,
            false => 2 + foot_label_rows.iter().max().copied().unwrap_or(0),
        };
        let under_most = under_rows.iter().max().map_or(0, |r| r + 1);
        // Shares of the plot's height: the change labels on top, the
        // failure labels under the lowest points, the foot.
        let top_share = ((top_rows as f64 * ROW as f64 + 6.0) / plot_h).min(0.8);
        let low_share = ((under_most as f64 * ROW as f64 + 14.0) / plot_h)
            .max(foot_rows as f64 * ROW as f64 / plot_h)
            .max(0.04);
        let data_share = (1.0 - top_share - low_share).max(0.15);
        let x = -0.5..n as f64 - 0.5;
        let ticks = self.x_ticks(per_run);
        let names: Vec<String> = self.runs.iter().map(|r| short(r)).collect();
        let x_label = move |v: &f64| -> String {
            let i = v.round();
            match (v - i).abs() < 0.01 && i >= 0.0 {
                true => names.get(i as usize).cloned().unwrap_or_default(),
                false => String::new(),
            }
        };
        let y_desc = super::fit(&self.y_desc, plot_h);
        if log {
            let (l, t) = (lo.ln(), hi.ln());
            let pad = (t - l) * 0.04;
            let total = (t - l + 2.0 * pad) / data_share;
            let (bottom, top) = (
                (l - pad - low_share * total).exp(),
                (t + pad + top_share * total).exp(),
            );
            let (data_low, data_top) = ((l - pad).exp(), (t + pad).exp());
            let layout = Layout {
                mark_rows,
                fail_rows,
                foot_rows,
                foot_of,
                data_top,
                bottom,
            };
            let mut chart = frame(root, &self.title)
                .y_label_area_size(y_area)
                .build_cartesian_2d(
                    x,
                    // As many labels as the data's height holds: an
                    // interval of many decades (two noisy rounds) would
                    // otherwise label each one, over each other.
                    super::log_axis_over(
                        bottom..top,
                        data_low..data_top,
                        ((plot_h * data_share) / (TEXT as f64 * 1.4))
                            .floor()
                            .max(2.0) as usize,
                    ),
                )
                .map_err(err)?;
            chart
                .configure_mesh()
                .x_labels(ticks)
                .x_label_formatter(&x_label)
                .y_label_formatter(&|v| match (data_low..=data_top).contains(v) {
                    true => compact(*v),
                    false => String::new(),
                })
                .x_desc(&self.x_desc)
                .y_desc(format!("{y_desc} (log)"))
                .label_style((FONT, TEXT))
                .axis_desc_style((FONT, super::AXIS))
                .disable_x_mesh()
                .draw()
                .map_err(err)?;
            self.paint(&mut chart, &layout, &legend)
        } else {
            let pad = ((hi - lo) * 0.06).max(hi.abs() * 0.02).max(1e-9);
            let total = (hi - lo + 2.0 * pad) / data_share;
            let bottom = (lo - pad - low_share * total).max(0.0);
            let top = hi + pad + top_share * total;
            let (data_low, data_top) = ((lo - pad).max(bottom), hi + pad);
            // Ticks over the data alone, at a round step, as many as its
            // height holds; none in the room kept for the legend and labels.
            let most = ((plot_h * data_share) / (TEXT as f64 * 2.0)).floor() as usize;
            let (bold, step) = linear_ticks(data_low, data_top, most.clamp(2, 8));
            let light = linear_ticks(data_low, data_top, most.clamp(2, 8) * 5).0;
            let places = decimals(step);
            let layout = Layout {
                mark_rows,
                fail_rows,
                foot_rows,
                foot_of,
                data_top: hi + pad,
                bottom,
            };
            let mut chart = frame(root, &self.title)
                .y_label_area_size(y_area)
                .build_cartesian_2d(
                    x,
                    super::Ticked {
                        range: bottom..top,
                        bold,
                        light,
                    },
                )
                .map_err(err)?;
            chart
                .configure_mesh()
                .x_labels(ticks)
                .x_label_formatter(&x_label)
                .y_label_formatter(&|v| y_label(*v, places))
                .x_desc(&self.x_desc)
                .y_desc(y_desc)
                .label_style((FONT, TEXT))
                .axis_desc_style((FONT, super::AXIS))
                .disable_x_mesh()
                .draw()
                .map_err(err)?;
            self.paint(&mut chart, &layout, &legend)
        }
    }
}

impl Timeline {
    /// The lowest and highest value drawn, intervals included.
    fn value_range(&self) -> (f64, f64) {
        let values = self.series.iter().flat_map(|s| {
            s.points.iter().flat_map(|p| match p.value {
                Some(v) => {
                    let (lo, hi) = p.interval.unwrap_or((v, v));
                    vec![v, lo, hi]
                }
                None => Vec::new(),
            })
        });
        let (lo, hi) = values
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            });
        if !lo.is_finite() {
            (0.0, 1.0)
        } else if lo == hi {
            (lo * 0.9, hi * 1.1 + 1e-9)
        } else {
            (lo, hi)
        }
    }

    /// The room the y axis's tick labels and name take, pixels.
    fn y_area(&self, hi: f64) -> u32 {
        let widest = label_width(&crate::stats::thousands(hi.round().max(0.0) as u64))
            .max(label_width("0.00"));
        (widest + super::AXIS as f64 * 1.3 + 22.0).max(84.0) as u32
    }

    /// How many ticks the x axis asks for: one a run where the names fit,
    /// else fewer (plotters puts them at every 2nd, 5th, … run).
    fn x_ticks(&self, per_run: f64) -> usize {
        let widest = self
            .runs
            .iter()
            .map(|r| label_width(&short(r)))
            .fold(0.0, f64::max);
        let every = ((widest + 10.0) / per_run.max(1.0)).ceil().max(1.0) as usize;
        self.runs.len().max(1).div_ceil(every)
    }

    /// What is said beside a point: its failures, or that it has no figure.
    fn point_words(&self, p: &TimePoint) -> String {
        match (&p.failed, p.value) {
            (Some(f), Some(_)) => f.clone(),
            (Some(f), None) => format!("{f}, no figure"),
            (None, _) => "no figure".into(),
        }
    }

    fn has_failures(&self) -> bool {
        self.series
            .iter()
            .any(|s| s.points.iter().any(|p| p.failed.is_some()))
    }

    fn has_gaps_without_failures(&self) -> bool {
        self.series.iter().any(|s| {
            s.points
                .iter()
                .any(|p| p.value.is_none() && p.failed.is_none())
        })
    }

    fn has_intervals(&self) -> bool {
        self.series
            .iter()
            .any(|s| s.points.iter().any(|p| p.interval.is_some()))
    }

    /// Everything on the axes: rules and their labels, lines with gaps,
    /// intervals, failures and the legend.
    fn paint<'a, DB, Y>(
        &self,
        chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, Y>>,
        layout: &Layout,
        room: &super::Outside<DB>,
    ) -> Result<(), DrawError>
    where
        DB: DrawingBackend + 'a,
        Y: Ranged<ValueType = f64>,
    {
        let mut key = super::Key::default();
        let text = |c: RGBColor| (FONT, TEXT).into_font().color(&c);
        let area = chart.plotting_area();
        let left = area.get_base_pixel().0;
        let width = area.dim_in_pixel().0 as i32;
        // Where a label `w` pixels wide, centred on `at`, starts: inside the plot.
        // The x axis is linear: two runs' pixels place every other.
        let (x0, x1) = (
            chart.backend_coord(&(0.0, layout.data_top)).0 as f64,
            chart.backend_coord(&(1.0, layout.data_top)).0 as f64,
        );
        let start = move |at: f64, w: f64, _y: f64| -> i32 {
            let x = (x0 + at * (x1 - x0)).round() as i32 - left;
            let from = x as f64 - w / 2.0;
            (from.clamp(0.0, (width as f64 - w).max(0.0)) - x as f64) as i32
        };
        for (m, &row) in self.marks.iter().zip(&layout.mark_rows) {
            let c = if m.regressed { REGRESSED } else { IMPROVED };
            // A rule between the run before and the run the change came in:
            // dashed for a regression, dotted for an improvement, so that
            // the two differ in a grayscale print too.
            let at = m.x as f64 - 0.5;
            let (dash, gap) = if m.regressed { (8, 5) } else { (3, 4) };
            let rule = DashedLineSeries::new(
                [(at, layout.bottom), (at, layout.data_top)],
                dash,
                gap,
                c.stroke_width(2),
            );
            chart.draw_series(rule).map_err(err)?;
            let up = (row as i32 + 1) * ROW;
            let w = label_width(&m.text);
            let dx = start(at, w, layout.data_top);
            let label = EmptyElement::at((at, layout.data_top))
                + PathElement::new(vec![(0, 0), (0, 4 - up + ROW)], c.stroke_width(1))
                + Text::new(m.text.clone(), (dx, -up + 2), text(c));
            chart.draw_series(std::iter::once(label)).map_err(err)?;
        }
        for (k, s) in self.series.iter().enumerate() {
            let (slot, c) = (s.slot, color(s.slot));
            // Each interval a bar with caps a fifth of a run wide.
            let bars = s.points.iter().filter_map(|p| {
                p.value.zip(p.interval).map(|(_, (lo, hi))| {
                    let (x, w) = (p.x as f64, 0.1);
                    PathElement::new(
                        vec![
                            (x - w, lo),
                            (x + w, lo),
                            (x, lo),
                            (x, hi),
                            (x - w, hi),
                            (x + w, hi),
                        ],
                        c.stroke_width(2),
                    )
                })
            });
            chart.draw_series(bars).map_err(err)?;
            // A line through runs with a figure, broken where one has none.
            let mut pieces: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
            for p in &s.points {
                match p.value {
                    Some(v) => {
                        if let Some(last) = pieces.last_mut() {
                            last.push((p.x as f64, v));
                        }
                    }
                    None => pieces.push(Vec::new()),
                }
            }
            for piece in pieces.iter().filter(|p| p.len() > 1) {
                chart
                    .draw_series(LineSeries::new(piece.clone(), c.stroke_width(2)))
                    .map_err(err)?;
            }
            let dots: Vec<(f64, f64)> = pieces.concat();
            let anno = chart
                .draw_series(std::iter::empty::<EmptyElement<(f64, f64), DB>>())
                .map_err(err)?;
            key.add(anno, s.name.clone(), move |p| {
                super::legend_mark(p, slot, true)
            });
            super::draw_marks(chart, dots, slot, 10)?;
            // Failures: a ✕ on the point, its count under it; a run without
            // a figure: a mark at the foot, with why.
            let (mut under, mut foot) = (layout.fail_rows[k].iter(), layout.foot_of[k].iter());
            for p in &s.points {
                let words = self.point_words(p);
                let w = label_width(&words);
                let x = p.x as f64;
                let (at, dy, mark, colour) = match p.value {
                    Some(v) if p.failed.is_some() => {
                        let row = *under.next().unwrap_or(&0) as i32;
                        // Under the interval's low end, where it has one.
                        let below = p.interval.map_or(0, |(lo, _)| {
                            let (a, b) = (
                                chart.backend_coord(&(x, v)).1,
                                chart.backend_coord(&(x, lo)).1,
                            );
                            (b - a).max(0)
                        });
                        ((x, v), 12 + below + row * ROW, cross(14), FAILED)
                    }
                    Some(_) => {
                        under.next();
                        continue;
                    }
                    None => {
                        let row = *foot.next().unwrap_or(&0) as i32;
                        let y = layout.bottom;
                        let (mark, colour) = match p.failed.is_some() {
                            true => (cross(14), FAILED),
                            false => (super::marker_shape(0, 12), NO_FIGURE),
                        };
                        let lift = (layout.foot_rows as i32) * ROW - 4;
                        let label = EmptyElement::at((x, y))
                            + Polygon::new(
                                mark.iter()
                                    .map(|&(a, b)| (a, b - lift + 8))
                                    .collect::<Vec<_>>(),
                                colour.filled(),
                            )
                            + Text::new(
                                words,
                                (start(x, w, y), -lift + 18 + row * ROW),
                                text(colour),
                            );
                        chart.draw_series(std::iter::once(label)).map_err(err)?;
                        continue;
                    }
                };
                // On a white ground: rules and bars may pass under it.
                let dx = start(x, w, at.1);
                let ground = Rectangle::new(
                    [(dx - 2, dy - 1), (dx + w as i32 + 2, dy + ROW - 6)],
                    WHITE.mix(0.9).filled(),
                );
                let label = EmptyElement::at(at)
                    + Polygon::new(mark, colour.filled())
                    + ground
                    + Text::new(words, (dx, dy), text(colour));
                chart.draw_series(std::iter::once(label)).map_err(err)?;
            }
        }
        self.mark_legend(chart, &mut key)?;
        super::legend_outside(chart, &key, room)
    }

    /// The legend's words for the marks, in the order they are added.
    fn mark_words(&self) -> Vec<(&'static str, bool)> {
        vec![
            (
                "dashed rule: a regression, its change",
                self.marks.iter().any(|m| m.regressed),
            ),
            (
                "dotted rule: an improvement, its change",
                self.marks.iter().any(|m| !m.regressed),
            ),
            ("puzzles failed, their count", self.has_failures()),
            (
                "at the foot: no figure (too few verified)",
                self.has_gaps_without_failures(),
            ),
        ]
    }

    fn legend_labels(&self) -> Vec<String> {
        self.series
            .iter()
            .map(|s| s.name.clone())
            .chain(
                self.mark_words()
                    .into_iter()
                    .filter(|w| w.1)
                    .map(|w| w.0.to_string()),
            )
            .collect()
    }

    /// A legend line for each kind of mark the chart draws.
    fn mark_legend<'a, DB, Y>(
        &self,
        chart: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, Y>>,
        key: &mut super::Key<'a, DB>,
    ) -> Result<(), DrawError>
    where
        DB: DrawingBackend + 'a,
        Y: Ranged<ValueType = f64>,
    {
        for (i, (words, drawn)) in self.mark_words().into_iter().enumerate() {
            if !drawn {
                continue;
            }
            let anno = chart
                .draw_series(std::iter::empty::<EmptyElement<(f64, f64), DB>>())
                .map_err(err)?;
            match i {
                0 => key.add(anno, words, move |(x, y)| {
                    EmptyElement::at((x, y))
                        + PathElement::new(vec![(2, 0), (9, 0)], REGRESSED.stroke_width(2))
                        + PathElement::new(vec![(15, 0), (22, 0)], REGRESSED.stroke_width(2))
                }),
                1 => key.add(anno, words, move |(x, y)| {
                    EmptyElement::at((x, y))
                        + PathElement::new(vec![(2, 0), (5, 0)], IMPROVED.stroke_width(2))
                        + PathElement::new(vec![(9, 0), (12, 0)], IMPROVED.stroke_width(2))
                        + PathElement::new(vec![(16, 0), (19, 0)], IMPROVED.stroke_width(2))
                }),
                2 => key.add(anno, words, |(x, y)| {
                    EmptyElement::at((x + 12, y)) + Polygon::new(cross(14), FAILED.filled())
                }),
                _ => key.add(anno, words, |(x, y)| {
                    EmptyElement::at((x + 12, y))
                        + Polygon::new(super::marker_shape(0, 12), NO_FIGURE.filled())
                }),
            };
        }
        Ok(())
    }
}

/// A ✕ `size` pixels across: the palette's cross marker.
fn cross(size: i32) -> Vec<(i32, i32)> {
    super::marker_shape(5, size)
}

/// Round values from `lo` to `hi`, at most `most` of them: multiples of
/// 1, 2 or 5 times a power of ten; with the step.
fn linear_ticks(lo: f64, hi: f64, most: usize) -> (Vec<f64>, f64) {
    let span = (hi - lo).max(1e-12);
    let raw = span / most.max(1) as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|k| k * power)
        .find(|s| span / s <= most as f64)
        .unwrap_or(10.0 * power);
    // A hair inside, so that a bound that is a multiple is one.
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    let ticks = (first..=last).map(|k| k as f64 * step).collect();
    (ticks, step)
}

/// Decimal places a tick label needs at `step`: none from 1 up, one at
/// 0.1 to 0.5, two at 0.01 to 0.05.
fn decimals(step: f64) -> usize {
    match step >= 1.0 {
        true => 0,
        false => (-step.log10()).ceil().max(0.0) as usize,
    }
}

/// A linear y axis's label with `places` decimals, thousands separated.
fn y_label(v: f64, places: usize) -> String {
    match places {
        0 if v.abs() >= 1000.0 => crate::stats::thousands(v.round().max(0.0) as u64),
        p => format!("{v:.p$}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bars_say_how_many_rounds_they_are_over_and_how_wide_few_make_them() {
        let two = bars_sentence(&[2]);
        assert!(
            two.contains("over its run's 2 rounds") && two.contains("±12.7 standard errors"),
            "{two}"
        );
        let mixed = bars_sentence(&[3, 5]);
        assert!(
            mixed.contains("rounds (3 to 5)") && mixed.contains("±4.3 standard errors at 3 rounds"),
            "{mixed}"
        );
        // Five rounds and more: no warning.
        assert!(!bars_sentence(&[5]).contains("wide"));
        assert!(bars_sentence(&[1]).contains("over its puzzles"));
    }

    #[test]
    fn labels_that_would_touch_go_to_another_row() {
        // Two labels 40 px wide, 30 px apart: the second a row up; a third
        // far to the right goes back to the first row.
        assert_eq!(
            rows(&[(100.0, 40.0), (130.0, 40.0), (400.0, 40.0)]),
            [0, 1, 0]
        );
        // Given out of order, placed by position.
        assert_eq!(rows(&[(400.0, 40.0), (100.0, 40.0)]), [0, 0]);
        assert_eq!(rows(&[]), Vec::<usize>::new());
    }

    #[test]
    fn a_linear_axis_is_ticked_at_round_steps_over_the_data() {
        let (ticks, step) = linear_ticks(5.4, 6.1, 6);
        assert_eq!(step, 0.2);
        assert_eq!(
            ticks
                .iter()
                .map(|v| y_label(*v, decimals(step)))
                .collect::<Vec<_>>(),
            ["5.4", "5.6", "5.8", "6.0"]
        );
        let (ticks, step) = linear_ticks(48_000.0, 52_500.0, 5);
        assert_eq!(step, 1000.0);
        assert_eq!(y_label(ticks[0], decimals(step)), "48,000");
        assert_eq!(decimals(0.05), 2);
        assert_eq!(decimals(1.0), 0);
    }

    #[test]
    fn runs_are_named_by_label_else_by_number() {
        let v = |s: &str| Some(s.to_string());
        let (names, desc) = axis_names(&[v("v1"), v("v2")], &[3, 4]);
        assert_eq!(names, ["v1", "v2"]);
        assert!(desc.contains("label"));
        // Unlabelled, or labels that read alike once cut: numbers.
        assert_eq!(axis_names(&[v("v1"), None], &[3, 4]).0, ["3", "4"]);
        let alike = [v("release-2026-01"), v("release-2026-02")];
        let (names, desc) = axis_names(&alike, &[1, 2]);
        assert_eq!(names, ["1", "2"]);
        assert!(desc.contains("numbered"));
    }

    #[test]
    fn long_run_names_are_cut_on_the_axis() {
        assert_eq!(short("v10"), "v10");
        assert_eq!(short("2026-11-27 08:10"), "2026-11-27 …");
    }
}
