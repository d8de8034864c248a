//! A puzzle as "exactly one" groups over its candidates, for the
//! clause-based strategies (`cdcl`, and `sat-varisat`'s CNF).

use crate::grid::Grid;

/// One variable per empty cell and digit its peers' givens (and, in a
/// pencilmark puzzle, its marks) leave open, and the groups of which exactly
/// one must be true: each empty cell's digits, then each unit's places for
/// each digit the unit lacks. Every variable is in exactly four groups: its
/// cell, and its digit in its row, column and box.
pub(crate) struct Candidates {
    /// `(cell, digit)` of each variable.
    pub vars: Vec<(usize, u8)>,
    /// The groups' variables, one group after another.
    pub members: Vec<u32>,
    /// Where each group starts in `members`, and the end.
    pub starts: Vec<u32>,
    /// How many of the groups are cells' groups (they come first).
    pub cell_groups: usize,
}

impl Candidates {
    /// Each group's variables.
    pub fn groups(&self) -> impl Iterator<Item = &[u32]> {
        self.starts
            .windows(2)
            .map(|w| &self.members[w[0] as usize..w[1] as usize])
    }
}

/// The candidates and groups of `puzzle`; `None` when it has no solution
/// the givens alone show: two givens alike in a unit, a given its own
/// pencilmarks exclude, or an empty cell or a unit's missing digit with no
/// place left.
pub(crate) fn candidates(puzzle: &Grid) -> Option<Candidates> {
    let g = puzzle.geometry();
    let n = g.side();
    let t = super::tables::Tables::get(g);
    // Digits given in each unit (rows, then columns, then boxes).
    let mut given = vec![0u64; 3 * n];
    for (c, &[r, col, b]) in t.rcb.iter().enumerate() {
        let d = puzzle.get(c);
        if d != 0 {
            let bit = 1 << (d - 1);
            if puzzle.allowed(c) & bit == 0 {
                return None;
            }
            for u in [r as usize, n + col as usize, 2 * n + b as usize] {
                if given[u] & bit != 0 {
                    return None;
                }
                given[u] |= bit;
            }
        }
    }
    // A cell's variables are consecutive, digits ascending: the variable of
    // digit d is the cell's first plus the candidates below d.
    let mut first = vec![u32::MAX; g.cells()];
    let mut open = vec![0u64; g.cells()];
    let mut vars = Vec::new();
    let mut members = Vec::new();
    let mut starts = vec![0u32];
    for c in (0..g.cells()).filter(|&c| puzzle.get(c) == 0) {
        let [r, col, b] = t.rcb[c];
        let taken = given[r as usize]
            | given[n + col as usize]
            | given[2 * n + b as usize]
            | !puzzle.allowed(c);
        let mask = !taken & crate::grid::full_mask(n);
        if mask == 0 {
            return None;
        }
        first[c] = vars.len() as u32;
        open[c] = mask;
        let mut m = mask;
        while m != 0 {
            members.push(vars.len() as u32);
            vars.push((c, m.trailing_zeros() as u8 + 1));
            m &= m - 1;
        }
        starts.push(members.len() as u32);
    }
    let cell_groups = starts.len() - 1;
    // Each unit's groups in one sweep of its cells, placed by counting
    // (a group lists its cells in the unit's order).
    let mut count = vec![0u32; n];
    let mut at = vec![0u32; n];
    for (u, &given) in given.iter().enumerate() {
        let cells = t.unit(u);
        count.fill(0);
        for &c in cells {
            let mut m = open[c as usize];
            while m != 0 {
                count[m.trailing_zeros() as usize] += 1;
                m &= m - 1;
            }
        }
        let base = members.len() as u32;
        let mut end = base;
        for d in (0..n).filter(|d| given & (1 << d) == 0) {
            if count[d] == 0 {
                return None;
            }
            at[d] = end;
            end += count[d];
            starts.push(end);
        }
        members.resize(end as usize, 0);
        for &c in cells {
            let c = c as usize;
            let (mut m, mut v) = (open[c], first[c]);
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                members[at[d] as usize] = v;
                at[d] += 1;
                v += 1;
                m &= m - 1;
            }
        }
    }
    Some(Candidates {
        vars,
        members,
        starts,
        cell_groups,
    })
}
