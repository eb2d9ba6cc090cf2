//! `xml_error_string()`: the messages PHP's libxml2 compat layer gives for
//! libxml2's error numbers, and the typed errors of the PHP API itself.

use std::fmt;

use crate::decode::TargetEncoding;
use crate::php::error_code::ErrorCode;

/// The messages `xml_error_string(0..=101)` returns in PHP 8.2 built on
/// libxml2; the position is the libxml2 error number. Captured from PHP
/// itself (and matching the table in php-src `ext/xml/compat.c`). Entries
/// 1-4 carry expat-style wording on libxml2 numbers, several entries are the
/// bare libxml2 enum names, and libxml2's `XML_ERR_COMMENT_NOT_STARTED` has
/// no entry, as in PHP.
const MESSAGES: [&str; 102] = [
    "No error",
    "No memory",
    "Invalid document start",
    "Empty document",
    "Not well-formed (invalid token)",
    "Invalid document end",
    "Invalid hexadecimal character reference",
    "Invalid decimal character reference",
    "Invalid character reference",
    "Invalid character",
    "XML_ERR_CHARREF_AT_EOF",
    "XML_ERR_CHARREF_IN_PROLOG",
    "XML_ERR_CHARREF_IN_EPILOG",
    "XML_ERR_CHARREF_IN_DTD",
    "XML_ERR_ENTITYREF_AT_EOF",
    "XML_ERR_ENTITYREF_IN_PROLOG",
    "XML_ERR_ENTITYREF_IN_EPILOG",
    "XML_ERR_ENTITYREF_IN_DTD",
    "PEReference at end of document",
    "PEReference in prolog",
    "PEReference in epilog",
    "PEReference: forbidden within markup decl in internal subset",
    "XML_ERR_ENTITYREF_NO_NAME",
    "EntityRef: expecting ';'",
    "PEReference: no name",
    "PEReference: expecting ';'",
    "Undeclared entity error",
    "Undeclared entity warning",
    "Unparsed Entity",
    "XML_ERR_ENTITY_IS_EXTERNAL",
    "XML_ERR_ENTITY_IS_PARAMETER",
    "Unknown encoding",
    "Unsupported encoding",
    "String not started expecting ' or \"",
    "String not closed expecting \" or '",
    "Namespace declaration error",
    "EntityValue: \" or ' expected",
    "EntityValue: \" or ' expected",
    "< in attribute",
    "Attribute not started",
    "Attribute not finished",
    "Attribute without value",
    "Attribute redefined",
    "SystemLiteral \" or ' expected",
    "SystemLiteral \" or ' expected",
    "Comment not finished",
    "Processing Instruction not started",
    "Processing Instruction not finished",
    "NOTATION: Name expected here",
    "'>' required to close NOTATION declaration",
    "'(' required to start ATTLIST enumeration",
    "'(' required to start ATTLIST enumeration",
    "MixedContentDecl : '|' or ')*' expected",
    "XML_ERR_MIXED_NOT_FINISHED",
    "ELEMENT in DTD not started",
    "ELEMENT in DTD not finished",
    "XML declaration not started",
    "XML declaration not finished",
    "XML_ERR_CONDSEC_NOT_STARTED",
    "XML conditional section not closed",
    "Content error in the external subset",
    "DOCTYPE not finished",
    "Sequence ']]>' not allowed in content",
    "CDATA not finished",
    "Reserved XML Name",
    "Space required",
    "XML_ERR_SEPARATOR_REQUIRED",
    "NmToken expected in ATTLIST enumeration",
    "XML_ERR_NAME_REQUIRED",
    "MixedContentDecl : '#PCDATA' expected",
    "SYSTEM or PUBLIC, the URI is missing",
    "PUBLIC, the Public Identifier is missing",
    "< required",
    "> required",
    "</ required",
    "= required",
    "Mismatched tag",
    "Tag not finished",
    "standalone accepts only 'yes' or 'no'",
    "Invalid XML encoding name",
    "Comment must not contain '--' (double-hyphen)",
    "Invalid encoding",
    "external parsed entities cannot be standalone",
    "XML conditional section '[' expected",
    "Entity value required",
    "chunk is not well balanced",
    "extra content at the end of well balanced chunk",
    "XML_ERR_ENTITY_CHAR_ERROR",
    "PEReferences forbidden in internal subset",
    "Detected an entity reference loop",
    "XML_ERR_ENTITY_BOUNDARY",
    "Invalid URI",
    "Fragment not allowed",
    "XML_WAR_CATALOG_PI",
    "XML_ERR_NO_DTD",
    "conditional section INCLUDE or IGNORE keyword expected",
    "Version in XML Declaration missing",
    "XML_WAR_UNKNOWN_VERSION",
    "XML_WAR_LANG_VALUE",
    "XML_WAR_NS_URI",
    "XML_WAR_NS_URI_RELATIVE",
    "Missing encoding in text declaration",
];

