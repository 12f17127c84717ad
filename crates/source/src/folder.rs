//! A local folder: walked without following symlinks, skipping build output
//! and hidden folders.

use crate::{classify, ReadError, Skip, SkipReason, Snapshot, SourceError, MAX_FILE_BYTES};
use errdex_model::{SnapshotMeta, SourceFile};
use std::path::Path;
use xxhash_rust::xxh3::Xxh3;

/// A manifest larger than this is not read for dependencies.
const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// Folder names never descended into.
const IGNORED_DIRS: &[&str] = &["target", "node_modules"];

pub fn load(root: &Path, wanted: &dyn Fn(&str) -> bool) -> Result<Snapshot, SourceError> {
    walk(root, wanted, false)
}

/// One package's folder, as `cargo package` sees it: subfolders holding a
/// `Cargo.toml` are other packages and are left out.
pub fn load_package(
    name: &str,
    root: &Path,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    let mut s = walk(root, wanted, true)?;
    s.meta.repo = name.to_string();
    Ok(s)
}

fn walk(
    root: &Path,
    wanted: &dyn Fn(&str) -> bool,
    one_package: bool,
) -> Result<Snapshot, SourceError> {
    if !root.is_dir() {
        return Err(SourceError::NotADirectory(root.to_path_buf()));
    }
    let mut files = Vec::new();
    let mut skips = Vec::new();
    let walker = walkdir::WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter();
    let walker = walker.filter_entry(|e| {
        e.depth() == 0 || {
            let name = e.file_name().to_string_lossy();
            !(e.file_type().is_dir()
                && (name.starts_with('.')
                    || IGNORED_DIRS.contains(&name.as_ref())
                    || (one_package && e.path().join("Cargo.toml").is_file())))
        }
    });
    for entry in walker {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e.path().map(|p| relative(root, p)).unwrap_or_default();
                if !path.is_empty() && wanted(&path) {
                    skips.push(Skip {
                        path,
                        reason: SkipReason::Unreadable,
                    });
                }
                continue;
            }
        };
        let rel = relative(root, entry.path());
        // A link to a folder could hold wanted files: count it too.
        if entry.file_type().is_symlink() && (wanted(&rel) || entry.path().is_dir()) {
            skips.push(Skip {
                path: rel,
                reason: SkipReason::Symlink,
            });
            continue;
        }
        if entry.file_type().is_dir() || entry.file_type().is_symlink() || !wanted(&rel) {
            continue;
        }
        // A FIFO would block the reader, a device never end: only regular
        // files are opened.
        if !entry.file_type().is_file() {
            skips.push(Skip {
                path: rel,
                reason: SkipReason::NotRegular,
            });
            continue;
        }
        let reason = match crate::read_regular(entry.path(), MAX_FILE_BYTES) {
            Ok(bytes) => match classify(bytes) {
                Ok(text) => {
                    files.push(SourceFile { path: rel, text });
                    continue;
                }
                Err(reason) => reason,
            },
            Err(ReadError::NotRegular) => SkipReason::NotRegular,
            Err(ReadError::TooLarge) => SkipReason::TooLarge,
            Err(ReadError::Io(_)) => SkipReason::Unreadable,
        };
        skips.push(Skip { path: rel, reason });
    }
    // The package's dependencies, when the folder is one package.
    let deps = crate::read_regular(&root.join("Cargo.toml"), MAX_MANIFEST_BYTES)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|m| crate::archive::package_dependencies(&m));
    let meta = SnapshotMeta {
        repo: folder_name(root),
        revision: content_hash(&files),
        date: None,
        remote: None,
        vcs: None,
        deps,
    };
    Ok(Snapshot { meta, files, skips })
}

fn relative(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn folder_name(root: &Path) -> String {
    let abs = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    abs.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "root".into())
}

/// A revision for a folder outside git: a hash of every path and text.
fn content_hash(files: &[SourceFile]) -> String {
    let mut h = Xxh3::new();
    for f in files {
        h.update(f.path.as_bytes());
        h.update(&[0]);
        h.update(f.text.as_bytes());
        h.update(&[0]);
    }
    format!("{:016x}", h.digest())
}
