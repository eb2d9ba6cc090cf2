//! The NEON kernel of [`json_escape_run`](super::json_escape_run): the
//! AVX2 loop's method over 16-byte windows. Clean windows (no byte to
//! escape under the flags: nibble lookups of the flags' tables) are
//! stored whole; the others go through the frames the AVX2 loop uses
//! too (`window_escapes`, `walk_escapes_at`).

#[allow(clippy::wildcard_imports)]
use std::arch::aarch64::*;

use crate::simd::neon::{WIDTH as W, any, any_high, load, load_array, mask, store_spare};
use crate::simd::utf8_check::lookups;

use super::JsonKernel;

/// A window with this many bytes from 0x80 up (text written as
/// `\uXXXX`, no four-byte characters) ends the kernel: the caller's
/// scalar loop writes dense text faster (as `SCALAR_DENSE` on x86,
/// half a window).
const SCALAR_DENSE: u32 = W as u32 / 2;

/// [`super::json_escape_run`] with NEON; `RAW` is
/// `kernel.raw_unicode`. Runs while two windows are left.
#[target_feature(enable = "neon")]
pub(super) fn json_escape_neon<const RAW: bool>(
    src: &[u8],
    mut i: usize,
    out: &mut Vec<u8>,
    kernel: &JsonKernel,
) -> usize {
    // Room asked for before each window: a window writes at most six
    // bytes per byte of its own and of a character crossing its end,
    // and stores run up to 16 bytes past what it writes.
    const ROOM: usize = 6 * (W + 3) + 2 * W + 16;
    let n = src.len();
    let (lo_t, hi_t) = (load_array(&kernel.lo), load_array(&kernel.hi));
    let low_nibble = vdupq_n_u8(0x0F);
    // SAFETY: NEON, which aarch64 always has, is all the lookups need.
    let kl = unsafe { lookups::<uint8x16_t>() };
    let quot = kernel.quote_escape();
    let mut len = out.len();
    // Each window: `src[i..i + 32]` is in bounds.
    while n - i >= 2 * W {
        if out.capacity() - len < ROOM {
            // SAFETY: the bytes up to `len` have been written.
            unsafe { out.set_len(len) };
            out.reserve(ROOM);
        }
        // SAFETY: `i + 16 <= n`.
        let v = unsafe { load(src, i) };
        let class = vandq_u8(
            vqtbl1q_u8(lo_t, vandq_u8(v, low_nibble)),
            vqtbl1q_u8(hi_t, vshrq_n_u8::<4>(v)),
        );
        let non_ascii = any_high(v);
        if !non_ascii && !any(class) {
            // SAFETY: `len + 16 <= out.capacity()` (ROOM).
            unsafe { store_spare(out, len, v) };
            len += W;
            i += W;
            continue;
        }
        let special = mask(vtstq_u8(class, class));
        let high = if non_ascii { mask(v) } else { 0 };
        if !RAW && high.count_ones() >= SCALAR_DENSE && !any(vcgeq_u8(v, vdupq_n_u8(0xF0))) {
            break;
        }
        // SAFETY: NEON, which aarch64 always has; `i + 16 <= n`.
        let (m, end) = unsafe {
            super::window_escapes::<_, RAW>(kl, src, i, v, special, high, kernel.raw_terminators)
        };
        // SAFETY: NEON, which aarch64 always has; `end <= 16`, `i + 32
        // <= n`; `len + ROOM <= out.capacity()`, written up to `len`.
        match unsafe { super::walk_escapes_at::<_, RAW>(src, i, v, m, end, out, len, kernel, quot) }
        {
            Ok(next) => (i, len) = next,
            Err(p) => return p,
        }
    }
    // SAFETY: the bytes up to `len` have been written.
    unsafe { out.set_len(len) };
    i
}
