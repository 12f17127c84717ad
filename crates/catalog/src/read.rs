//! Queries for `list`, `show` and the web pages.

use crate::backend::{args, Row};
use crate::{blob, Catalog, CatalogError, Result};
use errdex_model::{
    EvidenceKind, Introduction, Kind, LiteralEntry, MatchData, MatchEntry, MatchSite, Mechanism,
    Origin, Template,
};
use serde::Serialize;

/// A repo and its snapshots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepoSummary {
    /// `crate:NAME`, `owner/repo` or a folder name.
    pub slug: String,
    /// Where it came from.
    pub remote: Option<String>,
    /// Revisions indexed, oldest first.
    pub revisions: Vec<String>,
    /// Distinct errors across its snapshots.
    pub errors: u64,
}

/// One error as a list shows it: where it stands in its repo's newest
/// snapshot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorSummary {
    /// Stable id (16 hex digits).
    pub id: String,
    /// Repo slug.
    pub repo: String,
    /// Revision of the newest snapshot holding it.
    pub revision: String,
    /// Kind.
    pub kind: Kind,
    /// The kind's language-neutral mechanism.
    pub mechanism: Mechanism,
    /// Template as text (holes in braces).
    pub template: String,
    /// Enclosing item.
    pub item_path: String,
    /// First site: file.
    pub path: String,
    /// First site: line.
    pub line: u32,
    /// Sites in that snapshot.
    pub sites: u32,
    /// Every site is test code.
    pub is_test: bool,
}

/// One occurrence of an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SiteRow {
    /// Snapshot row id (for excerpts).
    #[serde(skip)]
    pub snapshot_id: i64,
    /// The snapshot's revision.
    pub revision: String,
    /// File.
    pub path: String,
    /// Line of the expression.
    pub line: u32,
    /// Column (1-based).
    pub column: u32,
    /// Last line.
    pub end_line: u32,
    /// Line a panic header reports.
    pub report_line: u32,
    /// Column a panic header reports.
    pub report_column: u32,
    /// The report names the caller (`#[track_caller]`).
    pub reported_at_caller: bool,
    /// Test code.
    pub is_test: bool,
    /// Excerpt lines.
    pub excerpt_start: u32,
    /// Excerpt end line.
    pub excerpt_end: u32,
    /// Enclosing `match` arm pattern.
    pub arm: Option<String>,
    /// Crate-local macro invoked.
    pub via_macro: Option<String>,
    /// Where the message text is defined, when elsewhere.
    pub message_from: Option<String>,
    /// Only part of a message built at run time.
    pub partial: bool,
    /// The inner error it prints.
    pub delegates_to: Option<String>,
    /// The upstream commit of the snapshot, when known.
    pub vcs: Option<errdex_model::VcsPin>,
}

/// A fact attached to an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EvidenceRow {
    /// What it is.
    pub kind: EvidenceKind,
    /// Where it stands.
    pub path: String,
    /// Its line.
    pub line: u32,
    /// The test or documented item.
    pub item_path: String,
    /// Its text.
    pub text: String,
}

/// An error with all it is known by.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorDetail {
    /// Stable id.
    pub id: String,
    /// Repo slug.
    pub repo: String,
    /// The repo's remote.
    pub remote: Option<String>,
    /// Language.
    pub language: String,
    /// Kind.
    pub kind: Kind,
    /// Template as text.
    pub template: String,
    /// Template as pieces.
    pub pieces: Template,
    /// Enclosing item.
    pub item_path: String,
    /// Every site, newest snapshot first.
    pub sites: Vec<SiteRow>,
    /// Evidence.
    pub evidence: Vec<EvidenceRow>,
    /// Where the message came from, as of the newest snapshot with history.
    pub origin: Option<Origin>,
}

fn kind_of(s: String) -> Result<Kind> {
    s.parse().map_err(|_| CatalogError::Corrupt("kind"))
}

/// Decodes a stored template (compact JSON).
fn template_of(json: String) -> Result<Template> {
    serde_json::from_str(&json).map_err(|_| CatalogError::Corrupt("template"))
}

fn site_row(r: &Row) -> Result<SiteRow> {
    Ok(SiteRow {
        snapshot_id: r.get(0)?,
        revision: r.get(1)?,
        path: r.get(2)?,
        line: r.get(3)?,
        column: r.get(4)?,
        end_line: r.get(5)?,
        report_line: r.get(6)?,
        report_column: r.get(7)?,
        reported_at_caller: r.get(8)?,
        is_test: r.get(9)?,
        excerpt_start: r.get(10)?,
        excerpt_end: r.get(11)?,
        arm: r.get(12)?,
        via_macro: r.get(13)?,
        message_from: r.get(14)?,
        partial: r.get(15)?,
        delegates_to: r.get(16)?,
        vcs: match (r.get::<Option<String>>(17)?, r.get::<Option<String>>(18)?) {
            (Some(commit), path) => Some(errdex_model::VcsPin {
                commit,
                path_in_vcs: path.unwrap_or_default(),
            }),
            _ => None,
        },
    })
}

