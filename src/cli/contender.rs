//! `sudoku-bench contender check`, and the `--contender` / `--contenders` options of `bench`.

use anyhow::Result;
use std::process::ExitCode;
use std::time::Duration;
use sudoku_bench::check;
use sudoku_bench::external::library::Abi;

#[derive(clap::Args)]
pub(super) struct ContenderArgs {
    #[command(subcommand)]
    command: ContenderCommand,
}

#[derive(clap::Subcommand)]
enum ContenderCommand {
    /// Run the line protocol against a few known puzzles of each size the program
    /// claims (one with a solution, several, none) and say what is wrong with its
    /// answers or framing. Example: `sudoku-bench contender check -- python3 solver.py`.
    Check(CheckArgs),
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Grid sides the program handles, comma-separated (any of 4, 9, 16, 25, 36, 49, 64;
    /// default 4, 9, 16, 25 for a program, the library's own for a library).
    #[arg(long, value_delimiter = ',')]
    sizes: Vec<usize>,
    // Check a shared library instead of a program (help: the ABIs from their table).
    #[arg(long, value_name = "PATH:SYMBOL:ABI", conflicts_with = "command", help = library_help())]
    library: Option<String>,
    /// The program takes pencilmark lines (`pencilmark = true` in a contenders
    /// file): it is started with SUDOKU_BENCH_PENCILMARK=1 and sent each size's
    /// puzzles in pencilmark form as well (sizes to 25x25).
    #[arg(long)]
    pencilmark: bool,
    /// It returns verdicts (and counts) without solutions (`solutions = false`
    /// in a contenders file): its answers are checked by verdict alone.
    #[arg(long)]
    no_solutions: bool,
    /// How long to wait for each answer, like `10s`.
    #[arg(long, default_value = "10s", value_parser = super::options::duration)]
    timeout: Duration,
    /// The program and its arguments (after `--`).
    #[arg(
        required_unless_present = "library",
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    command: Vec<String>,
}

pub(super) fn run(args: ContenderArgs) -> Result<ExitCode> {
    let ContenderCommand::Check(a) = args.command;
    let (text, code) = check::run(&check::Request {
        library: a.library,
        command: a.command,
        sizes: a.sizes,
        pencilmark: a.pencilmark,
        no_solutions: a.no_solutions,
        timeout: a.timeout,
    })?;
    sudoku_bench::export::terminal::Console::out(&mut super::progress::Terminal, &text);
    Ok(ExitCode::from(code))
}

/// `--library`'s help, its ABIs from their table.
fn library_help() -> String {
    format!(
        "Check a shared library instead of a program: `PATH:SYMBOL:ABI` (ABI {}), as \
         `bench --library NAME=PATH:SYMBOL:ABI` takes it",
        Abi::listed()
    )
}
