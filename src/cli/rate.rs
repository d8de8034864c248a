//! `sudoku-bench rate`: each puzzle's verdict, and difficulty ratings of the
//! ones with one solution, as CSV.

use super::options::*;
use anyhow::Result;
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
    #[arg(long, default_value_t = sudoku_bench::rate::DEFAULT_PERMUTATIONS, value_parser = positive::<u32>)]
    permutations: u32,
    /// Worker threads (default: all cores; at most 4 a core, never fewer than 16 allowed).
    #[arg(long, value_parser = threads)]
    threads: Option<usize>,
    /// Print nothing on standard error (the CSV still goes to standard output).
    #[arg(long, short)]
    quiet: bool,
    #[command(flatten)]
    input_args: InputArgs,
}

pub(super) fn run(args: RateArgs) -> Result<ExitCode> {
    let request = sudoku_bench::rate::Request {
        input: args.input.unwrap_or_else(|| PathBuf::from("-")),
        read: args.input_args.read_options()?,
        solver: args.solver,
        permutations: args.permutations,
    };
    let pool = build_pool(args.threads)?;
    let out = &mut std::io::stdout().lock();
    let said = sudoku_bench::rate::run(&request, &pool, out, &mut |m| eprintln!("{m}"))?;
    if !args.quiet {
        eprintln!("{said}");
    }
    Ok(ExitCode::SUCCESS)
}
