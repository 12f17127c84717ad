//! errdex's one Rust syntax front-end, shared by extraction, analysis and
//! the web's highlighting: the tree-sitter-rust parser, the node helpers
//! they all use, the one recursion limit every walk obeys, and what a
//! file's path says about test code.

pub mod attrs;
pub mod items;
pub mod literal;

use std::sync::OnceLock;
use tree_sitter::{Node, Parser, Query, Tree};

pub use errdex_model::{is_test_or_example_path, is_test_path};

/// Deepest nesting of syntax nodes a file may have, and the depth every
/// recursive walk stops at. A deeper file (a generated 300-arm `else if`
/// chain, 200 nested `match`es, a 300-call method chain) is skipped whole
/// and counted at extraction, so that no recursive walk over its tree — in
/// extraction, in analysis or in highlighting — can exhaust a thread's
/// stack.
pub const MAX_SYNTAX_DEPTH: usize = 500;

/// A parser for Rust.
pub fn parser() -> Parser {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_rust::LANGUAGE.into())
        .expect("tree-sitter-rust is compatible with the linked tree-sitter");
    p
}

/// Parses one file; `None` only if tree-sitter gives up.
pub fn parse(parser: &mut Parser, text: &str) -> Option<Tree> {
    parser.parse(text.as_bytes(), None)
}

/// tree-sitter-rust's own highlight query, compiled once.
pub fn highlight_query() -> &'static Query {
    static Q: OnceLock<Query> = OnceLock::new();
    Q.get_or_init(|| {
        Query::new(
            &tree_sitter_rust::LANGUAGE.into(),
            tree_sitter_rust::HIGHLIGHTS_QUERY,
        )
        .expect("tree-sitter-rust's highlight query compiles")
    })
}

/// True when some node lies more than `limit` levels below `root`; walks
/// the tree with a cursor, without recursion.
pub fn deeper_than(root: Node, limit: usize) -> bool {
    let mut cursor = root.walk();
    let mut depth = 0usize;
    loop {
        if cursor.goto_first_child() {
            depth += 1;
            if depth > limit {
                return true;
            }
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if depth == 0 || !cursor.goto_parent() {
                return false;
            }
            depth -= 1;
        }
    }
}

/// The syntax errors (error and missing nodes) under `root`, counted
/// without recursion.
pub fn count_errors(root: Node) -> usize {
    if !root.has_error() {
        return 0;
    }
    let mut n = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            n += 1;
            continue;
        }
        if node.has_error() {
            let mut c = node.walk();
            stack.extend(node.children(&mut c));
        }
    }
    n
}

/// The identifier `s` begins with (letters, digits, `_`; empty if none).
pub fn leading_ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The identifier `s` ends with (`foo!` before the `!` of `x = foo`).
pub fn trailing_ident(s: &str) -> &str {
    let start = s
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + s[i..].chars().next().map_or(1, char::len_utf8));
    &s[start..]
}

/// The last `::` segment of a path or type, without generics:
/// `foo::Bar<T>` → `Bar` (a reference stays one: `&mut Bar`).
pub fn last_segment(path: &str) -> &str {
    let t = path.split('<').next().unwrap_or(path);
    t.rsplit("::").next().unwrap_or(t).trim()
}

/// Re-parses the inside of a token tree (`{ … }` of `cfg_if!`, the
/// arguments of `assert!(f(x))`) as Rust, in the coordinates of `source`
/// (the bytes the tree was parsed from); `None` for an empty tree or when
/// tree-sitter gives up. The parser's included ranges are reset after.
pub fn reparse_token_tree(parser: &mut Parser, source: &[u8], tt: Node) -> Option<Tree> {
    let open = tt.child(0)?;
    let close = tt.child(tt.child_count().checked_sub(1)?)?;
    if close.start_byte() <= open.end_byte() {
        return None;
    }
    let range = tree_sitter::Range {
        start_byte: open.end_byte(),
        end_byte: close.start_byte(),
        start_point: open.end_position(),
        end_point: close.start_position(),
    };
    parser.set_included_ranges(&[range]).ok()?;
    let tree = parser.parse(source, None);
    let _ = parser.set_included_ranges(&[]);
    tree
}

/// A node's source text (empty if it is not valid UTF-8).
pub fn text<'a>(n: Node, src: &'a str) -> &'a str {
    n.utf8_text(src.as_bytes()).unwrap_or("")
}

/// A node's first line, 1-based.
pub fn line(n: Node) -> u32 {
    n.start_position().row as u32 + 1
}

/// The first named child of `kind`.
pub fn named_child<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut c = node.walk();
    let found = node.named_children(&mut c).find(|n| n.kind() == kind);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_at_either_end() {
        assert_eq!(leading_ident("Foo_1::bar"), "Foo_1");
        assert_eq!(trailing_ident("let x = my_macro"), "my_macro");
        assert_eq!(trailing_ident("é→ab"), "ab");
        assert_eq!((leading_ident(" x"), trailing_ident("x ")), ("", ""));
    }

    #[test]
    fn depth_and_errors() {
        let mut p = parser();
        let src = "fn f() { g(h(i(1))); }";
        let tree = parse(&mut p, src).unwrap();
        let root = tree.root_node();
        assert!(!deeper_than(root, MAX_SYNTAX_DEPTH));
        assert!(deeper_than(root, 3));
        assert_eq!(count_errors(root), 0);
        let f = named_child(root, "function_item").unwrap();
        assert_eq!(line(f), 1);
        assert_eq!(text(named_child(f, "identifier").unwrap(), src), "f");
        let bad = parse(&mut p, "fn f( {").unwrap();
        assert!(count_errors(bad.root_node()) > 0);
    }

    #[test]
    fn deep_nesting_is_seen() {
        let src = format!("fn f() {{ {}1{} }}", "(".repeat(600), ")".repeat(600));
        let tree = parse(&mut parser(), &src).unwrap();
        assert!(deeper_than(tree.root_node(), MAX_SYNTAX_DEPTH));
    }

    #[test]
    fn last_segments() {
        assert_eq!(last_segment("foo::Bar<T>"), "Bar");
        assert_eq!(last_segment("&mut Bar"), "&mut Bar");
        assert_eq!(last_segment("std::io::Error"), "Error");
        assert_eq!(last_segment("Vec<a::B>"), "Vec");
        assert_eq!(last_segment("f"), "f");
    }

    #[test]
    fn token_trees_reparse_in_place() {
        let src = "m! { fn g() { h(1) } }";
        let mut p = parser();
        let tree = parse(&mut p, src).unwrap();
        let call = named_child(tree.root_node(), "expression_statement")
            .or_else(|| named_child(tree.root_node(), "macro_invocation"))
            .unwrap();
        let mac = if call.kind() == "macro_invocation" {
            call
        } else {
            call.child(0).unwrap()
        };
        let tt = named_child(mac, "token_tree").unwrap();
        let inner = reparse_token_tree(&mut p, src.as_bytes(), tt).unwrap();
        let f = named_child(inner.root_node(), "function_item").unwrap();
        assert_eq!(text(f, src), "fn g() { h(1) }");
        // The parser parses whole files again afterwards.
        assert!(parse(&mut p, src).unwrap().root_node().start_byte() == 0);
        let empty = parse(&mut p, "m!{}").unwrap();
        let tt = named_child(
            named_child(empty.root_node(), "macro_invocation").unwrap(),
            "token_tree",
        );
        assert!(reparse_token_tree(&mut p, b"m!{}", tt.unwrap()).is_none());
    }

    #[test]
    fn highlight_query_compiles() {
        assert!(!highlight_query().capture_names().is_empty());
    }
}
