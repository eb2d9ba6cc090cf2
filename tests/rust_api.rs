//! The Rust-shaped API beside the PHP-shaped one: `Result`s, `ErrorCode`,
//! `&str` handlers for a UTF-8 target, and stopping from a handler.

use phpxml::{
    ErrorCode, Handler, HandlerSet, Key, Parser, TargetEncoding, Utf8Handler, error_string,
};

/// Documents that reach every handler (with every handler set).
const DOCS: [&str; 4] = [
    "<?xml version='1.0'?><!DOCTYPE r [<!ENTITY e 'é&#233;'><!NOTATION n SYSTEM 'n.txt'>\
     <!ENTITY u SYSTEM 'u.bin' NDATA n><!ENTITY x SYSTEM 'x.xml'>]>\
     <r a='1' b='ü'><?pi data ?><!-- comment -->&e;&x;<c>text</c><![CDATA[<raw>]]></r>",
    "<ns:r xmlns:ns='urn:ns' xmlns='urn:d' ns:a='v'><d/></ns:r>",
    "<r>caf\u{e9} \u{20ac} \u{1F600}</r>",
    "<r><unclosed></r>",
];

/// What a handler saw, as text, the same for both flavours.
#[derive(Default)]
struct Seen(Vec<String>);

fn s(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).expect("a UTF-8 target gives UTF-8")
}

fn o(b: Option<&[u8]>) -> String {
    b.map_or("false".into(), s)
}

fn os(b: Option<&str>) -> String {
    b.map_or("false".into(), str::to_owned)
}

impl Handler for Seen {
    fn installed(&self) -> HandlerSet {
        HandlerSet::ALL
    }
    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        let attributes: Vec<String> = attributes
            .iter()
            .map(|(k, v)| format!("{}={}", s(&k.to_bytes()), s(v)))
            .collect();
        self.0.push(format!("start {} {attributes:?}", s(name)));
    }
    fn end_element(&mut self, name: &[u8]) {
        self.0.push(format!("end {}", s(name)));
    }
    fn character_data(&mut self, data: &[u8]) {
        self.0.push(format!("text {}", s(data)));
    }
    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        self.0.push(format!("pi {} {}", s(target), o(data)));
    }
    fn default_data(&mut self, data: &[u8]) {
        self.0.push(format!("default {}", s(data)));
    }
    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        let (b, sy, p, n) = (o(base), o(system_id), o(public_id), o(notation));
        self.0
            .push(format!("unparsed {} {b} {sy} {p} {n}", s(name)));
    }
    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
        let (b, sy, p) = (o(base), o(system_id), o(public_id));
        self.0.push(format!("notation {} {b} {sy} {p}", s(name)));
    }
    fn external_entity_ref(
        &mut self,
        names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        let (b, sy, p) = (o(base), o(system_id), o(public_id));
        self.0.push(format!("external {} {b} {sy} {p}", s(names)));
        true
    }
    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        self.0.push(format!("ns {} {}", o(prefix), s(uri)));
    }
}

#[derive(Default)]
struct SeenStr(Vec<String>);

impl Utf8Handler for SeenStr {
    fn installed(&self) -> HandlerSet {
        HandlerSet::ALL
    }
    fn start_element(&mut self, name: &str, attributes: &[(&str, &str)]) {
        let attributes: Vec<String> = attributes.iter().map(|(k, v)| format!("{k}={v}")).collect();
        self.0.push(format!("start {name} {attributes:?}"));
    }
    fn end_element(&mut self, name: &str) {
        self.0.push(format!("end {name}"));
    }
    fn character_data(&mut self, data: &str) {
        self.0.push(format!("text {data}"));
    }
    fn processing_instruction(&mut self, target: &str, data: Option<&str>) {
        self.0.push(format!("pi {target} {}", os(data)));
    }
    fn default_data(&mut self, data: &str) {
        self.0.push(format!("default {data}"));
    }
    fn unparsed_entity_decl(
        &mut self,
        name: &str,
        base: Option<&str>,
        system_id: Option<&str>,
        public_id: Option<&str>,
        notation: Option<&str>,
    ) {
        let (b, sy, p, n) = (os(base), os(system_id), os(public_id), os(notation));
        self.0.push(format!("unparsed {name} {b} {sy} {p} {n}"));
    }
    fn notation_decl(
        &mut self,
        name: &str,
        base: Option<&str>,
        system_id: Option<&str>,
        public_id: Option<&str>,
    ) {
        let (b, sy, p) = (os(base), os(system_id), os(public_id));
        self.0.push(format!("notation {name} {b} {sy} {p}"));
    }
    fn external_entity_ref(
        &mut self,
        names: &str,
        base: Option<&str>,
        system_id: Option<&str>,
        public_id: Option<&str>,
    ) -> bool {
        let (b, sy, p) = (os(base), os(system_id), os(public_id));
        self.0.push(format!("external {names} {b} {sy} {p}"));
        true
    }
    fn start_namespace_decl(&mut self, prefix: Option<&str>, uri: &str) {
        self.0.push(format!("ns {} {uri}", os(prefix)));
    }
}

