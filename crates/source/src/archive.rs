//! Reading a `.crate` archive (a gzipped tar) in memory: nothing is
//! unpacked to disk, so no entry can escape; entries that would (absolute,
//! `..`, links, devices) are skipped and counted.

use crate::{classify, Skip, SkipReason, Snapshot, SourceError, MAX_FILE_BYTES};
use errdex_model::{SnapshotMeta, SourceFile};
use std::io::Read;
use std::path::Component;

pub fn read_crate(
    name: &str,
    version: &str,
    bytes: &[u8],
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Snapshot, SourceError> {
    let prefix = format!("{name}-{version}");
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(bytes));
    let mut files = Vec::new();
    let mut skips = Vec::new();
    let mut manifest = None;
    let mut vcs_info = None;
    let mut newest: u64 = 0;
    let entries = tar
        .entries()
        .map_err(|e| SourceError::Archive(e.to_string()))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| SourceError::Archive(e.to_string()))?;
        let raw_path = entry
            .path()
            .map_err(|e| SourceError::Archive(e.to_string()))?
            .into_owned();
        let mut parts = Vec::new();
        let mut safe = true;
        for c in raw_path.components() {
            match c {
                Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
                Component::CurDir => {}
                _ => safe = false,
            }
        }
        let inside =
            safe && parts.first().map(String::as_str) == Some(prefix.as_str()) && parts.len() > 1;
        let rel = if inside {
            parts[1..].join("/")
        } else {
            parts.join("/")
        };
        let kind = entry.header().entry_type();
        if kind.is_dir() {
            continue;
        }
        let is_meta = rel == "Cargo.toml" || rel == ".cargo_vcs_info.json";
        if !is_meta && !wanted(&rel) {
            continue;
        }
        if !inside || !kind.is_file() {
            skips.push(Skip {
                path: rel,
                reason: if kind.is_symlink() || kind.is_hard_link() {
                    SkipReason::Symlink
                } else {
                    SkipReason::UnsafeEntry
                },
            });
            continue;
        }
        if entry.header().size().unwrap_or(0) > MAX_FILE_BYTES {
            skips.push(Skip {
                path: rel,
                reason: SkipReason::TooLarge,
            });
            continue;
        }
        newest = newest.max(entry.header().mtime().unwrap_or(0));
        let mut buf = Vec::new();
        if entry.read_to_end(&mut buf).is_err() {
            return Err(SourceError::Archive(format!("truncated entry {rel}")));
        }
        match classify(buf) {
            Ok(text) if rel == "Cargo.toml" => manifest = Some(text),
            Ok(text) if rel == ".cargo_vcs_info.json" => vcs_info = Some(text),
            Ok(text) => files.push(SourceFile { path: rel, text }),
            Err(reason) => skips.push(Skip { path: rel, reason }),
        }
    }
    if manifest.is_none() {
        return Err(SourceError::Archive(format!(
            "{prefix}.crate has no {prefix}/Cargo.toml"
        )));
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let remote = manifest.as_deref().and_then(repository_of);
    Ok(Snapshot {
        meta: SnapshotMeta {
            repo: format!("crate:{name}"),
            revision: version.to_string(),
            date: rfc3339(newest),
            remote,
            vcs: vcs_info.as_deref().and_then(vcs_pin),
            deps: manifest.as_deref().and_then(dependencies_of),
        },
        files,
        skips,
    })
}

/// The commit and folder a crate was packaged from
/// (`{"git": {"sha1": ".."}, "path_in_vcs": ".."}`).
fn vcs_pin(json: &str) -> Option<errdex_model::VcsPin> {
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    Some(errdex_model::VcsPin {
        commit: v.get("git")?.get("sha1")?.as_str()?.to_string(),
        path_in_vcs: v
            .get("path_in_vcs")
            .and_then(|p| p.as_str())
            .unwrap_or("")
            .to_string(),
    })
}

/// The crates a manifest depends on at run time (`[dependencies]`, also
/// per target), by package name, `-` written `_`.
fn dependencies_of(manifest: &str) -> Option<Vec<String>> {
    let doc: toml::Table = manifest.parse().ok()?;
    let mut tables = vec![doc.get("dependencies")];
    if let Some(targets) = doc.get("target").and_then(|t| t.as_table()) {
        tables.extend(targets.values().map(|t| t.get("dependencies")));
    }
    let mut deps: Vec<String> = tables
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_table())
        .flat_map(|t| {
            t.iter().map(|(key, spec)| {
                spec.get("package")
                    .and_then(|p| p.as_str())
                    .unwrap_or(key)
                    .replace('-', "_")
            })
        })
        .collect();
    deps.sort();
    deps.dedup();
    Some(deps)
}

