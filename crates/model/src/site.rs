//! Sites, evidence, literals and snapshot metadata.

use crate::{Kind, Template};
use serde::{Deserialize, Serialize};

/// One place in a snapshot's source that produces an error message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Site {
    /// How the message is produced.
    pub kind: Kind,
    /// The message as literal parts and holes.
    pub template: Template,
    /// File, relative to the snapshot root, `/`-separated.
    pub path: String,
    /// First line of the site's expression (1-based).
    pub line: u32,
    /// Column of the site's first character (1-based, in characters).
    pub column: u32,
    /// Last line of the site's expression.
    pub end_line: u32,
    /// The line a panic header reports: the macro name or method name line.
    pub report_line: u32,
    /// The column a panic header reports (1-based).
    pub report_column: u32,
    /// The enclosing fn carries `#[track_caller]`: a panic report names the
    /// caller's location, not this one.
    pub reported_at_caller: bool,
    /// Enclosing item path: modules, `<Type as Trait>` or `Type`, fn; for
    /// `#[error]` the type and variant.
    pub item_path: String,
    /// The pattern of the enclosing `match` arm, when the site sits in one
    /// (the variant a `Display` arm describes).
    pub arm: Option<String>,
    /// In test code (`tests/`, `benches/`, `#[cfg(test)]`, test fns).
    pub is_test: bool,
    /// First line of the excerpt to show.
    pub excerpt_start: u32,
    /// Last line of the excerpt to show.
    pub excerpt_end: u32,
    /// The crate-local macro whose invocation this site is, with the body
    /// site's message.
    pub via_macro: Option<String>,
    /// The message text came from a `const`/`static`: its `path:line`.
    pub message_from: Option<String>,
    /// One of several writes that build a message at run time (in a loop or
    /// a branch): the template covers only part of the final text.
    pub partial: bool,
    /// The message is another error's text (`inner.fmt(f)`,
    /// `#[error(transparent)]`, `"{}", source`): the expression delegated to.
    pub delegates_to: Option<String>,
}

/// What a piece of evidence says about an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// A `#[should_panic(expected = ..)]` test whose expectation matches.
    ShouldPanic,
    /// The `# Panics` section of the enclosing fn's doc comment.
    DocPanics,
    /// The `# Errors` section of the enclosing fn's doc comment.
    DocErrors,
    /// The first paragraph of the enclosing item's doc comment.
    Doc,
}

impl EvidenceKind {
    /// The stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::ShouldPanic => "should_panic",
            EvidenceKind::DocPanics => "doc_panics",
            EvidenceKind::DocErrors => "doc_errors",
            EvidenceKind::Doc => "doc",
        }
    }

    /// Parses a stable name.
    pub fn parse(s: &str) -> Option<Self> {
        [
            EvidenceKind::ShouldPanic,
            EvidenceKind::DocPanics,
            EvidenceKind::DocErrors,
            EvidenceKind::Doc,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

/// A fact about a site found in the code around it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// What it is.
    pub kind: EvidenceKind,
    /// Where the evidence stands (the test fn, the doc comment).
    pub path: String,
    /// Its line.
    pub line: u32,
    /// The item it belongs to (the test's path, the documented fn).
    pub item_path: String,
    /// The text: the expected substring, the doc section.
    pub text: String,
}

/// A string literal that is not a site's message, kept as a recall safety
/// net for unusual ways of raising errors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Literal {
    /// File, relative to the snapshot root.
    pub path: String,
    /// Line of the literal.
    pub line: u32,
    /// Column of the literal (1-based).
    pub column: u32,
    /// The decoded text.
    pub text: String,
    /// In test code (an expectation of a message, not where it is made).
    #[serde(default)]
    pub is_test: bool,
}

/// Where a snapshot comes from and which revision it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SnapshotMeta {
    /// `crate:NAME`, `owner/repo`, or a folder name.
    pub repo: String,
    /// Crate version, git commit sha, or a content hash.
    pub revision: String,
    /// The revision's date (RFC 3339), when known.
    pub date: Option<String>,
    /// The remote the repo came from (git remote URL or the crate's
    /// `repository`), when known.
    pub remote: Option<String>,
    /// The upstream commit these files are, when known (a git revision, or
    /// a crate's `.cargo_vcs_info.json`).
    pub vcs: Option<VcsPin>,
    /// The crates its manifest depends on (`-` written `_`), when known: a
    /// message of this snapshot can print only their errors inside its own.
    #[serde(default)]
    pub deps: Option<Vec<String>>,
}

/// Where a snapshot's files stand in their upstream repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VcsPin {
    /// The commit sha.
    pub commit: String,
    /// The snapshot root's folder inside the repository (`""` at the top).
    pub path_in_vcs: String,
}

