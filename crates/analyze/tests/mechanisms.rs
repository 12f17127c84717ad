//! Each mechanism a page must explain, on the fixture crate
//! `tests/fixtures/mechanisms` written for it: the facts found and the
//! sentences that state them.

mod common;

use common::{section, texts};

use common::fixture_named;
use errdex_analyze::{analyze, Analysis, FactKind, SectionName};
use errdex_catalog::{Catalog, ErrorDetail};

fn error(c: &Catalog, template: &str) -> ErrorDetail {
    common::error_of(c, "mechanisms", template)
}

fn page(a: &Analysis) -> String {
    SectionName::ALL
        .iter()
        .map(|&n| section(a, n))
        .collect::<Vec<_>>()
        .join("\n")
}

fn any(v: &[String], needle: &str) -> bool {
    v.iter().any(|t| t.contains(needle))
}

#[test]
fn cold_helper_is_conditional_at_its_caller_reached_by_collect() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "Buf::from_iter received {count} bytes but needs 4");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(any(&m, "is marked `#[cold]`"), "{m:?}");
    assert!(any(&m, "is `#[track_caller]`"), "{m:?}");
    let guards = texts(&a, FactKind::Guard);
    assert!(
        any(&guards, "Where `Buf::from_iter` calls it") && any(&guards, "`count < 4` is true"),
        "{guards:?}"
    );
    let entries = texts(&a, FactKind::PublicEntry);
    assert!(any(&entries, "`.collect()` into a `Buf`"), "{entries:?}");
    let when = section(&a, SectionName::When);
    assert!(when.contains("`count < 4`"), "{when}");
    assert!(!page(&a).contains("every call"), "{}", page(&a));
    assert!(!page(&a).contains("whenever this code runs"));
}

#[test]
fn assertion_negated_with_fallible_sibling_and_setter() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "index {i} out of range");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert!(any(
        &texts(&a, FactKind::Assertion),
        "that is when `i >= self.len`"
    ));
    let alt = texts(&a, FactKind::Alternative);
    assert!(
        any(
            &alt,
            "`Buf::try_get_at` is the fallible form of `Buf::get_at`"
        ),
        "{alt:?}"
    );
    assert!(any(&alt, "`Buf::grow` set `len`"), "{alt:?}");
    let solutions = section(&a, SectionName::Solutions);
    assert!(solutions.contains("try_get_at"), "{solutions}");
}

#[test]
fn debug_assert_after_an_early_return() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "consumed past the end of the buffer");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(any(&m, "It is a `debug_assert!`"), "{m:?}");
    assert!(any(&m, "a release build compiles it out"), "{m:?}");
    assert!(any(
        &texts(&a, FactKind::Guard),
        "`n == 0` is false (the fn returns early"
    ));
}

#[test]
fn wrapper_impl_reaches_itself_only_through_a_nested_wrapper() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "Can't differentiate back.");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let callers = texts(&a, FactKind::Caller);
    // `B::back` with `B: Backend` and `Backend: Ops`: the supertrait
    // brings the method.
    assert!(
        any(
            &callers,
            "`Wrap::step` calls `B::back` (resolved through the generic bound `B: Backend`)"
        ),
        "{callers:?}"
    );
    assert!(
        any(&callers, "only when the inner `B` is itself `Wrap<..>`"),
        "{callers:?}"
    );
    let when = section(&a, SectionName::When);
    assert!(when.contains("(src/lib.rs:76)"), "{when}");
    assert!(!page(&a).contains("every call"), "{}", page(&a));
}

