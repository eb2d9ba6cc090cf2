//! Element content, with libxml2 2.9.14's error numbers and position
//! counting: one file per construct, as the push loop
//! (`xmlParseTryOrFinish`, in `input.rs`) dispatches to them.
//! Here are names (`xmlParseName` & co) and what several constructs share.

mod attribute;
mod end_tag;
mod markup;
mod reference;
mod start_tag;
mod text;
mod uri;

pub(super) use start_tag::{Clashes, RECENT_NAME_SLOTS, RecentNames, qname_key};
pub(super) use uri::{Fragment, parse_uri, scheme_end, valid_uri};

use super::chars::{is_ascii_name_char, is_ascii_name_start, is_name_char, is_name_start};
use super::{Core, Piece, State, err};

/// `XML_MAX_NAME_LENGTH`.
const MAX_NAME_LENGTH: usize = 50_000;
/// `XML_MAX_TEXT_LENGTH`.
const MAX_TEXT_LENGTH: usize = 10_000_000;
/// `XML_MAX_HUGE_LENGTH` (Debian's 2.9.14, CVE-2022-40303): the text limit
/// under `XML_PARSE_HUGE`, where names may be `XML_MAX_TEXT_LENGTH` long.
const MAX_HUGE_LENGTH: usize = 1_000_000_000;

