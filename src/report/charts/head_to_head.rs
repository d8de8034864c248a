//! Head to head: per-puzzle time of one variant against another, log-log, with the diagonal.

use super::{color, err, frame, log_log_mesh, Chart, DrawError};
use crate::report::{Report, ReportError, RunChart, RunCharts};
use plotters::coord::Shift;
use plotters::prelude::*;

/// A scatter of matched puzzles.
pub struct HeadToHead {
    /// Dataset name.
    pub dataset: String,
    /// Variant on the x axis, with its palette index.
    pub a: (String, usize),
    /// Variant on the y axis, with its palette index.
    pub b: (String, usize),
    /// `(time of a, time of b)` in µs for puzzles both finished.
    pub points: Vec<(f64, f64)>,
    /// The dataset's puzzle count when `points` come from a sample of it.
    pub population: Option<u64>,
}

impl Chart for HeadToHead {
    fn name(&self) -> String {
        format!("head-to-head-{}", super::super::slug(&self.dataset))
    }
    fn title(&self) -> String {
        format!("{} vs {}: {}", self.a.0, self.b.0, self.dataset)
    }
    fn key(&self) -> Option<String> {
        let above = self.above();
        let n = self.points.len();
        Some(format!(
            "Times per puzzle in µs; diagonal: equal times; above it {} was faster ({above} of {n}), below it {} ({} of {n}).",
            self.a.0,
            self.b.0,
            n - above
        ))
    }
    fn caption(&self) -> String {
        let above = self.above();
        format!(
            "Each dot is a puzzle of {}: its time with {} (across) against {} (up); dots above the diagonal ({} of {}) were faster with {}. \
             A double-column figure sets beside it each puzzle's time ratio (up over across), sorted: above 1× the first was faster.",
            self.dataset,
            self.a.0,
            self.b.0,
            above,
            self.points.len(),
            self.a.0
        ) + &super::sampled_note(self.points.len(), self.population)
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        // The data's span and a little: the whole square is the data's.
        let (lo, hi) =
            super::log_span(self.points.iter().flat_map(|&(x, y)| [x, y])).unwrap_or((1.0, 10.0));
        let r = lo / 1.4..hi * 1.4;
        // Equal scales: a square plot, so the diagonal lies at 45 degrees and
        // a factor reads the same across as up.
        // The frame takes 104 px across (margins, y labels) and 106 down
        // (title, margins, x labels): a plot of height h - 106 needs h - 2.
        let (w, h) = root.dim_in_pixel();
        let across = (h.saturating_sub(2)).min(w);
        // A wide figure says who is faster beside the square, in the room
        // it would leave blank; a narrow one in the plot's corners.
        let panel = w.saturating_sub(across) >= 300;
        let square = match panel {
            true => root.margin(0, 0, 8, (w - across - 8) as i32),
            false => {
                let pad = ((w - across) / 2) as i32;
                root.margin(0, 0, pad, pad)
            }
        };
        let mut chart = frame(&square, &self.title())
            .build_cartesian_2d(
                super::log_x_axis(r.clone(), root),
                super::log_x_axis(r.clone(), root),
            )
            .map_err(err)?;
        let (pw, ph) = chart.plotting_area().dim_in_pixel();
        // Each axis's name whole where it fits, else its variant and unit.
        let name = |v: &str| {
            [
                format!("{v} time per puzzle, µs (log)"),
                format!("{v}, µs per puzzle (log)"),
                format!("{v}, µs (log)"),
            ]
        };
        log_log_mesh(
            &mut chart,
            &super::fit_any(&name(&self.a.0), pw as f64),
            &super::fit_any(&name(&self.b.0), ph as f64),
        )?;
        chart
            .draw_series(LineSeries::new(
                vec![(r.start, r.start), (r.end, r.end)],
                BLACK.mix(0.5).stroke_width(1),
            ))
            .map_err(err)?;
        let c = color(self.b.1);
        let shape = super::marker_shape(super::marker_kind(self.b.1), 7);
        chart
            .draw_series(
                super::dots(&self.points).into_iter().map(|p| {
                    EmptyElement::at(p) + Polygon::new(shape.clone(), c.mix(0.7).filled())
                }),
            )
            .map_err(err)?;
        // Which side of the diagonal is whose.
        let above = self.above();
        let n = self.points.len();
        let (faster_a, faster_b) = (
            format!("{} faster: {} of {n}", self.a.0, above),
            format!("{} faster: {} of {n}", self.b.0, n - above),
        );
        let style = (super::FONT, super::TEXT).into_font().color(&BLACK);
        if panel {
            // The width beside the square: each puzzle's time ratio, sorted.
            let (_, right) = root.split_horizontally(across + 8);
            return self.ratios(&right, &faster_a, &faster_b);
        }
        // Each in two lines, in its own corner, clear of the diagonal and
        // of every dot: the nearest place to the corner that is; where
        // none is, the key under the chart says it alone.
        let row = super::TEXT as i32 + 4;
        let two = |text: &str| -> (String, String) {
            match text.split_once(": ") {
                Some((who, count)) => (format!("{who}:"), count.to_string()),
                None => (text.to_string(), String::new()),
            }
        };
        let dots: Vec<(i32, i32)> = self
            .points
            .iter()
            .map(|&(x, y)| chart.backend_coord(&(x, y)))
            .collect();
        let ends = [
            chart.backend_coord(&(r.start, r.start)),
            chart.backend_coord(&(r.end, r.end)),
        ];
        let base = chart.plotting_area().get_base_pixel();
        let (pw, ph) = (pw as i32, ph as i32);
        let area = (base.0, base.1, base.0 + pw, base.1 + ph);
        let o = root.get_base_pixel();
        for (text, upper) in [(&faster_a, true), (&faster_b, false)] {
            let (l1, l2) = two(text);
            let wide = super::text_width(&l1, super::TEXT as f64 / 1.24)
                .max(super::text_width(&l2, super::TEXT as f64 / 1.24))
                as i32
                + 2;
            let size = (wide, 2 * row);
            if let Some((x, y)) = corner_place(area, size, upper, &dots, ends) {
                let (x, y) = (x - o.0, y - o.1);
                for (k, line) in [l1, l2].into_iter().enumerate() {
                    let pos = plotters::style::text_anchor::Pos::new(
                        match upper {
                            true => plotters::style::text_anchor::HPos::Left,
                            false => plotters::style::text_anchor::HPos::Right,
                        },
                        plotters::style::text_anchor::VPos::Top,
                    );
                    let at = match upper {
                        true => (x, y + k as i32 * row),
                        false => (x + wide, y + k as i32 * row),
                    };
                    root.draw(&Text::new(line, at, style.clone().pos(pos)))
                        .map_err(err)?;
                }
            }
        }
        Ok(())
    }
}

