//! The seam between the libxml2-compatible parser core and PHP's layer.
//!
//! The core ([`crate::libxml`]) plays the part of libxml2 plus PHP's
//! `ext/xml/compat.c`: it tokenizes, checks well-formedness, expands
//! entities, tracks positions and error codes, and calls a [`Sax`] sink
//! with UTF-8 bytes. PHP's layer ([`crate::php`]) plays `ext/xml/xml.c`:
//! it converts to the target encoding, folds case, skips tag starts,
//! builds `xml_parse_into_struct()`'s arrays and calls the user's handlers.

use std::num::NonZeroU64;

pub(crate) use crate::libxml::HeldAttributes;

/// Which PHP handlers are set: the public [`HandlerSet`], which the core
/// takes as it is. libxml2's compat layer routes events by what is set:
/// for example text goes to the default handler only when no
/// character-data handler is set, and comments reach only the default
/// handler.
pub(crate) use crate::php::HandlerSet;

/// One attribute of a start tag: name and value as UTF-8 bytes, the value
/// normalized and entity-expanded.
pub(crate) type Attribute<'a> = (&'a [u8], &'a [u8]);

/// The identity of a list of distinct attribute names: two start tags
/// given the same identity have the same attribute names in the same
/// order. The core gives one for plain start tags whose names it
/// recognised as a whole list it has seen (see `RecentNames`); identities
/// are never given twice in a process. Never 0, so that an `Option` of it
/// is one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NameList(pub(crate) NonZeroU64);

/// What the core delivers, in document order, as compat.c calls PHP's
/// `_xml_*_handler` functions. All strings are UTF-8 as libxml2 gives them;
/// `None` is a NULL pointer (PHP turns it into `false`).
///
/// The core calls a method only when compat.c would, given [`HandlerSet`]:
/// it never calls `default` for text while a character-data handler is set,
/// and never calls `end_namespace_decl` (libxml2 never does).
pub(crate) trait Sax {
    /// A start tag. In namespace mode `name` is `URI + sep + local` (or the
    /// bare local name without a namespace) and attributes likewise.
    fn start_element(&mut self, name: &[u8], attributes: &[Attribute<'_>]);
    /// [`start_element`](Self::start_element) of a tag whose attribute
    /// names are, in order, those of the list `names` (when `Some`): every
    /// tag given the same list has the same names.
    fn start_element_listed(
        &mut self,
        name: &[u8],
        attributes: &[Attribute<'_>],
        names: Option<NameList>,
    ) {
        let _ = names;
        self.start_element(name, attributes);
    }
    /// [`start_element_listed`](Self::start_element_listed) of a tag whose
    /// attributes (one or more) have the names of the list `names`, all of
    /// them, as the core holds them: a sink that knows the list takes the
    /// values alone.
    fn start_element_held(&mut self, name: &[u8], held: HeldAttributes<'_>, names: NameList) {
        held.with_pairs(|pairs| self.start_element_listed(name, pairs, Some(names)));
    }
    /// An end tag (also the synthesized end of an empty-element tag).
    fn end_element(&mut self, name: &[u8]);
    /// Character data, in the pieces libxml2 delivers.
    fn character_data(&mut self, data: &[u8]);
    /// Character data libxml2 passes with length 0 from its buffer (an
    /// unclosed CDATA section whose next character is invalid):
    /// `_xml_xmlchar_zval` reads a length of 0 as "to the NUL", so the
    /// handlers get `to_nul` (the buffer from there to its first NUL),
    /// while `xml_parse_into_struct()`'s array gets `""`.
    fn character_data_to_nul(&mut self, to_nul: &[u8]) {
        self.character_data(to_nul);
    }
    /// A processing instruction; `data` is `None` when it has none.
    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>);
    /// Text for the default handler: comments, entity references, and
    /// whatever compat.c sends there when the specific handler is not set.
    fn default(&mut self, data: &[u8]);
    /// `<!ENTITY name SYSTEM "..." NDATA notation>`; base is always NULL on
    /// libxml2.
    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    );
    /// `<!NOTATION ...>`; base is always NULL on libxml2.
    fn notation_decl(&mut self, name: &[u8], system_id: Option<&[u8]>, public_id: Option<&[u8]>);
    /// A reference to an external parsed entity. compat.c passes `""` as
    /// base. Returning `false` stops the parse with error 21.
    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool;
    /// A namespace declaration, before the start tag that holds it; prefix
    /// `None` for the default namespace.
    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]);
    /// Whether the user asked to stop: the core then does what
    /// `xmlStopParser` does, at the top of its push loop and at the end of
    /// the parse call (events already under way are dropped by the sink).
    fn stop_requested(&self) -> bool {
        false
    }
}
