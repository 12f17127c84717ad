//! The JSON API: the application's records, each error record and every
//! match with the `url` of its HTML page.

use crate::pages::{error_path, repo_path};
use crate::state::State;
use errdex_app::{ErrorRecord, ExplainRecord, RepoSummary};
use serde_json::{json, Value};

/// `GET /api/errors/{id}?page=N`: the error record (its sites paged) with
/// its page's `url` and its repo page's `repo_url`.
pub fn error_record(state: &State, mut record: ErrorRecord) -> ErrorRecord {
    record.url = Some(format!("{}{}", state.base_url, error_path(&record.id)));
    record.repo_url = Some(format!("{}{}", state.base_url, repo_path(&record.repo)));
    record
}

/// An explain record with each match's page `url` (`null` for a literal).
pub fn explanation(state: &State, record: ExplainRecord) -> ExplainRecord {
    record.with_urls(|id| format!("{}{}", state.base_url, error_path(id)))
}

/// `GET /api/repos`.
pub fn repos(state: &State, repos: Vec<RepoSummary>) -> Value {
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