impl Catalog {
    /// Every repo, by slug.
    pub fn repos(&self) -> Result<Vec<RepoSummary>> {
        let rows: Vec<(i64, String, Option<String>, u64)> = self.conn.query_vec(
            "SELECT r.id, r.slug, r.remote, (SELECT COUNT(*) FROM errors e WHERE e.repo_id = r.id)
             FROM repos r ORDER BY r.slug",
            args![],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        let mut out = Vec::new();
        for (id, slug, remote, errors) in rows {
            let revisions = self.conn.query_vec(
                "SELECT revision FROM snapshots WHERE repo_id = ?1 ORDER BY id",
                args![id],
                |r| r.get(0),
            )?;
            out.push(RepoSummary {
                slug,
                remote,
                revisions,
                errors,
            });
        }
        Ok(out
            .into_iter()
            .filter(|r| !r.revisions.is_empty())
            .collect())
    }

    /// Errors of the newest snapshot of each repo (or of `repo`), filtered
    /// by kind, ordered by file and line.
    pub fn list_errors(&self, repo: Option<&str>, kind: Option<Kind>) -> Result<Vec<ErrorSummary>> {
        let rows = self.conn.query_vec(
            "SELECT e.id, r.slug, sn.revision, e.kind, e.template, e.item_path, s.path, s.line, s.is_test
             FROM sites s
             JOIN snapshots sn ON sn.id = s.snapshot_id
             JOIN errors e ON e.id = s.error_id
             JOIN repos r ON r.id = sn.repo_id
             WHERE sn.id = (SELECT MAX(id) FROM snapshots WHERE repo_id = sn.repo_id)
               AND (CAST(?1 AS TEXT) IS NULL OR r.slug = ?1)
               AND (CAST(?2 AS TEXT) IS NULL OR e.kind = ?2)
             ORDER BY r.slug, s.path, s.line, s.col",
            args![repo, kind.map(Kind::as_str)],
            |r| {
            let kind = kind_of(r.get(3)?)?;
            Ok(ErrorSummary {
                id: r.get(0)?,
                repo: r.get(1)?,
                revision: r.get(2)?,
                kind,
                mechanism: kind.mechanism(),
                template: template_of(r.get(4)?)?.to_string(),
                item_path: r.get(5)?,
                path: r.get(6)?,
                line: r.get(7)?,
                sites: 1,
                is_test: r.get(8)?,
            })
            },
        )?;
        let mut out: Vec<ErrorSummary> = Vec::new();
        let mut index = std::collections::HashMap::new();
        for row in rows {
            match index.get(&row.id) {
                Some(&i) => {
                    let e: &mut ErrorSummary = &mut out[i];
                    e.sites += 1;
                    e.is_test &= row.is_test;
                }
                None => {
                    index.insert(row.id.clone(), out.len());
                    out.push(row);
                }
            }
        }
        Ok(out)
    }

    /// One error by id.
    pub fn error(&self, id: &str) -> Result<Option<ErrorDetail>> {
        let head = self.conn.query_opt(
            "SELECT e.id, r.slug, r.remote, e.language, e.kind, e.template, e.item_path
             FROM errors e JOIN repos r ON r.id = e.repo_id WHERE e.id = ?1",
            args![id],
            |r| {
                Ok((
                    r.get::<String>(0)?,
                    r.get::<String>(1)?,
                    r.get::<Option<String>>(2)?,
                    r.get::<String>(3)?,
                    kind_of(r.get(4)?)?,
                    template_of(r.get(5)?)?,
                    r.get::<String>(6)?,
                ))
            },
        )?;
        let Some((id, repo, remote, language, kind, pieces, item_path)) = head else {
            return Ok(None);
        };
        let template = pieces.to_string();
        let sites = self.conn.query_vec(
            "SELECT s.snapshot_id, sn.revision, s.path, s.line, s.col, s.end_line, s.report_line, s.report_col,
                    s.reported_at_caller, s.is_test, s.excerpt_start, s.excerpt_end, s.arm, s.via_macro,
                    s.message_from, s.partial, s.delegates_to, sn.vcs_commit, sn.path_in_vcs
             FROM sites s JOIN snapshots sn ON sn.id = s.snapshot_id
             WHERE s.error_id = ?1 ORDER BY sn.id DESC, s.path, s.line",
            args![id],
            site_row,
        )?;
        let evidence = self.conn.query_vec(
            "SELECT DISTINCT kind, path, line, item_path, text FROM evidence WHERE error_id = ?1 ORDER BY kind, path, line",
            args![id],
            |r| {
                let k: String = r.get(0)?;
                Ok(EvidenceRow {
                    kind: EvidenceKind::parse(&k).unwrap_or(EvidenceKind::Doc),
                    path: r.get(1)?,
                    line: r.get(2)?,
                    item_path: r.get(3)?,
                    text: r.get(4)?,
                })
            },
        )?;
        let origin = self.conn.query_opt(
            "SELECT status, commit_sha, date, subject, pr FROM origins
                 WHERE error_id = ?1 ORDER BY snapshot_id DESC LIMIT 1",
            args![id],
            |r| {
                let status: String = r.get(0)?;
                let commit: String = r.get(1)?;
                Ok(if status == "commit" {
                    Origin::Commit(Introduction {
                        commit,
                        date: r.get(2)?,
                        subject: r.get::<Option<String>>(3)?.unwrap_or_default(),
                        pr: r.get(4)?,
                    })
                } else {
                    Origin::BeforeShallowBoundary { boundary: commit }
                })
            },
        )?;
        Ok(Some(ErrorDetail {
            origin,
            id,
            repo,
            remote,
            language,
            kind,
            template,
            pieces,
            item_path,
            sites,
            evidence,
        }))
    }

    /// Lines `start..=end` of a snapshot's file, numbered. Each file's
    /// text is decompressed once per catalogue handle (kept by content
    /// hash), and the lines are found through an index of line starts.
    pub fn excerpt(
        &self,
        snapshot_id: i64,
        path: &str,
        start: u32,
        end: u32,
    ) -> Result<Vec<(u32, String)>> {
        let hash: Option<String> = self.conn.query_opt(
            "SELECT hash FROM files WHERE snapshot_id = ?1 AND path = ?2",
            args![snapshot_id, path],
            |r| r.get(0),
        )?;
        let Some(hash) = hash else {
            return Ok(Vec::new());
        };
        let kept = self
            .texts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&hash)
            .cloned();
        let lines = match kept {
            Some(l) => l,
            None => {
                let found: Option<(Vec<u8>, i64, i64)> = self.conn.query_opt(
                    "SELECT p.data, c.\"offset\", c.len FROM contents c
                     JOIN packs p ON p.id = c.pack_id WHERE c.hash = ?1",
                    args![hash],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )?;
                let Some((data, offset, len)) = found else {
                    return Ok(Vec::new());
                };
                let text = blob::unpack(&data, offset as usize, len as usize)?;
                let lines = std::sync::Arc::new(Lines::new(text));
                let mut texts = self.texts.lock().unwrap_or_else(|e| e.into_inner());
                if texts.len() >= crate::TEXTS_KEPT {
                    texts.clear();
                }
                texts.insert(hash, lines.clone());
                lines
            }
        };
        Ok(lines.range(start, end))
    }

