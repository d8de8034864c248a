//! A study folder: `study.csv` (one row per point, mode and strategy, written
//! as each point finishes), `study.json` (options, seed, machine and
//! findings), the charts, and `report.md` / `report.html` with the findings in
//! words. Everything here sees finished rows and findings only.

use super::analysis::{Cost, Findings};
use super::fit::{Fit, Model};
use super::{Axis, PointState, StudyRow};
use crate::export::cells::{num, table, thousands};
use crate::export::first_seen;
use crate::harness::plan::Measure;
use crate::harness::{files, RunInfo};
use crate::report::charts::{render, CurvePoint, Rendered, StudyChart, StudyCurve};
use crate::report::html::{esc, figure, STYLE};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;
use std::io;
use std::path::Path;

/// The options of a study, as `study.json` records them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StudyInfo {
    /// How it runs.
    #[serde(flatten)]
    pub options: super::StudyOptions,
    /// Size studies: the fraction of cells given.
    pub fraction: Option<f64>,
}

/// Everything `study.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StudyFile {
    /// Build, machine, command line and times (its `datasets` is empty: the points are in `study`).
    pub run: RunInfo,
    /// The study's options.
    pub study: StudyInfo,
    /// Strategies left out of sizes they do not handle.
    pub unhandled: Vec<String>,
    /// Wall time of the study, seconds.
    pub elapsed_s: f64,
    /// Peaks and growth rates.
    pub findings: Findings,
}

/// The file of a study's rows: one per point, mode and strategy.
pub const CSV: &str = "study.csv";
/// The file of every timed solve, appended as each share is measured (a
/// run's `solves.csv`; `dataset` names the point).
pub use crate::harness::files::SOLVES_CSV;
/// The study's record: build, machine, command line, options, findings
/// (written when it begins, and again with its findings when it ends).
pub const JSON: &str = crate::files::STUDY_JSON;
/// One line per share measured (`point,mode,round,solves`), appended after
/// the share's solves: what a resumed study takes as done.
pub const SHARES_CSV: &str = "shares.csv";
/// Every file a study writes into its folder (beside `charts/`).
pub const FILES: [&str; 6] = [
    CSV,
    SOLVES_CSV,
    SHARES_CSV,
    JSON,
    files::REPORT_MD,
    files::REPORT_HTML,
];

/// Writes `study.json`, the charts, `report.md` and `report.html` into `dir`
/// (`study.csv` is the caller's, written as the points finish). Returns the
/// findings in words.
pub fn write_outputs(dir: &Path, file: &StudyFile, rows: &[StudyRow]) -> io::Result<Vec<String>> {
    let json = serde_json::to_string_pretty(file).map_err(io::Error::other)?;
    crate::files::write(dir.join(JSON), json + "\n")?;
    let charts_dir = dir.join(files::CHARTS);
    crate::files::folder(&charts_dir)?;
    let mut charts = Vec::new();
    let s = &file.study.options;
    let line = format!(
        "{} puzzles a point, seed {}, {} thread{}, {} round{}; {}",
        s.puzzles,
        s.seed,
        s.threads,
        if s.threads == 1 { "" } else { "s" },
        s.rounds,
        if s.rounds == 1 { "" } else { "s" },
        crate::report::charts::machine_line(&file.run)
    );
    for chart in charts_of(file, rows) {
        charts.push(render(&chart, &charts_dir, &line, false).map_err(io::Error::other)?);
    }
    let mut said = checks(rows);
    said.extend(sentences(file));
    crate::files::write(
        dir.join(files::REPORT_MD),
        markdown(file, rows, &said, &charts),
    )?;
    crate::files::write(
        dir.join(files::REPORT_HTML),
        crate::report::charts::share_glyphs(&html(file, rows, &said, &charts)),
    )?;
    Ok(said)
}

fn title(file: &StudyFile) -> String {
    let s = &file.study;
    match s.options.axis {
        Axis::Clues => format!(
            "How cost grows with clues: {0}x{0}",
            s.options.points.first().map_or(0, |p| p.side)
        ),
        Axis::Size => format!(
            "How cost grows with grid size: {} of cells given",
            s.fraction
                .map_or("-".into(), |f| format!("{:.0}%", f * 100.0))
        ),
    }
}

fn x_of(axis: Axis, r: &StudyRow) -> f64 {
    match axis {
        Axis::Clues => r.givens as f64,
        Axis::Size => r.cells as f64,
    }
}

