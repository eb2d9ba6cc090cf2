//! Legacy charsets a document may declare, as glibc's iconv decodes them
//! (libxml2's `xmlFindCharEncodingHandler` hands iconv every label it does
//! not decode itself).

mod composing;
#[rustfmt::skip] // generated: tools/iconv-composing.py --check compares it byte for byte
mod composing_tables;
mod multi_byte;
mod single_byte;
mod stateful;
mod wide;

pub(crate) use composing::{Composing, ComposingDecoder};
pub(crate) use multi_byte::{MultiByte, Stop as MultiByteStop, Table as MultiByteTable};
pub(crate) use stateful::{Iso2022JpDecoder, is_iso_2022_jp};
pub(crate) use wide::{Form, Order, Stop, WideDecoder, form_for_label};

use crate::decode::{TwoByteTable, single_byte_run};
use single_byte::{ICU_FIRST, ICU_LABELS, LABELS, NONE, code_point, icu_compare_form};

/// A stateless single-byte charset, by its index in the generated tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SingleByte(u16);

impl SingleByte {
    /// The charset iconv opens for `label` (`iconv_open` matches labels
    /// case-insensitively).
    pub(crate) fn for_label(label: &[u8]) -> Option<Self> {
        let upper: Vec<u8> = label.iter().map(u8::to_ascii_uppercase).collect();
        LABELS
            .binary_search_by(|(l, _)| l.as_bytes().cmp(&upper))
            .ok()
            .map(|i| SingleByte(LABELS[i].1))
    }

    /// The converter ICU opens for `label` (`ucnv_open`, which compares
    /// names by letters and digits only), among its single-byte ones.
    pub(crate) fn for_icu_label(label: &[u8]) -> Option<Self> {
        let key = icu_compare_form(label);
        ICU_LABELS
            .binary_search_by(|(l, _)| l.as_bytes().cmp(&key))
            .ok()
            .map(|i| SingleByte(ICU_LABELS[i].1))
    }

    /// An ICU converter: `xmlUconvWrapper` gives no output from a call that
    /// stops at a byte without a mapping.
    pub(crate) fn is_icu(self) -> bool {
        self.0 >= ICU_FIRST
    }

    /// The charset's name as the tables show it.
    #[cfg(test)]
    pub(crate) fn name(self) -> &'static str {
        single_byte::name(self.0)
    }

    /// Every byte's UTF-8 form, built once per switch (256 entries): the
    /// conversion is then one lookup and one store per byte, or a vector
    /// kernel's lookups where the charset suits one.
    pub(crate) fn utf8_table(self) -> Box<Utf8Table> {
        let mut seq = [0u32; 256];
        for (entry, byte) in seq.iter_mut().zip(0..=u8::MAX) {
            let c = code_point(self.0, byte);
            if c != NONE {
                let ch = char::from_u32(u32::from(c)).unwrap_or(char::REPLACEMENT_CHARACTER);
                let mut bytes = [0u8; 4];
                let n = ch.encode_utf8(&mut bytes[..3]).len();
                bytes[3] = n as u8;
                *entry = u32::from_le_bytes(bytes);
            }
        }
        let two_byte = crate::decode::single_byte_kernel_available()
            .then(|| two_byte_table(&seq))
            .flatten();
        Box::new(Utf8Table { seq, two_byte })
    }
}

/// The vector kernel's table for a charset whose bytes 0x00..=0x7F are
/// ASCII and at least half of whose other bytes are two-byte characters
/// (Cyrillic, Greek, Latin...): `None` for the rest (EBCDIC, Thai), which
/// the kernel would leave to the scalar loop block after block.
fn two_byte_table(seq: &[u32; 256]) -> Option<TwoByteTable> {
    let ascii = (0..0x80u32).all(|b| seq[b as usize] == b | 1 << 24);
    let pairs: [Option<[u8; 2]>; 128] = std::array::from_fn(|k| {
        let [lead, trail, _, n] = seq[0x80 + k].to_le_bytes();
        (n == 2).then_some([lead, trail])
    });
    (ascii && pairs.iter().flatten().count() >= 64).then(|| TwoByteTable::new(&pairs))
}

