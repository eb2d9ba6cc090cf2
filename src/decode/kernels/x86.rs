//! The x86-64 tiers of [`utf8_run`](super::utf8_run): SSSE3, 16 bytes a
//! step, AVX2, 32, and AVX-512 (VBMI2), 64.

#[allow(clippy::wildcard_imports)]
use std::arch::x86_64::*;

use crate::simd::memory::{
    load64, load128, load256, load512, store64, store128, store128_spare, store256, store512,
    store512_spare,
};
use crate::simd::utf8_check::{
    UTF8_BYTE_1_HIGH, UTF8_BYTE_1_LOW, UTF8_BYTE_2_HIGH, lookups, utf8_errors,
};

use super::{COMPRESS, EXPAND, KEPT, TwoByteTable};

/// Bit `j` set for each byte `j` of `v` whose high bit is set.
#[inline]
#[target_feature(enable = "sse2")]
fn mask_of(v: __m128i) -> u32 {
    // The mask has 16 significant bits: the cast only drops sign.
    #[allow(clippy::cast_sign_loss)]
    let m = _mm_movemask_epi8(v) as u32;
    m
}

/// `b` in every byte.
#[inline]
#[target_feature(enable = "sse2")]
#[allow(clippy::cast_possible_wrap)] // byte constants as `i8` lanes
fn splat(b: u8) -> __m128i {
    _mm_set1_epi8(b as i8)
}

// The byte classes by signed comparison: as `i8`, 0x80..=0xBF are
// -128..=-65, 0xC2..=0xDF are -62..=-33, 0xE0..=0xEF are -32..=-17 and
// 0xF0..=0xF4 are -16..=-12. Each method needs SSSE3 at the most, which
// the trait's contract leaves to the caller, and the memory ones their
// bounds: one safety argument for the whole block.
#[allow(clippy::multiple_unsafe_ops_per_block)]
impl super::Block for __m128i {
    #[inline(always)]
    unsafe fn load(s: &[u8], at: usize) -> Self {
        // SAFETY: the bounds, the caller's; unaligned loads are allowed.
        unsafe { load128(s, at) }
    }
    #[inline(always)]
    unsafe fn store(self, d: &mut [u8], at: usize) {
        // SAFETY: the bounds, the caller's.
        unsafe { store128(d, at, self) }
    }
    #[inline(always)]
    unsafe fn store_kept(
        self,
        d: &mut [u8],
        at: usize,
        [drop_lo, drop_hi]: [usize; 2],
        kept_lo: usize,
    ) {
        // SAFETY: SSSE3, the caller's.
        let (lo, hi) = unsafe {
            (
                _mm_shuffle_epi8(self, load64(&COMPRESS[drop_lo])),
                _mm_shuffle_epi8(_mm_srli_si128(self, 8), load64(&COMPRESS[drop_hi])),
            )
        };
        // SAFETY: `kept_lo <= 8`: the 8-byte stores end at most at `at +
        // 16 <= d.len()` (the caller's); SSSE3.
        unsafe {
            store64(d, at, lo);
            store64(d, at + kept_lo, hi);
        }
    }
    #[inline(always)]
    unsafe fn any_high(self) -> bool {
        // SAFETY: SSE2, the caller's.
        unsafe { mask_of(self) != 0 }
    }
    #[inline(always)]
    unsafe fn high_lanes(self) -> u32 {
        // SAFETY: SSE2, the caller's.
        unsafe { mask_of(self) }
    }
    #[inline(always)]
    unsafe fn next(self) -> Self {
        // SAFETY: SSE2, the caller's.
        unsafe { _mm_srli_si128(self, 1) }
    }
    #[inline(always)]
    unsafe fn continuation(self) -> Self {
        // SAFETY: SSE2, the caller's.
        unsafe { _mm_cmplt_epi8(self, splat(0xC0)) }
    }
    #[inline(always)]
    unsafe fn lead2(self) -> Self {
        // SAFETY: SSE2, the caller's.
        unsafe {
            _mm_and_si128(
                _mm_cmpgt_epi8(self, splat(0xC1)),
                _mm_cmplt_epi8(self, splat(0xE0)),
            )
        }
    }
    #[inline(always)]
    unsafe fn lead3(self) -> Self {
        // SAFETY: SSE2, the caller's.
        unsafe {
            _mm_and_si128(
                _mm_cmpgt_epi8(self, splat(0xDF)),
                _mm_cmplt_epi8(self, splat(0xF0)),
            )
        }
    }
    #[inline(always)]
    unsafe fn lead4(self) -> Self {
        // SAFETY: SSE2, the caller's.
        unsafe {
            _mm_and_si128(
                _mm_cmpgt_epi8(self, splat(0xEF)),
                _mm_cmplt_epi8(self, splat(0xF5)),
            )
        }
    }
    #[inline(always)]
    unsafe fn out_of_range(self, next: Self) -> Self {
        // SAFETY: SSE2, the caller's.
        let is = |b: u8| unsafe { _mm_cmpeq_epi8(self, splat(b)) };
        // SAFETY: as above.
        unsafe {
            _mm_or_si128(
                _mm_or_si128(
                    _mm_and_si128(is(0xE0), _mm_cmplt_epi8(next, splat(0xA0))),
                    _mm_and_si128(is(0xED), _mm_cmpgt_epi8(next, splat(0x9F))),
                ),
                _mm_or_si128(
                    _mm_and_si128(is(0xF0), _mm_cmplt_epi8(next, splat(0x90))),
                    _mm_and_si128(is(0xF4), _mm_cmpgt_epi8(next, splat(0x8F))),
                ),
            )
        }
    }
    #[inline(always)]
    unsafe fn or(self, other: Self) -> Self {
        // SAFETY: SSE2, the caller's.
        unsafe { _mm_or_si128(self, other) }
    }
    #[inline(always)]
    unsafe fn select(self, yes: Self, no: Self) -> Self {
        // SAFETY: SSE2, the caller's.
        unsafe { _mm_or_si128(_mm_and_si128(self, yes), _mm_andnot_si128(self, no)) }
    }
    #[inline(always)]
    unsafe fn latin1_values(self, next: Self) -> Self {
        // SAFETY: SSE2, the caller's.
        unsafe {
            let top = _mm_slli_epi16(_mm_and_si128(self, splat(0x03)), 6);
            let code = _mm_or_si128(top, _mm_and_si128(next, splat(0x3F)));
            let fits = _mm_or_si128(
                _mm_cmpeq_epi8(self, splat(0xC2)),
                _mm_cmpeq_epi8(self, splat(0xC3)),
            );
            fits.select(code, splat(b'?'))
        }
    }
    #[inline(always)]
    unsafe fn question() -> Self {
        // SAFETY: SSE2, the caller's.
        unsafe { splat(b'?') }
    }
}

