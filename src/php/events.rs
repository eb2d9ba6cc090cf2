//! A pull-style reader over owned events, built on the push parser: read a
//! block, parse it, hand out the events it queued.

use std::collections::VecDeque;
use std::io::{self, Read};

use crate::php::array::Key;
use crate::php::errors::{Error, ParseError};
use crate::php::handler::{Handler, HandlerSet};
use crate::php::packed::{
    ExternalEntityRef, NamespaceDecl, NotationDecl, Packed, ProcessingInstruction,
    UnparsedEntityDecl,
};
use crate::php::parser::Parser;
use crate::php::start_tag::StartTag;

/// One handler call of PHP's xml extension, as an owned value.
///
/// Every string is what the PHP handler would get: in the parser's target
/// encoding, element and attribute names case-folded when
/// `XML_OPTION_CASE_FOLDING` is on, element names cut by
/// `XML_OPTION_SKIP_TAGSTART`. `None` stands for PHP's `false`.
///
/// Every event holds one buffer, whatever its number of strings (a start
/// tag's name and attributes in a [`StartTag`], a processing
/// instruction's target and data in a [`ProcessingInstruction`], a
/// declaration's names and ids in an [`UnparsedEntityDecl`] or a
/// [`NotationDecl`], and so on): reading owned events costs at most one
/// allocation per event, and none with
/// [`next_borrowed`](EventReader::next_borrowed), which reuses them.
/// [`StartTag::new`] (an [`Event`] by `into()`), [`Event::end`],
/// [`Event::text`] and the `new` and `with_` methods of the other types
/// make them, for example to compare with what the reader yields.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Event {
    /// The start element handler: a start tag or an empty-element tag,
    /// its name and attributes in one [`StartTag`].
    StartElement(StartTag),
    /// The end element handler (also after an empty-element tag).
    EndElement {
        /// The element name.
        name: Vec<u8>,
    },
    /// The character data handler: one piece of text, as the parser
    /// delivers it (text is often split, for example at entity references
    /// and line ends; join adjacent pieces if you need whole text nodes).
    CharacterData(Vec<u8>),
    /// The processing instruction handler: target and data in one
    /// [`ProcessingInstruction`].
    ProcessingInstruction(ProcessingInstruction),
    /// The default handler: comments, references to entities declared in
    /// the DTD (as `&name;`), and what no other handler in the
    /// [`HandlerSet`] takes. Delivered only if the set has `default`.
    Default(Vec<u8>),
    /// The unparsed entity declaration handler
    /// (`<!ENTITY name SYSTEM "..." NDATA notation>`), its strings in one
    /// [`UnparsedEntityDecl`].
    UnparsedEntityDecl(UnparsedEntityDecl),
    /// The notation declaration handler, its strings in one
    /// [`NotationDecl`].
    NotationDecl(NotationDecl),
    /// The external entity reference handler, its strings in one
    /// [`ExternalEntityRef`]. The reader answers `true` (the parse goes
    /// on), as a PHP handler returning `true` does.
    ExternalEntityRef(ExternalEntityRef),
    /// The start namespace declaration handler (parsers made by
    /// [`Parser::new_ns`] only), before the element that declares it:
    /// prefix and URI in one [`NamespaceDecl`].
    StartNamespaceDecl(NamespaceDecl),
    /// The end namespace declaration handler: PHP on libxml2 never calls
    /// it, so the reader never yields it; it exists so that a `match` can
    /// mirror PHP code that sets the handler.
    EndNamespaceDecl {
        /// The prefix.
        prefix: Option<Vec<u8>>,
    },
}

/// An [`Event::StartElement`].
impl From<StartTag> for Event {
    fn from(tag: StartTag) -> Self {
        Self::StartElement(tag)
    }
}

impl Event {
    /// An [`Event::EndElement`] of `name`.
    #[must_use]
    pub fn end(name: impl AsRef<[u8]>) -> Self {
        Self::EndElement {
            name: name.as_ref().to_vec(),
        }
    }

    /// An [`Event::CharacterData`] of `data`.
    #[must_use]
    pub fn text(data: impl AsRef<[u8]>) -> Self {
        Self::CharacterData(data.as_ref().to_vec())
    }

