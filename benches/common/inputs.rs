//! The benchmark corpus: deterministic text of many shapes, each generated
//! at any size from a fixed seed, so every run and every tool (criterion,
//! the PHP scripts) sees the same bytes.

use std::fmt::Write;

/// A small, fixed pseudo-random generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

pub const CYRILLIC: &[&str] = &[
    "привет",
    "мир",
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
    "город",
    "время",
    "человек",
    "работа",
];
const CJK: &[&str] = &[
    "中文",
    "日本語",
    "한국어",
    "漢字",
    "東京",
    "北京",
    "文字化け",
    "解析",
    "処理",
    "速度",
    "検証",
    "測定",
];
const FRENCH: &[&str] = &[
    "le", "déjà", "où", "garçon", "fenêtre", "élève", "hôpital", "naïve", "Noël", "à", "très",
    "café", "maïs", "août", "et", "la", "une", "pour", "été", "être",
];
const EMOJI: &[&str] = &["😀", "🚀", "🎉", "👍", "🔥", "🌍", "💡", "✨"];
const ENGLISH: &[&str] = &[
    "the", "quick", "brown", "fox", "jumps", "over", "lazy", "dog", "and", "parser", "returns",
    "every", "value", "with", "index",
];
const TAGS: &[&str] = &["div", "span", "p", "a", "li", "td"];

/// Words from `vocabulary`, separated by spaces, until `size` bytes.
fn words(rng: &mut Rng, vocabulary: &[&str], size: usize) -> Vec<u8> {
    let mut out = String::new();
    while out.len() < size {
        out.push_str(rng.pick(vocabulary));
        out.push(' ');
    }
    cut(out.into_bytes(), size)
}

/// Truncates to at most `size` bytes at a character boundary.
fn cut(mut bytes: Vec<u8>, size: usize) -> Vec<u8> {
    let mut end = size.min(bytes.len());
    while end > 0 && end < bytes.len() && (bytes[end] & 0xC0) == 0x80 {
        end -= 1;
    }
    bytes.truncate(end);
    bytes
}

fn ascii_with_every(rng: &mut Rng, size: usize, every: usize, insert: &str) -> Vec<u8> {
    let mut out = String::new();
    while out.len() < size {
        let word = rng.pick(ENGLISH);
        out.push_str(word);
        out.push(' ');
        if rng.below(every) < word.len() + 1 {
            out.push_str(insert);
        }
    }
    cut(out.into_bytes(), size)
}

fn periodic(rng: &mut Rng, size: usize, period: usize, byte: u8) -> Vec<u8> {
    let mut out = words(rng, ENGLISH, size);
    for i in (period - 1..out.len()).step_by(period) {
        out[i] = byte;
    }
    out
}

/// Every input of the table, by name, at about `size` bytes.
pub fn corpus(size: usize) -> Vec<(&'static str, Vec<u8>)> {
    let mut rng = Rng::new(0x5EED_0000 + size as u64);
    let rng = &mut rng;
    let html = {
        let mut out = String::new();
        while out.len() < size {
            let tag = rng.pick(TAGS);
            writeln!(
                out,
                "<{tag} class=\"c{}\">{} {}</{tag}>",
                rng.below(100),
                rng.pick(ENGLISH),
                rng.pick(ENGLISH)
            )
            .unwrap();
        }
        cut(out.into_bytes(), size)
    };
    let urls = {
        let mut out = String::new();
        while out.len() < size {
            writeln!(
                out,
                "https://example.com/{}/{}?id={}&q={}",
                rng.pick(ENGLISH),
                rng.pick(ENGLISH),
                rng.below(100_000),
                rng.pick(ENGLISH)
            )
            .unwrap();
        }
        cut(out.into_bytes(), size)
    };
    let short_lines = {
        // 1,000 short lines per 4 KiB.
        let per_line = (size / 1000).max(2);
        let mut out = Vec::new();
        while out.len() + per_line <= size {
            for _ in 0..per_line - 1 {
                out.push(b'a' + rng.below(26) as u8);
            }
            out.push(b'\n');
        }
        out
    };
    vec![
        ("cyrillic", words(rng, CYRILLIC, size)),
        ("cjk", words(rng, CJK, size)),
        ("french", words(rng, FRENCH, size)),
        ("emoji", words(rng, EMOJI, size)),
        ("english-emoji", ascii_with_every(rng, size, 24, "😀 ")),
        ("ascii-e-acute-31", {
            // An é every 31 bytes on average, at random positions.
            let mut out = Vec::new();
            while out.len() < size {
                if rng.below(31) == 0 {
                    out.extend_from_slice("é".as_bytes());
                } else {
                    out.push(b'a' + rng.below(26) as u8);
                }
            }
            cut(out, size)
        }),
        ("ascii-16", words(rng, ENGLISH, 16)),
        ("ascii", words(rng, ENGLISH, size)),
        ("html", html),
        ("urls", urls),
        ("quote-16", periodic(rng, size, 16, b'"')),
        ("newline-40", periodic(rng, size, 40, b'\n')),
        ("short-lines", short_lines),
    ]
}
