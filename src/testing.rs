//! Holding Rust to PHP in your own tests: replay a directory of outputs
//! captured from PHP (`phpxml capture`, or the crate's own `fixtures/php`)
//! in `cargo test`, without PHP installed.
//!
//! A case is three files side by side: `NAME.xml` (the document),
//! `NAME.args` (one line, `struct|trace|json OPTIONS`: the command of the
//! reference script `phpxml.php` and its options) and `NAME.out` (what
//! PHP printed). [`Invocation`] plays the reference script's arguments on
//! bytes, exactly as `phpxml struct|trace` and `phpxml.php` do;
//! [`assert_replays`] checks a whole directory and fails with unified diffs.
//!
//! ```no_run
//! // tests/php.rs, with outputs captured by
//! // `phpxml capture --ns : feeds/ --out tests/php`:
//! #[test]
//! fn same_bytes_as_php() {
//!     phpxml::testing::assert_replays("tests/php".as_ref());
//! }
//! ```
//!
//! One case by hand:
//!
//! ```
//! use phpxml::testing::{Command, Invocation};
//!
//! let inv = Invocation::parse(Command::Struct, &["--quiet", "--case-folding", "0"])?;
//! let run = inv.run(b"<a></b>")?;
//! assert_eq!(run.stdout, b"ok 0\nresult 76 1 8 7 \"Mismatched tag\"\n");
//! assert_eq!(run.error_code, 76);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt::{self, Write as _};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::json::{JsonError, JsonFlags};
use crate::report::{self, Trace, int_cast};
use crate::{Error, OptionValue, Parser, XmlOption};

/// The reference script's command: the first word of a `.args` file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// `struct`: `xml_parse_into_struct()`, printed with `var_export()`
    /// (`phpxml struct`).
    Struct,
    /// `trace`: every handler call of `xml_parse()` (`phpxml trace`).
    Trace,
    /// `json`: `json_encode()` of the arrays of `xml_parse_into_struct()`
    /// (`phpxml struct --format json`).
    Json,
}

impl Command {
    /// The command's word: `struct`, `trace` or `json`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Struct => "struct",
            Self::Trace => "trace",
            Self::Json => "json",
        }
    }
}

impl FromStr for Command {
    type Err = ArgsError;

    fn from_str(s: &str) -> Result<Self, ArgsError> {
        match s {
            "struct" => Ok(Self::Struct),
            "trace" => Ok(Self::Trace),
            "json" => Ok(Self::Json),
            other => Err(ArgsError::UnknownCommand(other.to_owned())),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Arguments the reference script refuses (it prints `error: ...` and
/// exits 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgsError {
    /// An option that takes a value came last.
    MissingValue(String),
    /// An argument that is not an option of the command.
    Unexpected(String),
    /// A `.args` line that starts with something other than `struct`,
    /// `trace` or `json`.
    UnknownCommand(String),
    /// An empty `.args` line.
    NoCommand,
}

impl fmt::Display for ArgsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::MissingValue(option) => write!(f, "{option} needs a value"),
            Self::Unexpected(arg) => write!(f, "unexpected argument {arg}"),
            Self::UnknownCommand(c) => write!(f, "unknown command {c} (struct, trace or json)"),
            Self::NoCommand => f.write_str("no command (struct, trace or json)"),
        }
    }
}

impl std::error::Error for ArgsError {}

