//! The output of `phpxml struct` and `phpxml trace`, byte for byte what the
//! PHP reference scripts `struct.php` and `trace.php` print: PHP 8.2's
//! `var_export()` of the arrays, the trace lines with their quoting, the
//! `ok` and `result` lines, and the scripts' argument rules.
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
use std::io::{self, Read};

pub use crate::php::int_cast;
use crate::php::{
    Entry, EntryType, Error, Handler, HandlerSet, Key, OptionValue, Parser, Struct, XmlOption,
    error_string,
};

/// Which reference script to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `struct.php`: `xml_parse_into_struct()`.
    Struct,
    /// `trace.php`: every handler call of `xml_parse()`.
    Trace,
}

impl Command {
    /// `"struct"` or `"trace"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Struct => "struct",
            Self::Trace => "trace",
        }
    }
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
    /// `--quiet`: only the `ok` and `result` lines.
    pub quiet: bool,
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
    /// # Errors
    ///
    /// [`UsageError`] with `parse_args()`'s message.
    pub fn parse(command: Command, args: &[String]) -> Result<Self, UsageError> {
        let mut inv = Self {
            command,
            encoding: None,
            ns: None,
            options: Vec::new(),
            chunk: None,
            file: String::new(),
            quiet: false,
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
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Usage(e) => e.fmt(f),
            Self::Io(e) => f.write_str(e),
            Self::Php(e) => e.fmt(f),
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
    run_with(invocation, Results::Free)
}

/// [`run`] for a process that exits right after printing: the parse
/// results are left to the operating system instead of being freed one
/// allocation at a time (for a large document that is millions of calls
/// to the allocator, a sixth of the run). What the `phpxml` command uses.
///
/// # Errors
///
/// As [`run`].
#[doc(hidden)]
pub fn run_before_exit(invocation: &Invocation) -> Result<Vec<u8>, RunError> {
    run_with(invocation, Results::Leak)
}

/// What becomes of the parse results once printed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Results {
    Free,
    Leak,
}

fn run_with(invocation: &Invocation, results: Results) -> Result<Vec<u8>, RunError> {
    let cannot = |e: io::Error| RunError::Io(format!("cannot read {}: {e}", invocation.file));
    let mut file = File::open(&invocation.file).map_err(cannot)?;
    match (invocation.command, invocation.chunk) {
        (Command::Trace, Some(n)) => trace_chunked(invocation, &mut file, n),
        _ => {
            // sized from the file's length: no regrowing copies
            let size = file.metadata().map_or(0, |m| m.len());
            let mut data = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
            file.read_to_end(&mut data).map_err(cannot)?;
            let out = match invocation.command {
                Command::Struct => struct_output(invocation, &data, results),
                Command::Trace => run_bytes(invocation, &data),
            };
            if results == Results::Leak {
                std::mem::forget(data);
            }
            out.map_err(RunError::Php)
        }
    }
}

/// Runs a script on `data` as the file's contents.
///
/// # Errors
///
/// [`Error`] where PHP dies (an unsupported encoding).
pub fn run_bytes(invocation: &Invocation, data: &[u8]) -> Result<Vec<u8>, Error> {
    match (invocation.command, invocation.chunk) {
        (Command::Struct, _) => struct_output(invocation, data, Results::Free),
        (Command::Trace, Some(n)) => match trace_chunked(invocation, &mut &data[..], n) {
            Ok(out) => Ok(out),
            Err(RunError::Php(e)) => Err(e),
            Err(e) => unreachable!("reading a slice cannot fail: {e}"),
        },
        (Command::Trace, None) => {
            let mut parser = invocation.make_parser()?;
            let mut trace = Trace::new();
            let ok = parser.parse(&mut trace, data, true);
            Ok(trace.finish(&parser, ok, invocation.quiet))
        }
    }
}

fn struct_output(invocation: &Invocation, data: &[u8], results: Results) -> Result<Vec<u8>, Error> {
    let mut parser = invocation.make_parser()?;
    let result = parser.parse_into_struct(data);
    let capacity = if invocation.quiet {
        256
    } else {
        data.len() * 4 + 256
    };
    let mut out = Vec::with_capacity(capacity);
    write_struct(&result, &parser, invocation.quiet, &mut out);
    if results == Results::Leak {
        std::mem::forget(result);
        std::mem::forget(parser);
    }
    Ok(out)
}

