//! How an error travels to the user (issue 23, cases-2), each on a crate
//! this test writes: a call through a field of a local whose type syntax
//! cannot tell (bound inside a crate macro) resolved by the field's
//! declared type, and a returned `Err` that a caller on the way turns into
//! a panic — with `.unwrap()`/`.expect(..)` or with a crate macro whose
//! `Err` arm panics — stated with the caller's `#[track_caller]`.

mod common;

use common::{error_of, section, texts, written_crate};
use errdex_analyze::{analyze, Analysis, FactKind, SectionName};

const LIB: &str = r#"//! A crate written by the test.

use std::sync::Arc;

macro_rules! with_inner {
    ( $self_:ident, mut $inner:ident => { $($stmt:stmt)* } ) => {{
        let mut $inner = $self_.into_parts();
        $($stmt)*;
        Table { parts: Arc::new($inner) }
    }};
}

macro_rules! or_panic {
    ($expr:expr) => {
        match $expr {
            Ok(x) => x,
            Err(err) => panic!("{err}"),
        }
    };
}

macro_rules! or_quiet_panic {
    ($expr:expr) => {
        match $expr {
            Ok(x) => x,
            Err(_) => panic!("failed"),
        }
    };
}

pub struct Table {
    parts: Arc<Parts>,
}

#[derive(Clone)]
struct Parts {
    rows: Rows,
}

#[derive(Clone, Default)]
struct Rows {
    names: Vec<String>,
}

/// Another type with a method of the same name, so that the name alone
/// cannot tell which `insert` a call means.
pub struct Index;

impl Index {
    pub fn insert(&mut self, _name: &str) -> Result<(), &'static str> {
        Ok(())
    }

    pub fn clear(&mut self) -> Result<(), &'static str> {
        Ok(())
    }
}

impl Rows {
    fn insert(&mut self, name: &str) -> Result<(), &'static str> {
        check(name)?;
        self.names.push(name.to_string());
        Ok(())
    }

    fn remove(&mut self, name: &str) -> Result<(), &'static str> {
        check(name)
    }

    fn clear(&mut self) -> Result<(), &'static str> {
        if self.names.is_empty() {
            return Err("nothing to clear");
        }
        self.names.clear();
        Ok(())
    }
}

fn check(name: &str) -> Result<(), &'static str> {
    if name.starts_with(':') {
        return Err("names must not start with `:`");
    }
    Ok(())
}

fn lookup(name: &str) -> Result<usize, &'static str> {
    if name.is_empty() {
        return Err("no name to look up");
    }
    Ok(name.len())
}

impl Table {
    fn into_parts(self) -> Parts {
        Arc::try_unwrap(self.parts).unwrap_or_else(|a| (*a).clone())
    }

    /// Adds a row.
    #[track_caller]
    pub fn add(self, name: &str) -> Self {
        with_inner!(self, mut this => {
            or_panic!(this.rows.insert(name));
        })
    }

    /// Drops every row.
    pub fn clear(self) -> Self {
        with_inner!(self, mut this => {
            or_panic!(this.rows.clear());
        })
    }

    /// Drops a row.
    pub fn drop_row(self, name: &str) -> Self {
        with_inner!(self, mut this => {
            or_quiet_panic!(this.rows.remove(name));
        })
    }
}

/// Looks a name up, or panics.
pub fn position(name: &str) -> usize {
    lookup(name).expect("lookup failed")
}

/// Looks a name up.
pub fn try_position(name: &str) -> Result<usize, &'static str> {
    lookup(name)
}
"#;

fn analysed(template: &str) -> Analysis {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = written_crate(tmp.path(), "paths", &[("src/lib.rs", LIB)]);
    let e = error_of(&c, "paths", template);
    analyze(&an, &e, an.facts(&e), None, "")
}

#[test]
fn a_call_through_a_field_of_a_macro_bound_local_reaches_the_public_fn() {
    // `this` is bound inside `with_inner!`; `rows` is declared `Rows` in
    // the only struct with a field of that name, so `this.rows.clear()`
    // is `Rows::clear`, not `Index::clear`.
    let a = analysed("nothing to clear");
    let callers = texts(&a, FactKind::Caller);
    assert!(
        callers
            .iter()
            .any(|t| t.contains("`Table::clear` calls `this.rows.clear`")
                && t.contains("declared type of the field `rows`: `Rows`")),
        "{callers:?}"
    );
    assert!(
        !callers.iter().any(|t| t.contains("Index::clear")),
        "{callers:?}"
    );
    // Further up, the same resolution puts the public fn on the path.
    let a = analysed("names must not start with `:`");
    let entries = texts(&a, FactKind::PublicEntry);
    assert!(
        entries
            .iter()
            .any(|t| t.contains("`Table::add` → `Rows::insert` → `check`")),
        "{entries:?}"
    );
    assert!(
        !entries.iter().any(|t| t.contains("Index::insert")),
        "{entries:?}"
    );
}

#[test]
fn a_crate_macro_that_panics_on_err_is_where_the_error_becomes_a_panic() {
    let a = analysed("names must not start with `:`");
    let means = section(&a, SectionName::Means);
    assert!(
        means.contains("`Table::add` turns the `Err` of `this.rows.insert(name)`")
            && means.contains(
                "into a panic with `or_panic!`, a macro of the crate whose `Err` arm panics"
            )
            && means.contains("panics carrying its text"),
        "{means}"
    );
    assert!(
        means.contains(
            "`Table::add` is `#[track_caller]`: the panic report names the location of its caller"
        ),
        "{means}"
    );
    // A macro whose panic prints a message of its own does not carry the
    // error's text, and a fn without `#[track_caller]` is not said to be.
    assert!(
        means.contains("`Table::drop_row` turns the `Err` of `this.rows.remove(name)`")
            && !means.contains("`Table::drop_row` is `#[track_caller]`"),
        "{means}"
    );
    let quiet = means
        .lines()
        .find(|l| l.contains("`Table::drop_row` turns"))
        .unwrap();
    assert!(!quiet.contains("carrying its text"), "{quiet}");
}

#[test]
fn an_expect_on_a_crate_result_is_where_the_error_becomes_a_panic() {
    let a = analysed("no name to look up");
    let means = section(&a, SectionName::Means);
    assert!(
        means.contains("`position` turns the `Err` of `lookup(name)`")
            && means.contains("into a panic with `.expect(..)`"),
        "{means}"
    );
    // The fallible public fn passes the `Err` on: nothing is said of it.
    assert!(!means.contains("`try_position` turns"), "{means}");
}

#[test]
fn a_panic_is_not_said_to_be_made_from_an_err() {
    // The error of the `.expect` itself is a panic already: the callers of
    // `position` are not said to turn anything into a panic.
    let a = analysed("lookup failed");
    let means = section(&a, SectionName::Means);
    assert!(!means.contains("turns the `Err`"), "{means}");
}
