//! The same catalogue tests on both stores: a SQLite file, and (with
//! `ERRDEX_TEST_PG`) a PostgreSQL database of its own; and what each
//! PostgreSQL failure says.

mod common;

use common::pg::{self, TempDb};
use errdex_catalog::{Catalog, CatalogError, Location, SnapshotInput, WriteSummary};
use errdex_extract::{extract_all_reusing, Extractor};
use errdex_lang_rust::RustExtractor;
use errdex_source::{load, Snapshot, SourceSpec};
use std::ffi::OsStr;
use std::path::Path;

/// A catalogue location of each store; what keeps it alive comes along.
struct Store {
    name: &'static str,
    location: Location,
    _sqlite: Option<tempfile::TempDir>,
    _pg: Option<TempDb>,
}

/// A fresh SQLite catalogue, and a fresh PostgreSQL one when a server is
/// configured.
fn stores() -> Vec<Store> {
    let dir = tempfile::tempdir().unwrap();
    let mut out = vec![Store {
        name: "sqlite",
        location: Location::Sqlite(dir.path().join("c.db")),
        _sqlite: Some(dir),
        _pg: None,
    }];
    if let Some(db) = TempDb::new() {
        out.push(Store {
            name: "postgres",
            location: Location::parse(OsStr::new(&db.url)).unwrap(),
            _sqlite: None,
            _pg: Some(db),
        });
    }
    out
}

/// The fixture crate `tests/fixtures/NAME`, loaded.
fn fixture(name: &str) -> Snapshot {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name);
    load(&SourceSpec::Dir(root), &|p| RustExtractor.handles(p)).unwrap()
}

/// Writes a snapshot as `errdex index` does (with its per-file cache).
fn write(c: &mut Catalog, s: &Snapshot) -> errdex_catalog::Result<WriteSummary> {
    let r = extract_all_reusing(&RustExtractor, &s.files, &|_| None, &|_| {});
    c.replace_snapshot(&SnapshotInput {
        meta: &s.meta,
        files: &s.files,
        extraction: &r.extraction,
        fingerprint: errdex_extract::FINGERPRINT,
        parsed: &r.parsed,
        origins: &[],
    })
}

/// Everything a reader can ask of a catalogue holding `repo`, as
/// comparable text (row ids of packs aside, which the answers never show).
fn everything(c: &Catalog, repo: &str) -> Vec<String> {
    let mut out = vec![format!("{:?}", c.repos().unwrap())];
    let errors = c.list_errors(None, None).unwrap();
    out.push(format!("{errors:?}"));
    for e in &errors {
        let d = c.error(&e.id).unwrap().unwrap();
        for s in &d.sites {
            out.push(format!(
                "{:?}",
                c.excerpt(s.snapshot_id, &s.path, s.excerpt_start, s.excerpt_end)
                    .unwrap()
            ));
        }
        out.push(format!("{d:?}"));
    }
    let data = c.match_data(None).unwrap();
    out.push(format!("{:?}", data.errors));
    out.push(format!("{:?}", data.literals));
    let mut deps: Vec<_> = data.deps.into_iter().collect();
    deps.sort();
    out.push(format!("{deps:?}"));
    let snap = c.newest_snapshot(repo).unwrap().unwrap();
    out.push(format!("{:?}", c.snapshot_files(snap.id).unwrap()));
    out.push(format!("{:?}", c.snapshot_error_ids(snap.id).unwrap()));
    out.push(format!("{:?}", c.counts().unwrap()));
    out
}

/// How many of the snapshot's files have a cached parse of `fingerprint`.
fn cached(c: &Catalog, s: &Snapshot, fingerprint: &str) -> usize {
    let pairs: Vec<(String, String)> = s
        .files
        .iter()
        .map(|f| (f.path.clone(), errdex_catalog::content_hash(&f.text)))
        .collect();
    let refs: Vec<(&str, &str)> = pairs
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    c.cached_files(fingerprint, &refs).unwrap().len()
}

/// Every store answered as the first (SQLite) did.
fn assert_stores_agree(answers: &[(&str, Vec<String>)]) {
    for (name, a) in &answers[1..] {
        assert_eq!(a.len(), answers[0].1.len(), "sqlite and {name} differ");
        for (x, y) in answers[0].1.iter().zip(a) {
            assert_eq!(x, y, "sqlite and {name} differ");
        }
    }
}

