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

/// libxml2's `XML_ERR_XMLDECL_NOT_FINISHED`.
const XMLDECL_NOT_FINISHED: i32 = 57;

/// How a parse ended: `xml_get_error_code()`, line, column and byte index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The error code (0 for none).
    pub code: i32,
    /// The line.
    pub line: u64,
    /// The column.
    pub column: u64,
    /// The byte index.
    pub index: i64,
}

/// Whether PHP's own outcome for `doc`, fed in pieces ending at
/// `boundaries` (offsets where a piece ended and the parser ran on what it
/// had; the end of the document excluded), can differ from feeding it whole,
/// given how the pieces and the whole ended and whether the handlers saw
/// the same calls (`same_calls`).
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
///    whole document has more. And the byte index of a stopped parser is
///    what its buffer had dropped so far (0 if nothing), which the pieces
///    decide. PHP: `fixtures/php/limits/chunking-*`, `tests/fuzzing.rs`.
///    So: the pieces' error is reported at most three bytes before a
///    boundary, or one of the runs reports an error at byte index 0. Where
///    is read from the byte index and from the line and column: of a
///    converted document (ISO-8859-1 ...) the byte index counts what the
///    converter consumed, not where the parser is
///    (`limits/chunking-comment-triple-hyphen-latin1_*`).
///
/// 3. The internal-subset end scan (the `XML_PARSER_DTD` state) steps over
///    a comment only when it has all of it: a comment cut by the end of the
///    bytes it has is scanned again from three bytes before that end as if
///    it were declarations, so quotes and `]>` inside it count, and the
///    subset may be parsed early or never. PHP:
///    `fixtures/php/limits/chunking-dtd-*` (even one piece and a final `""`
///    differs from the whole with `is_final`). So: the internal subset has a
///    comment that is not closed, or that holds a quote or `]`.
///
/// 4. A CDATA section is handed over 300 bytes per call while its `]]>` has
///    not arrived, so of one that is never closed, as much is handed over
///    (and the final error is as far on) as there were calls. PHP:
///    `fixtures/php/limits/chunking-cdata-unclosed_*`. So: `<![CDATA[`
///    without a `]]>` after it.
///
/// 5. A declared encoding that libxml2 converts with iconv or its UTF-16
///    decoder fails on a byte it cannot map; where the chunk that holds it
///    converts nothing before it, the push fails (error -1, byte index 0),
///    elsewhere the input just ends there (error 5). PHP:
///    `fixtures/php/limits/chunking-windows-1252-*`, `chunking-utf16-*`.
///    So: a UTF-16 document (by its first bytes) with a high surrogate not
///    followed by a low one, or one declaring a charset (anything but
///    UTF-8, UTF-16 and ISO-8859-1; blanks around the `=`) with a byte >= 0x80,
///    which the charset may leave undefined (windows-1252's 0x81 ...), or
///    declaring ISO-2022-JP with an escape, after which two ASCII bytes may
///    be a pair JIS X 0208 leaves undefined (PHP:
///    `fixtures/php/encodings/iso2022jp-bad-trail_trace*`).
///
/// 6. Until the XML declaration is read, libxml2 converts only a first
///    line of an encoding it found from the first bytes (90 raw bytes of
///    UTF-16, 180 of UCS-4, 45 of EBCDIC: `xmlCharEncFirstLineInput`, and
///    `xmlParseChunk`'s first-line pushes): whole, a declaration longer
///    than that is cut there (57, "XML declaration not finished"); in
///    pieces, more arrives before it is parsed; a declared encoding takes
///    over where the converted bytes end, which the pieces decide. ICU,
///    which reads a UCS-4 document, is flushed by every push: it drops a
///    unit cut by a piece's end (or by the `\r` clause 9 holds back), keeps
///    the output of a call that meets an illegal unit for the next call,
///    and after a call that succeeds reads a BOM again. PHP:
///    `fixtures/php/utf16-decls/le-bom-spaces-*`, `encodings/wide-*`. So: an
///    EBCDIC document (by its first bytes); a UTF-16 one with no `?>` in
///    its first 45 characters or declaring an encoding other than UTF-16
///    there; a UCS-4 one (`00 00 00 3C` or `3C 00 00 00`) with a piece
///    boundary inside a unit or after a `0D` byte, a BOM unit after a
///    boundary, an illegal unit (past U+10FFFF or a surrogate), no `?>` in
///    its first 45 characters after `<?xml`, or declaring an encoding other
///    than UTF-8 there.
///
/// 7. While its `]]>` has not arrived, a CDATA section is handed over
///    300 bytes at a time once 302 are there; where the next character
///    is invalid, libxml2 hands over length 0, which PHP's handlers read
///    up to the buffer's NUL, before the error. Whole, the section's end
///    is there and the error comes first. PHP:
///    `fixtures/php/limits/chunking-cdata-invalid-first_*`. So: a CDATA
///    section with an invalid byte (an encoding error or a control
///    character) at least 302 bytes before its `]]>`.
///
/// 8. An XML declaration not ended by `?>` where libxml2 looks for it
///    (57, "XML declaration not finished"): `xmlParseXMLDecl` moves the
///    cursor to the next `>` of the bytes it has converted, or to their
///    end (`MOVETO_ENDTAG`, which counts no columns), then one character
///    on (`NEXT`, which counts one if there was a `>`). How far that is
///    depends on the pieces: a UTF-16 first line, or the rest of an ASCII
///    document read as the UCS-4 it declares, converted as it arrives.
///    PHP: `fixtures/php/limits/chunking-xmldecl-*`. So: both report 57
///    after the same handler calls, on the same line, the columns at most
///    one apart.
///
/// 9. A piece that ends in `\r` is parsed without it: `xmlParseChunk`
///    holds that `\r` back for the next call (`end_in_lf`), so the parser
///    stops a byte before such a boundary; so before the end of a document
///    that ends in `\r` (the final `""` call, after an error, parses
///    nothing more). PHP: `fixtures/php/limits/chunking-cr-at-end-*`. So:
///    clauses 1 and 2 take that byte as a boundary too.
///
/// 10. Text in content is parsed before a `<` arrives once 300 bytes are
///     there (`xmlParseTryOrFinish`, `XML_PARSER_BIG_BUFFER_SIZE`), and
///     handed over as far as the bytes go; whole, a `]]>` met in the same
///     scan (error 62) drops the text before it unreported
///     (`xmlParseCharData`), and in pieces the `]]>` may even pass without
///     an error. PHP: `fixtures/php/limits/chunking-text-before-cdata-end-*`
///     (298 spaces before `]]>` differ in pieces of 1 and 3, 297 never).
///     So: a `]]>` outside a CDATA section after 298 bytes or more of
///     text (from the end of the tag of the last `<`).
///
/// 11. The internal subset is parsed at once when the subset-end scan has
///     found its end, from a buffer that ends where the pieces so far end
///     (whole: at the document's end). The parser drops all but 80 bytes
///     before its cursor (`SHRINK`, `xmlParserInputShrink`) only where more
///     than 500 bytes are behind the cursor and fewer than 500 ahead
///     (`2 * INPUT_CHUNK`), so where the buffer ends decides at which
///     declaration it first drops them, and a parser an error stops in the
///     subset reports as byte index what was dropped (clause 2). PHP:
///     `fixtures/php/limits/chunking-dtd-shrink_*` (71 declarations, an
///     error in the 71st, 20 bytes after the subset: 1089 in pieces of 1
///     and 7, 1106 whole and in pieces of 64; without those 20 bytes,
///     1089 both ways). So: both report the same error at the same line
///     and column after the same calls, inside an internal subset, with
///     byte indexes that differ, both past 420 (what one drop takes at
///     least) and before the error.
///
/// 12. Text in content is read on a fast path while it is ASCII; from the
///     first byte that path does not take (a byte >= 0x80, a `\r` not
///     before `\n`) to the next `<` or `&`, `xmlParseCharDataComplex`
///     gathers it and hands it over 300 bytes at a time and where it
///     stops. An invalid character that `xmlCurrentChar` itself reports
///     (an encoding error, a NUL, a surrogate, U+FFFE, U+FFFF, past
///     U+10FFFF; not the other control characters) is a fatal error that
///     turns the handlers off before what was gathered since the last
///     hand-over is handed over: whole, up to 300 bytes before it are
///     lost. In pieces the text is parsed where the bytes end (clause 10),
///     each such parse handing over what it gathered, and the next one
///     starts on the fast path again, so less is lost. PHP:
///     `fixtures/php/limits/chunking-text-nul-after-non-ascii_*`,
///     `chunking-text-bad-utf8-after-non-ascii_*` (`é`, 400 bytes of `t`,
///     then a NUL or `C2 74`: 300 bytes of text whole, 402 in pieces of 1,
///     7 and 128; with a `\x08` instead, or without the `é`, all the text
///     both ways). So: such a character in text, after a byte that leaves
///     the fast path in the same text (from the end of the last tag,
///     reference, comment, PI or CDATA section), with a place where
///     parsing stopped between the two.
///
/// 13. While its `]]>` has not arrived, a CDATA section is handed over
///     300 bytes at a time, each block checked alone
///     (`xmlCheckCdataPush`), one block per run of the parser (in a
///     section it runs on a piece only if the piece holds a `>`:
///     `xmlParseCheckTransition`); once the `]]>` is there, the rest is
///     checked at once, and an invalid character in it fails the section
///     before any of the rest is handed over, at the column where the
///     handed-over part ended. Whole, nothing of the section is handed
///     over and the column is that of its start; in pieces 300 bytes a
///     run may be handed over first, and the column is as far on. PHP:
///     `fixtures/php/limits/chunking-cdata-invalid-late_*` (a NUL 501
///     bytes into a section with a `>` at 400: 300 bytes and column 313
///     in pieces of 1, 7 and 128, nothing and column 13 whole and in
///     pieces of 300; a NUL 299 bytes in, the same both ways). So: a
///     CDATA section closed by `]]>` with an invalid character (an
///     encoding error, a control character, a surrogate, U+FFFE, U+FFFF,
///     past U+10FFFF) 300 bytes or more after its start.
///
/// Every input the `chunked` fuzz target excluded this way in a sample of
/// 461 (`fuzz/php-triage.py`) does differ in PHP, and phpxml printed what
/// PHP printed in both modes.
#[must_use]
pub fn chunking_matters(
    doc: &[u8],
    boundaries: &[usize],
    pieces: Outcome,
    whole: Outcome,
    same_calls: bool,
) -> bool {
    let (code, index) = (pieces.code, pieces.index);
    let boundaries = &where_parsing_stopped(doc, boundaries)[..];
    let near_boundary = |p: usize| {
        let k = boundaries.partition_point(|&b| b <= p);
        boundaries.get(k).is_some_and(|&b| b <= p + 3)
    };
    let encoding = (0..doc.len()).any(|p| encoding_error_at(doc, p) && near_boundary(p));
    let just_before_boundary = |i: usize| {
        let k = boundaries.partition_point(|&b| b < i);
        boundaries.get(k).is_some_and(|&b| b <= i + 3)
    };
    let stopped_at_boundary = code != 0
        && (whole.index == 0
            || usize::try_from(index).is_ok_and(|i| i == 0 || just_before_boundary(i))
            || offset_of(doc, pieces.line, pieces.column).is_some_and(just_before_boundary));
    let xml_decl_unfinished = code == XMLDECL_NOT_FINISHED
        && whole.code == code
        && same_calls
        && pieces.line == whole.line
        && pieces.column.abs_diff(whole.column) <= 1;
    encoding
        || stopped_at_boundary
        || xml_decl_unfinished
        || subset_comment_matters(doc)
        || cdata_unclosed(doc)
        || cdata_invalid_before_end(doc)
        || conversion_fails(doc)
        || first_line_matters(doc, boundaries)
        || long_text_before_cdata_end(doc)
        || subset_shrink_matters(doc, pieces, whole, same_calls)
        || text_gathered_before_invalid(doc, boundaries)
        || cdata_invalid_late(doc)
}

