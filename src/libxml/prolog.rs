//! The prolog: XML declaration, DOCTYPE and the internal subset (entity,
//! notation, attribute-list and element declarations, PE references).

use super::chars::{copy_char, is_blank, is_char, push_utf8, string_name_len};
use super::charsets::{Form, Order};
use super::content::{Fragment, qname_key};
use super::{Core, DefaultAttr, Entity, EntityKind, State, Sub, encoding, err};
use crate::sax::Sax;

impl Core<'_> {
    /// `CMPn`: the bytes at the cursor start with `s`.
    fn cmp(&self, s: &[u8]) -> bool {
        self.input.buf.len() >= self.input.cur + s.len()
            && &self.input.buf[self.input.cur..self.input.cur + s.len()] == s
    }

    /// `SKIP_BLANKS` inside the DTD (`xmlNextChar` per blank).
    fn skip_blanks_dtd(&mut self) -> usize {
        let mut n = 0;
        while is_blank(self.raw()) {
            self.next_char();
            n += 1;
        }
        n
    }

    // ------------------------------------------------------------------
    // XML declaration
    // ------------------------------------------------------------------

    /// `xmlParseXMLDecl`.
    pub(super) fn parse_xml_decl(&mut self) {
        self.skip(5);
        if !is_blank(self.raw()) {
            self.fatal(err::SPACE_REQUIRED);
        }
        self.skip_blanks();
        let version = self.parse_version_info();
        match version {
            None => self.fatal(err::VERSION_MISSING),
            Some(v) => {
                if v != b"1.0" {
                    if v.len() >= 2 && v[0] == b'1' && v[1] == b'.' {
                        self.warning();
                    } else {
                        self.fatal(err::UNKNOWN_VERSION);
                    }
                }
            }
        }
        if !is_blank(self.raw()) {
            if self.raw() == b'?' && self.nxt(1) == b'>' {
                self.skip(2);
                return;
            }
            self.fatal(err::SPACE_REQUIRED);
        }
        let enc = self.parse_encoding_decl();
        if self.error_code == err::UNSUPPORTED_ENCODING || self.state == State::Eof {
            return;
        }
        if enc.is_some() && !is_blank(self.raw()) {
            if self.raw() == b'?' && self.nxt(1) == b'>' {
                self.skip(2);
                return;
            }
            self.fatal(err::SPACE_REQUIRED);
        }
        self.skip_blanks();
        self.dtd.standalone = self.parse_sd_decl();
        self.skip_blanks();
        if self.raw() == b'?' && self.nxt(1) == b'>' {
            self.skip(2);
        } else if self.raw() == b'>' {
            self.fatal(err::XMLDECL_NOT_FINISHED);
            self.next_char();
        } else {
            self.fatal(err::XMLDECL_NOT_FINISHED);
            while self.raw() != 0 && self.raw() != b'>' {
                self.input.cur += 1;
            }
            self.next_char();
        }
    }

    /// `xmlParseVersionInfo`. Its `name Eq quote` opening stands again in
    /// `xmlParseEncodingDecl` and `xmlParseSDDecl`, as in libxml2.
    fn parse_version_info(&mut self) -> Option<Vec<u8>> {
        if !self.cmp(b"version") {
            return None;
        }
        self.skip(7);
        self.skip_blanks();
        if self.raw() != b'=' {
            self.fatal(err::EQUAL_REQUIRED);
            return None;
        }
        self.next_char();
        self.skip_blanks();
        let q = self.raw();
        if q == b'"' || q == b'\'' {
            self.next_char();
            let v = self.parse_version_num();
            if self.raw() != q {
                self.fatal(err::STRING_NOT_CLOSED);
            } else {
                self.next_char();
            }
            v
        } else {
            self.fatal(err::STRING_NOT_STARTED);
            None
        }
    }

    fn parse_version_num(&mut self) -> Option<Vec<u8>> {
        let mut v = Vec::new();
        if !self.raw().is_ascii_digit() {
            return None;
        }
        v.push(self.raw());
        self.next_char();
        if self.raw() != b'.' {
            return None;
        }
        v.push(b'.');
        self.next_char();
        while self.raw().is_ascii_digit() {
            v.push(self.raw());
            self.next_char();
        }
        Some(v)
    }

    /// `xmlParseEncodingDecl`.
    fn parse_encoding_decl(&mut self) -> Option<Vec<u8>> {
        self.skip_blanks();
        if !self.cmp(b"encoding") {
            return None;
        }
        self.skip(8);
        self.skip_blanks();
        if self.raw() != b'=' {
            self.fatal(err::EQUAL_REQUIRED);
            return None;
        }
        self.next_char();
        self.skip_blanks();
        let q = self.raw();
        let mut name = None;
        if q == b'"' || q == b'\'' {
            self.next_char();
            let c = self.raw();
            if c.is_ascii_alphabetic() {
                let mut n = vec![c];
                self.next_char();
                loop {
                    let c = self.raw();
                    if c.is_ascii_alphanumeric() || c == b'.' || c == b'_' || c == b'-' {
                        n.push(c);
                        self.next_char();
                    } else {
                        break;
                    }
                }
                name = Some(n);
            } else {
                self.fatal(err::ENCODING_NAME);
            }
            if self.raw() != q {
                self.fatal(err::STRING_NOT_CLOSED);
                return None;
            }
            self.next_char();
        } else {
            self.fatal(err::STRING_NOT_STARTED);
        }
        let n = name.as_ref()?;
        let upper: Vec<u8> = n.iter().map(u8::to_ascii_uppercase).collect();
        let utf16_mode = matches!(
            self.input.enc.mode,
            encoding::Mode::Utf16Le | encoding::Mode::Utf16Be
        );
        if upper == b"UTF-16" || upper == b"UTF16" {
            if self.input.enc.mode == encoding::Mode::Utf8 {
                self.fatal(err::INVALID_ENCODING);
            }
        } else if utf16_mode && own_utf16_name(&upper) {
            // xmlSwitchInputEncodingInt: libxml2's own handler (iconv's for
            // the names without a dash) of the other order replaces the one
            // found from the first bytes
            let mode = if upper.ends_with(b"LE") {
                encoding::Mode::Utf16Le
            } else {
                encoding::Mode::Utf16Be
            };
            if mode != self.input.enc.mode {
                self.switch_encoding(mode);
            }
        } else if let Some(order) = icu_utf16_order(&upper).filter(|_| utf16_mode) {
            // only ICU opens the name: its converter replaces the guess
            self.switch_encoding(encoding::Mode::Wide(Form::IcuUtf16(order)));
        } else if upper == b"UTF-8" || upper == b"UTF8" || (utf16_mode && names_utf16(&upper)) {
        } else {
            // libxml2's own UTF-16LE and UTF-16BE handlers (iconv's for the
            // names without a dash): under a UTF-16 guess the other byte
            // order replaces the guess for the bytes not converted yet,
            // over UTF-8 the bytes after the cursor are read as UTF-16
            let own = match upper.as_slice() {
                b"UTF-16LE" | b"UTF16LE" => Some(encoding::Mode::Utf16Le),
                b"UTF-16BE" | b"UTF16BE" => Some(encoding::Mode::Utf16Be),
                _ => None,
            };
            let Some(mode) = own.or_else(|| encoding::table_for(n)) else {
                self.fatal(err::UNSUPPORTED_ENCODING);
                return None;
            };
            if !self.switch_encoding(mode) {
                // xmlParseEncodingDecl: the switch failed
                self.fatal(err::UNSUPPORTED_ENCODING);
                return None;
            }
        }
        name
    }

    /// `xmlParseSDDecl`.
    fn parse_sd_decl(&mut self) -> i32 {
        let mut standalone = -2;
        self.skip_blanks();
        if !self.cmp(b"standalone") {
            return standalone;
        }
        self.skip(10);
        self.skip_blanks();
        if self.raw() != b'=' {
            self.fatal(err::EQUAL_REQUIRED);
            return standalone;
        }
        self.next_char();
        self.skip_blanks();
        let q = self.raw();
        if q == b'\'' || q == b'"' {
            self.next_char();
            if self.raw() == b'n' && self.nxt(1) == b'o' {
                standalone = 0;
                self.skip(2);
            } else if self.raw() == b'y' && self.nxt(1) == b'e' && self.nxt(2) == b's' {
                standalone = 1;
                self.skip(3);
            } else {
                self.fatal(err::STANDALONE_VALUE);
            }
            if self.raw() != q {
                self.fatal(err::STRING_NOT_CLOSED);
            } else {
                self.next_char();
            }
        } else {
            self.fatal(err::STRING_NOT_STARTED);
        }
        standalone
    }

    // ------------------------------------------------------------------
    // DOCTYPE
    // ------------------------------------------------------------------

    /// `xmlParseDocTypeDecl`.
    pub(super) fn parse_doctype_decl(&mut self, _sink: &mut impl Sax) {
        self.skip(9);
        self.skip_blanks();
        if self.parse_name().is_none() {
            self.fatal(err::NAME_REQUIRED);
        }
        self.skip_blanks();
        let (uri, pubid) = self.parse_external_id(true);
        if uri.is_some() || pubid.is_some() {
            self.dtd.has_external_subset = true;
        }
        self.skip_blanks();
        if self.raw() == b'[' {
            return;
        }
        if self.raw() != b'>' {
            self.fatal(err::DOCTYPE_NOT_FINISHED);
        }
        self.next_char();
    }

    /// `xmlParseExternalID`: (system literal, public literal).
    fn parse_external_id(&mut self, strict: bool) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
        self.shrink_macro();
        let mut uri = None;
        let mut pubid = None;
        if self.cmp(b"SYSTEM") {
            self.skip(6);
            if self.skip_blanks_dtd() == 0 {
                self.fatal(err::SPACE_REQUIRED);
            }
            uri = self.parse_system_literal();
            if uri.is_none() {
                self.fatal(err::URI_REQUIRED);
            }
        } else if self.cmp(b"PUBLIC") {
            self.skip(6);
            if self.skip_blanks_dtd() == 0 {
                self.fatal(err::SPACE_REQUIRED);
            }
            pubid = self.parse_pubid_literal();
            if pubid.is_none() {
                self.fatal(err::PUBID_REQUIRED);
            }
            if strict {
                if self.skip_blanks_dtd() == 0 {
                    self.fatal(err::SPACE_REQUIRED);
                }
            } else {
                if self.skip_blanks_dtd() == 0 {
                    return (None, pubid);
                }
                if self.raw() != b'\'' && self.raw() != b'"' {
                    return (None, pubid);
                }
            }
            uri = self.parse_system_literal();
            if uri.is_none() {
                self.fatal(err::URI_REQUIRED);
            }
        }
        (uri, pubid)
    }

    /// `xmlParseSystemLiteral`, with its `SHRINK`s: first, after every
    /// 50 characters, and where it reads a 0.
    fn parse_system_literal(&mut self) -> Option<Vec<u8>> {
        self.shrink_macro();
        let q = self.raw();
        if q != b'"' && q != b'\'' {
            self.fatal(err::LITERAL_NOT_STARTED);
            return None;
        }
        self.next_char();
        let mut v = Vec::new();
        let mut count = 0;
        let (mut c, mut l) = self.cur_char();
        while is_char(c) && c != u32::from(q) {
            count += 1;
            if count > 50 {
                self.shrink_macro();
                count = 0;
            }
            push_utf8(&mut v, c);
            self.nextl(l);
            (c, l) = self.cur_char();
            if c == 0 {
                self.shrink_macro();
                (c, l) = self.cur_char();
            }
        }
        if !is_char(c) {
            self.fatal(err::LITERAL_NOT_FINISHED);
        } else {
            self.next_char();
        }
        Some(v)
    }

    /// `xmlParsePubidLiteral`, with its `SHRINK`s as in
    /// [`parse_system_literal`](Self::parse_system_literal).
    fn parse_pubid_literal(&mut self) -> Option<Vec<u8>> {
        self.shrink_macro();
        let q = self.raw();
        if q != b'"' && q != b'\'' {
            self.fatal(err::LITERAL_NOT_STARTED);
            return None;
        }
        self.next_char();
        let mut v = Vec::new();
        let mut count = 0;
        loop {
            let c = self.raw();
            let pubid = c.is_ascii_alphanumeric() || b" \r\n-'()+,./:=?;!*#@$_%".contains(&c);
            if !pubid || c == q {
                break;
            }
            v.push(c);
            count += 1;
            if count > 50 {
                self.shrink_macro();
                count = 0;
            }
            self.next_char();
            if self.raw() == 0 {
                self.shrink_macro();
            }
        }
        if self.raw() != q {
            self.fatal(err::LITERAL_NOT_FINISHED);
        } else {
            self.next_char();
        }
        Some(v)
    }

    // ------------------------------------------------------------------
    // Internal subset
    // ------------------------------------------------------------------

    /// The DTD case of the push loop: waits for the whole internal subset,
    /// then parses it. False means "wait".
    pub(super) fn dtd_state(&mut self, sink: &mut impl Sax, terminate: bool) -> bool {
        let use_ = self.input.buf.len();
        // libxml2 scans from `checkIndex` (where the last scan stopped)
        // with no quote open; a scan that stopped inside a quoted string
        // sets `checkIndex` to 0, so the next one starts over at the cursor.
        // That rescan takes the same path as the last one from the cursor
        // did, up to the first decision that depended on where the buffer
        // ended: `dtd_rescan` remembers where that was and resumes there,
        // which keeps libxml2's results without its quadratic rescans.
        let rescan = self.lookahead.dtd_rescan.take();
        let full = rescan.is_some() || self.check_index <= self.input.cur;
        let (mut base, mut quote) = rescan.unwrap_or((self.input.cur.max(self.check_index), 0));
        // the first `<` taken as plain text because fewer than five bytes
        // followed it (with more input it may start a comment)
        let mut edge: Option<usize> = None;
        let mut found = false;
        'scan: while base < use_ {
            let b = self.input.buf[base];
            if quote != 0 {
                if b == quote {
                    quote = 0;
                }
                base += 1;
                continue;
            }
            if b == b'<' && base + 4 >= use_ && edge.is_none() {
                edge = Some(base);
            }
            if b == b'<' && base + 4 < use_ && &self.input.buf[base + 1..base + 4] == b"!--" {
                // libxml2 looks for `-->` only where a byte follows it
                let mut f = false;
                match memchr_seq(&self.input.buf[base..use_ - 1], b"-->") {
                    Some(k) => {
                        f = true;
                        base += k + 2;
                    }
                    None => base = use_.saturating_sub(3).max(base),
                }
                if !f {
                    break 'scan;
                }
                base += 1;
                continue;
            }
            if b == b'"' || b == b'\'' {
                quote = b;
                base += 1;
                continue;
            }
            if b == b']' {
                if base + 1 >= use_ {
                    break;
                }
                if self.input.buf[base + 1] == b']' {
                    base += 2;
                    continue;
                }
                let mut i = 1;
                while base + i < use_ {
                    if self.input.buf[base + i] == b'>' {
                        found = true;
                        break 'scan;
                    }
                    if !is_blank(self.input.buf[base + i]) {
                        break;
                    }
                    i += 1;
                }
                if base + i >= use_ {
                    break;
                }
            }
            base += 1;
        }
        if !found {
            // even a final chunk waits here: the missing subset end is
            // reported as an unfinished document
            if quote == 0 {
                self.check_index = base;
            } else {
                self.check_index = 0;
                self.lookahead.dtd_rescan = Some(match (full, edge) {
                    (false, _) => (self.input.cur, 0),
                    (true, Some(e)) => (e, 0),
                    (true, None) => (base, quote),
                });
            }
            return false;
        }
        let _ = terminate;
        self.check_index = 0;
        self.parse_internal_subset(sink);
        if self.state == State::Eof {
            return false;
        }
        self.dtd.in_subset = 0;
        self.state = State::Prolog;
        self.check_index = 0;
        true
    }

    /// `xmlParseInternalSubset`.
    fn parse_internal_subset(&mut self, sink: &mut impl Sax) {
        if self.raw() == b'[' {
            self.state = State::Dtd;
            self.next_char();
            while self.raw() != b']' && self.state != State::Eof {
                let check = self.input.cur;
                let cons = self.input.consumed;
                self.skip_blanks_dtd();
                self.parse_markup_decl(sink);
                self.parse_pe_reference();
                if self.input.cur == check && cons == self.input.consumed {
                    self.fatal(err::INTERNAL_ERROR);
                    break;
                }
            }
            if self.raw() == b']' {
                self.next_char();
                self.skip_blanks_dtd();
            }
        }
        if self.state == State::Eof {
            return;
        }
        if self.raw() != b'>' {
            self.fatal(err::DOCTYPE_NOT_FINISHED);
            return;
        }
        self.next_char();
    }

    /// `xmlParseMarkupDecl`.
    fn parse_markup_decl(&mut self, sink: &mut impl Sax) {
        if self.raw() == b'<' {
            if self.nxt(1) == b'!' {
                match self.nxt(2) {
                    b'E' => {
                        if self.nxt(3) == b'L' {
                            self.parse_element_decl();
                        } else if self.nxt(3) == b'N' {
                            self.parse_entity_decl(sink);
                        }
                    }
                    b'A' => self.parse_attlist_decl(),
                    b'N' => self.parse_notation_decl(sink),
                    b'-' => self.parse_comment(sink),
                    _ => {}
                }
            } else if self.nxt(1) == b'?' {
                self.parse_pi(sink);
            }
        }
        if self.state == State::Eof {
            return;
        }
        self.state = State::Dtd;
    }

    /// `xmlParsePEReference` (parameter entities are never declared through
    /// compat.c's SAX table, so every reference is undeclared).
    fn parse_pe_reference(&mut self) {
        if self.raw() != b'%' {
            return;
        }
        self.next_char();
        if self.parse_name().is_none() {
            self.fatal(err::PEREF_NO_NAME);
            return;
        }
        if self.raw() != b';' {
            self.fatal(err::PEREF_SEMICOL_MISSING);
            return;
        }
        self.next_char();
        self.expansion.nb_entities += 1;
        if self.dtd.standalone == 1 || (!self.dtd.has_external_subset && !self.dtd.has_pe_refs) {
            self.fatal(err::UNDECLARED_ENTITY);
        } else {
            self.warning();
        }
        self.dtd.has_pe_refs = true;
    }

    /// `xmlParseEntityDecl`.
    #[allow(clippy::too_many_lines)] // one function, as in libxml2
    fn parse_entity_decl(&mut self, sink: &mut impl Sax) {
        if !self.cmp(b"<!ENTITY") {
            return;
        }
        self.shrink_macro();
        self.skip(8);
        if self.skip_blanks_dtd() == 0 {
            self.fatal(err::SPACE_REQUIRED);
        }
        let mut is_param = false;
        if self.raw() == b'%' {
            self.next_char();
            if self.skip_blanks_dtd() == 0 {
                self.fatal(err::SPACE_REQUIRED);
            }
            is_param = true;
        }
        let Some(name) = self.parse_name() else {
            self.fatal(err::NAME_REQUIRED);
            return;
        };
        if name.contains(&b':') {
            self.error(err::NS_ERR_COLON);
        }
        if self.skip_blanks_dtd() == 0 {
            self.fatal(err::SPACE_REQUIRED);
        }
        if is_param {
            if self.raw() == b'"' || self.raw() == b'\'' {
                let _ = self.parse_entity_value();
            } else {
                let (uri, lit) = self.parse_external_id(true);
                if uri.is_none() && lit.is_none() {
                    self.fatal(err::VALUE_REQUIRED);
                }
                if let Some(u) = &uri {
                    self.check_system_id(u);
                }
            }
        } else if self.raw() == b'"' || self.raw() == b'\'' {
            let value = self.parse_entity_value();
            self.add_entity(Entity {
                kind: EntityKind::InternalGeneral,
                name: name.clone(),
                content: value.unwrap_or_default().into(),
                system_id: None,
                public_id: None,
                checked: 0,
            });
        } else {
            let (uri, lit) = self.parse_external_id(true);
            if uri.is_none() && lit.is_none() {
                self.fatal(err::VALUE_REQUIRED);
            }
            if let Some(u) = &uri {
                self.check_system_id(u);
            }
            if self.raw() != b'>' && self.skip_blanks_dtd() == 0 {
                self.fatal(err::SPACE_REQUIRED);
            }
            if self.cmp(b"NDATA") {
                self.skip(5);
                if self.skip_blanks_dtd() == 0 {
                    self.fatal(err::SPACE_REQUIRED);
                }
                let ndata = self.parse_name();
                // compat.c's own unparsedEntityDecl: the entity is not
                // recorded, so later references to it are undeclared
                if !self.disable_sax && self.installed.unparsed_entity_decl {
                    sink.unparsed_entity_decl(
                        &name,
                        uri.as_deref(),
                        lit.as_deref(),
                        ndata.as_deref(),
                    );
                }
            } else {
                self.add_entity(Entity {
                    kind: EntityKind::ExternalGeneralParsed,
                    name: name.clone(),
                    content: std::sync::Arc::default(),
                    system_id: uri,
                    public_id: lit,
                    checked: 0,
                });
            }
        }
        if self.state == State::Eof {
            return;
        }
        self.skip_blanks_dtd();
        if self.raw() != b'>' {
            self.fatal(err::ENTITY_NOT_FINISHED);
            self.halt();
        } else {
            self.next_char();
        }
    }

    /// `xmlParseEntityDecl`'s check of a system id: `xmlParseURI` returns
    /// no URI (error 91, not fatal), or one with a fragment (error 92).
    fn check_system_id(&mut self, system_id: &[u8]) {
        match super::content::parse_uri(system_id) {
            None => self.error(err::INVALID_URI),
            Some(Fragment::Present) => self.fatal(err::URI_FRAGMENT),
            Some(Fragment::Absent) => {}
        }
    }

    fn add_entity(&mut self, e: Entity) {
        if matches!(
            e.name.as_slice(),
            b"lt" | b"gt" | b"amp" | b"apos" | b"quot"
        ) {
            return;
        }
        self.dtd.entities.entry(e.name.clone()).or_insert(e);
    }

    /// `xmlParseEntityValue`: the value with character references replaced.
    fn parse_entity_value(&mut self) -> Option<Vec<u8>> {
        let stop = self.raw();
        self.sub = Sub::EntityValue;
        self.next_char();
        let mut buf = Vec::new();
        let (mut c, mut l) = self.cur_char();
        while is_char(c) && c != u32::from(stop) && self.state != State::Eof {
            copy_char(&mut buf, c, l);
            self.nextl(l);
            (c, l) = self.cur_char();
        }
        self.sub = Sub::None;
        if self.state == State::Eof {
            return None;
        }
        if c != u32::from(stop) {
            self.fatal(err::ENTITY_NOT_FINISHED);
            return None;
        }
        self.next_char();
        // check the references
        let mut i = 0;
        while i < buf.len() {
            let b = buf[i];
            if b == b'%' || (b == b'&' && buf.get(i + 1) != Some(&b'#')) {
                i += 1;
                let start = i;
                i += string_name_len(&buf[i..], self.input.utf8);
                let ok = i > start;
                if !ok || buf.get(i) != Some(&b';') {
                    self.fatal(err::ENTITY_CHAR_ERROR);
                    return None;
                }
                if b == b'%' && self.dtd.in_subset == 1 {
                    self.fatal(err::ENTITY_PE_INTERNAL);
                    return None;
                }
            }
            i += 1;
        }
        // character references are replaced at declaration time
        let mut out = Vec::with_capacity(buf.len());
        let mut i = 0;
        while i < buf.len() {
            if buf[i] == b'&' && buf.get(i + 1) == Some(&b'#') {
                let mut j = i + 2;
                let hex = buf.get(j) == Some(&b'x');
                if hex {
                    j += 1;
                }
                let mut val: u32 = 0;
                let mut bad = false;
                while j < buf.len() && buf[j] != b';' {
                    let d = buf[j];
                    let v = if hex {
                        (d as char).to_digit(16)
                    } else {
                        (d as char).to_digit(10)
                    };
                    let Some(v) = v else {
                        bad = true;
                        break;
                    };
                    val = (val * if hex { 16 } else { 10 } + v).min(0x110000);
                    j += 1;
                }
                if bad || val >= 0x110000 || !is_char(val) {
                    if bad {
                        self.fatal(if hex {
                            err::INVALID_HEX_CHARREF
                        } else {
                            err::INVALID_DEC_CHARREF
                        });
                    }
                    // the value is then 0, not a Char either
                    self.fatal(err::INVALID_CHAR);
                    return None;
                }
                push_utf8(&mut out, val);
                i = j + 1;
            } else {
                out.push(buf[i]);
                i += 1;
            }
        }
        Some(out)
    }

    /// `xmlParseNotationDecl`.
    fn parse_notation_decl(&mut self, sink: &mut impl Sax) {
        if !self.cmp(b"<!NOTATION") {
            return;
        }
        self.shrink_macro();
        self.skip(10);
        if self.skip_blanks_dtd() == 0 {
            self.fatal(err::SPACE_REQUIRED);
            return;
        }
        let Some(name) = self.parse_name() else {
            self.fatal(err::NOTATION_NOT_STARTED);
            return;
        };
        if name.contains(&b':') {
            self.error(err::NS_ERR_COLON);
        }
        if self.skip_blanks_dtd() == 0 {
            self.fatal(err::SPACE_REQUIRED);
            return;
        }
        let (sys, pubid) = self.parse_external_id(false);
        self.skip_blanks_dtd();
        if self.raw() == b'>' {
            self.next_char();
            if !self.disable_sax && self.installed.notation_decl {
                sink.notation_decl(&name, sys.as_deref(), pubid.as_deref());
            }
        } else {
            self.fatal(err::NOTATION_NOT_FINISHED);
        }
    }

    /// `xmlParseAttributeListDecl`.
    fn parse_attlist_decl(&mut self) {
        if !self.cmp(b"<!ATTLIST") {
            return;
        }
        self.skip(9);
        if self.skip_blanks_dtd() == 0 {
            self.fatal(err::SPACE_REQUIRED);
        }
        let Some(elem) = self.parse_name() else {
            self.fatal(err::NAME_REQUIRED);
            return;
        };
        self.skip_blanks_dtd();
        while self.raw() != b'>' && self.state != State::Eof {
            let Some(attr) = self.parse_name() else {
                self.fatal(err::NAME_REQUIRED);
                break;
            };
            if self.skip_blanks_dtd() == 0 {
                self.fatal(err::SPACE_REQUIRED);
                break;
            }
            let Some(cdata) = self.parse_attribute_type() else {
                break;
            };
            if self.skip_blanks_dtd() == 0 {
                self.fatal(err::SPACE_REQUIRED);
                break;
            }
            let (use_default, mut value) = self.parse_default_decl();
            if !cdata && let Some(v) = &value {
                value = Some(normalize_space(v));
            }
            if self.raw() != b'>' && self.skip_blanks_dtd() == 0 {
                self.fatal(err::SPACE_REQUIRED);
                break;
            }
            if self.namespace_separator.is_some() {
                let (ep, el) = split_qname(&elem);
                let (ap, al) = split_qname(&attr);
                let key = qname_key(ep.as_deref(), &el);
                if use_default && let Some(v) = value {
                    let list = self.dtd.defaults.entry(key.clone()).or_default();
                    if !list.iter().any(|d| d.local == al && d.prefix == ap) {
                        list.push(DefaultAttr {
                            prefix: ap.clone(),
                            local: al.clone(),
                            value: v,
                        });
                    }
                }
                if !cdata {
                    self.dtd
                        .special
                        .insert((key, qname_key(ap.as_deref(), &al)));
                }
            }
        }
        if self.raw() == b'>' {
            self.next_char();
        }
    }

    /// `xmlParseAttributeType`: Some(is CDATA) or None on error.
    fn parse_attribute_type(&mut self) -> Option<bool> {
        self.shrink_macro();
        // tried in this order: `IDREFS` before `IDREF` before `ID`
        for (kw, cdata) in [
            (&b"CDATA"[..], true),
            (b"IDREFS", false),
            (b"IDREF", false),
            (b"ID", false),
            (b"ENTITY", false),
            (b"ENTITIES", false),
            (b"NMTOKENS", false),
            (b"NMTOKEN", false),
        ] {
            if self.cmp(kw) {
                self.skip(kw.len());
                return Some(cdata);
            }
        }
        self.parse_enumerated_type().then_some(false)
    }

    /// `xmlParseEnumeratedType`: false where libxml2 gives no type.
    fn parse_enumerated_type(&mut self) -> bool {
        if self.cmp(b"NOTATION") {
            self.skip(8);
            if self.skip_blanks_dtd() == 0 {
                self.fatal(err::SPACE_REQUIRED);
                return false;
            }
            // xmlParseNotationType
            if self.raw() != b'(' {
                self.fatal(err::NOTATION_NOT_STARTED);
                return false;
            }
            self.shrink_macro();
            return self.parse_token_group(true);
        }
        // xmlParseEnumerationType
        if self.raw() != b'(' {
            self.fatal(err::ATTLIST_NOT_STARTED);
            return false;
        }
        self.shrink_macro();
        self.parse_token_group(false)
    }

    /// The `( token | token ... )` of `xmlParseNotationType` (names; any
    /// fault fails the type) or of `xmlParseEnumerationType` (name tokens;
    /// libxml2 keeps the tokens read before a missing token or a missing
    /// `)`, so only a fault at the first token fails it), at the `(`. A
    /// repeated token is libxml2's validity error `XML_DTD_DUP_TOKEN`,
    /// raised even without validation: the number only, as `error` sets it.
    fn parse_token_group(&mut self, notation: bool) -> bool {
        let mut seen: Vec<Vec<u8>> = Vec::new();
        loop {
            self.next_char();
            self.skip_blanks_dtd();
            let token = if notation {
                self.parse_name()
            } else {
                self.parse_nmtoken()
            };
            let Some(token) = token else {
                self.fatal(if notation {
                    err::NAME_REQUIRED
                } else {
                    err::NMTOKEN_REQUIRED
                });
                return !notation && !seen.is_empty();
            };
            if seen.contains(&token) {
                self.error(err::DTD_DUP_TOKEN);
            } else {
                seen.push(token);
            }
            self.skip_blanks_dtd();
            if self.raw() != b'|' {
                break;
            }
        }
        if self.raw() != b')' {
            self.fatal(if notation {
                err::NOTATION_NOT_FINISHED
            } else {
                err::ATTLIST_NOT_FINISHED
            });
            return !notation;
        }
        self.next_char();
        true
    }

    /// `xmlParseDefaultDecl`: (whether the value is a default, value).
    /// libxml2 goes on with the declaration where the value failed.
    fn parse_default_decl(&mut self) -> (bool, Option<Vec<u8>>) {
        if self.cmp(b"#REQUIRED") {
            self.skip(9);
            return (false, None);
        }
        if self.cmp(b"#IMPLIED") {
            self.skip(8);
            return (false, None);
        }
        if self.cmp(b"#FIXED") {
            self.skip(6);
            if self.skip_blanks_dtd() == 0 {
                self.fatal(err::SPACE_REQUIRED);
            }
        }
        let v = self.parse_att_value(false);
        self.sub = Sub::None;
        if v.is_none() {
            // raised again under the number the value's parser left
            self.fatal(self.error_code);
        }
        (true, v)
    }

    /// `xmlParseElementDecl`.
    fn parse_element_decl(&mut self) {
        if !self.cmp(b"<!ELEMENT") {
            return;
        }
        self.skip(9);
        if self.skip_blanks_dtd() == 0 {
            self.fatal(err::SPACE_REQUIRED);
            return;
        }
        if self.parse_name().is_none() {
            self.fatal(err::NAME_REQUIRED);
            return;
        }
        if self.skip_blanks_dtd() == 0 {
            self.fatal(err::SPACE_REQUIRED);
        }
        if self.cmp(b"EMPTY") {
            self.skip(5);
        } else if self.cmp(b"ANY") {
            self.skip(3);
        } else if self.raw() == b'(' {
            // a faulty model is reported and the declaration goes on to `>`
            self.parse_element_content_decl();
        } else {
            // a PE reference cannot appear inside a declaration of the
            // internal subset (PEs are never expanded there)
            self.fatal(if self.raw() == b'%' {
                err::PEREF_IN_INT_SUBSET
            } else {
                err::ELEMCONTENT_NOT_STARTED
            });
            return;
        }
        self.skip_blanks_dtd();
        if self.raw() != b'>' {
            self.fatal(err::GT_REQUIRED);
        } else {
            self.next_char();
        }
    }

    /// `xmlParseElementContentDecl`, at the `(` of a content model.
    fn parse_element_content_decl(&mut self) {
        self.next_char();
        if self.state == State::Eof {
            return;
        }
        self.skip_blanks_dtd();
        if self.cmp(b"#PCDATA") {
            self.parse_element_mixed_content_decl();
        } else {
            self.parse_element_children_content_decl(1);
        }
        self.skip_blanks_dtd();
    }

    /// `xmlParseElementMixedContentDecl`, at `#PCDATA`: `(#PCDATA)`,
    /// `(#PCDATA)*` or `(#PCDATA | Name ...)*`; names take no occurrence
    /// marker and the list must end in `)*`.
    fn parse_element_mixed_content_decl(&mut self) {
        self.skip(7);
        self.skip_blanks_dtd();
        self.shrink_macro();
        if self.raw() == b')' {
            self.next_char();
            if self.raw() == b'*' {
                self.next_char();
            }
            return;
        }
        while self.raw() == b'|' && self.state != State::Eof {
            self.next_char();
            self.skip_blanks_dtd();
            if self.parse_name().is_none() {
                self.fatal(err::NAME_REQUIRED);
                return;
            }
            self.skip_blanks_dtd();
        }
        if self.raw() == b')' && self.nxt(1) == b'*' {
            self.skip(2);
        } else {
            self.fatal(err::MIXED_NOT_STARTED);
        }
    }

    /// `xmlParseElementChildrenContentDeclPriv`, after a `(`: content
    /// particles separated all by `,` or all by `|`, up to the `)` and its
    /// occurrence marker. False where libxml2 gives no tree; the error is
    /// raised where the fault is met.
    fn parse_element_children_content_decl(&mut self, depth: u32) -> bool {
        if depth > MAX_CONTENT_MODEL_DEPTH {
            self.fatal(err::ELEMCONTENT_NOT_FINISHED);
            return false;
        }
        self.skip_blanks_dtd();
        if !self.parse_content_particle(depth) {
            return false;
        }
        self.skip_blanks_dtd();
        self.shrink_macro();
        let mut separator = 0;
        while self.raw() != b')' && self.state != State::Eof {
            let c = self.raw();
            if c != b',' && c != b'|' {
                self.fatal(err::ELEMCONTENT_NOT_FINISHED);
                return false;
            }
            if separator == 0 {
                separator = c;
            } else if separator != c {
                self.fatal(err::SEPARATOR_REQUIRED);
                return false;
            }
            self.next_char();
            self.skip_blanks_dtd();
            if !self.parse_content_particle(depth) {
                return false;
            }
            self.skip_blanks_dtd();
        }
        self.next_char();
        if matches!(self.raw(), b'?' | b'*' | b'+') {
            self.next_char();
        }
        true
    }

    /// One `cp` of `xmlParseElementChildrenContentDeclPriv`: a nested group
    /// (parsed one level deeper) or a name with its occurrence marker.
    fn parse_content_particle(&mut self, depth: u32) -> bool {
        if self.raw() == b'(' {
            self.next_char();
            self.skip_blanks_dtd();
            if !self.parse_element_children_content_decl(depth + 1) {
                return false;
            }
            self.skip_blanks_dtd();
            return true;
        }
        if self.parse_name().is_none() {
            self.fatal(err::ELEMCONTENT_NOT_STARTED);
            return false;
        }
        if matches!(self.raw(), b'?' | b'*' | b'+') {
            self.next_char();
        }
        true
    }
}

