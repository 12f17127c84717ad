//! Messages written by a language's runtime, not by any indexed package:
//! Rust's std and core (`unwrap`'s texts around a payload, index and
//! arithmetic panics, the standard parse and I/O errors) and the Python
//! interpreter (`'NoneType' object is not subscriptable`, `list index out
//! of range`, a call's argument errors). Recognised so that the answer is
//! the report's location (a package's line) or the payload, never an
//! unrelated site that happens to hold the same text — also when a
//! package's message wraps one (`… (exception: argument of type 'X' is
//! not iterable)`).

use crate::pattern::{normalize, Pattern};
use errdex_model::{Hole, Template};
use serde::Serialize;
use std::sync::OnceLock;

/// A runtime's own text found in a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StdText {
    /// Whose runtime: `std` (Rust's std and core) or `Python` (`the
    /// program` for [`PROGRAM`]).
    pub runtime: &'static str,
    /// What printed it (`Result::unwrap`, `slice indexing`, `integer
    /// parsing`…; for Python the exception type).
    pub source: &'static str,
    /// The template std prints.
    pub template: &'static str,
    /// The value std printed inside its text (the `Err` of an `unwrap`), to
    /// explain in turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<String>,
}

/// The text of an exception the program's own code raised (its file is
/// not indexed): only a site the report locates could have printed it.
pub const PROGRAM: StdText = StdText {
    runtime: "the program",
    source: "the program's own code",
    template: "{}",
    payload: None,
};

struct Known {
    runtime: &'static str,
    source: &'static str,
    template: &'static str,
    pattern: Pattern,
    /// The hole holding a payload to explain further.
    payload: bool,
}

/// Rust's std: (what prints it, template with `{}` holes, the last hole
/// is a payload).
const RUST_STD: &[(&str, &str, bool)] = &[
    (
        "Result::unwrap",
        "called `Result::unwrap()` on an `Err` value: {}",
        true,
    ),
    (
        "Result::unwrap_err",
        "called `Result::unwrap_err()` on an `Ok` value: {}",
        true,
    ),
    (
        "Option::unwrap",
        "called `Option::unwrap()` on a `None` value",
        false,
    ),
    (
        "slice indexing",
        "index out of bounds: the len is {} but the index is {}",
        false,
    ),
    (
        "slice indexing",
        "range end index {} out of range for slice of length {}",
        false,
    ),
    (
        "slice indexing",
        "range start index {} out of range for slice of length {}",
        false,
    ),
    (
        "slice indexing",
        "slice index starts at {} but ends at {}",
        false,
    ),
    (
        "str indexing",
        "byte index {} is out of bounds of {}",
        false,
    ),
    (
        "str indexing",
        "byte index {} is not a char boundary; {}",
        false,
    ),
    (
        "Vec::remove",
        "removal index (is {}) should be < len (is {})",
        false,
    ),
    (
        "Vec::insert",
        "insertion index (is {}) should be <= len (is {})",
        false,
    ),
    (
        "Vec::swap_remove",
        "swap_remove index (is {}) should be < len (is {})",
        false,
    ),
    ("arithmetic", "attempt to add with overflow", false),
    ("arithmetic", "attempt to subtract with overflow", false),
    ("arithmetic", "attempt to multiply with overflow", false),
    ("arithmetic", "attempt to divide with overflow", false),
    ("arithmetic", "attempt to negate with overflow", false),
    ("arithmetic", "attempt to shift left with overflow", false),
    ("arithmetic", "attempt to shift right with overflow", false),
    ("arithmetic", "attempt to divide by zero", false),
    (
        "arithmetic",
        "attempt to calculate the remainder with a divisor of zero",
        false,
    ),
    ("allocation", "capacity overflow", false),
    ("RefCell", "already borrowed: BorrowMutError", false),
    ("RefCell", "already mutably borrowed: BorrowError", false),
    ("integer parsing", "invalid digit found in string", false),
    (
        "integer parsing",
        "cannot parse integer from empty string",
        false,
    ),
    (
        "integer parsing",
        "number too large to fit in target type",
        false,
    ),
    (
        "integer parsing",
        "number too small to fit in target type",
        false,
    ),
    ("float parsing", "invalid float literal", false),
    (
        "float parsing",
        "cannot parse float from empty string",
        false,
    ),
    (
        "bool parsing",
        "provided string was not `true` or `false`",
        false,
    ),
    ("char parsing", "too many characters in string", false),
    (
        "UTF-8",
        "invalid utf-8 sequence of {} bytes from index {}",
        false,
    ),
    (
        "UTF-8",
        "incomplete utf-8 byte sequence from index {}",
        false,
    ),
    ("I/O", "No such file or directory (os error {})", false),
    ("I/O", "Permission denied (os error {})", false),
    ("I/O", "failed to fill whole buffer", false),
    ("I/O", "failed to write whole buffer", false),
    ("panic!", "explicit panic", false),
];

