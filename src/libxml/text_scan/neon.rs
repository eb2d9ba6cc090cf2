//! The NEON text kernels: [`text_run`](super::text_run)'s windows and
//! [`plain_text_windows`](super::plain_text_windows), 16 bytes a window,
//! the AVX2 kernels' method (`x86_text`) with NEON's table lookups.

#[allow(clippy::wildcard_imports)]
use std::arch::aarch64::*;

use crate::simd::neon::{any, any_high, load, load_array, mask};
use crate::simd::utf8_check::{lookups, utf8_errors};

use super::{STOP_HIGH_FAST, STOP_HIGH_RUN, STOP_LOW, TEXT_WINDOW as W, TextRun};

/// Nonzero in each byte of `v` that is an ASCII byte with a bit in
/// common between `low` and `high` (see [`STOP_LOW`]).
#[inline]
#[target_feature(enable = "neon")]
fn stops(v: uint8x16_t, low: uint8x16_t, high: uint8x16_t) -> uint8x16_t {
    vandq_u8(
        vqtbl1q_u8(low, vandq_u8(v, vdupq_n_u8(0x0F))),
        vqtbl1q_u8(high, vshrq_n_u8::<4>(v)),
    )
}

/// The windows of [`super::text_run`], counted on from `run`, as
/// `x86_text::text_run_avx2` counts them: each window checked (stop
/// bytes, Keiser and Lemire's UTF-8 errors three bytes ahead, U+FFFE and
/// U+FFFF, the `end` limit) and taken whole when clean, a character
/// crossing its end included; the window with something to stop at is
/// taken up to the start of the character where the first problem is.
/// Stops at the start of a character.
///
/// # Panics
///
/// Unless `run.at < end <= s.len()`.
#[target_feature(enable = "neon")]
pub(super) fn text_run_neon(s: &[u8], mut run: TextRun, end: usize, utf8: bool) -> TextRun {
    assert!(run.at < end && end <= s.len());
    let n = s.len();
    let start = run.at;
    let mut i = start;
    // SAFETY: NEON, which aarch64 always has, is all the lookups need.
    let kl = unsafe { lookups::<uint8x16_t>() };
    let low = load_array(&STOP_LOW);
    let high = load_array(&STOP_HIGH_RUN);
    let zero = vdupq_n_u8(0);
    let newline = vdupq_n_u8(b'\n');
    let (c0, ef, bf, one) = (
        vdupq_n_u8(0xC0),
        vdupq_n_u8(0xEF),
        vdupq_n_u8(0xBF),
        vdupq_n_u8(1),
    );
    // As in the AVX2 kernel: flags mark where to stop, UTF-8 errors a
    // byte early; the window's first three bytes are checked from a
    // character start (`head`), other windows' by the window before.
    let mut head = true;
    while i < end && i + W + 3 <= n {
        // SAFETY: `i + 19 <= n`: the 16 bytes from `i` are in `s`.
        let v = unsafe { load(s, i) };
        let stop = stops(v, low, high);
        let mut flags = if any(stop) {
            u64::from(mask(vtstq_u8(stop, stop)))
        } else {
            0
        };
        let non_ascii = any_high(v);
        let mut cont = 0;
        if !utf8 {
            if non_ascii {
                flags |= u64::from(mask(v));
            }
        } else {
            if head {
                let p1 = vextq_u8::<15>(zero, v);
                let p2 = vextq_u8::<14>(zero, v);
                let p3 = vextq_u8::<13>(zero, v);
                // SAFETY: NEON, which aarch64 always has.
                let e = unsafe { utf8_errors(kl, v, p1, p2, p3) };
                if any(e) {
                    let e = mask(vtstq_u8(e, e)) & 0b111;
                    flags |= u64::from((e >> 1) | (e & 1));
                }
            }
            if non_ascii {
                // SAFETY: `i + 19 <= n`: the 16 bytes from `i + 1` are
                // in `s`.
                let n1 = unsafe { load(s, i + 1) };
                // SAFETY: and those from `i + 2`.
                let n2 = unsafe { load(s, i + 2) };
                // SAFETY: and those from `i + 3`.
                let n3 = unsafe { load(s, i + 3) };
                // SAFETY: NEON, which aarch64 always has.
                let e = unsafe { utf8_errors(kl, n3, n2, n1, v) };
                if any(e) {
                    flags |= u64::from(mask(vtstq_u8(e, e))) << 2;
                }
                // EF BF BE or EF BF BF (U+FFFE, U+FFFF) begins here.
                let nonchar = vandq_u8(
                    vandq_u8(vceqq_u8(v, ef), vceqq_u8(n1, bf)),
                    vceqq_u8(vorrq_u8(n2, one), bf),
                );
                if any(nonchar) {
                    flags |= u64::from(mask(nonchar));
                }
                cont = mask(vandq_u8(vcltq_u8(v, c0), vcgeq_u8(v, vdupq_n_u8(0x80))));
            }
        }
        // No character starts from `end` on.
        let room = end - i;
        if room < W {
            flags |= 1 << room;
        }
        let newlines = vceqq_u8(v, newline);
        let newlines = if any(newlines) { mask(newlines) } else { 0 };
        if flags == 0 {
            super::take_window(&mut run, i, newlines, cont, u32::MAX);
            i += W;
            head = !utf8 || !non_ascii;
            continue;
        }
        i += super::take_to_problem::<W>(&mut run, s, i, flags, newlines, cont);
        break;
    }
    if !head {
        i = super::back_to_character_start(&mut run, s, i, start);
    }
    run.at = i;
    run
}

/// [`super::plain_text_windows`] with NEON.
#[target_feature(enable = "neon")]
pub(super) fn plain_text_windows_neon(s: &[u8]) -> usize {
    let mut i = 0;
    let low = load_array(&STOP_LOW);
    let high = load_array(&STOP_HIGH_FAST);
    while i + W <= s.len() {
        // SAFETY: `i + 16 <= s.len()`: the 16 bytes are in `s`.
        let v = unsafe { load(s, i) };
        let stop = stops(v, low, high);
        if any(stop) || any_high(v) {
            let other = mask(vtstq_u8(stop, stop)) | mask(v);
            return i + other.trailing_zeros() as usize;
        }
        i += W;
    }
    i
}
