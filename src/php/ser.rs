//! `serde::Serialize` for the results of `xml_parse_into_struct()`, shaped
//! as PHP's `json_encode()` shapes the same arrays, and for the pull
//! reader's [`Event`]s (feature `serde`).
//!
//! * A PHP array whose keys are `0..n` in order (a "list", and the empty
//!   array) is a sequence; any other array is a map, integer keys
//!   included (JSON writes them as strings, as PHP does).
//! * A string that is valid UTF-8 is a string. A string that is not (text
//!   in an ISO-8859-1 target, where PHP's `json_encode()` fails with
//!   `JSON_ERROR_UTF8`) is serialized losslessly: as serde bytes when it is
//!   a value (`serde_json` writes an array of numbers, binary formats a byte
//!   string), and as the string `"$bytes:"` followed by the bytes in
//!   lower-case hex when it is a map key (an element or attribute name;
//!   `$` cannot occur in an XML name).

use std::fmt::Write as _;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::php::array::Key;
use crate::php::events::Event;
use crate::php::start_tag::StartTag;
use crate::php::structure::{Entry, EntryType, Struct};

/// A PHP string as a value.
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match std::str::from_utf8(self.0) {
            Ok(s) => serializer.serialize_str(s),
            Err(_) => serializer.serialize_bytes(self.0),
        }
    }
}

/// A PHP string as a map key.
struct KeyBytes<'a>(&'a [u8]);

impl Serialize for KeyBytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if let Ok(s) = std::str::from_utf8(self.0) {
            return serializer.serialize_str(s);
        }
        let mut s = String::with_capacity(7 + 2 * self.0.len());
        s.push_str("$bytes:");
        for b in self.0 {
            let _ = write!(s, "{b:02x}");
        }
        serializer.serialize_str(&s)
    }
}

/// A PHP array key as a map key.
struct MapKey<'a>(&'a Key);

impl Serialize for MapKey<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Key::Int(i) => serializer.serialize_i64(*i),
            Key::Str(s) => KeyBytes(s).serialize(serializer),
        }
    }
}

/// An attribute array: a list if its keys are `0..n` in order.
struct Attributes<'a>(&'a [(Key, Vec<u8>)]);

impl Serialize for Attributes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let is_list = self
            .0
            .iter()
            .zip(0..)
            .all(|((key, _), i)| *key == Key::Int(i));
        if is_list {
            let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
            for (_, value) in self.0 {
                seq.serialize_element(&Bytes(value))?;
            }
            seq.end()
        } else {
            let mut map = serializer.serialize_map(Some(self.0.len()))?;
            for (key, value) in self.0 {
                map.serialize_entry(&MapKey(key), &Bytes(value))?;
            }
            map.end()
        }
    }
}

/// A start tag's attributes as PHP's array.
struct TagAttributes<'a>(&'a StartTag);

impl Serialize for TagAttributes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Attributes(&self.0.to_attribute_array()).serialize(serializer)
    }
}

/// `$index` as PHP's array: string keys, so a map, unless empty.
///
/// Made by [`Struct::index_array`]; serializes as PHP's `json_encode()`
/// writes `$index` (`{"TAG":[0,2],...}`, or `[]` when empty).
#[derive(Clone, Copy, Debug)]
pub struct IndexArray<'a>(pub &'a [(Vec<u8>, Vec<i64>)]);

impl Serialize for IndexArray<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.is_empty() {
            return serializer.serialize_seq(Some(0))?.end();
        }
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (tag, positions) in self.0 {
            map.serialize_entry(&KeyBytes(tag), positions)?;
        }
        map.end()
    }
}

impl Struct {
    /// `$index` in a form that serializes as PHP's `json_encode($index)`
    /// does (a plain `Vec` of pairs would serialize as a list of pairs).
    ///
    /// ```
    /// let mut parser = phpxml::Parser::new(None).unwrap();
    /// let result = parser.parse_into_struct(b"<a><b>x</b><b/></a>");
    /// assert_eq!(
    ///     serde_json::to_string(&result.index_array()).unwrap(),
    ///     r#"{"A":[0,3],"B":[1,2]}"#
    /// );
    /// ```
    #[must_use]
    pub fn index_array(&self) -> IndexArray<'_> {
        IndexArray(&self.index)
    }
}

/// `{"ok": bool, "values": [...], "index": {...}}`: the return value and
/// both arrays, each array as PHP's `json_encode()` writes it.
impl Serialize for Struct {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("ok", &self.ok)?;
        map.serialize_entry("values", &self.values)?;
        map.serialize_entry("index", &self.index_array())?;
        map.end()
    }
}

/// A map with PHP's keys in PHP's order: `tag`, `type`, `level`,
/// `attributes` and `value` for `open` and `complete` entries; `tag`,
/// `value`, `type`, `level` for `cdata`; `tag`, `type`, `level` for
/// `close`.
impl Serialize for Entry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("tag", &Bytes(&self.tag))?;
        if self.kind == EntryType::Cdata
            && let Some(value) = &self.value
        {
            map.serialize_entry("value", &Bytes(value))?;
        }
        map.serialize_entry("type", &self.kind)?;
        map.serialize_entry("level", &self.level)?;
        if let Some(attributes) = &self.attributes {
            map.serialize_entry("attributes", &Attributes(attributes))?;
        }
        if self.kind != EntryType::Cdata
            && let Some(value) = &self.value
        {
            map.serialize_entry("value", &Bytes(value))?;
        }
        map.end()
    }
}

