//! Which bytes `json_encode()` copies unchanged, and a kernel that finds
//! the first byte that is not, sixteen bytes at a time.

use super::JsonFlags;
use super::kernels::JsonKernel;

/// Bytes examined per step of [`first_dirty_with`].
pub(super) const STEP: usize = 16;

// Why an ASCII byte may need escaping: always, or only under some flags.
const ALWAYS: u8 = 1;
const SLASH: u8 = 2; // unless JSON_UNESCAPED_SLASHES
const TAG: u8 = 4; // with JSON_HEX_TAG
const AMP: u8 = 8; // with JSON_HEX_AMP
const APOS: u8 = 16; // with JSON_HEX_APOS

/// For each ASCII byte, the conditions under which it is escaped.
static REASONS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 0x20 {
        t[b] = ALWAYS;
        b += 1;
    }
    t[b'"' as usize] = ALWAYS;
    t[b'\\' as usize] = ALWAYS;
    t[b'/' as usize] = SLASH;
    t[b'<' as usize] = TAG;
    t[b'>' as usize] = TAG;
    t[b'&' as usize] = AMP;
    t[b'\'' as usize] = APOS;
    t
};

/// The ASCII bytes other than controls that may need escaping, with the
/// condition for each.
const SPECIALS: [(u8, u8); 7] = [
    (b'"', ALWAYS),
    (b'\\', ALWAYS),
    (b'/', SLASH),
    (b'<', TAG),
    (b'>', TAG),
    (b'&', AMP),
    (b'\'', APOS),
];

const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGH: u64 = 0x8080_8080_8080_8080;
const ONES: u64 = 0x0101_0101_0101_0101;

/// The set of bytes copied unchanged under one set of flags.
///
/// Every byte from 0x80 up counts as not clean: those go to the decoder.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clean {
    /// The `REASONS` bits that apply under the flags.
    active: u8,
    /// The printable ASCII bytes to stop at; unused places repeat `"`.
    specials: [u8; 7],
    /// How many places of `specials` are distinct and used (2 to 7).
    count: usize,
    /// The same set as nibble lookups for the vector kernel (see
    /// [`JsonKernel`]).
    lo: [u8; 16],
    hi: [u8; 16],
}

/// [`Clean`] for every combination of the four flags that matter, indexed
/// by [`Clean::index`].
static TABLE: [Clean; 16] = {
    let mut t = [Clean::build(JsonFlags::NONE); 16];
    let mut i = 0;
    while i < 16 {
        // Bits 0..3: HEX_TAG, HEX_AMP, HEX_APOS, UNESCAPED_SLASHES.
        let slashes = if i & 8 != 0 { 64 } else { 0 };
        t[i] = Clean::build(JsonFlags::from_bits((i as u32 & 7) | slashes));
        i += 1;
    }
    t
};

impl Clean {
    /// The clean set under `flags`, from a table built at compile time.
    #[inline(always)]
    pub(super) fn new(flags: JsonFlags) -> &'static Self {
        &TABLE[Self::index(flags)]
    }

    const fn index(flags: JsonFlags) -> usize {
        let bits = flags.bits();
        ((bits & 7) | ((bits >> 3) & 8)) as usize
    }

    const fn build(flags: JsonFlags) -> Self {
        let mut active = ALWAYS;
        if !flags.contains(JsonFlags::UNESCAPED_SLASHES) {
            active |= SLASH;
        }
        if flags.contains(JsonFlags::HEX_TAG) {
            active |= TAG;
        }
        if flags.contains(JsonFlags::HEX_AMP) {
            active |= AMP;
        }
        if flags.contains(JsonFlags::HEX_APOS) {
            active |= APOS;
        }
        let mut specials = [b'"'; 7];
        let mut count = 0;
        let mut k = 0;
        while k < SPECIALS.len() {
            let (byte, reason) = SPECIALS[k];
            if reason & active != 0 {
                specials[count] = byte;
                count += 1;
            }
            k += 1;
        }
        // Nibble lookups: bit 1 for controls (rows 0 and 1), 2 for row
        // 2 (`"` `&` `'` `/`), 4 for row 3 (`<` `>`), 8 for row 5 (`\`).
        let mut lo = [1u8; 16];
        let mut hi = [0u8; 16];
        hi[0] = 1;
        hi[1] = 1;
        hi[2] = 2;
        hi[3] = 4;
        hi[5] = 8;
        let mut b = 0x20;
        while b < 0x80 {
            if REASONS[b] & active != 0 {
                lo[b & 15] |= hi[b >> 4];
            }
            b += 1;
        }
        Self {
            active,
            specials,
            count,
            lo,
            hi,
        }
    }

    /// The vector kernel's view of these flags.
    #[inline(always)]
    pub(super) fn kernel(&self, flags: JsonFlags) -> JsonKernel {
        JsonKernel {
            lo: self.lo,
            hi: self.hi,
            hex_quot: flags.contains(JsonFlags::HEX_QUOT),
            raw_unicode: flags.contains(JsonFlags::UNESCAPED_UNICODE),
            raw_terminators: flags
                .contains(JsonFlags::UNESCAPED_UNICODE | JsonFlags::UNESCAPED_LINE_TERMINATORS),
        }
    }

    /// Is the ASCII byte `b` copied unchanged?
    #[inline(always)]
    pub(super) fn ascii(&self, b: u8) -> bool {
        debug_assert!(b < 0x80);
        REASONS[usize::from(b & 0x7F)] & self.active == 0
    }

    /// How many bytes the kernel must compare with: 2, 3 or 7.
    #[inline(always)]
    pub(super) fn width(&self) -> usize {
        match self.count {
            0..=2 => 2,
            3 => 3,
            _ => 7,
        }
    }

    /// The first `N` specials (`N` at least [`Clean::width`]), for
    /// [`first_dirty_with`].
    #[inline(always)]
    pub(super) fn specials<const N: usize>(&self) -> [u8; N] {
        debug_assert!(N >= self.width() && N <= 7);
        std::array::from_fn(|k| self.specials[k])
    }

    /// [`first_dirty_with`] at this width, for the tests.
    #[cfg(test)]
    fn first_dirty(&self, chunk: &[u8; STEP]) -> usize {
        match self.width() {
            2 => first_dirty_with(chunk, &self.specials::<2>()),
            3 => first_dirty_with(chunk, &self.specials::<3>()),
            _ => first_dirty_with(chunk, &self.specials::<7>()),
        }
    }
}

