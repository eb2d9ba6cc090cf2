//! Property tests: every fast conversion against the plain reference, and
//! against `encoding_rs` where the two contracts coincide.

use phpxml::decode::{
    StreamDecoder, TargetEncoding, next_utf8_char, next_utf8_char_reference, utf8_decode,
    utf8_encode, xml_utf8_decode, xml_utf8_decode_into, xml_utf8_decode_reference_into,
};
use proptest::prelude::*;

/// Pieces that mix valid, invalid and truncated sequences of every width.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        // ASCII runs, long enough to span word and vector steps.
        proptest::collection::vec(0u8..0x80, 0..40),
        // Valid characters of every width.
        any::<char>().prop_map(|c| c.to_string().into_bytes()),
        "[\u{80}-\u{7FF}]{1,8}".prop_map(String::into_bytes),
        "[àéèçœ€ЖЯ中文😀]{1,8}".prop_map(String::into_bytes),
        // Arbitrary bytes: lone trails, C0/C1, F5..FF, broken sequences.
        proptest::collection::vec(any::<u8>(), 1..5),
        // A valid sequence cut short.
        any::<char>()
            .prop_filter("multi-byte", |c| c.len_utf8() > 1)
            .prop_flat_map(|c| {
                let bytes = c.to_string().into_bytes();
                let n = bytes.len();
                (Just(bytes), 1..n)
            })
            .prop_map(|(bytes, cut)| bytes[..cut].to_vec()),
        // Overlong, surrogate and out-of-range forms.
        prop_oneof![
            Just(vec![0xE0, 0x80, 0x80]),
            Just(vec![0xED, 0xA0, 0x80]),
            Just(vec![0xF0, 0x80, 0x80, 0x80]),
            Just(vec![0xF4, 0x90, 0x80, 0x80]),
            Just(vec![0xC0, 0xAF]),
        ],
    ]
}

fn mixed() -> impl Strategy<Value = Vec<u8>> {
    (0usize..64, proptest::collection::vec(piece(), 0..24)).prop_map(|(pad, pieces)| {
        let mut bytes = vec![b'.'; pad];
        for p in pieces {
            bytes.extend(p);
        }
        bytes
    })
}

fn reference(src: &[u8], target: TargetEncoding) -> Vec<u8> {
    let mut out = Vec::new();
    xml_utf8_decode_reference_into(src, target, &mut out);
    out
}

