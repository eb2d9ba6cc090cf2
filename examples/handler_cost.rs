//! The cost of `&str` handlers against byte handlers: the same document,
//! the same counting work, through [`Utf8Handler`] or [`Handler`].
//!
//! ```text
//! cargo build --release --example handler_cost
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/handler_cost str FILE
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null \
//!     target/release/examples/handler_cost bytes FILE
//! ```
//!
//! The document is fed in 64 KiB chunks; the output is the number of
//! bytes the handler saw, the same for both flavours.

use phpxml::{Handler, Key, Parser, Utf8Handler};

/// Counts the bytes of every name, attribute and text.
#[derive(Default)]
struct Count(usize);

impl Handler for Count {
    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        self.0 += name.len();
        for (key, value) in attributes {
            self.0 += key.to_bytes().len() + value.len();
        }
    }
    fn end_element(&mut self, name: &[u8]) {
        self.0 += name.len();
    }
    fn character_data(&mut self, data: &[u8]) {
        self.0 += data.len();
    }
}

impl Utf8Handler for Count {
    fn start_element(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.0 += name.len();
        for (key, value) in attributes {
            self.0 += key.len() + value.len();
        }
    }
    fn end_element(&mut self, name: &str) {
        self.0 += name.len();
    }
    fn character_data(&mut self, data: &str) {
        self.0 += data.len();
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, flavour, file] = args.as_slice() else {
        return Err("usage: handler_cost str|bytes FILE".into());
    };
    let document = std::fs::read(file)?;
    let mut parser = Parser::new(None)?;
    let mut count = Count::default();
    let mut chunks = document.chunks(1 << 16).peekable();
    while let Some(chunk) = chunks.next() {
        let last = chunks.peek().is_none();
        match flavour.as_str() {
            "str" => parser.feed_utf8(&mut count, chunk, last)?,
            "bytes" => parser.feed(&mut count, chunk, last)?,
            _ => return Err("the flavour is str or bytes".into()),
        }
    }
    println!("{}", count.0);
    Ok(())
}
