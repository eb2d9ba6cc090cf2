//! The unit tests' random numbers: Marsaglia's xorshift64, small and
//! seeded, so that every run draws the same inputs.

/// A xorshift64 generator; the seed must not be zero.
pub(crate) struct XorShift(u64);

impl XorShift {
    pub(crate) fn new(seed: u64) -> Self {
        assert_ne!(seed, 0, "xorshift never leaves zero");
        Self(seed)
    }

    /// The next state.
    pub(crate) fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number below `n` (the next state modulo `n`).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next_u64() % n as u64).expect("below n")
    }
}

#[cfg(test)]
mod tests {
    use super::XorShift;

    #[test]
    fn draws_marsaglias_sequence() {
        let mut rng = XorShift::new(1);
        // x = 1: 1 ^ (1 << 13) = 0x2001; ^ (0x2001 >> 7 = 0x40) = 0x2041;
        // ^ (0x2041 << 17 = 0x4082_0000) = 0x4082_2041
        assert_eq!(rng.next_u64(), 0x4082_2041);
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }
}
