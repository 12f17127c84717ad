//! Helpers shared by the CLI tests.

use assert_cmd::Command;
use std::path::Path;

/// The real `errdex` binary on catalogue `db`.
pub fn errdex(db: &Path) -> Command {
    let mut c = Command::cargo_bin("errdex").unwrap();
    c.env("ERRDEX_DB", db).env_remove("RUST_BACKTRACE");
    c
}
