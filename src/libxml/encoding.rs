//! Source decoding: what libxml2's input buffer does before the parser sees
//! the bytes. UTF-8 passes through; UTF-16 (from a BOM) and single-byte
//! encodings (from the XML declaration) are converted to UTF-8.

/// How raw bytes become parser input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Mode {
    /// No conversion (UTF-8, or not yet known).
    #[default]
    Utf8,
    /// ISO-8859-1: every byte is the code point.
    Latin1,
    /// US-ASCII / ISO-8859-x tables: bytes ≥ 0x80 via a table, `None` is an
    /// encoding error.
    Table(&'static [u16; 128]),
    Utf16Le,
    Utf16Be,
}

/// The conversion state of the input (`xmlParserInputBuffer` raw side).
#[derive(Clone, Debug, Default)]
pub(super) struct Decoder {
    pub(super) mode: Mode,
    /// Raw bytes not converted yet (an incomplete UTF-16 unit, or bytes
    /// after a conversion error).
    pending: Vec<u8>,
    /// A conversion error happened; nothing more is converted.
    pub(super) failed: bool,
    /// US-ASCII met a byte ≥ 0x80: libxml2's `asciiToUTF8` stops there
    /// without an error (its -1 counts as "incomplete input"), so the input
    /// simply ends.
    stopped: bool,
}

impl Decoder {
    /// Raw bytes waiting for conversion.
    pub(super) fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Converts `raw` (after any pending bytes), appending UTF-8 to `out`.
    /// Returns false on a conversion error.
    pub(super) fn convert(&mut self, raw: &[u8], out: &mut Vec<u8>, flush: bool) -> bool {
        if self.stopped {
            return true;
        }
        if self.failed {
            return false;
        }
        if self.mode == Mode::Utf8 {
            out.extend_from_slice(raw);
            return true;
        }
        let mut data = std::mem::take(&mut self.pending);
        data.extend_from_slice(raw);
        let mut i = 0;
        match self.mode {
            Mode::Utf8 => unreachable!(),
            Mode::Latin1 => {
                for &b in &data {
                    super::chars::push_utf8(out, u32::from(b));
                }
                i = data.len();
            }
            Mode::Table(t) => {
                while i < data.len() {
                    let b = data[i];
                    if b < 0x80 {
                        out.push(b);
                    } else {
                        let c = t[usize::from(b - 0x80)];
                        if c == 0 && std::ptr::eq(t, &raw const ASCII) {
                            self.stopped = true;
                            self.pending.clear();
                            return true;
                        }
                        if c == 0 {
                            self.failed = true;
                            self.pending = data[i..].to_vec();
                            return false;
                        }
                        super::chars::push_utf8(out, u32::from(c));
                    }
                    i += 1;
                }
            }
            Mode::Utf16Le | Mode::Utf16Be => {
                let le = self.mode == Mode::Utf16Le;
                let unit = |k: usize| -> u32 {
                    if le {
                        u32::from(data[k]) | (u32::from(data[k + 1]) << 8)
                    } else {
                        (u32::from(data[k]) << 8) | u32::from(data[k + 1])
                    }
                };
                while i + 1 < data.len() {
                    let u = unit(i);
                    if (0xD800..0xDC00).contains(&u) {
                        if i + 3 >= data.len() {
                            break;
                        }
                        let v = unit(i + 2);
                        if !(0xDC00..0xE000).contains(&v) {
                            self.failed = true;
                            self.pending = data[i..].to_vec();
                            return false;
                        }
                        let c = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
                        super::chars::push_utf8(out, c);
                        i += 4;
                    } else {
                        // libxml2's UTF16LEToUTF8 checks only that a high
                        // surrogate has its low one: a lone low surrogate is
                        // passed on, for the parser to reject as a character
                        super::chars::push_utf8(out, u);
                        i += 2;
                    }
                }
            }
        }
        self.pending = data[i..].to_vec();
        // an odd byte or a high surrogate left at the end stays unconverted,
        // without an error, even when the input is flushed
        let _ = flush;
        true
    }
}

