//! `box`'s rules in AVX2 instructions, and the search compiled with AVX2 and
//! with AVX-512 over them. A box is one 256-bit vector; sums across its lanes
//! are butterflies of shuffles.
//!
//! Every `unsafe` block here runs AVX2 instructions. The rules are reached only
//! from `node_avx2` and `node_avx512`, compiled with those features and entered
//! only after `Isa::supported` saw them.

use super::state::{Dead, Rules, State, ALL};
use super::*;
use std::arch::x86_64::*;

/// The rules on 256-bit vectors.
pub(super) struct Avx2;

/// Lanes that hold a digit (0..9), as all-ones.
const LIVE: [i16; 16] = [-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0];

/// Swaps each pair of 16-bit lanes (lane `i` takes lane `i ^ 1`).
const PAIRS: [i8; 32] = [
    2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14,
    15, 12, 13,
];

// SAFETY (every function below): AVX2 is present; see the module's note.

#[inline(always)]
unsafe fn load(st: &State, b: usize) -> __m256i {
    // SAFETY: a box is 32 bytes inside the state; an unaligned load.
    unsafe { _mm256_loadu_si256(st.boxes[b].as_ptr() as *const __m256i) }
}

#[inline(always)]
unsafe fn store(st: &mut State, b: usize, v: __m256i) {
    // SAFETY: as for `load`.
    unsafe { _mm256_storeu_si256(st.boxes[b].as_mut_ptr() as *mut __m256i, v) }
}

#[inline(always)]
unsafe fn splat(x: u16) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_set1_epi16(x as i16) }
}

#[inline(always)]
unsafe fn consts<T>(a: &T) -> __m256i {
    // SAFETY: every caller passes a 32-byte table.
    unsafe { _mm256_loadu_si256(a as *const T as *const __m256i) }
}

/// Lane `i` takes lane `i ^ 8`, `i ^ 4`, `i ^ 2`, `i ^ 1`: one butterfly step each.
#[inline(always)]
unsafe fn swap8(a: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_permute4x64_epi64::<0x4e>(a) }
}
#[inline(always)]
unsafe fn swap4(a: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_shuffle_epi32::<0x4e>(a) }
}
#[inline(always)]
unsafe fn swap2(a: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_shuffle_epi32::<0xb1>(a) }
}
#[inline(always)]
unsafe fn swap1(a: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_shuffle_epi8(a, consts(&PAIRS)) }
}

/// One butterfly step of two bit-sliced counts (at least one, at least two).
#[inline(always)]
unsafe fn fold(one: __m256i, two: __m256i, o: __m256i, t: __m256i) -> (__m256i, __m256i) {
    // SAFETY: AVX2 is present (the module's note).
    unsafe {
        (
            _mm256_or_si256(one, o),
            _mm256_or_si256(_mm256_or_si256(two, t), _mm256_and_si256(one, o)),
        )
    }
}

/// Rows of each lane with a candidate (bits 0, 3, 6).
#[inline(always)]
unsafe fn rows_of(m: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe {
        let x = _mm256_or_si256(m, _mm256_srli_epi16::<1>(m));
        let x = _mm256_or_si256(x, _mm256_srli_epi16::<2>(m));
        _mm256_and_si256(x, splat(0o111))
    }
}

/// Columns of each lane with a candidate (bits 0, 1, 2).
#[inline(always)]
unsafe fn columns_of(m: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe {
        let x = _mm256_or_si256(m, _mm256_srli_epi16::<3>(m));
        let x = _mm256_or_si256(x, _mm256_srli_epi16::<6>(m));
        _mm256_and_si256(x, splat(7))
    }
}

/// Each lane when it has at most one bit, else 0.
#[inline(always)]
unsafe fn lone(m: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe {
        let dec = _mm256_add_epi16(m, _mm256_set1_epi16(-1));
        let one = _mm256_cmpeq_epi16(_mm256_and_si256(m, dec), _mm256_setzero_si256());
        _mm256_and_si256(m, one)
    }
}

/// Column `k` of each lane's triad pattern reads column `k + 1` (mod 3).
#[inline(always)]
unsafe fn col1(x: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe {
        _mm256_or_si256(
            _mm256_and_si256(_mm256_srli_epi16::<1>(x), splat(0o333)),
            _mm256_and_si256(_mm256_slli_epi16::<2>(x), splat(0o444)),
        )
    }
}