/// Clause 9 of [`chunking_matters`]: the places the parser had parsed up to
/// when it stopped for more, in increasing order.
fn where_parsing_stopped(doc: &[u8], boundaries: &[usize]) -> Vec<usize> {
    let held_cr = boundaries
        .iter()
        .copied()
        .chain([doc.len()])
        .filter(|&b| b > 0 && doc.get(b - 1) == Some(&b'\r'))
        .map(|b| b - 1);
    let mut stops: Vec<usize> = boundaries.iter().copied().chain(held_cr).collect();
    stops.sort_unstable();
    stops.dedup();
    stops
}

/// The offset in `doc` of `line` and `column` (both from 1), counting a
/// byte a column as libxml2 does for ASCII.
fn offset_of(doc: &[u8], line: u64, column: u64) -> Option<usize> {
    let mut start = 0;
    for _ in 1..line {
        start += doc[start..].iter().position(|&b| b == b'\n')? + 1;
    }
    Some(start + usize::try_from(column).ok()?.checked_sub(1)?)
}

/// Clause 6 of [`chunking_matters`].
fn first_line_matters(doc: &[u8], boundaries: &[usize]) -> bool {
    let (le, skip) = match doc {
        [0, 0, 0, 0x3C, ..] | [0x3C, 0, 0, 0, ..] => return icu_ucs4_matters(doc, boundaries),
        [0x4C, 0x6F, 0xA7, 0x94, ..] => return true,
        [0xFF, 0xFE, ..] => (true, 2),
        [0xFE, 0xFF, ..] => (false, 2),
        [0x3C, 0, 0x3F, 0, ..] => (true, 0),
        [0, 0x3C, 0, 0x3F, ..] => (false, 0),
        _ => return false,
    };
    let line: Vec<u8> = doc[skip..doc.len().min(skip + 90)]
        .chunks_exact(2)
        .map(|p| if le { p[0] } else { p[1] })
        .collect();
    let Some(end) = line.windows(2).position(|w| w == b"?>") else {
        return true;
    };
    let decl = String::from_utf8_lossy(&line[..end]).to_ascii_uppercase();
    decl.split("ENCODING=")
        .nth(1)
        .and_then(|v| v.split(['"', '\'']).find(|x| !x.trim().is_empty()))
        .is_some_and(|v| !matches!(v, "UTF-16" | "UTF16"))
}

