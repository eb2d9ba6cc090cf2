//! The parts of [`json_escape_run`](super::json_escape_run)'s kernels on
//! 512-bit vectors: with AVX-512, text written as `\uXXXX` in 64-byte
//! windows ([`planes_wide`] for three- and four-byte characters,
//! [`planes_two_wide`] for two-byte ones) and the walk through windows
//! with few escapes ([`walk_window`], each character escaped by
//! [`escape_char`]); with AVX2 too, text copied as it is under
//! `JSON_UNESCAPED_UNICODE` ([`raw_run`]).

#[allow(clippy::wildcard_imports)]
use std::arch::x86_64::*;

use crate::simd::Vector;
use crate::simd::memory::{
    byte, load128, load256, load512, read32, store64_spare, store128_spare, store256_spare,
    store512_spare,
};
use crate::simd::utf8_check::{lookups, utf8_errors};

use super::planes::{HIGH_CONT, HIGH_L2, HIGH_LONG, PlaneTables, planes, two_byte_planes};
use super::reserve_room;
use super::tables::escape_ascii;
use super::x86_256::{lead_at_window_end, lookups256, utf8_errors256};

/// Where [`unit_escapes`] takes each output byte's nibble from in the
/// units (bit offsets; `\` and `u` are put in after).
static UNIT_NIBBLES: [u8; 16] = [0, 0, 28, 24, 20, 16, 0, 0, 12, 8, 4, 0, 0, 0, 0, 0];
/// Which output bytes of [`unit_escapes`] are hex digits.
static UNIT_DIGITS: [u8; 16] = [
    0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0,
];
/// What the others are.
static UNIT_FIXED: [u8; 16] = *b"\\u....\\u........";
/// Lower-case hex digits of the low nibble of each 6-bit index.
static HEX_64: [u8; 64] = *b"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

/// `\uXXXX\uXXXX` for the two UTF-16 units of `units` (the first in
/// the top half), in the first 12 bytes: each nibble moved to its byte
/// by a multishift, then looked up.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
fn unit_escapes(units: u32) -> __m128i {
    // SAFETY: the table is 16 bytes long.
    let nibble_at = unsafe { load128(&UNIT_NIBBLES, 0) };
    let nibbles = _mm_multishift_epi64_epi8(nibble_at, _mm_set1_epi64x(i64::from(units)));
    // SAFETY: the table is 64 bytes long (16 read).
    let hex_64 = unsafe { load128(&HEX_64, 0) };
    // 64 entries: the index's top two bits do not count.
    let hex = _mm_permutexvar_epi8(nibbles, hex_64);
    // SAFETY: the table is 16 bytes long.
    let digits = unsafe { load128(&UNIT_DIGITS, 0) };
    // SAFETY: the table is 16 bytes long.
    let fixed = unsafe { load128(&UNIT_FIXED, 0) };
    _mm_ternarylogic_epi32::<0xCA>(digits, hex, fixed)
}

/// Writes the `\uXXXX` escape (a surrogate pair above U+FFFF) of the
/// character at the start of `w` (four bytes, little-endian) whose
/// lead byte `b` is from 0x80 up at byte `at` of `out`'s buffer, and
/// returns how many bytes count (6 or 12) and the character's length;
/// `None` (nothing written) where PHP's decoder fails: malformed,
/// overlong, a surrogate, above U+10FFFF. 16 bytes are stored.
///
/// One branch on the character's length; three- and four-byte
/// characters decoded with `pext` and written by [`unit_escapes`].
///
/// # Safety
///
/// `at + 16 <= out.capacity()`.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(super) unsafe fn escape_char(
    b: u8,
    w: u32,
    out: &mut Vec<u8>,
    at: usize,
) -> Option<(usize, usize)> {
    if b < 0xE0 {
        if b < 0xC2 || w & 0xC000 != 0x8000 {
            return None;
        }
        let word = super::json_unit_word(u32::from(b & 0x1F) << 6 | (w >> 8 & 0x3F));
        // SAFETY: `at + 8 <= at + 16 <= out.capacity()` (the caller's).
        unsafe { store64_spare(out, at, word) };
        return Some((6, 2));
    }
    // The lead byte on top.
    let x = w.swap_bytes();
    let (units, written, width) = if b < 0xF0 {
        let cp = _pext_u32(x, 0x0F3F_3F00);
        if x & 0x00C0_C000 != 0x0080_8000 || cp < 0x800 || cp >> 11 == 0xD800 >> 11 {
            return None;
        }
        (cp << 16, 6, 3)
    } else {
        // Four bits of the lead byte, so that F8 and up are out of
        // range too.
        let cp = _pext_u32(x, 0x0F3F_3F3F);
        if x & 0x00C0_C0C0 != 0x0080_8080 || cp.wrapping_sub(0x1_0000) >= 0x10_0000 {
            return None;
        }
        let v = cp - 0x1_0000;
        (0xD800_DC00 | (v >> 10) << 16 | (v & 0x3FF), 12, 4)
    };
    let text = unit_escapes(units);
    // SAFETY: `at + 16 <= out.capacity()` (the caller's).
    unsafe { store128_spare(out, at, text) };
    Some((written, width))
}