/// Row `r` reads row `r + 1` (mod 3), bits past the ninth left in place.
#[inline(always)]
unsafe fn row1(x: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_or_si256(_mm256_srli_epi16::<3>(x), _mm256_slli_epi16::<6>(x)) }
}

/// Row `r` reads row `r + 2` (mod 3), bits past the ninth left in place.
#[inline(always)]
unsafe fn row2(x: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_or_si256(_mm256_srli_epi16::<6>(x), _mm256_slli_epi16::<3>(x)) }
}

/// The triads on a permutation, lane by lane (as `state::closure`); the final
/// AND with `t` clears what the row rotations left past the ninth bit.
#[inline(always)]
unsafe fn closure(t: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe {
        let c1 = col1(t);
        let c2 = col1(c1);
        let fit = _mm256_or_si256(
            _mm256_and_si256(row1(c1), row2(c2)),
            _mm256_and_si256(row1(c2), row2(c1)),
        );
        _mm256_and_si256(t, fit)
    }
}

/// Rows at bits 0, 3, 6 to nibbles 0, 1, 2: times 7, bit `3r` lands on `4r`
/// (among bits `3r..3r + 3`, apart for each row).
#[inline(always)]
unsafe fn spread_rows(x: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_and_si256(_mm256_mullo_epi16(x, splat(7)), splat(0x111)) }
}

/// Columns at bits 0, 1, 2 to nibbles 0, 1, 2: times 0o111, bit `c` lands on
/// `4c` (among bits `c, c + 3, c + 6`, apart for each column).
#[inline(always)]
unsafe fn spread_columns(x: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_and_si256(_mm256_mullo_epi16(x, splat(0o111)), splat(0x111)) }
}

/// What a digit keeps of a box when it reaches the forced triads `force`
/// (`reach & force`): only that triad's cells (`spread` times its bit), none
/// for two, everything for none.
#[inline(always)]
unsafe fn keep(reach: __m256i, force: u16, spread: u16) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe {
        let f = _mm256_and_si256(reach, splat(force));
        let cells = _mm256_mullo_epi16(lone(f), splat(spread));
        let free = _mm256_cmpeq_epi16(f, _mm256_setzero_si256());
        _mm256_or_si256(cells, _mm256_and_si256(free, splat(ALL)))
    }
}

/// The cells of the full triads `refuse` a digit not settled in them leaves.
#[inline(always)]
unsafe fn lose(settled: __m256i, refuse: u16, spread: u16) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe { _mm256_mullo_epi16(_mm256_andnot_si256(settled, splat(refuse)), splat(spread)) }
}

/// The sum of all 16 lanes of `a` and of `b`, as `(a, b)` (no lane's nibble
/// passes 9, so nibbles add without carries).
#[inline(always)]
unsafe fn sums(a: __m256i, b: __m256i) -> (u32, u32) {
    // SAFETY: AVX2 is present (the module's note).
    unsafe {
        // Pairs of lanes to 32 bits, then `a` low and `b` high in each.
        let ones = _mm256_set1_epi16(1);
        let ab = _mm256_or_si256(
            _mm256_madd_epi16(a, ones),
            _mm256_slli_epi32::<16>(_mm256_madd_epi16(b, ones)),
        );
        let x = _mm256_add_epi32(ab, swap8(ab));
        let x = _mm256_add_epi32(x, swap4(x));
        let x = _mm256_add_epi32(x, swap2(x));
        let v = _mm256_cvtsi256_si32(x) as u32;
        (v & 0xffff, v >> 16)
    }
}

