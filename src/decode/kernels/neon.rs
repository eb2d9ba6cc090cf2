//! The aarch64 tiers of [`utf8_run`](super::utf8_run),
//! [`latin1_run`](super::latin1_run) and
//! [`single_byte_run`](super::single_byte_run): NEON, 16 bytes a step.
//! `utf8_run` is the loop the SSSE3 kernel shares (`utf8_blocks`), with
//! NEON's byte classes and table lookups for its shuffles; `latin1_run`
//! and `single_byte_run` pack as the x86 Latin-1 kernel does.

#[allow(clippy::wildcard_imports)]
use std::arch::aarch64::*;

use crate::simd::neon::{
    any, any_high, load, load_array, load_half_array, mask, store, store_half, store_spare,
};

use super::{COMPRESS, EXPAND, STEP, TwoByteTable};

/// Whether each byte of `v` is in `lo..=hi`.
#[inline]
#[target_feature(enable = "neon")]
fn within(v: uint8x16_t, lo: u8, hi: u8) -> uint8x16_t {
    vcleq_u8(vsubq_u8(v, vdupq_n_u8(lo)), vdupq_n_u8(hi - lo))
}

// Each method needs only NEON, which aarch64 always has, and the memory
// ones their bounds, the caller's: one safety argument for the whole
// block.
#[allow(clippy::multiple_unsafe_ops_per_block)]
impl super::Block for uint8x16_t {
    #[inline(always)]
    unsafe fn load(s: &[u8], at: usize) -> Self {
        // SAFETY: the bounds, the caller's.
        unsafe { load(s, at) }
    }

    #[inline(always)]
    unsafe fn store(self, d: &mut [u8], at: usize) {
        // SAFETY: the bounds, the caller's.
        unsafe { store(d, at, self) }
    }

    #[inline(always)]
    unsafe fn store_kept(
        self,
        d: &mut [u8],
        at: usize,
        [drop_lo, drop_hi]: [usize; 2],
        kept_lo: usize,
    ) {
        // SAFETY: NEON, which aarch64 always has.
        let (lo, hi) = unsafe {
            (
                vtbl1_u8(vget_low_u8(self), load_half_array(&COMPRESS[drop_lo])),
                vtbl1_u8(vget_high_u8(self), load_half_array(&COMPRESS[drop_hi])),
            )
        };
        // SAFETY: `kept_lo <= 8`: the 8-byte stores end at most at `at +
        // 16 <= d.len()` (the caller's); NEON.
        unsafe {
            store_half(d, at, lo);
            store_half(d, at + kept_lo, hi);
        }
    }

    #[inline(always)]
    unsafe fn any_high(self) -> bool {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { any_high(self) }
    }
    #[inline(always)]
    unsafe fn high_lanes(self) -> u32 {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { mask(self) }
    }
    #[inline(always)]
    unsafe fn next(self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vextq_u8::<1>(self, vdupq_n_u8(0)) }
    }
    #[inline(always)]
    unsafe fn continuation(self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { within(self, 0x80, 0xBF) }
    }
    #[inline(always)]
    unsafe fn lead2(self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { within(self, 0xC2, 0xDF) }
    }
    #[inline(always)]
    unsafe fn lead3(self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { within(self, 0xE0, 0xEF) }
    }
    #[inline(always)]
    unsafe fn lead4(self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { within(self, 0xF0, 0xF4) }
    }
    #[inline(always)]
    unsafe fn out_of_range(self, next: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe {
            let is = |b: u8| vceqq_u8(self, vdupq_n_u8(b));
            let below = |b: u8| vcltq_u8(next, vdupq_n_u8(b));
            let above = |b: u8| vcgtq_u8(next, vdupq_n_u8(b));
            vorrq_u8(
                vorrq_u8(
                    vandq_u8(is(0xE0), below(0xA0)),
                    vandq_u8(is(0xED), above(0x9F)),
                ),
                vorrq_u8(
                    vandq_u8(is(0xF0), below(0x90)),
                    vandq_u8(is(0xF4), above(0x8F)),
                ),
            )
        }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vorrq_u8(self, other) }
    }
    #[inline(always)]
    unsafe fn select(self, yes: Self, no: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vbslq_u8(self, yes, no) }
    }
    #[inline(always)]
    unsafe fn latin1_values(self, next: Self) -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe {
            let code = vorrq_u8(
                vshlq_n_u8::<6>(vandq_u8(self, vdupq_n_u8(0x03))),
                vandq_u8(next, vdupq_n_u8(0x3F)),
            );
            vbslq_u8(within(self, 0xC2, 0xC3), code, vdupq_n_u8(b'?'))
        }
    }
    #[inline(always)]
    unsafe fn question() -> Self {
        // SAFETY: NEON, which aarch64 always has.
        unsafe { vdupq_n_u8(b'?') }
    }
}

/// The NEON kernel of [`super::utf8_run`]: [`super::utf8_blocks`] on
/// NEON registers.
///
/// # Panics
///
/// If `dst` is shorter than `src`.
#[target_feature(enable = "neon")]
pub(super) fn utf8_run_neon(src: &[u8], dst: &mut [u8], latin1: bool) -> (usize, usize) {
    assert!(dst.len() >= src.len());
    // SAFETY: NEON, which aarch64 always has; `dst.len() >= src.len()`
    // (asserted above).
    unsafe { super::utf8_blocks::<uint8x16_t>(src, dst, latin1) }
}

