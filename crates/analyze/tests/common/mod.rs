//! The fixture crate `tests/fixtures/facts`, indexed into a real catalogue.

use errdex_analyze::Analyzer;
use errdex_catalog::{Catalog, SnapshotInput};
use errdex_extract::{extract_all, Extractor, RustExtractor};
use errdex_source::{load, SourceSpec};
use std::path::Path;

/// The catalogue (in `dir`) and its snapshot parsed for analysis.
#[allow(dead_code)]
pub fn fixture(dir: &Path) -> (Catalog, Analyzer) {
    fixture_named(dir, "facts")
}

/// The fixture crate `tests/fixtures/NAME` indexed into a catalogue in
/// `dir`, and its snapshot parsed for analysis.
pub fn fixture_named(dir: &Path, name: &str) -> (Catalog, Analyzer) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name);
    let snapshot = load(&SourceSpec::Dir(root), &|p| RustExtractor.handles(p)).unwrap();
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
