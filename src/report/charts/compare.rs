//! The charts of a comparison between two runs.

use super::{color, compact, err, frame, labelled_line, log_range, Chart, DrawError, FONT};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Per-puzzle time ratios (current over baseline) as one distribution per variant.
pub struct RatioDistribution {
    /// The dataset.
    pub dataset: String,
    /// The noise threshold, a fraction: shaded around 1×.
    pub threshold: f64,
    /// `(variant, palette index, sorted ratios)`.
    pub lines: Vec<(String, usize, Vec<f64>)>,
    /// Each line's puzzles that fail now and did not in the baseline
    /// (they have no ratio): said in its legend line.
    pub now_failing: Vec<u64>,
    /// What the chart leaves out, said under it: a contender's puzzles
    /// failed in either run (`partial: over the 16 of 30 puzzles both runs
    /// verified`), and contenders not run on the dataset's size.
    pub notes: Vec<String>,
}

/// The colour of a failure's mark, as on a history chart.
const FAILED: RGBColor = RGBColor(190, 0, 0);

/// A line's or row's name with its puzzles failing anew: `mine (3 now fail)`.
fn with_failing(name: &str, new: u64) -> String {
    match new {
        0 => name.to_string(),
        n => format!("{name} ({n} now fail)"),
    }
}