/// What a folder's manifest depends on, when it is one package's
/// (`[package]`, no workspace members: a workspace's crates each depend on
/// their own).
pub(crate) fn package_dependencies(manifest: &str) -> Option<Vec<String>> {
    let doc: toml::Table = manifest.parse().ok()?;
    doc.get("package")?;
    let members = doc
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(|m| m.as_array())
        .is_some_and(|m| !m.is_empty());
    if members {
        return None;
    }
    dependencies_of(manifest)
}

/// `package.repository` of a manifest.
fn repository_of(manifest: &str) -> Option<String> {
    let doc: toml::Table = manifest.parse().ok()?;
    Some(doc.get("package")?.get("repository")?.as_str()?.to_string())
}

/// The fixed mtime `cargo package` writes on every file (2006-07-24) of a
/// reproducible archive: not a date of the crate.
const CARGO_FIXED_MTIME: u64 = 1_153_704_088;

/// A Unix time as RFC 3339 (UTC); none for times before 1980, which
/// archive tools write when they have no real date, and for cargo's fixed
/// mtime.
fn rfc3339(secs: u64) -> Option<String> {
    if secs < 315_532_800 || secs == CARGO_FIXED_MTIME {
        return None;
    }
    crate::rfc3339(secs as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn build(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut tar = tar::Builder::new(Vec::new());
        for (path, data) in entries {
            let mut h = tar::Header::new_gnu();
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            h.set_mtime(1_700_000_000);
            // Write the name raw so that hostile paths reach the reader.
            let name = h.as_old_mut().name.as_mut();
            name[..path.len()].copy_from_slice(path.as_bytes());
            h.set_cksum();
            tar.append(&h, *data).unwrap();
        }
        let raw = tar.into_inner().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&raw).unwrap();
        gz.finish().unwrap()
    }

    #[test]
    fn reads_files_and_skips_escapes() {
        let bytes = build(&[
            (
                "x-1.0.0/Cargo.toml",
                b"[package]\nname='x'\nrepository='https://github.com/o/x'\n",
            ),
            ("x-1.0.0/src/lib.rs", b"fn f() {}"),
            ("x-1.0.0/../../evil.rs", b"fn evil() {}"),
            ("/abs.rs", b"fn abs() {}"),
            ("x-1.0.0/src/bin.rs", b"\0\0\0"),
            ("x-1.0.0/README.md", b"not wanted"),
        ]);
        let s = read_crate("x", "1.0.0", &bytes, &|p: &str| p.ends_with(".rs")).unwrap();
        assert_eq!(s.files.len(), 1);
        assert_eq!(s.files[0].path, "src/lib.rs");
        assert_eq!(s.meta.repo, "crate:x");
        assert_eq!(s.meta.remote.as_deref(), Some("https://github.com/o/x"));
        assert_eq!(s.meta.date.as_deref(), Some("2023-11-14T22:13:20Z"));
        let reasons: Vec<_> = s
            .skips
            .iter()
            .map(|k| (k.path.as_str(), k.reason))
            .collect();
        assert!(
            reasons.contains(&("x-1.0.0/evil.rs", SkipReason::UnsafeEntry)),
            "{reasons:?}"
        );
        assert!(
            reasons.contains(&("abs.rs", SkipReason::UnsafeEntry)),
            "{reasons:?}"
        );
        assert!(
            reasons.contains(&("src/bin.rs", SkipReason::Binary)),
            "{reasons:?}"
        );
    }

    #[test]
    fn malformed_archives_are_errors() {
        assert!(matches!(
            read_crate("x", "1", b"not gzip at all", &|_| true),
            Err(SourceError::Archive(_))
        ));
        let no_manifest = build(&[("x-1/src/lib.rs", b"")]);
        assert!(matches!(
            read_crate("x", "1", &no_manifest, &|_| true),
            Err(SourceError::Archive(_))
        ));
    }
}