/// The escapes of a 32-byte window `v` of [`super::x86_256::json_escape_avx512`]
/// at `src[i..]` (with 64 bytes left), `m` its bytes to escape (at
/// least one): the window is stored at byte `len` of `out`'s buffer,
/// then each escape written over it in turn ([`escape_char`] for
/// characters) and the text after it stored again ([`super::walk_escapes`]).
/// A character may cross the window's end. Returns where the next window
/// starts and the new written length, or where malformed UTF-8 starts
/// (`out`'s length then set to what was written before it).
///
/// # Safety
///
/// `i + 64 <= src.len()`; `len + 6 * 35 + 64 <= out.capacity()`, the
/// bytes of `out` up to `len` written.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn walk_window(
    src: &[u8],
    i: usize,
    v: __m256i,
    m: u32,
    out: &mut Vec<u8>,
    len: usize,
    escapes: &[u64; 128],
    quot: u64,
) -> Result<(usize, usize), usize> {
    let escape = |p: usize, out: &mut Vec<u8>, at: usize| {
        // SAFETY: `p < i + 35 <= src.len()`.
        let b = unsafe { byte(src, p) };
        if b < 0x80 {
            // SAFETY: `at + 8 <= out.capacity()` (the room).
            Some((unsafe { escape_ascii(b, quot, escapes, out, at) }, 1))
        } else {
            // SAFETY: `p + 4 <= i + 35 <= src.len()`.
            let w = unsafe { read32(src, p) };
            // SAFETY: `at + 16 <= out.capacity()` (the room).
            unsafe { escape_char(b, w, out, at) }
        }
    };
    // SAFETY: AVX2 is enabled; `i + 64 <= src.len()` and the room (the
    // caller's).
    unsafe { super::walk_escapes(src, i, v, u64::from(m), 32, out, len, escape) }
}

