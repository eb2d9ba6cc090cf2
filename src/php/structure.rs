//! `xml_parse_into_struct()`: the values and index arrays, built exactly as
//! PHP 8.2's `ext/xml/xml.c` builds them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::php::array::Key;

/// A small fast hasher for the index's tag lookup (tags are short byte
/// strings chosen by the document; the map is rebuilt for every call, and
/// its order is never observed).
#[derive(Default)]
struct TagHasher(u64);

impl Hasher for TagHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0.rotate_left(5) ^ n as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// PHP's `XML_MAXLEVEL`: deeper elements get no entries of their own.
pub(crate) const MAX_LEVEL: i64 = 255;

/// What `xml_parse_into_struct()` gives back: its return value and the
/// `$values` and `$index` arrays.
///
/// ```
/// use phpxml::{Entry, EntryType, Key, Parser};
///
/// let result = Parser::new(None)?.parse_into_struct(br#"<p>a<b id="7">x</b>c</p>"#);
/// assert!(result.ok);
/// assert_eq!(result.values[1], Entry {
///     tag: b"B".to_vec(),
///     kind: EntryType::Complete,
///     level: 2,
///     attributes: Some(vec![(Key::Str(b"ID".to_vec()), b"7".to_vec())]),
///     value: Some(b"x".to_vec()),
/// });
/// // Text after a child element is a `cdata` entry under the parent's tag.
/// assert_eq!((result.values[2].kind, result.values[2].value.as_deref()), (EntryType::Cdata, Some(&b"c"[..])));
/// assert_eq!(result.index, [(b"P".to_vec(), vec![0, 2, 3]), (b"B".to_vec(), vec![1])]);
/// # Ok::<(), phpxml::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Struct {
    /// The return value: `true` for PHP's 1, `false` for 0 (the document
    /// is malformed; the arrays hold what was built up to the error).
    pub ok: bool,
    /// `$values`: one entry per element start, end and piece of text, in
    /// document order (see [`Entry`]).
    pub values: Vec<Entry>,
    /// `$index`: for each tag, in order of first appearance, the positions
    /// of its entries. Positions count on from the previous call on the
    /// same parser: PHP never resets the counter. Keys are always strings.
    pub index: Vec<(Vec<u8>, Vec<i64>)>,
}

/// The `type` of an [`Entry`].
///
/// ```
/// assert_eq!(phpxml::EntryType::Complete.as_str(), "complete");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryType {
    /// `"open"`: an element start with children.
    Open,
    /// `"complete"`: an element with no child element.
    Complete,
    /// `"close"`: the end of an `open` element.
    Close,
    /// `"cdata"`: text after a child element, under the parent's tag.
    Cdata,
}

impl EntryType {
    /// The string PHP stores.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Complete => "complete",
            Self::Close => "close",
            Self::Cdata => "cdata",
        }
    }
}

/// One element of `$values`. PHP's key order follows from the type:
/// `tag, type, level[, attributes][, value]` for `open` and `complete`,
/// `tag, value, type, level` for `cdata`, `tag, type, level` for `close`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `tag`: the element name (folded, `SKIP_TAGSTART` applied).
    pub tag: Vec<u8>,
    /// `type`.
    pub kind: EntryType,
    /// `level`: the depth, 1 for the root element.
    pub level: i64,
    /// `attributes`, present only on `open`/`complete` entries of elements
    /// with attributes.
    pub attributes: Option<Vec<(Key, Vec<u8>)>>,
    /// `value`: the text, when there is any.
    pub value: Option<Vec<u8>>,
}

/// The parser state `xml_parse_into_struct()` works with. `curtag`,
/// `lastwasopen` and `ctag` live as long as the parser; the arrays, the
/// level and the open-tag names are fresh for each call.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    pub(crate) values: Vec<Entry>,
    index: Vec<(Vec<u8>, Vec<i64>)>,
    index_slots: HashMap<Vec<u8>, usize, BuildHasherDefault<TagHasher>>,
    /// Index slots of recently seen tags, by [`recent_way`] (any value is
    /// safe: a slot is used only if its name matches).
    recent: [usize; 16],
    /// `parser->level`.
    level: i64,
    /// `parser->ltags`: full names (before `SKIP_TAGSTART`) of the open
    /// elements up to `MAX_LEVEL`: the first `ltags_len` of these (the
    /// others keep their allocations for reuse).
    ltags: Vec<Vec<u8>>,
    ltags_len: usize,
    /// `parser->curtag`: the next index position; never reset.
    curtag: i64,
    /// `parser->lastwasopen`: never reset.
    lastwasopen: bool,
    /// `parser->ctag`: the entry of the last element start; `None` once it
    /// belongs to an array of an earlier call.
    ctag: Option<usize>,
}

/// Where a tag's slot is remembered in `Builder::recent`.
fn recent_way(name: &[u8]) -> usize {
    let first = usize::from(name.first().copied().unwrap_or(0));
    let last = usize::from(name.last().copied().unwrap_or(0));
    (name.len() ^ first ^ (last << 1)) & 15
}

/// `SKIP_TAGSTART`: the name without its first `skip` bytes, clamped.
pub(crate) fn skip_tagstart(name: &[u8], skip: usize) -> &[u8] {
    &name[skip.min(name.len())..]
}

impl Builder {
    /// The start of an `xml_parse_into_struct()` call.
    pub(crate) fn begin(&mut self) {
        self.values.clear();
        self.index.clear();
        self.index_slots.clear();
        self.level = 0;
        self.ltags_len = 0;
        self.ctag = None;
    }

