//! Regressions found by fuzzing (`fuzz/`), each with its minimized input
//! inline. See fuzz/README.md for the campaigns that found them.

mod common;

#[path = "../fuzz/src/chunking.rs"]
mod chunking;

use std::fmt::Write;

use common::{boundaries, outcome_of, result_of, same_calls, trace};

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

/// `tests/mutated_fixtures.rs`: a document declared US-ASCII with a byte
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

/// The nine-level "billion laughs" of `l0 = "lol"`, `lN = 10 x &l(N-1);`.
fn laughs_in_attribute() -> Vec<u8> {
    let mut d = String::from("<!DOCTYPE a [<!ENTITY l0 \"lol\">");
    for i in 1..=9 {
        write!(
            d,
            "<!ENTITY l{i} \"{}\">",
            format!("&l{};", i - 1).repeat(10)
        )
        .unwrap();
    }
    d += "]><a x=\"&l9;\"/>";
    d.into_bytes()
}

/// parse target (timeout, 544 bytes) and chunked target (timeout and slow
/// unit, the same document with two entities cut short): a billion laughs
/// in an attribute value took seconds, expanding up to 10 MB per level
/// before a size check stopped it. libxml2's amplification checks
/// (xmlParserEntityCheck) stop it at the third level with 89, as PHP does
/// (`fixtures/php/malformed/entity-bomb-in-attribute_*`,
/// `fixtures/php/limits/laughs-*`); tests/hostile.rs bounds the heap it
/// takes.
#[test]
fn billion_laughs_in_an_attribute_stops_at_the_entity_check() {
    let doc = laughs_in_attribute();
    for sizes in [&[][..], &[1, 7], &[1]] {
        let out = trace(&[], &doc, sizes);
        assert_eq!(result_of(&out), (89, 541), "{sizes:?}");
    }
}

/// chunked target, pieces of 1 and 7 (two findings, this one minimized; the
/// other gave 528 whole and 474 in pieces): a DTD of broken entity
/// declarations stops the parser (37), and the byte index a stopped parser
/// reports is what its buffer had dropped by then: 0 whole, 421 in pieces.
/// PHP gives the same two results (checked with fuzz/php-check.py), so the
/// chunking predicate covers it (one of the runs reports byte index 0).
#[test]
fn stopped_parser_reports_what_its_buffer_dropped() {
    let doc: Vec<u8> = [
        &b"<!DOCTYPE a [<!ENTITY l0 \"l\"><!ENTITY l1 \"&l0;&l0&l0;&l0;&l0;&l0;\"><!ENTITY l2 \"&l1;&l1;&l1;&l1;&l1;&l1;&l\"><!ENTITY l1 \"&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;&l0;\"><!ENTITY l2 \"&l1;&l1;&2;&l2;&l2;&l2;&l2;\"><!ENTITY l4 \"&l3;&l3;&l3;&l3;&l3;&l3;&l3;&l3;\"><!ENTITY l0 \"&l4;&l4;&l4;&l4;&l\"><!ENTITY l7 \"&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;\"><!ENTITY l8 \"&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;\"><!ENTITY l9 \"&l8;&l83;&l3;&l3;&l3;&l3;&l3;&l3;&l3;&l3;\"><!ENTITY l0 \"&l4;&l4;&l4;&l4;&l5;&l5;&l5;&l5;&l5\"><!ENTITY l7 \"&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6;&l6\x1b&l6;\"><!ENTITY l8 \"&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;&l7;\"><!ENTITY l9 \"&l8;&l8;&l8;&l8;&l8;&l8;&1;&l1;&l1;&"[..],
        " ".repeat(201).as_bytes(),
        "\n".repeat(40).as_bytes(),
        &b"&l7;&l7;&l7;&l7;&l7;&l7;&l7;\"><!ENTITY l9 \"&l8;&l8;&l8;&l8;&l8;&l8;&l8;&l8;&l8;&l8;\">]><a x=\"&l9;\"/>"[..],
    ]
    .concat();
    let whole = trace(&[], &doc, &[]);
    let sizes = [1, 7];
    let pieces = trace(&[], &doc, &sizes);
    assert_eq!(result_of(&whole).0, 37);
    assert_eq!(result_of(&whole).1, 0);
    let (code, line, column, index) = outcome_of(&pieces);
    assert_eq!(code, 37);
    assert_ne!(index, 0);
    let (wcode, wline, wcolumn, windex) = outcome_of(&whole);
    assert!(chunking::chunking_matters(
        &doc,
        &boundaries(doc.len(), &sizes),
        chunking::Outcome {
            code,
            line,
            column,
            index
        },
        chunking::Outcome {
            code: wcode,
            line: wline,
            column: wcolumn,
            index: windex
        },
        same_calls(&pieces, &whole)
    ));
}

