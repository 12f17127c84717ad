//! Sources: one snapshot of source code as `(path, text)` files plus its
//! metadata (repo slug, revision, date, remote), from a local folder or a
//! published crate fetched through cargo's own registry configuration.
//!
//! A source never follows a symlink, never writes outside a temporary
//! folder, and skips binary, oversized, unreadable and non-UTF-8 files with
//! a counted reason. It knows nothing of parsing or storage.

mod archive;
mod crates;
mod folder;
mod gitrev;
pub mod history;
mod index;
pub mod lock;
pub mod pypi;

use errdex_model::{SnapshotMeta, SourceFile};
use std::fmt;
use std::path::PathBuf;

pub use crates::CrateSpec;
pub use pypi::PypiSpec;

/// Files larger than this are skipped. Generated sources (time-zone and
/// Unicode tables, bindings) reach several MiB and hold real error sites.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// What to index, as the user wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceSpec {
    /// A local folder that is not a git repository.
    Dir(PathBuf),
    /// A git repository (work tree or bare) at a revision, read from its
    /// object store: `GITDIR` (HEAD) or `GITDIR@REV`.
    Git(PathBuf, String),
    /// A published crate, `crate:NAME@VERSION` (latest when no version).
    Crate(CrateSpec),
    /// Every registry package of a lock file, `lock:PATH/Cargo.lock`.
    Lock(PathBuf),
    /// A published Python package, `pypi:NAME==VERSION` (newest when no
    /// version).
    Pypi(PypiSpec),
}

impl SourceSpec {
    /// Parses `crate:NAME[@VERSION]`, `pypi:NAME[==VERSION]`, `lock:PATH`
    /// or a folder path.
    pub fn parse(s: &str) -> Result<Self, SourceError> {
        if let Some(rest) = s.strip_prefix("crate:") {
            return Ok(SourceSpec::Crate(CrateSpec::parse(rest)?));
        }
        if let Some(rest) = s.strip_prefix("pypi:") {
            return Ok(SourceSpec::Pypi(PypiSpec::parse(rest)?));
        }
        if let Some(rest) = s.strip_prefix("lock:") {
            return Ok(SourceSpec::Lock(PathBuf::from(rest)));
        }
        if let Some((dir, rev)) = s.rsplit_once('@') {
            if !rev.is_empty() && gitrev::is_repository(std::path::Path::new(dir)) {
                return Ok(SourceSpec::Git(PathBuf::from(dir), rev.to_string()));
            }
        }
        let dir = PathBuf::from(s);
        if gitrev::is_repository(&dir) {
            return Ok(SourceSpec::Git(dir, "HEAD".into()));
        }
        Ok(SourceSpec::Dir(dir))
    }
}

/// Why a file was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SkipReason {
    /// Reading failed (permissions, I/O).
    Unreadable,
    /// Not valid UTF-8.
    InvalidUtf8,
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge,
    /// Holds NUL bytes.
    Binary,
    /// A symbolic link (never followed).
    Symlink,
    /// An archive entry whose path would leave the snapshot, or that is not
    /// a regular file.
    UnsafeEntry,
    /// Not a regular file: a FIFO, socket or device (never opened, so a
    /// FIFO cannot block and a device cannot be read without end).
    NotRegular,
    /// A git tree entry whose name is `.`, `..`, empty, or holds `/` or NUL
    /// (refused as `git fsck` refuses it).
    BadTreeEntry,
    /// Syntax nested deeper than the extractor walks
    /// (`errdex_syntax::MAX_SYNTAX_DEPTH`).
    TooDeep,
}

impl SkipReason {
    /// The stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Unreadable => "unreadable",
            SkipReason::InvalidUtf8 => "invalid_utf8",
            SkipReason::TooLarge => "too_large",
            SkipReason::Binary => "binary",
            SkipReason::Symlink => "symlink",
            SkipReason::UnsafeEntry => "unsafe_entry",
            SkipReason::NotRegular => "not_regular",
            SkipReason::BadTreeEntry => "bad_tree_entry",
            SkipReason::TooDeep => "too_deep",
        }
    }
}

/// A file left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    /// Path relative to the snapshot root.
    pub path: String,
    /// Why.
    pub reason: SkipReason,
}

/// One snapshot's files and metadata.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// Where it comes from and which revision it is.
    pub meta: SnapshotMeta,
    /// Files read, sorted by path.
    pub files: Vec<SourceFile>,
    /// Files left out.
    pub skips: Vec<Skip>,
}

