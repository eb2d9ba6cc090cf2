//! [`ErrorCode`]: libxml2's error numbers, as `xml_get_error_code()`
//! reports them, by name.

/// An error number of `xml_get_error_code()`, by its name in libxml2's
/// `xmlParserErrors` (`XML_ERR_*`, `XML_WAR_*`, `XML_NS_ERR_*`), with
/// libxml2's number as its value: `code as i32` is what PHP reports, and
/// [`ErrorCode::from_i32`] names a number. PHP's own number 21 for a
/// refused external entity (expat's `XML_ERROR_EXTERNAL_ENTITY_HANDLING`)
/// is also libxml2's 21: see [`ErrorCode::EXTERNAL_ENTITY_HANDLING`].
///
/// ```
/// use phpxml::{ErrorCode, Parser};
///
/// let mut parser = Parser::new(None)?;
/// let error = parser.feed(&mut (), b"<a></b>", true).unwrap_err();
/// assert_eq!(error.error_code(), Some(ErrorCode::TagNameMismatch));
/// assert_eq!(ErrorCode::TagNameMismatch as i32, 76);
/// assert_eq!(ErrorCode::from_i32(76), Some(ErrorCode::TagNameMismatch));
/// assert_eq!(ErrorCode::TagNameMismatch.message(), "Mismatched tag");
/// # Ok::<(), phpxml::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[repr(i32)]
pub enum ErrorCode {
    /// `XML_ERR_OK` (0).
    Ok = 0,
    /// `XML_ERR_INTERNAL_ERROR` (1).
    InternalError = 1,
    /// `XML_ERR_NO_MEMORY` (2).
    NoMemory = 2,
    /// `XML_ERR_DOCUMENT_START` (3).
    DocumentStart = 3,
    /// `XML_ERR_DOCUMENT_EMPTY` (4).
    DocumentEmpty = 4,
    /// `XML_ERR_DOCUMENT_END` (5).
    DocumentEnd = 5,
    /// `XML_ERR_INVALID_HEX_CHARREF` (6).
    InvalidHexCharref = 6,
    /// `XML_ERR_INVALID_DEC_CHARREF` (7).
    InvalidDecCharref = 7,
    /// `XML_ERR_INVALID_CHARREF` (8).
    InvalidCharref = 8,
    /// `XML_ERR_INVALID_CHAR` (9).
    InvalidChar = 9,
    /// `XML_ERR_CHARREF_AT_EOF` (10).
    CharrefAtEof = 10,
    /// `XML_ERR_CHARREF_IN_PROLOG` (11).
    CharrefInProlog = 11,
    /// `XML_ERR_CHARREF_IN_EPILOG` (12).
    CharrefInEpilog = 12,
    /// `XML_ERR_CHARREF_IN_DTD` (13).
    CharrefInDtd = 13,
    /// `XML_ERR_ENTITYREF_AT_EOF` (14).
    EntityrefAtEof = 14,
    /// `XML_ERR_ENTITYREF_IN_PROLOG` (15).
    EntityrefInProlog = 15,
    /// `XML_ERR_ENTITYREF_IN_EPILOG` (16).
    EntityrefInEpilog = 16,
    /// `XML_ERR_ENTITYREF_IN_DTD` (17).
    EntityrefInDtd = 17,
    /// `XML_ERR_PEREF_AT_EOF` (18).
    PerefAtEof = 18,
    /// `XML_ERR_PEREF_IN_PROLOG` (19).
    PerefInProlog = 19,
    /// `XML_ERR_PEREF_IN_EPILOG` (20).
    PerefInEpilog = 20,
    /// `XML_ERR_PEREF_IN_INT_SUBSET` (21).
    PerefInIntSubset = 21,
    /// `XML_ERR_ENTITYREF_NO_NAME` (22).
    EntityrefNoName = 22,
    /// `XML_ERR_ENTITYREF_SEMICOL_MISSING` (23).
    EntityrefSemicolMissing = 23,
    /// `XML_ERR_PEREF_NO_NAME` (24).
    PerefNoName = 24,
    /// `XML_ERR_PEREF_SEMICOL_MISSING` (25).
    PerefSemicolMissing = 25,
    /// `XML_ERR_UNDECLARED_ENTITY` (26).
    UndeclaredEntity = 26,
    /// `XML_WAR_UNDECLARED_ENTITY` (27).
    UndeclaredEntityWarning = 27,
    /// `XML_ERR_UNPARSED_ENTITY` (28).
    UnparsedEntity = 28,
    /// `XML_ERR_ENTITY_IS_EXTERNAL` (29).
    EntityIsExternal = 29,
    /// `XML_ERR_ENTITY_IS_PARAMETER` (30).
    EntityIsParameter = 30,
    /// `XML_ERR_UNKNOWN_ENCODING` (31).
    UnknownEncoding = 31,
    /// `XML_ERR_UNSUPPORTED_ENCODING` (32).
    UnsupportedEncoding = 32,
    /// `XML_ERR_STRING_NOT_STARTED` (33).
    StringNotStarted = 33,
    /// `XML_ERR_STRING_NOT_CLOSED` (34).
    StringNotClosed = 34,
    /// `XML_ERR_NS_DECL_ERROR` (35).
    NsDeclError = 35,
    /// `XML_ERR_ENTITY_NOT_STARTED` (36).
    EntityNotStarted = 36,
    /// `XML_ERR_ENTITY_NOT_FINISHED` (37).
    EntityNotFinished = 37,
    /// `XML_ERR_LT_IN_ATTRIBUTE` (38).
    LtInAttribute = 38,
    /// `XML_ERR_ATTRIBUTE_NOT_STARTED` (39).
    AttributeNotStarted = 39,
    /// `XML_ERR_ATTRIBUTE_NOT_FINISHED` (40).
    AttributeNotFinished = 40,
    /// `XML_ERR_ATTRIBUTE_WITHOUT_VALUE` (41).
    AttributeWithoutValue = 41,
    /// `XML_ERR_ATTRIBUTE_REDEFINED` (42).
    AttributeRedefined = 42,
    /// `XML_ERR_LITERAL_NOT_STARTED` (43).
    LiteralNotStarted = 43,
    /// `XML_ERR_LITERAL_NOT_FINISHED` (44).
    LiteralNotFinished = 44,
    /// `XML_ERR_COMMENT_NOT_FINISHED` (45).
    CommentNotFinished = 45,
    /// `XML_ERR_PI_NOT_STARTED` (46).
    PiNotStarted = 46,
    /// `XML_ERR_PI_NOT_FINISHED` (47).
    PiNotFinished = 47,
    /// `XML_ERR_NOTATION_NOT_STARTED` (48).
    NotationNotStarted = 48,
    /// `XML_ERR_NOTATION_NOT_FINISHED` (49).
    NotationNotFinished = 49,
    /// `XML_ERR_ATTLIST_NOT_STARTED` (50).
    AttlistNotStarted = 50,
    /// `XML_ERR_ATTLIST_NOT_FINISHED` (51).
    AttlistNotFinished = 51,
    /// `XML_ERR_MIXED_NOT_STARTED` (52).
    MixedNotStarted = 52,
    /// `XML_ERR_MIXED_NOT_FINISHED` (53).
    MixedNotFinished = 53,
    /// `XML_ERR_ELEMCONTENT_NOT_STARTED` (54).
    ElemcontentNotStarted = 54,
    /// `XML_ERR_ELEMCONTENT_NOT_FINISHED` (55).
    ElemcontentNotFinished = 55,
    /// `XML_ERR_XMLDECL_NOT_STARTED` (56).
    XmldeclNotStarted = 56,
    /// `XML_ERR_XMLDECL_NOT_FINISHED` (57).
    XmldeclNotFinished = 57,
    /// `XML_ERR_CONDSEC_NOT_STARTED` (58).
    CondsecNotStarted = 58,
    /// `XML_ERR_CONDSEC_NOT_FINISHED` (59).
    CondsecNotFinished = 59,
    /// `XML_ERR_EXT_SUBSET_NOT_FINISHED` (60).
    ExtSubsetNotFinished = 60,
    /// `XML_ERR_DOCTYPE_NOT_FINISHED` (61).
    DoctypeNotFinished = 61,
    /// `XML_ERR_MISPLACED_CDATA_END` (62).
    MisplacedCdataEnd = 62,
    /// `XML_ERR_CDATA_NOT_FINISHED` (63).
    CdataNotFinished = 63,
    /// `XML_ERR_RESERVED_XML_NAME` (64).
    ReservedXmlName = 64,
    /// `XML_ERR_SPACE_REQUIRED` (65).
    SpaceRequired = 65,
    /// `XML_ERR_SEPARATOR_REQUIRED` (66).
    SeparatorRequired = 66,
    /// `XML_ERR_NMTOKEN_REQUIRED` (67).
    NmtokenRequired = 67,
    /// `XML_ERR_NAME_REQUIRED` (68).
    NameRequired = 68,
    /// `XML_ERR_PCDATA_REQUIRED` (69).
    PcdataRequired = 69,
    /// `XML_ERR_URI_REQUIRED` (70).
    UriRequired = 70,
    /// `XML_ERR_PUBID_REQUIRED` (71).
    PubidRequired = 71,
    /// `XML_ERR_LT_REQUIRED` (72).
    LtRequired = 72,
    /// `XML_ERR_GT_REQUIRED` (73).
    GtRequired = 73,
    /// `XML_ERR_LTSLASH_REQUIRED` (74).
    LtslashRequired = 74,
    /// `XML_ERR_EQUAL_REQUIRED` (75).
    EqualRequired = 75,
    /// `XML_ERR_TAG_NAME_MISMATCH` (76).
    TagNameMismatch = 76,
    /// `XML_ERR_TAG_NOT_FINISHED` (77).
    TagNotFinished = 77,
    /// `XML_ERR_STANDALONE_VALUE` (78).
    StandaloneValue = 78,
    /// `XML_ERR_ENCODING_NAME` (79).
    EncodingName = 79,
    /// `XML_ERR_HYPHEN_IN_COMMENT` (80).
    HyphenInComment = 80,
    /// `XML_ERR_INVALID_ENCODING` (81).
    InvalidEncoding = 81,
    /// `XML_ERR_EXT_ENTITY_STANDALONE` (82).
    ExtEntityStandalone = 82,
    /// `XML_ERR_CONDSEC_INVALID` (83).
    CondsecInvalid = 83,
    /// `XML_ERR_VALUE_REQUIRED` (84).
    ValueRequired = 84,
    /// `XML_ERR_NOT_WELL_BALANCED` (85).
    NotWellBalanced = 85,
    /// `XML_ERR_EXTRA_CONTENT` (86).
    ExtraContent = 86,
    /// `XML_ERR_ENTITY_CHAR_ERROR` (87).
    EntityCharError = 87,
    /// `XML_ERR_ENTITY_PE_INTERNAL` (88).
    EntityPeInternal = 88,
    /// `XML_ERR_ENTITY_LOOP` (89).
    EntityLoop = 89,
    /// `XML_ERR_ENTITY_BOUNDARY` (90).
    EntityBoundary = 90,
    /// `XML_ERR_INVALID_URI` (91).
    InvalidUri = 91,
    /// `XML_ERR_URI_FRAGMENT` (92).
    UriFragment = 92,
    /// `XML_WAR_CATALOG_PI` (93).
    CatalogPiWarning = 93,
    /// `XML_ERR_NO_DTD` (94).
    NoDtd = 94,
    /// `XML_ERR_CONDSEC_INVALID_KEYWORD` (95).
    CondsecInvalidKeyword = 95,
    /// `XML_ERR_VERSION_MISSING` (96).
    VersionMissing = 96,
    /// `XML_WAR_UNKNOWN_VERSION` (97).
    UnknownVersionWarning = 97,
    /// `XML_WAR_LANG_VALUE` (98).
    LangValueWarning = 98,
    /// `XML_WAR_NS_URI` (99).
    NsUriWarning = 99,
    /// `XML_WAR_NS_URI_RELATIVE` (100).
    NsUriRelativeWarning = 100,
    /// `XML_ERR_MISSING_ENCODING` (101).
    MissingEncoding = 101,
    /// `XML_WAR_SPACE_VALUE` (102).
    SpaceValueWarning = 102,
    /// `XML_ERR_NOT_STANDALONE` (103).
    NotStandalone = 103,
    /// `XML_ERR_ENTITY_PROCESSING` (104).
    EntityProcessing = 104,
    /// `XML_ERR_NOTATION_PROCESSING` (105).
    NotationProcessing = 105,
    /// `XML_WAR_NS_COLUMN` (106).
    NsColumnWarning = 106,
    /// `XML_WAR_ENTITY_REDEFINED` (107).
    EntityRedefinedWarning = 107,
    /// `XML_ERR_UNKNOWN_VERSION` (108).
    UnknownVersion = 108,
    /// `XML_ERR_VERSION_MISMATCH` (109).
    VersionMismatch = 109,
    /// `XML_ERR_NAME_TOO_LONG` (110).
    NameTooLong = 110,
    /// `XML_ERR_USER_STOP` (111).
    UserStop = 111,
    /// `XML_NS_ERR_XML_NAMESPACE` (200).
    NamespaceXmlNamespace = 200,
    /// `XML_NS_ERR_UNDEFINED_NAMESPACE` (201).
    NamespaceUndefinedNamespace = 201,
    /// `XML_NS_ERR_QNAME` (202).
    NamespaceQname = 202,
    /// `XML_NS_ERR_ATTRIBUTE_REDEFINED` (203).
    NamespaceAttributeRedefined = 203,
    /// `XML_NS_ERR_EMPTY` (204).
    NamespaceEmpty = 204,
    /// `XML_NS_ERR_COLON` (205).
    NamespaceColon = 205,
}

