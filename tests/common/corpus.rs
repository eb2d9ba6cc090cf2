//! The PHP fixture corpus, `fixtures/php/<theme>/NAME.{args,xml,out}`
//! (outputs captured from PHP 8.2): the one walker of every test that reads
//! it, in the integration tests and in the library's unit tests alike.
//!
//! Standard library only, so that any test crate can include it.

#![allow(dead_code)] // each test uses part of it

use std::path::{Path, PathBuf};

/// The corpus holds 1,499 cases (544 `struct`, 691 `trace`, 264 `json`);
/// fewer than this means it is missing or cut short.
pub const MIN_CASES: usize = 1200;

/// The cases of fixtures/json-struct (59); fewer means it is missing.
pub const MIN_JSON_STRUCT_CASES: usize = 50;

/// One captured case.
pub struct Case {
    /// `theme/NAME`, as fixtures/known-differences.txt names it.
    pub name: String,
    /// The document.
    pub xml: PathBuf,
    /// The reference script: `struct`, `trace` or `json`.
    pub script: String,
    /// The script's options, in order (the file excluded).
    pub opts: Vec<String>,
    /// What PHP printed.
    pub expected: Vec<u8>,
}

impl Case {
    /// The document's bytes.
    pub fn read_xml(&self) -> Vec<u8> {
        std::fs::read(&self.xml).unwrap_or_else(|e| panic!("{}: {e}", self.xml.display()))
    }

    /// The theme: the directory the case is in.
    pub fn theme(&self) -> &str {
        self.name.split('/').next().unwrap_or_default()
    }
}

/// The repository's top: the library's directory, the parent of the
/// command line's package (cli/).
pub fn top() -> &'static Path {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    if env!("CARGO_PKG_NAME") == "phpxml-cli" {
        manifest.parent().expect("cli/ inside the repository")
    } else {
        manifest
    }
}

/// `fixtures/php`, or the directory `PHPXML_FIXTURES` names.
pub fn dir() -> PathBuf {
    std::env::var_os("PHPXML_FIXTURES").map_or_else(|| top().join("fixtures/php"), PathBuf::from)
}

/// Every case of the corpus, sorted by name. Panics if there are fewer
/// than [`MIN_CASES`] (at least one under `PHPXML_FIXTURES`).
pub fn cases() -> Vec<Case> {
    let min = if std::env::var_os("PHPXML_FIXTURES").is_some() {
        1
    } else {
        MIN_CASES
    };
    cases_in(&dir(), min)
}

/// The cases under `root` (recursively), sorted by name; panics if there
/// are fewer than `min`. An `.args` without its `.xml` or `.out` is a case
/// not captured yet and left out.
pub fn cases_in(root: &Path, min: usize) -> Vec<Case> {
    let mut paths = Vec::new();
    args_files(root, &mut paths);
    paths.sort();
    let mut cases = Vec::with_capacity(paths.len());
    for path in paths {
        let xml = path.with_extension("xml");
        let (Ok(args), Ok(expected), true) = (
            std::fs::read_to_string(&path),
            std::fs::read(path.with_extension("out")),
            xml.is_file(),
        ) else {
            continue;
        };
        let mut words = args.split_whitespace().map(str::to_owned);
        let Some(script) = words.next() else { continue };
        let name = path
            .with_extension("")
            .strip_prefix(root)
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        cases.push(Case {
            name,
            xml,
            script,
            opts: words.collect(),
            expected,
        });
    }
    assert!(
        cases.len() >= min,
        "{} fixture cases under {}, expected at least {min}: the corpus is missing or cut short",
        cases.len(),
        root.display()
    );
    cases
}

fn args_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.is_dir() {
            args_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "args") {
            out.push(path);
        }
    }
}
