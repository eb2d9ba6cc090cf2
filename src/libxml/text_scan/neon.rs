//! The NEON text kernels: [`text_run`](super::text_run)'s windows and
//! [`plain_text_windows`](super::plain_text_windows), 16 bytes a window:
//! the loop the AVX2 kernel shares (`text_windows`), on NEON registers.

#[allow(clippy::wildcard_imports)]
use std::arch::aarch64::*;

use crate::simd::neon::{any, any_high, load, load_array, mask};

use super::{STOP_HIGH_FAST, STOP_LOW, TEXT_WINDOW as W, TextRun, VALUE_WINDOW, stops};

/// [`super::text_windows`] with NEON.
///
/// # Panics
///
/// Unless `run.at < end <= s.len()`.
#[target_feature(enable = "neon")]
pub(super) fn text_run_neon(s: &[u8], run: TextRun, end: usize, utf8: bool) -> TextRun {
    assert!(run.at < end && end <= s.len());
    // SAFETY: NEON, which aarch64 always has; the bounds asserted above.
    unsafe { super::text_windows::<uint8x16_t>(s, run, end, utf8) }
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
        // SAFETY: NEON, which aarch64 always has.
        let stop = unsafe { stops(v, low, high) };
        if any(stop) || any_high(v) {
            let other = mask(vtstq_u8(stop, stop)) | mask(v);
            return i + other.trailing_zeros() as usize;
        }
        i += W;
    }
    i
}

/// [`super::plain_value_windows`] with NEON.
#[target_feature(enable = "neon")]
pub(super) fn plain_value_windows_neon(s: &[u8], quote: u8) -> Result<usize, usize> {
    let mut i = 0;
    let space = vdupq_n_u8(0x20);
    let printable = vdupq_n_u8(0x60);
    let lt = vdupq_n_u8(b'<');
    let amp = vdupq_n_u8(b'&');
    let quote = vdupq_n_u8(quote);
    while i + VALUE_WINDOW <= s.len() {
        // SAFETY: `i + 16 <= s.len()`: the 16 bytes are in `s`.
        let v = unsafe { load(s, i) };
        // below 0x20 wraps to 0xE0 and up, 0x80 and up stays at 0x60 and up
        let other = vorrq_u8(
            vorrq_u8(vcgeq_u8(vsubq_u8(v, space), printable), vceqq_u8(v, lt)),
            vorrq_u8(vceqq_u8(v, amp), vceqq_u8(v, quote)),
        );
        if any(other) {
            return Ok(i + mask(other).trailing_zeros() as usize);
        }
        i += VALUE_WINDOW;
    }
    Err(i)
}
