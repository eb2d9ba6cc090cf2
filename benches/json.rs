//! `json_encode()` of strings: our escaper, with and without
//! `JSON_UNESCAPED_UNICODE`, against the same escaper built on the
//! reference decoder only (one character at a time, no run copying).
//!
//! The inputs are generated here from a fixed seed. To time PHP on the same
//! bytes, write them out and run the PHP script (see benches/JSON.md):
//!
//! ```text
//! JSON_BENCH_INPUTS=target/json-inputs cargo bench --bench json
//! php benches/php/json_bench.php target/json-inputs target/criterion
//! ```
//!
//! Every benchmark checks its output against the reference before timing.
//!
//! On a busy machine, `JSON_BENCH_QUICK=FILE cargo bench --bench json`
//! times the variants in turn and keeps the fastest of 300 rounds of each,
//! which criterion's means do not; `json_bench.php` reads FILE as well.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput};
use phpxml::json::{JsonFlags, escape_string, escape_string_reference};

/// A small xorshift generator, so the inputs are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const SIZE: usize = 4096;

/// Words joined by spaces (and `sep` every few words) up to `SIZE` bytes,
/// cut back to a character boundary.
fn text(rng: &mut Rng, words: &[&str], every: usize, extra: &[&str]) -> Vec<u8> {
    let mut s = String::new();
    let mut n = 0;
    while s.len() < SIZE {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(rng.pick(words));
        n += 1;
        if every > 0 && n % every == 0 {
            s.push_str(rng.pick(extra));
        }
    }
    while s.len() > SIZE {
        s.pop();
    }
    s.into_bytes()
}

const ENGLISH: &[&str] = &[
    "the",
    "quick",
    "brown",
    "fox",
    "jumps",
    "over",
    "lazy",
    "dog",
    "parser",
    "element",
    "value",
    "attribute",
    "encoding",
    "character",
    "data",
    "handler",
    "document",
    "while",
    "should",
    "return",
];
const RUSSIAN: &[&str] = &[
    "съешь",
    "же",
    "ещё",
    "этих",
    "мягких",
    "французских",
    "булок",
    "да",
    "выпей",
    "чаю",
    "разбор",
    "документа",
    "элемент",
    "значение",
    "кодировка",
];
const FRENCH: &[&str] = &[
    "le",
    "cœur",
    "déçu",
    "mais",
    "l'âme",
    "plutôt",
    "naïve",
    "Louÿs",
    "rêva",
    "de",
    "crapaüter",
    "en",
    "canoë",
    "au",
    "delà",
    "des",
    "îles",
    "près",
    "du",
    "mälström",
    "où",
    "brûlent",
    "les",
    "novæ",
    "élément",
    "caractère",
];
const CJK: &[&str] = &[
    "日本語",
    "の",
    "文書",
    "を",
    "解析",
    "する",
    "要素",
    "属性",
    "値",
    "文字",
    "符号化",
    "中文",
    "处理",
    "程序",
    "한국어",
    "문서",
];
const EMOJI: &[&str] = &["😀", "🎉", "👍", "🚀", "❤️", "🐘", "📦", "✨", "🔥", "🙈"];

/// The inputs: name and bytes, or for `short_lines` the lines one by one.
fn inputs() -> Vec<(&'static str, Vec<Vec<u8>>)> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let one = |v: Vec<u8>| vec![v];
    let mut list = vec![
        ("cyrillic", one(text(&mut rng, RUSSIAN, 9, &[",", "."]))),
        ("cjk", one(text(&mut rng, CJK, 7, &["、", "。"]))),
        ("french", one(text(&mut rng, FRENCH, 0, &[]))),
        ("emoji", one(text(&mut rng, EMOJI, 0, &[]))),
        ("english_emoji", one(text(&mut rng, ENGLISH, 4, EMOJI))),
    ];
    // ASCII with an é every 31 bytes on average, at random places.
    let mut s = Vec::new();
    while s.len() < SIZE - 1 {
        if rng.below(31) == 0 {
            s.extend_from_slice("é".as_bytes());
        } else {
            s.push(b"abcdefghijklmnopqrstuvwxyz ,."[rng.below(29)]);
        }
    }
    s.truncate(SIZE);
    if s.last().is_some_and(|&b| b == 0xC3) {
        s.pop();
    }
    list.push(("ascii_e_acute", one(s)));
    list.push(("ascii_16", one(b"element value 16".to_vec())));
    list.push(("ascii_4k", one(text(&mut rng, ENGLISH, 0, &[]))));
    let tags = ["div", "span", "a", "p", "li", "td"];
    let mut html = String::new();
    while html.len() < SIZE {
        let t = tags[rng.below(tags.len())];
        let w = rng.pick(ENGLISH);
        write!(
            html,
            "<{t} class=\"c{}\" id='x{}'>{w} &amp; {w}</{t}>",
            rng.below(9),
            rng.below(99)
        )
        .unwrap();
    }
    html.truncate(SIZE);
    list.push(("html", one(html.into_bytes())));
    let mut urls = String::new();
    while urls.len() < SIZE {
        write!(
            urls,
            "https://example.org/{}/{}/{}.html?id={} ",
            rng.pick(ENGLISH),
            rng.pick(ENGLISH),
            rng.below(1000),
            rng.below(100_000)
        )
        .unwrap();
    }
    urls.truncate(SIZE);
    list.push(("urls", one(urls.into_bytes())));
    let mut q: Vec<u8> = text(&mut rng, ENGLISH, 0, &[]);
    for i in (15..q.len()).step_by(16) {
        q[i] = b'"';
    }
    list.push(("quote_every_16", one(q)));
    let mut nl: Vec<u8> = text(&mut rng, ENGLISH, 0, &[]);
    for i in (39..nl.len()).step_by(40) {
        nl[i] = b'\n';
    }
    list.push(("newline_every_40", one(nl)));
    let lines = (0..1000)
        .map(|_| {
            let w = rng.pick(ENGLISH).as_bytes();
            w[..w.len().min(1 + rng.below(5))].to_vec()
        })
        .collect();
    list.push(("short_lines_1000", lines));
    list
}

