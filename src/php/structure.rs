//! `xml_parse_into_struct()`: the values and index arrays, built exactly as
//! PHP 8.2's `ext/xml/xml.c` builds them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::libxml::keyset::KeySet;
use crate::libxml::names::same_name;
use crate::php::array::{Key, key_int};
use crate::php::parser::{NameKey, ShortName, short_name};
use crate::sax::{Attribute, NameList};

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
    index_slots: HashMap<Vec<u8>, u32, BuildHasherDefault<TagHasher>>,
    /// Index slots of recently seen tags, by [`recent_way`] (any value is
    /// safe: a slot is used only if its name matches).
    recent: [u32; 16],
    /// `parser->level`.
    level: i64,
    /// `parser->ltags`, the names of the open elements up to `MAX_LEVEL`,
    /// as what `cdata` entries use them for: the index slot of each name
    /// with `SKIP_TAGSTART` applied, [`NO_NAME`] for a level that holds no
    /// name. The first `ltags_len` of these are set. (The slots are those
    /// of this call's index: `begin` sets `ltags_len` to 0, and what later
    /// parse calls add after `finish_data` only counts positions.)
    ltags: Vec<u32>,
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
    /// Attribute keys already in the byte buffer with the raw names they
    /// were decoded from, by the element's bank and the attribute's place
    /// in the tag ([`MEMO_PLACES`] a bank): the same name in the same
    /// place of a tag of the same bank takes the span of its key instead
    /// of decoding, folding and storing it again. Good while the buffer is
    /// and the names are decoded under `memos_under`.
    memos: Vec<KeyMemo>,
    memos_under: Option<NameKey>,
    /// For each bank, how many of its first places hold the keys the last
    /// list checked for duplicates kept, none repeated: a list of as many
    /// names or fewer, equal to those, needs no duplicate check.
    memos_distinct: [usize; 8],
    /// For each bank, the core's list of names whose keys its first places
    /// hold, one a name (none merged): a tag given that list has those
    /// names.
    memos_listed: [Option<NameList>; 8],
    /// The entry whose value, at the end of the byte buffer, the next
    /// character data extends (set by `cdata`, cleared by anything else
    /// that changes where text goes).
    text_to: Option<usize>,
    /// Whether strings stop being kept once a finished one is known not
    /// to be UTF-8 (the arrays are then only good for `$index` and for
    /// saying that `$values` fails).
    discard_after_not_utf8: bool,
    /// The entries and attributes from which strings are not yet checked
    /// in that mode.
    unchecked_entries: usize,
    unchecked_attributes: usize,
}

/// An attribute key in the buffer, and the raw name it was made from.
#[derive(Clone, Copy, Debug)]
struct KeyMemo {
    raw: ShortName,
    key: PackedSpan,
    class: u64,
}

impl KeyMemo {
    const NONE: Self = Self {
        raw: ShortName::NONE,
        key: PackedSpan::NONE,
        class: 0,
    };
}

/// The attribute places of a tag that [`Builder::memos`] remembers.
const MEMO_PLACES: usize = 16;

#[cfg(test)]
thread_local! {
    /// Attribute keys taken from [`Builder::memos`], so that tests can
    /// tell the memos were used.
    pub(crate) static MEMO_KEYS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Attribute lists added without the duplicate check.
    pub(crate) static SAME_NAMES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Of those, the lists added without comparing their names, the core
    /// having given the list of names the memos' keys were made from.
    pub(crate) static LISTED_NAMES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
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

/// A [`Span`] or no value, in 8 bytes: a span whose start or length does
/// not fit in 32 bits (a buffer past 4 GiB, a value merged past 4 GiB) is
/// kept in [`StructData::long_spans`] and named by its place there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PackedSpan {
    start: u32,
    len: u32,
}

impl PackedSpan {
    /// No value.
    const NONE: Self = Self {
        start: 0,
        len: u32::MAX,
    };
    /// `len` saying that `start` is a place in the long spans.
    const LONG: u32 = u32::MAX - 1;

    fn pack(span: Span, long_spans: &mut Vec<Span>) -> Self {
        match (u32::try_from(span.start), u32::try_from(span.len)) {
            (Ok(start), Ok(len)) if len < Self::LONG => Self { start, len },
            _ => Self::pack_long(span, long_spans),
        }
    }

    #[cold]
    fn pack_long(span: Span, long_spans: &mut Vec<Span>) -> Self {
        long_spans.push(span);
        Self {
            // a place past u32 would take 2^32 long spans, 64 GiB
            start: u32::try_from(long_spans.len() - 1).unwrap_or(u32::MAX),
            len: Self::LONG,
        }
    }

    fn unpack(self, long_spans: &[Span]) -> Option<Span> {
        match self.len {
            u32::MAX => None,
            Self::LONG => Some(
                long_spans
                    .get(self.start as usize)
                    .copied()
                    .unwrap_or_default(),
            ),
            len => Some(Span {
                start: self.start as usize,
                len: len as usize,
            }),
        }
    }

