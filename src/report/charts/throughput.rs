//! Puzzles per second per strategy variant, grouped by dataset, on a log
//! axis as dots (a bar's length on a cut log axis would misstate each ratio);
//! in a run that counted them, instructions per puzzle the same way. Each
//! missing dot says which set and why.

use super::{color, err, frame, log_range, Chart, DrawError, FONT};
use crate::report::{Report, ReportError, RunChart, RunCharts};
use plotters::coord::ranged1d::Ranged;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Grouped dots: one group per dataset, one dot per variant.
#[derive(Clone)]
pub struct Throughput {
    /// Dataset names (groups).
    pub datasets: Vec<String>,
    /// Variants' legend labels (with the share drawn, when partial) and
    /// palette indices.
    pub variants: Vec<(String, usize)>,
    /// Each variant as a note names it: its label without the share.
    pub names: Vec<String>,
    /// `(dataset index, variant index, puzzles/sec)` (or instructions a puzzle).
    pub bars: Vec<(usize, usize, f64)>,
    /// `(dataset index, variant index, why)`: a variant with no dot on a
    /// dataset, said where its dot would stand (`282/300 errors`).
    pub missing: Vec<(usize, usize, String)>,
    /// True when the bars are instructions per puzzle.
    pub instructions: bool,
}

impl Chart for Throughput {
    fn name(&self) -> String {
        match self.instructions {
            false => "throughput".into(),
            true => "instructions".into(),
        }
    }
    fn datasets(&self) -> Vec<String> {
        self.datasets.clone()
    }
    fn title(&self) -> String {
        match self.instructions {
            false => "Throughput by dataset".into(),
            true => "Instructions per puzzle by dataset".into(),
        }
    }
    fn caption(&self) -> String {
        match self.instructions {
            false => {
                let mut s = format!("Puzzles per second by each strategy on each dataset, one dot each (log scale, so equal gaps are equal ratios; higher is better): {}.", crate::harness::summary::PUZZLES_PER_SEC_MEANS);
                if !self.missing.is_empty() {
                    s += " A strategy whose figures do not stand (under half its puzzles verified) has no dot: its largest kind of failure is written in its place (shortened to its name where the plot is too short for more), and the line under the figure names each missing dot with its reason.";
                    s += &format!(" {}", self.missing_text());
                }
                s
            }
            true => {
                let mut s = "Mean instructions per puzzle of each strategy on each dataset, counted by valgrind's callgrind, one dot each: the same on every run of this build, on any machine (log scale, so equal gaps are equal ratios; lower is less work).".to_string();
                if !self.missing.is_empty() {
                    s += &format!(" {}", self.missing_text());
                }
                s
            }
        }
    }
    fn key_at(&self, width: u32) -> Option<String> {
        // Every missing dot, and why, under the figure too: a note in the
        // plot may have room for the strategy's name and a word only.
        let missing = (!self.missing.is_empty()).then(|| self.missing_key());
        // The legend's names too long for the plot, in full.
        let (_, starred) = self.legend_labels(width);
        let starred = (!starred.is_empty()).then(|| format!("* {}.", starred.join("; ")));
        match (missing, starred) {
            (Some(m), Some(s)) => Some(format!("{s} {m}")),
            (m, s) => m.or(s),
        }
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        // Where dots are too close to carry a note each (a narrow figure),
        // the key under it and the caption name each missing dot's set and why.
        self.plot(root, self.notes_fit(root.dim_in_pixel().0))
    }
}

