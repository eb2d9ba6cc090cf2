//! PHP 8.2's `var_export()` of the arrays of `xml_parse_into_struct()`.

use std::io;

use crate::json::sink::{POSITIONS_PER_SPILL, Sink};
use crate::php::{Entry, EntryRef, EntryType, IndexRef, KeyRef};

/// `var_export()` of a string: single quotes, `\` and `'` escaped, NUL
/// bytes as `' . "\0" . '`.
///
/// ```
/// let mut out = Vec::new();
/// phpxml::report::var_export_string(b"it's\0", &mut out);
/// assert_eq!(out, br#"'it\'s' . "\0" . ''"#);
/// ```
pub fn var_export_string(s: &[u8], out: &mut Vec<u8>) {
    out.reserve(s.len() + 2 + 16);
    out.push(b'\'');
    // Short strings (names, most values) are checked and copied as
    // words: less than the set-up of a vector search.
    if var_export_short(s, out) {
        out.push(b'\'');
        return;
    }
    // up to 64 bytes, word by word (the last word overlapping)
    if s.len() <= 64
        && let Some(&last) = s.last_chunk::<8>()
        && !special_byte_in(u64::from_le_bytes(last))
        && !s.chunks_exact(8).any(|w| {
            w.try_into()
                .is_ok_and(|w| special_byte_in(u64::from_le_bytes(w)))
        })
    {
        out.extend_from_slice(s);
        out.push(b'\'');
        return;
    }
    // runs between the bytes that need escaping, copied whole
    let mut rest = s;
    while let Some(i) = memchr::memchr3(b'\\', b'\'', 0, rest) {
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(var_export_escape(rest[i]));
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
    out.push(b'\'');
}

/// Whether a byte of `w` is NUL, `\` or `'` (exact: the borrows of the
/// zero-byte test give no false positives on whether one is).
#[inline(always)]
fn special_byte_in(w: u64) -> bool {
    const ONES: u64 = u64::MAX / 0xFF;
    const HIGH: u64 = ONES * 0x80;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    zero(w) | zero(w ^ (ONES * u64::from(b'\\'))) | zero(w ^ (ONES * u64::from(b'\''))) != 0
}

/// Appends `s` when it is 1 to 16 bytes long and none of them needs
/// escaping, reading and writing fixed-size words (overlapping for the
/// lengths between); `false` (nothing written) otherwise. `out` has room
/// for 16 bytes more.
#[inline(always)]
fn var_export_short(s: &[u8], out: &mut Vec<u8>) -> bool {
    const ONES: u64 = u64::MAX / 0xFF;
    let special = special_byte_in;
    let n = s.len();
    let x = if let (Some(&head), Some(&tail)) = (s.first_chunk::<8>(), s.last_chunk::<8>()) {
        let (lo, hi) = (u64::from_le_bytes(head), u64::from_le_bytes(tail));
        if n > 16 || special(lo) || special(hi) {
            return false;
        }
        u128::from(lo) | u128::from(hi) << (8 * (n - 8))
    } else if let (Some(&head), Some(&tail)) = (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        let w = u64::from(u32::from_le_bytes(head))
            | u64::from(u32::from_le_bytes(tail)) << (8 * (n - 4));
        // the bytes past the string are zero: made `a` for the test
        let past = !(u64::MAX >> (8 * (8 - n)));
        if special(w | (past & (ONES * u64::from(b'a')))) {
            return false;
        }
        u128::from(w)
    } else {
        if n == 0 || s.iter().any(|&b| matches!(b, 0 | b'\\' | b'\'')) {
            return false;
        }
        out.extend_from_slice(s);
        return true;
    };
    let start = out.len();
    out.extend_from_slice(&x.to_le_bytes());
    out.truncate(start + n);
    true
}

/// How `var_export()` writes `\`, `'` and NUL inside a quoted string.
fn var_export_escape(b: u8) -> &'static [u8] {
    match b {
        b'\\' => b"\\\\",
        b'\'' => b"\\'",
        _ => b"' . \"\\0\" . '",
    }
}

