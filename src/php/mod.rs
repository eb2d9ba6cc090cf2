//! PHP's `ext/xml/xml.c` on top of the core: options, target decoding,
//! case folding, handlers, `xml_parse_into_struct()` and the error table.
//!
//! Placeholder; the implementation lands with the parser.
