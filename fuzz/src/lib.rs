//! Shared pieces of the fuzz targets: how the first bytes of an input choose
//! the parser's creation and options (the same choices the PHP reference
//! scripts offer), chunk plans, and a recording handler (bytes and `&str`).
//!
//! Input layout of the parser targets:
//!
//! ```text
//! byte 0   creation: bits 0-2 encoding (none, "", ISO-8859-1, US-ASCII, UTF-8, utf-8, ...),
//!          bit 3 namespace mode, bits 4-6 separator (":", "@", "#", "|", "::", "->", "", "^"),
//!          bit 7 an XML declaration with an encoding is put before the document
//! byte 1   bit 0 case folding option given, bit 1 its value, bit 2 skip white given,
//!          bit 3 its value, bits 4-5 target encoding (not given, ISO-8859-1, US-ASCII, UTF-8),
//!          bits 6-7 skip tagstart (not given, 1, 3, 100)
//! byte 2   which handlers are set (one bit per handler kind; 0xFF = all, as trace.php)
//! byte 3   with byte 0 bit 7 only: the declared encoding, a `DECLARATIONS` index (mod
//!          its length)
//! rest     the document (after the declaration, when there is one)
//! ```
//!
//! `fuzz/make-corpus.py` writes the fixtures in this layout, with the bytes
//! their `.args` stand for.

// The reference script's argument rules (`phpxml::testing`), so that a
// finding replays with `phpxml trace ARGS FILE`.
use phpxml::testing::{Command, Invocation};
use phpxml::{Handler, HandlerSet, Key, Parser};

/// Bytes before the document in the parser targets.
pub const HEADER: usize = 3;

const ENCODINGS: [Option<&str>; 8] = [
    None,
    Some(""),
    Some("ISO-8859-1"),
    Some("US-ASCII"),
    Some("UTF-8"),
    Some("utf-8"),
    Some("iso-8859-1"),
    None,
];
/// Labels the declaration chooses among: one or more of each kind of
/// charset phpxml decodes (iconv's single-byte, CJK, ISO 6937's family,
/// UCS-2/UCS-4/UTF-32, ISO-2022-JP, the composing ones, ICU's single-byte
/// ones).
pub const DECLARATIONS: [&str; 37] = [
    "windows-1251",
    "KOI8-R",
    "ISO-8859-2",
    "ISO8859-7",
    "IBM037",
    "macintosh",
    "CP866",
    "TIS-620",
    "Shift_JIS",
    "windows-31j",
    "EUC-JP",
    "GB2312",
    "GBK",
    "GB18030",
    "Big5",
    "Big5-HKSCS",
    "EUC-KR",
    "CP949",
    "JOHAB",
    "EUC-JISX0213",
    "ISO_6937",
    "T.61",
    "EUC-TW",
    "UCS-2",
    "UCS-2BE",
    "UCS-4",
    "UTF-32",
    "UTF-32BE",
    "UTF-16LE",
    "ISO-2022-JP",
    "windows-1255",
    "windows-1258",
    "TCVN",
    "x-mac-cyrillic",
    "LATIN-2",
    "windows-28595",
    "ascii7",
];
const SEPARATORS: [&str; 8] = [":", "@", "#", "|", "::", "->", "", "^"];
const TARGETS: [Option<&str>; 4] = [None, Some("ISO-8859-1"), Some("US-ASCII"), Some("UTF-8")];
const TAGSTARTS: [Option<&str>; 4] = [None, Some("1"), Some("3"), Some("100")];

/// The parser a header chooses, as reference-script arguments (so a finding
/// replays with `phpxml trace ARGS FILE` and the PHP reference script).
#[derive(Clone, Debug)]
pub struct Setup {
    /// The options of `struct.php` / `trace.php`, without the file.
    pub args: Vec<String>,
    /// The handlers set.
    pub handlers: HandlerSet,
    /// The encoding the document's declaration names, if one is put first.
    pub declaration: Option<&'static str>,
}

