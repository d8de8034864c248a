//! A run of generated puzzles written out as they are made: in chunks made
//! in parallel and written in index order, so memory stays bounded and the
//! output is the same at any thread count.

use super::{generate_indexed, GenerateError, GenerateOptions};
use crate::format::{self, Alphabet};
use rayon::prelude::*;
use std::io::{self, Write};

/// Puzzles made in parallel before they are written.
const CHUNK: u64 = 256;

/// How each generated puzzle is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A block: a row of the grid a line.
    Block,
    /// One line, with its answer after a space when `answer` is true.
    Line {
        /// Write the solution after the puzzle.
        answer: bool,
    },
}

impl Layout {
    /// How `generate` writes `opts`'s puzzles: as blocks, or as lines with
    /// the answer unless `no_answer` or the holes form (whose puzzles may
    /// have several); pencilmark puzzles only as lines.
    pub fn of(
        block: bool,
        no_answer: bool,
        opts: &GenerateOptions,
    ) -> Result<Layout, GenerateError> {
        match block {
            true if opts.pencilmark => Err(GenerateError::Impossible(
                "--pencilmark writes lines: the block format has no place for the exclusions"
                    .into(),
            )),
            true => Ok(Layout::Block),
            false => Ok(Layout::Line {
                answer: !(no_answer || opts.holes),
            }),
        }
    }
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// A puzzle could not be made.
    #[error(transparent)]
    Generate(#[from] GenerateError),
    /// The output cannot be written.
    #[error("cannot write the puzzles: {0}")]
    Io(#[from] io::Error),
}

/// Writes puzzles `0..count` of `(opts, seed)` to `out`, made on `pool`.
pub fn write_puzzles(
    opts: &GenerateOptions,
    seed: u64,
    count: u64,
    layout: Layout,
    pool: &rayon::ThreadPool,
    out: &mut dyn Write,
) -> Result<(), WriteError> {
    let alphabet = Alphabet::default_for(opts.geometry);
    let mut start = 0;
    while start < count {
        let end = (start + CHUNK).min(count);
        let chunk: Vec<_> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|i| generate_indexed(opts, seed, i))
                .collect()
        });
        for item in chunk {
            let (puzzle, solution) = item?;
            write_one(out, &puzzle, &solution, layout, &alphabet)?;
        }
        start = end;
    }
    Ok(out.flush()?)
}

fn write_one(
    out: &mut dyn Write,
    puzzle: &crate::grid::Grid,
    solution: &crate::grid::Grid,
    layout: Layout,
    alphabet: &Alphabet,
) -> io::Result<()> {
    let line = |g| format::write_line(g, alphabet);
    match layout {
        Layout::Block => writeln!(out, "{}", format::write_block(puzzle, alphabet)),
        Layout::Line { answer: false } => writeln!(out, "{}", line(puzzle)),
        Layout::Line { answer: true } => writeln!(out, "{} {}", line(puzzle), line(solution)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_output_is_the_same_at_any_thread_count_and_layout_is_kept() {
        let opts = GenerateOptions::minimal(crate::grid::Geometry::from_side(4).unwrap());
        let run = |threads: usize, layout: Layout| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut out = Vec::new();
            write_puzzles(&opts, 7, 300, layout, &pool, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let answered = run(1, Layout::Line { answer: true });
        assert_eq!(answered, run(3, Layout::Line { answer: true }));
        assert_eq!(answered.lines().count(), 300, "past one chunk of {CHUNK}");
        assert!(answered.lines().all(|l| l.split(' ').count() == 2));
        let bare = run(2, Layout::Line { answer: false });
        let firsts: Vec<&str> = answered.lines().map(|l| &l[..16]).collect();
        assert_eq!(bare.lines().collect::<Vec<_>>(), firsts);
        assert!(run(1, Layout::Block).lines().count() > 300);
    }
}
