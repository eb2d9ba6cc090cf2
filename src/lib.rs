//! Parse XML exactly as PHP's xml extension does, on top of a fast,
//! PHP-exact character-decoding layer.
//!
//! # Overview
//!
//! PHP code that used `xml_parser_create()`, handler callbacks,
//! `xml_parse()` and `xml_parse_into_struct()` expects particular bytes: tag
//! names after case folding, `?` for characters the target encoding cannot
//! hold, PHP's value and index arrays, libxml2's error codes and positions.
//! This crate reproduces them.
//!
//! The layer everything stands on is [`decode`]: PHP's UTF-8 decoder
//! (`php_next_utf8_char()`) with its exact failure widths, an inline fast
//! path that is proven equal to it on every sequence of up to four bytes,
//! and bulk conversion to ISO-8859-1, US-ASCII or UTF-8 that copies ASCII
//! runs many bytes at a time.
//!
//! # Example
//!
//! ```
//! use phpxml::decode::{utf8_decode, xml_utf8_decode, TargetEncoding};
//!
//! assert_eq!(utf8_decode("Grüße, мир".as_bytes()), b"Gr\xFC\xDFe, ???");
//! assert_eq!(xml_utf8_decode("Grüße".as_bytes(), TargetEncoding::UsAscii), b"Gr??e");
//! ```

#![deny(missing_docs)]

#[allow(dead_code)] // wired up by the parser
mod core;
pub mod decode;
pub mod json;
mod php;
#[allow(dead_code)] // wired up by the parser
mod sax;
