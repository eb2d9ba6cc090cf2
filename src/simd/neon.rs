//! NEON's byte vector, `uint8x16_t`: its [`Vector`] operations, the
//! bounds-checked loads and stores of the aarch64 kernels, and the lane
//! masks NEON has no single instruction for (x86's `movemask`). NEON is
//! part of aarch64 (the target enables it), so nothing here is asked
//! for at run time.

#[allow(clippy::wildcard_imports)]
use std::arch::aarch64::*;

use super::memory::fits;
use super::{Vector, Window};

/// Vector width in bytes.
pub(crate) const WIDTH: usize = 16;

// Each method is one register operation whose only requirement is NEON,
// which aarch64 always has: one safety argument for the whole block.
#[allow(clippy::multiple_unsafe_ops_per_block)]
impl Vector for uint8x16_t {
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vdupq_n_u8(b) }
    }
    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { load_array(t) }
    }
    #[inline(always)]
    unsafe fn lookup(self, index: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vqtbl1q_u8(self, index) }
    }
    #[inline(always)]
    unsafe fn high_nibble(self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vshrq_n_u8::<4>(self) }
    }
    #[inline(always)]
    unsafe fn low_nibble(self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vandq_u8(self, vdupq_n_u8(0x0F)) }
    }
    #[inline(always)]
    unsafe fn and(self, other: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vandq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vorrq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { veorq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn saturating_sub(self, other: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vqsubq_u8(self, other) }
    }
}

// As for `Vector`: each method needs only NEON, which aarch64 always
// has, and the memory ones their bounds, the caller's.
#[allow(clippy::multiple_unsafe_ops_per_block)]
impl Window for uint8x16_t {
    const WIDTH: usize = WIDTH;
    #[inline(always)]
    unsafe fn load(s: &[u8], at: usize) -> Self {
        // SAFETY: the bounds, the caller's.
        unsafe { load(s, at) }
    }
    #[inline(always)]
    unsafe fn store_spare(self, out: &mut Vec<u8>, at: usize) {
        // SAFETY: the bounds, the caller's.
        unsafe { store_spare(out, at, self) }
    }
    #[inline(always)]
    unsafe fn high_lanes(self) -> u32 {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { mask(self) }
    }
    #[inline(always)]
    unsafe fn lanes(self) -> u32 {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { if any(self) { mask(self) } else { 0 } }
    }
    #[inline(always)]
    unsafe fn nonzero_lanes(self) -> u32 {
        // SAFETY: NEON, which aarch64 always has.
        unsafe {
            if any(self) {
                mask(vtstq_u8(self, self))
            } else {
                0
            }
        }
    }
    #[inline(always)]
    unsafe fn any(self) -> bool {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { any(self) }
    }
    #[inline(always)]
    unsafe fn any_high(self) -> bool {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { any_high(self) }
    }
    #[inline(always)]
    unsafe fn eq(self, other: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vceqq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn continuation(self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe {
            vandq_u8(
                vcltq_u8(self, vdupq_n_u8(0xC0)),
                vcgeq_u8(self, vdupq_n_u8(0x80)),
            )
        }
    }
    #[inline(always)]
    unsafe fn previous(self) -> [Self; 3] {
        // SAFETY: NEON, which aarch64 always has.
        unsafe {
            let zero = vdupq_n_u8(0);
            [
                vextq_u8::<15>(zero, self),
                vextq_u8::<14>(zero, self),
                vextq_u8::<13>(zero, self),
            ]
        }
    }
}

/// The 16 bytes of `t`.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn load_array(t: &[u8; 16]) -> uint8x16_t {
    // SAFETY: the 16 bytes read are `t`'s.
    unsafe { vld1q_u8(t.as_ptr()) }
}

/// The 8 bytes of `t`.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn load_half_array(t: &[u8; 8]) -> uint8x8_t {
    // SAFETY: the 8 bytes read are `t`'s.
    unsafe { vld1_u8(t.as_ptr()) }
}

/// The 16 bytes of `s` from `at`.
///
/// # Safety
///
/// `at + 16 <= s.len()`.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn load(s: &[u8], at: usize) -> uint8x16_t {
    debug_assert!(fits(s.len(), at, WIDTH));
    // SAFETY: the 16 bytes are in `s` (the caller's); NEON loads need no
    // alignment.
    unsafe { vld1q_u8(s.as_ptr().wrapping_add(at)) }
}

/// Stores `v` at `d[at..at + 16]`.
///
/// # Safety
///
/// `at + 16 <= d.len()`.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn store(d: &mut [u8], at: usize, v: uint8x16_t) {
    debug_assert!(fits(d.len(), at, WIDTH));
    // SAFETY: the 16 bytes are in `d` (the caller's).
    unsafe { vst1q_u8(d.as_mut_ptr().wrapping_add(at), v) }
}

/// Stores `v` at `d[at..at + 8]`.
///
/// # Safety
///
/// `at + 8 <= d.len()`.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn store_half(d: &mut [u8], at: usize, v: uint8x8_t) {
    debug_assert!(fits(d.len(), at, 8));
    // SAFETY: the 8 bytes are in `d` (the caller's).
    unsafe { vst1_u8(d.as_mut_ptr().wrapping_add(at), v) }
}

/// Stores `v` at bytes `at..at + 16` of `out`'s buffer, which may be past
/// its length (in its spare capacity).
///
/// # Safety
///
/// `at + 16 <= out.capacity()`.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn store_spare(out: &mut Vec<u8>, at: usize, v: uint8x16_t) {
    debug_assert!(fits(out.capacity(), at, WIDTH));
    // SAFETY: the 16 bytes are in `out`'s buffer (the caller's).
    unsafe { vst1q_u8(out.as_mut_ptr().wrapping_add(at), v) }
}

/// Each lane's bit (1 << lane within its half), for [`mask`].
static LANE_SHIFTS: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7];

/// Bit `j` set for each byte `j` of `v` whose high bit is set (x86's
/// `movemask`): each lane's top bit moved to its place in its half,
/// then each half summed.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn mask(v: uint8x16_t) -> u32 {
    let shifts = vreinterpretq_s8_u8(load_array(&LANE_SHIFTS));
    let bits = vshlq_u8(vshrq_n_u8::<7>(v), shifts);
    u32::from(vaddv_u8(vget_low_u8(bits))) | u32::from(vaddv_u8(vget_high_u8(bits))) << 8
}

/// Whether some byte of `v` is nonzero.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn any(v: uint8x16_t) -> bool {
    vmaxvq_u8(v) != 0
}

/// Whether some byte of `v` has its high bit set.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn any_high(v: uint8x16_t) -> bool {
    vmaxvq_u8(v) >= 0x80
}
