//! The little of git a work tree's snapshot needs: HEAD's commit, its date,
//! and the remote's `owner/repo`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// What a work tree says about itself.
pub struct WorkTree {
    /// HEAD's commit sha.
    pub head: String,
    /// HEAD's committer date (RFC 3339), when git can tell.
    pub date: Option<String>,
    /// `owner/repo` from the `origin` remote.
    pub slug: Option<String>,
    /// The `origin` remote's URL.
    pub remote: Option<String>,
}

/// Reads `root/.git` (a folder, or a `gitdir:` file) if there is one.
pub fn work_tree(root: &Path) -> Option<WorkTree> {
    let dot = root.join(".git");
    let git_dir = if dot.is_dir() {
        dot
    } else {
        let text = std::fs::read_to_string(&dot).ok()?;
        let p = PathBuf::from(text.strip_prefix("gitdir:")?.trim());
        if p.is_absolute() {
            p
        } else {
            root.join(p)
        }
    };
    let head = resolve_head(&git_dir)?;
    let remote = origin_url(&git_dir);
    Some(WorkTree {
        date: commit_date(root, &head),
        slug: remote.as_deref().and_then(slug_of_url),
        remote,
        head,
    })
}

fn resolve_head(git_dir: &Path) -> Option<String> {
    let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
    let head = head.trim();
    let Some(r) = head.strip_prefix("ref:") else {
        return is_sha(head).then(|| head.to_string());
    };
    let r = r.trim();
    // A linked work tree keeps refs in the common dir.
    let common = std::fs::read_to_string(git_dir.join("commondir"))
        .ok()
        .map(|c| git_dir.join(c.trim()))
        .unwrap_or_else(|| git_dir.to_path_buf());
    for dir in [git_dir, common.as_path()] {
        if let Ok(s) = std::fs::read_to_string(dir.join(r)) {
            let s = s.trim();
            if is_sha(s) {
                return Some(s.to_string());
            }
        }
        if let Ok(packed) = std::fs::read_to_string(dir.join("packed-refs")) {
            for line in packed.lines() {
                if let Some((sha, name)) = line.split_once(' ') {
                    if name == r && is_sha(sha) {
                        return Some(sha.to_string());
                    }
                }
            }
        }
    }
    None
}

fn is_sha(s: &str) -> bool {
    (s.len() == 40 || s.len() == 64) && s.chars().all(|c| c.is_ascii_hexdigit())
}

fn origin_url(git_dir: &Path) -> Option<String> {
    let config = std::fs::read_to_string(git_dir.join("config")).ok()?;
    let mut in_origin = false;
    for line in config.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_origin = t == "[remote \"origin\"]";
        } else if in_origin {
            if let Some(v) = t.strip_prefix("url") {
                return Some(v.trim_start().strip_prefix('=')?.trim().to_string());
            }
        }
    }
    None
}

/// The committer date of `sha`, asked of git (absent git, none).
fn commit_date(root: &Path, sha: &str) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["show", "-s", "--format=%cI", sha])
        .output()
        .ok()?;
    let s = String::from_utf8(out.stdout).ok()?;
    let s = s.trim();
    (out.status.success() && !s.is_empty()).then(|| s.to_string())
}

/// `owner/repo` of a forge URL: `https://host/owner/repo(.git)`,
/// `ssh://git@host/owner/repo`, `git@host:owner/repo.git`.
pub fn slug_of_url(url: &str) -> Option<String> {
    let url = url.trim().trim_end_matches('/');
    let path = if let Some((_, rest)) = url.split_once("://") {
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
    }
}
