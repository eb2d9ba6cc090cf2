//! Many inputs: files and directories, parsed on all cores, printed in
//! input order, each after a `==> PATH <==` header line; `--format ndjson`;
//! `--fail-on-error`.

use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use phpxml::error_string;
use phpxml::json::{JsonError, JsonFlags};
use phpxml::report::JsonArrays;
use phpxml::testing::{self, RunError};
use rayon::prelude::*;

use crate::Failure;
use crate::script::{Inputs, Invocation};

/// Files given to the workers at a time: the outputs of one batch are held
/// in memory, then printed in order.
const BATCH: usize = 512;

/// The path to open for an input: `-` is standard input.
pub fn input_path(file: &str) -> &str {
    if file == "-" && cfg!(unix) {
        "/dev/stdin"
    } else {
        file
    }
}

/// Reads one input whole.
pub fn read_input(file: &str) -> io::Result<Vec<u8>> {
    if file == "-" {
        let mut data = Vec::new();
        io::stdin().lock().read_to_end(&mut data)?;
        Ok(data)
    } else {
        std::fs::read(file)
    }
}

/// One input and its name below the directory it was found in (the
/// file's stem when given as a file): a case name for `capture`.
pub struct Input {
    /// The path to read (`-`: standard input).
    pub file: String,
    /// `below/the/directory/stem`.
    pub name: String,
}

/// The inputs: files as given, directories walked recursively (sorted by
/// name) for the files whose name matches `glob` (default `*.xml`; a
/// pattern with a `/` matches the path below the directory). Also whether
/// a directory was given.
pub fn expand(paths: &[String], glob: Option<&str>) -> Result<(Vec<Input>, bool), Failure> {
    let pattern = glob.unwrap_or("*.xml");
    let matcher = globset::Glob::new(pattern)
        .map_err(|e| Failure::Usage(format!("bad --glob {pattern}: {}", e.kind())))?
        .compile_matcher();
    let whole_path = pattern.contains('/');
    let stem = |p: &Path| p.with_extension("").to_string_lossy().replace('\\', "/");
    let mut inputs = Vec::new();
    let mut walked = false;
    for path in paths {
        if path == "-" || !Path::new(path).is_dir() {
            let name = Path::new(path)
                .file_name()
                .map_or_else(|| "stdin".to_owned(), |n| stem(Path::new(n)));
            inputs.push(Input {
                file: path.clone(),
                name,
            });
            continue;
        }
        walked = true;
        for entry in walkdir::WalkDir::new(path).sort_by_file_name() {
            let entry = entry.map_err(|e| Failure::Refused(format!("cannot walk {path}: {e}")))?;
            if !entry.file_type().is_file() {
                continue;
            }
            let below = entry.path().strip_prefix(path).unwrap_or(entry.path());
            let matched = if whole_path {
                matcher.is_match(below)
            } else {
                matcher.is_match(entry.file_name())
            };
            if matched {
                inputs.push(Input {
                    file: entry.path().to_string_lossy().into_owned(),
                    name: stem(below),
                });
            }
        }
    }
    Ok((inputs, walked))
}

/// A progress bar on standard error when it is a terminal and there is
/// more than one input; hidden otherwise.
pub fn progress(len: usize) -> ProgressBar {
    if len < 2 || !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} (eta {eta})") {
        bar.set_style(style);
    }
    bar
}

/// A pool of `jobs` workers (default: one per core).
pub fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| Failure::Io(format!("cannot start workers: {e}")))
}

/// What one input gave.
enum Outcome {
    /// The output and the error code of the parse.
    Printed { output: Vec<u8>, error_code: i32 },
    /// PHP stopped (a `JsonException`) after printing `output`.
    Died { output: Vec<u8>, why: String },
    /// The file could not be read.
    Unreadable(String),
}

