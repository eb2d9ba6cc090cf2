//! The output of `phpxml struct` and `phpxml trace`, byte for byte what the
//! PHP reference scripts `struct.php`, `trace.php` and `json.php` print:
//! PHP 8.2's `var_export()` of the arrays, the trace lines with their
//! quoting, the `ok` and `result` lines, `json_encode()` of the arrays
//! (`phpxml struct --format json`), and the scripts' argument rules.
//!
//! ```
//! use phpxml::report::{Command, Invocation, run_bytes};
//!
//! let args = ["--case-folding".to_owned(), "0".to_owned(), "doc.xml".to_owned()];
//! let invocation = Invocation::parse(Command::Struct, &args).unwrap();
//! let out = run_bytes(&invocation, b"<a/>").unwrap();
//! assert!(out.starts_with(b"ok "));
//! ```

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Write};

use crate::decode::{Status, next_utf8_char};
use crate::json::{JsonError, JsonFlags, Value, struct_to_value};
pub use crate::php::int_cast;
use crate::php::{
    Entry, EntryType, Error, Handler, HandlerSet, Key, OptionValue, Parser, Struct, XmlOption,
    error_string,
};
use crate::php::{EntryRef, KeyRef, StructData};

/// Which reference script to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `struct.php`: `xml_parse_into_struct()`.
    Struct,
    /// `trace.php`: every handler call of `xml_parse()`.
    Trace,
    /// `json.php`: `json_encode()` of the arrays of
    /// `xml_parse_into_struct()` (`phpxml struct --format json`).
    Json,
}

impl Command {
    /// `"struct"`, `"trace"` or `"json"`: the script's name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Struct => "struct",
            Self::Trace => "trace",
            Self::Json => "json",
        }
    }
}

/// `phpxml struct`'s arguments: `--format php` (the default: `struct.php`)
/// or `--format json` (`json.php`), wherever it stands, the last one
/// counting; the other arguments are returned in order.
///
/// ```
/// use phpxml::report::{Command, struct_format};
///
/// let args = ["--format", "json", "--json-flags", "128", "a.xml"].map(String::from);
/// let (command, rest) = struct_format(&args).unwrap();
/// assert_eq!(command, Command::Json);
/// assert_eq!(rest, ["--json-flags", "128", "a.xml"]);
/// ```
///
/// # Errors
///
/// [`UsageError`] for `--format` without a value or with another value.
pub fn struct_format(args: &[String]) -> Result<(Command, Vec<String>), UsageError> {
    let mut command = Command::Struct;
    let mut rest = Vec::with_capacity(args.len());
    let mut args = args.iter();
    while let Some(a) = args.next() {
        if a == "--format" {
            command = match args.next().map(String::as_str) {
                Some("php") => Command::Struct,
                Some("json") => Command::Json,
                Some(other) => {
                    return Err(UsageError(format!("unknown format {other} (php or json)")));
                }
                None => return Err(UsageError("--format needs a value".to_owned())),
            };
        } else {
            rest.push(a.clone());
        }
    }
    Ok((command, rest))
}

/// The arguments of a reference script, parsed by the rules of
/// `common.php`'s `parse_args()`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    /// The script.
    pub command: Command,
    /// `--encoding ENC`: `xml_parser_create(ENC)`.
    pub encoding: Option<String>,
    /// `--ns SEP`: `xml_parser_create_ns(ENC, SEP)`.
    pub ns: Option<String>,
    /// The options, in the order given, values already converted as PHP
    /// converts them (`(int)` except for the target encoding).
    pub options: Vec<(XmlOption, OptionValue)>,
    /// `--chunk N` (trace only): `max(1, (int)N)`.
    pub chunk: Option<u64>,
    /// The input file.
    pub file: String,
    /// `--quiet`: only the `ok` and `result` lines (no effect on
    /// `json.php`, which takes it and ignores it).
    pub quiet: bool,
    /// `--json-flags N` (json only): `(int)N`, of which `json_encode()`
    /// uses the low 32 bits; 0 when not given.
    pub json_flags: JsonFlags,
}

