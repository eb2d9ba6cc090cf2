//! The reference scripts' arguments: which script `phpxml struct` and
//! `phpxml trace` play, and `common.php`'s `parse_args()` and
//! `make_parser()`.
//!
//! Public library API only, so that the tests replaying the fixture corpus
//! can include this file and build parsers from the captured arguments.

use std::fmt;

use phpxml::json::JsonFlags;
use phpxml::report::int_cast;
use phpxml::{Error, OptionValue, Parser, XmlOption};

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

/// `phpxml struct`'s arguments: `--format php` (the default: `struct.php`)
/// or `--format json` (`json.php`), wherever it stands, the last one
/// counting; the other arguments are returned in order.
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
