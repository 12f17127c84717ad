//! The verifier on arbitrary prose: it answers (accepts or refuses) and
//! never panics. Found by probing: characters whose lowercase has another
//! length in UTF-8 (the Kelvin sign `K` → `k`, `İ` → `i̇`) shifted the
//! offsets found in a lowercase copy, and slicing the original with them
//! panicked.

use errdex_analyze::verify::{check, Ground};
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};

fn with_ground<T>(f: impl FnOnce(&Ground) -> T) -> T {
    let ids: HashSet<String> = ["divide", "checked_divide", "b"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let fns: HashSet<String> = ["divide", "checked_divide"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let facts: HashMap<String, Vec<String>> =
        [("f1".to_string(), vec!["divide".to_string()])].into();
    let thrower = vec!["divide".to_string()];
    let g = Ground {
        identifiers: &ids,
        facts_text: "The message `division by zero` is produced by a `panic!` in `divide`.",
        thrower: &thrower,
        fn_names: &fns,
        fact_code: &facts,
    };
    f(&g)
}

fn verdict(text: &str) -> Result<(), String> {
    with_ground(|g| check(&[(text.to_string(), vec!["f1".to_string()])], None, g))
        .map_err(|r| r.to_string())
}

#[test]
fn lowercase_of_another_length_does_not_panic() {
    // Each K is 3 bytes, its lowercase 1: the phrase's offset in the
    // lowercase copy pointed inside a character of the original.
    let text = "\u{212a}\u{212a}\u{212a} It is raised in `checked_divide`.";
    assert!(verdict(text).unwrap_err().contains("checked_divide"));
    // İ is 2 bytes, its lowercase 3: offsets ran past the end.
    let text = "\u{130}\u{130}\u{130}\u{130}\u{130}\u{130} raised in `divide`";
    assert!(verdict(text).is_ok());
    // The smallest input proptest found: the phrase, then a 4-byte
    // character and a Kelvin sign.
    let _ = verdict("raised in \u{1df25}\u{212a}");
}

/// Prose pieces mixing the verifier's phrases, names and characters whose
/// case mapping changes length.
fn prose() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("raised in ".to_string()),
        Just("THROWN BY ".to_string()),
        Just("comes from the fn ".to_string()),
        Just("`divide`".to_string()),
        Just("checked_divide".to_string()),
        Just("\u{212a}".to_string()),
        Just("\u{130}".to_string()),
        Just("\u{1e9e}".to_string()),
        Just("ß".to_string()),
        Just("\u{149}".to_string()),
        Just("ﬃ".to_string()),
        Just(" ".to_string()),
        "\\PC{0,6}",
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_prose_gets_a_verdict(text in prose()) {
        let _ = verdict(&text);
    }
}
