//! Puzzles solved on the pool while more are read: each chunk (or, in the
//! line format, each block of lines, which the worker parses itself) is a
//! task of its own, several run at once with no wait at a chunk's end, and
//! their answers are written in input order as soon as a chunk and every
//! chunk before it are done. At most [`in_flight`] chunks are unwritten at
//! a time, so memory stays flat whatever the input's length.

use super::{trace_first, write_result, BatchError, BatchOptions, Flaws};
use crate::format::blocks::{self, Blocks, Fixed, LineBlock, ParsedBlock};
use crate::format::{self, Alphabet, Puzzle};
use crate::solver::{Limits, SolverId, Status};
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::mpsc::Receiver;
use std::sync::{Condvar, Mutex};
use std::time::Instant;

/// Bytes of lines a block holds for a file of `len` bytes on `threads`
/// workers: about eight blocks a worker, between 16 KiB (some 200 9×9
/// puzzles) and 256 KiB.
pub(super) fn block_bytes(len: u64, threads: usize) -> usize {
    let per = len / (threads.max(1) as u64 * 8);
    per.clamp(16 << 10, 256 << 10) as usize
}

/// Chunks handed to the pool and not yet written, at most: enough that no
/// worker waits at a chunk's end, few enough that memory stays flat.
fn in_flight(threads: usize) -> usize {
    2 * threads.max(1) + 2
}

/// Puzzles a worker takes at a time from a chunk: each writes its own
/// answers' lines, so that the calling thread only copies bytes (writing
/// them there, one by one, kept 16 cores at 4.4x one).
const PART: usize = 256;

/// One chunk, solved: its puzzles (for the flaws of the invalid ones), its
/// answer lines, which of them are invalid, and for a block what its
/// lines came to.
struct Done {
    puzzles: Vec<Puzzle>,
    lines: Vec<u8>,
    invalid: Vec<usize>,
    read: Option<ParsedBlock>,
}

/// The chunks solved and not yet written, by their place in the input, and
/// the signal that another is done.
#[derive(Default)]
struct Flow {
    done: Mutex<BTreeMap<usize, Done>>,
    more: Condvar,
}

impl Flow {
    fn put(&self, k: usize, done: Done) {
        crate::sync::lock(&self.done).insert(k, done);
        self.more.notify_all();
    }
}

/// The calling thread's side: it decides the first chunk (a note, the
/// trace), hands every chunk to the pool, and writes the answers in order.
pub(super) struct Pipeline<'a> {
    opts: &'a BatchOptions,
    pool: &'a rayon::ThreadPool,
    out: &'a mut dyn Write,
    log: &'a mut dyn Write,
    flaws: &'a mut Flaws,
    /// Chunks handed out, and written.
    next: usize,
    written: usize,
    /// The strategy, once the first chunk decided it; `Some(None)` once
    /// nothing more is to be solved (the rest is still read and checked).
    solver: Option<Option<SolverId>>,
    /// Why it stopped: solving's or writing's failure.
    failure: Option<BatchError>,
    /// A line-format file's blocks, put together in order, and whether
    /// they have failed the read.
    blocks: Option<Blocks<'a>>,
    read_failed: bool,
}

impl<'a> Pipeline<'a> {
    /// A pipeline writing answers to `out` and notes to `log`.
    pub(super) fn new(
        opts: &'a BatchOptions,
        pool: &'a rayon::ThreadPool,
        (out, log): (&'a mut dyn Write, &'a mut dyn Write),
        flaws: &'a mut Flaws,
    ) -> Self {
        Pipeline {
            opts,
            pool,
            out,
            log,
            flaws,
            next: 0,
            written: 0,
            solver: None,
            failure: None,
            blocks: None,
            read_failed: false,
        }
    }

    /// Solves the parsed chunks `feed` hands its `submit` (which says false
    /// once nothing more is to be read), and writes their answers.
    pub(super) fn chunks(
        &mut self,
        feed: impl FnOnce(&mut dyn FnMut(Vec<Puzzle>, &Alphabet) -> bool),
    ) -> Result<(), BatchError> {
        let flow = Flow::default();
        let (flow, opts, pool) = (&flow, self.opts, self.pool);
        let most = in_flight(pool.current_num_threads());
        pool.in_place_scope(|scope| {
            let mut submit = |chunk: Vec<Puzzle>, alphabet: &Alphabet| -> bool {
                if self.stopped() {
                    return false;
                }
                let Some(first) = chunk.first() else {
                    return true;
                };
                let g = first.grid.geometry();
                let Some(solver) = self.decide(&chunk, alphabet) else {
                    return !self.stopped(); // the rest is still read and checked
                };
                let alphabet = opts.notation(g, alphabet);
                let k = self.hand_out();
                scope.spawn(move |_| flow.put(k, solved(opts, solver, &alphabet, chunk, None)));
                self.drain(flow, most - 1);
                !self.stopped()
            };
            feed(&mut submit);
            self.drain(flow, 0);
        });
        self.failure.take().map_or(Ok(()), Err)
    }

