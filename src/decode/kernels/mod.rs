//! The decoding kernels: UTF-8 to ISO-8859-1 or US-ASCII, each tier
//! tested against the scalar reference decoder.
//!
//! * [`copy_ascii_run`]: ASCII runs copied sixteen bytes at a time, in safe
//!   word-at-a-time code (a high-bit test on a little-endian `u128`).
//! * [`utf8_run`]: well-formed UTF-8 converted to ISO-8859-1 or US-ASCII
//!   64 input bytes at a time with AVX-512 (validated with Keiser and
//!   Lemire's lookups, one output byte per character compressed with
//!   `vpcompressb`), or 32 at a time with AVX2 (the same checks, packed
//!   with 8-lane shuffles), then sixteen at a time with SSSE3, each
//!   detected at run time; elsewhere it falls back to [`copy_ascii_run`].
//!   `PHPXML_NO_AVX512` keeps it to AVX2 and SSSE3. On aarch64, NEON,
//!   sixteen bytes at a time, as the SSSE3 kernel.

// The kernels' deliberate exceptions: byte pointers cast to vector types
// only for the unaligned load and store intrinsics, lane indexes and masks
// that fit by construction, and a kernel's loop kept in one function.
#![allow(
    clippy::too_many_lines,
    clippy::cast_ptr_alignment,
    clippy::cast_sign_loss
)]

/// Bytes handled per step.
pub(super) const STEP: usize = 16;

/// For every 8-bit mask of bytes to drop, the shuffle that gathers the
/// kept bytes of an 8-byte lane to its front (0x80 fills the rest with
/// zeros).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
static COMPRESS: [[u8; 8]; 256] = compress_table();

/// For every 8-bit mask of bytes to drop, how many of the 8 are kept.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
static KEPT: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        table[mask] = 8 - (mask as u8).count_ones() as u8;
        mask += 1;
    }
    table
};

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const fn compress_table() -> [[u8; 8]; 256] {
    let mut table = [[0x80u8; 8]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut kept = 0;
        let mut j = 0;
        while j < 8 {
            if mask & (1 << j) == 0 {
                table[mask][kept] = j as u8;
                kept += 1;
            }
            j += 1;
        }
        mask += 1;
    }
    table
}

/// For every 8-bit mask of the lanes that hold a non-ASCII byte, the
/// shuffle that packs eight 16-bit words to the front: each word's low
/// byte always, its high byte only where the mask is set (0x80 zeroes the
/// rest). Shared by the Latin-1 and single-byte charset kernels.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
static EXPAND: [[u8; 16]; 256] = expand_table();

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const fn expand_table() -> [[u8; 16]; 256] {
    let mut table = [[0x80u8; 16]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut kept = 0;
        let mut j = 0;
        while j < 8 {
            table[mask][kept] = 2 * j as u8;
            kept += 1;
            if mask & (1 << j) != 0 {
                table[mask][kept] = 2 * j as u8 + 1;
                kept += 1;
            }
            j += 1;
        }
        mask += 1;
    }
    table
}

/// How much of a 16-byte block the SSSE3 and NEON kernels of
/// [`utf8_run`] take when it holds more than ASCII and two-byte
/// characters, from its lane masks (bit `j` for lane `j`): its non-ASCII
/// bytes, continuation bytes, two-, three- and four-byte leads, and leads
/// whose second byte is out of range (overlong, surrogate, above
/// U+10FFFF). Returns the lanes to take, up to the first bad lane or a
/// character cut by the block's end, and whether a bad lane ends them.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn block_take(
    high: u32,
    cont: u32,
    [lead2, lead3, lead4]: [u32; 3],
    out_of_range: u32,
) -> (usize, bool) {
    let ok2 = lead2 & (cont >> 1);
    let ok3 = lead3 & (cont >> 1) & (cont >> 2) & !out_of_range;
    let ok4 = lead4 & (cont >> 1) & (cont >> 2) & (cont >> 3) & !out_of_range;
    let near_end = (lead2 & 0x8000) | (lead3 & 0xC000) | (lead4 & 0xE000);
    let cut = if near_end == 0 {
        STEP
    } else {
        near_end.trailing_zeros() as usize
    };
    let claimed = (ok2 << 1) | (ok3 << 1) | (ok3 << 2) | (ok4 << 1) | (ok4 << 2) | (ok4 << 3);
    let before_cut = (1u32 << cut) - 1;
    let bad = high & !(ok2 | ok3 | ok4 | (cont & claimed)) & before_cut;
    if bad == 0 {
        (cut, false)
    } else {
        (bad.trailing_zeros() as usize, true)
    }
}

