//! A git repository at one revision, read straight from its object store
//! with gix (no checkout; bare repositories too): the commit's tree, its
//! sha and committer date, and `owner/repo` of the `origin` remote.

use crate::{classify, Skip, SkipReason, Snapshot, SourceError, MAX_FILE_BYTES};
use errdex_model::{SnapshotMeta, SourceFile};
use std::path::Path;

/// True when `dir` is a git repository (a work tree's root or a bare one).
pub fn is_repository(dir: &Path) -> bool {
    dir.join(".git").exists() || (dir.join("HEAD").is_file() && dir.join("objects").is_dir())
}

/// An error about the repository at `dir`.
pub(crate) fn git_error(dir: &Path, what: &str, e: &dyn std::fmt::Display) -> SourceError {
    SourceError::Git(format!("{}: {what}: {e}", dir.display()))
}

/// Opens the repository at `dir` and resolves `rev` to a commit.
pub(crate) fn open_commit(
    dir: &Path,
    rev: &str,
) -> Result<(gix::Repository, gix::ObjectId), SourceError> {
    let repo = gix::open(dir).map_err(|e| git_error(dir, "not a readable git repository", &e))?;
    let id = repo
        .rev_parse_single(rev)
        .map_err(|_| SourceError::UnknownRevision(format!("{rev} in {}", dir.display())))?
        .object()
        .map_err(|e| git_error(dir, "reading the revision", &e))?
        .peel_to_commit()
        .map_err(|_| {
            SourceError::UnknownRevision(format!("{rev} (not a commit) in {}", dir.display()))
        })?
        .id;
    Ok((repo, id))
}

/// One blob, link or submodule of a commit's tree.
pub(crate) struct TreeEntry {
    /// Slash-joined path from the root (each name checked).
    pub filepath: String,
    /// The object.
    pub oid: gix::ObjectId,
    /// Its kind.
    pub mode: gix::object::tree::EntryMode,
}

/// True when a tree entry's name is one git's own fsck refuses: empty,
/// `.`, `..`, `.git` (any case), or holding `/` or NUL. Such a name would
/// make a path that leaves or aliases the snapshot (`../../evil.rs`).
pub(crate) fn bad_entry_name(name: &[u8]) -> bool {
    name.is_empty()
        || name == b"."
        || name == b".."
        || name.eq_ignore_ascii_case(b".git")
        || name.iter().any(|&b| b == b'/' || b == 0)
}

/// Every entry of a commit's tree, walked without recursion; entries with
/// a name git refuses (see [`bad_entry_name`]) are left out, with what is
/// under them, and returned apart as skips.
pub(crate) fn tree_entries(
    dir: &Path,
    commit: &gix::Commit,
) -> Result<(Vec<TreeEntry>, Vec<Skip>), SourceError> {
    let root = commit
        .tree()
        .map_err(|e| git_error(dir, "reading the commit's tree", &e))?;
    let repo = commit.repo();
    let mut entries = Vec::new();
    let mut bad = Vec::new();
    let mut todo = vec![(String::new(), root.id)];
    while let Some((prefix, id)) = todo.pop() {
        let tree = repo
            .find_tree(id)
            .map_err(|e| git_error(dir, "walking the tree", &e))?;
        let decoded = tree
            .decode()
            .map_err(|e| git_error(dir, "walking the tree", &e))?;
        for e in &decoded.entries {
            let name: &[u8] = e.filename.as_ref();
            let path = format!("{prefix}{}", String::from_utf8_lossy(name));
            if bad_entry_name(name) {
                bad.push(Skip {
                    path: path.escape_debug().to_string(),
                    reason: SkipReason::BadTreeEntry,
                });
            } else if e.mode.is_tree() {
                todo.push((format!("{path}/"), e.oid.to_owned()));
            } else {
                entries.push(TreeEntry {
                    filepath: path,
                    oid: e.oid.to_owned(),
                    mode: e.mode,
                });
            }
        }
    }
    Ok((entries, bad))
}