/// `trace.php --chunk N`: pieces of exactly `n` bytes (the last one
/// shorter) with `is_final = false`, stopping at the first failure, then
/// `""` with `is_final = true` if none failed.
fn trace_chunked(
    invocation: &Invocation,
    input: &mut dyn Read,
    n: u64,
) -> Result<Vec<u8>, RunError> {
    let mut parser = invocation.make_parser()?;
    let mut trace = Trace::new();
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
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        let width = utf8_width(&s[i..]);
        if width > 1 || matches!(b, 0x20..=0x21 | 0x23..=0x5B | 0x5D..=0x7E) {
            out.extend_from_slice(&s[i..i + width.max(1)]);
            i += width.max(1);
            continue;
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
    out.push(b'"');
}

/// The length of the well-formed multi-byte UTF-8 sequence at the start of
/// `s` (shortest form, no surrogates, at most U+10FFFF), or 0.
fn utf8_width(s: &[u8]) -> usize {
    let cont = |i: usize, lo: u8, hi: u8| s.get(i).is_some_and(|b| (lo..=hi).contains(b));
    match s.first() {
        Some(0xC2..=0xDF) if cont(1, 0x80, 0xBF) => 2,
        Some(0xE0) if cont(1, 0xA0, 0xBF) && cont(2, 0x80, 0xBF) => 3,
        Some(0xE1..=0xEC | 0xEE | 0xEF) if cont(1, 0x80, 0xBF) && cont(2, 0x80, 0xBF) => 3,
        Some(0xED) if cont(1, 0x80, 0x9F) && cont(2, 0x80, 0xBF) => 3,
        Some(0xF0) if cont(1, 0x90, 0xBF) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF) => 4,
        Some(0xF1..=0xF3) if cont(1, 0x80, 0xBF) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF) => 4,
        Some(0xF4) if cont(1, 0x80, 0x8F) && cont(2, 0x80, 0xBF) && cont(3, 0x80, 0xBF) => 4,
        _ => 0,
    }
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
pub fn write_struct(result: &Struct, parser: &Parser, quiet: bool, out: &mut Vec<u8>) {
    out.extend_from_slice(if result.ok { b"ok 1\n" } else { b"ok 0\n" });
    if !quiet {
        out.extend_from_slice(b"values ");
        var_export_values(&result.values, out);
        out.extend_from_slice(b"\nindex ");
        var_export_index(&result.index, out);
        out.push(b'\n');
    }
    write_result_line(parser, out);
}

/// `var_export()` of a string: single quotes, `\` and `'` escaped, NUL
/// bytes as `' . "\0" . '`.
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
pub fn var_export_int(v: i64, out: &mut Vec<u8>) {
    if v == i64::MIN {
        out.extend_from_slice(b"-9223372036854775807-1");
    } else {
        out.extend_from_slice(v.to_string().as_bytes());
    }
}

fn export_key(key: &Key, out: &mut Vec<u8>) {
    match key {
        Key::Int(i) => out.extend_from_slice(i.to_string().as_bytes()),
        Key::Str(s) => var_export_string(s, out),
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

fn export_entry(entry: &Entry, out: &mut Vec<u8>) {
    let d = 2;
    string_element(d, "tag", &entry.tag, out);
    if entry.kind == EntryType::Cdata
        && let Some(value) = &entry.value
    {
        string_element(d, "value", value, out);
    }
    string_element(d, "type", entry.kind.as_str().as_bytes(), out);
    int_element(d, "level", entry.level, out);
    if let Some(attributes) = &entry.attributes {
        element_key(d, |o| var_export_string(b"attributes", o), out);
        open_nested(d, out);
        for (key, value) in attributes {
            element_key(d + 1, |o| export_key(key, o), out);
            var_export_string(value, out);
            out.extend_from_slice(b",\n");
        }
        close_nested(d, out);
    }
    if entry.kind != EntryType::Cdata
        && let Some(value) = &entry.value
    {
        string_element(d, "value", value, out);
    }
}

/// `var_export($values, true)`.
pub fn var_export_values(values: &[Entry], out: &mut Vec<u8>) {
    out.extend_from_slice(b"array (\n");
    for (i, entry) in values.iter().enumerate() {
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
#[derive(Default)]
pub struct Trace {
    lines: Vec<u8>,
    pending: Option<TextKind>,
    text: Vec<u8>,
}

impl Trace {
    /// An empty trace.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    fn flush(&mut self) {
        if let Some(kind) = self.pending.take() {
            self.lines.extend_from_slice(match kind {
                TextKind::Cdata => b"cdata ",
                TextKind::Default => b"default ",
            });
            quote(&self.text, &mut self.lines);
            self.lines.push(b'\n');
            self.text.clear();
        }
    }

    fn add_text(&mut self, kind: TextKind, data: &[u8]) {
        if self.pending != Some(kind) {
            self.flush();
            self.pending = Some(kind);
        }
        self.text.extend_from_slice(data);
    }

    /// Starts a line: flushes merged text, writes the word.
    fn line(&mut self, word: &str) -> &mut Vec<u8> {
        self.flush();
        self.lines.extend_from_slice(word.as_bytes());
        &mut self.lines
    }

    /// The script's output: the lines (unless `quiet`), `ok` with the
    /// return value of the last `xml_parse()` call and the `result` line.
    #[must_use]
    pub fn finish(mut self, parser: &Parser, ok: bool, quiet: bool) -> Vec<u8> {
        self.flush();
        let mut out = if quiet { Vec::new() } else { self.lines };
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
