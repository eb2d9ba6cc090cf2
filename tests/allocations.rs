//! Allocations per event, counted by a global allocator (this test binary
//! alone): handlers get borrowed names and texts, so a steady-state parse
//! with handlers allocates nothing per event.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use phpxml::{Handler, HandlerSet, Key, Parser, Utf8Handler};

struct Counting;

thread_local! {
    /// This thread's allocations (the test harness's threads allocate too).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

// SAFETY: forwards to the system allocator, counting calls.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// `n` records of a feed, each with attributes, text, an entity reference,
/// a character reference, non-ASCII text and an empty element.
fn records(n: usize) -> Vec<u8> {
    let mut doc = Vec::new();
    for i in 0..n {
        doc.extend_from_slice(
            format!(
                "<item id='{i}' lang='fr'><title>Caf\u{e9} n\u{b0}{i} &amp; co &#x20AC;</title>\
                 <price currency='EUR'>{i}.50</price><empty/></item>\n"
            )
            .as_bytes(),
        );
    }
    doc
}

/// Counts events and keeps a checksum so that nothing is optimised away.
struct Count {
    /// The handlers installed (as a [`Handler`]).
    set: HandlerSet,
    events: usize,
    bytes: usize,
}

impl Handler for Count {
    fn installed(&self) -> HandlerSet {
        self.set
    }
    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        self.events += 1;
        self.bytes += name.len() + attributes.iter().map(|(_, v)| v.len()).sum::<usize>();
    }
    fn end_element(&mut self, name: &[u8]) {
        self.events += 1;
        self.bytes += name.len();
    }
    fn character_data(&mut self, data: &[u8]) {
        self.events += 1;
        self.bytes += data.len();
    }
    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        self.events += 1;
        self.bytes += target.len() + data.map_or(0, <[u8]>::len);
    }
    fn default_data(&mut self, data: &[u8]) {
        self.events += 1;
        self.bytes += data.len();
    }
    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        _: Option<&[u8]>,
        system_id: Option<&[u8]>,
        _: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        self.saw(&[Some(name), system_id, notation]);
    }
    fn notation_decl(
        &mut self,
        name: &[u8],
        _: Option<&[u8]>,
        id: Option<&[u8]>,
        _: Option<&[u8]>,
    ) {
        self.saw(&[Some(name), id]);
    }
    fn external_entity_ref(
        &mut self,
        names: &[u8],
        _: Option<&[u8]>,
        system_id: Option<&[u8]>,
        _: Option<&[u8]>,
    ) -> bool {
        self.saw(&[Some(names), system_id]);
        true
    }
    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        self.saw(&[prefix, Some(uri)]);
    }
}

impl Count {
    /// One event of these strings.
    fn saw(&mut self, strings: &[Option<&[u8]>]) {
        self.events += 1;
        self.bytes += strings.iter().flatten().map(|s| s.len()).sum::<usize>();
    }
}

impl Utf8Handler for Count {
    fn installed(&self) -> HandlerSet {
        HandlerSet::ALL
    }
    fn start_element(&mut self, name: &str, attributes: &[(&str, &str)]) {
        self.events += 1;
        self.bytes += name.len() + attributes.iter().map(|(_, v)| v.len()).sum::<usize>();
    }
    fn end_element(&mut self, name: &str) {
        self.events += 1;
        self.bytes += name.len();
    }
    fn character_data(&mut self, data: &str) {
        self.events += 1;
        self.bytes += data.len();
    }
    fn processing_instruction(&mut self, target: &str, data: Option<&str>) {
        self.events += 1;
        self.bytes += target.len() + data.map_or(0, str::len);
    }
}

/// Parses the records in 4 KiB chunks (as PHP code feeding `fread()`
/// blocks) once to warm the buffers up, then again inside the same open
/// document, counting: the allocations of the second part and its event
/// count.
fn steady_state(target: Option<&str>, utf8: bool, records: &[u8]) -> (usize, usize) {
    steady_state_as(target, utf8, HandlerSet::ALL, records)
}

