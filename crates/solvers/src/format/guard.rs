//! A reader that refuses an over-long line as soon as it passes the limit, so
//! no input, in any format, makes a parser buffer more than one bounded line;
//! and one that bounds a CSV record the same way, where a quoted field
//! carries it over line ends.

use std::io::{self, BufRead, Read};

/// The longest line any format needs, in bytes: a 64×64 puzzle and its
/// answer in numbers (about 24,000 bytes) with room for a comment.
pub const MAX_LINE_BYTES: usize = 32 * 1024;

/// The error a [`LineGuard`] returns, inside an [`io::Error`].
#[derive(Debug, thiserror::Error)]
#[error("line {line} is longer than {limit} bytes")]
pub struct LineTooLong {
    /// 1-based line.
    pub line: usize,
    /// The limit passed.
    pub limit: usize,
}

/// Wraps a reader; a line longer than `limit` bytes is an error of kind
/// `InvalidData` holding a [`LineTooLong`], raised before its bytes are handed on.
///
/// Each byte is checked once: what [`BufRead::fill_buf`] has checked past the
/// consumed position is remembered until it is consumed.
pub struct LineGuard<R> {
    inner: R,
    limit: usize,
    /// Line number and run of bytes since the last line feed, at the consumed position.
    line: usize,
    run: usize,
    /// Bytes past the consumed position already checked, and the line number
    /// and run at their end.
    ahead: usize,
    ahead_line: usize,
    ahead_run: usize,
}

impl<R: BufRead> LineGuard<R> {
    /// Guards `inner` with the given line limit.
    pub fn new(inner: R, limit: usize) -> Self {
        LineGuard {
            inner,
            limit,
            line: 1,
            run: 0,
            ahead: 0,
            ahead_line: 1,
            ahead_run: 0,
        }
    }
}

impl<R: BufRead> BufRead for LineGuard<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let limit = self.limit;
        let buf = self.inner.fill_buf()?;
        if self.ahead > buf.len() {
            // Not the buffer checked before (a reader may shrink it): start again.
            (self.ahead, self.ahead_line, self.ahead_run) = (0, self.line, self.run);
        }
        // Hand on bytes only up to the first one that would break the limit:
        // between line feeds (found with memchr) the run grows by the gap.
        let (mut line, mut run, mut start) = (self.ahead_line, self.ahead_run, self.ahead);
        let from = start;
        let feeds = memchr::memchr_iter(b'\n', &buf[from..]).map(move |p| p + from);
        for end in feeds.chain(std::iter::once(buf.len())) {
            let gap = end - start;
            if run + gap > limit {
                let i = start + (limit - run);
                if i == 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        LineTooLong { line, limit },
                    ));
                }
                (self.ahead, self.ahead_line, self.ahead_run) = (i, line, limit);
                return Ok(&buf[..i]);
            }
            if end == buf.len() {
                run += gap;
                break;
            }
            (line, run, start) = (line + 1, 0, end + 1);
        }
        (self.ahead, self.ahead_line, self.ahead_run) = (buf.len(), line, run);
        Ok(buf)
    }

    fn consume(&mut self, amt: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            let amt = amt.min(buf.len());
            let consumed = &buf[..amt];
            match memchr::memrchr(b'\n', consumed) {
                Some(last) => {
                    self.line += memchr::memchr_iter(b'\n', consumed).count();
                    self.run = amt - last - 1;
                }
                None => self.run += amt,
            }
            self.ahead = self.ahead.saturating_sub(amt);
            if self.ahead == 0 {
                (self.ahead_line, self.ahead_run) = (self.line, self.run);
            }
        }
        self.inner.consume(amt);
    }
}

impl<R: BufRead> Read for LineGuard<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.fill_buf()?;
        let n = buf.len().min(out.len());
        out[..n].copy_from_slice(&buf[..n]);
        self.consume(n);
        Ok(n)
    }
}

