//! Head to head: per-puzzle time of one variant against another, log-log, with the diagonal.

use super::{color, err, frame, log_axis, log_log_mesh, log_range, Chart};
use plotters::coord::Shift;
use plotters::prelude::*;

/// A scatter of matched puzzles.
pub struct HeadToHead {
    /// Dataset name.
    pub dataset: String,
    /// Variant on the x axis, with its palette index.
    pub a: (String, usize),
    /// Variant on the y axis, with its palette index.
    pub b: (String, usize),
    /// `(time of a, time of b)` in µs for puzzles both finished.
    pub points: Vec<(f64, f64)>,
    /// The dataset's puzzle count when `points` come from a sample of it.
    pub population: Option<u64>,
}

impl Chart for HeadToHead {
    fn name(&self) -> String {
        format!("head-to-head-{}", super::super::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!("{} vs {}: {}", self.a.0, self.b.0, self.dataset)
    }
    fn caption(&self) -> String {
        let above = self.points.iter().filter(|(x, y)| y > x).count();
        format!(
            "Each dot is a puzzle of {}: its time with {} (across) against {} (up); dots above the diagonal ({} of {}) were faster with {}.",
            self.dataset,
            self.a.0,
            self.b.0,
            above,
            self.points.len(),
            self.a.0
        ) + &super::sampled_note(self.points.len(), self.population)
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let r = log_range(self.points.iter().flat_map(|&(x, y)| [x, y]));
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(log_axis(r.clone()), log_axis(r.clone()))
            .map_err(err)?;
        log_log_mesh(
            &mut chart,
            &format!("{} time per puzzle, µs (log)", self.a.0),
            &format!("{} time per puzzle, µs (log)", self.b.0),
        )?;
        chart
            .draw_series(LineSeries::new(
                vec![(r.start, r.start), (r.end, r.end)],
                BLACK.mix(0.5).stroke_width(1),
            ))
            .map_err(err)?;
        let c = color(self.b.1);
        chart
            .draw_series(
                super::dots(&self.points)
                    .into_iter()
                    .map(|p| Circle::new(p, 2, c.mix(0.6).filled())),
            )
            .map_err(err)?;
        Ok(())
    }
}