/// Whether every byte of `src` (at most [`STEP`] bytes) is clean under
/// `clean`: two overlapping words for 8 to 16 bytes, one word made of two
/// overlapping halves for 4 to 7, bytes one by one below.
#[inline(always)]
pub(super) fn short_is_clean(src: &[u8], clean: &Clean) -> bool {
    let n = src.len();
    debug_assert!(n <= STEP);
    let word = |at: usize| u64::from_le_bytes(src[at..at + 8].try_into().expect("8 bytes"));
    let half = |at: usize| u32::from_le_bytes(src[at..at + 4].try_into().expect("4 bytes"));
    let (a, b) = if n >= 8 {
        (word(0), word(n - 8))
    } else if n >= 4 {
        (
            u64::from(half(0)) | u64::from(half(n - 4)) << 32,
            0x2020_2020_2020_2020,
        )
    } else {
        return src.iter().all(|&b| b < 0x80 && clean.ascii(b));
    };
    match clean.width() {
        2 => dirty(a, &clean.specials::<2>()) | dirty(b, &clean.specials::<2>()) == 0,
        3 => dirty(a, &clean.specials::<3>()) | dirty(b, &clean.specials::<3>()) == 0,
        _ => dirty(a, &clean.specials::<7>()) | dirty(b, &clean.specials::<7>()) == 0,
    }
}

/// One bit (the high bit of the byte) for each of the eight bytes of `x`
/// that is a control, not ASCII, or one of `specials`.
#[inline(always)]
fn dirty<const N: usize>(x: u64, specials: &[u8; N]) -> u64 {
    let y = x & LOW7;
    // High bit set where the 7-bit value is at least 0x20: no carry can
    // cross a byte, as 0x7F + 0x60 < 0x100.
    let mut clean = y + 0x60 * ONES;
    for &s in specials {
        // High bit set where the byte differs from `s`.
        clean &= (y ^ (u64::from(s) * ONES)) + LOW7;
    }
    (!clean | x) & HIGH
}

/// Where the first byte of `chunk` that is not clean is, or [`STEP`] when
/// all sixteen are clean, with the specials of a [`Clean`] given (see
/// [`Clean::specials`]) so that a loop over many chunks is compiled for one
/// width. Word at a time: two `u64` per chunk.
#[inline(always)]
pub(super) fn first_dirty_with<const N: usize>(chunk: &[u8; STEP], specials: &[u8; N]) -> usize {
    let (lo, hi) = chunk.split_at(8);
    let lo = u64::from_le_bytes(lo.try_into().expect("8 bytes"));
    let hi = u64::from_le_bytes(hi.try_into().expect("8 bytes"));
    let (dlo, dhi) = (dirty(lo, specials), dirty(hi, specials));
    if dlo | dhi == 0 {
        return STEP;
    }
    // Little-endian: the lowest set bit is the first dirty byte.
    let at = if dlo != 0 {
        dlo.trailing_zeros()
    } else {
        64 + dhi.trailing_zeros()
    };
    at as usize / 8
}

