//! `json.php`'s two lines, `json_encode($values)` and `json_encode($index)`
//! of an `xml_parse_into_struct()` result, encoded straight from the result
//! to a writer: no [`Value`](super::Value) tree, no whole-output buffer.
//!
//! PHP's `json_encode()` returns `false` for the whole array when one
//! string fails; that has to be known before the array's first byte is
//! written. Only malformed UTF-8 can fail here (numbers are ints, the
//! arrays are three deep against a depth limit of 512), and only without
//! `JSON_INVALID_UTF8_IGNORE`, `JSON_INVALID_UTF8_SUBSTITUTE` and
//! `JSON_PARTIAL_OUTPUT_ON_ERROR`: then the array's strings are checked
//! first, which costs a fraction of escaping them.

use std::cell::RefCell;
use std::error::Error;
use std::fmt;
use std::io::{self, Write};

use super::escape::escape_string;
use super::number::{write_int, write_list_int};
use super::scan::{Clean, STEP, short_is_clean};
use super::sink::{POSITIONS_PER_SPILL, Sink, Spill};
use super::{JsonError, JsonFlags};
use crate::php::{EntryRef, EntryType, IndexRef, KeyRef, Struct, recent_way};

/// `JSON_THROW_ON_ERROR`: not one of [`JsonFlags`]' own flags, as the
/// encoders report errors by their return value; played by the struct
/// writers.
const THROW_ON_ERROR: u32 = 1 << 22;

/// Why [`write_struct`] stopped.
#[derive(Debug)]
pub enum StructJsonError {
    /// The writer failed; what was written before stays written.
    Io(io::Error),
    /// PHP throws a `JsonException`: `JSON_THROW_ON_ERROR` without
    /// `JSON_PARTIAL_OUTPUT_ON_ERROR`, and an encoding failed. The lines
    /// before it are written.
    Json(JsonError),
}

impl fmt::Display for StructJsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io(e) => write!(f, "cannot write output: {e}"),
            Self::Json(e) => write!(f, "PHP throws a JsonException: {e}"),
        }
    }
}

impl Error for StructJsonError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            Self::Io(e) => Some(e),
            Self::Json(e) => Some(e),
        }
    }
}

impl From<io::Error> for StructJsonError {
    fn from(e: io::Error) -> Self {
        Self::Io(e)
    }
}

/// Writes what `json.php` prints for a result to `out`:
/// `json_encode($values, $flags)` on one line and `json_encode($index,
/// $flags)` on the next, each `false <json_last_error()>` instead when the
/// encoding fails (with `JSON_PARTIAL_OUTPUT_ON_ERROR` the partial output
/// is written instead). The bytes are those of
/// [`report::write_struct_json`](crate::report::write_struct_json); they go
/// to `out` in pieces of about 64 KiB as they are encoded (wrap an
/// unbuffered writer in a `BufWriter` all the same; `out` is not flushed).
///
/// ```
/// use phpxml::{json::{self, JsonFlags}, Parser};
///
/// let result = Parser::new(None)?.parse_into_struct(b"<a x='1'>t</a>");
/// let mut out = Vec::new();
/// json::write_struct(&result, JsonFlags::NONE, &mut out)?;
/// assert_eq!(out, br#"[{"tag":"A","type":"complete","level":1,"attributes":{"X":"1"},"value":"t"}]
/// {"A":[0]}
/// "#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`StructJsonError::Io`] when `out` fails, [`StructJsonError::Json`]
/// where PHP throws (`JSON_THROW_ON_ERROR`, 4194304, without
/// `JSON_PARTIAL_OUTPUT_ON_ERROR`); the lines before it are written.
pub fn write_struct(
    result: &Struct,
    flags: JsonFlags,
    out: impl Write,
) -> Result<(), StructJsonError> {
    let values = || result.values.iter().map(EntryRef::from);
    write_struct_to(
        values,
        || values_are_utf8(values()),
        IndexRef::Owned(&result.index),
        flags,
        out,
    )
}

