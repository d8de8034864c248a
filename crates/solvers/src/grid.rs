//! Square Sudoku grids of box size 2..=8 (4×4, 9×9, 16×16, 25×25, 36×36, 49×49, 64×64).

use std::fmt;

/// Smallest supported box size (4×4 grids).
pub const MIN_BOX: usize = 2;
/// Largest supported box size (64×64 grids).
pub const MAX_BOX: usize = 8;

/// The supported sides in words, for messages: `4, 9, 16, 25, 36, 49 or 64`.
pub const SIDES_TEXT: &str = "4, 9, 16, 25, 36, 49 or 64";

/// Geometry of a grid: box size `b`, side `n = b²`, `n²` cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Geometry {
    box_size: u8,
}

impl Geometry {
    /// Geometry for box size `b`; `None` outside `2..=8`.
    pub fn new(box_size: usize) -> Option<Geometry> {
        (MIN_BOX..=MAX_BOX).contains(&box_size).then_some(Geometry {
            box_size: box_size as u8,
        })
    }

    /// Geometry whose grid has `cells` cells (16, 81, 256, 625, 1296, 2401 or 4096).
    pub fn from_cells(cells: usize) -> Option<Geometry> {
        (MIN_BOX..=MAX_BOX)
            .find(|b| b.pow(4) == cells)
            .and_then(Geometry::new)
    }

    /// Geometry whose side is `side` (4, 9, 16, 25, 36, 49 or 64).
    pub fn from_side(side: usize) -> Option<Geometry> {
        (MIN_BOX..=MAX_BOX)
            .find(|b| b * b == side)
            .and_then(Geometry::new)
    }

    /// Every supported geometry, smallest first.
    pub fn all() -> impl Iterator<Item = Geometry> {
        (MIN_BOX..=MAX_BOX).filter_map(Geometry::new)
    }

    /// Box size `b` (2..=8).
    #[inline]
    pub fn box_size(self) -> usize {
        self.box_size as usize
    }

    /// Side `n = b²`: digits, rows, columns and boxes.
    #[inline]
    pub fn side(self) -> usize {
        self.box_size() * self.box_size()
    }

    /// Number of cells `n²`.
    #[inline]
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// Row of a cell index.
    #[inline]
    pub fn row(self, cell: usize) -> usize {
        cell / self.side()
    }

    /// Column of a cell index.
    #[inline]
    pub fn col(self, cell: usize) -> usize {
        cell % self.side()
    }

    /// Box of a cell index (boxes numbered row-major).
    #[inline]
    pub fn boxed(self, cell: usize) -> usize {
        let b = self.box_size();
        (self.row(cell) / b) * b + self.col(cell) / b
    }

    /// Cell index of `(row, col)`.
    #[inline]
    pub fn cell(self, row: usize, col: usize) -> usize {
        row * self.side() + col
    }

    /// Cells of unit `unit` (rows `0..n`, columns `n..2n`, boxes `2n..3n`).
    pub fn unit_cells(self, unit: Unit, index: usize) -> impl Iterator<Item = usize> {
        let n = self.side();
        let b = self.box_size();
        (0..n).map(move |k| match unit {
            Unit::Row => index * n + k,
            Unit::Column => k * n + index,
            Unit::Box => {
                let (br, bc) = (index / b * b, index % b * b);
                (br + k / b) * n + bc + k % b
            }
        })
    }

    /// Human name such as `9x9`.
    pub fn name(self) -> String {
        format!("{0}x{0}", self.side())
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side())
    }
}

/// The three kinds of unit every digit must appear once in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
}

impl Unit {
    /// All three kinds, in the order rows, columns, boxes.
    pub const ALL: [Unit; 3] = [Unit::Row, Unit::Column, Unit::Box];
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
        })
    }
}

/// A grid of cells holding `0` (empty) or a digit `1..=n`, and, for a
/// pencilmark puzzle, the digits each cell may still take.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    geometry: Geometry,
    cells: Box<[u8]>,
    /// Pencilmarks: per cell, the digits not excluded (bit `d - 1` for digit
    /// `d`); `None` when nothing is excluded.
    marks: Option<Box<[u64]>>,
}

