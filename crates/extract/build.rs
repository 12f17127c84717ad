//! Fingerprints the extractor's own source, the syntax front-end's and the
//! model's (where the test-path rule lives), and the locked dependency
//! versions, which include the grammar, so that per-file extractions cached
//! in a catalogue are reused only by a build that would produce the same.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    let mut files = Vec::new();
    for dir in ["src", "../syntax/src", "../model/src"] {
        collect(Path::new(dir), &mut files);
    }
    files.sort();
    let mut h = DefaultHasher::new();
    for f in &files {
        f.hash(&mut h);
        std::fs::read(f).unwrap_or_default().hash(&mut h);
    }
    let lock = Path::new("../../Cargo.lock");
    std::fs::read(lock).unwrap_or_default().hash(&mut h);
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=../syntax/src");
    println!("cargo:rerun-if-changed=../model/src");
    println!("cargo:rerun-if-changed=../../Cargo.lock");
    println!(
        "cargo:rustc-env=ERRDEX_EXTRACT_FINGERPRINT={:016x}",
        h.finish()
    );
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else {
            out.push(p);
        }
    }
}
