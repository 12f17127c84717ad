//! The real binary on hostile trees and bad arguments: clear one-line
//! errors with exit 2, counted skips, never a panic, never a path outside
//! the tree.

mod common;

use common::{errdex, run_json};
use serde_json::Value;
use std::path::Path;

fn one_line_error(out: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "expected one line, got: {err}"
    );
    assert!(err.starts_with("errdex: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    err
}

#[test]
fn hostile_tree_is_indexed_with_counted_skips() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("tree");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        "pub fn f() { panic!(\"inside the tree\"); }\n",
    )
    .unwrap();
    std::fs::write(
        root.join("src/latin1.rs"),
        b"fn g() { panic!(\"caf\xe9\"); }\n",
    )
    .unwrap();
    std::fs::write(root.join("src/nul.rs"), b"fn h() {}\0\0\0").unwrap();
    let big = "// filler\n".repeat(1_700_000);
    std::fs::write(root.join("src/huge.rs"), big).unwrap();
    std::fs::write(
        root.join("src/broken.rs"),
        "fn broken( { panic!(\"still found\"); }}}\n",
    )
    .unwrap();
    let outside = tmp.path().join("outside.rs");
    std::fs::write(&outside, "fn secret() { panic!(\"outside the tree\"); }\n").unwrap();
    std::os::unix::fs::symlink(&outside, root.join("src/leak.rs")).unwrap();
    std::os::unix::fs::symlink(tmp.path(), root.join("src/up")).unwrap();
    // A socket cannot be read as a file, even by root.
    let _listener = std::os::unix::net::UnixListener::bind(root.join("src/sock.rs")).unwrap();

    let db = tmp.path().join("c.db");
    let summary = run_json(errdex(&db).args(["index", "--json"]).arg(&root));
    assert_eq!(summary["files"], 2, "{summary}");
    let skipped = &summary["skipped"];
    assert_eq!(skipped["invalid_utf8"], 1, "{summary}");
    assert_eq!(skipped["binary"], 1, "{summary}");
    assert_eq!(skipped["too_large"], 1, "{summary}");
    assert_eq!(skipped["symlink"], 2, "{summary}");
    assert_eq!(skipped["not_regular"], 1, "{summary}");
    assert!(summary["syntax_errors"].as_u64().unwrap() >= 1);

    let out = errdex(&db).args(["list", "--json"]).output().unwrap();
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let templates: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["template"].as_str().unwrap())
        .collect();
    assert!(templates.contains(&"inside the tree"), "{templates:?}");
    assert!(templates.contains(&"still found"), "{templates:?}");
    assert!(
        !templates.iter().any(|t| t.contains("outside")),
        "{templates:?}"
    );
}

#[test]
fn bad_arguments_fail_with_one_line_and_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("c.db");
    for args in [
        vec!["index", "/no/such/folder"],
        vec!["index", "crate:bad name"],
        vec!["index", "crate:serde@1\"; rm -rf"],
        vec!["list", "--kind", "nonsense"],
        vec!["show", "not-an-id"],
    ] {
        let out = errdex(&db).args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        one_line_error(&out);
    }
    // Reading commands without a catalogue say so.
    let out = errdex(&db).args(["list"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(one_line_error(&out).contains("errdex index"));
}

#[test]
fn garbage_catalogue_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("c.db");
    std::fs::write(&db, "this is not a database, just text ".repeat(200)).unwrap();
    let out = errdex(&db).args(["list"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    one_line_error(&out);
}

#[test]
fn explain_answers_garbage_clearly() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("c.db");
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kinds");
    assert!(errdex(&db)
        .arg("index")
        .arg(&fixture)
        .output()
        .unwrap()
        .status
        .success());

    // Binary input: one line, exit 2.
    let out = errdex(&db)
        .args(["explain", "-"])
        .write_stdin(vec![0u8, 1, 2, 3, 255, 0])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    one_line_error(&out);

    // Empty input and unrelated text: nothing matched, exit 1, no panic.
    for input in ["".to_string(), "zzqx vvwk".to_string()] {
        let out = errdex(&db)
            .args(["explain", "--json", "-"])
            .write_stdin(input)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["matches"].as_array().unwrap().len(), 0);
    }

    // 10 MB of text: read up to the limit, answered.
    let big = "division by zero: 1 / 0\n".repeat(450_000);
    let out = errdex(&db)
        .args(["explain", "--json", "-"])
        .write_stdin(big)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["matches"][0]["path"], "src/lib.rs");

    // A real panic from the fixture, with its values captured.
    let out = errdex(&db)
        .args(["explain", "--json"])
        .arg("thread 'main' (7) panicked at src/lib.rs:32:9:\ndivision by zero: 7 / 0\n")
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["matches"][0];
    assert_eq!(
        (m["line"].as_u64(), m["kind"].as_str()),
        (Some(32), Some("panic"))
    );
    assert!(m["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e == "location"));
    assert_eq!(
        m["captures"][0],
        serde_json::json!({"arg": "a", "value": "7"})
    );
}
