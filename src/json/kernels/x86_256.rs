//! The JSON escaping kernels on 256-bit vectors: the AVX2 loop of
//! [`json_escape_run`](super::json_escape_run) and, with AVX-512 VL, its
//! paths for windows of two-byte escapes and runs of `\uXXXX` text.

#[allow(clippy::wildcard_imports)]
use std::arch::x86_64::*;

use crate::simd::Vector;
use crate::simd::memory::{load256, load512, store32_spare, store256_spare, store512_spare};
use crate::simd::utf8_check::{lookups, utf8_errors};

use super::planes::{
    HIGH_CONT, HIGH_L2, HIGH_LONG, PlaneTables, PlaneVector, planes, two_byte_planes,
};
use super::{JSON_WINDOW, JsonKernel, reserve_room};

/// [`Vector::table`] on 256-bit vectors, where AVX2 is enabled.
#[inline]
#[target_feature(enable = "avx2")]
fn table256(t: &[u8; 16]) -> __m256i {
    // SAFETY: AVX2 is enabled.
    unsafe { __m256i::table(t) }
}

/// `x` in every byte.
#[inline]
#[target_feature(enable = "avx2")]
#[allow(clippy::cast_possible_wrap)]
fn b(x: u8) -> __m256i {
    _mm256_set1_epi8(x as i8)
}

/// [`PlaneVector::select`] on 256-bit vectors: `m ? y : x` bitwise.
#[inline]
#[target_feature(enable = "avx512f,avx512vl")]
fn sel(m: __m256i, y: __m256i, x: __m256i) -> __m256i {
    // SAFETY: AVX-512 F and VL are enabled.
    unsafe { __m256i::select(m, y, x) }
}

/// [`Vector::high_nibble`] on 256-bit vectors.
#[inline]
#[target_feature(enable = "avx2")]
fn high_nibble(x: __m256i) -> __m256i {
    // SAFETY: AVX2 is enabled.
    unsafe { x.high_nibble() }
}

/// [`lookups`] on 256-bit vectors.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn lookups256() -> [__m256i; 3] {
    // SAFETY: AVX2 is enabled.
    unsafe { lookups::<__m256i>() }
}

/// [`utf8_errors`] on 256-bit vectors.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn utf8_errors256(
    kl: [__m256i; 3],
    cur: __m256i,
    p1: __m256i,
    p2: __m256i,
    p3: __m256i,
) -> __m256i {
    // SAFETY: AVX2 is enabled.
    unsafe { utf8_errors(kl, cur, p1, p2, p3) }
}

