//! The parser object of PHP's xml extension: creation, options, parsing
//! with handlers, `xml_parse_into_struct()` and the error state.

use crate::decode::TargetEncoding;
use crate::libxml::Core;
use crate::libxml::keyset::{KeySet, MANY};
use crate::php::array::{Key, key_int};
use crate::php::errors::{Error, ParseError};
use crate::php::handler::{Handler, HandlerSet};
use crate::php::options::{OptionValue, XmlOption, c_int};
use crate::php::structure::{Builder, Struct, StructData, skip_tagstart};
use crate::php::utf8::Utf8Buffers;
use crate::sax::{Attribute, HeldAttributes, NameList, Sax};

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
    core: Core<'static>,
    options: Options,
    /// Worked out from `options` whenever they change.
    coding: Coding,
    /// Set once `xml_parse_into_struct()` has run: its element and
    /// character-data trampolines stay installed for good.
    struct_installed: bool,
    builder: Builder,
    /// Buffers the handler calls reuse from one call to the next.
    buffers: Buffers,
    /// The buffers of [`Parser::feed_utf8`]'s handler calls.
    utf8_buffers: Utf8Buffers,
}

/// The [`Adapter`]'s working buffers, kept by the parser between
/// `xml_parse()` calls so that their allocations are reused.
#[derive(Debug, Default)]
struct Buffers {
    names: OpenNames,
    text: Vec<u8>,
    scratch: Vec<u8>,
    /// The optional strings of a handler call (PHP's `false` or a string).
    optional: [Vec<u8>; 3],
    /// The keys of the attribute array being filled.
    keys: KeySet,
    /// Attribute arrays, one chosen by the element's name: elements of
    /// a few kinds in turn each find their keys again.
    attributes: [AttributeSlots; 8],
}

/// An attribute array's reused slots.
#[derive(Debug, Default)]
struct AttributeSlots {
    array: Vec<(Key, Vec<u8>)>,
    /// For each slot, the short raw name its key was decoded from, with
    /// the key's class: the same name again keeps the key. Made under the
    /// same [`NameKey`] as the open names.
    raw_names: Vec<Option<(ShortName, u64)>>,
    /// How many of the first slots hold the keys the last array made
    /// through the duplicate check kept (distinct, each decoded from the
    /// name in its `raw_names`): a list of as many names or fewer, equal
    /// to those, gives those keys and needs no duplicate check.
    distinct: usize,
    /// The core's list of names those `distinct` keys were made from, one
    /// key a name: a tag given the same list has those names, so those
    /// keys.
    listed: Option<NameList>,
}

impl Buffers {
    /// Keeps what was decoded if it was decoded under `key`.
    #[inline]
    fn keep_if(&mut self, key: Option<NameKey>) {
        if self.names.key != key || key.is_none() {
            self.drop_decoded(key);
        }
    }

    /// Drops what was decoded; what comes next is decoded under `key`.
    #[cold]
    fn drop_decoded(&mut self, key: Option<NameKey>) {
        self.names.restart(key);
        for slots in &mut self.attributes {
            slots.raw_names.clear();
            slots.distinct = 0;
            slots.listed = None;
        }
    }
}

/// Which of the [`Buffers`]' attribute arrays an element named `tag` uses
/// (and which of the struct builder's memos of attribute keys).
#[inline]
pub(crate) fn attribute_bank(tag: &[u8]) -> usize {
    (tag.len() ^ tag.last().map_or(0, |&b| usize::from(b))) & 7
}

/// The decoded names of the open elements, innermost last: an end tag
/// takes its name from here instead of decoding it again as PHP does.
///
/// This relies on the core's pairing: an end event names the innermost
/// element whose start event was given and that has not ended, because
/// both come from the same entry of its stack of open tags, and a fatal
/// error stops all later events for good (names left open then are never
/// asked for). That holds while every start and end reaches the adapter
/// and the names are decoded the same way, so the stack starts afresh
/// whenever a parse call's [`NameKey`] differs from the last one. An end
/// with no name left (its start came before) is decoded.
#[derive(Debug, Default)]
struct OpenNames {
    bytes: Vec<u8>,
    starts: Vec<usize>,
    key: Option<NameKey>,
}

/// What decides which names an [`OpenNames`] stack holds and how they are
/// decoded: the target, case folding, the empty separator, and whether
/// element events reach the adapter (otherwise the core's open tags
/// change unseen). One byte, compared on every parse call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NameKey(u8);

impl NameKey {
    fn new(options: Options, element: bool) -> Self {
        let target = match options.target {
            TargetEncoding::Iso8859_1 => 0,
            TargetEncoding::UsAscii => 1,
            TargetEncoding::Utf8 => 2,
        };
        Self(
            target
                | u8::from(options.case_folding != 0) << 2
                | u8::from(options.empty_separator) << 3
                | u8::from(element) << 4,
        )
    }
}

impl OpenNames {
    /// The name of an end whose start is not on the stack, decoded onto
    /// it: returns where it starts.
    #[cold]
    #[inline(never)]
    fn push_unpaired(&mut self, coding: &Coding, raw: &[u8], scratch: &mut Vec<u8>) -> usize {
        let at = self.bytes.len();
        decode_tag_append(coding, raw, &mut self.bytes, scratch);
        at
    }

    /// Empties the stack; its names are made under `key` from now on.
    fn restart(&mut self, key: Option<NameKey>) {
        self.bytes.clear();
        self.starts.clear();
        self.key = key;
    }
}