/// The top-left corner of a `size` box inside `area` (pixels: left, top,
/// right, bottom) nearest the plot's upper-left corner (`upper`) or its
/// lower-right one, on that side of the diagonal `ends` and 6 px clear of
/// it, covering no dot (with 12 px around each); none where no place is.
fn corner_place(
    area: (i32, i32, i32, i32),
    size: (i32, i32),
    upper: bool,
    dots: &[(i32, i32)],
    ends: [(i32, i32); 2],
) -> Option<(i32, i32)> {
    let (w, h) = size;
    let [a, b] = ends;
    // Signed distance of a pixel from the diagonal, positive above it
    // (pixel y grows downwards).
    let len = (((b.0 - a.0).pow(2) + (b.1 - a.1).pow(2)) as f64)
        .sqrt()
        .max(1.0);
    let side = |(x, y): (i32, i32)| {
        -(((b.0 - a.0) as f64) * ((y - a.1) as f64) - ((b.1 - a.1) as f64) * ((x - a.0) as f64))
            / len
    };
    let clear = |x: i32, y: i32| {
        let corners = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)];
        let beside = corners.iter().all(|&c| match upper {
            true => side(c) >= 6.0,
            false => side(c) <= -6.0,
        });
        beside
            && dots
                .iter()
                .all(|&(dx, dy)| dx + 12 < x || x + w < dx - 12 || dy + 12 < y || y + h < dy - 12)
    };
    let mut best: Option<(i32, (i32, i32))> = None;
    let step = 4;
    let mut dy = 0;
    while 6 + dy + h <= area.3 - area.1 {
        let mut dx = 0;
        while 6 + dx + w <= area.2 - area.0 {
            let (x, y) = match upper {
                true => (area.0 + 6 + dx, area.1 + 6 + dy),
                false => (area.2 - 6 - dx - w, area.3 - 6 - dy - h),
            };
            let cost = dx + dy;
            if best.is_none_or(|(c, _)| cost < c) && clear(x, y) {
                best = Some((cost, (x, y)));
            }
            dx += step;
        }
        dy += step;
    }
    best.map(|b| b.1)
}

impl HeadToHead {
    /// The puzzles above the diagonal: faster with the first.
    fn above(&self) -> usize {
        self.points.iter().filter(|(x, y)| y > x).count()
    }

