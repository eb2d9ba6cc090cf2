//! The parser's scans over character data, beside the scalar code they
//! stand in for:
//!
//! * [`text_run`] and [`plain_text_windows`]: the parser's scans over
//!   character data, 32 bytes at a time with AVX2, detected at run time:
//!   stop bytes found with a nibble lookup, UTF-8 checked with Keiser and
//!   Lemire's lookups three bytes ahead, newlines and continuation bytes
//!   (columns) counted on the windows' masks. The window with something
//!   else in it hands over to the scalar code at the start of that
//!   character. On aarch64 the same with NEON, 16 bytes at a time.
//! * [`plain_value_windows`]: the one-pass start-tag scan's attribute
//!   values, 16 bytes at a time with SSE2 (part of x86-64) or NEON.

// The kernels' deliberate exceptions: byte pointers cast to vector types
// only for the unaligned load and store intrinsics, lane indexes and masks
// that fit by construction, and a kernel's loop kept in one function.
#![allow(
    clippy::too_many_lines,
    clippy::cast_ptr_alignment,
    clippy::cast_sign_loss
)]

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use crate::simd::Window;
#[cfg(target_arch = "x86_64")]
use crate::simd::avx2_popcnt_available;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
use crate::simd::utf8_check::{lookups, utf8_errors};

/// Bytes the fast path of `xmlParseCharData` copies (`test_char_data`):
/// printable ASCII and tab, except `<`, `&` and `]`.
pub(crate) static PLAIN_TEXT: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = (c == 0x09 || (c >= 0x20 && c < 0x80)) && c != b'<' && c != b'&' && c != b']';
        b += 1;
    }
    t
};

/// The length of the multi-byte UTF-8 character at `s[i]` if
/// `xmlCurrentChar` reads it without error and it is a `Char` (no
/// surrogates, no U+FFFE/U+FFFF, nothing above U+10FFFF); 0 otherwise
/// (also when it is cut off by the end of `s`).
#[inline]
pub(crate) fn plain_multibyte_len(s: &[u8], i: usize) -> usize {
    let cont = |k: usize| s.get(i + k).is_some_and(|&b| b & 0xC0 == 0x80);
    let bits = |k: usize| u32::from(s[i + k] & 0x3F);
    match s[i] {
        0xC2..=0xDF if cont(1) => 2,
        c @ 0xE0..=0xEF if cont(1) && cont(2) => {
            let v = (u32::from(c & 0xF) << 12) | (bits(1) << 6) | bits(2);
            if v < 0x800 || (0xD800..0xE000).contains(&v) || v >= 0xFFFE {
                0
            } else {
                3
            }
        }
        c @ 0xF0..=0xF4 if cont(1) && cont(2) && cont(3) => {
            let v = (u32::from(c & 7) << 18) | (bits(1) << 12) | (bits(2) << 6) | bits(3);
            if (0x10000..=0x10FFFF).contains(&v) {
                4
            } else {
                0
            }
        }
        _ => 0,
    }
}

/// How far a run of text went (see [`text_run`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextRun {
    /// Where it stopped.
    pub(crate) at: usize,
    /// The newlines in it.
    pub(crate) lines: u64,
    /// Just after its last newline, or its start.
    pub(crate) line_start: usize,
    /// The continuation bytes from `line_start` to `at`.
    pub(crate) extra: usize,
}

impl TextRun {
    /// Nothing taken yet, at `at`.
    pub(crate) fn at(at: usize) -> Self {
        TextRun {
            at,
            lines: 0,
            line_start: at,
            extra: 0,
        }
    }
}

/// Window of the text kernels: 32 bytes with AVX2, 16 with NEON.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
const TEXT_WINDOW: usize = if cfg!(target_arch = "aarch64") {
    16
} else {
    32
};

