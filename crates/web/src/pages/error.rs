//! An error's page: the error record as the design's sections, its sites
//! paged.

use super::{error_path, inline_code, percent_query, repo_path, source_url, PageError};
use crate::highlight::{self, Grammar};
use crate::state::State;
use askama::Template;
use errdex_analyze::{Author, Fact, FactKind, SectionName};
use errdex_app::{Db, ErrorRecord, Sites};
use std::collections::HashMap;

struct Piece {
    hole: bool,
    text: String,
}

/// A numbered citation after a sentence: to the cited lines, else to the
/// source's entry.
struct CiteView {
    n: usize,
    href: String,
    title: String,
}

struct SentenceView {
    html: String,
    cites: Vec<CiteView>,
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

/// A cited fact's entry under Sources: what it is and where, with the line
/// itself, not the fact's sentence again.
struct SourceView {
    n: usize,
    label: &'static str,
    at: String,
    href: Option<String>,
    code: String,
    forge_url: Option<String>,
}

/// A fact no section cites, in its own words (it is nowhere else on the page).
struct FactView {
    html: String,
    at: String,
    href: Option<String>,
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
    sources: Vec<SourceView>,
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

/// A fact kind as the label of its source entry.
fn label(kind: FactKind) -> &'static str {
    match kind {
        FactKind::Message => "the message",
        FactKind::Item => "the function",
        FactKind::Doc => "documentation",
        FactKind::Guard => "a condition",
        FactKind::Value => "a value",
        FactKind::Assertion => "the assertion",
        FactKind::Receiver => "the unwrapped value",
        FactKind::Sentinel => "a refusing function",
        FactKind::Caller => "a caller",
        FactKind::Failure => "a failing call",
        FactKind::PublicEntry => "a public entry",
        FactKind::Constructor => "where the error is made",
        FactKind::Test => "a test",
        FactKind::Mechanism => "how it works",
        FactKind::Alternative => "an alternative",
        FactKind::Related => "a related error",
        FactKind::Origin => "history",
        FactKind::Versions => "versions",
    }
}

/// The page's facts as numbered sources, in the order the sections first
/// cite them, and the facts no section cites.
struct Citations<'a> {
    /// Fact id → its number.
    numbers: HashMap<&'a str, usize>,
    /// Cited facts, in number order.
    cited: Vec<&'a Fact>,
}

impl<'a> Citations<'a> {
    fn of(e: &'a ErrorRecord) -> Self {
        let by_id: HashMap<&str, &Fact> = e
            .analysis
            .facts
            .iter()
            .filter(|f| f.kind != FactKind::Related)
            .map(|f| (f.id.as_str(), f))
            .collect();
        let mut c = Citations {
            numbers: HashMap::new(),
            cited: Vec::new(),
        };
        let cites = e
            .analysis
            .sections
            .iter()
            .flat_map(|s| &s.sentences)
            .flat_map(|t| &t.facts);
        for id in cites {
            if let Some(f) = by_id.get(id.as_str()) {
                if !c.numbers.contains_key(id.as_str()) {
                    c.cited.push(f);
                    c.numbers.insert(f.id.as_str(), c.cited.len());
                }
            }
        }
        c
    }
}

/// Where a fact's lines are shown: this site's source page at the
/// analysed revision.
fn fact_href(e: &ErrorRecord, f: &Fact) -> Option<String> {
    let (path, line) = (f.path.as_deref()?, f.line?);
    Some(source_url(
        &e.repo,
        &e.analysis.provenance.revision,
        path,
        line,
    ))
}

fn fact_at(f: &Fact) -> String {
    match (&f.path, f.line) {
        (Some(p), Some(l)) => format!("{p}:{l}"),
        _ => String::new(),
    }
}

/// An error's page.
pub fn error_page(state: &State, c: &Db, e: &ErrorRecord) -> Result<String, PageError> {
    let a = &e.analysis;
    let message_line = e.template.lines().next().unwrap_or("").to_string();
    let canonical = format!("{}{}", state.base_url, error_path(&e.id));
    let citations = Citations::of(e);
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
                .map(|t| {
                    let mut cites: Vec<CiteView> = t
                        .facts
                        .iter()
                        .filter_map(|id| {
                            let n = *citations.numbers.get(id.as_str())?;
                            let f = citations.cited[n - 1];
                            Some(CiteView {
                                n,
                                href: fact_href(e, f).unwrap_or_else(|| format!("#source-{n}")),
                                title: f.text.replace('`', ""),
                            })
                        })
                        .collect();
                    cites.sort_by_key(|c| c.n);
                    cites.dedup_by_key(|c| c.n);
                    SentenceView {
                        html: inline_code(&t.text),
                        cites,
                    }
                })
                .collect(),
            code: s
                .code
                .as_deref()
                .map(|c| highlight::lines(c, Grammar::of("", &e.language))),
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
    // Forge links for the analysed revision, when the shown site is of it.
    let pin = e
        .shown
        .as_ref()
        .filter(|s| s.site.revision == a.provenance.revision)
        .and_then(|s| s.site.vcs.as_ref());
    let sources = citations
        .cited
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let code = match (&f.path, f.line) {
                (Some(p), Some(l)) => c
                    .source(&e.repo, &a.provenance.revision, p, l, l)?
                    .and_then(|lines| lines.into_iter().next())
                    .map(|(_, t)| t.trim().to_string())
                    .unwrap_or_default(),
                _ => String::new(),
            };
            Ok(SourceView {
                n: i + 1,
                label: label(f.kind),
                at: fact_at(f),
                href: fact_href(e, f),
                code,
                forge_url: match (&e.remote, pin, &f.path, f.line) {
                    (Some(r), Some(v), Some(p), Some(l)) => errdex_model::forge_link(r, v, p, l),
                    _ => None,
                },
            })
        })
        .collect::<Result<Vec<_>, PageError>>()?;
    let facts = a
        .facts
        .iter()
        .filter(|f| f.kind != FactKind::Related && !citations.numbers.contains_key(f.id.as_str()))
        .map(|f| FactView {
            html: inline_code(&f.text),
            at: fact_at(f),
            href: fact_href(e, f),
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
        .zip(highlight::lines(
            &code,
            Grammar::of(&site_path, &e.language),
        ))
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
        sources,
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

#[cfg(test)]
mod tests {
    use super::issue_url;

    #[test]
    fn issue_links_for_github_only_where_known() {
        assert!(
            issue_url("https://github.com/a/b.git", "t", "http://x/errors/1")
                .unwrap()
                .starts_with("https://github.com/a/b/issues/new?title=t&body=errdex%20page")
        );
        assert_eq!(issue_url("https://example.org/a/b", "t", "p"), None);
    }
}