/// [`first_dirty_with`] from the byte `skip` (below [`STEP`]) of `chunk`
/// on: the bytes before it are left out.
#[inline(always)]
pub(super) fn first_dirty_after<const N: usize>(
    chunk: &[u8; STEP],
    specials: &[u8; N],
    skip: usize,
) -> usize {
    debug_assert!(skip < STEP);
    let (lo, hi) = chunk.split_at(8);
    let lo = u64::from_le_bytes(lo.try_into().expect("8 bytes"));
    let hi = u64::from_le_bytes(hi.try_into().expect("8 bytes"));
    let dirt = (u128::from(dirty(lo, specials)) | u128::from(dirty(hi, specials)) << 64)
        & (u128::MAX << (8 * skip));
    if dirt == 0 {
        return STEP;
    }
    dirt.trailing_zeros() as usize / 8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_flag_sets() -> impl Iterator<Item = JsonFlags> {
        let bits = [1, 2, 4, 8, 64];
        (0..32u32).map(move |m| {
            let mut f = JsonFlags::NONE;
            for (i, b) in bits.iter().enumerate() {
                if m & (1 << i) != 0 {
                    f |= JsonFlags::from_bits(*b);
                }
            }
            f
        })
    }

    #[test]
    fn first_dirty_is_where_the_scalar_test_stops() {
        for flags in all_flag_sets() {
            let clean = Clean::new(flags);
            for bad in 0..=255u8 {
                let is_clean = bad < 0x80 && clean.ascii(bad);
                for at in 0..STEP {
                    for fill in [b'a', b'"', 0xC3] {
                        let mut chunk = [b'a'; STEP];
                        chunk[at] = bad;
                        // A second dirty byte (or not) after the first.
                        if at + 1 < STEP {
                            chunk[STEP - 1] = fill;
                        }
                        let scalar = chunk
                            .iter()
                            .position(|&b| b >= 0x80 || !clean.ascii(b))
                            .unwrap_or(STEP);
                        assert_eq!(
                            clean.first_dirty(&chunk),
                            scalar,
                            "{flags} {bad:#x} at {at}"
                        );
                        if is_clean && fill == b'a' {
                            assert_eq!(scalar, STEP);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn first_dirty_after_leaves_out_the_first_bytes() {
        for flags in all_flag_sets() {
            let clean = Clean::new(flags);
            for bad in [0u8, b'"', b'/', b'<', 0x80, 0xFF, b'a'] {
                for at in 0..STEP {
                    let mut chunk = [b'a'; STEP];
                    chunk[at] = bad;
                    chunk[0] = b'\\';
                    for skip in 1..STEP {
                        let scalar = (skip..STEP)
                            .find(|&k| chunk[k] >= 0x80 || !clean.ascii(chunk[k]))
                            .unwrap_or(STEP);
                        let found = match clean.width() {
                            2 => first_dirty_after(&chunk, &clean.specials::<2>(), skip),
                            3 => first_dirty_after(&chunk, &clean.specials::<3>(), skip),
                            _ => first_dirty_after(&chunk, &clean.specials::<7>(), skip),
                        };
                        assert_eq!(found, scalar, "{flags} {bad:#x} at {at} skip {skip}");
                    }
                }
            }
        }
    }

    #[test]
    fn short_is_clean_is_the_byte_test() {
        for flags in all_flag_sets() {
            let clean = Clean::new(flags);
            for n in 0..=STEP {
                for bad in 0..=255u8 {
                    for at in 0..n {
                        let mut src = vec![b'a'; n];
                        src[at] = bad;
                        let expected = src.iter().all(|&b| b < 0x80 && clean.ascii(b));
                        assert_eq!(short_is_clean(&src, clean), expected, "{flags} {src:?}");
                    }
                }
                assert!(short_is_clean(&vec![b'z'; n], clean));
            }
        }
    }

    #[test]
    fn nibble_lookups_are_the_clean_set() {
        for flags in all_flag_sets() {
            let clean = Clean::new(flags);
            for b in 0..0x80u8 {
                let dirty = clean.lo[usize::from(b & 15)] & clean.hi[usize::from(b >> 4)] != 0;
                assert_eq!(dirty, !clean.ascii(b), "{flags} {b:#x}");
            }
        }
    }

    #[test]
    fn clean_ascii_is_what_php_copies() {
        for flags in all_flag_sets() {
            let clean = Clean::new(flags);
            for b in 0..0x80u8 {
                let expected = match b {
                    0..0x20 | b'"' | b'\\' => false,
                    b'/' => flags.contains(JsonFlags::UNESCAPED_SLASHES),
                    b'<' | b'>' => !flags.contains(JsonFlags::HEX_TAG),
                    b'&' => !flags.contains(JsonFlags::HEX_AMP),
                    b'\'' => !flags.contains(JsonFlags::HEX_APOS),
                    _ => true,
                };
                assert_eq!(clean.ascii(b), expected, "{flags} {b:#x}");
            }
        }
    }
}
