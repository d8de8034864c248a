//! Relative speed on one dataset: each variant's paired speed ratio against the
//! reference, with its 95% confidence interval as whiskers.

use super::{color, compact, err, Chart};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One row per variant, the reference at 1×.
pub struct RelativeSpeed {
    /// The dataset.
    pub dataset: String,
    /// The variant every ratio is measured against.
    pub reference: String,
    /// `(variant name, palette index, speed, interval low, interval high)`, top row first.
    pub rows: Vec<(String, usize, f64, f64, f64)>,
}

impl Chart for RelativeSpeed {
    fn name(&self) -> String {
        format!("relative-speed-{}", crate::report::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!("Relative speed: {}", self.dataset)
    }
    fn caption(&self) -> String {
        format!(
            "Each strategy's speed on {} against {} (at 1×): the geometric mean over the puzzles both solved \
             of the time ratio, puzzle by puzzle, with its 95% bootstrap confidence interval as whiskers \
             (log scale; right of 1× is faster). Whiskers that cross the 1× line mean the difference is inside the noise.",
            self.dataset, self.reference
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        let (mut lo, mut hi) = (1.0f64, 1.0f64);
        for r in &self.rows {
            for v in [r.2, r.3, r.4]
                .into_iter()
                .filter(|v| *v > 0.0 && v.is_finite())
            {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        let x = (lo / 1.25)..(hi * 1.25);
        let n = self.rows.len().max(1) as f64;
        let names: Vec<String> = self.rows.iter().map(|r| r.0.clone()).collect();
        let chart = super::rows_chart(
            root,
            &self.title(),
            x,
            &names,
            &|v| format!("{}×", compact(*v)),
            &format!(
                "speed relative to {} (log; higher is faster)",
                self.reference
            ),
        )?;
        let one = PathElement::new(vec![(1.0, -0.5), (1.0, n - 0.5)], BLACK.mix(0.6));
        chart.plotting_area().draw(&one).map_err(err)?;
        for (i, (_, ci, speed, lo, hi)) in self.rows.iter().enumerate() {
            let y = n - 1.0 - i as f64;
            let c = color(*ci);
            let stroke = c.stroke_width(2);
            let area = chart.plotting_area();
            area.draw(&PathElement::new(vec![(*lo, y), (*hi, y)], stroke))
                .map_err(err)?;
            for end in [*lo, *hi] {
                area.draw(&PathElement::new(
                    vec![(end, y - 0.15), (end, y + 0.15)],
                    stroke,
                ))
                .map_err(err)?;
            }
            area.draw(&Circle::new((*speed, y), 6, c.filled()))
                .map_err(err)?;
        }
        Ok(())
    }
}
