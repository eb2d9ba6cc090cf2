//! Source decoding: what libxml2's input buffer does before the parser sees
//! the bytes. UTF-8 passes through; UTF-16, UCS-4 and EBCDIC (from the
//! first bytes), single-byte charsets, the UCS-2/UCS-4/UTF-32 family and
//! ISO-2022-JP (from the XML declaration) are converted to UTF-8.

use super::charsets::{
    Composing, ComposingDecoder, Form, Iso2022JpDecoder, MultiByte, MultiByteStop, MultiByteTable,
    SingleByte, Stop, Utf8Table, WideDecoder,
};

/// How raw bytes become parser input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Mode {
    /// No conversion (UTF-8, or not yet known).
    #[default]
    Utf8,
    /// ISO-8859-1: every byte is the code point.
    Latin1,
    /// libxml2's own US-ASCII (`asciiToUTF8`): a byte ≥ 0x80 ends the input.
    Ascii,
    /// A single-byte charset as iconv decodes it.
    SingleByte(SingleByte),
    /// A multi-byte CJK charset as iconv decodes it.
    MultiByte(MultiByte),
    Utf16Le,
    Utf16Be,
    /// A fixed-width form (UCS-2, UCS-4, UTF-32) as iconv or ICU decodes it.
    Wide(Form),
    /// iconv's `ISO-2022-JP`, whose escapes switch sets.
    Iso2022Jp,
    /// iconv's `CP1255`, `CP1258` or `TCVN5712-1`, which compose.
    Composing(Composing),
}

/// The conversion state of the input (`xmlParserInputBuffer` raw side).
// each flag is a state of libxml2's converter of its own (first line
// deferred, a dropped sequence, failed, stopped), set and cleared apart
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, Default)]
pub(super) struct Decoder {
    pub(super) mode: Mode,
    /// The UTF-8 of every byte, for `Mode::SingleByte`.
    single_byte: Option<Box<Utf8Table>>,
    /// The converter's state, for `Mode::Wide`.
    wide: Option<WideDecoder>,
    /// The shift state, for `Mode::Iso2022Jp`.
    iso_2022_jp: Iso2022JpDecoder,
    /// The held letter, for `Mode::Composing`.
    composing: Option<ComposingDecoder>,
    /// Raw bytes the converter has taken (`rawconsumed`).
    pub(super) raw_consumed: usize,
    /// How much raw input `xmlParseChunk` hands an encoding found from the
    /// first bytes at a time until the XML declaration is read (45, or 90
    /// for UTF-16, 180 for UCS-4).
    pub(super) start_limit: usize,
    /// `pending` holds raw input not offered to the converter yet (after
    /// `xmlCharEncFirstLineInput`), for the push loop to convert.
    deferred: bool,
    /// The decoding tree, for `Mode::MultiByte`.
    multi_byte: Option<&'static MultiByteTable>,
    /// The last conversion stopped after a sequence iconv consumed and
    /// rejected ([`MultiByteStop::Dropped`]): the bytes after it wait for
    /// the next call.
    after_drop: bool,
    /// Raw bytes not converted yet (an incomplete UTF-16 unit, or bytes
    /// after a conversion error). ICU holds an incomplete unit inside its
    /// converter instead, lost when a declared encoding replaces it.
    pending: Vec<u8>,
    /// A conversion error happened; nothing more is converted (iconv and
    /// libxml2's own converters stop at the byte they reject, and meet it
    /// again on every call).
    pub(super) failed: bool,
    /// A push failed with nothing converted: libxml2's `in->error`, after
    /// which `xmlParserInputBufferPush` refuses every chunk.
    pub(super) refused: bool,
    /// US-ASCII met a byte ≥ 0x80: libxml2's `asciiToUTF8` stops there
    /// without an error (its -1 counts as "incomplete input"), so the input
    /// simply ends.
    stopped: bool,
}

