//! PHP's `ext/xml/xml.c` on top of the core: options, target decoding,
//! case folding, handlers, `xml_parse_into_struct()` and the error table.

mod array;
mod error_code;
mod errors;
mod events;
mod handler;
mod options;
mod packed;
mod parser;
mod quick;
#[cfg(feature = "serde")]
mod ser;
mod start_tag;
mod structure;
mod utf8;

pub use array::{Key, attribute};
pub use error_code::ErrorCode;
pub use errors::{Error, ParseError, error_string};
pub use events::{Event, EventReader};
pub use handler::{Handler, HandlerSet};
pub use options::{OptionValue, XmlOption, int_cast};
pub use packed::{
    ExternalEntityRef, NamespaceDecl, NotationDecl, ProcessingInstruction, UnparsedEntityDecl,
};
pub use parser::Parser;
#[cfg(feature = "serde")]
pub use ser::IndexArray;
pub use start_tag::{Attributes, StartTag};
pub use structure::{Entry, EntryType, Struct};
pub(crate) use structure::{EntryRef, IndexRef, KeyRef, StructData, recent_way};
pub use utf8::Utf8Handler;

#[cfg(test)]
mod tests;