/// A single-byte table for a declared encoding name, if we know it.
pub(super) fn table_for(name: &[u8]) -> Option<Mode> {
    let n: Vec<u8> = name.iter().map(u8::to_ascii_uppercase).collect();
    match n.as_slice() {
        b"ISO-8859-1" | b"ISO_8859-1" | b"ISO-LATIN-1" | b"ISO LATIN 1" | b"LATIN1"
        | b"LATIN-1" | b"L1" | b"ISO8859-1" | b"ISO88591" | b"CP819" | b"IBM819"
        | b"ISO-IR-100" | b"CSISOLATIN1" => Some(Mode::Latin1),
        b"US-ASCII" | b"ASCII" | b"US" | b"ANSI_X3.4-1968" | b"ISO646-US" | b"CP367"
        | b"IBM367" | b"ISO-IR-6" | b"CSASCII" | b"ISO_646.IRV:1991" | b"US-ASCII-1" => {
            Some(Mode::Table(&ASCII))
        }
        b"ISO-8859-15" | b"ISO_8859-15" | b"LATIN-9" | b"LATIN9" | b"ISO8859-15" => {
            Some(Mode::Table(&LATIN9))
        }
        b"WINDOWS-1252" | b"CP1252" | b"MS-ANSI" => Some(Mode::Table(&CP1252)),
        b"KOI8-R" | b"CSKOI8R" => Some(Mode::Table(&KOI8R)),
        _ => None,
    }
}

/// US-ASCII: no byte ≥ 0x80 is valid.
static ASCII: [u16; 128] = [0; 128];

static LATIN9: [u16; 128] = {
    let mut t = [0u16; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = (i + 0x80) as u16;
        i += 1;
    }
    t[0xA4 - 0x80] = 0x20AC;
    t[0xA6 - 0x80] = 0x0160;
    t[0xA8 - 0x80] = 0x0161;
    t[0xB4 - 0x80] = 0x017D;
    t[0xB8 - 0x80] = 0x017E;
    t[0xBC - 0x80] = 0x0152;
    t[0xBD - 0x80] = 0x0153;
    t[0xBE - 0x80] = 0x0178;
    t
};

static CP1252: [u16; 128] = {
    let hi: [u16; 32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
        0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
        0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ];
    let mut t = [0u16; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = if i < 32 { hi[i] } else { (i + 0x80) as u16 };
        i += 1;
    }
    t
};

static KOI8R: [u16; 128] = [
    0x2500, 0x2502, 0x250C, 0x2510, 0x2514, 0x2518, 0x251C, 0x2524, 0x252C, 0x2534, 0x253C, 0x2580,
    0x2584, 0x2588, 0x258C, 0x2590, 0x2591, 0x2592, 0x2593, 0x2320, 0x25A0, 0x2219, 0x221A, 0x2248,
    0x2264, 0x2265, 0x00A0, 0x2321, 0x00B0, 0x00B2, 0x00B7, 0x00F7, 0x2550, 0x2551, 0x2552, 0x0451,
    0x2553, 0x2554, 0x2555, 0x2556, 0x2557, 0x2558, 0x2559, 0x255A, 0x255B, 0x255C, 0x255D, 0x255E,
    0x255F, 0x2560, 0x2561, 0x0401, 0x2562, 0x2563, 0x2564, 0x2565, 0x2566, 0x2567, 0x2568, 0x2569,
    0x256A, 0x256B, 0x256C, 0x00A9, 0x044E, 0x0430, 0x0431, 0x0446, 0x0434, 0x0435, 0x0444, 0x0433,
    0x0445, 0x0438, 0x0439, 0x043A, 0x043B, 0x043C, 0x043D, 0x043E, 0x043F, 0x044F, 0x0440, 0x0441,
    0x0442, 0x0443, 0x0436, 0x0432, 0x044C, 0x044B, 0x0437, 0x0448, 0x044D, 0x0449, 0x0447, 0x044A,
    0x042E, 0x0410, 0x0411, 0x0426, 0x0414, 0x0415, 0x0424, 0x0413, 0x0425, 0x0418, 0x0419, 0x041A,
    0x041B, 0x041C, 0x041D, 0x041E, 0x041F, 0x042F, 0x0420, 0x0421, 0x0422, 0x0423, 0x0416, 0x0412,
    0x042C, 0x042B, 0x0417, 0x0428, 0x042D, 0x0429, 0x0427, 0x042A,
];
