//! Indexes real crates from the registry at pinned versions (through cargo,
//! as a user would) and checks sites verified by hand against their source:
//! file, line, kind, template.

mod common;

use common::errdex;
use serde_json::Value;
use std::path::Path;

/// (path, line, kind, template as `list` shows it)
type Expected = (&'static str, u32, &'static str, &'static str);

const SERDE_JSON: &[Expected] = &[
    ("src/error.rs", 354, "display", "EOF while parsing a list"),
    ("src/error.rs", 360, "display", "expected `,` or `}}`"),
    ("src/error.rs", 410, "display", "{} at line {} column {}"),
    (
        "src/error.rs",
        423,
        "debug_impl",
        "Error({:?}, line: {}, column: {})",
    ),
    (
        "src/value/index.rs",
        72,
        "panic",
        "cannot access index {self} of JSON array of length {len}",
    ),
    (
        "src/value/index.rs",
        102,
        "panic",
        "cannot access key {self:?} in JSON {}",
    ),
    ("src/map.rs", 479, "expect", "no entry found for key"),
    ("src/number.rs", 418, "ok_or", "JSON number out of range"),
    (
        "src/lib.rs",
        371,
        "compile_error",
        "serde_json requires that either `std` (default) or `alloc` feature is enabled",
    ),
    (
        "src/lexical/shift.rs",
        12,
        "assert",
        "shr() overflow in shift right.",
    ),
    (
        "src/de.rs",
        2122,
        "serde_custom",
        "invalid type: unit variant, expected newtype variant",
    ),
    ("src/ser.rs", 449, "expect", "there should be an error"),
];

const ANYHOW: &[Expected] = &[
    ("build.rs", 136, "eprintln", "Failed to create {}: {err}"),
    (
        "src/lib.rs",
        247,
        "compile_error",
        "Build script probe failed to compile.",
    ),
    ("src/error.rs", 1118, "expect", "backtrace capture failed"),
    ("tests/common/mod.rs", 5, "bail", "oh no!"),
    ("tests/test_boxed.rs", 12, "error_attr", "outer"),
    (
        "tests/test_context.rs",
        78,
        "context",
        "failed to load config",
    ),
    (
        "tests/test_ensure.rs",
        139,
        "ensure",
        "Condition failed: `a <= b || a - b <= 10`",
    ),
    (
        "tests/test_ensure.rs",
        127,
        "ensure",
        "Condition failed: `false == true && false`",
    ),
];

const CARGO_METADATA: &[Expected] = &[
    (
        "src/errors.rs",
        27,
        "error_attr",
        "`cargo metadata` exited with an error: {stderr}",
    ),
    (
        "src/errors.rs",
        34,
        "error_attr",
        "failed to start `cargo metadata`: {0}",
    ),
    (
        "src/errors.rs",
        50,
        "error_attr",
        "could not find any json in the output of `cargo metadata`",
    ),
    (
        "src/lib.rs",
        226,
        "panic",
        "no package with this id: {idx:?}",
    ),
    (
        "src/lib.rs",
        273,
        "expect",
        "WorkspaceDefaultMembers should only be dereferenced on Cargo versions >= 1.71",
    ),
    (
        "src/lib.rs",
        987,
        "assert",
        "Do not supply CargoOpt::NoDefaultFeatures more than once!",
    ),
    (
        "src/lib.rs",
        1129,
        "serde_custom",
        "pre-release identifiers are not supported in rust-version",
    ),
];

fn check(db: &Path, repo: &str, expected: &[Expected]) {
    let out = errdex(db).args(["list", repo, "--json"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = list.as_array().unwrap();
    for (path, line, kind, template) in expected {
        let found = rows
            .iter()
            .find(|r| r["path"] == *path && r["line"] == *line && r["kind"] == *kind);
        let Some(found) = found else {
            let near: Vec<String> = rows
                .iter()
                .filter(|r| r["path"] == *path)
                .map(|r| format!("{}:{} {}", r["line"], r["kind"], r["template"]))
                .collect();
            panic!("{repo}: no {kind} at {path}:{line}; sites in that file: {near:#?}");
        };
        assert_eq!(found["template"], *template, "{repo} {path}:{line}");
    }
}

#[test]
fn pinned_registry_crates_yield_hand_verified_sites() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("c.db");
    let out = errdex(&db)
        .args([
            "index",
            "--json",
            "crate:serde_json@1.0.140",
            "crate:anyhow@1.0.98",
            "crate:cargo_metadata@0.19.2",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summaries: Vec<Value> = out
        .stdout
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    assert_eq!(summaries.len(), 3);
    assert_eq!(summaries[0]["repo"], "crate:serde_json");
    assert_eq!(summaries[0]["revision"], "1.0.140");
    check(&db, "crate:serde_json", SERDE_JSON);
    check(&db, "crate:anyhow", ANYHOW);
    check(&db, "crate:cargo_metadata", CARGO_METADATA);

    // `show` reports the method line for a multi-line `expect` chain and
    // prints the pinned excerpt from the stored source.
    let out = errdex(&db)
        .args(["list", "crate:anyhow", "--kind", "expect", "--json"])
        .output()
        .unwrap();
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id = list
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["line"] == 1118)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let out = errdex(&db).args(["show", &id, "--json"]).output().unwrap();
    let shown: Value = serde_json::from_slice(&out.stdout).unwrap();
    let site = &shown["sites"][0];
    assert_eq!(site["report_line"], 1127);
    assert_eq!(site["revision"], "1.0.98");
    let excerpt = site["excerpt"].as_array().unwrap();
    assert!(excerpt.iter().any(|l| l["line"] == 1127
        && l["text"]
            .as_str()
            .unwrap()
            .contains(".expect(\"backtrace capture failed\")")));

    // Indexing the same version again from the same files keeps it as it
    // was: same counts, flagged unchanged, nothing replaced.
    let before = errdex(&db)
        .args(["list", "crate:anyhow", "--json"])
        .output()
        .unwrap()
        .stdout;
    let out = errdex(&db)
        .args(["index", "--json", "crate:anyhow@1.0.98"])
        .output()
        .unwrap();
    let again: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(again["unchanged"], true);
    assert_eq!(again["replaced"], false);
    let after = errdex(&db)
        .args(["list", "crate:anyhow", "--json"])
        .output()
        .unwrap()
        .stdout;
    assert_eq!(before, after);
}