/// `cells^1.52` or `e^(0.210·side)`.
pub fn law(f: &Fit) -> String {
    match f.model {
        Model::Power => format!("cells^{:.2}", f.slope),
        Model::Exponential => format!("e^({:.3}·side)", f.slope),
    }
}

fn interval(lo: Option<f64>, hi: Option<f64>, places: usize) -> String {
    match (lo, hi) {
        (Some(lo), Some(hi)) => format!("95% interval {lo:.places$}–{hi:.places$}"),
        _ => "no interval: too few usable resamples".into(),
    }
}

fn cost_value(cost: Cost, v: f64) -> String {
    match cost {
        Cost::Time => format!("{} µs", num(v)),
        Cost::Nodes => format!("{} nodes", num(v)),
        Cost::Instructions => format!("{} instructions", num(v)),
        Cost::Memory => format!("{} of heap", crate::usage::size_words(v.round() as u64)),
    }
}

/// Below this R², a fitted law is said not to fit.
const POOR_FIT: f64 = 0.5;

/// The findings in words, one sentence each: peaks, then growth.
pub fn sentences(file: &StudyFile) -> Vec<String> {
    let mut out = peak_sentences(file);
    out.extend(growth_sentences(file));
    out
}

/// A sentence per located peak (clue studies).
fn peak_sentences(file: &StudyFile) -> Vec<String> {
    let mut out = Vec::new();
    let givens: Vec<usize> = file.study.options.points.iter().map(|p| p.givens).collect();
    let (first, last) = (
        givens.iter().min().copied().unwrap_or(0) as f64,
        givens.iter().max().copied().unwrap_or(0) as f64,
    );
    for f in &file.findings.peaks {
        let Some(p) = &f.peak else { continue };
        let (what, peaks) = match f.cost {
            Cost::Time => ("time", "peaks"),
            Cost::Nodes => ("search nodes", "peak"),
            Cost::Instructions => ("instructions", "peak"),
            Cost::Memory => ("peak heap", "peaks"),
        };
        let edge = if p.at == first || p.at == last {
            " It lies at the end of the range studied: the true peak may lie beyond it."
        } else {
            ""
        };
        if !p.tied.is_empty() {
            let every = p.tied.len() == file.study.options.points.len();
            let at: Vec<String> = p.tied.iter().map(|x| x.to_string()).collect();
            out.push(if every {
                format!(
                    "{} (mode {}): {what} {peaks} nowhere: the median is the same at every clue count ({}), so there is no peak to locate.",
                    f.variant, f.mode, cost_value(f.cost, p.value)
                )
            } else {
                format!(
                    "{} (mode {}): {what} {peaks} on no single clue count: the highest median, {}, is shared by {} clues.",
                    f.variant, f.mode, cost_value(f.cost, p.value), at.join(", ")
                )
            });
        } else if p.censored {
            out.push(format!(
                "{} (mode {}): {what} {peaks} in the censored stretch from {} clues on: half or more of the puzzles there hit the limit (at least {} at the median).",
                f.variant, f.mode, p.at, cost_value(f.cost, p.value)
            ));
        } else {
            let interval = if p.lo == p.hi {
                "there in every bootstrap resample".to_string()
            } else {
                format!("95% interval {}–{}", p.lo, p.hi)
            };
            out.push(format!(
                "{} (mode {}): {what} {peaks} at {} clue{} ({interval}), {} at the median there.{edge}",
                f.variant,
                f.mode,
                p.at,
                if p.at == 1.0 { "" } else { "s" },
                cost_value(f.cost, p.value)
            ));
        }
    }
    out
}