/// Why a source could not be read at all.
#[derive(Debug)]
pub enum SourceError {
    /// The folder does not exist or is not a folder.
    NotADirectory(PathBuf),
    /// `crate:` spec malformed.
    BadCrateSpec(String),
    /// `pypi:` spec malformed.
    BadPackageSpec(String),
    /// The registry has no such crate.
    UnknownCrate(String),
    /// The package index has no such project.
    UnknownPackage(String),
    /// pip could not be run or failed.
    Pip(String),
    /// The registry has the crate but not this version (`NAME@VERSION`).
    NoSuchVersion(String),
    /// A yanked version (`NAME@VERSION`) that cargo's cache lacks while
    /// cargo cannot reach the registry (offline).
    YankedNotCached(String),
    /// cargo could not reach the registry (its innermost cause).
    Unreachable(String),
    /// cargo could not be run or failed.
    Cargo(String),
    /// The downloaded archive did not match the registry's checksum.
    Checksum(String),
    /// The crate archive could not be read.
    Archive(String),
    /// Other I/O failure.
    Io(String, std::io::Error),
    /// The git repository could not be read (corrupt objects, not a repo).
    Git(String),
    /// No such revision.
    UnknownRevision(String),
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::NotADirectory(p) => write!(f, "{} is not a readable folder", p.display()),
            SourceError::BadCrateSpec(s) => {
                write!(
                    f,
                    "bad crate spec `{s}`: expected crate:NAME or crate:NAME@VERSION"
                )
            }
            SourceError::BadPackageSpec(s) => write!(
                f,
                "bad package spec `{s}`: expected pypi:NAME or pypi:NAME==VERSION"
            ),
            SourceError::UnknownCrate(s) => write!(f, "no such crate {s}"),
            SourceError::UnknownPackage(s) => write!(f, "no such package {s} in the index"),
            SourceError::Pip(s) => write!(f, "pip failed: {s}"),
            SourceError::NoSuchVersion(s) => write!(f, "no such version {s}"),
            SourceError::YankedNotCached(s) => {
                write!(f, "{s} is yanked and not in the cache")
            }
            SourceError::Unreachable(s) => write!(f, "registry unreachable: {s}"),
            SourceError::Cargo(s) => write!(f, "cargo failed: {s}"),
            SourceError::Checksum(s) => {
                write!(f, "checksum mismatch for {s}: refusing the archive")
            }
            SourceError::Archive(s) => write!(f, "malformed archive: {s}"),
            SourceError::Io(what, e) => write!(f, "{what}: {e}"),
            SourceError::Git(s) => write!(f, "git: {s}"),
            SourceError::UnknownRevision(s) => write!(f, "unknown revision {s}"),
        }
    }
}

impl std::error::Error for SourceError {}

/// Reads a snapshot. `wanted` says which relative paths to read (an
/// extractor's `handles`); other files are ignored, not counted.
/// A lock file is many snapshots: see [`lock::packages`] and
/// [`load_locked`].
pub fn load(spec: &SourceSpec, wanted: &dyn Fn(&str) -> bool) -> Result<Snapshot, SourceError> {
    match spec {
        SourceSpec::Dir(dir) => folder::load(dir, wanted),
        SourceSpec::Git(dir, rev) => gitrev::load(dir, rev, wanted),
        SourceSpec::Crate(c) => crates::load(c, wanted),
        SourceSpec::Pypi(p) => pypi::load(p, wanted),
        SourceSpec::Lock(path) => Err(SourceError::BadCrateSpec(format!(
            "lock:{} holds many crates; index each package",
            path.display()
        ))),
    }
}

/// The files a snapshot's Rust code includes as item docs
/// (`#[doc = include_str!("../docs/route.md")]`) that it does not hold yet,
/// as paths of the snapshot (an include reaching outside it left out; a
/// crate's or module's own `#![doc = ..]`, often its README, is not an
/// item's doc and is left out too).
pub fn doc_includes(files: &[SourceFile]) -> Vec<String> {
    let have: std::collections::HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
    let mut out = Vec::new();
    for f in files.iter().filter(|f| f.path.ends_with(".rs")) {
        for l in f.text.lines() {
            let t = l.trim_start();
            let Some(rest) = t
                .strip_prefix("#[doc")
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix('='))
                .map(str::trim_start)
                .and_then(|r| r.strip_prefix("include_str!(\""))
            else {
                continue;
            };
            let Some((rel, _)) = rest.split_once('"') else {
                continue;
            };
            let mut parts: Vec<&str> = f.path.split('/').collect();
            parts.pop();
            let mut inside = true;
            for seg in rel.split('/') {
                match seg {
                    "" | "." => {}
                    ".." => inside &= parts.pop().is_some(),
                    s => parts.push(s),
                }
            }
            let path = parts.join("/");
            if inside && !path.is_empty() && !have.contains(path.as_str()) && !out.contains(&path) {
                out.push(path);
            }
        }
    }
    out
}