/// The loop of both kernels, expanded into each so that it is compiled
/// with its features (and its intrinsics are safe calls there), and
/// once per way of writing non-ASCII text (`RAW`:
/// `kernel.raw_unicode`) so that neither loop carries the other's
/// code. (A function with AVX2 of its own was 20 to 45% slower on
/// ASCII and escape-heavy text: the AVX-512 helpers could not be
/// inlined into it.) It returns from the function it is expanded in.
///
/// With `DENSE`, the CPU must have what [`json_escape_avx512`] needs.
macro_rules! json_escape_body {
    ($dense:expr, $raw:expr, $src:expr, $i:expr, $out:expr, $kernel:expr) => {{
        const DENSE: bool = $dense;
        const RAW: bool = $raw;
        const W: usize = JSON_WINDOW;
        // Room asked for before each window: a window writes at most six
        // bytes per byte of its own and of a character crossing its end
        // (35 bytes), and stores run up to 64 bytes past what it writes.
        const ROOM: usize = 6 * (W + 3) + 2 * W + 16;
        let src: &[u8] = $src;
        let mut i: usize = $i;
        let out: &mut Vec<u8> = $out;
        let kernel: &JsonKernel = $kernel;
        {
            let n = src.len();
            let splat = |b: u8| _mm256_set1_epi8(b as i8);
            let nibble = splat(0x0F);
            let zero = _mm256_setzero_si256();
            // Keiser and Lemire's UTF-8 check (as in simdjson): three nibble
            // lookups per byte pair, and the third and fourth bytes of
            // three- and four-byte characters checked to be continuations.
            let (lo_t, hi_t) = (table256(&kernel.lo), table256(&kernel.hi));
            let kl = lookups256();
            let escapes = &super::JSON_ESCAPES;
            let quot = kernel.quote_escape();
            let mut len = out.len();
            // Stores go to `out`'s spare capacity at `len` and on, through
            // `out` itself (no pointer into its buffer is kept while it may
            // grow). Its capacity is kept here, taken again after each
            // call that may grow it (it only grows: an old value is never
            // too large).
            let mut capacity = out.capacity();
            // Each window: `src[i..i + 64]` is in bounds, so are all loads
            // below (at most `i + 35 + 32`... see each).
            while n - i >= 2 * W {
                if !DENSE {
                    // (Read again in each window: the AVX2 kernel was
                    // faster so.)
                    capacity = out.capacity();
                }
                if capacity - len < ROOM {
                    // SAFETY: the bytes up to `len` have been written.
                    unsafe { out.set_len(len) };
                    out.reserve(ROOM);
                    capacity = out.capacity();
                }
                // SAFETY: `i + 32 <= n`.
                let v = unsafe { load256(src, i) };
                let class = _mm256_and_si256(
                    _mm256_shuffle_epi8(lo_t, _mm256_and_si256(v, nibble)),
                    _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)),
                );
                let special = !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(class, zero)) as u32);
                let high = _mm256_movemask_epi8(v) as u32;
                if special | high == 0 {
                    // SAFETY: `len + 32 <= out.capacity()` (ROOM).
                    unsafe { store256_spare(out, len, v) };
                    len += W;
                    i += W;
                    continue;
                }
                if !DENSE
                    && !RAW
                    && high.count_ones() >= SCALAR_DENSE
                    && _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-17))) as u32
                        & high
                        == 0
                {
                    // Without AVX-512, dense non-ASCII text written as
                    // `\uXXXX` without four-byte characters is faster in
                    // the caller's scalar loop than one character at a
                    // time here: leave the rest to it.
                    break;
                }
                if DENSE && !RAW && high.count_ones() >= PLANES_MIN && i >= 3 {
                    let letters = kernel.letters();
                    let long = _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-33)))
                        as u32
                        & high;
                    let (next, written) = if long == 0 {
                        // SAFETY: `DENSE`: the CPU has the features; `3 <= i`,
                        // `len <= out.capacity()`, written up to `len`.
                        let (next, written) = unsafe {
                            super::x86_512::planes_two_wide(
                                src, i, out, len, &kernel.lo, &kernel.hi, letters,
                            )
                        };
                        if next != i {
                            (next, written)
                        } else {
                            // SAFETY: as above.
                            unsafe { planes_two(src, i, out, len, lo_t, hi_t, letters) }
                        }
                    } else if high.count_ones() >= PLANES_MIN_LONG {
                        let four = _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-17)))
                            as u32
                            & high;
                        if four == 0 {
                            // SAFETY: as above.
                            unsafe { planes_long::<false>(src, i, out, len, kernel, letters) }
                        } else {
                            // SAFETY: as above.
                            unsafe { planes_long::<true>(src, i, out, len, kernel, letters) }
                        }
                    } else {
                        (i, len)
                    };
                    // (The planes paths may have grown `out`.)
                    capacity = out.capacity();
                    if next != i {
                        i = next;
                        len = written;
                        continue;
                    }
                }
                if RAW && high != 0 {
                    // Text to copy: whole windows checked three bytes
                    // ahead, while there is nothing to escape.
                    let (next, written) = if DENSE {
                        // SAFETY: with `DENSE` the CPU has the features;
                        // `len <= out.capacity()`, written up to `len`.
                        unsafe {
                            super::x86_512::raw_run_avx512(
                                src,
                                i,
                                out,
                                len,
                                lo_t,
                                hi_t,
                                kernel.raw_terminators,
                            )
                        }
                    } else {
                        // SAFETY: AVX2 is enabled here; as above.
                        unsafe {
                            super::x86_512::raw_run_avx2(
                                src,
                                i,
                                out,
                                len,
                                lo_t,
                                hi_t,
                                kernel.raw_terminators,
                            )
                        }
                    };
                    capacity = out.capacity();
                    if next != i {
                        i = next;
                        len = written;
                        continue;
                    }
                }
                // SAFETY: AVX2 is enabled; `i + 32 <= n`.
                let (m, end) = unsafe {
                    super::window_escapes::<_, RAW>(
                        kl,
                        src,
                        i,
                        v,
                        special,
                        high,
                        kernel.raw_terminators,
                    )
                };
                if m == 0 {
                    // Well-formed text to copy (up to a character cut by
                    // the window's end).
                    // SAFETY: `len + 32 <= out.capacity()` (ROOM).
                    unsafe { store256_spare(out, len, v) };
                    len += end;
                    i += end;
                    continue;
                }
                if DENSE && m == special {
                    let letters = kernel.letters();
                    if let Some(written) =
                        // SAFETY: `DENSE`: the CPU has the features; `len
                        // + 64 <= out.capacity()` (ROOM).
                        unsafe { pairs_window(v, special, end, out, len, letters) }
                    {
                        len += written;
                        i += end;
                        continue;
                    }
                }
                let walked = if DENSE && !RAW {
                    // SAFETY: `DENSE`: the CPU has the features; `i + 64 <=
                    // n`; `len + ROOM <= out.capacity()`, written up to
                    // `len`.
                    unsafe { super::x86_512::walk_window(src, i, v, m, out, len, escapes, quot) }
                } else {
                    // SAFETY: AVX2 is enabled; `end <= 32`, `i + 64 <= n`;
                    // `len + ROOM <= out.capacity()`, written up to `len`.
                    unsafe {
                        super::walk_escapes_at::<_, RAW>(src, i, v, m, end, out, len, kernel, quot)
                    }
                };
                match walked {
                    Ok(next) => (i, len) = next,
                    Err(p) => return p,
                }
            }
            // SAFETY: the bytes up to `len` have been written.
            unsafe { out.set_len(len) };
            i
        }
    }};
}

