//! The vector tiers of the single-byte converter against its scalar loop
//! ([`Utf8Table::convert_scalar`]), in charsets with and without
//! undefined bytes and three-byte characters.

use proptest::prelude::*;

use super::{SingleByte, TwoByteTable, Utf8Table, two_byte_table};
use crate::decode::single_byte_tiers;

/// The charsets tested: iconv's Cyrillic ones, Latin-1's superset and an
/// ICU-only one.
fn charsets() -> Vec<(&'static str, Box<Utf8Table>, TwoByteTable)> {
    let iconv = [
        "windows-1251",
        "KOI8-R",
        "ISO-8859-5",
        "CP866",
        "windows-1252",
    ];
    let mut all: Vec<(&'static str, SingleByte)> = iconv
        .iter()
        .map(|&l| {
            (
                l,
                SingleByte::for_label(l.as_bytes()).expect("an iconv label"),
            )
        })
        .collect();
    let icu = SingleByte::for_icu_label(b"x-mac-cyrillic").expect("an ICU label");
    assert!(icu.is_icu());
    all.push(("x-mac-cyrillic", icu));
    all.into_iter()
        .map(|(label, charset)| {
            let table = charset.utf8_table();
            let two_byte = two_byte_table(&table.seq).expect("a two-byte charset");
            (label, table, two_byte)
        })
        .collect()
}

/// The UTF-8 length of `byte` in `table` (0: undefined).
fn width(table: &Utf8Table, byte: u8) -> u32 {
    table.seq[usize::from(byte)] >> 24
}

/// Each tier alone, and the converter's loop around it, give what the
/// scalar loop gives, appended after what `out` held: the tier stops no
/// later than the first byte whose character is not ASCII or two bytes,
/// and within a step of the end when there is none.
fn check(label: &str, table: &Utf8Table, two_byte: &TwoByteTable, src: &[u8]) {
    let before = b"<x>";
    let mut expected = before.to_vec();
    let converted = table.convert_scalar(src, &mut expected);
    let first_other = src
        .iter()
        .position(|&b| b >= 0x80 && width(table, b) != 2)
        .unwrap_or(src.len());
    for (tier, run) in single_byte_tiers("the single-byte converter's tiers") {
        let mut out = before.to_vec();
        let read = run(src, &mut out, two_byte);
        assert!(
            read <= first_other,
            "{label} {tier}: read {read} past {first_other} of {src:02X?}"
        );
        assert!(
            first_other < src.len() || src.len() - read < 64,
            "{label} {tier}: stopped at {read} of {}",
            src.len()
        );
        let mut reference = before.to_vec();
        table.convert_scalar(&src[..read], &mut reference);
        assert_eq!(out, reference, "{label} {tier} on {src:02X?}");
        let mut out = before.to_vec();
        let n = table.convert_with(src, &mut out, |raw, out| run(raw, out, two_byte));
        assert_eq!(
            (n, &out),
            (converted, &expected),
            "{label} {tier} on {src:02X?}"
        );
    }
    let mut out = before.to_vec();
    assert_eq!(table.convert(src, &mut out), converted, "{label}");
    assert_eq!(out, expected, "{label}");
}

/// A mix of ASCII and the charset's two-byte characters, `len` bytes.
fn text(table: &Utf8Table, len: usize, seed: usize) -> Vec<u8> {
    let two: Vec<u8> = (0x80..=0xFFu8).filter(|&b| width(table, b) == 2).collect();
    (0..len)
        .map(|k| {
            let pick = k * 7 + seed;
            if pick.is_multiple_of(5) {
                b'a' + (pick % 26) as u8
            } else {
                two[pick % two.len()]
            }
        })
        .collect()
}

#[test]
fn tiers_match_the_scalar_loop_at_window_edges() {
    for (label, table, two_byte) in charsets() {
        // An undefined byte, a three-byte character, a one-byte high
        // byte where there are any, and ASCII, at every place of three
        // 64-byte windows, in text of two-byte characters.
        let mut odd: Vec<u8> = [0, 1, 3]
            .iter()
            .filter_map(|&w| (0x80..=0xFFu8).find(|&b| width(&table, b) == w))
            .collect();
        odd.push(b'A');
        assert!(odd.len() >= 2, "{label}: {odd:02X?}");
        for len in [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200] {
            check(label, &table, &two_byte, &text(&table, len, len));
            check(label, &table, &two_byte, &vec![b'z'; len]);
        }
        for &byte in &odd {
            for at in 0..192 {
                let mut src = text(&table, 200, at);
                src[at] = byte;
                check(label, &table, &two_byte, &src);
                // ASCII runs before it.
                src[..at].fill(b' ');
                check(label, &table, &two_byte, &src);
            }
        }
    }
}

#[test]
fn tiers_match_the_scalar_loop_on_every_byte() {
    for (label, table, two_byte) in charsets() {
        let every: Vec<u8> = (0..=0xFFu8).collect();
        let defined: Vec<u8> = every
            .iter()
            .copied()
            .filter(|&b| width(&table, b) != 0)
            .collect();
        for from in 0..70 {
            check(label, &table, &two_byte, &every[from..]);
            check(label, &table, &two_byte, &defined.repeat(3)[from..]);
        }
        // Every byte after a window of two-byte characters.
        for byte in 0..=0xFFu8 {
            let mut src = text(&table, 130, 3);
            src[64] = byte;
            src[100] = byte;
            check(label, &table, &two_byte, &src);
        }
    }
}

proptest! {
    #[test]
    fn tiers_match_the_scalar_loop_on_random_text(
        charset in 0usize..6,
        pieces in proptest::collection::vec((0usize..300, any::<u8>()), 0..8),
        len in 0usize..600,
        seed in 0usize..1000,
    ) {
        let all = charsets();
        let (label, table, two_byte) = &all[charset];
        let mut src = text(table, len, seed);
        for (at, byte) in pieces {
            if at < src.len() {
                src[at] = byte;
            }
        }
        check(label, table, two_byte, &src);
    }
}
