//! `phpxml struct` and `phpxml trace`: what the PHP reference scripts
//! `struct.php` and `trace.php` print, byte for byte.

use std::io::{self, Write};

use phpxml::report::{self, Command, Invocation, RunError};

use crate::Failure;

fn play(command: Command, args: &[String]) -> Result<(), Failure> {
    let invocation = Invocation::parse(command, args).map_err(|e| Failure::Usage(e.to_string()))?;
    let out = report::run_before_exit(&invocation).map_err(|e| match e {
        // The scripts exit 2 when the file cannot be read; where PHP dies
        // on a ValueError nothing reaches standard output either.
        RunError::Usage(_) | RunError::Io(_) | RunError::Php(_) => Failure::Usage(e.to_string()),
    })?;
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(&out)
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure::Io(format!("cannot write output: {e}")))
}

/// `struct [OPTIONS] FILE`.
pub fn structure(args: &[String]) -> Result<(), Failure> {
    play(Command::Struct, args)
}

/// `trace [OPTIONS] [--chunk N] FILE`.
pub fn trace(args: &[String]) -> Result<(), Failure> {
    play(Command::Trace, args)
}