/// `json_encode($values, $flags)` of a result, written to `out` as it is
/// encoded, and `json_last_error()` when it is not 0. Where PHP's
/// `json_encode()` returns `false` (a string that is not UTF-8, without
/// `JSON_PARTIAL_OUTPUT_ON_ERROR` or `JSON_INVALID_UTF8_*`) nothing is
/// written; with `JSON_PARTIAL_OUTPUT_ON_ERROR` the partial output is.
/// `JSON_THROW_ON_ERROR` changes nothing here: the error is returned.
///
/// ```
/// use phpxml::{json::{self, JsonError, JsonFlags}, Parser};
///
/// let result = Parser::new(None)?.parse_into_struct(b"<a x='1'>t</a>");
/// let mut out = Vec::new();
/// assert_eq!(json::write_values(&result, JsonFlags::NONE, &mut out)?, None);
/// assert_eq!(out, br#"[{"tag":"A","type":"complete","level":1,"attributes":{"X":"1"},"value":"t"}]"#);
///
/// let latin1 = Parser::new(Some("ISO-8859-1"))?.parse_into_struct("<a>\u{e9}</a>".as_bytes());
/// let mut out = Vec::new();
/// assert_eq!(json::write_values(&latin1, JsonFlags::NONE, &mut out)?, Some(JsonError::Utf8));
/// assert!(out.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// When `out` fails.
pub fn write_values(
    result: &Struct,
    flags: JsonFlags,
    out: impl Write,
) -> io::Result<Option<JsonError>> {
    let values = || result.values.iter().map(EntryRef::from);
    write_values_to(values, || values_are_utf8(values()), flags, out)
}

/// [`write_values`] for the array `values()`; `values_utf8` says whether
/// every string of it is well-formed UTF-8 (asked only when that decides
/// the output).
pub(crate) fn write_values_to<'a, I: Iterator<Item = EntryRef<'a>>>(
    values: impl Fn() -> I,
    values_utf8: impl FnOnce() -> bool,
    flags: JsonFlags,
    out: impl Write,
) -> io::Result<Option<JsonError>> {
    let encoder = StructEncoder::new(flags);
    write_array(&encoder, values_utf8, out, |sink| {
        encoder.values(values(), sink)
    })
}

/// [`write_values`] for `json_encode($index, $flags)`.
///
/// # Errors
///
/// When `out` fails.
pub fn write_index(
    result: &Struct,
    flags: JsonFlags,
    out: impl Write,
) -> io::Result<Option<JsonError>> {
    write_index_to(IndexRef::Owned(&result.index), flags, out)
}

/// [`write_index`] for the array `index`.
pub(crate) fn write_index_to(
    index: IndexRef<'_>,
    flags: JsonFlags,
    out: impl Write,
) -> io::Result<Option<JsonError>> {
    let encoder = StructEncoder::new(flags);
    write_array(
        &encoder,
        || index.lists().all(|(tag, _)| utf8(tag)),
        out,
        |sink| encoder.index(index, sink),
    )
}

/// One array of [`write_values`] or [`write_index`]: `all_utf8` says
/// whether every string of it is UTF-8 (asked only where that decides
/// the error).
fn write_array<W: Write>(
    encoder: &StructEncoder,
    all_utf8: impl FnOnce() -> bool,
    out: W,
    encode: impl FnOnce(&mut Spill<W>) -> io::Result<()>,
) -> io::Result<Option<JsonError>> {
    let replaced = encoder.flags.contains(JsonFlags::INVALID_UTF8_IGNORE)
        || encoder.flags.contains(JsonFlags::INVALID_UTF8_SUBSTITUTE);
    let error = (!replaced && !all_utf8()).then_some(JsonError::Utf8);
    let mut spill = Spill::new(out);
    if error.is_none() || encoder.partial {
        encode(&mut spill)?;
    }
    spill.finish()?;
    Ok(error)
}

/// [`write_struct`] for the arrays `values()` and `index`; `values_utf8`
/// says whether every string of `values()` is well-formed UTF-8 (asked only
/// when that decides the output).
pub(crate) fn write_struct_to<'a, I: Iterator<Item = EntryRef<'a>>>(
    values: impl Fn() -> I,
    values_utf8: impl FnOnce() -> bool,
    index: IndexRef<'_>,
    flags: JsonFlags,
    out: impl Write,
) -> Result<(), StructJsonError> {
    let mut spill = Spill::new(out);
    let thrown = write_struct_lines(values, values_utf8, index, flags, &mut spill);
    if !matches!(thrown, Err(StructJsonError::Io(_))) {
        // what PHP printed before a JsonException is printed too
        spill.finish()?;
    }
    thrown
}

