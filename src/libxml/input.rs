//! The input buffer, the cursor primitives (libxml2's `CUR`, `NXT`, `SKIP`,
//! `NEXTL`, `xmlCurrentChar`, `xmlNextChar`, `SKIP_BLANKS`) and the push
//! loop (`xmlParseTryOrFinish`).

use std::borrow::Cow;

use quick_xml::parser::{ElementParser, Parser as _};

use super::chars::{is_blank, is_char};
use super::charsets::{Form, SingleByte};
use super::encoding::Mode;
use super::{Core, Progressive, State, err};
use crate::sax::Sax;

/// `XML_PARSER_BIG_BUFFER_SIZE`.
pub(super) const BIG_BUFFER_SIZE: usize = 300;

impl Core<'_> {
    /// Byte at `cur + k`, or 0 past the end (libxml2 buffers end in NUL).
    #[inline]
    pub(super) fn nxt(&self, k: usize) -> u8 {
        self.input.buf.get(self.input.cur + k).copied().unwrap_or(0)
    }

    /// Byte at absolute buffer index `i`, or 0.
    #[inline]
    pub(super) fn at(&self, i: usize) -> u8 {
        self.input.buf.get(i).copied().unwrap_or(0)
    }

    /// Past the line feeds from `i` on, each counted as a line, as the
    /// `do { line++; col = 1; in++; } while (*in == 0xA)` loops of
    /// `xmlParseCharData` and `xmlParseComment` count them.
    #[inline]
    pub(super) fn skip_line_feeds(&mut self, mut i: usize) -> usize {
        while self.at(i) == 0xA {
            self.input.line += 1;
            self.input.col = 1;
            i += 1;
        }
        i
    }

    #[inline]
    pub(super) fn raw(&self) -> u8 {
        self.nxt(0)
    }

    pub(super) fn avail(&self) -> usize {
        self.input.buf.len().saturating_sub(self.input.cur)
    }

    /// Whether the cursor is at the end of the buffer.
    pub(super) fn at_end(&self) -> bool {
        self.input.cur >= self.input.buf.len()
    }

    /// `SKIP(n)`: advance bytes, column by the same.
    pub(super) fn skip(&mut self, n: usize) {
        self.input.cur += n;
        self.input.col += n as u64;
    }

    /// `SKIPL(n)`: advance bytes, counting lines.
    pub(super) fn skipl(&mut self, n: usize) {
        for _ in 0..n {
            if self.raw() == b'\n' {
                self.input.line += 1;
                self.input.col = 1;
            } else {
                self.input.col += 1;
            }
            self.input.cur += 1;
        }
    }

    /// `NEXTL(l)`: advance over a character of `l` bytes.
    pub(super) fn nextl(&mut self, l: usize) {
        if self.raw() == b'\n' {
            self.input.line += 1;
            self.input.col = 1;
        } else {
            self.input.col += 1;
        }
        self.input.cur += l;
    }

    /// `NEXT1`.
    pub(super) fn next1(&mut self) {
        self.input.col += 1;
        self.input.cur += 1;
    }

    /// `xmlCurrentChar`: the character at the cursor and its length. A
    /// `\r\n` pair moves the cursor onto the `\n` and reads as `\n`; a lone
    /// `\r` reads as `\n`. Length 0 means "end of input" (incomplete UTF-8 at
    /// the end reads the same way).
    pub(super) fn cur_char(&mut self) -> (u32, usize) {
        if self.state == State::Eof {
            return (0, 0);
        }
        let c = self.raw();
        if (0x20..=0x7F).contains(&c) {
            return (u32::from(c), 1);
        }
        if self.input.utf8 && c & 0x80 != 0 {
            let avail = self.avail();
            let b1 = self.nxt(1);
            let bad = 'dec: {
                if c & 0x40 == 0 || c == 0xC0 {
                    break 'dec true;
                }
                if b1 & 0xC0 != 0x80 {
                    break 'dec true;
                }
                let (val, len) = if c & 0xE0 == 0xE0 {
                    let b2 = self.nxt(2);
                    if b2 & 0xC0 != 0x80 {
                        break 'dec true;
                    }
                    if c & 0xF0 == 0xF0 {
                        let b3 = self.nxt(3);
                        if c & 0xF8 != 0xF0 || b3 & 0xC0 != 0x80 {
                            break 'dec true;
                        }
                        let v = (u32::from(c & 7) << 18)
                            | (u32::from(b1 & 0x3F) << 12)
                            | (u32::from(b2 & 0x3F) << 6)
                            | u32::from(b3 & 0x3F);
                        if v < 0x10000 {
                            break 'dec true;
                        }
                        (v, 4)
                    } else {
                        let v = (u32::from(c & 0xF) << 12)
                            | (u32::from(b1 & 0x3F) << 6)
                            | u32::from(b2 & 0x3F);
                        if v < 0x800 {
                            break 'dec true;
                        }
                        (v, 3)
                    }
                } else {
                    let v = (u32::from(c & 0x1F) << 6) | u32::from(b1 & 0x3F);
                    if v < 0x80 {
                        break 'dec true;
                    }
                    (v, 2)
                };
                if !is_char(val) {
                    self.fatal(err::INVALID_CHAR);
                }
                return (val, len);
            };
            debug_assert!(bad);
            if avail < 4 {
                return (0, 0);
            }
            self.fatal(err::INVALID_CHAR);
            self.input.utf8 = false;
            return (u32::from(c), 1);
        }
        if c == 0 {
            // "Char 0x0 out of allowed range" is raised only while the
            // input is read as UTF-8, not after an encoding error
            if self.input.utf8 && !self.at_end() {
                self.fatal(err::INVALID_CHAR);
            }
            return (0, 1);
        }
        if c == 0xD {
            if self.nxt(1) == 0xA {
                self.input.cur += 1;
            }
            return (0xA, 1);
        }
        (u32::from(c), 1)
    }

    /// `xmlNextChar` (`NEXT`): advance one character, counting lines.
    pub(super) fn next_char(&mut self) {
        // a NUL byte cannot be grown past in push mode: no move
        if self.state == State::Eof || self.raw() == 0 {
            return;
        }
        if self.raw() == b'\n' {
            self.input.line += 1;
            self.input.col = 1;
        } else {
            self.input.col += 1;
        }
        if self.input.utf8 {
            let c = self.raw();
            if c & 0x80 != 0 {
                let b1 = self.nxt(1);
                let enc_err = 'dec: {
                    if c == 0xC0 || b1 & 0xC0 != 0x80 {
                        break 'dec true;
                    }
                    if c & 0xE0 == 0xE0 {
                        let b2 = self.nxt(2);
                        if b2 & 0xC0 != 0x80 {
                            break 'dec true;
                        }
                        let val;
                        if c & 0xF0 == 0xF0 {
                            let b3 = self.nxt(3);
                            if c & 0xF8 != 0xF0 || b3 & 0xC0 != 0x80 {
                                break 'dec true;
                            }
                            val = (u32::from(c & 7) << 18)
                                | (u32::from(b1 & 0x3F) << 12)
                                | (u32::from(b2 & 0x3F) << 6)
                                | u32::from(b3 & 0x3F);
                            self.input.cur += 4;
                        } else {
                            val = (u32::from(c & 0xF) << 12)
                                | (u32::from(b1 & 0x3F) << 6)
                                | u32::from(b2 & 0x3F);
                            self.input.cur += 3;
                        }
                        if (0xD800..0xE000).contains(&val)
                            || (0xFFFE..0x10000).contains(&val)
                            || val >= 0x110000
                        {
                            self.fatal(err::INVALID_CHAR);
                        }
                    } else {
                        self.input.cur += 2;
                    }
                    false
                };
                if enc_err {
                    self.fatal(err::INVALID_CHAR);
                    self.input.utf8 = false;
                    self.input.cur += 1;
                }
                return;
            }
        }
        self.input.cur += 1;
    }

    /// `SKIP_BLANKS` in document content (fast path): returns how many.
    pub(super) fn skip_blanks(&mut self) -> usize {
        let mut n = 0;
        while is_blank(self.raw()) {
            if self.raw() == b'\n' {
                self.input.line += 1;
                self.input.col = 1;
            } else {
                self.input.col += 1;
            }
            self.input.cur += 1;
            n += 1;
        }
        n
    }

    /// `SHRINK` (only acts while `progressive` is off, i.e. in the prolog).
    pub(super) fn shrink_macro(&mut self) {
        if self.progressive == Progressive::Off
            && self.input.cur > 500
            && self.input.buf.len() - self.input.cur < 500
        {
            self.shrink_input();
        }
    }

    /// `xmlParserInputShrink`: drop all but 80 bytes before the cursor.
    pub(super) fn shrink_input(&mut self) {
        let used = self.input.cur;
        if used > 250 {
            let n = used - 80;
            // a borrowed buffer is only cut, never copied
            match &mut self.input.buf {
                Cow::Borrowed(rest) => *rest = &rest[n..],
                Cow::Owned(buf) => {
                    buf.drain(..n);
                }
            }
            self.input.cur -= n;
            self.input.consumed += n as u64;
            self.lasts_shift(n);
        }
    }

    /// `xmlParserInputBufferPush`: appends a chunk of raw input (converted
    /// to UTF-8 as the source encoding requires). False when the conversion
    /// failed; one that fails with nothing converted refuses every later
    /// push (`in->error`), though the raw input left may still be converted
    /// ([`convert_input`](Self::convert_input)).
    pub(super) fn push_input(&mut self, raw: &[u8], flush: bool) -> bool {
        if self.input.enc.mode == Mode::Utf8 && !self.input.enc.has_pending() {
            let old = self.input.buf.len();
            if let [b] = raw {
                self.input.buf.to_mut().push(*b);
            } else {
                self.input.buf.to_mut().extend_from_slice(raw);
            }
            self.lasts_append(old);
            return true;
        }
        if self.input.enc.refused {
            return false;
        }
        let old = self.input.buf.len();
        let ok = self.convert_input(raw, flush);
        if !ok && self.input.buf.len() == old {
            self.input.enc.refused = true;
        }
        ok
    }

    /// `xmlCharEncInput` (and `xmlCharEncFirstLineInput`): the raw input
    /// left, then `raw`, through the converter. False when it failed.
    pub(super) fn convert_input(&mut self, raw: &[u8], flush: bool) -> bool {
        let old = self.input.buf.len();
        let mut out = std::mem::take(self.input.buf.to_mut());
        let ok = self.input.enc.convert(raw, &mut out, flush);
        self.input.buf = Cow::Owned(out);
        self.lasts_append(old);
        if !ok && !self.input.enc_error_reported {
            self.input.enc_error_reported = true;
            self.input.pending_enc_error = true;
        }
        ok
    }

    // --- xmlParseGetLasts, kept incrementally ---

    /// Updates the remembered last `<` and the quote-aware `>` after it with
    /// the bytes appended from `from` on.
    pub(super) fn lasts_append(&mut self, from: usize) {
        if self.input.buf.len() == from + 1 {
            self.lasts_append_byte(from);
            return;
        }
        let last_lt_new = self.input.buf[from..].iter().rposition(|&b| b == b'<');
        let last_gt_new = self.input.buf[from..].iter().rposition(|&b| b == b'>');
        if let Some(p) = last_lt_new {
            let abs = from + p;
            // last '>' before the new last '<'
            let before = self.input.buf[from..from + p]
                .iter()
                .rposition(|&b| b == b'>')
                .map(|q| from + q);
            if let Some(q) = before {
                self.lookahead.gt_before_lt = Some(q);
            } else if let Some(g) = self.lookahead.last_gt_any {
                self.lookahead.gt_before_lt = Some(g);
            }
            self.lookahead.last_lt = Some(abs);
            self.lookahead.gt_scan = ElementParser::default();
            self.lookahead.gt_after_lt = None;
            self.scan_gt_from(abs + 1);
        } else if self.lookahead.last_lt.is_some() && self.lookahead.gt_after_lt.is_none() {
            self.scan_gt_from(from);
        }
        if let Some(q) = last_gt_new {
            self.lookahead.last_gt_any = Some(from + q);
        }
    }

    /// [`lasts_append`](Self::lasts_append) for the one byte at `at`, the
    /// last of the buffer (one-byte feeding).
    #[inline(always)]
    pub(super) fn lasts_append_byte(&mut self, at: usize) {
        match self.input.buf[at] {
            b'<' => {
                if let Some(g) = self.lookahead.last_gt_any {
                    self.lookahead.gt_before_lt = Some(g);
                }
                self.lookahead.last_lt = Some(at);
                self.lookahead.gt_scan = ElementParser::default();
                self.lookahead.gt_after_lt = None;
            }
            b @ (b'>' | b'"' | b'\'') => {
                if self.lookahead.last_lt.is_some()
                    && self.lookahead.gt_after_lt.is_none()
                    && step_gt_scan(&mut self.lookahead.gt_scan, &[b]).is_some()
                {
                    self.lookahead.gt_after_lt = Some(at);
                }
                if b == b'>' {
                    self.lookahead.last_gt_any = Some(at);
                }
            }
            _ => {}
        }
    }

    /// [`lasts_append_byte`](Self::lasts_append_byte) for a quote just
    /// appended: a quote never ends the `>` scan, it only moves its state.
    #[inline(always)]
    pub(super) fn lasts_append_quote(&mut self, quote: u8) {
        if self.lookahead.last_lt.is_some() && self.lookahead.gt_after_lt.is_none() {
            let gt = step_gt_scan(&mut self.lookahead.gt_scan, &[quote]);
            debug_assert!(gt.is_none());
        }
    }

    #[inline]
    fn scan_gt_from(&mut self, from: usize) {
        if from >= self.input.buf.len() {
            return;
        }
        let new = &self.input.buf[from..];
        let found = if new.len() < 16 {
            // Short appends (one-byte feeding): without the memchr set-up.
            step_gt_scan(&mut self.lookahead.gt_scan, new)
        } else {
            self.lookahead.gt_scan.feed(new)
        };
        if let Some(i) = found {
            self.lookahead.gt_after_lt = Some(from + i);
        }
    }

    fn lasts_shift(&mut self, n: usize) {
        let sh = |v: &mut Option<usize>| {
            *v = match *v {
                Some(x) if x >= n => Some(x - n),
                _ => None,
            }
        };
        sh(&mut self.lookahead.last_lt);
        sh(&mut self.lookahead.gt_after_lt);
        sh(&mut self.lookahead.gt_before_lt);
        sh(&mut self.lookahead.last_gt_any);
        self.lookahead.dtd_rescan = self
            .lookahead
            .dtd_rescan
            .and_then(|(p, q)| p.checked_sub(n).map(|p| (p, q)));
        if self.lookahead.last_lt.is_none() {
            self.lookahead.gt_after_lt = None;
            self.lookahead.gt_before_lt = None;
        }
    }

    /// `(lastlt, lastgt)` as `xmlParseGetLasts` computes them.
    pub(super) fn get_lasts(&self) -> (Option<usize>, Option<usize>) {
        if self.progressive == Progressive::Off {
            return (None, None);
        }
        match self.lookahead.last_lt {
            None => (None, None),
            Some(lt) => match self.lookahead.gt_after_lt {
                Some(g) => (Some(lt), Some(g)),
                None => (Some(lt), self.lookahead.gt_before_lt.filter(|&g| g < lt)),
            },
        }
    }

    /// `xmlParseLookupSequence`: offset from the cursor of the first match
    /// of 1–3 bytes, remembering how far it looked.
    pub(super) fn lookup(&mut self, seq: &[u8]) -> Option<usize> {
        let mut base = self.input.cur.max(self.check_index);
        let len = self.input.buf.len().saturating_sub(seq.len() - 1);
        while base < len {
            if self.input.buf[base] == seq[0] && self.input.buf[base..base + seq.len()] == *seq {
                self.check_index = 0;
                return Some(base - self.input.cur);
            }
            base += 1;
        }
        self.check_index = base;
        None
    }

    /// Whether the `START_TAG` and `END_TAG` cases of the push loop may parse
    /// the tag at the cursor now: on a final chunk, or once a `>` follows.
    #[inline]
    fn tag_complete(&mut self, terminate: bool, lastgt: Option<usize>) -> bool {
        if terminate {
            true
        } else if self.progressive != Progressive::Off {
            lastgt.is_some_and(|g| self.input.cur < g)
        } else {
            self.lookup(b">").is_some()
        }
    }

    /// The `END_TAG` case of the push loop, once the tag is complete.
    #[inline(always)]
    pub(super) fn end_tag_state(&mut self, sink: &mut impl Sax) {
        self.parse_end_tag(sink);
        if self.state == State::Eof {
        } else if self.names.is_empty() {
            self.state = State::Epilog;
        } else {
            self.state = State::Content;
        }
    }

    /// What `xmlParseTryOrFinish` does first: input far behind the cursor
    /// is dropped.
    #[inline]
    pub(super) fn shrink_consumed(&mut self) {
        if self.input.cur > 4096 {
            self.shrink_input();
            self.check_index = 0;
        }
    }

    /// `xmlParseTryOrFinish`.
    #[allow(clippy::too_many_lines)] // libxml2's push loop, one state per arm
    pub(super) fn try_or_finish(&mut self, sink: &mut impl Sax, terminate: bool) {
        self.shrink_consumed();
        let (mut lastlt, mut lastgt) = self.get_lasts();
        while self.state != State::Eof {
            if self.error_code != 0 && self.disable_sax {
                return;
            }
            if sink.stop_requested() {
                self.stop();
                return;
            }
            if self.state != State::Start {
                // Raw bytes to convert first: at the top of
                // xmlParseTryOrFinish, input left by the first line once the
                // start state is left; at each step, bytes left over after a
                // sequence the converter consumed and rejected, one call (up
                // to the next such sequence) a step. Each wait needs raw
                // bytes: one test a turn.
                debug_assert!(!self.input.enc.has_deferred() || self.input.enc.has_pending());
                if self.input.enc.has_pending()
                    && (self.input.enc.has_deferred()
                        || self.input.enc.icu_waits()
                        || self.input.enc.waits_after_drop())
                {
                    self.push_input(&[], true);
                }
                if self.input.pending_enc_error {
                    // the converter failed: the input just ends there (PHP:
                    // `fixtures/php/encodings/bad-byte-after-decl*`)
                    self.input.pending_enc_error = false;
                }
            }
            let avail = self.avail();
            if avail < 1 {
                return;
            }
            match self.state {
                State::Eof => return,
                State::Start => {
                    if !self.started {
                        if avail < 4 {
                            return;
                        }
                        self.started = true;
                        self.detect_encoding();
                        continue;
                    }
                    if avail < 2 {
                        return;
                    }
                    let c = self.nxt(0);
                    let n = self.nxt(1);
                    if c == 0 {
                        self.fatal(err::DOCUMENT_EMPTY);
                        self.halt();
                        return;
                    }
                    if c == b'<' && n == b'?' {
                        if avail < 5 {
                            return;
                        }
                        if !terminate && self.lookup(b"?>").is_none() {
                            return;
                        }
                        if self.nxt(2) == b'x'
                            && self.nxt(3) == b'm'
                            && self.nxt(4) == b'l'
                            && is_blank(self.nxt(5))
                        {
                            self.parse_xml_decl();
                            if self.error_code == err::UNSUPPORTED_ENCODING {
                                self.halt();
                                return;
                            }
                        }
                        self.state = State::Misc;
                    } else {
                        self.state = State::Misc;
                    }
                }
                State::StartTag => {
                    if avail < 2 {
                        return;
                    }
                    if self.nxt(0) != b'<' {
                        self.fatal(err::DOCUMENT_EMPTY);
                        self.halt();
                        return;
                    }
                    if !self.tag_complete(terminate, lastgt) {
                        return;
                    }
                    self.start_tag_state(sink);
                }
                State::Content => {
                    if avail < 2 {
                        return;
                    }
                    let c = self.nxt(0);
                    let n = self.nxt(1);
                    let (test, cons) = (self.input.cur, self.input.consumed);
                    if c == b'<' && n == b'/' {
                        // The END_TAG case at once, as the loop would run it
                        // next (nothing its first checks test has changed),
                        // unless the loop converts raw input first.
                        self.state = State::EndTag;
                        if self.input.enc.waits_after_drop() {
                            continue;
                        }
                        if !self.tag_complete(terminate, lastgt) {
                            return;
                        }
                        self.end_tag_state(sink);
                        continue;
                    } else if c == b'<' && n == b'?' {
                        if !terminate && self.lookup(b"?>").is_none() {
                            self.progressive = Progressive::Pi;
                            return;
                        }
                        self.parse_pi(sink);
                        if self.state != State::Eof {
                            self.state = State::Content;
                        }
                        self.progressive = Progressive::On;
                    } else if c == b'<' && n != b'!' {
                        // The START_TAG case at once, likewise.
                        self.state = State::StartTag;
                        if self.input.enc.waits_after_drop() {
                            continue;
                        }
                        if !self.tag_complete(terminate, lastgt) {
                            return;
                        }
                        self.start_tag_state(sink);
                        continue;
                    } else if c == b'<' && n == b'!' && self.nxt(2) == b'-' && self.nxt(3) == b'-' {
                        if avail < 4 {
                            return;
                        }
                        let save = self.input.cur;
                        self.input.cur += 4;
                        let term = self.lookup(b"-->");
                        self.input.cur = save;
                        if !terminate && term.is_none() {
                            self.progressive = Progressive::Comment;
                            return;
                        }
                        self.parse_comment(sink);
                        if self.state != State::Eof {
                            self.state = State::Content;
                        }
                        self.progressive = Progressive::On;
                    } else if c == b'<'
                        && self.input.buf[self.input.cur..].starts_with(b"<![CDATA[")
                    {
                        self.skip(9);
                        self.state = State::CData;
                        continue;
                    } else if c == b'<' && n == b'!' && avail < 9 {
                        return;
                    } else if c == b'&' {
                        if !terminate && self.lookup(b";").is_none() {
                            return;
                        }
                        self.parse_reference(sink);
                    } else {
                        if avail < BIG_BUFFER_SIZE && !terminate {
                            if self.progressive != Progressive::Off {
                                match lastlt {
                                    Some(l) if self.input.cur <= l => {}
                                    _ => return,
                                }
                            } else if self.lookup(b"<").is_none() {
                                return;
                            }
                        }
                        self.check_index = 0;
                        self.parse_char_data(sink);
                    }
                    if self.state == State::Eof {
                        return;
                    }
                    if cons == self.input.consumed && test == self.input.cur {
                        self.fatal(err::INTERNAL_ERROR);
                        self.halt();
                        return;
                    }
                }
                State::EndTag => {
                    if avail < 2 {
                        return;
                    }
                    if !self.tag_complete(terminate, lastgt) {
                        return;
                    }
                    self.end_tag_state(sink);
                }
                State::CData => {
                    if !self.cdata_state(sink) {
                        return;
                    }
                }
                State::Misc | State::Prolog | State::Epilog => {
                    self.skip_blanks();
                    let avail = self.avail();
                    if avail < 2 {
                        return;
                    }
                    let st = self.state;
                    let c = self.nxt(0);
                    let n = self.nxt(1);
                    if c == b'<' && n == b'?' {
                        if !terminate && self.lookup(b"?>").is_none() {
                            self.progressive = Progressive::Pi;
                            return;
                        }
                        self.parse_pi(sink);
                        if self.state == State::Eof {
                            return;
                        }
                        self.state = st;
                        self.progressive = Progressive::On;
                        if st == State::Misc {
                            self.check_index = 0;
                        }
                    } else if c == b'<' && n == b'!' && self.nxt(2) == b'-' && self.nxt(3) == b'-' {
                        if !terminate && self.lookup(b"-->").is_none() {
                            self.progressive = Progressive::Comment;
                            return;
                        }
                        self.parse_comment(sink);
                        if self.state == State::Eof {
                            return;
                        }
                        self.state = st;
                        self.progressive = Progressive::On;
                        if st == State::Misc {
                            self.check_index = 0;
                        }
                    } else if st == State::Misc
                        && c == b'<'
                        && self.input.buf[self.input.cur..].starts_with(b"<!DOCTYPE")
                    {
                        if !terminate && self.lookup(b">").is_none() {
                            self.progressive = Progressive::Dtd;
                            return;
                        }
                        self.dtd.in_subset = 1;
                        self.progressive = Progressive::Off;
                        self.check_index = 0;
                        self.parse_doctype_decl(sink);
                        if self.state == State::Eof {
                            return;
                        }
                        if self.raw() == b'[' {
                            self.state = State::Dtd;
                        } else {
                            self.dtd.in_subset = 0;
                            self.state = State::Prolog;
                        }
                    } else if c == b'<'
                        && n == b'!'
                        && avail < if st == State::Misc { 9 } else { 4 }
                    {
                        return;
                    } else if st == State::Epilog {
                        self.fatal(err::DOCUMENT_END);
                        self.halt();
                        return;
                    } else {
                        self.state = State::StartTag;
                        if st == State::Misc || self.progressive == Progressive::Off {
                            self.progressive = Progressive::StartTag;
                        }
                        (lastlt, lastgt) = self.get_lasts();
                    }
                }
                State::Dtd => {
                    if !self.dtd_state(sink, terminate) {
                        return;
                    }
                }
            }
        }
    }

    /// At the start: `xmlDetectCharEncoding` on the first 4 bytes, then
    /// `xmlSwitchEncoding`: the BOM is skipped and only the first line
    /// (`xmlCharEncFirstLineInput`: 45 characters' worth of bytes) is
    /// converted; the rest waits in the raw buffer until the push loop
    /// leaves the start state.
    fn detect_encoding(&mut self) {
        let s = [self.nxt(0), self.nxt(1), self.nxt(2), self.nxt(3)];
        let (mode, skip, limit) = match s {
            // xmlGetCharEncodingHandler: "ISO-10646-UCS-4", which only ICU
            // opens, for both orders
            [0, 0, 0, 0x3C] | [0x3C, 0, 0, 0] => (Mode::Wide(Form::IcuUtf32), 0, 180),
            [0, 0, 0x3C, 0] | [0, 0x3C, 0, 0] => {
                // no handler for the unusual orders: "encoding not
                // supported", then xmlStopParser
                self.fatal(err::UNSUPPORTED_ENCODING);
                self.stop();
                return;
            }
            // "EBCDIC" and "ebcdic" open nothing; "EBCDIC-US" is iconv's
            [0x4C, 0x6F, 0xA7, 0x94] => match SingleByte::for_label(b"EBCDIC-US") {
                Some(charset) => (Mode::SingleByte(charset), 0, 45),
                None => return,
            },
            [0x3C, 0, 0x3F, 0] => (Mode::Utf16Le, 0, 90),
            [0, 0x3C, 0, 0x3F] => (Mode::Utf16Be, 0, 90),
            [0xEF, 0xBB, 0xBF, _] => {
                self.input.cur += 3;
                return;
            }
            [0xFF, 0xFE, ..] => (Mode::Utf16Le, 2, 90),
            [0xFE, 0xFF, ..] => (Mode::Utf16Be, 2, 90),
            _ => return,
        };
        let raw = self.take_input_from(self.input.cur + skip);
        self.input.cur = 0;
        self.input.enc.set_mode(mode);
        self.input.enc.raw_consumed = skip;
        self.input.enc.start_limit = limit;
        self.lookahead.last_lt = None;
        self.lookahead.gt_after_lt = None;
        self.lookahead.gt_before_lt = None;
        self.lookahead.last_gt_any = None;
        let first = raw.len().min(limit);
        let (reported, pending) = (self.input.enc_error_reported, self.input.pending_enc_error);
        let converted = self.convert_input(&raw[..first], false);
        // a failure after some output only leaves the raw bytes in place
        (self.input.enc_error_reported, self.input.pending_enc_error) = (reported, pending);
        self.input.enc.defer(&raw[first..]);
        if !converted && self.input.buf.is_empty() {
            // xmlSwitchInputEncodingInt: "switching encoding: encoder
            // error"; xmlSwitchEncoding stops the parser with
            // XML_I18N_CONV_FAILED
            self.fatal(err::INTERNAL_ERROR);
            self.stop();
            self.error_code = err::I18N_CONV_FAILED;
        }
    }

    /// Switch the source encoding after `encoding="..."` (libxml2
    /// `xmlSwitchToEncoding`): in UTF-8 input, bytes after the cursor are reconverted and
    /// the buffer restarts at the cursor. False when the first of them
    /// cannot be converted (`xmlCharEncFirstLineInput` gave no output and an
    /// error: `xmlSwitchInputEncodingInt` fails).
    pub(super) fn switch_encoding(&mut self, mode: Mode) -> bool {
        if self.input.enc.mode != Mode::Utf8 {
            // xmlSwitchInputEncodingInt with an encoder in place: the new one
            // takes over the raw input not converted yet, which the push
            // loop's next step converts (xmlParseTryOrFinish flushes any raw
            // bytes once the start state is left; PHP: ICU's UTF-32 stopped
            // at a unit past U+10FFFF, then iconv's UTF-32 takes the rest,
            // `fixtures/php/encodings/wide-ucs4-switch-*`)
            self.input.enc.set_mode(mode);
            self.input.enc.defer(&[]);
            return true;
        }
        let raw = self.take_input_from(self.input.cur);
        self.input.cur = 0;
        self.check_index = 0;
        self.input.enc.set_mode(mode);
        self.lookahead.last_lt = None;
        self.lookahead.gt_after_lt = None;
        self.lookahead.gt_before_lt = None;
        self.lookahead.last_gt_any = None;
        // xmlCharEncFirstLineInput converts 180 bytes at most; the push loop
        // converts the rest. Only a multi-byte charset's dropped sequence
        // makes the difference seen (its calls stop there).
        if !matches!(mode, Mode::MultiByte(_)) {
            return self.convert_input(&raw, false) || !self.input.buf.is_empty();
        }
        let first = raw.len().min(180);
        let converted = self.convert_input(&raw[..first], false);
        self.input.enc.defer(&raw[first..]);
        converted || !self.input.buf.is_empty()
    }
}

