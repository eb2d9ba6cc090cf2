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

/// Reads `<feed>`, `copies` times `records` and `</feed>` with the owned
/// iterator: its allocations (parser, reader and events) and its events.
fn owned_reading(
    records: &[u8],
    copies: usize,
    block_size: usize,
    coalesce: bool,
) -> (usize, usize) {
    let doc = [b"<feed>".as_slice(), &records.repeat(copies), b"</feed>"].concat();
    let mut events = 0;
    let n = allocations(|| {
        let reader = Parser::new(None)
            .unwrap()
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
fn owned_per_copy(records: &[u8], block_size: usize, coalesce: bool) -> (usize, usize) {
    let (n1, events1) = owned_reading(records, 1, block_size, coalesce);
    let (n2, events2) = owned_reading(records, 2, block_size, coalesce);
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
            let (n, events) = owned_per_copy(records.as_bytes(), size, coalesce);
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
fn borrowed_reading(records: &[u8]) -> (usize, usize) {
    let doc = [b"<feed>".as_slice(), records, records, b"</feed>"].concat();
    let mut reader = Parser::new(None).unwrap().events(&doc[..]).block_size(4096);
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
        let (n, events) = borrowed_reading(&records(count));
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
        let (n, events) = borrowed_reading(rec.repeat(2000).as_bytes());
        println!("{rec:?}: {n} / {events}");
    }
}
