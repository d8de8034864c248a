//! `sudoku-bench report`: charts and the report of a saved run folder, or one
//! report across machines from runs made on several.

use super::options::*;
use super::progress::Terminal;
use anyhow::{bail, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_bench::report;

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
        let options = args.choices.options()?;
        report::session::one(dir, &options, &args.export, &mut Terminal)?;
        return Ok(ExitCode::SUCCESS);
    }
    if !args.export.is_empty() {
        bail!("--export writes one run's figures: give one run folder");
    }
    let out = out_dir(&args.out, "run")?;
    let paper = args.choices.options()?.figures == sudoku_bench::harness::plan::Figures::Paper;
    report::session::machines(&args.run_dirs, &out, paper, &mut Terminal)?;
    Ok(ExitCode::SUCCESS)
}
