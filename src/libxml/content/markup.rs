//! CDATA sections in push mode, comments (`xmlParseComment`) and
//! processing instructions (`xmlParsePI`).

use crate::libxml::chars::{is_char, push_utf8};
use crate::libxml::input::BIG_BUFFER_SIZE;
use crate::libxml::{Core, State, err};
use crate::sax::Sax;

impl Core<'_> {
    // ------------------------------------------------------------------
    // CDATA sections (push mode)
    // ------------------------------------------------------------------

    /// The `CDATA_SECTION` case of the push loop; false means "wait".
    pub(in crate::libxml) fn cdata_state(&mut self, sink: &mut impl Sax) -> bool {
        match self.lookup(b"]]>") {
            None => {
                if self.avail() >= BIG_BUFFER_SIZE + 2 {
                    let tmp = check_cdata(
                        &self.input.buf[self.input.cur..self.input.cur + BIG_BUFFER_SIZE],
                        false,
                    );
                    if tmp < 0 {
                        self.input.cur += tmp.unsigned_abs() as usize;
                        self.fatal(err::INVALID_CHAR);
                        return false;
                    }
                    let tmp = tmp.unsigned_abs() as usize;
                    if !self.disable_sax && tmp == 0 {
                        // an invalid first character: libxml2 hands over
                        // length 0, which PHP reads as "to the NUL"
                        let rest = &self.input.buf[self.input.cur..];
                        let to_nul = &rest[..memchr::memchr(0, rest).unwrap_or(rest.len())];
                        if self.installed.character_data {
                            sink.character_data_to_nul(to_nul);
                        } else if self.installed.default {
                            sink.default(to_nul);
                        }
                    } else if !self.disable_sax {
                        self.emit_characters(
                            sink,
                            &self.input.buf[self.input.cur..self.input.cur + tmp],
                        );
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
                let tmp = check_cdata(&self.input.buf[self.input.cur..self.input.cur + base], true);
                if tmp < 0 || tmp.unsigned_abs() as usize != base {
                    self.input.cur += tmp.unsigned_abs() as usize;
                    self.fatal(err::INVALID_CHAR);
                    return false;
                }
                if base == 0 {
                    if !self.disable_sax
                        && self.input.cur >= 9
                        && &self.input.buf[self.input.cur - 9..self.input.cur] == b"<![CDATA["
                    {
                        self.emit_characters(sink, b"");
                    }
                } else if !self.disable_sax {
                    self.emit_characters(
                        sink,
                        &self.input.buf[self.input.cur..self.input.cur + base],
                    );
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

    /// `xmlParseComment`, its text collected in the reused markup buffer.
    pub(in crate::libxml) fn parse_comment(&mut self, sink: &mut impl Sax) {
        self.with_markup_buf(|core, buf| core.parse_comment_into(sink, buf));
    }

    /// Runs `parse` with the reused markup buffer, emptied; the buffer is
    /// put back for the next comment or PI unless a long one made it
    /// large.
    fn with_markup_buf(&mut self, parse: impl FnOnce(&mut Self, &mut Vec<u8>)) {
        const KEPT: usize = 1 << 16;
        let mut buf = std::mem::take(&mut self.pools.markup_buf);
        buf.clear();
        parse(self, &mut buf);
        if buf.capacity() <= KEPT {
            self.pools.markup_buf = buf;
        }
    }

    /// `xmlParseComment` with its text in `buf`.
    fn parse_comment_into(&mut self, sink: &mut impl Sax, buf: &mut Vec<u8>) {
        if !(self.raw() == b'<'
            && self.nxt(1) == b'!'
            && self.nxt(2) == b'-'
            && self.nxt(3) == b'-')
        {
            return;
        }
        self.skip(4);
        self.shrink_macro();
        let mut i = self.input.cur;
        loop {
            if self.at(i) == 0xA {
                i = self.skip_line_feeds(i);
            }
            // get_more
            loop {
                let mut ccol = self.input.col;
                loop {
                    let b = self.at(i);
                    if (b > b'-' && b <= 0x7F) || (0x20..b'-').contains(&b) || b == 0x09 {
                        i += 1;
                        ccol += 1;
                    } else {
                        break;
                    }
                }
                self.input.col = ccol;
                if self.at(i) == 0xA {
                    i = self.skip_line_feeds(i);
                    continue;
                }
                let n = i - self.input.cur;
                if n > 0 {
                    buf.extend_from_slice(&self.input.buf[self.input.cur..i]);
                }
                if buf.len() > self.max_text_length() {
                    self.fatal(err::COMMENT_NOT_FINISHED);
                    return;
                }
                self.input.cur = i;
                if self.at(i) == 0xA {
                    i += 1;
                    self.input.line += 1;
                    self.input.col = 1;
                }
                if self.at(i) == 0xD && self.at(i + 1) == 0xA {
                    self.input.cur = i + 1;
                    i += 2;
                    self.input.line += 1;
                    self.input.col = 1;
                    continue;
                }
                break;
            }
            self.shrink_macro();
            i = self.input.cur;
            if self.at(i) == b'-' {
                if self.at(i + 1) == b'-' {
                    if self.at(i + 2) == b'>' {
                        self.skip(3);
                        if !self.disable_sax {
                            self.emit_comment(sink, buf);
                        }
                        return;
                    }
                    self.fatal(err::HYPHEN_IN_COMMENT);
                    if self.state == State::Eof {
                        return;
                    }
                    i += 1;
                    self.input.col += 1;
                }
                i += 1;
                self.input.col += 1;
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
    fn parse_comment_complex(&mut self, sink: &mut impl Sax, buf: &mut Vec<u8>) {
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
        let mut count = 0;
        while is_char(c) && (c != u32::from(b'>') || r != u32::from(b'-') || q != u32::from(b'-')) {
            if r == u32::from(b'-') && q == u32::from(b'-') {
                self.fatal(err::HYPHEN_IN_COMMENT);
            }
            push_utf8(buf, q);
            q = r;
            r = c;
            rl = l;
            // libxml2's SHRINK every 50 characters and where it reads a 0
            count += 1;
            if count > 50 {
                self.shrink_macro();
                count = 0;
            }
            self.nextl(l);
            (c, l) = self.cur_char();
            if c == 0 {
                self.shrink_macro();
                (c, l) = self.cur_char();
            }
            // checked after each step since CVE-2022-40303 (Debian's 2.9.14)
            if buf.len() > self.max_text_length() {
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
                self.emit_comment(sink, buf);
            }
        }
    }

    /// `xmlParsePITarget`, the name appended to `out` (empty): false where
    /// there is no name.
    fn parse_pi_target(&mut self, out: &mut Vec<u8>) -> bool {
        if !self.parse_name_into(out) {
            return false;
        }
        let name = &out[..];
        if name.len() >= 3 && name[..3].eq_ignore_ascii_case(b"xml") {
            if name.len() == 3 {
                self.fatal(err::RESERVED_XML_NAME);
                return true;
            }
            if name != b"xml-stylesheet" && name != b"xml-model" {
                self.warning();
            }
        }
        if out.contains(&b':') {
            self.error(err::NS_ERR_COLON);
        }
        true
    }

    /// `xmlParsePI`, target and data collected in the reused markup buffer.
    pub(in crate::libxml) fn parse_pi(&mut self, sink: &mut impl Sax) {
        self.with_markup_buf(|core, buf| core.parse_pi_into(sink, buf));
    }

    /// `xmlParsePI` with the target, then the data, in `buf`.
    fn parse_pi_into(&mut self, sink: &mut impl Sax, buf: &mut Vec<u8>) {
        if !(self.raw() == b'<' && self.nxt(1) == b'?') {
            return;
        }
        self.skip(2);
        self.shrink_macro();
        if !self.parse_pi_target(buf) {
            self.fatal(err::PI_NOT_STARTED);
            return;
        }
        let target = buf.len();
        if self.raw() == b'?' && self.nxt(1) == b'>' {
            self.skip(2);
            if !self.disable_sax {
                self.emit_pi(sink, buf, target, false);
            }
            return;
        }
        if self.skip_blanks() == 0 {
            self.fatal(err::SPACE_REQUIRED);
        }
        let (mut c, mut l) = self.cur_char();
        let mut count = 0;
        while is_char(c) && (c != u32::from(b'?') || self.nxt(1) != b'>') {
            // libxml2's SHRINK every 50 characters and where it reads a 0
            count += 1;
            if count > 50 {
                self.shrink_macro();
                count = 0;
            }
            push_utf8(buf, c);
            self.nextl(l);
            (c, l) = self.cur_char();
            if c == 0 {
                self.shrink_macro();
                (c, l) = self.cur_char();
            }
            // checked after each step since CVE-2022-40303 (Debian's 2.9.14)
            if buf.len() - target > self.max_text_length() {
                self.fatal(err::PI_NOT_FINISHED);
                return;
            }
        }
        if c != u32::from(b'?') {
            self.fatal(err::PI_NOT_FINISHED);
        } else {
            self.skip(2);
            if !self.disable_sax {
                self.emit_pi(sink, buf, target, true);
            }
        }
    }
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
