//! A small model of PHP values and `json_encode()` over them.

use super::escape::escape_string;
use super::number::{write_double, write_int};
use super::{JsonError, JsonFlags};
pub use crate::php::Key;

/// A PHP value of the kinds `xml_parse_into_struct()` produces, and the
/// other scalars: enough to reproduce `json_encode()` on them.
///
/// ```
/// use phpxml::json::{Array, Value};
///
/// let mut entry = Array::new();
/// entry.insert("tag", "PARA");
/// entry.insert("level", 1);
/// let value = Value::from(entry);
/// assert_eq!(value.to_json(Default::default()).unwrap(), br#"{"tag":"PARA","level":1}"#);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A PHP int.
    Int(i64),
    /// A PHP float.
    Float(f64),
    /// A PHP string: bytes, not necessarily UTF-8.
    String(Vec<u8>),
    /// A PHP array.
    Array(Array),
}

/// A PHP array: entries in insertion order, each key once.
///
/// Lookups by key are linear, which suits the small arrays of
/// `xml_parse_into_struct()`; appending with [`Array::push`] is constant
/// time.
///
/// ```
/// use phpxml::json::{Array, Key, Value};
///
/// let mut a = Array::new();
/// a.push("x");
/// a.push("y");
/// assert!(a.is_list());
/// a.insert(0, "z"); // replaces in place, as PHP does
/// assert_eq!(a.get(&Key::Int(0)), Some(&Value::from("z")));
/// a.insert("k", 1);
/// assert!(!a.is_list());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Array {
    entries: Vec<(Key, Value)>,
    /// The key the next push takes; `None` until an int key is used.
    next_index: Option<i64>,
    /// Whether `i64::MAX` is taken, so that no push is possible.
    full: bool,
}

impl Array {
    /// An empty array.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there is no entry.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries in order.
    #[must_use]
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Key, &Value)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// The value under `key`.
    #[must_use]
    pub fn get(&self, key: &Key) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The value under `key`, to change it.
    pub fn get_mut(&mut self, key: &Key) -> Option<&mut Value> {
        self.entries
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// `unset($array[$key])`: removes the entry and returns its value. The
    /// other entries keep their order, and the next [`push`](Self::push)
    /// takes the index it would have taken before, as in PHP.
    ///
    /// ```
    /// use phpxml::json::{Array, Key, Value};
    ///
    /// // PHP 8.2: $a = ['x', 'y', 'z']; unset($a[1]); $a[] = 'w'; echo json_encode($a);
    /// let mut a: Array = ["x", "y", "z"].into_iter().enumerate().map(|(i, v)| (i as i64, v)).collect();
    /// assert_eq!(a.remove(&Key::Int(1)), Some("y".into()));
    /// assert_eq!(a.remove(&Key::Int(1)), None);
    /// a.push("w");
    /// assert_eq!(Value::from(a).to_json(Default::default()).unwrap(), br#"{"0":"x","2":"z","3":"w"}"#);
    /// ```
    pub fn remove(&mut self, key: &Key) -> Option<Value> {
        let at = self.entries.iter().position(|(k, _)| k == key)?;
        Some(self.entries.remove(at).1)
    }

    /// `$array[$key] = $value`: replaces the value in place when the key
    /// exists, else appends. String keys go through [`Key::from_php_string`] when
    /// given as `&str` or `&[u8]`.
    pub fn insert(&mut self, key: impl Into<Key>, value: impl Into<Value>) {
        let key = key.into();
        let value = value.into();
        if let Some(slot) = self.get_mut(&key) {
            *slot = value;
            return;
        }
        self.note_key(&key);
        self.entries.push((key, value));
    }

    /// `$array[] = $value`: appends under one more than the greatest int
    /// key used so far (0 if none), and returns that key. PHP refuses when
    /// that would pass `i64::MAX`; then nothing is added and `None` is
    /// returned.
    pub fn push(&mut self, value: impl Into<Value>) -> Option<i64> {
        if self.full {
            return None;
        }
        let key = self.next_index.unwrap_or(0);
        self.note_key(&Key::Int(key));
        self.entries.push((Key::Int(key), value.into()));
        Some(key)
    }

    /// Appends under a key known not to be in the array yet (the arrays
    /// built from a parse result): no lookup.
    pub(crate) fn append_new(&mut self, key: Key, value: Value) {
        debug_assert!(self.get(&key).is_none(), "{key:?} already there");
        self.note_key(&key);
        self.entries.push((key, value));
    }

    fn note_key(&mut self, key: &Key) {
        if let Key::Int(k) = *key {
            match k.checked_add(1) {
                Some(next) => {
                    if self.next_index.is_none_or(|n| next > n) {
                        self.next_index = Some(next);
                    }
                }
                None => self.full = true,
            }
        }
    }

    /// PHP's `array_is_list()`: keys are 0, 1, 2, … in order. Such arrays
    /// are JSON arrays, the others JSON objects.
    #[must_use]
    pub fn is_list(&self) -> bool {
        self.entries
            .iter()
            .enumerate()
            .all(|(i, (k, _))| matches!(*k, Key::Int(n) if usize::try_from(n) == Ok(i)))
    }
}