    /// Row counts of the main tables, for summaries and tests.
    pub fn counts(&self) -> Result<Counts> {
        let q = |sql: &str| -> Result<u64> { self.conn.query_one(sql, args![], |r| r.get(0)) };
        Ok(Counts {
            snapshots: q("SELECT COUNT(*) FROM snapshots")?,
            errors: q("SELECT COUNT(*) FROM errors")?,
            sites: q("SELECT COUNT(*) FROM sites")?,
            literals: q("SELECT COUNT(*) FROM literals")?,
            texts: q("SELECT COUNT(*) FROM contents")?,
            text_packs: q("SELECT COUNT(*) FROM packs")?,
            cached: q("SELECT COUNT(*) FROM file_cache")?,
            cache_packs: q("SELECT COUNT(*) FROM cache_packs")?,
            consistent: q("SELECT COUNT(*) FROM snapshots sn WHERE sn.site_count <>
                           (SELECT COUNT(*) FROM sites s WHERE s.snapshot_id = sn.id)")?
                == 0,
        })
    }
}

/// Row counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Snapshots.
    pub snapshots: u64,
    /// Errors.
    pub errors: u64,
    /// Sites.
    pub sites: u64,
    /// Free literals.
    pub literals: u64,
    /// Stored file texts (one per content).
    pub texts: u64,
    /// Packs holding them.
    pub text_packs: u64,
    /// Per-file extraction results kept for reuse.
    pub cached: u64,
    /// Packs holding them.
    pub cache_packs: u64,
    /// Every snapshot holds exactly the sites it says it has.
    pub consistent: bool,
}