/// chunked target (one shot already differed): after an encoding error the
/// input is read as Latin-1, where libxml2 does not report a NUL; phpxml
/// did (9), PHP ends with the "]]>" before it (62):
/// `fixtures/php/limits/nul-after-encoding-error_*`.
#[test]
fn nul_after_an_encoding_error_is_not_reported() {
    let out = trace(&[], b"<t>\x99]]>\x00", &[]);
    assert_eq!(result_of(&out).0, 62);
}

/// Whether `doc` in pieces of `sizes` ends otherwise than whole, and
/// whether the chunking predicate excuses it.
fn differs_and_excused(doc: &[u8], sizes: &[usize]) -> (bool, bool) {
    let whole = trace(&[], doc, &[]);
    let pieces = trace(&[], doc, sizes);
    let outcome = |t: &[u8]| {
        let (code, line, column, index) = outcome_of(t);
        chunking::Outcome {
            code,
            line,
            column,
            index,
        }
    };
    let excused = chunking::chunking_matters(
        doc,
        &boundaries(doc.len(), sizes),
        outcome(&pieces),
        outcome(&whole),
        same_calls(&pieces, &whole),
    );
    (pieces != whole, excused)
}

/// An internal subset of 71 declarations, an error (37) in the 71st,
/// `tail` bytes after the subset.
fn subset_with_error(tail: usize) -> Vec<u8> {
    let mut d = String::from("<!DOCTYPE a [");
    for i in 0..70 {
        write!(d, "<!ENTITY e{i:02} \"v\">").unwrap();
    }
    d += "<!ENTITY z x><!ENTITY y \"v\">]><a/>";
    d += &" ".repeat(tail);
    d.into_bytes()
}

/// chunked target, pieces of 1 and 7 (finding 7): a parser stopped in the
/// internal subset reports what its buffer had dropped, and where the
/// buffer ended when the subset was parsed decides at which declaration
/// it first dropped bytes. PHP: 1089 in pieces of 17, 1106 whole; without
/// the bytes after the subset 1089 both ways
/// (`fixtures/php/limits/chunking-dtd-shrink*`). Clause 11.
#[test]
fn subset_error_index_depends_on_where_the_buffer_ended() {
    let doc = subset_with_error(20);
    assert_eq!(result_of(&trace(&[], &doc, &[])), (37, 1106));
    assert_eq!(result_of(&trace(&[], &doc, &[17])), (37, 1089));
    assert_eq!(differs_and_excused(&doc, &[17]), (true, true));
    assert_eq!(
        differs_and_excused(&subset_with_error(0), &[17]),
        (false, false)
    );
}

/// chunked target, pieces of 128 (finding 7): text gathered after a
/// non-ASCII character is lost whole when `xmlCurrentChar` reports an
/// invalid character (NUL, bad UTF-8), handed over in pieces; a backspace
/// is reported after the text is handed over. PHP:
/// `fixtures/php/limits/chunking-text-*-after-non-ascii_*`. Clause 12.
#[test]
fn text_gathered_before_an_invalid_character() {
    let doc = |bad: &[u8]| [b"<a>\xc3\xa9", &b"t".repeat(400)[..], bad, b"</a>"].concat();
    for bad in [&b"\x00"[..], b"\xc2t"] {
        assert_eq!(
            differs_and_excused(&doc(bad), &[128]),
            (true, true),
            "{bad:?}"
        );
    }
    assert_eq!(differs_and_excused(&doc(b"\x08"), &[128]), (false, false));
}

/// chunked target, pieces of 128 (finding 7): a CDATA section with an
/// invalid character 300 bytes or more into it is handed over 300 bytes
/// a run while its `]]>` has not arrived, then fails; whole, it fails
/// before anything of it is handed over. 299 bytes in, the first block
/// already fails. PHP: `fixtures/php/limits/chunking-cdata-invalid-*`.
/// Clause 13.
#[test]
fn cdata_invalid_past_its_first_block() {
    let doc = |before: usize, after: usize, tail: usize| {
        [
            &b"<a><![CDATA["[..],
            &b"c".repeat(before),
            b">",
            &b"c".repeat(after),
            b"\x00",
            &b"c".repeat(tail),
            b"]]></a>",
        ]
        .concat()
    };
    assert_eq!(
        differs_and_excused(&doc(400, 100, 10), &[128]),
        (true, true)
    );
    assert_eq!(
        differs_and_excused(&doc(200, 98, 210), &[128]),
        (false, false)
    );
}