/// The error a [`RecordGuard`] returns, inside an [`io::Error`]: a CSV
/// record that a quoted field carries over line ends past the limit.
#[derive(Debug, thiserror::Error)]
#[error("a quoted field opened at line {line} column {column} is still open {lines} lines later, past {limit} bytes")]
pub struct FieldTooLong {
    /// 1-based line of the quote that opened the field.
    pub line: usize,
    /// 1-based column (in characters) of that quote.
    pub column: usize,
    /// Line ends the record had crossed when it passed the limit.
    pub lines: usize,
    /// The limit passed, in bytes.
    pub limit: usize,
}

/// Where a [`RecordGuard`] is in the CSV grammar (the `csv` crate's: a quote
/// opens a field only at its start, `""` inside one is a quote, a `#` at a
/// record's start opens a comment line).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Csv {
    RecordStart,
    FieldStart,
    Field,
    Quoted,
    QuoteInQuoted,
    Comment,
}

/// Wraps a CSV input; a record longer than `limit` bytes (only a quoted
/// field carries one over a line end: every line is bounded already) is an
/// error of kind `InvalidData` holding a [`FieldTooLong`], raised before its
/// bytes are handed on, so the CSV reader never holds more than `limit`
/// bytes of one record.
pub struct RecordGuard<R> {
    inner: R,
    limit: usize,
    state: Csv,
    /// 1-based line and column of the next byte.
    line: usize,
    column: usize,
    /// Bytes of the record so far, and the line it started on.
    run: usize,
    start_line: usize,
    /// Where the last quoted field opened.
    quote: (usize, usize),
}

impl<R: BufRead> RecordGuard<R> {
    /// Guards `inner` with the given record limit.
    pub fn new(inner: R, limit: usize) -> Self {
        RecordGuard {
            inner,
            limit,
            state: Csv::RecordStart,
            line: 1,
            column: 1,
            run: 0,
            start_line: 1,
            quote: (1, 1),
        }
    }

    /// Steps over one byte; false when it would take a record that spans
    /// lines past the limit (one line is the line guard's to bound).
    fn step(&mut self, b: u8) -> bool {
        if self.run >= self.limit && self.line > self.start_line {
            return false;
        }
        self.run += 1;
        let (line, column) = (self.line, self.column);
        if b == b'\n' {
            (self.line, self.column) = (self.line + 1, 1);
        } else if b & 0xC0 != 0x80 {
            self.column += 1;
        }
        use Csv::*;
        self.state = match (self.state, b) {
            (Comment, b'\n') => RecordStart,
            (Comment, _) => Comment,
            (RecordStart, b'#') => Comment,
            (RecordStart | FieldStart, b'"') => {
                self.quote = (line, column);
                Quoted
            }
            (Quoted, b'"') => QuoteInQuoted,
            (Quoted, _) => Quoted,
            (QuoteInQuoted, b'"') => Quoted,
            (_, b',') => FieldStart,
            (_, b'\n') => RecordStart,
            _ => Field,
        };
        if self.state == RecordStart {
            (self.run, self.start_line) = (0, self.line);
        }
        true
    }
}

impl<R: BufRead> Read for RecordGuard<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let buf = self.inner.fill_buf()?;
        if buf.is_empty() && !out.is_empty() && self.state == Csv::Quoted {
            // The input ends inside a quoted field: the records it swallowed
            // are not to be dropped in silence.
            let (line, column) = self.quote;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                FieldUnclosed { line, column },
            ));
        }
        let mut n = 0;
        // Stepped on the copy: `buf` borrows `inner`.
        let want = buf.len().min(out.len());
        out[..want].copy_from_slice(&buf[..want]);
        while n < want && self.step(out[n]) {
            n += 1;
        }
        if n == 0 && want > 0 {
            let (line, column) = self.quote;
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                FieldTooLong {
                    line,
                    column,
                    lines: self.line - self.start_line,
                    limit: self.limit,
                },
            ));
        }
        self.inner.consume(n);
        Ok(n)
    }
}

/// The error a [`RecordGuard`] returns, inside an [`io::Error`], where the
/// input ends inside a quoted field.
#[derive(Debug, thiserror::Error)]
#[error("a quoted field opened at line {line} column {column} is never closed")]
pub struct FieldUnclosed {
    /// 1-based line of the quote that opened the field.
    pub line: usize,
    /// 1-based column (in characters) of that quote.
    pub column: usize,
}

