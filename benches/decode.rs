//! Decoding throughput: the reference decoder per character, the inline
//! decoder per character, the bulk conversion, and `encoding_rs` where its
//! contract holds, side by side on every input of the corpus; the parser's
//! single-byte charset conversion on Cyrillic text (windows-1251, KOI8-R)
//! beside `encoding_rs`'s decoder of the same charset.
//!
//! `cargo bench --bench decode`; `benches/ratios.py` turns the results into
//! the table of BENCHMARKS.md.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use phpxml::decode::{
    Status, TargetEncoding, next_utf8_char, utf8_encode_to_slice, xml_utf8_decode_into,
    xml_utf8_decode_reference_into,
};

#[path = "common/inputs.rs"]
mod inputs;
#[cfg(feature = "simdutf")]
#[path = "common/simdutf_peer.rs"]
mod simdutf_peer;

/// The inline decoder called once per character, one byte pushed per call.
fn inline_per_character(src: &[u8], out: &mut Vec<u8>) {
    let mut pos = 0;
    while pos < src.len() {
        let c = next_utf8_char(src, pos);
        let ok = c.status == Status::Success && c.code_point <= 0xFF;
        out.push(if ok { c.code_point as u8 } else { b'?' });
        pos = c.cursor;
    }
}

fn bench(c: &mut Criterion) {
    for (size, label) in [(4096, "4KiB"), (1 << 20, "1MiB")] {
        for (name, input) in inputs::corpus(size) {
            if size > 4096 && name == "ascii-16" {
                continue;
            }
            let mut group = c.benchmark_group(format!("decode/{label}/{name}"));
            group.throughput(Throughput::Bytes(input.len() as u64));
            let target = TargetEncoding::Iso8859_1;

            // The result every variant must give.
            let mut expected = Vec::new();
            xml_utf8_decode_reference_into(&input, target, &mut expected);
            let mut check = Vec::new();
            inline_per_character(&input, &mut check);
            assert_eq!(check, expected, "inline per character on {name}");
            check.clear();
            xml_utf8_decode_into(&input, target, &mut check);
            assert_eq!(check, expected, "bulk on {name}");

            let mut out = Vec::with_capacity(input.len());
            group.bench_with_input(BenchmarkId::from_parameter("reference"), &input, |b, i| {
                b.iter(|| {
                    out.clear();
                    xml_utf8_decode_reference_into(black_box(i), target, &mut out);
                    black_box(out.len())
                });
            });
            group.bench_with_input(BenchmarkId::from_parameter("inline"), &input, |b, i| {
                b.iter(|| {
                    out.clear();
                    inline_per_character(black_box(i), &mut out);
                    black_box(out.len())
                });
            });
            group.bench_with_input(BenchmarkId::from_parameter("bulk"), &input, |b, i| {
                b.iter(|| {
                    out.clear();
                    xml_utf8_decode_into(black_box(i), target, &mut out);
                    black_box(out.len())
                });
            });
            if encoding_rs::mem::is_utf8_latin1(&input) {
                let mut dst = vec![0u8; input.len()];
                let n = encoding_rs::mem::convert_utf8_to_latin1_lossy(&input, &mut dst);
                assert_eq!(dst[..n], expected[..], "encoding_rs on {name}");
                group.bench_with_input(
                    BenchmarkId::from_parameter("encoding_rs"),
                    &input,
                    |b, i| {
                        b.iter(|| {
                            encoding_rs::mem::convert_utf8_to_latin1_lossy(black_box(i), &mut dst)
                        });
                    },
                );
            }
            #[cfg(feature = "simdutf")]
            {
                let mut dst = vec![0u8; input.len()];
                if let Some(n) = simdutf_peer::utf8_to_latin1(&input, &mut dst) {
                    assert_eq!(dst[..n], expected[..], "simdutf on {name}");
                    group.bench_with_input(
                        BenchmarkId::from_parameter("simdutf"),
                        &input,
                        |b, i| b.iter(|| simdutf_peer::utf8_to_latin1(black_box(i), &mut dst)),
                    );
                }
            }
            group.finish();
        }
    }
}

