//! A scaling run's curve: the same comparison at several thread counts,
//! each count's run in its own folder, and over them `scaling.csv`,
//! `scaling.md` and a chart per dataset.

use super::BenchError;
use crate::export::first_seen;
use crate::harness::{files, RunOptions, SummaryRow};
use crate::report::charts::{render, Chart, Scaling};
use crate::report::ReportError;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The scaling curve's rows, beside the counts' run folders.
pub const SCALING_CSV: &str = crate::files::SCALING_CSV;
/// The scaling curve's page, likewise.
pub const SCALING_MD: &str = crate::files::SCALING_MD;

/// The folder of count `t` in a scaling run's folder `top`.
pub fn count_dir(top: &Path, t: usize) -> PathBuf {
    top.join(format!("threads-{t}"))
}

/// Refuses what a run at several thread counts cannot do: gate on a
/// baseline, or save one.
pub fn check(options: &RunOptions) -> Result<(), BenchError> {
    if options.after.baseline.is_some() || options.after.save_baseline.is_some() {
        let counts: Vec<String> = options.scaling.iter().map(|t| t.to_string()).collect();
        return Err(BenchError::ScalingBaseline(counts.join(",")));
    }
    Ok(())
}

/// Runs each thread count of `options.scaling`, in order, through `each`
/// (given the count's own options, with no report of its own, and its
/// folder), then writes the curve over the counts that ran into `top`.
/// It starts no other count once `interrupted` says so or a count ends in
/// 130. Gives the worst exit code (the last that was not 0) and the table.
pub fn run_counts<E: From<BenchError>>(
    options: &RunOptions,
    top: &Path,
    interrupted: &dyn Fn() -> bool,
    each: &mut dyn FnMut(RunOptions, &Path) -> Result<u8, E>,
) -> Result<(u8, String), E> {
    check(options)?;
    let mut counts = options.scaling.clone();
    counts.sort_unstable();
    counts.dedup();
    let (mut code, mut done) = (0, Vec::new());
    for t in counts {
        if interrupted() {
            code = 130; // between two counts: start no other
            break;
        }
        let dir = count_dir(top, t);
        let mut one = options.clone();
        one.threads = t;
        one.after.report = false;
        // Written once, every count in it, when the counts are done.
        one.after.exports = Vec::new();
        let c = each(one, &dir)?;
        done.push((t, dir));
        if c != 0 {
            code = c;
            if c == 130 {
                break; // interrupted: the curve covers the counts that finished
            }
        }
    }
    let paper = options.after.charts.figures == crate::harness::plan::Figures::Paper;
    let mut said = write(top, &done, paper)?;
    if !options.after.exports.is_empty() {
        said += &export_counts(&options.after.exports, &done)?;
    }
    Ok((code, said))
}

/// Writes the exports (`--export`) of a scaling run from each count's
/// summary.csv as written, every count in one file; gives what to say.
fn export_counts(
    exports: &[crate::harness::plan::ExportTo],
    counts: &[(usize, PathBuf)],
) -> Result<String, BenchError> {
    let mut runs = Vec::new();
    for (t, dir) in counts {
        let report = |source| BenchError::Report {
            dir: dir.clone(),
            source: Box::new(source),
        };
        if let (Some(info), summary) = crate::report::load_summary(dir).map_err(report)? {
            runs.push((*t, crate::export::RunReport { info, summary }));
        }
    }
    let mut said = String::new();
    for note in crate::export::track::write_counts(exports, &runs)? {
        said += &format!("note: {note}\n");
    }
    for e in exports {
        let (format, path) = (e.format.word(), e.path.display());
        said += &format!("{format} export in {path} ({} thread counts)\n", runs.len());
    }
    Ok(said)
}

