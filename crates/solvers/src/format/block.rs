//! Block format (rows of symbols, optional spaces, `|` and rule lines) and
//! HDU 1426 (rows of space-separated symbols, `?` for blanks). Puzzles are
//! separated by blank lines. At every size a block may also be written as
//! numbers separated by spaces (`.` or `0` a blank): a block whose rows are
//! such numbers, some of two digits (or rows of more than 36), is read as
//! numbers, in either form; 49×49 and 64×64 blocks can only be written so.

use super::lines::Lines;
use super::{Collector, Puzzle};
use crate::error::ParseErrorKind;
use crate::grid::{Geometry, Grid};
use std::io::{self, BufRead};

/// A row's symbols with their 1-based columns (spaces and `|` left out).
pub(crate) fn row_symbols(line: &str) -> Vec<(usize, String)> {
    line.chars()
        .enumerate()
        .filter(|(_, c)| !c.is_whitespace() && *c != '|')
        .map(|(i, c)| (i + 1, c.to_string()))
        .collect()
}

/// Space-separated tokens with their 1-based columns (HDU style; `|` left out).
fn row_tokens(line: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, c) in line.chars().enumerate() {
        if c.is_whitespace() || c == '|' {
            out.extend(current.take());
        } else {
            current
                .get_or_insert_with(|| (i + 1, String::new()))
                .1
                .push(c);
        }
    }
    out.extend(current);
    out
}

/// A separator line like `------+-------+------`. A line of only dashes is a
/// row of blanks when it has exactly `side` of them (or, with no side known
/// yet, a supported side), and a rule otherwise.
pub(crate) fn is_rule_line(line: &str, side: Option<usize>) -> bool {
    let body: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    if body.is_empty() || !body.iter().all(|c| matches!(c, '-' | '+' | '=' | '|')) {
        return false;
    }
    if body.iter().any(|c| matches!(c, '+' | '=')) {
        return true;
    }
    let dashes = body.iter().filter(|&&c| c == '-').count();
    match side {
        Some(n) => dashes != n,
        None => Geometry::from_side(dashes).is_none(),
    }
}

struct Row {
    line: usize,
    /// The row's cells: its symbols, or its tokens in HDU style and (for
    /// now) rows of more than 36 cells.
    symbols: Vec<(usize, String)>,
    /// Its space-separated tokens, when they could be a row of numbers.
    numbers: Option<Vec<(usize, String)>>,
}

/// True when a token is a cell written as a number: digits, or a blank.
fn is_number_cell(t: &str) -> bool {
    t.len() <= 2 && (t.bytes().all(|b| b.is_ascii_digit()) || t == ".")
}

/// The block's side when it is numbers: `side` rows, each `side` numbers
/// separated by spaces, with a number of two digits among them or a side
/// over 36 (else a row of one-character symbols reads the same either way).
fn as_numbers(rows: &[Row]) -> Option<usize> {
    let side = rows.first()?.numbers.as_ref()?.len();
    Geometry::from_side(side)?;
    if rows.len() != side {
        return None;
    }
    let mut wide = side > 36;
    for row in rows {
        let tokens = row.numbers.as_ref()?;
        if tokens.len() != side {
            return None;
        }
        wide |= tokens.iter().any(|t| t.1.len() > 1 && t.1 != ".");
    }
    wide.then_some(side)
}

pub(crate) fn parse<R: BufRead>(
    input: R,
    col: &mut Collector<'_, '_>,
    hdu: bool,
) -> io::Result<()> {
    let mut lines = Lines::new(input);
    let mut rows: Vec<Row> = Vec::new();
    let mut last_line = 0;
    while let Some(raw) = lines.next_line()? {
        if col.stopped() {
            return Ok(());
        }
        last_line = raw.number;
        let text = match raw.text {
            Ok(t) => t,
            Err(column) => {
                col.error(raw.number, column, ParseErrorKind::NotUtf8);
                continue;
            }
        };
        let trimmed = text.trim();
        // A verdict `solve` wrote above its block (or with no solution) ends the one before.
        if trimmed.is_empty() || super::result_rest(text).is_some() {
            finish_block(std::mem::take(&mut rows), raw.number, col);
            continue;
        }
        if trimmed.starts_with('#') {
            continue;
        }
        let side = rows.first().map(|r| r.symbols.len());
        if is_rule_line(text, side) {
            continue;
        }
        let symbols = if hdu {
            row_tokens(text)
        } else {
            // Rows of more than 36 cells can only be numbers separated by spaces.
            let tokens = row_tokens(text);
            if tokens.len() > 36 && Geometry::from_side(tokens.len()).is_some() {
                tokens
            } else {
                row_symbols(text)
            }
        };
        let tokens = row_tokens(text);
        let numbers = tokens
            .iter()
            .all(|t| is_number_cell(&t.1))
            .then_some(tokens);
        rows.push(Row {
            line: raw.number,
            symbols,
            numbers,
        });
    }
    finish_block(rows, last_line + 1, col);
    Ok(())
}