/// The AVX2 kernel of [`super::json_escape_run`].
///
/// # Safety
///
/// The CPU must support AVX2.
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // byte lanes, masks
#[allow(clippy::too_many_lines)]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn json_escape_avx2(
    src: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    kernel: &JsonKernel,
) -> usize {
    if kernel.raw_unicode {
        // SAFETY: AVX2 is enabled here, which is all the body needs
        // without the dense path.
        json_escape_body!(false, true, src, i, out, kernel)
    } else {
        // SAFETY: as above.
        json_escape_body!(false, false, src, i, out, kernel)
    }
}

/// The AVX2 kernel with the AVX-512 paths: windows whose escapes are
/// all two bytes long ([`pairs_window`]), and runs of windows of
/// non-ASCII text written as `\uXXXX` ([`planes_two`],
/// [`planes_run`]). With `JSON_UNESCAPED_UNICODE` see
/// [`json_escape_avx512_raw`].
///
/// # Safety
///
/// The CPU must support AVX2, BMI2 and AVX-512 F, BW, VL, VBMI and
/// VBMI2 (see [`crate::simd::avx512_available`]).
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // byte lanes, masks
#[allow(clippy::too_many_lines)]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(super) unsafe fn json_escape_avx512(
    src: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    kernel: &JsonKernel,
) -> usize {
    // SAFETY: every feature the body uses with `DENSE` is enabled here.
    json_escape_body!(true, false, src, i, out, kernel)
}

/// [`json_escape_avx512`] with `JSON_UNESCAPED_UNICODE`: a function of
/// its own, so that its loop is laid out and its registers allocated
/// apart (the two loops in one function made this one 20% slower).
///
/// # Safety
///
/// As [`json_escape_avx512`].
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // byte lanes, masks
#[allow(clippy::too_many_lines)]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(super) unsafe fn json_escape_avx512_raw(
    src: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    kernel: &JsonKernel,
) -> usize {
    // SAFETY: every feature the body uses with `DENSE` is enabled here.
    json_escape_body!(true, true, src, i, out, kernel)
}