/// The run of text from `start` that the inner loop of
/// `xmlParseCharDataComplex` takes as it is: plain ASCII ([`PLAIN_TEXT`]),
/// newlines and, with `utf8`, multi-byte characters that
/// [`plain_multibyte_len`] accepts, each taken while it starts before `end`
/// (at most `s.len()`). The same as [`text_run_reference`]; with AVX2,
/// 32-byte windows at a time until the window that ends the run.
#[inline]
pub(crate) fn text_run(s: &[u8], start: usize, end: usize, utf8: bool) -> TextRun {
    debug_assert!(end <= s.len());
    #[cfg(target_arch = "x86_64")]
    {
        if start < end && s.len() >= start + TEXT_WINDOW + 3 && avx2_popcnt_available() {
            // SAFETY: AVX2 and POPCNT are available (checked just above);
            // `start < end <= s.len()`.
            let run = unsafe { x86_text::text_run_avx2(s, TextRun::at(start), end, utf8) };
            return text_run_from(s, run, end, utf8);
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if start < end && s.len() >= start + TEXT_WINDOW + 3 {
            // SAFETY: NEON is part of aarch64.
            let run = unsafe { neon::text_run_neon(s, TextRun::at(start), end, utf8) };
            return text_run_from(s, run, end, utf8);
        }
    }
    text_run_reference(s, start, end, utf8)
}

/// The scalar reference of [`text_run`].
pub(crate) fn text_run_reference(s: &[u8], start: usize, end: usize, utf8: bool) -> TextRun {
    text_run_from(s, TextRun::at(start), end, utf8)
}

/// [`text_run_reference`] carried on from `run` (`run.at` at the start
/// of a character).
#[inline]
fn text_run_from(s: &[u8], mut run: TextRun, end: usize, utf8: bool) -> TextRun {
    let mut i = run.at;
    while i < end {
        let b = s[i];
        if PLAIN_TEXT[usize::from(b)] {
            i += 1;
        } else if b >= 0x80 {
            if !utf8 {
                break;
            }
            // two-byte characters (Latin, Cyrillic, ...) inline
            let len =
                if (0xC2..=0xDF).contains(&b) && s.get(i + 1).is_some_and(|&c| c & 0xC0 == 0x80) {
                    2
                } else {
                    plain_multibyte_len(s, i)
                };
            if len == 0 {
                break;
            }
            i += len;
            run.extra += len - 1;
        } else if b == b'\n' {
            i += 1;
            run.lines += 1;
            run.line_start = i;
            run.extra = 0;
        } else {
            break;
        }
    }
    run.at = i;
    run
}

/// How many bytes at the start of `s` are [`PLAIN_TEXT`], counted a
/// 32-byte window at a time with AVX2: exact when the run ends in a whole
/// window, otherwise short of it by less than a window (0 without AVX2).
#[inline]
pub(crate) fn plain_text_windows(s: &[u8]) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        if s.len() >= TEXT_WINDOW && avx2_popcnt_available() {
            // SAFETY: AVX2 and POPCNT are available (checked just above).
            return unsafe { x86_text::plain_text_windows_avx2(s) };
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        if s.len() >= TEXT_WINDOW {
            // SAFETY: NEON is part of aarch64.
            return unsafe { neon::plain_text_windows_neon(s) };
        }
    }
    let _ = s;
    0
}

/// Width of [`plain_value_windows`]' windows: 16 bytes, SSE2 or NEON.
const VALUE_WINDOW: usize = 16;

/// Whether `b` may stand in an attribute value that the one-pass start-tag
/// scan takes as it is: 0x20..=0x7F but `<`, `&` and the value's `quote`.
#[cfg(test)]
pub(crate) fn plain_value_byte(b: u8, quote: u8) -> bool {
    (0x20..0x80).contains(&b) && b != b'<' && b != b'&' && b != quote
}

/// The first byte of `s` that is not [`plain_value_byte`], looked for a
/// 16-byte window at a time (SSE2, part of x86-64; NEON, part of
/// aarch64): `Ok` with its position when a whole window holds it,
/// otherwise `Err` with the bytes the windows took (a multiple of 16; 0
/// on other targets). [`plain_value_windows_reference`] says the same a
/// byte at a time.
#[inline(always)]
pub(crate) fn plain_value_windows(s: &[u8], quote: u8) -> Result<usize, usize> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of x86-64.
        unsafe { x86_value::plain_value_windows_sse2(s, quote) }
    }
    #[cfg(target_arch = "aarch64")]
    {
        // SAFETY: NEON is part of aarch64.
        unsafe { neon::plain_value_windows_neon(s, quote) }
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        let _ = (s, quote);
        Err(0)
    }
}

