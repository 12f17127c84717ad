//! A small multi-file package through `extract_all_with`: constants and
//! class texts resolved across files, error types across files, the tests
//! folder marked.

use errdex_extract::{extract_all_with, Extractor, SourceFile};
use errdex_lang_python::PythonExtractor;
use errdex_model::{Kind, Piece, Site};
use pretty_assertions::assert_eq;
use std::sync::atomic::{AtomicUsize, Ordering};

fn file(path: &str, text: &str) -> SourceFile {
    SourceFile {
        path: path.into(),
        text: text.into(),
    }
}

/// A site as `(path, line, kind, template, message_from, is_test)`.
type SiteRow<'a> = (&'a str, u32, Kind, String, Option<&'a str>, bool);

fn render(s: &Site) -> String {
    s.template
        .pieces()
        .iter()
        .map(|p| match p {
            Piece::Lit(s) => s.clone(),
            Piece::Hole(h) => format!("{{{}}}", h.arg),
        })
        .collect()
}

const ERRORS: &str = r#""""Errors of mypkg."""

MSG_TIMEOUT = "the operation timed out"


class MyError(Exception):
    """Something failed."""


class Timeout(MyError):
    message = "timed out waiting"


class Base:
    pass
"#;

const CORE: &str = r#"from .errors import MSG_TIMEOUT, MyError, Timeout
from .base import Problem


class Missing(Problem):
    """The thing is missing."""


class Helper(Base):
    """Helps, raises nothing."""


def wait(n):
    if n > 3:
        raise MyError(MSG_TIMEOUT)
    raise Timeout
"#;

const BASE: &str = r#"from .errors import MyError


class Problem(MyError):
    pass
"#;

const TEST: &str = r#"import pytest


def test_wait():
    assert wait(1) == "expected output text"
    raise ValueError("only in a test")
"#;

#[test]
fn package_resolves_across_files() {
    let files = vec![
        file("mypkg/__init__.py", "from .core import wait\n"),
        file("mypkg/errors.py", ERRORS),
        file("mypkg/core.py", CORE),
        file("mypkg/base.py", BASE),
        file("tests/test_core.py", TEST),
        file("README.md", "not python"),
    ];
    let seen = AtomicUsize::new(0);
    let x = extract_all_with(&PythonExtractor, &files, &|_| {
        seen.fetch_add(1, Ordering::Relaxed);
    });
    assert_eq!(x.language, "python");
    assert_eq!(x.files, 5);
    assert_eq!(seen.load(Ordering::Relaxed), 5);
    assert_eq!(x.syntax_errors, 0);
    let got: Vec<SiteRow> = x
        .sites
        .iter()
        .map(|s| {
            (
                s.path.as_str(),
                s.line,
                s.kind,
                render(s),
                s.message_from.as_deref(),
                s.is_test,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            // `Problem` is an error of another file: `Missing` counts;
            // `Helper` (base `Base`, no error) does not.
            (
                "mypkg/core.py",
                6,
                Kind::ErrorDoc,
                "The thing is missing.".into(),
                None,
                false
            ),
            (
                "mypkg/core.py",
                15,
                Kind::Raise,
                "the operation timed out".into(),
                Some("mypkg/errors.py:3"),
                false
            ),
            (
                "mypkg/core.py",
                16,
                Kind::Raise,
                "timed out waiting".into(),
                Some("mypkg/errors.py:11"),
                false
            ),
            // A module constant named as a message is one itself.
            (
                "mypkg/errors.py",
                3,
                Kind::ErrorDoc,
                "the operation timed out".into(),
                None,
                false
            ),
            (
                "mypkg/errors.py",
                7,
                Kind::ErrorDoc,
                "Something failed.".into(),
                None,
                false
            ),
            (
                "mypkg/errors.py",
                11,
                Kind::ErrorDoc,
                "timed out waiting".into(),
                None,
                false
            ),
            (
                "tests/test_core.py",
                6,
                Kind::Raise,
                "only in a test".into(),
                None,
                true
            ),
        ]
    );
    let wait = x.sites.iter().find(|s| s.line == 15).unwrap();
    assert_eq!(wait.item_path, "mypkg.core.wait");
    assert_eq!(PythonExtractor.unit_of(&wait.path), "mypkg");
    let lits: Vec<(&str, u32, &str, bool)> = x
        .literals
        .iter()
        .map(|l| (l.path.as_str(), l.line, l.text.as_str(), l.is_test))
        .collect();
    assert_eq!(
        lits,
        vec![("tests/test_core.py", 5, "expected output text", true)]
    );
}
