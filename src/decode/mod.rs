//! PHP-exact character decoding.
//!
//! PHP's xml extension hands every name and every piece of text from the
//! parser (UTF-8) to `xml_utf8_decode()`, which turns it into the parser's
//! target encoding one character at a time with `php_next_utf8_char()`. This
//! module gives the same results, byte for byte, much faster:
//!
//! * [`next_utf8_char_reference`]: the strict decoder, a plain port of the
//!   behaviour of `php_next_utf8_char()`, failure widths included;
//! * [`next_utf8_char`]: the inline decoder, identical in result, which
//!   decodes valid sequences on the straight path and falls back to the
//!   reference for anything invalid or truncated;
//! * [`xml_utf8_decode`] and friends: whole buffers, converted 64 bytes a
//!   step with AVX-512 (VBMI2), 32 with AVX2 or 16 with SSSE3 where the
//!   CPU has them (checked at run time), ASCII runs otherwise copied 16
//!   bytes at a time;
//! * [`StreamDecoder`]: the same conversion over input that arrives in
//!   blocks, with output identical to converting the whole input at once.

mod bulk;
mod inline;
#[allow(unsafe_code)]
mod kernels;
mod reference;
mod stream;

use std::fmt;
use std::str::FromStr;

pub use bulk::{
    utf8_decode, utf8_decode_into, utf8_encode, utf8_encode_into, utf8_encode_to_slice,
    xml_utf8_decode, xml_utf8_decode_into, xml_utf8_decode_reference_into,
};
pub use inline::next_utf8_char;
pub use reference::next_utf8_char_reference;
pub use stream::StreamDecoder;

// The single-byte charsets' converter (`libxml::charsets`) runs its vector
// kernels here, beside the Latin-1 ones whose packing they share.
#[cfg(test)]
pub(crate) use kernels::single_byte_tiers;
pub(crate) use kernels::{TwoByteTable, single_byte_kernel_available, single_byte_run};

/// Whether a call to the decoder read a character or a malformed sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A well-formed character was decoded.
    Success,
    /// The bytes at the cursor are not a well-formed character; the code
    /// point is 0 and the cursor moved past one malformed sequence.
    Failure,
}

/// What one call of the decoder returns: PHP's return value, cursor and
/// status together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NextChar {
    /// The decoded code point; 0 on failure, as in PHP.
    pub code_point: u32,
    /// Where the next character starts.
    pub cursor: usize,
    /// Success or failure.
    pub status: Status,
}

/// The encodings PHP's xml extension can convert to: a closed set.
///
/// PHP matches the names `ISO-8859-1`, `US-ASCII` and `UTF-8` without regard
/// to ASCII case, and knows no aliases.
///
/// ```
/// use phpxml::decode::TargetEncoding;
///
/// assert_eq!("iso-8859-1".parse(), Ok(TargetEncoding::Iso8859_1));
/// assert!("latin1".parse::<TargetEncoding>().is_err());
/// assert_eq!(TargetEncoding::UsAscii.php_name(), "US-ASCII");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TargetEncoding {
    /// ISO-8859-1: code points above U+00FF and malformed sequences become `?`.
    Iso8859_1,
    /// US-ASCII: code points above U+007F and malformed sequences become `?`.
    UsAscii,
    /// UTF-8: bytes pass through unchanged and unvalidated, as in PHP.
    Utf8,
}

impl TargetEncoding {
    /// Every target, in PHP's table order.
    pub const ALL: [Self; 3] = [Self::Iso8859_1, Self::UsAscii, Self::Utf8];

    /// The canonical spelling PHP reports, for example from
    /// `xml_parser_get_option(XML_OPTION_TARGET_ENCODING)`.
    #[must_use]
    pub const fn php_name(self) -> &'static str {
        match self {
            Self::Iso8859_1 => "ISO-8859-1",
            Self::UsAscii => "US-ASCII",
            Self::Utf8 => "UTF-8",
        }
    }

    /// Looks a name up as PHP does: exact spelling, ASCII case ignored.
    #[must_use]
    pub fn from_php_name(name: &[u8]) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|t| t.php_name().as_bytes().eq_ignore_ascii_case(name))
    }

    /// The byte a decoded character becomes, or `None` for UTF-8, where
    /// nothing is decoded. Failures arrive as `None` code points.
    #[inline(always)]
    pub(crate) fn map(self, code_point: Option<u32>) -> u8 {
        let limit = match self {
            Self::Iso8859_1 => 0xFF,
            Self::UsAscii | Self::Utf8 => 0x7F,
        };
        match code_point {
            // The guard makes the cast lossless.
            Some(cp) if cp <= limit => cp as u8,
            _ => b'?',
        }
    }
}

impl fmt::Display for TargetEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.php_name())
    }
}

/// A name that is not one of PHP's three encodings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEncoding {
    name: String,
}

impl UnknownEncoding {
    pub(crate) fn new(name: &[u8]) -> Self {
        Self {
            name: String::from_utf8_lossy(name).into_owned(),
        }
    }

    /// The name that was given.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for UnknownEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unsupported encoding `{}`: expected ISO-8859-1, US-ASCII or UTF-8",
            self.name
        )
    }
}

impl std::error::Error for UnknownEncoding {}

impl FromStr for TargetEncoding {
    type Err = UnknownEncoding;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::from_php_name(s.as_bytes()).ok_or_else(|| UnknownEncoding::new(s.as_bytes()))
    }
}
