//! Start tags (`xmlParseStartTag`, `xmlParseStartTag2`): the one-pass
//! path for plain SAX1 tags, the general path, namespaces and
//! duplicate attributes.

use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::libxml::chars::{is_ascii_name_char, is_ascii_name_start, is_byte_char};
use crate::libxml::keyset::{self, KeySet};
use crate::libxml::namespaces::{Namespaces, NsUri, XML_NS};
use crate::libxml::text_scan::{plain_multibyte_len, plain_value_windows};
use crate::libxml::{Attributes, Core, NsAttr, OpenTag, Piece, Progressive, State, Sub, err};
use crate::sax::{NameList, Sax};

use super::{
    MAX_NAME_LENGTH, MAX_TEXT_LENGTH, PLAIN_DQ_VALUE, PLAIN_SQ_VALUE, append_short, general_only,
    plain_prefix, predefined_at, scheme_end, valid_uri,
};

impl Core<'_> {
    /// The `START_TAG` case of the push loop.
    #[inline(always)]
    pub(in crate::libxml) fn start_tag_state(&mut self, sink: &mut impl Sax) {
        let mut name_len = 0;
        if self.namespace_separator.is_none() {
            match self.bare_start_tag(sink) {
                Bare::Done => return,
                Bare::Name(len) => {
                    if self.plain_start_tag(sink, len) {
                        return;
                    }
                    name_len = len;
                }
                Bare::Other => {}
            }
        }
        self.start_tag_state_general(sink, name_len);
    }

    /// [`start_tag_state`](Self::start_tag_state) for any start tag;
    /// `name_len` as in [`parse_start_tag`](Self::parse_start_tag).
    #[inline(never)]
    fn start_tag_state_general(&mut self, sink: &mut impl Sax, name_len: usize) {
        let ns_before = self.ns.len();
        let parsed = if self.namespace_separator.is_some() {
            self.parse_start_tag2(sink)
        } else {
            self.parse_start_tag(sink, name_len)
                .map(|n| (n, None, None))
        };
        if self.state == State::Eof {
            return;
        }
        let Some((name, prefix, uri)) = parsed else {
            self.halt();
            return;
        };
        let empty = self.raw() == b'/' && self.nxt(1) == b'>';
        if empty {
            self.skip(2);
        } else if self.raw() == b'>' {
            // `NEXT`: `>` is one byte on the line
            self.next1();
        } else {
            self.fatal(err::GT_REQUIRED);
        }
        let sax2 = self.namespace_separator.map(|_| Sax2Tag {
            prefix,
            uri,
            ns_before,
        });
        self.end_start_tag(sink, name, empty, sax2);
    }

    /// The end of a start tag, past its `>` or `/>`, as the `START_TAG`
    /// case of `xmlParseTryOrFinish` does it: an empty element ends at
    /// once (its end event, its namespace bindings dropped), any other is
    /// pushed on the name stack. `sax2` is `None` for SAX1 tags.
    #[inline(always)]
    fn end_start_tag(
        &mut self,
        sink: &mut impl Sax,
        name: Vec<u8>,
        empty: bool,
        sax2: Option<Sax2Tag>,
    ) {
        if empty {
            if !self.disable_sax {
                match &sax2 {
                    Some(tag) => {
                        self.emit_end_ns(sink, &name, tag.prefix.as_deref(), tag.uri);
                    }
                    None => self.emit_end(sink, &name),
                }
            }
            if let Some(tag) = sax2 {
                self.ns.truncate(tag.ns_before);
                if let Some(p) = tag.prefix {
                    self.recycle_name(p);
                }
            }
            self.recycle_name(name);
            if self.state == State::Eof {
                return;
            }
            self.state = if self.names.is_empty() {
                State::Epilog
            } else {
                State::Content
            };
        } else {
            let open = match sax2 {
                Some(tag) => OpenTag {
                    name,
                    prefix: tag.prefix,
                    uri: tag.uri,
                    ns_count: self.ns.len() - tag.ns_before,
                },
                None => OpenTag {
                    name,
                    prefix: None,
                    uri: None,
                    ns_count: 0,
                },
            };
            self.names.push(open);
            self.state = State::Content;
        }
        self.progressive = Progressive::On;
    }

    /// A SAX1 start tag `<name>` of ASCII name characters and nothing
    /// else, in one step: what `parse_start_tag` and the `START_TAG` case
    /// do with it. Nothing done for any other tag.
    #[inline(always)]
    fn bare_start_tag(&mut self, sink: &mut impl Sax) -> Bare {
        let s = &self.input.buf[self.input.cur..];
        if s.len() < 3
            || !is_ascii_name_start(s[1])
            || !self.pending_default_refs.is_empty()
            || general_only()
        {
            return Bare::Other;
        }
        let Some(len) = s[2..].iter().position(|&b| !is_ascii_name_char(b)) else {
            return Bare::Other;
        };
        let len = len + 1;
        if len > MAX_NAME_LENGTH {
            return Bare::Other;
        }
        if s[1 + len] != b'>' {
            // what the fast path of `xmlParseName` takes
            return if s[1 + len] != 0 && s[1 + len] < 0x80 {
                Bare::Name(len)
            } else {
                Bare::Other
            };
        }
        // the pool's field, not `pooled_buffer`: `s` borrows the input
        let mut name = self.pools.name_pool.pop().unwrap_or_default();
        name.clear();
        append_short(&mut name, s, 1, 1 + len);
        self.input.cur += len + 2;
        self.input.col += len as u64 + 2;
        if !self.disable_sax {
            self.emit_start_bare(sink, &name);
        }
        self.end_start_tag(sink, name, false, None);
        Bare::Done
    }

    /// A SAX1 start tag whose attributes are all plain (see
    /// [`scan_plain_attributes`]), in one pass: what `parse_start_tag` and
    /// the `START_TAG` case do with it. False, with nothing done, for any
    /// other tag, which the general path then parses from its start.
    /// `name_len` as in [`parse_start_tag`](Self::parse_start_tag).
    #[inline(never)]
    fn plain_start_tag(&mut self, sink: &mut impl Sax, name_len: usize) -> bool {
        if self.dtd.in_subset != 0 || general_only() {
            return false;
        }
        let mut atts = self.pools.atts.take().unwrap_or_default();
        atts.clear();
        let name_end = self.input.cur + 1 + name_len;
        let col = self.input.col + 1 + name_len as u64;
        let buf = &self.input.buf;
        let recent =
            &mut self.pools.recent_names[RecentNames::slot(&buf[self.input.cur + 1..name_end])];
        let Some(tag) =
            scan_plain_attributes(buf, name_end, col, self.input.utf8, &mut atts, recent)
        else {
            self.pools.atts = Some(atts);
            return false;
        };
        let names = recent.list_of(atts.len());
        #[cfg(test)]
        super::PLAIN_TAGS.set(super::PLAIN_TAGS.get() + 1);
        let mut name = self.pooled_buffer();
        append_short(&mut name, &self.input.buf, self.input.cur + 1, name_end);
        // where the general path stands when it reports the start tag: on
        // the `>` or the `/` of `/>`
        self.input.cur = tag.end;
        self.input.line += tag.lines;
        self.input.col = tag.col;
        self.expansion.nb_entities += tag.entity_count;
        if atts.len() > 0 {
            self.sub = Sub::None;
        }
        if !self.disable_sax {
            self.emit_start(sink, &name, &atts, names);
        }
        self.pools.atts = Some(atts);
        if self.state == State::Eof {
            return true;
        }
        if tag.empty {
            self.skip(2);
        } else {
            self.next1();
        }
        self.end_start_tag(sink, name, tag.empty, None);
        true
    }

    /// `xmlParseStartTag` (SAX1): returns the element name. `name_len`, if
    /// not 0, is the length of the ASCII name after the `<` that the fast
    /// path of `xmlParseName` takes, as [`bare_start_tag`](Self::bare_start_tag)
    /// found it.
    fn parse_start_tag(&mut self, sink: &mut impl Sax, name_len: usize) -> Option<Vec<u8>> {
        if self.raw() != b'<' {
            return None;
        }
        let mut name = self.pooled_buffer();
        if name_len > 0 {
            name.extend_from_slice(
                &self.input.buf[self.input.cur + 1..self.input.cur + 1 + name_len],
            );
            self.input.cur += 1 + name_len;
            self.input.col += 1 + name_len as u64;
        } else {
            self.next1();
            if !self.parse_name_into(&mut name) {
                self.fatal(err::NAME_REQUIRED);
                return None;
            }
        }
        self.skip_blanks();
        if self.raw() == b'>' {
            // No attributes: the usual case of element-heavy documents.
            self.flush_default_refs(sink);
            if !self.disable_sax {
                self.emit_start_bare(sink, &name);
            }
            return Some(name);
        }
        let mut atts = self.pools.atts.take().unwrap_or_default();
        atts.clear();
        while self.raw() != b'>'
            && (self.raw() != b'/' || self.nxt(1) != b'>')
            && is_byte_char(u32::from(self.raw()))
            && self.state != State::Eof
        {
            let q = self.input.cur;
            let cons = self.input.consumed;
            let (had_name, had_value) = self.parse_attribute(&mut atts);
            if self.raw() == b'>' || (self.raw() == b'/' && self.nxt(1) == b'>') {
                break;
            }
            if self.skip_blanks() == 0 {
                self.fatal(err::SPACE_REQUIRED);
            }
            if cons == self.input.consumed && q == self.input.cur && !had_name && !had_value {
                self.fatal(err::INTERNAL_ERROR);
                break;
            }
        }
        self.flush_default_refs(sink);
        if !self.disable_sax {
            self.emit_start(sink, &name, &atts, None);
        }
        self.pools.atts = Some(atts);
        Some(name)
    }

    /// Sends the `&name;` references compat.c routed to the default handler
    /// while attribute values were parsed.
    #[inline]
    fn flush_default_refs(&mut self, sink: &mut impl Sax) {
        if !self.pending_default_refs.is_empty() {
            self.flush_default_refs_slow(sink);
        }
    }

    #[cold]
    fn flush_default_refs_slow(&mut self, sink: &mut impl Sax) {
        for name in std::mem::take(&mut self.pending_default_refs) {
            let mut d = vec![b'&'];
            d.extend_from_slice(&name);
            d.push(b';');
            sink.default(&d);
        }
    }

    /// `xmlParseAttribute` (SAX1), and the duplicate check of
    /// `xmlParseStartTag`: adds the attribute to `atts` unless its name is
    /// there already. Returns whether a name and a value were parsed.
    fn parse_attribute(&mut self, atts: &mut Attributes) -> (bool, bool) {
        let own = atts.bytes.len();
        let Some(name) = self.parse_name_at(&mut atts.bytes) else {
            self.fatal(err::NAME_REQUIRED);
            return (false, false);
        };
        self.skip_blanks();
        if self.raw() == b'=' {
            // `NEXT` over `=`: one byte on the line
            if self.state != State::Eof {
                self.next1();
            }
            self.skip_blanks();
            let value = self.parse_att_value_at(false, &mut atts.bytes);
            self.sub = Sub::None;
            if let Some(value) = value {
                if atts.contains_name(&self.input.buf, name) {
                    self.fatal(err::ATTRIBUTE_REDEFINED);
                } else {
                    atts.spans.push((name, value));
                    return (true, true);
                }
            }
            atts.bytes.truncate(own);
            (true, value.is_some())
        } else {
            atts.bytes.truncate(own);
            self.fatal(err::ATTRIBUTE_WITHOUT_VALUE);
            (false, false)
        }
    }

    /// `xmlParseStartTag2` (SAX2, namespace mode): (local, prefix, uri).
    #[allow(clippy::type_complexity)]
    #[allow(clippy::too_many_lines)] // one function, as in libxml2
    fn parse_start_tag2(
        &mut self,
        sink: &mut impl Sax,
    ) -> Option<(Vec<u8>, Option<Vec<u8>>, Option<NsUri>)> {
        if self.raw() != b'<' {
            return None;
        }
        self.next1();
        let ns_base = self.ns.len();
        let Some((prefix, local)) = self.parse_qname() else {
            self.fatal(err::NAME_REQUIRED);
            return None;
        };
        self.skip_blanks();
        let mut atts = std::mem::take(&mut self.pools.ns_atts);
        while self.raw() != b'>'
            && (self.raw() != b'/' || self.nxt(1) != b'>')
            && is_byte_char(u32::from(self.raw()))
            && self.state != State::Eof
        {
            let q = self.input.cur;
            let cons = self.input.consumed;
            let mut had_name = false;
            let mut had_value = false;
            match self.parse_qname() {
                None => self.fatal(err::NAME_REQUIRED),
                Some((aprefix, aname)) => {
                    had_name = true;
                    let normalize =
                        self.is_special(&local, prefix.as_deref(), &aname, aprefix.as_deref());
                    self.skip_blanks();
                    if self.raw() == b'=' {
                        self.next_char();
                        self.skip_blanks();
                        let v = self.parse_att_value(normalize);
                        self.sub = Sub::None;
                        if let Some(v) = v {
                            had_value = true;
                            self.add_ns_attr(aprefix, aname, v, ns_base, &mut atts);
                        }
                    } else {
                        self.fatal(err::ATTRIBUTE_WITHOUT_VALUE);
                        had_name = false;
                    }
                }
            }
            if self.state == State::Eof {
                break;
            }
            if self.raw() == b'>' || (self.raw() == b'/' && self.nxt(1) == b'>') {
                break;
            }
            if self.skip_blanks() == 0 {
                self.fatal(err::SPACE_REQUIRED);
                break;
            }
            if cons == self.input.consumed && q == self.input.cur && !had_name && !had_value {
                self.fatal(err::INTERNAL_ERROR);
                break;
            }
        }
        // defaulted attributes from the DTD
        let defs = if self.dtd.defaults.is_empty() {
            None
        } else {
            let key = qname_key(prefix.as_deref(), &local);
            self.dtd.defaults.get(&key).cloned()
        };
        if let Some(defs) = defs {
            for d in defs {
                if d.prefix.is_none() && d.local == b"xmlns" {
                    continue;
                }
                if d.prefix.as_deref() == Some(b"xmlns") {
                    continue;
                }
                if atts
                    .iter()
                    .any(|a| a.local == d.local && a.prefix == d.prefix)
                {
                    continue;
                }
                atts.push(NsAttr {
                    local: d.local.clone(),
                    prefix: d.prefix.clone(),
                    uri: None,
                    value: d.value.clone(),
                });
            }
        }
        // resolve attribute prefixes and check duplicates
        let many = atts.len() > keyset::MANY;
        let mut clashes = std::mem::take(&mut self.pools.clashes);
        for a in &mut atts {
            a.uri = a.prefix.as_deref().and_then(|p| self.ns.lookup(Some(p)));
        }
        if many {
            clashes.find(&atts, &self.ns);
        }
        for i in 0..atts.len() {
            if atts[i].prefix.is_some() && atts[i].uri.is_none() {
                self.error(err::NS_ERR_UNDEFINED_NAMESPACE);
            }
            // pairwise (nothing allocated) up to `MANY` attributes
            if many {
                match clashes.of(i) {
                    Some(Clash::SamePrefix) => self.fatal(err::ATTRIBUTE_REDEFINED),
                    Some(Clash::SameUri) => self.error(err::NS_ERR_ATTRIBUTE_REDEFINED),
                    None => {}
                }
                continue;
            }
            let nsname = atts[i].uri.map(|u| self.ns.uri(u));
            for j in 0..i {
                if atts[i].local == atts[j].local {
                    if atts[i].prefix == atts[j].prefix {
                        self.fatal(err::ATTRIBUTE_REDEFINED);
                        break;
                    }
                    if nsname.is_some() && atts[j].uri.map(|u| self.ns.uri(u)) == nsname {
                        self.error(err::NS_ERR_ATTRIBUTE_REDEFINED);
                        break;
                    }
                }
            }
        }
        self.pools.clashes = clashes;
        let uri = self.ns.lookup(prefix.as_deref());
        if prefix.is_some() && uri.is_none() {
            self.error(err::NS_ERR_UNDEFINED_NAMESPACE);
        }
        self.flush_default_refs(sink);
        if !self.disable_sax {
            self.emit_start_ns(sink, &local, prefix.as_deref(), uri, ns_base, &atts);
        }
        for a in atts.drain(..) {
            self.recycle_name(a.local);
            self.recycle_name(a.value);
            if let Some(p) = a.prefix {
                self.recycle_name(p);
            }
        }
        self.pools.ns_atts = atts;
        Some((local, prefix, uri))
    }

    /// Handles one parsed attribute in SAX2 mode: namespace declarations
    /// are bound (the tag's own bindings are those from the `ns_base`th),
    /// others collected.
    fn add_ns_attr(
        &mut self,
        aprefix: Option<Vec<u8>>,
        aname: Vec<u8>,
        value: Vec<u8>,
        ns_base: usize,
        atts: &mut Vec<NsAttr>,
    ) {
        if (aprefix.is_none() && aname == b"xmlns") || aprefix.as_deref() == Some(b"xmlns") {
            self.bind_ns(
                aprefix.is_some().then_some(aname.as_slice()),
                &value,
                ns_base,
            );
            self.recycle_name(value);
            self.recycle_name(aname);
            if let Some(p) = aprefix {
                self.recycle_name(p);
            }
        } else {
            atts.push(NsAttr {
                local: aname,
                prefix: aprefix,
                uri: None,
                value,
            });
        }
    }

    /// The namespace declaration `xmlns="url"` (`prefix` `None`) or
    /// `xmlns:prefix="url"` of `xmlParseStartTag2`: checked, and bound
    /// unless the tag bound the prefix already (from the `ns_base`th
    /// binding).
    fn bind_ns(&mut self, prefix: Option<&[u8]>, url: &[u8], ns_base: usize) {
        let Some(aname) = prefix else {
            if !url.is_empty() {
                if !valid_uri(url) {
                    self.error(err::WAR_NS_URI);
                } else if scheme_end(url).is_none() {
                    self.warning();
                }
                if url == XML_NS || url == b"http://www.w3.org/2000/xmlns/" {
                    self.error(err::NS_ERR_XML_NAMESPACE);
                    return;
                }
            }
            if self.ns.binds_from(ns_base, None) {
                self.fatal(err::ATTRIBUTE_REDEFINED);
            } else {
                self.ns.push(None, url);
            }
            return;
        };
        if aname == b"xml" {
            if url != XML_NS {
                self.error(err::NS_ERR_XML_NAMESPACE);
            }
            return;
        }
        if url == XML_NS
            || aname == b"xmlns"
            || url == b"http://www.w3.org/2000/xmlns/"
            || url.is_empty()
        {
            self.error(err::NS_ERR_XML_NAMESPACE);
            return;
        }
        if !valid_uri(url) {
            self.error(err::WAR_NS_URI);
        }
        if self.ns.binds_from(ns_base, Some(aname)) {
            self.fatal(err::ATTRIBUTE_REDEFINED);
        } else {
            self.ns.push(Some(aname), url);
        }
    }

    /// Whether an attribute was declared with a tokenized type (values are
    /// then normalized).
    fn is_special(
        &self,
        elem: &[u8],
        eprefix: Option<&[u8]>,
        att: &[u8],
        aprefix: Option<&[u8]>,
    ) -> bool {
        if self.dtd.special.is_empty() {
            return false;
        }
        let k = (qname_key(eprefix, elem), qname_key(aprefix, att));
        self.dtd.special.contains(&k)
    }
}

