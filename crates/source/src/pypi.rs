//! Published Python packages, fetched through pip itself, so that the
//! index pip is configured for is the one used (`PIP_INDEX_URL`,
//! `pip.conf`, `--find-links` folders, proxies): no host is hard-coded.
//!
//! `pip download --no-deps` fetches the distribution a user would run: a
//! wheel for this interpreter, else the sdist, else a wheel built for an
//! older Python (real pastes come from releases a decade old that exist
//! only as sdists or as `py2`/`cp36` wheels). pip checks the archive
//! against the hash the index publishes for it. The archive is read in
//! memory, never unpacked to disk, and its files are named as installed:
//! a wheel's paths are already site-packages paths (`requests/models.py`;
//! `NAME.data/purelib/…` moved up), an sdist's lose their `NAME-VERSION/`
//! folder and a `src/` layout's `src/`.

use crate::{classify, rfc3339, Skip, SkipReason, Snapshot, SourceError, MAX_FILE_BYTES};
use errdex_model::{SnapshotMeta, SourceFile};
use std::io::Read;
use std::path::{Component, Path};
use std::process::Command;

/// Largest distribution archive read (PyPI's default upload limit is
/// 100 MiB; a few projects have more).
const MAX_ARCHIVE_BYTES: u64 = 512 * 1024 * 1024;

/// The repo name of a PyPI project: `pypi:` and its PEP 503 name.
pub fn repo_name(name: &str) -> String {
    format!("pypi:{}", normalize(name))
}

/// A project name the PEP 503 way: lowercase, runs of `-`, `_`, `.` as
/// one `-`.
pub fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// `NAME` and an optional exact `VERSION`, as `pypi:NAME==VERSION` names
/// them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PypiSpec {
    /// The project's name as written.
    pub name: String,
    /// The exact version; the newest when absent.
    pub version: Option<String>,
    /// Hashes the file must have one of (`sha256:…`, as a lock file
    /// records them); pip checks them when there are some.
    pub hashes: Vec<String>,
}

impl PypiSpec {
    /// Parses `NAME[==VERSION]`.
    pub fn parse(s: &str) -> Result<Self, SourceError> {
        let (name, version) = match s.split_once("==") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (s.trim(), None),
        };
        let name_ok = !name.is_empty()
            && name.len() <= 128
            && name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        let version_ok = version.is_none_or(|v| {
            !v.is_empty()
                && v.len() <= 64
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '!' | '_'))
        });
        if !name_ok || !version_ok {
            return Err(SourceError::BadPackageSpec(s.to_string()));
        }
        Ok(PypiSpec {
            name: name.to_string(),
            version: version.map(str::to_string),
            hashes: Vec::new(),
        })
    }

    fn requirement(&self) -> String {
        match &self.version {
            Some(v) => format!("{}=={v}", self.name),
            None => self.name.clone(),
        }
    }
}

/// The ways of asking pip for a distribution, best first: a wheel for this
/// interpreter, wheels built for older Pythons (an old release often has
/// wheels only for the Pythons of its day; a wheel holds the installed
/// paths a traceback prints), then the sdist. The sdist comes last: pip
/// prepares its metadata, which may build its build dependencies from
/// source (numpy's C code for an old pandas) and take many minutes.
fn attempts() -> Vec<Vec<&'static str>> {
    let mut out = vec![vec!["--only-binary=:all:"]];
    for py in ["3.10", "3.8", "3.6", "2.7"] {
        out.push(vec![
            "--only-binary=:all:",
            "--python-version",
            py,
            "--platform",
            "any",
            "--platform",
            "manylinux1_x86_64",
            "--platform",
            "manylinux2014_x86_64",
            "--platform",
            "manylinux_2_17_x86_64",
        ]);
    }
    out.push(vec!["--no-binary=:all:"]);
    out
}