/// Why a run printed nothing, or stopped: PHP dies there.
#[derive(Debug)]
pub enum RunError {
    /// PHP throws a `ValueError` creating or configuring the parser (an
    /// unsupported encoding): nothing is printed.
    Php(Error),
    /// `json_encode()` throws a `JsonException` (`JSON_THROW_ON_ERROR`
    /// without `JSON_PARTIAL_OUTPUT_ON_ERROR`): PHP stops after printing
    /// `printed`.
    Json {
        /// The exception.
        error: JsonError,
        /// What was printed before it.
        printed: Vec<u8>,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Php(e) => write!(f, "PHP throws a ValueError: {e}"),
            Self::Json { error, .. } => write!(f, "PHP throws a JsonException: {error}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<Error> for RunError {
    fn from(e: Error) -> Self {
        Self::Php(e)
    }
}

/// The options of a reference-script command, parsed by the rules of its
/// `parse_args()`: each option is one PHP call, kept in the order given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    /// The command.
    pub command: Command,
    /// `--encoding ENC`: `xml_parser_create(ENC)`.
    pub encoding: Option<String>,
    /// `--ns SEP`: `xml_parser_create_ns(ENC, SEP)`.
    pub ns: Option<String>,
    /// The options, in the order given, values converted as PHP converts
    /// them (`(int)` except for the target encoding).
    pub options: Vec<(XmlOption, OptionValue)>,
    /// `--chunk N` (trace only): `max(1, (int)N)`.
    pub chunk: Option<u64>,
    /// `--quiet`: only the `ok` and `result` lines (json ignores it).
    pub quiet: bool,
    /// `--json-flags N` (json only): `(int)N`, of which `json_encode()`
    /// uses the low 32 bits; 0 when not given.
    pub json_flags: JsonFlags,
}

/// What a run printed, and the error state after the parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The script's standard output.
    pub stdout: Vec<u8>,
    /// `xml_get_error_code()` after the parse: 0 for a well-formed document.
    pub error_code: i32,
}

/// The document [`Invocation::run`] and [`Invocation::run_owned`] parse.
enum Document<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
}

impl Document<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Document::Borrowed(doc) => doc,
            Document::Owned(doc) => doc,
        }
    }
}

impl Invocation {
    /// No option: `xml_parser_create()` and the defaults.
    #[must_use]
    pub fn new(command: Command) -> Self {
        Self {
            command,
            encoding: None,
            ns: None,
            options: Vec::new(),
            chunk: None,
            quiet: false,
            json_flags: JsonFlags::NONE,
        }
    }

    /// Parses OPTIONS (no file) as the reference script does: each option
    /// takes the next argument as its value, whatever it is; integer values
    /// go through PHP's `(int)` cast (`--skip-white yes` is 0). For json,
    /// every `--json-flags N` pair is taken out first, wherever it stands
    /// (even where another option expects its value), the last one counting.
    ///
    /// # Errors
    ///
    /// [`ArgsError`] for an option without its value or any other argument.
    pub fn parse<S: AsRef<str>>(command: Command, args: &[S]) -> Result<Self, ArgsError> {
        let mut inv = Self::new(command);
        let mut rest: Vec<&str> = Vec::with_capacity(args.len());
        let mut i = 0;
        while let Some(a) = args.get(i).map(AsRef::as_ref) {
            match args.get(i + 1) {
                Some(v) if command == Command::Json && a == "--json-flags" => {
                    // `(int)options` in json_encode(): the low 32 bits.
                    #[allow(clippy::cast_sign_loss)]
                    let bits = int_cast(v.as_ref().as_bytes()) as u32;
                    inv.json_flags = JsonFlags::from_bits(bits);
                    i += 2;
                }
                _ => {
                    rest.push(a);
                    i += 1;
                }
            }
        }
        let mut rest = rest.into_iter();
        while let Some(a) = rest.next() {
            let option = match a {
                "--case-folding" => Some(XmlOption::CaseFolding),
                "--target-encoding" => Some(XmlOption::TargetEncoding),
                "--skip-white" => Some(XmlOption::SkipWhite),
                "--skip-tagstart" => Some(XmlOption::SkipTagstart),
                "--parse-huge" => Some(XmlOption::ParseHuge),
                _ => None,
            };
            let takes_value = option.is_some()
                || a == "--encoding"
                || a == "--ns"
                || (a == "--chunk" && command == Command::Trace);
            if !takes_value {
                if a == "--quiet" {
                    inv.quiet = true;
                    continue;
                }
                return Err(ArgsError::Unexpected(a.to_owned()));
            }
            let v = rest
                .next()
                .ok_or_else(|| ArgsError::MissingValue(a.to_owned()))?;
            match (a, option) {
                ("--encoding", _) => inv.encoding = Some(v.to_owned()),
                ("--ns", _) => inv.ns = Some(v.to_owned()),
                ("--chunk", _) => inv.chunk = Some(int_cast(v.as_bytes()).max(1).unsigned_abs()),
                (_, Some(XmlOption::TargetEncoding)) => inv
                    .options
                    .push((XmlOption::TargetEncoding, OptionValue::Str(v.to_owned()))),
                (_, Some(o)) => inv
                    .options
                    .push((o, OptionValue::Int(int_cast(v.as_bytes())))),
                (_, None) => unreachable!("only options take values"),
            }
        }
        Ok(inv)
    }

