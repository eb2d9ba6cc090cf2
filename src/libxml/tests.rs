//! Core tests: replay of PHP-captured fixtures (trace lines, return value,
//! error code and positions; struct fixtures by their `ok`/`result` lines),
//! and chunking properties.

use std::fmt::Write;

use super::Core;
use crate::corpus;
use crate::decode::{TargetEncoding, xml_utf8_decode};
use crate::sax::{Attribute, HandlerSet, Sax};

/// What PHP's trace.php prints, built the way xml.c converts.
struct Trace {
    lines: Vec<String>,
    pending: Option<(&'static str, Vec<u8>)>,
    fold: bool,
    target: TargetEncoding,
    skip: usize,
}

fn q(b: &[u8]) -> String {
    let mut s = String::from("\"");
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\\' => s.push_str("\\\\"),
            b'"' => s.push_str("\\\""),
            b'\n' => s.push_str("\\n"),
            b'\r' => s.push_str("\\r"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7E => s.push(c as char),
            _ => {
                let n = if (0xC2..0xE0).contains(&c) {
                    2
                } else if (0xE0..0xF0).contains(&c) {
                    3
                } else if (0xF0..0xF5).contains(&c) {
                    4
                } else {
                    0
                };
                if n > 0
                    && i + n <= b.len()
                    && let Ok(st) = std::str::from_utf8(&b[i..i + n])
                {
                    s.push_str(st);
                    i += n;
                    continue;
                }
                write!(s, "\\x{c:02X}").unwrap();
            }
        }
        i += 1;
    }
    s.push('"');
    s
}

impl Trace {
    /// A trace of a UTF-8 target without case folding.
    fn utf8() -> Self {
        Trace {
            lines: Vec::new(),
            pending: None,
            fold: false,
            target: TargetEncoding::Utf8,
            skip: 0,
        }
    }
    fn conv(&self, b: &[u8]) -> Vec<u8> {
        xml_utf8_decode(b, self.target)
    }
    fn tag(&self, b: &[u8]) -> Vec<u8> {
        let mut t = self.conv(b);
        if self.fold {
            t.make_ascii_uppercase();
        }
        t
    }
    fn name(&self, b: &[u8]) -> Vec<u8> {
        let t = self.tag(b);
        t[self.skip.min(t.len())..].to_vec()
    }
    fn flush(&mut self) {
        if let Some((k, d)) = self.pending.take() {
            self.lines.push(format!("{k} {}", q(&d)));
        }
    }
    fn emit(&mut self, l: String) {
        self.flush();
        self.lines.push(l);
    }
    fn text(&mut self, kind: &'static str, d: &[u8]) {
        let d = self.conv(d);
        match &mut self.pending {
            Some((k, buf)) if *k == kind => buf.extend_from_slice(&d),
            _ => {
                self.flush();
                self.pending = Some((kind, d));
            }
        }
    }
    fn v(&self, b: Option<&[u8]>) -> String {
        match b {
            None => "false".into(),
            Some(b) => q(&self.conv(b)),
        }
    }
}

impl Sax for Trace {
    fn start_element(&mut self, name: &[u8], attributes: &[Attribute<'_>]) {
        let mut l = format!("start {}", q(&self.name(name)));
        // PHP arrays: later duplicate keys overwrite in place
        let mut seen: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
        for (k, v) in attributes {
            let k = self.tag(k);
            let v = self.conv(v);
            if let Some(e) = seen.iter_mut().find(|(a, _)| *a == k) {
                e.1 = v;
            } else {
                seen.push((k, v));
            }
        }
        for (k, v) in seen {
            write!(l, " {}={}", q(&k), q(&v)).unwrap();
        }
        self.emit(l);
    }
    fn end_element(&mut self, name: &[u8]) {
        let l = format!("end {}", q(&self.name(name)));
        self.emit(l);
    }
    fn character_data(&mut self, data: &[u8]) {
        self.text("cdata", data);
    }
    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        let l = format!("pi {} {}", self.v(Some(target)), self.v(data));
        self.emit(l);
    }
    fn default(&mut self, data: &[u8]) {
        self.text("default", data);
    }
    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        s: Option<&[u8]>,
        p: Option<&[u8]>,
        n: Option<&[u8]>,
    ) {
        let l = format!(
            "unparsed_entity_decl {} false {} {} {}",
            self.v(Some(name)),
            self.v(s),
            self.v(p),
            self.v(n)
        );
        self.emit(l);
    }
    fn notation_decl(&mut self, name: &[u8], s: Option<&[u8]>, p: Option<&[u8]>) {
        let l = format!(
            "notation_decl {} false {} {}",
            self.v(Some(name)),
            self.v(s),
            self.v(p)
        );
        self.emit(l);
    }
    fn external_entity_ref(&mut self, names: &[u8], s: Option<&[u8]>, p: Option<&[u8]>) -> bool {
        let l = format!(
            "external_entity_ref {} \"\" {} {}",
            self.v(Some(names)),
            self.v(s),
            self.v(p)
        );
        self.emit(l);
        true
    }
    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        let l = format!("start_ns {} {}", self.v(prefix), self.v(Some(uri)));
        self.emit(l);
    }
}

