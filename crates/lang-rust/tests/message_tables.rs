//! A `macro_rules!` that generates an error enum and its `Display` from a
//! `Name => "message"` list (url's `simple_enum_error!`): each literal of
//! an invocation is the message of the variant it names, a site at the
//! literal's line.

mod common;

use errdex_model::Kind;

fn sites(text: &str) -> Vec<(u32, String, Option<String>, Kind)> {
    common::lib_sites(text)
        .into_iter()
        .map(|s| (s.line, s.template.to_string(), s.arm, s.kind))
        .collect()
}

const WRITE_STR: &str = r#"use std::fmt;

macro_rules! simple_enum_error {
    ($($name: ident => $description: expr,)+) => {
        #[derive(Debug)]
        pub enum ParseError {
            $(
                $name,
            )+
        }

        impl fmt::Display for ParseError {
            fn fmt(&self, fmt: &mut fmt::Formatter<'_>) -> fmt::Result {
                match *self {
                    $(
                        ParseError::$name => fmt.write_str($description),
                    )+
                }
            }
        }
    }
}

impl std::error::Error for ParseError {}

simple_enum_error! {
    EmptyHost => "empty host",
    InvalidPort => "invalid port number",
}
"#;

const WRITE_SELF: &str = r#"use std::fmt;

macro_rules! errors {
    ($($variant:ident: $msg:literal),* $(,)?) => {
        #[derive(Debug)]
        pub enum DecodeError { $($variant),* }

        impl fmt::Display for DecodeError {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                match self {
                    $(Self::$variant => write!(f, "{}", $msg),)*
                }
            }
        }
    };
}

errors! {
    Truncated: "input ends in the middle of a frame",
    BadMagic: "not a frame: wrong magic number",
}
"#;

#[test]
fn each_message_of_a_display_generating_macro_is_a_site() {
    let s = sites(WRITE_STR);
    assert!(
        s.contains(&(
            27,
            "empty host".to_string(),
            Some("ParseError::EmptyHost".to_string()),
            Kind::Display
        )),
        "{s:?}"
    );
    assert!(
        s.contains(&(
            28,
            "invalid port number".to_string(),
            Some("ParseError::InvalidPort".to_string()),
            Kind::Display
        )),
        "{s:?}"
    );
}

#[test]
fn a_self_arm_written_with_write_names_the_impl_type() {
    let s = sites(WRITE_SELF);
    assert!(
        s.iter().any(|(l, t, arm, k)| *l == 19
            && t == "input ends in the middle of a frame"
            && arm.as_deref() == Some("DecodeError::Truncated")
            && *k == Kind::Display),
        "{s:?}"
    );
}

#[test]
fn a_macro_without_a_display_impl_makes_no_message_sites() {
    let text = WRITE_STR.replace("fmt::Display for", "fmt::Debug for");
    let s = sites(&text);
    assert!(!s.iter().any(|(_, t, _, _)| t == "empty host"), "{s:?}");
}
