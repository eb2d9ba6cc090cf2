//! Fast kernels: the crate's only `unsafe` code, each kernel tested against
//! a scalar reference.
//!
//! * [`copy_ascii_run`]: ASCII runs copied sixteen bytes at a time, in safe
//!   word-at-a-time code (a high-bit test on a little-endian `u128`).
//! * [`utf8_run`]: well-formed UTF-8 converted to ISO-8859-1 or US-ASCII
//!   64 input bytes at a time with AVX-512 (validated with Keiser and
//!   Lemire's lookups, one output byte per character compressed with
//!   `vpcompressb`), then sixteen at a time with SSSE3, each detected at
//!   run time; elsewhere it falls back to [`copy_ascii_run`].
//!   `PHPXML_NO_AVX512` keeps it to SSSE3.
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
//!   once) keeps it to AVX2, for testing that path.
//! * [`text_run`] and [`plain_text_windows`]: the parser's scans over
//!   character data, 32 bytes at a time with AVX2, detected at run time:
//!   stop bytes found with a nibble lookup, UTF-8 checked with Keiser and
//!   Lemire's lookups three bytes ahead, newlines and continuation bytes
//!   (columns) counted on the windows' masks. The window with something
//!   else in it hands over to the scalar code at the start of that
//!   character.

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU8, Ordering};

/// Bytes handled per step.
pub(super) const STEP: usize = 16;

const HIGH_BITS: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;

/// Copies the run of ASCII bytes at the start of `src` into `dst`, sixteen
/// bytes per step, and returns its length.
///
/// The copy is done a whole step at a time, so up to fifteen bytes after the
/// run are written to `dst` as well; callers overwrite them. The scan stops
/// at the first non-ASCII byte or when fewer than [`STEP`] bytes remain, so
/// the returned length may fall short of the run by less than a step.
///
/// # Panics
///
/// If `dst` is shorter than `src`.
#[inline(always)]
pub(super) fn copy_ascii_run(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(dst.len() >= src.len());
    let mut n = 0;
    while let (Some(chunk), Some(out)) = (src.get(n..n + STEP), dst.get_mut(n..n + STEP)) {
        let chunk: &[u8; STEP] = chunk.try_into().expect("a step is 16 bytes");
        out.copy_from_slice(chunk);
        let high = u128::from_le_bytes(*chunk) & HIGH_BITS;
        if high != 0 {
            // Little-endian: the lowest set bit belongs to the first
            // non-ASCII byte.
            return n + high.trailing_zeros() as usize / 8;
        }
        n += STEP;
    }
    n
}

