//! The libxml2-compatible push parser core (libxml2 2.9.14 as PHP's
//! `ext/xml/compat.c` drives it).
//!
//! The core keeps libxml2's push model: input is appended to a buffer, and
//! each construct is parsed once enough of it is there (or at once when the
//! chunk is final). Positions, error numbers and the moment parsing stops
//! follow libxml2's parser, because PHP reports exactly those. Lookahead for
//! start tags uses quick-xml's resumable quote-aware scanner
//! ([`quick_xml::parser::ElementParser`]), so that a start tag fed one byte at
//! a time is scanned once, not once per byte.
//!
//! Layout: [`input`] holds the buffer, cursor and position counting;
//! [`content`] the element content, one file per construct (start and end
//! tags, attribute values, text, references, comments, PIs and CDATA);
//! [`prolog`] the XML declaration, DOCTYPE and internal subset; [`chars`]
//! the character classes; [`keyset`] duplicate attribute names.

mod chars;
mod charsets;
mod content;
mod encoding;
mod input;
pub(crate) mod keyset;
pub(crate) mod names;
mod namespaces;
mod prolog;
#[cfg(test)]
mod tests;
#[allow(unsafe_code)]
mod text_scan;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use keyset::KeySet;
use namespaces::{Namespaces, NsUri};

use crate::sax::{Attribute, HandlerSet, NameList, Sax};

#[cfg(test)]
thread_local! {
    /// The chunks [`Core::parse_final_owned`] took as its input buffer
    /// instead of copying them, so that tests can tell it did.
    pub(crate) static GIVEN_AWAY: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The final chunks [`Core::parse_final_borrowed`] read where they
    /// lie instead of copying them.
    pub(crate) static TAKEN_WHERE_IT_LIES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Set, final chunks are copied as any other chunk is (the path
    /// [`Core::parse_final_borrowed`] is compared with).
    pub(crate) static COPY_FINAL_CHUNKS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// One push of `raw` through the converter a declaration naming `label`
/// opens (for `phpxml::testing::convert_declared`).
pub(crate) fn convert_declared(label: &[u8], raw: &[u8], out: &mut Vec<u8>) -> Option<bool> {
    let mut decoder = encoding::Decoder::default();
    decoder.set_mode(encoding::table_for(label)?);
    Some(decoder.convert(raw, out, false) && !decoder.has_pending())
}

/// libxml2 error numbers used by the core (`xmlParserErrors`).
#[allow(missing_docs)]
pub(crate) mod err {
    pub const INTERNAL_ERROR: i32 = 1;
    pub const NO_MEMORY: i32 = 2;
    pub const DOCUMENT_EMPTY: i32 = 4;
    pub const DOCUMENT_END: i32 = 5;
    pub const INVALID_HEX_CHARREF: i32 = 6;
    pub const INVALID_DEC_CHARREF: i32 = 7;
    pub const INVALID_CHARREF: i32 = 8;
    pub const INVALID_CHAR: i32 = 9;
    pub const PEREF_NO_NAME: i32 = 24;
    pub const PEREF_SEMICOL_MISSING: i32 = 25;
    pub const ENTITYREF_SEMICOL_MISSING: i32 = 23;
    pub const UNDECLARED_ENTITY: i32 = 26;
    pub const WAR_UNDECLARED_ENTITY: i32 = 27;
    pub const ENTITY_IS_EXTERNAL: i32 = 29;
    pub const UNSUPPORTED_ENCODING: i32 = 32;
    pub const STRING_NOT_STARTED: i32 = 33;
    pub const STRING_NOT_CLOSED: i32 = 34;
    pub const ENTITY_NOT_FINISHED: i32 = 37;
    pub const LT_IN_ATTRIBUTE: i32 = 38;
    pub const ATTRIBUTE_NOT_STARTED: i32 = 39;
    pub const ATTRIBUTE_NOT_FINISHED: i32 = 40;
    pub const ATTRIBUTE_WITHOUT_VALUE: i32 = 41;
    pub const ATTRIBUTE_REDEFINED: i32 = 42;
    pub const LITERAL_NOT_STARTED: i32 = 43;
    pub const LITERAL_NOT_FINISHED: i32 = 44;
    pub const COMMENT_NOT_FINISHED: i32 = 45;
    pub const PI_NOT_STARTED: i32 = 46;
    pub const PI_NOT_FINISHED: i32 = 47;
    pub const NOTATION_NOT_STARTED: i32 = 48;
    pub const NOTATION_NOT_FINISHED: i32 = 49;
    pub const ATTLIST_NOT_STARTED: i32 = 50;
    pub const ATTLIST_NOT_FINISHED: i32 = 51;
    pub const MIXED_NOT_STARTED: i32 = 52;
    pub const ELEMCONTENT_NOT_STARTED: i32 = 54;
    pub const ELEMCONTENT_NOT_FINISHED: i32 = 55;
    pub const XMLDECL_NOT_FINISHED: i32 = 57;
    pub const DOCTYPE_NOT_FINISHED: i32 = 61;
    pub const MISPLACED_CDATA_END: i32 = 62;
    pub const RESERVED_XML_NAME: i32 = 64;
    pub const SPACE_REQUIRED: i32 = 65;
    pub const SEPARATOR_REQUIRED: i32 = 66;
    pub const NMTOKEN_REQUIRED: i32 = 67;
    pub const NAME_REQUIRED: i32 = 68;
    pub const URI_REQUIRED: i32 = 70;
    pub const PUBID_REQUIRED: i32 = 71;
    pub const GT_REQUIRED: i32 = 73;
    pub const LTSLASH_REQUIRED: i32 = 74;
    pub const EQUAL_REQUIRED: i32 = 75;
    pub const TAG_NAME_MISMATCH: i32 = 76;
    pub const STANDALONE_VALUE: i32 = 78;
    pub const ENCODING_NAME: i32 = 79;
    pub const HYPHEN_IN_COMMENT: i32 = 80;
    pub const INVALID_ENCODING: i32 = 81;
    pub const VALUE_REQUIRED: i32 = 84;
    /// `XML_ERR_ENTITY_CHAR_ERROR`: a `&` or `%` in an entity value that
    /// starts no reference.
    pub const ENTITY_CHAR_ERROR: i32 = 87;
    pub const ENTITY_PE_INTERNAL: i32 = 88;
    pub const ENTITY_LOOP: i32 = 89;
    pub const INVALID_URI: i32 = 91;
    pub const URI_FRAGMENT: i32 = 92;
    pub const WAR_NS_URI: i32 = 99;
    pub const VERSION_MISSING: i32 = 96;
    pub const UNKNOWN_VERSION: i32 = 108;
    pub const NAME_TOO_LONG: i32 = 110;
    pub const USER_STOP: i32 = 111;
    /// `XML_I18N_CONV_FAILED`.
    pub const I18N_CONV_FAILED: i32 = 6003;
    pub const NS_ERR_XML_NAMESPACE: i32 = 200;
    pub const NS_ERR_UNDEFINED_NAMESPACE: i32 = 201;
    pub const NS_ERR_QNAME: i32 = 202;
    pub const NS_ERR_ATTRIBUTE_REDEFINED: i32 = 203;
    pub const NS_ERR_COLON: i32 = 205;
    pub const DTD_DUP_TOKEN: i32 = 541;
    /// `XML_ERR_PEREF_IN_INT_SUBSET`: a PE reference inside a declaration
    /// of the internal subset.
    pub const PEREF_IN_INT_SUBSET: i32 = 21;
    /// compat.c: the external entity handler returned false.
    pub const EXTERNAL_ENTITY_HANDLING: i32 = 21;
}

/// The bytes [`Core::idle_byte`] looks at more closely: they end markup,
/// start it, change the remembered `<`/`>`, start a reference (the first
/// byte of a text decides how long it waits) or are carriage returns.
static IDLE_SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    t[b'<' as usize] = true;
    t[b'&' as usize] = true;
    t[b'>' as usize] = true;
    t[b'"' as usize] = true;
    t[b'\'' as usize] = true;
    t[b'\r' as usize] = true;
    t
};

/// Which bytes [`Core::idle_byte`] may take without the push loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Idle {
    /// None: errors, the end, a source encoding to convert, the prolog.
    #[default]
    No,
    /// Any but `>`: the parser waits inside markup.
    Markup,
    /// Text that [`Core::content_waits`] for.
    Content,
}

