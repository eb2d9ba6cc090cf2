//! The arguments of `phpxml struct|trace|compare|capture`, parsed with clap.
//!
//! The options that are PHP calls (`--encoding`, `--ns`, `--case-folding`,
//! `--target-encoding`, `--skip-white`, `--skip-tagstart`, `--parse-huge`, `--chunk`,
//! `--json-flags`, `--quiet`) are order-sensitive: clap collects them,
//! [`php_args`] puts them back in the order given (clap's argument indices),
//! and [`phpxml::testing::Invocation::parse`] gives them PHP's meaning:
//! one implementation, shared with the fixture replay, and the same words
//! go to PHP in `phpxml compare`. Their values are taken as PHP takes them
//! (`--skip-white yes` is `(int)"yes"`, 0; a value may start with `-`);
//! `--chunk` alone is validated (see [`chunk`]).

use std::ops::Deref;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::parser::ValueSource;
use clap::{ArgMatches, Args, Parser, ValueEnum};
pub use phpxml::testing::Command;
use phpxml::testing::{self, ArgsError};

use crate::Failure;

/// A run of the reference script on one file: what `parse::run` plays.
pub struct Invocation {
    /// The options.
    pub php: testing::Invocation,
    /// The file to read (`-`: standard input).
    pub file: String,
}

impl Deref for Invocation {
    type Target = testing::Invocation;

    fn deref(&self) -> &testing::Invocation {
        &self.php
    }
}

/// The options that are PHP calls, shared by every parsing command (read
/// back in order by [`php_args`]; the fields only declare them).
#[derive(Args, Debug)]
#[allow(clippy::struct_field_names)]
pub struct PhpOptions {
    #[arg(long, value_name = "ENC", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    encoding: Vec<String>,
    #[arg(long, value_name = "SEP", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    ns: Vec<String>,
    #[arg(long, value_name = "N", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    case_folding: Vec<String>,
    #[arg(long, value_name = "ENC", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    target_encoding: Vec<String>,
    #[arg(long, value_name = "N", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    skip_white: Vec<String>,
    #[arg(long, value_name = "N", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    skip_tagstart: Vec<String>,
    #[arg(long, value_name = "N", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    parse_huge: Vec<String>,
    #[arg(long, action = clap::ArgAction::Count)]
    quiet: u8,
}

/// The PHP options of the parsing commands, by clap id and option name.
const PHP_OPTIONS: [(&str, &str); 10] = [
    ("encoding", "--encoding"),
    ("ns", "--ns"),
    ("case_folding", "--case-folding"),
    ("target_encoding", "--target-encoding"),
    ("skip_white", "--skip-white"),
    ("skip_tagstart", "--skip-tagstart"),
    ("parse_huge", "--parse-huge"),
    ("chunk", "--chunk"),
    ("json_flags", "--json-flags"),
    ("quiet", "--quiet"),
];

/// The PHP options as the reference script's words, in the order given.
pub fn php_args(matches: &ArgMatches) -> Vec<String> {
    let mut words: Vec<(usize, Vec<String>)> = Vec::new();
    for (id, name) in PHP_OPTIONS {
        // Not an option of this command, or a flag's default (0 times).
        if !matches.ids().any(|i| i.as_str() == id)
            || matches.value_source(id) != Some(ValueSource::CommandLine)
        {
            continue;
        }
        let Some(indices) = matches.indices_of(id) else {
            continue;
        };
        if id == "quiet" {
            words.extend(indices.map(|i| (i, vec![name.to_owned()])));
            continue;
        }
        let values = matches
            .get_raw(id)
            .into_iter()
            .flatten()
            .map(|v| v.to_string_lossy().into_owned());
        words.extend(
            indices
                .zip(values)
                .map(|(i, v)| (i, vec![name.to_owned(), v])),
        );
    }
    words.sort_by_key(|(i, _)| *i);
    words.into_iter().flat_map(|(_, w)| w).collect()
}

/// `--chunk N`: a whole number of bytes, at least 1. (PHP's `trace.php`
/// reads `max(1, (int)N)`, so `--chunk 0` and `--chunk abc` would quietly
/// feed one byte at a time: refused here as the mistakes they are.)
fn chunk(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("a whole number of bytes, at least 1".to_owned()),
    }
}

/// `--jobs N`: at least one worker.
fn jobs(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err("a whole number of workers, at least 1".to_owned()),
    }
}