/// A start tag's attributes that [`scan_plain_attributes`] took, and
/// where the tag ends.
struct PlainTag {
    /// The `>` or the `/` of `/>`.
    end: usize,
    /// Whether the tag ends with `/>`.
    empty: bool,
    /// The newlines among the blanks.
    lines: u64,
    /// The column of `end`.
    col: u64,
    /// What the references add to the parser's entity count.
    entity_count: u64,
}

/// The attributes of a SAX1 start tag from `i`, just after its name, if
/// libxml2 parses them without an error and with no text changed but for
/// references to the five predefined entities: blanks and
/// `name="value"` (or `'value'`) pairs, each name ASCII name characters
/// followed directly by `=`, each value characters that read as
/// themselves (no tab, line feed or carriage return, which become spaces)
/// and those references, no name twice, and the tag closed by `>` or `/>`
/// within `buf`. `col` is the column at `i`. `None` for anything else;
/// `atts` then holds part of the attributes.
#[inline]
fn scan_plain_attributes(
    buf: &[u8],
    mut i: usize,
    col: u64,
    utf8: bool,
    atts: &mut Attributes,
    recent: &mut RecentNames,
) -> Option<PlainTag> {
    let mut track = Track {
        line_col: col,
        line_start: i,
        narrow: 0,
        lines: 0,
        entity_count: 0,
    };
    loop {
        let place = atts.spans.len();
        // The recent list's names are distinct, and those before `place`
        // are this tag's names so far (a name not recognised is set in its
        // place, the names after it forgotten): a name recognised is no
        // duplicate.
        let (name_start, name_end, class, quote) =
            if let Some(name) = recent.spaced_at(place, buf, i) {
                // mostly: one space, then the name, `=` and quote of last time
                #[cfg(test)]
                {
                    super::RECENT_NAMES.set(super::RECENT_NAMES.get() + 1);
                    super::SPACED_NAMES.set(super::SPACED_NAMES.get() + 1);
                }
                atts.seen |= name.class;
                (i + 1, i + 1 + name.len, Some(name.class), name.quote)
            } else {
                if let Some(&[b' ', b, ..]) = buf.get(i..)
                    && is_ascii_name_start(b)
                {
                    i += 1;
                } else if buf.get(i) == Some(&b'>') {
                    return Some(track.end(i, false));
                } else {
                    match blanks_or_end(buf, i, &mut track) {
                        Step::Name(at) => i = at,
                        Step::End(tag) => return Some(tag),
                        Step::Other => return None,
                    }
                }
                let name_start = i;
                let class = if let Some((len, class)) = recent.at(place, buf, i) {
                    #[cfg(test)]
                    super::RECENT_NAMES.set(super::RECENT_NAMES.get() + 1);
                    atts.seen |= class;
                    i += len;
                    Some(class)
                } else {
                    i += 1;
                    while i < buf.len() && is_ascii_name_char(buf[i]) {
                        i += 1;
                    }
                    None
                };
                let name_end = i;
                let Some(&[b'=', quote, ..]) = buf.get(i..) else {
                    return None;
                };
                if (quote != b'"' && quote != b'\'') || name_end - name_start > MAX_NAME_LENGTH {
                    return None;
                }
                (name_start, name_end, class, quote)
            };
        let start = name_end + 2;
        let value = match simple_value(&buf[start..], quote) {
            Ok(len) => {
                #[cfg(test)]
                super::SIMPLE_VALUES.set(super::SIMPLE_VALUES.get() + 1);
                i = start + len + 1;
                Piece::Input(start, start + len)
            }
            Err(plain) => {
                let value = if quote == b'"' {
                    scan_plain_value::<b'"'>(buf, start, start + plain, utf8, &mut atts.bytes)?
                } else {
                    scan_plain_value::<b'\''>(buf, start, start + plain, utf8, &mut atts.bytes)?
                };
                track.narrow += value.narrow;
                track.entity_count += value.entity_count;
                i = value.end + 1;
                value.piece
            }
        };
        if class.is_none() {
            let class = KeySet::class_of(name_end - name_start, buf[name_start], buf[name_end - 1]);
            if atts.add_new_name(buf, name_start, name_end, class) {
                return None;
            }
            recent.set(place, &buf[name_start..=name_end], class, quote);
        }
        atts.spans.push((Piece::Input(name_start, name_end), value));
    }
}

