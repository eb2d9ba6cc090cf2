//! The parser object of PHP's xml extension: creation, options, parsing
//! with handlers, `xml_parse_into_struct()` and the error state.

use std::collections::HashMap;

use crate::core::Core;
use crate::decode::{TargetEncoding, xml_utf8_decode_into};
use crate::php::array::{Key, symtable_update};
use crate::php::errors::Error;
use crate::php::handler::{Handler, HandlerSet};
use crate::php::options::{OptionValue, XmlOption, c_int};
use crate::php::structure::{Builder, Struct, skip_tagstart};
use crate::sax::{Attribute, Installed, Sax};

/// An XML parser that behaves as PHP 8.2's `XMLParser` on libxml2:
/// the same handler calls, the same `xml_parse_into_struct()` arrays, the
/// same error codes and positions.
///
/// ```
/// use phpxml::{Parser, XmlOption, OptionValue, TargetEncoding};
///
/// let mut parser = Parser::new(Some("iso-8859-1")).unwrap();
/// assert_eq!(parser.target_encoding(), TargetEncoding::Iso8859_1);
/// assert!(parser.case_folding());
/// parser.set_option(XmlOption::SkipWhite, OptionValue::Int(1)).unwrap();
/// assert!(parser.skip_white());
/// assert!(Parser::new(Some("latin1")).is_err());
/// ```
#[derive(Debug)]
pub struct Parser {
    core: Core,
    options: Options,
    /// Set once `xml_parse_into_struct()` has run: its element and
    /// character-data trampolines stay installed for good.
    struct_installed: bool,
    builder: Builder,
}

/// What PHP keeps per parser, as PHP 8.2 keeps it (C `int`s).
#[derive(Clone, Copy, Debug)]
struct Options {
    target: TargetEncoding,
    case_folding: i32,
    skip_white: i32,
    /// Never negative.
    skip_tagstart: i32,
    /// `xml_parser_create_ns(..., "")`: libxml2 joins URI and local name
    /// with nothing between them.
    empty_separator: bool,
}

impl Options {
    fn skip(self) -> usize {
        usize::try_from(self.skip_tagstart).unwrap_or(0)
    }
}

/// `xml_parser_create()`'s encoding argument: the target encoding.
fn source_encoding(encoding: Option<&str>) -> Result<TargetEncoding, Error> {
    match encoding {
        None | Some("") => Ok(TargetEncoding::Utf8),
        Some(name) => TargetEncoding::from_php_name(name.as_bytes())
            .ok_or_else(|| Error::UnsupportedSourceEncoding(name.to_owned())),
    }
}

impl Parser {
    /// `xml_parser_create(encoding)`: `None` for no argument (UTF-8), `""`
    /// to let the document decide its encoding (the target is then UTF-8),
    /// or `ISO-8859-1`, `US-ASCII` or `UTF-8` in any ASCII case. With
    /// libxml2 this only chooses the target encoding: the input encoding
    /// always comes from the document.
    ///
    /// # Errors
    ///
    /// [`Error::UnsupportedSourceEncoding`] for any other name, where PHP
    /// throws a `ValueError`.
    pub fn new(encoding: Option<&str>) -> Result<Self, Error> {
        Self::create(encoding, None)
    }

    /// `xml_parser_create_ns(encoding, separator)`: a namespace-aware
    /// parser. Names of elements and attributes in a namespace are given as
    /// URI, the first byte of `separator`, local name; PHP's default
    /// separator is `":"`. An empty separator joins URI and local name
    /// directly.
    ///
    /// # Errors
    ///
    /// As [`Parser::new`].
    ///
    /// ```
    /// let parser = phpxml::Parser::new_ns(None, "@").unwrap();
    /// # let _ = parser;
    /// ```
    pub fn new_ns(encoding: Option<&str>, separator: &str) -> Result<Self, Error> {
        Self::create(encoding, Some(separator.as_bytes()))
    }

    fn create(encoding: Option<&str>, separator: Option<&[u8]>) -> Result<Self, Error> {
        let target = source_encoding(encoding)?;
        let core_separator = separator.map(|s| s.first().copied().unwrap_or(0));
        Ok(Self {
            core: Core::new(core_separator),
            options: Options {
                target,
                case_folding: 1,
                skip_white: 0,
                skip_tagstart: 0,
                empty_separator: separator.is_some_and(<[u8]>::is_empty),
            },
            struct_installed: false,
            builder: Builder::default(),
        })
    }

