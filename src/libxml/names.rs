//! Tag names compared without a call to `memcmp`: the short names of most
//! documents as one or two pairs of words. The end-tag check
//! (`xmlParseEndTag1`'s compare with the open name) and the struct
//! builder's `$index` lookup both ask it.

/// `a == b`, in line: under 4 bytes a byte at a time, up to 8 as two
/// four-byte words, up to 16 as two eight-byte words (overlapping where
/// the length is not twice the word's), longer ones as slices.
#[inline]
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n < 4 {
        a.iter().zip(b).all(|(x, y)| x == y)
    } else if n <= 8 {
        let words = |s: &[u8]| -> Option<(u32, u32)> {
            let (head, tail) = (s.first_chunk::<4>()?, s.last_chunk::<4>()?);
            Some((u32::from_le_bytes(*head), u32::from_le_bytes(*tail)))
        };
        words(a) == words(b)
    } else if n <= 16 {
        let words = |s: &[u8]| -> Option<(u64, u64)> {
            let (head, tail) = (s.first_chunk::<8>()?, s.last_chunk::<8>()?);
            Some((u64::from_le_bytes(*head), u64::from_le_bytes(*tail)))
        };
        words(a) == words(b)
    } else {
        a == b
    }
}

#[cfg(test)]
mod tests {
    use super::same_name;

    /// `same_name` is `==`: names of every length up to past the words
    /// against themselves, against every one-byte change at each place
    /// and against every other length.
    #[test]
    fn words_agree_with_the_slice_compare() {
        let base: Vec<u8> = (0..24u8).map(|i| b'A' + i).collect();
        for n in 0..=24 {
            let a = &base[..n];
            assert!(same_name(a, a));
            for at in 0..n {
                for b in [0u8, b'a', 0x80, 0xFF] {
                    let mut changed = a.to_vec();
                    changed[at] ^= b | 1;
                    assert_eq!(same_name(a, &changed), a == changed.as_slice());
                }
            }
            for m in 0..=24 {
                assert_eq!(same_name(a, &base[..m]), n == m);
                let mut other = base[..m].to_vec();
                if let Some(last) = other.last_mut() {
                    *last = b'_';
                }
                assert_eq!(same_name(a, &other), a == other.as_slice());
            }
        }
    }
}
