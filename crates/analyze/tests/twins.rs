//! What a user calls instead of a panicking public fn: the fallible twin
//! of a public fn that reaches a private panic (`reserve` → `try_reserve`
//! when the panic is in a helper both share), a fallible variant named
//! after it (`extend` → `try_extend_from_slice`), and the constructors of
//! the same type that hand the failure back (`from_static` → `from_str`,
//! `TryFrom`). Each on a crate this test writes.

mod common;

use common::{error_of, section, written_crate};
use errdex_analyze::{analyze, Analysis, SectionName};

const LIB: &str = r#"//! A crate written by the test.

#[derive(Debug)]
pub enum AllocErr {
    CapacityOverflow,
}

fn infallible<T>(result: Result<T, AllocErr>) -> T {
    match result {
        Ok(x) => x,
        Err(AllocErr::CapacityOverflow) => panic!("capacity overflow"),
    }
}

pub struct Small {
    len: usize,
    cap: usize,
}

impl Small {
    /// Reserves room for `additional` more items.
    pub fn reserve(&mut self, additional: usize) {
        infallible(self.try_reserve(additional))
    }

    /// Reserves room for `additional` more items, or says why it cannot.
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), AllocErr> {
        self.cap = self
            .len
            .checked_add(additional)
            .ok_or(AllocErr::CapacityOverflow)?;
        Ok(())
    }

    /// Appends what fits, or says that `items` does not.
    pub fn try_extend_from_slice(&mut self, items: &[u8]) -> Result<(), AllocErr> {
        if self.len + items.len() > self.cap {
            return Err(AllocErr::CapacityOverflow);
        }
        self.len += items.len();
        Ok(())
    }
}

impl Extend<u8> for Small {
    fn extend<I: IntoIterator<Item = u8>>(&mut self, iter: I) {
        for _ in iter {
            if self.len == self.cap {
                panic!("extend past the capacity");
            }
            self.len += 1;
        }
    }
}

#[derive(Debug)]
pub struct InvalidValue;

pub struct Value(&'static str);

impl Value {
    /// Makes a value of a static string.
    ///
    /// # Panics
    ///
    /// Panics if the string holds a control character.
    pub const fn from_static(src: &'static str) -> Value {
        let bytes = src.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] < 32 {
                panic!("Value::from_static with invalid bytes");
            }
            i += 1;
        }
        Value(src)
    }

    /// Makes a value of any string, or says why it cannot.
    pub fn from_str(src: &str) -> Result<Value, InvalidValue> {
        if src.bytes().any(|b| b < 32) {
            return Err(InvalidValue);
        }
        Ok(Value(""))
    }
}

impl TryFrom<String> for Value {
    type Error = InvalidValue;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        Value::from_str(&s)
    }
}
"#;

fn analysed(template: &str) -> Analysis {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = written_crate(tmp.path(), "twins", &[("src/lib.rs", LIB)]);
    let e = error_of(&c, "twins", template);
    analyze(&an, &e, an.facts(&e), None, "")
}

#[test]
fn a_public_fn_reaching_a_private_panic_names_its_fallible_twin() {
    let a = analysed("capacity overflow");
    let solutions = section(&a, SectionName::Solutions);
    assert!(
        solutions.contains("`Small::try_reserve`") && solutions.contains("`Small::reserve`"),
        "{solutions}"
    );
    let fix = section(&a, SectionName::ExampleFix);
    assert!(fix.contains("try_reserve"), "{fix}");
}

#[test]
fn a_fallible_variant_named_after_the_call_is_its_twin() {
    let a = analysed("extend past the capacity");
    let solutions = section(&a, SectionName::Solutions);
    assert!(solutions.contains("try_extend_from_slice"), "{solutions}");
}

#[test]
fn a_panicking_constructor_names_the_constructors_that_return_the_failure() {
    let a = analysed("Value::from_static with invalid bytes");
    let solutions = section(&a, SectionName::Solutions);
    assert!(solutions.contains("`Value::from_str`"), "{solutions}");
    assert!(solutions.contains("try_from"), "{solutions}");
}