/// Reads a published package: the version named, else the newest.
pub fn load(spec: &PypiSpec, wanted: &dyn Fn(&str) -> bool) -> Result<Snapshot, SourceError> {
    let dir = tempfile::tempdir().map_err(|e| SourceError::Io("temporary folder".into(), e))?;
    let mut first_failure: Option<String> = None;
    for args in attempts() {
        match pip_download(spec, dir.path(), &args)? {
            None => {
                let file = downloaded(dir.path())?;
                return read_file(spec, &file, wanted);
            }
            Some(stderr) => {
                if unreachable(&stderr) || hash_mismatch(&stderr) {
                    return Err(failure(spec, &stderr));
                }
                first_failure.get_or_insert(stderr);
            }
        }
    }
    // pip found no wheel and could not prepare the sdist's metadata (a
    // decade-old `setup.py` that no longer runs here): the sdist itself,
    // found and checked by pip's own finder and session.
    if let Some(file) = sdist_without_metadata(spec, dir.path())? {
        return read_file(spec, &file, wanted);
    }
    Err(failure(spec, first_failure.as_deref().unwrap_or("")))
}

/// The sdist of `spec` fetched without preparing its metadata
/// (`pypi_sdist.py`, run by the interpreter whose pip is used); `None`
/// when there is none. Checked against the index's hash, and against the
/// spec's hashes when it has some.
fn sdist_without_metadata(
    spec: &PypiSpec,
    dir: &Path,
) -> Result<Option<std::path::PathBuf>, SourceError> {
    let python = std::env::var_os("ERRDEX_PYTHON").unwrap_or_else(|| "python3".into());
    let out = Command::new(&python)
        .arg("-c")
        .arg(include_str!("pypi_sdist.py"))
        .arg(&spec.name)
        .arg(spec.version.as_deref().unwrap_or(""))
        .arg(dir)
        .env("PIP_NO_COLOR", "1")
        .output()
        .map_err(|e| {
            SourceError::Pip(format!(
                "could not run {}: {e}",
                Path::new(&python).display()
            ))
        })?;
    match out.status.code() {
        Some(0) => {}
        Some(4) => return Err(SourceError::Checksum(spec.requirement())),
        _ => return Ok(None),
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let Some((path, digest)) = stdout.trim().split_once('\t') else {
        return Ok(None);
    };
    let checked = spec.hashes.is_empty() || spec.hashes.iter().any(|h| h == digest);
    if !checked {
        return Err(SourceError::Checksum(spec.requirement()));
    }
    Ok(Some(std::path::PathBuf::from(path)))
}

/// Runs `pip download --no-deps` with `args`; `Some(stderr)` when it
/// failed. With hashes, the requirement goes through a requirements file
/// (pip reads `--hash` only there) and pip checks the file against them.
fn pip_download(spec: &PypiSpec, dir: &Path, args: &[&str]) -> Result<Option<String>, SourceError> {
    let python = std::env::var_os("ERRDEX_PYTHON").unwrap_or_else(|| "python3".into());
    let hashes: Vec<&String> = spec
        .hashes
        .iter()
        .filter(|h| {
            h.split_once(':').is_some_and(|(alg, hex)| {
                alg.chars().all(|c| c.is_ascii_alphanumeric())
                    && !hex.is_empty()
                    && hex.chars().all(|c| c.is_ascii_hexdigit())
            })
        })
        .collect();
    let listed = tempfile::tempdir().map_err(|e| SourceError::Io("temporary folder".into(), e))?;
    let requirement: Vec<std::ffi::OsString> = if hashes.is_empty() {
        vec![spec.requirement().into()]
    } else {
        let file = listed.path().join("requirements.txt");
        let mut line = spec.requirement();
        for h in hashes {
            line.push_str(&format!(" --hash={h}"));
        }
        std::fs::write(&file, line + "\n")
            .map_err(|e| SourceError::Io(file.display().to_string(), e))?;
        vec!["-r".into(), file.into_os_string()]
    };
    let out = Command::new(&python)
        .args([
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--quiet",
            "--no-input",
        ])
        .args(["--disable-pip-version-check", "--progress-bar", "off"])
        .args(args)
        .arg("-d")
        .arg(dir)
        .args(requirement)
        .env("PIP_NO_COLOR", "1")
        .output()
        .map_err(|e| {
            SourceError::Pip(format!(
                "could not run {} -m pip: {e}",
                Path::new(&python).display()
            ))
        })?;
    Ok((!out.status.success()).then(|| String::from_utf8_lossy(&out.stderr).into_owned()))
}

fn unreachable(stderr: &str) -> bool {
    [
        "Failed to establish a new connection",
        "Could not fetch URL",
        "NewConnectionError",
        "Temporary failure in name resolution",
        "ConnectTimeoutError",
        "ProxyError",
    ]
    .iter()
    .any(|m| stderr.contains(m))
}

fn hash_mismatch(stderr: &str) -> bool {
    stderr.contains("DO NOT MATCH THE HASHES")
}

/// What a failed `pip download` means.
fn failure(spec: &PypiSpec, stderr: &str) -> SourceError {
    let what = spec.requirement();
    if hash_mismatch(stderr) {
        return SourceError::Checksum(what);
    }
    if unreachable(stderr) {
        return SourceError::Unreachable(first_error(stderr));
    }
    if stderr.contains("(from versions: none)") {
        return SourceError::UnknownPackage(spec.name.clone());
    }
    if stderr.contains("No matching distribution found") {
        return SourceError::NoSuchVersion(what);
    }
    SourceError::Pip(first_error(stderr))
}

/// pip's first `ERROR:` line, else its last line.
fn first_error(stderr: &str) -> String {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("ERROR:"))
        .or_else(|| stderr.lines().rfind(|l| !l.trim().is_empty()))
        .unwrap_or("pip failed without a message");
    line.trim_start_matches("ERROR:").trim().to_string()
}

