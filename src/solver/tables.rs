//! Per-size lookup tables shared by the strategies, built once per process.

use crate::grid::{Geometry, Unit};
use std::sync::OnceLock;

/// Cell geometry precomputed for one grid size.
pub(crate) struct Tables {
    /// Side `n`.
    pub n: usize,
    /// Row, column and box of each cell.
    pub rcb: Vec<[u16; 3]>,
    /// Peers of each cell (cells sharing a unit), `peer_count` per cell.
    pub peers: Vec<u16>,
    /// Peers per cell.
    pub peer_count: usize,
    /// Cells of each unit: rows, then columns, then boxes; `n` per unit.
    pub units: Vec<u16>,
    /// The three units of each cell as bits `row`, `n + col`, `2n + box` (at most 75 units).
    pub unit_mask: Vec<u128>,
}

impl Tables {
    fn build(g: Geometry) -> Tables {
        let n = g.side();
        let rcb = (0..g.cells())
            .map(|c| [g.row(c) as u16, g.col(c) as u16, g.boxed(c) as u16])
            .collect::<Vec<_>>();
        let mut units = Vec::with_capacity(3 * n * n);
        for unit in Unit::ALL {
            for i in 0..n {
                units.extend(g.unit_cells(unit, i).map(|c| c as u16));
            }
        }
        let mut peers = Vec::new();
        let mut peer_count = 0;
        for c in 0..g.cells() {
            let before = peers.len();
            peers.extend(
                (0..g.cells())
                    .filter(|&p| p != c && (0..3).any(|k| rcb[p][k] == rcb[c][k]))
                    .map(|p| p as u16),
            );
            peer_count = peers.len() - before;
        }
        let unit_mask = rcb
            .iter()
            .map(|&[r, c, b]| {
                (1u128 << r) | (1u128 << (n + c as usize)) | (1u128 << (2 * n + b as usize))
            })
            .collect();
        Tables {
            n,
            unit_mask,
            rcb,
            peers,
            peer_count,
            units,
        }
    }

    /// The tables of a size.
    pub fn get(g: Geometry) -> &'static Tables {
        static ALL: [OnceLock<Tables>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        ALL[g.box_size() - 2].get_or_init(|| Tables::build(g))
    }

    /// Peers of cell `c`.
    #[inline]
    pub fn peers_of(&self, c: usize) -> &[u16] {
        &self.peers[c * self.peer_count..(c + 1) * self.peer_count]
    }

    /// Cells of unit `u` (`0..3n`).
    #[inline]
    pub fn unit(&self, u: usize) -> &[u16] {
        &self.units[u * self.n..(u + 1) * self.n]
    }
}
