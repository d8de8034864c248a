//! `sudoku-bench rate`: each puzzle's verdict, and difficulty ratings of the
//! ones with one solution, as CSV.

use super::options::*;
use anyhow::{bail, Result};
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_bench::solver::SolverId;

#[derive(clap::Args)]
pub(super) struct RateArgs {
    /// Puzzle file or folder, or an embedded or public list's name (see
    /// `sudoku-bench datasets`); `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// The strategy whose mean guesses and nodes rate a puzzle (one that counts
    /// them; see `sudoku-bench solvers`). The levels were drawn for bitset-mrv:
    /// a strategy that propagates more guesses less, so its levels read easier.
    #[arg(long, default_value_t = sudoku_bench::rate::REFERENCE)]
    solver: SolverId,
    /// Symmetry permutations per puzzle (the first is the puzzle as given).
    #[arg(long, default_value_t = sudoku_bench::rate::DEFAULT_PERMUTATIONS)]
    permutations: u32,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = positive::<usize>)]
    threads: Option<usize>,
    /// Print nothing on standard error (the CSV still goes to standard output).
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    input_args: InputArgs,
}

pub(super) fn run(args: RateArgs) -> Result<ExitCode> {
    if !args.solver.counts_search() {
        bail!(
            "--solver {}: it counts no guesses, so it cannot rate; pick one that does (see `sudoku-bench solvers`)",
            args.solver
        );
    }
    let opts = args.input_args.read_options()?;
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let embedded = path
        .to_str()
        .filter(|_| !path.exists())
        .and_then(sudoku_bench::datasets::embedded);
    let datasets = match embedded {
        Some(e) => vec![sudoku_bench::format::read_str(e.name, e.text, &opts)?],
        None => {
            let path = sudoku_bench::datasets::path_or_public(&path, &mut |m| eprintln!("{m}"))?;
            sudoku_bench::format::read_path_or_folder(&path, &opts)?
        }
    };
    for ds in &datasets {
        if !args.solver.supports(ds.geometry) {
            bail!(
                "{}: {} puzzles, which --solver {} does not handle (it handles {})",
                ds.source,
                ds.geometry.name(),
                args.solver,
                args.solver
                    .sizes()
                    .iter()
                    .map(|n| format!("{n}x{n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let pool = build_pool(args.threads)?;
    let out = &mut std::io::stdout().lock();
    let tally =
        sudoku_bench::rate::write_csv(&datasets, args.solver, args.permutations, &pool, out)?;
    if !args.quiet {
        let left = tally.left_out();
        eprintln!(
            "rated {} of {} puzzles by {}'s mean guesses over {} permutation{}{}",
            tally.rated,
            tally.puzzles(),
            args.solver,
            args.permutations.max(1),
            if args.permutations.max(1) == 1 {
                ""
            } else {
                "s"
            },
            if left.is_empty() {
                String::new()
            } else {
                format!("; left out (only a puzzle with one solution has a rating): {left}")
            }
        );
    }
    Ok(ExitCode::SUCCESS)
}
