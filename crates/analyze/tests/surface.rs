//! Facts that carry to crates nobody read, each on a crate this test
//! writes: what an assertion protects, a check a `cfg`-selected macro
//! compiles out, an exported macro as the public entry (at compile time
//! in a `const` block), the doc of an operator's type, and `Display`
//! arms written as a `match` of literals traced to where the variant is
//! made.

mod common;

use common::{error_of, section, texts, written_crate};
use errdex_analyze::{analyze, Analysis, FactKind, SectionName};

const LIB: &str = r#"//! A crate written by the test.
use std::fmt;
use std::ops::Sub;

pub struct Table {
    shift: usize,
}

impl Table {
    /// Makes a table of `n` buckets.
    pub fn with_buckets(n: usize) -> Self {
        assert!(n.is_power_of_two());
        let shift = usize::BITS as usize - n.trailing_zeros() as usize;
        Table { shift }
    }
}

#[cfg(feature = "checks")]
macro_rules! check {
    ($($arg:tt)*) => ( assert!($($arg)*); )
}
#[cfg(not(feature = "checks"))]
macro_rules! check {
    ($($arg:tt)*) => {};
}

/// Scales a length.
pub fn unit(len: f32) -> f32 {
    let r = 1.0 / len;
    check!(r.is_finite());
    r
}

const fn digit(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b' ' | b':' => 0,
        _ => panic!("not a decimal digit"),
    }
}

#[doc(hidden)]
pub const fn parse(s: &[u8]) -> u8 {
    digit(s[0])
}

/// Parses a digit at compile time.
#[macro_export]
macro_rules! digit {
    ($s:literal) => {{
        const { $crate::parse($s.as_bytes()) }
    }};
}

pub enum Mode {
    Native,
    Emulated,
}

fn check_name(s: &str) {
    if s.is_empty() {
        panic!("an empty name is not allowed here");
    }
}

fn make(s: &str) {
    check_name(s);
}

fn make_in(mode: Mode, s: &str) {
    match mode {
        Mode::Native => {}
        Mode::Emulated => make(s),
    }
}

/// Makes a name.
pub fn name(mode: Mode, s: &str) {
    make_in(mode, s)
}

/// A small unsigned number, never below zero.
pub struct Small(pub u8);

fn sub_small(a: u8, b: u8) -> u8 {
    if b > a {
        panic!("cannot go below zero in Small");
    }
    a - b
}

impl Sub for Small {
    type Output = Small;
    fn sub(self, other: Small) -> Small {
        Small(sub_small(self.0, other.0))
    }
}

#[derive(Debug)]
pub enum WireError {
    Refused,
    Short,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use WireError::*;
        write!(
            f,
            "{}",
            match self {
                Refused => "the wire format refuses this call",
                Short => "input ended early",
            }
        )
    }
}

impl std::error::Error for WireError {}

/// Reads any value: the format is not self-describing.
pub fn read_any() -> Result<u8, WireError> {
    Err(WireError::Refused)
}
"#;

fn page(a: &Analysis) -> String {
    SectionName::ALL
        .iter()
        .map(|&n| section(a, n))
        .collect::<Vec<_>>()
        .join("\n")
}

fn analysed(template: &str) -> Analysis {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = written_crate(tmp.path(), "surface", &[("src/lib.rs", LIB)]);
    let e = error_of(&c, "surface", template);
    analyze(&an, &e, an.facts(&e), None, "")
}

#[test]
fn an_assertion_names_what_it_protects() {
    let a = analysed("assertion failed: n.is_power_of_two()");
    let v = texts(&a, FactKind::Value);
    assert!(
        v.iter().any(|t| t.contains("After the check, `n` is used in `let shift = usize::BITS as usize - n.trailing_zeros() as usize;`")),
        "{v:?}"
    );
    assert!(section(&a, SectionName::When).contains("trailing_zeros"));
}

#[test]
fn a_macro_defined_as_nothing_in_one_cfg_compiles_the_check_out() {
    let a = analysed("assertion failed: r.is_finite()");
    let m = texts(&a, FactKind::Mechanism);
    let t = m
        .iter()
        .find(|t| t.contains("`check!` is defined twice"))
        .unwrap_or_else(|| panic!("{m:?}"));
    assert!(t.contains("`cfg(feature = \"checks\")`"), "{t}");
    assert!(
        t.contains("expands to nothing") && t.contains("compiled out"),
        "{t}"
    );
    assert!(page(&a).contains("`checks`"), "{}", page(&a));
}

#[test]
fn an_exported_macro_is_the_entry_and_its_const_block_fails_the_build() {
    let a = analysed("not a decimal digit");
    let e = texts(&a, FactKind::PublicEntry);
    assert!(
        e.iter()
            .any(|t| t
                .contains("The exported macro `digit!` reaches it: its expansion calls `parse`")),
        "{e:?}"
    );
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        m.iter()
            .any(|t| t.contains("`digit!` makes that call inside a `const` block")),
        "{m:?}"
    );
}

#[test]
fn an_operator_entry_quotes_its_types_doc() {
    let a = analysed("cannot go below zero in Small");
    let d = texts(&a, FactKind::Doc);
    assert!(
        d.iter().any(|t| t.contains("The doc of the type `Small` (the type of the operands) says: \"A small unsigned number, never below zero.\"")),
        "{d:?}"
    );
}

#[test]
fn a_display_arm_of_a_glob_imported_variant_names_where_it_is_made() {
    let a = analysed("the wire format refuses this call");
    let c = texts(&a, FactKind::Constructor);
    assert!(
        c.iter()
            .any(|t| t.contains("`WireError::Refused` is constructed in `read_any`")),
        "{c:?}"
    );
    assert!(page(&a).contains("read_any"));
}

#[test]
fn a_catch_all_arm_names_what_the_earlier_arms_take() {
    let a = analysed("not a decimal digit");
    let g = texts(&a, FactKind::Guard);
    assert!(
        g.iter().any(|t| t.contains("none of the earlier arms `b'0'..=b'9'`, `b' ' | b':'` took it (those accept space, `:`)")),
        "{g:?}"
    );
}

#[test]
fn guards_along_the_path_to_the_public_fn_are_stated() {
    let a = analysed("an empty name is not allowed here");
    let g = texts(&a, FactKind::Guard);
    let all: Vec<&String> = a.facts.iter().map(|f| &f.text).collect();
    assert!(
        g.iter()
            .any(|t| t.contains("Where `make_in` calls `make` on the way")
                && t.contains("matches the arm `Mode::Emulated`")),
        "{all:#?}"
    );
    assert!(texts(&a, FactKind::PublicEntry)
        .iter()
        .any(|t| t.contains("`name`")));
}