/// The one archive pip saved in `dir`.
fn downloaded(dir: &Path) -> Result<std::path::PathBuf, SourceError> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| SourceError::Io(dir.display().to_string(), e))?;
    entries
        .flatten()
        .map(|e| e.path())
        .find(|p| p.is_file())
        .ok_or_else(|| SourceError::Pip("pip reported success but saved no file".into()))
}

/// Reads a downloaded wheel or sdist.
fn read_file(
    spec: &PypiSpec,
    path: &Path,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    let bytes = crate::read_regular(path, MAX_ARCHIVE_BYTES).map_err(|e| {
        SourceError::Io(
            path.display().to_string(),
            std::io::Error::other(e.to_string()),
        )
    })?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let version = match &spec.version {
        Some(v) => v.clone(),
        None => version_of(&file_name)
            .ok_or_else(|| SourceError::Archive(format!("no version in {file_name}")))?,
    };
    read_distribution(&spec.name, &version, &file_name, &bytes, wanted)
}

/// The version a distribution's file name carries: `NAME-VERSION-….whl`,
/// `NAME-VERSION.tar.gz`, `NAME-VERSION.tar.bz2`, `NAME-VERSION.zip`.
pub fn version_of(file_name: &str) -> Option<String> {
    if let Some(stem) = file_name.strip_suffix(".whl") {
        return stem.split('-').nth(1).map(str::to_string);
    }
    let stem = [".tar.gz", ".tgz", ".tar.bz2", ".zip", ".tar"]
        .iter()
        .find_map(|ext| file_name.strip_suffix(ext))?;
    let (_, v) = stem.rsplit_once('-')?;
    v.starts_with(|c: char| c.is_ascii_digit())
        .then(|| v.to_string())
}

