//! A hunt's progress: the best score found so far against the time into the
//! hunt, a step line (it never falls).

use super::{color, compact, err, frame, log_axis, log_range, Chart, DrawError, FONT};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The best score over a hunt.
pub struct HuntProgress {
    /// What the score is, for the y axis: `band guesses`, `bitset-mrv / dlx nodes`.
    pub score: String,
    /// `(seconds into the hunt, best score)` each time the best improved.
    pub steps: Vec<(f64, f64)>,
    /// The hunt's length, seconds: the line runs on to it.
    pub end_s: f64,
}

impl Chart for HuntProgress {
    fn name(&self) -> String {
        "hunt-progress".into()
    }
    fn title(&self) -> String {
        format!("Hunt: best {} found so far", self.score)
    }
    fn caption(&self) -> String {
        format!(
            "The best {} among the puzzles found so far, against the seconds into the hunt (log scale); each step is a better puzzle.",
            self.score
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        // A log axis has no 0: scores of 0 (a start solved with no guess) are left out.
        let steps: Vec<(f64, f64)> = self.steps.iter().copied().filter(|s| s.1 > 0.0).collect();
        let end = self
            .end_s
            .max(self.steps.last().map_or(0.0, |s| s.0))
            .max(1e-3);
        let y = log_range(steps.iter().map(|s| s.1));
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(0.0..end * 1.02, log_axis(y))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("seconds into the hunt")
            .y_desc(format!("best {} (log)", self.score))
            .x_label_formatter(&|v| compact(*v))
            .y_label_formatter(&|v| compact(*v))
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .draw()
            .map_err(err)?;
        let mut line = Vec::with_capacity(steps.len() * 2 + 1);
        for (i, &(t, v)) in steps.iter().enumerate() {
            if i > 0 {
                line.push((t, steps[i - 1].1));
            }
            line.push((t, v));
        }
        if let Some(&(_, v)) = steps.last() {
            line.push((end, v));
        }
        let c = color(0);
        chart
            .draw_series(LineSeries::new(line, c.stroke_width(2)))
            .map_err(err)?;
        chart
            .draw_series(
                steps
                    .iter()
                    .map(|&(t, v)| Circle::new((t, v), 3, c.filled())),
            )
            .map_err(err)?;
        Ok(())
    }
}
