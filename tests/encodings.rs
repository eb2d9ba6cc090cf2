//! Every single-byte charset against PHP: the trace of every byte 00..FF in
//! text, a fresh parser per byte, under the UTF-8 and ISO-8859-1 targets,
//! hashed as `tools/capture-single-byte` hashes PHP's traces
//! (fixtures/encodings/single-byte.tsv).

mod common;

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

const SINGLE_BYTE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/encodings/single-byte.tsv"
);

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        write!(s, "{b:02x}").unwrap();
        s
    })
}

fn doc(label: &str, byte: u8) -> Vec<u8> {
    let mut d = format!("<?xml version=\"1.0\" encoding=\"{label}\"?><a>").into_bytes();
    d.push(byte);
    d.extend_from_slice(b"</a>");
    d
}

fn target_args(target: &str) -> Vec<&'static str> {
    match target {
        "UTF-8" => vec![],
        "ISO-8859-1" => vec!["--encoding", "ISO-8859-1"],
        other => panic!("unknown target {other}"),
    }
}

#[test]
fn every_byte_of_every_single_byte_charset_traces_as_php() {
    let table = std::fs::read_to_string(SINGLE_BYTE).expect("fixtures/encodings/single-byte.tsv");
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split('\t').collect()).collect();
    assert!(
        rows.len() >= 400,
        "{} rows: the capture is incomplete",
        rows.len()
    );
    let mut differing = Vec::new();
    for row in &rows {
        let [label, target, php] = row[..] else {
            panic!("bad row {row:?}");
        };
        let args = target_args(target);
        let all: Vec<u8> = (0..=255u8)
            .flat_map(|b| common::trace(&args, &doc(label, b), &[]))
            .collect();
        if hex(&Sha256::digest(&all)) != php {
            differing.push(format!("{label} {target}"));
        }
    }
    assert!(
        differing.is_empty(),
        "{} of {} differ from PHP (see `php -d error_reporting=0 tools/capture-single-byte.php --raw LABEL`): {}",
        differing.len(),
        rows.len(),
        differing.join(", ")
    );
}

const WIDE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/encodings/wide.tsv");

/// The document `tools/capture-wide.php` builds for `case` and `unit`.
fn wide_doc(case: &str, unit: u32) -> Vec<u8> {
    if case == "ucs2" {
        let le = |s: &str| s.bytes().flat_map(|b| [b, 0]).collect::<Vec<u8>>();
        let mut d = le("<?xml version=\"1.0\" encoding=\"UCS-2\"?><a>");
        d.extend_from_slice(&u16::try_from(unit).unwrap().to_le_bytes());
        d.extend(le("</a>"));
        return d;
    }
    let decl = match case {
        "ucs4" => " encoding=\"UCS-4\"",
        "utf32be" => " encoding=\"UTF-32BE\"",
        "utf32" => " encoding=\"UTF-32\"",
        "detected" => "",
        other => panic!("unknown case {other}"),
    };
    let be = |s: &str| s.bytes().flat_map(|b| [0, 0, 0, b]).collect::<Vec<u8>>();
    let mut d = be(&format!("<?xml version=\"1.0\"{decl}?><a>"));
    d.extend_from_slice(&unit.to_be_bytes());
    d.extend(be("</a>"));
    d
}

/// The units of range `k` of `case`, as `tools/capture-wide.php` lists them.
fn wide_units(case: &str, k: u32) -> Vec<u32> {
    if case == "ucs2" {
        return (k * 4096..k * 4096 + 4096).collect();
    }
    let edges = [
        0x80,
        0xFF,
        0x7FF,
        0x800,
        0xD7FF,
        0xD800,
        0xDBFF,
        0xDC00,
        0xDFFF,
        0xE000,
        0xFFFD,
        0xFFFE,
        0xFFFF,
        0x10000,
        0x10_FFFF,
        0x11_0000,
        0x1F_FFFF,
        0x20_0000,
        0x3FF_FFFF,
        0x400_0000,
        0x7FFF_FFFF,
        0x8000_0000,
        0xFFFF_FFFF,
    ];
    (0..0x80).chain(edges).collect()
}

