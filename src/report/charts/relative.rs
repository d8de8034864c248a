//! Relative speed on one dataset: each variant's paired speed ratio against the
//! reference, with its 95% confidence interval as whiskers.

use super::{color, compact, err, Chart, DrawError};
use crate::report::{Report, ReportError, RunChart, RunCharts};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One row per variant, the reference at 1×.
pub struct RelativeSpeed {
    /// The dataset.
    pub dataset: String,
    /// The variant every ratio is measured against.
    pub reference: String,
    /// One row per variant, top row first.
    pub rows: Vec<SpeedRow>,
    /// How the intervals were made: `a t-interval over 5 rounds`, or `a
    /// bootstrap over the puzzles`.
    pub method: String,
    /// Variants that ran but have no speed here, each with why.
    pub left_out: Vec<String>,
}

/// One variant's speed against the reference, with its interval.
#[derive(Clone, Debug)]
pub struct SpeedRow {
    /// The variant's label.
    pub label: String,
    /// Its palette index.
    pub color: usize,
    /// The speed ratio (above 1 is faster).
    pub speed: f64,
    /// The interval's low end.
    pub lo: f64,
    /// The interval's high end.
    pub hi: f64,
}

impl Chart for RelativeSpeed {
    fn name(&self) -> String {
        format!("relative-speed-{}", crate::report::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!("Relative speed: {}", self.dataset)
    }
    fn caption(&self) -> String {
        let mut caption = format!(
            "Each strategy's speed on {} against {} (at 1×): the geometric mean over the puzzles both solved \
             of the time ratio, puzzle by puzzle, with its 95% interval ({}) as whiskers \
             (log scale; right of 1× is faster). Whiskers that cross the 1× line mean the difference is inside the noise.",
            self.dataset, self.reference, self.method
        );
        if !self.left_out.is_empty() {
            caption.push_str(&format!(" Not shown: {}.", self.left_out.join(", ")));
        }
        caption
    }
    fn not_shown(&self) -> Vec<String> {
        self.left_out.clone()
    }
    fn key(&self) -> Option<String> {
        Some(format!(
            "Whiskers: each mean's 95% interval ({}); one crossing 1× is inside the noise; a mark without whiskers has an interval narrower than the mark.",
            self.method
        ))
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let (mut lo, mut hi) = (1.0f64, 1.0f64);
        for r in &self.rows {
            for v in [r.speed, r.lo, r.hi]
                .into_iter()
                .filter(|v| *v > 0.0 && v.is_finite())
            {
                lo = lo.min(v);
                hi = hi.max(v);
            }
        }
        let x = (lo / 1.25)..(hi * 1.25);
        let n = self.rows.len().max(1) as f64;
        let names: Vec<String> = self.rows.iter().map(|r| r.label.clone()).collect();
        let label = |v: &f64| format!("{}×", compact(*v));
        // Shorter names for a narrow plot, longest first; 1× always named.
        let r = &self.reference;
        let desc = format!(
            "speed relative to {r} (log; higher is faster)\n\
             speed relative to {r} (log)\n\
             speed against {r} (log)\n\
             × {r}'s speed (log)\n\
             speed (log)"
        );
        let axis = super::XAxis {
            range: x,
            label: &label,
            desc: &desc,
            always: &[1.0],
        };
        let mut chart = super::rows_chart_over(root, &self.title(), &axis, &names)?;
        let one = PathElement::new(vec![(1.0, -0.5), (1.0, n - 0.5)], BLACK.mix(0.6));
        chart.plotting_area().draw(&one).map_err(err)?;
        for (i, r) in self.rows.iter().enumerate() {
            let (ci, speed, lo, hi) = (&r.color, &r.speed, &r.lo, &r.hi);
            let y = n - 1.0 - i as f64;
            let c = color(*ci);
            let stroke = c.stroke_width(2);
            // An interval narrower than the mark is left to the mark: its
            // caps alone, either side of it, would read as part of it.
            let px = |v: f64| chart.backend_coord(&(v, y)).0;
            let hidden = super::within_mark(px(*lo), px(*speed), px(*hi));
            let area = chart.plotting_area();
            if !hidden {
                area.draw(&PathElement::new(vec![(*lo, y), (*hi, y)], stroke))
                    .map_err(err)?;
                for end in [*lo, *hi] {
                    area.draw(&PathElement::new(
                        vec![(end, y - 0.15), (end, y + 0.15)],
                        stroke,
                    ))
                    .map_err(err)?;
                }
            }
            super::draw_marks(&mut chart, [(*speed, y)], *ci, 13)?;
        }
        Ok(())
    }
}

/// The report's relative-speed charts: one per dataset where two or more
/// variants ran.
pub struct FromRun;

impl RunChart for FromRun {
    fn timed(&self) -> Option<&'static str> {
        Some("Relative speed")
    }

    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError> {
        let data = run.data;
        for dname in crate::export::first_seen(data.summary.iter().map(|r| r.dataset.as_str())) {
            let mut rows = Vec::new();
            let mut reference = String::new();
            let mut left_out = Vec::new();
            let mut rounds = 0;
            for r in data.summary.iter().filter(|r| r.dataset == dname) {
                rounds = rounds.max(r.rounds);
                if r.speed.is_none() && !r.reference.is_empty() {
                    left_out.push(if r.stands() {
                        format!("{} (no puzzle solved by both)", r.label())
                    } else {
                        format!("{} ({}: under half verified)", r.label(), r.failure_cell())
                    });
                }
                if let (Some(speed), Some(lo), Some(hi)) = (r.speed, r.speed_lo, r.speed_hi) {
                    let v = crate::report::find_variant(data, &r.variant);
                    rows.push(SpeedRow {
                        // With its k/n where it verified fewer than all.
                        label: v.map_or_else(
                            || r.label(),
                            |v| crate::report::label_solved(data, v, dname),
                        ),
                        color: v.map_or(0, |v| run.color_of(v)),
                        speed,
                        lo,
                        hi,
                    });
                    reference = r.reference.clone();
                }
            }
            if rows.len() < 2 {
                continue; // one strategy: nothing to relate
            }
            rows.sort_by(|a, b| b.speed.total_cmp(&a.speed).then(a.label.cmp(&b.label)));
            let chart = RelativeSpeed {
                dataset: dname.to_string(),
                reference,
                rows,
                method: if rounds > 1 {
                    format!("a t-interval over {rounds} rounds")
                } else {
                    "a bootstrap over the puzzles".into()
                },
                left_out,
            };
            run.draw(&chart, "relative-speed", out)?;
        }
        Ok(())
    }
}