#[test]
fn utf8_handlers_see_what_byte_handlers_see() {
    for doc in DOCS {
        for sizes in [0, 1, 7] {
            let (mut bytes, mut text) = (Seen::default(), SeenStr::default());
            let (mut p, mut q) = (
                Parser::new_ns(None, ":").unwrap(),
                Parser::new_ns(None, ":").unwrap(),
            );
            let (ok, result) = if sizes == 0 {
                (
                    p.parse(&mut bytes, doc.as_bytes(), true),
                    q.feed_utf8(&mut text, doc.as_bytes(), true),
                )
            } else {
                let mut ok = true;
                let mut result = Ok(());
                for piece in doc.as_bytes().chunks(sizes) {
                    ok &= p.parse(&mut bytes, piece, false);
                    result = result.and(q.feed_utf8(&mut text, piece, false));
                }
                ok &= p.parse(&mut bytes, b"", true);
                (ok, result.and(q.feed_utf8(&mut text, b"", true)))
            };
            assert_eq!(ok, result.is_ok(), "{doc}");
            assert_eq!(bytes.0, text.0, "{doc} in pieces of {sizes}");
            assert!(!bytes.0.is_empty());
            assert_eq!(p.error_code(), q.error_code());
        }
    }
}

#[test]
fn a_utf8_handler_refuses_a_target_changed_between_calls() {
    let mut parser = Parser::new(None).unwrap();
    let mut seen = SeenStr::default();
    parser.feed_utf8(&mut seen, b"<r>a", false).unwrap();
    parser.set_target_encoding(TargetEncoding::Iso8859_1);
    let err = parser
        .feed_utf8(&mut seen, "\u{e9}</r>".as_bytes(), true)
        .unwrap_err();
    assert!(matches!(
        err,
        phpxml::Error::TargetNotUtf8(TargetEncoding::Iso8859_1)
    ));
    // nothing was parsed: the document goes on under UTF-8 again
    parser.set_target_encoding(TargetEncoding::Utf8);
    parser
        .feed_utf8(&mut seen, "\u{e9}</r>".as_bytes(), true)
        .unwrap();
    assert_eq!(seen.0, ["start R []", "text a", "text \u{e9}", "end R"]);
}

/// Counts elements and stops after `limit` starts.
struct StopAfter {
    limit: usize,
    starts: Vec<Vec<u8>>,
    calls_after: usize,
}

impl Handler for StopAfter {
    fn start_element(&mut self, name: &[u8], _: &[(Key, Vec<u8>)]) {
        if self.starts.len() >= self.limit {
            self.calls_after += 1;
        }
        self.starts.push(name.to_vec());
    }
    fn character_data(&mut self, _: &[u8]) {
        if self.starts.len() >= self.limit {
            self.calls_after += 1;
        }
    }
    fn stop_requested(&self) -> bool {
        self.starts.len() >= self.limit
    }
}