/// Converts the well-formed UTF-8 at the start of `src` to bytes of a
/// target that holds `0..=MAX` (`0xFF` or `0x7F`): the code point where the
/// target holds it, `?` otherwise. Returns the bytes read and the bytes
/// written.
///
/// `src` must start at a character boundary. Up to 64 bytes past the
/// written ones may be overwritten in `dst`; callers overwrite them. The
/// prefix may stop short of where the scalar decoder would have to take
/// over, by less than a step.
///
/// # Panics
///
/// If `dst` is shorter than `src`.
#[inline(always)]
pub(super) fn utf8_run<const MAX: u32>(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    assert!(dst.len() >= src.len());
    #[cfg(target_arch = "x86_64")]
    {
        if dense_available() {
            // SAFETY: `dense_available` checked every feature the kernel
            // needs, and `dst.len() >= src.len()` (asserted above).
            let (read, written) = unsafe { x86::utf8_run_avx512(src, dst, MAX == 0xFF) };
            // The SSSE3 kernel takes the last 16 to 63 bytes (and stops at
            // once where the AVX-512 one stopped at malformed input).
            // SAFETY: AVX-512 implies SSSE3; `written <= read`, so the
            // rest of `dst` is at least as long as the rest of `src`.
            let (more_read, more_written) =
                unsafe { x86::utf8_run_ssse3(&src[read..], &mut dst[written..], MAX == 0xFF) };
            return (read + more_read, written + more_written);
        }
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: SSSE3 is available (checked just above), and
            // `dst.len() >= src.len()` (asserted above) is the only other
            // precondition of the kernel.
            return unsafe { x86::utf8_run_ssse3(src, dst, MAX == 0xFF) };
        }
    }
    let n = copy_ascii_run(src, dst);
    (n, n)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    #[allow(clippy::wildcard_imports)]
    use std::arch::x86_64::*;

    use super::{JSON_WINDOW, JsonKernel, STEP};

    /// For every 8-bit mask of bytes to drop, the shuffle that gathers the
    /// kept bytes of an 8-byte lane to its front (0x80 fills the rest with
    /// zeros).
    static COMPRESS: [[u8; 8]; 256] = compress_table();

    const fn compress_table() -> [[u8; 8]; 256] {
        let mut table = [[0x80u8; 8]; 256];
        let mut mask = 0;
        while mask < 256 {
            let mut kept = 0;
            let mut j = 0;
            while j < 8 {
                if mask & (1 << j) == 0 {
                    table[mask][kept] = j as u8;
                    kept += 1;
                }
                j += 1;
            }
            mask += 1;
        }
        table
    }

    /// Bit `j` set for each byte `j` of `v` whose high bit is set.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn mask_of(v: __m128i) -> u32 {
        // The mask has 16 significant bits: the cast only drops sign.
        #[allow(clippy::cast_sign_loss)]
        let m = _mm_movemask_epi8(v) as u32;
        m
    }

    /// The SSSE3 kernel of [`super::utf8_run`]; `latin1` selects the
    /// ISO-8859-1 target (C2/C3 pairs keep their code point), otherwise
    /// every multi-byte character becomes `?`.
    ///
    /// # Safety
    ///
    /// The CPU must support SSSE3, and `dst.len() >= src.len()`.
    #[target_feature(enable = "ssse3")]
    #[allow(clippy::cast_possible_wrap)] // byte constants as `i8` lanes
    pub(super) unsafe fn utf8_run_ssse3(
        src: &[u8],
        dst: &mut [u8],
        latin1: bool,
    ) -> (usize, usize) {
        let (mut i, mut o) = (0usize, 0usize);
        let splat = |byte: u8| _mm_set1_epi8(byte as i8);
        // Byte classes by signed comparison: as `i8`, 0x80..=0xBF are
        // -128..=-65, 0xC2..=0xDF are -62..=-33, 0xE0..=0xEF are -32..=-17
        // and 0xF0..=0xF4 are -16..=-12.
        let (below_c0, above_c1, below_e0) = (splat(0xC0), splat(0xC1), splat(0xE0));
        let (above_df, below_f0, above_ef, below_f5) =
            (splat(0xDF), splat(0xF0), splat(0xEF), splat(0xF5));
        let (c2, c3, e0, ed, f0, f4) = (
            splat(0xC2),
            splat(0xC3),
            splat(0xE0),
            splat(0xED),
            splat(0xF0),
            splat(0xF4),
        );
        let (a0, above_9f, ninety, above_8f) = (splat(0xA0), splat(0x9F), splat(0x90), splat(0x8F));
        let (low2, low6, question) = (splat(0x03), splat(0x3F), splat(b'?'));
        // Writes the block up to lane `$take`: ASCII lanes as they are,
        // each lead lane as one byte, continuation lanes dropped.
        macro_rules! emit {
            ($v:expr, $next:expr, $lead:expr, $cont:expr, $take:expr) => {{
                let (v, next, lead, cont, take) = ($v, $next, $lead, $cont, $take);
                // Each lead lane becomes one byte: for C2/C3 on ISO-8859-1 its
                // code point, from the lead's low two bits and the next byte's
                // low six; `?` for every other character.
                let value = if latin1 {
                    let top = _mm_slli_epi16(_mm_and_si128(v, low2), 6);
                    let code = _mm_or_si128(top, _mm_and_si128(next, low6));
                    let fits = _mm_or_si128(_mm_cmpeq_epi8(v, c2), _mm_cmpeq_epi8(v, c3));
                    _mm_or_si128(_mm_and_si128(fits, code), _mm_andnot_si128(fits, question))
                } else {
                    question
                };
                let out = _mm_or_si128(_mm_and_si128(lead, value), _mm_andnot_si128(lead, v));
                // Drop continuation lanes and lanes from `take` on.
                let drop = (cont | (0xFFFF_u32 << take)) & 0xFFFF;
                let (drop_lo, drop_hi) = ((drop & 0xFF) as usize, (drop >> 8) as usize);
                let kept_lo = 8 - drop_lo.count_ones() as usize;
                let kept_hi = 8 - drop_hi.count_ones() as usize;
                // SAFETY: the shuffle rows are 8 bytes long. The two 8-byte
                // stores end at most at `o + 16 <= i + 16 <= dst.len()`.
                unsafe {
                    let shuffle_lo = _mm_loadl_epi64(COMPRESS[drop_lo].as_ptr().cast::<__m128i>());
                    let shuffle_hi = _mm_loadl_epi64(COMPRESS[drop_hi].as_ptr().cast::<__m128i>());
                    let lo = _mm_shuffle_epi8(out, shuffle_lo);
                    let hi = _mm_shuffle_epi8(_mm_srli_si128(out, 8), shuffle_hi);
                    _mm_storel_epi64(dst.as_mut_ptr().add(o).cast::<__m128i>(), lo);
                    _mm_storel_epi64(dst.as_mut_ptr().add(o + kept_lo).cast::<__m128i>(), hi);
                }
                i += take;
                o += kept_lo + kept_hi;
            }};
        }
        while src.len() - i >= STEP {
            // SAFETY: `i + 16 <= src.len()`, so the 16 bytes read are in
            // `src`; unaligned loads are allowed.
            let v = unsafe { _mm_loadu_si128(src.as_ptr().add(i).cast::<__m128i>()) };
            let high = mask_of(v);
            if high == 0 {
                // SAFETY: `o <= i` and `dst.len() >= src.len() >= i + 16`,
                // so the 16 bytes written are in `dst`.
                unsafe { _mm_storeu_si128(dst.as_mut_ptr().add(o).cast::<__m128i>(), v) };
                i += STEP;
                o += STEP;
                continue;
            }
            let next = _mm_srli_si128(v, 1);
            let cont = mask_of(_mm_cmplt_epi8(v, below_c0));
            let lead2 = _mm_and_si128(_mm_cmpgt_epi8(v, above_c1), _mm_cmplt_epi8(v, below_e0));
            let lead2_m = mask_of(lead2);
            let ok2 = lead2_m & (cont >> 1);
            // A character is its lead plus all its continuation bytes. One
            // whose lead is too near the block's end to hold them is cut:
            // it is left for the next block. Every other non-ASCII lane
            // that is not part of a character is bad: the scalar decoder
            // takes over there. Blocks of ASCII and two-byte characters
            // (Latin, Greek, Cyrillic...) need no more than the first test.
            let cut2 = lead2_m & (1 << (STEP - 1));
            let bad2 = high & !(ok2 | (cont & (ok2 << 1)) | cut2);
            // Separate branches rather than a computed width: the next
            // load then waits on a prediction, not on this block's masks.
            if bad2 == 0 {
                if cut2 == 0 {
                    emit!(v, next, lead2, cont, STEP);
                } else {
                    emit!(v, next, lead2, cont, STEP - 1);
                }
                continue;
            }
            let (lead, bad, cut) = {
                let lead3 = _mm_and_si128(_mm_cmpgt_epi8(v, above_df), _mm_cmplt_epi8(v, below_f0));
                let lead4 = _mm_and_si128(_mm_cmpgt_epi8(v, above_ef), _mm_cmplt_epi8(v, below_f5));
                let (lead3_m, lead4_m) = (mask_of(lead3), mask_of(lead4));
                // Leads whose second byte is out of range: overlong (E0
                // 80..9F, F0 80..8F), surrogate (ED A0..BF), above U+10FFFF
                // (F4 90..BF). Only continuation second bytes matter: the
                // others fail anyway.
                let out_of_range = mask_of(_mm_or_si128(
                    _mm_or_si128(
                        _mm_and_si128(_mm_cmpeq_epi8(v, e0), _mm_cmplt_epi8(next, a0)),
                        _mm_and_si128(_mm_cmpeq_epi8(v, ed), _mm_cmpgt_epi8(next, above_9f)),
                    ),
                    _mm_or_si128(
                        _mm_and_si128(_mm_cmpeq_epi8(v, f0), _mm_cmplt_epi8(next, ninety)),
                        _mm_and_si128(_mm_cmpeq_epi8(v, f4), _mm_cmpgt_epi8(next, above_8f)),
                    ),
                ));
                let ok3 = lead3_m & (cont >> 1) & (cont >> 2) & !out_of_range;
                let ok4 = lead4_m & (cont >> 1) & (cont >> 2) & (cont >> 3) & !out_of_range;
                let near_end = (lead2_m & 0x8000) | (lead3_m & 0xC000) | (lead4_m & 0xE000);
                let cut = if near_end == 0 {
                    STEP
                } else {
                    near_end.trailing_zeros() as usize
                };
                let claimed =
                    (ok2 << 1) | (ok3 << 1) | (ok3 << 2) | (ok4 << 1) | (ok4 << 2) | (ok4 << 3);
                let before_cut = (1u32 << cut) - 1;
                let bad = high & !(ok2 | ok3 | ok4 | (cont & claimed)) & before_cut;
                (_mm_or_si128(lead2, _mm_or_si128(lead3, lead4)), bad, cut)
            };
            let take = if bad == 0 {
                cut
            } else {
                bad.trailing_zeros() as usize
            };
            if take == 0 {
                break;
            }
            emit!(v, next, lead, cont, take);
            // Stop at a bad lane; a cut character just starts the next block.
            // (Here the width is computed, not branched on: in text of
            // three- and four-byte characters it is too irregular to
            // predict.)
            if bad != 0 {
                break;
            }
        }
        (i, o)
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

    static UTF8_BYTE_1_HIGH_64: [u8; 64] = spread(&super::UTF8_BYTE_1_HIGH, true);
    static UTF8_BYTE_1_LOW_64: [u8; 64] = spread(&super::UTF8_BYTE_1_LOW, false);
    static UTF8_BYTE_2_HIGH_64: [u8; 64] = spread(&super::UTF8_BYTE_2_HIGH, true);

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
    /// VBMI and VBMI2 (see [`super::dense_available`]), and
    /// `dst.len() >= src.len()`.
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
    )]
    #[allow(clippy::cast_possible_wrap)] // byte constants as `i8` lanes
    pub(super) unsafe fn utf8_run_avx512(
        src: &[u8],
        dst: &mut [u8],
        latin1: bool,
    ) -> (usize, usize) {
        const W: usize = 64;
        // The first byte is checked here: after the start only a
        // continuation byte is an error.
        if src.first().is_none_or(|&b| b & 0xC0 == 0x80) {
            return (0, 0);
        }
        // `i`: the window; `o`: the bytes written. The characters written
        // so far end at the last bit of `ends` (a window's lanes) in the
        // window at `base`, or at the start while `ends` is 0.
        let (mut i, mut o) = (0usize, 0usize);
        let (mut base, mut ends) = (0usize, 0u64);
        let done = |base: usize, ends: u64| {
            if ends == 0 {
                0
            } else {
                base + W - ends.leading_zeros() as usize
            }
        };
        let splat = |byte: u8| _mm512_set1_epi8(byte as i8);
        // SAFETY: the tables are 64 bytes long.
        let (k1_hi, k1_lo, k2_hi) = unsafe {
            (
                _mm512_loadu_si512(UTF8_BYTE_1_HIGH_64.as_ptr().cast()),
                _mm512_loadu_si512(UTF8_BYTE_1_LOW_64.as_ptr().cast()),
                _mm512_loadu_si512(UTF8_BYTE_2_HIGH_64.as_ptr().cast()),
            )
        };
        let (question, top, top_two) = (splat(b'?'), splat(0x80), splat(0xC0));
        // Each byte's top six bits in its low six (`vpermb` ignores the
        // two bits the 16-bit shift brings in from the neighbour).
        let top6 = |x: __m512i| _mm512_srli_epi16(x, 2);
        // The loads at `i + 1` read one byte past the window.
        while src.len() - i > W {
            let at = src.as_ptr().wrapping_add(i);
            // SAFETY: `i + 65 <= src.len()`: the 64 bytes at `i` and at
            // `i + 1` are in `src`.
            let (v, next) = unsafe {
                (
                    _mm512_loadu_si512(at.cast()),
                    _mm512_loadu_si512(at.add(1).cast()),
                )
            };
            let high = _mm512_movepi8_mask(v);
            if high == 0 && src[i + W] < 0x80 {
                // ASCII up to and with the byte after the window. (No
                // character is cut before it: the window before checked
                // that byte `i` is not ASCII then.)
                // SAFETY: `o <= i` and `dst.len() >= src.len() >= i + 64`.
                unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(o).cast(), v) };
                (base, ends) = (i, 1 << 63);
                i += W;
                o += W;
                continue;
            }
            // The bytes one and two before each lane.
            let (back1, back2) = if i == 0 {
                // Lane k of `permute(lanes - n, v)` is lane k - n of `v`;
                // the first n lanes, from before `src`, are zeroed.
                // SAFETY: `LANES` is 64 bytes long.
                let lanes = unsafe { _mm512_loadu_si512(LANES.as_ptr().cast()) };
                let back = |n: u8, keep: u64| {
                    _mm512_maskz_permutexvar_epi8(keep, _mm512_sub_epi8(lanes, splat(n)), v)
                };
                (back(1, !1), back(2, !3))
            } else {
                // (Loads are cheaper here than permutes of the window before.)
                // SAFETY: `i >= 64`, so the bytes from `i - 2` are in `src`.
                unsafe {
                    (
                        _mm512_loadu_si512(at.sub(1).cast()),
                        _mm512_loadu_si512(at.sub(2).cast()),
                    )
                }
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
                let code =
                    _mm512_ternarylogic_epi32::<0xCA>(top_two, _mm512_slli_epi16(back1, 6), v);
                let fits = _mm512_cmplt_epu8_mask(_mm512_sub_epi8(back1, splat(0xC2)), splat(2));
                _mm512_mask_blend_epi8(fits, question, code)
            } else {
                question
            };
            let value = _mm512_mask_blend_epi8(high, v, value);
            let packed = _mm512_maskz_compress_epi8(last, value);
            // SAFETY: `o <= i` and `dst.len() >= src.len() >= i + 64`.
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr().add(o).cast(), packed) };
            o += last.count_ones() as usize;
            if errors != 0 {
                if last != 0 {
                    (base, ends) = (i, last);
                }
                return (done(base, ends), o);
            }
            (base, ends) = (i, last);
            i += W;
        }
        (done(base, ends), o)
    }

    /// The AVX2 kernel of [`super::json_escape_run`].
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn json_escape_avx2(
        src: &[u8],
        i: usize,
        out: &mut Vec<u8>,
        kernel: &JsonKernel,
    ) -> usize {
        // SAFETY: AVX2 is enabled here, which is all the body needs
        // without the dense path.
        unsafe {
            if kernel.raw_unicode {
                json_escape_body::<false, true>(src, i, out, kernel)
            } else {
                json_escape_body::<false, false>(src, i, out, kernel)
            }
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
    /// VBMI2 (see [`super::dense_available`]).
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
    )]
    pub(super) unsafe fn json_escape_avx512(
        src: &[u8],
        i: usize,
        out: &mut Vec<u8>,
        kernel: &JsonKernel,
    ) -> usize {
        // SAFETY: every feature the body uses with `DENSE` is enabled here.
        unsafe { json_escape_body::<true, false>(src, i, out, kernel) }
    }

    /// [`json_escape_avx512`] with `JSON_UNESCAPED_UNICODE`: a function of
    /// its own, so that its loop is laid out and its registers allocated
    /// apart (the two loops in one function made this one 20% slower).
    ///
    /// # Safety
    ///
    /// As [`json_escape_avx512`].
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
    )]
    pub(super) unsafe fn json_escape_avx512_raw(
        src: &[u8],
        i: usize,
        out: &mut Vec<u8>,
        kernel: &JsonKernel,
    ) -> usize {
        // SAFETY: every feature the body uses with `DENSE` is enabled here.
        unsafe { json_escape_body::<true, true>(src, i, out, kernel) }
    }

    /// The loop of both kernels, inlined into each so that it is compiled
    /// with its features, and once per way of writing non-ASCII text
    /// (`RAW`: `kernel.raw_unicode`) so that neither loop carries the
    /// other's code.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2, and with `DENSE` what
    /// [`json_escape_avx512`] needs; the caller must enable them.
    #[inline(always)]
    #[allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)] // byte lanes, masks
    #[allow(clippy::too_many_lines)]
    unsafe fn json_escape_body<const DENSE: bool, const RAW: bool>(
        src: &[u8],
        mut i: usize,
        out: &mut Vec<u8>,
        kernel: &JsonKernel,
    ) -> usize {
        const W: usize = JSON_WINDOW;
        // Room asked for before each window: a window writes at most six
        // bytes per byte of its own and of a character crossing its end
        // (35 bytes), and stores run up to 64 bytes past what it writes.
        const ROOM: usize = 6 * (W + 3) + 2 * W + 16;
        // SAFETY (whole body): the caller enables AVX2 (and with `DENSE`
        // the AVX-512 features), so the intrinsics may run; memory accesses
        // are justified one by one below.
        unsafe {
            let n = src.len();
            let sp = src.as_ptr();
            let splat = |b: u8| _mm256_set1_epi8(b as i8);
            let nibble = splat(0x0F);
            let zero = _mm256_setzero_si256();
            // Keiser and Lemire's UTF-8 check (as in simdjson): three nibble
            // lookups per byte pair, and the third and fourth bytes of
            // three- and four-byte characters checked to be continuations.
            let table = |t: &[u8; 16]| {
                // SAFETY: the table is 16 bytes long.
                _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()))
            };
            let (lo_t, hi_t) = (table(&kernel.lo), table(&kernel.hi));
            let (k1_hi, k1_lo, k2_hi) = (
                table(&super::UTF8_BYTE_1_HIGH),
                table(&super::UTF8_BYTE_1_LOW),
                table(&super::UTF8_BYTE_2_HIGH),
            );
            let escapes = &super::JSON_ESCAPES;
            let quot = if kernel.hex_quot {
                super::JSON_QUOT_HEX
            } else {
                escapes[usize::from(b'"')]
            };
            let mut len = out.len();
            // `out`'s buffer and capacity, taken again after each change.
            let (mut dst, mut capacity) = (out.as_mut_ptr(), out.capacity());
            // Each window: `src[i..i + 64]` is in bounds, so are all loads
            // below (at most `i + 35 + 32`... see each).
            while n - i >= 2 * W {
                if !DENSE {
                    // (Read again in each window: the AVX2 kernel was
                    // faster so.)
                    (dst, capacity) = (out.as_mut_ptr(), out.capacity());
                }
                if capacity - len < ROOM {
                    // SAFETY: the bytes up to `len` have been written.
                    out.set_len(len);
                    out.reserve(ROOM);
                    (dst, capacity) = (out.as_mut_ptr(), out.capacity());
                }
                // SAFETY: `i + 32 <= n`.
                let v = _mm256_loadu_si256(sp.add(i).cast());
                let class = _mm256_and_si256(
                    _mm256_shuffle_epi8(lo_t, _mm256_and_si256(v, nibble)),
                    _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)),
                );
                let special = !(_mm256_movemask_epi8(_mm256_cmpeq_epi8(class, zero)) as u32);
                let high = _mm256_movemask_epi8(v) as u32;
                if special | high == 0 {
                    // SAFETY: `len + 32 <= capacity` (ROOM).
                    _mm256_storeu_si256(dst.add(len).cast(), v);
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
                    let letters = if kernel.hex_quot {
                        &super::JSON_LETTERS_HEX_QUOT
                    } else {
                        &super::JSON_LETTERS
                    };
                    let long = _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-33)))
                        as u32
                        & high;
                    let (next, written) = if long == 0 {
                        let (next, written) = super::x86_wide::planes_two_wide(
                            src, i, out, len, &kernel.lo, &kernel.hi, letters,
                        );
                        if next != i {
                            (next, written)
                        } else {
                            planes_two(src, i, out, len, lo_t, hi_t, letters)
                        }
                    } else if high.count_ones() >= PLANES_MIN_LONG {
                        let four = _mm256_movemask_epi8(_mm256_cmpgt_epi8(v, _mm256_set1_epi8(-17)))
                            as u32
                            & high;
                        if four == 0 {
                            let (next, written) = super::x86_wide::planes_wide::<false>(
                                src, i, out, len, &kernel.lo, &kernel.hi, letters,
                            );
                            if next != i {
                                (next, written)
                            } else {
                                planes_run::<false>(src, i, out, len, lo_t, hi_t, letters)
                            }
                        } else {
                            let (next, written) = super::x86_wide::planes_wide::<true>(
                                src, i, out, len, &kernel.lo, &kernel.hi, letters,
                            );
                            if next != i {
                                (next, written)
                            } else {
                                planes_run::<true>(src, i, out, len, lo_t, hi_t, letters)
                            }
                        }
                    } else {
                        (i, len)
                    };
                    // (The planes paths may have grown `out`.)
                    (dst, capacity) = (out.as_mut_ptr(), out.capacity());
                    if next != i {
                        i = next;
                        len = written;
                        continue;
                    }
                }
                if DENSE && !RAW {
                    if high == 0 {
                        let letters = if kernel.hex_quot {
                            &super::JSON_LETTERS_HEX_QUOT
                        } else {
                            &super::JSON_LETTERS
                        };
                        if let Some(written) = pairs_window(v, special, W, dst.add(len), letters) {
                            len += written;
                            i += W;
                            continue;
                        }
                    }
                    // SAFETY: `i + 64 <= n`; `len + ROOM <= capacity`.
                    match super::x86_wide::walk_window(
                        src,
                        i,
                        v,
                        special | high,
                        dst,
                        len,
                        escapes,
                        quot,
                    ) {
                        Ok((next, written)) => {
                            i = next;
                            len = written;
                            continue;
                        }
                        Err((p, written)) => {
                            // SAFETY: the bytes up to `written` have been
                            // written.
                            out.set_len(written);
                            return p;
                        }
                    }
                }
                if RAW && high != 0 {
                    // Text to copy: whole windows checked three bytes
                    // ahead, while there is nothing to escape.
                    let (next, written) = if DENSE {
                        super::x86_wide::raw_run_avx512(
                            src,
                            i,
                            out,
                            len,
                            lo_t,
                            hi_t,
                            kernel.raw_terminators,
                        )
                    } else {
                        super::x86_wide::raw_run_avx2(
                            src,
                            i,
                            out,
                            len,
                            lo_t,
                            hi_t,
                            kernel.raw_terminators,
                        )
                    };
                    (dst, capacity) = (out.as_mut_ptr(), out.capacity());
                    if next != i {
                        i = next;
                        len = written;
                        continue;
                    }
                }
                let mut end = W;
                let mut m = special | high;
                if RAW && high != 0 {
                    // The previous one, two and three bytes of each lane, with
                    // zeros before the window (it starts at a character).
                    let before = _mm256_permute2x128_si256(v, v, 0x08);
                    let prev1 = _mm256_alignr_epi8(v, before, 15);
                    let prev2 = _mm256_alignr_epi8(v, before, 14);
                    let prev3 = _mm256_alignr_epi8(v, before, 13);
                    let e = _mm256_and_si256(
                        _mm256_and_si256(
                            _mm256_shuffle_epi8(
                                k1_hi,
                                _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble),
                            ),
                            _mm256_shuffle_epi8(k1_lo, _mm256_and_si256(prev1, nibble)),
                        ),
                        _mm256_shuffle_epi8(
                            k2_hi,
                            _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble),
                        ),
                    );
                    let must23 = _mm256_and_si256(
                        _mm256_or_si256(
                            _mm256_subs_epu8(prev2, splat(0xE0 - 0x80)),
                            _mm256_subs_epu8(prev3, splat(0xF0 - 0x80)),
                        ),
                        splat(0x80),
                    );
                    let error = _mm256_xor_si256(must23, e);
                    if _mm256_testz_si256(error, error) == 1 {
                        // Well-formed: only the ASCII to escape, and U+2028
                        // and U+2029 (E2 80 A8/A9) unless copied too.
                        m = special;
                        if !kernel.raw_terminators {
                            let terminator = _mm256_and_si256(
                                _mm256_and_si256(
                                    _mm256_cmpeq_epi8(prev2, splat(0xE2)),
                                    _mm256_cmpeq_epi8(prev1, splat(0x80)),
                                ),
                                _mm256_cmpeq_epi8(_mm256_or_si256(v, splat(1)), splat(0xA9)),
                            );
                            m |= (_mm256_movemask_epi8(terminator) as u32) >> 2;
                        }
                        // A character cut by the window's end is left for the
                        // next window.
                        // SAFETY: `i + 32 <= n`.
                        let tail = [*sp.add(i + 29), *sp.add(i + 30), *sp.add(i + 31)];
                        end = if tail[2] >= 0xC0 {
                            W - 1
                        } else if tail[1] >= 0xE0 {
                            W - 2
                        } else if tail[0] >= 0xF0 {
                            W - 3
                        } else {
                            W
                        };
                    }
                }
                if m == 0 {
                    // Well-formed text to copy (up to a character cut by
                    // the window's end).
                    _mm256_storeu_si256(dst.add(len).cast(), v);
                    len += end;
                    i += end;
                    continue;
                }
                if DENSE && m == special {
                    let letters = if kernel.hex_quot {
                        &super::JSON_LETTERS_HEX_QUOT
                    } else {
                        &super::JSON_LETTERS
                    };
                    if let Some(written) = pairs_window(v, special, end, dst.add(len), letters) {
                        len += written;
                        i += end;
                        continue;
                    }
                }
                // `src[i + last..]` is stored at `dst + len` before each
                // escape; the escape then overwrites what follows the run.
                let mut last = 0usize;
                // SAFETY: `len + 32 <= capacity` (ROOM).
                _mm256_storeu_si256(dst.add(len).cast(), v);
                while m != 0 {
                    let j = m.trailing_zeros() as usize;
                    len += j - last;
                    let p = i + j;
                    // SAFETY: `p < i + 32` and `i + 64 <= n`.
                    let b = *sp.add(p);
                    if b < 0x80 {
                        let word = if b == b'"' {
                            quot
                        } else {
                            escapes[usize::from(b)]
                        };
                        // SAFETY: `len + 8 <= capacity` (ROOM).
                        dst.add(len).cast::<u64>().write_unaligned(word.to_le());
                        len += (word >> 56) as usize;
                        last = j + 1;
                    } else {
                        // SAFETY: `p + 4 <= i + 35 <= n`.
                        let w = u32::from_le(sp.add(p).cast::<u32>().read_unaligned());
                        let Some((cp, width)) = super::json_decode_word(w) else {
                            // SAFETY: the bytes up to `len` have been written.
                            out.set_len(len);
                            return p;
                        };
                        let raw = RAW && (kernel.raw_terminators || cp & !1 != 0x2028);
                        // SAFETY: `len + 16 <= capacity` (ROOM).
                        {
                            if raw {
                                dst.add(len).cast::<u32>().write_unaligned(w.to_le());
                                len += width;
                            } else if cp < 0x1_0000 {
                                let word = super::json_unit_word(cp);
                                dst.add(len).cast::<u64>().write_unaligned(word.to_le());
                                len += 6;
                            } else {
                                let v = cp - 0x1_0000;
                                let high = super::json_unit_word(0xD800 | v >> 10);
                                let low = super::json_unit_word(0xDC00 | (v & 0x3FF));
                                dst.add(len).cast::<u64>().write_unaligned(high.to_le());
                                dst.add(len + 6).cast::<u64>().write_unaligned(low.to_le());
                                len += 12;
                            }
                        }
                        last = j + width;
                    }
                    m &= u32::MAX.checked_shl(last as u32).unwrap_or(0);
                    if m != 0 {
                        // SAFETY: `i + last + 32 <= i + 64 <= n`; `len + 32
                        // <= capacity` (ROOM).
                        {
                            let rest = _mm256_loadu_si256(sp.add(i + last).cast());
                            _mm256_storeu_si256(dst.add(len).cast(), rest);
                        }
                    }
                }
                if last < end {
                    // SAFETY: as above.
                    {
                        let rest = _mm256_loadu_si256(sp.add(i + last).cast());
                        _mm256_storeu_si256(dst.add(len).cast(), rest);
                    }
                    len += end - last;
                    i += end;
                } else {
                    i += last;
                }
            }
            // The bytes up to `len` have been written.
            out.set_len(len);
            i
        }
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
    /// `dst` (64 bytes are stored), or `None` when another escape is
    /// needed.
    ///
    /// # Safety
    ///
    /// The CPU must have what [`json_escape_avx512`] needs (the caller
    /// enables it); 64 bytes must be writable at `dst`.
    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)]
    unsafe fn pairs_window(
        v: __m256i,
        special: u32,
        end: usize,
        dst: *mut u8,
        letters: &[u8; 128],
    ) -> Option<usize> {
        // SAFETY (whole body): features as documented; the tables are 128
        // and 64 bytes long, the store within the 64 writable bytes.
        unsafe {
            // The tables are loaded here, not before the loop: a 512-bit
            // load at each call of the kernel made the whole loop slower
            // (about 15% on JSON_UNESCAPED_UNICODE text that never comes
            // here), as 512-bit instructions lower the core's clock.
            let letters = std::hint::black_box(letters);
            let pairs_index = std::hint::black_box(&PAIRS);
            let z = _mm512_zextsi256_si512(v);
            let letter = _mm512_permutex2var_epi8(
                _mm512_loadu_si512(letters.as_ptr().cast()),
                z,
                _mm512_loadu_si512(letters.as_ptr().add(64).cast()),
            );
            let two: u64 = _mm512_test_epi8_mask(letter, letter);
            let special = u64::from(special);
            if special & !two != 0 {
                return None;
            }
            let first = _mm512_mask_blend_epi8(special, z, _mm512_set1_epi8(b'\\' as i8));
            let pairs = _mm512_permutex2var_epi8(
                first,
                _mm512_loadu_si512(pairs_index.as_ptr().cast()),
                letter,
            );
            let taken = (1u64 << end) - 1;
            let keep =
                _pdep_u64(taken, 0x5555_5555_5555_5555) | _pdep_u64(special, 0xAAAA_AAAA_AAAA_AAAA);
            _mm512_storeu_si512(dst.cast(), _mm512_maskz_compress_epi8(keep, pairs));
            Some(end + special.count_ones() as usize)
        }
    }

    /// Keiser and Lemire's UTF-8 errors of the bytes `cur` after `p1`,
    /// `p2`, `p3` (`kl`: the three lookups), nonzero where malformed.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2 (the caller enables it).
    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)]
    unsafe fn utf8_errors(
        kl: [__m256i; 3],
        cur: __m256i,
        p1: __m256i,
        p2: __m256i,
        p3: __m256i,
    ) -> __m256i {
        // SAFETY: AVX2 as documented.
        unsafe {
            let nibble = _mm256_set1_epi8(0x0F);
            let high = |x: __m256i| _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
            let e = _mm256_and_si256(
                _mm256_and_si256(
                    _mm256_shuffle_epi8(kl[0], high(p1)),
                    _mm256_shuffle_epi8(kl[1], _mm256_and_si256(p1, nibble)),
                ),
                _mm256_shuffle_epi8(kl[2], high(cur)),
            );
            let must23 = _mm256_and_si256(
                _mm256_or_si256(
                    _mm256_subs_epu8(p2, _mm256_set1_epi8((0xE0 - 0x80) as i8)),
                    _mm256_subs_epu8(p3, _mm256_set1_epi8((0xF0 - 0x80) as i8)),
                ),
                _mm256_set1_epi8(0x80u8 as i8),
            );
            _mm256_xor_si256(must23, e)
        }
    }

    /// Nibble tables of [`planes_run`] (and of the 64-byte planes paths):
    /// 0xFF for the high nibbles of a class.
    const fn nibble_class(from: usize, to: usize) -> [u8; 16] {
        let mut t = [0u8; 16];
        let mut k = from;
        while k <= to {
            t[k] = 0xFF;
            k += 1;
        }
        t
    }
    pub(super) static HIGH_L2: [u8; 16] = nibble_class(0xC, 0xD);
    pub(super) static HIGH_L3: [u8; 16] = nibble_class(0xE, 0xE);
    pub(super) static HIGH_L4: [u8; 16] = nibble_class(0xF, 0xF);
    pub(super) static HIGH_LEAD: [u8; 16] = nibble_class(0xC, 0xF);

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
    /// The CPU must have what [`json_escape_avx512`] needs (the caller
    /// enables it); `3 <= i`, `len <= out.capacity()`, the bytes of `out`
    /// up to `len` written.
    #[inline(always)]
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
        let sp = src.as_ptr();
        // SAFETY (whole body): features as documented; loads are within
        // `src` (from `i - 3`, with `3 <= i`, to `i + 35 <= i + 64 <= n`),
        // stores within the room reserved.
        unsafe {
            let b = |x: u8| _mm256_set1_epi8(x as i8);
            let table =
                |t: &[u8; 16]| _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()));
            let (t_l2, t_l3, t_l4, t_lead) = (
                table(&HIGH_L2),
                table(&HIGH_L3),
                table(&HIGH_L4),
                table(&HIGH_LEAD),
            );
            let (k1_hi, k1_lo, k2_hi) = (
                table(&super::UTF8_BYTE_1_HIGH),
                table(&super::UTF8_BYTE_1_LOW),
                table(&super::UTF8_BYTE_2_HIGH),
            );
            let hex_table = table(b"0123456789abcdef");
            let (letters_lo, letters_hi) = (
                _mm512_loadu_si512(letters.as_ptr().cast()),
                _mm512_loadu_si512(letters.as_ptr().add(64).cast()),
            );
            let triples = [
                _mm512_loadu_si512(TRIPLES[0].as_ptr().cast()),
                _mm512_loadu_si512(TRIPLES[1].as_ptr().cast()),
            ];
            let nibble = b(0x0F);
            let zero = _mm256_setzero_si256();
            let high_nibble = |x: __m256i| _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
            // `m ? y : x` bytewise (0xCA is `a ? b : c`).
            let sel =
                |m: __m256i, y: __m256i, x: __m256i| _mm256_ternarylogic_epi32::<0xCA>(m, y, x);
            let kl = [k1_hi, k1_lo, k2_hi];
            let load = |at: usize| _mm256_loadu_si256(sp.add(at).cast());
            // The first three bytes of the run are checked once; after
            // that each window checks three bytes ahead. A continuation
            // byte at the start (after a malformed sequence the caller
            // skipped) is malformed itself, whatever the bytes before it.
            if *sp.add(i) & 0xC0 == 0x80 {
                return (i, len);
            }
            let mut entry = true;
            // A window's loads reach `i + 35`. A window is taken whole only
            // with 67 bytes left, so that after it the loads of one more
            // always fit: that one writes only the end of a character the
            // whole one began.
            while n - i >= 35 {
                let whole = n - i >= 2 * JSON_WINDOW + 3;
                if out.capacity() - len < ROOM {
                    out.set_len(len);
                    out.reserve(ROOM);
                }
                let dst = out.as_mut_ptr().add(len);
                let c = load(i);
                let (p1, p2, p3) = (load(i - 1), load(i - 2), load(i - 3));
                let (n1, n2, n3) = (load(i + 1), load(i + 2), load(i + 3));
                let hc = high_nibble(c);
                let special = _mm256_andnot_si256(
                    _mm256_cmpeq_epi8(
                        _mm256_and_si256(
                            _mm256_shuffle_epi8(lo_t, _mm256_and_si256(c, nibble)),
                            _mm256_shuffle_epi8(hi_t, hc),
                        ),
                        zero,
                    ),
                    b(0xFF),
                );
                // The letters of two-byte escapes, when there is a byte to
                // escape; a byte to escape without one is an error.
                let any_special = _mm256_testz_si256(special, special) == 0;
                let (letter, no_letter) = if any_special {
                    let letter = _mm512_castsi512_si256(_mm512_permutex2var_epi8(
                        letters_lo,
                        _mm512_zextsi256_si512(c),
                        letters_hi,
                    ));
                    (
                        letter,
                        _mm256_and_si256(special, _mm256_cmpeq_epi8(letter, zero)),
                    )
                } else {
                    (zero, zero)
                };
                let mut errors = _mm256_or_si256(utf8_errors(kl, n3, n2, n1, c), no_letter);
                if !FOUR {
                    // Four-byte leads are for the other variant.
                    errors = _mm256_or_si256(errors, _mm256_shuffle_epi8(t_l4, hc));
                }
                let at_entry = entry;
                if entry {
                    let first3 = _mm256_setr_epi32(-1, 0, 0, 0, 0, 0, 0, 0);
                    let head = _mm256_and_si256(utf8_errors(kl, c, p1, p2, p3), first3);
                    errors = _mm256_or_si256(errors, head);
                    entry = false;
                }
                let high = _mm256_movemask_epi8(c) as u32;
                let ok = whole
                    && _mm256_testz_si256(errors, errors) == 1
                    && high.count_ones() >= PLANES_STAY;
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

                // Roles of each byte, from its class and the classes of
                // the bytes before it.
                let (hp1, hp2, hp3) = (high_nibble(p1), high_nibble(p2), high_nibble(p3));
                let ascii = _mm256_cmpgt_epi8(c, b(0xFF));
                let lead = _mm256_shuffle_epi8(t_lead, hc);
                let l2 = _mm256_shuffle_epi8(t_l2, hc);
                let l2c = _mm256_shuffle_epi8(t_l2, hp1);
                let l3c1 = _mm256_shuffle_epi8(t_l3, hp1);
                let l3c2 = _mm256_shuffle_epi8(t_l3, hp2);

                // Hex digit values: `p` the byte before, `c` the byte, `n`
                // the byte after.
                let c_lo = _mm256_and_si256(c, nibble);
                let p1_2 = _mm256_slli_epi16(p1, 2);
                // ((p & 3) << 2) | (c >> 4 & 3): the bits of `hc` outside
                // 0x0C are its low two, so a bitwise select does it.
                let x1 = sel(b(0x0C), p1_2, hc);
                // p >> 2 & 7
                let na = _mm256_and_si256(_mm256_srli_epi16(p1, 2), b(0x07));
                // p & 15
                let nb = _mm256_and_si256(p1, nibble);
                // c >> 2 & 15
                let nd = _mm256_and_si256(_mm256_srli_epi16(c, 2), nibble);
                // The three planes: digit values, then hex, then the fixed
                // bytes; zero where nothing is written.
                let mut d0 = sel(l3c1, nb, na);
                d0 = sel(l3c2, x1, d0);
                let mut d1 = sel(l3c1, nd, x1);
                d1 = sel(l3c2, c_lo, d1);
                let mut d2 = c_lo;
                let mut escaped = _mm256_or_si256(special, lead);
                let mut u_byte = lead;
                let mut three = _mm256_or_si256(l2, l2c);
                let mut d_byte = zero;
                if FOUR {
                    let l4 = _mm256_shuffle_epi8(t_l4, hc);
                    let l4c1 = _mm256_shuffle_epi8(t_l4, hp1);
                    let l4c2 = _mm256_shuffle_epi8(t_l4, hp2);
                    let l4c3 = _mm256_shuffle_epi8(t_l4, hp3);
                    // Four-byte characters: `u` = the plane (5 bits), the
                    // high surrogate's digits are 8 | (u - 1) >> 2, (u -
                    // 1) & 3 << 2 | (c & 15) >> 2, (c & 3) << 2 | n >> 4 &
                    // 3; the low surrogate's first one 0xC | p >> 2 & 3.
                    // (Selects by a constant mask where the other operand
                    // has no bits under it; 0xEA is `a & b | c`.)
                    let u1 = _mm256_sub_epi8(sel(b(0x1C), p1_2, hc), b(1));
                    let ng = _mm256_ternarylogic_epi32::<0xEA>(
                        _mm256_srli_epi16(u1, 2),
                        b(0x03),
                        b(0x08),
                    );
                    let nh = sel(
                        b(0x0C),
                        _mm256_slli_epi16(u1, 2),
                        _mm256_and_si256(nd, b(0x03)),
                    );
                    let ni = sel(b(0x0C), _mm256_slli_epi16(c, 2), high_nibble(n1));
                    let nf = _mm256_ternarylogic_epi32::<0xEA>(na, b(0x03), b(0x0C));
                    d0 = sel(l4c1, ng, d0);
                    d0 = sel(l4c3, nf, d0);
                    d1 = sel(l4c1, nh, d1);
                    d2 = sel(l4c1, ni, d2);
                    escaped = _mm256_or_si256(escaped, l4c2);
                    u_byte = _mm256_or_si256(u_byte, l4c2);
                    d_byte = _mm256_or_si256(l4, l4c2);
                    three = _mm256_or_si256(
                        three,
                        _mm256_or_si256(_mm256_or_si256(l4, l4c1), _mm256_or_si256(l4c2, l4c3)),
                    );
                }
                let mut q0 = _mm256_shuffle_epi8(hex_table, d0);
                let mut q1 = _mm256_shuffle_epi8(hex_table, d1);
                let mut q2 = _mm256_shuffle_epi8(hex_table, d2);
                q0 = sel(ascii, c, q0);
                q0 = sel(escaped, b(b'\\'), q0);
                q1 = sel(u_byte, b(b'u'), q1);
                q1 = if any_special {
                    _mm256_andnot_si256(
                        _mm256_andnot_si256(special, ascii),
                        sel(special, letter, q1),
                    )
                } else {
                    _mm256_andnot_si256(ascii, q1)
                };
                if FOUR {
                    q2 = sel(d_byte, b(b'd'), q2);
                }
                q2 = sel(l2, b(b'0'), q2);
                // Three bytes: two-byte and four-byte characters.
                q2 = _mm256_and_si256(q2, three);

                let q01 = _mm512_inserti64x4::<1>(_mm512_zextsi256_si512(q0), q1);
                let q2 = _mm512_zextsi256_si512(q2);
                let out_a = _mm512_permutex2var_epi8(q01, triples[0], q2);
                let out_b = _mm512_permutex2var_epi8(q01, triples[1], q2);
                let mut keep_a: u64 = _mm512_test_epi8_mask(out_a, out_a);
                // Places 96 and on of the output are past the 32 bytes.
                let mut keep_b: u64 = _mm512_test_epi8_mask(out_b, out_b) & 0xFFFF_FFFF;
                if !ok {
                    // Only the end of the character begun before.
                    keep_a &= (1u64 << (3 * carried)) - 1;
                    keep_b = 0;
                }
                _mm512_storeu_si512(dst.cast(), _mm512_maskz_compress_epi8(keep_a, out_a));
                let written_a = keep_a.count_ones() as usize;
                _mm512_storeu_si512(
                    dst.add(written_a).cast(),
                    _mm512_maskz_compress_epi8(keep_b, out_b),
                );
                len += written_a + keep_b.count_ones() as usize;
                if !ok {
                    i += carried;
                    return (i, len);
                }
                i += JSON_WINDOW;
            }
            (i, len)
        }
    }

    /// High nibbles 8 to B: continuation bytes.
    pub(super) static HIGH_CONT: [u8; 16] = nibble_class(0x8, 0xB);
    /// High nibbles E and F: leads of three- and four-byte characters.
    pub(super) static HIGH_LONG: [u8; 16] = nibble_class(0xE, 0xF);

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
    #[inline(always)]
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
        let sp = src.as_ptr();
        // SAFETY (whole body): features as documented; loads are within
        // `src` (from `i - 1`, with `3 <= i`, to `i + 33 <= n`), stores
        // within the room reserved.
        unsafe {
            let b = |x: u8| _mm256_set1_epi8(x as i8);
            let table =
                |t: &[u8; 16]| _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast()));
            let (t_lead, t_cont, t_long) = (table(&HIGH_L2), table(&HIGH_CONT), table(&HIGH_LONG));
            let hex_table = table(b"0123456789abcdef");
            let (letters_lo, letters_hi) = (
                _mm512_loadu_si512(letters.as_ptr().cast()),
                _mm512_loadu_si512(letters.as_ptr().add(64).cast()),
            );
            let triples = [
                _mm512_loadu_si512(TRIPLES[0].as_ptr().cast()),
                _mm512_loadu_si512(TRIPLES[1].as_ptr().cast()),
            ];
            let nibble = b(0x0F);
            let zero = _mm256_setzero_si256();
            let high_nibble = |x: __m256i| _mm256_and_si256(_mm256_srli_epi16(x, 4), nibble);
            let sel =
                |m: __m256i, y: __m256i, x: __m256i| _mm256_ternarylogic_epi32::<0xCA>(m, y, x);
            let load = |at: usize| _mm256_loadu_si256(sp.add(at).cast());
            // No window may start with a continuation byte: the run starts
            // at a character, and a lead at a window's end takes its second
            // byte along, so one there is malformed (it is checked here,
            // not with the window's other bytes). Each window's leads are
            // checked against the bytes after them, the byte after the
            // window included.
            while n - i >= 2 * JSON_WINDOW {
                if *sp.add(i) & 0xC0 == 0x80 {
                    break;
                }
                if out.capacity() - len < ROOM {
                    out.set_len(len);
                    out.reserve(ROOM);
                }
                let dst = out.as_mut_ptr().add(len);
                let (c, p1, n1) = (load(i), load(i - 1), load(i + 1));
                let hc = high_nibble(c);
                let lead = _mm256_shuffle_epi8(t_lead, hc);
                let cont = _mm256_shuffle_epi8(t_cont, hc);
                let next_cont = _mm256_shuffle_epi8(t_cont, high_nibble(n1));
                let special = _mm256_andnot_si256(
                    _mm256_cmpeq_epi8(
                        _mm256_and_si256(
                            _mm256_shuffle_epi8(lo_t, _mm256_and_si256(c, nibble)),
                            _mm256_shuffle_epi8(hi_t, hc),
                        ),
                        zero,
                    ),
                    b(0xFF),
                );
                // The letters of two-byte escapes, when there is a byte to
                // escape; a byte to escape without one is an error.
                let any_special = _mm256_testz_si256(special, special) == 0;
                let (letter, no_letter) = if any_special {
                    let letter = _mm512_castsi512_si256(_mm512_permutex2var_epi8(
                        letters_lo,
                        _mm512_zextsi256_si512(c),
                        letters_hi,
                    ));
                    (
                        letter,
                        _mm256_and_si256(special, _mm256_cmpeq_epi8(letter, zero)),
                    )
                } else {
                    (zero, zero)
                };
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
                // Two hex digits from the lead (before), one and a half
                // from the second byte.
                let x1 = _mm256_ternarylogic_epi32::<0xF8>(
                    _mm256_and_si256(_mm256_slli_epi16(p1, 2), b(0x0C)),
                    hc,
                    b(0x03),
                );
                let na = _mm256_and_si256(_mm256_srli_epi16(p1, 2), b(0x07));
                let ascii = _mm256_cmpgt_epi8(c, b(0xFF));
                let mut q0 = sel(ascii, c, _mm256_shuffle_epi8(hex_table, na));
                q0 = sel(_mm256_or_si256(special, lead), b(b'\\'), q0);
                let mut q1 = sel(lead, b(b'u'), _mm256_shuffle_epi8(hex_table, x1));
                q1 = if any_special {
                    _mm256_andnot_si256(
                        _mm256_andnot_si256(special, ascii),
                        sel(special, letter, q1),
                    )
                } else {
                    _mm256_andnot_si256(ascii, q1)
                };
                let q2 = _mm256_and_si256(
                    sel(
                        lead,
                        b(b'0'),
                        _mm256_shuffle_epi8(hex_table, _mm256_and_si256(c, nibble)),
                    ),
                    _mm256_or_si256(lead, cont),
                );
                let q01 = _mm512_inserti64x4::<1>(_mm512_zextsi256_si512(q0), q1);
                let q2 = _mm512_zextsi256_si512(q2);
                let out_a = _mm512_permutex2var_epi8(q01, triples[0], q2);
                let out_b = _mm512_permutex2var_epi8(q01, triples[1], q2);
                let keep_a: u64 = _mm512_test_epi8_mask(out_a, out_a);
                let keep_b: u64 = _mm512_test_epi8_mask(out_b, out_b) & 0xFFFF_FFFF;
                _mm512_storeu_si512(dst.cast(), _mm512_maskz_compress_epi8(keep_a, out_a));
                let written_a = keep_a.count_ones() as usize;
                _mm512_storeu_si512(
                    dst.add(written_a).cast(),
                    _mm512_maskz_compress_epi8(keep_b, out_b),
                );
                len += written_a + keep_b.count_ones() as usize;
                // A lead at the window's end: its second byte goes with
                // it (it was checked above).
                i += JSON_WINDOW;
                if *sp.add(i - 1) >= 0xC0 {
                    // Write the second byte's share now: the next window
                    // starts after it.
                    let (lead_byte, second) = (u32::from(*sp.add(i - 1)), u32::from(*sp.add(i)));
                    let cp = (lead_byte & 0x1F) << 6 | (second & 0x3F);
                    let word = super::json_unit_word(cp) >> 24; // the last three digits
                    out.as_mut_ptr()
                        .add(len)
                        .cast::<u32>()
                        .write_unaligned((word as u32).to_le());
                    len += 3;
                    i += 1;
                }
            }
            (i, len)
        }
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
}

