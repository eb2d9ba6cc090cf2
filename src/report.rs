//! The output of `phpxml struct` and `phpxml trace`, byte for byte what the
//! PHP reference scripts `struct.php`, `trace.php` and `json.php` print:
//! PHP 8.2's `var_export()` of the arrays, the trace lines with their
//! quoting, the `ok` and `result` lines, and `json_encode()` of the arrays
//! (`phpxml struct --format json`). The scripts' arguments are the command
//! line's business (cli/src, the `phpxml-cli` package).
//!
//! ```
//! use phpxml::{Parser, report::struct_output};
//!
//! let mut parser = Parser::new(None).unwrap();
//! let out = struct_output(&mut parser, b"<a/>".to_vec(), true);
//! assert_eq!(out, b"ok 1\nresult 0 1 5 4 \"No error\"\n");
//! ```

use std::io::{self, Write};

use crate::json::sink::{POSITIONS_PER_SPILL, SPILL_AT, Sink, Spill};
use crate::json::{
    JsonError, JsonFlags, StructJsonError, values_are_utf8, write_index_to, write_struct_lines,
    write_struct_to, write_values_to,
};
pub use crate::php::int_cast;
use crate::php::{Entry, EntryType, Handler, HandlerSet, Key, Parser, Struct, error_string};
use crate::php::{EntryRef, IndexRef, KeyRef, StructData};

/// What `struct.php` prints for the document `data`, parsed by `parser`
/// with `xml_parse_into_struct()` (`quiet`: only the `ok` and `result`
/// lines). The parser takes `data` as its input buffer and keeps the
/// arrays packed in a few allocations: the fast way to print a large
/// document, byte for byte what [`write_struct`] prints for
/// [`Parser::parse_into_struct`]'s result.
pub fn struct_output(parser: &mut Parser, data: Vec<u8>, quiet: bool) -> Vec<u8> {
    struct_output_with(parser, data, quiet, Results::Free)
}

/// [`struct_output`] for a process that exits right after printing: the
/// arrays are left to the operating system instead of being freed one
/// allocation at a time (for a large document that is millions of calls
/// to the allocator, a sixth of the run). What the `phpxml` command uses.
#[doc(hidden)]
pub fn struct_output_before_exit(parser: &mut Parser, data: Vec<u8>, quiet: bool) -> Vec<u8> {
    struct_output_with(parser, data, quiet, Results::Leak)
}

/// What becomes of the parse results once printed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Results {
    Free,
    Leak,
}

fn struct_output_with(
    parser: &mut Parser,
    data: Vec<u8>,
    quiet: bool,
    results: Results,
) -> Vec<u8> {
    let capacity = if quiet { 256 } else { data.len() * 4 + 256 };
    let mut out = Vec::with_capacity(capacity);
    // a Vec takes every byte
    let _ = struct_output_into(parser, data, quiet, &mut out, results);
    out
}

/// [`struct_output`] written to `out` as it is produced, in pieces of
/// about 64 KiB: the memory of the output stays bounded whatever the
/// document's size. `out` is not flushed.
///
/// ```
/// use phpxml::{Parser, report::write_struct_output};
///
/// let mut parser = Parser::new(None).unwrap();
/// let mut out = Vec::new();
/// write_struct_output(&mut parser, b"<a/>".to_vec(), true, &mut out)?;
/// assert_eq!(out, b"ok 1\nresult 0 1 5 4 \"No error\"\n");
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// Whatever writing to `out` returns; what was written before stays.
pub fn write_struct_output(
    parser: &mut Parser,
    data: Vec<u8>,
    quiet: bool,
    out: impl Write,
) -> io::Result<()> {
    struct_output_to(parser, data, quiet, out, Results::Free)
}

/// [`write_struct_output`] for a process that exits right after printing
/// (see [`struct_output_before_exit`]).
#[doc(hidden)]
pub fn write_struct_output_before_exit(
    parser: &mut Parser,
    data: Vec<u8>,
    quiet: bool,
    out: impl Write,
) -> io::Result<()> {
    struct_output_to(parser, data, quiet, out, Results::Leak)
}

fn struct_output_to(
    parser: &mut Parser,
    data: Vec<u8>,
    quiet: bool,
    out: impl Write,
    results: Results,
) -> io::Result<()> {
    let mut spill = Spill::new(out);
    struct_output_into(parser, data, quiet, &mut spill, results)?;
    spill.finish().map(drop)
}

