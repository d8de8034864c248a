//! `band`'s digit-wide rules on AVX2: every word of the state at once, eight
//! lanes a vector. Vector `k` holds words `8k..8k + 8`, that is digits `2k` and
//! `2k + 1`, bands 0 to 3 each (lane 3 of each half is padding, always zero).
//! Candidate counts over the digits are bit-sliced in the lanes and summed
//! across the two halves. The results are the scalar rules' to the bit.
//!
//! # Safety
//! Every `unsafe fn` here is unsafe for one reason: it runs AVX2 instructions
//! (unaligned loads and stores of a `[u32; 40]` it borrows, never past its
//! end). Call it only from `band`'s AVX2 or AVX-512 node, which the search
//! enters after `Isa::supported` saw the features.

use crate::solver::simd::{and, and_not, is_zero, or, V};
use std::arch::x86_64::*;

/// Triad bits of a band word: bit `3(3r + k)` for row `r`, box `k`.
const TRI: i32 = 0x124_9249;
/// Every cell of a band.
const BAND: i32 = (1 << 27) - 1;

/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn splat(x: i32) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { _mm256_set1_epi32(x) }
}

/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn shr<const N: i32>(a: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { _mm256_srli_epi32::<N>(a) }
}

/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn shl<const N: i32>(a: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { _mm256_slli_epi32::<N>(a) }
}

/// The triads of each word that hold a candidate (bit `3(3r + k)`).
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn triads(a: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { and(or(or(a, shr::<1>(a)), shr::<2>(a)), splat(TRI)) }
}

/// Triads of row `r + 1` moved to row `r` (rows taken round).
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn row1(t: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { and(or(shr::<9>(t), shl::<18>(t)), splat(BAND)) }
}

/// Triads of row `r + 2` moved to row `r`.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn row2(t: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { and(or(shr::<18>(t), shl::<9>(t)), splat(BAND)) }
}

/// Triads of box `k + 1` moved to box `k`, in each row.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn box1(t: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe {
        or(
            and(shr::<3>(t), splat(0o11 * 0x40201)),
            and(shl::<6>(t), splat(0o100 * 0x40201)),
        )
    }
}

/// Triads of box `k + 2` moved to box `k`, in each row.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn box2(t: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe {
        or(
            and(shr::<6>(t), splat(0x40201)),
            and(shl::<3>(t), splat(0o110 * 0x40201)),
        )
    }
}

/// The three cells of each triad bit.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn cells(t: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { or(or(t, shl::<1>(t)), shl::<2>(t)) }
}

/// The 9-bit column set of each word (bit `3s + j`: column `j` of stack `s`).
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn column_sets(a: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { and(or(or(a, shr::<9>(a)), shr::<18>(a)), splat(0x1ff)) }
}

/// A 9-bit column set spread over the three rows of a band.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn spread(c: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { or(or(c, shl::<9>(c)), shl::<18>(c)) }
}

/// Columns `j + 1` moved to `j` in each stack.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn col1(c: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe {
        or(
            and(shr::<1>(c), splat(0o333)),
            and(shl::<2>(c), splat(0o444)),
        )
    }
}

/// Columns `j + 2` moved to `j` in each stack.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn col2(c: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe {
        or(
            and(shr::<2>(c), splat(0o111)),
            and(shl::<1>(c), splat(0o666)),
        )
    }
}

/// Band `b + 1`'s word moved to band `b`, per digit (padding stays).
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn band1(x: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { _mm256_shuffle_epi32::<0b11_00_10_01>(x) }
}

/// Band `b + 2`'s word moved to band `b`, per digit.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn band2(x: V) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { _mm256_shuffle_epi32::<0b11_01_00_10>(x) }
}

/// The band's word in lanes 0-2 of each half, padding zero.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn per_band(x: i32) -> V {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe { _mm256_setr_epi32(x, x, x, 0, x, x, x, 0) }
}

/// Bit-sliced counts over digits, saturating: at least one, two, three, four.
#[derive(Clone, Copy)]
struct Tally([V; 4]);

impl Tally {
    /// # Safety
    /// The processor must support AVX2 (this module's contract).
    #[inline(always)]
    unsafe fn new() -> Tally {
        // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
        unsafe {
            let z = _mm256_setzero_si256();
            Tally([z; 4])
        }
    }