/// Byte `p` to places `2p` and `2p + 1` of a pair vector: the first
/// from the first table, the second from the second.
static PAIRS: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut p = 0;
    while p < 32 {
        t[2 * p] = p as u8;
        t[2 * p + 1] = 64 + p as u8;
        p += 1;
    }
    t
};

/// A window whose only bytes to escape are ASCII with two-byte escapes
/// (`\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`; `letters` gives the
/// second byte, 0 for the others) with AVX-512: every byte becomes a
/// pair (`\` and the letter for those, the byte and a byte dropped for
/// the others) and one compress keeps what is written. `v` is the
/// window, `special` its bytes to escape, `end` the bytes to take (the
/// window may end inside a character). Returns the bytes written at
/// byte `at` of `out`'s buffer (64 bytes are stored), or `None` when
/// another escape is needed.
///
/// # Safety
///
/// `at + 64 <= out.capacity()`.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[allow(clippy::cast_possible_wrap)]
unsafe fn pairs_window(
    v: __m256i,
    special: u32,
    end: usize,
    out: &mut Vec<u8>,
    at: usize,
    letters: &[u8; 128],
) -> Option<usize> {
    // The tables are loaded here, not before the loop: a 512-bit
    // load at each call of the kernel made the whole loop slower
    // (about 15% on JSON_UNESCAPED_UNICODE text that never comes
    // here), as 512-bit instructions lower the core's clock.
    let letters = std::hint::black_box(letters);
    let pairs_index = std::hint::black_box(&PAIRS);
    let z = _mm512_zextsi256_si512(v);
    // SAFETY: `letters` is 128 bytes long.
    let letters_lo = unsafe { load512(letters, 0) };
    // SAFETY: as above.
    let letters_hi = unsafe { load512(letters, 64) };
    let letter = _mm512_permutex2var_epi8(letters_lo, z, letters_hi);
    let two: u64 = _mm512_test_epi8_mask(letter, letter);
    let special = u64::from(special);
    if special & !two != 0 {
        return None;
    }
    let first = _mm512_mask_blend_epi8(special, z, _mm512_set1_epi8(b'\\' as i8));
    // SAFETY: the table is 64 bytes long.
    let index = unsafe { load512(pairs_index, 0) };
    let pairs = _mm512_permutex2var_epi8(first, index, letter);
    let taken = (1u64 << end) - 1;
    let keep = _pdep_u64(taken, 0x5555_5555_5555_5555) | _pdep_u64(special, 0xAAAA_AAAA_AAAA_AAAA);
    let packed = _mm512_maskz_compress_epi8(keep, pairs);
    // SAFETY: `at + 64 <= out.capacity()` (the caller's).
    unsafe { store512_spare(out, at, packed) };
    Some(end + special.count_ones() as usize)
}

/// Three planes of 32 bytes (the first two in one vector) to 96 bytes:
/// byte `3p + k` is byte `p` of plane `k`.
static TRIPLES: [[u8; 64]; 2] = {
    let mut t = [[0u8; 64]; 2];
    let mut o = 0;
    while o < 128 {
        let (p, k) = (o / 3, o % 3);
        if p < 32 {
            t[o / 64][o % 64] = match k {
                0 => p as u8,
                1 => 32 + p as u8,
                _ => 64 + p as u8,
            };
        }
        o += 1;
    }
    t
};

/// The 64-byte planes path for three-byte characters (and four-byte
/// ones with `FOUR`), then, where it does not start, the 32-byte one.
///
/// # Safety
///
/// As [`planes_run`].
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
unsafe fn planes_long<const FOUR: bool>(
    src: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    len: usize,
    kernel: &JsonKernel,
    letters: &[u8; 128],
) -> (usize, usize) {
    // SAFETY: as documented; the features are enabled here.
    let (next, written) = unsafe {
        super::x86_512::planes_wide::<FOUR>(src, i, out, len, &kernel.lo, &kernel.hi, letters)
    };
    if next != i {
        return (next, written);
    }
    let (lo_t, hi_t) = (table256(&kernel.lo), table256(&kernel.hi));
    // SAFETY: as above.
    unsafe { planes_run::<FOUR>(src, i, out, len, lo_t, hi_t, letters) }
}

