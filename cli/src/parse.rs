//! `phpxml struct` and `phpxml trace`: what the PHP reference scripts
//! `struct.php`, `json.php` (`struct --format json`) and `trace.php` print,
//! byte for byte.

use std::fs::File;
use std::io::{self, Read, Write};

use phpxml::Error;
use phpxml::json::{JsonError, StructJsonError};
use phpxml::report::{self, TraceWriter};

use crate::Failure;
use crate::many;
use crate::script::{self, Command, Format, Invocation, StructArgs, TraceArgs};

/// Why a run printed nothing (or, for a `JsonException`, stopped).
enum RunError {
    /// The input could not be read (exit status 2, as the scripts do).
    Read(String),
    /// The output could not be written (exit status 1).
    Write(String),
    /// Standard output was closed by its reader (`phpxml ... | head`).
    ClosedPipe,
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
    if e.kind() == io::ErrorKind::BrokenPipe {
        RunError::ClosedPipe
    } else {
        RunError::Write(format!("cannot write output: {e}"))
    }
}

/// One file, printed as the reference script prints it: the byte contract.
pub fn play_one(invocation: &Invocation) -> Result<(), Failure> {
    let mut stdout = io::BufWriter::with_capacity(1 << 16, crate::block_stdout());
    let written = run(invocation, &mut stdout).and_then(|()| stdout.flush().map_err(write_error));
    written.map_err(|e| match e {
        RunError::Write(why) => Failure::Io(why),
        RunError::ClosedPipe => Failure::ClosedPipe,
        // The scripts exit 2 when the file cannot be read; where PHP dies on
        // a ValueError nothing reaches standard output either.
        RunError::Read(why) => Failure::Refused(why),
        RunError::Json(e) => Failure::Refused(format!("PHP throws a JsonException: {e}")),
        RunError::Php(e) => Failure::Refused(format!("PHP throws a ValueError: {e}")),
    })
}

/// `struct [--format php|json|ndjson] [--json-flags N] [OPTIONS] FILE...`.
pub fn structure(args: &[String]) -> Result<(), Failure> {
    let (parsed, php) = script::parse::<StructArgs>(args)?;
    script::require_files(&parsed.inputs, &php)?;
    let command = match parsed.format {
        Format::Php => Command::Struct,
        Format::Json | Format::Ndjson => Command::Json,
    };
    let invocation = script::invocation(command, &php)?;
    many::play(invocation, parsed.format == Format::Ndjson, &parsed.inputs)
}

/// `trace [OPTIONS] [--chunk N] FILE...`.
pub fn trace(args: &[String]) -> Result<(), Failure> {
    let (parsed, php) = script::parse::<TraceArgs>(args)?;
    script::require_files(&parsed.inputs, &php)?;
    let invocation = script::invocation(Command::Trace, &php)?;
    many::play(invocation, false, &parsed.inputs)
}

/// Runs a script on the file of the invocation, writing its standard output
/// to `out` as it is produced, so the output never waits whole in memory.
/// `trace --chunk N` reads N bytes at a time, so memory stays bounded
/// whatever the file's size. The parse results are left to the operating
/// system, as the process exits right after printing.
fn run(invocation: &Invocation, out: &mut dyn Write) -> Result<(), RunError> {
    let cannot = |e: io::Error| RunError::Read(format!("cannot read {}: {e}", invocation.file));
    let mut file = File::open(many::input_path(&invocation.file)).map_err(cannot)?;
    if let (Command::Trace, Some(n)) = (invocation.command, invocation.chunk) {
        return trace_chunked(invocation, &mut file, n, out);
    }
    // sized from the file's length: no regrowing copies
    let size = file.metadata().map_or(0, |m| m.len());
    let mut data = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
    file.read_to_end(&mut data).map_err(cannot)?;
    let mut parser = invocation.make_parser()?;
    match invocation.command {
        Command::Json => {
            let flags = invocation.json_flags;
            let written =
                report::write_struct_json_output_before_exit(&mut parser, data, flags, out);
            std::mem::forget(parser);
            written.map_err(|e| match e {
                StructJsonError::Io(e) => write_error(e),
                StructJsonError::Json(e) => RunError::Json(e),
            })
        }
        Command::Struct => {
            let written =
                report::write_struct_output_before_exit(&mut parser, data, invocation.quiet, out);
            std::mem::forget(parser);
            written.map_err(write_error)
        }
        Command::Trace => {
            let mut trace = TraceWriter::new(out, invocation.quiet);
            // the document is given away: the parser reads it where it is
            let ok = parser.parse_owned(&mut trace, data);
            let finished = trace.finish(&parser, ok).map(drop).map_err(write_error);
            std::mem::forget(parser);
            finished
        }
    }
}

