//! When PHP's own result depends on where chunks fall. Shared by the
//! `chunked` fuzz target and `tests/mutated_fixtures.rs` (included there by
//! path), so both exclude exactly the same inputs.

/// Whether the UTF-8 sequence at `p` is one libxml2 2.9.14's
/// `xmlCurrentChar` rejects as an encoding error: a byte `0x80..=0xBF` or
/// `0xC0` or `0xF8..` as lead, a missing continuation byte, or an overlong
/// form. (Surrogates and U+FFFE/U+FFFF are well encoded, only not
/// characters: that error never depends on chunking.)
fn encoding_error_at(doc: &[u8], p: usize) -> bool {
    let c = doc[p];
    if c & 0x80 == 0 {
        return false;
    }
    let at = |i: usize| doc.get(p + i).copied().unwrap_or(0);
    let cont = |b: u8| b & 0xC0 == 0x80;
    if c & 0x40 == 0 || c == 0xC0 || !cont(at(1)) {
        return true;
    }
    if c & 0xE0 == 0xE0 {
        if !cont(at(2)) {
            return true;
        }
        if c & 0xF0 == 0xF0 {
            if c & 0xF8 != 0xF0 || !cont(at(3)) {
                return true;
            }
            let v = (u32::from(c & 7) << 18)
                | (u32::from(at(1) & 0x3F) << 12)
                | (u32::from(at(2) & 0x3F) << 6);
            return v < 0x10000;
        }
        let v = (u32::from(c & 0xF) << 12) | (u32::from(at(1) & 0x3F) << 6);
        return v < 0x800;
    }
    (u32::from(c & 0x1F) << 6) < 0x80
}

/// Whether PHP's own outcome for `doc`, fed in pieces ending at
/// `boundaries` (offsets where a piece ended and the parser ran on what it
/// had; the end of the document excluded), can differ from feeding it whole,
/// given the error the pieces gave (`code` and byte index `index`).
///
/// libxml2's push parser decides what it can parse from the bytes it has,
/// and two of its decisions depend on where those bytes end:
///
/// 1. `xmlCurrentChar` reads an encoding error with fewer than four bytes
///    left in the buffer as "the input may end in the middle of a
///    character": it returns 0 and raises nothing. Where the parser goes on
///    regardless (text is parsed up to the last `<` it has), that 0 stops it
///    with error 1 "No memory" at byte index 0 instead of 9 "Invalid
///    character". PHP: `fixtures/php/chunked/invalid-utf8-*-before-lt_trace_chunk-*`
///    (chunks of 1, 2, 3, 5 give 1; 4, 4096 and the whole give 9). So: an
///    encoding error at `p` and a boundary in `p + 1 ..= p + 3`.
/// 2. The look-ahead that decides a construct is complete (`xmlParseGetLasts`,
///    `xmlParseLookupSequence` for `>`, `;`, `-->`, `?>`, `]]>`, the
///    internal-subset end scan) can accept a place the construct's own
///    parser does not take as its end (`--->` does not end a comment; a `>`
///    in a literal left open), and that parser then meets the end of the
///    bytes it has and reports "not finished" (or the like) there, where the
///    whole document has more; or it stops the parser, which then reports
///    byte index 0. PHP: `fixtures/php/limits/chunking-*`. So: the pieces'
///    error is reported at most three bytes before a boundary, or at byte
///    index 0.
///
/// Every input the `chunked` fuzz target excluded this way in a sample of
/// 461 (`fuzz/php-triage.py`) does differ in PHP, and phpxml printed what
/// PHP printed in both modes.
#[must_use]
pub fn chunking_matters(doc: &[u8], boundaries: &[usize], code: i32, index: i64) -> bool {
    // boundaries are in increasing order
    let near_boundary = |p: usize| {
        let k = boundaries.partition_point(|&b| b <= p);
        boundaries.get(k).is_some_and(|&b| b <= p + 3)
    };
    let encoding = (0..doc.len()).any(|p| encoding_error_at(doc, p) && near_boundary(p));
    let stopped_at_boundary = code != 0
        && usize::try_from(index).is_ok_and(|i| {
            let k = boundaries.partition_point(|&b| b < i);
            i == 0 || boundaries.get(k).is_some_and(|&b| b <= i + 3)
        });
    encoding || stopped_at_boundary
}