/// The 512-bit tables of the planes paths: the letters of two-byte
/// escapes (`letters`, two halves) and [`TRIPLES`].
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
fn planes_tables(letters: &[u8; 128]) -> ([__m512i; 2], [__m512i; 2]) {
    // SAFETY: `letters` is 128 bytes long.
    let letters_lo = unsafe { load512(letters, 0) };
    // SAFETY: as above.
    let letters_hi = unsafe { load512(letters, 64) };
    // SAFETY: the tables are 64 bytes long.
    let triples = [unsafe { load512(&TRIPLES[0], 0) }, unsafe {
        load512(&TRIPLES[1], 0)
    }];
    ([letters_lo, letters_hi], triples)
}

/// The bytes of window `c` (`hc`: its high nibbles) to escape, by
/// [`JsonKernel`]'s lookups `lo_t` and `hi_t`, whether there are any,
/// and with them (else zeros) each byte's two-byte escape letter
/// (`letters`: [`planes_tables`]) and the bytes to escape that have none.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
fn planes_escapes(
    c: __m256i,
    hc: __m256i,
    lo_t: __m256i,
    hi_t: __m256i,
    letters: [__m512i; 2],
) -> (__m256i, bool, __m256i, __m256i) {
    let zero = _mm256_setzero_si256();
    let special = _mm256_andnot_si256(
        _mm256_cmpeq_epi8(
            _mm256_and_si256(
                _mm256_shuffle_epi8(lo_t, _mm256_and_si256(c, _mm256_set1_epi8(0x0F))),
                _mm256_shuffle_epi8(hi_t, hc),
            ),
            zero,
        ),
        _mm256_set1_epi8(-1),
    );
    if _mm256_testz_si256(special, special) == 1 {
        return (special, false, zero, zero);
    }
    let letter = _mm512_castsi512_si256(_mm512_permutex2var_epi8(
        letters[0],
        _mm512_zextsi256_si512(c),
        letters[1],
    ));
    let no_letter = _mm256_and_si256(special, _mm256_cmpeq_epi8(letter, zero));
    (special, true, letter, no_letter)
}

/// Planes 0 and 1 of [`planes`] with the ASCII bytes of window `c` put
/// in (the byte itself, nothing) and the two-byte escapes of its bytes
/// to escape (`special`, `any_special`, `letter`: [`planes_escapes`]).
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
fn with_ascii_and_escapes(
    [q0, q1, q2]: [__m256i; 3],
    c: __m256i,
    special: __m256i,
    any_special: bool,
    letter: __m256i,
) -> [__m256i; 3] {
    let ascii = _mm256_cmpgt_epi8(c, b(0xFF));
    let q0 = sel(special, b(b'\\'), sel(ascii, c, q0));
    let q1 = if any_special {
        _mm256_andnot_si256(
            _mm256_andnot_si256(special, ascii),
            sel(special, letter, q1),
        )
    } else {
        _mm256_andnot_si256(ascii, q1)
    };
    [q0, q1, q2]
}

/// The three planes interleaved into the output's two 64-byte parts
/// ([`TRIPLES`], loaded), with the bytes of each to keep (those not
/// zero; the second part's up to the output's 96th byte).
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
fn planes_weave([q0, q1, q2]: [__m256i; 3], triples: [__m512i; 2]) -> ([__m512i; 2], [u64; 2]) {
    let q01 = _mm512_inserti64x4::<1>(_mm512_zextsi256_si512(q0), q1);
    let q2 = _mm512_zextsi256_si512(q2);
    let out_a = _mm512_permutex2var_epi8(q01, triples[0], q2);
    let out_b = _mm512_permutex2var_epi8(q01, triples[1], q2);
    let keep_a: u64 = _mm512_test_epi8_mask(out_a, out_a);
    let keep_b: u64 = _mm512_test_epi8_mask(out_b, out_b) & 0xFFFF_FFFF;
    ([out_a, out_b], [keep_a, keep_b])
}

