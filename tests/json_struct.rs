//! `Serialize` for `xml_parse_into_struct()`'s result (feature `serde`)
//! against PHP's `json_encode()` of the same arrays, captured in
//! `fixtures/json-struct/NAME.{xml,args,out}` by `fixtures/json-struct/capture`.
//!
//! Where PHP's output is JSON, ours is the same JSON value, key order
//! included (PHP escapes `/` and non-ASCII characters, `serde_json` does not,
//! so the bytes differ). Where PHP fails (`false 5`: strings that are not
//! UTF-8), ours still succeeds and gives back every byte.
#![cfg(feature = "serde")]

mod common;

use std::path::Path;

use common::corpus::{self, Case};
use phpxml::testing::{Command, Invocation};
use phpxml::{Entry, Key, Parser, Struct};
use serde_json::Value;

/// The cases of fixtures/json-struct.
fn cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/json-struct");
    let cases = corpus::cases_in(&dir, corpus::MIN_JSON_STRUCT_CASES);
    assert!(cases.iter().all(|c| c.script == "json"));
    cases
}

/// The parser of a case's options.
fn parser_of(case: &Case) -> Parser {
    let inv = Invocation::parse(Command::Struct, &case.opts).unwrap();
    inv.make_parser().unwrap()
}

/// A string or serde bytes (an array of numbers) back to bytes.
fn bytes(v: &Value) -> Vec<u8> {
    match v {
        Value::String(s) => s.as_bytes().to_vec(),
        Value::Array(a) => a
            .iter()
            .map(|b| u8::try_from(b.as_u64().unwrap()).unwrap())
            .collect(),
        other => panic!("not a string: {other}"),
    }
}

/// A map key back to bytes.
fn key_bytes(k: &str) -> Vec<u8> {
    match k.strip_prefix("$bytes:") {
        Some(hex) => (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect(),
        None => k.as_bytes().to_vec(),
    }
}

/// The serialized values and index give back the struct, byte for byte.
fn assert_lossless(result: &Struct, values: &Value, index: &Value) {
    let values = values.as_array().unwrap();
    assert_eq!(values.len(), result.values.len());
    for (v, e) in values.iter().zip(&result.values) {
        let Entry {
            tag,
            kind,
            level,
            attributes,
            value,
        } = e;
        assert_eq!(bytes(&v["tag"]), *tag);
        assert_eq!(v["type"], kind.as_str());
        assert_eq!(v["level"], *level);
        assert_eq!(v.get("value").map(bytes), *value);
        match (v.get("attributes"), attributes) {
            (None, None) => {}
            (Some(Value::Object(m)), Some(a)) => {
                let back: Vec<(Key, Vec<u8>)> = m
                    .iter()
                    .map(|(k, v)| (Key::from_php_string(&key_bytes(k)), bytes(v)))
                    .collect();
                assert_eq!(back, *a);
            }
            other => panic!("attributes {other:?}"),
        }
    }
    match index {
        Value::Array(a) => assert!(a.is_empty() && result.index.is_empty()),
        Value::Object(m) => {
            let back: Vec<(Vec<u8>, Vec<i64>)> = m
                .iter()
                .map(|(k, v)| {
                    let p = v.as_array().unwrap().iter();
                    (key_bytes(k), p.map(|n| n.as_i64().unwrap()).collect())
                })
                .collect();
            assert_eq!(back, result.index);
        }
        other => panic!("index {other}"),
    }
}

#[test]
fn struct_serializes_as_php_json_encode() {
    let cases = cases();
    let (mut equal, mut lossless) = (0, 0);
    for case in &cases {
        let mut parser = parser_of(case);
        let result = parser.parse_into_struct(&case.read_xml());

        let values = serde_json::to_value(&result.values).unwrap();
        let index = serde_json::to_value(result.index_array()).unwrap();
        let whole = serde_json::to_value(&result).unwrap();
        assert_eq!(whole["ok"], result.ok);
        assert_eq!(whole["values"], values);
        assert_eq!(whole["index"], index);
        assert_lossless(&result, &values, &index);

        let php = String::from_utf8(case.expected.clone()).unwrap();
        let php: Vec<&str> = php.lines().collect();
        assert_eq!(php.len(), 2, "{}", case.name);
        for (line, ours) in php.iter().zip([&values, &index]) {
            if *line == "false 5" {
                // JSON_ERROR_UTF8: some string is not UTF-8.
                lossless += 1;
                continue;
            }
            let theirs: Value = serde_json::from_str(line).unwrap();
            // `Value` keeps key order (preserve_order): compare as text.
            assert_eq!(
                serde_json::to_string(ours).unwrap(),
                serde_json::to_string(&theirs).unwrap(),
                "{}",
                case.name
            );
            equal += 1;
        }
    }
    println!(
        "{equal} arrays equal PHP's json_encode(), {lossless} that PHP cannot encode kept losslessly"
    );
    assert!(equal >= 90);
}

/// Every event of every document serializes, whatever its encoding, and
/// gives its strings back.
#[test]
fn events_serialize() {
    let mut n = 0;
    for case in &cases() {
        let parser = parser_of(case);
        let data = case.read_xml();
        let events: Vec<phpxml::Event> = parser
            .events(&data[..])
            .with_handlers(phpxml::HandlerSet::ALL)
            .filter_map(Result::ok)
            .collect();
        let json = serde_json::to_value(&events).unwrap();
        let json = json.as_array().unwrap();
        assert_eq!(json.len(), events.len());
        for (v, e) in json.iter().zip(&events) {
            match e {
                phpxml::Event::StartElement(tag) => {
                    let (_, fields) = v.as_object().unwrap().iter().next().unwrap();
                    assert_eq!(bytes(&fields["name"]), tag.name());
                }
                phpxml::Event::EndElement { name } => {
                    let (_, fields) = v.as_object().unwrap().iter().next().unwrap();
                    assert_eq!(bytes(&fields["name"]), *name);
                }
                phpxml::Event::CharacterData(text) => {
                    assert_eq!(bytes(&v["CharacterData"]), *text);
                }
                _ => {}
            }
            n += 1;
        }
    }
    assert!(n > 1000, "{n}");
}

#[test]
fn non_utf8_strings_are_bytes_and_keys_are_hex() {
    let mut parser = phpxml::Parser::new(Some("ISO-8859-1")).unwrap();
    parser.set_case_folding(false);
    let result = parser.parse_into_struct("<é a='é'>é</é>".as_bytes());
    assert_eq!(
        serde_json::to_string(&result).unwrap(),
        r#"{"ok":true,"values":[{"tag":[233],"type":"complete","level":1,"attributes":{"a":[233]},"value":[233]}],"index":{"$bytes:e9":[0]}}"#
    );
}
