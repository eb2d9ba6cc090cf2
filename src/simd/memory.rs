//! Unaligned vector loads and stores on slices, each checking its bounds
//! in debug builds (and the tests, whose profile keeps debug assertions):
//! the only raw memory accesses of the kernels, as `encoding_rs`'s
//! `simd_funcs.rs` keeps its own.

#[cfg(target_arch = "x86_64")]
#[allow(clippy::wildcard_imports)]
use std::arch::x86_64::*;

/// Whether `width` bytes from `at` are in a buffer of `len` bytes.
#[inline(always)]
pub(super) fn fits(len: usize, at: usize, width: usize) -> bool {
    at <= len && len - at >= width
}

/// The 16 bytes of `s` from `at`.
///
/// # Safety
///
/// `at + 16 <= s.len()`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn load128(s: &[u8], at: usize) -> __m128i {
    debug_assert!(fits(s.len(), at, 16));
    // SAFETY: the 16 bytes are in `s` (the caller's); SSE2 is part of
    // x86-64.
    unsafe { _mm_loadu_si128(s.as_ptr().wrapping_add(at).cast()) }
}

/// Stores `v` at `d[at..at + 16]`.
///
/// # Safety
///
/// `at + 16 <= d.len()`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn store128(d: &mut [u8], at: usize, v: __m128i) {
    debug_assert!(fits(d.len(), at, 16));
    // SAFETY: the 16 bytes are in `d` (the caller's).
    unsafe { _mm_storeu_si128(d.as_mut_ptr().wrapping_add(at).cast(), v) }
}

/// Stores the low 8 bytes of `v` at `d[at..at + 8]`.
///
/// # Safety
///
/// `at + 8 <= d.len()`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn store64(d: &mut [u8], at: usize, v: __m128i) {
    debug_assert!(fits(d.len(), at, 8));
    // SAFETY: the 8 bytes are in `d` (the caller's).
    unsafe { _mm_storel_epi64(d.as_mut_ptr().wrapping_add(at).cast(), v) }
}

/// The first 8 bytes of `t` in the low half.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn load64(t: &[u8; 8]) -> __m128i {
    // SAFETY: the 8 bytes read are `t`'s.
    unsafe { _mm_loadl_epi64(t.as_ptr().cast()) }
}

/// The 32 bytes of `s` from `at`.
///
/// # Safety
///
/// `at + 32 <= s.len()`; the CPU must support AVX.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn load256(s: &[u8], at: usize) -> __m256i {
    debug_assert!(fits(s.len(), at, 32));
    // SAFETY: the 32 bytes are in `s`, and AVX is there (the caller's).
    unsafe { _mm256_loadu_si256(s.as_ptr().wrapping_add(at).cast()) }
}

/// Stores `v` at `d[at..at + 32]`.
///
/// # Safety
///
/// `at + 32 <= d.len()`; the CPU must support AVX.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn store256(d: &mut [u8], at: usize, v: __m256i) {
    debug_assert!(fits(d.len(), at, 32));
    // SAFETY: the 32 bytes are in `d`, and AVX is there (the caller's).
    unsafe { _mm256_storeu_si256(d.as_mut_ptr().wrapping_add(at).cast(), v) }
}

/// The 64 bytes of `s` from `at`.
///
/// # Safety
///
/// `at + 64 <= s.len()`; the CPU must support AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn load512(s: &[u8], at: usize) -> __m512i {
    debug_assert!(fits(s.len(), at, 64));
    // SAFETY: the 64 bytes are in `s`, and AVX-512 F is there (the
    // caller's).
    unsafe { _mm512_loadu_si512(s.as_ptr().wrapping_add(at).cast()) }
}

/// Stores `v` at `d[at..at + 64]`.
///
/// # Safety
///
/// `at + 64 <= d.len()`; the CPU must support AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn store512(d: &mut [u8], at: usize, v: __m512i) {
    debug_assert!(fits(d.len(), at, 64));
    // SAFETY: the 64 bytes are in `d`, and AVX-512 F is there (the
    // caller's).
    unsafe { _mm512_storeu_si512(d.as_mut_ptr().wrapping_add(at).cast(), v) }
}

