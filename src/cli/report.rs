//! `sudoku-bench report`: charts and the report of a saved run folder.

use super::options::*;
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(super) struct ReportArgs {
    /// A run folder written by `bench` (holding results.csv, summary.csv, run.json).
    run_dir: PathBuf,
    #[command(flatten)]
    choices: ReportChoices,
}

pub(super) fn run(args: ReportArgs) -> Result<ExitCode> {
    let r = sudoku_bench::report::write(&args.run_dir, &args.choices.options()?)?;
    print_report_result(&args.run_dir, &r);
    Ok(ExitCode::SUCCESS)
}

pub(super) fn print_report_result(dir: &std::path::Path, r: &sudoku_bench::report::Report) {
    for note in &r.skipped {
        eprintln!("note: {note}");
    }
    println!(
        "{} charts; report in {} and {}",
        r.charts.len(),
        dir.join("report.md").display(),
        dir.join("report.html").display()
    );
}
