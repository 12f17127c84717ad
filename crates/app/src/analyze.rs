//! `analyze`: facts and sections for every error of a repo's newest
//! snapshot (or one error), cached in the catalogue by (error id, facts
//! hash, model); a whole-snapshot run also records its key (analyser,
//! model, limit, the catalogue's snapshots) so that running it again on an
//! unchanged catalogue reads the pages without parsing.

use crate::{AppError, Db, Event, Progress, Result};
use errdex_analyze::{llm::Endpoint, Analysis, Analyzer, Author};
use errdex_catalog::{Catalog, ErrorDetail, Location, SnapshotRow};
use serde::Serialize;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// What to analyse, and with which model.
#[derive(Debug, Clone, Default)]
pub struct AnalyzeOptions {
    /// An OpenAI-compatible server (`http://HOST:PORT/v1`) or `local:PATH.gguf`.
    pub llm: Option<String>,
    /// The model name to ask for.
    pub model: Option<String>,
    /// The key to send, if any.
    pub key: Option<String>,
    /// At most this many errors per repo, library code first.
    pub limit: Option<usize>,
}

/// What `analyze` did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct AnalyzeSummary {
    /// `repo@revision` of each snapshot analysed.
    pub repos: Vec<String>,
    /// Errors analysed.
    pub errors: usize,
    /// Analyses taken from the cache (same facts, same model).
    pub cached: usize,
    /// Snapshots whose facts were gathered (parsed): 0 when every page came
    /// from an unchanged earlier run.
    pub parsed_snapshots: usize,
    /// Errors with at least one concrete trigger fact (test, caller, guard,
    /// asserted condition, constructor).
    pub with_trigger: usize,
    /// Errors with a site outside test code.
    pub library_errors: usize,
    /// Of those, how many have a concrete trigger fact.
    pub library_with_trigger: usize,
    /// Model sections accepted by the verifier.
    pub model_sections_accepted: usize,
    /// Model sections refused.
    pub model_sections_rejected: usize,
    /// Milliseconds per error gathering facts.
    pub facts_ms_per_error: f64,
    /// Milliseconds per error asking the model.
    pub model_ms_per_error: Option<f64>,
    /// Wall time.
    pub seconds: f64,
    /// The cache key of the model (`rules` without one).
    #[serde(skip)]
    pub model: String,
}