/// [`plain_value_windows`] a byte at a time.
#[cfg(test)]
pub(crate) fn plain_value_windows_reference(s: &[u8], quote: u8) -> Result<usize, usize> {
    let windows = s.len() / VALUE_WINDOW * VALUE_WINDOW;
    match s[..windows]
        .iter()
        .position(|&b| !plain_value_byte(b, quote))
    {
        Some(at) => Ok(at),
        None => Err(windows),
    }
}

/// The SSE2 kernel of [`plain_value_windows`].
#[cfg(target_arch = "x86_64")]
mod x86_value {
    #[allow(clippy::wildcard_imports)]
    use std::arch::x86_64::*;

    use crate::simd::memory::load128;

    use super::VALUE_WINDOW as W;

    /// [`super::plain_value_windows`] with SSE2, which x86-64 always has.
    #[inline]
    #[target_feature(enable = "sse2")]
    #[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // bytes as `i8` lanes; a 16-bit mask
    pub(super) fn plain_value_windows_sse2(s: &[u8], quote: u8) -> Result<usize, usize> {
        let space = _mm_set1_epi8(0x20);
        let lt = _mm_set1_epi8(b'<' as i8);
        let amp = _mm_set1_epi8(b'&' as i8);
        let quote = _mm_set1_epi8(quote as i8);
        let mut i = 0;
        while i + W <= s.len() {
            // SAFETY: `i + 16 <= s.len()`: the 16 bytes are in `s`.
            let v = unsafe { load128(s, i) };
            // as signed bytes, 0x80 and up are below 0x20 too
            let other = _mm_or_si128(
                _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, lt)),
                _mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, quote)),
            );
            let mask = _mm_movemask_epi8(other) as u32;
            if mask != 0 {
                return Ok(i + mask.trailing_zeros() as usize);
            }
            i += W;
        }
        Err(i)
    }
}

// ASCII bytes that end a run, by nibble lookups: a byte stops the run
// when its low nibble's entry and its high nibble's share a bit.
// 0x01: 0x00..=0x08 and 0x0B..=0x0F; 0x02: 0x10..=0x1F; 0x04: `&`;
// 0x08: `<`; 0x10: `]`; 0x20: the newline (plain text's fast path
// only). Bytes from 0x80 up are none of these (high nibble 8..F).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
static STOP_LOW: [u8; 16] = {
    let mut t = [0x02u8; 16];
    let mut l = 0;
    while l < 16 {
        if l <= 8 || l >= 0xB {
            t[l] |= 0x01;
        }
        l += 1;
    }
    t[0x6] |= 0x04;
    t[0xA] |= 0x20;
    t[0xC] |= 0x08;
    t[0xD] |= 0x10;
    t
};
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
static STOP_HIGH_RUN: [u8; 16] = [
    0x01, 0x02, 0x04, 0x08, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
static STOP_HIGH_FAST: [u8; 16] = [
    0x21, 0x02, 0x04, 0x08, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
];

/// Counts the bytes of the window at `i` in `taken` (the bits of the
/// first bytes) into `run`: `newlines` and `cont` mark the window's
/// newlines and continuation bytes.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn take_window(run: &mut TextRun, i: usize, newlines: u32, cont: u32, taken: u32) {
    let newlines = newlines & taken;
    if newlines == 0 {
        run.extra += (cont & taken).count_ones() as usize;
    } else {
        let last = newlines.ilog2();
        run.lines += u64::from(newlines.count_ones());
        run.line_start = i + last as usize + 1;
        let after = taken & !(u32::MAX >> (31 - last));
        run.extra = (cont & after).count_ones() as usize;
    }
}

