//! The classic `xml2array()` over `xml_parse_into_struct()`, ported from
//! [`xml2array.php`](xml2array.php): a document as nested PHP arrays,
//! repeated tags turned into lists, attributes beside their element as
//! `TAG_attr` (`N_attr` inside a list), text between children as `#text`.
//! Prints `json_encode()` of the result, the same bytes as the PHP script
//! (CI compares them when `php` is installed).
//!
//! ```text
//! cargo run --example xml2array examples/xml2array.xml
//! php examples/xml2array.php examples/xml2array.xml
//! ```

use phpxml::json::{Array, JsonFlags, Key, Value};
use phpxml::{EntryType, Parser};

/// `add()`: `$array[$tag] = $value`, or the next item of a list when the
/// tag is there already.
fn add(array: &mut Array, tag: &[u8], value: Value, attributes: Array) {
    let attr_key = Key::from([tag, b"_attr"].concat().as_slice());
    let tag = Key::from(tag);
    match array.get_mut(&tag) {
        None => {
            array.insert(tag, value);
            if !attributes.is_empty() {
                array.insert(attr_key, attributes);
            }
        }
        // is_array($array[$tag]) && array_key_exists(0, $array[$tag])
        Some(Value::Array(list)) if list.get(&Key::Int(0)).is_some() => {
            let index = list.push(value).expect("a list of a document's size");
            if !attributes.is_empty() {
                list.insert(format!("{index}_attr").as_str(), attributes);
            }
        }
        Some(first) => {
            // the second of a tag: the first and its attributes become a list
            let mut list = Array::new();
            list.push(std::mem::replace(first, Value::Null));
            list.push(value);
            if let Some(first_attributes) = array.remove(&attr_key) {
                list.insert("0_attr", first_attributes);
            }
            if !attributes.is_empty() {
                list.insert("1_attr", attributes);
            }
            array.insert(tag, list);
        }
    }
}

/// `xml2array()`.
fn xml2array(xml: &[u8]) -> Result<Array, String> {
    let mut parser = Parser::new(Some("")).map_err(|e| e.to_string())?;
    parser.set_case_folding(false);
    parser.set_skip_white(true);
    let result = parser
        .parse_struct(xml.trim_ascii())
        .map_err(|e| format!("{} at line {}", e.message(), e.line))?;
    let mut current = Array::new();
    let mut open: Vec<(Array, Vec<u8>, Array)> = Vec::new();
    for entry in result.values {
        let attributes: Array = entry.attributes.unwrap_or_default().into_iter().collect();
        match entry.kind {
            EntryType::Open => {
                open.push((std::mem::take(&mut current), entry.tag, attributes));
                if let Some(value) = entry.value {
                    current.insert("#text", value);
                }
            }
            EntryType::Cdata => {
                let mut text = match current.get(&Key::from("#text")) {
                    Some(Value::String(text)) => text.clone(),
                    _ => Vec::new(),
                };
                text.extend(entry.value.unwrap_or_default());
                current.insert("#text", text);
            }
            EntryType::Complete => {
                let value = entry.value.unwrap_or_default();
                add(&mut current, &entry.tag, value.into(), attributes);
            }
            EntryType::Close => {
                let (mut parent, tag, attributes) = open.pop().ok_or("unbalanced arrays")?;
                add(&mut parent, &tag, current.into(), attributes);
                current = parent;
            }
        }
    }
    Ok(current)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: xml2array FILE.xml")?;
    let array = xml2array(&std::fs::read(path)?)?;
    let flags =
        JsonFlags::PRETTY_PRINT | JsonFlags::UNESCAPED_UNICODE | JsonFlags::UNESCAPED_SLASHES;
    let mut out = Value::from(array).to_json(flags)?;
    out.push(b'\n');
    std::io::Write::write_all(&mut std::io::stdout().lock(), &out)?;
    Ok(())
}