/// Reads a distribution archive (wheel, or sdist as `.tar.gz`, `.tar.bz2`
/// — releases before about 2017, Twisted's among them, shipped only that —
/// or `.zip`) held in memory.
pub fn read_distribution(
    name: &str,
    version: &str,
    file_name: &str,
    bytes: &[u8],
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    let wheel = file_name.ends_with(".whl");
    let raw = if file_name.ends_with(".tar.gz") || file_name.ends_with(".tgz") {
        tar_entries(flate2::read::GzDecoder::new(bytes))?
    } else if file_name.ends_with(".tar.bz2") {
        tar_entries(bzip2::read::BzDecoder::new(bytes))?
    } else if wheel || file_name.ends_with(".zip") {
        zip_entries(bytes)?
    } else {
        return Err(SourceError::Archive(format!(
            "{file_name}: not a wheel, .tar.gz, .tar.bz2 or .zip distribution"
        )));
    };
    let layout = if wheel {
        Layout::Wheel
    } else {
        Layout::sdist(&raw, name)
    };
    let mut files = Vec::new();
    let mut skips = Vec::new();
    let mut metadata = None;
    let mut newest = 0i64;
    for e in raw {
        let Some(rel) = layout.installed(&e.path) else {
            continue;
        };
        if layout.is_metadata(&e.path) {
            if let Ok(text) = classify(e.bytes.unwrap_or_default()) {
                metadata = Some(text);
            }
            continue;
        }
        if !wanted(&rel) {
            continue;
        }
        let bytes = match e.bytes {
            Some(b) if e.safe => b,
            _ => {
                skips.push(Skip {
                    path: rel,
                    reason: if e.link {
                        SkipReason::Symlink
                    } else if e.safe {
                        SkipReason::TooLarge
                    } else {
                        SkipReason::UnsafeEntry
                    },
                });
                continue;
            }
        };
        newest = newest.max(e.mtime);
        match classify(bytes) {
            Ok(text) => files.push(SourceFile { path: rel, text }),
            Err(reason) => skips.push(Skip { path: rel, reason }),
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files.dedup_by(|a, b| a.path == b.path);
    let meta = metadata.as_deref().map(Metadata::parse).unwrap_or_default();
    Ok(Snapshot {
        meta: SnapshotMeta {
            repo: repo_name(name),
            revision: version.to_string(),
            date: (newest > 0).then(|| rfc3339(newest)).flatten(),
            remote: meta.remote,
            vcs: None,
            deps: Some(meta.deps),
        },
        files,
        skips,
    })
}

/// One archive entry: its path components (safe ones only), its bytes
/// when it is a regular file within the size cap.
struct Entry {
    path: Vec<String>,
    bytes: Option<Vec<u8>>,
    safe: bool,
    link: bool,
    mtime: i64,
}

/// The components of an entry path, and whether it stays inside the
/// archive (no root, no `..`).
fn components(path: &Path) -> (Vec<String>, bool) {
    let mut parts = Vec::new();
    let mut safe = true;
    for c in path.components() {
        match c {
            Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
            Component::CurDir => {}
            _ => safe = false,
        }
    }
    (parts, safe)
}

fn tar_entries(decoded: impl Read) -> Result<Vec<Entry>, SourceError> {
    let mut tar = tar::Archive::new(decoded);
    let mut out = Vec::new();
    let entries = tar
        .entries()
        .map_err(|e| SourceError::Archive(e.to_string()))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| SourceError::Archive(e.to_string()))?;
        let raw = entry
            .path()
            .map_err(|e| SourceError::Archive(e.to_string()))?
            .into_owned();
        let (path, safe) = components(&raw);
        let kind = entry.header().entry_type();
        if kind.is_dir() || path.is_empty() {
            continue;
        }
        let link = kind.is_symlink() || kind.is_hard_link();
        let size = entry.header().size().unwrap_or(0);
        let mtime = entry.header().mtime().unwrap_or(0) as i64;
        let bytes = if safe && kind.is_file() && size <= MAX_FILE_BYTES {
            let mut buf = Vec::new();
            entry
                .read_to_end(&mut buf)
                .map_err(|_| SourceError::Archive(format!("truncated entry {}", raw.display())))?;
            Some(buf)
        } else {
            None
        };
        out.push(Entry {
            path,
            bytes,
            safe: safe && kind.is_file(),
            link,
            mtime,
        });
    }
    Ok(out)
}

fn zip_entries(bytes: &[u8]) -> Result<Vec<Entry>, SourceError> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| SourceError::Archive(e.to_string()))?;
    let mut out = Vec::new();
    for i in 0..zip.len() {
        let mut f = zip
            .by_index(i)
            .map_err(|e| SourceError::Archive(e.to_string()))?;
        if f.is_dir() {
            continue;
        }
        let (path, safe) = match f.enclosed_name() {
            Some(p) => components(&p),
            None => (components(Path::new(f.name())).0, false),
        };
        if path.is_empty() {
            continue;
        }
        let link = f.is_symlink();
        let mtime = f
            .last_modified()
            .and_then(|d| {
                let date = time::Date::from_calendar_date(
                    d.year().into(),
                    time::Month::try_from(d.month()).ok()?,
                    d.day(),
                )
                .ok()?;
                let t = time::Time::from_hms(d.hour(), d.minute(), d.second()).ok()?;
                Some(date.with_time(t).assume_utc().unix_timestamp())
            })
            .unwrap_or(0);
        let file = safe && !link;
        let bytes = if file && f.size() <= MAX_FILE_BYTES {
            let mut buf = Vec::new();
            (&mut f)
                .take(MAX_FILE_BYTES + 1)
                .read_to_end(&mut buf)
                .map_err(|e| SourceError::Archive(format!("{}: {e}", f.name())))?;
            Some(buf)
        } else {
            None
        };
        out.push(Entry {
            path,
            bytes,
            safe: file,
            link,
            mtime,
        });
    }
    Ok(out)
}

