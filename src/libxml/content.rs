//! Element content: names, start and end tags, attribute values, character
//! data, references, comments, processing instructions and CDATA sections,
//! with libxml2 2.9.14's error numbers and position counting.

use super::chars::{
    is_ascii_name_char, is_ascii_name_start, is_blank, is_byte_char, is_char, is_name_char,
    is_name_start, push_utf8,
};
use std::collections::HashMap;
use std::sync::Arc;

use super::input::BIG_BUFFER_SIZE;
use super::text_scan::{PLAIN_TEXT, plain_multibyte_len, plain_text_windows, text_run};
use super::{Attributes, Core, EntityKind, NsAttr, OpenTag, Piece, Progressive, State, Sub, err};
use crate::sax::Sax;

/// `XML_MAX_NAME_LENGTH`.
const MAX_NAME_LENGTH: usize = 50_000;
/// `XML_MAX_TEXT_LENGTH`.
const MAX_TEXT_LENGTH: usize = 10_000_000;
/// phpxml's limit on the replacement text of internal entities handed to
/// the character-data handler for references in content, per document.
/// PHP (through libxml2's compat layer) has none: each `&e;` is the whole
/// of `e` again, so a small document can ask for gigabytes.
pub(crate) const MAX_ENTITY_TEXT: u64 = 100_000_000;

const XML_NS: &[u8] = b"http://www.w3.org/XML/1998/namespace";

impl Core {
    // ------------------------------------------------------------------
    // Names
    // ------------------------------------------------------------------

    /// `xmlParseName`.
    pub(super) fn parse_name(&mut self) -> Option<Vec<u8>> {
        let mut own = Vec::new();
        match self.parse_name_at(&mut own)? {
            Piece::Input(s, e) => Some(self.buf[s..e].to_vec()),
            Piece::Own(..) => Some(own),
        }
    }

    /// `xmlParseName` appending the name to `out`: false (and nothing
    /// appended) where `parse_name` gives `None`.
    fn parse_name_into(&mut self, out: &mut Vec<u8>) -> bool {
        match self.parse_name_at(out) {
            Some(Piece::Input(s, e)) => {
                out.extend_from_slice(&self.buf[s..e]);
                true
            }
            Some(Piece::Own(..)) => true,
            None => false,
        }
    }

    /// `xmlParseName`, leaving an ASCII name in the input and appending
    /// any other to `own`: `None` (nothing appended) where `parse_name`
    /// gives `None`.
    #[inline(always)]
    fn parse_name_at(&mut self, own: &mut Vec<u8>) -> Option<Piece> {
        let start = self.cur;
        let mut i = start;
        if is_ascii_name_start(self.at(i)) {
            i += 1;
            i += self.buf[i..]
                .iter()
                .position(|&b| !is_ascii_name_char(b))
                .unwrap_or(self.buf.len() - i);
            let b = self.at(i);
            if b > 0 && b < 0x80 {
                let count = i - start;
                if count > MAX_NAME_LENGTH {
                    self.fatal(err::NAME_TOO_LONG);
                    return None;
                }
                self.cur = i;
                self.col += count as u64;
                return Some(Piece::Input(start, i));
            }
        }
        let name = self.parse_name_complex(false)?;
        let s = own.len();
        own.extend_from_slice(&name);
        Some(Piece::Own(s, own.len()))
    }

    /// `xmlParseNameComplex` / `xmlParseNCNameComplex` (`nc`: no colons).
    fn parse_name_complex(&mut self, nc: bool) -> Option<Vec<u8>> {
        if self.state == State::Eof {
            return None;
        }
        let start = self.cur;
        let (mut c, mut l) = self.cur_char();
        if !is_name_start(c) || (nc && c == u32::from(b':')) {
            return None;
        }
        let mut len = 0usize;
        loop {
            len += l;
            self.nextl(l);
            (c, l) = self.cur_char();
            if !(is_name_char(c) && !(nc && c == u32::from(b':'))) {
                break;
            }
        }
        if len > MAX_NAME_LENGTH {
            self.fatal(err::NAME_TOO_LONG);
            return None;
        }
        let end = (start + len).min(self.buf.len());
        Some(self.buf[start..end].to_vec())
    }

    /// `xmlParseNCName`.
    fn parse_ncname(&mut self) -> Option<Vec<u8>> {
        let start = self.cur;
        let mut i = start;
        let b = self.at(i);
        if (b.is_ascii_alphabetic() || b == b'_') && i < self.buf.len() {
            i += 1;
            while i < self.buf.len() && {
                let b = self.buf[i];
                b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.'
            } {
                i += 1;
            }
            if i < self.buf.len() {
                let b = self.buf[i];
                if b > 0 && b < 0x80 {
                    let count = i - start;
                    if count > MAX_NAME_LENGTH {
                        self.fatal(err::NAME_TOO_LONG);
                        return None;
                    }
                    let name = self.buf[start..i].to_vec();
                    self.cur = i;
                    self.col += count as u64;
                    return Some(name);
                }
            }
        }
        self.parse_name_complex(true)
    }

    /// `xmlParseNmtoken` (used only for `QName` recovery).
    fn parse_nmtoken(&mut self) -> Option<Vec<u8>> {
        let start = self.cur;
        let (mut c, mut l) = self.cur_char();
        let mut any = false;
        while is_name_char(c) {
            any = true;
            self.nextl(l);
            (c, l) = self.cur_char();
        }
        if any {
            Some(self.buf[start..self.cur.min(self.buf.len())].to_vec())
        } else {
            None
        }
    }

    /// `xmlParseQName`: (prefix, local).
    fn parse_qname(&mut self) -> Option<(Option<Vec<u8>>, Vec<u8>)> {
        let Some(l) = self.parse_ncname() else {
            if self.raw() == b':'
                && let Some(l) = self.parse_name()
            {
                self.error(err::NS_ERR_QNAME);
                return Some((None, l));
            }
            return None;
        };
        if self.raw() != b':' {
            return Some((None, l));
        }
        self.next_char();
        let p = l;
        let Some(l) = self.parse_ncname() else {
            if self.state == State::Eof {
                return None;
            }
            self.error(err::NS_ERR_QNAME);
            let tok = self.parse_nmtoken();
            if self.state == State::Eof {
                return None;
            }
            let mut q = p.clone();
            q.push(b':');
            if let Some(t) = tok {
                q.extend_from_slice(&t);
            }
            return Some((None, q));
        };
        if self.raw() == b':' {
            self.error(err::NS_ERR_QNAME);
            self.next_char();
            if let Some(tmp) = self.parse_name() {
                let mut q = l.clone();
                q.push(b':');
                q.extend_from_slice(&tmp);
                return Some((Some(p), q));
            }
            if self.state == State::Eof {
                return None;
            }
            let mut q = l.clone();
            q.push(b':');
            return Some((Some(p), q));
        }
        Some((Some(p), l))
    }

    // ------------------------------------------------------------------
    // Start tags
    // ------------------------------------------------------------------

    /// The `START_TAG` case of the push loop.
    #[inline(always)]
    pub(super) fn start_tag_state(&mut self, sink: &mut impl Sax) {
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
        let line = self.line;
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
        if self.raw() == b'/' && self.nxt(1) == b'>' {
            self.skip(2);
            if !self.disable_sax {
                if self.namespace_separator.is_some() {
                    self.emit_end_ns(sink, &name, prefix.as_deref(), uri.as_deref());
                } else {
                    self.emit_end(sink, &name);
                }
            }
            self.ns.truncate(ns_before);
            self.recycle_name(name);
            if self.state == State::Eof {
                return;
            }
            self.state = if self.names.is_empty() {
                State::Epilog
            } else {
                State::Content
            };
            self.progressive = Progressive::On;
            return;
        }
        if self.raw() == b'>' {
            // `NEXT`: `>` is one byte on the line
            self.next1();
        } else {
            self.fatal(err::GT_REQUIRED);
        }
        self.names.push(OpenTag {
            name,
            prefix,
            uri,
            ns_count: self.ns.len() - ns_before,
            line,
        });
        self.state = State::Content;
        self.progressive = Progressive::On;
    }

    /// A SAX1 start tag `<name>` of ASCII name characters and nothing
    /// else, in one step: what `parse_start_tag` and the `START_TAG` case
    /// do with it. Nothing done for any other tag.
    #[inline(always)]
    fn bare_start_tag(&mut self, sink: &mut impl Sax) -> Bare {
        let s = &self.buf[self.cur..];
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
        let mut name = self.name_pool.pop().unwrap_or_default();
        name.clear();
        append_short(&mut name, &s[1..][..len]);
        self.cur += len + 2;
        self.col += len as u64 + 2;
        if !self.disable_sax {
            self.emit_start_bare(sink, &name);
        }
        self.names.push(OpenTag {
            name,
            prefix: None,
            uri: None,
            ns_count: 0,
            line: self.line,
        });
        self.state = State::Content;
        self.progressive = Progressive::On;
        Bare::Done
    }

