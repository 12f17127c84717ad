//! `errdex show ID`: an error, its sites with excerpts, its evidence.

use crate::Failure;
use errdex_app::{Analyzers, Db, Sites};
use std::fmt::Write;

pub fn run(db_path: &errdex_app::Location, id: &str, json: bool) -> Result<u8, Failure> {
    if errdex_model::ErrorId::parse(id).is_none() {
        return Err(errdex_app::AppError::NotAnId(id.to_string()).into());
    }
    let db = Db::open_existing(db_path)?;
    let error = db.error_record(&Analyzers::new(1), id, Sites::All)?;
    let mut o = String::new();
    if json {
        let _ = writeln!(
            o,
            "{}",
            serde_json::to_string(&error).expect("records serialise")
        );
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
    print_analysis(&mut o, &error.analysis);
    let _ = writeln!(
        o,
        "in {}",
        if error.item_path.is_empty() {
            "(crate root)"
        } else {
            &error.item_path
        }
    );
    for v in &error.sites {
        let s = &v.site;
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
    let versions = &error.versions;
    if versions.len() > 1 {
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Versions: first seen {}, last seen {}",
            versions[0].revision,
            versions[versions.len() - 1].revision
        );
        for v in versions {
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
