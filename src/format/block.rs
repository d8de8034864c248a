//! Block format (rows of symbols, optional spaces, `|` and rule lines) and
//! HDU 1426 (rows of space-separated symbols, `?` for blanks). Puzzles are
//! separated by blank lines. 49×49 and 64×64 rows are numbers separated by
//! spaces, in either.

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
    symbols: Vec<(usize, String)>,
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
        if trimmed.is_empty() {
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
        rows.push(Row {
            line: raw.number,
            symbols,
        });
    }
    finish_block(rows, last_line + 1, col);
    Ok(())
}

fn finish_block(rows: Vec<Row>, end_line: usize, col: &mut Collector<'_, '_>) {
    let Some(first) = rows.first() else { return };
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
    for row in &rows {
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
            return;
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