    /// The end of a short span in the buffer (`None` for a long span or no
    /// value).
    fn short_end(self) -> Option<usize> {
        (self.len < Self::LONG).then(|| self.start as usize + self.len as usize)
    }
}

/// An attribute of a packed entry. An integer key is kept as its decimal
/// string: the canonical form, so equal keys are equal strings.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PackedAttribute {
    key: PackedSpan,
    value: PackedSpan,
}

/// A packed [`Entry`] (20 bytes; a million elements are a million
/// entries, and the memory they touch is much of a parse's cost).
///
/// Counts are kept in 32 bits: a tag slot, an attribute position or an
/// entry position past `u32::MAX` needs 2^32 entries or attributes, more
/// than 64 GiB of these arrays alone. A level is kept with the type in 32
/// bits when it fits in 30 (levels of the document's depth; libxml2 2.9.14's
/// push parser sets no depth limit) and in [`StructData::long_levels`]
/// otherwise.
#[derive(Clone, Copy, Debug)]
struct PackedEntry {
    tag: u32,
    /// The level times 4 plus the type; a level of [`LONG_LEVEL`] for one
    /// kept in the long levels.
    level_kind: i32,
    value: PackedSpan,
    /// Where the entry's attributes begin in [`StructData::attributes`]:
    /// they run to where the next entry's begin.
    attributes_start: u32,
}

/// The level a [`PackedEntry`] gives when its level is in the long levels.
const LONG_LEVEL: i32 = i32::MIN >> 2;

/// A tag slot no index has.
const NO_TAG: u32 = u32::MAX;

/// A level of `Builder::ltags` that holds no name (an empty one).
const NO_NAME: u32 = u32::MAX - 1;

impl PackedEntry {
    fn kind(self) -> EntryType {
        match self.level_kind & 3 {
            0 => EntryType::Open,
            1 => EntryType::Complete,
            2 => EntryType::Close,
            _ => EntryType::Cdata,
        }
    }

    fn set_kind(&mut self, kind: EntryType) {
        let kind = match kind {
            EntryType::Open => 0,
            EntryType::Complete => 1,
            EntryType::Close => 2,
            EntryType::Cdata => 3,
        };
        self.level_kind = (self.level_kind & !3) | kind;
    }
}

/// The arrays of `xml_parse_into_struct()` packed: strings in one buffer,
/// no allocation per entry or string. [`Struct`] is the public form.
///
/// `$index` is not kept: entry `i` has position `first_position + i`
/// (each entry takes the next position), so a tag's positions are those of
/// its entries, gathered when the index is asked for.
#[derive(Debug, Default)]
pub(crate) struct StructData {
    /// The return value.
    pub(crate) ok: bool,
    /// Set once a finished string is known not to be UTF-8 (only in the
    /// builder's discarding mode): later strings are then not kept.
    not_utf8: bool,
    bytes: Vec<u8>,
    entries: Vec<PackedEntry>,
    attributes: Vec<PackedAttribute>,
    /// The tags by slot, in order of first appearance.
    tags: Vec<Vec<u8>>,
    /// The position of the first entry.
    first_position: i64,
    /// Spans too long for a [`PackedSpan`].
    long_spans: Vec<Span>,
    /// Levels too large for a [`PackedEntry`], by entry, in entry order.
    long_levels: Vec<(usize, i64)>,
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
    Packed(&'a [PackedAttribute], &'a StructData),
}

impl<'a> AttributesRef<'a> {
    /// Whether the entry has an `attributes` element.
    pub(crate) fn is_some(self) -> bool {
        !matches!(self, Self::None)
    }

    /// The keys and values in order.
    pub(crate) fn iter(self) -> impl Iterator<Item = (KeyRef<'a>, &'a [u8])> {
        let (owned, packed, data) = match self {
            Self::None => (&[][..], &[][..], &EMPTY),
            Self::Owned(a) => (a, &[][..], &EMPTY),
            Self::Packed(a, data) => (&[][..], a, data),
        };
        owned
            .iter()
            .map(|(k, v)| (KeyRef::from(k), v.as_slice()))
            .chain(packed.iter().map(move |a| {
                let key = data.text(a.key);
                (
                    key_int(key).map_or(KeyRef::Str(key), KeyRef::Int),
                    data.text(a.value),
                )
            }))
    }
}

