//! `errdex explain` on output as users paste it into issues: every panic
//! format of Rust's releases and of common hooks, Windows and Docker paths,
//! process-manager and journald prefixes, a terminal's garbage, several
//! versions of one crate indexed — on two real versions of a crate from the
//! registry (scoped-tls 1.0.0 and 1.0.1 print the same panic at the same
//! line). And the same paste gives the same answer in every process.

mod common;

use common::errdex;
use serde_json::Value;
use std::path::Path;

/// scoped-tls's message, as its `panic!` prints it.
const MSG: &str = "cannot access a scoped thread local variable without calling `set` first";

fn catalogue(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("wild.db");
    for spec in ["crate:scoped-tls@1.0.0", "crate:scoped-tls@1.0.1"] {
        let out = errdex(&db).args(["index", spec]).output().unwrap();
        assert!(
            out.status.success(),
            "{spec}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    db
}

/// The explain record (without `index`, which says how long it took).
fn explain(db: &Path, input: &str) -> Value {
    let out = errdex(db)
        .args(["explain", "--json", "-"])
        .write_stdin(input.as_bytes().to_vec())
        .output()
        .unwrap();
    let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_object_mut().unwrap().remove("index");
    v
}

/// The answer's crate version, file and line.
fn answer(v: &Value) -> (String, String, String, u64) {
    let m = &v["matches"][0];
    (
        m["repo"].as_str().unwrap_or("").to_string(),
        m["revision"].as_str().unwrap_or("").to_string(),
        m["path"].as_str().unwrap_or("").to_string(),
        m["line"].as_u64().unwrap_or(0),
    )
}

#[test]
fn pastes_of_every_format_find_the_site_and_version() {
    let tmp = tempfile::tempdir().unwrap();
    let db = catalogue(tmp.path());
    let cases = [
        // Rust < 1.73 on Windows, printed by wasm's console hook (no thread).
        (
            format!("panicked at '{MSG}', C:\\Users\\n\\.cargo\\registry\\src\\github.com-1ecc6299db9ec823\\scoped-tls-1.0.0\\src\\lib.rs:168:9\n\ngithub.com-1ecc6299db9ec823\\scoped-tls-1.0.0\\src\\lib.rs:168:9\n\nStack:\n\nError\n    at module.exports.__wbg_new_59cb74e423758ede (C:\\w\\a.js:135:17)\n"),
            "1.0.0",
        ),
        // Rust ≥ 1.73 under pm2, with a thread id.
        (
            format!("2|hasher   | thread '<unnamed>' (77) panicked at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/scoped-tls-1.0.1/src/lib.rs:168:9:\n2|hasher   | {MSG}\n2|hasher   | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"),
            "1.0.1",
        ),
        // journald, Docker's registry path, old format.
        (
            format!("Dec 09 15:15:53 host app[321]: thread 'io-2' panicked at '{MSG}', /cargo/registry/src/github.com-1ecc6299db9ec823/scoped-tls-1.0.0/src/lib.rs:168:9\nDec 09 15:15:53 host app[321]: stack backtrace:\n"),
            "1.0.0",
        ),
        // color-eyre's report.
        (
            format!("The application panicked (crashed).\nMessage:  {MSG}\nLocation: /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/scoped-tls-1.0.1/src/lib.rs:168\n"),
            "1.0.1",
        ),
        // A log hook printing `PanicInfo`, a vendored path.
        (
            format!("[ERROR] panic: PanicInfo {{ payload: Any {{ .. }}, message: Some({MSG}), location: Location {{ file: \"/usr/pkgsrc/work/vendor/scoped-tls-1.0.0/src/lib.rs\", line: 168, col: 9 }}, can_unwind: true }}\n"),
            "1.0.0",
        ),
        // Drawn over by a terminal UI, a stray character before `thread`.
        (
            format!("Pthread 'main' panicked at /U/j/.cargo/registry/src/index.crates.io-6f17d22bba15001f/scoped-tls-1.0.1/src/lib.rs:168:9:++++++++++          +++++++\n+++++++{MSG}    +++++++++\n"),
            "1.0.1",
        ),
        // Only the location, trimmed by the reporter.
        ("[snip]/scoped-tls-1.0.0/src/lib.rs:168:9".to_string(), "1.0.0"),
    ];
    for (input, version) in &cases {
        let v = explain(&db, input);
        let (repo, revision, path, line) = answer(&v);
        assert_eq!(
            (repo.as_str(), revision.as_str(), path.as_str()),
            ("crate:scoped-tls", *version, "src/lib.rs"),
            "{input}\n{v:#}"
        );
        assert!((166..=170).contains(&line), "{line}: {input}");
    }
}

#[test]
fn without_a_version_one_answer_lists_the_others_and_every_process_agrees() {
    let tmp = tempfile::tempdir().unwrap();
    let db = catalogue(tmp.path());
    let v = explain(&db, MSG);
    let (repo, revision, _, _) = answer(&v);
    assert_eq!(repo, "crate:scoped-tls");
    // The newest of the versions that print it alike leads; the other is
    // the same text, not a rival answer.
    assert_eq!(revision, "1.0.1");
    let other = v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["revision"] == "1.0.0")
        .expect("the other version is listed");
    assert_eq!(other["same_text_as"], 0);
    // Separate processes (each with its own hash seeds) answer alike.
    for input in [
        MSG.to_string(),
        format!("thread 'main' panicked at '{MSG}'"),
    ] {
        let first = explain(&db, &input);
        for _ in 0..3 {
            assert_eq!(explain(&db, &input), first, "{input}");
        }
    }
}

#[test]
fn why_shows_how_the_score_was_made() {
    let tmp = tempfile::tempdir().unwrap();
    let db = catalogue(tmp.path());
    let input = format!("thread 'main' panicked at '{MSG}', /h/scoped-tls-1.0.0/src/lib.rs:168:9");
    let v = explain(&db, &input);
    let why = &v["matches"][0]["why"];
    assert_eq!(why["value"], v["matches"][0]["score"]);
    let steps: Vec<&str> = why["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["description"].as_str().unwrap())
        .collect();
    assert_eq!(steps[0], "a registry location names this site", "{why:#}");
    assert!(steps.contains(&"+ the paste names this version"), "{why:#}");
    let out = errdex(&db)
        .args(["explain", "--why", &input])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("0.800  a registry location names this site"),
        "{text}"
    );
    // The other version is there, weighed down for the version named.
    assert!(
        text.contains("× the paste names another version of its crate"),
        "{text}"
    );
}