    /// Parses a `.args` line: `struct|trace|json OPTIONS`, words separated
    /// by whitespace.
    ///
    /// # Errors
    ///
    /// [`ArgsError`] for an unknown command or options [`Invocation::parse`]
    /// refuses.
    pub fn from_args_line(line: &str) -> Result<Self, ArgsError> {
        let mut words = line.split_whitespace();
        let command: Command = words.next().ok_or(ArgsError::NoCommand)?.parse()?;
        Self::parse(command, &words.collect::<Vec<_>>())
    }

    /// `make_parser()`: creates the parser and applies the options in
    /// order. A skip tagstart out of range is only a warning in PHP: the
    /// parser is still made.
    ///
    /// # Errors
    ///
    /// The `ValueError`s of PHP: an unsupported source or target encoding.
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

    /// Runs the command on the document `doc`: what `phpxml.php` (and the
    /// `phpxml` command) prints on standard output, and the error code.
    ///
    /// # Errors
    ///
    /// [`RunError`] where PHP dies.
    pub fn run(&self, doc: &[u8]) -> Result<Run, RunError> {
        self.run_document(Document::Borrowed(doc))
    }

    /// [`run`](Self::run) on a document given away: parsed where it is
    /// ([`Parser::parse_owned`], [`Parser::parse_into_struct_owned`]) but
    /// with `--chunk N`. The same output.
    ///
    /// # Errors
    ///
    /// [`RunError`] where PHP dies.
    pub fn run_owned(&self, doc: Vec<u8>) -> Result<Run, RunError> {
        self.run_document(Document::Owned(doc))
    }

    fn run_document(&self, doc: Document<'_>) -> Result<Run, RunError> {
        let mut parser = self.make_parser()?;
        let mut stdout = Vec::new();
        match self.command {
            Command::Struct | Command::Json => {
                let result = match doc {
                    Document::Borrowed(doc) => parser.parse_into_struct(doc),
                    Document::Owned(doc) => parser.parse_into_struct_owned(doc),
                };
                if self.command == Command::Struct {
                    report::write_struct(&result, &parser, self.quiet, &mut stdout);
                } else if let Err(error) =
                    report::write_struct_json(&result, self.json_flags, &mut stdout)
                {
                    return Err(RunError::Json {
                        error,
                        printed: stdout,
                    });
                }
            }
            Command::Trace => {
                let mut trace = if self.quiet {
                    Trace::quiet()
                } else {
                    Trace::new()
                };
                // `--chunk N`: pieces of N bytes up to the first failure, then "".
                let ok = match (self.chunk, doc) {
                    (None, Document::Borrowed(doc)) => parser.parse(&mut trace, doc, true),
                    (None, Document::Owned(doc)) => parser.parse_owned(&mut trace, doc),
                    (Some(n), doc) => {
                        let n = usize::try_from(n).unwrap_or(usize::MAX);
                        doc.bytes()
                            .chunks(n)
                            .all(|piece| parser.parse(&mut trace, piece, false))
                            && parser.parse(&mut trace, b"", true)
                    }
                };
                stdout = trace.finish(&parser, ok, self.quiet);
            }
        }
        Ok(Run {
            stdout,
            error_code: parser.error_code(),
        })
    }

    /// [`Invocation::run`]'s standard output alone, also where PHP dies:
    /// empty for a `ValueError`, what was printed before a `JsonException`.
    #[must_use]
    pub fn output(&self, doc: &[u8]) -> Vec<u8> {
        match self.run(doc) {
            Ok(run) => run.stdout,
            Err(RunError::Php(_)) => Vec::new(),
            Err(RunError::Json { printed, .. }) => printed,
        }
    }
}