/// One pass of the box rule: true when more digits are single after it.
#[inline(always)]
fn box_pass(st: &mut State, b: usize) -> Result<bool, Dead> {
    // SAFETY: as for every function here (the module's note).
    unsafe {
        let zero = _mm256_setzero_si256();
        let m = load(st, b);
        let dec = _mm256_add_epi16(m, _mm256_set1_epi16(-1));
        let is_single = _mm256_cmpeq_epi16(_mm256_and_si256(m, dec), zero);
        let single = _mm256_and_si256(m, is_single);
        // Per cell: at least one digit, at least two; the cells of single digits.
        let (mut one, mut two) = (m, _mm256_and_si256(m, swap8(m)));
        one = _mm256_or_si256(one, swap8(one));
        let mut s1 = _mm256_or_si256(single, swap8(single));
        (one, two) = fold(one, two, swap4(one), swap4(two));
        s1 = _mm256_or_si256(s1, swap4(s1));
        (one, two) = fold(one, two, swap2(one), swap2(two));
        s1 = _mm256_or_si256(s1, swap2(s1));
        (one, two) = fold(one, two, swap1(one), swap1(two));
        s1 = _mm256_or_si256(s1, swap1(s1));
        // Every lane holds the box's counts. A cell with no digit, or single
        // digits in fewer cells than there are of them, is a dead end.
        let digits = !_mm256_movemask_epi8(_mm256_cmpeq_epi16(single, zero)) as u32 & 0x3ffff;
        let cells = _mm256_cvtsi256_si32(s1) as u32 & ALL as u32;
        let full = _mm256_cvtsi256_si32(one) as u32 & ALL as u32;
        if full != ALL as u32 || 2 * cells.count_ones() != digits.count_ones() {
            return Err(Dead);
        }
        let kept = _mm256_andnot_si256(_mm256_andnot_si256(is_single, s1), m);
        let naked = _mm256_and_si256(kept, _mm256_andnot_si256(two, one));
        let none = _mm256_cmpeq_epi16(naked, zero);
        let next = _mm256_blendv_epi8(naked, kept, none);
        let empty = _mm256_and_si256(_mm256_cmpeq_epi16(next, zero), consts(&LIVE));
        let twice = _mm256_and_si256(naked, _mm256_add_epi16(naked, _mm256_set1_epi16(-1)));
        let bad = _mm256_or_si256(empty, twice);
        if _mm256_testz_si256(bad, bad) == 0 {
            return Err(Dead);
        }
        store(st, b, next);
        let now = _mm256_cmpeq_epi16(
            _mm256_and_si256(next, _mm256_add_epi16(next, _mm256_set1_epi16(-1))),
            zero,
        );
        let more = _mm256_andnot_si256(is_single, now);
        Ok(_mm256_testz_si256(more, consts(&LIVE)) == 0)
    }
}

/// Bits set in each nibble value (for `_mm256_shuffle_epi8`).
const POPCOUNT: [i8; 32] = [
    0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
];

/// How many permutations fit each lane's triad pattern (as `CONFIGS`): the
/// three cyclic ones read along the diagonals from row 0, the three others
/// along the anti-diagonals.
#[inline(always)]
unsafe fn configs(t: __m256i) -> __m256i {
    // SAFETY: AVX2 is present (the module's note).
    unsafe {
        let c1 = col1(t);
        let c2 = col1(c1);
        let diag = _mm256_and_si256(t, _mm256_and_si256(row1(c1), row2(c2)));
        let anti = _mm256_and_si256(t, _mm256_and_si256(row1(c2), row2(c1)));
        let x = _mm256_or_si256(
            _mm256_and_si256(diag, splat(7)),
            _mm256_slli_epi16::<3>(_mm256_and_si256(anti, splat(7))),
        );
        let table = consts(&POPCOUNT);
        _mm256_add_epi8(
            _mm256_shuffle_epi8(table, _mm256_and_si256(x, splat(15))),
            _mm256_shuffle_epi8(table, _mm256_srli_epi16::<4>(x)),
        )
    }
}

