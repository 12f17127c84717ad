//! Published crates, fetched through cargo itself, so that the registry
//! cargo is configured for is the one used (mirrors, source replacement,
//! offline mode, `CARGO_HOME`): no host is hard-coded.
//!
//! A throw-away project depends on the crate at its exact version
//! (`=VERSION`, or `*` for the newest) and `cargo fetch` resolves and
//! downloads it; its lock file names the registry's checksum, which the
//! archive in cargo's cache must match before it is read. Cargo resolves
//! to a yanked version only when a lock file pins it, so a yanked version
//! is pinned in the project's `Cargo.lock` (name, version, checksum from
//! cargo's own index entry, see [`crate::index`]); and when resolving the
//! crate's dependencies fails because every version a requirement accepts
//! was yanked since, cargo names that requirement and its newest matching
//! version is pinned too, one at a time. An archive already in cargo's
//! cache with the index's (or the lock file's) checksum is read without
//! running cargo at all.

use crate::lock::{LockedPackage, LockedSource};
use crate::{archive, index, Snapshot, SourceError};
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
}

/// Reads a published crate: the version named, else the newest.
pub fn load(spec: &CrateSpec, wanted: &dyn Fn(&str) -> bool) -> Result<Snapshot, SourceError> {
    let home = cargo_home()?;
    let (version, checksum) = match &spec.version {
        Some(v) => (v.clone(), obtain(&home, &spec.name, v, None)?),
        None => fetch(&home, &spec.name, None, Vec::new())?,
    };
    read_archive(&home, &spec.name, &version, &checksum, wanted)
}

/// A crate at an exact version whose checksum is known (from a lock file).
pub fn load_exact(
    name: &str,
    version: &str,
    checksum: &str,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    let home = cargo_home()?;
    obtain(&home, name, version, Some(checksum))?;
    read_archive(&home, name, version, checksum, wanted)
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
    home: &Path,
    name: &str,
    version: &str,
    checksum: &str,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    let archive_path = find_archive(home, name, version, checksum)?;
    let bytes = crate::read_regular(&archive_path, MAX_ARCHIVE_BYTES).map_err(|e| {
        SourceError::Io(
            archive_path.display().to_string(),
            std::io::Error::other(e.to_string()),
        )
    })?;
    let mut snapshot = archive::read_crate(name, version, &bytes, wanted)?;
    // The registry says when the version was published; the archive's
    // file times are often placeholders.
    if let Some(published) = index::entries(home, name)
        .into_iter()
        .find_map(|e| e.get(version).and_then(|v| v.published.clone()))
    {
        snapshot.meta.date = Some(published);
    }
    Ok(snapshot)
}

/// Puts `name@version` in cargo's cache (unless it is there with the
/// expected checksum) and returns its checksum. `locked` is a lock file's
/// checksum, which the registry's must equal; without one, the registry's
/// index entry gives it.
fn obtain(
    home: &Path,
    name: &str,
    version: &str,
    locked: Option<&str>,
) -> Result<String, SourceError> {
    let listed = index::entries(home, name)
        .into_iter()
        .find_map(|e| e.get(version).cloned());
    let known = locked
        .map(str::to_string)
        .or_else(|| listed.as_ref().map(|v| v.checksum.clone()));
    if let Some(checksum) = known {
        if find_archive(home, name, version, &checksum).is_ok() {
            return Ok(checksum);
        }
    }
    let pins = match (locked, listed) {
        // cargo itself then refuses a registry whose checksum differs.
        (Some(checksum), _) => vec![Pin::new(name, version, checksum)],
        (None, Some(v)) if v.yanked => vec![Pin::new(name, version, &v.checksum)],
        _ => Vec::new(),
    };
    let (_, fetched) = fetch(home, name, Some(version), pins)?;
    if locked.is_some_and(|c| !c.eq_ignore_ascii_case(&fetched)) {
        return Err(SourceError::Checksum(format!("{name}@{version}")));
    }
    Ok(fetched)
}

/// Most packages pinned in one throw-away lock file before giving up.
const MAX_PINS: usize = 64;

/// The registry source of a pinned package, as lock files spell crates.io
/// (under source replacement too: cargo maps it to the replacement).
const CRATES_IO: &str = "registry+https://github.com/rust-lang/crates.io-index";

/// The platform whose dependencies `cargo fetch` downloads besides the
/// crate (which is downloaded whatever the platform): one, rather than
/// every platform's (wgpu-core 0.19: 35 archives, 3.5 MB, instead of 79,
/// 19 MB). A target every rustc knows; its standard library need not be
/// installed.
const FETCH_TARGET: &str = "x86_64-unknown-linux-gnu";

/// A registry package written into the throw-away lock file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pin {
    name: String,
    version: String,
    checksum: String,
}

