//! Conversion of input that arrives in blocks.

use super::TargetEncoding;
use super::bulk::decode_until_into;

/// The most bytes the decoder reads for one character.
const MAX_WIDTH: usize = 4;

/// Converts UTF-8 to a target encoding block by block, with output identical
/// to converting the whole input at once.
///
/// PHP's failure widths depend on the bytes that follow a malformed
/// sequence, so a character is decoded only once every byte the decoder
/// may look at has arrived, or the input has ended. At most three bytes are
/// held back between blocks.
///
/// # Examples
///
/// ```
/// use phpxml::decode::{xml_utf8_decode, StreamDecoder, TargetEncoding};
///
/// let input = b"d\xC3\xA9j\xC3\xA0 \xF0\x9F\x98\x80 \xE0\x80";
/// let mut out = Vec::new();
/// let mut stream = StreamDecoder::new(TargetEncoding::Iso8859_1);
/// for block in input.chunks(3) {
///     stream.decode(block, false, &mut out);
/// }
/// stream.decode(b"", true, &mut out);
/// assert_eq!(out, xml_utf8_decode(input, TargetEncoding::Iso8859_1));
/// ```
#[derive(Clone, Debug)]
pub struct StreamDecoder {
    target: TargetEncoding,
    pending: [u8; MAX_WIDTH - 1],
    pending_len: usize,
}

impl StreamDecoder {
    /// A decoder to `target` at the start of its input.
    #[must_use]
    pub const fn new(target: TargetEncoding) -> Self {
        Self {
            target,
            pending: [0; MAX_WIDTH - 1],
            pending_len: 0,
        }
    }

    /// Converts the next `block`, appending to `out`. Pass `last = true`
    /// with the final block (which may be empty) to flush what is held back.
    pub fn decode(&mut self, block: &[u8], last: bool, out: &mut Vec<u8>) {
        if self.target == TargetEncoding::Utf8 {
            // Copied as it is, without first zeroing room for it.
            out.extend_from_slice(block);
            return;
        }
        let start = out.len();
        out.resize(start + Self::max_output(block.len()), 0);
        let written = self.decode_to_slice(block, last, &mut out[start..]);
        out.truncate(start + written);
    }

    /// The most bytes one call with a block of `block_len` bytes can
    /// write: one per byte of the block and per byte held back.
    #[must_use]
    pub const fn max_output(block_len: usize) -> usize {
        block_len + MAX_WIDTH - 1
    }

    /// Converts the next `block` into the start of `dst` and returns the
    /// number of bytes written; otherwise as [`decode`](Self::decode).
    ///
    /// For callers that reuse one output buffer: nothing is allocated and
    /// `dst` is not cleared first.
    ///
    /// # Panics
    ///
    /// If `dst` is shorter than [`max_output(block.len())`](Self::max_output).
    ///
    /// # Examples
    ///
    /// ```
    /// use phpxml::decode::{StreamDecoder, TargetEncoding};
    ///
    /// let mut stream = StreamDecoder::new(TargetEncoding::Iso8859_1);
    /// let mut buffer = [0u8; 16];
    /// let mut out = Vec::new();
    /// for (block, last) in [(&b"caf\xC3"[..], false), (b"\xA9 ok", true)] {
    ///     let n = stream.decode_to_slice(block, last, &mut buffer);
    ///     out.extend_from_slice(&buffer[..n]);
    /// }
    /// assert_eq!(out, b"caf\xE9 ok");
    /// ```
    pub fn decode_to_slice(&mut self, block: &[u8], last: bool, dst: &mut [u8]) -> usize {
        assert!(
            dst.len() >= Self::max_output(block.len()),
            "the output slice is shorter than max_output(block.len())"
        );
        if self.target == TargetEncoding::Utf8 {
            dst[..block.len()].copy_from_slice(block);
            return block.len();
        }
        let mut block = block;
        let mut written = 0;
        if self.pending_len > 0 {
            // Join the held-back bytes with the start of the block, enough
            // for every character that starts in the held-back part.
            let held = self.pending_len;
            let take = block.len().min(MAX_WIDTH);
            let mut joined = [0u8; MAX_WIDTH - 1 + MAX_WIDTH];
            joined[..held].copy_from_slice(&self.pending[..held]);
            joined[held..held + take].copy_from_slice(&block[..take]);
            let joined = &joined[..held + take];
            let sees_the_end = last && take == block.len();
            let limit = if sees_the_end {
                joined.len()
            } else {
                held.min(joined.len().saturating_sub(MAX_WIDTH - 1))
            };
            let (reached, n) = decode_until_into(joined, limit, self.target, dst);
            written = n;
            if reached >= held {
                block = &block[reached - held..];
                self.pending_len = 0;
            } else {
                // The block was too short to finish anything held back.
                self.hold(&joined[reached..]);
                return written;
            }
        }
        let limit = if last {
            block.len()
        } else {
            block.len().saturating_sub(MAX_WIDTH - 1)
        };
        let (reached, n) = decode_until_into(block, limit, self.target, &mut dst[written..]);
        self.hold(&block[reached..]);
        written + n
    }

    fn hold(&mut self, bytes: &[u8]) {
        self.pending[..bytes.len()].copy_from_slice(bytes);
        self.pending_len = bytes.len();
    }
}
