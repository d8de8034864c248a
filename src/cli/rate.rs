//! `sudoku-bench rate`: difficulty ratings as CSV.

use super::options::*;
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_bench::format;

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
    use rayon::prelude::*;
    use sudoku_bench::rate::{rate, Band};
    let opts = args.input_args.read_options()?;
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let path = sudoku_bench::datasets::path_or_public(&path, &mut |m| eprintln!("{m}"))?;
    let datasets = format::read_path_or_folder(&path, &opts)?;
    let pool = build_pool(args.threads)?;
    let mut out = csv::Writer::from_writer(std::io::stdout().lock());
    out.write_record(["puzzle", "solution", "guesses", "nodes", "singles", "band"])?;
    for ds in &datasets {
        let ratings: Vec<_> = pool.install(|| {
            ds.puzzles
                .par_iter()
                .map(|p| rate(&p.grid, args.permutations))
                .collect()
        });
        for (p, r) in ds.puzzles.iter().zip(ratings) {
            out.write_record([
                format::write_line(&p.grid, &ds.alphabet),
                p.expected
                    .as_ref()
                    .map(|e| format::write_line(e, &ds.alphabet))
                    .unwrap_or_default(),
                format!("{:.3}", r.guesses),
                format!("{:.1}", r.nodes),
                r.singles.to_string(),
                Band::of(&r).to_string(),
            ])?;
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
