//! Charts and a report from a saved run folder (`sudoku-bench report RUN_DIR`).
//!
//! Everything here reads finished files; nothing re-runs a solver. Output goes
//! to `RUN_DIR/charts/*.svg|png`, `RUN_DIR/report.md` and a self-contained
//! `RUN_DIR/report.html` with the SVGs inline.

use crate::harness::files;
pub mod charts;
pub mod html;
pub mod load;
pub mod machines;
pub mod session;

pub use html::html;
pub use load::{load, load_points, load_summary, Point, ReportError, RunData, Series};

use crate::export::cells::{relative_table, RELATIVE_NOTE};
use crate::harness::SummaryRow;
use crate::solver::SolverId;
use charts::{render, Rendered};
use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

/// Choices for the optional charts: part of the run's options.
pub use crate::harness::plan::ChartChoices as ReportOptions;

/// What a report holds: every chart drawn, and a note for each chart skipped.
#[derive(Clone, Debug)]
pub struct Report {
    /// Charts drawn, in report order.
    pub charts: Vec<Rendered>,
    /// Charts not drawn, with why.
    pub skipped: Vec<String>,
    /// What reading the run's rows dropped (see [`RunData::notes`]).
    pub notes: Vec<String>,
}

impl Report {
    /// Says what was drawn for the run in `dir`: each chart left out on
    /// stderr, then the charts' count and where the report is.
    pub fn tell(&self, dir: &Path, console: &mut dyn crate::export::terminal::Console) {
        for note in self.notes.iter().chain(&self.skipped) {
            console.err(&format!("note: {note}"));
        }
        console.out(&format!(
            "{} charts; report in {} and {}\n",
            self.charts.len(),
            dir.join(files::REPORT_MD).display(),
            dir.join(files::REPORT_HTML).display()
        ));
    }
}

impl machines::MachinesReport {
    /// Says what the report across machines in `dir` found: its sentences,
    /// the datasets left out, then the counts and where the report is.
    pub fn tell(&self, dir: &Path, console: &mut dyn crate::export::terminal::Console) {
        for l in &self.sentences {
            console.out(&format!("{l}\n"));
        }
        if !self.left_out.is_empty() {
            let left = self.left_out.join(", ");
            console.err(&format!(
                "note: left out (not in every run, or one contender only): {left}"
            ));
        }
        let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        console.out(&format!(
            "{}, {}, {}; report in {} and {}\n",
            count(self.machines.len(), "run"),
            count(self.datasets.len(), "dataset"),
            count(self.charts.len(), "chart"),
            dir.join(files::REPORT_MD).display(),
            dir.join(files::REPORT_HTML).display()
        ));
    }
}

/// Writes the run in `dir` in each format of `exports` (`report --export`),
/// saying each note and where each export went.
pub fn export(
    dir: &Path,
    exports: &[crate::harness::plan::ExportTo],
    console: &mut dyn crate::export::terminal::Console,
) -> Result<(), ReportError> {
    let data = load(dir)?;
    let info = data
        .info
        .ok_or_else(|| ReportError::NoInfo(dir.to_path_buf()))?;
    let run = crate::export::RunReport {
        info,
        summary: data.summary,
    };
    for n in crate::export::track::write(exports, &run)? {
        console.err(&format!("note: {n}"));
    }
    for e in exports {
        console.out(&format!(
            "{} export in {}\n",
            e.format.word(),
            e.path.display()
        ));
    }
    Ok(())
}

/// A file-name-safe form of a name.
pub fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Variant names in registry order (unknown names after, in run order): the colour order.
fn variant_order(data: &RunData) -> Vec<usize> {
    let rank = |name: &str| {
        SolverId::ALL
            .iter()
            .position(|s| s.name() == name)
            .unwrap_or(usize::MAX)
    };
    let mut order: Vec<usize> = (0..data.variants.len()).collect();
    order.sort_by_key(|&i| (rank(&data.variants[i]), i));
    order
}

