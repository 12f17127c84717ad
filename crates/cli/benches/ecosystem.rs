//! A real project's dependencies (ripgrep 14.1.1's published `Cargo.lock`,
//! 57 registry crates; or any lock file) indexed by the real binary three
//! ways: into SQLite (`index lock:`), and into PostgreSQL through the job
//! queue with one and with two workers (`enqueue lock:` then `worker
//! --once`). Reports crates per minute, the catalogue's size, the explain
//! index's start-up and explain latency over messages made from the
//! indexed templates.
//!
//! `ERRDEX_BENCH_PG=postgres://USER@HOST:PORT/DB cargo bench -p errdex --bench ecosystem [-- LOCKFILE]`
//! (the server must let it create databases; `ERRDEX_TEST_PG` works too).
//! A first, untimed pass fetches every crate, so the timed runs measure
//! indexing, not the network.

mod common;

use common::{errdex, ok};
use errdex_app::{Db, Location};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::Instant;

fn spawn_worker(db: &str, concurrency: usize) -> Child {
    errdex(db)
        .args(["worker", "--once", "--concurrency"])
        .arg(concurrency.to_string())
        .stdout(Stdio::null())
        .spawn()
        .expect("worker starts")
}

/// A fresh database on the bench server; its URL.
fn fresh_pg(admin: &str, name: &str) -> String {
    let cfg: postgres::Config = admin.parse().expect("a PostgreSQL URL");
    let mut c = cfg
        .connect(postgres::NoTls)
        .expect("the bench server answers");
    c.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .unwrap();
    c.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
    let (base, _) = admin.rsplit_once('/').expect("URL names a database");
    format!("{base}/{name}")
}

fn pg_size(url: &str) -> u64 {
    let cfg: postgres::Config = url.parse().unwrap();
    let mut c = cfg.connect(postgres::NoTls).unwrap();
    let n: i64 = c
        .query_one("SELECT pg_database_size(current_database())", &[])
        .unwrap()
        .get(0);
    n as u64
}

fn file_size(p: &Path) -> u64 {
    ["", "-wal"]
        .iter()
        .filter_map(|s| std::fs::metadata(format!("{}{s}", p.display())).ok())
        .map(|m| m.len())
        .sum()
}

/// The catalogue's errors (`list --json`).
fn list(db: &str) -> Vec<serde_json::Value> {
    let list: serde_json::Value = serde_json::from_str(&ok({
        let mut c = errdex(db);
        c.args(["list", "--json"]);
        c
    }))
    .unwrap();
    list.as_array().unwrap().clone()
}

/// Messages a user could paste: `n` of the library templates of `list`
/// with every hole filled.
fn messages(list: &[serde_json::Value], n: usize) -> Vec<String> {
    let hole = regex::Regex::new(r"\{[^{}]*\}").unwrap();
    let mut out: Vec<String> = list
        .iter()
        .filter(|e| e["is_test"] == false)
        .map(|e| {
            hole.replace_all(e["template"].as_str().unwrap(), "7")
                .into_owned()
        })
        .filter(|m| m.split_whitespace().count() >= 3)
        .collect();
    out.sort();
    out.dedup();
    let step = (out.len() / n).max(1);
    out.into_iter().step_by(step).take(n).collect()
}

struct Latency {
    /// The first open (a PostgreSQL node builds and saves the index).
    start_ms: f64,
    /// A second open (the persisted index, mapped).
    restart_ms: f64,
    templates: usize,
    p50_ms: f64,
    p99_ms: f64,
    found: usize,
}

fn explain_latency(db: &str, msgs: &[String]) -> Latency {
    let location = Location::parse(std::ffi::OsStr::new(db)).unwrap();
    let started = Instant::now();
    let matcher = Db::open_existing(&location).unwrap().matcher(None).unwrap();
    let start_ms = started.elapsed().as_secs_f64() * 1e3;
    let started = Instant::now();
    drop(matcher);
    let db = Db::open_existing(&location).unwrap();
    let matcher = db.matcher(None).unwrap();
    let restart_ms = started.elapsed().as_secs_f64() * 1e3;
    let mut times = Vec::new();
    let mut found = 0;
    for m in msgs {
        let t = Instant::now();
        let r = matcher.explain(&db, m).expect("explained");
        times.push(t.elapsed().as_secs_f64() * 1e3);
        found += usize::from(r.explanation.matched());
    }
    times.sort_by(f64::total_cmp);
    Latency {
        start_ms,
        restart_ms,
        templates: matcher.info().templates,
        p50_ms: times[times.len() / 2],
        p99_ms: times[(times.len() * 99 / 100).min(times.len() - 1)],
        found,
    }
}