/// An escaper: ours or the reference.
type Escaper = fn(&[u8], JsonFlags, &mut Vec<u8>) -> Result<(), phpxml::json::JsonError>;

fn escape_all(escape: Escaper, parts: &[Vec<u8>], flags: JsonFlags, out: &mut Vec<u8>) {
    out.clear();
    for p in parts {
        escape(p, flags, out).expect("valid UTF-8");
    }
}

fn write_inputs(dir: &std::path::Path) {
    std::fs::create_dir_all(dir).expect("create the input directory");
    for (name, parts) in inputs() {
        // short_lines: one line per string; the others: one string per file.
        std::fs::write(dir.join(format!("{name}.txt")), parts.join(&b'\n')).expect("write input");
    }
    eprintln!("inputs written to {}", dir.display());
}

fn benches(c: &mut Criterion) {
    for (name, parts) in inputs() {
        let bytes: usize = parts.iter().map(Vec::len).sum();
        let mut group = c.benchmark_group(format!("json/{name}"));
        group.throughput(Throughput::Bytes(bytes as u64));
        for (flags, suffix) in [
            (JsonFlags::NONE, ""),
            (JsonFlags::UNESCAPED_UNICODE, "_unicode"),
        ] {
            // The result is checked once, outside the timing.
            let (mut fast, mut plain) = (Vec::new(), Vec::new());
            escape_all(escape_string, &parts, flags, &mut fast);
            escape_all(escape_string_reference, &parts, flags, &mut plain);
            assert_eq!(fast, plain, "{name}{suffix}");
            assert!(fast.len() >= bytes + 2 * parts.len(), "{name}{suffix}");
            let expected = fast.len();
            for (label, escape) in [
                (
                    "ours",
                    escape_string as fn(&[u8], JsonFlags, &mut Vec<u8>) -> _,
                ),
                ("reference", escape_string_reference),
            ] {
                let mut out = Vec::with_capacity(expected);
                group.bench_with_input(
                    BenchmarkId::new(format!("{label}{suffix}"), bytes),
                    &parts,
                    |b, parts| {
                        b.iter(|| {
                            escape_all(escape, black_box(parts), flags, &mut out);
                            assert_eq!(out.len(), expected);
                        });
                    },
                );
            }
        }
        group.finish();
    }
}

/// The variants timed for each input: label, escaper, flags.
type Variant = (&'static str, Escaper, JsonFlags);

const VARIANTS: [Variant; 4] = [
    ("ours", escape_string, JsonFlags::NONE),
    ("reference", escape_string_reference, JsonFlags::NONE),
    ("ours_unicode", escape_string, JsonFlags::UNESCAPED_UNICODE),
    (
        "reference_unicode",
        escape_string_reference,
        JsonFlags::UNESCAPED_UNICODE,
    ),
];

/// A measurement that holds up on a busy machine: the variants take turns,
/// 300 rounds of about 0.2 ms each, and the fastest round of each counts.
/// Prints `input variant bytes ns_per_call` lines (for `json_bench.php`) to
/// the file `path`.
#[allow(clippy::cast_precision_loss)] // timings and rates as floats
fn quick(path: &std::path::Path) {
    use std::time::Instant;
    let mut report = String::new();
    for (name, parts) in inputs() {
        let bytes: usize = parts.iter().map(Vec::len).sum();
        let reps = (200_000 / bytes).max(1);
        let mut best = [f64::INFINITY; VARIANTS.len()];
        let mut out = Vec::new();
        for _ in 0..300 {
            for (k, (_, escape, flags)) in VARIANTS.iter().enumerate() {
                let t = Instant::now();
                for _ in 0..reps {
                    escape_all(*escape, black_box(&parts), *flags, &mut out);
                }
                best[k] = best[k].min(t.elapsed().as_nanos() as f64 / reps as f64);
            }
        }
        for (k, (label, _, _)) in VARIANTS.iter().enumerate() {
            writeln!(report, "{name} {label} {bytes} {:.1}", best[k]).unwrap();
            eprintln!(
                "{name:18} {label:18} {:8.0} MB/s",
                bytes as f64 / best[k] * 1e3
            );
        }
    }
    std::fs::write(path, report).expect("write the report");
}

fn main() {
    if let Some(dir) = std::env::var_os("JSON_BENCH_INPUTS") {
        write_inputs(std::path::Path::new(&dir));
        return;
    }
    if let Some(path) = std::env::var_os("JSON_BENCH_QUICK") {
        quick(std::path::Path::new(&path));
        return;
    }
    let mut c = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .configure_from_args();
    benches(&mut c);
    c.final_summary();
}
