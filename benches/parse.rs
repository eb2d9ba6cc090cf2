//! Parse throughput: phpxml's `parse_into_struct` (UTF-8 and ISO-8859-1
//! targets) and push parsing with no-op handlers (whole, in 4 KiB chunks,
//! in 1-byte chunks), side by side with bare quick-xml reading every event
//! and, with `--features expat`, libexpat with no-op handlers; beside the
//! 1-byte rows, `append-floor`: what keeping the bytes a call at a time
//! costs before any parsing.
//!
//! `cargo bench --bench parse [--features expat]`; `benches/parse_table.py`
//! turns the results (and `benches/php/parse_bench.php`'s) into the table
//! of benches/PARSE.md. With `PHPXML_WRITE_INPUTS=DIR` set, the documents
//! are written to DIR instead (for PHP and the CLI).

use std::hint::black_box;

use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group};
use phpxml::{Handler, HandlerSet, Key, Parser};

#[allow(dead_code)] // only the generator is used here
#[path = "common/inputs.rs"]
mod inputs;

#[path = "common/documents.rs"]
mod documents;

/// libxml2's `XML_MAX_LOOKUP_LIMIT`: a document longer than this given to
/// one `xml_parse()` call is parsed through, then fails with error 1 ("Huge
/// input lookup"), in PHP 8.2 as here (no `XML_OPTION_PARSE_HUGE` before
/// PHP 8.4).
const LOOKUP_LIMIT: usize = 10_000_000;

/// What a handler saw: enough to tell that two parsers did the same work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    starts: u64,
    ends: u64,
    attributes: u64,
    text_bytes: u64,
}

/// No-op handlers that count, with a chosen set of handlers installed.
struct Counter {
    set: HandlerSet,
    counts: Counts,
}

impl Counter {
    fn new(set: HandlerSet) -> Self {
        Self {
            set,
            counts: Counts::default(),
        }
    }
}

impl Handler for Counter {
    fn installed(&self) -> HandlerSet {
        self.set
    }
    fn start_element(&mut self, _name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        self.counts.starts += 1;
        self.counts.attributes += attributes.len() as u64;
    }
    fn end_element(&mut self, _name: &[u8]) {
        self.counts.ends += 1;
    }
    fn character_data(&mut self, data: &[u8]) {
        self.counts.text_bytes += data.len() as u64;
    }
}

/// Every handler set, as PHP's trace.php sets them.
const ALL: HandlerSet = HandlerSet::ALL;
/// `xml_set_element_handler()` and `xml_set_character_data_handler()` only.
const ELEMENT_CDATA: HandlerSet = HandlerSet {
    element: true,
    character_data: true,
    ..HandlerSet::NONE
};

/// Push-parses `data` in pieces of `chunk` bytes (all of it at once for
/// `None`), then an empty final piece, as PHP code calling `xml_parse()`.
fn push(data: &[u8], set: HandlerSet, chunk: Option<usize>) -> (bool, i32, Counts) {
    let mut parser = Parser::new(None).expect("UTF-8 parser");
    let mut counter = Counter::new(set);
    let ok = match chunk {
        None => parser.parse(&mut counter, data, true),
        Some(n) => {
            data.chunks(n)
                .all(|piece| parser.parse(&mut counter, piece, false))
                && parser.parse(&mut counter, b"", true)
        }
    };
    (ok, parser.error_code(), counter.counts)
}

/// The least a push parser can do with one byte a call: a buffer that
/// keeps each byte, appended through a call that is not in line (as
/// `Parser::parse` is not in the caller's loop). Every byte-by-byte
/// parser does at least this work, so `append-floor` bounds what
/// `push-all-1b` can reach, whatever its parsing costs.
struct Keeper {
    buf: Vec<u8>,
}

impl Keeper {
    #[inline(never)]
    fn parse(&mut self, chunk: &[u8], is_final: bool) -> bool {
        if !is_final && let [b] = *chunk {
            self.buf.push(b);
            return true;
        }
        self.buf.extend_from_slice(chunk);
        true
    }
}

/// [`Keeper`] given `data` a byte a call, then an empty final call: the
/// bytes kept.
fn append_floor(data: &[u8]) -> usize {
    let mut keeper = Keeper { buf: Vec::new() };
    let ok = data.chunks(1).all(|piece| keeper.parse(piece, false)) && keeper.parse(b"", true);
    assert!(ok);
    keeper.buf.len()
}

