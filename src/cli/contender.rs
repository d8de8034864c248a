//! `sudoku-bench contender check`, and the `--contender` / `--contenders` options of `bench`.

use anyhow::{Context, Result};
use std::process::ExitCode;
use std::time::Duration;
use sudoku_bench::external;
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
    let ContenderCommand::Check(args) = args.command;
    let dir = tempfile_dir()?;
    let log = dir.join("stderr.log");
    let report = match &args.library {
        Some(lib) => {
            let mut spec = external::parse_library_argument(&format!("checked={lib}"))?;
            spec.sizes.clone_from(&args.sizes);
            spec.pencilmark = args.pencilmark.then_some(true);
            spec.solutions = args.no_solutions.then_some(false);
            sudoku_bench::check::check_library(&spec, args.timeout, &log)?
        }
        None => {
            let sizes = if args.sizes.is_empty() {
                external::DEFAULT_SIZES.to_vec()
            } else {
                args.sizes.clone()
            };
            let checked = match args.no_solutions {
                true => sudoku_bench::contender::Checked::Verdict,
                false => sudoku_bench::contender::Checked::Solution,
            };
            sudoku_bench::check::check(
                &args.command,
                &sizes,
                args.pencilmark,
                checked,
                args.timeout,
                &log,
            )?
        }
    };
    let tail = external::process::stderr_tail(&log, 0);
    let _ = std::fs::remove_dir_all(&dir);
    // What `bench` would be given, named NAME, to declare the sizes found.
    let named = match &args.library {
        Some(lib) => external::parse_library_argument(&format!("NAME={lib}"))?,
        None => external::ContenderSpec::program("NAME", args.command.clone()),
    };
    let declare = |sides: &[usize]| {
        format!(
            "`bench {}`, or `{}` in its contenders-file entry",
            named.sized_flag(sides),
            external::ContenderSpec::sizes_line(sides)
        )
    };
    print!("{}", report.text(&tail, &declare));
    Ok(ExitCode::from(u8::from(report.problems() > 0)))
}

/// `--library`'s help, its ABIs from their table.
fn library_help() -> String {
    format!(
        "Check a shared library instead of a program: `PATH:SYMBOL:ABI` (ABI {}), as \
         `bench --library NAME=PATH:SYMBOL:ABI` takes it",
        Abi::listed()
    )
}

/// A fresh private folder for the checked program's stderr.
fn tempfile_dir() -> Result<std::path::PathBuf> {
    let dir = std::env::temp_dir().join(format!("sudoku-bench-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}
