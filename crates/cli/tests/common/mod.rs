//! Helpers shared by the CLI tests.

use assert_cmd::Command;
use std::path::Path;

/// The real `errdex` binary on catalogue `db` (a file or a `postgres://`
/// URL).
pub fn errdex(db: impl AsRef<std::ffi::OsStr>) -> Command {
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

/// Runs git in `dir` with a fixed identity and date; must succeed.
#[allow(dead_code)] // not every test file makes repositories
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.org",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_COMMITTER_DATE", "2025-01-02T03:04:05Z")
        .env("GIT_AUTHOR_DATE", "2025-01-02T03:04:05Z")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

#[allow(dead_code)] // only the web tests start servers
pub mod server;

/// A catalogue in `dir` holding the fixture crate `tests/fixtures/facts`.
#[allow(dead_code)] // not every test file uses the fixture
pub fn facts_db(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("facts.db");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/facts");
    let out = errdex(&db).arg("index").arg(&root).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    db
}

/// The id of the first error of `repo` whose template contains `needle`.
#[allow(dead_code)] // not every test file looks errors up
pub fn id_of(db: &Path, repo: &str, needle: &str) -> String {
    let list = run_json(errdex(db).args(["list", "--json", repo]));
    list.as_array()
        .unwrap()
        .iter()
        .find(|e| e["template"].as_str().unwrap().contains(needle))
        .unwrap_or_else(|| panic!("no error of {repo} contains {needle:?}"))["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// A new, empty `CARGO_HOME` in `dir` with the configuration of the one
/// cargo uses here (its registry, mirrors and network settings; never its
/// credentials), so that cargo downloads the index entries and archives
/// a test needs afresh.
#[allow(dead_code)] // only the registry tests start from an empty cache
pub fn fresh_cargo_home(dir: &Path) -> std::path::PathBuf {
    let home = dir.join("cargo-home");
    std::fs::create_dir_all(&home).unwrap();
    let current = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(&std::env::var_os("HOME").unwrap()).join(".cargo"));
    for config in ["config.toml", "config"] {
        if current.join(config).is_file() {
            std::fs::copy(current.join(config), home.join(config)).unwrap();
        }
    }
    home
}
