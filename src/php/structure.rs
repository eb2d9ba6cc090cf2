//! `xml_parse_into_struct()`: the values and index arrays, built exactly as
//! PHP 8.2's `ext/xml/xml.c` builds them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::libxml::keyset::KeySet;
use crate::php::array::{Key, key_int};

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
#[must_use = "`ok` says whether the document was well-formed"]
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
///
/// The arrays are kept packed ([`StructData`]): every string in one byte
/// buffer, entries naming their tag by its index slot. [`Struct`] is made
/// from them at the end of the call.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    data: StructData,
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
    /// The keys of the attribute array being built for the last start.
    keys: KeySet,
    /// The entry whose value, at the end of the byte buffer, the next
    /// character data extends (set by `cdata`, cleared by anything else
    /// that changes where text goes).
    text_to: Option<usize>,
}

/// A range of [`StructData::bytes`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Span {
    start: usize,
    len: usize,
}

impl Span {
    fn of(self, bytes: &[u8]) -> &[u8] {
        bytes
            .get(self.start..self.start + self.len)
            .unwrap_or_default()
    }
}

/// An attribute of a packed entry. An integer key is kept as its decimal
/// string: the canonical form, so equal keys are equal strings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PackedAttribute {
    key: Span,
    value: Span,
}

/// A packed [`Entry`] (40 bytes; a million elements are a million
/// entries).
#[derive(Clone, Copy, Debug)]
struct PackedEntry {
    /// The slot of the tag in the index, times 4, plus the type.
    tag_kind: usize,
    level: i64,
    /// The value's range of [`StructData::bytes`]; a length of
    /// `usize::MAX` for no value.
    value_start: usize,
    value_len: usize,
    /// Where the entry's attributes begin in [`StructData::attributes`]:
    /// they run to where the next entry's begin.
    attributes_start: usize,
}

/// A tag slot no index has.
const NO_TAG: usize = usize::MAX >> 2;

impl PackedEntry {
    fn new(
        tag: usize,
        kind: EntryType,
        level: i64,
        attributes_start: usize,
        value: Option<Span>,
    ) -> Self {
        let mut entry = Self {
            tag_kind: 0,
            level,
            value_start: 0,
            value_len: usize::MAX,
            attributes_start,
        };
        entry.set_tag_kind(tag, kind);
        entry.set_value(value);
        entry
    }

    fn tag(self) -> usize {
        self.tag_kind >> 2
    }

    fn kind(self) -> EntryType {
        match self.tag_kind & 3 {
            0 => EntryType::Open,
            1 => EntryType::Complete,
            2 => EntryType::Close,
            _ => EntryType::Cdata,
        }
    }

    fn set_tag_kind(&mut self, tag: usize, kind: EntryType) {
        let kind = match kind {
            EntryType::Open => 0,
            EntryType::Complete => 1,
            EntryType::Close => 2,
            EntryType::Cdata => 3,
        };
        // an index slot is never near `NO_TAG`: each takes memory
        self.tag_kind = (tag.min(NO_TAG) << 2) | kind;
    }

    fn value(self) -> Option<Span> {
        (self.value_len != usize::MAX).then_some(Span {
            start: self.value_start,
            len: self.value_len,
        })
    }

    fn set_value(&mut self, value: Option<Span>) {
        (self.value_start, self.value_len) = value.map_or((0, usize::MAX), |v| (v.start, v.len));
    }
}

/// The arrays of `xml_parse_into_struct()` packed: strings in one buffer,
/// no allocation per entry or string. [`Struct`] is the public form.
#[derive(Debug, Default)]
pub(crate) struct StructData {
    /// The return value.
    pub(crate) ok: bool,
    bytes: Vec<u8>,
    entries: Vec<PackedEntry>,
    attributes: Vec<PackedAttribute>,
    index: Vec<(Vec<u8>, Vec<i64>)>,
}

/// A key of an attribute array, borrowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyRef<'a> {
    Int(i64),
    Str(&'a [u8]),
}

