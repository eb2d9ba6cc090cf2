//! Whole-buffer conversion: PHP's `xml_utf8_decode()`, `utf8_decode()` and
//! `utf8_encode()`.

use super::inline::next_utf8_char;
use super::kernels::{STEP, copy_ascii_run, latin1_run, utf8_run};
use super::reference::next_utf8_char_reference;
use super::{NextChar, Status, TargetEncoding};

#[inline(always)]
fn decoded(c: NextChar) -> Option<u32> {
    match c.status {
        Status::Success => Some(c.code_point),
        Status::Failure => None,
    }
}

/// Converts the UTF-8 bytes `src` to `target` as PHP's `xml_utf8_decode()`
/// does, appending to `out`.
///
/// For ISO-8859-1 and US-ASCII every call of the decoder gives one byte: the
/// code point when the target holds it, `?` when it does not or when the
/// bytes are malformed (one `?` per malformed sequence, with PHP's widths).
/// For UTF-8 the bytes are copied unchanged and unvalidated, as in PHP.
///
/// `out` is only appended to, so a caller can reuse one buffer.
///
/// # Examples
///
/// ```
/// use phpxml::decode::{xml_utf8_decode_into, TargetEncoding};
///
/// let mut out = b"> ".to_vec();
/// xml_utf8_decode_into("café ₽".as_bytes(), TargetEncoding::Iso8859_1, &mut out);
/// assert_eq!(out, b"> caf\xE9 ?");
/// ```
pub fn xml_utf8_decode_into(src: &[u8], target: TargetEncoding, out: &mut Vec<u8>) {
    // Every arm ends in a call whose result is this one's, so nothing is
    // live across a call here and the short strings' path saves no
    // registers.
    match target {
        TargetEncoding::Utf8 => append(src, out),
        TargetEncoding::Iso8859_1 if src.len() <= SHORT => decode_short::<0xFF>(src, out),
        TargetEncoding::UsAscii if src.len() <= SHORT => decode_short::<0x7F>(src, out),
        TargetEncoding::Iso8859_1 | TargetEncoding::UsAscii => decode_long(src, target, out),
    }
}

/// [`xml_utf8_decode_into`] past [`SHORT`] bytes, and for non-ASCII
/// strings past 32 (out of line: the short strings' path needs no
/// registers saved for it).
#[inline(never)]
fn decode_long(src: &[u8], target: TargetEncoding, out: &mut Vec<u8>) {
    decode_until(src, src.len(), target, out);
}

/// The longest string [`decode_short`] takes: one AVX-512 window, where
/// the vector kernels' set-up (feature check, zeroed output, masks) costs
/// more than the conversion.
const SHORT: usize = 64;

/// [`xml_utf8_decode_into`] for a string of at most [`SHORT`] bytes and a
/// target that holds `0..=MAX`: an ASCII string (found a word at a time)
/// copied at once; any other up to 32 bytes converted by
/// [`decode_short_rest`] in a block its size (a smaller block is quicker
/// to clear), longer ones by the kernels.
#[inline(always)]
fn decode_short<const MAX: u32>(src: &[u8], out: &mut Vec<u8>) {
    if is_ascii_short(src) {
        append(src, out);
    } else if src.len() < 8 {
        decode_short_rest::<MAX, { 8 + 8 }>(src, out);
    } else if src.len() <= 16 {
        decode_short_rest::<MAX, { 16 + 8 }>(src, out);
    } else if src.len() <= 32 {
        decode_short_rest::<MAX, { 32 + 8 }>(src, out);
    } else {
        // Past 32 bytes the kernels win: the character loop's branches
        // on where the next non-ASCII byte falls mispredict (French, 64
        // bytes: 1.53 s against 0.84 for 30 million calls).
        decode_long(
            src,
            if MAX == 0xFF {
                TargetEncoding::Iso8859_1
            } else {
                TargetEncoding::UsAscii
            },
            out,
        );
    }
}