/// The two lines of `json.php` for the arrays `values()` and `index`
/// (`values_utf8` as for [`write_struct_to`]).
pub(crate) fn write_struct_lines<'a, I: Iterator<Item = EntryRef<'a>>>(
    values: impl Fn() -> I,
    values_utf8: impl FnOnce() -> bool,
    index: IndexRef<'_>,
    flags: JsonFlags,
    sink: &mut impl Sink,
) -> Result<(), StructJsonError> {
    let encoder = StructEncoder::new(flags);
    let fails = encoder.may_fail && !values_utf8();
    encoder.line(fails, sink, |sink| encoder.values(values(), sink))?;
    let fails = encoder.may_fail && !index.lists().all(|(tag, _)| utf8(tag));
    encoder.line(fails, sink, |sink| encoder.index(index, sink))
}

/// Whether PHP's decoder takes `s` whole: well-formed UTF-8 (shortest
/// forms, no surrogates, at most U+10FFFF) is exactly what
/// `php_next_utf8_char()` accepts, and what `simdutf8` checks (with
/// vector instructions, several times the standard library's speed on
/// accented text).
pub(crate) fn utf8(s: &[u8]) -> bool {
    simdutf8::basic::from_utf8(s).is_ok()
}

/// Whether an entry's attributes are written as a list: named 0, 1, ...
/// in order.
fn attributes_are_list(entry: EntryRef<'_>) -> bool {
    entry
        .attributes
        .iter()
        .enumerate()
        .all(|(i, (key, _))| matches!(key, KeyRef::Int(n) if usize::try_from(n) == Ok(i)))
}

/// Whether every string of `$values` (tags, values, attribute names and
/// values) encodes: the check before the first byte.
pub(crate) fn values_are_utf8<'a>(mut values: impl Iterator<Item = EntryRef<'a>>) -> bool {
    values.all(|entry| {
        utf8(entry.tag)
            && entry.value.is_none_or(utf8)
            && entry.attributes.iter().all(|(key, value)| {
                utf8(value)
                    && match key {
                        KeyRef::Int(_) => true,
                        KeyRef::Str(s) => utf8(s),
                    }
            })
    })
}

/// One `json_encode()` call's options, as PHP's `php_json_encode_array()`
/// and `php_json_escape_string()` apply them.
struct StructEncoder {
    flags: JsonFlags,
    /// Keys are never numeric-checked.
    key_flags: JsonFlags,
    partial: bool,
    /// Whether a string can fail the whole encoding (malformed UTF-8 is
    /// neither dropped, replaced nor written as `null`).
    may_fail: bool,
    /// The fixed bytes of an entry under these flags, each written at once.
    keys: EntryKeys,
    /// Short strings that begin with a control character, as encoded last:
    /// the whitespace between elements (`"\n    "`) is a third of a
    /// pretty-printed document's strings, each the same few, and the
    /// escaper's set-up for them costs more than a copy.
    repeats: Memo,
    /// `{"tag":"NAME"` by tag: a document has few tag names, one per
    /// entry.
    tags: Memo,
    /// `"NAME":` by attribute name, as few.
    attribute_keys: Memo,
    /// The bytes written as they are under the flags; `None` with
    /// `JSON_NUMERIC_CHECK`, where a clean string may be a number.
    clean: Option<&'static Clean>,
}

/// Encodings of strings met before: the last met of each way
/// ([`recent_way`]), and, in a second table by another way
/// ([`second_way`]), the strings they took the place of. The same few
/// names and whitespace strings come back on every entry, and a copy of
/// their encoding costs a fraction of the escaper's set-up; two names of
/// one way met in turn (`href` and `rank`, `term` and `updated`) stay
/// remembered both.
#[derive(Default)]
struct Memo(RefCell<([Remembered; 16], [Remembered; 16])>);

