//! Writing grids: one line, pencilmark form, pretty blocks; and a grid's `Debug`.

use super::{pencilmark, Alphabet};
use crate::grid::Grid;
use std::fmt;

/// Appends `grid`'s pencilmark form (`n³` symbols, `.` where a candidate is
/// excluded) to `out`.
pub fn encode_pencilmarks(grid: &Grid, alphabet: &Alphabet, out: &mut Vec<u8>) {
    pencilmark::encode_into(grid, alphabet, out);
}

/// Writes a grid on one line, `.` for blanks; a pencilmark puzzle in its
/// pencilmark form (`n³` characters).
pub fn write_line(grid: &Grid, alphabet: &Alphabet) -> String {
    let mut out = String::with_capacity(grid.cells().len());
    write_line_into(&mut out, grid, alphabet);
    out
}

/// Replaces the contents of `out` with the grid on one line (reusing its buffer).
pub fn write_line_into(out: &mut String, grid: &Grid, alphabet: &Alphabet) {
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.clear();
    append_line(&mut bytes, grid, alphabet);
    // Every symbol is ASCII, so this never takes the lossy path.
    *out = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// Appends the grid on one line (no newline) to `out`: the bytes of [`write_line`].
pub fn append_line(out: &mut Vec<u8>, grid: &Grid, alphabet: &Alphabet) {
    if grid.is_pencilmark() && !alphabet.is_numbers() {
        pencilmark::encode_into(grid, alphabet, out);
    } else {
        alphabet.encode_into(grid.cells(), out);
    }
}

/// Writes a grid as a pretty block: spaces between cells, `|` between boxes,
/// rule lines between bands (numbers right-aligned in sides past 36).
pub fn write_block(grid: &Grid, alphabet: &Alphabet) -> String {
    let g = grid.geometry();
    let (b, n) = (g.box_size(), g.side());
    let width = if alphabet.is_numbers() { 2 } else { 1 };
    let rule = vec!["-".repeat(b * width + b - 1); b].join("-+-");
    let mut out = String::new();
    for r in 0..n {
        if r > 0 && r % b == 0 {
            out.push_str(&rule);
            out.push('\n');
        }
        for c in 0..n {
            if c > 0 {
                out.push_str(if c % b == 0 { " | " } else { " " });
            }
            let symbol = alphabet.symbol(grid.get(g.cell(r, c)));
            out.push_str(&format!("{symbol:>width$}"));
        }
        out.push('\n');
    }
    out
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = write_line(self, &Alphabet::default_for(self.geometry()));
        write!(f, "Grid({text})")
    }
}