/// How an archive's paths map to installed (site-packages) paths.
enum Layout {
    /// A wheel: paths are installed paths; `X.data/purelib|platlib/` moves
    /// up; the rest of `X.data/` is not importable.
    Wheel,
    /// An sdist: the top folder goes, and the folder the packages sit in
    /// (`src/`, or `lib/` as matplotlib's `package_dir={'': 'lib'}`).
    Sdist { packages: Option<String> },
}

impl Layout {
    /// Where an sdist's packages sit: the folder holding the package named
    /// like the distribution (`lib/matplotlib/__init__.py`) when the top
    /// folder does not; else `src/` when it holds packages.
    fn sdist(entries: &[Entry], name: &str) -> Self {
        let import = name.to_ascii_lowercase().replace('-', "_");
        let init = |e: &&Entry, depth: usize| {
            e.path.len() == depth + 2
                && e.path[depth].to_ascii_lowercase() == import
                && e.path[depth + 1] == "__init__.py"
        };
        let at_top = entries.iter().any(|e| init(&e, 1));
        let named = (!at_top)
            .then(|| entries.iter().find(|e| init(e, 2)))
            .flatten()
            .map(|e| e.path[1].clone());
        let src = entries.iter().any(|e| {
            e.path.len() >= 4
                && e.path[1] == "src"
                && e.path.last().is_some_and(|f| f == "__init__.py")
        });
        Layout::Sdist {
            packages: named.or_else(|| src.then(|| "src".to_string())),
        }
    }

    fn installed(&self, path: &[String]) -> Option<String> {
        match self {
            Layout::Wheel => {
                if path.first().is_some_and(|t| t.ends_with(".data")) {
                    return match path.get(1).map(String::as_str) {
                        Some("purelib" | "platlib") if path.len() > 2 => Some(path[2..].join("/")),
                        _ => None,
                    };
                }
                Some(path.join("/"))
            }
            Layout::Sdist { packages } => {
                let rest = path.get(1..).filter(|r| !r.is_empty())?;
                let rest = match packages {
                    Some(p) if rest.len() > 1 && &rest[0] == p => &rest[1..],
                    _ => rest,
                };
                Some(rest.join("/"))
            }
        }
    }

    fn is_metadata(&self, path: &[String]) -> bool {
        match self {
            Layout::Wheel => {
                path.len() == 2 && path[0].ends_with(".dist-info") && path[1] == "METADATA"
            }
            Layout::Sdist { .. } => path.len() == 2 && path[1] == "PKG-INFO",
        }
    }
}

/// What a package's core metadata (`METADATA`, `PKG-INFO`) tells.
#[derive(Debug, Default, PartialEq, Eq)]
struct Metadata {
    /// The source repository: a `Project-URL` named like one, else
    /// `Home-page`, when it is a forge's.
    remote: Option<String>,
    /// `Requires-Dist` names, PEP 503 normalized with `_` (as crate
    /// dependencies are written).
    deps: Vec<String>,
}

