//! The handlers of `trace.php`: one line per handler call.

use std::io::{self, Write};

use super::quote::{arg, quote, quote_body, quote_cut};
use super::write_result_line;
use crate::json::sink::SPILL_AT;
use crate::php::{Handler, HandlerSet, Key, Parser};

#[derive(Clone, Copy, PartialEq, Eq)]
enum TextKind {
    Cdata,
    Default,
}

/// The handler of `trace.php`: every handler set, one line per call,
/// adjacent character data (and adjacent default data) merged into one
/// line.
///
/// Memory stays bounded however long the document: a quiet trace keeps no
/// lines at all, a merged text line is quoted out in pieces as it grows, and
/// [`Trace::write_lines`] hands the finished lines to a writer.
///
/// ```
/// use phpxml::{Parser, report::Trace};
///
/// let mut parser = Parser::new(None).unwrap();
/// let mut trace = Trace::new();
/// let ok = parser.parse(&mut trace, br#"<a x="1">t<?p d?></a>"#, true);
/// assert_eq!(
///     String::from_utf8(trace.finish(&parser, ok, false)).unwrap(),
///     "start \"A\" \"X\"=\"1\"\ncdata \"t\"\npi \"p\" \"d\"\nend \"A\"\nok 1\nresult 0 1 22 21 \"No error\"\n"
/// );
/// ```
#[derive(Default)]
pub struct Trace {
    lines: Vec<u8>,
    quiet: bool,
    pending: Option<TextKind>,
    /// Text of the pending line not quoted yet (at most about a piece).
    text: Vec<u8>,
    /// Whether the pending line's start is already in `lines`.
    text_started: bool,
}

/// Merged text is quoted out once this much of it is waiting.
const TEXT_PIECE: usize = 1 << 16;

impl Trace {
    /// An empty trace that keeps its lines.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty trace for `--quiet`: the same handler calls, no lines kept.
    #[must_use]
    pub fn quiet() -> Self {
        Self {
            quiet: true,
            ..Self::default()
        }
    }

    fn start_text_line(&mut self, kind: TextKind) {
        self.lines.extend_from_slice(match kind {
            TextKind::Cdata => b"cdata \"",
            TextKind::Default => b"default \"",
        });
        self.text_started = true;
    }

    fn flush(&mut self) {
        if let Some(kind) = self.pending.take() {
            if !self.text_started {
                self.start_text_line(kind);
            }
            quote_body(&self.text, &mut self.lines);
            self.lines.extend_from_slice(b"\"\n");
            self.text.clear();
            self.text_started = false;
        }
    }

    fn add_text(&mut self, kind: TextKind, data: &[u8]) {
        if self.quiet {
            return;
        }
        if self.pending != Some(kind) {
            self.flush();
            self.pending = Some(kind);
        }
        self.text.extend_from_slice(data);
        if self.text.len() >= TEXT_PIECE {
            if !self.text_started {
                self.start_text_line(kind);
            }
            let cut = quote_cut(&self.text);
            quote_body(&self.text[..cut], &mut self.lines);
            self.text.drain(..cut);
        }
    }

    /// A declaration's line: the word, the quoted name and each other
    /// argument quoted (`false` for none).
    fn declaration_line(&mut self, word: &str, name: &[u8], args: &[Option<&[u8]>]) {
        let out = self.line(word);
        quote(name, out);
        for &a in args {
            out.push(b' ');
            arg(a, out);
        }
        out.push(b'\n');
    }

    /// Starts a line: flushes merged text, writes the word. In a quiet
    /// trace the line goes to a scratch buffer that is dropped at once.
    fn line(&mut self, word: &str) -> &mut Vec<u8> {
        if self.quiet {
            self.lines.clear();
        } else {
            self.flush();
        }
        self.lines.extend_from_slice(word.as_bytes());
        &mut self.lines
    }

    /// Writes the lines finished so far to `out` and forgets them. Text
    /// still being merged stays, ready to be continued.
    ///
    /// # Errors
    ///
    /// Whatever writing to `out` returns.
    pub fn write_lines(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if !self.quiet {
            out.write_all(&self.lines)?;
        }
        self.lines.clear();
        Ok(())
    }

    /// The script's output: the lines (unless `quiet`), `ok` with the
    /// return value of the last `xml_parse()` call and the `result` line.
    #[must_use]
    pub fn finish(mut self, parser: &Parser, ok: bool, quiet: bool) -> Vec<u8> {
        let mut out = Vec::new();
        if !(quiet || self.quiet) {
            self.flush();
            out = self.lines;
        }
        out.extend_from_slice(if ok { b"ok 1\n" } else { b"ok 0\n" });
        write_result_line(parser, &mut out);
        out
    }
}

