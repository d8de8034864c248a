//! Distribution of per-puzzle times: an ECDF per variant on a log time axis.

use super::{
    color, compact, err, frame, labelled_line, legend, log_axis, log_range, Chart, DrawError, FONT,
};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Empirical cumulative distribution of solve times.
pub struct Distribution {
    /// Dataset name.
    pub dataset: String,
    /// `(variant name, palette index, the curve of every row's time in µs)`.
    pub lines: Vec<super::Line>,
}

impl Chart for Distribution {
    fn name(&self) -> String {
        format!("distribution-{}", super::super::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!("Time distribution (ECDF): {}", self.dataset)
    }
    fn caption(&self) -> String {
        format!(
            "For each strategy on {}, the share of puzzles finished within a given time (budget-exhausted puzzles included at the time they stopped); \
             a curve further left is faster, and its spread shows how uneven the puzzles are for it.",
            self.dataset
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let x = log_range(self.lines.iter().flat_map(|l| l.curve.values()));
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(log_axis(x), 0.0..1.02)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time per puzzle, µs (log)")
            .y_desc("share of puzzles finished")
            .x_label_formatter(&|v| compact(*v))
            .y_label_formatter(&|v: &f64| format!("{:.0}%", v * 100.0))
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .draw()
            .map_err(err)?;
        for super::Line {
            label: name,
            color: ci,
            curve: times,
        } in &self.lines
        {
            let c = color(*ci);
            labelled_line(&mut chart, name, c, times.ecdf())?;
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    }
}