/// Of the corpus's cases, those whose options `run_fixture` plays (1,012).
const MIN_CORE_CASES: usize = 1000;

fn target_of(s: &str) -> Option<TargetEncoding> {
    match s.to_ascii_uppercase().as_str() {
        "UTF-8" => Some(TargetEncoding::Utf8),
        "ISO-8859-1" => Some(TargetEncoding::Iso8859_1),
        "US-ASCII" => Some(TargetEncoding::UsAscii),
        _ => None,
    }
}

/// Runs one fixture; returns (expected, got) texts to compare.
#[allow(clippy::too_many_lines)] // trace.php's options, the run, its result lines
fn run_fixture(xml: &[u8], args: &str, expected: &str) -> Option<(String, String)> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let mode = *words.first()?;
    let mut ns = None;
    let mut fold = true;
    let mut target = TargetEncoding::Utf8;
    let mut skip = 0usize;
    let mut chunk = None;
    let mut quiet = false;
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "--encoding" | "--target-encoding" => {
                target = target_of(words[i + 1])?;
                i += 1;
            }
            "--ns" => {
                ns = Some(words.get(i + 1).map_or(b':', |w| w.as_bytes()[0]));
                i += 1;
            }
            "--case-folding" => {
                fold = words[i + 1] != "0";
                i += 1;
            }
            "--skip-tagstart" => {
                skip = words[i + 1].parse().ok()?;
                i += 1;
            }
            "--skip-white" => i += 1,
            "--chunk" => {
                chunk = Some(words[i + 1].parse::<usize>().ok()?);
                i += 1;
            }
            "--quiet" => quiet = true,
            _ => return None,
        }
        i += 1;
    }
    let mut core = Core::new(ns);
    let mut t = Trace {
        lines: Vec::new(),
        pending: None,
        fold,
        target,
        skip,
    };
    let installed = if mode == "trace" {
        HandlerSet::ALL
    } else {
        HandlerSet {
            element: true,
            character_data: true,
            ..HandlerSet::NONE
        }
    };
    let ret = match chunk {
        None => core.parse(&mut t, installed, xml, true),
        Some(n) => {
            let mut r = true;
            for piece in xml.chunks(n.max(1)) {
                r = core.parse(&mut t, installed, piece, false);
                if !r {
                    break;
                }
            }
            if r {
                r = core.parse(&mut t, installed, b"", true);
            }
            r
        }
    };
    t.flush();
    let result = format!(
        "result {} {} {} {}",
        core.error_code(),
        core.line(),
        core.column(),
        core.byte_index()
    );
    let exp_lines: Vec<&str> = expected.lines().collect();
    let exp_result = exp_lines.iter().find(|l| l.starts_with("result "))?;
    let exp_result: Vec<&str> = exp_result.splitn(6, ' ').take(5).collect();
    let exp_ok = exp_lines.iter().find(|l| l.starts_with("ok "))?;
    let mut exp = String::new();
    let mut got = String::new();
    if mode == "trace" && !quiet {
        for l in &exp_lines {
            if l.starts_with("ok ") {
                break;
            }
            exp.push_str(l);
            exp.push('\n');
        }
        for l in &t.lines {
            got.push_str(l);
            got.push('\n');
        }
    }
    exp.push_str(exp_ok);
    exp.push('\n');
    exp.push_str(&exp_result.join(" "));
    write!(got, "ok {}\n{result}", u8::from(ret)).unwrap();
    Some((exp, got))
}