#[test]
fn both_stores_answer_the_same() {
    let s = fixture("facts");
    let mut answers = Vec::new();
    for store in stores() {
        let mut c = Catalog::open(&store.location).unwrap();
        let before = c.generation().unwrap();
        let w = write(&mut c, &s).unwrap();
        assert!(!w.replaced && w.sites > 0, "{}", store.name);
        assert_ne!(c.generation().unwrap(), before, "{}", store.name);
        assert!(c.has_snapshot("facts", &s.meta.revision).unwrap());
        assert!(c.integrity_ok().unwrap(), "{}", store.name);
        // A reader opened read-only sees the same.
        let r = Catalog::open_read_only(&store.location).unwrap();
        let a = everything(&r, "facts");
        assert_eq!(a, everything(&c, "facts"), "{}", store.name);
        answers.push((store.name, a));
    }
    assert_stores_agree(&answers);
}

/// A crate of `files` generated files, four error sites each and a
/// string literal of its own per function.
fn generated(dir: &Path, files: usize) -> Snapshot {
    let root = dir.join("many");
    std::fs::create_dir_all(root.join("src")).unwrap();
    for f in 0..files {
        let mut text = String::new();
        for g in 0..2 {
            let n = f * 2 + g;
            text.push_str(&format!(
                "pub fn f{n}(x: u32) -> Result<(), String> {{\n    \
                 let _label = \"generated function number {n}\";\n    \
                 assert!(x != {n}, \"x must not be {n}\");\n    \
                 if x > {n} {{\n        panic!(\"value {{}} too large for f{n}\", x);\n    }}\n    \
                 let _ = Some(x).expect(\"some value in f{n}\");\n    \
                 Err(format!(\"f{n} failed with {{}}\", x))\n}}\n"
            ));
        }
        std::fs::write(root.join(format!("src/m{f}.rs")), text).unwrap();
    }
    load(&SourceSpec::Dir(root), &|p| RustExtractor.handles(p)).unwrap()
}

#[test]
fn a_snapshot_larger_than_a_batch_is_written_whole_on_both() {
    // 300 files (more than one batch of lookups), 2 400 sites and more
    // literals than one batch of rows.
    let tmp = tempfile::tempdir().unwrap();
    let s = generated(tmp.path(), 300);
    let mut answers = Vec::new();
    for store in stores() {
        let mut c = Catalog::open(&store.location).unwrap();
        let w = write(&mut c, &s).unwrap();
        assert_eq!(w.sites, 2400, "{}", store.name);
        assert!(c.integrity_ok().unwrap(), "{}", store.name);
        let snap = c.newest_snapshot("many").unwrap().unwrap();
        assert_eq!(
            c.snapshot_files(snap.id).unwrap().len(),
            300,
            "{}",
            store.name
        );
        let data = c.match_data(None).unwrap();
        assert!(
            data.literals.len() >= 600,
            "{}: {}",
            store.name,
            data.literals.len()
        );
        answers.push((store.name, everything(&c, "many")));
        // Written again: kept as it was, and every file's parse is cached.
        assert!(write(&mut c, &s).unwrap().unchanged, "{}", store.name);
        assert_eq!(
            cached(&c, &s, errdex_extract::FINGERPRINT),
            300,
            "{}",
            store.name
        );
    }
    assert_stores_agree(&answers);
}

