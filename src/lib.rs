//! Parse XML exactly as PHP 8.2's xml extension does: the same handler
//! calls, the same `xml_parse_into_struct()` arrays, the same `?` for
//! characters the target encoding cannot hold, the same error codes and
//! positions, byte for byte.
//!
//! # Overview
//!
//! PHP services that read XML with `xml_parser_create()`, handler callbacks,
//! `xml_parse()` and `xml_parse_into_struct()` depend on particular bytes:
//! tag names after case folding, text split where libxml2 splits it, PHP's
//! value and index arrays, libxml2 2.9.14's error codes and positions. This
//! crate gives a Rust program those same bytes, so a PHP parser can be ported
//! without changing what it produces.
//!
//! * [`Parser`] is PHP's `XMLParser`: created with [`Parser::new`]
//!   (`xml_parser_create()`) or [`Parser::new_ns`]
//!   (`xml_parser_create_ns()`), configured with typed setters or
//!   [`Parser::set_option`] (`xml_parser_set_option()`).
//! * [`Parser::parse`] is `xml_parse()`: it calls the methods of your
//!   [`Handler`], one per `xml_set_*_handler()`. In Rust's shape:
//!   [`Parser::feed`] returns `Result<(), ParseError>`, and
//!   [`Parser::feed_utf8`] drives a [`Utf8Handler`], whose methods take
//!   `&str`, while the target encoding is UTF-8. A handler stops the
//!   parse as libxml2's `xmlStopParser()` does with
//!   [`Handler::stop_requested`].
//! * [`Parser::parse_into_struct`] is `xml_parse_into_struct()`: it gives a
//!   [`Struct`] with PHP's `$values` ([`Entry`]) and `$index`;
//!   [`Parser::parse_struct`] returns it as a `Result`.
//! * [`ParseError`] is the error state (`xml_get_error_code()` and the
//!   position); [`ErrorCode`] names libxml2's numbers.
//! * [`Parser::events`] is for those who prefer a pull parser: an iterator
//!   of owned [`Event`]s with the same semantics, reading any
//!   [`std::io::Read`] in bounded memory; [`Event::to_quick_xml`] gives
//!   them to a `quick_xml::Writer`.
//! * [`decode`] is PHP's UTF-8 decoding: `utf8_decode()`, `utf8_encode()`
//!   and the `xml_utf8_decode()` every string goes through.
//! * [`json`] is PHP's `json_encode()` byte for byte: string escaping with
//!   every `JSON_*` flag, and a small model of PHP values to encode.
//! * [`report`] prints results exactly as PHP's `var_export()` and the
//!   reference scripts do (the output of the `phpxml struct` and `phpxml
//!   trace` commands; their arguments are the command line's own).
//! * [`testing`] replays outputs captured from PHP (`phpxml capture`,
//!   `NAME.{xml,args,out}`) in `cargo test`, with unified diffs on failure.
//!
//! # Examples
//!
//! A PHP handler-based parser and its port. In PHP:
//!
//! ```php
//! class BookParser {
//!     public array $ids = [];
//!     public array $titles = [];
//!     private string $text = '';
//!     function start($parser, $name, $attrs) {
//!         $this->text = '';
//!         if ($name == 'BOOK') $this->ids[] = $attrs['ID'];
//!     }
//!     function cdata($parser, $data) { $this->text .= $data; }
//!     function end($parser, $name) {
//!         if ($name == 'TITLE') $this->titles[] = $this->text;
//!     }
//! }
//! $books = new BookParser();
//! $parser = xml_parser_create('ISO-8859-1');
//! xml_set_object($parser, $books);
//! xml_set_element_handler($parser, 'start', 'end');
//! xml_set_character_data_handler($parser, 'cdata');
//! if (!xml_parse($parser, $xml, true)) {
//!     die(sprintf("%s at line %d", xml_error_string(xml_get_error_code($parser)),
//!         xml_get_current_line_number($parser)));
//! }
//! ```
//!
//! In Rust, the object is the handler and its methods are the handlers:
//!
//! ```
//! use phpxml::{Handler, Key, Parser, attribute};
//!
//! #[derive(Default)]
//! struct BookParser {
//!     ids: Vec<Vec<u8>>,
//!     titles: Vec<Vec<u8>>,
//!     text: Vec<u8>,
//! }
//!
//! impl Handler for BookParser {
//!     fn start_element(&mut self, name: &[u8], attrs: &[(Key, Vec<u8>)]) {
//!         self.text.clear();
//!         if name == b"BOOK" {
//!             self.ids.extend(attribute(attrs, b"ID").map(<[u8]>::to_vec));
//!         }
//!     }
//!     fn character_data(&mut self, data: &[u8]) {
//!         self.text.extend_from_slice(data);
//!     }
//!     fn end_element(&mut self, name: &[u8]) {
//!         if name == b"TITLE" {
//!             self.titles.push(self.text.clone());
//!         }
//!     }
//! }
//!
//! let xml = "<shelf><book id='b1'><title>Dune</title></book>\
//!            <book id='b2'><title>Les Misérables</title></book></shelf>";
//! let mut books = BookParser::default();
//! let mut parser = Parser::new(Some("ISO-8859-1"))?;
//! if !parser.parse(&mut books, xml.as_bytes(), true) {
//!     panic!("{} at line {}", phpxml::error_string(parser.error_code()), parser.line());
//! }
//! assert_eq!(books.ids, [b"b1", b"b2"]);
//! assert_eq!(books.titles, [&b"Dune"[..], b"Les Mis\xE9rables"]); // ISO-8859-1 bytes
//! # Ok::<(), phpxml::Error>(())
//! ```
//!
//! `xml_parse_into_struct()`:
//!
//! ```
//! use phpxml::{EntryType, Parser};
//!
//! let mut parser = Parser::new(None)?;
//! let result = parser.parse_into_struct("<doc><item id='1'>café</item></doc>".as_bytes());
//! assert!(result.ok);
//! let item = &result.values[1];
//! assert_eq!((&item.tag[..], item.kind, item.level), (&b"ITEM"[..], EntryType::Complete, 2));
//! assert_eq!(item.value.as_deref(), Some("café".as_bytes()));
//! assert_eq!(result.index[0], (b"DOC".to_vec(), vec![0, 2]));
//! # Ok::<(), phpxml::Error>(())
//! ```
//!
//! Errors are PHP's, with libxml2's codes and positions:
//!
//! ```
//! let mut parser = phpxml::Parser::new(None)?;
//! assert!(!parser.parse(&mut (), b"<shelf><book>", true));
//! let error = parser.last_error().unwrap();
//! assert_eq!(error.message(), "Invalid document end");
//! assert_eq!((error.code, error.line, error.column, error.byte_index), (5, 1, 14, 13));
//! # Ok::<(), phpxml::Error>(())
//! ```
//!
//! The pull parser, over any reader:
//!
//! ```
//! use phpxml::{Event, Parser};
//!
//! let input = std::io::Cursor::new("<a x='1'>hi</a>");
//! for event in Parser::new(None)?.events(input) {
//!     match event? {
//!         Event::StartElement(tag) => println!("start {:?} {:?}", tag.name(), tag.attribute(b"X")),
//!         Event::CharacterData(text) => println!("text {text:?}"),
//!         _ => {}
//!     }
//! }
//! # Ok::<(), phpxml::Error>(())
//! ```
//!
//! # Why this crate
//!
//! General-purpose Rust XML parsers (quick-xml, xml-rs, roxmltree) are good
//! parsers, but not PHP's: they differ in what they accept, how they split
//! text, how they expand entities, what they report and where. This crate is
//! checked against PHP itself: 905 cases (`xml_parse_into_struct()` and
//! handler traces over malformed documents, every handler, namespaces,
//! encodings, chunked feeding, nesting past PHP's 255 levels) whose expected
//! outputs were all printed by PHP 8.2 on libxml2 2.9.14, and every one
//! matches byte for byte, through the library and through the command line.
//! Its UTF-8 decoder is proven equal to PHP's on every byte sequence up to
//! four bytes long. Handlers are plain trait methods on your own type,
//! strings are byte slices as in PHP, and nothing needs a PHP runtime.
//!
//! # PHP functions and their Rust counterparts
//!
//! | PHP | Rust |
//! | --- | --- |
//! | `xml_parser_create($encoding)` | [`Parser::new`]`(Some(encoding))`; `xml_parser_create()` is `Parser::new(None)` or `Parser::default()` |
//! | `xml_parser_create_ns($encoding, $sep)` | [`Parser::new_ns`]`(encoding, sep)` |
//! | `xml_set_element_handler()` | [`Handler::start_element`], [`Handler::end_element`] |
//! | `xml_set_character_data_handler()` | [`Handler::character_data`] |
//! | `xml_set_processing_instruction_handler()` | [`Handler::processing_instruction`] |
//! | `xml_set_default_handler()` | [`Handler::default_data`], with `default: true` in [`Handler::installed`] |
//! | `xml_set_unparsed_entity_decl_handler()` | [`Handler::unparsed_entity_decl`] |
//! | `xml_set_notation_decl_handler()` | [`Handler::notation_decl`] |
//! | `xml_set_external_entity_ref_handler()` | [`Handler::external_entity_ref`], with `external_entity_ref: true` in [`Handler::installed`] |
//! | `xml_set_start_namespace_decl_handler()` | [`Handler::start_namespace_decl`] |
//! | `xml_set_end_namespace_decl_handler()` | [`Handler::end_namespace_decl`] (libxml2 never calls it) |
//! | `xml_set_object($parser, $object)` | the handler value itself: its fields are the object's properties |
//! | `xml_parse($parser, $data, $is_final)` | [`Parser::parse`]`(&mut handler, data, is_final)` returns `bool`; [`Parser::feed`] a `Result`; [`Parser::feed_utf8`] with a [`Utf8Handler`]; a whole document in one final call is read where it is, not copied; given away as a `Vec`: [`Parser::parse_owned`], [`Parser::feed_owned`] |
//! | `xml_parse_into_struct($parser, $data, $values, $index)` | [`Parser::parse_into_struct`]`(data)` returns [`Struct`] `{ ok, values, index }`; with handlers too: [`Parser::parse_into_struct_with`]; a document given away as a `Vec`: [`Parser::parse_into_struct_owned`] |
//! | `xml_get_error_code()` | [`Parser::error_code`]; all of the error state at once: [`Parser::last_error`]; by name: [`ErrorCode`] |
//! | `xml_error_string($code)` | [`error_string`]`(code)`, [`ParseError::message`] |
//! | `xml_get_current_line_number()` | [`Parser::line`] |
//! | `xml_get_current_column_number()` | [`Parser::column`] |
//! | `xml_get_current_byte_index()` | [`Parser::byte_index`] |
//! | `xml_parser_set_option()` / `xml_parser_get_option()` | [`Parser::set_option`] / [`Parser::get_option`] with [`XmlOption`] and [`OptionValue`]; typed: [`Parser::set_case_folding`], [`Parser::set_skip_white`], [`Parser::set_skip_tagstart`], [`Parser::set_target_encoding`] |
//! | `xml_parser_free()` | dropping the [`Parser`] |
//! | `utf8_decode()` | [`decode::utf8_decode`] (and `_into`) |
//! | `utf8_encode()` | [`decode::utf8_encode`] (and `_into`) |
//! | `json_encode()` | [`json::Value::encode`], [`json::escape_string`]; the JSON value alone: the `serde` feature |
//! | `$attrs['ID']` | [`attribute`]`(attrs, b"ID")` |
//! | (none: a pull parser) | [`Parser::events`] → [`EventReader`] of [`Event`] |
//! | (none: a handler cannot stop `xml_parse()`) | [`Handler::stop_requested`] |
//! | `unset($array[$key])` | [`json::Array::remove`] |
//!
//! Strings are byte slices (`&[u8]`) because PHP's are: in an ISO-8859-1 or
//! US-ASCII target they are not UTF-8 ([`Utf8Handler`] gives `&str` where
//! the target is UTF-8). A PHP `false` argument (no public id,
//! a processing instruction without data, the default namespace's prefix)
//! is `None`.
//!
//! # PHP compatibility and its limits
//!
//! The reference is PHP 8.2 with the xml extension on libxml2 2.9.14, as
//! Debian 12 ships them. What "the same" covers: every handler call and its
//! arguments, the routing of events between handlers (which depends on the
//! handlers set: see [`HandlerSet`]), case folding (ASCII only, as in 8.2),
//! `XML_OPTION_SKIP_WHITE` and `XML_OPTION_SKIP_TAGSTART`, the struct arrays
//! (truncated past 255 levels as PHP does), the target-encoding conversion,
//! the option value conversions (PHP's `(int)` cast, 32-bit truncation),
//! the error codes, lines, columns and byte indexes, and how all of that
//! depends on the chunks a document is fed in.
//!
//! Known limits, where the parser core is simpler than libxml2:
//!
//! * Input encodings: UTF-8, UTF-16 (LE/BE, by BOM), ISO-8859-1,
//!   US-ASCII, ISO-8859-15, windows-1252 and KOI8-R are decoded; a document
//!   declaring any other encoding fails with error 32 ("Unsupported
//!   encoding"), where libxml2 with iconv may accept it.
//! * With `XML_OPTION_PARSE_HUGE` on ([`Parser::set_parse_huge`]), entity
//!   expansion in attribute values stops at 1,000,000,000 bytes (error 2)
//!   where libxml2 grows its buffer until memory runs out.
//! * PHP's warnings (for example "Maximum depth exceeded") are not
//!   reported; the results they accompany are.
//! * Only the libxml2 build of PHP's xml extension is reproduced, not the
//!   expat one (`XML_SAX_IMPL` is `libxml`).
//!
//! # Crate features
//!
//! * **`serde`** (off by default): `serde::Serialize` for [`Struct`],
//!   [`Entry`], [`EntryType`] and [`Key`], `IndexArray`
//!   (`Struct::index_array()`) for `$index` alone, and [`Event`] (serde's
//!   usual enum shape). The JSON is the JSON value PHP's `json_encode()` gives
//!   for the same arrays (lists as arrays, other arrays as objects in PHP's
//!   key order, integer keys as strings). Strings that are not UTF-8 (an
//!   ISO-8859-1 target), which PHP's `json_encode()` refuses, are kept
//!   losslessly: values as serde bytes (in JSON an array of numbers), map
//!   keys as `"$bytes:"` and lower-case hex. The bytes differ from PHP's:
//!   `json_encode()` escapes `/` as `\/` and non-ASCII characters as
//!   `\uXXXX` by default, `serde_json` does not. Byte-exact `json_encode()`
//!   output, `JSON_*` flags included, is the job of
//!   `phpxml struct --format json`.
#![cfg_attr(
    feature = "serde",
    doc = r##"