    /// The panel beside the square in a wide figure: each puzzle's time
    /// with b over its time with a, sorted, on a log axis about 1×, with
    /// who was faster on how many in the room kept above and below.
    fn ratios<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        faster_a: &str,
        faster_b: &str,
    ) -> Result<(), DrawError> {
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        let mut ratios: Vec<f64> = self
            .points
            .iter()
            .map(|(x, y)| y / x)
            .filter(|r| r.is_finite() && *r > 0.0)
            .collect();
        ratios.sort_by(f64::total_cmp);
        let lo = ratios.first().copied().unwrap_or(1.0).min(1.0) / 1.2;
        let hi = ratios.last().copied().unwrap_or(1.0).max(1.0) * 1.2;
        // A text line's room above and below the data.
        let plot = (area.dim_in_pixel().1 as f64 - 116.0).max(100.0);
        let pad = (super::TEXT as f64 * 2.0 / plot).min(0.3);
        let span = (hi / lo).ln();
        let grow = (span / (1.0 - 2.0 * pad) - span) / 2.0;
        let r = (lo / grow.exp())..(hi * grow.exp());
        let (a, b) = (&self.a.0, &self.b.0);
        let mut chart = frame(area, "Each puzzle's time ratio, sorted")
            .build_cartesian_2d(
                super::share_axis(area, 1.0, 1.0),
                super::log_y_axis_over(area, r.clone(), lo..hi),
            )
            .map_err(err)?;
        let (_, ph) = chart.plotting_area().dim_in_pixel();
        let y_desc = super::fit_any(
            &[
                format!("{b} time / {a} time (log)"),
                format!("{b} / {a} (log)"),
                "time ratio (log)".to_string(),
            ],
            ph as f64,
        );
        chart
            .configure_mesh()
            .x_desc("puzzles, by ratio")
            .y_desc(y_desc)
            .x_label_formatter(&super::share_label)
            .y_label_formatter(&|v| format!("{}×", super::compact(*v)))
            .label_style((super::FONT, super::TEXT))
            .axis_desc_style((super::FONT, super::AXIS))
            .draw()
            .map_err(err)?;
        chart
            .plotting_area()
            .draw(&PathElement::new(
                vec![(0.0, 1.0), (1.0, 1.0)],
                BLACK.mix(0.5).stroke_width(1),
            ))
            .map_err(err)?;
        let n = ratios.len().max(1) as f64;
        let c = color(self.b.1);
        let shape = super::marker_shape(super::marker_kind(self.b.1), 7);
        let dots: Vec<(f64, f64)> = ratios
            .iter()
            .enumerate()
            .map(|(i, r)| ((i as f64 + 0.5) / n, *r))
            .collect();
        chart
            .draw_series(
                super::dots(&dots).into_iter().map(|p| {
                    EmptyElement::at(p) + Polygon::new(shape.clone(), c.mix(0.7).filled())
                }),
            )
            .map_err(err)?;
        // Above 1× a was faster: said at the top left, where the sorted
        // ratios are lowest; below it b, at the bottom right.
        let style = (super::FONT, super::TEXT).into_font().color(&BLACK);
        let top = format!("{faster_a} (above 1×)");
        let bottom = format!("{faster_b} (below 1×)");
        chart
            .plotting_area()
            .draw(
                &(EmptyElement::at((0.0, r.end))
                    + Text::new(
                        top,
                        (6, 4),
                        style.clone().pos(Pos::new(HPos::Left, VPos::Top)),
                    )),
            )
            .map_err(err)?;
        chart
            .plotting_area()
            .draw(
                &(EmptyElement::at((1.0, r.start))
                    + Text::new(
                        bottom,
                        (-6, -4),
                        style.pos(Pos::new(HPos::Right, VPos::Bottom)),
                    )),
            )
            .map_err(err)?;
        Ok(())
    }
}

/// The report's head-to-head charts: the pair asked for, or on each
/// dataset its two fastest variants.
pub struct FromRun;

