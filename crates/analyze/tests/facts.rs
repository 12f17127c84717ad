//! Facts and sections on the fixture crate `tests/fixtures/facts`, indexed
//! into a real catalogue.

mod common;

use common::texts;

use common::fixture as catalogue;
use errdex_analyze::{analyze, Author, FactKind, SectionName};
use errdex_catalog::{Catalog, ErrorDetail};

fn error(c: &Catalog, template: &str) -> ErrorDetail {
    common::error_of(c, "facts", template)
}

#[test]
fn guard_doc_test_and_sections_of_a_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = catalogue(tmp.path());
    let e = error(&c, "division by zero: {a} / {b}");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert_eq!(
        texts(&a, FactKind::Guard),
        ["It runs only when `b == 0` is true."]
    );
    assert!(texts(&a, FactKind::Item)[0].contains("`pub fn divide(a: u32, b: u32) -> u32`"));
    assert!(texts(&a, FactKind::Doc)
        .iter()
        .any(|t| t.contains("When `b` is zero.")));
    let tests = texts(&a, FactKind::Test);
    assert!(tests[0].contains("divide_by_zero_panics"), "{tests:?}");
    let test = a.facts_of(FactKind::Test).next().unwrap();
    assert!(test.code.as_deref().unwrap().contains("divide(1, 0);"));
    assert!(a.has_trigger());

    // Every section is written, by the rules, and cites existing facts.
    let ids: Vec<&str> = a.facts.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        a.sections.iter().map(|s| s.name).collect::<Vec<_>>(),
        SectionName::ALL
    );
    for s in &a.sections {
        assert_eq!(s.author, Author::Rules);
        for sentence in &s.sentences {
            assert!(!sentence.facts.is_empty(), "{sentence:?}");
            assert!(sentence.facts.iter().all(|f| ids.contains(&f.as_str())));
        }
    }
    let fix = &a.sections[3];
    assert!(fix.code.as_deref().unwrap().contains("divide(1, 0)"));
}

#[test]
fn callers_through_generic_bounds_and_a_trait_default() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = catalogue(tmp.path());
    let e = error(&c, "this codec cannot decode frames");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let callers = texts(&a, FactKind::Caller);
    assert!(
        callers
            .iter()
            .any(|t| t.contains("`decode_all`")
                && t.contains("through the generic bound `C: Codec`")),
        "{callers:?}"
    );
    assert!(
        callers
            .iter()
            .any(|t| t.contains("`decode_one`")
                && t.contains("through the generic bound `T: Codec`")),
        "{callers:?}"
    );
    let mechanisms = texts(&a, FactKind::Mechanism);
    assert!(
        mechanisms
            .iter()
            .any(|t| t.contains("default method (provided by the trait `Codec`)")),
        "{mechanisms:?}"
    );
    let sentinels = texts(&a, FactKind::Sentinel);
    // The body is only the panic: a deliberate refusal.
    assert!(
        sentinels.iter().any(|t| t.contains("only this panic")),
        "{sentinels:?}"
    );
    // The integration test expecting the panic.
    assert!(texts(&a, FactKind::Test)
        .iter()
        .any(|t| t.contains("plain_has_no_frames")));
}

#[test]
fn method_callers_receivers_assertions_and_public_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = catalogue(tmp.path());
    let e = error(&c, "depth {depth} beyond the stack");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert_eq!(
        texts(&a, FactKind::Assertion),
        ["It fires when the asserted condition `depth <= self.items.len()` is false, that is when `depth > self.items.len()`."]
    );
    let callers = texts(&a, FactKind::Caller);
    assert!(
        callers.iter().any(|t| t
            .contains("`Stack::peek` calls `self.check` (resolved through the type of `self`)")),
        "{callers:?}"
    );

    let e = error(&c, "stack is empty, nothing on top");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert_eq!(
        texts(&a, FactKind::Receiver),
        ["It fires when `self.items.last()` is `None` (it is an `Option`)."]
    );
}

#[test]
fn variant_constructors_and_related_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = catalogue(tmp.path());
    let e = error(&c, "invalid pickle header {0:#x}");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let ctors: Vec<(String, u32)> = a
        .facts_of(FactKind::Constructor)
        .map(|f| (f.text.clone(), f.line.unwrap()))
        .collect();
    assert_eq!(ctors.len(), 2, "{ctors:?}");
    assert!(ctors
        .iter()
        .all(|(t, _)| t.contains("`PickleError::InvalidHeader` is constructed in `load`")));
    let related = texts(&a, FactKind::Related);
    assert!(
        related
            .iter()
            .any(|t| t.contains("pickle nesting deeper than {limit}")
                && t.contains("error type `PickleError`")),
        "{related:?}"
    );
    // The test asserting on the message's text.
    assert!(texts(&a, FactKind::Test)
        .iter()
        .any(|t| t.contains("header_error_text")));
}

#[test]
fn a_marker_and_hostile_comments_stay_data() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = catalogue(tmp.path());
    let e = error(
        &c,
        "not implemented: memory maps are not supported on this platform",
    );
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert!(texts(&a, FactKind::Sentinel)[0].contains("`mmap_file` is marked as not written yet"));
    // Text that tries to redirect a reader is quoted as the doc comment it
    // is, never taken as a fact about who throws.
    assert!(texts(&a, FactKind::Item)[0].contains("`mmap_file`"));
    for f in a.facts.iter().filter(|f| f.kind != FactKind::Doc) {
        assert!(!f.text.contains("launch_missiles"), "{f:?}");
    }
    assert!(texts(&a, FactKind::Doc)[0].starts_with("Its doc comment says: \"Not supported"));
}

#[test]
fn the_same_snapshot_states_the_same_facts_on_every_run() {
    // A const defined per target in two files and a field declared in two
    // structs of two files: what is listed and chosen among them was read
    // in a hash map's order, which changes from one analyser to the next.
    let tmp = tempfile::tempdir().unwrap();
    let files = [
        (
            "src/lib.rs",
            "pub mod unix;\npub mod windows;\npub mod a;\npub mod b;\n\
             pub fn check(n: usize) {\n    assert!(n < LIMIT, \"too many handles\");\n}\n\
             use unix::LIMIT;\n",
        ),
        ("src/unix.rs", "#[cfg(unix)]\npub const LIMIT: usize = 4;\n"),
        (
            "src/windows.rs",
            "#[cfg(windows)]\npub const LIMIT: usize = 8;\n",
        ),
        (
            "src/a.rs",
            "pub struct A {\n    pub inner: crate::b::B,\n}\n",
        ),
        ("src/b.rs", "pub struct B {\n    pub inner: u8,\n}\n"),
    ];
    let (c, first) = common::written_crate(tmp.path(), "runs", &files);
    let e = common::error_of(&c, "runs", "too many handles");
    let facts = |an: &errdex_analyze::Analyzer| -> Vec<String> {
        an.facts(&e).into_iter().map(|f| f.text).collect()
    };
    let want = facts(&first);
    assert!(
        want.iter().any(|t| t.contains("`LIMIT` has 2 definitions")),
        "{want:#?}"
    );
    let row = c.newest_snapshot("runs").unwrap().unwrap();
    for _ in 0..8 {
        let an = errdex_analyze::Analyzer::new(
            row.clone(),
            c.snapshot_files(row.id).unwrap(),
            c.list_errors(Some("runs"), None).unwrap(),
        );
        assert_eq!(facts(&an), want);
    }
}