impl Decoder {
    /// Sets the source encoding (bytes already taken stay as they are).
    pub(super) fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        // a new converter: what the old one rejected is offered again
        self.failed = false;
        self.wide = match mode {
            Mode::Wide(form) => Some(WideDecoder::new(form)),
            _ => None,
        };
        self.iso_2022_jp = Iso2022JpDecoder::default();
        self.composing = match mode {
            Mode::Composing(charset) => Some(ComposingDecoder::new(charset)),
            _ => None,
        };
        self.single_byte = match mode {
            Mode::SingleByte(charset) => Some(charset.utf8_table()),
            _ => None,
        };
        self.multi_byte = match mode {
            Mode::MultiByte(charset) => Some(charset.table()),
            _ => None,
        };
    }

    /// Raw bytes waiting for conversion.
    pub(super) fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Raw bytes wait after a dropped sequence: each step of
    /// `xmlParseTryOrFinish` pushes the raw buffer through the converter
    /// first, one `xmlCharEncInput` call, up to the next dropped sequence.
    pub(super) fn waits_after_drop(&self) -> bool {
        self.after_drop && !self.pending.is_empty()
    }

    /// Keeps `raw` for later conversion (the part of the input
    /// `xmlCharEncFirstLineInput` leaves in the raw buffer).
    pub(super) fn defer(&mut self, raw: &[u8]) {
        self.pending.extend_from_slice(raw);
        self.deferred = !self.pending.is_empty();
    }

    /// Raw input kept by [`defer`](Self::defer) and not converted since.
    pub(super) fn has_deferred(&self) -> bool {
        self.deferred
    }

    /// Converts `raw` (after any pending bytes), appending UTF-8 to `out`;
    /// `flush` is the flag `xmlCharEncInput` passes to the converter (only
    /// ICU acts on it). Returns false on a conversion error.
    pub(super) fn convert(&mut self, raw: &[u8], out: &mut Vec<u8>, flush: bool) -> bool {
        self.deferred = false;
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
        let i;
        match self.mode {
            Mode::Utf8 => unreachable!(),
            Mode::Wide(Form::IcuUtf32 | Form::IcuUtf16(_)) => {
                return self.convert_icu(&data, out, flush);
            }
            Mode::Wide(_) => {
                let wide = self.wide.as_mut().expect("set with the mode");
                let (n, stop) = wide.convert(&data, out);
                if stop == Stop::Illegal {
                    return self.reject(&data, n);
                }
                i = n;
            }
            Mode::Iso2022Jp | Mode::Composing(_) => {
                let (n, stop) = match self.composing.as_mut() {
                    Some(composing) => composing.convert(&data, out),
                    None => self.iso_2022_jp.convert(&data, out),
                };
                i = n;
                if stop == Stop::Illegal {
                    return self.reject(&data, n);
                }
            }
            Mode::Latin1 => {
                for &b in &data {
                    super::chars::push_utf8(out, u32::from(b));
                }
                i = data.len();
            }
            Mode::Ascii => {
                let n = data.iter().position(|&b| b >= 0x80).unwrap_or(data.len());
                out.extend_from_slice(&data[..n]);
                if n < data.len() {
                    self.stopped = true;
                    self.pending.clear();
                    return true;
                }
                i = n;
            }
            Mode::SingleByte(charset) => {
                let table = self.single_byte.as_deref().expect("set with the mode");
                let start = out.len();
                i = table.convert(&data, out);
                if i < data.len() {
                    if charset.is_icu() {
                        // ICU's pivot keeps what the call converted
                        out.truncate(start);
                    }
                    return self.reject(&data, i);
                }
            }
            Mode::MultiByte(_) => {
                let table = self.multi_byte.expect("set with the mode");
                let start = out.len();
                let (n, stop) = table.convert(&data, out);
                self.after_drop = stop == MultiByteStop::Dropped;
                match stop {
                    MultiByteStop::Illegal => return self.reject(&data, n),
                    MultiByteStop::Dropped if out.len() == start => {
                        // xmlCharEncInput's -2: the call fails, though iconv
                        // took the sequence and the next call goes on after it
                        self.raw_consumed += n;
                        self.pending = data[n..].to_vec();
                        return false;
                    }
                    MultiByteStop::Dropped | MultiByteStop::Done => i = n,
                }
            }
            Mode::Utf16Le | Mode::Utf16Be => {
                match utf16_to_utf8(&data, self.mode == Mode::Utf16Le, out) {
                    Ok(n) => i = n,
                    Err(at) => {
                        self.failed = true;
                        self.pending = data[at..].to_vec();
                        return false;
                    }
                }
            }
        }
        self.raw_consumed += i;
        self.pending = data[i..].to_vec();
        // an odd byte, a high surrogate or a multi-byte character cut short
        // left at the end stays unconverted,
        // without an error, even when the input is flushed
        let _ = flush;
        true
    }

    /// ICU's `ISO-10646-UCS-4` through libxml2's `xmlUconvWrapper`: it
    /// fails (`xmlCharEncInput`'s -2) only on an illegal unit with nothing
    /// written by the call, and the unit is taken: the next call goes on
    /// after it.
    fn convert_icu(&mut self, data: &[u8], out: &mut Vec<u8>, flush: bool) -> bool {
        if data.is_empty() {
            // xmlCharEncInput: no raw input, no call
            return true;
        }
        let start = out.len();
        let wide = self.wide.as_mut().expect("set with the mode");
        let (taken, stop) = wide.convert_icu(data, out, flush);
        self.raw_consumed += taken;
        self.pending = data[taken..].to_vec();
        !(stop == Stop::Illegal && out.len() == start)
    }

    /// ICU raw input is left to convert: libxml2's push loop converts it
    /// at each step (`xmlParseTryOrFinish`'s flush of the raw buffer).
    pub(super) fn icu_waits(&self) -> bool {
        matches!(self.mode, Mode::Wide(Form::IcuUtf32 | Form::IcuUtf16(_)))
            && !self.pending.is_empty()
    }

    /// The converter rejected `data[taken]` (iconv's `EILSEQ`): what it took
    /// counts as consumed, the rest stays raw, and conversion stops.
    fn reject(&mut self, data: &[u8], taken: usize) -> bool {
        self.raw_consumed += taken;
        self.failed = true;
        self.pending = data[taken..].to_vec();
        false
    }
}

