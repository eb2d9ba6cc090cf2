use super::*;

/// The scalar reference: how many leading bytes are ASCII.
fn ascii_prefix(src: &[u8]) -> usize {
    src.iter().position(|&b| b >= 0x80).unwrap_or(src.len())
}

#[test]
fn copy_ascii_run_matches_the_scalar_scan() {
    for len in 0..if cfg!(miri) { 40 } else { 70 } {
        for bad in (0..len).chain([usize::MAX]) {
            for high in [0x80u8, 0xC3, 0xFF] {
                let mut src: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                if bad < len {
                    src[bad] = high;
                }
                let mut dst = vec![0u8; len];
                let n = copy_ascii_run(&src, &mut dst);
                let run = ascii_prefix(&src);
                assert!(n <= run, "len {len} bad {bad}");
                assert!(
                    n == run || len - n < STEP,
                    "len {len} bad {bad}: {n} of {run}"
                );
                assert_eq!(dst[..n], src[..n]);
            }
        }
    }
}

/// A conversion kernel: `(src, dst) -> (read, written)`.
type Kernel = fn(&[u8], &mut [u8]) -> (usize, usize);

/// The kernels of `utf8_run` this CPU can run, for a target holding
/// `0..=MAX`, each with how close to the end it takes well-formed
/// text: `utf8_run` itself, and each vector kernel alone (x86-64's,
/// or aarch64's NEON one).
fn kernels<const MAX: u32>() -> Vec<(&'static str, Kernel, Option<usize>)> {
    let whole = (ssse3() || cfg!(target_arch = "aarch64")).then_some(STEP);
    let mut all: Vec<(&'static str, Kernel, Option<usize>)> =
        vec![("utf8_run", utf8_run::<MAX>, whole)];
    #[cfg(target_arch = "x86_64")]
    {
        if ssse3() {
            all.push((
                "ssse3",
                |src, dst| {
                    // SAFETY: SSSE3 is available; `dst` is as long as
                    // `src`.
                    unsafe { x86::utf8_run_ssse3(src, dst, MAX == 0xFF) }
                },
                whole,
            ));
        } else {
            crate::simd::skipped_tier("ssse3", "utf8_run's kernels");
        }
        if crate::simd::avx2_popcnt_available() {
            all.push((
                "avx2",
                |src, dst| {
                    // SAFETY: AVX2 and POPCNT are available (checked
                    // just above); `dst` is as long as `src`.
                    unsafe { x86::utf8_run_avx2(src, dst, MAX == 0xFF) }
                },
                // The last window, and a character cut at its end.
                Some(32 + 4),
            ));
        } else {
            crate::simd::skipped_tier("avx2", "utf8_run's kernels");
        }
        if crate::simd::avx512_available() {
            all.push((
                "avx512",
                |src, dst| {
                    // SAFETY: every feature is available (checked
                    // just above); `dst` is as long as `src`.
                    unsafe { x86::utf8_run_avx512(src, dst, MAX == 0xFF) }
                },
                // The last window, and a character cut at its end.
                Some(64 + 4),
            ));
        } else {
            crate::simd::skipped_tier("avx512", "utf8_run's kernels");
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        crate::simd::skipped_tier("ssse3", "utf8_run's kernels");
        crate::simd::skipped_tier("avx2", "utf8_run's kernels");
        crate::simd::skipped_tier("avx512", "utf8_run's kernels");
    }
    #[cfg(target_arch = "aarch64")]
    all.push((
        "neon",
        |src, dst| {
            // SAFETY: NEON is part of aarch64.
            unsafe { neon::utf8_run_neon(src, dst, MAX == 0xFF) }
        },
        whole,
    ));
    #[cfg(not(target_arch = "aarch64"))]
    crate::simd::skipped_tier("neon", "utf8_run's kernels");
    all
}

/// Whether `utf8_run` uses its SSSE3 kernel here.
fn ssse3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("ssse3")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The scalar reference for a kernel: what the reference decoder makes
/// of the prefix the kernel consumed, and a character boundary where it
/// stopped.
fn check_kernel<const MAX: u32>(name: &str, kernel: Kernel, whole: Option<usize>, src: &[u8]) {
    let mut dst = vec![0u8; src.len()];
    let (read, written) = kernel(src, &mut dst);
    assert!(read <= src.len() && written <= read, "{name}");
    let target = if MAX == 0xFF {
        crate::decode::TargetEncoding::Iso8859_1
    } else {
        crate::decode::TargetEncoding::UsAscii
    };
    let mut expected = Vec::new();
    crate::decode::xml_utf8_decode_reference_into(&src[..read], target, &mut expected);
    assert_eq!(dst[..written], expected[..], "{name} on {src:02X?}");
    // It stops at a character boundary: decoding the rest from there
    // gives what decoding everything gives.
    let mut all = Vec::new();
    crate::decode::xml_utf8_decode_reference_into(src, target, &mut all);
    let mut rest = Vec::new();
    crate::decode::xml_utf8_decode_reference_into(&src[read..], target, &mut rest);
    assert_eq!(
        [&expected[..], &rest[..]].concat(),
        all,
        "{name} on {src:02X?} split at {read}"
    );
    // Well-formed text is taken whole, up to the last step (the scalar
    // fallback stops at the first non-ASCII byte).
    if let Some(left) = whole
        && std::str::from_utf8(src).is_ok()
    {
        assert!(
            src.len() - read < left,
            "{name} on {src:02X?} stopped at {read}"
        );
    }
}

fn check_utf8_run<const MAX: u32>(src: &[u8]) {
    for (name, kernel, whole) in kernels::<MAX>() {
        check_kernel::<MAX>(name, kernel, whole, src);
    }
}

/// Byte pairs, and three- and four-byte sequences from a lead byte from
/// E0 or F0 on, placed at `lanes`, after each of `before`: where a
/// 64-byte window ends, characters cut there are checked and written by
/// the next. With `full`, every pair and every second byte; otherwise
/// the bytes at the edges of the byte classes (later bytes always at
/// those edges).
fn window_edges(lanes: &[usize], before: &[&[u8]], full: bool) {
    let mut src = Vec::with_capacity(160);
    let mut check = |piece: &[u8]| {
        for &lane in lanes {
            for before in before {
                src.clear();
                src.resize(lane.saturating_sub(before.len()), b'a');
                src.extend_from_slice(before);
                src.extend_from_slice(piece);
                src.resize(150, b'b');
                check_utf8_run::<0xFF>(&src);
                check_utf8_run::<0x7F>(&src);
            }
        }
    };
    let edges = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xC4, 0xDF,
        0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
    ];
    let bytes: Vec<u8> = if full {
        (0..=0xFF).collect()
    } else {
        edges.to_vec()
    };
    for &first in &bytes {
        for second in 0..=0xFFu8 {
            check(&[first, second]);
        }
    }
    let trails = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xF0];
    for lead in 0xE0..=0xFFu8 {
        for &second in &bytes {
            for third in trails {
                check(&[lead, second, third]);
            }
        }
    }
    // Four-byte leads with their fourth byte at the same edges.
    for lead in 0xF0..=0xFFu8 {
        for &second in &bytes {
            for third in [0x41, 0x80, 0xBF, 0xC0] {
                for fourth in trails {
                    check(&[lead, second, third, fourth]);
                }
            }
        }
    }
}