#[test]
fn macro_generated_operators_and_an_option_receiver() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "result out of range");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(&m, "in the body of `macro_rules! binop`")
            && any(&m, "`binop!(Add, add)`")
            && any(&m, "`binop!(Mul, mul)`"),
        "{m:?}"
    );
    let entries = texts(&a, FactKind::PublicEntry);
    assert!(any(&entries, "the `+` operator on a `Num`"), "{entries:?}");
    assert!(any(&entries, "the `*` operator on a `Num`"), "{entries:?}");
    let r = texts(&a, FactKind::Receiver);
    assert!(any(&r, "is `None` (it is an `Option`)"), "{r:?}");
    assert!(
        any(&r, "`Num::new` gives `return None` when `v > 100`"),
        "{r:?}"
    );
    // Never handled as a `Result`.
    let fix = a
        .sections
        .iter()
        .find(|s| s.name == SectionName::ExampleFix)
        .unwrap();
    let code = fix.code.as_deref().unwrap_or("");
    assert!(!code.contains("Err("), "{code}");
    assert!(!page(&a).contains("an `Err` value"), "{}", page(&a));
}

#[test]
fn drop_bomb_names_its_makers_and_defusers() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "token dropped without completing it");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(any(&m, "A `Token` is created by `start(..)`"), "{m:?}");
    assert!(
        any(
            &m,
            "`Token::complete` consume the `Token` with `mem::forget(self)`"
        ),
        "{m:?}"
    );
    assert!(any(
        &texts(&a, FactKind::PublicEntry),
        "dropping a `Token`: its destructor"
    ));
}

#[test]
fn const_message_in_a_feature_gated_module() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "this operation needs the fast feature");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(
            &m,
            "The message is the `const UNSUPPORTED` (src/slow.rs:3), used in 2 place(s)"
        ),
        "{m:?}"
    );
    // Each use with its own trigger.
    assert!(
        any(&m, "`UNSUPPORTED` is used in `open`") && any(&m, "`fast` is true"),
        "{m:?}"
    );
    assert!(
        any(&m, "`UNSUPPORTED` is used in `close`") && any(&m, "matches the arm `None`"),
        "{m:?}"
    );
    assert!(any(&m, "cfg(not(feature = \"fast\"))"), "{m:?}");
    let solutions = section(&a, SectionName::Solutions);
    assert!(solutions.contains("`fast` feature"), "{solutions}");
}

#[test]
fn count_checked_after_a_zip_says_extra_items_are_ignored() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "Three::from_iter got {filled} items");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(&m, "`Three::from_iter` pairs the items with `.zip(..)`")
            && any(&m, "extra items on the longer side are silently ignored"),
        "{m:?}"
    );
    let p = page(&a);
    assert!(p.contains("before the check `filled < 3`"), "{p}");
    // A count guard without a zip says nothing of one.
    let e = error(&c, "Buf::from_iter received {count} bytes but needs 4");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert!(!page(&a).contains("zip"), "{}", page(&a));
}

#[test]
fn nan_check_on_float_arithmetic_names_the_invalid_operations() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "difference is NaN");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(&m, "`Finite::new` refuses NaN") && any(&m, "`inf - inf`") && any(&m, "`0 / 0`"),
        "{m:?}"
    );
    // A receiver that is not arithmetic on a float gets no such sentence.
    let e = error(&c, "result out of range");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert!(!page(&a).contains("IEEE 754"), "{}", page(&a));
}

#[test]
fn match_self_arm_is_named_by_the_types_own_tag() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "not yet implemented: no sum for small values");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let g = texts(&a, FactKind::Guard);
    assert!(
        any(
            &g,
            "the arm `Self::Small(v)` is the `Store` whose `kind()` is `Kind::Small`"
        ),
        "{g:?}"
    );
    assert!(section(&a, SectionName::When).contains("`Kind::Small`"));
}

#[test]
fn stub_of_a_trait_impl_names_where_its_type_is_made() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(
        &c,
        "internal error: entered unreachable code: Sink must be indexed",
    );
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(&m, "The code that makes a `Sink` is reached from `fill`"),
        "{m:?}"
    );
    assert!(section(&a, SectionName::Means).contains("reached from `fill`"));
}

