//! Excerpts highlighted with their grammar's own highlight query
//! (tree-sitter-rust's, tree-sitter-python's), rendered as escaped HTML,
//! one string per line.

use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator};

/// The grammars excerpts are highlighted with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grammar {
    /// Rust.
    Rust,
    /// Python.
    Python,
    /// Anything else: escaped, not highlighted.
    Plain,
}

impl Grammar {
    /// The grammar of a file by its name, else of the error's language
    /// (`rust`, `python`).
    pub fn of(path: &str, language: &str) -> Grammar {
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        match (ext, language) {
            ("rs", _) => Grammar::Rust,
            ("py" | "pyi" | "pyx", _) => Grammar::Python,
            (_, "rust") => Grammar::Rust,
            (_, "python") => Grammar::Python,
            _ => Grammar::Plain,
        }
    }

    fn parts(self) -> Option<(Parser, &'static Query)> {
        match self {
            Grammar::Rust => Some((errdex_syntax::parser(), errdex_syntax::highlight_query())),
            Grammar::Python => Some((
                errdex_lang_python::parser(),
                errdex_lang_python::highlight_query(),
            )),
            Grammar::Plain => None,
        }
    }
}

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The lines of `code`, each as HTML with `<span class="hl-…">` around
/// keywords, strings, comments, functions, types, macros and the like.
pub fn lines(code: &str, grammar: Grammar) -> Vec<String> {
    let mut class: Vec<Option<u32>> = vec![None; code.len()];
    let parts = grammar.parts();
    let names: &[&str] = parts.as_ref().map_or(&[], |(_, q)| q.capture_names());
    let tree = parts.map(|(mut parser, q)| (errdex_syntax::parse(&mut parser, code), q));
    if let Some((Some(tree), q)) = tree {
        let mut cursor = QueryCursor::new();
        let mut captures = cursor.captures(q, tree.root_node(), code.as_bytes());
        while let Some((m, i)) = captures.next() {
            let c = m.captures()[*i];
            let (s, e) = (c.node.start_byte(), c.node.end_byte());
            // The first capture of a range wins (the query lists the
            // specific patterns first).
            for slot in &mut class[s..e.min(code.len())] {
                if slot.is_none() {
                    *slot = Some(c.index);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut line = String::new();
    let mut run = String::new();
    let mut current: Option<u32> = None;
    let flush = |line: &mut String, run: &mut String, current: Option<u32>| {
        if run.is_empty() {
            return;
        }
        match current {
            Some(c) => {
                let name = names[c as usize].replace('.', "-");
                line.push_str(&format!("<span class=\"hl-{name}\">{}</span>", escape(run)));
            }
            None => line.push_str(&escape(run)),
        }
        run.clear();
    };
    for (i, ch) in code.char_indices() {
        if ch == '\n' {
            flush(&mut line, &mut run, current);
            out.push(std::mem::take(&mut line));
            continue;
        }
        let c = class[i];
        if c != current {
            flush(&mut line, &mut run, current);
            current = c;
        }
        run.push(ch);
    }
    flush(&mut line, &mut run, current);
    if !line.is_empty() || !code.ends_with('\n') {
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highlights_and_escapes() {
        let l = lines(
            "fn f() { panic!(\"<script>\") } // a < b\nlet x = 1;",
            Grammar::Rust,
        );
        assert_eq!(l.len(), 2);
        assert!(
            l[0].contains("<span class=\"hl-keyword\">fn</span>"),
            "{}",
            l[0]
        );
        assert!(l[0].contains("&lt;script&gt;"), "{}", l[0]);
        assert!(!l[0].contains("<script>"));
        assert!(l[0].contains("hl-comment"), "{}", l[0]);
    }

    #[test]
    fn python_by_its_grammar_and_plain_text_escaped() {
        let g = Grammar::of("requests/models.py", "python");
        assert_eq!(g, Grammar::Python);
        let l = lines(
            "def f(x):\n    raise ValueError(f\"<b>{x!r}</b>\")  # why\n",
            g,
        );
        assert_eq!(l.len(), 2);
        assert!(
            l[0].contains("<span class=\"hl-keyword\">def</span>"),
            "{}",
            l[0]
        );
        assert!(l[1].contains("hl-keyword\">raise</span>"), "{}", l[1]);
        assert!(l[1].contains("hl-string"), "{}", l[1]);
        assert!(l[1].contains("hl-comment"), "{}", l[1]);
        assert!(
            l[1].contains("&lt;b&gt;") && !l[1].contains("<b>"),
            "{}",
            l[1]
        );
        // A Rust file in a Python snapshot is Rust; an unknown file plain.
        assert_eq!(Grammar::of("src/lib.rs", "python"), Grammar::Rust);
        let plain = lines("a <b> & c", Grammar::of("notes.txt", "go"));
        assert_eq!(plain, vec!["a &lt;b&gt; &amp; c".to_string()]);
    }
}