impl Setup {
    /// Splits an input into its setup and document; `None` if too short.
    #[must_use]
    pub fn split(data: &[u8]) -> Option<(Self, &[u8])> {
        if data.len() < HEADER {
            return None;
        }
        let (h, mut doc) = data.split_at(HEADER);
        let mut declaration = None;
        if h[0] & 0x80 != 0 {
            let (&k, rest) = doc.split_first()?;
            declaration = Some(DECLARATIONS[usize::from(k) % DECLARATIONS.len()]);
            doc = rest;
        }
        let mut args: Vec<String> = Vec::new();
        let mut push = |a: &str, v: &str| {
            args.push(a.to_owned());
            args.push(v.to_owned());
        };
        if let Some(enc) = ENCODINGS[usize::from(h[0] & 7)] {
            // An empty value cannot pass through the scripts' argument
            // parser; "" creation is reached through the library below.
            if !enc.is_empty() {
                push("--encoding", enc);
            }
        }
        if h[0] & 8 != 0 {
            let sep = SEPARATORS[usize::from((h[0] >> 4) & 7)];
            if !sep.is_empty() {
                push("--ns", sep);
            }
        }
        if h[1] & 1 != 0 {
            push("--case-folding", if h[1] & 2 != 0 { "1" } else { "0" });
        }
        if h[1] & 4 != 0 {
            push("--skip-white", if h[1] & 8 != 0 { "1" } else { "0" });
        }
        if let Some(t) = TARGETS[usize::from((h[1] >> 4) & 3)] {
            push("--target-encoding", t);
        }
        if let Some(s) = TAGSTARTS[usize::from(h[1] >> 6)] {
            push("--skip-tagstart", s);
        }
        let b = h[2];
        let handlers = HandlerSet {
            element: b & 1 != 0,
            character_data: b & 2 != 0,
            processing_instruction: b & 4 != 0,
            default: b & 8 != 0,
            unparsed_entity_decl: b & 16 != 0,
            notation_decl: b & 32 != 0,
            external_entity_ref: b & 64 != 0,
            start_namespace_decl: b & 128 != 0,
            end_namespace_decl: b & 128 != 0,
        };
        Some((
            Self {
                args,
                handlers,
                declaration,
            },
            doc,
        ))
    }

    /// The document parsed: `doc` after the chosen declaration, if any.
    #[must_use]
    pub fn document<'a>(&self, doc: &'a [u8]) -> std::borrow::Cow<'a, [u8]> {
        match self.declaration {
            None => doc.into(),
            Some(label) => {
                let decl = format!("<?xml version=\"1.0\" encoding=\"{label}\"?>");
                [decl.as_bytes(), doc].concat().into()
            }
        }
    }

    /// The reference-script invocation for `command` (file name unused).
    #[must_use]
    pub fn invocation(&self, command: Command) -> Invocation {
        Invocation::parse(command, &self.args).expect("the header only makes valid arguments")
    }

    /// A fresh parser with these options (`None` where PHP would throw).
    #[must_use]
    pub fn parser(&self) -> Option<Parser> {
        self.invocation(Command::Trace).make_parser().ok()
    }
}

/// Records every handler call in one line each, merging adjacent
/// character data and adjacent default data as `trace.php` does, with the
/// handlers of a [`HandlerSet`] set.
#[derive(Debug)]
pub struct Recorder {
    set: HandlerSet,
    /// The record so far.
    pub lines: Vec<Vec<u8>>,
    pending: Option<(u8, Vec<u8>)>,
}

impl Recorder {
    /// A recorder with `set` installed.
    #[must_use]
    pub fn new(set: HandlerSet) -> Self {
        Self {
            set,
            lines: Vec::new(),
            pending: None,
        }
    }

    fn flush(&mut self) {
        if let Some((kind, text)) = self.pending.take() {
            let mut l = vec![kind, b' '];
            l.extend_from_slice(&text);
            self.lines.push(l);
        }
    }

    fn text(&mut self, kind: u8, data: &[u8]) {
        match &mut self.pending {
            Some((k, t)) if *k == kind => t.extend_from_slice(data),
            _ => {
                self.flush();
                self.pending = Some((kind, data.to_vec()));
            }
        }
    }

    fn line(&mut self, parts: &[&[u8]]) {
        self.flush();
        let mut l = Vec::new();
        for p in parts {
            l.extend_from_slice(&(p.len() as u64).to_le_bytes());
            l.extend_from_slice(p);
        }
        self.lines.push(l);
    }

    /// The record, with the result of the parse appended.
    #[must_use]
    pub fn finish(mut self, parser: &Parser, ok: bool) -> Vec<Vec<u8>> {
        self.flush();
        self.lines.push(
            format!(
                "ok {} result {} {} {} {}",
                u8::from(ok),
                parser.error_code(),
                parser.line(),
                parser.column(),
                parser.byte_index()
            )
            .into_bytes(),
        );
        self.lines
    }
}

fn opt(o: Option<&[u8]>) -> &[u8] {
    o.unwrap_or(b"\0null")
}