/// The Python interpreter's own messages (CPython 3.x wordings): (the
/// exception type, template with `{}` holes). Only texts the interpreter
/// writes; what packages commonly raise themselves (`No module named`,
/// `module 'x' has no attribute`) is not here.
const PYTHON: &[(&str, &str)] = &[
    ("TypeError", "argument of type '{}' is not iterable"),
    ("TypeError", "'{}' object is not subscriptable"),
    ("TypeError", "'{}' object is not callable"),
    ("TypeError", "'{}' object is not iterable"),
    ("TypeError", "'{}' object does not support item assignment"),
    ("TypeError", "'{}' object cannot be interpreted as an integer"),
    ("TypeError", "unsupported operand type(s) for {}: '{}' and '{}'"),
    ("TypeError", "can only concatenate str (not \"{}\") to str"),
    ("TypeError", "can only concatenate list (not \"{}\") to list"),
    ("TypeError", "unhashable type: '{}'"),
    ("TypeError", "string indices must be integers"),
    ("TypeError", "string indices must be integers, not '{}'"),
    ("TypeError", "list indices must be integers or slices, not {}"),
    ("TypeError", "{}() got an unexpected keyword argument '{}'"),
    ("TypeError", "{}() got multiple values for argument '{}'"),
    ("TypeError", "{}() missing {} required positional argument: {}"),
    ("TypeError", "{}() missing {} required positional arguments: {}"),
    ("TypeError", "{}() takes {} positional argument but {} were given"),
    ("TypeError", "{}() takes {} positional arguments but {} were given"),
    ("TypeError", "{}() takes from {} to {} positional arguments but {} were given"),
    ("TypeError", "'{}' not supported between instances of '{}' and '{}'"),
    ("TypeError", "object of type '{}' has no len()"),
    ("TypeError", "expected str, bytes or os.PathLike object, not {}"),
    ("AttributeError", "'{}' object has no attribute '{}'"),
    ("IndexError", "list index out of range"),
    ("IndexError", "list assignment index out of range"),
    ("IndexError", "tuple index out of range"),
    ("IndexError", "string index out of range"),
    ("IndexError", "pop from empty list"),
    ("NameError", "name '{}' is not defined"),
    ("UnboundLocalError", "local variable '{}' referenced before assignment"),
    (
        "UnboundLocalError",
        "cannot access local variable '{}' where it is not associated with a value",
    ),
    ("ZeroDivisionError", "float division by zero"),
    ("ZeroDivisionError", "integer division or modulo by zero"),
    ("ValueError", "invalid literal for int() with base {}: {}"),
    ("ValueError", "could not convert string to float: {}"),
    ("ValueError", "not enough values to unpack (expected {}, got {})"),
    ("ValueError", "too many values to unpack (expected {})"),
    ("ValueError", "math domain error"),
    ("RecursionError", "maximum recursion depth exceeded"),
    ("RecursionError", "maximum recursion depth exceeded while calling a Python object"),
    ("RecursionError", "maximum recursion depth exceeded in comparison"),
    ("RuntimeError", "dictionary changed size during iteration"),
    ("RuntimeError", "Set changed size during iteration"),
    ("ImportError", "cannot import name '{}' from '{}' ({})"),
    (
        "ImportError",
        "cannot import name '{}' from partially initialized module '{}' (most likely due to a circular import) ({})",
    ),
];

fn known() -> &'static [Known] {
    static K: OnceLock<Vec<Known>> = OnceLock::new();
    K.get_or_init(|| {
        let rust = RUST_STD.iter().map(|&(s, t, p)| ("std", s, t, p));
        let python = PYTHON.iter().map(|&(s, t)| ("Python", s, t, false));
        rust.chain(python)
            .map(|(runtime, source, template, payload)| {
                let mut t = Template::new();
                for (i, part) in template.split("{}").enumerate() {
                    if i > 0 {
                        t.push_hole(Hole {
                            arg: String::new(),
                            spec: String::new(),
                        });
                    }
                    t.push_lit(part);
                }
                Known {
                    runtime,
                    source,
                    template,
                    pattern: Pattern::new(&t, false),
                    payload,
                }
            })
            .collect()
    })
}

