//! The arrays of `xml_parse_into_struct()` as the PHP values that
//! `json_encode()` sees.

use super::{Array, Key, Value};
use crate::php::{Entry, EntryType, Struct};

/// One entry of `$values`, keys in PHP's order (see [`Entry`]).
fn entry_value(entry: &Entry) -> Value {
    let mut a = Array::new();
    let string = |s: &[u8]| Value::String(s.to_vec());
    a.append_new(Key::Str(b"tag".to_vec()), string(&entry.tag));
    if entry.kind == EntryType::Cdata
        && let Some(value) = &entry.value
    {
        a.append_new(Key::Str(b"value".to_vec()), string(value));
    }
    a.append_new(
        Key::Str(b"type".to_vec()),
        string(entry.kind.as_str().as_bytes()),
    );
    a.append_new(Key::Str(b"level".to_vec()), Value::Int(entry.level));
    if let Some(attributes) = &entry.attributes {
        let mut attrs = Array::new();
        for (key, value) in attributes {
            attrs.append_new(key.clone(), string(value));
        }
        a.append_new(Key::Str(b"attributes".to_vec()), Value::Array(attrs));
    }
    if entry.kind != EntryType::Cdata
        && let Some(value) = &entry.value
    {
        a.append_new(Key::Str(b"value".to_vec()), string(value));
    }
    Value::Array(a)
}

/// `$values` of `xml_parse_into_struct()` as a PHP value: a list of
/// entries, each an array with the keys `tag`, `type`, `level`, and
/// `attributes` and `value` when present, in PHP's order (`value` comes
/// second in `cdata` entries). Attribute arrays keep PHP's keys: an
/// attribute named `0` has the int key 0, which can make the attribute
/// array a JSON list, as in PHP.
///
/// ```
/// use phpxml::{json::{values_to_value, JsonFlags}, Parser};
///
/// let mut parser = Parser::new(None)?;
/// let result = parser.parse_into_struct(b"<a x='1'>t<b/>u</a>");
/// let json = values_to_value(&result.values).to_json(JsonFlags::NONE).unwrap();
/// assert_eq!(json, br#"[{"tag":"A","type":"open","level":1,"attributes":{"X":"1"},"value":"t"},{"tag":"B","type":"complete","level":2},{"tag":"A","value":"u","type":"cdata","level":1},{"tag":"A","type":"close","level":1}]"#);
/// # Ok::<(), phpxml::Error>(())
/// ```
#[must_use]
pub fn values_to_value(values: &[Entry]) -> Value {
    let mut list = Array::new();
    for entry in values {
        list.push(entry_value(entry));
    }
    Value::Array(list)
}

/// `$index` of `xml_parse_into_struct()` as a PHP value: tag names to lists
/// of positions. PHP adds these keys without turning numeric strings into
/// ints (a tag `0`, possible with `XML_OPTION_SKIP_TAGSTART`, stays the
/// string key `"0"`), so the index is always a JSON object unless empty.
///
/// ```
/// use phpxml::{json::{index_to_value, JsonFlags}, Parser};
///
/// let mut parser = Parser::new(None)?;
/// let result = parser.parse_into_struct(b"<a><b/><b/></a>");
/// let json = index_to_value(&result.index).to_json(JsonFlags::NONE).unwrap();
/// assert_eq!(json, br#"{"A":[0,3],"B":[1,2]}"#);
/// # Ok::<(), phpxml::Error>(())
/// ```
#[must_use]
pub fn index_to_value(index: &[(Vec<u8>, Vec<i64>)]) -> Value {
    let mut a = Array::new();
    for (tag, positions) in index {
        let mut list = Array::new();
        for &p in positions {
            list.push(Value::Int(p));
        }
        a.append_new(Key::Str(tag.clone()), Value::Array(list));
    }
    Value::Array(a)
}

/// Both arrays of an `xml_parse_into_struct()` result, `($values,
/// $index)`, as PHP values: see [`values_to_value`] and
/// [`index_to_value`].
#[must_use]
pub fn struct_to_value(result: &Struct) -> (Value, Value) {
    (
        values_to_value(&result.values),
        index_to_value(&result.index),
    )
}
