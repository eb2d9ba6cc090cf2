//! The arithmetic of the `\uXXXX` planes paths, written once for 32-byte
//! windows (`x86_256`) and 64-byte ones (`x86_512`): each input byte's one
//! to three output bytes (three planes), from the byte and its
//! neighbours. What stays with each width is how the window is checked,
//! how ASCII bytes and the escapes are put in, and how the planes are
//! interleaved and stored.

#[allow(clippy::wildcard_imports)]
use std::arch::x86_64::*;

use crate::simd::Vector;

/// The operations of the planes beyond [`Vector`]. Every method is
/// `unsafe` only for the CPU features it needs: AVX-512 F and BW (and VL
/// on `__m256i`), which the calling kernel enables.
pub(super) trait PlaneVector: Vector {
    /// Zero in every byte.
    unsafe fn zero() -> Self;
    /// `m ? y : x` bitwise.
    unsafe fn select(m: Self, y: Self, x: Self) -> Self;
    /// `self & mask | bits` bitwise.
    unsafe fn and_or(self, mask: Self, bits: Self) -> Self;
    /// Each 16-bit lane shifted left by 2.
    unsafe fn shl2(self) -> Self;
    /// Each 16-bit lane shifted right by 2.
    unsafe fn shr2(self) -> Self;
    /// Bytewise wrapping subtraction.
    unsafe fn sub_bytes(self, other: Self) -> Self;
}

// Each method is one register operation whose only requirement is the
// CPU feature the trait's contract leaves to the caller: one safety
// argument for the whole block.
#[allow(clippy::multiple_unsafe_ops_per_block)]
impl PlaneVector for __m256i {
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX, which the caller enables.
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    unsafe fn select(m: Self, y: Self, x: Self) -> Self {
        // SAFETY: AVX-512 F and VL, which the caller enables (0xCA is
        // `a ? b : c`).
        unsafe { _mm256_ternarylogic_epi32::<0xCA>(m, y, x) }
    }
    #[inline(always)]
    unsafe fn and_or(self, mask: Self, bits: Self) -> Self {
        // SAFETY: AVX-512 F and VL, which the caller enables (0xEA is
        // `a & b | c`).
        unsafe { _mm256_ternarylogic_epi32::<0xEA>(self, mask, bits) }
    }
    #[inline(always)]
    unsafe fn shl2(self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_slli_epi16::<2>(self) }
    }
    #[inline(always)]
    unsafe fn shr2(self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_srli_epi16::<2>(self) }
    }
    #[inline(always)]
    unsafe fn sub_bytes(self, other: Self) -> Self {
        // SAFETY: AVX2, which the caller enables.
        unsafe { _mm256_sub_epi8(self, other) }
    }
}

// As for `__m256i`.
#[allow(clippy::multiple_unsafe_ops_per_block)]
impl PlaneVector for __m512i {
    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX-512 F, which the caller enables.
        unsafe { _mm512_setzero_si512() }
    }
    #[inline(always)]
    unsafe fn select(m: Self, y: Self, x: Self) -> Self {
        // SAFETY: AVX-512 F, which the caller enables.
        unsafe { _mm512_ternarylogic_epi32::<0xCA>(m, y, x) }
    }
    #[inline(always)]
    unsafe fn and_or(self, mask: Self, bits: Self) -> Self {
        // SAFETY: AVX-512 F, which the caller enables.
        unsafe { _mm512_ternarylogic_epi32::<0xEA>(self, mask, bits) }
    }
    #[inline(always)]
    unsafe fn shl2(self) -> Self {
        // SAFETY: AVX-512 BW, which the caller enables.
        unsafe { _mm512_slli_epi16::<2>(self) }
    }
    #[inline(always)]
    unsafe fn shr2(self) -> Self {
        // SAFETY: AVX-512 BW, which the caller enables.
        unsafe { _mm512_srli_epi16::<2>(self) }
    }
    #[inline(always)]
    unsafe fn sub_bytes(self, other: Self) -> Self {
        // SAFETY: AVX-512 BW, which the caller enables.
        unsafe { _mm512_sub_epi8(self, other) }
    }
}