    /// # Safety
    /// The processor must support AVX2 (this module's contract).
    #[inline(always)]
    unsafe fn add(&mut self, x: V) {
        // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
        unsafe {
            let c = &mut self.0;
            c[3] = or(c[3], and(c[2], x));
            c[2] = or(c[2], and(c[1], x));
            c[1] = or(c[1], and(c[0], x));
            c[0] = or(c[0], x);
        }
    }

    /// The counts over all nine digits, in both halves.
    ///
    /// # Safety
    /// The processor must support AVX2 (this module's contract).
    #[inline(always)]
    unsafe fn total(self) -> Tally {
        // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
        unsafe {
            let a = self.0;
            let swap = |v| _mm256_permute2x128_si256::<0x01>(v, v);
            let b = [swap(a[0]), swap(a[1]), swap(a[2]), swap(a[3])];
            Tally([
                or(a[0], b[0]),
                or(or(a[1], b[1]), and(a[0], b[0])),
                or(or(a[2], b[2]), or(and(a[1], b[0]), and(a[0], b[1]))),
                or(
                    or(a[3], b[3]),
                    or(or(and(a[2], b[0]), and(a[1], b[1])), and(a[0], b[2])),
                ),
            ])
        }
    }
}

/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn load(cand: &[u32; 40]) -> [V; 5] {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe {
        let p = cand.as_ptr() as *const V;
        [
            _mm256_loadu_si256(p),
            _mm256_loadu_si256(p.add(1)),
            _mm256_loadu_si256(p.add(2)),
            _mm256_loadu_si256(p.add(3)),
            _mm256_loadu_si256(p.add(4)),
        ]
    }
}

/// Stores `new` and returns the words that differ from `old` (bits `4d + b`).
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
unsafe fn store(cand: &mut [u32; 40], old: &[V; 5], new: &[V; 5]) -> u64 {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe {
        let p = cand.as_mut_ptr() as *mut V;
        let mut dirty = 0u64;
        for k in 0..5 {
            _mm256_storeu_si256(p.add(k), new[k]);
            let same = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(old[k], new[k])));
            dirty |= ((!same & 0xff) as u64) << (8 * k);
        }
        dirty
    }
}

/// The column rule of every digit (the scalar `State::stacks`, all digits).
///
/// # Safety
/// The processor must support AVX2.
#[inline(always)]
pub(super) unsafe fn stacks(cand: &mut [u32; 40]) -> Option<u64> {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe {
        let v = load(cand);
        let mut new = v;
        let mut bad = _mm256_setzero_si256();
        for k in 0..5 {
            let c = column_sets(v[k]);
            let (u, w) = (band1(c), band2(c));
            let keep = and(c, or(and(col1(u), col2(w)), and(col2(u), col1(w))));
            // Band 0 of each digit keeps a column in every stack unless no permutation fits.
            let any = and(or(or(keep, shr::<1>(keep)), shr::<2>(keep)), splat(0o111));
            let want = if k < 4 {
                _mm256_setr_epi32(0o111, 0, 0, 0, 0o111, 0, 0, 0)
            } else {
                _mm256_setr_epi32(0o111, 0, 0, 0, 0, 0, 0, 0)
            };
            bad = or(bad, _mm256_xor_si256(and(any, want), want));
            new[k] = and(v[k], spread(keep));
        }
        if !is_zero(bad) {
            return None;
        }
        Some(store(cand, &v, &new))
    }
}

