//! `sudoku-bench solvers`: the registry, one line per variant.

use anyhow::Result;
use std::process::ExitCode;

pub(super) fn run() -> Result<ExitCode> {
    print!("{}", sudoku_bench::solver::SolverId::listing());
    Ok(ExitCode::SUCCESS)
}