/// Nibble tables of the planes paths: 0xFF for the high nibbles of a
/// class.
const fn nibble_class(from: usize, to: usize) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut k = from;
    while k <= to {
        t[k] = 0xFF;
        k += 1;
    }
    t
}
/// High nibbles C and D: leads of two-byte characters.
pub(super) static HIGH_L2: [u8; 16] = nibble_class(0xC, 0xD);
/// High nibble E: leads of three-byte characters.
pub(super) static HIGH_L3: [u8; 16] = nibble_class(0xE, 0xE);
/// High nibble F: leads of four-byte characters.
pub(super) static HIGH_L4: [u8; 16] = nibble_class(0xF, 0xF);
/// High nibbles C to F: every lead.
pub(super) static HIGH_LEAD: [u8; 16] = nibble_class(0xC, 0xF);
/// High nibbles 8 to B: continuation bytes.
pub(super) static HIGH_CONT: [u8; 16] = nibble_class(0x8, 0xB);
/// High nibbles E and F: leads of three- and four-byte characters.
pub(super) static HIGH_LONG: [u8; 16] = nibble_class(0xE, 0xF);

/// The lookups of [`planes`], each table in every lane.
#[derive(Clone, Copy)]
pub(super) struct PlaneTables<V> {
    l2: V,
    l3: V,
    /// [`HIGH_L4`]: the kernels without `FOUR` reject its bytes.
    pub(super) l4: V,
    lead: V,
    hex: V,
}

impl<V: PlaneVector> PlaneTables<V> {
    /// # Safety
    ///
    /// As [`planes`].
    #[inline(always)]
    #[allow(clippy::multiple_unsafe_ops_per_block)] // reads of the tables only
    pub(super) unsafe fn new() -> Self {
        // SAFETY: `V`'s features, which the caller enables.
        unsafe {
            Self {
                l2: V::table(&HIGH_L2),
                l3: V::table(&HIGH_L3),
                l4: V::table(&HIGH_L4),
                lead: V::table(&HIGH_LEAD),
                hex: V::table(b"0123456789abcdef"),
            }
        }
    }
}

