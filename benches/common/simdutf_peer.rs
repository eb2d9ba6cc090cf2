//! The C++ simdutf library as a speed peer (feature `simdutf`, off by
//! default and in CI). Its Rust binding takes raw pointers; this is the
//! only unsafe code outside the library's kernels, and it ships nowhere.

/// simdutf's validating UTF-8 to Latin-1 conversion; `None` when the input
/// is not valid UTF-8 or holds a character above U+00FF.
pub fn utf8_to_latin1(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    assert!(dst.len() >= src.len());
    // SAFETY: `src` is valid for `src.len()` reads and `dst` for at least as
    // many writes (asserted above); simdutf writes at most one byte per
    // input byte and does not keep either pointer.
    let written =
        unsafe { simdutf::convert_utf8_to_latin1(src.as_ptr(), src.len(), dst.as_mut_ptr()) };
    (written != 0 || src.is_empty()).then_some(written)
}

/// simdutf's Latin-1 to UTF-8 conversion (`dst` at least twice `src`).
pub fn latin1_to_utf8(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(dst.len() / 2 >= src.len());
    // SAFETY: `src` is valid for `src.len()` reads and `dst` for twice as
    // many writes (asserted above), the most simdutf writes; it keeps
    // neither pointer.
    unsafe { simdutf::convert_latin1_to_utf8(src.as_ptr(), src.len(), dst.as_mut_ptr()) }
}
