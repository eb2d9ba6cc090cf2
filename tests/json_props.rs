//! The fast escaper against the plain reference escaper: random strings
//! mixing valid, invalid and truncated UTF-8 with ASCII that needs
//! escaping, padded so that everything meets the 16-byte steps at every
//! offset, under every combination of flags.

use phpxml::json::{JsonFlags, escape_string, escape_string_reference};
use proptest::prelude::*;

/// Both escapers, appending to a buffer that already holds something, so
/// that rewinding on failure is checked too.
fn assert_same(input: &[u8], flags: JsonFlags) {
    let (mut fast, mut plain) = (b"[1,".to_vec(), b"[1,".to_vec());
    let r1 = escape_string(input, flags, &mut fast);
    let r2 = escape_string_reference(input, flags, &mut plain);
    assert_eq!(r1, r2, "{input:02X?} under {flags}");
    assert_eq!(
        String::from_utf8_lossy(&fast),
        String::from_utf8_lossy(&plain),
        "{input:02X?} under {flags}"
    );
    assert_eq!(fast, plain);
}

/// Every flag that `php_json_escape_string()` reads, and two that it
/// does not, as a strategy over all their combinations.
fn flags() -> impl Strategy<Value = JsonFlags> {
    const BITS: [u32; 12] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048];
    (any::<u16>(), 0..4u32).prop_map(|(m, utf8)| {
        let mut f = JsonFlags::from_bits(utf8 << 20); // IGNORE and SUBSTITUTE
        for (i, b) in BITS.iter().enumerate() {
            if m & (1 << i) != 0 {
                f |= JsonFlags::from_bits(*b);
            }
        }
        f
    })
}

/// Pieces strings are made of.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        // Plain ASCII words.
        "[a-zA-Z0-9 ,.;:!?=+-]{1,20}".prop_map(String::into_bytes),
        // ASCII that may need escaping.
        prop::sample::select(&b"\"\\/<>&'\x00\x01\x08\x09\x0A\x0B\x0C\x0D\x1F\x7F"[..])
            .prop_map(|b| vec![b]),
        // Valid characters of every length, line terminators and U+FFFD.
        any::<char>().prop_map(|c| c.to_string().into_bytes()),
        prop::sample::select(vec![
            "\u{2028}",
            "\u{2029}",
            "\u{FFFD}",
            "é",
            "Ж",
            "漢",
            "😀",
            "\u{10FFFF}"
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        // Valid characters cut short.
        any::<char>()
            .prop_filter("multibyte", |c| c.len_utf8() > 1)
            .prop_flat_map(|c| {
                let bytes = c.to_string().into_bytes();
                let n = bytes.len();
                (Just(bytes), 1..n)
            })
            .prop_map(|(bytes, n)| bytes[..n].to_vec()),
        // Overlongs, surrogates, beyond U+10FFFF, stray bytes.
        prop::sample::select(vec![
            &b"\xC0\x80"[..],
            b"\xC1\xBF",
            b"\xE0\x80\x80",
            b"\xE0\x9F\xBF",
            b"\xED\xA0\x80",
            b"\xED\xBF\xBF",
            b"\xF0\x80\x80\x80",
            b"\xF4\x90\x80\x80",
            b"\xF5\x80\x80\x80",
            b"\xFF",
            b"\xE0\xC0\x80",
            b"\xC2\xC0",
        ])
        .prop_map(<[u8]>::to_vec),
        // Random high bytes and random bytes.
        prop::collection::vec(0x80..=0xFFu8, 1..5),
        prop::collection::vec(any::<u8>(), 1..5),
        // Numeric-looking text, for JSON_NUMERIC_CHECK.
        "[ \t]?[-+]?[0-9]{0,20}(\\.[0-9]{0,5})?([eE][-+]?[0-9]{1,3})?[ \n]?"
            .prop_map(String::into_bytes),
    ]
}