/// The SSSE3 kernel of [`super::utf8_run`]: [`super::utf8_blocks`] on
/// SSE registers.
///
/// # Safety
///
/// The CPU must support SSSE3, and `dst.len() >= src.len()`.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn utf8_run_ssse3(src: &[u8], dst: &mut [u8], latin1: bool) -> (usize, usize) {
    // SAFETY: SSSE3 is enabled; the bounds are the caller's.
    unsafe { super::utf8_blocks::<__m128i>(src, dst, latin1) }
}

/// Lane numbers 0..=63, for byte permutes.
static LANES: [u8; 64] = {
    let mut lanes = [0u8; 64];
    let mut k = 0;
    while k < 64 {
        lanes[k] = k as u8;
        k += 1;
    }
    lanes
};

/// A 16-entry nibble table spread over 64 entries, for `vpermb`
/// (which reads the low six bits of each index): indexed by a byte
/// shifted right by two (`high`) or by the byte itself.
const fn spread(table: &[u8; 16], high: bool) -> [u8; 64] {
    let mut wide = [0u8; 64];
    let mut j = 0;
    while j < 64 {
        wide[j] = table[if high { j >> 2 } else { j & 15 }];
        j += 1;
    }
    wide
}

static UTF8_BYTE_1_HIGH_64: [u8; 64] = spread(&UTF8_BYTE_1_HIGH, true);
static UTF8_BYTE_1_LOW_64: [u8; 64] = spread(&UTF8_BYTE_1_LOW, false);
static UTF8_BYTE_2_HIGH_64: [u8; 64] = spread(&UTF8_BYTE_2_HIGH, true);

/// Whether a window kernel of [`super::utf8_run`] may start on `src`:
/// its checks take each byte against the ones before it from the second
/// byte on, and after the start only a continuation byte is an error.
#[inline(always)]
fn starts_a_character(src: &[u8]) -> bool {
    src.first().is_some_and(|&b| b & 0xC0 != 0x80)
}

