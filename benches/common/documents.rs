//! The parse benchmark's documents: deterministic XML of the shapes PHP
//! services receive, each generated at any size from a fixed seed, so every
//! run and every tool (criterion, the PHP script, the CLI) sees the same
//! bytes.

use std::fmt::Write;

use super::inputs::{CYRILLIC, Rng};

const ENGLISH: &[&str] = &[
    "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "and", "parser", "returns",
    "every", "value", "with", "index", "report", "order", "service",
];
const FRENCH: &[&str] = &[
    "le", "déjà", "où", "garçon", "fenêtre", "élève", "hôpital", "naïve", "Noël", "à", "très",
    "café", "maïs", "août", "et", "la", "une", "pour", "été", "être", "crème", "brûlée",
];
/// Entity and character references mixed into text.
const REFS: &[&str] = &[
    "&amp;", "&lt;", "&gt;", "&quot;", "&#233;", "&#x44F;", "&apos;",
];

/// `n` words from `vocabulary`, with a reference now and then.
fn sentence(rng: &mut Rng, vocabulary: &[&str], n: usize, out: &mut String) {
    for i in 0..n {
        if i > 0 {
            out.push(' ');
        }
        if rng.below(12) == 0 {
            out.push_str(rng.pick(REFS));
            out.push(' ');
        }
        out.push_str(rng.pick(vocabulary));
    }
}

/// Appends `item(rng, i, out)` until the document reaches about `size`
/// bytes (with its `close` tag).
fn repeat(
    size: usize,
    seed: u64,
    open: &str,
    close: &str,
    mut item: impl FnMut(&mut Rng, usize, &mut String),
) -> Vec<u8> {
    let mut rng = Rng::new(seed ^ size as u64);
    let mut out = String::with_capacity(size + 4096);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(open);
    let mut i = 0;
    while out.len() + close.len() < size {
        item(&mut rng, i, &mut out);
        i += 1;
    }
    out.push_str(close);
    out.into_bytes()
}

/// An Atom-like feed: entries with attributes, a title and a summary.
fn feed(size: usize, seed: u64, lang: &str, vocabulary: &[&str]) -> Vec<u8> {
    repeat(
        size,
        seed,
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\">\n",
        "</feed>\n",
        |rng, i, out| {
            write!(
                out,
                "  <entry id=\"urn:uuid:{:08x}\" lang=\"{lang}\" updated=\"2024-{:02}-{:02}T{:02}:{:02}:00Z\" rank=\"{}\">\n    <title>",
                rng.next() as u32,
                1 + rng.below(12),
                1 + rng.below(28),
                rng.below(24),
                rng.below(60),
                rng.below(1000),
            ).unwrap();
            let n = 3 + rng.below(6);
            sentence(rng, vocabulary, n, out);
            out.push_str("</title>\n    <summary>");
            let n = 20 + rng.below(40);
            sentence(rng, vocabulary, n, out);
            write!(
                out,
                "</summary>\n    <link href=\"https://example.com/{lang}/entry/{i}?view=full&amp;ref=feed\" rel=\"alternate\"/>\n    <category term=\"{}\"/>\n  </entry>\n",
                rng.pick(vocabulary)
            ).unwrap();
        },
    )
}

/// A configuration document: sections of empty elements with many
/// attributes each.
fn config(size: usize) -> Vec<u8> {
    const TYPES: &[&str] = &["int", "bool", "string", "duration", "path"];
    repeat(
        size,
        0xC0F1,
        "<configuration version=\"3\" generated=\"2024-05-06\">\n",
        "</configuration>\n",
        |rng, i, out| {
            writeln!(out, "  <section name=\"section{i}\" enabled=\"true\">").unwrap();
            for k in 0..8 + rng.below(8) {
                writeln!(
                    out,
                    "    <setting key=\"{}.{}.{k}\" value=\"{}\" type=\"{}\" default=\"{}\" min=\"0\" max=\"{}\" unit=\"ms\" readonly=\"{}\" scope=\"global\" description=\"{} {} &amp; {}\"/>",
                    rng.pick(ENGLISH),
                    rng.pick(ENGLISH),
                    rng.below(100_000),
                    rng.pick(TYPES),
                    rng.below(100),
                    1000 + rng.below(100_000),
                    rng.below(2) == 1,
                    rng.pick(ENGLISH),
                    rng.pick(ENGLISH),
                    rng.pick(ENGLISH),
                ).unwrap();
            }
            out.push_str("  </section>\n");
        },
    )
}

/// Deep nesting: chains of 20 to 100 nested elements with a little text at
/// every level.
fn nested(size: usize) -> Vec<u8> {
    repeat(size, 0xDEE9, "<tree>", "</tree>\n", |rng, _, out| {
        let depth = 20 + rng.below(81);
        for d in 0..depth {
            write!(out, "<node level=\"{d}\">{} ", rng.pick(ENGLISH)).unwrap();
        }
        for _ in 0..depth {
            out.push_str("</node>");
        }
        out.push('\n');
    })
}

/// Many short text nodes: small elements holding a number or a word.
fn short_text(size: usize) -> Vec<u8> {
    repeat(size, 0x5407, "<values>\n", "</values>\n", |rng, _, out| {
        out.push_str("<row>");
        for _ in 0..8 {
            if rng.below(2) == 0 {
                write!(out, "<v>{}</v>", rng.below(1000)).unwrap();
            } else {
                write!(out, "<w>{}</w>", rng.pick(ENGLISH)).unwrap();
            }
        }
        out.push_str("</row>\n");
    })
}

/// A SOAP-like envelope: prefixed names, namespace declarations,
/// prefixed attributes.
fn soap(size: usize) -> Vec<u8> {
    repeat(
        size,
        0x50A9,
        "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:m=\"urn:example:orders\">\n<soap:Header><m:Trace id=\"t-1\" soap:mustUnderstand=\"1\"/></soap:Header>\n<soap:Body>\n",
        "</soap:Body>\n</soap:Envelope>\n",
        |rng, i, out| {
            write!(
                out,
                "<m:Order m:id=\"{i}\" xsi:type=\"m:OrderType\" xmlns:a=\"urn:example:address\">\n  <m:Customer a:country=\"FR\">{} {}</m:Customer>\n",
                rng.pick(FRENCH),
                rng.pick(ENGLISH)
            ).unwrap();
            for _ in 0..=rng.below(4) {
                writeln!(
                    out,
                    "  <m:Item m:sku=\"SKU-{}\" m:qty=\"{}\"><m:Description>{} {} {}</m:Description><m:Price currency=\"EUR\">{}.{:02}</m:Price></m:Item>",
                    rng.below(100_000),
                    1 + rng.below(9),
                    rng.pick(ENGLISH),
                    rng.pick(ENGLISH),
                    rng.pick(ENGLISH),
                    rng.below(500),
                    rng.below(100),
                ).unwrap();
            }
            out.push_str("  <a:Address><a:Street>");
            write!(out, "{} rue {}", 1 + rng.below(200), rng.pick(FRENCH)).unwrap();
            out.push_str("</a:Street></a:Address>\n</m:Order>\n");
        },
    )
}

/// Every document of the parse benchmark, by name, at about `size` bytes.
pub fn documents(size: usize) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("feed-ascii", feed(size, 0xFEED_0001, "en", ENGLISH)),
        ("feed-french", feed(size, 0xFEED_0002, "fr", FRENCH)),
        ("feed-cyrillic", feed(size, 0xFEED_0003, "ru", CYRILLIC)),
        ("config", config(size)),
        ("nested", nested(size)),
        ("short-text", short_text(size)),
        ("soap", soap(size)),
    ]
}
