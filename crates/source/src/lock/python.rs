//! Python lock files: pip's `requirements.txt` (pins `NAME==VERSION`,
//! with `--hash` options as `pip-compile --generate-hashes` writes them),
//! `poetry.lock` and `uv.lock`. Each package is a PyPI release at its
//! version (with the hashes the lock records), a git repository at a
//! commit, the project's own folder, or a requirement that pins nothing.

use super::{LockedPackage, LockedSource};

/// The Python lock formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// pip's requirements file.
    Requirements,
    /// Poetry's `poetry.lock`.
    Poetry,
    /// uv's `uv.lock`.
    Uv,
}

impl Format {
    /// The format a lock file's name says: `poetry.lock`, `uv.lock`, a
    /// `.txt` file (`requirements.txt`, `requirements-dev.txt`,
    /// `constraints.txt`); None for anything else (a `Cargo.lock`).
    pub fn of(file_name: &str) -> Option<Format> {
        match file_name {
            "poetry.lock" => Some(Format::Poetry),
            "uv.lock" => Some(Format::Uv),
            n if n.ends_with(".txt") => Some(Format::Requirements),
            _ => None,
        }
    }

    /// Reads a lock file's text in this format; None when it is not one.
    pub fn parse(self, text: &str) -> Option<Vec<LockedPackage>> {
        match self {
            Format::Requirements => Some(requirements(text)),
            Format::Poetry => toml_packages(text, poetry_source),
            Format::Uv => toml_packages(text, uv_source),
        }
    }
}

/// A requirements file's packages: each requirement line (continued
/// with `\`), without comments and options lines (`-r`, `--index-url`…).
fn requirements(text: &str) -> Vec<LockedPackage> {
    let mut out = Vec::new();
    let mut logical = String::new();
    for line in text.lines() {
        let line = strip_comment(line);
        if let Some(cont) = line.trim_end().strip_suffix('\\') {
            logical.push_str(cont);
            logical.push(' ');
            continue;
        }
        logical.push_str(line);
        let whole = std::mem::take(&mut logical);
        if let Some(p) = requirement(whole.trim()) {
            out.push(p);
        }
    }
    out
}

/// A comment starts at `#` at the line's start or after a blank.
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'#' && (i == 0 || bytes[i - 1].is_ascii_whitespace()) {
            return &line[..i];
        }
    }
    line
}

/// One requirement: `NAME[extras]==VERSION ; markers --hash=sha256:…`, a
/// URL or VCS requirement, an editable folder. Option lines give None.
fn requirement(line: &str) -> Option<LockedPackage> {
    if line.is_empty() {
        return None;
    }
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if first == "-e" || first == "--editable" {
        let target = words.next().unwrap_or("");
        return Some(local_or_vcs(target));
    }
    if first.starts_with('-') {
        return None;
    }
    if first.contains("://") || first.starts_with("git+") {
        return Some(local_or_vcs(first));
    }
    let hashes: Vec<String> = line
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("--hash="))
        .map(str::to_string)
        .collect();
    let spec = line.split(" --").next().unwrap_or(line);
    let spec = spec.split(';').next().unwrap_or(spec).trim();
    // `name @ URL` (PEP 508 direct reference).
    if let Some((name, url)) = spec.split_once(" @ ") {
        let mut p = local_or_vcs(url.trim());
        p.name = bare_name(name).to_string();
        return Some(p);
    }
    let name_end = spec
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(spec.len());
    let name = &spec[..name_end];
    if name.is_empty() {
        return None;
    }
    let rest = spec[name_end..].trim_start();
    let rest = match rest.strip_prefix('[') {
        Some(r) => r.split_once(']').map_or("", |(_, r)| r).trim_start(),
        None => rest,
    };
    let pinned = rest
        .strip_prefix("===")
        .or_else(|| rest.strip_prefix("=="))
        .map(str::trim)
        .filter(|v| !v.is_empty() && !v.contains([',', '*', '<', '>', '!', '~']));
    Some(match pinned {
        Some(version) => LockedPackage {
            name: name.to_string(),
            version: version.to_string(),
            source: LockedSource::Pypi { hashes },
        },
        None => LockedPackage {
            name: name.to_string(),
            version: rest.to_string(),
            source: LockedSource::Unpinned,
        },
    })
}

/// A requirement's name without its extras (`pkg[extra]`).
fn bare_name(s: &str) -> &str {
    s.trim().split('[').next().unwrap_or("").trim()
}

