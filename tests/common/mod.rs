//! Helpers shared by the test binaries: feeding a document whole or in
//! pieces and recording what the handlers saw, and reading the hex of the
//! PHP-captured tables.

#![allow(dead_code)] // each test binary uses part of it

pub mod corpus;
use phpxml::report::Trace;
use phpxml::testing::{Command, Invocation};

/// The `trace.php` output (every handler set, adjacent text merged, then
/// the `ok` and `result` lines) of `doc` under the reference-script
/// options `args`, fed whole (`sizes` empty) or in pieces of `sizes` bytes
/// (used in turn) with `is_final = false`, going on after a failing piece,
/// then `""` with `is_final = true`.
pub fn trace(args: &[&str], doc: &[u8], sizes: &[usize]) -> Vec<u8> {
    let inv = Invocation::parse(Command::Trace, args).expect("valid arguments");
    let mut parser = inv.make_parser().expect("valid options");
    let mut trace = Trace::new();
    let ok = if sizes.is_empty() {
        parser.parse(&mut trace, doc, true)
    } else {
        for piece in pieces(doc, sizes) {
            // as the reference script, on past a failing piece
            let _ = parser.parse(&mut trace, piece, false);
        }
        parser.parse(&mut trace, b"", true)
    };
    trace.finish(&parser, ok, false)
}

/// What the reference script `script` (`struct`, `trace` or `json`)
/// prints for `doc` under its options `opts`, played with the library's
/// public API (`phpxml::testing`), not the command line's path. Empty where
/// PHP dies before printing (bad arguments, a `ValueError`).
pub fn script_output(script: &str, opts: &[String], doc: &[u8]) -> Vec<u8> {
    let command: Command = script.parse().expect("struct, trace or json");
    Invocation::parse(command, opts).map_or_else(|_| Vec::new(), |inv| inv.output(doc))
}

/// The pieces of `doc` cut to `sizes` in turn.
pub fn pieces<'a>(doc: &'a [u8], sizes: &'a [usize]) -> impl Iterator<Item = &'a [u8]> + 'a {
    let (mut at, mut k) = (0, 0);
    std::iter::from_fn(move || {
        if at >= doc.len() {
            return None;
        }
        let n = sizes[k % sizes.len()].clamp(1, doc.len() - at);
        k += 1;
        at += n;
        Some(&doc[at - n..at])
    })
}

/// Where the pieces end, the end of the document excluded.
pub fn boundaries(len: usize, sizes: &[usize]) -> Vec<usize> {
    let mut out = Vec::new();
    let (mut at, mut k) = (0, 0);
    while at < len {
        at = (at + sizes[k % sizes.len()].max(1)).min(len);
        k += 1;
        if at < len {
            out.push(at);
        }
    }
    out
}

/// The code and byte index of a trace's `result` line.
pub fn result_of(trace: &[u8]) -> (i32, i64) {
    let text = String::from_utf8_lossy(trace);
    let last = text.lines().last().expect("a result line");
    let mut words = last.split(' ').skip(1);
    let code = words.next().and_then(|w| w.parse().ok()).expect("code");
    let index = words
        .nth(2)
        .and_then(|w| w.parse().ok())
        .expect("byte index");
    (code, index)
}

/// The code, line, column and byte index of a trace's `result` line.
pub fn outcome_of(trace: &[u8]) -> (i32, u64, u64, i64) {
    let text = String::from_utf8_lossy(trace);
    let last = text.lines().last().expect("a result line");
    let w: Vec<&str> = last.split(' ').collect();
    (
        w[1].parse().expect("code"),
        w[2].parse().expect("line"),
        w[3].parse().expect("column"),
        w[4].parse().expect("byte index"),
    )
}

/// Whether two traces hold the same handler calls (everything before the
/// `ok` and `result` lines).
pub fn same_calls(a: &[u8], b: &[u8]) -> bool {
    let calls = |t: &[u8]| {
        let text = String::from_utf8_lossy(t).into_owned();
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines[..lines.len().saturating_sub(2)].to_vec()
    };
    calls(a) == calls(b)
}

/// The bytes of a hex string (two digits a byte), as the capture scripts
/// write them.
pub fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}