/// What [`json_escape_run`] needs to know of the `json_encode()` flags.
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

/// The escape of each ASCII byte (little-endian, the length in the top
/// byte), whatever the flags; which bytes are escaped is the caller's
/// choice (see [`JsonKernel`]). `"` is `\"` here; `\u0022` with
/// `JSON_HEX_QUOT` is [`JSON_QUOT_HEX`].
static JSON_ESCAPES: [u64; 128] = json_escapes();

/// For each ASCII byte with a two-byte escape, its second byte; 0 for the
/// others (and for `"` with `JSON_HEX_QUOT`, in the second table).
static JSON_LETTERS: [u8; 128] = json_letters(false);
static JSON_LETTERS_HEX_QUOT: [u8; 128] = json_letters(true);

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

/// `\u0022` with its length, for `JSON_HEX_QUOT`.
const JSON_QUOT_HEX: u64 = json_escape_word(b"\\u0022");

const fn json_escape_word(text: &[u8]) -> u64 {
    let mut w = (text.len() as u64) << 56;
    let mut k = 0;
    while k < text.len() {
        w |= (text[k] as u64) << (8 * k);
        k += 1;
    }
    w
}

const fn json_escapes() -> [u64; 128] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut t = [0u64; 128];
    let mut b = 0;
    while b < 0x20 {
        t[b] = json_escape_word(&[b'\\', b'u', b'0', b'0', HEX[b >> 4], HEX[b & 15]]);
        b += 1;
    }
    t[0x08] = json_escape_word(b"\\b");
    t[0x0C] = json_escape_word(b"\\f");
    t[b'\n' as usize] = json_escape_word(b"\\n");
    t[b'\r' as usize] = json_escape_word(b"\\r");
    t[b'\t' as usize] = json_escape_word(b"\\t");
    t[b'"' as usize] = json_escape_word(b"\\\"");
    t[b'\\' as usize] = json_escape_word(b"\\\\");
    t[b'/' as usize] = json_escape_word(b"\\/");
    t[b'<' as usize] = json_escape_word(b"\\u003C");
    t[b'>' as usize] = json_escape_word(b"\\u003E");
    t[b'&' as usize] = json_escape_word(b"\\u0026");
    t[b'\'' as usize] = json_escape_word(b"\\u0027");
    t
}

