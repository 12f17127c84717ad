//! Outer attributes and doc comments that precede an item.

use crate::{literal, named_child};
use tree_sitter::Node;

/// What the attributes and doc comments before an item say.
#[derive(Debug, Default, Clone)]
pub struct Attrs<'t> {
    /// `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case]`, `#[bench]`.
    pub test_fn: bool,
    /// `#[cfg(test)]` or `#[cfg(all(test, ..))]`.
    pub cfg_test: bool,
    /// The conditions of the other `#[cfg(..)]` attributes, whitespace
    /// folded (`feature = "std"`): the builds that compile the item.
    pub cfgs: Vec<String>,
    /// `#[cfg(doc)]`, `#[cfg(docsrs)]` or `#[cfg(all(docsrs, ..))]`: only
    /// documentation builds compile the item.
    pub cfg_docs: bool,
    /// `#[path = ".."]` of a module.
    pub path: Option<String>,
    /// `#[track_caller]`, also under `cfg_attr`.
    pub track_caller: bool,
    /// `#[should_panic]`, with its `expected` text when given.
    pub should_panic: Option<Option<String>>,
    /// `#[derive(.., Error, ..)]`.
    pub derive_error: bool,
    /// `#[derive(.., Debug, ..)]`.
    pub derive_debug: bool,
    /// `#[derive(.., Display, ..)]` (derive_more, strum).
    pub derive_display: bool,
    /// The token tree of the attribute that gives the `Display` text:
    /// thiserror's `#[error(..)]`, derive_more's `#[display(..)]`, strum's
    /// `#[strum(to_string = ..)]`.
    pub error: Option<Node<'t>>,
    /// Doc comment text, lines joined with `\n`.
    pub doc: String,
    /// First line of the doc comment.
    pub doc_line: u32,
}

impl<'t> Attrs<'t> {
    /// The attributes and doc comments right before `item` (its preceding
    /// siblings up to the first other node), folded in source order.
    pub fn before(item: Node<'t>, src: &[u8]) -> Self {
        let mut preceding = Vec::new();
        let mut prev = item.prev_sibling();
        while let Some(p) = prev.filter(|p| {
            matches!(
                p.kind(),
                "attribute_item" | "line_comment" | "block_comment"
            )
        }) {
            preceding.push(p);
            prev = p.prev_sibling();
        }
        let mut attrs = Attrs::default();
        for p in preceding.into_iter().rev() {
            attrs.add(p, src);
        }
        attrs
    }

    /// Folds one preceding sibling (an attribute or a comment) in.
    pub fn add(&mut self, node: Node<'t>, src: &[u8]) {
        match node.kind() {
            "attribute_item" => {
                if let Some(attr) = named_child(node, "attribute") {
                    self.add_attribute(attr, src);
                }
            }
            "line_comment" | "block_comment" => {
                let mut c = node.walk();
                let is_outer_doc = node
                    .children(&mut c)
                    .any(|ch| ch.kind() == "outer_doc_comment_marker");
                if !is_outer_doc {
                    return;
                }
                if let Some(doc) = named_child(node, "doc_comment") {
                    if self.doc.is_empty() {
                        self.doc_line = crate::line(node);
                    }
                    let text = doc.utf8_text(src).unwrap_or("");
                    let text = text.strip_suffix('\n').unwrap_or(text);
                    let text = text.strip_prefix(' ').unwrap_or(text);
                    if !self.doc.is_empty() {
                        self.doc.push('\n');
                    }
                    self.doc.push_str(text);
                }
            }
            _ => {}
        }
    }

    fn add_attribute(&mut self, attr: Node<'t>, src: &[u8]) {
        let mut c = attr.walk();
        let path = attr
            .children(&mut c)
            .find(|n| matches!(n.kind(), "identifier" | "scoped_identifier"))
            .and_then(|n| n.utf8_text(src).ok())
            .unwrap_or("");
        let last = path.rsplit("::").next().unwrap_or(path);
        let args = attr.child_by_field_name("arguments");
        let args_text = args.and_then(|a| a.utf8_text(src).ok()).unwrap_or("");
        match last {
            "test" | "rstest" | "test_case" | "bench" | "quickcheck" | "proptest" => {
                self.test_fn = true
            }
            "track_caller" => self.track_caller = true,
            // `#[cfg_attr(debug_assertions, track_caller)]`: the builds
            // that panic there name the caller.
            "cfg_attr" if has_word(args_text, "track_caller") => self.track_caller = true,
            "should_panic" => {
                let expected = args.and_then(|a| {
                    let mut c = a.walk();
                    let toks: Vec<Node> = a.children(&mut c).collect();
                    toks.windows(3).find_map(|w| {
                        (w[0].utf8_text(src).ok() == Some("expected") && w[1].kind() == "=")
                            .then(|| literal::decode(w[2].utf8_text(src).ok()?))
                            .flatten()
                    })
                });
                self.should_panic = Some(expected);
            }
            "cfg" => {
                let compact: String = args_text.chars().filter(|c| !c.is_whitespace()).collect();
                if compact == "(test)"
                    || (compact.starts_with("(all(")
                        && has_word(&compact, "test")
                        && !compact.contains("not(test"))
                {
                    self.cfg_test = true;
                } else if let Some(inner) = args_text
                    .strip_prefix('(')
                    .and_then(|a| a.strip_suffix(')'))
                {
                    self.cfgs
                        .push(inner.split_whitespace().collect::<Vec<_>>().join(" "));
                }
                self.cfg_docs |= docs_only_cfg(&compact);
            }
            "path" => {
                self.path = attr
                    .child_by_field_name("value")
                    .and_then(|v| v.utf8_text(src).ok())
                    .and_then(literal::decode);
            }
            "derive" => {
                self.derive_error |= has_word(args_text, "Error") || has_word(args_text, "Snafu");
                self.derive_debug |= has_word(args_text, "Debug");
                self.derive_display |= has_word(args_text, "Display");
            }
            "error" | "display" => self.error = args,
            // snafu: `#[snafu(display("…", args), context(false))]`.
            "snafu" => {
                if let Some(display) = args.and_then(|a| snafu_display(a, src)) {
                    self.error = Some(display);
                }
            }
            "strum" if has_word(args_text, "to_string") || has_word(args_text, "message") => {
                self.error = args
            }
            "doc" => {
                if let Some(value) = attr.child_by_field_name("value") {
                    if let Some(text) = value.utf8_text(src).ok().and_then(literal::decode) {
                        if !self.doc.is_empty() {
                            self.doc.push('\n');
                        }
                        self.doc.push_str(text.trim_start());
                    }
                }
            }
            _ => {}
        }
    }
}

