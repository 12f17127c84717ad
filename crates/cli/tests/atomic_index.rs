//! An index killed with SIGKILL at any moment leaves the catalogue as it
//! was: the previous snapshot complete, no half-written one.

use assert_cmd::cargo::CommandCargoExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/kinds")
}

/// A tree big enough that writing it takes a while: many copies of the
/// fixture crate, each its own sub-crate.
fn big_tree(root: &Path, copies: usize) {
    let src = fixture();
    for i in 0..copies {
        for entry in walk(&src) {
            let rel = entry.strip_prefix(&src).unwrap();
            let dest = root.join(format!("c{i:03}")).join(rel);
            std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
            std::fs::copy(&entry, &dest).unwrap();
        }
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// (snapshots, sites) and whether every snapshot holds exactly its sites;
/// the file must pass SQLite's integrity check.
fn state(db: &Path) -> (u64, u64, bool) {
    let c = errdex_catalog::Catalog::open_read_only(&db.into()).unwrap();
    assert!(c.integrity_ok().unwrap());
    let n = c.counts().unwrap();
    (n.snapshots, n.sites, n.consistent)
}

fn index(db: &Path, source: &Path) -> Command {
    let mut c = Command::cargo_bin("errdex").unwrap();
    c.env("ERRDEX_DB", db)
        .arg("index")
        .arg(source)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    c
}

#[test]
fn killed_index_leaves_previous_state_intact() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("c.db");
    let tree = tmp.path().join("big");
    big_tree(&tree, 150);

    // State A: the fixture, then the big tree, both complete.
    assert!(index(&db, &fixture()).status().unwrap().success());
    let started = Instant::now();
    assert!(index(&db, &tree).status().unwrap().success());
    let full_run = started.elapsed();
    let before = state(&db);
    assert_eq!(before.0, 2);
    assert!(before.2);

    // Re-index the same revision (a replace) and kill it at moments spread
    // over a full run: extraction, the write transaction, the commit.
    let attempts = 12;
    for k in 0..attempts {
        let delay = full_run.mul_f64(k as f64 / attempts as f64);
        let mut child = index(&db, &tree).spawn().unwrap();
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let after = state(&db);
        assert!(after.2, "attempt {k}: a snapshot is half-written");
        assert_eq!(
            after, before,
            "attempt {k} (killed after {delay:?}): the catalogue changed"
        );
    }

    // A new revision killed mid-way leaves no trace either.
    std::fs::write(
        tree.join("c000/src/extra.rs"),
        "fn extra() { panic!(\"new revision\"); }\n",
    )
    .unwrap();
    for k in 0..attempts {
        let delay = full_run.mul_f64(k as f64 / attempts as f64);
        let mut child = index(&db, &tree).spawn().unwrap();
        std::thread::sleep(delay);
        let _ = child.kill();
        let status = child.wait().unwrap();
        let after = state(&db);
        assert!(after.2, "attempt {k}: a snapshot is half-written");
        if status.success() {
            // It finished before the kill: the new snapshot is complete.
            assert_eq!(after.0, 3);
            break;
        }
        assert!(
            after == before || after.0 == 3,
            "attempt {k}: {after:?} vs {before:?}"
        );
    }
}
