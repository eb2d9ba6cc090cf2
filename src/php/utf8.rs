//! Handlers that take `&str`: a parser whose target encoding is UTF-8
//! gives its names and texts as UTF-8 (but in the two cases
//! [`Error::NotUtf8`] names), so [`Utf8Handler`] receives them as `&str`
//! instead of bytes.

use crate::decode::TargetEncoding;
use crate::php::array::Key;
use crate::php::errors::Error;
use crate::php::handler::{Handler, HandlerSet};
use crate::php::parser::Parser;

/// PHP's handlers with `&str` arguments, for a parser whose target
/// encoding is UTF-8, driven by [`Parser::feed_utf8`]. The methods, their
/// routing ([`installed`](Self::installed)) and their PHP counterparts are
/// those of [`Handler`]; only the strings differ. Attributes come as
/// `(name, value)` pairs in PHP's array order.
///
/// The target encoding is checked by every [`Parser::feed_utf8`] call, so
/// an ISO-8859-1 or US-ASCII target (set at creation or changed between
/// calls with [`Parser::set_target_encoding`] or
/// [`Parser::set_option`]) is refused with [`Error::TargetNotUtf8`] before
/// any handler is called: no `&str` is ever made of Latin-1 bytes. A
/// string that is not UTF-8 even so (a tag name cut inside a character
/// by `XML_OPTION_SKIP_TAGSTART`, or bytes after an encoding error)
/// stops the parse before its call, with [`Error::NotUtf8`].
///
/// ```
/// use phpxml::{Parser, Utf8Handler};
///
/// #[derive(Default)]
/// struct Titles { inside: bool, titles: Vec<String> }
///
/// impl Utf8Handler for Titles {
///     fn start_element(&mut self, name: &str, attributes: &[(&str, &str)]) {
///         self.inside = name == "TITLE";
///         if self.inside {
///             let lang = attributes.iter().find(|(k, _)| *k == "LANG").map_or("", |(_, v)| *v);
///             self.titles.push(format!("[{lang}] "));
///         }
///     }
///     fn character_data(&mut self, data: &str) {
///         if let (true, Some(title)) = (self.inside, self.titles.last_mut()) {
///             title.push_str(data);
///         }
///     }
///     fn end_element(&mut self, _name: &str) {
///         self.inside = false;
///     }
/// }
///
/// let mut parser = Parser::new(None)?;
/// let mut titles = Titles::default();
/// parser.feed_utf8(&mut titles, "<r><title lang='fr'>Les Misérables</title></r>".as_bytes(), true)?;
/// assert_eq!(titles.titles, ["[fr] Les Misérables"]);
///
/// // A Latin-1 target cannot feed a UTF-8 handler.
/// let mut latin1 = Parser::new(Some("ISO-8859-1"))?;
/// assert!(latin1.feed_utf8(&mut titles, b"<r/>", true).is_err());
/// # Ok::<(), phpxml::Error>(())
/// ```
#[allow(unused_variables)]
pub trait Utf8Handler {
    /// Which handlers count as set, as [`Handler::installed`]. Default:
    /// [`HandlerSet::COMMON`].
    fn installed(&self) -> HandlerSet {
        HandlerSet::COMMON
    }

    /// [`Handler::start_element`]: attributes as `(name, value)` pairs.
    fn start_element(&mut self, name: &str, attributes: &[(&str, &str)]) {}

    /// [`Handler::end_element`].
    fn end_element(&mut self, name: &str) {}

    /// [`Handler::character_data`].
    fn character_data(&mut self, data: &str) {}

    /// [`Handler::processing_instruction`].
    fn processing_instruction(&mut self, target: &str, data: Option<&str>) {}

    /// [`Handler::default_data`].
    fn default_data(&mut self, data: &str) {}

    /// [`Handler::unparsed_entity_decl`].
    fn unparsed_entity_decl(
        &mut self,
        name: &str,
        base: Option<&str>,
        system_id: Option<&str>,
        public_id: Option<&str>,
        notation: Option<&str>,
    ) {
    }