impl Catalog {
    /// Every (error, snapshot) pair with its sites, for the matcher's index;
    /// `only` restricts to these `(repo, revision)` pairs, `range` to these
    /// snapshots.
    fn match_entries(
        &self,
        only: Option<&[(String, String)]>,
        range: Snapshots,
    ) -> Result<Vec<MatchEntry>> {
        let mut out: Vec<MatchEntry> = Vec::new();
        let mut templates: std::collections::HashMap<String, Template> =
            std::collections::HashMap::new();
        self.conn.query_each(
            "SELECT e.id, r.slug, sn.revision, e.kind, e.template, e.item_path,
                    s.path, s.line, s.end_line, s.report_line, s.report_col, s.reported_at_caller, s.is_test,
                    sn.id
             FROM sites s
             JOIN snapshots sn ON sn.id = s.snapshot_id
             JOIN repos r ON r.id = sn.repo_id
             JOIN errors e ON e.id = s.error_id
             WHERE sn.id > ?1 AND sn.id <= ?2
             ORDER BY sn.id, e.id, s.path, s.line",
            args![range.after, range.upto],
            |r| {
            let id: String = r.get(0)?;
            let repo: String = r.get(1)?;
            let revision: String = r.get(2)?;
            if let Some(only) = only {
                if !only.iter().any(|(a, b)| *a == repo && *b == revision) {
                    return Ok(());
                }
            }
            let site = MatchSite {
                path: r.get(6)?,
                line: r.get(7)?,
                end_line: r.get(8)?,
                report_line: r.get(9)?,
                report_column: r.get(10)?,
                reported_at_caller: r.get(11)?,
                is_test: r.get(12)?,
            };
            if let Some(last) = out.last_mut() {
                if last.id == id && last.repo == repo && last.revision == revision {
                    last.sites.push(site);
                    return Ok(());
                }
            }
            let json: String = r.get(4)?;
            let template = match templates.get(&json) {
                Some(t) => t.clone(),
                None => {
                    let t = template_of(json.clone())?;
                    templates.insert(json, t.clone());
                    t
                }
            };
            out.push(MatchEntry {
                id,
                repo,
                revision,
                snapshot_id: r.get(13)?,
                kind: kind_of(r.get(3)?)?,
                template,
                item_path: r.get(5)?,
                sites: vec![site],
            });
            Ok(())
            },
        )?;
        Ok(out)
    }
}

/// Snapshots by row id: those after `after`, up to `upto` (both row ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Snapshots {
    /// Row ids above this one.
    pub after: i64,
    /// Row ids up to this one.
    pub upto: i64,
}

impl Snapshots {
    /// Every snapshot.
    pub const ALL: Snapshots = Snapshots {
        after: i64::MIN,
        upto: i64::MAX,
    };
}

