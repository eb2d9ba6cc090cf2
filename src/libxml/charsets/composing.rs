//! Composing charsets: glibc iconv's `CP1255`, `CP1258` and `TCVN5712-1`
//! (`cp1255.c`, `cp1258.c`, `tcvn5712-1.c`), which hold a base letter until
//! the next byte shows whether a combining mark follows it. libxml2 never
//! flushes the iconv descriptor, so the held letter waits across
//! `xml_parse()` pieces and a letter that ends the input is never seen.

use super::composing_tables::TABLES;
use super::wide::Stop;

/// One charset's data, written by `tools/iconv-composing.py`.
#[derive(Debug)]
pub(crate) struct ComposingTable {
    /// The charset's name as iconv's configuration gives it.
    #[cfg_attr(not(test), expect(dead_code, reason = "shown by tests"))]
    pub(super) name: &'static str,
    /// Every label iconv resolves to it, upper-case, sorted.
    pub(super) labels: &'static [&'static str],
    /// Every byte's code point, `0xFFFF` for a byte iconv rejects.
    pub(super) bytes: [u16; 256],
    /// The code points held for a following mark, sorted.
    pub(super) held: &'static [u16],
    /// `(base, mark, composed)`, sorted by base and mark.
    pub(super) pairs: &'static [(u16, u16, u16)],
}

const REJECTED: u16 = 0xFFFF;

/// A composing charset, by its index in the generated tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Composing(u8);

impl Composing {
    /// The charset iconv opens for `label` (any case).
    pub(crate) fn for_label(label: &[u8]) -> Option<Self> {
        let upper: Vec<u8> = label.iter().map(u8::to_ascii_uppercase).collect();
        let i = TABLES
            .iter()
            .position(|t| t.labels.iter().any(|l| l.as_bytes() == upper))?;
        Some(Composing(u8::try_from(i).expect("three charsets")))
    }

    /// The charset's name as the tables show it.
    #[cfg(test)]
    pub(crate) fn name(self) -> &'static str {
        TABLES[usize::from(self.0)].name
    }
}

/// A composing decoder and the letter it holds, which lives on across
/// calls as in the iconv descriptor libxml2 keeps.
#[derive(Clone, Debug)]
pub(crate) struct ComposingDecoder {
    table: &'static ComposingTable,
    held: Option<u16>,
}

impl ComposingDecoder {
    pub(crate) fn new(charset: Composing) -> Self {
        ComposingDecoder {
            table: &TABLES[usize::from(charset.0)],
            held: None,
        }
    }

    /// Converts `raw`, appending UTF-8 to `out`: the bytes consumed and why
    /// it stopped, as glibc's `cp1258.c` loop does. A held letter is
    /// consumed but written only when the next byte is read; a byte iconv
    /// rejects is not consumed and the held letter stays unwritten.
    pub(crate) fn convert(&mut self, raw: &[u8], out: &mut Vec<u8>) -> (usize, Stop) {
        out.reserve(raw.len());
        for (i, &b) in raw.iter().enumerate() {
            let c = self.table.bytes[usize::from(b)];
            if c == REJECTED {
                return (i, Stop::Illegal);
            }
            if let Some(base) = self.held.take() {
                if let Ok(k) = self
                    .table
                    .pairs
                    .binary_search_by(|&(b, m, _)| (b, m).cmp(&(base, c)))
                {
                    self.take(self.table.pairs[k].2, out);
                    continue;
                }
                push(base, out);
            }
            self.take(c, out);
        }
        (raw.len(), Stop::Done)
    }

    /// Holds `c` when a mark may follow it, else writes it.
    fn take(&mut self, c: u16, out: &mut Vec<u8>) {
        if self.table.held.binary_search(&c).is_ok() {
            self.held = Some(c);
        } else {
            push(c, out);
        }
    }
}

fn push(c: u16, out: &mut Vec<u8>) {
    let ch = char::from_u32(u32::from(c)).unwrap_or(char::REPLACEMENT_CHARACTER);
    out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    // expectations from `iconv -f CP1258` and friends (asked over ctypes by
    // tools/iconv-composing.py the same way)
    fn run(label: &str, pieces: &[&[u8]]) -> (String, Vec<(usize, Stop)>) {
        let mut d = ComposingDecoder::new(Composing::for_label(label.as_bytes()).unwrap());
        let mut out = Vec::new();
        let stops = pieces.iter().map(|p| d.convert(p, &mut out)).collect();
        (String::from_utf8(out).unwrap(), stops)
    }

    #[test]
    fn holds_a_letter_until_the_next_byte_and_composes_across_calls() {
        assert_eq!(run("windows-1258", &[b"a"]).0, "");
        assert_eq!(run("windows-1258", &[b"a\xcc<"]).0, "\u{E0}<");
        assert_eq!(run("windows-1258", &[b"a", b"\xcc", b"<"]).0, "\u{E0}<");
        assert_eq!(run("windows-1258", &[b"<ab"]).0, "<a");
        assert_eq!(run("tcvn", &[b"A\xcc\xcc"]).0, "A\u{E8}");
    }

    #[test]
    fn a_rejected_byte_is_not_consumed_and_keeps_the_letter() {
        let (text, stops) = run("cp1255", &[b"\xe0\xff"]);
        assert_eq!((text.as_str(), stops[0]), ("", (1, Stop::Illegal)));
    }

    #[test]
    fn hebrew_shin_with_dagesh_waits_for_its_dot() {
        // FB49 (shin with dagesh) takes shin dot or sin dot: FB2C / FB2D
        assert_eq!(run("windows-1255", &[b"\xf9\xcc\xd1 "]).0, "\u{FB2C} ");
        assert_eq!(run("windows-1255", &[b"\xf9\xcc "]).0, "\u{FB49} ");
    }

    #[test]
    fn labels() {
        assert_eq!(
            Composing::for_label(b"Windows-1258").map(Composing::name),
            Some("WINDOWS-1258")
        );
        assert_eq!(
            Composing::for_label(b"ms-hebr").map(Composing::name),
            Some("WINDOWS-1255")
        );
        assert_eq!(
            Composing::for_label(b"tcvn-5712").map(Composing::name),
            Some("TCVN5712-1")
        );
        assert_eq!(Composing::for_label(b"windows-1252"), None);
    }
}