/// `out.extend_from_slice(src)`, out of line (see
/// [`xml_utf8_decode_into`]). Up to 16 bytes, with room in `out`: the
/// string as two words from overlapping loads, stored whole and cut (no
/// call of `memcpy`, no registers saved, nothing stored and read back).
#[inline(never)]
fn append(src: &[u8], out: &mut Vec<u8>) {
    let (n, len) = (src.len(), out.len());
    if n > 16 || out.capacity() - len < 16 {
        return append_long(src, out);
    }
    let word = |at: usize| u64::from_le_bytes(src[at..at + 8].try_into().expect("eight bytes"));
    let half = |at: usize| {
        u64::from(u32::from_le_bytes(
            src[at..at + 4].try_into().expect("four bytes"),
        ))
    };
    let (low, high) = if n >= 8 {
        // bytes 8.. at the bottom of the second word (none at 8 bytes)
        (
            word(0),
            word(n - 8).checked_shr(8 * (16 - n) as u32).unwrap_or(0),
        )
    } else if n >= 4 {
        (half(0) | (half(n - 4) << (8 * (n - 4))), 0)
    } else if n > 0 {
        // the first, the middle and the last byte (the same one more than
        // once under three bytes)
        let byte = |at: usize| u64::from(src[at]) << (8 * at);
        (byte(0) | byte(n / 2) | byte(n - 1), 0)
    } else {
        return;
    };
    let both = u128::from(low) | (u128::from(high) << 64);
    out.extend_from_slice(&both.to_le_bytes());
    out.truncate(len + n);
}

/// [`append`] through `memcpy`.
#[inline(never)]
fn append_long(src: &[u8], out: &mut Vec<u8>) {
    out.extend_from_slice(src);
}

/// [`decode_short`] for a string of at most `BUF - 8` bytes with a
/// non-ASCII byte: converted by [`convert_short`] straight into `out`
/// when it has room for `BUF` more bytes (grown by a zeroed block of
/// constant size, then cut), into a stack buffer copied out otherwise.
/// Writing in place spares the copy and the reload of bytes just stored
/// (a load that spans several stores waits for them to reach the cache).
#[inline(never)]
fn decode_short_rest<const MAX: u32, const BUF: usize>(src: &[u8], out: &mut Vec<u8>) {
    let len = out.len();
    if out.capacity() - len < BUF {
        return decode_short_buffered::<MAX, BUF>(src, out);
    }
    out.extend_from_slice(&[0; BUF]);
    let dst = out.last_chunk_mut::<BUF>().expect("BUF bytes just added");
    match convert_short::<MAX, BUF>(src, dst) {
        Ok(written) => out.truncate(len + written),
        Err((read, written)) => {
            out.truncate(len + written);
            decode_short_tail::<MAX>(src, read, out);
        }
    }
}

/// [`decode_short_rest`] without room in `out`: through a stack buffer.
#[inline(never)]
fn decode_short_buffered<const MAX: u32, const BUF: usize>(src: &[u8], out: &mut Vec<u8>) {
    let mut buf = [0; BUF];
    let (read, written) = match convert_short::<MAX, BUF>(src, &mut buf) {
        Ok(written) => (src.len(), written),
        Err(stop) => stop,
    };
    out.reserve(written + src.len() - read);
    out.extend_from_slice(&buf[..written]);
    decode_short_tail::<MAX>(src, read, out);
}

/// Converts `src` (at most `BUF - 8` bytes, `BUF - 8` a power of two)
/// into `dst` and returns the bytes written; or, at a character of three
/// or four bytes or a malformed sequence, `Err` of where it stopped in
/// `src` and the bytes written before. ASCII goes a word at a time
/// (stored whole, the output moving on by the ASCII bytes in it), a
/// two-byte character (Latin-1's letters) in line: no call, so no
/// registers saved.
#[inline(always)]
fn convert_short<const MAX: u32, const BUF: usize>(
    src: &[u8],
    dst: &mut [u8; BUF],
) -> Result<usize, (usize, usize)> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let n = src.len();
    // `o <= i < n <= BUF - 8`: a byte or a word stored at `o & mask` fits,
    // and the mask only spares the bounds checks.
    let mask = BUF - 8 - 1;
    let (mut i, mut o) = (0, 0);
    while i < n {
        let b = src[i];
        if b < 0x80 {
            let w = if BUF <= 16 {
                // under eight bytes: one at a time, fewer registers
                dst[o & mask] = b;
                i += 1;
                o += 1;
                continue;
            } else if let Some(word) = src.get(i..i + 8) {
                u64::from_le_bytes(word.try_into().expect("eight bytes"))
            } else if n >= 8 {
                // the last word, shifted down to start at `i`: zeros
                // (ASCII) past the end, taken back below
                let last = u64::from_le_bytes(src[n - 8..].try_into().expect("eight bytes"));
                last >> (8 * (i + 8 - n))
            } else {
                dst[o & mask] = b;
                i += 1;
                o += 1;
                continue;
            };
            let at = o & mask;
            dst[at..at + 8].copy_from_slice(&w.to_le_bytes());
            // `b` is ASCII, so the run is one to eight bytes (no high bit:
            // 64 trailing zeros)
            let run = (w & HIGH).trailing_zeros() as usize / 8;
            i += run;
            o += run;
            continue;
        }
        let byte = match src.get(i + 1) {
            // U+0080..=U+00FF into ISO-8859-1: the continuation byte, plus
            // 0x40 after C3
            Some(&next) if MAX == 0xFF && b & 0xFE == 0xC2 && next & 0xC0 == 0x80 => {
                next + ((b & 1) << 6)
            }
            Some(&next) if b.wrapping_sub(0xC2) <= 0xDF - 0xC2 && next & 0xC0 == 0x80 => {
                narrow::<MAX>((u32::from(b & 0x1F) << 6) | u32::from(next & 0x3F))
            }
            _ => return Err((i, o)),
        };
        dst[o & mask] = byte;
        i += 2;
        o += 1;
    }
    // A word read past the end counted its zeros.
    Ok(o - (i - n))
}