/// The core alone against every fixture case whose options it can play.
#[test]
fn fixtures() {
    let mut pass = 0;
    let mut fail = Vec::new();
    let mut themes = std::collections::BTreeMap::<String, (usize, usize)>::new();
    for case in corpus::cases() {
        let args = format!("{} {}", case.script, case.opts.join(" "));
        let out = String::from_utf8_lossy(&case.expected).into_owned();
        let Some((exp, got)) = run_fixture(&case.read_xml(), &args, &out) else {
            continue;
        };
        let e = themes.entry(case.theme().to_owned()).or_default();
        e.1 += 1;
        if exp == got {
            pass += 1;
            e.0 += 1;
        } else {
            fail.push((case.name, exp, got));
        }
    }
    for (t, (p, n)) in &themes {
        eprintln!("{t}: {p}/{n}");
    }
    let show = std::env::var("SHOW").ok();
    for (name, exp, got) in &fail {
        if show
            .as_deref()
            .is_some_and(|s| name.contains(s) || s == "all")
        {
            eprintln!("=== {name}\n--- expected\n{exp}\n--- got\n{got}");
        } else {
            eprintln!("FAIL {name}");
        }
    }
    eprintln!("core fixtures: {pass}/{}", pass + fail.len());
    assert!(
        fail.is_empty(),
        "{} of {} cases differ",
        fail.len(),
        pass + fail.len()
    );
    assert!(pass >= MIN_CORE_CASES, "only {pass} cases played");
}

/// Chunking property: any split gives the same trace and result.
#[test]
fn chunked_equals_one_shot() {
    let docs: &[&[u8]] = &[
        b"<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY e 'EV'>]><a x='1&gt;' y=\"&e;\"><!-- c --><b>t&amp;u&e;</b><![CDATA[<x>]]><?p d?>\xC3\xA9</a>",
        b"<r><a   b='>' c=\"&lt;\"/>text\r\nmore</r>",
    ];
    for doc in docs {
        let one = run_fixture(doc, "trace", "ok 1\nresult 0 0 0 0 \"\"")
            .unwrap()
            .1;
        for n in 1..doc.len() {
            let got = run_fixture(
                doc,
                &format!("trace --chunk {n}"),
                "ok 1\nresult 0 0 0 0 \"\"",
            )
            .unwrap()
            .1;
            assert_eq!(one, got, "chunk {n}");
        }
    }
}

/// Feeds `doc` one byte at a time; returns the final state.
fn bytewise(doc: &[u8]) -> (bool, i32) {
    let mut core = Core::new(None);
    let mut t = Trace::utf8();
    let installed = HandlerSet {
        element: true,
        character_data: true,
        default: true,
        ..HandlerSet::NONE
    };
    let mut ok = true;
    for b in doc.chunks(1) {
        ok = core.parse(&mut t, installed, b, false);
        if !ok {
            break;
        }
    }
    if ok {
        ok = core.parse(&mut t, installed, b"", true);
    }
    (ok, core.error_code())
}

/// One huge construct fed a byte at a time stays linear (each case would
/// take minutes if every byte re-scanned the construct).
#[test]
fn bytewise_feeding_is_linear() {
    let n = 400_000;
    let big = |pre: &str, fill: &[u8], post: &str| {
        let mut d = pre.as_bytes().to_vec();
        while d.len() < n {
            d.extend_from_slice(fill);
        }
        d.extend_from_slice(post.as_bytes());
        d
    };
    let cases = [
        big("<a><!--", b"x>- ", "--></a>"),
        big("<a>", b"text > ", "</a>"),
        big("<a><![CDATA[", b"x>]", "]]></a>"),
        big("<a><?pi ", b"d>", "?></a>"),
        big("<a b='", b"v>", "'/>"),
        big("<!DOCTYPE a [<!ENTITY e '", b"v>", "'>]><a/>"),
        big("<a>", b"<b x='1'>t</b>", "</a>"),
    ];
    for doc in &cases {
        let start = std::time::Instant::now();
        let (ok, code) = bytewise(doc);
        assert!(ok, "error {code}");
        assert!(
            start.elapsed().as_secs() < 20,
            "too slow: {:?}",
            start.elapsed()
        );
    }
}

