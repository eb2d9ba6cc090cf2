//! References (`xmlParseReference`, `xmlParseCharRef`,
//! `xmlParseEntityRef`), entity lookup as compat.c does it, and the
//! entity amplification checks.

use crate::libxml::chars::{is_char, push_utf8, string_name_len};
use crate::libxml::input::BIG_BUFFER_SIZE;
use crate::libxml::{Core, EntityKind, State, Sub, err};
use crate::sax::Sax;

/// `XML_PARSER_BUFFER_SIZE`: the headroom `xmlStringDecodeEntities` keeps
/// in its buffer, and what it adds when it grows it.
const BUFFER_SIZE: usize = 100;

impl Core<'_> {
    /// `xmlParseCharRef`: the code point, 0 on error. The hexadecimal and
    /// decimal loops are two, as in libxml2.
    pub(in crate::libxml) fn parse_char_ref(&mut self) -> u32 {
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
                self.input.col += 1;
                self.input.cur += 1;
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
                self.input.col += 1;
                self.input.cur += 1;
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
    pub(in crate::libxml) fn parse_reference(&mut self, sink: &mut impl Sax) {
        if self.raw() != b'&' {
            return;
        }
        if self.nxt(1) == b'#' {
            let value = self.parse_char_ref();
            if value == 0 {
                return;
            }
            if !self.disable_sax {
                if self.input.utf8 {
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
            let at = self.input.cur;
            self.skip(len);
            self.expansion.nb_entities += 1;
            if self.installed.default && !self.installed.character_data {
                sink.default(&self.input.buf[at..at + len]);
            } else if self.installed.character_data {
                sink.character_data(&[value]);
            }
            return;
        }
        if let Some(name) = self.parse_entity_ref(Some(sink)) {
            self.recycle_name(name);
        }
        // compat.c starts with wellFormed = 0, so libxml2 never expands the
        // entity itself: what compat.c's getEntity sent is all there is.
    }

    /// `xmlParseEntityRef`: the entity name if it resolved. With a sink,
    /// compat.c's `_get_entity` routes the reference (content only).
    pub(in crate::libxml) fn parse_entity_ref<S: Sax>(
        &mut self,
        sink: Option<&mut S>,
    ) -> Option<Vec<u8>> {
        if self.state == State::Eof || self.raw() != b'&' {
            return None;
        }
        self.next_char();
        // the name is read into a pooled buffer, which the caller recycles
        let mut name = self.pooled_buffer();
        if !self.parse_name_into(&mut name) {
            self.recycle_name(name);
            self.fatal(err::NAME_REQUIRED);
            return None;
        }
        if self.raw() != b';' {
            self.recycle_name(name);
            self.fatal(err::ENTITYREF_SEMICOL_MISSING);
            return None;
        }
        self.next_char();
        if predefined_content(&name).is_none() {
            self.expansion.nb_entities += 1;
        }
        let found = self.compat_get_entity(sink, &name);
        if self.state == State::Eof {
            return None;
        }
        match found {
            None => {
                if self.dtd.standalone == 1
                    || (!self.dtd.has_external_subset && !self.dtd.has_pe_refs)
                {
                    self.fatal(err::UNDECLARED_ENTITY);
                } else {
                    self.error(err::WAR_UNDECLARED_ENTITY);
                }
                self.entity_check(None);
                self.recycle_name(name);
                None
            }
            Some(kind) => {
                match kind {
                    EntityKind::ExternalGeneralParsed if self.sub == Sub::AttributeValue => {
                        self.fatal(err::ENTITY_IS_EXTERNAL);
                    }
                    k if self.sub == Sub::AttributeValue && k != EntityKind::Predefined => {
                        let ent = self.dtd.entities.get(&name);
                        if let Some(e) = ent
                            && ((e.checked & 1) == 1 || e.checked == 0)
                            && e.content.contains(&b'<')
                        {
                            self.fatal(err::LT_IN_ATTRIBUTE);
                        }
                    }
                    _ => {}
                }
                Some(name)
            }
        }
    }

    /// compat.c's `_get_entity`: returns the kind of the entity found.
    /// The entity is looked at where it is stored, not copied: a
    /// reference costs the handler call no allocation.
    fn compat_get_entity<S: Sax>(
        &mut self,
        sink: Option<&mut S>,
        name: &[u8],
    ) -> Option<EntityKind> {
        if self.dtd.in_subset != 0 {
            return None;
        }
        let predefined = predefined_content(name);
        let kind = if predefined.is_some() {
            Some(EntityKind::Predefined)
        } else {
            self.dtd.entities.get(name).map(|e| e.kind)
        };
        let in_value = self.sub == Sub::AttributeValue || self.sub == Sub::EntityValue;
        if kind.is_none() || !in_value {
            match kind {
                None | Some(EntityKind::InternalGeneral | EntityKind::Predefined) => {
                    let is_predefined = kind == Some(EntityKind::Predefined);
                    if self.installed.default && !(is_predefined && self.installed.character_data) {
                        if let Some(s) = sink {
                            self.emit_default(s, |_, d| {
                                d.push(b'&');
                                d.extend_from_slice(name);
                                d.push(b';');
                            });
                        } else {
                            self.pending_default_refs.push(name.to_vec());
                        }
                    } else if self.installed.character_data
                        && let Some(content) =
                            predefined.or_else(|| Some(&self.dtd.entities.get(name)?.content[..]))
                        && let Some(s) = sink
                    {
                        // No limit, as in PHP: the text is handed over by
                        // reference for each `&name;`, nothing is kept.
                        s.character_data(content);
                    }
                }
                Some(EntityKind::ExternalGeneralParsed) => {
                    if self.installed.external_entity_ref
                        && let Some(e) = self.dtd.entities.get(name)
                        && let Some(s) = sink
                        && !s.external_entity_ref(
                            name,
                            e.system_id.as_deref(),
                            e.public_id.as_deref(),
                        )
                    {
                        self.stop();
                        self.error_code = err::EXTERNAL_ENTITY_HANDLING;
                    }
                }
            }
        }
        kind
    }

    /// `xmlStringDecodeEntities(ctxt, str, XML_SUBSTITUTE_REF)`: expands
    /// references in an entity's replacement text for an attribute value,
    /// with libxml2's amplification checks (`xmlParserEntityCheck`) where it
    /// makes them: after each reference, and each time its buffer would
    /// grow while a replacement text is copied in.
    pub(in crate::libxml) fn decode_entities(&mut self, s: &[u8]) -> Option<Vec<u8>> {
        if (self.expansion.depth > 40 && !self.huge) || self.expansion.depth > 1024 {
            self.fatal(err::ENTITY_LOOP);
            return None;
        }
        // a pooled buffer: callers that are done with it recycle it
        let mut out = self.pooled_buffer();
        // libxml2's buffer size: its checks run when it grows, by
        // `XML_PARSER_BUFFER_SIZE` and twice itself
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
                // xmlParseStringEntityRef: a reference without a name or
                // its `;` is reported and the text goes on after what
                // was read (a `&` left by `&#38;` is such a reference)
                let j = i + 1 + string_name_len(&s[i + 1..], self.input.utf8);
                if j == i + 1 {
                    self.fatal(err::NAME_REQUIRED);
                    self.entity_check(None);
                    i = j;
                    continue;
                }
                if s.get(j) != Some(&b';') {
                    self.fatal(err::ENTITYREF_SEMICOL_MISSING);
                    self.entity_check(None);
                    i = j;
                    continue;
                }
                let name = s[i + 1..j].to_vec();
                i = j + 1;
                if let Some(content) = predefined_content(&name) {
                    out.extend_from_slice(content);
                    if out.len() + BUFFER_SIZE > size {
                        size = size * 2 + BUFFER_SIZE;
                    }
                    continue;
                }
                self.expansion.nb_entities += 1;
                let Some(e) = self.dtd.entities.get(&name) else {
                    // compat.c's `_get_entity` is asked here too: an unknown
                    // name goes to the default handler
                    self.compat_get_entity(None::<&mut super::attribute::NoSink>, &name);
                    if self.dtd.standalone == 1
                        || (!self.dtd.has_external_subset && !self.dtd.has_pe_refs)
                    {
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
                let Some(e) = self.dtd.entities.get(&name) else {
                    continue;
                };
                self.expansion.nb_entities += e.checked / 2;
                let content = std::sync::Arc::clone(&e.content);
                self.expansion.depth += 1;
                let rep = self.decode_entities(&content);
                self.expansion.depth -= 1;
                let Some(rep) = rep else {
                    // libxml2 empties the entity (`ent->content[0] = 0`)
                    if let Some(e) = self.dtd.entities.get_mut(&name) {
                        e.content = std::sync::Arc::default();
                    }
                    return None;
                };
                // libxml2 copies byte by byte and checks when its buffer
                // grows: copied here in runs that end where it would grow
                let mut rest = &rep[..];
                while !rest.is_empty() {
                    let room = (size + 1 - BUFFER_SIZE).saturating_sub(out.len()).max(1);
                    let (run, after) = rest.split_at(room.min(rest.len()));
                    out.extend_from_slice(run);
                    rest = after;
                    if out.len() + BUFFER_SIZE > size {
                        if self.entity_check_size(out.len()) {
                            return None;
                        }
                        size = size * 2 + BUFFER_SIZE;
                    }
                }
                self.recycle_name(rep);
            } else {
                out.push(c);
                i += 1;
                if out.len() + BUFFER_SIZE > size {
                    size = size * 2 + BUFFER_SIZE;
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
    pub(in crate::libxml) fn entity_check(&mut self, name: Option<&[u8]>) -> bool {
        if self.huge {
            return false;
        }
        if self.error_code == err::ENTITY_LOOP {
            return true;
        }
        let Some(name) = name else {
            if !matches!(
                self.error_code,
                err::UNDECLARED_ENTITY | err::WAR_UNDECLARED_ENTITY
            ) || self.expansion.nb_entities <= 10_000
            {
                return false;
            }
            self.fatal(err::ENTITY_LOOP);
            return true;
        };
        let Some(e) = self.dtd.entities.get_mut(name) else {
            return false;
        };
        if e.checked == 0 && e.kind != EntityKind::Predefined {
            e.checked = 1;
            let content = std::sync::Arc::clone(&e.content);
            let before = self.expansion.nb_entities;
            self.expansion.depth += 1;
            let rep = self.decode_entities(&content);
            self.expansion.depth -= 1;
            let diff = (self.expansion.nb_entities - before + 1).min(i32::MAX as u64 / 2);
            let looped = self.error_code == err::ENTITY_LOOP;
            if let Some(e) = self.dtd.entities.get_mut(name) {
                if rep.is_none() || looped {
                    e.content = std::sync::Arc::default();
                }
                e.checked = (diff * 2) | u64::from(rep.is_some_and(|r| r.contains(&b'<')));
            }
        }
        let size = self.dtd.entities.get(name).map_or(0, |e| e.checked / 2);
        let consumed = self.input.consumed + self.input.cur as u64;
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
        if self.huge {
            // phpxml's bound where libxml2 has none (it grows the buffer
            // until malloc fails): the text limit of XML_PARSE_HUGE
            if size > super::MAX_HUGE_LENGTH {
                self.memory_error();
                return true;
            }
            return false;
        }
        if self.error_code == err::ENTITY_LOOP {
            return true;
        }
        if size < 1000 {
            return false;
        }
        let consumed = self.input.consumed + self.input.cur as u64;
        if (size as u64) < consumed * 10 && self.expansion.nb_entities * 3 < consumed * 10 {
            return false;
        }
        self.fatal(err::ENTITY_LOOP);
        true
    }

    /// `xmlErrMemory`: libxml2's way out of an over-long value; number 2
    /// until the next error replaces it.
    pub(super) fn memory_error(&mut self) {
        if self.disable_sax && self.state == State::Eof {
            return;
        }
        self.error_code = err::NO_MEMORY;
        self.last_level = super::super::Level::Fatal;
        self.disable_sax = true;
    }
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

/// The replacement text of a predefined entity.
pub(super) fn predefined_content(name: &[u8]) -> Option<&'static [u8]> {
    Some(match name {
        b"lt" => b"<",
        b"gt" => b">",
        b"amp" => b"&",
        b"apos" => b"'",
        b"quot" => b"\"",
        _ => return None,
    })
}
