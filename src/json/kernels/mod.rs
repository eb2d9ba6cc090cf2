//! The JSON escaping kernels: PHP's `php_json_escape_string()` over
//! windows of 32 or 64 bytes, each tier checked against the scalar
//! escaper in `json::escape`.
//!
//! * [`json_escape_run`]: PHP's `json_encode()` string escaping over 32-byte
//!   windows with AVX2, detected at run time: clean bytes are stored a
//!   window at a time, the bytes that need escaping under the flags are
//!   found with a nibble lookup, UTF-8 is validated a window at a time
//!   (`JSON_UNESCAPED_UNICODE`) or decoded and written as `\uXXXX` one
//!   character at a time otherwise. With AVX-512 (F, BW, VL, VBMI, VBMI2)
//!   two more paths: windows whose escapes are all two bytes long (each
//!   byte a pair, one compress), and runs of non-ASCII text written as
//!   `\uXXXX` (each byte's one to three output bytes computed from it and
//!   its neighbours, then interleaved and compressed). It stops at
//!   malformed UTF-8 and near the end of the input, where the caller's
//!   scalar code takes over. `PHPXML_NO_AVX512` in the environment (read
//!   once) keeps it to AVX2, for testing that path. On aarch64 the AVX2
//!   loop with NEON over 16-byte windows (`neon`).
//!
//! Files: `x86_256` (the AVX2 loop, and its AVX-512 paths on 256-bit
//! vectors), `x86_512` (the paths on 512-bit vectors), `planes` (the
//! arithmetic of the `\uXXXX` planes, written once for both widths),
//! `neon` (the aarch64 loop) and `tables` (the escapes written by byte,
//! and the decoding of one character). Here: what the AVX2 and NEON loops
//! share, written once over [`Window`] (the escapes of a window and
//! their walk).

// The kernels' deliberate exceptions: byte pointers cast to vector types
// only for the unaligned load and store intrinsics, lane indexes and masks
// that fit by construction, and a kernel's loop kept in one function.
#![allow(
    clippy::too_many_lines,
    clippy::cast_ptr_alignment,
    clippy::cast_sign_loss
)]

/// What [`json_escape_run`] needs to know of the `json_encode()` flags.
// (Only the vector kernels read the fields.)
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
#[derive(Clone, Copy, Debug)]
pub(crate) struct JsonKernel {
    /// Nibble lookups for the ASCII bytes to escape: a byte `b < 0x80`
    /// needs escaping when `lo[b & 15] & hi[b >> 4] != 0`.
    pub(crate) lo: [u8; 16],
    /// See `lo`; `hi[8..]` is 0.
    pub(crate) hi: [u8; 16],
    /// `JSON_HEX_QUOT`: `"` is written `\u0022`.
    pub(crate) hex_quot: bool,
    /// `JSON_UNESCAPED_UNICODE`: well-formed characters are copied.
    pub(crate) raw_unicode: bool,
    /// With `raw_unicode`, `JSON_UNESCAPED_LINE_TERMINATORS`: U+2028 and
    /// U+2029 are copied too.
    pub(crate) raw_terminators: bool,
}

