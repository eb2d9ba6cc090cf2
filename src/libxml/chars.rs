//! Character classes as libxml2 2.9.14 tests them (XML 1.0 fifth edition
//! name rules, the `Char` production, blanks).

/// The `Char` production (`xmlIsCharQ`).
#[inline]
pub(super) fn is_char(c: u32) -> bool {
    if c < 0x100 {
        is_byte_char(c)
    } else {
        (0x100..=0xD7FF).contains(&c)
            || (0xE000..=0xFFFD).contains(&c)
            || (0x10000..=0x10FFFF).contains(&c)
    }
}

/// `xmlIsChar_ch`: a byte that may appear as a character.
#[inline]
pub(super) fn is_byte_char(c: u32) -> bool {
    c == 0x9 || c == 0xA || c == 0xD || c >= 0x20
}

/// `IS_BLANK_CH`.
#[inline]
pub(super) fn is_blank(c: u8) -> bool {
    c == 0x20 || c == 0x9 || c == 0xA || c == 0xD
}

/// `NameStartChar` (fifth edition), `:` included.
pub(super) fn is_name_start(c: u32) -> bool {
    c != u32::from(b' ')
        && c != u32::from(b'>')
        && c != u32::from(b'/')
        && (matches!(c, 0x61..=0x7A | 0x41..=0x5A)
            || c == u32::from(b'_')
            || c == u32::from(b':')
            || (0xC0..=0xD6).contains(&c)
            || (0xD8..=0xF6).contains(&c)
            || (0xF8..=0x2FF).contains(&c)
            || (0x370..=0x37D).contains(&c)
            || (0x37F..=0x1FFF).contains(&c)
            || (0x200C..=0x200D).contains(&c)
            || (0x2070..=0x218F).contains(&c)
            || (0x2C00..=0x2FEF).contains(&c)
            || (0x3001..=0xD7FF).contains(&c)
            || (0xF900..=0xFDCF).contains(&c)
            || (0xFDF0..=0xFFFD).contains(&c)
            || (0x10000..=0xEFFFF).contains(&c))
}

/// `NameChar` (fifth edition), `:` included.
pub(super) fn is_name_char(c: u32) -> bool {
    is_name_start(c)
        || (c != u32::from(b' ')
            && c != u32::from(b'>')
            && c != u32::from(b'/')
            && (matches!(c, 0x30..=0x39)
                || c == u32::from(b'-')
                || c == u32::from(b'.')
                || c == 0xB7
                || (0x300..=0x36F).contains(&c)
                || (0x203F..=0x2040).contains(&c)))
}

/// ASCII letters, `_` and `:`: the fast-path name start of `xmlParseName`.
#[inline]
pub(super) fn is_ascii_name_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b':'
}

/// ASCII name characters of the fast path of `xmlParseName`.
#[inline]
pub(super) fn is_ascii_name_char(b: u8) -> bool {
    ASCII_NAME_CHAR[usize::from(b)]
}

/// [`is_ascii_name_char`] as a table.
static ASCII_NAME_CHAR: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c == b':' || c == b'.';
        b += 1;
    }
    t
};

/// UTF-8 encoding of a code point (libxml2 `xmlCopyChar`).
pub(super) fn push_utf8(out: &mut Vec<u8>, c: u32) {
    if let Some(ch) = char::from_u32(c) {
        let mut tmp = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut tmp).as_bytes());
    } else if c < 0x80 {
        out.push(c as u8);
    } else if c < 0x800 {
        out.push(0xC0 | (c >> 6) as u8);
        out.push(0x80 | (c & 0x3F) as u8);
    } else if c < 0x10000 {
        out.push(0xE0 | (c >> 12) as u8);
        out.push(0x80 | ((c >> 6) & 0x3F) as u8);
        out.push(0x80 | (c & 0x3F) as u8);
    } else {
        out.push(0xF0 | ((c >> 18) & 0x07) as u8);
        out.push(0x80 | ((c >> 12) & 0x3F) as u8);
        out.push(0x80 | ((c >> 6) & 0x3F) as u8);
        out.push(0x80 | (c & 0x3F) as u8);
    }
}

/// The character at `i` of UTF-8 bytes and its length (invalid bytes read
/// as themselves).
fn utf8_at(b: &[u8], i: usize) -> (u32, usize) {
    let n = match b[i] {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    };
    if n > 1
        && let Some(s) = b.get(i..i + n)
        && let Ok(st) = std::str::from_utf8(s)
    {
        return (st.chars().next().map_or(0, u32::from), n);
    }
    (u32::from(b[i]), 1)
}

/// libxml2's `COPY_BUF`: a character `xmlCurrentChar` read as `len`
/// bytes, appended to `buf`. A one-byte character is stored as that byte,
/// so a byte from 0x80 read after an encoding error (Latin-1) stays as it
/// was in the input instead of becoming UTF-8.
pub(super) fn copy_char(buf: &mut Vec<u8>, c: u32, len: usize) {
    match u8::try_from(c) {
        Ok(byte) if len == 1 => buf.push(byte),
        _ => push_utf8(buf, c),
    }
}

/// The length in bytes of the name at the start of `s` (0: none), as
/// `xmlParseStringName` reads it: through `xmlStringCurrentChar`, which
/// reads UTF-8 while the input is read as UTF-8 (`utf8`) and a byte a
/// character once an encoding error has switched it to Latin-1.
pub(super) fn string_name_len(s: &[u8], utf8: bool) -> usize {
    let mut i = 0;
    while i < s.len() {
        let (c, n) = if utf8 {
            utf8_at(s, i)
        } else {
            (u32::from(s[i]), 1)
        };
        let ok = if i == 0 {
            is_name_start(c)
        } else {
            is_name_char(c)
        };
        if !ok {
            break;
        }
        i += n;
    }
    i
}
