//! The start tag of an owned [`Event`](crate::Event): name, attribute
//! names and values in one buffer, so that an event costs one allocation.

use std::fmt;

use crate::php::array::Key;
use crate::php::packed::DebugBytes;

/// The bytes of one length in a [`StartTag`]'s buffer.
const LEN: usize = size_of::<usize>();

/// What the start element handler gets: the element name and PHP's
/// attribute array, held in one buffer (one allocation per start tag).
///
/// Strings are what the PHP handler gets (target encoding, case folding,
/// `XML_OPTION_SKIP_TAGSTART`); attributes come in the array's order, a
/// later duplicate having overwritten an earlier one in place. An
/// attribute name is given as bytes; [`Key::from_php_string`] makes the
/// PHP array key of it (an integer for a canonical integer, which no XML
/// name is).
///
/// ```
/// use phpxml::{Event, Parser, StartTag};
///
/// let mut events = Parser::new(None)?.events(&b"<a id='1' lang='fr'/>"[..]);
/// let Some(Ok(Event::StartElement(tag))) = events.next() else { panic!() };
/// assert_eq!(tag.name(), b"A");
/// assert_eq!(tag.attribute(b"LANG"), Some(&b"fr"[..]));
/// let attributes: Vec<(&[u8], &[u8])> = tag.attributes().collect();
/// assert_eq!(attributes, [(&b"ID"[..], &b"1"[..]), (&b"LANG"[..], &b"fr"[..])]);
/// assert_eq!(tag, StartTag::new("A", [("ID", "1"), ("LANG", "fr")]));
/// # Ok::<(), phpxml::Error>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct StartTag {
    /// The number of attributes, the lengths of the name and of each
    /// attribute's name and value (native-endian `usize`s), then those
    /// strings one after another.
    bytes: Vec<u8>,
}

impl StartTag {
    /// A start tag of `name` and `attributes` (names and values), taken
    /// as they are: no folding, no merging of duplicates.
    ///
    /// ```
    /// use phpxml::{Event, StartTag};
    ///
    /// let tag = StartTag::new(b"ITEM", [(b"ID", b"7")]);
    /// assert_eq!(tag.name(), b"ITEM");
    /// assert_eq!(Event::from(tag), Event::StartElement(StartTag::new("ITEM", [("ID", "7")])));
    /// assert_eq!(StartTag::bare("A"), StartTag::new("A", [] as [(&str, &str); 0]));
    /// ```
    #[must_use]
    pub fn new<N, K, V, I>(name: N, attributes: I) -> Self
    where
        N: AsRef<[u8]>,
        K: AsRef<[u8]>,
        V: AsRef<[u8]>,
        I: IntoIterator<Item = (K, V)>,
        I::IntoIter: Clone,
    {
        let attributes = attributes.into_iter();
        let mut tag = Self { bytes: Vec::new() };
        tag.fill(name.as_ref(), attributes.clone().count(), attributes);
        tag
    }

    /// Refills the buffer (keeping its allocation when large enough) with
    /// `name` and `count` attributes, whose strings `pairs` gives.
    fn fill<K, V>(&mut self, name: &[u8], count: usize, pairs: impl Iterator<Item = (K, V)> + Clone)
    where
        K: AsRef<[u8]>,
        V: AsRef<[u8]>,
    {
        let strings: usize = pairs
            .clone()
            .map(|(k, v)| k.as_ref().len() + v.as_ref().len())
            .sum();
        let bytes = &mut self.bytes;
        bytes.clear();
        bytes.reserve_exact((2 + 2 * count) * LEN + name.len() + strings);
        bytes.extend_from_slice(&count.to_ne_bytes());
        bytes.extend_from_slice(&name.len().to_ne_bytes());
        for (key, value) in pairs.clone() {
            bytes.extend_from_slice(&key.as_ref().len().to_ne_bytes());
            bytes.extend_from_slice(&value.as_ref().len().to_ne_bytes());
        }
        bytes.extend_from_slice(name);
        for (key, value) in pairs {
            bytes.extend_from_slice(key.as_ref());
            bytes.extend_from_slice(value.as_ref());
        }
    }