impl Metadata {
    fn parse(text: &str) -> Self {
        let mut urls: Vec<(u8, String)> = Vec::new();
        let mut deps = Vec::new();
        // Headers end at the first blank line (the description follows).
        for line in text.lines().take_while(|l| !l.trim().is_empty()) {
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let value = value.trim();
            match key.trim().to_ascii_lowercase().as_str() {
                "requires-dist" => {
                    let name: String = value
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
                        .collect();
                    if !name.is_empty() {
                        deps.push(normalize(&name).replace('-', "_"));
                    }
                }
                "project-url" => {
                    if let Some((label, url)) = value.split_once(',') {
                        let label = label.trim().to_ascii_lowercase();
                        let rank = if label.contains("source")
                            || label.contains("repository")
                            || label == "code"
                        {
                            0
                        } else if label.contains("home") {
                            2
                        } else {
                            3
                        };
                        urls.push((rank, url.trim().to_string()));
                    }
                }
                "home-page" => urls.push((1, value.to_string())),
                _ => {}
            }
        }
        urls.sort();
        deps.sort();
        deps.dedup();
        let forge = |u: &str| u.contains("github.com/") || u.contains("gitlab.com/");
        Metadata {
            remote: urls.into_iter().map(|(_, u)| u).find(|u| forge(u)),
            deps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let s = PypiSpec::parse("python-dateutil==2.8.2").unwrap();
        assert_eq!(s.name, "python-dateutil");
        assert_eq!(s.version.as_deref(), Some("2.8.2"));
        assert_eq!(PypiSpec::parse("Flask").unwrap().version, None);
        for bad in ["", "==1.0", "a b==1", "x==", "x==1 2", "../x==1", "x;rm==1"] {
            assert!(PypiSpec::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(repo_name("Jinja2"), "pypi:jinja2");
        assert_eq!(normalize("zope.interface__x"), "zope-interface-x");
    }

    #[test]
    fn versions_from_file_names() {
        assert_eq!(
            version_of("requests-2.34.2-py3-none-any.whl").as_deref(),
            Some("2.34.2")
        );
        assert_eq!(version_of("idna-2.0.tar.gz").as_deref(), Some("2.0"));
        assert_eq!(
            version_of("python-dateutil-2.8.2.zip").as_deref(),
            Some("2.8.2")
        );
        assert_eq!(version_of("README.md"), None);
    }

    #[test]
    fn pip_failures_read() {
        let spec = PypiSpec::parse("requests==99.0").unwrap();
        let none = "ERROR: Could not find a version that satisfies the requirement requests==99.0 (from versions: 0.2.0, 2.34.2)\nERROR: No matching distribution found for requests==99.0\n";
        assert!(matches!(
            failure(&spec, none),
            SourceError::NoSuchVersion(_)
        ));
        let unknown = "ERROR: Could not find a version that satisfies the requirement nope (from versions: none)\nERROR: No matching distribution found for nope\n";
        assert!(matches!(
            failure(&spec, unknown),
            SourceError::UnknownPackage(_)
        ));
        let down = "WARNING: Retrying ... NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection>: Failed to establish a new connection')\nERROR: Could not find a version that satisfies the requirement requests==99.0 (from versions: none)\n";
        assert!(matches!(failure(&spec, down), SourceError::Unreachable(_)));
        let hash = "ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n";
        assert!(matches!(failure(&spec, hash), SourceError::Checksum(_)));
    }

    #[test]
    fn metadata_read() {
        let m = Metadata::parse(
            "Metadata-Version: 2.1\nName: requests\nHome-page: https://requests.readthedocs.io\nProject-URL: Documentation, https://requests.readthedocs.io\nProject-URL: Source, https://github.com/psf/requests\nRequires-Dist: charset_normalizer<4,>=2\nRequires-Dist: idna (<4,>=2.5)\nRequires-Dist: PySocks!=1.5.7,>=1.5.6; extra == \"socks\"\n\nRequires-Dist: not-a-header\n",
        );
        assert_eq!(m.remote.as_deref(), Some("https://github.com/psf/requests"));
        assert_eq!(m.deps, ["charset_normalizer", "idna", "pysocks"]);
    }

    fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        use std::io::Write;
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, data) in files {
            w.start_file(*name, zip::write::SimpleFileOptions::default())
                .unwrap();
            w.write_all(data).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn wheels_read_as_installed() {
        let bytes = zip_of(&[
            ("pkg/__init__.py", b"raise ValueError('x')\n"),
            ("pkg/data.bin", b"\0\0"),
            ("pkg-1.0.data/purelib/extra/mod.py", b"x = 1\n"),
            ("pkg-1.0.data/scripts/tool", b"#!python\n"),
            (
                "pkg-1.0.dist-info/METADATA",
                b"Name: pkg\nRequires-Dist: attrs\n",
            ),
            ("../evil.py", b"x = 2\n"),
        ]);
        let s = read_distribution("Pkg", "1.0", "pkg-1.0-py3-none-any.whl", &bytes, &|p| {
            p.ends_with(".py") || p.ends_with(".bin")
        })
        .unwrap();
        assert_eq!(s.meta.repo, "pypi:pkg");
        assert_eq!(s.meta.deps.as_deref(), Some(&["attrs".to_string()][..]));
        let paths: Vec<&str> = s.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["extra/mod.py", "pkg/__init__.py"]);
        let skipped: Vec<(&str, SkipReason)> = s
            .skips
            .iter()
            .map(|k| (k.path.as_str(), k.reason))
            .collect();
        assert!(skipped.contains(&("pkg/data.bin", SkipReason::Binary)));
        assert!(skipped
            .iter()
            .any(|(p, r)| p.ends_with("evil.py") && *r == SkipReason::UnsafeEntry));
    }

    #[test]
    fn sdists_lose_their_folder_and_src() {
        let mut tar = tar::Builder::new(Vec::new());
        for (path, data) in [
            (
                "pkg-1.0/PKG-INFO",
                &b"Name: pkg\nHome-page: https://github.com/o/pkg\n"[..],
            ),
            ("pkg-1.0/src/pkg/__init__.py", b"x = 1\n"),
            ("pkg-1.0/tests/test_x.py", b"y = 2\n"),
        ] {
            let mut h = tar::Header::new_gnu();
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            tar.append_data(&mut h, path, data).unwrap();
        }
        let raw = tar.into_inner().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &raw).unwrap();
        let bytes = gz.finish().unwrap();
        let s = read_distribution("pkg", "1.0", "pkg-1.0.tar.gz", &bytes, &|p| {
            p.ends_with(".py")
        })
        .unwrap();
        let paths: Vec<&str> = s.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["pkg/__init__.py", "tests/test_x.py"]);
        assert_eq!(s.meta.remote.as_deref(), Some("https://github.com/o/pkg"));
        assert!(read_distribution("pkg", "1.0", "pkg-1.0.tar.gz", b"not gzip", &|_| true).is_err());
        assert!(read_distribution("pkg", "1.0", "pkg-1.0.whl", b"PK not zip", &|_| true).is_err());
        // The same sdist as an old release shipped it: `.tar.bz2`.
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        std::io::Write::write_all(&mut bz, &raw).unwrap();
        let bytes = bz.finish().unwrap();
        let s = read_distribution("pkg", "1.0", "pkg-1.0.tar.bz2", &bytes, &|p| {
            p.ends_with(".py")
        })
        .unwrap();
        let paths: Vec<&str> = s.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["pkg/__init__.py", "tests/test_x.py"]);
        assert_eq!(
            version_of("Twisted-14.0.0.tar.bz2").as_deref(),
            Some("14.0.0")
        );
        let e = read_distribution("pkg", "1.0", "pkg-1.0.tar.bz2", b"BZh9 not bzip2", &|_| {
            true
        })
        .unwrap_err();
        assert!(e.to_string().starts_with("malformed archive: "), "{e}");
    }

    #[test]
    fn an_sdists_packages_folder_is_where_its_named_package_sits() {
        // matplotlib 1.3.1: `package_dir={'': 'lib'}`, setup helpers on top.
        let mut tar = tar::Builder::new(Vec::new());
        for path in [
            "matplotlib-1.3.1/setupext.py",
            "matplotlib-1.3.1/lib/matplotlib/__init__.py",
            "matplotlib-1.3.1/lib/matplotlib/axes.py",
            "matplotlib-1.3.1/lib/mpl_toolkits/__init__.py",
        ] {
            let data = b"x = 1\n";
            let mut h = tar::Header::new_gnu();
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            tar.append_data(&mut h, path, &data[..]).unwrap();
        }
        let raw = tar.into_inner().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &raw).unwrap();
        let bytes = gz.finish().unwrap();
        let s = read_distribution(
            "matplotlib",
            "1.3.1",
            "matplotlib-1.3.1.tar.gz",
            &bytes,
            &|_| true,
        )
        .unwrap();
        let mut paths: Vec<&str> = s.files.iter().map(|f| f.path.as_str()).collect();
        paths.sort();
        assert_eq!(
            paths,
            [
                "matplotlib/__init__.py",
                "matplotlib/axes.py",
                "mpl_toolkits/__init__.py",
                "setupext.py"
            ]
        );
    }
}