/// The end of [`decode_short_rest`] from `from` (a character of three or
/// four bytes or a malformed sequence, or the end): a character at a time.
#[inline(never)]
fn decode_short_tail<const MAX: u32>(src: &[u8], from: usize, out: &mut Vec<u8>) {
    out.reserve(src.len() - from);
    let mut i = from;
    while let Some(&b) = src.get(i) {
        let (byte, width) = if b < 0x80 {
            (b, 1)
        } else {
            decode_one::<MAX>(src, i)
        };
        out.push(byte);
        i += width;
    }
}

/// Whether `src` (at most [`SHORT`] bytes) is all ASCII: words of eight,
/// the last one overlapping the one before; under eight bytes, two
/// overlapping words of four, or the first, middle and last byte.
#[inline(always)]
fn is_ascii_short(src: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |at: usize| u64::from_le_bytes(src[at..at + 8].try_into().expect("eight bytes"));
    let half = |at: usize| u32::from_le_bytes(src[at..at + 4].try_into().expect("four bytes"));
    let n = src.len();
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            if word(i) & HIGH != 0 {
                return false;
            }
            i += 8;
        }
        return word(n - 8) & HIGH == 0;
    }
    if n >= 4 {
        return (half(0) | half(n - 4)) & 0x8080_8080 == 0;
    }
    if n == 0 {
        return true;
    }
    (src[0] | src[n / 2] | src[n - 1]) < 0x80
}

/// Converts the UTF-8 bytes `src` to `target` as PHP's `xml_utf8_decode()`
/// does; see [`xml_utf8_decode_into`].
///
/// ```
/// use phpxml::decode::{xml_utf8_decode, TargetEncoding};
///
/// assert_eq!(xml_utf8_decode("é\u{1F600}".as_bytes(), TargetEncoding::UsAscii), b"??");
/// assert_eq!(xml_utf8_decode(b"\xFF", TargetEncoding::Utf8), b"\xFF");
/// ```
#[must_use]
pub fn xml_utf8_decode(src: &[u8], target: TargetEncoding) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len());
    xml_utf8_decode_into(src, target, &mut out);
    out
}

/// The plain reference for [`xml_utf8_decode_into`]: one call of the
/// out-of-line reference decoder per character, one byte pushed per call.
///
/// Kept public as the oracle and the baseline of the benchmarks.
pub fn xml_utf8_decode_reference_into(src: &[u8], target: TargetEncoding, out: &mut Vec<u8>) {
    if target == TargetEncoding::Utf8 {
        out.extend_from_slice(src);
        return;
    }
    let mut pos = 0;
    while pos < src.len() {
        let c = next_utf8_char_reference(src, pos);
        out.push(target.map(decoded(c)));
        pos = c.cursor;
    }
}

/// PHP's `utf8_decode()`: UTF-8 to ISO-8859-1, `?` for what does not fit
/// and for each malformed sequence. Appends to `out`.
pub fn utf8_decode_into(src: &[u8], out: &mut Vec<u8>) {
    xml_utf8_decode_into(src, TargetEncoding::Iso8859_1, out);
}