fn struct_output_into(
    parser: &mut Parser,
    data: Vec<u8>,
    quiet: bool,
    out: &mut impl Sink,
    results: Results,
) -> io::Result<()> {
    let result = parser.parse_into_struct_data(data);
    let written = write_struct_data(&result, parser, quiet, out);
    results.release(result);
    written
}

/// What `json.php` prints for the document `data`, parsed by `parser` with
/// `xml_parse_into_struct()`, written to `out` as it is encoded: the bytes
/// of [`write_struct_json`] for [`Parser::parse_into_struct`]'s result,
/// from the packed arrays (see [`struct_output`]) and in pieces of about
/// 64 KiB. `out` is not flushed.
///
/// ```
/// use phpxml::{json::JsonFlags, Parser, report::write_struct_json_output};
///
/// let mut parser = Parser::new(None)?;
/// let mut out = Vec::new();
/// write_struct_json_output(&mut parser, b"<a>t</a>".to_vec(), JsonFlags::NONE, &mut out)?;
/// assert_eq!(out, b"[{\"tag\":\"A\",\"type\":\"complete\",\"level\":1,\"value\":\"t\"}]\n{\"A\":[0]}\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`crate::json::write_struct`].
pub fn write_struct_json_output(
    parser: &mut Parser,
    data: Vec<u8>,
    flags: JsonFlags,
    out: impl Write,
) -> Result<(), StructJsonError> {
    struct_json_output_with(parser, data, flags, out, Results::Free)
}

/// [`write_struct_json_output`] for a process that exits right after
/// printing (see [`struct_output_before_exit`]).
#[doc(hidden)]
pub fn write_struct_json_output_before_exit(
    parser: &mut Parser,
    data: Vec<u8>,
    flags: JsonFlags,
    out: impl Write,
) -> Result<(), StructJsonError> {
    struct_json_output_with(parser, data, flags, out, Results::Leak)
}

fn struct_json_output_with(
    parser: &mut Parser,
    data: Vec<u8>,
    flags: JsonFlags,
    out: impl Write,
    results: Results,
) -> Result<(), StructJsonError> {
    // One malformed string fails the whole `$values`: past it only
    // `$index` is printed, so a process that exits after printing (its
    // parser parses no more) need not keep later strings.
    let result = if fails_whole(flags) && results == Results::Leak {
        parser.parse_into_struct_data_for_failing_json(data)
    } else {
        parser.parse_into_struct_data(data)
    };
    let index = result.packed_index();
    let written = write_struct_to(
        || result.values(),
        || result.strings_are_utf8(),
        IndexRef::from(&index),
        flags,
        out,
    );
    results.release(result);
    written
}

/// Whether one malformed string fails the whole `json_encode()` under
/// `flags` (`JSON_THROW_ON_ERROR` only changes how it is reported).
fn fails_whole(flags: JsonFlags) -> bool {
    !flags.contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR)
        && !flags.contains(JsonFlags::INVALID_UTF8_IGNORE)
        && !flags.contains(JsonFlags::INVALID_UTF8_SUBSTITUTE)
}

impl Results {
    fn release(self, result: StructData) {
        if self == Self::Leak {
            std::mem::forget(result);
        }
    }
}

/// The arrays of one `xml_parse_into_struct()`, kept packed for
/// `json_encode()`, each array written on its own when asked: what
/// `phpxml struct --format ndjson` prints from. Strings that a failing
/// `$values` would never print are not kept (see
/// [`write_struct_json_output`]), so the parser is taken by value and
/// handed back read-only for its error and position.
///
/// ```
/// use phpxml::{json::JsonFlags, Parser, report::JsonArrays};
///
/// let arrays = JsonArrays::parse(Parser::new(None)?, b"<a>t</a>".to_vec(), JsonFlags::NONE);
/// assert!(arrays.ok());
/// let mut out = Vec::new();
/// assert_eq!(arrays.write_values(&mut out)?, None);
/// assert_eq!(arrays.write_index(&mut out)?, None);
/// assert_eq!(out, br#"[{"tag":"A","type":"complete","level":1,"value":"t"}]{"A":[0]}"#);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[doc(hidden)]
pub struct JsonArrays {
    parser: Parser,
    data: StructData,
    flags: JsonFlags,
}