/// Clause 6 of [`chunking_matters`] for a document ICU reads as UCS-4
/// (big-endian, as it reads without a BOM).
fn icu_ucs4_matters(doc: &[u8], boundaries: &[usize]) -> bool {
    let unit = |u: &[u8]| u32::from_be_bytes([u[0], u[1], u[2], u[3]]);
    let cut_inside = !doc.len().is_multiple_of(4)
        || boundaries
            .iter()
            .any(|&b| !b.is_multiple_of(4) || (b > 0 && doc.get(b - 1) == Some(&b'\r')));
    let bom_after_cut = boundaries.iter().any(|&b| {
        matches!(
            doc.get(b..b + 4),
            Some([0, 0, 0xFE, 0xFF] | [0xFF, 0xFE, 0, 0])
        )
    });
    let illegal = doc
        .chunks_exact(4)
        .map(unit)
        .any(|c| c > 0x10_FFFF || (0xD800..0xE000).contains(&c));
    let line: Vec<u8> = doc[..doc.len().min(180)]
        .chunks_exact(4)
        .map(|u| u8::try_from(unit(u)).unwrap_or(0))
        .collect();
    let declaration = line
        .starts_with(b"<?xml")
        .then(|| line.windows(2).position(|w| w == b"?>"));
    let declares = |end: usize| {
        let decl = String::from_utf8_lossy(&line[..end]).to_ascii_uppercase();
        decl.split("ENCODING")
            .nth(1)
            .and_then(|v| v.split(['"', '\'']).nth(1))
            .is_some_and(|v| !matches!(v, "UTF-8" | "UTF8"))
    };
    cut_inside
        || bom_after_cut
        || illegal
        || declaration.is_some_and(|end| end.is_none_or(declares))
}