/// PHP's `utf8_decode()`: UTF-8 to ISO-8859-1, `?` for what does not fit
/// and for each malformed sequence.
///
/// ```
/// // The vectors of PHP's bug49687.phpt.
/// assert_eq!(phpxml::decode::utf8_decode(b"\x41\xC2\x3E\x42"), b"\x41\x3F\x3E\x42");
/// assert_eq!(phpxml::decode::utf8_decode(b"\xE3\x80\x22"), b"\x3F\x22");
/// ```
#[must_use]
pub fn utf8_decode(src: &[u8]) -> Vec<u8> {
    xml_utf8_decode(src, TargetEncoding::Iso8859_1)
}

/// Decodes every character that starts before `limit`, reading as far past
/// it as that character needs, and returns where decoding stopped (at or
/// after `limit`; ASCII may be taken past it).
///
/// With `limit == src.len()` this is the whole conversion; the stream
/// decoder passes a smaller limit so that no character is decoded without
/// all the bytes the decoder could look at.
pub(super) fn decode_until(
    src: &[u8],
    limit: usize,
    target: TargetEncoding,
    out: &mut Vec<u8>,
) -> usize {
    let start = out.len();
    // One byte out per character in: the output never outgrows the input.
    out.resize(start + src.len(), 0);
    let (reached, written) = decode_until_into(src, limit, target, &mut out[start..]);
    out.truncate(start + written);
    reached
}

/// [`decode_until`] into the start of `dst`, which must be at least as long
/// as `src`; returns where decoding stopped and the bytes written.
pub(super) fn decode_until_into(
    src: &[u8],
    limit: usize,
    target: TargetEncoding,
    dst: &mut [u8],
) -> (usize, usize) {
    match target {
        TargetEncoding::Iso8859_1 => decode_until_max::<0xFF>(src, limit, dst),
        TargetEncoding::UsAscii => decode_until_max::<0x7F>(src, limit, dst),
        TargetEncoding::Utf8 => unreachable!("UTF-8 is copied, not decoded"),
    }
}

/// The target byte for the non-ASCII character at `i`, and its width.
///
/// With four bytes in view the sequence is classified from one
/// little-endian word; near the end, and for anything malformed, the inline
/// decoder decides (and with it the reference).
#[inline(always)]
fn decode_one<const MAX: u32>(src: &[u8], i: usize) -> (u8, usize) {
    if let Some(window) = src.get(i..i + 4) {
        let w = u32::from_le_bytes(window.try_into().expect("four bytes"));
        let lead = w & 0xFF;
        if w & 0xC0E0 == 0x80C0 && lead >= 0xC2 {
            let cp = ((lead & 0x1F) << 6) | ((w >> 8) & 0x3F);
            return (narrow::<MAX>(cp), 2);
        }
        if w & 0x00C0_C0F0 == 0x0080_80E0 {
            let cp = ((lead & 0x0F) << 12) | (((w >> 8) & 0x3F) << 6) | ((w >> 16) & 0x3F);
            if cp >= 0x800 && cp & 0xF800 != 0xD800 {
                return (narrow::<MAX>(cp), 3);
            }
        } else if w & 0xC0C0_C0F8 == 0x8080_80F0 {
            let cp = ((lead & 0x07) << 18)
                | (((w >> 8) & 0x3F) << 12)
                | (((w >> 16) & 0x3F) << 6)
                | ((w >> 24) & 0x3F);
            if cp.wrapping_sub(0x1_0000) < 0x10_0000 {
                return (narrow::<MAX>(cp), 4);
            }
        }
    }
    let c = next_utf8_char(src, i);
    let byte = match c.status {
        Status::Success => narrow::<MAX>(c.code_point),
        Status::Failure => b'?',
    };
    (byte, c.cursor - i)
}

/// A code point as a byte of a target that holds `0..=MAX`, or `?`.
#[inline(always)]
fn narrow<const MAX: u32>(code_point: u32) -> u8 {
    if code_point <= MAX {
        // The guard makes the cast lossless.
        code_point as u8
    } else {
        b'?'
    }
}