impl JsonArrays {
    /// `xml_parse_into_struct($parser, $data)`, for `json_encode()` with
    /// `flags`.
    #[must_use]
    pub fn parse(mut parser: Parser, data: Vec<u8>, flags: JsonFlags) -> Self {
        let data = if fails_whole(flags) {
            parser.parse_into_struct_data_for_failing_json(data)
        } else {
            parser.parse_into_struct_data(data)
        };
        Self {
            parser,
            data,
            flags,
        }
    }

    /// The return value of `xml_parse_into_struct()`.
    #[must_use]
    pub fn ok(&self) -> bool {
        self.data.ok
    }

    /// The flags the arrays are encoded with.
    #[must_use]
    pub fn flags(&self) -> JsonFlags {
        self.flags
    }

    /// The parser after the parse: its error code and position.
    #[must_use]
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// [`json::write_values`](crate::json::write_values) of the arrays.
    ///
    /// # Errors
    ///
    /// When `out` fails.
    pub fn write_values(&self, out: impl Write) -> io::Result<Option<JsonError>> {
        write_values_to(
            || self.data.values(),
            || self.data.strings_are_utf8(),
            self.flags,
            out,
        )
    }

    /// [`json::write_index`](crate::json::write_index) of the arrays.
    ///
    /// # Errors
    ///
    /// When `out` fails.
    pub fn write_index(&self, out: impl Write) -> io::Result<Option<JsonError>> {
        let index = self.data.packed_index();
        write_index_to(IndexRef::from(&index), self.flags, out)
    }
}

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
fn quote_body(s: &[u8], out: &mut Vec<u8>) {
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
fn quote_cut(s: &[u8]) -> usize {
    let tail = s.len().saturating_sub(3);
    s[tail..]
        .iter()
        .rposition(|&b| b >= 0xC0)
        .map_or(s.len(), |j| tail + j)
}

/// `v()`: a handler argument: quoted string, or `false` for `None`.
fn arg(s: Option<&[u8]>, out: &mut Vec<u8>) {
    match s {
        Some(s) => quote(s, out),
        None => out.extend_from_slice(b"false"),
    }
}

/// Appends the `result` line: error code, line, column, byte index and the
/// quoted `xml_error_string()`.
pub fn write_result_line(parser: &Parser, out: &mut Vec<u8>) {
    let code = parser.error_code();
    out.extend_from_slice(
        format!(
            "result {code} {} {} {} ",
            parser.line(),
            parser.column(),
            parser.byte_index()
        )
        .as_bytes(),
    );
    quote(error_string(code).as_bytes(), out);
    out.push(b'\n');
}

/// Appends what `struct.php` prints for a result.
///
/// ```
/// use phpxml::{Parser, report::write_struct};
///
/// let mut parser = Parser::new(None).unwrap();
/// let result = parser.parse_into_struct(b"<a/>");
/// let mut out = Vec::new();
/// write_struct(&result, &parser, true, &mut out); // quiet: no arrays
/// assert_eq!(out, b"ok 1\nresult 0 1 5 4 \"No error\"\n");
/// ```
pub fn write_struct(result: &Struct, parser: &Parser, quiet: bool, out: &mut Vec<u8>) {
    // a Vec takes every byte
    let _ = write_struct_to_sink(result, parser, quiet, out);
}

/// [`write_struct`] to a writer, as it is produced: `var_export()` of the
/// arrays goes to `out` in pieces of about 64 KiB. `out` is not flushed.
///
/// ```
/// use phpxml::{Parser, report::write_var_export};
///
/// let mut parser = Parser::new(None).unwrap();
/// let result = parser.parse_into_struct(b"<a/>");
/// let mut out = Vec::new();
/// write_var_export(&result, &parser, false, &mut out)?;
/// assert!(out.starts_with(b"ok 1\nvalues array (\n  0 => \n  array (\n    'tag' => 'A',\n"));
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
///
/// Whatever writing to `out` returns; what was written before stays.
pub fn write_var_export(
    result: &Struct,
    parser: &Parser,
    quiet: bool,
    out: impl Write,
) -> io::Result<()> {
    let mut spill = Spill::new(out);
    write_struct_to_sink(result, parser, quiet, &mut spill)?;
    spill.finish().map(drop)
}

fn write_struct_to_sink(
    result: &Struct,
    parser: &Parser,
    quiet: bool,
    out: &mut impl Sink,
) -> io::Result<()> {
    write_arrays(
        result.ok,
        (!quiet).then(|| {
            (
                result.values.iter().map(EntryRef::from),
                IndexRef::Owned(&result.index),
            )
        }),
        parser,
        out,
    )
}

/// [`write_struct`] for the packed arrays.
fn write_struct_data(
    result: &StructData,
    parser: &Parser,
    quiet: bool,
    out: &mut impl Sink,
) -> io::Result<()> {
    let index = (!quiet).then(|| result.packed_index());
    write_arrays(
        result.ok,
        index
            .as_ref()
            .map(|index| (result.values(), IndexRef::from(index))),
        parser,
        out,
    )
}

fn write_arrays<'a>(
    ok: bool,
    arrays: Option<(impl Iterator<Item = EntryRef<'a>>, IndexRef<'_>)>,
    parser: &Parser,
    out: &mut impl Sink,
) -> io::Result<()> {
    out.buf()
        .extend_from_slice(if ok { b"ok 1\n" } else { b"ok 0\n" });
    if let Some((values, index)) = arrays {
        out.buf().extend_from_slice(b"values ");
        export_values(values, out)?;
        out.buf().extend_from_slice(b"\nindex ");
        export_index(index, out)?;
        out.buf().push(b'\n');
    }
    write_result_line(parser, out.buf());
    out.spill()
}