/// `struct` and `trace` on the inputs. One file, without `--format ndjson`
/// or `--fail-on-error`, is played by `parse::play_one`: the byte contract.
pub fn play(php: testing::Invocation, ndjson: bool, inputs: &Inputs) -> Result<(), Failure> {
    if inputs.files.is_empty() {
        return Err(Failure::Usage("no input file".to_owned()));
    }
    let (files, walked) = expand(&inputs.files, inputs.glob.as_deref())?;
    let files: Vec<String> = files.into_iter().map(|i| i.file).collect();
    let headers = walked || files.len() > 1;
    if !headers && !ndjson && !inputs.fail_on_error {
        let file = files.into_iter().next().unwrap_or_default();
        return crate::parse::play_one(&Invocation { php, file });
    }
    // PHP dies on a ValueError before reading anything.
    let parser = php
        .make_parser()
        .map_err(|e| Failure::Refused(format!("PHP throws a ValueError: {e}")))?;
    if ndjson && !headers {
        // one document: its line goes out as it is encoded
        if let [file] = files.as_slice()
            && let Ok(doc) = read_input(file)
        {
            let mut stdout = io::BufWriter::with_capacity(1 << 16, crate::block_stdout());
            let arrays = JsonArrays::parse(parser, doc, ndjson_flags(&php));
            let code = ndjson_line(file, &arrays, &mut stdout).map_err(write_failure)?;
            // the process exits next: its memory goes back whole
            std::mem::forget(arrays);
            stdout.flush().map_err(write_failure)?;
            if inputs.fail_on_error && code != 0 {
                return Err(Failure::Malformed(
                    "1 of 1 documents are malformed".to_owned(),
                ));
            }
            return Ok(());
        }
    }
    let pool = pool(inputs.jobs)?;
    let bar = progress(files.len());
    let mut stdout = io::BufWriter::with_capacity(1 << 16, crate::block_stdout());
    let (mut malformed, mut unreadable) = (0usize, 0usize);
    for batch in files.chunks(BATCH) {
        let outcomes: Vec<Outcome> = pool.install(|| {
            batch
                .par_iter()
                .map(|file| {
                    let outcome = run_one(&php, file, ndjson);
                    bar.inc(1);
                    outcome
                })
                .collect()
        });
        for (file, outcome) in batch.iter().zip(outcomes) {
            // As head(1): no header for a file that cannot be read.
            if headers && !ndjson && !matches!(outcome, Outcome::Unreadable(_)) {
                writeln!(stdout, "==> {file} <==").map_err(write_failure)?;
            }
            match outcome {
                Outcome::Printed { output, error_code } => {
                    stdout.write_all(&output).map_err(write_failure)?;
                    malformed += usize::from(error_code != 0);
                }
                Outcome::Died { output, why } => {
                    stdout.write_all(&output).map_err(write_failure)?;
                    bar.suspend(|| eprintln!("phpxml: {file}: {why}"));
                    unreadable += 1;
                }
                Outcome::Unreadable(why) => {
                    if ndjson {
                        let line = format!(
                            "{{\"file\":{},\"read_error\":{}}}\n",
                            json_string(file),
                            json_string(&why)
                        );
                        stdout.write_all(line.as_bytes()).map_err(write_failure)?;
                    }
                    bar.suspend(|| eprintln!("phpxml: {why}"));
                    unreadable += 1;
                }
            }
        }
    }
    bar.finish_and_clear();
    stdout.flush().map_err(write_failure)?;
    if unreadable > 0 {
        return Err(Failure::Refused(format!(
            "{unreadable} of {} inputs could not be read or run",
            files.len()
        )));
    }
    if inputs.fail_on_error && malformed > 0 {
        return Err(Failure::Malformed(format!(
            "{malformed} of {} documents are malformed",
            files.len()
        )));
    }
    Ok(())
}

/// A write to standard output failed: quietly done if its reader left.
#[allow(clippy::needless_pass_by_value)] // a `map_err` argument
pub fn write_failure(e: io::Error) -> Failure {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Failure::ClosedPipe
    } else {
        Failure::Io(format!("cannot write output: {e}"))
    }
}