/// Two lower-case hex digits for each byte value, the first in the low
/// byte.
static HEX_PAIRS: [u16; 256] = {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = HEX[b >> 4] as u16 | (HEX[b & 15] as u16) << 8;
        b += 1;
    }
    t
};

/// `\uXXXX` for one UTF-16 unit, in the low six bytes.
#[inline(always)]
fn json_unit_word(u: u32) -> u64 {
    let hi = u64::from(HEX_PAIRS[(u >> 8 & 0xFF) as usize]);
    let lo = u64::from(HEX_PAIRS[(u & 0xFF) as usize]);
    0x755C | hi << 16 | lo << 32
}

/// The well-formed character at the start of `w` (four bytes,
/// little-endian, lead byte `>= 0x80`): its code point and length, or
/// `None` where PHP's decoder fails.
#[inline(always)]
fn json_decode_word(w: u32) -> Option<(u32, usize)> {
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

// Keiser and Lemire's UTF-8 validation lookups ("Validating UTF-8 in less
// than one instruction per byte", 2021; as in simdjson): for each pair of
// consecutive bytes, the error classes the first byte's high and low nibble
// and the second byte's high nibble allow; a pair is malformed when a class
// survives all three.
const TOO_SHORT: u8 = 1 << 0; // lead, then ASCII or a lead
const TOO_LONG: u8 = 1 << 1; // ASCII, then a continuation
const OVERLONG_3: u8 = 1 << 2; // E0, then 80..9F
const TOO_LARGE: u8 = 1 << 3; // F4, then 90..BF; F5.., then 90..BF
const SURROGATE: u8 = 1 << 4; // ED, then A0..BF
const OVERLONG_2: u8 = 1 << 5; // C0 or C1, then a continuation
const TOO_LARGE_1000: u8 = 1 << 6; // F5.., then 80..8F
const OVERLONG_4: u8 = 1 << 6; // F0, then 80..8F
const TWO_CONTS: u8 = 1 << 7; // a continuation after a continuation
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

static UTF8_BYTE_1_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

static UTF8_BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

static UTF8_BYTE_2_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// Whether the CPU has what the AVX-512 kernels of [`utf8_run`] and
/// [`json_escape_run`] need (AVX-512 F, BW, VL, VBMI, VBMI2, with AVX2 and
/// BMI2), asked once; `PHPXML_NO_AVX512` in the environment says no.
#[cfg(target_arch = "x86_64")]
fn dense_available() -> bool {
    static KNOWN: AtomicU8 = AtomicU8::new(0);
    asked_once(&KNOWN, || {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::env::var_os("PHPXML_NO_AVX512").is_none()
    })
}

/// `ask()`, worked out on the first call and kept in `known` (0: not yet
/// asked, 1: no, 2: yes).
#[cfg(target_arch = "x86_64")]
#[inline]
fn asked_once(known: &AtomicU8, ask: impl FnOnce() -> bool) -> bool {
    match known.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let yes = ask();
            known.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
    }
}

