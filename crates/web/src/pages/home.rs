//! The home page: search, explain, repos.

use super::{repo_path, PageError};
use askama::Template;
use errdex_app::Db;

struct RepoLink {
    slug: String,
    url: String,
    errors: u64,
    revisions: usize,
}

#[derive(Template)]
#[template(path = "home.html")]
struct Home {
    repos: Vec<RepoLink>,
}

/// The home page: search, explain, repos.
pub fn home(c: &Db) -> Result<String, PageError> {
    let repos = c
        .repos()?
        .into_iter()
        .map(|r| RepoLink {
            url: repo_path(&r.slug),
            slug: r.slug,
            errors: r.errors,
            revisions: r.revisions.len(),
        })
        .collect();
    Ok(Home { repos }.render()?)
}
