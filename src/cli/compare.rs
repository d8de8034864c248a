//! `sudoku-bench compare`: a run or baseline against another, with verdicts.

use super::options::fraction;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use sudoku_bench::compare::{self, baseline};
use sudoku_bench::harness::files;

#[derive(clap::Args)]
pub(super) struct CompareArgs {
    /// The reference: a run folder, or the name of a baseline in reports/baselines/.
    baseline: String,
    /// The run measured against it: a run folder or a baseline name.
    current: String,
    /// Changes smaller than this count as noise, like `3%` or `0.03` (default: 3% for
    /// times, 1% for instructions, which are the same on every run of a build).
    #[arg(long, value_parser = fraction)]
    noise_threshold: Option<f64>,
    /// Where to write compare.md, compare.csv, compare.json and charts/
    /// (default: CURRENT/compare).
    #[arg(long)]
    out: Option<PathBuf>,
    /// No table on the terminal.
    #[arg(long)]
    quiet: bool,
}

pub(super) fn run(args: CompareArgs) -> Result<ExitCode> {
    let root = Path::new(baseline::ROOT);
    let base_dir = baseline::resolve(&args.baseline, root)?;
    let cur_dir = baseline::resolve(&args.current, root)?;
    let out = args.out.unwrap_or_else(|| cur_dir.join(files::COMPARE));
    // A run still being written reads as half a run.
    for dir in [&base_dir, &cur_dir] {
        sudoku_bench::lock::FolderLock::refuse_if_written(dir)?;
    }
    let c = compare::compare(
        compare::load_side(&base_dir, &args.baseline)?,
        compare::load_side(&cur_dir, &args.current)?,
        args.noise_threshold,
    )?;
    compare::write::write(&c, &out)
        .with_context(|| format!("writing the comparison to {}", out.display()))?;
    let regressed = compare::write::tell(&c, &out, args.quiet, &mut super::progress::Terminal);
    Ok(ExitCode::from(regressed as u8))
}