/// A 16-byte block of the SSSE3 and NEON kernels of [`utf8_run`]: the
/// byte classes and the packing each instruction set does its own way,
/// for the loop both share ([`utf8_blocks`]). Every method is `unsafe`
/// for the CPU features (SSSE3 for `__m128i`, which the calling kernel
/// enables; none for NEON's `uint8x16_t`), and the memory ones for
/// their bounds too.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
trait Block: Copy {
    /// The 16 bytes of `s` from `at`.
    ///
    /// # Safety
    ///
    /// `at + 16 <= s.len()`, and the CPU features.
    unsafe fn load(s: &[u8], at: usize) -> Self;
    /// Stores the block at `d[at..at + 16]`.
    ///
    /// # Safety
    ///
    /// `at + 16 <= d.len()`, and the CPU features.
    unsafe fn store(self, d: &mut [u8], at: usize);
    /// Stores the lanes of each half not in its `drop` mask (bit `j`
    /// for the half's lane `j`; [`COMPRESS`] rows) packed: the low
    /// half's at `d[at..]`, the high half's `kept_lo` bytes on (8 bytes
    /// each).
    ///
    /// # Safety
    ///
    /// `kept_lo <= 8`, `at + 16 <= d.len()`, and the CPU features.
    unsafe fn store_kept(self, d: &mut [u8], at: usize, drop: [usize; 2], kept_lo: usize);
    /// Whether some byte has its high bit set.
    unsafe fn any_high(self) -> bool;
    /// The lanes whose byte has its high bit set.
    unsafe fn high_lanes(self) -> u32;
    /// Each lane's next byte (zero after the last).
    unsafe fn next(self) -> Self;
    /// All ones in the lanes of a continuation byte (0x80..=0xBF).
    unsafe fn continuation(self) -> Self;
    /// All ones in the lanes of a two-byte lead (0xC2..=0xDF).
    unsafe fn lead2(self) -> Self;
    /// All ones in the lanes of a three-byte lead (0xE0..=0xEF).
    unsafe fn lead3(self) -> Self;
    /// All ones in the lanes of a four-byte lead (0xF0..=0xF4).
    unsafe fn lead4(self) -> Self;
    /// All ones in the lanes of a lead whose second byte (`next`) is out
    /// of range: overlong (E0 80..9F, F0 80..8F), surrogate (ED A0..BF),
    /// above U+10FFFF (F4 90..BF). Only continuation second bytes matter:
    /// the others fail anyway.
    unsafe fn out_of_range(self, next: Self) -> Self;
    unsafe fn or(self, other: Self) -> Self;
    /// `yes` in the lanes where `self` is all ones, `no` elsewhere.
    unsafe fn select(self, yes: Self, no: Self) -> Self;
    /// Each lead lane's byte on ISO-8859-1: for C2/C3 its code point,
    /// from the lead's low two bits and the next byte's low six; `?` for
    /// every other character.
    unsafe fn latin1_values(self, next: Self) -> Self;
    /// `?` in every lane.
    unsafe fn question() -> Self;
}

