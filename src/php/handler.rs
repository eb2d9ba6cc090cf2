//! The user's handlers: what `xml_set_*_handler()` installs in PHP.

use crate::php::array::Key;

/// Which of a [`Handler`]'s methods count as "set", as if by
/// `xml_set_*_handler()`.
///
/// This is not only about which methods get called: PHP's libxml2 layer
/// routes events by what is set. Text goes to the default handler only
/// while no character-data handler is set; with a default handler set,
/// references to entities declared in the DTD arrive there as `&name;`
/// instead of being expanded; a processing instruction goes to the default
/// handler when no processing-instruction handler is set; comments only
/// ever reach the default handler. An external entity reference stops the
/// parse (error 21) unless an external-entity-reference handler is set and
/// returns `true`.
///
/// ```
/// use phpxml::HandlerSet;
///
/// let text_and_comments = HandlerSet { default: true, ..HandlerSet::COMMON };
/// assert!(text_and_comments.character_data && text_and_comments.default);
/// assert!(!HandlerSet::NONE.element);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[allow(clippy::struct_excessive_bools)] // one flag per PHP handler
pub struct HandlerSet {
    /// `xml_set_element_handler()`: start and end element.
    pub element: bool,
    /// `xml_set_character_data_handler()`.
    pub character_data: bool,
    /// `xml_set_processing_instruction_handler()`.
    pub processing_instruction: bool,
    /// `xml_set_default_handler()`.
    pub default: bool,
    /// `xml_set_unparsed_entity_decl_handler()`.
    pub unparsed_entity_decl: bool,
    /// `xml_set_notation_decl_handler()`.
    pub notation_decl: bool,
    /// `xml_set_external_entity_ref_handler()`.
    pub external_entity_ref: bool,
    /// `xml_set_start_namespace_decl_handler()`.
    pub start_namespace_decl: bool,
    /// `xml_set_end_namespace_decl_handler()` (never called with libxml2).
    pub end_namespace_decl: bool,
}

impl HandlerSet {
    /// No handler set: a parse only checks the document.
    pub const NONE: Self = Self {
        element: false,
        character_data: false,
        processing_instruction: false,
        default: false,
        unparsed_entity_decl: false,
        notation_decl: false,
        external_entity_ref: false,
        start_namespace_decl: false,
        end_namespace_decl: false,
    };

    /// Every handler set, as PHP code that calls all nine setters.
    pub const ALL: Self = Self {
        element: true,
        character_data: true,
        processing_instruction: true,
        default: true,
        unparsed_entity_decl: true,
        notation_decl: true,
        external_entity_ref: true,
        start_namespace_decl: true,
        end_namespace_decl: true,
    };

    /// Everything but the default and external-entity-reference handlers:
    /// entities are expanded into character data, comments are dropped and
    /// external entity references stop the parse. What [`Handler`] assumes
    /// unless told otherwise.
    pub const COMMON: Self = Self {
        default: false,
        external_entity_ref: false,
        ..Self::ALL
    };

    /// Both sets together.
    ///
    /// ```
    /// use phpxml::HandlerSet;
    ///
    /// let elements = HandlerSet { element: true, ..HandlerSet::NONE };
    /// let text = HandlerSet { character_data: true, ..HandlerSet::NONE };
    /// let both = elements.union(text);
    /// assert!(both.element && both.character_data && !both.default);
    /// ```
    #[must_use]
    pub const fn union(self, other: Self) -> Self {
        Self {
            element: self.element || other.element,
            character_data: self.character_data || other.character_data,
            processing_instruction: self.processing_instruction || other.processing_instruction,
            default: self.default || other.default,
            unparsed_entity_decl: self.unparsed_entity_decl || other.unparsed_entity_decl,
            notation_decl: self.notation_decl || other.notation_decl,
            external_entity_ref: self.external_entity_ref || other.external_entity_ref,
            start_namespace_decl: self.start_namespace_decl || other.start_namespace_decl,
            end_namespace_decl: self.end_namespace_decl || other.end_namespace_decl,
        }
    }
}

/// The callbacks of PHP's xml extension, one method per handler kind, each
/// a no-op unless overridden. Every string is in the parser's target
/// encoding; element and attribute names are case-folded if the option is
/// on, and element names have `XML_OPTION_SKIP_TAGSTART` bytes cut.
/// `None` stands for PHP's `false` (a missing public id, a processing
/// instruction without data, the default namespace's prefix, ...).
///
/// A method is called only if [`installed`](Handler::installed) says its
/// handler is set. The unit type `()` is a handler with nothing set.
///
/// ```
/// use phpxml::{Handler, Key, Parser};
///
/// #[derive(Default)]
/// struct Names(Vec<Vec<u8>>);
///
/// impl Handler for Names {
///     fn start_element(&mut self, name: &[u8], _attributes: &[(Key, Vec<u8>)]) {
///         self.0.push(name.to_vec());
///     }
/// }
///
/// let mut parser = Parser::new(None).unwrap();
/// let mut names = Names::default();
/// assert!(parser.parse(&mut names, b"<a><b/></a>", true));
/// assert_eq!(names.0, [b"A".to_vec(), b"B".to_vec()]); // case folding is on by default
/// ```
#[allow(unused_variables)]
pub trait Handler {
    /// Which handlers count as set. Default: [`HandlerSet::COMMON`].
    fn installed(&self) -> HandlerSet {
        HandlerSet::COMMON
    }