/// One captured case: `NAME.{xml,args,out}`.
#[derive(Clone, Debug)]
pub struct Case {
    /// The path of `NAME` under the replayed directory, `/`-separated.
    pub name: String,
    /// The document, `NAME.xml`.
    pub xml: PathBuf,
    /// `NAME.args`, parsed.
    pub invocation: Invocation,
    /// `NAME.args` as written (without its line end).
    pub args: String,
    /// What PHP printed, `NAME.out`.
    pub expected: Vec<u8>,
}

impl Case {
    /// What the crate prints for the case.
    ///
    /// # Errors
    ///
    /// The document cannot be read.
    pub fn output(&self) -> Result<Vec<u8>, CaseError> {
        let doc = std::fs::read(&self.xml).map_err(|e| CaseError::io(&self.xml, &e))?;
        Ok(self.invocation.output(&doc))
    }
}

/// A case that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaseError {
    /// A file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The system's message.
        message: String,
    },
    /// A `.args` file the reference script would refuse.
    Args {
        /// The `.args` file.
        path: PathBuf,
        /// Why.
        error: ArgsError,
    },
}

impl CaseError {
    fn io(path: &Path, e: &std::io::Error) -> Self {
        Self::Io {
            path: path.to_owned(),
            message: e.to_string(),
        }
    }
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, message } => write!(f, "cannot read {}: {message}", path.display()),
            Self::Args { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for CaseError {}

/// Every case under `dir` (recursively), sorted by name. An `.args` file
/// without its `.xml` and `.out` is not a case yet and is left out.
///
/// # Errors
///
/// [`CaseError`] for an unreadable directory or file, or an `.args` line
/// the reference script refuses.
pub fn cases(dir: &Path) -> Result<Vec<Case>, CaseError> {
    let mut paths = Vec::new();
    args_files(dir, &mut paths)?;
    paths.sort();
    let mut cases = Vec::with_capacity(paths.len());
    for path in paths {
        let (xml, out) = (path.with_extension("xml"), path.with_extension("out"));
        if !xml.is_file() || !out.is_file() {
            continue;
        }
        let read = |p: &Path| std::fs::read(p).map_err(|e| CaseError::io(p, &e));
        let args = String::from_utf8_lossy(&read(&path)?).trim_end().to_owned();
        let invocation = Invocation::from_args_line(&args).map_err(|error| CaseError::Args {
            path: path.clone(),
            error,
        })?;
        let name = path
            .with_extension("")
            .strip_prefix(dir)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        cases.push(Case {
            name,
            expected: read(&out)?,
            xml,
            invocation,
            args,
        });
    }
    Ok(cases)
}

fn args_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), CaseError> {
    let entries = std::fs::read_dir(dir).map_err(|e| CaseError::io(dir, &e))?;
    for entry in entries {
        let path = entry.map_err(|e| CaseError::io(dir, &e))?.path();
        if path.is_dir() {
            args_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "args") {
            out.push(path);
        }
    }
    Ok(())
}

/// A case whose output differs from PHP's.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// The case's name.
    pub name: String,
    /// Its `.args` line.
    pub args: String,
    /// A unified diff from PHP's output (`-`) to the crate's (`+`).
    pub diff: String,
}

/// The result of [`replay`].
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// Cases that printed PHP's bytes.
    pub passed: usize,
    /// Cases that did not.
    pub mismatches: Vec<Mismatch>,
}

/// Replays every case under `dir`.
///
/// # Errors
///
/// [`CaseError`] as [`cases`] gives it, or an unreadable document.
pub fn replay(dir: &Path) -> Result<Replay, CaseError> {
    let mut replay = Replay::default();
    for case in cases(dir)? {
        let got = case.output()?;
        if got == case.expected {
            replay.passed += 1;
        } else {
            replay.mismatches.push(Mismatch {
                diff: unified_diff(&case.expected, &got, "php", "phpxml"),
                name: case.name,
                args: case.args,
            });
        }
    }
    Ok(replay)
}

/// Cases whose diff [`assert_replays`] prints.
const SHOWN: usize = 5;

