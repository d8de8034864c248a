//! A line-format input as blocks of whole lines, each parsed apart (on
//! `solve`'s workers, beside the solving) and put back together in input
//! order: the same puzzles, errors and counts as one reader's, with no
//! thread reading more than bytes and line ends.
//!
//! The first block that holds a puzzle fixes the size, the alphabet and the
//! notation ([`Fixed`]); every later block is read against them, as the
//! one reader reads every later line.

pub use super::collect::{Fixed, ParsedBlock};
use super::{line, Collector, Dataset, Format, ReadOptions};
use crate::error::{LoadError, ParseError};
use std::io::{BufRead, Read};

/// A run of whole lines of an input, and the number of its first line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineBlock {
    /// 1-based number of its first line.
    pub first_line: usize,
    /// Its lines, each with its line end (the last may have none).
    pub text: Vec<u8>,
}

/// Reads `reader` as blocks of whole lines of about `size` bytes (the
/// first of at most 16 KiB, so that it is parsed soon), handing each to
/// `each`, which says false to stop. Every byte passes the line guard, as
/// in every reader. `Ok(false)`: the input is not in the line format, and
/// nothing past its head was read.
pub fn read_line_blocks<R: Read>(
    source_name: &str,
    reader: R,
    opts: &ReadOptions,
    size: usize,
    each: &mut dyn FnMut(LineBlock) -> bool,
) -> Result<bool, LoadError> {
    let (format, mut input) = super::open_detected(source_name, reader, opts)?;
    if format != Format::Line {
        return Ok(false);
    }
    let failed = |e| super::too_long(source_name, e);
    let (mut first_line, mut want) = (1, size.clamp(1, 16 << 10));
    let mut text: Vec<u8> = Vec::with_capacity(want + 1024);
    loop {
        // Whole lines up to `want` bytes, or one line longer than that.
        let mut end = false;
        while text.len() < want {
            let buf = input.fill_buf().map_err(failed)?;
            if buf.is_empty() {
                end = true;
                break;
            }
            let take = buf.len().min(want - text.len());
            text.extend_from_slice(&buf[..take]);
            input.consume(take);
        }
        if !end && !text.ends_with(b"\n") {
            // The rest of the line the block ends in.
            input.read_until(b'\n', &mut text).map_err(failed)?;
        }
        if text.is_empty() {
            return Ok(true);
        }
        let lines = text.iter().filter(|&&b| b == b'\n').count();
        let block = LineBlock {
            first_line,
            text: std::mem::replace(&mut text, Vec::with_capacity(size + 1024)),
        };
        first_line += lines;
        want = size.max(1);
        if !each(block) || end {
            return Ok(true);
        }
    }
}

/// Parses one block, against what earlier blocks `fixed` (none for the
/// first): a bad entry ends its parse unless bad entries are skipped.
pub fn parse_block(
    source_name: &str,
    block: &LineBlock,
    opts: &ReadOptions,
    fixed: Option<&Fixed>,
) -> ParsedBlock {
    let mut col = Collector::for_block(source_name, opts, fixed);
    // Reading from memory cannot fail, and its lines are bounded already.
    let _ = line::parse_from(&block.text[..], block.first_line, &mut col);
    col.into_block()
}

/// Blocks' parses put together in input order: what the whole input came to.
pub struct Blocks<'a> {
    source_name: &'a str,
    opts: &'a ReadOptions,
    errors: Vec<ParseError>,
    total_errors: usize,
    count: usize,
    pencilmarks: usize,
    fixed: Option<Fixed>,
}

impl<'a> Blocks<'a> {
    /// Nothing read yet of `source_name`.
    pub fn new(source_name: &'a str, opts: &'a ReadOptions) -> Self {
        Blocks {
            source_name,
            opts,
            errors: Vec::new(),
            total_errors: 0,
            count: 0,
            pencilmarks: 0,
            fixed: None,
        }
    }

    /// Adds the next block's parse; false once the read has failed (a bad
    /// entry, unless they are skipped: the first is the read's error).
    pub fn add(&mut self, b: &ParsedBlock) -> bool {
        if self.failed() {
            return false;
        }
        // Skipping, every bad entry counts and the first few are listed;
        // otherwise the first ends the read, as it ends one reader's.
        let skip = self.opts.skip_invalid;
        let listed = if skip {
            self.opts.max_listed_errors.max(1)
        } else {
            1
        };
        let room = listed.saturating_sub(self.errors.len());
        self.errors.extend(b.errors.iter().take(room).cloned());
        self.total_errors += if skip {
            b.total_errors
        } else {
            b.total_errors.min(1)
        };
        self.count += b.count;
        self.pencilmarks += b.pencilmarks;
        if self.fixed.is_none() {
            self.fixed.clone_from(&b.fixed);
        }
        !self.failed()
    }

    /// True once a bad entry failed the read.
    pub fn failed(&self) -> bool {
        self.total_errors > 0 && !self.opts.skip_invalid
    }

    /// The input's dataset (its puzzles handed on, none kept), or why it
    /// does not read, as the one reader says it.
    pub fn finish(self) -> Result<Dataset, LoadError> {
        let name = self.source_name.to_string();
        let read = (self.errors, self.total_errors, self.count);
        let fixed = super::collect::read_end(&name, self.opts, read, self.fixed)?;
        Ok(Dataset {
            name: name.clone(),
            source: name,
            geometry: fixed.geometry,
            format: Format::Line,
            alphabet: fixed.alphabet,
            puzzles: Vec::new(),
            skipped: self.total_errors,
            count: self.count,
            pencilmarks: self.pencilmarks,
        })
    }
}
