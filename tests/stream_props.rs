//! The streaming `json.php` writer ([`json::write_struct`]) against the
//! value path ([`struct_to_value`] then [`Value::encode`]): the same bytes
//! and the same error for random results under every combination of flags,
//! `JSON_THROW_ON_ERROR` included.

use phpxml::json::{self, JsonError, JsonFlags, StructJsonError, struct_to_value};
use phpxml::{Entry, EntryType, Key, Struct};
use proptest::prelude::*;
use std::fmt::Write as _;

const THROW_ON_ERROR: u32 = 1 << 22;

/// `json.php`'s lines through the value model.
fn by_values(result: &Struct, flags: JsonFlags) -> (Vec<u8>, Option<JsonError>) {
    let (values, index) = struct_to_value(result);
    let mut out = Vec::new();
    for value in [values, index] {
        match value.encode(flags, &mut out) {
            Err(_) if flags.contains(JsonFlags::PARTIAL_OUTPUT_ON_ERROR) => {}
            Err(e) if flags.bits() & THROW_ON_ERROR != 0 => return (out, Some(e)),
            Err(e) => out.extend_from_slice(format!("false {}", e.code()).as_bytes()),
            Ok(()) => {}
        }
        out.push(b'\n');
    }
    (out, None)
}

fn flags() -> impl Strategy<Value = JsonFlags> {
    const BITS: [u32; 15] = [
        1,
        2,
        4,
        8,
        16,
        32,
        64,
        128,
        256,
        512,
        1024,
        2048,
        1 << 20,
        1 << 21,
        THROW_ON_ERROR,
    ];
    any::<u16>().prop_map(|m| {
        BITS.iter()
            .enumerate()
            .filter(|(i, _)| m & (1 << i) != 0)
            .fold(JsonFlags::NONE, |f, (_, &b)| f | JsonFlags::from_bits(b))
    })
}

/// Strings: mostly clean, some numeric, some needing escapes, some
/// malformed UTF-8, and a few that come back (the writer remembers the
/// encodings of tags, attribute names and whitespace).
fn string() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => prop::sample::select(vec![
            &b"ENTRY"[..], b"LINK", b"A", b"a/b", b"\n  ", b"\n", b"\n    ", b"\t\x01",
            b"12", b"\xC3", b"", b"\xE2\x80\xA8",
        ]).prop_map(<[u8]>::to_vec),
        6 => "[A-Za-z_:]{1,8}".prop_map(String::into_bytes),
        2 => "-?[0-9]{1,4}(\\.[0-9]{1,3})?".prop_map(String::into_bytes),
        2 => "[ -~éЖ漢😀\u{2028}\t\n]{0,40}".prop_map(String::into_bytes),
        1 => prop::collection::vec(any::<u8>(), 0..12),
    ]
}

/// Index positions: mostly those of a document, some any int.
fn position() -> impl Strategy<Value = i64> {
    prop_oneof![
        3 => 0..200_000_000i64,
        1 => any::<i64>(),
    ]
}

fn key() -> impl Strategy<Value = Key> {
    prop_oneof![
        (0..4i64).prop_map(Key::Int),
        any::<i64>().prop_map(Key::Int),
        string().prop_map(Key::Str),
    ]
}

fn entry() -> impl Strategy<Value = Entry> {
    let kind = prop::sample::select(vec![
        EntryType::Open,
        EntryType::Complete,
        EntryType::Close,
        EntryType::Cdata,
    ]);
    let attributes = prop_oneof![
        2 => Just(None),
        1 => prop::collection::vec((key(), string()), 0..4).prop_map(Some),
        // 0, 1, 2, ...: a list
        1 => prop::collection::vec(string(), 1..4).prop_map(|v| Some(
            v.into_iter().zip(0..).map(|(s, i)| (Key::Int(i), s)).collect()
        )),
    ];
    (
        string(),
        kind,
        any::<i64>(),
        attributes,
        prop::option::of(string()),
    )
        .prop_map(|(tag, kind, level, attributes, value)| Entry {
            tag,
            kind,
            level,
            // a PHP array holds each key once
            attributes: attributes.map(|mut a| {
                let mut seen = Vec::new();
                a.retain(|(k, _)| {
                    let new = !seen.contains(k);
                    seen.push(k.clone());
                    new
                });
                a
            }),
            value,
        })
}