/// Where the characters a window kernel of [`super::utf8_run`] has
/// written end: at the last bit of `ends` (a window's lanes) in the
/// window at `base`, or at the start while `ends` is 0.
#[derive(Clone, Copy)]
struct Written {
    base: usize,
    ends: u64,
}

impl Written {
    const NONE: Written = Written { base: 0, ends: 0 };

    #[inline(always)]
    fn at(base: usize, ends: u64) -> Written {
        Written { base, ends }
    }

    /// The bytes read: up to the end of the last character written.
    #[inline(always)]
    fn read(self) -> usize {
        if self.ends == 0 {
            0
        } else {
            self.base + 64 - self.ends.leading_zeros() as usize
        }
    }
}

/// The AVX-512 kernel of [`super::utf8_run`], 64 bytes a step; `latin1`
/// as in [`utf8_run_ssse3`].
///
/// Windows follow each other a fixed 64 bytes apart, so no load waits
/// on the bytes before it. Every character gives one byte, written at
/// the lane of its last byte: a lane is a character's last when the
/// byte after it is not a continuation. A character cut by a window's
/// end is therefore written by the next window.
///
/// Keiser and Lemire's lookups check each byte against the three
/// before it. A window checks the 64 bytes one past its own (so the
/// byte after its last lane too): every check of a character then sits
/// at most one byte after its end, in the window that writes it. The
/// start is a character boundary, so the bytes before it count as
/// ASCII. At malformed UTF-8 the window writes the characters whose
/// checks all passed and the kernel stops after them, leaving the rest
/// to the exact scalar decoder.
///
/// # Safety
///
/// The CPU must support AVX2, BMI1, BMI2, POPCNT and AVX-512 F, BW, VL,
/// VBMI and VBMI2 (see [`crate::simd::avx512_available`]), and
/// `dst.len() >= src.len()`.
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
#[allow(clippy::cast_possible_wrap)] // byte constants as `i8` lanes
pub(super) unsafe fn utf8_run_avx512(src: &[u8], dst: &mut [u8], latin1: bool) -> (usize, usize) {
    const W: usize = 64;
    if !starts_a_character(src) {
        return (0, 0);
    }
    // `i`: the window; `o`: the bytes written.
    let (mut i, mut o) = (0usize, 0usize);
    let mut written = Written::NONE;
    let splat = |byte: u8| _mm512_set1_epi8(byte as i8);
    // SAFETY: the tables are 64 bytes long; AVX-512 F is enabled.
    let k1_hi = unsafe { load512(&UTF8_BYTE_1_HIGH_64, 0) };
    // SAFETY: as above.
    let k1_lo = unsafe { load512(&UTF8_BYTE_1_LOW_64, 0) };
    // SAFETY: as above.
    let k2_hi = unsafe { load512(&UTF8_BYTE_2_HIGH_64, 0) };
    let (question, top, top_two) = (splat(b'?'), splat(0x80), splat(0xC0));
    // Each byte's top six bits in its low six (`vpermb` ignores the
    // two bits the 16-bit shift brings in from the neighbour).
    let top6 = |x: __m512i| _mm512_srli_epi16(x, 2);
    // The loads at `i + 1` read one byte past the window.
    while src.len() - i > W {
        // SAFETY: `i + 65 <= src.len()`: the 64 bytes at `i` are in
        // `src`; AVX-512 F is enabled.
        let v = unsafe { load512(src, i) };
        // SAFETY: and so are the 64 at `i + 1`.
        let next = unsafe { load512(src, i + 1) };
        let high = _mm512_movepi8_mask(v);
        if high == 0 && src[i + W] < 0x80 {
            // ASCII up to and with the byte after the window. (No
            // character is cut before it: the window before checked
            // that byte `i` is not ASCII then.)
            // SAFETY: `o <= i` and `dst.len() >= src.len() >= i + 64`.
            unsafe { store512(dst, o, v) };
            written = Written::at(i, 1 << 63);
            i += W;
            o += W;
            continue;
        }
        // The bytes one and two before each lane.
        let (back1, back2) = if i == 0 {
            // Lane k of `permute(lanes - n, v)` is lane k - n of `v`;
            // the first n lanes, from before `src`, are zeroed.
            // SAFETY: `LANES` is 64 bytes long.
            let lanes = unsafe { load512(&LANES, 0) };
            let back = |n: u8, keep: u64| {
                _mm512_maskz_permutexvar_epi8(keep, _mm512_sub_epi8(lanes, splat(n)), v)
            };
            (back(1, !1), back(2, !3))
        } else {
            // (Loads are cheaper here than permutes of the window before.)
            // SAFETY: `i >= 64`, so the 64 bytes from `i - 1` are in `src`.
            let back1 = unsafe { load512(src, i - 1) };
            // SAFETY: and those from `i - 2`.
            let back2 = unsafe { load512(src, i - 2) };
            (back1, back2)
        };
        // Bit k: the check of byte `i + k + 1` against the three before.
        let (p1, p2, p3) = (v, back1, back2);
        let special = _mm512_ternarylogic_epi32::<0x80>(
            _mm512_permutexvar_epi8(top6(p1), k1_hi),
            _mm512_permutexvar_epi8(p1, k1_lo),
            _mm512_permutexvar_epi8(top6(next), k2_hi),
        );
        // The third and fourth bytes of three- and four-byte
        // characters: bit 7 set where a continuation must follow
        // (0xE0.. and 0xF0.. reach 0x80 after the saturating
        // subtraction; 0xA8 is `(a | b) & c`), to match bit 7 of
        // `special` (TWO_CONTS).
        let must23 = _mm512_ternarylogic_epi32::<0xA8>(
            _mm512_subs_epu8(p2, splat(0xE0 - 0x80)),
            _mm512_subs_epu8(p3, splat(0xF0 - 0x80)),
            top,
        );
        let errors = _mm512_cmpneq_epi8_mask(special, must23);
        // Continuation bytes are below 0xC0 as signed bytes.
        let last = !_mm512_cmplt_epi8_mask(next, top_two);
        // With an error at bit e, the characters that end before lane e
        // passed every check. (Without errors some lane is a
        // character's last: no more than three continuations follow
        // each other.)
        let last = if errors == 0 {
            last
        } else {
            last & errors.wrapping_sub(1) & !errors
        };
        let value = if latin1 {
            // The second byte of C2 xx or C3 xx: the lead's low two
            // bits (10 or 11) shifted to the top, then its own low six.
            let code = _mm512_ternarylogic_epi32::<0xCA>(top_two, _mm512_slli_epi16(back1, 6), v);
            let fits = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(back1, splat(0xC2)), splat(2));
            _mm512_mask_blend_epi8(fits, question, code)
        } else {
            question
        };
        let value = _mm512_mask_blend_epi8(high, v, value);
        let packed = _mm512_maskz_compress_epi8(last, value);
        // SAFETY: `o <= i` and `dst.len() >= src.len() >= i + 64`.
        unsafe { store512(dst, o, packed) };
        o += last.count_ones() as usize;
        if errors != 0 {
            if last != 0 {
                written = Written::at(i, last);
            }
            return (written.read(), o);
        }
        written = Written::at(i, last);
        i += W;
    }
    (written.read(), o)
}

