//! A reader that refuses an over-long line as soon as it passes the limit, so
//! no input, in any format, makes a parser buffer more than one bounded line.

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

/// The [`LineTooLong`] inside an I/O error, if that is what it is.
pub fn too_long(e: &io::Error) -> Option<&LineTooLong> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<LineTooLong>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

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
