//! Python end to end: a real package from PyPI through pip
//! (`pypi:idna==3.20`), indexed as installed, then real outputs of it
//! explained: a full traceback, its Windows spelling, the exception line
//! alone, pytest's report, a warning-style line; an exception the
//! program's own file raised is not pinned on the package; a version the
//! index lacks fails with one clear line.

mod common;

use common::{errdex, run_json};
use serde_json::Value;
use std::path::Path;

fn catalogue(dir: &Path) -> std::path::PathBuf {
    let db = dir.join("py.db");
    let v = run_json(errdex(&db).args(["index", "--json", "pypi:idna==3.20"]));
    let s = &v;
    assert_eq!(s["repo"], "pypi:idna", "{v}");
    assert_eq!(s["revision"], "3.20");
    assert!(s["sites"].as_u64().unwrap() > 20, "{v}");
    assert!(s["by_kind"]["raise"].as_u64().unwrap() > 10, "{v}");
    db
}

fn explain(db: &Path, input: &str) -> Value {
    run_json(
        errdex(db)
            .args(["explain", "--json", "-"])
            .write_stdin(input.as_bytes().to_vec()),
    )
}

/// The first match's repo, version, file and line.
fn answer(v: &Value) -> (String, String, String, u64) {
    let m = &v["matches"][0];
    (
        m["repo"].as_str().unwrap_or("").to_string(),
        m["revision"].as_str().unwrap_or("").to_string(),
        m["path"].as_str().unwrap_or("").to_string(),
        m["line"].as_u64().unwrap_or(0),
    )
}

const TRACEBACK: &str = r#"Traceback (most recent call last):
  File "/home/dev/app/scripts/idna_cases.py", line 7, in codepoint
    idna.encode("my site.example")
  File "/home/dev/.venv/lib/python3.11/site-packages/idna/core.py", line 786, in encode
    s = alabel(label)
        ^^^^^^^^^^^^^
  File "/home/dev/.venv/lib/python3.11/site-packages/idna/core.py", line 544, in alabel
    ulabel(label_bytes)
  File "/home/dev/.venv/lib/python3.11/site-packages/idna/core.py", line 593, in ulabel
    check_label(label_bytes)
  File "/home/dev/.venv/lib/python3.11/site-packages/idna/core.py", line 513, in check_label
    raise InvalidCodepoint(
idna.core.InvalidCodepoint: Codepoint U+0020 at position 3 of 'my site' not allowed
"#;

#[test]
fn real_outputs_find_the_raise_in_the_installed_package() {
    let tmp = tempfile::tempdir().unwrap();
    let db = catalogue(tmp.path());
    let near = |v: &Value, line: u64| {
        let (repo, rev, path, l) = answer(v);
        assert_eq!(
            (repo.as_str(), rev.as_str(), path.as_str()),
            ("pypi:idna", "3.20", "idna/core.py"),
            "{v}"
        );
        assert!(l.abs_diff(line) <= 3, "line {l}, want {line}: {v}");
    };
    // The traceback, as Linux and as Windows print it.
    near(&explain(&db, TRACEBACK), 513);
    let windows = TRACEBACK
        .replace(
            "/home/dev/.venv/lib/python3.11/site-packages/",
            "C:\\Users\\me\\venv\\Lib\\site-packages\\",
        )
        .replace("idna/core.py", "idna\\core.py");
    near(&explain(&db, &windows), 513);
    // The exception line alone, and the message alone.
    near(&explain(&db, "idna.core.IDNAError: Empty Label\n"), 468);
    // pytest's report.
    let pytest = "E               idna.core.InvalidCodepoint: Codepoint U+005F at position 7 of 'bücher_shop' not allowed\n\n../.venv/lib/python3.11/site-packages/idna/core.py:513: InvalidCodepoint\n";
    near(&explain(&db, pytest), 513);
}

#[test]
fn the_web_page_shows_the_raise_highlighted_as_python() {
    let tmp = tempfile::tempdir().unwrap();
    let db = catalogue(tmp.path());
    let id = common::id_of(&db, "pypi:idna", "Empty Label");
    let server = common::server::Server::start(&db);
    let mut r = ureq::get(&server.url(&format!("/errors/{id}")))
        .call()
        .unwrap();
    let page = r.body_mut().read_to_string().unwrap();
    assert!(page.contains("Thrown at idna/core.py:"), "{page}");
    assert!(
        page.contains("<span class=\"hl-keyword\">raise</span>"),
        "{page}"
    );
}

#[test]
fn the_programs_own_exception_is_not_the_packages() {
    let tmp = tempfile::tempdir().unwrap();
    let db = catalogue(tmp.path());
    // Raised in the program's file, with a text idna also holds: no idna
    // site printed it.
    let own = "Traceback (most recent call last):\n  File \"/home/dev/app/main.py\", line 3, in <module>\n    raise ValueError(\"Empty Label\")\nValueError: Empty Label\n";
    // (Nothing explains it: explain says so in its exit status.)
    let out = errdex(&db)
        .args(["explain", "--json", "-"])
        .write_stdin(own.as_bytes().to_vec())
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["matches"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["repo"] != "pypi:idna"),
        "{v}"
    );
}