impl Chart for RatioDistribution {
    fn name(&self) -> String {
        format!("ratio-distribution-{}", crate::report::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!(
            "Per-puzzle time ratio, current / baseline: {}",
            self.dataset
        )
    }
    fn key(&self) -> Option<String> {
        let mut key = format!(
            "Shaded: the ±{:.0}% noise threshold around 1×.",
            100.0 * self.threshold
        );
        if self.now_failing.iter().any(|n| *n > 0) {
            key += " \"N now fail\": puzzles failing now that did not in the baseline, not in the curve.";
        }
        for n in &self.notes {
            key += &format!(" {n}.");
        }
        Some(key)
    }
    fn caption(&self) -> String {
        format!(
            "For each strategy on {}, the share of puzzles whose time now is at most a given multiple of \
             their baseline time (log scale; left of 1× is faster now). The shaded band is the ±{:.0}% noise \
             threshold; a curve that crosses 1× at 50% has not changed in the typical puzzle. \
             A strategy with puzzles that fail now and did not in the baseline says how many in \
             the legend (\"3 now fail\"); they have no ratio, so its curve leaves them out.",
            self.dataset,
            100.0 * self.threshold
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        // The ratios' span and the noise band, a little either side.
        let (lo, hi) = super::log_span(
            self.lines
                .iter()
                .flat_map(|l| l.2.iter().copied())
                .chain([1.0 / (1.0 + self.threshold), 1.0 + self.threshold]),
        )
        .unwrap_or((0.5, 2.0));
        let x = lo / 1.15..hi * 1.15;
        let labels: Vec<String> = self
            .lines
            .iter()
            .enumerate()
            .map(|(i, l)| with_failing(&l.0, self.now_failing.get(i).copied().unwrap_or(0)))
            .collect();
        let (root, room) = super::outside(root, &labels);
        let root = &root;
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(
                super::log_x_axis(x, root),
                super::share_axis(root, 1.02, 1.0),
            )
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time now / baseline time, per puzzle (log)")
            .y_desc("share of puzzles")
            .x_label_formatter(&|v| format!("{}×", compact(*v)))
            .y_label_formatter(&super::share_label)
            .label_style((FONT, super::TEXT))
            .axis_desc_style((FONT, super::AXIS))
            .draw()
            .map_err(err)?;
        let (lo, hi) = (1.0 / (1.0 + self.threshold), 1.0 + self.threshold);
        let area = chart.plotting_area();
        area.draw(&Rectangle::new(
            [(lo, 0.0), (hi, 1.02)],
            BLACK.mix(0.08).filled(),
        ))
        .map_err(err)?;
        area.draw(&PathElement::new(
            vec![(1.0, 0.0), (1.0, 1.02)],
            BLACK.mix(0.6),
        ))
        .map_err(err)?;
        let mut key = super::Key::default();
        for ((_, ci, ratios), name) in self.lines.iter().zip(&labels) {
            labelled_line(&mut chart, &mut key, name, *ci, super::ecdf(ratios))?;
        }
        super::legend_outside(&chart, &key, &room)
    }
}

/// Each variant's median time (or, `counted`, its instructions a puzzle)
/// in the baseline (hollow) and now (filled).
pub struct BeforeAfter {
    /// The dataset.
    pub dataset: String,
    /// `(variant, palette index, baseline, current)`: median µs, or mean
    /// instructions a puzzle; top row first.
    pub rows: Vec<(String, usize, f64, f64)>,
    /// Runs that counted instructions: the rows are counts, not times.
    pub counted: bool,
    /// Each row's puzzles that fail now and did not in the baseline:
    /// a dark red ✕ on its filled dot, the count beside it.
    pub now_failing: Vec<u64>,
    /// What the chart leaves out, said under it (as [`RatioDistribution::notes`]).
    pub notes: Vec<String>,
}

impl Chart for BeforeAfter {
    fn name(&self) -> String {
        format!("before-after-{}", crate::report::slug(&self.dataset))
    }
    fn title(&self) -> String {
        match self.counted {
            true => format!("Instructions per puzzle before and after: {}", self.dataset),
            false => format!("Median time before and after: {}", self.dataset),
        }
    }
    fn caption(&self) -> String {
        let what = match self.counted {
            true => "mean instructions per puzzle, counted by callgrind,",
            false => "median time per puzzle",
        };
        format!(
            "Each strategy's {what} on {} in the baseline (hollow circle, above its row's line) and now \
             (filled, below it), joined by a line (log scale; left is less). A dark red ✕ on the filled \
             circle marks a strategy with puzzles that fail now and did not in the baseline, their \
             count beside it (\"3 now fail\"); the medians leave failed puzzles out.",
            self.dataset
        )
    }
    fn key(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.now_failing.iter().any(|n| *n > 0) {
            parts.push(
                "Dark red cross: puzzles that fail now and did not in the baseline, their count beside it."
                    .to_string(),
            );
        }
        parts.extend(self.notes.iter().map(|n| format!("{n}.")));
        (!parts.is_empty()).then(|| parts.join(" "))
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let x = log_range(self.rows.iter().flat_map(|r| [r.2, r.3]));
        let n = self.rows.len().max(1) as f64;
        let names: Vec<String> = self.rows.iter().map(|r| r.0.clone()).collect();
        let chart = super::rows_chart(
            root,
            &self.title(),
            x,
            &names,
            &|v| compact(*v),
            match self.counted {
                true => "instructions per puzzle (log; ○ baseline, ● now)",
                false => "median time per puzzle, µs (log; ○ baseline, ● now)",
            },
        )?;
        for (i, (_, ci, before, after)) in self.rows.iter().enumerate() {
            let y = n - 1.0 - i as f64;
            let c = color(*ci);
            let area = chart.plotting_area();
            // The baseline a little above its row and now a little below,
            // so that a change too small to part them across still shows both.
            let (yb, ya) = (y + 0.14, y - 0.14);
            area.draw(&PathElement::new(
                vec![(*before, yb), (*after, ya)],
                c.stroke_width(2),
            ))
            .map_err(err)?;
            area.draw(&Circle::new((*before, yb), 7, c.stroke_width(2)))
                .map_err(err)?;
            area.draw(&Circle::new((*after, ya), 6, c.filled()))
                .map_err(err)?;
            let new = self.now_failing.get(i).copied().unwrap_or(0);
            if new > 0 {
                use plotters::style::text_anchor::{HPos, Pos, VPos};
                let cross = super::marker_shape(5, 16);
                area.draw(&(EmptyElement::at((*after, ya)) + Polygon::new(cross, FAILED.filled())))
                    .map_err(err)?;
                // Its count right of both dots, else left of them.
                let text = format!("{new} now fail");
                let wide = super::text_width(&text, super::TEXT as f64 / 1.24) as i32;
                let right_end = chart.backend_coord(&(before.max(*after), ya)).0;
                let plot_end = area.get_base_pixel().0 + area.dim_in_pixel().0 as i32;
                let style = (FONT, super::TEXT).into_font().color(&FAILED);
                let label = match right_end + 14 + wide <= plot_end {
                    true => {
                        EmptyElement::at((before.max(*after), ya))
                            + Text::new(
                                text,
                                (14, 0),
                                style.pos(Pos::new(HPos::Left, VPos::Center)),
                            )
                    }
                    false => {
                        EmptyElement::at((before.min(*after), ya))
                            + Text::new(
                                text,
                                (-14, 0),
                                style.pos(Pos::new(HPos::Right, VPos::Center)),
                            )
                    }
                };
                area.draw(&label).map_err(err)?;
            }
        }
        Ok(())
    }
}
