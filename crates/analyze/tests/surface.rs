//! Facts that carry to crates nobody read, each on a crate this test
//! writes: what an assertion protects, a check a `cfg`-selected macro
//! compiles out, an exported macro as the public entry (at compile time
//! in a `const` block), the doc of an operator's type, and `Display`
//! arms written as a `match` of literals traced to where the variant is
//! made, the docs of the public entries, and what users do that calls a
//! serde `Deserializer` or a `Service`.

mod common;

use common::{error_of, section, texts, written_crate};
use errdex_analyze::{analyze, Analysis, FactKind, SectionName};

const LIB: &str = r#"//! A crate written by the test.
use serde::de;
use std::fmt;
use std::ops::Sub;
use std::task::Poll;
use tower_service::Service;

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

#[derive(Debug)]
pub enum FormatError {
    Undescribed,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Undescribed => f.write_str("this format cannot describe its input"),
        }
    }
}

pub struct Reader;

impl<'de> de::Deserializer<'de> for &mut Reader {
    type Error = FormatError;
    fn deserialize_any<V: de::Visitor<'de>>(self, _v: V) -> Result<V::Value, FormatError> {
        Err(FormatError::Undescribed)
    }
}

/// An arena.
pub struct Arena {
    used: usize,
    limit: Option<usize>,
}

#[cold]
fn out_of_room() -> ! {
    panic!("the arena is out of room")
}

impl Arena {
    /// Takes `n` bytes.
    pub fn take(&mut self, n: usize) -> usize {
        self.try_take(n).unwrap_or_else(|_| out_of_room())
    }

    /// Takes `n` bytes, or fails when the arena's limit is reached.
    pub fn try_take(&mut self, n: usize) -> Result<usize, ()> {
        if let Some(x) = self.fast(n) {
            return Ok(x);
        }
        self.grow(n).ok_or(())
    }

    fn fast(&self, n: usize) -> Option<usize> {
        if n == 0 {
            Some(self.used)
        } else {
            None
        }
    }

    fn grow(&mut self, n: usize) -> Option<usize> {
        if self.limit.is_some_and(|l| self.used + n > l) {
            None
        } else {
            self.used += n;
            Some(self.used)
        }
    }
}

const MAX_SCALE: u32 = 28;

pub enum Outcome {
    Done(u32),
    Overflow,
}

fn shrink(v: u64) -> Option<u32> {
    u32::try_from(v / 10).ok()
}

fn finish(v: u64, scale: u32) -> Outcome {
    if v > u32::MAX as u64 || scale > MAX_SCALE {
        if let Some(r) = shrink(v) {
            Outcome::Done(r)
        } else {
            return Outcome::Overflow;
        }
    } else {
        Outcome::Done(v as u32)
    }
}

fn mul_parts(a: u32, b: u32) -> Outcome {
    if a == 0 {
        return Outcome::Done(0);
    }
    finish(a as u64 * b as u64, 0)
}

/// A wide number.
pub struct Wide(pub u32);

impl std::ops::Mul for Wide {
    type Output = Wide;
    fn mul(self, other: Wide) -> Wide {
        match mul_parts(self.0, other.0) {
            Outcome::Done(v) => Wide(v),
            _ => panic!("multiplication overflowed in Wide"),
        }
    }
}

/// A value made on first use.
pub struct OnFirst<F> {
    init: Option<F>,
    value: Option<u32>,
}

impl<F: FnOnce() -> u32> OnFirst<F> {
    /// Makes the value once.
    pub fn get(&mut self) -> u32 {
        if let Some(v) = self.value {
            return v;
        }
        let v = match self.init.take() {
            Some(f) => f(),
            None => panic!("the value was never made"),
        };
        self.value = Some(v);
        v
    }
}

/// What to do with a missing value.
#[derive(Default)]
pub enum Missing {
    /// Missing values print as nothing.
    ///
    /// * **lookups on them:** fail
    #[default]
    Quiet,
    /// Like `Quiet`, but lookups on missing values give missing values.
    Chained,
    /// Every use of a missing value fails.
    Loud,
}

#[derive(Debug)]
pub struct MissingError;

impl fmt::Display for MissingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a missing value was used")
    }
}