fn padded_string() -> impl Strategy<Value = Vec<u8>> {
    (
        0..=64usize,
        prop::collection::vec(fragment(), 0..12),
        0..=64usize,
    )
        .prop_map(|(pre, parts, post)| {
            let mut s = vec![b'p'; pre];
            for p in parts {
                s.extend(p);
            }
            s.extend(std::iter::repeat_n(b'q', post));
            s
        })
}

/// Characters above U+FFFF (written as surrogate pairs), the pieces of
/// emoji text.
fn four_byte_char() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (0x1_0000u32..=0x10_FFFF).prop_map(|c| char::from_u32(c).expect("a scalar value")),
        prop::sample::select(vec!['😀', '🎉', '👍', '🚀', '🐘', '📦', '🔥', '🙈']),
    ]
    .prop_map(|c| c.to_string().into_bytes())
}

/// What is mixed into text of four-byte characters: three-byte ones
/// (`❤️` is two), ASCII to escape, and malformed or cut sequences,
/// four-byte ones above all (cut, overlong, above U+10FFFF, leads F5 to
/// FF with continuation bytes).
fn among_four_byte() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::sample::select(vec![
            "\u{2764}\u{FE0F}",
            "\u{2728}",
            "\u{20AC}",
            "é",
            "\u{FFFF}"
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        prop::sample::select(&b"\"\\/\n\t<&'\x01"[..]).prop_map(|b| vec![b]),
        prop::sample::select(vec![
            &b"\xF0\x9F\x98"[..],
            b"\xF0\x9F",
            b"\xF0",
            b"\xF0\x8F\xBF\xBF",
            b"\xF4\x90\x80\x80",
            b"\xF5\x80\x80\x80",
            b"\xF7\xBF\xBF\xBF",
            b"\xF8\x88\x80\x80",
            b"\xFC\x84\x80\x80",
            b"\xFF",
            b"\x80\x80\x80\x80",
            b"\xED\xA0\x80",
            b"\xE0\x80\x80",
            b"\xC1\xBF",
            b"\xF0\x9F\x98\x41",
            b"\xF0\x9F\xC0\x80",
        ])
        .prop_map(<[u8]>::to_vec),
        prop::collection::vec(0x80..=0xFFu8, 1..5),
    ]
}

/// Emoji text: mostly four-byte characters and spaces, so that windows
/// are dominated by them and characters cross window edges at every
/// offset, with other pieces now and then.
fn emoji_text() -> impl Strategy<Value = Vec<u8>> {
    (
        0..=70usize,
        prop::collection::vec(
            prop_oneof![
                12 => four_byte_char(),
                6 => Just(b" ".to_vec()),
                2 => "[a-z]{1,3}".prop_map(String::into_bytes),
                1 => among_four_byte(),
            ],
            0..160,
        ),
    )
        .prop_map(|(pre, parts)| [vec![b'p'; pre], parts.concat()].concat())
}

/// Text mostly of characters from `chars` (two- or three-byte ones: Latin,
/// Cyrillic, CJK), ASCII now and then, and the pieces of
/// [`among_four_byte`].
fn text_of(chars: std::ops::RangeInclusive<u32>) -> impl Strategy<Value = Vec<u8>> {
    (
        0..=70usize,
        prop::collection::vec(
            prop_oneof![
                12 => chars
                    .prop_filter_map("a scalar value", char::from_u32)
                    .prop_map(|c| c.to_string().into_bytes()),
                2 => Just(b" ".to_vec()),
                1 => "[a-z]{1,3}".prop_map(String::into_bytes),
                1 => among_four_byte(),
            ],
            0..160,
        ),
    )
        .prop_map(|(pre, parts)| [vec![b'p'; pre], parts.concat()].concat())
}