/// The nesting of content-model groups libxml2 accepts without
/// `XML_PARSE_HUGE`.
const MAX_CONTENT_MODEL_DEPTH: u32 = 128;

/// `xmlAttrNormalizeSpace`.
fn normalize_space(v: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    while i < v.len() && v[i] == 0x20 {
        i += 1;
    }
    while i < v.len() {
        if v[i] == 0x20 {
            while i < v.len() && v[i] == 0x20 {
                i += 1;
            }
            if i < v.len() {
                out.push(0x20);
            }
        } else {
            out.push(v[i]);
            i += 1;
        }
    }
    out
}

/// Splits `p:l` (libxml2 `xmlSplitQName`-like).
fn split_qname(n: &[u8]) -> (Option<Vec<u8>>, Vec<u8>) {
    match n.iter().position(|&b| b == b':') {
        Some(i) if i > 0 && i + 1 < n.len() => (Some(n[..i].to_vec()), n[i + 1..].to_vec()),
        _ => (None, n.to_vec()),
    }
}

/// Position of `needle` in `hay`.
fn memchr_seq(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The names of a UTF-16 byte order that libxml2's own handlers
/// (`UTF-16LE`, `UTF-16BE`) or iconv (`UTF16LE`, `UTF16BE`) open.
fn own_utf16_name(upper: &[u8]) -> bool {
    matches!(upper, b"UTF-16LE" | b"UTF-16BE" | b"UTF16LE" | b"UTF16BE")
}

/// The byte order of ICU's `UTF-16LE`/`UTF-16BE` for a declared name only
/// ICU opens (`ucnv_compareNames` ignores case and punctuation): libxml2's
/// own handlers take `UTF-16LE`/`UTF-16BE` and iconv `UTF16LE`/`UTF16BE`.
fn icu_utf16_order(upper: &[u8]) -> Option<Order> {
    if own_utf16_name(upper) {
        return None;
    }
    let letters: Vec<u8> = upper
        .iter()
        .copied()
        .filter(u8::is_ascii_alphanumeric)
        .collect();
    match letters.as_slice() {
        // ICU's platform is little-endian here
        b"UTF16LE" | b"UTF16PLATFORMENDIAN" => Some(Order::Le),
        b"UTF16BE" | b"UTF16OPPOSITEENDIAN" => Some(Order::Be),
        _ => None,
    }
}

/// Whether a declared encoding name is ICU's `UTF-16` spelled otherwise
/// (`UTF_16`, compared without punctuation as `ucnv_compareNames` does):
/// under a UTF-16 guess it reads on as the guess does (ICU's BOM-sniffing
/// `UTF-16` converter is not modelled). Another name starting with
/// `UTF-16` opens nothing: "Unsupported encoding" (PHP:
/// `fixtures/php/utf16-decls/le-declares-utf-16l*`).
fn names_utf16(upper: &[u8]) -> bool {
    upper
        .iter()
        .filter(|b| b.is_ascii_alphanumeric())
        .eq(b"UTF16".iter())
}