#[test]
fn kernels_match_the_reference_at_window_edges() {
    let lanes: &[usize] = if cfg!(miri) { &[63] } else { &[61, 62, 63, 64] };
    window_edges(lanes, &[b"a"], false);
}

/// `cargo test --release --lib -- --ignored` (`.ci/run` does).
#[test]
#[ignore = "about ten million kernel calls: run in release"]
fn kernels_match_the_reference_at_window_edges_on_every_pair() {
    window_edges(
        &[0, 1, 60, 61, 62, 63, 64, 65, 127],
        &[b"a", b"\xC3\xA9", b"\xE2\x82\xAC"],
        true,
    );
}

#[test]
fn utf8_run_matches_the_reference() {
    let alphabet: &[&[u8]] = &[
        b"a",
        b" ",
        b"\xC3\xA9",
        b"\xC2\x80",
        b"\xC3\xBF",
        b"\xC2\xA0",
        b"\xD0\x96",
        b"\xE2\x82\xAC",
        b"\xC3",
        b"\x80",
        b"\xF0\x9F\x98\x80",
        b"\xC2A",
        b"\xDF\xBF",
        b"\xC1\xBF",
        b"\xE0\x80",
        b"\xDF",
        b"\xD0\xC0",
    ];
    let mut rng = crate::test_rng::XorShift::new(0x1234_5678_9ABC_DEF1);
    // Miri is slow: fewer shapes there (`cargo +nightly miri test`)
    for len in 0..if cfg!(miri) { 60 } else { 4000 } {
        let mut src = Vec::new();
        let ascii_bias = len % 3;
        while src.len() < len % 150 {
            let pick = rng.below(24);
            let piece = if pick < 8 * ascii_bias {
                alphabet[pick % 2]
            } else {
                alphabet[pick % alphabet.len()]
            };
            src.extend_from_slice(piece);
        }
        check_utf8_run::<0xFF>(&src);
        check_utf8_run::<0x7F>(&src);
    }
}