impl Handler for Recorder {
    fn installed(&self) -> HandlerSet {
        self.set
    }

    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        let keys: Vec<Vec<u8>> = attributes
            .iter()
            .map(|(k, _)| k.to_bytes().into_owned())
            .collect();
        let mut parts: Vec<&[u8]> = vec![b"start", name];
        for ((_, v), k) in attributes.iter().zip(&keys) {
            parts.push(k);
            parts.push(v);
        }
        self.line(&parts);
    }

    fn end_element(&mut self, name: &[u8]) {
        self.line(&[b"end", name]);
    }

    fn character_data(&mut self, data: &[u8]) {
        self.text(b'c', data);
    }

    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        self.line(&[b"pi", target, opt(data)]);
    }

    fn default_data(&mut self, data: &[u8]) {
        self.text(b'd', data);
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        self.line(&[
            b"unparsed",
            name,
            opt(base),
            opt(system_id),
            opt(public_id),
            opt(notation),
        ]);
    }

    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
        self.line(&[b"notation", name, opt(base), opt(system_id), opt(public_id)]);
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        self.line(&[
            b"extref",
            open_entity_names,
            opt(base),
            opt(system_id),
            opt(public_id),
        ]);
        // Refuse now and then, so that error 21 is reached too.
        system_id != Some(b"refuse")
    }

    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        self.line(&[b"start_ns", opt(prefix), uri]);
    }

    fn end_namespace_decl(&mut self, prefix: Option<&[u8]>) {
        self.line(&[b"end_ns", opt(prefix)]);
    }
}

/// Checks the record of a [`Recorder`] driven through `&str` handlers
/// (`phpxml::testing::Utf8AsBytes`) against a byte [`Recorder`]'s of the
/// same parse: equal, or, when `feed_utf8` ended with
/// `Error::NotUtf8`, the byte record up to the string that stopped it
/// (the last line, a text, possibly cut there). Both end with the result
/// line of [`Recorder::finish`], compared only when equal is expected.
///
/// # Panics
///
/// When the records differ otherwise.
pub fn assert_utf8_record(bytes: &[Vec<u8>], utf8: &[Vec<u8>], not_utf8: bool) {
    if !not_utf8 {
        assert_eq!(utf8, bytes, "&str record");
        return;
    }
    let calls = &utf8[..utf8.len().saturating_sub(1)];
    if let Some((last, before)) = calls.split_last() {
        assert_eq!(before, &bytes[..before.len()], "&str record");
        let line = bytes.get(before.len()).expect("as many lines");
        assert!(line.starts_with(last), "&str record's last line");
    }
}

/// A chunk plan: the sizes pieces are cut to, cyclically.
///
/// Byte `m` below 128 means fixed pieces of `m + 1` bytes (what
/// `trace.php --chunk N` does, so a finding can be checked against PHP);
/// otherwise the next `(m & 15) + 1` bytes are sizes (each byte `b` is
/// `b + 1` bytes), used in turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The piece sizes, used cyclically.
    pub sizes: Vec<usize>,
}

impl Plan {
    /// Reads a plan from the front of `data`; returns it and the rest.
    #[must_use]
    pub fn split(data: &[u8]) -> Option<(Self, &[u8])> {
        let (&m, rest) = data.split_first()?;
        if m < 128 {
            return Some((
                Self {
                    sizes: vec![usize::from(m) + 1],
                },
                rest,
            ));
        }
        let n = usize::from(m & 15) + 1;
        if rest.len() < n {
            return None;
        }
        let (s, rest) = rest.split_at(n);
        Some((
            Self {
                sizes: s.iter().map(|&b| usize::from(b) + 1).collect(),
            },
            rest,
        ))
    }

    /// The pieces of `doc`, in order.
    pub fn pieces<'a>(&'a self, doc: &'a [u8]) -> impl Iterator<Item = &'a [u8]> + 'a {
        let mut at = 0;
        let mut k = 0;
        std::iter::from_fn(move || {
            if at >= doc.len() {
                return None;
            }
            let n = self.sizes[k % self.sizes.len()].min(doc.len() - at);
            k += 1;
            let piece = &doc[at..at + n];
            at += n;
            Some(piece)
        })
    }

    /// Where the pieces of a document of `len` bytes end, its end excluded.
    #[must_use]
    pub fn boundaries(&self, len: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let (mut at, mut k) = (0, 0);
        while at < len {
            at = (at + self.sizes[k % self.sizes.len()]).min(len);
            k += 1;
            if at < len {
                out.push(at);
            }
        }
        out
    }

    /// Whether the plan is fixed-size (replayable with `--chunk N`).
    #[must_use]
    pub fn fixed(&self) -> Option<usize> {
        (self.sizes.len() == 1).then(|| self.sizes[0])
    }
}

mod chunking;
pub use chunking::{Outcome, chunking_matters};