/// What PHP keeps per parser, as PHP 8.2 keeps it (C `int`s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    ///
    /// ```
    /// use phpxml::{Error, Parser, TargetEncoding};
    ///
    /// assert_eq!(Parser::new(None)?.target_encoding(), TargetEncoding::Utf8);
    /// assert_eq!(Parser::new(Some("us-ascii"))?.target_encoding(), TargetEncoding::UsAscii);
    /// assert!(matches!(Parser::new(Some("latin1")), Err(Error::UnsupportedSourceEncoding(_))));
    /// # Ok::<(), Error>(())
    /// ```
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
        let options = Options {
            target,
            case_folding: 1,
            skip_white: 0,
            skip_tagstart: 0,
            empty_separator: separator.is_some_and(<[u8]>::is_empty),
        };
        Ok(Self {
            core: Core::new(core_separator),
            options,
            coding: Coding::new(options),
            struct_installed: false,
            builder: Builder::default(),
            buffers: Buffers::default(),
            utf8_buffers: Utf8Buffers::default(),
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
    ///
    /// ```
    /// use phpxml::{OptionValue, Parser, XmlOption};
    ///
    /// let mut parser = Parser::new(None)?;
    /// parser.set_option(XmlOption::CaseFolding, "0".into())?;
    /// assert!(!parser.case_folding());
    /// parser.set_option(XmlOption::CaseFolding, OptionValue::Int(4_294_967_296))?; // low 32 bits: 0
    /// assert_eq!(parser.get_option(XmlOption::CaseFolding), OptionValue::Int(0));
    /// parser.set_option(XmlOption::TargetEncoding, "us-ascii".into())?;
    /// assert_eq!(parser.get_option(XmlOption::TargetEncoding), OptionValue::Str("US-ASCII".into()));
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    pub fn set_option(&mut self, option: XmlOption, value: OptionValue) -> Result<(), Error> {
        match option {
            XmlOption::CaseFolding => {
                let v = c_int(value.to_int());
                self.change_options(|o| o.case_folding = v);
            }
            XmlOption::SkipWhite => {
                let v = c_int(value.to_int());
                self.change_options(|o| o.skip_white = v);
            }
            XmlOption::SkipTagstart => {
                let given = value.to_int();
                let v = c_int(given);
                self.change_options(|o| o.skip_tagstart = v.max(0));
                if v < 0 {
                    return Err(Error::SkipTagstartOutOfRange(given));
                }
            }
            // PHP 8.4 refuses it while xml_parse() runs ("Cannot change
            // option XML_OPTION_PARSE_HUGE while parsing"): handlers hold no
            // parser here, so it is set between calls, for the next chunk.
            XmlOption::ParseHuge => self.core.set_huge(value.is_true()),
            XmlOption::TargetEncoding => {
                let name = match value {
                    OptionValue::Int(i) => i.to_string(),
                    OptionValue::Bool(b) => if b { "1" } else { "" }.to_owned(),
                    OptionValue::Str(s) => s,
                };
                let target = TargetEncoding::from_php_name(name.as_bytes())
                    .ok_or(Error::UnsupportedTargetEncoding(name))?;
                self.change_options(|o| o.target = target);
            }
        }
        Ok(())
    }

    /// `xml_parser_get_option()`: integers for the integer options (PHP 8.2
    /// returns the stored `int`, not a boolean), the canonical name for the
    /// target encoding.
    ///
    /// ```
    /// use phpxml::{OptionValue, Parser, XmlOption};
    ///
    /// let parser = Parser::new(Some("ISO-8859-1"))?;
    /// assert_eq!(parser.get_option(XmlOption::CaseFolding), OptionValue::Int(1));
    /// assert_eq!(parser.get_option(XmlOption::TargetEncoding), OptionValue::Str("ISO-8859-1".into()));
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    #[must_use]
    pub fn get_option(&self, option: XmlOption) -> OptionValue {
        match option {
            XmlOption::CaseFolding => OptionValue::Int(self.options.case_folding.into()),
            XmlOption::SkipWhite => OptionValue::Int(self.options.skip_white.into()),
            XmlOption::SkipTagstart => OptionValue::Int(self.options.skip_tagstart.into()),
            XmlOption::ParseHuge => OptionValue::Bool(self.core.huge()),
            XmlOption::TargetEncoding => {
                OptionValue::Str(self.options.target.php_name().to_owned())
            }
        }
    }

    /// Whether libxml2's `XML_PARSE_HUGE` is on (PHP 8.4's
    /// `XML_OPTION_PARSE_HUGE`, see [`XmlOption::ParseHuge`]). Default:
    /// `false`.
    #[must_use]
    pub fn parse_huge(&self) -> bool {
        self.core.huge()
    }

    /// Turns `XML_PARSE_HUGE` on or off; between chunks it applies from the
    /// next one on, as in PHP 8.4.
    ///
    /// ```
    /// let mut long_name = b"<".to_vec();
    /// long_name.extend(std::iter::repeat_n(b'n', 50_001));
    /// long_name.extend_from_slice(b"/>");
    /// let mut parser = phpxml::Parser::new(None)?;
    /// assert!(!parser.parse_into_struct(&long_name).ok);
    /// let mut parser = phpxml::Parser::new(None)?;
    /// parser.set_parse_huge(true);
    /// assert!(parser.parse_into_struct(&long_name).ok);
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    pub fn set_parse_huge(&mut self, on: bool) {
        self.core.set_huge(on);
    }

    /// Whether names are upper-cased (ASCII letters only). Default: `true`.
    #[must_use]
    pub fn case_folding(&self) -> bool {
        self.options.case_folding != 0
    }

    /// Turns case folding on or off.
    ///
    /// ```
    /// let mut parser = phpxml::Parser::new(None)?;
    /// parser.set_case_folding(false);
    /// let result = parser.parse_into_struct(b"<Doc/>");
    /// assert_eq!(result.values[0].tag, b"Doc");
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    pub fn set_case_folding(&mut self, on: bool) {
        self.change_options(|o| o.case_folding = i32::from(on));
    }

    /// Whether whitespace-only text is left out of `xml_parse_into_struct()`
    /// (space, tab and line feed; a carriage return counts as text).
    /// Default: `false`.
    #[must_use]
    pub fn skip_white(&self) -> bool {
        self.options.skip_white != 0
    }

    /// Turns whitespace skipping on or off.
    ///
    /// ```
    /// let mut parser = phpxml::Parser::new(None)?;
    /// parser.set_skip_white(true);
    /// let result = parser.parse_into_struct(b"<doc>\n <item>1</item>\n</doc>");
    /// assert_eq!(result.values.len(), 3); // no cdata entries for the line breaks
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    pub fn set_skip_white(&mut self, on: bool) {
        self.change_options(|o| o.skip_white = i32::from(on));
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
    ///
    /// ```
    /// let mut parser = phpxml::Parser::new(None)?;
    /// parser.set_skip_tagstart(2)?;
    /// let result = parser.parse_into_struct(b"<x:doc><x:item>1</x:item></x:doc>");
    /// assert_eq!(result.values[1].tag, b"ITEM");
    /// assert_eq!(result.index[0].0, b"DOC");
    /// assert!(parser.set_skip_tagstart(u32::MAX).is_err());
    /// assert_eq!(parser.skip_tagstart(), 0);
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    pub fn set_skip_tagstart(&mut self, bytes: u32) -> Result<(), Error> {
        self.set_option(XmlOption::SkipTagstart, OptionValue::Int(bytes.into()))
    }

    /// The encoding strings are given in. Default: the creation encoding.
    #[must_use]
    pub fn target_encoding(&self) -> TargetEncoding {
        self.options.target
    }

    /// Sets the encoding strings are given in
    /// (`XML_OPTION_TARGET_ENCODING`).
    ///
    /// ```
    /// use phpxml::{Parser, TargetEncoding};
    ///
    /// let mut parser = Parser::new(None)?;
    /// parser.set_target_encoding(TargetEncoding::Iso8859_1);
    /// let result = parser.parse_into_struct("<a>é€</a>".as_bytes());
    /// assert_eq!(result.values[0].value.as_deref(), Some(&b"\xE9?"[..]));
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    pub fn set_target_encoding(&mut self, target: TargetEncoding) {
        self.change_options(|o| o.target = target);
    }

    /// Changes the options and what the adapter works out from them (once
    /// here, not on every parse call).
    fn change_options(&mut self, change: impl FnOnce(&mut Options)) {
        change(&mut self.options);
        self.coding = Coding::new(self.options);
    }

    /// `xml_parse(parser, chunk, is_final)`: feeds one chunk and calls
    /// `handler` as PHP calls its handlers. Returns PHP's 1 as `true`, 0 as
    /// `false` (the document is malformed; see [`Parser::error_code`]). A
    /// chunk that ends in the middle of something is fine until `is_final`.
    ///
    /// A chunk is copied into the parser's buffer, as libxml2 copies it,
    /// except a final one on a parser with nothing buffered whose input
    /// needs no conversion (a whole UTF-8 document parsed in one call):
    /// that one is read where it lies.
    ///
    /// After [`parse_into_struct`](Parser::parse_into_struct) PHP keeps the
    /// arrays bound to the parser and goes on filling them (and counting
    /// index positions) on every later `xml_parse()`; so does this parser,
    /// out of sight, until the next `parse_into_struct`, whose index
    /// positions therefore continue from there as in PHP.
    ///
    /// ```
    /// use phpxml::{Handler, Parser};
    ///
    /// #[derive(Default)]
    /// struct Text(Vec<Vec<u8>>);
    /// impl Handler for Text {
    ///     fn character_data(&mut self, data: &[u8]) {
    ///         self.0.push(data.to_vec());
    ///     }
    /// }
    ///
    /// let mut parser = Parser::new(None)?;
    /// let mut text = Text::default();
    /// // A chunk may end anywhere, even inside a character.
    /// assert!(parser.parse(&mut text, b"<a>caf\xC3", false));
    /// assert!(parser.parse(&mut text, b"\xA9</a>", true));
    /// assert_eq!(text.0, [&b"caf"[..], "é".as_bytes()]); // the pieces PHP's handler gets
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    #[inline]
    #[must_use = "`false` means the document is malformed (see `Parser::last_error`); `Parser::feed` returns a `Result`"]
    pub fn parse<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        chunk: &[u8],
        is_final: bool,
    ) -> bool {
        // A byte the core only has to append needs no handler set-up.
        if !is_final
            && let [b] = *chunk
            && let Some(ok) = self.core.idle_byte(b)
        {
            return ok;
        }
        self.parse_chunk(handler, chunk, is_final)
    }

    /// [`parse`](Self::parse) when the core has work to do (kept out of
    /// line so that the one-byte path above stays small).
    #[inline(never)]
    fn parse_chunk<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        chunk: &[u8],
        is_final: bool,
    ) -> bool {
        // One call of the core, in line: a second layer of calls cost each
        // byte-by-byte call that reaches the core about 20 instructions.
        self.drive_bound(handler, |core, adapter, installed| {
            if is_final {
                core.parse_final_borrowed(adapter, installed, chunk)
            } else {
                core.parse(adapter, installed, chunk, is_final)
            }
        })
    }

    /// [`drive`](Self::drive) with the arrays of an earlier
    /// [`parse_into_struct`](Self::parse_into_struct) bound, if any: PHP
    /// goes on filling them on every later `xml_parse()`.
    #[inline(always)]
    fn drive_bound<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        feed: impl FnOnce(&mut Core<'static>, &mut Adapter<'_, H>, HandlerSet) -> bool,
    ) -> bool {
        let mut builder = self
            .struct_installed
            .then(|| std::mem::take(&mut self.builder));
        let ok = self.drive(handler, builder.as_mut(), feed);
        if let Some(builder) = builder {
            self.builder = builder;
        }
        ok
    }

    /// [`parse`](Self::parse) of a last chunk the caller gives away, as a
    /// document read whole into a `Vec` is: `xml_parse($parser, $data,
    /// true)`. When nothing is buffered from earlier calls, the chunk
    /// becomes the parser's input buffer instead of being copied into it
    /// (a byte order mark or an encoding declared in the document is
    /// found there as it would be in a copy); otherwise it is copied, as
    /// `parse` copies. The handler calls and the result are those of
    /// `parse(handler, &chunk, true)`, which reads such a chunk where it
    /// lies too: this form is for a caller that has a `Vec` to give.
    ///
    /// ```
    /// use phpxml::{Handler, Key, Parser};
    ///
    /// #[derive(Default)]
    /// struct Names(Vec<Vec<u8>>);
    /// impl Handler for Names {
    ///     fn start_element(&mut self, name: &[u8], _: &[(Key, Vec<u8>)]) {
    ///         self.0.push(name.to_vec());
    ///     }
    /// }
    ///
    /// let document: Vec<u8> = b"<feed><entry/></feed>".to_vec(); // e.g. from `std::fs::read`
    /// let mut names = Names::default();
    /// assert!(Parser::new(None)?.parse_owned(&mut names, document));
    /// assert_eq!(names.0, [&b"FEED"[..], b"ENTRY"]);
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    #[must_use = "`false` means the document is malformed (see `Parser::last_error`); `Parser::feed_owned` returns a `Result`"]
    pub fn parse_owned<H: Handler + ?Sized>(&mut self, handler: &mut H, chunk: Vec<u8>) -> bool {
        self.drive_bound(handler, |core, adapter, installed| {
            core.parse_final_owned(adapter, installed, chunk)
        })
    }

    /// [`parse_owned`](Self::parse_owned) shaped for Rust, as
    /// [`feed`](Self::feed) is [`parse`](Self::parse).
    ///
    /// # Errors
    ///
    /// [`ParseError`] when `xml_parse()` would return 0.
    pub fn feed_owned<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        chunk: Vec<u8>,
    ) -> Result<(), ParseError> {
        if self.parse_owned(handler, chunk) {
            Ok(())
        } else {
            Err(self.parse_error())
        }
    }

    /// [`parse`](Self::parse) shaped for Rust: `Ok(())` while the document
    /// is well-formed so far, otherwise the error with its position
    /// ([`Parser::last_error`]).
    ///
    /// # Errors
    ///
    /// [`ParseError`] when `xml_parse()` would return 0.
    ///
    /// ```
    /// use phpxml::{ErrorCode, Parser};
    ///
    /// let mut parser = Parser::new(None)?;
    /// parser.feed(&mut (), b"<doc>", false)?;
    /// let error = parser.feed(&mut (), b"</dog>", true).unwrap_err();
    /// assert_eq!(error.error_code(), Some(ErrorCode::TagNameMismatch));
    /// assert_eq!((error.line, error.column), (1, 12));
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    pub fn feed<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        chunk: &[u8],
        is_final: bool,
    ) -> Result<(), ParseError> {
        if self.parse(handler, chunk, is_final) {
            Ok(())
        } else {
            Err(self.parse_error())
        }
    }

    /// [`parse_into_struct`](Self::parse_into_struct) shaped for Rust: the
    /// arrays of a well-formed document, or the error (the arrays built up
    /// to it are dropped; `parse_into_struct` keeps them, as PHP does).
    ///
    /// # Errors
    ///
    /// [`ParseError`] when `xml_parse_into_struct()` would return 0.
    ///
    /// ```
    /// let mut parser = phpxml::Parser::new(None)?;
    /// let result = parser.parse_struct(b"<r><i>1</i></r>")?;
    /// assert_eq!(result.values[1].value.as_deref(), Some(&b"1"[..]));
    /// assert!(phpxml::Parser::new(None)?.parse_struct(b"<r>").is_err());
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    pub fn parse_struct(&mut self, data: &[u8]) -> Result<Struct, ParseError> {
        let result = self.parse_into_struct(data);
        if result.ok {
            Ok(result)
        } else {
            Err(self.parse_error())
        }
    }

    /// The buffers of [`feed_utf8`](Self::feed_utf8)'s handler calls, for
    /// a call to use and give back.
    pub(crate) fn take_utf8_buffers(&mut self) -> Utf8Buffers {
        std::mem::take(&mut self.utf8_buffers)
    }

    /// Keeps the buffers for the next call.
    pub(crate) fn keep_utf8_buffers(&mut self, buffers: Utf8Buffers) {
        self.utf8_buffers = buffers;
    }

    /// The error state after a parse call that returned `false`.
    fn parse_error(&self) -> ParseError {
        ParseError {
            code: self.error_code(),
            line: self.line(),
            column: self.column(),
            byte_index: self.byte_index(),
        }
    }

    /// `xml_parse_into_struct(parser, data, values, index)` with no
    /// handlers set: parses `data` as the final chunk and builds PHP's
    /// arrays. Afterwards the parser behaves as one with element and
    /// character-data handlers set, as in PHP.
    ///
    /// Differences from PHP: the index array is always built (as when PHP
    /// is given `$index`), and later [`parse`](Parser::parse) calls do not
    /// keep appending to the arrays returned here.
    ///
    /// ```
    /// use phpxml::{EntryType, Parser};
    ///
    /// let mut parser = Parser::new(None)?;
    /// let result = parser.parse_into_struct(b"<r><i/></r>");
    /// let kinds: Vec<EntryType> = result.values.iter().map(|e| e.kind).collect();
    /// assert_eq!(kinds, [EntryType::Open, EntryType::Complete, EntryType::Close]);
    ///
    /// // A malformed document: what was built up to the error, and `ok` false.
    /// let result = Parser::new(None)?.parse_into_struct(b"<r><i></r>");
    /// assert!(!result.ok);
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    #[must_use = "the arrays and whether the document was well-formed (`Struct::ok`)"]
    pub fn parse_into_struct(&mut self, data: &[u8]) -> Struct {
        self.parse_into_struct_with(&mut (), data)
    }

    /// [`parse_into_struct`](Self::parse_into_struct) of a document the
    /// caller gives away, as a document read whole into a `Vec` is: it
    /// becomes the parser's input buffer instead of being copied into it,
    /// as in [`parse_owned`](Self::parse_owned). The same arrays.
    ///
    /// ```
    /// let document: Vec<u8> = b"<r><i>1</i></r>".to_vec(); // e.g. from `std::fs::read`
    /// let result = phpxml::Parser::new(None)?.parse_into_struct_owned(document);
    /// assert!(result.ok);
    /// assert_eq!(result.values[1].value.as_deref(), Some(&b"1"[..]));
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    #[must_use = "the arrays and whether the document was well-formed (`Struct::ok`)"]
    pub fn parse_into_struct_owned(&mut self, data: Vec<u8>) -> Struct {
        self.struct_installed = true;
        let mut builder = std::mem::take(&mut self.builder);
        builder.begin(&data, false);
        let ok = self.drive(&mut (), Some(&mut builder), |core, adapter, installed| {
            core.parse_final_owned(adapter, installed, data)
        });
        let result = builder.finish(ok);
        self.builder = builder;
        result
    }

    /// `xml_parse_into_struct()` on a parser with handlers set: each
    /// handler is called before the arrays are updated.
    ///
    /// ```
    /// use phpxml::{Handler, Key, Parser};
    ///
    /// #[derive(Default)]
    /// struct Starts(Vec<Vec<u8>>);
    /// impl Handler for Starts {
    ///     fn start_element(&mut self, name: &[u8], _: &[(Key, Vec<u8>)]) {
    ///         self.0.push(name.to_vec());
    ///     }
    /// }
    ///
    /// let mut starts = Starts::default();
    /// let result = Parser::new(None)?.parse_into_struct_with(&mut starts, b"<r><i/></r>");
    /// assert_eq!(starts.0, [b"R", b"I"]);
    /// assert_eq!(result.values.len(), 3);
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    #[must_use = "the arrays and whether the document was well-formed (`Struct::ok`)"]
    pub fn parse_into_struct_with<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        data: &[u8],
    ) -> Struct {
        self.struct_installed = true;
        let mut builder = std::mem::take(&mut self.builder);
        builder.begin(data, false);
        let ok = self.drive(handler, Some(&mut builder), |core, adapter, installed| {
            core.parse_final_borrowed(adapter, installed, data)
        });
        let result = builder.finish(ok);
        self.builder = builder;
        result
    }

    /// [`parse_into_struct`](Self::parse_into_struct) of a document the
    /// parser may keep as its input buffer, giving the arrays packed (what
    /// the `phpxml` command prints from).
    pub(crate) fn parse_into_struct_data(&mut self, data: Vec<u8>) -> StructData {
        self.parse_into_struct_data_with(data, false)
    }

    /// [`parse_into_struct_data`](Self::parse_into_struct_data) for a
    /// JSON encoding that fails whole on one malformed string: once a
    /// finished string is known not to be UTF-8, later strings are not
    /// decoded or kept (the result then serves `$index` and says that
    /// `$values` fails, nothing more). A UTF-8 target keeps everything, as
    /// does the last text of the array, which a later call would carry
    /// over: the parser must not parse into arrays again.
    pub(crate) fn parse_into_struct_data_for_failing_json(&mut self, data: Vec<u8>) -> StructData {
        let discard = self.coding.options.target != TargetEncoding::Utf8;
        self.parse_into_struct_data_with(data, discard)
    }

    fn parse_into_struct_data_with(&mut self, data: Vec<u8>, discard: bool) -> StructData {
        self.struct_installed = true;
        let mut builder = std::mem::take(&mut self.builder);
        builder.begin(&data, true);
        builder.set_discard_after_not_utf8(discard);
        let ok = self.drive(&mut (), Some(&mut builder), |core, adapter, installed| {
            core.parse_final_owned(adapter, installed, data)
        });
        builder.set_discard_after_not_utf8(false);
        let result = builder.finish_data(ok);
        self.builder = builder;
        result
    }

    /// Runs `feed` (normally the core) with the Sax sink that plays
    /// `ext/xml/xml.c` for `handler` and, if given, the struct builder.
    fn drive<H: Handler + ?Sized>(
        &mut self,
        handler: &mut H,
        builder: Option<&mut Builder>,
        feed: impl FnOnce(&mut Core<'static>, &mut Adapter<'_, H>, HandlerSet) -> bool,
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
        let options = self.options;
        self.buffers
            .keep_if(Some(NameKey::new(options, installed.element)));
        let mut adapter = Adapter {
            coding: &self.coding,
            set,
            handler,
            builder,
            buffers: &mut self.buffers,
        };
        feed(&mut self.core, &mut adapter, installed)
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
        // Hand-made events need not pair as the core's do.
        self.buffers.keep_if(None);
        if !into_struct {
            self.drive(handler, None, |_, adapter, _| {
                events(adapter);
                true
            });
            self.buffers.keep_if(None);
            return None;
        }
        self.struct_installed = true;
        let mut builder = std::mem::take(&mut self.builder);
        builder.begin(&[], false);
        self.drive(handler, Some(&mut builder), |_, adapter, _| {
            events(adapter);
            true
        });
        self.buffers.keep_if(None);
        let result = builder.finish(true);
        self.builder = builder;
        Some(result)
    }

    /// `xml_get_error_code()`: libxml2's error number (0 for none, 21 when
    /// an external-entity-reference handler refused). See [`error_string`]
    /// for the messages, [`Parser::last_error`] for code and position
    /// together.
    ///
    /// ```
    /// let mut parser = phpxml::Parser::new(None)?;
    /// assert!(!parser.parse(&mut (), b"<a>\n  <b></a>", true));
    /// assert_eq!(parser.error_code(), 76); // Mismatched tag
    /// assert_eq!((parser.line(), parser.column(), parser.byte_index()), (2, 10, 13));
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    ///
    /// [`error_string`]: crate::error_string
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

    /// The error state as one value: `None` while `xml_get_error_code()`
    /// is 0, otherwise the code and the position PHP reports with it.
    ///
    /// ```
    /// let mut parser = phpxml::Parser::new(None).unwrap();
    /// assert!(parser.parse(&mut (), b"<ok/>", true));
    /// assert_eq!(parser.last_error(), None);
    /// ```
    #[must_use]
    pub fn last_error(&self) -> Option<ParseError> {
        let code = self.error_code();
        (code != 0).then(|| ParseError {
            code,
            line: self.line(),
            column: self.column(),
            byte_index: self.byte_index(),
        })
    }
}