/// Clause 5 of [`chunking_matters`].
fn conversion_fails(doc: &[u8]) -> bool {
    let le = doc.starts_with(b"\xFF\xFE") || doc.starts_with(b"<\0?\0");
    let be = doc.starts_with(b"\xFE\xFF") || doc.starts_with(b"\0<\0?");
    if le || be {
        let units: Vec<u16> = doc
            .chunks_exact(2)
            .map(|p| {
                if le {
                    u16::from_le_bytes([p[0], p[1]])
                } else {
                    u16::from_be_bytes([p[0], p[1]])
                }
            })
            .collect();
        return units
            .windows(2)
            .any(|w| (0xD800..0xDC00).contains(&w[0]) && !(0xDC00..0xE000).contains(&w[1]));
    }
    // a declared charset other than UTF-8, UTF-16 or ISO-8859-1 may leave
    // a byte >= 0x80 undefined (windows-1252's 0x81, windows-1251's 0x98...)
    let head = &doc[..doc.len().min(200)];
    let Some(at) = head.windows(8).position(|w| w == b"encoding") else {
        return false;
    };
    // `Eq`: blanks may stand around the `=`
    let blank = |b: &&u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let mut rest = head[at + 8..].iter().skip_while(blank);
    if rest.next() != Some(&b'=') {
        return false;
    }
    let name: Vec<u8> = rest
        .skip_while(blank)
        .skip(1)
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
        .map(u8::to_ascii_uppercase)
        .collect();
    let always_defined = name.is_empty()
        || name.starts_with(b"UTF")
        || matches!(
            &name[..],
            b"ISO-8859-1" | b"LATIN1" | b"L1" | b"ISO-LATIN-1"
        );
    let iso_2022_jp = matches!(&name[..], b"ISO-2022-JP" | b"ISO2022JP" | b"CSISO2022JP");
    !always_defined && (doc.iter().any(|&b| b >= 0x80) || (iso_2022_jp && doc.contains(&0x1B)))
}

