//! Keiser and Lemire's UTF-8 check, written once over [`Vector`] for
//! every kernel that validates UTF-8 a window at a time.

use super::Vector;

// Keiser and Lemire's UTF-8 validation lookups ("Validating UTF-8 in less
// than one instruction per byte", 2021; as in simdjson): for each pair of
// consecutive bytes, the error classes the first byte's high and low nibble
// and the second byte's high nibble allow; a pair is malformed when a class
// survives all three.
const TOO_SHORT: u8 = 1 << 0; // lead, then ASCII or a lead
const TOO_LONG: u8 = 1 << 1; // ASCII, then a continuation
const OVERLONG_3: u8 = 1 << 2; // E0, then 80..9F
const TOO_LARGE: u8 = 1 << 3; // F4, then 90..BF; F5.., then 90..BF
const SURROGATE: u8 = 1 << 4; // ED, then A0..BF
const OVERLONG_2: u8 = 1 << 5; // C0 or C1, then a continuation
const TOO_LARGE_1000: u8 = 1 << 6; // F5.., then 80..8F
const OVERLONG_4: u8 = 1 << 6; // F0, then 80..8F
const TWO_CONTS: u8 = 1 << 7; // a continuation after a continuation
const CARRY: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;

pub(crate) static UTF8_BYTE_1_HIGH: [u8; 16] = [
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4,
];

pub(crate) static UTF8_BYTE_1_LOW: [u8; 16] = [
    CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4,
    CARRY | OVERLONG_2,
    CARRY,
    CARRY,
    CARRY | TOO_LARGE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
    CARRY | TOO_LARGE | TOO_LARGE_1000,
];

pub(crate) static UTF8_BYTE_2_HIGH: [u8; 16] = [
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
];

/// Keiser and Lemire's UTF-8 errors of the bytes `cur` after `p1`, `p2`,
/// `p3` (the bytes one, two and three before each lane), nonzero where
/// malformed; `kl` is [`lookups`].
///
/// # Safety
///
/// The CPU must support what `V`'s operations need (the caller enables
/// it).
#[inline(always)]
#[allow(clippy::multiple_unsafe_ops_per_block)] // register operations only
pub(crate) unsafe fn utf8_errors<V: Vector>(kl: [V; 3], cur: V, p1: V, p2: V, p3: V) -> V {
    // SAFETY: `V`'s features, which the caller enables.
    unsafe {
        let e = kl[0]
            .lookup(p1.high_nibble())
            .and(kl[1].lookup(p1.low_nibble()))
            .and(kl[2].lookup(cur.high_nibble()));
        let must23 = p2
            .saturating_sub(V::splat(0xE0 - 0x80))
            .or(p3.saturating_sub(V::splat(0xF0 - 0x80)))
            .and(V::splat(0x80));
        must23.xor(e)
    }
}

/// The three lookups of [`utf8_errors`], each table in every lane.
///
/// # Safety
///
/// As [`utf8_errors`].
#[inline(always)]
#[allow(clippy::multiple_unsafe_ops_per_block)] // reads of the tables only
pub(crate) unsafe fn lookups<V: Vector>() -> [V; 3] {
    // SAFETY: `V`'s features, which the caller enables.
    unsafe {
        [
            V::table(&UTF8_BYTE_1_HIGH),
            V::table(&UTF8_BYTE_1_LOW),
            V::table(&UTF8_BYTE_2_HIGH),
        ]
    }
}