/// Text copied as it is (`JSON_UNESCAPED_UNICODE`), 32 bytes at a time
/// from `i` (a character start) with nothing to escape: each window is
/// checked to be well-formed UTF-8 three bytes ahead, so that it is
/// stored whole, a character crossing its end included, and the next
/// window starts 32 bytes on whatever the text. Runs while 64 bytes are
/// left and each window has bytes from 0x80 up, no byte to escape (`lo_t`,
/// `hi_t`: [`super::JsonKernel`]'s lookups) and, unless `raw_terminators`, no
/// U+2028 or U+2029 begins in it. Returns where it stopped (a character
/// start: a character begun in the last window stored is taken back)
/// and the new written length of `out` (`len` on entry: the bytes of
/// `out` written so far).
///
/// # Safety
///
/// `len <= out.capacity()`, the bytes of `out` up to `len` written.
#[inline]
#[target_feature(enable = "avx2")]
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
unsafe fn raw_run(
    src: &[u8],
    mut i: usize,
    out: &mut Vec<u8>,
    mut len: usize,
    lo_t: __m256i,
    hi_t: __m256i,
    raw_terminators: bool,
) -> (usize, usize) {
    const W: usize = 32;
    let n = src.len();
    if n - i < 2 * W {
        return (i, len);
    }
    let kl = lookups256();
    let nibble = _mm256_set1_epi8(0x0F);
    let (e2, x80, a9, one) = (
        _mm256_set1_epi8(0xE2u8 as i8),
        _mm256_set1_epi8(0x80u8 as i8),
        _mm256_set1_epi8(0xA9u8 as i8),
        _mm256_set1_epi8(1),
    );
    let start = i;
    // The run's first three bytes, with nothing before them (a
    // character starts at `i`); after that each window checks three
    // bytes ahead.
    // SAFETY: `i + 64 <= n`; AVX2 is enabled.
    let v = unsafe { load256(src, i) };
    let before = _mm256_permute2x128_si256(v, v, 0x08);
    let head = _mm256_and_si256(
        utf8_errors256(
            kl,
            v,
            _mm256_alignr_epi8(v, before, 15),
            _mm256_alignr_epi8(v, before, 14),
            _mm256_alignr_epi8(v, before, 13),
        ),
        _mm256_setr_epi32(0x00FF_FFFF, 0, 0, 0, 0, 0, 0, 0),
    );
    if _mm256_testz_si256(head, head) == 0 {
        return (i, len);
    }
    let mut ascii = 0;
    while n - i >= 2 * W {
        // SAFETY: the bytes of `out` up to `len` are written.
        unsafe { reserve_room(out, len, W) };
        // SAFETY: `i + 35 <= i + 64 <= n` for these four; AVX2.
        let v = unsafe { load256(src, i) };
        // SAFETY: as above.
        let n1 = unsafe { load256(src, i + 1) };
        // SAFETY: as above.
        let n2 = unsafe { load256(src, i + 2) };
        // SAFETY: as above.
        let n3 = unsafe { load256(src, i + 3) };
        let special = _mm256_and_si256(
            _mm256_shuffle_epi8(lo_t, _mm256_and_si256(v, nibble)),
            _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)),
        );
        let mut stop = _mm256_or_si256(special, utf8_errors256(kl, n3, n2, n1, v));
        if !raw_terminators {
            // E2 80 A8 or E2 80 A9 begins here.
            stop = _mm256_or_si256(
                stop,
                _mm256_and_si256(
                    _mm256_and_si256(_mm256_cmpeq_epi8(v, e2), _mm256_cmpeq_epi8(n1, x80)),
                    _mm256_cmpeq_epi8(_mm256_or_si256(n2, one), a9),
                ),
            );
        }
        if _mm256_testz_si256(stop, stop) == 0 {
            break;
        }
        // Two windows of ASCII in a row: the rest may be ASCII text,
        // for the caller's faster loop.
        ascii = if _mm256_movemask_epi8(v) == 0 {
            ascii + 1
        } else {
            0
        };
        if ascii == 2 {
            break;
        }
        // SAFETY: `len + 32 <= out.capacity()` (reserved above); AVX2.
        unsafe { store256_spare(out, len, v) };
        len += W;
        i += W;
    }
    // Back to the start of a character the last window stored
    // began (its continuation bytes here were checked).
    let mut back = 0;
    while i - back > start && src[i - back] & 0xC0 == 0x80 {
        back += 1;
    }
    (i - back, len - back)
}

/// [`raw_run`] compiled apart (the kernels' loops were slower with it
/// inlined), once with the features of each kernel that calls it.
macro_rules! raw_run_with {
    ($(#[$doc:meta])* $name:ident, $features:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// As [`raw_run`], and the CPU must have the features.
        #[inline(never)]
        #[target_feature(enable = $features)]
        pub(super) unsafe fn $name(
            src: &[u8],
            i: usize,
            out: &mut Vec<u8>,
            len: usize,
            lo_t: __m256i,
            hi_t: __m256i,
            raw_terminators: bool,
        ) -> (usize, usize) {
            // SAFETY: as documented; the features are enabled here.
            unsafe { raw_run(src, i, out, len, lo_t, hi_t, raw_terminators) }
        }
    };
}

raw_run_with!(
    /// [`raw_run`] compiled apart with AVX2.
    raw_run_avx2,
    "avx2"
);
raw_run_with!(
    /// [`raw_run`] compiled apart with what
    /// [`super::x86_256::json_escape_avx512`] has.
    raw_run_avx512,
    "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
);

/// Window of [`planes_wide`].
const WIDE: usize = 64;

/// A run of [`planes_wide`] ends at a window with fewer bytes from
/// 0x80 up than this.
const WIDE_STAY: u32 = 8;

/// Three planes of 64 bytes to 192: byte `o` of part `k` is byte
/// `p = (64k + o) / 3` of plane `(64k + o) % 3`, taken from planes 0
/// and 1 cut down to their 128-bit lanes `k` and `k + 1` (the first
/// 64 bytes of the table) and plane 2 (the next 64).
static WEAVE: [[u8; 64]; 3] = {
    let mut t = [[0u8; 64]; 3];
    let mut o = 0;
    while o < 192 {
        let (k, p, plane) = (o / 64, o / 3, o % 3);
        t[k][o % 64] = match plane {
            0 => (p - 16 * k) as u8,
            1 => (32 + p - 16 * k) as u8,
            _ => 64 + p as u8,
        };
        o += 1;
    }
    t
};

/// [`Vector::table`] on 512-bit vectors, where the kernel's features are
/// enabled.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn table(t: &[u8; 16]) -> __m512i {
    // SAFETY: AVX-512 F is enabled.
    unsafe { __m512i::table(t) }
}

