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

/// A vector the scanning loops walk a window at a time, one loop for
/// every tier (the text scan, the JSON escape walk): its loads and
/// stores, and lane masks of at most 32 lanes (bit `j` for lane `j`).
/// Every method is `unsafe` for the width's CPU features (AVX2 for
/// `__m256i`; none for NEON's `uint8x16_t`, in `simd::neon`), and the
/// memory ones for their bounds too.
pub(crate) trait Window: Vector {
    /// Lanes, and bytes a window.
    const WIDTH: usize;
    /// The `WIDTH` bytes of `s` from `at`.
    ///
    /// # Safety
    ///
    /// `at + WIDTH <= s.len()`, and the width's CPU features.
    unsafe fn load(s: &[u8], at: usize) -> Self;
    /// Stores `self` at bytes `at..at + WIDTH` of `out`'s buffer, which
    /// may be past its length (in its spare capacity).
    ///
    /// # Safety
    ///
    /// `at + WIDTH <= out.capacity()`, and the width's CPU features.
    unsafe fn store_spare(self, out: &mut Vec<u8>, at: usize);
    /// The lanes whose byte has its high bit set (x86's `movemask`).
    unsafe fn high_lanes(self) -> u32;
    /// The set lanes of a comparison's result (each lane all ones or
    /// zero); NEON, where a mask costs several instructions, tests for
    /// none first.
    unsafe fn lanes(self) -> u32;
    /// The lanes whose byte is nonzero; NEON tests for none first.
    unsafe fn nonzero_lanes(self) -> u32;
    /// Whether some byte is nonzero.
    unsafe fn any(self) -> bool;
    /// Whether some byte has its high bit set.
    unsafe fn any_high(self) -> bool;
    /// All ones in each lane where the bytes are equal.
    unsafe fn eq(self, other: Self) -> Self;
    /// All ones in each lane that holds a UTF-8 continuation byte
    /// (0x80..=0xBF).
    unsafe fn continuation(self) -> Self;
    /// The bytes one, two and three lanes before each lane, zeros
    /// before the window.
    unsafe fn previous(self) -> [Self; 3];
}

// As for `Vector`: each method needs only AVX2, which the trait's
// contract leaves to the caller, and the memory ones their bounds.
#[cfg(target_arch = "x86_64")]
#[allow(clippy::multiple_unsafe_ops_per_block)]
impl Window for __m256i {
    const WIDTH: usize = 32;
    #[inline(always)]
    unsafe fn load(s: &[u8], at: usize) -> Self {
        // SAFETY: the bounds and AVX, the caller's.
        unsafe { super::memory::load256(s, at) }
    }
    #[inline(always)]
    unsafe fn store_spare(self, out: &mut Vec<u8>, at: usize) {
        // SAFETY: the bounds and AVX, the caller's.
        unsafe { super::memory::store256_spare(out, at, self) }
    }
    #[inline(always)]
    #[allow(clippy::cast_sign_loss)] // 32 lanes: the cast keeps every bit
    unsafe fn high_lanes(self) -> u32 {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_movemask_epi8(self) as u32 }
    }
    #[inline(always)]
    unsafe fn lanes(self) -> u32 {
        // SAFETY: AVX2, which the caller enables.
        unsafe { self.high_lanes() }
    }
    #[inline(always)]
    unsafe fn nonzero_lanes(self) -> u32 {
        // SAFETY: AVX2, which the caller enables.
        unsafe { !_mm256_cmpeq_epi8(self, _mm256_setzero_si256()).high_lanes() }
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: AVX, which the caller enables.
        unsafe { _mm256_testz_si256(self, self) == 0 }
    }
    #[inline(always)]
    unsafe fn any_high(self) -> bool {
        // SAFETY: AVX2, which the caller enables.
        unsafe { self.high_lanes() != 0 }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_cmpeq_epi8(self, other) }
    }
    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)] // byte constants as `i8` lanes
    unsafe fn continuation(self) -> Self {
        // As `i8`, 0x80..=0xBF are the bytes below 0xC0.
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_cmpgt_epi8(_mm256_set1_epi8(0xC0u8 as i8), self) }
    }
    #[inline(always)]
    unsafe fn previous(self) -> [Self; 3] {
        // SAFETY: AVX2, which the caller enables.
        unsafe {
            // The low lane zeroed, below the window's own low lane.
            let before = _mm256_permute2x128_si256(self, self, 0x08);
            [
                _mm256_alignr_epi8(self, before, 15),
                _mm256_alignr_epi8(self, before, 14),
                _mm256_alignr_epi8(self, before, 13),
            ]
        }
    }
}