/// Arbitrary bytes in arbitrary chunks never panic.
#[test]
fn never_panics() {
    use proptest::prelude::*;
    let alphabet: Vec<&[u8]> = vec![
        b"<",
        b">",
        b"/",
        b"&",
        b";",
        b"#",
        b"x",
        b"a",
        b"=",
        b"'",
        b"\"",
        b" ",
        b"\n",
        b"\r",
        b"!",
        b"-",
        b"?",
        b"[",
        b"]",
        b"%",
        b":",
        b"\0",
        b"\xC3\xA9",
        b"\xFF",
        b"\xE9",
        b"<!DOCTYPE a [",
        b"<!ENTITY e '&e;'>",
        b"<![CDATA[",
        b"]]>",
        b"<!--",
        b"-->",
        b"<?xml version='1.0' encoding='ISO-8859-1'?>",
        b"\xFF\xFE",
        b"\xEF\xBB\xBF",
        b"xmlns:p='u'",
        b"p:a",
        b"&e;",
        b"&#x41;",
        b"<!ATTLIST a b CDATA 'c'>",
    ];
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 3000,
        ..ProptestConfig::default()
    });
    runner
        .run(
            &(
                proptest::collection::vec(0..alphabet.len(), 0..40),
                1usize..9,
                proptest::bool::ANY,
            ),
            |(idx, chunk, ns)| {
                let doc: Vec<u8> = idx
                    .iter()
                    .flat_map(|&i| alphabet[i].iter().copied())
                    .collect();
                let mut core = Core::new(if ns { Some(b':') } else { None });
                let mut t = Trace {
                    lines: Vec::new(),
                    pending: None,
                    fold: true,
                    target: TargetEncoding::Utf8,
                    skip: 0,
                };
                let all = HandlerSet::ALL;
                for piece in doc.chunks(chunk) {
                    if !core.parse(&mut t, all, piece, false) {
                        break;
                    }
                }
                core.parse(&mut t, all, b"", true);
                let _ = (core.line(), core.column(), core.byte_index());
                Ok(())
            },
        )
        .unwrap();
}

/// The short-append stepping of the `>` scanner agrees with quick-xml's
/// scanner on every string of up to seven bytes of `x`, `>`, `'` and `"`,
/// from each of its states.
#[test]
fn gt_scan_steps_agree_with_quick_xml() {
    use quick_xml::parser::{ElementParser, Parser as _};
    const ALPHABET: [u8; 4] = [b'x', b'>', b'\'', b'"'];
    let starts = [
        ElementParser::Outside,
        ElementParser::SingleQ,
        ElementParser::DoubleQ,
    ];
    for len in 0..=7u32 {
        for code in 0..4usize.pow(len) {
            let bytes: Vec<u8> = (0..len)
                .map(|k| ALPHABET[code / 4usize.pow(k) % 4])
                .collect();
            for start in starts {
                let (mut ours, mut theirs) = (start, start);
                let found = super::input::step_gt_scan(&mut ours, &bytes);
                assert_eq!(found, theirs.feed(&bytes), "{bytes:?} from {start:?}");
                assert_eq!(ours, theirs, "{bytes:?} from {start:?}");
            }
        }
    }
}

/// The events, and the parser's state after each piece, of `doc` split at
/// `split` (0: one piece), with the one-step tag paths on or off.
fn events_and_states(
    doc: &[u8],
    split: usize,
    installed: HandlerSet,
    general: bool,
) -> Vec<String> {
    super::content::GENERAL_ONLY.set(general);
    let mut core = Core::new(None);
    let mut events = Trace::utf8();
    let mut out = Vec::new();
    let pieces: Vec<&[u8]> = if split == 0 {
        vec![doc]
    } else {
        vec![&doc[..split], &doc[split..]]
    };
    let last = pieces.len() - 1;
    for (k, piece) in pieces.into_iter().enumerate() {
        let ok = core.parse(&mut events, installed, piece, k == last);
        events.flush();
        out.append(&mut events.lines);
        out.push(format!(
            "ok {ok} error {} at {}:{} byte {} entities {} state {:?}",
            core.error_code(),
            core.line(),
            core.column(),
            core.byte_index(),
            core.expansion.nb_entities,
            core.state,
        ));
    }
    super::content::GENERAL_ONLY.set(false);
    out
}

