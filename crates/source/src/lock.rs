//! A `Cargo.lock`: every package at its exact version, by source.

use crate::SourceError;
use std::path::Path;

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
        /// The source URL as written.
        url: String,
    },
    /// A path dependency or the workspace's own members.
    Path,
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

/// Reads a lock file's packages.
pub fn packages(path: &Path) -> Result<Vec<LockedPackage>, SourceError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| SourceError::Io(path.display().to_string(), e))?;
    parse(&text)
        .ok_or_else(|| SourceError::Archive(format!("{} is not a Cargo.lock", path.display())))
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
            Some(s) if s.starts_with("git+") => LockedSource::Git { url: s.to_string() },
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
        assert!(matches!(p[2].source, LockedSource::Git { .. }));
        assert!(matches!(p[3].source, LockedSource::Other(_)));
        assert!(parse("not toml [[[").is_none());
    }
}