/// [`push`] of the whole document given away (`Parser::parse_owned`).
fn push_owned(data: Vec<u8>, set: HandlerSet) -> (bool, i32, Counts) {
    let mut parser = Parser::new(None).expect("UTF-8 parser");
    let mut counter = Counter::new(set);
    let ok = parser.parse_owned(&mut counter, data);
    (ok, parser.error_code(), counter.counts)
}

/// `xml_parse_into_struct()` with a target encoding: (ok, entries).
fn into_struct(data: &[u8], target: &str) -> (bool, usize) {
    let mut parser = Parser::new(Some(target)).expect("parser");
    let result = parser.parse_into_struct(data);
    (result.ok, result.values.len())
}

/// quick-xml reading every event: (starts, ends, text events).
fn quick_xml_events(text: &str) -> (u64, u64, u64) {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(text);
    let (mut starts, mut ends, mut texts) = (0, 0, 0);
    loop {
        match reader.read_event().expect("quick-xml reads the document") {
            Event::Start(_) => starts += 1,
            Event::Empty(_) => {
                starts += 1;
                ends += 1;
            }
            Event::End(_) => ends += 1,
            Event::Text(_) | Event::GeneralRef(_) | Event::CData(_) => texts += 1,
            Event::Eof => return (starts, ends, texts),
            _ => {}
        }
    }
}

#[cfg(feature = "expat")]
mod expat {
    //! libexpat (the system library, linked by `expat-sys`) with no-op
    //! handlers that count elements.
    use std::os::raw::{c_char, c_int, c_void};

    use expat_sys as _;

    type XmlParser = *mut c_void;
    type StartHandler = unsafe extern "C" fn(*mut c_void, *const c_char, *mut *const c_char);
    type EndHandler = unsafe extern "C" fn(*mut c_void, *const c_char);
    type CharHandler = unsafe extern "C" fn(*mut c_void, *const c_char, c_int);

    unsafe extern "C" {
        fn XML_ParserCreate(encoding: *const c_char) -> XmlParser;
        fn XML_SetUserData(parser: XmlParser, data: *mut c_void);
        fn XML_SetElementHandler(parser: XmlParser, start: StartHandler, end: EndHandler);
        fn XML_SetCharacterDataHandler(parser: XmlParser, handler: CharHandler);
        fn XML_Parse(parser: XmlParser, s: *const c_char, len: c_int, is_final: c_int) -> c_int;
        fn XML_ParserFree(parser: XmlParser);
    }

    unsafe extern "C" fn start(data: *mut c_void, _: *const c_char, _: *mut *const c_char) {
        // SAFETY: `data` is the `[u64; 3]` that `parse` registered with
        // XML_SetUserData and keeps alive for the whole parse.
        unsafe { (*data.cast::<[u64; 3]>())[0] += 1 };
    }

    unsafe extern "C" fn end(data: *mut c_void, _: *const c_char) {
        // SAFETY: as in `start`.
        unsafe { (*data.cast::<[u64; 3]>())[1] += 1 };
    }

    #[allow(clippy::cast_sign_loss)] // expat's lengths are never negative
    unsafe extern "C" fn text(data: *mut c_void, _: *const c_char, len: c_int) {
        // SAFETY: as in `start`.
        unsafe { (*data.cast::<[u64; 3]>())[2] += len as u64 };
    }

    /// Parses `data` in pieces of `chunk` bytes, then an empty final piece:
    /// (ok, starts, ends, text bytes).
    pub fn parse(data: &[u8], chunk: usize) -> (bool, [u64; 3]) {
        let mut counts = [0u64; 3];
        // SAFETY: a null encoding asks expat for its default; the parser is
        // checked for null and freed below, after its last use.
        let parser = unsafe { XML_ParserCreate(std::ptr::null()) };
        assert!(!parser.is_null(), "XML_ParserCreate");
        // SAFETY: `parser` is live; `counts` outlives every call that can
        // run the handlers (the XML_Parse calls below); the handlers have
        // the signatures expat calls them with.
        unsafe {
            XML_SetUserData(parser, (&raw mut counts).cast());
            XML_SetElementHandler(parser, start, end);
            XML_SetCharacterDataHandler(parser, text);
        }
        let mut ok = true;
        for piece in data.chunks(chunk) {
            let len = c_int::try_from(piece.len()).expect("chunk fits a C int");
            // SAFETY: `piece` is valid for `len` bytes for the whole call.
            ok = unsafe { XML_Parse(parser, piece.as_ptr().cast(), len, 0) } == 1;
            if !ok {
                break;
            }
        }
        if ok {
            // SAFETY: an empty final piece; expat does not read the pointer.
            ok = unsafe { XML_Parse(parser, std::ptr::null(), 0, 1) } == 1;
        }
        // SAFETY: `parser` came from XML_ParserCreate and is not used again.
        unsafe { XML_ParserFree(parser) };
        (ok, counts)
    }
}

