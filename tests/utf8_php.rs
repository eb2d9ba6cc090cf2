//! `utf8_decode()` and `utf8_encode()` against PHP 8.2 itself: the table in
//! `fixtures/utf8/cases.txt` was printed by `fixtures/utf8/capture.php`
//! (every byte, every lead with boundary second bytes, three- and four-byte
//! edges, truncations, overlongs, surrogates, the vectors of PHP's
//! bug49687.phpt and bug43957.phpt).

mod common;

use common::unhex;
use phpxml::decode::{StreamDecoder, TargetEncoding, utf8_decode, utf8_encode};

fn cases() -> Vec<[Vec<u8>; 3]> {
    let table = include_str!("../fixtures/utf8/cases.txt");
    table
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(fields.len(), 3, "bad line {line:?}");
            [unhex(fields[0]), unhex(fields[1]), unhex(fields[2])]
        })
        .collect()
}

#[test]
fn utf8_decode_matches_php() {
    let cases = cases();
    assert!(cases.len() > 3000);
    for [input, decoded, _] in &cases {
        assert_eq!(&utf8_decode(input), decoded, "utf8_decode({input:02X?})");
    }
}

#[test]
fn utf8_decode_matches_php_inside_ascii_and_streamed() {
    // Each case between ASCII padding that moves it across word edges, and
    // through the streaming decoder one byte at a time.
    for [input, decoded, _] in &cases() {
        for pad in [1, 7, 15, 16, 17, 31] {
            let mut padded = vec![b'a'; pad];
            padded.extend_from_slice(input);
            padded.extend_from_slice(b"z");
            let mut expected = vec![b'a'; pad];
            expected.extend_from_slice(decoded);
            expected.extend_from_slice(b"z");
            assert_eq!(utf8_decode(&padded), expected, "{input:02X?} after {pad}");
        }
        let mut stream = StreamDecoder::new(TargetEncoding::Iso8859_1);
        let mut out = Vec::new();
        for byte in input {
            stream.decode(std::slice::from_ref(byte), false, &mut out);
        }
        stream.decode(&[], true, &mut out);
        assert_eq!(&out, decoded, "streamed {input:02X?}");
    }
}

#[test]
fn utf8_encode_matches_php() {
    for [input, _, encoded] in &cases() {
        assert_eq!(&utf8_encode(input), encoded, "utf8_encode({input:02X?})");
    }
}
