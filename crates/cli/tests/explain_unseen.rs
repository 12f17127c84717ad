//! `errdex explain` on output it was not built with: `tests/unseen` is a
//! program against crates of the registry that neither corpus holds (hex,
//! arrayvec; anyhow and serde_json as wrappers). The test builds it with
//! cargo, runs each case, indexes the exact versions of its `Cargo.lock`
//! as a user would, and checks that the first match is the site that
//! produced what the program printed (lines read in each crate's source).

mod common;

use common::errdex;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the program once per test binary, in a folder of its own.
fn program(tmp: &Path) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/unseen");
    let dir = tmp.join("unseen");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    for f in ["Cargo.toml", "Cargo.lock", "src/main.rs"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    let out = Command::new("cargo")
        .args(["build", "--quiet", "--locked"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// What the program prints for `case` (stdout and stderr, as a terminal
/// shows them).
fn run(dir: &Path, case: &str, backtrace: bool) -> String {
    let out = Command::new(dir.join("target/debug/unseen"))
        .arg(case)
        .env("RUST_BACKTRACE", if backtrace { "1" } else { "0" })
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn explain(db: &Path, input: &str) -> (Option<i32>, Value) {
    let out = errdex(db)
        .args(["explain", "--json", "-"])
        .write_stdin(input.as_bytes().to_vec())
        .output()
        .unwrap();
    (
        out.status.code(),
        serde_json::from_slice(&out.stdout).unwrap(),
    )
}

/// `crate:NAME path:line kind` of a match.
fn site(m: &Value) -> String {
    format!(
        "{} {}:{} {}",
        m["repo"].as_str().unwrap(),
        m["path"].as_str().unwrap(),
        m["line"],
        m["kind"].as_str().unwrap()
    )
}

#[test]
fn explains_real_output_of_crates_it_was_not_built_with() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = program(tmp.path());
    let db = tmp.path().join("u.db");
    let out = errdex(&db)
        .args(["index", "--no-history"])
        .arg(format!("lock:{}", dir.join("Cargo.lock").display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // (case, first match without a backtrace, with one) — each line read
    // in the crate's source.
    let cases = [
        // The user's unwrap: the payload's variant, not some crate's unwrap.
        ("unwrap", "crate:hex src/error.rs:12 debug_variant", None),
        // Derived Debug of a struct variant, field names as evidence.
        ("debug", "crate:hex src/error.rs:8 debug_variant", None),
        // Display behind the program's own prefix.
        ("display", "crate:hex src/error.rs:27 display", None),
        // anyhow chain: the library's layer, not the program's context.
        ("chain", "crate:hex src/error.rs:29 display", None),
        // A `#[track_caller]` push: the header names the program's line, so
        // the payload's `Debug` answers; a backtrace names the unwrap
        // inside arrayvec that panicked.
        (
            "push",
            "crate:arrayvec src/errors.rs:46 debug_impl",
            Some("crate:arrayvec src/arrayvec_impl.rs:40 unwrap"),
        ),
        // serde's default text inside serde_json's position wrapper: it
        // is serde_core's (serde's `src/core` is a copy only rustdoc
        // compiles).
        (
            "serde",
            "crate:serde_core src/de/mod.rs:214 serde_custom",
            None,
        ),
    ];
    for (case, plain, with_backtrace) in cases {
        for backtrace in [false, true] {
            let want = if backtrace {
                with_backtrace.unwrap_or(plain)
            } else {
                plain
            };
            let input = run(&dir, case, backtrace);
            let (code, answer) = explain(&db, &input);
            assert_eq!(code, Some(0), "{case}: {input}");
            assert_eq!(site(&answer["matches"][0]), want, "{case}: {input}");
        }
    }

    // The chain's top line is the program's own context: the lock file's
    // workspace member (the program) is indexed, so its `.context(..)`
    // site explains it, after the library's layer. Where the program is
    // not indexed, the line is listed as unexplained and never matched.
    let chain_output = run(&dir, "chain", false);
    let (_, chain) = explain(&db, &chain_output);
    assert_eq!(chain["messages"][0]["text"], "loading the signing key");
    let context = chain["matches"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["message"] == 0)
        .unwrap();
    assert_eq!(site(context), "unseen src/main.rs:18 context");
    let only_hex = tmp.path().join("hex.db");
    let out = errdex(&only_hex)
        .args(["index", "--no-history", "crate:hex@0.4.3"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let (code, chain) = explain(&only_hex, &chain_output);
    assert_eq!(code, Some(0));
    assert_eq!(
        site(&chain["matches"][0]),
        "crate:hex src/error.rs:29 display"
    );
    assert!(chain["unexplained"]
        .as_array()
        .unwrap()
        .contains(&Value::from(0)));
    assert!(chain["matches"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["message"] != 0));
    // The wrapper is listed after the layer it wraps.
    let (_, serde) = explain(&db, &run(&dir, "serde", false));
    assert_eq!(
        site(&serde["matches"][1]),
        "crate:serde_json src/error.rs:410 display"
    );
    assert_eq!(serde["matches"][0]["inner_of"], 1);
    // std's unwrap text is labelled as std's, its payload explained.
    let (_, unwrap) = explain(&db, &run(&dir, "unwrap", false));
    assert_eq!(unwrap["messages"][0]["std"]["source"], "Result::unwrap");
    assert_eq!(unwrap["messages"][0]["std"]["payload"], "OddLength");

    // Prose no template explains: no match, exit 1.
    let (code, prose) = explain(
        &db,
        "The quick brown fox jumps over the lazy dog near the river bank",
    );
    assert_eq!(code, Some(1));
    assert!(prose["matches"].as_array().unwrap().is_empty());
    assert_eq!(prose["unexplained"], serde_json::json!([0]));
}

/// Rules that hold for any crate, on a small one written here: where a
/// report's line names the caller, what a text built from a literal and a
/// value is, and a program's words before an error's `Debug`.
#[test]
fn reports_name_callers_literals_take_values_context_precedes_values() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("slots");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"slots\"\nversion = \"0.1.0\"\n",
    )
    .unwrap();
    let lib = r#"use std::fmt;

pub fn take_here(v: &mut Vec<u8>) {
    if v.is_empty() {
        panic!("the slot is already taken");
    }
}

#[cfg_attr(debug_assertions, track_caller)]
pub fn take_at_caller(v: &mut Vec<u8>) {
    if v.is_empty() {
        panic!("the slot is already taken");
    }
}

pub struct BadChar {
    index: usize,
}

impl fmt::Display for BadChar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let msg = "unexpected character at index ";
        write!(f, "{}{}", msg, self.index)
    }
}

#[derive(Debug)]
pub struct Cycle(pub usize);

pub fn order(deps: &[usize]) -> Result<Vec<usize>, Cycle> {
    match deps.first() {
        Some(&n) => Err(Cycle(n)),
        None => Ok(Vec::new()),
    }
}

#[derive(Debug)]
pub enum ParseError {
    Message(String),
}

pub fn parse_short(s: &str) -> Result<u8, ParseError> {
    if s.len() > 3 {
        return Err(ParseError::Message("overflow from too many digits".to_string()));
    }
    Ok(0)
}

pub fn parse_long(s: &str) -> Result<u64, ParseError> {
    if s.len() > 20 {
        return Err(ParseError::Message("overflow from too many digits".to_string()));
    }
    Ok(0)
}

pub struct FullError;

impl fmt::Debug for FullError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Busy(..)")
    }
}

pub struct BusyError;

impl fmt::Debug for BusyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        "Busy(..)".fmt(f)
    }
}