fn bench_document(c: &mut Criterion, label: &str, name: &str, data: &[u8]) {
    let text = std::str::from_utf8(data).expect("documents are UTF-8");
    let huge = data.len() > LOOKUP_LIMIT;

    // What every variant must agree on: parsed in 4 KiB chunks, every
    // document is well-formed, and whole it is too unless over the limit.
    let (ok, _, reference) = push(data, ELEMENT_CDATA, Some(4096));
    assert!(ok, "{name} is well-formed");
    assert!(reference.starts > 0 && reference.starts == reference.ends);
    let (ok, code, counts) = push(data, ELEMENT_CDATA, None);
    assert_eq!(counts, reference, "{name}: whole equals chunked");
    assert_eq!((ok, code), if huge { (false, 1) } else { (true, 0) });
    let (_, _, counts) = push(data, ALL, Some(4096));
    assert_eq!(counts, reference, "{name}: all handlers");
    let (ok, code, counts) = push_owned(data.to_vec(), ALL);
    assert_eq!(counts, reference, "{name}: given away");
    assert_eq!((ok, code), if huge { (false, 1) } else { (true, 0) });
    if !huge {
        let (ok, _, counts) = push(data, ALL, Some(1));
        assert!(ok && counts == reference, "{name}: byte by byte");
        assert_eq!(append_floor(data), data.len(), "{name}: every byte kept");
    }
    let (starts, ends, _) = quick_xml_events(text);
    assert_eq!(
        (starts, ends),
        (reference.starts, reference.ends),
        "{name}: quick-xml"
    );
    let (ok, entries) = into_struct(data, "UTF-8");
    assert_eq!(ok, !huge);
    assert!(entries as u64 >= reference.starts, "{name}: struct entries");
    assert_eq!(into_struct(data, "ISO-8859-1"), (ok, entries));
    #[cfg(feature = "expat")]
    {
        let (ok, counts) = expat::parse(data, data.len());
        assert!(ok, "{name}: expat");
        assert_eq!(
            counts,
            [reference.starts, reference.ends, reference.text_bytes],
            "{name}: expat"
        );
    }

    let mut group = c.benchmark_group(format!("parse/{label}/{name}"));
    group.throughput(Throughput::Bytes(data.len() as u64));
    if data.len() > 8 << 20 {
        group.sample_size(10);
    }
    let id = |group: &mut criterion::BenchmarkGroup<_>, v: &str, f: &dyn Fn() -> u64| {
        group.bench_function(BenchmarkId::from_parameter(v), |b| {
            b.iter(|| black_box(f()));
        });
    };
    id(&mut group, "struct-utf8", &|| {
        into_struct(black_box(data), "UTF-8").1 as u64
    });
    id(&mut group, "struct-latin1", &|| {
        into_struct(black_box(data), "ISO-8859-1").1 as u64
    });
    id(&mut group, "push-all", &|| {
        push(black_box(data), ALL, None).2.starts
    });
    // the copy that gives the document away is made outside the timing,
    // as a document read into a `Vec` comes without one
    group.bench_function(BenchmarkId::from_parameter("push-all-owned"), |b| {
        b.iter_batched(
            || data.to_vec(),
            |doc| push_owned(doc, ALL).2.starts,
            BatchSize::LargeInput,
        );
    });
    id(&mut group, "push-elem", &|| {
        push(black_box(data), ELEMENT_CDATA, None).2.starts
    });
    id(&mut group, "push-all-4k", &|| {
        push(black_box(data), ALL, Some(4096)).2.starts
    });
    id(&mut group, "push-elem-4k", &|| {
        push(black_box(data), ELEMENT_CDATA, Some(4096)).2.starts
    });
    if !huge {
        id(&mut group, "push-all-1b", &|| {
            push(black_box(data), ALL, Some(1)).2.starts
        });
        id(&mut group, "append-floor", &|| {
            append_floor(black_box(data)) as u64
        });
    }
    id(&mut group, "quick-xml", &|| {
        quick_xml_events(black_box(text)).0
    });
    #[cfg(feature = "expat")]
    {
        id(&mut group, "expat", &|| {
            expat::parse(black_box(data), data.len()).1[0]
        });
        id(&mut group, "expat-4k", &|| {
            expat::parse(black_box(data), 4096).1[0]
        });
    }
    group.finish();
}

