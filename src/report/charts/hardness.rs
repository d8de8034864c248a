//! What makes a puzzle hard: time against guesses (or nodes) per puzzle for one variant.

use super::{color, err, frame, legend, log_axis, log_log_mesh, log_range, Chart};
use plotters::coord::Shift;
use plotters::prelude::*;

pub use crate::harness::plan::Metric;

/// A scatter per dataset for one variant.
pub struct Hardness {
    /// The variant.
    pub variant: String,
    /// The x-axis counter.
    pub metric: Metric,
    /// `(dataset name, points (counter, time µs), the dataset's puzzle count when the points are a sample)`.
    pub series: Vec<HardnessSeries>,
}

/// One dataset of the hardness chart: its name, its dots `(counter, time µs)`,
/// and its puzzle count when the dots are a sample of it.
pub type HardnessSeries = (String, Vec<(f64, f64)>, Option<u64>);

impl Chart for Hardness {
    fn name(&self) -> String {
        "hardness".into()
    }
    fn title(&self) -> String {
        let m = match self.metric {
            Metric::Guesses => "guesses",
            Metric::Nodes => "nodes",
        };
        format!("What makes a puzzle hard: {} time vs {m}", self.variant)
    }
    fn caption(&self) -> String {
        format!(
            "Each dot is a puzzle solved by {}, coloured by dataset: its time against the {} its search needed; \
             time grows with the size of the search, so search effort, not the clue count, is what makes a puzzle hard.",
            self.variant,
            match self.metric {
                Metric::Guesses => "guesses (plus one, for the log axis)",
                Metric::Nodes => "nodes",
            }
        ) + &self
            .series
            .iter()
            .map(|s| {
                let note = super::sampled_note(s.1.len(), s.2);
                if note.is_empty() {
                    note
                } else {
                    format!(" {}:{note}", s.0)
                }
            })
            .collect::<String>()
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let x = log_range(self.series.iter().flat_map(|s| s.1.iter().map(|p| p.0)));
        let y = log_range(self.series.iter().flat_map(|s| s.1.iter().map(|p| p.1)));
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(log_axis(x), log_axis(y))
            .map_err(err)?;
        let x_desc = match self.metric {
            Metric::Guesses => "guesses + 1 (log)",
            Metric::Nodes => "search nodes (log)",
        };
        log_log_mesh(&mut chart, x_desc, "time per puzzle, µs (log)")?;
        for (i, (name, pts, _)) in self.series.iter().enumerate() {
            // Datasets take the palette from its far end, away from the strategy colours.
            let c = color(9 - i % 10);
            chart
                .draw_series(
                    super::dots(pts)
                        .into_iter()
                        .map(|p| Circle::new(p, 2, c.mix(0.7).filled())),
                )
                .map_err(err)?
                .label(name.clone())
                .legend(move |(x, y)| Circle::new((x + 8, y), 4, c.filled()));
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}