impl Core<'_> {
    /// The `maxLength` of libxml2's name parsers: `XML_MAX_NAME_LENGTH`, or
    /// `XML_MAX_TEXT_LENGTH` under `XML_PARSE_HUGE`.
    fn max_name_length(&self) -> usize {
        if self.huge {
            MAX_TEXT_LENGTH
        } else {
            MAX_NAME_LENGTH
        }
    }

    /// The `maxLength` of attribute values, comments and PIs:
    /// `XML_MAX_TEXT_LENGTH`, or `XML_MAX_HUGE_LENGTH` under `XML_PARSE_HUGE`.
    fn max_text_length(&self) -> usize {
        if self.huge {
            MAX_HUGE_LENGTH
        } else {
            MAX_TEXT_LENGTH
        }
    }

    /// `xmlParseName`.
    pub(super) fn parse_name(&mut self) -> Option<Vec<u8>> {
        let mut own = Vec::new();
        match self.parse_name_at(&mut own)? {
            Piece::Input(s, e) => Some(self.input.buf[s..e].to_vec()),
            Piece::Own(..) => Some(own),
        }
    }

    /// `xmlParseName` appending the name to `out`: false (and nothing
    /// appended) where `parse_name` gives `None`.
    fn parse_name_into(&mut self, out: &mut Vec<u8>) -> bool {
        match self.parse_name_at(out) {
            Some(Piece::Input(s, e)) => {
                out.extend_from_slice(&self.input.buf[s..e]);
                true
            }
            Some(Piece::Own(..)) => true,
            None => false,
        }
    }

    /// `xmlParseName`, leaving an ASCII name in the input and appending
    /// any other to `own`: `None` (nothing appended) where `parse_name`
    /// gives `None`.
    #[inline(always)]
    fn parse_name_at(&mut self, own: &mut Vec<u8>) -> Option<Piece> {
        let start = self.input.cur;
        let mut i = start;
        if is_ascii_name_start(self.at(i)) {
            i += 1;
            i += self.input.buf[i..]
                .iter()
                .position(|&b| !is_ascii_name_char(b))
                .unwrap_or(self.input.buf.len() - i);
            let b = self.at(i);
            if b > 0 && b < 0x80 {
                let count = i - start;
                if count > self.max_name_length() {
                    self.fatal(err::NAME_TOO_LONG);
                    return None;
                }
                self.input.cur = i;
                self.input.col += count as u64;
                return Some(Piece::Input(start, i));
            }
        }
        let name = self.parse_name_complex(false)?;
        let s = own.len();
        own.extend_from_slice(&name);
        Some(Piece::Own(s, own.len()))
    }

    /// `xmlParseNameComplex` / `xmlParseNCNameComplex` (`nc`: no colons).
    fn parse_name_complex(&mut self, nc: bool) -> Option<Vec<u8>> {
        if self.state == State::Eof {
            return None;
        }
        let start = self.input.cur;
        let (mut c, mut l) = self.cur_char();
        if !is_name_start(c) || (nc && c == u32::from(b':')) {
            return None;
        }
        let mut len = 0usize;
        loop {
            len += l;
            self.nextl(l);
            (c, l) = self.cur_char();
            if !(is_name_char(c) && !(nc && c == u32::from(b':'))) {
                break;
            }
        }
        if len > self.max_name_length() {
            self.fatal(err::NAME_TOO_LONG);
            return None;
        }
        let end = (start + len).min(self.input.buf.len());
        Some(self.input.buf[start..end].to_vec())
    }

    /// `xmlParseNCName`.
    fn parse_ncname(&mut self) -> Option<Vec<u8>> {
        let start = self.input.cur;
        let mut i = start;
        let b = self.at(i);
        if (b.is_ascii_alphabetic() || b == b'_') && i < self.input.buf.len() {
            i += 1;
            while i < self.input.buf.len() && {
                let b = self.input.buf[i];
                b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.'
            } {
                i += 1;
            }
            if i < self.input.buf.len() {
                let b = self.input.buf[i];
                if b > 0 && b < 0x80 {
                    let count = i - start;
                    if count > self.max_name_length() {
                        self.fatal(err::NAME_TOO_LONG);
                        return None;
                    }
                    let mut name = self.pooled_buffer();
                    name.extend_from_slice(&self.input.buf[start..i]);
                    self.input.cur = i;
                    self.input.col += count as u64;
                    return Some(name);
                }
            }
        }
        self.parse_name_complex(true)
    }

    /// `xmlParseNmtoken` (`QName` recovery and attribute enumerations):
    /// a token longer than `XML_MAX_NAME_LENGTH` bytes fails where its
    /// length passes it.
    pub(super) fn parse_nmtoken(&mut self) -> Option<Vec<u8>> {
        let start = self.input.cur;
        let (mut c, mut l) = self.cur_char();
        let mut len = 0;
        while is_name_char(c) {
            len += l;
            self.nextl(l);
            if len > MAX_NAME_LENGTH {
                self.fatal(err::NAME_TOO_LONG);
                return None;
            }
            (c, l) = self.cur_char();
        }
        if len == 0 {
            return None;
        }
        Some(self.input.buf[start..self.input.cur.min(self.input.buf.len())].to_vec())
    }

    /// `xmlParseQName`: (prefix, local).
    fn parse_qname(&mut self) -> Option<(Option<Vec<u8>>, Vec<u8>)> {
        let Some(l) = self.parse_ncname() else {
            if self.raw() == b':'
                && let Some(l) = self.parse_name()
            {
                self.error(err::NS_ERR_QNAME);
                return Some((None, l));
            }
            return None;
        };
        if self.raw() != b':' {
            return Some((None, l));
        }
        self.next_char();
        let p = l;
        let Some(l) = self.parse_ncname() else {
            if self.state == State::Eof {
                return None;
            }
            self.error(err::NS_ERR_QNAME);
            let tok = self.parse_nmtoken();
            if self.state == State::Eof {
                return None;
            }
            let mut q = p.clone();
            q.push(b':');
            if let Some(t) = tok {
                q.extend_from_slice(&t);
            }
            return Some((None, q));
        };
        if self.raw() == b':' {
            self.error(err::NS_ERR_QNAME);
            self.next_char();
            if let Some(tmp) = self.parse_name() {
                let mut q = l.clone();
                q.push(b':');
                q.extend_from_slice(&tmp);
                return Some((Some(p), q));
            }
            if self.state == State::Eof {
                return None;
            }
            let mut q = l.clone();
            q.push(b':');
            return Some((Some(p), q));
        }
        Some((Some(p), l))
    }
}