/// A URL, VCS or folder requirement: git at a commit when the URL pins
/// one (`git+https://…/r.git@abc123#egg=r`), else the project's folder or
/// another source.
fn local_or_vcs(target: &str) -> LockedPackage {
    let egg = target
        .split_once("#egg=")
        .map(|(_, e)| e.split('&').next().unwrap_or(e).to_string());
    let url = target.split('#').next().unwrap_or(target);
    let name = egg.unwrap_or_else(|| target.to_string());
    if let Some(rest) = url.strip_prefix("git+") {
        let (repo, commit) = match rest.rsplit_once('@') {
            Some((r, c)) if !c.contains('/') && r.contains("://") => (r, Some(c.to_string())),
            _ => (rest, None),
        };
        return LockedPackage {
            name,
            version: commit.clone().unwrap_or_default(),
            source: LockedSource::Git {
                url: repo.to_string(),
                commit,
            },
        };
    }
    let local = !target.contains("://") || target.starts_with("file:");
    LockedPackage {
        name,
        version: String::new(),
        source: if local {
            LockedSource::Path
        } else {
            LockedSource::Other(url.to_string())
        },
    }
}

/// A TOML lock's `[[package]]` tables, each's source read by `source`.
fn toml_packages(
    text: &str,
    source: fn(&toml::Table) -> LockedSource,
) -> Option<Vec<LockedPackage>> {
    let doc: toml::Table = text.parse().ok()?;
    let packages = doc.get("package")?.as_array()?;
    let mut out = Vec::new();
    for p in packages {
        let t = p.as_table()?;
        let name = t.get("name")?.as_str()?.to_string();
        let version = t
            .get("version")
            .and_then(|v| v.as_str())
            .unwrap_or("")
            .to_string();
        let mut source = source(t);
        if let LockedSource::Pypi { hashes } = &mut source {
            if hashes.is_empty() {
                *hashes = legacy_poetry_hashes(&doc, &name);
            }
        }
        out.push(LockedPackage {
            name,
            version,
            source,
        });
    }
    Some(out)
}

/// Hashes of a package's files listed as `{ hash = "sha256:…" }` tables
/// under `key` (`files` in poetry.lock, `sdist`/`wheels` in uv.lock).
fn file_hashes(v: Option<&toml::Value>) -> Vec<String> {
    let tables: Vec<&toml::Table> = match v {
        Some(toml::Value::Array(a)) => a.iter().filter_map(|x| x.as_table()).collect(),
        Some(toml::Value::Table(t)) => vec![t],
        _ => Vec::new(),
    };
    tables
        .into_iter()
        .filter_map(|t| t.get("hash")?.as_str())
        .map(str::to_string)
        .collect()
}

/// Poetry before 1.2 kept the hashes in `[metadata.files]`, by name.
fn legacy_poetry_hashes(doc: &toml::Table, name: &str) -> Vec<String> {
    let files = doc
        .get("metadata")
        .and_then(|m| m.get("files"))
        .and_then(|f| f.get(name));
    file_hashes(files)
}

/// A poetry.lock package's source: PyPI (or another index, which pip's
/// configuration reaches) unless `[package.source]` says git, a folder,
/// a file or a URL.
fn poetry_source(t: &toml::Table) -> LockedSource {
    let Some(source) = t.get("source").and_then(|s| s.as_table()) else {
        return LockedSource::Pypi {
            hashes: file_hashes(t.get("files")),
        };
    };
    let kind = source.get("type").and_then(|v| v.as_str()).unwrap_or("");
    let url = source
        .get("url")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string();
    match kind {
        "legacy" => LockedSource::Pypi {
            hashes: file_hashes(t.get("files")),
        },
        "git" => LockedSource::Git {
            url,
            commit: source
                .get("resolved_reference")
                .and_then(|v| v.as_str())
                .map(str::to_string),
        },
        "directory" | "file" => LockedSource::Path,
        other => LockedSource::Other(format!("{other} {url}").trim().to_string()),
    }
}

