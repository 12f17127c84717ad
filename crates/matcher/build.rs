//! Fingerprints the sources that decide what a persisted explain index
//! holds (the builder, the file's records and layout, the model's types),
//! so that a file written by another build is rebuilt, never misread.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;

const SOURCES: [&str; 5] = [
    "src/index.rs",
    "src/filed.rs",
    "src/pattern.rs",
    "src/persist",
    "../model/src",
];

fn main() {
    let mut files = Vec::new();
    for s in SOURCES {
        collect(Path::new(s), &mut files);
        println!("cargo:rerun-if-changed={s}");
    }
    files.sort();
    let mut h = DefaultHasher::new();
    for f in &files {
        f.hash(&mut h);
        std::fs::read(f).unwrap_or_default().hash(&mut h);
    }
    println!(
        "cargo:rustc-env=ERRDEX_MATCH_FINGERPRINT={:016x}",
        h.finish()
    );
}

fn collect(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_file() {
        out.push(path.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    for e in entries.flatten() {
        collect(&e.path(), out);
    }
}
