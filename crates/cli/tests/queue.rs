//! The job queue end to end with the real binary on a real PostgreSQL
//! server (`ERRDEX_TEST_PG`; CI always sets it, elsewhere these tests say
//! loudly that they were skipped): workers sharing jobs, a worker killed
//! mid-job, a job for a snapshot already indexed.

mod common;
#[path = "../../catalog/tests/common/pg.rs"]
mod pg;

use common::{errdex, run_json};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A crate folder with `files` source files, each raising an error.
fn crate_folder(root: &Path, name: &str, files: usize) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let mut lib = String::new();
    for i in 0..files {
        lib.push_str(&format!("mod m{i};\n"));
        std::fs::write(
            dir.join(format!("src/m{i}.rs")),
            format!(
                "pub fn check_{i}(n: usize) {{\n    if n > {i} {{\n        panic!(\"{name} limit {i} exceeded: {{n}}\");\n    }}\n}}\n"
            ),
        )
        .unwrap();
    }
    std::fs::write(dir.join("src/lib.rs"), lib).unwrap();
    dir
}

fn jobs(url: &str) -> Vec<serde_json::Value> {
    let v = run_json(errdex(Path::new(url)).args(["jobs", "--json"]));
    v.as_array().unwrap().clone()
}

/// A worker process (standard output captured).
fn worker(url: &str, args: &[&str]) -> Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("errdex"))
        .env("ERRDEX_DB", url)
        .env_remove("RUST_BACKTRACE")
        .arg("worker")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn finish(child: Child) -> String {
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "worker failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn repos(url: &str) -> Vec<String> {
    let v = run_json(errdex(Path::new(url)).args(["list", "--json"]));
    let mut r: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["repo"].as_str().unwrap().to_string())
        .collect();
    r.sort();
    r.dedup();
    r
}

