//! End tags (`xmlParseEndTag1`, `xmlParseEndTag2`).

use crate::libxml::chars::{is_blank, is_byte_char};
use crate::libxml::{Core, State, err};
use crate::sax::Sax;

use super::general_only;
use crate::libxml::names::same_name;

impl Core<'_> {
    /// `xmlParseEndTag1` / `xmlParseEndTag2`.
    #[inline]
    pub(in crate::libxml) fn parse_end_tag(&mut self, sink: &mut impl Sax) {
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
                self.emit_end_ns(sink, &tag.name, tag.prefix.as_deref(), tag.uri);
            } else {
                self.emit_end(sink, &tag.name);
            }
        }
        if tag.ns_count > 0 {
            let n = self.ns.len() - tag.ns_count;
            self.ns.truncate(n);
        }
        if let Some(p) = tag.prefix {
            self.recycle_name(p);
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
        let s = &self.input.buf[self.input.cur + 2..];
        if s.len() <= n || s[n] != b'>' || !same_name(&s[..n], &tag.name) {
            return false;
        }
        let Some(tag) = self.names.pop() else {
            return false;
        };
        self.input.cur += n + 3;
        self.input.col += n as u64 + 3;
        if !self.disable_sax {
            self.emit_end(sink, &tag.name);
        }
        self.recycle_name(tag.name);
        true
    }

    /// An empty buffer from the pool that [`Self::recycle_name`] fills.
    #[inline]
    pub(super) fn pooled_buffer(&mut self) -> Vec<u8> {
        let mut buffer = self.pools.name_pool.pop().unwrap_or_default();
        buffer.clear();
        buffer
    }

    /// Keeps the allocation of a name (or SAX2 attribute value) no longer
    /// used for the next start tag; a large one is freed, so that the pool
    /// holds little memory.
    #[inline]
    pub(super) fn recycle_name(&mut self, name: Vec<u8>) {
        if self.pools.name_pool.len() < 256 && name.capacity() <= 4096 {
            self.pools.name_pool.push(name);
        }
    }

    /// `xmlParseNameAndCompare` / `xmlParseQNameAndCompare`: true on a match.
    fn parse_name_and_compare(&mut self, name: &[u8], prefix: Option<&[u8]>) -> bool {
        let mut i = self.input.cur;
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
                    self.input.col += (i - self.input.cur) as u64;
                    self.input.cur = i;
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
        if self.input.buf[i..].starts_with(name) {
            i += name.len();
            if self.at(i) == b'>' || is_blank(self.at(i)) {
                self.input.col += name.len() as u64;
                self.input.cur = i;
                return true;
            }
        }
        match self.parse_name() {
            Some(n) => n == name,
            None => false,
        }
    }
}