/// Bytes the scalar loop converts after the vector kernel stops, before
/// the kernel is tried again.
const SCALAR_STRETCH: usize = 32;

/// A byte's UTF-8 bytes in the low three bytes (little-endian) and their
/// count in the high byte; count 0 is a byte iconv rejects (`EILSEQ`).
/// With the vector kernel's table where the charset suits it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Utf8Table {
    seq: [u32; 256],
    two_byte: Option<TwoByteTable>,
}

impl Utf8Table {
    /// Appends the UTF-8 of `raw` to `out`: the number of bytes converted,
    /// less than `raw.len()` at the first byte the charset rejects
    /// (`xmlIconvWrapper`'s -2 after a partial conversion). Blocks of ASCII
    /// and two-byte characters go through the vector kernel
    /// ([`single_byte_run`]), the rest through [`convert_scalar`](Self::convert_scalar).
    pub(crate) fn convert(&self, raw: &[u8], out: &mut Vec<u8>) -> usize {
        match &self.two_byte {
            Some(two_byte) => {
                self.convert_with(raw, out, |raw, out| single_byte_run(raw, out, two_byte))
            }
            None => self.convert_scalar(raw, out),
        }
    }

    /// [`convert`](Self::convert) with `kernel` (one of
    /// [`single_byte_run`]'s tiers) taking what it can before each stretch
    /// of the scalar loop.
    fn convert_with(
        &self,
        raw: &[u8],
        out: &mut Vec<u8>,
        kernel: impl Fn(&[u8], &mut Vec<u8>) -> usize,
    ) -> usize {
        let mut i = 0;
        loop {
            i += kernel(&raw[i..], out);
            let end = raw.len().min(i + SCALAR_STRETCH);
            let n = self.convert_scalar(&raw[i..end], out);
            i += n;
            if i == raw.len() || i < end {
                return i;
            }
        }
    }

    /// [`convert`](Self::convert) one byte at a time: the reference the
    /// vector kernels are tested against.
    fn convert_scalar(&self, raw: &[u8], out: &mut Vec<u8>) -> usize {
        let start = out.len();
        // every entry is stored whole (four bytes) and the cursor moves by
        // its count: room for three bytes a byte and one spare
        out.resize(start + 3 * raw.len() + 1, 0);
        let dst = &mut out[start..];
        let mut o = 0;
        for (k, &b) in raw.iter().enumerate() {
            let e = self.seq[usize::from(b)];
            let n = (e >> 24) as usize;
            if n == 0 {
                out.truncate(start + o);
                return k;
            }
            dst[o..o + 4].copy_from_slice(&e.to_le_bytes());
            o += n;
        }
        out.truncate(start + o);
        raw.len()
    }
}

#[cfg(test)]
mod kernel_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_sorted_upper_case_and_resolve_to_a_charset() {
        assert!(LABELS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(
            LABELS
                .iter()
                .all(|(l, _)| l.bytes().all(|b| !b.is_ascii_lowercase()))
        );
        assert_eq!(
            SingleByte::for_label(b"windows-1251").map(SingleByte::name),
            Some("WINDOWS-1251")
        );
        assert_eq!(
            SingleByte::for_label(b"Koi8-u").map(SingleByte::name),
            Some("KOI8-U")
        );
        assert_eq!(SingleByte::for_label(b"x-mac-cyrillic"), None);
        assert_eq!(
            SingleByte::for_icu_label(b"x-mac-cyrillic").map(SingleByte::name),
            Some("macos-7_3-10.2")
        );
        assert_eq!(
            SingleByte::for_icu_label(b"LATIN-2").map(SingleByte::name),
            Some("ibm-912_P100-1995")
        );
        assert_eq!(icu_compare_form(b"ISO_8859-05 x01"), b"iso88595x1");
        assert_eq!(icu_compare_form(b"ibm-1047-s390"), b"ibm1047s390");
    }

    #[test]
    fn converts_up_to_a_rejected_byte() {
        let t = SingleByte::for_label(b"windows-1251").unwrap().utf8_table();
        let mut out = Vec::new();
        assert_eq!(t.convert(b"a\xC0\xFF\x98z", &mut out), 3);
        assert_eq!(out, "aАя".as_bytes());
    }
}
