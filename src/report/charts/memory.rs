//! Peak memory per contender: one row per contender, one mark per dataset,
//! on a log axis of bytes. A built-in's figure is the most heap one call
//! held; an outside contender's is its processes' peak resident memory:
//! two quantities, so each kind has a panel and an axis of its own.

use super::{compact, err, Chart, DrawError};
use crate::report::{Report, ReportError, RunChart, RunCharts};
use plotters::coord::Shift;
use plotters::prelude::*;

/// What a row's figure is: one quantity per panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The most heap one call held (a built-in strategy).
    Heap,
    /// The peak resident memory of its processes (an outside contender).
    Process,
}

impl Kind {
    /// The panel's title.
    fn title(self) -> &'static str {
        match self {
            Kind::Heap => "Peak heap of one call (built-in strategies)",
            Kind::Process => "Peak resident memory (outside contenders)",
        }
    }

    /// The panel's axis names, one a line, longest first: a narrow
    /// figure draws the first that fits.
    fn axis(self) -> &'static str {
        match self {
            Kind::Heap => "peak heap of a call (log)\npeak heap (log)",
            Kind::Process => {
                "peak resident memory of its processes (log)\npeak resident memory (log)\npeak memory (log)"
            }
        }
    }
}

/// Each contender's peak memory on each dataset.
pub struct Memory {
    /// Row labels, top row first, with what their figure is.
    pub rows: Vec<(String, Kind)>,
    /// Datasets, in marker order.
    pub datasets: Vec<String>,
    /// `(row, dataset, bytes)`.
    pub points: Vec<(usize, usize, f64)>,
    /// The memory limit each outside process ran under, in words, if any.
    pub limit: Option<String>,
    /// Contenders the run skipped on some datasets, with which and why
    /// (`band on set-16x16 (handles 9x9 only)`).
    pub left_out: Vec<String>,
}

impl Chart for Memory {
    fn not_shown(&self) -> Vec<String> {
        self.left_out.clone()
    }
    fn name(&self) -> String {
        // A run of one dataset: the name ends with it, so the data line names it.
        match self.datasets.as_slice() {
            [one] => format!("memory-{}", crate::report::slug(one)),
            _ => "memory".into(),
        }
    }
    fn datasets(&self) -> Vec<String> {
        self.datasets.clone()
    }
    fn title(&self) -> String {
        "Peak memory per contender".into()
    }
    fn caption(&self) -> String {
        let mut s = "Each contender's peak memory on each dataset (one mark per dataset; log scale, decimal units). \
             A built-in strategy's is the most heap one call held at once: what it allocated, \
             not its stack or code. An outside program's or library's is the peak resident \
             memory of its processes, code and runtime included. The two do not compare with \
             each other, only within their kind, so each has its own panel and axis."
            .to_string();
        if let Some(limit) = &self.limit {
            s += &format!(" Each outside process ran under a memory limit of {limit}.");
        }
        s
    }
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawError> {
        let kinds: Vec<Kind> = [Kind::Heap, Kind::Process]
            .into_iter()
            .filter(|k| self.rows.iter().any(|r| r.1 == *k))
            .collect();
        // One legend for the figure, outside its panels (beside the first,
        // or under both); one dataset has none (the data line names it).
        let (area, room) = super::outside_unless(root, &self.datasets, self.datasets.len() < 2);
        let root = &area;
        match kinds.as_slice() {
            [two, other] => {
                // Heights by rows, each with room for its title and axis.
                let size = |k: &Kind| self.rows.iter().filter(|r| r.1 == *k).count() as f64 + 4.0;
                let h = root.dim_in_pixel().1 as f64;
                let cut = (h * size(two) / (size(two) + size(other))).round() as i32;
                let (top, bottom) = root.split_vertically(cut);
                self.panel(&top, *two, room.as_ref())?;
                self.panel(&bottom, *other, None)
            }
            [one] => self.panel(root, *one, room.as_ref()),
            _ => self.panel(root, Kind::Heap, room.as_ref()),
        }
    }
}