#[test]
fn two_workers_share_four_jobs() {
    let Some(db) = pg::TempDb::new() else { return };
    let url = db.url.clone();
    let tmp = tempfile::tempdir().unwrap();
    let dirs: Vec<PathBuf> = (0..4)
        .map(|i| crate_folder(tmp.path(), &format!("c{i}"), 3))
        .collect();
    let mut enqueue = errdex(Path::new(&url));
    enqueue.args(["enqueue", "--json"]).args(&dirs);
    let added = run_json(&mut enqueue);
    assert_eq!(added["jobs"].as_array().unwrap().len(), 4, "{added}");
    assert!(added["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .all(|j| j["outcome"] == "added"));
    let a = worker(&url, &["--once", "--json"]);
    let b = worker(&url, &["--once", "--json"]);
    let lines = finish(a) + &finish(b);
    assert_eq!(lines.lines().count(), 4, "{lines}");
    let all = jobs(&url);
    assert_eq!(all.len(), 4);
    for j in &all {
        assert_eq!(j["state"], "done", "{j}");
        assert_eq!(j["attempts"], 1, "{j}");
    }
    assert_eq!(repos(&url), ["c0", "c1", "c2", "c3"]);
    // The same sources again: nothing is added.
    let again = run_json(&mut enqueue);
    assert!(again["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .all(|j| j["outcome"] == "exists" && j["state"] == "done"));
}

#[test]
fn a_killed_workers_job_is_retried_and_indexed_once() {
    let Some(db) = pg::TempDb::new() else { return };
    let url = db.url.clone();
    let tmp = tempfile::tempdir().unwrap();
    // Big enough that the job is still running when the worker is killed.
    let dir = crate_folder(tmp.path(), "big", 4000);
    run_json(
        errdex(Path::new(&url))
            .args(["enqueue", "--json"])
            .arg(&dir),
    );
    let mut first = worker(&url, &["--lease", "2"]);
    let started = Instant::now();
    while jobs(&url)[0]["state"] != "running" {
        assert!(started.elapsed() < Duration::from_secs(60), "never claimed");
        std::thread::sleep(Duration::from_millis(50));
    }
    first.kill().unwrap(); // SIGKILL: no cleanup, the lease just stops.
    first.wait().unwrap();
    assert_eq!(jobs(&url)[0]["state"], "running");
    // A new worker waits for the lease to run out, then takes the job.
    let out = finish(worker(&url, &["--once", "--lease", "30", "--json"]));
    let outcome: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(outcome["attempt"], 2, "{out}");
    assert_eq!(outcome["state"], "done", "{out}");
    let job = &jobs(&url)[0];
    assert_eq!(job["state"], "done");
    assert_eq!(job["attempts"], 2);
    assert_eq!(repos(&url), ["big"]);
    let snapshots: Vec<serde_json::Value> =
        run_json(errdex(Path::new(&url)).args(["list", "--json"]))
            .as_array()
            .unwrap()
            .clone();
    assert_eq!(snapshots.len(), 4000, "each error once, one snapshot");
}

#[test]
fn a_job_for_an_indexed_snapshot_changes_nothing() {
    let Some(db) = pg::TempDb::new() else { return };
    let url = db.url.clone();
    let tmp = tempfile::tempdir().unwrap();
    let dir = crate_folder(tmp.path(), "same", 2);
    // Two jobs (different options) for one snapshot (same content).
    run_json(
        errdex(Path::new(&url))
            .args(["enqueue", "--json"])
            .arg(&dir),
    );
    run_json(
        errdex(Path::new(&url))
            .args(["enqueue", "--json", "--no-reuse"])
            .arg(&dir),
    );
    finish(worker(&url, &["--once"]));
    let all = jobs(&url);
    assert_eq!(all.len(), 2);
    assert!(
        all[0]["result"][0]["sites"].as_u64().unwrap() >= 2,
        "{}",
        all[0]
    );
    assert_eq!(all[1]["result"][0]["already_indexed"], true, "{}", all[1]);
}

#[test]
fn a_failing_job_backs_off_then_fails_with_its_error() {
    let Some(db) = pg::TempDb::new() else { return };
    let url = db.url.clone();
    let tmp = tempfile::tempdir().unwrap();
    let dir = crate_folder(tmp.path(), "gone", 1);
    run_json(
        errdex(Path::new(&url))
            .args(["enqueue", "--json", "--attempts", "2"])
            .arg(&dir),
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let out = finish(worker(&url, &["--once", "--backoff", "1", "--json"]));
    let states: Vec<String> = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["state"].to_string())
        .collect();
    assert_eq!(states, ["\"queued\"", "\"failed\""], "{out}");
    let job = &jobs(&url)[0];
    assert_eq!(job["state"], "failed");
    assert_eq!(job["attempts"], 2);
    assert!(job["error"].as_str().unwrap().contains("gone"), "{job}");
}

#[test]
fn the_queue_needs_postgresql() {
    let tmp = tempfile::tempdir().unwrap();
    let out = errdex(tmp.path().join("c.db"))
        .arg("jobs")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a PostgreSQL catalogue"), "{err}");
    let out = errdex(Path::new("postgres://errdex:secret@127.0.0.1:1/none"))
        .arg("jobs")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        "errdex: cannot connect to PostgreSQL at 127.0.0.1:1: connection refused"
    );
    assert!(!err.contains("secret"));
}

/// POSTs `text` to a server's `/api/explain`; the repos of its matches.
fn explained_by(server: &common::server::Server, text: &str) -> Vec<String> {
    let body = ureq::post(&server.url("/api/explain"))
        .content_type("text/plain")
        .send(text)
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["repo"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn web_nodes_hear_a_workers_new_snapshot() {
    let Some(db) = pg::TempDb::new() else { return };
    let url = db.url.clone();
    let tmp = tempfile::tempdir().unwrap();
    let first = crate_folder(tmp.path(), "first", 1);
    run_json(
        errdex(Path::new(&url))
            .args(["index", "--json"])
            .arg(&first),
    );
    let nodes = [
        common::server::Server::start(&url),
        common::server::Server::start(&url),
    ];
    let text = "later limit 0 exceeded: 7";
    for n in &nodes {
        assert!(!explained_by(n, text).contains(&"later".to_string()));
    }
    let later = crate_folder(tmp.path(), "later", 1);
    run_json(
        errdex(Path::new(&url))
            .args(["enqueue", "--json"])
            .arg(&later),
    );
    finish(worker(&url, &["--once"]));
    // Each node hears the write's NOTIFY (without it, a node would read
    // the catalogue again only after a minute without news).
    let deadline = Instant::now() + Duration::from_secs(30);
    for n in &nodes {
        while !explained_by(n, text).contains(&"later".to_string()) {
            assert!(
                Instant::now() < deadline,
                "{} never saw the new snapshot",
                n.base
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