/// [`Vector::high_nibble`] on 512-bit vectors.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn high_nibble(x: __m512i) -> __m512i {
    // SAFETY: AVX-512 F and BW are enabled.
    unsafe { x.high_nibble() }
}

/// [`lookups`] on 512-bit vectors.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn utf8_lookups() -> [__m512i; 3] {
    // SAFETY: AVX-512 F and BW are enabled.
    unsafe { lookups::<__m512i>() }
}

/// [`utf8_errors`] on 512-bit vectors.
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn utf8_errors_512(
    kl: [__m512i; 3],
    cur: __m512i,
    p1: __m512i,
    p2: __m512i,
    p3: __m512i,
) -> __m512i {
    // SAFETY: AVX-512 F and BW are enabled.
    unsafe { utf8_errors(kl, cur, p1, p2, p3) }
}

/// The bytes of window `c` to escape (`lo_hi`: [`super::JsonKernel`]'s
/// lookups; `hc`: the window's high nibbles), the letters of their
/// two-byte escapes (`letters`: the 128-byte table), and the bytes to
/// escape without one (an error for the planes paths).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn escapes_of(
    c: __m512i,
    hc: __m512i,
    lo_hi: [__m512i; 2],
    letters: [__m512i; 2],
) -> (u64, __m512i, u64) {
    let special: u64 = _mm512_test_epi8_mask(
        _mm512_shuffle_epi8(lo_hi[0], _mm512_and_si512(c, _mm512_set1_epi8(0x0F))),
        _mm512_shuffle_epi8(lo_hi[1], hc),
    );
    if special == 0 {
        return (0, _mm512_setzero_si512(), 0);
    }
    let letter = _mm512_permutex2var_epi8(letters[0], c, letters[1]);
    (
        special,
        letter,
        special & _mm512_testn_epi8_mask(letter, letter),
    )
}

/// `x` in every byte.
#[inline]
#[target_feature(enable = "avx512f")]
#[allow(clippy::cast_possible_wrap)]
fn b(x: u8) -> __m512i {
    _mm512_set1_epi8(x as i8)
}

/// Planes 0 and 1 of [`planes`] with the ASCII bytes of window `c`
/// put in (`high`: its bytes from 0x80 up): the byte itself, nothing;
/// and the two-byte escapes of its bytes to escape (`special`, `letter`:
/// [`escapes_of`]).
#[inline]
#[target_feature(enable = "avx512f,avx512bw")]
fn with_ascii_and_escapes(
    [mut q0, mut q1, q2]: [__m512i; 3],
    c: __m512i,
    high: u64,
    special: u64,
    letter: __m512i,
) -> [__m512i; 3] {
    q0 = _mm512_mask_mov_epi8(q0, !high, c);
    q1 = _mm512_maskz_mov_epi8(high, q1);
    if special != 0 {
        q0 = _mm512_mask_mov_epi8(q0, special, b(b'\\'));
        q1 = _mm512_mask_mov_epi8(q1, special, letter);
    }
    [q0, q1, q2]
}

