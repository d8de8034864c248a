//! A hunt's progress: each island's best score against the time into the
//! hunt, thin step lines, and the best of all of them, a thick one (none
//! of them falls).

use super::{color, compact, err, frame, log_range, Chart, DrawError, FONT};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The best score over a hunt.
pub struct HuntProgress {
    /// What the score is, for the y axis: `band guesses`, `bitset-mrv / dlx nodes`.
    pub score: String,
    /// `(seconds into the hunt, island, its best score)` each time an
    /// island bettered its best.
    pub steps: Vec<(f64, usize, f64)>,
    /// The hunt's length, seconds: the line runs on to it.
    pub end_s: f64,
    /// How many islands the hunt ran (one with no step above 0 draws no line).
    pub islands: usize,
    /// The best score among the starts: the best of all starts there, at 0 s.
    pub start_best: f64,
    /// A ratio of guesses: each count has one added first (0 guesses is
    /// a cost), which the axis says.
    pub plus_one: bool,
}

impl Chart for HuntProgress {
    fn name(&self) -> String {
        "hunt-progress".into()
    }
    fn title(&self) -> String {
        format!("Hunt: best {} found so far", self.score)
    }
    fn caption(&self) -> String {
        format!(
            "Each island's best {} so far (gray lines; a drop is a restart from a new puzzle or a puzzle taken from the best island; an island that never bettered its start has no line, and so has one that never ran: islands take turns an epoch at a time, and a short hunt on few threads reaches only some) and the best of all (black, from the best start at 0 s, a mark at each better puzzle), against the seconds into the hunt; the score's axis is log scale{}.",
            self.score,
            match self.plus_one {
                true => ", and each guess count has one added before the ratio is taken (a puzzle solved with no guess costs 0)",
                false => "",
            }
        )
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        // A log axis has no 0: scores of 0 (a start solved with no guess) are left out.
        let all: Vec<(f64, usize, f64)> =
            self.steps.iter().copied().filter(|s| s.2 > 0.0).collect();
        let end = self
            .end_s
            .max(all.iter().map(|s| s.0).fold(0.0, f64::max))
            .max(1e-3);
        let drawn = all.iter().map(|s| s.1 + 1).max().unwrap_or(0);
        let islands = self.islands.max(drawn);
        let mut seen: Vec<usize> = all.iter().map(|s| s.1).collect();
        seen.sort_unstable();
        seen.dedup();
        // An island that never bettered 0 has no line on a log axis: said.
        let unseen = islands - seen.len();
        let each = format!(
            "each of {islands} island{}{}: its best so far (a drop: a restart)",
            if islands == 1 { "" } else { "s" },
            match unseen {
                0 => String::new(),
                k => format!(" ({k} never bettered its start or never ran: no line)"),
            }
        );
        // The legend beside or under the plot, clear of the lines.
        let best = "the best of all, from the best start (each mark: a better puzzle)";
        let (root, room) = super::outside(root, &[each.clone(), best.to_string()]);
        let root = &root;
        let y = log_range(all.iter().map(|s| s.2).chain([self.start_best]));
        let (top, data) = (y.end, y.clone());
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(0.0..end * 1.02, super::log_y_axis_over(root, y, data))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("seconds into the hunt")
            // One light line between labelled seconds, not ten.
            .x_max_light_lines(1)
            .y_desc(super::fit_any(
                &match self.plus_one {
                    true => vec![
                        format!("best {}, each + 1 (log)", self.score),
                        format!("{}, each + 1 (log)", self.score),
                    ],
                    false => vec![format!("best {} (log)", self.score)],
                },
                root.dim_in_pixel().1 as f64 - 130.0,
            ))
            .x_label_formatter(&|v| compact(*v))
            .y_label_formatter(&|v| super::tick_below(*v, top))
            .label_style((FONT, super::TEXT))
            .axis_desc_style((FONT, super::AXIS))
            .draw()
            .map_err(err)?;
        let mut key = super::Key::default();
        for island in 0..drawn {
            let steps: Vec<(f64, f64)> = all
                .iter()
                .filter(|s| s.1 == island)
                .map(|s| (s.0, s.2))
                .collect();
            // Every island alike, in one thin gray: which island is which
            // does not matter, how they climb and restart does; thin, so
            // that islands running close stay apart.
            let c = RGBColor(110, 110, 110);
            let s = chart
                .draw_series(LineSeries::new(step_line(&steps, end), c.stroke_width(1)))
                .map_err(err)?;
            if island == seen.first().copied().unwrap_or(0) {
                key.add(s, each.clone(), move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], c.stroke_width(1))
                });
            }
        }
        // The best of all: the best start at 0 s, then each step that
        // betters it and every island's before it.
        let mut steps: Vec<(f64, f64)> = Vec::new();
        if self.start_best > 0.0 {
            steps.push((0.0, self.start_best));
        }
        for s in &all {
            if steps.last().is_none_or(|l| s.2 > l.1) {
                steps.push((s.0, s.2));
            }
        }
        let c = color(0);
        let s = chart
            .draw_series(LineSeries::new(step_line(&steps, end), c.stroke_width(3)))
            .map_err(err)?;
        key.add(s, best, move |(x, y)| {
            EmptyElement::at((x, y))
                + PathElement::new(vec![(0, 0), (24, 0)], c.stroke_width(3))
                + Circle::new((12, 0), 4, c.filled())
        });
        chart
            .draw_series(
                steps
                    .iter()
                    .map(|&(t, v)| Circle::new((t, v), 4, c.filled())),
            )
            .map_err(err)?;
        super::legend_outside(&chart, &key, &room)
    }
}