/// The string PHP stores: `"open"`, `"complete"`, `"close"` or `"cdata"`.
impl Serialize for EntryType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// An integer, or a string (serde bytes if it is not UTF-8).
impl Serialize for Key {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Int(i) => serializer.serialize_i64(*i),
            Self::Str(s) => Bytes(s).serialize(serializer),
        }
    }
}

/// An optional PHP string (`None` is PHP's `false`, serialized as none).
struct OptBytes<'a>(Option<&'a [u8]>);

impl Serialize for OptBytes<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(s) => serializer.serialize_some(&Bytes(s)),
            None => serializer.serialize_none(),
        }
    }
}

/// serde's usual enum shape, with the variant names of [`Event`]: in JSON
/// `{"StartElement":{"name":"A","attributes":{"ID":"1"}}}`,
/// `{"CharacterData":"text"}`, `{"EndElement":{"name":"A"}}`. Strings follow
/// the module's rule (serde bytes when not UTF-8), attributes are PHP's
/// array, and `None` (PHP's `false`) is `null`.
///
/// ```
/// use phpxml::{Event, Parser};
///
/// let events: Vec<Event> = Parser::new(None)?.events(&b"<a id='1'>hi</a>"[..]).collect::<Result<_, _>>()?;
/// assert_eq!(
///     serde_json::to_string(&events).unwrap(),
///     r#"[{"StartElement":{"name":"A","attributes":{"ID":"1"}}},{"CharacterData":"hi"},{"EndElement":{"name":"A"}}]"#
/// );
/// # Ok::<(), phpxml::Error>(())
/// ```
impl Serialize for Event {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStructVariant;
        const NAME: &str = "Event";
        match self {
            Self::StartElement(tag) => {
                let mut v = serializer.serialize_struct_variant(NAME, 0, "StartElement", 2)?;
                v.serialize_field("name", &Bytes(tag.name()))?;
                v.serialize_field("attributes", &TagAttributes(tag))?;
                v.end()
            }
            Self::EndElement { name } => {
                let mut v = serializer.serialize_struct_variant(NAME, 1, "EndElement", 1)?;
                v.serialize_field("name", &Bytes(name))?;
                v.end()
            }
            Self::CharacterData(data) => {
                serializer.serialize_newtype_variant(NAME, 2, "CharacterData", &Bytes(data))
            }
            Self::ProcessingInstruction(pi) => {
                let mut v =
                    serializer.serialize_struct_variant(NAME, 3, "ProcessingInstruction", 2)?;
                v.serialize_field("target", &Bytes(pi.target()))?;
                v.serialize_field("data", &OptBytes(pi.data()))?;
                v.end()
            }
            Self::Default(data) => {
                serializer.serialize_newtype_variant(NAME, 4, "Default", &Bytes(data))
            }
            Self::UnparsedEntityDecl(decl) => {
                let mut v =
                    serializer.serialize_struct_variant(NAME, 5, "UnparsedEntityDecl", 5)?;
                v.serialize_field("name", &Bytes(decl.name()))?;
                v.serialize_field("base", &OptBytes(decl.base()))?;
                v.serialize_field("system_id", &OptBytes(decl.system_id()))?;
                v.serialize_field("public_id", &OptBytes(decl.public_id()))?;
                v.serialize_field("notation", &OptBytes(decl.notation()))?;
                v.end()
            }
            Self::NotationDecl(decl) => {
                let mut v = serializer.serialize_struct_variant(NAME, 6, "NotationDecl", 4)?;
                v.serialize_field("name", &Bytes(decl.name()))?;
                v.serialize_field("base", &OptBytes(decl.base()))?;
                v.serialize_field("system_id", &OptBytes(decl.system_id()))?;
                v.serialize_field("public_id", &OptBytes(decl.public_id()))?;
                v.end()
            }
            Self::ExternalEntityRef(reference) => {
                let mut v = serializer.serialize_struct_variant(NAME, 7, "ExternalEntityRef", 4)?;
                v.serialize_field("open_entity_names", &Bytes(reference.open_entity_names()))?;
                v.serialize_field("base", &OptBytes(reference.base()))?;
                v.serialize_field("system_id", &OptBytes(reference.system_id()))?;
                v.serialize_field("public_id", &OptBytes(reference.public_id()))?;
                v.end()
            }
            Self::StartNamespaceDecl(decl) => {
                let mut v =
                    serializer.serialize_struct_variant(NAME, 8, "StartNamespaceDecl", 2)?;
                v.serialize_field("prefix", &OptBytes(decl.prefix()))?;
                v.serialize_field("uri", &Bytes(decl.uri()))?;
                v.end()
            }
            Self::EndNamespaceDecl { prefix } => {
                let mut v = serializer.serialize_struct_variant(NAME, 9, "EndNamespaceDecl", 1)?;
                v.serialize_field("prefix", &OptBytes(prefix.as_deref()))?;
                v.end()
            }
        }
    }
}
