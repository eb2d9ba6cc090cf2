//! `phpxml struct` and `phpxml trace`: what the PHP reference scripts
//! `struct.php`, `json.php` (`struct --format json`) and `trace.php` print,
//! byte for byte.

use std::fs::File;
use std::io::{self, Read, Write};

use phpxml::Error;
use phpxml::json::JsonError;
use phpxml::report::{self, Trace};

use crate::Failure;
use crate::script::{Command, Invocation, struct_format};

/// Why a run printed nothing (or, for a `JsonException`, stopped).
enum RunError {
    /// The input could not be read (exit status 2, as the scripts do).
    Read(String),
    /// The output could not be written (exit status 1).
    Write(String),
    /// PHP threw a `ValueError` creating or configuring the parser.
    Php(Error),
    /// `json_encode()` threw a `JsonException`: `JSON_THROW_ON_ERROR`
    /// without `JSON_PARTIAL_OUTPUT_ON_ERROR`, and the encoding failed.
    /// PHP stops there.
    Json(JsonError),
}

impl From<Error> for RunError {
    fn from(e: Error) -> Self {
        Self::Php(e)
    }
}

#[allow(clippy::needless_pass_by_value)] // a `map_err` argument
fn write_error(e: io::Error) -> RunError {
    RunError::Write(format!("cannot write output: {e}"))
}

fn play(command: Command, args: &[String]) -> Result<(), Failure> {
    let invocation = Invocation::parse(command, args).map_err(|e| Failure::Usage(e.to_string()))?;
    let mut stdout = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let written = run(&invocation, &mut stdout).and_then(|()| stdout.flush().map_err(write_error));
    written.map_err(|e| match e {
        RunError::Write(why) => Failure::Io(why),
        // The scripts exit 2 when the file cannot be read; where PHP dies on
        // a ValueError nothing reaches standard output either.
        RunError::Read(why) => Failure::Refused(why),
        RunError::Json(e) => Failure::Refused(format!("PHP throws a JsonException: {e}")),
        RunError::Php(e) => Failure::Refused(format!("PHP throws a ValueError: {e}")),
    })
}

/// `struct [--format php|json] [--json-flags N] [OPTIONS] FILE`.
pub fn structure(args: &[String]) -> Result<(), Failure> {
    let (command, args) = struct_format(args).map_err(|e| Failure::Usage(e.to_string()))?;
    play(command, &args)
}

/// `trace [OPTIONS] [--chunk N] FILE`.
pub fn trace(args: &[String]) -> Result<(), Failure> {
    play(Command::Trace, args)
}

/// Runs a script on the file of the invocation, writing its standard output
/// to `out`. `trace --chunk N` reads N bytes at a time and writes lines as
/// they are made, so memory stays bounded whatever the file's size. The
/// parse results are left to the operating system, as the process exits
/// right after printing.
fn run(invocation: &Invocation, out: &mut dyn Write) -> Result<(), RunError> {
    let cannot = |e: io::Error| RunError::Read(format!("cannot read {}: {e}", invocation.file));
    let mut file = File::open(&invocation.file).map_err(cannot)?;
    if let (Command::Trace, Some(n)) = (invocation.command, invocation.chunk) {
        let result = trace_chunked(invocation, &mut file, n, out)?;
        return out.write_all(&result).map_err(write_error);
    }
    // sized from the file's length: no regrowing copies
    let size = file.metadata().map_or(0, |m| m.len());
    let mut data = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
    file.read_to_end(&mut data).map_err(cannot)?;
    let mut parser = invocation.make_parser()?;
    let result = match invocation.command {
        Command::Json => {
            // What PHP printed before a JsonException is still printed.
            let result = parser.parse_into_struct(&data);
            let mut printed = Vec::with_capacity(data.len() * 4 + 64);
            let thrown = report::write_struct_json(&result, invocation.json_flags, &mut printed);
            out.write_all(&printed).map_err(write_error)?;
            return thrown.map_err(RunError::Json);
        }
        Command::Struct => {
            let result = report::struct_output_before_exit(&mut parser, data, invocation.quiet);
            std::mem::forget(parser);
            result
        }
        Command::Trace => {
            let mut trace = trace_for(invocation);
            let ok = parser.parse(&mut trace, &data, true);
            std::mem::forget(data);
            trace.finish(&parser, ok, invocation.quiet)
        }
    };
    out.write_all(&result).map_err(write_error)
}

fn trace_for(invocation: &Invocation) -> Trace {
    if invocation.quiet {
        Trace::quiet()
    } else {
        Trace::new()
    }
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
    let mut trace = trace_for(invocation);
    let mut ok = true;
    let mut piece = Vec::new();
    loop {
        piece.clear();
        let got = input
            .take(n)
            .read_to_end(&mut piece)
            .map_err(|e| RunError::Read(format!("cannot read {}: {e}", invocation.file)))?;
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

#[cfg(test)]
mod tests {
    use phpxml::json::JsonFlags;

    use crate::script::{Command, Invocation, struct_format};

    #[test]
    fn format_is_taken_out_wherever_it_stands() {
        let args = ["--format", "json", "--json-flags", "128", "a.xml"].map(String::from);
        let (command, rest) = struct_format(&args).unwrap();
        assert_eq!(command, Command::Json);
        assert_eq!(rest, ["--json-flags", "128", "a.xml"]);
    }

    #[test]
    fn json_flags_go_through_int_cast() {
        let args = ["a.xml", "--json-flags", "128abc", "--quiet"].map(String::from);
        let inv = Invocation::parse(Command::Json, &args).unwrap();
        assert_eq!(inv.json_flags, JsonFlags::PRETTY_PRINT);
    }
}
