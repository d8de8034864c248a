//! Puzzles per second against worker threads, one line per strategy, with the
//! ideal (linear from the fewest threads) dashed beside each.

use super::{color, err, frame, log_range, Chart, DrawError, FONT};
use plotters::coord::combinators::BindKeyPoints;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One variant's curve: its name, palette index and `(threads, puzzles/s)` points.
pub type Curve = (String, usize, Vec<(usize, f64)>);

/// One dataset's scaling curve.
pub struct Scaling {
    /// The dataset.
    pub dataset: String,
    /// One curve per variant.
    pub series: Vec<Curve>,
    /// The machine's logical cores, where the run says: marked where
    /// threads run past them (they share cores there, and the ideal no
    /// longer holds).
    pub cores: Option<usize>,
}

impl Scaling {
    /// The core count to mark: where some thread count runs past it.
    fn cores_passed(&self) -> Option<usize> {
        let most = self
            .series
            .iter()
            .flat_map(|s| s.2.iter())
            .map(|p| p.0)
            .max()?;
        self.cores.filter(|&c| c >= 1 && most > c)
    }
}

impl Chart for Scaling {
    fn name(&self) -> String {
        format!("scaling-{}", crate::report::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!("Scaling with threads: {}", self.dataset)
    }
    fn key(&self) -> Option<String> {
        let cores = match self.cores_passed() {
            Some(c) => format!(
                " Dotted: the machine's {c} logical {}; past it threads share cores, so those points are hollow: puzzles/s, taken over each thread's own time in its calls, overstates what the machine does there.",
                if c == 1 { "core" } else { "cores" }
            ),
            None => String::new(),
        };
        Some(format!(
            "Dashed: each strategy's ideal, linear from its fewest threads.{cores}"
        ))
    }
    fn caption(&self) -> String {
        format!(
            "Puzzles per second on {} against worker threads (log-log); each dashed line is that strategy's ideal, linear from its fewest threads. Puzzles per second: {}.",
            self.dataset,
            crate::harness::summary::PUZZLES_PER_SEC_MEANS
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let points = || self.series.iter().flat_map(|s| s.2.iter());
        let max_t = points().map(|p| p.0).max().unwrap_or(1).max(2) as f64;
        let min_t = points().map(|p| p.0).min().unwrap_or(1).max(1) as f64;
        // The ideal lines reach past the measured points: they bound the y range too.
        let ideal = |pts: &[(usize, f64)], t: f64| {
            pts.first()
                .map(|&(t0, v0)| v0 * t / t0.max(1) as f64)
                .unwrap_or(0.0)
        };
        let y = log_range(
            points()
                .map(|p| p.1)
                .chain(self.series.iter().map(|s| ideal(&s.2, max_t))),
        );
        // The legend beside or under the plot, clear of the data.
        let labels: Vec<String> = self.series.iter().map(|s| s.0.clone()).collect();
        let (root, room) = super::outside(root, &labels);
        let root = &root;
        let (top, data) = (y.end, y.clone());
        let x = min_t / 1.25..max_t * 1.25;
        // A tick at each thread count measured, and none between.
        let mut counts: Vec<f64> = points().map(|p| p.0 as f64).collect();
        counts.sort_by(f64::total_cmp);
        counts.dedup();
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(
                x.log_scale()
                    .with_key_points(counts)
                    .with_light_points(Vec::<f64>::new()),
                super::log_y_axis_over(root, y, data.clone()),
            )
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| {
                if *v >= 1.0 && (v - v.round()).abs() < 0.01 {
                    format!("{v:.0}")
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| super::tick_below(*v, top))
            .x_desc("worker threads (log)")
            .y_desc("puzzles per second (log)")
            .label_style((FONT, super::TEXT))
            .axis_desc_style((FONT, super::AXIS))
            .draw()
            .map_err(err)?;
        if let Some(c) = self.cores_passed() {
            // A dotted rule at the core count, named at its top, left of
            // it: drawn first, so that the marks stand over it.
            let (c, area) = (c as f64, chart.plotting_area());
            let (x, y0) = chart.backend_coord(&(c, data.start));
            let (_, y1) = chart.backend_coord(&(c, data.end));
            let base = area.get_base_pixel();
            let area = area.strip_coord_spec();
            let mut py = y0 - base.1;
            while py > y1 - base.1 {
                let dot = vec![(x - base.0, py), (x - base.0, (py - 4).max(y1 - base.1))];
                area.draw(&PathElement::new(dot, BLACK.mix(0.45).stroke_width(2)))
                    .map_err(err)?;
                py -= 9;
            }
            let word = if c == 1.0 { "core" } else { "cores" };
            let style = (FONT, super::TEXT)
                .into_font()
                .color(&BLACK.mix(0.75))
                .pos(Pos::new(HPos::Right, VPos::Top));
            area.draw(&Text::new(
                format!("{c} {word}"),
                (x - base.0 - 6, y1 - base.1 + 4),
                style,
            ))
            .map_err(err)?;
        }
        let mut key = super::Key::default();
        for (name, ci, pts) in &self.series {
            let (slot, c) = (*ci, color(*ci));
            let line: Vec<(f64, f64)> = pts.iter().map(|&(t, v)| (t as f64, v)).collect();
            let anno = chart
                .draw_series(LineSeries::new(line.clone(), c.stroke_width(2)))
                .map_err(err)?;
            key.add(anno, name.clone(), move |p| {
                super::legend_mark(p, slot, true)
            });
            // Points past the core count hollow: threads shared cores there.
            let past = |t: f64| self.cores_passed().is_some_and(|c| t > c as f64);
            let (beyond, within): (Vec<_>, Vec<_>) = line.iter().partition(|p| past(p.0));
            super::draw_marks(&mut chart, within, slot, 10)?;
            // Filled white inside. A cross or plus is drawn larger, its
            // edge thinner: at 10 px with a 2 px edge its 2 px arms would
            // read as solid.
            let kind = super::marker_kind(slot);
            let thin = matches!(kind % super::MARKERS, 5 | 6);
            let mut ring = super::marker_shape(kind, if thin { 14 } else { 10 });
            ring.push(ring[0]);
            let edge = if thin { 1 } else { 2 };
            chart
                .draw_series(beyond.into_iter().map(|p| {
                    EmptyElement::at(p)
                        + Polygon::new(ring.clone(), WHITE.filled())
                        + PathElement::new(ring.clone(), c.stroke_width(edge))
                }))
                .map_err(err)?;
            if let Some(&(t0, _)) = pts.first() {
                let from = (t0 as f64, ideal(pts, t0 as f64));
                let to = (max_t, ideal(pts, max_t));
                chart
                    // Long dashes: few ends to round to a pixel, so the
                    // line reads straight even at 3.5 in.
                    .draw_series(DashedLineSeries::new([from, to], 12, 6, c.stroke_width(1)))
                    .map_err(err)?;
            }
        }
        super::legend_outside(&chart, &key, &room)
    }
}
