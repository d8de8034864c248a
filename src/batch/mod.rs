//! Solving a file of puzzles in parallel, the answers written in input
//! order in the notation asked for: what `solve` does, for any caller.
//!
//! A file is read once and checked whole before any answer is given, so a
//! bad entry fails with nothing written: the answers are held (spilling to
//! a temporary file past 32 MB) until the whole file has passed, while it
//! is parsed on a thread of its own beside the pool. Standard input cannot
//! be held back: it is checked and answered as it goes.

use crate::error::LoadError;
use crate::format::{self, Alphabet};
use crate::grid::Geometry;
use crate::solver::{trace, Limits, Mode, Solver, SolverId, TraceLog};
use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

pub mod calibrate;
mod pipeline;

pub use crate::spool::Spool;

/// Why a batch stopped.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The input does not read (a bad entry, an unknown format).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The input or the output failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The public list named cannot be fetched.
    #[error(transparent)]
    Download(#[from] crate::datasets::public::DownloadError),
}

/// The notation answers are written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Notation {
    /// The one the puzzles came in: numbers in, numbers out.
    #[default]
    Given,
    /// One-character symbols (numbers past 36x36, which have none).
    Line,
    /// Numbers separated by spaces.
    Numbers,
}

/// How a batch is solved and answered.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// The strategy (default: the fastest for each size).
    pub solver: Option<SolverId>,
    /// What each solve looks for.
    pub mode: Mode,
    /// Per-puzzle node budget.
    pub node_budget: Option<u64>,
    /// Per-puzzle time limit.
    pub time_limit: Option<Duration>,
    /// Trace the first puzzle's search (to the log) and stop there.
    pub trace: bool,
    /// The answers' notation.
    pub notation: Notation,
    /// Answers as blocks instead of lines.
    pub blocks: bool,
}

impl BatchOptions {
    /// The alphabet answers are written in, for puzzles of `g` written in `given`.
    pub fn notation(&self, g: Geometry, given: &Alphabet) -> Alphabet {
        match self.notation {
            Notation::Numbers => Alphabet::numbers(g),
            Notation::Line if given.is_numbers() => Alphabet::default_for(g),
            _ => given.clone(),
        }
    }
}

/// Invalid puzzles named, at most this many per file.
const FLAWS_SHOWN: usize = 10;

/// What makes a file's `invalid` puzzles invalid, told once its answers are out.
pub struct Flaws {
    name: String,
    shown: Vec<String>,
    more: usize,
}

impl Flaws {
    /// None yet, for the input `name`.
    pub fn new(name: &str) -> Self {
        Flaws {
            name: name.into(),
            shown: Vec::new(),
            more: 0,
        }
    }

    fn note(&mut self, puzzle: &format::Puzzle) {
        if self.shown.len() == FLAWS_SHOWN {
            self.more += 1;
        } else if let Some(flaw) = crate::validate::find_flaw(&puzzle.grid) {
            let line = puzzle.line;
            self.shown
                .push(format!("{}:{line}: invalid: {flaw}", self.name));
        }
    }

    /// A line per invalid puzzle named, and one for the rest.
    pub fn lines(&self) -> Vec<String> {
        let mut out = self.shown.clone();
        if self.more > 0 {
            out.push(format!("{}: {} more invalid puzzles", self.name, self.more));
        }
        out
    }
}

/// Puzzles of a stream solved in parallel between two writes.
const CHUNK: usize = 4096;

/// Puzzles a chunk of a file that is not in the line format holds, parsed
/// on a thread of its own while the chunks before it are solved.
const PIPELINED_CHUNK: usize = 4096;

/// What a file came to: its answers, held until the whole file passed its
/// check; the entries skipped; the invalid puzzles' flaws.
pub struct Answered {
    /// The answers, in input order.
    pub answers: Spool,
    /// Bad entries skipped (`skip_invalid`).
    pub skipped: usize,
    /// What makes its invalid puzzles invalid.
    pub flaws: Flaws,
}

