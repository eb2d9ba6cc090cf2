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
