//! Distribution of per-puzzle times: an ECDF per variant on a log time axis.

use super::{
    compact, err, frame, labelled_line, legend, log_axis, log_range, Chart, DrawError, FONT,
};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Empirical cumulative distribution of solve times.
pub struct Distribution {
    /// Dataset name.
    pub dataset: String,
    /// `(variant name, palette index, the curve of its solved puzzles' times in µs)`.
    pub lines: Vec<super::Line>,
    /// Each line's puzzles, solved or not: its curve ends at solved / this.
    pub rows: Vec<usize>,
}

/// The ECDF of a line's solved times as shares of all its `rows` puzzles:
/// it ends at the share solved, never at 100% when some were not.
fn shares(times: &super::Curve, rows: usize) -> Vec<(f64, f64)> {
    let scale = times.n as f64 / rows.max(times.n).max(1) as f64;
    times
        .ecdf()
        .into_iter()
        .map(|(x, y)| (x, y * scale))
        .collect()
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
            "For each strategy on {}, the share of its puzzles solved (verified) within a given time; \
             a curve ends at the share it solved, since puzzles stopped by a budget or failed never count as finished \
             (the legend says how many of how many where fewer than all). A curve further left is faster, and its spread \
             shows how uneven the puzzles are for it.",
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
            .y_desc("share of puzzles solved")
            .x_label_formatter(&|v| compact(*v))
            .y_label_formatter(&|v: &f64| format!("{:.0}%", v * 100.0))
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .draw()
            .map_err(err)?;
        for (
            super::Line {
                label: name,
                color: ci,
                curve: times,
            },
            &rows,
        ) in self.lines.iter().zip(&self.rows)
        {
            let steps = shares(times, rows);
            let label = if times.n < rows {
                format!("{name} ({}/{rows})", times.n)
            } else {
                name.clone()
            };
            labelled_line(&mut chart, &label, *ci, steps)?;
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_curve_ends_at_the_share_solved() {
        // 3 of 4 puzzles solved (one stopped by the budget): it ends at 75%.
        let curve = super::super::Curve::from_sorted(&[1.0, 2.0, 5.0]);
        let steps = super::shares(&curve, 4);
        assert_eq!(steps.last(), Some(&(5.0, 0.75)));
        assert!(steps.iter().all(|&(_, y)| y <= 0.75));
        // All solved: it ends at 100%.
        assert_eq!(super::shares(&curve, 3).last(), Some(&(5.0, 1.0)));
    }
}
