//! The pull reader: iterate over owned events instead of writing handlers.
//!
//! ```text
//! cargo run --example pull_events                    # examples/rss.xml
//! cargo run --example pull_events -- some.xml
//! ```
//!
//! Prints an indented outline of the document: elements with their
//! attributes, and text (whole text nodes, thanks to `coalesce_text`).
//! Names are upper-cased as PHP's default `XML_OPTION_CASE_FOLDING` does.

use std::fs::File;
use std::io::{self, BufReader, Read, Write};
use std::process::ExitCode;

use phpxml::{Error, Event, Parser};

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/examples/rss.xml").to_owned());
    let file = match File::open(&path) {
        Ok(f) => BufReader::new(f),
        Err(e) => {
            eprintln!("cannot open {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = io::BufWriter::new(io::stdout().lock());
    match outline(&path, file, &mut out).and_then(|status| out.flush().map(|()| status)) {
        Ok(status) => status,
        // The reader went away (`| head`): done, quietly.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cannot write output: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes the outline of the document to `out`; a parse error ends it
/// with its message on standard error.
fn outline(path: &str, file: impl Read, out: &mut impl Write) -> io::Result<ExitCode> {
    let parser = Parser::new(None).expect("default parser");
    let mut depth = 0;
    for event in parser.events(file).coalesce_text(true) {
        match event {
            Ok(Event::StartElement(tag)) => {
                write!(
                    out,
                    "{:indent$}{}",
                    "",
                    String::from_utf8_lossy(tag.name()),
                    indent = depth * 2
                )?;
                for (key, value) in tag.attributes() {
                    write!(
                        out,
                        " {}={:?}",
                        String::from_utf8_lossy(key),
                        String::from_utf8_lossy(value)
                    )?;
                }
                writeln!(out)?;
                depth += 1;
            }
            Ok(Event::EndElement { .. }) => depth -= 1,
            Ok(Event::CharacterData(text)) => {
                let text = String::from_utf8_lossy(&text);
                if !text.trim().is_empty() {
                    writeln!(out, "{:indent$}{:?}", "", text.trim(), indent = depth * 2)?;
                }
            }
            Ok(_) => {}
            Err(Error::Parse(e)) => {
                eprintln!("{path}: {e}");
                return Ok(ExitCode::FAILURE);
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                return Ok(ExitCode::from(2));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
