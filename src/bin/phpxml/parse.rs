//! `phpxml struct` and `phpxml trace`: what the PHP reference scripts
//! `struct.php`, `json.php` (`struct --format json`) and `trace.php` print,
//! byte for byte.

use std::io::{self, Write};

use phpxml::report::{self, Command, Invocation, RunError};

use crate::Failure;

fn play(command: Command, args: &[String]) -> Result<(), Failure> {
    let invocation = Invocation::parse(command, args).map_err(|e| Failure::Usage(e.to_string()))?;
    let mut stdout = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let written = report::run_before_exit(&invocation, &mut stdout).and_then(|()| {
        stdout
            .flush()
            .map_err(|e| RunError::Io(format!("cannot write output: {e}")))
    });
    written.map_err(|e| match e {
        RunError::Io(ref why) if why.starts_with("cannot write") => Failure::Io(e.to_string()),
        RunError::Usage(_) => Failure::Usage(e.to_string()),
        // The scripts exit 2 when the file cannot be read; where PHP dies on
        // a ValueError nothing reaches standard output either.
        RunError::Io(_) | RunError::Json(_) => Failure::Refused(e.to_string()),
        RunError::Php(e) => Failure::Refused(format!("PHP throws a ValueError: {e}")),
    })
}

/// `struct [--format php|json] [--json-flags N] [OPTIONS] FILE`.
pub fn structure(args: &[String]) -> Result<(), Failure> {
    let (command, args) = report::struct_format(args).map_err(|e| Failure::Usage(e.to_string()))?;
    play(command, &args)
}

/// `trace [OPTIONS] [--chunk N] FILE`.
pub fn trace(args: &[String]) -> Result<(), Failure> {
    play(Command::Trace, args)
}