/// Every digit of a grid of side `n`, as a mask (bit `d - 1` for digit `d`).
#[inline]
pub fn full_mask(n: usize) -> u64 {
    u64::MAX >> (64 - n)
}

impl Grid {
    /// An empty grid.
    pub fn empty(geometry: Geometry) -> Grid {
        Grid {
            geometry,
            cells: vec![0; geometry.cells()].into_boxed_slice(),
            marks: None,
        }
    }

    /// A grid from cell values; `None` if the length is not `n²` or a value exceeds `n`.
    pub fn from_vec(geometry: Geometry, cells: Vec<u8>) -> Option<Grid> {
        let n = geometry.side() as u8;
        (cells.len() == geometry.cells() && cells.iter().all(|&v| v <= n)).then(|| Grid {
            geometry,
            cells: cells.into_boxed_slice(),
            marks: None,
        })
    }

    /// A grid from row-major cell values (see [`Grid::from_vec`]).
    pub fn from_cells(geometry: Geometry, cells: &[u8]) -> Option<Grid> {
        let n = geometry.side() as u8;
        (cells.len() == geometry.cells() && cells.iter().all(|&v| v <= n)).then(|| Grid {
            geometry,
            cells: cells.into(),
            marks: None,
        })
    }

    /// The grid's geometry.
    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Cell values, row-major; `0` is empty.
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Value of one cell (`0` if empty).
    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets one cell (`0` clears it). Panics if `value > n` (a programming error).
    #[inline]
    pub fn set(&mut self, cell: usize, value: u8) {
        assert!(value as usize <= self.geometry.side(), "digit out of range");
        self.cells[cell] = value;
    }

    /// Number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The grid with pencilmarks: `marks[c]` holds the digits cell `c` may
    /// take (bit `d - 1` for digit `d`; bits past the side are dropped). Marks
    /// that exclude nothing leave a plain grid. `None` if the length is not `n²`.
    pub fn with_marks(mut self, mut marks: Vec<u64>) -> Option<Grid> {
        if marks.len() != self.geometry.cells() {
            return None;
        }
        let full = full_mask(self.geometry.side());
        marks.iter_mut().for_each(|m| *m &= full);
        self.marks = (marks.iter().any(|&m| m != full)).then(|| marks.into_boxed_slice());
        Some(self)
    }

    /// The pencilmarks, when the grid excludes candidates (see [`Grid::with_marks`]).
    #[inline]
    pub fn marks(&self) -> Option<&[u64]> {
        self.marks.as_deref()
    }

    /// The digits the pencilmarks leave cell `cell` (every digit without marks),
    /// bit `d - 1` for digit `d`. Givens are not taken into account.
    #[inline]
    pub fn allowed(&self, cell: usize) -> u64 {
        match &self.marks {
            Some(m) => m[cell],
            None => full_mask(self.geometry.side()),
        }
    }

    /// True when some candidate is excluded: a pencilmark puzzle.
    #[inline]
    pub fn is_pencilmark(&self) -> bool {
        self.marks.is_some()
    }

    /// The given digits alone, the pencilmarks dropped.
    pub fn without_marks(&self) -> Grid {
        Grid {
            geometry: self.geometry,
            cells: self.cells.clone(),
            marks: None,
        }
    }

