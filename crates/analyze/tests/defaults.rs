//! An error a fn holds as its default result (`let mut result =
//! Err(E)`) and the exits that return it, and an error whose condition is
//! a slice the caller passes running out (its iterator's `None`, its
//! `len()` below what is needed): the caller's buffer is too small. Each
//! on a crate this test writes.

mod common;

use common::{error_of, section, written_crate};
use errdex_analyze::{analyze, Analysis, SectionName};

const LIB: &str = r#"//! A crate written by the test.

use std::sync::Once;

#[derive(Debug)]
pub enum Error {
    TooMany,
    Short,
    Taken,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::TooMany => write!(f, "too many items"),
            Error::Short => write!(f, "output too short"),
            Error::Taken => write!(f, "already set"),
        }
    }
}

impl std::error::Error for Error {}

#[derive(Clone, Copy, Default)]
pub struct Slot {
    pub len: usize,
}

/// Splits `input` at commas into the caller's slots.
pub fn split(input: &str, slots: &mut [Slot]) -> Result<usize, Error> {
    fill(input, slots)
}

fn fill(input: &str, slots: &mut [Slot]) -> Result<usize, Error> {
    let mut result = Err(Error::TooMany);
    let mut iter = slots.iter_mut();
    let mut parts = input.split(',');
    let mut n = 0;
    'items: loop {
        let part = match parts.next() {
            Some(p) => p,
            None => {
                result = Ok(n);
                break;
            }
        };
        let slot = match iter.next() {
            Some(s) => s,
            None => break 'items,
        };
        slot.len = part.len();
        n += 1;
    }
    result
}

/// Writes `src` as hex into `out`.
pub fn encode(src: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    if out.len() < src.len() * 2 {
        return Err(Error::Short);
    }
    Ok(src.len() * 2)
}

/// Reads into `buf`.
pub fn read(buf: &mut [u8]) -> usize {
    if buf.len() < 4 {
        panic!("short read");
    }
    4
}

static ONCE: Once = Once::new();

/// Sets the global value, once.
pub fn set_global() -> Result<(), Error> {
    let mut result = Err(
        Error::Taken,
    );
    ONCE.call_once(|| {
        result = Ok(());
    });
    result
}
"#;

fn analysed(template: &str) -> Analysis {
    let tmp = tempfile::tempdir().unwrap();
    let (c, an) = written_crate(tmp.path(), "defaults", &[("src/lib.rs", LIB)]);
    let e = error_of(&c, "defaults", template);
    analyze(&an, &e, an.facts(&e), None, "")
}

#[test]
fn a_default_error_result_is_returned_by_the_exits_that_leave_it() {
    let a = analysed("too many items");
    let when = section(&a, SectionName::When);
    assert!(
        when.contains("`fill` holds it as its default result (`let mut result = Err(..)`, src/lib.rs:35) and returns it unless `result` is replaced (src/lib.rs:43)"),
        "{when}"
    );
    assert!(
        when.contains("`fill` leaves the loop `'items` with the error still in `result` at src/lib.rs:49 (`break 'items`): it runs when `iter.next()` matches the arm `None`"),
        "{when}"
    );
}

#[test]
fn a_callers_slice_running_out_is_a_buffer_too_small() {
    let a = analysed("too many items");
    let when = section(&a, SectionName::When);
    assert!(
        when.contains(
            "`iter` (`slots.iter_mut()`) has no element left: the slice passed as `slots`"
        ) && when.contains("Pass a larger slice"),
        "{when}"
    );
    let a = analysed("output too short");
    let when = section(&a, SectionName::When);
    assert!(
        when.contains("In `encode`, `out.len() < src.len() * 2`: the slice passed as `out` is shorter than needed (`out: &mut [u8]`"),
        "{when}"
    );
}

#[test]
fn a_panic_under_a_length_check_is_not_a_buffer_report() {
    let a = analysed("short read");
    let text: String = a
        .sections
        .iter()
        .flat_map(|s| s.sentences.iter().map(|x| x.text.clone()))
        .collect();
    assert!(!text.contains("slice passed"), "{text}");
}

#[test]
fn a_default_error_written_over_several_lines_is_found() {
    let a = analysed("already set");
    let when = section(&a, SectionName::When);
    assert!(
        when.contains("`set_global` holds it as its default result (`let mut result = Err(..)`, src/lib.rs:77) and returns it unless `result` is replaced (src/lib.rs:81)"),
        "{when}"
    );
}