/// `--glob PATTERN`: checked as a glob at once.
fn glob(s: &str) -> Result<String, String> {
    globset::Glob::new(s)
        .map(|_| s.to_owned())
        .map_err(|e| e.kind().to_string())
}

/// What `struct` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `struct.php`: `var_export()`.
    Php,
    /// `json.php`: `json_encode()` of `$values` and `$index`, two lines.
    Json,
    /// One JSON object per file and line.
    Ndjson,
}

/// The options for many files, shared by the parsing commands.
#[derive(Args, Debug)]
pub struct Inputs {
    /// Exit 3 when any document is malformed.
    #[arg(long)]
    pub fail_on_error: bool,
    /// Parallel workers (default: one per core).
    #[arg(long, value_name = "N", value_parser = jobs)]
    pub jobs: Option<usize>,
    /// Files taken from directories (default `*.xml`).
    #[arg(long, value_name = "PATTERN", value_parser = glob)]
    pub glob: Option<String>,
    /// Files and directories; `-` is standard input.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
}

/// `phpxml struct`.
#[derive(Parser, Debug)]
#[command(
    name = "phpxml struct",
    no_binary_name = true,
    disable_help_flag = true
)]
pub struct StructArgs {
    #[command(flatten)]
    calls: PhpOptions,
    #[arg(long, value_enum, default_value = "php", overrides_with = "format")]
    pub format: Format,
    #[arg(long, value_name = "N", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    json_flags: Vec<String>,
    #[command(flatten)]
    pub inputs: Inputs,
}

/// `phpxml trace`.
#[derive(Parser, Debug)]
#[command(name = "phpxml trace", no_binary_name = true, disable_help_flag = true)]
pub struct TraceArgs {
    #[command(flatten)]
    calls: PhpOptions,
    #[arg(long, value_name = "N", value_parser = chunk, allow_hyphen_values = true, action = clap::ArgAction::Append)]
    chunk: Vec<u64>,
    #[command(flatten)]
    pub inputs: Inputs,
}

/// The report of `compare`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// A summary and unified diffs.
    Text,
    /// One JSON document.
    Json,
}

/// `phpxml compare` and `phpxml capture`.
#[derive(Parser, Debug)]
#[command(
    name = "phpxml compare",
    no_binary_name = true,
    disable_help_flag = true
)]
pub struct CompareArgs {
    #[command(flatten)]
    calls: PhpOptions,
    #[arg(long, value_name = "N", value_parser = chunk, allow_hyphen_values = true, action = clap::ArgAction::Append)]
    chunk: Vec<u64>,
    #[arg(long, value_name = "N", allow_hyphen_values = true, action = clap::ArgAction::Append)]
    json_flags: Vec<String>,
    /// The reference script's command.
    #[arg(long, value_name = "COMMAND", default_value = "struct", value_parser = ["struct", "trace", "json"])]
    pub script: String,
    /// The PHP command line.
    #[arg(long, value_name = "CMD", default_value = "php")]
    pub php: String,
    /// The report (compare).
    #[arg(long, value_enum, default_value = "text", overrides_with = "format")]
    pub format: ReportFormat,
    /// Differences shown (compare).
    #[arg(long, value_name = "N", default_value = "3")]
    pub show: usize,
    /// Where to write the cases (capture).
    #[arg(long, value_name = "DIR")]
    pub out: Option<String>,
    #[command(flatten)]
    pub inputs: Inputs,
}

/// Parses a command's arguments; clap's own errors become ours.
///
/// `--json-flags N` is taken out first, wherever it stands before `--`
/// (even where another option expects its value), as `json.php` does; the
/// last one counts.
pub fn parse<T: Parser>(args: &[String]) -> Result<(T, Vec<String>), Failure> {
    let command = T::command();
    let mut json_flags = None;
    let mut rest = Vec::with_capacity(args.len());
    let takes_json_flags = command.get_arguments().any(|a| a.get_id() == "json_flags");
    let mut words = args.iter();
    while let Some(a) = words.next() {
        if a == "--" {
            rest.push(a.clone());
            rest.extend(words.by_ref().cloned());
        } else if takes_json_flags && a == "--json-flags" && words.len() > 0 {
            json_flags = words.next().cloned();
        } else {
            rest.push(a.clone());
        }
    }
    let matches = command
        .try_get_matches_from(rest)
        .map_err(|e| Failure::Usage(clap_message(&e)))?;
    let parsed = T::from_arg_matches(&matches).map_err(|e| Failure::Usage(clap_message(&e)))?;
    let mut php = php_args(&matches);
    if let Some(n) = json_flags {
        php.extend(["--json-flags".to_owned(), n]);
    }
    Ok((parsed, php))
}

