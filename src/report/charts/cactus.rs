//! Cactus plot: per-puzzle times sorted ascending against puzzles solved.

use super::{err, frame, labelled_line, log_range, Chart, DrawError, FONT};
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
    /// Strategies that solved none, each with what stopped them: named in
    /// the legend, drawn nowhere.
    pub unsolved: Vec<String>,
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
             a line further right solved more, a lower line solved them faster; where a strategy verified fewer than all, the legend says how many of how many, and which answers were wrong or failed (the rest were stopped by the node budget or a time limit); a strategy that solved none is named there.",
            self.dataset
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let y = log_range(self.lines.iter().flat_map(|l| l.curve.values()));
        let labels = super::lines_labels(&self.lines, &self.unsolved);
        let (root, room) = super::outside(root, &labels);
        let root = &root;
        let top = y.end;
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(
                0.0..(self.puzzles.max(1) as f64 * 1.02),
                super::log_y_axis_over(root, y.clone(), y),
            )
            .map_err(err)?;
        let y_desc = super::fit_any(
            &[
                "time per puzzle, µs (log)".into(),
                "µs per puzzle (log)".into(),
            ],
            chart.plotting_area().dim_in_pixel().1 as f64,
        );
        chart
            .configure_mesh()
            .x_labels(self.puzzles.clamp(1, 10) + 1)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .x_desc("puzzles solved")
            .y_desc(y_desc)
            .y_label_formatter(&|v| super::tick_below(*v, top))
            .label_style((FONT, super::TEXT))
            .axis_desc_style((FONT, super::AXIS))
            .draw()
            .map_err(err)?;
        let mut key = super::Key::default();
        for super::Line {
            label: name,
            color: ci,
            curve: times,
        } in &self.lines
        {
            let pts: Vec<(f64, f64)> = times.points.iter().map(|&(r, t)| (r as f64, t)).collect();
            labelled_line(&mut chart, &mut key, name, *ci, pts)?;
        }
        super::lines_legend_outside(&mut chart, &mut key, &self.unsolved, &room)
    }
}

/// The report's cactus plots and time distributions, a pair per dataset.
pub struct FromRun;

impl RunChart for FromRun {
    fn timed(&self) -> Option<&'static str> {
        Some("Cactus and time distribution")
    }

    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError> {
        let data = run.data;
        for (di, dname) in data.datasets.iter().enumerate() {
            let mut cactus = Vec::new();
            let mut dist = Vec::new();
            let mut rows = Vec::new();
            let mut unsolved = Vec::new();
            let mut puzzles = 0;
            for &v in run.order() {
                let Some(s) = data.series(v, di) else {
                    continue;
                };
                puzzles = puzzles.max(s.rows as usize);
                let line = |sk: &crate::stats::Sketch| super::Line {
                    label: crate::report::label_solved(data, v, dname),
                    color: run.color_of(v),
                    curve: super::Curve::from_ranks(sk.len() as usize, |r| {
                        sk.at_rank(r) as f64 / 1e3
                    }),
                };
                if !s.solved.is_empty() {
                    cactus.push(line(&s.solved));
                    dist.push(line(&s.solved));
                    rows.push(s.rows as usize);
                } else if s.rows > 0 {
                    unsolved.push(crate::report::label_solved(data, v, dname));
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
                    unsolved: unsolved.clone(),
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
                    unsolved,
                };
                run.draw(&chart, "distribution", out)?;
            }
        }
        Ok(())
    }
}