/// [`ElementParser::feed`] one byte at a time: the offset of the first `>`
/// outside quotes, the scanner's state moved over the bytes before it.
#[inline]
pub(super) fn step_gt_scan(scan: &mut ElementParser, bytes: &[u8]) -> Option<usize> {
    for (i, &b) in bytes.iter().enumerate() {
        *scan = match (*scan, b) {
            (ElementParser::Outside, b'>') => return Some(i),
            (ElementParser::Outside, b'\'') => ElementParser::SingleQ,
            (ElementParser::Outside, b'"') => ElementParser::DoubleQ,
            (ElementParser::SingleQ, b'\'') | (ElementParser::DoubleQ, b'"') => {
                ElementParser::Outside
            }
            (state, _) => state,
        };
    }
    None
}

impl<'a> Core<'a> {
    /// The input from `at` on, taken out of the buffer, which is left
    /// empty: the bytes a newly found encoding converts again. A borrowed
    /// chunk stays where it lies.
    fn take_input_from(&mut self, at: usize) -> Cow<'a, [u8]> {
        match &mut self.input.buf {
            Cow::Borrowed(chunk) => {
                let chunk: &'a [u8] = chunk;
                self.input.buf = Cow::Owned(Vec::new());
                Cow::Borrowed(&chunk[at..])
            }
            Cow::Owned(buf) => {
                let rest = buf.split_off(at);
                buf.clear();
                Cow::Owned(rest)
            }
        }
    }
}
