//! The command line's help, errors and exit codes (its outputs are checked
//! against PHP by `cli/tests/fixtures.rs`).

mod run;

use std::process::{Command, Output};

use run::{Scratch, phpxml, text};

#[test]
fn help_names_every_option_with_its_php_name() {
    for args in [
        &["struct", "--help"][..],
        &["help", "trace"],
        &["trace", "-h"],
    ] {
        let out = phpxml(args);
        assert!(out.status.success(), "{args:?}");
        let help = text(&out.stdout);
        for word in [
            "--encoding",
            "xml_parser_create(",
            "--ns",
            "xml_parser_create_ns(",
            "--case-folding",
            "XML_OPTION_CASE_FOLDING",
            "--target-encoding",
            "XML_OPTION_TARGET_ENCODING",
            "--skip-white",
            "XML_OPTION_SKIP_WHITE",
            "--skip-tagstart",
            "XML_OPTION_SKIP_TAGSTART",
            "--quiet",
            "exit status",
        ] {
            assert!(help.contains(word), "{args:?} help lacks {word}");
        }
    }
    assert!(text(&phpxml(&["trace", "--help"]).stdout).contains("--chunk N"));
    for args in [
        &["--help"][..],
        &["help"],
        &["decode", "--help"],
        &["encode", "-h"],
    ] {
        let out = phpxml(args);
        assert!(out.status.success(), "{args:?}");
        assert!(text(&out.stdout).contains("usage: phpxml"), "{args:?}");
    }
}