impl Catalog {
    /// Each snapshot's dependencies (by row id), where known.
    pub fn snapshot_deps(&self) -> Result<std::collections::HashMap<i64, Vec<String>>> {
        let mut out = std::collections::HashMap::new();
        self.conn.query_each(
            "SELECT id, deps FROM snapshots WHERE deps IS NOT NULL",
            args![],
            |r| {
                let deps: String = r.get(1)?;
                out.insert(
                    r.get::<i64>(0)?,
                    deps.split_whitespace().map(str::to_string).collect(),
                );
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// Everything the matcher's index is built from (optionally only
    /// `only`'s `(repo, revision)` pairs; dependencies of every snapshot).
    pub fn match_data(&self, only: Option<&[(String, String)]>) -> Result<MatchData> {
        self.match_data_in(only, Snapshots::ALL)
    }

    /// [`Catalog::match_data`] of the snapshots in `range` (dependencies
    /// and days of every snapshot): what a base index holds, or the delta
    /// laid on it.
    pub fn match_data_between(&self, range: Snapshots) -> Result<MatchData> {
        self.match_data_in(None, range)
    }

    fn match_data_in(
        &self,
        only: Option<&[(String, String)]>,
        range: Snapshots,
    ) -> Result<MatchData> {
        Ok(MatchData {
            errors: self.match_entries(only, range)?,
            literals: self.literal_entries(only, range)?,
            deps: self.snapshot_deps()?,
            dates: self.snapshot_dates()?,
        })
    }

    /// Each snapshot's publication day (`YYYY-MM-DD`), where known.
    pub fn snapshot_dates(&self) -> Result<std::collections::HashMap<i64, String>> {
        let mut out = std::collections::HashMap::new();
        self.conn.query_each(
            "SELECT id, date FROM snapshots WHERE date IS NOT NULL",
            args![],
            |r| {
                let date: String = r.get(1)?;
                if let Some(day) = date.get(..10) {
                    out.insert(r.get::<i64>(0)?, day.to_string());
                }
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// Every free literal of the snapshots in `range` (optionally of
    /// `only`'s), snapshot after snapshot.
    fn literal_entries(
        &self,
        only: Option<&[(String, String)]>,
        range: Snapshots,
    ) -> Result<Vec<LiteralEntry>> {
        let mut out = Vec::new();
        self.conn.query_each(
            "SELECT r.slug, sn.revision, sn.id, l.path, l.line, l.text, l.is_test
             FROM literals l JOIN snapshots sn ON sn.id = l.snapshot_id JOIN repos r ON r.id = sn.repo_id
             WHERE sn.id > ?1 AND sn.id <= ?2
             ORDER BY l.snapshot_id, l.path, l.line, l.col",
            args![range.after, range.upto],
            |r| {
                let row = LiteralEntry {
                    repo: r.get(0)?,
                    revision: r.get(1)?,
                    snapshot_id: r.get(2)?,
                    path: r.get(3)?,
                    line: r.get(4)?,
                    text: r.get(5)?,
                    is_test: r.get(6)?,
                };
                if only.is_none_or(|o| o.iter().any(|(a, b)| *a == row.repo && *b == row.revision)) {
                    out.push(row);
                }
                Ok(())
            },
        )?;
        Ok(out)
    }
}

impl Catalog {
    /// True when `repo@revision` is indexed by the extractor build
    /// `fingerprint` (a snapshot an older build extracted may miss sites
    /// this one finds: it is indexed again).
    pub fn has_current_snapshot(
        &self,
        repo: &str,
        revision: &str,
        fingerprint: &str,
    ) -> Result<bool> {
        Ok(self
            .conn
            .query_opt(
                "SELECT 1 FROM snapshots sn JOIN repos r ON r.id = sn.repo_id
                 WHERE r.slug = ?1 AND sn.revision = ?2 AND sn.extractor = ?3",
                args![repo, revision, fingerprint],
                |_| Ok(()),
            )?
            .is_some())
    }

    /// True when `repo@revision` is indexed.
    pub fn has_snapshot(&self, repo: &str, revision: &str) -> Result<bool> {
        Ok(self
            .conn
            .query_opt(
                "SELECT 1 FROM snapshots sn JOIN repos r ON r.id = sn.repo_id WHERE r.slug = ?1 AND sn.revision = ?2",
                args![repo, revision],
                |_| Ok(()),
            )?
            .is_some())
    }
}

/// A source text with the byte offset of each line's start.
pub(crate) struct Lines {
    text: String,
    starts: Vec<usize>,
}

impl Lines {
    fn new(text: String) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1)
                .filter(|&i| i < text.len()),
        );
        if text.is_empty() {
            starts.clear();
        }
        Lines { text, starts }
    }

    /// Lines `start..=end` (1-based), numbered, without line ends (as
    /// `str::lines` gives them).
    fn range(&self, start: u32, end: u32) -> Vec<(u32, String)> {
        let first = start.max(1) as usize;
        let last = (end as usize).min(self.starts.len());
        (first..=last)
            .map(|n| {
                let from = self.starts[n - 1];
                let to = self.starts.get(n).copied().unwrap_or(self.text.len());
                let line = &self.text[from..to];
                let line = match line.strip_suffix('\n') {
                    Some(l) => l.strip_suffix('\r').unwrap_or(l),
                    None => line,
                };
                (n as u32, line.to_string())
            })
            .collect()
    }
}

#[cfg(test)]
mod lines_tests {
    use super::Lines;

    #[test]
    fn ranges_agree_with_str_lines() {
        for text in ["", "a", "a\n", "a\nb", "a\r\nb\r\n\nc", "\n\n", "x\r"] {
            let l = Lines::new(text.to_string());
            for start in 0..5 {
                for end in 0..6 {
                    let want: Vec<(u32, String)> = text
                        .lines()
                        .enumerate()
                        .map(|(i, l)| (i as u32 + 1, l.to_string()))
                        .filter(|(n, _)| *n >= start && *n <= end)
                        .collect();
                    assert_eq!(l.range(start, end), want, "{text:?} {start}..={end}");
                }
            }
        }
    }
}
