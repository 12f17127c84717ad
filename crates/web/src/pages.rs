//! HTML pages, rendered from the catalogue with auto-escaping templates.

use crate::highlight;
use crate::state::State;
use askama::Template;
use errdex_analyze::{Author, FactKind, SectionName};
use errdex_app::{AppError, Db, ErrorRecord, ExplainRecord, Sites};
use std::collections::BTreeMap;

/// What a page handler can fail with.
#[derive(Debug)]
pub enum PageError {
    /// 404, with what was missing.
    NotFound(String),
    /// 400, with why.
    Bad(String),
    /// 500 (the catalogue failed).
    Internal(String),
}

impl From<AppError> for PageError {
    fn from(e: AppError) -> Self {
        match e {
            AppError::NotAnId(id) => PageError::NotFound(format!("`{id}` is not an error id.")),
            AppError::NoSuchError(id) => PageError::NotFound(format!("No error {id} is indexed.")),
            AppError::NoSuchRepo(slug) => {
                PageError::NotFound(format!("No repository `{slug}` is indexed."))
            }
            AppError::Input(why) => PageError::Bad(why),
            e => PageError::Internal(e.to_string()),
        }
    }
}

impl From<askama::Error> for PageError {
    fn from(e: askama::Error) -> Self {
        PageError::Internal(e.to_string())
    }
}

/// Escaped text with `` `code` `` spans turned into `<code>`.
pub fn inline_code(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str("<code>");
            out.push_str(&highlight::escape(part));
            out.push_str("</code>");
        } else {
            out.push_str(&highlight::escape(part));
        }
    }
    out
}

/// An error's page URL path.
pub fn error_path(id: &str) -> String {
    format!("/errors/{id}")
}

/// A repo's page URL path (slugs hold `/` and `:`, kept as they are).
pub fn repo_path(slug: &str) -> String {
    format!("/repos/{}", percent_path(slug))
}

/// Percent-encodes what a path (slashes, `:` and `@` kept) cannot hold.
fn percent_path(s: &str) -> String {
    percent(s, b"/:@")
}

/// Percent-encodes a query value.
pub fn percent_query(s: &str) -> String {
    percent(s, b"")
}

/// Percent-encodes all but unreserved characters and `keep`.
fn percent(s: &str, keep: &[u8]) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) || keep.contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

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

struct Piece {
    hole: bool,
    text: String,
}

struct SentenceView {
    html: String,
    facts: Vec<String>,
}

struct SectionView {
    id: &'static str,
    title: &'static str,
    by: String,
    numbered: bool,
    sentences: Vec<SentenceView>,
    code: Option<Vec<String>>,
}

struct RelatedView {
    url: String,
    template: String,
    why: String,
}

struct FactView {
    id: String,
    html: String,
    at: String,
}

struct LineView {
    number: u32,
    html: String,
    marked: bool,
}

struct SiteView {
    path: String,
    line: u32,
    revision: String,
    is_test: bool,
    forge_url: Option<String>,
}

/// A link to another page of an error's sites.
struct PageLink {
    number: usize,
    url: String,
    current: bool,
}

struct VersionView {
    revision: String,
    lines: String,
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage {
    title: String,
    description: String,
    canonical: String,
    repo: String,
    repo_url: String,
    message_line: String,
    pieces: Vec<Piece>,
    kind: String,
    item: String,
    sections: Vec<SectionView>,
    related: Vec<RelatedView>,
    facts: Vec<FactView>,
    short_rev: String,
    date: Option<String>,
    made_by: String,
    json_url: String,
    json_path: String,
    report_url: Option<String>,
    site_path: String,
    site_line: u32,
    excerpt: Vec<LineView>,
    forge_url: Option<String>,
    sites: Vec<SiteView>,
    sites_total: usize,
    site_pages: Vec<PageLink>,
    versions: Vec<VersionView>,
    origin: Option<String>,
}

/// An error's record with page `page` of its sites.
pub fn error_data(state: &State, c: &Db, id: &str, page: usize) -> Result<ErrorRecord, PageError> {
    Ok(c.error_record(&state.analyzers, id, Sites::Page(page))?)
}

fn short(rev: &str) -> &str {
    rev.get(..12).unwrap_or(rev)
}

/// The GitHub or GitLab project of a remote, for "Report an issue".
fn issue_url(remote: &str, title: &str, page: &str) -> Option<String> {
    let url = remote.trim().trim_end_matches('/');
    let url = url.strip_suffix(".git").unwrap_or(url);
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))?;
    let (host, project) = rest.split_once('/')?;
    // A remote naming a folder (`…/tree/main/crates/x`, `…/-/tree/…`):
    // the project is what comes before.
    let project = match host {
        "github.com" => project.splitn(3, '/').take(2).collect::<Vec<_>>().join("/"),
        _ => project.split("/-/").next().unwrap_or(project).to_string(),
    };
    let body = percent_query(&format!("errdex page: {page}\n\n"));
    let title = percent_query(title);
    match host {
        "github.com" => Some(format!("https://github.com/{project}/issues/new?title={title}&body={body}")),
        "gitlab.com" => Some(format!(
            "https://gitlab.com/{project}/-/issues/new?issue[title]={title}&issue[description]={body}"
        )),
        _ => None,
    }
}