/// `xml_parser_create()`: target UTF-8, case folding on.
///
/// ```
/// let mut parser = phpxml::Parser::default();
/// assert!(parser.parse(&mut (), b"<ok/>", true));
/// ```
impl Default for Parser {
    fn default() -> Self {
        Self::create(None, None).unwrap_or_else(|_| unreachable!("no encoding is always accepted"))
    }
}

/// The [`Sax`] sink: plays `ext/xml/xml.c`'s `_xml_*_handler` functions.
pub(crate) struct Adapter<'a, H: ?Sized> {
    coding: &'a Coding,
    /// The handlers the user's handler has set.
    set: HandlerSet,
    handler: &'a mut H,
    builder: Option<&'a mut Builder>,
    buffers: &'a mut Buffers,
}

/// `xml_utf8_decode()`, appending to `out`: ASCII (the usual names,
/// values and text) is the same in every target, so it is copied as it is.
/// In line: a call per attribute value cost more than the copy.
#[inline(always)]
fn decode_into(src: &[u8], target: TargetEncoding, out: &mut Vec<u8>) {
    if target == TargetEncoding::Utf8 || src.is_ascii() {
        out.extend_from_slice(src);
    } else {
        crate::decode::xml_utf8_decode_into(src, target, out);
    }
}

/// `xml_utf8_decode()` into a cleared buffer.
fn decode_to(out: &mut Vec<u8>, s: &[u8], target: TargetEncoding) {
    out.clear();
    decode_into(s, target, out);
}

