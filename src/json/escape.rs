//! PHP's `php_json_escape_string()`: one string to a JSON string literal.

use super::kernels::json_escape_run;
use super::number::{Number, numeric_string, write_double, write_int};
use super::scan::{Clean, STEP, first_dirty_after, first_dirty_with, short_is_clean};
use super::{JsonError, JsonFlags};
use crate::decode::{Status, next_utf8_char, next_utf8_char_reference};

/// Strings at least this long go through the vector kernel first.
const KERNEL_MIN: usize = 64;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Each byte's two lower-case hex digits, as one little-endian word.
static HEX_PAIRS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = HEX[b >> 4] as u16 | (HEX[b & 15] as u16) << 8;
        b += 1;
    }
    t
};

/// `\uXXXX` for one UTF-16 unit, lower-case hex as PHP writes it.
#[inline(always)]
fn unit(u: u32) -> [u8; 6] {
    let h = |shift: u32| HEX[((u >> shift) & 0xF) as usize];
    [b'\\', b'u', h(12), h(8), h(4), h(0)]
}

/// Appends `\uXXXX` for the BMP code point `cp` (below 0x10000) with
/// one 8-byte write cut back to six: two table look-ups, no loop.
#[inline(always)]
fn write_bmp_unit(cp: u32, out: &mut Vec<u8>) {
    out.extend_from_slice(&json_unit_word(cp).to_le_bytes());
    out.truncate(out.len() - 2);
}

/// `\uXXXX` for one UTF-16 unit in the low six bytes of a little-endian
/// word. The vector kernels' too.
#[inline(always)]
pub(crate) fn json_unit_word(u: u32) -> u64 {
    debug_assert!(u < 0x1_0000);
    u64::from(u16::from_le_bytes(*b"\\u"))
        | u64::from(HEX_PAIRS[(u >> 8) as usize & 0xFF]) << 16
        | u64::from(HEX_PAIRS[u as usize & 0xFF]) << 32
}

/// Appends `\uXXXX` for a BMP code point or a surrogate pair above it.
#[inline(always)]
fn write_code_point(cp: u32, out: &mut Vec<u8>) {
    if cp >= 0x1_0000 {
        let v = cp - 0x1_0000;
        let (high, low) = (unit(0xD800 | (v >> 10)), unit(0xDC00 | (v & 0x3FF)));
        let mut pair = [0u8; 12];
        pair[..6].copy_from_slice(&high);
        pair[6..].copy_from_slice(&low);
        out.extend_from_slice(&pair);
    } else {
        write_bmp_unit(cp, out);
    }
}

/// What is written for U+FFFD under `JSON_INVALID_UTF8_SUBSTITUTE`.
fn replacement(flags: JsonFlags) -> &'static [u8] {
    if flags.contains(JsonFlags::UNESCAPED_UNICODE) {
        "\u{FFFD}".as_bytes()
    } else {
        b"\\ufffd"
    }
}

/// What PHP writes for a malformed sequence under `flags`: nothing
/// (`JSON_INVALID_UTF8_IGNORE`), U+FFFD (`JSON_INVALID_UTF8_SUBSTITUTE`),
/// else the encoding fails.
fn write_malformed(flags: JsonFlags, out: &mut Vec<u8>) -> Result<(), JsonError> {
    if flags.contains(JsonFlags::INVALID_UTF8_IGNORE) {
        Ok(())
    } else if flags.contains(JsonFlags::INVALID_UTF8_SUBSTITUTE) {
        out.extend_from_slice(replacement(flags));
        Ok(())
    } else {
        Err(JsonError::Utf8)
    }
}

/// Are U+2028 and U+2029 copied as they are?
fn line_terminators_raw(flags: JsonFlags) -> bool {
    flags.contains(JsonFlags::UNESCAPED_UNICODE | JsonFlags::UNESCAPED_LINE_TERMINATORS)
}