/// The window of `W` bytes at `i`, whose problems `flags` marks (bit
/// `j`: stop before the character starting at or running through byte
/// `j`), taken up to the start of the character with the first problem
/// (a crossing character's continuation bytes are past the window) and
/// counted into `run`; returns the bytes taken.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn take_to_problem<const W: usize>(
    run: &mut TextRun,
    s: &[u8],
    i: usize,
    flags: u64,
    newlines: u32,
    cont: u32,
) -> usize {
    let first = flags.trailing_zeros().min(W as u32);
    let lanes = u64::MAX >> (64 - W);
    let starts = (!u64::from(cont) & lanes) | (u64::from(s[i + W] & 0xC0 != 0x80) << W);
    let before = starts & ((2u64 << first) - 1);
    let b = if before == 0 { 0 } else { before.ilog2() };
    // (`b` is at most 32: the cast keeps every bit.)
    #[allow(clippy::cast_possible_truncation)]
    let taken = ((1u64 << b) - 1) as u32;
    take_window(run, i, newlines, cont, taken);
    b as usize
}

/// Back from `i` to the start of the character that a window taken whole
/// ended in (when `i` may not be a start: not after an ASCII window, nor
/// where a window stopped past its first byte): its continuation bytes
/// before `i` were counted, and are again. Returns the start.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn back_to_character_start(run: &mut TextRun, s: &[u8], i: usize, start: usize) -> usize {
    let mut back = 0;
    while i - back > start && s[i - back] & 0xC0 == 0x80 {
        back += 1;
    }
    if back > 0 {
        run.extra -= back - 1;
    }
    i - back
}

/// The windows of [`text_run`], counted on from `run`: from `run.at` (a
/// character start) while a whole window and three bytes more are left,
/// each window checked (stop bytes, Keiser and Lemire's UTF-8 errors
/// three bytes ahead, U+FFFE and U+FFFF, the `end` limit) and taken whole
/// when clean, a character crossing its end included; the window with
/// something to stop at is taken up to the start of the character where
/// the first problem is. Stops at the start of a character. Written once
/// for every tier, expanded in each tier's `#[target_feature]` function.
///
/// # Safety
///
/// The CPU features of `V`; `run.at < end <= s.len()`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
// Blocks of vector register operations, whose one requirement is the
// features of the vector type (the caller's): one safety argument each.
#[allow(clippy::multiple_unsafe_ops_per_block)]
#[inline(always)]
unsafe fn text_windows<V: Window>(s: &[u8], mut run: TextRun, end: usize, utf8: bool) -> TextRun {
    const W: usize = TEXT_WINDOW;
    const { assert!(V::WIDTH == W) };
    let n = s.len();
    let start = run.at;
    let mut i = start;
    // Every vector operation below needs only `V`'s features (the
    // caller's); each load's bounds are said at it.
    // SAFETY: `V`'s features.
    let kl = unsafe { lookups::<V>() };
    // SAFETY: as above.
    let (low, high) = unsafe { (V::table(&STOP_LOW), V::table(&STOP_HIGH_RUN)) };
    // SAFETY: as above.
    let (newline, ef, bf, one) =
        unsafe { (V::splat(b'\n'), V::splat(0xEF), V::splat(0xBF), V::splat(1)) };
    // Flags mark where to stop: before a character starting at the bit,
    // or the one that runs through it. UTF-8 errors, found on the byte
    // after a character's start at the earliest, are marked a byte early.
    // The window's first three bytes are checked from a character start
    // (the run's, or after an ASCII window); other windows' were checked
    // by the window before.
    let mut head = true;
    while i < end && i + W + 3 <= n {
        // SAFETY: `i + W + 3 <= n`: the `W` bytes from `i` are in `s`.
        let v = unsafe { V::load(s, i) };
        // SAFETY: `V`'s features.
        let mut flags = u64::from(unsafe { stops(v, low, high).nonzero_lanes() });
        // SAFETY: as above.
        let non_ascii = unsafe { v.any_high() };
        let mut cont = 0;
        if !utf8 {
            if non_ascii {
                // SAFETY: as above.
                flags |= u64::from(unsafe { v.high_lanes() });
            }
        } else {
            if head {
                // SAFETY: as above.
                let e = unsafe {
                    let [p1, p2, p3] = v.previous();
                    utf8_errors(kl, v, p1, p2, p3).nonzero_lanes() & 0b111
                };
                flags |= u64::from((e >> 1) | (e & 1));
            }
            if non_ascii {
                // SAFETY: `i + W + 3 <= n`: the `W` bytes from `i + 1`
                // are in `s`.
                let n1 = unsafe { V::load(s, i + 1) };
                // SAFETY: and those from `i + 2`.
                let n2 = unsafe { V::load(s, i + 2) };
                // SAFETY: and those from `i + 3`.
                let n3 = unsafe { V::load(s, i + 3) };
                // SAFETY: `V`'s features.
                let e = unsafe { utf8_errors(kl, n3, n2, n1, v) };
                // (mostly clean: the mask only when needed)
                // SAFETY: as above.
                if unsafe { e.any() } {
                    // SAFETY: as above.
                    flags |= u64::from(unsafe { e.nonzero_lanes() }) << 2;
                }
                // EF BF BE or EF BF BF (U+FFFE, U+FFFF) begins here.
                // SAFETY: as above.
                flags |=
                    u64::from(unsafe { v.eq(ef).and(n1.eq(bf)).and(n2.or(one).eq(bf)).lanes() });
                // SAFETY: as above.
                cont = unsafe { v.continuation().high_lanes() };
            }
        }
        // No character starts from `end` on.
        let room = end - i;
        if room < W {
            flags |= 1 << room;
        }
        // SAFETY: as above.
        let newlines = unsafe { v.eq(newline).lanes() };
        if flags == 0 {
            take_window(&mut run, i, newlines, cont, u32::MAX);
            i += W;
            head = !utf8 || !non_ascii;
            continue;
        }
        i += take_to_problem::<W>(&mut run, s, i, flags, newlines, cont);
        break;
    }
    if !head {
        i = back_to_character_start(&mut run, s, i, start);
    }
    run.at = i;
    run
}