/// The pair of variants to set head to head on `dname`, or why there is none.
fn pair_for(run: &RunCharts<'_>, dname: &str) -> Result<(usize, usize), String> {
    let data = run.data;
    let find = |n: &str| crate::report::find_variant(data, n);
    if let Some((a, b)) = &run.choices.compare {
        return match (find(a), find(b)) {
            (Some(ai), Some(bi)) if ai != bi => Ok((ai, bi)),
            _ => Err(format!(
                "Head to head: skipped, {a} and {b} are not two strategies of this run."
            )),
        };
    }
    let ran = data.summary.iter().filter(|r| r.dataset == dname).count();
    // Only contenders whose figures stand are set head to head.
    let mut rows: Vec<&crate::harness::SummaryRow> = data
        .summary
        .iter()
        .filter(|r| r.dataset == dname && r.puzzles_per_sec > 0.0 && r.stands())
        .collect();
    rows.sort_by(|x, y| {
        y.puzzles_per_sec
            .total_cmp(&x.puzzles_per_sec)
            .then(x.variant.cmp(&y.variant))
    });
    match rows
        .iter()
        .filter_map(|r| find(&r.variant))
        .collect::<Vec<_>>()[..]
    {
        [ai, bi, ..] => Ok((ai, bi)),
        _ if ran >= 2 => Err(format!(
            "Head to head on {dname}: skipped, fewer than two strategies have figures on it (one verified on under half its puzzles has none)."
        )),
        _ => Err(format!(
            "Head to head on {dname}: skipped, only one strategy ran on it."
        )),
    }
}

impl RunChart for FromRun {
    fn timed(&self) -> Option<&'static str> {
        Some("Head to head")
    }

    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError> {
        let data = run.data;
        if data.variants.len() < 2 {
            out.skipped
                .push("Head to head: skipped, the run has only one strategy.".into());
            return Ok(());
        }
        for (di, dname) in data.datasets.iter().enumerate() {
            let (ai, bi) = match pair_for(run, dname) {
                Ok(p) => p,
                Err(note) => {
                    if !out.skipped.contains(&note) {
                        out.skipped.push(note);
                    }
                    continue;
                }
            };
            let (a, b) = (&data.variants[ai], &data.variants[bi]);
            let time_of = |v: usize| -> std::collections::HashMap<u64, f64> {
                data.series(v, di)
                    .map_or(&[][..], |s| &s.sample[..])
                    .iter()
                    .filter(|p| {
                        p.dataset == di && p.variant == v && p.status.is_solved() && p.solve_ns > 0
                    })
                    .map(|p| (p.puzzle, crate::report::solve_us(p)))
                    .collect()
            };
            let (ta, tb) = (time_of(ai), time_of(bi));
            let mut points: Vec<(u64, f64, f64)> = ta
                .iter()
                .filter_map(|(k, &x)| tb.get(k).map(|&y| (*k, x, y)))
                .collect();
            points.sort_by_key(|p| p.0);
            if points.is_empty() {
                out.skipped.push(format!(
                    "Head to head on {dname}: skipped, no puzzle solved by both {a} and {b}."
                ));
                continue;
            }
            let chart = HeadToHead {
                dataset: dname.clone(),
                a: (a.clone(), run.color_of(ai)),
                b: (b.clone(), run.color_of(bi)),
                points: points.into_iter().map(|p| (p.1, p.2)).collect(),
                population: data.sampled(di),
            };
            run.draw(&chart, "head-to-head", out)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::corner_place;

    // A 300 px square plot whose diagonal runs from its lower left to its
    // upper right.
    const AREA: (i32, i32, i32, i32) = (0, 0, 300, 300);
    const ENDS: [(i32, i32); 2] = [(0, 300), (300, 0)];

    #[test]
    fn a_corner_note_keeps_to_its_corner_where_it_is_free() {
        assert_eq!(corner_place(AREA, (80, 30), true, &[], ENDS), Some((6, 6)));
        assert_eq!(
            corner_place(AREA, (80, 30), false, &[], ENDS),
            Some((214, 264))
        );
    }

    #[test]
    fn a_corner_note_moves_off_a_dot_and_stays_on_its_side() {
        let dot = (40, 20);
        let (x, y) = corner_place(AREA, (80, 30), true, &[dot], ENDS).unwrap();
        let (w, h) = (80, 30);
        assert!(
            dot.0 + 12 < x || x + w < dot.0 - 12 || dot.1 + 12 < y || y + h < dot.1 - 12,
            "{x},{y}"
        );
        // Wholly above the diagonal x + y = 300.
        assert!(x + w + y + h < 300, "{x},{y}");
    }

    #[test]
    fn no_place_where_dots_fill_the_corner() {
        let dots: Vec<(i32, i32)> = (0..300)
            .step_by(10)
            .flat_map(|x| (0..300).step_by(10).map(move |y| (x, y)))
            .collect();
        assert_eq!(corner_place(AREA, (80, 30), true, &dots, ENDS), None);
    }
}
