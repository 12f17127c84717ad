//! The fixture crate `tests/fixtures/kinds` exercises every kind of site;
//! its expected sites are reviewed in `tests/fixtures/kinds.expected`.
//! `UPDATE_EXPECT=1 cargo test -p errdex-lang-rust --test fixture` rewrites
//! the file on purpose; review the diff.

use errdex_extract::{extract_all, SourceFile};
use errdex_lang_rust::RustExtractor;
use std::path::{Path, PathBuf};

fn fixture_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures")
}

fn read_tree(root: &Path) -> Vec<SourceFile> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") {
                files.push(SourceFile {
                    path: p
                        .strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                    text: std::fs::read_to_string(&p).unwrap(),
                });
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

fn render(root: &Path) -> String {
    let files = read_tree(root);
    let x = extract_all(&RustExtractor, &files);
    let mut out = String::new();
    for (i, s) in x.sites.iter().enumerate() {
        let mut flags = Vec::new();
        if s.is_test {
            flags.push("test".to_string());
        }
        if s.reported_at_caller {
            flags.push("caller".into());
        }
        if s.partial {
            flags.push("partial".into());
        }
        if let Some(m) = &s.via_macro {
            flags.push(format!("macro={m}"));
        }
        if let Some(m) = &s.message_from {
            flags.push(format!("from={m}"));
        }
        if let Some(d) = &s.delegates_to {
            flags.push(format!("delegates={d}"));
        }
        if let Some(a) = &s.arm {
            flags.push(format!("arm={a}"));
        }
        out.push_str(&format!(
            "{}:{}:{}-{} @{}:{} {} {} [{}]\n    {:?}\n",
            s.path,
            s.line,
            s.column,
            s.end_line,
            s.report_line,
            s.report_column,
            s.kind,
            s.item_path,
            flags.join(" "),
            s.template.to_string()
        ));
        for e in x.evidence.iter().filter(|e| e.site == i) {
            out.push_str(&format!(
                "    evidence {} {}:{} {:?}\n",
                e.evidence.kind.as_str(),
                e.evidence.path,
                e.evidence.line,
                e.evidence.text
            ));
        }
    }
    out.push_str(&format!("syntax errors: {}\n", x.syntax_errors));
    for l in &x.literals {
        out.push_str(&format!(
            "literal {}:{}:{} {:?}\n",
            l.path, l.line, l.column, l.text
        ));
    }
    out
}

#[test]
fn kinds_fixture_matches_expected_sites() {
    let root = fixture_root();
    let got = render(&root.join("kinds"));
    let expected_path = root.join("kinds.expected");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, &got).unwrap();
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    pretty_assertions::assert_eq!(expected, got);
}