/// The 16 bytes of `buf` at `i`, [`padded`] near its end.
#[inline(always)]
fn word_at(buf: &[u8], i: usize) -> Option<u128> {
    let rest = buf.get(i..)?;
    // each arm its own word: merged as bytes, the two went through memory
    Some(match rest.first_chunk::<16>() {
        Some(bytes) => u128::from_le_bytes(*bytes),
        None => u128::from_le_bytes(padded(rest)),
    })
}

/// The last bytes of the input, under 16, followed by NULs: no pattern of
/// [`RecentNames`] holds a NUL, so none matches past the end (a tag fed a
/// byte at a time ends its buffer).
#[cold]
fn padded(rest: &[u8]) -> [u8; 16] {
    let mut bytes = [0; 16];
    bytes[..rest.len()].copy_from_slice(rest);
    bytes
}

/// How many lists [`RecentNames`] keeps, one for each class of element
/// names.
pub(in crate::libxml) const RECENT_NAME_SLOTS: usize = 8;

/// The attribute names of the last plain start tag of a class of element
/// names. Documents repeat their tags: a name that is, with its `=`, the
/// bytes of the recent list's name of its place is that name, and when
/// every name before it was too it is none of them, so that
/// [`scan_plain_attributes`] neither scans it a byte at a time nor looks
/// for it among the others. The list only predicts: the bytes are compared
/// each time, so it may be any list of distinct names with their classes,
/// whichever tag left it.
#[derive(Debug, Default)]
pub(in crate::libxml) struct RecentNames {
    names: Vec<RecentName>,
    /// The list's identity, given when a tag is first found to hold the
    /// list whole and taken back when the list changes.
    id: Option<NameList>,
}

