//! HTML pages, rendered from the application's records with auto-escaping
//! templates: one module per page, the shared pieces (failures, paths,
//! inline code) here.

mod error;
mod explain;
mod home;
mod repo;
mod source;

use crate::highlight;
use askama::Template;
use errdex_app::AppError;

pub use error::{error_data, error_page};
pub use explain::explain_page;
pub use home::home;
pub use repo::repo;
pub use source::{source_page, source_url};

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
    }
}
