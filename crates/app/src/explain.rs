//! `explain`: pasted output read within its limit, the matcher's index
//! (the catalogue's persisted one, or one built for a lock file's
//! versions), and the explain record.

use crate::explain_index::Obtained;
use crate::{AppError, Db, Result};
use errdex_catalog::Location;
use errdex_match::{input, Explanation, Index, Match, Message, SourceLines};
use serde::{Serialize, Serializer};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Instant;

/// Pasted output, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pasted {
    /// The text read (at most [`input::MAX_INPUT`] bytes of it).
    pub text: String,
    /// Whether the input went on past the limit and was cut.
    pub cut: bool,
}

/// Decodes pasted bytes (binary is refused); `bytes` may hold one byte
/// past [`input::MAX_INPUT`] to tell that there was more.
pub fn read_pasted(bytes: &[u8]) -> Result<Pasted> {
    let text = input::decode(bytes).map_err(AppError::input)?;
    Ok(Pasted {
        text,
        cut: bytes.len() > input::MAX_INPUT,
    })
}

/// How the index was made (part of the explain record).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexInfo {
    /// `from its file` (the persisted index, mapped), `from its file and
    /// the snapshots indexed since` (those laid on it as a delta), `from
    /// the catalogue` (rebuilt, and saved for the next start) or `for the
    /// lock file`.
    pub built: &'static str,
    /// Distinct templates.
    pub templates: usize,
    /// (error, snapshot) entries.
    pub entries: usize,
    /// Milliseconds the index took to open or build.
    pub build_ms: f64,
}

/// The matcher's index over the catalogue, and how it was made.
pub struct Matcher {
    index: Index,
    info: IndexInfo,
    /// The catalogue a persisted index was opened for: a query that finds
    /// the file damaged is answered again from an index rebuilt from it.
    catalogue: Option<Location>,
    rebuilt: OnceLock<Index>,
}

/// The `(repo, revision)` pairs of a lock file's packages, as `index lock:`
/// names them, and how many of them are not indexed yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locked {
    /// `(repo, revision)` of every package errdex can name.
    pub pairs: Vec<(String, String)>,
    /// How many of `pairs` the catalogue does not hold.
    pub missing: usize,
}

impl Db {
    /// The matcher's index over every snapshot (the persisted one, rebuilt
    /// first when the catalogue changed), or built for only `only`'s
    /// `(repo, revision)` pairs.
    pub fn matcher(&self, only: Option<&[(String, String)]>) -> Result<Matcher> {
        let started = Instant::now();
        let (index, built) = match only {
            Some(only) => match self.locked_explain_index(only)? {
                (index, Obtained::Opened) => (index, "for the lock file, from its file"),
                (index, _) => (index, "for the lock file"),
            },
            None => match self.explain_index()? {
                (index, Obtained::Opened) => (index, "from its file"),
                (index, Obtained::Layered) => {
                    (index, "from its file and the snapshots indexed since")
                }
                (index, Obtained::Rebuilt) => (index, "from the catalogue"),
            },
        };
        let info = IndexInfo {
            built,
            templates: index.templates(),
            entries: index.len(),
            build_ms: (started.elapsed().as_secs_f64() * 1e4).round() / 10.0,
        };
        Ok(Matcher {
            index,
            info,
            catalogue: only.is_none().then(|| self.location.clone()),
            rebuilt: OnceLock::new(),
        })
    }

    /// The packages of a lock file as the catalogue names them: `crate:NAME`
    /// or `pypi:NAME` at its version, a git package at its commit, a
    /// workspace member at its folder's content.
    pub fn locked_versions(&self, lock: &Path) -> Result<Locked> {
        use errdex_extract::Extractor;
        use errdex_source::lock::{git_repo_slug, member_folders, packages, LockedSource};
        let locked = packages(lock).map_err(AppError::input)?;
        let members = match errdex_source::lock::python_format(lock) {
            None => member_folders(lock).unwrap_or_default(),
            Some(_) => Default::default(),
        };
        let wanted = |f: &str| errdex_lang_rust::RustExtractor.handles(f);
        let pairs: Vec<(String, String)> = locked
            .into_iter()
            .filter_map(|p| match &p.source {
                LockedSource::Registry { .. } => Some((format!("crate:{}", p.name), p.version)),
                LockedSource::Pypi { .. } => {
                    Some((errdex_source::pypi::repo_name(&p.name), p.version))
                }
                LockedSource::Unpinned => None,
                LockedSource::Git { url, commit } => {
                    Some((git_repo_slug(url, &p.name), commit.clone()?))
                }
                LockedSource::Path => {
                    let dir = members.get(&(p.name.clone(), p.version.clone()))?;
                    let s = errdex_source::load_path_package(&p.name, dir, &wanted).ok()?;
                    Some((s.meta.repo, s.meta.revision))
                }
                LockedSource::Other(_) => None,
            })
            .collect();
        let mut missing = 0;
        for (repo, version) in &pairs {
            if !self.catalog.has_snapshot(repo, version)? {
                missing += 1;
            }
        }
        Ok(Locked { pairs, missing })
    }
}

