//! [`Event`]s as quick-xml events, to write them out with
//! [`quick_xml::Writer`].

use quick_xml::events::{BytesEnd, BytesPI, BytesStart, BytesText, Event as QuickEvent};

use crate::php::events::Event;

impl Event {
    /// This event as a [`quick_xml::events::Event`] borrowing from it, for
    /// a [`quick_xml::Writer`] (which escapes text and attribute values):
    /// elements, character data, processing instructions, and comments
    /// (which reach only the default handler). `None` for what has no
    /// quick-xml counterpart or cannot be one: declarations, entity and
    /// namespace events, default-handler data other than a comment, and
    /// strings that are not UTF-8 (an ISO-8859-1 or US-ASCII target with
    /// non-ASCII text; quick-xml writes `&str`).
    ///
    /// An empty-element tag gives a start and an end event, so it is
    /// written as `<a></a>`, which PHP parses to the same two events.
    ///
    /// ```
    /// use phpxml::Parser;
    /// use quick_xml::Writer;
    ///
    /// let mut writer = Writer::new(Vec::new());
    /// for event in Parser::new(None)?.events(&b"<a x='1&amp;2'>caf\xC3\xA9 &lt;<b/></a>"[..]) {
    ///     if let Some(event) = event?.to_quick_xml() {
    ///         writer.write_event(event)?;
    ///     }
    /// }
    /// assert_eq!(writer.into_inner(), "<A X=\"1&amp;2\">café &lt;<B></B></A>".as_bytes());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn to_quick_xml(&self) -> Option<QuickEvent<'_>> {
        Some(match self {
            Self::StartElement(tag) => {
                let mut start = BytesStart::new(text(tag.name())?);
                for (key, value) in tag.attributes() {
                    start.push_attribute((text(key)?, text(value)?));
                }
                QuickEvent::Start(start)
            }
            Self::EndElement { name } => QuickEvent::End(BytesEnd::new(text(name)?)),
            Self::CharacterData(data) => QuickEvent::Text(BytesText::new(text(data)?)),
            Self::ProcessingInstruction(pi) => {
                let target = text(pi.target())?;
                QuickEvent::PI(BytesPI::new(match pi.data() {
                    Some(data) => format!("{target} {}", text(data)?),
                    None => target.to_owned(),
                }))
            }
            Self::Default(data) => {
                let comment = data.strip_prefix(b"<!--")?.strip_suffix(b"-->")?;
                QuickEvent::Comment(BytesText::from_escaped(text(comment)?))
            }
            _ => return None,
        })
    }
}

/// `bytes` as `&str`, if UTF-8.
fn text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes).ok()
}
