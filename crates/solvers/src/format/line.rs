//! One puzzle per line, with an optional comment or expected answer after it.
//! A puzzle is one token of `n²` symbols, or (for every size, and the only
//! way for 49×49 and 64×64) `n²` numbers separated by spaces, `.` or `0` for
//! a blank, optionally followed by `n²` more for its answer and a `#` comment.
//! A token of `n³` symbols is a pencilmark puzzle (see [`super::pencilmark`]).

use super::alphabet::BLANKS;
use super::lines::Lines;
use super::rest::{is_separator, push_with_rest};
use super::{Collector, Puzzle};
use crate::error::ParseErrorKind;
use crate::grid::{Geometry, Grid};
use std::io::{self, BufRead};

pub(crate) fn parse<R: BufRead>(input: R, col: &mut Collector<'_, '_>) -> io::Result<()> {
    parse_from(input, 1, col)
}

/// Parses lines numbered from `first` (a block of a larger input).
pub(crate) fn parse_from<R: BufRead>(
    input: R,
    first: usize,
    col: &mut Collector<'_, '_>,
) -> io::Result<()> {
    let mut lines = Lines::numbered_from(input, first);
    while let Some(raw) = lines.next_line()? {
        if col.stopped() {
            break;
        }
        let text = match raw.text {
            Ok(t) => t,
            Err(column) => {
                col.error(raw.number, column, ParseErrorKind::NotUtf8);
                continue;
            }
        };
        parse_one(text, raw.number, col);
    }
    Ok(())
}

fn parse_one(text: &str, line: usize, col: &mut Collector<'_, '_>) {
    // `solve`'s answers read back as their solutions.
    let body = super::result_rest(text).unwrap_or(text).trim_start();
    if body.is_empty() || body.starts_with('#') {
        return;
    }
    // Columns count characters; in ASCII text (the usual case) they are bytes.
    let ascii = text.is_ascii();
    let count = |s: &str| if ascii { s.len() } else { s.chars().count() };
    let lead = count(text) - count(body);
    let end = if ascii {
        // The same characters as `is_separator`, a byte at a time.
        body.bytes()
            .position(|b| matches!(b, b' ' | b'\t'..=b'\r' | b',' | b';' | b':'))
            .unwrap_or(body.len())
    } else {
        body.find(is_separator).unwrap_or(body.len())
    };
    let token = &body[..end];
    let len = count(token);
    if Geometry::from_cells(len).is_none() && is_numbers_line(body) {
        parse_numbers(body, lead, line, col);
        return;
    }
    if let Some(g) = super::pencilmark::geometry_of(len) {
        super::pencilmark::parse_line(body, (token, lead), line, g, col);
        return;
    }
    let Some(geometry) = Geometry::from_cells(len) else {
        col.error(
            line,
            lead + 1,
            ParseErrorKind::WrongLength {
                found: len,
                expected: "16, 81, 256, 625 or 1296 (a 4x4 to 36x36 grid), 729 (9x9 pencilmarks), or a grid's cells as numbers separated by spaces".into(),
            },
        );
        return;
    };
    let Some(alphabet) = col.alphabet_for(geometry, token, line, lead + 1) else {
        return;
    };
    let cells = if ascii {
        // One table lookup a byte; columns are counted only for an error.
        let mut cells = Vec::with_capacity(len);
        match alphabet.decode_ascii(token.as_bytes(), &mut cells) {
            Ok(()) => Some(cells),
            Err(i) => {
                // Records the unknown symbol at its column.
                let bad = token[i..].chars().map(|c| (lead + 1 + i, c)).take(1);
                col.decode(&alphabet, bad, line);
                None
            }
        }
    } else {
        col.decode(
            &alphabet,
            token.chars().enumerate().map(|(i, c)| (lead + 1 + i, c)),
            line,
        )
    };
    let Some(cells) = cells else {
        return;
    };
    let grid = Grid::from_vec(geometry, cells).expect("decoded cells fit the geometry");
    push_with_rest(grid, &body[end..], lead + len + 1, &alphabet, line, col);
}

/// True when a line's first token is a cell of a numbers row (a short
/// number or a blank) and at least a 4×4 grid's worth of tokens follow.
pub(crate) fn is_numbers_line(body: &str) -> bool {
    let cell =
        |t: &str| t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit() || BLANKS.contains(&b));
    let mut tokens = body.split_whitespace();
    tokens.next().is_some_and(cell) && tokens.take(15).count() == 15
}

/// Reads a numbers line: `n²` cells, or `2n²` (puzzle, then its answer),
/// before an optional `#` comment.
fn parse_numbers(body: &str, lead: usize, line: usize, col: &mut Collector<'_, '_>) {
    let (cells_text, comment) = match body.split_once('#') {
        Some((cells, comment)) => (cells, Some(comment.trim())),
        None => (body, None),
    };
    let ascii = body.is_ascii();
    let column = |t: &str| {
        let at = t.as_ptr() as usize - body.as_ptr() as usize;
        lead + 1
            + if ascii {
                at
            } else {
                body[..at].chars().count()
            }
    };
    let tokens: Vec<&str> = cells_text.split_whitespace().collect();
    let k = tokens.len();
    let (geometry, answered) = match (Geometry::from_cells(k), Geometry::from_cells(k / 2)) {
        (Some(g), _) => (g, false),
        (None, Some(g)) if k.is_multiple_of(2) => (g, true),
        _ => {
            col.error(
                line,
                lead + 1,
                ParseErrorKind::WrongLength {
                    found: k,
                    expected: "a grid's cells as numbers separated by spaces: 16, 81, 256, 625, 1296, 2401 or 4096 of them (twice that with the answer)".into(),
                },
            );
            return;
        }
    };
    if col.alphabet_for(geometry, "", line, lead + 1).is_none() {
        return;
    }
    col.written_as_numbers(geometry);
    let n = geometry.side();
    let mut cells = Vec::with_capacity(k);
    for t in &tokens {
        let value = if t.bytes().all(|b| b.is_ascii_digit()) {
            t.parse::<usize>().ok().filter(|&v| v <= n)
        } else if t.len() == 1 && BLANKS.contains(&t.as_bytes()[0]) {
            Some(0)
        } else {
            None
        };
        match value {
            Some(v) => cells.push(v as u8),
            None => {
                col.error(
                    line,
                    column(t),
                    ParseErrorKind::UnknownCell {
                        found: t.to_string(),
                        expected: format!("a number 1-{n} or a blank (. 0)"),
                    },
                );
                return;
            }
        }
    }
    let cells_n = geometry.cells();
    let grid = Grid::from_cells(geometry, &cells[..cells_n]).expect("numbers fit the geometry");
    let expected = if answered {
        match col.answer(&grid, &cells[cells_n..], line, column(tokens[cells_n])) {
            Some(a) => Some(a),
            None => return,
        }
    } else {
        None
    };
    col.push(Puzzle {
        grid,
        expected,
        comment: comment.filter(|c| !c.is_empty()).map(Into::into),
        line: line as u32,
    });
}