/// Stores the bytes to keep of both parts of [`planes_weave`] at byte
/// `at` of `out`'s buffer, one after the other, and returns how many.
///
/// # Safety
///
/// `at + 128 <= out.capacity()`.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
unsafe fn planes_store(out: &mut Vec<u8>, at: usize, parts: [__m512i; 2], keep: [u64; 2]) -> usize {
    let packed_a = _mm512_maskz_compress_epi8(keep[0], parts[0]);
    // SAFETY: `at + 64 <= out.capacity()` (the caller's).
    unsafe { store512_spare(out, at, packed_a) };
    let written_a = keep[0].count_ones() as usize;
    let packed_b = _mm512_maskz_compress_epi8(keep[1], parts[1]);
    // SAFETY: `written_a <= 64`, so `at + written_a + 64 <=
    // out.capacity()` (the caller's).
    unsafe { store512_spare(out, at + written_a, packed_b) };
    written_a + keep[1].count_ones() as usize
}

/// A two-byte character whose lead ends the window written up to `i` is
/// written whole: its second byte's share (the last three hex digits)
/// now, and the next window starts after it. Returns `i` and `len` for
/// the next window.
///
/// # Safety
///
/// `len + 4 <= out.capacity()`.
#[inline]
pub(super) unsafe fn lead_at_window_end(
    src: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    len: usize,
) -> (usize, usize) {
    if src[i - 1] < 0xC0 {
        return (i, len);
    }
    let (lead_byte, second) = (u32::from(src[i - 1]), u32::from(src[i]));
    let cp = (lead_byte & 0x1F) << 6 | (second & 0x3F);
    let word = super::json_unit_word(cp) >> 24; // the last three digits
    // SAFETY: `len + 4 <= out.capacity()` (the caller's).
    unsafe { store32_spare(out, len, word as u32) };
    (i + 1, len + 3)
}

