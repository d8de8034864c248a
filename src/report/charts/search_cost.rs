//! Why the fast are fast: each variant's search size against its cost per node on one dataset.

use super::{compact, err, frame, log_range, Chart, DrawError, FONT};
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
             puzzle (each labelled with that time, on the line, where a label fits, drawn over the dots' span) and a strategy is fast by searching less (left), by spending less per node (down), or both. The legend names each dot by its colour and marker.",
            self.dataset
        )
    }
    fn key(&self) -> Option<String> {
        Some(
            "Grey diagonals: equal time per puzzle (nodes × time per node), each labelled with that time where a label fits."
                .into(),
        )
    }
    fn not_shown(&self) -> Vec<String> {
        self.left_out.clone()
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let x = log_range(self.points.iter().map(|p| p.nodes));
        // The legend names the dots, beside or under the plot: inside it,
        // it would hide a stretch of some diagonal wherever it stood.
        let data_y = log_range(self.points.iter().map(|p| p.per_node_us));
        let data_top = data_y.end;
        let labels: Vec<String> = self.points.iter().map(|p| p.label.clone()).collect();
        let (area, outside) = super::outside(root, &labels);
        let root = &area;
        let y = data_y.clone();
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(
                super::log_x_axis(x.clone(), root),
                super::log_y_axis_over(root, y.clone(), data_y),
            )
            .map_err(err)?;
        let (w, h) = chart.plotting_area().dim_in_pixel();
        chart
            .configure_mesh()
            .x_desc(super::fit("search nodes per puzzle, mean (log)", w as f64))
            .y_desc(super::fit_any(
                &[
                    "solver time per node, µs (log)".into(),
                    "time per node, µs (log)".into(),
                    "µs per node (log)".into(),
                ],
                h as f64,
            ))
            .x_label_formatter(&|v| compact(*v))
            .y_label_formatter(&|v| super::tick_below(*v, data_top))
            .label_style((FONT, super::TEXT))
            .axis_desc_style((FONT, super::AXIS))
            .draw()
            .map_err(err)?;
        let base = chart.plotting_area().get_base_pixel();
        let (pw, ph) = chart.plotting_area().dim_in_pixel();
        let text_h = (super::TEXT as f64 / 1.24) as i32;
        // What is drawn, in pixels: each dot, then each label placed; a
        // label goes only where it covers none of them.
        let mut taken: Vec<(i32, i32, i32, i32)> = self
            .points
            .iter()
            .map(|p| {
                let (x, y) = chart.backend_coord(&(p.nodes, p.per_node_us));
                (x - 13, y - 13, x + 13, y + 13)
            })
            .collect();
        let free = |b: (i32, i32, i32, i32), taken: &[(i32, i32, i32, i32)]| {
            let inside = b.0 >= base.0
                && b.2 <= base.0 + pw as i32
                && b.1 >= base.1
                && b.3 <= base.1 + ph as i32;
            inside
                && taken
                    .iter()
                    .all(|t| b.2 <= t.0 || t.2 <= b.0 || b.3 <= t.1 || t.3 <= b.1)
        };
        // Diagonals of equal time per puzzle (x · y = t), clipped to the
        // data's part of the plot (none runs on into the legend's room), at
        // each power of ten; each labelled nearest its middle, above it to
        // the right or below it to the left, where the label covers nothing
        // and crosses no other diagonal.
        // From a decade under the fastest dot's time to one over the slowest's.
        let products = self.points.iter().map(|p| p.nodes * p.per_node_us);
        let (fastest, slowest) =
            products.fold((f64::INFINITY, 0f64), |(a, b), t| (a.min(t), b.max(t)));
        let lo = (x.start * y.start).max(fastest / 10.0);
        let hi = (x.end * data_top).min(slowest * 10.0);
        let mut diagonals = Vec::new();
        let mut t = 10f64.powi(lo.log10().ceil() as i32);
        while t <= hi {
            let (x0, x1) = ((t / data_top).max(x.start), (t / y.start).min(x.end));
            if x0 < x1 {
                let line = PathElement::new(vec![(x0, t / x0), (x1, t / x1)], BLACK.mix(0.3));
                chart.plotting_area().draw(&line).map_err(err)?;
                let ends = [(x0, t / x0), (x1, t / x1)].map(|p| chart.backend_coord(&p));
                diagonals.push((t, x0, x1, ends));
            }
            t *= 10.0;
        }
        // A box crosses a diagonal where its corners lie on both sides.
        let crosses = |b: (i32, i32, i32, i32), [a, c]: [(i32, i32); 2]| {
            let side = |(px, py): (i32, i32)| {
                let v =
                    (c.0 - a.0) as i64 * (py - a.1) as i64 - (c.1 - a.1) as i64 * (px - a.0) as i64;
                v.signum()
            };
            let s = [(b.0, b.1), (b.2, b.1), (b.0, b.3), (b.2, b.3)].map(side);
            let span = a.0.min(c.0) <= b.2 && b.0 <= a.0.max(c.0);
            span && s.iter().any(|v| *v > 0) && s.iter().any(|v| *v < 0)
        };
        for &(t, x0, x1, _) in &diagonals {
            let others: Vec<[(i32, i32); 2]> =
                diagonals.iter().filter(|d| d.0 != t).map(|d| d.3).collect();
            let clear = |b: (i32, i32, i32, i32), taken: &[(i32, i32, i32, i32)]| {
                free(b, taken) && others.iter().all(|l| !crosses(b, *l))
            };
            // The first place along the line, from its middle out, on the
            // line itself, over a white backing that breaks the line there
            // (so whose label it is cannot be mistaken), where the label
            // covers nothing and crosses no other diagonal; else beside it
            // (above to the right, below to the left). Every label in one
            // style (`100 µs`); the key says they are times per puzzle.
            let style = (FONT, super::TEXT).into_font().color(&BLACK.mix(0.6));
            let texts = [duration(t)];
            let places = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9];
            let tries = [(0, true), (0, false)];
            let found = tries.iter().find_map(|&(k, on_line)| {
                let text = &texts[k];
                let wide = super::text_width(text, super::TEXT as f64 / 1.24) as i32;
                places.iter().find_map(|f| {
                    let along = x0 * (x1 / x0).powf(*f);
                    let at = (along, t / along);
                    let (ax, ay) = chart.backend_coord(&at);
                    if on_line {
                        let (hw, hh) = (wide / 2 + 2, text_h / 2 + 2);
                        let on = (ax - hw, ay - hh, ax + hw, ay + hh);
                        return clear(on, &taken).then(|| (text.clone(), at, on, Placed::On));
                    }
                    let right = (ax + 4, ay - 4 - text_h, ax + 4 + wide, ay - 4);
                    let left = (ax - 4 - wide, ay + 4, ax - 4, ay + 4 + text_h);
                    if clear(right, &taken) {
                        Some((text.clone(), at, right, Placed::Right))
                    } else if clear(left, &taken) {
                        Some((text.clone(), at, left, Placed::Left))
                    } else {
                        None
                    }
                })
            });
            if let Some((text, at, place, placed)) = found {
                taken.push(place);
                let label = match placed {
                    Placed::Right => {
                        Text::new(text, (4, -4), style.pos(Pos::new(HPos::Left, VPos::Bottom)))
                    }
                    Placed::Left => {
                        Text::new(text, (-4, 4), style.pos(Pos::new(HPos::Right, VPos::Top)))
                    }
                    Placed::On => {
                        // Not opaque: a legend's box is the one opaque white box.
                        let o = root.get_base_pixel();
                        let b = [
                            (place.0 - o.0, place.1 - o.1),
                            (place.2 - o.0, place.3 - o.1),
                        ];
                        root.draw(&Rectangle::new(b, WHITE.mix(0.95).filled()))
                            .map_err(err)?;
                        Text::new(
                            text,
                            (0, 0),
                            style.pos(Pos::new(HPos::Center, VPos::Center)),
                        )
                    }
                };
                chart
                    .plotting_area()
                    .draw(&(EmptyElement::at(at) + label))
                    .map_err(err)?;
            }
        }
        // Each dot named in the legend by its colour and marker: names on
        // the plot ran into each other and into the diagonals' labels.
        let mut key = super::Key::default();
        for p in &self.points {
            let slot = p.color;
            let anno = chart
                .draw_series(std::iter::empty::<EmptyElement<(f64, f64), DB>>())
                .map_err(err)?;
            key.add(anno, p.label.clone(), move |q| {
                super::legend_mark(q, slot, false)
            });
            super::draw_marks(&mut chart, [(p.nodes, p.per_node_us)], slot, 13)?;
        }
        super::legend_outside(&chart, &key, &outside)
    }
}

/// Where a diagonal's label goes: beside it, or on it.
enum Placed {
    /// Above it, to the right of its point.
    Right,
    /// Below it, to the left of its point.
    Left,
    /// Centred on its point, over a white backing.
    On,
}

/// A time of `us` microseconds in the unit that reads best: `100 µs`,
/// `1 ms`, `10 s`, so that a diagonal's label never changes its style.
fn duration(us: f64) -> String {
    let (v, unit) = match us {
        u if u >= 1e6 => (u / 1e6, "s"),
        u if u >= 1e3 => (u / 1e3, "ms"),
        u => (u, "µs"),
    };
    format!("{} {unit}", compact(v))
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_diagonals_time_reads_in_one_style() {
        assert_eq!(super::duration(0.1), "0.1 µs");
        assert_eq!(super::duration(100.0), "100 µs");
        assert_eq!(super::duration(1e3), "1 ms");
        assert_eq!(super::duration(1e5), "100 ms");
        assert_eq!(super::duration(1e7), "10 s");
    }
}
