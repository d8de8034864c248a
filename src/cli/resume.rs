//! `sudoku-bench bench --resume DIR`: a run that was killed or interrupted,
//! finished. The options are the run's own (its recorded command line, read
//! back from `run.json`); only what `results.csv` lacks is measured.

use super::bench::{self, BenchArgs};
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use sudoku_bench::harness::{self, recover, BenchDataset, Contender, RunInfo};

/// Words `bench --resume` takes beside its folder.
const ALLOWED: &[&str] = &["--resume", "--force", "--quiet", "--no-report"];

pub(super) fn run(dir: &Path, given: &BenchArgs) -> Result<ExitCode> {
    refuse_other_options()?;
    if !dir.join(harness::RUN_JSON).is_file() {
        if let Some(first) = scaling_counts(dir) {
            return run_scaling(dir, &first, given);
        }
    }
    run_one(dir, given)
}

/// A scaling run's folder (a `threads-N` folder per count, no run.json of
/// its own): the run.json of its first count.
fn scaling_counts(dir: &Path) -> Option<std::path::PathBuf> {
    let mut found: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("threads-"))
                && p.join(harness::RUN_JSON).is_file()
        })
        .collect();
    found.sort();
    found.into_iter().next()
}

/// Resumes a scaling run: each count that is complete is kept, one that was
/// cut short is resumed, one never begun is run; then the curve is written.
fn run_scaling(top: &Path, first: &Path, given: &BenchArgs) -> Result<ExitCode> {
    let info = recover::read_info(first)?;
    let mut args = parse_recorded(&info)?;
    args.quiet |= given.quiet;
    super::scaling::counts(&args, top, &mut |one, dir| match recover::read_info(dir) {
        Ok(i) if recover::is_complete(&i) => {
            eprintln!("{}: complete, kept", dir.display());
            Ok(ExitCode::SUCCESS)
        }
        Ok(_) => run_one(dir, given),
        Err(_) => bench::run(one),
    })
}