#[test]
fn every_ucs2_unit_and_the_ucs4_edges_trace_as_php() {
    let table = std::fs::read_to_string(WIDE).expect("fixtures/encodings/wide.tsv");
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 40, "the capture is incomplete");
    let mut differing = Vec::new();
    for row in &rows {
        let [case, k, target, php] = row[..] else {
            panic!("bad row {row:?}");
        };
        let args = target_args(target);
        let all: Vec<u8> = wide_units(case, k.parse().unwrap())
            .into_iter()
            .flat_map(|u| common::trace(&args, &wide_doc(case, u), &[]))
            .collect();
        if hex(&Sha256::digest(&all)) != php {
            differing.push(format!("{case} {k} {target}"));
        }
    }
    assert!(
        differing.is_empty(),
        "{} of {} differ from PHP (see `php -d error_reporting=0 tools/capture-wide.php --raw CASE`): {}",
        differing.len(),
        rows.len(),
        differing.join(", ")
    );
}

mod wide_props {
    use super::common;
    use proptest::prelude::*;
    use std::fmt::Write as _;

    /// A document of random names, attribute values and text, encoded by
    /// `encode`, its declaration naming `label`.
    fn document(label: &str, names: &[String], texts: &[String]) -> String {
        let mut d = format!("<?xml version=\"1.0\" encoding=\"{label}\"?><r>");
        for (n, t) in names.iter().zip(texts) {
            write!(d, "<{n} a{n}=\"{t}\">{t}&#xE9;</{n}>").unwrap();
        }
        d.push_str("</r>");
        d
    }

    fn name() -> impl Strategy<Value = String> {
        "[a-zé][a-zé0-9]{0,5}"
    }

    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just('x'),
                Just(' '),
                Just('\n'),
                Just('é'),
                Just('Я'),
                Just('中'),
                Just('\u{FFFD}')
            ],
            0..12,
        )
        .prop_map(|v| v.into_iter().collect())
    }

    fn utf16le(s: &str) -> Vec<u8> {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    }

    fn utf32be(s: &str) -> Vec<u8> {
        s.chars().flat_map(|c| u32::from(c).to_be_bytes()).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// UCS-2 (after UTF-16 from the first bytes): whole, one byte at a
        /// time and random pieces give one trace.
        #[test]
        fn ucs2_traces_alike_in_any_pieces(
            names in proptest::collection::vec(name(), 1..6),
            texts in proptest::collection::vec(text(), 6),
            sizes in proptest::collection::vec(1usize..40, 1..8),
        ) {
            let doc = utf16le(&document("UCS-2", &names, &texts));
            let whole = common::trace(&[], &doc, &[]);
            prop_assert_eq!(&whole, &common::trace(&[], &doc, &[1]));
            prop_assert_eq!(&whole, &common::trace(&[], &doc, &sizes));
        }

        /// UCS-4 and UTF-32 (ICU's UTF-32 from the first bytes, then the
        /// declared form): whole and pieces of whole units give one trace
        /// (ICU drops a unit cut at the end of a piece, as PHP shows). Not
        /// `UTF-32`: iconv reads it little-endian without a BOM, so where the
        /// declaration takes over depends on the pieces, in PHP too; nor a
        /// declaration past the first 45 characters, which a whole document
        /// fails on (the first line is all libxml2 converts before it).
        #[test]
        fn ucs4_traces_alike_in_pieces_of_whole_units(
            label in prop_oneof![Just("UCS-4"), Just("UTF-32BE"), Just("UCS-4BE")],
            names in proptest::collection::vec(name(), 1..6),
            texts in proptest::collection::vec(text(), 6),
            units in proptest::collection::vec(1usize..12, 1..8),
        ) {
            let doc = utf32be(&document(label, &names, &texts));
            let sizes: Vec<usize> = units.iter().map(|u| u * 4).collect();
            let whole = common::trace(&[], &doc, &[]);
            prop_assert_eq!(&whole, &common::trace(&[], &doc, &[4]));
            prop_assert_eq!(&whole, &common::trace(&[], &doc, &sizes));
        }
    }
}