/// The loop of the SSSE3 and NEON kernels of [`utf8_run`], written once
/// and expanded in each kernel's `#[target_feature]` function; `latin1`
/// selects the ISO-8859-1 target (C2/C3 pairs keep their code point),
/// otherwise every multi-byte character becomes `?`.
///
/// # Safety
///
/// The CPU features of `B`; `dst.len() >= src.len()`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
// Blocks of vector register operations, whose one requirement is the
// features of the vector type (the caller's): one safety argument each.
#[allow(clippy::multiple_unsafe_ops_per_block)]
#[inline(always)]
unsafe fn utf8_blocks<B: Block>(src: &[u8], dst: &mut [u8], latin1: bool) -> (usize, usize) {
    let (mut i, mut o) = (0usize, 0usize);
    // Every block operation below needs only `B`'s features (the
    // caller's); each memory access's bounds are said at it.
    'blocks: while src.len() - i >= STEP {
        // SAFETY: `i + 16 <= src.len()`.
        let mut v = unsafe { B::load(src, i) };
        // ASCII blocks in a loop of their own: kept apart from the
        // joins of the paths below, it stays as tight as it can be.
        // SAFETY: `B`'s features.
        while !unsafe { v.any_high() } {
            // SAFETY: `o <= i` and `dst.len() >= src.len() >= i + 16`.
            unsafe { v.store(dst, o) };
            i += STEP;
            o += STEP;
            if src.len() - i < STEP {
                break 'blocks;
            }
            // SAFETY: `i + 16 <= src.len()`.
            v = unsafe { B::load(src, i) };
        }
        // SAFETY: `B`'s features.
        let (high, next, cont, lead2) = unsafe {
            (
                v.high_lanes(),
                v.next(),
                v.continuation().high_lanes(),
                v.lead2(),
            )
        };
        // SAFETY: as above.
        let lead2_m = unsafe { lead2.high_lanes() };
        let ok2 = lead2_m & (cont >> 1);
        // A character is its lead plus all its continuation bytes. One
        // whose lead is too near the block's end to hold them is cut:
        // it is left for the next block. Every other non-ASCII lane
        // that is not part of a character is bad: the scalar decoder
        // takes over there. Blocks of ASCII and two-byte characters
        // (Latin, Greek, Cyrillic...) need no more than the first test.
        let cut2 = lead2_m & (1 << (STEP - 1));
        let bad2 = high & !(ok2 | (cont & (ok2 << 1)) | cut2);
        // Separate branches rather than a computed width: the next
        // load then waits on a prediction, not on this block's masks.
        if bad2 == 0 {
            // SAFETY: `B`'s features; `o <= i` and `dst.len() >=
            // src.len() >= i + 16`.
            unsafe {
                if cut2 == 0 {
                    emit(v, next, lead2, cont, STEP, latin1, dst, (&mut i, &mut o));
                } else {
                    emit(
                        v,
                        next,
                        lead2,
                        cont,
                        STEP - 1,
                        latin1,
                        dst,
                        (&mut i, &mut o),
                    );
                }
            }
            continue;
        }
        // SAFETY: `B`'s features.
        let (lead, take, bad) = unsafe {
            let (lead3, lead4) = (v.lead3(), v.lead4());
            let (take, bad) = block_take(
                high,
                cont,
                [lead2_m, lead3.high_lanes(), lead4.high_lanes()],
                v.out_of_range(next).high_lanes(),
            );
            (lead2.or(lead3.or(lead4)), take, bad)
        };
        if take == 0 {
            break;
        }
        // SAFETY: as above.
        unsafe { emit(v, next, lead, cont, take, latin1, dst, (&mut i, &mut o)) };
        // Stop at a bad lane; a cut character just starts the next block.
        // (Here the width is computed, not branched on: in text of
        // three- and four-byte characters it is too irregular to
        // predict.)
        if bad {
            break;
        }
    }
    (i, o)
}