/// [`steady_state`] of a UTF-8 target with the [`Handler`] methods of
/// `set` installed.
fn steady_state_with(target: Option<&str>, set: HandlerSet, records: &[u8]) -> (usize, usize) {
    steady_state_as(target, false, set, records)
}

fn steady_state_as(
    target: Option<&str>,
    utf8: bool,
    set: HandlerSet,
    records: &[u8],
) -> (usize, usize) {
    let mut parser = Parser::new(target).unwrap();
    let mut count = Count {
        set,
        events: 0,
        bytes: 0,
    };
    let feed = |parser: &mut Parser, count: &mut Count, doc: &[u8]| {
        for chunk in doc.chunks(4096) {
            if utf8 {
                parser.feed_utf8(count, chunk, false).unwrap();
            } else {
                parser.feed(count, chunk, false).unwrap();
            }
        }
    };
    feed(
        &mut parser,
        &mut count,
        b"<?xml version='1.0' encoding='UTF-8'?><feed>",
    );
    feed(&mut parser, &mut count, records);
    let events_before = count.events;
    let n = allocations(|| feed(&mut parser, &mut count, records));
    let events = count.events - events_before;
    feed(&mut parser, &mut count, b"</feed>");
    if utf8 {
        parser.feed_utf8(&mut count, b"", true).unwrap();
    } else {
        parser.feed(&mut count, b"", true).unwrap();
    }
    (n, events)
}

#[test]
fn handlers_allocate_nothing_per_event() {
    let records = records(2000);
    for (target, utf8) in [(None, false), (Some("ISO-8859-1"), false), (None, true)] {
        let (n, events) = steady_state(target, utf8, &records);
        println!("{target:?} utf8 {utf8}: {n} allocations for {events} events");
        assert!(events >= 14 * 2000, "{events} events");
        assert_eq!(
            n, 0,
            "{target:?} utf8 {utf8}: {n} allocations for {events} events"
        );
    }
}

/// Comments and processing instructions are copied by the parser core
/// (as libxml2's `xmlParseComment` and `xmlParsePI` copy them) into one
/// buffer it reuses, which also holds what the default handler gets for
/// them (`<!--text-->`, `<?target data?>`): no allocation per event.
#[test]
fn comments_and_pis_allocate_nothing_per_event() {
    for record in [
        "<?pi data?>",
        "<?pi?>",
        "<!-- comment -->",
        "<!-- caf\u{e9} -->",
    ] {
        let default_only = HandlerSet {
            default: true,
            ..HandlerSet::NONE
        };
        for handlers in [HandlerSet::ALL, default_only] {
            let (n, events) = steady_state_with(None, handlers, record.repeat(1000).as_bytes());
            println!("{record} {handlers:?}: {n} allocations for {events} events");
            assert!(events >= 1000, "{record}: {events} events");
            // a buffer of the chunked feed may still grow once
            assert!(n <= 2, "{record}: {n} allocations for {events} events");
        }
    }
}

#[test]
#[ignore = "prints the allocations of each kind of record"]
fn allocations_by_record() {
    for rec in [
        "<a></a>",
        "<a>t</a>",
        "<a>caf\u{e9}</a>",
        "<a x='1'></a>",
        "<a x='1' y='2'/>",
        "<a>&amp;</a>",
        "<?pi d?>",
        "<?pi?>",
        "<a xmlns:p='urn:p' p:x='1'/>",
        "<!-- c -->",
        "<a/>\n",
    ] {
        let records = rec.repeat(2000);
        let (n, events) = steady_state(None, false, records.as_bytes());
        println!("{rec:?}: {n} / {events}");
    }
}

/// A parser without namespaces.
fn plain() -> Parser {
    Parser::new(None).unwrap()
}

/// A namespaced parser (`xml_parser_create_ns()`).
fn namespaced() -> Parser {
    Parser::new_ns(None, ":").unwrap()
}

