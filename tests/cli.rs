//! The command line's help, errors and exit codes (its outputs are checked
//! against PHP by `tests/fixtures.rs`).

use std::process::{Command, Output};

fn phpxml(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_phpxml"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run phpxml")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

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