/// Stores `v` at bytes `at..at + 64` of `out`'s buffer, which may be past
/// its length (in its spare capacity).
///
/// # Safety
///
/// `at + 64 <= out.capacity()`; the CPU must support AVX-512 F.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn store512_spare(out: &mut Vec<u8>, at: usize, v: __m512i) {
    debug_assert!(fits(out.capacity(), at, 64));
    // SAFETY: the 64 bytes are in `out`'s buffer, and AVX-512 F is there
    // (the caller's).
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().wrapping_add(at).cast(), v) }
}

/// Writes `v` (little-endian) at bytes `at..at + 4` of `out`'s buffer,
/// which may be past its length (in its spare capacity).
///
/// # Safety
///
/// `at + 4 <= out.capacity()`.
#[inline(always)]
pub(crate) unsafe fn store32_spare(out: &mut Vec<u8>, at: usize, v: u32) {
    debug_assert!(fits(out.capacity(), at, 4));
    let p = out.as_mut_ptr().wrapping_add(at).cast::<u32>();
    // SAFETY: the 4 bytes are in `out`'s buffer (the caller's).
    unsafe { p.write_unaligned(v.to_le()) }
}

/// Stores `v` at bytes `at..at + 16` of `out`'s buffer, which may be past
/// its length (in its spare capacity).
///
/// # Safety
///
/// `at + 16 <= out.capacity()`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn store128_spare(out: &mut Vec<u8>, at: usize, v: __m128i) {
    debug_assert!(fits(out.capacity(), at, 16));
    // SAFETY: the 16 bytes are in `out`'s buffer (the caller's); SSE2 is
    // part of x86-64.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().wrapping_add(at).cast(), v) }
}

/// Stores `v` at bytes `at..at + 32` of `out`'s buffer, which may be past
/// its length (in its spare capacity).
///
/// # Safety
///
/// `at + 32 <= out.capacity()`; the CPU must support AVX.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn store256_spare(out: &mut Vec<u8>, at: usize, v: __m256i) {
    debug_assert!(fits(out.capacity(), at, 32));
    // SAFETY: the 32 bytes are in `out`'s buffer, and AVX is there (the
    // caller's).
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().wrapping_add(at).cast(), v) }
}

/// Writes `v` (little-endian) at bytes `at..at + 8` of `out`'s buffer,
/// which may be past its length (in its spare capacity).
///
/// # Safety
///
/// `at + 8 <= out.capacity()`.
#[inline(always)]
pub(crate) unsafe fn store64_spare(out: &mut Vec<u8>, at: usize, v: u64) {
    debug_assert!(fits(out.capacity(), at, 8));
    let p = out.as_mut_ptr().wrapping_add(at).cast::<u64>();
    // SAFETY: the 8 bytes are in `out`'s buffer (the caller's).
    unsafe { p.write_unaligned(v.to_le()) }
}

/// The 4 bytes of `s` from `at`, little-endian.
///
/// # Safety
///
/// `at + 4 <= s.len()`.
#[inline(always)]
pub(crate) unsafe fn read32(s: &[u8], at: usize) -> u32 {
    debug_assert!(fits(s.len(), at, 4));
    let p = s.as_ptr().wrapping_add(at).cast::<u32>();
    // SAFETY: the 4 bytes are in `s` (the caller's).
    u32::from_le(unsafe { p.read_unaligned() })
}

/// Byte `at` of `s`.
///
/// # Safety
///
/// `at < s.len()`.
#[inline(always)]
pub(crate) unsafe fn byte(s: &[u8], at: usize) -> u8 {
    debug_assert!(at < s.len());
    // SAFETY: `at` is in `s` (the caller's).
    unsafe { *s.get_unchecked(at) }
}
