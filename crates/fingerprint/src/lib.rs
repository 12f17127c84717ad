//! What each extractor crate's `build.rs` does: hash the sources its
//! per-file results depend on and the locked dependency versions (the
//! grammars among them), and hand the hash to the crate as an environment
//! variable, so that per-file extractions cached in a catalogue are reused
//! only by a build that would produce the same.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// Hashes every file under `dirs` (relative to the crate) and the
/// workspace's `Cargo.lock`, sets `var` to the hash for the crate being
/// built, and asks cargo to run the script again when any of them changes.
pub fn emit(var: &str, dirs: &[&str]) {
    let mut files = Vec::new();
    for dir in dirs {
        collect(Path::new(dir), &mut files);
        println!("cargo:rerun-if-changed={dir}");
    }
    files.sort();
    let mut h = DefaultHasher::new();
    for f in &files {
        f.hash(&mut h);
        std::fs::read(f).unwrap_or_default().hash(&mut h);
    }
    let lock = "../../Cargo.lock";
    std::fs::read(lock).unwrap_or_default().hash(&mut h);
    println!("cargo:rerun-if-changed={lock}");
    println!("cargo:rustc-env={var}={:016x}", h.finish());
}

/// Every file below `dir`.
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
