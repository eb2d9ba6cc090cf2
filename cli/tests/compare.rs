//! `phpxml compare` and `phpxml capture` end to end with a real PHP (`php`
//! on PATH, 8.2 with the xml extension; `.ci/run` installs it), and
//! `phpxml::testing` replaying what `capture` wrote. Without PHP these
//! tests say so and pass: CI must have it.

mod run;

use std::path::Path;
use std::process::Command;

use run::{Scratch, phpxml, text};

fn php_available() -> bool {
    let found = Command::new("php")
        .args([
            "-r",
            "echo function_exists('xml_parser_create') ? 'yes' : 'no';",
        ])
        .output()
        .is_ok_and(|o| o.stdout == b"yes");
    if !found {
        eprintln!("php with the xml extension not found: compare and capture tests skipped");
    }
    found
}

/// A few documents: well-formed, malformed, Latin-1, namespaced.
fn documents(dir: &Path) {
    let docs: [(&str, &[u8]); 4] = [
        (
            "feed.xml",
            b"<rss><item id=\"1\">caf\xc3\xa9 &amp; more</item></rss>",
        ),
        ("broken.xml", b"<a><b></a>"),
        (
            "latin/one.xml",
            b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><t>\xe9</t>",
        ),
        ("ns.xml", b"<x:a xmlns:x=\"urn:x\"><x:b/></x:a>"),
    ];
    for (name, bytes) in docs {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

#[test]
fn compare_finds_the_documents_identical() {
    if !php_available() {
        return;
    }
    let dir = Scratch::new("same");
    documents(&dir.0);
    for script in ["struct", "trace", "json"] {
        let out = phpxml(&["compare", "--script", script, "--ns", ":", dir.path()]);
        let report = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{script}: {report}{}",
            text(&out.stderr)
        );
        assert!(
            report.starts_with(
                "compare: 4 documents: 4 identical, 0 different, 0 PHP failed (PHP 8."
            ),
            "{report}"
        );
    }
}

#[test]
fn compare_reports_a_difference_as_a_diff_and_fails() {
    if !php_available() {
        return;
    }
    let dir = Scratch::new("differ");
    documents(&dir.0);
    // A PHP that prints one line more than the script.
    let php = dir.0.join("php-and-more");
    std::fs::write(&php, "#!/bin/sh\nphp \"$@\"\necho one more line\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&php, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let feed = dir.0.join("feed.xml");
    let out = phpxml(&[
        "compare",
        "--php",
        php.to_str().unwrap(),
        feed.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert!(report.contains("different: "), "{report}");
    assert!(report.contains("--- php\n+++ phpxml\n"), "{report}");
    assert!(report.contains("\n-one more line\n"), "{report}");
    assert!(
        report.contains("1 documents: 0 identical, 1 different"),
        "{report}"
    );
    // The JSON report.
    let out = phpxml(&[
        "compare",
        "--format",
        "json",
        "--php",
        php.to_str().unwrap(),
        feed.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON document");
    assert_eq!(report["documents"], 1);
    assert_eq!(report["different"], 1);
    assert_eq!(report["problems"][0]["verdict"], "different");
    assert_eq!(report["problems"][0]["args"], "struct");
}

#[test]
fn compare_without_a_working_php_exits_2() {
    let out = phpxml(&["compare", "--php", "/no/such/php", "examples/rss.xml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).starts_with("phpxml compare: cannot run PHP (/no/such/php): "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn captured_cases_replay_without_php() {
    if !php_available() {
        return;
    }
    let dir = Scratch::new("capture");
    let docs = dir.0.join("docs");
    documents(&docs);
    let cases = dir.0.join("cases");
    let out = phpxml(&[
        "capture",
        "--script",
        "trace",
        "--chunk",
        "3",
        "--case-folding",
        "0",
        docs.to_str().unwrap(),
        "--out",
        cases.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(cases.join("latin/one.args")).unwrap(),
        "trace --chunk 3 --case-folding 0\n"
    );
    assert_eq!(
        std::fs::read(cases.join("latin/one.xml")).unwrap(),
        std::fs::read(docs.join("latin/one.xml")).unwrap()
    );
    phpxml::testing::assert_replays(&cases);
    // compare takes a directory of cases with each case's arguments.
    let out = phpxml(&["compare", cases.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    // A tampered output fails the replay with a diff.
    std::fs::write(cases.join("ns.out"), "ok 1\n").unwrap();
    let replay = phpxml::testing::replay(&cases).unwrap();
    assert_eq!(replay.passed, 3);
    assert_eq!(replay.mismatches.len(), 1);
    assert_eq!(replay.mismatches[0].name, "ns");
    assert!(
        replay.mismatches[0].diff.contains("+start \"x:a\""),
        "{}",
        replay.mismatches[0].diff
    );
}

#[test]
fn an_empty_directory_does_not_replay() {
    let dir = Scratch::new("empty");
    let failed = std::panic::catch_unwind(|| phpxml::testing::assert_replays(&dir.0));
    assert!(failed.is_err());
}
