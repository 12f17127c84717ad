//! What the catalogue's evidence says: the tests that trigger the error
//! and the enclosing fn's doc comments.

use super::*;

/// The doc comments of the enclosing fn, each quoted once (however many
/// sites ask).
pub(super) fn doc_facts(b: &mut Builder, error: &ErrorDetail) {
    for e in &error.evidence {
        let (label, heading) = match e.kind {
            EvidenceKind::DocPanics => (
                "Its doc comment says under `# Panics`",
                Some(DocHeading::Panics),
            ),
            EvidenceKind::DocErrors => (
                "Its doc comment says under `# Errors`",
                Some(DocHeading::Errors),
            ),
            EvidenceKind::Doc => ("Its doc comment says", None),
            EvidenceKind::ShouldPanic => continue,
        };
        if b.seen(&format!("doc:{}:{}", e.kind.as_str(), e.text)) {
            continue;
        }
        let quote = e.text.replace('\n', " ");
        b.push_detailed(
            FactKind::Doc,
            format!("{label}: \"{quote}\""),
            Some((e.path.clone(), e.line)),
            Detail::Doc {
                of: None,
                heading,
                quote,
            },
        );
    }
}

/// A test's name in words, as it names the case it tries:
/// `double_remove_panics` → ` ("double remove panics")`; nothing for a
/// one-word name.
fn in_words(name: &str) -> String {
    let words: Vec<&str> = name
        .trim_start_matches("test_")
        .split('_')
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() < 2 {
        return String::new();
    }
    format!(" (\"{}\")", words.join(" "))
}

impl Analyzer {
    pub(super) fn test_facts(
        &self,
        b: &mut Builder,
        error: &ErrorDetail,
        sites: &[&SiteRow],
        throwers: &[usize],
    ) {
        let mut n = 0;
        for e in error
            .evidence
            .iter()
            .filter(|e| e.kind == EvidenceKind::ShouldPanic)
        {
            let Some(fi) =
                self.symbols.fns.iter().position(|f| {
                    f.path == e.path && f.lines.0 <= e.line + 3 && e.line <= f.lines.1
                })
            else {
                continue;
            };
            let f = &self.symbols.fns[fi];
            if n == MAX_TESTS || b.seen(&format!("test:{fi}")) {
                continue;
            }
            b.push(
                FactKind::Test,
                format!(
                    "The repository's test `{}`{} triggers it: it is marked `#[should_panic(expected = \"{}\")]`.",
                    f.qualified(),
                    in_words(&f.name),
                    e.text
                ),
                Some((f.path.clone(), f.lines.0)),
                Some(f.text.clone()),
            );
            n += 1;
        }
        // Tests that check the message's text.
        let sources: Vec<&str> = sites
            .iter()
            .filter_map(|s| self.files.get(&s.path).map(|p| p.file.text.as_str()))
            .collect();
        let Some(key) = error.pieces.key_in(&sources) else {
            return;
        };
        for (fi, f) in self.symbols.fns.iter().enumerate() {
            if n == MAX_TESTS {
                break;
            }
            if !f.is_test_fn || throwers.contains(&fi) || !f.text.contains(&key) {
                continue;
            }
            if b.seen(&format!("test:{fi}")) {
                continue;
            }
            b.push(
                FactKind::Test,
                format!(
                    "The repository's test `{}` checks for this message's text (`{key}`).",
                    f.qualified()
                ),
                Some((f.path.clone(), f.lines.0)),
                Some(f.text.clone()),
            );
            n += 1;
        }
    }
}