impl Handler for Trace {
    fn installed(&self) -> HandlerSet {
        HandlerSet::ALL
    }

    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        let out = self.line("start ");
        quote(name, out);
        for (key, value) in attributes {
            out.push(b' ');
            quote(&key.to_bytes(), out);
            out.push(b'=');
            quote(value, out);
        }
        out.push(b'\n');
    }

    fn end_element(&mut self, name: &[u8]) {
        let out = self.line("end ");
        quote(name, out);
        out.push(b'\n');
    }

    fn character_data(&mut self, data: &[u8]) {
        self.add_text(TextKind::Cdata, data);
    }

    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        let out = self.line("pi ");
        quote(target, out);
        out.push(b' ');
        arg(data, out);
        out.push(b'\n');
    }

    fn default_data(&mut self, data: &[u8]) {
        self.add_text(TextKind::Default, data);
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        self.declaration_line(
            "unparsed_entity_decl ",
            name,
            &[base, system_id, public_id, notation],
        );
    }

    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
        self.declaration_line("notation_decl ", name, &[base, system_id, public_id]);
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        self.declaration_line(
            "external_entity_ref ",
            open_entity_names,
            &[base, system_id, public_id],
        );
        true
    }

    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        let out = self.line("start_ns ");
        arg(prefix, out);
        out.push(b' ');
        quote(uri, out);
        out.push(b'\n');
    }

    fn end_namespace_decl(&mut self, prefix: Option<&[u8]>) {
        let out = self.line("end_ns ");
        arg(prefix, out);
        out.push(b'\n');
    }
}

/// A [`Trace`] that writes its lines to `out` as they are made, in pieces
/// of about 64 KiB: the memory of `trace.php`'s output stays bounded by the
/// longest line's unquoted piece, not by the document.
///
/// Handlers cannot fail, so a failed write is kept: the lines after it are
/// dropped, and [`TraceWriter::finish`] returns the error.
///
/// ```
/// use phpxml::{Parser, report::TraceWriter};
///
/// let mut parser = Parser::new(None).unwrap();
/// let mut trace = TraceWriter::new(Vec::new(), false);
/// let ok = parser.parse(&mut trace, b"<a>t</a>", true);
/// let out = trace.finish(&parser, ok)?;
/// assert_eq!(out, b"start \"A\"\ncdata \"t\"\nend \"A\"\nok 1\nresult 0 1 9 8 \"No error\"\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct TraceWriter<W: Write> {
    trace: Trace,
    out: W,
    failed: Option<io::Error>,
}

impl<W: Write> TraceWriter<W> {
    /// A trace writing to `out` (`quiet`: only the `ok` and `result`
    /// lines, at the end).
    pub fn new(out: W, quiet: bool) -> Self {
        Self {
            trace: if quiet { Trace::quiet() } else { Trace::new() },
            out,
            failed: None,
        }
    }

    /// Writes the finished lines once enough of them wait.
    fn spill(&mut self) {
        if self.trace.lines.len() >= SPILL_AT {
            self.write_lines();
        }
    }

    /// Writes the lines finished so far (after a piece of input, say).
    pub fn write_lines(&mut self) {
        if self.failed.is_none()
            && let Err(e) = self.trace.write_lines(&mut self.out)
        {
            self.failed = Some(e);
        }
        self.trace.lines.clear();
    }

    /// Writes the rest of the script's output: the last lines, `ok` with
    /// the return value of the last `xml_parse()` call and the `result`
    /// line; gives the writer back (not flushed).
    ///
    /// # Errors
    ///
    /// The first error writing to `out` returned, now or during the parse.
    pub fn finish(mut self, parser: &Parser, ok: bool) -> io::Result<W> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let rest = self.trace.finish(parser, ok, false);
        self.out.write_all(&rest)?;
        Ok(self.out)
    }
}

// The text and tag calls are thin wrappers, marked `#[inline]` so that
// they fold into the parser's loop whatever codegen unit the caller is in.
impl<W: Write> Handler for TraceWriter<W> {
    fn installed(&self) -> HandlerSet {
        self.trace.installed()
    }

    #[inline]
    fn start_element(&mut self, name: &[u8], attributes: &[(Key, Vec<u8>)]) {
        self.trace.start_element(name, attributes);
        self.spill();
    }

    #[inline]
    fn end_element(&mut self, name: &[u8]) {
        self.trace.end_element(name);
        self.spill();
    }

    #[inline]
    fn character_data(&mut self, data: &[u8]) {
        self.trace.character_data(data);
        self.spill();
    }

    fn processing_instruction(&mut self, target: &[u8], data: Option<&[u8]>) {
        self.trace.processing_instruction(target, data);
        self.spill();
    }

    #[inline]
    fn default_data(&mut self, data: &[u8]) {
        self.trace.default_data(data);
        self.spill();
    }

    fn unparsed_entity_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
        notation: Option<&[u8]>,
    ) {
        self.trace
            .unparsed_entity_decl(name, base, system_id, public_id, notation);
        self.spill();
    }

    fn notation_decl(
        &mut self,
        name: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) {
        self.trace.notation_decl(name, base, system_id, public_id);
        self.spill();
    }

    fn external_entity_ref(
        &mut self,
        open_entity_names: &[u8],
        base: Option<&[u8]>,
        system_id: Option<&[u8]>,
        public_id: Option<&[u8]>,
    ) -> bool {
        let go_on = self
            .trace
            .external_entity_ref(open_entity_names, base, system_id, public_id);
        self.spill();
        go_on
    }

    fn start_namespace_decl(&mut self, prefix: Option<&[u8]>, uri: &[u8]) {
        self.trace.start_namespace_decl(prefix, uri);
        self.spill();
    }

    fn end_namespace_decl(&mut self, prefix: Option<&[u8]>) {
        self.trace.end_namespace_decl(prefix);
        self.spill();
    }
}
