//! The real binary on a PostgreSQL catalogue (`--db postgres://…`, from
//! `ERRDEX_TEST_PG`) answers exactly as on a SQLite file: `index`,
//! `list`, `show`, `explain`, `analyze` and `serve`; and its connection
//! failures are one line each.

mod common;
#[path = "../../catalog/tests/common/pg.rs"]
mod pg;

use common::{errdex, run_json, server::Server};
use serde_json::Value;
use std::path::Path;

/// `v` without what differs between two runs (timings, when indexed).
fn steady(mut v: Value) -> Value {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                for k in [
                    "build_ms",
                    "built",
                    "seconds",
                    "indexed_at",
                    "facts_ms_per_error",
                ] {
                    m.remove(k);
                }
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut v);
    v
}

/// Every answer the commands give about the fixture crate `facts`.
fn answers(db: &str) -> Vec<Value> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/facts");
    let mut out = vec![run_json(errdex(db).arg("index").arg("--json").arg(&root))];
    let list = run_json(errdex(db).args(["list", "--json"]));
    let ids: Vec<String> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert!(ids.len() > 5);
    out.push(list);
    out.push(run_json(errdex(db).args(["analyze", "--json", "facts"])));
    for id in &ids {
        out.push(run_json(errdex(db).args(["show", "--json", id])));
    }
    let text = "thread 'main' panicked at src/lib.rs:13:9:\ndivision by zero: 4 / 0";
    out.push(run_json(errdex(db).args(["explain", "--json", text])));
    // The web server's API over the same catalogue.
    let server = Server::start(db);
    let api = ureq::get(&server.url(&format!("/api/errors/{}", ids[0])))
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    let mut api: Value = serde_json::from_str(&api).unwrap();
    // Links name the server's own address.
    api.as_object_mut()
        .unwrap()
        .retain(|k, _| !k.ends_with("url"));
    out.push(api);
    out.into_iter().map(steady).collect()
}

#[test]
fn postgres_and_sqlite_give_the_same_json() {
    let Some(db) = pg::TempDb::new() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let sqlite = tmp.path().join("c.db");
    let from_sqlite = answers(sqlite.to_str().unwrap());
    let from_pg = answers(&db.url);
    assert_eq!(from_sqlite.len(), from_pg.len());
    for (a, b) in from_sqlite.iter().zip(&from_pg) {
        assert_eq!(a, b);
    }
}

/// A command's failure: exit status 2 and one line on stderr.
fn one_line_failure(db: &str, args: &[&str]) -> String {
    let out = errdex(db).args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err.trim_end().to_string()
}

#[test]
fn connection_failures_are_one_line_without_the_password() {
    let e = one_line_failure("postgres://me:hunter2@127.0.0.1:notaport/x", &["list"]);
    assert!(e.starts_with("errdex: malformed PostgreSQL URL: "), "{e}");
    let e = one_line_failure("postgres://me:hunter2@127.0.0.1:1/x", &["list"]);
    assert_eq!(
        e,
        "errdex: cannot connect to PostgreSQL at 127.0.0.1:1: connection refused"
    );
    assert!(!e.contains("hunter2"));
    let Some(db) = pg::TempDb::new() else { return };
    // A database without the catalogue is not one to read.
    let e = one_line_failure(&db.url, &["list"]);
    assert!(e.contains("is not an errdex catalogue"), "{e}");
}