#[test]
fn a_missing_version_or_bad_spec_fails_in_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("x.db");
    for (spec, want) in [
        ("pypi:idna==0.0.0.1", "no such version idna==0.0.0.1"),
        ("pypi:idna==1;rm", "bad package spec"),
    ] {
        let out = errdex(&db).args(["index", spec]).output().unwrap();
        assert!(!out.status.success(), "{spec}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{spec}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{spec}: {err}");
    }
}

#[test]
fn a_decade_old_sdist_whose_setup_no_longer_runs_is_indexed() {
    // BeautifulSoup 3.2.2 (2010) exists only as an sdist whose `setup.py`
    // fails on today's Python, so pip cannot prepare its metadata; the
    // archive itself is fetched through pip's finder, its hash checked.
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("old.db");
    let v = run_json(errdex(&db).args(["index", "--json", "pypi:BeautifulSoup==3.2.2"]));
    assert_eq!(v["revision"], "3.2.2", "{v}");
    assert!(v["sites"].as_u64().unwrap() > 0, "{v}");
}

/// A real traceback of `idna` `version`: both versions raise from line
/// 250 with the same text, and differ in the callers' lines (what the
/// printed source lines tell, wherever the package was installed).
fn traceback_of(version: &str) -> String {
    let (encode, ulabel) = match version {
        "3.6" => (360, 297),
        _ => (355, 292),
    };
    format!(
        r#"Traceback (most recent call last):
  File "<string>", line 1, in <module>
  File "/home/dev/.venv/lib/python3.11/site-packages/idna/core.py", line {encode}, in encode
    s = alabel(label)
        ^^^^^^^^^^^^^
  File "/home/dev/.venv/lib/python3.11/site-packages/idna/core.py", line 258, in alabel
    ulabel(label_bytes)
  File "/home/dev/.venv/lib/python3.11/site-packages/idna/core.py", line {ulabel}, in ulabel
    check_label(label_bytes)
  File "/home/dev/.venv/lib/python3.11/site-packages/idna/core.py", line 250, in check_label
    raise InvalidCodepoint('Codepoint {{}} at position {{}} of {{}} not allowed'.format(_unot(cp_value), pos+1, repr(label)))
idna.core.InvalidCodepoint: Codepoint U+0020 at position 3 of 'my site' not allowed
"#
    )
}

#[test]
fn the_source_lines_a_traceback_prints_tell_the_version() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("two.db");
    for spec in ["pypi:idna==3.6", "pypi:idna==3.7"] {
        run_json(errdex(&db).args(["index", "--json", spec]));
    }
    for version in ["3.6", "3.7"] {
        // Installed, and copied into the program's own folder.
        let installed = traceback_of(version);
        let copied = installed.replace(
            "/home/dev/.venv/lib/python3.11/site-packages/",
            "/srv/app/libs/",
        );
        for paste in [installed, copied] {
            let v = explain(&db, &paste);
            let (repo, rev, path, line) = answer(&v);
            assert_eq!(
                (repo.as_str(), rev.as_str(), path.as_str(), line),
                ("pypi:idna", version, "idna/core.py", 250),
                "{v}"
            );
        }
    }
}

#[test]
fn python_lock_files_index_what_can_be_had_and_name_the_rest() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("locks.db");
    // pip-compile's output: a pin with its files' real hashes, a range,
    // the project itself.
    let requirements = tmp.path().join("requirements.txt");
    std::fs::write(
        &requirements,
        "# via pip-compile\n\
         idna==3.6 \\\n    \
         --hash=sha256:9ecdbbd083b06798ae1e86adcbfe8ab1479cf864e4ee30fe4e46a003d12491ca \\\n    \
         --hash=sha256:c05567e9c24a6b9faaa835c4821bad0590fbb9d5779e7caa6e1cc4978e7eb24f\n\
         requests>=2\n\
         -e .\n",
    )
    .unwrap();
    let out = errdex(&db)
        .args(["index", "--json"])
        .arg(format!("lock:{}", requirements.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "partial");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["indexed"], serde_json::json!(["idna@3.6"]), "{v}");
    assert_eq!(v["skipped"]["not_pinned"], 1, "{v}");
    assert_eq!(v["skipped"]["local_project"], 1, "{v}");

    // A poetry.lock whose hash is not the file's, and a package the index
    // does not have: each named with its reason, nothing indexed.
    let poetry = tmp.path().join("poetry.lock");
    std::fs::write(
        &poetry,
        r#"[[package]]
name = "idna"
version = "3.7"
files = [
    {file = "idna-3.7-py3-none-any.whl", hash = "sha256:000000000000000000000000000000000000000000000000000000000000beef"},
]

[[package]]
name = "no-such-package-errdex-test"
version = "1.0.0"
files = []
"#,
    )
    .unwrap();
    let out = errdex(&db)
        .args(["index", "--json"])
        .arg(format!("lock:{}", poetry.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["skipped"]["checksum_mismatch"], 1, "{v}");
    assert_eq!(v["skipped"]["not_in_registry"], 1, "{v}");

    // A uv.lock of idna 3.7 (no hashes: the index's are checked); then
    // explain for the requirements file's versions answers with 3.6.
    let uv = tmp.path().join("uv.lock");
    std::fs::write(
        &uv,
        "version = 1\n\n[[package]]\nname = \"idna\"\nversion = \"3.7\"\nsource = { registry = \"https://pypi.org/simple\" }\n",
    )
    .unwrap();
    let v = run_json(
        errdex(&db)
            .args(["index", "--json"])
            .arg(format!("lock:{}", uv.display())),
    );
    assert_eq!(v["indexed"], serde_json::json!(["idna@3.7"]), "{v}");
    let line =
        "idna.core.InvalidCodepoint: Codepoint U+0020 at position 3 of 'my site' not allowed\n";
    for (lock, version) in [(&requirements, "3.6"), (&uv, "3.7")] {
        let v = run_json(
            errdex(&db)
                .args(["explain", "--json", "--lock"])
                .arg(lock)
                .arg("-")
                .write_stdin(line.as_bytes().to_vec()),
        );
        assert_eq!(answer(&v).1, version, "{v}");
    }
}

