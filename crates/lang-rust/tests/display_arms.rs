//! `Display` impls that print a `match` of string literals, inline or
//! through a method of the type (`f.write_str(self.description())`): each
//! arm is a site of its own, named by its pattern.

mod common;

use errdex_model::Kind;

fn sites(text: &str) -> Vec<(u32, String, Option<String>, Kind, String)> {
    common::lib_sites(text)
        .into_iter()
        .map(|s| (s.line, s.template.to_string(), s.arm, s.kind, s.item_path))
        .collect()
}

const CRATE: &str = r#"use std::fmt;

#[derive(Debug)]
pub enum ParseError {
    TooManyItems,
    BadByte,
}

impl ParseError {
    fn description_str(&self) -> &'static str {
        match *self {
            ParseError::TooManyItems => "too many items",
            ParseError::BadByte => {
                "invalid byte in input"
            }
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description_str())
    }
}

impl std::error::Error for ParseError {}

#[derive(Debug)]
pub enum WireError {
    Refused,
    Full,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use WireError::*;
        write!(
            f,
            "{}",
            match self {
                Refused => "the format refuses this call",
                Full => {
                    "the output buffer is full"
                }
            }
        )
    }
}

#[derive(Debug)]
pub enum CodecError {
    Short,
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CodecError::Short => "input ended early",
        })
    }
}

pub struct Point;

impl Point {
    fn label(&self) -> &'static str {
        match self {
            Point => "a point, not an error",
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}
"#;

#[test]
fn each_literal_arm_of_a_printed_match_is_a_site() {
    let got = sites(CRATE);
    let find = |text: &str| got.iter().find(|s| s.1 == text);
    let (line, _, arm, kind, item) = find("too many items").expect("describer arm");
    assert_eq!(*line, 12);
    assert_eq!(arm.as_deref(), Some("ParseError::TooManyItems"));
    assert_eq!(*kind, Kind::Display);
    assert!(item.ends_with("description_str"), "{item}");
    let (line, _, arm, ..) = find("invalid byte in input").expect("block arm");
    assert_eq!(*line, 14);
    assert_eq!(arm.as_deref(), Some("ParseError::BadByte"));
    // Inside `write!`'s arguments, from the tokens.
    let (line, _, arm, kind, _) = find("the format refuses this call").expect("macro arm");
    assert_eq!(
        (*line, arm.as_deref(), *kind),
        (41, Some("Refused"), Kind::Display)
    );
    let (line, _, arm, ..) = find("the output buffer is full").expect("macro block arm");
    assert_eq!((*line, arm.as_deref()), (43, Some("Full")));
    let (line, _, arm, ..) = find("input ended early").expect("write_str(match ..)");
    assert_eq!((*line, arm.as_deref()), (58, Some("CodecError::Short")));
    // Only error types: a `Display` of another type is not an error.
    assert!(find("a point, not an error").is_none(), "{got:#?}");
}

/// snafu's `#[snafu(display(..))]` is a variant's text, as thiserror's
/// `#[error(..)]` (object_store's `Generic {} error: {}`).
#[test]
fn snafu_display_attributes_are_sites() {
    let found = sites(
        r#"use snafu::Snafu;

#[derive(Debug, Snafu)]
pub enum Error {
    #[snafu(display("Generic {} error: {}", store, source))]
    Generic {
        store: &'static str,
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    #[snafu(context(false), display("Error after {retries} retries in {elapsed:?}"))]
    Reqwest { retries: usize, elapsed: std::time::Duration },
}
"#,
    );
    let texts: Vec<&str> = found.iter().map(|s| s.1.as_str()).collect();
    assert!(
        texts.contains(&"Generic {store} error: {source}"),
        "{texts:?}"
    );
    assert!(
        texts.contains(&"Error after {retries} retries in {elapsed:?}"),
        "{texts:?}"
    );
}