impl Matcher {
    /// How the index was made.
    pub fn info(&self) -> &IndexInfo {
        &self.info
    }

    /// Explains pasted output: the explain record. The source lines a
    /// traceback prints are checked against the files of `db` (the
    /// catalogue the index was built from) to tell versions apart. When
    /// the persisted index turns out damaged where the query read it, the
    /// index is rebuilt from the catalogue (and saved) and the query
    /// answered again.
    pub fn explain(&self, db: &Db, text: &str) -> Result<ExplainRecord> {
        let record = |explanation| ExplainRecord {
            explanation,
            index: self.info.clone(),
            urls: None,
        };
        if let Some(index) = self.rebuilt.get() {
            return Ok(record(index.explain_with(text, db)));
        }
        let explanation = self.index.explain_with(text, db);
        let Some(catalogue) = self.catalogue.as_ref().filter(|_| self.index.damaged()) else {
            return Ok(record(explanation));
        };
        tracing::warn!(
            catalogue = %catalogue,
            "the persisted explain index is damaged: rebuilding it from the catalogue"
        );
        let index = Db::open_existing(catalogue)?.rebuild_explain_index()?;
        let index = self.rebuilt.get_or_init(|| index);
        Ok(record(index.explain_with(text, db)))
    }
}

impl SourceLines for Db {
    fn line(&self, snapshot: i64, path: &str, line: u32) -> Option<String> {
        let lines = self.catalog.excerpt(snapshot, path, line, line).ok()?;
        lines.into_iter().next().map(|(_, text)| text)
    }

    fn lines(&self, snapshot: i64, path: &str, from: u32, to: u32) -> Vec<String> {
        self.catalog
            .excerpt(snapshot, path, from.max(1), to)
            .map(|lines| lines.into_iter().map(|(_, text)| text).collect())
            .unwrap_or_default()
    }

    fn find_line(&self, snapshot: i64, text: &str) -> Option<(String, u32)> {
        let mut files = self.catalog.snapshot_files(snapshot).ok()?;
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files.into_iter().find_map(|f| {
            let n = f.text.lines().position(|l| l.trim() == text)?;
            Some((f.path, u32::try_from(n + 1).ok()?))
        })
    }
}

/// The answer to pasted output, one shape for `errdex explain --json` and
/// `POST /api/explain`: the matcher's messages, ranked matches, each
/// message's best match and the unexplained messages, and how the index
/// was made. The web server adds each match's page `url` (`null` for a
/// free literal, which has no page).
#[derive(Debug, Clone, PartialEq)]
pub struct ExplainRecord {
    /// What the matcher found.
    pub explanation: Explanation,
    /// How the index was made.
    pub index: IndexInfo,
    /// Each match's page URL, when the front-end has pages.
    urls: Option<Vec<Option<String>>>,
}

impl ExplainRecord {
    /// The record with each match's page URL, `url(error_id)`.
    pub fn with_urls(mut self, url: impl Fn(&str) -> String) -> Self {
        let urls = self
            .explanation
            .matches
            .iter()
            .map(|m| m.error_id.as_deref().map(&url))
            .collect();
        self.urls = Some(urls);
        self
    }

    /// True when some message found a site.
    pub fn matched(&self) -> bool {
        self.explanation.matched()
    }
}

/// A match with its page URL.
#[derive(Serialize)]
struct Linked<'a> {
    #[serde(flatten)]
    found: &'a Match,
    url: &'a Option<String>,
}

/// The matches, bare or with their URLs.
#[derive(Serialize)]
#[serde(untagged)]
enum Matches<'a> {
    Bare(&'a [Match]),
    Linked(Vec<Linked<'a>>),
}

/// The serialised record.
#[derive(Serialize)]
struct Shape<'a> {
    messages: &'a [Message],
    matches: Matches<'a>,
    best: &'a [Option<usize>],
    unexplained: &'a [usize],
    index: &'a IndexInfo,
}

impl Serialize for ExplainRecord {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        // Every field named: a field the matcher adds must be placed here.
        let Explanation {
            messages,
            matches,
            best,
            unexplained,
        } = &self.explanation;
        let matches = match &self.urls {
            None => Matches::Bare(matches),
            Some(urls) => Matches::Linked(
                matches
                    .iter()
                    .zip(urls)
                    .map(|(found, url)| Linked { found, url })
                    .collect(),
            ),
        };
        Shape {
            messages,
            matches,
            best,
            unexplained,
            index: &self.index,
        }
        .serialize(s)
    }
}
