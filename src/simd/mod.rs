//! What the SIMD kernels of `decode`, `json` and `libxml` share: the CPU
//! feature checks (asked once), the byte-vector operations they are
//! written with ([`Vector`], one implementation per width, as memchr's
//! `Vector`), and Keiser and Lemire's UTF-8 check over them
//! ([`utf8_check`]), and the window a scanning loop walks ([`Window`]:
//! loads, stores, lane masks), so that each loop is written once and
//! expanded in every tier's `#[target_feature]` function. On aarch64,
//! NEON (part of the architecture, so never asked for) has its vector
//! and memory helpers in [`neon`].

// The kernels' deliberate exceptions: byte pointers cast to vector types
// only for the unaligned load and store intrinsics, lane indexes and masks
// that fit by construction, and a kernel's loop kept in one function.
#![allow(
    clippy::too_many_lines,
    clippy::cast_ptr_alignment,
    clippy::cast_sign_loss
)]

#[cfg(target_arch = "x86_64")]
use std::sync::atomic::{AtomicU8, Ordering};

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) mod memory;
#[cfg(target_arch = "aarch64")]
pub(crate) mod neon;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) mod utf8_check;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod vector;

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use vector::{Vector, Window};

/// Whether the CPU has what the AVX-512 kernels of the decoder and the
/// JSON escaper need (AVX-512 F, BW, VL, VBMI, VBMI2, with AVX2, BMI1,
/// BMI2 and POPCNT), asked once; `PHPXML_NO_AVX512` in the environment
/// says no.
#[cfg(target_arch = "x86_64")]
pub(crate) fn avx512_available() -> bool {
    static KNOWN: AtomicU8 = AtomicU8::new(0);
    asked_once(&KNOWN, || {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::env::var_os("PHPXML_NO_AVX512").is_none()
    })
}

/// Whether the CPU has AVX2 and POPCNT, for the text kernels; asked once.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx2_popcnt_available() -> bool {
    static KNOWN: AtomicU8 = AtomicU8::new(0);
    asked_once(&KNOWN, || {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    })
}

/// `ask()`, worked out on the first call and kept in `known` (0: not yet
/// asked, 1: no, 2: yes).
#[cfg(target_arch = "x86_64")]
#[inline]
fn asked_once(known: &AtomicU8, ask: impl FnOnce() -> bool) -> bool {
    match known.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let yes = ask();
            known.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
    }
}

/// A kernel tier a test could not run on this CPU: said loudly on stderr,
/// and a failure when the tier is named in `PHPXML_REQUIRE_TIERS`
/// (comma-separated, e.g. `avx512,avx2,ssse3`), so that CI can assert
/// which kernels ran.
#[cfg(test)]
pub(crate) fn skipped_tier(tier: &str, test: &str) {
    use std::io::Write;

    static SAID: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());
    let required = std::env::var("PHPXML_REQUIRE_TIERS").unwrap_or_default();
    assert!(
        !required.split(',').any(|t| t.trim() == tier),
        "{test}: the {tier} kernel is not available here, but PHPXML_REQUIRE_TIERS requires it"
    );
    // Once per test and tier.
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let key = (tier.to_owned(), test.to_owned());
    if said.contains(&key) {
        return;
    }
    said.push(key);
    // Straight to stderr, past the test harness's capture: a skip is
    // seen even when the test passes.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: the {tier} kernel is not available here (architecture, CPU or PHPXML_NO_AVX512)"
    );
}