fn report(name: &str, crates: usize, secs: f64, bytes: u64, l: &Latency, msgs: usize) {
    println!(
        "{name:<22} {crates} crates in {secs:6.1}s = {:6.1} crates/min; catalogue {:6.1} MB, \
         {} templates; explain index first start {:6.0} ms, next {:4.0} ms; \
         p50 {:.3} ms, p99 {:.3} ms ({}/{msgs} found)",
        crates as f64 * 60.0 / secs,
        bytes as f64 / 1e6,
        l.templates,
        l.start_ms,
        l.restart_ms,
        l.p50_ms,
        l.p99_ms,
        l.found
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let lock = args.first().map(PathBuf::from).unwrap_or_else(|| {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/fixtures/ripgrep-14.1.1.Cargo.lock")
    });
    let Some(admin) = std::env::var("ERRDEX_BENCH_PG")
        .or_else(|_| std::env::var("ERRDEX_TEST_PG"))
        .ok()
    else {
        eprintln!("ecosystem bench: set ERRDEX_BENCH_PG=postgres://USER@HOST:PORT/DB");
        std::process::exit(2);
    };
    let source = format!("lock:{}", lock.display());
    let tmp = tempfile::tempdir().unwrap();

    // Untimed: fetch every crate once.
    let warm = tmp.path().join("warm.db");
    ok({
        let mut c = errdex(warm.to_str().unwrap());
        c.args(["index", "--no-history", &source]);
        c
    });
    let errors = list(warm.to_str().unwrap());
    let sites: u64 = errors.iter().filter_map(|e| e["sites"].as_u64()).sum();
    let library = errors.iter().filter(|e| e["is_test"] == false).count();
    println!(
        "catalogue: {} errors ({library} outside tests), {sites} sites",
        errors.len()
    );
    let msgs = messages(&errors, 500);

    // SQLite: one process.
    let sqlite = tmp.path().join("bench.db");
    let db = sqlite.to_str().unwrap();
    let t = Instant::now();
    let summary: serde_json::Value = serde_json::from_str(&ok({
        let mut c = errdex(db);
        c.args(["index", "--json", "--no-history", &source]);
        c
    }))
    .unwrap();
    let secs = t.elapsed().as_secs_f64();
    let crates = summary["indexed"].as_array().map_or(0, Vec::len);
    report(
        "sqlite, 1 process",
        crates,
        secs,
        file_size(&sqlite),
        &explain_latency(db, &msgs),
        msgs.len(),
    );

    // PostgreSQL through the queue: one worker, then two.
    for workers in [1usize, 2] {
        let url = fresh_pg(&admin, &format!("errdex_bench_{workers}w"));
        ok({
            let mut c = errdex(&url);
            c.args(["enqueue", "--no-history", &source]);
            c
        });
        let t = Instant::now();
        let children: Vec<Child> = (0..workers).map(|_| spawn_worker(&url, 1)).collect();
        for mut c in children {
            assert!(c.wait().unwrap().success(), "a worker failed");
        }
        let secs = t.elapsed().as_secs_f64();
        let jobs: serde_json::Value = serde_json::from_str(&ok({
            let mut c = errdex(&url);
            c.args(["jobs", "--json"]);
            c
        }))
        .unwrap();
        let done = jobs
            .as_array()
            .unwrap()
            .iter()
            .filter(|j| j["state"] == "done")
            .count();
        report(
            &format!("postgres, {workers} worker(s)"),
            done,
            secs,
            pg_size(&url),
            &explain_latency(&url, &msgs),
            msgs.len(),
        );
    }
}