/// Appends the JSON form of `src` to `out` as PHP 8.2's
/// `php_json_escape_string()` does: the string a `json_encode()` of a PHP
/// string gives.
///
/// * The empty string is `""`.
/// * With [`JsonFlags::NUMERIC_CHECK`], a string PHP considers numeric
///   (`"12"`, `" 1.5e3 "`, `".5"`, but not `"0x1A"` or `"1e"`) is written as
///   a number: an integer, or a float in PHP's shortest form (`1.0e+25`).
///   Numbers that overflow to infinity stay strings.
/// * `"` `\` `/` and control characters are escaped (`\"`, `\\`, `\/`,
///   `\b` `\f` `\n` `\r` `\t`, else `\u00XX`); the `HEX_*` flags turn
///   `< > & ' "` into `\u003C` `\u003E` `\u0026` `\u0027` `\u0022`, and
///   [`JsonFlags::UNESCAPED_SLASHES`] leaves `/` alone.
/// * Other characters are written as `\uXXXX` (surrogate pairs above
///   U+FFFF, lower-case hex), or copied as UTF-8 with
///   [`JsonFlags::UNESCAPED_UNICODE`], except U+2028 and U+2029 which also
///   need [`JsonFlags::UNESCAPED_LINE_TERMINATORS`].
/// * Malformed UTF-8 is decoded as PHP's `php_next_utf8_char()` does (see
///   [`crate::decode`]): each malformed sequence is dropped with
///   [`JsonFlags::INVALID_UTF8_IGNORE`], becomes one U+FFFD with
///   [`JsonFlags::INVALID_UTF8_SUBSTITUTE`], and otherwise fails the
///   whole string.
///
/// Strings of up to 16 clean bytes are checked and quoted with a few
/// fixed-size word operations. Longer ones go through the vector kernel of
/// `json::kernels` (AVX2, and AVX-512 where the CPU has it: 32-byte
/// windows, and 64-byte ones for text written as `\uXXXX`; escapes and
/// `\uXXXX` written by vector shuffles and compresses), and what it leaves (malformed UTF-8, the last bytes, CPUs
/// without AVX2) through a scalar loop that finds runs of clean bytes
/// sixteen bytes at a time and decodes characters with the inline decoder
/// [`crate::decode::next_utf8_char`]. The result is identical to
/// [`escape_string_reference`].
///
/// # Errors
///
/// [`JsonError::Utf8`] when `src` is not well-formed UTF-8 and neither
/// `INVALID_UTF8_*` flag is set. `out` is then as it was, or, with
/// [`JsonFlags::PARTIAL_OUTPUT_ON_ERROR`], has `null` appended: what
/// `json_encode()` returns in that case.
///
/// # Examples
///
/// ```
/// use phpxml::json::{escape_string, JsonError, JsonFlags};
///
/// let mut out = Vec::new();
/// escape_string("Grüße </b> 😀".as_bytes(), JsonFlags::NONE, &mut out)?;
/// assert_eq!(out, br#""Gr\u00fc\u00dfe <\/b> \ud83d\ude00""#);
///
/// out.clear();
/// let flags = JsonFlags::UNESCAPED_UNICODE | JsonFlags::INVALID_UTF8_SUBSTITUTE;
/// escape_string(b"a\xE0\x80\x80b", flags, &mut out)?;
/// assert_eq!(out, "\"a\u{FFFD}b\"".as_bytes()); // one U+FFFD: PHP's widths
///
/// out.clear();
/// escape_string(b" 1e3", JsonFlags::NUMERIC_CHECK, &mut out)?;
/// assert_eq!(out, b"1000");
///
/// out.clear();
/// let err = escape_string(b"\xFF", JsonFlags::PARTIAL_OUTPUT_ON_ERROR, &mut out);
/// assert_eq!((err, &out[..]), (Err(JsonError::Utf8), &b"null"[..]));
/// # Ok::<(), JsonError>(())
/// ```
pub fn escape_string(src: &[u8], flags: JsonFlags, out: &mut Vec<u8>) -> Result<(), JsonError> {
    // Short clean strings, as most names and values are, quoted whole.
    if !flags.contains(JsonFlags::NUMERIC_CHECK) && quote_short(src, Clean::new(flags), out) {
        return Ok(());
    }
    escape_with(src, flags, out, escape_body)
}

/// Appends `src` in quotes when it is 1 to [`STEP`] bytes long and every
/// byte is clean under `clean`, with fixed-size reads (overlapping words,
/// or the first, middle and last byte below 4) and writes; `false`
/// (nothing written) otherwise.
#[inline(always)]
fn quote_short(src: &[u8], clean: &Clean, out: &mut Vec<u8>) -> bool {
    let n = src.len();
    if n == 0 || n > STEP || !short_is_clean(src, clean) {
        return false;
    }
    let start = out.len();
    if n <= 8 {
        // `"`, the bytes, `"` in one 16-byte write.
        let x = if n >= 4 {
            let lo = u32::from_le_bytes(src[..4].try_into().expect("4 bytes"));
            let hi = u32::from_le_bytes(src[n - 4..].try_into().expect("4 bytes"));
            u64::from(lo) | u64::from(hi) << (8 * (n - 4))
        } else {
            u64::from(src[0])
                | u64::from(src[n / 2]) << (8 * (n / 2))
                | u64::from(src[n - 1]) << (8 * (n - 1))
        };
        let quoted = u128::from(b'"') | u128::from(x) << 8 | u128::from(b'"') << (8 * (n + 1));
        out.extend_from_slice(&quoted.to_le_bytes());
        out.truncate(start + n + 2);
    } else {
        let lo = u64::from_le_bytes(src[..8].try_into().expect("8 bytes"));
        let hi = u64::from_le_bytes(src[n - 8..].try_into().expect("8 bytes"));
        let x = u128::from(lo) | u128::from(hi) << (8 * (n - 8));
        out.push(b'"');
        out.extend_from_slice(&x.to_le_bytes());
        out.truncate(start + 1 + n);
        out.push(b'"');
    }
    true
}

