//! Single-byte charsets as glibc's iconv decodes them (what libxml2 2.9.14
//! hands every label it does not know to). `tools/iconv-tables.py` writes the
//! data from the machine's iconv: `single_byte.bin` holds each charset's 256
//! code points (u16, little-endian, [`NONE`] for a byte iconv rejects with
//! `EILSEQ`); `single_byte.txt` has one line a charset, in the same order:
//! its name, a tab, and every label iconv resolves to it, upper-cased.
//! `tools/icu-tables.py` writes the same two files for ICU's single-byte
//! converters (`icu_single_byte.*`, libxml2's choice for a label iconv does
//! not know), their aliases in the form ICU compares names.

use std::sync::LazyLock;

/// The code points, 256 a charset: iconv's charsets, then ICU's.
static CODE_POINTS: &[u8] = include_bytes!("single_byte.bin");
static ICU_CODE_POINTS: &[u8] = include_bytes!("icu_single_byte.bin");

/// Names and labels, one line a charset.
static NAMES: &str = include_str!("single_byte.txt");
static ICU_NAMES: &str = include_str!("icu_single_byte.txt");

/// The index of ICU's first converter: iconv's charsets come first.
pub(crate) const ICU_FIRST: u16 = line_count(NAMES) as u16;

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
const _: () = assert!(ICU_CODE_POINTS.len() == line_count(ICU_NAMES) * TABLE_BYTES);

/// What `byte` decodes to in charset `charset` (an index into the tables).
pub(crate) fn code_point(charset: u16, byte: u8) -> u16 {
    let (points, charset) = match charset.checked_sub(ICU_FIRST) {
        Some(icu) => (ICU_CODE_POINTS, icu),
        None => (CODE_POINTS, charset),
    };
    let at = usize::from(charset) * TABLE_BYTES + 2 * usize::from(byte);
    u16::from_le_bytes([points[at], points[at + 1]])
}

/// The charset's name: the first word of its line.
#[cfg(test)]
pub(crate) fn name(charset: u16) -> &'static str {
    let line = match charset.checked_sub(ICU_FIRST) {
        Some(icu) => ICU_NAMES.lines().nth(usize::from(icu)),
        None => NAMES.lines().nth(usize::from(charset)),
    }
    .expect("a charset's index");
    line.split('\t').next().unwrap_or(line)
}

/// Every label of `names` with its charset's index (counted from `first`),
/// sorted for a binary search.
fn sorted_labels(names: &'static str, first: u16) -> Box<[(&'static str, u16)]> {
    let mut labels = Vec::new();
    for (charset, line) in (first..).zip(names.lines()) {
        let (_, names) = line.split_once('\t').expect("name, tab, labels");
        labels.extend(names.split(' ').map(|label| (label, charset)));
    }
    labels.sort_unstable();
    labels.into_boxed_slice()
}

/// iconv's labels, upper-case; built on the first label looked up.
pub(crate) static LABELS: LazyLock<Box<[(&'static str, u16)]>> =
    LazyLock::new(|| sorted_labels(NAMES, 0));

/// ICU's aliases as [`icu_compare_form`] gives them.
pub(crate) static ICU_LABELS: LazyLock<Box<[(&'static str, u16)]>> =
    LazyLock::new(|| sorted_labels(ICU_NAMES, ICU_FIRST));

/// A name as ICU compares it (`ucnv_io_stripASCIIForCompare`): letters and
/// digits only, lower-cased, a zero dropped before a digit unless a digit
/// precedes it (`ucnv_open` finds `LATIN-2` as `latin2`).
pub(crate) fn icu_compare_form(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len());
    let mut after_digit = false;
    for (k, &c) in name.iter().enumerate() {
        match c {
            b'0' if !after_digit && name.get(k + 1).is_some_and(u8::is_ascii_digit) => {}
            b'0' => out.push(c),
            b'1'..=b'9' => {
                after_digit = true;
                out.push(c);
            }
            _ if c.is_ascii_alphabetic() => {
                after_digit = false;
                out.push(c.to_ascii_lowercase());
            }
            _ => after_digit = false,
        }
    }
    out
}