    /// Start element handler: the name and the attributes as the PHP array
    /// the handler gets (names folded, later duplicates overwriting earlier
    /// ones in place, canonical integers as integer keys).
    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {}

    /// End element handler (also called for an empty-element tag).
    fn end_element(&mut self, name: &[u8]) {}

    /// Character data handler, in the pieces the parser delivers.
    fn character_data(&mut self, data: &[u8]) {}

    /// Processing instruction handler; `data` is `None` when there is none.
    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {}

    /// Default handler (`xml_set_default_handler()`): comments, entity
    /// references and whatever has no handler set. Named so as not to clash
    /// with [`Default::default`].
    fn default_data(&mut self, data: &[u8]) {}

    /// Unparsed entity declaration handler; `base` is always `None` with
    /// libxml2.
    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
    }

    /// Notation declaration handler; `base` is always `None` with libxml2.
    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
    }

    /// External entity reference handler; `base` is `Some(b"")` with
    /// libxml2. Returning `false` stops the parse with error 21.
    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        true
    }

    /// Start namespace declaration handler, before the start element
    /// handler of the element that declares it; `prefix` is `None` for the
    /// default namespace. Only for parsers made by [`new_ns`](crate::Parser::new_ns).
    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {}

    /// End namespace declaration handler: PHP on libxml2 never calls it.
    fn end_namespace_decl(&mut self, prefix: Option<&[u8]>) {}

    /// Whether to stop parsing, as libxml2's `xmlStopParser()` does; asked
    /// before each handler call and by the parser's loop. Once it says
    /// `true` in a parse call, no handler is called again, that call
    /// returns `false` (or [`ErrorCode::UserStop`] from
    /// [`Parser::feed`](crate::Parser::feed)) and so does every later one:
    /// the parser is finished, as after a fatal error. The error code is
    /// libxml2's `XML_ERR_USER_STOP` (111), whose PHP message is
    /// `"Unknown"`. The position is what PHP reports after the
    /// `xmlStopParser()` of a refused external entity: line and column
    /// past the construct whose event stopped, and a byte index that
    /// counts only input dropped before (the input is released: 0 for a
    /// document under 4 KiB).
    ///
    /// PHP has no such way: a PHP handler can only stop a parse by
    /// returning `false` from the external entity reference handler
    /// (error 21, which uses the same `xmlStopParser()`), and
    /// `xml_parser_free()` inside a handler is an error in PHP 8.
    ///
    /// ```
    /// use phpxml::{ErrorCode, Handler, Key, Parser};
    ///
    /// /// The first `<title>`'s text, then no further parsing.
    /// #[derive(Default)]
    /// struct FirstTitle { inside: bool, title: Vec<u8>, done: bool }
    ///
    /// impl Handler for FirstTitle {
    ///     fn start_element(&mut self, name: &[u8], _: &[(Key, Vec<u8>)]) {
    ///         self.inside = name == b"TITLE";
    ///     }
    ///     fn character_data(&mut self, data: &[u8]) {
    ///         if self.inside { self.title.extend_from_slice(data) }
    ///     }
    ///     fn end_element(&mut self, name: &[u8]) {
    ///         self.done |= name == b"TITLE";
    ///     }
    ///     fn stop_requested(&self) -> bool {
    ///         self.done
    ///     }
    /// }
    ///
    /// let mut parser = Parser::new(None)?;
    /// let mut first = FirstTitle::default();
    /// let error = parser.feed(&mut first, b"<r><title>A</title><title>B</title>", false).unwrap_err();
    /// assert_eq!(error.error_code(), Some(ErrorCode::UserStop));
    /// assert_eq!(first.title, b"A");
    /// assert!(parser.feed(&mut first, b"</r>", true).is_err()); // finished
    /// # Ok::<(), phpxml::Error>(())
    /// ```
    ///
    /// [`ErrorCode::UserStop`]: crate::ErrorCode::UserStop
    fn stop_requested(&self) -> bool {
        false
    }
}

/// Nothing set: [`Parser::parse`](crate::Parser::parse) with `&mut ()`
/// checks a document, and
/// [`parse_into_struct`](crate::Parser::parse_into_struct) uses it.
impl Handler for () {
    fn installed(&self) -> HandlerSet {
        HandlerSet::NONE
    }
}