impl<'a> From<&'a Key> for KeyRef<'a> {
    fn from(key: &'a Key) -> Self {
        match key {
            Key::Int(i) => Self::Int(*i),
            Key::Str(s) => Self::Str(s),
        }
    }
}

/// An entry of `$values`, borrowed from a [`Struct`] or a [`StructData`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct EntryRef<'a> {
    pub(crate) tag: &'a [u8],
    pub(crate) kind: EntryType,
    pub(crate) level: i64,
    pub(crate) attributes: AttributesRef<'a>,
    pub(crate) value: Option<&'a [u8]>,
}

/// The attribute array of an [`EntryRef`]: `None` when the entry has none.
#[derive(Clone, Copy, Debug)]
pub(crate) enum AttributesRef<'a> {
    None,
    Owned(&'a [(Key, Vec<u8>)]),
    Packed(&'a [PackedAttribute], &'a [u8]),
}

impl<'a> AttributesRef<'a> {
    /// Whether the entry has an `attributes` element.
    pub(crate) fn is_some(self) -> bool {
        !matches!(self, Self::None)
    }

    /// The keys and values in order.
    pub(crate) fn iter(self) -> impl Iterator<Item = (KeyRef<'a>, &'a [u8])> {
        let (owned, packed, bytes) = match self {
            Self::None => (&[][..], &[][..], &[][..]),
            Self::Owned(a) => (a, &[][..], &[][..]),
            Self::Packed(a, bytes) => (&[][..], a, bytes),
        };
        owned
            .iter()
            .map(|(k, v)| (KeyRef::from(k), v.as_slice()))
            .chain(packed.iter().map(move |a| {
                let key = a.key.of(bytes);
                (
                    key_int(key).map_or(KeyRef::Str(key), KeyRef::Int),
                    a.value.of(bytes),
                )
            }))
    }
}

impl<'a> From<&'a Entry> for EntryRef<'a> {
    fn from(entry: &'a Entry) -> Self {
        Self {
            tag: &entry.tag,
            kind: entry.kind,
            level: entry.level,
            attributes: entry
                .attributes
                .as_deref()
                .map_or(AttributesRef::None, AttributesRef::Owned),
            value: entry.value.as_deref(),
        }
    }
}

