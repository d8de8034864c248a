//! Line-by-line reading with 1-based numbers and per-line UTF-8 checks.

use std::io::{self, BufRead};

/// One line of input: its number and either its text or the 1-based column
/// of the first byte that is not UTF-8 (borrowed until the next line is read).
pub(crate) struct RawLine<'a> {
    pub number: usize,
    pub text: Result<&'a str, usize>,
}

/// Streams lines without holding the whole input in memory.
pub(crate) struct Lines<R> {
    inner: R,
    number: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> Lines<R> {
    pub(crate) fn new(inner: R) -> Self {
        Lines::numbered_from(inner, 1)
    }

    /// Lines numbered from `first` (a block that starts part way into its input).
    pub(crate) fn numbered_from(inner: R, first: usize) -> Self {
        Lines {
            inner,
            number: first.saturating_sub(1),
            buf: Vec::with_capacity(256),
        }
    }

    /// The next line without its line ending, or `None` at the end.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<RawLine<'_>>> {
        self.buf.clear();
        if self.inner.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(None);
        }
        self.number += 1;
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        let text = match std::str::from_utf8(&self.buf) {
            Ok(s) => Ok(s),
            Err(e) => {
                let valid = std::str::from_utf8(&self.buf[..e.valid_up_to()]).unwrap_or("");
                Err(valid.chars().count() + 1)
            }
        };
        Ok(Some(RawLine {
            number: self.number,
            text,
        }))
    }
}