impl Throughput {
    /// The chart's plot on `root`: with `notes`, a note where each missing
    /// dot would stand.
    fn plot<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        notes_fit: bool,
    ) -> Result<(), DrawError> {
        let d = self.datasets.len().max(1) as f64;
        let y = log_range(self.bars.iter().map(|b| b.2));
        let (floor, top, data) = (y.start, y.end, y.clone());
        // The legend beside the plot or under it, clear of the dots.
        let (labels, _) = self.legend_labels(root.dim_in_pixel().0);
        let (area, room) = super::outside(root, &labels);
        let root = &area;
        // Names wider than their dataset's slot go on staggered rows (as
        // many as it takes, up to five), drawn below (the axis then has no
        // name: the rows take its room).
        let slot_px = (root.dim_in_pixel().0 as f64 - 130.0) / d;
        let widest = self
            .datasets
            .iter()
            .map(|n| super::text_width(n, super::SMALLEST_PX))
            .fold(0.0, f64::max);
        let rows = (1..=5usize)
            .find(|&r| widest <= r as f64 * slot_px - 6.0)
            .unwrap_or(5);
        let staggered = rows > 1;
        let mut builder = frame(root, &self.title());
        if rows > 2 {
            builder.x_label_area_size(10 + rows as u32 * (super::TEXT + 2));
        }
        let mut chart = builder
            .build_cartesian_2d(-0.5..d - 0.5, super::log_y_axis_over(root, y, data))
            .map_err(err)?;
        let names = self.datasets.clone();
        let plot_h = chart.plotting_area().dim_in_pixel().1 as f64;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(self.datasets.len() + 2)
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 && !staggered {
                    names.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| super::tick_below(*v, top))
            .x_desc(if staggered { "" } else { "dataset" })
            .y_desc(super::fit_any(
                &match self.instructions {
                    false => [
                        "verified puzzles per second (log)",
                        "verified puzzles/s (log)",
                        "verified/s (log)",
                    ],
                    true => [
                        "instructions per puzzle (log)",
                        "instructions/puzzle (log)",
                        "instructions (log)",
                    ],
                }
                .map(String::from),
                plot_h,
            ))
            .label_style((FONT, super::TEXT))
            .axis_desc_style((FONT, super::AXIS))
            .draw()
            .map_err(err)?;
        if staggered {
            stagger(&chart, root, &self.datasets, floor, rows)?;
        }
        let k = self.variants.len().max(1) as f64;
        let width = 0.8 / k;
        let mut key = super::Key::default();
        for (vi, (_, ci)) in self.variants.iter().enumerate() {
            let c = color(*ci);
            let slot = *ci;
            // A dot in its series' colour and marker shape (for grayscale):
            // a value on a log axis has no length to draw.
            let anno = chart
                .draw_series(std::iter::empty::<EmptyElement<(f64, f64), DB>>())
                .map_err(err)?;
            key.add(anno, labels[vi].clone(), move |p| {
                super::legend_mark(p, slot, false)
            });
            super::draw_marks(&mut chart, self.dots(vi, width), slot, 14)?;
            // Where a dot is missing, why: written upwards from the floor.
            let style = TextStyle::from((FONT, super::TEXT).into_font())
                .transform(FontTransform::Rotate270)
                .color(&c);
            let notes = self
                .missing
                .iter()
                .filter(|m| m.1 == vi)
                .map(|(di, _, why)| {
                    let x = *di as f64 - 0.4 + vi as f64 * width + width * 0.2;
                    // Named: in grayscale a colour alone says nothing.
                    // (Its reason alone where the name would run past the
                    // plot's top.)
                    let named = match why.strip_prefix("skipped: ") {
                        Some(w) => format!("{} skipped: {w}", self.names[vi]),
                        None => format!("{}: {why}", self.names[vi]),
                    };
                    // Else its name and one word, else its reason alone.
                    let short = match why.starts_with("skipped") {
                        true => format!("{}: skipped", self.names[vi]),
                        false => format!("{}: no dot", self.names[vi]),
                    };
                    let fits =
                        |t: &str| super::text_width(t, super::TEXT as f64 / 1.24) + 24.0 <= plot_h;
                    let note = [named, short]
                        .into_iter()
                        .find(|t| fits(t))
                        .unwrap_or_else(|| why.clone());
                    Text::new(note, (x, floor * 1.3), style.clone())
                });
            if notes_fit {
                chart.draw_series(notes).map_err(err)?;
            }
        }
        super::legend_outside(&chart, &key, &room)
    }
}

/// Dataset names under their slots, every other one a line lower.
fn stagger<DB, X, Y>(
    chart: &ChartContext<'_, DB, Cartesian2d<X, Y>>,
    root: &DrawingArea<DB, Shift>,
    names: &[String],
    floor: f64,
    rows: usize,
) -> Result<(), DrawError>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let style =
        TextStyle::from((FONT, super::TEXT).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
    let (bx, by) = root.get_base_pixel();
    for (i, name) in names.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(i as f64, floor));
        let row = (i % rows.max(1)) as i32 * (super::TEXT as i32 + 2);
        root.draw(&Text::new(
            name.as_str(),
            (x - bx, y - by + 6 + row),
            style.clone(),
        ))
        .map_err(err)?;
    }
    Ok(())
}