impl StructData {
    /// The entries of `$values`, in order.
    pub(crate) fn values(&self) -> impl ExactSizeIterator<Item = EntryRef<'_>> {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, &e)| self.entry(i, e))
    }

    fn entry(&self, i: usize, e: PackedEntry) -> EntryRef<'_> {
        let end = self
            .entries
            .get(i + 1)
            .map_or(self.attributes.len(), |next| next.attributes_start);
        let attributes = match self.attributes.get(e.attributes_start..end) {
            None | Some([]) => AttributesRef::None,
            Some(a) => AttributesRef::Packed(a, &self.bytes),
        };
        EntryRef {
            tag: self.index.get(e.tag()).map_or(&[], |(name, _)| name),
            kind: e.kind(),
            level: e.level,
            attributes,
            value: e.value().map(|v| v.of(&self.bytes)),
        }
    }

    /// Whether every string of [`Self::values`] is well-formed UTF-8: one
    /// pass over the packed buffer and the tags, when each string starts
    /// and ends on a character boundary of a well-formed buffer (then each
    /// is well-formed too); string by string otherwise, as bytes left
    /// behind by a moved value, or a character split between two strings,
    /// can spoil the buffer without spoiling a string.
    pub(crate) fn strings_are_utf8(&self) -> bool {
        let boundary = |at: usize| self.bytes.get(at).is_none_or(|b| !(0x80..0xC0).contains(b));
        let spans_whole = |s: Span| boundary(s.start) && boundary(s.start + s.len);
        let by_buffer = crate::json::utf8(&self.bytes)
            && self
                .entries
                .iter()
                .all(|e| e.value().is_none_or(spans_whole))
            && self
                .attributes
                .iter()
                .all(|a| spans_whole(a.key) && spans_whole(a.value));
        if by_buffer {
            self.index.iter().all(|(tag, _)| crate::json::utf8(tag))
        } else {
            crate::json::values_are_utf8(self.values())
        }
    }

    /// `$index`.
    pub(crate) fn index(&self) -> &[(Vec<u8>, Vec<i64>)] {
        &self.index
    }

    /// The public form: one pass, every list allocated at its final size.
    pub(crate) fn into_struct(self) -> Struct {
        let Self {
            ok,
            bytes,
            entries,
            attributes,
            index,
        } = self;
        let copy = |s: Span| {
            bytes
                .get(s.start..s.start + s.len)
                .map_or_else(Vec::new, <[u8]>::to_vec)
        };
        // each entry's attributes run to where the next entry's begin
        let mut rest = attributes.as_slice();
        let mut values = Vec::with_capacity(entries.len());
        values.extend(entries.iter().enumerate().map(|(i, e)| {
            let end = entries
                .get(i + 1)
                .map_or(attributes.len(), |n| n.attributes_start);
            let (list, tail) =
                rest.split_at(end.saturating_sub(e.attributes_start).min(rest.len()));
            rest = tail;
            Entry {
                tag: index
                    .get(e.tag())
                    .map_or_else(Vec::new, |(name, _)| name.clone()),
                kind: e.kind(),
                level: e.level,
                attributes: (!list.is_empty()).then(|| {
                    let mut owned = Vec::with_capacity(list.len());
                    owned.extend(list.iter().map(|a| {
                        let key = a.key.of(&bytes);
                        let key = key_int(key).map_or_else(|| Key::Str(key.to_vec()), Key::Int);
                        (key, copy(a.value))
                    }));
                    owned
                }),
                value: e.value().map(copy),
            }
        }));
        Struct { ok, values, index }
    }

    /// Appends `text` to the value `span` (moved to the end of the buffer
    /// first if something was stored after it).
    fn append(bytes: &mut Vec<u8>, span: &mut Span, text: &[u8]) {
        if span.start + span.len != bytes.len() {
            let start = bytes.len();
            bytes.extend_from_within(span.start..span.start + span.len);
            span.start = start;
        }
        bytes.extend_from_slice(text);
        span.len += text.len();
    }

    /// Stores `text` as a new value.
    fn store(bytes: &mut Vec<u8>, text: &[u8]) -> Span {
        let start = bytes.len();
        bytes.extend_from_slice(text);
        Span {
            start,
            len: text.len(),
        }
    }
}

/// Where a tag's slot is remembered in `Builder::recent`.
fn recent_way(name: &[u8]) -> usize {
    let first = usize::from(name.first().copied().unwrap_or(0));
    let last = usize::from(name.last().copied().unwrap_or(0));
    (name.len() ^ first ^ (last << 1)) & 15
}

/// `SKIP_TAGSTART`: the name without its first `skip` bytes, clamped.
#[inline]
pub(crate) fn skip_tagstart(name: &[u8], skip: usize) -> &[u8] {
    &name[skip.min(name.len())..]
}

impl Builder {
    /// The start of an `xml_parse_into_struct()` call on `input`: room
    /// is made for what it will hold (its strings come from it). When the
    /// packed arrays are what the caller keeps (`packed`), they are sized
    /// too (an entry takes at least one `<`, an attribute one `=`), within
    /// bounds of the input's size; when [`Struct`] is made from them, the
    /// count would cost more than their growth.
    pub(crate) fn begin(&mut self, input: &[u8], packed: bool) {
        self.data.bytes.clear();
        self.data.entries.clear();
        self.data.attributes.clear();
        self.data.index.clear();
        self.index_slots.clear();
        self.level = 0;
        self.ltags_len = 0;
        self.ctag = None;
        self.text_to = None;
        self.data.bytes.reserve(input.len());
        if !packed {
            return;
        }
        // counted in runs short enough for byte counters (vectorized)
        let (tags, equals) = input.chunks(255).fold((0, 0), |(tags, equals), run| {
            let (t, e) = run.iter().fold((0u8, 0u8), |(t, e), &b| {
                (t + u8::from(b == b'<'), e + u8::from(b == b'='))
            });
            (tags + usize::from(t), equals + usize::from(e))
        });
        self.data.entries.reserve(tags.min(input.len() / 4) + 16);
        self.data
            .attributes
            .reserve(equals.min(input.len() / 8) + 16);
    }

