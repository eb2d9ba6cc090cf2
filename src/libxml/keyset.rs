//! Duplicate names among a start tag's attributes. libxml2 compares each
//! new attribute name with every earlier one (`xmlParseStartTag`'s
//! "Attribute redefined"), and PHP's `symtable_update()` finds an earlier
//! key of the attribute array to overwrite it in place: the core, the
//! handler's attribute array and `xml_parse_into_struct()`'s all ask the
//! same question of a list that grows by one key at a time.

use std::hash::{BuildHasher, RandomState};

/// From this many keys on, earlier keys are found through a hash map
/// instead of a comparison with each of them (which is quadratic); the
/// answers are the same.
pub(crate) const MANY: usize = 16;

/// The keys of one list so far, as a filter and, for long lists, an index.
/// The keys themselves stay where the caller keeps them, in order: every
/// query passes their count and a way to read the `i`th.
#[derive(Debug, Default)]
pub(crate) struct KeySet {
    /// One bit per [`class`](Self::class) of the keys so far: a key whose
    /// bit is clear is not among them.
    seen: u64,
    /// Once a query found [`MANY`] keys or more: an open-addressing table
    /// of the first `indexed` keys, (hash, position) or [`EMPTY`] in each
    /// slot, at most half full. The keys stay with the caller, so that a
    /// list indexed again allocates nothing.
    slots: Vec<(u64, usize)>,
    indexed: usize,
    hasher: RandomState,
}

/// A free slot of [`KeySet::slots`].
const EMPTY: (u64, usize) = (0, usize::MAX);

impl KeySet {
    /// The bit of a key in the filter: equal keys have equal bits. From
    /// the length and the first and last bytes, which tell most attribute
    /// names apart.
    #[inline]
    pub(crate) fn class(key: &[u8]) -> u64 {
        let (first, last) = match key {
            [] => (0, 0),
            [f, .., l] => (*f, *l),
            [f] => (*f, *f),
        };
        Self::class_of(key.len(), first, last)
    }

    /// [`class`](Self::class) of a key of `len` bytes that starts with
    /// `first` and ends with `last`.
    #[inline]
    pub(crate) fn class_of(len: usize, first: u8, last: u8) -> u64 {
        let h = (len as u32)
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(u32::from(first).wrapping_mul(0x85EB_CA6B))
            .wrapping_add(u32::from(last).wrapping_mul(0xC2B2_AE35));
        1 << (h >> 26)
    }

    /// Empties the set for a new list.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.seen = 0;
        if self.indexed > 0 {
            self.slots.clear();
            self.indexed = 0;
        }
    }

    /// The position of the key `key()` gives among the `len` keys so far
    /// (`key_at(i)` is the `i`th); `None` if it is not among them, and it
    /// then counts as the key at `len` (the caller appends it). `class` is
    /// [`class`](Self::class) of the key, which is asked for only when the
    /// filter cannot rule it out (an integer key of PHP's arrays has to be
    /// written out first).
    #[inline]
    pub(crate) fn find_or_add<K: AsRef<[u8]>>(
        &mut self,
        key: impl FnOnce() -> K,
        class: u64,
        len: usize,
        key_at: impl Fn(usize) -> K,
    ) -> Option<usize> {
        if self.seen & class == 0 {
            self.seen |= class;
            return None;
        }
        self.find(key().as_ref(), len, key_at)
    }

    /// [`find_or_add`](Self::find_or_add) with the filter kept by the
    /// caller in `seen` (zero for a new list) instead of in the set, which
    /// then serves only to search: the same answers.
    #[inline]
    pub(crate) fn find_or_add_with<K: AsRef<[u8]>>(
        &mut self,
        seen: &mut u64,
        key: impl FnOnce() -> K,
        class: u64,
        len: usize,
        key_at: impl Fn(usize) -> K,
    ) -> Option<usize> {
        if *seen & class == 0 {
            *seen |= class;
            return None;
        }
        self.find(key().as_ref(), len, key_at)
    }

    /// [`find_or_add`](Self::find_or_add) past the filter.
    #[inline(never)]
    fn find<K: AsRef<[u8]>>(
        &mut self,
        key: &[u8],
        len: usize,
        key_at: impl Fn(usize) -> K,
    ) -> Option<usize> {
        if len < MANY {
            return (0..len).position(|i| key_at(i).as_ref() == key);
        }
        // keys added since the last query are indexed now
        if 2 * len > self.slots.len() {
            self.slots.clear();
            self.slots.resize((2 * len).next_power_of_two(), EMPTY);
            self.indexed = 0;
        }
        while self.indexed < len {
            let k = key_at(self.indexed);
            let hash = self.hasher.hash_one(k.as_ref());
            let slot = self.slot(hash, k.as_ref(), &key_at);
            self.slots[slot] = (hash, self.indexed);
            self.indexed += 1;
        }
        let slot = self.slot(self.hasher.hash_one(key), key, &key_at);
        Some(self.slots[slot].1).filter(|&i| i != usize::MAX)
    }

    /// The slot of `key` (whose hash is `hash`): where it is, or the free
    /// slot where it would go.
    fn slot<K: AsRef<[u8]>>(&self, hash: u64, key: &[u8], key_at: impl Fn(usize) -> K) -> usize {
        let mask = self.slots.len() - 1;
        // the table's length is a power of two: its mask keeps the low bits
        let mut i = (hash as usize) & mask;
        loop {
            match self.slots[i] {
                EMPTY => return i,
                (h, at) if h == hash && key_at(at).as_ref() == key => return i,
                _ => i = (i + 1) & mask,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{KeySet, MANY};
    use proptest::prelude::*;

    /// Feeds each list of `lists` through one reused set, checking every
    /// answer against a search of the earlier keys.
    fn agrees_with_search(lists: &[Vec<Vec<u8>>]) {
        let mut set = KeySet::default();
        // the same lists through a second set whose filter is kept outside
        let mut outside = KeySet::default();
        for list in lists {
            set.clear();
            outside.clear();
            let mut seen = 0;
            let mut keys: Vec<&[u8]> = Vec::new();
            for key in list {
                let want = keys.iter().position(|k| *k == key.as_slice());
                let got = set.find_or_add(
                    || key.as_slice(),
                    KeySet::class(key),
                    keys.len(),
                    |i| keys[i],
                );
                assert_eq!(got, want, "{key:?} after {keys:?}");
                let got = outside.find_or_add_with(
                    &mut seen,
                    || key.as_slice(),
                    KeySet::class(key),
                    keys.len(),
                    |i| keys[i],
                );
                assert_eq!(got, want, "{key:?} after {keys:?}, filter outside");
                if got.is_none() {
                    keys.push(key);
                }
            }
        }
    }

    #[test]
    fn long_lists_use_the_index() {
        let list: Vec<Vec<u8>> = (0..3 * MANY)
            .chain(0..3 * MANY)
            .map(|n| format!("a{n}").into_bytes())
            .collect();
        agrees_with_search(&[list.clone(), list[..MANY].to_vec(), list]);
    }

    proptest! {
        #[test]
        fn finds_what_a_search_finds(
            lists in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b'), Just(b':')], 0..4),
                    0..3 * MANY,
                ),
                1..4,
            )
        ) {
            agrees_with_search(&lists);
        }
    }
}