#[cfg(target_arch = "x86_64")]
impl JsonKernel {
    /// The escape letters of the ASCII bytes under these flags (`"` as
    /// `\u0022` with `JSON_HEX_QUOT`).
    #[inline(always)]
    fn letters(&self) -> &'static [u8; 128] {
        if self.hex_quot {
            &JSON_LETTERS_HEX_QUOT
        } else {
            &JSON_LETTERS
        }
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
impl JsonKernel {
    /// The escape of `"` under these flags, as [`JSON_ESCAPES`] words
    /// are: `\u0022` with `JSON_HEX_QUOT`, `\"` otherwise.
    #[inline(always)]
    fn quote_escape(&self) -> u64 {
        if self.hex_quot {
            JSON_QUOT_HEX
        } else {
            JSON_ESCAPES[usize::from(b'"')]
        }
    }
}

#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod planes;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod tables;
#[cfg(target_arch = "x86_64")]
mod x86_256;
#[cfg(target_arch = "x86_64")]
mod x86_512;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use tables::{JSON_ESCAPES, JSON_QUOT_HEX, escape_at};
#[cfg(target_arch = "x86_64")]
use tables::{JSON_LETTERS, JSON_LETTERS_HEX_QUOT, json_unit_word};

/// The escapes of the window `v` at `src[i..]` ([`Window::WIDTH`]
/// bytes; a character may cross its end), `m` its bytes to escape (bit
/// `j` for byte `j`; at most three bytes past the window): the window
/// is stored at byte `len` of `out`'s buffer, then each escape written
/// over it in turn by `escape` (from `src[p]` at byte `at` of `out`'s
/// buffer, returning the bytes written and read, `None` at malformed
/// UTF-8) and the text after it stored again, up to byte `end` of the
/// window. Returns where the next window starts and the new written
/// length, or where malformed UTF-8 starts (`out`'s length then set to
/// what was written before it). The frame of every tier's walk, expanded in each tier's
/// `#[target_feature]` function.
///
/// # Safety
///
/// The CPU features of `V`; the bytes of `out` up to `len` written;
/// `end <= V::WIDTH`, `i + 2 * V::WIDTH <= src.len()`; `len + 6 * (V::WIDTH + 3) + V::WIDTH + 16 <=
/// out.capacity()` (six bytes written at most per byte read, an escape
/// storing at most 16 bytes from where it writes).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn walk_escapes<V: Window>(
    src: &[u8],
    i: usize,
    v: V,
    mut m: u64,
    end: usize,
    out: &mut Vec<u8>,
    mut len: usize,
    mut escape: impl FnMut(usize, &mut Vec<u8>, usize) -> Option<(usize, usize)>,
) -> Result<(usize, usize), usize> {
    // `src[i + last..]` is stored at `len` before each escape; the
    // escape then overwrites what follows the run.
    let mut last = 0usize;
    // SAFETY: within the room (the caller's); `V`'s features.
    unsafe { v.store_spare(out, len) };
    while m != 0 {
        let j = m.trailing_zeros() as usize;
        len += j - last;
        let Some((written, width)) = escape(i + j, out, len) else {
            // SAFETY: the bytes up to `len` have been written (the
            // caller's, and the escapes').
            unsafe { out.set_len(len) };
            return Err(i + j);
        };
        len += written;
        last = j + width;
        // `last <= V::WIDTH + 3 < 64`.
        m &= u64::MAX << last;
        if m != 0 {
            // SAFETY: a bit of `m` is left above `last`, so `last <
            // V::WIDTH` and `i + last + V::WIDTH <= src.len()`; `V`'s
            // features.
            let rest = unsafe { V::load(src, i + last) };
            // SAFETY: within the room (the caller's); `V`'s features.
            unsafe { rest.store_spare(out, len) };
        }
    }
    if last < end {
        // SAFETY: `last < end <= V::WIDTH`, so `i + last + V::WIDTH <=
        // src.len()`; `V`'s features.
        let rest = unsafe { V::load(src, i + last) };
        // SAFETY: within the room (the caller's); `V`'s features.
        unsafe { rest.store_spare(out, len) };
        Ok((i + end, len + end - last))
    } else {
        Ok((i + last, len))
    }
}

/// [`walk_escapes`] with each escape written by [`escape_at`], as the
/// AVX2 and NEON loops write it (`RAW`: `kernel.raw_unicode`; `quot`:
/// [`JsonKernel::quote_escape`]).
///
/// # Safety
///
/// As [`walk_escapes`].
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn walk_escapes_at<V: Window, const RAW: bool>(
    src: &[u8],
    i: usize,
    v: V,
    m: u32,
    end: usize,
    out: &mut Vec<u8>,
    len: usize,
    kernel: &JsonKernel,
    quot: u64,
) -> Result<(usize, usize), usize> {
    let escape = |p: usize, out: &mut Vec<u8>, at: usize| {
        // SAFETY: `p + 4 <= i + V::WIDTH + 3 <= src.len()`; `at + 14 <=
        // out.capacity()` (the room, the caller's).
        unsafe { escape_at::<RAW>(src, p, out, at, kernel, quot) }
    };
    // SAFETY: the caller's.
    unsafe { walk_escapes(src, i, v, u64::from(m), end, out, len, escape) }
}

/// The bytes of the window `v` at `src[i..]` to escape and where it
/// ends, from its ASCII bytes to escape (`special`) and its bytes from
/// 0x80 up (`high`): all of them, the window's width, but with
/// `JSON_UNESCAPED_UNICODE` (`RAW`) in a window that is well-formed
/// UTF-8 (checked from its start, a character start, with Keiser and
/// Lemire's lookups `kl`), `special` and U+2028 and U+2029 (E2 80 A8/A9)
/// unless `raw_terminators`, up to a character cut by the window's end
/// (left for the next window).
///
/// # Safety
///
/// The CPU features of `V`; `i + V::WIDTH <= src.len()`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
// Blocks of vector register operations, whose one requirement is the
// features of the vector type (the caller's): one safety argument each.
#[allow(clippy::multiple_unsafe_ops_per_block)]
#[inline(always)]
unsafe fn window_escapes<V: Window, const RAW: bool>(
    kl: [V; 3],
    src: &[u8],
    i: usize,
    v: V,
    special: u32,
    high: u32,
    raw_terminators: bool,
) -> (u32, usize) {
    let w = V::WIDTH;
    // Every vector operation below needs only `V`'s features (the
    // caller's).
    if !RAW || high == 0 {
        return (special | high, w);
    }
    // SAFETY: as above.
    let [prev1, prev2, prev3] = unsafe { v.previous() };
    // SAFETY: as above.
    if unsafe { crate::simd::utf8_check::utf8_errors(kl, v, prev1, prev2, prev3).any() } {
        return (special | high, w);
    }
    let mut m = special;
    if !raw_terminators {
        // SAFETY: as above.
        m |= unsafe {
            let [e2, x80, one, a9] = [V::splat(0xE2), V::splat(0x80), V::splat(1), V::splat(0xA9)];
            prev2
                .eq(e2)
                .and(prev1.eq(x80))
                .and(v.or(one).eq(a9))
                .high_lanes()
        } >> 2;
    }
    // SAFETY: `i + V::WIDTH <= src.len()` (the caller's).
    let tail = unsafe { crate::simd::memory::read32(src, i + w - 4) }.to_le_bytes();
    let end = if tail[3] >= 0xC0 {
        w - 1
    } else if tail[2] >= 0xE0 {
        w - 2
    } else if tail[1] >= 0xF0 {
        w - 3
    } else {
        w
    };
    (m, end)
}

