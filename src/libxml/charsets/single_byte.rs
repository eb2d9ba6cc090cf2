//! Single-byte charsets as glibc's iconv decodes them (what libxml2 2.9.14
//! hands every label it does not know to). `tools/iconv-tables.py` writes the
//! data from the machine's iconv: `single_byte.bin` holds each charset's 256
//! code points (u16, little-endian, [`NONE`] for a byte iconv rejects with
//! `EILSEQ`); `single_byte.txt` has one line a charset, in the same order:
//! its name, a tab, and every label iconv resolves to it, upper-cased.

use std::sync::LazyLock;

/// The code points, 256 a charset.
static CODE_POINTS: &[u8] = include_bytes!("single_byte.bin");

/// Names and labels, one line a charset.
static NAMES: &str = include_str!("single_byte.txt");

/// Bytes of one charset's table.
const TABLE_BYTES: usize = 2 * 256;

/// A byte iconv rejects.
pub(crate) const NONE: u16 = 0xFFFF;

const fn line_count(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut i, mut n) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            n += 1;
        }
        i += 1;
    }
    n
}

// The two files come from one run of the generator: one table a line.
const _: () = assert!(CODE_POINTS.len() == line_count(NAMES) * TABLE_BYTES);

/// What `byte` decodes to in charset `charset` (an index into the tables).
pub(crate) fn code_point(charset: u16, byte: u8) -> u16 {
    let at = usize::from(charset) * TABLE_BYTES + 2 * usize::from(byte);
    u16::from_le_bytes([CODE_POINTS[at], CODE_POINTS[at + 1]])
}

/// The charset's name: the first word of its line.
#[cfg(test)]
pub(crate) fn name(charset: u16) -> &'static str {
    let line = NAMES
        .lines()
        .nth(usize::from(charset))
        .expect("a charset's index");
    line.split('\t').next().unwrap_or(line)
}

/// Every label with its charset's index, sorted for a binary search; built on
/// the first label looked up.
pub(crate) static LABELS: LazyLock<Box<[(&'static str, u16)]>> = LazyLock::new(|| {
    let mut labels = Vec::new();
    for (charset, line) in (0u16..).zip(NAMES.lines()) {
        let (_, names) = line.split_once('\t').expect("name, tab, labels");
        labels.extend(names.split(' ').map(|label| (label, charset)));
    }
    labels.sort_unstable();
    labels.into_boxed_slice()
});