/// Solves `file`: its bytes read on a thread of their own and, in the
/// line format, handed to the pool as blocks of whole lines that the
/// workers parse and solve (in any other format, parsed on that thread and
/// handed on in chunks); nothing is answered unless the whole file reads.
/// The trace and notes (a strategy that does not handle the size) go to `log`.
///
/// Its readers stop at the first bad entry (nothing more is solved past
/// it); a file that fails so is read again whole, without solving, so that
/// its error lists the first bad entries (`max_listed_errors`) and counts
/// them all, as every other reader's does.
pub fn solve_file(
    opts: &BatchOptions,
    pool: &rayon::ThreadPool,
    file: &Path,
    read: &format::ReadOptions,
    log: &mut dyn Write,
) -> Result<Answered, BatchError> {
    match solve_file_once(opts, pool, file, read, log) {
        Err(BatchError::Load(first @ LoadError::Invalid { .. })) => {
            // Only a regular file can be opened again (a pipe's bytes are gone).
            if !std::fs::metadata(file).is_ok_and(|m| m.is_file()) {
                return Err(first.into());
            }
            match format::read_path_capped(file, read, 0) {
                Err(all @ LoadError::Invalid { .. }) => Err(all.into()),
                _ => Err(first.into()),
            }
        }
        done => done,
    }
}

/// [`solve_file`], its first bad entry its error.
fn solve_file_once(
    opts: &BatchOptions,
    pool: &rayon::ThreadPool,
    file: &Path,
    read: &format::ReadOptions,
    log: &mut dyn Write,
) -> Result<Answered, BatchError> {
    let name = file.display().to_string();
    let open = || {
        std::fs::File::open(file)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot read {name}: {e}")))
    };
    let reader = open()?;
    let size = reader.metadata().map_or(0, |m| m.len());
    let bytes = pipeline::block_bytes(size, pool.current_num_threads());
    let mut answers = Spool::default();
    let mut flaws = Flaws::new(&name);
    let (tx, rx) = std::sync::mpsc::sync_channel::<format::blocks::LineBlock>(4);
    let lines = std::thread::scope(|scope| {
        // The sender moves to the reading thread: its end closes the channel.
        let reading_name = name.clone();
        let reading = scope.spawn(move || {
            format::blocks::read_line_blocks(&reading_name, reader, read, bytes, &mut |block| {
                // A closed channel means the solving side failed: stop reading.
                tx.send(block).is_ok()
            })
        });
        let mut p = pipeline::Pipeline::new(opts, pool, (&mut answers, log), &mut flaws);
        let solved = p.blocks(&name, read, rx);
        let read = reading.join().expect("the reading thread does not panic");
        // Solving's failure first, then the read's; an empty file or one
        // of comments is the read's error, as in every reader.
        solved.and_then(|blocks| match read? {
            true => Ok(Some(blocks.finish()?.skipped)),
            false => Ok(None),
        })
    })?;
    if let Some(skipped) = lines {
        return Ok(Answered {
            answers,
            skipped,
            flaws,
        });
    }
    // Not in the line format: parsed on a thread of its own, in chunks.
    let reader = open()?;
    let name = file.display().to_string();
    let (tx, rx) = std::sync::mpsc::sync_channel::<(Vec<format::Puzzle>, format::Alphabet)>(4);
    let read = std::thread::scope(|scope| {
        let parser = scope.spawn(move || {
            format::read_chunks(
                &name,
                reader,
                read,
                PIPELINED_CHUNK,
                &mut |chunk, alphabet| tx.send((chunk, alphabet.clone())).is_ok(),
            )
        });
        let mut p = pipeline::Pipeline::new(opts, pool, (&mut answers, log), &mut flaws);
        let solved = p.chunks(|submit| {
            for (chunk, alphabet) in rx.iter() {
                if !submit(chunk, &alphabet) {
                    break;
                }
            }
            drop(rx);
        });
        let read = parser.join().expect("the parsing thread does not panic");
        // Solving's failure first, then the read's: a bad entry anywhere
        // returns no answer.
        solved.map(|()| read)
    })?;
    Ok(Answered {
        answers,
        skipped: read?.skipped,
        flaws,
    })
}