/// No arrays: what owned and absent attributes iterate with.
static EMPTY: StructData = StructData {
    ok: false,
    not_utf8: false,
    bytes: Vec::new(),
    entries: Vec::new(),
    attributes: Vec::new(),
    tags: Vec::new(),
    first_position: 0,
    long_spans: Vec::new(),
    long_levels: Vec::new(),
};

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

    /// The bytes of a span (empty for no value).
    #[inline]
    fn text(&self, span: PackedSpan) -> &[u8] {
        if span.len < PackedSpan::LONG {
            let start = span.start as usize;
            return self
                .bytes
                .get(start..start + span.len as usize)
                .unwrap_or_default();
        }
        span.unpack(&self.long_spans)
            .map_or(&[], |s| s.of(&self.bytes))
    }

    /// The value of an entry.
    #[inline]
    fn value(&self, span: PackedSpan) -> Option<&[u8]> {
        (span != PackedSpan::NONE).then(|| self.text(span))
    }

    /// The attributes of entry `i`: they run to where the next entry's
    /// begin.
    fn attributes_of(&self, i: usize, e: PackedEntry) -> &[PackedAttribute] {
        let end = self
            .entries
            .get(i + 1)
            .map_or(self.attributes.len(), |next| next.attributes_start as usize);
        self.attributes
            .get(e.attributes_start as usize..end)
            .unwrap_or_default()
    }

    /// The level of entry `i`.
    fn level(&self, i: usize, e: PackedEntry) -> i64 {
        if e.level_kind >> 2 == LONG_LEVEL {
            let at = self.long_levels.partition_point(|&(entry, _)| entry < i);
            self.long_levels.get(at).map_or(0, |&(_, level)| level)
        } else {
            i64::from(e.level_kind >> 2)
        }
    }

    fn entry(&self, i: usize, e: PackedEntry) -> EntryRef<'_> {
        let attributes = match self.attributes_of(i, e) {
            [] => AttributesRef::None,
            a => AttributesRef::Packed(a, self),
        };
        EntryRef {
            tag: self.tags.get(e.tag as usize).map_or(&[], Vec::as_slice),
            kind: e.kind(),
            level: self.level(i, e),
            attributes,
            value: self.value(e.value),
        }
    }

    /// Whether every string of [`Self::values`] is well-formed UTF-8: one
    /// pass over the packed buffer and the tags, when each string starts
    /// and ends on a character boundary of a well-formed buffer (then each
    /// is well-formed too); string by string otherwise, as bytes left
    /// behind by a moved value, or a character split between two strings,
    /// can spoil the buffer without spoiling a string.
    pub(crate) fn strings_are_utf8(&self) -> bool {
        if self.not_utf8 {
            return false;
        }
        let boundary = |at: usize| self.bytes.get(at).is_none_or(|b| !(0x80..0xC0).contains(b));
        let spans_whole = |s: PackedSpan| {
            if s.len < PackedSpan::LONG {
                let start = s.start as usize;
                return boundary(start) && boundary(start + s.len as usize);
            }
            s.unpack(&self.long_spans)
                .is_none_or(|s| boundary(s.start) && boundary(s.start + s.len))
        };
        let by_buffer = crate::json::utf8(&self.bytes)
            && self.entries.iter().all(|e| spans_whole(e.value))
            && self
                .attributes
                .iter()
                .all(|a| spans_whole(a.key) && spans_whole(a.value));
        if by_buffer {
            self.tags.iter().all(|tag| crate::json::utf8(tag))
        } else {
            crate::json::values_are_utf8(self.values())
        }
    }

    /// `$index`, gathered from the entries: each list allocated at its
    /// final size.
    pub(crate) fn index(&self) -> Vec<(Vec<u8>, Vec<i64>)> {
        let mut counts = vec![0usize; self.tags.len()];
        for e in &self.entries {
            if let Some(n) = counts.get_mut(e.tag as usize) {
                *n += 1;
            }
        }
        let mut lists: Vec<Vec<i64>> = counts.into_iter().map(Vec::with_capacity).collect();
        for (e, position) in self.entries.iter().zip(self.first_position..) {
            if let Some(list) = lists.get_mut(e.tag as usize) {
                list.push(position);
            }
        }
        self.tags.iter().cloned().zip(lists).collect()
    }

    /// `$index` without a list per tag: the entries of each tag in one
    /// array of 32-bit entry numbers, tag after tag (half the memory of
    /// the lists, and one allocation).
    pub(crate) fn packed_index(&self) -> PackedIndex<'_> {
        let mut ends = vec![0usize; self.tags.len()];
        for e in &self.entries {
            if let Some(n) = ends.get_mut(e.tag as usize) {
                *n += 1;
            }
        }
        // counts made the places where each tag's numbers begin
        let mut next = Vec::with_capacity(ends.len());
        let mut total = 0;
        for n in &mut ends {
            next.push(total);
            total += *n;
            *n = total;
        }
        let mut numbers = vec![0u32; total];
        for (i, e) in self.entries.iter().enumerate() {
            if let Some(at) = next.get_mut(e.tag as usize)
                && let Some(slot) = numbers.get_mut(*at)
            {
                // see `PackedEntry`: entry numbers fit in 32 bits
                *slot = u32::try_from(i).unwrap_or(u32::MAX);
                *at += 1;
            }
        }
        PackedIndex {
            tags: &self.tags,
            ends,
            numbers,
            first_position: self.first_position,
        }
    }

    /// The public form: one pass, every list allocated at its final size.
    pub(crate) fn into_struct(self) -> Struct {
        let index = self.index();
        let copy = |s: PackedSpan| self.text(s).to_vec();
        let mut values = Vec::with_capacity(self.entries.len());
        values.extend(self.entries.iter().enumerate().map(|(i, &e)| {
            let list = self.attributes_of(i, e);
            Entry {
                tag: self.tags.get(e.tag as usize).cloned().unwrap_or_default(),
                kind: e.kind(),
                level: self.level(i, e),
                attributes: (!list.is_empty()).then(|| {
                    let mut owned = Vec::with_capacity(list.len());
                    owned.extend(list.iter().map(|a| {
                        let key = self.text(a.key);
                        let key = key_int(key).map_or_else(|| Key::Str(key.to_vec()), Key::Int);
                        (key, copy(a.value))
                    }));
                    owned
                }),
                value: self.value(e.value).map(<[u8]>::to_vec),
            }
        }));
        Struct {
            ok: self.ok,
            values,
            index,
        }
    }

    /// Appends what `write` appends to the value `span` (moved to the end
    /// of the buffer first if something was stored after it).
    #[inline]
    fn append(&mut self, value: PackedSpan, write: impl FnOnce(&mut Vec<u8>)) -> PackedSpan {
        let mut span = value.unpack(&self.long_spans).unwrap_or_default();
        if span.start + span.len != self.bytes.len() {
            let start = self.bytes.len();
            self.bytes
                .extend_from_within(span.start..span.start + span.len);
            span.start = start;
        }
        write(&mut self.bytes);
        span.len = self.bytes.len() - span.start;
        PackedSpan::pack(span, &mut self.long_spans)
    }

    /// Stores what `write` appends as a new value.
    #[inline]
    fn store(&mut self, write: impl FnOnce(&mut Vec<u8>)) -> PackedSpan {
        let start = self.bytes.len();
        write(&mut self.bytes);
        let span = Span {
            start,
            len: self.bytes.len() - start,
        };
        PackedSpan::pack(span, &mut self.long_spans)
    }

    /// The key `write` appends, for the list of attributes from `first`
    /// on: stored unless an earlier key of the list is equal (`keys`
    /// holds theirs). Returns its span (the earlier one's if repeated),
    /// its class and the earlier one's place.
    fn new_key(
        &mut self,
        keys: &mut KeySet,
        first: usize,
        write: impl FnOnce(&mut Vec<u8>),
    ) -> (PackedSpan, u64, Option<usize>) {
        let mark = self.bytes.len();
        write(&mut self.bytes);
        let (bytes, long_spans) = (&self.bytes, &self.long_spans);
        let stored = &bytes[mark..];
        let class = KeySet::class(stored);
        let earlier_keys = self.attributes.get(first..).unwrap_or_default();
        let earlier = keys.find_or_add(
            || stored,
            class,
            earlier_keys.len(),
            |slot| {
                earlier_keys[slot]
                    .key
                    .unpack(long_spans)
                    .map_or(&[][..], |s| s.of(bytes))
            },
        );
        let key = if let Some(slot) = earlier {
            self.bytes.truncate(mark);
            earlier_keys[slot].key
        } else {
            let span = Span {
                start: mark,
                len: self.bytes.len() - mark,
            };
            PackedSpan::pack(span, &mut self.long_spans)
        };
        (key, class, earlier)
    }

    /// Adds an entry.
    fn push(&mut self, tag: u32, kind: EntryType, level: i64, value: PackedSpan) {
        let level_kind = match i32::try_from(level) {
            Ok(l) if l > LONG_LEVEL && l <= i32::MAX >> 2 => l << 2,
            _ => {
                self.long_levels.push((self.entries.len(), level));
                LONG_LEVEL << 2
            }
        };
        let mut entry = PackedEntry {
            tag,
            level_kind,
            value,
            attributes_start: u32::try_from(self.attributes.len()).unwrap_or(u32::MAX),
        };
        entry.set_kind(kind);
        self.entries.push(entry);
    }
}

