//! The strict reference decoder: PHP's `php_next_utf8_char()`, one
//! character at a time, with no tricks.
//!
//! This is both the oracle every fast path is tested against and the cold
//! fallback the inline decoder calls for anything invalid or truncated.

use super::{NextChar, Status};

/// Can `byte` start a character, or stand alone as ASCII?
///
/// PHP stops a failed sequence at the first byte that could begin a valid
/// one, so the width of a failure depends on this test, not on Unicode's
/// "maximal subpart" rule.
#[inline]
pub(crate) const fn is_lead(byte: u8) -> bool {
    byte < 0x80 || (byte >= 0xC2 && byte <= 0xF4)
}

/// Is `byte` a continuation byte (`80..=BF`)?
#[inline]
pub(crate) const fn is_trail(byte: u8) -> bool {
    byte >= 0x80 && byte <= 0xBF
}

const fn fail(cursor: usize, advance: usize) -> NextChar {
    NextChar {
        code_point: 0,
        cursor: cursor + advance,
        status: Status::Failure,
    }
}

const fn success(code_point: u32, cursor: usize, width: usize) -> NextChar {
    NextChar {
        code_point,
        cursor: cursor + width,
        status: Status::Success,
    }
}

/// Decodes the character at `cursor` exactly as PHP's
/// `php_next_utf8_char()` does.
///
/// On success the code point and the cursor after it are returned. On
/// failure the code point is 0 and the cursor moves past what PHP counts as
/// one malformed sequence: the first byte alone when the next byte could
/// start a character (or the input ends), otherwise as far as the structure
/// of the lead byte reaches. Overlong forms, surrogates and values above
/// U+10FFFF are one failure spanning their whole sequence.
///
/// At or past the end of `bytes` the result is a failure that advances the
/// cursor by one, as in PHP; callers stop before the end.
///
/// This function is deliberately kept out of line: it is the reference the
/// fast paths are measured and tested against.
///
/// # Examples
///
/// ```
/// use phpxml::decode::{next_utf8_char_reference, Status};
///
/// let c = next_utf8_char_reference("é".as_bytes(), 0);
/// assert_eq!((c.code_point, c.cursor, c.status), (0xE9, 2, Status::Success));
///
/// // An overlong three-byte form is a single failure of width three.
/// let c = next_utf8_char_reference(b"\xE0\x80\x80A", 0);
/// assert_eq!((c.cursor, c.status), (3, Status::Failure));
/// ```
#[inline(never)]
#[must_use]
pub fn next_utf8_char_reference(bytes: &[u8], cursor: usize) -> NextChar {
    let pos = cursor;
    let avail = bytes.len().saturating_sub(pos);
    if avail < 1 {
        return fail(pos, 1);
    }
    // Bytes past the end read as 0, which is a lead byte: every check below
    // tests `avail` before it relies on one of them.
    let at = |i: usize| bytes.get(pos + i).copied().unwrap_or(0);
    let c = bytes[pos];
    if c < 0x80 {
        return success(u32::from(c), pos, 1);
    }
    if c < 0xC2 {
        // A lone continuation byte, or C0/C1 which only ever start overlongs.
        return fail(pos, 1);
    }
    if c < 0xE0 {
        if avail < 2 {
            return fail(pos, 1);
        }
        let s1 = at(1);
        if !is_trail(s1) {
            return fail(pos, if is_lead(s1) { 1 } else { 2 });
        }
        let cp = (u32::from(c & 0x1F) << 6) + u32::from(s1 & 0x3F);
        return success(cp, pos, 2);
    }
    if c < 0xF0 {
        let (s1, s2) = (at(1), at(2));
        if avail < 3 || !is_trail(s1) || !is_trail(s2) {
            return if avail < 2 || is_lead(s1) {
                fail(pos, 1)
            } else if avail < 3 || is_lead(s2) {
                fail(pos, 2)
            } else {
                fail(pos, 3)
            };
        }
        let cp = (u32::from(c & 0x0F) << 12) + (u32::from(s1 & 0x3F) << 6) + u32::from(s2 & 0x3F);
        if cp < 0x800 || (0xD800..=0xDFFF).contains(&cp) {
            return fail(pos, 3);
        }
        return success(cp, pos, 3);
    }
    if c < 0xF5 {
        let (s1, s2, s3) = (at(1), at(2), at(3));
        if avail < 4 || !is_trail(s1) || !is_trail(s2) || !is_trail(s3) {
            return if avail < 2 || is_lead(s1) {
                fail(pos, 1)
            } else if avail < 3 || is_lead(s2) {
                fail(pos, 2)
            } else if avail < 4 || is_lead(s3) {
                fail(pos, 3)
            } else {
                fail(pos, 4)
            };
        }
        let cp = (u32::from(c & 0x07) << 18)
            + (u32::from(s1 & 0x3F) << 12)
            + (u32::from(s2 & 0x3F) << 6)
            + u32::from(s3 & 0x3F);
        if !(0x10000..=0x10FFFF).contains(&cp) {
            return fail(pos, 4);
        }
        return success(cp, pos, 4);
    }
    // F5..FF never start a character.
    fail(pos, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scalar_value_decodes_whole_and_followed_by_more() {
        let mut buf = [0u8; 6];
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            let n = c.encode_utf8(&mut buf).len();
            buf[n] = b'A';
            buf[n + 1] = 0x80;
            for end in [n, n + 1, n + 2] {
                assert_eq!(
                    next_utf8_char_reference(&buf[..end], 0),
                    success(u32::from(c), 0, n),
                    "U+{:04X} in {end} bytes",
                    u32::from(c)
                );
            }
        }
    }

    #[test]
    fn at_or_past_the_end_fails_by_one() {
        assert_eq!(next_utf8_char_reference(b"ab", 2), fail(2, 1));
        assert_eq!(next_utf8_char_reference(b"", 0), fail(0, 1));
        assert_eq!(next_utf8_char_reference(b"a", 5), fail(5, 1));
    }
}
