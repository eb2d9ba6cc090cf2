//! What a project that depends on this crate compiles: a dependent with
//! default features builds the crate and what it parses with, Rust only
//! (no `cc`, no mimalloc, no command-line crate). The `phpxml` command is
//! the workspace's other package (cli/, `phpxml-cli`): its crates and its
//! allocator (feature `fast-alloc`) stay there.
//!
//! The dependent is written to a temporary directory with a path
//! dependency on this checkout and this checkout's `Cargo.lock`, and
//! `cargo tree -e normal,build` lists what it would build.

use std::process::Command;

/// What a dependent with default features may build: the crate, what it
/// parses with (quick-xml and its memchr, `encoding_rs` and its cfg-if), and
/// simdutf8, which validates UTF-8.
const LIBRARY_TREE: [&str; 7] = [
    "cfg-if",
    "dependent",
    "encoding_rs",
    "memchr",
    "phpxml",
    "quick-xml",
    "simdutf8",
];

/// The crates `cargo tree -e normal,build` lists for a dependent whose
/// `phpxml` dependency line ends with `extra` (inside the braces).
fn dependent_tree(extra: &str) -> Vec<String> {
    let out = dependent_cargo_tree(extra);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    crate_names(&out.stdout)
}

/// The first word of each line of `cargo tree --prefix none`, sorted, once.
fn crate_names(tree: &[u8]) -> Vec<String> {
    let mut crates: Vec<String> = String::from_utf8_lossy(tree)
        .lines()
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect();
    crates.sort();
    crates.dedup();
    crates
}

/// `cargo tree -e normal,build` of a dependent as [`dependent_tree`]
/// writes it, failed or not.
fn dependent_cargo_tree(extra: &str) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!(
        "phpxml-dependent-{}-{}",
        std::process::id(),
        extra.len()
    ));
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"dependent\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\nphpxml = {{ path = {:?}{extra} }}\n",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(
        dir.join("src/main.rs"),
        "fn main() { let _ = phpxml::Parser::default(); }\n",
    )
    .unwrap();
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock"),
        dir.join("Cargo.lock"),
    )
    .unwrap();
    // online: a fresh cargo home has not downloaded mimalloc
    // (crates.io is reachable, as for tests/msrv.rs)
    let out = Command::new(env!("CARGO"))
        .args(["tree", "-e", "normal,build", "--prefix", "none"])
        .current_dir(&dir)
        .output()
        .expect("run cargo tree");
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

#[test]
fn default_features_build_the_crate_and_its_parsing_crates_only() {
    let crates = dependent_tree("");
    for needed in ["phpxml", "quick-xml", "memchr"] {
        assert!(
            crates.iter().any(|c| c == needed),
            "{needed} not in {crates:?}"
        );
    }
    for c in &crates {
        assert!(LIBRARY_TREE.contains(&c.as_str()), "{c} in {crates:?}");
    }
}

#[test]
fn the_library_has_no_command_line_features() {
    for feature in ["cli", "fast-alloc"] {
        let out = dependent_cargo_tree(&format!(", features = [\"{feature}\"]"));
        assert!(!out.status.success(), "phpxml has a feature {feature}");
    }
}

#[test]
fn the_command_line_package_brings_its_crates_and_with_fast_alloc_mimalloc() {
    let tree = |features: &[&str]| {
        let out = Command::new(env!("CARGO"))
            .args([
                "tree",
                "-p",
                "phpxml-cli",
                "-e",
                "normal,build",
                "--prefix",
                "none",
            ])
            .args(features)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("run cargo tree");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        crate_names(&out.stdout)
    };
    let plain = tree(&[]);
    for c in ["phpxml", "phpxml-cli", "clap", "rayon"] {
        assert!(plain.iter().any(|p| p == c), "{c} not in {plain:?}");
    }
    assert!(!plain.iter().any(|c| c == "mimalloc"), "{plain:?}");
    let fast = tree(&["--features", "fast-alloc"]);
    for c in ["mimalloc", "cc"] {
        assert!(fast.iter().any(|p| p == c), "{c} not in {fast:?}");
    }
}