/// The plain reference for [`var_export_string`]: PHP's loop, a byte at a
/// time.
#[cfg(test)]
fn var_export_string_reference(s: &[u8], out: &mut Vec<u8>) {
    out.push(b'\'');
    for &b in s {
        match b {
            b'\\' | b'\'' | 0 => out.extend_from_slice(var_export_escape(b)),
            _ => out.push(b),
        }
    }
    out.push(b'\'');
}

/// `var_export()` of an integer (`PHP_INT_MIN` is written as an expression).
///
/// ```
/// let mut out = Vec::new();
/// phpxml::report::var_export_int(i64::MIN, &mut out);
/// assert_eq!(out, b"-9223372036854775807-1");
/// ```
pub fn var_export_int(v: i64, out: &mut Vec<u8>) {
    if v == i64::MIN {
        out.extend_from_slice(b"-9223372036854775807-1");
    } else {
        crate::json::write_int(v, out);
    }
}

fn export_key(key: KeyRef<'_>, out: &mut Vec<u8>) {
    match key {
        KeyRef::Int(i) => crate::json::write_int(i, out),
        KeyRef::Str(s) => var_export_string(s, out),
    }
}

fn indent(depth: usize, out: &mut Vec<u8>) {
    // the usual depths (up to 4) written as one word and cut, not filled
    let end = out.len() + 2 * depth;
    if depth <= 4 {
        out.extend_from_slice(b"        ");
        out.truncate(end);
    } else {
        out.resize(end, b' ');
    }
}

/// `KEY => ` for an element at `depth` (1 for the top array's elements).
fn element_key(depth: usize, key: impl FnOnce(&mut Vec<u8>), out: &mut Vec<u8>) {
    indent(depth, out);
    key(out);
    out.extend_from_slice(b" => ");
}

/// Opens a nested array value after its key.
fn open_nested(depth: usize, out: &mut Vec<u8>) {
    out.push(b'\n');
    indent(depth, out);
    out.extend_from_slice(b"array (\n");
}

fn close_nested(depth: usize, out: &mut Vec<u8>) {
    indent(depth, out);
    out.extend_from_slice(b"),\n");
}

/// The int keys of a list, 0, 1, 2, ... in turn, kept as decimal digits
/// and counted up in place: no conversion per element.
struct Positions {
    /// The digits of the current key, in `digits[start..20]`; the bytes
    /// after them are room for a copy of fixed size.
    digits: [u8; 36],
    /// Where they begin.
    start: usize,
}

impl Positions {
    fn new() -> Self {
        Self {
            digits: [b'0'; 36],
            start: 19,
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        crate::json::push_digits(&self.digits, self.start, out);
    }

    /// The next key.
    fn advance(&mut self) {
        let mut at = 20;
        while at > 0 {
            at -= 1;
            if self.digits[at] == b'9' {
                self.digits[at] = b'0';
            } else {
                self.digits[at] += 1;
                break;
            }
        }
        // a carry past the first digit: one digit more (the digit to the
        // left of `start` is a `0` made `1`)
        self.start = self.start.min(at);
    }
}

fn export_entry(entry: EntryRef<'_>, out: &mut Vec<u8>) {
    // the keys of an entry, at its depth (2), written whole
    const TAG: &[u8] = b"    'tag' => ";
    const VALUE: &[u8] = b"    'value' => ";
    const LEVEL: &[u8] = b"    'level' => ";
    const ATTRIBUTES: &[u8] = b"    'attributes' => \n    array (\n";
    const ATTRIBUTES_END: &[u8] = b"    ),\n";
    let string_line = |key: &[u8], value: &[u8], out: &mut Vec<u8>| {
        out.extend_from_slice(key);
        var_export_string(value, out);
        out.extend_from_slice(b",\n");
    };
    string_line(TAG, entry.tag, out);
    if entry.kind == EntryType::Cdata
        && let Some(value) = entry.value
    {
        string_line(VALUE, value, out);
    }
    out.extend_from_slice(match entry.kind {
        EntryType::Open => b"    'type' => 'open',\n",
        EntryType::Complete => b"    'type' => 'complete',\n",
        EntryType::Close => b"    'type' => 'close',\n",
        EntryType::Cdata => b"    'type' => 'cdata',\n",
    });
    out.extend_from_slice(LEVEL);
    var_export_int(entry.level, out);
    out.extend_from_slice(b",\n");
    if entry.attributes.is_some() {
        out.extend_from_slice(ATTRIBUTES);
        for (key, value) in entry.attributes.iter() {
            element_key(3, |o| export_key(key, o), out);
            var_export_string(value, out);
            out.extend_from_slice(b",\n");
        }
        out.extend_from_slice(ATTRIBUTES_END);
    }
    if entry.kind != EntryType::Cdata
        && let Some(value) = entry.value
    {
        string_line(VALUE, value, out);
    }
}

/// `var_export($values, true)`.
pub fn var_export_values(values: &[Entry], out: &mut Vec<u8>) {
    // a Vec takes every byte
    let _ = export_values(values.iter().map(EntryRef::from), out);
}

pub(super) fn export_values<'a>(
    values: impl Iterator<Item = EntryRef<'a>>,
    sink: &mut impl Sink,
) -> io::Result<()> {
    sink.buf().extend_from_slice(b"array (\n");
    let mut position = Positions::new();
    for entry in values {
        let out = sink.buf();
        element_key(1, |o| position.write(o), out);
        position.advance();
        open_nested(1, out);
        export_entry(entry, out);
        close_nested(1, out);
        sink.spill()?;
    }
    sink.buf().push(b')');
    Ok(())
}