    /// The arrays built by this call.
    pub(crate) fn finish(&mut self, ok: bool) -> Struct {
        self.finish_data(ok).into_struct()
    }

    /// The arrays built by this call, packed.
    ///
    /// PHP keeps the arrays bound afterwards: later `xml_parse()` calls go
    /// on filling them and counting positions. The caller has its copy, so
    /// only what decides the counting stays: the last entry, if it is text
    /// that later text merges into (its tag is no longer needed).
    pub(crate) fn finish_data(&mut self, ok: bool) -> StructData {
        self.ctag = None;
        self.text_to = None;
        let mut data = std::mem::take(&mut self.data);
        data.ok = ok;
        self.index_slots.clear();
        if let Some(&last) = data.entries.last().filter(|e| e.kind() == EntryType::Cdata) {
            let value = last
                .value()
                .map(|v| StructData::store(&mut self.data.bytes, v.of(&data.bytes)));
            self.data.entries.push(PackedEntry::new(
                NO_TAG,
                EntryType::Cdata,
                last.level,
                0,
                value,
            ));
        }
        data
    }

    /// `_xml_add_to_info()`: returns the tag's index slot.
    fn add_to_info(&mut self, name: &[u8]) -> usize {
        // Tags repeat: a few recent slots, checked against the index's own
        // copy of the name, save most hash lookups.
        let index = &mut self.data.index;
        let way = recent_way(name);
        let cached = self.recent[way];
        let slot = if cached < index.len() && index[cached].0 == name {
            cached
        } else if let Some(&slot) = self.index_slots.get(name) {
            slot
        } else {
            index.push((name.to_vec(), Vec::new()));
            self.index_slots.insert(name.to_vec(), index.len() - 1);
            index.len() - 1
        };
        self.recent[way] = slot;
        index[slot].1.push(self.curtag);
        self.curtag += 1;
        slot
    }

    /// An element start; `tag` is decoded and folded, `skip` is the
    /// `SKIP_TAGSTART` option. Returns whether an entry was made: its
    /// attributes are then given with [`attribute`](Self::attribute).
    pub(crate) fn start(&mut self, tag: &[u8], skip: usize) -> bool {
        self.text_to = None;
        self.level += 1;
        if self.level > MAX_LEVEL {
            // PHP warns "Maximum depth exceeded - Results truncated" at 256.
            return false;
        }
        let slot = self.add_to_info(skip_tagstart(tag, skip));
        self.data.entries.push(PackedEntry::new(
            slot,
            EntryType::Open,
            self.level,
            self.data.attributes.len(),
            None,
        ));
        self.keys.clear();
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
        self.ctag = Some(self.data.entries.len() - 1);
        true
    }