fn run_one(php: &testing::Invocation, file: &str, ndjson: bool) -> Outcome {
    let doc = match read_input(file) {
        Ok(doc) => doc,
        Err(e) => return Outcome::Unreadable(format!("cannot read {file}: {e}")),
    };
    if ndjson {
        return match php.make_parser() {
            Ok(parser) => {
                let mut output = Vec::new();
                let arrays = JsonArrays::parse(parser, doc, ndjson_flags(php));
                match ndjson_line(file, &arrays, &mut output) {
                    Ok(error_code) => Outcome::Printed { output, error_code },
                    Err(e) => Outcome::Died {
                        output: Vec::new(),
                        why: e.to_string(),
                    },
                }
            }
            Err(e) => Outcome::Died {
                output: Vec::new(),
                why: format!("PHP throws a ValueError: {e}"),
            },
        };
    }
    match php.run_owned(doc) {
        Ok(run) => Outcome::Printed {
            output: run.stdout,
            error_code: run.error_code,
        },
        Err(RunError::Json { error, printed }) => Outcome::Died {
            output: printed,
            why: format!("PHP throws a JsonException: {error}"),
        },
        Err(e) => Outcome::Died {
            output: Vec::new(),
            why: e.to_string(),
        },
    }
}

/// The JSON flags of `--format ndjson`: the invocation's, but one line.
fn ndjson_flags(php: &testing::Invocation) -> JsonFlags {
    JsonFlags::from_bits(php.json_flags.bits() & !JsonFlags::PRETTY_PRINT.bits())
}

/// A JSON string (`serde_json`'s escaping; any valid JSON would do).
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// `--format ndjson`: one line per document,
/// `{"file", "ok", "error": {code, message, line, column, byte_index},
/// "values", "index", "values_error", "index_error"}`, `values` and `index`
/// being PHP's `json_encode()` bytes (`JSON_PRETTY_PRINT` left out: one
/// line), or `null` with `*_error` saying why the encoding failed.
fn ndjson_line(file: &str, arrays: &JsonArrays, out: &mut impl Write) -> io::Result<i32> {
    let parser = arrays.parser();
    let code = parser.error_code();
    write!(
        out,
        "{{\"file\":{},\"ok\":{},\"error\":{{\"code\":{code},\"message\":{},\"line\":{},\"column\":{},\"byte_index\":{}}}",
        json_string(file),
        u8::from(arrays.ok()),
        json_string(error_string(code)),
        parser.line(),
        parser.column(),
        parser.byte_index(),
    )?;
    let partial = arrays.flags().contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR);
    out.write_all(b",\"values\":")?;
    let error = arrays.write_values(&mut *out)?;
    write_failure_field(out, "values", error, partial)?;
    out.write_all(b",\"index\":")?;
    let error = arrays.write_index(&mut *out)?;
    write_failure_field(out, "index", error, partial)?;
    out.write_all(b"}\n")?;
    Ok(code)
}

/// After an array: `null` where `json_encode()` returned `false`, then
/// `"NAME_error":` and why the encoding failed (`null` when it did not):
/// `json_last_error()`, its message and what to do about it.
fn write_failure_field(
    out: &mut impl Write,
    name: &str,
    error: Option<JsonError>,
    partial: bool,
) -> io::Result<()> {
    let Some(error) = error else {
        return write!(out, ",\"{name}_error\":null");
    };
    if !partial {
        out.write_all(b"null")?;
    }
    let hint = if error == JsonError::Utf8 {
        "json_encode() takes UTF-8 only, and the target encoding gave other bytes: \
         PHP prints `false 5`; use a UTF-8 target, or --json-flags with \
         JSON_INVALID_UTF8_SUBSTITUTE (2097152) or JSON_INVALID_UTF8_IGNORE (1048576)"
    } else {
        "PHP's json_encode() returns false"
    };
    write!(
        out,
        ",\"{name}_error\":{{\"code\":{},\"message\":{},\"explanation\":{}}}",
        error.code(),
        json_string(error.message()),
        json_string(hint)
    )
}
