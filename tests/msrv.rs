//! The minimum Rust version in Cargo.toml (`rust-version`) against what
//! the library's dependencies declare: none may ask for a newer Rust.
//!
//! The rest of the MSRV check is clippy's `incompatible_msrv` lint (on by
//! default), which reads `rust-version` and flags any standard library item
//! stabilized later; the language features used (edition 2024, let chains)
//! need 1.88 (the AVX-512 intrinsics of the JSON kernel 1.89, which is why `rust-version` is 1.89).

use std::collections::HashMap;
use std::process::Command;

use serde_json::Value;

fn version(v: &str) -> (u64, u64, u64) {
    let mut parts = v.split('.').map(|p| p.parse::<u64>().unwrap());
    (
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
        parts.next().unwrap_or(0),
    )
}

#[test]
fn dependencies_fit_rust_version() {
    let ours = version(env!("CARGO_PKG_RUST_VERSION"));
    let out = Command::new(env!("CARGO"))
        // Resolving only: `cargo metadata` downloads what the optional
        // features name (crates.io is reachable) and builds nothing, so the
        // C and C++ peers' build tools are not needed.
        .args(["metadata", "--format-version", "1", "--all-features"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m: Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages: HashMap<&str, &Value> = m["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p))
        .collect();
    let nodes: HashMap<&str, &Value> = m["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let root = m["resolve"]["root"].as_str().unwrap();
    // Normal (not dev or build-only) dependencies, transitively.
    let mut seen = vec![];
    let mut todo = vec![root];
    while let Some(id) = todo.pop() {
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null());
            let pkg = dep["pkg"].as_str().unwrap();
            if normal && !seen.contains(&pkg) {
                seen.push(pkg);
                todo.push(pkg);
            }
        }
    }
    assert!(seen.len() >= 2, "no dependencies found: {seen:?}");
    for id in seen {
        let p = packages[id];
        let (name, rv) = (p["name"].as_str().unwrap(), p["rust_version"].as_str());
        if let Some(rv) = rv {
            assert!(
                version(rv) <= ours,
                "{name} {} needs Rust {rv}, rust-version is {}",
                p["version"],
                env!("CARGO_PKG_RUST_VERSION")
            );
        }
    }
}
