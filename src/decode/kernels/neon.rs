//! The aarch64 tiers of [`utf8_run`](super::utf8_run) and
//! [`single_byte_run`](super::single_byte_run): NEON, 16 bytes a step,
//! the x86 kernels' methods with NEON's table lookups for their shuffles.

#[allow(clippy::wildcard_imports)]
use std::arch::aarch64::*;

use crate::simd::neon::{
    any, any_high, load, load_array, load_half_array, mask, store, store_half, store_spare,
};

use super::{COMPRESS, EXPAND, STEP, TwoByteTable};

/// The NEON kernel of [`super::utf8_run`]; `latin1` selects the
/// ISO-8859-1 target (C2/C3 pairs keep their code point), otherwise
/// every multi-byte character becomes `?`.
///
/// # Panics
///
/// If `dst` is shorter than `src`.
#[target_feature(enable = "neon")]
pub(super) fn utf8_run_neon(src: &[u8], dst: &mut [u8], latin1: bool) -> (usize, usize) {
    assert!(dst.len() >= src.len());
    let (mut i, mut o) = (0usize, 0usize);
    let splat = vdupq_n_u8;
    // Whether each byte is in `lo..=hi`.
    let within = |v: uint8x16_t, lo: u8, hi: u8| vcleq_u8(vsubq_u8(v, splat(lo)), splat(hi - lo));
    let (low2, low6, question) = (splat(0x03), splat(0x3F), splat(b'?'));
    // Writes the block up to lane `$take`: ASCII lanes as they are,
    // each lead lane as one byte, continuation lanes dropped.
    macro_rules! emit {
        ($v:expr, $next:expr, $lead:expr, $cont:expr, $take:expr) => {{
            let (v, next, lead, cont, take): (uint8x16_t, uint8x16_t, uint8x16_t, u32, usize) =
                ($v, $next, $lead, $cont, $take);
            // Each lead lane becomes one byte: for C2/C3 on ISO-8859-1 its
            // code point, from the lead's low two bits and the next byte's
            // low six; `?` for every other character.
            let value = if latin1 {
                let code = vorrq_u8(vshlq_n_u8::<6>(vandq_u8(v, low2)), vandq_u8(next, low6));
                vbslq_u8(within(v, 0xC2, 0xC3), code, question)
            } else {
                question
            };
            let out = vbslq_u8(lead, value, v);
            // Drop continuation lanes and lanes from `take` on.
            let drop = (cont | (0xFFFF_u32 << take)) & 0xFFFF;
            let (drop_lo, drop_hi) = ((drop & 0xFF) as usize, (drop >> 8) as usize);
            let kept_lo = 8 - drop_lo.count_ones() as usize;
            let kept_hi = 8 - drop_hi.count_ones() as usize;
            let lo = vtbl1_u8(vget_low_u8(out), load_half_array(&COMPRESS[drop_lo]));
            let hi = vtbl1_u8(vget_high_u8(out), load_half_array(&COMPRESS[drop_hi]));
            // SAFETY: `o <= i` and `kept_lo <= 8`: the 8-byte stores end
            // at most at `o + 16 <= i + 16 <= src.len() <= dst.len()`.
            unsafe { store_half(dst, o, lo) };
            // SAFETY: as above.
            unsafe { store_half(dst, o + kept_lo, hi) };
            i += take;
            o += kept_lo + kept_hi;
        }};
    }
    while src.len() - i >= STEP {
        // SAFETY: `i + 16 <= src.len()`.
        let v = unsafe { load(src, i) };
        if !any_high(v) {
            // SAFETY: `o <= i` and `dst.len() >= src.len() >= i + 16`.
            unsafe { store(dst, o, v) };
            i += STEP;
            o += STEP;
            continue;
        }
        let high = mask(v);
        let next = vextq_u8::<1>(v, splat(0));
        let cont_v = within(v, 0x80, 0xBF);
        let cont = mask(cont_v);
        let lead2 = within(v, 0xC2, 0xDF);
        let lead2_m = mask(lead2);
        let ok2 = lead2_m & (cont >> 1);
        // As in the SSSE3 kernel: a character whose lead is too near the
        // block's end is left for the next block; any other non-ASCII
        // lane outside a character is bad, and the scalar decoder takes
        // over there. Blocks of ASCII and two-byte characters need no
        // more than this first test.
        let cut2 = lead2_m & (1 << (STEP - 1));
        let bad2 = high & !(ok2 | (cont & (ok2 << 1)) | cut2);
        if bad2 == 0 {
            if cut2 == 0 {
                emit!(v, next, lead2, cont, STEP);
            } else {
                emit!(v, next, lead2, cont, STEP - 1);
            }
            continue;
        }
        let (lead, bad, take) = {
            let lead3 = within(v, 0xE0, 0xEF);
            let lead4 = within(v, 0xF0, 0xF4);
            let (lead3_m, lead4_m) = (mask(lead3), mask(lead4));
            // Leads whose second byte is out of range: overlong (E0
            // 80..9F, F0 80..8F), surrogate (ED A0..BF), above U+10FFFF
            // (F4 90..BF). Only continuation second bytes matter: the
            // others fail anyway.
            let is = |b: u8| vceqq_u8(v, splat(b));
            let out_of_range = mask(vorrq_u8(
                vorrq_u8(
                    vandq_u8(is(0xE0), vcltq_u8(next, splat(0xA0))),
                    vandq_u8(is(0xED), vcgtq_u8(next, splat(0x9F))),
                ),
                vorrq_u8(
                    vandq_u8(is(0xF0), vcltq_u8(next, splat(0x90))),
                    vandq_u8(is(0xF4), vcgtq_u8(next, splat(0x8F))),
                ),
            ));
            let (take, bad) =
                super::block_take(high, cont, [lead2_m, lead3_m, lead4_m], out_of_range);
            (vorrq_u8(lead2, vorrq_u8(lead3, lead4)), bad, take)
        };
        if take == 0 {
            break;
        }
        emit!(v, next, lead, cont, take);
        // Stop at a bad lane; a cut character just starts the next block.
        if bad {
            break;
        }
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
        for (words, lanes) in [
            (vzip1q_u8(firsts, trail), lanes & 0xFF),
            (vzip2q_u8(firsts, trail), lanes >> 8),
        ] {
            let packed = vqtbl1q_u8(words, load_array(&EXPAND[lanes as usize]));
            // SAFETY: the second store is at most 16 bytes after the
            // first, and `o + 32 <= out.capacity()` at the first.
            unsafe { store_spare(out, o, packed) };
            o += 8 + lanes.count_ones() as usize;
        }
        i += STEP;
    }
    (i, o - start)
}
