//! Why the fast are fast: each variant's search size against its cost per node on one dataset.

use super::{
    color, compact, err, frame, log_axis, log_log_mesh, log_range, Chart, DrawError, FONT,
};
use crate::report::{Report, ReportError, RunChart, RunCharts};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One point per variant: mean nodes per puzzle and mean time per node.
pub struct SearchCost {
    /// The dataset.
    pub dataset: String,
    /// `(variant name, palette index, nodes per puzzle, µs per node)`.
    pub points: Vec<CostPoint>,
    /// Variants that ran on it but are not drawn, each with why.
    pub left_out: Vec<String>,
}

/// One variant on one dataset: its search size and its cost per node.
#[derive(Clone, Debug)]
pub struct CostPoint {
    /// The variant's label.
    pub label: String,
    /// Its palette index.
    pub color: usize,
    /// Mean search nodes per puzzle.
    pub nodes: f64,
    /// Solver µs per node.
    pub per_node_us: f64,
}

impl Chart for SearchCost {
    fn name(&self) -> String {
        format!("search-cost-{}", crate::report::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!("Search size and cost per node: {}", self.dataset)
    }
    fn caption(&self) -> String {
        format!(
            "Each dot is a strategy on {}: the search nodes it needed per puzzle (mean) against its solver \
             time per node; time per puzzle is their product, so the grey diagonals are equal time per \
             puzzle and a strategy is fast by searching less (left), by spending less per node (down), or both.",
            self.dataset
        )
    }
    fn not_shown(&self) -> Vec<String> {
        self.left_out.clone()
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let x = log_range(self.points.iter().map(|p| p.nodes));
        let y = log_range(self.points.iter().map(|p| p.per_node_us));
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(super::log_x_axis(x.clone(), root), log_axis(y.clone()))
            .map_err(err)?;
        log_log_mesh(
            &mut chart,
            "search nodes per puzzle, mean (log)",
            "solver time per node, µs (log)",
        )?;
        // Diagonals of equal time per puzzle (x · y = t), clipped to the plot, at each power of ten.
        let (lo, hi) = (x.start * y.start, x.end * y.end);
        let mut t = 10f64.powi(lo.log10().ceil() as i32);
        while t <= hi {
            let (x0, x1) = ((t / y.end).max(x.start), (t / y.start).min(x.end));
            if x0 < x1 {
                let line = PathElement::new(vec![(x0, t / x0), (x1, t / x1)], BLACK.mix(0.3));
                chart.plotting_area().draw(&line).map_err(err)?;
                // The label at the line's middle: above it to the right where
                // it fits (the line falls away under it), else below it to
                // the left (the line rises away over it).
                let text = format!("{} µs/puzzle", compact(t));
                let mid = (x0 * x1).sqrt();
                let at = (mid, t / mid);
                let px = chart.backend_coord(&at).0 - chart.plotting_area().get_base_pixel().0;
                let room = chart.plotting_area().dim_in_pixel().0 as i32 - px;
                let wide = super::text_width(&text, super::TEXT as f64 / 1.24) as i32 + 8;
                let style = (FONT, super::TEXT).into_font().color(&BLACK.mix(0.6));
                let label = if wide <= room {
                    Text::new(text, (4, -4), style.pos(Pos::new(HPos::Left, VPos::Bottom)))
                } else {
                    Text::new(text, (-4, 4), style.pos(Pos::new(HPos::Right, VPos::Top)))
                };
                chart
                    .plotting_area()
                    .draw(&(EmptyElement::at(at) + label))
                    .map_err(err)?;
            }
            t *= 10.0;
        }
        for CostPoint {
            label: name,
            color: ci,
            nodes,
            per_node_us: cost,
        } in &self.points
        {
            let c = color(*ci);
            let p = (*nodes, *cost);
            let _ = c;
            super::draw_marks(&mut chart, [p], *ci, 13)?;
            // Names of dots near the right edge go on their left, inside the plot.
            let right = (nodes / x.start).ln() > 0.7 * (x.end / x.start).ln();
            let style = (FONT, super::TEXT).into_font().color(&BLACK);
            let label = if right {
                let style = style.pos(Pos::new(HPos::Right, VPos::Center));
                Text::new(name.clone(), (-9, 0), style)
            } else {
                let style = style.pos(Pos::new(HPos::Left, VPos::Center));
                Text::new(name.clone(), (9, 0), style)
            };
            chart
                .plotting_area()
                .draw(&(EmptyElement::at(p) + label))
                .map_err(err)?;
        }
        Ok(())
    }
}

/// The report's search-size charts: one per dataset where nodes were counted.
pub struct FromRun;

impl RunChart for FromRun {
    fn timed(&self) -> Option<&'static str> {
        Some("Search cost")
    }

    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError> {
        let data = run.data;
        for (di, dname) in data.datasets.iter().enumerate() {
            let points: Vec<CostPoint> = run
                .order()
                .iter()
                .filter(|&&v| crate::report::stands(data, v, dname))
                .filter_map(|&v| {
                    let (nodes, per_node_us) = crate::report::node_costs(data, di, v)?;
                    Some(CostPoint {
                        label: crate::report::label_solved(data, v, dname),
                        color: run.color_of(v),
                        nodes,
                        per_node_us,
                    })
                })
                .collect();
            if points.len() < 2 {
                out.skipped.push(format!(
                    "Search size and cost per node on {dname}: skipped, fewer than two strategies with figures (verified on half their puzzles or more) solved a puzzle of it."
                ));
            } else {
                let shown: Vec<&str> = points.iter().map(|p| p.label.as_str()).collect();
                let left_out = data
                    .summary
                    .iter()
                    .filter(|r| &r.dataset == dname)
                    .filter_map(|r| {
                        let v = crate::report::find_variant(data, &r.variant)?;
                        let label = crate::report::label_solved(data, v, dname);
                        (!shown.contains(&label.as_str())).then(|| match r.stands() {
                            false => {
                                format!("{} ({}: under half verified)", r.label(), r.failure_cell())
                            }
                            true => format!("{} (no node counts)", r.label()),
                        })
                    })
                    .collect();
                let chart = SearchCost {
                    dataset: dname.clone(),
                    points,
                    left_out,
                };
                run.draw(&chart, "search-cost", out)?;
            }
        }
        Ok(())
    }
}