/// `trace.php --chunk N`: pieces of exactly `n` bytes (the last one
/// shorter) with `is_final = false`, stopping at the first failure, then
/// `""` with `is_final = true` if none failed. The input is read in large
/// blocks whatever `n` is (PHP reads the whole file and cuts the string);
/// lines are written to `out` as they are made.
fn trace_chunked(
    invocation: &Invocation,
    input: &mut dyn Read,
    n: u64,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let mut parser = invocation.make_parser()?;
    let mut trace = TraceWriter::new(out, invocation.quiet);
    let mut pieces = Pieces::new(input, usize::try_from(n).unwrap_or(usize::MAX));
    let mut ok = true;
    while let Some(piece) = pieces
        .next()
        .map_err(|e| RunError::Read(format!("cannot read {}: {e}", invocation.file)))?
    {
        ok = parser.parse(&mut trace, piece, false);
        if !ok {
            break;
        }
    }
    if ok {
        ok = parser.parse(&mut trace, b"", true);
    }
    trace.finish(&parser, ok).map(drop).map_err(write_error)
}

/// Bytes read from the input per `read()` call.
const BLOCK: usize = 1 << 20;

/// The input cut into pieces of a fixed length, read a block at a time:
/// memory stays within a block and a piece.
struct Pieces<'a> {
    input: &'a mut dyn Read,
    /// `buf[start..end]` is read and not yet handed out.
    buf: Vec<u8>,
    start: usize,
    end: usize,
    piece: usize,
    eof: bool,
}

impl<'a> Pieces<'a> {
    fn new(input: &'a mut dyn Read, piece: usize) -> Self {
        Self {
            input,
            buf: Vec::new(),
            start: 0,
            end: 0,
            piece: piece.max(1),
            eof: false,
        }
    }

    /// The next piece: `piece` bytes, fewer only at the end of the input.
    fn next(&mut self) -> io::Result<Option<&[u8]>> {
        while self.end - self.start < self.piece && !self.eof {
            // What is left moves to the front, and a block is read behind it.
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            if self.buf.len() - self.end < BLOCK {
                self.buf.resize(self.end + BLOCK, 0);
            }
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(k) => self.end += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if self.start == self.end {
            return Ok(None);
        }
        let at = self.start;
        self.start += self.piece.min(self.end - at);
        Ok(Some(&self.buf[at..self.start]))
    }
}

#[cfg(test)]
mod tests {
    /// A reader that hands out at most `most` bytes per call.
    struct Trickle<'a> {
        data: &'a [u8],
        most: usize,
    }

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.data.len().min(buf.len()).min(self.most);
            buf[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    #[test]
    fn pieces_have_exactly_the_asked_length_across_blocks() {
        let data: Vec<u8> = (0..3 * super::BLOCK + 12_345)
            .map(|i| (i % 251) as u8)
            .collect();
        for (piece, most) in [
            (1, 1000),
            (7, usize::MAX),
            (7, 3),
            (4096, 10_000),
            (super::BLOCK + 3, usize::MAX),
            (usize::MAX, 777_777),
        ] {
            let mut input = Trickle { data: &data, most };
            let mut pieces = super::Pieces::new(&mut input, piece);
            let mut joined = Vec::new();
            let mut lengths = Vec::new();
            while let Some(p) = pieces.next().unwrap() {
                joined.extend_from_slice(p);
                lengths.push(p.len());
            }
            assert_eq!(joined, data, "piece {piece}, reads of at most {most}");
            let (last, whole) = lengths.split_last().unwrap();
            assert!(whole.iter().all(|&l| l == piece), "piece {piece}");
            assert!(*last <= piece && *last > 0);
        }
    }
}