/// How many identities [`RecentNames`]' lists were given: none is given
/// twice in a process, as the adapter keeps the keys it made for a list
/// under its identity, whichever parser the list was in.
static LISTS_GIVEN: AtomicU64 = AtomicU64::new(0);

/// A name of [`RecentNames`] with its `=`, as the 16 bytes at a place of
/// the input that hold it are seen through `mask`; and the same after one
/// space and followed by the quote its value had (`spaced`), which most
/// attributes of a repeated tag are.
#[derive(Clone, Copy, Debug)]
struct RecentName {
    pattern: u128,
    mask: u128,
    /// ` name=` and the quote.
    spaced: u128,
    spaced_mask: u128,
    /// The name's length.
    len: usize,
    /// The name's [`KeySet::class`].
    class: u64,
    /// The quote of `spaced`.
    quote: u8,
}

/// `bytes` as a pattern and mask of the 16 bytes at a place of the input;
/// more than 16 bytes as a pattern that matches nothing.
fn pattern_of(bytes: &[u8]) -> (u128, u128) {
    let mut word = [0; 16];
    let Some(head) = word.get_mut(..bytes.len()) else {
        return (1, 0);
    };
    head.copy_from_slice(bytes);
    (
        u128::from_le_bytes(word),
        u128::MAX >> (8 * (16 - bytes.len())),
    )
}