/// The decoder libxml2 finds for a declared encoding name
/// (`xmlFindCharEncodingHandler`): its own handlers by exact upper-case name
/// first, then iconv's charsets; `None` is "Unsupported encoding".
pub(super) fn table_for(name: &[u8]) -> Option<Mode> {
    let n: Vec<u8> = name.iter().map(u8::to_ascii_uppercase).collect();
    match n.as_slice() {
        // the built-in handler, the names `xmlParseCharEncoding` maps to it,
        // and ICU's spelling
        b"ISO-8859-1" | b"ISO-LATIN-1" | b"ISO LATIN 1" | b"LATIN-1" => Some(Mode::Latin1),
        b"ASCII" | b"US-ASCII" => Some(Mode::Ascii),
        // iconv does not know it; ICU's UTF-32 does
        b"ISO-10646-UCS-4" => Some(Mode::Wide(Form::IcuUtf32)),
        _ => SingleByte::for_label(&n)
            .map(Mode::SingleByte)
            .or_else(|| MultiByte::for_label(&n).map(Mode::MultiByte))
            .or_else(|| super::charsets::form_for_label(&n).map(Mode::Wide))
            .or_else(|| super::charsets::is_iso_2022_jp(&n).then_some(Mode::Iso2022Jp))
            .or_else(|| Composing::for_label(&n).map(Mode::Composing))
            // iconv does not know the label: ICU's converters
            .or_else(|| SingleByte::for_icu_label(&n).map(Mode::SingleByte)),
    }
}

/// libxml2's `UTF16LEToUTF8` and `UTF16BEToUTF8`: the UTF-8 of the whole
/// units of `data` appended to `out`; `Ok` with the bytes taken (a unit or
/// surrogate pair cut at the end waits), `Err` with where a high surrogate
/// lacks its low one.
fn utf16_to_utf8(data: &[u8], le: bool, out: &mut Vec<u8>) -> Result<usize, usize> {
    let unit = |k: usize| -> u32 {
        if le {
            u32::from(data[k]) | (u32::from(data[k + 1]) << 8)
        } else {
            (u32::from(data[k]) << 8) | u32::from(data[k + 1])
        }
    };
    let mut i = 0;
    while i + 1 < data.len() {
        let u = unit(i);
        if (0xD800..0xDC00).contains(&u) {
            if i + 3 >= data.len() {
                break;
            }
            let v = unit(i + 2);
            if !(0xDC00..0xE000).contains(&v) {
                return Err(i);
            }
            let c = 0x10000 + ((u - 0xD800) << 10) + (v - 0xDC00);
            super::chars::push_utf8(out, c);
            i += 4;
        } else {
            // libxml2's UTF16LEToUTF8 checks only that a high surrogate has
            // its low one: a lone low surrogate is passed on, for the parser
            // to reject as a character
            super::chars::push_utf8(out, u);
            i += 2;
        }
    }
    Ok(i)
}