/// The AVX2 kernel of [`super::utf8_run`], 32 bytes a step; `latin1` as
/// in [`utf8_run_ssse3`].
///
/// The windows and checks of [`utf8_run_avx512`], 32 bytes apart (the
/// lookups of Keiser and Lemire's check stay within a 128-bit lane of
/// `vpshufb`: each table is in both), so that no load waits on the
/// bytes before it; each character gives one byte at the lane of its
/// last byte. Without `vpcompressb`, the bytes are packed in four
/// 8-lane shuffles ([`COMPRESS`]), except in a window where every kept
/// byte is `?` (no ASCII, no C2/C3 pair for ISO-8859-1: CJK text):
/// 32 `?` are stored and as many kept as the window ends characters.
///
/// # Safety
///
/// The CPU must support AVX2 and POPCNT, and `dst.len() >= src.len()`.
#[target_feature(enable = "avx2,popcnt")]
#[allow(clippy::cast_possible_wrap)] // byte constants as `i8` lanes
pub(super) unsafe fn utf8_run_avx2(src: &[u8], dst: &mut [u8], latin1: bool) -> (usize, usize) {
    const W: usize = 32;
    if !starts_a_character(src) {
        return (0, 0);
    }
    // `i`: the window; `o`: the bytes written.
    let (mut i, mut o) = (0usize, 0usize);
    let mut written = Written::NONE;
    let splat = |byte: u8| _mm256_set1_epi8(byte as i8);
    // The mask has 32 significant bits: the cast only drops sign.
    let lanes = |x: __m256i| _mm256_movemask_epi8(x) as u32;
    // SAFETY: AVX2 is enabled.
    let kl = unsafe { lookups::<__m256i>() };
    let (question, top_two, low6, zero) = (
        splat(b'?'),
        splat(0xC0),
        splat(0x3F),
        _mm256_setzero_si256(),
    );
    // The loads at `i + 1` read one byte past the window.
    while src.len() - i > W {
        // SAFETY: `i + 33 <= src.len()`: the 32 bytes at `i` are in `src`.
        let v = unsafe { load256(src, i) };
        // SAFETY: and so are the 32 at `i + 1`.
        let next = unsafe { load256(src, i + 1) };
        // ASCII up to and with the byte after the window (see
        // `utf8_run_avx512`): `next` holds that byte.
        if lanes(_mm256_or_si256(v, next)) == 0 {
            // SAFETY: `o <= i` and `dst.len() >= src.len() >= i + 32`.
            unsafe { store256(dst, o, v) };
            written = Written::at(i, 1 << 31);
            i += W;
            o += W;
            continue;
        }
        let high = lanes(v);
        // The bytes one and two before each lane; before `src`, zeros
        // (ASCII: the start is a character boundary).
        let (back1, back2) = if i == 0 {
            let mut head = [0u8; W + 2];
            head[2..].copy_from_slice(&src[..W]);
            // SAFETY: `head` is 34 bytes long.
            let back1 = unsafe { load256(&head, 1) };
            // SAFETY: as above.
            (back1, unsafe { load256(&head, 0) })
        } else {
            // SAFETY: `i >= 32`, so the 32 bytes from `i - 1` are in `src`.
            let back1 = unsafe { load256(src, i - 1) };
            // SAFETY: and those from `i - 2`.
            (back1, unsafe { load256(src, i - 2) })
        };
        // Bit k: the check of byte `i + k + 1` against the three before.
        // SAFETY: AVX2 is enabled.
        let errors = !lanes(_mm256_cmpeq_epi8(
            unsafe { utf8_errors(kl, next, v, back1, back2) },
            zero,
        ));
        // Lanes whose next byte is no continuation (0x80..=0xBF, below
        // -64 as signed bytes) end a character.
        let last = lanes(_mm256_cmpgt_epi8(next, splat(0xBF)));
        // With an error at bit e, the characters that end before lane e
        // passed every check.
        let last = if errors == 0 {
            last
        } else {
            last & errors.wrapping_sub(1) & !errors
        };
        // The second bytes of C2 xx and C3 xx, which keep their code point.
        let fits_v = _mm256_cmpeq_epi8(_mm256_and_si256(back1, splat(0xFE)), splat(0xC2));
        let fits = if latin1 { lanes(fits_v) } else { 0 };
        if last & (!high | fits) == 0 {
            // SAFETY: `o <= i` and `dst.len() >= src.len() >= i + 32`.
            unsafe { store256(dst, o, question) };
        } else {
            let value = if fits == 0 {
                question
            } else {
                // The lead's low two bits (10 or 11) at the top, then
                // the second byte's low six.
                let code = _mm256_or_si256(
                    _mm256_and_si256(_mm256_slli_epi16(back1, 6), top_two),
                    _mm256_and_si256(v, low6),
                );
                _mm256_blendv_epi8(question, code, fits_v)
            };
            let value = _mm256_blendv_epi8(v, value, v);
            let drop = !last;
            let mut at = o;
            for (half, drop) in [
                (_mm256_castsi256_si128(value), drop & 0xFFFF),
                (_mm256_extracti128_si256::<1>(value), drop >> 16),
            ] {
                for (eight, drop) in [(half, drop & 0xFF), (_mm_srli_si128::<8>(half), drop >> 8)] {
                    let drop = drop as usize;
                    let packed = _mm_shuffle_epi8(eight, load64(&COMPRESS[drop]));
                    // SAFETY: `at` is `o` plus the lanes kept before
                    // these eight, so `at + 8 <= i + 32 <= dst.len()`.
                    unsafe { store64(dst, at, packed) };
                    at += usize::from(KEPT[drop]);
                }
            }
        }
        o += last.count_ones() as usize;
        if errors != 0 {
            if last != 0 {
                written = Written::at(i, last.into());
            }
            return (written.read(), o);
        }
        written = Written::at(i, last.into());
        i += W;
    }
    (written.read(), o)
}