/// What the [`Adapter`] works out from the options, kept by the parser
/// until they change.
#[derive(Clone, Copy, Debug)]
struct Coding {
    options: Options,
    /// `_xml_decode_tag()`'s usual case: UTF-8 target, case folding, no
    /// empty separator; a name is only upper-cased.
    upper_only: bool,
    /// Case folding and no empty separator, in any target: an ASCII name
    /// (decoded as it is in every target) is only upper-cased too.
    upper_ascii: bool,
    /// `options.skip()`.
    skip: usize,
}

impl Coding {
    fn new(options: Options) -> Self {
        Self {
            options,
            upper_only: options.target == TargetEncoding::Utf8
                && options.case_folding != 0
                && !options.empty_separator,
            upper_ascii: options.case_folding != 0 && !options.empty_separator,
            skip: options.skip(),
        }
    }
}

/// `_xml_decode_tag()`: decode to the target, then fold ASCII letters;
/// appended to `out`. `scratch` is working room.
#[inline]
fn decode_tag_append(coding: &Coding, raw: &[u8], out: &mut Vec<u8>, scratch: &mut Vec<u8>) {
    if coding.upper_only {
        push_upper(raw, out);
    } else {
        decode_tag_other(coding, raw, out, scratch);
    }
}

/// `raw` with its ASCII letters upper-cased, appended to `out`. Names are
/// short: from 4 to 16 bytes they are folded as two overlapping words
/// (folding twice changes nothing), two or three bytes as one word,
/// written whole.
#[inline(always)]
fn push_upper(raw: &[u8], out: &mut Vec<u8>) {
    let n = raw.len();
    // the shortest first: one-letter names are common
    if n < 4 {
        if let [b] = *raw {
            out.push(b.to_ascii_uppercase());
        } else if let [first, middle, ..] = *raw {
            // two or three bytes
            let word = upper4(u32::from_le_bytes([first, middle, raw[n - 1], 0]));
            out.extend_from_slice(&word.to_le_bytes()[..3]);
            out.truncate(out.len() + n - 3);
        }
    } else if n < 8 {
        if let (Some(&head), Some(&tail)) = (raw.first_chunk::<4>(), raw.last_chunk::<4>()) {
            out.extend_from_slice(&upper4(u32::from_le_bytes(head)).to_le_bytes());
            out.truncate(out.len() + n - 8);
            out.extend_from_slice(&upper4(u32::from_le_bytes(tail)).to_le_bytes());
        }
    } else if n <= 16 {
        if let (Some(&head), Some(&tail)) = (raw.first_chunk::<8>(), raw.last_chunk::<8>()) {
            out.extend_from_slice(&upper8(u64::from_le_bytes(head)).to_le_bytes());
            out.truncate(out.len() + n - 16);
            out.extend_from_slice(&upper8(u64::from_le_bytes(tail)).to_le_bytes());
        }
    } else {
        push_upper_long(raw, out);
    }
}