/// Reads `<feed>`, `copies` times `records` and `</feed>` with the owned
/// iterator: its allocations (parser, reader and events) and its events.
fn owned_reading(
    parser: fn() -> Parser,
    records: &[u8],
    copies: usize,
    block_size: usize,
    coalesce: bool,
) -> (usize, usize) {
    let doc = [b"<feed>".as_slice(), &records.repeat(copies), b"</feed>"].concat();
    let mut events = 0;
    let n = allocations(|| {
        let reader = parser()
            .events(&doc[..])
            .block_size(block_size)
            .coalesce_text(coalesce);
        for event in reader {
            event.unwrap();
            events += 1;
        }
    });
    (n, events)
}

/// What reading `records` once more costs with the owned iterator: the
/// allocations and events of two copies less those of one (setting up,
/// growing the buffers to the block size, cancel out).
fn owned_per_copy(
    parser: fn() -> Parser,
    records: &[u8],
    block_size: usize,
    coalesce: bool,
) -> (usize, usize) {
    let (n1, events1) = owned_reading(parser, records, 1, block_size, coalesce);
    let (n2, events2) = owned_reading(parser, records, 2, block_size, coalesce);
    (n2.saturating_sub(n1), events2 - events1)
}

#[test]
fn the_owned_pull_api_allocates_at_most_once_per_event() {
    // the second copy of the records: its allocations and its events
    println!("| records | blocks | allocations | events | per event |");
    println!("|---|---|---:|---:|---:|");
    let feed = String::from_utf8(records(2000)).unwrap();
    for (case, records) in [
        ("feed (records())", feed),
        ("<a></a>", "<a></a>".repeat(2000)),
        ("<a>t</a>", "<a>t</a>".repeat(2000)),
        ("<a x='1' y='2'/>", "<a x='1' y='2'/>".repeat(2000)),
        (
            "<a>caf\u{e9} &amp; co</a>",
            "<a>caf\u{e9} &amp; co</a>\n".repeat(2000),
        ),
        (
            "<a id lang type rank updated/>",
            "<a id='1' lang='fr' type='x' rank='2' updated='2024'/>".repeat(2000),
        ),
    ] {
        for (blocks, size, coalesce) in [
            ("64 KiB", 64 * 1024, false),
            ("4 KiB", 4096, false),
            ("4 KiB, coalesced", 4096, true),
        ] {
            let (n, events) = owned_per_copy(plain, records.as_bytes(), size, coalesce);
            #[allow(clippy::cast_precision_loss)]
            let per_event = n as f64 / events as f64;
            println!("| {case} | {blocks} | {n} | {events} | {per_event:.2} |");
            assert!(events >= 4000, "{case}: {events} events");
            // at most one per event, and a few for the queue, which
            // grows with the events a block holds
            assert!(
                n <= events + 4,
                "{case}, {blocks}: {n} allocations for {events} events"
            );
        }
    }
}

/// Reads `<feed>`, `records` twice and `</feed>` with
/// [`EventReader::next_borrowed`](phpxml::EventReader::next_borrowed) in
/// 4 KiB blocks: the allocations while the second copy is read, and its
/// event count.
fn borrowed_reading(parser: fn() -> Parser, records: &[u8]) -> (usize, usize) {
    let doc = [b"<feed>".as_slice(), records, records, b"</feed>"].concat();
    let mut reader = parser().events(&doc[..]).block_size(4096);
    let mut warm = 0;
    while warm < records.len() {
        reader.next_borrowed().unwrap().unwrap();
        warm = usize::try_from(reader.parser().byte_index()).unwrap();
    }
    let mut events = 0;
    let n = allocations(|| {
        while let Some(event) = reader.next_borrowed() {
            event.unwrap();
            events += 1;
        }
    });
    (n, events)
}

#[test]
fn the_borrowing_pull_api_allocates_nothing_per_event() {
    // a few buffers still grow (longer numbers, more pieces in a block):
    // the count must not grow with the number of events
    for count in [2000, 8000] {
        let (n, events) = borrowed_reading(plain, &records(count));
        println!("borrowed pull: {n} allocations for {events} events");
        assert!(events >= 14 * count, "{events} events");
        assert!(n <= 32, "{n} allocations for {events} events");
    }
}