fn result() -> impl Strategy<Value = Struct> {
    (
        any::<bool>(),
        prop::collection::vec(entry(), 0..12),
        prop::collection::vec((string(), prop::collection::vec(position(), 0..4)), 0..4),
    )
        .prop_map(|(ok, values, mut index)| {
            let mut seen = Vec::new();
            index.retain(|(tag, _)| {
                let new = !seen.contains(tag);
                seen.push(tag.clone());
                new
            });
            Struct { ok, values, index }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn streaming_writes_the_value_paths_bytes(result in result(), flags in flags()) {
        let (expected, thrown) = by_values(&result, flags);
        let mut out = Vec::new();
        let got = json::write_struct(&result, flags, &mut out);
        prop_assert_eq!(
            String::from_utf8_lossy(&out),
            String::from_utf8_lossy(&expected),
            "flags {}", flags
        );
        prop_assert_eq!(&out, &expected);
        match (got, thrown) {
            (Ok(()), None) => {}
            (Err(StructJsonError::Json(a)), Some(b)) => prop_assert_eq!(a, b),
            (got, thrown) => prop_assert!(false, "{got:?} against {thrown:?}"),
        }
        // The report's Vec form is the same writer.
        let mut report = Vec::new();
        let _ = phpxml::report::write_struct_json(&result, flags, &mut report);
        prop_assert_eq!(report, expected);
    }
}

#[test]
fn a_large_value_list_is_the_same_too() {
    // Many entries, so that the writer hands out several pieces.
    let entry = |i: i64| Entry {
        tag: b"ITEM".to_vec(),
        kind: EntryType::Complete,
        level: 2,
        attributes: Some(vec![(Key::Str(b"N".to_vec()), i.to_string().into_bytes())]),
        value: Some("caf\u{e9} <b> \u{2028}".as_bytes().to_vec()),
    };
    let result = Struct {
        ok: true,
        values: (0..20_000).map(entry).collect(),
        index: vec![(b"ITEM".to_vec(), (0..20_000).collect())],
    };
    for flags in [0, 128, 16 | 32, 256 | 64] {
        let flags = JsonFlags::from_bits(flags);
        let mut out = Vec::new();
        json::write_struct(&result, flags, &mut out).unwrap();
        assert_eq!(out, by_values(&result, flags).0, "flags {flags}");
        assert!(out.len() > 1 << 20);
    }
}

/// Pieces of a document whose ISO-8859-1 form may not be UTF-8: `é` is
/// one malformed byte there, while `Ã` then `©` (from two pieces, a
/// reference or a CDATA section) join into well-formed `C3 A9`.
const PIECES: [&str; 10] = [
    "a",
    "é",
    "Ã",
    "©",
    "&#xC3;",
    "&#xA9;",
    "<![CDATA[Ã]]>",
    " ",
    "\n",
    "&amp;",
];

/// Documents with such pieces in text and attribute values, and attribute
/// names that case folding makes duplicates (the later value wins).
fn document() -> impl Strategy<Value = Vec<u8>> {
    let attribute = (0usize..3, prop::collection::vec(0..PIECES.len(), 0..3));
    let step = (
        0u8..4,
        0..PIECES.len(),
        prop::collection::vec(attribute, 0..3),
    );
    prop::collection::vec(step, 0..40).prop_map(|steps| {
        let mut doc = String::from("<r>");
        let mut open = 0;
        for (op, piece, attributes) in steps {
            match op {
                0 | 3 => {
                    doc.push_str(if op == 0 { "<e" } else { "<x" });
                    for (name, value) in &attributes {
                        let name = ["k", "K", "l"][*name];
                        let value: String = value.iter().map(|&p| PIECES[p]).collect();
                        let value = value.replace("<![CDATA[Ã]]>", "Ã");
                        let _ = write!(doc, " {name}=\"{value}\"");
                    }
                    if op == 0 {
                        doc.push('>');
                        open += 1;
                    } else {
                        doc.push_str("/>");
                    }
                }
                1 => doc.push_str(PIECES[piece]),
                _ if open > 0 => {
                    doc.push_str("</e>");
                    open -= 1;
                }
                _ => doc.push_str(PIECES[piece]),
            }
        }
        doc.push_str(&"</e>".repeat(open));
        doc.push_str("</r>");
        doc.into_bytes()
    })
}

fn struct_json(data: &[u8], skip_white: bool, flags: JsonFlags, before_exit: bool) -> Vec<u8> {
    use phpxml::{OptionValue, Parser, XmlOption};
    let mut parser = Parser::new(Some("UTF-8")).expect("parser");
    let target = OptionValue::Str("ISO-8859-1".into());
    parser
        .set_option(XmlOption::TargetEncoding, target)
        .expect("target");
    let skip = OptionValue::Int(i64::from(skip_white));
    parser
        .set_option(XmlOption::SkipWhite, skip)
        .expect("skip white");
    let mut out = Vec::new();
    let written = if before_exit {
        phpxml::report::write_struct_json_output_before_exit(
            &mut parser,
            data.to_vec(),
            flags,
            &mut out,
        )
    } else {
        phpxml::report::write_struct_json_output(&mut parser, data.to_vec(), flags, &mut out)
    };
    out.extend_from_slice(format!("{:?}", written.err()).as_bytes());
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// The command's path, which stops keeping strings once `$values` is
    /// known to fail, prints what the full arrays print.
    #[test]
    fn dropping_strings_after_a_malformed_one_prints_the_same(
        data in document(),
        skip_white in any::<bool>(),
        flags in flags(),
    ) {
        let full = struct_json(&data, skip_white, flags, false);
        let dropping = struct_json(&data, skip_white, flags, true);
        prop_assert_eq!(
            String::from_utf8_lossy(&dropping),
            String::from_utf8_lossy(&full),
            "{}", String::from_utf8_lossy(&data)
        );
    }
}
