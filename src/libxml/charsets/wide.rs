//! The fixed-width Unicode forms a document may be in besides UTF-16:
//! glibc iconv's UCS-2, UCS-4 and UTF-32 families (reached from the XML
//! declaration), and ICU's `ISO-10646-UCS-4` (UTF-32 that sniffs a BOM), which
//! libxml2's `xmlGetCharEncodingHandler` opens for a document whose first four
//! bytes are `<` in UCS-4.

/// Byte order of a code unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    Le,
    Be,
}

/// Which converter decodes, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// iconv's `UCS-2`, `UCS-2LE`, `UCS-2BE`: any unit but a surrogate.
    Ucs2(Order),
    /// iconv's `UNICODE`: UCS-2 after a BOM read at the start (little-endian
    /// without one).
    Ucs2Bom,
    /// iconv's `UCS-4`, `UCS-4LE`: up to 0x7FFFFFFF, surrogates excepted,
    /// written as UTF-8 of up to six bytes (`internal_utf8_loop`).
    Ucs4(Order),
    /// iconv's `UTF-32LE`, `UTF-32BE`: Unicode scalar values only.
    Utf32(Order),
    /// iconv's `UTF-32`: a BOM read at the start (little-endian without one).
    Utf32Bom,
    /// ICU's `ISO-10646-UCS-4` (its UTF-32): a BOM read at the start,
    /// big-endian without one.
    IcuUtf32,
}

/// The iconv form `iconv_open` finds for a label (any case).
pub(crate) fn form_for_label(label: &[u8]) -> Option<Form> {
    let upper: Vec<u8> = label.iter().map(u8::to_ascii_uppercase).collect();
    Some(match upper.as_slice() {
        b"UCS-2" | b"UCS2" | b"UCS-2LE" | b"UNICODELITTLE" | b"ISO-10646/UCS2" => {
            Form::Ucs2(Order::Le)
        }
        b"UCS-2BE" | b"UNICODEBIG" => Form::Ucs2(Order::Be),
        b"UNICODE" | b"CSUNICODE" => Form::Ucs2Bom,
        b"UCS-4" | b"UCS4" | b"UCS-4BE" | b"ISO-10646" | b"10646-1:1993" | b"CSUCS4"
        | b"ISO-10646/UCS4" => Form::Ucs4(Order::Be),
        b"UCS-4LE" | b"WCHAR_T" => Form::Ucs4(Order::Le),
        b"UTF-32" | b"UTF32" => Form::Utf32Bom,
        b"UTF-32LE" | b"UTF32LE" => Form::Utf32(Order::Le),
        b"UTF-32BE" | b"UTF32BE" => Form::Utf32(Order::Be),
        _ => return None,
    })
}

/// Why a conversion stopped before the end of its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Everything converted, or an incomplete unit left at the end (iconv's
    /// `EINVAL`: kept for the next call).
    Done,
    /// A unit the form rejects (`EILSEQ`, ICU's illegal character).
    Illegal,
}

/// A fixed-width decoder and its state (the BOM read at the start).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WideDecoder {
    form: Form,
    /// The order a BOM-reading form settled on; `None` before its first unit.
    settled: Option<Order>,
}

impl WideDecoder {
    pub(crate) fn new(form: Form) -> Self {
        WideDecoder {
            form,
            settled: None,
        }
    }

    /// Bytes per code unit.
    pub(crate) fn unit(self) -> usize {
        match self.form {
            Form::Ucs2(_) | Form::Ucs2Bom => 2,
            _ => 4,
        }
    }