#[test]
#[ignore = "prints the allocations of each kind of record"]
fn borrowed_by_record() {
    for rec in [
        "<a></a>",
        "<a>t</a>",
        "<a x='1'/>",
        "<a>caf\u{e9} &amp; co</a>\n",
    ] {
        let (n, events) = borrowed_reading(plain, rec.repeat(2000).as_bytes());
        println!("{rec:?}: {n} / {events}");
    }
}

/// `n` lines, the `i`th written by `line(i)`.
fn numbered_lines(n: usize, line: impl Fn(usize) -> String) -> Vec<u8> {
    (0..n).flat_map(|i| line(i).into_bytes()).collect()
}

/// `n` notation and `n` unparsed entity declarations of an internal
/// subset, each name new.
fn declarations(n: usize) -> Vec<u8> {
    numbered_lines(n, |i| {
        format!(
            "<!NOTATION n{i} PUBLIC 'image/n{i}' 'n{i}.exe'><!ENTITY e{i} SYSTEM 'e{i}.png' NDATA n{i}>\n"
        )
    })
}

/// `n` content records of a namespaced parser: namespace declarations,
/// processing instructions with and without data, an external entity
/// reference.
fn namespaced_records(n: usize) -> Vec<u8> {
    numbered_lines(n, |i| {
        format!("<p:item xmlns:p='urn:p' xmlns='urn:d'><?pi data {i}?>&ext;<?solo?></p:item>\n")
    })
}

/// A document of `(declarations, records)` of each.
fn declared_document((decls, records): (usize, usize)) -> Vec<u8> {
    [
        b"<!DOCTYPE feed [".as_slice(),
        &declarations(decls),
        b"<!ENTITY ext SYSTEM 'ext.xml'>]><feed>",
        &namespaced_records(records),
        b"</feed>",
    ]
    .concat()
}

/// Every handler but the default one (which would take the external
/// entity references).
const ALL_BUT_DEFAULT: HandlerSet = HandlerSet {
    default: false,
    ..HandlerSet::ALL
};

/// How [`declared_document`] is read.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reading {
    /// [`Handler`] calls.
    Handlers,
    /// The owned iterator.
    Owned,
    /// [`EventReader::next_borrowed`](phpxml::EventReader::next_borrowed).
    Borrowed,
}

/// Reads [`declared_document`]`(n)` with a namespaced parser in 4 KiB
/// pieces, every handler but the default one set: the allocations and
/// the events.
fn declared_reading(n: (usize, usize), reading: Reading) -> (usize, usize) {
    let doc = declared_document(n);
    let mut events = 0;
    let allocated = allocations(|| {
        let parser = Parser::new_ns(None, ":").unwrap();
        let mut reader = match reading {
            Reading::Handlers => {
                let mut parser = parser;
                let mut count = Count {
                    set: ALL_BUT_DEFAULT,
                    events: 0,
                    bytes: 0,
                };
                for chunk in doc.chunks(4096) {
                    parser.feed(&mut count, chunk, false).unwrap();
                }
                parser.feed(&mut count, b"", true).unwrap();
                events = count.events;
                return;
            }
            Reading::Owned | Reading::Borrowed => parser
                .events(&doc[..])
                .with_handlers(ALL_BUT_DEFAULT)
                .block_size(4096),
        };
        if reading == Reading::Borrowed {
            while let Some(event) = reader.next_borrowed() {
                event.unwrap();
                events += 1;
            }
        } else {
            for event in reader {
                event.unwrap();
                events += 1;
            }
        }
    });
    (allocated, events)
}

/// What reading `more` declarations and records costs after `n`: the
/// allocations and events of `n + more` less those of `n`.
fn declared_more(n: (usize, usize), more: (usize, usize), reading: Reading) -> (usize, usize) {
    let (n1, events1) = declared_reading(n, reading);
    let (n2, events2) = declared_reading((n.0 + more.0, n.1 + more.1), reading);
    (n2.saturating_sub(n1), events2 - events1)
}