    /// [`Handler::notation_decl`].
    fn notation_decl(
        &mut self,
        name: &str,
        base: Option<&str>,
        system_id: Option<&str>,
        public_id: Option<&str>,
    ) {
    }

    /// [`Handler::external_entity_ref`]: `false` stops the parse with
    /// error 21.
    fn external_entity_ref(
        &mut self,
        open_entity_names: &str,
        base: Option<&str>,
        system_id: Option<&str>,
        public_id: Option<&str>,
    ) -> bool {
        true
    }

    /// [`Handler::start_namespace_decl`].
    fn start_namespace_decl(&mut self, prefix: Option<&str>, uri: &str) {}

    /// [`Handler::end_namespace_decl`] (never called with libxml2).
    fn end_namespace_decl(&mut self, prefix: Option<&str>) {}

    /// [`Handler::stop_requested`]: `true` stops the parse as libxml2's
    /// `xmlStopParser()` does.
    fn stop_requested(&self) -> bool {
        false
    }
}

/// The buffers of [`Parser::feed_utf8`]'s handler calls, kept by the
/// parser between calls so that their allocations are reused.
#[derive(Debug, Default)]
pub(crate) struct Utf8Buffers {
    /// The `&str` pairs of an attribute array, kept without their borrow
    /// (refilled through [`reborrow`]).
    pairs: Vec<(&'static str, &'static str)>,
    /// A start tag's name, attribute names and values one after another,
    /// checked as one string (grown to the longest tag seen, never cut).
    joined: Vec<u8>,
}

/// An empty vector of `(&str, &str)` with the allocation of `pairs`:
/// collecting a vector's own iterator reuses its buffer when the element
/// layouts match, as they do here.
fn reborrow<'a, 'b>(pairs: Vec<(&'a str, &'a str)>) -> Vec<(&'b str, &'b str)> {
    pairs.into_iter().map(|_| ("", "")).collect()
}

/// The length simdutf8 checks a step at a time with SIMD; shorter input
/// goes to the standard library's byte-at-a-time check.
const SIMD_STEP: usize = 64;

/// Plays a [`Utf8Handler`] as a [`Handler`] of a UTF-8 target.
///
/// The core hands out bytes, and the crate keeps `unsafe` to its SIMD
/// kernels, so the only sound way from them to a `&str` is a check; the
/// bridge makes it cheap. Long strings are checked where they are, with
/// SIMD. Short ones are copied into a block of [`SIMD_STEP`] bytes padded
/// with NULs (valid UTF-8) so that they are checked in one SIMD step
/// instead of byte by byte, and a start tag's strings are joined and
/// checked at once; each string is then cut out with `str::get`, whose
/// check is only that both ends fall on character boundaries.
struct Bridge<'h, H: ?Sized> {
    handler: &'h mut H,
    buffers: Utf8Buffers,
    /// A string was not UTF-8 (see [`Error::NotUtf8`] for when): the
    /// parse stops instead of calling the handler with it.
    not_utf8: bool,
}

/// `bytes` as `&str`: checked in place when long, else as a copy in
/// `block`.
#[inline]
fn checked<'s>(bytes: &'s [u8], block: &'s mut [u8; SIMD_STEP]) -> Option<&'s str> {
    if bytes.len() < SIMD_STEP {
        put(block, 0, bytes)?;
        simdutf8::basic::from_utf8(block).ok()?.get(..bytes.len())
    } else {
        simdutf8::basic::from_utf8(bytes).ok()
    }
}

/// Copies `bytes` into `out` at `at` and returns where they end, or
/// `None` when `out` is too short. Names and values are short: up to 16
/// bytes they are copied as two overlapping words (up to 3 as three
/// bytes), not through a call to `memcpy`.
#[inline(always)]
fn put(out: &mut [u8], at: usize, bytes: &[u8]) -> Option<usize> {
    let n = bytes.len();
    let end = at.checked_add(n)?;
    let to = out.get_mut(at..end)?;
    if n > 16 {
        to.copy_from_slice(bytes);
    } else if let (Some(head), Some(tail), true) =
        (bytes.first_chunk::<8>(), bytes.last_chunk::<8>(), n >= 8)
    {
        *to.first_chunk_mut::<8>()? = *head;
        *to.last_chunk_mut::<8>()? = *tail;
    } else if let (Some(head), Some(tail)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        *to.first_chunk_mut::<4>()? = *head;
        *to.last_chunk_mut::<4>()? = *tail;
    } else if let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) {
        // 1 to 3 bytes: the first, the middle and the last
        *to.first_mut()? = first;
        *to.get_mut(n / 2)? = *bytes.get(n / 2)?;
        *to.last_mut()? = last;
    }
    Some(end)
}