impl Memory {
    /// The panel of the rows of `kind`, on an axis of its own; the one
    /// given `room` draws the figure's legend there.
    fn panel<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        kind: Kind,
        room: Option<&super::Outside<DB>>,
    ) -> Result<(), DrawError> {
        let mine: Vec<usize> = (0..self.rows.len())
            .filter(|&r| self.rows[r].1 == kind)
            .collect();
        let rows: Vec<String> = mine.iter().map(|&r| self.rows[r].0.clone()).collect();
        let points: Vec<(usize, usize, f64)> = self
            .points
            .iter()
            .filter_map(|&(r, d, v)| Some((mine.iter().position(|&m| m == r)?, d, v)))
            .collect();
        let n = rows.len().max(1) as f64;
        // The data's span, a little either side: no tick far past it.
        let x = super::log_range(points.iter().map(|p| p.2.max(1.0)));
        // Every tick the axis labels: it takes as many as its width holds.
        let label = |v: &f64| bytes_label(*v);
        let mut chart = super::rows_chart(root, kind.title(), x, &rows, &label, kind.axis())?;
        let mut key = super::Key::default();
        // Each dataset's colour and marker its own in every run.
        let slots = super::dataset_slots(self.datasets.iter().map(String::as_str));
        for (di, name) in self.datasets.iter().enumerate() {
            let c = super::dataset_color(slots[di]);
            let shape = super::marker_shape(slots[di], 11);
            let mark = shape.clone();
            // Datasets side by side within a row, the first on top.
            let m = self.datasets.len();
            let dy = if m > 1 {
                0.15 - 0.3 * di as f64 / (m - 1) as f64
            } else {
                0.0
            };
            let mine: Vec<(f64, f64)> = points
                .iter()
                .filter(|p| p.1 == di)
                .map(|p| (p.2.max(1.0), n - 1.0 - p.0 as f64 + dy))
                .collect();
            let anno = chart
                .draw_series(
                    mine.iter()
                        .map(|&p| EmptyElement::at(p) + Polygon::new(shape.clone(), c.filled())),
                )
                .map_err(err)?;
            key.add(anno, name.clone(), move |(x, y)| {
                EmptyElement::at((x + 8, y)) + Polygon::new(mark.clone(), c.filled())
            });
        }
        match room {
            Some(room) => super::legend_outside(&chart, &key, room),
            None => Ok(()),
        }
    }
}

/// A byte count as an axis label, in decimal units (the log axis's
/// ticks are powers of ten): `512 B`, `64 kB`, `2 MB`.
fn bytes_label(v: f64) -> String {
    let units = [("GB", 1e9), ("MB", 1e6), ("kB", 1e3)];
    for (unit, size) in units {
        if v >= size {
            return format!("{} {unit}", compact(v / size));
        }
    }
    format!("{} B", compact(v))
}

/// The report's memory chart: every contender with a memory figure.
pub struct FromRun;

