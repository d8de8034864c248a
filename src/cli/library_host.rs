//! `sudoku-bench library-host` (hidden): the helper process a library
//! contender runs in, one per worker. It loads the library, says `ready` (or
//! why not), and answers the line protocol on its pipes, timing each call.

use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;
use sudoku_bench::external::host::serve;
use sudoku_bench::external::library::{Abi, Library};

#[derive(clap::Args)]
pub(super) struct LibraryHostArgs {
    /// The shared library.
    #[arg(long)]
    library: PathBuf,
    /// Its solve function.
    #[arg(long)]
    symbol: String,
    // The function's shape: its words, from the ABI table.
    #[arg(long, help = format!("The function's shape: {}", Abi::listed()))]
    abi: Abi,
    /// The contender returns no solutions (`solutions = false`): none is fetched.
    #[arg(long)]
    verdicts_only: bool,
    /// Count each call: the host runs under callgrind with this out file.
    #[arg(long)]
    callgrind_out: Option<PathBuf>,
    /// Read these CPU counters around each call (`cycles,instructions`).
    #[arg(long)]
    perf: Option<sudoku_bench::perf::Events>,
}

pub(super) fn run(args: LibraryHostArgs) -> Result<ExitCode> {
    args.callgrind_out.map(sudoku_bench::callgrind::start);
    let perf = args.perf.map_or(Ok(()), sudoku_bench::perf::start);
    let opened = perf
        .map_err(Into::into)
        .and_then(|()| Library::open(&args.library, &args.symbol, args.abi))
        .map(|lib| lib.fetching_solutions(!args.verdicts_only));
    let failed = opened.is_err();
    serve(opened, std::io::stdin().lock(), std::io::stdout().lock())?;
    Ok(ExitCode::from(if failed { 2 } else { 0 }))
}