/// One line for a clap error: `unknown option --x` for an option the
/// command does not have, clap's own sentence otherwise.
fn clap_message(e: &clap::Error) -> String {
    if e.kind() == ErrorKind::UnknownArgument
        && let Some(ContextValue::String(arg)) = e.get(ContextKind::InvalidArg)
    {
        return if arg.starts_with('-') && arg.len() > 1 {
            format!("unknown option {arg}")
        } else {
            format!("unexpected argument {arg}")
        };
    }
    let text = e.render().to_string();
    let first = text.lines().next().unwrap_or_default();
    first.strip_prefix("error: ").unwrap_or(first).to_owned()
}

/// At least one input: else `no input file`, saying which option took a
/// file as its value (`--skip-white a.xml`: PHP's rule, the next argument
/// whatever it is).
pub fn require_files(inputs: &Inputs, php_args: &[String]) -> Result<(), Failure> {
    if !inputs.files.is_empty() {
        return Ok(());
    }
    let swallowed = php_args
        .windows(2)
        .rev()
        .find(|w| w[0].starts_with("--") && std::path::Path::new(&w[1]).is_file());
    Err(Failure::Usage(match swallowed {
        Some(w) => format!("no input file ({} took {} as its value)", w[0], w[1]),
        None => "no input file".to_owned(),
    }))
}

/// The reference script's meaning of the PHP options.
pub fn invocation(command: Command, php_args: &[String]) -> Result<testing::Invocation, Failure> {
    testing::Invocation::parse(command, php_args)
        .map_err(|e: ArgsError| Failure::Usage(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::{Format, StructArgs, TraceArgs, parse};
    use crate::Failure;

    fn args(words: &[&str]) -> Vec<String> {
        words.iter().map(|&w| w.to_owned()).collect()
    }

    fn usage<T: clap::Parser + std::fmt::Debug>(words: &[&str]) -> String {
        match parse::<T>(&args(words)) {
            Err(Failure::Usage(why)) => why,
            other => panic!("{words:?}: {other:?}"),
        }
    }

    #[test]
    fn php_options_keep_their_order_and_values() {
        let (s, php) = parse::<StructArgs>(&args(&[
            "--skip-white",
            "yes",
            "--format",
            "json",
            "a.xml",
            "--case-folding",
            "0",
            "--json-flags",
            "128",
            "--ns",
            "--quiet",
            "--skip-white",
            "1",
        ]))
        .unwrap();
        assert_eq!(s.format, Format::Json);
        assert_eq!(s.inputs.files, ["a.xml"]);
        assert_eq!(
            php,
            args(&[
                "--skip-white",
                "yes",
                "--case-folding",
                "0",
                "--ns",
                "--quiet",
                "--skip-white",
                "1",
                "--json-flags",
                "128"
            ])
        );
    }

    #[test]
    fn json_flags_are_taken_out_first() {
        let words = [
            "--target-encoding",
            "--json-flags",
            "128",
            "ISO-8859-1",
            "a.xml",
        ];
        let (s, php) = parse::<StructArgs>(&args(&words)).unwrap();
        assert_eq!(s.inputs.files, ["a.xml"]);
        assert_eq!(
            php,
            ["--target-encoding", "ISO-8859-1", "--json-flags", "128"]
        );
    }

    #[test]
    fn chunk_must_be_at_least_one() {
        for bad in ["0", "abc", "-3", ""] {
            let why = usage::<TraceArgs>(&["--chunk", bad, "a.xml"]);
            assert!(why.contains("at least 1"), "{bad}: {why}");
        }
        let (_, php) = parse::<TraceArgs>(&args(&["--chunk", "7", "a.xml"])).unwrap();
        assert_eq!(php, ["--chunk", "7"]);
    }

    #[test]
    fn unknown_options_are_named() {
        assert_eq!(
            usage::<StructArgs>(&["--bogus", "a.xml"]),
            "unknown option --bogus"
        );
        assert_eq!(
            usage::<StructArgs>(&["--chunk", "4", "a.xml"]),
            "unknown option --chunk"
        );
    }

    #[test]
    fn double_dash_ends_options() {
        let (s, php) = parse::<StructArgs>(&args(&["--", "--quiet", "-"])).unwrap();
        assert_eq!(s.inputs.files, ["--quiet", "-"]);
        assert!(php.is_empty());
    }
}