/// A step line through `steps` (each held until the next), run on to `end`.
fn step_line(steps: &[(f64, f64)], end: f64) -> Vec<(f64, f64)> {
    let mut line = Vec::with_capacity(steps.len() * 2 + 1);
    for (i, &(t, v)) in steps.iter().enumerate() {
        if i > 0 {
            line.push((t, steps[i - 1].1));
        }
        line.push((t, v));
    }
    if let Some(&(_, v)) = steps.last() {
        line.push((end, v));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_covers_no_step_however_the_islands_climb() {
        // Islands that restart low and climb high over the whole hunt.
        let steps = (0..60)
            .map(|k| {
                (
                    k as f64,
                    k % 3,
                    if k % 2 == 0 { 1.0 } else { 1e3 + k as f64 },
                )
            })
            .collect();
        let chart = HuntProgress {
            score: "band guesses".into(),
            steps,
            end_s: 60.0,
            islands: 3,
            plus_one: false,
            start_best: 0.0,
        };
        for size in [super::super::figure::DOUBLE, super::super::figure::SINGLE] {
            let svg = super::super::draw_svg(&chart, "", &size).unwrap();
            assert_eq!(super::super::legend_covers(&svg), None);
        }
    }

    #[test]
    fn the_best_line_starts_at_the_best_start() {
        // Islands that never reach the best start's 40: the line of the
        // best stays at 40 (the axis reaches it), marked at 0 s.
        let chart = HuntProgress {
            score: "band guesses".into(),
            steps: vec![(1.0, 0, 3.0), (2.0, 1, 7.0), (3.0, 0, 9.0)],
            end_s: 5.0,
            islands: 2,
            plus_one: false,
            start_best: 40.0,
        };
        let svg = super::super::draw_svg(&chart, "", &super::super::figure::DOUBLE).unwrap();
        assert!(
            svg.contains(">\n20\n<"),
            "the axis does not reach the best start"
        );
        let without = HuntProgress {
            start_best: 0.0,
            ..chart
        };
        let svg = super::super::draw_svg(&without, "", &super::super::figure::DOUBLE).unwrap();
        assert!(!svg.contains(">\n20\n<"));
    }
}
