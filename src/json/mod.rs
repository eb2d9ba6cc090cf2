//! PHP's `json_encode()` for strings and for the arrays
//! `xml_parse_into_struct()` returns, byte for byte.
//!
//! * [`escape_string`]: PHP 8.2's `php_json_escape_string()`, every flag
//!   that affects strings included (`JSON_HEX_*`, `JSON_UNESCAPED_*`,
//!   `JSON_NUMERIC_CHECK`, `JSON_INVALID_UTF8_*`,
//!   `JSON_PARTIAL_OUTPUT_ON_ERROR`). Malformed UTF-8 is measured with
//!   PHP's own decoder widths ([`crate::decode`]); text is escaped 32
//!   bytes at a time by vector kernels (AVX2, AVX-512), detected at run
//!   time.
//! * [`escape_string_reference`]: the same result, one character at a
//!   time through the reference decoder: the oracle of the tests and the
//!   baseline of the benchmarks.
//! * [`Value`], [`Array`], [`Key`]: a small model of PHP values with
//!   `json_encode()` over them: list or object detection,
//!   `JSON_FORCE_OBJECT`, `JSON_PRETTY_PRINT`, the depth limit, and PHP's
//!   partial-output rules.
//! * [`struct_to_value`], [`values_to_value`], [`index_to_value`]: the
//!   arrays of `xml_parse_into_struct()` as those values, so that
//!   `json_encode($values)` and `json_encode($index)` can be reproduced
//!   (`phpxml struct --format json`).
//! * [`write_struct`]: the same two arrays encoded straight to a writer as
//!   `phpxml struct --format json` prints them, with no value tree and no
//!   whole-output buffer.
//!
//! # Example
//!
//! ```
//! use phpxml::json::{escape_string, JsonFlags};
//!
//! let mut out = Vec::new();
//! escape_string("<a href=\"/x\">é</a>".as_bytes(), JsonFlags::HEX_TAG | JsonFlags::UNESCAPED_UNICODE, &mut out)?;
//! assert_eq!(out, "\"\\u003Ca href=\\\"\\/x\\\"\\u003Eé\\u003C\\/a\\u003E\"".as_bytes());
//! # Ok::<(), phpxml::json::JsonError>(())
//! ```

mod error;
mod escape;
mod flags;
#[allow(unsafe_code)]
mod kernels;
mod number;
mod scan;
pub(crate) mod sink;
mod stream;
mod structure;
mod value;

pub use error::JsonError;
pub use escape::{escape_string, escape_string_reference};
pub use flags::JsonFlags;
pub(crate) use number::{push_digits, write_int};
pub use stream::{StructJsonError, write_index, write_struct, write_values};
pub(crate) use stream::{
    utf8, values_are_utf8, write_index_to, write_struct_lines, write_struct_to, write_values_to,
};
pub use structure::{index_to_value, struct_to_value, values_to_value};
pub use value::{Array, DEFAULT_DEPTH, Key, Value};