/// A uv.lock package's source: `{ registry = URL }`, `{ git = URL }`
/// (the commit after `#`), the project itself (`editable`, `virtual`,
/// `directory`, `path`) or a `url`.
fn uv_source(t: &toml::Table) -> LockedSource {
    let Some(source) = t.get("source").and_then(|s| s.as_table()) else {
        return LockedSource::Other("no source".into());
    };
    let get = |k: &str| source.get(k).and_then(|v| v.as_str());
    if get("registry").is_some() {
        let mut hashes = file_hashes(t.get("sdist"));
        hashes.extend(file_hashes(t.get("wheels")));
        return LockedSource::Pypi { hashes };
    }
    if let Some(git) = get("git") {
        let (url, commit) = match git.split_once('#') {
            Some((u, c)) => (u, Some(c.to_string())),
            None => (git, None),
        };
        let url = url.split('?').next().unwrap_or(url).to_string();
        return LockedSource::Git { url, commit };
    }
    if ["editable", "virtual", "directory", "path"]
        .iter()
        .any(|k| get(k).is_some())
    {
        return LockedSource::Path;
    }
    LockedSource::Other(get("url").unwrap_or("unknown source").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pypi(name: &str, version: &str, hashes: &[&str]) -> LockedPackage {
        LockedPackage {
            name: name.into(),
            version: version.into(),
            source: LockedSource::Pypi {
                hashes: hashes.iter().map(|h| h.to_string()).collect(),
            },
        }
    }

    #[test]
    fn requirements_pins_hashes_and_what_pins_nothing() {
        let text = "\
# generated by pip-compile
--index-url https://pypi.org/simple
-r base.txt
idna==3.6 \\
    --hash=sha256:aaa \\
    --hash=sha256:bbb
    # via requests
requests[socks]==2.31.0 ; python_version >= \"3.8\"  # pinned
Django>=4.2
flask
-e .
git+https://github.com/org/lib.git@0123abc#egg=lib
pkg @ https://example.org/pkg-1.0.tar.gz
";
        let p = requirements(text);
        assert_eq!(p[0], pypi("idna", "3.6", &["sha256:aaa", "sha256:bbb"]));
        assert_eq!(p[1], pypi("requests", "2.31.0", &[]));
        assert_eq!(p[2].source, LockedSource::Unpinned);
        assert_eq!(
            (p[2].name.as_str(), p[2].version.as_str()),
            ("Django", ">=4.2")
        );
        assert_eq!(p[3].source, LockedSource::Unpinned);
        assert_eq!(p[4].source, LockedSource::Path);
        assert_eq!(
            p[5].source,
            LockedSource::Git {
                url: "https://github.com/org/lib.git".into(),
                commit: Some("0123abc".into())
            }
        );
        assert_eq!(p[5].name, "lib");
        assert_eq!(p[6].name, "pkg");
        assert!(matches!(p[6].source, LockedSource::Other(_)));
        assert_eq!(p.len(), 7);
    }

    #[test]
    fn poetry_and_uv_locks() {
        let poetry = r#"
[[package]]
name = "idna"
version = "3.6"
description = "x"
files = [
    {file = "idna-3.6-py3-none-any.whl", hash = "sha256:aaa"},
    {file = "idna-3.6.tar.gz", hash = "sha256:bbb"},
]

[[package]]
name = "mylib"
version = "0.1.0"
[package.source]
type = "git"
url = "https://github.com/org/mylib.git"
reference = "main"
resolved_reference = "0123abcd"

[[package]]
name = "local"
version = "0.0.1"
[package.source]
type = "directory"
url = "../local"
"#;
        let p = Format::Poetry.parse(poetry).unwrap();
        assert_eq!(p[0], pypi("idna", "3.6", &["sha256:aaa", "sha256:bbb"]));
        assert_eq!(
            p[1].source,
            LockedSource::Git {
                url: "https://github.com/org/mylib.git".into(),
                commit: Some("0123abcd".into())
            }
        );
        assert_eq!(p[2].source, LockedSource::Path);
        // Poetry 1.1: hashes under [metadata.files].
        let old = "[[package]]\nname = \"idna\"\nversion = \"3.6\"\n\n[metadata.files]\nidna = [\n  {file = \"idna-3.6.tar.gz\", hash = \"sha256:ccc\"},\n]\n";
        assert_eq!(
            Format::Poetry.parse(old).unwrap()[0],
            pypi("idna", "3.6", &["sha256:ccc"])
        );

        let uv = r#"
version = 1
[[package]]
name = "app"
version = "0.1.0"
source = { editable = "." }

[[package]]
name = "idna"
version = "3.6"
source = { registry = "https://pypi.org/simple" }
sdist = { url = "https://files/idna-3.6.tar.gz", hash = "sha256:bbb", size = 1 }
wheels = [{ url = "https://files/idna-3.6-py3-none-any.whl", hash = "sha256:aaa", size = 1 }]

[[package]]
name = "lib"
version = "1.0"
source = { git = "https://github.com/org/lib?rev=v1#0123abcd" }
"#;
        let p = Format::Uv.parse(uv).unwrap();
        assert_eq!(p[0].source, LockedSource::Path);
        assert_eq!(p[1], pypi("idna", "3.6", &["sha256:bbb", "sha256:aaa"]));
        assert_eq!(
            p[2].source,
            LockedSource::Git {
                url: "https://github.com/org/lib".into(),
                commit: Some("0123abcd".into())
            }
        );
        assert!(Format::Uv.parse("not toml [[[").is_none());
        assert_eq!(
            Format::of("requirements-dev.txt"),
            Some(Format::Requirements)
        );
        assert_eq!(Format::of("Cargo.lock"), None);
    }
}
