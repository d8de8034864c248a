//! What makes a puzzle hard: time against guesses (or nodes) per puzzle for one variant.

use super::{err, frame, legend, log_log_mesh, log_range, Chart, DrawError};
use crate::report::{Report, ReportError, RunChart, RunCharts};
use plotters::coord::Shift;
use plotters::prelude::*;

pub use crate::harness::plan::Metric;

/// A scatter per dataset for one variant.
pub struct Hardness {
    /// The variant.
    pub variant: String,
    /// The x-axis counter.
    pub metric: Metric,
    /// `(dataset name, points (counter, time µs), the dataset's puzzle count when the points are a sample)`.
    pub series: Vec<HardnessSeries>,
    /// The run's datasets with no dot, each with why
    /// (`set-16x16 (band handles 9x9 only)`).
    pub left_out: Vec<String>,
}

/// One dataset of the hardness chart: its name, its dots `(counter, time µs)`,
/// and its puzzle count when the dots are a sample of it.
#[derive(Clone, Debug)]
pub struct HardnessSeries {
    /// The dataset.
    pub dataset: String,
    /// Its dots, `(counter, time µs)`.
    pub points: Vec<(f64, f64)>,
    /// The dataset's puzzle count, when the dots are a sample of it.
    pub population: Option<u64>,
}