/// Reads a snapshot with `load` (given what to read), then, when its
/// code includes files as item docs ([`doc_includes`]), once more with
/// those files too: an item's docs are part of what the analysis reads.
pub fn with_doc_includes(
    load: impl Fn(&dyn Fn(&str) -> bool) -> Result<Snapshot, SourceError>,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    let first = load(wanted)?;
    let docs = doc_includes(&first.files);
    if docs.is_empty() {
        return Ok(first);
    }
    load(&|p: &str| wanted(p) || docs.iter().any(|d| d == p))
}

/// Reads one registry package of a lock file: from cargo's cache when its
/// archive is there with the locked checksum, else fetched through cargo.
pub fn load_locked(
    name: &str,
    version: &str,
    checksum: &str,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    crates::load_exact(name, version, checksum, wanted)
}

/// Reads a path package of a lock file from its folder (nested packages
/// left out), named `name`.
pub fn load_path_package(
    name: &str,
    dir: &std::path::Path,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    folder::load_package(name, dir, wanted)
}

/// Downloads every package of a lock file at once (`cargo fetch` on the
/// manifest beside it), so that [`load_locked`] finds them in the cache.
/// Best effort: a failure only means each package is fetched alone.
pub fn prefetch_lock(lock: &std::path::Path) -> bool {
    crates::prefetch(lock)
}

/// A Unix time as RFC 3339 (UTC).
pub(crate) fn rfc3339(secs: i64) -> Option<String> {
    let t = time::OffsetDateTime::from_unix_timestamp(secs).ok()?;
    t.format(&time::format_description::well_known::Rfc3339)
        .ok()
}

/// Largest `Cargo.lock` read (a lock file of thousands of packages is a
/// few MiB).
pub const MAX_LOCK_BYTES: u64 = 64 * 1024 * 1024;

/// Why [`read_regular`] read nothing.
#[derive(Debug)]
pub enum ReadError {
    /// Not a regular file (FIFO, socket, device, folder).
    NotRegular,
    /// Larger than the cap.
    TooLarge,
    /// Opening or reading failed.
    Io(std::io::Error),
}

/// Reads a regular file of at most `cap` bytes. The file is opened
/// without blocking (a FIFO cannot hang the reader), checked to be a
/// regular file on the opened handle (no race with a swap), its size
/// checked before reading, and read through [`std::io::Read::take`] so
/// that a file growing meanwhile still stops at the cap.
pub fn read_regular(path: &std::path::Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > cap {
        return Err(ReadError::TooLarge);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(ReadError::TooLarge);
    }
    Ok(bytes)
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotRegular => write!(f, "not a regular file"),
            ReadError::TooLarge => write!(f, "too large"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

/// Checks one file's bytes: the text, or why it is skipped.
pub(crate) fn classify(bytes: Vec<u8>) -> Result<String, SkipReason> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(SkipReason::TooLarge);
    }
    if bytes.contains(&0) {
        return Err(SkipReason::Binary);
    }
    String::from_utf8(bytes).map_err(|_| SkipReason::InvalidUtf8)
}

#[cfg(test)]
mod doc_include_tests {
    use super::*;

    #[test]
    fn doc_includes_are_resolved_from_the_including_file() {
        let files = vec![
            SourceFile {
                path: "src/routing/mod.rs".into(),
                text: "#[doc = include_str!(\"../docs/route.md\")]\npub fn route() {}\n#[doc = include_str!(\"../../../outside.md\")]\nfn f() {}\n".into(),
            },
            SourceFile {
                path: "src/lib.rs".into(),
                text: "#![doc = include_str!(\"../README.md\")]\n#[doc = include_str!(\"routing/mod.rs\")]\nfn g() {}\n".into(),
            },
        ];
        assert_eq!(doc_includes(&files), vec!["src/docs/route.md".to_string()]);
    }
}
