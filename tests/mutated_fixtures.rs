//! Property tests on mutated fixtures: thousands of documents made by
//! mutating the PHP fixture corpus (`fixtures/php/**/*.xml`) go through the
//! parser whole, one byte at a time and in random pieces. None may panic,
//! and the pieces must give what the whole gives (the same handler calls
//! with adjacent character data merged, the same return value, error code,
//! line, column and byte index), except where PHP's own result depends on
//! where the pieces fall (`fuzz/src/chunking.rs`, shared with the `chunked`
//! fuzz target). And every strict prefix of a well-formed fixture, given as
//! the whole document, is an error.
//!
//! Deterministic: the mutations come from a fixed seed (`PHPXML_SEED=N`
//! picks another, `PHPXML_MUTATIONS=N` another count; `PHPXML_DUMP_EXCUSED=DIR`
//! writes the excused differing cases there for `fuzz/php-triage.py --plain
//! DIR`, `PHPXML_DUMP_FAILED=DIR` the unexcused ones).

mod common;

#[path = "../fuzz/src/chunking.rs"]
mod chunking;

use std::path::PathBuf;

use common::corpus;
use common::{boundaries, outcome_of, result_of, same_calls, trace};
use phpxml::report;
use phpxml::testing::{Command, Invocation};

/// A fixture document and the options of its `.args`.
struct Doc {
    name: String,
    xml: Vec<u8>,
    args: Vec<String>,
}

/// Documents up to this size are mutated (the big `large/` and `limits/`
/// ones would only slow the byte-by-byte feeding down).
const MAX_LEN: usize = 8192;

fn fixtures() -> Vec<Doc> {
    let mut docs = Vec::new();
    for case in corpus::cases() {
        // json.php's cases carry json_encode() flags, not parser options.
        if case.script == "json" {
            continue;
        }
        let mut words = case.opts.iter();
        let mut opts = Vec::new();
        while let Some(w) = words.next() {
            match w.as_str() {
                "--quiet" => {}
                "--chunk" => {
                    words.next();
                }
                _ => opts.push(w.clone()),
            }
        }
        docs.push(Doc {
            xml: case.read_xml(),
            name: case.name,
            args: opts,
        });
    }
    assert!(docs.len() > 900, "fixtures found: {}", docs.len());
    docs
}

/// `SplitMix64`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n.max(1) as u64).unwrap_or(0)
    }
}

/// Bytes that matter to an XML parser, to insert and overwrite with.
const INTERESTING: &[u8] = b"<>&;#x\"'=/!?-[]:% \t\r\n\0\x01\x7f\x80\xbf\xc0\xc3\xa9\xe2\x82\xac\xed\xa0\xef\xbb\xf0\x9f\xf8\xffaZ09";
const SNIPPETS: &[&[u8]] = &[
    b"<!--",
    b"-->",
    b"<![CDATA[",
    b"]]>",
    b"<?",
    b"?>",
    b"</",
    b"/>",
    b"&amp;",
    b"&#x41;",
    b"&#0;",
    b"&e;",
    b"<!DOCTYPE a [<!ENTITY e \"x&#38;y\">]>",
    b"<!ENTITY",
    b"xmlns:p=\"urn:p\"",
    b"p:",
    b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>",
    b"\xef\xbb\xbf",
    b"\r\n",
];

/// One to three mutations of `doc` (another fixture may be spliced in).
fn mutate(rng: &mut Rng, doc: &[u8], other: &[u8]) -> Vec<u8> {
    let mut d = doc.to_vec();
    for _ in 0..=rng.below(3) {
        let at = rng.below(d.len() + 1);
        match rng.below(8) {
            0 if !d.is_empty() => {
                let i = rng.below(d.len());
                d[i] ^= 1 << rng.below(8);
            }
            1 if !d.is_empty() => {
                let i = rng.below(d.len());
                d[i] = INTERESTING[rng.below(INTERESTING.len())];
            }
            2 => d.insert(at, INTERESTING[rng.below(INTERESTING.len())]),
            3 => {
                let s = SNIPPETS[rng.below(SNIPPETS.len())];
                d.splice(at..at, s.iter().copied());
            }
            4 => {
                let n = rng.below(16).min(d.len() - at);
                d.drain(at..at + n);
            }
            5 => {
                let n = rng.below(32).min(d.len() - at);
                let copy = d[at..at + n].to_vec();
                let to = rng.below(d.len() + 1);
                d.splice(to..to, copy);
            }
            6 if !other.is_empty() => {
                let from = rng.below(other.len());
                let n = rng.below(64).min(other.len() - from);
                d.splice(at..at, other[from..from + n].iter().copied());
            }
            _ => d.truncate(at),
        }
    }
    d
}

