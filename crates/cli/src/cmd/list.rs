//! `errdex list [REPO] [--kind K]`.

use crate::Failure;
use errdex_app::Db;
use errdex_model::Kind;
use std::fmt::Write;

pub fn run(
    db_path: &errdex_app::Location,
    repo: Option<&str>,
    kind: Option<&str>,
    json: bool,
) -> Result<u8, Failure> {
    let kind: Option<Kind> = kind
        .map(|k| k.parse().map_err(Failure::input))
        .transpose()?;
    let errors = Db::open_existing(db_path)?.list(repo, kind)?;
    let mut o = String::new();
    if json {
        let _ = writeln!(
            o,
            "{}",
            serde_json::to_string(&errors).expect("rows serialise")
        );
        crate::out::print_json(&o);
        return Ok(0);
    }
    for e in &errors {
        let template: String = e.template.replace('\n', "⏎");
        let template = if template.chars().count() > 100 {
            template.chars().take(99).collect::<String>() + "…"
        } else {
            template
        };
        let test = if e.is_test { " [test]" } else { "" };
        let more = if e.sites > 1 {
            format!(" (+{} sites)", e.sites - 1)
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "{} {:<13} {}:{}{}{} {}",
            e.id,
            e.kind.as_str(),
            e.path,
            e.line,
            more,
            test,
            template
        );
    }
    crate::out::print(&o);
    Ok(0)
}
