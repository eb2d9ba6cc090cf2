//! Streaming a large document through handlers in constant memory: the
//! input is read and fed 64 KiB at a time (PHP's `xml_parse($parser, $data,
//! false)` in a loop, then `xml_parse($parser, "", true)`), and the handlers
//! keep only counters.
//!
//! ```text
//! cargo run --release --example stream_large big.xml   # a file of yours
//! cargo run --release --example stream_large           # a generated catalogue of about 7 MB
//! cargo run --release --example stream_large -- --mib 512
//! ```
//!
//! Without a path, the document is generated on the fly by a [`Read`]
//! implementation, so not even the input is ever in memory whole.

use std::fs::File;
use std::io::{self, Read};
use std::process::ExitCode;
use std::time::Instant;

use phpxml::{Handler, HandlerSet, Key, Parser};

/// What the handlers count.
#[derive(Debug, Default)]
struct Stats {
    elements: u64,
    attributes: u64,
    text_bytes: u64,
    depth: u32,
    max_depth: u32,
    /// The sum of every `price` attribute, in cents.
    total_cents: u64,
}

impl Handler for Stats {
    fn installed(&self) -> HandlerSet {
        // Only what is used: element and character-data handlers.
        HandlerSet {
            element: true,
            character_data: true,
            ..HandlerSet::NONE
        }
    }

    fn start_element(&mut self, _name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        self.elements += 1;
        self.attributes += attributes.len() as u64;
        self.depth += 1;
        self.max_depth = self.max_depth.max(self.depth);
        for (key, value) in attributes {
            if *key == Key::Str(b"PRICE".to_vec()) {
                self.total_cents += cents(value);
            }
        }
    }

    fn end_element(&mut self, _name: &[u8]) {
        self.depth -= 1;
    }

    fn character_data(&mut self, data: &[u8]) {
        self.text_bytes += data.len() as u64;
    }
}

/// `"12.34"` as 1234.
fn cents(price: &[u8]) -> u64 {
    price
        .iter()
        .filter(|b| b.is_ascii_digit())
        .fold(0, |n, b| n * 10 + u64::from(b - b'0'))
}

/// A catalogue of `items` products, produced as it is read.
struct Catalogue {
    items: u64,
    next: u64,
    pending: Vec<u8>,
    at: usize,
}

impl Catalogue {
    fn new(items: u64) -> Self {
        let head = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalogue>\n".to_vec();
        Self {
            items,
            next: 0,
            pending: head,
            at: 0,
        }
    }

    fn refill(&mut self) {
        self.pending.clear();
        self.at = 0;
        if self.next < self.items {
            let i = self.next;
            self.pending.extend_from_slice(
                format!(
                    "  <product id=\"p{i}\" price=\"{}.{:02}\">\n    <name>Café crème n°{i}</name>\n    \
                     <description>Roasted in small batches &amp; ground to order — fresh.</description>\n  </product>\n",
                    i % 50 + 1,
                    i % 100
                )
                .as_bytes(),
            );
        } else if self.next == self.items {
            self.pending.extend_from_slice(b"</catalogue>\n");
        }
        self.next += 1;
    }
}

impl Read for Catalogue {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.pending.len() {
            self.refill();
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (input, label, generated): (Box<dyn Read>, String, Option<u64>) = match args.as_slice() {
        [flag, mib] if flag == "--mib" => {
            let mib: u64 = mib.parse().unwrap_or(8);
            // One product is about 180 bytes.
            let items = mib * 1024 * 1024 / 180;
            let label = format!("generated catalogue of {items} products");
            (Box::new(Catalogue::new(items)), label, Some(items))
        }
        [path] => match File::open(path) {
            Ok(f) => (Box::new(f), path.clone(), None),
            Err(e) => {
                eprintln!("cannot open {path}: {e}");
                return ExitCode::from(2);
            }
        },
        [] => (
            Box::new(Catalogue::new(40_000)),
            "generated catalogue of 40000 products".to_owned(),
            Some(40_000),
        ),
        _ => {
            eprintln!("usage: stream_large [FILE | --mib N]");
            return ExitCode::from(2);
        }
    };
    match run(input) {
        Ok((stats, bytes, ok, parser, seconds)) => {
            println!("{label}: {bytes} bytes in {seconds:.2} s");
            println!("{stats:?}");
            if !ok {
                println!(
                    "not well-formed: {} at line {}",
                    phpxml::error_string(parser.error_code()),
                    parser.line()
                );
                return ExitCode::FAILURE;
            }
            if let Some(items) = generated {
                // The generator's own shape: checks the example in CI.
                assert_eq!(stats.elements, 3 * items + 1);
                assert_eq!((stats.attributes, stats.max_depth), (2 * items, 3));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("read error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// How much is read and parsed at a time.
const BLOCK: usize = 64 * 1024;

fn run(mut input: Box<dyn Read>) -> io::Result<(Stats, u64, bool, Parser, f64)> {
    let start = Instant::now();
    let mut parser = Parser::new(None).expect("default parser");
    let mut stats = Stats::default();
    let mut block = Vec::with_capacity(BLOCK);
    let mut bytes = 0u64;
    let mut ok = true;
    loop {
        // A full block unless the input ends (`read` may return less).
        block.clear();
        let n = input.by_ref().take(BLOCK as u64).read_to_end(&mut block)?;
        if n == 0 {
            break;
        }
        bytes += n as u64;
        ok = parser.parse(&mut stats, &block, false);
        if !ok {
            break;
        }
    }
    if ok {
        ok = parser.parse(&mut stats, b"", true);
    }
    Ok((stats, bytes, ok, parser, start.elapsed().as_secs_f64()))
}
