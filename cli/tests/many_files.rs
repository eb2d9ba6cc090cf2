//! Many files in one run, on several workers, print byte for byte what
//! the runs of one file print, in input order: the fixture corpus, grouped
//! by its arguments, against PHP's captured outputs. And `--format ndjson`
//! holds the same `json_encode()` arrays as `--format json`.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::process::Command;

use common::corpus::{self, Case};

/// The cases grouped by `.args` line (the same options for every file).
fn groups() -> BTreeMap<(String, Vec<String>), Vec<Case>> {
    let mut groups: BTreeMap<_, Vec<Case>> = BTreeMap::new();
    for case in corpus::cases() {
        groups
            .entry((case.script.clone(), case.opts.clone()))
            .or_default()
            .push(case);
    }
    groups
}

fn command_words(script: &str) -> Vec<&str> {
    match script {
        "json" => vec!["struct", "--format", "json"],
        other => vec![other],
    }
}

#[test]
fn parallel_output_equals_the_cases_outputs_in_order() {
    let (mut files, mut runs) = (0, 0);
    for ((script, opts), cases) in groups() {
        let out = Command::new(env!("CARGO_BIN_EXE_phpxml"))
            .args(command_words(&script))
            .args(&opts)
            .args(["--jobs", "2"])
            .arg("--")
            .args(cases.iter().map(|c| &c.xml))
            .output()
            .expect("run phpxml");
        let mut expected = Vec::new();
        for case in &cases {
            if cases.len() > 1 {
                expected.extend_from_slice(format!("==> {} <==\n", case.xml.display()).as_bytes());
            }
            expected.extend_from_slice(&case.expected);
        }
        assert!(
            out.stdout == expected,
            "{script} {opts:?} on {} files: the run of many files differs from the captured outputs",
            cases.len()
        );
        files += cases.len();
        runs += 1;
    }
    assert!(files >= corpus::MIN_CASES, "{files} cases");
    eprintln!("{files} cases in {runs} runs of many files");
}

#[test]
fn ndjson_holds_the_arrays_of_json() {
    let mut checked = 0;
    for ((script, opts), cases) in groups() {
        if script != "json" {
            continue;
        }
        let out = Command::new(env!("CARGO_BIN_EXE_phpxml"))
            .args(["struct", "--format", "ndjson"])
            .args(&opts)
            .arg("--")
            .args(cases.iter().map(|c| &c.xml))
            .output()
            .expect("run phpxml");
        let text = String::from_utf8(out.stdout).expect("ndjson is UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), cases.len(), "{opts:?}");
        for (case, line) in cases.iter().zip(lines) {
            let got: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            // PHP's two encodings: a JSON document each (pretty-printed
            // ones span lines), or `false` and json_last_error().
            let php = String::from_utf8_lossy(&case.expected);
            let mut printed =
                serde_json::Deserializer::from_str(&php).into_iter::<serde_json::Value>();
            for field in ["values", "index"] {
                let Some(Ok(value)) = printed.next() else {
                    break; // a JsonException stopped PHP
                };
                if value == serde_json::Value::Bool(false) {
                    let code = printed
                        .next()
                        .expect("json_last_error()")
                        .expect("a number");
                    assert_eq!(got[field], serde_json::Value::Null, "{}", case.name);
                    assert_eq!(got[format!("{field}_error")]["code"], code, "{}", case.name);
                } else {
                    assert_eq!(got[field], value, "{}", case.name);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 200, "{checked} json cases");
}