/// Variants ranked fastest first: geometric mean of puzzles/sec over the datasets each ran.
pub(crate) fn fastest(summary: &[SummaryRow]) -> Vec<String> {
    let mut acc: HashMap<&str, (f64, usize)> = HashMap::new();
    for r in summary.iter().filter(|r| r.puzzles_per_sec > 0.0) {
        let e = acc.entry(r.variant.as_str()).or_default();
        e.0 += r.puzzles_per_sec.ln();
        e.1 += 1;
    }
    let mut v: Vec<(&str, f64)> = acc
        .into_iter()
        .map(|(k, (s, n))| (k, s / n as f64))
        .collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    v.into_iter().map(|(k, _)| k.to_string()).collect()
}

pub(crate) fn find_variant(data: &RunData, name: &str) -> Option<usize> {
    data.variants.iter().position(|v| v == name)
}

/// True when variant `v`'s figures stand on dataset `dataset` (see
/// [`crate::harness::SummaryRow::stands`]): a chart of speed or time draws
/// only those. A run without its summary row counts as standing.
pub(crate) fn stands(data: &RunData, v: usize, dataset: &str) -> bool {
    data.summary
        .iter()
        .find(|r| r.variant == data.variants[v] && r.dataset == dataset)
        .is_none_or(|r| r.stands())
}

/// Variant `v`'s label on a chart of what it solved of `dataset`: with, when
/// it verified fewer than all, how many, and any answered wrong, failed or
/// left unchecked (the rest were stopped), as `dlx (269/300)` or
/// `cdcl (290/300; 2 wrong)`.
pub(crate) fn label_solved(data: &RunData, v: usize, dataset: &str) -> String {
    let label = data.label(v);
    let Some(r) = data
        .summary
        .iter()
        .find(|r| r.variant == data.variants[v] && r.dataset == dataset)
    else {
        return label;
    };
    if r.solved >= r.puzzles {
        return label;
    }
    // Puzzles stopped (by the budget, a limit or an interrupt) are said by
    // the count alone; the caption says so.
    let why: Vec<String> = [
        (r.wrong, SummaryRow::NAMES.wrong),
        (r.errors, "failed"),
        (r.unchecked, SummaryRow::NAMES.unchecked),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, w)| format!("{n} {w}"))
    .collect();
    if why.is_empty() {
        format!("{label} ({}/{})", r.solved, r.puzzles)
    } else {
        format!("{label} ({}/{}; {})", r.solved, r.puzzles, why.join(", "))
    }
}

/// A point's solve time in µs.
pub(crate) fn solve_us(p: &Point) -> f64 {
    p.solve_ns as f64 / 1e3
}

/// Mean search nodes per puzzle and solver µs per node of variant `v` on dataset
/// `di`, over its solved, timed rows; `None` without any (or without nodes).
pub(crate) fn node_costs(data: &RunData, di: usize, v: usize) -> Option<(f64, f64)> {
    let (n, nodes, ns) = data.series(v, di)?.cost;
    (n > 0 && nodes > 0).then(|| (nodes as f64 / n as f64, ns as f64 / 1e3 / nodes as f64))
}

/// What a run's charts are drawn from: its data, the report's choices,
/// and one colour per variant across every chart.
pub struct RunCharts<'a> {
    /// The run.
    pub data: &'a RunData,
    /// The choices for the optional charts.
    pub choices: &'a ReportOptions,
    /// The charts' folder.
    dir: std::path::PathBuf,
    /// Variant indices in colour order (see [`variant_order`]).
    order: Vec<usize>,
    /// Each variant's series slot (colour and marker), by variant index.
    slots: Vec<usize>,
}