/// [`decode_until`] for a target that holds the code points `0..=MAX`.
#[inline(always)]
fn decode_until_max<const MAX: u32>(src: &[u8], limit: usize, dst: &mut [u8]) -> (usize, usize) {
    let dst = &mut dst[..src.len()];
    let (mut i, mut o) = (0, 0);
    'runs: while i < limit {
        if src.len() - i >= STEP {
            let (read, written) = utf8_run::<MAX>(&src[i..], &mut dst[o..]);
            i += read;
            o += written;
        }
        // The vector kernel stopped at a malformed sequence or near the
        // end. This scalar loop takes over, and hands back when the next
        // bytes look like text again: two ASCII bytes, or a lead byte after
        // a character.
        while i < limit {
            let b = src[i];
            if b < 0x80 {
                dst[o] = b;
                i += 1;
                o += 1;
                if src.get(i).is_some_and(|&next| next < 0x80) && src.len() - i >= STEP {
                    continue 'runs;
                }
                continue;
            }
            let (byte, width) = decode_one::<MAX>(src, i);
            dst[o] = byte;
            o += 1;
            i += width;
            if src
                .get(i)
                .is_some_and(|&next| next.wrapping_sub(0xC2) <= 0xF4 - 0xC2)
                && src.len() - i >= STEP
            {
                continue 'runs;
            }
        }
    }
    (i, o)
}

/// PHP's `utf8_encode()`: ISO-8859-1 bytes to UTF-8, appending to `out`.
pub fn utf8_encode_into(src: &[u8], out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + 2 * src.len(), 0);
    let written = utf8_encode_to_slice(src, &mut out[start..]);
    out.truncate(start + written);
}

/// PHP's `utf8_encode()` into a buffer the caller keeps (no zeroing, no
/// growth): writes the UTF-8 of the ISO-8859-1 bytes `src` at the start of
/// `dst` and returns its length. Bytes of `dst` past that may be
/// overwritten.
///
/// ```
/// let mut buf = [0u8; 8];
/// let n = phpxml::decode::utf8_encode_to_slice(b"caf\xE9", &mut buf);
/// assert_eq!(&buf[..n], "café".as_bytes());
/// ```
///
/// # Panics
///
/// If `dst` is shorter than twice `src` (the longest the UTF-8 can be).
pub fn utf8_encode_to_slice(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(
        dst.len() / 2 >= src.len(),
        "utf8_encode_to_slice needs twice the input's length"
    );
    // The vector kernels take all but the last step; the scalar loop, the
    // rest (and everything where no kernel runs).
    let (mut i, mut o) = latin1_run(src, dst);
    while i < src.len() {
        let run = copy_ascii_run(&src[i..], &mut dst[o..]);
        i += run;
        o += run;
        while let Some(&b) = src.get(i) {
            i += 1;
            if b < 0x80 {
                dst[o] = b;
                o += 1;
                if src.len() - i >= STEP {
                    break;
                }
            } else {
                dst[o] = 0xC0 | (b >> 6);
                dst[o + 1] = 0x80 | (b & 0x3F);
                o += 2;
            }
        }
    }
    o
}

