//! Output that is written as it is produced: encoders append to a buffer
//! that goes to the writer whenever it has grown past a threshold, so the
//! memory an output takes is bounded by the threshold plus the longest
//! single piece (a string), not by the whole output.

use std::io::{self, Write};

/// Past this many buffered bytes, a [`Spill`] hands them to its writer.
pub(crate) const SPILL_AT: usize = 1 << 16;

/// How many index positions (at most about 30 bytes each) are written
/// between two spills: a tag's list runs as long as the document.
pub(crate) const POSITIONS_PER_SPILL: usize = 1024;

/// Where encoders append: a growing buffer, and a point between pieces
/// where what is buffered may be written out.
pub(crate) trait Sink {
    /// The buffer to append to.
    fn buf(&mut self) -> &mut Vec<u8>;

    /// Between two pieces of output: writes the buffer out if it has grown
    /// past [`SPILL_AT`] (a plain `Vec` keeps everything).
    fn spill(&mut self) -> io::Result<()>;
}

impl Sink for Vec<u8> {
    fn buf(&mut self) -> &mut Vec<u8> {
        self
    }

    fn spill(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A buffer in front of a writer, emptied into it at [`Sink::spill`] and at
/// [`Spill::finish`].
pub(crate) struct Spill<W: Write> {
    buf: Vec<u8>,
    out: W,
}

impl<W: Write> Spill<W> {
    pub(crate) fn new(out: W) -> Self {
        Self {
            buf: Vec::with_capacity(SPILL_AT + SPILL_AT / 4),
            out,
        }
    }

    /// Writes what is left and gives the writer back (not flushed).
    pub(crate) fn finish(mut self) -> io::Result<W> {
        self.out.write_all(&self.buf)?;
        Ok(self.out)
    }
}

impl<W: Write> Sink for Spill<W> {
    fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }

    #[inline]
    fn spill(&mut self) -> io::Result<()> {
        if self.buf.len() >= SPILL_AT {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}
