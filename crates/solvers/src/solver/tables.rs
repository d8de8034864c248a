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
    /// The three units of each cell as bits `row`, `n + col`, `2n + box`, when
    /// the `3n` units fit in 128 bits (sides to 36); empty above.
    pub unit_mask: Vec<u128>,
    /// The same bits in three words, for every side (192 units at most).
    pub unit_wide: Vec<[u64; 3]>,
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
        let unit_bits = |&[r, c, b]: &[u16; 3]| [r as usize, n + c as usize, 2 * n + b as usize];
        let unit_mask = if 3 * n <= 128 {
            rcb.iter()
                .map(|u| unit_bits(u).iter().fold(0u128, |m, &i| m | 1u128 << i))
                .collect()
        } else {
            Vec::new()
        };
        let unit_wide = rcb
            .iter()
            .map(|u| {
                let mut w = [0u64; 3];
                unit_bits(u)
                    .iter()
                    .for_each(|&i| w[i / 64] |= 1u64 << (i % 64));
                w
            })
            .collect();
        Tables {
            n,
            unit_mask,
            unit_wide,
            rcb,
            peers,
            peer_count,
            units,
        }
    }

    /// The tables of a size.
    pub fn get(g: Geometry) -> &'static Tables {
        static ALL: [OnceLock<Tables>; crate::grid::MAX_BOX - 1] =
            [const { OnceLock::new() }; crate::grid::MAX_BOX - 1];
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
