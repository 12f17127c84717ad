//! Published crates, fetched through cargo itself: a throw-away manifest
//! pinning the version, `cargo generate-lockfile` to resolve it against the
//! configured registry (mirrors and source replacement included), `cargo
//! fetch` to download it, and the archive read from cargo's cache after its
//! checksum is checked against the lock file. No host is hard-coded.

use crate::lock::{LockedPackage, LockedSource};
use crate::{archive, Snapshot, SourceError};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Largest `.crate` archive read (crates.io refuses uploads past 10 MiB).
const MAX_ARCHIVE_BYTES: u64 = 256 * 1024 * 1024;

/// `NAME` and an optional exact `VERSION`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CrateSpec {
    /// The crate's name.
    pub name: String,
    /// The exact version; the newest when absent.
    pub version: Option<String>,
}

impl CrateSpec {
    /// Parses `NAME[@VERSION]`.
    pub fn parse(s: &str) -> Result<Self, SourceError> {
        let (name, version) = match s.split_once('@') {
            Some((n, v)) => (n, Some(v)),
            None => (s, None),
        };
        let name_ok = !name.is_empty()
            && name.len() <= 64
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        let version_ok = version.is_none_or(|v| {
            !v.is_empty()
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
        });
        if !name_ok || !version_ok {
            return Err(SourceError::BadCrateSpec(s.to_string()));
        }
        Ok(CrateSpec {
            name: name.to_string(),
            version: version.map(str::to_string),
        })
    }

    fn display(&self) -> String {
        match &self.version {
            Some(v) => format!("{}@{v}", self.name),
            None => self.name.clone(),
        }
    }
}

pub fn load(spec: &CrateSpec, wanted: &dyn Fn(&str) -> bool) -> Result<Snapshot, SourceError> {
    let (version, checksum) = resolve(spec)?;
    read_archive(&spec.name, &version, &checksum, wanted)
}

/// A crate at an exact version whose checksum is known (from a lock file).
pub fn load_exact(
    name: &str,
    version: &str,
    checksum: &str,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    if find_archive(name, version, checksum).is_err() {
        let spec = CrateSpec::parse(&format!("{name}@{version}"))?;
        let (_, fetched) = resolve(&spec)?;
        if !fetched.eq_ignore_ascii_case(checksum) {
            return Err(SourceError::Checksum(format!("{name}@{version}")));
        }
    }
    read_archive(name, version, checksum, wanted)
}