impl<K: Into<Key>, V: Into<Value>> FromIterator<(K, V)> for Array {
    /// Inserts each pair in turn, as [`Array::insert`].
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut a = Self::new();
        for (k, v) in iter {
            a.insert(k, v);
        }
        a
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Self::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Self::Int(n)
    }
}

impl From<i32> for Value {
    fn from(n: i32) -> Self {
        Self::Int(n.into())
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Self::Float(x)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Self::String(s.as_bytes().to_vec())
    }
}

impl From<&[u8]> for Value {
    fn from(s: &[u8]) -> Self {
        Self::String(s.to_vec())
    }
}

impl From<Vec<u8>> for Value {
    fn from(s: Vec<u8>) -> Self {
        Self::String(s)
    }
}

impl From<Array> for Value {
    fn from(a: Array) -> Self {
        Self::Array(a)
    }
}

/// `json_encode()`'s default depth limit.
pub const DEFAULT_DEPTH: u32 = 512;

impl Value {
    /// `json_encode($value, $flags)` appended to `out`, with the default
    /// depth limit of 512.
    ///
    /// # Errors
    ///
    /// The last error PHP's encoder met ([`JsonError::code`] is then
    /// `json_last_error()`). Without [`JsonFlags::PARTIAL_OUTPUT_ON_ERROR`]
    /// `json_encode()` returns `false` and `out` is left as it was; with it,
    /// `out` holds what `json_encode()` returns: the failed strings as
    /// `null` (failed keys as `""`), infinite and NaN floats as `0`.
    ///
    /// ```
    /// use phpxml::json::{Array, JsonError, JsonFlags, Value};
    ///
    /// let value = Value::from(Array::from_iter([(0, Value::from(b"\xFF".as_slice())), (1, 2.5.into())]));
    /// let mut out = Vec::new();
    /// assert_eq!(value.encode(JsonFlags::NONE, &mut out), Err(JsonError::Utf8));
    /// assert!(out.is_empty());
    /// assert_eq!(value.encode(JsonFlags::PARTIAL_OUTPUT_ON_ERROR, &mut out), Err(JsonError::Utf8));
    /// assert_eq!(out, b"[null,2.5]");
    /// ```
    pub fn encode(&self, flags: JsonFlags, out: &mut Vec<u8>) -> Result<(), JsonError> {
        self.encode_with_depth(flags, DEFAULT_DEPTH, out)
    }

    /// `json_encode($value, $flags, $depth)` appended to `out`: as
    /// [`Value::encode`] with another depth limit. An array nested deeper
    /// than `depth` fails with [`JsonError::Depth`] (PHP refuses a depth
    /// of 0 with a `ValueError`; here 0 fails any array).
    ///
    /// # Errors
    ///
    /// As [`Value::encode`].
    ///
    /// ```
    /// use phpxml::json::{Array, JsonError, JsonFlags, Value};
    ///
    /// let inner = Array::from_iter([(0, 1)]);
    /// let value = Value::from(Array::from_iter([(0, inner)]));
    /// let mut out = Vec::new();
    /// assert_eq!(value.encode_with_depth(JsonFlags::NONE, 1, &mut out), Err(JsonError::Depth));
    /// value.encode_with_depth(JsonFlags::NONE, 2, &mut out)?;
    /// assert_eq!(out, b"[[1]]");
    /// # Ok::<(), JsonError>(())
    /// ```
    pub fn encode_with_depth(
        &self,
        flags: JsonFlags,
        depth: u32,
        out: &mut Vec<u8>,
    ) -> Result<(), JsonError> {
        let start = out.len();
        let mut encoder = Encoder {
            flags,
            partial: flags.contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR),
            depth: 0,
            max_depth: depth,
            error: None,
        };
        // Whether the encoder stopped early does not matter here: what
        // counts, as in PHP, is whether an error was recorded.
        let _ = encoder.value(self, out);
        match encoder.error {
            None => Ok(()),
            Some(err) => {
                if !encoder.partial {
                    out.truncate(start);
                }
                Err(err)
            }
        }
    }

    /// `json_encode($value, $flags)` as a new buffer: what PHP returns, or
    /// the error when PHP returns `false`.
    ///
    /// # Errors
    ///
    /// As [`Value::encode`], when [`JsonFlags::PARTIAL_OUTPUT_ON_ERROR`] is
    /// not set. With it, the partial output is returned as `Ok` and the
    /// error is lost: use [`Value::encode`] to see both.
    ///
    /// ```
    /// use phpxml::json::{Array, JsonFlags, Value};
    ///
    /// let value = Value::from(Array::from_iter([("a", 1), ("b", 2)]));
    /// let json = value.to_json(JsonFlags::PRETTY_PRINT).unwrap();
    /// assert_eq!(json, b"{\n    \"a\": 1,\n    \"b\": 2\n}");
    /// ```
    pub fn to_json(&self, flags: JsonFlags) -> Result<Vec<u8>, JsonError> {
        let mut out = Vec::new();
        match self.encode(flags, &mut out) {
            Err(err) if !flags.contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR) => Err(err),
            _ => Ok(out),
        }
    }
}

