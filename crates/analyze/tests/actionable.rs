//! Pages a user can act on (issue 23), each on a crate this test writes:
//! the fallible twin of a panicking public fn as before/after code, an
//! assertion's precondition checked before the public call with the
//! constant's value, a public fn's `# Panics` section as the condition to
//! rule out, the guard at a caller to avoid, an `unreachable!` reached
//! from a public fn said to be a bug to report, and a returned error of a
//! public fn with nothing else known said to come from that call.

mod common;

use common::{error_of, section, written_crate};
use errdex_analyze::{analyze, Analysis, SectionName};

const LIB: &str = r#"//! A crate written by the test.

/// The most a buffer holds.
pub const LIMIT: usize = 1 << 12;

pub struct Buf {
    len: usize,
}

impl Buf {
    /// Grows the buffer by `n`.
    pub fn grow(&mut self, n: usize) {
        self.try_grow(n).expect("capacity overflow");
    }

    /// Grows the buffer by `n`, or says why it cannot.
    pub fn try_grow(&mut self, n: usize) -> Result<(), String> {
        if n > LIMIT {
            return Err(format!("{n} is over the limit"));
        }
        self.len += n;
        Ok(())
    }
}

/// Makes a window of `width` cells.
pub fn window(width: usize) -> Vec<u8> {
    assert!(width <= LIMIT, "window too wide");
    vec![0; width]
}

/// Packs the items.
pub fn pack(items: &[u8]) -> usize {
    let n = items.len();
    assert!(n != 0, "nothing to pack");
    n
}

/// Takes the first byte.
///
/// # Panics
///
/// If `data` is empty.
pub fn first(data: &[u8]) -> u8 {
    head(data)
}

fn head(data: &[u8]) -> u8 {
    if data.is_empty() {
        panic!("no first byte");
    }
    data[0]
}

/// Splits at the midpoint.
pub fn split(data: &[u8]) -> usize {
    if data.len() > 1 {
        cut(data.len())
    } else {
        0
    }
}

#[cold]
fn cut(_n: usize) -> usize {
    panic!("cut of nothing")
}

/// Reads a mode byte.
pub fn mode(b: u8) -> u8 {
    classify(b % 3)
}

fn classify(m: u8) -> u8 {
    match m {
        0 | 1 | 2 => m,
        _ => unreachable!("mode out of range"),
    }
}

#[derive(Debug)]
pub struct Closed;

pub enum Never {}

impl std::fmt::Display for Never {
    fn fmt(&self, _f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        unreachable!("a value of an empty enum")
    }
}

/// Sends a value.
pub fn send(v: u8) -> Result<u8, Closed> {
    if v == 0 {
        return Err(Closed);
    }
    Ok(v)
}
"#;

fn analysed(template: &str) -> Analysis {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = written_crate(tmp.path(), "actionable", &[("src/lib.rs", LIB)]);
    let e = error_of(&c, "actionable", template);
    analyze(&an, &e, an.facts(&e), None, "")
}

fn fix(a: &Analysis) -> (String, String) {
    let s = a
        .sections
        .iter()
        .find(|s| s.name == SectionName::ExampleFix)
        .unwrap();
    (
        section(a, SectionName::ExampleFix),
        s.code.clone().unwrap_or_default(),
    )
}

#[test]
fn a_panicking_fn_with_a_fallible_twin_gets_before_and_after_code() {
    let a = analysed("capacity overflow");
    let (text, code) = fix(&a);
    assert!(
        text.contains("Call `Buf::try_grow` instead of `Buf::grow`"),
        "{text}\n{code}"
    );
    // Methods are called on a value, as the user writes them.
    assert!(code.contains("x.grow(n)"), "{code}");
    assert!(code.contains("x.try_grow(n)?"), "{code}");
}

#[test]
fn an_assertion_of_a_public_fn_is_checked_before_the_call_with_the_constant() {
    let a = analysed("window too wide");
    let (text, code) = fix(&a);
    assert!(
        text.contains("Check `width <= LIMIT` before calling `window`"),
        "{text}"
    );
    assert!(text.contains("4096"), "{text}");
    assert!(code.starts_with("if width <= LIMIT {"), "{code}");
}