/// Reads each count's summary (`(count, folder)`) and writes the curve into
/// `top`, with single-column figures too where `paper`; gives the table of
/// puzzles/s per count.
pub fn write(top: &Path, counts: &[(usize, PathBuf)], paper: bool) -> Result<String, BenchError> {
    let mut rows = Vec::new();
    let mut first = None;
    for (t, dir) in counts {
        let data = crate::report::load(dir).map_err(|source| BenchError::Report {
            dir: dir.clone(),
            source: Box::new(source),
        })?;
        first = first.or(data.info);
        rows.extend(data.summary.into_iter().map(|r| (*t, r)));
    }
    let points = scaling_points(&rows);
    let threads: Vec<usize> = counts.iter().map(|c| c.0).collect();
    write_outputs(top, &points, first.as_ref(), &threads, paper)?;
    Ok(table(&points))
}

/// One strategy on one dataset at one thread count.
#[derive(serde::Serialize)]
struct Point {
    dataset: String,
    variant: String,
    /// The variant's name, which picks its colour and marker.
    #[serde(skip)]
    name: String,
    threads: usize,
    puzzles_per_sec: f64,
    /// Against the fewest threads measured.
    speedup: f64,
    /// The speed-up over the thread ratio: 1 is linear.
    efficiency: f64,
    /// Puzzles not verified at this count (wrong, failed or stopped), of
    /// `puzzles`: said under the chart, which draws verified puzzles/s.
    #[serde(skip)]
    failed: u64,
    #[serde(skip)]
    puzzles: u64,
}

fn scaling_points(rows: &[(usize, SummaryRow)]) -> Vec<Point> {
    let mut points = Vec::new();
    let datasets = first_seen(rows.iter().map(|(_, r)| r.dataset.as_str()));
    let variants = first_seen(rows.iter().map(|(_, r)| r.variant.as_str()));
    for d in &datasets {
        for v in &variants {
            let here: Vec<_> = rows
                .iter()
                .filter(|(_, r)| r.dataset == *d && r.variant == *v && r.puzzles_per_sec > 0.0)
                .collect();
            let Some((t0, base)) = here.first().map(|(t, r)| (*t, r.puzzles_per_sec)) else {
                continue;
            };
            for (t, r) in here {
                let speedup = r.puzzles_per_sec / base;
                points.push(Point {
                    dataset: d.to_string(),
                    variant: r.label(),
                    name: r.variant.clone(),
                    threads: *t,
                    puzzles_per_sec: r.puzzles_per_sec,
                    speedup,
                    efficiency: speedup / (*t as f64 / t0 as f64),
                    failed: r.puzzles.saturating_sub(r.solved),
                    puzzles: r.puzzles,
                });
            }
        }
    }
    points
}