/// Replays every case under `dir` and panics, with the unified diffs of
/// the first mismatches, if any case differs from PHP, if the directory
/// cannot be read, or if it holds no case at all (a missing corpus must
/// not pass).
///
/// # Panics
///
/// As said: that is the test failing.
pub fn assert_replays(dir: &Path) {
    let replay = replay(dir).unwrap_or_else(|e| panic!("{e}"));
    let total = replay.passed + replay.mismatches.len();
    assert!(
        total > 0,
        "no case (NAME.xml, NAME.args, NAME.out) under {}",
        dir.display()
    );
    if replay.mismatches.is_empty() {
        return;
    }
    let mut report = String::new();
    for m in replay.mismatches.iter().take(SHOWN) {
        let _ = write!(report, "\n{} ({})\n{}", m.name, m.args, m.diff);
    }
    panic!(
        "{} of {total} cases under {} differ from PHP:\n{report}",
        replay.mismatches.len(),
        dir.display()
    );
}

/// A unified diff of two outputs, line by line (bytes that are not UTF-8
/// shown as U+FFFD), three lines of context, at most 60 lines.
///
/// One hunk, from the first differing line to the last: outputs that
/// differ from PHP's usually differ in one place, and the library keeps
/// no diff crate in its users' dependency tree for a test report.
#[must_use]
pub fn unified_diff(expected: &[u8], got: &[u8], expected_name: &str, got_name: &str) -> String {
    const MOST: usize = 60;
    const CONTEXT: usize = 3;
    let (e, g) = (
        String::from_utf8_lossy(expected),
        String::from_utf8_lossy(got),
    );
    let (e, g): (Vec<&str>, Vec<&str>) = (
        e.split_inclusive('\n').collect(),
        g.split_inclusive('\n').collect(),
    );
    let same_head = e.iter().zip(&g).take_while(|(a, b)| a == b).count();
    let same_tail = e[same_head..]
        .iter()
        .rev()
        .zip(g[same_head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let mut text = String::new();
    if same_head + same_tail < e.len().max(g.len()) {
        let start = same_head.saturating_sub(CONTEXT);
        let (e_end, g_end) = (
            (e.len() - same_tail + CONTEXT).min(e.len()),
            (g.len() - same_tail + CONTEXT).min(g.len()),
        );
        // A hunk's range: its first line (1-based; the line before it when
        // empty) and its length, as diff -u writes them.
        let range = |len: usize| format!("{},{len}", if len == 0 { start } else { start + 1 });
        let _ = write!(
            text,
            "--- {expected_name}\n+++ {got_name}\n@@ -{} +{} @@\n",
            range(e_end - start),
            range(g_end - start)
        );
        let line = |text: &mut String, mark: char, l: &str| {
            text.push(mark);
            text.push_str(l);
            if !l.ends_with('\n') {
                text.push_str("\n\\ No newline at end of file\n");
            }
        };
        for l in &e[start..same_head] {
            line(&mut text, ' ', l);
        }
        for l in &e[same_head..e.len() - same_tail] {
            line(&mut text, '-', l);
        }
        for l in &g[same_head..g.len() - same_tail] {
            line(&mut text, '+', l);
        }
        for l in &e[e.len() - same_tail..e_end] {
            line(&mut text, ' ', l);
        }
    }
    let mut lines = text.lines();
    let mut shown = String::new();
    for l in lines.by_ref().take(MOST) {
        shown.push_str(l);
        shown.push('\n');
    }
    let more = lines.count();
    if more > 0 {
        let _ = writeln!(shown, "... {more} more lines of diff");
    }
    if shown.is_empty() && expected != got {
        // Only bytes that are not UTF-8 differ.
        shown.push_str("outputs differ in bytes that are not UTF-8\n");
    }
    shown
}

/// Converts `raw` in the charset a document's declaration names (`label`)
/// to UTF-8, appending to `out`, as the parser's input layer does on one
/// push (`xmlCharEncInput`): `None` for a label PHP's libxml2 would not
/// open here ("Unsupported encoding"), else whether the whole of `raw` was
/// converted (`false` at a byte the charset rejects). For measuring the
/// decoders apart from the parser (`benches/decode.rs`).
///
/// ```
/// let mut out = Vec::new();
/// assert_eq!(phpxml::testing::convert_declared(b"windows-1251", b"\xcf\xf0", &mut out), Some(true));
/// assert_eq!(out, "Пр".as_bytes());
/// ```
#[must_use]
pub fn convert_declared(label: &[u8], raw: &[u8], out: &mut Vec<u8>) -> Option<bool> {
    crate::libxml::convert_declared(label, raw, out)
}

/// A [`Utf8Handler`](crate::Utf8Handler) that hands every call on to a
/// byte [`Handler`](crate::Handler), each `&str` as its bytes and the
/// attribute pairs as [`Key::Str`](crate::Key::Str) and value: one
/// recording handler driven through [`Parser::feed_utf8`] and through
/// [`Parser::parse`] records both flavours' calls alike, to compare them.
///
/// ```
/// use phpxml::testing::Utf8AsBytes;
/// use phpxml::{Handler, Parser};
///
/// #[derive(Default)]
/// struct Ends(Vec<Vec<u8>>);
/// impl Handler for Ends {
///     fn end_element(&mut self, name: &[u8]) {
///         self.0.push(name.to_vec());
///     }
/// }
///
/// let (mut bytes, mut text) = (Ends::default(), Utf8AsBytes(Ends::default()));
/// assert!(Parser::new(None)?.parse(&mut bytes, "<é/>".as_bytes(), true));
/// Parser::new(None)?.feed_utf8(&mut text, "<é/>".as_bytes(), true)?;
/// assert_eq!(bytes.0, text.0.0);
/// # Ok::<(), phpxml::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Utf8AsBytes<H>(pub H);

impl<H: crate::Handler> crate::Utf8Handler for Utf8AsBytes<H> {
    fn installed(&self) -> crate::HandlerSet {
        self.0.installed()
    }

    fn start_element(&mut self, name: &str, attributes: &[(&str, &str)]) {
        let attributes: Vec<(crate::Key, Vec<u8>)> = attributes
            .iter()
            .map(|(k, v)| {
                (
                    crate::Key::Str(k.as_bytes().to_vec()),
                    v.as_bytes().to_vec(),
                )
            })
            .collect();
        self.0.start_element(name.as_bytes(), &attributes);
    }

    fn end_element(&mut self, name: &str) {
        self.0.end_element(name.as_bytes());
    }

    fn character_data(&mut self, data: &str) {
        self.0.character_data(data.as_bytes());
    }

    fn processing_instruction(&mut self, target: &str, data: Option<&str>) {
        self.0
            .processing_instruction(target.as_bytes(), data.map(str::as_bytes));
    }

    fn default_data(&mut self, data: &str) {
        self.0.default_data(data.as_bytes());
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &str,
        base: Option<&str>,
        system_id: Option<&str>,
        public_id: Option<&str>,
        notation: Option<&str>,
    ) {
        self.0.unparsed_entity_decl(
            name.as_bytes(),
            base.map(str::as_bytes),
            system_id.map(str::as_bytes),
            public_id.map(str::as_bytes),
            notation.map(str::as_bytes),
        );
    }

    fn notation_decl(
        &mut self,
        name: &str,
        base: Option<&str>,
        system_id: Option<&str>,
        public_id: Option<&str>,
    ) {
        self.0.notation_decl(
            name.as_bytes(),
            base.map(str::as_bytes),
            system_id.map(str::as_bytes),
            public_id.map(str::as_bytes),
        );
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &str,
        base: Option<&str>,
        system_id: Option<&str>,
        public_id: Option<&str>,
    ) -> bool {
        self.0.external_entity_ref(
            open_entity_names.as_bytes(),
            base.map(str::as_bytes),
            system_id.map(str::as_bytes),
            public_id.map(str::as_bytes),
        )
    }

    fn start_namespace_decl(&mut self, prefix: Option<&str>, uri: &str) {
        self.0
            .start_namespace_decl(prefix.map(str::as_bytes), uri.as_bytes());
    }

    fn end_namespace_decl(&mut self, prefix: Option<&str>) {
        self.0.end_namespace_decl(prefix.map(str::as_bytes));
    }

    fn stop_requested(&self) -> bool {
        self.0.stop_requested()
    }
}