/// Where `needle` first is in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The CDATA sections of `doc`, in order: where each one's text starts and
/// where its `]]>` is (`None` for a last one left open).
fn cdata_sections(doc: &[u8]) -> impl Iterator<Item = (usize, Option<usize>)> + '_ {
    let mut from = Some(0);
    std::iter::from_fn(move || {
        let at = from?;
        let start = at + find(&doc[at..], b"<![CDATA[")? + 9;
        let end = find(&doc[start..], b"]]>").map(|e| start + e);
        from = end;
        Some((start, end))
    })
}

/// A control character XML does not allow (all below 0x20 but tab, line
/// feed and carriage return).
fn forbidden_control(b: u8) -> bool {
    b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')
}

/// Clause 7 of [`chunking_matters`].
fn cdata_invalid_before_end(doc: &[u8]) -> bool {
    let invalid = |p: usize| encoding_error_at(doc, p) || forbidden_control(doc[p]);
    cdata_sections(doc).any(|(start, end)| {
        let end = end.unwrap_or(doc.len());
        (start..end).any(|p| end - p >= 302 && invalid(p))
    })
}

/// Clause 10 of [`chunking_matters`].
fn long_text_before_cdata_end(doc: &[u8]) -> bool {
    doc.windows(3).enumerate().any(|(at, w)| {
        if w != b"]]>" {
            return false;
        }
        // the text starts where the tag of the last `<` ends
        let Some(lt) = doc[..at].iter().rposition(|&b| b == b'<') else {
            return false;
        };
        if doc[lt..].starts_with(b"<![CDATA[") {
            return false;
        }
        doc[lt..at]
            .iter()
            .position(|&b| b == b'>')
            .is_some_and(|gt| at - (lt + gt + 1) >= 298)
    })
}

/// Clause 4 of [`chunking_matters`].
fn cdata_unclosed(doc: &[u8]) -> bool {
    find(doc, b"<![CDATA[").is_some_and(|i| find(&doc[i + 9..], b"]]>").is_none())
}