    /// The arrays built by this call.
    ///
    /// PHP keeps the arrays bound afterwards: later `xml_parse()` calls go
    /// on filling them and counting positions. The caller has its copy, so
    /// only what decides the counting stays: the last entry, if it is text
    /// that later text merges into.
    pub(crate) fn finish(&mut self, ok: bool) -> Struct {
        self.ctag = None;
        let values = std::mem::take(&mut self.values);
        let index = std::mem::take(&mut self.index);
        self.index_slots.clear();
        if let Some(last) = values.last().filter(|e| e.kind == EntryType::Cdata) {
            self.values.push(last.clone());
        }
        Struct { ok, values, index }
    }

    /// `_xml_add_to_info()`.
    fn add_to_info(&mut self, name: &[u8]) {
        // Tags repeat: a few recent slots, checked against the index's own
        // copy of the name, save most hash lookups.
        let way = recent_way(name);
        let cached = self.recent[way];
        let slot = if cached < self.index.len() && self.index[cached].0 == name {
            cached
        } else if let Some(&slot) = self.index_slots.get(name) {
            slot
        } else {
            self.index.push((name.to_vec(), Vec::new()));
            self.index_slots.insert(name.to_vec(), self.index.len() - 1);
            self.index.len() - 1
        };
        self.recent[way] = slot;
        self.index[slot].1.push(self.curtag);
        self.curtag += 1;
    }

    /// An element start; `tag` is decoded and folded, `skip` is the
    /// `SKIP_TAGSTART` option. `attributes` is called for the attribute
    /// array only when an entry is made.
    pub(crate) fn start(
        &mut self,
        tag: &[u8],
        skip: usize,
        attributes: impl FnOnce() -> Vec<(Key, Vec<u8>)>,
    ) {
        self.level += 1;
        if self.level > MAX_LEVEL {
            // PHP warns "Maximum depth exceeded - Results truncated" at 256.
            return;
        }
        let short = skip_tagstart(tag, skip);
        self.add_to_info(short);
        let attributes = attributes();
        self.values.push(Entry {
            tag: short.to_vec(),
            kind: EntryType::Open,
            level: self.level,
            attributes: (!attributes.is_empty()).then_some(attributes),
            value: None,
        });
        let depth = usize::try_from(self.level - 1).unwrap_or(0);
        // Levels skipped since the last start (as `resize` would) hold no
        // name.
        if depth > self.ltags_len {
            let end = depth.min(self.ltags.len());
            let start = self.ltags_len.min(end);
            self.ltags[start..end].iter_mut().for_each(Vec::clear);
        }
        if depth < self.ltags.len() {
            let slot = &mut self.ltags[depth];
            slot.clear();
            slot.extend_from_slice(tag);
        } else {
            self.ltags.resize(depth, Vec::new());
            self.ltags.push(tag.to_vec());
        }
        self.ltags_len = depth + 1;
        self.lastwasopen = true;
        self.ctag = Some(self.values.len() - 1);
    }

    /// Whether [`end`](Self::end) looks at its tag (it does not for an
    /// element without children, whose entry it only retypes).
    pub(crate) fn end_uses_tag(&self) -> bool {
        !self.lastwasopen
    }

    /// An element end; `tag` is decoded and folded. No depth check, as in
    /// PHP: past `MAX_LEVEL` the first end retypes the deepest recorded
    /// start as `complete`, the following ones add `close` entries.
    pub(crate) fn end(&mut self, tag: &[u8], skip: usize) {
        if self.lastwasopen {
            if let Some(entry) = self.ctag.and_then(|i| self.values.get_mut(i)) {
                entry.kind = EntryType::Complete;
            }
        } else {
            let short = skip_tagstart(tag, skip);
            self.add_to_info(short);
            self.values.push(Entry {
                tag: short.to_vec(),
                kind: EntryType::Close,
                level: self.level,
                attributes: None,
                value: None,
            });
        }
        self.lastwasopen = false;
        self.level -= 1;
    }

    /// Character data, already in the target encoding.
    pub(crate) fn cdata(&mut self, text: &[u8], skip: usize, skip_white: bool) {
        let doprint = skip_white && text.iter().any(|b| !matches!(b, b' ' | b'\t' | b'\n'));
        if self.lastwasopen {
            let Some(entry) = self.ctag.and_then(|i| self.values.get_mut(i)) else {
                return;
            };
            if let Some(value) = &mut entry.value {
                value.extend_from_slice(text);
            } else if doprint || !skip_white {
                entry.value = Some(text.to_vec());
            }
            return;
        }
        if let Some(Entry {
            kind: EntryType::Cdata,
            value: Some(value),
            ..
        }) = self.values.last_mut()
        {
            value.extend_from_slice(text);
            return;
        }
        if (1..=MAX_LEVEL).contains(&self.level) && (doprint || !skip_white) {
            let depth = usize::try_from(self.level - 1).unwrap_or(0);
            let Some(parent) = self.ltags[..self.ltags_len].get(depth) else {
                return;
            };
            let short = skip_tagstart(parent, skip).to_vec();
            self.add_to_info(&short);
            self.values.push(Entry {
                tag: short,
                kind: EntryType::Cdata,
                level: self.level,
                attributes: None,
                value: Some(text.to_vec()),
            });
        }
    }
}