    /// `xml_parser_set_option()` with PHP 8.2's conversions: the integer
    /// options take PHP's `(int)` of a string and keep the low 32 bits of
    /// an integer (so `4294967296` turns case folding off); the target
    /// encoding takes a name (an integer is its decimal string).
    ///
    /// # Errors
    ///
    /// [`Error::UnsupportedTargetEncoding`] for an unknown encoding (the
    /// option is unchanged); [`Error::SkipTagstartOutOfRange`] for a skip
    /// that is negative as a C `int` (PHP then sets the option to 0).
    pub fn set_option(&mut self, option: XmlOption, value: OptionValue) -> Result<(), Error> {
        match option {
            XmlOption::CaseFolding => self.options.case_folding = c_int(value.to_int()),
            XmlOption::SkipWhite => self.options.skip_white = c_int(value.to_int()),
            XmlOption::SkipTagstart => {
                let given = value.to_int();
                let v = c_int(given);
                if v < 0 {
                    self.options.skip_tagstart = 0;
                    return Err(Error::SkipTagstartOutOfRange(given));
                }
                self.options.skip_tagstart = v;
            }
            XmlOption::TargetEncoding => {
                let name = match value {
                    OptionValue::Int(i) => i.to_string(),
                    OptionValue::Str(s) => s,
                };
                self.options.target = TargetEncoding::from_php_name(name.as_bytes())
                    .ok_or(Error::UnsupportedTargetEncoding(name))?;
            }
        }
        Ok(())
    }

    /// `xml_parser_get_option()`: integers for the integer options (PHP 8.2
    /// returns the stored `int`, not a boolean), the canonical name for the
    /// target encoding.
    #[must_use]
    pub fn get_option(&self, option: XmlOption) -> OptionValue {
        match option {
            XmlOption::CaseFolding => OptionValue::Int(self.options.case_folding.into()),
            XmlOption::SkipWhite => OptionValue::Int(self.options.skip_white.into()),
            XmlOption::SkipTagstart => OptionValue::Int(self.options.skip_tagstart.into()),
            XmlOption::TargetEncoding => {
                OptionValue::Str(self.options.target.php_name().to_owned())
            }
        }
    }

    /// Whether names are upper-cased (ASCII letters only). Default: `true`.
    #[must_use]
    pub fn case_folding(&self) -> bool {
        self.options.case_folding != 0
    }

    /// Turns case folding on or off.
    pub fn set_case_folding(&mut self, on: bool) {
        self.options.case_folding = i32::from(on);
    }

    /// Whether whitespace-only text is left out of `xml_parse_into_struct()`
    /// (space, tab and line feed; a carriage return counts as text).
    /// Default: `false`.
    #[must_use]
    pub fn skip_white(&self) -> bool {
        self.options.skip_white != 0
    }

    /// Turns whitespace skipping on or off.
    pub fn set_skip_white(&mut self, on: bool) {
        self.options.skip_white = i32::from(on);
    }

    /// How many bytes are cut from the start of element names (never from
    /// attribute names). Default: 0.
    #[must_use]
    pub fn skip_tagstart(&self) -> u32 {
        self.options.skip_tagstart.unsigned_abs()
    }

    /// Sets the number of bytes cut from element names.
    ///
    /// # Errors
    ///
    /// [`Error::SkipTagstartOutOfRange`] above `i32::MAX`; as in PHP the
    /// option is then 0.
    pub fn set_skip_tagstart(&mut self, bytes: u32) -> Result<(), Error> {
        self.set_option(XmlOption::SkipTagstart, OptionValue::Int(bytes.into()))
    }

    /// The encoding strings are given in. Default: the creation encoding.
    #[must_use]
    pub fn target_encoding(&self) -> TargetEncoding {
        self.options.target
    }

    /// Sets the encoding strings are given in.
    pub fn set_target_encoding(&mut self, target: TargetEncoding) {
        self.options.target = target;
    }