/// Bad arguments: `common.php` prints `error: <message>` and exits 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

impl Invocation {
    /// Parses `[OPTIONS] FILE` (and `--chunk N` for trace) as `parse_args()`
    /// does: each option takes the next argument as its value, the first
    /// argument not starting with `--` is the file, anything else is an
    /// error.
    ///
    /// For json, `json.php`'s own loop runs first: every `--json-flags N`
    /// pair is taken out wherever it stands (even where another option
    /// expects its value), the last one counting, `N` converted with
    /// `(int)`; a `--json-flags` with nothing after it is left for
    /// `parse_args()`, which refuses it.
    ///
    /// ```
    /// use phpxml::report::{Command, Invocation};
    /// use phpxml::json::JsonFlags;
    ///
    /// let args = ["a.xml", "--json-flags", "128abc", "--quiet"].map(String::from);
    /// let inv = Invocation::parse(Command::Json, &args).unwrap();
    /// assert_eq!(inv.json_flags, JsonFlags::PRETTY_PRINT);
    /// ```
    ///
    /// # Errors
    ///
    /// [`UsageError`] with `parse_args()`'s message.
    pub fn parse(command: Command, args: &[String]) -> Result<Self, UsageError> {
        if command == Command::Json {
            let mut json_flags = JsonFlags::NONE;
            let mut rest = Vec::with_capacity(args.len());
            let mut i = 0;
            while let Some(a) = args.get(i) {
                match args.get(i + 1) {
                    Some(v) if a == "--json-flags" => {
                        // `(int)options` in json_encode(): the low 32 bits.
                        #[allow(clippy::cast_sign_loss)]
                        let bits = int_cast(v.as_bytes()) as u32;
                        json_flags = JsonFlags::from_bits(bits);
                        i += 2;
                    }
                    _ => {
                        rest.push(a.clone());
                        i += 1;
                    }
                }
            }
            let mut inv = Self::parse_script(command, &rest)?;
            inv.json_flags = json_flags;
            return Ok(inv);
        }
        Self::parse_script(command, args)
    }

    /// `parse_args()` itself.
    fn parse_script(command: Command, args: &[String]) -> Result<Self, UsageError> {
        let mut inv = Self {
            command,
            encoding: None,
            ns: None,
            options: Vec::new(),
            chunk: None,
            file: String::new(),
            quiet: false,
            json_flags: JsonFlags::NONE,
        };
        let mut file = None;
        let mut args = args.iter();
        while let Some(a) = args.next() {
            let option = match a.as_str() {
                "--case-folding" => Some(XmlOption::CaseFolding),
                "--target-encoding" => Some(XmlOption::TargetEncoding),
                "--skip-white" => Some(XmlOption::SkipWhite),
                "--skip-tagstart" => Some(XmlOption::SkipTagstart),
                _ => None,
            };
            let takes_value = option.is_some()
                || a == "--encoding"
                || a == "--ns"
                || (a == "--chunk" && command == Command::Trace);
            if takes_value {
                let v = args
                    .next()
                    .ok_or_else(|| UsageError(format!("{a} needs a value")))?;
                match (a.as_str(), option) {
                    ("--encoding", _) => inv.encoding = Some(v.clone()),
                    ("--ns", _) => inv.ns = Some(v.clone()),
                    ("--chunk", _) => {
                        inv.chunk = Some(int_cast(v.as_bytes()).max(1).unsigned_abs());
                    }
                    (_, Some(XmlOption::TargetEncoding)) => inv
                        .options
                        .push((XmlOption::TargetEncoding, OptionValue::Str(v.clone()))),
                    (_, Some(o)) => inv
                        .options
                        .push((o, OptionValue::Int(int_cast(v.as_bytes())))),
                    (_, None) => unreachable!("only options take values"),
                }
            } else if a == "--quiet" {
                inv.quiet = true;
            } else if file.is_none() && !a.starts_with("--") {
                file = Some(a.clone());
            } else {
                return Err(UsageError(format!("unexpected argument {a}")));
            }
        }
        inv.file = file.ok_or_else(|| UsageError("no input file".to_owned()))?;
        Ok(inv)
    }