#[test]
fn an_assertion_on_a_local_of_the_body_is_not_offered_as_the_callers_check() {
    let a = analysed("nothing to pack");
    let (text, code) = fix(&a);
    assert!(
        !text.contains("Check `n != 0`") && !code.contains("if n != 0"),
        "{text}\n{code}"
    );
}

#[test]
fn a_public_fns_panics_section_is_the_condition_to_rule_out() {
    let a = analysed("no first byte");
    let s = section(&a, SectionName::Solutions);
    assert!(
        s.contains("Before calling `first`, rule out what its doc lists under `# Panics`: \"If `data` is empty.\""),
        "{s}"
    );
    assert!(!s.contains("Read the documented conditions"), "{s}");
}

#[test]
fn a_guard_at_a_caller_is_the_path_to_avoid() {
    let a = analysed("cut of nothing");
    let s = section(&a, SectionName::Solutions);
    assert!(
        s.contains("Avoid the path that leads here: where `split` calls it"),
        "{s}"
    );
}

#[test]
fn an_unreachable_reached_from_a_public_fn_is_a_bug_to_report() {
    let a = analysed("internal error: entered unreachable code: mode out of range");
    let s = section(&a, SectionName::Solutions);
    assert!(
        s.contains("No input of `mode` should reach it") && s.contains("report it"),
        "{s}"
    );
}

#[test]
fn an_unreachable_stub_of_a_trait_impl_names_what_the_user_does() {
    let a = analysed("internal error: entered unreachable code: a value of an empty enum");
    let s = section(&a, SectionName::Solutions);
    assert!(
        s.contains("Nothing you do should reach it: if formatting a `Never`")
            && s.contains("report it"),
        "{s}"
    );
}

/// A fact `f1` of `kind` stating `text`, about what `detail` says, placed
/// nowhere.
fn fact(
    kind: errdex_analyze::FactKind,
    text: String,
    detail: errdex_analyze::Detail,
) -> errdex_analyze::Fact {
    errdex_analyze::Fact {
        id: "f1".into(),
        kind,
        text,
        path: None,
        line: None,
        code: None,
        error_id: None,
        detail: Some(detail),
    }
}

#[test]
fn a_serde_method_says_what_in_the_data_makes_serde_call_it() {
    // The When section, from a mechanism fact that names the serde method.
    let when = |serde_trait: &str, method: &str, ty: &str| {
        let fact = fact(
            errdex_analyze::FactKind::Mechanism,
            format!("The error is made with serde's `Error::custom` in `{serde_trait}::{method}` for `{ty}`."),
            errdex_analyze::Detail::SerdeMethod {
                serde_trait: serde_trait.into(),
                method: method.into(),
                ty: ty.into(),
            },
        );
        let sections = errdex_analyze::sections::write(
            errdex_model::Kind::SerdeCustom,
            "rust",
            std::slice::from_ref(&fact),
        );
        sections[1]
            .sentences
            .iter()
            .map(|s| s.text.clone())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let t = when("Serializer", "serialize_i8", "Emitter");
    assert!(
        t.contains("`serialize_i8` when the value you serialize through `Emitter` holds an `i8`"),
        "{t}"
    );
    let t = when("VariantAccess", "newtype_variant_seed", "UnitOnly");
    assert!(t.contains("expects a newtype variant"), "{t}");
    assert!(!when("Serializer", "collect_str", "E").contains("serde calls"));
}

#[test]
fn a_facts_subjects_hold_its_detail_whole() {
    // What the verifier asks a model's sentence to name: a receiver holding
    // a backtick is cut by the sentence's spans, whole in the detail.
    let expr = r#"schema.get("title").expect("schema defines `title` key")"#;
    let fact = fact(
        errdex_analyze::FactKind::Receiver,
        format!("It fires when `{expr}` is `None`."),
        errdex_analyze::Detail::Receiver {
            expr: expr.into(),
            holds: errdex_analyze::Holds::None,
        },
    );
    assert!(!fact.text.split('`').any(|s| s == expr));
    assert!(fact.subjects().contains(&expr), "{:?}", fact.subjects());
}