    /// A start tag of `name` without attributes.
    #[must_use]
    pub fn bare(name: impl AsRef<[u8]>) -> Self {
        Self::new(name, std::iter::empty::<(&[u8], &[u8])>())
    }

    /// The start tag the parser's handler call gives, in `self`'s buffer.
    pub(crate) fn refill(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        let pairs = attributes
            .iter()
            .map(|(key, value)| (key.to_bytes(), value));
        self.fill(name, attributes.len(), pairs);
    }

    /// The start tag of a handler call, in a buffer of its own.
    pub(crate) fn from_handler_call(name: &[u8], attributes: &[(Key, Vec<u8>)]) -> Self {
        let mut tag = Self { bytes: Vec::new() };
        tag.refill(name, attributes);
        tag
    }

    /// The `i`th length of the header.
    fn len_at(&self, i: usize) -> usize {
        self.bytes
            .get(i * LEN..(i + 1) * LEN)
            .and_then(|b| b.try_into().ok())
            .map_or(0, usize::from_ne_bytes)
    }

    /// The number of attributes.
    #[must_use]
    pub fn attribute_count(&self) -> usize {
        self.len_at(0)
    }

    /// Where the strings begin.
    fn strings_at(&self) -> usize {
        (2 + 2 * self.attribute_count()) * LEN
    }

    /// The element name.
    #[must_use]
    pub fn name(&self) -> &[u8] {
        let at = self.strings_at();
        self.bytes.get(at..at + self.len_at(1)).unwrap_or_default()
    }

    /// The attributes as `(name, value)` pairs, in PHP's array order.
    #[must_use]
    pub fn attributes(&self) -> Attributes<'_> {
        let strings_at = self.strings_at();
        Attributes {
            tag: self,
            next: 0,
            at: strings_at + self.len_at(1),
        }
    }

    /// The value of the attribute `name` (as the handler gets it: folded
    /// when case folding is on), if any.
    #[must_use]
    pub fn attribute(&self, name: &[u8]) -> Option<&[u8]> {
        self.attributes()
            .find_map(|(key, value)| (key == name).then_some(value))
    }

    /// PHP's attribute array, as the start element handler gets it.
    #[must_use]
    pub fn to_attribute_array(&self) -> Vec<(Key, Vec<u8>)> {
        self.attributes()
            .map(|(key, value)| (Key::from_php_string(key), value.to_vec()))
            .collect()
    }

    /// The buffer's capacity, for the reader's reuse of spent events.
    pub(crate) fn capacity(&self) -> usize {
        self.bytes.capacity()
    }
}

/// The attributes of a [`StartTag`], as `(name, value)` pairs: made by
/// [`StartTag::attributes`].
#[derive(Clone, Debug)]
pub struct Attributes<'a> {
    tag: &'a StartTag,
    /// The index of the next attribute.
    next: usize,
    /// Where its name begins.
    at: usize,
}

impl<'a> Iterator for Attributes<'a> {
    type Item = (&'a [u8], &'a [u8]);

    fn next(&mut self) -> Option<Self::Item> {
        if self.next >= self.tag.attribute_count() {
            return None;
        }
        let key_len = self.tag.len_at(2 + 2 * self.next);
        let value_len = self.tag.len_at(3 + 2 * self.next);
        let bytes = &self.tag.bytes;
        let key = bytes.get(self.at..self.at + key_len)?;
        let value = bytes.get(self.at + key_len..self.at + key_len + value_len)?;
        self.next += 1;
        self.at += key_len + value_len;
        Some((key, value))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.tag.attribute_count().saturating_sub(self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Attributes<'_> {}

/// `StartTag { name: b"A", attributes: [(b"ID", b"1")] }`, strings as
/// escaped byte strings.
impl fmt::Debug for StartTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StartTag")
            .field("name", &DebugBytes(self.name()))
            .field(
                "attributes",
                &self
                    .attributes()
                    .map(|(k, v)| (DebugBytes(k), DebugBytes(v)))
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}
