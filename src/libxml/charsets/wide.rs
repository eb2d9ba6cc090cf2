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
    /// ICU's `UTF-16LE` or `UTF-16BE`, opened for a name iconv does not
    /// know (`UTF16-LE`, `UTF_16BE`).
    IcuUtf16(Order),
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
#[derive(Clone, Debug)]
pub(crate) struct WideDecoder {
    form: Form,
    /// The order a BOM-reading form settled on; `None` before its first unit.
    settled: Option<Order>,
    /// ICU's converter, for `Form::IcuUtf32`.
    icu: IcuUtf32,
    /// ICU's converter, for `Form::IcuUtf16`.
    icu16: IcuUtf16,
}

impl WideDecoder {
    pub(crate) fn new(form: Form) -> Self {
        WideDecoder {
            form,
            settled: None,
            icu: IcuUtf32::default(),
            icu16: IcuUtf16::default(),
        }
    }

    /// Bytes per code unit.
    fn unit(&self) -> usize {
        match self.form {
            Form::Ucs2(_) | Form::Ucs2Bom => 2,
            _ => 4,
        }
    }

    /// Converts whole units of `raw`, appending UTF-8 to `out`: the bytes
    /// consumed and why it stopped. An illegal unit is not consumed; an
    /// incomplete one at the end is left. `Form::IcuUtf32` converts as
    /// [`convert_icu`](Self::convert_icu) without flush.
    pub(crate) fn convert(&mut self, raw: &[u8], out: &mut Vec<u8>) -> (usize, Stop) {
        if matches!(self.form, Form::IcuUtf32 | Form::IcuUtf16(_)) {
            return self.convert_icu(raw, out, false);
        }
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
                (Form::Ucs2Bom | Form::Utf32Bom | Form::IcuUtf32 | Form::IcuUtf16(_), None) => {
                    let bom = if be == 0xFEFF {
                        Some(Order::Be)
                    } else if le == 0xFEFF {
                        Some(Order::Le)
                    } else {
                        None
                    };
                    self.settled = Some(bom.unwrap_or(Order::Le));
                    if bom.is_some() {
                        i += unit;
                        continue;
                    }
                    Order::Le
                }
            };
            let c = if order == Order::Le { le } else { be };
            let surrogate = (0xD800..0xE000).contains(&c);
            let ok = match self.form {
                Form::Ucs2(_) | Form::Ucs2Bom => !surrogate,
                Form::Ucs4(_) => !surrogate && c <= 0x7FFF_FFFF,
                Form::Utf32(_) | Form::Utf32Bom | Form::IcuUtf32 | Form::IcuUtf16(_) => {
                    !surrogate && c <= 0x10_FFFF
                }
            };
            if !ok {
                return (i, Stop::Illegal);
            }
            push_extended_utf8(out, c);
            i += unit;
        }
        (i, Stop::Done)
    }

    /// `Form::IcuUtf32` or `Form::IcuUtf16`: one call of ICU's converter
    /// ([`IcuUtf32`], [`IcuUtf16`]); the
    /// bytes taken (all but what follows an illegal unit, which is taken)
    /// and whether it met an illegal unit. `flush` is the flag
    /// `xmlCharEncInput` passes.
    pub(crate) fn convert_icu(
        &mut self,
        raw: &[u8],
        out: &mut Vec<u8>,
        flush: bool,
    ) -> (usize, Stop) {
        let (n, stop) = match self.form {
            Form::IcuUtf16(order) => self.icu16.convert(order, raw, out, flush),
            _ => self.icu.convert(raw, out, flush),
        };
        (
            n,
            if stop == IcuStop::Illegal {
                Stop::Illegal
            } else {
                Stop::Done
            },
        )
    }
}

/// How a call of ICU's converter ended (`ucnv_convertEx`'s error code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum IcuStop {
    /// `U_ZERO_ERROR`.
    Done,
    /// `U_TRUNCATED_CHAR_FOUND`: a flushing call ended inside a unit.
    Truncated,
    /// `U_ILLEGAL_CHAR_FOUND`: a unit past U+10FFFF or a surrogate (taken).
    Illegal,
}

