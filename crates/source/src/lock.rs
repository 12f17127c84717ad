//! A lock file: every package at its exact version, by source. A
//! `Cargo.lock`, or a Python one (`requirements.txt`, `poetry.lock`,
//! `uv.lock`), told apart by the file's name.

mod python;

use crate::SourceError;
use std::path::Path;

pub use python::Format as PythonFormat;

/// Where a locked package comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LockedSource {
    /// A registry, with the archive's sha256.
    Registry {
        /// The checksum the lock file records.
        checksum: String,
    },
    /// A git repository at a pinned revision.
    Git {
        /// The repository's URL (without `git+`, query or fragment).
        url: String,
        /// The pinned commit (the URL's `#fragment`).
        commit: Option<String>,
    },
    /// A path dependency or the workspace's own members.
    Path,
    /// A release of the Python package index (or the index pip's
    /// configuration names), with the hashes of its files the lock
    /// records (`sha256:…`; empty when it records none).
    Pypi {
        /// `ALGORITHM:HEX` of each file of the release.
        hashes: Vec<String>,
    },
    /// A requirement that pins no version (`Django>=4.2`); the package's
    /// version holds the specifier as written.
    Unpinned,
    /// Something else (an unknown source kind).
    Other(String),
}

/// One package of a lock file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedPackage {
    /// Crate name.
    pub name: String,
    /// Exact version.
    pub version: String,
    /// Where it comes from.
    pub source: LockedSource,
}

/// The folders of the workspace members beside a lock file, by
/// `(name, version)`, from `cargo metadata --no-deps --offline` (which
/// needs neither the registry nor git).
pub fn member_folders(
    lock: &Path,
) -> Result<std::collections::HashMap<(String, String), std::path::PathBuf>, SourceError> {
    let manifest = lock
        .parent()
        .map(|d| d.join("Cargo.toml"))
        .filter(|m| m.is_file())
        .ok_or_else(|| SourceError::Cargo(format!("no Cargo.toml beside {}", lock.display())))?;
    let meta = cargo_metadata::MetadataCommand::new()
        .manifest_path(&manifest)
        .no_deps()
        .other_options(vec!["--offline".to_string()])
        .exec()
        .map_err(|e| {
            SourceError::Cargo(format!("cargo metadata on {}: {e}", manifest.display()))
        })?;
    Ok(meta
        .packages
        .into_iter()
        .filter_map(|p| {
            let dir = p.manifest_path.parent()?.as_std_path().to_path_buf();
            Some(((p.name.to_string(), p.version.to_string()), dir))
        })
        .collect())
}

/// The catalogue's repo slug for a locked git package: `owner/repo` of
/// its URL, else the package name.
pub fn git_repo_slug(url: &str, name: &str) -> String {
    crate::gitrev::slug_of_url(url).unwrap_or_else(|| name.to_string())
}

/// The same repository URL, spelled either way (`.git`, trailing `/`, case
/// of the host).
pub fn same_repository(a: &str, b: &str) -> bool {
    fn norm(u: &str) -> String {
        let u = u.trim().trim_end_matches('/');
        u.strip_suffix(".git").unwrap_or(u).to_ascii_lowercase()
    }
    norm(a) == norm(b)
}

/// The Python lock format of a lock file, by its name; None for a
/// `Cargo.lock`.
pub fn python_format(path: &Path) -> Option<PythonFormat> {
    PythonFormat::of(&path.file_name()?.to_string_lossy())
}

/// Reads a lock file's packages.
pub fn packages(path: &Path) -> Result<Vec<LockedPackage>, SourceError> {
    let bytes = crate::read_regular(path, crate::MAX_LOCK_BYTES).map_err(|e| {
        SourceError::Io(
            path.display().to_string(),
            std::io::Error::other(e.to_string()),
        )
    })?;
    let format = python_format(path);
    let what = match format {
        Some(PythonFormat::Requirements) => "a requirements file",
        Some(PythonFormat::Poetry) => "a poetry.lock",
        Some(PythonFormat::Uv) => "a uv.lock",
        None => "a Cargo.lock",
    };
    let not = || SourceError::Archive(format!("{} is not {what}", path.display()));
    let text = String::from_utf8(bytes).map_err(|_| not())?;
    match format {
        Some(f) => f.parse(&text),
        None => parse(&text),
    }
    .ok_or_else(not)
}

pub(crate) fn parse(text: &str) -> Option<Vec<LockedPackage>> {
    let doc: toml::Table = text.parse().ok()?;
    let packages = doc.get("package")?.as_array()?;
    let mut out = Vec::new();
    for p in packages {
        let t = p.as_table()?;
        let name = t.get("name")?.as_str()?.to_string();
        let version = t.get("version")?.as_str()?.to_string();
        let source = match t.get("source").and_then(|s| s.as_str()) {
            None => LockedSource::Path,
            Some(s) if s.starts_with("registry+") || s.starts_with("sparse+") => {
                match t.get("checksum").and_then(|c| c.as_str()) {
                    Some(c) => LockedSource::Registry {
                        checksum: c.to_string(),
                    },
                    None => LockedSource::Other(s.to_string()),
                }
            }
            Some(s) if s.starts_with("git+") => {
                let rest = &s["git+".len()..];
                let (url, commit) = match rest.split_once('#') {
                    Some((u, c)) => (u, Some(c.to_string())),
                    None => (rest, None),
                };
                let url = url.split('?').next().unwrap_or(url).to_string();
                LockedSource::Git { url, commit }
            }
            Some(s) => LockedSource::Other(s.to_string()),
        };
        out.push(LockedPackage {
            name,
            version,
            source,
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources() {
        let lock = r#"
version = 4
[[package]]
name = "app"
version = "0.1.0"
[[package]]
name = "semver"
version = "1.0.26"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "56e6fa9c48d24d85fb3de5ad847117517440f6beceb7798af16b4a87d616b8d0"
[[package]]
name = "forked"
version = "0.2.0"
source = "git+https://example.org/forked.git?rev=abc#abc123"
[[package]]
name = "weird"
version = "1.0.0"
source = "local-registry+file:///x"
"#;
        let p = parse(lock).unwrap();
        assert_eq!(p.len(), 4);
        assert_eq!(p[0].source, LockedSource::Path);
        assert!(matches!(p[1].source, LockedSource::Registry { .. }));
        assert_eq!(
            p[2].source,
            LockedSource::Git {
                url: "https://example.org/forked.git".into(),
                commit: Some("abc123".into())
            }
        );
        assert!(same_repository(
            "https://Example.org/forked",
            "https://example.org/forked.git/"
        ));
        assert!(matches!(p[3].source, LockedSource::Other(_)));
        assert!(parse("not toml [[[").is_none());
    }
}