/// The SSSE3 kernel of [`super::latin1_run`]: 16 bytes a step, each half
/// widened to 16-bit words that hold a byte's UTF-8 form (one byte, or the
/// lead in the low half and the continuation in the high one), packed with
/// a shuffle chosen by the half's non-ASCII mask.
///
/// # Safety
///
/// The CPU must support SSSE3 and POPCNT.
#[target_feature(enable = "ssse3,popcnt")]
pub(super) unsafe fn latin1_run_ssse3(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let (mut i, mut o) = (0usize, 0usize);
    let (lead_bits, low6, cont_bits) = (
        _mm_set1_epi16(0xC0),
        _mm_set1_epi16(0x3F),
        _mm_set1_epi16(0x80),
    );
    let zero = _mm_setzero_si128();
    // A step writes at most 32 bytes.
    while src.len() - i >= 16 && dst.len() - o >= 32 {
        // SAFETY: `i + 16 <= src.len()`.
        let v = unsafe { load128(src, i) };
        let mask = mask_of(v);
        if mask == 0 {
            // SAFETY: `o + 32 <= dst.len()`.
            unsafe { store128(dst, o, v) };
            i += 16;
            o += 16;
            continue;
        }
        for (words, lanes) in [
            (_mm_unpacklo_epi8(v, zero), mask & 0xFF),
            (_mm_unpackhi_epi8(v, zero), mask >> 8),
        ] {
            let lead = _mm_or_si128(_mm_srli_epi16(words, 6), lead_bits);
            let cont = _mm_slli_epi16(_mm_or_si128(_mm_and_si128(words, low6), cont_bits), 8);
            // 0xFFFF in the words of a non-ASCII byte.
            let high = _mm_srai_epi16(_mm_slli_epi16(words, 8), 15);
            let utf8 = _mm_or_si128(
                _mm_and_si128(high, _mm_or_si128(lead, cont)),
                _mm_andnot_si128(high, words),
            );
            // SAFETY: the table's rows are 16 bytes long.
            let shuffle = unsafe { load128(&EXPAND[lanes as usize], 0) };
            let packed = _mm_shuffle_epi8(utf8, shuffle);
            // SAFETY: the first half writes at `o`, the second at most 16
            // bytes further, and `o + 32 <= dst.len()`.
            unsafe { store128(dst, o, packed) };
            o += 8 + lanes.count_ones() as usize;
        }
        i += 16;
    }
    (i, o)
}