/// Appends what `json.php` prints for a result: `json_encode($values,
/// $flags)` on one line and `json_encode($index, $flags)` on the next, each
/// `false <json_last_error()>` instead when the encoding fails (with
/// `JSON_PARTIAL_OUTPUT_ON_ERROR` the partial output is printed instead).
///
/// ```
/// use phpxml::{json::JsonFlags, report::write_struct_json, Parser};
///
/// let mut parser = Parser::new(Some("ISO-8859-1"))?;
/// let result = parser.parse_into_struct("<a>é</a>".as_bytes());
/// let mut out = Vec::new();
/// write_struct_json(&result, JsonFlags::NONE, &mut out).unwrap();
/// assert_eq!(out, b"false 5\n{\"A\":[0]}\n");
/// out.clear();
/// write_struct_json(&result, JsonFlags::INVALID_UTF8_SUBSTITUTE, &mut out).unwrap();
/// assert_eq!(out, b"[{\"tag\":\"A\",\"type\":\"complete\",\"level\":1,\"value\":\"\\ufffd\"}]\n{\"A\":[0]}\n");
/// # Ok::<(), phpxml::Error>(())
/// ```
///
/// # Errors
///
/// With `JSON_THROW_ON_ERROR` (4194304) and without
/// `JSON_PARTIAL_OUTPUT_ON_ERROR`, a failed encoding throws in PHP: the
/// error is returned, `out` holding what was printed before. (As every
/// index key is also a tag of the values, the index fails only when the
/// values did: then nothing was printed.)
pub fn write_struct_json(
    result: &Struct,
    flags: JsonFlags,
    out: &mut Vec<u8>,
) -> Result<(), JsonError> {
    let values = || result.values.iter().map(EntryRef::from);
    let values_utf8 = || values_are_utf8(values());
    let index = IndexRef::Owned(&result.index);
    match write_struct_lines(values, values_utf8, index, flags, out) {
        Err(StructJsonError::Json(e)) => Err(e),
        // a Vec takes every byte
        Ok(()) | Err(StructJsonError::Io(_)) => Ok(()),
    }
}

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

fn export_values<'a>(
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