impl RecentName {
    /// `pattern` (a name and its `=`) of class `class`, its value in
    /// `quote`s.
    fn new(pattern: &[u8], class: u64, quote: u8) -> Self {
        let n = pattern.len();
        let (spaced, spaced_mask) = if n + 2 <= 16 {
            let mut bytes = [b' '; 16];
            bytes[1..=n].copy_from_slice(pattern);
            bytes[n + 1] = quote;
            pattern_of(&bytes[..n + 2])
        } else {
            (1, 0)
        };
        let (pattern_word, mask) = pattern_of(pattern);
        Self {
            pattern: pattern_word,
            mask,
            spaced,
            spaced_mask,
            len: pattern.len() - 1,
            class,
            quote,
        }
    }
}

impl RecentNames {
    /// The list for an element name: a class from its length and its
    /// first and last bytes, which tells most names of a document apart.
    #[inline]
    pub(in crate::libxml) fn slot(name: &[u8]) -> usize {
        let (first, last) = match name {
            [first, .., last] => (*first, *last),
            [only] => (*only, *only),
            [] => (0, 0),
        };
        (usize::from(first) ^ usize::from(last).rotate_left(1) ^ name.len()) % RECENT_NAME_SLOTS
    }

    /// When the input at `i` holds the name of `place` and its `=`: the
    /// name's length and class.
    #[inline(always)]
    fn at(&self, place: usize, buf: &[u8], i: usize) -> Option<(usize, u64)> {
        let name = self.names.get(place)?;
        (word_at(buf, i)? & name.mask == name.pattern).then_some((name.len, name.class))
    }

