//! The inline decoder: valid UTF-8 decoded on the straight path, everything
//! else handed to the reference decoder.

use super::reference::next_utf8_char_reference;
use super::{NextChar, Status};

/// Is `byte` a continuation byte? As a signed byte, `80..=BF` is exactly
/// `-128..=-65`.
#[inline(always)]
const fn is_trail(byte: u8) -> bool {
    byte.cast_signed() < -64
}

#[inline(always)]
const fn success(code_point: u32, cursor: usize) -> NextChar {
    NextChar {
        code_point,
        cursor,
        status: Status::Success,
    }
}

/// Decodes the character at `cursor` with the same result as
/// [`next_utf8_char_reference`] in code point, cursor and status.
///
/// ASCII and well-formed two-, three- and four-byte sequences are decoded
/// here without a call; anything invalid or truncated goes to the reference
/// decoder, which is kept cold and out of line so the common path stays
/// small. Equality with the reference is checked exhaustively over every
/// sequence of one to four bytes by the `exhaustive` test.
///
/// # Examples
///
/// ```
/// use phpxml::decode::{next_utf8_char, next_utf8_char_reference};
///
/// for input in [&b"\xD0\x96"[..], b"\xE0\x80\x80", b"\xF0\x9F\x98\x80", b"\xC2"] {
///     assert_eq!(next_utf8_char(input, 0), next_utf8_char_reference(input, 0));
/// }
/// ```
#[inline(always)]
#[must_use]
pub fn next_utf8_char(bytes: &[u8], cursor: usize) -> NextChar {
    if let Some(&c) = bytes.get(cursor) {
        if c < 0x80 {
            return success(u32::from(c), cursor + 1);
        }
        let rest = &bytes[cursor + 1..];
        // Two bytes, the common case in Latin, Greek, Cyrillic, Hebrew and
        // Arabic text: lead C2..DF (C0/C1 would be overlong).
        if c.wrapping_sub(0xC2) < 0x1E {
            if let Some(&s1) = rest.first()
                && is_trail(s1)
            {
                let cp = (u32::from(c & 0x1F) << 6) + u32::from(s1 & 0x3F);
                return success(cp, cursor + 2);
            }
        } else if let [s1, s2, ..] = *rest {
            if c & 0xF0 == 0xE0 {
                if is_trail(s1) && is_trail(s2) {
                    let cp = (u32::from(c & 0x0F) << 12)
                        + (u32::from(s1 & 0x3F) << 6)
                        + u32::from(s2 & 0x3F);
                    // Not overlong, not a surrogate.
                    if cp >= 0x800 && cp & 0xF800 != 0xD800 {
                        return success(cp, cursor + 3);
                    }
                }
            } else if c & 0xF8 == 0xF0
                && let Some(&s3) = rest.get(2)
                && is_trail(s1)
                && is_trail(s2)
                && is_trail(s3)
            {
                let cp = (u32::from(c & 0x07) << 18)
                    + (u32::from(s1 & 0x3F) << 12)
                    + (u32::from(s2 & 0x3F) << 6)
                    + u32::from(s3 & 0x3F);
                // Not overlong, not above U+10FFFF (which also rules out the
                // leads F5..F7 that the structure test lets through).
                if cp.wrapping_sub(0x10000) < 0x10_0000 {
                    return success(cp, cursor + 4);
                }
            }
        }
    }
    fallback(bytes, cursor)
}

/// Everything the straight path does not accept: invalid, truncated, or the
/// cursor at the end.
#[cold]
#[inline(never)]
fn fallback(bytes: &[u8], cursor: usize) -> NextChar {
    #[cfg(test)]
    tests::FALLBACKS.with(|n| n.set(n.get() + 1));
    next_utf8_char_reference(bytes, cursor)
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    thread_local! {
        /// How often the straight path handed over to the reference.
        pub(super) static FALLBACKS: Cell<u64> = const { Cell::new(0) };
    }

    /// Decodes and reports whether the straight path handed over.
    fn decode(bytes: &[u8], cursor: usize) -> (NextChar, bool) {
        let before = FALLBACKS.with(Cell::get);
        let c = next_utf8_char(bytes, cursor);
        (c, FALLBACKS.with(Cell::get) != before)
    }

    #[test]
    fn every_scalar_value_is_decoded_on_the_straight_path() {
        let mut buf = [0u8; 5];
        for c in (0..=0x10_FFFF).filter_map(char::from_u32) {
            buf[0] = b'A';
            let n = c.encode_utf8(&mut buf[1..]).len();
            for (bytes, cursor) in [(&buf[1..=n], 0), (&buf[..=n], 1)] {
                let (got, fell_back) = decode(bytes, cursor);
                assert!(!fell_back, "U+{:04X} fell back", u32::from(c));
                assert_eq!(
                    (got.code_point, got.cursor, got.status),
                    (u32::from(c), cursor + n, Status::Success)
                );
            }
        }
    }

    #[test]
    fn every_malformed_sequence_goes_to_the_reference() {
        // Every lead with every second byte and the class edges after it.
        let edges = [
            0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF5, 0xFF,
        ];
        for lead in 0x80..=0xFFu8 {
            for s1 in 0..=0xFFu8 {
                for s2 in edges {
                    for s3 in edges {
                        let seq = [lead, s1, s2, s3];
                        for end in 1..=4 {
                            let bytes = &seq[..end];
                            let (got, fell_back) = decode(bytes, 0);
                            // A well-formed character at the start, of any
                            // width that fits.
                            let first_valid =
                                (1..=end).any(|k| std::str::from_utf8(&bytes[..k]).is_ok());
                            assert_eq!(fell_back, !first_valid, "{bytes:02X?}");
                            assert_eq!(got, next_utf8_char_reference(bytes, 0), "{bytes:02X?}");
                        }
                    }
                }
            }
        }
    }
}