/// The one-step paths for start and end tags (`<name>`, `</name>`, and
/// start tags whose attributes are all plain) give what the general path
/// gives, event for event, with the same positions, error and entity
/// count, on start tags built from pieces near and past the edges of what
/// they take. Sampled here; `.ci/run` runs many more in release.
#[test]
fn one_step_tags_agree_with_the_general_path() {
    one_step_tags_agree(if cfg!(debug_assertions) {
        4_000
    } else {
        100_000
    });
}

/// The first turn of `parse_char_data`, taken whole, gives what the loop
/// gives, event for event, with the same positions and error, on texts
/// built from pieces near and past the edges of what it takes.
#[test]
fn first_turn_texts_agree_with_the_loop() {
    const PIECES: &[&str] = &[
        "",
        " ",
        "  ",
        "\n",
        "\n  ",
        "\t",
        "w",
        "word ",
        "abcdefgh",
        "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ",
        "&amp;",
        "&#233;",
        "&e;",
        "\u{e9}",
        "\u{44f}",
        "\u{10000}",
        "]",
        "]]>",
        "\r\n",
        "\r",
        "<b/>",
        "<b>x</b>",
        "<!--c-->",
        "\x7f",
        "\x01",
    ];
    let mut rng = crate::test_rng::XorShift::new(0x9E37_79B9_7F4A_7C15);
    let mut next = |n: usize| rng.below(n);
    let before = super::content::FIRST_TURN_TEXTS.get();
    let all = HandlerSet {
        element: true,
        character_data: true,
        default: true,
        ..HandlerSet::NONE
    };
    let cases = if cfg!(debug_assertions) {
        4_000
    } else {
        50_000
    };
    for _ in 0..cases {
        let mut text = String::new();
        for _ in 0..next(6) {
            text.push_str(PIECES[next(PIECES.len())]);
        }
        let prolog = if next(4) == 0 {
            "<!DOCTYPE r [<!ENTITY e 'E\tV'>]>"
        } else {
            ""
        };
        let body = format!("{prolog}<r>{text}</r>");
        let doc = body.as_bytes();
        let split = next(doc.len() + 1);
        let fast = events_and_states(doc, split, all, false);
        let general = events_and_states(doc, split, all, true);
        assert_eq!(fast, general, "{body:?} split at {split}");
    }
    let taken = super::content::FIRST_TURN_TEXTS.get() - before;
    assert!(
        taken * 4 >= cases,
        "only {taken} texts of {cases} documents were taken in the first turn"
    );
}