impl Missing {
    fn check(&self, missing: bool) -> Result<(), MissingError> {
        if missing && !matches!(self, Missing::Chained) {
            return Err(MissingError);
        }
        Ok(())
    }
}

/// Looks `key` up.
pub fn lookup(mode: &Missing, key: Option<u32>) -> Result<u32, MissingError> {
    mode.check(key.is_none())?;
    Ok(key.unwrap_or(0))
}

#[derive(Debug)]
pub enum ParseErrorKind {
    Syntax,
    Gap,
}

impl ParseErrorKind {
    fn describe(&self) -> &'static str {
        match self {
            ParseErrorKind::Syntax => "the text has a syntax mistake",
            ParseErrorKind::Gap => "a part of the text is missing",
        }
    }
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Parses the text.
pub fn parse_text(t: &str) -> Result<(), ParseErrorKind> {
    if t.is_empty() {
        return Err(ParseErrorKind::Gap);
    }
    Ok(())
}

/// Values under keys.
pub struct Store {
    slots: Vec<Option<u32>>,
    next: usize,
}

impl Store {
    /// Stores `v` under a new key.
    pub fn insert(&mut self, v: u32) -> usize {
        let key = self.next;
        if key == self.slots.len() {
            self.slots.push(Some(v));
        } else {
            self.slots[key] = Some(v);
        }
        self.next = self.slots.len();
        key
    }

    /// Removes the value under `key`, if there is one.
    pub fn try_remove(&mut self, key: usize) -> Option<u32> {
        let v = self.slots.get_mut(key)?.take()?;
        self.next = key;
        Some(v)
    }

    /// Removes the value under `key`.
    pub fn remove(&mut self, key: usize) -> u32 {
        self.try_remove(key).expect("no value under this key")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[should_panic(expected = "no value under this key")]
    fn double_remove_panics() {
        let mut s = Store { slots: Vec::new(), next: 0 };
        let k = s.insert(1);
        s.remove(k);
        s.remove(k);
    }
}

thread_local!(static INSIDE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });

#[derive(Debug)]
pub struct Reentered;

fn mark() -> Result<(), Reentered> {
    INSIDE.with(|c| {
        if c.get() {
            Err(Reentered)
        } else {
            c.set(true);
            Ok(())
        }
    })
}

/// Runs `f` as the only runner of this thread.
pub fn run_alone(f: impl FnOnce()) {
    mark().expect("a runner is already running here");
    f();
}

#[derive(Debug)]
pub struct NullCell;

impl fmt::Display for NullCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a null cell for a type without null")
    }
}

impl std::error::Error for NullCell {}

pub trait FromCell: Sized {
    fn from_cell(v: u32) -> Result<Self, NullCell>;

    fn from_maybe(v: Option<u32>) -> Result<Self, NullCell> {
        match v {
            Some(v) => Self::from_cell(v),
            None => Err(NullCell),
        }
    }
}

impl<T: FromCell> FromCell for Option<T> {
    fn from_cell(v: u32) -> Result<Self, NullCell> {
        T::from_cell(v).map(Some)
    }

    fn from_maybe(v: Option<u32>) -> Result<Self, NullCell> {
        match v {
            Some(v) => T::from_cell(v).map(Some),
            None => Ok(None),
        }
    }
}

/// Rows whose cells are read by name.
///
/// Used by every reader of named rows.
pub trait NamedCells {
    fn cell(&self, name: &str) -> u32;
}

pub struct Row;

impl NamedCells for Row {
    fn cell(&self, name: &str) -> u32 {
        cell_value(name)
    }
}

fn cell_value(name: &str) -> u32 {
    if name.is_empty() {
        panic!("a cell was asked for without a name");
    }
    0
}

macro_rules! ident_of {
    ($v:expr) => {
        Ident($v)
    };
}