/// An attribute's name and value cut off the front of `rest` (one
/// character-boundary test each), and what follows them.
#[inline(always)]
fn cut_pair(rest: &str, name_len: usize, value_len: usize) -> Option<(&str, &str, &str)> {
    let (name, after) = rest.split_at_checked(name_len)?;
    let (value, after) = after.split_at_checked(value_len)?;
    Some((name, value, after))
}

impl<H: Utf8Handler + ?Sized> Bridge<'_, H> {
    /// `bytes` as `&str` for a call to `f`, or nothing when not UTF-8.
    #[inline]
    fn with_str(&mut self, bytes: &[u8], f: impl FnOnce(&mut H, &str)) {
        let mut block = [0; SIMD_STEP];
        if let Some(text) = checked(bytes, &mut block) {
            f(self.handler, text);
        } else {
            self.not_utf8 = true;
        }
    }

    /// `bytes` as `&str`, checked where they are (the rare calls).
    fn text<'s>(&mut self, bytes: &'s [u8]) -> Option<&'s str> {
        let text = simdutf8::basic::from_utf8(bytes).ok();
        self.not_utf8 |= text.is_none();
        text
    }

    /// `Option<&[u8]>` as `Option<&str>`: `Err` when not UTF-8.
    fn optional<'s>(&mut self, bytes: Option<&'s [u8]>) -> Result<Option<&'s str>, ()> {
        match bytes {
            None => Ok(None),
            Some(bytes) => self.text(bytes).map(Some).ok_or(()),
        }
    }

    /// A start tag with attributes: its strings joined, checked at once,
    /// then cut apart.
    fn start_element_with(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) -> Option<()> {
        let mut len = name.len();
        for (key, value) in attributes {
            // an integer key needs a name that is an integer, which XML
            // names never are
            let Key::Str(key) = key else { return None };
            len += key.len() + value.len();
        }
        // at least one SIMD step, a short tag's tail NULs (valid UTF-8)
        let checked_len = len.max(SIMD_STEP);
        let joined = &mut self.buffers.joined;
        if joined.len() < checked_len {
            joined.resize(checked_len, 0);
        }
        let joined = joined.get_mut(..checked_len)?;
        if len < SIMD_STEP {
            *joined.first_chunk_mut::<SIMD_STEP>()? = [0; SIMD_STEP];
        }
        let mut at = put(joined, 0, name)?;
        for (key, value) in attributes {
            if let Key::Str(key) = key {
                at = put(joined, at, key)?;
            }
            at = put(joined, at, value)?;
        }
        let all = simdutf8::basic::from_utf8(joined).ok()?;
        // each string cut off the front of the rest: one boundary test each
        let (name, mut rest) = all.split_at_checked(name.len())?;
        let mut pairs = reborrow(std::mem::take(&mut self.buffers.pairs));
        pairs.reserve(attributes.len());
        for (key, value) in attributes {
            let key_len = if let Key::Str(key) = key {
                key.len()
            } else {
                0
            };
            let Some((key, value, after)) = cut_pair(rest, key_len, value.len()) else {
                self.buffers.pairs = reborrow(pairs);
                return None;
            };
            pairs.push((key, value));
            rest = after;
        }
        self.handler.start_element(name, &pairs);
        pairs.clear();
        self.buffers.pairs = reborrow(pairs);
        Some(())
    }
}