const STATEFUL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/encodings/stateful.tsv"
);

/// The document `tools/capture-stateful.php` builds for `case`, range `k`
/// and `seq`.
fn stateful_doc(case: &str, k: u32, seq: u32) -> Vec<u8> {
    let mut d = b"<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?><a>".to_vec();
    match case {
        "jis" => {
            d.extend_from_slice(b"\x1b$B");
            d.extend_from_slice(&u16::try_from(seq).unwrap().to_be_bytes());
        }
        "single" => {
            if k == 1 {
                d.extend_from_slice(b"\x1b(J");
            }
            d.push(u8::try_from(seq).unwrap());
        }
        other => panic!("unknown case {other}"),
    }
    d.extend_from_slice(b"\x1b(B</a>");
    d
}

#[test]
fn every_iso_2022_jp_pair_and_byte_traces_as_php() {
    let table = std::fs::read_to_string(STATEFUL).expect("fixtures/encodings/stateful.tsv");
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 36, "the capture is incomplete");
    let mut differing = Vec::new();
    for row in &rows {
        let [case, k, target, php] = row[..] else {
            panic!("bad row {row:?}");
        };
        let k: u32 = k.parse().unwrap();
        let seqs = if case == "jis" {
            k * 4096..k * 4096 + 4096
        } else {
            0..256
        };
        let args = target_args(target);
        let all: Vec<u8> = seqs
            .flat_map(|s| common::trace(&args, &stateful_doc(case, k, s), &[]))
            .collect();
        if hex(&Sha256::digest(&all)) != php {
            differing.push(format!("{case} {k} {target}"));
        }
    }
    assert!(
        differing.is_empty(),
        "{} of {} differ from PHP (see `php -d error_reporting=0 tools/capture-stateful.php --raw CASE`): {}",
        differing.len(),
        rows.len(),
        differing.join(", ")
    );
}

mod stateful_props {
    use super::common;
    use proptest::prelude::*;

    /// A run of text in one set: ASCII, JIS X 0201 Roman, or JIS X 0208
    /// pairs from rows that are defined throughout (hiragana, kanji level 1).
    fn run() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            "[a-z \n\\\\~]{1,4}".prop_map(|s| [b"\x1b(B", s.as_bytes()].concat()),
            "[a-z\\\\~]{1,4}".prop_map(|s| [b"\x1b(J", s.as_bytes()].concat()),
            proptest::collection::vec((0x30u8..0x4F, 0x21u8..0x7F), 1..4).prop_map(|pairs| {
                let mut v = b"\x1b$B".to_vec();
                v.extend(pairs.into_iter().flat_map(|(l, t)| [l, t]));
                v
            }),
            (0x21u8..0x74).prop_map(|t| vec![0x1b, b'$', b'@', 0x24, t]),
        ]
    }

    fn runs() -> impl Strategy<Value = Vec<u8>> {
        proptest::collection::vec(run(), 0..4).prop_map(|r| r.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// ISO-2022-JP names, attribute values and text, with escapes
        /// anywhere: whole, one byte at a time and random pieces give one
        /// trace.
        #[test]
        fn iso_2022_jp_traces_alike_in_any_pieces(
            names in proptest::collection::vec(runs(), 1..5),
            texts in proptest::collection::vec(runs(), 5),
            sizes in proptest::collection::vec(1usize..40, 1..8),
        ) {
            let mut doc = b"<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?>\n<r>".to_vec();
            for (n, t) in names.iter().zip(&texts) {
                let name = [b"n", &n[..], b"\x1b(B"].concat();
                let text = [&t[..], b"\x1b(B"].concat();
                doc.extend([b"<", &name[..], b" a=\"", &text, b"\">", &text, b"&#xE9;</", &name, b">"].concat());
            }
            doc.extend_from_slice(b"</r>");
            let whole = common::trace(&[], &doc, &[]);
            prop_assert_eq!(&whole, &common::trace(&[], &doc, &[1]));
            prop_assert_eq!(&whole, &common::trace(&[], &doc, &sizes));
        }
    }
}