/// UTF-16 units of ICU's pivot buffer in `xmlUconvWrapper`
/// (`ICU_PIVOT_BUF_SIZE`).
const ICU_PIVOT_UNITS: usize = 1024;

/// ICU's `ISO-10646-UCS-4` (its `UTF-32` converter) as libxml2's
/// `xmlUconvWrapper` drives it through `ucnv_convertEx`: a BOM read byte by
/// byte, big-endian without one; a unit cut by a call's end held; the pivot
/// kept across calls.
#[derive(Clone, Debug, Default)]
struct IcuUtf32 {
    /// The order, once the BOM is read or missed (the converter's `mode`
    /// 8 or 9); `None` while it sniffs.
    order: Option<Order>,
    /// Bytes of a BOM seen so far (`mode` 1–3, 5–7).
    bom: Vec<u8>,
    /// The bytes of a unit cut by the end of a call (`toUBytes`).
    held: Vec<u8>,
    /// `toUnicodeStatus`: the value of the last unit cut short, plus one.
    /// Dropping a truncated unit leaves it; a flushing call that ends on an
    /// illegal unit reads it back as one more character (the UTF-32
    /// converter's end-of-input call of `T_UConverter_toUnicode_UTF32_BE`).
    status: u32,
    /// The UTF-8 of what the last call left in the pivot buffer: a call
    /// that ends in an error keeps the output of its last pivot's worth of
    /// units there, and the next call writes it out first.
    pivot: Vec<u8>,
}

impl IcuUtf32 {
    /// One `xmlUconvWrapper` call: the pivot left by the last call, then
    /// the UTF-8 of `data`, appended to `out`; returns the bytes taken and
    /// how it ended. A flushing call that succeeds resets the converter
    /// (`_reset`: the next byte may start a BOM again).
    fn convert(&mut self, data: &[u8], out: &mut Vec<u8>, flush: bool) -> (usize, IcuStop) {
        out.append(&mut self.pivot);
        let mut pivot = Pivot::new(out.len());
        let mut i = 0;
        let mut stop = IcuStop::Done;
        let mut illegal_at_end = false;
        while i < data.len() {
            let Some(order) = self.order else {
                let b = data[i];
                let want = match self.bom.first() {
                    None if b == 0 || b == 0xFF => b,
                    None => {
                        self.order = Some(Order::Be);
                        continue;
                    }
                    Some(0) => [0, 0, 0xFE, 0xFF][self.bom.len()],
                    Some(_) => [0xFF, 0xFE, 0, 0][self.bom.len()],
                };
                if b == want {
                    self.bom.push(b);
                    i += 1;
                    if self.bom.len() == 4 {
                        self.order = Some(if self.bom[0] == 0 {
                            Order::Be
                        } else {
                            Order::Le
                        });
                        self.bom.clear();
                    }
                } else {
                    // not a BOM: its bytes start a big-endian unit
                    self.order = Some(Order::Be);
                    self.held = std::mem::take(&mut self.bom);
                }
                continue;
            };
            if !self.held.is_empty() {
                // the held unit is taken up again: its status is spent
                self.status = 0;
            }
            let need = 4 - self.held.len();
            if data.len() - i < need {
                self.held.extend_from_slice(&data[i..]);
                i = data.len();
                self.status = unit_value(&self.held, order) + 1;
                break;
            }
            self.held.extend_from_slice(&data[i..i + need]);
            i += need;
            let c = unit_value(&self.held, order);
            self.held.clear();
            if c > 0x10_FFFF || (0xD800..0xE000).contains(&c) {
                stop = IcuStop::Illegal;
                illegal_at_end = i == data.len();
                break;
            }
            pivot.emit(out, c);
        }
        if flush && stop == IcuStop::Done && (!self.held.is_empty() || !self.bom.is_empty()) {
            // a unit cut by the end: dropped (the stop callback); a BOM
            // begun is replayed as the start of a big-endian unit
            if self.held.is_empty() {
                self.status = unit_value(&self.bom, Order::Be) + 1;
            }
            stop = IcuStop::Truncated;
            self.held.clear();
            self.bom.clear();
            self.order.get_or_insert(Order::Be);
        }
        if flush && illegal_at_end {
            // the end-of-input call reads the illegal unit back as a unit
            // cut short, of the value the status holds
            let c = self.status.wrapping_sub(1);
            self.status = 0;
            if c <= 0x10_FFFF && !(0xD800..0xE000).contains(&c) {
                pivot.emit(out, c);
            }
        }
        match stop {
            IcuStop::Done if flush => *self = IcuUtf32::default(),
            IcuStop::Done => {}
            IcuStop::Truncated | IcuStop::Illegal => self.pivot = pivot.kept(out),
        }
        (i, stop)
    }
}