impl Chart for Hardness {
    fn name(&self) -> String {
        "hardness".into()
    }
    fn datasets(&self) -> Vec<String> {
        self.series.iter().map(|s| s.dataset.clone()).collect()
    }
    fn title(&self) -> String {
        let m = match self.metric {
            Metric::Guesses => "guesses",
            Metric::Nodes => "nodes",
        };
        format!("Hardness: {} time vs {m}", self.variant)
    }
    fn key(&self) -> Option<String> {
        match self.metric {
            Metric::Guesses => Some(
                "Guesses plus one (a log axis); each dot moved right by up to 20%, so that equal counts do not hide each other."
                    .into(),
            ),
            Metric::Nodes => None,
        }
    }
    fn caption(&self) -> String {
        format!(
            "Each dot is a puzzle solved by {}, coloured by dataset: its time against the {} its search needed; \
             time grows with the size of the search, so search effort, not the clue count, is what makes a puzzle hard. \
             The largest set is drawn first, so a smaller one is never hidden under it.",
            self.variant,
            match self.metric {
                Metric::Guesses => "guesses (plus one, for the log axis; each dot moved right by up to 20%, \
                 by its puzzle, so that equal counts do not hide each other)",
                Metric::Nodes => "nodes",
            }
        ) + &self
            .series
            .iter()
            .map(|s| {
                let note = super::sampled_note(s.points.len(), s.population);
                if note.is_empty() {
                    note
                } else {
                    format!(" {}:{note}", s.dataset)
                }
            })
            .collect::<String>()
    }
    fn not_shown(&self) -> Vec<String> {
        self.left_out.clone()
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let counts = || {
            self.series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.0))
        };
        // Guesses + 1 is at least 1, and dots move only right: the axis
        // starts just under the least count, so that nothing stands where
        // no count is, and ends past the dots moved furthest (20%).
        let x = match self.metric {
            Metric::Guesses => {
                let (lo, hi) = super::log_span(counts()).unwrap_or((1.0, 10.0));
                lo / 1.06..hi * 1.3
            }
            Metric::Nodes => log_range(counts()),
        };
        let y = log_range(
            self.series
                .iter()
                .flat_map(|s| s.points.iter().map(|p| p.1)),
        );
        // Each dataset's dots (moved sideways where counts are whole),
        // larger sets first, so that a small one lies on top.
        let mut order: Vec<usize> = (0..self.series.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.series[i].points.len()));
        let drawn: Vec<(usize, Vec<(f64, f64)>)> = order
            .into_iter()
            .map(|i| {
                let pts = &self.series[i].points;
                let pts = match self.metric {
                    Metric::Guesses => pts
                        .iter()
                        .enumerate()
                        .map(|(k, &(x, y))| (x * jitter(k as u64 ^ (i as u64) << 32), y))
                        .collect(),
                    Metric::Nodes => pts.clone(),
                };
                (i, super::dots(&pts))
            })
            .collect();
        let marks: Vec<Vec<(f64, f64)>> = drawn
            .iter()
            .flat_map(|(_, pts)| pts.iter().map(|p| vec![*p]))
            .collect();
        let labels: Vec<String> = self.series.iter().map(|s| s.dataset.clone()).collect();
        // The legend where it covers no dot with the data over the whole
        // plot (dots rise from lower left to upper right, leaving a
        // corner); else beside or under the plot.
        let fits = super::legend_fits_log_log(
            root,
            &self.title(),
            (x.clone(), y.clone()),
            &labels,
            &marks,
            SeriesLabelPosition::UpperLeft,
        )?;
        let (area, outside) = super::outside_unless(root, &labels, fits);
        let root = &area;
        // Whole counts up to 7 each carry a label (a cluster jittered
        // right from 4 reads as 4, not as the 5 beside it); past 7 they
        // would crowd a narrow figure: the shared log axis.
        let x_axis = match self.metric {
            Metric::Guesses if x.end / 1.3 <= 7.0 + 1e-9 => {
                let counts: Vec<f64> = (1..=7).map(f64::from).filter(|v| x.contains(v)).collect();
                x.clone()
                    .log_scale()
                    .with_key_points(counts)
                    .with_light_points(Vec::<f64>::new())
            }
            _ => super::log_x_axis(x, root),
        };
        let mut chart = frame(root, &self.title())
            .build_cartesian_2d(x_axis, super::log_y_axis_over(root, y.clone(), y))
            .map_err(err)?;
        let x_desc = match self.metric {
            Metric::Guesses => "guesses + 1 (log)",
            Metric::Nodes => "search nodes (log)",
        };
        let (_, ph) = chart.plotting_area().dim_in_pixel();
        let y_desc = super::fit_any(
            &[
                "time per puzzle, µs (log)".to_string(),
                "µs per puzzle (log)".to_string(),
                "µs (log)".to_string(),
            ],
            ph as f64,
        );
        log_log_mesh(&mut chart, x_desc, &y_desc)?;
        // Each dataset's colour and marker its own in every run; the
        // legend in the run's order of datasets, the dots larger sets first.
        let slots = super::dataset_slots(labels.iter().map(String::as_str));
        let mut key = super::Key::default();
        for (name, &slot) in labels.iter().zip(&slots) {
            let (c, shape) = (super::dataset_color(slot), super::marker_shape(slot, 9));
            let anno = chart
                .draw_series(std::iter::empty::<EmptyElement<(f64, f64), DB>>())
                .map_err(err)?;
            key.add(anno, name.clone(), move |(x, y)| {
                EmptyElement::at((x + 8, y)) + Polygon::new(shape.clone(), c.filled())
            });
        }
        for (i, pts) in drawn {
            let c = super::dataset_color(slots[i]);
            let shape = super::marker_shape(slots[i], 8);
            chart
                .draw_series(pts.into_iter().map(|p| {
                    EmptyElement::at(p) + Polygon::new(shape.clone(), c.mix(0.7).filled())
                }))
                .map_err(err)?;
        }
        match outside {
            None => legend(&mut chart, &labels, &marks, SeriesLabelPosition::UpperLeft),
            Some(room) => super::legend_outside(&chart, &key, &room),
        }
    }
}

/// A factor from 1 to 1.2 (even on a log scale), fixed by `key`: spreads
/// dots of equal whole counts apart, rightwards only, so that no dot
/// stands under the count it has.
fn jitter(key: u64) -> f64 {
    let mut z = key.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 27;
    let u = (z >> 11) as f64 / (1u64 << 53) as f64;
    (1.2f64.ln() * u).exp()
}

/// The report's hardness chart: the chosen variant (else the fastest), its
/// time against its search counter on every dataset.
pub struct FromRun;

