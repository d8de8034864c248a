//! `sudoku-bench bench --resume DIR`: a run that was killed or interrupted,
//! finished. The options are the run's own, read back from its `run.json`;
//! only what `results.csv` lacks is measured.

use super::bench::{self, BenchArgs};
use anyhow::{bail, Result};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use sudoku_bench::bench::{reopen, Reopened};
use sudoku_bench::callgrind::on_valgrind;
use sudoku_bench::harness::plan::Measure;
use sudoku_bench::harness::{files, recover};

/// Words `bench --resume` takes beside its folder.
const ALLOWED: &[&str] = &["--resume", "--force", "--quiet", "--no-report"];

pub(super) fn run(dir: &Path, given: &BenchArgs) -> Result<ExitCode> {
    refuse_other_options()?;
    if !dir.join(files::RUN_JSON).is_file() {
        if let Some(first) = sudoku_bench::bench::scaling_counts(dir).first() {
            return run_scaling(dir, first, given);
        }
    }
    run_one(dir, given).map(ExitCode::from)
}

/// Resumes a scaling run: each count that is complete is kept, one that was
/// cut short is resumed, one never begun is run; then the curve is written.
fn run_scaling(top: &Path, first: &Path, given: &BenchArgs) -> Result<ExitCode> {
    let options = sudoku_bench::bench::recorded(&recover::read_info(first)?, first)?;
    let quiet = given.quiet;
    super::scaling::counts(
        &options,
        top,
        quiet,
        &mut |one, dir| match recover::read_info(dir) {
            Ok(i) if recover::is_complete(&i) => {
                eprintln!("{}: complete, kept", dir.display());
                Ok(0)
            }
            Ok(_) => run_one(dir, given),
            Err(_) => {
                let started = Instant::now();
                let plan = bench::plan(one)?;
                std::fs::create_dir_all(dir)?;
                bench::one(plan, dir, None, true, started)
            }
        },
    )
}

fn run_one(dir: &Path, given: &BenchArgs) -> Result<u8> {
    let started = Instant::now();
    let say = &mut |m: &str| eprintln!("{m}");
    match reopen(dir, given.force, given.no_report, bench::cores(), say)? {
        Reopened::Complete(finished) => {
            println!(
                "{}: the run is complete (finished {finished}): nothing to resume",
                dir.display()
            );
            Ok(0)
        }
        Reopened::CutShort {
            info,
            plan,
            despite,
        } => {
            if !despite.is_empty() {
                eprintln!("note: resuming despite:\n  {}", despite.join("\n  "));
            }
            let quiet = given.quiet || !info.options.scaling.is_empty();
            if plan.options.measure == Measure::Instructions && !on_valgrind() {
                return bench::rerun_counted(given.quiet);
            }
            bench::one(*plan, dir, Some(&info), quiet, started)
        }
    }
}

/// `--resume` takes the run's options from its run.json: any other is refused.
fn refuse_other_options() -> Result<()> {
    let words: Vec<String> = std::env::args()
        .skip_while(|w| w != "bench")
        .skip(1)
        .collect();
    for w in &words {
        let name = w.split('=').next().unwrap_or_default();
        if name.starts_with("--") && !ALLOWED.contains(&name) {
            bail!(
                "{name}: bench --resume takes the run's options from its run.json; give no others (only {})",
                ALLOWED.join(", ")
            );
        }
    }
    Ok(())
}