impl Throughput {
    /// Variant `vi`'s dots, `(x, value)`, each in its slot of its dataset's
    /// group (slots `width` apart).
    fn dots(&self, vi: usize, width: f64) -> Vec<(f64, f64)> {
        self.bars
            .iter()
            .filter(|b| b.1 == vi)
            .map(|&(di, _, v)| (di as f64 - 0.4 + (vi as f64 + 0.46) * width, v))
            .collect()
    }

    /// Every missing dot in words, for under a plot with no room for its
    /// notes: `no dot: my-solver on set-16x16 (0/30 verified); ...`.
    /// The legend's labels in a figure `width` px wide: a label wider than
    /// its plot (a partial contender's counts, in a single-column figure)
    /// is its name with a star, and said in full under the chart; with
    /// those full labels.
    fn legend_labels(&self, width: u32) -> (Vec<String>, Vec<String>) {
        let room = width as f64 - 140.0;
        let mut starred = Vec::new();
        let labels = self
            .variants
            .iter()
            .zip(&self.names)
            .map(|(v, name)| {
                if super::text_width(&v.0, super::TEXT as f64 / 1.24) + 50.0 > room && v.0 != *name
                {
                    starred.push(v.0.clone());
                    format!("{name}*")
                } else {
                    v.0.clone()
                }
            })
            .collect();
        (labels, starred)
    }

    /// Whether a figure `width` px wide has room for a note at each
    /// missing dot.
    fn notes_fit(&self, width: u32) -> bool {
        let d = self.datasets.len().max(1) as f64;
        let slot = 0.8 / self.variants.len().max(1) as f64;
        let plot_px = width as f64 - 130.0;
        plot_px / d * slot >= super::SMALLEST_PX + 2.0
    }

    /// The missing dots in a line under the chart, each contender's
    /// datasets of one reason together: `No dot: band on set-4x4,
    /// set-16x16 (size not handled); ...`.
    fn missing_key(&self) -> String {
        let short = |why: &str| match why.strip_prefix("skipped: ") {
            Some(w) if w.ends_with(" not handled") => "size not handled".to_string(),
            _ => why.to_string(),
        };
        let mut parts = Vec::new();
        for (vi, name) in self.names.iter().enumerate() {
            let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
            for (di, _, why) in self.missing.iter().filter(|m| m.1 == vi) {
                let (why, d) = (short(why), self.datasets[*di].as_str());
                match groups.iter_mut().find(|g| g.0 == why) {
                    Some(g) => g.1.push(d),
                    None => groups.push((why, vec![d])),
                }
            }
            if groups.is_empty() {
                continue;
            }
            let each: Vec<String> = groups
                .iter()
                .map(|(why, ds)| format!("{} ({why})", ds.join(", ")))
                .collect();
            parts.push(format!("{name} on {}", each.join(", ")));
        }
        format!("No dot: {}.", parts.join("; "))
    }

    fn missing_text(&self) -> String {
        let each: Vec<String> = self
            .missing
            .iter()
            .map(|(di, vi, why)| format!("{} on {} ({why})", self.names[*vi], self.datasets[*di]))
            .collect();
        format!("No dot: {}.", each.join("; "))
    }