/// The lengths of the short-string rows: attribute values and short texts,
/// what the parser converts most.
const SHORT_LENGTHS: [usize; 6] = [1, 4, 8, 16, 32, 64];

/// The short strings: the first `len` bytes of the ASCII and the French
/// text of the corpus (French cut back to a character boundary, so it may
/// be a byte shorter), named `ascii-LEN` and `french-LEN`.
fn short_strings() -> Vec<(String, Vec<u8>)> {
    let corpus = inputs::corpus(4096);
    let text = |name: &str| {
        corpus
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.clone())
            .expect("the corpus has the text")
    };
    let (ascii, french) = (text("ascii"), text("french"));
    let mut all = Vec::new();
    for len in SHORT_LENGTHS {
        all.push((format!("ascii-{len}"), ascii[..len].to_vec()));
        let mut end = len;
        while french[end] & 0xC0 == 0x80 {
            end -= 1;
        }
        all.push((format!("french-{len}"), french[..end].to_vec()));
    }
    all
}

/// Short strings, one call per string: the bulk conversion into a reused
/// buffer beside `encoding_rs` into a reused slice (the same work: a
/// caller's buffer, the string's converted bytes).
fn bench_short(c: &mut Criterion) {
    let target = TargetEncoding::Iso8859_1;
    for (name, input) in short_strings() {
        let mut group = c.benchmark_group(format!("decode/short/{name}"));
        group.throughput(Throughput::Bytes(input.len() as u64));
        let mut expected = Vec::new();
        xml_utf8_decode_reference_into(&input, target, &mut expected);
        let mut out = Vec::with_capacity(64);
        xml_utf8_decode_into(&input, target, &mut out);
        assert_eq!(out, expected, "bulk on {name}");
        let mut dst = [0u8; 64];
        let n = encoding_rs::mem::convert_utf8_to_latin1_lossy(&input, &mut dst);
        assert_eq!(dst[..n], expected[..], "encoding_rs on {name}");
        group.bench_with_input(BenchmarkId::from_parameter("bulk"), &input, |b, i| {
            b.iter(|| {
                out.clear();
                xml_utf8_decode_into(black_box(i), target, &mut out);
                black_box(out.len())
            });
        });
        group.bench_with_input(
            BenchmarkId::from_parameter("encoding_rs"),
            &input,
            |b, i| {
                b.iter(|| encoding_rs::mem::convert_utf8_to_latin1_lossy(black_box(i), &mut dst));
            },
        );
        group.finish();
    }
}

/// `PHPXML_CALLS="VARIANT NAME CALLS"`: converts the short string NAME
/// (as in [`short_strings`]) CALLS times with VARIANT (`bulk` or
/// `encoding_rs`) and nothing else, for callgrind: the instructions of a
/// run with CALLS calls less those of a run with 0, divided by CALLS, are
/// the cost of one call (`benches/callgrind_short.sh`).
fn calls(spec: &str) {
    let mut words = spec.split(' ');
    let (Some(variant), Some(name), Some(calls)) = (words.next(), words.next(), words.next())
    else {
        panic!("PHPXML_CALLS=\"VARIANT NAME CALLS\"");
    };
    let calls: usize = calls.parse().expect("CALLS is a number");
    let (_, input) = short_strings()
        .into_iter()
        .find(|(n, _)| n == name)
        .expect("NAME is one of the short strings");
    let mut out = Vec::with_capacity(64);
    let mut dst = [0u8; 64];
    let mut total = 0;
    for _ in 0..calls {
        total += match variant {
            "bulk" => {
                out.clear();
                xml_utf8_decode_into(black_box(&input), TargetEncoding::Iso8859_1, &mut out);
                black_box(&out).len()
            }
            "encoding_rs" => {
                encoding_rs::mem::convert_utf8_to_latin1_lossy(black_box(&input), &mut dst)
            }
            _ => panic!("VARIANT is bulk or encoding_rs"),
        };
    }
    println!("{total} {:?}", String::from_utf8_lossy(&input));
}