impl RunChart for FromRun {
    fn timed(&self) -> Option<&'static str> {
        Some("Memory")
    }

    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError> {
        let data = run.data;
        let mut rows: Vec<(String, Kind)> = Vec::new();
        let mut points = Vec::new();
        for &v in run.order() {
            let name = &data.variants[v];
            for (di, d) in data.datasets.iter().enumerate() {
                let Some(r) = data
                    .summary
                    .iter()
                    .find(|r| &r.variant == name && &r.dataset == d)
                else {
                    continue;
                };
                let (bytes, kind) = match (r.peak_heap_bytes, r.peak_mem_bytes) {
                    (Some(h), _) => (h, Kind::Heap),
                    (None, Some(p)) => (p, Kind::Process),
                    _ => continue,
                };
                let label = (r.label(), kind);
                let row = match rows.iter().position(|l| *l == label) {
                    Some(i) => i,
                    None => {
                        rows.push(label);
                        rows.len() - 1
                    }
                };
                points.push((row, di, bytes as f64));
            }
        }
        // No figure (a run counting instructions, or one from before
        // memory was measured): no chart, and nothing to say.
        if points.is_empty() {
            return Ok(());
        }
        let limit = data
            .info
            .as_ref()
            .and_then(|i| i.options.memory_limit.as_ref())
            .map(|m| format!("{} ({})", crate::usage::size_words(m.bytes), m.by));
        // A contender skipped on a dataset (a size it does not handle) has
        // no mark there: said, with which and why. (A chart of one dataset
        // gets that line from the report.)
        let mut left_out: Vec<String> = Vec::new();
        if data.datasets.len() > 1 {
            let skipped: &[crate::harness::Skipped] =
                data.info.as_ref().map_or(&[], |i| &i.skipped);
            for &v in run.order() {
                let mine: Vec<&crate::harness::Skipped> = skipped
                    .iter()
                    .filter(|k| k.variant == data.variants[v])
                    .collect();
                if let Some(k) = mine.first() {
                    let on: Vec<&str> = mine.iter().map(|k| k.dataset.as_str()).collect();
                    left_out.push(format!(
                        "{} on {} (handles {} only)",
                        data.label(v),
                        on.join(", "),
                        k.handles
                    ));
                }
            }
        }
        let chart = Memory {
            rows,
            datasets: data.datasets.clone(),
            points,
            limit,
            left_out,
        };
        run.draw(&chart, "memory", out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_labels_read_as_sizes() {
        assert_eq!(bytes_label(512.0), "512 B");
        assert_eq!(bytes_label(64e3), "64 kB");
        assert_eq!(bytes_label(3e6), "3 MB");
    }

    #[test]
    fn the_legend_covers_no_mark() {
        let chart = Memory {
            rows: (0..6).map(|i| (format!("s{i}"), Kind::Heap)).collect(),
            datasets: vec!["a".into(), "b".into(), "c".into()],
            points: (0..6)
                .flat_map(|r| (0..3).map(move |d| (r, d, 10f64.powi(2 + r as i32 + d as i32))))
                .collect(),
            limit: None,
            left_out: Vec::new(),
        };
        for size in [super::super::figure::DOUBLE, super::super::figure::SINGLE] {
            let svg = super::super::draw_svg(&chart, "", &size).unwrap();
            assert_eq!(super::super::legend_covers(&svg), None);
        }
    }

    #[test]
    fn heap_and_resident_memory_have_a_panel_and_an_axis_each() {
        let chart = Memory {
            rows: vec![
                ("dlx".into(), Kind::Heap),
                ("band".into(), Kind::Heap),
                ("solver.py (outside)".into(), Kind::Process),
            ],
            datasets: vec!["a".into(), "b".into()],
            // 241 B against 15 MB.
            points: vec![(0, 0, 241.0), (1, 1, 9e3), (2, 0, 15e6), (2, 1, 16e6)],
            limit: None,
            left_out: Vec::new(),
        };
        // The x axes: long horizontal black lines.
        let axes = |svg: &str| {
            let doc = roxmltree::Document::parse(svg).unwrap();
            let n = doc
                .descendants()
                .filter(|n| n.has_tag_name("polyline") && n.attribute("stroke") == Some("#000000"))
                .filter(|n| {
                    let p: Vec<(f64, f64)> = n
                        .attribute("points")
                        .unwrap()
                        .split_whitespace()
                        .filter_map(|p| {
                            let (x, y) = p.split_once(',')?;
                            Some((x.parse().ok()?, y.parse().ok()?))
                        })
                        .collect();
                    p.len() == 2 && p[0].1 == p[1].1 && (p[1].0 - p[0].0).abs() > 100.0
                })
                .count();
            n
        };
        for size in [super::super::figure::DOUBLE, super::super::figure::SINGLE] {
            let svg = super::super::draw_svg(&chart, "", &size).unwrap();
            assert_eq!(axes(&svg), 2, "{:?}", size.px);
            for t in [Kind::Heap, Kind::Process] {
                assert!(svg.contains(t.title()), "{:?} {}", size.px, t.title());
                // A narrow figure cuts an axis name's words, never its "(log)".
                let head = t.axis().split(' ').next().unwrap();
                let named = svg
                    .split("<text")
                    .any(|e| e.contains(&format!(">\n{head}")) && e.contains("(log)"));
                assert!(named, "{:?} {}", size.px, t.axis());
            }
        }
        let one = Memory {
            rows: vec![("dlx".into(), Kind::Heap)],
            datasets: vec!["a".into()],
            points: vec![(0, 0, 241.0)],
            limit: None,
            left_out: Vec::new(),
        };
        let svg = super::super::draw_svg(&one, "", &super::super::figure::DOUBLE).unwrap();
        assert_eq!(axes(&svg), 1);
        assert!(!svg.contains(Kind::Process.title()));
    }
}