impl RunCharts<'_> {
    /// Variant indices in registry order: the order lines and legends take.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The series slot (colour and marker) of variant `v`: a built-in
    /// strategy's own in every chart of every command (see [`charts::slots`]).
    pub fn color_of(&self, v: usize) -> usize {
        self.slots.get(v).copied().unwrap_or(v)
    }

    /// Draws `chart` into the charts' folder and adds it to `out`.
    pub fn draw<C: charts::Chart>(
        &self,
        chart: &C,
        kind: &str,
        out: &mut Report,
    ) -> Result<(), ReportError> {
        let line = self.data.info.as_ref().map_or(String::new(), |info| {
            // A chart of one dataset ends with its slug.
            let name = chart.name();
            let one = info
                .datasets
                .iter()
                .find(|d| name.ends_with(&format!("-{}", slug(&d.name))))
                .map(|d| (d.name.as_str(), d.puzzles_run, d.puzzles_in_source));
            match (one, chart.datasets()) {
                (None, several) if !several.is_empty() => charts::run_line_over(info, &several),
                _ => charts::run_line(info, one),
            }
        });
        let mut left = chart.not_shown();
        // A strategy the run skipped on this chart's dataset (its size is
        // not one it handles) is named, not dropped without a word.
        if let Some(info) = &self.data.info {
            let name = chart.name();
            for s in info
                .skipped
                .iter()
                .filter(|s| name.ends_with(&format!("-{}", slug(&s.dataset))))
            {
                if !left
                    .iter()
                    .any(|l| l.starts_with(&format!("{} (", s.variant)))
                {
                    left.push(format!("{} (handles {} only)", s.variant, s.handles));
                }
            }
        }
        let line = match (left.is_empty(), line.is_empty()) {
            (true, _) => line,
            (false, true) => format!("Not shown: {}", left.join(", ")),
            (false, false) => format!("{line}; not shown: {}", left.join(", ")),
        };
        let r = render(
            chart,
            &self.dir,
            &line,
            self.choices.figures == crate::harness::plan::Figures::Paper,
        )
        .map_err(|message| ReportError::Draw {
            chart: kind.to_string(),
            message,
        })?;
        out.charts.push(r);
        Ok(())
    }
}