    /// The next attribute of the entry [`start`](Self::start) made, as
    /// `symtable_update()` adds it to PHP's array: `key` and `value` append
    /// the decoded name and value to the buffer they are given. A key
    /// already present keeps its position and takes the new value.
    pub(crate) fn attribute(
        &mut self,
        key: impl FnOnce(&mut Vec<u8>),
        value: impl FnOnce(&mut Vec<u8>),
    ) {
        let data = &mut self.data;
        let Some(entry) = data.entries.last_mut() else {
            return;
        };
        let mark = data.bytes.len();
        key(&mut data.bytes);
        let name = &data.bytes[mark..];
        let earlier_keys = &data.attributes[entry.attributes_start..];
        let earlier = self.keys.find_or_add(
            || name,
            KeySet::class(name),
            earlier_keys.len(),
            |slot| earlier_keys[slot].key.of(&data.bytes),
        );
        let key = Span {
            start: mark,
            len: data.bytes.len() - mark,
        };
        if earlier.is_some() {
            data.bytes.truncate(mark);
        }
        let start = data.bytes.len();
        value(&mut data.bytes);
        let value = Span {
            start,
            len: data.bytes.len() - start,
        };
        if let Some(slot) = earlier {
            data.attributes[entry.attributes_start + slot].value = value;
        } else {
            data.attributes.push(PackedAttribute { key, value });
        }
    }

    /// An element end; `tag` is decoded and folded. No depth check, as in
    /// PHP: past `MAX_LEVEL` the first end retypes the deepest recorded
    /// start as `complete`, the following ones add `close` entries.
    pub(crate) fn end(&mut self, tag: &[u8], skip: usize) {
        self.text_to = None;
        if self.lastwasopen {
            if let Some(entry) = self.ctag.and_then(|i| self.data.entries.get_mut(i)) {
                entry.set_tag_kind(entry.tag(), EntryType::Complete);
            }
        } else {
            let slot = self.add_to_info(skip_tagstart(tag, skip));
            self.data.entries.push(PackedEntry::new(
                slot,
                EntryType::Close,
                self.level,
                self.data.attributes.len(),
                None,
            ));
        }
        self.lastwasopen = false;
        self.level -= 1;
    }

    /// Character data, already in the target encoding.
    #[inline]
    pub(crate) fn cdata(&mut self, text: &[u8], skip: usize, skip_white: bool) {
        // more text for the value the last text went to
        if let Some(entry) = self.text_to.and_then(|i| self.data.entries.get_mut(i))
            && entry.value_start.wrapping_add(entry.value_len) == self.data.bytes.len()
        {
            self.data.bytes.extend_from_slice(text);
            entry.value_len += text.len();
            return;
        }
        self.cdata_slow(text, skip, skip_white);
    }

    /// [`cdata`](Self::cdata) when the text goes somewhere new.
    #[inline(never)]
    fn cdata_slow(&mut self, text: &[u8], skip: usize, skip_white: bool) {
        let doprint = skip_white && text.iter().any(|b| !matches!(b, b' ' | b'\t' | b'\n'));
        let data = &mut self.data;
        if self.lastwasopen {
            let Some(entry) = self.ctag.and_then(|i| data.entries.get_mut(i)) else {
                return;
            };
            if let Some(mut value) = entry.value() {
                StructData::append(&mut data.bytes, &mut value, text);
                entry.set_value(Some(value));
            } else if doprint || !skip_white {
                entry.set_value(Some(StructData::store(&mut data.bytes, text)));
            } else {
                return;
            }
            self.text_to = self.ctag;
            return;
        }
        if let Some(entry) = data.entries.last_mut()
            && entry.kind() == EntryType::Cdata
            && let Some(mut value) = entry.value()
        {
            StructData::append(&mut data.bytes, &mut value, text);
            entry.set_value(Some(value));
            self.text_to = Some(data.entries.len() - 1);
            return;
        }
        if (1..=MAX_LEVEL).contains(&self.level) && (doprint || !skip_white) {
            let depth = usize::try_from(self.level - 1).unwrap_or(0);
            if depth >= self.ltags_len {
                return;
            }
            let parent = std::mem::take(&mut self.ltags[depth]);
            let slot = self.add_to_info(skip_tagstart(&parent, skip));
            let value = StructData::store(&mut self.data.bytes, text);
            self.data.entries.push(PackedEntry::new(
                slot,
                EntryType::Cdata,
                self.level,
                self.data.attributes.len(),
                Some(value),
            ));
            self.ltags[depth] = parent;
            self.text_to = Some(self.data.entries.len() - 1);
        }
    }
}
