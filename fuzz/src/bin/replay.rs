//! `replay SIZES [OPTIONS] FILE`: the trace of `phpxml trace` (every handler
//! set), with the file fed as the `chunked` fuzz target feeds it: pieces of
//! the comma-separated SIZES in turn with `is_final = false`, going on after
//! a failing piece, then `""` with `is_final = true`. SIZES `0` feeds the
//! whole file at once. `reference/phpxml.php trace --pieces SIZES` does the
//! same in PHP.

use phpxml::report::Trace;
use phpxml::testing::{Command, Invocation};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> = args[0].split(',').map(|s| s.parse().unwrap()).collect();
    let (file, opts) = args[1..].split_last().expect("a file");
    let inv = Invocation::parse(Command::Trace, opts).expect("arguments");
    let data = std::fs::read(file).expect("file");
    let Ok(mut parser) = inv.make_parser() else {
        return;
    };
    let mut trace = Trace::new();
    let ok = if sizes == [0] {
        parser.parse(&mut trace, &data, true)
    } else {
        let (mut at, mut k) = (0, 0);
        while at < data.len() {
            let n = sizes[k % sizes.len()].min(data.len() - at);
            // as trace.php, only the final call's result is printed
            let _ = parser.parse(&mut trace, &data[at..at + n], false);
            at += n;
            k += 1;
        }
        parser.parse(&mut trace, b"", true)
    };
    let out = trace.finish(&parser, ok, false);
    std::io::Write::write_all(&mut std::io::stdout(), &out).unwrap();
}
