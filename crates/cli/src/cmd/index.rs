//! `errdex index SOURCE...`: load, extract, store, summarise.

use crate::Failure;
use errdex_catalog::{Catalog, SnapshotInput};
use errdex_extract::{Extractor, RustExtractor};
use errdex_source::{Snapshot, SourceSpec};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;
use std::time::Instant;

/// What indexing one source did (the `--json` shape).
#[derive(Serialize)]
struct Summary {
    repo: String,
    revision: String,
    date: Option<String>,
    files: usize,
    skipped: BTreeMap<&'static str, usize>,
    sites: usize,
    errors: usize,
    by_kind: BTreeMap<&'static str, usize>,
    test_sites: usize,
    literals: usize,
    syntax_errors: usize,
    replaced: bool,
    seconds: f64,
}

pub fn run(db: &Path, sources: &[String], json: bool) -> Result<u8, Failure> {
    let specs = sources
        .iter()
        .map(|s| SourceSpec::parse(s).map_err(Failure::input))
        .collect::<Result<Vec<_>, _>>()?;
    let extractor = RustExtractor;
    // Opened after the first source loads, so a bad source leaves no file.
    let mut catalog: Option<Catalog> = None;
    for spec in &specs {
        let started = Instant::now();
        let snapshot = load(spec, &extractor)?;
        let catalog = match &mut catalog {
            Some(c) => c,
            None => catalog.insert(Catalog::open(db)?),
        };
        let summary = index_one(catalog, &extractor, snapshot, started)?;
        let mut o = String::new();
        if json {
            let _ = writeln!(
                o,
                "{}",
                serde_json::to_string(&summary).expect("summaries serialise")
            );
        } else {
            print_summary(&mut o, &summary);
        }
        crate::out::print(&o);
    }
    Ok(0)
}

fn load(spec: &SourceSpec, extractor: &RustExtractor) -> Result<Snapshot, Failure> {
    let spinner = ProgressBar::new_spinner();
    spinner.set_message(match spec {
        SourceSpec::Dir(d) => format!("reading {}", d.display()),
        SourceSpec::Crate(c) => format!("fetching crate {} through cargo", c.name),
    });
    spinner.enable_steady_tick(std::time::Duration::from_millis(120));
    let snapshot = errdex_source::load(spec, &|p| extractor.handles(p)).map_err(Failure::input);
    spinner.finish_and_clear();
    snapshot
}

fn index_one(
    catalog: &mut Catalog,
    extractor: &RustExtractor,
    snapshot: Snapshot,
    started: Instant,
) -> Result<Summary, Failure> {
    let bar = ProgressBar::new(snapshot.files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{spinner} extracting {pos}/{len} files {wide_bar} {eta}")
            .expect("static template")
            .progress_chars("=> "),
    );
    let extraction = errdex_extract::extract_all_with(extractor, &snapshot.files, &|_| bar.inc(1));
    bar.set_style(
        ProgressStyle::with_template("{spinner} writing the catalogue").expect("static template"),
    );
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    let written = catalog.replace_snapshot(&SnapshotInput {
        meta: &snapshot.meta,
        files: &snapshot.files,
        extraction: &extraction,
    })?;
    bar.finish_and_clear();
    let mut by_kind = BTreeMap::new();
    for s in &extraction.sites {
        *by_kind.entry(s.kind.as_str()).or_insert(0) += 1;
    }
    let mut skipped = BTreeMap::new();
    for s in &snapshot.skips {
        *skipped.entry(s.reason.as_str()).or_insert(0) += 1;
    }
    Ok(Summary {
        repo: snapshot.meta.repo.clone(),
        revision: snapshot.meta.revision.clone(),
        date: snapshot.meta.date.clone(),
        files: snapshot.files.len(),
        skipped,
        sites: written.sites,
        errors: written.errors,
        by_kind,
        test_sites: extraction.sites.iter().filter(|s| s.is_test).count(),
        literals: extraction.literals.len(),
        syntax_errors: extraction.syntax_errors,
        replaced: written.replaced,
        seconds: started.elapsed().as_secs_f64(),
    })
}

fn print_summary(o: &mut String, s: &Summary) {
    let _ = writeln!(
        o,
        "indexed {}@{}: {} files, {} sites ({} in tests), {} errors, {} literals in {:.2}s{}",
        s.repo,
        s.revision,
        s.files,
        s.sites,
        s.test_sites,
        s.errors,
        s.literals,
        s.seconds,
        if s.replaced {
            " (replaced the previous index of this revision)"
        } else {
            ""
        }
    );
    let kinds: Vec<String> = s.by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
    if !kinds.is_empty() {
        let _ = writeln!(o, "  sites by kind: {}", kinds.join(", "));
    }
    if !s.skipped.is_empty() {
        let skips: Vec<String> = s.skipped.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(o, "  skipped files: {}", skips.join(", "));
    }
    if s.syntax_errors > 0 {
        let _ = writeln!(
            o,
            "  syntax errors: {} (sites extracted from what parsed)",
            s.syntax_errors
        );
    }
}