fn write_outputs(
    top: &Path,
    points: &[Point],
    info: Option<&crate::harness::RunInfo>,
    counts: &[usize],
    paper: bool,
) -> Result<(), BenchError> {
    let csv_path = top.join(SCALING_CSV);
    let csv_err = |e: csv::Error| BenchError::Io {
        path: csv_path.clone(),
        source: std::io::Error::other(e),
    };
    let file = crate::files::create(&csv_path).map_err(BenchError::io(&csv_path))?;
    let mut w = csv::Writer::from_writer(file);
    for p in points {
        w.serialize(p).map_err(csv_err)?;
    }
    w.flush().map_err(BenchError::io(&csv_path))?;
    let charts = top.join(files::CHARTS);
    crate::files::folder(&charts).map_err(BenchError::io(&charts))?;
    let mut md = String::from("# Scaling with threads\n\n");
    md.push_str(&format!(
        "Verified puzzles per second at each count of worker threads, and in \
         brackets the speed-up against the fewest threads. Puzzles per second: {}.\n\n",
        crate::harness::summary::PUZZLES_PER_SEC_MEANS
    ));
    md.push_str(&table(points));
    md.push('\n');
    let variants = first_seen(points.iter().map(|p| p.variant.as_str()));
    // Each strategy in its own colour and marker, as in every other chart.
    let slots = crate::report::charts::slots(variants.iter().map(|v| {
        points
            .iter()
            .find(|p| p.variant == *v)
            .map_or(*v, |p| p.name.as_str())
    }));
    for d in first_seen(points.iter().map(|p| p.dataset.as_str())) {
        let series = variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let pts = points
                    .iter()
                    .filter(|p| p.dataset == d && p.variant == *v)
                    .map(|p| (p.threads, p.puzzles_per_sec))
                    .collect::<Vec<_>>();
                (v.to_string(), slots[i], pts)
            })
            .filter(|s| !s.2.is_empty())
            .collect();
        let chart = Scaling {
            dataset: d.to_string(),
            series,
            cores: info.map(|i| i.cores),
        };
        let line = match info {
            Some(info) => {
                let ds = info.datasets.iter().find(|x| x.name == *d);
                let one = ds.map(|x| (x.name.as_str(), x.puzzles_run, x.puzzles_in_source));
                let line = crate::report::charts::counts_line(info, one, counts);
                // A strategy skipped on this dataset is named, not dropped.
                let skipped: Vec<String> = info
                    .skipped
                    .iter()
                    .filter(|s| s.dataset == *d)
                    .map(|s| format!("{} (handles {} only)", s.variant, s.handles))
                    .collect();
                let line = match skipped.is_empty() {
                    true => line,
                    false => format!("{line}; not shown: {}", skipped.join(", ")),
                };
                // A contender that failed puzzles says so, count by count:
                // its curve is of the puzzles it verified.
                let failed: Vec<String> = variants
                    .iter()
                    .filter_map(|v| {
                        let mine: Vec<&Point> = points
                            .iter()
                            .filter(|p| p.dataset == d && p.variant == *v && p.failed > 0)
                            .collect();
                        let at: Vec<String> = mine
                            .iter()
                            .map(|p| {
                                format!(
                                    "{} of {} at {} thread{}",
                                    p.failed,
                                    p.puzzles,
                                    p.threads,
                                    if p.threads == 1 { "" } else { "s" }
                                )
                            })
                            .collect();
                        (!at.is_empty()).then(|| format!("{v} failed {}", at.join(", ")))
                    })
                    .collect();
                match failed.is_empty() {
                    true => line,
                    false => format!(
                        "{line}; {} (its puzzles/s are of the puzzles verified)",
                        failed.join("; ")
                    ),
                }
            }
            None => format!(
                "{d}: puzzles per second at each thread count; {}",
                crate::report::charts::machine_here()
            ),
        };
        let r = render(&chart, &charts, &line, paper).map_err(|message| BenchError::Report {
            dir: top.to_path_buf(),
            source: Box::new(ReportError::Draw {
                chart: chart.name(),
                message,
            }),
        })?;
        let _ = writeln!(
            md,
            "![{}](charts/{}.svg)\n\n{}\n",
            r.title, r.name, r.caption
        );
    }
    let md_path = top.join(SCALING_MD);
    crate::files::write(&md_path, md).map_err(BenchError::io(&md_path))?;
    Ok(())
}

/// Puzzles/s per count, the speed-up against the fewest threads in brackets.
fn table(points: &[Point]) -> String {
    let mut counts: Vec<usize> = points.iter().map(|p| p.threads).collect();
    counts.sort_unstable();
    counts.dedup();
    let mut s = String::from("| dataset | strategy |");
    for t in &counts {
        let _ = write!(s, " {t} thread{} |", if *t == 1 { "" } else { "s" });
    }
    s.push_str("\n|---|---|");
    s.push_str(&"---:|".repeat(counts.len()));
    s.push('\n');
    let keys = first_seen(points.iter().map(|p| p.dataset.as_str()));
    for d in keys {
        for v in first_seen(
            points
                .iter()
                .filter(|p| p.dataset == d)
                .map(|p| p.variant.as_str()),
        ) {
            let _ = write!(s, "| {d} | {v} |");
            for t in &counts {
                match points
                    .iter()
                    .find(|p| p.dataset == d && p.variant == v && p.threads == *t)
                {
                    Some(p) => {
                        let _ = write!(s, " {:.0} ({:.2}×) |", p.puzzles_per_sec, p.speedup);
                    }
                    None => s.push_str(" - |"),
                }
            }
            s.push('\n');
        }
    }
    s
}
