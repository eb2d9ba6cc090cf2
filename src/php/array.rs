//! The little of PHP's arrays that the xml extension's results need: keys
//! that are integers or byte strings, and `zend_symtable_update()`.

use std::borrow::Cow;

/// A PHP array key: an integer or a byte string. The one key type of the
/// crate: attribute arrays, `xml_parse_into_struct()`'s index and
/// [`json::Array`](crate::json::Array) all use it.
///
/// PHP stores a string key that is the canonical decimal form of an integer
/// (`"0"`, `"42"`, `"-7"`, but not `"007"`, `"-0"`, `"+1"` or `" 1"`) as that
/// integer. The xml extension builds attribute arrays this way; the index of
/// `xml_parse_into_struct()` keeps string keys as they are.
///
/// ```
/// use phpxml::Key;
///
/// assert_eq!(Key::from_php_string(b"12"), Key::Int(12));
/// assert_eq!(Key::from_php_string(b"012"), Key::Str(b"012".to_vec()));
/// assert_eq!(Key::from_php_string(b"ID").to_bytes().as_ref(), b"ID");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// An integer key.
    Int(i64),
    /// A string key (bytes in the parser's target encoding).
    Str(Vec<u8>),
}

impl Key {
    /// The key PHP's symbol tables (`zend_symtable_update()`) make of a
    /// string: an integer for a canonical decimal integer in `i64` range,
    /// the string otherwise.
    #[must_use]
    pub fn from_php_string(s: &[u8]) -> Self {
        canonical_integer(s).map_or_else(|| Self::Str(s.to_vec()), Self::Int)
    }

    /// The key as PHP's `(string)` cast writes it.
    #[must_use]
    pub fn to_bytes(&self) -> Cow<'_, [u8]> {
        match self {
            Self::Int(i) => Cow::Owned(i.to_string().into_bytes()),
            Self::Str(s) => Cow::Borrowed(s),
        }
    }
}

impl From<i64> for Key {
    fn from(n: i64) -> Self {
        Self::Int(n)
    }
}

impl From<&str> for Key {
    /// As [`Key::from_php_string`] (`$array["12"]` is `$array[12]`).
    fn from(s: &str) -> Self {
        Self::from_php_string(s.as_bytes())
    }
}

impl From<&[u8]> for Key {
    /// As [`Key::from_php_string`].
    fn from(s: &[u8]) -> Self {
        Self::from_php_string(s)
    }
}

/// `$attributes[$name]`: the value of the attribute `name` in an attribute
/// array as handlers and [`Entry::attributes`](crate::Entry::attributes)
/// give it, looked up as PHP looks up an array key (`"12"` finds the
/// integer key 12). Remember that names are upper-cased while
/// `XML_OPTION_CASE_FOLDING` is on.
///
/// ```
/// use phpxml::{Key, attribute};
///
/// let attributes = vec![(Key::Str(b"ID".to_vec()), b"b1".to_vec())];
/// assert_eq!(attribute(&attributes, b"ID"), Some(&b"b1"[..]));
/// assert_eq!(attribute(&attributes, b"id"), None);
/// ```
#[must_use]
pub fn attribute<'a>(attributes: &'a [(Key, Vec<u8>)], name: &[u8]) -> Option<&'a [u8]> {
    let key = Key::from_php_string(name);
    attributes
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.as_slice())
}

/// `ZEND_HANDLE_NUMERIC_STR`: `-?[1-9][0-9]*` or `0`, in `i64` range.
fn canonical_integer(s: &[u8]) -> Option<i64> {
    let digits = s.strip_prefix(b"-").unwrap_or(s);
    let canonical = match digits {
        [b'0'] => s.len() == 1,
        [b'1'..=b'9', rest @ ..] => rest.iter().all(u8::is_ascii_digit),
        _ => false,
    };
    if !canonical {
        return None;
    }
    // Only ASCII digits and a sign: valid UTF-8; out of range fails to parse.
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// The integer PHP's symbol tables make of the string `s`, if any.
#[inline]
pub(crate) fn key_int(s: &[u8]) -> Option<i64> {
    match s.first() {
        Some(b'0'..=b'9' | b'-') => canonical_integer(s),
        _ => None,
    }
}

/// `zend_symtable_update()` on an ordered list: a key already present keeps
/// its position and takes the new value. (The parser does this in place
/// with [`key_int`].)
#[cfg(test)]
pub(crate) fn symtable_update(array: &mut Vec<(Key, Vec<u8>)>, key: &[u8], value: Vec<u8>) {
    let key = Key::from_php_string(key);
    if let Some(slot) = array.iter_mut().find(|(k, _)| *k == key) {
        slot.1 = value;
    } else {
        array.push((key, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numeric_keys_follow_php() {
        for (s, want) in [
            (&b"0"[..], Some(0)),
            (b"-1", Some(-1)),
            (b"9223372036854775807", Some(i64::MAX)),
            (b"-9223372036854775808", Some(i64::MIN)),
            (b"9223372036854775808", None),
            (b"-0", None),
            (b"00", None),
            (b"01", None),
            (b"+1", None),
            (b" 1", None),
            (b"1 ", None),
            (b"", None),
            (b"-", None),
            (b"1a", None),
        ] {
            assert_eq!(
                canonical_integer(s),
                want,
                "{:?}",
                String::from_utf8_lossy(s)
            );
        }
    }

    #[test]
    fn update_keeps_first_position() {
        let mut a = Vec::new();
        symtable_update(&mut a, b"B", b"y".to_vec());
        symtable_update(&mut a, b"A", b"1".to_vec());
        symtable_update(&mut a, b"B", b"z".to_vec());
        assert_eq!(
            a,
            [
                (Key::Str(b"B".to_vec()), b"z".to_vec()),
                (Key::Str(b"A".to_vec()), b"1".to_vec())
            ]
        );
    }
}
