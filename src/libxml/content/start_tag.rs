//! Start tags (`xmlParseStartTag`, `xmlParseStartTag2`): the one-pass
//! path for plain SAX1 tags, the general path, namespaces and
//! duplicate attributes.

use std::collections::HashMap;
use std::sync::Arc;

use crate::libxml::chars::{is_ascii_name_char, is_ascii_name_start, is_blank, is_byte_char};
use crate::libxml::text_scan::plain_multibyte_len;
use crate::libxml::{
    Attributes, Core, NsAttr, OpenTag, Piece, Progressive, State, Sub, err, keyset,
};
use crate::sax::Sax;

use super::{
    MAX_NAME_LENGTH, MAX_TEXT_LENGTH, PLAIN_DQ_VALUE, PLAIN_SQ_VALUE, append_short, general_only,
    plain_prefix, predefined_at, scheme_end, valid_uri,
};

/// The namespace the prefix `xml` is bound to.
const XML_NS: &[u8] = b"http://www.w3.org/XML/1998/namespace";

impl Core {
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
                        self.emit_end_ns(sink, &name, tag.prefix.as_deref(), tag.uri.as_deref());
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
        let mut name = self.pools.name_pool.pop().unwrap_or_default();
        name.clear();
        append_short(&mut name, &s[1..][..len]);
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
        let Some(tag) =
            scan_plain_attributes(&self.input.buf, name_end, col, self.input.utf8, &mut atts)
        else {
            self.pools.atts = Some(atts);
            return false;
        };
        #[cfg(test)]
        super::PLAIN_TAGS.set(super::PLAIN_TAGS.get() + 1);
        let mut name = self.pools.name_pool.pop().unwrap_or_default();
        name.clear();
        append_short(&mut name, &self.input.buf[self.input.cur + 1..name_end]);
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
            self.emit_start(sink, &name, &atts);
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
        let mut name = self.pools.name_pool.pop().unwrap_or_default();
        name.clear();
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
            self.emit_start(sink, &name, &atts);
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
        let mut atts = std::mem::take(&mut self.pools.ns_atts);
        let mut nsdecls = std::mem::take(&mut self.pools.ns_decls);
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
            // pairwise (nothing allocated) up to `MANY` attributes
            if atts.len() > keyset::MANY {
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
        for a in atts.drain(..) {
            self.recycle_name(a.local);
            self.recycle_name(a.value);
            if let Some(p) = a.prefix {
                self.recycle_name(p);
            }
        }
        for (p, u) in nsdecls.drain(..) {
            self.recycle_name(u);
            if let Some(p) = p {
                self.recycle_name(p);
            }
        }
        self.pools.ns_atts = atts;
        self.pools.ns_decls = nsdecls;
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
                } else if scheme_end(&url).is_none() {
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

/// What a SAX2 start tag gives its element besides the name.
struct Sax2Tag {
    prefix: Option<Vec<u8>>,
    uri: Option<Arc<[u8]>>,
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