#[derive(Debug)]
pub enum LoadError {
    Syntax(String),
}

pub fn first_slot(v: &[u8]) -> u8 {
    *v.first().expect("the slot list is empty")
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Syntax(s) => write!(f, "invalid slots syntax: {s}"),
        }
    }
}
"#;
    std::fs::write(root.join("src/lib.rs"), lib).unwrap();
    let db = tmp.path().join("s.db");
    let out = errdex(&db).arg("index").arg(&root).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line_of = |needle: &str| lib.lines().position(|l| l.contains(needle)).unwrap() + 1;

    // The program's own line is named: only the `track_caller` fn reports
    // its caller's line; the other would have named its own.
    let (_, v) = explain(
        &db,
        "thread 'main' (7) panicked at src/main.rs:3:5:\nthe slot is already taken\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
    );
    let first = &v["matches"][0];
    assert_eq!(first["line"], line_of("panic!(\"the slot") + 7, "{v:#}");

    // A literal that ends in a space is the head of a text a value ends.
    let (code, v) = explain(&db, "unexpected character at index 11\n");
    assert_eq!(code, Some(0), "{v:#}");
    assert_eq!(
        v["matches"][0]["line"],
        line_of("unexpected character"),
        "{v:#}"
    );

    // The program's words, then an error value's derived `Debug` (`Cycle`
    // is the error `order` returns; a value that is no error is no site).
    let (code, v) = explain(&db, "dependency cycle: Cycle(3)\n");
    assert_eq!(code, Some(0), "{v:#}");
    let first = &v["matches"][0];
    assert_eq!(first["kind"], "debug_derive", "{v:#}");
    assert_eq!(first["line"], line_of("pub struct Cycle"), "{v:#}");

    // A `Debug` that printed a string: the quotes tell which.
    let (_, v) = explain(
        &db,
        "thread 'main' (7) panicked at src/main.rs:9:14:\ncalled `Result::unwrap()` on an `Err` value: \"Busy(..)\"\n",
    );
    assert_eq!(
        v["matches"][0]["line"],
        line_of("\"Busy(..)\".fmt(f)"),
        "{v:#}"
    );

    // The message is written at two sites alike; the variant that holds it
    // is one: the variant answers.
    let (_, v) = explain(
        &db,
        "thread 'main' (7) panicked at src/main.rs:9:14:\ncalled `Result::unwrap()` on an `Err` value: Message(\"overflow from too many digits\")\n",
    );
    let first = &v["matches"][0];
    assert_eq!(first["kind"], "debug_variant", "{v:#}");
    assert_eq!(first["line"], line_of("    Message(String),"), "{v:#}");

    // `Option::expect` prints its message alone (`Result::expect` adds
    // `: {err:?}`).
    let (code, v) = explain(
        &db,
        "thread 'main' (7) panicked at src/main.rs:4:9:\nthe slot list is empty\n",
    );
    assert_eq!(code, Some(0), "{v:#}");
    assert_eq!(v["matches"][0]["kind"], "expect", "{v:#}");
    assert_eq!(
        v["matches"][0]["line"],
        line_of("the slot list is empty"),
        "{v:#}"
    );

    // The program's words, then a message.
    let (code, v) = explain(
        &db,
        "Template error while loading the slots file from the configuration folder: invalid slots syntax: expected a digit or a letter\n",
    );
    assert_eq!(code, Some(0), "{v:#}");
    assert_eq!(
        v["matches"][0]["line"],
        line_of("invalid slots syntax"),
        "{v:#}"
    );
}

