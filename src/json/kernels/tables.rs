//! The escapes the kernels write, by byte, and the character decoding
//! of their one-character-at-a-time paths.

use crate::simd::memory::{byte, read32, store32_spare, store64_spare};

// The escape of each ASCII byte, `\u0022`, and `\uXXXX` as words: the
// scalar escaper's, written once.
pub(super) use crate::json::escape::{JSON_ESCAPES, JSON_QUOT_HEX, json_unit_word};

/// For each ASCII byte with a two-byte escape, its second byte; 0 for the
/// others (and for `"` with `JSON_HEX_QUOT`, in the second table).
#[cfg(target_arch = "x86_64")]
pub(super) static JSON_LETTERS: [u8; 128] = json_letters(false);
#[cfg(target_arch = "x86_64")]
pub(super) static JSON_LETTERS_HEX_QUOT: [u8; 128] = json_letters(true);

#[cfg(target_arch = "x86_64")]
const fn json_letters(hex_quot: bool) -> [u8; 128] {
    let mut t = [0u8; 128];
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0A] = b'n';
    t[0x0C] = b'f';
    t[0x0D] = b'r';
    if !hex_quot {
        t[b'"' as usize] = b'"';
    }
    t[b'\\' as usize] = b'\\';
    t[b'/' as usize] = b'/';
    t
}

/// The well-formed character at the start of `w` (four bytes,
/// little-endian, lead byte `>= 0x80`): its code point and length, or
/// `None` where PHP's decoder fails.
#[inline(always)]
pub(super) fn json_decode_word(w: u32) -> Option<(u32, usize)> {
    let b0 = w & 0xFF;
    let b1 = w >> 8 & 0xFF;
    let b2 = w >> 16 & 0xFF;
    let b3 = w >> 24;
    match b0 {
        0xC2..=0xDF if w & 0xC000 == 0x8000 => Some(((b0 & 0x1F) << 6 | (b1 & 0x3F), 2)),
        0xE0..=0xEF
            if w & 0xC0_C000 == 0x80_8000
                && (b0 != 0xE0 || b1 >= 0xA0)
                && (b0 != 0xED || b1 < 0xA0) =>
        {
            Some(((b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F), 3))
        }
        0xF0..=0xF4
            if w & 0xC0C0_C000 == 0x8080_8000
                && (b0 != 0xF0 || b1 >= 0x90)
                && (b0 != 0xF4 || b1 < 0x90) =>
        {
            Some((
                (b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F),
                4,
            ))
        }
        _ => None,
    }
}

/// Writes the escape of the ASCII byte `b` (`quot` for `"`, else its
/// entry in `escapes`: up to 8 bytes stored, the length in the top
/// byte) at byte `at` of `out`'s buffer, and returns its length.
///
/// # Safety
///
/// `at + 8 <= out.capacity()`.
#[inline(always)]
pub(super) unsafe fn escape_ascii(
    b: u8,
    quot: u64,
    escapes: &[u64; 128],
    out: &mut Vec<u8>,
    at: usize,
) -> usize {
    let word = if b == b'"' {
        quot
    } else {
        escapes[usize::from(b)]
    };
    // SAFETY: `at + 8 <= out.capacity()` (the caller's).
    unsafe { store64_spare(out, at, word) };
    (word >> 56) as usize
}

/// Writes the escape of what starts at `src[p]` at byte `len` of
/// `out`'s buffer, as `php_json_escape_string()` writes it: an ASCII
/// byte's escape (`quot` for `"`), a character copied (`RAW`, but for
/// U+2028 and U+2029 unless `kernel.raw_terminators`) or written as
/// `\uXXXX` (two for a character above U+FFFF). Returns the bytes
/// written and read, or `None` at malformed UTF-8.
///
/// # Safety
///
/// `p + 4 <= src.len()`; `len + 14 <= out.capacity()`.
#[inline(always)]
pub(super) unsafe fn escape_at<const RAW: bool>(
    src: &[u8],
    p: usize,
    out: &mut Vec<u8>,
    len: usize,
    kernel: &super::JsonKernel,
    quot: u64,
) -> Option<(usize, usize)> {
    // SAFETY: `p < src.len()` (the caller's).
    let b = unsafe { byte(src, p) };
    if b < 0x80 {
        // SAFETY: `len + 8 <= out.capacity()` (the caller's).
        let written = unsafe { escape_ascii(b, quot, &JSON_ESCAPES, out, len) };
        return Some((written, 1));
    }
    // SAFETY: `p + 4 <= src.len()` (the caller's).
    let w = unsafe { read32(src, p) };
    let (cp, width) = json_decode_word(w)?;
    let raw = RAW && (kernel.raw_terminators || cp & !1 != 0x2028);
    // Each store below is within `len + 14 <= out.capacity()` (the
    // caller's).
    if raw {
        // SAFETY: as above.
        unsafe { store32_spare(out, len, w) };
        Some((width, width))
    } else if cp < 0x1_0000 {
        // SAFETY: as above.
        unsafe { store64_spare(out, len, json_unit_word(cp)) };
        Some((6, width))
    } else {
        let v = cp - 0x1_0000;
        // SAFETY: as above.
        unsafe { store64_spare(out, len, json_unit_word(0xD800 | v >> 10)) };
        // SAFETY: as above.
        unsafe { store64_spare(out, len + 6, json_unit_word(0xDC00 | (v & 0x3FF))) };
        Some((12, width))
    }
}
