//! `index lock:Cargo.lock` on a real lock file resolved against the
//! registry, and `explain --lock` restricted to its versions.

mod common;

use common::{errdex, run_json};
use serde_json::Value;
use std::path::Path;

/// A project depending on two crates, locked by cargo itself.
fn project(dir: &Path, semver: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"lockapp\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n[dependencies]\nsemver = \"={semver}\"\nhumantime = \"=2.2.0\"\n"
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/main.rs"), "fn main() {}\n").unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let ok = std::process::Command::new(cargo)
        .arg("generate-lockfile")
        .arg("--quiet")
        .current_dir(dir)
        .status()
        .unwrap();
    assert!(ok.success());
}

#[test]
fn lock_file_indexes_each_version_once_and_restricts_explain() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("c.db");
    let app = tmp.path().join("app");
    project(&app, "1.0.26");
    let lock = format!("lock:{}", app.join("Cargo.lock").display());

    let s = run_json(errdex(&db).args(["index", "--json", &lock]));
    let mut indexed: Vec<&str> = s["indexed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    indexed.sort();
    assert_eq!(indexed, vec!["humantime@2.2.0", "semver@1.0.26"]);
    assert_eq!(s["skipped"]["path"], 1, "the app itself: {s}");

    // Again: nothing is indexed twice.
    let out = errdex(&db)
        .args(["index", "--json", &lock])
        .output()
        .unwrap();
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["indexed"].as_array().unwrap().len(), 0);
    assert_eq!(s["already_indexed"], 2);

    // Another semver version in the catalogue; --lock keeps to the locked one.
    let out = errdex(&db)
        .args(["index", "crate:semver@1.0.25"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let msg = "empty string, expected a semver version";
    let all: Value = serde_json::from_slice(
        &errdex(&db)
            .args(["explain", "--json", msg])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let revisions: Vec<&str> = all["matches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["repo"] == "crate:semver")
        .map(|m| m["revision"].as_str().unwrap())
        .collect();
    assert!(
        revisions.contains(&"1.0.25") && revisions.contains(&"1.0.26"),
        "{revisions:?}"
    );
    let locked: Value = serde_json::from_slice(
        &errdex(&db)
            .args(["explain", "--json", "--lock"])
            .arg(app.join("Cargo.lock"))
            .arg(msg)
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let revisions: Vec<&str> = locked["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["revision"].as_str().unwrap())
        .collect();
    assert!(
        !revisions.is_empty() && revisions.iter().all(|r| *r == "1.0.26" || *r == "2.2.0"),
        "{revisions:?}"
    );

    // A lock file that is not one is a one-line error.
    std::fs::write(tmp.path().join("bad.lock"), "not a lock [[[").unwrap();
    let out = errdex(&db)
        .args([
            "index",
            &format!("lock:{}", tmp.path().join("bad.lock").display()),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
