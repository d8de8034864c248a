//! What follows a puzzle's token on its line, in the line and pencilmark
//! formats alike: an answer (a token of the grid's cell count, all symbols),
//! or a comment; and the characters that separate tokens.

use super::{Alphabet, Collector, Puzzle};
use crate::error::ParseErrorKind;
use crate::grid::Grid;

/// True for a character that separates a line's tokens.
pub(super) fn is_separator(c: char) -> bool {
    c.is_whitespace() || matches!(c, ',' | ';' | ':')
}

/// Symbols of a grid's alphabet alone, this many or more, after a puzzle:
/// an answer meant, of the wrong length (an error), never a comment.
const ANSWER_LIKE: usize = 5;

/// Pushes a puzzle read from a line, with what follows its token (`rest`,
/// starting at 1-based column `start`): an answer (a token of the grid's
/// cell count, all symbols) or a comment.
pub(super) fn push_with_rest(
    grid: Grid,
    rest: &str,
    start: usize,
    alphabet: &Alphabet,
    line: usize,
    col: &mut Collector<'_, '_>,
) {
    let ascii = rest.is_ascii();
    let count = |s: &str| if ascii { s.len() } else { s.chars().count() };
    let cells = grid.geometry().cells();
    let mut expected = None;
    let mut answer_span = None;
    for tok in rest.split(is_separator).filter(|t| !t.is_empty()) {
        if tok.starts_with('#') {
            // A comment: the rest of the line is its.
            break;
        }
        let at = tok.as_ptr() as usize - rest.as_ptr() as usize;
        let symbols = tok.chars().all(|c| alphabet.decode(c).is_some());
        if symbols && count(tok) != cells && count(tok) >= ANSWER_LIKE {
            col.error(
                line,
                start + count(&rest[..at]),
                ParseErrorKind::AnswerMismatch(format!(
                    "a token of {} symbols after the puzzle, expected an answer of {cells} \
                     (a comment starts with `#` or holds other characters)",
                    count(tok)
                )),
            );
            return;
        }
        if count(tok) != cells || !symbols {
            continue;
        }
        let tok_col = start + count(&rest[..at]);
        let answer = col.decode(alphabet, tok.chars().map(|c| (0, c)), line);
        match answer.and_then(|a| col.answer(&grid, &a, line, tok_col)) {
            Some(a) => {
                expected = Some(a);
                answer_span = Some((at, at + tok.len()));
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