/// `solve`: every puzzle file of `path` (a file, a folder of them, a public
/// list's name, or `-` for standard input) answered in order into `out`;
/// the flaws of invalid puzzles, the entries skipped, a download's progress
/// and the batch's notes go to `log`.
pub fn solve_paths(
    opts: &BatchOptions,
    pool: &rayon::ThreadPool,
    path: &Path,
    read: &format::ReadOptions,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<(), BatchError> {
    let path = crate::datasets::path_or_public(path, &mut |m| {
        let _ = writeln!(log, "{m}");
    })?;
    for file in format::puzzle_files(&path)? {
        let stdin = file == Path::new("-");
        let (skipped, flaws) = if stdin {
            solve_stream(opts, pool, "<stdin>", io::stdin().lock(), read, out, log)?
        } else {
            let done = solve_file(opts, pool, &file, read, log)?;
            done.answers.copy_to(out)?;
            out.flush()?;
            (done.skipped, done.flaws)
        };
        for l in flaws.lines() {
            writeln!(log, "{l}")?;
        }
        if skipped > 0 {
            let name = if stdin {
                "<stdin>".into()
            } else {
                file.display().to_string()
            };
            let entries = if skipped == 1 { "entry" } else { "entries" };
            writeln!(log, "{name}: skipped {skipped} bad {entries}")?;
        }
    }
    out.flush()?;
    Ok(())
}

/// Solves a stream (standard input) as it reads: each chunk's answers
/// are written to `out` once it and every chunk before it are solved, so a
/// bad entry stops it part way. Gives the entries skipped and the invalid
/// puzzles' flaws.
pub fn solve_stream(
    opts: &BatchOptions,
    pool: &rayon::ThreadPool,
    name: &str,
    input: impl io::Read,
    read: &format::ReadOptions,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<(usize, Flaws), BatchError> {
    let mut flaws = Flaws::new(name);
    let mut ds = None;
    let mut p = pipeline::Pipeline::new(opts, pool, (&mut *out, log), &mut flaws);
    p.chunks(|submit| {
        ds = Some(format::read_chunks(name, input, read, CHUNK, submit));
    })?;
    let ds = ds.expect("the stream was read")?;
    out.flush()?;
    Ok((ds.skipped, flaws))
}

/// `solve --trace`: solves the chunk's first puzzle with every search event
/// written to `log` (none for an `invalid` one), its answer to `out`.
fn trace_first(
    opts: &BatchOptions,
    solver: SolverId,
    (puzzle, alphabet): (&format::Puzzle, &Alphabet),
    limits: &Limits,
    flaws: &mut Flaws,
    (out, log): (&mut dyn Write, &mut dyn Write),
) -> Result<(), BatchError> {
    let (mode, g) = (opts.mode, puzzle.grid.geometry());
    if crate::validate::find_flaw(&puzzle.grid).is_some() {
        // Nothing to trace: the puzzle is `invalid` before any search.
        let mut line = Vec::new();
        write_result(
            &mut line,
            &crate::solver::Outcome::invalid(),
            alphabet,
            opts.blocks,
            mode,
        );
        out.write_all(&line)?;
        flaws.note(puzzle);
        return Ok(());
    }
    let mut events = TraceLog::default();
    let outcome = solver.solve_traced(&puzzle.grid, limits, &mut events);
    let mut line = Vec::new();
    write_result(&mut line, &outcome, alphabet, opts.blocks, mode);
    out.write_all(&line)?;
    out.flush()?;
    let err = log;
    for e in &events.events {
        let d = trace::Display {
            event: e,
            side: g.side(),
            alphabet,
        };
        writeln!(err, "{d}")?;
    }
    if events.dropped > 0 {
        writeln!(err, "... {} more events not shown", events.dropped)?;
    }
    writeln!(
        err,
        "nodes {} guesses {}",
        outcome.counters.nodes, outcome.counters.guesses
    )?;
    Ok(())
}

/// Appends one answer line (a block with `pretty`) to `out`: bytes, no
/// formatting machinery, as this runs once a puzzle beside the solver.
pub fn write_result(
    out: &mut Vec<u8>,
    outcome: &crate::solver::Outcome,
    alphabet: &Alphabet,
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

#[cfg(test)]
mod tests;
