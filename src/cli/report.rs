//! `sudoku-bench report`: charts and the report of a saved run folder, or one
//! report across machines from runs made on several.

use super::options::*;
use anyhow::{bail, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_bench::harness::files;

#[derive(clap::Args)]
pub(super) struct ReportArgs {
    /// A run folder written by `bench` (holding results.csv, summary.csv, run.json);
    /// with several, one report across the machines they were made on.
    #[arg(required = true, value_name = "RUN_DIR")]
    run_dirs: Vec<PathBuf>,
    /// Where the report across machines goes (default: a new folder under `reports/`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the run's summary for a benchmark-history service, `FORMAT=FILE`
    /// (repeatable): `bmf` (bencher's Metric Format) or `github-action-benchmark`.
    #[arg(long, value_name = "FORMAT=FILE")]
    export: Vec<sudoku_bench::harness::plan::ExportTo>,
    #[command(flatten)]
    choices: ReportChoices,
}

pub(super) fn run(args: ReportArgs) -> Result<ExitCode> {
    if let [dir] = args.run_dirs.as_slice() {
        if args.out.is_some() {
            bail!("--out is for a report across machines (several run folders): one run's report goes into its folder");
        }
        let r = sudoku_bench::report::write(dir, &args.choices.options()?)?;
        r.tell(dir, &mut super::progress::Terminal);
        if !args.export.is_empty() {
            export(dir, &args.export)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if !args.export.is_empty() {
        bail!("--export writes one run's figures: give one run folder");
    }
    let out = out_dir(&args.out, "reports", "run")?;
    let r = sudoku_bench::report::machines::write(&args.run_dirs, &out)?;
    for l in &r.sentences {
        println!("{l}");
    }
    if !r.left_out.is_empty() {
        eprintln!(
            "note: left out (not in every run, or one contender only): {}",
            r.left_out.join(", ")
        );
    }
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    println!(
        "{}, {}, {}; report in {} and {}",
        count(r.machines.len(), "run"),
        count(r.datasets.len(), "dataset"),
        count(r.charts.len(), "chart"),
        out.join(files::REPORT_MD).display(),
        out.join(files::REPORT_HTML).display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes the run in `dir` in each format of `exports`.
fn export(dir: &std::path::Path, exports: &[sudoku_bench::harness::plan::ExportTo]) -> Result<()> {
    let data = sudoku_bench::report::load(dir)?;
    let Some(info) = data.info else {
        bail!(
            "{}: {} is missing, so the run's measure and machine are unknown: nothing to export",
            dir.display(),
            sudoku_bench::harness::files::RUN_JSON
        );
    };
    let run = sudoku_bench::export::RunReport {
        info,
        summary: data.summary,
    };
    for n in sudoku_bench::export::track::write(exports, &run)? {
        eprintln!("note: {n}");
    }
    for e in exports {
        println!("{} export in {}", e.format.word(), e.path.display());
    }
    Ok(())
}