/// The sizes benchmarked: 4 MiB and 32 MiB under `cargo bench`; under
/// `cargo test --benches` (criterion's test mode, one run of each) 64 KiB,
/// so that CI checks every assertion quickly.
fn sizes() -> &'static [(usize, &'static str)] {
    if std::env::args().any(|a| a == "--bench") {
        &[(4 << 20, "4MiB"), (32 << 20, "32MiB")]
    } else {
        &[(64 << 10, "64KiB")]
    }
}

/// `PHPXML_PARSE_ONLY=SUBSTRING` runs only the documents whose
/// `SIZE/NAME` contains it (e.g. `4MiB/feed`).
fn bench(c: &mut Criterion) {
    let only = std::env::var("PHPXML_PARSE_ONLY").ok();
    for &(size, label) in sizes() {
        for (name, data) in documents::documents(size) {
            if only
                .as_deref()
                .is_some_and(|o| !format!("{label}/{name}").contains(o))
            {
                continue;
            }
            bench_document(c, label, name, &data);
        }
    }
}

/// With `PHPXML_WRITE_INPUTS=DIR` set, writes every document at both sizes
/// to DIR as `NAME-SIZE.xml` instead of benchmarking.
fn write_inputs(dir: &str) {
    std::fs::create_dir_all(dir).expect("create the input directory");
    for (size, label) in [(4 << 20, "4MiB"), (32 << 20, "32MiB")] {
        for (name, data) in documents::documents(size) {
            let path = format!("{dir}/{name}-{label}.xml");
            std::fs::write(&path, data).expect("write a document");
            println!("{path}");
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench
}

/// With `PHPXML_PROFILE=VARIANT FILE` set, runs one variant once on FILE
/// and prints its result instead of benchmarking: the run that callgrind
/// counts for benches/PARSE.md. With `PHPXML_REPEAT=RUNS` as well, prints
/// the fastest of that many runs instead.
fn profile(spec: &str) {
    let (variant, file) = spec.split_once(' ').expect("PHPXML_PROFILE=VARIANT FILE");
    let data = std::fs::read(file).expect("read the document");
    let run = || match variant {
        "struct-utf8" => into_struct(&data, "UTF-8").1 as u64,
        "struct-latin1" => into_struct(&data, "ISO-8859-1").1 as u64,
        "push-all" => push(&data, ALL, None).2.starts,
        "push-all-owned" => push_owned(data.clone(), ALL).2.starts,
        "push-elem" => push(&data, ELEMENT_CDATA, None).2.starts,
        "push-all-4k" => push(&data, ALL, Some(4096)).2.starts,
        "push-elem-4k" => push(&data, ELEMENT_CDATA, Some(4096)).2.starts,
        "push-all-1b" => push(&data, ALL, Some(1)).2.starts,
        "append-floor" => append_floor(&data) as u64,
        "quick-xml" => quick_xml_events(std::str::from_utf8(&data).expect("UTF-8")).0,
        #[cfg(feature = "expat")]
        "expat" => expat::parse(&data, data.len()).1[0],
        _ => panic!("unknown variant {variant}"),
    };
    if let Ok(runs) = std::env::var("PHPXML_REPEAT") {
        // the fastest of that many runs: a quick comparison of two builds
        let runs: u32 = runs.parse().expect("PHPXML_REPEAT=RUNS");
        let fastest = (0..runs)
            .map(|_| {
                let start = std::time::Instant::now();
                black_box(run());
                start.elapsed()
            })
            .min()
            .unwrap_or_default();
        println!("{variant} {file}: fastest of {runs} runs {fastest:?}");
        return;
    }
    println!("{variant} {file}: {}", run());
}

fn main() {
    if let Ok(dir) = std::env::var("PHPXML_WRITE_INPUTS") {
        write_inputs(&dir);
        return;
    }
    if let Ok(spec) = std::env::var("PHPXML_PROFILE") {
        profile(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
