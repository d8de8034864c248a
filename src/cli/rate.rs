//! `sudoku-bench rate`: difficulty ratings as CSV.

use super::options::*;
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(super) struct RateArgs {
    /// Puzzle file or folder, or a public list's name (see `sudoku-bench datasets`);
    /// `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// Symmetry permutations per puzzle (the first is the puzzle as given).
    #[arg(long, default_value_t = sudoku_bench::rate::DEFAULT_PERMUTATIONS)]
    permutations: u32,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = positive::<usize>)]
    threads: Option<usize>,
    #[command(flatten)]
    input_args: InputArgs,
}

pub(super) fn run(args: RateArgs) -> Result<ExitCode> {
    let opts = args.input_args.read_options()?;
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let path = sudoku_bench::datasets::path_or_public(&path, &mut |m| eprintln!("{m}"))?;
    let datasets = sudoku_bench::format::read_path_or_folder(&path, &opts)?;
    let pool = build_pool(args.threads)?;
    let out = &mut std::io::stdout().lock();
    sudoku_bench::rate::write_csv(&datasets, args.permutations, &pool, out)?;
    Ok(ExitCode::SUCCESS)
}