/// Clause 3 of [`chunking_matters`]: a comment in the internal subset that
/// is not closed or holds `"`, `'` or `]`.
fn subset_comment_matters(doc: &[u8]) -> bool {
    let Some(start) = find(doc, b"<!DOCTYPE") else {
        return false;
    };
    let Some(open) = doc[start..].iter().position(|&b| b == b'[') else {
        return false;
    };
    let mut rest = &doc[start + open..];
    while let Some(c) = find(rest, b"<!--") {
        let body = &rest[c + 4..];
        let Some(end) = find(body, b"-->") else {
            return true;
        };
        if body[..end].iter().any(|b| matches!(b, b'"' | b'\'' | b']')) {
            return true;
        }
        rest = &body[end + 3..];
    }
    false
}

/// Whether `xmlCurrentChar` reports the character at `p` as invalid: an
/// encoding error (as [`encoding_error_at`] reads it), a NUL, or a
/// well-formed sequence for a surrogate, U+FFFE, U+FFFF or a value past
/// U+10FFFF.
fn current_char_error(doc: &[u8], p: usize) -> bool {
    if doc[p] == 0 || encoding_error_at(doc, p) {
        return true;
    }
    let c = doc[p];
    let at = |i: usize| u32::from(doc.get(p + i).copied().unwrap_or(0) & 0x3F);
    if c & 0xF0 == 0xE0 {
        let v = (u32::from(c & 0xF) << 12) | (at(1) << 6) | at(2);
        return (0xD800..0xE000).contains(&v) || v >= 0xFFFE;
    }
    if c & 0xF8 == 0xF0 {
        let v = (u32::from(c & 7) << 18) | (at(1) << 12) | (at(2) << 6) | at(3);
        return v > 0x10_FFFF;
    }
    false
}

/// Clause 11 of [`chunking_matters`].
fn subset_shrink_matters(doc: &[u8], pieces: Outcome, whole: Outcome, same_calls: bool) -> bool {
    if pieces.code == 0
        || pieces.code != whole.code
        || !same_calls
        || (pieces.line, pieces.column) != (whole.line, whole.column)
        || pieces.index == whole.index
    {
        return false;
    }
    let Some(at) = offset_of(doc, pieces.line, pieces.column) else {
        return false;
    };
    let in_subset = at < doc.len()
        && find(&doc[..at], b"<!DOCTYPE").is_some_and(|s| doc[s..at].contains(&b'['));
    in_subset
        && [pieces.index, whole.index]
            .iter()
            .all(|&i| i > 420 && usize::try_from(i).is_ok_and(|i| i < at))
}

/// Clause 12 of [`chunking_matters`]: `boundaries` are where parsing
/// stopped.
fn text_gathered_before_invalid(doc: &[u8], boundaries: &[usize]) -> bool {
    // where the markup that started at the last `<` or `&` ends
    let mut until: Option<&[u8]> = Some(b">");
    // the first byte of the current text the fast path does not take
    let mut slow: Option<usize> = None;
    let mut p = 0;
    while p < doc.len() {
        if let Some(end) = until {
            if doc[p..].starts_with(end) {
                p += end.len();
                until = None;
                slow = None;
            } else {
                p += 1;
            }
            continue;
        }
        until = match doc[p] {
            b'&' => Some(b";"),
            b'<' if doc[p..].starts_with(b"<![CDATA[") => Some(b"]]>"),
            b'<' if doc[p..].starts_with(b"<!--") => Some(b"-->"),
            b'<' if doc[p..].starts_with(b"<?") => Some(b"?>"),
            b'<' => Some(b">"),
            _ => None,
        };
        if until.is_none() {
            if current_char_error(doc, p) {
                if slow.is_some_and(|s| boundaries.iter().any(|&b| s < b && b <= p)) {
                    return true;
                }
            } else if slow.is_none()
                && (doc[p] >= 0x80 || (doc[p] == b'\r' && doc.get(p + 1) != Some(&b'\n')))
            {
                slow = Some(p);
            }
        }
        p += 1;
    }
    false
}

/// Clause 13 of [`chunking_matters`].
fn cdata_invalid_late(doc: &[u8]) -> bool {
    let invalid = |p: usize| current_char_error(doc, p) || forbidden_control(doc[p]);
    cdata_sections(doc).any(|(start, end)| end.is_some_and(|end| (start + 300..end).any(invalid)))
}