#[test]
fn a_python_errors_page_states_its_conditions_callers_and_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("shapes");
    std::fs::create_dir_all(root.join("shapes")).unwrap();
    std::fs::create_dir_all(root.join("tests")).unwrap();
    std::fs::write(
        root.join("shapes/core.py"),
        "def area(sides):\n    assert sides > 0, \"sides must be positive\"\n    return sides\n\n\
         class ShapeError(ValueError):\n    \"\"\"A shape that cannot be drawn.\"\"\"\n\n\
         def _check(sides):\n    if sides < 3:\n        raise ShapeError(f\"a polygon needs 3 sides, got {sides}\")\n    elif sides > 64:\n        raise ShapeError(\"too many sides\")\n\n\
         def polygon(sides):\n    \"\"\"Draws a regular polygon.\"\"\"\n    _check(sides)\n    return sides\n",
    )
    .unwrap();
    std::fs::write(
        root.join("tests/test_core.py"),
        "import pytest\nfrom shapes.core import polygon, ShapeError\n\n\
         def test_too_few():\n    with pytest.raises(ShapeError, match=\"needs 3 sides\"):\n        polygon(2)\n\n\
         def test_unrelated():\n    with pytest.raises(ShapeError, match=\"something else\"):\n        polygon(1)\n",
    )
    .unwrap();
    let db = tmp.path().join("shapes.db");
    run_json(errdex(&db).args(["index", "--json"]).arg(&root));
    let id = common::id_of(&db, "shapes", "needs 3 sides");
    run_json(errdex(&db).args(["analyze", "--json", &id]));
    let v = run_json(errdex(&db).args(["show", "--json", &id]));
    let facts: Vec<(String, String)> = v["analysis"]["facts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap().to_string(),
                f["text"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let has = |kind: &str, text: &str| {
        assert!(
            facts.iter().any(|(k, t)| k == kind && t.contains(text)),
            "no {kind} fact with {text:?}: {facts:#?}"
        )
    };
    has("message", "raised as `ShapeError`");
    has("item", "`shapes.core._check`: `def _check(sides)`");
    has("guard", "It runs when `sides < 3` is true.");
    has("caller", "`shapes.core.polygon` calls `_check`");
    has(
        "public_entry",
        "The public function `shapes.core.polygon` reaches it",
    );
    has(
        "test",
        "`tests.test_core.test_too_few` expects `ShapeError`",
    );
    has(
        "alternative",
        "Catch `ShapeError` where your code calls `polygon`",
    );
    // The test whose pattern is another message's is not this one's.
    assert!(
        !facts.iter().any(|(_, t)| t.contains("test_unrelated")),
        "{facts:#?}"
    );
    // The other raise runs when the first condition is false.
    let id = common::id_of(&db, "shapes", "too many sides");
    run_json(errdex(&db).args(["analyze", "--json", &id]));
    let v = run_json(errdex(&db).args(["show", "--json", &id]));
    let text = v["analysis"].to_string();
    assert!(
        text.contains("It runs when `sides > 64` is true."),
        "{text}"
    );
    assert!(
        text.contains("It runs when `sides < 3` is false."),
        "{text}"
    );
    // A Python assert raises AssertionError: its page does not say panicked.
    let id = common::id_of(&db, "shapes", "sides must be positive");
    run_json(errdex(&db).args(["analyze", "--json", &id]));
    let v = run_json(errdex(&db).args(["show", "--json", &id]));
    let text = v["analysis"]["sections"].to_string();
    assert!(text.contains("AssertionError"), "{text}");
    assert!(!text.contains("panicked"), "{text}");
}