fn export_index(index: IndexRef<'_>, sink: &mut impl Sink) -> io::Result<()> {
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum TextKind {
    Cdata,
    Default,
}

/// The handler of `trace.php`: every handler set, one line per call,
/// adjacent character data (and adjacent default data) merged into one
/// line.
///
/// Memory stays bounded however long the document: a quiet trace keeps no
/// lines at all, a merged text line is quoted out in pieces as it grows, and
/// [`Trace::write_lines`] hands the finished lines to a writer.
///
/// ```
/// use phpxml::{Parser, report::Trace};
///
/// let mut parser = Parser::new(None).unwrap();
/// let mut trace = Trace::new();
/// let ok = parser.parse(&mut trace, br#"<a x="1">t<?p d?></a>"#, true);
/// assert_eq!(
///     String::from_utf8(trace.finish(&parser, ok, false)).unwrap(),
///     "start \"A\" \"X\"=\"1\"\ncdata \"t\"\npi \"p\" \"d\"\nend \"A\"\nok 1\nresult 0 1 22 21 \"No error\"\n"
/// );
/// ```
#[derive(Default)]
pub struct Trace {
    lines: Vec<u8>,
    quiet: bool,
    pending: Option<TextKind>,
    /// Text of the pending line not quoted yet (at most about a piece).
    text: Vec<u8>,
    /// Whether the pending line's start is already in `lines`.
    text_started: bool,
}

/// Merged text is quoted out once this much of it is waiting.
const TEXT_PIECE: usize = 1 << 16;

impl Trace {
    /// An empty trace that keeps its lines.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty trace for `--quiet`: the same handler calls, no lines kept.
    #[must_use]
    pub fn quiet() -> Self {
        Self {
            quiet: true,
            ..Self::default()
        }
    }

    fn start_text_line(&mut self, kind: TextKind) {
        self.lines.extend_from_slice(match kind {
            TextKind::Cdata => b"cdata \"",
            TextKind::Default => b"default \"",
        });
        self.text_started = true;
    }

    fn flush(&mut self) {
        if let Some(kind) = self.pending.take() {
            if !self.text_started {
                self.start_text_line(kind);
            }
            quote_body(&self.text, &mut self.lines);
            self.lines.extend_from_slice(b"\"\n");
            self.text.clear();
            self.text_started = false;
        }
    }

    fn add_text(&mut self, kind: TextKind, data: &[u8]) {
        if self.quiet {
            return;
        }
        if self.pending != Some(kind) {
            self.flush();
            self.pending = Some(kind);
        }
        self.text.extend_from_slice(data);
        if self.text.len() >= TEXT_PIECE {
            if !self.text_started {
                self.start_text_line(kind);
            }
            let cut = quote_cut(&self.text);
            quote_body(&self.text[..cut], &mut self.lines);
            self.text.drain(..cut);
        }
    }

    /// A declaration's line: the word, the quoted name and each other
    /// argument quoted (`false` for none).
    fn declaration_line(&mut self, word: &str, name: &[u8], args: &[Option<&[u8]>]) {
        let out = self.line(word);
        quote(name, out);
        for &a in args {
            out.push(b' ');
            arg(a, out);
        }
        out.push(b'\n');
    }

    /// Starts a line: flushes merged text, writes the word. In a quiet
    /// trace the line goes to a scratch buffer that is dropped at once.
    fn line(&mut self, word: &str) -> &mut Vec<u8> {
        if self.quiet {
            self.lines.clear();
        } else {
            self.flush();
        }
        self.lines.extend_from_slice(word.as_bytes());
        &mut self.lines
    }

    /// Writes the lines finished so far to `out` and forgets them. Text
    /// still being merged stays, ready to be continued.
    ///
    /// # Errors
    ///
    /// Whatever writing to `out` returns.
    pub fn write_lines(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if !self.quiet {
            out.write_all(&self.lines)?;
        }
        self.lines.clear();
        Ok(())
    }

    /// The script's output: the lines (unless `quiet`), `ok` with the
    /// return value of the last `xml_parse()` call and the `result` line.
    #[must_use]
    pub fn finish(mut self, parser: &Parser, ok: bool, quiet: bool) -> Vec<u8> {
        let mut out = Vec::new();
        if !(quiet || self.quiet) {
            self.flush();
            out = self.lines;
        }
        out.extend_from_slice(if ok { b"ok 1\n" } else { b"ok 0\n" });
        write_result_line(parser, &mut out);
        out
    }
}

impl Handler for Trace {
    fn installed(&self) -> HandlerSet {
        HandlerSet::ALL
    }

    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        let out = self.line("start ");
        quote(name, out);
        for (key, value) in attributes {
            out.push(b' ');
            quote(&key.to_bytes(), out);
            out.push(b'=');
            quote(value, out);
        }
        out.push(b'\n');
    }

    fn end_element(&mut self, name: &[u8]) {
        let out = self.line("end ");
        quote(name, out);
        out.push(b'\n');
    }

    fn character_data(&mut self, data: &[u8]) {
        self.add_text(TextKind::Cdata, data);
    }

    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        let out = self.line("pi ");
        quote(target, out);
        out.push(b' ');
        arg(data, out);
        out.push(b'\n');
    }

    fn default_data(&mut self, data: &[u8]) {
        self.add_text(TextKind::Default, data);
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        self.declaration_line(
            "unparsed_entity_decl ",
            name,
            &[base, system_id, public_id, notation],
        );
    }

    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
        self.declaration_line("notation_decl ", name, &[base, system_id, public_id]);
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        self.declaration_line(
            "external_entity_ref ",
            open_entity_names,
            &[base, system_id, public_id],
        );
        true
    }

    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        let out = self.line("start_ns ");
        arg(prefix, out);
        out.push(b' ');
        quote(uri, out);
        out.push(b'\n');
    }

    fn end_namespace_decl(&mut self, prefix: Option<&[u8]>) {
        let out = self.line("end_ns ");
        arg(prefix, out);
        out.push(b'\n');
    }
}

