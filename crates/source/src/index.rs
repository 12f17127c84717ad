//! The registry index entries cargo keeps in `CARGO_HOME`: what versions
//! of a crate exist, their checksums and whether they are yanked, as cargo
//! last read them from the configured registry (a mirror under source
//! replacement included). errdex never reads the registry itself: a cargo
//! command refreshes the entry, and this reads cargo's copy.
//!
//! Each registry has a folder `registry/index/<registry>-<hash>/.cache/`
//! holding one file per crate (cargo's index layout: `1/a`, `2/ab`,
//! `3/a/abc`, `ab/cd/abcd…`, lowercased). A file is cargo's cache format 3:
//! one byte `3`, a little-endian `u32` index format version, the index's
//! own version (an ETag or commit) ending in NUL, then for each published
//! version its version string and its index line (JSON), each ending in NUL.

use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The cache format this reads (cargo's `CURRENT_CACHE_VERSION`).
const CACHE_VERSION: u8 = 3;

/// Largest index cache file read (the biggest crates' entries are a few MiB).
const MAX_ENTRY_BYTES: u64 = 64 * 1024 * 1024;

/// One published version, as the registry's index lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexVersion {
    /// The exact version.
    pub version: String,
    /// The sha256 of its `.crate` archive.
    pub checksum: String,
    /// Yanked: still downloadable, but cargo resolves to it only when a
    /// lock file pins it.
    pub yanked: bool,
    /// When it was published (RFC 3339, the index's `pubtime`), where the
    /// index records it.
    pub published: Option<String>,
}

/// A crate's versions in one registry's cache folder.
#[derive(Debug, Clone)]
pub struct IndexEntry {
    /// Every version listed.
    pub versions: Vec<IndexVersion>,
}

impl IndexEntry {
    /// The version `version`, if listed.
    pub fn get(&self, version: &str) -> Option<&IndexVersion> {
        self.versions.iter().find(|v| v.version == version)
    }
}

/// The index line's fields errdex uses.
#[derive(Deserialize)]
struct Line {
    vers: String,
    cksum: String,
    #[serde(default)]
    yanked: bool,
    #[serde(default)]
    pubtime: Option<String>,
}

/// The entries cargo holds for crate `name`, one per registry folder that
/// has it, the most recently written first (the registry cargo used last).
pub fn entries(cargo_home: &Path, name: &str) -> Vec<IndexEntry> {
    let root = cargo_home.join("registry").join("index");
    let Ok(dirs) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let relative = relative_path(name);
    let mut found: Vec<(std::time::SystemTime, IndexEntry)> = Vec::new();
    for dir in dirs.flatten() {
        let file = dir.path().join(".cache").join(&relative);
        let Ok(bytes) = crate::read_regular(&file, MAX_ENTRY_BYTES) else {
            continue;
        };
        let Some(versions) = parse(&bytes) else {
            continue;
        };
        let written = std::fs::metadata(&file)
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH);
        found.push((written, IndexEntry { versions }));
    }
    found.sort_by_key(|e| std::cmp::Reverse(e.0));
    found.into_iter().map(|(_, e)| e).collect()
}

/// Where cargo files crate `name` in an index (lowercased).
fn relative_path(name: &str) -> PathBuf {
    let n = name.to_ascii_lowercase();
    match n.len() {
        1 => PathBuf::from("1").join(&n),
        2 => PathBuf::from("2").join(&n),
        3 => PathBuf::from("3").join(&n[..1]).join(&n),
        _ => PathBuf::from(&n[..2]).join(&n[2..4]).join(&n),
    }
}

/// Reads one cache file; `None` when it is not cargo's format 3.
fn parse(bytes: &[u8]) -> Option<Vec<IndexVersion>> {
    if bytes.first() != Some(&CACHE_VERSION) || bytes.len() < 5 {
        return None;
    }
    let mut parts = bytes[5..].split(|b| *b == 0);
    parts.next()?; // the index's own version
    let mut versions = Vec::new();
    while let (Some(_), Some(line)) = (parts.next(), parts.next()) {
        if let Ok(l) = serde_json::from_slice::<Line>(line) {
            versions.push(IndexVersion {
                version: l.vers,
                checksum: l.cksum,
                yanked: l.yanked,
                published: l.pubtime,
            });
        }
    }
    Some(versions)
}

/// The newest version of `versions` that `req` (a cargo requirement such
/// as `^0.12` or `>=0.11, <0.13`) accepts, yanked or not.
pub fn newest_matching<'a>(versions: &'a [IndexVersion], req: &str) -> Option<&'a IndexVersion> {
    let req = semver::VersionReq::parse(req).ok()?;
    versions
        .iter()
        .filter_map(|v| Some((semver::Version::parse(&v.version).ok()?, v)))
        .filter(|(parsed, _)| req.matches(parsed))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache_file(lines: &[(&str, &str)]) -> Vec<u8> {
        let mut b = vec![3, 2, 0, 0, 0];
        b.extend_from_slice(b"\"etag\"\0");
        for (v, json) in lines {
            b.extend_from_slice(v.as_bytes());
            b.push(0);
            b.extend_from_slice(json.as_bytes());
            b.push(0);
        }
        b
    }

    #[test]
    fn reads_cargo_cache_format() {
        let bytes = cache_file(&[
            (
                "0.12.0",
                r#"{"name":"ring","vers":"0.12.0","deps":[],"cksum":"aa","features":{},"yanked":true}"#,
            ),
            (
                "0.12.1",
                r#"{"name":"ring","vers":"0.12.1","deps":[],"cksum":"bb","features":{},"yanked":true,"pubtime":"2018-01-02T03:04:05Z"}"#,
            ),
            (
                "0.13.5",
                r#"{"name":"ring","vers":"0.13.5","deps":[],"cksum":"cc","features":{}}"#,
            ),
        ]);
        let v = parse(&bytes).unwrap();
        assert_eq!(v.len(), 3);
        assert_eq!(
            v[1],
            IndexVersion {
                version: "0.12.1".into(),
                checksum: "bb".into(),
                yanked: true,
                published: Some("2018-01-02T03:04:05Z".into()),
            }
        );
        assert!(!v[2].yanked && v[2].published.is_none());
        assert_eq!(newest_matching(&v, "^0.12").unwrap().version, "0.12.1");
        assert_eq!(
            newest_matching(&v, ">=0.11, <0.14").unwrap().version,
            "0.13.5"
        );
        assert!(newest_matching(&v, "^1").is_none());
        // Another cache format is not guessed at.
        let mut other = bytes.clone();
        other[0] = 4;
        assert!(parse(&other).is_none());
        assert!(parse(&[]).is_none());
    }

    #[test]
    fn index_paths() {
        assert_eq!(relative_path("a"), Path::new("1/a"));
        assert_eq!(relative_path("ab"), Path::new("2/ab"));
        assert_eq!(relative_path("Sct"), Path::new("3/s/sct"));
        assert_eq!(relative_path("wgpu-core"), Path::new("wg/pu/wgpu-core"));
    }
}
