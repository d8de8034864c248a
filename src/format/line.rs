//! One puzzle per line, with an optional comment or expected answer after it.

use super::lines::Lines;
use super::{Collector, Puzzle};
use crate::error::ParseErrorKind;
use crate::grid::{Geometry, Grid};
use std::io::{self, BufRead};

fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | ':')
}

pub(crate) fn parse<R: BufRead>(input: R, col: &mut Collector<'_, '_>) -> io::Result<()> {
    let mut lines = Lines::new(input);
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
    let body = text.trim_start();
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
    let Some(geometry) = Geometry::from_cells(len) else {
        col.error(
            line,
            lead + 1,
            ParseErrorKind::WrongLength {
                found: len,
                expected: "16, 81, 256 or 625 (a 4x4, 9x9, 16x16 or 25x25 grid)".into(),
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

    // After the puzzle: an answer (a token of the same length made of symbols) or a comment.
    let rest = &body[end..];
    let rest_start = lead + len + 1; // 1-based column of rest's first char
    let mut expected = None;
    let mut answer_span = None;
    for tok in rest.split(is_separator).filter(|t| !t.is_empty()) {
        let start = tok.as_ptr() as usize - rest.as_ptr() as usize;
        let tok_col = rest_start + count(&rest[..start]);
        if count(tok) != len || !tok.chars().all(|c| alphabet.decode(c).is_some()) {
            continue;
        }
        let answer = col.decode(&alphabet, tok.chars().map(|c| (0, c)), line);
        match answer.and_then(|a| col.answer(&grid, &a, line, tok_col)) {
            Some(a) => {
                expected = Some(a);
                answer_span = Some((start, start + tok.len()));
            }
            None => return,
        }
        break;
    }
    // What is left beside the answer (no allocation when there is no answer).
    let joined;
    let left = match answer_span {
        Some((a, b)) => {
            joined = format!("{}{}", &rest[..a], &rest[b..]);
            joined.as_str()
        }
        None => rest,
    };
    let left = left.trim_matches(is_separator);
    let comment = (!left.is_empty()).then(|| left.into());
    col.push(Puzzle {
        grid,
        expected,
        comment,
        line: line as u32,
    });
}