/// The AVX-512 kernel of [`super::latin1_run`]: 32 bytes a step, widened
/// to 16-bit words as in the SSSE3 kernel, packed with `vpcompressb`.
///
/// # Safety
///
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F, BW and VBMI2
/// (see [`crate::simd::avx512_available`]).
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(super) unsafe fn latin1_run_avx512(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    let (mut i, mut o) = (0usize, 0usize);
    let (lead_bits, low6, cont_bits) = (
        _mm512_set1_epi16(0xC0),
        _mm512_set1_epi16(0x3F),
        _mm512_set1_epi16(0x80),
    );
    // A step writes 64 bytes (of which at most 64 are kept).
    while src.len() - i >= 32 && dst.len() - o >= 64 {
        // SAFETY: `i + 32 <= src.len()`; AVX is enabled.
        let v = unsafe { load256(src, i) };
        // The mask has 32 significant bits: the cast only drops sign.
        #[allow(clippy::cast_sign_loss)]
        let mask = _mm256_movemask_epi8(v) as u32;
        if mask == 0 {
            // SAFETY: `o + 64 <= dst.len()`; AVX is enabled.
            unsafe { store256(dst, o, v) };
            i += 32;
            o += 32;
            continue;
        }
        let words = _mm512_cvtepu8_epi16(v);
        let lead = _mm512_or_si512(_mm512_srli_epi16(words, 6), lead_bits);
        let cont = _mm512_slli_epi16(_mm512_or_si512(_mm512_and_si512(words, low6), cont_bits), 8);
        let utf8 = _mm512_mask_mov_epi16(words, mask, _mm512_or_si512(lead, cont));
        // Every word's low byte, and the high byte of the non-ASCII ones.
        let keep = 0x5555_5555_5555_5555 | _pdep_u64(u64::from(mask), 0xAAAA_AAAA_AAAA_AAAA);
        let packed = _mm512_maskz_compress_epi8(keep, utf8);
        // SAFETY: `o + 64 <= dst.len()`; AVX-512 F is enabled.
        unsafe { store512(dst, o, packed) };
        i += 32;
        o += 32 + mask.count_ones() as usize;
    }
    (i, o)
}