/// `$index` of a [`StructData`] (see [`StructData::packed_index`]).
#[derive(Debug)]
pub(crate) struct PackedIndex<'a> {
    tags: &'a [Vec<u8>],
    /// Where each tag's entry numbers end in `numbers`.
    ends: Vec<usize>,
    numbers: Vec<u32>,
    first_position: i64,
}

/// `$index`, borrowed from a [`Struct`] or a [`PackedIndex`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum IndexRef<'a> {
    Owned(&'a [(Vec<u8>, Vec<i64>)]),
    Packed(&'a PackedIndex<'a>),
}

/// The positions of one tag in an [`IndexRef`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum PositionsRef<'a> {
    Owned(&'a [i64]),
    /// Entry numbers, and the position of entry 0.
    Packed(&'a [u32], i64),
}

impl<'a> From<&'a PackedIndex<'a>> for IndexRef<'a> {
    fn from(index: &'a PackedIndex<'a>) -> Self {
        Self::Packed(index)
    }
}

impl<'a> IndexRef<'a> {
    /// How many tags.
    pub(crate) fn len(self) -> usize {
        match self {
            Self::Owned(lists) => lists.len(),
            Self::Packed(index) => index.tags.len(),
        }
    }

    pub(crate) fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The tags and their positions, in order.
    pub(crate) fn lists(self) -> impl Iterator<Item = (&'a [u8], PositionsRef<'a>)> {
        let (owned, packed) = match self {
            Self::Owned(lists) => (lists, None),
            Self::Packed(index) => (&[][..], Some(index)),
        };
        let packed = packed.into_iter().flat_map(|index| {
            let starts = std::iter::once(0).chain(index.ends.iter().copied());
            index
                .tags
                .iter()
                .zip(starts.zip(&index.ends))
                .map(|(tag, (start, &end))| {
                    let numbers = index.numbers.get(start..end).unwrap_or_default();
                    (
                        tag.as_slice(),
                        PositionsRef::Packed(numbers, index.first_position),
                    )
                })
        });
        owned
            .iter()
            .map(|(tag, positions)| (tag.as_slice(), PositionsRef::Owned(positions)))
            .chain(packed)
    }
}

impl<'a> PositionsRef<'a> {
    pub(crate) fn is_empty(self) -> bool {
        match self {
            Self::Owned(p) => p.is_empty(),
            Self::Packed(p, _) => p.is_empty(),
        }
    }

    /// The positions in order.
    pub(crate) fn iter(self) -> impl Iterator<Item = i64> + 'a {
        let (owned, packed, first) = match self {
            Self::Owned(p) => (p, &[][..], 0),
            Self::Packed(p, first) => (&[][..], p, first),
        };
        owned.iter().copied().chain(
            packed
                .iter()
                .map(move |&i| first.wrapping_add(i64::from(i))),
        )
    }
}