    /// When the input at `i` holds one space, the name of `place`, its `=`
    /// and the quote its value had: the name.
    #[inline(always)]
    fn spaced_at(&self, place: usize, buf: &[u8], i: usize) -> Option<&RecentName> {
        let name = self.names.get(place)?;
        (word_at(buf, i)? & name.spaced_mask == name.spaced).then_some(name)
    }

    /// `pattern` (a name and its `=`, of class `class`, its value in
    /// `quote`s) as the name of `place`, the names after it forgotten.
    #[inline(never)]
    fn set(&mut self, place: usize, pattern: &[u8], class: u64, quote: u8) {
        self.names.truncate(place);
        self.names.push(RecentName::new(pattern, class, quote));
        self.id = None;
    }

    /// After a tag of `count` attributes was scanned: the identity of the
    /// list when the tag's names are the whole list (each recognised or
    /// set in its place).
    #[inline]
    fn list_of(&mut self, count: usize) -> Option<NameList> {
        if count == 0 || count != self.names.len() {
            return None;
        }
        let id = self.id.get_or_insert_with(|| {
            NameList(NonZeroU64::MIN.saturating_add(LISTS_GIVEN.fetch_add(1, Ordering::Relaxed)))
        });
        Some(*id)
    }
}

/// What [`scan_plain_attributes`] tracks besides the attributes.
struct Track {
    /// The column is worked out at the end: `line_col` at `line_start`,
    /// one more for each byte after it but for the `narrow` bytes (the
    /// continuation bytes of multi-byte characters), which take none.
    line_col: u64,
    line_start: usize,
    narrow: u64,
    /// The newlines among the blanks.
    lines: u64,
    /// What the references add to the parser's entity count.
    entity_count: u64,
}

impl Track {
    /// The tag as it ends at `i`.
    #[inline]
    fn end(&self, i: usize, empty: bool) -> PlainTag {
        PlainTag {
            end: i,
            empty,
            lines: self.lines,
            col: self.line_col + (i - self.line_start) as u64 - self.narrow,
            entity_count: self.entity_count,
        }
    }
}

/// What follows an attribute (or the name) of a plain start tag.
enum Step {
    /// Blanks, then the next attribute's name at this position.
    Name(usize),
    /// The end of the tag.
    End(PlainTag),
    /// Anything else.
    Other,
}

/// The blanks at `i` in a plain start tag and what follows them, for
/// [`scan_plain_attributes`] (which takes one space before a name
/// itself).
#[inline(never)]
fn blanks_or_end(buf: &[u8], mut i: usize, track: &mut Track) -> Step {
    let at = |i: usize| buf.get(i).copied().unwrap_or(0);
    let blanks = i;
    loop {
        match at(i) {
            b' ' | b'\t' | b'\r' => i += 1,
            b'\n' => {
                i += 1;
                track.lines += 1;
                (track.line_col, track.line_start, track.narrow) = (1, i, 0);
            }
            _ => break,
        }
    }
    match at(i) {
        b'>' => Step::End(track.end(i, false)),
        b'/' if at(i + 1) == b'>' => Step::End(track.end(i, true)),
        b if i != blanks && is_ascii_name_start(b) => Step::Name(i),
        _ => Step::Other,
    }
}