/// Writes block `v` (at `src[i..]`) up to lane `take` at `dst[o..]`:
/// ASCII lanes as they are, each lead lane (`lead`) as one byte,
/// continuation lanes (`cont`) dropped; `i` and `o` move past what was
/// read and written.
///
/// # Safety
///
/// The CPU features of `B`; `*o + 16 <= dst.len()`.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
// Blocks of vector register operations, whose one requirement is the
// features of the vector type (the caller's): one safety argument each.
#[allow(clippy::multiple_unsafe_ops_per_block)]
#[inline(always)]
#[allow(clippy::too_many_arguments)]
unsafe fn emit<B: Block>(
    v: B,
    next: B,
    lead: B,
    cont: u32,
    take: usize,
    latin1: bool,
    dst: &mut [u8],
    (i, o): (&mut usize, &mut usize),
) {
    // SAFETY: `B`'s features (the caller's).
    let out = unsafe {
        let value = if latin1 {
            v.latin1_values(next)
        } else {
            B::question()
        };
        lead.select(value, v)
    };
    // Drop continuation lanes and lanes from `take` on.
    let drop = (cont | (0xFFFF_u32 << take)) & 0xFFFF;
    let (drop_lo, drop_hi) = ((drop & 0xFF) as usize, (drop >> 8) as usize);
    // (A table rather than `count_ones`: without POPCNT the compiler
    // counts both halves at once in vector registers, at a higher cost.)
    let (kept_lo, kept_hi) = (usize::from(KEPT[drop_lo]), usize::from(KEPT[drop_hi]));
    // SAFETY: `kept_lo <= 8`; `o + 16 <= dst.len()` and `B`'s features
    // (the caller's).
    unsafe { out.store_kept(dst, *o, [drop_lo, drop_hi], kept_lo) };
    *i += take;
    *o += kept_lo + kept_hi;
}

const HIGH_BITS: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;

/// Copies the run of ASCII bytes at the start of `src` into `dst`, sixteen
/// bytes per step, and returns its length.
///
/// The copy is done a whole step at a time, so up to fifteen bytes after the
/// run are written to `dst` as well; callers overwrite them. The scan stops
/// at the first non-ASCII byte or when fewer than [`STEP`] bytes remain, so
/// the returned length may fall short of the run by less than a step.
///
/// # Panics
///
/// If `dst` is shorter than `src`.
#[inline(always)]
pub(super) fn copy_ascii_run(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(dst.len() >= src.len());
    let mut n = 0;
    while let (Some(chunk), Some(out)) = (src.get(n..n + STEP), dst.get_mut(n..n + STEP)) {
        let chunk: &[u8; STEP] = chunk.try_into().expect("a step is 16 bytes");
        out.copy_from_slice(chunk);
        let high = u128::from_le_bytes(*chunk) & HIGH_BITS;
        if high != 0 {
            // Little-endian: the lowest set bit belongs to the first
            // non-ASCII byte.
            return n + high.trailing_zeros() as usize / 8;
        }
        n += STEP;
    }
    n
}

/// Converts the well-formed UTF-8 at the start of `src` to bytes of a
/// target that holds `0..=MAX` (`0xFF` or `0x7F`): the code point where the
/// target holds it, `?` otherwise. Returns the bytes read and the bytes
/// written.
///
/// `src` must start at a character boundary. Up to 64 bytes past the
/// written ones may be overwritten in `dst`; callers overwrite them. The
/// prefix may stop short of where the scalar decoder would have to take
/// over, by less than a step.
///
/// # Panics
///
/// If `dst` is shorter than `src`.
#[inline(always)]
pub(super) fn utf8_run<const MAX: u32>(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    assert!(dst.len() >= src.len());
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::avx512_available() {
            // SAFETY: `dense_available` checked every feature the kernel
            // needs, and `dst.len() >= src.len()` (asserted above).
            let (read, written) = unsafe { x86::utf8_run_avx512(src, dst, MAX == 0xFF) };
            // The SSSE3 kernel takes the last 16 to 63 bytes (and stops at
            // once where the AVX-512 one stopped at malformed input).
            // SAFETY: AVX-512 implies SSSE3; `written <= read`, so the
            // rest of `dst` is at least as long as the rest of `src`.
            let (more_read, more_written) =
                unsafe { x86::utf8_run_ssse3(&src[read..], &mut dst[written..], MAX == 0xFF) };
            return (read + more_read, written + more_written);
        }
        if crate::simd::avx2_popcnt_available() {
            // SAFETY: AVX2 and POPCNT are available (checked just above),
            // and `dst.len() >= src.len()` (asserted above).
            let (read, written) = unsafe { x86::utf8_run_avx2(src, dst, MAX == 0xFF) };
            // The SSSE3 kernel takes the last 16 to 35 bytes, as after
            // the AVX-512 kernel.
            // SAFETY: AVX2 implies SSSE3; `written <= read`.
            let (more_read, more_written) =
                unsafe { x86::utf8_run_ssse3(&src[read..], &mut dst[written..], MAX == 0xFF) };
            return (read + more_read, written + more_written);
        }
        if std::arch::is_x86_feature_detected!("ssse3") {
            // SAFETY: SSSE3 is available (checked just above), and
            // `dst.len() >= src.len()` (asserted above) is the only other
            // precondition of the kernel.
            return unsafe { x86::utf8_run_ssse3(src, dst, MAX == 0xFF) };
        }
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: NEON is part of aarch64.
    let run = unsafe { neon::utf8_run_neon(src, dst, MAX == 0xFF) };
    #[cfg(not(target_arch = "aarch64"))]
    let run = {
        let n = copy_ascii_run(src, dst);
        (n, n)
    };
    run
}

