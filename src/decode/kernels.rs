//! Fast kernels: the crate's only `unsafe` code, each kernel tested against
//! a scalar reference.
//!
//! * [`copy_ascii_run`]: ASCII runs copied sixteen bytes at a time, in safe
//!   word-at-a-time code (a high-bit test on a little-endian `u128`).
//! * [`utf8_run`]: ASCII and well-formed two-byte sequences (U+0080 to
//!   U+07FF: Latin-1, Greek, Cyrillic, Hebrew, Arabic...) converted sixteen
//!   input bytes at a time with SSSE3, detected at run time; elsewhere it
//!   falls back to [`copy_ascii_run`].

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
/// `src` must start at a character boundary. Up to sixteen bytes past the
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
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8,
        _mm_loadl_epi64, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
        _mm_shuffle_epi8, _mm_slli_epi16, _mm_srli_si128, _mm_storel_epi64, _mm_storeu_si128,
    };

    use super::STEP;

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

    /// The scalar reference for `utf8_run`: what the reference decoder
    /// makes of the prefix the kernel consumed.
    fn check_utf8_run<const MAX: u32>(src: &[u8]) {
        let mut dst = vec![0u8; src.len()];
        let (read, written) = utf8_run::<MAX>(src, &mut dst);
        assert!(read <= src.len());
        let target = if MAX == 0xFF {
            crate::decode::TargetEncoding::Iso8859_1
        } else {
            crate::decode::TargetEncoding::UsAscii
        };
        let mut expected = Vec::new();
        crate::decode::xml_utf8_decode_reference_into(&src[..read], target, &mut expected);
        assert_eq!(dst[..written], expected[..], "{src:02X?}");
        // It stops at a character boundary: decoding the rest from there
        // gives what decoding everything gives.
        let mut whole = Vec::new();
        crate::decode::xml_utf8_decode_reference_into(src, target, &mut whole);
        let mut rest = Vec::new();
        crate::decode::xml_utf8_decode_reference_into(&src[read..], target, &mut rest);
        assert_eq!(
            [&expected[..], &rest[..]].concat(),
            whole,
            "{src:02X?} split at {read}"
        );
        // Well-formed text is taken whole, up to the last step (by the
        // SSSE3 kernel; the fallback stops at the first non-ASCII byte).
        if ssse3() && std::str::from_utf8(src).is_ok() {
            assert!(src.len() - read < STEP, "{src:02X?} stopped at {read}");
        }
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