/// `xml_error_string(code)`: PHP's message for a libxml2 error number, or
/// `"Unknown"` for a number outside the table (negative ones included).
///
/// ```
/// use phpxml::error_string;
///
/// assert_eq!(error_string(0), "No error");
/// assert_eq!(error_string(76), "Mismatched tag");
/// assert_eq!(error_string(102), "Unknown");
/// assert_eq!(error_string(-1), "Unknown");
/// ```
#[must_use]
pub fn error_string(code: i32) -> &'static str {
    usize::try_from(code)
        .ok()
        .and_then(|i| MESSAGES.get(i))
        .copied()
        .unwrap_or("Unknown")
}

/// A document PHP's parser rejected: `xml_parse()` returned 0, and these
/// are what `xml_get_error_code()`, `xml_get_current_line_number()`,
/// `xml_get_current_column_number()` and `xml_get_current_byte_index()`
/// answered then.
///
/// ```
/// use phpxml::Parser;
///
/// let mut parser = Parser::new(None).unwrap();
/// assert!(!parser.parse(&mut (), b"<a></b>", true));
/// let error = parser.last_error().unwrap();
/// assert_eq!((error.code, error.message()), (76, "Mismatched tag"));
/// assert_eq!(error.to_string(), "Mismatched tag (XML error 76) at line 1, column 8, byte 7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    /// libxml2's error number, as `xml_get_error_code()` gives it.
    pub code: i32,
    /// `xml_get_current_line_number()` (1-based).
    pub line: u64,
    /// `xml_get_current_column_number()`.
    pub column: u64,
    /// `xml_get_current_byte_index()`.
    pub byte_index: i64,
}

impl ParseError {
    /// `xml_error_string(code)`.
    #[must_use]
    pub fn message(&self) -> &'static str {
        error_string(self.code)
    }

    /// [`code`](Self::code) by name, if libxml2 names it.
    #[must_use]
    pub fn error_code(&self) -> Option<ErrorCode> {
        ErrorCode::from_i32(self.code)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (XML error {}) at line {}, column {}, byte {}",
            self.message(),
            self.code,
            self.line,
            self.column,
            self.byte_index
        )
    }
}

impl std::error::Error for ParseError {}