/// PHP's `utf8_encode()`: ISO-8859-1 bytes to UTF-8.
///
/// ```
/// assert_eq!(phpxml::decode::utf8_encode(b"caf\xE9"), "café".as_bytes());
/// ```
#[must_use]
pub fn utf8_encode(src: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(src.len() + src.len() / 2);
    utf8_encode_into(src, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length around the short path's bounds, with a non-ASCII
    /// character, a malformed byte or a cut sequence at every position:
    /// the short path and the vector path give the reference's bytes.
    #[test]
    fn short_strings_agree_with_the_reference() {
        let inserts: [&[u8]; 6] = [
            b"\xC3\xA9",
            "₽".as_bytes(),
            "😀".as_bytes(),
            b"\xFF",
            b"\xE2\x82",
            b"\x80",
        ];
        let mut checked = 0;
        for len in 0..=SHORT + 9 {
            for insert in inserts {
                for at in 0..=len {
                    let mut src: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                    if at < len {
                        src.splice(at..at, insert.iter().copied());
                    }
                    for target in [TargetEncoding::Iso8859_1, TargetEncoding::UsAscii] {
                        let mut expected = b"x".to_vec();
                        xml_utf8_decode_reference_into(&src, target, &mut expected);
                        let mut out = b"x".to_vec();
                        xml_utf8_decode_into(&src, target, &mut out);
                        assert_eq!(out, expected, "{src:?} to {target}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 30_000, "{checked} strings");
    }

    /// The sequences of one to four bytes the short path is checked
    /// with: every byte, and every lead class followed by every class of
    /// second, third and fourth byte (each continuation range that E0, ED,
    /// F0 and F4 treat apart, ASCII, leads and bytes never valid).
    fn sequences() -> Vec<Vec<u8>> {
        let mut all: Vec<Vec<u8>> = (0..=0xFF).map(|b| vec![b]).collect();
        let seconds = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC3, 0xFF,
        ];
        for lead in [
            0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xDF, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
        ] {
            for second in seconds {
                all.push(vec![lead, second]);
            }
        }
        for lead in [0xE0, 0xE1, 0xE2, 0xED, 0xEE, 0xEF] {
            for second in [0x41, 0x80, 0x9F, 0xA0, 0xBF] {
                for third in [0x41, 0x80, 0xBF, 0xC3] {
                    all.push(vec![lead, second, third]);
                }
            }
        }
        for lead in [0xF0, 0xF1, 0xF3, 0xF4, 0xF5] {
            for second in [0x41, 0x80, 0x8F, 0x90, 0xBF] {
                for third in [0x41, 0x80, 0xBF] {
                    for fourth in [0x41, 0x80, 0xBF] {
                        all.push(vec![lead, second, third, fourth]);
                    }
                }
            }
        }
        all
    }

    /// Buffers reused by [`Splices::check`].
    #[derive(Default)]
    struct Splices {
        src: Vec<u8>,
        expected: Vec<u8>,
        out: Vec<u8>,
        checked: usize,
    }

    impl Splices {
        /// `filler[..len]` with `sequence` spliced in at `at` and cut to
        /// `len` bytes: the short path and the reference agree on it for
        /// each target.
        fn check(
            &mut self,
            filler: &[u8],
            sequence: &[u8],
            at: usize,
            len: usize,
            targets: &[TargetEncoding],
        ) {
            self.src.clear();
            self.src.extend_from_slice(&filler[..at]);
            self.src.extend_from_slice(sequence);
            self.src.extend_from_slice(&filler[at..len]);
            self.src.truncate(len);
            for &target in targets {
                self.expected.clear();
                xml_utf8_decode_reference_into(&self.src, target, &mut self.expected);
                self.out.clear();
                xml_utf8_decode_into(&self.src, target, &mut self.out);
                assert_eq!(self.out, self.expected, "{:02X?} to {target}", self.src);
                self.checked += 1;
            }
        }
    }

    /// Every sequence of [`sequences`] at every offset of every string
    /// of 0 to [`SHORT`] bytes (cut short where it runs past the end),
    /// amid ASCII and amid French text (whose letters the splice may cut):
    /// the short path gives the reference's bytes for both targets.
    #[test]
    fn every_short_string_shape_agrees_with_the_reference() {
        let ascii: Vec<u8> = (0..SHORT).map(|k| b'a' + (k % 26) as u8).collect();
        let french: Vec<u8> = "café été à noël ".bytes().cycle().take(SHORT).collect();
        let sequences = sequences();
        let mut splices = Splices::default();
        for sequence in &sequences {
            for filler in [&ascii, &french] {
                for len in 0..=SHORT {
                    for at in 0..len {
                        splices.check(
                            filler,
                            sequence,
                            at,
                            len,
                            &[TargetEncoding::Iso8859_1, TargetEncoding::UsAscii],
                        );
                    }
                }
            }
        }
        assert!(sequences.len() > 700, "{} sequences", sequences.len());
        assert!(splices.checked > 6_000_000, "{} strings", splices.checked);
    }

    /// Every sequence of two bytes at the offsets around a word's end
    /// (where the short path switches between a word and its last
    /// bytes), in strings of the lengths around its blocks' sizes.
    #[test]
    fn every_byte_pair_agrees_with_the_reference_at_word_ends() {
        let filler: Vec<u8> = (0..SHORT).map(|k| b'a' + (k % 26) as u8).collect();
        let mut splices = Splices::default();
        for first in 0..=0xFF {
            for second in 0..=0xFF {
                for len in [2, 3, 7, 8, 9, 16, 17, 24, 32, 33, 63, 64] {
                    for at in [0, 6, 7, 8, 14, 15, len - 2, len - 1] {
                        if at < len {
                            splices.check(
                                &filler,
                                &[first, second],
                                at,
                                len,
                                &[TargetEncoding::Iso8859_1],
                            );
                        }
                    }
                }
            }
        }
        assert!(splices.checked > 3_000_000, "{} strings", splices.checked);
    }

    #[test]
    fn is_ascii_short_finds_any_high_byte() {
        for len in 0..=SHORT {
            let ascii = vec![b'q'; len];
            assert!(is_ascii_short(&ascii), "length {len}");
            for at in 0..len {
                let mut s = ascii.clone();
                s[at] = 0x80;
                assert!(!is_ascii_short(&s), "length {len}, high byte at {at}");
            }
        }
    }
}
