//! Telling an input's format from its first bytes.

use super::{block, line, Alphabet, Format};
use crate::error::ParseErrorKind;
use crate::grid::Geometry;

/// Tells the format from the first bytes of an input.
pub(super) fn detect_format(head: &[u8]) -> Result<Format, (usize, usize, ParseErrorKind)> {
    // Only whole lines that are valid UTF-8 take part; a bad line is reported by the reader.
    let text = String::from_utf8_lossy(head);
    let mut content = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        // `solve`'s answers are told by their solutions.
        .map(|(i, l)| (i, super::result_rest(l).unwrap_or(l)))
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((first_no, first)) = content.next() else {
        return Ok(Format::Line); // empty input: the line reader reports it as empty
    };
    let token_of = |l: &str| {
        l.trim_start()
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':'))
            .next()
            .map_or(0, |t| t.chars().count())
    };
    let token_len = token_of(first);
    // A CSV header names its columns before any comment; a comment never
    // decides the format (a hunt's line ends `# ratio 9.92: a 585 nodes, b
    // 59 nodes; from h2/puzzles.txt:4`), and a line that opens with a
    // puzzle is no header.
    let lower = first.split('#').next().unwrap_or("").to_ascii_lowercase();
    let opens_with_cells = matches!(token_len, 81 | 256 | 625 | 1296 | 64 | 729 | 4096 | 15625);
    if lower.contains(',')
        && (lower.contains("quizzes") || lower.contains("puzzle"))
        && !opens_with_cells
    {
        return Ok(Format::Csv);
    }
    // A CSV of one column has no comma: its header is the column's name alone.
    if matches!(
        lower.trim().trim_matches('"').trim(),
        "quizzes" | "quiz" | "puzzle" | "puzzles"
    ) {
        return Ok(Format::Csv);
    }
    // A bad first entry must not hide a file of one puzzle per line.
    if content
        .clone()
        .take(32)
        .any(|(_, l)| matches!(token_of(l), 81 | 256 | 625 | 1296 | 729))
    {
        return Ok(Format::Line);
    }
    // A grid's cells as numbers separated by spaces (9x9 and up; with its answer, twice as many).
    let cells_line = |l: &str| {
        let k = l.split('#').next().unwrap_or("").split_whitespace().count();
        k >= 81 && (Geometry::from_cells(k).is_some() || Geometry::from_cells(k / 2).is_some())
    };
    if line::is_numbers_line(first.trim_start()) && cells_line(first) {
        return Ok(Format::Line);
    }
    match token_len {
        // Cells, or pencilmarks (n³ characters: 64, 729, 4096, 15625).
        81 | 256 | 625 | 1296 | 64 | 729 | 4096 | 15625 => return Ok(Format::Line),
        16 => {
            // A 4x4 puzzle per line, or a row of a 16x16 block?
            let g4 = Geometry::new(2).expect("4x4");
            let a4 = Alphabet::default_for(g4);
            let outside_4x4 = first.chars().any(|c| a4.decode(c).is_none());
            let rows = 1 + content
                .clone()
                .take_while(|(no, l)| *no <= first_no + 16 && l.trim().chars().count() == 16)
                .count();
            return Ok(if outside_4x4 && rows >= 16 {
                Format::Block
            } else {
                Format::Line
            });
        }
        _ => {}
    }
    let tokens: Vec<&str> = first.split_whitespace().filter(|t| *t != "|").collect();
    if tokens.len() > 1
        && Geometry::from_side(tokens.len()).is_some()
        && (first.contains('?')
            || tokens.len() > 36
            || tokens
                .iter()
                .any(|t| t.len() > 1 && t.parse::<u8>().is_ok()))
    {
        return Ok(Format::Hdu);
    }
    let symbols = block::row_symbols(first).len();
    if Geometry::from_side(symbols).is_some() || block::is_rule_line(first, None) {
        return Ok(Format::Block);
    }
    Err((
        first_no,
        1,
        ParseErrorKind::UnknownFormat(format!(
            "found a line of {token_len} symbols, expected a puzzle per line (16, 81, 256, 625 or 1296 symbols, \
             or a grid's cells as numbers separated by spaces), a CSV header with a `quizzes` or `puzzle` column, \
             or a block row of 4, 9, 16, 25 or 36 symbols (49 or 64 numbers)"
        )),
    ))
}
