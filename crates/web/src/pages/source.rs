//! A stored file of one snapshot, every line numbered and anchored
//! (`#L42`): where a page's citations point, pinned to the revision the
//! analysis read, also for sources that have no forge.

use super::{percent_query, repo_path, PageError};
use crate::highlight::{self, Grammar};
use askama::Template;
use errdex_app::Db;

/// Files longer than this are shown without highlighting (it would cost
/// more than the page is worth).
const MAX_HIGHLIGHTED_LINES: usize = 20_000;

struct LineView {
    number: u32,
    html: String,
}

#[derive(Template)]
#[template(path = "source.html")]
struct SourcePage {
    repo: String,
    repo_url: String,
    revision: String,
    path: String,
    lines: Vec<LineView>,
}

/// The URL path of line `line` of `path` in `repo@revision`.
pub fn source_url(repo: &str, revision: &str, path: &str, line: u32) -> String {
    format!(
        "/source?repo={}&rev={}&path={}#L{line}",
        percent_query(repo),
        percent_query(revision),
        percent_query(path)
    )
}

/// The page of `path` in `repo@revision`.
pub fn source_page(c: &Db, repo: &str, revision: &str, path: &str) -> Result<String, PageError> {
    let Some(lines) = c.source(repo, revision, path, 1, u32::MAX)? else {
        return Err(PageError::NotFound(format!(
            "No file `{path}` is stored for {repo}@{revision}."
        )));
    };
    let grammar = if lines.len() <= MAX_HIGHLIGHTED_LINES {
        Grammar::of(path, "")
    } else {
        Grammar::Plain
    };
    let code = lines
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let lines = lines
        .iter()
        .zip(highlight::lines(&code, grammar))
        .map(|((number, _), html)| LineView {
            number: *number,
            html,
        })
        .collect();
    Ok(SourcePage {
        repo_url: repo_path(repo),
        repo: repo.to_string(),
        revision: revision.to_string(),
        path: path.to_string(),
        lines,
    }
    .render()?)
}

#[cfg(test)]
mod tests {
    use super::source_url;

    #[test]
    fn source_urls_escape_every_part() {
        assert_eq!(
            source_url("crate:a b", "1.0&x", "src/a#b.rs", 7),
            "/source?repo=crate%3Aa%20b&rev=1.0%26x&path=src%2Fa%23b.rs#L7"
        );
    }
}
