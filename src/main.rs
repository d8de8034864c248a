//! The `sudoku-bench` binary: parses the command line and hands over to the library.

mod cli;

use std::process::ExitCode;

/// The system's allocator, aligning blocks while instructions are counted
/// (see `callgrind::Aligned`).
#[global_allocator]
static ALLOCATOR: sudoku_bench::callgrind::Aligned = sudoku_bench::callgrind::Aligned;

fn main() -> ExitCode {
    match cli::run() {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