/// Reads `rev` (a sha, tag or branch; `HEAD` by default) of the repository
/// at `dir`.
pub fn load(dir: &Path, rev: &str, wanted: &dyn Fn(&str) -> bool) -> Result<Snapshot, SourceError> {
    let git = |what: &str, e: &dyn std::fmt::Display| git_error(dir, what, e);
    let (repo, id) = open_commit(dir, rev)?;
    let commit = repo
        .find_commit(id)
        .map_err(|e| git("reading the revision", &e))?;
    let seconds = commit
        .time()
        .map_err(|e| git("reading the commit date", &e))?
        .seconds;
    let mut files = Vec::new();
    let (entries, mut skips) = tree_entries(dir, &commit)?;
    for entry in entries {
        let path = entry.filepath;
        if !wanted(&path) {
            continue;
        }
        let mode = entry.mode;
        if mode.is_link() {
            skips.push(Skip {
                path,
                reason: SkipReason::Symlink,
            });
            continue;
        }
        if !mode.is_blob() {
            continue;
        }
        let header = repo
            .find_header(entry.oid)
            .map_err(|e| git(&format!("reading {path}"), &e))?;
        if header.size() > MAX_FILE_BYTES {
            skips.push(Skip {
                path,
                reason: SkipReason::TooLarge,
            });
            continue;
        }
        let object = repo
            .find_object(entry.oid)
            .map_err(|e| git(&format!("reading {path}"), &e))?;
        match classify(object.data.clone()) {
            Ok(text) => files.push(SourceFile { path, text }),
            Err(reason) => skips.push(Skip { path, reason }),
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let remote = repo
        .config_snapshot()
        .string("remote.origin.url")
        .map(|u| u.to_string());
    let folder = std::fs::canonicalize(dir)
        .ok()
        .and_then(|p| {
            p.file_name()
                .map(|n| n.to_string_lossy().trim_end_matches(".git").to_string())
        })
        .unwrap_or_else(|| "repo".into());
    Ok(Snapshot {
        meta: SnapshotMeta {
            repo: remote.as_deref().and_then(slug_of_url).unwrap_or(folder),
            revision: commit.id.to_string(),
            date: crate::rfc3339(seconds),
            remote,
            vcs: Some(errdex_model::VcsPin {
                commit: commit.id.to_string(),
                path_in_vcs: String::new(),
            }),
            deps: None,
        },
        files,
        skips,
    })
}

/// `owner/repo` of a forge URL: `https://host/owner/repo(.git)`,
/// `ssh://git@host/owner/repo`, `git@host:owner/repo.git`.
pub fn slug_of_url(url: &str) -> Option<String> {
    let url = url.trim().trim_end_matches('/');
    let path = if let Some((scheme, rest)) = url.split_once("://") {
        if scheme == "file" {
            return None;
        }
        rest.split_once('/')?.1
    } else if let Some((_, rest)) = url.split_once(':') {
        rest
    } else {
        return None;
    };
    let path = path.strip_suffix(".git").unwrap_or(path);
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [.., owner, repo] => Some(format!("{owner}/{repo}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::slug_of_url;

    #[test]
    fn slugs() {
        assert_eq!(
            slug_of_url("https://github.com/tokio-rs/tokio.git").as_deref(),
            Some("tokio-rs/tokio")
        );
        assert_eq!(
            slug_of_url("https://github.com/tokio-rs/tokio/").as_deref(),
            Some("tokio-rs/tokio")
        );
        assert_eq!(
            slug_of_url("git@github.com:serde-rs/json.git").as_deref(),
            Some("serde-rs/json")
        );
        assert_eq!(
            slug_of_url("ssh://git@gitlab.com/a/b").as_deref(),
            Some("a/b")
        );
        assert_eq!(slug_of_url("/local/path").as_deref(), None);
        assert_eq!(slug_of_url("file:///local/path").as_deref(), None);
    }
}
