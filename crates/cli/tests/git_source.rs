//! Indexing real git repositories made by the test at several revisions,
//! read from the object store (work tree and bare clone alike).

mod common;

use common::{errdex, git, run_json};
use serde_json::Value;
use std::path::Path;

#[test]
fn revisions_of_a_git_repository() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("work");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    git(&repo, &["init", "-q"]);
    git(
        &repo,
        &[
            "remote",
            "add",
            "origin",
            "https://github.com/example-org/widget.git",
        ],
    );
    std::fs::write(
        repo.join("src/lib.rs"),
        "pub fn f() {\n    panic!(\"widget exploded\");\n}\n",
    )
    .unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "first"]);
    git(&repo, &["tag", "v1"]);
    let v1 = git(&repo, &["rev-parse", "v1"]);
    std::fs::write(
        repo.join("src/lib.rs"),
        "// moved\n\npub fn f() {\n    panic!(\"widget exploded\");\n}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink("/etc/passwd", repo.join("src/leak.rs")).unwrap();
    // Uncommitted: not part of any revision.
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "second"]);
    std::fs::write(
        repo.join("src/dirty.rs"),
        "fn d() { panic!(\"uncommitted\"); }\n",
    )
    .unwrap();
    let v2 = git(&repo, &["rev-parse", "HEAD"]);
    let bare = tmp.path().join("widget.git");
    git(
        tmp.path(),
        &[
            "clone",
            "-q",
            "--bare",
            repo.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );

    let db = tmp.path().join("c.db");
    let s = run_json(
        errdex(&db)
            .args(["index", "--json"])
            .arg(format!("{}@v1", repo.display())),
    );
    assert_eq!(s["repo"], "example-org/widget");
    assert_eq!(s["revision"], v1);
    assert_eq!(s["date"], "2025-01-02T03:04:05Z");

    // The work tree at HEAD: committed content only, the link skipped.
    let out = errdex(&db)
        .args(["index", "--json"])
        .arg(&repo)
        .output()
        .unwrap();
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["revision"], v2);
    assert_eq!(s["skipped"]["symlink"], 1);
    let list: Value = serde_json::from_slice(
        &errdex(&db)
            .args(["list", "example-org/widget", "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let rows = list.as_array().unwrap();
    assert!(rows.iter().all(|r| r["template"] != "uncommitted"));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["line"], 4);

    // The same error keeps its id across revisions; show lists both lines.
    let id = rows[0]["id"].as_str().unwrap();
    let shown: Value = serde_json::from_slice(
        &errdex(&db)
            .args(["show", id, "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let mut seen: Vec<(String, u64)> = shown["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["revision"].as_str().unwrap().to_string(),
                s["line"].as_u64().unwrap(),
            )
        })
        .collect();
    seen.sort();
    let mut want = vec![(v1.clone(), 2), (v2.clone(), 4)];
    want.sort();
    assert_eq!(seen, want);
    assert_eq!(shown["versions"][0]["revision"], v1.as_str());
    assert_eq!(shown["versions"][1]["lines"][0], 4);
    let links: Vec<&str> = shown["sites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["forge_url"].as_str().unwrap())
        .collect();
    assert!(
        links.contains(
            &format!("https://github.com/example-org/widget/blob/{v1}/src/lib.rs#L2").as_str()
        ),
        "{links:?}"
    );

    // A bare clone reads the same revision.
    let out = errdex(&db)
        .args(["index", "--json"])
        .arg(format!("{}@v1", bare.display()))
        .output()
        .unwrap();
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["revision"], v1);
    assert_eq!(s["files"], 1);

    // An unknown revision is a one-line error and changes nothing.
    let before = errdex(&db)
        .args(["list", "--json"])
        .output()
        .unwrap()
        .stdout;
    let out = errdex(&db)
        .args(["index"])
        .arg(format!("{}@no-such-tag", repo.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown revision"));
    assert_eq!(
        errdex(&db)
            .args(["list", "--json"])
            .output()
            .unwrap()
            .stdout,
        before
    );
}

/// Re-indexing after one changed file parses only that file, and the
/// catalogue holds exactly what a full index of the revision holds.
#[test]
fn unchanged_files_are_not_parsed_again() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("gadget");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    git(&repo, &["init", "-q"]);
    let lib = "pub mod a;\npub mod b;\npub const MSG: &str = \"gadget limit reached\";\n";
    std::fs::write(repo.join("src/lib.rs"), lib).unwrap();
    std::fs::write(
        repo.join("src/a.rs"),
        "pub fn a(x: u8) {\n    assert!(x < 3, \"{}\", crate::MSG);\n}\n",
    )
    .unwrap();
    std::fs::write(
        repo.join("src/b.rs"),
        "pub fn b() -> Result<(), String> {\n    Err(\"gadget b failed\".into())\n}\n",
    )
    .unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    git(&repo, &["tag", "v1"]);
    // Only the constant's file changes; a.rs, whose message is that
    // constant, is reused and must still see the new text.
    std::fs::write(
        repo.join("src/lib.rs"),
        lib.replace("gadget limit reached", "gadget limit of 3 reached"),
    )
    .unwrap();
    git(&repo, &["commit", "-q", "-am", "two"]);
    let rev = |r: &str| format!("{}@{r}", repo.display());

    let db = tmp.path().join("reuse.db");
    let first = run_json(errdex(&db).args(["index", "--json", &rev("v1")]));
    assert_eq!(first["parsed_files"], 3);
    assert_eq!(first["reused_files"], 0);
    let second = run_json(errdex(&db).args(["index", "--json", &rev("HEAD")]));
    assert_eq!(second["parsed_files"], 1, "{second}");
    assert_eq!(second["reused_files"], 2, "{second}");

    let full = tmp.path().join("full.db");
    let whole = run_json(errdex(&full).args(["index", "--json", "--no-reuse", &rev("HEAD")]));
    assert_eq!(whole["parsed_files"], 3);
    let list = |db: &Path| run_json(errdex(db).args(["list", "--json", "gadget"]));
    assert_eq!(list(&db), list(&full));
    let messages = list(&db).to_string();
    assert!(messages.contains("gadget limit of 3 reached"), "{messages}");
    assert!(!messages.contains("gadget limit reached"), "{messages}");
}
