//! Relative speed on one dataset across machines: one row per variant, one
//! dot with its 95% interval per machine, each machine its own colour.

use super::{color, compact, err, legend, Chart, DrawError};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One dataset's speeds, machine by machine.
pub struct MachineSpeed {
    /// The dataset.
    pub dataset: String,
    /// The variant every ratio is measured against, on each machine.
    pub reference: String,
    /// Machine labels, in colour order.
    pub machines: Vec<String>,
    /// Variant names, top row first.
    pub variants: Vec<String>,
    /// `(variant index, machine index, speed, interval low, interval high)`.
    pub points: Vec<(usize, usize, f64, f64, f64)>,
}

impl Chart for MachineSpeed {
    fn name(&self) -> String {
        format!("machines-{}", crate::report::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!("Relative speed by machine: {}", self.dataset)
    }
    fn key(&self) -> Option<String> {
        Some("Whiskers: each mean's 95% interval on its machine.".into())
    }
    fn caption(&self) -> String {
        format!(
            "Each strategy's speed on {} against {} on the same machine (at 1×), one colour per machine, \
             with its 95% interval as whiskers (log scale; right of 1× is faster). Where one strategy's \
             whiskers do not overlap from one machine to another, the ratio itself depends on the machine.",
            self.dataset, self.reference
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let (mut lo, mut hi) = (1.0f64, 1.0f64);
        for p in &self.points {
            for v in [p.2, p.3, p.4]
                .into_iter()
                .filter(|v| *v > 0.0 && v.is_finite())
            {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        let n = self.variants.len().max(1) as f64;
        // The legend in rows of its own above the first, where no dot is.
        let room = super::legend_rows(root, self.machines.len(), n);
        let mut chart = super::rows_chart_with_room(
            root,
            &self.title(),
            (lo / 1.25)..(hi * 1.25),
            &self.variants,
            &|v| format!("{}×", compact(*v)),
            &format!(
                "speed relative to {} on the same machine (log; higher is faster)",
                self.reference
            ),
            room,
        )?;
        let one = PathElement::new(vec![(1.0, -0.5), (1.0, n - 0.5)], BLACK.mix(0.6));
        chart.plotting_area().draw(&one).map_err(err)?;
        // Machines side by side within a row, the first on top.
        let m = self.machines.len().max(1) as f64;
        let shift = |mi: usize| match m > 1.0 {
            true => 0.3 - 0.6 * mi as f64 / (m - 1.0),
            false => 0.0,
        };
        for (mi, label) in self.machines.iter().enumerate() {
            let c = color(mi);
            let stroke = c.stroke_width(2);
            let dy = shift(mi);
            let mine: Vec<_> = self.points.iter().filter(|p| p.1 == mi).collect();
            for p in &mine {
                let y = n - 1.0 - p.0 as f64 + dy;
                let area = chart.plotting_area();
                area.draw(&PathElement::new(vec![(p.3, y), (p.4, y)], stroke))
                    .map_err(err)?;
                for end in [p.3, p.4] {
                    area.draw(&PathElement::new(
                        vec![(end, y - 0.06), (end, y + 0.06)],
                        stroke,
                    ))
                    .map_err(err)?;
                }
            }
            chart
                .draw_series(
                    mine.iter()
                        .map(|p| Circle::new((p.2, n - 1.0 - p.0 as f64 + dy), 5, c.filled())),
                )
                .map_err(err)?
                .label(label.clone())
                .legend(move |(x, y)| Circle::new((x + 6, y), 5, c.filled()));
        }
        let marks: Vec<Vec<(f64, f64)>> = self
            .points
            .iter()
            .map(|p| {
                let y = n - 1.0 - p.0 as f64 + shift(p.1);
                vec![(p.3, y), (p.2, y), (p.4, y)]
            })
            .collect();
        legend(
            &mut chart,
            &self.machines,
            &marks,
            SeriesLabelPosition::UpperLeft,
        )
    }
}