/// Makes room for `room` bytes after the first `len` of `out`'s buffer,
/// which are kept (its length is set to `len` first).
///
/// # Safety
///
/// `len <= out.capacity()`, the bytes of `out` up to `len` written.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn reserve_room(out: &mut Vec<u8>, len: usize, room: usize) {
    if out.capacity() - len < room {
        // SAFETY: the caller's.
        unsafe { out.set_len(len) };
        out.reserve(room);
    }
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use crate::simd::Window;

/// Window of [`json_escape_run`].
#[cfg(target_arch = "x86_64")]
const JSON_WINDOW: usize = 32;

/// Escapes `src[i..]` into `out` as PHP's `php_json_escape_string()`
/// writes the inside of a string literal, for as long as it can: it stops
/// at malformed UTF-8 (the returned position is its first byte) or when
/// fewer than 64 bytes are left (the returned position is then the start
/// of a character). Everything before the returned position has been
/// written to `out`; nothing else has. `i` must be at the start of a
/// character.
///
/// Uses AVX2 when the CPU has it, NEON on aarch64 (where it stops when
/// fewer than 32 bytes are left); without, it returns `i` at once.
#[inline]
pub(crate) fn json_escape_run(
    src: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    kernel: &JsonKernel,
) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if src.len().saturating_sub(i) >= 2 * JSON_WINDOW {
            if crate::simd::avx512_available() {
                return if kernel.raw_unicode {
                    // SAFETY: every feature the kernel needs is available
                    // (checked just above).
                    unsafe { x86_256::json_escape_avx512_raw(src, i, out, kernel) }
                } else {
                    // SAFETY: as above.
                    unsafe { x86_256::json_escape_avx512(src, i, out, kernel) }
                };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is available (checked just above).
                return unsafe { x86_256::json_escape_avx2(src, i, out, kernel) };
            }
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if src.len().saturating_sub(i) >= 2 * crate::simd::neon::WIDTH {
            return if kernel.raw_unicode {
                // SAFETY: NEON is part of aarch64.
                unsafe { neon::json_escape_neon::<true>(src, i, out, kernel) }
            } else {
                // SAFETY: as above.
                unsafe { neon::json_escape_neon::<false>(src, i, out, kernel) }
            };
        }
    }
    let _ = (src, out, kernel);
    i
}

#[cfg(test)]
mod tests {
    use super::{JsonKernel, json_escape_run};

    /// The vector tiers take plain ASCII whole windows at a time; the
    /// test says which tiers this CPU runs (with `PHPXML_NO_AVX512`, the
    /// AVX2 one; NEON on aarch64) and fails where one required by `PHPXML_REQUIRE_TIERS`
    /// cannot.
    #[test]
    fn json_escape_run_takes_plain_text_with_the_tiers_available() {
        let kernel = JsonKernel {
            lo: [0; 16],
            hi: [0; 16],
            hex_quot: false,
            raw_unicode: false,
            raw_terminators: false,
        };
        let src = [b'a'; 256];
        let mut out = Vec::new();
        let at = json_escape_run(&src, 0, &mut out, &kernel);
        assert_eq!(out[..at], src[..at]);
        #[cfg(target_arch = "x86_64")]
        let (avx2, avx512) = (
            std::arch::is_x86_feature_detected!("avx2"),
            crate::simd::avx512_available(),
        );
        #[cfg(not(target_arch = "x86_64"))]
        let (avx2, avx512) = (false, false);
        let neon = cfg!(target_arch = "aarch64");
        if avx2 || avx512 {
            // The kernels stop when fewer than two windows are left.
            assert!(at >= src.len() - 64, "stopped at {at}");
        } else if neon {
            assert!(at >= src.len() - 32, "stopped at {at}");
        } else {
            assert_eq!(at, 0);
        }
        if !neon {
            crate::simd::skipped_tier("neon", "json_escape_run");
        }
        if !avx512 {
            crate::simd::skipped_tier("avx512", "json_escape_run");
        }
        if !avx2 {
            crate::simd::skipped_tier("avx2", "json_escape_run");
        }
    }
}
