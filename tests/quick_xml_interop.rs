//! Events written out with `quick_xml::Writer` and parsed again give the
//! same events: a service can receive XML with PHP's semantics and emit it
//! with quick-xml.

use phpxml::{Event, HandlerSet, Parser};
use quick_xml::Writer;

const DOCS: [&str; 5] = [
    "<feed><entry id='1' lang=\"fr\"><title>Caf\u{e9} &amp; cr\u{e8}me</title></entry></feed>",
    "<?xml version='1.0'?><!DOCTYPE r [<!ENTITY e 'expanded &#60;text&#62;'>]>\
     <r a='&lt;&quot;&apos;&gt;&amp;'>&e;<![CDATA[<raw> & ]]>\u{20ac}</r>",
    "<r><?php echo 1; ?><?empty?><!-- a comment --><e/><e></e> text </r>",
    "<R><a-b.c d_e='x'>1 &lt; 2 &gt; 0</a-b.c></R>",
    "<r>line\nbreak\ttab \u{1F600}</r>",
];

/// The events of `doc`, text pieces joined, comments included.
fn events(doc: &[u8]) -> Vec<Event> {
    Parser::new(None)
        .unwrap()
        .events(doc)
        .with_handlers(HandlerSet {
            default: true,
            ..HandlerSet::COMMON
        })
        .coalesce_text(true)
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn written_events_parse_to_the_same_events() {
    for doc in DOCS {
        let first = events(doc.as_bytes());
        let mut writer = Writer::new(Vec::new());
        let mut written = Vec::new();
        for event in &first {
            if let Some(quick) = event.to_quick_xml() {
                writer.write_event(quick).unwrap();
                written.push(event.clone());
            }
        }
        assert!(written.len() >= 3, "{doc}: {written:?}");
        let out = writer.into_inner();
        let second = events(&out);
        assert_eq!(
            second,
            written,
            "{doc}\nwritten as {}",
            String::from_utf8_lossy(&out)
        );
    }
}

#[test]
fn latin1_bytes_have_no_quick_xml_event() {
    let mut events = Parser::new(Some("ISO-8859-1"))
        .unwrap()
        .events("<a>caf\u{e9}</a>".as_bytes())
        .coalesce_text(true);
    let start = events.next().unwrap().unwrap();
    assert!(start.to_quick_xml().is_some());
    let text = events.next().unwrap().unwrap();
    assert_eq!(text, Event::CharacterData(b"caf\xE9".to_vec()));
    assert!(text.to_quick_xml().is_none());
}
