//! `sudoku-bench history`: many saved runs and baselines over time.

use super::options::{fraction, out_dir};
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use sudoku_bench::compare::baseline;
use sudoku_bench::history::{self, write, Order};

#[derive(clap::Args)]
pub(super) struct HistoryArgs {
    /// Run folders, baseline names (in reports/baselines/), or folders of runs
    /// (like reports/baselines): at least two runs in all.
    #[arg(required = true, value_name = "RUN_OR_BASELINE")]
    runs: Vec<String>,
    /// The runs' order: `time` (each run's start), `label` (`--label`, numbers as
    /// numbers: v2 before v10), or `given` (as on the command line).
    #[arg(long, default_value = "time", value_parser = clap::builder::PossibleValuesParser::new(["time", "label", "given"]))]
    order: String,
    /// Changes smaller than this count as noise, like `3%` (default: 3% for times, 1%
    /// for instructions, as `compare`).
    #[arg(long, value_parser = fraction)]
    noise_threshold: Option<f64>,
    /// Where history.md, history.html, history.csv and charts/ go (default: a new
    /// folder reports/history-<UTC time>).
    #[arg(long)]
    out: Option<PathBuf>,
    /// How many moves the terminal lists at least: every step that changed
    /// failures and every regression always, then the largest improvements.
    #[arg(long, default_value_t = 5)]
    top: usize,
}

pub(super) fn run(args: HistoryArgs) -> Result<ExitCode> {
    let order = Order::WORDS
        .iter()
        .find(|(w, _)| *w == args.order)
        .map_or(Order::Time, |(_, o)| *o);
    let h = history::history(
        &args.runs,
        Path::new(baseline::ROOT),
        order,
        args.noise_threshold,
    )?;
    let out = out_dir(&args.out, "history")?;
    let charts = write::write(&h, &out)?;
    for n in &h.notes {
        eprintln!("note: {n}");
    }
    let mut lines = write::summary_lines(&h, args.top);
    lines.push(format!(
        "{} chart{}; history in {} and {}",
        charts.len(),
        if charts.len() == 1 { "" } else { "s" },
        out.join(write::HISTORY_MD).display(),
        out.join(write::HISTORY_HTML).display()
    ));
    // A reader that stops early (`| head`) ends the listing, not the command.
    for l in lines {
        if !super::progress::write_out(&format!("{l}\n")) {
            break;
        }
    }
    Ok(ExitCode::SUCCESS)
}
