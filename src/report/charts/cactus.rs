//! Cactus plot: per-puzzle times sorted ascending against puzzles solved.

use super::{
    compact, err, frame, labelled_line, legend, log_axis, log_range, Chart, DrawError, FONT,
};
use crate::report::{Report, ReportError, RunChart, RunCharts};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One line per variant: the k-th fastest solved puzzle's time at x = k.
pub struct Cactus {
    /// Dataset name.
    pub dataset: String,
    /// `(variant name, palette index, the curve of its solved puzzles' times in µs)`.
    pub lines: Vec<super::Line>,
    /// Puzzles in the dataset (x axis length).
    pub puzzles: usize,
}

impl Chart for Cactus {
    fn name(&self) -> String {
        format!("cactus-{}", super::super::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!("Cactus plot: {}", self.dataset)
    }
    fn caption(&self) -> String {
        format!(
            "For each strategy on {}, its per-puzzle times sorted ascending against the number of puzzles solved; \
             a line further right solved more, a lower line solved them faster, and a line that ends early ran out of budget.",
            self.dataset
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let y = log_range(self.lines.iter().flat_map(|l| l.curve.values()));
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(0.0..(self.puzzles.max(1) as f64 * 1.02), log_axis(y))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_labels(self.puzzles.clamp(1, 10) + 1)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .x_desc("puzzles solved")
            .y_desc("time per puzzle, µs (log)")
            .y_label_formatter(&|v| compact(*v))
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
            let pts: Vec<(f64, f64)> = times.points.iter().map(|&(r, t)| (r as f64, t)).collect();
            labelled_line(&mut chart, name, *ci, pts)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    }
}

/// The report's cactus plots and time distributions, a pair per dataset.
pub struct FromRun;

impl RunChart for FromRun {
    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError> {
        let data = run.data;
        for (di, dname) in data.datasets.iter().enumerate() {
            let mut cactus = Vec::new();
            let mut dist = Vec::new();
            let mut rows = Vec::new();
            let mut puzzles = 0;
            for &v in run.order() {
                let Some(s) = data.series(v, di) else {
                    continue;
                };
                puzzles = puzzles.max(s.rows as usize);
                let line = |sk: &crate::stats::Sketch| super::Line {
                    label: data.label(v),
                    color: run.color_of(v),
                    curve: super::Curve::from_ranks(sk.len() as usize, |r| {
                        sk.at_rank(r) as f64 / 1e3
                    }),
                };
                if !s.solved.is_empty() {
                    cactus.push(line(&s.solved));
                    dist.push(line(&s.solved));
                    rows.push(s.rows as usize);
                }
            }
            if cactus.is_empty() {
                out.skipped.push(format!(
                    "Cactus plot of {dname}: skipped, no strategy solved a puzzle of it."
                ));
            } else {
                let chart = Cactus {
                    dataset: dname.clone(),
                    lines: cactus,
                    puzzles,
                };
                run.draw(&chart, "cactus", out)?;
            }
            if dist.is_empty() {
                out.skipped.push(format!(
                    "Time distribution of {dname}: skipped, no strategy solved a puzzle of it."
                ));
            } else {
                let chart = super::Distribution {
                    dataset: dname.clone(),
                    lines: dist,
                    rows,
                };
                run.draw(&chart, "distribution", out)?;
            }
        }
        Ok(())
    }
}