/// The bytes of `v` that are ASCII with a bit in common between `low`
/// and `high` (see [`STOP_LOW`]): nonzero there.
///
/// # Safety
///
/// The CPU features of `V`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[allow(clippy::multiple_unsafe_ops_per_block)] // vector register operations only
#[inline(always)]
unsafe fn stops<V: Window>(v: V, low: V, high: V) -> V {
    // SAFETY: `V`'s features (the caller's).
    unsafe { low.lookup(v.low_nibble()).and(high.lookup(v.high_nibble())) }
}

#[cfg(target_arch = "aarch64")]
mod neon;

/// The AVX2 text kernels: [`text_run`]'s windows and
/// [`plain_text_windows`].
#[cfg(target_arch = "x86_64")]
mod x86_text {
    #[allow(clippy::wildcard_imports)]
    use std::arch::x86_64::*;

    use crate::simd::{Vector, Window};

    use super::{STOP_HIGH_FAST, STOP_LOW, TEXT_WINDOW as W, TextRun, stops};

    /// [`super::text_windows`] with AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2 and POPCNT; `run.at < end <= s.len()`.
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) unsafe fn text_run_avx2(s: &[u8], run: TextRun, end: usize, utf8: bool) -> TextRun {
        // SAFETY: AVX2 is enabled; the bounds are the caller's.
        unsafe { super::text_windows::<__m256i>(s, run, end, utf8) }
    }

    /// [`super::plain_text_windows`] with AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2 and POPCNT.
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) unsafe fn plain_text_windows_avx2(s: &[u8]) -> usize {
        let mut i = 0;
        // SAFETY: AVX2 is enabled, which the tables need.
        let low = unsafe { __m256i::table(&STOP_LOW) };
        // SAFETY: as above.
        let high = unsafe { __m256i::table(&STOP_HIGH_FAST) };
        {
            while i + W <= s.len() {
                // SAFETY: `i + 32 <= s.len()`: the 32 bytes are in `s`;
                // AVX is enabled.
                let v = unsafe { __m256i::load(s, i) };
                // SAFETY: AVX2 is enabled.
                let stop = unsafe { stops(v, low, high) };
                // SAFETY: as above.
                let other = unsafe { stop.nonzero_lanes() } | unsafe { v.high_lanes() };
                if other != 0 {
                    return i + other.trailing_zeros() as usize;
                }
                i += W;
            }
        }
        i
    }
}

#[cfg(test)]
mod tests {
    use super::{
        PLAIN_TEXT, TextRun, plain_text_windows, plain_value_byte, plain_value_windows,
        plain_value_windows_reference, text_run, text_run_reference,
    };
    use proptest::prelude::*;