/// The [`FieldUnclosed`] inside an I/O error, if that is what it is.
pub fn field_unclosed(e: &io::Error) -> Option<&FieldUnclosed> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<FieldUnclosed>())
}

/// The [`FieldTooLong`] inside an I/O error, if that is what it is.
pub fn field_too_long(e: &io::Error) -> Option<&FieldTooLong> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<FieldTooLong>())
}

/// The [`LineTooLong`] inside an I/O error, if that is what it is.
pub fn too_long(e: &io::Error) -> Option<&LineTooLong> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<LineTooLong>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// All of `input` through a record guard of `limit`, or the error's line, column and line ends.
    fn through(input: &[u8], limit: usize) -> Result<Vec<u8>, (usize, usize, usize)> {
        let mut guard = RecordGuard::new(io::BufReader::with_capacity(7, input), limit);
        let mut got = Vec::new();
        match guard.read_to_end(&mut got) {
            Ok(_) => Ok(got),
            Err(e) => {
                let f = field_too_long(&e).expect("a field too long");
                Err((f.line, f.column, f.lines))
            }
        }
    }

    #[test]
    fn a_quoted_field_over_line_ends_is_bounded_as_a_line_is() {
        // Within the bound, quoted line ends pass; one line is the line guard's.
        let fine =
            b"puzzle,note\n1.2,\"two\nlines\"\n3.4,\"a \"\"quote\"\"\"\n0123456789abcdefghij\n";
        assert_eq!(through(fine, 16).unwrap(), fine);
        // Left open: refused at the limit, naming the quote that opened it.
        let mut open = b"puzzle,note\n1.2,\"".to_vec();
        open.extend(b"ab\n".repeat(100));
        assert_eq!(through(&open, 10), Err((2, 5, 1)));
        // A quote inside a field opens nothing, nor one in a comment line.
        let literal = b"puzzle\n12\"3\n# it's \"quoted\n45\n".repeat(20);
        assert_eq!(through(&literal, 10).unwrap(), literal);
    }

    #[test]
    fn a_quoted_field_the_input_ends_inside_is_an_error() {
        let mut guard = RecordGuard::new(&b"puzzle\n12\n\"34\n56\n"[..], 1000);
        let e = guard.read_to_end(&mut Vec::new()).unwrap_err();
        let f = field_unclosed(&e).expect("a field never closed");
        assert_eq!((f.line, f.column), (3, 1));
        // Closed on the last byte: no error.
        let mut guard = RecordGuard::new(&b"puzzle\n\"34\n56\""[..], 1000);
        assert!(guard.read_to_end(&mut Vec::new()).is_ok());
    }

    proptest! {
        #[test]
        fn hands_on_every_byte_before_the_first_long_line_and_names_it(
            lines in proptest::collection::vec(0usize..14, 0..12),
            capacity in 1usize..20,
            limit in 1usize..10,
            end in any::<bool>(),
        ) {
            let mut input = Vec::new();
            for (i, &n) in lines.iter().enumerate() {
                input.extend(std::iter::repeat_n(b'a' + (i % 26) as u8, n));
                if i + 1 < lines.len() || end {
                    input.push(b'\n');
                }
            }
            // What a line-by-line check says: the bytes before the first
            // byte past the limit, and that line's 1-based number.
            let first_long = lines.iter().position(|&n| n > limit);
            let upto = match first_long {
                Some(k) => lines[..k].iter().map(|n| n + 1).sum::<usize>() + limit,
                None => input.len(),
            };
            let inner = io::BufReader::with_capacity(capacity, &input[..]);
            let mut guard = LineGuard::new(inner, limit);
            let mut got = Vec::new();
            let mut chunk = [0u8; 5];
            let failed = loop {
                match guard.read(&mut chunk) {
                    Ok(0) => break None,
                    Ok(n) => got.extend_from_slice(&chunk[..n]),
                    Err(e) => break Some(too_long(&e).expect("a long line").line),
                }
            };
            prop_assert_eq!(&got[..], &input[..upto]);
            prop_assert_eq!(failed, first_long.map(|k| k + 1));
        }
    }
}