/// Converts ISO-8859-1 bytes at the start of `src` to UTF-8 in `dst` (PHP's
/// `utf8_encode()`: each byte is one character), as far as a vector
/// kernel takes it: 32 bytes a step with AVX-512, 16 with SSSE3, each
/// detected at run time, 16 with NEON; nothing elsewhere. Returns the bytes read and the
/// bytes written; the caller converts the rest (under a step).
///
/// Up to 64 bytes past the written ones may be overwritten in `dst`;
/// callers overwrite them.
///
/// # Panics
///
/// If `dst` is shorter than twice `src`.
#[inline]
pub(super) fn latin1_run(src: &[u8], dst: &mut [u8]) -> (usize, usize) {
    assert!(dst.len() / 2 >= src.len());
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::avx512_available() {
            // SAFETY: `avx512_available` checked every feature the kernel
            // needs; it checks its own bounds.
            return unsafe { x86::latin1_run_avx512(src, dst) };
        }
        if std::arch::is_x86_feature_detected!("ssse3")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: SSSE3 and POPCNT are available (checked just above);
            // the kernel checks its own bounds.
            return unsafe { x86::latin1_run_ssse3(src, dst) };
        }
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: NEON is part of aarch64; the kernel checks its own bounds.
    let run = unsafe { neon::latin1_run_neon(src, dst) };
    #[cfg(not(target_arch = "aarch64"))]
    let run = {
        let _ = dst;
        (0, 0)
    };
    run
}

/// A single-byte charset's UTF-8 for its bytes 0x80..=0xFF, as
/// [`single_byte_run`] looks it up: the lead and trail byte of each byte
/// whose character is two bytes long, lead 0 for every other (undefined,
/// or one or three bytes long); and both again as the deltas the
/// 16-entry lookups of the AVX2 kernel add up (row `k` XOR row `k - 1`).
/// Aligned for 64-byte loads.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct TwoByteTable {
    lead: [u8; 128],
    trail: [u8; 128],
    lead_delta: [u8; 128],
    trail_delta: [u8; 128],
}

impl TwoByteTable {
    /// The table of a charset whose byte `0x80 + k` is the two-byte
    /// character `pairs[k]`, or none of them.
    pub(crate) fn new(pairs: &[Option<[u8; 2]>; 128]) -> Self {
        let mut lead = [0u8; 128];
        let mut trail = [0u8; 128];
        for (k, pair) in pairs.iter().enumerate() {
            if let Some([l, t]) = *pair {
                debug_assert!((0xC2..=0xDF).contains(&l) && (0x80..=0xBF).contains(&t));
                (lead[k], trail[k]) = (l, t);
            }
        }
        let delta = |rows: &[u8; 128]| {
            let mut d = *rows;
            for k in 16..128 {
                d[k] ^= rows[k - 16];
            }
            d
        };
        TwoByteTable {
            lead_delta: delta(&lead),
            trail_delta: delta(&trail),
            lead,
            trail,
        }
    }
}

/// A tier of [`single_byte_run`]: from `src`, the bytes read and the
/// bytes written after `out`'s length, within its capacity (its length is
/// left to the caller).
///
/// # Safety
///
/// The CPU must support the tier's features.
type SingleByteTier = unsafe fn(&[u8], &mut Vec<u8>, &TwoByteTable) -> (usize, usize);