impl<H: Utf8Handler + ?Sized> Handler for Bridge<'_, H> {
    fn installed(&self) -> HandlerSet {
        self.handler.installed()
    }

    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        if attributes.is_empty() {
            self.with_str(name, |handler, name| handler.start_element(name, &[]));
        } else if self.start_element_with(name, attributes).is_none() {
            self.not_utf8 = true;
        }
    }

    fn end_element(&mut self, name: &[u8]) {
        self.with_str(name, H::end_element);
    }

    fn character_data(&mut self, data: &[u8]) {
        self.with_str(data, H::character_data);
    }

    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        if let (Some(target), Ok(data)) = (self.text(target), self.optional(data)) {
            self.handler.processing_instruction(target, data);
        }
    }

    fn default_data(&mut self, data: &[u8]) {
        if let Some(data) = self.text(data) {
            self.handler.default_data(data);
        }
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        if let (Some(name), Ok(base), Ok(system_id), Ok(public_id), Ok(notation)) = (
            self.text(name),
            self.optional(base),
            self.optional(system_id),
            self.optional(public_id),
            self.optional(notation),
        ) {
            self.handler
                .unparsed_entity_decl(name, base, system_id, public_id, notation);
        }
    }

    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
        if let (Some(name), Ok(base), Ok(system_id), Ok(public_id)) = (
            self.text(name),
            self.optional(base),
            self.optional(system_id),
            self.optional(public_id),
        ) {
            self.handler.notation_decl(name, base, system_id, public_id);
        }
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        if let (Some(names), Ok(base), Ok(system_id), Ok(public_id)) = (
            self.text(open_entity_names),
            self.optional(base),
            self.optional(system_id),
            self.optional(public_id),
        ) {
            self.handler
                .external_entity_ref(names, base, system_id, public_id)
        } else {
            true
        }
    }

    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        if let (Ok(prefix), Some(uri)) = (self.optional(prefix), self.text(uri)) {
            self.handler.start_namespace_decl(prefix, uri);
        }
    }

    fn end_namespace_decl(&mut self, prefix: Option<&[u8]>) {
        if let Ok(prefix) = self.optional(prefix) {
            self.handler.end_namespace_decl(prefix);
        }
    }

    fn stop_requested(&self) -> bool {
        self.not_utf8 || self.handler.stop_requested()
    }
}

impl Parser {
    /// [`feed`](Parser::feed) for a [`Utf8Handler`]: `xml_parse()` with
    /// names and texts as `&str`. The target encoding is checked on each
    /// call, before anything is parsed.
    ///
    /// # Errors
    ///
    /// [`Error::TargetNotUtf8`] when the target encoding is not UTF-8
    /// (nothing is parsed); [`Error::NotUtf8`] when a string for the
    /// handler is not UTF-8 (the parse stopped there);
    /// [`Error::Parse`] when `xml_parse()` would return 0.
    pub fn feed_utf8<H: Utf8Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        chunk: &[u8],
        is_final: bool,
    ) -> Result<(), Error> {
        let target = self.target_encoding();
        if target != TargetEncoding::Utf8 {
            return Err(Error::TargetNotUtf8(target));
        }
        let mut bridge = Bridge {
            handler,
            buffers: self.take_utf8_buffers(),
            not_utf8: false,
        };
        let result = self.feed(&mut bridge, chunk, is_final);
        self.keep_utf8_buffers(bridge.buffers);
        if bridge.not_utf8 {
            return Err(Error::NotUtf8);
        }
        Ok(result?)
    }
}

#[cfg(test)]
mod tests {
    use super::put;

    /// `put` copies as `copy_from_slice` does, at every length its
    /// branches split (0 to 40 bytes) and several offsets, and refuses a
    /// copy past the end.
    #[test]
    fn put_copies_every_length() {
        let source: Vec<u8> = (1..=40).collect();
        for n in 0..=40 {
            for at in 0..5 {
                let (mut got, mut want) = ([0u8; 48], [0u8; 48]);
                assert_eq!(put(&mut got, at, &source[..n]), Some(at + n));
                want[at..at + n].copy_from_slice(&source[..n]);
                assert_eq!(got, want, "{n} bytes at {at}");
            }
        }
        assert_eq!(put(&mut [0; 4], 1, b"abcd"), None);
        assert_eq!(put(&mut [0; 4], usize::MAX, b"a"), None);
    }
}