/// Everything that can go wrong: what PHP reports as a `ValueError` (or a
/// warning with a `false` result) when a parser is created or configured
/// with a value it does not accept, a rejected document, and reading
/// input.
///
/// ```
/// use phpxml::{Error, Parser};
///
/// let err = Parser::new(Some("UTF-16")).unwrap_err();
/// assert!(matches!(&err, Error::UnsupportedSourceEncoding(name) if name == "UTF-16"));
/// assert!(err.to_string().starts_with("`UTF-16` is not a supported source encoding"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// `xml_parser_create()` was given an encoding other than
    /// `ISO-8859-1`, `US-ASCII`, `UTF-8` (any ASCII case) or `""`.
    UnsupportedSourceEncoding(String),
    /// `XML_OPTION_TARGET_ENCODING` was set to an encoding other than
    /// `ISO-8859-1`, `US-ASCII` or `UTF-8` (any ASCII case).
    UnsupportedTargetEncoding(String),
    /// `XML_OPTION_SKIP_TAGSTART` was set to a value that is negative once
    /// truncated to a C `int`, as PHP 8.2 stores it; PHP then warns, sets
    /// the option to 0 and returns `false`. Holds the value given.
    SkipTagstartOutOfRange(i64),
    /// A [`Utf8Handler`](crate::Utf8Handler) was given a parser whose
    /// target encoding is not UTF-8 (it holds the target): its strings
    /// would not be `&str`.
    TargetNotUtf8(TargetEncoding),
    /// A string the parser was about to hand to a
    /// [`Utf8Handler`](crate::Utf8Handler) is not UTF-8, so the parse
    /// stopped before that call (as [`Utf8Handler::stop_requested`]
    /// stops it: later calls fail with error 111). A UTF-8 target's
    /// strings are UTF-8 but in two cases, where PHP hands the bytes on as
    /// they are and a byte [`Handler`](crate::Handler) gets them too:
    /// `XML_OPTION_SKIP_TAGSTART` cutting a tag name inside a character,
    /// and an unclosed CDATA section after an encoding error, which
    /// reaches the character-data handler as the raw buffer up to its
    /// first NUL.
    ///
    /// [`Utf8Handler::stop_requested`]: crate::Utf8Handler::stop_requested
    NotUtf8,
    /// The document is not well-formed (or not namespace-well-formed), as
    /// PHP's `xml_parse()` returning 0 tells.
    Parse(ParseError),
    /// Reading the input failed (only from readers such as
    /// [`EventReader`](crate::EventReader)).
    Io(std::io::Error),
}

impl From<ParseError> for Error {
    fn from(e: ParseError) -> Self {
        Self::Parse(e)
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnsupportedSourceEncoding(name) => write!(
                f,
                "`{name}` is not a supported source encoding: expected ISO-8859-1, US-ASCII, UTF-8 or \"\""
            ),
            Self::UnsupportedTargetEncoding(name) => write!(
                f,
                "`{name}` is not a supported target encoding: expected ISO-8859-1, US-ASCII or UTF-8"
            ),
            Self::SkipTagstartOutOfRange(value) => write!(
                f,
                "skip tagstart {value} is out of range: expected 0 to 2147483647 (the option is reset to 0)"
            ),
            Self::TargetNotUtf8(target) => write!(
                f,
                "a UTF-8 handler needs the UTF-8 target encoding, not {}",
                target.php_name()
            ),
            Self::NotUtf8 => f.write_str(
                "a string for the UTF-8 handler is not UTF-8 (a tag name cut by skip tagstart, or bytes after an encoding error); the parse stopped",
            ),
            Self::Parse(e) => e.fmt(f),
            Self::Io(e) => write!(f, "cannot read the document: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Parse(e) => Some(e),
            Self::Io(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_edges() {
        assert_eq!(error_string(1), "No memory");
        assert_eq!(
            error_string(21),
            "PEReference: forbidden within markup decl in internal subset"
        );
        assert_eq!(error_string(23), "EntityRef: expecting ';'");
        assert_eq!(error_string(45), "Comment not finished");
        assert_eq!(error_string(101), "Missing encoding in text declaration");
        assert_eq!(error_string(i32::MAX), "Unknown");
        assert_eq!(error_string(i32::MIN), "Unknown");
    }

    /// The whole table against the PHP on this machine, when there is one.
    #[test]
    fn table_matches_php() {
        let Ok(out) = std::process::Command::new("php")
            .args([
                "-r",
                "for($i=-2;$i<=104;$i++) echo xml_error_string($i), \"\\n\";",
            ])
            .output()
        else {
            return;
        };
        if !out.status.success() {
            return;
        }
        let text = String::from_utf8(out.stdout).unwrap();
        let ours = (-2..=104).fold(String::new(), |mut s, c| {
            s.push_str(error_string(c));
            s.push('\n');
            s
        });
        assert_eq!(text, ours);
    }
}