    /// Calls the [`Handler`] method this event stands for, as the parser
    /// would have. Useful to feed events to code written for handlers, for
    /// example [`report::Trace`](crate::report::Trace).
    ///
    /// Returns what [`Handler::external_entity_ref`] answered for an
    /// [`Event::ExternalEntityRef`], `true` for any other event. A start
    /// tag with attributes builds PHP's array for the call
    /// ([`StartTag::to_attribute_array`]).
    ///
    /// ```
    /// use phpxml::{Event, Handler, Key, StartTag};
    ///
    /// #[derive(Default)]
    /// struct Count(usize);
    /// impl Handler for Count {
    ///     fn start_element(&mut self, _name: &[u8], _attributes: &[(Key, Vec<u8>)]) {
    ///         self.0 += 1;
    ///     }
    /// }
    ///
    /// let mut count = Count::default();
    /// Event::from(StartTag::new("A", [("ID", "1")])).dispatch(&mut count);
    /// assert_eq!(count.0, 1);
    /// ```
    pub fn dispatch<H: Handler + ?Sized>(&self, handler: &mut H) -> bool {
        match self {
            Self::StartElement(tag) if tag.attribute_count() == 0 => {
                handler.start_element(tag.name(), &[]);
            }
            Self::StartElement(tag) => handler.start_element(tag.name(), &tag.to_attribute_array()),
            Self::EndElement { name } => handler.end_element(name),
            Self::CharacterData(data) => handler.character_data(data),
            Self::ProcessingInstruction(pi) => {
                handler.processing_instruction(pi.target(), pi.data());
            }
            Self::Default(data) => handler.default_data(data),
            Self::UnparsedEntityDecl(decl) => handler.unparsed_entity_decl(
                decl.name(),
                decl.base(),
                decl.system_id(),
                decl.public_id(),
                decl.notation(),
            ),
            Self::NotationDecl(decl) => {
                handler.notation_decl(decl.name(), decl.base(), decl.system_id(), decl.public_id());
            }
            Self::ExternalEntityRef(reference) => {
                return handler.external_entity_ref(
                    reference.open_entity_names(),
                    reference.base(),
                    reference.system_id(),
                    reference.public_id(),
                );
            }
            Self::StartNamespaceDecl(decl) => {
                handler.start_namespace_decl(decl.prefix(), decl.uri());
            }
            Self::EndNamespaceDecl { prefix } => handler.end_namespace_decl(prefix.as_deref()),
        }
        true
    }
}

/// The handler behind [`EventReader`]: queues every call as an [`Event`].
#[derive(Debug)]
struct Collector {
    set: HandlerSet,
    queue: VecDeque<Event>,
    /// Events [`EventReader::next_borrowed`] handed out and took back,
    /// whose buffers the next ones of their kind reuse.
    spare: Spare,
    /// Text is coalesced: each run of character data is queued as one
    /// empty [`Event::CharacterData`] whose bytes wait in `texts`.
    coalesce: bool,
    /// The text of the queued runs, one after another (kept between
    /// blocks for its allocation).
    texts: Vec<u8>,
    /// The length of each queued run in `texts`, in queue order.
    text_lens: VecDeque<usize>,
    /// Where the first queued run begins in `texts`.
    texts_at: usize,
}

/// Spent events of the frequent kinds, kept for their allocations.
#[derive(Debug, Default)]
struct Spare {
    starts: Vec<Event>,
    ends: Vec<Event>,
    texts: Vec<Event>,
    /// The buffers of the other events (default data, processing
    /// instructions, declarations, external entity references).
    buffers: Vec<Vec<u8>>,
}

impl Spare {
    /// Keeps `event`'s allocations, if of a frequent kind and not of a
    /// joined text larger than a block (which is not kept alive).
    fn recycle(&mut self, event: Event) {
        const LIMIT: usize = EventReader::<()>::DEFAULT_BLOCK_SIZE;
        let buffer = match event {
            Event::ProcessingInstruction(ProcessingInstruction(p))
            | Event::StartNamespaceDecl(NamespaceDecl(p)) => p.into_buffer(),
            Event::NotationDecl(NotationDecl(p))
            | Event::ExternalEntityRef(ExternalEntityRef(p)) => p.into_buffer(),
            Event::UnparsedEntityDecl(UnparsedEntityDecl(p)) => p.into_buffer(),
            Event::Default(data) => data,
            event => return self.recycle_single(event),
        };
        if buffer.capacity() <= LIMIT {
            self.buffers.push(buffer);
        }
    }

