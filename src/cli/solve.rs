//! `sudoku-bench solve`: one line per puzzle, status and first solution.

use super::options::*;
use anyhow::Result;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use sudoku_bench::batch::{self, BatchOptions, Notation};
use sudoku_bench::solver::SolverId;

#[derive(clap::Args)]
pub(super) struct SolveArgs {
    /// Puzzle file or folder, or a public list's name (see `sudoku-bench datasets`);
    /// `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// Strategy or variant (see `sudoku-bench solvers`). Default on 9x9: `band` or `box`, whichever
    /// is faster here, timed on the input's first puzzles (up to 64, or as many as 2 ms of CPU
    /// takes; each engine twice, in turns; a `note:` line says which and the times); `band` with
    /// `--node-budget`, `--time-limit` or fewer than 4 puzzles. Other sizes: `cdcl-hybrid`.
    #[arg(long)]
    solver: Option<SolverId>,
    /// What to look for.
    #[arg(long, value_enum, default_value = "unique")]
    mode: ModeArg,
    /// With `--mode count`: stop counting here.
    #[arg(long, default_value_t = sudoku_bench::solver::DEFAULT_COUNT_LIMIT, value_parser = positive::<u64>)]
    count_limit: u64,
    /// Solving threads (default: all cores; at most 4 a core, never fewer than 16 allowed); a file
    /// is parsed on a thread beside them.
    #[arg(long, value_parser = threads)]
    threads: Option<usize>,
    /// Per-puzzle node budget.
    #[arg(long)]
    node_budget: Option<u64>,
    /// Per-puzzle time limit, like `500ms`, `2s` or `1m`.
    #[arg(long, value_parser = time_limit)]
    time_limit: Option<Duration>,
    /// Print the decisions of the search for the first puzzle (to stderr after the result line).
    #[arg(long)]
    trace: bool,
    /// Print solutions as blocks instead of lines (the same as `--output block`).
    #[arg(long)]
    pretty: bool,
    /// How solutions are written: `line` in one-character symbols, `numbers` (cells as
    /// numbers separated by spaces) or `block`. Default: a line in the notation the
    /// puzzle came in (numbers in, numbers out; letters in, the same letters out).
    #[arg(long, value_enum)]
    output: Option<OutputArg>,
    #[command(flatten)]
    input_args: InputArgs,
}

/// The notations `--output` names.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum OutputArg {
    /// One line of one-character symbols (numbers past 36x36, which have none).
    Line,
    /// One line of numbers separated by spaces.
    Numbers,
    /// A block: a row of the grid a line, boxes ruled off.
    Block,
}

impl SolveArgs {
    /// How the batch is solved and answered.
    fn options(&self) -> BatchOptions {
        BatchOptions {
            solver: self.solver,
            mode: self.mode.mode(self.count_limit),
            node_budget: self.node_budget,
            time_limit: self.time_limit,
            trace: self.trace,
            notation: match self.output {
                Some(OutputArg::Numbers) => Notation::Numbers,
                Some(OutputArg::Line) => Notation::Line,
                _ => Notation::Given,
            },
            blocks: self.pretty || self.output == Some(OutputArg::Block),
        }
    }
}

pub(super) fn run(args: SolveArgs) -> Result<ExitCode> {
    let read = args.input_args.read_options()?;
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let pool = build_pool(args.threads)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    batch::solve_paths(
        &args.options(),
        &pool,
        &path,
        &read,
        &mut out,
        &mut std::io::stderr(),
    )?;
    Ok(ExitCode::SUCCESS)
}
