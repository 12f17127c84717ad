//! What the benches that run the real binary share.

use std::process::Command;

/// The `errdex` binary on catalogue `db` (a path or a PostgreSQL URL).
pub fn errdex(db: &str) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_errdex"));
    c.env("ERRDEX_DB", db);
    c
}

/// Runs `c`, which must succeed; its standard output.
pub fn ok(mut c: Command) -> String {
    let out = c.output().expect("errdex runs");
    assert!(
        out.status.success(),
        "{:?}: {}",
        c,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}
