//! `errdex analyze [REPO | ID]`: facts and sections for every error of a
//! repo's newest snapshot (or one error), cached in the catalogue by
//! (error id, facts hash, model); a whole-snapshot run also records its key
//! (analyser, model, limit, the catalogue's snapshots) so that running it
//! again on an unchanged catalogue reads the pages without parsing.

use crate::Failure;
use errdex_analyze::{llm::Endpoint, Analysis, Author};
use errdex_catalog::{Catalog, ErrorDetail, SnapshotRow};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// The model flags and how many errors.
pub struct Options {
    /// `--llm`.
    pub llm: Option<String>,
    /// `--model` (else `$ERRDEX_LLM_MODEL`).
    pub model: Option<String>,
    /// `--limit`: at most this many errors per repo, library code first.
    pub limit: Option<usize>,
}

/// What `analyze` did (its `--json` line).
#[derive(Serialize, Default)]
struct Summary {
    repos: Vec<String>,
    errors: usize,
    /// Analyses taken from the cache (same facts, same model).
    cached: usize,
    /// Snapshots whose facts were gathered (parsed): 0 when every page came
    /// from an unchanged earlier run.
    parsed_snapshots: usize,
    /// Errors with at least one concrete trigger fact (test, caller, guard,
    /// asserted condition, constructor).
    with_trigger: usize,
    /// Errors with a site outside test code, and how many of those have a
    /// concrete trigger fact.
    library_errors: usize,
    library_with_trigger: usize,
    /// Model sections accepted by the verifier, and refused.
    model_sections_accepted: usize,
    model_sections_rejected: usize,
    /// Milliseconds per error gathering facts, and asking the model.
    facts_ms_per_error: f64,
    model_ms_per_error: Option<f64>,
    seconds: f64,
}

pub fn run(db: &Path, target: Option<&str>, opts: &Options, json: bool) -> Result<u8, Failure> {
    let endpoint = match &opts.llm {
        Some(spec) => Some(
            Endpoint::parse(
                spec,
                opts.model
                    .clone()
                    .or_else(|| std::env::var("ERRDEX_LLM_MODEL").ok())
                    .as_deref(),
                std::env::var("ERRDEX_LLM_KEY").ok().as_deref(),
            )
            .map_err(Failure::input)?,
        ),
        None => None,
    };
    if !db.exists() {
        return Err(Failure::input(format!(
            "no catalogue at {}: run `errdex index` first",
            db.display()
        )));
    }
    if let Some(e) = &endpoint {
        errdex_analyze::llm::reachable(e).map_err(Failure::input)?;
    }
    let catalog = Catalog::open(db)?;
    let started = Instant::now();
    // Which snapshots, and which errors of each.
    let mut work: Vec<(SnapshotRow, Option<String>)> = Vec::new();
    match target {
        Some(id) if errdex_model::ErrorId::parse(id).is_some() => {
            let detail = catalog.error(id)?.ok_or_else(|| Failure {
                code: 1,
                message: format!("no error {id} in the catalogue"),
            })?;
            let newest = detail
                .sites
                .first()
                .map(|s| s.snapshot_id)
                .unwrap_or_default();
            let row = catalog
                .snapshot(newest)?
                .ok_or_else(|| Failure::input(format!("error {id} has no snapshot")))?;
            work.push((row, Some(id.to_string())));
        }
        Some(repo) => {
            let row = catalog.newest_snapshot(repo)?.ok_or_else(|| {
                Failure::input(format!(
                    "no repo `{repo}` in the catalogue (see `errdex list`)"
                ))
            })?;
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
    let model_name = endpoint
        .as_ref()
        .map(Endpoint::cache_key)
        .unwrap_or_else(|| errdex_catalog::RULES_MODEL.to_string());
    let mut summary = Summary::default();
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
            None => {
                let mut ids = catalog.snapshot_error_ids(row.id)?;
                let listed = catalog.list_errors(Some(&row.repo), None)?;
                // Derived-`Debug` shapes are declarations, not places that
                // raise errors: their pages are made on demand by `show`.
                let shapes: std::collections::HashSet<&str> = listed
                    .iter()
                    .filter(|e| e.kind.is_debug_shape())
                    .map(|e| e.id.as_str())
                    .collect();
                ids.retain(|id| !shapes.contains(id.as_str()));
                if let Some(n) = opts.limit {
                    // Library errors first (stable within each group).
                    let tests: std::collections::HashSet<&str> = listed
                        .iter()
                        .filter(|e| e.is_test)
                        .map(|e| e.id.as_str())
                        .collect();
                    ids.sort_by_key(|id| tests.contains(id.as_str()));
                    ids.truncate(n);
                }
                ids
            }
        };
        let analyzer = errdex_analyze::analyzer_for(&catalog, row)?;
        let bar = ProgressBar::new(ids.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{spinner} analysing {pos}/{len} errors {wide_bar} {eta}")
                .expect("static template"),
        );
        for id in ids {
            bar.inc(1);
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
        bar.finish_and_clear();
        if let Some(key) = &run_key {
            catalog.store_analysis_run(snapshot_id, &model_name, key, &pairs)?;
        }
    }
    summary.facts_ms_per_error = ms_per(facts_time, summary.errors);
    summary.model_ms_per_error = (asked > 0).then(|| ms_per(model_time, asked));
    summary.seconds = started.elapsed().as_secs_f64();
    let mut o = String::new();
    if json {
        let _ = writeln!(
            o,
            "{}",
            serde_json::to_string(&summary).expect("summaries serialise")
        );
    } else {
        let _ = writeln!(
            o,
                        "analysed {} errors of {} ({} from the cache) in {:.2}s: {} with a concrete trigger fact ({:.0}%; library code: {} of {}), facts {:.1} ms per error",
            summary.errors,
            summary.repos.join(", "),
            summary.cached,
            summary.seconds,
            summary.with_trigger,
                        100.0 * summary.with_trigger as f64 / summary.errors.max(1) as f64,
            summary.library_with_trigger,
            summary.library_errors,
            summary.facts_ms_per_error,
        );
        if let Some(ms) = summary.model_ms_per_error {
            let _ = writeln!(
                o,
                "  model {model_name}: {} sections accepted, {} refused by the verifier, {ms:.0} ms per error",
                summary.model_sections_accepted, summary.model_sections_rejected
            );
        }
    }
    crate::out::emit(&o, json);
    Ok(0)
}

/// The cached pages of the last whole-snapshot run of `snapshot_id` with
/// `model`, each with whether its error has a site in library code, when
/// that run had this `key` and every page is still in the cache.
fn unchanged_run(
    catalog: &Catalog,
    snapshot_id: i64,
    model: &str,
    key: &str,
) -> Result<Option<Vec<(bool, Analysis)>>, Failure> {
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

fn tally(s: &mut Summary, a: &Analysis, library: bool) {
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
fn excerpt_of(catalog: &Catalog, e: &ErrorDetail) -> Result<String, Failure> {
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

/// The analysis of an error for `show`, made from its newest snapshot.
pub fn current(catalog: &Catalog, e: &ErrorDetail) -> Result<Analysis, Failure> {
    let newest = e.sites.first().map(|s| s.snapshot_id).unwrap_or_default();
    let row = catalog
        .snapshot(newest)?
        .ok_or_else(|| Failure::input(format!("error {} has no snapshot", e.id)))?;
    let analyzer = errdex_analyze::analyzer_for(catalog, row)?;
    Ok(errdex_analyze::current(catalog, &analyzer, e)?)
}