/// The exactly-three rule on every row triad and column triad (the scalar
/// `State::triad_rule`): the column triads are read before the row rule's
/// eliminations, as there.
///
/// # Safety
/// The processor must support AVX2.
#[inline(always)]
pub(super) unsafe fn triad_rule(cand: &mut [u32; 40]) -> Option<u64> {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe {
        let v = load(cand);
        let z = _mm256_setzero_si256();
        let (mut t, mut ts) = ([z; 5], [z; 5]);
        let (mut c, mut cs) = ([z; 5], [z; 5]);
        let (mut rows, mut rows_settled) = (Tally::new(), Tally::new());
        let (mut cols, mut cols_settled) = (Tally::new(), Tally::new());
        for k in 0..5 {
            t[k] = triads(v[k]);
            ts[k] = and_not(t[k], or(box1(t[k]), box2(t[k])));
            rows.add(t[k]);
            rows_settled.add(ts[k]);
            c[k] = column_sets(v[k]);
            cs[k] = and_not(c[k], or(col1(c[k]), col2(c[k])));
            cols.add(c[k]);
            cols_settled.add(cs[k]);
        }
        let (rows, rows_settled) = (rows.total().0, rows_settled.total().0);
        let (cols, cols_settled) = (cols.total().0, cols_settled.total().0);
        // Every triad needs three digits that can reach it, and holds at most three.
        let short = or(
            _mm256_xor_si256(rows[2], per_band(TRI)),
            _mm256_xor_si256(cols[2], per_band(0x1ff)),
        );
        if !is_zero(or(short, or(rows_settled[3], cols_settled[3]))) {
            return None;
        }
        let (only_three, full) = (and_not(rows[2], rows[3]), rows_settled[2]);
        let (only_three_c, full_c) = (and_not(cols[2], cols[3]), cols_settled[2]);
        let mut new = v;
        for k in 0..5 {
            let forced = and_not(and(t[k], only_three), ts[k]);
            let peers = or(
                or(box1(forced), box2(forced)),
                or(row1(forced), row2(forced)),
            );
            let lose = and(or(and_not(full, ts[k]), peers), t[k]);
            let forced_c = and_not(and(c[k], only_three_c), cs[k]);
            let peers_c = or(
                or(col1(forced_c), col2(forced_c)),
                or(band1(forced_c), band2(forced_c)),
            );
            let lose_c = and(or(and_not(full_c, cs[k]), peers_c), c[k]);
            new[k] = and_not(v[k], or(cells(lose), spread(lose_c)));
        }
        Some(store(cand, &v, &new))
    }
}

/// Each of the six ways three rows take three boxes, as spread triad bits.
const CONFIGURATIONS: [i32; 6] = {
    let mut out = [0i32; 6];
    let mut i = 0;
    while i < 6 {
        let (p, mut e) = (super::PERMUTATIONS[i], 0);
        while e < 9 {
            if p >> e & 1 != 0 {
                out[i] |= 1 << (3 * e);
            }
            e += 1;
        }
        i += 1;
    }
    out
};

/// The digit and band to branch on (the scalar `State::choose_config`): per
/// band, the sum of its open digits' configuration counts and the open digit
/// with the fewest (the lowest digit on a tie) as the key `16n + d`.
///
/// # Safety
/// The processor must support AVX2.
#[inline(always)]
pub(super) unsafe fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)> {
    // SAFETY: the module's contract: AVX2 is present; memory stays in what is borrowed.
    unsafe {
        let v = load(cand);
        let mut total = _mm256_setzero_si256();
        let mut key = splat(0xff);
        for (k, &w) in v.iter().enumerate() {
            let t = triads(w);
            let mut n = _mm256_setzero_si256();
            for p in CONFIGURATIONS {
                let p = splat(p);
                n = _mm256_sub_epi32(n, _mm256_cmpeq_epi32(and(t, p), p));
            }
            let open = _mm256_cmpgt_epi32(n, splat(1));
            total = _mm256_add_epi32(total, and(n, open));
            let digit = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
            let own = or(shl::<4>(n), _mm256_add_epi32(digit, splat(2 * k as i32)));
            key = _mm256_min_epu32(key, or(and(own, open), and_not(splat(0xff), open)));
        }
        let swap = |v| _mm256_permute2x128_si256::<0x01>(v, v);
        let total = _mm256_add_epi32(total, swap(total));
        let key = _mm256_min_epu32(key, swap(key));
        let (mut totals, mut keys) = ([0u32; 8], [0u32; 8]);
        _mm256_storeu_si256(totals.as_mut_ptr() as *mut V, total);
        _mm256_storeu_si256(keys.as_mut_ptr() as *mut V, key);
        let mut best = None;
        let mut best_total = u32::MAX;
        for b in 0..3 {
            if keys[b] != 0xff && totals[b] < best_total {
                best_total = totals[b];
                best = Some(((keys[b] & 15) as usize, b, keys[b] >> 4));
            }
        }
        best
    }
}