    /// `make_parser()`: creates the parser and applies the options in
    /// order. A skip tagstart out of range is only a warning in PHP: the
    /// parser is still made.
    ///
    /// # Errors
    ///
    /// The `ValueError`s of PHP: an unsupported source or target encoding.
    /// PHP dies on them, printing nothing on standard output.
    pub fn make_parser(&self) -> Result<Parser, Error> {
        let mut parser = match &self.ns {
            Some(sep) => Parser::new_ns(self.encoding.as_deref(), sep)?,
            None => Parser::new(self.encoding.as_deref())?,
        };
        for (option, value) in &self.options {
            match parser.set_option(*option, value.clone()) {
                Ok(()) | Err(Error::SkipTagstartOutOfRange(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(parser)
    }
}

/// Why a run printed nothing.
#[derive(Debug)]
pub enum RunError {
    /// Bad arguments (exit status 2).
    Usage(UsageError),
    /// The input could not be read (exit status 2, as the scripts do).
    Io(String),
    /// PHP threw a `ValueError` creating or configuring the parser.
    Php(Error),
    /// `json_encode()` threw a `JsonException`: `JSON_THROW_ON_ERROR`
    /// without `JSON_PARTIAL_OUTPUT_ON_ERROR`, and the encoding failed.
    /// PHP stops there (exit status 255).
    Json(JsonError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(e) => e.fmt(f),
            Self::Io(e) => f.write_str(e),
            Self::Php(e) => e.fmt(f),
            Self::Json(e) => write!(f, "PHP throws a JsonException: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<UsageError> for RunError {
    fn from(e: UsageError) -> Self {
        Self::Usage(e)
    }
}

impl From<Error> for RunError {
    fn from(e: Error) -> Self {
        Self::Php(e)
    }
}

/// Runs a script on the file of the invocation and returns its standard
/// output. With `--chunk N` the file is read N bytes at a time.
///
/// # Errors
///
/// [`RunError::Io`] if the file cannot be read, [`RunError::Php`] where PHP
/// dies.
pub fn run(invocation: &Invocation) -> Result<Vec<u8>, RunError> {
    let mut out = Vec::new();
    run_with(invocation, &mut out, Results::Free)?;
    Ok(out)
}

/// Runs a script on the file of the invocation, writing its standard output
/// to `out`. `trace --chunk N` reads N bytes at a time and writes lines as
/// they are made, so memory stays bounded whatever the file's size.
///
/// # Errors
///
/// [`RunError::Io`] if the file cannot be read or `out` cannot be written,
/// [`RunError::Php`] where PHP dies (before anything is written).
pub fn run_to(invocation: &Invocation, out: &mut dyn Write) -> Result<(), RunError> {
    run_with(invocation, out, Results::Free)
}

/// [`run_to`] for a process that exits right after printing: the parse
/// results are left to the operating system instead of being freed one
/// allocation at a time (for a large document that is millions of calls
/// to the allocator, a sixth of the run). What the `phpxml` command uses.
///
/// # Errors
///
/// As [`run_to`].
#[doc(hidden)]
pub fn run_before_exit(invocation: &Invocation, out: &mut dyn Write) -> Result<(), RunError> {
    run_with(invocation, out, Results::Leak)
}

/// What becomes of the parse results once printed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Results {
    Free,
    Leak,
}

fn run_with(
    invocation: &Invocation,
    out: &mut dyn Write,
    results: Results,
) -> Result<(), RunError> {
    let cannot = |e: io::Error| RunError::Io(format!("cannot read {}: {e}", invocation.file));
    let mut file = File::open(&invocation.file).map_err(cannot)?;
    let result = if let (Command::Trace, Some(n)) = (invocation.command, invocation.chunk) {
        trace_chunked(invocation, &mut file, n, out)?
    } else {
        // sized from the file's length: no regrowing copies
        let size = file.metadata().map_or(0, |m| m.len());
        let mut data = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
        file.read_to_end(&mut data).map_err(cannot)?;
        if matches!(invocation.command, Command::Json) {
            // What PHP printed before a JsonException is still printed.
            let mut printed = Vec::new();
            let thrown = json_output(invocation, &data, &mut printed)?;
            out.write_all(&printed).map_err(write_error)?;
            return thrown.map_err(RunError::Json);
        }
        if matches!(invocation.command, Command::Struct) {
            struct_output(invocation, data, results).map_err(RunError::Php)?
        } else {
            let result = run_bytes(invocation, &data);
            if results == Results::Leak {
                std::mem::forget(data);
            }
            result?
        }
    };
    out.write_all(&result).map_err(write_error)
}

#[allow(clippy::needless_pass_by_value)] // a `map_err` argument
fn write_error(e: io::Error) -> RunError {
    RunError::Io(format!("cannot write output: {e}"))
}

/// Runs a script on `data` as the file's contents.
///
/// # Errors
///
/// [`RunError::Php`] where PHP dies on a `ValueError` (an unsupported
/// encoding), [`RunError::Json`] where `json_encode()` throws (then what
/// PHP printed before is lost here; [`run_to`] writes it).
pub fn run_bytes(invocation: &Invocation, data: &[u8]) -> Result<Vec<u8>, RunError> {
    match (invocation.command, invocation.chunk) {
        (Command::Struct, _) => Ok(struct_output(invocation, data.to_vec(), Results::Free)?),
        (Command::Json, _) => {
            let mut out = Vec::new();
            json_output(invocation, data, &mut out)?.map_err(RunError::Json)?;
            Ok(out)
        }
        (Command::Trace, Some(n)) => {
            let mut out = Vec::new();
            match trace_chunked(invocation, &mut &data[..], n, &mut out) {
                Ok(rest) => {
                    out.extend_from_slice(&rest);
                    Ok(out)
                }
                Err(e @ RunError::Php(_)) => Err(e),
                Err(e) => unreachable!("reading a slice and writing a Vec cannot fail: {e}"),
            }
        }
        (Command::Trace, None) => {
            let mut parser = invocation.make_parser()?;
            let mut trace = Trace::for_invocation(invocation);
            let ok = parser.parse(&mut trace, data, true);
            Ok(trace.finish(&parser, ok, invocation.quiet))
        }
    }
}

/// `json.php`: the outer error is PHP dying before any output, the inner
/// one a `JsonException` after what is in `out`.
fn json_output(
    invocation: &Invocation,
    data: &[u8],
    out: &mut Vec<u8>,
) -> Result<Result<(), JsonError>, Error> {
    let mut parser = invocation.make_parser()?;
    let result = parser.parse_into_struct(data);
    out.reserve(data.len() * 4 + 64);
    Ok(write_struct_json(&result, invocation.json_flags, out))
}

/// `struct.php` on `data`, which the parser takes as its input buffer.
fn struct_output(
    invocation: &Invocation,
    data: Vec<u8>,
    results: Results,
) -> Result<Vec<u8>, Error> {
    let mut parser = invocation.make_parser()?;
    let capacity = if invocation.quiet {
        256
    } else {
        data.len() * 4 + 256
    };
    let result = parser.parse_into_struct_data(data);
    let mut out = Vec::with_capacity(capacity);
    write_struct_data(&result, &parser, invocation.quiet, &mut out);
    if results == Results::Leak {
        std::mem::forget(result);
        std::mem::forget(parser);
    }
    Ok(out)
}

/// `trace.php --chunk N`: pieces of exactly `n` bytes (the last one
/// shorter) with `is_final = false`, stopping at the first failure, then
/// `""` with `is_final = true` if none failed. Lines are written to `out`
/// after each piece; the `ok` and `result` lines are returned.
fn trace_chunked(
    invocation: &Invocation,
    input: &mut dyn Read,
    n: u64,
    out: &mut dyn Write,
) -> Result<Vec<u8>, RunError> {
    let mut parser = invocation.make_parser()?;
    let mut trace = Trace::for_invocation(invocation);
    let mut ok = true;
    let mut piece = Vec::new();
    loop {
        piece.clear();
        let got = input
            .take(n)
            .read_to_end(&mut piece)
            .map_err(|e| RunError::Io(format!("cannot read {}: {e}", invocation.file)))?;
        if got == 0 {
            break;
        }
        ok = parser.parse(&mut trace, &piece, false);
        trace.write_lines(out).map_err(write_error)?;
        if !ok {
            break;
        }
    }
    if ok {
        ok = parser.parse(&mut trace, b"", true);
    }
    Ok(trace.finish(&parser, ok, invocation.quiet))
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
fn quote_body(s: &[u8], out: &mut Vec<u8>) {
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        if matches!(b, 0x20..=0x21 | 0x23..=0x5B | 0x5D..=0x7E) {
            out.push(b);
            i += 1;
            continue;
        }
        if b >= 0x80 {
            // Well-formed UTF-8 (shortest form, no surrogates, at most
            // U+10FFFF) is exactly what PHP's decoder accepts.
            let c = next_utf8_char(s, i);
            if c.status == Status::Success {
                out.extend_from_slice(&s[i..c.cursor]);
                i = c.cursor;
                continue;
            }
        }
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
    write_arrays(
        result.ok,
        (!quiet).then(|| (result.values.iter().map(EntryRef::from), &result.index[..])),
        parser,
        out,
    );
}

/// [`write_struct`] for the packed arrays.
fn write_struct_data(result: &StructData, parser: &Parser, quiet: bool, out: &mut Vec<u8>) {
    write_arrays(
        result.ok,
        (!quiet).then(|| (result.values(), result.index())),
        parser,
        out,
    );
}

/// `$index`: tag names and their positions.
type Index = [(Vec<u8>, Vec<i64>)];

fn write_arrays<'a>(
    ok: bool,
    arrays: Option<(impl Iterator<Item = EntryRef<'a>>, &Index)>,
    parser: &Parser,
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(if ok { b"ok 1\n" } else { b"ok 0\n" });
    if let Some((values, index)) = arrays {
        out.extend_from_slice(b"values ");
        export_values(values, out);
        out.extend_from_slice(b"\nindex ");
        var_export_index(index, out);
        out.push(b'\n');
    }
    write_result_line(parser, out);
}

/// `JSON_THROW_ON_ERROR`: not one of [`JsonFlags`]' own flags, as the
/// encoders report errors by their return value; played here.
const JSON_THROW_ON_ERROR: u32 = 1 << 22;

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
    let (values, index) = struct_to_value(result);
    json_line(&values, flags, out)?;
    json_line(&index, flags, out)
}

/// `$j = json_encode($a, $flags); echo $j === false ? 'false ' .
/// json_last_error() : $j, "\n";`
fn json_line(value: &Value, flags: JsonFlags, out: &mut Vec<u8>) -> Result<(), JsonError> {
    let partial = flags.contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR);
    match value.encode(flags, out) {
        Err(_) if partial => {}
        Err(err) if flags.bits() & JSON_THROW_ON_ERROR != 0 => return Err(err),
        Err(err) => out.extend_from_slice(format!("false {}", err.code()).as_bytes()),
        Ok(()) => {}
    }
    out.push(b'\n');
    Ok(())
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
    out.push(b'\'');
    for &b in s {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\'' => out.extend_from_slice(b"\\'"),
            0 => out.extend_from_slice(b"' . \"\\0\" . '"),
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
        out.extend_from_slice(v.to_string().as_bytes());
    }
}

fn export_key(key: KeyRef<'_>, out: &mut Vec<u8>) {
    match key {
        KeyRef::Int(i) => out.extend_from_slice(i.to_string().as_bytes()),
        KeyRef::Str(s) => var_export_string(s, out),
    }
}

fn indent(depth: usize, out: &mut Vec<u8>) {
    out.resize(out.len() + 2 * depth, b' ');
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

fn string_element(depth: usize, name: &str, value: &[u8], out: &mut Vec<u8>) {
    element_key(depth, |o| var_export_string(name.as_bytes(), o), out);
    var_export_string(value, out);
    out.extend_from_slice(b",\n");
}

fn int_element(depth: usize, name: &str, value: i64, out: &mut Vec<u8>) {
    element_key(depth, |o| var_export_string(name.as_bytes(), o), out);
    var_export_int(value, out);
    out.extend_from_slice(b",\n");
}

fn export_entry(entry: EntryRef<'_>, out: &mut Vec<u8>) {
    let d = 2;
    string_element(d, "tag", entry.tag, out);
    if entry.kind == EntryType::Cdata
        && let Some(value) = entry.value
    {
        string_element(d, "value", value, out);
    }
    string_element(d, "type", entry.kind.as_str().as_bytes(), out);
    int_element(d, "level", entry.level, out);
    if entry.attributes.is_some() {
        element_key(d, |o| var_export_string(b"attributes", o), out);
        open_nested(d, out);
        for (key, value) in entry.attributes.iter() {
            element_key(d + 1, |o| export_key(key, o), out);
            var_export_string(value, out);
            out.extend_from_slice(b",\n");
        }
        close_nested(d, out);
    }
    if entry.kind != EntryType::Cdata
        && let Some(value) = entry.value
    {
        string_element(d, "value", value, out);
    }
}

/// `var_export($values, true)`.
pub fn var_export_values(values: &[Entry], out: &mut Vec<u8>) {
    export_values(values.iter().map(EntryRef::from), out);
}

fn export_values<'a>(values: impl Iterator<Item = EntryRef<'a>>, out: &mut Vec<u8>) {
    out.extend_from_slice(b"array (\n");
    for (i, entry) in values.enumerate() {
        element_key(1, |o| o.extend_from_slice(i.to_string().as_bytes()), out);
        open_nested(1, out);
        export_entry(entry, out);
        close_nested(1, out);
    }
    out.push(b')');
}

/// `var_export($index, true)`.
pub fn var_export_index(index: &[(Vec<u8>, Vec<i64>)], out: &mut Vec<u8>) {
    out.extend_from_slice(b"array (\n");
    for (name, positions) in index {
        element_key(1, |o| var_export_string(name, o), out);
        open_nested(1, out);
        for (i, &p) in positions.iter().enumerate() {
            element_key(2, |o| o.extend_from_slice(i.to_string().as_bytes()), out);
            var_export_int(p, out);
            out.extend_from_slice(b",\n");
        }
        close_nested(1, out);
    }
    out.push(b')');
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

    fn for_invocation(invocation: &Invocation) -> Self {
        if invocation.quiet {
            Self::quiet()
        } else {
            Self::new()
        }
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
        let out = self.line("unparsed_entity_decl ");
        quote(name, out);
        for a in [base, system_id, public_id, notation] {
            out.push(b' ');
            arg(a, out);
        }
        out.push(b'\n');
    }

    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
        let out = self.line("notation_decl ");
        quote(name, out);
        for a in [base, system_id, public_id] {
            out.push(b' ');
            arg(a, out);
        }
        out.push(b'\n');
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        let out = self.line("external_entity_ref ");
        quote(open_entity_names, out);
        for a in [base, system_id, public_id] {
            out.push(b' ');
            arg(a, out);
        }
        out.push(b'\n');
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