/// The inputs of the corpus that ISO-8859-1 holds, as ISO-8859-1: what
/// `utf8_encode()` converts back.
fn latin1_corpus(size: usize) -> Vec<(&'static str, Vec<u8>)> {
    inputs::corpus(size)
        .into_iter()
        .filter(|(_, input)| encoding_rs::mem::is_utf8_latin1(input))
        .map(|(name, input)| {
            let mut latin1 = vec![0u8; input.len()];
            let n = encoding_rs::mem::convert_utf8_to_latin1_lossy(&input, &mut latin1);
            latin1.truncate(n);
            (name, latin1)
        })
        .collect()
}

/// `utf8_encode()` a byte at a time: the scalar reference.
fn encode_per_byte(src: &[u8], dst: &mut [u8]) -> usize {
    let mut o = 0;
    for &b in src {
        if b < 0x80 {
            dst[o] = b;
            o += 1;
        } else {
            dst[o] = 0xC0 | (b >> 6);
            dst[o + 1] = 0x80 | (b & 0x3F);
            o += 2;
        }
    }
    o
}

/// A `utf8_encode()` variant: ISO-8859-1 `src` into `dst` (twice as long),
/// returning the bytes written.
type EncodeVariant = (&'static str, fn(&[u8], &mut [u8]) -> usize);

fn encode_variants() -> Vec<EncodeVariant> {
    #[cfg_attr(not(feature = "simdutf"), allow(unused_mut))]
    let mut all: Vec<EncodeVariant> = vec![
        ("per-byte", encode_per_byte),
        ("bulk", utf8_encode_to_slice),
        ("encoding_rs", encoding_rs::mem::convert_latin1_to_utf8),
    ];
    #[cfg(feature = "simdutf")]
    all.push(("simdutf", simdutf_peer::latin1_to_utf8));
    all
}

/// `utf8_encode()`: every variant on the ISO-8859-1 inputs, each checked
/// against the per-byte reference first.
fn bench_encode(c: &mut Criterion) {
    for (size, label) in [(4096, "4KiB"), (1 << 20, "1MiB")] {
        for (name, input) in latin1_corpus(size) {
            let mut group = c.benchmark_group(format!("encode/{label}/{name}"));
            group.throughput(Throughput::Bytes(input.len() as u64));
            let mut expected = vec![0u8; 2 * input.len()];
            let n = encode_per_byte(&input, &mut expected);
            expected.truncate(n);
            let mut out = vec![0u8; 2 * input.len()];
            for (variant, run) in encode_variants() {
                let n = run(&input, &mut out);
                assert_eq!(out[..n], expected[..], "{variant} on {name}");
                group.bench_with_input(BenchmarkId::from_parameter(variant), &input, |b, i| {
                    b.iter(|| black_box(run(black_box(i), &mut out)));
                });
            }
            group.finish();
        }
    }
}

/// `PHPXML_QUICK=encode`: the `utf8_encode()` variants take turns, the
/// fastest of many rounds counts, and a markdown table is printed.
#[allow(clippy::cast_precision_loss)] // timings and rates as floats
fn quick_encode() {
    const ROUNDS: usize = 300;
    const ROUND_BYTES: usize = 256 << 10;
    let variants = encode_variants();
    let names: Vec<&str> = variants.iter().map(|v| v.0).collect();
    println!(
        "| input | bytes | {} GB/s | bulk ÷ encoding_rs speed |",
        names.join(" GB/s | ")
    );
    println!("|---|---:|{}---:|", "---:|".repeat(names.len()));
    for (size, label) in [(4096, "4KiB"), (1 << 20, "1MiB")] {
        for (name, input) in latin1_corpus(size) {
            let mut out = vec![0u8; 2 * input.len()];
            let mut expected = vec![0u8; 2 * input.len()];
            let n = encode_per_byte(&input, &mut expected);
            expected.truncate(n);
            for (variant, run) in &variants {
                let n = run(&input, &mut out);
                assert_eq!(out[..n], expected[..], "{variant} on {name}");
            }
            let calls = (ROUND_BYTES / input.len()).max(1);
            let mut best = vec![f64::MAX; variants.len()];
            for round in 0..ROUNDS {
                for k in 0..variants.len() {
                    let k = (k + round) % variants.len();
                    let started = std::time::Instant::now();
                    for _ in 0..calls {
                        black_box((variants[k].1)(black_box(&input), &mut out));
                    }
                    best[k] = best[k].min(started.elapsed().as_secs_f64() / calls as f64);
                }
            }
            let rates: Vec<String> = best
                .iter()
                .map(|t| format!("{:.2}", input.len() as f64 / t / 1e9))
                .collect();
            println!(
                "| {name} ({label}) | {} | {} | {:.2}× |",
                input.len(),
                rates.join(" | "),
                best[2] / best[1]
            );
        }
    }
}

/// With `PHPXML_WRITE_INPUTS=DIR` set, writes the corpus at 64 MiB to DIR
/// (for the whole-process comparison with PHP) instead of benchmarking.
fn write_inputs(dir: &str) {
    std::fs::create_dir_all(dir).expect("create the input directory");
    for (name, input) in inputs::corpus(64 << 20) {
        if ["ascii", "french", "cyrillic", "cjk"].contains(&name) {
            let path = format!("{dir}/{name}-64MiB.txt");
            std::fs::write(&path, input).expect("write an input");
            println!("{path}");
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = bench, bench_short, bench_encode, bench_single_byte
}

/// Cyrillic prose with spaces, punctuation and markup-free line breaks,
/// about `size` bytes of UTF-8.
fn cyrillic_text(size: usize) -> String {
    let line = "Съешь же ещё этих мягких французских булок, да выпей чаю. В чащах юга жил бы цитрус? Да, но фальшивый экземпляр!\n";
    line.repeat(size / line.len() + 1)
}

/// Single-byte charset decoding: `phpxml::testing::convert_declared` (the
/// parser's converter, one push) and `encoding_rs` decoding the same
/// bytes, in throughput of source bytes.
fn bench_single_byte(c: &mut Criterion) {
    let text = cyrillic_text(1 << 20);
    for (label, charset) in [
        ("windows-1251", encoding_rs::WINDOWS_1251),
        ("KOI8-R", encoding_rs::KOI8_R),
    ] {
        let (raw, _, lossy) = charset.encode(&text);
        assert!(!lossy);
        let mut group = c.benchmark_group(format!("single-byte/{label}/1MiB"));
        group.throughput(Throughput::Bytes(raw.len() as u64));
        let mut out = Vec::with_capacity(3 * raw.len());
        group.bench_function("phpxml", |b| {
            b.iter(|| {
                out.clear();
                let ok = phpxml::testing::convert_declared(label.as_bytes(), &raw, &mut out);
                assert_eq!(ok, Some(true));
                black_box(out.len())
            });
        });
        let mut decoder_out = String::with_capacity(3 * raw.len());
        group.bench_function("encoding_rs", |b| {
            b.iter(|| {
                decoder_out.clear();
                let mut decoder = charset.new_decoder_without_bom_handling();
                let (result, _, _) = decoder.decode_to_string(&raw, &mut decoder_out, true);
                assert_eq!(result, encoding_rs::CoderResult::InputEmpty);
                black_box(decoder_out.len())
            });
        });
        group.finish();
    }
}

/// The variants of the table, by name, each converting one input into a
/// reused buffer. `None` where the variant's contract does not hold.
type Variant = (&'static str, Box<dyn Fn(&[u8], &mut Vec<u8>)>);

fn variants(input: &[u8]) -> Vec<Variant> {
    let target = TargetEncoding::Iso8859_1;
    let mut all: Vec<Variant> = vec![
        (
            "reference",
            Box::new(move |i, out| xml_utf8_decode_reference_into(i, target, out)),
        ),
        ("inline", Box::new(inline_per_character)),
        (
            "bulk",
            Box::new(move |i, out| xml_utf8_decode_into(i, target, out)),
        ),
    ];
    if encoding_rs::mem::is_utf8_latin1(input) {
        all.push((
            "encoding_rs",
            Box::new(|i, out| {
                out.resize(i.len(), 0);
                let n = encoding_rs::mem::convert_utf8_to_latin1_lossy(i, out);
                out.truncate(n);
            }),
        ));
    }
    #[cfg(feature = "simdutf")]
    {
        let mut probe = vec![0u8; input.len()];
        if simdutf_peer::utf8_to_latin1(input, &mut probe).is_some() {
            all.push((
                "simdutf",
                Box::new(|i, out| {
                    out.resize(i.len(), 0);
                    let n = simdutf_peer::utf8_to_latin1(i, out).expect("checked above");
                    out.truncate(n);
                }),
            ));
        }
    }
    all
}

/// `PHPXML_QUICK=1`: the variants take turns on each input, the fastest of
/// many short rounds counts, and a markdown table of throughput and ratios
/// is printed. Turns and minima make the ratios hold on a busy machine,
/// where criterion's one-variant-after-another runs drift.
#[allow(clippy::cast_precision_loss)] // timings and rates as floats
fn quick() {
    const ROUNDS: usize = 300;
    const ROUND_BYTES: usize = 256 << 10;
    println!(
        "| input | bytes | reference GB/s | inline GB/s | bulk GB/s | encoding_rs GB/s | simdutf GB/s \
         | bulk time ÷ reference time | bulk ÷ encoding_rs speed |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (size, label) in [(4096, "4KiB"), (1 << 20, "1MiB")] {
        for (name, input) in inputs::corpus(size) {
            if size > 4096 && name == "ascii-16" {
                continue;
            }
            let variants = variants(&input);
            let mut expected = Vec::new();
            xml_utf8_decode_reference_into(&input, TargetEncoding::Iso8859_1, &mut expected);
            let mut out = Vec::with_capacity(input.len());
            for (variant, run) in &variants {
                out.clear();
                run(&input, &mut out);
                assert_eq!(out, expected, "{variant} on {name}");
            }
            let calls = (ROUND_BYTES / input.len()).max(1);
            let mut best = vec![f64::MAX; variants.len()];
            for round in 0..ROUNDS {
                for k in 0..variants.len() {
                    let k = (k + round) % variants.len();
                    let started = std::time::Instant::now();
                    for _ in 0..calls {
                        out.clear();
                        (variants[k].1)(black_box(&input), &mut out);
                        black_box(out.len());
                    }
                    best[k] = best[k].min(started.elapsed().as_secs_f64() / calls as f64);
                }
            }
            let time = |v: &str| variants.iter().position(|(n, _)| *n == v).map(|k| best[k]);
            let gbs = |v: &str| {
                time(v).map_or("–".to_owned(), |t| {
                    format!("{:.2}", input.len() as f64 / t / 1e9)
                })
            };
            let ratio = |a: &str, b: &str| match (time(a), time(b)) {
                (Some(ta), Some(tb)) => format!("{:.2}", ta / tb),
                _ => "–".to_owned(),
            };
            let speedup = |a: &str, b: &str| match (time(a), time(b)) {
                (Some(ta), Some(tb)) => format!("{:.2}×", tb / ta),
                _ => "–".to_owned(),
            };
            println!(
                "| {name} ({label}) | {} | {} | {} | {} | {} | {} | {} | {} |",
                input.len(),
                gbs("reference"),
                gbs("inline"),
                gbs("bulk"),
                gbs("encoding_rs"),
                gbs("simdutf"),
                ratio("bulk", "reference"),
                speedup("bulk", "encoding_rs"),
            );
        }
    }
}

fn main() {
    if let Ok(dir) = std::env::var("PHPXML_WRITE_INPUTS") {
        write_inputs(&dir);
        return;
    }
    if let Ok(spec) = std::env::var("PHPXML_CALLS") {
        calls(&spec);
        return;
    }
    if std::env::var("PHPXML_QUICK").is_ok_and(|v| v == "encode") {
        quick_encode();
        return;
    }
    if std::env::var_os("PHPXML_QUICK").is_some() {
        quick();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