/// Words of two-byte characters (and a few others) between single ASCII
/// bytes, clean or not, some words longer than the escaper's pieces.
fn words() -> impl Strategy<Value = Vec<u8>> {
    let word = prop_oneof![
        4 => prop::collection::vec(0x400..=0x44Fu32, 1..8),
        1 => prop::collection::vec(0x80..=0x7FFu32, 20..60),
        1 => prop::collection::vec(prop::sample::select(vec![0xE9u32, 0x2028, 0x5B57, 0x1F600]), 1..4),
    ]
    .prop_map(|cps| {
        cps.into_iter()
            .filter_map(char::from_u32)
            .collect::<String>()
            .into_bytes()
    });
    let gap = prop_oneof![
        4 => Just(b" ".to_vec()),
        1 => prop::sample::select(&b"/\\\"<>&'\x01\n,xx"[..]).prop_map(|b| vec![b]),
        1 => Just(b"  ".to_vec()),
        1 => prop::sample::select(&b"\x80\xC3\xE2\xFF"[..]).prop_map(|b| vec![b]),
    ];
    prop::collection::vec((word, gap), 0..24).prop_map(|parts| {
        parts
            .into_iter()
            .flat_map(|(mut w, g)| {
                w.extend_from_slice(&g);
                w
            })
            .collect()
    })
}

/// English with a four-byte character every few words (sparse), and
/// other pieces now and then.
fn sparse_emoji_text() -> impl Strategy<Value = Vec<u8>> {
    (
        0..=70usize,
        prop::collection::vec(
            prop_oneof![
                12 => "[a-z]{1,9} ".prop_map(String::into_bytes),
                3 => four_byte_char(),
                1 => among_four_byte(),
            ],
            0..120,
        ),
    )
        .prop_map(|(pre, parts)| [vec![b'p'; pre], parts.concat()].concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn fast_equals_reference_on_emoji_text(input in emoji_text(), flags in flags()) {
        assert_same(&input, flags);
    }

    #[test]
    fn fast_equals_reference_on_three_byte_text(input in text_of(0x800..=0xFFFF), flags in flags()) {
        assert_same(&input, flags);
    }

    #[test]
    fn fast_equals_reference_on_two_byte_text(input in text_of(0x80..=0x7FF), flags in flags()) {
        assert_same(&input, flags);
    }

    #[test]
    fn fast_equals_reference_on_words(input in words(), flags in flags()) {
        assert_same(&input, flags);
    }

    #[test]
    fn fast_equals_reference_on_sparse_emoji_text(input in sparse_emoji_text(), flags in flags()) {
        assert_same(&input, flags);
    }

    #[test]
    fn fast_equals_reference(input in padded_string(), flags in flags()) {
        assert_same(&input, flags);
    }

    #[test]
    fn fast_equals_reference_on_any_bytes(input in prop::collection::vec(any::<u8>(), 0..200), flags in flags()) {
        assert_same(&input, flags);
    }

    #[test]
    fn fast_equals_reference_on_long_clean_runs(
        pre in 0..300usize,
        bad in any::<u8>(),
        post in 0..300usize,
        flags in flags(),
    ) {
        let mut input = vec![b'a'; pre];
        input.push(bad);
        input.extend(std::iter::repeat_n(b'z', post));
        assert_same(&input, flags);
    }
}

/// Every two-byte string at every offset of a 16-byte step, under flag
/// sets that change what a run is.
#[test]
fn every_pair_at_every_offset() {
    let sets = [
        JsonFlags::NONE,
        JsonFlags::UNESCAPED_UNICODE | JsonFlags::UNESCAPED_SLASHES,
        JsonFlags::UNESCAPED_UNICODE | JsonFlags::INVALID_UTF8_SUBSTITUTE | JsonFlags::HEX_TAG,
        JsonFlags::INVALID_UTF8_IGNORE
            | JsonFlags::HEX_AMP
            | JsonFlags::HEX_APOS
            | JsonFlags::HEX_QUOT,
    ];
    let mut input = Vec::with_capacity(40);
    for flags in sets {
        for pad in 0..=17 {
            for a in 0..=255u8 {
                for b in 0..=255u8 {
                    input.clear();
                    input.resize(pad, b'x');
                    input.extend_from_slice(&[a, b]);
                    input.extend_from_slice(b"0123456789abcdefg");
                    assert_same(&input, flags);
                }
            }
        }
    }
}