/// A string and its encoding (see [`Memo`]).
#[derive(Default)]
struct Remembered {
    /// Where the string was: the same place of the same borrowed result
    /// holds the same bytes (an address only compared, never read).
    at: usize,
    string: Vec<u8>,
    encoded: Vec<u8>,
}

impl Remembered {
    /// Whether this is `s` (at `at`).
    fn holds(&self, s: &[u8], at: usize) -> bool {
        // (an encoding is never empty: an empty one is a place not used yet)
        !self.encoded.is_empty()
            && ((self.at == at && self.string.len() == s.len()) || self.string == s)
    }
}

/// The place of `s` in [`Memo`]'s second table: other bytes than
/// [`recent_way`]'s.
fn second_way(s: &[u8]) -> usize {
    let second = usize::from(s.get(1).copied().unwrap_or(0));
    let last = usize::from(s.last().copied().unwrap_or(0));
    (s.len() ^ second ^ (last << 2)) & 15
}

impl Memo {
    /// Appends the encoding of `s` remembered, or the one `encode`
    /// appends (then remembered in place of another).
    #[inline]
    fn write(&self, s: &[u8], out: &mut Vec<u8>, encode: impl FnOnce(&mut Vec<u8>)) {
        let mut tables = self.0.borrow_mut();
        let (recent, displaced) = &mut *tables;
        let at = s.as_ptr() as usize;
        let first = recent_way(s);
        let found = if recent[first].holds(s, at) {
            Some(&mut recent[first])
        } else {
            Some(&mut displaced[second_way(s)]).filter(|way| way.holds(s, at))
        };
        if let Some(way) = found {
            way.at = at;
            out.extend_from_slice(&way.encoded);
            return;
        }
        let way = &mut recent[first];
        // the way's string moves to the second table, in place of another
        if !way.encoded.is_empty() {
            let second = second_way(&way.string);
            std::mem::swap(way, &mut displaced[second]);
        }
        let start = out.len();
        encode(out);
        way.at = at;
        way.string.clear();
        way.string.extend_from_slice(s);
        way.encoded.clear();
        way.encoded.extend_from_slice(&out[start..]);
    }
}

/// The longest string [`StructEncoder::repeats`] keeps.
const REPEAT_MAX: usize = 16;

/// The longest tag or attribute name remembered.
const NAME_MAX: usize = 64;

/// `,"value":` without `JSON_PRETTY_PRINT`.
const PLAIN_VALUE: &[u8; 9] = b",\"value\":";

/// The fixed pieces of an entry without `JSON_PRETTY_PRINT`, at most:
/// `{"tag":`, `,"type":"complete","level":`, `,"attributes":[]`,
/// `,"value":`, `}`.
const PLAIN_FIXED_MAX: usize = 7 + 27 + 16 + 9 + 1;

/// What an entry's object holds besides its strings and its level:
/// punctuation, indentation and key names, made once per encoding.
#[derive(Default)]
struct EntryKeys {
    /// `{"tag":`.
    open: Vec<u8>,
    /// `,"value":`.
    value: Vec<u8>,
    /// `,"type":"open","level":` for each type, in [`type_slot`]'s order.
    type_level: [Vec<u8>; 4],
    /// `,"attributes":`.
    attributes: Vec<u8>,
    /// `}`.
    close: Vec<u8>,
}

/// Where a type's bytes are in [`EntryKeys::type_level`].
fn type_slot(kind: EntryType) -> usize {
    match kind {
        EntryType::Open => 0,
        EntryType::Complete => 1,
        EntryType::Close => 2,
        EntryType::Cdata => 3,
    }
}