/// The state of one `json_encode()` call.
struct Encoder {
    flags: JsonFlags,
    partial: bool,
    depth: u32,
    max_depth: u32,
    /// The last error met, as `json_last_error()` reports it.
    error: Option<JsonError>,
}

impl Encoder {
    fn pretty(&self) -> bool {
        self.flags.contains(JsonFlags::PRETTY_PRINT)
    }

    fn newline_and_indent(&self, out: &mut Vec<u8>) {
        if self.pretty() {
            out.push(b'\n');
            for _ in 0..self.depth {
                out.extend_from_slice(b"    ");
            }
        }
    }

    /// Writes one value; `false` when encoding must stop (an error without
    /// partial output).
    fn value(&mut self, value: &Value, out: &mut Vec<u8>) -> bool {
        match value {
            Value::Null => out.extend_from_slice(b"null"),
            Value::Bool(true) => out.extend_from_slice(b"true"),
            Value::Bool(false) => out.extend_from_slice(b"false"),
            Value::Int(n) => write_int(*n, out),
            Value::Float(x) if x.is_finite() => {
                write_double(
                    *x,
                    self.flags.contains(JsonFlags::PRESERVE_ZERO_FRACTION),
                    out,
                );
            }
            Value::Float(_) => {
                // PHP writes 0, records the error and goes on.
                self.error = Some(JsonError::InfOrNan);
                out.push(b'0');
            }
            Value::String(s) => {
                if let Err(err) = escape_string(s, self.flags, out) {
                    self.error = Some(err);
                    return false;
                }
            }
            Value::Array(a) => return self.array(a, out),
        }
        true
    }

    fn array(&mut self, array: &Array, out: &mut Vec<u8>) -> bool {
        let object = self.flags.contains(JsonFlags::FORCE_OBJECT) || !array.is_list();
        out.push(if object { b'{' } else { b'[' });
        self.depth += 1;
        for (i, (key, value)) in array.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            self.newline_and_indent(out);
            if object {
                self.key(key, out);
                out.push(b':');
                if self.pretty() {
                    out.push(b' ');
                }
            }
            if !self.value(value, out) && !self.partial {
                return false;
            }
        }
        if self.depth > self.max_depth {
            self.error = Some(JsonError::Depth);
            if !self.partial {
                return false;
            }
        }
        self.depth -= 1;
        if !array.is_empty() {
            self.newline_and_indent(out);
        }
        out.push(if object { b'}' } else { b']' });
        true
    }

    /// An object key: never numeric-checked. A key that fails is left out
    /// (the whole result is then discarded), or written `""` with partial
    /// output.
    fn key(&mut self, key: &Key, out: &mut Vec<u8>) {
        match key {
            Key::Int(n) => {
                out.push(b'"');
                write_int(*n, out);
                out.push(b'"');
            }
            Key::Str(s) => {
                let flags = self.flags.difference(JsonFlags::NUMERIC_CHECK);
                if let Err(err) = escape_string(s, flags, out) {
                    self.error = Some(err);
                    if self.partial {
                        out.truncate(out.len() - b"null".len());
                        out.extend_from_slice(b"\"\"");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_as_php_makes_them() {
        // PHP 8.2: gettype(array_key_first([$k => 1])).
        let int = [
            "0",
            "1",
            "-1",
            "9223372036854775807",
            "-9223372036854775808",
        ];
        let string = [
            "-0",
            "00",
            "01",
            "9223372036854775808",
            "-9223372036854775809",
            " 1",
            "1 ",
            "1.0",
            "+1",
            "-",
            "",
            "123abc",
        ];
        for k in int {
            assert_eq!(
                Key::from_php_string(k.as_bytes()),
                Key::Int(k.parse().unwrap()),
                "{k:?}"
            );
        }
        for k in string {
            assert_eq!(
                Key::from_php_string(k.as_bytes()),
                Key::Str(k.as_bytes().to_vec()),
                "{k:?}"
            );
        }
    }

    #[test]
    fn push_takes_the_next_index_as_php_does() {
        // PHP 8.2: [-5 => 'a'] then [] gives -4; [5 => .., 2 => ..] then [] gives 6.
        let mut a = Array::new();
        a.insert(-5, "a");
        assert_eq!(a.push("b"), Some(-4));
        let mut a = Array::new();
        a.insert(5, "x");
        a.insert(2, "y");
        assert_eq!(a.push("z"), Some(6));
        let mut a = Array::new();
        a.insert("x", 1);
        assert_eq!(a.push(2), Some(0));
        a.insert(i64::MAX, 3);
        assert_eq!(a.push(4), None);
        assert_eq!(a.len(), 3);
    }
}