impl Rules for Avx2 {
    #[inline(always)]
    fn choose(st: &State) -> Option<(usize, usize, u16)> {
        let mut best = None;
        let mut best_total = u32::MAX;
        for k in 0..3 {
            // SAFETY: AVX2 is present (the module's note); the line is 32 bytes.
            unsafe {
                let t = _mm256_loadu_si256(st.lines[k].as_ptr() as *const __m256i);
                let n = configs(t);
                // Digits with more than one configuration (lanes 9.. count 0).
                let open = _mm256_cmpgt_epi16(n, _mm256_set1_epi16(1));
                if _mm256_testz_si256(open, open) != 0 {
                    continue;
                }
                let sums = _mm256_sad_epu8(_mm256_and_si256(n, open), _mm256_setzero_si256());
                let sums = _mm_add_epi64(
                    _mm256_castsi256_si128(sums),
                    _mm256_extracti128_si256::<1>(sums),
                );
                let total = (_mm_cvtsi128_si64(sums) + _mm_extract_epi64::<1>(sums)) as u32;
                if total >= best_total {
                    continue;
                }
                best_total = total;
                // The first digit with the fewest: lanes 0..8, then lane 8.
                let ranked = _mm256_or_si256(n, _mm256_andnot_si256(open, _mm256_set1_epi16(-1)));
                let low = _mm_minpos_epu16(_mm256_castsi256_si128(ranked));
                let (min, at) = (
                    _mm_extract_epi16::<0>(low) as u32,
                    _mm_extract_epi16::<1>(low) as usize,
                );
                let eighth = _mm256_extract_epi16::<8>(ranked) as u16 as u32;
                let d = if eighth < min { 8 } else { at };
                best = Some((k, d, st.lines[k][d]));
            }
        }
        best
    }

    #[inline(always)]
    fn copy(st: &State) -> State {
        // Fifteen vector moves. (A plain copy, or these moves as plain stores,
        // becomes a call to `memcpy`; volatile stores stay moves.)
        let mut out = std::mem::MaybeUninit::<State>::uninit();
        let (from, to) = (
            st as *const State as *const __m256i,
            out.as_mut_ptr() as *mut __m256i,
        );
        for v in 0..15 {
            // SAFETY: the state is 15 vectors (nine boxes, six lines), 32-byte
            // aligned, all inside both. Every byte of `out` is written.
            unsafe { std::ptr::write_volatile(to.add(v), _mm256_load_si256(from.add(v))) };
        }
        // SAFETY: all 480 bytes written just above.
        unsafe { out.assume_init() }
    }

    #[inline(always)]
    fn box_rule(st: &mut State, b: usize) -> Result<bool, Dead> {
        // SAFETY: box `b` lies inside the state.
        let start = unsafe { load(st, b) };
        // Repeated while a pass leaves more digits single (see `State::box_rule`).
        while box_pass(st, b)? {}
        // SAFETY: as above.
        Ok(unsafe { _mm256_testc_si256(load(st, b), start) } == 0)
    }

    #[inline(always)]
    fn line_rule(st: &mut State, k: usize, stack: bool) -> Result<u32, Dead> {
        // SAFETY: AVX2 is present (the module's note).
        unsafe {
            let bx = match stack {
                false => [3 * k, 3 * k + 1, 3 * k + 2],
                true => [k, k + 3, k + 6],
            };
            let m = [load(st, bx[0]), load(st, bx[1]), load(st, bx[2])];
            let t = match stack {
                false => _mm256_or_si256(
                    _mm256_or_si256(rows_of(m[0]), _mm256_slli_epi16::<1>(rows_of(m[1]))),
                    _mm256_slli_epi16::<2>(rows_of(m[2])),
                ),
                true => _mm256_or_si256(
                    _mm256_or_si256(columns_of(m[0]), _mm256_slli_epi16::<3>(columns_of(m[1]))),
                    _mm256_slli_epi16::<6>(columns_of(m[2])),
                ),
            };
            let line = 3 * stack as usize + k;
            let seen = _mm256_loadu_si256(st.lines[line].as_ptr() as *const __m256i);
            let same = _mm256_xor_si256(t, seen);
            if _mm256_testz_si256(same, same) != 0 {
                return Ok(0);
            }
            let fit = closure(t);
            let gone = _mm256_cmpeq_epi16(fit, _mm256_setzero_si256());
            if _mm256_testz_si256(gone, consts(&LIVE)) == 0 {
                return Err(Dead);
            }
            // The triads the boxes keep below are exactly those that fit.
            _mm256_storeu_si256(st.lines[line].as_mut_ptr() as *mut __m256i, fit);
            let mut changed = 0;
            for (j, &b) in bx.iter().enumerate() {
                let allowed = match (stack, j) {
                    (false, 0) => _mm256_mullo_epi16(_mm256_and_si256(fit, splat(0o111)), splat(7)),
                    (false, 1) => _mm256_mullo_epi16(
                        _mm256_and_si256(_mm256_srli_epi16::<1>(fit), splat(0o111)),
                        splat(7),
                    ),
                    (false, _) => _mm256_mullo_epi16(
                        _mm256_and_si256(_mm256_srli_epi16::<2>(fit), splat(0o111)),
                        splat(7),
                    ),
                    (true, 0) => _mm256_mullo_epi16(_mm256_and_si256(fit, splat(7)), splat(0o111)),
                    (true, 1) => _mm256_mullo_epi16(
                        _mm256_and_si256(_mm256_srli_epi16::<3>(fit), splat(7)),
                        splat(0o111),
                    ),
                    (true, _) => _mm256_mullo_epi16(_mm256_srli_epi16::<6>(fit), splat(0o111)),
                };
                if _mm256_testc_si256(allowed, m[j]) == 0 {
                    changed |= 1 << b;
                    store(st, b, _mm256_and_si256(m[j], allowed));
                }
            }
            Ok(changed)
        }
    }

