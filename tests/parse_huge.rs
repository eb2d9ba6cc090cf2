//! `XML_OPTION_PARSE_HUGE` set before and between chunks, and the values
//! `get_option` gives back, against what PHP 8.4 printed
//! (`fixtures/parse-huge/cases.txt`, from `fixtures/parse-huge/capture.php`).
//! The documents under each limit with the option on and off are fixtures
//! of the corpus (`fixtures/php/parse-huge/`).

use phpxml::{OptionValue, Parser, XmlOption};

fn cases() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/parse-huge/cases.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    assert!(lines.len() >= 20, "{path}: {} lines", lines.len());
    lines
}

/// The cases of one kind (`set`, `chunks`), without the kind.
fn cases_of(kind: &str) -> Vec<String> {
    let prefix = format!("{kind} ");
    cases()
        .iter()
        .filter_map(|line| line.strip_prefix(&prefix).map(str::to_owned))
        .collect()
}

/// `var_export()` of a value back to the value given.
fn value(exported: &str) -> OptionValue {
    match exported {
        "true" => OptionValue::Bool(true),
        "false" => OptionValue::Bool(false),
        s if s.starts_with('\'') => OptionValue::Str(s[1..s.len() - 1].to_owned()),
        s => OptionValue::Int(s.parse().unwrap()),
    }
}

fn exported(v: &OptionValue) -> &'static str {
    if *v == OptionValue::Bool(true) {
        "true"
    } else if *v == OptionValue::Bool(false) {
        "false"
    } else {
        panic!("PHP 8.4 gives a bool, not {v:?}")
    }
}

#[test]
fn values_set_and_got_are_php_84s() {
    let mut seen = 0;
    for line in cases_of("set") {
        let (given, got) = line.rsplit_once(" get ").unwrap();
        let mut p = Parser::new(None).unwrap();
        p.set_option(XmlOption::ParseHuge, value(given)).unwrap();
        assert_eq!(exported(&p.get_option(XmlOption::ParseHuge)), got, "{line}");
        assert_eq!(p.parse_huge(), got == "true", "{line}");
        seen += 1;
    }
    assert!(seen >= 10);
    let default = Parser::new(None).unwrap().get_option(XmlOption::ParseHuge);
    assert!(cases().contains(&format!("default get {}", exported(&default))));
}

/// The sets of capture.php's chunk cases: (before chunk N, on).
fn sets(name: &str) -> &'static [(usize, bool)] {
    match name {
        "off" => &[],
        "on-before" => &[(0, true)],
        "on-after-first-chunk" => &[(1, true)],
        "on-then-off-after-first-chunk" => &[(0, true), (1, false)],
        "on-after-last-chunk" => &[(3, true)],
        other => panic!("unknown case {other}"),
    }
}

#[test]
fn set_between_chunks_applies_from_the_next_chunk_as_in_php_84() {
    let long = format!("<{}/>", "n".repeat(50_001));
    let chunks = [&b"<r>"[..], long.as_bytes(), b"</r>"];
    let mut seen = 0;
    for line in cases_of("chunks") {
        let (name, want) = line.split_once(' ').unwrap();
        let mut p = Parser::new(None).unwrap();
        let mut results = Vec::new();
        for (i, chunk) in chunks.iter().enumerate() {
            for &(at, on) in sets(name) {
                if at == i {
                    p.set_option(XmlOption::ParseHuge, on.into()).unwrap();
                }
            }
            results.push(if p.parse(&mut (), chunk, i == chunks.len() - 1) {
                "1"
            } else {
                "0"
            });
        }
        for &(at, on) in sets(name) {
            if at == chunks.len() {
                p.set_parse_huge(on);
            }
        }
        let got = format!(
            "{} {} {} {} {} get {}",
            results.join(","),
            p.error_code(),
            p.line(),
            p.column(),
            p.byte_index(),
            exported(&p.get_option(XmlOption::ParseHuge)),
        );
        assert_eq!(got, want, "{name}");
        seen += 1;
    }
    assert_eq!(seen, 5);
}