/// Processing instructions, notation and unparsed entity declarations,
/// external entity references and namespace declarations: the owned
/// reader adds at most one allocation per event to what the parse with
/// handlers costs, the borrowing reader none. (The parse itself
/// allocates for some: the core stores each declaration and copies an
/// entity's name when a reference looks it up; namespace declarations
/// cost it nothing, see `namespaced_tags_allocate_nothing`.)
///
/// libxml2 2.9's push parser parses the internal subset whole once its
/// end has come, so its declarations are queued together, each in a
/// buffer of its own; the borrowing reader is measured on more records
/// alone.
#[test]
fn declarations_pis_and_namespaces_cost_the_pull_api_at_most_one_allocation_per_event() {
    let n = (2000, 2000);
    for (reading, more) in [(Reading::Owned, n), (Reading::Borrowed, (0, 2000))] {
        let (handlers, handler_events) = declared_more(n, more, Reading::Handlers);
        let (allocated, events) = declared_more(n, more, reading);
        let reader = allocated.saturating_sub(handlers);
        println!(
            "{reading:?}, {more:?} more: {allocated} allocations for {events} events, \
             {reader} beyond the {handlers} of handlers"
        );
        // two declarations; the start and end tags, two namespace
        // declarations, two PIs, an external entity reference and a line
        // end per record
        assert_eq!(events, handler_events, "{reading:?}");
        assert!(
            events >= 2 * more.0 + 8 * more.1,
            "{reading:?}: {events} events"
        );
        if reading == Reading::Borrowed {
            // buffers and the queue may still grow a few times
            assert!(
                reader <= 32,
                "{reading:?}: {reader} allocations for {events} events"
            );
        } else {
            assert!(
                reader <= events + 4,
                "{reading:?}: {reader} allocations for {events} events"
            );
        }
    }
}

/// The allocations of a parse with handlers of the second `copies` of
/// `record`, after a DTD declaring `ext` (external) and `int`
/// (internal), with a namespaced parser or not.
fn by_record(record: &str, namespaced: bool) -> usize {
    by_record_with(record, namespaced, ALL_BUT_DEFAULT)
}

/// [`by_record`] with the handlers of `set`.
fn by_record_with(record: &str, namespaced: bool, set: HandlerSet) -> usize {
    let mut parser = if namespaced {
        Parser::new_ns(None, ":").unwrap()
    } else {
        Parser::new(None).unwrap()
    };
    let mut count = Count {
        set,
        events: 0,
        bytes: 0,
    };
    let records = record.repeat(2000);
    let mut feed = |doc: &[u8]| {
        allocations(|| {
            for chunk in doc.chunks(4096) {
                parser.feed(&mut count, chunk, false).unwrap();
            }
        })
    };
    feed(b"<!DOCTYPE feed [<!ENTITY ext SYSTEM 'ext.xml'><!ENTITY int 'text'>]><feed>");
    feed(records.as_bytes());
    feed(records.as_bytes())
}

/// A reference to a declared entity is handed to the handler from where
/// the entity is stored (compat.c's `_get_entity`), and its name is read
/// into a buffer the parser reuses: nothing per reference, in content or
/// in an attribute value.
#[test]
fn entity_references_allocate_nothing() {
    for record in [
        "<a>&ext;</a>",
        "<a>&int;</a>",
        "<a v='&int;'/>",
        "<a>&amp;</a>",
    ] {
        for namespaced in [false, true] {
            let n = by_record(record, namespaced);
            println!("{record} (namespaced {namespaced}): {n} allocations for 2000 records");
            assert!(
                n <= 4,
                "{record} (namespaced {namespaced}): {n} allocations for 2000 records"
            );
        }
    }
}

/// `n` attributes `{prefix}a0='0'` to `{prefix}a{n-1}='{n-1}'`.
fn numbered_attributes(n: usize, prefix: &str) -> String {
    let attributes: Vec<String> = (0..n).map(|k| format!("{prefix}a{k}='{k}'")).collect();
    attributes.join(" ")
}

/// Start tags with more attributes than the lists kept on the stack
/// (16), for both kinds of parser: plain, prefixed in two namespaces,
/// and among namespace declarations.
fn long_attribute_lists() -> [String; 3] {
    [
        format!("<a {}>t</a>", numbered_attributes(20, "")),
        format!(
            "<p:a xmlns:p='urn:p' xmlns:q='urn:q' {} {}/>",
            numbered_attributes(12, "p:"),
            numbered_attributes(12, "q:")
        ),
        format!(
            "<a xmlns='urn:d' {} xml:lang='fr' xmlns:p='urn:p'><p:b/></a>",
            numbered_attributes(17, "")
        ),
    ]
}