/// Window of [`json_escape_run`].
const JSON_WINDOW: usize = 32;

/// Escapes `src[i..]` into `out` as PHP's `php_json_escape_string()`
/// writes the inside of a string literal, for as long as it can: it stops
/// at malformed UTF-8 (the returned position is its first byte) or when
/// fewer than 64 bytes are left (the returned position is then the start
/// of a character). Everything before the returned position has been
/// written to `out`; nothing else has. `i` must be at the start of a
/// character.
///
/// Uses AVX2 when the CPU has it; without, it returns `i` at once.
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
            if dense_available() {
                // SAFETY: every feature the kernel needs is available
                // (checked just above).
                return unsafe {
                    if kernel.raw_unicode {
                        x86::json_escape_avx512_raw(src, i, out, kernel)
                    } else {
                        x86::json_escape_avx512(src, i, out, kernel)
                    }
                };
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is available (checked just above).
                return unsafe { x86::json_escape_avx2(src, i, out, kernel) };
            }
        }
    }
    let _ = (out, kernel);
    i
}

/// Parts of [`json_escape_run`]'s kernels kept apart from the rest of the
/// kernels: with AVX-512, text written as `\uXXXX` in 64-byte windows on
/// 512-bit vectors ([`planes_wide`](x86_wide::planes_wide) for three- and
/// four-byte characters, [`planes_two_wide`](x86_wide::planes_two_wide)
/// for two-byte ones) and the walk through windows with few escapes
/// ([`walk_window`](x86_wide::walk_window), each character escaped by
/// [`escape_char`](x86_wide::escape_char)); with AVX2 too, text copied as
/// it is under `JSON_UNESCAPED_UNICODE`
/// ([`raw_run`](x86_wide::raw_run)).
#[cfg(target_arch = "x86_64")]
mod x86_wide {
    #[allow(clippy::wildcard_imports)]
    use std::arch::x86_64::*;

    use super::x86::{HIGH_CONT, HIGH_L2, HIGH_L3, HIGH_L4, HIGH_LEAD, HIGH_LONG};

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
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512 VL and VBMI (the caller enables it).
    #[inline(always)]
    unsafe fn unit_escapes(units: u32) -> __m128i {
        // SAFETY: features as documented; the tables are as long as read.
        unsafe {
            let nibbles = _mm_multishift_epi64_epi8(
                _mm_loadu_si128(UNIT_NIBBLES.as_ptr().cast()),
                _mm_set1_epi64x(i64::from(units)),
            );
            // 64 entries: the index's top two bits do not count.
            let hex = _mm_permutexvar_epi8(nibbles, _mm_loadu_si128(HEX_64.as_ptr().cast()));
            _mm_ternarylogic_epi32::<0xCA>(
                _mm_loadu_si128(UNIT_DIGITS.as_ptr().cast()),
                hex,
                _mm_loadu_si128(UNIT_FIXED.as_ptr().cast()),
            )
        }
    }

    /// Writes the `\uXXXX` escape (a surrogate pair above U+FFFF) of the
    /// character at the start of `w` (four bytes, little-endian) whose
    /// lead byte `b` is from 0x80 up at `dst`, and returns how many bytes
    /// count (6 or 12) and the character's length; `None` (nothing
    /// written) where PHP's decoder fails: malformed, overlong, a
    /// surrogate, above U+10FFFF. 16 bytes are stored.
    ///
    /// One branch on the character's length; three- and four-byte
    /// characters decoded with `pext` and written by [`unit_escapes`].
    ///
    /// # Safety
    ///
    /// The CPU must have what [`super::x86::json_escape_avx512`] needs (the
    /// caller enables it); 16 bytes must be writable at `dst`.
    #[inline(always)]
    pub(super) unsafe fn escape_char(b: u8, w: u32, dst: *mut u8) -> Option<(usize, usize)> {
        // SAFETY: as documented.
        unsafe {
            if b < 0xE0 {
                if b < 0xC2 || w & 0xC000 != 0x8000 {
                    return None;
                }
                let word = super::json_unit_word(u32::from(b & 0x1F) << 6 | (w >> 8 & 0x3F));
                dst.cast::<u64>().write_unaligned(word.to_le());
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
            _mm_storeu_si128(dst.cast(), unit_escapes(units));
            Some((written, width))
        }
    }

    /// The escapes of a 32-byte window `v` of [`super::x86::json_escape_avx512`]
    /// at `src[i..]` (with 64 bytes left), `m` its bytes to escape (at
    /// least one): the window is stored at `dst + len`, then each escape
    /// written over it in turn ([`escape_char`] for characters) and the
    /// text after it stored again. A character may cross the window's end.
    /// Returns where the next window starts and the new written length,
    /// or where malformed UTF-8 starts and the length written before it.
    ///
    /// # Safety
    ///
    /// The CPU must have what [`super::x86::json_escape_avx512`] needs (the
    /// caller enables it); `i + 64 <= src.len()`; `len + 6 * 35 + 64` bytes
    /// writable at `dst`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    pub(super) unsafe fn walk_window(
        src: &[u8],
        mut i: usize,
        v: __m256i,
        m: u32,
        dst: *mut u8,
        mut len: usize,
        escapes: &[u64; 128],
        quot: u64,
    ) -> Result<(usize, usize), (usize, usize)> {
        const W: usize = 32;
        let sp = src.as_ptr();
        // SAFETY (whole body): loads within `src` (up to `i + 64`, four
        // bytes at `i + 31` at most), stores within the room documented.
        unsafe {
            // `src[i + last..]` is stored at `dst + len` before each
            // escape; the escape then overwrites what follows the run.
            _mm256_storeu_si256(dst.add(len).cast(), v);
            let mut m = u64::from(m);
            let mut last = 0;
            loop {
                let j = m.trailing_zeros() as usize;
                len += j - last;
                let p = i + j;
                let b = *sp.add(p);
                if b < 0x80 {
                    let word = if b == b'"' {
                        quot
                    } else {
                        escapes[usize::from(b)]
                    };
                    dst.add(len).cast::<u64>().write_unaligned(word.to_le());
                    len += (word >> 56) as usize;
                    last = j + 1;
                } else {
                    let w = u32::from_le(sp.add(p).cast::<u32>().read_unaligned());
                    let Some((written, width)) = escape_char(b, w, dst.add(len)) else {
                        return Err((p, len));
                    };
                    len += written;
                    last = j + width;
                }
                // `last <= 35`.
                m &= u64::MAX << last;
                if m == 0 {
                    break;
                }
                let rest = _mm256_loadu_si256(sp.add(i + last).cast());
                _mm256_storeu_si256(dst.add(len).cast(), rest);
            }
            if last < W {
                let rest = _mm256_loadu_si256(sp.add(i + last).cast());
                _mm256_storeu_si256(dst.add(len).cast(), rest);
                len += W - last;
                i += W;
            } else {
                i += last;
            }
            Ok((i, len))
        }
    }

