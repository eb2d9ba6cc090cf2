//! Parser options (`xml_parser_set_option()` / `xml_parser_get_option()`)
//! and PHP's `(int)` cast of strings, which option values go through.

/// The options of `xml_parser_set_option()` PHP 8.2 knows, and PHP 8.4's
/// `XML_OPTION_PARSE_HUGE`, with PHP's constant values.
///
/// ```
/// use phpxml::{Parser, XmlOption};
///
/// assert_eq!(XmlOption::SkipWhite as i32, 4); // XML_OPTION_SKIP_WHITE
/// let mut parser = Parser::new(None)?;
/// parser.set_option(XmlOption::SkipWhite, true.into())?;
/// assert!(parser.skip_white());
/// # Ok::<(), phpxml::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum XmlOption {
    /// `XML_OPTION_CASE_FOLDING` (1): upper-case element and attribute
    /// names (ASCII letters only). Default: on.
    CaseFolding = 1,
    /// `XML_OPTION_TARGET_ENCODING` (2): the encoding strings are given in.
    /// Default: the encoding the parser was created with.
    TargetEncoding = 2,
    /// `XML_OPTION_SKIP_TAGSTART` (3): how many bytes to cut from the start
    /// of element names. Default: 0.
    SkipTagstart = 3,
    /// `XML_OPTION_SKIP_WHITE` (4): leave whitespace-only text out of
    /// `xml_parse_into_struct()`'s values. Default: off.
    SkipWhite = 4,
    /// `XML_OPTION_PARSE_HUGE` (5, PHP 8.4 and later): libxml2's
    /// `XML_PARSE_HUGE`. Names may be 10,000,000 bytes long instead of
    /// 50,000; attribute values, comments and PIs 1,000,000,000 instead of
    /// 10,000,000; a document given in one call or held unparsed has no
    /// 10,000,000-byte limit; entity references in attribute values are
    /// not checked for amplification (nor undeclared ones counted) and may
    /// nest 1024 deep instead of 40. Default: off.
    ParseHuge = 5,
}

/// A value given to or read from an option, as a PHP `int` or `string`.
///
/// ```
/// use phpxml::OptionValue;
///
/// assert_eq!(OptionValue::from(true), OptionValue::Int(1));
/// assert_eq!(OptionValue::from(" 12abc").to_int(), 12); // PHP's (int) cast
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum OptionValue {
    /// An integer (PHP 8.2 reports the boolean options as integers too).
    Int(i64),
    /// A boolean: what PHP 8.4 reports for `XML_OPTION_PARSE_HUGE`.
    Bool(bool),
    /// A string (the target encoding; for the integer options PHP converts
    /// it with its `(int)` cast).
    Str(String),
}

impl From<i64> for OptionValue {
    fn from(v: i64) -> Self {
        Self::Int(v)
    }
}

impl From<bool> for OptionValue {
    fn from(v: bool) -> Self {
        Self::Int(i64::from(v))
    }
}

impl From<&str> for OptionValue {
    fn from(v: &str) -> Self {
        Self::Str(v.to_owned())
    }
}

impl OptionValue {
    /// `zval_get_long()`: the value as PHP converts it to an integer.
    #[must_use]
    pub fn to_int(&self) -> i64 {
        match self {
            Self::Int(v) => *v,
            Self::Bool(b) => i64::from(*b),
            Self::Str(s) => int_cast(s.as_bytes()),
        }
    }

    /// `zend_is_true()`: a non-zero integer (all 64 bits), a string other
    /// than `""` and `"0"`.
    ///
    /// ```
    /// use phpxml::OptionValue;
    ///
    /// assert!(OptionValue::Int(4_294_967_296).is_true());
    /// assert!(!OptionValue::from("0").is_true());
    /// assert!(OptionValue::from("0.0").is_true());
    /// ```
    #[must_use]
    pub fn is_true(&self) -> bool {
        match self {
            Self::Int(v) => *v != 0,
            Self::Bool(b) => *b,
            Self::Str(s) => !s.is_empty() && s != "0",
        }
    }
}

