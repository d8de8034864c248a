//! The words the scalar engine is generic over: a digit mask (`u32` for sides
//! to 25, `u64` above) and a set of units (`u128` while the `3n` units fit,
//! three `u64` words for 49×49 and 64×64). Each size runs on the narrowest
//! words that hold it, so the small grids keep their boards small.

use super::super::tables::Tables;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXorAssign, Not};

/// A set of digits, bit `d - 1` for digit `d`.
pub(super) trait Digits:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// No digit.
    const ZERO: Self;
    /// Digits `1..=n`.
    fn full(n: usize) -> Self;
    /// Digit `d` (1-based) alone.
    fn bit(d: u8) -> Self;
    /// The lowest digit alone.
    fn lowest(self) -> Self;
    /// All but the lowest digit.
    fn rest(self) -> Self;
    /// The lowest digit (1-based); meaningless on `ZERO`.
    fn first(self) -> u8;
    /// How many digits.
    fn count(self) -> u32;
    /// The digits of a `u64` mask (those past the word dropped).
    fn from_mask(m: u64) -> Self;
    /// The digits as a `u64` mask.
    fn to_mask(self) -> u64;
}

macro_rules! digits {
    ($t:ty) => {
        impl Digits for $t {
            const ZERO: $t = 0;
            #[inline(always)]
            fn full(n: usize) -> $t {
                if n >= <$t>::BITS as usize {
                    <$t>::MAX
                } else {
                    (1 << n) - 1
                }
            }
            #[inline(always)]
            fn bit(d: u8) -> $t {
                1 << (d - 1)
            }
            #[inline(always)]
            fn lowest(self) -> $t {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn rest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn first(self) -> u8 {
                self.trailing_zeros() as u8 + 1
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn from_mask(m: u64) -> $t {
                m as $t
            }
            #[inline(always)]
            fn to_mask(self) -> u64 {
                u64::from(self)
            }
        }
    };
}

digits!(u32);
digits!(u64);

/// A set of units (rows `0..n`, columns `n..2n`, boxes `2n..3n`).
pub(super) trait Units: Copy + Eq {
    /// Units `0..count`.
    fn all(count: usize) -> Self;
    /// No unit.
    fn none() -> Self;
    /// Adds the three units of cell `c`.
    fn add_cell(&mut self, t: &Tables, c: usize);
    /// Takes the lowest unit out.
    fn pop(&mut self) -> Option<usize>;
}

impl Units for u128 {
    #[inline(always)]
    fn all(count: usize) -> u128 {
        if count >= 128 {
            u128::MAX
        } else {
            (1 << count) - 1
        }
    }
    #[inline(always)]
    fn none() -> u128 {
        0
    }
    #[inline(always)]
    fn add_cell(&mut self, t: &Tables, c: usize) {
        *self |= t.unit_mask[c];
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        if *self == 0 {
            return None;
        }
        let u = self.trailing_zeros() as usize;
        *self &= *self - 1;
        Some(u)
    }
}

impl Units for [u64; 3] {
    fn all(count: usize) -> [u64; 3] {
        let mut w = [0u64; 3];
        (0..count.min(192)).for_each(|i| w[i / 64] |= 1 << (i % 64));
        w
    }
    #[inline(always)]
    fn none() -> [u64; 3] {
        [0; 3]
    }
    #[inline(always)]
    fn add_cell(&mut self, t: &Tables, c: usize) {
        let m = &t.unit_wide[c];
        (0..3).for_each(|k| self[k] |= m[k]);
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        let k = self.iter().position(|&w| w != 0)?;
        let u = k * 64 + self[k].trailing_zeros() as usize;
        self[k] &= self[k] - 1;
        Some(u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Geometry;

    #[test]
    fn both_unit_sets_list_a_cells_units_in_order() {
        let g = Geometry::from_side(25).unwrap();
        let t = Tables::get(g);
        for c in [0, 1, 312, 624] {
            let (mut a, mut b) = (u128::none(), <[u64; 3]>::none());
            a.add_cell(t, c);
            b.add_cell(t, c);
            let want = vec![g.row(c), 25 + g.col(c), 50 + g.boxed(c)];
            assert_eq!(std::iter::from_fn(|| a.pop()).collect::<Vec<_>>(), want);
            assert_eq!(std::iter::from_fn(|| b.pop()).collect::<Vec<_>>(), want);
        }
        let g = Geometry::from_side(64).unwrap();
        let mut w = <[u64; 3]>::none();
        w.add_cell(Tables::get(g), 4095);
        assert_eq!(
            std::iter::from_fn(|| w.pop()).collect::<Vec<_>>(),
            vec![63, 127, 191]
        );
        assert_eq!(
            std::iter::from_fn({
                let mut all = <[u64; 3]>::all(147);
                move || all.pop()
            })
            .count(),
            147
        );
    }

    #[test]
    fn digit_masks_agree_across_widths() {
        assert_eq!(u32::full(25), (1 << 25) - 1);
        assert_eq!(u64::full(64), u64::MAX);
        let m = u64::bit(64) | u64::bit(3);
        assert_eq!((m.first(), m.count(), m.rest()), (3, 2, u64::bit(64)));
        assert_eq!(m.lowest(), u64::bit(3));
    }
}
