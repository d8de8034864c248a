//! `band`'s kernels and search on x86-64: AVX2, and AVX-512 over the same code.
//!
//! Every `unsafe` block here runs instructions of its path's features. The
//! kernels are reached only from `node_avx2` and `node_avx512`, compiled with
//! those features and entered only after `Isa::supported` saw them.

use super::wide;
use super::*;
use std::arch::x86_64::*;

/// Combines two sets of bit-sliced counts (saturating at three).
macro_rules! fold {
    ($or:ident, $and:ident, $a1:expr, $a2:expr, $a3:expr, $b1:expr, $b2:expr, $b3:expr) => {{
        let one = $or($a1, $b1);
        let two = $or($or($a2, $b2), $and($a1, $b1));
        let three = $or($or($a3, $b3), $or($and($a2, $b1), $and($a1, $b2)));
        (one, two, three)
    }};
}

/// Every word as a lane: AVX2 (8 lanes of 32 bits).
pub(super) struct Avx2;

impl Kernels for Avx2 {
    #[inline(always)]
    fn counts(cand: &[u32; 40]) -> Counts {
        // SAFETY: only reached from functions compiled with AVX2 enabled (see `search!`
        // below), which are only called after the processor was checked for it.
        unsafe {
            let p = cand.as_ptr() as *const __m256i;
            // Lanes 0-3 and 4-7 are two digits' bands; five loads cover 40 words
            // (the 36 used and 4 padding words, always zero).
            let (mut one, mut two, mut three) = (
                _mm256_setzero_si256(),
                _mm256_setzero_si256(),
                _mm256_setzero_si256(),
            );
            for k in 0..5 {
                let x = _mm256_loadu_si256(p.add(k));
                three = _mm256_or_si256(three, _mm256_and_si256(two, x));
                two = _mm256_or_si256(two, _mm256_and_si256(one, x));
                one = _mm256_or_si256(one, x);
            }
            let lo = |v| _mm256_castsi256_si128(v);
            let hi = |v| _mm256_extracti128_si256::<1>(v);
            let (o, t, h) = fold!(
                _mm_or_si128,
                _mm_and_si128,
                lo(one),
                lo(two),
                lo(three),
                hi(one),
                hi(two),
                hi(three)
            );
            let mut c = Counts::default();
            _mm_storeu_si128(c.one.as_mut_ptr() as *mut __m128i, o);
            _mm_storeu_si128(c.two.as_mut_ptr() as *mut __m128i, t);
            _mm_storeu_si128(c.three.as_mut_ptr() as *mut __m128i, h);
            c
        }
    }

    #[inline(always)]
    fn clear_others(cand: &mut [u32; 40], d: usize, b: usize, cells: u32) -> u64 {
        Scalar::clear_others(cand, d, b, cells)
    }

    #[inline(always)]
    fn singles(a: u32) -> u32 {
        // Three `popcnt`s, not the scalar kernel's three loads from a table:
        // more instructions (2-3% a puzzle) but off the chain from a word to
        // its placements, 3.5-4.5% less time on Zen 4 (docs/benchmarking.md).
        let one = |x: u32| (x.count_ones() == 1) as u32;
        one(a & 0x1ff) | one(a >> 9 & 0x1ff) << 1 | one(a >> 18) << 2
    }

    #[inline(always)]
    fn triads(a: u32) -> usize {
        // SAFETY: BMI2 is part of this path's features (see `Avx2::counts`).
        unsafe { _pext_u32(a | a >> 1 | a >> 2, 0x124_9249) as usize }
    }

    #[inline(always)]
    fn stacks(cand: &mut [u32; 40], _stale: u64) -> Option<u64> {
        // Every digit at once costs what one does.
        // SAFETY: as for `Avx2::counts`.
        unsafe { wide::stacks(cand) }
    }

    #[inline(always)]
    fn triad_rule(cand: &mut [u32; 40]) -> Option<u64> {
        // SAFETY: as for `Avx2::counts`.
        unsafe { wide::triad_rule(cand) }
    }

    #[inline(always)]
    fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)> {
        // SAFETY: as for `Avx2::counts`.
        unsafe { wide::choose_config(cand) }
    }
}

/// Every word as a lane: AVX-512 (16 lanes of 32 bits, mask registers).
pub(super) struct Avx512;

impl Kernels for Avx512 {
    #[inline(always)]
    fn counts(cand: &[u32; 40]) -> Counts {
        Avx2::counts(cand)
    }

    #[inline(always)]
    fn singles(a: u32) -> u32 {
        Avx2::singles(a)
    }

    #[inline(always)]
    fn triads(a: u32) -> usize {
        Avx2::triads(a)
    }

    #[inline(always)]
    fn stacks(cand: &mut [u32; 40], stale: u64) -> Option<u64> {
        Avx2::stacks(cand, stale)
    }

    #[inline(always)]
    fn triad_rule(cand: &mut [u32; 40]) -> Option<u64> {
        Avx2::triad_rule(cand)
    }

    #[inline(always)]
    fn choose_config(cand: &[u32; 40]) -> Option<(usize, usize, u32)> {
        Avx2::choose_config(cand)
    }

    #[inline(always)]
    fn clear_others(cand: &mut [u32; 40], d: usize, b: usize, cells: u32) -> u64 {
        // Lanes of band `b` (every fourth word from `b`), digit `d` left out.
        let lanes = (0x1_1111_1111u64 << b) & !(1u64 << (4 * d + b));
        // SAFETY: as for `Avx2::counts`, with AVX-512 F/VL/BW; the masked load and
        // store of the third vector touch only words 32..36, inside the array.
        unsafe {
            let p = cand.as_mut_ptr() as *mut i32;
            let c = _mm512_set1_epi32(cells as i32);
            let v0 = _mm512_loadu_si512(p as *const _);
            let v1 = _mm512_loadu_si512(p.add(16) as *const _);
            let v2 = _mm512_maskz_loadu_epi32(0xf, p.add(32));
            let k0 = _mm512_mask_test_epi32_mask(lanes as u16, v0, c);
            let k1 = _mm512_mask_test_epi32_mask((lanes >> 16) as u16, v1, c);
            let k2 = _mm512_mask_test_epi32_mask((lanes >> 32) as u16 & 0xf, v2, c);
            _mm512_mask_storeu_epi32(p, k0, _mm512_andnot_si512(c, v0));
            _mm512_mask_storeu_epi32(p.add(16), k1, _mm512_andnot_si512(c, v1));
            _mm512_mask_storeu_epi32(p.add(32), k2, _mm512_andnot_si512(c, v2));
            k0 as u64 | (k1 as u64) << 16 | (k2 as u64) << 32
        }
    }
}

search!(
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(super) fn node_avx2,
    Avx2
);

search!(
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw")]
    pub(super) fn node_avx512,
    Avx512
);