fn finish_block(mut rows: Vec<Row>, end_line: usize, col: &mut Collector<'_, '_>) {
    let Some(first) = rows.first() else { return };
    if as_numbers(&rows).is_some() {
        finish_numbers(rows, col);
        return;
    }
    if rows.iter().all(|r| r.numbers.is_some())
        && Geometry::from_side(first.symbols.len()).is_none()
    {
        // Not one-character symbols: read as numbers, whose rows then say what is wrong.
        for r in &mut rows {
            r.symbols = r.numbers.take().unwrap_or_default();
        }
    }
    let first = &rows[0];
    let side = first.symbols.len();
    let Some(geometry) = Geometry::from_side(side) else {
        col.error(
            first.line,
            first.symbols.first().map_or(1, |s| s.0),
            ParseErrorKind::WrongLength {
                found: side,
                expected: "rows of 4, 9, 16, 25 or 36 symbols, or 49 or 64 numbers".into(),
            },
        );
        return;
    };
    if !square(&rows, end_line, col) {
        return;
    }
    let sample: String = rows
        .iter()
        .flat_map(|r| r.symbols.iter().map(|s| s.1.as_str()))
        .collect();
    let Some(alphabet) = col.alphabet_for(geometry, &sample, first.line, 1) else {
        return;
    };
    let mut cells = Vec::with_capacity(geometry.cells());
    for row in &rows {
        for (column, sym) in &row.symbols {
            // A multi-character token is a number (HDU style and numbers rows).
            match alphabet.decode_token(sym) {
                Some(super::Symbol::Blank) => cells.push(0),
                Some(super::Symbol::Digit(d)) => cells.push(d),
                None => {
                    let mut chars = sym.chars();
                    let kind = match (chars.next(), chars.next()) {
                        (Some(c), None) if !alphabet.is_numbers() => {
                            ParseErrorKind::UnknownSymbol {
                                found: c,
                                expected: alphabet.describe(),
                            }
                        }
                        _ => ParseErrorKind::UnknownCell {
                            found: sym.clone(),
                            expected: alphabet.describe(),
                        },
                    };
                    col.error(row.line, *column, kind);
                    return;
                }
            }
        }
    }
    col.push(Puzzle {
        grid: Grid::from_cells(geometry, &cells).expect("decoded cells fit the geometry"),
        expected: None,
        comment: None,
        line: first.line as u32,
    });
}

/// True when `rows` are as many as each row has symbols; else says the
/// first row (or the row count) that is not, and gives false.
fn square(rows: &[Row], end_line: usize, col: &mut Collector<'_, '_>) -> bool {
    let side = rows[0].symbols.len();
    for row in rows {
        if row.symbols.len() != side {
            let column = row
                .symbols
                .get(side)
                .or(row.symbols.last())
                .map_or(1, |s| s.0 + usize::from(row.symbols.len() < side));
            col.error(
                row.line,
                column,
                ParseErrorKind::WrongRowLength {
                    found: row.symbols.len(),
                    expected: side,
                },
            );
            return false;
        }
    }
    if rows.len() != side {
        let line = if rows.len() > side {
            rows[side].line
        } else {
            end_line
        };
        col.error(
            line,
            1,
            ParseErrorKind::WrongRowCount {
                found: rows.len(),
                expected: side,
            },
        );
        return false;
    }
    true
}

/// Reads a block of numbers (see [`as_numbers`]): `1` to `n` a digit, `.` or `0` a blank.
fn finish_numbers(rows: Vec<Row>, col: &mut Collector<'_, '_>) {
    let side = rows[0].numbers.as_ref().map_or(0, Vec::len);
    let geometry = Geometry::from_side(side).expect("as_numbers checked the side");
    if col.alphabet_for(geometry, "", rows[0].line, 1).is_none() {
        return;
    }
    // Numbers in, numbers out: answers come back in the notation given.
    col.written_as_numbers(geometry);
    let mut cells = Vec::with_capacity(geometry.cells());
    for row in &rows {
        for (column, t) in row.numbers.iter().flatten() {
            match t.parse::<usize>() {
                Ok(v) if v <= side => cells.push(v as u8),
                Err(_) if t == "." => cells.push(0),
                _ => {
                    col.error(
                        row.line,
                        *column,
                        ParseErrorKind::UnknownCell {
                            found: t.clone(),
                            expected: format!("a number 1-{side} or a blank (. 0)"),
                        },
                    );
                    return;
                }
            }
        }
    }
    col.push(Puzzle {
        grid: Grid::from_cells(geometry, &cells).expect("numbers fit the geometry"),
        expected: None,
        comment: None,
        line: rows[0].line as u32,
    });
}
