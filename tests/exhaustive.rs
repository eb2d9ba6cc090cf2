//! The inline decoder equals the reference decoder in code point, cursor and
//! status on every sequence of one to four bytes.
//!
//! About 4.3 billion comparisons: run in release,
//! `cargo test --release --test exhaustive -- --ignored`.
//! `.ci/run` does.

use std::time::Instant;

use phpxml::decode::{next_utf8_char, next_utf8_char_reference};

/// Checks every sequence that starts with `lead`: all 256³ continuations at
/// full length and every truncated prefix, at cursor 0 and after one ASCII
/// byte. Returns the number of comparisons.
fn check_lead(lead: u8) -> u64 {
    let mut calls = 0u64;
    let mut check = |bytes: &[u8], cursor: usize| {
        let fast = next_utf8_char(bytes, cursor);
        let reference = next_utf8_char_reference(bytes, cursor);
        assert_eq!(fast, reference, "bytes {bytes:02X?} at cursor {cursor}");
        calls += 1;
    };
    let mut shifted = [b'A', lead, 0, 0, 0];
    check(&[lead], 0);
    check(&shifted[..2], 1);
    for s1 in 0..=255u8 {
        shifted[2] = s1;
        check(&[lead, s1], 0);
        check(&shifted[..3], 1);
        for s2 in 0..=255u8 {
            shifted[3] = s2;
            check(&[lead, s1, s2], 0);
            check(&shifted[..4], 1);
            for s3 in 0..=255u8 {
                shifted[4] = s3;
                check(&[lead, s1, s2, s3], 0);
                check(&shifted, 1);
            }
        }
    }
    calls
}

#[test]
#[ignore = "4.3 billion calls: run in release (see the module docs)"]
fn inline_equals_reference_on_every_sequence() {
    let started = Instant::now();
    let mut calls = 0u64;
    for ascii in 0..0x80u8 {
        for (bytes, cursor) in [(&[ascii][..], 0), (&[b'A', ascii][..], 1)] {
            assert_eq!(
                next_utf8_char(bytes, cursor),
                next_utf8_char_reference(bytes, cursor)
            );
            calls += 1;
        }
    }
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let leads: Vec<u8> = (0x80..=0xFF).collect();
    calls += std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let mine: Vec<u8> = leads.iter().copied().skip(t).step_by(threads).collect();
                scope.spawn(move || mine.into_iter().map(check_lead).sum::<u64>())
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker panicked"))
            .sum::<u64>()
    });
    // 128 leads × (1 + 256 + 256² + 256³) sequences × 2 cursors, plus ASCII.
    assert_eq!(calls, 128 * (1 + 256 + 65_536 + 16_777_216) * 2 + 256);
    println!(
        "{calls} comparisons in {:.1} s on {threads} threads",
        started.elapsed().as_secs_f64()
    );
}

/// The same sweep over the two-byte space only: fast enough for every
/// `cargo test`.
#[test]
fn inline_equals_reference_on_every_two_byte_sequence() {
    for lead in 0..=255u8 {
        for s1 in 0..=255u8 {
            for (bytes, cursor) in [(&[lead, s1][..], 0), (&[b'A', lead, s1][..], 1)] {
                assert_eq!(
                    next_utf8_char(bytes, cursor),
                    next_utf8_char_reference(bytes, cursor),
                    "bytes {bytes:02X?} at cursor {cursor}"
                );
            }
        }
    }
}

/// Byte values at the edges of every class the decoder tells apart.
const EDGES: [u8; 16] = [
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xF4, 0xFF,
];

/// Every three- and four-byte lead with every second byte and the class
/// edges after it, whole and truncated: fast enough for every `cargo test`,
/// and enough to catch any loosened range check in the inline decoder.
#[test]
fn inline_equals_reference_at_the_edges_of_three_and_four_byte_forms() {
    for lead in 0xE0..=0xFFu8 {
        for s1 in 0..=255u8 {
            for s2 in EDGES {
                for s3 in EDGES {
                    let seq = [b'A', lead, s1, s2, s3];
                    for end in 2..=seq.len() {
                        for cursor in [0, 1] {
                            let bytes = &seq[1 - cursor..end];
                            assert_eq!(
                                next_utf8_char(bytes, cursor),
                                next_utf8_char_reference(bytes, cursor),
                                "bytes {bytes:02X?} at cursor {cursor}"
                            );
                        }
                    }
                }
            }
        }
    }
}