#[test]
fn errors_exit_2_with_a_message_and_no_output() {
    for args in [
        &[][..],
        &["bogus"],
        &["struct"],
        &["struct", "--skip-white"],
        &["struct", "--chunk", "4", "examples/rss.xml"],
        &["trace", "a.xml", "b.xml"],
        &["struct", "no/such/file.xml"],
        &["struct", "--encoding", "latin1", "examples/rss.xml"],
        &["trace", "--target-encoding", "UTF-16", "examples/rss.xml"],
        &["decode", "examples/rss.xml"],
        &["decode", "--to", "latin1"],
        &["help", "bogus"],
    ] {
        let out = phpxml(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(text(&out.stderr).starts_with("phpxml"), "{args:?}");
    }
    let out = phpxml(&["encode", "no/such/file"]);
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn malformed_documents_are_output_not_failures() {
    let dir = std::env::temp_dir().join(format!("phpxml-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.xml");
    std::fs::write(&file, "<a></b>").unwrap();
    let out = phpxml(&["struct", "--quiet", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        "ok 0\nresult 76 1 8 7 \"Mismatched tag\"\n"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

fn phpxml_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_phpxml"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run phpxml");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn dash_is_standard_input_for_every_command() {
    let doc = std::fs::read(run::top().join("examples/rss.xml")).unwrap();
    for args in [
        &["struct"][..],
        &["struct", "--format", "json"],
        &["trace", "--chunk", "7"],
    ] {
        let from_file = phpxml(&[args, &["examples/rss.xml"]].concat());
        let from_stdin = phpxml_stdin(&[args, &["-"]].concat(), &doc);
        assert_eq!(from_stdin.status.code(), Some(0), "{args:?}");
        assert!(!from_file.stdout.is_empty());
        assert_eq!(from_stdin.stdout, from_file.stdout, "{args:?}");
    }
}

#[test]
fn several_files_each_after_a_header_line() {
    let dir = Scratch::new("many");
    let a = dir.file("a.xml", b"<a/>");
    let b = dir.file("b.xml", b"<a></b>");
    let out = phpxml(&["struct", "--quiet", &a, &b]);
    assert_eq!(out.status.code(), Some(0));
    let one = |f: &str| text(&phpxml(&["struct", "--quiet", f]).stdout);
    assert_eq!(
        text(&out.stdout),
        format!("==> {a} <==\n{}==> {b} <==\n{}", one(&a), one(&b))
    );
    // An unreadable file: its message, no header, the others printed, exit 2.
    let out = phpxml(&["struct", "--quiet", &a, "no/such.xml"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), format!("==> {a} <==\n{}", one(&a)));
    assert_eq!(
        text(&out.stderr),
        "phpxml: cannot read no/such.xml: No such file or directory (os error 2)\n\
         phpxml struct: 1 of 2 inputs could not be read or run\n"
    );
}

#[test]
fn directories_are_walked_in_name_order_with_a_glob() {
    let dir = Scratch::new("walk");
    let b = dir.file("sub/b.xml", b"<b/>");
    let a = dir.file("a.xml", b"<a/>");
    dir.file("c.txt", b"<c/>");
    let root = dir.0.to_str().unwrap();
    let out = phpxml(&["struct", "--quiet", root]);
    let headers: Vec<String> = text(&out.stdout)
        .lines()
        .filter(|l| l.starts_with("==> "))
        .map(str::to_owned)
        .collect();
    assert_eq!(headers, [format!("==> {a} <=="), format!("==> {b} <==")]);
    let out = phpxml(&["struct", "--quiet", "--glob", "*.txt", root]);
    assert_eq!(text(&out.stdout).matches("==> ").count(), 1);
    assert!(text(&out.stdout).contains("c.txt <=="));
}

#[test]
fn double_dash_ends_options() {
    let dir = Scratch::new("dash");
    let odd = dir.file("--quiet", b"<a/>");
    let out = Command::new(env!("CARGO_BIN_EXE_phpxml"))
        .args(["struct", "--quiet", "--", "--quiet"])
        .current_dir(&dir.0)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        text(&phpxml(&["struct", "--quiet", &odd]).stdout)
    );
}

#[test]
fn option_errors_name_the_option_and_exit_2() {
    for (args, message) in [
        (
            &["trace", "--chunk", "0", "examples/rss.xml"][..],
            "phpxml trace: invalid value '0' for '--chunk <N>': a whole number of bytes, at least 1\n\
             (see `phpxml trace --help`)\n",
        ),
        (
            &["trace", "--chunk", "abc", "examples/rss.xml"],
            "phpxml trace: invalid value 'abc' for '--chunk <N>': a whole number of bytes, at least 1\n\
             (see `phpxml trace --help`)\n",
        ),
        (
            &["struct", "--bogus", "examples/rss.xml"],
            "phpxml struct: unknown option --bogus\n(see `phpxml struct --help`)\n",
        ),
        (
            &["struct", "--jobs", "0", "examples/rss.xml"],
            "phpxml struct: invalid value '0' for '--jobs <N>': a whole number of workers, at least 1\n\
             (see `phpxml struct --help`)\n",
        ),
        (
            &["struct", "--format", "xml", "examples/rss.xml"],
            "phpxml struct: invalid value 'xml' for '--format <FORMAT>'\n(see `phpxml struct --help`)\n",
        ),
        (
            &["struct", "--skip-white", "examples/rss.xml"],
            "phpxml struct: no input file (--skip-white took examples/rss.xml as its value)\n\
             (see `phpxml struct --help`)\n",
        ),
        (
            &["decode", "--bogus"],
            "phpxml decode: unknown option --bogus\n(see `phpxml decode --help`)\n",
        ),
    ] {
        let out = phpxml(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(text(&out.stderr), message, "{args:?}");
    }
}

#[test]
fn fail_on_error_exits_3_for_a_malformed_document() {
    let dir = Scratch::new("fail");
    let good = dir.file("good.xml", b"<a/>");
    let bad = dir.file("bad.xml", b"<a></b>");
    let out = phpxml(&["struct", "--quiet", "--fail-on-error", &good]);
    assert_eq!(out.status.code(), Some(0));
    let out = phpxml(&["trace", "--fail-on-error", &bad]);
    assert_eq!(out.status.code(), Some(3));
    // The output is the same as without the flag.
    assert_eq!(out.stdout, phpxml(&["trace", &bad]).stdout);
    assert_eq!(
        text(&out.stderr),
        "phpxml trace: 1 of 1 documents are malformed\n"
    );
    let out = phpxml(&[
        "struct",
        "--format",
        "ndjson",
        "--fail-on-error",
        &good,
        &bad,
    ]);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn ndjson_holds_the_error_state_and_explains_non_utf8() {
    let dir = Scratch::new("ndjson");
    let bad = dir.file("bad.xml", b"<a></b>");
    let latin = dir.file("latin.xml", "<a>\u{e9}</a>".as_bytes());
    let out = phpxml(&[
        "struct",
        "--format",
        "ndjson",
        "--target-encoding",
        "ISO-8859-1",
        &bad,
        &latin,
    ]);
    assert_eq!(out.status.code(), Some(0));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON document a line"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["file"], bad.as_str());
    assert_eq!(lines[0]["ok"], 0);
    assert_eq!(
        lines[0]["error"],
        serde_json::json!({"code": 76, "message": "Mismatched tag", "line": 1, "column": 8, "byte_index": 7})
    );
    assert_eq!(lines[1]["ok"], 1);
    assert_eq!(lines[1]["values"], serde_json::Value::Null);
    assert_eq!(lines[1]["values_error"]["code"], 5);
    assert!(
        lines[1]["values_error"]["explanation"]
            .as_str()
            .unwrap()
            .contains("UTF-8")
    );
    assert_eq!(lines[1]["index"], serde_json::json!({"A": [0]}));
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    use std::io::Read;
    let dir = Scratch::new("pipe");
    let big = dir.file("big.xml", "<a>x</a>".repeat(1 << 18).as_bytes());
    for args in [
        &["trace", big.as_str()][..],
        &["struct", big.as_str(), big.as_str()],
        &["encode", big.as_str()],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_phpxml"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 16];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // stdout is dropped: closed.
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(text(&out.stderr), "", "{args:?}");
    }
}

#[test]
fn help_documents_formats_and_many_files() {
    let help = text(&phpxml(&["struct", "--help"]).stdout);
    for word in [
        "--format json",
        "--format ndjson",
        "--json-flags N",
        "byte_index",
        "--fail-on-error",
        "--jobs N",
        "--glob PATTERN",
        "==> PATH <==",
    ] {
        assert!(help.contains(word), "struct help lacks {word}");
    }
    let help = text(&phpxml(&["compare", "--help"]).stdout);
    for word in ["--php CMD", "--script", "NAME.args", "capture", "--out DIR"] {
        assert!(help.contains(word), "compare help lacks {word}");
    }
}
