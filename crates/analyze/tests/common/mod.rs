//! The fixture crate `tests/fixtures/facts`, indexed into a real catalogue.

use errdex_analyze::{Analysis, Analyzer, FactKind, SectionName};
use errdex_catalog::{Catalog, ErrorDetail, SnapshotInput};
use errdex_extract::{extract_all, Extractor};
use errdex_lang_rust::RustExtractor;
use errdex_source::{load, with_doc_includes, SourceSpec};
use std::path::Path;

/// The catalogue (in `dir`) and its snapshot parsed for analysis.
#[allow(dead_code)]
pub fn fixture(dir: &Path) -> (Catalog, Analyzer) {
    fixture_named(dir, "facts")
}

/// A crate the test writes: `Cargo.toml` for `name` and each `(path,
/// text)` of `files` under `dir/name`, indexed into a catalogue in `dir`.
#[allow(dead_code)]
pub fn written_crate(dir: &Path, name: &str, files: &[(&str, &str)]) -> (Catalog, Analyzer) {
    let root = dir.join(name);
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n\n[features]\nchecks = []\n"
        ),
    )
    .unwrap();
    for (path, text) in files {
        let p = root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    index(dir, name, root)
}

/// The fixture crate `tests/fixtures/NAME` indexed into a catalogue in
/// `dir`, and its snapshot parsed for analysis.
pub fn fixture_named(dir: &Path, name: &str) -> (Catalog, Analyzer) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name);
    index(dir, name, root)
}

/// The crate at `root`, named `name`, indexed into a catalogue in `dir`.
fn index(dir: &Path, name: &str, root: std::path::PathBuf) -> (Catalog, Analyzer) {
    let spec = SourceSpec::Dir(root);
    let snapshot = with_doc_includes(|w| load(&spec, w), &|p| RustExtractor.handles(p)).unwrap();
    let x = extract_all(&RustExtractor, &snapshot.files);
    let mut c = Catalog::open(&dir.join("f.db").into()).unwrap();
    c.replace_snapshot(&SnapshotInput {
        meta: &snapshot.meta,
        files: &snapshot.files,
        extraction: &x,
        fingerprint: errdex_extract::FINGERPRINT,
        parsed: &[],
        origins: &[],
    })
    .unwrap();
    let row = c.newest_snapshot(name).unwrap().unwrap();
    let files = c.snapshot_files(row.id).unwrap();
    let errors = c.list_errors(Some(name), None).unwrap();
    (c, Analyzer::new(row, files, errors))
}

/// The error of `repo` whose template is `template` (a panic listing the
/// templates there are when none is).
#[allow(dead_code)]
pub fn error_of(c: &Catalog, repo: &str, template: &str) -> ErrorDetail {
    let all = c.list_errors(Some(repo), None).unwrap();
    let id = all
        .iter()
        .find(|e| e.template == template)
        .unwrap_or_else(|| {
            let t: Vec<&str> = all.iter().map(|e| e.template.as_str()).collect();
            panic!("no error `{template}` in {t:?}")
        })
        .id
        .clone();
    c.error(&id).unwrap().unwrap()
}

/// The texts of an analysis's facts of one kind.
#[allow(dead_code)]
pub fn texts(a: &Analysis, kind: FactKind) -> Vec<String> {
    a.facts_of(kind).map(|f| f.text.clone()).collect()
}

/// Every sentence of one section, joined.
#[allow(dead_code)]
pub fn section(a: &Analysis, name: SectionName) -> String {
    let s = a.sections.iter().find(|s| s.name == name).unwrap();
    s.sentences
        .iter()
        .map(|x| x.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}