/// The plain reference for [`escape_string`], with the same result: one
/// character at a time through
/// [`crate::decode::next_utf8_char_reference`], each written on its own,
/// in the order of PHP's loop.
///
/// Kept public as the oracle of the tests and the baseline of the
/// benchmarks.
///
/// # Errors
///
/// As [`escape_string`].
///
/// # Examples
///
/// ```
/// use phpxml::json::{escape_string, escape_string_reference, JsonFlags};
///
/// let (mut fast, mut plain) = (Vec::new(), Vec::new());
/// let input = b"x\xF0\x80\x80\x41\xE2\x80\xA8\"";
/// let flags = JsonFlags::INVALID_UTF8_SUBSTITUTE;
/// assert_eq!(escape_string(input, flags, &mut fast), escape_string_reference(input, flags, &mut plain));
/// assert_eq!(fast, plain);
/// assert_eq!(plain, br#""x\ufffdA\u2028\"""#);
/// ```
pub fn escape_string_reference(
    src: &[u8],
    flags: JsonFlags,
    out: &mut Vec<u8>,
) -> Result<(), JsonError> {
    escape_with(src, flags, out, escape_body_reference)
}

/// The frame both escapers share: the empty string, the numeric check,
/// the quotes, and rewinding on failure.
#[inline(always)]
fn escape_with(
    src: &[u8],
    flags: JsonFlags,
    out: &mut Vec<u8>,
    body: impl FnOnce(&[u8], JsonFlags, &mut Vec<u8>) -> Result<(), JsonError>,
) -> Result<(), JsonError> {
    if src.is_empty() {
        out.extend_from_slice(b"\"\"");
        return Ok(());
    }
    if flags.contains(JsonFlags::NUMERIC_CHECK) {
        match numeric_string(src) {
            Some(Number::Int(value)) => {
                write_int(value, out);
                return Ok(());
            }
            Some(Number::Float(value)) if value.is_finite() => {
                write_double(
                    value,
                    flags.contains(JsonFlags::PRESERVE_ZERO_FRACTION),
                    out,
                );
                return Ok(());
            }
            _ => {}
        }
    }
    let checkpoint = out.len();
    // The quotes, and room for the fixed-size copies of `flush` past the
    // end of the output.
    out.reserve(src.len() + 2 + STEP);
    out.push(b'"');
    match body(src, flags, out) {
        Ok(()) => {
            out.push(b'"');
            Ok(())
        }
        Err(err) => {
            out.truncate(checkpoint);
            if flags.contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR) {
                out.extend_from_slice(b"null");
            }
            Err(err)
        }
    }
}

/// An escape of at most six bytes in the low bytes of a little-endian
/// word, its length in the top byte.
const fn json_escape_word(escape: &[u8]) -> u64 {
    let mut word = (escape.len() as u64) << 56;
    let mut k = 0;
    while k < escape.len() {
        word |= (escape[k] as u64) << (8 * k);
        k += 1;
    }
    word
}

/// The escape of each ASCII byte, as [`json_escape_word`] makes them,
/// whatever the flags; which bytes are escaped is the caller's choice.
/// `"` is `\"` here; `\u0022` with `JSON_HEX_QUOT` is [`JSON_QUOT_HEX`].
/// (0 for the bytes never escaped.) The vector kernels' too.
pub(crate) static JSON_ESCAPES: [u64; 128] = {
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
};

/// `\u0022` with its length, for `JSON_HEX_QUOT`.
pub(crate) const JSON_QUOT_HEX: u64 = json_escape_word(b"\\u0022");

/// The escape of an ASCII byte that is not clean under the flags: one
/// table word, one 8-byte write cut back to its length.
#[inline(always)]
fn write_ascii_escape(b: u8, flags: JsonFlags, out: &mut Vec<u8>) {
    let word = if b == b'"' && flags.contains(JsonFlags::HEX_QUOT) {
        JSON_QUOT_HEX
    } else {
        JSON_ESCAPES[usize::from(b & 0x7F)]
    };
    debug_assert!(word != 0, "{b:#x} is never escaped");
    out.extend_from_slice(&word.to_le_bytes());
    out.truncate(out.len() - (8 - (word >> 56) as usize));
}

/// Appends `src[from..to]`, a run of clean bytes. Runs up to a step long
/// are copied as one fixed 16-byte piece when `src` has the bytes, and the
/// excess cut off again: cheaper than a copy of variable length.
#[inline(always)]
fn flush(src: &[u8], from: usize, to: usize, out: &mut Vec<u8>) {
    let n = to - from;
    if n == 0 {
        return;
    }
    if n <= STEP
        && let Some(chunk) = src.get(from..from + STEP)
    {
        let chunk: &[u8; STEP] = chunk.try_into().expect("a step");
        out.extend_from_slice(chunk);
        out.truncate(out.len() - (STEP - n));
    } else {
        out.extend_from_slice(&src[from..to]);
    }
}

/// The fast body. `src[run..i]` is clean and not yet written: clean ASCII
/// met one byte at a time and (with `JSON_UNESCAPED_UNICODE`) well-formed
/// characters only move `i`; whatever needs writing first flushes the run.
/// ASCII text goes to [`scan_ascii`], sixteen bytes at a time.
#[inline(always)]
fn escape_body(src: &[u8], flags: JsonFlags, out: &mut Vec<u8>) -> Result<(), JsonError> {
    // One copy of the loop for each way of writing characters, so that
    // the choice is not made again for every character.
    if flags.contains(JsonFlags::UNESCAPED_UNICODE) {
        escape_body_as::<true>(src, flags, out)
    } else {
        escape_body_as::<false>(src, flags, out)
    }
}

