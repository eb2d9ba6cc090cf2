//! Replays every case of the PHP fixture corpus (`fixtures/php/<theme>/NAME.
//! {xml,args,out}`, outputs captured from PHP 8.2) through the library and
//! through the `phpxml` binary, and compares both with PHP's output byte for
//! byte.
//!
//! Cases listed in `fixtures/known-differences.txt` (`NAME reason...`, `#`
//! comments) are expected to differ while the parser core is incomplete:
//! they are reported, not failed. Any other differing case fails the test.
//! A listed case that now passes is reported so it can be removed; with
//! `STRICT_KNOWN=1` it fails the test. `PHPXML_WRITE_KNOWN=1` rewrites the
//! list from the current results. `PHPXML_FIXTURES=DIR` reads the corpus
//! from another directory; `PHPXML_FIXTURE=SUBSTRING` runs only matching
//! cases.

#[path = "../../tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

use common::corpus::{self, Case};

/// What a case gave.
enum Outcome {
    Pass,
    /// Library and binary agree, and differ from PHP.
    Differs {
        got: Vec<u8>,
    },
    /// Library and binary disagree: always a bug in PHP's layer or the CLI.
    Disagree {
        lib: Vec<u8>,
        bin: Vec<u8>,
    },
}

fn known_path() -> PathBuf {
    corpus::top().join("fixtures/known-differences.txt")
}

/// The library's output: what `phpxml SUB OPTS FILE` prints on stdout
/// (`phpxml struct --format json OPTS FILE` for `json`).
fn run_library(case: &Case) -> Vec<u8> {
    common::script_output(&case.script, &case.opts, &case.read_xml())
}

fn run_binary(case: &Case) -> Vec<u8> {
    // json.php is `phpxml struct --format json`.
    let sub: &[&str] = match case.script.as_str() {
        "json" => &["struct", "--format", "json"],
        other => &[other],
    };
    // Under emulation (CI's aarch64 run) the binary runs through the
    // same runner as the tests, e.g. `qemu-aarch64 -L /usr/aarch64-linux-gnu`.
    let runner = std::env::var("PHPXML_TEST_RUNNER").unwrap_or_default();
    let mut runner = runner.split_whitespace();
    let mut command = match runner.next() {
        Some(program) => {
            let mut command = Command::new(program);
            command.args(runner).arg(env!("CARGO_BIN_EXE_phpxml"));
            command
        }
        None => Command::new(env!("CARGO_BIN_EXE_phpxml")),
    };
    let out = command
        .args(sub)
        .args(&case.opts)
        .arg(&case.xml)
        .output()
        .expect("run phpxml");
    out.stdout
}

fn outcome(case: &Case) -> Outcome {
    let lib = run_library(case);
    let bin = run_binary(case);
    if lib != bin {
        Outcome::Disagree { lib, bin }
    } else if lib == case.expected {
        Outcome::Pass
    } else {
        Outcome::Differs { got: lib }
    }
}

fn lines(s: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(s)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The first line where two outputs differ, if any (0-based).
fn first_difference(a: &[String], b: &[String]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The kind of the line at `i` of an output: the first word of the nearest
/// line at or above it that does not start with a space (`values`, `index`,
/// `result`, `start`, `cdata`, ...).
fn line_kind(expected: &[String], i: usize) -> String {
    if expected.is_empty() {
        return "empty output".to_owned();
    }
    let i = i.min(expected.len() - 1);
    expected[..=i]
        .iter()
        .rev()
        .find(|l| !l.starts_with(' ') && !l.starts_with(')'))
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or("?")
        .to_owned()
}

fn diff_excerpt(expected: &[u8], got: &[u8]) -> String {
    let (e, g) = (lines(expected), lines(got));
    let i = first_difference(&e, &g);
    let mut s = format!("    first difference at line {}:\n", i + 1);
    for l in &e[i.saturating_sub(2)..i] {
        let _ = writeln!(s, "      {l}");
    }
    for l in e.iter().skip(i).take(3) {
        let _ = writeln!(s, "    - {l}");
    }
    for l in g.iter().skip(i).take(3) {
        let _ = writeln!(s, "    + {l}");
    }
    s
}

fn read_known() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(known_path()).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, reason) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
            (name.to_owned(), reason.trim().to_owned())
        })
        .collect()
}