/// std's text when the whole message is one (a sentence's closing `.`
/// after it, as a program prints an error at the end of its own sentence,
/// is not part of it).
pub fn recognise(text: &str) -> Option<StdText> {
    let t = text.trim_end();
    whole_std_text(t).or_else(|| whole_std_text(t.strip_suffix('.')?))
}

fn whole_std_text(text: &str) -> Option<StdText> {
    let norm = normalize(text);
    known().iter().find_map(|k| {
        let found = k.pattern.full(&norm)?;
        let payload = k
            .payload
            .then(|| k.pattern.captures(&found, &norm).pop().map(|c| c.value))
            .flatten()
            .filter(|p| !p.is_empty());
        Some(StdText {
            runtime: k.runtime,
            source: k.source,
            template: k.template,
            payload,
        })
    })
}

/// `Result::expect` in code that is not indexed prints the caller's
/// message, `: `, then the error's `Debug`: a value such as `Name`,
/// `Name(..)`, `Name { .. }` or a quoted string after the first `: ` that
/// is followed by one.
pub fn expect_payload(text: &str) -> Option<StdText> {
    debug_value_after_colon(text).map(|rest| StdText {
        runtime: "std",
        source: "Result::expect",
        template: "{msg}: {err:?}",
        payload: Some(rest.to_string()),
    })
}

/// The `Debug` value after the first `: ` that is followed by one
/// (`context: Name(..)`), as a program prints an error after its own words.
pub fn debug_value_after_colon(text: &str) -> Option<&str> {
    let mut from = 0;
    while let Some(i) = text[from..].find(": ") {
        let rest = text[from + i + 2..].trim();
        if looks_like_debug_value(rest) {
            return Some(rest);
        }
        from += i + 2;
    }
    None
}

/// `Name`, `Name(..)`, `Name { .. }` (a path allowed) or `"…"`.
fn looks_like_debug_value(s: &str) -> bool {
    if s.starts_with('"') && s.ends_with('"') && s.len() > 1 {
        return true;
    }
    let name_end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(s.len());
    let (name, tail) = s.split_at(name_end);
    let camel = name
        .rsplit("::")
        .next()
        .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_uppercase()) && n.len() > 1);
    camel
        && (tail.is_empty()
            || (tail.starts_with('(') && tail.ends_with(')'))
            || (tail.starts_with(" {") && tail.ends_with('}')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwrap_payload_is_taken_out() {
        let s = recognise("called `Result::unwrap()` on an `Err` value: InvalidLength(9)").unwrap();
        assert_eq!(s.source, "Result::unwrap");
        assert_eq!(s.payload.as_deref(), Some("InvalidLength(9)"));
        let s = recognise("called `Option::unwrap()` on a `None` value").unwrap();
        assert_eq!((s.source, s.payload), ("Option::unwrap", None));
        assert_eq!(
            recognise("index out of bounds: the len is 3 but the index is 7")
                .unwrap()
                .source,
            "slice indexing"
        );
        assert!(recognise("invalid length 9").is_none());
        // At the end of a program's sentence.
        assert_eq!(
            recognise("invalid digit found in string.").unwrap().source,
            "integer parsing"
        );
        assert!(recognise("invalid digit found in string..").is_none());
    }

    #[test]
    fn expect_message_then_debug_value() {
        let s = expect_payload("grammar should accept it: Error { variant: X }").unwrap();
        assert_eq!(s.payload.as_deref(), Some("Error { variant: X }"));
        let s = expect_payload("config: bad: InvalidLength(9)").unwrap();
        assert_eq!(s.payload.as_deref(), Some("InvalidLength(9)"));
        assert!(expect_payload("failed to open: no such file").is_none());
    }

    #[test]
    fn pythons_own_texts_are_the_interpreters() {
        let s = recognise("argument of type 'NotImplementedType' is not iterable").unwrap();
        assert_eq!((s.runtime, s.source), ("Python", "TypeError"));
        let s = recognise("'NoneType' object has no attribute 'group'").unwrap();
        assert_eq!(s.source, "AttributeError");
        assert!(recognise("list index out of range").is_some());
        assert!(recognise("f() missing 1 required positional argument: 'x'").is_some());
        // A package's own wording is not the interpreter's.
        assert!(recognise("module 'numpy' has no attribute 'int'").is_none());
        assert!(recognise("Sequence index out of range").is_none());
    }
}
