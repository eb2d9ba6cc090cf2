//! The parser, one shot, with fuzzer-chosen creation, options and handlers
//! (see `phpxml_fuzz::Setup`): `xml_parse_into_struct()` with its report, a
//! trace with every handler set (the document borrowed, then given away:
//! the same trace), and a parse with the chosen handlers, as bytes and,
//! for a UTF-8 target, as `&str` (the same calls). Any
//! panic, hang or abort is a finding; so is a report the command line could
//! not print.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phpxml::TargetEncoding;
use phpxml::report::{self, Trace};
use phpxml::testing::Utf8AsBytes;
use phpxml_fuzz::{Recorder, Setup, assert_utf8_record};

fuzz_target!(|data: &[u8]| {
    let Some((setup, doc)) = Setup::split(data) else {
        return;
    };
    let doc = &*setup.document(doc);
    // struct.php's and trace.php's output.
    let mut parser = setup.parser().expect("valid options");
    let out = report::struct_output(&mut parser, doc.to_vec(), false);
    assert!(out.ends_with(b"\"\n"), "the result line ends the report");
    let mut parser = setup.parser().expect("valid options");
    let mut trace = Trace::new();
    let ok = parser.parse(&mut trace, doc, true);
    let out = trace.finish(&parser, ok, false);
    assert!(out.ends_with(b"\"\n"), "the result line ends the report");
    // The document given away: the same trace.
    let mut parser = setup.parser().expect("valid options");
    let mut trace = Trace::new();
    let ok = parser.parse_owned(&mut trace, doc.to_vec());
    assert_eq!(trace.finish(&parser, ok, false), out, "given away");
    let Some(mut parser) = setup.parser() else {
        return;
    };
    let mut recorder = Recorder::new(setup.handlers);
    let ok = parser.parse(&mut recorder, doc, true);
    let record = recorder.finish(&parser, ok);
    assert!(!record.is_empty());
    // The same parse through `&str` handlers when the target is UTF-8:
    // the same record, or, with `Error::NotUtf8`, the record up to the
    // first string that is not UTF-8 (a text cut there).
    if let Some(mut parser) = setup.parser()
        && parser.target_encoding() == TargetEncoding::Utf8
    {
        let mut utf8 = Utf8AsBytes(Recorder::new(setup.handlers));
        let result = parser.feed_utf8(&mut utf8, doc, true);
        let not_utf8 = matches!(result, Err(phpxml::Error::NotUtf8));
        let got = utf8.0.finish(&parser, result.is_ok());
        assert_utf8_record(&record, &got, not_utf8);
    }
    // A finished parser stays finished: more input changes nothing.
    let code = parser.error_code();
    let again = parser.parse(&mut Recorder::new(setup.handlers), b"<more/>", true);
    assert!(!again || ok);
    if code != 0 {
        assert_eq!(parser.error_code(), code);
    }
    // parse_into_struct with the chosen handlers set.
    if let Some(mut parser) = setup.parser() {
        let mut recorder = Recorder::new(setup.handlers);
        let result = parser.parse_into_struct_with(&mut recorder, doc);
        let mut out = Vec::new();
        report::write_struct(&result, &parser, false, &mut out);
    }
});
