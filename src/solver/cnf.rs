//! A puzzle as "exactly one" groups over its candidates, for the
//! clause-based strategies (`cdcl`, and `sat-varisat`'s CNF).

use crate::grid::Grid;

/// One variable per empty cell and digit its peers' givens (and, in a
/// pencilmark puzzle, its marks) leave open, and the groups of which exactly
/// one must be true: each empty cell's digits, then each unit's places for
/// each digit the unit lacks.
pub(crate) struct Candidates {
    /// `(cell, digit)` of each variable.
    pub vars: Vec<(usize, u8)>,
    /// Variables of each group: the cells' groups first.
    pub groups: Vec<Vec<u32>>,
    /// How many of `groups` are cells' groups.
    pub cell_groups: usize,
}

/// The candidates and groups of `puzzle`; `None` when an empty cell or a
/// unit's missing digit has no place left (no solution). Every variable is in
/// exactly four groups: its cell, and its digit in its row, column and box.
pub(crate) fn candidates(puzzle: &Grid) -> Option<Candidates> {
    let g = puzzle.geometry();
    let n = g.side();
    let t = super::tables::Tables::get(g);
    // Digits given in each unit (rows, then columns, then boxes).
    let mut given = vec![0u64; 3 * n];
    for (c, &[r, col, b]) in t.rcb.iter().enumerate() {
        let d = puzzle.get(c);
        if d != 0 {
            for u in [r as usize, n + col as usize, 2 * n + b as usize] {
                given[u] |= 1 << (d - 1);
            }
        }
    }
    let mut var = vec![u32::MAX; g.cells() * n];
    let mut vars = Vec::new();
    let mut groups = Vec::new();
    for c in (0..g.cells()).filter(|&c| puzzle.get(c) == 0) {
        let [r, col, b] = t.rcb[c];
        let taken = given[r as usize]
            | given[n + col as usize]
            | given[2 * n + b as usize]
            | !puzzle.allowed(c);
        let mut group = Vec::new();
        for d in (0..n).filter(|d| taken & (1 << d) == 0) {
            var[c * n + d] = vars.len() as u32;
            group.push(vars.len() as u32);
            vars.push((c, d as u8 + 1));
        }
        if group.is_empty() {
            return None;
        }
        groups.push(group);
    }
    let cell_groups = groups.len();
    for (u, &given) in given.iter().enumerate() {
        for d in (0..n).filter(|d| given & (1 << d) == 0) {
            let group: Vec<u32> = t
                .unit(u)
                .iter()
                .map(|&c| var[c as usize * n + d])
                .filter(|&v| v != u32::MAX)
                .collect();
            if group.is_empty() {
                return None;
            }
            groups.push(group);
        }
    }
    Some(Candidates {
        vars,
        groups,
        cell_groups,
    })
}