/// The `vpermt2b` indexes that interleave the first 32 lanes (and then the
/// last 32) of two vectors: lane `2k` from the first, `2k + 1` from the
/// second.
static INTERLEAVE: [[u8; 64]; 2] = interleave_table();

const fn interleave_table() -> [[u8; 64]; 2] {
    let mut table = [[0u8; 64]; 2];
    let mut k = 0;
    while k < 64 {
        let from = (k / 2) as u8 + if k % 2 == 1 { 64 } else { 0 };
        table[0][k] = from;
        table[1][k] = from + 32;
        k += 1;
    }
    table
}

/// The AVX-512 kernel of [`super::single_byte_run`]: 64 bytes a step,
/// each high byte's lead and trail looked up with `vpermi2b` (128
/// entries), interleaved after the bytes (a high byte's lead in its place)
/// and packed with `vpcompressb`, as [`latin1_run_avx512`] packs. At a
/// byte without a two-byte character it converts the bytes before it and
/// stops. Returns the bytes read and the bytes written after `out`'s
/// length (its length is left to the caller).
///
/// # Safety
///
/// The CPU must support AVX2, BMI2, POPCNT and AVX-512 F, BW, VBMI and
/// VBMI2 (see [`crate::simd::avx512_available`]).
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2")]
pub(super) unsafe fn single_byte_run_avx512(
    src: &[u8],
    out: &mut Vec<u8>,
    table: &TwoByteTable,
) -> (usize, usize) {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    const ODD: u64 = 0xAAAA_AAAA_AAAA_AAAA;
    let start = out.len();
    let (mut i, mut o) = (0usize, start);
    // Each table is 128 bytes long, each interleaving row 64.
    let whole = |t: &[u8], at: usize| {
        // SAFETY: the 64 bytes are in `t` (each call below); AVX-512 F is
        // enabled.
        unsafe { load512(t, at) }
    };
    let (lead_lo, lead_hi) = (whole(&table.lead, 0), whole(&table.lead, 64));
    let (trail_lo, trail_hi) = (whole(&table.trail, 0), whole(&table.trail, 64));
    let (first_half, second_half) = (whole(&INTERLEAVE[0], 0), whole(&INTERLEAVE[1], 0));
    // A step writes two 64-byte stores, the second at most 64 bytes on.
    while src.len() - i >= 64 && out.capacity() - o >= 128 {
        // SAFETY: `i + 64 <= src.len()`.
        let v = unsafe { load512(src, i) };
        let high = _mm512_movepi8_mask(v);
        if high == 0 {
            // SAFETY: `o + 128 <= out.capacity()`.
            unsafe { store512_spare(out, o, v) };
            i += 64;
            o += 64;
            continue;
        }
        // `vpermi2b` reads the low seven bits of each byte.
        let lead = _mm512_permutex2var_epi8(lead_lo, v, lead_hi);
        let trail = _mm512_permutex2var_epi8(trail_lo, v, trail_hi);
        // High bytes without a two-byte character: the lanes from the
        // first of them on are left.
        let bad = _mm512_mask_testn_epi8_mask(high, lead, lead);
        let taken = if bad == 0 {
            u64::MAX
        } else {
            (bad & bad.wrapping_neg()) - 1
        };
        let high = high & taken;
        let firsts = _mm512_mask_blend_epi8(high, v, lead);
        // Every taken lane's first byte, and the trail of its high ones.
        let keep = |lanes: u64, high: u64| _pdep_u64(lanes, EVEN) | _pdep_u64(high, ODD);
        let keep_lo = keep(taken & 0xFFFF_FFFF, high & 0xFFFF_FFFF);
        let keep_hi = keep(taken >> 32, high >> 32);
        let lo = _mm512_permutex2var_epi8(firsts, first_half, trail);
        let hi = _mm512_permutex2var_epi8(firsts, second_half, trail);
        let (lo, hi) = (
            _mm512_maskz_compress_epi8(keep_lo, lo),
            _mm512_maskz_compress_epi8(keep_hi, hi),
        );
        // SAFETY: `o + 128 <= out.capacity()`, and the first store keeps
        // at most 64 bytes.
        unsafe { store512_spare(out, o, lo) };
        o += keep_lo.count_ones() as usize;
        // SAFETY: as above.
        unsafe { store512_spare(out, o, hi) };
        o += keep_hi.count_ones() as usize;
        if bad != 0 {
            i += taken.count_ones() as usize;
            break;
        }
        i += 64;
    }
    (i, o - start)
}