/// The three planes of a window interleaved ([`WEAVE`]) into three
/// 64-byte parts, whose bytes to keep (those not zero) are stored one
/// after the other at byte `at` of `out`'s buffer; with `carried_only`,
/// only the shares of the first `carried_only` bytes. Returns how many
/// bytes were stored.
///
/// # Safety
///
/// `at + 192 <= out.capacity()`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2")]
unsafe fn weave_store(
    out: &mut Vec<u8>,
    at: usize,
    [q0, q1, q2]: [__m512i; 3],
    carried_only: Option<usize>,
) -> usize {
    // Planes 0 and 1 cut down to the lanes each part needs.
    let lanes = [
        _mm512_shuffle_i64x2::<0x44>(q0, q1),
        _mm512_shuffle_i64x2::<0x99>(q0, q1),
        _mm512_shuffle_i64x2::<0xEE>(q0, q1),
    ];
    let mut written = 0;
    for (weave, lanes) in WEAVE.iter().zip(lanes) {
        // SAFETY: the table is 64 bytes long; AVX-512 F.
        let index = unsafe { load512(weave, 0) };
        let part = _mm512_permutex2var_epi8(lanes, index, q2);
        let mut keep: u64 = _mm512_test_epi8_mask(part, part);
        if let Some(carried) = carried_only {
            keep &= (1u64 << (3 * carried)) - 1;
        }
        let packed = _mm512_maskz_compress_epi8(keep, part);
        // SAFETY: `at + written + 64 <= at + 192 <= out.capacity()` (the
        // caller's); AVX-512 F.
        unsafe { store512_spare(out, at + written, packed) };
        written += keep.count_ones() as usize;
        if carried_only.is_some() {
            break;
        }
    }
    written
}

