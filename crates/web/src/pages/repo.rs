//! A repo's page: its newest snapshot's errors by file and kind, filtered.

use super::{error_path, PageError};
use askama::Template;
use errdex_app::Db;
use std::collections::BTreeMap;

struct ErrorLink {
    url: String,
    template: String,
    line: u32,
    is_test: bool,
}

struct KindGroup {
    kind: String,
    errors: Vec<ErrorLink>,
}

struct FileGroup {
    path: String,
    kinds: Vec<KindGroup>,
}

struct KindOption {
    name: String,
    count: usize,
    selected: bool,
}

#[derive(Template)]
#[template(path = "repo.html")]
struct Repo {
    slug: String,
    revision: String,
    total: usize,
    shown: usize,
    kinds: Vec<KindOption>,
    q: String,
    tests: bool,
    files: Vec<FileGroup>,
}

/// A repo's page: its newest snapshot's errors by file and kind, filtered.
pub fn repo(
    c: &Db,
    slug: &str,
    kind: Option<&str>,
    q: Option<&str>,
    tests: bool,
) -> Result<String, PageError> {
    let all = c.list(Some(slug), None)?;
    let Some(first) = all.first() else {
        return Err(PageError::NotFound(format!(
            "No repository `{slug}` is indexed."
        )));
    };
    let revision = first.revision.clone();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for e in &all {
        *counts.entry(e.kind.as_str().to_string()).or_insert(0) += 1;
    }
    let kind = kind.filter(|k| !k.is_empty());
    let q = q.unwrap_or("").trim().to_lowercase();
    let mut files: BTreeMap<String, BTreeMap<String, Vec<ErrorLink>>> = BTreeMap::new();
    let mut shown = 0;
    for e in &all {
        if kind.is_some_and(|k| k != e.kind.as_str())
            || (!tests && e.is_test)
            || (!q.is_empty() && !e.template.to_lowercase().contains(&q))
        {
            continue;
        }
        shown += 1;
        files
            .entry(e.path.clone())
            .or_default()
            .entry(e.kind.as_str().to_string())
            .or_default()
            .push(ErrorLink {
                url: error_path(&e.id),
                template: e.template.clone(),
                line: e.line,
                is_test: e.is_test,
            });
    }
    Ok(Repo {
        slug: slug.to_string(),
        revision,
        total: all.len(),
        shown,
        kinds: counts
            .into_iter()
            .map(|(name, count)| KindOption {
                selected: kind == Some(name.as_str()),
                name,
                count,
            })
            .collect(),
        q,
        tests,
        files: files
            .into_iter()
            .map(|(path, kinds)| FileGroup {
                path,
                kinds: kinds
                    .into_iter()
                    .map(|(kind, errors)| KindGroup { kind, errors })
                    .collect(),
            })
            .collect(),
    }
    .render()?)
}