/// The AVX2 kernel of [`super::single_byte_run`]: 32 bytes a step, each
/// high byte's lead and trail looked up sixteen entries at a time with
/// `vpshufb` (the XOR of the rows' deltas: row `k` reaches the bytes
/// whose row is `k` or more), interleaved after the bytes and packed
/// eight 16-bit words at a time with the shuffles of
/// [`latin1_run_ssse3`]. A block holding a byte without a two-byte
/// character is left whole. Returns the bytes read and the bytes written
/// after `out`'s length.
///
/// # Safety
///
/// The CPU must support AVX2 and POPCNT.
#[target_feature(enable = "avx2,popcnt")]
#[allow(clippy::cast_possible_wrap)] // row offsets as `i8` lanes
pub(super) unsafe fn single_byte_run_avx2(
    src: &[u8],
    out: &mut Vec<u8>,
    table: &TwoByteTable,
) -> (usize, usize) {
    let start = out.len();
    let (mut i, mut o) = (0usize, start);
    let row = |t: &[u8; 128], k: usize| {
        // SAFETY: `k < 8`: the 16 bytes are in the table.
        _mm256_broadcastsi128_si256(unsafe { load128(t, 16 * k) })
    };
    let lead_rows: [__m256i; 8] = std::array::from_fn(|k| row(&table.lead_delta, k));
    let trail_rows: [__m256i; 8] = std::array::from_fn(|k| row(&table.trail_delta, k));
    let low7 = _mm256_set1_epi8(0x7F);
    let zero = _mm256_setzero_si256();
    // A step writes four 16-byte stores, each at most 16 bytes on.
    while src.len() - i >= 32 && out.capacity() - o >= 64 {
        // SAFETY: `i + 32 <= src.len()`.
        let v = unsafe { load256(src, i) };
        // The mask has 32 significant bits: the cast only drops sign.
        let high = _mm256_movemask_epi8(v) as u32;
        if high == 0 {
            let (first, second) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            // SAFETY: `o + 64 <= out.capacity()`.
            unsafe { store128_spare(out, o, first) };
            // SAFETY: as above.
            unsafe { store128_spare(out, o + 16, second) };
            i += 32;
            o += 32;
            continue;
        }
        // Row `k` minus 16k: 0..=15 for the bytes of row `k`, above for
        // later rows (whose deltas cancel it), negative (`vpshufb` gives
        // 0) for earlier ones.
        let index = _mm256_and_si256(v, low7);
        let (mut lead, mut trail) = (zero, zero);
        for k in 0..8 {
            let at = _mm256_sub_epi8(index, _mm256_set1_epi8((16 * k) as i8));
            lead = _mm256_xor_si256(lead, _mm256_shuffle_epi8(lead_rows[k], at));
            trail = _mm256_xor_si256(trail, _mm256_shuffle_epi8(trail_rows[k], at));
        }
        let bad = _mm256_movemask_epi8(_mm256_cmpeq_epi8(lead, zero)) as u32 & high;
        if bad != 0 {
            break;
        }
        let firsts = _mm256_blendv_epi8(v, lead, v);
        // Bytes 0..8 and 16..24, then 8..16 and 24..32, as 16-bit words.
        let lo = _mm256_unpacklo_epi8(firsts, trail);
        let hi = _mm256_unpackhi_epi8(firsts, trail);
        for (words, lanes) in [
            (_mm256_castsi256_si128(lo), high & 0xFF),
            (_mm256_castsi256_si128(hi), (high >> 8) & 0xFF),
            (_mm256_extracti128_si256::<1>(lo), (high >> 16) & 0xFF),
            (_mm256_extracti128_si256::<1>(hi), high >> 24),
        ] {
            // SAFETY: the table's rows are 16 bytes long.
            let shuffle = unsafe { load128(&EXPAND[lanes as usize], 0) };
            let packed = _mm_shuffle_epi8(words, shuffle);
            // SAFETY: each store is at most 48 bytes after the step's
            // first, and `o + 64 <= out.capacity()` there.
            unsafe { store128_spare(out, o, packed) };
            o += 8 + lanes.count_ones() as usize;
        }
        i += 32;
    }
    (i, o - start)
}
