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
    match target {
        TargetEncoding::Utf8 => out.extend_from_slice(src),
        TargetEncoding::Iso8859_1 | TargetEncoding::UsAscii => {
            decode_until(src, src.len(), target, out);
        }
    }
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