/// A namespaced parser reuses its buffers for qualified names, attribute
/// lists, open elements and namespace bindings (prefixes and URIs in one
/// buffer, cut back as elements end): a start or end tag costs its
/// handlers nothing in the steady state, whatever its attributes and
/// namespace declarations.
#[test]
fn namespaced_tags_allocate_nothing() {
    let long = long_attribute_lists();
    let records = [
        "<a/>",
        "<a><b>t</b></a>",
        "<a x='1' y='&amp;2'/>",
        &format!("<a {}>t</a>", numbered_attributes(16, "")),
        "<a><?pi d?></a>",
        "<a xml:lang='fr'/>",
        "<a xmlns='urn:d'/>",
        "<p:a xmlns:p='urn:p'/>",
        "<p:a xmlns:p='urn:p' p:x='1'><p:b/></p:a>",
        "<p:a xmlns:p='urn:p' xmlns='urn:d'><b xmlns='urn:e' xmlns:q='urn:q' q:y='2'/></p:a>",
        &long[0],
        &long[1],
        &long[2],
    ];
    for record in records {
        let plain = by_record(record, false);
        let n = by_record(record, true);
        println!("{record:?}: {n} allocations for 2000 records ({plain} without namespaces)");
        // buffers may still grow a few times
        assert!(n <= 4, "{record:?}: {n} allocations for 2000 records");
        assert!(
            plain <= 4,
            "{record:?}: {plain} allocations for 2000 records, plain"
        );
    }
}

/// With the default handler alone, what it gets for a tag (`<a x="1">`,
/// `</a>`, rebuilt as `xmlSAX2StartElement` would print it) or a
/// predefined reference (`&amp;`) is written into one reused buffer:
/// nothing per event, with or without namespaces.
#[test]
fn the_default_handler_alone_allocates_nothing_per_tag() {
    let only_default = HandlerSet {
        default: true,
        ..HandlerSet::NONE
    };
    let long = long_attribute_lists();
    let records = [
        "<a/>",
        "<a><b>t</b></a>",
        "<a x='1' y='&amp;2'>&amp;</a>",
        "<a xmlns='urn:d'/>",
        "<p:a xmlns:p='urn:p' p:x='1'><p:b/></p:a>",
        &long[0],
        &long[1],
        &long[2],
    ];
    for record in records {
        for namespaced in [false, true] {
            let n = by_record_with(record, namespaced, only_default);
            println!("{record:?} (namespaced {namespaced}): {n} allocations for 2000 records");
            assert!(
                n <= 4,
                "{record:?} (namespaced {namespaced}): {n} allocations for 2000 records"
            );
        }
    }
}

/// With namespaces, long attribute lists and namespace declarations,
/// the owned reader still allocates at most once per event, and the
/// borrowing one a few times in all.
#[test]
fn namespaced_pull_readers_allocate_at_most_once_per_event() {
    let long = long_attribute_lists();
    for record in [
        "<p:a xmlns:p='urn:p' xmlns='urn:d' p:x='1'><b>t</b></p:a>",
        &long[1],
        &long[2],
    ] {
        let records = record.repeat(2000);
        for parser in [plain as fn() -> Parser, namespaced] {
            let (n, events) = owned_per_copy(parser, records.as_bytes(), 4096, false);
            println!("owned {record:?}: {n} allocations for {events} events");
            assert!(events >= 2 * 2000, "{record:?}: {events} events");
            assert!(
                n <= events + 4,
                "{record:?}: {n} allocations for {events} events"
            );
            let (n, events) = borrowed_reading(parser, records.as_bytes());
            println!("borrowed {record:?}: {n} allocations for {events} events");
            assert!(events >= 2 * 2000, "{record:?}: {events} events");
            assert!(n <= 32, "{record:?}: {n} allocations for {events} events");
        }
    }
}