impl StructEncoder {
    fn new(flags: JsonFlags) -> Self {
        let partial = flags.contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR);
        let mut encoder = Self {
            flags,
            key_flags: flags.difference(JsonFlags::NUMERIC_CHECK),
            partial,
            may_fail: !partial
                && !flags.contains(JsonFlags::INVALID_UTF8_IGNORE)
                && !flags.contains(JsonFlags::INVALID_UTF8_SUBSTITUTE),
            keys: EntryKeys::default(),
            repeats: Memo::default(),
            tags: Memo::default(),
            attribute_keys: Memo::default(),
            clean: (!flags.contains(JsonFlags::NUMERIC_CHECK)).then(|| Clean::new(flags)),
        };
        let mut keys = EntryKeys::default();
        keys.open.push(b'{');
        encoder.name(true, 2, "tag", &mut keys.open);
        encoder.name(false, 2, "value", &mut keys.value);
        for kind in [
            EntryType::Open,
            EntryType::Complete,
            EntryType::Close,
            EntryType::Cdata,
        ] {
            let out = &mut keys.type_level[type_slot(kind)];
            encoder.name(false, 2, "type", out);
            out.push(b'"');
            out.extend_from_slice(kind.as_str().as_bytes());
            out.push(b'"');
            encoder.name(false, 2, "level", out);
        }
        encoder.name(false, 2, "attributes", &mut keys.attributes);
        encoder.close(false, 1, true, &mut keys.close);
        encoder.keys = keys;
        encoder
    }

    fn pretty(&self) -> bool {
        self.flags.contains(JsonFlags::PRETTY_PRINT)
    }

    fn force_object(&self) -> bool {
        self.flags.contains(JsonFlags::FORCE_OBJECT)
    }

    /// `$j = json_encode($a, $flags); echo $j === false ? 'false ' .
    /// json_last_error() : $j, "\n";` where `fails` tells beforehand
    /// whether the encoding fails.
    fn line<S: Sink>(
        &self,
        fails: bool,
        sink: &mut S,
        encode: impl FnOnce(&mut S) -> io::Result<()>,
    ) -> Result<(), StructJsonError> {
        if fails {
            if self.flags.bits() & THROW_ON_ERROR != 0 {
                return Err(StructJsonError::Json(JsonError::Utf8));
            }
            let code = JsonError::Utf8.code();
            sink.buf()
                .extend_from_slice(format!("false {code}").as_bytes());
        } else {
            encode(sink)?;
        }
        sink.buf().push(b'\n');
        sink.spill()?;
        Ok(())
    }

    /// A newline and four spaces a level, with `JSON_PRETTY_PRINT`.
    fn indent(&self, depth: usize, out: &mut Vec<u8>) {
        if self.pretty() {
            out.push(b'\n');
            out.resize(out.len() + 4 * depth, b' ');
        }
    }

    /// `,` before all but the first element, then the indentation.
    fn element(&self, first: bool, depth: usize, out: &mut Vec<u8>) {
        if !first {
            out.push(b',');
        }
        self.indent(depth, out);
    }

    /// `:` after a key, and a space with `JSON_PRETTY_PRINT`.
    fn colon(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(if self.pretty() { b": " } else { b":" });
    }

    /// A key known to encode: `"name": `.
    fn name(&self, first: bool, depth: usize, name: &str, out: &mut Vec<u8>) {
        self.element(first, depth, out);
        out.push(b'"');
        out.extend_from_slice(name.as_bytes());
        out.push(b'"');
        self.colon(out);
    }

    /// The key of the `i`th element of a list written as an object.
    fn position_key(&self, i: usize, out: &mut Vec<u8>) {
        out.push(b'"');
        out.extend_from_slice(i.to_string().as_bytes());
        out.push(b'"');
        self.colon(out);
    }

    /// A string value: `null` with partial output when it fails (checked
    /// beforehand otherwise).
    fn string(&self, s: &[u8], out: &mut Vec<u8>) {
        if s.len() <= REPEAT_MAX && s.first().is_some_and(|&b| b < 0x20) {
            self.repeats
                .write(s, out, |out| self.string_escaped(s, out));
            return;
        }
        // Up to two words of clean bytes (ids, dates, names), checked as
        // two overlapping halves and copied whole: the escaper's set-up
        // for them costs more than the copy.
        if let Some(clean) = self.clean
            && (STEP..=2 * STEP).contains(&s.len())
            && short_is_clean(&s[..STEP], clean)
            && short_is_clean(&s[s.len() - STEP..], clean)
        {
            out.push(b'"');
            out.extend_from_slice(s);
            out.push(b'"');
            return;
        }
        self.string_escaped(s, out);
    }

    /// [`Self::string`] by the escaper.
    fn string_escaped(&self, s: &[u8], out: &mut Vec<u8>) {
        let encoded = escape_string(s, self.flags, out);
        debug_assert!(encoded.is_ok() || !self.may_fail, "unchecked string");
    }

    /// `{"tag":` and the tag.
    fn open_entry(&self, tag: &[u8], out: &mut Vec<u8>) {
        let open = |out: &mut Vec<u8>| {
            out.extend_from_slice(&self.keys.open);
            self.string(tag, out);
        };
        if tag.len() <= NAME_MAX {
            self.tags.write(tag, out, open);
        } else {
            open(out);
        }
    }

    /// An attribute's key in an object: `"0":` for an int.
    fn attribute_name(&self, key: KeyRef<'_>, out: &mut Vec<u8>) {
        match key {
            KeyRef::Int(n) => {
                out.push(b'"');
                write_int(n, out);
                out.push(b'"');
                self.colon(out);
            }
            KeyRef::Str(s) => self.attribute_key(s, out),
        }
    }

    /// An attribute name as a key.
    fn attribute_key(&self, s: &[u8], out: &mut Vec<u8>) {
        if s.len() <= NAME_MAX {
            self.attribute_keys
                .write(s, out, |out| self.string_key(s, out));
        } else {
            self.string_key(s, out);
        }
    }

    /// A string key: `""` with partial output when it fails.
    fn string_key(&self, s: &[u8], out: &mut Vec<u8>) {
        if escape_string(s, self.key_flags, out).is_err() && self.partial {
            out.truncate(out.len() - b"null".len());
            out.extend_from_slice(b"\"\"");
        }
        self.colon(out);
    }

    /// The end of an array at `depth` (its elements one deeper).
    fn close(&self, empty: bool, depth: usize, object: bool, out: &mut Vec<u8>) {
        if !empty {
            self.indent(depth, out);
        }
        out.push(if object { b'}' } else { b']' });
    }

    /// `$values`: a list of entries.
    fn values<'a>(
        &self,
        values: impl Iterator<Item = EntryRef<'a>>,
        sink: &mut impl Sink,
    ) -> io::Result<()> {
        if self.force_object() || self.pretty() {
            self.general_values(values, sink)
        } else {
            self.plain_values(values, sink)
        }
    }

    /// [`Self::values`] under any flags.
    fn general_values<'a>(
        &self,
        values: impl Iterator<Item = EntryRef<'a>>,
        sink: &mut impl Sink,
    ) -> io::Result<()> {
        let object = self.force_object();
        sink.buf().push(if object { b'{' } else { b'[' });
        let mut empty = true;
        for (i, entry) in values.enumerate() {
            let out = sink.buf();
            self.element(empty, 1, out);
            if object {
                self.position_key(i, out);
            }
            self.entry(entry, out);
            empty = false;
            sink.spill()?;
        }
        self.close(empty, 0, object, sink.buf());
        Ok(())
    }

    /// [`Self::values`] without `JSON_PRETTY_PRINT` and
    /// `JSON_FORCE_OBJECT`, the common case: a list, no indentation.
    fn plain_values<'a>(
        &self,
        values: impl Iterator<Item = EntryRef<'a>>,
        sink: &mut impl Sink,
    ) -> io::Result<()> {
        sink.buf().push(b'[');
        let mut empty = true;
        for entry in values {
            let out = sink.buf();
            if !empty {
                out.push(b',');
            }
            self.plain_entry(entry, out);
            empty = false;
            sink.spill()?;
        }
        sink.buf().push(b']');
        Ok(())
    }

    /// [`Self::entry`] without `JSON_PRETTY_PRINT` and `JSON_FORCE_OBJECT`:
    /// the fixed pieces are constants (copies of known length, no call),
    /// no branch on those flags.
    fn plain_entry(&self, entry: EntryRef<'_>, out: &mut Vec<u8>) {
        debug_assert!(!self.pretty() && !self.force_object());
        // the pieces of one entry but its strings, at most
        out.reserve(PLAIN_FIXED_MAX);
        self.open_entry(entry.tag, out);
        let cdata = entry.kind == EntryType::Cdata;
        if cdata && let Some(value) = entry.value {
            out.extend_from_slice(PLAIN_VALUE);
            self.string(value, out);
        }
        match entry.kind {
            EntryType::Open => out.extend_from_slice(b",\"type\":\"open\",\"level\":"),
            EntryType::Complete => out.extend_from_slice(b",\"type\":\"complete\",\"level\":"),
            EntryType::Close => out.extend_from_slice(b",\"type\":\"close\",\"level\":"),
            EntryType::Cdata => out.extend_from_slice(b",\"type\":\"cdata\",\"level\":"),
        }
        match u8::try_from(entry.level) {
            Ok(digit @ 0..=9) => out.push(b'0' + digit),
            _ => write_int(entry.level, out),
        }
        if entry.attributes.is_some() {
            out.extend_from_slice(b",\"attributes\":");
            // an attribute named 0, 1, ... in order makes a list
            let object = !attributes_are_list(entry);
            out.push(if object { b'{' } else { b'[' });
            let mut empty = true;
            for (key, value) in entry.attributes.iter() {
                if !empty {
                    out.push(b',');
                }
                if object {
                    self.attribute_name(key, out);
                }
                self.string(value, out);
                empty = false;
            }
            out.push(if object { b'}' } else { b']' });
        }
        if !cdata && let Some(value) = entry.value {
            out.extend_from_slice(PLAIN_VALUE);
            self.string(value, out);
        }
        out.push(b'}');
    }

    /// One entry: keys in PHP's order (see [`crate::Entry`]), always an
    /// object.
    fn entry(&self, entry: EntryRef<'_>, out: &mut Vec<u8>) {
        let keys = &self.keys;
        self.open_entry(entry.tag, out);
        let cdata = entry.kind == EntryType::Cdata;
        if cdata && let Some(value) = entry.value {
            out.extend_from_slice(&keys.value);
            self.string(value, out);
        }
        out.extend_from_slice(&keys.type_level[type_slot(entry.kind)]);
        write_int(entry.level, out);
        if entry.attributes.is_some() {
            out.extend_from_slice(&keys.attributes);
            // an attribute named 0, 1, ... in order makes a list
            let object = self.force_object() || !attributes_are_list(entry);
            out.push(if object { b'{' } else { b'[' });
            let mut empty = true;
            for (key, value) in entry.attributes.iter() {
                self.element(empty, 3, out);
                if object {
                    self.attribute_name(key, out);
                }
                self.string(value, out);
                empty = false;
            }
            self.close(empty, 2, object, out);
        }
        if !cdata && let Some(value) = entry.value {
            out.extend_from_slice(&keys.value);
            self.string(value, out);
        }
        out.extend_from_slice(&keys.close);
    }

    /// `$index`: tag names (string keys, never made ints) to lists of
    /// positions; an object unless empty.
    fn index(&self, index: IndexRef<'_>, sink: &mut impl Sink) -> io::Result<()> {
        let object = self.force_object() || !index.is_empty();
        sink.buf().push(if object { b'{' } else { b'[' });
        for (i, (tag, positions)) in index.lists().enumerate() {
            let out = sink.buf();
            self.element(i == 0, 1, out);
            self.string_key(tag, out);
            let list_object = self.force_object();
            out.push(if list_object { b'{' } else { b'[' });
            // the common form, `[0,11,22]`, a position and its comma at once
            let plain = !list_object && !self.pretty();
            // a tag's list can be as long as the document: written in pieces
            for (j, p) in positions.iter().enumerate() {
                let out = sink.buf();
                if plain {
                    write_list_int(p, j != 0, out);
                } else {
                    self.element(j == 0, 2, out);
                    if list_object {
                        self.position_key(j, out);
                    }
                    write_int(p, out);
                }
                if j % POSITIONS_PER_SPILL == POSITIONS_PER_SPILL - 1 {
                    sink.spill()?;
                }
            }
            self.close(positions.is_empty(), 1, list_object, sink.buf());
            sink.spill()?;
        }
        self.close(index.is_empty(), 0, object, sink.buf());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Parser;
    use crate::php::{Entry, Key};

    /// Entries of every shape: types, levels past 9, attributes (string,
    /// list and mixed keys), CDATA, empty and long names, strings that
    /// escape, and malformed UTF-8.
    fn entries() -> Vec<Entry> {
        let document = format!(
            "<r a='1' b=\"x&quot;/\u{e9}\">{}<c><![CDATA[<&>]]></c>\n  <e/><e z=''>\tt\n</e>\
             <{long} n='12' {long}='v'>12</{long}>{}</r>",
            "<d>".repeat(12),
            "</d>".repeat(12),
            long = "l".repeat(80),
        );
        let mut values = Parser::new(None)
            .unwrap()
            .parse_into_struct(document.as_bytes())
            .values;
        let attribute = |key, value: &[u8]| (key, value.to_vec());
        let mut entry = |tag: &[u8], attributes, value: Option<&[u8]>| {
            values.push(Entry {
                tag: tag.to_vec(),
                kind: EntryType::Complete,
                level: 123_456,
                attributes,
                value: value.map(<[u8]>::to_vec),
            });
        };
        entry(b"", Some(vec![]), Some(b""));
        entry(
            b"list",
            Some(vec![
                attribute(Key::Int(0), b"a"),
                attribute(Key::Int(1), b"b"),
            ]),
            None,
        );
        entry(b"gap", Some(vec![attribute(Key::Int(1), b"a")]), None);
        entry(
            b"mixed",
            Some(vec![
                attribute(Key::Int(0), b"a"),
                attribute(Key::Str(b"k".to_vec()), b"\xff"),
            ]),
            Some(b"\xe9t\xc3"),
        );
        entry(b"\xff", None, Some(b"-1.5e3"));
        values
    }

    #[test]
    fn memo_writes_each_strings_own_encoding() {
        let names: Vec<Vec<u8>> = ["href", "rank", "term", "updated", "id", "rel", "", "a", "b"]
            .iter()
            .map(|name| name.as_bytes().to_vec())
            .chain((0..40).map(|i| format!("n{i}").into_bytes()))
            .collect();
        // (alive through the test: a place holds the same bytes throughout)
        let copies = names.clone();
        let memo = Memo::default();
        let (mut out, mut expected) = (Vec::new(), Vec::new());
        let mut encoded = 0;
        // names in turn, each from two places (a copy and the list)
        for step in 0..2000_usize {
            let i = (step * 7 + step / 50) % names.len();
            let s = if step % 3 == 0 { &copies[i] } else { &names[i] };
            memo.write(s, &mut out, |out| {
                encoded += 1;
                out.extend_from_slice(b"<");
                out.extend_from_slice(s);
                out.push(b'>');
            });
            expected.extend_from_slice(b"<");
            expected.extend_from_slice(s);
            expected.push(b'>');
        }
        assert_eq!(out, expected);
        assert!(encoded < 2000);
    }

    #[test]
    fn plain_entries_are_the_general_ones() {
        let values = entries();
        assert!(values.len() > 30, "{}", values.len());
        // every flag set the plain writer takes (no pretty print, no
        // force-object): each escaping option, numbers, invalid UTF-8
        let plain_flags = [
            0, 1, 2, 4, 8, 15, 32, 64, 256, 512, 1024, 2048, 1_048_576, 2_097_152, 2_097_664,
            1_050_735,
        ];
        for bits in plain_flags {
            let encoder = StructEncoder::new(JsonFlags::from_bits(bits));
            assert!(!encoder.pretty() && !encoder.force_object());
            // malformed strings only where they cannot fail the whole array
            let values: Vec<EntryRef<'_>> = values
                .iter()
                .map(EntryRef::from)
                .filter(|&entry| !encoder.may_fail || values_are_utf8(std::iter::once(entry)))
                .collect();
            let (mut plain, mut general) = (Vec::new(), Vec::new());
            // twice: the second time from the remembered names
            for _ in 0..2 {
                encoder
                    .plain_values(values.iter().copied(), &mut plain)
                    .unwrap();
                encoder
                    .general_values(values.iter().copied(), &mut general)
                    .unwrap();
            }
            assert_eq!(
                String::from_utf8_lossy(&plain),
                String::from_utf8_lossy(&general),
                "flags {bits}"
            );
            assert_eq!(plain, general, "flags {bits}");
            assert!(
                plain.windows(14).any(|w| w == br#""level":123456"#),
                "flags {bits}"
            );
        }
    }
}