    /// Calls `visit(cell, digit)` on each given in row-major order, until it
    /// returns `false`; false then. Blank cells cost no branch (one add and
    /// mask test eight of them): the set-up of a fast solver is mostly this walk.
    #[inline]
    pub fn each_given(&self, mut visit: impl FnMut(usize, u8) -> bool) -> bool {
        // A mask of 64 cells is made first, then walked: one loop exit to
        // mispredict per 64 cells rather than one per 8.
        for (k, block) in self.cells.chunks(64).enumerate() {
            let mut givens = 0u64;
            let mut words = block.chunks_exact(8);
            for (j, chunk) in words.by_ref().enumerate() {
                let word = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
                givens |= (nonzero_bytes(word) as u64) << (8 * j);
            }
            let rest = words.remainder();
            if !rest.is_empty() {
                let word = rest.iter().rev().fold(0, |w, &v| w << 8 | v as u64);
                givens |= (nonzero_bytes(word) as u64) << (block.len() - rest.len());
            }
            while givens != 0 {
                let i = givens.trailing_zeros() as usize;
                givens &= givens - 1;
                if !visit(64 * k + i, block[i]) {
                    return false;
                }
            }
        }
        true
    }

    /// True when some given's digit is excluded by its own cell's marks.
    pub fn marks_refuse_a_given(&self) -> bool {
        self.marks.as_ref().is_some_and(|m| {
            self.cells
                .iter()
                .zip(m.iter())
                .any(|(&d, &m)| d != 0 && m & (1 << (d - 1)) == 0)
        })
    }
}

/// A bit per byte of `x` that is not zero (bit `k` for byte `k`), for bytes
/// below 0x80 (a digit is at most 64).
#[inline(always)]
fn nonzero_bytes(x: u64) -> u32 {
    // Adding 0x7f sets a byte's top bit exactly when it is not zero (no byte carries).
    let top = x.wrapping_add(0x7f7f_7f7f_7f7f_7f7f) & 0x8080_8080_8080_8080;
    // Gathers the eight top bits into the top byte.
    ((top >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn givens_are_found_eight_cells_at_a_time() {
        // Every value a cell can hold, in every byte, against a plain scan.
        for v in 1..=64u64 {
            for k in 0..8 {
                for rest in [0u64, 0x4000_0100_0009_0001, 0x0101_0101_0101_0101] {
                    let x = rest & !(0xff << (8 * k)) | v << (8 * k);
                    let plain = (0..8)
                        .filter(|&j| x >> (8 * j) & 0xff != 0)
                        .fold(0, |m, j| m | 1 << j);
                    assert_eq!(nonzero_bytes(x), plain, "{x:#018x}");
                }
            }
        }
        assert_eq!(nonzero_bytes(0), 0);
        // The walk over a whole grid (81 cells: a short last chunk) sees each given once, in order.
        let g = Geometry::new(3).unwrap();
        let mut cells = [0u8; 81];
        for (c, v) in [(0, 5), (7, 1), (8, 9), (63, 2), (80, 4)] {
            cells[c] = v;
        }
        let grid = Grid::from_cells(g, &cells).unwrap();
        let mut seen = Vec::new();
        assert!(grid.each_given(|c, v| {
            seen.push((c, v));
            true
        }));
        assert_eq!(seen, [(0, 5), (7, 1), (8, 9), (63, 2), (80, 4)]);
        assert!(!grid.each_given(|c, _| c < 8));
    }

    #[test]
    fn geometry_sizes() {
        let sides: Vec<usize> = Geometry::all().map(|g| g.side()).collect();
        assert_eq!(sides, vec![4, 9, 16, 25, 36, 49, 64]);
        assert_eq!(Geometry::from_cells(81).unwrap().box_size(), 3);
        assert!(Geometry::from_cells(80).is_none());
        assert!(Geometry::new(9).is_none());
        assert_eq!(Geometry::from_side(64).unwrap().cells(), 4096);
        assert!(Geometry::new(1).is_none());
    }

    #[test]
    fn units_cover_each_cell_once_per_kind() {
        for g in Geometry::all() {
            for unit in Unit::ALL {
                let mut seen = vec![0; g.cells()];
                for i in 0..g.side() {
                    for c in g.unit_cells(unit, i) {
                        seen[c] += 1;
                        let idx = match unit {
                            Unit::Row => g.row(c),
                            Unit::Column => g.col(c),
                            Unit::Box => g.boxed(c),
                        };
                        assert_eq!(idx, i);
                    }
                }
                assert!(seen.iter().all(|&s| s == 1));
            }
        }
    }
}