#[test]
fn a_match_with_other_arms_is_no_stub_and_the_twins_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    // `unwrap_left`: its `Left` arm returns; `left` is its twin.
    let e = error(&c, "called `Pick::unwrap_left()` on a `Right` value");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert!(
        texts(&a, FactKind::Sentinel).is_empty(),
        "{:?}",
        texts(&a, FactKind::Sentinel)
    );
    assert!(!page(&a).contains("is only this"), "{}", page(&a));
    let alt = texts(&a, FactKind::Alternative);
    assert!(any(&alt, "`Pick::left`"), "{alt:?}");
    assert!(
        section(&a, SectionName::Solutions).contains("Pick::left"),
        "{}",
        page(&a)
    );
    // A body that is only the panic is one.
    let e = error(&c, "right_only is not supported");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert!(any(&texts(&a, FactKind::Sentinel), "is only this"));
    // An `Index` impl whose `get` returns `None`: `get` is the twin.
    let e = error(&c, "invalid Slots key used");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    assert!(!page(&a).contains("a stub"), "{}", page(&a));
    let alt = texts(&a, FactKind::Alternative);
    assert!(any(&alt, "`Slots::get`"), "{alt:?}");
    // Where `get` gives `None`: its lookup and its filter.
    let failures = texts(&a, FactKind::Failure);
    assert!(
        any(
            &failures,
            "`self.values` holds nothing at `key & 0xffff_ffff`"
        ),
        "{failures:?}"
    );
    assert!(
        any(&failures, "`slot.0 == version` is false"),
        "{failures:?}"
    );
    // Indexing, as the user writes it.
    assert!(
        any(&alt, "call `x.get(key)` where `x[key]` panics"),
        "{alt:?}"
    );
}

#[test]
fn a_call_with_a_turbofish_reaches_its_callers() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "Four: capacity exceeded in extend/from_iter");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let callers = texts(&a, FactKind::Caller);
    assert!(any(&callers, "extend_from_iter"), "{callers:?}");
    let entries = texts(&a, FactKind::PublicEntry);
    assert!(any(&entries, "extend"), "{entries:?} {}", page(&a));
}

#[test]
fn a_fn_inside_a_fn_is_called_only_from_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = fixture_named(tmp.path(), "mechanisms");
    let e = error(&c, "Codec: output slice is too small");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let item = texts(&a, FactKind::Item);
    assert!(any(&item, "`Codec::decode_into::inner`"), "{item:?}");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(
            &m,
            "is declared inside `Codec::decode_into`, a default method of the trait `Codec`"
        ),
        "{m:?}"
    );
    assert!(page(&a).contains("a default method of the trait `Codec`"));
    let callers = texts(&a, FactKind::Caller);
    assert!(any(&callers, "decode_into"), "{callers:?}");
    assert!(!page(&a).contains("encode_all"), "{}", page(&a));
}

/// Methods a `macro_rules!` invocation generates in `impl Trait for $T`
/// (num-integer's `signed_roots!`, duration helpers on integers): the page
/// names the trait method, the invocations' types, and writes `self` as
/// the value the user calls the method on.
const GENERATED: &str = r#"
pub trait Roots: Sized {
    fn sqrt(&self) -> Self;
}

/// The square root of `x`.
pub fn sqrt<T: Roots>(x: T) -> T {
    x.sqrt()
}

macro_rules! signed_roots {
    ($T:ty, $U:ty) => {
        impl Roots for $T {
            fn sqrt(&self) -> Self {
                assert!(*self >= 0, "no square root of a negative number");
                (*self as $U as Self) / 2
            }
        }
    };
}

signed_roots!(i8, u8);
signed_roots!(i32, u32);
signed_roots!(isize, usize);

macro_rules! unsigned_roots {
    ($T:ty) => {
        impl Roots for $T {
            fn sqrt(&self) -> Self {
                *self / 2
            }
        }
    };
}

unsigned_roots!(u8);
unsigned_roots!(u32);

pub trait AsTicks {
    fn ticks(&self, per: u32) -> u64;
}