impl Pin {
    fn new(name: &str, version: &str, checksum: &str) -> Self {
        Pin {
            name: name.to_string(),
            version: version.to_string(),
            checksum: checksum.to_string(),
        }
    }
}

/// Resolves and downloads `name` (at `version`, else the newest) in a
/// throw-away project whose lock file holds `pins`, pinning each yanked
/// version cargo's resolution asks for; returns the version and the
/// registry's checksum.
fn fetch(
    home: &Path,
    name: &str,
    version: Option<&str>,
    mut pins: Vec<Pin>,
) -> Result<(String, String), SourceError> {
    let dir = tempfile::tempdir()
        .map_err(|e| SourceError::Io("creating a temporary folder".into(), e))?;
    let req = version
        .map(|v| format!("={v}"))
        .unwrap_or_else(|| "*".into());
    let write = |p: &str, s: &str| {
        std::fs::write(dir.path().join(p), s).map_err(|e| SourceError::Io(p.into(), e))
    };
    write(
        "Cargo.toml",
        &format!(
            "[package]\nname = \"errdex-fetch\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [workspace]\n\n[lib]\npath = \"lib.rs\"\n\n[dependencies]\n{name} = {{ version = \"{req}\", default-features = false }}\n"
        ),
    )?;
    write("lib.rs", "")?;
    let what = match version {
        Some(v) => format!("{name}@{v}"),
        None => name.to_string(),
    };
    loop {
        write("Cargo.lock", &lock_file(&pins))?;
        let stderr = match cargo(dir.path(), &["fetch", "--target", FETCH_TARGET])? {
            None => break,
            Some(stderr) => stderr,
        };
        let Some((dep, dep_req)) = unmet_requirement(&stderr) else {
            return Err(failure(home, name, version, &stderr));
        };
        let pin = pin_for(home, name, version, dep, dep_req, &stderr)?;
        if pins.contains(&pin) || pins.len() >= MAX_PINS {
            return Err(SourceError::Cargo(format!(
                "cannot resolve {what}: {}",
                first_error(&stderr)
            )));
        }
        pins.push(pin);
    }
    let locked = crate::lock::packages(&dir.path().join("Cargo.lock"))?;
    registry_package(&locked, name)
        .ok_or_else(|| SourceError::Cargo(format!("cargo fetch did not lock {what}")))
}

/// What to pin when cargo could not meet requirement `dep = "req"`: the
/// crate itself at its (yanked) version, or a dependency's newest version
/// that the requirement accepts (yanked since, or cargo would have taken
/// it).
fn pin_for(
    home: &Path,
    name: &str,
    version: Option<&str>,
    dep: &str,
    req: &str,
    stderr: &str,
) -> Result<Pin, SourceError> {
    let entry = index::entries(home, dep).into_iter().next();
    if dep == name {
        let entry = entry.ok_or_else(|| SourceError::UnknownCrate(name.to_string()))?;
        let Some(version) = version else {
            return Err(SourceError::Cargo(format!(
                "{name} has no published version that is not yanked or a pre-release: name one, crate:{name}@VERSION"
            )));
        };
        let v = entry
            .get(version)
            .ok_or_else(|| SourceError::NoSuchVersion(format!("{name}@{version}")))?;
        return Ok(Pin::new(name, version, &v.checksum));
    }
    entry
        .and_then(|e| index::newest_matching(&e.versions, req).cloned())
        .map(|v| Pin::new(dep, &v.version, &v.checksum))
        .ok_or_else(|| SourceError::Cargo(first_error(stderr)))
}

/// A throw-away project's lock file: the project and the pinned packages
/// (their dependencies are left for cargo to fill in).
fn lock_file(pins: &[Pin]) -> String {
    let mut s =
        String::from("version = 4\n\n[[package]]\nname = \"errdex-fetch\"\nversion = \"0.0.0\"\n");
    for p in pins {
        s.push_str(&format!(
            "\n[[package]]\nname = \"{}\"\nversion = \"{}\"\nsource = \"{CRATES_IO}\"\nchecksum = \"{}\"\n",
            p.name, p.version, p.checksum
        ));
    }
    s
}

/// Runs cargo in `dir`: `None` when it succeeded, else its stderr.
fn cargo(dir: &Path, args: &[&str]) -> Result<Option<String>, SourceError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(args)
        .arg("--quiet")
        .current_dir(dir)
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .map_err(|e| SourceError::Cargo(format!("could not run cargo: {e}")))?;
    Ok((!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned()))
}

/// `(dependency, requirement)` of cargo's "failed to select a version for
/// the requirement `dep = "req"`".
fn unmet_requirement(stderr: &str) -> Option<(&str, &str)> {
    const MARK: &str = "failed to select a version for the requirement `";
    let line = stderr.lines().find_map(|l| {
        let at = l.find(MARK)?;
        Some(&l[at + MARK.len()..])
    })?;
    let inner = &line[..line.rfind('`')?];
    let (dep, req) = inner.split_once(" = ")?;
    Some((dep.trim(), req.trim().trim_matches('"')))
}

