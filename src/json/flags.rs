//! `json_encode()` options with PHP's constant values.

use std::fmt;
use std::ops::{BitOr, BitOrAssign};

/// The `$flags` argument of PHP's `json_encode()`: a set of `JSON_*` bits
/// with PHP's values.
///
/// Any `u32` is accepted, as PHP accepts any integer; bits without a
/// constant here are kept and ignored (`JSON_THROW_ON_ERROR` is not
/// modelled: every function reports errors by its return value).
///
/// ```
/// use phpxml::json::JsonFlags;
///
/// let flags = JsonFlags::UNESCAPED_UNICODE | JsonFlags::UNESCAPED_SLASHES;
/// assert_eq!(flags.bits(), 320);
/// assert!(flags.contains(JsonFlags::UNESCAPED_SLASHES));
/// assert!(!flags.contains(JsonFlags::HEX_TAG));
/// assert_eq!(JsonFlags::from_bits(320), flags);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct JsonFlags(u32);

impl JsonFlags {
    /// No option: `0`.
    pub const NONE: Self = Self(0);
    /// `JSON_HEX_TAG` (1): `<` and `>` become `\u003C` and `\u003E`.
    pub const HEX_TAG: Self = Self(1);
    /// `JSON_HEX_AMP` (2): `&` becomes `\u0026`.
    pub const HEX_AMP: Self = Self(2);
    /// `JSON_HEX_APOS` (4): `'` becomes `\u0027`.
    pub const HEX_APOS: Self = Self(4);
    /// `JSON_HEX_QUOT` (8): `"` becomes `\u0022`.
    pub const HEX_QUOT: Self = Self(8);
    /// `JSON_FORCE_OBJECT` (16): every array is written as an object.
    pub const FORCE_OBJECT: Self = Self(16);
    /// `JSON_NUMERIC_CHECK` (32): string values that PHP considers numeric
    /// are written as numbers (keys are never converted).
    pub const NUMERIC_CHECK: Self = Self(32);
    /// `JSON_UNESCAPED_SLASHES` (64): `/` is not escaped as `\/`.
    pub const UNESCAPED_SLASHES: Self = Self(64);
    /// `JSON_PRETTY_PRINT` (128): newlines and four-space indentation.
    pub const PRETTY_PRINT: Self = Self(128);
    /// `JSON_UNESCAPED_UNICODE` (256): well-formed multibyte characters are
    /// copied as UTF-8 instead of `\uXXXX` (U+2028 and U+2029 still escaped
    /// unless [`Self::UNESCAPED_LINE_TERMINATORS`] is set too).
    pub const UNESCAPED_UNICODE: Self = Self(256);
    /// `JSON_PARTIAL_OUTPUT_ON_ERROR` (512): a value that cannot be encoded
    /// becomes `null` (a float `0`, a key `""`) and encoding goes on.
    pub const PARTIAL_OUTPUT_ON_ERROR: Self = Self(512);
    /// `JSON_PRESERVE_ZERO_FRACTION` (1024): floats with an integral value
    /// keep `.0`.
    pub const PRESERVE_ZERO_FRACTION: Self = Self(1024);
    /// `JSON_UNESCAPED_LINE_TERMINATORS` (2048): with
    /// [`Self::UNESCAPED_UNICODE`], U+2028 and U+2029 are copied too.
    pub const UNESCAPED_LINE_TERMINATORS: Self = Self(2048);
    /// `JSON_INVALID_UTF8_IGNORE` (1048576): malformed UTF-8 is dropped.
    pub const INVALID_UTF8_IGNORE: Self = Self(1_048_576);
    /// `JSON_INVALID_UTF8_SUBSTITUTE` (2097152): each malformed sequence
    /// becomes one U+FFFD.
    pub const INVALID_UTF8_SUBSTITUTE: Self = Self(2_097_152);

    /// The named flags with their PHP names, in value order.
    pub const NAMED: [(&'static str, Self); 14] = [
        ("JSON_HEX_TAG", Self::HEX_TAG),
        ("JSON_HEX_AMP", Self::HEX_AMP),
        ("JSON_HEX_APOS", Self::HEX_APOS),
        ("JSON_HEX_QUOT", Self::HEX_QUOT),
        ("JSON_FORCE_OBJECT", Self::FORCE_OBJECT),
        ("JSON_NUMERIC_CHECK", Self::NUMERIC_CHECK),
        ("JSON_UNESCAPED_SLASHES", Self::UNESCAPED_SLASHES),
        ("JSON_PRETTY_PRINT", Self::PRETTY_PRINT),
        ("JSON_UNESCAPED_UNICODE", Self::UNESCAPED_UNICODE),
        (
            "JSON_PARTIAL_OUTPUT_ON_ERROR",
            Self::PARTIAL_OUTPUT_ON_ERROR,
        ),
        ("JSON_PRESERVE_ZERO_FRACTION", Self::PRESERVE_ZERO_FRACTION),
        (
            "JSON_UNESCAPED_LINE_TERMINATORS",
            Self::UNESCAPED_LINE_TERMINATORS,
        ),
        ("JSON_INVALID_UTF8_IGNORE", Self::INVALID_UTF8_IGNORE),
        (
            "JSON_INVALID_UTF8_SUBSTITUTE",
            Self::INVALID_UTF8_SUBSTITUTE,
        ),
    ];

    /// The flags with these bits, as PHP reads its `$flags` integer.
    #[must_use]
    pub const fn from_bits(bits: u32) -> Self {
        Self(bits)
    }

    /// The integer PHP would be given.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether every bit of `other` is set.
    #[must_use]
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// These flags and `other`'s.
    #[must_use]
    pub const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// These flags without `other`'s.
    #[must_use]
    pub const fn difference(self, other: Self) -> Self {
        Self(self.0 & !other.0)
    }
}

impl BitOr for JsonFlags {
    type Output = Self;

    fn bitor(self, other: Self) -> Self {
        self.union(other)
    }
}

impl BitOrAssign for JsonFlags {
    fn bitor_assign(&mut self, other: Self) {
        *self = self.union(other);
    }
}

/// Writes the flags as PHP source: `JSON_HEX_TAG|JSON_HEX_AMP`, `0` when
/// empty, and any unnamed bits as a number.
///
/// ```
/// use phpxml::json::JsonFlags;
///
/// let flags = JsonFlags::HEX_TAG | JsonFlags::from_bits(1 << 30);
/// assert_eq!(flags.to_string(), "JSON_HEX_TAG|1073741824");
/// assert_eq!(JsonFlags::NONE.to_string(), "0");
/// ```
impl fmt::Display for JsonFlags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        let mut first = true;
        let mut sep = |f: &mut fmt::Formatter<'_>| {
            let s = if first { "" } else { "|" };
            first = false;
            f.write_str(s)
        };
        for (name, flag) in Self::NAMED {
            if self.contains(flag) {
                sep(f)?;
                f.write_str(name)?;
                rest &= !flag.0;
            }
        }
        if rest != 0 || self.0 == 0 {
            sep(f)?;
            write!(f, "{rest}")?;
        }
        Ok(())
    }
}