macro_rules! signed_ticks {
    ($ty:ident) => {
        impl AsTicks for $ty {
            fn ticks(&self, per: u32) -> u64 {
                assert!(!self.is_negative(), "negative tick count");
                *self as u64 * per as u64
            }
        }
    };
}

signed_ticks!(i16);
signed_ticks!(i64);
"#;

#[test]
fn macro_generated_method_named_as_the_user_calls_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = common::written_crate(tmp.path(), "generated", &[("src/lib.rs", GENERATED)]);
    let e = common::error_of(&c, "generated", "no square root of a negative number");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let item = texts(&a, FactKind::Item);
    assert!(any(&item, "the public fn `Roots::sqrt`"), "{item:?}");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(
            &m,
            "`signed_roots!` implements the trait `Roots` for `i8`, `i32` and `isize`"
        ),
        "{m:?}"
    );
    // The unsigned impls are another macro's: not listed.
    assert!(!any(&m, "`u8`"), "{m:?}");
    let alt = texts(&a, FactKind::Alternative);
    assert!(any(&alt, "`x.sqrt()` panics when `x < 0`"), "{alt:?}");
    // The generic free fn calls it through its bound.
    let callers = texts(&a, FactKind::Caller);
    assert!(
        any(
            &callers,
            "`sqrt` calls `x.sqrt` (resolved through the generic bound `x: T` with `T: Roots`)"
        ),
        "{callers:?}"
    );
    let page = page(&a);
    assert!(!page.contains("$T"), "{page}");
    let solutions = section(&a, SectionName::Solutions);
    assert!(
        solutions.contains("Check `x >= 0` before calling `x.sqrt()`"),
        "{solutions}"
    );
    let fix = a
        .sections
        .iter()
        .find(|s| s.name == SectionName::ExampleFix)
        .unwrap();
    let code = fix.code.as_deref().unwrap_or("");
    assert!(
        code.contains("if x >= 0") && code.contains("x.sqrt()"),
        "{code}"
    );
}

#[test]
fn macro_generated_method_with_an_ident_type_and_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = common::written_crate(tmp.path(), "generated", &[("src/lib.rs", GENERATED)]);
    let e = common::error_of(&c, "generated", "negative tick count");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(
            &m,
            "`signed_ticks!` implements the trait `AsTicks` for `i16` and `i64`"
        ) && any(&m, "`x.ticks(per)` on a value `x`"),
        "{m:?}"
    );
    let alt = texts(&a, FactKind::Alternative);
    assert!(
        any(&alt, "`x.ticks(per)` panics when `x.is_negative()`"),
        "{alt:?}"
    );
}

/// Code that exists in one configuration only (ndarray's
/// `debug_bounds_check_ref!` under `cfg(debug_assertions)` beside an empty
/// twin, fns written twice under opposite `cfg`s): the page says which
/// builds have it and what the other configuration compiles.
const CONFIGS: &str = r#"
#[cfg(debug_assertions)]
macro_rules! check_index {
    ($v:ident, $i:expr) => {
        if $i >= $v.len {
            panic!("index {} is past the end ({} items)", $i, $v.len);
        }
    };
}

#[cfg(not(debug_assertions))]
macro_rules! check_index {
    ($v:ident, $i:expr) => {};
}

#[cold]
fn out_of_bounds() -> ! {
    panic!("grid index out of bounds")
}

pub struct Grid {
    len: usize,
    data: Vec<u8>,
}

impl Grid {
    pub fn get(&self, i: usize) -> Option<&u8> {
        self.data.get(i)
    }
}

impl std::ops::Index<usize> for Grid {
    type Output = u8;
    fn index(&self, i: usize) -> &u8 {
        check_index!(self, i);
        self.data.get(i).unwrap_or_else(|| out_of_bounds())
    }
}

#[cfg(debug_assertions)]
fn checked_len(n: usize) -> u32 {
    u32::try_from(n).expect("length does not fit in u32")
}

#[cfg(not(debug_assertions))]
fn checked_len(n: usize) -> u32 {
    n as u32
}