/// Severity of the last error raised (`ctxt->lastError.level`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    #[default]
    None,
    Warning,
    Error,
    Fatal,
}

/// libxml2's push parser states (`xmlParserInputState`), the ones the push
/// loop dispatches on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Start,
    Misc,
    Prolog,
    Dtd,
    StartTag,
    Content,
    EndTag,
    CData,
    Epilog,
    Eof,
}

/// What `ctxt->instate` says while a sub-parser runs; compat.c's entity
/// lookup depends on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Sub {
    #[default]
    None,
    AttributeValue,
    EntityValue,
}

/// `ctxt->progressive` as the push loop uses it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Progressive {
    #[default]
    Off,
    On,
    Pi,
    Comment,
    Dtd,
    StartTag,
}

/// Entity kinds (`xmlEntityType`), those the core records: compat.c keeps
/// no unparsed entity, and parameter entities are parsed but not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EntityKind {
    InternalGeneral,
    ExternalGeneralParsed,
    Predefined,
}

/// A declared entity.
#[derive(Clone, Debug)]
struct Entity {
    kind: EntityKind,
    name: Vec<u8>,
    /// Shared, so that expanding it takes no copy.
    content: std::sync::Arc<[u8]>,
    system_id: Option<Vec<u8>>,
    public_id: Option<Vec<u8>>,
    /// `ent->checked`: 0 not yet expanded; else 2×(entities inside) | has '<'.
    checked: u64,
}

/// An open element.
#[derive(Clone, Debug)]
struct OpenTag {
    /// The qualified name as written (SAX1) or the local name (SAX2).
    name: Vec<u8>,
    prefix: Option<Vec<u8>>,
    /// A binding in scope as long as the element: never copied.
    uri: Option<NsUri>,
    /// Namespace bindings this element pushed.
    ns_count: usize,
}

/// Attribute default declared by ATTLIST (SAX2 only).
#[derive(Clone, Debug)]
struct DefaultAttr {
    prefix: Option<Vec<u8>>,
    local: Vec<u8>,
    value: Vec<u8>,
}

/// One document being parsed, fed in chunks: libxml2's parser context
/// (`xmlParserCtxt`), its state at the top and the rest in parts by role.
#[derive(Debug, Default)]
#[allow(clippy::struct_excessive_bools)] // libxml2's parser context flags
pub(crate) struct Core<'a> {
    namespace_separator: Option<u8>,
    installed: HandlerSet,
    /// `XML_PARSE_HUGE` (PHP 8.4's `XML_OPTION_PARSE_HUGE`): libxml2's
    /// size limits raised, its entity amplification checks off.
    huge: bool,

    // --- parser state ---
    state: State,
    sub: Sub,
    progressive: Progressive,
    check_index: usize,
    error_code: i32,
    disable_sax: bool,
    well_formed: bool,
    last_level: Level,
    halted: bool,
    started: bool,
    names: Vec<OpenTag>,
    /// Namespace bindings in scope.
    ns: Namespaces,
    /// `&name;` the default handler gets while an attribute value is parsed
    /// (compat.c's getEntity), sent before the start tag's events.
    pending_default_refs: Vec<Vec<u8>>,

    /// The input buffer, cursor and position.
    input: Input<'a>,
    /// How far ahead the push loop has looked.
    lookahead: Lookahead,
    /// What the DTD declared.
    dtd: Dtd,
    /// Entity expansion, counted against libxml2's limits.
    expansion: Expansion,
    /// Buffers reused from one construct to the next.
    pools: Pools,
}

/// The input: libxml2's `xmlParserInput` and the conversion in front of it.
#[derive(Debug)]
struct Input<'a> {
    /// Decoded (UTF-8) input from libxml2's `base` on: the caller's final
    /// chunk where it lies when it needs no conversion
    /// ([`Core::parse_final_borrowed`]), else a buffer of the parser's own.
    buf: Cow<'a, [u8]>,
    /// Cursor in `buf`.
    cur: usize,
    /// `input->consumed`: bytes dropped before `buf[0]`.
    consumed: u64,
    line: u64,
    col: u64,
    /// `ctxt->charset` is still UTF-8 (an encoding error switches to Latin-1).
    utf8: bool,
    /// Source decoding state.
    enc: encoding::Decoder,
    enc_error_reported: bool,
    pending_enc_error: bool,
}

impl Default for Input<'_> {
    fn default() -> Self {
        Self {
            buf: Cow::Owned(Vec::new()),
            cur: 0,
            consumed: 0,
            line: 1,
            col: 1,
            utf8: true,
            enc: encoding::Decoder::default(),
            enc_error_reported: false,
            pending_enc_error: false,
        }
    }
}

/// The push loop's lookahead: libxml2's `xmlParseGetLasts` kept
/// incrementally, quick-xml's resumable start-tag scanner, and what
/// one-byte feeding may skip.
#[derive(Debug, Default)]
struct Lookahead {
    last_lt: Option<usize>,
    gt_after_lt: Option<usize>,
    gt_before_lt: Option<usize>,
    last_gt_any: Option<usize>,
    gt_scan: quick_xml::parser::ElementParser,
    /// Where libxml2's next internal-subset end scan, a rescan from the
    /// cursor, can resume without changing its outcome, and the quote open
    /// there.
    dtd_rescan: Option<(usize, u8)>,
    /// What one-byte feeding may skip (kept by `parse`).
    idle: Idle,
    /// In [`Idle::Content`] with text pending: the buffer length below
    /// which a byte other than `<` only waits (0 for none).
    idle_until: usize,
    /// The buffer length below which any byte but `<`, `>`, a quote or a
    /// carriage return is only appended (0 for none, and always 0 unless
    /// `idle_ok`), and the result of such a call.
    idle_limit: usize,
    idle_ok: bool,
}

/// The DTD's declarations and what they decide.
#[derive(Debug)]
struct Dtd {
    in_subset: u8,
    standalone: i32,
    has_external_subset: bool,
    has_pe_refs: bool,
    entities: HashMap<Vec<u8>, Entity>,
    defaults: HashMap<Vec<u8>, Vec<DefaultAttr>>,
    /// Attributes declared with a non-CDATA type: (element, attribute).
    special: HashSet<(Vec<u8>, Vec<u8>)>,
}