#[inline(always)]
fn escape_body_as<const RAW_UNICODE: bool>(
    src: &[u8],
    flags: JsonFlags,
    out: &mut Vec<u8>,
) -> Result<(), JsonError> {
    let clean = Clean::new(flags);
    // Short and clean, as most names and values are: one test, one copy.
    if src.len() <= STEP && short_is_clean(src, clean) {
        out.extend_from_slice(src);
        return Ok(());
    }
    let mut i = 0;
    if src.len() >= KERNEL_MIN {
        let kernel = clean.kernel(flags);
        loop {
            i = json_escape_run(src, i, out, &kernel);
            if src.len() - i < KERNEL_MIN {
                break;
            }
            // The kernel stopped at malformed UTF-8, or is not available.
            let c = next_utf8_char(src, i);
            if c.status == Status::Success {
                break;
            }
            write_malformed(flags, out)?;
            i = c.cursor;
        }
    }
    let raw_terminators = line_terminators_raw(flags);
    let mut run = i;
    while let Some(&b) = src.get(i) {
        if b < 0x80 {
            if clean.ascii(b) {
                i += 1;
                // Another ASCII byte next: ASCII text, worth the kernel.
                if src.get(i).is_some_and(|&next| next < 0x80) && src.len() >= STEP {
                    i = match clean.width() {
                        2 => scan_ascii::<2, RAW_UNICODE>(
                            &clean.specials(),
                            src,
                            i,
                            &mut run,
                            flags,
                            out,
                        ),
                        3 => scan_ascii::<3, RAW_UNICODE>(
                            &clean.specials(),
                            src,
                            i,
                            &mut run,
                            flags,
                            out,
                        ),
                        _ => scan_ascii::<7, RAW_UNICODE>(
                            &clean.specials(),
                            src,
                            i,
                            &mut run,
                            flags,
                            out,
                        ),
                    };
                }
            } else {
                flush(src, run, i, out);
                write_ascii_escape(b, flags, out);
                i += 1;
                run = i;
            }
            continue;
        }
        // Non-ASCII text: characters one after another in this loop.
        if !RAW_UNICODE {
            // Every character is written (as `\uXXXX`, or malformed):
            // the clean run ends here.
            flush(src, run, i, out);
            i = escape_non_ascii(src, i, clean, flags, out)?;
            run = i;
            continue;
        }
        loop {
            let c = next_utf8_char(src, i);
            match c.status {
                Status::Success => {
                    let cp = c.code_point;
                    if !raw_terminators && (cp == 0x2028 || cp == 0x2029) {
                        flush(src, run, i, out);
                        write_code_point(cp, out);
                        run = c.cursor;
                    }
                }
                Status::Failure => {
                    flush(src, run, i, out);
                    write_malformed(flags, out)?;
                    run = c.cursor;
                }
            }
            i = c.cursor;
            if src.get(i).is_none_or(|&next| next < 0x80) {
                break;
            }
        }
    }
    flush(src, run, src.len(), out);
    Ok(())
}

/// Bytes [`escape_non_ascii`] gathers before it appends them to the output.
const PIECE: usize = 128;

/// Writes the characters from `src[i]` (at least 0x80) on as `\uXXXX`, as
/// PHP's loop does without `JSON_UNESCAPED_UNICODE`, with the single
/// clean ASCII bytes between them (the spaces between words), and returns
/// where it stopped: at the end, or at an ASCII byte that is not clean or
/// is followed by another ASCII byte. Two-byte characters (the whole of
/// Cyrillic, Greek, Hebrew and Arabic, and Latin accents) are decoded
/// here as `php_next_utf8_char()` does them (lead C2..DF, one
/// continuation byte) and gathered in a piece on the stack, appended
/// with one fixed-size copy; the rest go through [`next_utf8_char`].
#[inline(always)]
fn escape_non_ascii(
    src: &[u8],
    mut i: usize,
    clean: &Clean,
    flags: JsonFlags,
    out: &mut Vec<u8>,
) -> Result<usize, JsonError> {
    // An accent in Latin text goes straight out; a run of characters
    // (a word of Cyrillic, Greek) is worth a piece.
    i = escape_character(src, i, flags, out)?;
    if src.get(i).is_none_or(|&next| next < 0x80) {
        return Ok(i);
    }
    let mut piece = [0u8; PIECE];
    let mut len = 0;
    loop {
        match *src.get(i..).unwrap_or_default() {
            [lead, trail, ..] if lead.wrapping_sub(0xC2) < 0x1E && trail.cast_signed() < -64 => {
                let cp = (u32::from(lead & 0x1F) << 6) | u32::from(trail & 0x3F);
                if len > PIECE - 8 {
                    append_piece(&piece, len, out);
                    len = 0;
                }
                piece[len..len + 8].copy_from_slice(&json_unit_word(cp).to_le_bytes());
                len += 6;
                i += 2;
            }
            [b, next, ..] if b < 0x80 => {
                // A clean byte between two characters: kept in the piece.
                if next < 0x80 || !clean.ascii(b) {
                    break;
                }
                if len == PIECE {
                    append_piece(&piece, len, out);
                    len = 0;
                }
                piece[len] = b;
                len += 1;
                i += 1;
            }
            [b, ..] if b < 0x80 => break,
            [] => break,
            _ => {
                append_piece(&piece, len, out);
                len = 0;
                i = escape_character(src, i, flags, out)?;
            }
        }
    }
    append_piece(&piece, len, out);
    Ok(i)
}

