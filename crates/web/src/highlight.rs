//! Rust excerpts highlighted with tree-sitter-rust's own highlight query,
//! rendered as escaped HTML, one string per line.

use errdex_syntax::highlight_query as query;
use tree_sitter::{QueryCursor, StreamingIterator};

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
pub fn lines(code: &str) -> Vec<String> {
    let mut class: Vec<Option<u32>> = vec![None; code.len()];
    if let Some(tree) = errdex_syntax::parse(&mut errdex_syntax::parser(), code) {
        let q = query();
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
    let names = query().capture_names();
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
        let l = lines("fn f() { panic!(\"<script>\") } // a < b\nlet x = 1;");
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
}
