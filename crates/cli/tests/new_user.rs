//! Things a new user met (issue 13, section 2), on the real binary and
//! server: each answers plainly.

mod common;

use common::server::Server;
use common::{errdex, facts_db, id_of, run_json};

#[test]
fn api_explain_takes_plain_text_and_forms() {
    let tmp = tempfile::tempdir().unwrap();
    let db = facts_db(tmp.path());
    let id = id_of(&db, "facts", "division by zero");
    let s = Server::start(&db);
    let pasted = "thread 'main' panicked at src/lib.rs:13:9:\ndivision by zero: 4 / 0";
    let form = format!(
        "text={}",
        pasted
            .bytes()
            .map(|b| if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            })
            .collect::<String>()
    );
    for (ctype, body) in [
        ("text/plain; charset=utf-8", pasted.to_string()),
        ("application/x-www-form-urlencoded", form),
        (
            "application/json",
            serde_json::json!({ "text": pasted }).to_string(),
        ),
    ] {
        let mut r = ureq::post(&s.url("/api/explain"))
            .header("content-type", ctype)
            .send(&body)
            .unwrap();
        let x: serde_json::Value =
            serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
        let best = x["best"][0].as_u64().unwrap() as usize;
        assert_eq!(x["matches"][best]["error_id"], id.as_str(), "{ctype}: {x}");
    }
}

#[test]
fn index_name_names_a_clone_without_origin() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("clone");
    std::fs::create_dir_all(repo.join("src")).unwrap();
    std::fs::write(
        repo.join("src/lib.rs"),
        "pub fn f() { panic!(\"named\") }\n",
    )
    .unwrap();
    common::git(&repo, &["init", "-q"]);
    common::git(&repo, &["add", "."]);
    common::git(&repo, &["commit", "-qm", "one"]);
    let db = tmp.path().join("c.db");
    let summary = run_json(
        errdex(&db)
            .args(["index", "--json", "--name", "owner/project"])
            .arg(&repo),
    );
    assert_eq!(summary["repo"], "owner/project", "{summary}");
    assert_eq!(id_of(&db, "owner/project", "named").len(), 16);
    for bad in ["../x", "a b", "crate:x", ""] {
        let out = errdex(&db)
            .args(["index", "--name", bad])
            .arg(&repo)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn analyze_with_no_model_server_says_connection_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let db = facts_db(tmp.path());
    // A port nothing listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = errdex(&db)
        .args([
            "analyze",
            "facts",
            "--llm",
            &format!("http://127.0.0.1:{port}/v1"),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("connection refused"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("refused by the verifier"));
}

#[test]
fn explain_says_where_long_input_was_cut() {
    let tmp = tempfile::tempdir().unwrap();
    let db = facts_db(tmp.path());
    let input = "division by zero: 4 / 0\n".repeat(60_000);
    let out = errdex(&db)
        .arg("explain")
        .write_stdin(input)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("longer than 1 MiB"), "{err}");
    assert!(err.contains("first 1048576 bytes"), "{err}");
    assert!(err.contains("line 43691"), "{err}");
    let out = errdex(&db)
        .arg("explain")
        .write_stdin("division by zero: 4 / 0\n")
        .output()
        .unwrap();
    assert!(out.stderr.is_empty());
}

#[test]
fn a_file_that_is_not_a_catalogue_is_one_clear_line() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty.db");
    std::fs::write(&empty, "").unwrap();
    let text = tmp.path().join("text.db");
    std::fs::write(&text, "not sqlite at all ".repeat(100)).unwrap();
    let other = tmp.path().join("other.db");
    // Another program's SQLite database: make one with errdex's own
    // catalogue, then hide its schema version (user_version = 0).
    let _ = facts_db(tmp.path());
    std::fs::copy(tmp.path().join("facts.db"), &other).unwrap();
    let st = std::process::Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import sqlite3; c = sqlite3.connect({:?}); c.execute('PRAGMA user_version = 0'); c.commit()",
            other.display().to_string()
        ))
        .status();
    let have_python = st.is_ok_and(|s| s.success());
    let mut cases = vec![(empty, "an empty file"), (text, "not a SQLite database")];
    if have_python {
        cases.push((other.clone(), "another program"));
    }
    for (db, what) in cases {
        for args in [
            &["list"][..],
            &["show", "0123456789abcdef"],
            &["explain", "x"],
        ] {
            let out = errdex(&db).args(args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            assert!(err.contains("is not an errdex catalogue"), "{err}");
            assert!(err.contains(what), "{err}");
            assert!(!err.contains("no such table"), "{err}");
        }
    }
    if have_python {
        // Never written into either.
        let out = errdex(&other)
            .args(["index"])
            .arg(tmp.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
    }
}
