//! Command-line interface: clap structs turned into the library's plain options,
//! one file per command; option groups shared by several commands live in `options`.

mod bench;
mod compare;
mod contender;
mod datasets;
mod generate;
mod history;
mod hunt;
mod interrupt;
mod library_host;
mod options;
mod progress;
mod rate;
mod report;
mod solve;
mod solvers;
mod study;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "sudoku-bench",
    version,
    about = "A workbench for comparing Sudoku-solving algorithms"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve puzzles and print one line per puzzle: status, a tab, the first solution.
    Solve(solve::SolveArgs),
    /// List the strategies and their variants.
    Solvers,
    /// List the embedded datasets and the public lists that can be named (and whether each is cached).
    Datasets(datasets::DatasetsArgs),
    /// Generate puzzles with a unique solution, reproducibly from a seed.
    Generate(generate::GenerateArgs),
    /// Run strategies over datasets in parallel, check every answer, write CSV and a summary.
    Bench(Box<bench::BenchArgs>),
    /// Rate puzzles: mean guesses and nodes over symmetry permutations, singles, band (CSV out).
    Rate(rate::RateArgs),
    /// Compare a run or baseline with another: change in time with its 95% interval,
    /// change in search size, a verdict per strategy and dataset (exit 1 on a regression).
    Compare(compare::CompareArgs),
    /// Many saved runs and baselines over time: a timeline per contender and dataset,
    /// kept apart per machine, each regression and improvement marked where it came in.
    History(history::HistoryArgs),
    /// Check an outside program against the line protocol before racing it.
    Contender(contender::ContenderArgs),
    /// How cost grows: sweep clue counts, grid sizes or threads, with peaks and fitted growth.
    Study(study::StudyArgs),
    /// Search for the puzzles on which a contender needs the most guesses, nodes or
    /// time, or the most relative to another: the puzzles that separate them.
    Hunt(hunt::HuntArgs),
    /// Draw charts and write report.md and a self-contained report.html from a saved run folder.
    Report(report::ReportArgs),
    /// The helper process of a library contender (started by `bench`, not by hand).
    #[command(name = "library-host", hide = true)]
    LibraryHost(library_host::LibraryHostArgs),
    /// Answers every line at once: the program `bench` times the pipe's floor with.
    #[command(name = "pipe-echo", hide = true)]
    PipeEcho,
}

/// Runs the command line; the error's chain is printed by `main`.
pub fn run() -> Result<ExitCode> {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if !matches!(cli.command, Command::LibraryHost(_) | Command::PipeEcho) {
        interrupt::listen();
    }
    if matches!(
        cli.command,
        Command::Bench(_) | Command::Study(_) | Command::Hunt(_) | Command::Contender(_)
    ) {
        // A killed run's programs in sessions of their own escaped the
        // kernel's parent-death signal: they would take a core from this run.
        let n = sudoku_bench::hygiene::end_strays();
        if n > 0 {
            let what = if n == 1 { "process" } else { "processes" };
            eprintln!("note: ended {n} {what} left running by a killed run of sudoku-bench");
        }
        sudoku_bench::hygiene::remove_stale_folders();
    }
    let code = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Solvers => solvers::run(),
        Command::Datasets(args) => datasets::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Bench(args) => bench::run(*args, subcommand(&matches)),
        Command::Rate(args) => rate::run(args),
        Command::Report(args) => report::run(args),
        Command::Compare(args) => compare::run(args),
        Command::History(args) => history::run(args),
        Command::Contender(args) => contender::run(args),
        Command::Study(args) => study::run(args, subcommand(&matches)),
        Command::Hunt(args) => hunt::run(args),
        Command::LibraryHost(args) => library_host::run(args),
        Command::PipeEcho => {
            sudoku_bench::external::floor::echo(std::io::stdin().lock(), std::io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
    }?;
    // What the command said is part of its work: unwritten, it failed.
    if let Some(why) = progress::out_failed() {
        anyhow::bail!("cannot write to standard output: {why}");
    }
    Ok(code)
}

/// The matches of the subcommand given.
fn subcommand(matches: &clap::ArgMatches) -> &clap::ArgMatches {
    matches.subcommand().map_or(matches, |(_, m)| m)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use sudoku_bench::external::library::Abi;

    #[test]
    fn every_help_that_names_abis_lists_the_table() {
        let cli = super::Cli::command();
        for (path, arg) in [
            (&["bench"][..], "library"),
            (&["hunt"][..], "library"),
            (&["contender", "check"][..], "library"),
            (&["library-host"][..], "abi"),
        ] {
            let cmd = path.iter().fold(&cli, |c, name| {
                c.find_subcommand(name).expect("a subcommand")
            });
            let arg = cmd
                .get_arguments()
                .find(|a| a.get_id() == arg)
                .expect("the argument");
            let help = arg.get_help().expect("a help line").to_string();
            for word in Abi::WORDS {
                assert!(help.contains(word), "{path:?} --{}: {help}", arg.get_id());
            }
        }
    }
}