pub fn encode(v: &[u8]) -> u32 {
    checked_len(v.len())
}

#[cfg(feature = "checks")]
pub fn parse_level(s: &str) -> u8 {
    s.parse().expect("level is not a number")
}

#[cfg(not(feature = "checks"))]
pub fn parse_level(s: &str) -> u8 {
    s.parse().unwrap_or(0)
}
"#;

#[test]
fn release_path_names_the_debug_only_check_before_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = common::written_crate(tmp.path(), "configs", &[("src/lib.rs", CONFIGS)]);
    let e = common::error_of(&c, "configs", "grid index out of bounds");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(&m, "`Grid::index` runs `check_index!`")
            && any(&m, "debug builds only")
            && any(&m, "index {} is past the end ({} items)")
            && any(&m, "goes on to line"),
        "{m:?}"
    );
    let alt = texts(&a, FactKind::Alternative);
    assert!(
        any(&alt, "`Grid::get` is the fallible form of `Grid::index`"),
        "{alt:?}"
    );
}

#[test]
fn debug_only_check_says_what_a_release_build_compiles() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = common::written_crate(tmp.path(), "configs", &[("src/lib.rs", CONFIGS)]);
    let e = common::error_of(&c, "configs", "index {} is past the end ({} items)");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(&m, "expands to nothing") && any(&m, "debug builds only"),
        "{m:?}"
    );
    assert!(!page(&a).contains("only in release"), "{}", page(&a));
}

#[test]
fn fn_under_a_cfg_names_its_sibling_under_the_negated_cfg() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = common::written_crate(tmp.path(), "configs", &[("src/lib.rs", CONFIGS)]);
    let e = common::error_of(&c, "configs", "length does not fit in u32");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(
            &m,
            "This `checked_len` exists only under `cfg(debug_assertions)`, debug builds only"
        ) && any(
            &m,
            "under `cfg(not(debug_assertions))` the crate compiles the other `checked_len` (src/lib.rs:"
        ),
        "{m:?}"
    );
    let e = common::error_of(&c, "configs", "level is not a number");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let m = texts(&a, FactKind::Mechanism);
    assert!(
        any(
            &m,
            "under `cfg(not(feature = \"checks\"))` the crate compiles the other `parse_level`"
        ),
        "{m:?}"
    );
}

/// A check on a field that a feature-gated public method writes
/// (serde_json's recursion limit: `check_recursion!` inside
/// `if_checking_recursion_limit!`, which under `feature =
/// "unbounded_depth"` wraps it in `if !$this.disable_recursion_limit`,
/// set by `Deserializer::disable_recursion_limit`).
const SWITCHES: &str = r#"
use std::fmt;

#[derive(Debug)]
pub enum Error {
    TooDeep,
    Tab,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::TooDeep => f.write_str("nesting too deep"),
            Error::Tab => f.write_str("tab character in strict mode"),
        }
    }
}

pub struct Parser {
    depth_left: u8,
    #[cfg(feature = "checks")]
    unlimited: bool,
}

#[cfg(not(feature = "checks"))]
macro_rules! if_limited {
    ($($body:tt)*) => {
        $($body)*
    };
}

#[cfg(feature = "checks")]
macro_rules! if_limited {
    ($this:ident $($body:tt)*) => {
        if !$this.unlimited {
            $this $($body)*
        }
    };
}

macro_rules! enter {
    ($this:ident) => {
        if_limited! {
            $this.depth_left -= 1;
            if $this.depth_left == 0 {
                return Err(Error::TooDeep);
            }
        }
    };
}

impl Parser {
    pub fn new() -> Self {
        Parser {
            depth_left: 64,
            #[cfg(feature = "checks")]
            unlimited: false,
        }
    }

    #[cfg(feature = "checks")]
    pub fn unlimited(&mut self) {
        self.unlimited = true;
    }

    pub fn nest(&mut self) -> Result<(), Error> {
        enter!(self);
        Ok(())
    }
}

