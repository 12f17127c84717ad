//! The verifier: a model's section is accepted only when every identifier
//! it names exists in the snapshot or the message, it names no function
//! but the real one as the thrower, it cites only known facts, and any code
//! it gives parses.

use std::collections::HashSet;

/// What a section is checked against.
pub struct Ground<'a> {
    /// Identifiers of the snapshot's code (every identifier token).
    pub identifiers: &'a HashSet<String>,
    /// The message template and the facts' text (their identifiers count).
    pub facts_text: &'a str,
    /// Names the thrower goes by: `f`, `Type::f`.
    pub thrower: &'a [String],
    /// Names of every fn of the snapshot.
    pub fn_names: &'a HashSet<String>,
    /// The facts by id, with the code each is about ([`crate::Fact::subjects`]).
    pub fact_code: &'a std::collections::HashMap<String, Vec<String>>,
}

/// Words that are Rust or std vocabulary, fine to name anywhere.
const VOCABULARY: &[&str] = &[
    "fn",
    "let",
    "mut",
    "match",
    "if",
    "else",
    "for",
    "while",
    "loop",
    "return",
    "Some",
    "None",
    "Ok",
    "Err",
    "Option",
    "Result",
    "Box",
    "Vec",
    "String",
    "str",
    "self",
    "Self",
    "impl",
    "unwrap",
    "expect",
    "unwrap_or",
    "unwrap_or_else",
    "unwrap_or_default",
    "ok_or",
    "map_err",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "println",
    "eprintln",
    "format",
    "dbg",
    "use",
    "pub",
    "mod",
    "crate",
    "super",
    "struct",
    "enum",
    "trait",
    "where",
    "as",
    "in",
    "ref",
    "move",
    "true",
    "false",
    "value",
    "err",
    "error",
    "e",
    "x",
    "v",
    "is_some",
    "is_none",
    "is_ok",
    "is_err",
    "main",
    "std",
    "io",
    "fmt",
    "Display",
    "Debug",
    "Error",
    "anyhow",
    "context",
    "with_context",
    "u8",
    "u16",
    "u32",
    "u64",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "isize",
    "f32",
    "f64",
    "bool",
    "char",
    "to_string",
    "len",
    "is_empty",
    "clone",
    "into",
    "from",
    "new",
    "default",
    "get",
    "iter",
    "map",
    "and_then",
    "async",
    "await",
    "dyn",
    "const",
    "static",
    "unsafe",
    "type",
    "RUST_BACKTRACE",
    "cargo",
    "test",
    "should_panic",
    "expected",
];

/// Every identifier-like token of `text`.
pub fn identifiers_of(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| {
            t.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
        })
}

/// True when `code` parses as Rust statements or items.
pub fn parses(code: &str) -> bool {
    let mut p = errdex_syntax::parser();
    let ok = |src: &str, p: &mut tree_sitter::Parser| {
        p.parse(src.as_bytes(), None)
            .is_some_and(|t| !t.root_node().has_error())
    };
    ok(code, &mut p) || ok(&format!("fn __errdex_check() {{\n{code}\n}}"), &mut p)
}

/// Spans in backticks.
fn code_spans(text: &str) -> impl Iterator<Item = &str> {
    text.split('`').skip(1).step_by(2)
}

/// Verbs that say which function raised the error, followed by the name.
const THROWER_PHRASES: &[&str] = &[
    "raised in",
    "raised by",
    "thrown in",
    "thrown by",
    "thrown from",
    "raised from",
    "panics in",
    "returned by",
    "returned from",
    "produced by",
    "produced in",
    "comes from",
    "originates in",
    "originates from",
    "emitted by",
    "fails in",
];