```
let mut parser = phpxml::Parser::new(None).unwrap();
let result = parser.parse_into_struct(b"<a><b x='1'>hi</b></a>");
assert_eq!(
    serde_json::to_string(&result.values).unwrap(),
    r#"[{"tag":"A","type":"open","level":1},{"tag":"B","type":"complete","level":2,"attributes":{"X":"1"},"value":"hi"},{"tag":"A","type":"close","level":1}]"#
);
assert_eq!(serde_json::to_string(&result.index_array()).unwrap(), r#"{"A":[0,2],"B":[1]}"#);
```
"##
)]
//! * **`simdutf`** (off by default): only adds the C++ simdutf library to
//!   the decoder benchmarks as a speed peer; the library never uses it.
//! * **`expat`** (off by default): only adds libexpat with no-op handlers
//!   to the parse benchmark as a speed peer (needs the system libexpat and
//!   `pkg-config`); the library never uses it.
//!
//! # Minimum Rust version
//!
//! 1.89, as `rust-version` in Cargo.toml says (the AVX-512 intrinsics of
//! the decoder's and the JSON escaper's kernels; edition 2024 and let
//! chains need 1.88).

#![deny(missing_docs)]
// `unsafe` is allowed only in the SIMD kernel modules (`simd`,
// `decode::kernels`, `json::kernels`, `libxml::text_scan`), each declared
// with `#[allow(unsafe_code)]`; there every unsafe block says why it is
// sound.
#![deny(unsafe_code)]
#![cfg_attr(docsrs, feature(doc_cfg))]
// Clippy's pedantic group is on for every target, with its crate-wide
// allow-list in Cargo.toml's `[lints.clippy]` (the SIMD kernels allow a
// few more, each in its own module; anything else gets a local `#[allow]`
// with its reason).

pub mod decode;
pub mod json;
mod libxml;
mod php;
pub mod report;
pub mod testing;
// The fixture corpus's walker, shared with the integration tests.
#[cfg(test)]
#[path = "../tests/common/corpus.rs"]
mod corpus;
mod sax;
#[allow(unsafe_code)]
mod simd;
#[cfg(test)]
mod test_rng;

pub use decode::TargetEncoding;
#[cfg(feature = "serde")]
#[cfg_attr(docsrs, doc(cfg(feature = "serde")))]
pub use php::IndexArray;
pub use php::{
    Attributes, Entry, EntryType, Error, ErrorCode, Event, EventReader, ExternalEntityRef, Handler,
    HandlerSet, Key, NamespaceDecl, NotationDecl, OptionValue, ParseError, Parser,
    ProcessingInstruction, StartTag, Struct, UnparsedEntityDecl, Utf8Handler, XmlOption, attribute,
    error_string,
};

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