/// Analyses `target` (a repo slug or an error id; every repo when `None`)
/// of the catalogue at `db`, storing each analysis.
pub fn analyze(
    db: &Location,
    target: Option<&str>,
    opts: &AnalyzeOptions,
    progress: &dyn Progress,
) -> Result<AnalyzeSummary> {
    let endpoint = match &opts.llm {
        Some(spec) => Some(
            Endpoint::parse(spec, opts.model.as_deref(), opts.key.as_deref())
                .map_err(AppError::input)?,
        ),
        None => None,
    };
    crate::db::check_exists(db)?;
    if let Some(e) = &endpoint {
        errdex_analyze::llm::reachable(e).map_err(AppError::input)?;
    }
    let Db { catalog, .. } = Db::open(db)?;
    let started = Instant::now();
    let work = work(&catalog, target)?;
    let model_name = endpoint
        .as_ref()
        .map(Endpoint::cache_key)
        .unwrap_or_else(|| errdex_catalog::RULES_MODEL.to_string());
    let mut summary = AnalyzeSummary {
        model: model_name.clone(),
        ..Default::default()
    };
    let mut facts_time = Duration::ZERO;
    let mut model_time = Duration::ZERO;
    let mut asked = 0usize;
    let snapshots_state = catalog.snapshots_state()?;
    for (row, only) in work {
        summary.repos.push(format!("{}@{}", row.repo, row.revision));
        // A whole-snapshot run whose key (analyser, model, limit, the
        // catalogue's snapshots) is unchanged gathers the same facts: take
        // each error's page straight from the cache, without parsing.
        let run_key = only
            .is_none()
            .then(|| errdex_analyze::run_key(&model_name, opts.limit, &snapshots_state));
        if let Some(key) = &run_key {
            if let Some(pages) = unchanged_run(&catalog, row.id, &model_name, key)? {
                for (library, a) in pages {
                    summary.errors += 1;
                    summary.cached += 1;
                    tally(&mut summary, &a, library);
                }
                continue;
            }
        }
        let mut pairs = Vec::new();
        let snapshot_id = row.id;
        summary.parsed_snapshots += 1;
        let ids = match only {
            Some(id) => vec![id],
            None => snapshot_ids(&catalog, &row, opts.limit)?,
        };
        let analyzer = analyzer_for(&catalog, row)?;
        progress.event(Event::Analysing { errors: ids.len() });
        for id in ids {
            progress.event(Event::Step);
            let Some(detail) = catalog.error(&id)? else {
                continue;
            };
            let library = detail.sites.iter().any(|s| !s.is_test);
            let t = Instant::now();
            let facts = analyzer.facts(&detail);
            facts_time += t.elapsed();
            summary.errors += 1;
            let hash = errdex_analyze::facts_hash(&facts);
            pairs.push((id.clone(), hash.clone(), library));
            if let Some(json) = catalog.analysis(&id, &hash, &model_name)? {
                summary.cached += 1;
                if let Ok(a) = serde_json::from_str::<Analysis>(&json) {
                    tally(&mut summary, &a, library);
                }
                continue;
            }
            let excerpt = excerpt_of(&catalog, &detail)?;
            let t = Instant::now();
            let a = errdex_analyze::analyze(&analyzer, &detail, facts, endpoint.as_ref(), &excerpt);
            if endpoint.is_some() {
                model_time += t.elapsed();
                asked += 1;
            }
            tally(&mut summary, &a, library);
            let json = serde_json::to_string(&a).expect("analyses serialise");
            catalog.store_analysis(&id, &hash, &model_name, &json)?;
        }
        progress.event(Event::Done);
        if let Some(key) = &run_key {
            catalog.store_analysis_run(snapshot_id, &model_name, key, &pairs)?;
        }
    }
    summary.facts_ms_per_error = ms_per(facts_time, summary.errors);
    summary.model_ms_per_error = (asked > 0).then(|| ms_per(model_time, asked));
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// Which snapshots, and which errors of each (`None`: all of them).
fn work(catalog: &Catalog, target: Option<&str>) -> Result<Vec<(SnapshotRow, Option<String>)>> {
    let mut work = Vec::new();
    match target {
        Some(id) if errdex_model::ErrorId::parse(id).is_some() => {
            let detail = catalog
                .error(id)?
                .ok_or_else(|| AppError::NoSuchError(id.to_string()))?;
            let newest = detail
                .sites
                .first()
                .map(|s| s.snapshot_id)
                .unwrap_or_default();
            let row = catalog
                .snapshot(newest)?
                .ok_or_else(|| AppError::NoSnapshot(id.to_string()))?;
            work.push((row, Some(id.to_string())));
        }
        Some(repo) => {
            let row = catalog
                .newest_snapshot(repo)?
                .ok_or_else(|| AppError::NoSuchRepo(repo.to_string()))?;
            work.push((row, None));
        }
        None => {
            for r in catalog.repos()? {
                if let Some(row) = catalog.newest_snapshot(&r.slug)? {
                    work.push((row, None));
                }
            }
        }
    }
    Ok(work)
}

/// The errors of a snapshot to analyse: derived-`Debug` shapes left out
/// (declarations, not places that raise errors: their pages are made on
/// demand), at most `limit`, library errors first.
fn snapshot_ids(catalog: &Catalog, row: &SnapshotRow, limit: Option<usize>) -> Result<Vec<String>> {
    let mut ids = catalog.snapshot_error_ids(row.id)?;
    let listed = catalog.list_errors(Some(&row.repo), None)?;
    let shapes: HashSet<&str> = listed
        .iter()
        .filter(|e| e.kind.is_debug_shape())
        .map(|e| e.id.as_str())
        .collect();
    ids.retain(|id| !shapes.contains(id.as_str()));
    if let Some(n) = limit {
        // Library errors first (stable within each group).
        let tests: HashSet<&str> = listed
            .iter()
            .filter(|e| e.is_test)
            .map(|e| e.id.as_str())
            .collect();
        ids.sort_by_key(|id| tests.contains(id.as_str()));
        ids.truncate(n);
    }
    Ok(ids)
}

/// The cached pages of the last whole-snapshot run of `snapshot_id` with
/// `model`, each with whether its error has a site in library code, when
/// that run had this `key` and every page is still in the cache.
fn unchanged_run(
    catalog: &Catalog,
    snapshot_id: i64,
    model: &str,
    key: &str,
) -> Result<Option<Vec<(bool, Analysis)>>> {
    let Some((stored, pairs)) = catalog.analysis_run(snapshot_id, model)? else {
        return Ok(None);
    };
    if stored != key {
        return Ok(None);
    }
    let mut pages = Vec::with_capacity(pairs.len());
    for (id, hash, library) in pairs {
        let Some(json) = catalog.analysis(&id, &hash, model)? else {
            return Ok(None);
        };
        let Ok(a) = serde_json::from_str::<Analysis>(&json) else {
            return Ok(None);
        };
        pages.push((library, a));
    }
    Ok(Some(pages))
}

fn tally(s: &mut AnalyzeSummary, a: &Analysis, library: bool) {
    if a.has_trigger() {
        s.with_trigger += 1;
    }
    if library {
        s.library_errors += 1;
        if a.has_trigger() {
            s.library_with_trigger += 1;
        }
    }
    s.model_sections_accepted += a
        .sections
        .iter()
        .filter(|x| matches!(x.author, Author::Model { .. }))
        .count();
    s.model_sections_rejected += a.provenance.rejected.len();
}

fn ms_per(d: Duration, n: usize) -> f64 {
    (d.as_secs_f64() * 1e3 / n.max(1) as f64 * 100.0).round() / 100.0
}

/// The excerpt of an error's first site, as numbered lines.
fn excerpt_of(catalog: &Catalog, e: &ErrorDetail) -> Result<String> {
    let Some(s) = e.sites.first() else {
        return Ok(String::new());
    };
    let lines = catalog.excerpt(s.snapshot_id, &s.path, s.excerpt_start, s.excerpt_end)?;
    Ok(lines
        .into_iter()
        .map(|(n, l)| format!("{n:>5} | {l}"))
        .collect::<Vec<_>>()
        .join("\n"))
}

/// A snapshot's files and errors, read from the catalogue and parsed once
/// for all its errors (the analysis itself reads nothing).
pub(crate) fn analyzer_for(catalog: &Catalog, row: SnapshotRow) -> Result<Analyzer> {
    let files = catalog.snapshot_files(row.id)?;
    let errors = catalog.list_errors(Some(&row.repo), None)?;
    Ok(Analyzer::new(row, files, errors))
}

/// The analysis to show for an error: one cached for the facts the code
/// gives now (a model's first, else the rules'), else one made now by the
/// rules (not stored: pages read the catalogue only).
pub(crate) fn current(
    catalog: &Catalog,
    analyzer: &Analyzer,
    error: &ErrorDetail,
) -> Result<Analysis> {
    let facts = analyzer.facts(error);
    let hash = errdex_analyze::facts_hash(&facts);
    if let Some(json) = catalog.current_analysis(&error.id, &hash)? {
        if let Ok(a) = serde_json::from_str::<Analysis>(&json) {
            return Ok(a);
        }
    }
    Ok(errdex_analyze::analyze(analyzer, error, facts, None, ""))
}