/// `var_export($index, true)`.
pub fn var_export_index(index: &[(Vec<u8>, Vec<i64>)], out: &mut Vec<u8>) {
    // a Vec takes every byte
    let _ = export_index(IndexRef::Owned(index), out);
}

pub(super) fn export_index(index: IndexRef<'_>, sink: &mut impl Sink) -> io::Result<()> {
    sink.buf().extend_from_slice(b"array (\n");
    for (name, positions) in index.lists() {
        element_key(1, |o| var_export_string(name, o), sink.buf());
        open_nested(1, sink.buf());
        // a tag's list can be as long as the document: written in pieces
        let mut position = Positions::new();
        for (j, p) in positions.iter().enumerate() {
            let out = sink.buf();
            element_key(2, |o| position.write(o), out);
            position.advance();
            var_export_int(p, out);
            out.extend_from_slice(b",\n");
            if j % POSITIONS_PER_SPILL == POSITIONS_PER_SPILL - 1 {
                sink.spill()?;
            }
        }
        close_nested(1, sink.buf());
        sink.spill()?;
    }
    sink.buf().push(b')');
    Ok(())
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{Positions, var_export_string, var_export_string_reference};

    proptest! {
        #[test]
        fn var_export_string_equals_reference(
            s in prop::collection::vec(prop::sample::select(vec![0u8, b'\\', b'\'', b'a', b'"', 0xE9]), 0..80)
        ) {
            let (mut fast, mut plain) = (b"x".to_vec(), b"x".to_vec());
            var_export_string(&s, &mut fast);
            var_export_string_reference(&s, &mut plain);
            prop_assert_eq!(fast, plain);
        }
    }

    #[test]
    fn short_strings_equal_the_reference_at_every_length_and_place() {
        // the escaped bytes and their neighbours, which a word test must
        // tell apart
        let odd = [
            0u8, 1, b'\\', b'\'', b'[', b']', b'&', b'(', 0x80, 0xFF, b'a',
        ];
        for n in 0..=20 {
            for at in 0..n.max(1) {
                for &b in &odd {
                    let mut s = vec![b'z'; n];
                    if let Some(x) = s.get_mut(at) {
                        *x = b;
                    }
                    let (mut fast, mut plain) = (b"x".to_vec(), b"x".to_vec());
                    var_export_string(&s, &mut fast);
                    var_export_string_reference(&s, &mut plain);
                    assert_eq!(fast, plain, "{s:?}");
                }
            }
        }
    }

    #[test]
    fn positions_count_as_decimal_integers() {
        let mut position = Positions::new();
        for i in 0..100_123u64 {
            let mut out = Vec::new();
            position.write(&mut out);
            assert_eq!(out, i.to_string().as_bytes());
            position.advance();
        }
    }
}