#[cfg(test)]
thread_local! {
    /// Set by tests that compare the one-step tag and text paths with the
    /// general ones they stand in for.
    pub(super) static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The start tags the one-pass path of `plain_start_tag` took, so that
    /// tests can tell it was exercised.
    pub(super) static PLAIN_TAGS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The texts `parse_char_data` took whole in its first turn.
    pub(super) static FIRST_TURN_TEXTS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The attribute values `simple_value` took.
    pub(super) static SIMPLE_VALUES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The attribute names `scan_plain_attributes` recognised as those of
    /// an earlier tag instead of scanning them.
    pub(super) static RECENT_NAMES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Those of them recognised with the space before them and the quote
    /// after their `=`, in one compare.
    pub(super) static SPACED_NAMES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Whether the one-step tag and text paths are off (only ever, in tests).
#[inline]
fn general_only() -> bool {
    #[cfg(test)]
    return GENERAL_ONLY.get();
    #[cfg(not(test))]
    false
}

/// `&lt;`, `&gt;`, `&amp;`, `&apos;` or `&quot;` at the start of `s`: its
/// length and the character it stands for.
#[inline(always)]
fn predefined_at(s: &[u8]) -> Option<(usize, u8)> {
    let (len, value) = match s.get(1..4)? {
        b"lt;" => (4, b'<'),
        b"gt;" => (4, b'>'),
        b"amp" if s.get(4) == Some(&b';') => (5, b'&'),
        b"apo" if s.get(4..6) == Some(b"s;") => (6, b'\''),
        b"quo" if s.get(4..6) == Some(b"t;") => (6, b'"'),
        _ => return None,
    };
    Some((len, value))
}

/// `out.extend_from_slice(&buf[from..to])` for a name, a value or the
/// piece of a value between references: up to 16 bytes copied as 16 where
/// `buf` has them (then cut back), without a call to `memcpy` or a step a
/// byte.
#[inline(always)]
pub(in crate::libxml) fn append_short(out: &mut Vec<u8>, buf: &[u8], from: usize, to: usize) {
    let len = out.len();
    if let Some(chunk) = buf.get(from..from + 16)
        && let Ok(chunk) = <&[u8; 16]>::try_from(chunk)
        && to - from <= 16
    {
        out.extend_from_slice(chunk);
        out.truncate(len + (to - from));
    } else {
        out.extend_from_slice(&buf[from..to]);
    }
}

/// How many bytes at the start of `s` are plain by `table`, a table whose
/// plain bytes are 0x20..=0x7F except `<`, `&` and `third`, and perhaps
/// the tab. Eight bytes at a time.
#[inline]
fn plain_prefix(s: &[u8], table: &[bool; 256], third: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // 0x80 in the lowest byte of `v` that is zero (and perhaps in higher
    // ones: a borrow only runs upwards)
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let mut i = 0;
    while let Some(word) = s.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let x = u64::from_le_bytes(word);
        // 0x80 in the first byte of 0x80 and up, below 0x20 or one of the
        // three
        let other = ((x.wrapping_sub(ONES * 0x20) & !x) | x) & HIGH
            | zero(x ^ (ONES * u64::from(b'<')))
            | zero(x ^ (ONES * u64::from(b'&')))
            | zero(x ^ (ONES * u64::from(third)));
        if other == 0 {
            i += 8;
            continue;
        }
        i += (other.trailing_zeros() / 8) as usize;
        if !table[usize::from(s[i])] {
            return i;
        }
        // a tab
        i += 1;
    }
    while i < s.len() && table[usize::from(s[i])] {
        i += 1;
    }
    i
}

/// Bytes the fast path of `xmlParseAttValueInternal` takes as they are in
/// a value quoted with `"`: 0x20..=0x7F except `&`, `<` and the quote.
static PLAIN_DQ_VALUE: [bool; 256] = plain_value(b'"');
/// [`PLAIN_DQ_VALUE`] for a value quoted with `'`.
static PLAIN_SQ_VALUE: [bool; 256] = plain_value(b'\'');

const fn plain_value(limit: u8) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b <= 0x7F {
        t[b] = b as u8 != limit && b as u8 != b'&' && b as u8 != b'<';
        b += 1;
    }
    t
}

#[cfg(test)]
mod plain_prefix_tests {
    use super::{PLAIN_DQ_VALUE, PLAIN_SQ_VALUE, plain_prefix};
    use crate::libxml::text_scan::PLAIN_TEXT;

    #[test]
    fn words_agree_with_the_tables() {
        let fill = b"abc 12~\x7fxyz. ,;'\"-";
        for (table, third) in [
            (&PLAIN_TEXT, b']'),
            (&PLAIN_DQ_VALUE, b'"'),
            (&PLAIN_SQ_VALUE, b'\''),
        ] {
            for b in 0..=255u8 {
                for len in 0..=19 {
                    for at in 0..=len {
                        let mut s: Vec<u8> = (0..len).map(|i| fill[i % fill.len()]).collect();
                        if at < len {
                            s[at] = b;
                        }
                        // a second odd byte after the first
                        if at + 3 < len {
                            s[at + 3] = b'\t';
                        }
                        let want = s
                            .iter()
                            .position(|&c| !table[usize::from(c)])
                            .unwrap_or(s.len());
                        assert_eq!(plain_prefix(&s, table, third), want, "{s:?}");
                    }
                }
            }
        }
    }
}
