//! The JSON API: every error record and every match carries the `url` of
//! its HTML page.

use crate::pages::{error_path, repo_path, ErrorData};
use crate::state::State;
use errdex_match::Explanation;
use serde_json::{json, Value};

/// Sites in one page of `GET /api/errors/{id}?page=N`.
pub const SITES_PER_PAGE: usize = 500;

/// `GET /api/errors/{id}?page=N`: the record with page `page` (from 1) of
/// its sites, [`SITES_PER_PAGE`] a page, and `sites_total`, `page`, `pages`.
pub fn error_record(state: &State, d: &ErrorData, page: usize) -> Value {
    let e = &d.error;
    let pages = e.sites.len().div_ceil(SITES_PER_PAGE).max(1);
    let page = page.clamp(1, pages);
    let sites: Vec<Value> = e
        .sites
        .iter()
        .skip((page - 1) * SITES_PER_PAGE)
        .take(SITES_PER_PAGE)
        .map(|s| {
            let mut v = serde_json::to_value(s).expect("sites serialise");
            if let (Some(remote), Some(vcs), Some(o)) = (&e.remote, &s.vcs, v.as_object_mut()) {
                o.insert(
                    "forge_url".into(),
                    json!(errdex_model::forge_link(
                        remote,
                        vcs,
                        &s.path,
                        s.report_line
                    )),
                );
            }
            v
        })
        .collect();
    json!({
        "id": e.id,
        "url": format!("{}{}", state.base_url, error_path(&e.id)),
        "repo": e.repo,
        "repo_url": format!("{}{}", state.base_url, repo_path(&e.repo)),
        "remote": e.remote,
        "language": e.language,
        "kind": e.kind,
        "template": e.template,
        "pieces": e.pieces,
        "item_path": e.item_path,
        "sites": sites,
        "sites_total": e.sites.len(),
        "page": page,
        "pages": pages,
        "evidence": e.evidence,
        "origin": e.origin,
        "versions": d.versions.iter().map(|(r, l)| json!({"revision": r, "lines": l})).collect::<Vec<_>>(),
        "excerpt": d.excerpt.iter().map(|(n, t)| json!({"line": n, "text": t})).collect::<Vec<_>>(),
        "analysis": d.analysis,
    })
}

/// An explanation with each match's page `url` (`null` for a literal).
pub fn explanation(state: &State, x: &Explanation) -> Value {
    let mut v = serde_json::to_value(x).expect("explanations serialise");
    if let Some(matches) = v.get_mut("matches").and_then(Value::as_array_mut) {
        for m in matches {
            let url = m
                .get("error_id")
                .and_then(Value::as_str)
                .map(|id| format!("{}{}", state.base_url, error_path(id)));
            if let Some(o) = m.as_object_mut() {
                o.insert("url".into(), json!(url));
            }
        }
    }
    v
}

/// `GET /api/repos`.
pub fn repos(state: &State, repos: Vec<errdex_catalog::RepoSummary>) -> Value {
    Value::Array(
        repos
            .into_iter()
            .map(|r| {
                json!({
                    "slug": r.slug,
                    "url": format!("{}{}", state.base_url, repo_path(&r.slug)),
                    "remote": r.remote,
                    "revisions": r.revisions,
                    "errors": r.errors,
                })
            })
            .collect(),
    )
}

/// The OpenAPI document, with this server's URL.
pub fn openapi(state: &State) -> Value {
    let mut doc: Value = serde_json::from_str(include_str!("../static/openapi.json"))
        .expect("the OpenAPI document is JSON");
    doc["servers"] = json!([{ "url": state.base_url }]);
    doc
}