/// Where a tag's slot is remembered in `Builder::recent` (and a short
/// string's encoding in the JSON writer's memos): one of 16 ways.
pub(crate) fn recent_way(name: &[u8]) -> usize {
    let first = usize::from(name.first().copied().unwrap_or(0));
    let last = usize::from(name.last().copied().unwrap_or(0));
    (name.len() ^ first ^ (last << 1)) & 15
}

/// How many `<` and `=` bytes `input` holds: 32 byte counters for each,
/// one per place in a 32-byte word (vectorized), each taking at most 255
/// words before they are added up.
fn count_tags_and_equals(input: &[u8]) -> (usize, usize) {
    let (mut tags, mut equals) = (0, 0);
    for block in input.chunks(255 * 32) {
        let (words, tail) = block.as_chunks::<32>();
        let (mut t, mut e) = ([0u8; 32], [0u8; 32]);
        for word in words {
            for i in 0..32 {
                t[i] += u8::from(word[i] == b'<');
                e[i] += u8::from(word[i] == b'=');
            }
        }
        tags += t.iter().map(|&n| usize::from(n)).sum::<usize>();
        equals += e.iter().map(|&n| usize::from(n)).sum::<usize>();
        for &b in tail {
            tags += usize::from(b == b'<');
            equals += usize::from(b == b'=');
        }
    }
    (tags, equals)
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
    /// too, within bounds of the input's size: an entry takes a `<` (a
    /// start or end tag) or follows one (text), an attribute takes a `=`.
    /// Room reserved and never written costs no memory; a growing array
    /// would touch and copy half as much again. When [`Struct`] is made
    /// from them, the count would cost more than their growth.
    pub(crate) fn begin(&mut self, input: &[u8], packed: bool) {
        let data = &mut self.data;
        data.bytes.clear();
        data.entries.clear();
        data.attributes.clear();
        data.tags.clear();
        data.long_spans.clear();
        data.long_levels.clear();
        data.first_position = self.curtag;
        data.not_utf8 = false;
        self.unchecked_entries = 0;
        self.unchecked_attributes = 0;
        self.index_slots.clear();
        self.level = 0;
        self.ltags_len = 0;
        self.ctag = None;
        self.text_to = None;
        self.memos_under = None;
        data.bytes.reserve(input.len());
        if !packed {
            return;
        }
        let (tags, equals) = count_tags_and_equals(input);
        data.entries.reserve((2 * tags).min(input.len() / 2) + 16);
        data.attributes.reserve(equals.min(input.len() / 4) + 16);
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
        self.memos_under = None;
        let mut data = std::mem::take(&mut self.data);
        data.ok = ok;
        debug_assert_eq!(
            i64::try_from(data.entries.len()).map(|n| data.first_position + n),
            Ok(self.curtag),
            "each entry takes one position"
        );
        self.index_slots.clear();
        if let Some(&last) = data.entries.last().filter(|e| e.kind() == EntryType::Cdata) {
            let level = data.level(data.entries.len() - 1, last);
            let value = match last.value.unpack(&data.long_spans) {
                Some(v) => self
                    .data
                    .store(|out| out.extend_from_slice(v.of(&data.bytes))),
                None => PackedSpan::NONE,
            };
            self.data.push(NO_TAG, EntryType::Cdata, level, value);
        }
        data
    }

    /// `_xml_add_to_info()`: takes the next position, returns the tag's
    /// slot (the position is the entry's: [`StructData::index`]).
    #[inline]
    fn add_to_info(&mut self, name: &[u8]) -> u32 {
        // Tags repeat: a few recent slots, checked against the index's own
        // copy of the name, save most hash lookups.
        let way = recent_way(name);
        let cached = self.recent[way];
        let slot = if self
            .data
            .tags
            .get(cached as usize)
            .is_some_and(|tag| same_name(tag, name))
        {
            cached
        } else {
            let slot = self.tag_slot(name);
            self.recent[way] = slot;
            slot
        };
        self.curtag += 1;
        slot
    }

    /// The slot of the tag `name` in the index, made if it is new.
    #[inline(never)]
    fn tag_slot(&mut self, name: &[u8]) -> u32 {
        if let Some(&slot) = self.index_slots.get(name) {
            return slot;
        }
        let tags = &mut self.data.tags;
        // a slot past u32 would take 2^32 entries: see `PackedEntry`
        let slot = u32::try_from(tags.len()).unwrap_or(NO_TAG);
        tags.push(name.to_vec());
        self.index_slots.insert(name.to_vec(), slot);
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
        self.settle();
        let slot = self.add_to_info(skip_tagstart(tag, skip));
        self.data
            .push(slot, EntryType::Open, self.level, PackedSpan::NONE);
        self.keys.clear();
        let depth = usize::try_from(self.level - 1).unwrap_or(0);
        // Levels skipped since the last start (as `resize` would) hold no
        // name.
        if depth > self.ltags_len {
            let end = depth.min(self.ltags.len());
            let start = self.ltags_len.min(end);
            self.ltags[start..end].fill(NO_NAME);
        }
        if let Some(level) = self.ltags.get_mut(depth) {
            *level = slot;
        } else {
            self.ltags.resize(depth, NO_NAME);
            self.ltags.push(slot);
        }
        self.ltags_len = depth + 1;
        self.lastwasopen = true;
        self.ctag = Some(self.data.entries.len() - 1);
        true
    }

    /// Where the attributes of the entry [`start`](Self::start) made begin
    /// in `attributes`; `None` when there is no entry, or when the strings
    /// are not UTF-8 (then no attribute has a say in `$index`).
    #[inline]
    fn attributes_start(&self) -> Option<usize> {
        if self.data.not_utf8 {
            return None;
        }
        let entry = self.data.entries.last()?;
        Some(entry.attributes_start as usize)
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
        let Some(first) = self.attributes_start() else {
            return;
        };
        let data = &mut self.data;
        let (key, _, earlier) = data.new_key(&mut self.keys, first, key);
        let start = data.bytes.len();
        value(&mut data.bytes);
        let value = Span {
            start,
            len: data.bytes.len() - start,
        };
        let value = PackedSpan::pack(value, &mut data.long_spans);
        if let Some(slot) = earlier {
            data.attributes[first + slot].value = value;
        } else {
            data.attributes.push(PackedAttribute { key, value });
        }
    }

    /// The attributes of the entry [`start`](Self::start) made, each as
    /// [`attribute`](Self::attribute) adds it: `key` and `value` append
    /// the decoded name and value of a raw one to the buffer they are
    /// given. `under` says how names are decoded and the element's bank
    /// (below 8) for the memos of its keys (`None`: nothing remembered).
    pub(crate) fn attributes(
        &mut self,
        attributes: &[Attribute<'_>],
        list: Option<NameList>,
        under: Option<(NameKey, usize)>,
        mut key: impl FnMut(&[u8], &mut Vec<u8>),
        value: impl Fn(&[u8], &mut Vec<u8>),
    ) {
        let Some(first) = self.attributes_start() else {
            return;
        };
        let data = &mut self.data;
        let (under, bank) = under.unzip();
        if under.is_some() && self.memos_under != under {
            self.memos.clear();
            self.memos.resize(8 * MEMO_PLACES, KeyMemo::NONE);
            self.memos_distinct = [0; 8];
            self.memos_listed = [None; 8];
            self.memos_under = under;
        }
        // no memos at all without `under`
        let (memos, distinct, listed) = match bank {
            Some(bank) => (
                self.memos
                    .get_mut(bank * MEMO_PLACES..(bank + 1) * MEMO_PLACES)
                    .unwrap_or_default(),
                self.memos_distinct.get_mut(bank),
                self.memos_listed.get_mut(bank),
            ),
            None => (&mut [][..], None, None),
        };
        let (mut no_memos, mut no_list) = (0, None);
        let distinct = distinct.unwrap_or(&mut no_memos);
        let listed = listed.unwrap_or(&mut no_list);
        let by_list = list.is_some() && list == *listed;
        #[cfg(test)]
        if by_list {
            LISTED_NAMES.set(LISTED_NAMES.get() + 1);
        }
        if by_list
            || attributes.len() <= *distinct
                && attributes
                    .iter()
                    .zip(&*memos)
                    .all(|(&(name, _), memo)| short_name(name) == Some(memo.raw))
        {
            // the keys of the places, distinct: only the values are new
            #[cfg(test)]
            SAME_NAMES.set(SAME_NAMES.get() + 1);
            for (&(_, raw_value), memo) in attributes.iter().zip(&*memos) {
                let value = data.store(|out| value(raw_value, out));
                data.attributes.push(PackedAttribute {
                    key: memo.key,
                    value,
                });
            }
            return;
        }
        // the first places whose keys are remembered, none repeated
        let (mut kept, mut counting) = (0, true);
        for (place, &(name, raw_value)) in attributes.iter().enumerate() {
            let count = data.attributes.len() - first;
            let slot = memos.get_mut(place);
            let short = slot.as_ref().and_then(|_| short_name(name));
            let memo = slot.filter(|m| Some(m.raw) == short);
            let (key, earlier) = if let Some(&mut memo) = memo {
                #[cfg(test)]
                MEMO_KEYS.set(MEMO_KEYS.get() + 1);
                let (bytes, long_spans) = (&data.bytes, &data.long_spans);
                let text = |s: PackedSpan| s.unpack(long_spans).map_or(&[][..], |s| s.of(bytes));
                let earlier = self.keys.find_or_add(
                    || text(memo.key),
                    memo.class,
                    count,
                    |slot| text(data.attributes[first + slot].key),
                );
                (memo.key, earlier)
            } else {
                let (key, class, earlier) =
                    data.new_key(&mut self.keys, first, |out| key(name, out));
                if let Some(raw) = short
                    && let Some(memo) = memos.get_mut(place)
                {
                    *memo = KeyMemo { raw, key, class };
                } else {
                    counting = false;
                }
                (key, earlier)
            };
            counting &= earlier.is_none();
            if counting {
                kept = place + 1;
            }
            let value = data.store(|out| value(raw_value, out));
            if let Some(slot) = earlier {
                data.attributes[first + slot].value = value;
            } else {
                data.attributes.push(PackedAttribute { key, value });
            }
        }
        *distinct = kept;
        *listed = list.filter(|_| kept == attributes.len());
    }

    /// An element end; `tag` is decoded and folded. No depth check, as in
    /// PHP: past `MAX_LEVEL` the first end retypes the deepest recorded
    /// start as `complete`, the following ones add `close` entries.
    pub(crate) fn end(&mut self, tag: &[u8], skip: usize) {
        self.text_to = None;
        if self.lastwasopen {
            if let Some(entry) = self.ctag.and_then(|i| self.data.entries.get_mut(i)) {
                entry.set_kind(EntryType::Complete);
            }
        } else {
            let slot = self.add_to_info(skip_tagstart(tag, skip));
            self.data
                .push(slot, EntryType::Close, self.level, PackedSpan::NONE);
        }
        self.lastwasopen = false;
        self.level -= 1;
        self.settle();
    }

    /// In the discarding mode, checks the strings stored since the last
    /// call. Called where nothing can append to them any more: at an
    /// element end, and at a recorded start before its entry (text goes
    /// to the last start's entry or the last `cdata` entry only, and a
    /// start's attributes are complete at the next event).
    #[inline]
    fn settle(&mut self) {
        if self.discard_after_not_utf8 && !self.data.not_utf8 {
            self.check_strings();
        }
    }

    /// [`settle`](Self::settle)'s check.
    #[inline(never)]
    fn check_strings(&mut self) {
        let data = &self.data;
        let text = |s: PackedSpan| data.text(s);
        let entries = data
            .entries
            .get(self.unchecked_entries..)
            .unwrap_or_default();
        let attributes = data
            .attributes
            .get(self.unchecked_attributes..)
            .unwrap_or_default();
        let utf8 = entries.iter().all(|e| crate::json::utf8(text(e.value)))
            && attributes
                .iter()
                .all(|a| crate::json::utf8(text(a.key)) && crate::json::utf8(text(a.value)));
        self.unchecked_entries = data.entries.len();
        self.unchecked_attributes = data.attributes.len();
        self.data.not_utf8 = !utf8;
    }

    /// Turns the discarding mode on or off for the next call: see
    /// `Parser::parse_into_struct_data_for_failing_json`.
    pub(crate) fn set_discard_after_not_utf8(&mut self, on: bool) {
        self.discard_after_not_utf8 = on;
    }

    /// Character data, already in the target encoding.
    #[inline]
    pub(crate) fn cdata(&mut self, text: &[u8], skip: usize, skip_white: bool) {
        self.cdata_with(text, |out| out.extend_from_slice(text), skip, skip_white);
    }

    /// Character data `raw` as the parser gives it, which `write` appends
    /// to a buffer in the target encoding: never longer than `raw`, and
    /// white space (space, tab, line feed) exactly where `raw` has it.
    #[inline]
    pub(crate) fn cdata_with(
        &mut self,
        raw: &[u8],
        write: impl FnOnce(&mut Vec<u8>),
        skip: usize,
        skip_white: bool,
    ) {
        if self.data.not_utf8 {
            // the entries as they would be, without their text
            self.cdata_slow(raw, |_| {}, skip, skip_white);
            return;
        }
        // more text for the value the last text went to
        let bytes = &mut self.data.bytes;
        if let Some(entry) = self.text_to.and_then(|i| self.data.entries.get_mut(i))
            && entry.value.short_end() == Some(bytes.len())
            && raw.len() < (PackedSpan::LONG - entry.value.len) as usize
        {
            let start = bytes.len();
            write(bytes);
            // at most `raw.len()` more: below `LONG`, checked above
            entry.value.len += (bytes.len() - start) as u32;
            return;
        }
        self.cdata_slow(raw, write, skip, skip_white);
    }

    /// [`cdata_with`](Self::cdata_with) when the text goes somewhere new.
    #[inline(never)]
    fn cdata_slow(
        &mut self,
        raw: &[u8],
        write: impl FnOnce(&mut Vec<u8>),
        skip: usize,
        skip_white: bool,
    ) {
        // decoding keeps white space where it is, so the raw text decides
        let doprint = skip_white && raw.iter().any(|b| !matches!(b, b' ' | b'\t' | b'\n'));
        let data = &mut self.data;
        if self.lastwasopen {
            let Some(entry) = self.ctag.and_then(|i| data.entries.get(i)) else {
                return;
            };
            let value = if entry.value == PackedSpan::NONE {
                if !doprint && skip_white {
                    return;
                }
                data.store(write)
            } else {
                data.append(entry.value, write)
            };
            if let Some(entry) = self.ctag.and_then(|i| data.entries.get_mut(i)) {
                entry.value = value;
            }
            self.text_to = self.ctag;
            return;
        }
        if let Some(&entry) = data.entries.last()
            && entry.kind() == EntryType::Cdata
            && entry.value != PackedSpan::NONE
        {
            let value = data.append(entry.value, write);
            if let Some(entry) = data.entries.last_mut() {
                entry.value = value;
            }
            self.text_to = Some(data.entries.len() - 1);
            return;
        }
        if (1..=MAX_LEVEL).contains(&self.level) && (doprint || !skip_white) {
            let depth = usize::try_from(self.level - 1).unwrap_or(0);
            if depth >= self.ltags_len {
                return;
            }
            let slot = match self.ltags[depth] {
                NO_NAME => self.add_to_info(skip_tagstart(b"", skip)),
                slot => {
                    // the parent's name, added to the index at its start
                    self.curtag += 1;
                    slot
                }
            };
            let value = self.data.store(write);
            self.data.push(slot, EntryType::Cdata, self.level, value);
            self.text_to = Some(self.data.entries.len() - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_entries_and_attributes_stay_small() {
        assert_eq!(size_of::<PackedEntry>(), 20);
        assert_eq!(size_of::<PackedAttribute>(), 16);
    }

    /// The counts of `<` and `=` are those of a plain filter, at every
    /// length around the block and word sizes.
    #[test]
    fn tags_and_equals_are_counted() {
        let text: Vec<u8> = (0..20_000u32)
            .map(|i| b"<a=b>c<<==x"[(i * 7 % 11) as usize])
            .collect();
        for len in (0..70).chain(8150..8200).chain([16_320, 16_321, 20_000]) {
            let s = &text[..len];
            let want = s.iter().fold((0, 0), |(t, e), &b| {
                (t + usize::from(b == b'<'), e + usize::from(b == b'='))
            });
            assert_eq!(count_tags_and_equals(s), want, "{len}");
        }
        assert_eq!(count_tags_and_equals(&vec![b'<'; 20_000]), (20_000, 0));
    }

    #[test]
    fn spans_past_32_bits_are_kept_whole() {
        let mut long = Vec::new();
        let spans = [
            Span { start: 3, len: 4 },
            Span {
                start: 5_000_000_000,
                len: 2,
            },
            Span {
                start: 7,
                len: 4_294_967_294,
            },
            Span {
                start: 0,
                len: 4_294_967_293,
            },
        ];
        let packed = spans.map(|s| PackedSpan::pack(s, &mut long));
        assert_eq!(long, spans[1..3]);
        assert_eq!(packed[3].len, 4_294_967_293, "the longest short span");
        for (p, s) in packed.iter().zip(spans) {
            assert_eq!(p.unpack(&long), Some(s));
        }
        assert_eq!(PackedSpan::NONE.unpack(&long), None);
    }

    #[test]
    fn levels_past_30_bits_are_kept_whole() {
        let mut data = StructData::default();
        let levels = [
            1,
            -3,
            1 << 29,
            (1 << 29) - 1,
            -(1 << 29),
            -(1 << 29) + 1,
            1 << 40,
            i64::MIN,
        ];
        let kinds = [
            EntryType::Open,
            EntryType::Complete,
            EntryType::Close,
            EntryType::Cdata,
        ];
        for (i, &level) in levels.iter().enumerate() {
            data.push(0, kinds[i % 4], level, PackedSpan::NONE);
        }
        assert_eq!(data.long_levels.len(), 4, "{:?}", data.long_levels);
        for (i, (e, &level)) in data.entries.iter().zip(&levels).enumerate() {
            assert_eq!((data.level(i, *e), e.kind()), (level, kinds[i % 4]));
        }
    }
}