/// The length of the value at the start of `s` up to its closing `quote`
/// if every byte before it is 0x20..=0x7F but `<` and `&` (which a value
/// of up to [`MAX_TEXT_LENGTH`] bytes finds, 16 bytes at a time while
/// whole windows last, then eight). Otherwise (another byte first, or `s`
/// ends within eight bytes of it) how many bytes from the start are such
/// bytes at least.
#[inline(always)]
fn simple_value(s: &[u8], quote: u8) -> Result<usize, usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    // the first byte that is no plain value byte, at `i`
    let stop = |i: usize| {
        if s[i] == quote && i <= MAX_TEXT_LENGTH {
            Ok(i)
        } else {
            Err(i)
        }
    };
    let mut i = match plain_value_windows(s, quote) {
        Ok(i) => return stop(i),
        Err(taken) => taken,
    };
    loop {
        let Some(word) = s.get(i..i + 8) else {
            return Err(i);
        };
        let word = <[u8; 8]>::try_from(word).map_err(|_| i)?;
        let x = u64::from_le_bytes(word);
        // 0x80 in the first byte of 0x80 and up, below 0x20, `<`, `&` or
        // the quote
        let other = ((x.wrapping_sub(ONES * 0x20) & !x) | x) & HIGH
            | zero(x ^ (ONES * u64::from(b'<')))
            | zero(x ^ (ONES * u64::from(b'&')))
            | zero(x ^ (ONES * u64::from(quote)));
        if other != 0 {
            return stop(i + (other.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
}

/// A value [`scan_plain_value`] took.
struct PlainValue {
    piece: Piece,
    /// The closing quote.
    end: usize,
    /// Its continuation bytes of multi-byte characters.
    narrow: u64,
    /// What its references add to the parser's entity count.
    entity_count: u64,
}

/// The value from `buf[start]`, just after its opening `QUOTE`, for
/// [`scan_plain_attributes`]: in the input, or in `bytes` once it holds a
/// reference. The bytes before `i` are 0x20..=0x7F but `<`, `&` and the
/// quote.
#[inline(always)]
fn scan_plain_value<const QUOTE: u8>(
    buf: &[u8],
    start: usize,
    mut i: usize,
    utf8: bool,
    bytes: &mut Vec<u8>,
) -> Option<PlainValue> {
    let table = if QUOTE == b'"' {
        &PLAIN_DQ_VALUE
    } else {
        &PLAIN_SQ_VALUE
    };
    let mut narrow = 0;
    let mut entity_count = 0;
    // once a reference is met, the value is built in `bytes` from `own`;
    // the input from `copied` on is not there yet
    let mut own = None;
    let mut copied = start;
    loop {
        match buf.get(i).copied() {
            // the caller stopped at a byte to look at, mostly: the plain
            // bytes are counted only where they are
            Some(b) if table[usize::from(b)] => i += plain_prefix(&buf[i..], table, QUOTE),
            Some(b) if b == QUOTE => break,
            Some(b'&') => {
                let (len, value) = predefined_at(&buf[i..])?;
                own.get_or_insert(bytes.len());
                append_short(bytes, buf, copied, i);
                bytes.push(value);
                i += len;
                copied = i;
                // what the general path counts for one
                entity_count += 2;
            }
            Some(0x80..) if utf8 => {
                let len = plain_multibyte_len(buf, i);
                if len == 0 {
                    return None;
                }
                i += len;
                narrow += len as u64 - 1;
            }
            _ => return None,
        }
    }
    if i - start > MAX_TEXT_LENGTH {
        return None;
    }
    let piece = match own {
        None => Piece::Input(start, i),
        Some(s) => {
            append_short(bytes, buf, copied, i);
            Piece::Own(s, bytes.len())
        }
    };
    Some(PlainValue {
        piece,
        end: i,
        narrow,
        entity_count,
    })
}

/// What a SAX2 start tag gives its element besides the name.
struct Sax2Tag {
    prefix: Option<Vec<u8>>,
    uri: Option<NsUri>,
    /// The namespace bindings in scope before the tag.
    ns_before: usize,
}

/// What [`Core::bare_start_tag`] did.
enum Bare {
    /// The tag was `<name>` and is parsed.
    Done,
    /// Not done: the tag starts with an ASCII name of this length that
    /// the fast path of `xmlParseName` takes.
    Name(usize),
    /// Not done.
    Other,
}

/// Key of a possibly prefixed name.
pub(in crate::libxml) fn qname_key(prefix: Option<&[u8]>, local: &[u8]) -> Vec<u8> {
    match prefix {
        Some(p) => {
            let mut k = p.to_vec();
            k.push(b':');
            k.extend_from_slice(local);
            k
        }
        None => local.to_vec(),
    }
}

/// The first earlier attribute each SAX2 attribute clashes with, as
/// libxml2's pairwise loop finds it: same local name and prefix (error 42)
/// or same local name and namespace (203), whichever comes first. Found
/// for a whole list by sorting positions, in buffers kept from one tag to
/// the next.
#[derive(Debug, Default)]
pub(in crate::libxml) struct Clashes {
    order: Vec<usize>,
    same_prefix: Vec<usize>,
    same_uri: Vec<usize>,
}

/// No earlier attribute.
const NO_CLASH: usize = usize::MAX;

impl Clashes {
    /// Finds the clashes of `atts`, whose namespaces are resolved in `ns`.
    fn find(&mut self, atts: &[NsAttr], ns: &Namespaces) {
        let n = atts.len();
        let by_prefix = |i: usize| (atts[i].local.as_slice(), atts[i].prefix.as_deref());
        first_of_each(&mut self.order, &mut self.same_prefix, n, 0..n, by_prefix);
        let by_uri = |i: usize| (atts[i].local.as_slice(), atts[i].uri.map(|u| ns.uri(u)));
        let with_uri = (0..n).filter(|&i| atts[i].uri.is_some());
        first_of_each(&mut self.order, &mut self.same_uri, n, with_uri, by_uri);
    }

    /// How the `i`th attribute clashes with the first earlier one it
    /// clashes with.
    fn of(&self, i: usize) -> Option<Clash> {
        let (p, u) = (self.same_prefix[i], self.same_uri[i]);
        if p == NO_CLASH && u == NO_CLASH {
            None
        } else if p <= u {
            Some(Clash::SamePrefix)
        } else {
            Some(Clash::SameUri)
        }
    }
}

/// How an attribute clashes with an earlier one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clash {
    /// The same local name and prefix (`XML_ERR_ATTRIBUTE_REDEFINED`).
    SamePrefix,
    /// The same local name and namespace (`XML_NS_ERR_ATTRIBUTE_REDEFINED`).
    SameUri,
}

/// Sets `first[i]`, for each of `positions` (below `len`), to the first
/// of them with the same key before it; [`NO_CLASH`] for any other `i`
/// below `len`. `order` is scratch space.
fn first_of_each<K: Ord>(
    order: &mut Vec<usize>,
    first: &mut Vec<usize>,
    len: usize,
    positions: impl Iterator<Item = usize>,
    key: impl Fn(usize) -> K,
) {
    order.clear();
    order.extend(positions);
    first.clear();
    first.resize(len, NO_CLASH);
    // equal keys side by side, each run in document order
    order.sort_unstable_by(|&a, &b| key(a).cmp(&key(b)).then(a.cmp(&b)));
    let mut head = None;
    for &i in order.iter() {
        match head {
            Some(h) if key(h) == key(i) => first[i] = h,
            _ => head = Some(i),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Clash, Clashes, RecentNames, scan_plain_attributes};
    use crate::libxml::namespaces::Namespaces;
    use crate::libxml::{Attributes, NsAttr};
    use crate::test_rng::XorShift;
    use proptest::prelude::*;

    /// Plain start tags of 1 to 12 attributes, names and values of up to
    /// 90 bytes, some values with a reference, a multi-byte character or
    /// the other quote, then a few bytes or many: each is taken whole by
    /// the one-pass scan, with the attributes it was built from and the
    /// column of its end.
    #[test]
    fn plain_tags_are_taken_with_the_attributes_they_hold() {
        let mut rng = XorShift::new(0x51A7_7A65);
        let starts = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_:";
        let name_chars = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:-.";
        let value_chars = b"abcdefghij KLMNOP 0123456789 =/>?!#$%*+,;@[]^`{|}~\x7F";
        let mut atts = Attributes::default();
        // one list of recent names for every case, as a parser keeps it
        let mut recent = RecentNames::default();
        for case in 0..3_000 {
            let mut doc = b"<e".to_vec();
            let mut want: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
            let mut narrow = 0;
            for k in 0..=rng.below(12) {
                doc.extend_from_slice(if rng.below(4) == 0 { b"  " } else { b" " });
                let mut name = vec![starts[rng.below(starts.len())]];
                for _ in 0..[1, 4, 12, 40, 90][rng.below(5)] {
                    name.push(name_chars[rng.below(name_chars.len())]);
                }
                // no name twice
                name.extend_from_slice(format!("{k}").as_bytes());
                let quote = if rng.below(3) == 0 { b'\'' } else { b'"' };
                let (mut raw, mut value) = (Vec::new(), Vec::new());
                for _ in 0..[0, 2, 7, 30, 90][rng.below(5)] {
                    match rng.below(40) {
                        0 => {
                            raw.extend_from_slice(b"&amp;");
                            value.push(b'&');
                        }
                        1 => {
                            raw.extend_from_slice("\u{e9}".as_bytes());
                            value.extend_from_slice("\u{e9}".as_bytes());
                            narrow += 1;
                        }
                        2 => {
                            let other = if quote == b'"' { b'\'' } else { b'"' };
                            raw.push(other);
                            value.push(other);
                        }
                        _ => {
                            let b = value_chars[rng.below(value_chars.len())];
                            raw.push(b);
                            value.push(b);
                        }
                    }
                }
                doc.extend_from_slice(&name);
                doc.extend_from_slice(&[b'=', quote]);
                doc.extend_from_slice(&raw);
                doc.push(quote);
                want.push((name, value));
            }
            let empty = rng.below(2) == 0;
            let end = doc.len();
            doc.extend_from_slice(if empty { b"/>" } else { b">" });
            doc.extend(std::iter::repeat_n(b't', [0, 3, 100][rng.below(3)]));
            let text = String::from_utf8_lossy(&doc).into_owned();
            atts.clear();
            let tag = scan_plain_attributes(&doc, 2, 3, true, &mut atts, &mut recent)
                .unwrap_or_else(|| panic!("case {case} not taken: {text:?}"));
            let got: Vec<(Vec<u8>, Vec<u8>)> = (0..atts.len())
                .map(|k| (atts.name(&doc, k).to_vec(), atts.value(&doc, k).to_vec()))
                .collect();
            assert_eq!(got, want, "case {case}: {text:?}");
            assert_eq!(
                (tag.end, tag.empty, tag.lines),
                (end, empty, 0),
                "case {case}"
            );
            assert_eq!(tag.col, 3 + (end - 2) as u64 - narrow, "case {case}");
        }
    }

    /// libxml2's pairwise loop over `atts`: the clash of each attribute.
    fn pairwise(atts: &[NsAttr], ns: &Namespaces) -> Vec<Option<Clash>> {
        let uri = |a: &NsAttr| a.uri.map(|u| ns.uri(u));
        (0..atts.len())
            .map(|i| {
                (0..i).find_map(|j| {
                    if atts[i].local != atts[j].local {
                        None
                    } else if atts[i].prefix == atts[j].prefix {
                        Some(Clash::SamePrefix)
                    } else if uri(&atts[i]).is_some() && uri(&atts[j]) == uri(&atts[i]) {
                        Some(Clash::SameUri)
                    } else {
                        None
                    }
                })
            })
            .collect()
    }

    proptest! {
        /// Lists of 17 to 40 attributes of a few names, prefixes and
        /// namespaces (`p` and `q` bound to one URI, `r` to another, `u`
        /// unbound), checked one after the other with the same buffers.
        #[test]
        fn clashes_are_those_of_the_pairwise_loop(
            lists in prop::collection::vec(
                prop::collection::vec((0..3u8, 0..5u8), 17..40), 1..4)
        ) {
            let mut ns = Namespaces::default();
            ns.push(Some(b"p"), b"urn:1");
            ns.push(Some(b"q"), b"urn:1");
            ns.push(Some(b"r"), b"urn:2");
            let mut clashes = Clashes::default();
            for list in lists {
                let atts: Vec<NsAttr> = list
                    .iter()
                    .map(|&(local, prefix)| {
                        let prefix = [None, Some(&b"p"[..]), Some(b"q"), Some(b"r"), Some(b"u")]
                            [usize::from(prefix)];
                        NsAttr {
                            local: vec![b'a' + local],
                            prefix: prefix.map(<[u8]>::to_vec),
                            uri: prefix.and_then(|p| ns.lookup(Some(p))),
                            value: Vec::new(),
                        }
                    })
                    .collect();
                clashes.find(&atts, &ns);
                let found: Vec<Option<Clash>> = (0..atts.len()).map(|i| clashes.of(i)).collect();
                prop_assert_eq!(found, pairwise(&atts, &ns));
            }
        }
    }
}
