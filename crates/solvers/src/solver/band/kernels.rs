//! The operations that touch every digit's word ([`Kernels`]), and their
//! portable scalar form; the x86-64 forms are in `x86.rs`.

use super::tables::*;
use super::State;

/// Bit-sliced candidate counts of one band's cells: at least one, two, three.
#[derive(Clone, Copy, Default)]
pub(super) struct Counts {
    pub(super) one: [u32; 4],
    pub(super) two: [u32; 4],
    pub(super) three: [u32; 4],
}

/// The operations that touch every digit's word, one implementation per path.
pub(super) trait Kernels {
    /// Candidate counts of every band.
    fn counts(cand: &[u32; 40]) -> Counts;
    /// Clears `cells` of band `b` from every digit but `d`; returns the changed words as bits `4d' + b`.
    fn clear_others(cand: &mut [u32; 40], d: usize, b: usize, cells: u32) -> u64;
    /// The 9-bit triad pattern of a band word, as [`triads`].
    fn triads(a: u32) -> usize;
    /// The rows of a band word left with one cell, as bits 0..3.
    #[inline(always)]
    fn singles(a: u32) -> u32 {
        (ONE[(a & 0x1ff) as usize]
            | ONE[(a >> 9 & 0x1ff) as usize] << 1
            | ONE[(a >> 18 & 0x1ff) as usize] << 2) as u32
    }
    /// The column rule, as [`State::stacks`], of at least the digits with a word
    /// in `stale` (bits `4d + b`): the changed words, or `None` on a contradiction.
    fn stacks(cand: &mut [u32; 40], stale: u64) -> Option<u64>;
    /// The exactly-three rule, as [`State::triad_rule`]: the changed words, or
    /// `None` on a contradiction.
    fn triad_rule(cand: &mut [u32; 40]) -> Option<u64>;
    /// The digit and band to branch on, as [`State::choose_config`].
    fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)>;
}

/// Keeps only `mask` of word `j`; returns bit `j` when that changed it.
#[inline(always)]
pub(super) fn restrict(cand: &mut [u32; 40], j: usize, mask: u32) -> u64 {
    let x = cand[j];
    cand[j] = x & mask;
    ((x & mask != x) as u64) << j
}

/// The scalar kernels.
pub(super) struct Scalar;

impl Kernels for Scalar {
    #[inline(always)]
    fn triads(a: u32) -> usize {
        triads(a)
    }

    #[inline(always)]
    fn counts(cand: &[u32; 40]) -> Counts {
        let mut c = Counts::default();
        for d in 0..9 {
            for b in 0..3 {
                let x = cand[4 * d + b];
                c.three[b] |= c.two[b] & x;
                c.two[b] |= c.one[b] & x;
                c.one[b] |= x;
            }
        }
        c
    }

    #[inline(always)]
    fn stacks(cand: &mut [u32; 40], mut stale: u64) -> Option<u64> {
        let mut dirty = 0;
        while stale != 0 {
            let d = stale.trailing_zeros() as usize / 4;
            stale &= !(0xf << (4 * d));
            dirty |= State::stacks(cand, d)?;
        }
        Some(dirty)
    }

    #[inline(always)]
    fn triad_rule(cand: &mut [u32; 40]) -> Option<u64> {
        State::triad_rule::<Scalar>(cand)
    }

    #[inline(always)]
    fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)> {
        State::choose_config(cand)
    }

    #[inline(always)]
    fn clear_others(cand: &mut [u32; 40], d: usize, b: usize, cells: u32) -> u64 {
        // Every digit's word loses the cells, then `d`'s gets its own back: no
        // per-digit test of `d`, and each word's bit is at a fixed shift.
        let own = cand[4 * d + b];
        let mut hit = 0u64;
        for dd in 0..9 {
            let j = 4 * dd + b;
            let x = cand[j];
            hit |= ((x & cells != 0) as u64) << (4 * dd);
            cand[j] = x & !cells;
        }
        cand[4 * d + b] = own;
        (hit & !(1 << (4 * d))) << b
    }
}