    /// A SAX1 start tag whose attributes are all plain (see
    /// [`scan_plain_attributes`]), in one pass: what `parse_start_tag` and
    /// the `START_TAG` case do with it. False, with nothing done, for any
    /// other tag, which the general path then parses from its start.
    /// `name_len` as in [`parse_start_tag`](Self::parse_start_tag).
    #[inline(never)]
    fn plain_start_tag(&mut self, sink: &mut impl Sax, name_len: usize) -> bool {
        if self.in_subset != 0 || general_only() {
            return false;
        }
        let mut atts = self.atts.take().unwrap_or_default();
        atts.clear();
        let name_end = self.cur + 1 + name_len;
        let col = self.col + 1 + name_len as u64;
        let Some(tag) = scan_plain_attributes(&self.buf, name_end, col, self.utf8, &mut atts)
        else {
            self.atts = Some(atts);
            return false;
        };
        #[cfg(test)]
        PLAIN_TAGS.set(PLAIN_TAGS.get() + 1);
        let line = self.line;
        let mut name = self.name_pool.pop().unwrap_or_default();
        name.clear();
        append_short(&mut name, &self.buf[self.cur + 1..name_end]);
        // where the general path stands when it reports the start tag: on
        // the `>` or the `/` of `/>`
        self.cur = tag.end;
        self.line += tag.lines;
        self.col = tag.col;
        self.nb_entities += tag.entity_count;
        if atts.len() > 0 {
            self.sub = Sub::None;
        }
        if !self.disable_sax {
            self.emit_start(sink, &name, &atts);
        }
        self.atts = Some(atts);
        if self.state == State::Eof {
            return true;
        }
        if tag.empty {
            self.skip(2);
            if !self.disable_sax {
                self.emit_end(sink, &name);
            }
            self.recycle_name(name);
            if self.state == State::Eof {
                return true;
            }
            self.state = if self.names.is_empty() {
                State::Epilog
            } else {
                State::Content
            };
        } else {
            self.next1();
            self.names.push(OpenTag {
                name,
                prefix: None,
                uri: None,
                ns_count: 0,
                line,
            });
            self.state = State::Content;
        }
        self.progressive = Progressive::On;
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
        let mut name = self.name_pool.pop().unwrap_or_default();
        name.clear();
        if name_len > 0 {
            name.extend_from_slice(&self.buf[self.cur + 1..self.cur + 1 + name_len]);
            self.cur += 1 + name_len;
            self.col += 1 + name_len as u64;
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
        let mut atts = self.atts.take().unwrap_or_default();
        atts.clear();
        while self.raw() != b'>'
            && (self.raw() != b'/' || self.nxt(1) != b'>')
            && is_byte_char(u32::from(self.raw()))
            && self.state != State::Eof
        {
            let q = self.cur;
            let cons = self.consumed;
            let (had_name, had_value) = self.parse_attribute(&mut atts);
            if self.raw() == b'>' || (self.raw() == b'/' && self.nxt(1) == b'>') {
                break;
            }
            if self.skip_blanks() == 0 {
                self.fatal(err::SPACE_REQUIRED);
            }
            if cons == self.consumed && q == self.cur && !had_name && !had_value {
                self.fatal(err::INTERNAL_ERROR);
                break;
            }
        }
        self.flush_default_refs(sink);
        if !self.disable_sax {
            self.emit_start(sink, &name, &atts);
        }
        self.atts = Some(atts);
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
                if atts.contains_name(&self.buf, name) {
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
    ) -> Option<(Vec<u8>, Option<Vec<u8>>, Option<Arc<[u8]>>)> {
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
        let mut atts: Vec<NsAttr> = Vec::new();
        let mut nsdecls: Vec<(Option<Vec<u8>>, Vec<u8>)> = Vec::new();
        while self.raw() != b'>'
            && (self.raw() != b'/' || self.nxt(1) != b'>')
            && is_byte_char(u32::from(self.raw()))
            && self.state != State::Eof
        {
            let q = self.cur;
            let cons = self.consumed;
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
                            self.add_ns_attr(aprefix, aname, v, &mut atts, &mut nsdecls);
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
            if cons == self.consumed && q == self.cur && !had_name && !had_value {
                self.fatal(err::INTERNAL_ERROR);
                break;
            }
        }
        // defaulted attributes from the DTD
        let key = qname_key(prefix.as_deref(), &local);
        if let Some(defs) = self.defaults.get(&key).cloned() {
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
        let mut clashes = Clashes::default();
        for i in 0..atts.len() {
            let nsname = match atts[i].prefix.clone() {
                Some(p) => {
                    let u = self.lookup_ns(Some(&p));
                    if u.is_none() {
                        self.error(err::NS_ERR_UNDEFINED_NAMESPACE);
                    }
                    u
                }
                None => None,
            };
            atts[i].uri.clone_from(&nsname);
            if atts.len() >= MANY_ATTRIBUTES {
                clashes.check(self, &atts, i);
                continue;
            }
            for j in 0..i {
                if atts[i].local == atts[j].local {
                    if atts[i].prefix == atts[j].prefix {
                        self.fatal(err::ATTRIBUTE_REDEFINED);
                        break;
                    }
                    if nsname.is_some() && atts[j].uri == nsname {
                        self.error(err::NS_ERR_ATTRIBUTE_REDEFINED);
                        break;
                    }
                }
            }
        }
        let uri = self.lookup_ns(prefix.as_deref());
        if prefix.is_some() && uri.is_none() {
            self.error(err::NS_ERR_UNDEFINED_NAMESPACE);
        }
        let _ = ns_base;
        self.flush_default_refs(sink);
        if !self.disable_sax {
            self.emit_start_ns(
                sink,
                &local,
                prefix.as_deref(),
                uri.as_deref(),
                &nsdecls,
                &atts,
            );
        }
        Some((local, prefix, uri))
    }

    /// Handles one parsed attribute in SAX2 mode: namespace declarations
    /// are bound, others collected.
    fn add_ns_attr(
        &mut self,
        aprefix: Option<Vec<u8>>,
        aname: Vec<u8>,
        value: Vec<u8>,
        atts: &mut Vec<NsAttr>,
        nsdecls: &mut Vec<(Option<Vec<u8>>, Vec<u8>)>,
    ) {
        if aprefix.is_none() && aname == b"xmlns" {
            let url = value;
            if !url.is_empty() {
                if !valid_uri(&url) {
                    self.error(err::WAR_NS_URI);
                } else if !has_scheme(&url) {
                    self.warning();
                }
                if url == XML_NS {
                    self.error(err::NS_ERR_XML_NAMESPACE);
                    return;
                }
                if url == b"http://www.w3.org/2000/xmlns/" {
                    self.error(err::NS_ERR_XML_NAMESPACE);
                    return;
                }
            }
            if nsdecls.iter().any(|(p, _)| p.is_none()) {
                self.fatal(err::ATTRIBUTE_REDEFINED);
            } else {
                self.ns.push((None, Arc::from(url.as_slice())));
                nsdecls.push((None, url));
            }
        } else if aprefix.as_deref() == Some(b"xmlns") {
            let url = value;
            if aname == b"xml" {
                if url != XML_NS {
                    self.error(err::NS_ERR_XML_NAMESPACE);
                }
                return;
            }
            if url == XML_NS {
                self.error(err::NS_ERR_XML_NAMESPACE);
                return;
            }
            if aname == b"xmlns" {
                self.error(err::NS_ERR_XML_NAMESPACE);
                return;
            }
            if url == b"http://www.w3.org/2000/xmlns/" {
                self.error(err::NS_ERR_XML_NAMESPACE);
                return;
            }
            if url.is_empty() {
                self.error(err::NS_ERR_XML_NAMESPACE);
                return;
            }
            if !valid_uri(&url) {
                self.error(err::WAR_NS_URI);
            }
            if nsdecls
                .iter()
                .any(|(p, _)| p.as_deref() == Some(aname.as_slice()))
            {
                self.fatal(err::ATTRIBUTE_REDEFINED);
            } else {
                self.ns
                    .push((Some(aname.clone()), Arc::from(url.as_slice())));
                nsdecls.push((Some(aname), url));
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

    /// `xmlGetNamespace`.
    fn lookup_ns(&self, prefix: Option<&[u8]>) -> Option<Arc<[u8]>> {
        if prefix == Some(b"xml") {
            return Some(Arc::from(XML_NS));
        }
        for (p, u) in self.ns.iter().rev() {
            if p.as_deref() == prefix {
                if prefix.is_none() && u.is_empty() {
                    return None;
                }
                return Some(Arc::clone(u));
            }
        }
        None
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
        if self.special.is_empty() {
            return false;
        }
        let k = (qname_key(eprefix, elem), qname_key(aprefix, att));
        self.special.contains(&k)
    }

    // ------------------------------------------------------------------
    // Attribute values
    // ------------------------------------------------------------------

    /// `xmlParseAttValueInternal`.
    pub(super) fn parse_att_value(&mut self, normalize: bool) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        self.parse_att_value_into(normalize, &mut out)
            .then_some(out)
    }

    /// `xmlParseAttValueInternal` appending the value to `out`: false where
    /// it gives NULL (`out` may then hold part of the value).
    fn parse_att_value_into(&mut self, normalize: bool, out: &mut Vec<u8>) -> bool {
        match self.parse_att_value_at(normalize, out) {
            Some(Piece::Input(s, e)) => {
                out.extend_from_slice(&self.buf[s..e]);
                true
            }
            Some(Piece::Own(..)) => true,
            None => false,
        }
    }

    /// `xmlParseAttValueInternal`: a value that is the input's bytes as
    /// they are is left there; any other is appended to `out`. `None` where
    /// it gives NULL (`out` may then hold part of the value).
    fn parse_att_value_at(&mut self, normalize: bool, out: &mut Vec<u8>) -> Option<Piece> {
        let limit = self.raw();
        if limit != b'"' && limit != b'\'' {
            self.fatal(err::ATTRIBUTE_NOT_STARTED);
            return None;
        }
        self.sub = Sub::AttributeValue;
        let mut line = self.line;
        let mut col = self.col + 1;
        let mut i = self.cur + 1;
        let end = self.buf.len();
        let mut start = i;
        let last;
        if normalize {
            while i < end && self.buf[i] != limit && is_blank(self.buf[i]) {
                if self.buf[i] == 0xA {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
                i += 1;
                start = i;
            }
            while i < end {
                let b = self.buf[i];
                if b == limit || !(0x20..=0x7F).contains(&b) || b == b'&' || b == b'<' {
                    break;
                }
                col += 1;
                i += 1;
                if b == 0x20 && self.at(i) == 0x20 {
                    break;
                }
            }
            let mut l = i;
            while l > start && self.buf[l - 1] == 0x20 {
                l -= 1;
            }
            last = l;
            while i < end && self.buf[i] != limit && is_blank(self.buf[i]) {
                if self.buf[i] == 0xA {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
                i += 1;
            }
            if i - start > MAX_TEXT_LENGTH {
                self.fatal(err::ATTRIBUTE_NOT_FINISHED);
                return None;
            }
            if self.at(i) != limit {
                let s = out.len();
                return self
                    .parse_att_value_complex(normalize, out)
                    .then_some(Piece::Own(s, out.len()));
            }
        } else {
            let table = if limit == b'"' {
                &PLAIN_DQ_VALUE
            } else {
                &PLAIN_SQ_VALUE
            };
            let run = self.buf[i..end]
                .iter()
                .position(|&b| !table[usize::from(b)])
                .unwrap_or(end - i);
            i += run;
            col += run as u64;
            last = i;
            if i - start > MAX_TEXT_LENGTH {
                self.fatal(err::ATTRIBUTE_NOT_FINISHED);
                return None;
            }
            if self.at(i) != limit {
                let s = out.len();
                return self
                    .parse_att_value_complex(normalize, out)
                    .then_some(Piece::Own(s, out.len()));
            }
        }
        i += 1;
        col += 1;
        self.cur = i;
        self.line = line;
        self.col = col;
        Some(Piece::Input(start, last))
    }

    /// `xmlParseAttValueComplex`, appending the value to `out`; false
    /// where it gives NULL.
    fn parse_att_value_complex(&mut self, normalize: bool, out: &mut Vec<u8>) -> bool {
        let mut buf = std::mem::take(&mut self.value_buf);
        buf.clear();
        let ok = self.att_value_complex(normalize, &mut buf);
        if ok {
            out.extend_from_slice(&buf);
        }
        self.value_buf = buf;
        ok
    }

    fn att_value_complex(&mut self, normalize: bool, buf: &mut Vec<u8>) -> bool {
        let limit = self.raw();
        self.sub = Sub::AttributeValue;
        self.next_char();
        let mut in_space = false;
        let (mut c, mut l) = self.cur_char();
        while self.raw() != limit && is_char(c) && c != u32::from(b'<') && self.state != State::Eof
        {
            if c == u32::from(b'&') {
                in_space = false;
                if self.nxt(1) == b'#' {
                    let val = self.parse_char_ref();
                    if val != 0 {
                        push_utf8(buf, val);
                    }
                } else if let Some((len, value)) = self.predefined_ref() {
                    // What the general path below does for a predefined
                    // entity outside the DTD: count it twice, append it.
                    self.skip(len);
                    self.nb_entities += 2;
                    buf.push(value);
                } else {
                    let ent = self.parse_entity_ref::<NoSink>(None);
                    self.nb_entities += 1;
                    if let Some(name) = ent {
                        self.append_entity_in_attr(&name, buf);
                        if self.state == State::Eof {
                            return false;
                        }
                    }
                }
            } else {
                if c == 0x20 || c == 0xD || c == 0xA || c == 0x9 {
                    if !buf.is_empty() || !normalize {
                        if !normalize || !in_space {
                            buf.push(0x20);
                        }
                        in_space = true;
                    }
                } else {
                    in_space = false;
                    push_utf8(buf, c);
                }
                self.nextl(l);
            }
            if !normalize {
                self.plain_att_run(buf, limit);
            }
            (c, l) = self.cur_char();
            // checked after each step since CVE-2022-40303 (Debian's 2.9.14)
            if buf.len() > MAX_TEXT_LENGTH {
                self.fatal(err::ATTRIBUTE_NOT_FINISHED);
                self.memory_error();
                return false;
            }
        }
        if self.state == State::Eof {
            return false;
        }
        if in_space && normalize {
            while buf.last() == Some(&0x20) {
                buf.pop();
            }
        }
        if self.raw() == b'<' {
            self.fatal(err::LT_IN_ATTRIBUTE);
        } else if self.raw() != limit {
            if c != 0 && !is_char(c) {
                self.fatal(err::INVALID_CHAR);
            } else {
                self.fatal(err::ATTRIBUTE_NOT_FINISHED);
            }
        } else {
            self.next_char();
        }
        true
    }

    /// The loop of `xmlParseAttValueComplex` without normalization over
    /// characters that read as themselves and are copied as they are
    /// (space included; not tab, line feed or carriage return, which become
    /// spaces, nor `&`, `<` or the quote): appends them to `buf` while it
    /// is at most `XML_MAX_TEXT_LENGTH` long, moving the cursor and column.
    fn plain_att_run(&mut self, buf: &mut Vec<u8>, limit: u8) {
        let s = &self.buf;
        let start = self.cur;
        let mut i = start;
        let mut n = buf.len();
        let mut chars = 0;
        let table = if limit == b'"' {
            &PLAIN_DQ_VALUE
        } else {
            &PLAIN_SQ_VALUE
        };
        while n <= MAX_TEXT_LENGTH && i < s.len() {
            // one-byte characters up to the length limit
            let end = s.len().min(i + (MAX_TEXT_LENGTH + 1 - n));
            let run = plain_prefix(&s[i..end], table, limit);
            i += run;
            n += run;
            chars += run as u64;
            if n > MAX_TEXT_LENGTH || i >= s.len() || s[i] < 0x80 || !self.utf8 {
                break;
            }
            let len = plain_multibyte_len(s, i);
            if len == 0 {
                break;
            }
            i += len;
            n += len;
            chars += 1;
        }
        buf.extend_from_slice(&s[start..i]);
        self.cur = i;
        self.col += chars;
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&apos;` or `&quot;` at the cursor outside
    /// the DTD: its length and the character it stands for.
    fn predefined_ref(&self) -> Option<(usize, u8)> {
        if self.in_subset != 0 {
            return None;
        }
        predefined_at(&self.buf[self.cur..])
    }

    /// The entity part of `xmlParseAttValueComplex` (replaceEntities on).
    fn append_entity_in_attr(&mut self, name: &[u8], buf: &mut Vec<u8>) {
        let Some(ent) = self.find_entity(name) else {
            return;
        };
        if ent.kind == EntityKind::Predefined {
            buf.push(ent.content[0]);
            return;
        }
        self.depth += 1;
        let rep = self.decode_entities(&ent.content);
        self.depth -= 1;
        if let Some(rep) = rep {
            for b in rep {
                if b == 0xD || b == 0xA || b == 0x9 {
                    buf.push(0x20);
                } else {
                    buf.push(b);
                }
            }
        }
    }

    // ------------------------------------------------------------------
    // End tags
    // ------------------------------------------------------------------

    /// `xmlParseEndTag1` / `xmlParseEndTag2`.
    #[inline]
    pub(super) fn parse_end_tag(&mut self, sink: &mut impl Sax) {
        if self.namespace_separator.is_none()
            && self.raw() == b'<'
            && self.nxt(1) == b'/'
            && self.bare_end_tag(sink)
        {
            return;
        }
        self.parse_end_tag_general(sink);
    }

    /// [`parse_end_tag`](Self::parse_end_tag) for any end tag.
    #[inline(never)]
    fn parse_end_tag_general(&mut self, sink: &mut impl Sax) {
        let sax2 = self.namespace_separator.is_some();
        if self.raw() != b'<' || self.nxt(1) != b'/' {
            self.fatal(err::LTSLASH_REQUIRED);
            if sax2 && let Some(t) = self.names.pop() {
                let n = self.ns.len() - t.ns_count;
                self.ns.truncate(n);
            }
            return;
        }
        self.skip(2);
        // Taken off the stack while it is compared and reported (the
        // parser does not look at the stack meanwhile), put back on halt.
        let Some(tag) = self.names.pop() else {
            return;
        };
        let matched = self.parse_name_and_compare(&tag.name, tag.prefix.as_deref());
        if self.state == State::Eof {
            self.names.push(tag);
            return;
        }
        self.skip_blanks();
        if !is_byte_char(u32::from(self.raw())) || self.raw() != b'>' {
            self.fatal(err::GT_REQUIRED);
        } else {
            self.next1();
        }
        if !matched {
            self.fatal(err::TAG_NAME_MISMATCH);
        }
        if !self.disable_sax {
            if sax2 {
                self.emit_end_ns(sink, &tag.name, tag.prefix.as_deref(), tag.uri.as_deref());
            } else {
                self.emit_end(sink, &tag.name);
            }
        }
        if tag.ns_count > 0 {
            let n = self.ns.len() - tag.ns_count;
            self.ns.truncate(n);
        }
        self.recycle_name(tag.name);
    }

    /// A SAX1 end tag `</name>` that closes the open element by its exact
    /// name, in one step: what `parse_end_tag` does with it. False (nothing
    /// done) for any other.
    #[inline]
    fn bare_end_tag(&mut self, sink: &mut impl Sax) -> bool {
        if general_only() {
            return false;
        }
        let Some(tag) = self.names.last() else {
            return false;
        };
        let n = tag.name.len();
        let s = &self.buf[self.cur + 2..];
        if s.len() <= n || s[n] != b'>' || !same_short(&s[..n], &tag.name) {
            return false;
        }
        let Some(tag) = self.names.pop() else {
            return false;
        };
        self.cur += n + 3;
        self.col += n as u64 + 3;
        if !self.disable_sax {
            self.emit_end(sink, &tag.name);
        }
        self.recycle_name(tag.name);
        true
    }

    /// Keeps the allocation of a name no longer used for the next start
    /// tag.
    #[inline]
    fn recycle_name(&mut self, name: Vec<u8>) {
        if self.name_pool.len() < 64 {
            self.name_pool.push(name);
        }
    }

    /// `xmlParseNameAndCompare` / `xmlParseQNameAndCompare`: true on a match.
    fn parse_name_and_compare(&mut self, name: &[u8], prefix: Option<&[u8]>) -> bool {
        let mut i = self.cur;
        if let Some(p) = prefix {
            let mut k = 0;
            while k < p.len() && self.at(i) == p[k] && self.at(i) != 0 {
                i += 1;
                k += 1;
            }
            if k == p.len() && self.at(i) == b':' {
                i += 1;
                let mut k = 0;
                while k < name.len() && self.at(i) == name[k] && self.at(i) != 0 {
                    i += 1;
                    k += 1;
                }
                if k == name.len() && (self.at(i) == b'>' || is_blank(self.at(i))) {
                    self.col += (i - self.cur) as u64;
                    self.cur = i;
                    return true;
                }
            }
            return match self.parse_qname() {
                Some((p2, l)) => l == name && p2.as_deref() == Some(p),
                None => false,
            };
        }
        // Names hold no NUL, so the byte-wise compare that stops at one is
        // a prefix test.
        debug_assert!(!name.contains(&0));
        if self.buf[i..].starts_with(name) {
            i += name.len();
            if self.at(i) == b'>' || is_blank(self.at(i)) {
                self.col += name.len() as u64;
                self.cur = i;
                return true;
            }
        }
        match self.parse_name() {
            Some(n) => n == name,
            None => false,
        }
    }

    // ------------------------------------------------------------------
    // Character data
    // ------------------------------------------------------------------

    /// `xmlParseCharData(ctxt, 0)`.
    pub(super) fn parse_char_data(&mut self, sink: &mut impl Sax) {
        let mut line = self.line;
        let mut col = self.col;
        let mut i = self.cur;
        loop {
            // get_more_space
            loop {
                let spaces = self
                    .buf
                    .get(i..)
                    .map_or(0, |rest| rest.iter().take_while(|&&b| b == 0x20).count());
                i += spaces;
                self.col += spaces as u64;
                if self.at(i) == 0xA {
                    while self.at(i) == 0xA {
                        self.line += 1;
                        self.col = 1;
                        i += 1;
                    }
                    continue;
                }
                break;
            }
            if self.at(i) == b'<' {
                let n = i - self.cur;
                if n > 0 {
                    let s = self.cur;
                    self.cur = i;
                    self.emit_characters(sink, &self.buf[s..i]);
                }
                return;
            }
            // get_more
            loop {
                let run = plain_text_prefix(&self.buf[i.min(self.buf.len())..]);
                i += run;
                self.col += run as u64;
                if self.at(i) == 0xA {
                    while self.at(i) == 0xA {
                        self.line += 1;
                        self.col = 1;
                        i += 1;
                    }
                    continue;
                }
                if self.at(i) == b']' {
                    if self.at(i + 1) == b']' && self.at(i + 2) == b'>' {
                        self.fatal(err::MISPLACED_CDATA_END);
                        self.cur = i + 1;
                        return;
                    }
                    i += 1;
                    self.col += 1;
                    continue;
                }
                break;
            }
            let n = i - self.cur;
            if n > 0 {
                let s = self.cur;
                if is_blank(self.raw()) {
                    self.cur = i;
                }
                self.emit_characters(sink, &self.buf[s..i]);
                line = self.line;
                col = self.col;
                if self.state != State::Content {
                    return;
                }
            }
            self.cur = i;
            if self.at(i) == 0xD && self.at(i + 1) == 0xA {
                self.cur = i + 1;
                i += 2;
                self.line += 1;
                self.col = 1;
                // `continue` of libxml2's do-while: the condition is tested
                let b = self.at(i);
                if (0x20..=0x7F).contains(&b) || b == 0x09 || b == 0x0A {
                    continue;
                }
                break;
            }
            if self.at(i) == b'<' || self.at(i) == b'&' {
                return;
            }
            i = self.cur;
            let b = self.at(i);
            if !((0x20..=0x7F).contains(&b) || b == 0x09 || b == 0x0A) {
                break;
            }
        }
        self.line = line;
        self.col = col;
        self.parse_char_data_complex(sink);
    }

    /// `xmlParseCharDataComplex`.
    ///
    /// Characters are handed on in pieces of [`BIG_BUFFER_SIZE`] bytes or a
    /// few more, as libxml2 does. Runs of characters that read as
    /// themselves ([`plain_text_len`]) are copied in one go; every other
    /// character takes libxml2's one-at-a-time path.
    fn parse_char_data_complex(&mut self, sink: &mut impl Sax) {
        let mut buf = std::mem::take(&mut self.text_buf);
        buf.clear();
        // The characters the loop takes as they are, taken before it looks
        // at the first one.
        self.plain_text_run(&mut buf);
        let (mut c, mut l) = self.cur_char();
        loop {
            if buf.len() >= BIG_BUFFER_SIZE {
                if !self.disable_sax {
                    self.emit_characters(sink, &buf);
                }
                buf.clear();
                if self.state != State::Content {
                    self.text_buf = buf;
                    return;
                }
            }
            if !(c != u32::from(b'<') && c != u32::from(b'&') && is_char(c)) {
                break;
            }
            if c == u32::from(b']') && self.nxt(1) == b']' && self.nxt(2) == b'>' {
                self.fatal(err::MISPLACED_CDATA_END);
            }
            push_utf8(&mut buf, c);
            self.nextl(l);
            self.plain_text_run(&mut buf);
            (c, l) = self.cur_char();
        }
        if !buf.is_empty() && !self.disable_sax {
            self.emit_characters(sink, &buf);
        }
        self.text_buf = buf;
        if c != 0 && !is_char(c) {
            self.fatal(err::INVALID_CHAR);
            self.nextl(l);
        }
    }

    /// The inner loop of `xmlParseCharDataComplex` over characters that
    /// `xmlCurrentChar` reads as themselves without side effects, that
    /// `xmlCopyChar` writes back as the same bytes and that do not end the
    /// loop: appends them to `buf` while it is shorter than
    /// [`BIG_BUFFER_SIZE`], moving the cursor, line and column as `NEXTL`
    /// does. Stops before anything else.
    fn plain_text_run(&mut self, buf: &mut Vec<u8>) {
        let start = self.cur;
        let Some(room) = BIG_BUFFER_SIZE.checked_sub(buf.len()).filter(|&r| r > 0) else {
            return;
        };
        // A character is taken while the piece is shorter than
        // BIG_BUFFER_SIZE, i.e. while it starts before `end`.
        let end = self.buf.len().min(start + room);
        let run = text_run(&self.buf, start, end, self.utf8);
        buf.extend_from_slice(&self.buf[start..run.at]);
        self.cur = run.at;
        self.line += run.lines;
        // The column counts characters: bytes less continuation bytes.
        let col_base = if run.lines > 0 { 1 } else { self.col };
        self.col = col_base + (run.at - run.line_start - run.extra) as u64;
    }

    // ------------------------------------------------------------------
    // CDATA sections (push mode)
    // ------------------------------------------------------------------

    /// The `CDATA_SECTION` case of the push loop; false means "wait".
    pub(super) fn cdata_state(&mut self, sink: &mut impl Sax) -> bool {
        match self.lookup(b"]]>") {
            None => {
                if self.avail() >= BIG_BUFFER_SIZE + 2 {
                    let tmp = check_cdata(&self.buf[self.cur..self.cur + BIG_BUFFER_SIZE], false);
                    if tmp < 0 {
                        self.cur += tmp.unsigned_abs() as usize;
                        self.fatal(err::INVALID_CHAR);
                        return false;
                    }
                    let tmp = tmp.unsigned_abs() as usize;
                    if !self.disable_sax {
                        self.emit_characters(sink, &self.buf[self.cur..self.cur + tmp]);
                    }
                    if self.state == State::Eof {
                        return false;
                    }
                    self.skipl(tmp);
                    self.check_index = 0;
                }
                false
            }
            Some(base) => {
                let tmp = check_cdata(&self.buf[self.cur..self.cur + base], true);
                if tmp < 0 || tmp.unsigned_abs() as usize != base {
                    self.cur += tmp.unsigned_abs() as usize;
                    self.fatal(err::INVALID_CHAR);
                    return false;
                }
                if base == 0 {
                    if !self.disable_sax
                        && self.cur >= 9
                        && &self.buf[self.cur - 9..self.cur] == b"<![CDATA["
                    {
                        self.emit_characters(sink, b"");
                    }
                } else if !self.disable_sax {
                    self.emit_characters(sink, &self.buf[self.cur..self.cur + base]);
                }
                if self.state == State::Eof {
                    return false;
                }
                self.skipl(base + 3);
                self.check_index = 0;
                self.state = State::Content;
                true
            }
        }
    }

    // ------------------------------------------------------------------
    // Comments and PIs
    // ------------------------------------------------------------------

    /// `xmlParseComment`.
    pub(super) fn parse_comment(&mut self, sink: &mut impl Sax) {
        if !(self.raw() == b'<'
            && self.nxt(1) == b'!'
            && self.nxt(2) == b'-'
            && self.nxt(3) == b'-')
        {
            return;
        }
        self.skip(4);
        self.shrink_macro();
        let mut buf: Vec<u8> = Vec::new();
        let mut i = self.cur;
        loop {
            if self.at(i) == 0xA {
                while self.at(i) == 0xA {
                    self.line += 1;
                    self.col = 1;
                    i += 1;
                }
            }
            // get_more
            loop {
                let mut ccol = self.col;
                loop {
                    let b = self.at(i);
                    if (b > b'-' && b <= 0x7F) || (0x20..b'-').contains(&b) || b == 0x09 {
                        i += 1;
                        ccol += 1;
                    } else {
                        break;
                    }
                }
                self.col = ccol;
                if self.at(i) == 0xA {
                    while self.at(i) == 0xA {
                        self.line += 1;
                        self.col = 1;
                        i += 1;
                    }
                    continue;
                }
                let n = i - self.cur;
                if n > 0 {
                    buf.extend_from_slice(&self.buf[self.cur..i]);
                }
                if buf.len() > MAX_TEXT_LENGTH {
                    self.fatal(err::COMMENT_NOT_FINISHED);
                    return;
                }
                self.cur = i;
                if self.at(i) == 0xA {
                    i += 1;
                    self.line += 1;
                    self.col = 1;
                }
                if self.at(i) == 0xD && self.at(i + 1) == 0xA {
                    self.cur = i + 1;
                    i += 2;
                    self.line += 1;
                    self.col = 1;
                    continue;
                }
                break;
            }
            self.shrink_macro();
            i = self.cur;
            if self.at(i) == b'-' {
                if self.at(i + 1) == b'-' {
                    if self.at(i + 2) == b'>' {
                        self.skip(3);
                        if !self.disable_sax {
                            self.emit_comment(sink, &buf);
                        }
                        return;
                    }
                    self.fatal(err::HYPHEN_IN_COMMENT);
                    if self.state == State::Eof {
                        return;
                    }
                    i += 1;
                    self.col += 1;
                }
                i += 1;
                self.col += 1;
                continue;
            }
            let b = self.at(i);
            if !((0x20..=0x7F).contains(&b) || b == 0x09 || b == 0x0A) {
                break;
            }
        }
        self.parse_comment_complex(sink, buf);
    }

    /// `xmlParseCommentComplex`.
    fn parse_comment_complex(&mut self, sink: &mut impl Sax, mut buf: Vec<u8>) {
        let (q, ql) = self.cur_char();
        if q == 0 {
            self.fatal(err::COMMENT_NOT_FINISHED);
            return;
        }
        if !is_char(q) {
            self.fatal(err::INVALID_CHAR);
            return;
        }
        self.nextl(ql);
        let (r, rl) = self.cur_char();
        if r == 0 {
            self.fatal(err::COMMENT_NOT_FINISHED);
            return;
        }
        if !is_char(r) {
            self.fatal(err::INVALID_CHAR);
            return;
        }
        self.nextl(rl);
        let (mut q, mut r, mut rl) = (q, r, rl);
        let _ = &mut rl;
        let (mut c, mut l) = self.cur_char();
        if c == 0 {
            self.fatal(err::COMMENT_NOT_FINISHED);
            return;
        }
        while is_char(c) && (c != u32::from(b'>') || r != u32::from(b'-') || q != u32::from(b'-')) {
            if r == u32::from(b'-') && q == u32::from(b'-') {
                self.fatal(err::HYPHEN_IN_COMMENT);
            }
            push_utf8(&mut buf, q);
            q = r;
            r = c;
            rl = l;
            self.nextl(l);
            (c, l) = self.cur_char();
            // checked after each step since CVE-2022-40303 (Debian's 2.9.14)
            if buf.len() > MAX_TEXT_LENGTH {
                self.fatal(err::COMMENT_NOT_FINISHED);
                return;
            }
        }
        let _ = rl;
        if c == 0 {
            self.fatal(err::COMMENT_NOT_FINISHED);
        } else if !is_char(c) {
            self.fatal(err::INVALID_CHAR);
        } else {
            self.next_char();
            if !self.disable_sax {
                self.emit_comment(sink, &buf);
            }
        }
    }

    /// `xmlParsePITarget`.
    fn parse_pi_target(&mut self) -> Option<Vec<u8>> {
        let name = self.parse_name()?;
        if name.len() >= 3 && name[..3].eq_ignore_ascii_case(b"xml") {
            if name.len() == 3 {
                self.fatal(err::RESERVED_XML_NAME);
                return Some(name);
            }
            if name != b"xml-stylesheet" && name != b"xml-model" {
                self.warning();
            }
        }
        if name.contains(&b':') {
            self.error(err::NS_ERR_COLON);
        }
        Some(name)
    }

    /// `xmlParsePI`.
    pub(super) fn parse_pi(&mut self, sink: &mut impl Sax) {
        if !(self.raw() == b'<' && self.nxt(1) == b'?') {
            return;
        }
        self.skip(2);
        self.shrink_macro();
        let Some(target) = self.parse_pi_target() else {
            self.fatal(err::PI_NOT_STARTED);
            return;
        };
        if self.raw() == b'?' && self.nxt(1) == b'>' {
            self.skip(2);
            if !self.disable_sax {
                self.emit_pi(sink, &target, None);
            }
            return;
        }
        if self.skip_blanks() == 0 {
            self.fatal(err::SPACE_REQUIRED);
        }
        let mut buf: Vec<u8> = Vec::new();
        let (mut c, mut l) = self.cur_char();
        while is_char(c) && (c != u32::from(b'?') || self.nxt(1) != b'>') {
            push_utf8(&mut buf, c);
            self.nextl(l);
            (c, l) = self.cur_char();
            // checked after each step since CVE-2022-40303 (Debian's 2.9.14)
            if buf.len() > MAX_TEXT_LENGTH {
                self.fatal(err::PI_NOT_FINISHED);
                return;
            }
        }
        if c != u32::from(b'?') {
            self.fatal(err::PI_NOT_FINISHED);
        } else {
            self.skip(2);
            if !self.disable_sax {
                self.emit_pi(sink, &target, Some(&buf));
            }
        }
    }

    // ------------------------------------------------------------------
    // References
    // ------------------------------------------------------------------

    /// `xmlParseCharRef`: the code point, 0 on error.
    pub(super) fn parse_char_ref(&mut self) -> u32 {
        let mut val: u32 = 0;
        let mut count = 0;
        if self.raw() == b'&' && self.nxt(1) == b'#' && self.nxt(2) == b'x' {
            self.skip(3);
            while self.raw() != b';' {
                if count > 20 {
                    count = 0;
                }
                count += 1;
                let c = self.raw();
                if c.is_ascii_digit() {
                    val = val * 16 + u32::from(c - b'0');
                } else if (b'a'..=b'f').contains(&c) && count < 20 {
                    val = val * 16 + u32::from(c - b'a') + 10;
                } else if (b'A'..=b'F').contains(&c) && count < 20 {
                    val = val * 16 + u32::from(c - b'A') + 10;
                } else {
                    self.fatal(err::INVALID_HEX_CHARREF);
                    val = 0;
                    break;
                }
                if val > 0x110000 {
                    val = 0x110000;
                }
                self.next_char();
                count += 1;
            }
            if self.raw() == b';' {
                self.col += 1;
                self.cur += 1;
            }
        } else if self.raw() == b'&' && self.nxt(1) == b'#' {
            self.skip(2);
            while self.raw() != b';' {
                if count > 20 {
                    count = 0;
                }
                count += 1;
                let c = self.raw();
                if c.is_ascii_digit() {
                    val = val * 10 + u32::from(c - b'0');
                } else {
                    self.fatal(err::INVALID_DEC_CHARREF);
                    val = 0;
                    break;
                }
                if val > 0x110000 {
                    val = 0x110000;
                }
                self.next_char();
                count += 1;
            }
            if self.raw() == b';' {
                self.col += 1;
                self.cur += 1;
            }
        } else {
            self.fatal(err::INVALID_CHARREF);
        }
        if val >= 0x110000 {
            self.fatal(err::INVALID_CHAR);
        } else if is_char(val) {
            return val;
        } else {
            self.fatal(err::INVALID_CHAR);
        }
        0
    }

    /// `xmlParseReference` in content.
    pub(super) fn parse_reference(&mut self, sink: &mut impl Sax) {
        if self.raw() != b'&' {
            return;
        }
        if self.nxt(1) == b'#' {
            let value = self.parse_char_ref();
            if value == 0 {
                return;
            }
            if !self.disable_sax {
                if self.utf8 {
                    // on the stack: no allocation for each reference
                    if let Some(ch) = char::from_u32(value) {
                        let mut tmp = [0u8; 4];
                        self.emit_characters(sink, ch.encode_utf8(&mut tmp).as_bytes());
                    } else {
                        let mut out = Vec::new();
                        push_utf8(&mut out, value);
                        self.emit_characters(sink, &out);
                    }
                } else if value <= 0xFF {
                    self.emit_characters(sink, &[value as u8]);
                }
            }
            return;
        }
        if self.sub == Sub::None
            && let Some((len, value)) = self.predefined_ref()
        {
            // What parse_entity_ref and compat.c's getEntity do with a
            // predefined entity in content, without looking it up.
            let at = self.cur;
            self.skip(len);
            self.nb_entities += 1;
            if self.installed.default && !self.installed.character_data {
                sink.default(&self.buf[at..at + len]);
            } else if self.installed.character_data {
                sink.character_data(&[value]);
            }
            return;
        }
        let _ = self.parse_entity_ref(Some(sink));
        // compat.c starts with wellFormed = 0, so libxml2 never expands the
        // entity itself: what compat.c's getEntity sent is all there is.
    }

    /// `xmlParseEntityRef`: the entity name if it resolved. With a sink,
    /// compat.c's `_get_entity` routes the reference (content only).
    pub(super) fn parse_entity_ref<S: Sax>(&mut self, sink: Option<&mut S>) -> Option<Vec<u8>> {
        if self.state == State::Eof || self.raw() != b'&' {
            return None;
        }
        self.next_char();
        let Some(name) = self.parse_name() else {
            self.fatal(err::NAME_REQUIRED);
            return None;
        };
        if self.raw() != b';' {
            self.fatal(err::ENTITYREF_SEMICOL_MISSING);
            return None;
        }
        self.next_char();
        if predefined(&name).is_none() {
            self.nb_entities += 1;
        }
        let found = self.compat_get_entity(sink, &name);
        if self.state == State::Eof {
            return None;
        }
        match found {
            None => {
                if self.standalone == 1 || (!self.has_external_subset && !self.has_pe_refs) {
                    self.fatal(err::UNDECLARED_ENTITY);
                } else {
                    self.error(err::WAR_UNDECLARED_ENTITY);
                }
                self.entity_check(None);
                None
            }
            Some(kind) => {
                match kind {
                    EntityKind::ExternalGeneralUnparsed => self.fatal(err::UNPARSED_ENTITY),
                    EntityKind::ExternalGeneralParsed if self.sub == Sub::AttributeValue => {
                        self.fatal(err::ENTITY_IS_EXTERNAL);
                    }
                    k if self.sub == Sub::AttributeValue && k != EntityKind::Predefined => {
                        let ent = self.entities.get(&name);
                        if let Some(e) = ent
                            && ((e.checked & 1) == 1 || e.checked == 0)
                            && e.content.contains(&b'<')
                        {
                            self.fatal(err::LT_IN_ATTRIBUTE);
                        }
                    }
                    EntityKind::InternalParameter | EntityKind::ExternalParameter => {
                        self.fatal(err::ENTITY_IS_PARAMETER);
                    }
                    _ => {}
                }
                Some(name)
            }
        }
    }

    /// The entity named, predefined first.
    pub(super) fn find_entity(&self, name: &[u8]) -> Option<super::Entity> {
        if let Some(p) = predefined(name) {
            return Some(p);
        }
        self.entities.get(name).cloned()
    }

    /// compat.c's `_get_entity`: returns the kind of the entity found.
    fn compat_get_entity<S: Sax>(
        &mut self,
        sink: Option<&mut S>,
        name: &[u8],
    ) -> Option<EntityKind> {
        if self.in_subset != 0 {
            return None;
        }
        let ent = self.find_entity(name);
        let in_value = self.sub == Sub::AttributeValue || self.sub == Sub::EntityValue;
        if ent.is_none() || !in_value {
            let kind = ent.as_ref().map(|e| e.kind);
            match kind {
                None
                | Some(
                    EntityKind::InternalGeneral
                    | EntityKind::InternalParameter
                    | EntityKind::Predefined,
                ) => {
                    let predefined = kind == Some(EntityKind::Predefined);
                    if self.installed.default && !(predefined && self.installed.character_data) {
                        if let Some(s) = sink {
                            let mut d = vec![b'&'];
                            d.extend_from_slice(name);
                            d.push(b';');
                            s.default(&d);
                        } else {
                            self.pending_default_refs.push(name.to_vec());
                        }
                    } else if self.installed.character_data
                        && let Some(e) = &ent
                        && let Some(s) = sink
                    {
                        // phpxml's own limit: PHP hands the replacement
                        // text over for every reference, without bound
                        self.entity_text += e.content.len() as u64;
                        if self.entity_text > MAX_ENTITY_TEXT {
                            self.fatal(err::ENTITY_LOOP);
                            self.state = State::Eof;
                            self.halted = true;
                            return None;
                        }
                        s.character_data(&e.content);
                    }
                }
                Some(EntityKind::ExternalGeneralParsed) => {
                    if self.installed.external_entity_ref
                        && let Some(e) = &ent
                        && let Some(s) = sink
                    {
                        let ok = s.external_entity_ref(
                            name,
                            e.system_id.as_deref(),
                            e.public_id.as_deref(),
                        );
                        if !ok {
                            self.stop();
                            self.error_code = err::EXTERNAL_ENTITY_HANDLING;
                        }
                    }
                }
                _ => {}
            }
        }
        ent.map(|e| e.kind)
    }

    /// `xmlStringDecodeEntities(ctxt, str, XML_SUBSTITUTE_REF)`: expands
    /// references in an entity's replacement text for an attribute value,
    /// with libxml2's amplification checks (`xmlParserEntityCheck`) where it
    /// makes them: after each reference, and each time its buffer would
    /// grow while a replacement text is copied in.
    pub(super) fn decode_entities(&mut self, s: &[u8]) -> Option<Vec<u8>> {
        if self.depth > 40 {
            self.fatal(err::ENTITY_LOOP);
            return None;
        }
        let mut out = Vec::new();
        // libxml2's buffer size: its checks run when it grows
        let mut size = BIG_BUFFER_SIZE;
        let mut i = 0;
        while i < s.len() && self.state != State::Eof {
            let c = s[i];
            if c == b'&' && s.get(i + 1) == Some(&b'#') {
                let (val, n) = string_char_ref(&s[i..]);
                if val == 0 {
                    // a bad digit (6/7) is followed by "0 is not a Char" (9)
                    self.fatal(err::INVALID_CHAR);
                    return None;
                }
                push_utf8(&mut out, val);
                i += n;
            } else if c == b'&' {
                let mut j = i + 1;
                while j < s.len() && s[j] != b';' {
                    j += 1;
                }
                if j >= s.len() {
                    self.fatal(err::ENTITYREF_SEMICOL_MISSING);
                    return Some(out);
                }
                let name = s[i + 1..j].to_vec();
                i = j + 1;
                if let Some(p) = predefined(&name) {
                    out.push(p.content[0]);
                    if out.len() + BIG_BUFFER_SIZE > size {
                        size = size * 2 + BIG_BUFFER_SIZE;
                    }
                    continue;
                }
                self.nb_entities += 1;
                let Some(e) = self.entities.get(&name) else {
                    if self.standalone == 1 || (!self.has_external_subset && !self.has_pe_refs) {
                        self.fatal(err::UNDECLARED_ENTITY);
                    } else {
                        self.error(err::WAR_UNDECLARED_ENTITY);
                    }
                    // once in xmlParseStringEntityRef, once after it
                    self.entity_check(None);
                    self.entity_check(None);
                    continue;
                };
                let (kind, has_lt) = (e.kind, e.content.contains(&b'<'));
                if kind == EntityKind::ExternalGeneralParsed {
                    self.fatal(err::ENTITY_IS_EXTERNAL);
                    continue;
                }
                if has_lt {
                    self.fatal(err::LT_IN_ATTRIBUTE);
                }
                self.entity_check(Some(&name));
                let Some(e) = self.entities.get(&name) else {
                    continue;
                };
                self.nb_entities += e.checked / 2;
                let content = e.content.clone();
                self.depth += 1;
                let rep = self.decode_entities(&content);
                self.depth -= 1;
                let Some(rep) = rep else {
                    // libxml2 empties the entity (`ent->content[0] = 0`)
                    if let Some(e) = self.entities.get_mut(&name) {
                        e.content.clear();
                    }
                    return None;
                };
                for b in rep {
                    out.push(b);
                    if out.len() + BIG_BUFFER_SIZE > size {
                        if self.entity_check_size(out.len()) {
                            return None;
                        }
                        size = size * 2 + BIG_BUFFER_SIZE;
                    }
                }
            } else {
                out.push(c);
                i += 1;
                if out.len() + BIG_BUFFER_SIZE > size {
                    size = size * 2 + BIG_BUFFER_SIZE;
                }
            }
        }
        Some(out)
    }

    /// `xmlParserEntityCheck(ctxt, 0, ent, 0)` after a reference to `name`
    /// (`None`: an undeclared entity): the first time an entity is met its
    /// replacement text is expanded once to count the references inside
    /// (`ent->checked`); then too many references for the input read so far
    /// is error 89. True when it failed.
    pub(super) fn entity_check(&mut self, name: Option<&[u8]>) -> bool {
        if self.error_code == err::ENTITY_LOOP {
            return true;
        }
        let Some(name) = name else {
            if !matches!(
                self.error_code,
                err::UNDECLARED_ENTITY | err::WAR_UNDECLARED_ENTITY
            ) || self.nb_entities <= 10_000
            {
                return false;
            }
            self.fatal(err::ENTITY_LOOP);
            return true;
        };
        let Some(e) = self.entities.get_mut(name) else {
            return false;
        };
        if e.checked == 0 && e.kind != EntityKind::Predefined {
            e.checked = 1;
            let content = e.content.clone();
            let before = self.nb_entities;
            self.depth += 1;
            let rep = self.decode_entities(&content);
            self.depth -= 1;
            let diff = (self.nb_entities - before + 1).min(i32::MAX as u64 / 2);
            let looped = self.error_code == err::ENTITY_LOOP;
            if let Some(e) = self.entities.get_mut(name) {
                if rep.is_none() || looped {
                    e.content.clear();
                }
                e.checked = (diff * 2) | u64::from(rep.is_some_and(|r| r.contains(&b'<')));
            }
        }
        let size = self.entities.get(name).map_or(0, |e| e.checked / 2);
        let consumed = self.consumed + self.cur as u64;
        if size * 3 < consumed * 10 {
            return false;
        }
        self.fatal(err::ENTITY_LOOP);
        true
    }

    /// `xmlParserEntityCheck(ctxt, size, ent, 0)` while `size` bytes of
    /// replacement text have been copied: more than ten times the input read
    /// so far (or ten times as many references) is error 89.
    fn entity_check_size(&mut self, size: usize) -> bool {
        if self.error_code == err::ENTITY_LOOP {
            return true;
        }
        if size < 1000 {
            return false;
        }
        let consumed = self.consumed + self.cur as u64;
        if (size as u64) < consumed * 10 && self.nb_entities * 3 < consumed * 10 {
            return false;
        }
        self.fatal(err::ENTITY_LOOP);
        true
    }

    /// `xmlErrMemory`: libxml2's way out of an over-long value; number 2
    /// until the next error replaces it.
    fn memory_error(&mut self) {
        if self.disable_sax && self.state == State::Eof {
            return;
        }
        self.error_code = err::NO_MEMORY;
        self.last_level = super::Level::Fatal;
        self.disable_sax = true;
    }
}

#[cfg(test)]
thread_local! {
    /// Set by tests that compare the one-step tag paths with the general
    /// ones they stand in for.
    pub(super) static GENERAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The start tags the one-pass path of `plain_start_tag` took, so that
    /// tests can tell it was exercised.
    pub(super) static PLAIN_TAGS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Whether the one-step tag paths are off (only ever, in tests).
#[inline]
fn general_only() -> bool {
    #[cfg(test)]
    return GENERAL_ONLY.get();
    #[cfg(not(test))]
    false
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
) -> Option<PlainTag> {
    let at = |i: usize| buf.get(i).copied().unwrap_or(0);
    // The column is worked out at the end: `line_col` at `line_start`, one
    // more for each byte after it but for the `narrow` bytes (the
    // continuation bytes of multi-byte characters), which take none.
    let (mut line_col, mut line_start, mut narrow) = (col, i, 0);
    let mut lines = 0;
    let mut entity_count = 0;
    loop {
        let blanks = i;
        // mostly one space
        if at(i) == b' ' && !is_blank(at(i + 1)) {
            i += 1;
        }
        loop {
            match at(i) {
                b' ' | b'\t' | b'\r' => i += 1,
                b'\n' => {
                    i += 1;
                    lines += 1;
                    (line_col, line_start, narrow) = (1, i, 0);
                }
                _ => break,
            }
        }
        let end = |empty| {
            let col = line_col + (i - line_start) as u64 - narrow;
            Some(PlainTag {
                end: i,
                empty,
                lines,
                col,
                entity_count,
            })
        };
        match at(i) {
            b'>' => return end(false),
            b'/' if at(i + 1) == b'>' => return end(true),
            _ => {}
        }
        if i == blanks || !is_ascii_name_start(at(i)) {
            return None;
        }
        let name_start = i;
        i += 1 + buf[i + 1..]
            .iter()
            .position(|&b| !is_ascii_name_char(b))
            .unwrap_or(buf.len() - i - 1);
        let name_end = i;
        if at(i) != b'=' || name_end - name_start > MAX_NAME_LENGTH {
            return None;
        }
        let value = match at(i + 1) {
            b'"' => scan_plain_value::<b'"'>(buf, i + 2, utf8, &mut atts.bytes)?,
            b'\'' => scan_plain_value::<b'\''>(buf, i + 2, utf8, &mut atts.bytes)?,
            _ => return None,
        };
        i = value.end + 1;
        narrow += value.narrow;
        entity_count += value.entity_count;
        let name = Piece::Input(name_start, name_end);
        if atts.contains_name(buf, name) {
            return None;
        }
        atts.spans.push((name, value.piece));
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

/// The value from `buf[i]`, just after its opening `QUOTE`, for
/// [`scan_plain_attributes`]: in the input, or in `bytes` once it holds a
/// reference.
#[inline(always)]
fn scan_plain_value<const QUOTE: u8>(
    buf: &[u8],
    mut i: usize,
    utf8: bool,
    bytes: &mut Vec<u8>,
) -> Option<PlainValue> {
    let table = if QUOTE == b'"' {
        &PLAIN_DQ_VALUE
    } else {
        &PLAIN_SQ_VALUE
    };
    let start = i;
    let mut narrow = 0;
    let mut entity_count = 0;
    // once a reference is met, the value is built in `bytes` from `own`;
    // the input from `copied` on is not there yet
    let mut own = None;
    let mut copied = i;
    loop {
        i += plain_prefix(buf.get(i..)?, table, QUOTE);
        match buf.get(i).copied() {
            Some(b) if b == QUOTE => break,
            Some(b'&') => {
                let (len, value) = predefined_at(&buf[i..])?;
                own.get_or_insert(bytes.len());
                bytes.extend_from_slice(&buf[copied..i]);
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
            bytes.extend_from_slice(&buf[copied..i]);
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

/// `&lt;`, `&gt;`, `&amp;`, `&apos;` or `&quot;` at the start of `s`: its
/// length and the character it stands for.
#[inline]
fn predefined_at(s: &[u8]) -> Option<(usize, u8)> {
    let (len, value) = match s.get(1..4)? {
        b"lt;" => (4, b'<'),
        b"gt;" => (4, b'>'),
        b"amp" if s.get(4) == Some(&b';') => (5, b'&'),
        b"apo" if s.get(4..6) == Some(b"s;") => (6, b'\''),
        b"quo" if s.get(4..6) == Some(b"t;") => (6, b'"'),
        _ => return None,
    };
    Some((len, value))
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

/// `out.extend_from_slice(src)`, without a call to `memcpy` for the short
/// names of most documents.
#[inline(always)]
fn append_short(out: &mut Vec<u8>, src: &[u8]) {
    if src.len() <= 8 {
        for &b in src {
            out.push(b);
        }
    } else {
        out.extend_from_slice(src);
    }
}

/// `a == b` for slices of one length, without a call to `memcmp` for the
/// short names of most documents.
#[inline]
fn same_short(a: &[u8], b: &[u8]) -> bool {
    if a.len() <= 8 && a.len() == b.len() {
        a.iter().zip(b).all(|(x, y)| x == y)
    } else {
        a == b
    }
}

/// Bytes the fast path of `xmlParseCharData` copies (`test_char_data`):
/// printable ASCII and tab, except `<`, `&` and `]`.
#[inline]
fn is_plain_text(b: u8) -> bool {
    PLAIN_TEXT[usize::from(b)]
}

/// How many bytes at the start of `s` are [`is_plain_text`].
#[inline]
fn plain_text_prefix(s: &[u8]) -> usize {
    // Most runs end within a word, before a vector window would pay.
    const SHORT: usize = 8;
    let head = plain_prefix(&s[..s.len().min(SHORT)], &PLAIN_TEXT, b']');
    if head < SHORT {
        return head;
    }
    let n = SHORT + plain_text_windows(&s[SHORT..]);
    n + plain_prefix(&s[n..], &PLAIN_TEXT, b']')
}

/// How many bytes at the start of `s` are plain by `table`, a table whose
/// plain bytes are 0x20..=0x7F except `<`, `&` and `third`, and perhaps
/// the tab. Eight bytes at a time.
#[inline]
fn plain_prefix(s: &[u8], table: &[bool; 256], third: u8) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // 0x80 in the lowest byte of `v` that is zero (and perhaps in higher
    // ones: a borrow only runs upwards)
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let mut i = 0;
    while let Some(word) = s.get(i..i + 8) {
        let Ok(word) = <[u8; 8]>::try_from(word) else {
            break;
        };
        let x = u64::from_le_bytes(word);
        // 0x80 in the first byte of 0x80 and up, below 0x20 or one of the
        // three
        let other = ((x.wrapping_sub(ONES * 0x20) & !x) | x) & HIGH
            | zero(x ^ (ONES * u64::from(b'<')))
            | zero(x ^ (ONES * u64::from(b'&')))
            | zero(x ^ (ONES * u64::from(third)));
        if other == 0 {
            i += 8;
            continue;
        }
        i += (other.trailing_zeros() / 8) as usize;
        if !table[usize::from(s[i])] {
            return i;
        }
        // a tab
        i += 1;
    }
    while i < s.len() && table[usize::from(s[i])] {
        i += 1;
    }
    i
}

/// Bytes the fast path of `xmlParseAttValueInternal` takes as they are in
/// a value quoted with `"`: 0x20..=0x7F except `&`, `<` and the quote.
static PLAIN_DQ_VALUE: [bool; 256] = plain_value(b'"');
/// [`PLAIN_DQ_VALUE`] for a value quoted with `'`.
static PLAIN_SQ_VALUE: [bool; 256] = plain_value(b'\'');

const fn plain_value(limit: u8) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0x20;
    while b <= 0x7F {
        t[b] = b as u8 != limit && b as u8 != b'&' && b as u8 != b'<';
        b += 1;
    }
    t
}

/// `xmlCheckCdataPush`: bytes that are fine, negative offset of a bad one.
#[allow(clippy::cast_possible_wrap)] // offsets into a slice, which fit `i64`
fn check_cdata(utf: &[u8], complete: bool) -> i64 {
    let len = utf.len();
    let mut ix = 0;
    while ix < len {
        let c = utf[ix];
        let (n, cp) = if c & 0x80 == 0 {
            if c >= 0x20 || c == 0xA || c == 0xD || c == 0x9 {
                ix += 1;
                continue;
            }
            return -(ix as i64);
        } else if c & 0xE0 == 0xC0 {
            if ix + 2 > len {
                return if complete { -(ix as i64) } else { ix as i64 };
            }
            if utf[ix + 1] & 0xC0 != 0x80 {
                return -(ix as i64);
            }
            (
                2,
                (u32::from(c & 0x1F) << 6) | u32::from(utf[ix + 1] & 0x3F),
            )
        } else if c & 0xF0 == 0xE0 {
            if ix + 3 > len {
                return if complete { -(ix as i64) } else { ix as i64 };
            }
            if utf[ix + 1] & 0xC0 != 0x80 || utf[ix + 2] & 0xC0 != 0x80 {
                return -(ix as i64);
            }
            (
                3,
                (u32::from(c & 0xF) << 12)
                    | (u32::from(utf[ix + 1] & 0x3F) << 6)
                    | u32::from(utf[ix + 2] & 0x3F),
            )
        } else if c & 0xF8 == 0xF0 {
            if ix + 4 > len {
                return if complete { -(ix as i64) } else { ix as i64 };
            }
            if utf[ix + 1] & 0xC0 != 0x80
                || utf[ix + 2] & 0xC0 != 0x80
                || utf[ix + 3] & 0xC0 != 0x80
            {
                return -(ix as i64);
            }
            (
                4,
                (u32::from(c & 0x7) << 18)
                    | (u32::from(utf[ix + 1] & 0x3F) << 12)
                    | (u32::from(utf[ix + 2] & 0x3F) << 6)
                    | u32::from(utf[ix + 3] & 0x3F),
            )
        } else {
            return -(ix as i64);
        };
        if !is_char(cp) {
            return -(ix as i64);
        }
        ix += n;
    }
    ix as i64
}

/// `xmlParseStringCharRef`: (value, bytes used); value 0 on error.
fn string_char_ref(s: &[u8]) -> (u32, usize) {
    let mut val: u32 = 0;
    let mut i;
    if s.get(2) == Some(&b'x') {
        i = 3;
        while let Some(&c) = s.get(i) {
            if c == b';' {
                break;
            }
            let d = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => return (0, i),
            };
            val = (val * 16 + u32::from(d)).min(0x110000);
            i += 1;
        }
    } else {
        i = 2;
        while let Some(&c) = s.get(i) {
            if c == b';' {
                break;
            }
            if !c.is_ascii_digit() {
                return (0, i);
            }
            val = (val * 10 + u32::from(c - b'0')).min(0x110000);
            i += 1;
        }
    }
    if s.get(i) == Some(&b';') {
        i += 1;
    }
    if val >= 0x110000 || !is_char(val) {
        return (0, i);
    }
    (val, i)
}

/// The five predefined entities.
fn predefined(name: &[u8]) -> Option<super::Entity> {
    let content: &[u8] = match name {
        b"lt" => b"<",
        b"gt" => b">",
        b"amp" => b"&",
        b"apos" => b"'",
        b"quot" => b"\"",
        _ => return None,
    };
    Some(super::Entity {
        kind: EntityKind::Predefined,
        name: name.to_vec(),
        content: content.to_vec(),
        system_id: None,
        public_id: None,
        checked: 0,
    })
}

/// Key of a possibly prefixed name.
pub(super) fn qname_key(prefix: Option<&[u8]>, local: &[u8]) -> Vec<u8> {
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

/// Rough `xmlParseURI` acceptance: RFC 3986 characters and `%XX` escapes.
pub(super) fn valid_uri(u: &[u8]) -> bool {
    let mut i = 0;
    while i < u.len() {
        let c = u[i];
        if c == b'%' {
            if !u.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                || !u.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
            {
                return false;
            }
            i += 3;
            continue;
        }
        let ok = c.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?#[]".contains(&c);
        if !ok {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether a URI starts with a scheme.
fn has_scheme(u: &[u8]) -> bool {
    if !u.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    for &c in &u[1..] {
        if c == b':' {
            return true;
        }
        if !(c.is_ascii_alphanumeric() || c == b'+' || c == b'-' || c == b'.') {
            return false;
        }
    }
    false
}

/// From this many attributes on, duplicates are looked up in hash sets
/// instead of libxml2's comparison with every earlier attribute; the
/// results are the same.
pub(super) const MANY_ATTRIBUTES: usize = 16;

/// The first earlier attribute each SAX2 attribute clashes with, as
/// libxml2's pairwise loop finds it: same local name and prefix (error 42)
/// or same local name and namespace (203), whichever comes first.
#[derive(Default)]
struct Clashes {
    by_prefix: HashMap<(Vec<u8>, Option<Vec<u8>>), usize>,
    by_uri: HashMap<(Vec<u8>, Arc<[u8]>), usize>,
}

impl Clashes {
    fn check(&mut self, core: &mut Core, atts: &[NsAttr], i: usize) {
        let a = &atts[i];
        let same_prefix = self
            .by_prefix
            .get(&(a.local.clone(), a.prefix.clone()))
            .copied();
        let same_uri = a
            .uri
            .as_ref()
            .and_then(|u| self.by_uri.get(&(a.local.clone(), u.clone())).copied());
        match (same_prefix, same_uri) {
            (Some(p), u) if u.is_none_or(|u| p <= u) => core.fatal(err::ATTRIBUTE_REDEFINED),
            (_, Some(_)) => core.error(err::NS_ERR_ATTRIBUTE_REDEFINED),
            _ => {}
        }
        self.by_prefix
            .entry((a.local.clone(), a.prefix.clone()))
            .or_insert(i);
        if let Some(u) = &a.uri {
            self.by_uri.entry((a.local.clone(), u.clone())).or_insert(i);
        }
    }
}

/// No sink: references inside attribute values are routed later.
struct NoSink;

impl Sax for NoSink {
    fn start_element(&mut self, _: &[u8], _: &[crate::sax::Attribute<'_>]) {}
    fn end_element(&mut self, _: &[u8]) {}
    fn character_data(&mut self, _: &[u8]) {}
    fn processing_instruction(&mut self, _: &[u8], _: Option<&[u8]>) {}
    fn default(&mut self, _: &[u8]) {}
    fn unparsed_entity_decl(
        &mut self,
        _: &[u8],
        _: Option<&[u8]>,
        _: Option<&[u8]>,
        _: Option<&[u8]>,
    ) {
    }
    fn notation_decl(&mut self, _: &[u8], _: Option<&[u8]>, _: Option<&[u8]>) {}
    fn external_entity_ref(&mut self, _: &[u8], _: Option<&[u8]>, _: Option<&[u8]>) -> bool {
        true
    }
    fn start_namespace_decl(&mut self, _: Option<&[u8]>, _: &[u8]) {}
}

#[cfg(test)]
mod plain_prefix_tests {
    use super::{PLAIN_DQ_VALUE, PLAIN_SQ_VALUE, PLAIN_TEXT, plain_prefix};

    #[test]
    fn words_agree_with_the_tables() {
        let fill = b"abc 12~\x7fxyz. ,;'\"-";
        for (table, third) in [
            (&PLAIN_TEXT, b']'),
            (&PLAIN_DQ_VALUE, b'"'),
            (&PLAIN_SQ_VALUE, b'\''),
        ] {
            for b in 0..=255u8 {
                for len in 0..=19 {
                    for at in 0..=len {
                        let mut s: Vec<u8> = (0..len).map(|i| fill[i % fill.len()]).collect();
                        if at < len {
                            s[at] = b;
                        }
                        // a second odd byte after the first
                        if at + 3 < len {
                            s[at + 3] = b'\t';
                        }
                        let want = s
                            .iter()
                            .position(|&c| !table[usize::from(c)])
                            .unwrap_or(s.len());
                        assert_eq!(plain_prefix(&s, table, third), want, "{s:?}");
                    }
                }
            }
        }
    }
}