/// [`push_upper`] of more than 16 bytes.
#[inline(never)]
fn push_upper_long(raw: &[u8], out: &mut Vec<u8>) {
    out.extend(raw.iter().map(u8::to_ascii_uppercase));
}

/// [`u8::to_ascii_uppercase`] of each byte of `w`.
#[inline]
fn upper8(w: u64) -> u64 {
    const ONES: u64 = u64::MAX / 0xFF;
    const HIGH: u64 = ONES * 0x80;
    let low = w & !HIGH;
    // high bit of each byte: its low seven bits are at least b'a', are
    // past b'z', it is ASCII (no carry crosses bytes)
    let from_a = low + ONES * (0x80 - u64::from(b'a'));
    let past_z = low + ONES * (0x80 - u64::from(b'z') - 1);
    w ^ ((from_a & !past_z & !w & HIGH) >> 2)
}

/// [`upper8`] on four bytes (the four zero bytes above them stay zero).
#[inline]
fn upper4(w: u32) -> u32 {
    upper8(u64::from(w)) as u32
}

/// [`decode_tag_append`] in the other cases.
#[inline(never)]
fn decode_tag_other(coding: &Coding, raw: &[u8], out: &mut Vec<u8>, scratch: &mut Vec<u8>) {
    if coding.upper_ascii && raw.is_ascii() {
        push_upper(raw, out);
        return;
    }
    let options = coding.options;
    let start = out.len();
    if options.empty_separator && raw.contains(&0) {
        scratch.clear();
        scratch.extend(raw.iter().copied().filter(|&b| b != 0));
        decode_into(scratch, options.target, out);
    } else {
        decode_into(raw, options.target, out);
    }
    if options.case_folding != 0 {
        out[start..].make_ascii_uppercase();
    }
}