    #[inline(always)]
    fn triad_rule(st: &mut State, b: usize) -> Result<bool, Dead> {
        // SAFETY: AVX2 is present (the module's note).
        unsafe {
            let m = load(st, b);
            let (r, c) = (rows_of(m), columns_of(m));
            let (rl, cl) = (lone(r), lone(c));
            let (rr, cc) = sums(spread_rows(r), spread_columns(c));
            let (rs, cs) = sums(spread_rows(rl), spread_columns(cl));
            // Each counter to a byte: rows in bytes 0..3, columns in 3..6.
            let spread = 0x0f0f_0f0f_0f0f_u64;
            let n = _pdep_u64((rr | cc << 12) as u64, spread);
            let t = _pdep_u64((rs | cs << 12) as u64, spread);
            let fours = 0x1010_1010_1010_u64;
            // n + 13 carries into bit 4 when n >= 3, n + 12 when n >= 4.
            let (n3, n4) = (
                (n + 0x0d0d_0d0d_0d0d) & fours,
                (n + 0x0c0c_0c0c_0c0c) & fours,
            );
            let (t3, t4) = (
                (t + 0x0d0d_0d0d_0d0d) & fours,
                (t + 0x0c0c_0c0c_0c0c) & fours,
            );
            if n3 != fours || t4 != 0 {
                return Err(Dead);
            }
            let force = _pext_u64(n3 & !n4, fours) as u16;
            let refuse = _pext_u64(t3, fours) as u16;
            if force | refuse == 0 {
                return Ok(false);
            }
            let (force_r, force_c) = (_pdep_u32(force as u32 & 7, 0o111) as u16, force >> 3);
            let (refuse_r, refuse_c) = (_pdep_u32(refuse as u32 & 7, 0o111) as u16, refuse >> 3);
            let keep = _mm256_and_si256(keep(r, force_r, 7), keep(c, force_c, 0o111));
            let lose = _mm256_or_si256(lose(rl, refuse_r, 7), lose(cl, refuse_c, 0o111));
            let next = _mm256_andnot_si256(lose, _mm256_and_si256(m, keep));
            store(st, b, next);
            Ok(_mm256_testc_si256(next, m) == 0)
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
    Avx2
);

/// The AVX2 rules one at a time, for the tests: (box, line, triad).
#[cfg(test)]
pub(super) mod single {
    use super::*;

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn box_rule(st: &mut State, b: usize) -> Result<bool, Dead> {
        Avx2::box_rule(st, b)
    }

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn line_rule(st: &mut State, k: usize, stack: bool) -> Result<u32, Dead> {
        Avx2::line_rule(st, k, stack)
    }

    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    fn triad_rule(st: &mut State, b: usize) -> Result<bool, Dead> {
        Avx2::triad_rule(st, b)
    }

    /// Rule `rule` (0 box, 1 band, 2 stack, 3 triad) on box, band or stack `k`:
    /// what it changed, or `None` for a dead end.
    pub(in super::super) fn run(st: &mut State, rule: usize, k: usize) -> Option<u32> {
        assert!(Isa::Avx2.supported());
        // SAFETY: the processor has AVX2 (asserted above).
        unsafe {
            match rule {
                0 => box_rule(st, k).map(u32::from),
                1 | 2 => line_rule(st, k, rule == 2),
                _ => triad_rule(st, k).map(u32::from),
            }
            .ok()
        }
    }
}