/// One kind of chart of a run's report (criterion's `Report` is the model):
/// it draws what the run gives it and says why it skips the rest. Each
/// lives in the file of the chart it draws.
pub trait RunChart {
    /// Adds this kind's charts, and a note for each one skipped, to `out`.
    fn add(&self, run: &RunCharts<'_>, out: &mut Report) -> Result<(), ReportError>;

    /// The kind's name in a note, when it draws wall times (or figures
    /// made from them): not drawn for a run that counted instructions,
    /// whose times are valgrind's. `None` for a kind that draws counts.
    fn timed(&self) -> Option<&'static str>;
}

/// Every kind of chart of a run's report, in report order.
const RUN_CHARTS: &[&dyn RunChart] = &[
    &charts::throughput::FromRun,
    &charts::throughput::Instructions,
    &charts::relative::FromRun,
    &charts::cactus::FromRun,
    &charts::search_cost::FromRun,
    &charts::head_to_head::FromRun,
    &charts::hardness::FromRun,
    &charts::memory::FromRun,
];

/// Draws every chart that makes sense for the run into `dir/charts`, replacing earlier ones.
pub fn build(data: &RunData, dir: &Path, opts: &ReportOptions) -> Result<Report, ReportError> {
    let charts_dir = dir.join(files::CHARTS);
    crate::export::run_dir::clear_charts(&charts_dir).map_err(|source| ReportError::Write {
        path: charts_dir.clone(),
        source,
    })?;
    let order = variant_order(data);
    // Each variant's series slot, by variant index.
    let mut slots = vec![0; data.variants.len()];
    let named = charts::slots(order.iter().map(|&v| data.variants[v].as_str()));
    for (&v, s) in order.iter().zip(named) {
        slots[v] = s;
    }
    let run = RunCharts {
        data,
        choices: opts,
        dir: charts_dir,
        order,
        slots,
    };
    let mut out = Report {
        charts: Vec::new(),
        skipped: Vec::new(),
        notes: data.notes.clone(),
    };
    // A counted run's times are valgrind's, many times the machine's and
    // not in the same proportion for every contender: nothing draws them.
    let counted = data
        .info
        .as_ref()
        .is_some_and(|i| i.options.measure.metric() == crate::harness::plan::Measure::Instructions);
    let mut untimed = Vec::new();
    for kind in RUN_CHARTS {
        match kind.timed() {
            Some(name) if counted => untimed.push(name.to_lowercase()),
            _ => kind.add(&run, &mut out)?,
        }
    }
    if !untimed.is_empty() {
        out.skipped.push(format!(
            "Charts of {}: not drawn, the run counted instructions (--measure instructions): its times and memory are valgrind's; the instructions chart draws what it counted.",
            untimed.join(", ")
        ));
    }
    Ok(out)
}

/// `s` with its first letter in upper case.
pub fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

fn metadata_lines(data: &RunData) -> Vec<String> {
    let Some(i) = &data.info else {
        return vec![format!("{} is missing: no metadata.", files::RUN_JSON)];
    };
    let mut lines = vec![
        match (i.finished.is_empty(), i.incomplete.is_empty()) {
            (true, false) => format!(
                "Run started {}, **cut short** (killed before it ended; the summary is made from the rows it wrote). It lacks: {}.",
                i.started,
                i.incomplete.join("; ")
            ),
            _ => format!(
                "Run started {}, finished {}{}.",
                i.started,
                i.finished,
                if i.interrupted { " (interrupted)" } else { "" }
            ),
        },
        format!(
            "{} {} (commit {}), built with {}.",
            i.tool, i.version, i.git_commit, i.rustc
        ),
        format!(
            "Machine: {}, {} cores, {}; worker threads: {}.",
            i.cpu_model, i.cores, i.os, i.options.threads
        ),
        format!("{}.", upper_first(&i.options.describe())),
        format!(
            "Datasets: {}.",
            i.datasets
                .iter()
                .map(|d| format!(
                    "{} ({} {}, sha256 {}…)",
                    d.name,
                    d.puzzles_run,
                    d.size,
                    &d.sha256[..d.sha256.len().min(12)]
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ];
    if let Some(l) = &i.options.label {
        lines.insert(1, format!("Label: {l}."));
    }
    // A dataset's name keeps its case, first in its sentence or not.
    lines.extend(i.fewer_rounds().iter().map(|n| format!("{n}.")));
    if i.resumed > 0 {
        lines.push(format!(
            "Resumed {} time{} after it was cut short (bench --resume): its rows come from {} sittings.",
            i.resumed,
            if i.resumed == 1 { "" } else { "s" },
            i.resumed + 1
        ));
    }
    lines
}

/// `report.md`: metadata, summary table, every chart with its sentence.
pub fn markdown(data: &RunData, report: &Report) -> String {
    let mut s = String::from("# sudoku-bench report\n\n");
    for l in metadata_lines(data) {
        let _ = writeln!(s, "- {l}");
    }
    let given_up = data.info.as_ref().map_or(&[][..], |i| &i.given_up[..]);
    s.push_str(&crate::export::markdown::failures_section(
        &data.summary,
        given_up,
    ));
    let measure = data.info.as_ref().map(|i| i.options.measure);
    let mut findings = crate::export::words::findings(&data.summary, measure);
    findings.extend(crate::export::words::run_notes(
        &data.summary,
        data.info.as_ref().and_then(|i| i.pipe_floor_ns),
    ));
    if !findings.is_empty() {
        s.push_str("\n## In short\n\n");
        for l in findings {
            let _ = writeln!(s, "- {l}");
        }
    }
    let counted =
        measure.is_some_and(|m| m.metric() == crate::harness::plan::Measure::Instructions);
    let relative = if counted {
        String::new()
    } else {
        relative_table(&data.summary)
    };
    if !relative.is_empty() {
        s.push_str("\n## Relative speed\n\n");
        s.push_str(&relative);
        let _ = writeln!(s, "\n{RELATIVE_NOTE} {}", interval_line(data));
    }
    s.push_str("\n## Summary\n\n");
    if counted {
        s.push_str("Under valgrind: the times are valgrind's and left out; the instructions are what was measured.\n\n");
    }
    s.push_str(&crate::export::cells::summary_table_of(
        &data.summary,
        counted,
    ));
    s.push_str("\n## Charts\n");
    for c in &report.charts {
        let _ = write!(
            s,
            "\n### {}\n\n![{}](charts/{}.svg)\n\n{}\n",
            c.title, c.title, c.name, c.caption
        );
    }
    if !report.skipped.is_empty() {
        s.push_str("\n## Charts not drawn\n\n");
        for n in &report.skipped {
            let _ = writeln!(s, "- {n}");
        }
    }
    s
}

/// Reads a run folder and writes its charts, `report.md` and `report.html`.
pub fn write(dir: &Path, opts: &ReportOptions) -> Result<Report, ReportError> {
    rebuild_if_cut_short(dir)?;
    let data = load(dir)?;
    let report = build(&data, dir, opts)?;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ReportError::Write { path, source }
    };
    crate::files::write(dir.join(files::REPORT_MD), markdown(&data, &report))
        .map_err(io(&dir.join(files::REPORT_MD)))?;
    crate::files::write(
        dir.join(files::REPORT_HTML),
        charts::share_glyphs(&html(&data, &report)),
    )
    .map_err(io(&dir.join(files::REPORT_HTML)))?;
    Ok(report)
}

/// A run killed before it wrote its summary (an empty `summary.csv`): its
/// summary is made from `results.csv` and `run.json` alone and written
/// (`summary.csv`, `summary.md`), with what the run lacks in its `run.json`.
/// Returns those lines; `None` when the run's summary was there.
pub fn rebuild_if_cut_short(dir: &Path) -> Result<Option<Vec<String>>, ReportError> {
    use crate::harness::recover;
    let summary = dir.join(files::SUMMARY_CSV);
    let has_rows = std::fs::read(&summary)
        .map(|b| b.iter().filter(|&&c| c == b'\n').count() > 1)
        .unwrap_or(false);
    if has_rows || !dir.join(crate::harness::RUN_JSON).is_file() {
        return Ok(None);
    }
    let bad = |e: recover::RecoverError| ReportError::Recover(e.to_string());
    let mut info = recover::read_info(dir).map_err(bad)?;
    let cover = recover::Coverage::read(dir, &info).map_err(bad)?;
    let rows = recover::summarize(dir, &cover, None).map_err(bad)?;
    info.incomplete = recover::lacking(&info, &cover);
    if let Some(t) = &cover.torn {
        info.incomplete.push(t.to_string());
    }
    if info.incomplete.is_empty() && info.finished.is_empty() {
        info.incomplete.push(format!(
            "every planned row is in {}, but the run did not record its end",
            files::RESULTS_CSV
        ));
    }
    (info.wrong, info.errors) = crate::harness::summary::failures(&rows);
    let run = crate::export::RunReport {
        info: info.clone(),
        summary: rows,
    };
    crate::export::write_all(dir, &run).map_err(|e| ReportError::Recover(e.to_string()))?;
    Ok(Some(info.incomplete))
}

#[cfg(test)]
mod tests;

/// What the run's intervals cover (see [`crate::export::words::interval_note`]).
fn interval_line(data: &RunData) -> String {
    let (complete, asked) = data
        .info
        .as_ref()
        .map_or((None, 1), |i| (i.rounds_complete, i.options.rounds));
    crate::export::words::interval_note(&data.summary, complete, asked)
}