/// Writes the character at `src[i]` (at least 0x80) as `\uXXXX` (or as
/// `flags` say for malformed UTF-8) and returns where the next one is.
#[inline(always)]
fn escape_character(
    src: &[u8],
    i: usize,
    flags: JsonFlags,
    out: &mut Vec<u8>,
) -> Result<usize, JsonError> {
    if let [lead, trail, ..] = *src.get(i..).unwrap_or_default()
        && lead.wrapping_sub(0xC2) < 0x1E
        && trail.cast_signed() < -64
    {
        write_bmp_unit((u32::from(lead & 0x1F) << 6) | u32::from(trail & 0x3F), out);
        return Ok(i + 2);
    }
    let c = next_utf8_char(src, i);
    match c.status {
        Status::Success => write_code_point(c.code_point, out),
        Status::Failure => write_malformed(flags, out)?,
    }
    Ok(c.cursor)
}

/// Appends `piece[..len]`: the whole piece (a copy of fixed size), cut
/// back.
#[inline(always)]
fn append_piece(piece: &[u8; PIECE], len: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(piece);
    out.truncate(out.len() - (PIECE - len));
}

/// Goes through ASCII text from `i` on, sixteen bytes at a time (the last
/// bytes as the end of the last sixteen of `src`, `src` being at least
/// [`STEP`] long), escaping the ASCII bytes that need it (and flushing the
/// run before each), and the two-byte characters met alone (written as
/// `\uXXXX`, or kept in the run with `RAW_UNICODE`); clean bytes stay in
/// the run. Returns where it stopped: at another byte from 0x80 up, or at
/// the end.
#[inline(always)]
fn scan_ascii<const N: usize, const RAW_UNICODE: bool>(
    specials: &[u8; N],
    src: &[u8],
    mut i: usize,
    run: &mut usize,
    flags: JsonFlags,
    out: &mut Vec<u8>,
) -> usize {
    debug_assert!(src.len() >= STEP);
    loop {
        if let Some(chunk) = src.get(i..i + STEP) {
            let k = first_dirty_with(chunk.try_into().expect("a step"), specials);
            i += k;
            if k == STEP {
                continue;
            }
        } else {
            // Fewer than a step left: the last step, its bytes before `i`
            // (gone through already) left out.
            let last = src.len() - STEP;
            if i >= src.len() {
                break;
            }
            let chunk = src[last..].try_into().expect("a step");
            let k = first_dirty_after(chunk, specials, i - last);
            if k == STEP {
                i = src.len();
                break;
            }
            i = last + k;
        }
        let b = src[i];
        if b >= 0x80 {
            // A two-byte character alone in ASCII text (an accent), as
            // `php_next_utf8_char()` decodes it; anything else is left to
            // the caller.
            match *src.get(i + 1..).unwrap_or_default() {
                [trail, ref next @ ..]
                    if b.wrapping_sub(0xC2) < 0x1E
                        && trail.cast_signed() < -64
                        && next.first().is_none_or(|&next| next < 0x80) =>
                {
                    if !RAW_UNICODE {
                        flush(src, *run, i, out);
                        write_bmp_unit((u32::from(b & 0x1F) << 6) | u32::from(trail & 0x3F), out);
                        *run = i + 2;
                    }
                    i += 2;
                    continue;
                }
                _ => break,
            }
        }
        flush(src, *run, i, out);
        write_ascii_escape(b, flags, out);
        i += 1;
        *run = i;
    }
    i
}

