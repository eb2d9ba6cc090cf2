//! A port of a classic handler-based PHP RSS reader (`examples/rss_reader.php`,
//! beside this file) to phpxml. Both print the same bytes:
//!
//! ```text
//! php examples/rss_reader.php examples/rss.xml
//! cargo run --example rss_reader examples/rss.xml
//! ```
//!
//! The PHP globals become the fields of a struct, the three handler
//! functions become methods of [`Handler`], and `xml_parse()` in a `fread()`
//! loop becomes [`Parser::parse`] in a `read()` loop. Names arrive
//! upper-cased (`XML_OPTION_CASE_FOLDING` is on by default), text arrives
//! in pieces that the handler appends, exactly as in PHP.

use std::fs::File;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use phpxml::{Handler, Key, Parser, error_string};

/// `$insideItem`, `$tag`, `$title`, `$link`, `$description`.
#[derive(Default)]
struct RssReader {
    inside_item: bool,
    tag: Vec<u8>,
    title: Vec<u8>,
    link: Vec<u8>,
    description: Vec<u8>,
    out: Vec<u8>,
}

/// PHP's `trim()`: strips `" \t\n\r\0\x0B"` from both ends.
fn trim(s: &[u8]) -> &[u8] {
    let strip = |b: &u8| b" \t\n\r\0\x0B".contains(b);
    let start = s.iter().position(|b| !strip(b)).unwrap_or(s.len());
    let end = s.iter().rposition(|b| !strip(b)).map_or(start, |i| i + 1);
    &s[start..end]
}

impl Handler for RssReader {
    // function startElement($parser, $name, $attrs)
    fn start_element(&mut self, name: &[u8], _attributes: &[(Key, Vec<u8>)]) {
        if self.inside_item {
            self.tag = name.to_vec();
        } else if name == b"ITEM" {
            self.inside_item = true;
        }
    }

    // function endElement($parser, $name)
    fn end_element(&mut self, name: &[u8]) {
        if name == b"ITEM" {
            // printf("* %s\n  <%s>\n  %s\n", trim($title), trim($link), trim($description));
            for (prefix, field) in [
                (&b"* "[..], &self.title),
                (b"\n  <", &self.link),
                (b">\n  ", &self.description),
            ] {
                self.out.extend_from_slice(prefix);
                self.out.extend_from_slice(trim(field));
            }
            self.out.push(b'\n');
            self.title.clear();
            self.link.clear();
            self.description.clear();
            self.inside_item = false;
        }
        self.tag.clear();
    }

    // function characterData($parser, $data)
    fn character_data(&mut self, data: &[u8]) {
        if self.inside_item {
            match self.tag.as_slice() {
                b"TITLE" => self.title.extend_from_slice(data),
                b"LINK" => self.link.extend_from_slice(data),
                b"DESCRIPTION" => self.description.extend_from_slice(data),
                _ => {}
            }
        }
    }
}

fn main() -> ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| concat!(env!("CARGO_MANIFEST_DIR"), "/examples/rss.xml").to_owned());
    // $xml_parser = xml_parser_create('UTF-8');
    let mut parser = Parser::new(Some("UTF-8")).expect("UTF-8 is a supported encoding");
    let mut reader = RssReader::default();
    let mut file = match File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("Error reading RSS data: {e}");
            return ExitCode::FAILURE;
        }
    };
    // while ($data = fread($fp, 4096)) { xml_parse($xml_parser, $data, feof($fp)) ... }
    let mut block = [0u8; 4096];
    loop {
        let n = match file.read(&mut block) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("Error reading RSS data: {e}");
                return ExitCode::FAILURE;
            }
        };
        if !parser.parse(&mut reader, &block[..n], n == 0) {
            eprintln!(
                "XML error: {} at line {}",
                error_string(parser.error_code()),
                parser.line()
            );
            return ExitCode::FAILURE;
        }
        if n == 0 {
            break;
        }
    }
    // xml_parser_free() is Drop.
    io::stdout()
        .write_all(&reader.out)
        .expect("write to stdout");
    ExitCode::SUCCESS
}