#[test]
fn writing_again_keeps_an_unchanged_snapshot_and_replaces_a_changed_one() {
    let s = fixture("facts");
    for store in stores() {
        let mut c = Catalog::open(&store.location).unwrap();
        let first = write(&mut c, &s).unwrap();
        let counts = c.counts().unwrap();
        let g = c.generation().unwrap();
        // The same input: nothing is written, the snapshot stays as it was.
        let again = write(&mut c, &s).unwrap();
        assert!(again.unchanged && !again.replaced, "{}", store.name);
        assert_eq!(again.snapshot_id, first.snapshot_id, "{}", store.name);
        assert_eq!(
            (first.errors, first.sites),
            (again.errors, again.sites),
            "{}",
            store.name
        );
        assert_eq!(c.generation().unwrap(), g, "{}", store.name);
        assert_eq!(c.counts().unwrap(), counts, "{}", store.name);
        // One file changed: the snapshot is replaced; that file's old text
        // and cached result go (no snapshot holds them), the rest stay.
        let mut changed = s.clone();
        let i = changed
            .files
            .iter()
            .position(|f| f.path.ends_with(".rs"))
            .unwrap();
        changed.files[i].text.push_str("\n// changed\n");
        let second = write(&mut c, &changed).unwrap();
        assert!(second.replaced && !second.unchanged, "{}", store.name);
        assert_ne!(c.generation().unwrap(), g, "{}", store.name);
        let now = c.counts().unwrap();
        assert_eq!(
            (now.snapshots, now.sites, now.texts, now.cached),
            (counts.snapshots, counts.sites, counts.texts, counts.cached),
            "{}",
            store.name
        );
        assert!(now.text_packs <= counts.text_packs + 1, "{}", store.name);
        assert!(now.cache_packs <= counts.cache_packs + 1, "{}", store.name);
        let n = s.files.len();
        assert_eq!(
            cached(&c, &changed, errdex_extract::FINGERPRINT),
            n,
            "{}",
            store.name
        );
        assert_eq!(
            cached(&c, &s, errdex_extract::FINGERPRINT),
            n - 1,
            "{}",
            store.name
        );
        assert_eq!(cached(&c, &s, "another build"), 0);
        // Another extractor build's entries go at the next write.
        let other = fixture("kinds");
        let r = extract_all_reusing(&RustExtractor, &other.files, &|_| None, &|_| {});
        c.replace_snapshot(&SnapshotInput {
            meta: &other.meta,
            files: &other.files,
            extraction: &r.extraction,
            fingerprint: "another build",
            parsed: &r.parsed,
            origins: &[],
        })
        .unwrap();
        assert_eq!(cached(&c, &changed, errdex_extract::FINGERPRINT), 0);
        assert_eq!(
            c.counts().unwrap().cached,
            other.files.len() as u64,
            "{}",
            store.name
        );
    }
}

#[test]
fn analyses_and_runs_are_stored_alike() {
    let s = fixture("facts");
    for store in stores() {
        let mut c = Catalog::open(&store.location).unwrap();
        write(&mut c, &s).unwrap();
        let id = c.list_errors(None, None).unwrap()[0].id.clone();
        let g = c.generation().unwrap();
        c.store_analysis(&id, "h1", "rules", "{\"a\":1}").unwrap();
        assert_ne!(c.generation().unwrap(), g, "{}", store.name);
        c.store_analysis(&id, "h1", "rules", "{\"a\":2}").unwrap();
        c.store_analysis(&id, "h1", "m", "{\"m\":1}").unwrap();
        assert_eq!(
            c.analysis(&id, "h1", "rules").unwrap().as_deref(),
            Some("{\"a\":2}")
        );
        assert_eq!(
            c.current_analysis(&id, "h1").unwrap().as_deref(),
            Some("{\"m\":1}"),
            "a model's before the rules' ({})",
            store.name
        );
        let snap = c.newest_snapshot("facts").unwrap().unwrap();
        let pairs = vec![(id.clone(), "h1".to_string(), true)];
        c.store_analysis_run(snap.id, "rules", "k1", &pairs)
            .unwrap();
        c.store_analysis_run(snap.id, "rules", "k2", &pairs)
            .unwrap();
        assert_eq!(
            c.analysis_run(snap.id, "rules").unwrap(),
            Some(("k2".to_string(), pairs))
        );
        assert!(!c.snapshots_state().unwrap().is_empty());
    }
}

#[test]
fn a_database_without_the_catalogue_is_refused_read_only() {
    for store in stores() {
        if let Location::Sqlite(p) = &store.location {
            std::fs::write(p, b"").unwrap();
        }
        let e = Catalog::open_read_only(&store.location)
            .err()
            .expect("refused");
        assert!(
            matches!(e, CatalogError::NotACatalogue { .. }),
            "{}: {e}",
            store.name
        );
    }
}

#[test]
fn postgres_openers_at_once_migrate_once() {
    let Some(db) = TempDb::new() else { return };
    let location = Location::parse(OsStr::new(&db.url)).unwrap();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..6)
            .map(|_| scope.spawn(|| Catalog::open(&location).map(|_| ())))
            .collect();
        for h in handles {
            h.join().unwrap().unwrap();
        }
    });
    let mut client = db.client();
    let rows = client
        .query("SELECT version FROM errdex_schema", &[])
        .unwrap();
    assert_eq!(rows.len(), 1);
    // Another program's tables are never written into.
    let other = TempDb::new().unwrap();
    other
        .client()
        .batch_execute("CREATE TABLE repos (x int)")
        .unwrap();
    let e = Catalog::open(&Location::parse(OsStr::new(&other.url)).unwrap())
        .err()
        .expect("refused");
    assert!(matches!(e, CatalogError::NotACatalogue { .. }), "{e}");
}

