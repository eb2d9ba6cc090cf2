//! Fast kernels: ASCII runs copied sixteen bytes at a time.
//!
//! Safe word-at-a-time code: two little-endian `u64` words per step, a
//! high-bit test on both, and a 16-byte copy. Each kernel has a scalar
//! reference beside it in the tests.

/// Bytes handled per step.
pub(super) const STEP: usize = 16;

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The scalar reference: how many leading bytes are ASCII.
    fn ascii_prefix(src: &[u8]) -> usize {
        src.iter().position(|&b| b >= 0x80).unwrap_or(src.len())
    }

    #[test]
    fn copy_ascii_run_matches_the_scalar_scan() {
        for len in 0..70 {
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
}
