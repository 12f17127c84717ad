//! What a page states, on the fixture crate `tests/fixtures/pages`: each
//! test a mechanism, with the facts it adds and the sentences that say
//! them.

mod common;

use common::{section, texts};

use common::fixture_named;
use errdex_analyze::{analyze, FactKind, SectionName};
use errdex_catalog::{Catalog, ErrorDetail};

fn error(c: &Catalog, template: &str) -> ErrorDetail {
    common::error_of(c, "pages", template)
}

fn any(v: &[String], needle: &str) -> bool {
    v.iter().any(|t| t.contains(needle))
}

#[test]
fn docs_of_the_thrower_its_type_and_the_public_fns_reaching_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "pages");
    let e = error(&c, "vacant slot");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let d = texts(&a, FactKind::Doc);
    assert!(
        any(&d, "Its doc comment goes on: \"The slot is left empty.\""),
        "{d:?}"
    );
    assert!(
        any(
            &d,
            "The doc of the type `Ring` says: \"Keys are handed out again after `free`: a key must not be used after it was freed.\""
        ),
        "{d:?}"
    );
    assert!(
        any(
            &d,
            "The doc of `Ring::free` (a public fn that reaches it) says under `# Panics`: \"When the slot was already freed.\""
        ),
        "{d:?}"
    );
    assert!(section(&a, SectionName::When).contains("handed out again"));
}

#[test]
fn a_public_thrower_is_also_reached_through_a_trait_impl() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "pages");
    let e = error(&c, "Bounded is full");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let p = texts(&a, FactKind::PublicEntry);
    assert!(
        any(&p, "`Bounded::extend` reaches it") && any(&p, "`.extend(..)` on a `Bounded`"),
        "{p:?}"
    );
}

#[test]
fn constants_a_guard_compares_against_are_evaluated() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "pages");
    let e = error(&c, "frame of {len} bytes is too long");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let v = texts(&a, FactKind::Value);
    assert!(any(&v, "`LIMIT` is `1 << SHIFT` = 4096"), "{v:?}");
    assert!(section(&a, SectionName::When).contains("= 4096"));
    let e = error(&c, "frame nested too deep");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let v = texts(&a, FactKind::Value);
    assert!(any(&v, "`Config::default` sets `depth` to `50`"), "{v:?}");
}

#[test]
fn an_unqualified_call_names_the_fn_of_its_own_module() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "pages");
    let e = error(&c, "fast decoder got no input");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let callers = texts(&a, FactKind::Caller);
    assert!(any(&callers, "`decode_fast` calls `inner`"), "{callers:?}");
    assert!(!any(&callers, "decode_safe"), "{callers:?}");
    assert!(!any(&callers, "more call(s)"), "{callers:?}");
}

#[test]
fn a_struct_error_made_in_a_default_method_names_it_and_its_doc() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "pages");
    let e = error(&c, "unexpected null value");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let k = texts(&a, FactKind::Constructor);
    assert!(
        any(
            &k,
            "`NullValue` is constructed in `FromColumn::from_nullable`, the default method of the trait `FromColumn`"
        ),
        "{k:?}"
    );
    let d = texts(&a, FactKind::Doc);
    assert!(
        any(&d, "a type that accepts null must override it"),
        "{d:?}"
    );
    assert!(
        any(
            &d,
            "The doc of the trait `FromColumn` says: \"Implementors must accept"
        ),
        "{d:?}"
    );
}

#[test]
fn a_partial_order_comparison_also_fails_for_nan_and_debug_asserts_are_gone_in_release() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "pages");
    let e = error(&c, "lo must not exceed hi");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let k = texts(&a, FactKind::Assertion);
    assert!(
        any(&k, "that is when `lo > hi` or either side is NaN"),
        "{k:?}"
    );
    let m = texts(&a, FactKind::Mechanism);
    assert!(any(&m, "(`T: PartialOrd`)"), "{m:?}");
    assert!(any(&m, "there is no check"), "{m:?}");
}

#[test]
fn an_operator_impl_points_to_its_checked_form() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "pages");
    let e = error(&c, "Count subtraction below zero");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let p = texts(&a, FactKind::PublicEntry);
    assert!(any(&p, "the `-` operator on a `Count`"), "{p:?}");
    let alt = texts(&a, FactKind::Alternative);
    assert!(
        any(
            &alt,
            "`Count::checked_sub` is the fallible form of the operator (`Sub`)"
        ),
        "{alt:?}"
    );
    assert!(section(&a, SectionName::Solutions).contains("checked_sub"));
}