fn run_one(dir: &Path, given: &BenchArgs) -> Result<ExitCode> {
    let started = Instant::now();
    let info = recover::read_info(dir)?;
    if recover::is_complete(&info) {
        println!(
            "{}: the run is complete (finished {}): nothing to resume",
            dir.display(),
            info.finished
        );
        return Ok(ExitCode::SUCCESS);
    }
    let mut args = recorded_args(&info, dir)?;
    args.quiet |= given.quiet;
    args.no_report |= given.no_report;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let plan = bench::plan(&args, cores).with_context(|| {
        format!(
            "planning the run again from {}",
            dir.join("run.json").display()
        )
    })?;
    let differences = differences(&info, &plan);
    if !differences.is_empty() {
        let list = differences.join("\n  ");
        if !given.force {
            bail!(
                "{} was made with another build, datasets or contenders; not resumed (--force resumes anyway):\n  {list}",
                dir.display()
            );
        }
        eprintln!("note: resuming despite:\n  {list}");
    }
    for n in &plan.notes {
        eprintln!("note: {n}");
    }
    let measured = bench::measure(&args, plan, dir, Some(&info))?;
    bench::present(&args, measured, dir, started)
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

/// The run's own arguments, parsed from the command line its run.json
/// records; of one count of a scaling run, that count's.
fn recorded_args(info: &RunInfo, dir: &Path) -> Result<BenchArgs> {
    let args = parse_recorded(info)?;
    Ok(match args.threads.len() {
        0 | 1 => args,
        _ => super::scaling::one_count(&args, info.options.threads, dir),
    })
}

/// The recorded command line, parsed as `bench` arguments.
fn parse_recorded(info: &RunInfo) -> Result<BenchArgs> {
    use clap::Parser;
    let cli = super::Cli::try_parse_from(&info.command).map_err(|e| {
        anyhow::anyhow!(
            "the recorded command {:?} no longer parses: {}",
            info.command.join(" "),
            e.kind()
        )
    })?;
    let super::Command::Bench(args) = cli.command else {
        bail!(
            "the recorded command {:?} is not a bench run",
            info.command.join(" ")
        );
    };
    Ok(*args)
}

/// What differs between the run's record and the same plan now: the build,
/// the datasets' content, the contenders.
fn differences(info: &RunInfo, plan: &bench::Plan) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(why) = info.other_build() {
        out.push(format!("build: the run was {why}"));
    }
    let then: Vec<_> = info
        .datasets
        .iter()
        .map(|d| (&d.name, &d.sha256, d.puzzles_run))
        .collect();
    let here: Vec<_> = plan
        .datasets
        .iter()
        .map(|d| (&d.info.name, &d.info.sha256, d.info.puzzles_run))
        .collect();
    if then != here {
        for d in &plan.datasets {
            match info.datasets.iter().find(|t| t.name == d.info.name) {
                None => out.push(format!("dataset {}: not in the run", d.info.name)),
                Some(t) if t.sha256 != d.info.sha256 => out.push(format!(
                    "dataset {}: its file changed (SHA-256 {} then, {} now)",
                    d.info.name,
                    &t.sha256[..t.sha256.len().min(12)],
                    &d.info.sha256[..d.info.sha256.len().min(12)]
                )),
                Some(t) if t.puzzles_run != d.info.puzzles_run => out.push(format!(
                    "dataset {}: {} puzzles then, {} now",
                    d.info.name, t.puzzles_run, d.info.puzzles_run
                )),
                _ => {}
            }
        }
        for t in &info.datasets {
            if !plan.datasets.iter().any(|d| d.info.name == t.name) {
                out.push(format!("dataset {}: not found now", t.name));
            }
        }
    }
    let options = &plan.options;
    if options.solvers != info.options.solvers {
        out.push(format!(
            "strategies: {} then, {} now",
            info.options.solvers.join(","),
            options.solvers.join(",")
        ));
    }
    if options.contenders != info.options.contenders {
        out.push(format!(
            "outside contenders: [{}] then, [{}] now",
            info.options.contenders.join("; "),
            options.contenders.join("; ")
        ));
    }
    out
}

/// Reads what the run in `dir` measured and leaves those puzzles out of
/// `datasets`: a puzzle counts as measured when every contender that runs on
/// its dataset has its row. Rows of puzzles measured only in part (the
/// window in flight when the run was killed) and a torn last line are
/// dropped from `results.csv`, so that the resumed run measures those
/// puzzles whole.
pub(super) fn leave_out_measured(
    dir: &Path,
    info: &RunInfo,
    contenders: &[Contender],
    datasets: Vec<BenchDataset>,
) -> Result<Vec<BenchDataset>> {
    let cover = recover::Coverage::read(dir, info)?;
    if let Some(t) = &cover.torn {
        eprintln!("note: {t}");
    }
    let mut done = Vec::new();
    for ds in &datasets {
        let here: Vec<String> = contenders
            .iter()
            .filter(|c| ds.admits(c))
            .map(|c| c.variant.clone())
            .collect();
        done.push((ds.name.clone(), cover.done(&ds.name, &here)));
    }
    let keep = |name: &str, index: u64| {
        done.iter()
            .find(|(d, _)| d == name)
            .is_some_and(|(_, bits)| bits.get(index))
    };
    let dropped = recover::keep_whole_puzzles(dir, &keep)?;
    let kept: u64 = done.iter().map(|(_, b)| b.count()).sum();
    let total: u64 = datasets.iter().map(|d| d.info.puzzles_run).sum();
    eprintln!(
        "resuming {}: {} of {} puzzles measured already{}",
        dir.display(),
        sudoku_bench::stats::thousands(kept),
        sudoku_bench::stats::thousands(total),
        if dropped > 0 {
            format!(" ({dropped} rows of puzzles measured in part dropped, to be measured whole)")
        } else {
            String::new()
        }
    );
    Ok(datasets
        .into_iter()
        .zip(done)
        .map(|(ds, (_, bits))| ds.without(bits))
        .collect())
}