/// The token tree after `display` in snafu's attribute arguments.
fn snafu_display<'t>(args: Node<'t>, src: &[u8]) -> Option<Node<'t>> {
    let mut c = args.walk();
    let children: Vec<Node<'t>> = args.children(&mut c).collect();
    children.windows(2).find_map(|w| {
        (w[0].kind() == "identifier"
            && w[0].utf8_text(src).ok() == Some("display")
            && w[1].kind() == "token_tree")
            .then_some(w[1])
    })
}

/// Whether a `cfg(..)` predicate (without spaces, parenthesised) holds
/// only in documentation builds: `doc` or `docsrs`, alone or required by
/// an `all(..)`.
fn docs_only_cfg(compact: &str) -> bool {
    matches!(compact, "(doc)" | "(docsrs)")
        || (compact.starts_with("(all(")
            && (has_word(compact, "doc") || has_word(compact, "docsrs"))
            && !compact.contains("not(doc")
            && !compact.contains("any("))
}

/// True when `word` stands in `s` as a whole identifier.
pub fn has_word(s: &str, word: &str) -> bool {
    s.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|w| w == word)
}

/// Splits a doc comment into its first paragraph and its `# Panics` and
/// `# Errors` sections.
pub fn doc_sections(doc: &str) -> (String, Option<String>, Option<String>) {
    let mut summary = String::new();
    let mut panics: Option<String> = None;
    let mut errors: Option<String> = None;
    let mut current: Option<&mut Option<String>> = None;
    let mut in_summary = true;
    for line in doc.lines() {
        let trimmed = line.trim();
        if let Some(h) = trimmed.strip_prefix('#') {
            in_summary = false;
            let h = h.trim_start_matches('#').trim();
            current = match h {
                "Panics" => Some(&mut panics),
                "Errors" => Some(&mut errors),
                _ => None,
            };
            if let Some(c) = current.as_deref_mut() {
                c.get_or_insert_with(String::new);
            }
            continue;
        }
        if in_summary {
            if trimmed.is_empty() {
                if !summary.is_empty() {
                    in_summary = false;
                }
                continue;
            }
            if !summary.is_empty() {
                summary.push(' ');
            }
            summary.push_str(trimmed);
        } else if let Some(Some(section)) = current.as_deref_mut() {
            if !section.is_empty() || !trimmed.is_empty() {
                if !section.is_empty() {
                    section.push('\n');
                }
                section.push_str(trimmed);
            }
        }
    }
    let clean = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    (summary, clean(panics), clean(errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_doc_and_docsrs_cfgs_are_documentation_builds() {
        for cfg in [
            "(doc)",
            "(docsrs)",
            "(all(docsrs,unix))",
            "(all(doc,feature=\"x\"))",
        ] {
            assert!(docs_only_cfg(cfg), "{cfg}");
        }
        // `any()` is never true either, but crates write `#[cfg(any())]
        // mod x;` so that rustfmt sees files a macro declares (sysinfo).
        for cfg in [
            "(test)",
            "(not(docsrs))",
            "(any(docsrs,unix))",
            "(all(unix,not(doc)))",
            "(any())",
            "(documentation)",
        ] {
            assert!(!docs_only_cfg(cfg), "{cfg}");
        }
    }

    #[test]
    fn splits_doc_sections() {
        let doc = "Parses it.\nReally.\n\n# Panics\n\nWhen empty.\n\n# Errors\nOn bad input.\n# Examples\nx";
        let (s, p, e) = doc_sections(doc);
        assert_eq!(s, "Parses it. Really.");
        assert_eq!(p.as_deref(), Some("When empty."));
        assert_eq!(e.as_deref(), Some("On bad input."));
    }
}