    /// Keiser and Lemire's UTF-8 errors of the bytes `cur` after `p1`,
    /// `p2`, `p3` on 32 bytes (`kl`: the three lookups), nonzero where
    /// malformed.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2 (the caller enables it).
    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)]
    pub(super) unsafe fn utf8_errors_256(
        kl: [__m256i; 3],
        cur: __m256i,
        p1: __m256i,
        p2: __m256i,
        p3: __m256i,
    ) -> __m256i {
        // SAFETY: AVX2 as documented.
        unsafe {
            let nibble = _mm256_set1_epi8(0x0F);
            let e = _mm256_and_si256(
                _mm256_and_si256(
                    _mm256_shuffle_epi8(kl[0], _mm256_and_si256(_mm256_srli_epi16(p1, 4), nibble)),
                    _mm256_shuffle_epi8(kl[1], _mm256_and_si256(p1, nibble)),
                ),
                _mm256_shuffle_epi8(kl[2], _mm256_and_si256(_mm256_srli_epi16(cur, 4), nibble)),
            );
            let must23 = _mm256_and_si256(
                _mm256_or_si256(
                    _mm256_subs_epu8(p2, _mm256_set1_epi8((0xE0 - 0x80) as i8)),
                    _mm256_subs_epu8(p3, _mm256_set1_epi8((0xF0 - 0x80) as i8)),
                ),
                _mm256_set1_epi8(0x80u8 as i8),
            );
            _mm256_xor_si256(must23, e)
        }
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
    /// The CPU must support AVX2 (the caller enables it); `len <=
    /// out.capacity()`, the bytes of `out` up to `len` written.
    #[inline(always)]
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
        let sp = src.as_ptr();
        // SAFETY (whole body): AVX2 as documented; loads within `src` (up
        // to `i + 35 <= n`, and back to the run's start), stores within the
        // room reserved.
        unsafe {
            let kl = [
                _mm256_broadcastsi128_si256(_mm_loadu_si128(
                    super::UTF8_BYTE_1_HIGH.as_ptr().cast(),
                )),
                _mm256_broadcastsi128_si256(_mm_loadu_si128(
                    super::UTF8_BYTE_1_LOW.as_ptr().cast(),
                )),
                _mm256_broadcastsi128_si256(_mm_loadu_si128(
                    super::UTF8_BYTE_2_HIGH.as_ptr().cast(),
                )),
            ];
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
            let v = _mm256_loadu_si256(sp.add(i).cast());
            let before = _mm256_permute2x128_si256(v, v, 0x08);
            let head = _mm256_and_si256(
                utf8_errors_256(
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
                if out.capacity() - len < W {
                    out.set_len(len);
                    out.reserve(W);
                }
                let v = _mm256_loadu_si256(sp.add(i).cast());
                let n1 = _mm256_loadu_si256(sp.add(i + 1).cast());
                let n2 = _mm256_loadu_si256(sp.add(i + 2).cast());
                let n3 = _mm256_loadu_si256(sp.add(i + 3).cast());
                let special = _mm256_and_si256(
                    _mm256_shuffle_epi8(lo_t, _mm256_and_si256(v, nibble)),
                    _mm256_shuffle_epi8(hi_t, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)),
                );
                let mut stop = _mm256_or_si256(special, utf8_errors_256(kl, n3, n2, n1, v));
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
                _mm256_storeu_si256(out.as_mut_ptr().add(len).cast(), v);
                len += W;
                i += W;
            }
            // Back to the start of a character the last window stored
            // began (its continuation bytes here were checked).
            let mut back = 0;
            while i - back > start && *sp.add(i - back) & 0xC0 == 0x80 {
                back += 1;
            }
            (i - back, len - back)
        }
    }

    /// [`raw_run`] compiled apart (the kernels' loops were slower with it
    /// inlined), with AVX2.
    ///
    /// # Safety
    ///
    /// As [`raw_run`].
    #[inline(never)]
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn raw_run_avx2(
        src: &[u8],
        i: usize,
        out: &mut Vec<u8>,
        len: usize,
        lo_t: __m256i,
        hi_t: __m256i,
        raw_terminators: bool,
    ) -> (usize, usize) {
        // SAFETY: as documented; AVX2 is enabled here.
        unsafe { raw_run(src, i, out, len, lo_t, hi_t, raw_terminators) }
    }

    /// [`raw_run`] compiled apart with what
    /// [`super::x86::json_escape_avx512`] has.
    ///
    /// # Safety
    ///
    /// As [`raw_run`], and the CPU must have what
    /// [`super::x86::json_escape_avx512`] needs.
    #[inline(never)]
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
    )]
    pub(super) unsafe fn raw_run_avx512(
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

    /// A 16-byte table in each lane.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512 F (the caller enables it).
    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> __m512i {
        // SAFETY: the table is 16 bytes long; features as documented.
        unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(t.as_ptr().cast())) }
    }

    /// `x` in every byte.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512 F (the caller enables it).
    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)]
    unsafe fn b(x: u8) -> __m512i {
        // SAFETY: features as documented.
        unsafe { _mm512_set1_epi8(x as i8) }
    }

    /// `m ? y : x` bytewise.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512 F (the caller enables it).
    #[inline(always)]
    unsafe fn sel(m: __m512i, y: __m512i, x: __m512i) -> __m512i {
        // SAFETY: features as documented (0xCA is `a ? b : c`).
        unsafe { _mm512_ternarylogic_epi32::<0xCA>(m, y, x) }
    }

    /// The high nibble of each byte.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512 BW (the caller enables it).
    #[inline(always)]
    unsafe fn high_nibble(x: __m512i) -> __m512i {
        // SAFETY: features as documented.
        unsafe { _mm512_and_si512(_mm512_srli_epi16::<4>(x), _mm512_set1_epi8(0x0F)) }
    }

    /// Keiser and Lemire's UTF-8 errors of the bytes `cur` after `p1`,
    /// `p2`, `p3`, nonzero where malformed (as `x86::utf8_errors`, on 64
    /// bytes).
    ///
    /// # Safety
    ///
    /// The CPU must support AVX-512 F and BW (the caller enables it).
    #[inline(always)]
    #[allow(clippy::cast_possible_wrap)]
    unsafe fn utf8_errors(
        kl: [__m512i; 3],
        cur: __m512i,
        p1: __m512i,
        p2: __m512i,
        p3: __m512i,
    ) -> __m512i {
        // SAFETY: features as documented.
        unsafe {
            let e = _mm512_and_si512(
                _mm512_and_si512(
                    _mm512_shuffle_epi8(kl[0], high_nibble(p1)),
                    _mm512_shuffle_epi8(kl[1], _mm512_and_si512(p1, _mm512_set1_epi8(0x0F))),
                ),
                _mm512_shuffle_epi8(kl[2], high_nibble(cur)),
            );
            let must23 = _mm512_and_si512(
                _mm512_or_si512(
                    _mm512_subs_epu8(p2, _mm512_set1_epi8((0xE0 - 0x80) as i8)),
                    _mm512_subs_epu8(p3, _mm512_set1_epi8((0xF0 - 0x80) as i8)),
                ),
                _mm512_set1_epi8(0x80u8 as i8),
            );
            _mm512_xor_si512(must23, e)
        }
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
    /// The CPU must have what [`super::x86::json_escape_avx512`] needs;
    /// `3 <= i`, `len <= out.capacity()`, the bytes of `out` up to `len`
    /// written.
    #[inline(never)]
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
    )]
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
        let sp = src.as_ptr();
        // A continuation byte at the start (after a malformed sequence the
        // caller skipped) is malformed itself, whatever the bytes before it.
        // SAFETY: `i < n`.
        if n - i < 2 * WIDE + 3 || unsafe { *sp.add(i) } & 0xC0 == 0x80 {
            return (i, len);
        }
        // SAFETY (whole body): features as documented; loads are within
        // `src` (from `i - 3`, with `3 <= i`, to `i + 67 <= n`), stores
        // within the room reserved.
        unsafe {
            let (lo_t, hi_t) = (table(lo_t), table(hi_t));
            let (t_l2, t_l3, t_l4, t_lead) = (
                table(&HIGH_L2),
                table(&HIGH_L3),
                table(&HIGH_L4),
                table(&HIGH_LEAD),
            );
            let kl = [
                table(&super::UTF8_BYTE_1_HIGH),
                table(&super::UTF8_BYTE_1_LOW),
                table(&super::UTF8_BYTE_2_HIGH),
            ];
            let hex_table = table(b"0123456789abcdef");
            let (letters_lo, letters_hi) = (
                _mm512_loadu_si512(letters.as_ptr().cast()),
                _mm512_loadu_si512(letters.as_ptr().add(64).cast()),
            );
            let nibble = b(0x0F);
            let zero = _mm512_setzero_si512();
            let mut entry = true;
            // A window's loads reach `i + 67`. A window is taken whole only
            // with 131 bytes left, so that after it the loads of one more
            // always fit: that one writes only the end of a character the
            // whole one began.
            while n - i >= WIDE + 3 {
                let whole = n - i >= 2 * WIDE + 3;
                if out.capacity() - len < ROOM {
                    out.set_len(len);
                    out.reserve(ROOM);
                }
                let dst = out.as_mut_ptr().add(len);
                let c = _mm512_loadu_si512(sp.add(i).cast());
                let p1 = _mm512_loadu_si512(sp.add(i - 1).cast());
                let p2 = _mm512_loadu_si512(sp.add(i - 2).cast());
                let p3 = _mm512_loadu_si512(sp.add(i - 3).cast());
                let n1 = _mm512_loadu_si512(sp.add(i + 1).cast());
                let n2 = _mm512_loadu_si512(sp.add(i + 2).cast());
                let n3 = _mm512_loadu_si512(sp.add(i + 3).cast());
                let hc = high_nibble(c);
                let special: u64 = _mm512_test_epi8_mask(
                    _mm512_shuffle_epi8(lo_t, _mm512_and_si512(c, nibble)),
                    _mm512_shuffle_epi8(hi_t, hc),
                );
                // The letters of two-byte escapes, when there is a byte to
                // escape; a byte to escape without one is an error.
                let (letter, no_letter) = if special == 0 {
                    (zero, 0)
                } else {
                    let letter = _mm512_permutex2var_epi8(letters_lo, c, letters_hi);
                    (letter, special & _mm512_testn_epi8_mask(letter, letter))
                };
                let mut errors = utf8_errors(kl, n3, n2, n1, c);
                if !FOUR {
                    // Four-byte leads are for the other variant.
                    errors = _mm512_or_si512(errors, _mm512_shuffle_epi8(t_l4, hc));
                }
                let mut bad: u64 = _mm512_test_epi8_mask(errors, errors) | no_letter;
                let at_entry = entry;
                if entry {
                    let head = utf8_errors(kl, c, p1, p2, p3);
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

                // Roles of each byte, from its class and the classes of
                // the bytes before it (as in `x86::planes_run`).
                let (hp1, hp2, hp3) = (high_nibble(p1), high_nibble(p2), high_nibble(p3));
                let lead = _mm512_shuffle_epi8(t_lead, hc);
                let l2 = _mm512_shuffle_epi8(t_l2, hc);
                let l2c = _mm512_shuffle_epi8(t_l2, hp1);
                let l3c1 = _mm512_shuffle_epi8(t_l3, hp1);
                let l3c2 = _mm512_shuffle_epi8(t_l3, hp2);

                // Hex digit values: `p` the byte before, `c` the byte, `n`
                // the byte after.
                let c_lo = _mm512_and_si512(c, nibble);
                let p1_2 = _mm512_slli_epi16::<2>(p1);
                let x1 = sel(b(0x0C), p1_2, hc);
                let na = _mm512_and_si512(_mm512_srli_epi16::<2>(p1), b(0x07));
                let nb = _mm512_and_si512(p1, nibble);
                let nd = _mm512_and_si512(_mm512_srli_epi16::<2>(c), nibble);
                let mut d0 = sel(l3c1, nb, na);
                d0 = sel(l3c2, x1, d0);
                let mut d1 = sel(l3c1, nd, x1);
                d1 = sel(l3c2, c_lo, d1);
                let mut d2 = c_lo;
                let mut escaped = lead;
                let mut u_byte = lead;
                let mut three = _mm512_or_si512(l2, l2c);
                let mut d_byte = zero;
                if FOUR {
                    let l4 = _mm512_shuffle_epi8(t_l4, hc);
                    let l4c1 = _mm512_shuffle_epi8(t_l4, hp1);
                    let l4c2 = _mm512_shuffle_epi8(t_l4, hp2);
                    let l4c3 = _mm512_shuffle_epi8(t_l4, hp3);
                    let u1 = _mm512_sub_epi8(sel(b(0x1C), p1_2, hc), b(1));
                    let ng = _mm512_ternarylogic_epi32::<0xEA>(
                        _mm512_srli_epi16::<2>(u1),
                        b(0x03),
                        b(0x08),
                    );
                    let nh = sel(
                        b(0x0C),
                        _mm512_slli_epi16::<2>(u1),
                        _mm512_and_si512(nd, b(0x03)),
                    );
                    let ni = sel(b(0x0C), _mm512_slli_epi16::<2>(c), high_nibble(n1));
                    let nf = _mm512_ternarylogic_epi32::<0xEA>(na, b(0x03), b(0x0C));
                    d0 = sel(l4c1, ng, d0);
                    d0 = sel(l4c3, nf, d0);
                    d1 = sel(l4c1, nh, d1);
                    d2 = sel(l4c1, ni, d2);
                    escaped = _mm512_or_si512(escaped, l4c2);
                    u_byte = _mm512_or_si512(u_byte, l4c2);
                    d_byte = _mm512_or_si512(l4, l4c2);
                    three = _mm512_or_si512(
                        three,
                        _mm512_or_si512(_mm512_or_si512(l4, l4c1), _mm512_or_si512(l4c2, l4c3)),
                    );
                }
                let mut q0 = sel(escaped, b(b'\\'), _mm512_shuffle_epi8(hex_table, d0));
                q0 = _mm512_mask_mov_epi8(q0, !high, c);
                let mut q1 = sel(u_byte, b(b'u'), _mm512_shuffle_epi8(hex_table, d1));
                q1 = _mm512_maskz_mov_epi8(high, q1);
                if special != 0 {
                    q0 = _mm512_mask_mov_epi8(q0, special, b(b'\\'));
                    q1 = _mm512_mask_mov_epi8(q1, special, letter);
                }
                let mut q2 = _mm512_shuffle_epi8(hex_table, d2);
                if FOUR {
                    q2 = sel(d_byte, b(b'd'), q2);
                }
                q2 = sel(l2, b(b'0'), q2);
                // Three bytes: two-byte and four-byte characters.
                q2 = _mm512_and_si512(q2, three);

                // Planes 0 and 1 cut down to the lanes each part needs.
                let lanes = [
                    _mm512_shuffle_i64x2::<0x44>(q0, q1),
                    _mm512_shuffle_i64x2::<0x99>(q0, q1),
                    _mm512_shuffle_i64x2::<0xEE>(q0, q1),
                ];
                let mut written = 0;
                for (k, (weave, lanes)) in WEAVE.iter().zip(lanes).enumerate() {
                    let index = _mm512_loadu_si512(weave.as_ptr().cast());
                    let part = _mm512_permutex2var_epi8(lanes, index, q2);
                    let mut keep: u64 = _mm512_test_epi8_mask(part, part);
                    if !ok {
                        // Only the end of the character begun before.
                        if k > 0 {
                            break;
                        }
                        keep &= (1u64 << (3 * carried)) - 1;
                    }
                    _mm512_storeu_si512(
                        dst.add(written).cast(),
                        _mm512_maskz_compress_epi8(keep, part),
                    );
                    written += keep.count_ones() as usize;
                }
                len += written;
                if !ok {
                    i += carried;
                    return (i, len);
                }
                i += WIDE;
            }
            (i, len)
        }
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
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2"
    )]
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
        let sp = src.as_ptr();
        if n - i < 2 * WIDE {
            return (i, len);
        }
        // SAFETY (whole body): features as documented; loads are within
        // `src` (from `i - 1`, with `3 <= i`, to `i + 65 <= n`), stores
        // within the room reserved.
        unsafe {
            let (lo_t, hi_t) = (table(lo_t), table(hi_t));
            let (t_lead, t_cont, t_long) = (table(&HIGH_L2), table(&HIGH_CONT), table(&HIGH_LONG));
            let hex_table = table(b"0123456789abcdef");
            let (letters_lo, letters_hi) = (
                _mm512_loadu_si512(letters.as_ptr().cast()),
                _mm512_loadu_si512(letters.as_ptr().add(64).cast()),
            );
            let nibble = b(0x0F);
            let zero = _mm512_setzero_si512();
            // No window may start with a continuation byte (as in
            // `x86::planes_two`); each window's leads are checked against
            // the bytes after them, the byte after the window included.
            while n - i >= 2 * WIDE {
                if *sp.add(i) & 0xC0 == 0x80 {
                    break;
                }
                if out.capacity() - len < ROOM {
                    out.set_len(len);
                    out.reserve(ROOM);
                }
                let dst = out.as_mut_ptr().add(len);
                let c = _mm512_loadu_si512(sp.add(i).cast());
                let p1 = _mm512_loadu_si512(sp.add(i - 1).cast());
                let n1 = _mm512_loadu_si512(sp.add(i + 1).cast());
                let hc = high_nibble(c);
                let lead = _mm512_shuffle_epi8(t_lead, hc);
                let cont = _mm512_shuffle_epi8(t_cont, hc);
                let next_cont = _mm512_shuffle_epi8(t_cont, high_nibble(n1));
                let special: u64 = _mm512_test_epi8_mask(
                    _mm512_shuffle_epi8(lo_t, _mm512_and_si512(c, nibble)),
                    _mm512_shuffle_epi8(hi_t, hc),
                );
                // The letters of two-byte escapes, when there is a byte to
                // escape; a byte to escape without one is an error.
                let (letter, no_letter) = if special == 0 {
                    (zero, 0)
                } else {
                    let letter = _mm512_permutex2var_epi8(letters_lo, c, letters_hi);
                    (letter, special & _mm512_testn_epi8_mask(letter, letter))
                };
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
                // Two hex digits from the lead (before), one and a half
                // from the second byte.
                let x1 = _mm512_ternarylogic_epi32::<0xF8>(
                    _mm512_and_si512(_mm512_slli_epi16::<2>(p1), b(0x0C)),
                    hc,
                    b(0x03),
                );
                let na = _mm512_and_si512(_mm512_srli_epi16::<2>(p1), b(0x07));
                let mut q0 = _mm512_mask_mov_epi8(_mm512_shuffle_epi8(hex_table, na), !high, c);
                q0 = sel(lead, b(b'\\'), q0);
                let mut q1 = sel(lead, b(b'u'), _mm512_shuffle_epi8(hex_table, x1));
                q1 = _mm512_maskz_mov_epi8(high, q1);
                if special != 0 {
                    q0 = _mm512_mask_mov_epi8(q0, special, b(b'\\'));
                    q1 = _mm512_mask_mov_epi8(q1, special, letter);
                }
                let q2 = _mm512_and_si512(
                    sel(
                        lead,
                        b(b'0'),
                        _mm512_shuffle_epi8(hex_table, _mm512_and_si512(c, nibble)),
                    ),
                    _mm512_or_si512(lead, cont),
                );
                let lanes = [
                    _mm512_shuffle_i64x2::<0x44>(q0, q1),
                    _mm512_shuffle_i64x2::<0x99>(q0, q1),
                    _mm512_shuffle_i64x2::<0xEE>(q0, q1),
                ];
                let mut written = 0;
                for (weave, lanes) in WEAVE.iter().zip(lanes) {
                    let part = _mm512_permutex2var_epi8(
                        lanes,
                        _mm512_loadu_si512(weave.as_ptr().cast()),
                        q2,
                    );
                    let keep: u64 = _mm512_test_epi8_mask(part, part);
                    _mm512_storeu_si512(
                        dst.add(written).cast(),
                        _mm512_maskz_compress_epi8(keep, part),
                    );
                    written += keep.count_ones() as usize;
                }
                len += written;
                i += WIDE;
                // A lead at the window's end: its second byte goes with it
                // (it was checked above); the next window starts after it.
                if *sp.add(i - 1) >= 0xC0 {
                    let (lead_byte, second) = (u32::from(*sp.add(i - 1)), u32::from(*sp.add(i)));
                    let cp = (lead_byte & 0x1F) << 6 | (second & 0x3F);
                    let word = super::json_unit_word(cp) >> 24; // the last three digits
                    out.as_mut_ptr()
                        .add(len)
                        .cast::<u32>()
                        .write_unaligned((word as u32).to_le());
                    len += 3;
                    i += 1;
                }
            }
            (i, len)
        }
    }

    #[cfg(test)]
    mod tests {
        /// Every lead byte from 0x80 up with every second byte and a few
        /// third and fourth ones, against the scalar decoder and escaper.
        #[test]
        fn escape_char_matches_the_scalar_code() {
            if !super::super::dense_available() {
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
                            let mut got = [0u8; 16];
                            // SAFETY: the CPU has what the kernel needs
                            // (checked above), and 16 bytes are writable.
                            let r = unsafe { check(b, w, got.as_mut_ptr()) };
                            let expected = super::super::json_decode_word(w).map(|(cp, width)| {
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
        unsafe fn check(b: u8, w: u32, dst: *mut u8) -> Option<(usize, usize)> {
            // SAFETY: the caller's.
            unsafe { super::escape_char(b, w, dst) }
        }
    }
}

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

/// Window of the text kernels.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const TEXT_WINDOW: usize = 32;

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
        if start < end && s.len() >= start + TEXT_WINDOW + 3 && text_simd_available() {
            // SAFETY: AVX2 and POPCNT are available (checked just above);
            // `start < end <= s.len()`.
            let run = unsafe { x86_text::text_run_avx2(s, TextRun::at(start), end, utf8) };
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
        if s.len() >= TEXT_WINDOW && text_simd_available() {
            // SAFETY: AVX2 and POPCNT are available (checked just above).
            return unsafe { x86_text::plain_text_windows_avx2(s) };
        }
    }
    let _ = s;
    0
}

/// Counts the bytes of the window at `i` in `taken` (the bits of the
/// first bytes) into `run`: `newlines` and `cont` mark the window's
/// newlines and continuation bytes.
#[cfg(target_arch = "x86_64")]
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

/// Whether the CPU has AVX2 and POPCNT, for the text kernels; asked once.
#[cfg(target_arch = "x86_64")]
#[inline]
fn text_simd_available() -> bool {
    static KNOWN: AtomicU8 = AtomicU8::new(0);
    asked_once(&KNOWN, || {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    })
}

/// The AVX2 text kernels: [`text_run`]'s windows and
/// [`plain_text_windows`].
#[cfg(target_arch = "x86_64")]
mod x86_text {
    #[allow(clippy::wildcard_imports)]
    use std::arch::x86_64::*;

    use super::{TEXT_WINDOW as W, TextRun};

    // ASCII bytes that end a run, by nibble lookups: a byte stops the run
    // when its low nibble's entry and its high nibble's share a bit.
    // 0x01: 0x00..=0x08 and 0x0B..=0x0F; 0x02: 0x10..=0x1F; 0x04: `&`;
    // 0x08: `<`; 0x10: `]`; 0x20: the newline (plain text's fast path
    // only). Bytes from 0x80 up are none of these (high nibble 8..F).
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
    static STOP_HIGH_RUN: [u8; 16] = [
        0x01, 0x02, 0x04, 0x08, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];
    static STOP_HIGH_FAST: [u8; 16] = [
        0x21, 0x02, 0x04, 0x08, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    ];

    /// A 16-byte table in both lanes.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2 (the caller enables it).
    #[inline(always)]
    unsafe fn table(t: &[u8; 16]) -> __m256i {
        // SAFETY: the table is 16 bytes long; AVX2 as documented.
        unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(t.as_ptr().cast())) }
    }

    /// Bit `j` set where byte `j` of `v` is an ASCII byte with a bit in
    /// common between `low` and `high` (see [`STOP_LOW`]).
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2 (the caller enables it).
    #[inline(always)]
    unsafe fn stops(v: __m256i, low: __m256i, high: __m256i) -> u32 {
        // SAFETY: AVX2 as documented.
        unsafe {
            let nibble = _mm256_set1_epi8(0x0F);
            let class = _mm256_and_si256(
                _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble)),
                _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble)),
            );
            !mask(_mm256_cmpeq_epi8(class, _mm256_setzero_si256()))
        }
    }

    /// Bit `j` set for each byte `j` of `v` whose high bit is set.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2 (the caller enables it).
    #[inline(always)]
    unsafe fn mask(v: __m256i) -> u32 {
        // SAFETY: AVX2 as documented. The cast keeps all 32 bits.
        #[allow(clippy::cast_sign_loss)]
        unsafe {
            _mm256_movemask_epi8(v) as u32
        }
    }

    /// The windows of [`super::text_run`], counted on from `run`: from
    /// `run.at` (a character start) while a whole window and three bytes more are left, each
    /// window checked (stop bytes, Keiser and Lemire's UTF-8 errors three
    /// bytes ahead, U+FFFE and U+FFFF, the `end` limit) and taken whole when
    /// clean, a character crossing its end included; the window with
    /// something to stop at is taken up to the start of the character
    /// where the first problem is. Stops at the start of a character.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2 and POPCNT; `run.at < end <= s.len()`.
    #[target_feature(enable = "avx2,popcnt")]
    #[allow(clippy::cast_possible_wrap)] // byte constants as `i8` lanes
    pub(super) unsafe fn text_run_avx2(
        s: &[u8],
        mut run: TextRun,
        end: usize,
        utf8: bool,
    ) -> TextRun {
        let n = s.len();
        let p = s.as_ptr();
        let start = run.at;
        let mut i = start;
        // SAFETY (whole body): AVX2 and POPCNT as documented; every load is
        // of 32 bytes from `i + 3` at most, and `i + 35 <= n`.
        unsafe {
            let (low, high) = (table(&STOP_LOW), table(&STOP_HIGH_RUN));
            let kl = [
                table(&super::UTF8_BYTE_1_HIGH),
                table(&super::UTF8_BYTE_1_LOW),
                table(&super::UTF8_BYTE_2_HIGH),
            ];
            let zero = _mm256_setzero_si256();
            let newline = _mm256_set1_epi8(b'\n' as i8);
            let c0 = _mm256_set1_epi8(0xC0u8 as i8);
            let (ef, bf, one) = (
                _mm256_set1_epi8(0xEFu8 as i8),
                _mm256_set1_epi8(0xBFu8 as i8),
                _mm256_set1_epi8(1),
            );
            // Flags mark where to stop: before a character starting at the
            // bit, or the one that runs through it. UTF-8 errors, found on
            // the byte after a character's start at the earliest, are
            // marked a byte early. The window's first three bytes are
            // checked from a character start (the run's, or after an ASCII
            // window); other windows' were checked by the window before.
            let mut head = true;
            while i < end && i + W + 3 <= n {
                let v = _mm256_loadu_si256(p.add(i).cast());
                let high_bits = mask(v);
                let mut flags = u64::from(stops(v, low, high));
                let mut cont = 0;
                if !utf8 {
                    flags |= u64::from(high_bits);
                } else {
                    if head {
                        let before = _mm256_permute2x128_si256(v, v, 0x08);
                        let e = super::x86_wide::utf8_errors_256(
                            kl,
                            v,
                            _mm256_alignr_epi8(v, before, 15),
                            _mm256_alignr_epi8(v, before, 14),
                            _mm256_alignr_epi8(v, before, 13),
                        );
                        let e = !mask(_mm256_cmpeq_epi8(e, zero)) & 0b111;
                        flags |= u64::from((e >> 1) | (e & 1));
                    }
                    if high_bits != 0 {
                        let n1 = _mm256_loadu_si256(p.add(i + 1).cast());
                        let n2 = _mm256_loadu_si256(p.add(i + 2).cast());
                        let n3 = _mm256_loadu_si256(p.add(i + 3).cast());
                        let e = super::x86_wide::utf8_errors_256(kl, n3, n2, n1, v);
                        // (mostly clean: the mask only when needed)
                        if _mm256_testz_si256(e, e) == 0 {
                            flags |= u64::from(!mask(_mm256_cmpeq_epi8(e, zero))) << 2;
                        }
                        // EF BF BE or EF BF BF (U+FFFE, U+FFFF) begins here.
                        let nonchar = _mm256_and_si256(
                            _mm256_and_si256(_mm256_cmpeq_epi8(v, ef), _mm256_cmpeq_epi8(n1, bf)),
                            _mm256_cmpeq_epi8(_mm256_or_si256(n2, one), bf),
                        );
                        flags |= u64::from(mask(nonchar));
                        cont = mask(_mm256_cmpgt_epi8(c0, v));
                    }
                }
                // No character starts from `end` on.
                let room = end - i;
                if room < W {
                    flags |= 1 << room;
                }
                let newlines = mask(_mm256_cmpeq_epi8(v, newline));
                if flags == 0 {
                    super::take_window(&mut run, i, newlines, cont, u32::MAX);
                    i += W;
                    head = !utf8 || high_bits == 0;
                    continue;
                }
                // Up to the start of the character with the first problem
                // (a crossing character's continuation bytes are past 31).
                let first = flags.trailing_zeros().min(32);
                let starts = u64::from(!cont) | (u64::from(*p.add(i + W) & 0xC0 != 0x80) << 32);
                let before = starts & ((2u64 << first) - 1);
                let b = if before == 0 { 0 } else { before.ilog2() };
                let taken = if b == 32 { u32::MAX } else { (1u32 << b) - 1 };
                super::take_window(&mut run, i, newlines, cont, taken);
                i += b as usize;
                break;
            }
            // Back to the start of the character that a window taken whole
            // ended in (`head`: `i` is a start, as after an ASCII window or
            // where a window stopped past its first byte): its continuation
            // bytes before `i` were counted, and are again.
            if !head {
                let mut back = 0;
                while i - back > start && *p.add(i - back) & 0xC0 == 0x80 {
                    back += 1;
                }
                if back > 0 {
                    i -= back;
                    run.extra -= back - 1;
                }
            }
        }
        run.at = i;
        run
    }

    /// [`super::plain_text_windows`] with AVX2.
    ///
    /// # Safety
    ///
    /// The CPU must support AVX2 and POPCNT.
    #[target_feature(enable = "avx2,popcnt")]
    pub(super) unsafe fn plain_text_windows_avx2(s: &[u8]) -> usize {
        let p = s.as_ptr();
        let mut i = 0;
        // SAFETY: AVX2 as documented; each load is of the 32 bytes from
        // `i`, and `i + 32 <= s.len()`.
        unsafe {
            let (low, high) = (table(&STOP_LOW), table(&STOP_HIGH_FAST));
            while i + W <= s.len() {
                let v = _mm256_loadu_si256(p.add(i).cast());
                let other = stops(v, low, high) | mask(v);
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
    use super::*;

    /// The scalar reference: how many leading bytes are ASCII.
    fn ascii_prefix(src: &[u8]) -> usize {
        src.iter().position(|&b| b >= 0x80).unwrap_or(src.len())
    }

    #[test]
    fn copy_ascii_run_matches_the_scalar_scan() {
        for len in 0..if cfg!(miri) { 40 } else { 70 } {
            for bad in (0..len).chain([usize::MAX]) {
                for high in [0x80u8, 0xC3, 0xFF] {
                    let mut src: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                    if bad < len {
                        src[bad] = high;
                    }
                    let mut dst = vec![0u8; len];
                    let n = copy_ascii_run(&src, &mut dst);
                    let run = ascii_prefix(&src);
                    assert!(n <= run, "len {len} bad {bad}");
                    assert!(
                        n == run || len - n < STEP,
                        "len {len} bad {bad}: {n} of {run}"
                    );
                    assert_eq!(dst[..n], src[..n]);
                }
            }
        }
    }

    /// A conversion kernel: `(src, dst) -> (read, written)`.
    type Kernel = fn(&[u8], &mut [u8]) -> (usize, usize);

    /// The kernels of `utf8_run` this CPU can run, for a target holding
    /// `0..=MAX`, each with how close to the end it takes well-formed
    /// text: `utf8_run` itself, and on x86-64 each vector kernel alone.
    fn kernels<const MAX: u32>() -> Vec<(&'static str, Kernel, Option<usize>)> {
        let whole = ssse3().then_some(STEP);
        let mut all: Vec<(&'static str, Kernel, Option<usize>)> =
            vec![("utf8_run", utf8_run::<MAX>, whole)];
        #[cfg(target_arch = "x86_64")]
        {
            if ssse3() {
                all.push((
                    "ssse3",
                    |src, dst| {
                        // SAFETY: SSSE3 is available; `dst` is as long as
                        // `src`.
                        unsafe { x86::utf8_run_ssse3(src, dst, MAX == 0xFF) }
                    },
                    whole,
                ));
            }
            if dense_available() {
                all.push((
                    "avx512",
                    |src, dst| {
                        // SAFETY: every feature is available (checked
                        // just above); `dst` is as long as `src`.
                        unsafe { x86::utf8_run_avx512(src, dst, MAX == 0xFF) }
                    },
                    // The last window, and a character cut at its end.
                    Some(64 + 4),
                ));
            }
        }
        all
    }

    /// Whether `utf8_run` uses its SSSE3 kernel here.
    fn ssse3() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("ssse3")
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }

    /// The scalar reference for a kernel: what the reference decoder makes
    /// of the prefix the kernel consumed, and a character boundary where it
    /// stopped.
    fn check_kernel<const MAX: u32>(name: &str, kernel: Kernel, whole: Option<usize>, src: &[u8]) {
        let mut dst = vec![0u8; src.len()];
        let (read, written) = kernel(src, &mut dst);
        assert!(read <= src.len() && written <= read, "{name}");
        let target = if MAX == 0xFF {
            crate::decode::TargetEncoding::Iso8859_1
        } else {
            crate::decode::TargetEncoding::UsAscii
        };
        let mut expected = Vec::new();
        crate::decode::xml_utf8_decode_reference_into(&src[..read], target, &mut expected);
        assert_eq!(dst[..written], expected[..], "{name} on {src:02X?}");
        // It stops at a character boundary: decoding the rest from there
        // gives what decoding everything gives.
        let mut all = Vec::new();
        crate::decode::xml_utf8_decode_reference_into(src, target, &mut all);
        let mut rest = Vec::new();
        crate::decode::xml_utf8_decode_reference_into(&src[read..], target, &mut rest);
        assert_eq!(
            [&expected[..], &rest[..]].concat(),
            all,
            "{name} on {src:02X?} split at {read}"
        );
        // Well-formed text is taken whole, up to the last step (the scalar
        // fallback stops at the first non-ASCII byte).
        if let Some(left) = whole
            && std::str::from_utf8(src).is_ok()
        {
            assert!(
                src.len() - read < left,
                "{name} on {src:02X?} stopped at {read}"
            );
        }
    }

    fn check_utf8_run<const MAX: u32>(src: &[u8]) {
        for (name, kernel, whole) in kernels::<MAX>() {
            check_kernel::<MAX>(name, kernel, whole, src);
        }
    }

    /// Byte pairs, and three- and four-byte sequences from a lead byte from
    /// E0 or F0 on, placed at `lanes`, after each of `before`: where a
    /// 64-byte window ends, characters cut there are checked and written by
    /// the next. With `full`, every pair and every second byte; otherwise
    /// the bytes at the edges of the byte classes (later bytes always at
    /// those edges).
    fn window_edges(lanes: &[usize], before: &[&[u8]], full: bool) {
        let mut src = Vec::with_capacity(160);
        let mut check = |piece: &[u8]| {
            for &lane in lanes {
                for before in before {
                    src.clear();
                    src.resize(lane.saturating_sub(before.len()), b'a');
                    src.extend_from_slice(before);
                    src.extend_from_slice(piece);
                    src.resize(150, b'b');
                    check_utf8_run::<0xFF>(&src);
                    check_utf8_run::<0x7F>(&src);
                }
            }
        };
        let edges = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4,
            0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
        ];
        let bytes: Vec<u8> = if full {
            (0..=0xFF).collect()
        } else {
            edges.to_vec()
        };
        for &first in &bytes {
            for second in 0..=0xFFu8 {
                check(&[first, second]);
            }
        }
        let trails = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF0];
        for lead in 0xE0..=0xFFu8 {
            for &second in &bytes {
                for third in trails {
                    check(&[lead, second, third]);
                }
            }
        }
        // Four-byte leads with their fourth byte at the same edges.
        for lead in 0xF0..=0xFFu8 {
            for &second in &bytes {
                for third in [0x41, 0x80, 0xBF, 0xC0] {
                    for fourth in trails {
                        check(&[lead, second, third, fourth]);
                    }
                }
            }
        }
    }

    #[test]
    fn kernels_match_the_reference_at_window_edges() {
        let lanes: &[usize] = if cfg!(miri) { &[63] } else { &[61, 62, 63, 64] };
        window_edges(lanes, &[b"a"], false);
    }

    /// `cargo test --release --lib -- --ignored` (`.ci/run` does).
    #[test]
    #[ignore = "about ten million kernel calls: run in release"]
    fn kernels_match_the_reference_at_window_edges_on_every_pair() {
        window_edges(
            &[0, 1, 60, 61, 62, 63, 64, 65, 127],
            &[b"a", b"\xC3\xA9", b"\xE2\x82\xAC"],
            true,
        );
    }

    #[test]
    fn utf8_run_matches_the_reference() {
        let alphabet: &[&[u8]] = &[
            b"a",
            b" ",
            b"\xC3\xA9",
            b"\xC2\x80",
            b"\xC3\xBF",
            b"\xC2\xA0",
            b"\xD0\x96",
            b"\xE2\x82\xAC",
            b"\xC3",
            b"\x80",
            b"\xF0\x9F\x98\x80",
            b"\xC2A",
            b"\xDF\xBF",
            b"\xC1\xBF",
            b"\xE0\x80",
            b"\xDF",
            b"\xD0\xC0",
        ];
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        // Miri is slow: fewer shapes there (`cargo +nightly miri test`)
        for len in 0..if cfg!(miri) { 60 } else { 4000 } {
            let mut src = Vec::new();
            let ascii_bias = len % 3;
            while src.len() < len % 150 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let pick = (seed % 24) as usize;
                let piece = if pick < 8 * ascii_bias {
                    alphabet[pick % 2]
                } else {
                    alphabet[pick % alphabet.len()]
                };
                src.extend_from_slice(piece);
            }
            check_utf8_run::<0xFF>(&src);
            check_utf8_run::<0x7F>(&src);
        }
    }
}

#[cfg(test)]
mod text_tests {
    use super::{PLAIN_TEXT, TextRun, plain_text_windows, text_run, text_run_reference};
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
                            .chain([31, 32, 33, 64])
                            .collect();
                        check(&s, &ends);
                    }
                }
            }
        }
    }

    #[test]
    fn text_run_matches_the_reference_at_window_edges() {
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
