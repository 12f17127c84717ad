//! What an `expect` is called on, on a crate this test writes: a method
//! called on what another crate fn returns is that type's method
//! (`self.builder().spawn(f)` is `Builder::spawn`, not the thrower's own
//! `Scope::spawn`), and a return type is read after the parameters, not in
//! a `where` clause (`-> io::Result<u32> where F: Fn() -> u32`).

mod common;

use common::{error_of, section, written_crate};
use errdex_analyze::{analyze, SectionName};

const LIB: &str = r#"//! A crate written by the test.

pub struct Scope;
pub struct Builder;

impl Scope {
    /// Spawns a worker.
    pub fn spawn<F>(&self, f: F) -> u32
    where
        F: Fn() -> u32,
    {
        self.builder().spawn(f).expect("failed to spawn worker")
    }

    /// A builder to configure the worker.
    pub fn builder(&self) -> Builder {
        Builder
    }
}

impl Builder {
    /// Spawns a worker with this configuration; fails when the system
    /// refuses another worker.
    pub fn spawn<F>(self, f: F) -> std::io::Result<u32>
    where
        F: Fn() -> u32,
    {
        if f() == 0 {
            return Err(std::io::Error::other("refused"));
        }
        Ok(f())
    }
}
"#;

#[test]
fn a_method_on_what_a_crate_fn_returns_is_that_types_method() {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = written_crate(tmp.path(), "receivers", &[("src/lib.rs", LIB)]);
    let e = error_of(&c, "receivers", "failed to spawn worker");
    let a = analyze(&an, &e, an.facts(&e), None, "");
    let when = section(&a, SectionName::When);
    assert!(when.contains("is an `Err` (it is a `Result`)"), "{when}");
    assert!(
        when.contains("`Builder::spawn`") && when.contains("refuses another worker"),
        "{when}"
    );
    assert!(!when.contains("The doc of `Scope::spawn`"), "{when}");
}
