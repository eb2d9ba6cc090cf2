//! The byte-vector operations the kernels share, one implementation per
//! vector width.

#[cfg(target_arch = "x86_64")]
#[allow(clippy::wildcard_imports)]
use std::arch::x86_64::*;

/// A vector of bytes. Every method is `unsafe` only for the CPU features
/// it needs: the width's (AVX2 for `__m256i`; AVX-512 F and BW for
/// `__m512i`), which the calling kernel enables; none for NEON's
/// `uint8x16_t` (in `simd::neon`), which aarch64 always has.
pub(crate) trait Vector: Copy {
    /// `b` in every byte.
    unsafe fn splat(b: u8) -> Self;
    /// A 16-byte table in each 128-bit lane, for [`Vector::lookup`].
    unsafe fn table(t: &[u8; 16]) -> Self;
    /// Each byte of `self` (below 0x10) looked up in its lane's table.
    unsafe fn lookup(self, index: Self) -> Self;
    /// The high nibble of each byte.
    unsafe fn high_nibble(self) -> Self;
    /// The low nibble of each byte.
    unsafe fn low_nibble(self) -> Self;
    unsafe fn and(self, other: Self) -> Self;
    unsafe fn or(self, other: Self) -> Self;
    unsafe fn xor(self, other: Self) -> Self;
    /// Bytewise unsigned saturating subtraction.
    unsafe fn saturating_sub(self, other: Self) -> Self;
}

// Each method is one or two register operations whose only requirement
// is the CPU feature the trait's contract leaves to the caller: one
// safety argument for the whole block.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::multiple_unsafe_ops_per_block)]
impl Vector for __m256i {
    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)] // byte constants as `i8` lanes
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: the 16 bytes read are `t`'s.
        let lane = unsafe { _mm_loadu_si128(t.as_ptr().cast()) };
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_broadcastsi128_si256(lane) }
    }
    #[inline(always)]
    unsafe fn lookup(self, index: Self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_shuffle_epi8(self, index) }
    }
    #[inline(always)]
    unsafe fn high_nibble(self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_and_si256(_mm256_srli_epi16(self, 4), _mm256_set1_epi8(0x0F)) }
    }
    #[inline(always)]
    unsafe fn low_nibble(self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_and_si256(self, _mm256_set1_epi8(0x0F)) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_and_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_or_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_xor_si256(self, other) }
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_subs_epu8(self, other) }
    }
}

// As for `__m256i`.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::multiple_unsafe_ops_per_block)]
impl Vector for __m512i {
    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)] // byte constants as `i8` lanes
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: AVX-512 F, which the caller enables.
        unsafe { _mm512_set1_epi8(b as i8) }
    }
    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: the 16 bytes read are `t`'s.
        let lane = unsafe { _mm_loadu_si128(t.as_ptr().cast()) };
        // SAFETY: AVX-512 F, which the caller enables.
        unsafe { _mm512_broadcast_i32x4(lane) }
    }
    #[inline(always)]
    unsafe fn lookup(self, index: Self) -> Self {
        // SAFETY: AVX-512 BW, which the caller enables.
        unsafe { _mm512_shuffle_epi8(self, index) }
    }
    #[inline(always)]
    unsafe fn high_nibble(self) -> Self {
        // SAFETY: AVX-512 F and BW, which the caller enables.
        unsafe { _mm512_and_si512(_mm512_srli_epi16::<4>(self), _mm512_set1_epi8(0x0F)) }
    }
    #[inline(always)]
    unsafe fn low_nibble(self) -> Self {
        // SAFETY: AVX-512 F, which the caller enables.
        unsafe { _mm512_and_si512(self, _mm512_set1_epi8(0x0F)) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: AVX-512 F, which the caller enables.
        unsafe { _mm512_and_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: AVX-512 F, which the caller enables.
        unsafe { _mm512_or_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512 F, which the caller enables.
        unsafe { _mm512_xor_si512(self, other) }
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: AVX-512 BW, which the caller enables.
        unsafe { _mm512_subs_epu8(self, other) }
    }
}