pub struct Reader {
    strict: bool,
}

impl Reader {
    pub fn read(&self, s: &str) -> Result<(), Error> {
        if self.strict && s.contains('\t') {
            return Err(Error::Tab);
        }
        Ok(())
    }

    #[cfg(feature = "checks")]
    pub fn lenient(&mut self) {
        self.strict = false;
    }
}
"#;

#[test]
fn check_turned_off_by_a_feature_gated_setter_through_a_wrapping_macro() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = common::written_crate(tmp.path(), "switches", &[("src/lib.rs", SWITCHES)]);
    let e = common::error_of(&c, "switches", "nesting too deep");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let g = texts(&a, FactKind::Guard);
    assert!(
        any(&g, "`if_limited!` (src/lib.rs:")
            && any(&g, "in `if !$this.unlimited { .. }`")
            && any(&g, "`cfg(feature = \"checks\")`"),
        "{g:?}"
    );
    let alt = texts(&a, FactKind::Alternative);
    assert!(
        any(
            &alt,
            "`Parser::unlimited` (compiled only when `cfg(feature = \"checks\")` holds: build with the Cargo feature `checks`)"
        ),
        "{alt:?}"
    );
    let solutions = section(&a, SectionName::Solutions);
    assert!(solutions.contains("Parser::unlimited"), "{solutions}");
}

#[test]
fn guard_on_a_field_names_the_public_fn_that_writes_it() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = common::written_crate(tmp.path(), "switches", &[("src/lib.rs", SWITCHES)]);
    let e = common::error_of(&c, "switches", "tab character in strict mode");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let alt = texts(&a, FactKind::Alternative);
    assert!(
        any(
            &alt,
            "The condition reads the field `strict`, which the public fn `Reader::lenient`"
        ),
        "{alt:?}"
    );
    // `Parser::new` only initialises fields; it writes none by assignment.
    assert!(!any(&alt, "Parser::new"), "{alt:?}");
}

/// A message passed as an argument to a crate macro that generates the
/// error's `Display` (url's `simple_enum_error!`): the invocation's literal
/// is a site, and the page follows its variant to where it is made, after
/// an `if let` that returns early.
const TABLE: &str = r#"
use std::fmt;

macro_rules! simple_enum_error {
    ($($name: ident => $description: expr,)+) => {
        #[derive(Debug)]
        pub enum ParseError {
            $($name,)+
        }

        impl fmt::Display for ParseError {
            fn fmt(&self, fmt: &mut fmt::Formatter<'_>) -> fmt::Result {
                match *self {
                    $(ParseError::$name => fmt.write_str($description),)+
                }
            }
        }
    }
}

simple_enum_error! {
    EmptyHost => "empty host",
    RelativeWithoutBase => "relative address without a base",
}

pub struct Parser {
    base: Option<String>,
}

impl Parser {
    fn scheme(&self, input: &str) -> Result<usize, ()> {
        input.find(':').ok_or(())
    }

    pub fn parse(&self, input: &str) -> Result<String, ParseError> {
        if let Ok(end) = self.scheme(input) {
            return Ok(input[..end].to_string());
        }
        if let Some(base) = &self.base {
            Ok(format!("{base}/{input}"))
        } else {
            Err(ParseError::RelativeWithoutBase)
        }
    }
}
"#;

#[test]
fn message_of_a_display_generating_macro_follows_its_variant() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = common::written_crate(tmp.path(), "table", &[("src/lib.rs", TABLE)]);
    let e = common::error_of(&c, "table", "relative address without a base");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let ctors = texts(&a, FactKind::Constructor);
    assert!(
        any(
            &ctors,
            "`ParseError::RelativeWithoutBase` is constructed in `Parser::parse`"
        ),
        "{ctors:?}"
    );
    let guards = texts(&a, FactKind::Guard);
    assert!(
        any(
            &guards,
            "`self.scheme(input)` does not match `Ok(end)` (the fn returns early when it does)"
        ),
        "{guards:?}"
    );
}
