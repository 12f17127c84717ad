//! The persisted explain index (`CATALOGUE.xidx`): answers identical to
//! the index built in memory, over real crates and real outputs; and a
//! file that is stale, damaged, truncated, foreign or of another format is
//! rebuilt, never read.

use errdex_app::index::{index, IndexOptions};
use errdex_app::{Db, Quiet};
use errdex_catalog::Catalog;
use errdex_match::Index;
use std::path::{Path, PathBuf};

const CRATES: &[&str] = &[
    "crate:serde_json@1.0.140",
    "crate:serde@1.0.219",
    "crate:semver@1.0.26",
    "crate:http@1.3.1",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn index_sources(db: &Path, sources: &[String]) {
    let opts = IndexOptions::default();
    index(&db.into(), sources, &opts, &Quiet, &mut |_| {}).expect("indexed");
}

/// Real outputs: the captured ones and their cut or edited fragments, and
/// the development corpus's inputs where it is present.
fn queries() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["tests/corpus/raw", "tests/corpus/fragments"] {
        let mut files: Vec<_> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        out.extend(files.iter().map(|f| std::fs::read_to_string(f).unwrap()));
    }
    let cases = root().join("../shared/corpus/cases.jsonl");
    for line in std::fs::read_to_string(cases).unwrap_or_default().lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        out.extend(v["input"].as_str().map(str::to_string));
    }
    out
}

/// The index built in memory from the catalogue, as before persistence.
fn in_memory(db: &Path) -> Index {
    Index::from_data(
        Catalog::open_read_only(&db.into())
            .unwrap()
            .match_data(None)
            .unwrap(),
    )
}

fn built(db: &Path) -> &'static str {
    Db::open_existing(&db.into())
        .unwrap()
        .matcher(None)
        .unwrap()
        .info()
        .built
}

/// Answers of the catalogue's matcher and of `memory` agree on `queries`.
fn same_answers(db: &Path, memory: &Index, queries: &[String]) {
    let db = Db::open_existing(&db.into()).unwrap();
    let matcher = db.matcher(None).unwrap();
    for q in queries {
        let x = matcher.explain(&db, q).unwrap().explanation;
        assert_eq!(x, memory.explain(q), "{q}");
    }
}

/// Texts the templates of the repos whose slug holds `repo` print: each
/// template with its holes filled.
fn texts_of(db: &Path, repo: &str) -> Vec<String> {
    let data = Catalog::open_read_only(&db.into())
        .unwrap()
        .match_data(None)
        .unwrap();
    data.errors
        .iter()
        .filter(|e| e.repo.contains(repo))
        .map(|e| {
            e.template
                .pieces()
                .iter()
                .map(|p| match p {
                    errdex_model::Piece::Lit(s) => s.clone(),
                    errdex_model::Piece::Hole(_) => "7".to_string(),
                })
                .collect()
        })
        .collect()
}

fn catalogue(dir: &Path) -> PathBuf {
    let db = dir.join("c.db");
    let mut sources: Vec<String> = CRATES.iter().map(|s| s.to_string()).collect();
    sources.push(root().join("tests/corpus/generator").display().to_string());
    index_sources(&db, &sources);
    db
}

#[test]
fn persisted_index_answers_as_the_in_memory_one_and_is_rebuilt_when_unusable() {
    let tmp = tempfile::tempdir().unwrap();
    let db = catalogue(tmp.path());
    let file = Db::open_existing(&db.as_path().into())
        .unwrap()
        .explain_index_path();
    assert!(file.exists(), "`index` saves the explain index");
    assert_eq!(built(&db), "from its file");

    let memory = in_memory(&db);
    let queries = queries();
    assert!(queries.len() > 60);
    same_answers(&db, &memory, &queries);

    // A snapshot indexed since the file was saved: laid on it as a delta,
    // the file kept, answers as a full rebuild's, its own texts included.
    let saved = std::fs::read(&file).unwrap();
    index_sources(&db, &[root().join("tests/unseen").display().to_string()]);
    assert_eq!(std::fs::read(&file).unwrap(), saved, "the base is kept");
    assert_eq!(built(&db), "from its file and the snapshots indexed since");
    let memory = in_memory(&db);
    let mut with_delta: Vec<String> = queries.clone();
    with_delta.extend(texts_of(&db, "unseen"));
    assert!(
        with_delta.len() > queries.len() + 2,
        "{:?}",
        &with_delta[queries.len()..]
    );
    same_answers(&db, &memory, &with_delta);

    // A snapshot of the base indexed again from the same files: nothing
    // is written, the base and its delta stand.
    let generator = root().join("tests/corpus/generator");
    index_sources(&db, &[generator.display().to_string()]);
    assert_eq!(std::fs::read(&file).unwrap(), saved, "the base is kept");
    assert_eq!(built(&db), "from its file and the snapshots indexed since");

    // A snapshot of the base written from another input (as by another
    // extractor build) and indexed again: `index` rebuilds the base.
    {
        use errdex_extract::Extractor;
        let s = errdex_source::load(&errdex_source::SourceSpec::Dir(generator.clone()), &|p| {
            errdex_lang_rust::RustExtractor.handles(p)
        })
        .unwrap();
        let r = errdex_extract::extract_all_reusing(
            &errdex_lang_rust::RustExtractor,
            &s.files,
            &|_| None,
            &|_| {},
        );
        let mut c = Catalog::open(&db.as_path().into()).unwrap();
        let w = c
            .replace_snapshot(&errdex_catalog::SnapshotInput {
                meta: &s.meta,
                files: &s.files,
                extraction: &r.extraction,
                fingerprint: "another extractor build",
                parsed: &[],
                origins: &[],
            })
            .unwrap();
        assert!(w.replaced);
    }
    index_sources(&db, &[generator.display().to_string()]);
    assert_ne!(std::fs::read(&file).unwrap(), saved, "the file is replaced");
    assert_eq!(built(&db), "from its file");
    let memory = in_memory(&db);
    same_answers(&db, &memory, &queries[..20]);

    // Stale: the file is of another snapshot set that is no base of this
    // one (the catalogue before the generator was indexed again).
    let current = std::fs::read(&file).unwrap();
    std::fs::write(&file, &saved).unwrap();
    assert_eq!(built(&db), "from the catalogue");
    assert_eq!(std::fs::read(&file).unwrap(), current, "rebuilt alike");

    let good = std::fs::read(&file).unwrap();
    let mut damaged: Vec<(&str, Vec<u8>)> = Vec::new();
    damaged.push(("truncated", good[..good.len() - 100].to_vec()));
    damaged.push(("empty", Vec::new()));
    damaged.push(("foreign", b"SQLite format 3\0 and more bytes".repeat(8)));
    let mut version = good.clone();
    version[8] ^= 0x7f;
    damaged.push(("another format", version));
    let mut header = good.clone();
    header[30] ^= 1;
    damaged.push(("header bit flip", header));
    for (what, bytes) in damaged {
        std::fs::write(&file, &bytes).unwrap();
        assert_eq!(built(&db), "from the catalogue", "{what}");
        assert_eq!(std::fs::read(&file).unwrap(), good, "{what}: rebuilt alike");
    }

    // A damaged block in the body is found when a query reads it: that
    // query is answered from an index rebuilt from the catalogue.
    for at in [
        good.len() / 3,
        good.len() / 2,
        good.len() * 3 / 4,
        good.len() - 10,
    ] {
        let mut bytes = good.clone();
        bytes[at] ^= 0x55;
        std::fs::write(&file, &bytes).unwrap();
        same_answers(&db, &memory, &queries);
    }
}