fn outcome(trace: &[u8]) -> chunking::Outcome {
    let (code, line, column, index) = outcome_of(trace);
    chunking::Outcome {
        code,
        line,
        column,
        index,
    }
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn mutated_fixtures_parse_the_same_in_pieces() {
    let docs: Vec<Doc> = fixtures()
        .into_iter()
        .filter(|d| d.xml.len() <= MAX_LEN)
        .collect();
    let mut rng = Rng(setting("PHPXML_SEED", 0x5EED_0006));
    let count = setting("PHPXML_MUTATIONS", 4000);
    let (mut same, mut excused) = (0, 0);
    let mut failed = Vec::new();
    for n in 0..count {
        let base = &docs[rng.below(docs.len())];
        let other = &docs[rng.below(docs.len())].xml;
        let doc = mutate(&mut rng, &base.xml, other);
        let args: Vec<&str> = base.args.iter().map(String::as_str).collect();
        let context = || {
            format!(
                "mutation {n} of {} with {args:?}: {:?}",
                base.name,
                String::from_utf8_lossy(&doc)
            )
        };

        // xml_parse_into_struct(): only that it ends.
        let inv = Invocation::parse(Command::Struct, &base.args).expect("fixture arguments");
        if let Ok(mut parser) = inv.make_parser() {
            let _ = report::struct_output(&mut parser, doc.clone(), false);
        }

        let whole = trace(&args, &doc, &[]);
        let mut random = Vec::new();
        for _ in 0..=rng.below(6) {
            let span = if rng.below(2) == 0 { 8 } else { 300 };
            random.push(1 + rng.below(span));
        }
        for sizes in [vec![1], random] {
            let pieces = trace(&args, &doc, &sizes);
            if pieces == whole {
                same += 1;
                continue;
            }
            let cuts = boundaries(doc.len(), &sizes);
            let excuse = chunking::chunking_matters(
                &doc,
                &cuts,
                outcome(&pieces),
                outcome(&whole),
                same_calls(&pieces, &whole),
            );
            let dump = if excuse {
                "PHPXML_DUMP_EXCUSED"
            } else {
                "PHPXML_DUMP_FAILED"
            };
            if let Some(dir) = std::env::var_os(dump) {
                // for fuzz/php-triage.py --plain: doc, pieces, options
                let base = PathBuf::from(dir).join(format!("{n}-{}", sizes.len()));
                let sizes: Vec<String> = sizes.iter().map(ToString::to_string).collect();
                let _ = std::fs::write(base.with_extension("xml"), &doc);
                let _ = std::fs::write(
                    base.with_extension("case"),
                    format!("{}\n{}\n", sizes.join(","), args.join(" ")),
                );
            }
            if excuse {
                excused += 1;
            } else {
                failed.push(format!(
                    "{}\npieces {sizes:?}:\n{}\nwhole:\n{}",
                    context(),
                    String::from_utf8_lossy(&pieces),
                    String::from_utf8_lossy(&whole)
                ));
            }
        }
    }
    eprintln!(
        "{count} mutated documents, {} piecewise parses: {same} the same as whole, \
         {excused} different where PHP's result depends on the pieces too",
        2 * count
    );
    assert!(
        failed.is_empty(),
        "{} differences `chunking_matters` does not excuse, the first:\n{}",
        failed.len(),
        failed[0]
    );
    // Differences stay the exception.
    assert!(same > excused * 3, "{same} the same, {excused} different");
}

#[test]
fn every_strict_prefix_of_a_well_formed_fixture_is_an_error() {
    let mut checked = 0;
    for d in fixtures() {
        let args: Vec<&str> = d.args.iter().map(String::as_str).collect();
        let whole = trace(&args, &d.xml, &[]);
        if result_of(&whole).0 != 0 || d.xml.len() > 65_536 {
            continue;
        }
        // Every prefix of small documents; of long ones the first and last
        // 128 and 100 between.
        let len = d.xml.len();
        let mut cuts: Vec<usize> = if len <= 1024 {
            (0..len).collect()
        } else {
            let mut c: Vec<usize> = (0..128).chain(len - 128..len).collect();
            c.extend((1..100).map(|k| k * len / 100));
            c
        };
        cuts.sort_unstable();
        cuts.dedup();
        for cut in cuts {
            let prefix = &d.xml[..cut];
            // Cut after the root element: what is left out is comments,
            // PIs and white space, and the prefix is well-formed.
            if only_misc(&d.xml[cut..]) {
                continue;
            }
            // A UTF-16 document's odd last byte is ignored (PHP:
            // fixtures/php/limits/chunking-utf16-odd-length_*).
            let utf16 = d.xml.starts_with(b"\xFF\xFE") || d.xml.starts_with(b"\xFE\xFF");
            if utf16 && len % 2 == 1 && cut == len - 1 {
                continue;
            }
            // A composing charset holds a base letter that ends the input
            // and never hands it over, so the letter after the root is
            // never seen (PHP: encodings/composing-*-letter-at-end_*).
            if d.name.contains("/composing-") && d.name.contains("-letter-at-end") && cut == len - 1
            {
                continue;
            }
            let out = trace(&args, prefix, &[]);
            assert_ne!(
                result_of(&out).0,
                0,
                "{}: the first {cut} of {len} bytes parse without error",
                d.name
            );
            checked += 1;
        }
    }
    eprintln!("{checked} strict prefixes checked");
    assert!(checked > 50_000, "{checked}");
}

/// Whether `rest` holds nothing but white space, comments and processing
/// instructions (what may follow the root element).
fn only_misc(mut rest: &[u8]) -> bool {
    loop {
        while let [b' ' | b'\t' | b'\r' | b'\n', tail @ ..] = rest {
            rest = tail;
        }
        if rest.is_empty() {
            return true;
        }
        let end: &[u8] = if rest.starts_with(b"<!--") {
            b"-->"
        } else if rest.starts_with(b"<?") {
            b"?>"
        } else {
            return false;
        };
        match rest.windows(end.len()).position(|w| w == end) {
            Some(i) => rest = &rest[i + end.len()..],
            None => return false,
        }
    }
}
