//! The decoder against its reference: every cursor of `next_utf8_char`, and
//! bulk conversion to every target (appended after 0..15 bytes already in
//! the output, so the kernels meet every alignment) against the
//! character-by-character reference conversion.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phpxml::decode::{
    TargetEncoding, next_utf8_char, next_utf8_char_reference, utf8_decode, utf8_encode,
    xml_utf8_decode_into, xml_utf8_decode_reference_into,
};

fuzz_target!(|data: &[u8]| {
    let Some((&pad, src)) = data.split_first() else {
        return;
    };
    for cursor in 0..=src.len() + 1 {
        assert_eq!(
            next_utf8_char(src, cursor),
            next_utf8_char_reference(src, cursor),
            "cursor {cursor}"
        );
    }
    let pad = usize::from(pad & 15);
    for target in TargetEncoding::ALL {
        let mut fast = vec![b'#'; pad];
        xml_utf8_decode_into(src, target, &mut fast);
        let mut reference = vec![b'#'; pad];
        xml_utf8_decode_reference_into(src, target, &mut reference);
        assert_eq!(fast, reference, "{target}");
        // The input at an odd offset of its allocation.
        let shifted = [&[0u8][..], src].concat();
        let mut again = Vec::new();
        xml_utf8_decode_into(&shifted[1..], target, &mut again);
        assert_eq!(again[..], reference[pad..], "{target}, shifted");
    }
    let mut latin1 = Vec::new();
    xml_utf8_decode_reference_into(src, TargetEncoding::Iso8859_1, &mut latin1);
    assert_eq!(utf8_decode(src), latin1);
    // utf8_encode: each byte is the code point of that value.
    let expected: String = src.iter().map(|&b| char::from(b)).collect();
    assert_eq!(utf8_encode(src), expected.as_bytes());
});