/// Writes a one-file crate `name` under `dir` and indexes it into `db`.
fn index_crate(db: &Path, dir: &Path, name: &str, lib: &str) {
    let root = dir.join(name);
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n"),
    )
    .unwrap();
    std::fs::write(root.join("src/lib.rs"), lib).unwrap();
    let out = errdex(db).arg("index").arg(&root).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A report printed by a crate's multi-line layout is that crate's: its
/// reason line is the crate's text (even a short format string) before
/// another crate's same words; and sites that print the same value alike
/// are all listed.
#[test]
fn a_reports_layout_names_its_crate_and_equal_texts_are_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("r.db");
    let grammar = r#"pub struct ParseError {
    line: usize,
    col: usize,
    source_line: String,
    expected: Vec<String>,
}

impl ParseError {
    fn message(&self) -> String {
        match self.expected.len() {
            0 => "unknown parsing error".to_owned(),
            _ => format!("expected {}", self.expected.join(", ")),
        }
    }

    pub fn render(&self) -> String {
        let s = " ".repeat(self.line.to_string().len());
        format!(
            "{s}--> {l}:{c}\n{s} |\n{l} | {line}\n{s} |\n{s} = {message}",
            l = self.line,
            c = self.col,
            line = self.source_line,
            message = self.message()
        )
    }
}

#[derive(Debug)]
pub enum RecvError {
    Timeout,
}
"#;
    let config = r#"use std::fmt;

pub struct NumberError;

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected number")
    }
}

#[derive(Debug)]
pub enum WaitError {
    Timeout,
}
"#;
    index_crate(&db, tmp.path(), "grammar", grammar);
    index_crate(&db, tmp.path(), "config", config);
    let line_in =
        |src: &str, needle: &str| src.lines().position(|l| l.contains(needle)).unwrap() + 1;

    // The report: the reason is grammar's `expected {}` inside its layout.
    let report = " --> 1:6\n  |\n1 | 12 + * 3\n  |\n  = expected number\n";
    for input in [
        report.to_string(),
        format!(
            "Error: could not evaluate the expression\n\nCaused by:\n{}",
            report
                .lines()
                .map(|l| format!("    {l}\n"))
                .collect::<String>()
        ),
    ] {
        let (code, v) = explain(&db, &input);
        assert_eq!(code, Some(0), "{v:#}");
        let first = &v["matches"][0];
        assert_eq!(first["repo"], "grammar", "{v:#}");
        assert_eq!(
            first["line"],
            line_in(grammar, "format!(\"expected {}\""),
            "{v:#}"
        );
        let layout = &v["matches"][first["inner_of"].as_u64().unwrap() as usize];
        assert_eq!(layout["line"], line_in(grammar, "--> {l}:{c}"), "{v:#}");
    }
    // The same words alone are config's whole text.
    let (_, v) = explain(&db, "expected number\n");
    assert_eq!(v["matches"][0]["repo"], "config", "{v:#}");

    // A user's unwrap of `Timeout`: both crates' variants print it.
    let (code, v) = explain(
        &db,
        "thread 'main' (7) panicked at src/main.rs:9:14:\ncalled `Result::unwrap()` on an `Err` value: Timeout\n",
    );
    assert_eq!(code, Some(0), "{v:#}");
    let matches = v["matches"].as_array().unwrap();
    let mut repos: Vec<&str> = matches
        .iter()
        .filter(|m| m["template"] == "Timeout")
        .map(|m| m["repo"].as_str().unwrap())
        .collect();
    repos.sort_unstable();
    assert_eq!(repos, ["config", "grammar"], "{v:#}");
    let tied = matches.iter().find(|m| m["same_text_as"].is_u64()).unwrap();
    assert_eq!(tied["same_text_as"], 0, "{v:#}");
}
