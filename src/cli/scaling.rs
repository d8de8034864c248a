//! `sudoku-bench bench --threads 1,2,4,...`: the same comparison once per
//! thread count, each in its own run folder, and a scaling curve over them.

use super::bench::{self, BenchArgs};
use anyhow::{bail, Context, Result};
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;
use sudoku_bench::export::first_seen;
use sudoku_bench::report::charts::{render, Chart, Scaling};

/// One strategy on one dataset at one thread count.
#[derive(serde::Serialize)]
struct Point {
    dataset: String,
    variant: String,
    threads: usize,
    puzzles_per_sec: f64,
    /// Against the fewest threads measured.
    speedup: f64,
    /// The speed-up over the thread ratio: 1 is linear.
    efficiency: f64,
}

pub(super) fn run(args: BenchArgs) -> Result<ExitCode> {
    if args.baseline.is_some() || args.save_baseline.is_some() {
        bail!("--baseline and --save-baseline take one thread count: several (--threads {}) make one run per count",
            args.threads.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(","));
    }
    let top = super::options::out_dir(&args.out, "reports")?;
    counts(&args, &top, &mut |one, _| bench::run(one))
}

/// The folder of count `t` in a scaling run's folder `top`.
pub(super) fn count_dir(top: &Path, t: usize) -> std::path::PathBuf {
    top.join(format!("threads-{t}"))
}

/// Runs each thread count of `args` through `each` (given the count's own
/// arguments and folder), then writes the scaling curve over them into `top`.
pub(super) fn counts(
    args: &BenchArgs,
    top: &Path,
    each: &mut dyn FnMut(BenchArgs, &Path) -> Result<ExitCode>,
) -> Result<ExitCode> {
    let mut counts = args.threads.clone();
    counts.sort_unstable();
    counts.dedup();
    let mut code = ExitCode::SUCCESS;
    let mut done = Vec::new();
    for &t in &counts {
        if super::interrupt::requested() {
            code = ExitCode::from(130); // between two counts: start no other
            break;
        }
        let dir = count_dir(top, t);
        if !args.quiet {
            eprintln!("threads {t}: running into {}", dir.display());
        }
        let c = each(one_count(args, t, &dir), &dir)?;
        done.push((t, dir));
        if c != ExitCode::SUCCESS {
            code = c;
            if c == ExitCode::from(130) {
                break; // interrupted: the curve covers the counts that finished
            }
        }
    }
    let mut rows = Vec::new();
    for (t, dir) in &done {
        let data = sudoku_bench::report::load(dir)
            .with_context(|| format!("reading {}", dir.display()))?;
        rows.extend(data.summary.into_iter().map(|r| (*t, r)));
    }
    let points = scaling_points(&rows);
    write_outputs(top, &points)?;
    if !args.quiet {
        print!("{}", table(&points));
        println!(
            "Scaling: {} (one run folder per count beside it)",
            top.join("scaling.md").display()
        );
    }
    Ok(code)
}

/// The arguments of one count of a scaling run, into its own folder.
pub(super) fn one_count(args: &BenchArgs, t: usize, dir: &Path) -> BenchArgs {
    let mut one = args.clone();
    one.threads = vec![t];
    one.out = Some(dir.to_path_buf());
    one.quiet = true;
    one.no_report = true;
    one
}

fn scaling_points(rows: &[(usize, sudoku_bench::harness::SummaryRow)]) -> Vec<Point> {
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
                    threads: *t,
                    puzzles_per_sec: r.puzzles_per_sec,
                    speedup,
                    efficiency: speedup / (*t as f64 / t0 as f64),
                });
            }
        }
    }
    points
}

fn write_outputs(top: &Path, points: &[Point]) -> Result<()> {
    let csv_path = top.join("scaling.csv");
    let mut w = csv::Writer::from_path(&csv_path)
        .with_context(|| format!("cannot write {}", csv_path.display()))?;
    for p in points {
        w.serialize(p)?;
    }
    w.flush()?;
    let charts = top.join("charts");
    std::fs::create_dir_all(&charts)?;
    let mut md = String::from("# Scaling with threads\n\n");
    md.push_str(&table(points));
    md.push('\n');
    let variants = first_seen(points.iter().map(|p| p.variant.as_str()));
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
                (v.to_string(), i, pts)
            })
            .filter(|s| !s.2.is_empty())
            .collect();
        let chart = Scaling {
            dataset: d.to_string(),
            series,
        };
        let r = render(&chart, &charts)
            .map_err(|e| anyhow::anyhow!("drawing {}: {e}", chart.name()))?;
        let _ = writeln!(
            md,
            "![{}](charts/{}.svg)\n\n{}\n",
            r.title, r.name, r.caption
        );
    }
    std::fs::write(top.join("scaling.md"), md)?;
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
