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

mod quote;
mod trace;
mod var_export;

use std::io::{self, Write};

use crate::json::sink::{Sink, Spill};
use crate::json::{
    JsonError, JsonFlags, StructJsonError, values_are_utf8, write_index_to, write_struct_lines,
    write_struct_to, write_values_to,
};
pub use crate::php::int_cast;
use crate::php::{EntryRef, IndexRef, Parser, Struct, StructData, error_string};

pub use quote::quote;
pub use trace::{Trace, TraceWriter};
use var_export::{export_index, export_values};
pub use var_export::{var_export_index, var_export_int, var_export_string, var_export_values};

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
    // a process that exits after printing: its parser parses no more
    let result = parse_for_json(parser, data, flags, results == Results::Leak);
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

/// `xml_parse_into_struct()` into packed arrays for `json_encode()` under
/// `flags`. Without `JSON_PARTIAL_OUTPUT_ON_ERROR` and the
/// `JSON_INVALID_UTF8_*` flags one malformed string fails the whole
/// `$values` (`JSON_THROW_ON_ERROR` only changes how that is reported),
/// and past it only `$index` is printed: when the parser parses into
/// arrays no more (`last`), later strings are not kept.
fn parse_for_json(parser: &mut Parser, data: Vec<u8>, flags: JsonFlags, last: bool) -> StructData {
    let fails_whole = !flags.contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR)
        && !flags.contains(JsonFlags::INVALID_UTF8_IGNORE)
        && !flags.contains(JsonFlags::INVALID_UTF8_SUBSTITUTE);
    if fails_whole && last {
        parser.parse_into_struct_data_for_failing_json(data)
    } else {
        parser.parse_into_struct_data(data)
    }
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
        // the parser is kept here, read-only
        let data = parse_for_json(&mut parser, data, flags, true);
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

#[cfg(test)]
mod tests {
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