    /// [`recycle`](Self::recycle) of an event of one buffer.
    fn recycle_single(&mut self, event: Event) {
        let pool = match &event {
            Event::StartElement(tag) if tag.capacity() <= EventReader::<()>::DEFAULT_BLOCK_SIZE => {
                &mut self.starts
            }
            Event::EndElement { .. } => &mut self.ends,
            Event::CharacterData(text)
                if text.capacity() <= EventReader::<()>::DEFAULT_BLOCK_SIZE =>
            {
                &mut self.texts
            }
            _ => return,
        };
        pool.push(event);
    }

    /// `strings` in a spare buffer, or in a new one.
    fn packed<const N: usize>(&mut self, strings: [Option<&[u8]>; N]) -> Packed<N> {
        Packed::in_buffer(self.buffers.pop().unwrap_or_default(), strings)
    }
}

/// `to` becomes a copy of `from`, in `to`'s allocation.
fn refill(to: &mut Vec<u8>, from: &[u8]) {
    to.clear();
    to.extend_from_slice(from);
}

impl Handler for Collector {
    fn installed(&self) -> HandlerSet {
        self.set
    }

    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        let tag = match self.spare.starts.pop() {
            Some(Event::StartElement(mut spare)) => {
                spare.refill(name, attributes);
                spare
            }
            _ => StartTag::from_handler_call(name, attributes),
        };
        self.queue.push_back(Event::StartElement(tag));
    }

    fn end_element(&mut self, name: &[u8]) {
        let name = match self.spare.ends.pop() {
            Some(Event::EndElement { name: mut spare }) => {
                refill(&mut spare, name);
                spare
            }
            _ => name.to_vec(),
        };
        self.queue.push_back(Event::EndElement { name });
    }

    fn character_data(&mut self, data: &[u8]) {
        if self.coalesce {
            // no allocation per piece: the run's event is made when it is
            // yielded
            if let (Some(Event::CharacterData(_)), Some(len)) =
                (self.queue.back(), self.text_lens.back_mut())
            {
                *len += data.len();
            } else {
                self.queue.push_back(Event::CharacterData(Vec::new()));
                self.text_lens.push_back(data.len());
            }
            self.texts.extend_from_slice(data);
            return;
        }
        let data = match self.spare.texts.pop() {
            Some(Event::CharacterData(mut spare)) => {
                refill(&mut spare, data);
                spare
            }
            _ => data.to_vec(),
        };
        self.queue.push_back(Event::CharacterData(data));
    }

    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        let pi = ProcessingInstruction(self.spare.packed([Some(target), data]));
        self.queue.push_back(Event::ProcessingInstruction(pi));
    }

    fn default_data(&mut self, data: &[u8]) {
        let mut buffer = self.spare.buffers.pop().unwrap_or_default();
        refill(&mut buffer, data);
        self.queue.push_back(Event::Default(buffer));
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        let strings = [Some(name), base, system_id, public_id, notation];
        let decl = UnparsedEntityDecl(self.spare.packed(strings));
        self.queue.push_back(Event::UnparsedEntityDecl(decl));
    }

    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
        let decl = NotationDecl(self.spare.packed([Some(name), base, system_id, public_id]));
        self.queue.push_back(Event::NotationDecl(decl));
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        let strings = [Some(open_entity_names), base, system_id, public_id];
        let reference = ExternalEntityRef(self.spare.packed(strings));
        self.queue.push_back(Event::ExternalEntityRef(reference));
        true
    }

    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        let decl = NamespaceDecl(self.spare.packed([Some(uri), prefix]));
        self.queue.push_back(Event::StartNamespaceDecl(decl));
    }

    fn end_namespace_decl(&mut self, prefix: Option<&[u8]>) {
        self.queue.push_back(Event::EndNamespaceDecl {
            prefix: prefix.map(<[u8]>::to_vec),
        });
    }
}

/// Where the reader is.
#[derive(Debug)]
enum State {
    /// More input may come.
    Reading,
    /// The queue holds the last events; then this error.
    Failed(Error),
    /// The queue holds the last events; then the end.
    Finished,
    /// Nothing more.
    Done,
}

