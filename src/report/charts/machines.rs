//! Relative speed on one dataset across machines: one row per variant, one
//! dot with its 95% interval per machine, each machine its own colour.

use super::{color, compact, err, Chart, DrawError};
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
    /// Variant names as tables show them (`sat-varisat (reference)`), top
    /// row first.
    pub variants: Vec<String>,
    /// Each variant that failed puzzles, with where and how (`partial
    /// failed 14 of 30 on M1 (8 wrong)`): said under the chart, as every
    /// figure says a failure.
    pub failures: Vec<String>,
    /// `(variant index, machine index, speed, interval low, interval high)`.
    pub points: Vec<(usize, usize, f64, f64, f64)>,
    /// The runs counted instructions: each ratio is the reference's count
    /// over the contender's, exact.
    pub counted: bool,
}

impl Chart for MachineSpeed {
    fn name(&self) -> String {
        format!("machines-{}", crate::report::slug(&self.dataset))
    }
    fn title(&self) -> String {
        match self.counted {
            true => format!("Relative work by machine: {}", self.dataset),
            false => format!("Relative speed by machine: {}", self.dataset),
        }
    }
    fn key(&self) -> Option<String> {
        let failed = match self.failures.is_empty() {
            true => String::new(),
            false => format!(
                " Failed puzzles: {}; a ratio is over the puzzles verified.",
                self.failures.join("; ")
            ),
        };
        if self.counted {
            return Some(format!(
                "{}'s instructions a puzzle over each contender's, counted by callgrind on each machine: exact, so no whiskers.{failed}",
                self.reference
            ));
        }
        Some(format!(
            "Speeds relative to {} on the same machine; whiskers: each mean's 95% interval on its machine; a mark without whiskers has an interval narrower than the mark.{failed}",
            self.reference
        ))
    }
    fn caption(&self) -> String {
        if self.counted {
            return format!(
                "Each strategy's instructions a puzzle on {} against {}'s on the same machine (at 1×; right of 1× is less work), \
                 one colour per machine, counted by callgrind: exact, and the same on any machine running the same code, \
                 so a ratio that moves from one machine to another means another code path ran there.",
                self.dataset, self.reference
            );
        }
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
        // The legend beside or under the plot, clear of the dots.
        let (area, room) = super::outside(root, &self.machines);
        let root = &area;
        let desc = match self.counted {
            true => vec![
                format!(
                    "{}'s instructions over its own, same machine (log; higher is less work)",
                    self.reference
                ),
                format!("{}'s instructions over its own (log)", self.reference),
                format!("{}'s count / its own (log)", self.reference),
                format!("{}'s / own (log)", self.reference),
            ],
            false => vec![
                format!(
                    "speed relative to {} on the same machine (log; higher is faster)",
                    self.reference
                ),
                format!(
                    "speed relative to {} on the same machine (log)",
                    self.reference
                ),
                format!("speed relative to {} (log)", self.reference),
                format!("relative to {} (log)", self.reference),
            ],
        }
        .join("\n");
        let label = |v: &f64| format!("{}×", compact(*v));
        // 1× (the reference) always named, whatever the width.
        let axis = super::XAxis {
            range: (lo / 1.25)..(hi * 1.25),
            label: &label,
            desc: &desc,
            always: &[1.0],
        };
        let mut chart = super::rows_chart_over(root, &self.title(), &axis, &self.variants)?;
        let one = PathElement::new(vec![(1.0, -0.5), (1.0, n - 0.5)], BLACK.mix(0.6));
        chart.plotting_area().draw(&one).map_err(err)?;
        // Machines side by side within a row, the first on top, within
        // 0.4 of a row: the gap to the next row's dots (0.6) is wider than
        // any within a row, and a light rule parts the rows.
        let m = self.machines.len().max(1) as f64;
        let shift = |mi: usize| match m > 1.0 {
            true => 0.2 - 0.4 * mi as f64 / (m - 1.0),
            false => 0.0,
        };
        for k in 1..self.variants.len() {
            let y = k as f64 - 0.5;
            let rule = PathElement::new(vec![(lo / 1.25, y), (hi * 1.25, y)], BLACK.mix(0.15));
            chart.plotting_area().draw(&rule).map_err(err)?;
        }
        let mut key = super::Key::default();
        for (mi, label) in self.machines.iter().enumerate() {
            let c = color(mi);
            let stroke = c.stroke_width(2);
            let dy = shift(mi);
            let mine: Vec<_> = self.points.iter().filter(|p| p.1 == mi).collect();
            // An interval narrower than the mark (a counted run's exact
            // ratio has none) is left to the mark: its caps alone would
            // read as a tick through it.
            for p in &mine {
                let y = n - 1.0 - p.0 as f64 + dy;
                let px = |v: f64| chart.backend_coord(&(v, y)).0;
                if super::within_mark(px(p.3), px(p.2), px(p.4)) {
                    continue;
                }
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
            // Each machine its own marker too, for a grayscale print.
            let shape = super::marker_shape(super::marker_kind(mi), 11);
            let anno = chart
                .draw_series(mine.iter().map(|p| {
                    EmptyElement::at((p.2, n - 1.0 - p.0 as f64 + dy))
                        + Polygon::new(shape.clone(), c.filled())
                }))
                .map_err(err)?;
            key.add(anno, label.clone(), move |p| {
                super::legend_mark(p, mi, false)
            });
        }
        super::legend_outside(&chart, &key, &room)
    }
}

/// A CPU's model as a legend says it: `Intel(R) Xeon(R) Processor` is
/// `Intel Xeon`, `AMD EPYC 7763 64-Core Processor` is `AMD EPYC 7763 64-Core`.
pub fn plain_cpu(model: &str) -> String {
    let words: Vec<&str> = model
        .split_whitespace()
        .filter(|w| !matches!(*w, "CPU" | "Processor"))
        .collect();
    words
        .join(" ")
        .replace("(R)", "")
        .replace("(TM)", "")
        .replace("(tm)", "")
}

/// Each run's name in a legend, `M1: Intel Xeon`; where runs share a
/// CPU, with the first thing that tells every run apart: its label, its
/// build, when it started (to the minute, else the second), or its folder.
pub fn legend_names(runs: &[(&str, &crate::harness::RunInfo, &std::path::Path)]) -> Vec<String> {
    let cpus: Vec<String> = runs.iter().map(|r| plain_cpu(&r.1.cpu_model)).collect();
    let mut alike = cpus.clone();
    alike.sort();
    alike.dedup();
    let named = |i: usize, more: &str| match more.is_empty() {
        true => format!("{}: {}", runs[i].0, cpus[i]),
        false => format!("{}: {} ({more})", runs[i].0, cpus[i]),
    };
    if alike.len() == cpus.len() {
        return (0..runs.len()).map(|i| named(i, "")).collect();
    }
    let day = |i: usize| runs[i].1.started.chars().take(10).collect::<String>();
    let one_day = (0..runs.len()).all(|i| day(i) == day(0));
    let when = |chars: usize| {
        move |i: usize| {
            let t = runs[i].1.started.replace('T', " ");
            let from = if one_day { 11 } else { 0 };
            format!(
                "run {}",
                t.chars().take(chars).skip(from).collect::<String>()
            )
        }
    };
    let ways: [&dyn Fn(usize) -> String; 5] = [
        &|i| runs[i].1.options.label.clone().unwrap_or_default(),
        &|i| match runs[i].1.git_commit.is_empty() {
            true => String::new(),
            false => format!(
                "build {}",
                runs[i].1.git_commit.chars().take(7).collect::<String>()
            ),
        },
        &when(16),
        &when(19),
        &|i| {
            runs[i]
                .2
                .file_name()
                .map_or(String::new(), |f| f.to_string_lossy().to_string())
        },
    ];
    for way in ways {
        let said: Vec<String> = (0..runs.len()).map(way).collect();
        let mut distinct = said.clone();
        distinct.sort();
        distinct.dedup();
        if distinct.len() == said.len() && said.iter().all(|s| !s.is_empty()) {
            return (0..runs.len()).map(|i| named(i, &said[i])).collect();
        }
    }
    (0..runs.len()).map(|i| named(i, "")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn runs_on_one_cpu_are_told_apart_in_the_legend() {
        assert_eq!(plain_cpu("Intel(R) Xeon(R) Processor"), "Intel Xeon");
        assert_eq!(
            plain_cpu("AMD EPYC 7763 64-Core Processor"),
            "AMD EPYC 7763 64-Core"
        );
        let mut a = crate::harness::RunInfo::new(Default::default(), Vec::new(), Vec::new());
        a.cpu_model = "Intel(R) Xeon(R) Processor".into();
        a.started = "2026-11-29T11:54:02Z".into();
        a.git_commit = "e25ca1480bec".into();
        let mut b = a.clone();
        b.started = "2026-11-29T11:54:05Z".into();
        // One build, one minute: told apart by the second.
        let names = legend_names(&[("M1", &a, Path::new("x/a")), ("M2", &b, Path::new("x/b"))]);
        assert_eq!(
            names,
            [
                "M1: Intel Xeon (run 11:54:02)",
                "M2: Intel Xeon (run 11:54:05)"
            ]
        );
        // Labelled runs by their labels.
        a.options.label = Some("v1".into());
        b.options.label = Some("v2".into());
        let names = legend_names(&[("M1", &a, Path::new("a")), ("M2", &b, Path::new("b"))]);
        assert_eq!(names, ["M1: Intel Xeon (v1)", "M2: Intel Xeon (v2)"]);
        // Two CPUs: their models say it.
        b.cpu_model = "AMD EPYC 7763 64-Core Processor".into();
        let names = legend_names(&[("M1", &a, Path::new("a")), ("M2", &b, Path::new("b"))]);
        assert_eq!(names, ["M1: Intel Xeon", "M2: AMD EPYC 7763 64-Core"]);
    }
}