/// Why the verifier refuses a model's section (its text is the reason a
/// page's provenance shows).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No sentence.
    #[error("empty section")]
    Empty,
    /// A sentence cites no fact.
    #[error("a sentence cites no fact")]
    NoCitation,
    /// A sentence cites a fact id that does not exist.
    #[error("cites an unknown fact `{0}`")]
    UnknownFact(String),
    /// Code in prose, outside backticks.
    #[error("a sentence holds code outside backticks")]
    CodeOutsideBackticks,
    /// A sentence names an identifier found nowhere.
    #[error("names `{0}`, which is not in the repository or the facts")]
    UnknownName(String),
    /// A sentence names another fn as the thrower.
    #[error("says the error comes from `{named}`, but it is raised in `{thrower}`")]
    OtherThrower {
        /// The fn named.
        named: String,
        /// The fn that raises the error.
        thrower: String,
    },
    /// Two sentences are the same.
    #[error("it repeats a sentence")]
    Repeats,
    /// The example code does not parse.
    #[error("its code does not parse as Rust")]
    CodeDoesNotParse,
    /// The example code names an identifier found nowhere.
    #[error("its code names `{0}`, which is not in the repository or the facts")]
    CodeUnknownName(String),
    /// Nothing the cited facts are about is named: vague prose.
    #[error("it names none of the code its facts are about")]
    Vague,
}

/// Checks one section; `Err` says why it is refused.
pub fn check(
    sentences: &[(String, Vec<String>)],
    code: Option<&str>,
    g: &Ground,
) -> Result<(), Refusal> {
    if sentences.is_empty() {
        return Err(Refusal::Empty);
    }
    let facts_words: HashSet<&str> = identifiers_of(g.facts_text).collect();
    let known = |w: &str| {
        VOCABULARY.contains(&w)
            || g.identifiers.contains(w)
            || facts_words.contains(w)
            || w.chars().all(|c| c.is_ascii_digit())
    };
    for (text, facts) in sentences {
        if facts.is_empty() {
            return Err(Refusal::NoCitation);
        }
        for id in facts {
            if !g.fact_code.contains_key(id) {
                return Err(Refusal::UnknownFact(id.clone()));
            }
        }
        let prose: String = text.split('`').step_by(2).collect();
        if prose.contains('\n')
            || ["{", "}", ";", "=>", "->"]
                .iter()
                .any(|c| prose.contains(c))
        {
            return Err(Refusal::CodeOutsideBackticks);
        }
        for span in code_spans(text) {
            for w in identifiers_of(span) {
                if !known(w) {
                    return Err(Refusal::UnknownName(w.to_string()));
                }
            }
        }
        // Code-looking words outside backticks: snake_case, paths, calls.
        for w in text.split_whitespace() {
            let w = w.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'));
            let looks_like_code = (w.contains('_') && w.len() > 2) || w.contains("::");
            if looks_like_code {
                for part in identifiers_of(w) {
                    if !known(part) {
                        return Err(Refusal::UnknownName(part.to_string()));
                    }
                }
            }
        }
        // ASCII lowercase keeps every byte offset (the phrases are ASCII);
        // a full lowercase does not (`K` → `k`, `İ` → `i̇`), and offsets found
        // in it would slice `text` inside a character.
        let lower = text.to_ascii_lowercase();
        for phrase in THROWER_PHRASES {
            let mut rest = lower.as_str();
            while let Some(i) = rest.find(phrase) {
                let after = &text[text.len() - rest.len() + i + phrase.len()..];
                rest = &rest[i + phrase.len()..];
                let named = after
                    .trim_start()
                    .trim_start_matches("the fn ")
                    .trim_start_matches("the function ")
                    .trim_start_matches('`');
                let name: String = named
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                if name.is_empty() {
                    continue;
                }
                let last = name.rsplit("::").next().unwrap_or(&name).to_string();
                let is_fn = g.fn_names.contains(&last);
                let is_thrower = g
                    .thrower
                    .iter()
                    .any(|t| *t == name || t.rsplit("::").next() == Some(last.as_str()));
                if is_fn && !is_thrower {
                    return Err(Refusal::OtherThrower {
                        named: name,
                        thrower: g
                            .thrower
                            .first()
                            .map_or("another fn", String::as_str)
                            .to_string(),
                    });
                }
            }
        }
    }
    let mut seen = HashSet::new();
    if sentences.iter().any(|(t, _)| !seen.insert(t.trim())) {
        return Err(Refusal::Repeats);
    }
    if let Some(code) = code {
        if !parses(code) {
            return Err(Refusal::CodeDoesNotParse);
        }
        for w in identifiers_of(code) {
            if !known(w) && !is_local_binding(code, w) {
                return Err(Refusal::CodeUnknownName(w.to_string()));
            }
        }
    }
    // Specific to this error: the section names code (in a sentence's
    // backticks or in its code) that the facts it cites are about; vague
    // prose that would fit any error is refused.
    let cited: HashSet<&str> = sentences
        .iter()
        .flat_map(|(_, facts)| facts)
        .filter_map(|id| g.fact_code.get(id))
        .flatten()
        .flat_map(|span| identifiers_of(span))
        .filter(|w| !VOCABULARY.contains(w))
        .collect();
    let named = sentences
        .iter()
        .flat_map(|(text, _)| code_spans(text))
        .chain(code)
        .flat_map(identifiers_of)
        .any(|w| cited.contains(w));
    if !named {
        return Err(Refusal::Vague);
    }
    Ok(())
}