// The pieces of the tags `one_step_tags_agree` builds.
const BLANKS: &[&str] = &["", " ", "  ", "\n", "\t", "\r\n", " \n "];
const NAMES: &[&str] = &[
    "b",
    "c",
    "b",
    "bc",
    "x:y",
    "_1",
    "1",
    "\u{e9}",
    "b\u{e9}",
    "-",
    "abcdefghij",
    "a-b.c_d:e9",
    "abcdefghijklmnopqrstuvwxyz-ABCDEFGHIJKLMNOPQRSTUVWXYZ.0123456789_:abcdefghij",
];
const EQUALS: &[&str] = &["=", "=", "=", " =", "= ", ""];
const VALUES: &[&str] = &[
    "\"v\"",
    "'v'",
    "\"\"",
    "''",
    "\"a&amp;b\"",
    "'&lt;&gt;&apos;&quot;'",
    "\"&amp\"",
    "\"&#38;\"",
    "\"&e;\"",
    "\"&f;\"",
    "\"\u{e9}t\u{e9}\"",
    "\"\u{10000}\"",
    "\"\u{fffe}\"",
    "\"\u{d7ff}&amp;\u{e000}\"",
    "\"a\tb\"",
    "\"a\nb\"",
    "\"a\rb\"",
    "\"<\"",
    "\"a'b\"",
    "'a\"b'",
    "\"a>b\"",
    "\"x",
    "v",
    "\"\x7f\"",
    "\"\x01\"",
    "\"abcdefgh\"",
    "'abcdefghijklmno'",
    "\"abcdefghijklmnop\"",
    "\"abcdefghi&amp;jklmnopq\"",
    "\"abcdefghijk\u{e9}lmnopq\"",
    "\"abcdefghijklmnopq\tr\"",
    "\"abcdefghijklmnopqr<\"",
    "'abcdefghijklmnopqrs\"'",
    "\"abcdefghijklmnopqrst'\"",
    // longer than 64 bytes, a stop past them
    "\"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz\"",
    "'abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklm&amp;nopqrstuvwxyz'",
    "\"abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmn\u{e9}opqrstuvwxyz\"",
];
const ENDS: &[&str] = &[">", "/>", " >", " />", "", "/", "\n/>", ">x", "/ >"];

fn one_step_tags_agree(cases: u64) {
    let mut rng = crate::test_rng::XorShift::new(0x2545_F491_4F6C_DD1D);
    let mut next = |n: usize| rng.below(n);
    let plain_before = super::content::PLAIN_TAGS.get();
    let simple_before = super::content::SIMPLE_VALUES.get();
    let all = HandlerSet {
        element: true,
        character_data: true,
        default: true,
        ..HandlerSet::NONE
    };
    let default_only = HandlerSet {
        default: true,
        ..HandlerSet::NONE
    };
    for _ in 0..cases {
        let mut tag = String::from("<a");
        for _ in 0..next(5) {
            tag.push_str(BLANKS[next(BLANKS.len())]);
            tag.push_str(NAMES[next(NAMES.len())]);
            tag.push_str(EQUALS[next(EQUALS.len())]);
            tag.push_str(VALUES[next(VALUES.len())]);
        }
        tag.push_str(ENDS[next(ENDS.len())]);
        let prolog = if next(4) == 0 {
            "<!DOCTYPE r [<!ENTITY e 'E\tV'>]>"
        } else {
            ""
        };
        let body = match next(3) {
            0 => format!("{prolog}<r>{tag}</a></r>"),
            1 => format!("{prolog}<r>\n{tag}t</r>"),
            _ => format!("{prolog}{tag}"),
        };
        let doc = body.as_bytes();
        let split = next(doc.len() + 1);
        let installed = if next(4) == 0 { default_only } else { all };
        let fast = events_and_states(doc, split, installed, false);
        let general = events_and_states(doc, split, installed, true);
        assert_eq!(fast, general, "{body:?} split at {split}");
    }
    // the pieces are chosen so that a good share of the tags is plain: a
    // one-pass path that stopped taking them would leave nothing compared
    let plain = super::content::PLAIN_TAGS.get() - plain_before;
    let simple = super::content::SIMPLE_VALUES.get() - simple_before;
    eprintln!("{cases} tags, {plain} through the one-pass path, {simple} values a word at a time");
    assert!(
        simple * 20 >= cases,
        "only {simple} values of {cases} tags were taken a word at a time"
    );
    assert!(
        plain * 20 >= cases,
        "only {plain} of {cases} tags were plain"
    );
}

/// Start tags whose attribute names repeat those of earlier tags (which
/// `scan_plain_attributes` recognises without scanning them) give what the
/// general path gives: the same names in another order, one more or one
/// fewer, a name repeated after the recent ones, names that begin or end
/// another, names of 15 to 17 bytes around the 16 bytes compared at once,
/// and element names that share a list.
#[test]
fn recent_attribute_names_agree_with_the_general_path() {
    recent_names_agree(if cfg!(debug_assertions) { 300 } else { 5_000 });
}

/// [`recent_attribute_names_agree_with_the_general_path`] on many more
/// documents: run by `.ci/run` in release.
#[test]
#[ignore = "long; run in release by .ci/run"]
fn recent_attribute_names_agree_with_the_general_path_at_length() {
    recent_names_agree(200_000);
}

