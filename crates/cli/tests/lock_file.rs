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
    assert_eq!(indexed.len(), 3, "{s}");
    assert_eq!(indexed[0], "humantime@2.2.0");
    // The app itself, a path package, from its folder.
    assert!(indexed[1].starts_with("lockapp@0.1.0 (path "), "{s}");
    assert_eq!(indexed[2], "semver@1.0.26");

    // Again: nothing is indexed twice.
    let out = errdex(&db)
        .args(["index", "--json", &lock])
        .output()
        .unwrap();
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["indexed"].as_array().unwrap().len(), 0);
    assert_eq!(s["already_indexed"], 3);

    // A package an older errdex build extracted is indexed again (this
    // build may find sites that one missed); the others are kept.
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE snapshots SET extractor = 'an older build' WHERE revision = '2.2.0'",
            [],
        )
        .unwrap();
    let s = run_json(errdex(&db).args(["index", "--json", &lock]));
    assert_eq!(s["indexed"], serde_json::json!(["humantime@2.2.0"]), "{s}");
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
    let explain_locked = |db: &Path| -> Value {
        serde_json::from_slice(
            &errdex(db)
                .args(["explain", "--json", "--lock"])
                .arg(app.join("Cargo.lock"))
                .arg(msg)
                .output()
                .unwrap()
                .stdout,
        )
        .unwrap()
    };
    let locked = explain_locked(&db);
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
    assert_eq!(locked["index"]["built"], "for the lock file");
    // The lock's index was kept beside the catalogue: the next question
    // with that lock opens it and is answered alike.
    let opened = explain_locked(&db);
    assert_eq!(opened["index"]["built"], "for the lock file, from its file");
    assert_eq!(opened["matches"], locked["matches"]);
    // A catalogue that changed makes it stale: built again.
    let out = errdex(&db)
        .args(["index", "crate:semver@1.0.24"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(explain_locked(&db)["index"]["built"], "for the lock file");

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

/// A git dependency is read at its locked commit from a local clone given
/// with `--clone`; without one it is a counted skip.
#[test]
fn git_dependency_from_a_local_clone() {
    let tmp = tempfile::tempdir().unwrap();
    let dep = tmp.path().join("forked");
    std::fs::create_dir_all(dep.join("src")).unwrap();
    std::fs::write(
        dep.join("Cargo.toml"),
        "[package]\nname = \"forked\"\nversion = \"0.3.0\"\nedition = \"2021\"\n",
    )
    .unwrap();
    std::fs::write(
        dep.join("src/lib.rs"),
        "pub fn f() {\n    panic!(\"forked crate gave up at the locked commit\");\n}\n",
    )
    .unwrap();
    common::git(&dep, &["init", "-q"]);
    common::git(&dep, &["add", "."]);
    common::git(&dep, &["commit", "-q", "-m", "one"]);
    let locked_commit = common::git(&dep, &["rev-parse", "HEAD"]);
    let url = format!("file://{}", dep.display());

    let app = tmp.path().join("gitapp");
    std::fs::create_dir_all(app.join("src")).unwrap();
    std::fs::write(
        app.join("Cargo.toml"),
        format!("[package]\nname = \"gitapp\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n[dependencies]\nforked = {{ git = \"{url}\" }}\n"),
    )
    .unwrap();
    std::fs::write(app.join("src/main.rs"), "fn main() { forked::f() }\n").unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let ok = std::process::Command::new(cargo)
        .args(["generate-lockfile", "--quiet"])
        .current_dir(&app)
        .status()
        .unwrap();
    assert!(ok.success());
    // A later commit in the clone must not be what is read.
    std::fs::write(
        dep.join("src/lib.rs"),
        "pub fn f() {\n    panic!(\"a later message\");\n}\n",
    )
    .unwrap();
    common::git(&dep, &["commit", "-q", "-am", "two"]);

    let lock = format!("lock:{}", app.join("Cargo.lock").display());
    let db = tmp.path().join("g.db");
    // Without a clone the git package is named, and the run is partial.
    let out = errdex(&db)
        .args(["index", "--json", &lock])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["skipped"]["git_without_clone"], 1, "{s}");
    assert_eq!(s["unavailable"][0]["package"], "forked@0.3.0", "{s}");

    let s = run_json(
        errdex(&db)
            .args(["index", "--json", &lock, "--clone"])
            .arg(format!("{url}={}", dep.display())),
    );
    let indexed = s["indexed"].to_string();
    assert!(
        indexed.contains(&format!("forked@0.3.0 (git {})", &locked_commit[..12])),
        "{s}"
    );
    let found = run_json(errdex(&db).args([
        "explain",
        "--json",
        "--lock",
        app.join("Cargo.lock").to_str().unwrap(),
        "forked crate gave up at the locked commit",
    ]));
    assert_eq!(
        found["matches"][0]["revision"],
        locked_commit.as_str(),
        "{found}"
    );
    let later = errdex(&db)
        .args(["explain", "a later message"])
        .output()
        .unwrap();
    assert_eq!(
        later.status.code(),
        Some(1),
        "the later commit was not indexed"
    );

    let bad = errdex(&db)
        .args(["index", &lock, "--clone", "no-equals-sign"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
