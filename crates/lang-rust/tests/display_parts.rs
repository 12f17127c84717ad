//! `Display` impls that write one message in several statements, some of
//! them under a condition, in a `match` or a loop (ron's field errors,
//! object_store's retry error): the message is the writes in order, with a
//! hole where a conditional part printed something or nothing.

mod common;

fn templates(text: &str) -> Vec<String> {
    common::lib_sites(text)
        .into_iter()
        .map(|s| s.template.to_string())
        .collect()
}

#[test]
fn a_conditional_write_between_two_is_a_hole_of_the_message() {
    let got = templates(
        r#"use std::fmt;
pub struct FieldError { found: String, outer: Option<String>, expected: String }
impl std::error::Error for FieldError {}
impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Unexpected field named `{}`", self.found)?;
        if let Some(outer) = &self.outer {
            write!(f, " in `{}`", outer)?;
        }
        write!(f, ", expected {}", self.expected)
    }
}
"#,
    );
    assert!(
        got.iter()
            .any(|t| t == "Unexpected field named `{}`{}, expected {}"),
        "{got:?}"
    );
    // The conditional part is still a site of its own.
    assert!(got.iter().any(|t| t == " in `{outer}`"), "{got:?}");
}

#[test]
fn a_match_and_a_trailing_condition_are_holes_too() {
    let got = templates(
        r#"use std::fmt;
pub struct RetryError { method: String, uri: Option<String>, retries: u32, inner: String }
impl std::error::Error for RetryError {}
impl fmt::Display for RetryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Error performing {} ", self.method)?;
        match &self.uri {
            Some(uri) => write!(f, "{uri} ")?,
            None => write!(f, "REDACTED ")?,
        }
        write!(f, "after {} retries", self.retries)?;
        if self.retries > 3 {
            write!(f, " (too many)")?;
        }
    }
}
"#,
    );
    assert!(
        got.iter()
            .any(|t| t == "Error performing {} {}after {} retries{}"),
        "{got:?}"
    );
}

#[test]
fn writes_without_a_condition_between_them_stay_one_text() {
    let got = templates(
        r#"use std::fmt;
pub struct SpanError { line: u32, col: u32 }
impl std::error::Error for SpanError {}
impl fmt::Display for SpanError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "line {}", self.line)?;
        write!(f, ", column {}", self.col)
    }
}
"#,
    );
    assert!(got.iter().any(|t| t == "line {}, column {}"), "{got:?}");
}