    /// Parses and solves the blocks of lines of the file `name` that come on `rx`
    /// (none: the file is not in the line format), and writes their
    /// answers. The blocks are parsed on the workers, each against the
    /// size and alphabet the first puzzle fixed (the blocks up to it are
    /// parsed here). Gives what the blocks' reads came to, for the caller
    /// to finish once it knows the file was read in blocks.
    pub(super) fn blocks(
        &mut self,
        name: &'a str,
        read: &'a format::ReadOptions,
        rx: Receiver<LineBlock>,
    ) -> Result<Blocks<'a>, BatchError> {
        self.blocks = Some(Blocks::new(name, read));
        let flow = Flow::default();
        let (flow, opts, pool) = (&flow, self.opts, self.pool);
        let most = in_flight(pool.current_num_threads());
        let mut fixed: Option<Fixed> = None;
        pool.in_place_scope(|scope| {
            for block in rx.iter() {
                if self.stopped() {
                    break;
                }
                let Some(f) = fixed.clone() else {
                    // Parsed here, in order, until one fixes the size.
                    let mut parsed = blocks::parse_block(name, &block, read, None);
                    if !self.add_read(&parsed) {
                        break;
                    }
                    fixed.clone_from(&parsed.fixed);
                    let (Some(f), Some(first)) = (&parsed.fixed, parsed.puzzles.first()) else {
                        continue;
                    };
                    let g = first.grid.geometry();
                    let Some(solver) = self.decide(&parsed.puzzles, &f.written()) else {
                        continue;
                    };
                    let alphabet = opts.notation(g, &f.written());
                    let puzzles = std::mem::take(&mut parsed.puzzles);
                    let k = self.hand_out();
                    scope.spawn(move |_| {
                        flow.put(k, solved(opts, solver, &alphabet, puzzles, None));
                    });
                    self.drain(flow, most - 1);
                    continue;
                };
                let solver = self.solver.flatten();
                let k = self.hand_out();
                scope.spawn(move |_| {
                    let mut parsed = blocks::parse_block(name, &block, read, Some(&f));
                    let puzzles = std::mem::take(&mut parsed.puzzles);
                    let done = match (solver, puzzles.first()) {
                        (Some(solver), Some(first)) => {
                            let written = parsed.fixed.as_ref().unwrap_or(&f).written();
                            let alphabet = opts.notation(first.grid.geometry(), &written);
                            solved(opts, solver, &alphabet, puzzles, Some(parsed))
                        }
                        _ => Done {
                            puzzles,
                            lines: Vec::new(),
                            invalid: Vec::new(),
                            read: Some(parsed),
                        },
                    };
                    flow.put(k, done);
                });
                self.drain(flow, most - 1);
            }
            drop(rx);
            self.drain(flow, 0);
        });
        if let Some(e) = self.failure.take() {
            return Err(e);
        }
        Ok(self.blocks.take().expect("set above"))
    }

    /// True once nothing more is to be read: a failure, or a bad entry.
    fn stopped(&self) -> bool {
        self.failure.is_some() || self.read_failed
    }

    /// Adds a block's read to the file's, in order; false once it failed.
    fn add_read(&mut self, parsed: &ParsedBlock) -> bool {
        if let Some(b) = &mut self.blocks {
            self.read_failed |= !b.add(parsed);
        }
        !self.read_failed
    }

    /// The strategy that solves `chunk`, decided on the first (a note for
    /// a strategy that does not handle its size; the trace of its first
    /// puzzle); `None` when nothing more is to be solved.
    fn decide(&mut self, chunk: &[Puzzle], alphabet: &Alphabet) -> Option<SolverId> {
        if let Some(s) = self.solver {
            return s;
        }
        let decided = match decide(
            self.opts,
            (chunk, alphabet),
            self.flaws,
            (self.out, self.log),
        ) {
            Ok(s) => s,
            Err(e) => {
                self.failure = Some(e);
                None
            }
        };
        self.solver = Some(decided);
        decided
    }

    /// The next chunk's place in the input.
    fn hand_out(&mut self) -> usize {
        self.next += 1;
        self.next - 1
    }

    /// Waits until at most `room` of the chunks handed out are unwritten,
    /// writing each in input order as it is done (nothing more once the
    /// run has failed).
    fn drain(&mut self, flow: &Flow, room: usize) {
        let mut done = crate::sync::lock(&flow.done);
        loop {
            while let Some(d) = done.remove(&self.written) {
                drop(done);
                self.written += 1;
                self.write(d);
                done = crate::sync::lock(&flow.done);
            }
            if self.next - self.written <= room {
                return;
            }
            done = flow.more.wait(done).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Writes a solved chunk's answers and notes its invalid puzzles' flaws.
    fn write(&mut self, d: Done) {
        if let Some(read) = &d.read {
            self.add_read(read);
        }
        if self.stopped() {
            return;
        }
        if let Err(e) = self.out.write_all(&d.lines) {
            self.failure = Some(e.into());
            return;
        }
        for i in d.invalid {
            self.flaws.note(&d.puzzles[i]);
        }
    }
}

/// Decides the first chunk (never empty): the strategy that solves it, or
/// `None` when nothing is to be solved (`--trace`, done here on its first
/// puzzle, or a strategy that does not handle the size, noted to `log`).
fn decide(
    opts: &BatchOptions,
    (chunk, alphabet): (&[Puzzle], &Alphabet),
    flaws: &mut Flaws,
    (out, log): (&mut dyn Write, &mut dyn Write),
) -> Result<Option<SolverId>, BatchError> {
    let g = chunk[0].grid.geometry();
    let timed = match (opts.solver, opts.trace) {
        (None, false) if SolverId::Box.supports(g) => super::calibrate::time_engines(opts, chunk),
        _ => None,
    };
    if let Some(t) = &timed {
        writeln!(log, "{}", t.note(&flaws.name))?;
    }
    let solver = opts
        .solver
        .or(timed.map(|t| t.winner()))
        .unwrap_or_else(|| SolverId::fastest_for(g));
    if !solver.supports(g) {
        writeln!(
            log,
            "note: {solver} handles {} only: skipped the {g} puzzles",
            solver
                .sizes()
                .iter()
                .map(|n| format!("{n}x{n}"))
                .collect::<Vec<_>>()
                .join(", "),
        )?;
        return Ok(None);
    }
    if opts.trace {
        let alphabet = opts.notation(g, alphabet);
        trace_first(
            opts,
            solver,
            (&chunk[0], &alphabet),
            &limits(opts),
            flaws,
            (out, log),
        )?;
        return Ok(None);
    }
    Ok(Some(solver))
}

/// The limits of one solve, its deadline from now.
pub(super) fn limits(opts: &BatchOptions) -> Limits {
    Limits::new(opts.mode)
        .with_node_budget(opts.node_budget)
        .with_deadline(opts.time_limit.map(|t| Instant::now() + t))
}

/// A chunk solved: its answers, with what its block's lines came to.
fn solved(
    opts: &BatchOptions,
    solver: SolverId,
    alphabet: &Alphabet,
    puzzles: Vec<Puzzle>,
    read: Option<ParsedBlock>,
) -> Done {
    let (lines, invalid) = solve(opts, solver, alphabet, &puzzles);
    Done {
        puzzles,
        lines,
        invalid,
        read,
    }
}

/// Solves `puzzles` in parts on the pool: their answer lines in input
/// order, and which of them are invalid.
fn solve(
    opts: &BatchOptions,
    solver: SolverId,
    alphabet: &Alphabet,
    puzzles: &[Puzzle],
) -> (Vec<u8>, Vec<usize>) {
    use rayon::prelude::*;
    let cells = puzzles.first().map_or(0, |p| p.grid.geometry().cells());
    let parts: Vec<(Vec<u8>, Vec<usize>)> = puzzles
        .par_chunks(PART)
        .enumerate()
        .map(|(k, part)| {
            let mut lines = Vec::with_capacity(part.len() * (cells + 12));
            let mut invalid = Vec::new();
            for (i, p) in part.iter().enumerate() {
                let outcome = solver.solve_checked(&p.grid, &limits(opts));
                write_result(&mut lines, &outcome, alphabet, opts.blocks, opts.mode);
                if outcome.status == Status::Invalid {
                    invalid.push(k * PART + i);
                }
            }
            (lines, invalid)
        })
        .collect();
    let mut lines = Vec::with_capacity(parts.iter().map(|p| p.0.len()).sum());
    let mut invalid = Vec::new();
    for (l, i) in parts {
        lines.extend_from_slice(&l);
        invalid.extend(i);
    }
    (lines, invalid)
}
