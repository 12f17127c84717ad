//! `errdex show ID`: an error, its sites with excerpts, its evidence.

use crate::{db, Failure};
use errdex_catalog::Catalog;
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;

/// A site with its excerpt (the `--json` shape of each site).
#[derive(Serialize)]
struct SiteView<'a> {
    #[serde(flatten)]
    site: &'a errdex_catalog::SiteRow,
    excerpt: Vec<ExcerptLine>,
    /// The site on its forge, pinned to the commit (GitHub, GitLab).
    forge_url: Option<String>,
}

#[derive(Serialize)]
struct ExcerptLine {
    line: u32,
    text: String,
}

#[derive(Serialize)]
struct ErrorView<'a> {
    #[serde(flatten)]
    error: &'a errdex_catalog::ErrorDetail,
    #[serde(rename = "sites")]
    site_views: Vec<SiteView<'a>>,
    /// Each indexed revision holding the error, oldest first, with its lines.
    versions: Vec<Version>,
    /// Facts, sections and provenance.
    analysis: &'a errdex_analyze::Analysis,
}

/// One revision holding an error.
#[derive(Serialize)]
struct Version {
    revision: String,
    lines: Vec<u32>,
}

/// The revisions of an error's sites, oldest first (sites come newest
/// snapshot first).
fn versions(error: &errdex_catalog::ErrorDetail) -> Vec<Version> {
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

pub fn run(db_path: &Path, id: &str, json: bool) -> Result<u8, Failure> {
    if errdex_model::ErrorId::parse(id).is_none() {
        return Err(Failure::input(format!(
            "`{id}` is not an error id (16 hex digits, see `errdex list`)"
        )));
    }
    let catalog = db::open_existing(db_path)?;
    let Some(error) = catalog.error(id)? else {
        return Err(Failure {
            code: 1,
            message: format!("no error {id} in the catalogue"),
        });
    };
    let site_views = error
        .sites
        .iter()
        .map(|s| {
            let forge_url = match (&error.remote, &s.vcs) {
                (Some(remote), Some(vcs)) => {
                    errdex_model::forge_link(remote, vcs, &s.path, s.report_line)
                }
                _ => None,
            };
            excerpt(&catalog, s).map(|excerpt| SiteView {
                site: s,
                excerpt,
                forge_url,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let analysis = super::analyze::current(&catalog, &error)?;
    let mut o = String::new();
    if json {
        let view = ErrorView {
            error: &error,
            site_views,
            versions: versions(&error),
            analysis: &analysis,
        };
        let mut value = serde_json::to_value(&view).expect("views serialise");
        // `sites` from the flattened detail is replaced by the richer views.
        if let Some(obj) = value.as_object_mut() {
            obj.insert(
                "sites".into(),
                serde_json::to_value(&view.site_views).expect("views serialise"),
            );
        }
        let _ = writeln!(o, "{value}");
        crate::out::print_json(&o);
        return Ok(0);
    }
    let _ = writeln!(
        o,
        "{} · error · {} · {}",
        error.repo,
        error.kind.as_str(),
        error.id
    );
    let _ = writeln!(o);
    for line in error.template.lines() {
        let _ = writeln!(o, "    {line}");
    }
    let _ = writeln!(o);
    print_analysis(&mut o, &analysis);
    let _ = writeln!(
        o,
        "in {}",
        if error.item_path.is_empty() {
            "(crate root)"
        } else {
            &error.item_path
        }
    );
    for v in &site_views {
        let s = v.site;
        let mut notes = Vec::new();
        if s.is_test {
            notes.push("test code".to_string());
        }
        if s.reported_at_caller {
            notes.push("#[track_caller]: a panic names the caller".into());
        }
        if let Some(m) = &s.via_macro {
            notes.push(format!("via macro {m}!"));
        }
        if let Some(m) = &s.message_from {
            notes.push(format!("text from {m}"));
        }
        if let Some(d) = &s.delegates_to {
            notes.push(format!("prints {d}"));
        }
        if s.partial {
            notes.push("part of a message built at run time".into());
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join("; "))
        };
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Thrown at {}:{}:{} @ {}{}",
            s.path, s.report_line, s.report_column, s.revision, notes
        );
        for l in &v.excerpt {
            let mark = if l.line >= s.line && l.line <= s.end_line {
                '>'
            } else {
                ' '
            };
            let _ = writeln!(o, "{mark}{:>5} | {}", l.line, l.text);
        }
        if let Some(url) = &v.forge_url {
            let _ = writeln!(o, "View on the forge: {url}");
        }
    }
    let versions = versions(&error);
    if versions.len() > 1 {
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Versions: first seen {}, last seen {}",
            versions[0].revision,
            versions[versions.len() - 1].revision
        );
        for v in &versions {
            let lines: Vec<String> = v.lines.iter().map(u32::to_string).collect();
            let _ = writeln!(o, "  {} line {}", v.revision, lines.join(", "));
        }
    }
    match &error.origin {
        Some(errdex_model::Origin::Commit(c)) => {
            let _ = writeln!(o);
            let _ = writeln!(
                o,
                "Introduced in {} ({}): {}{}",
                short(&c.commit),
                c.date.as_deref().unwrap_or("date unknown"),
                c.subject,
                c.pr.map(|n| format!(" [PR #{n}]")).unwrap_or_default()
            );
        }
        Some(errdex_model::Origin::BeforeShallowBoundary { boundary }) => {
            let _ = writeln!(o);
            let _ = writeln!(
                o,
                "Introduced before {} (the oldest commit of this shallow clone)",
                short(boundary)
            );
        }
        None => {}
    }
    if !error.evidence.is_empty() {
        let _ = writeln!(o);
        let _ = writeln!(o, "Evidence:");
        for e in &error.evidence {
            let _ = writeln!(
                o,
                "  {} at {}:{} ({}): {}",
                e.kind.as_str(),
                e.path,
                e.line,
                e.item_path,
                e.text.replace('\n', " ")
            );
        }
    }
    crate::out::print(&o);
    Ok(0)
}

/// The page's sections, each sentence with the facts it rests on, then the
/// related errors and the provenance line.
fn print_analysis(o: &mut String, a: &errdex_analyze::Analysis) {
    use errdex_analyze::{Author, FactKind};
    for s in &a.sections {
        if s.sentences.is_empty() && s.code.is_none() {
            continue;
        }
        let by = match &s.author {
            Author::Rules => String::new(),
            Author::Model { model } => format!(" (written by {model}, verified)"),
        };
        let _ = writeln!(o, "{}{by}", s.name.title());
        for (i, t) in s.sentences.iter().enumerate() {
            let bullet = if s.name == errdex_analyze::SectionName::Solutions {
                format!("{}.", i + 1)
            } else {
                "-".into()
            };
            let _ = writeln!(o, "  {bullet} {} [{}]", t.text, t.facts.join(", "));
        }
        if let Some(code) = &s.code {
            for l in code.lines() {
                let _ = writeln!(o, "      {l}");
            }
        }
        let _ = writeln!(o);
    }
    let related: Vec<_> = a.facts_of(FactKind::Related).collect();
    if !related.is_empty() {
        let _ = writeln!(o, "Related errors");
        for f in related {
            let _ = writeln!(o, "  - {} {}", f.error_id.as_deref().unwrap_or(""), f.text);
        }
        let _ = writeln!(o);
    }
    let _ = writeln!(o, "Facts");
    for f in a.facts.iter().filter(|f| f.kind != FactKind::Related) {
        let at = match (&f.path, f.line) {
            (Some(p), Some(l)) => format!(" ({p}:{l})"),
            _ => String::new(),
        };
        let _ = writeln!(o, "  {} {}{at}", f.id, f.text);
    }
    let p = &a.provenance;
    let _ = writeln!(o);
    let _ = writeln!(
        o,
        "Analysis of {}@{}{}: {}; data as JSON: errdex show --json {}",
        p.repo,
        short(&p.revision),
        p.date.as_deref().map(|d| format!(" ({d})")).unwrap_or_default(),
        match &p.model {
            None => "facts from the code, sections by rules".to_string(),
            Some(m) => format!(
                "facts from the code, sections by {m} where the verifier accepted them ({} refused)",
                p.rejected.len()
            ),
        },
        a.error_id
    );
}

/// A commit sha's first 12 digits.
fn short(sha: &str) -> &str {
    sha.get(..12).unwrap_or(sha)
}

fn excerpt(catalog: &Catalog, s: &errdex_catalog::SiteRow) -> Result<Vec<ExcerptLine>, Failure> {
    Ok(catalog
        .excerpt(s.snapshot_id, &s.path, s.excerpt_start, s.excerpt_end)?
        .into_iter()
        .map(|(line, text)| ExcerptLine { line, text })
        .collect())
}
