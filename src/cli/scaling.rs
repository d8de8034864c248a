//! `sudoku-bench bench --threads 1,2,4,...`: the same comparison once per
//! thread count, each in its own run folder, and a scaling curve over them.

use super::bench;
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use sudoku_bench::bench::scaling;
use sudoku_bench::harness::RunOptions;

pub(super) fn run(
    options: RunOptions,
    out: &Option<PathBuf>,
    force: bool,
    quiet: bool,
) -> Result<ExitCode> {
    scaling::check(&options)?;
    let top = super::options::out_dir(out, "reports", "run")?;
    counts(&options, &top, quiet, &mut |one, dir| {
        let started = Instant::now();
        let plan = bench::plan(one)?;
        let dir = super::options::out_dir(&Some(dir.to_path_buf()), "reports", "run")?;
        sudoku_bench::export::run_dir::replace_earlier_run(&dir, force)?;
        bench::one(plan, &dir, None, true, started)
    })
}

/// Runs each thread count of `options.scaling` through `each` (given the
/// count's own options and folder), then writes the scaling curve over
/// them into `top`.
pub(super) fn counts(
    options: &RunOptions,
    top: &Path,
    quiet: bool,
    each: &mut dyn FnMut(RunOptions, &Path) -> Result<u8>,
) -> Result<ExitCode> {
    let say = &mut |m: &str| {
        if !quiet {
            eprintln!("{m}");
        }
    };
    let interrupted = &super::interrupt::requested;
    let (code, table) = scaling::run_counts(options, top, interrupted, say, each)?;
    if !quiet {
        print!("{table}");
        println!(
            "Scaling: {} (one run folder per count beside it)",
            top.join("scaling.md").display()
        );
    }
    Ok(ExitCode::from(code))
}