/// The attribute array PHP builds, as `symtable_update()` on an empty
/// array for each attribute in turn, in the first slots of `slots.array`:
/// returns how many. The slots (and their allocations) are reused from
/// call to call; those past the count are spare.
#[inline]
fn attribute_array(
    coding: &Coding,
    attributes: &[Attribute<'_>],
    names: Option<NameList>,
    slots: &mut AttributeSlots,
    keys: &mut KeySet,
    scratch: &mut Vec<u8>,
) -> usize {
    let n = attributes.len();
    // `listed` is kept only for keys made one a name (none merged)
    let listed = names.is_some() && names == slots.listed;
    #[cfg(test)]
    if listed {
        LISTED_NAMES.set(LISTED_NAMES.get() + 1);
    }
    if listed
        || n <= slots.distinct
            && n < MANY
            && attributes
                .iter()
                .zip(&slots.raw_names)
                .all(|(&(name, _), cached)| {
                    cached.is_some_and(|(raw, _)| short_name(name) == Some(raw))
                })
    {
        // the keys of the last such list, in the same places: only the
        // values are new
        #[cfg(test)]
        SAME_NAMES.set(SAME_NAMES.get() + 1);
        for (&(_, value), (_, v)) in attributes.iter().zip(&mut slots.array) {
            v.clear();
            decode_into(value, coding.options.target, v);
        }
        return n;
    }
    let len = attribute_array_general(
        coding,
        attributes,
        &mut slots.array,
        &mut slots.raw_names,
        keys,
        scratch,
    );
    // the keys it kept: each where its name was decoded, none repeated
    slots.distinct = len;
    slots.listed = names.filter(|_| len == n);
    len
}

#[cfg(test)]
thread_local! {
    /// Attribute arrays made without the duplicate check, their names
    /// those of the last array made in their slots.
    static SAME_NAMES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Attribute arrays made without comparing their names, the core
    /// having given the list of names their slots' keys were made from.
    static LISTED_NAMES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Of those, the arrays whose values were taken from where the core
    /// holds them, without a list of pairs (`start_element_held`).
    static HELD_VALUES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// [`attribute_array`] for any list: each name decoded unless its slot
/// holds its key already, each key checked against the earlier ones.
#[inline(never)]
fn attribute_array_general(
    coding: &Coding,
    attributes: &[Attribute<'_>],
    array: &mut Vec<(Key, Vec<u8>)>,
    raw_names: &mut Vec<Option<(ShortName, u64)>>,
    keys: &mut KeySet,
    scratch: &mut Vec<u8>,
) -> usize {
    if let Some(new) = attributes.get(array.len()..).filter(|new| !new.is_empty()) {
        // new slots, sized for what they will hold (a decoded name or
        // value is never longer than the UTF-8 one)
        array.extend(new.iter().map(|&(name, value)| {
            (
                Key::Str(Vec::with_capacity(name.len())),
                Vec::with_capacity(value.len()),
            )
        }));
    }
    raw_names.resize(array.len(), None);
    let mut len = 0;
    keys.clear();
    for &(name, value) in attributes {
        // the key is decoded in the next slot, which is kept only if
        // the key is new
        let (earlier_keys, rest) = array.split_at_mut(len);
        let (key, next_value) = &mut rest[0];
        let short = short_name(name);
        let cached = &mut raw_names[len];
        let bit = match *cached {
            Some((raw, bit)) if short == Some(raw) && len < MANY => bit,
            _ => {
                let bytes = emptied_str(key);
                decode_tag_append(coding, name, bytes, scratch);
                let bit = KeySet::class(bytes);
                if let Some(i) = key_int(bytes) {
                    *key = Key::Int(i);
                }
                *cached = short.map(|raw| (raw, bit));
                bit
            }
        };
        let earlier = keys.find_or_add(
            || key.to_bytes(),
            bit,
            len,
            |slot| earlier_keys[slot].0.to_bytes(),
        );
        let v = if let Some(slot) = earlier {
            &mut earlier_keys[slot].1
        } else {
            len += 1;
            next_value
        };
        v.clear();
        decode_into(value, coding.options.target, v);
    }
    len
}

/// A raw name of at most 16 bytes, exactly: its length and the words
/// [`push_upper`] folds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShortName {
    len: usize,
    head: u64,
    tail: u64,
}

impl ShortName {
    /// No name: equal to no [`short_name`].
    pub(crate) const NONE: Self = Self {
        len: usize::MAX,
        head: 0,
        tail: 0,
    };
}

#[inline]
pub(crate) fn short_name(raw: &[u8]) -> Option<ShortName> {
    let len = raw.len();
    let (head, tail) = if len > 16 {
        return None;
    } else if let (Some(&head), Some(&tail)) = (raw.first_chunk::<8>(), raw.last_chunk::<8>()) {
        (u64::from_le_bytes(head), u64::from_le_bytes(tail))
    } else if let (Some(&head), Some(&tail)) = (raw.first_chunk::<4>(), raw.last_chunk::<4>()) {
        (
            u32::from_le_bytes(head).into(),
            u32::from_le_bytes(tail).into(),
        )
    } else if let [first, .., last] | [first @ last] = *raw {
        (u32::from_le_bytes([first, raw[len / 2], last, 0]).into(), 0)
    } else {
        (0, 0)
    };
    Some(ShortName { len, head, tail })
}

/// The string of a reused key slot, emptied; an integer key becomes an
/// empty string.
fn emptied_str(key: &mut Key) -> &mut Vec<u8> {
    if let Key::Int(_) = key {
        *key = Key::Str(Vec::new());
    }
    let Key::Str(bytes) = key else {
        unreachable!("an integer key was replaced above")
    };
    bytes.clear();
    bytes
}

/// `xml_utf8_decode()` of up to three optional strings (PHP's `false`
/// for `None`) into the reused `buffers`.
fn decode_optional<'b, const N: usize>(
    buffers: &'b mut [Vec<u8>; 3],
    values: [Option<&[u8]>; N],
    target: TargetEncoding,
) -> [Option<&'b [u8]>; N] {
    const { assert!(N <= 3) };
    let mut buffers = buffers.iter_mut();
    values.map(|value| {
        let buffer = buffers.next()?;
        let value = value?;
        decode_to(buffer, value, target);
        let buffer: &'b Vec<u8> = buffer;
        Some(buffer.as_slice())
    })
}

impl<H: Handler + ?Sized> Adapter<'_, H> {
    /// The rest of a start tag with attributes, whose name is on the name
    /// stack from `at`.
    #[inline]
    fn start_element_with(
        &mut self,
        at: usize,
        attributes: &[Attribute<'_>],
        names: Option<NameList>,
    ) {
        let coding = self.coding;
        let buffers = &mut *self.buffers;
        let tag = &buffers.names.bytes[at..];
        let mut filled = None;
        if self.set.element {
            let slots = &mut buffers.attributes[attribute_bank(tag)];
            let len = attribute_array(
                coding,
                attributes,
                names,
                slots,
                &mut buffers.keys,
                &mut buffers.scratch,
            );
            self.handler
                .start_element(skip_tagstart(tag, self.coding.skip), &slots.array[..len]);
            filled = Some(&slots.array[..len]);
        }
        if let Some(builder) = self.builder.as_deref_mut()
            && builder.start(tag, self.coding.skip)
        {
            if let Some(array) = filled {
                // the handler's array, already decoded and merged
                for (key, value) in array {
                    builder.attribute(
                        |out| out.extend_from_slice(&key.to_bytes()),
                        |out| out.extend_from_slice(value),
                    );
                }
            } else {
                let scratch = &mut buffers.scratch;
                builder.attributes(
                    attributes,
                    names,
                    buffers.names.key.map(|key| (key, attribute_bank(tag))),
                    |name, out| decode_tag_append(coding, name, out, scratch),
                    |value, out| decode_into(value, coding.options.target, out),
                );
            }
        }
    }

    /// Character data to convert or to add to the arrays.
    #[inline(never)]
    fn character_data_with(&mut self, data: &[u8]) {
        // A UTF-8 target is the bytes as they are: no copy.
        let text = if self.coding.options.target == TargetEncoding::Utf8 {
            data
        } else if !self.set.character_data && self.builder.is_some() {
            self.decode_to_arrays(data);
            return;
        } else {
            decode_to(&mut self.buffers.text, data, self.coding.options.target);
            &self.buffers.text
        };
        if self.set.character_data {
            self.handler.character_data(text);
        }
        if let Some(builder) = self.builder.as_deref_mut() {
            builder.cdata(text, self.coding.skip, self.coding.options.skip_white != 0);
        }
    }

    /// Character data for the arrays alone, decoded straight into their
    /// buffer: no copy between.
    #[inline]
    fn decode_to_arrays(&mut self, data: &[u8]) {
        let target = self.coding.options.target;
        if let Some(builder) = self.builder.as_deref_mut() {
            builder.cdata_with(
                data,
                |out| decode_into(data, target, out),
                self.coding.skip,
                self.coding.options.skip_white != 0,
            );
        }
    }
}

impl<H: Handler + ?Sized> Sax for Adapter<'_, H> {
    fn start_element(&mut self, name: &[u8], attributes: &[Attribute<'_>]) {
        self.start_element_listed(name, attributes, None);
    }

    fn start_element_listed(
        &mut self,
        name: &[u8],
        attributes: &[Attribute<'_>],
        list: Option<NameList>,
    ) {
        if self.handler.stop_requested() {
            return;
        }
        let buffers = &mut *self.buffers;
        let names = &mut buffers.names;
        let at = names.bytes.len();
        decode_tag_append(self.coding, name, &mut names.bytes, &mut buffers.scratch);
        names.starts.push(at);
        if attributes.is_empty() {
            let tag = &names.bytes[at..];
            if self.set.element {
                self.handler
                    .start_element(skip_tagstart(tag, self.coding.skip), &[]);
            }
            if let Some(builder) = self.builder.as_deref_mut() {
                builder.start(tag, self.coding.skip);
            }
            return;
        }
        self.start_element_with(at, attributes, list);
    }

    fn start_element_held(&mut self, name: &[u8], held: HeldAttributes<'_>, list: NameList) {
        if self.handler.stop_requested() {
            return;
        }
        if !self.set.element || self.builder.is_some() {
            held.with_pairs(|pairs| self.start_element_listed(name, pairs, Some(list)));
            return;
        }
        let buffers = &mut *self.buffers;
        let names = &mut buffers.names;
        let at = names.bytes.len();
        decode_tag_append(self.coding, name, &mut names.bytes, &mut buffers.scratch);
        let tag = &names.bytes[at..];
        let slots = &mut buffers.attributes[attribute_bank(tag)];
        if slots.listed != Some(list) {
            // keys not made from this list: the array the general way
            names.bytes.truncate(at);
            held.with_pairs(|pairs| self.start_element_listed(name, pairs, Some(list)));
            return;
        }
        names.starts.push(at);
        #[cfg(test)]
        {
            LISTED_NAMES.set(LISTED_NAMES.get() + 1);
            SAME_NAMES.set(SAME_NAMES.get() + 1);
            HELD_VALUES.set(HELD_VALUES.get() + 1);
        }
        // the keys of the list's array, in the same places: only the
        // values are new
        let n = held.len();
        let target = self.coding.options.target;
        for (k, (_, v)) in slots.array[..n].iter_mut().enumerate() {
            v.clear();
            if target == TargetEncoding::Utf8 {
                held.append_value(k, v);
            } else {
                decode_into(held.value(k), target, v);
            }
        }
        self.handler
            .start_element(skip_tagstart(tag, self.coding.skip), &slots.array[..n]);
    }

    fn end_element(&mut self, name: &[u8]) {
        if self.handler.stop_requested() {
            return;
        }
        let names = &mut self.buffers.names;
        let at = if let Some(at) = names.starts.pop() {
            #[cfg(debug_assertions)]
            {
                // in the reused buffers: no allocation per event even here
                let again = &mut self.buffers.text;
                again.clear();
                decode_tag_append(self.coding, name, again, &mut self.buffers.scratch);
                debug_assert_eq!(*again, names.bytes[at..], "an end pairs with its start");
            }
            at
        } else {
            names.push_unpaired(self.coding, name, &mut self.buffers.scratch)
        };
        let tag = &names.bytes[at..];
        if self.set.element {
            self.handler
                .end_element(skip_tagstart(tag, self.coding.skip));
        }
        if let Some(builder) = self.builder.as_deref_mut() {
            builder.end(tag, self.coding.skip);
        }
        names.bytes.truncate(at);
    }

    fn character_data(&mut self, data: &[u8]) {
        if self.handler.stop_requested() {
            return;
        }
        if self.builder.is_none() && self.coding.options.target == TargetEncoding::Utf8 {
            if self.set.character_data {
                self.handler.character_data(data);
            }
            return;
        }
        self.character_data_with(data);
    }

    fn character_data_to_nul(&mut self, to_nul: &[u8]) {
        if self.handler.stop_requested() {
            return;
        }
        // `_xml_characterDataHandler`: the handler's string by
        // `_xml_xmlchar_zval` (length 0 read as strlen), the array's by
        // `xml_utf8_decode` of length 0
        if self.set.character_data {
            decode_to(&mut self.buffers.text, to_nul, self.coding.options.target);
            self.handler.character_data(&self.buffers.text);
        }
        if let Some(builder) = self.builder.as_deref_mut() {
            builder.cdata(b"", self.coding.skip, self.coding.options.skip_white != 0);
        }
    }

    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        if self.handler.stop_requested() {
            return;
        }
        if !self.set.processing_instruction {
            return;
        }
        decode_to(&mut self.buffers.text, target, self.coding.options.target);
        let [data] = decode_optional(
            &mut self.buffers.optional,
            [data],
            self.coding.options.target,
        );
        self.handler
            .processing_instruction(&self.buffers.text, data);
    }

    fn default(&mut self, data: &[u8]) {
        if self.handler.stop_requested() {
            return;
        }
        if !self.set.default {
            return;
        }
        decode_to(&mut self.buffers.text, data, self.coding.options.target);
        self.handler.default_data(&self.buffers.text);
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        if self.handler.stop_requested() {
            return;
        }
        if !self.set.unparsed_entity_decl {
            return;
        }
        decode_to(&mut self.buffers.text, name, self.coding.options.target);
        let [system_id, public_id, notation] = decode_optional(
            &mut self.buffers.optional,
            [system_id, public_id, notation],
            self.coding.options.target,
        );
        self.handler
            .unparsed_entity_decl(&self.buffers.text, None, system_id, public_id, notation);
    }

    fn notation_decl(&mut self, name: &[u8], system_id: Option<&[u8]>, public_id: Option<&[u8]>) {
        if self.handler.stop_requested() {
            return;
        }
        if !self.set.notation_decl {
            return;
        }
        decode_to(&mut self.buffers.text, name, self.coding.options.target);
        let [system_id, public_id] = decode_optional(
            &mut self.buffers.optional,
            [system_id, public_id],
            self.coding.options.target,
        );
        self.handler
            .notation_decl(&self.buffers.text, None, system_id, public_id);
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        if self.handler.stop_requested() {
            // the core stops on its own, with the user's stop
            return true;
        }
        // PHP aborts when no handler is set.
        if !self.set.external_entity_ref {
            return false;
        }
        decode_to(
            &mut self.buffers.text,
            open_entity_names,
            self.coding.options.target,
        );
        let [system_id, public_id] = decode_optional(
            &mut self.buffers.optional,
            [system_id, public_id],
            self.coding.options.target,
        );
        self.handler
            .external_entity_ref(&self.buffers.text, Some(b""), system_id, public_id)
    }

    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        if self.handler.stop_requested() {
            return;
        }
        if !self.set.start_namespace_decl {
            return;
        }
        let [prefix] = decode_optional(
            &mut self.buffers.optional,
            [prefix],
            self.coding.options.target,
        );
        decode_to(&mut self.buffers.text, uri, self.coding.options.target);
        self.handler
            .start_namespace_decl(prefix, &self.buffers.text);
    }

    fn stop_requested(&self) -> bool {
        self.handler.stop_requested()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records the element handler calls.
    struct Elements {
        set: HandlerSet,
        seen: Vec<Vec<u8>>,
    }

    impl Handler for Elements {
        fn installed(&self) -> HandlerSet {
            self.set
        }
        fn start_element(&mut self, name: &[u8], _: &[(Key, Vec<u8>)]) {
            self.seen.push([b"<", name].concat());
        }
        fn end_element(&mut self, name: &[u8]) {
            self.seen.push([b"/", name].concat());
        }
    }

    #[test]
    fn words_fold_as_bytes() {
        for b in 0..=255u8 {
            let w = u64::from_le_bytes([b, b'a', b'z', b'@', b'[', b'`', b'{', b]);
            let want = w.to_le_bytes().map(|b| b.to_ascii_uppercase());
            assert_eq!(upper8(w).to_le_bytes(), want);
            assert_eq!(upper4(w as u32).to_le_bytes(), want[..4]);
        }
        for n in 0..40 {
            let raw: Vec<u8> = (0..n).map(|i| b"aZ\xE9b`{q"[i % 7]).collect();
            let mut out = b"x".to_vec();
            push_upper(&raw, &mut out);
            assert_eq!(out[1..], raw.to_ascii_uppercase());
            assert_eq!(out[0], b'x');
        }
    }

    /// Records the attribute arrays.
    struct Arrays(Vec<Vec<(Key, Vec<u8>)>>);

    impl Handler for Arrays {
        fn start_element(&mut self, _: &[u8], attributes: &[(Key, Vec<u8>)]) {
            self.0.push(attributes.to_vec());
        }
    }

    /// Keys reused from the element before are those the names give.
    #[test]
    fn attribute_keys_follow_their_names() {
        let mut parser = Parser::new(None).unwrap();
        let mut arrays = Arrays(Vec::new());
        let doc = "<r><a b='1' id='2'/><c id='0' b='0'/><a b='3' id='4'/><a x='5' X='6' b='7'/>\
                   <a x='8' y='9' bc='10'/><a é='11' a-long-attribute-name='12'/>";
        assert!(parser.parse(&mut arrays, doc.as_bytes(), false));
        parser.set_case_folding(false);
        assert!(parser.parse(&mut arrays, b"<a x='13' id='14'/></r>", true));
        let s = |k: &str, v: &str| (Key::Str(k.into()), v.into());
        assert_eq!(
            arrays.0,
            [
                vec![],
                vec![s("B", "1"), s("ID", "2")],
                vec![s("ID", "0"), s("B", "0")],
                vec![s("B", "3"), s("ID", "4")],
                vec![s("X", "6"), s("B", "7")],
                vec![s("X", "8"), s("Y", "9"), s("BC", "10")],
                vec![s("é", "11"), s("A-LONG-ATTRIBUTE-NAME", "12")],
                vec![s("x", "13"), s("id", "14")],
            ]
        );
    }

    /// Documents of tags whose attribute names repeat, move, fold onto
    /// each other and change with the options, for the struct builder.
    fn attribute_documents() -> Vec<Vec<String>> {
        const NAMES: [&str; 12] = [
            "a",
            "A",
            "id",
            "ID",
            "iD",
            "name",
            "naïve",
            "b",
            "x",
            "value",
            "a-long-attribute-name",
            "a-long-attribute-namE",
        ];
        let mut rng = crate::test_rng::XorShift::new(0x2545_F491_4F6C_DD1D);
        let mut next = move |n: usize| rng.below(n);
        (0..60)
            .map(|_| {
                let mut tags = Vec::new();
                let mut last_tag = "s";
                let mut last: Vec<&str> = Vec::new();
                for _ in 0..40 {
                    // mostly the tag before, whose slots hold the names
                    let tag = if next(3) == 0 {
                        ["s", "S", "t", "setting"][next(4)]
                    } else {
                        last_tag
                    };
                    // often the names of the tag before, sometimes changed
                    let mut names = if next(3) == 0 {
                        (0..next(20))
                            .map(|_| NAMES[if next(6) == 0 { next(12) } else { next(10) }])
                            .collect()
                    } else {
                        last.clone()
                    };
                    if !names.is_empty() && next(4) == 0 {
                        let at = next(names.len());
                        names[at] = NAMES[if next(6) == 0 { next(12) } else { next(10) }];
                    }
                    if next(8) == 0 {
                        names.truncate(next(names.len() + 1));
                    }
                    // XML has no duplicate names: keep the first of each
                    let mut seen = Vec::new();
                    names.retain(|n| {
                        let new = !seen.contains(n);
                        seen.push(*n);
                        new
                    });
                    let mut doc = String::from("<");
                    doc.push_str(tag);
                    for (i, n) in names.iter().enumerate() {
                        // short and long, as they stand and with references
                        // (values the core builds in its own bytes)
                        let value = match next(6) {
                            0 => format!(" {n}='v{i}&amp;{}'", next(100)),
                            1 => format!(
                                " {n}=\"{}&lt;{}\"",
                                "a longer value ".repeat(next(3)),
                                next(100)
                            ),
                            2 => format!(" {n}=\"v{i} {}\"", "x".repeat(next(30))),
                            _ => format!(" {n}='v{i}é{}'", next(100)),
                        };
                        doc.push_str(&value);
                    }
                    doc.push_str("/>");
                    tags.push(doc);
                    last = names;
                    last_tag = tag;
                }
                tags
            })
            .collect()
    }

    /// The struct builder's memos of attribute keys give what the
    /// handler's array gives (the builder's other path, which decodes every
    /// name), under every target and case folding.
    #[test]
    fn remembered_attribute_keys_are_those_of_their_names() {
        let used = crate::php::structure::MEMO_KEYS.get();
        let same = crate::php::structure::SAME_NAMES.get();
        let listed = crate::php::structure::LISTED_NAMES.get();
        let mut reference = Elements {
            set: HandlerSet::COMMON,
            seen: Vec::new(),
        };
        for target in [
            TargetEncoding::Utf8,
            TargetEncoding::Iso8859_1,
            TargetEncoding::UsAscii,
        ] {
            for (i, tags) in attribute_documents().iter().enumerate() {
                let doc = &format!("<r>{}</r>", tags.concat());
                let folding = i % 3 != 2;
                let [mut parser, mut with_handler] = [(); 2].map(|()| {
                    let mut p = Parser::new(None).unwrap();
                    p.set_target_encoding(target);
                    p.set_case_folding(folding);
                    p
                });
                let got = parser.parse_into_struct(doc.as_bytes());
                let want = with_handler.parse_into_struct_with(&mut reference, doc.as_bytes());
                assert!(got.ok, "{doc}");
                assert_eq!(got, want, "{target:?} {folding} {doc}");
            }
        }
        assert!(crate::php::structure::MEMO_KEYS.get() - used > 5000);
        assert!(crate::php::structure::SAME_NAMES.get() - same > 500);
        let listed = crate::php::structure::LISTED_NAMES.get() - listed;
        assert!(listed > 300, "{listed} lists added from the core's lists");
    }

    /// The handler's arrays of a document's tags are those of each tag
    /// parsed alone (no slots kept from an array before), under every
    /// target and case folding: arrays of the names of the array before
    /// skip the duplicate check.
    #[test]
    fn attribute_arrays_are_those_of_their_tags_alone() {
        let used = SAME_NAMES.get();
        let listed = LISTED_NAMES.get();
        let held = HELD_VALUES.get();
        for target in [TargetEncoding::Utf8, TargetEncoding::Iso8859_1] {
            for (i, tags) in attribute_documents().iter().enumerate() {
                let folding = i % 3 != 2;
                let parser = || {
                    let mut p = Parser::new(None).unwrap();
                    p.set_target_encoding(target);
                    p.set_case_folding(folding);
                    p
                };
                let mut whole = Arrays(Vec::new());
                let doc = format!("<r>{}</r>", tags.concat());
                assert!(parser().parse(&mut whole, doc.as_bytes(), true));
                let mut alone = Arrays(vec![vec![]]);
                for tag in tags {
                    assert!(parser().parse(&mut alone, tag.as_bytes(), true));
                }
                assert_eq!(whole.0, alone.0, "{target:?} {folding} {doc}");
            }
        }
        assert!(SAME_NAMES.get() - used > 500);
        // the core's lists of names stood in for the comparison
        let listed = LISTED_NAMES.get() - listed;
        assert!(listed > 300, "{listed} arrays made from the core's lists");
        let held = HELD_VALUES.get() - held;
        assert!(held > 300, "{held} arrays of values alone");
    }

    /// Integer keys (only hand-made events have such names) are kept and
    /// compared as keys.
    #[test]
    fn integer_keys_are_reused_as_keys() {
        let mut parser = Parser::new(None).unwrap();
        let mut arrays = Arrays(Vec::new());
        parser.replay(&mut arrays, false, |sax| {
            sax.start_element(b"a", &[(b"12", b"1"), (b"id", b"2")]);
            sax.start_element(b"a", &[(b"12", b"3"), (b"id", b"4"), (b"12", b"5")]);
            sax.start_element(b"a", &[(b"x", b"6"), (b"12", b"7"), (b"012", b"8")]);
        });
        let s = |k: &str, v: &str| (Key::Str(k.into()), v.into());
        let i = |k: i64, v: &str| (Key::Int(k), v.into());
        assert_eq!(
            arrays.0,
            [
                vec![i(12, "1"), s("ID", "2")],
                vec![i(12, "5"), s("ID", "4")],
                vec![s("X", "6"), i(12, "7"), s("012", "8")],
            ]
        );
    }

    /// End tags are named as decoded under their own parse call's options
    /// and handlers, whatever held when the element started.
    #[test]
    fn end_names_follow_their_parse_call() {
        let mut parser = Parser::new(None).unwrap();
        let mut elements = Elements {
            set: HandlerSet::COMMON,
            seen: Vec::new(),
        };
        let mut text_only = Elements {
            set: HandlerSet {
                character_data: true,
                ..HandlerSet::NONE
            },
            seen: Vec::new(),
        };
        assert!(parser.parse(&mut elements, "<ab><cd><é1><ef><gh>".as_bytes(), false));
        assert!(parser.parse(&mut text_only, b"</gh>", false));
        assert!(parser.parse(&mut elements, b"</ef>", false));
        parser.set_target_encoding(TargetEncoding::Iso8859_1);
        assert!(parser.parse(&mut elements, "</é1>".as_bytes(), false));
        parser.set_case_folding(false);
        assert!(parser.parse(&mut elements, b"</cd>", false));
        parser.set_case_folding(true);
        parser.set_skip_tagstart(1).unwrap();
        assert!(parser.parse(&mut elements, b"</ab>", true));
        // only ASCII letters are folded
        let want: [&[u8]; 9] = [
            b"<AB",
            b"<CD",
            "<é1".as_bytes(),
            b"<EF",
            b"<GH",
            b"/EF",
            b"/\xE91",
            b"/cd",
            b"/B",
        ];
        assert_eq!(elements.seen, want);
        assert!(text_only.seen.is_empty());
    }
}
