//! The error record: everything an error's page shows, one shape for
//! `errdex show --json` and `GET /api/errors/{id}` (the web server adds
//! the page's `url` and `repo_url`).

use crate::{AppError, Db, Result};
use errdex_analyze::{Analysis, Analyzer};
use errdex_catalog::{ErrorDetail, EvidenceRow, SiteRow};
use errdex_model::{ErrorId, Kind, Mechanism, Origin, Template};
use serde::Serialize;
use std::sync::{Arc, Mutex};

/// Sites in one page of a record read by pages.
pub const SITES_PER_PAGE: usize = 500;

/// Which of an error's sites a record holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sites {
    /// Every site (`errdex show`).
    All,
    /// Page N (from 1; past the last, the last) of [`SITES_PER_PAGE`].
    Page(usize),
}

/// One line of an excerpt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExcerptLine {
    /// Line number.
    pub line: u32,
    /// Its text.
    pub text: String,
}

/// A site with its excerpt and forge link.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SiteRecord {
    /// The site.
    #[serde(flatten)]
    pub site: SiteRow,
    /// The code around it.
    pub excerpt: Vec<ExcerptLine>,
    /// The site on its forge, pinned to the commit (GitHub, GitLab).
    pub forge_url: Option<String>,
}

/// One revision holding an error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Version {
    /// The revision.
    pub revision: String,
    /// The lines a report names in it.
    pub lines: Vec<u32>,
}

/// An error with all it is known by.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ErrorRecord {
    /// Stable id.
    pub id: String,
    /// The page's URL (web only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Repo slug.
    pub repo: String,
    /// The repo page's URL (web only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repo_url: Option<String>,
    /// The repo's remote.
    pub remote: Option<String>,
    /// Language.
    pub language: String,
    /// Kind: the language's construct.
    pub kind: Kind,
    /// The kind's language-neutral mechanism.
    pub mechanism: Mechanism,
    /// Template as text.
    pub template: String,
    /// Template as pieces.
    pub pieces: Template,
    /// Enclosing item.
    pub item_path: String,
    /// The sites asked for, newest snapshot first.
    pub sites: Vec<SiteRecord>,
    /// Sites in all.
    pub sites_total: usize,
    /// The page of sites held (1 when all are).
    pub page: usize,
    /// Pages of sites (1 when all are held).
    pub pages: usize,
    /// Evidence.
    pub evidence: Vec<EvidenceRow>,
    /// Where the message came from, as of the newest snapshot with history.
    pub origin: Option<Origin>,
    /// Each indexed revision holding the error, oldest first.
    pub versions: Vec<Version>,
    /// Facts, sections and provenance.
    pub analysis: Analysis,
    /// The site a page shows first: the newest snapshot's, library code
    /// before test code (not part of the JSON record).
    #[serde(skip)]
    pub shown: Option<SiteRecord>,
}

/// Parsed snapshots, kept for the next error of the same snapshot.
pub struct Analyzers {
    kept: Mutex<Vec<(i64, Arc<Analyzer>)>>,
    max: usize,
}

impl Analyzers {
    /// A cache of at most `max` parsed snapshots (at least one).
    pub fn new(max: usize) -> Self {
        Analyzers {
            kept: Mutex::new(Vec::new()),
            max: max.max(1),
        }
    }

    /// Forgets every parsed snapshot (the catalogue changed).
    pub fn clear(&self) {
        self.kept.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }

    /// The parsed snapshot `snapshot_id`, from the cache or parsed now.
    fn get(&self, db: &Db, snapshot_id: i64) -> Result<Option<Arc<Analyzer>>> {
        {
            let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((_, a)) = kept.iter().find(|(id, _)| *id == snapshot_id) {
                return Ok(Some(a.clone()));
            }
        }
        let Some(row) = db.catalog.snapshot(snapshot_id)? else {
            return Ok(None);
        };
        let a = Arc::new(crate::analyze::analyzer_for(&db.catalog, row)?);
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if kept.len() >= self.max {
            kept.remove(0);
        }
        kept.push((snapshot_id, a.clone()));
        Ok(Some(a))
    }
}

/// The revisions of an error's sites, oldest first (sites come newest
/// snapshot first).
fn versions(error: &ErrorDetail) -> Vec<Version> {
    let mut out: Vec<Version> = Vec::new();
    for s in error.sites.iter().rev() {
        match out.last_mut() {
            Some(v) if v.revision == s.revision => v.lines.push(s.report_line),
            _ => out.push(Version {
                revision: s.revision.clone(),
                lines: vec![s.report_line],
            }),
        }
    }
    out
}

impl Db {
    /// The record of error `id` with the sites asked for, its analysis (a
    /// cached one for the facts the code gives now, else one made by the
    /// rules now and not stored) made from its newest snapshot.
    pub fn error_record(
        &self,
        analyzers: &Analyzers,
        id: &str,
        sites: Sites,
    ) -> Result<ErrorRecord> {
        if ErrorId::parse(id).is_none() {
            return Err(AppError::NotAnId(id.to_string()));
        }
        let Some(error) = self.catalog.error(id)? else {
            return Err(AppError::NoSuchError(id.to_string()));
        };
        let newest = error
            .sites
            .first()
            .map(|s| s.snapshot_id)
            .unwrap_or_default();
        let analyzer = analyzers
            .get(self, newest)?
            .ok_or_else(|| AppError::NoSnapshot(id.to_string()))?;
        let analysis = crate::analyze::current(&self.catalog, &analyzer, &error)?;
        let total = error.sites.len();
        let (page, pages, held) = match sites {
            Sites::All => (1, 1, &error.sites[..]),
            Sites::Page(n) => {
                let pages = total.div_ceil(SITES_PER_PAGE).max(1);
                let page = n.clamp(1, pages);
                let from = ((page - 1) * SITES_PER_PAGE).min(total);
                let to = (from + SITES_PER_PAGE).min(total);
                (page, pages, &error.sites[from..to])
            }
        };
        let records = held
            .iter()
            .map(|s| self.site_record(&error, s))
            .collect::<Result<Vec<_>>>()?;
        let shown = error
            .sites
            .iter()
            .filter(|s| s.snapshot_id == newest)
            .min_by_key(|s| s.is_test)
            .map(|s| self.site_record(&error, s))
            .transpose()?;
        let versions = versions(&error);
        let ErrorDetail {
            id,
            repo,
            remote,
            language,
            kind,
            template,
            pieces,
            item_path,
            sites: _,
            evidence,
            origin,
        } = error;
        Ok(ErrorRecord {
            id,
            url: None,
            repo,
            repo_url: None,
            remote,
            language,
            kind,
            mechanism: kind.mechanism(),
            template,
            pieces,
            item_path,
            sites: records,
            sites_total: total,
            page,
            pages,
            evidence,
            origin,
            versions,
            analysis,
            shown,
        })
    }

    fn site_record(&self, error: &ErrorDetail, s: &SiteRow) -> Result<SiteRecord> {
        let forge_url = match (&error.remote, &s.vcs) {
            (Some(remote), Some(vcs)) => {
                errdex_model::forge_link(remote, vcs, &s.path, s.report_line)
            }
            _ => None,
        };
        let excerpt = self
            .catalog
            .excerpt(s.snapshot_id, &s.path, s.excerpt_start, s.excerpt_end)?
            .into_iter()
            .map(|(line, text)| ExcerptLine { line, text })
            .collect();
        Ok(SiteRecord {
            site: s.clone(),
            excerpt,
            forge_url,
        })
    }
}
