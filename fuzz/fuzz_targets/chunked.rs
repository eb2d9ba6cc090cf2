//! The parser fed in fuzzer-chosen chunks against one shot: the same
//! handler calls (adjacent character data merged), the same return value and
//! the same error code, line, column and byte index. Inputs whose outcome
//! depends on chunking in PHP itself are excluded by `chunking_matters`
//! (see `fuzz/src/chunking.rs`). For a UTF-8 target the same pieces go
//! through `&str` handlers too: the same calls as the byte handlers.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phpxml::TargetEncoding;
use phpxml::testing::Utf8AsBytes;
use phpxml_fuzz::{Outcome, Plan, Recorder, Setup, assert_utf8_record};

fuzz_target!(|data: &[u8]| {
    let Some((setup, rest)) = Setup::split(data) else {
        return;
    };
    let Some((plan, doc)) = Plan::split(rest) else {
        return;
    };
    let doc = &*setup.document(doc);
    let Some(mut one) = setup.parser() else {
        return;
    };
    let mut whole = Recorder::new(setup.handlers);
    let ok = one.parse(&mut whole, doc, true);
    let whole = whole.finish(&one, ok);

    // Every piece with is_final = false, then "" with is_final = true. Not
    // trace.php's --chunk loop, which stops at the first failure: errors
    // that do not stop libxml2 (namespace errors 200-203, 99) make that
    // chunk return 0 while parsing goes on, so stopping there would cut
    // the trace short.
    let mut chunked = setup.parser().expect("same options");
    let mut rec = Recorder::new(setup.handlers);
    for piece in plan.pieces(doc) {
        let _ = chunked.parse(&mut rec, piece, false);
    }
    let ok = chunked.parse(&mut rec, b"", true);
    let pieces = rec.finish(&chunked, ok);
    // The same pieces through `&str` handlers when the target is UTF-8.
    if let Some(mut parser) = setup.parser()
        && parser.target_encoding() == TargetEncoding::Utf8
    {
        let mut utf8 = Utf8AsBytes(Recorder::new(setup.handlers));
        let mut not_utf8 = false;
        for piece in plan.pieces(doc) {
            let result = parser.feed_utf8(&mut utf8, piece, false);
            not_utf8 |= matches!(result, Err(phpxml::Error::NotUtf8));
        }
        let last = parser.feed_utf8(&mut utf8, b"", true);
        not_utf8 |= matches!(last, Err(phpxml::Error::NotUtf8));
        let got = utf8.0.finish(&parser, last.is_ok());
        assert_utf8_record(&pieces, &got, not_utf8);
    }
    let boundaries = plan.boundaries(doc.len());
    let outcome = |p: &phpxml::Parser| Outcome {
        code: p.error_code(),
        line: p.line(),
        column: p.column(),
        index: p.byte_index(),
    };
    let same_calls = whole[..whole.len() - 1] == pieces[..pieces.len() - 1];
    if phpxml_fuzz::chunking_matters(
        doc,
        &boundaries,
        outcome(&chunked),
        outcome(&one),
        same_calls,
    ) {
        // With PHPXML_FUZZ_COLLECT_EXCLUDED set (and PHPXML_FUZZ_COLLECT) these are kept too, to check the
        // exclusions against PHP.
        if whole != pieces && std::env::var_os("PHPXML_FUZZ_COLLECT_EXCLUDED").is_some() {
            collect(data);
        }
        return;
    }
    if whole != pieces && collect(data) {
        return;
    }
    if whole != pieces {
        let show = |r: &[Vec<u8>]| {
            r.iter()
                .map(|l| String::from_utf8_lossy(l).into_owned())
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "chunked {:?} differs from one shot (args {:?})\n--- one shot\n{}\n--- chunked\n{}",
            plan.sizes,
            setup.args,
            show(&whole),
            show(&pieces)
        );
    }
});

/// With `PHPXML_FUZZ_COLLECT=DIR` a difference is saved there (up to 5000
/// files) instead of failing, so that many can be checked against PHP at
/// once (`fuzz/php-triage.py`).
fn collect(data: &[u8]) -> bool {
    let Some(dir) = std::env::var_os("PHPXML_FUZZ_COLLECT") else {
        return false;
    };
    let dir = std::path::PathBuf::from(dir);
    let _ = std::fs::create_dir_all(&dir);
    if std::fs::read_dir(&dir).map_or(0, Iterator::count) < 5000 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        std::hash::Hash::hash(data, &mut h);
        let name = format!("{:016x}", std::hash::Hasher::finish(&h));
        let _ = std::fs::write(dir.join(name), data);
    }
    true
}