#[test]
fn a_stop_ends_the_parse_at_once_in_every_chunking() {
    let doc = b"<r><a>1</a><b>2</b><c>3</c><d>4</d></r>";
    for size in [1, 2, 3, 5, 8, 13, doc.len()] {
        let mut parser = Parser::new(None).unwrap();
        let mut h = StopAfter {
            limit: 3,
            starts: Vec::new(),
            calls_after: 0,
        };
        let mut first_failure = None;
        for (i, piece) in doc.chunks(size).enumerate() {
            if parser.feed(&mut h, piece, false).is_err() && first_failure.is_none() {
                first_failure = Some(i);
            }
        }
        let err = parser.feed(&mut h, b"", true).unwrap_err();
        assert_eq!(err.error_code(), Some(ErrorCode::UserStop), "size {size}");
        assert_eq!(err.message(), error_string(111));
        assert_eq!(h.starts, [b"R", b"A", b"B"], "size {size}");
        assert_eq!(h.calls_after, 0, "size {size}");
        // the call that delivered the stopping event failed, not a later one
        let b_end = doc.iter().position(|&b| b == b'b').unwrap() + 1;
        assert_eq!(first_failure, Some(b_end / size), "size {size}");
        // as PHP after the xmlStopParser() of a refused external entity:
        // the column past what stopped, the byte index of the released
        // input (0 for a short document)
        assert_eq!(
            (err.line, err.column, err.byte_index),
            (1, 15, 0),
            "size {size}"
        );
    }
}

#[test]
fn a_stop_ends_parse_into_struct() {
    let mut h = StopAfter {
        limit: 2,
        starts: Vec::new(),
        calls_after: 0,
    };
    let result = Parser::new(None)
        .unwrap()
        .parse_into_struct_with(&mut h, b"<r><a>1</a><b>2</b></r>");
    assert!(!result.ok);
    let tags: Vec<&[u8]> = result.values.iter().map(|e| &e.tag[..]).collect();
    assert_eq!(tags, [&b"R"[..], b"A"]);
}

#[test]
fn error_codes_are_named() {
    // the codes PHP 8.2 reports for these documents
    let cases: [(&[u8], ErrorCode); 5] = [
        (b"<a>", ErrorCode::DocumentEnd),
        (b"<a></b>", ErrorCode::TagNameMismatch),
        (b"", ErrorCode::DocumentEnd),
        (b"<a b='1' b='2'/>", ErrorCode::AttributeRedefined),
        (b"<a>&x;</a>", ErrorCode::UndeclaredEntity),
    ];
    for (doc, code) in cases {
        let mut parser = Parser::new(None).unwrap();
        let err = parser.feed(&mut (), doc, true).unwrap_err();
        assert_eq!(err.code, parser.error_code());
        assert_eq!(err.error_code(), Some(code), "{doc:?}");
        assert_eq!(code as i32, err.code);
        assert_eq!(code.message(), error_string(err.code));
    }
}

#[test]
fn parse_struct_is_parse_into_struct_with_a_result() {
    let doc = b"<r><i a='1'>x</i></r>";
    let php = Parser::new(None).unwrap().parse_into_struct(doc);
    let rust = Parser::new(None).unwrap().parse_struct(doc).unwrap();
    assert_eq!(php, rust);
    let err = Parser::new(None).unwrap().parse_struct(b"<r>").unwrap_err();
    assert_eq!(err.error_code(), Some(ErrorCode::DocumentEnd));
}

/// The other way to stop, which PHP has: an external entity reference
/// handler that returns `false`. PHP 8.2 answers `0 21 0 1 52` for
/// `xml_parse()`, the error code, byte index, line and column.
#[test]
fn a_refused_external_entity_stops_as_in_php() {
    struct Refuse;
    impl Handler for Refuse {
        fn installed(&self) -> HandlerSet {
            HandlerSet {
                external_entity_ref: true,
                ..HandlerSet::NONE
            }
        }
        fn external_entity_ref(
            &mut self,
            _: &[u8],
            _: Option<&[u8]>,
            _: Option<&[u8]>,
            _: Option<&[u8]>,
        ) -> bool {
            false
        }
    }
    let doc = br#"<!DOCTYPE r [<!ENTITY x SYSTEM "x">]><r><a>1</a>&x;<b/></r>"#;
    let mut parser = Parser::new(None).unwrap();
    let err = parser.feed(&mut Refuse, doc, true).unwrap_err();
    assert_eq!(
        (err.code, err.byte_index, err.line, err.column),
        (21, 0, 1, 52)
    );
    assert_eq!(err.error_code(), Some(ErrorCode::EXTERNAL_ENTITY_HANDLING));
    assert!(!parser.parse(&mut Refuse, b"x", true));
    assert_eq!(parser.error_code(), 21);
}

