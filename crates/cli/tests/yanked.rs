//! Published versions whatever became of them: yanked versions, versions
//! whose dependencies were yanked since, lock files pinning them, and the
//! errors that say what is true when a version cannot be had. Real
//! registry, each test in an empty `CARGO_HOME` (small crates: their index
//! entries and archives are downloaded afresh).

mod common;

use common::{errdex, fresh_cargo_home};
use serde_json::Value;
use std::path::Path;

/// The one-line error of a failed command, checked to be one line.
fn error_line(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

/// Templates of a repo's errors in the catalogue.
fn has_errors(db: &Path, home: &Path, repo: &str) -> bool {
    let out = errdex(db)
        .env("CARGO_HOME", home)
        .args(["list", "--json", repo])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    !list.as_array().unwrap().is_empty()
}

/// `webpki@0.17.0` is yanked, and so is every version of its dependencies
/// `ring ^0.12` and `untrusted ^0.5.1`: cargo resolves none of them
/// unless a lock file pins them. `sct@0.2.0` is not yanked but depends on
/// `ring ^0.12`.
#[test]
fn yanked_versions_and_yanked_dependencies_are_indexed() {
    let tmp = tempfile::tempdir().unwrap();
    let home = fresh_cargo_home(tmp.path());
    let db = tmp.path().join("c.db");
    for (spec, repo) in [
        ("crate:webpki@0.17.0", "crate:webpki"),
        ("crate:sct@0.2.0", "crate:sct"),
    ] {
        let out = errdex(&db)
            .env("CARGO_HOME", &home)
            .args(["index", "--json", spec])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{spec}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let s: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(s["repo"], repo, "{s}");
        assert!(s["files"].as_u64().unwrap() > 3, "{s}");
        assert!(has_errors(&db, &home, repo), "{spec}");
    }
    // Exactly that version was read, not a newer one cargo would prefer.
    let webpki: Value = serde_json::from_slice(
        &errdex(&db)
            .env("CARGO_HOME", &home)
            .args(["index", "--json", "crate:webpki@0.17.0"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(webpki["revision"], "0.17.0", "{webpki}");
    // The second time it comes from cargo's cache: a registry that cannot
    // be reached does not matter.
    let out = errdex(&db)
        .env("CARGO_HOME", &home)
        .env("CARGO_NET_OFFLINE", "true")
        .args(["index", "crate:webpki@0.17.0"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Yanked, out of the cache and offline: it cannot be had, and says so.
    for archive in std::fs::read_dir(home.join("registry/cache")).unwrap() {
        let _ = std::fs::remove_file(archive.unwrap().path().join("webpki-0.17.0.crate"));
    }
    let out = errdex(&db)
        .env("CARGO_HOME", &home)
        .env("CARGO_NET_OFFLINE", "true")
        .args(["index", "crate:webpki@0.17.0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        error_line(&out),
        "errdex: webpki@0.17.0 is yanked and not in the cache"
    );
}

#[test]
fn a_crate_that_cannot_be_had_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let home = fresh_cargo_home(tmp.path());
    let db = tmp.path().join("c.db");
    for (spec, said) in [
        (
            "crate:errdex-no-such-crate-3f9a1c",
            "errdex: no such crate errdex-no-such-crate-3f9a1c",
        ),
        (
            "crate:errdex-no-such-crate-3f9a1c@1.0.0",
            "errdex: no such crate errdex-no-such-crate-3f9a1c",
        ),
        (
            "crate:semver@0.0.999",
            "errdex: no such version semver@0.0.999",
        ),
    ] {
        let out = errdex(&db)
            .env("CARGO_HOME", &home)
            .args(["index", spec])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{spec}");
        assert_eq!(error_line(&out), said, "{spec}");
    }

    // A mirror that does not answer (source replacement, as a user would
    // configure one).
    let dead = tmp.path().join("dead-home");
    std::fs::create_dir_all(&dead).unwrap();
    std::fs::write(
        dead.join("config.toml"),
        "[source.crates-io]\nreplace-with = \"dead\"\n\n[source.dead]\nregistry = \"sparse+http://127.0.0.1:9/index/\"\n\n[net]\nretry = 0\n",
    )
    .unwrap();
    let out = errdex(&db)
        .env("CARGO_HOME", &dead)
        .args(["index", "crate:semver@1.0.26"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = error_line(&out);
    assert!(err.starts_with("errdex: registry unreachable: "), "{err}");
    assert!(!db.exists(), "a failed first source leaves no catalogue");
}

/// A lock file as a real project may have one: a yanked pin, a git
/// dependency that cannot be fetched here, a package the registry does not
/// have, a checksum that is not the registry's. Everything that can be
/// had is indexed; the rest is named, and the exit status is 3.
#[test]
fn a_lock_file_is_indexed_as_far_as_it_can_be() {
    let tmp = tempfile::tempdir().unwrap();
    let home = fresh_cargo_home(tmp.path());
    let app = tmp.path().join("app");
    std::fs::create_dir_all(app.join("src")).unwrap();
    std::fs::write(
        app.join("Cargo.toml"),
        "[package]\nname = \"lockapp\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n\
         [dependencies]\nsemver = \"=1.0.26\"\nchacha20 = \"=0.10.1\"\n\
         forked = { git = \"https://git.invalid/forked.git\" }\n",
    )
    .unwrap();
    std::fs::write(
        app.join("src/main.rs"),
        "fn main() {\n    panic!(\"lockapp gave up\");\n}\n",
    )
    .unwrap();
    let registry = "registry+https://github.com/rust-lang/crates.io-index";
    std::fs::write(
        app.join("Cargo.lock"),
        format!(
            r#"version = 4

[[package]]
name = "lockapp"
version = "0.1.0"
dependencies = ["chacha20", "forked", "semver"]

[[package]]
name = "chacha20"
version = "0.10.1"
source = "{registry}"
checksum = "{chacha20}"

[[package]]
name = "semver"
version = "1.0.26"
source = "{registry}"
checksum = "56e6fa9c48d24d85fb3de5ad847117517440f6beceb7798af16b4a87d616b8d0"

[[package]]
name = "semver"
version = "1.0.25"
source = "{registry}"
checksum = "{zeros}"

[[package]]
name = "errdex-no-such-crate-3f9a1c"
version = "1.0.0"
source = "{registry}"
checksum = "{zeros}"

[[package]]
name = "forked"
version = "0.3.0"
source = "git+https://git.invalid/forked.git#0123456789abcdef0123456789abcdef01234567"
"#,
            chacha20 = CHACHA20_0_10_1,
            zeros = "0".repeat(64),
        ),
    )
    .unwrap();
    let db = tmp.path().join("c.db");
    let lock = format!("lock:{}", app.join("Cargo.lock").display());
    let run = |json: bool| {
        let mut c = errdex(&db);
        c.env("CARGO_HOME", &home).arg("index").arg(&lock);
        if json {
            c.arg("--json");
        }
        c.output().unwrap()
    };

    let out = run(true);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut indexed: Vec<&str> = s["indexed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    indexed.sort();
    assert_eq!(indexed.len(), 3, "{s}");
    assert_eq!(indexed[0], "chacha20@0.10.1", "the yanked pin");
    assert!(indexed[1].starts_with("lockapp@0.1.0 (path "), "{s}");
    assert_eq!(indexed[2], "semver@1.0.26");
    let reasons: Vec<(String, String, String)> = s["unavailable"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            (
                u["package"].as_str().unwrap().to_string(),
                u["source"].as_str().unwrap().to_string(),
                u["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let expect = |package: &str, source: &str, reason: &str| {
        assert!(
            reasons.contains(&(package.into(), source.into(), reason.into())),
            "{package} {reason}: {s}"
        );
    };
    expect(
        "forked@0.3.0",
        "https://git.invalid/forked.git",
        "git_without_clone",
    );
    expect(
        "errdex-no-such-crate-3f9a1c@1.0.0",
        "registry",
        "not_in_registry",
    );
    expect("semver@1.0.25", "registry", "checksum_mismatch");
    assert_eq!(reasons.len(), 3, "{s}");
    assert_eq!(s["skipped"]["checksum_mismatch"], 1, "{s}");
    for u in s["unavailable"].as_array().unwrap() {
        let detail = u["detail"].as_str().unwrap();
        assert!(!detail.is_empty() && !detail.contains('\n'), "{u}");
    }

    // What was indexed is kept; a second run indexes nothing again and
    // names the same packages, in text.
    let out = run(false);
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("0 indexed, 3 already indexed"), "{text}");
    assert!(text.contains("not indexed (3 of 6 packages):"), "{text}");
    assert!(
        text.contains(
            "semver@1.0.25 (registry): checksum_mismatch: checksum mismatch for semver@1.0.25"
        ),
        "{text}"
    );
    assert!(
        text.contains("forked@0.3.0 (https://git.invalid/forked.git): git_without_clone"),
        "{text}"
    );
    assert!(has_errors(&db, &home, "crate:chacha20"));
    assert!(has_errors(&db, &home, "lockapp"));
}

/// The registry's checksum of `chacha20-0.10.1.crate` (a yanked version).
const CHACHA20_0_10_1: &str = "d524456ba66e72eb8b115ff89e01e497f8e6d11d78b70b1aa13c0fbd97540a81";
