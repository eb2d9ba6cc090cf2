//! The quoting of `trace.php`'s lines (`common.php`'s `q()` and `v()`).

/// Appends the quoted form of a byte string, as `common.php`'s `q()`:
/// well-formed UTF-8 and printable ASCII stand as they are, `\` `"` LF CR
/// TAB are escaped with a backslash, any other byte is `\xHH`.
///
/// ```
/// let mut out = Vec::new();
/// phpxml::report::quote(b"caf\xC3\xA9 \"\xE9\"\n", &mut out);
/// assert_eq!(out, b"\"caf\xC3\xA9 \\\"\\xE9\\\"\\n\"");
/// ```
pub fn quote(s: &[u8], out: &mut Vec<u8>) {
    out.push(b'"');
    quote_body(s, out);
    out.push(b'"');
}

/// [`quote`] without the surrounding quotes. Quoting is per character, so
/// a string may be quoted in pieces that do not split a UTF-8 sequence
/// (see [`quote_cut`]).
///
/// Runs of printable ASCII are found a word at a time and copied whole;
/// a run holding high bytes is checked as UTF-8 in one call, whose answer
/// (shortest form, no surrogates, at most U+10FFFF) is exactly what PHP's
/// decoder accepts. [`quote_body_reference`] is the byte loop.
pub(super) fn quote_body(s: &[u8], out: &mut Vec<u8>) {
    let mut rest = s;
    loop {
        // eight bytes copied as a word, then cut back to the plain ones
        let (word, len) = match rest.first_chunk::<8>() {
            Some(&word) => (word, 8),
            None if rest.is_empty() => return,
            None => {
                // the bytes past the end read as plain `a`
                let mut word = [b'a'; 8];
                word[..rest.len()].copy_from_slice(rest);
                (word, rest.len())
            }
        };
        out.extend_from_slice(&word);
        let plain = plain_ascii_bytes(u64::from_le_bytes(word)).min(len);
        out.truncate(out.len() - 8 + plain);
        rest = &rest[plain..];
        if plain == 8 {
            continue;
        }
        let Some(&b) = rest.first() else { return };
        // a lead byte followed by a continuation byte may start well-formed
        // UTF-8 (any other high byte is escaped at once: the Latin-1 text
        // of an ISO-8859-1 target); the next 64 bytes up to an escaped
        // ASCII byte are checked in one call
        if matches!(b, 0xC2..=0xF4) && rest.get(1).is_some_and(|&c| c & 0xC0 == 0x80) {
            let window = &rest[..rest.len().min(64)];
            let run = window
                .iter()
                .position(|&c| c < 0x20 || matches!(c, b'"' | b'\\' | 0x7F))
                .unwrap_or(window.len());
            // a character cut by the window's end is checked again from
            // its start on the next turn
            let valid = match simdutf8::compat::from_utf8(&window[..run]) {
                Ok(_) => run,
                Err(e) => e.valid_up_to(),
            };
            if valid > 0 {
                out.extend_from_slice(&rest[..valid]);
                rest = &rest[valid..];
                continue;
            }
        }
        quote_byte(b, out);
        rest = &rest[1..];
    }
}

/// How many leading bytes of the word `w` (little-endian) are printable
/// ASCII other than `"` and `\\` (0x20..=0x7E); 8 if all are.
#[inline(always)]
fn plain_ascii_bytes(w: u64) -> usize {
    const ONES: u64 = u64::MAX / 0xFF;
    const HIGH: u64 = ONES * 0x80;
    // the high bit of each byte that is below 0x20, `"`, `\\`, 0x7F or
    // high; the borrows and the carry can only mark bytes above the first
    // marked one, so its place is exact
    let zero = |x: u64| x.wrapping_sub(ONES) & !x;
    let marked = (w.wrapping_sub(ONES * 0x20) & !w
        | zero(w ^ (ONES * u64::from(b'"')))
        | zero(w ^ (ONES * u64::from(b'\\')))
        | w.wrapping_add(ONES)
        | w)
        & HIGH;
    marked.trailing_zeros() as usize / 8
}

/// How `q()` writes a byte that does not stand as itself.
fn quote_byte(b: u8, out: &mut Vec<u8>) {
    match b {
        b'\\' => out.extend_from_slice(b"\\\\"),
        b'"' => out.extend_from_slice(b"\\\""),
        b'\n' => out.extend_from_slice(b"\\n"),
        b'\r' => out.extend_from_slice(b"\\r"),
        b'\t' => out.extend_from_slice(b"\\t"),
        _ => {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.extend_from_slice(&[
                b'\\',
                b'x',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 15)],
            ]);
        }
    }
}

/// The plain reference for [`quote_body`]: `q()`'s loop, a character at a
/// time.
#[cfg(test)]
fn quote_body_reference(s: &[u8], out: &mut Vec<u8>) {
    use crate::decode::{Status, next_utf8_char};
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        if matches!(b, 0x20..=0x21 | 0x23..=0x5B | 0x5D..=0x7E) {
            out.push(b);
            i += 1;
            continue;
        }
        if b >= 0x80 {
            let c = next_utf8_char(s, i);
            if c.status == Status::Success {
                out.extend_from_slice(&s[i..c.cursor]);
                i = c.cursor;
                continue;
            }
        }
        quote_byte(b, out);
        i += 1;
    }
}

/// Where `s` can be cut so that quoting both parts gives the quoting of the
/// whole: before the last lead byte among the last three, which may start a
/// sequence that continues past the end.
pub(super) fn quote_cut(s: &[u8]) -> usize {
    let tail = s.len().saturating_sub(3);
    s[tail..]
        .iter()
        .rposition(|&b| b >= 0xC0)
        .map_or(s.len(), |j| tail + j)
}

/// `v()`: a handler argument: quoted string, or `false` for `None`.
pub(super) fn arg(s: Option<&[u8]>, out: &mut Vec<u8>) {
    match s {
        Some(s) => quote(s, out),
        None => out.extend_from_slice(b"false"),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{quote_body, quote_body_reference};

    proptest! {
        #[test]
        fn quote_body_equals_reference(
            s in prop::collection::vec(prop::sample::select(vec![
                0u8, b'\t', b'\n', 0x1F, b' ', b'"', b'\\', b'a', 0x7E, 0x7F,
                0x80, 0xBF, 0xC2, 0xD0, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF,
            ]), 0..120)
        ) {
            let (mut fast, mut plain) = (Vec::new(), Vec::new());
            quote_body(&s, &mut fast);
            quote_body_reference(&s, &mut plain);
            prop_assert_eq!(fast, plain);
        }
    }

    /// Every byte at every place of strings up to 24 bytes and around the
    /// 64-byte window of the UTF-8 check, among ASCII, Cyrillic and emoji
    /// neighbours, against the byte loop.
    #[test]
    fn quote_body_equals_the_reference_at_every_length_and_place() {
        let fills: [&[u8]; 3] = [b"z", "\u{444}".as_bytes(), "\u{1F600}".as_bytes()];
        for fill in fills {
            for n in (0..=24).chain(60..=70).chain(126..=130) {
                let base: Vec<u8> = fill.iter().copied().cycle().take(n).collect();
                for at in 0..n.max(1) {
                    for b in 0..=255u8 {
                        let mut s = base.clone();
                        if let Some(x) = s.get_mut(at) {
                            *x = b;
                        }
                        let (mut fast, mut plain) = (b"x".to_vec(), b"x".to_vec());
                        quote_body(&s, &mut fast);
                        quote_body_reference(&s, &mut plain);
                        assert_eq!(fast, plain, "{s:?}");
                    }
                }
            }
        }
    }
}
