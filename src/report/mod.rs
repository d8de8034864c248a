//! Charts and a report from a saved run folder (`sudoku-bench report RUN_DIR`).
//!
//! Everything here reads finished files; nothing re-runs a solver. Output goes
//! to `RUN_DIR/charts/*.svg|png`, `RUN_DIR/report.md` and a self-contained
//! `RUN_DIR/report.html` with the SVGs inline.

use crate::harness::files;
pub mod charts;
pub(crate) mod html;
pub mod load;
pub mod machines;

pub use html::html;
pub use load::{load, load_points, Point, ReportError, RunData, Series};

use crate::export::first_seen;
use crate::export::markdown::{relative_table, sentences, summary_table, RELATIVE_NOTE};
use crate::harness::SummaryRow;
use crate::solver::SolverId;
use charts::{
    render, Cactus, Distribution, Hardness, HeadToHead, Metric, RelativeSpeed, Rendered,
    SearchCost, Throughput,
};
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
fn fastest(summary: &[SummaryRow]) -> Vec<String> {
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

fn find_variant(data: &RunData, name: &str) -> Option<usize> {
    data.variants.iter().position(|v| v == name)
}

fn us(p: &Point) -> f64 {
    p.solve_ns as f64 / 1e3
}

/// Mean search nodes per puzzle and solver µs per node of variant `v` on dataset
/// `di`, over its solved, timed rows; `None` without any (or without nodes).
fn node_costs(data: &RunData, di: usize, v: usize) -> Option<(f64, f64)> {
    let (n, nodes, ns) = data.series(v, di)?.cost;
    (n > 0 && nodes > 0).then(|| (nodes as f64 / n as f64, ns as f64 / 1e3 / nodes as f64))
}

/// Draws every chart that makes sense for the run into `dir/charts`, replacing earlier ones.
pub fn build(data: &RunData, dir: &Path, opts: &ReportOptions) -> Result<Report, ReportError> {
    let charts_dir = dir.join(files::CHARTS);
    crate::export::run_dir::clear_charts(&charts_dir).map_err(|source| ReportError::Write {
        path: charts_dir.clone(),
        source,
    })?;
    let order = variant_order(data);
    let color_of = |v: usize| order.iter().position(|&o| o == v).unwrap_or(v);
    let mut out = Report {
        charts: Vec::new(),
        skipped: Vec::new(),
    };
    let draw =
        |r: Result<Rendered, String>, name: &str, out: &mut Report| -> Result<(), ReportError> {
            out.charts.push(r.map_err(|message| ReportError::Draw {
                chart: name.to_string(),
                message,
            })?);
            Ok(())
        };

    // 1. Throughput.
    if data.summary.is_empty() {
        out.skipped
            .push("Throughput: skipped, summary.csv has no rows.".into());
    } else {
        let datasets: Vec<String> = first_seen(data.summary.iter().map(|r| r.dataset.as_str()))
            .into_iter()
            .map(str::to_string)
            .collect();
        let variants: Vec<(String, usize)> = order
            .iter()
            .map(|&v| (data.label(v), color_of(v)))
            .filter(|(name, _)| data.summary.iter().any(|r| &r.variant == name))
            .collect();
        let bars = data
            .summary
            .iter()
            .filter_map(|r| {
                let di = datasets.iter().position(|d| *d == r.dataset)?;
                let vi = variants.iter().position(|v| v.0 == r.variant)?;
                (r.puzzles_per_sec > 0.0).then_some((di, vi, r.puzzles_per_sec))
            })
            .collect();
        let chart = Throughput {
            datasets,
            variants,
            bars,
        };
        draw(render(&chart, &charts_dir), "throughput", &mut out)?;
    }

    // 2. Relative speed with its interval, per dataset where two or more variants ran.
    let datasets = first_seen(data.summary.iter().map(|r| r.dataset.as_str()));
    for dname in datasets {
        let mut rows: Vec<(String, usize, f64, f64, f64)> = Vec::new();
        let mut reference = String::new();
        for r in data.summary.iter().filter(|r| r.dataset == dname) {
            if let (Some(s), Some(lo), Some(hi)) = (r.speed, r.speed_lo, r.speed_hi) {
                let v = find_variant(data, &r.variant);
                rows.push((r.label(), v.map_or(0, color_of), s, lo, hi));
                reference = r.reference.clone();
            }
        }
        if rows.len() < 2 {
            continue; // one strategy: nothing to relate
        }
        rows.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
        let chart = RelativeSpeed {
            dataset: dname.to_string(),
            reference,
            rows,
        };
        draw(render(&chart, &charts_dir), "relative-speed", &mut out)?;
    }

    // 3 and 4, per dataset: cactus and distribution.
    for (di, dname) in data.datasets.iter().enumerate() {
        let mut cactus = Vec::new();
        let mut dist = Vec::new();
        let mut puzzles = 0;
        for &v in &order {
            let Some(s) = data.series(v, di) else {
                continue;
            };
            puzzles = puzzles.max(s.rows as usize);
            let us = |sk: &crate::stats::Sketch| {
                charts::Curve::from_ranks(sk.len() as usize, |r| sk.at_rank(r) as f64 / 1e3)
            };
            if !s.solved.is_empty() {
                cactus.push((data.label(v), color_of(v), us(&s.solved)));
            }
            if !s.timed.is_empty() {
                dist.push((data.label(v), color_of(v), us(&s.timed)));
            }
        }
        if cactus.is_empty() {
            out.skipped.push(format!(
                "Cactus plot of {dname}: skipped, no strategy solved a puzzle of it."
            ));
        } else {
            let chart = Cactus {
                dataset: dname.clone(),
                lines: cactus,
                puzzles,
            };
            draw(render(&chart, &charts_dir), "cactus", &mut out)?;
        }
        if dist.is_empty() {
            out.skipped.push(format!(
                "Time distribution of {dname}: skipped, no timed rows."
            ));
        } else {
            let chart = Distribution {
                dataset: dname.clone(),
                lines: dist,
            };
            draw(render(&chart, &charts_dir), "distribution", &mut out)?;
        }
    }

    // 5. Search size against cost per node, per dataset (only where nodes were counted).
    for (di, dname) in data.datasets.iter().enumerate() {
        let mut points = Vec::new();
        for &v in &order {
            if let Some((per_puzzle, per_node)) = node_costs(data, di, v) {
                points.push((data.label(v), color_of(v), per_puzzle, per_node));
            }
        }
        if points.len() < 2 {
            out.skipped.push(format!(
                "Search size and cost per node on {dname}: skipped, fewer than two strategies solved a puzzle of it."
            ));
        } else {
            let chart = SearchCost {
                dataset: dname.clone(),
                points,
            };
            draw(render(&chart, &charts_dir), "search-cost", &mut out)?;
        }
    }

    // 6. Head to head: the pair asked for, or on each dataset its two fastest variants.
    let ranked = fastest(&data.summary);
    let find = |n: &str| find_variant(data, n);
    let pair_for = |dname: &str| -> Result<(usize, usize), String> {
        match &opts.compare {
            Some((a, b)) => match (find(a), find(b)) {
                (Some(ai), Some(bi)) if ai != bi => Ok((ai, bi)),
                _ => Err(format!(
                    "Head to head: skipped, {a} and {b} are not two strategies of this run."
                )),
            },
            None => {
                let mut rows: Vec<&SummaryRow> = data
                    .summary
                    .iter()
                    .filter(|r| r.dataset == dname && r.puzzles_per_sec > 0.0)
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
                    _ => Err(format!(
                        "Head to head on {dname}: skipped, only one strategy ran on it."
                    )),
                }
            }
        }
    };
    if data.variants.len() < 2 {
        out.skipped
            .push("Head to head: skipped, the run has only one strategy.".into());
    } else {
        for (di, dname) in data.datasets.iter().enumerate() {
            let (ai, bi) = match pair_for(dname) {
                Ok(p) => p,
                Err(note) => {
                    if !out.skipped.contains(&note) {
                        out.skipped.push(note);
                    }
                    continue;
                }
            };
            let (a, b) = (&data.variants[ai], &data.variants[bi]);
            let time_of = |v: usize| -> HashMap<u64, f64> {
                data.series(v, di)
                    .map_or(&[][..], |s| &s.sample[..])
                    .iter()
                    .filter(|p| {
                        p.dataset == di && p.variant == v && p.status.is_solved() && p.solve_ns > 0
                    })
                    .map(|p| (p.puzzle, us(p)))
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
                a: (a.clone(), color_of(ai)),
                b: (b.clone(), color_of(bi)),
                points: points.into_iter().map(|p| (p.1, p.2)).collect(),
                population: data.sampled(di),
            };
            draw(render(&chart, &charts_dir), "head-to-head", &mut out)?;
        }
    }

    // 7. Hardness.
    let variant = opts
        .hardness_variant
        .clone()
        .or_else(|| ranked.first().cloned());
    match variant.and_then(|n| find_variant(data, &n).map(|i| (n, i))) {
        None => out
            .skipped
            .push("What makes a puzzle hard: skipped, no such strategy in this run.".into()),
        Some((name, vi)) => {
            let series: Vec<charts::HardnessSeries> = data
                .datasets
                .iter()
                .enumerate()
                .map(|(di, d)| {
                    let pts = data
                        .series(vi, di)
                        .map_or(&[][..], |s| &s.sample[..])
                        .iter()
                        .filter(|p| p.status.is_solved() && p.solve_ns > 0)
                        .filter_map(|p| {
                            let x = match opts.metric {
                                Metric::Guesses => p.guesses? as f64 + 1.0,
                                Metric::Nodes => p.nodes?.max(1) as f64,
                            };
                            Some((x, us(p)))
                        })
                        .collect();
                    (d.clone(), pts, data.sampled(di))
                })
                .filter(|(_, pts, _): &charts::HardnessSeries| !pts.is_empty())
                .collect();
            if series.is_empty() {
                out.skipped.push(format!(
                    "What makes a puzzle hard: skipped, {name} solved no puzzle."
                ));
            } else {
                let chart = Hardness {
                    variant: name,
                    metric: opts.metric,
                    series,
                };
                draw(render(&chart, &charts_dir), "hardness", &mut out)?;
            }
        }
    }
    Ok(out)
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

fn metadata_lines(data: &RunData) -> Vec<String> {
    let Some(i) = &data.info else {
        return vec!["run.json is missing: no metadata.".into()];
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
    let mut said = sentences(&data.summary);
    said.extend(crate::export::markdown::run_notes(
        &data.summary,
        data.info.as_ref().and_then(|i| i.pipe_floor_ns),
    ));
    if !said.is_empty() {
        s.push_str("\n## In short\n\n");
        for l in said {
            let _ = writeln!(s, "- {l}");
        }
    }
    let relative = relative_table(&data.summary);
    if !relative.is_empty() {
        s.push_str("\n## Relative speed\n\n");
        s.push_str(&relative);
        let _ = writeln!(s, "\n{RELATIVE_NOTE} {}", interval_line(data));
    }
    s.push_str("\n## Summary\n\n");
    s.push_str(&summary_table(&data.summary));
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
    std::fs::write(dir.join(files::REPORT_MD), markdown(&data, &report))
        .map_err(io(&dir.join(files::REPORT_MD)))?;
    std::fs::write(dir.join(files::REPORT_HTML), html(&data, &report))
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
        info.incomplete
            .push("every planned row is in results.csv, but the run did not record its end".into());
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

/// What the run's intervals cover (see [`crate::export::markdown::interval_note`]).
fn interval_line(data: &RunData) -> String {
    let (complete, asked) = data
        .info
        .as_ref()
        .map_or((None, 1), |i| (i.rounds_complete, i.options.rounds));
    crate::export::markdown::interval_note(&data.summary, complete, asked)
}
