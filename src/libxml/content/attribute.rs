//! Attribute values (`xmlParseAttValue`, `xmlParseAttValueComplex`).

use crate::libxml::chars::{is_blank, is_char, push_utf8};
use crate::libxml::text_scan::plain_multibyte_len;
use crate::libxml::{Core, EntityKind, Piece, State, Sub, err};
use crate::sax::Sax;

use super::reference::predefined_content;
use super::{PLAIN_DQ_VALUE, PLAIN_SQ_VALUE, plain_prefix, predefined_at};

impl Core<'_> {
    /// `xmlParseAttValueInternal`.
    pub(in crate::libxml) fn parse_att_value(&mut self, normalize: bool) -> Option<Vec<u8>> {
        let mut out = self.pooled_buffer();
        self.parse_att_value_into(normalize, &mut out)
            .then_some(out)
    }

    /// `xmlParseAttValueInternal` appending the value to `out`: false where
    /// it gives NULL (`out` may then hold part of the value).
    fn parse_att_value_into(&mut self, normalize: bool, out: &mut Vec<u8>) -> bool {
        match self.parse_att_value_at(normalize, out) {
            Some(Piece::Input(s, e)) => {
                out.extend_from_slice(&self.input.buf[s..e]);
                true
            }
            Some(Piece::Own(..)) => true,
            None => false,
        }
    }

    /// `xmlParseAttValueInternal`: a value that is the input's bytes as
    /// they are is left there; any other is appended to `out`. `None` where
    /// it gives NULL (`out` may then hold part of the value).
    pub(super) fn parse_att_value_at(
        &mut self,
        normalize: bool,
        out: &mut Vec<u8>,
    ) -> Option<Piece> {
        let limit = self.raw();
        if limit != b'"' && limit != b'\'' {
            self.fatal(err::ATTRIBUTE_NOT_STARTED);
            return None;
        }
        self.sub = Sub::AttributeValue;
        let mut line = self.input.line;
        let mut col = self.input.col + 1;
        let mut i = self.input.cur + 1;
        let end = self.input.buf.len();
        let mut start = i;
        let last;
        if normalize {
            while i < end && self.input.buf[i] != limit && is_blank(self.input.buf[i]) {
                if self.input.buf[i] == 0xA {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
                i += 1;
                start = i;
            }
            while i < end {
                let b = self.input.buf[i];
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
            while l > start && self.input.buf[l - 1] == 0x20 {
                l -= 1;
            }
            last = l;
            while i < end && self.input.buf[i] != limit && is_blank(self.input.buf[i]) {
                if self.input.buf[i] == 0xA {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
                i += 1;
            }
            if i - start > self.max_text_length() {
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
            let run = self.input.buf[i..end]
                .iter()
                .position(|&b| !table[usize::from(b)])
                .unwrap_or(end - i);
            i += run;
            col += run as u64;
            last = i;
            if i - start > self.max_text_length() {
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
        self.input.cur = i;
        self.input.line = line;
        self.input.col = col;
        Some(Piece::Input(start, last))
    }

    /// `xmlParseAttValueComplex`, appending the value to `out`; false
    /// where it gives NULL.
    fn parse_att_value_complex(&mut self, normalize: bool, out: &mut Vec<u8>) -> bool {
        let mut buf = std::mem::take(&mut self.pools.value_buf);
        buf.clear();
        let ok = self.att_value_complex(normalize, &mut buf);
        if ok {
            out.extend_from_slice(&buf);
        }
        self.pools.value_buf = buf;
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
                    self.expansion.nb_entities += 2;
                    buf.push(value);
                } else {
                    let ent = self.parse_entity_ref::<NoSink>(None);
                    self.expansion.nb_entities += 1;
                    if let Some(name) = ent {
                        self.append_entity_in_attr(&name, buf);
                        self.recycle_name(name);
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
            if buf.len() > self.max_text_length() {
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
        let s = &self.input.buf;
        let start = self.input.cur;
        let mut i = start;
        let mut n = buf.len();
        let max = self.max_text_length();
        let mut chars = 0;
        let table = if limit == b'"' {
            &PLAIN_DQ_VALUE
        } else {
            &PLAIN_SQ_VALUE
        };
        while n <= max && i < s.len() {
            // one-byte characters up to the length limit
            let end = s.len().min(i + (max + 1 - n));
            let run = plain_prefix(&s[i..end], table, limit);
            i += run;
            n += run;
            chars += run as u64;
            if n > max || i >= s.len() || s[i] < 0x80 || !self.input.utf8 {
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
        self.input.cur = i;
        self.input.col += chars;
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&apos;` or `&quot;` at the cursor outside
    /// the DTD: its length and the character it stands for.
    pub(super) fn predefined_ref(&self) -> Option<(usize, u8)> {
        if self.dtd.in_subset != 0 {
            return None;
        }
        predefined_at(&self.input.buf[self.input.cur..])
    }

    /// The entity part of `xmlParseAttValueComplex` (replaceEntities on).
    fn append_entity_in_attr(&mut self, name: &[u8], buf: &mut Vec<u8>) {
        // the entity's text is shared, not copied (`find_entity` would)
        if let Some(content) = predefined_content(name) {
            buf.push(content[0]);
            return;
        }
        let Some(ent) = self.dtd.entities.get(name) else {
            return;
        };
        if ent.kind == EntityKind::Predefined {
            buf.push(ent.content[0]);
            return;
        }
        let content = std::sync::Arc::clone(&ent.content);
        self.expansion.depth += 1;
        let rep = self.decode_entities(&content);
        self.expansion.depth -= 1;
        if let Some(rep) = rep {
            buf.extend(rep.iter().map(|&b| {
                if matches!(b, 0x9 | 0xA | 0xD) {
                    0x20
                } else {
                    b
                }
            }));
            self.recycle_name(rep);
        }
    }
}

/// No sink: references inside attribute values are routed later.
pub(super) struct NoSink;

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
