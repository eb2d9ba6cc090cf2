//! Conversion of input that arrives in blocks.

use super::TargetEncoding;
use super::bulk::decode_until;

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
            out.extend_from_slice(block);
            return;
        }
        let mut block = block;
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
            let reached = decode_until(joined, limit, self.target, out);
            if reached >= held {
                block = &block[reached - held..];
                self.pending_len = 0;
            } else {
                // The block was too short to finish anything held back.
                self.hold(&joined[reached..]);
                return;
            }
        }
        let limit = if last {
            block.len()
        } else {
            block.len().saturating_sub(MAX_WIDTH - 1)
        };
        let reached = decode_until(block, limit, self.target, out);
        self.hold(&block[reached..]);
    }

    fn hold(&mut self, bytes: &[u8]) {
        self.pending[..bytes.len()].copy_from_slice(bytes);
        self.pending_len = bytes.len();
    }
}
