//! Distribution of per-puzzle times: an ECDF per variant on a log time axis.

use super::{compact, err, frame, labelled_line, log_range, Chart, DrawError, FONT};
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
    /// Strategies that solved none, each with what stopped them: named in
    /// the legend, drawn nowhere.
    pub unsolved: Vec<String>,
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
             (where fewer than all, the legend says how many of how many, and which answers were wrong or failed, the rest having been stopped by the node budget or a time limit; a strategy that solved none is named there). A curve further left is faster, and its spread \
             shows how uneven the puzzles are for it.",
            self.dataset
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let x = log_range(self.lines.iter().flat_map(|l| l.curve.values()));
        let labels = super::lines_labels(&self.lines, &self.unsolved);
        let (root, room) = super::outside(root, &labels);
        let root = &root;
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(
                super::log_x_axis(x, root),
                super::share_axis(root, 1.02, 1.0),
            )
            .map_err(err)?;
        let (_, ph) = chart.plotting_area().dim_in_pixel();
        let y_desc = super::fit_any(
            &["share of puzzles solved".into(), "share solved".into()],
            ph as f64,
        );
        chart
            .configure_mesh()
            .x_desc("time per puzzle, µs (log)")
            .y_desc(y_desc)
            .x_label_formatter(&|v| compact(*v))
            .y_label_formatter(&super::share_label)
            .label_style((FONT, super::TEXT))
            .axis_desc_style((FONT, super::AXIS))
            .draw()
            .map_err(err)?;
        let mut key = super::Key::default();
        for (
            super::Line {
                label: name,
                color: ci,
                curve: times,
            },
            &rows,
        ) in self.lines.iter().zip(&self.rows)
        {
            labelled_line(&mut chart, &mut key, name, *ci, shares(times, rows))?;
        }
        super::lines_legend_outside(&mut chart, &mut key, &self.unsolved, &room)
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

    #[test]
    fn the_share_axis_has_no_tick_in_the_legends_room() {
        use plotters::coord::ranged1d::{BoldPoints, LightPoints, Ranged};
        use plotters::prelude::*;
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (960, 560)).into_drawing_area();
        let axis = super::super::share_axis(&root, 1.6, 0.6);
        let fifths = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0];
        assert_eq!(axis.key_points(BoldPoints(20)), fifths);
        assert_eq!(axis.key_points(LightPoints::new(20, 100)).len(), 11);
        assert_eq!(axis.map(&1.0, (0, 160)), 100);
        // A short plot: fewer labels.
        let axis = super::super::share_axis(&root, 1.6, 0.25);
        assert_eq!(axis.key_points(BoldPoints(20)), [0.0, 0.5, 1.0]);
    }
}