/// A pull parser: an [`Iterator`] over the [`Event`]s of a document read
/// from any [`Read`], with PHP's semantics, made by [`Parser::events`].
///
/// The reader reads the input in blocks ([`DEFAULT_BLOCK_SIZE`](EventReader::DEFAULT_BLOCK_SIZE) unless
/// [`block_size`](EventReader::block_size) says otherwise), feeds each
/// block to the push parser as PHP's `xml_parse()` and hands out the events
/// that block produced before reading on, so memory stays bounded by the
/// block size (and by what one block can expand to), not by the document.
/// It reads one block ahead so that the last block is fed with
/// `is_final = true`, as in PHP's classic loop
/// `xml_parse($parser, $data, feof($fp))`: a document that fits in one
/// block is parsed exactly as `xml_parse($parser, $document, true)`.
///
/// Which events come, and in what form, depends on the [`HandlerSet`]
/// (default [`HandlerSet::COMMON`]), exactly as with handlers: see
/// [`with_handlers`](EventReader::with_handlers).
///
/// After the last event of a malformed document the iterator yields one
/// `Err(`[`Error::Parse`]`)` with PHP's error code and position; an input
/// that cannot be read yields `Err(`[`Error::Io`]`)`. Either ends the
/// iteration.
///
/// ```
/// use phpxml::{Event, Parser, StartTag};
///
/// let doc = &b"<feed><title>caf\xC3\xA9</title></feed>"[..];
/// let parser = Parser::new(Some("ISO-8859-1")).unwrap();
/// let events: Vec<Event> = parser
///     .events(doc)
///     .coalesce_text(true)
///     .collect::<Result<_, _>>()
///     .unwrap();
/// assert_eq!(events, [
///     StartTag::bare("FEED").into(),
///     StartTag::bare("TITLE").into(),
///     Event::text(b"caf\xE9"),
///     Event::end("TITLE"),
///     Event::end("FEED"),
/// ]);
/// ```
///
/// A malformed document:
///
/// ```
/// use phpxml::{Error, Event, Parser};
///
/// let mut events = Parser::new(None).unwrap().events(&b"<a><b></a>"[..]);
/// assert!(matches!(events.next(), Some(Ok(Event::StartElement { .. }))));
/// assert!(matches!(events.next(), Some(Ok(Event::StartElement { .. }))));
/// match events.next() {
///     Some(Err(Error::Parse(e))) => assert_eq!(e.message(), "Mismatched tag"),
///     other => panic!("{other:?}"),
/// }
/// assert!(events.next().is_none());
/// ```
#[derive(Debug)]
pub struct EventReader<R> {
    parser: Parser,
    input: R,
    collector: Collector,
    block_size: usize,
    /// The block read but not yet fed; `None` before the first read.
    pending: Option<Vec<u8>>,
    ahead: Vec<u8>,
    state: State,
    /// The event [`next_borrowed`](Self::next_borrowed) lent last.
    lent: Option<Event>,
}

impl Parser {
    /// Turns the parser into a pull parser over `input`: an iterator of
    /// owned [`Event`]s. Options set on the parser apply.
    ///
    /// ```
    /// use phpxml::{Event, Parser};
    ///
    /// let mut parser = Parser::new(None).unwrap();
    /// parser.set_case_folding(false);
    /// let names: Vec<Vec<u8>> = parser
    ///     .events(&b"<a><b/></a>"[..])
    ///     .filter_map(|event| match event {
    ///         Ok(Event::StartElement(tag)) => Some(tag.name().to_vec()),
    ///         _ => None,
    ///     })
    ///     .collect();
    /// assert_eq!(names, [b"a".to_vec(), b"b".to_vec()]);
    /// ```
    pub fn events<R: Read>(self, input: R) -> EventReader<R> {
        EventReader {
            parser: self,
            input,
            collector: Collector {
                set: HandlerSet::COMMON,
                queue: VecDeque::new(),
                spare: Spare::default(),
                coalesce: false,
                texts: Vec::new(),
                text_lens: VecDeque::new(),
                texts_at: 0,
            },
            block_size: EventReader::<R>::DEFAULT_BLOCK_SIZE,
            pending: None,
            ahead: Vec::new(),
            state: State::Reading,
            lent: None,
        }
    }
}

impl<R> EventReader<R> {
    /// The block size the reader reads in unless told otherwise: 64 KiB.
    pub const DEFAULT_BLOCK_SIZE: usize = 64 * 1024;
}

