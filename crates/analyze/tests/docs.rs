//! Docs a page quotes (issue 23, cases-2), on a crate this test writes:
//! an item's docs included from a file (`#[doc = include_str!(..)]`) are
//! read like `///` lines (indexing keeps the included file), and the
//! section of a public entry's or of the thrower's type's doc whose
//! heading the message names (`# Captures` for "use `{capture}`") is
//! quoted.

mod common;

use common::{error_of, section, written_crate};
use errdex_analyze::{analyze, Analysis, SectionName};

const LIB: &str = r#"//! A crate written by the test.

#[doc = include_str!("docs/route.md")]
#[track_caller]
pub fn route(path: &str) -> usize {
    check(path).unwrap();
    path.len()
}

fn check(path: &str) -> Result<(), &'static str> {
    if path.starts_with(':') {
        return Err("segments must not start with `:`; for capture groups, use `{capture}`");
    }
    Ok(())
}

/// A graph.
///
/// # Node Indices
///
/// Indices are dense: a graph of `n` nodes has the indices `0..n`.
///
/// # Weights
///
/// Each node has a weight.
pub struct Graph {
    n: usize,
}

impl Graph {
    /// Adds an edge.
    pub fn add_edge(&mut self, a: usize) {
        if a >= self.n {
            panic!("node indices out of bounds");
        }
    }
}
"#;

const ROUTE_MD: &str = "Adds a route.

# Captures

Segments like `/{key}` capture one segment, for example `/users/{id}`.

# Wildcards

Segments like `/{*rest}` capture the rest.

# Panics

Panics if `path` is empty.
";

fn analysed(template: &str) -> Analysis {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = written_crate(
        tmp.path(),
        "docs",
        &[("src/lib.rs", LIB), ("src/docs/route.md", ROUTE_MD)],
    );
    let e = error_of(&c, "docs", template);
    analyze(&an, &e, an.facts(&e), None, "")
}

#[test]
fn an_included_doc_is_read_like_doc_comments() {
    let a = analysed("segments must not start with `:`; for capture groups, use `{{capture}}`");
    let when = section(&a, SectionName::When);
    assert!(
        when.contains(
            "The public fn `route` reaches it: `route` → `check`. Its doc says: \"Adds a route.\""
        ),
        "{when}"
    );
    assert!(
        when.contains("The doc of `route` (a public fn that reaches it) says under `# Panics`: \"Panics if `path` is empty.\""),
        "{when}"
    );
}

#[test]
fn the_entrys_doc_section_the_message_names_is_quoted() {
    let a = analysed("segments must not start with `:`; for capture groups, use `{{capture}}`");
    let when = section(&a, SectionName::When);
    assert!(
        when.contains("The doc of `route` (a public fn that reaches it) has a section `# Captures` on what the message names: \"Segments like `/{key}` capture one segment, for example `/users/{id}`.\""),
        "{when}"
    );
    assert!(!when.contains("# Wildcards"), "{when}");
}

#[test]
fn the_types_doc_section_the_message_names_is_quoted() {
    let a = analysed("node indices out of bounds");
    let when = section(&a, SectionName::When);
    assert!(
        when.contains("The doc of the type `Graph` has a section `# Node Indices` on what the message names: \"Indices are dense"),
        "{when}"
    );
    assert!(!when.contains("# Weights"), "{when}");
}
