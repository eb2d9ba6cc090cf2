//! Character data (`xmlParseCharData`, `xmlParseCharDataComplex`).

use crate::libxml::chars::{is_blank, is_char, push_utf8};
use crate::libxml::input::BIG_BUFFER_SIZE;
use crate::libxml::text_scan::{PLAIN_TEXT, plain_text_windows, text_run};
use crate::libxml::{Core, State, err};
use crate::sax::Sax;

use super::{general_only, plain_prefix};

impl Core<'_> {
    /// `xmlParseCharData(ctxt, 0)`. The loop's first turn here, in a small
    /// function (blanks and line feeds up to `<`, the text between tags;
    /// a run of plain text up to `<`, `&` or a multi-byte character), the
    /// rest of the loop in [`char_data_more`](Self::char_data_more).
    #[inline(never)]
    pub(in crate::libxml) fn parse_char_data(&mut self, sink: &mut impl Sax) {
        let line = self.input.line;
        let col = self.input.col;
        let i = self.get_more_space(self.input.cur);
        if self.blanks_before_tag(sink, i) {
            return;
        }
        if general_only() {
            self.char_data_more(sink, i, 0, line, col);
            return;
        }
        // a run of plain text up to `<`, `&` or a multi-byte character:
        // what the loop's first turn does with it
        let rest = self.input.buf.get(i..).unwrap_or_default();
        let run = plain_text_prefix(rest);
        let stop = rest.get(run).copied().unwrap_or(0);
        if stop == b'<' || stop == b'&' || stop >= 0x80 {
            #[cfg(test)]
            super::FIRST_TURN_TEXTS.set(super::FIRST_TURN_TEXTS.get() + 1);
            // the loop's first turn ends there: `<` and `&` return, any
            // other character goes to xmlParseCharDataComplex
            let end = i + run;
            self.input.col += run as u64;
            let s = self.input.cur;
            if end > s {
                if is_blank(self.raw()) {
                    self.input.cur = end;
                }
                self.emit_characters(sink, &self.input.buf[s..end]);
                if self.state != State::Content {
                    return;
                }
            }
            self.input.cur = end;
            if stop >= 0x80 {
                self.parse_char_data_complex(sink);
            }
            return;
        }
        // the run goes on in the loop (its bytes plain, counted there)
        self.char_data_more(sink, i, run, line, col);
    }

    /// The `get_more_space` loop of `xmlParseCharData` from `i`: past
    /// spaces and line feeds, counted on the line and column.
    #[inline(always)]
    fn get_more_space(&mut self, mut i: usize) -> usize {
        loop {
            let spaces = self
                .input
                .buf
                .get(i..)
                .map_or(0, |rest| rest.iter().take_while(|&&b| b == 0x20).count());
            i += spaces;
            self.input.col += spaces as u64;
            if self.at(i) == 0xA {
                i = self.skip_line_feeds(i);
                continue;
            }
            return i;
        }
    }

    /// After `get_more_space` has gone to `i`: at a `<`, the blanks before
    /// it handed over (if any) and `true`, the loop's return.
    #[inline(always)]
    fn blanks_before_tag(&mut self, sink: &mut impl Sax, i: usize) -> bool {
        if self.at(i) != b'<' {
            return false;
        }
        if i > self.input.cur {
            let s = self.input.cur;
            self.input.cur = i;
            self.emit_characters(sink, &self.input.buf[s..i]);
        }
        true
    }

    /// `xmlParseCharData` from its `get_more` loop at `i`, past the first
    /// `get_more_space`, the `plain` bytes from `i` on known to be plain
    /// text; `line` and `col` are where it started.
    #[inline(never)]
    fn char_data_more(
        &mut self,
        sink: &mut impl Sax,
        mut i: usize,
        mut plain: usize,
        mut line: u64,
        mut col: u64,
    ) {
        loop {
            // get_more
            loop {
                let run = plain
                    + plain_text_prefix(&self.input.buf[(i + plain).min(self.input.buf.len())..]);
                plain = 0;
                i += run;
                self.input.col += run as u64;
                if self.at(i) == 0xA {
                    i = self.skip_line_feeds(i);
                    continue;
                }
                if self.at(i) == b']' {
                    if self.at(i + 1) == b']' && self.at(i + 2) == b'>' {
                        self.fatal(err::MISPLACED_CDATA_END);
                        self.input.cur = i + 1;
                        return;
                    }
                    i += 1;
                    self.input.col += 1;
                    continue;
                }
                break;
            }
            let n = i - self.input.cur;
            if n > 0 {
                let s = self.input.cur;
                if is_blank(self.raw()) {
                    self.input.cur = i;
                }
                self.emit_characters(sink, &self.input.buf[s..i]);
                line = self.input.line;
                col = self.input.col;
                if self.state != State::Content {
                    return;
                }
            }
            self.input.cur = i;
            if self.at(i) == 0xD && self.at(i + 1) == 0xA {
                self.input.cur = i + 1;
                i += 2;
                self.input.line += 1;
                self.input.col = 1;
                // `continue` of libxml2's do-while: the condition is tested
                let b = self.at(i);
                if !((0x20..=0x7F).contains(&b) || b == 0x09 || b == 0x0A) {
                    break;
                }
            } else {
                if self.at(i) == b'<' || self.at(i) == b'&' {
                    return;
                }
                i = self.input.cur;
                let b = self.at(i);
                if !((0x20..=0x7F).contains(&b) || b == 0x09 || b == 0x0A) {
                    break;
                }
            }
            // the loop's next turn: get_more_space, then `<`
            i = self.get_more_space(i);
            if self.blanks_before_tag(sink, i) {
                return;
            }
        }
        self.input.line = line;
        self.input.col = col;
        self.parse_char_data_complex(sink);
    }

    /// `xmlParseCharDataComplex`.
    ///
    /// Characters are handed on in pieces of [`BIG_BUFFER_SIZE`] bytes or a
    /// few more, as libxml2 does. Runs of characters that read as
    /// themselves ([`plain_text_run`](Self::plain_text_run)) are copied in one go; every other
    /// character takes libxml2's one-at-a-time path.
    #[inline(never)]
    fn parse_char_data_complex(&mut self, sink: &mut impl Sax) {
        let mut buf = std::mem::take(&mut self.pools.text_buf);
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
                    self.pools.text_buf = buf;
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
        self.pools.text_buf = buf;
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
        let start = self.input.cur;
        let Some(room) = BIG_BUFFER_SIZE.checked_sub(buf.len()).filter(|&r| r > 0) else {
            return;
        };
        // A character is taken while the piece is shorter than
        // BIG_BUFFER_SIZE, i.e. while it starts before `end`.
        let end = self.input.buf.len().min(start + room);
        let run = text_run(&self.input.buf, start, end, self.input.utf8);
        buf.extend_from_slice(&self.input.buf[start..run.at]);
        self.input.cur = run.at;
        self.input.line += run.lines;
        // The column counts characters: bytes less continuation bytes.
        let col_base = if run.lines > 0 { 1 } else { self.input.col };
        self.input.col = col_base + (run.at - run.line_start - run.extra) as u64;
    }
}

/// How many bytes at the start of `s` are plain text ([`PLAIN_TEXT`]).
#[inline(always)]
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