impl<R: Read> EventReader<R> {
    /// Chooses which handlers count as set, as PHP code chooses which
    /// `xml_set_*_handler()` to call. This decides routing, not only which
    /// events come: with `default` set, references to entities declared in
    /// the DTD arrive as [`Event::Default`] (`&name;`) instead of being
    /// expanded; comments come only as [`Event::Default`]; without
    /// `external_entity_ref`, an external entity reference stops the parse
    /// with error 21. Default: [`HandlerSet::COMMON`].
    ///
    /// ```
    /// use phpxml::{Event, HandlerSet, Parser};
    ///
    /// let doc = &b"<a><!-- note --></a>"[..];
    /// let with_default = HandlerSet { default: true, ..HandlerSet::COMMON };
    /// let events = Parser::new(None).unwrap().events(doc).with_handlers(with_default);
    /// let comments: Vec<Event> = events.filter_map(Result::ok)
    ///     .filter(|e| matches!(e, Event::Default(_)))
    ///     .collect();
    /// assert_eq!(comments, [Event::Default(b"<!-- note -->".to_vec())]);
    /// ```
    ///
    /// # Panics
    ///
    /// If called after the first event was read: the routing of what was
    /// already parsed cannot change.
    #[must_use]
    pub fn with_handlers(mut self, set: HandlerSet) -> Self {
        assert!(
            self.pending.is_none(),
            "EventReader::with_handlers after reading began"
        );
        self.collector.set = set;
        self
    }

    /// Sets how many bytes are read and fed to the parser at a time.
    /// Default: [`DEFAULT_BLOCK_SIZE`](EventReader::DEFAULT_BLOCK_SIZE). Each block is filled completely
    /// (short reads are retried) unless the input ends, so the parser sees
    /// the same pieces as PHP fed with `str_split($data, $size)`.
    ///
    /// ```
    /// use phpxml::Parser;
    ///
    /// let doc = &b"<a>some text</a>"[..];
    /// let whole: Vec<_> = Parser::new(None).unwrap().events(doc).coalesce_text(true).collect();
    /// // Fed as "<a>s", "ome ", "text", "</a>": text comes in other pieces,
    /// // the same text once joined.
    /// let small: Vec<_> = Parser::new(None).unwrap().events(doc).block_size(4).coalesce_text(true).collect();
    /// assert_eq!(format!("{whole:?}"), format!("{small:?}"));
    /// ```
    ///
    /// # Panics
    ///
    /// If `size` is 0, or if called after the first event was read.
    #[must_use]
    pub fn block_size(mut self, size: usize) -> Self {
        assert!(size > 0, "EventReader::block_size(0)");
        assert!(
            self.pending.is_none(),
            "EventReader::block_size after reading began"
        );
        self.block_size = size;
        self
    }

    /// Joins adjacent [`Event::CharacterData`] into one event. PHP (and
    /// this reader, by default) delivers text in pieces: libxml2 splits it
    /// at line ends, entity and character references, CDATA sections,
    /// block ends and some non-ASCII characters, and PHP code usually
    /// collects the pieces in the handler. With coalescing on, one
    /// text node (however many blocks it spans) is one event, so it is held
    /// in memory whole; its pieces are gathered without an allocation each,
    /// so the event costs one. Default: off (the same pieces as the
    /// handler gets).
    ///
    /// ```
    /// use phpxml::{Event, Parser};
    ///
    /// let doc = &b"<a>fish &amp; chips</a>"[..];
    /// let pieces = Parser::new(None).unwrap().events(doc).filter(|e| matches!(e, Ok(Event::CharacterData(_)))).count();
    /// assert_eq!(pieces, 3);
    /// let text: Vec<Event> = Parser::new(None).unwrap().events(doc).coalesce_text(true)
    ///     .filter_map(Result::ok)
    ///     .filter(|e| matches!(e, Event::CharacterData(_)))
    ///     .collect();
    /// assert_eq!(text, [Event::CharacterData(b"fish & chips".to_vec())]);
    /// ```
    ///
    /// # Panics
    ///
    /// If called after the first event was read.
    #[must_use]
    pub fn coalesce_text(mut self, on: bool) -> Self {
        assert!(
            self.pending.is_none(),
            "EventReader::coalesce_text after reading began"
        );
        self.collector.coalesce = on;
        self
    }

    /// The next event, borrowed from the reader until the next call: the
    /// same events as the [`Iterator`], whose buffers the reader then
    /// reuses for later events of the same kind, so that reading a
    /// document allocates nothing per element, end tag, piece of text,
    /// processing instruction, declaration, external entity reference or
    /// namespace declaration once the first block has been read.
    ///
    /// ```
    /// use phpxml::{Event, Parser};
    ///
    /// let mut events = Parser::new(None)?.events(&b"<a><b>x</b><b>y</b></a>"[..]);
    /// let mut texts = Vec::new();
    /// while let Some(event) = events.next_borrowed() {
    ///     if let Event::CharacterData(text) = event? {
    ///         texts.push(String::from_utf8_lossy(text).into_owned());
    ///     }
    /// }
    /// assert_eq!(texts, ["x", "y"]);
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    pub fn next_borrowed(&mut self) -> Option<Result<&Event, Error>> {
        if let Some(spent) = self.lent.take() {
            self.collector.spare.recycle(spent);
        }
        match self.next()? {
            Ok(event) => Some(Ok(self.lent.insert(event))),
            Err(e) => Some(Err(e)),
        }
    }