/// The best tier of [`single_byte_run`] here, if any.
fn single_byte_tier() -> Option<SingleByteTier> {
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::avx512_available() {
            return Some(x86::single_byte_run_avx512);
        }
        if crate::simd::avx2_popcnt_available() {
            return Some(x86::single_byte_run_avx2);
        }
    }
    #[cfg(target_arch = "aarch64")]
    let tier: Option<SingleByteTier> = Some(neon::single_byte_run_neon);
    #[cfg(not(target_arch = "aarch64"))]
    let tier = None;
    tier
}

/// Whether some vector kernel of [`single_byte_run`] runs here.
pub(crate) fn single_byte_kernel_available() -> bool {
    single_byte_tier().is_some()
}

/// Converts the bytes of a single-byte charset at the start of `src` to
/// UTF-8 appended to `out`, where `table` says each high byte's two-byte
/// character (the charset's bytes 0x00..=0x7F must be ASCII): 64 bytes a
/// step with AVX-512 (two `vpermi2b` lookups, interleaved and packed with
/// `vpcompressb`), 32 with AVX2 (`vpshufb` lookups per high nibble), 16
/// with NEON (`vqtbl4q`), expanding each byte to two as the Latin-1
/// kernels do. Returns the bytes read: it stops before a block holding a
/// high byte `table` has no pair for (the AVX-512 kernel converts the
/// block up to that byte), or when less than a step is left; the caller
/// converts from there. Nothing is read where no tier runs.
pub(crate) fn single_byte_run(src: &[u8], out: &mut Vec<u8>, table: &TwoByteTable) -> usize {
    match single_byte_tier() {
        // SAFETY: the tier is one this CPU runs.
        Some(tier) => unsafe { run_single_byte_tier(tier, src, out, table) },
        None => 0,
    }
}

/// Runs `tier` over `src`, appending to `out`: the bytes read.
///
/// # Safety
///
/// The CPU must support the tier's features.
unsafe fn run_single_byte_tier(
    tier: SingleByteTier,
    src: &[u8],
    out: &mut Vec<u8>,
    table: &TwoByteTable,
) -> usize {
    // Room for every step's stores (each writes at most 128 bytes).
    out.reserve(2 * src.len() + 128);
    let start = out.len();
    // SAFETY: the CPU supports the tier (the caller's); it checks its own
    // bounds against `out`'s capacity.
    let (read, written) = unsafe { tier(src, out, table) };
    // SAFETY: the tier wrote `written` bytes from `start`, within the
    // capacity, all initialized.
    unsafe { out.set_len(start + written) };
    read
}

/// Every tier of [`single_byte_run`] this CPU runs, by name, for the
/// tests against the scalar converter; a tier it cannot run is reported
/// with [`crate::simd::skipped_tier`].
#[cfg(test)]
#[allow(clippy::type_complexity)]
pub(crate) fn single_byte_tiers(
    test: &str,
) -> Vec<(
    &'static str,
    Box<dyn Fn(&[u8], &mut Vec<u8>, &TwoByteTable) -> usize>,
)> {
    let mut all: Vec<(&'static str, SingleByteTier)> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if crate::simd::avx512_available() {
            all.push(("avx512", x86::single_byte_run_avx512));
        } else {
            crate::simd::skipped_tier("avx512", test);
        }
        if crate::simd::avx2_popcnt_available() {
            all.push(("avx2", x86::single_byte_run_avx2));
        } else {
            crate::simd::skipped_tier("avx2", test);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        crate::simd::skipped_tier("avx512", test);
        crate::simd::skipped_tier("avx2", test);
    }
    #[cfg(target_arch = "aarch64")]
    all.push(("neon", neon::single_byte_run_neon));
    #[cfg(not(target_arch = "aarch64"))]
    crate::simd::skipped_tier("neon", test);
    all.into_iter()
        .map(|(name, tier)| {
            let run: Box<dyn Fn(&[u8], &mut Vec<u8>, &TwoByteTable) -> usize> =
                // SAFETY: the tier is one this CPU runs (checked above).
                Box::new(move |src, out, table| unsafe { run_single_byte_tier(tier, src, out, table) });
            (name, run)
        })
        .collect()
}

#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod x86;

#[cfg(test)]
mod tests;
