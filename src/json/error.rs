//! The errors `json_encode()` can report for the values modelled here.

use std::error::Error;
use std::fmt;

/// Why encoding failed, with PHP's `json_last_error()` code.
///
/// ```
/// use phpxml::json::{escape_string, JsonError, JsonFlags};
///
/// let mut out = Vec::new();
/// let err = escape_string(b"a\xB0b", JsonFlags::NONE, &mut out).unwrap_err();
/// assert_eq!(err, JsonError::Utf8);
/// assert_eq!(err.code(), 5);
/// assert_eq!(err.to_string(), "Malformed UTF-8 characters, possibly incorrectly encoded");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JsonError {
    /// `JSON_ERROR_DEPTH` (1): arrays nested deeper than the depth limit.
    Depth,
    /// `JSON_ERROR_UTF8` (5): a string is not well-formed UTF-8.
    Utf8,
    /// `JSON_ERROR_INF_OR_NAN` (7): a float is infinite or NaN.
    InfOrNan,
}

impl JsonError {
    /// The value of `json_last_error()` after the failure.
    #[must_use]
    pub const fn code(self) -> u32 {
        match self {
            Self::Depth => 1,
            Self::Utf8 => 5,
            Self::InfOrNan => 7,
        }
    }

    /// The text of `json_last_error_msg()` after the failure.
    #[must_use]
    pub const fn message(self) -> &'static str {
        match self {
            Self::Depth => "Maximum stack depth exceeded",
            Self::Utf8 => "Malformed UTF-8 characters, possibly incorrectly encoded",
            Self::InfOrNan => "Inf and NaN cannot be JSON encoded",
        }
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl Error for JsonError {}
