//! `sudoku-bench solve`: one line per puzzle, status and first solution.

use super::options::*;
use anyhow::Result;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use sudoku_bench::format;
use sudoku_bench::solver::{trace, Limits, Mode, Solver, SolverId, TraceLog};

#[derive(clap::Args)]
pub(super) struct SolveArgs {
    /// Puzzle file or folder; `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// Strategy or variant (see `sudoku-bench solvers`); default: the fastest for each size.
    #[arg(long, value_parser = solver_name)]
    solver: Option<SolverId>,
    /// What to look for.
    #[arg(long, value_enum, default_value = "unique")]
    mode: ModeArg,
    /// With `--mode count`: stop counting here.
    #[arg(long, default_value_t = 1_000_000, value_parser = positive::<u64>)]
    count_limit: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = positive::<usize>)]
    threads: Option<usize>,
    /// Per-puzzle node budget.
    #[arg(long)]
    node_budget: Option<u64>,
    /// Per-puzzle time limit, like `500ms`, `2s` or `1m`.
    #[arg(long, value_parser = parse_duration)]
    time_limit: Option<Duration>,
    /// Print the decisions of the search for the first puzzle (to stderr after the result line).
    #[arg(long)]
    trace: bool,
    /// Print solutions as blocks instead of lines.
    #[arg(long)]
    pretty: bool,
    #[command(flatten)]
    input_args: InputArgs,
}

pub(super) fn run(args: SolveArgs) -> Result<ExitCode> {
    use rayon::prelude::*;
    let opts = args.input_args.read_options()?;
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let datasets = format::read_path_or_folder(&path, &opts)?;
    let mode = match args.mode {
        ModeArg::First => Mode::First,
        ModeArg::Unique => Mode::Unique,
        ModeArg::Count => Mode::Count(args.count_limit),
    };
    let pool = build_pool(args.threads)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for ds in &datasets {
        if ds.skipped > 0 {
            eprintln!("{}: skipped {} bad entries", ds.source, ds.skipped);
        }
        let solver = args
            .solver
            .unwrap_or_else(|| SolverId::fastest_for(ds.geometry));
        if !solver.supports(ds.geometry) {
            eprintln!(
                "note: {solver} handles {} only: skipped the {} puzzles of {} ({})",
                solver
                    .sizes()
                    .iter()
                    .map(|n| format!("{n}x{n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                ds.puzzles.len(),
                ds.source,
                ds.geometry
            );
            continue;
        }
        let limits_for = || {
            Limits::new(mode)
                .with_node_budget(args.node_budget)
                .with_deadline(args.time_limit.map(|t| Instant::now() + t))
        };
        if args.trace {
            let puzzle = &ds.puzzles[0];
            let mut log = TraceLog::default();
            let outcome = solver.solve_traced(&puzzle.grid, &limits_for(), &mut log);
            write_result(&mut out, &outcome, ds, args.pretty, mode)?;
            out.flush()?;
            let mut err = std::io::stderr().lock();
            for e in &log.events {
                let d = trace::Display {
                    event: e,
                    side: ds.geometry.side(),
                    alphabet: &ds.alphabet,
                };
                writeln!(err, "{d}")?;
            }
            if log.dropped > 0 {
                writeln!(err, "... {} more events not shown", log.dropped)?;
            }
            writeln!(
                err,
                "nodes {} guesses {}",
                outcome.counters.nodes, outcome.counters.guesses
            )?;
            continue;
        }
        // In chunks: output streams in input order and memory stays bounded.
        for chunk in ds.puzzles.chunks(4096) {
            let outcomes: Vec<_> = pool.install(|| {
                chunk
                    .par_iter()
                    .map(|p| solver.solve_checked(&p.grid, &limits_for()))
                    .collect()
            });
            for outcome in &outcomes {
                write_result(&mut out, outcome, ds, args.pretty, mode)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

pub(super) fn write_result(
    out: &mut impl Write,
    outcome: &sudoku_bench::Outcome,
    ds: &sudoku_bench::Dataset,
    pretty: bool,
    mode: Mode,
) -> Result<()> {
    let word = outcome.status.word();
    let count = match mode {
        Mode::Count(_) => format!("\t{}", outcome.solution_count),
        _ => String::new(),
    };
    match (outcome.first(), pretty) {
        (Some(s), false) => writeln!(
            out,
            "{word}{count}\t{}",
            format::write_line(s, &ds.alphabet)
        )?,
        (Some(s), true) => writeln!(
            out,
            "{word}{count}\n{}",
            format::write_block(s, &ds.alphabet)
        )?,
        (None, _) => writeln!(out, "{word}{count}\t-")?,
    }
    Ok(())
}