/// The character-by-character loop over the reference decoder, written out
/// once more without the library's helpers.
fn per_character(src: &[u8], limit: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < src.len() {
        let c = next_utf8_char_reference(src, pos);
        let ok = c.status == phpxml::decode::Status::Success && c.code_point <= limit;
        out.push(if ok {
            u8::try_from(c.code_point).unwrap()
        } else {
            b'?'
        });
        pos = c.cursor;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn bulk_equals_the_reference_loop(src in mixed()) {
        prop_assert_eq!(xml_utf8_decode(&src, TargetEncoding::Iso8859_1), per_character(&src, 0xFF));
        prop_assert_eq!(xml_utf8_decode(&src, TargetEncoding::UsAscii), per_character(&src, 0x7F));
        prop_assert_eq!(xml_utf8_decode(&src, TargetEncoding::Utf8), src.clone());
        for target in TargetEncoding::ALL {
            prop_assert_eq!(xml_utf8_decode(&src, target), reference(&src, target));
        }
    }

    /// Long well-formed text with a few bytes replaced: runs of many
    /// 64-byte windows, each corruption met at any lane.
    #[test]
    fn bulk_equals_the_reference_on_long_text_with_rare_damage(
        text in "[a-z \u{80}-\u{7FF}àéЖЯ中文€😀\u{10000}-\u{10FFFF}]{0,300}",
        damage in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
    ) {
        let mut src = text.into_bytes();
        if !src.is_empty() {
            for (at, byte) in damage {
                let at = at.index(src.len());
                src[at] = byte;
            }
        }
        for target in TargetEncoding::ALL {
            prop_assert_eq!(xml_utf8_decode(&src, target), reference(&src, target));
        }
    }

    #[test]
    fn bulk_appends_to_the_callers_buffer(prefix in proptest::collection::vec(any::<u8>(), 0..20), src in mixed()) {
        for target in TargetEncoding::ALL {
            let mut out = prefix.clone();
            xml_utf8_decode_into(&src, target, &mut out);
            let mut expected = prefix.clone();
            expected.extend(reference(&src, target));
            prop_assert_eq!(out, expected);
        }
    }

    #[test]
    fn padding_moves_every_sequence_across_word_edges(src in mixed()) {
        for pad in 0..64 {
            let mut padded = vec![b'x'; pad];
            padded.extend_from_slice(&src);
            padded.extend(std::iter::repeat_n(b'y', 64 - pad));
            prop_assert_eq!(
                xml_utf8_decode(&padded, TargetEncoding::Iso8859_1),
                reference(&padded, TargetEncoding::Iso8859_1),
                "pad {}", pad
            );
        }
    }

    #[test]
    fn the_inline_decoder_walks_like_the_reference(src in mixed()) {
        let mut pos = 0;
        while pos < src.len() {
            let c = next_utf8_char(&src, pos);
            prop_assert_eq!(c, next_utf8_char_reference(&src, pos));
            pos = c.cursor;
        }
    }

    #[test]
    fn streaming_equals_whole_for_every_block_size(src in mixed()) {
        for target in TargetEncoding::ALL {
            let whole = xml_utf8_decode(&src, target);
            for block in 1..=17 {
                let mut stream = StreamDecoder::new(target);
                let mut out = Vec::new();
                for piece in src.chunks(block) {
                    stream.decode(piece, false, &mut out);
                }
                stream.decode(&[], true, &mut out);
                prop_assert_eq!(&out, &whole, "block {}", block);
                // The last block may also carry the data.
                let mut stream = StreamDecoder::new(target);
                let mut out = Vec::new();
                let mut pieces = src.chunks(block).peekable();
                while let Some(piece) = pieces.next() {
                    stream.decode(piece, pieces.peek().is_none(), &mut out);
                }
                if src.is_empty() {
                    stream.decode(&[], true, &mut out);
                }
                prop_assert_eq!(&out, &whole, "block {} (data in the last block)", block);
                // Into one reused buffer, never cleared, of the least size.
                let mut stream = StreamDecoder::new(target);
                let mut buffer = vec![0xAA; StreamDecoder::max_output(block)];
                let mut out = Vec::new();
                for piece in src.chunks(block) {
                    let n = stream.decode_to_slice(piece, false, &mut buffer);
                    out.extend_from_slice(&buffer[..n]);
                }
                let n = stream.decode_to_slice(&[], true, &mut buffer);
                out.extend_from_slice(&buffer[..n]);
                prop_assert_eq!(&out, &whole, "block {} (into a slice)", block);
            }
        }
    }

    #[test]
    fn utf8_encode_then_decode_round_trips(src in proptest::collection::vec(any::<u8>(), 0..300)) {
        let encoded = utf8_encode(&src);
        prop_assert!(std::str::from_utf8(&encoded).is_ok());
        prop_assert_eq!(utf8_decode(&encoded), src);
    }

    // encoding_rs where the contracts coincide.

    #[test]
    fn latin1_text_matches_encoding_rs(text in "[\u{0}-\u{FF}]{0,200}", pad in 0usize..40) {
        let text = format!("{}{text}", " ".repeat(pad));
        let mut expected = vec![0; text.len()];
        let n = encoding_rs::mem::convert_utf8_to_latin1_lossy(text.as_bytes(), &mut expected);
        expected.truncate(n);
        prop_assert_eq!(utf8_decode(text.as_bytes()), expected);
    }

    #[test]
    fn utf8_encode_matches_encoding_rs(src in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut expected = vec![0; src.len() * 2];
        let n = encoding_rs::mem::convert_latin1_to_utf8(&src, &mut expected);
        expected.truncate(n);
        prop_assert_eq!(utf8_encode(&src), expected);
    }

    #[test]
    fn valid_utf8_decodes_to_encoding_rs_code_points(text in any::<String>()) {
        let (decoded, _, had_errors) = encoding_rs::UTF_8.decode(text.as_bytes());
        prop_assert!(!had_errors);
        let expected: Vec<u32> = decoded.chars().map(u32::from).collect();
        let mut got = Vec::new();
        let bytes = text.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            let c = next_utf8_char(bytes, pos);
            prop_assert_eq!(c.status, phpxml::decode::Status::Success);
            got.push(c.code_point);
            pos = c.cursor;
        }
        prop_assert_eq!(got, expected);
    }
}