/// A [`Trace`] that writes its lines to `out` as they are made, in pieces
/// of about 64 KiB: the memory of `trace.php`'s output stays bounded by the
/// longest line's unquoted piece, not by the document.
///
/// Handlers cannot fail, so a failed write is kept: the lines after it are
/// dropped, and [`TraceWriter::finish`] returns the error.
///
/// ```
/// use phpxml::{Parser, report::TraceWriter};
///
/// let mut parser = Parser::new(None).unwrap();
/// let mut trace = TraceWriter::new(Vec::new(), false);
/// let ok = parser.parse(&mut trace, b"<a>t</a>", true);
/// let out = trace.finish(&parser, ok)?;
/// assert_eq!(out, b"start \"A\"\ncdata \"t\"\nend \"A\"\nok 1\nresult 0 1 9 8 \"No error\"\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct TraceWriter<W: Write> {
    trace: Trace,
    out: W,
    failed: Option<io::Error>,
}

impl<W: Write> TraceWriter<W> {
    /// A trace writing to `out` (`quiet`: only the `ok` and `result`
    /// lines, at the end).
    pub fn new(out: W, quiet: bool) -> Self {
        Self {
            trace: if quiet { Trace::quiet() } else { Trace::new() },
            out,
            failed: None,
        }
    }

    /// Writes the finished lines once enough of them wait.
    fn spill(&mut self) {
        if self.trace.lines.len() >= SPILL_AT {
            self.write_lines();
        }
    }

    /// Writes the lines finished so far (after a piece of input, say).
    pub fn write_lines(&mut self) {
        if self.failed.is_none()
            && let Err(e) = self.trace.write_lines(&mut self.out)
        {
            self.failed = Some(e);
        }
        self.trace.lines.clear();
    }

    /// Writes the rest of the script's output: the last lines, `ok` with
    /// the return value of the last `xml_parse()` call and the `result`
    /// line; gives the writer back (not flushed).
    ///
    /// # Errors
    ///
    /// The first error writing to `out` returned, now or during the parse.
    pub fn finish(mut self, parser: &Parser, ok: bool) -> io::Result<W> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let rest = self.trace.finish(parser, ok, false);
        self.out.write_all(&rest)?;
        Ok(self.out)
    }
}

impl<W: Write> Handler for TraceWriter<W> {
    fn installed(&self) -> HandlerSet {
        self.trace.installed()
    }

    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        self.trace.start_element(name, attributes);
        self.spill();
    }

    fn end_element(&mut self, name: &[u8]) {
        self.trace.end_element(name);
        self.spill();
    }

    fn character_data(&mut self, data: &[u8]) {
        self.trace.character_data(data);
        self.spill();
    }

    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        self.trace.processing_instruction(target, data);
        self.spill();
    }

    fn default_data(&mut self, data: &[u8]) {
        self.trace.default_data(data);
        self.spill();
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        self.trace
            .unparsed_entity_decl(name, base, system_id, public_id, notation);
        self.spill();
    }

    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
        self.trace.notation_decl(name, base, system_id, public_id);
        self.spill();
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        let go_on = self
            .trace
            .external_entity_ref(open_entity_names, base, system_id, public_id);
        self.spill();
        go_on
    }

    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        self.trace.start_namespace_decl(prefix, uri);
        self.spill();
    }

    fn end_namespace_decl(&mut self, prefix: Option<&[u8]>) {
        self.trace.end_namespace_decl(prefix);
        self.spill();
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{quote_body, quote_body_reference, var_export_string, var_export_string_reference};

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
}

#[cfg(test)]
mod word_tests {
    use super::{
        Positions, quote_body, quote_body_reference, var_export_string, var_export_string_reference,
    };

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

#[cfg(test)]
mod packed_tests {
    use super::{
        JsonArrays, struct_output, write_struct, write_struct_json, write_struct_json_output,
    };
    use crate::json::{self, JsonFlags};
    use crate::{Parser, TargetEncoding};

