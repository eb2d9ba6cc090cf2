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
