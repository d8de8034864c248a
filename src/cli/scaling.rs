//! `sudoku-bench bench --threads 1,2,4,...`: the same comparison once per
//! thread count, each in its own run folder, and a scaling curve over them.

use super::bench;
use anyhow::{bail, Result};
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
    if options.after.baseline.is_some() || options.after.save_baseline.is_some() {
        let counts: Vec<String> = options.scaling.iter().map(|t| t.to_string()).collect();
        bail!("--baseline and --save-baseline take one thread count: several (--threads {}) make one run per count",
            counts.join(","));
    }
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
    each: &mut dyn FnMut(RunOptions, &Path) -> Result<ExitCode>,
) -> Result<ExitCode> {
    let mut counts = options.scaling.clone();
    counts.sort_unstable();
    counts.dedup();
    let mut code = ExitCode::SUCCESS;
    let mut done = Vec::new();
    for &t in &counts {
        if super::interrupt::requested() {
            code = ExitCode::from(130); // between two counts: start no other
            break;
        }
        let dir = scaling::count_dir(top, t);
        if !quiet {
            eprintln!("threads {t}: running into {}", dir.display());
        }
        let c = each(one_count(options, t), &dir)?;
        done.push((t, dir));
        if c != ExitCode::SUCCESS {
            code = c;
            if c == ExitCode::from(130) {
                break; // interrupted: the curve covers the counts that finished
            }
        }
    }
    let table = scaling::write(top, &done)?;
    if !quiet {
        print!("{table}");
        println!(
            "Scaling: {} (one run folder per count beside it)",
            top.join("scaling.md").display()
        );
    }
    Ok(code)
}

/// The options of one count of a scaling run: no report of its own.
fn one_count(options: &RunOptions, t: usize) -> RunOptions {
    let mut one = options.clone();
    one.threads = t;
    one.after.report = false;
    one
}