/// `cargo fetch` on the manifest beside a lock file.
pub fn prefetch(lock: &Path) -> bool {
    let Some(dir) = lock.parent() else {
        return false;
    };
    let manifest = dir.join("Cargo.toml");
    if !manifest.exists() {
        return false;
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(["fetch", "--locked", "--quiet", "--manifest-path"])
        .arg(&manifest)
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn read_archive(
    name: &str,
    version: &str,
    checksum: &str,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    let spec = CrateSpec::parse(&format!("{name}@{version}"))?;
    let (version, checksum) = (version.to_string(), checksum.to_string());
    let archive_path = find_archive(&spec.name, &version, &checksum)?;
    let bytes = crate::read_regular(&archive_path, MAX_ARCHIVE_BYTES).map_err(|e| {
        SourceError::Io(
            archive_path.display().to_string(),
            std::io::Error::other(e.to_string()),
        )
    })?;
    archive::read_crate(&spec.name, &version, &bytes, wanted)
}

/// Resolves and downloads the crate; returns its exact version and the
/// registry's sha256 checksum.
fn resolve(spec: &CrateSpec) -> Result<(String, String), SourceError> {
    let dir = tempfile::tempdir()
        .map_err(|e| SourceError::Io("creating a temporary folder".into(), e))?;
    let req = spec
        .version
        .as_deref()
        .map(|v| format!("={v}"))
        .unwrap_or_else(|| "*".into());
    let manifest = format!(
        "[package]\nname = \"errdex-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [workspace]\n\n[lib]\npath = \"lib.rs\"\n\n[dependencies]\n{} = {{ version = \"{req}\", default-features = false }}\n",
        spec.name
    );
    let write = |p: &str, s: &str| {
        std::fs::write(dir.path().join(p), s).map_err(|e| SourceError::Io(p.into(), e))
    };
    write("Cargo.toml", &manifest)?;
    write("lib.rs", "")?;
    cargo(dir.path(), &["generate-lockfile"], spec)?;
    let locked = crate::lock::packages(&dir.path().join("Cargo.lock"))?;
    let (version, checksum) = registry_package(&locked, &spec.name)
        .ok_or_else(|| SourceError::UnknownCrate(spec.display()))?;
    cargo(dir.path(), &["fetch", "--locked"], spec)?;
    Ok((version, checksum))
}

fn cargo(dir: &Path, args: &[&str], spec: &CrateSpec) -> Result<(), SourceError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .arg("--quiet")
        .current_dir(dir)
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .map_err(|e| SourceError::Cargo(format!("could not run cargo: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    if err.contains("no matching package named") || err.contains("failed to select a version") {
        return Err(SourceError::UnknownCrate(spec.display()));
    }
    let first = err
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("error"))
        .unwrap_or_else(|| err.lines().next().unwrap_or("no output"));
    Err(SourceError::Cargo(first.to_string()))
}

/// The version and checksum of registry package `name` among a lock
/// file's packages.
fn registry_package(locked: &[LockedPackage], name: &str) -> Option<(String, String)> {
    locked.iter().find_map(|p| match &p.source {
        LockedSource::Registry { checksum } if p.name == name => {
            Some((p.version.clone(), checksum.clone()))
        }
        _ => None,
    })
}

fn cargo_home() -> Option<PathBuf> {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".cargo")))
}

/// The downloaded `.crate` in cargo's cache whose sha256 is `checksum`.
fn find_archive(name: &str, version: &str, checksum: &str) -> Result<PathBuf, SourceError> {
    use sha2::{Digest, Sha256};
    let cache = cargo_home()
        .map(|h| h.join("registry").join("cache"))
        .ok_or_else(|| SourceError::Cargo("no CARGO_HOME or home folder".into()))?;
    let file = format!("{name}-{version}.crate");
    let mut seen = false;
    for entry in
        std::fs::read_dir(&cache).map_err(|e| SourceError::Io(cache.display().to_string(), e))?
    {
        let Ok(entry) = entry else { continue };
        let candidate = entry.path().join(&file);
        let Ok(bytes) = crate::read_regular(&candidate, MAX_ARCHIVE_BYTES) else {
            continue;
        };
        seen = true;
        let digest = Sha256::digest(&bytes);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        if hex.eq_ignore_ascii_case(checksum) {
            return Ok(candidate);
        }
    }
    if seen {
        Err(SourceError::Checksum(format!("{name}@{version}")))
    } else {
        Err(SourceError::Cargo(format!(
            "cargo fetch left no {file} in {}",
            cache.display()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        assert_eq!(
            CrateSpec::parse("serde_json@1.0.100").unwrap(),
            CrateSpec {
                name: "serde_json".into(),
                version: Some("1.0.100".into())
            }
        );
        assert_eq!(CrateSpec::parse("log").unwrap().version, None);
        assert!(CrateSpec::parse("bad name@1").is_err());
        assert!(CrateSpec::parse("x@1\"; evil").is_err());
        assert!(CrateSpec::parse("@1.0").is_err());
    }

    #[test]
    fn lock_lookup() {
        let lock = r#"
version = 3
[[package]]
name = "errdex-fetch"
version = "0.0.0"

[[package]]
name = "log"
version = "0.4.22"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "abcd"
"#;
        let locked = crate::lock::parse(lock).unwrap();
        assert_eq!(
            registry_package(&locked, "log"),
            Some(("0.4.22".into(), "abcd".into()))
        );
        assert_eq!(registry_package(&locked, "errdex-fetch"), None);
    }
}
