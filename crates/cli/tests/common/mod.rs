//! Helpers shared by the CLI tests.

use assert_cmd::Command;
use std::path::Path;

/// The real `errdex` binary on catalogue `db`.
pub fn errdex(db: &Path) -> Command {
    let mut c = Command::cargo_bin("errdex").unwrap();
    c.env("ERRDEX_DB", db).env_remove("RUST_BACKTRACE");
    c
}

/// Runs a command that must succeed and parses its standard output as
/// one JSON value.
#[allow(dead_code)] // not every test file runs JSON commands
pub fn run_json(c: &mut Command) -> serde_json::Value {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}