/// The reference body: PHP's loop, one character at a time.
fn escape_body_reference(src: &[u8], flags: JsonFlags, out: &mut Vec<u8>) -> Result<(), JsonError> {
    let has = |flag| flags.contains(flag);
    let mut pos = 0;
    while pos < src.len() {
        let b = src[pos];
        if b >= 0x80 {
            let c = next_utf8_char_reference(src, pos);
            if c.status == Status::Failure {
                if has(JsonFlags::INVALID_UTF8_IGNORE) {
                    // dropped
                } else if has(JsonFlags::INVALID_UTF8_SUBSTITUTE) {
                    out.extend_from_slice(replacement(flags));
                } else {
                    return Err(JsonError::Utf8);
                }
            } else if has(JsonFlags::UNESCAPED_UNICODE)
                && (has(JsonFlags::UNESCAPED_LINE_TERMINATORS)
                    || !(0x2028..=0x2029).contains(&c.code_point))
            {
                out.extend_from_slice(&src[pos..c.cursor]);
            } else {
                write_code_point(c.code_point, out);
            }
            pos = c.cursor;
            continue;
        }
        pos += 1;
        match b {
            b'"' if has(JsonFlags::HEX_QUOT) => out.extend_from_slice(b"\\u0022"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'/' if has(JsonFlags::UNESCAPED_SLASHES) => out.push(b'/'),
            b'/' => out.extend_from_slice(b"\\/"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0C => out.extend_from_slice(b"\\f"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'<' if has(JsonFlags::HEX_TAG) => out.extend_from_slice(b"\\u003C"),
            b'>' if has(JsonFlags::HEX_TAG) => out.extend_from_slice(b"\\u003E"),
            b'&' if has(JsonFlags::HEX_AMP) => out.extend_from_slice(b"\\u0026"),
            b'\'' if has(JsonFlags::HEX_APOS) => out.extend_from_slice(b"\\u0027"),
            0..0x20 => {
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 0xF)]);
            }
            _ => out.push(b),
        }
    }
    Ok(())
}

#[cfg(test)]
mod kernel_tests {
    use super::*;

    /// Runs the vector kernel alone from 0 and checks what it wrote against
    /// the reference escaper on the part it consumed, and where it stopped.
    fn check(src: &[u8], flags: JsonFlags) {
        let kernel = Clean::new(flags).kernel(flags);
        let mut out = b"xy".to_vec();
        let stop = json_escape_run(src, 0, &mut out, &kernel);
        let mut expected = b"xy".to_vec();
        let reference = escape_string_reference(&src[..stop], flags, &mut expected);
        if stop > 0 {
            assert_eq!(reference, Ok(()), "{src:02X?} {flags}");
            expected.remove(2);
            expected.pop();
        } else {
            expected = b"xy".to_vec();
        }
        assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&expected),
            "{src:02X?} {flags} stop {stop}"
        );
        assert_eq!(out, expected);
        // The kernel's window: AVX2's, or NEON's on aarch64.
        #[cfg(target_arch = "x86_64")]
        let window = std::arch::is_x86_feature_detected!("avx2").then_some(32);
        #[cfg(target_arch = "aarch64")]
        let window = Some(16);
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let window = None;
        let Some(window) = window else {
            return;
        };
        // It stops only near the end, at malformed UTF-8, or (AVX2 alone,
        // NEON) at a window of dense non-ASCII text to write as `\uXXXX`.
        if src.len() - stop >= KERNEL_MIN {
            let c = next_utf8_char_reference(src, stop);
            let dense = !flags.contains(JsonFlags::UNESCAPED_UNICODE)
                && src[stop..stop + window]
                    .iter()
                    .filter(|&&b| b >= 0x80)
                    .count()
                    >= window / 2;
            assert!(
                c.status == Status::Failure || dense,
                "{src:02X?} {flags} stop {stop}"
            );
        } else {
            assert!(
                stop + KERNEL_MIN + 3 >= src.len(),
                "{src:02X?} {flags} stop {stop}"
            );
        }
    }

    const FLAG_SETS: [u32; 8] = [
        0,
        256,
        256 | 2048,
        64 | 15,
        256 | 64 | 15,
        1 | 8,
        256 | 2,
        256 | 2048 | 4,
    ];

    #[test]
    fn kernel_matches_the_reference_at_every_offset() {
        let pieces: &[&[u8]] = &[
            b"\"",
            b"\\",
            b"/",
            b"<",
            b">",
            b"&",
            b"'",
            b"\x00",
            b"\x08",
            b"\n",
            b"\x1F",
            b"\x7F",
            "é".as_bytes(),
            "߿".as_bytes(),
            "€".as_bytes(),
            "\u{2028}".as_bytes(),
            "\u{2029}".as_bytes(),
            "\u{FFFF}".as_bytes(),
            "😀".as_bytes(),
            "\u{10FFFF}".as_bytes(),
            b"\xC3",
            b"\x80",
            b"\xE2\x80",
            b"\xF0\x9F\x98",
            b"\xC0\x80",
            b"\xE0\x80\xAF",
            b"\xED\xA0\x80",
            b"\xF0\x8F\xBF\xBF",
            b"\xF4\x90\x80\x80",
            b"\xF5\x80",
            b"\xF5\x80\x80\x80",
            b"\xF8\x88\x80\x80",
            b"\xFF",
            b"\xE2\x80\xA8\xA9",
        ];
        for bits in FLAG_SETS {
            let flags = JsonFlags::from_bits(bits);
            for piece in pieces {
                for at in 0..70 {
                    for len in [64, 65, 67, 70, 96, 100, 131] {
                        if at + piece.len() > len {
                            continue;
                        }
                        let mut src = vec![b'a'; len];
                        src[at..at + piece.len()].copy_from_slice(piece);
                        check(&src, flags);
                        // The same with another piece right after, and
                        // multibyte text around.
                        let mut dense: Vec<u8> = "жё".repeat(len / 4).into_bytes();
                        dense.truncate(at - at % 2);
                        dense.extend_from_slice(piece);
                        dense.extend_from_slice("字😀x".repeat(8).as_bytes());
                        check(&dense, flags);
                    }
                }
            }
        }
    }

    #[test]
    fn kernel_matches_the_reference_on_random_text() {
        let alphabet: &[&[u8]] = &[
            b"a",
            b" ",
            b"/",
            b"\"",
            b"\n",
            b"<",
            b"&",
            b"'",
            b"\\",
            b"\x01",
            "é".as_bytes(),
            "Ж".as_bytes(),
            "字".as_bytes(),
            "😀".as_bytes(),
            "\u{2028}".as_bytes(),
            b"\xC3",
            b"\xE2\x82",
            b"\xFF",
            b"\xED\xA0\x80",
        ];
        let mut rng = crate::test_rng::XorShift::new(0x2545_F491_4F6C_DD1D);
        for round in 0..20_000 {
            let mut src = Vec::new();
            let target = 64 + round % 200;
            let bias = round % 4;
            while src.len() < target {
                let k = (rng.next_u64() >> 32) as usize;
                let piece = match bias {
                    0 => alphabet[k % alphabet.len()],
                    1 => {
                        alphabet[if k.is_multiple_of(8) {
                            k / 8 % alphabet.len()
                        } else {
                            0
                        }]
                    }
                    2 => alphabet[10 + k % 4],
                    _ => {
                        alphabet[if k.is_multiple_of(16) {
                            k / 16 % alphabet.len()
                        } else {
                            10 + k % 4
                        }]
                    }
                };
                src.extend_from_slice(piece);
            }
            let flags = JsonFlags::from_bits(FLAG_SETS[round % FLAG_SETS.len()]);
            check(&src, flags);
        }
    }
}