    /// Every variant on every dataset of the run, each bar `value` of its
    /// summary row (rows without one have no bar).
    fn of(
        run: &RunCharts<'_>,
        value: fn(&crate::harness::SummaryRow) -> Option<f64>,
        instructions: bool,
    ) -> Throughput {
        let data = run.data;
        let datasets: Vec<String> =
            crate::export::first_seen(data.summary.iter().map(|r| r.dataset.as_str()))
                .into_iter()
                .map(str::to_string)
                .collect();
        // Pairs the run skipped: the variant does not handle the set's size.
        let skipped: &[crate::harness::Skipped] = data.info.as_ref().map_or(&[], |i| &i.skipped);
        // Matched by variant name; drawn with its label (`sat-varisat (reference)`);
        // one skipped on every set still named, with why.
        let order: Vec<usize> = run
            .order()
            .iter()
            .copied()
            .filter(|&v| {
                data.summary.iter().any(|r| r.variant == data.variants[v])
                    || skipped.iter().any(|k| k.variant == data.variants[v])
            })
            .collect();
        // A series drawn from fewer than all its puzzles says so in its
        // label: `mine (library) (87/100; 13 wrong)`, with the dataset
        // where the chart has several.
        let variants: Vec<(String, usize)> = order
            .iter()
            .map(|&v| {
                let rows: Vec<&crate::harness::SummaryRow> = data
                    .summary
                    .iter()
                    .filter(|r| r.variant == data.variants[v])
                    .filter(|r| r.solved < r.puzzles && (instructions || r.stands()))
                    .collect();
                // Partial on several datasets: the sum over every dataset it
                // ran (a dot or not), so that a legend line stays a line
                // (`naive-exact-cover (72/93; 21 stopped)`).
                if rows.len() > 1 {
                    let rows: Vec<&crate::harness::SummaryRow> = data
                        .summary
                        .iter()
                        .filter(|r| r.variant == data.variants[v])
                        .collect();
                    let mut kinds: Vec<(u64, &str)> = Vec::new();
                    for r in &rows {
                        for (n, kind) in r.kinds() {
                            if kind == crate::harness::SummaryRow::NAMES.unchecked {
                                continue;
                            }
                            match kinds.iter_mut().find(|k| k.1 == kind) {
                                Some(k) => k.0 += n,
                                None => kinds.push((n, kind)),
                            }
                        }
                    }
                    kinds.retain(|k| k.0 > 0);
                    kinds.sort_by_key(|k| std::cmp::Reverse(k.0));
                    let kinds: Vec<String> =
                        kinds.iter().map(|k| format!("{} {}", k.0, k.1)).collect();
                    let solved: u64 = rows.iter().map(|r| r.solved).sum();
                    let puzzles: u64 = rows.iter().map(|r| r.puzzles).sum();
                    let mut share = format!("{solved}/{puzzles}");
                    if !kinds.is_empty() {
                        share += &format!("; {}", kinds.join(", "));
                    }
                    return (format!("{} ({share})", data.label(v)), run.color_of(v));
                }
                let partial: Vec<String> = rows
                    .iter()
                    .map(|r| {
                        let kinds = r.failed_kinds();
                        let on = match datasets.len() {
                            1 => String::new(),
                            _ => format!(" on {}", r.dataset),
                        };
                        match kinds.is_empty() {
                            true => format!("{}/{}{on}", r.solved, r.puzzles),
                            false => format!("{}/{}{on}; {kinds}", r.solved, r.puzzles),
                        }
                    })
                    .collect();
                let label = match partial.is_empty() {
                    true => data.label(v),
                    false => format!("{} ({})", data.label(v), partial.join("; ")),
                };
                (label, run.color_of(v))
            })
            .collect();
        let (mut bars, mut missing) = (Vec::new(), Vec::new());
        // A variant with no row on a dataset did not run there: skipped
        // (the size not handled), or cut short.
        for (vi, &v) in order.iter().enumerate() {
            let name = &data.variants[v];
            for (di, d) in datasets.iter().enumerate() {
                if data
                    .summary
                    .iter()
                    .any(|r| r.variant == *name && r.dataset == *d)
                {
                    continue;
                }
                let why = match skipped
                    .iter()
                    .find(|k| k.variant == *name && k.dataset == *d)
                {
                    Some(k) => format!("skipped: {} not handled", k.size),
                    None => "not run".to_string(),
                };
                missing.push((di, vi, why));
            }
        }
        for r in &data.summary {
            let Some(di) = datasets.iter().position(|d| *d == r.dataset) else {
                continue;
            };
            let Some(vi) = order.iter().position(|&v| data.variants[v] == r.variant) else {
                continue;
            };
            match value(r) {
                Some(v) if instructions || r.stands() => bars.push((di, vi, v)),
                _ if !instructions => missing.push((di, vi, r.failure_cell())),
                _ => missing.push((di, vi, "not counted".to_string())),
            }
        }
        Throughput {
            datasets,
            variants,
            names: order.iter().map(|&v| data.label(v)).collect(),
            bars,
            missing,
            instructions,
        }
    }
}

/// The report's throughput chart: every variant on every dataset.
pub struct FromRun;

impl RunChart for FromRun {
    fn timed(&self) -> Option<&'static str> {
        Some("Throughput")
    }

    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError> {
        if run.data.summary.is_empty() {
            out.skipped.push(format!(
                "Throughput: skipped, {} has no rows.",
                crate::harness::files::SUMMARY_CSV
            ));
            return Ok(());
        }
        let per_sec =
            |r: &crate::harness::SummaryRow| (r.puzzles_per_sec > 0.0).then_some(r.puzzles_per_sec);
        run.draw(&Throughput::of(run, per_sec, false), "throughput", out)
    }
}