/// An error's page.
pub fn error_page(state: &State, e: &ErrorRecord) -> Result<String, PageError> {
    let a = &e.analysis;
    let message_line = e.template.lines().next().unwrap_or("").to_string();
    let canonical = format!("{}{}", state.base_url, error_path(&e.id));
    let sections = a
        .sections
        .iter()
        .filter(|s| !s.sentences.is_empty() || s.code.is_some())
        .map(|s| SectionView {
            id: s.name.as_str(),
            title: s.name.title(),
            by: match &s.author {
                Author::Rules => String::new(),
                Author::Model { model } => model.clone(),
            },
            numbered: s.name == SectionName::Solutions,
            sentences: s
                .sentences
                .iter()
                .map(|t| SentenceView {
                    html: inline_code(&t.text),
                    facts: t.facts.clone(),
                })
                .collect(),
            code: s.code.as_deref().map(highlight::lines),
        })
        .collect();
    let related = a
        .facts_of(FactKind::Related)
        .filter_map(|f| {
            let id = f.error_id.as_deref()?;
            // "`{template}` ({kind}) {why}." — the template may hold backticks.
            let (template, why) = f.text.strip_prefix('`')?.rsplit_once("` (")?;
            let template = template.to_string();
            let why = inline_code(&format!("({}", why.trim_end_matches('.')));
            Some(RelatedView {
                url: error_path(id),
                template,
                why,
            })
        })
        .collect();
    let facts = a
        .facts
        .iter()
        .filter(|f| f.kind != FactKind::Related)
        .map(|f| FactView {
            id: f.id.clone(),
            html: inline_code(&f.text),
            at: match (&f.path, f.line) {
                (Some(p), Some(l)) => format!("{p}:{l}"),
                _ => String::new(),
            },
        })
        .collect();
    let (site_path, site_line, first, last) = match &e.shown {
        Some(s) => (
            s.site.path.clone(),
            s.site.report_line,
            s.site.line,
            s.site.end_line,
        ),
        None => (String::new(), 0, 0, 0),
    };
    let shown_excerpt = e.shown.as_ref().map_or(&[][..], |s| &s.excerpt[..]);
    let code: String = shown_excerpt
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let excerpt = shown_excerpt
        .iter()
        .zip(highlight::lines(&code))
        .map(|(l, html)| LineView {
            number: l.line,
            html,
            marked: l.line >= first && l.line <= last,
        })
        .collect();
    let made_by = match &a.provenance.model {
        None => "facts from the code, sections written by rules from them".to_string(),
        Some(m) => format!(
            "facts from the code; sections by {m} where the verifier accepted them, else by rules ({} refused)",
            a.provenance.rejected.len()
        ),
    };
    let json_path = format!("/api/errors/{}", e.id);
    let means = a
        .sections
        .first()
        .and_then(|s| s.sentences.first())
        .map(|t| t.text.replace('`', ""))
        .unwrap_or_default();
    let origin = match &e.origin {
        Some(errdex_model::Origin::Commit(c)) => Some(format!(
            "Introduced by commit {}{}: {}{}",
            short(&c.commit),
            c.date
                .as_deref()
                .map(|d| format!(" ({d})"))
                .unwrap_or_default(),
            c.subject,
            c.pr.map(|n| format!(" (pull request #{n})"))
                .unwrap_or_default()
        )),
        Some(errdex_model::Origin::BeforeShallowBoundary { boundary }) => Some(format!(
            "Introduced before {} (the oldest commit of a shallow clone)",
            short(boundary)
        )),
        None => None,
    };
    Ok(ErrorPage {
        title: format!("{message_line} · {} · errdex", e.repo),
        description: format!(
            "{} error in {}: {message_line}. {means}",
            e.kind.as_str(),
            e.repo
        ),
        report_url: e
            .remote
            .as_deref()
            .and_then(|r| issue_url(r, &format!("Error: {message_line}"), &canonical)),
        canonical,
        repo: e.repo.clone(),
        repo_url: repo_path(&e.repo),
        message_line,
        pieces: e
            .pieces
            .pieces()
            .iter()
            .map(|p| match p {
                errdex_model::Piece::Lit(t) => Piece {
                    hole: false,
                    text: t.clone(),
                },
                errdex_model::Piece::Hole(h) => Piece {
                    hole: true,
                    text: format!("{{{}}}", h.arg),
                },
            })
            .collect(),
        kind: e.kind.as_str().to_string(),
        item: if e.item_path.is_empty() {
            "the crate root".into()
        } else {
            e.item_path.clone()
        },
        sections,
        related,
        facts,
        short_rev: short(&a.provenance.revision).to_string(),
        date: a.provenance.date.clone(),
        made_by,
        json_url: format!("{}{json_path}", state.base_url),
        json_path,
        site_path,
        site_line,
        excerpt,
        forge_url: e.shown.as_ref().and_then(|s| s.forge_url.clone()),
        sites: e
            .sites
            .iter()
            .map(|s| SiteView {
                path: s.site.path.clone(),
                line: s.site.report_line,
                revision: s.site.revision.clone(),
                is_test: s.site.is_test,
                forge_url: s.forge_url.clone(),
            })
            .collect(),
        sites_total: e.sites_total,
        site_pages: if e.pages > 1 {
            (1..=e.pages)
                .map(|n| PageLink {
                    number: n,
                    url: format!("{}?page={n}#sites", error_path(&e.id)),
                    current: n == e.page,
                })
                .collect()
        } else {
            Vec::new()
        },
        versions: e
            .versions
            .iter()
            .map(|v| VersionView {
                revision: v.revision.clone(),
                lines: v
                    .lines
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
            .collect(),
        origin,
    }
    .render()?)
}

struct CaptureView {
    arg: String,
    value: String,
}

struct MatchView {
    best: bool,
    url: Option<String>,
    template: String,
    repo: String,
    revision: String,
    path: String,
    line: u32,
    kind: String,
    score: String,
    is_test: bool,
    captures: Vec<CaptureView>,
}

struct MessageView {
    text: String,
    matches: Vec<MatchView>,
}

#[derive(Template)]
#[template(path = "explain.html")]
struct ExplainPage {
    first_line: String,
    input: String,
    messages: Vec<MessageView>,
}

/// Matches shown per message.
const MATCHES_SHOWN: usize = 8;

/// The results of explaining pasted output.
pub fn explain_page(input: &str, record: &ExplainRecord) -> Result<String, PageError> {
    let x = &record.explanation;
    let messages = x
        .messages
        .iter()
        .enumerate()
        .map(|(mi, m)| {
            let best = x.best(mi).map(|b| b as *const _);
            let mut matches: Vec<&errdex_match::Match> =
                x.matches.iter().filter(|k| k.message == mi).collect();
            matches.sort_by_key(|k| Some(*k as *const _) != best);
            MessageView {
                text: m.text.clone(),
                matches: matches
                    .into_iter()
                    .take(MATCHES_SHOWN)
                    .map(|k| MatchView {
                        best: Some(k as *const _) == best,
                        url: k.error_id.as_deref().map(error_path),
                        template: k.template.clone(),
                        repo: k.repo.clone(),
                        revision: k.revision.clone(),
                        path: k.path.clone(),
                        line: k.line,
                        kind: k.kind.as_str().to_string(),
                        score: format!("{:.2}", k.score),
                        is_test: k.is_test,
                        captures: k
                            .captures
                            .iter()
                            .map(|c| CaptureView {
                                arg: c.arg.clone(),
                                value: c.value.clone(),
                            })
                            .collect(),
                    })
                    .collect(),
            }
        })
        .collect();
    let first_line: String = input
        .lines()
        .next()
        .unwrap_or("")
        .chars()
        .take(80)
        .collect();
    Ok(ExplainPage {
        first_line,
        input: input.to_string(),
        messages,
    }
    .render()?)
}

#[derive(Template)]
#[template(path = "not_found.html")]
struct NotFound<'a> {
    what: &'a str,
}

/// The 404 page.
pub fn not_found(what: &str) -> String {
    NotFound { what }
        .render()
        .unwrap_or_else(|_| "Not found".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_are_escaped() {
        assert_eq!(
            inline_code("use `a<b>` & \"x\""),
            "use <code>a&lt;b&gt;</code> &amp; &quot;x&quot;"
        );
        assert_eq!(repo_path("crate:serde json"), "/repos/crate:serde%20json");
        assert!(
            issue_url("https://github.com/a/b.git", "t", "http://x/errors/1")
                .unwrap()
                .starts_with("https://github.com/a/b/issues/new?title=t&body=errdex%20page")
        );
        assert_eq!(issue_url("https://example.org/a/b", "t", "p"), None);
    }
}
