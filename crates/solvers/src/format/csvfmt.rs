//! Kaggle-style CSV: a header naming a puzzle column (`quizzes` or `puzzle`)
//! and optionally an answer column (`solutions` or `solution`).

use super::{Collector, Puzzle};
use crate::error::ParseErrorKind;
use crate::grid::{Geometry, Grid};
use std::io::{self, BufRead};

fn find(headers: &csv::StringRecord, names: &[&str]) -> Option<usize> {
    headers
        .iter()
        .position(|h| names.iter().any(|n| h.trim().eq_ignore_ascii_case(n)))
}

/// 1-based column where field `idx` starts (fields assumed unquoted).
fn field_column(record: &csv::StringRecord, idx: usize) -> usize {
    1 + record
        .iter()
        .take(idx)
        .map(|f| f.chars().count() + 1)
        .sum::<usize>()
}

pub(crate) fn parse<R: BufRead>(input: R, col: &mut Collector<'_, '_>) -> io::Result<()> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .comment(Some(b'#'))
        // A quoted field may carry a record over line ends: bounded as a line is.
        .from_reader(super::guard::RecordGuard::new(
            input,
            super::guard::MAX_LINE_BYTES,
        ));
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => return csv_error(col, e),
    };
    let header_line = reader.position().line().max(1) as usize;
    let Some(puzzle_idx) = find(&headers, &["quizzes", "puzzle", "puzzles", "quiz"]) else {
        col.error(
            header_line,
            1,
            ParseErrorKind::Csv(
                "missing a puzzle column: expected a header naming `quizzes` or `puzzle`".into(),
            ),
        );
        return Ok(());
    };
    let answer_idx = find(&headers, &["solutions", "solution"]);
    let mut record = csv::StringRecord::new();
    while !col.stopped() {
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                if matches!(e.kind(), csv::ErrorKind::Io(_)) {
                    return Err(into_io(e));
                }
                csv_error(col, e)?;
                continue;
            }
        }
        let line = record.position().map_or(0, |p| p.line()) as usize;
        let Some(text) = record.get(puzzle_idx) else {
            col.error(
                line,
                field_column(&record, record.len()),
                ParseErrorKind::Csv(format!(
                    "found {} fields, expected a puzzle in field {}",
                    record.len(),
                    puzzle_idx + 1
                )),
            );
            continue;
        };
        let column = field_column(&record, puzzle_idx);
        let len = text.chars().count();
        let Some(geometry) = Geometry::from_cells(len) else {
            col.error(
                line,
                column,
                ParseErrorKind::WrongLength {
                    found: len,
                    expected: "16, 81, 256 or 625 (a 4x4, 9x9, 16x16 or 25x25 grid)".into(),
                },
            );
            continue;
        };
        let Some(alphabet) = col.alphabet_for(geometry, text, line, column) else {
            continue;
        };
        let Some(cells) = col.decode(
            &alphabet,
            text.chars().enumerate().map(|(i, c)| (column + i, c)),
            line,
        ) else {
            continue;
        };
        let grid = Grid::from_cells(geometry, &cells).expect("decoded cells fit the geometry");
        let mut expected = None;
        // An empty answer field is no answer (`rate` leaves it empty where a
        // puzzle has none or several).
        let answer = answer_idx.and_then(|i| record.get(i));
        if let Some(answer) = answer.filter(|a| !a.trim().is_empty()) {
            let acol = field_column(&record, answer_idx.unwrap_or(0));
            let decoded = col.decode(
                &alphabet,
                answer.chars().enumerate().map(|(i, c)| (acol + i, c)),
                line,
            );
            match decoded.and_then(|a| col.answer(&grid, &a, line, acol)) {
                Some(a) => expected = Some(a),
                None => continue,
            }
        }
        col.push(Puzzle {
            grid,
            expected,
            comment: None,
            line: line as u32,
        });
    }
    Ok(())
}

/// The I/O error inside a CSV error (kept whole: it may be an over-long line).
fn into_io(e: csv::Error) -> io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(io) => io,
        other => io::Error::other(format!("{other:?}")),
    }
}

fn csv_error(col: &mut Collector<'_, '_>, e: csv::Error) -> io::Result<()> {
    let (line, msg) = match e.kind() {
        csv::ErrorKind::Utf8 { pos, .. } => {
            col.error(
                pos.as_ref().map_or(1, |p| p.line() as usize),
                1,
                ParseErrorKind::NotUtf8,
            );
            return Ok(());
        }
        csv::ErrorKind::Io(_) => return Err(into_io(e)),
        _ => (e.position().map_or(1, |p| p.line() as usize), e.to_string()),
    };
    col.error(line, 1, ParseErrorKind::Csv(msg));
    Ok(())
}