    /// Converts whole units of `raw`, appending UTF-8 to `out`: the bytes
    /// consumed and why it stopped. An illegal unit is not consumed.
    pub(crate) fn convert(&mut self, raw: &[u8], out: &mut Vec<u8>) -> (usize, Stop) {
        let unit = self.unit();
        let mut i = 0;
        out.reserve(raw.len());
        while i + unit <= raw.len() {
            let u = &raw[i..i + unit];
            let (le, be) = if unit == 2 {
                (
                    u32::from(u16::from_le_bytes([u[0], u[1]])),
                    u32::from(u16::from_be_bytes([u[0], u[1]])),
                )
            } else {
                (
                    u32::from_le_bytes([u[0], u[1], u[2], u[3]]),
                    u32::from_be_bytes([u[0], u[1], u[2], u[3]]),
                )
            };
            let order = match (self.form, self.settled) {
                (Form::Ucs2(o) | Form::Ucs4(o) | Form::Utf32(o), _) | (_, Some(o)) => o,
                (Form::Ucs2Bom | Form::Utf32Bom | Form::IcuUtf32, None) => {
                    let bom = if be == 0xFEFF {
                        Some(Order::Be)
                    } else if le == 0xFEFF {
                        Some(Order::Le)
                    } else {
                        None
                    };
                    let default = if self.form == Form::IcuUtf32 {
                        Order::Be
                    } else {
                        Order::Le
                    };
                    self.settled = Some(bom.unwrap_or(default));
                    if bom.is_some() {
                        i += unit;
                        continue;
                    }
                    bom.unwrap_or(default)
                }
            };
            let c = if order == Order::Le { le } else { be };
            let surrogate = (0xD800..0xE000).contains(&c);
            let ok = match self.form {
                Form::Ucs2(_) | Form::Ucs2Bom => !surrogate,
                Form::Ucs4(_) => !surrogate && c <= 0x7FFF_FFFF,
                Form::Utf32(_) | Form::Utf32Bom | Form::IcuUtf32 => !surrogate && c <= 0x10_FFFF,
            };
            if !ok {
                return (i, Stop::Illegal);
            }
            push_extended_utf8(out, c);
            i += unit;
        }
        (i, Stop::Done)
    }
}

/// UTF-8 as glibc writes it, with the five- and six-byte forms of the
/// original definition for code points past 0x1FFFFF (`internal_utf8_loop`).
fn push_extended_utf8(out: &mut Vec<u8>, c: u32) {
    if c < 0x80 {
        out.push(c as u8);
        return;
    }
    let len = match c {
        0..0x800 => 2,
        0x800..0x1_0000 => 3,
        0x1_0000..0x20_0000 => 4,
        0x20_0000..0x400_0000 => 5,
        _ => 6,
    };
    let lead: u8 = [0, 0, 0xC0, 0xE0, 0xF0, 0xF8, 0xFC][len];
    let start = out.len();
    out.resize(start + len, 0);
    let mut v = c;
    for k in (1..len).rev() {
        out[start + k] = 0x80 | (v & 0x3F) as u8;
        v >>= 6;
    }
    out[start] = lead | v as u8;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(form: Form, raw: &[u8]) -> (Vec<u8>, usize, Stop) {
        let mut out = Vec::new();
        let (n, stop) = WideDecoder::new(form).convert(raw, &mut out);
        (out, n, stop)
    }

    #[test]
    fn ucs4_reaches_six_byte_utf8_and_rejects_surrogates() {
        assert_eq!(
            run(Form::Ucs4(Order::Be), b"\x7f\xff\xff\xff\0\0\0A\0\0"),
            (b"\xfd\xbf\xbf\xbf\xbf\xbfA".to_vec(), 8, Stop::Done)
        );
        assert_eq!(
            run(Form::Ucs4(Order::Le), b"A\0\0\0\0\xd8\0\0"),
            (b"A".to_vec(), 4, Stop::Illegal)
        );
        assert_eq!(run(Form::Ucs4(Order::Be), b"\x80\0\0\0").2, Stop::Illegal);
    }

    #[test]
    fn bom_forms_read_the_bom_once() {
        assert_eq!(
            run(Form::Utf32Bom, b"\0\0\xfe\xff\0\0\0A\0\0\xfe\xff"),
            ("A\u{feff}".as_bytes().to_vec(), 12, Stop::Done)
        );
        assert_eq!(run(Form::Utf32Bom, b"A\0\0\0").0, b"A");
        assert_eq!(run(Form::IcuUtf32, b"\0\0\0A").0, b"A");
        assert_eq!(run(Form::IcuUtf32, b"A\0\0\0").2, Stop::Illegal);
        assert_eq!(run(Form::Ucs2Bom, b"\xfe\xff\0A").0, b"A");
        assert_eq!(
            run(Form::Ucs2(Order::Le), b"\xff\xfeA\0\0\xd8").0,
            "\u{feff}A".as_bytes()
        );
    }

    #[test]
    fn labels_resolve_without_regard_to_case() {
        assert_eq!(form_for_label(b"ucs-4le"), Some(Form::Ucs4(Order::Le)));
        assert_eq!(form_for_label(b"Utf-32"), Some(Form::Utf32Bom));
        assert_eq!(form_for_label(b"UTF-16"), None);
    }
}