pub struct Ident(pub &'static dyn Probe);

pub trait Probe {
    fn probe(&self) -> u32;
}

/// Makes a marker.
pub fn marker() -> u32 {
    struct NullProbe;
    static NULL_PROBE: NullProbe = NullProbe;
    impl Probe for NullProbe {
        fn probe(&self) -> u32 {
            unreachable!("the null probe was probed")
        }
    }
    let id = ident_of!(&NULL_PROBE);
    let _ = id;
    0
}

pub struct Tx<T>(Vec<T>);
pub struct Rx<T>(Vec<T>);

/// A channel holding at most `cap` messages.
pub fn bounded<T>(cap: usize) -> (Tx<T>, Rx<T>) {
    assert!(cap > 0, "a bounded channel needs room for a message");
    (Tx(Vec::with_capacity(cap)), Rx(Vec::new()))
}

/// A channel without a limit.
pub fn unbounded<T>() -> (Tx<T>, Rx<T>) {
    (Tx(Vec::new()), Rx(Vec::new()))
}

/// A channel of one message.
pub fn oneshot<T>() -> (Tx<T>, Rx<T>) {
    bounded(1)
}

/// The raw lock.
pub struct RawGate {
    owner: usize,
}

impl RawGate {
    fn enter(&mut self, who: usize) {
        if self.owner != 0 && self.owner != who {
            panic!("the gate was entered by a second owner");
        }
        self.owner = who;
    }
}

/// A gate.
///
/// Each gate can be held by only one owner at a time: a second owner
/// panics.
pub type Gate = Wrapper<RawGate>;

pub struct Wrapper<T>(pub T);

pub struct Limited {
    permit: Option<u8>,
}

impl Limited {
    /// A service with room for `n` calls.
    pub fn with_permits(n: u8) -> Self {
        Self { permit: Some(n) }
    }

    /// The permit held.
    pub fn permit(&self) -> Option<u8> {
        self.permit
    }
}

impl Service<u8> for Limited {
    fn poll_ready(&mut self) -> Poll<Result<(), ()>> {
        self.permit = Some(1);
        Poll::Ready(Ok(()))
    }
    fn call(&mut self, r: u8) -> u8 {
        self.permit.take().expect("called without a permit") + r
    }
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

#[test]
fn a_public_entry_and_an_exported_macro_quote_their_docs() {
    let a = analysed("an empty name is not allowed here");
    let e = texts(&a, FactKind::PublicEntry);
    assert!(
        e.iter()
            .any(|t| t.starts_with("The public fn `name` reaches it")
                && t.ends_with("Its doc says: \"Makes a name.\"")),
        "{e:?}"
    );
    let a = analysed("not a decimal digit");
    let e = texts(&a, FactKind::PublicEntry);
    assert!(
        e.iter()
            .any(|t| t.starts_with("The exported macro `digit!` reaches it")
                && t.ends_with("Its doc says: \"Parses a digit at compile time.\"")),
        "{e:?}"
    );
}

#[test]
fn a_deserializer_method_names_the_serde_uses_that_call_it() {
    let a = analysed("this format cannot describe its input");
    let e = texts(&a, FactKind::PublicEntry);
    assert!(
        e.iter().any(|t| t
            .starts_with("`Deserializer::deserialize_any` for `&mut Reader` is reached by")
            && t.contains("#[serde(untagged)]")
            && t.contains("self-describing")),
        "{e:?}"
    );
}

#[test]
fn a_service_call_states_the_readiness_contract() {
    let a = analysed("called without a permit");
    let e = texts(&a, FactKind::PublicEntry);
    assert!(
        e.iter()
            .any(|t| t.contains("calling a `Limited` through the `Service` trait")),
        "{e:?}"
    );
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        m.iter().any(
            |t| t.starts_with("`Limited` implements `Service` with `poll_ready`")
                && t.contains("`ServiceExt::ready().await`")
        ),
        "{m:?}"
    );
    // Its associated fns returning `Self` make one; its methods do not.
    assert!(
        m.iter()
            .any(|t| t == "A `Limited` is created by `Limited::with_permits(..)`."),
        "{m:?}"
    );
}

#[test]
fn a_fallible_call_a_caller_falls_back_from_is_traced_to_where_it_fails() {
    let a = analysed("the arena is out of room");
    let f = texts(&a, FactKind::Failure);
    assert!(
        f.iter()
            .any(|t| t == "`Arena::try_take` passes on the failure of `Arena::grow`."),
        "{f:?}"
    );
    assert!(
        f.iter().any(|t| t.starts_with("`Arena::grow` gives `None` when `self.limit.is_some_and(|l| self.used + n > l)` is true")),
        "{f:?}"
    );
    let d = texts(&a, FactKind::Doc);
    assert!(
        d.iter().any(|t| t == "The doc of `Arena::try_take`, whose failure leads here, says: \"Takes `n` bytes, or fails when the arena's limit is reached.\""),
        "{d:?}"
    );
    assert!(section(&a, SectionName::When).contains("self.limit"));
}

#[test]
fn a_match_on_a_crate_fns_result_is_traced_to_the_variants_its_arm_takes() {
    let a = analysed("multiplication overflowed in Wide");
    let f = texts(&a, FactKind::Failure);
    assert!(
        f.iter()
            .any(|t| t == "`mul_parts` passes on the failure of `finish`."),
        "{f:?}"
    );
    assert!(
        f.iter().any(|t| t == "`finish` gives `return Outcome::Overflow` when `shrink(v)` does not match `Some(r)` (the `else` of `if let`), and `v > u32::MAX as u64 || scale > MAX_SCALE` is true."),
        "{f:?}"
    );
    assert!(!f.iter().any(|t| t.contains("Outcome::Done")), "{f:?}");
}

#[test]
fn a_none_arm_of_a_taken_callable_follows_an_earlier_panic() {
    let a = analysed("the value was never made");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        m.iter().any(|t| t
            .starts_with("`self.init.take()` empties `self.init` before the taken `f` runs")
            && t.contains("earlier panic")),
        "{m:?}"
    );
}