/// `w` is bound in `code` itself (`let w`, `Some(w)`, `|w|`, `Ok(w)`), so
/// naming it invents nothing.
fn is_local_binding(code: &str, w: &str) -> bool {
    ["let ", "let mut ", "Some(", "Ok(", "Err(", "|", "for "]
        .iter()
        .any(|p| code.contains(&format!("{p}{w}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ground<'a>(
        ids: &'a HashSet<String>,
        fns: &'a HashSet<String>,
        facts: &'a std::collections::HashMap<String, Vec<String>>,
        thrower: &'a [String],
    ) -> Ground<'a> {
        Ground {
            identifiers: ids,
            facts_text: "The message `division by zero` is produced by a `panic!` in `divide`.",
            thrower,
            fn_names: fns,
            fact_code: facts,
        }
    }

    fn set(words: &[&str]) -> HashSet<String> {
        words.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn refuses_what_the_repository_does_not_hold() {
        let ids = set(&["divide", "checked_divide", "b", "a"]);
        let fns = set(&["divide", "checked_divide"]);
        let facts: std::collections::HashMap<String, Vec<String>> = [
            (
                "f1".to_string(),
                vec!["divide".to_string(), "b".to_string()],
            ),
            ("f2".to_string(), vec!["b == 0".to_string()]),
        ]
        .into();
        let thrower = vec!["divide".to_string()];
        let g = ground(&ids, &fns, &facts, &thrower);
        let s = |t: &str| vec![(t.to_string(), vec!["f1".to_string()])];
        assert!(check(&s("It is raised in `divide` when `b` is zero."), None, &g).is_ok());
        let e = check(&s("Call `safe_divide` instead."), None, &g)
            .unwrap_err()
            .to_string();
        assert!(e.contains("safe_divide"), "{e}");
        let e = check(&s("This panic is raised in `checked_divide`."), None, &g)
            .unwrap_err()
            .to_string();
        assert!(e.contains("raised in `divide`"), "{e}");
        let e = check(&s("Use the frobnicate_all helper."), None, &g)
            .unwrap_err()
            .to_string();
        assert!(e.contains("frobnicate_all"), "{e}");
        let bad_cite = vec![("Fine.".to_string(), vec!["f9".to_string()])];
        assert!(check(&bad_cite, None, &g)
            .unwrap_err()
            .to_string()
            .contains("f9"));
        let no_cite = vec![("It is raised in `divide`.".to_string(), vec![])];
        assert!(check(&no_cite, None, &g)
            .unwrap_err()
            .to_string()
            .contains("cites no fact"));
        // A model pasting the excerpt instead of writing prose.
        let pasted = s("b: u32) -> u32 {\n    panic!(\"division by zero\")");
        assert!(check(&pasted, None, &g)
            .unwrap_err()
            .to_string()
            .contains("code outside backticks"));
        // Vague prose that fits any error, and repetition.
        let vague = s("This is a custom function that will handle both cases.");
        assert!(check(&vague, None, &g)
            .unwrap_err()
            .to_string()
            .contains("names none of the code"));
        let twice = vec![
            (
                "It is raised in `divide`.".to_string(),
                vec!["f1".to_string()],
            ),
            (
                "It is raised in `divide`.".to_string(),
                vec!["f1".to_string()],
            ),
        ];
        assert!(check(&twice, None, &g)
            .unwrap_err()
            .to_string()
            .contains("repeats"));
        assert!(check(&s("Fix:"), Some("if b != 0 { divide(a, b); }"), &g).is_ok());
        assert!(check(&s("Fix:"), Some("if b != 0 { divide(a, b) "), &g)
            .unwrap_err()
            .to_string()
            .contains("parse"));
        assert!(check(&s("Fix:"), Some("safe::divide_by(a, b);"), &g).is_err());
    }
}
