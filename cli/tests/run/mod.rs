//! Running the `phpxml` binary from the integration tests, and scratch
//! directories for their files.

#![allow(dead_code)] // each test binary uses part of it

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's top (this package is its cli/ directory): the
/// tests name files as `examples/rss.xml`, from there.
pub fn top() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ inside the repository")
}

/// `phpxml ARGS`, run from the repository's top.
pub fn phpxml(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_phpxml"))
        .args(args)
        .current_dir(top())
        .output()
        .expect("run phpxml")
}

/// Bytes as text, for messages and comparisons.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A scratch directory, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A fresh, empty directory named after the test and the process.
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("phpxml-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    /// Writes `bytes` to `name` (directories made) and gives its path.
    pub fn file(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_owned()
    }

    /// The directory's path.
    pub fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
