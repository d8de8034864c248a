//! `sudoku-bench solve`: one line per puzzle, status and first solution.

use super::options::*;
use anyhow::{Context, Result};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use sudoku_bench::format;
use sudoku_bench::solver::{trace, Limits, Mode, Solver, SolverId, Status, TraceLog};

#[derive(clap::Args)]
pub(super) struct SolveArgs {
    /// Puzzle file or folder, or a public list's name (see `sudoku-bench datasets`);
    /// `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// Strategy or variant (see `sudoku-bench solvers`); default: `band` on 9x9, `cdcl-hybrid` on other sizes.
    #[arg(long)]
    solver: Option<SolverId>,
    /// What to look for.
    #[arg(long, value_enum, default_value = "unique")]
    mode: ModeArg,
    /// With `--mode count`: stop counting here.
    #[arg(long, default_value_t = 1_000_000, value_parser = positive::<u64>)]
    count_limit: u64,
    /// Solving threads (default: all cores); a file is parsed on a thread beside them.
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
    /// Answers as blocks.
    fn blocks(&self) -> bool {
        self.pretty || self.output == Some(OutputArg::Block)
    }

    /// The notation answers are written in, for puzzles of `g` written in `given`.
    fn notation(&self, g: sudoku_bench::Geometry, given: &format::Alphabet) -> format::Alphabet {
        match self.output {
            Some(OutputArg::Numbers) => format::Alphabet::numbers(g),
            Some(OutputArg::Line) if given.is_numbers() => format::Alphabet::default_for(g),
            _ => given.clone(),
        }
    }
}

