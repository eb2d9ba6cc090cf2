//! Writers that fail half-way: every streaming output stops with the
//! writer's error (no panic), and the command exits 1 with a message.

use std::io::{self, Write};
use std::process::{Command, Stdio};

use phpxml::Parser;
use phpxml::json::{self, JsonFlags, StructJsonError};
use phpxml::report::{self, TraceWriter};

/// Takes `room` bytes, then fails every write.
#[derive(Debug)]
struct FailsAfter {
    room: usize,
    taken: usize,
}

impl Write for FailsAfter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.taken >= self.room {
            return Err(io::Error::other("disk full"));
        }
        let n = buf.len().min(self.room - self.taken);
        self.taken += n;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn half_way() -> FailsAfter {
    FailsAfter {
        room: 100_000,
        taken: 0,
    }
}

/// A document whose every output is several hundred kilobytes.
fn document() -> Vec<u8> {
    let mut doc = b"<feed>".to_vec();
    for i in 0..5_000 {
        doc.extend_from_slice(format!("<entry id='{i}'><t>caf\u{e9} {i}</t></entry>").as_bytes());
    }
    doc.extend_from_slice(b"</feed>");
    doc
}

fn is_disk_full(e: &io::Error) -> bool {
    e.to_string() == "disk full"
}

#[test]
fn library_writers_return_the_error() {
    let doc = document();
    let mut parser = Parser::new(None).unwrap();
    let result = parser.parse_into_struct(&doc);

    let mut out = half_way();
    match json::write_struct(&result, JsonFlags::NONE, &mut out) {
        Err(StructJsonError::Io(e)) => assert!(is_disk_full(&e)),
        other => panic!("{other:?}"),
    }
    assert_eq!(out.taken, out.room);

    let mut out = half_way();
    let e = report::write_var_export(&result, &parser, false, &mut out).unwrap_err();
    assert!(is_disk_full(&e));

    let mut out = half_way();
    let e = report::write_struct_output(
        &mut Parser::new(None).unwrap(),
        doc.clone(),
        false,
        &mut out,
    )
    .unwrap_err();
    assert!(is_disk_full(&e));

    let mut out = half_way();
    let e = report::write_struct_json_output(
        &mut Parser::new(None).unwrap(),
        doc.clone(),
        JsonFlags::PRETTY_PRINT,
        &mut out,
    );
    assert!(
        matches!(e, Err(StructJsonError::Io(ref e)) if is_disk_full(e)),
        "{e:?}"
    );

    let arrays =
        report::JsonArrays::parse(Parser::new(None).unwrap(), doc.clone(), JsonFlags::NONE);
    let mut out = half_way();
    assert!(is_disk_full(&arrays.write_values(&mut out).unwrap_err()));
    assert_eq!(out.taken, out.room);

    let mut out = half_way();
    let mut trace = TraceWriter::new(&mut out, false);
    let mut parser = Parser::new(None).unwrap();
    let ok = parser.parse(&mut trace, &doc, true);
    assert!(ok);
    assert!(is_disk_full(&trace.finish(&parser, ok).unwrap_err()));
}

#[test]
fn the_writers_give_the_whole_output_when_there_is_room() {
    let doc = document();
    let mut parser = Parser::new(None).unwrap();
    let whole = report::struct_output(&mut parser, doc.clone(), false);
    let mut streamed = Vec::new();
    report::write_struct_output(
        &mut Parser::new(None).unwrap(),
        doc.clone(),
        false,
        &mut streamed,
    )
    .unwrap();
    assert_eq!(streamed, whole);
    assert!(whole.len() > 200_000);

    let mut plain = phpxml::report::Trace::new();
    let mut parser = Parser::new(None).unwrap();
    let ok = parser.parse(&mut plain, &doc, true);
    let whole = plain.finish(&parser, ok, false);
    let mut parser = Parser::new(None).unwrap();
    let mut trace = TraceWriter::new(Vec::new(), false);
    let ok = parser.parse(&mut trace, &doc, true);
    assert_eq!(trace.finish(&parser, ok).unwrap(), whole);
}

#[test]
fn the_command_exits_1_when_standard_output_is_full() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        panic!("/dev/full is needed for this test");
    };
    let file = std::env::temp_dir().join(format!("phpxml-stream-full-{}.xml", std::process::id()));
    std::fs::write(&file, document()).unwrap();
    for args in [
        &["struct"][..],
        &["struct", "--format", "json"],
        &["struct", "--format", "ndjson"],
        &["trace"],
        &["trace", "--chunk", "7"],
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_phpxml"))
            .args(args)
            .arg(&file)
            .stdout(full.try_clone().unwrap())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains("cannot write output"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panick"), "{args:?}: {stderr}");
    }
    std::fs::remove_file(&file).unwrap();
}