/// A sentence per growth fit (size studies).
fn growth_sentences(file: &StudyFile) -> Vec<String> {
    let mut out = Vec::new();
    for f in &file.findings.growth {
        let (what, grows) = match f.cost {
            Cost::Time => ("time", "grows"),
            Cost::Nodes => ("search nodes", "grow"),
            Cost::Instructions => ("instructions", "grow"),
            Cost::Memory => ("peak heap", "grows"),
        };
        let sizes = |v: &[usize]| {
            v.iter()
                .map(|s| format!("{s}x{s}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut censored = String::new();
        if !f.censored.is_empty() {
            censored += &format!("; censored (left out of the fit) at {}", sizes(&f.censored));
        }
        if !f.not_run.is_empty() {
            censored += &format!("; not run at {}", sizes(&f.not_run));
        }
        match &f.growth {
            Some(g) if g.flat => out.push(format!(
                "{} (mode {}): no growth measured: the median is the same at every size fitted ({}), so there is nothing to fit{censored}.",
                f.variant,
                f.mode,
                sizes(&g.fitted)
            )),
            Some(g) => {
                let (best, other) = match g.better {
                    Model::Power => (&g.power, &g.exponential),
                    Model::Exponential => (&g.exponential, &g.power),
                };
                let fits = format!(
                    "{} ({} of the {}; R² {:.3}), a better fit than {} (R² {:.3})",
                    law(best),
                    interval(best.slope_lo, best.slope_hi, if best.model == Model::Power { 2 } else { 3 }),
                    if best.model == Model::Power { "exponent" } else { "rate" },
                    best.r2,
                    law(other),
                    other.r2
                );
                out.push(match g.falls {
                    // A fall: no law is claimed; the fits are given as read.
                    Some((a, b)) => format!(
                        "{} (mode {}): {what} follows no law: the median falls to under half from {a}x{a} to {b}x{b} (a path of its own at one size), so read the points; fitted anyway, {fits}{censored}.",
                        f.variant, f.mode
                    ),
                    None => {
                        let poor = if best.r2 < POOR_FIT {
                            format!(" Neither law fits well (R² below {POOR_FIT}): the medians do not grow steadily with the size, so read the points, not the law.")
                        } else {
                            String::new()
                        };
                        format!("{} (mode {}): {what} {grows} as {fits}{censored}.{poor}", f.variant, f.mode)
                    }
                });
            }
            None => out.push(format!(
                "{} (mode {}): {what} not fitted: fewer than 3 sizes with a known median{censored}.",
                f.variant, f.mode
            )),
        }
    }
    out
}

/// How the answers fared against their checks, one sentence per strategy and
/// mode that had any answer left out, or one saying every answer passed.
pub fn checks(rows: &[StudyRow]) -> Vec<String> {
    let mut out = Vec::new();
    let mut all = 0u64;
    for mode in first_seen(rows.iter().map(|r| r.mode.as_str())) {
        let here: Vec<&StudyRow> = rows.iter().filter(|r| r.mode == mode).collect();
        for v in first_seen(here.iter().map(|r| r.variant.as_str())) {
            let of = |f: fn(&StudyRow) -> u64| -> u64 {
                here.iter().filter(|r| r.variant == v).map(|r| f(r)).sum()
            };
            let puzzles = of(|r| r.puzzles);
            all += puzzles;
            let mut parts = Vec::new();
            for (n, what) in [
                (of(|r| r.wrong), "answered wrong"),
                (of(|r| r.errors), "failed"),
                (of(|r| r.unchecked), "unchecked: the reference search ran out of its node budget, so nothing could check the verdict"),
            ] {
                if n > 0 {
                    parts.push(format!("{} {what}", thousands(n)));
                }
            }
            if !parts.is_empty() {
                out.push(format!(
                    "{v} (mode {mode}): of {} puzzles, {}. They are left out of the medians{}.",
                    thousands(puzzles),
                    parts.join("; "),
                    if mode == "unique" {
                        " and of the one-solution share"
                    } else {
                        ""
                    }
                ));
            }
        }
    }
    if out.is_empty() && all > 0 {
        out.push(format!(
            "Every answer ({} in all) was checked: each solution against the givens, each verdict against the puzzle's solutions counted untimed by the strategy `solve` trusts on the size.",
            thousands(all)
        ));
    }
    out
}

/// What the fitted numbers mean, in one paragraph per axis.
fn meaning(axis: Axis) -> &'static str {
    match axis {
        Axis::Clues => "Each point is a set of puzzles made by keeping that many random cells of a random complete grid, so every puzzle has a solution; the curves are each strategy's median cost per puzzle with its 95% interval as a band. The peak is the clue count with the highest median; its interval is where the peak falls in 95% of bootstrap resamples of the puzzles. The intervals cover the puzzles' spread; the rounds spread the machine's slow spells over the points, and the node counts, which no machine moves, say whether a bump in time is the search's.",
        Axis::Size => "Each point is a set of puzzles made by keeping the given fraction of the cells of a random complete grid (holes at random). The power law fits ln(median) = a + p·ln(cells): doubling the cells multiplies the cost by 2^p. The exponential fits ln(median) = a + r·side: each unit of side multiplies the cost by e^r. Both are least squares over the sizes whose median is known, the slope's interval a bootstrap over the puzzles of every point; the better fit has the smaller residual. Over three or four sizes the two can fit almost equally well: compare their R² before reading much into the choice. A censored point (half or more of its puzzles stopped by the budget or time limit) is drawn hollow, in its strategy's marker shape, at its lower bound, with an arrow up to the plot's edge (its interval has no upper end), and left out of the fit.",
    }
}

fn charts_of(file: &StudyFile, rows: &[StudyRow]) -> Vec<StudyChart> {
    let axis = file.study.options.axis;
    let variants = first_seen(rows.iter().map(|r| r.variant.as_str()));
    let mut out = Vec::new();
    for mode in first_seen(rows.iter().map(|r| r.mode.as_str())) {
        for cost in file.study.options.costs() {
            let mut curves = Vec::new();
            let mut unfitted = Vec::new();
            let slots = crate::report::charts::slots(variants.iter().copied());
            for (&ci, v) in slots.iter().zip(&variants) {
                let points: Vec<CurvePoint> = rows
                    .iter()
                    .filter(|r| r.mode == mode && r.variant == *v && r.state != PointState::Skipped)
                    .filter_map(|r| {
                        let (value, lo, hi) = median(cost, r)?;
                        Some(CurvePoint {
                            x: x_of(axis, r),
                            value: value.max(1e-3),
                            lo: lo.max(1e-3),
                            hi,
                            censored: r.state == PointState::Censored,
                        })
                    })
                    .collect();
                if points.is_empty() {
                    continue;
                }
                let (fitted, peak) = drawn_findings(file, v, mode, cost);
                if axis == Axis::Size && fitted.is_none() {
                    unfitted.push(format!("{v} ({})", unfitted_why(file, v, mode, cost)));
                }
                curves.push(StudyCurve {
                    name: v.to_string(),
                    color: ci,
                    points,
                    fitted,
                    peak,
                });
            }
            if curves.is_empty() {
                continue;
            }
            let (what, unit) = match cost {
                Cost::Time => ("time", "median time per puzzle, µs (log)"),
                Cost::Nodes => ("nodes", "median search nodes per puzzle (log)"),
                Cost::Instructions => ("instructions", "median instructions per puzzle (log)"),
                Cost::Memory => ("memory", "median peak heap of a call, bytes (log)"),
            };
            let (x_desc, log_x) = match axis {
                Axis::Clues => ("clues (givens)".to_string(), false),
                Axis::Size => {
                    // The sizes this study measured, and no other.
                    let mut sides: Vec<usize> = rows.iter().map(|r| r.side).collect();
                    sides.sort_unstable();
                    sides.dedup();
                    let named: Vec<String> = sides
                        .iter()
                        .map(|s| format!("{} for {s}x{s}", s * s))
                        .collect();
                    (format!("cells (log): {}", named.join(", ")), true)
                }
            };
            out.push(StudyChart {
                name: format!("study-{}-{what}-{mode}", axis.name()),
                title: format!("{} ({what}, mode {mode})", title(file)),
                caption: format!(
                    "Median {} against {} (mode {mode}); the bands are the medians' 95% intervals, an interval with no upper end running to the plot's top edge under an arrow; hollow marks (each strategy's own shape) are points stopped by the budget or time limit, at their lower bound{}{}.",
                    match cost {
                        Cost::Memory => "peak heap of a call (the most bytes it held at once)".to_string(),
                        _ => format!("{what} per puzzle"),
                    },
                    match axis {
                        Axis::Clues => "the clue count",
                        Axis::Size => "the cells of the grid",
                    },
                    if axis == Axis::Size { ", dashed lines the better fit" } else { "" },
                    if axis == Axis::Clues { ", and a ring marks a curve's peak inside the sweep (one at its first or last clue count is only its edge), the thin bar under it where the peak lies in 95% of bootstrap resamples" } else { "" }
                ),
                x_desc,
                y_desc: unit.to_string(),
                log_x,
                curves,
                unfitted,
            });
        }
    }
    out
}

/// Why a size study's curve has no fitted line: too few sizes with a
/// known median, or no law that fits well.
fn unfitted_why(file: &StudyFile, v: &str, mode: &str, cost: Cost) -> String {
    let finding = file
        .findings
        .growth
        .iter()
        .find(|g| g.variant == *v && g.mode == mode && g.cost == cost);
    match finding.map(|f| f.growth.as_ref()) {
        Some(Some(g)) => match g.falls {
            Some((a, b)) => format!("its median falls to under half from {a}x{a} to {b}x{b}"),
            None => format!(
                "neither law fits well, R² {:.2} under {POOR_FIT}",
                g.best().r2
            ),
        },
        Some(None) => "fewer than 3 sizes with a known median".to_string(),
        None => "not fitted".to_string(),
    }
}

/// A fitted law's name and its line.
type Law = (String, Vec<(f64, f64)>);
/// A peak's clue count and its interval.
type Peak = (f64, f64, f64);

/// What a curve draws of the study's findings: its fitted law as a line
/// (size studies), and its peak where one measured peak was located.
fn drawn_findings(
    file: &StudyFile,
    v: &str,
    mode: &str,
    cost: Cost,
) -> (Option<Law>, Option<Peak>) {
    let fitted = file
        .findings
        .growth
        .iter()
        .find(|g| g.variant == *v && g.mode == mode && g.cost == cost)
        .and_then(|g| g.growth.as_ref())
        // A law that fits poorly, or across a fall, is said not to fit
        // (report.md), not drawn.
        .filter(|g| g.best().r2 >= POOR_FIT && g.falls.is_none())
        .map(|g| {
            let best = g.best();
            let (a, b) = (
                *g.fitted.first().expect("fitted points") as f64,
                *g.fitted.last().expect("fitted points") as f64,
            );
            let line = (0..=40)
                .map(|i| {
                    let side = a + (b - a) * i as f64 / 40.0;
                    (side * side, best.at(side))
                })
                .collect();
            (law(best), line)
        });
    // A single, measured peak is ringed; a censored or flat one is not.
    let peak = file
        .findings
        .peaks
        .iter()
        .find(|f| f.variant == *v && f.mode == mode && f.cost == cost)
        .and_then(|f| f.peak.as_ref())
        .filter(|p| !p.censored && p.tied.is_empty())
        .map(|p| (p.at, p.lo, p.hi));
    (fitted, peak)
}

/// A row's median `cost` per puzzle, the low end of its interval, and the
/// high end when bounded.
fn median(cost: Cost, r: &StudyRow) -> Option<(f64, f64, Option<f64>)> {
    match cost {
        Cost::Time => Some((r.median_us?, r.median_lo_us?, r.median_hi_us)),
        Cost::Nodes => Some((r.median_nodes?, r.nodes_lo?, r.nodes_hi)),
        Cost::Instructions => Some((
            r.median_instructions?,
            r.instructions_lo?,
            r.instructions_hi,
        )),
        Cost::Memory => Some((r.median_heap_bytes?, r.heap_lo?, r.heap_hi)),
    }
}

/// One cell of the table: the median `cost` and its interval.
fn cell(r: &StudyRow, cost: Cost) -> String {
    match (r.state, median(cost, r)) {
        (PointState::Skipped, _) => "not run".into(),
        (PointState::Censored, Some((v, ..))) => format!("≥ {} (censored)", num(v)),
        (_, Some((v, lo, Some(hi)))) => format!("{} [{}–{}]", num(v), num(lo), num(hi)),
        (_, Some((v, lo, None))) => format!("{} [{}–∞]", num(v), num(lo)),
        _ => "-".into(),
    }
}

/// Per mode: one line per point, one column per strategy (the median `cost`
/// and its interval).
fn tables(rows: &[StudyRow], cost: Cost) -> Vec<(String, Vec<String>, Vec<Vec<String>>)> {
    let mut out = Vec::new();
    for mode in first_seen(rows.iter().map(|r| r.mode.as_str())) {
        let here: Vec<&StudyRow> = rows.iter().filter(|r| r.mode == mode).collect();
        let variants = first_seen(here.iter().map(|r| r.variant.as_str()));
        let mut header = vec!["size".to_string(), "givens".to_string()];
        let unique = mode.parse() == Ok(crate::solver::Mode::Unique);
        if unique {
            header.push("one solution".into());
        }
        header.extend(variants.iter().map(|v| format!("{v}, {}", cost.unit())));
        let mut lines = Vec::new();
        let mut points: Vec<(usize, usize)> = Vec::new();
        for r in &here {
            if !points.contains(&(r.side, r.givens)) {
                points.push((r.side, r.givens));
            }
        }
        for (side, givens) in points {
            let at: Vec<&&StudyRow> = here
                .iter()
                .filter(|r| r.side == side && r.givens == givens)
                .collect();
            let mut line = vec![format!("{side}x{side}"), givens.to_string()];
            if unique {
                line.push(
                    at.iter()
                        .find_map(|r| r.unique_pct)
                        .map_or("-".into(), |p| format!("{p:.0}%")),
                );
            }
            for v in &variants {
                line.push(
                    at.iter()
                        .find(|r| r.variant == *v)
                        .map_or(String::new(), |r| cell(r, cost)),
                );
            }
            lines.push(line);
        }
        out.push((mode.to_string(), header, lines));
    }
    out
}

fn meta(file: &StudyFile) -> Vec<String> {
    let r = &file.run;
    let s = &file.study.options;
    vec![
        format!(
            "{} puzzles per point in {} rounds, seed {}, {} thread{}, node budget {}, time limit {}, repeat {}, warmup {}; took {:.1} s{}",
            s.puzzles,
            s.rounds,
            s.seed,
            s.threads,
            if s.threads == 1 { "" } else { "s" },
            s.budget,
            s.time_limit.map_or("none".into(), |t| format!("{} ms", t.as_secs_f64() * 1e3)),
            s.repeat,
            s.warmup,
            file.elapsed_s,
            if r.interrupted { " (interrupted: the finished points only)" } else { "" }
        ),
        format!("{} ({} cores), {}", r.cpu_model, r.cores, r.os),
        match s.measure {
            Measure::Instructions => "instructions counted by valgrind's callgrind around each solve: the same on every run of this build, on any machine (its times are valgrind's, not this machine's)".into(),
            _ => "time measured around each solve on this machine".into(),
        },
        format!("sudoku-bench {} ({}), {}", r.version, r.git_commit, r.rustc),
        format!("command: {}", r.command.join(" ")),
    ]
}

fn markdown(file: &StudyFile, rows: &[StudyRow], said: &[String], charts: &[Rendered]) -> String {
    let mut s = format!("# {}\n\n", title(file));
    for l in meta(file) {
        let _ = writeln!(s, "- {l}");
    }
    for u in &file.unhandled {
        let _ = writeln!(s, "- not run where the size is not handled: {u}");
    }
    s.push_str("\n## Findings\n\n");
    for l in said {
        let _ = writeln!(s, "- {l}");
    }
    let _ = writeln!(s, "\n{}\n", meaning(file.study.options.axis));
    for c in charts {
        let _ = writeln!(
            s,
            "![{}](charts/{}.svg)\n\n{}\n",
            c.title, c.name, c.caption
        );
    }
    let cost = file.study.options.costs()[0];
    for (mode, header, lines) in tables(rows, cost) {
        let _ = writeln!(s, "## Median {} per puzzle, mode {mode}\n", cost.name());
        let h: Vec<&str> = header.iter().map(String::as_str).collect();
        let right: Vec<bool> = (0..h.len()).map(|i| i > 0).collect();
        s.push_str(&table(&h, &lines, &right));
        s.push('\n');
    }
    s
}

fn html(file: &StudyFile, rows: &[StudyRow], said: &[String], charts: &[Rendered]) -> String {
    let t = esc(&title(file));
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n\
         <title>sudoku-bench study</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <h1>{t}</h1>\n<section id=\"study\">\n<ul class=\"meta\">\n"
    );
    for l in meta(file) {
        let _ = writeln!(s, "<li>{}</li>", esc(&l));
    }
    for u in &file.unhandled {
        let _ = writeln!(
            s,
            "<li>not run where the size is not handled: {}</li>",
            esc(u)
        );
    }
    s.push_str("</ul>\n<h2>Findings</h2>\n<ul class=\"said\">\n");
    for l in said {
        let _ = writeln!(s, "<li>{}</li>", esc(l));
    }
    let _ = writeln!(
        s,
        "</ul>\n<p class=\"note\">{}</p>\n<div class=\"charts\">",
        esc(meaning(file.study.options.axis))
    );
    for c in charts {
        figure(&mut s, c);
    }
    s.push_str("</div>\n");
    let cost = file.study.options.costs()[0];
    for (mode, header, lines) in tables(rows, cost) {
        let _ = write!(
            s,
            "<details class=\"tables\"><summary>Median {} per puzzle, mode {}</summary>\n<div class=\"scroll\"><table>\n<tr>",
            cost.name(),
            esc(&mode)
        );
        for h in &header {
            let _ = write!(s, "<th>{}</th>", esc(h));
        }
        s.push_str("</tr>\n");
        for l in &lines {
            s.push_str("<tr>");
            for (i, c) in l.iter().enumerate() {
                let class = if i > 0 { " class=\"n\"" } else { "" };
                let _ = write!(s, "<td{class}>{}</td>", esc(c));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table></div></details>\n");
    }
    s.push_str("</section>\n</body>\n</html>\n");
    s
}
