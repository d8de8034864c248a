//! `sudoku-bench datasets`: the embedded sets and the public lists by name.

use anyhow::Result;
use std::process::ExitCode;
use sudoku_bench::datasets::public;

#[derive(clap::Args)]
pub(super) struct DatasetsArgs {
    /// Download every public list not yet cached (then list them all).
    #[arg(long)]
    fetch: bool,
}

pub(super) fn run(args: DatasetsArgs) -> Result<ExitCode> {
    if args.fetch {
        for p in public::PUBLIC {
            p.ensure(&mut |m| eprintln!("{m}"))?;
        }
    }
    let listing = sudoku_bench::datasets::listing::listing()?;
    sudoku_bench::export::terminal::Console::out(&mut super::progress::Terminal, &listing);
    Ok(ExitCode::SUCCESS)
}