/// `next_borrowed` gives the iterator's events, whatever the blocks and
/// with or without joined text, while it reuses their buffers.
#[test]
fn borrowed_events_are_the_iterators() {
    let record = "<r a='1' b='\u{fc}'><?pi data ?><!-- c --><c>text &amp; more</c>\
                  <![CDATA[<raw>]]><e/><e x='1' y='2' z='3'></e>\u{20ac} \u{1F600}\n</r>";
    let doc = format!("<all>{}</all>", record.repeat(40));
    for block in [1, 3, 7, 64, 4096] {
        for coalesce in [false, true] {
            let reader = || {
                Parser::new(None)
                    .unwrap()
                    .events(doc.as_bytes())
                    .block_size(block)
                    .coalesce_text(coalesce)
                    .with_handlers(HandlerSet::ALL)
            };
            let owned: Vec<_> = reader().map(|e| format!("{e:?}")).collect();
            let mut borrowed = Vec::new();
            let mut events = reader();
            while let Some(event) = events.next_borrowed() {
                borrowed.push(format!("{event:?}"));
            }
            assert_eq!(borrowed, owned, "block {block} coalesce {coalesce}");
            assert!(owned.len() > 10);
        }
    }
}

/// What a parse left: the handler calls, the result and where it stopped.
fn outcome(parser: &Parser, seen: Seen, ok: bool) -> (Vec<String>, bool, i32, u64, u64, i64) {
    (
        seen.0,
        ok,
        parser.error_code(),
        parser.line(),
        parser.column(),
        parser.byte_index(),
    )
}

#[test]
fn a_document_given_away_parses_as_a_borrowed_one() {
    let mut docs: Vec<Vec<u8>> = DOCS.iter().map(|d| d.as_bytes().to_vec()).collect();
    // converted input (copied, as `parse` copies it), a BOM, nothing, and
    // a chunk that ends inside a character
    docs.push(b"<?xml version='1.0' encoding='ISO-8859-1'?><r a='\xE9'>caf\xE9</r>".to_vec());
    docs.push(b"\xFF\xFE<\0r\0/\0>\0".to_vec());
    docs.push(b"\xEF\xBB\xBF<r>\xC3\xA9</r>".to_vec());
    docs.push(Vec::new());
    docs.push(b"  <r>\xC3</r>".to_vec());
    for doc in &docs {
        // whole, and after a first piece that stays buffered
        for split in [0, 1.min(doc.len()), doc.len() / 2] {
            let (head, tail) = doc.split_at(split);
            let mut borrowed = Parser::new(None).expect("parser");
            let mut owned = Parser::new(None).expect("parser");
            let (mut a, mut b) = (Seen::default(), Seen::default());
            let first = (
                borrowed.parse(&mut a, head, false),
                owned.parse(&mut b, head, false),
            );
            assert_eq!(first.0, first.1);
            let ok = borrowed.parse(&mut a, tail, true);
            let ok_owned = owned.parse_owned(&mut b, tail.to_vec());
            assert_eq!(
                outcome(&owned, b, ok_owned),
                outcome(&borrowed, a, ok),
                "{:?} split at {split}",
                String::from_utf8_lossy(doc)
            );
        }
    }
}

#[test]
fn a_document_given_away_after_a_struct_is_a_borrowed_one() {
    // `parse_into_struct` leaves its arrays bound to the parser; what a
    // later parse adds to them shows in the next one's index positions
    let doc = b"<r><i>1</i><i>2</i></r>";
    let mut results = Vec::new();
    for owned in [false, true] {
        let mut parser = Parser::new(None).expect("parser");
        let first = parser.parse_into_struct(b"<r><i>0</i></r>");
        let mut seen = Seen::default();
        let ok = if owned {
            parser.parse_owned(&mut seen, doc.to_vec())
        } else {
            parser.parse(&mut seen, doc, true)
        };
        let after = outcome(&parser, seen, ok);
        let next = parser.parse_into_struct(doc);
        results.push((first.index, after, next.ok, next.index));
    }
    assert_eq!(results[0], results[1]);
    assert!(
        Parser::new(None)
            .expect("parser")
            .feed_owned(&mut (), b"<r>".to_vec())
            .is_err()
    );
    assert!(
        Parser::new(None)
            .expect("parser")
            .feed_owned(&mut (), b"<r/>".to_vec())
            .is_ok()
    );
}
