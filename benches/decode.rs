//! Decoding throughput: the reference decoder per character, the inline
//! decoder per character, the bulk conversion, and encoding_rs where its
//! contract holds, side by side on every input of the corpus.
//!
//! `cargo bench --bench decode`; `benches/ratios.py` turns the results into
//! the table of BENCHMARKS.md.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use phpxml::decode::{
    Status, TargetEncoding, next_utf8_char, xml_utf8_decode_into, xml_utf8_decode_reference_into,
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
    targets = bench
}
fn main() {
    if let Ok(dir) = std::env::var("PHPXML_WRITE_INPUTS") {
        write_inputs(&dir);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
