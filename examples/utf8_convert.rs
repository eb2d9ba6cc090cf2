//! Converting between UTF-8 and ISO-8859-1 as PHP's `utf8_decode()` and
//! `utf8_encode()` do, and getting Latin-1 text straight from the parser.
//!
//! ```text
//! cargo run --example utf8_convert
//! ```
//!
//! PHP code that parsed with a UTF-8 target and then called `utf8_decode()`
//! on every string gets the same bytes as a parser created with
//! `xml_parser_create("ISO-8859-1")`: both go through `xml_utf8_decode()`.

use phpxml::decode::{StreamDecoder, TargetEncoding, utf8_decode, utf8_encode, xml_utf8_decode};
use phpxml::{Parser, Struct};

fn show(label: &str, bytes: &[u8]) {
    println!("{label:<34} {bytes:02X?}");
}

fn main() {
    let text = "Grüße, naïve café — 5 €";

    // $latin1 = utf8_decode($text);
    let latin1 = utf8_decode(text.as_bytes());
    show("utf8_decode()", &latin1);
    // é is one byte 0xE9; € and — have no Latin-1 byte and become '?'.
    assert_eq!(&latin1[..5], b"Gr\xFC\xDFe");
    assert!(latin1.ends_with(b" 5 ?"));

    // utf8_encode($latin1) gives UTF-8 back, except for what became '?'.
    let back = utf8_encode(&latin1);
    println!(
        "utf8_encode(utf8_decode())         {}",
        String::from_utf8_lossy(&back)
    );
    assert_eq!(back, "Grüße, naïve café ? 5 ?".as_bytes());

    // Malformed input: one '?' per malformed sequence, with PHP's widths
    // (an overlong E0 80 80 is one '?', where Rust's from_utf8_lossy gives three U+FFFD).
    assert_eq!(utf8_decode(b"a\xE0\x80\x80b"), b"a?b");
    assert_eq!(
        String::from_utf8_lossy(b"a\xE0\x80\x80b"),
        "a\u{FFFD}\u{FFFD}\u{FFFD}b"
    );

    // US-ASCII, as XML_OPTION_TARGET_ENCODING "US-ASCII" gives it.
    let ascii = xml_utf8_decode(text.as_bytes(), TargetEncoding::UsAscii);
    println!(
        "US-ASCII                           {}",
        String::from_utf8_lossy(&ascii)
    );
    assert_eq!(ascii, b"Gr??e, na?ve caf? ? 5 ?");

    // Input that arrives in pieces, split anywhere (here inside "ü").
    let mut stream = StreamDecoder::new(TargetEncoding::Iso8859_1);
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    stream.decode(&bytes[..3], false, &mut out);
    stream.decode(&bytes[3..], true, &mut out);
    assert_eq!(out, latin1);

    // The parser: a UTF-8 target followed by utf8_decode() on each string
    // equals an ISO-8859-1 target.
    let doc = "<menu><dish prix='4,50 €'>Crème brûlée</dish></menu>".as_bytes();
    let utf8: Struct = Parser::new(Some("UTF-8")).unwrap().parse_into_struct(doc);
    let latin: Struct = Parser::new(Some("ISO-8859-1"))
        .unwrap()
        .parse_into_struct(doc);
    let dish_utf8 = &utf8.values[1];
    let dish_latin = &latin.values[1];
    let value = dish_latin.value.as_deref().unwrap();
    show("ISO-8859-1 target, value", value);
    assert_eq!(utf8_decode(dish_utf8.value.as_deref().unwrap()), value);
    let (_, prix) = &dish_latin.attributes.as_ref().unwrap()[0];
    assert_eq!(prix, b"4,50 ?");
    println!("all conversions agree");
}