/// Packs the UTF-8 of a 16-byte block, each byte's first UTF-8 byte in
/// `firsts` and its second (where it has one) in `trails`, into `out`'s
/// buffer at `o`: interleaved with `vzip`, eight 16-bit words at a time,
/// each half packed with the shuffle its non-ASCII lanes (`lanes`, bit
/// `j` for lane `j`) choose. Returns `o` after the written bytes.
///
/// # Safety
///
/// `o + 32 <= buffer.len()`: the second store is at most 16 bytes after
/// the first.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn pack_pairs(
    firsts: uint8x16_t,
    trails: uint8x16_t,
    lanes: u32,
    buffer: *mut u8,
    mut o: usize,
) -> usize {
    for (words, lanes) in [
        (vzip1q_u8(firsts, trails), lanes & 0xFF),
        (vzip2q_u8(firsts, trails), lanes >> 8),
    ] {
        let packed = vqtbl1q_u8(words, load_array(&EXPAND[lanes as usize]));
        // SAFETY: `o` is at most 16 bytes past the caller's `o`, whose 32
        // bytes are in the buffer (the caller's).
        unsafe { vst1q_u8(buffer.wrapping_add(o), packed) };
        o += 8 + lanes.count_ones() as usize;
    }
    o
}

/// The NEON kernel of [`super::latin1_run`] (PHP's `utf8_encode()`): 16
/// bytes a step, an ASCII block stored as it is; otherwise each high
/// byte's lead (`0xC0 | b >> 6`) and continuation (`b & 0xBF`) packed
/// after the ASCII ones as the SSSE3 kernel packs them.
#[target_feature(enable = "neon")]
pub(super) fn latin1_run_neon(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let (mut i, mut o) = (0usize, 0usize);
    let (lead_bits, trail_bits) = (vdupq_n_u8(0xC0), vdupq_n_u8(0xBF));
    // A step writes two 16-byte stores, the second at most 16 bytes on.
    while src.len() - i >= STEP && dst.len() - o >= 2 * STEP {
        // SAFETY: `i + 16 <= src.len()`.
        let v = unsafe { load(src, i) };
        if !any_high(v) {
            // SAFETY: `o + 32 <= dst.len()`.
            unsafe { store(dst, o, v) };
            i += STEP;
            o += STEP;
            continue;
        }
        let high = vcltzq_s8(vreinterpretq_s8_u8(v));
        let firsts = vbslq_u8(high, vorrq_u8(vshrq_n_u8::<6>(v), lead_bits), v);
        let trails = vandq_u8(v, trail_bits);
        let lanes = mask(v);
        // SAFETY: `o + 32 <= dst.len()`.
        o = unsafe { pack_pairs(firsts, trails, lanes, dst.as_mut_ptr(), o) };
        i += STEP;
    }
    (i, o)
}

/// The 64 bytes of `t` from `at`, as a four-register lookup table.
#[inline]
#[target_feature(enable = "neon")]
fn table64(t: &[u8; 128], at: usize) -> uint8x16x4_t {
    let row = |k: usize| {
        load_array(
            t[at + 16 * k..at + 16 * k + 16]
                .try_into()
                .expect("16 bytes"),
        )
    };
    uint8x16x4_t(row(0), row(1), row(2), row(3))
}

/// The NEON kernel of [`super::single_byte_run`]: 16 bytes a step, each
/// high byte's lead and trail looked up with two `vqtbl4q` (64 entries
/// each), interleaved after the bytes with `vzip` and packed eight 16-bit
/// words at a time with the shuffles of the x86 Latin-1 kernel. A block
/// holding a byte without a two-byte character is left whole. Returns
/// the bytes read and the bytes written after `out`'s length.
#[target_feature(enable = "neon")]
pub(super) fn single_byte_run_neon(
    src: &[u8],
    out: &mut Vec<u8>,
    table: &TwoByteTable,
) -> (usize, usize) {
    let start = out.len();
    let (mut i, mut o) = (0usize, start);
    let (lead_lo, lead_hi) = (table64(&table.lead, 0), table64(&table.lead, 64));
    let (trail_lo, trail_hi) = (table64(&table.trail, 0), table64(&table.trail, 64));
    let (top, half) = (vdupq_n_u8(0x80), vdupq_n_u8(64));
    // A step writes two 16-byte stores, the second at most 16 bytes on.
    while src.len() - i >= STEP && out.capacity() - o >= 2 * STEP {
        // SAFETY: `i + 16 <= src.len()`.
        let v = unsafe { load(src, i) };
        if !any_high(v) {
            // SAFETY: `o + 32 <= out.capacity()`.
            unsafe { store_spare(out, o, v) };
            i += STEP;
            o += STEP;
            continue;
        }
        // High bytes as 0..=127, ASCII from 128 (out of every table's
        // range: `vqtbl4q` gives 0, `vqtbx4q` keeps what it has).
        let index = veorq_u8(v, top);
        let upper = vsubq_u8(index, half);
        let lead = vqtbx4q_u8(vqtbl4q_u8(lead_lo, index), lead_hi, upper);
        let trail = vqtbx4q_u8(vqtbl4q_u8(trail_lo, index), trail_hi, upper);
        let high = vcgeq_u8(v, top);
        if any(vandq_u8(high, vceqzq_u8(lead))) {
            break;
        }
        let firsts = vbslq_u8(high, lead, v);
        let lanes = mask(v);
        // SAFETY: `o + 32 <= out.capacity()`.
        o = unsafe { pack_pairs(firsts, trail, lanes, out.as_mut_ptr(), o) };
        i += STEP;
    }
    (i, o - start)
}
