//! Pencilmark (Sukaku) lines, tdoku's form: per cell, `n` characters, the
//! digit's own symbol where the candidate is allowed and a blank (`.`) where
//! it is excluded: 729 characters for 9×9 (`n³` for sides 4 to 25). A cell
//! left one candidate is a given; an answer of `n²` symbols or a comment may
//! follow, as on any line.

use super::alphabet::Symbol;
use super::{Alphabet, Collector};
use crate::error::ParseErrorKind;
use crate::grid::{Geometry, Grid};

/// The geometry whose pencilmark line has `len` characters (`n³`, sides 4 to 25).
pub(crate) fn geometry_of(len: usize) -> Option<Geometry> {
    Geometry::all()
        .take_while(|g| g.side() <= 25)
        .find(|g| g.side().pow(3) == len)
}

/// Reads the pencilmark `token` (ASCII, `len` characters at 1-based column
/// `at`) into a puzzle grid, or records what is wrong and returns `None`.
pub(crate) fn parse_token(
    token: &str,
    geometry: Geometry,
    alphabet: &Alphabet,
    (line, at): (usize, usize),
    col: &mut Collector<'_, '_>,
) -> Option<Grid> {
    let n = geometry.side();
    let mut marks = vec![0u64; geometry.cells()];
    for (k, c) in token.chars().enumerate() {
        let (cell, digit) = (k / n, (k % n) as u8 + 1);
        match alphabet.decode(c) {
            Some(Symbol::Digit(d)) if d == digit => marks[cell] |= 1 << (digit - 1),
            Some(Symbol::Blank) => {}
            _ => {
                col.error(
                    line,
                    at + k,
                    ParseErrorKind::UnknownSymbol {
                        found: c,
                        expected: format!(
                            "{:?} (candidate {digit} of cell r{}c{}) or a blank (.), as pencilmarks give each cell {n} characters",
                            alphabet.encode(digit),
                            geometry.row(cell) + 1,
                            geometry.col(cell) + 1
                        ),
                    },
                );
                return None;
            }
        }
    }
    Some(from_marks(geometry, marks))
}

/// A puzzle from its pencilmarks: a cell with one candidate is a given.
pub fn from_marks(geometry: Geometry, mut marks: Vec<u64>) -> Grid {
    let full = crate::grid::full_mask(geometry.side());
    marks.iter_mut().for_each(|m| *m &= full);
    let cells: Vec<u8> = marks
        .iter()
        .map(|&m| {
            if m.count_ones() == 1 {
                m.trailing_zeros() as u8 + 1
            } else {
                0
            }
        })
        .collect();
    Grid::from_vec(geometry, cells)
        .and_then(|g| g.with_marks(marks))
        .expect("one mask and one digit per cell")
}

/// Appends `grid`'s pencilmark form to `out`: per cell, each digit's symbol
/// where it may stand (a given only there) and `.` where it may not.
pub(crate) fn encode_into(grid: &Grid, alphabet: &Alphabet, out: &mut Vec<u8>) {
    let n = grid.geometry().side();
    for (cell, &given) in grid.cells().iter().enumerate() {
        let allowed = match given {
            0 => grid.allowed(cell),
            d => grid.allowed(cell) & 1 << (d - 1),
        };
        for d in 1..=n as u8 {
            out.push(if allowed & 1 << (d - 1) != 0 {
                alphabet.encode(d) as u8
            } else {
                b'.'
            });
        }
    }
}

/// Reads a pencilmark line's puzzle token and what follows it.
pub(crate) fn parse_line(
    body: &str,
    (token, lead): (&str, usize),
    line: usize,
    geometry: Geometry,
    col: &mut Collector<'_, '_>,
) {
    if !token.is_ascii() {
        let (i, c) = token
            .char_indices()
            .find(|(_, c)| !c.is_ascii())
            .expect("a non-ASCII character");
        col.error(
            line,
            lead + 1 + token[..i].chars().count(),
            ParseErrorKind::UnknownSymbol {
                found: c,
                expected: "a digit or a blank (.), as pencilmarks are written".into(),
            },
        );
        return;
    }
    let sample: String = token.chars().filter(|&c| c != '.').collect();
    let Some(alphabet) = col.alphabet_for(geometry, &sample, line, lead + 1) else {
        return;
    };
    let Some(grid) = parse_token(token, geometry, &alphabet, (line, lead + 1), col) else {
        return;
    };
    // After the puzzle: an answer (`n²` symbols) or a comment, as on any line.
    let rest = &body[token.len()..];
    super::rest::push_with_rest(grid, rest, lead + token.len() + 1, &alphabet, line, col);
}