/// The three planes of the non-ASCII bytes of window `c` (`hc` its high
/// nibbles; `p1` to `p3` the windows one to three bytes before it, `n1`
/// the one a byte after), text of two-, three- and (with `FOUR`)
/// four-byte characters written as `\uXXXX`: a lead gives `\u` and two
/// digits (`\u0` and one digit for two bytes; a four-byte lead `\ud`
/// and two digits), a second byte two or three digits, a third byte
/// two, a fourth three: `\ud`, then three digits of the low surrogate
/// spread over the third and fourth bytes. Plane `k` holds each byte's
/// `k`-th output byte; plane 2 is zero where there is none. ASCII bytes
/// and the escapes are the caller's to put in.
///
/// # Safety
///
/// The CPU must support what `V`'s [`PlaneVector`] operations need (the
/// caller enables it).
#[inline(always)]
#[allow(clippy::multiple_unsafe_ops_per_block)] // register operations only
#[allow(clippy::many_single_char_names, clippy::similar_names)]
pub(super) unsafe fn planes<V: PlaneVector, const FOUR: bool>(
    t: &PlaneTables<V>,
    c: V,
    hc: V,
    [p1, p2, p3]: [V; 3],
    n1: V,
) -> [V; 3] {
    // SAFETY: `V`'s features, which the caller enables.
    unsafe {
        let b = V::splat;
        let sel = V::select;
        // Roles of each byte, from its class and the classes of the
        // bytes before it.
        let (hp1, hp2) = (p1.high_nibble(), p2.high_nibble());
        let lead = t.lead.lookup(hc);
        let l2 = t.l2.lookup(hc);
        let l2c = t.l2.lookup(hp1);
        let l3c1 = t.l3.lookup(hp1);
        let l3c2 = t.l3.lookup(hp2);

        // Hex digit values: `p` the byte before, `c` the byte, `n` the
        // byte after.
        let c_lo = c.low_nibble();
        let p1_2 = p1.shl2();
        // ((p & 3) << 2) | (c >> 4 & 3): the bits of `hc` outside 0x0C
        // are its low two, so a bitwise select does it.
        let x1 = sel(b(0x0C), p1_2, hc);
        // p >> 2 & 7
        let na = p1.shr2().and(b(0x07));
        // p & 15
        let nb = p1.low_nibble();
        // c >> 2 & 15
        let nd = c.shr2().low_nibble();
        // The three planes: digit values, then hex, then the fixed
        // bytes; zero where nothing is written.
        let mut d0 = sel(l3c1, nb, na);
        d0 = sel(l3c2, x1, d0);
        let mut d1 = sel(l3c1, nd, x1);
        d1 = sel(l3c2, c_lo, d1);
        let mut d2 = c_lo;
        let mut escaped = lead;
        let mut u_byte = lead;
        let mut three = l2.or(l2c);
        let mut d_byte = V::zero();
        if FOUR {
            let hp3 = p3.high_nibble();
            let l4 = t.l4.lookup(hc);
            let l4c1 = t.l4.lookup(hp1);
            let l4c2 = t.l4.lookup(hp2);
            let l4c3 = t.l4.lookup(hp3);
            // Four-byte characters: `u` = the plane (5 bits), the high
            // surrogate's digits are 8 | (u - 1) >> 2, (u - 1) & 3 << 2
            // | (c & 15) >> 2, (c & 3) << 2 | n >> 4 & 3; the low
            // surrogate's first one 0xC | p >> 2 & 3. (Selects by a
            // constant mask where the other operand has no bits under
            // it.)
            let u1 = sel(b(0x1C), p1_2, hc).sub_bytes(b(1));
            let ng = u1.shr2().and_or(b(0x03), b(0x08));
            let nh = sel(b(0x0C), u1.shl2(), nd.and(b(0x03)));
            let ni = sel(b(0x0C), c.shl2(), n1.high_nibble());
            let nf = na.and_or(b(0x03), b(0x0C));
            d0 = sel(l4c1, ng, d0);
            d0 = sel(l4c3, nf, d0);
            d1 = sel(l4c1, nh, d1);
            d2 = sel(l4c1, ni, d2);
            escaped = escaped.or(l4c2);
            u_byte = u_byte.or(l4c2);
            d_byte = l4.or(l4c2);
            three = three.or(l4.or(l4c1).or(l4c2.or(l4c3)));
        }
        let q0 = sel(escaped, b(b'\\'), t.hex.lookup(d0));
        let q1 = sel(u_byte, b(b'u'), t.hex.lookup(d1));
        let mut q2 = t.hex.lookup(d2);
        if FOUR {
            q2 = sel(d_byte, b(b'd'), q2);
        }
        q2 = sel(l2, b(b'0'), q2);
        // Three bytes: two-byte and four-byte characters.
        [q0, q1, q2.and(three)]
    }
}

/// The three planes of the non-ASCII bytes of window `c` (`hc` its high
/// nibbles, `p1` the window a byte before it) for text whose only
/// multibyte characters are two bytes long: each lead (`lead`) gives
/// `\u0` and the first hex digit, each continuation byte (`cont`) the
/// other three. Plane 2 is zero where there is none; ASCII bytes and
/// the escapes are the caller's to put in.
///
/// # Safety
///
/// As [`planes`].
#[inline(always)]
#[allow(clippy::multiple_unsafe_ops_per_block)] // register operations only
pub(super) unsafe fn two_byte_planes<V: PlaneVector>(
    hex: V,
    c: V,
    hc: V,
    p1: V,
    lead: V,
    cont: V,
) -> [V; 3] {
    // SAFETY: `V`'s features, which the caller enables.
    unsafe {
        let b = V::splat;
        // Two hex digits from the lead (before), one and a half from the
        // second byte.
        let x1 = hc.and_or(b(0x03), p1.shl2().and(b(0x0C)));
        let na = p1.shr2().and(b(0x07));
        let q0 = V::select(lead, b(b'\\'), hex.lookup(na));
        let q1 = V::select(lead, b(b'u'), hex.lookup(x1));
        let q2 = V::select(lead, b(b'0'), hex.lookup(c.low_nibble())).and(lead.or(cont));
        [q0, q1, q2]
    }
}
