//! Regressions found by fuzzing (`fuzz/`), each with its minimized input
//! inline. See fuzz/README.md for the campaigns that found them.

mod common;

use common::trace;

/// chunked target, 2-byte pieces: an internal-subset end scan that stopped
/// inside a quote resumed there, but libxml2 rescans from the cursor (the
/// earlier scan had started inside the comment, so `"` in it counted as a
/// quote). phpxml reported 61 "DOCTYPE not finished" in pieces of 2 and 5
/// "Invalid document end" whole; PHP reports 5 both ways (and 61 for pieces
/// of 3 to 6): `fixtures/php/limits/chunking-dtd-quote-in-comment_*`.
#[test]
fn dtd_scan_rescans_from_the_cursor_after_a_quote() {
    let doc = br#"<!DOCTYPEa[""<!--b"d" ">m>"]>"#;
    let whole = trace(&[], doc, &[]);
    assert_eq!(trace(&[], doc, &[2]), whole);
    assert_eq!(trace(&[], doc, &[1]), whole);
    assert_eq!(trace(&[], doc, &[7]), whole);
    assert_ne!(trace(&[], doc, &[3]), whole, "PHP differs here too");
}

/// tests/mutated_fixtures.rs: a document declared US-ASCII with a byte
/// ≥ 0x80 at the start of a piece gave 81 "Invalid encoding" (a failed
/// conversion was reported once the parser caught up); libxml2's
/// `asciiToUTF8` stops there without an error, so PHP reports 5 "Invalid
/// document end" for every chunking (`fixtures/php/limits/chunking-us-ascii-*`).
#[test]
fn us_ascii_high_byte_ends_the_input_quietly() {
    let doc = b"<?xml version=\"1.0\" encoding=\"US-ASCII\"?><t>\xffcaf</t>";
    let whole = trace(&[], doc, &[]);
    for n in 1..=doc.len() {
        assert_eq!(trace(&[], doc, &[n]), whole, "pieces of {n}");
    }
}

/// Found with it: UTF-16 with a lone low surrogate stopped conversion (5
/// "Invalid document end" before the text); libxml2's decoder passes it on
/// and the parser rejects the character (9), as PHP shows in
/// `fixtures/php/limits/chunking-utf16-lone-low-surrogate_*`.
#[test]
fn utf16_lone_low_surrogate_reaches_the_parser() {
    let mut doc: Vec<u8> = Vec::new();
    for u in "\u{feff}<a>x".encode_utf16() {
        doc.extend_from_slice(&u.to_le_bytes());
    }
    doc.extend_from_slice(&[0x00, 0xDC]);
    for u in "</a>".encode_utf16() {
        doc.extend_from_slice(&u.to_le_bytes());
    }
    let whole = trace(&[], &doc, &[]);
    assert!(
        String::from_utf8_lossy(&whole).contains("result 9 "),
        "{}",
        String::from_utf8_lossy(&whole)
    );
    for n in 1..=doc.len() {
        assert_eq!(trace(&[], &doc, &[n]), whole, "pieces of {n}");
    }
}

/// chunked target, 7-byte pieces: a UTF-16 document whose conversion had
/// failed on a surrogate was halted at the last call (0, no error) instead
/// of reporting the bad name it had met (68), as PHP does for every
/// chunking.
#[test]
fn utf16_surrogates_in_pieces() {
    let doc = b"\xff\xfe<\x00\x00\x00\x00\x00=\x00\"\x002=\xd8\x00\xde<\x00/\x00t\x00:\x00";
    let whole = trace(&[], doc, &[]);
    assert!(String::from_utf8_lossy(&whole).contains("result 68 "));
    for n in 1..=doc.len() {
        assert_eq!(trace(&[], doc, &[n]), whole, "pieces of {n}");
    }
}
