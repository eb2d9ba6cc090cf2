//! The `phpxml` command line: see `phpxml --help`.

mod convert;
mod parse;

use std::process::ExitCode;

#[cfg(feature = "fast-alloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const USAGE: &str = "\
usage: phpxml <command> [options]

commands:
  decode --to ENC [FILE]   convert UTF-8 to ENC as PHP's xml_utf8_decode() does
                           (ENC: ISO-8859-1, US-ASCII or UTF-8, any case;
                           ISO-8859-1 is PHP's utf8_decode())
  encode [FILE]            convert ISO-8859-1 to UTF-8 as PHP's utf8_encode() does

FILE defaults to standard input; output goes to standard output.

exit status: 0 on success, 1 on an I/O error, 2 on bad arguments.
";

/// A failure of the command line, with the exit status it maps to.
pub enum Failure {
    /// Wrong arguments: exit 2.
    Usage(String),
    /// Reading or writing failed: exit 1.
    Io(String),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("decode") => convert::decode(&args[1..]),
        Some("encode") => convert::encode(&args[1..]),
        Some("struct") => parse::structure(&args[1..]),
        Some("trace") => parse::trace(&args[1..]),
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(Failure::Usage(format!("unknown command `{other}`"))),
        None => Err(Failure::Usage("no command given".to_owned())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(why)) => {
            eprintln!("phpxml: {why}\n\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Io(why)) => {
            eprintln!("phpxml: {why}");
            ExitCode::from(1)
        }
    }
}
