//! Every single-byte charset against PHP: the trace of every byte 00..FF in
//! text, a fresh parser per byte, under the UTF-8 and ISO-8859-1 targets,
//! hashed as `tools/capture-single-byte` hashes PHP's traces
//! (fixtures/encodings/single-byte.tsv); every two-byte sequence of every
//! multi-byte charset, and GB18030's four-byte samples, hashed per range as
//! `tools/capture-multi-byte` hashes them (fixtures/encodings/multi-byte.tsv);
//! the UCS-2/UCS-4 forms, ISO-2022-JP and the composing charsets as
//! `tools/capture-hashes` hashes them (wide, stateful, composing.tsv).

mod common;

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

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

/// Checks every row of the hash file `name` (under fixtures/encodings/, at
/// least `min_rows` of them) against phpxml: `documents(row)` gives the
/// arguments and the documents of the row, whose traces are hashed in order
/// as the capture script hashed PHP's; the row's last field is PHP's hash.
/// The rows split among threads.
fn assert_hashes_match_php<F>(name: &str, min_rows: usize, raw_hint: &str, documents: F)
where
    F: Fn(&[&str]) -> (Vec<&'static str>, Vec<Vec<u8>>) + Sync,
{
    let path = format!("{}/fixtures/encodings/{name}", env!("CARGO_MANIFEST_DIR"));
    let table = std::fs::read_to_string(&path).expect("the capture's hash file");
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split('\t').collect()).collect();
    assert!(
        rows.len() >= min_rows,
        "{name}: {} rows, the capture is incomplete",
        rows.len()
    );
    let documents = &documents;
    let differing: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = rows
            .chunks(rows.len().div_ceil(4))
            .map(|part| {
                s.spawn(move || {
                    let mut differing = Vec::new();
                    for row in part {
                        let (php, fields) = row.split_last().expect("a hash");
                        let (args, docs) = documents(fields);
                        let mut hash = Sha256::new();
                        for d in docs {
                            hash.update(common::trace(&args, &d, &[]));
                        }
                        if hex(&hash.finalize()) != *php {
                            differing.push(fields.join(" "));
                        }
                    }
                    differing
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("no panic"))
            .collect()
    });
    assert!(
        differing.is_empty(),
        "{} of {} differ from PHP (see `{raw_hint}`): {}",
        differing.len(),
        rows.len(),
        differing.join(", ")
    );
}

#[test]
fn every_byte_of_every_single_byte_charset_traces_as_php() {
    assert_hashes_match_php(
        "single-byte.tsv",
        400,
        "php -d error_reporting=0 tools/capture-single-byte.php --raw LABEL",
        |row| {
            let [label, target] = row[..] else {
                panic!("bad row {row:?}");
            };
            (
                target_args(target),
                (0..=255u8).map(|b| doc(label, b)).collect(),
            )
        },
    );
}

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
    assert_hashes_match_php(
        "wide.tsv",
        40,
        "php -d error_reporting=0 tools/capture-wide.php --raw CASE",
        |row| {
            let [case, k, target] = row[..] else {
                panic!("bad row {row:?}");
            };
            let units = wide_units(case, k.parse().unwrap());
            (
                target_args(target),
                units.into_iter().map(|u| wide_doc(case, u)).collect(),
            )
        },
    );
}

/// GB18030's four-byte samples, as `tools/capture-multi-byte.php` takes
/// them: third bytes at the edges of iconv's rows and between, fourth
/// bytes 30..39 and their neighbours.
const FOUR_B3: [u8; 16] = [
    0x30, 0x80, 0x81, 0x82, 0x83, 0x99, 0x9A, 0x9B, 0xA4, 0xA5, 0xA6, 0xC0, 0xD2, 0xFD, 0xFE, 0xFF,
];
const FOUR_B4: [u8; 12] = [
    0x2F, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A,
];

/// The sequences of a range of `tools/capture-multi-byte.php`.
fn range_sequences(range: &str) -> Vec<Vec<u8>> {
    let (kind, at) = range.split_once(':').expect("KIND:START");
    let at = u8::from_str_radix(at, 16).expect("hex");
    match kind {
        "2" => (at * 16..=at * 16 + 15)
            .flat_map(|lead| (0..=255u8).map(move |trail| vec![lead, trail]))
            .collect(),
        "4" => (0x30..=0x39u8)
            .flat_map(|b2| {
                FOUR_B3
                    .iter()
                    .flat_map(move |&b3| FOUR_B4.iter().map(move |&b4| vec![at, b2, b3, b4]))
            })
            .collect(),
        other => panic!("unknown range kind {other}"),
    }
}