impl Default for Dtd {
    fn default() -> Self {
        Self {
            in_subset: 0,
            standalone: -1,
            has_external_subset: false,
            has_pe_refs: false,
            entities: HashMap::new(),
            defaults: HashMap::new(),
            special: HashSet::new(),
        }
    }
}

/// Entity expansion so far (`ctxt->nbentities`, `ctxt->depth`).
#[derive(Debug, Default)]
struct Expansion {
    nb_entities: u64,
    depth: u32,
}

/// Allocations reused from one construct to the next.
#[derive(Debug, Default)]
struct Pools {
    /// Reused buffer of `xmlParseCharDataComplex`'s pieces.
    text_buf: Vec<u8>,
    /// Reused buffer of `xmlParseAttValueComplex`.
    value_buf: Vec<u8>,
    /// The attributes of the SAX1 start tag being parsed (reused; taken
    /// out while it is parsed).
    atts: Option<Attributes>,
    /// Allocations of element names whose elements have ended (SAX1).
    name_pool: Vec<Vec<u8>>,
    /// Reused buffer of a comment's text or a PI's target and data, and of
    /// what the default handler gets for them (taken out while used).
    markup_buf: Vec<u8>,
    /// Reused buffer of what the default handler gets for a tag or an
    /// entity reference (taken out while used).
    default_buf: Vec<u8>,
    /// Reused buffer of a SAX2 element's qualified name (taken out while
    /// used).
    qname_buf: Vec<u8>,
    /// Reused buffer of a SAX2 start tag's qualified attribute names, one
    /// after the other (taken out while used).
    att_names_buf: Vec<u8>,
    /// The attributes of the SAX2 start tag being parsed (reused; taken
    /// out while it is parsed).
    ns_atts: Vec<NsAttr>,
    /// The duplicate check of a SAX2 start tag with many attributes
    /// (taken out while used).
    clashes: content::Clashes,
    /// Where each qualified attribute name of a SAX2 start tag with many
    /// attributes ends in `att_names_buf` (taken out while used).
    att_name_ends: Vec<usize>,
    /// The allocation of the attribute list a start tag with many
    /// attributes hands to the handler (taken out while used; see
    /// [`reuse_list`]).
    att_list: Vec<(&'static [u8], &'static [u8])>,
    /// The attribute names of recent plain start tags, by a class of
    /// their element names (see [`content::RecentNames`]).
    recent_names: [content::RecentNames; content::RECENT_NAME_SLOTS],
}

/// Attributes of a start tag. Names and values are read where they stand
/// in the input buffer (which does not move while a start tag is parsed);
/// those that are not the input's bytes as they are (values with
/// references or normalized, names of other characters) are copied into
/// one reused buffer.
#[derive(Debug, Default)]
pub(super) struct Attributes {
    /// Names and values not taken from the input as they stand.
    bytes: Vec<u8>,
    /// (name, value) of each attribute.
    spans: Vec<(Piece, Piece)>,
    /// The names so far, for libxml2's attribute-redefined check: the
    /// filter of their classes here, the set that searches them boxed (the
    /// list is moved in and out of the pool at each start tag).
    seen: u64,
    names: Box<KeySet>,
}

/// Where a name or value of [`Attributes`] is: a range of the input buffer
/// or of the attributes' own bytes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Piece {
    Input(usize, usize),
    Own(usize, usize),
}

impl Piece {
    #[inline]
    fn get<'a>(self, input: &'a [u8], own: &'a [u8]) -> &'a [u8] {
        match self {
            Piece::Input(s, e) => &input[s..e],
            Piece::Own(s, e) => &own[s..e],
        }
    }
}

impl Attributes {
    fn clear(&mut self) {
        self.bytes.clear();
        self.spans.clear();
        self.seen = 0;
        self.names.clear();
    }

    /// Whether `name` is one of the names so far; if not, it is counted as
    /// seen (the caller adds it).
    #[inline]
    fn contains_name(&mut self, input: &[u8], name: Piece) -> bool {
        let name_bytes = name.get(input, &self.bytes);
        let (spans, bytes) = (&self.spans, &self.bytes);
        self.names
            .find_or_add_with(
                &mut self.seen,
                || name_bytes,
                KeySet::class(name_bytes),
                spans.len(),
                |k| spans[k].0.get(input, bytes),
            )
            .is_some()
    }

    /// [`contains_name`](Self::contains_name) of the name at
    /// `input[start..end]`, whose [`KeySet::class`] is `class`.
    #[inline(always)]
    fn add_new_name(&mut self, input: &[u8], start: usize, end: usize, class: u64) -> bool {
        let name_bytes = || &input[start..end];
        let (spans, bytes) = (&self.spans, &self.bytes);
        self.names
            .find_or_add_with(&mut self.seen, name_bytes, class, spans.len(), |k| {
                spans[k].0.get(input, bytes)
            })
            .is_some()
    }

    #[inline]
    fn len(&self) -> usize {
        self.spans.len()
    }

    #[inline]
    fn name<'a>(&'a self, input: &'a [u8], k: usize) -> &'a [u8] {
        self.spans[k].0.get(input, &self.bytes)
    }

    #[inline]
    fn value<'a>(&'a self, input: &'a [u8], k: usize) -> &'a [u8] {
        self.spans[k].1.get(input, &self.bytes)
    }
}

/// An empty list with the allocation of `list`, for strings of another
/// lifetime: the attribute list of a start tag with many attributes is
/// kept from one tag to the next without its borrows.
fn reuse_list<'a, 'b>(mut list: Vec<(&'a [u8], &'a [u8])>) -> Vec<(&'b [u8], &'b [u8])> {
    list.clear();
    // collected in place (same layout): the allocation is kept
    list.into_iter().map(|_| (&[][..], &[][..])).collect()
}

/// The most attributes [`HeldAttributes`] hands over.
pub(crate) const HELD_ATTRIBUTES: usize = 16;

/// A start tag's attributes (at most [`HELD_ATTRIBUTES`]) where the core
/// holds them, for [`Sax::start_element_held`]: a sink that knows the
/// tag's list of names takes the values alone, without the list of pairs
/// built for it.
#[derive(Clone, Copy)]
pub(crate) struct HeldAttributes<'a> {
    input: &'a [u8],
    atts: &'a Attributes,
}

impl<'a> HeldAttributes<'a> {
    /// How many there are.
    pub(crate) fn len(&self) -> usize {
        self.atts.len()
    }