impl RunChart for FromRun {
    fn timed(&self) -> Option<&'static str> {
        Some("Hardness")
    }

    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError> {
        let (data, metric) = (run.data, run.choices.metric);
        let variant = run
            .choices
            .hardness_variant
            .clone()
            .or_else(|| crate::report::fastest(&data.summary).into_iter().next());
        let Some((name, vi)) =
            variant.and_then(|n| crate::report::find_variant(data, &n).map(|i| (n, i)))
        else {
            out.skipped
                .push("What makes a puzzle hard: skipped, no such strategy in this run.".into());
            return Ok(());
        };
        let series: Vec<HardnessSeries> = data
            .datasets
            .iter()
            .enumerate()
            .map(|(di, d)| HardnessSeries {
                dataset: d.clone(),
                points: data
                    .series(vi, di)
                    .map_or(&[][..], |s| &s.sample[..])
                    .iter()
                    .filter(|p| p.status.is_solved() && p.solve_ns > 0)
                    .filter_map(|p| {
                        let x = match metric {
                            Metric::Guesses => p.guesses? as f64 + 1.0,
                            Metric::Nodes => p.nodes?.max(1) as f64,
                        };
                        Some((x, crate::report::solve_us(p)))
                    })
                    .collect(),
                population: data.sampled(di),
            })
            .collect();
        // A dataset without a dot is named under the chart, with why.
        let skipped: &[crate::harness::Skipped] = data.info.as_ref().map_or(&[], |i| &i.skipped);
        let left_out = series
            .iter()
            .filter(|s| s.points.is_empty())
            .map(|s| {
                match skipped
                    .iter()
                    .find(|k| k.variant == name && k.dataset == s.dataset)
                {
                    Some(k) => format!("{} ({name} handles {} only)", s.dataset, k.handles),
                    None => format!("{} (no searched puzzle verified)", s.dataset),
                }
            })
            .collect();
        let series: Vec<HardnessSeries> = series
            .into_iter()
            .filter(|s| !s.points.is_empty())
            .collect();
        if series.is_empty() {
            // An invalid puzzle is answered before any search: it counts nothing.
            let searched = |p: &&crate::report::load::Point| {
                p.status.is_solved() && p.status != crate::harness::RowStatus::Invalid
            };
            let solved = (0..data.datasets.len()).any(|di| {
                data.series(vi, di)
                    .is_some_and(|s| s.sample.iter().any(|p| searched(&p)))
            });
            out.skipped.push(if solved {
                format!("What makes a puzzle hard: skipped, {name} does not report its {metric} (an outside contender may not count them).")
            } else {
                format!("What makes a puzzle hard: skipped, {name} searched no puzzle to a verified answer (invalid puzzles are answered before any search).")
            });
            return Ok(());
        }
        let chart = Hardness {
            variant: name,
            metric,
            series,
            left_out,
        };
        run.draw(&chart, "hardness", out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_legend_covers_no_dot_however_the_dots_fill_the_plot() {
        // A grid of dots over the whole plot: no corner of it is free.
        let grid = |k: u64| {
            (0..400)
                .map(|i| ((1 + i % 20 * k) as f64, 10f64.powf((i / 20) as f64 / 5.0)))
                .collect()
        };
        let chart = Hardness {
            variant: "band".into(),
            metric: Metric::Guesses,
            series: ["top1465", "17-clue"]
                .iter()
                .zip(1..)
                .map(|(d, k)| HardnessSeries {
                    dataset: d.to_string(),
                    points: grid(k),
                    population: None,
                })
                .collect(),
            left_out: Vec::new(),
        };
        for size in [super::super::figure::DOUBLE, super::super::figure::SINGLE] {
            let svg = super::super::draw_svg(&chart, "", &size).unwrap();
            assert_eq!(super::super::legend_covers(&svg), None);
        }
    }

    #[test]
    fn jitter_moves_a_dot_right_only_and_by_at_most_a_fifth() {
        for key in 0..10_000u64 {
            let f = jitter(key.wrapping_mul(0x2545_F491_4F6C_DD1D));
            assert!((1.0..1.2).contains(&f), "{f}");
        }
    }
}