    /// `xml_parse(parser, chunk, is_final)`: feeds one chunk and calls
    /// `handler` as PHP calls its handlers. Returns PHP's 1 as `true`, 0 as
    /// `false` (the document is malformed; see [`Parser::error_code`]). A
    /// chunk that ends in the middle of something is fine until `is_final`.
    ///
    /// After [`parse_into_struct`](Parser::parse_into_struct) PHP keeps the
    /// arrays bound to the parser and goes on filling them (and counting
    /// index positions) on every later `xml_parse()`; so does this parser,
    /// out of sight, until the next `parse_into_struct`, whose index
    /// positions therefore continue from there as in PHP.
    pub fn parse<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        chunk: &[u8],
        is_final: bool,
    ) -> bool {
        if !self.struct_installed {
            return self.run(handler, None, chunk, is_final);
        }
        let mut builder = std::mem::take(&mut self.builder);
        let ok = self.run(handler, Some(&mut builder), chunk, is_final);
        self.builder = builder;
        ok
    }

    /// `xml_parse_into_struct(parser, data, values, index)` with no
    /// handlers set: parses `data` as the final chunk and builds PHP's
    /// arrays. Afterwards the parser behaves as one with element and
    /// character-data handlers set, as in PHP.
    ///
    /// Differences from PHP: the index array is always built (as when PHP
    /// is given `$index`), and later [`parse`](Parser::parse) calls do not
    /// keep appending to the arrays returned here.
    pub fn parse_into_struct(&mut self, data: &[u8]) -> Struct {
        self.parse_into_struct_with(&mut (), data)
    }

    /// `xml_parse_into_struct()` on a parser with handlers set: each
    /// handler is called before the arrays are updated.
    pub fn parse_into_struct_with<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        data: &[u8],
    ) -> Struct {
        self.struct_installed = true;
        let mut builder = std::mem::take(&mut self.builder);
        builder.begin();
        let ok = self.run(handler, Some(&mut builder), data, true);
        let result = builder.finish(ok);
        self.builder = builder;
        result
    }

    fn run<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        builder: Option<&mut Builder>,
        chunk: &[u8],
        is_final: bool,
    ) -> bool {
        self.drive(handler, builder, |core, adapter, installed| {
            core.parse(adapter, installed, chunk, is_final)
        })
    }

    /// Runs `feed` (normally the core) with the Sax sink that plays
    /// `ext/xml/xml.c` for `handler` and, if given, the struct builder.
    fn drive<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        builder: Option<&mut Builder>,
        feed: impl FnOnce(&mut Core, &mut Adapter<'_, H>, Installed) -> bool,
    ) -> bool {
        let set = handler.installed();
        let mut installed = set;
        if self.struct_installed {
            installed = installed.union(HandlerSet {
                element: true,
                character_data: true,
                ..HandlerSet::NONE
            });
        }
        let mut adapter = Adapter {
            options: self.options,
            set,
            handler,
            builder,
            name: Vec::new(),
            text: Vec::new(),
            scratch: Vec::new(),
        };
        feed(&mut self.core, &mut adapter, installed.to_installed())
    }

    /// Test support: plays hand-made Sax events through PHP's layer as
    /// `xml_parse()` (or, with `into_struct`, `xml_parse_into_struct()`)
    /// would, instead of the core.
    #[cfg(test)]
    pub(crate) fn replay<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        into_struct: bool,
        events: impl FnOnce(&mut dyn Sax),
    ) -> Option<Struct> {
        if !into_struct {
            self.drive(handler, None, |_, adapter, _| {
                events(adapter);
                true
            });
            return None;
        }
        self.struct_installed = true;
        let mut builder = std::mem::take(&mut self.builder);
        builder.begin();
        self.drive(handler, Some(&mut builder), |_, adapter, _| {
            events(adapter);
            true
        });
        let result = builder.finish(true);
        self.builder = builder;
        Some(result)
    }

    /// `xml_get_error_code()`: libxml2's error number (0 for none, 21 when
    /// an external-entity-reference handler refused).
    #[must_use]
    pub fn error_code(&self) -> i32 {
        self.core.error_code()
    }

    /// `xml_get_current_line_number()` (1-based).
    #[must_use]
    pub fn line(&self) -> u64 {
        self.core.line()
    }

    /// `xml_get_current_column_number()` (1-based, as libxml2 counts).
    #[must_use]
    pub fn column(&self) -> u64 {
        self.core.column()
    }

    /// `xml_get_current_byte_index()`.
    #[must_use]
    pub fn byte_index(&self) -> i64 {
        self.core.byte_index()
    }
}

/// The [`Sax`] sink: plays `ext/xml/xml.c`'s `_xml_*_handler` functions.
pub(crate) struct Adapter<'a, H: ?Sized> {
    options: Options,
    /// The handlers the user's handler has set.
    set: HandlerSet,
    handler: &'a mut H,
    builder: Option<&'a mut Builder>,
    name: Vec<u8>,
    text: Vec<u8>,
    scratch: Vec<u8>,
}

/// `xml_utf8_decode()` into a cleared buffer.
fn decode_to(out: &mut Vec<u8>, s: &[u8], target: TargetEncoding) {
    out.clear();
    xml_utf8_decode_into(s, target, out);
}