/// `x86::planes_run` on 64-byte windows, every operation on 512-bit
/// vectors: text of three- and (with `FOUR`) four-byte characters
/// written as `\\uXXXX`, ASCII among it, with two-byte escapes for the
/// bytes to escape (`lo_t`, `hi_t`: [`super::JsonKernel`]'s lookups; `letters`
/// their second bytes). The same planes (each input byte gives one to
/// three output bytes, computed from it and its neighbours), woven
/// into three 64-byte parts and compressed. UTF-8 is checked three
/// bytes ahead; a window that fails writes only the end of the
/// character begun before it.
///
/// Runs from `i` (a character start, at least 3) while a window has
/// at least [`WIDE_STAY`] bytes from 0x80 up and is well-formed, from
/// the first window with 131 bytes left (else it returns at once).
/// Compiled apart from the kernel's loop (which was slower with it
/// inlined).
/// Returns where it stopped (a character start) and the new written
/// length of `out` (`len` on entry: the bytes of `out` written so
/// far).
///
/// # Safety
///
/// The CPU must have what [`super::x86_256::json_escape_avx512`] needs;
/// `3 <= i`, `len <= out.capacity()`, the bytes of `out` up to `len`
/// written.
#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
#[allow(clippy::too_many_lines, clippy::too_many_arguments)]
pub(super) unsafe fn planes_wide<const FOUR: bool>(
    src: &[u8],
    mut i: usize,
    out: &mut Vec<u8>,
    mut len: usize,
    lo_t: &[u8; 16],
    hi_t: &[u8; 16],
    letters: &[u8; 128],
) -> (usize, usize) {
    // Room for a window: three bytes per position, 64 stored past.
    const ROOM: usize = 3 * WIDE + 64;
    let n = src.len();
    // A continuation byte at the start (after a malformed sequence the
    // caller skipped) is malformed itself, whatever the bytes before it.
    if n - i < 2 * WIDE + 3 || src[i] & 0xC0 == 0x80 {
        return (i, len);
    }
    let (lo_t, hi_t) = (table(lo_t), table(hi_t));
    // SAFETY: AVX-512 F and BW are enabled.
    let tables = unsafe { PlaneTables::<__m512i>::new() };
    let kl = utf8_lookups();
    // SAFETY: `letters` is 128 bytes long; AVX-512 F is enabled.
    let letters_lo = unsafe { load512(letters, 0) };
    // SAFETY: as above.
    let letters_hi = unsafe { load512(letters, 64) };
    let mut entry = true;
    // A window's loads reach `i + 67`. A window is taken whole only
    // with 131 bytes left, so that after it the loads of one more
    // always fit: that one writes only the end of a character the
    // whole one began.
    while n - i >= WIDE + 3 {
        let whole = n - i >= 2 * WIDE + 3;
        // SAFETY: the bytes of `out` up to `len` are written.
        unsafe { reserve_room(out, len, ROOM) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let c = unsafe { load512(src, i) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let p1 = unsafe { load512(src, i - 1) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let p2 = unsafe { load512(src, i - 2) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let p3 = unsafe { load512(src, i - 3) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let n1 = unsafe { load512(src, i + 1) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let n2 = unsafe { load512(src, i + 2) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let n3 = unsafe { load512(src, i + 3) };
        let hc = high_nibble(c);
        let (special, letter, no_letter) =
            escapes_of(c, hc, [lo_t, hi_t], [letters_lo, letters_hi]);
        let mut errors = utf8_errors_512(kl, n3, n2, n1, c);
        if !FOUR {
            // Four-byte leads are for the other variant.
            errors = _mm512_or_si512(errors, _mm512_shuffle_epi8(tables.l4, hc));
        }
        let mut bad: u64 = _mm512_test_epi8_mask(errors, errors) | no_letter;
        let at_entry = entry;
        if entry {
            let head = utf8_errors_512(kl, c, p1, p2, p3);
            bad |= _mm512_test_epi8_mask(head, head) & 0b111;
            entry = false;
        }
        let high: u64 = _mm512_movepi8_mask(c);
        let ok = whole && bad == 0 && high.count_ones() >= WIDE_STAY;
        // When this window fails, the leading continuation bytes
        // finishing a character begun in the window before are
        // still written (none at the run's entry: a character
        // start): at most three, those the window before checked.
        let carried = if ok || at_entry {
            0
        } else {
            let cont = high & !_mm512_cmpge_epu8_mask(c, b(0xC0));
            ((!cont).trailing_zeros() as usize).min(3)
        };
        if !ok && carried == 0 {
            break;
        }

        // SAFETY: AVX-512 F and BW are enabled.
        let [q0, q1, q2] = unsafe { planes::<__m512i, FOUR>(&tables, c, hc, [p1, p2, p3], n1) };
        let planes = with_ascii_and_escapes([q0, q1, q2], c, high, special, letter);
        // Only the end of the character begun before when the window
        // failed.
        let carried_only = (!ok).then_some(carried);
        // SAFETY: `len + 192 <= out.capacity()` (ROOM).
        len += unsafe { weave_store(out, len, planes, carried_only) };
        if !ok {
            i += carried;
            return (i, len);
        }
        i += WIDE;
    }
    (i, len)
}

/// `x86::planes_two` on 64-byte windows, every operation on 512-bit
/// vectors: text whose only multibyte characters are two bytes long,
/// written as `\\uXXXX` (each lead gives `\\u0`, each second byte the
/// other three hex digits), ASCII among it, with two-byte escapes for
/// the bytes to escape (`lo_t`, `hi_t`, `letters` as for
/// [`planes_wide`]). A window is well-formed when every lead (C2 to
/// DF) is followed by a continuation byte and every continuation byte
/// follows a lead, the byte after the window included.
///
/// Runs from `i` (a character start, at least 3) while a window has
/// at least [`WIDE_STAY`] bytes from 0x80 up and is of this kind, from
/// the first window with 128 bytes left (else it returns at once).
/// Returns where it stopped (a character start) and the new written
/// length of `out` (`len` on entry: the bytes of `out` written so
/// far).
///
/// # Safety
///
/// As [`planes_wide`].
#[inline(never)]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
#[allow(clippy::too_many_lines)]
pub(super) unsafe fn planes_two_wide(
    src: &[u8],
    mut i: usize,
    out: &mut Vec<u8>,
    mut len: usize,
    lo_t: &[u8; 16],
    hi_t: &[u8; 16],
    letters: &[u8; 128],
) -> (usize, usize) {
    // Room for a window: three bytes per position, 64 stored past, and
    // the end of a character crossing the window's end.
    const ROOM: usize = 3 * WIDE + 64 + 8;
    let n = src.len();
    if n - i < 2 * WIDE {
        return (i, len);
    }
    // Loads are within `src` (from `i - 1`, with `3 <= i`, to
    // `i + 65 <= n`), stores within the room reserved.
    let (lo_t, hi_t) = (table(lo_t), table(hi_t));
    let (t_lead, t_cont, t_long) = (table(&HIGH_L2), table(&HIGH_CONT), table(&HIGH_LONG));
    let hex_table = table(b"0123456789abcdef");
    // SAFETY: `letters` is 128 bytes long; AVX-512 F is enabled.
    let letters_lo = unsafe { load512(letters, 0) };
    // SAFETY: as above.
    let letters_hi = unsafe { load512(letters, 64) };
    // No window may start with a continuation byte (as in
    // `x86::planes_two`); each window's leads are checked against
    // the bytes after them, the byte after the window included.
    while n - i >= 2 * WIDE {
        if src[i] & 0xC0 == 0x80 {
            break;
        }
        // SAFETY: the bytes of `out` up to `len` are written.
        unsafe { reserve_room(out, len, ROOM) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let c = unsafe { load512(src, i) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let p1 = unsafe { load512(src, i - 1) };
        // SAFETY: within `src` (the bounds above); AVX-512 F.
        let n1 = unsafe { load512(src, i + 1) };
        let hc = high_nibble(c);
        let lead = _mm512_shuffle_epi8(t_lead, hc);
        let cont = _mm512_shuffle_epi8(t_cont, hc);
        let next_cont = _mm512_shuffle_epi8(t_cont, high_nibble(n1));
        let (special, letter, no_letter) =
            escapes_of(c, hc, [lo_t, hi_t], [letters_lo, letters_hi]);
        // Malformed or not for this path: a lead not followed by a
        // continuation byte or the other way round (a continuation
        // byte at the window's start follows the previous window's
        // last lead, checked there), C0 and C1, longer characters,
        // escapes of six bytes.
        let errors = _mm512_or_si512(
            _mm512_xor_si512(lead, next_cont),
            _mm512_shuffle_epi8(t_long, hc),
        );
        let bad = _mm512_test_epi8_mask(errors, errors)
            | no_letter
            | _mm512_cmpeq_epi8_mask(_mm512_and_si512(c, b(0xFE)), b(0xC0));
        let high: u64 = _mm512_movepi8_mask(c);
        if bad != 0 || high.count_ones() < WIDE_STAY {
            break;
        }
        // SAFETY: AVX-512 F and BW are enabled.
        let planes = unsafe { two_byte_planes(hex_table, c, hc, p1, lead, cont) };
        let planes = with_ascii_and_escapes(planes, c, high, special, letter);
        // SAFETY: `len + 192 <= out.capacity()` (ROOM).
        len += unsafe { weave_store(out, len, planes, None) };
        // A lead at the window's end: its second byte goes with it
        // (it was checked above).
        // SAFETY: within the room reserved for the window.
        (i, len) = unsafe { lead_at_window_end(src, i + WIDE, out, len) };
    }
    (i, len)
}

#[cfg(test)]
mod tests {
    /// Every lead byte from 0x80 up with every second byte and a few
    /// third and fourth ones, against the scalar decoder and escaper.
    #[test]
    fn escape_char_matches_the_scalar_code() {
        if !crate::simd::avx512_available() {
            crate::simd::skipped_tier("avx512", "escape_char_matches_the_scalar_code");
            return;
        }
        let tails = [
            0x00u8, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF,
        ];
        for b in 0x80..=0xFFu8 {
            for second in 0..=0xFFu8 {
                for third in tails {
                    for fourth in tails {
                        let w = u32::from_le_bytes([b, second, third, fourth]);
                        let mut got = Vec::with_capacity(16);
                        // SAFETY: the CPU has what the kernel needs
                        // (checked above), and 16 bytes are writable.
                        let r = unsafe { check(b, w, &mut got) };
                        // SAFETY: the 16 bytes were stored.
                        unsafe { got.set_len(16) };
                        let expected =
                            super::super::tables::json_decode_word(w).map(|(cp, width)| {
                                let mut text = Vec::new();
                                if cp >= 0x1_0000 {
                                    let v = cp - 0x1_0000;
                                    for u in [0xD800 | v >> 10, 0xDC00 | (v & 0x3FF)] {
                                        let word = super::super::json_unit_word(u);
                                        text.extend_from_slice(&word.to_le_bytes()[..6]);
                                    }
                                } else {
                                    let word = super::super::json_unit_word(cp);
                                    text.extend_from_slice(&word.to_le_bytes()[..6]);
                                }
                                (text, width)
                            });
                        match (r, expected) {
                            (None, None) => {}
                            (Some((written, width)), Some((text, len))) => {
                                assert_eq!((written, width), (text.len(), len), "{w:08X}");
                                assert_eq!(got[..written], text[..], "{w:08X}");
                            }
                            (r, e) => panic!("{w:08X}: {r:?} {e:?}"),
                        }
                    }
                }
            }
        }
    }

    /// [`super::escape_char`] compiled with the kernel's features.
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
    )]
    unsafe fn check(b: u8, w: u32, out: &mut Vec<u8>) -> Option<(usize, usize)> {
        // SAFETY: 16 bytes are in `out`'s buffer (the caller's).
        unsafe { super::escape_char(b, w, out, 0) }
    }
}
