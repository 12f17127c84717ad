//! Helpers shared by the extraction tests.

use errdex_extract::{extract_all, SourceFile};
use errdex_lang_rust::RustExtractor;
use errdex_model::Site;

/// The sites extraction finds in a crate whose only file is `src/lib.rs`
/// holding `text`.
pub fn lib_sites(text: &str) -> Vec<Site> {
    let files = vec![SourceFile {
        path: "src/lib.rs".into(),
        text: text.into(),
    }];
    extract_all(&RustExtractor, &files).sites
}
