//! The history pass on real repositories made by the test: the commit that
//! introduced each message, across moves, rewordings, merges, shallow
//! clones and corrupt objects.

mod common;

use common::{errdex, git, run_json};
use serde_json::Value;
use std::collections::HashMap;
use std::path::Path;

/// `template → origin` of every error of `repo` in the catalogue.
fn origins(db: &Path, repo: &str) -> HashMap<String, Value> {
    let list = run_json(errdex(db).args(["list", "--json", repo]));
    list.as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let shown = run_json(errdex(db).args(["show", "--json", e["id"].as_str().unwrap()]));
            (
                e["template"].as_str().unwrap().to_string(),
                shown["origin"].clone(),
            )
        })
        .collect()
}

fn write(repo: &Path, path: &str, text: &str) {
    let p = repo.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// A repository whose messages have a known history; returns the shas of
/// its commits by name.
fn make_history(repo: &Path) -> HashMap<&'static str, String> {
    let mut shas = HashMap::new();
    git(repo, &["init", "-q"]);
    write(
        repo,
        "src/lib.rs",
        "pub fn parse(s: &str) {\n    if s.is_empty() {\n        panic!(\"parser exploded on empty input\");\n    }\n}\n\
         pub fn load() -> Result<(), String> {\n    Err(\"config file missing entirely\".into())\n}\n",
    );
    write(repo, "README.md", "parser exploded on empty input\n");
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "Add the parser (#10)"]);
    shas.insert("add", git(repo, &["rev-parse", "HEAD"]));

    // The panic moves to another file and line: its origin stays.
    write(
        repo,
        "src/lib.rs",
        "pub mod parse;\npub fn load() -> Result<(), String> {\n    Err(\"config file missing entirely\".into())\n}\n",
    );
    write(
        repo,
        "src/parse.rs",
        "// The parser.\n\npub fn parse(s: &str) {\n    if s.is_empty() {\n        panic!(\"parser exploded on empty input\");\n    }\n}\n",
    );
    git(repo, &["add", "."]);
    git(
        repo,
        &["commit", "-q", "-m", "Move the parser to its own file"],
    );

    // The error is reworded: a new message, introduced here.
    write(
        repo,
        "src/lib.rs",
        "pub mod parse;\npub fn load() -> Result<(), String> {\n    Err(\"config file is missing entirely\".into())\n}\n",
    );
    git(
        repo,
        &["commit", "-q", "-am", "Reword the config error (#12)"],
    );
    shas.insert("reword", git(repo, &["rev-parse", "HEAD"]));

    // A side branch merged by a pull request.
    git(repo, &["checkout", "-q", "-b", "net"]);
    write(
        repo,
        "src/net.rs",
        "pub fn get() {\n    unimplemented!(\"network layer not written yet\")\n}\n",
    );
    git(repo, &["add", "."]);
    git(repo, &["commit", "-q", "-m", "Network stub"]);
    git(repo, &["checkout", "-q", "main"]);
    git(
        repo,
        &[
            "merge",
            "-q",
            "--no-ff",
            "-m",
            "Merge pull request #15 from someone/net",
            "net",
        ],
    );
    shas.insert("merge", git(repo, &["rev-parse", "HEAD"]));

    // A rename changes no message's origin.
    git(repo, &["mv", "src/net.rs", "src/network.rs"]);
    git(repo, &["commit", "-q", "-m", "Rename net to network"]);
    shas
}

#[test]
fn each_message_is_traced_to_the_commit_that_introduced_it() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("tracer");
    std::fs::create_dir_all(&repo).unwrap();
    let shas = make_history(&repo);
    let db = tmp.path().join("h.db");
    let summary = run_json(errdex(&db).args(["index", "--json", repo.to_str().unwrap()]));
    assert_eq!(summary["history"]["traced"], 3, "{summary}");
    assert_eq!(summary["history"]["before_shallow_boundary"], 0);

    let o = origins(&db, "tracer");
    let moved = &o["parser exploded on empty input"];
    assert_eq!(moved["status"], "commit");
    assert_eq!(moved["commit"], shas["add"].as_str(), "{moved}");
    assert_eq!(moved["subject"], "Add the parser (#10)");
    assert_eq!(moved["pr"], 10);
    assert_eq!(moved["date"], "2025-01-02T03:04:05Z");

    let reworded = &o["config file is missing entirely"];
    assert_eq!(reworded["commit"], shas["reword"].as_str(), "{reworded}");
    assert_eq!(reworded["pr"], 12);

    let merged = &o["not implemented: network layer not written yet"];
    assert_eq!(merged["commit"], shas["merge"].as_str(), "{merged}");
    assert_eq!(merged["pr"], 15);

    let list = run_json(errdex(&db).args(["list", "--json", "tracer"]));
    let id = list
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["template"] == "parser exploded on empty input")
        .unwrap()["id"]
        .as_str()
        .unwrap();
    let text = errdex(&db).args(["show", id]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(
        text.contains(&format!(
            "Introduced in {} (2025-01-02T03:04:05Z): Add the parser (#10) [PR #10]",
            &shas["add"][..12]
        )),
        "{text}"
    );

    // Without the pass, no origin is recorded.
    let plain = tmp.path().join("plain.db");
    let s =
        run_json(errdex(&plain).args(["index", "--json", "--no-history", repo.to_str().unwrap()]));
    assert!(s.get("history").is_none());
    assert!(origins(&plain, "tracer").values().all(Value::is_null));
}

#[test]
fn a_shallow_clone_says_its_history_is_cut() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("tracer");
    std::fs::create_dir_all(&repo).unwrap();
    make_history(&repo);
    let shallow = tmp.path().join("shallow");
    git(
        tmp.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &format!("file://{}", repo.display()),
            shallow.to_str().unwrap(),
        ],
    );
    let db = tmp.path().join("s.db");
    let summary = run_json(errdex(&db).args(["index", "--json", shallow.to_str().unwrap()]));
    assert_eq!(summary["history"]["traced"], 0, "{summary}");
    assert_eq!(
        summary["history"]["before_shallow_boundary"], 3,
        "{summary}"
    );
    // A file:// origin names no forge: the slug is the folder's name.
    let o = origins(&db, "shallow");
    assert_eq!(o.len(), 3);
    let head = git(&shallow, &["rev-parse", "HEAD"]);
    for origin in o.values() {
        assert_eq!(origin["status"], "before_shallow_boundary");
        assert_eq!(origin["boundary"], head.as_str());
    }
}

#[test]
fn a_corrupt_object_is_a_clear_error_and_leaves_the_catalogue_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("tracer");
    std::fs::create_dir_all(&repo).unwrap();
    make_history(&repo);
    let db = tmp.path().join("c.db");
    let first =
        run_json(errdex(&db).args(["index", "--json", &format!("{}@HEAD~1", repo.display())]));
    assert!(first["sites"].as_u64().unwrap() > 0);
    let before = run_json(errdex(&db).args(["list", "--json"]));

    // Overwrite the loose object of a file HEAD reads with garbage.
    let blob = git(&repo, &["rev-parse", "HEAD:src/network.rs"]);
    let object = repo.join(".git/objects").join(&blob[..2]).join(&blob[2..]);
    let mut perms = std::fs::metadata(&object).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&object, perms).unwrap();
    std::fs::write(&object, b"this is not a zlib stream").unwrap();

    let out = errdex(&db)
        .args(["index", repo.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("src/network.rs"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(run_json(errdex(&db).args(["list", "--json"])), before);
}