    /// The parser, for its position (`xml_get_current_line_number()` and
    /// friends) between events: it reflects the end of the last block fed,
    /// not the event last yielded.
    #[must_use]
    pub fn parser(&self) -> &Parser {
        &self.parser
    }

    /// Gives back the parser, for example to ask for its error state after
    /// the iteration ended.
    ///
    /// ```
    /// let mut events = phpxml::Parser::new(None).unwrap().events(&b"<a/>"[..]);
    /// assert_eq!(events.by_ref().count(), 2);
    /// let parser = events.into_parser();
    /// assert_eq!((parser.error_code(), parser.byte_index()), (0, 4));
    /// ```
    #[must_use]
    pub fn into_parser(self) -> Parser {
        self.parser
    }

    /// Fills `buf` with up to `block_size` bytes; fewer only at the end.
    fn fill(input: &mut R, size: usize, buf: &mut Vec<u8>) -> io::Result<()> {
        buf.clear();
        buf.resize(size, 0);
        let mut got = 0;
        while got < size {
            match input.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    buf.clear();
                    return Err(e);
                }
            }
        }
        buf.truncate(got);
        Ok(())
    }

    /// Reads and feeds one block; sets the state when the parse ends.
    fn step(&mut self) {
        if self.collector.queue.is_empty() {
            // every queued run was taken
            self.collector.texts.clear();
            self.collector.texts_at = 0;
        }
        let mut block = if let Some(block) = self.pending.take() {
            block
        } else {
            let mut first = Vec::new();
            if let Err(e) = Self::fill(&mut self.input, self.block_size, &mut first) {
                self.pending = Some(first);
                self.state = State::Failed(Error::Io(e));
                return;
            }
            first
        };
        let mut ahead = std::mem::take(&mut self.ahead);
        if let Err(e) = Self::fill(&mut self.input, self.block_size, &mut ahead) {
            self.pending = Some(block);
            self.state = State::Failed(Error::Io(e));
            return;
        }
        let is_final = ahead.is_empty();
        let ok = self.parser.parse(&mut self.collector, &block, is_final);
        block.clear();
        self.ahead = block;
        self.pending = Some(ahead);
        if !ok {
            let p = &self.parser;
            self.state = State::Failed(Error::Parse(ParseError {
                code: p.error_code(),
                line: p.line(),
                column: p.column(),
                byte_index: p.byte_index(),
            }));
        } else if is_final {
            self.state = State::Finished;
        }
    }
}

impl<R: Read> EventReader<R> {
    /// The run of text whose event was just taken from the queue, read
    /// on while it may go on in the next block.
    fn rest_of_text(&mut self) -> Event {
        // the buffer of a text lent by `next_borrowed`, if any
        let mut text = match self.collector.spare.texts.pop() {
            Some(Event::CharacterData(mut spare)) => {
                spare.clear();
                spare
            }
            _ => Vec::new(),
        };
        loop {
            let collector = &mut self.collector;
            let len = collector.text_lens.pop_front().unwrap_or(0);
            let at = collector.texts_at;
            collector.texts_at += len;
            text.extend_from_slice(collector.texts.get(at..at + len).unwrap_or_default());
            if !collector.queue.is_empty() || !matches!(self.state, State::Reading) {
                return Event::CharacterData(text);
            }
            self.step();
            if !matches!(self.collector.queue.front(), Some(Event::CharacterData(_))) {
                return Event::CharacterData(text);
            }
            self.collector.queue.pop_front();
        }
    }
}

impl<R: Read> Iterator for EventReader<R> {
    type Item = Result<Event, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(event) = self.collector.queue.pop_front() {
                return Some(Ok(match event {
                    Event::CharacterData(_) if self.collector.coalesce => self.rest_of_text(),
                    event => event,
                }));
            }
            match std::mem::replace(&mut self.state, State::Done) {
                State::Reading => {
                    self.state = State::Reading;
                    self.step();
                }
                State::Failed(e) => return Some(Err(e)),
                State::Finished | State::Done => return None,
            }
        }
    }
}

impl<R: Read> std::iter::FusedIterator for EventReader<R> {}