fn write_known(differing: &BTreeMap<String, String>) {
    let mut s = String::from(
        "# Fixture cases expected to differ from PHP, one per line: NAME reason.\n\
         # Regenerate with PHPXML_WRITE_KNOWN=1 cargo test --test fixtures; the goal is an empty list.\n",
    );
    for (name, reason) in differing {
        let _ = writeln!(s, "{name} {reason}");
    }
    std::fs::write(known_path(), s).expect("write known-differences.txt");
}

#[test]
#[allow(clippy::too_many_lines)] // one report over the whole corpus
fn php_fixtures() {
    let mut cases = corpus::cases();
    if let Ok(filter) = std::env::var("PHPXML_FIXTURE") {
        cases.retain(|c| c.name.contains(&filter));
    }

    let results = Mutex::new(Vec::with_capacity(cases.len()));
    let next = Mutex::new(0usize);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = {
                        let mut n = next.lock().unwrap();
                        let i = *n;
                        *n += 1;
                        i
                    };
                    let Some(case) = cases.get(i) else { break };
                    let o = outcome(case);
                    results.lock().unwrap().push((i, o));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);

    let known = read_known();
    let mut pass = 0;
    let mut still_known = 0;
    let mut now_pass = Vec::new();
    let mut failures = Vec::new();
    let mut differing = BTreeMap::new();
    for (i, o) in &results {
        let case = &cases[*i];
        match o {
            Outcome::Pass => {
                pass += 1;
                if known.contains_key(&case.name) {
                    now_pass.push(case.name.clone());
                }
            }
            Outcome::Differs { got } => {
                let e = lines(&case.expected);
                let kind = line_kind(&e, first_difference(&e, &lines(got)));
                differing.insert(
                    case.name.clone(),
                    format!("parser core incomplete: first difference in a `{kind}` line"),
                );
                if known.contains_key(&case.name) {
                    still_known += 1;
                } else {
                    failures.push(format!(
                        "{} ({} {})\n{}",
                        case.name,
                        case.script,
                        case.opts.join(" "),
                        diff_excerpt(&case.expected, got)
                    ));
                }
            }
            Outcome::Disagree { lib, bin } => failures.push(format!(
                "{}: library and binary disagree\n{}",
                case.name,
                diff_excerpt(lib, bin)
            )),
        }
    }

    let total = results.len();
    eprintln!(
        "fixtures: {total} cases, {pass} pass, {still_known} known differences, {} unexpected failures, {} known but passing",
        failures.len(),
        now_pass.len()
    );
    for name in &now_pass {
        eprintln!("  now passes, remove from known-differences.txt: {name}");
    }
    let stale: Vec<_> = known
        .keys()
        .filter(|k| !cases.iter().any(|c| &c.name == *k))
        .collect();
    if !stale.is_empty() && std::env::var_os("PHPXML_FIXTURE").is_none() {
        eprintln!(
            "  {} listed cases are not in the corpus (e.g. {})",
            stale.len(),
            stale[0]
        );
    }

    if std::env::var_os("PHPXML_WRITE_KNOWN").is_some() {
        write_known(&differing);
        eprintln!(
            "wrote {} cases to {}",
            differing.len(),
            known_path().display()
        );
        return;
    }
    for f in failures.iter().take(15) {
        eprintln!("FAIL {f}");
    }
    assert!(
        failures.is_empty(),
        "{} fixture cases differ from PHP and are not in known-differences.txt",
        failures.len()
    );
    if std::env::var_os("STRICT_KNOWN").is_some() {
        assert!(
            now_pass.is_empty(),
            "{} known differences now pass",
            now_pass.len()
        );
    }
}
