//! Stateful charsets: glibc iconv's `ISO-2022-JP` (`iso-2022-jp.c`), whose
//! escape sequences switch between ASCII, JIS X 0201 Roman and JIS X 0208.

use super::wide::Stop;

/// glibc's JIS X 0208 table as its iconv decodes it, 94 × 94 big-endian
/// code points (0: rejected), written by `tools/iso2022jp-table.py`.
static JIS_X_0208: &[u8; 94 * 94 * 2] = include_bytes!("jisx0208.bin");

const ESC: u8 = 0x1B;

/// The character set escape sequences select (`ASCII_set`,
/// `JISX0201_Roman_set`, `JISX0208_1978_set` / `JISX0208_1983_set`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Set {
    Ascii,
    Roman,
    Jis0208,
}

/// Whether `label` (any case) is a name iconv opens as its `ISO-2022-JP`.
pub(crate) fn is_iso_2022_jp(label: &[u8]) -> bool {
    [&b"ISO-2022-JP"[..], b"ISO2022JP", b"CSISO2022JP"]
        .iter()
        .any(|l| l.eq_ignore_ascii_case(label))
}

/// An `ISO-2022-JP` decoder and its shift state, which lives on across
/// calls as in the iconv descriptor libxml2 keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Iso2022JpDecoder {
    set: Set,
}

impl Default for Iso2022JpDecoder {
    fn default() -> Self {
        Iso2022JpDecoder { set: Set::Ascii }
    }
}

impl Iso2022JpDecoder {
    /// Converts `raw`, appending UTF-8 to `out`: the bytes consumed and why
    /// it stopped, as glibc's `iso-2022-jp.c` loop does (`gconv_init` with
    /// the `iso2022jp` variant). An escape sequence or a two-byte character
    /// cut at the end is left for the next call; a rejected byte is not
    /// consumed.
    pub(crate) fn convert(&mut self, raw: &[u8], out: &mut Vec<u8>) -> (usize, Stop) {
        let mut i = 0;
        out.reserve(raw.len());
        while i < raw.len() {
            let b = raw[i];
            if b == ESC {
                // glibc wants three bytes before it reads any escape
                if i + 2 >= raw.len() {
                    return (i, Stop::Done);
                }
                let set = match (raw[i + 1], raw[i + 2]) {
                    (b'(', b'B') => Some(Set::Ascii),
                    (b'(', b'J') => Some(Set::Roman),
                    (b'$', b'@' | b'B') => Some(Set::Jis0208),
                    _ => None,
                };
                if let Some(set) = set {
                    self.set = set;
                    i += 3;
                    continue;
                }
                // any other escape is an ordinary control character
            }
            if b >= 0x80 {
                return (i, Stop::Illegal);
            }
            // controls, space and DEL are ASCII in every set
            if self.set == Set::Ascii || b < 0x21 || b == 0x7F {
                out.push(b);
                i += 1;
                continue;
            }
            if self.set == Set::Roman {
                match b {
                    0x5C => out.extend_from_slice("\u{A5}".as_bytes()),
                    0x7E => out.extend_from_slice("\u{203E}".as_bytes()),
                    _ => out.push(b),
                }
                i += 1;
                continue;
            }
            let Some(&trail) = raw.get(i + 1) else {
                return (i, Stop::Done);
            };
            if !(0x21..0x7F).contains(&trail) {
                return (i, Stop::Illegal);
            }
            let k = 2 * (usize::from(b - 0x21) * 94 + usize::from(trail - 0x21));
            let c = u16::from_be_bytes([JIS_X_0208[k], JIS_X_0208[k + 1]]);
            if c == 0 {
                return (i, Stop::Illegal);
            }
            let ch = char::from_u32(u32::from(c)).unwrap_or(char::REPLACEMENT_CHARACTER);
            out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
            i += 2;
        }
        (i, Stop::Done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // expectations from `iconv -f ISO-2022-JP` (tools/iso2022jp-table.py
    // asks it over ctypes the same way)
    fn run(raw: &[u8]) -> (Vec<u8>, usize, Stop) {
        let mut out = Vec::new();
        let (n, stop) = Iso2022JpDecoder::default().convert(raw, &mut out);
        (out, n, stop)
    }

    #[test]
    fn escapes_switch_sets_and_wait_for_three_bytes() {
        assert_eq!(run(b"a\x1b$B"), (b"a".to_vec(), 4, Stop::Done));
        assert_eq!(run(b"a\x1b$"), (b"a".to_vec(), 1, Stop::Done));
        assert_eq!(
            run(b"\x1b$B0!\n0"),
            ("\u{4E9C}\n".as_bytes().to_vec(), 6, Stop::Done)
        );
        assert_eq!(run(b"\x1b(J\\~\x7f").0, "\u{A5}\u{203E}\x7f".as_bytes());
        assert_eq!(run(b"\x1bxyz"), (b"\x1bxyz".to_vec(), 4, Stop::Done));
        assert_eq!(run(b"\x1b(B\x1b"), (Vec::new(), 3, Stop::Done));
    }

    #[test]
    fn rejects_high_bytes_bad_trails_and_undefined_pairs() {
        assert_eq!(run(b"\x80").2, Stop::Illegal);
        assert_eq!(run(b"\x1b$B!\x7f"), (Vec::new(), 3, Stop::Illegal));
        assert_eq!(run(b"\x1b$B\"/"), (Vec::new(), 3, Stop::Illegal));
        assert_eq!(run(b"\x1b$Bt&").0, "\u{7199}".as_bytes());
        assert_eq!(run(b"\x1b$Bt'").2, Stop::Illegal);
    }

    #[test]
    fn labels() {
        assert!(is_iso_2022_jp(b"iso-2022-jp"));
        assert!(is_iso_2022_jp(b"csISO2022JP"));
        assert!(!is_iso_2022_jp(b"ISO-2022-JP-2"));
    }
}
