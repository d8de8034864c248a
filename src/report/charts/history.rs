//! A contender's figure on one dataset over many runs: one line per machine
//! (or setting), each run a point with its 95% interval as a bar, and a
//! dashed rule at each run where `compare` saw a change, with the change.

use super::{color, compact, err, frame, legend, Chart, DrawError, FONT};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One point: the run's position on the x axis, its value and interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimePoint {
    /// The run's position (0 for the first run of the history).
    pub x: usize,
    /// Its value.
    pub value: f64,
    /// Its 95% interval, where it has one.
    pub interval: Option<(f64, f64)>,
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
    /// The run's position.
    pub x: usize,
    /// What changed, like `+5.0%`.
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
    /// The runs' names, by position: the x axis's labels.
    pub runs: Vec<String>,
    /// The lines.
    pub series: Vec<TimeSeries>,
    /// The changes.
    pub marks: Vec<ChangeMark>,
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
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let (lo, hi) = self.value_range();
        let precise = hi - lo < 0.5 * hi.abs();
        let pad = ((hi - lo) * 0.08).max(hi.abs() * 0.02).max(1e-9);
        // Room above for the legend and the change labels.
        let legend_share = super::legend_room(root, self.series.len()) + 0.08;
        let top = hi + pad + (hi - lo + 2.0 * pad) * legend_share / (1.0 - legend_share);
        let y = (lo - pad).max(0.0)..top;
        let n = self.runs.len().max(1);
        let x = -0.5..n as f64 - 0.5;
        let every = n.div_ceil(12).max(1);
        let names = &self.runs;
        let mut chart = frame(root, &self.title)
            .build_cartesian_2d(x, y.clone())
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_labels(n.min(24))
            .x_label_formatter(&|v| {
                let i = v.round();
                if (v - i).abs() > 0.01 || i < 0.0 {
                    return String::new();
                }
                let i = i as usize;
                if !i.is_multiple_of(every) {
                    return String::new();
                }
                names
                    .get(i)
                    .map(|s| s.chars().take(12).collect())
                    .unwrap_or_default()
            })
            .y_label_formatter(&|v| y_label(*v, precise))
            .x_desc("run, in order")
            .y_desc(self.y_desc.as_str())
            .label_style((FONT, super::TEXT))
            .axis_desc_style((FONT, super::AXIS))
            .disable_x_mesh()
            .draw()
            .map_err(err)?;
        for m in &self.marks {
            let c = if m.regressed {
                RGBColor(213, 94, 0)
            } else {
                RGBColor(0, 158, 115)
            };
            // A rule between the run before and the run the change came in.
            let at = m.x as f64 - 0.5;
            let rule =
                DashedLineSeries::new([(at, y.start), (at, hi + pad)], 8, 5, c.stroke_width(2));
            chart.draw_series(rule).map_err(err)?;
            let label = Text::new(
                m.text.clone(),
                (at, hi + pad),
                (FONT, super::TEXT).into_font().color(&c),
            );
            chart.draw_series(std::iter::once(label)).map_err(err)?;
        }
        for s in &self.series {
            let (slot, c) = (s.slot, color(s.slot));
            let line: Vec<(f64, f64)> = s.points.iter().map(|p| (p.x as f64, p.value)).collect();
            // Each interval a bar with caps a fifth of a run wide.
            let bars = s.points.iter().filter_map(|p| {
                p.interval.map(|(lo, hi)| {
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
            chart
                .draw_series(LineSeries::new(line.clone(), c.stroke_width(2)))
                .map_err(err)?
                .label(s.name.clone())
                .legend(move |p| super::legend_mark(p, slot, true));
            super::draw_marks(&mut chart, line, slot, 10)?;
        }
        let labels: Vec<String> = self.series.iter().map(|s| s.name.clone()).collect();
        let paths: Vec<Vec<(f64, f64)>> = self
            .series
            .iter()
            .map(|s| s.points.iter().map(|p| (p.x as f64, p.value)).collect())
            .collect();
        legend(&mut chart, &labels, &paths, SeriesLabelPosition::UpperLeft)
    }
}

impl Timeline {
    /// The lowest and highest value drawn, intervals included.
    fn value_range(&self) -> (f64, f64) {
        let values = self.series.iter().flat_map(|s| {
            s.points.iter().flat_map(|p| {
                let (lo, hi) = p.interval.unwrap_or((p.value, p.value));
                [p.value, lo, hi]
            })
        });
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
        if lo.is_finite() {
            (lo, hi)
        } else {
            (0.0, 1.0)
        }
    }
}

/// A y axis's label: compact (`24k`), or with every digit (`24,328`) where
/// the range is narrow and compact labels would repeat.
fn y_label(v: f64, precise: bool) -> String {
    if precise && v >= 100.0 {
        crate::stats::thousands(v.round() as u64)
    } else if precise {
        format!("{v:.2}")
    } else {
        compact(v)
    }
}
