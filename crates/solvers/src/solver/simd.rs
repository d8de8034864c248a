//! Bitwise helpers on 256-bit vectors shared by the AVX2 paths (x86-64 only).
//! Callers are compiled with AVX2 enabled; every helper inlines into them.
//!
//! # Safety
//! Every function here is `unsafe` for one reason: it runs AVX2
//! instructions. Call it only from code compiled with AVX2 enabled, reached
//! after the processor was seen to have it (`Isa::supported`).

use std::arch::x86_64::*;

/// A 256-bit vector.
pub(crate) type V = __m256i;

/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
pub(crate) unsafe fn or(a: V, b: V) -> V {
    // SAFETY: the module's contract: AVX2 is present.
    unsafe { _mm256_or_si256(a, b) }
}

/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
pub(crate) unsafe fn and(a: V, b: V) -> V {
    // SAFETY: the module's contract: AVX2 is present.
    unsafe { _mm256_and_si256(a, b) }
}

/// `a & !b`.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
pub(crate) unsafe fn and_not(a: V, b: V) -> V {
    // SAFETY: the module's contract: AVX2 is present.
    unsafe { _mm256_andnot_si256(b, a) }
}

/// True when every bit of `a` is zero.
///
/// # Safety
/// The processor must support AVX2 (this module's contract).
#[inline(always)]
pub(crate) unsafe fn is_zero(a: V) -> bool {
    // SAFETY: the module's contract: AVX2 is present.
    unsafe { _mm256_testz_si256(a, a) != 0 }
}
