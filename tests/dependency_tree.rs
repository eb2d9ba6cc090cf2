//! What a project that depends on this crate compiles: a dependent with
//! default features builds Rust only (no `cc`, no mimalloc); the
//! `fast-alloc` feature, for the `phpxml` command, is what brings them.
//!
//! The dependent is written to a temporary directory with a path
//! dependency on this checkout and this checkout's `Cargo.lock`, and
//! `cargo tree -e normal,build` lists what it would build.

use std::process::Command;

/// The crates `cargo tree -e normal,build` lists for a dependent whose
/// `phpxml` dependency line ends with `extra` (inside the braces).
fn dependent_tree(extra: &str) -> Vec<String> {
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
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut crates: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|line| line.split_whitespace().next().map(str::to_owned))
        .collect();
    crates.sort();
    crates.dedup();
    crates
}

#[test]
fn default_features_build_rust_only() {
    let crates = dependent_tree("");
    assert!(crates.iter().any(|c| c == "phpxml"), "{crates:?}");
    assert!(crates.iter().any(|c| c == "quick-xml"), "{crates:?}");
    for c_code in ["cc", "mimalloc", "libmimalloc-sys"] {
        assert!(
            !crates.iter().any(|c| c == c_code),
            "{c_code} in {crates:?}"
        );
    }
}

#[test]
fn fast_alloc_brings_mimalloc() {
    let crates = dependent_tree(", features = [\"fast-alloc\"]");
    for c_code in ["mimalloc", "cc"] {
        assert!(
            crates.iter().any(|c| c == c_code),
            "{c_code} not in {crates:?}"
        );
    }
}