/// What a failed `cargo fetch` of `name@version` means.
fn failure(home: &Path, name: &str, version: Option<&str>, stderr: &str) -> SourceError {
    let what = match version {
        Some(v) => format!("{name}@{v}"),
        None => name.to_string(),
    };
    if stderr.contains("changed between lock files") {
        return SourceError::Checksum(what);
    }
    let offline = [
        "offline mode",
        "--offline was specified",
        "you're using offline",
    ]
    .iter()
    .any(|m| stderr.contains(m));
    if offline {
        let yanked = version.is_some_and(|v| {
            index::entries(home, name)
                .iter()
                .any(|e| e.get(v).is_some_and(|iv| iv.yanked))
        });
        return if yanked {
            SourceError::YankedNotCached(what)
        } else {
            SourceError::Unreachable(format!("cargo is offline and {what} is not in its cache"))
        };
    }
    if stderr.contains(&format!("no matching package named `{name}` found")) {
        return SourceError::UnknownCrate(name.to_string());
    }
    const NETWORK: &[&str] = &[
        "failed to download",
        "download of ",
        "failed to query replaced source",
        "Unable to update registry",
        "failed to get successful HTTP response",
        "spurious network error",
        "Could not connect",
        "Couldn't connect",
        "Could not resolve host",
        "Couldn't resolve host",
        "Timeout was reached",
    ];
    if NETWORK.iter().any(|m| stderr.contains(m)) {
        // The innermost cause says what failed (`[7] Could not connect …`).
        let cause = stderr
            .lines()
            .map(str::trim)
            .rfind(|l| !l.is_empty() && !l.starts_with("Caused by"))
            .unwrap_or("no output");
        return SourceError::Unreachable(cause.to_string());
    }
    SourceError::Cargo(first_error(stderr))
}

/// cargo's first `error` line.
fn first_error(stderr: &str) -> String {
    stderr
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("error"))
        .unwrap_or_else(|| stderr.lines().next().unwrap_or("no output"))
        .trim_start_matches("error: ")
        .to_string()
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

/// `CARGO_HOME`, else `~/.cargo`, as cargo finds it.
fn cargo_home() -> Result<PathBuf, SourceError> {
    std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".cargo")))
        .ok_or_else(|| SourceError::Cargo("no CARGO_HOME or home folder".into()))
}

/// The downloaded `.crate` in cargo's cache whose sha256 is `checksum`.
fn find_archive(
    home: &Path,
    name: &str,
    version: &str,
    checksum: &str,
) -> Result<PathBuf, SourceError> {
    use sha2::{Digest, Sha256};
    let cache = home.join("registry").join("cache");
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
    fn cargo_failures_read() {
        let yanked_dep = "error: failed to select a version for the requirement `ring = \"^0.12\"`\n  version 0.12.0 is yanked\n  version 0.12.1 is yanked\nlocation searched: crates.io index\nrequired by package `sct v0.2.0`\n";
        assert_eq!(unmet_requirement(yanked_dep), Some(("ring", "^0.12")));
        let range = "error: failed to select a version for the requirement `parking_lot = \">=0.11, <0.13\"`\n";
        assert_eq!(
            unmet_requirement(range),
            Some(("parking_lot", ">=0.11, <0.13"))
        );
        assert_eq!(unmet_requirement("error: something else\n"), None);
        assert_eq!(
            first_error(yanked_dep),
            "failed to select a version for the requirement `ring = \"^0.12\"`"
        );

        let home = Path::new("/nonexistent-cargo-home");
        let dead = "error: failed to get `semver` as a dependency of package `errdex-fetch v0.0.0`\n\nCaused by:\n  failed to query replaced source registry `crates-io`\n\nCaused by:\n  download of config.json failed\n\nCaused by:\n  [7] Could not connect to server\n";
        let e = failure(home, "semver", Some("1.0.26"), dead);
        assert_eq!(
            e.to_string(),
            "registry unreachable: [7] Could not connect to server"
        );
        let unknown =
            "error: no matching package named `nope` found\nlocation searched: crates.io index\n";
        assert!(matches!(
            failure(home, "nope", None, unknown),
            SourceError::UnknownCrate(_)
        ));
        let offline = format!("{unknown}As a reminder, you're using offline mode (--offline) which can sometimes cause surprising resolution failures\n");
        assert_eq!(
            failure(home, "nope", Some("1.0.0"), &offline).to_string(),
            "registry unreachable: cargo is offline and nope@1.0.0 is not in its cache"
        );
        let changed = "error: checksum for `semver v1.0.25` changed between lock files\n";
        assert!(matches!(
            failure(home, "semver", Some("1.0.25"), changed),
            SourceError::Checksum(_)
        ));
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