#[test]
fn an_enum_deciding_on_the_path_lists_its_variants_as_a_setting() {
    let a = analysed("a missing value was used");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        m.iter().any(|t| t.starts_with("`Missing::check` decides by the value of the enum `Missing`, a setting")
            && t.contains("`Missing::Quiet` (the default): \"Missing values print as nothing.\"; `Missing::Chained`: \"Like `Quiet`, but lookups on missing values give missing values.\"; `Missing::Loud`")),
        "{m:?}"
    );
    // An enum without a default value (an error kind its `Display`
    // describes by a `match self`) is no setting.
    let a = analysed("a part of the text is missing");
    let m = texts(&a, FactKind::Mechanism);
    assert!(!m.iter().any(|t| t.contains("a setting")), "{m:?}");
}

#[test]
fn a_freed_key_handed_out_again_is_stale_and_a_tests_name_reads_as_words() {
    let a = analysed("no value under this key");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        m.iter().any(|t| t.starts_with("`Store::try_remove` stores the `key` it frees in `self.next`, which `Store::insert` read")
            && t.contains("stale")),
        "{m:?}"
    );
    let t = texts(&a, FactKind::Test);
    assert!(
        t.iter().any(|t| t.starts_with(
            "The repository's test `double_remove_panics` (\"double remove panics\") triggers it"
        )),
        "{t:?}"
    );
}

#[test]
fn a_check_on_thread_local_state_concerns_the_calling_thread_only() {
    let a = analysed("a runner is already running here");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        m.iter().any(|t| t.starts_with(
            "`mark` reads the thread-local `INSIDE` (declared with `thread_local!`, src/lib.rs:"
        ) && t.contains("`std::thread::spawn`")),
        "{m:?}"
    );
}

#[test]
fn an_error_made_in_a_default_method_names_the_impls_that_override_it() {
    let a = analysed("a null cell for a type without null");
    let c = texts(&a, FactKind::Constructor);
    assert!(
        c.iter().any(|t| t.starts_with("`NullCell` is constructed in `FromCell::from_maybe`, the default method of the trait `FromCell`")
            && t.contains("(in this crate the impls for `Option<T>` override it)")),
        "{c:?}"
    );
}

/// A crate whose calls go through module paths and fields.
const PATHS: &str = r#"
mod emulated {
    pub(crate) fn make(s: &str) {
        if s.is_empty() {
            panic!("an empty name reached the emulated maker");
        }
    }
}

mod native {
    pub(crate) fn make(s: &str) {
        let _ = s;
    }
}

macro_rules! panic_on_err {
    ($e:expr) => {
        match $e {
            Ok(x) => x,
            Err(err) => panic!("{err}"),
        }
    };
}

struct PathTable;

impl PathTable {
    fn route(&mut self, p: &str) -> Result<(), String> {
        if p.starts_with(':') {
            return Err("a path segment starts with a colon".to_string());
        }
        Ok(())
    }
}

struct Other;