#[cfg(test)]
mod dense_tests {
    use super::*;

    /// Text of four-, three- and two-byte characters (the 64-byte windows
    /// of the AVX-512 kernel, and text copied as it is) behind an ASCII
    /// prefix
    /// of every length, so that characters cross window ends at every
    /// phase, with a piece (a special, a character of another length,
    /// malformed or cut sequences, stray continuation bytes after a whole
    /// character) at every character boundary of the first 160 bytes.
    /// The whole escaper against the reference: result and output.
    fn check_whole(src: &[u8], flags: JsonFlags) {
        let (mut fast, mut plain) = (Vec::new(), Vec::new());
        let r1 = escape_string(src, flags, &mut fast);
        let r2 = escape_string_reference(src, flags, &mut plain);
        assert_eq!(r1, r2, "{src:02X?} {flags}");
        assert_eq!(
            String::from_utf8_lossy(&fast),
            String::from_utf8_lossy(&plain),
            "{src:02X?} {flags}"
        );
    }

    #[test]
    fn wide_windows_match_the_reference() {
        let pieces: &[&[u8]] = &[
            b"",
            b" ",
            b"\"",
            b"<",
            "\u{2764}\u{FE0F}".as_bytes(),
            "\u{10FFFF}".as_bytes(),
            b"\xF0\x9F\x98",
            b"\xF0\x9F\x98\x80\x80\x80",
            b"\xF0\x90\x90\x80\x80\x90\x80\x80",
            b"\xF0\x8F\xBF\xBF",
            b"\xF4\x90\x80\x80",
            b"\xF5\x80\x80\x80",
            b"\xF8\x88\x80\x80",
            b"\xED\xA0\x80",
            b"\xFF",
            b"\x80",
            b"\xE5\xAD",
            b"\xE5\xAD\x97\x80\x80",
            "é".as_bytes(),
            b"\xC3",
            b"\xC3\xA9\x80",
            b"\xC0\x80",
            b"\xC1\xBF",
            b"/",
            b"\\",
            b"\n",
            "\u{2028}".as_bytes(),
            "\u{2029}".as_bytes(),
        ];
        let texts = [
            "😀🎉 👍🚀🐘 📦🔥".repeat(24),
            "日本語の文書、解析 する。한국어".repeat(12),
            "съешь же ещё этих мягких булок, да выпей чаю ".repeat(6),
            "près du mälström où brûlent les novæ ".repeat(8),
        ];
        for (text, flags) in texts.iter().flat_map(|text| {
            [
                JsonFlags::NONE,
                JsonFlags::INVALID_UTF8_IGNORE | JsonFlags::HEX_TAG,
                JsonFlags::INVALID_UTF8_SUBSTITUTE,
                JsonFlags::UNESCAPED_UNICODE,
                JsonFlags::UNESCAPED_UNICODE
                    | JsonFlags::UNESCAPED_LINE_TERMINATORS
                    | JsonFlags::INVALID_UTF8_SUBSTITUTE,
            ]
            .map(|flags| (text, flags))
        }) {
            for prefix in 0..64 {
                for piece in pieces {
                    for at in (0..160).filter(|&at| text.is_char_boundary(at)) {
                        let mut src = vec![b'a'; prefix];
                        src.extend_from_slice(&text.as_bytes()[..at]);
                        src.extend_from_slice(piece);
                        src.extend_from_slice(&text.as_bytes()[at..]);
                        check_whole(&src, flags);
                    }
                }
            }
        }
    }