fn recent_names_agree(documents: u64) {
    const ELEMENTS: &[&str] = &["a", "b", "ab", "ba", "setting", "section"];
    const ATTRIBUTES: &[&str] = &[
        "k",
        "kk",
        "key",
        "keys",
        "value",
        "v:a",
        "abcdefghijklm",
        "abcdefghijklmn",
        "abcdefghijklmno",
        "abcdefghijklmnop",
        "k\u{e9}",
        "k1",
    ];
    // each quote also in a value of the other, as if it began the next
    // attribute
    const VALUES: &[&str] = &[
        "\"1\"",
        "'x'",
        "\"a&amp;b\"",
        "\"\"",
        "\"\u{e9}\"",
        "'x\" k=\"1'",
        "\"y' kk='2\"",
    ];
    let mut rng = crate::test_rng::XorShift::new(0x9E37_79B9_7F4A_7C15);
    let installed = HandlerSet {
        element: true,
        character_data: true,
        ..HandlerSet::NONE
    };
    let recent_before = super::content::RECENT_NAMES.get();
    let spaced_before = super::content::SPACED_NAMES.get();
    let mut attributes = 0;
    for _ in 0..documents {
        let mut doc = String::from("<r>");
        // the attribute list of each element name so far
        let mut lists: Vec<Vec<usize>> = vec![Vec::new(); ELEMENTS.len()];
        for _ in 0..=rng.below(30) {
            let element = rng.below(ELEMENTS.len());
            let list = &mut lists[element];
            match rng.below(10) {
                // the same names as the element's last tag, mostly
                0..=5 => {}
                6 => list.push(rng.below(ATTRIBUTES.len())),
                7 => {
                    list.pop();
                }
                8 if !list.is_empty() => {
                    let at = rng.below(list.len());
                    list[at] = rng.below(ATTRIBUTES.len());
                }
                _ => {
                    let len = rng.below(5);
                    *list = (0..len).map(|_| rng.below(ATTRIBUTES.len())).collect();
                }
            }
            doc.push('<');
            doc.push_str(ELEMENTS[element]);
            for &name in list.iter() {
                doc.push_str(if rng.below(8) == 0 { "\n " } else { " " });
                doc.push_str(ATTRIBUTES[name]);
                doc.push('=');
                doc.push_str(VALUES[rng.below(VALUES.len())]);
            }
            attributes += list.len() as u64;
            doc.push_str(if rng.below(2) == 0 { "/>" } else { ">t</" });
            if doc.ends_with("</") {
                doc.push_str(ELEMENTS[element]);
                doc.push('>');
            }
        }
        doc.push_str("</r>");
        let bytes = doc.as_bytes();
        let split = if rng.below(2) == 0 {
            0
        } else {
            rng.below(bytes.len() + 1)
        };
        let fast = events_and_states(bytes, split, installed, false);
        let general = events_and_states(bytes, split, installed, true);
        assert_eq!(fast, general, "{doc:?} split at {split}");
    }
    // the lists repeat often enough that a share of the names is
    // recognised (about one in six; the general path takes the tags with
    // a name that is not ASCII): a scan that stopped recognising them
    // would compare nothing new
    let recent = super::content::RECENT_NAMES.get() - recent_before;
    let spaced = super::content::SPACED_NAMES.get() - spaced_before;
    eprintln!(
        "{documents} documents, {attributes} attributes, {recent} names recognised, {spaced} with their space and quote"
    );
    assert!(
        recent * 8 >= attributes,
        "only {recent} of {attributes} attribute names were recognised"
    );
    // the other way, name and `=` alone, is taken after a line feed or a
    // change of quote
    assert!(
        spaced * 4 >= recent && spaced < recent,
        "{spaced} of {recent} names recognised with their space and quote"
    );
}

/// [`one_step_tags_agree_with_the_general_path`] on many more tags: run
/// by `.ci/run` in release.
#[test]
#[ignore = "long; run in release by .ci/run"]
fn one_step_tags_agree_with_the_general_path_at_length() {
    one_step_tags_agree(4_000_000);
}