    /// The value of attribute `k`.
    #[inline]
    pub(crate) fn value(&self, k: usize) -> &'a [u8] {
        self.atts.value(self.input, k)
    }

    /// Appends the value of attribute `k` to `out`: a short value as a
    /// fixed-size copy of its buffer's 16 bytes (the closing quote and what
    /// follows, mostly), cut back ([`content::append_short`]).
    #[inline]
    pub(crate) fn append_value(&self, k: usize, out: &mut Vec<u8>) {
        let (start, end, buf) = match self.atts.spans[k].1 {
            Piece::Input(s, e) => (s, e, self.input),
            Piece::Own(s, e) => (s, e, &self.atts.bytes[..]),
        };
        content::append_short(out, buf, start, end);
    }

    /// `f` of the attributes as a list of pairs on the stack.
    #[inline]
    pub(crate) fn with_pairs<R>(&self, f: impl FnOnce(&[Attribute<'a>]) -> R) -> R {
        match self.len() {
            0..=4 => self.with_list::<4, R>(f),
            5..=12 => self.with_list::<12, R>(f),
            _ => self.with_list::<HELD_ATTRIBUTES, R>(f),
        }
    }

    /// [`with_pairs`](Self::with_pairs) in an array of `N` (at least as
    /// many as the attributes).
    #[inline]
    fn with_list<const N: usize, R>(&self, f: impl FnOnce(&[Attribute<'a>]) -> R) -> R {
        let n = self.len();
        let mut list: [Attribute<'a>; N] = [(&[], &[]); N];
        for (k, slot) in list[..n].iter_mut().enumerate() {
            *slot = (
                self.atts.name(self.input, k),
                self.atts.value(self.input, k),
            );
        }
        f(&list[..n])
    }
}

impl Core<'static> {
    /// [`parse`](Core::parse) of a final chunk that needs no copy: when
    /// nothing is buffered and the input needs no conversion, the push
    /// loop reads the caller's chunk where it lies, as
    /// [`parse_final_owned`](Core::parse_final_owned) reads a chunk given
    /// away. What the parser keeps afterwards is its own: the input left
    /// is copied only if a later call could read it.
    pub(crate) fn parse_final_borrowed(
        &mut self,
        sink: &mut impl Sax,
        installed: HandlerSet,
        chunk: &[u8],
    ) -> bool {
        #[cfg(test)]
        if COPY_FINAL_CHUNKS.get() {
            return self.parse(sink, installed, chunk, true);
        }
        if !self.takes_whole(chunk) {
            return self.parse(sink, installed, chunk, true);
        }
        #[cfg(test)]
        TAKEN_WHERE_IT_LIES.set(TAKEN_WHERE_IT_LIES.get() + 1);
        let mut core: Core<'_> = std::mem::take(self);
        core.input.buf = Cow::Borrowed(chunk);
        core.lasts_append(0);
        let ok = core.parse(sink, installed, &[], true);
        *self = core.into_owned();
        ok
    }
}

impl Core<'_> {
    /// The parser with an input buffer of its own. Once the document has
    /// ended (or an error stopped it), no call reads the input again, and
    /// only the position is kept.
    fn into_owned(self) -> Core<'static> {
        let Core {
            namespace_separator,
            installed,
            huge,
            state,
            sub,
            progressive,
            check_index,
            error_code,
            disable_sax,
            well_formed,
            last_level,
            halted,
            started,
            names,
            ns,
            pending_default_refs,
            input,
            lookahead,
            dtd,
            expansion,
            pools,
        } = self;
        let Input {
            buf,
            mut cur,
            mut consumed,
            line,
            col,
            utf8,
            enc,
            enc_error_reported,
            pending_enc_error,
        } = input;
        let buf = if state == State::Eof || (error_code != 0 && disable_sax) {
            consumed += cur as u64;
            cur = 0;
            Vec::new()
        } else {
            buf.into_owned()
        };
        Core {
            namespace_separator,
            installed,
            huge,
            state,
            sub,
            progressive,
            check_index,
            error_code,
            disable_sax,
            well_formed,
            last_level,
            halted,
            started,
            names,
            ns,
            pending_default_refs,
            input: Input {
                buf: Cow::Owned(buf),
                cur,
                consumed,
                line,
                col,
                utf8,
                enc,
                enc_error_reported,
                pending_enc_error,
            },
            lookahead,
            dtd,
            expansion,
            pools,
        }
    }
}

impl Core<'_> {
    /// A parser; with `Some(sep)` namespace-aware (`xml_parser_create_ns`),
    /// joining URI and local name with the byte `sep`.
    pub(crate) fn new(namespace_separator: Option<u8>) -> Self {
        Self {
            namespace_separator,
            ..Self::default()
        }
    }

    /// Sets or clears `XML_PARSE_HUGE` in the parser's options, as PHP 8.4's
    /// `xml_parser_set_option(..., XML_OPTION_PARSE_HUGE, ...)` does: it
    /// applies from the next chunk on.
    pub(crate) fn set_huge(&mut self, on: bool) {
        self.huge = on;
    }

    /// Whether `XML_PARSE_HUGE` is set.
    pub(crate) fn huge(&self) -> bool {
        self.huge
    }

    /// Feeds one chunk, as `XML_Parse(parser, chunk, len, is_final)`:
    /// returns `true` (PHP 1) or `false` (PHP 0) once an error is reported.
    pub(crate) fn parse(
        &mut self,
        sink: &mut impl Sax,
        installed: HandlerSet,
        chunk: &[u8],
        is_final: bool,
    ) -> bool {
        self.installed = installed;
        let mut ret = match (chunk, is_final) {
            (b">", false) => self
                .parse_tag_close(sink)
                .unwrap_or_else(|| self.parse_chunk(sink, chunk, is_final)),
            (b"<", false) => self
                .parse_text_end(sink)
                .unwrap_or_else(|| self.parse_chunk(sink, chunk, is_final)),
            _ => self.parse_chunk(sink, chunk, is_final),
        };
        if !self.halted && sink.stop_requested() {
            // the last event of the call asked to stop
            self.stop();
            ret = err::USER_STOP;
        }
        if is_final {
            // The stack of a deep document is not needed past its end
            // (the caller may go on to build large results).
            self.names.shrink_to(self.names.len().max(64));
        }
        self.lookahead.idle = self.idle_mode();
        // `idle_until` only matters in text
        self.lookahead.idle_until = match self.lookahead.idle {
            Idle::Content => self.content_idle_until(),
            Idle::Markup | Idle::No => 0,
        };
        self.lookahead.idle_ok = self.last_level <= Level::Warning;
        self.set_idle_limit();
        ret == 0 && self.lookahead.idle_ok
    }

    /// [`parse`](Self::parse) of a final chunk the caller gives away: when
    /// nothing is buffered and the input needs no conversion, the chunk
    /// becomes the input buffer as it is, instead of being copied into it.
    pub(crate) fn parse_final_owned(
        &mut self,
        sink: &mut impl Sax,
        installed: HandlerSet,
        chunk: Vec<u8>,
    ) -> bool {
        if !self.takes_whole(&chunk) {
            return self.parse(sink, installed, &chunk, true);
        }
        // what `push_input` does with a chunk of UTF-8 on an empty buffer
        #[cfg(test)]
        GIVEN_AWAY.set(GIVEN_AWAY.get() + 1);
        self.input.buf = Cow::Owned(chunk);
        self.lasts_append(0);
        self.parse(sink, installed, &[], true)
    }

    /// Whether a final chunk can be parsed where it lies, as the input
    /// buffer itself: nothing is buffered, nothing is to convert, and
    /// the push loop will run ([`parse_final_owned`](Self::parse_final_owned)
    /// and [`parse_final_borrowed`](Core::parse_final_borrowed)).
    fn takes_whole(&self, chunk: &[u8]) -> bool {
        !chunk.is_empty()
            && self.input.buf.is_empty()
            && self.input.enc.mode == encoding::Mode::Utf8
            && !self.input.enc.has_pending()
            && self.state != State::Eof
            && !(self.error_code != 0 && self.disable_sax)
    }

    /// What [`idle_byte`](Self::idle_byte) may assume until the next
    /// `parse`: only a call of the push loop changes it.
    #[inline]
    fn idle_mode(&self) -> Idle {
        if self.error_code != 0
            || self.state == State::Eof
            || self.input.buf.is_empty()
            || self.input.pending_enc_error
            || self.input.enc.mode != encoding::Mode::Utf8
            || self.input.enc.has_pending()
        {
            Idle::No
        } else if matches!(
            self.state,
            State::StartTag | State::CData | State::EndTag | State::Dtd
        ) || matches!(
            self.progressive,
            Progressive::Comment | Progressive::Pi | Progressive::Dtd
        ) {
            Idle::Markup
        } else if self.state == State::Content && self.progressive != Progressive::Off {
            Idle::Content
        } else {
            Idle::No
        }
    }

    /// libxml2's error number, as `xml_get_error_code()` reports it.
    pub(crate) fn error_code(&self) -> i32 {
        self.error_code
    }

    /// `xml_get_current_line_number()`.
    pub(crate) fn line(&self) -> u64 {
        self.input.line
    }

    /// `xml_get_current_column_number()`.
    pub(crate) fn column(&self) -> u64 {
        self.input.col
    }

    /// `xml_get_current_byte_index()`.
    pub(crate) fn byte_index(&self) -> i64 {
        (self.input.consumed + self.input.cur as u64).cast_signed()
    }

    /// `xmlParseChunk`.
    fn parse_chunk(&mut self, sink: &mut impl Sax, chunk: &[u8], terminate: bool) -> i32 {
        if !terminate && let Some(ret) = self.parse_small_chunk(sink, chunk) {
            return ret;
        }
        if self.error_code != 0 && self.disable_sax {
            return self.error_code;
        }
        if self.state == State::Eof {
            return -1;
        }
        let mut data = chunk;
        let mut end_in_cr = false;
        if !data.is_empty() && !terminate && data[data.len() - 1] == b'\r' {
            end_in_cr = true;
            data = &data[..data.len() - 1];
        }
        loop {
            // xmldecl_done: while the declaration is not read, an encoding
            // found from the first bytes gets the chunk a first line at a time
            let mut remain: &[u8] = &[];
            if self.state == State::Start && self.input.enc.mode != encoding::Mode::Utf8 {
                let mut len = self.input.enc.start_limit;
                if self.input.enc.raw_consumed < len {
                    len -= self.input.enc.raw_consumed;
                }
                if data.len() > len {
                    (data, remain) = data.split_at(len);
                }
            }
            let old_avail = self.input.buf.len();
            if !data.is_empty() {
                // xmlParserInputBufferPush: a conversion that fails before it
                // converts anything fails the push, and xmlParseChunk then sets
                // errNo to XML_PARSER_EOF (-1) and halts
                if !self.push_input(data, true) && self.input.buf.len() == old_avail && self.started
                {
                    self.error_code = -1;
                    self.halt();
                    return -1;
                }
            } else if self.state != State::Eof && self.input.enc.has_pending() {
                // no data: what is left of the raw input is converted; a failure
                // there halts without touching errNo
                if !self.convert_input(&[], terminate) && self.input.buf.len() == old_avail {
                    self.halt();
                    return err::INVALID_ENCODING;
                }
            }
            let avail = self.input.buf.len();
            let new = &self.input.buf[old_avail.min(avail)..];
            if !remain.is_empty() {
                self.try_or_finish(sink, false);
            } else if (terminate
                // `old_avail` stays 0 in libxml2 when nothing was pushed (a
                // chunk of a lone `\r`, or an empty one)
                || old_avail == 0
                || data.is_empty()
                || avail == 0
                || avail > 10_000_000
                || self.check_transition(new))
                && !self.content_waits(terminate)
            {
                self.try_or_finish(sink, terminate);
            }
            if let Some(code) = self.chunk_checks() {
                return code;
            }
            if remain.is_empty() {
                break;
            }
            data = remain;
        }
        if end_in_cr {
            // xmlParserInputBufferPush: the converter is flushed
            self.push_input(b"\r", true);
        }
        if terminate {
            if terminate && self.input.enc.has_pending() {
                self.push_input(&[], true);
            }
            let cur_avail = self.input.buf.len() - self.input.cur;
            if self.state != State::Eof && self.state != State::Epilog {
                self.fatal(err::DOCUMENT_END);
            }
            if self.state == State::Epilog && cur_avail > 0 {
                self.fatal(err::DOCUMENT_END);
            }
            self.state = State::Eof;
        }
        if !self.well_formed {
            self.error_code
        } else {
            0
        }
    }

    /// One byte of UTF-8 input that is not the last (`xml_parse()` fed
    /// byte by byte), taken without the push loop when `xmlParseChunk`
    /// would only append it: inside markup without a `>`, or in text that
    /// [`content_waits`](Self::content_waits). Returns the call's result
    /// then; `None` (nothing done) when the byte needs the general path.
    #[inline]
    pub(crate) fn idle_byte(&mut self, b: u8) -> Option<bool> {
        // A borrowed chunk is the input only within a final call.
        let Cow::Owned(buf) = &mut self.input.buf else {
            return None;
        };
        if buf.len() < self.lookahead.idle_limit && !IDLE_SPECIAL[usize::from(b)] {
            buf.push(b);
            // `idle_limit` is 0 unless `idle_ok`: a constant the caller's
            // test of the result folds away.
            return Some(true);
        }
        // The usual bytes that need the push loop: a `>` in markup, a `<`
        // after a text (what `idle_byte_special` answers for them).
        match (b, self.lookahead.idle) {
            (b'>', Idle::Markup) => return None,
            (b'<', Idle::Content) if buf.len() > self.input.cur => return None,
            // A quote in markup only waits (as `idle_byte_special` finds),
            // moving the `>` scanner's quote state: config-like tags have
            // twenty a tag.
            (b'"' | b'\'', Idle::Markup) if buf.len() < 10_000_000 => {
                buf.push(b);
                self.lasts_append_quote(b);
                return Some(self.lookahead.idle_ok);
            }
            _ => {}
        }
        self.idle_byte_special(b)
    }

    /// [`idle_byte`](Self::idle_byte) for the bytes that need a closer
    /// look.
    #[inline(never)]
    fn idle_byte_special(&mut self, b: u8) -> Option<bool> {
        let Cow::Owned(buf) = &mut self.input.buf else {
            return None;
        };
        let len = buf.len();
        if self.lookahead.idle == Idle::Content
            && len == self.input.cur + 1
            && buf[self.input.cur] == b'<'
            && (b == b'/' || chars::is_ascii_name_start(b))
        {
            // The second byte of a tag: the push loop's CONTENT case would
            // move to END_TAG or START_TAG and wait there for a `>` (the
            // last `>` is before the `<`). Neither byte changes the
            // remembered `<` and `>`.
            buf.push(b);
            self.state = if b == b'/' {
                State::EndTag
            } else {
                State::StartTag
            };
            self.lookahead.idle = Idle::Markup;
            self.lookahead.idle_until = 0;
            self.set_idle_limit();
            return Some(self.lookahead.idle_ok);
        }
        // check_transition, then content_waits, on the buffer with `b`:
        // in text, fewer than two bytes pending, or a pending text short
        // of BIG_BUFFER_SIZE that starts with neither `<` nor `&`, is not
        // inside markup and gets no `<` (see `content_idle_until`)
        let waits = match self.lookahead.idle {
            Idle::No => false,
            Idle::Markup => b != b'>',
            Idle::Content => {
                len == self.input.cur || (len < self.lookahead.idle_until && b != b'<')
            }
        };
        if !waits || b == b'\r' || len >= 10_000_000 {
            return None;
        }
        buf.push(b);
        self.lasts_append_byte(len);
        if len == self.input.cur {
            // the first byte of the text: what follows it depends on it
            self.lookahead.idle_until = self.content_idle_until();
            self.set_idle_limit();
        }
        Some(self.lookahead.idle_ok)
    }

    /// Sets the `idle_limit` field: in markup any such byte waits, in text
    /// those that [`content_idle_until`](Self::content_idle_until) allows;
    /// none after an error (then each call's result goes through the
    /// closer look, which returns `idle_ok`).
    #[inline]
    fn set_idle_limit(&mut self) {
        let limit = match self.lookahead.idle {
            Idle::Markup => 10_000_000,
            Idle::Content => self.lookahead.idle_until.min(10_000_000),
            Idle::No => 0,
        };
        self.lookahead.idle_limit = if self.lookahead.idle_ok { limit } else { 0 };
    }

    /// For [`idle_byte`](Self::idle_byte) in text: while the buffer is
    /// shorter than this, a byte other than `<` leaves the text short of
    /// `XML_PARSER_BIG_BUFFER_SIZE` (with itself) and the loop waiting.
    /// 0 when the pending text starts with `<` or `&`, or a `<` after the
    /// cursor is known. With no text pending, the bound is the one of a
    /// text: a first byte `<` or `&` is in [`IDLE_SPECIAL`], and the
    /// closer look sets the bound again from it.
    #[inline]
    fn content_idle_until(&self) -> usize {
        let starts_text = self
            .input
            .buf
            .get(self.input.cur)
            .is_none_or(|&c| c != b'<' && c != b'&');
        if starts_text && self.lookahead.last_lt.is_none_or(|l| self.input.cur > l) {
            self.input.cur + input::BIG_BUFFER_SIZE - 1
        } else {
            0
        }
    }

    /// `xmlParseChunk` for a few bytes of UTF-8 that are not the last
    /// (byte-by-byte feeding), with nothing to convert and no pending
    /// error: the general path with its tests for other cases left out.
    /// `None` when it does not apply (nothing done).
    fn parse_small_chunk(&mut self, sink: &mut impl Sax, chunk: &[u8]) -> Option<i32> {
        let (&last, _) = chunk.split_last()?;
        if chunk.len() > 8
            || last == b'\r'
            || self.error_code != 0
            || self.state == State::Eof
            || self.input.buf.is_empty()
            || self.input.buf.len() + chunk.len() > 10_000_000
            || self.input.pending_enc_error
            || self.input.enc.mode != encoding::Mode::Utf8
            || self.input.enc.has_pending()
        {
            return None;
        }
        let Cow::Owned(buf) = &mut self.input.buf else {
            return None;
        };
        let old = buf.len();
        if let [b] = chunk {
            buf.push(*b);
        } else {
            buf.extend_from_slice(chunk);
        }
        self.lasts_append(old);
        if self.check_transition(chunk) && !self.content_waits(false) {
            self.try_or_finish(sink, false);
        }
        Some(self.small_chunk_result())
    }

    /// `xmlParseChunk` of a lone `>` that is not the last chunk, while a
    /// start or end tag waits for it (byte-by-byte feeding): once the `>`
    /// completes the tag, the push loop's `START_TAG` or `END_TAG` case runs
    /// at once, and the loop itself only if input is left after the tag
    /// (with none, the loop returns at its next turn). `None` (nothing
    /// done) when this does not apply.
    fn parse_tag_close(&mut self, sink: &mut impl Sax) -> Option<i32> {
        if self.lookahead.idle != Idle::Markup
            || !matches!(self.state, State::StartTag | State::EndTag)
            || self.progressive == Progressive::Off
            || self.input.buf.len() >= 10_000_000
        {
            return None;
        }
        let Cow::Owned(buf) = &mut self.input.buf else {
            return None;
        };
        let old = buf.len();
        buf.push(b'>');
        self.lasts_append_byte(old);
        if self.input.buf.len() - self.input.cur < 2 || self.input.buf[self.input.cur] != b'<' {
            self.try_or_finish(sink, false);
        } else {
            // the first steps of `try_or_finish`
            self.shrink_consumed();
            // `get_lasts`, when the `>` ended the tag
            let lastgt = match self.lookahead.gt_after_lt {
                Some(g) if self.lookahead.last_lt.is_some() => Some(g),
                _ => self.get_lasts().1,
            };
            if lastgt.is_some_and(|g| self.input.cur < g) {
                if self.state == State::StartTag {
                    self.start_tag_state(sink);
                } else {
                    self.end_tag_state(sink);
                }
                if self.state != State::Eof && self.input.cur < self.input.buf.len() {
                    self.try_or_finish(sink, false);
                }
            }
        }
        Some(self.small_chunk_result())
    }

    /// `xmlParseChunk` of a lone `<` that is not the last chunk, after a
    /// text that waits for it (byte-by-byte feeding): the push loop's
    /// `CONTENT` case hands the text on at once, and the loop itself runs
    /// only if more than the `<` is left after it (with the `<` alone, the
    /// loop returns at its next turn). `None` (nothing done) when this
    /// does not apply.
    fn parse_text_end(&mut self, sink: &mut impl Sax) -> Option<i32> {
        let old = self.input.buf.len();
        if self.lookahead.idle != Idle::Content
            || self.input.cur >= old
            || old >= 10_000_000
            || old - self.input.cur + 1 >= input::BIG_BUFFER_SIZE
            || matches!(self.input.buf[self.input.cur], b'<' | b'&')
        {
            return None;
        }
        let Cow::Owned(buf) = &mut self.input.buf else {
            return None;
        };
        buf.push(b'<');
        self.lasts_append_byte(old);
        // the first steps of `try_or_finish`, then its `CONTENT` case for
        // a text followed by the `<` just added
        self.shrink_consumed();
        let (test, cons) = (self.input.cur, self.input.consumed);
        self.check_index = 0;
        self.parse_char_data(sink);
        if self.state != State::Eof {
            if cons == self.input.consumed && test == self.input.cur {
                self.fatal(err::INTERNAL_ERROR);
                self.halt();
            } else if self.input.buf.len() - self.input.cur > 1
                && !(self.error_code != 0 && self.disable_sax)
            {
                self.try_or_finish(sink, false);
            }
        }
        Some(self.small_chunk_result())
    }

    /// The end of `xmlParseChunk` for a chunk that is not the last.
    #[inline]
    fn small_chunk_result(&mut self) -> i32 {
        if let Some(code) = self.chunk_checks() {
            return code;
        }
        if self.well_formed { 0 } else { self.error_code }
    }

    /// `xmlParseChunk`'s checks after parsing a chunk: the code to return
    /// at once (stopped, or SAX disabled by an error), and the halt on
    /// more than 10,000,000 bytes left unparsed.
    #[inline]
    fn chunk_checks(&mut self) -> Option<i32> {
        if self.state == State::Eof {
            return Some(self.error_code);
        }
        if (self.input.buf.len() - self.input.cur > 10_000_000 || self.input.cur > 10_000_000)
            && !self.huge
            && !self.halted
        {
            self.fatal(err::INTERNAL_ERROR);
            self.halt();
        }
        if self.error_code != 0 && self.disable_sax {
            return Some(self.error_code);
        }
        None
    }

    /// Whether `xmlParseTryOrFinish` would return at once without a
    /// change, in element content waiting for the end of a text: fewer
    /// than two bytes, or text that is short of `XML_PARSER_BIG_BUFFER_SIZE`
    /// with no `<` after it yet. (Its input shrink, the only thing it would
    /// do, waits for the next call; positions do not depend on it.) Feeding
    /// text byte by byte then costs little more than appending the bytes.
    fn content_waits(&self, terminate: bool) -> bool {
        if terminate
            || self.state != State::Content
            || self.progressive == Progressive::Off
            || self.input.pending_enc_error
            || self.error_code != 0
            // the loop's first step converts the raw input ICU or a
            // dropped sequence left
            || self.input.enc.icu_waits()
            || self.input.enc.waits_after_drop()
        {
            return false;
        }
        let avail = self.input.buf.len() - self.input.cur;
        if avail < 2 {
            return true;
        }
        if avail >= input::BIG_BUFFER_SIZE {
            return false;
        }
        let c = self.input.buf[self.input.cur];
        c != b'<' && c != b'&' && self.lookahead.last_lt.is_none_or(|l| self.input.cur > l)
    }

    /// `xmlParseCheckTransition`: whether new data can move the parser on.
    fn check_transition(&self, new: &[u8]) -> bool {
        #[allow(clippy::manual_contains)] // memchr's call costs more on a few bytes
        let has_gt = || {
            if new.len() < 16 {
                new.iter().any(|&b| b == b'>')
            } else {
                new.contains(&b'>')
            }
        };
        if self.state == State::StartTag
            || self.progressive == Progressive::Comment
            || self.state == State::CData
            || self.progressive == Progressive::Pi
            || self.state == State::EndTag
            || self.progressive == Progressive::Dtd
            || self.state == State::Dtd
        {
            return has_gt();
        }
        true
    }

    // --- error reporting (parser.c's xmlFatalErr & co) ---

    /// A fatal error: sets the number, stops SAX events.
    fn fatal(&mut self, code: i32) {
        if self.disable_sax && self.state == State::Eof {
            return;
        }
        self.error_code = code;
        self.last_level = Level::Fatal;
        self.well_formed = false;
        self.disable_sax = true;
    }

    /// A non-fatal error (`xmlErrMsgStr`, `xmlNsErr`, validity errors).
    fn error(&mut self, code: i32) {
        if self.disable_sax && self.state == State::Eof {
            return;
        }
        self.error_code = code;
        self.last_level = Level::Error;
    }

    /// A warning: does not change the error number.
    fn warning(&mut self) {
        if self.disable_sax && self.state == State::Eof {
            return;
        }
        self.last_level = Level::Warning;
    }

    /// `xmlHaltParser`: no more parsing, the input is released.
    fn halt(&mut self) {
        self.state = State::Eof;
        self.disable_sax = true;
        self.halted = true;
        self.input.consumed += 0;
        self.input.buf = Cow::Owned(Vec::new());
        self.input.cur = 0;
    }

    /// `xmlStopParser`.
    fn stop(&mut self) {
        self.halt();
        self.error_code = err::USER_STOP;
    }

    // --- compat.c's routing of SAX events to PHP's handlers ---

    fn emit_characters(&self, sink: &mut impl Sax, data: &[u8]) {
        if self.installed.character_data {
            sink.character_data(data);
        } else if self.installed.default {
            sink.default(data);
        }
    }

    /// The comment `buf[..]` to the default handler as `<!--text-->`,
    /// written after it in `buf` (no allocation once `buf` has grown).
    fn emit_comment(&self, sink: &mut impl Sax, buf: &mut Vec<u8>) {
        if self.installed.default {
            let text = buf.len();
            buf.extend_from_slice(b"<!--");
            buf.extend_from_within(..text);
            buf.extend_from_slice(b"-->");
            sink.default(&buf[text..]);
        }
    }

    /// The PI whose target is `buf[..target]` and whose data, if any, is
    /// the rest of `buf`: to its handler, or to the default handler as
    /// `<?target data?>` written after it in `buf`.
    fn emit_pi(&self, sink: &mut impl Sax, buf: &mut Vec<u8>, target: usize, has_data: bool) {
        if self.installed.processing_instruction {
            let (name, data) = buf.split_at(target);
            sink.processing_instruction(name, has_data.then_some(data));
        } else if self.installed.default {
            let end = buf.len();
            buf.extend_from_slice(b"<?");
            buf.extend_from_within(..target);
            buf.push(b' ');
            if has_data {
                buf.extend_from_within(target..end);
            } else {
                buf.extend_from_slice(b"(null)");
            }
            buf.extend_from_slice(b"?>");
            sink.default(&buf[end..]);
        }
    }

    /// SAX1 start tag.
    fn emit_start(
        &mut self,
        sink: &mut impl Sax,
        name: &[u8],
        atts: &Attributes,
        names: Option<NameList>,
    ) {
        if self.installed.element {
            let input = &self.input.buf;
            let held = HeldAttributes { input, atts };
            match atts.len() {
                0 => sink.start_element(name, &[]),
                1..=HELD_ATTRIBUTES => match names {
                    Some(names) => sink.start_element_held(name, held, names),
                    // the list of pairs on the stack
                    None => held.with_pairs(|list| sink.start_element_listed(name, list, None)),
                },
                n => {
                    let mut list = reuse_list(std::mem::take(&mut self.pools.att_list));
                    list.extend((0..n).map(|k| (atts.name(input, k), atts.value(input, k))));
                    sink.start_element_listed(name, &list, names);
                    self.pools.att_list = reuse_list(list);
                }
            }
        } else if self.installed.default {
            self.emit_default(sink, |core, d| {
                d.push(b'<');
                d.extend_from_slice(name);
                for k in 0..atts.len() {
                    d.push(b' ');
                    d.extend_from_slice(atts.name(&core.input.buf, k));
                    d.extend_from_slice(b"=\"");
                    d.extend_from_slice(atts.value(&core.input.buf, k));
                    d.push(b'"');
                }
                d.push(b'>');
            });
        }
    }

    /// SAX1 start tag without attributes.
    #[inline(always)]
    fn emit_start_bare(&mut self, sink: &mut impl Sax, name: &[u8]) {
        if self.installed.element {
            sink.start_element(name, &[]);
        } else if self.installed.default {
            self.emit_default(sink, |_, d| {
                d.push(b'<');
                d.extend_from_slice(name);
                d.push(b'>');
            });
        }
    }

    /// SAX1 end tag.
    #[inline(always)]
    fn emit_end(&mut self, sink: &mut impl Sax, name: &[u8]) {
        if self.installed.element {
            sink.end_element(name);
        } else if self.installed.default {
            self.emit_default(sink, |_, d| {
                d.extend_from_slice(b"</");
                d.extend_from_slice(name);
                d.push(b'>');
            });
        }
    }

    /// Builds what the default handler gets for a tag or a reference in a
    /// reused buffer and hands it over.
    pub(super) fn emit_default(
        &mut self,
        sink: &mut impl Sax,
        build: impl FnOnce(&Self, &mut Vec<u8>),
    ) {
        let mut d = std::mem::take(&mut self.pools.default_buf);
        d.clear();
        build(self, &mut d);
        sink.default(&d);
        self.pools.default_buf = d;
    }

    /// Appends the name the element handlers get for `local` in the
    /// namespace `uri` to `out` (`_qualify_namespace`).
    fn qualify_into(&self, out: &mut Vec<u8>, local: &[u8], uri: Option<&[u8]>) {
        if let Some(u) = uri {
            out.extend_from_slice(u);
            if let Some(sep) = self.namespace_separator
                && sep != 0
            {
                out.push(sep);
            }
        }
        out.extend_from_slice(local);
    }

    /// Appends the name the element handlers get for `local` in the
    /// namespace `uri` of the stack to `out`.
    fn qualify_ns_into(&self, out: &mut Vec<u8>, local: &[u8], uri: Option<NsUri>) {
        self.qualify_into(out, local, uri.map(|u| self.ns.uri(u)));
    }

    /// Appends a prefixed attribute's qualified name to `names`; where
    /// it ends there.
    fn qualify_prefixed(&self, names: &mut Vec<u8>, att: &NsAttr) -> usize {
        if att.prefix.is_some() {
            self.qualify_ns_into(names, &att.local, att.uri);
        }
        names.len()
    }

    /// A SAX2 start tag's event with its attribute list on the stack, in
    /// an array of `N` (at least as many as the attributes).
    fn start_ns_with_list<const N: usize>(
        &self,
        sink: &mut impl Sax,
        name: &[u8],
        names: &mut Vec<u8>,
        atts: &[NsAttr],
    ) {
        let n = atts.len();
        let mut ends = [0usize; N];
        for (a, end) in atts.iter().zip(ends.iter_mut()) {
            *end = self.qualify_prefixed(names, a);
        }
        let mut list: [(&[u8], &[u8]); N] = [(&[], &[]); N];
        for (k, slot) in list[..n].iter_mut().enumerate() {
            *slot = ns_att(names, &ends, atts, k);
        }
        sink.start_element(name, &list[..n]);
    }

    /// SAX2 start tag (`_start_element_handler_ns`, and
    /// `_start_namespace_decl_handler` for each binding from the
    /// `ns_from`th, those the tag declared).
    fn emit_start_ns(
        &mut self,
        sink: &mut impl Sax,
        local: &[u8],
        prefix: Option<&[u8]>,
        uri: Option<NsUri>,
        ns_from: usize,
        atts: &[NsAttr],
    ) {
        if ns_from < self.ns.len() && self.installed.start_namespace_decl {
            for k in ns_from..self.ns.len() {
                let (p, u) = self.ns.binding(k);
                sink.start_namespace_decl(p, u);
            }
        }
        if self.installed.element {
            let mut name = std::mem::take(&mut self.pools.qname_buf);
            name.clear();
            self.qualify_ns_into(&mut name, local, uri);
            // prefixed attribute names are qualified one after the other in
            // `names`; the others are the attribute's own name
            let mut names = std::mem::take(&mut self.pools.att_names_buf);
            names.clear();
            match atts.len() {
                0..=4 => self.start_ns_with_list::<4>(sink, &name, &mut names, atts),
                5..=16 => self.start_ns_with_list::<16>(sink, &name, &mut names, atts),
                _ => {
                    let mut ends = std::mem::take(&mut self.pools.att_name_ends);
                    ends.clear();
                    ends.extend(atts.iter().map(|a| self.qualify_prefixed(&mut names, a)));
                    let mut list = reuse_list(std::mem::take(&mut self.pools.att_list));
                    list.extend((0..atts.len()).map(|k| ns_att(&names, &ends, atts, k)));
                    sink.start_element(&name, &list);
                    self.pools.att_list = reuse_list(list);
                    self.pools.att_name_ends = ends;
                }
            }
            self.pools.att_names_buf = names;
            self.pools.qname_buf = name;
        } else if self.installed.default {
            self.emit_default(sink, |core, d| {
                d.push(b'<');
                if let Some(p) = prefix {
                    d.extend_from_slice(p);
                    d.push(b':');
                }
                d.extend_from_slice(local);
                for k in ns_from..core.ns.len() {
                    match core.ns.binding(k) {
                        (Some(p), _) => {
                            d.extend_from_slice(b" xmlns:");
                            d.extend_from_slice(p);
                        }
                        (None, _) => d.extend_from_slice(b" xmlns"),
                    }
                    d.extend_from_slice(b"=\"");
                    d.extend_from_slice(core.ns.binding(k).1);
                    d.push(b'"');
                }
                for a in atts {
                    d.push(b' ');
                    if let Some(p) = &a.prefix {
                        d.extend_from_slice(p);
                        d.push(b':');
                    }
                    d.extend_from_slice(&a.local);
                    d.extend_from_slice(b"=\"");
                    d.extend_from_slice(&a.value);
                    d.push(b'"');
                }
                d.push(b'>');
            });
        }
    }

    /// SAX2 end tag (`_end_element_handler_ns`).
    fn emit_end_ns(
        &mut self,
        sink: &mut impl Sax,
        local: &[u8],
        prefix: Option<&[u8]>,
        uri: Option<NsUri>,
    ) {
        if self.installed.element {
            let mut name = std::mem::take(&mut self.pools.qname_buf);
            name.clear();
            self.qualify_ns_into(&mut name, local, uri);
            sink.end_element(&name);
            self.pools.qname_buf = name;
        } else if self.installed.default {
            self.emit_default(sink, |_, d| {
                d.extend_from_slice(b"</");
                if let Some(p) = prefix {
                    d.extend_from_slice(p);
                    d.push(b':');
                }
                d.extend_from_slice(local);
                d.push(b'>');
            });
        }
    }
}

/// The `k`th attribute of a SAX2 start tag as the handler gets it: a
/// prefixed name is qualified in `names`, up to `ends[k]`.
fn ns_att<'a>(
    names: &'a [u8],
    ends: &[usize],
    atts: &'a [NsAttr],
    k: usize,
) -> (&'a [u8], &'a [u8]) {
    let a = &atts[k];
    let name: &[u8] = if a.prefix.is_some() {
        &names[if k == 0 { 0 } else { ends[k - 1] }..ends[k]]
    } else {
        &a.local
    };
    (name, &a.value)
}

/// A SAX2 attribute.
#[derive(Clone, Debug)]
struct NsAttr {
    local: Vec<u8>,
    prefix: Option<Vec<u8>>,
    uri: Option<NsUri>,
    value: Vec<u8>,
}