impl Other {
    fn route(&mut self, _p: &str) -> Result<(), String> {
        Ok(())
    }
}

/// Routes requests.
pub struct Router {
    table: Box<PathTable>,
    other: Other,
}

impl Router {
    /// Adds a route.
    #[track_caller]
    pub fn route(mut self, p: &str) -> Self {
        panic_on_err!(self.table.route(p));
        self
    }

    /// Adds another route.
    pub fn other(mut self, p: &str) -> Self {
        panic_on_err!(self.other.route(p));
        self
    }
}

/// Makes it the emulated way.
pub fn emulate(s: &str) {
    emulated::make(s)
}

/// Makes it the native way.
pub fn native(s: &str) {
    native::make(s)
}
"#;

fn analysed_paths(template: &str) -> Analysis {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = written_crate(tmp.path(), "paths", &[("src/lib.rs", PATHS)]);
    let e = error_of(&c, "paths", template);
    analyze(&an, &e, an.facts(&e), None, "")
}

#[test]
fn a_module_qualified_call_resolves_to_that_modules_fn() {
    let a = analysed_paths("an empty name reached the emulated maker");
    let c = texts(&a, FactKind::Caller);
    assert!(
        c.iter()
            .any(|t| t == "`emulate` calls `emulated::make` (resolved by its path)."),
        "{c:?}"
    );
    assert!(!c.iter().any(|t| t.contains("native")), "{c:?}");
    assert!(texts(&a, FactKind::PublicEntry)
        .iter()
        .any(|t| t.starts_with("The public fn `emulate` reaches it")));
}

#[test]
fn a_method_call_on_a_field_resolves_through_the_fields_type() {
    let a = analysed_paths("a path segment starts with a colon");
    let c = texts(&a, FactKind::Caller);
    assert!(
        c.iter().any(|t| t == "`Router::route` calls `self.table.route` (resolved through the declared type of `self.table`)."),
        "{c:?}"
    );
    assert!(!c.iter().any(|t| t.contains("Router::other")), "{c:?}");
    assert!(!c.iter().any(|t| t.contains("more call(s)")), "{c:?}");
}

#[test]
fn a_method_of_the_crates_public_trait_is_an_entry_named_with_trait_and_type() {
    let a = analysed("a cell was asked for without a name");
    let e = texts(&a, FactKind::PublicEntry);
    assert!(
        e.iter().any(|t| t == "`NamedCells::cell` (the public trait `NamedCells`, here its impl for `Row`) reaches it: `Row::cell` → `cell_value`. The trait's doc says: \"Rows whose cells are read by name. Used by every reader of named rows.\""),
        "{e:?}"
    );
}

#[test]
fn a_type_declared_inside_a_fn_is_reached_only_through_that_fns_uses() {
    let a = analysed("internal error: entered unreachable code: the null probe was probed");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        m.iter().any(
            |t| t.starts_with("`NullProbe` is declared inside `marker` (src/lib.rs:")
                && t.contains(
                    "its values are used only at `let id = ident_of!(&NULL_PROBE)` (line"
                )
                && t.contains("where `ident_of!` expands to `Ident($v)`")
                && t.ends_with("the method cannot be reached.")
        ),
        "{m:?}"
    );
}

#[test]
fn a_maker_names_its_siblings_returning_the_same_type_without_the_check() {
    let a = analysed("a bounded channel needs room for a message");
    let alt = texts(&a, FactKind::Alternative);
    assert!(
        alt.iter().any(|t| t
            == "`unbounded` also returns `(Tx<T>, Rx<T>)` without going through `bounded` and its check."),
        "{alt:?}"
    );
    assert!(!alt.iter().any(|t| t.contains("`oneshot`")), "{alt:?}");
    assert!(section(&a, SectionName::Solutions).contains("unbounded"));
}

#[test]
fn a_public_type_alias_built_on_the_throwers_type_quotes_its_contract() {
    let a = analysed("the gate was entered by a second owner");
    let d = texts(&a, FactKind::Doc);
    assert!(
        d.iter().any(|t| t == "`Gate` is the public name of a type built on `RawGate` (`pub type Gate = Wrapper<RawGate>`); its doc says: \"Each gate can be held by only one owner at a time: a second owner panics.\""),
        "{d:?}"
    );
}
