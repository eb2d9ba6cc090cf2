//! The libxml2-compatible push parser core (libxml2 2.9.14 as PHP's
//! `ext/xml/compat.c` drives it), on quick-xml's tokenizer.
//!
//! Placeholder with the final interface; the implementation lands with the
//! parser.

use crate::sax::{Installed, Sax};

/// One document being parsed, fed in chunks.
#[derive(Debug, Default)]
pub(crate) struct Core {
    namespace_separator: Option<u8>,
    error_code: i32,
}

impl Core {
    /// A parser; with `Some(sep)` namespace-aware (`xml_parser_create_ns`),
    /// joining URI and local name with the byte `sep`.
    pub(crate) fn new(namespace_separator: Option<u8>) -> Self {
        Self {
            namespace_separator,
            error_code: 0,
        }
    }

    /// Feeds one chunk, as `XML_Parse(parser, chunk, len, is_final)`:
    /// returns `true` (PHP 1) or `false` (PHP 0) once an error is reported.
    pub(crate) fn parse(
        &mut self,
        _sink: &mut impl Sax,
        _installed: Installed,
        _chunk: &[u8],
        _is_final: bool,
    ) -> bool {
        let _ = self.namespace_separator;
        false
    }

    /// libxml2's error number, as `xml_get_error_code()` reports it.
    pub(crate) fn error_code(&self) -> i32 {
        self.error_code
    }

    /// `xml_get_current_line_number()`.
    pub(crate) fn line(&self) -> u64 {
        1
    }

    /// `xml_get_current_column_number()`.
    pub(crate) fn column(&self) -> u64 {
        1
    }

    /// `xml_get_current_byte_index()`.
    pub(crate) fn byte_index(&self) -> i64 {
        0
    }
}
