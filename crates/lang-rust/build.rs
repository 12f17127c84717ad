//! Fingerprints the Rust extractor's own source and the locked dependency
//! versions (the grammar among them), as errdex-extract does its own and errdex-lang-python its:
//! per-file results cached in a catalogue are reused only by a build that
//! would produce the same.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    let mut files = Vec::new();
    collect(Path::new("src"), &mut files);
    files.sort();
    let mut h = DefaultHasher::new();
    for f in &files {
        f.hash(&mut h);
        std::fs::read(f).unwrap_or_default().hash(&mut h);
    }
    std::fs::read("../../Cargo.lock")
        .unwrap_or_default()
        .hash(&mut h);
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=../../Cargo.lock");
    println!(
        "cargo:rustc-env=ERRDEX_RUST_FINGERPRINT={:016x}",
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