/// Runs of characters that all become `?` (CJK, emoji, Cyrillic on
/// US-ASCII), with C2/C3 pairs and ASCII now and then, each damaged at a
/// few random places (a byte replaced, dropped or doubled): windows
/// written whole as `?`, and the checks that must stop them.
#[test]
fn kernels_match_the_reference_on_damaged_runs() {
    let alphabet: &[&[u8]] = &[
        "東".as_bytes(),
        "語".as_bytes(),
        "，".as_bytes(),
        "\u{FFFF}".as_bytes(),
        "\u{800}".as_bytes(),
        "\u{D7FF}".as_bytes(),
        "\u{E000}".as_bytes(),
        "😀".as_bytes(),
        "\u{10FFFF}".as_bytes(),
        "\u{10000}".as_bytes(),
        "Ж".as_bytes(),
        "é".as_bytes(),
        "\u{80}".as_bytes(),
        b"a",
    ];
    let mut rng = crate::test_rng::XorShift::new(0x0DDB_A11C_AFE5_EED5);
    let mut random = move |below: usize| rng.below(below);
    for round in 0..if cfg!(miri) { 40 } else { 3000 } {
        let len = 16 + round % 180;
        // Mostly the first pieces (all `?`); later ones rarer.
        let spread = [4, 10, alphabet.len()][round % 3];
        let mut src = Vec::new();
        while src.len() < len {
            src.extend_from_slice(alphabet[random(spread)]);
        }
        for _ in 0..round % 4 {
            let at = random(src.len());
            match random(3) {
                0 => src[at] = random(256) as u8,
                1 => {
                    src.remove(at);
                }
                _ => src.insert(at, src[at]),
            }
        }
        check_utf8_run::<0xFF>(&src);
        check_utf8_run::<0x7F>(&src);
    }
}

/// The scalar reference of `utf8_encode()`: every byte is one character.
fn latin1_reference(src: &[u8]) -> Vec<u8> {
    src.iter()
        .flat_map(|&b| char::from(b).to_string().into_bytes())
        .collect()
}

/// The kernels of `latin1_run` this CPU can run, each with the step under
/// which it may leave bytes to the caller.
fn latin1_kernels() -> Vec<(&'static str, Kernel, usize)> {
    // Without a vector kernel, `latin1_run` leaves everything to the caller.
    let whole = if cfg!(target_arch = "x86_64") {
        32
    } else if cfg!(target_arch = "aarch64") {
        STEP
    } else {
        usize::MAX
    };
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(unused_mut)
    )]
    let mut all: Vec<(&'static str, Kernel, usize)> = vec![("latin1_run", latin1_run, whole)];
    #[cfg(target_arch = "x86_64")]
    {
        if ssse3() && std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: SSSE3 and POPCNT are available (checked just above).
            all.push((
                "ssse3",
                |src, dst| unsafe { x86::latin1_run_ssse3(src, dst) },
                16,
            ));
        } else {
            crate::simd::skipped_tier("ssse3", "latin1_run's kernels");
        }
        if crate::simd::avx512_available() {
            // SAFETY: every feature is available (checked just above).
            all.push((
                "avx512",
                |src, dst| unsafe { x86::latin1_run_avx512(src, dst) },
                32,
            ));
        } else {
            crate::simd::skipped_tier("avx512", "latin1_run's kernels");
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        crate::simd::skipped_tier("ssse3", "latin1_run's kernels");
        crate::simd::skipped_tier("avx512", "latin1_run's kernels");
    }
    #[cfg(target_arch = "aarch64")]
    all.push((
        "neon",
        |src, dst| {
            // SAFETY: NEON is part of aarch64.
            unsafe { neon::latin1_run_neon(src, dst) }
        },
        STEP,
    ));
    #[cfg(not(target_arch = "aarch64"))]
    crate::simd::skipped_tier("neon", "latin1_run's kernels");
    all
}

/// Every kernel converts a prefix exactly as the reference does, leaves
/// less than a step, and writes nothing wrong before what it reports.
fn check_latin1(src: &[u8]) {
    let expected = latin1_reference(src);
    for (name, kernel, step) in latin1_kernels() {
        let mut dst = vec![0xEEu8; 2 * src.len()];
        let (read, written) = kernel(src, &mut dst);
        assert!(
            read <= src.len() && src.len() - read < step,
            "{name}: read {read} of {}",
            src.len()
        );
        assert_eq!(
            dst[..written],
            latin1_reference(&src[..read]),
            "{name} on {src:02X?}"
        );
        assert_eq!(expected[..written], dst[..written], "{name}");
    }
    assert_eq!(crate::decode::utf8_encode(src), expected);
}

#[test]
fn latin1_kernels_match_the_reference_at_window_edges() {
    // Every length around the steps, with one non-ASCII byte at every
    // place, and blocks of ASCII, of high bytes and of a mix.
    for len in 0..100 {
        for at in (0..len).chain([usize::MAX]) {
            for high in [0x80u8, 0xA0, 0xE9, 0xFF] {
                let mut src: Vec<u8> = (0..len).map(|i| b' ' + (i % 90) as u8).collect();
                if at < len {
                    src[at] = high;
                }
                check_latin1(&src);
            }
        }
        let every: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
        check_latin1(&every);
        check_latin1(&vec![0xC3; len]);
    }
    let all: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    check_latin1(&all);
}