impl ErrorCode {
    /// What PHP's compat layer reports when an external-entity-reference
    /// handler returns `false` (expat's `XML_ERROR_EXTERNAL_ENTITY_HANDLING`,
    /// the same number as libxml2's `XML_ERR_PEREF_IN_INT_SUBSET`).
    pub const EXTERNAL_ENTITY_HANDLING: Self = Self::PerefInIntSubset;

    /// The code of libxml2's number `code`, if it names one.
    #[must_use]
    #[allow(clippy::too_many_lines)] // one arm per libxml2 number
    pub const fn from_i32(code: i32) -> Option<Self> {
        Some(match code {
            0 => Self::Ok,
            1 => Self::InternalError,
            2 => Self::NoMemory,
            3 => Self::DocumentStart,
            4 => Self::DocumentEmpty,
            5 => Self::DocumentEnd,
            6 => Self::InvalidHexCharref,
            7 => Self::InvalidDecCharref,
            8 => Self::InvalidCharref,
            9 => Self::InvalidChar,
            10 => Self::CharrefAtEof,
            11 => Self::CharrefInProlog,
            12 => Self::CharrefInEpilog,
            13 => Self::CharrefInDtd,
            14 => Self::EntityrefAtEof,
            15 => Self::EntityrefInProlog,
            16 => Self::EntityrefInEpilog,
            17 => Self::EntityrefInDtd,
            18 => Self::PerefAtEof,
            19 => Self::PerefInProlog,
            20 => Self::PerefInEpilog,
            21 => Self::PerefInIntSubset,
            22 => Self::EntityrefNoName,
            23 => Self::EntityrefSemicolMissing,
            24 => Self::PerefNoName,
            25 => Self::PerefSemicolMissing,
            26 => Self::UndeclaredEntity,
            27 => Self::UndeclaredEntityWarning,
            28 => Self::UnparsedEntity,
            29 => Self::EntityIsExternal,
            30 => Self::EntityIsParameter,
            31 => Self::UnknownEncoding,
            32 => Self::UnsupportedEncoding,
            33 => Self::StringNotStarted,
            34 => Self::StringNotClosed,
            35 => Self::NsDeclError,
            36 => Self::EntityNotStarted,
            37 => Self::EntityNotFinished,
            38 => Self::LtInAttribute,
            39 => Self::AttributeNotStarted,
            40 => Self::AttributeNotFinished,
            41 => Self::AttributeWithoutValue,
            42 => Self::AttributeRedefined,
            43 => Self::LiteralNotStarted,
            44 => Self::LiteralNotFinished,
            45 => Self::CommentNotFinished,
            46 => Self::PiNotStarted,
            47 => Self::PiNotFinished,
            48 => Self::NotationNotStarted,
            49 => Self::NotationNotFinished,
            50 => Self::AttlistNotStarted,
            51 => Self::AttlistNotFinished,
            52 => Self::MixedNotStarted,
            53 => Self::MixedNotFinished,
            54 => Self::ElemcontentNotStarted,
            55 => Self::ElemcontentNotFinished,
            56 => Self::XmldeclNotStarted,
            57 => Self::XmldeclNotFinished,
            58 => Self::CondsecNotStarted,
            59 => Self::CondsecNotFinished,
            60 => Self::ExtSubsetNotFinished,
            61 => Self::DoctypeNotFinished,
            62 => Self::MisplacedCdataEnd,
            63 => Self::CdataNotFinished,
            64 => Self::ReservedXmlName,
            65 => Self::SpaceRequired,
            66 => Self::SeparatorRequired,
            67 => Self::NmtokenRequired,
            68 => Self::NameRequired,
            69 => Self::PcdataRequired,
            70 => Self::UriRequired,
            71 => Self::PubidRequired,
            72 => Self::LtRequired,
            73 => Self::GtRequired,
            74 => Self::LtslashRequired,
            75 => Self::EqualRequired,
            76 => Self::TagNameMismatch,
            77 => Self::TagNotFinished,
            78 => Self::StandaloneValue,
            79 => Self::EncodingName,
            80 => Self::HyphenInComment,
            81 => Self::InvalidEncoding,
            82 => Self::ExtEntityStandalone,
            83 => Self::CondsecInvalid,
            84 => Self::ValueRequired,
            85 => Self::NotWellBalanced,
            86 => Self::ExtraContent,
            87 => Self::EntityCharError,
            88 => Self::EntityPeInternal,
            89 => Self::EntityLoop,
            90 => Self::EntityBoundary,
            91 => Self::InvalidUri,
            92 => Self::UriFragment,
            93 => Self::CatalogPiWarning,
            94 => Self::NoDtd,
            95 => Self::CondsecInvalidKeyword,
            96 => Self::VersionMissing,
            97 => Self::UnknownVersionWarning,
            98 => Self::LangValueWarning,
            99 => Self::NsUriWarning,
            100 => Self::NsUriRelativeWarning,
            101 => Self::MissingEncoding,
            102 => Self::SpaceValueWarning,
            103 => Self::NotStandalone,
            104 => Self::EntityProcessing,
            105 => Self::NotationProcessing,
            106 => Self::NsColumnWarning,
            107 => Self::EntityRedefinedWarning,
            108 => Self::UnknownVersion,
            109 => Self::VersionMismatch,
            110 => Self::NameTooLong,
            111 => Self::UserStop,
            200 => Self::NamespaceXmlNamespace,
            201 => Self::NamespaceUndefinedNamespace,
            202 => Self::NamespaceQname,
            203 => Self::NamespaceAttributeRedefined,
            204 => Self::NamespaceEmpty,
            205 => Self::NamespaceColon,
            _ => return None,
        })
    }

    /// `xml_error_string(code)`: PHP's message for this number.
    #[must_use]
    pub fn message(self) -> &'static str {
        crate::php::errors::error_string(self as i32)
    }
}

impl From<ErrorCode> for i32 {
    fn from(code: ErrorCode) -> Self {
        code as Self
    }
}

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn numbers_round_trip() {
        let mut named = 0;
        for n in -1..=300 {
            if let Some(code) = ErrorCode::from_i32(n) {
                assert_eq!(code as i32, n);
                named += 1;
            }
        }
        assert_eq!(named, 112 + 6);
        assert_eq!(
            ErrorCode::from_i32(21),
            Some(ErrorCode::EXTERNAL_ENTITY_HANDLING)
        );
        assert_eq!(ErrorCode::UserStop as i32, 111);
    }
}