pub(super) fn run(args: SolveArgs) -> Result<ExitCode> {
    let opts = args.input_args.read_options()?;
    let path = args.input.clone().unwrap_or_else(|| PathBuf::from("-"));
    let path = sudoku_bench::datasets::path_or_public(&path, &mut |m| eprintln!("{m}"))?;
    let mode = args.mode.mode(args.count_limit);
    let pool = build_pool(args.threads)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for file in format::puzzle_files(&path)? {
        let stdin = file == std::path::Path::new("-");
        // A file is read once and checked whole before any output, so a bad
        // entry fails with nothing printed: the answers are held (spilling to
        // a temporary file past 32 MB) until the whole file has passed.
        // It is parsed on a thread of its own while the pool solves what is
        // parsed. Standard input cannot be held back: it is checked and
        // answered as it goes.
        if !stdin {
            let (answers, skipped, flaws) = solve_pipelined(&args, &pool, mode, &file, &opts)?;
            answers.copy_to(&mut out)?;
            out.flush()?;
            flaws.report();
            report_skipped(&file.display().to_string(), skipped);
            continue;
        }
        let mut failure: Option<anyhow::Error> = None;
        let mut first = true;
        let mut flaws = Flaws::new("<stdin>");
        let mut each = |chunk: Vec<format::Puzzle>, alphabet: &format::Alphabet| -> bool {
            let result = solve_chunk(
                &args,
                &pool,
                mode,
                (&chunk, alphabet),
                (first, &mut flaws),
                &mut out,
            );
            first = false;
            match result {
                Ok(go_on) => go_on,
                Err(e) => {
                    failure = Some(e);
                    false
                }
            }
        };
        let stdin = std::io::stdin().lock();
        let ds = format::read_chunks("<stdin>", stdin, &opts, CHUNK, &mut each)?;
        if let Some(e) = failure {
            return Err(e);
        }
        out.flush()?;
        flaws.report();
        report_skipped("<stdin>", ds.skipped);
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Invalid puzzles named on stderr, at most this many per file.
const FLAWS_SHOWN: usize = 10;

/// What makes a file's `invalid` puzzles invalid, told once its answers are out.
struct Flaws {
    name: String,
    shown: Vec<String>,
    more: usize,
}

impl Flaws {
    fn new(name: &str) -> Self {
        Flaws {
            name: name.into(),
            shown: Vec::new(),
            more: 0,
        }
    }

    fn note(&mut self, puzzle: &format::Puzzle) {
        if self.shown.len() == FLAWS_SHOWN {
            self.more += 1;
        } else if let Some(flaw) = sudoku_bench::validate::find_flaw(&puzzle.grid) {
            let line = puzzle.line;
            self.shown
                .push(format!("{}:{line}: invalid: {flaw}", self.name));
        }
    }

    fn report(&self) {
        for s in &self.shown {
            eprintln!("{s}");
        }
        if self.more > 0 {
            eprintln!("{}: {} more invalid puzzles", self.name, self.more);
        }
    }
}

/// Puzzles of standard input solved in parallel between two writes.
const CHUNK: usize = 4096;

/// Puzzles a pipelined chunk holds: enough that 16 workers wait at its end
/// only now and then (512 took 0.86–0.91 s for 983k puzzles at 16 threads on
/// a Xeon, 4096 took 0.71–0.81 s), few enough that the parsing of the next
/// overlaps solving in a file of some thousands.
const PIPELINED_CHUNK: usize = 4096;

/// Answers held in memory up to this many bytes, then in a temporary file.
const SPOOL_MEMORY: usize = 32 << 20;

/// Answers held until the whole input has passed its check: in memory up to
/// [`SPOOL_MEMORY`], then in an unnamed temporary file, so memory stays flat.
#[derive(Default)]
struct Spool {
    memory: Vec<u8>,
    file: Option<std::io::BufWriter<std::fs::File>>,
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(f) = &mut self.file {
            return f.write(buf);
        }
        self.memory.extend_from_slice(buf);
        if self.memory.len() > SPOOL_MEMORY {
            let mut f = std::io::BufWriter::new(tempfile::tempfile()?);
            f.write_all(&std::mem::take(&mut self.memory))?;
            self.file = Some(f);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Spool {
    /// Writes everything held to `out`, in the order it came.
    fn copy_to(self, out: &mut impl Write) -> Result<()> {
        use std::io::Seek;
        out.write_all(&self.memory)?;
        if let Some(f) = self.file {
            let mut f = f.into_inner().map_err(|e| e.into_error())?;
            f.rewind()?;
            std::io::copy(&mut f, out)?;
        }
        Ok(())
    }
}

/// The solving side of a file's read: the answers held so far, and whether
/// to go on solving (a strategy may say stop; the rest is still read and checked).
struct Solving<'a> {
    args: &'a SolveArgs,
    pool: &'a rayon::ThreadPool,
    mode: Mode,
    answers: Spool,
    state: Result<bool>,
    first: bool,
    flaws: Flaws,
}

impl<'a> Solving<'a> {
    fn new(args: &'a SolveArgs, pool: &'a rayon::ThreadPool, mode: Mode, name: &str) -> Self {
        Solving {
            args,
            pool,
            mode,
            answers: Spool::default(),
            state: Ok(true),
            first: true,
            flaws: Flaws::new(name),
        }
    }

    /// Solves a chunk (unless told to stop); false once solving has failed.
    fn chunk(&mut self, chunk: &[format::Puzzle], alphabet: &format::Alphabet) -> bool {
        if matches!(self.state, Ok(true)) {
            let (args, pool, mode, first) = (self.args, self.pool, self.mode, self.first);
            self.state = solve_chunk(
                args,
                pool,
                mode,
                (chunk, alphabet),
                (first, &mut self.flaws),
                &mut self.answers,
            );
        }
        self.first = false;
        self.state.is_ok()
    }

    /// The answers, the entries skipped and the invalid puzzles' flaws, or
    /// the first failure: solving's, then the read's (a bad entry anywhere
    /// returns no answer).
    fn finish(
        self,
        read: Result<format::Dataset, sudoku_bench::LoadError>,
    ) -> Result<(Spool, usize, Flaws)> {
        self.state?;
        Ok((self.answers, read?.skipped, self.flaws))
    }
}

/// Reads `file` in chunks on a thread of its own, handing each to the pool
/// as it comes.
fn solve_pipelined(
    args: &SolveArgs,
    pool: &rayon::ThreadPool,
    mode: Mode,
    file: &std::path::Path,
    opts: &format::ReadOptions,
) -> Result<(Spool, usize, Flaws)> {
    let name = file.display().to_string();
    let reader = std::fs::File::open(file).with_context(|| format!("cannot read {name}"))?;
    let (tx, rx) = std::sync::mpsc::sync_channel::<(Vec<format::Puzzle>, format::Alphabet)>(4);
    std::thread::scope(|scope| {
        // The sender moves to the parsing thread: its end closes the channel.
        let parser = scope.spawn(move || {
            format::read_chunks(
                &name,
                reader,
                opts,
                PIPELINED_CHUNK,
                &mut |chunk, alphabet| {
                    // A closed channel means the solving side failed: stop reading.
                    tx.send((chunk, alphabet.clone())).is_ok()
                },
            )
        });
        let mut solving = Solving::new(args, pool, mode, &file.display().to_string());
        for (chunk, alphabet) in rx.iter() {
            if !solving.chunk(&chunk, &alphabet) {
                break;
            }
        }
        drop(rx);
        solving.finish(parser.join().expect("the parsing thread does not panic"))
    })
}

fn report_skipped(name: &str, skipped: usize) {
    if skipped > 0 {
        eprintln!(
            "{name}: skipped {skipped} bad {}",
            if skipped == 1 { "entry" } else { "entries" }
        );
    }
}

/// Solves one chunk of puzzles in parallel and writes the results in input
/// order, noting why each `invalid` one is; returns false when nothing more
/// should be read (`--trace`, or a strategy that does not handle the size).
fn solve_chunk(
    args: &SolveArgs,
    pool: &rayon::ThreadPool,
    mode: Mode,
    (chunk, alphabet): (&[format::Puzzle], &format::Alphabet),
    (first, flaws): (bool, &mut Flaws),
    out: &mut impl Write,
) -> Result<bool> {
    use rayon::prelude::*;
    let Some(g) = chunk.first().map(|p| p.grid.geometry()) else {
        return Ok(true);
    };
    let alphabet = &args.notation(g, alphabet);
    let solver = args.solver.unwrap_or_else(|| SolverId::fastest_for(g));
    if !solver.supports(g) {
        if first {
            eprintln!(
                "note: {solver} handles {} only: skipped the {g} puzzles",
                solver
                    .sizes()
                    .iter()
                    .map(|n| format!("{n}x{n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            );
        }
        return Ok(false);
    }
    let limits_for = || {
        Limits::new(mode)
            .with_node_budget(args.node_budget)
            .with_deadline(args.time_limit.map(|t| Instant::now() + t))
    };
    if args.trace {
        let puzzle = &chunk[0];
        if sudoku_bench::validate::find_flaw(&puzzle.grid).is_some() {
            // Nothing to trace: the puzzle is `invalid` before any search.
            let mut line = Vec::new();
            write_result(
                &mut line,
                &sudoku_bench::Outcome::invalid(),
                alphabet,
                args.blocks(),
                mode,
            );
            out.write_all(&line)?;
            flaws.note(puzzle);
            return Ok(false);
        }
        let mut log = TraceLog::default();
        let outcome = solver.solve_traced(&puzzle.grid, &limits_for(), &mut log);
        let mut line = Vec::new();
        write_result(&mut line, &outcome, alphabet, args.blocks(), mode);
        out.write_all(&line)?;
        out.flush()?;
        let mut err = std::io::stderr().lock();
        for e in &log.events {
            let d = trace::Display {
                event: e,
                side: g.side(),
                alphabet,
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
        return Ok(false);
    }
    // Each worker writes its own answers' lines, so that this thread only
    // copies bytes: writing them here, one by one, kept 16 cores at 4.4x one.
    let part = chunk.len().div_ceil(pool.current_num_threads() * 4).max(16);
    let parts: Vec<Result<(Vec<u8>, Vec<usize>)>> = pool.install(|| {
        chunk
            .par_chunks(part)
            .map(|puzzles| {
                let mut lines = Vec::with_capacity(puzzles.len() * (g.cells() + 12));
                let mut invalid = Vec::new();
                for (i, p) in puzzles.iter().enumerate() {
                    let outcome = solver.solve_checked(&p.grid, &limits_for());
                    write_result(&mut lines, &outcome, alphabet, args.blocks(), mode);
                    if outcome.status == Status::Invalid {
                        invalid.push(i);
                    }
                }
                Ok((lines, invalid))
            })
            .collect()
    });
    for (k, done) in parts.into_iter().enumerate() {
        let (lines, invalid) = done?;
        out.write_all(&lines)?;
        for i in invalid {
            flaws.note(&chunk[k * part + i]);
        }
    }
    Ok(true)
}

/// Appends one answer line (a block with `pretty`) to `out`: bytes, no
/// formatting machinery, as this runs once a puzzle beside the solver.
pub(super) fn write_result(
    out: &mut Vec<u8>,
    outcome: &sudoku_bench::Outcome,
    alphabet: &format::Alphabet,
    pretty: bool,
    mode: Mode,
) {
    out.extend_from_slice(outcome.status.word().as_bytes());
    if let Mode::Count(_) = mode {
        out.push(b'\t');
        out.extend_from_slice(
            itoa::Buffer::new()
                .format(outcome.solution_count)
                .as_bytes(),
        );
    }
    match (outcome.first(), pretty) {
        (Some(s), false) => {
            out.push(b'\t');
            format::append_line(out, s, alphabet);
        }
        (Some(s), true) => {
            out.push(b'\n');
            out.extend_from_slice(format::write_block(s, alphabet).as_bytes());
        }
        (None, _) => out.extend_from_slice(b"\t-"),
    }
    out.push(b'\n');
}