/// A link to `path:line` on the forge `remote` names, pinned to the commit:
/// GitHub `/blob/<sha>/<path>#L<n>`, GitLab `/-/blob/<sha>/<path>#L<n>`;
/// none for other forges. A `remote` naming a folder of the repository
/// (`https://github.com/o/r/tree/main/crates/x`, as a crate's `repository`
/// field may) links into the repository itself, under that folder when
/// `vcs` does not say where the snapshot lies.
pub fn forge_link(remote: &str, vcs: &VcsPin, path: &str, line: u32) -> Option<String> {
    let url = remote.trim().trim_end_matches('/');
    let url = url.strip_suffix(".git").unwrap_or(url);
    let (host, repo_path) = if let Some(rest) = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
    {
        rest.split_once('/')?
    } else if let Some(rest) = url.strip_prefix("ssh://") {
        let rest = rest.split_once('@').map_or(rest, |(_, r)| r);
        rest.split_once('/')?
    } else {
        let rest = url.split_once('@')?.1;
        rest.split_once(':')?
    };
    let mut parts: Vec<&str> = repo_path.split('/').filter(|p| !p.is_empty()).collect();
    // `…/tree/<ref>/<folder>` (GitHub) or `…/-/tree/<ref>/<folder>` (GitLab).
    let mut folder = String::new();
    let marker = match host {
        "github.com" => parts
            .iter()
            .position(|p| matches!(*p, "tree" | "blob"))
            .filter(|&i| i == 2),
        "gitlab.com" => parts.iter().position(|p| *p == "-"),
        _ => None,
    };
    if let Some(i) = marker {
        let kind_at = if parts[i] == "-" { i + 1 } else { i };
        if parts.len() > kind_at + 2 {
            folder = parts[kind_at + 2..].join("/");
        }
        parts.truncate(i);
    }
    if parts.len() < 2 || !vcs.commit.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let root = if vcs.path_in_vcs.is_empty() {
        folder.as_str()
    } else {
        vcs.path_in_vcs.as_str()
    };
    let full = if root.is_empty() {
        path.to_string()
    } else {
        format!("{}/{path}", root.trim_end_matches('/'))
    };
    let repo = parts.join("/");
    match host {
        "github.com" => Some(format!(
            "https://github.com/{repo}/blob/{}/{full}#L{line}",
            vcs.commit
        )),
        "gitlab.com" => Some(format!(
            "https://gitlab.com/{repo}/-/blob/{}/{full}#L{line}",
            vcs.commit
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forge_links() {
        let pin = VcsPin {
            commit: "abc123".into(),
            path_in_vcs: "".into(),
        };
        assert_eq!(
            forge_link(
                "https://github.com/serde-rs/json.git",
                &pin,
                "src/error.rs",
                355
            )
            .as_deref(),
            Some("https://github.com/serde-rs/json/blob/abc123/src/error.rs#L355")
        );
        assert_eq!(
            forge_link("git@gitlab.com:group/sub/proj.git", &pin, "a.rs", 1).as_deref(),
            Some("https://gitlab.com/group/sub/proj/-/blob/abc123/a.rs#L1")
        );
        let nested = VcsPin {
            commit: "abc123".into(),
            path_in_vcs: "tokio".into(),
        };
        assert_eq!(
            forge_link(
                "https://github.com/tokio-rs/tokio",
                &nested,
                "src/lib.rs",
                9
            )
            .as_deref(),
            Some("https://github.com/tokio-rs/tokio/blob/abc123/tokio/src/lib.rs#L9")
        );
        // A `repository` naming a subfolder: the link is into the
        // repository, under the folder (from the crate's VCS info or the URL).
        let burn = VcsPin {
            commit: "abc123".into(),
            path_in_vcs: "crates/burn-autodiff".into(),
        };
        let sub = "https://github.com/tracel-ai/burn/tree/main/crates/burn-autodiff";
        let want =
            "https://github.com/tracel-ai/burn/blob/abc123/crates/burn-autodiff/src/lib.rs#L3";
        assert_eq!(
            forge_link(sub, &burn, "src/lib.rs", 3).as_deref(),
            Some(want)
        );
        assert_eq!(
            forge_link(sub, &pin, "src/lib.rs", 3).as_deref(),
            Some(want)
        );
        assert_eq!(
            forge_link("https://gitlab.com/g/p/-/tree/main/sub", &pin, "a.rs", 2).as_deref(),
            Some("https://gitlab.com/g/p/-/blob/abc123/sub/a.rs#L2")
        );
        assert_eq!(forge_link("https://example.org/a/b", &pin, "x.rs", 1), None);
        assert_eq!(forge_link("/local/repo", &pin, "x.rs", 1), None);
    }
}

/// One text file of a snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// Path relative to the snapshot root, `/`-separated.
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// A piece of evidence about the site at index `site` of
/// [`Extraction::sites`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteEvidence {
    /// Index of the site.
    pub site: usize,
    /// What is known.
    pub evidence: Evidence,
}

/// Everything extracted from one snapshot, resolved across its files.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Extraction {
    /// The extractor's language (`rust`).
    pub language: String,
    /// Every site, in file order.
    pub sites: Vec<Site>,
    /// Evidence attached to sites.
    pub evidence: Vec<SiteEvidence>,
    /// Free string literals (the recall safety net).
    pub literals: Vec<Literal>,
    /// Files extracted.
    pub files: usize,
    /// Syntax errors met, summed over files.
    pub syntax_errors: usize,
}
