//! `sudoku-bench solvers`: the registry, one line per variant.

use anyhow::Result;
use std::process::ExitCode;

pub(super) fn run() -> Result<ExitCode> {
    let listing = sudoku_bench::solver::SolverId::listing();
    sudoku_bench::export::terminal::Console::out(&mut super::progress::Terminal, &listing);
    Ok(ExitCode::SUCCESS)
}