/// PHP's `(int)` cast of a string: leading whitespace, an optional sign and
/// the longest numeric prefix (decimal digits, optionally a fraction and an
/// exponent); anything else gives 0. Integers too large for `i64` and
/// finite floats out of range saturate; infinities give 0; fractions are
/// cut toward zero.
///
/// ```
/// use phpxml::report::int_cast;
///
/// assert_eq!(int_cast(b" 12abc"), 12);
/// assert_eq!(int_cast(b"1e3"), 1000);
/// assert_eq!(int_cast(b"-1.9"), -1);
/// assert_eq!(int_cast(b"0x1A"), 0);
/// assert_eq!(int_cast(b"99999999999999999999"), i64::MAX);
/// assert_eq!(int_cast(b"1e400"), 0);
/// ```
#[must_use]
pub fn int_cast(s: &[u8]) -> i64 {
    let start = s
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C))
        .unwrap_or(s.len());
    let s = &s[start..];
    let mut i = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    let int_digits = s[i..].iter().take_while(|b| b.is_ascii_digit()).count();
    i += int_digits;
    let mut is_float = false;
    if s.get(i) == Some(&b'.') {
        let frac = s[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if int_digits == 0 && frac == 0 {
            return 0;
        }
        is_float = true;
        i += 1 + frac;
    } else if int_digits == 0 {
        return 0;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(s.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exp = s[j..].iter().take_while(|b| b.is_ascii_digit()).count();
        if exp > 0 {
            is_float = true;
            i = j + exp;
        }
    }
    // Only ASCII signs, digits, '.' and 'e': valid UTF-8.
    let text = std::str::from_utf8(&s[..i]).unwrap_or("0");
    if !is_float && let Ok(v) = text.parse::<i64>() {
        return v;
    }
    let d: f64 = text.parse().unwrap_or(0.0);
    if d.is_finite() {
        // Saturating, truncating toward zero: `zend_dval_to_lval_cap()`.
        d as i64
    } else {
        0
    }
}

/// PHP 8.2 keeps the options in C `int` fields: an `i64` is cut to its low
/// 32 bits, as the C assignment does.
pub(crate) fn c_int(v: i64) -> i32 {
    v as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values printed by PHP 8.2: `(int)$s` for each string.
    #[test]
    fn int_cast_matches_php() {
        let cases: &[(&[u8], i64)] = &[
            (b"0", 0),
            (b"1", 1),
            (b"-1", -1),
            (b"2147483648", 2_147_483_648),
            (b"4294967297", 4_294_967_297),
            (b"-4294967295", -4_294_967_295),
            (b"9999999999999999999999", i64::MAX),
            (b"-9999999999999999999999", i64::MIN),
            (b" 1", 1),
            (b"1e1", 10),
            (b"0x1", 0),
            (b"1.9", 1),
            (b"-1.9", -1),
            (b"abc", 0),
            (b"", 0),
            (b"-0", 0),
            (b"+2", 2),
            (b" +2x", 2),
            (b"\t3", 3),
            (b"2 ", 2),
            (b"1e400", 0),
            (b"-1e400", 0),
            (b".5e1", 5),
            (b"-.5e1", -5),
            (b"9223372036854775807", i64::MAX),
            (b"9223372036854775808", i64::MAX),
            (b"-9223372036854775808", i64::MIN),
            (b"-9223372036854775809", i64::MIN),
            (b"1e18", 1_000_000_000_000_000_000),
            (b"1.5e18", 1_500_000_000_000_000_000),
            (b"0b1", 0),
            (b"1_0", 1),
            (b"00002", 2),
            (b"2e", 2),
            (b"2e+", 2),
            (b"2e+1", 20),
            (b"- 2", 0),
            (b"--2", 0),
            (b"+-2", 0),
            (b".", 0),
            (b"-.", 0),
            (b"1.", 1),
            (b"1.e3", 1000),
            (b" -7 ", -7),
            (b"1e-5", 0),
            (b"3E2", 300),
            (b"12abc34", 12),
            (b"NaN", 0),
            (b"INF", 0),
            (b"1e19", i64::MAX),
            (b"-1e19", i64::MIN),
            (b"9.2233720368547758e18", i64::MAX),
            (b"\n2", 2),
            (b"\x0B2", 2),
            (b"\x0C2", 2),
            (b"\r2", 2),
        ];
        for &(s, want) in cases {
            assert_eq!(int_cast(s), want, "{:?}", String::from_utf8_lossy(s));
        }
    }
}