    /// Documents whose index has several tags, lists longer than a spill's
    /// 1024 positions, and text entries under a parent's tag.
    fn documents() -> Vec<Vec<u8>> {
        let mut long = b"<r>".to_vec();
        for i in 0..2500 {
            long.extend_from_slice(format!("<a n='{i}'>x</a>t<b/>").as_bytes());
        }
        long.extend_from_slice(b"</r>");
        vec![
            b"<a/>".to_vec(),
            b"<r><a>1</a><b x='2'>3</b>4<a/><c><a>5</a></c></r>".to_vec(),
            b"<r><a>1</a><b>".to_vec(),
            long,
        ]
    }

    #[test]
    fn packed_index_prints_as_the_owned_one() {
        for doc in documents() {
            // two calls on one parser: the second's positions count on
            let (mut packed, mut owned) = (Parser::new(None).unwrap(), Parser::new(None).unwrap());
            for _ in 0..2 {
                let fast = struct_output(&mut packed, doc.clone(), false);
                let result = owned.parse_into_struct(&doc);
                let mut plain = Vec::new();
                write_struct(&result, &owned, false, &mut plain);
                assert_eq!(fast, plain, "{}", String::from_utf8_lossy(&doc));
            }
            for flags in [
                JsonFlags::NONE,
                JsonFlags::FORCE_OBJECT,
                JsonFlags::PRETTY_PRINT,
            ] {
                let (mut packed, mut owned) =
                    (Parser::new(None).unwrap(), Parser::new(None).unwrap());
                for _ in 0..2 {
                    let mut fast = Vec::new();
                    write_struct_json_output(&mut packed, doc.clone(), flags, &mut fast).unwrap();
                    let result = owned.parse_into_struct(&doc);
                    let mut plain = Vec::new();
                    write_struct_json(&result, flags, &mut plain).unwrap();
                    assert_eq!(fast, plain, "{flags:?}");
                }
            }
        }
    }

    /// The packed arrays of [`JsonArrays`], which drop what a failing
    /// `$values` never prints, encode as the owned result does, array by
    /// array, error by error.
    #[test]
    fn json_arrays_write_as_the_owned_result() {
        let mut docs = documents();
        docs.push(
            "<r><a>x</a><b t='\u{e9}t\u{e9}'>caf\u{e9}</b><c>\u{442}</c><a>y</a>z</r>".into(),
        );
        docs.push("<r><a>\u{e9}</a><a>".into());
        let flag_sets = [
            JsonFlags::NONE,
            JsonFlags::FORCE_OBJECT,
            JsonFlags::PARTIAL_OUTPUT_ON_ERROR,
            JsonFlags::INVALID_UTF8_IGNORE,
            JsonFlags::INVALID_UTF8_SUBSTITUTE,
            JsonFlags::from_bits(JsonFlags::PARTIAL_OUTPUT_ON_ERROR.bits() | 4_194_304),
        ];
        for doc in &docs {
            for target in [
                TargetEncoding::Utf8,
                TargetEncoding::Iso8859_1,
                TargetEncoding::UsAscii,
            ] {
                for flags in flag_sets {
                    let parser = || {
                        let mut p = Parser::new(None).unwrap();
                        p.set_target_encoding(target);
                        p
                    };
                    let arrays = JsonArrays::parse(parser(), doc.clone(), flags);
                    let mut owned = parser();
                    let result = owned.parse_into_struct(doc);
                    assert_eq!(arrays.ok(), result.ok);
                    assert_eq!(arrays.parser().error_code(), owned.error_code());
                    assert_eq!(arrays.parser().byte_index(), owned.byte_index());
                    let (mut fast, mut plain) = (Vec::new(), Vec::new());
                    let fast_errors = (
                        arrays.write_values(&mut fast).unwrap(),
                        arrays.write_index(&mut fast).unwrap(),
                    );
                    let plain_errors = (
                        json::write_values(&result, flags, &mut plain).unwrap(),
                        json::write_index(&result, flags, &mut plain).unwrap(),
                    );
                    let what = format!("{target:?} {flags:?} {}", String::from_utf8_lossy(doc));
                    assert_eq!(fast_errors, plain_errors, "{what}");
                    assert_eq!(fast, plain, "{what}");
                }
            }
        }
    }
}
