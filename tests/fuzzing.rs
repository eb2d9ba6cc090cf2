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