/// The one line a failure prints.
fn line(e: CatalogError) -> String {
    let s = e.to_string();
    assert!(!s.contains('\n'), "{s:?}");
    s
}

#[test]
fn malformed_urls_say_so_in_one_line() {
    for bad in [
        "postgres://u:hunter2@host:port/db",
        "postgresql://u:hunter2@host:70000/db",
        "postgres://u:hunter2@host/db?nosuchoption=1",
    ] {
        let e = line(Location::parse(OsStr::new(bad)).unwrap_err());
        assert!(e.starts_with("malformed PostgreSQL URL: "), "{e}");
        assert!(!e.contains("hunter2"), "{e}");
    }
}

#[test]
fn a_refused_connection_says_where() {
    // Port 1 on loopback: nothing listens there.
    let l = Location::parse(OsStr::new("postgres://u:hunter2@127.0.0.1:1/db")).unwrap();
    let e = line(Catalog::open(&l).err().expect("refused"));
    assert_eq!(
        e,
        "cannot connect to PostgreSQL at 127.0.0.1:1: connection refused"
    );
}

#[test]
fn a_wrong_password_says_so_without_the_password() {
    let Some(server) = pg::server() else { return };
    // `.ci/postgres.sh` makes the role `errdex_pw` log in with a password.
    let url = server.replacen("://", "://errdex_pw:not-the-password@", 1);
    let url = match url.split_once('@') {
        Some((creds, rest)) => match rest.split_once('@') {
            // The server URL had its own user: keep only ours.
            Some((_, host)) => format!("{creds}@{host}"),
            None => url.clone(),
        },
        None => url.clone(),
    };
    let l = Location::parse(OsStr::new(&url)).unwrap();
    let e = Catalog::open(&l)
        .err()
        .expect("the server must ask errdex_pw for its password (see .ci/postgres.sh)");
    let e = line(e);
    assert!(e.starts_with("cannot connect to PostgreSQL at "), "{e}");
    assert!(e.contains("password authentication failed"), "{e}");
    assert!(!e.contains("not-the-password"), "{e}");
}

#[test]
fn a_server_gone_mid_write_leaves_the_catalogue_unchanged() {
    let Some(db) = TempDb::new() else { return };
    let location = Location::parse(OsStr::new(&db.url)).unwrap();
    let s = fixture("facts");
    let mut c = Catalog::open(&location).unwrap();
    write(&mut c, &s).unwrap();
    let before = everything(&c, "facts");
    // A bigger snapshot of another revision, so that the write lasts.
    let mut big = s.clone();
    big.meta.revision = "2.0.0".into();
    for i in 0..40 {
        for f in &s.files {
            let mut f = f.clone();
            f.path = format!("copy{i}/{}", f.path);
            f.text.push_str(&format!("\n// copy {i}\n"));
            big.files.push(f);
        }
    }
    let killer = db.client();
    let name = db.url.rsplit('/').next().unwrap().to_string();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let k = scope.spawn(|| {
            let mut killer = killer;
            // Terminate the writer once its transaction is under way.
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let n = killer
                    .execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                         WHERE datname = $1 AND pid <> pg_backend_pid()
                           AND xact_start IS NOT NULL AND backend_type = 'client backend'
                           AND query <> '' AND state <> 'idle'",
                        &[&name],
                    )
                    .unwrap();
                if n > 0 {
                    return true;
                }
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            false
        });
        let r = write(&mut c, &big);
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (r, k.join().unwrap())
    });
    let (r, killed) = result;
    assert!(killed, "the writer was not caught in its transaction");
    let e = line(r.expect_err("the write fails"));
    assert!(
        e.starts_with("lost the connection to PostgreSQL at "),
        "{e}"
    );
    let again = Catalog::open_read_only(&location).unwrap();
    assert_eq!(everything(&again, "facts"), before);
    assert!(!again.has_snapshot("facts", "2.0.0").unwrap());
}