/// Text written as `\uXXXX` with AVX-512 (on 256-bit vectors), 32
/// bytes at a time from `i` (a character start, at least 3) while 64
/// bytes are left and each window is well-formed UTF-8 whose bytes to
/// escape (`lo_t`, `hi_t`: [`JsonKernel`]'s lookups) all have two-byte
/// escapes (`letters`). Returns where it stopped (a character start)
/// and the new written length of `out` (`len` on entry: the bytes of
/// `out` written so far).
///
/// Every input byte gives one, two or three output bytes: an ASCII
/// byte itself; a byte to escape `\` and its letter; the lead of a
/// two-byte character `\u0`, its second byte the three other hex
/// digits; a three-byte character `\u`, two digits, two digits; a
/// four-byte character `\ud`, three digits, `\ud`, three digits (its
/// surrogates). Each byte's share is computed from the byte and the
/// ones around it, in three planes; an interleave and two compresses
/// make the output. So windows are a fixed 32 bytes apart and a
/// character may cross from one to the next. UTF-8 is checked with
/// Keiser and Lemire's lookups three bytes ahead, so that a window's
/// characters are known good, to their last byte, before any of them
/// is written; a window that fails writes only the end of the
/// character begun before it.
///
/// # Safety
///
/// `3 <= i`, `len <= out.capacity()`, the bytes of `out` up to `len`
/// written.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
#[allow(clippy::too_many_lines, clippy::too_many_arguments)]
unsafe fn planes_run<const FOUR: bool>(
    src: &[u8],
    mut i: usize,
    out: &mut Vec<u8>,
    mut len: usize,
    lo_t: __m256i,
    hi_t: __m256i,
    letters: &[u8; 128],
) -> (usize, usize) {
    // Room for a window: three bytes per position, 64 stored past.
    const ROOM: usize = 3 * JSON_WINDOW + 64 + 16;
    let n = src.len();
    // SAFETY: AVX-512 F, BW and VL are enabled.
    let tables = unsafe { PlaneTables::<__m256i>::new() };
    let kl = lookups256();
    let (letters, triples) = planes_tables(letters);
    // Loads are within `src`: from `i - 3` (with `3 <= i`) to
    // `i + 35 <= n`, by the loop's bounds.
    // SAFETY: every `at` below is so.
    let load = |at: usize| unsafe { load256(src, at) };
    // The first three bytes of the run are checked once; after
    // that each window checks three bytes ahead. A continuation
    // byte at the start (after a malformed sequence the caller
    // skipped) is malformed itself, whatever the bytes before it.
    if n - i < 35 || src[i] & 0xC0 == 0x80 {
        return (i, len);
    }
    let mut entry = true;
    // A window's loads reach `i + 35`. A window is taken whole only
    // with 67 bytes left, so that after it the loads of one more
    // always fit: that one writes only the end of a character the
    // whole one began.
    while n - i >= 35 {
        let whole = n - i >= 2 * JSON_WINDOW + 3;
        // SAFETY: the bytes of `out` up to `len` are written.
        unsafe { reserve_room(out, len, ROOM) };
        let c = load(i);
        let (p1, p2, p3) = (load(i - 1), load(i - 2), load(i - 3));
        let (n1, n2, n3) = (load(i + 1), load(i + 2), load(i + 3));
        let hc = high_nibble(c);
        // The bytes to escape and their letters; a byte to escape
        // without a two-byte escape is an error.
        let (special, any_special, letter, no_letter) = planes_escapes(c, hc, lo_t, hi_t, letters);
        let mut errors = _mm256_or_si256(utf8_errors256(kl, n3, n2, n1, c), no_letter);
        if !FOUR {
            // Four-byte leads are for the other variant.
            errors = _mm256_or_si256(errors, _mm256_shuffle_epi8(tables.l4, hc));
        }
        let at_entry = entry;
        if entry {
            let first3 = _mm256_setr_epi32(-1, 0, 0, 0, 0, 0, 0, 0);
            let head = _mm256_and_si256(utf8_errors256(kl, c, p1, p2, p3), first3);
            errors = _mm256_or_si256(errors, head);
            entry = false;
        }
        let high = _mm256_movemask_epi8(c) as u32;
        let ok =
            whole && _mm256_testz_si256(errors, errors) == 1 && high.count_ones() >= PLANES_STAY;
        // When this window fails, the leading continuation bytes
        // finishing a character begun in the window before are
        // still written (none at the run's entry: a character
        // start): at most three, those the window before checked;
        // more are malformed.
        let carried = if ok || at_entry {
            0
        } else {
            let cont = _mm256_movemask_epi8(_mm256_cmpgt_epi8(b(0xC0), c)) as u32 & high;
            ((!cont).trailing_zeros() as usize).min(3)
        };
        if !ok && carried == 0 {
            break;
        }

        // SAFETY: AVX-512 F, BW and VL are enabled.
        let planes = unsafe { planes::<__m256i, FOUR>(&tables, c, hc, [p1, p2, p3], n1) };
        let planes = with_ascii_and_escapes(planes, c, special, any_special, letter);
        let (parts, mut keep) = planes_weave(planes, triples);
        if !ok {
            // Only the end of the character begun before.
            keep = [keep[0] & ((1u64 << (3 * carried)) - 1), 0];
        }
        // SAFETY: `len + 128 <= out.capacity()` (ROOM).
        len += unsafe { planes_store(out, len, parts, keep) };
        if !ok {
            i += carried;
            return (i, len);
        }
        i += JSON_WINDOW;
    }
    (i, len)
}