    /// Text pieces that end a run, or not, one way or another.
    const EVENTS: &[&[u8]] = &[
        b"a",
        b"\n",
        b"\t",
        b"\r",
        b"<",
        b"&",
        b"]",
        b"\x00",
        b"\x1F",
        b"\x7F",
        b"\xC3\xA9",
        b"\xD0\x96",
        b"\xE2\x82\xAC",
        b"\xEF\xBF\xBD",
        b"\xEF\xBF\xBE",
        b"\xEF\xBF\xBF",
        b"\xED\x9F\xBF",
        b"\xED\xA0\x80",
        b"\xE0\x9F\xBF",
        b"\xE0\xA0\x80",
        b"\xF0\x9F\x98\x80",
        b"\xF0\x8F\xBF\xBF",
        b"\xF4\x8F\xBF\xBF",
        b"\xF4\x90\x80\x80",
        b"\xF5\x80\x80\x80",
        b"\xC0\xAF",
        b"\xC1\xBF",
        b"\x80",
        b"\xBF",
        b"\xC3",
        b"\xC3a",
        b"\xE2\x82",
        b"\xE2\x82a",
        b"\xF0\x9F\x98",
        b"\xC3\xA9\xA9",
        b"\xFF",
    ];

    /// `text_run` against the reference on `s` from each of the first
    /// few starts, to the end and to each limit in `ends`.
    fn check(s: &[u8], ends: &[usize]) {
        for start in 0..s.len().min(3) {
            for &end in ends.iter().chain([&s.len()]) {
                let end = end.clamp(start, s.len());
                for utf8 in [true, false] {
                    let got = text_run(s, start, end, utf8);
                    let want = text_run_reference(s, start, end, utf8);
                    assert_eq!(got, want, "{s:02X?} from {start} to {end}, utf8 {utf8}");
                }
            }
        }
    }

    /// Each piece at every offset across two windows, between fillers
    /// plain and multi-byte, with the room limit about it.
    /// Says so when the AVX2 kernels, or on aarch64 the NEON ones,
    /// cannot run here (the tests then compare the reference with
    /// itself).
    fn report_tier(test: &str) {
        #[cfg(target_arch = "x86_64")]
        let ran = crate::simd::avx2_popcnt_available();
        #[cfg(not(target_arch = "x86_64"))]
        let ran = false;
        if !ran {
            crate::simd::skipped_tier("avx2", test);
        }
        if !cfg!(target_arch = "aarch64") {
            crate::simd::skipped_tier("neon", test);
        }
    }

    fn window_edges(events: &[&[u8]], seconds: &[&[u8]]) {
        let fillers: [&[u8]; 3] = [b"a", b"\xC3\xA9", b"\xE2\x82\xAC"];
        for fill in fillers {
            for event in events {
                for second in seconds {
                    for at in 0..72 {
                        let mut s = Vec::new();
                        while s.len() < at {
                            s.extend_from_slice(fill);
                        }
                        let pos = s.len();
                        s.extend_from_slice(event);
                        s.extend_from_slice(second);
                        while s.len() < 120 {
                            s.extend_from_slice(fill);
                        }
                        let ends: Vec<usize> = (pos.saturating_sub(2)..pos + 5)
                            .chain([15, 16, 17, 31, 32, 33, 64])
                            .collect();
                        check(&s, &ends);
                    }
                }
            }
        }
    }

    #[test]
    fn text_run_matches_the_reference_at_window_edges() {
        report_tier("text_run_matches_the_reference_at_window_edges");
        window_edges(EVENTS, &[b"", b"\n", b"\x80", b"\xC3\xA9"]);
    }

    /// `cargo test --release --lib -- --ignored`.
    #[test]
    #[ignore = "a few million kernel calls: run in release"]
    fn text_run_matches_the_reference_at_window_edges_on_every_pair() {
        window_edges(EVENTS, EVENTS);
    }

