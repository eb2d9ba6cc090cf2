//! `phpxml decode` streaming: a `StreamDecoder` fed in fuzzer-chosen blocks
//! (as the command line feeds 64 KiB blocks, then an empty last block) gives
//! exactly the whole-input conversion. Also with the last block non-empty.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phpxml::decode::{StreamDecoder, TargetEncoding, xml_utf8_decode};
use phpxml_fuzz::Plan;

fuzz_target!(|data: &[u8]| {
    let Some((&t, rest)) = data.split_first() else {
        return;
    };
    let Some((plan, src)) = Plan::split(rest) else {
        return;
    };
    let target = TargetEncoding::ALL[usize::from(t % 3)];
    let whole = xml_utf8_decode(src, target);

    // As the command line: every block with last = false, then "" with last = true.
    let mut stream = StreamDecoder::new(target);
    let mut out = Vec::new();
    for block in plan.pieces(src) {
        stream.decode(block, false, &mut out);
    }
    stream.decode(b"", true, &mut out);
    assert_eq!(out, whole, "blocks then an empty last block");

    // The last block carries data and last = true.
    let pieces: Vec<&[u8]> = plan.pieces(src).collect();
    let mut stream = StreamDecoder::new(target);
    let mut out = Vec::new();
    for (i, block) in pieces.iter().enumerate() {
        stream.decode(block, i + 1 == pieces.len(), &mut out);
    }
    if pieces.is_empty() {
        stream.decode(b"", true, &mut out);
    }
    assert_eq!(out, whole, "last block with data");

    // Empty blocks in between change nothing.
    let mut stream = StreamDecoder::new(target);
    let mut out = Vec::new();
    for block in &pieces {
        stream.decode(b"", false, &mut out);
        stream.decode(block, false, &mut out);
    }
    stream.decode(b"", true, &mut out);
    assert_eq!(out, whole, "with empty blocks");
});