/// The report's chart of instructions per puzzle, in a run that counted
/// them with callgrind (drawn nowhere else, and no note where it is not
/// drawn: the CPU's counts are in summary.md).
pub struct Instructions;

impl RunChart for Instructions {
    fn timed(&self) -> Option<&'static str> {
        None
    }

    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError> {
        let count = |r: &crate::harness::SummaryRow| r.instructions_per_puzzle.map(|n| n.max(1.0));
        let measure = run.data.info.as_ref().map(|i| i.options.measure);
        let callgrind = measure.is_none_or(|m| m == crate::harness::plan::Measure::Instructions);
        if !callgrind || !run.data.summary.iter().any(|r| count(r).is_some()) {
            return Ok(());
        }
        run.draw(&Throughput::of(run, count, true), "instructions", out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(instructions: bool) -> Throughput {
        Throughput {
            datasets: vec!["easy-9x9".into(), "set-16x16".into()],
            variants: vec![("dlx".into(), 2), ("my-solver (3/30)".into(), 15)],
            names: vec!["dlx".into(), "my-solver".into()],
            // A ratio of 10 on easy-9x9.
            bars: vec![(0, 0, 1e3), (0, 1, 1e4), (1, 0, 50.0)],
            missing: vec![(1, 1, "0/30 verified".into())],
            instructions,
        }
    }

    #[test]
    fn values_on_a_log_axis_are_dots_never_bars_from_a_cut_baseline() {
        for instructions in [false, true] {
            let svg =
                super::super::draw_svg(&chart(instructions), "", &super::super::figure::DOUBLE)
                    .unwrap();
            let doc = roxmltree::Document::parse(&svg).unwrap();
            let colours: Vec<String> = [2, 15]
                .map(|s| {
                    let c = color(s);
                    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
                })
                .into();
            // No rectangle in a series' colour: nothing has a length.
            let rects = doc.descendants().filter(|n| {
                n.has_tag_name("rect")
                    && colours
                        .iter()
                        .any(|c| n.attribute("fill") == Some(c.as_str()))
            });
            assert_eq!(rects.count(), 0, "instructions {instructions}");
            // One filled mark per value and one per legend line.
            let marks = doc.descendants().filter(|n| {
                n.has_tag_name("polygon")
                    && colours
                        .iter()
                        .any(|c| n.attribute("fill") == Some(c.as_str()))
            });
            assert_eq!(marks.count(), 3 + 2);
        }
    }

    #[test]
    fn a_label_wider_than_a_narrow_plot_is_starred_and_said_under_it() {
        let mut c = chart(false);
        c.variants[1].0 = "my-solver (1127/1343; 216 stopped)".into();
        c.missing.clear();
        let (single, double) = (super::super::figure::SINGLE, super::super::figure::DOUBLE);
        let (labels, starred) = c.legend_labels(single.px.0);
        assert_eq!(labels, ["dlx", "my-solver*"]);
        assert_eq!(starred, ["my-solver (1127/1343; 216 stopped)"]);
        assert_eq!(
            c.key_at(single.px.0).as_deref(),
            Some("* my-solver (1127/1343; 216 stopped).")
        );
        // Room for it in a double-column figure: whole, and no star.
        assert_eq!(c.legend_labels(double.px.0).0[1], c.variants[1].0);
        assert_eq!(c.key_at(double.px.0), None);
        let svg = super::super::draw_svg(&c, "", &single).unwrap();
        assert!(svg.contains("my-solver*") && svg.contains("216 stopped)."));
    }

    #[test]
    fn a_missing_dot_names_its_set_and_why_in_a_narrow_figure_too() {
        let c = chart(false);
        for size in [super::super::figure::DOUBLE, super::super::figure::SINGLE] {
            let svg = super::super::draw_svg(&c, "", &size).unwrap();
            assert!(svg.contains("0/30 verified"), "{:?}", size.px);
        }
        assert_eq!(
            c.missing_text(),
            "No dot: my-solver on set-16x16 (0/30 verified)."
        );
        let mut crowded = c.clone();
        crowded.variants = (0..8).map(|i| (format!("s{i} (1/12)"), i)).collect();
        crowded.names = (0..8).map(|i| format!("s{i}")).collect();
        crowded.missing = vec![(1, 7, "12/12 stopped".into())];
        // Too many dots for a note each in a narrow figure: the caption.
        assert!(crowded
            .caption()
            .contains("No dot: s7 on set-16x16 (12/12 stopped)."));
    }
}