#[test]
fn every_two_byte_sequence_of_every_multi_byte_charset_traces_as_php() {
    assert_hashes_match_php(
        "multi-byte.tsv",
        924,
        "php -d error_reporting=0 tools/capture-multi-byte.php --raw RANGE LABEL",
        |row| {
            let [label, target, range] = row[..] else {
                panic!("bad row {row:?}");
            };
            let prefix = format!("<?xml version=\"1.0\" encoding=\"{label}\"?><a>");
            let docs = range_sequences(range)
                .into_iter()
                .map(|seq| [prefix.as_bytes(), &seq, b"</a>"].concat())
                .collect();
            (target_args(target), docs)
        },
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

/// How a test document is written in a label's charset.
enum Writer {
    /// `encoding_rs`'s encoder (its Windows supersets encode these
    /// characters as glibc's charsets do).
    Encoder(&'static encoding_rs::Encoding),
    /// Each non-ASCII character's bytes, as glibc's iconv writes them
    /// (`encoding_rs` has no such charset), from the first table that has
    /// the character.
    Bytes(&'static [&'static [(char, &'static [u8])]]),
}

/// ISO 6937's family writes these alike: the accent, then the letter.
const ACCENTED: &[(char, &[u8])] = &[
    ('é', b"\xc2e"),
    ('è', b"\xc1e"),
    ('ç', b"\xcbc"),
    ('ê', b"\xc3e"),
    ('œ', b"\xfa"),
    ('É', b"\xc2E"),
];

/// ISO 6937-2, ANSI X3.110 and T.61 also move `#` to A6 (23 is not
/// defined).
const HASH_AT_A6: &[(char, &[u8])] = &[('#', b"\xa6")];

const JOHAB: &[(char, &[u8])] = &[
    ('한', b"\xd0\x65"),
    ('국', b"\x8a\x82"),
    ('어', b"\xb4\xe1"),
    ('가', b"\x88\x61"),
    ('나', b"\x90\x61"),
    ('다', b"\x94\x61"),
];

/// EUC-TW: plane 1 in two bytes, plane 2 in four.
const EUC_TW: &[(char, &[u8])] = &[
    ('中', b"\xc4\xe3"),
    ('文', b"\xc5\xc6"),
    ('繁', b"\xf4\xed"),
    ('體', b"\xfc\xd5"),
    ('乂', b"\x8e\xa2\xa1\xa1"),
    ('乜', b"\x8e\xa2\xa1\xa2"),
];

/// Characters every table of the label's family holds, and how to write
/// them.
fn cjk_alphabet(label: &str) -> (Writer, &'static str) {
    let japanese = "日本語テキストあいうアイウ漢字";
    match label {
        "Shift_JIS" | "windows-31j" | "IBM932" | "IBM943" | "Shift_JISX0213" => {
            (Writer::Encoder(encoding_rs::SHIFT_JIS), japanese)
        }
        "EUC-JP" | "EUC-JP-MS" | "EUC-JISX0213" => (Writer::Encoder(encoding_rs::EUC_JP), japanese),
        "GB2312" | "GBK" => (Writer::Encoder(encoding_rs::GBK), "中文简体汉字"),
        "GB18030" => (Writer::Encoder(encoding_rs::GB18030), "中文简体汉字€😀"),
        "Big5" | "Big5-HKSCS" => (Writer::Encoder(encoding_rs::BIG5), "中文繁體漢字"),
        "EUC-KR" | "CP949" => (Writer::Encoder(encoding_rs::EUC_KR), "한국어가나다"),
        "JOHAB" => (Writer::Bytes(&[JOHAB]), "한국어가나다"),
        "EUC-TW" => (Writer::Bytes(&[EUC_TW]), "中文繁體乂乜"),
        "ISO_6937" => (Writer::Bytes(&[ACCENTED]), "éèçêœÉ"),
        "ISO_6937-2" | "ANSI_X3.110" | "T.61" => (Writer::Bytes(&[HASH_AT_A6, ACCENTED]), "éèçêœÉ"),
        other => panic!("no alphabet for {other}"),
    }
}

impl Writer {
    fn write(&self, text: &str) -> Vec<u8> {
        match self {
            Writer::Encoder(encoding) => {
                let (bytes, _, unmappable) = encoding.encode(text);
                assert!(!unmappable, "{}: {text}", encoding.name());
                bytes.into_owned()
            }
            Writer::Bytes(tables) => {
                let mut out = Vec::new();
                for c in text.chars() {
                    match tables.iter().flat_map(|t| t.iter()).find(|(k, _)| *k == c) {
                        Some((_, bytes)) => out.extend_from_slice(bytes),
                        None if c.is_ascii() => out.push(c as u8),
                        None => panic!("{c} in {text}"),
                    }
                }
                out
            }
        }
    }
}

const CJK_LABELS: [&str; 21] = [
    "Shift_JIS",
    "windows-31j",
    "EUC-JP",
    "GB2312",
    "GBK",
    "GB18030",
    "Big5",
    "Big5-HKSCS",
    "EUC-KR",
    "CP949",
    "JOHAB",
    "IBM932",
    "IBM943",
    "EUC-JP-MS",
    "EUC-JISX0213",
    "Shift_JISX0213",
    "ISO_6937",
    "ISO_6937-2",
    "ANSI_X3.110",
    "T.61",
    "EUC-TW",
];

/// A well-formed document in `label`: elements named and attributes and
/// text written in the charset's script, character references, lines.
fn cjk_document(label: &str, parts: &[(usize, Vec<usize>)]) -> Vec<u8> {
    let (writer, alphabet) = cjk_alphabet(label);
    let chars: Vec<char> = alphabet.chars().collect();
    let word =
        |picks: &[usize]| -> String { picks.iter().map(|&k| chars[k % chars.len()]).collect() };
    let mut text = format!("<?xml version=\"1.0\" encoding=\"{label}\"?>\n<r>");
    for (kind, picks) in parts {
        let w = word(picks);
        match kind % 4 {
            0 => text.push_str(&w),
            1 => {
                // the first six characters are letters in every alphabet
                let name: String = "e"
                    .chars()
                    .chain(picks.iter().map(|&k| chars[k % 6]))
                    .collect();
                write!(text, "<{name} a=\"{w} &#20013;\">{w}x</{name}>").unwrap();
            }
            2 => text.push_str("\n&#x4E2D;a&amp;"),
            _ => write!(text, "<!--{w}--><![CDATA[{w}]]>").unwrap(),
        }
    }
    text.push_str("</r>");
    writer.write(&text)
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(64))]

    #[test]
    fn cjk_documents_trace_the_same_whole_and_in_chunks(
        which in 0..CJK_LABELS.len(),
        parts in proptest::collection::vec(
            (0..4usize, proptest::collection::vec(0..16usize, 0..6)), 0..12),
        sizes in proptest::collection::vec(1..9usize, 1..6),
        latin1 in proptest::bool::ANY,
    ) {
        let label = CJK_LABELS[which];
        let doc = cjk_document(label, &parts);
        let args = target_args(if latin1 { "ISO-8859-1" } else { "UTF-8" });
        let whole = common::trace(&args, &doc, &[]);
        proptest::prop_assert!(
            whole.windows(4).any(|w| w == b"ok 1"),
            "{label}: not parsed: {}", String::from_utf8_lossy(&whole)
        );
        proptest::prop_assert_eq!(&common::trace(&args, &doc, &[1]), &whole);
        proptest::prop_assert_eq!(&common::trace(&args, &doc, &sizes), &whole);
    }
}

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
    assert_hashes_match_php(
        "stateful.tsv",
        36,
        "php -d error_reporting=0 tools/capture-stateful.php --raw CASE",
        |row| {
            let [case, k, target] = row[..] else {
                panic!("bad row {row:?}");
            };
            let k: u32 = k.parse().unwrap();
            let seqs = if case == "jis" {
                k * 4096..k * 4096 + 4096
            } else {
                0..256
            };
            (
                target_args(target),
                seqs.map(|s| stateful_doc(case, k, s)).collect(),
            )
        },
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

/// The document `tools/capture-composing.php` builds for `case`, range `k`
/// and `seq`.
fn composing_doc(case: &str, k: usize, seq: u32) -> Vec<u8> {
    const LABELS: [&str; 3] = ["windows-1255", "windows-1258", "TCVN"];
    let (label, text) = match case {
        "bytes" => (LABELS[k], vec![u8::try_from(seq).unwrap()]),
        "triples" => {
            let [a, b] = u16::try_from(seq).unwrap().to_be_bytes();
            ("windows-1255", vec![0xF9, a, b])
        }
        _ => (
            case.strip_prefix("pairs-").expect("pairs-LABEL"),
            u16::try_from(seq).unwrap().to_be_bytes().to_vec(),
        ),
    };
    let decl = format!("<?xml version=\"1.0\" encoding=\"{label}\"?><a>");
    [decl.as_bytes(), &text, b"</a>"].concat()
}

#[test]
fn every_byte_and_pair_of_the_composing_charsets_traces_as_php() {
    assert_hashes_match_php(
        "composing.tsv",
        104,
        "php -d error_reporting=0 tools/capture-composing.php --raw CASE",
        |row| {
            let [case, k, target] = row[..] else {
                panic!("bad row {row:?}");
            };
            let k: usize = k.parse().unwrap();
            let seqs = match case {
                "bytes" => 0..256,
                "triples" => 0xC000..0xE000,
                _ => {
                    let k = u32::try_from(k).unwrap();
                    k * 4096..k * 4096 + 4096
                }
            };
            (
                target_args(target),
                seqs.map(|s| composing_doc(case, k, s)).collect(),
            )
        },
    );
}