/// [`planes_run`] for text whose only multibyte characters are two
/// bytes long (Latin, Greek, Cyrillic, Hebrew, Arabic...): each lead
/// gives `\u0`, each second byte the other three hex digits. A window
/// is well-formed when every lead (C2 to DF) is followed by a
/// continuation byte and every continuation byte follows a lead, the
/// byte after the window included. Stops (at a character start) at a
/// window that is not of this kind or not well-formed, or when fewer
/// than 64 bytes are left.
///
/// # Safety
///
/// As [`planes_run`].
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]
#[allow(clippy::too_many_lines)]
unsafe fn planes_two(
    src: &[u8],
    mut i: usize,
    out: &mut Vec<u8>,
    mut len: usize,
    lo_t: __m256i,
    hi_t: __m256i,
    letters: &[u8; 128],
) -> (usize, usize) {
    const ROOM: usize = 3 * JSON_WINDOW + 64 + 16;
    let n = src.len();
    let (t_lead, t_cont, t_long) = (
        table256(&HIGH_L2),
        table256(&HIGH_CONT),
        table256(&HIGH_LONG),
    );
    let hex_table = table256(b"0123456789abcdef");
    let (letters, triples) = planes_tables(letters);
    // Loads are within `src`: from `i - 1` (with `3 <= i`) to
    // `i + 33 <= n`, by the loop's bounds.
    // SAFETY: every `at` below is so.
    let load = |at: usize| unsafe { load256(src, at) };
    // No window may start with a continuation byte: the run starts
    // at a character, and a lead at a window's end takes its second
    // byte along, so one there is malformed (it is checked here,
    // not with the window's other bytes). Each window's leads are
    // checked against the bytes after them, the byte after the
    // window included.
    while n - i >= 2 * JSON_WINDOW {
        if src[i] & 0xC0 == 0x80 {
            break;
        }
        // SAFETY: the bytes of `out` up to `len` are written.
        unsafe { reserve_room(out, len, ROOM) };
        let (c, p1, n1) = (load(i), load(i - 1), load(i + 1));
        let hc = high_nibble(c);
        let lead = _mm256_shuffle_epi8(t_lead, hc);
        let cont = _mm256_shuffle_epi8(t_cont, hc);
        let next_cont = _mm256_shuffle_epi8(t_cont, high_nibble(n1));
        // The bytes to escape and their letters; a byte to escape
        // without a two-byte escape is an error.
        let (special, any_special, letter, no_letter) = planes_escapes(c, hc, lo_t, hi_t, letters);
        // Malformed or not for this path: a lead not followed by a
        // continuation byte or the other way round (a
        // continuation byte at the window's start follows the
        // previous window's last lead, checked there), C0 and C1,
        // longer characters, escapes of six bytes.
        let errors = _mm256_or_si256(
            _mm256_or_si256(
                _mm256_xor_si256(lead, next_cont),
                _mm256_shuffle_epi8(t_long, hc),
            ),
            _mm256_or_si256(
                no_letter,
                _mm256_cmpeq_epi8(_mm256_and_si256(c, b(0xFE)), b(0xC0)),
            ),
        );
        if _mm256_testz_si256(errors, errors) == 0
            || (_mm256_movemask_epi8(c) as u32).count_ones() < PLANES_STAY
        {
            break;
        }
        // SAFETY: AVX-512 F, BW and VL are enabled.
        let planes = unsafe { two_byte_planes(hex_table, c, hc, p1, lead, cont) };
        let planes = with_ascii_and_escapes(planes, c, special, any_special, letter);
        let (parts, keep) = planes_weave(planes, triples);
        // SAFETY: `len + 128 <= out.capacity()` (ROOM).
        len += unsafe { planes_store(out, len, parts, keep) };
        // A lead at the window's end: its second byte goes with
        // it (it was checked above).
        // SAFETY: at most 96 bytes were written in the window, so
        // `len + 4 <= out.capacity()` (ROOM).
        (i, len) = unsafe { lead_at_window_end(src, i + JSON_WINDOW, out, len) };
    }
    (i, len)
}

/// Without AVX-512, a window with this many bytes from 0x80 up (text
/// written as `\uXXXX`) ends the kernel.
const SCALAR_DENSE: u32 = 16;

/// Windows with fewer bytes from 0x80 up than this start no run of
/// the planes paths: sparse non-ASCII text is faster character by
/// character.
const PLANES_MIN: u32 = 6;

/// The same for text with three- and four-byte characters, whose
/// path costs more.
const PLANES_MIN_LONG: u32 = 16;

/// A run of the planes paths ends at a window with fewer bytes from
/// 0x80 up than this.
const PLANES_STAY: u32 = 4;