    /// Every character of up to three bytes, and four-byte ones with
    /// each lead and second byte, inside a window.
    #[test]
    fn text_run_takes_the_characters_the_reference_takes() {
        let mut s = vec![b'a'; 70];
        for b0 in 0x80..=0xFFu8 {
            for b1 in 0..=0xFFu8 {
                for b2 in [
                    0x00u8, 0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBD, 0xBE, 0xBF, 0xC0,
                ] {
                    for b3 in [0x41u8, 0x80, 0xBF] {
                        s[10..14].copy_from_slice(&[b0, b1, b2, b3]);
                        let got = text_run(&s, 0, s.len(), true);
                        let want = text_run_reference(&s, 0, s.len(), true);
                        assert_eq!(got, want, "{:02X?}", &s[10..14]);
                    }
                }
            }
        }
    }

    #[test]
    fn plain_text_windows_stop_where_plain_text_does() {
        report_tier("plain_text_windows_stop_where_plain_text_does");
        for b in 0..=0xFFu8 {
            for at in 0..100 {
                let mut s = vec![b' '; 100];
                s[at] = b;
                let n = plain_text_windows(&s);
                let want = s
                    .iter()
                    .position(|&c| !PLAIN_TEXT[usize::from(c)])
                    .unwrap_or(s.len());
                assert!(n <= want, "{b:02X} at {at}");
                assert!(
                    n == want
                        || n == 0
                        || (want - n < super::TEXT_WINDOW && n.is_multiple_of(super::TEXT_WINDOW)),
                    "{b:02X} at {at}: {n}"
                );
            }
        }
    }

    /// Every byte at every place of three windows and what follows them,
    /// between each plain filler byte, for both quotes and every length up
    /// to 50 (whole windows and the bytes after them).
    #[test]
    fn plain_value_windows_stop_where_the_reference_does() {
        let test = "plain_value_windows_stop_where_the_reference_does";
        if !cfg!(target_arch = "x86_64") {
            crate::simd::skipped_tier("sse2", test);
        }
        if !cfg!(target_arch = "aarch64") {
            crate::simd::skipped_tier("neon", test);
        }
        for quote in [b'"', b'\'', b'<'] {
            for fill in [b' ', b'a', 0x7F, b'"', b'\''] {
                if fill == quote {
                    continue;
                }
                for len in 0..50 {
                    let mut s = vec![fill; len];
                    assert_eq!(
                        plain_value_windows(&s, quote),
                        plain_value_windows_reference(&s, quote),
                        "{len} bytes of {fill:02X}"
                    );
                    for at in 0..len {
                        for b in 0..=0xFFu8 {
                            s[at] = b;
                            assert_eq!(
                                plain_value_windows(&s, quote),
                                plain_value_windows_reference(&s, quote),
                                "{b:02X} at {at} of {len}, quote {quote:02X}"
                            );
                        }
                        s[at] = fill;
                    }
                }
            }
        }
    }

    /// The reference: the stop bytes are those of the start-tag scan's
    /// value (all but printable ASCII, `<`, `&` and the quote).
    #[test]
    fn plain_value_bytes_are_printable_ascii_but_three() {
        let plain: Vec<u8> = (0..=0xFFu8)
            .filter(|&b| plain_value_byte(b, b'"'))
            .collect();
        let mut want: Vec<u8> = (0x20..=0x7Fu8).collect();
        want.retain(|&b| !matches!(b, b'<' | b'&' | b'"'));
        assert_eq!(plain, want);
    }

    fn piece() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            proptest::collection::vec(0x20u8..0x7F, 0..40),
            "[a-z \n]{1,40}".prop_map(String::into_bytes),
            "[àéèçœ€ЖЯ中文😀\u{FFFD}\u{10FFFF}]{1,8}".prop_map(String::into_bytes),
            proptest::sample::select(EVENTS).prop_map(<[u8]>::to_vec),
            proptest::collection::vec(any::<u8>(), 1..4),
        ]
    }

    proptest! {
        #[test]
        fn text_run_matches_the_reference(
            pieces in proptest::collection::vec(piece(), 0..12),
            start in 0usize..8,
            room in 0usize..400,
            utf8 in any::<bool>(),
        ) {
            let s = pieces.concat();
            let start = start.min(s.len());
            let end = (start + room).min(s.len());
            prop_assert_eq!(text_run(&s, start, end, utf8), text_run_reference(&s, start, end, utf8));
            let _ = TextRun::at(0);
        }
    }
}
