//! The trace streams: long merged text is quoted out in pieces, `--quiet`
//! keeps nothing, and chunked input writes lines as it goes. None of it may
//! change a byte of the output.

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use phpxml::report;

/// What `phpxml trace ARGS FILE` prints for `doc` as FILE: the streaming
/// (`--chunk`, `--quiet`) is the command's.
fn trace(args: &[&str], doc: &[u8]) -> Vec<u8> {
    static FILES: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "phpxml-trace-streaming-{}-{}.xml",
        std::process::id(),
        FILES.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, doc).expect("write the document");
    let out = Command::new(env!("CARGO_BIN_EXE_phpxml"))
        .arg("trace")
        .args(args)
        .arg(&path)
        .output()
        .expect("run phpxml");
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A document whose text node is far longer than a quoting piece, with
/// multi-byte characters and malformed bytes at every alignment.
fn long_text_document() -> Vec<u8> {
    let mut doc = b"<doc>".to_vec();
    let pieces: [&[u8]; 6] = [
        b"ab",
        "é".as_bytes(),
        "中".as_bytes(),
        "😀".as_bytes(),
        b"&amp;",
        b"x\"\\\t",
    ];
    let mut i = 0usize;
    while doc.len() < 300_000 {
        doc.extend_from_slice(pieces[i % pieces.len()]);
        if i.is_multiple_of(7) {
            doc.push(b' ');
        }
        i += 1;
    }
    doc.extend_from_slice(b"</doc>");
    doc
}

#[test]
#[allow(clippy::naive_bytecount)] // five lines
fn long_text_quoted_in_pieces_equals_whole() {
    let doc = long_text_document();
    let whole = trace(&[], &doc);
    // One start line, one merged cdata line, one end line, ok, result.
    assert_eq!(whole.iter().filter(|&&b| b == b'\n').count(), 5);
    let text_line = whole.split(|&b| b == b'\n').nth(1).unwrap();
    let text = &doc[5..doc.len() - 6];
    let mut expected = b"cdata ".to_vec();
    report::quote(
        &String::from_utf8_lossy(text)
            .replace("&amp;", "&")
            .into_bytes(),
        &mut expected,
    );
    assert_eq!(text_line, &expected[..]);
    for chunk in ["1", "3", "4096", "65536"] {
        let chunked = trace(&["--chunk", chunk], &doc);
        assert_eq!(chunked, whole, "--chunk {chunk}");
    }
}

#[test]
fn long_text_quoted_in_pieces_equals_whole_for_every_target() {
    // An ISO-8859-1 target gives bytes that are not UTF-8 (\xE9), next to
    // three-byte characters that become `?`: the quoting must see each
    // sequence whole even where a piece ends inside it.
    let mut doc = b"<doc>".to_vec();
    while doc.len() < 200_000 {
        doc.extend_from_slice("ab\u{e9}".as_bytes());
        doc.extend_from_slice("\u{4e2d}".as_bytes());
    }
    doc.extend_from_slice(b"</doc>");
    let whole = trace(&[], &doc);
    let chunked = trace(&["--chunk", "65535"], &doc);
    assert_eq!(chunked, whole);
    let latin1 = trace(&["--target-encoding", "ISO-8859-1"], &doc);
    let latin1_chunked = trace(
        &["--target-encoding", "ISO-8859-1", "--chunk", "65535"],
        &doc,
    );
    assert_eq!(latin1_chunked, latin1);
    assert!(latin1.windows(4).any(|w| w == b"\\xE9"));
}

#[test]
fn quiet_prints_only_the_last_two_lines() {
    let doc = long_text_document();
    for args in [&[][..], &["--chunk", "100"]] {
        let loud = trace(args, &doc);
        let quiet_args: Vec<&str> = std::iter::once("--quiet")
            .chain(args.iter().copied())
            .collect();
        let quiet = trace(&quiet_args, &doc);
        let tail: Vec<&[u8]> = loud.split(|&b| b == b'\n').rev().take(3).collect();
        let expected = [tail[2], b"\n", tail[1], b"\n"].concat();
        assert_eq!(quiet, expected);
    }
}