    /// Dense multibyte text (the AVX-512 windows) with a four-byte
    /// character, a special and a malformed sequence at every offset, so
    /// that characters cross window ends in every way and windows fail
    /// after carrying a character's tail.
    #[test]
    fn dense_windows_match_the_reference() {
        let fillers: [&str; 7] = ["ж", "字", "😀", "éa", "ж字", "aé/b\"", "😀ж字x"];
        let pieces: &[&[u8]] = &[
            "😀".as_bytes(),
            "\u{10FFFF}".as_bytes(),
            "\u{10000}".as_bytes(),
            "\u{FFFF}".as_bytes(),
            "\u{800}".as_bytes(),
            "\u{80}".as_bytes(),
            b"\"",
            b"/",
            b"\x01",
            b"\xFF",
            b"\xC3",
            b"\xF0\x9F\x98",
            b"\xED\xA0\x80",
            b"\xE0\x9F\xBF",
            b"\xF0\x8F\xBF\xBF",
            b"\xF4\x90\x80\x80",
            b"\xC1\xBF",
            b"\x80\x80",
            // Continuation bytes past a whole character, and after a lead
            // that is malformed on its own.
            b"\xF0\x9F\x98\x80\x80\x80",
            b"\xF0\x90\x90\x80\x80\x90\x80\x80",
            b"\xF5\x80\x80\x80",
            b"\xD0\xB6\x80",
            b"\xC3\xA9\x80\x80",
        ];
        for flags in [
            JsonFlags::NONE,
            JsonFlags::INVALID_UTF8_SUBSTITUTE,
            JsonFlags::INVALID_UTF8_IGNORE,
            JsonFlags::HEX_QUOT | JsonFlags::UNESCAPED_SLASHES,
            JsonFlags::HEX_TAG | JsonFlags::INVALID_UTF8_SUBSTITUTE,
        ] {
            for filler in fillers {
                for piece in pieces {
                    for at in 0..100 {
                        let text = filler.repeat(80);
                        let mut cut = at;
                        while !text.is_char_boundary(cut) {
                            cut -= 1;
                        }
                        let mut src = text.as_bytes()[..cut].to_vec();
                        src.extend_from_slice(piece);
                        src.extend_from_slice(filler.repeat(40).as_bytes());
                        check_whole(&src, flags);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod every_byte_tests {
    use super::*;

    /// The flags that change how a string is escaped, alone and together.
    const FLAG_SETS: [u32; 12] = [
        0,
        15,              // JSON_HEX_*
        64,              // JSON_UNESCAPED_SLASHES
        256,             // JSON_UNESCAPED_UNICODE
        256 | 2048,      // and JSON_UNESCAPED_LINE_TERMINATORS
        512,             // JSON_PARTIAL_OUTPUT_ON_ERROR
        1 << 20,         // JSON_INVALID_UTF8_IGNORE
        1 << 21,         // JSON_INVALID_UTF8_SUBSTITUTE
        (1 << 21) | 256, // substituted, copied
        (1 << 20) | 15 | 64,
        (1 << 21) | 512 | 15,
        4 | 128, // JSON_HEX_AMP, JSON_PRETTY_PRINT (read by neither)
    ];

    /// Every byte value at every position of strings of 0 to 80 bytes made
    /// of ASCII, of two-byte characters (words of them, and one alone),
    /// of three-byte characters, or a mix: the fast escaper and the
    /// reference give the same bytes and the same result.
    #[test]
    fn every_byte_at_every_position_matches_the_reference() {
        let fillers: [&[u8]; 6] = [
            b"abcdefgh",
            "жёлтый ".as_bytes(),
            "да\u{0436}".as_bytes(),
            "près ".as_bytes(),
            "字é/a".as_bytes(),
            "ж\"ж<ж".as_bytes(),
        ];
        let (mut fast, mut plain) = (Vec::new(), Vec::new());
        for bits in FLAG_SETS {
            let flags = JsonFlags::from_bits(bits);
            for filler in fillers {
                for len in 0..=80 {
                    let base: Vec<u8> = filler.iter().copied().cycle().take(len).collect();
                    for at in 0..len {
                        for b in 0..=255u8 {
                            let mut src = base.clone();
                            src[at] = b;
                            fast.clear();
                            fast.extend_from_slice(b"[1,");
                            plain.clone_from(&fast);
                            let r1 = escape_string(&src, flags, &mut fast);
                            let r2 = escape_string_reference(&src, flags, &mut plain);
                            assert_eq!(r1, r2, "{src:02X?} {flags}");
                            assert_eq!(fast, plain, "{src:02X?} {flags}");
                        }
                    }
                    if len == 0 {
                        fast.clear();
                        plain.clear();
                        let r1 = escape_string(&base, flags, &mut fast);
                        let r2 = escape_string_reference(&base, flags, &mut plain);
                        assert_eq!((r1, &fast), (r2, &plain));
                    }
                }
            }
        }
    }
}