/// ICU's `UTF-16LE` or `UTF-16BE` as libxml2's `xmlUconvWrapper` drives
/// it through `ucnv_convertEx` (`_UTF16LEToUnicodeWithOffsets`): the bytes
/// of a unit or a surrogate pair cut by a call's end held, and dropped by a
/// flushing call (every push flushes); the pivot kept across calls as for
/// [`IcuUtf32`].
#[derive(Clone, Debug, Default)]
struct IcuUtf16 {
    /// The bytes of a unit or pair cut by the end of a call (`toUBytes`).
    held: Vec<u8>,
    /// The UTF-8 a call that ended in an error left in the pivot.
    pivot: Vec<u8>,
}

impl IcuUtf16 {
    /// One `xmlUconvWrapper` call, as [`IcuUtf32::convert`]: a lead
    /// surrogate without its trail, or a lone trail, is illegal (taken, the
    /// unit after a lead is not).
    fn convert(
        &mut self,
        order: Order,
        data: &[u8],
        out: &mut Vec<u8>,
        flush: bool,
    ) -> (usize, IcuStop) {
        out.append(&mut self.pivot);
        let mut pivot = Pivot::new(out.len());
        let mut i = 0;
        let mut stop = IcuStop::Done;
        while i < data.len() {
            let need = 2 - self.held.len() % 2;
            if data.len() - i < need {
                self.held.extend_from_slice(&data[i..]);
                i = data.len();
                break;
            }
            self.held.extend_from_slice(&data[i..i + need]);
            i += need;
            let h = &self.held;
            let unit = |k: usize| -> u32 {
                let (a, b) = (u32::from(h[k]), u32::from(h[k + 1]));
                if order == Order::Le {
                    a | (b << 8)
                } else {
                    (a << 8) | b
                }
            };
            let first = unit(0);
            if h.len() == 4 {
                let second = unit(2);
                if (0xDC00..0xE000).contains(&second) {
                    pivot.emit(out, 0x1_0000 + ((first - 0xD800) << 10) + (second - 0xDC00));
                    self.held.clear();
                    continue;
                }
                // the unit after an unmatched lead is read again (its bytes
                // from an earlier call stay held)
                let back = i.min(2);
                i -= back;
                self.held = self.held[2..4 - back].to_vec();
                stop = IcuStop::Illegal;
                break;
            }
            if (0xD800..0xDC00).contains(&first) {
                continue;
            }
            self.held.clear();
            if (0xDC00..0xE000).contains(&first) {
                stop = IcuStop::Illegal;
                break;
            }
            pivot.emit(out, first);
        }
        if flush && stop == IcuStop::Done && !self.held.is_empty() {
            // a unit cut by the end: dropped (the stop callback)
            self.held.clear();
            stop = IcuStop::Truncated;
        }
        if stop != IcuStop::Done {
            self.pivot = pivot.kept(out);
        }
        (i, stop)
    }
}

/// The value of a (possibly partial) unit's bytes in `order`, as ICU's
/// UTF-32 converters accumulate it.
fn unit_value(bytes: &[u8], order: Order) -> u32 {
    match order {
        Order::Be => bytes.iter().fold(0, |v, &b| (v << 8) | u32::from(b)),
        Order::Le => bytes.iter().rev().fold(0, |v, &b| (v << 8) | u32::from(b)),
    }
}

