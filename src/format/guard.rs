//! A reader that refuses an over-long line as soon as it passes the limit, so
//! no input, in any format, makes a parser buffer more than one bounded line.

use std::io::{self, BufRead, Read};

/// The longest line any format needs, in bytes: a 25×25 puzzle and its answer
/// (1,251 symbols) with room for separators and a comment.
pub const MAX_LINE_BYTES: usize = 4096;

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
pub struct LineGuard<R> {
    inner: R,
    limit: usize,
    line: usize,
    run: usize,
}

impl<R: BufRead> LineGuard<R> {
    /// Guards `inner` with the given line limit.
    pub fn new(inner: R, limit: usize) -> Self {
        LineGuard {
            inner,
            limit,
            line: 1,
            run: 0,
        }
    }
}

impl<R: BufRead> BufRead for LineGuard<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        let (limit, line, run) = (self.limit, self.line, self.run);
        let buf = self.inner.fill_buf()?;
        // Hand on bytes only up to the first one that would break the limit.
        let mut run_here = run;
        let mut lines = 0;
        for (i, &b) in buf.iter().enumerate() {
            if b == b'\n' {
                run_here = 0;
                lines += 1;
            } else {
                run_here += 1;
                if run_here > limit {
                    if i == 0 {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            LineTooLong {
                                line: line + lines,
                                limit,
                            },
                        ));
                    }
                    return Ok(&buf[..i]);
                }
            }
        }
        Ok(buf)
    }

    fn consume(&mut self, amt: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            for &b in &buf[..amt.min(buf.len())] {
                if b == b'\n' {
                    self.line += 1;
                    self.run = 0;
                } else {
                    self.run += 1;
                }
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