impl<H: Handler + ?Sized> Adapter<'_, H> {
    /// `_xml_decode_tag()`: decode to the target, then fold ASCII letters.
    fn decode_tag(&mut self, raw: &[u8], out_is_name: bool) -> Vec<u8> {
        let mut out = if out_is_name {
            std::mem::take(&mut self.name)
        } else {
            Vec::new()
        };
        out.clear();
        if self.options.empty_separator && raw.contains(&0) {
            self.scratch.clear();
            self.scratch.extend(raw.iter().copied().filter(|&b| b != 0));
            xml_utf8_decode_into(&self.scratch, self.options.target, &mut out);
        } else {
            xml_utf8_decode_into(raw, self.options.target, &mut out);
        }
        if self.options.case_folding != 0 {
            out.make_ascii_uppercase();
        }
        out
    }

    fn attribute_array(&mut self, attributes: &[Attribute<'_>]) -> Vec<(Key, Vec<u8>)> {
        let mut array = Vec::with_capacity(attributes.len());
        // positions of the keys, for long lists (a hash table in PHP)
        let mut slots: HashMap<Key, usize> = HashMap::new();
        for &(name, value) in attributes {
            let key = self.decode_tag(name, false);
            let mut v = Vec::with_capacity(value.len());
            xml_utf8_decode_into(value, self.options.target, &mut v);
            if attributes.len() < 16 {
                symtable_update(&mut array, &key, v);
                continue;
            }
            let key = Key::from_php_string(&key);
            match slots.get(&key) {
                Some(&slot) => array[slot].1 = v,
                None => {
                    slots.insert(key.clone(), array.len());
                    array.push((key, v));
                }
            }
        }
        array
    }

    fn opt(&mut self, s: Option<&[u8]>) -> Option<Vec<u8>> {
        s.map(|s| {
            let mut v = Vec::with_capacity(s.len());
            xml_utf8_decode_into(s, self.options.target, &mut v);
            v
        })
    }
}

impl<H: Handler + ?Sized> Sax for Adapter<'_, H> {
    fn start_element(&mut self, name: &[u8], attributes: &[Attribute<'_>]) {
        let tag = self.decode_tag(name, true);
        let skip = self.options.skip();
        let mut array = None;
        if self.set.element {
            let a = self.attribute_array(attributes);
            self.handler.start_element(skip_tagstart(&tag, skip), &a);
            array = Some(a);
        }
        if let Some(builder) = self.builder.take() {
            builder.start(&tag, skip, || {
                array.unwrap_or_else(|| self.attribute_array(attributes))
            });
            self.builder = Some(builder);
        }
        self.name = tag;
    }

    fn end_element(&mut self, name: &[u8]) {
        let tag = self.decode_tag(name, true);
        let skip = self.options.skip();
        if self.set.element {
            self.handler.end_element(skip_tagstart(&tag, skip));
        }
        if let Some(builder) = self.builder.as_deref_mut() {
            builder.end(&tag, skip);
        }
        self.name = tag;
    }

    fn character_data(&mut self, data: &[u8]) {
        decode_to(&mut self.text, data, self.options.target);
        if self.set.character_data {
            self.handler.character_data(&self.text);
        }
        if let Some(builder) = self.builder.as_deref_mut() {
            builder.cdata(
                &self.text,
                self.options.skip(),
                self.options.skip_white != 0,
            );
        }
    }

    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        if !self.set.processing_instruction {
            return;
        }
        decode_to(&mut self.text, target, self.options.target);
        let data = self.opt(data);
        self.handler
            .processing_instruction(&self.text, data.as_deref());
    }

    fn default(&mut self, data: &[u8]) {
        if !self.set.default {
            return;
        }
        decode_to(&mut self.text, data, self.options.target);
        self.handler.default_data(&self.text);
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        if !self.set.unparsed_entity_decl {
            return;
        }
        decode_to(&mut self.text, name, self.options.target);
        let (system_id, public_id, notation) =
            (self.opt(system_id), self.opt(public_id), self.opt(notation));
        self.handler.unparsed_entity_decl(
            &self.text,
            None,
            system_id.as_deref(),
            public_id.as_deref(),
            notation.as_deref(),
        );
    }

    fn notation_decl(&mut self, name: &[u8], system_id: Option<&[u8]>, public_id: Option<&[u8]>) {
        if !self.set.notation_decl {
            return;
        }
        decode_to(&mut self.text, name, self.options.target);
        let (system_id, public_id) = (self.opt(system_id), self.opt(public_id));
        self.handler
            .notation_decl(&self.text, None, system_id.as_deref(), public_id.as_deref());
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        // PHP aborts when no handler is set.
        if !self.set.external_entity_ref {
            return false;
        }
        decode_to(&mut self.text, open_entity_names, self.options.target);
        let (system_id, public_id) = (self.opt(system_id), self.opt(public_id));
        self.handler.external_entity_ref(
            &self.text,
            Some(b""),
            system_id.as_deref(),
            public_id.as_deref(),
        )
    }

    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        if !self.set.start_namespace_decl {
            return;
        }
        let prefix = self.opt(prefix);
        decode_to(&mut self.text, uri, self.options.target);
        self.handler
            .start_namespace_decl(prefix.as_deref(), &self.text);
    }
}