/// `ucnv_convertEx`'s rounds through the pivot: UTF-16 units fill it, and
/// a full pivot is written out before the next unit is read. A call that
/// ends in an error leaves its last round in the pivot.
struct Pivot {
    /// Units in the current round.
    fill: usize,
    /// Where in the output the current round's characters begin.
    round_start: usize,
}

impl Pivot {
    fn new(start: usize) -> Self {
        Pivot {
            fill: 0,
            round_start: start,
        }
    }

    fn emit(&mut self, out: &mut Vec<u8>, c: u32) {
        let units = if c >= 0x1_0000 { 2 } else { 1 };
        if self.fill == ICU_PIVOT_UNITS {
            self.fill = 0;
        }
        if self.fill == 0 {
            self.round_start = out.len();
        }
        push_extended_utf8(out, c);
        if self.fill + units > ICU_PIVOT_UNITS {
            // a pair cut by the full pivot: its trail goes out through the
            // overflow buffer, and the next round starts after it
            self.fill = 0;
        } else {
            self.fill += units;
        }
    }

    /// The output of the round left in the pivot, taken off `out`.
    fn kept(&self, out: &mut Vec<u8>) -> Vec<u8> {
        if self.fill == 0 || self.fill == ICU_PIVOT_UNITS {
            return Vec::new();
        }
        out.split_off(self.round_start)
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

    /// Calls of ICU's converter in turn (`raw`, flush): what each wrote
    /// and took. The expectations are what ICU 72's `ucnv_convertEx` gives
    /// when called as libxml2's `xmlUconvWrapper` calls it.
    fn icu_calls(calls: &[(&[u8], bool)]) -> Vec<(Vec<u8>, usize, IcuStop)> {
        let mut icu = IcuUtf32::default();
        calls_of(|raw, out, flush| icu.convert(raw, out, flush), calls)
    }

    /// Each call's output, bytes taken and stop, `convert` called in turn.
    fn calls_of<S>(
        mut convert: impl FnMut(&[u8], &mut Vec<u8>, bool) -> (usize, S),
        calls: &[(&[u8], bool)],
    ) -> Vec<(Vec<u8>, usize, S)> {
        calls
            .iter()
            .map(|&(raw, flush)| {
                let mut out = Vec::new();
                let (n, stop) = convert(raw, &mut out, flush);
                (out, n, stop)
            })
            .collect()
    }

    #[test]
    fn icu_holds_a_cut_unit_without_flush_and_drops_it_with() {
        use IcuStop::{Done, Truncated};
        assert_eq!(
            icu_calls(&[(b"\0\0\0<\0\0", false), (b"\0A", true)]),
            [(b"<".to_vec(), 6, Done), (b"A".to_vec(), 2, Done)]
        );
        // dropped: the next call starts a unit of its own, and the output
        // of the failing call waits in the pivot
        assert_eq!(
            icu_calls(&[(b"\0\0\0A\0\0", true), (b"\0\0\0B", true)]),
            [(b"".to_vec(), 6, Truncated), (b"AB".to_vec(), 4, Done)]
        );
    }

    #[test]
    fn icu_keeps_a_failing_call_output_and_takes_the_illegal_unit() {
        use IcuStop::{Done, Illegal};
        assert_eq!(
            icu_calls(&[(b"\0\0\0A\0\x11\0\0\0\0\0B", true), (b"\0\0\0C", true)]),
            [(b"".to_vec(), 8, Illegal), (b"AC".to_vec(), 4, Done)]
        );
    }

    #[test]
    fn icu_reads_a_dropped_unit_back_after_an_illegal_last_unit() {
        use IcuStop::{Illegal, Truncated};
        // "00 00 00" dropped leaves the value 0: a later flushing call that
        // ends on an illegal unit writes U+0000 into the pivot
        assert_eq!(
            icu_calls(&[(b"\0\0\0A\0\0\0", true), (b">\0\0\0", true), (b"", true)]),
            [
                (b"".to_vec(), 7, Truncated),
                (b"A".to_vec(), 4, Illegal),
                (b"\0".to_vec(), 0, IcuStop::Done)
            ]
        );
        // not at the end of the call: nothing read back
        assert_eq!(
            icu_calls(&[(b"\0\0\0A\0\0\0", true), (b">\0\0\0\0\0\0B", true)])[1].0,
            b"A"
        );
    }

    #[test]
    fn icu_reads_a_bom_again_after_a_flushing_call_that_succeeds() {
        let le = icu_calls(&[(b"\0\0\0A", true), (b"\xff\xfe\0\0B\0\0\0", true)]);
        assert_eq!(le[1].0, b"B");
        let bom = icu_calls(&[(b"\0\0\0A", true), (b"\0\0\xfe\xff\0\0\0B", true)]);
        assert_eq!(bom[1].0, b"B");
        // without flush the order stays: U+FEFF is a character
        let kept = icu_calls(&[(b"\0\0\0A", false), (b"\0\0\xfe\xff\0\0\0B", true)]);
        assert_eq!(kept[1].0, "\u{feff}B".as_bytes());
    }

    #[test]
    fn icu_keeps_only_the_last_pivot_round_of_a_failing_call() {
        let mut raw: Vec<u8> = b"\0\0\0x".repeat(1030);
        raw.extend_from_slice(b"\0\0\xd8\0");
        let calls = icu_calls(&[(&raw, true), (b"\0\0\0y", true)]);
        assert_eq!(calls[0].0.len(), 1024);
        assert_eq!(calls[1].0, b"xxxxxxy");
        // a pair cut by the full pivot goes out with the round it starts
        let mut raw: Vec<u8> = b"\0\0\0x".repeat(1023);
        raw.extend_from_slice(b"\0\x01\0\0");
        raw.extend_from_slice(&b"\0\0\0x".repeat(5));
        raw.extend_from_slice(b"\0\0\xd8\0");
        let calls = icu_calls(&[(&raw, true), (b"\0\0\0y", true)]);
        assert_eq!(calls[0].0.len(), 1023 + 4);
        assert_eq!(calls[1].0, b"xxxxxy");
    }

    /// Calls of ICU's UTF-16LE: each call's output and bytes taken.
    fn icu16_calls(calls: &[(&[u8], bool)]) -> Vec<(Vec<u8>, usize, Stop)> {
        let mut wide = WideDecoder::new(Form::IcuUtf16(Order::Le));
        calls_of(|raw, out, flush| wide.convert_icu(raw, out, flush), calls)
    }

    #[test]
    fn icu_utf16_drops_a_cut_unit_when_flushed_and_keeps_the_output_back() {
        // the odd byte is dropped; the call's output waits in the pivot
        let calls = icu16_calls(&[(b"a\0b", true), (b"c\0", true)]);
        assert_eq!(calls[0], (Vec::new(), 3, Stop::Done));
        assert_eq!(calls[1], (b"ac".to_vec(), 2, Stop::Done));
        // without flush the byte is held and completes the next unit
        let calls = icu16_calls(&[(b"a\0b", false), (b"\0c\0", true)]);
        assert_eq!(calls[0].0, b"a");
        assert_eq!(calls[1].0, b"bc");
    }

    #[test]
    fn icu_utf16_pairs_and_lone_surrogates() {
        let calls = icu16_calls(&[(b"=\xd8", false), (b"\0\xdeA\0", true)]);
        assert_eq!(calls[1].0, "\u{1F600}A".as_bytes());
        // a lone trail is taken; after a lone lead the next unit is not
        assert_eq!(icu16_calls(&[(b"A\0\0\xdcB\0", true)])[0].1, 4);
        let lead = icu16_calls(&[(b"A\0\0\xd8B\0", true)]);
        assert_eq!((lead[0].1, lead[0].2), (4, Stop::Illegal));
    }
}
