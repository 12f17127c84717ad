//! Macro arguments as tree-sitter sees them: flat token trees. Splitting
//! them into arguments and re-printing expressions the way rustc's
//! `stringify!` does.

use tree_sitter::Node;

/// One top-level argument of a macro call: its tokens.
#[derive(Debug, Clone)]
pub struct Arg<'t> {
    /// The tokens, in order (nested groups are single `token_tree` nodes).
    pub tokens: Vec<Node<'t>>,
}

impl<'t> Arg<'t> {
    /// The argument's source text.
    pub fn text<'s>(&self, src: &'s [u8]) -> &'s str {
        match (self.tokens.first(), self.tokens.last()) {
            (Some(a), Some(b)) => {
                std::str::from_utf8(&src[a.start_byte()..b.end_byte()]).unwrap_or("")
            }
            _ => "",
        }
    }

    /// The single string literal this argument is, if it is one.
    pub fn as_literal(&self) -> Option<Node<'t>> {
        match self.tokens.as_slice() {
            [n] if is_string(n) => Some(*n),
            _ => None,
        }
    }

    /// `name = expr` splits into `name` and the expression's tokens.
    pub fn named(&self, src: &[u8]) -> Option<(String, Arg<'t>)> {
        match self.tokens.as_slice() {
            [name, eq, rest @ ..]
                if name.kind() == "identifier" && eq.kind() == "=" && !rest.is_empty() =>
            {
                Some((
                    name.utf8_text(src).ok()?.to_string(),
                    Arg {
                        tokens: rest.to_vec(),
                    },
                ))
            }
            _ => None,
        }
    }

    /// The macro name when the argument is `name!(...)`, with its group.
    pub fn as_macro(&self, src: &[u8]) -> Option<(String, Node<'t>)> {
        match self.tokens.as_slice() {
            [.., name, bang, group] if bang.kind() == "!" && group.kind() == "token_tree" => {
                Some((name.utf8_text(src).ok()?.to_string(), *group))
            }
            _ => None,
        }
    }
}

/// True for string literal nodes of any flavour.
pub fn is_string(n: &Node) -> bool {
    matches!(n.kind(), "string_literal" | "raw_string_literal")
}

/// The tokens between a token tree's delimiters.
pub fn inner<'t>(tt: Node<'t>) -> Vec<Node<'t>> {
    let mut c = tt.walk();
    let all: Vec<Node<'t>> = tt.children(&mut c).collect();
    if all.len() >= 2 {
        all[1..all.len() - 1].to_vec()
    } else {
        Vec::new()
    }
}

/// Splits a token tree's contents at top-level commas; a trailing comma
/// makes no empty argument.
pub fn split_args<'t>(tt: Node<'t>) -> Vec<Arg<'t>> {
    let mut args = Vec::new();
    let mut cur = Vec::new();
    for tok in inner(tt) {
        if tok.kind() == "," {
            args.push(Arg {
                tokens: std::mem::take(&mut cur),
            });
        } else {
            cur.push(tok);
        }
    }
    if !cur.is_empty() {
        args.push(Arg { tokens: cur });
    }
    args
}

const BINARY: &[&str] = &[
    "==", "!=", "<", ">", "<=", ">=", "&&", "||", "+", "-", "*", "/", "%", "&", "|", "^", "<<",
    ">>", "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "=>",
];
const WORDS: &[&str] = &[
    "as", "in", "if", "else", "let", "mut", "move", "ref", "return", "match", "dyn", "impl",
];

/// Re-prints tokens as rustc's pretty-printer prints an expression inside
/// `assertion failed: ..`: binary operators spaced, no space around `.`,
/// `::` and before groups, `, ` between items, closures as `|x| body`.
pub fn pretty(tokens: &[Node], src: &[u8]) -> String {
    let mut out = String::new();
    pretty_into(tokens, src, &mut out);
    out
}

fn pretty_into(tokens: &[Node], src: &[u8], out: &mut String) {
    let mut prev: Option<String> = None;
    let mut prev_unary = false;
    let mut in_closure_params = false;
    for tok in tokens {
        let text = tok.utf8_text(src).unwrap_or("");
        if tok.kind() == "token_tree" {
            let (open, close) = {
                let mut c = tok.walk();
                let ch: Vec<Node> = tok.children(&mut c).collect();
                let o = ch
                    .first()
                    .and_then(|n| n.utf8_text(src).ok())
                    .unwrap_or("(");
                let cl = ch.last().and_then(|n| n.utf8_text(src).ok()).unwrap_or(")");
                (o.to_string(), cl.to_string())
            };
            if let Some(p) = &prev {
                if !prev_unary && !out.ends_with(' ') && needs_space_before_group(p, &open) {
                    out.push(' ');
                }
            }
            out.push_str(&open);
            let inner_toks = inner(*tok);
            if open == "{" && !inner_toks.is_empty() {
                out.push(' ');
                pretty_into(&inner_toks, src, out);
                out.push(' ');
            } else {
                pretty_into(&inner_toks, src, out);
            }
            out.push_str(&close);
            prev = Some(close);
            prev_unary = false;
            continue;
        }
        let unary_pos = match &prev {
            None => true,
            Some(p) => {
                BINARY.contains(&p.as_str())
                    || matches!(
                        p.as_str(),
                        "," | "(" | "!" | "[" | "{" | "|open" | "|closure" | ";" | ":"
                    )
                    || WORDS.contains(&p.as_str())
            }
        };
        if text == "|"
            && (unary_pos || in_closure_params)
            && prev.as_deref().is_none_or(|p| p != "|")
        {
            if in_closure_params {
                out.push_str("| ");
                in_closure_params = false;
                prev = Some("|closure".into());
                continue;
            }
            if prev.is_some() && !out.ends_with(' ') && !out.ends_with('(') {
                out.push(' ');
            }
            out.push('|');
            in_closure_params = true;
            prev = Some("|open".into());
            continue;
        }
        if text == "||" && unary_pos {
            if prev.is_some() && !out.ends_with(' ') && !out.ends_with('(') {
                out.push(' ');
            }
            out.push_str("|| ");
            prev = Some("|closure".into());
            continue;
        }
        let is_binary =
            BINARY.contains(&text) && !(unary_pos && matches!(text, "-" | "*" | "&" | "&&" | ".."));
        prev_unary = unary_pos && matches!(text, "-" | "*" | "&" | "&&" | "!");
        match text {
            "." | "::" | "?" | ".." | "..=" => out.push_str(text),
            "," => out.push_str(", "),
            ";" => out.push_str("; "),
            ":" => out.push_str(": "),
            "!" => {
                // `!cond` (unary) or `name!` (macro): never spaced after.
                if !unary_pos && prev.is_some() {
                    out.push('!');
                } else {
                    space_if_word(out, &prev);
                    out.push('!');
                }
            }
            _ if is_binary => {
                trim_end_space(out);
                out.push(' ');
                out.push_str(text);
                out.push(' ');
            }
            _ => {
                let p = prev.as_deref().unwrap_or("");
                let glue = p.is_empty()
                    || p == "."
                    || p == "::"
                    || p == ".."
                    || p == "..="
                    || p == "|open"
                    || p == "!"
                    || (unary_pos && matches!(p, "-" | "*" | "&" | "&&"))
                    || out.ends_with(' ')
                    || out.ends_with('(')
                    || out.ends_with('[');
                if !glue {
                    out.push(' ');
                }
                out.push_str(text);
                if WORDS.contains(&text) && text != "mut" {
                    // spacing after keywords comes from the next token
                }
            }
        }
        prev = Some(text.to_string());
    }
}

fn space_if_word(out: &mut String, prev: &Option<String>) {
    if let Some(p) = prev {
        if WORDS.contains(&p.as_str()) && !out.ends_with(' ') {
            out.push(' ');
        }
    }
}

fn trim_end_space(out: &mut String) {
    while out.ends_with(' ') {
        out.pop();
    }
}

fn needs_space_before_group(prev: &str, open: &str) -> bool {
    if open == "{" {
        return true;
    }
    WORDS.contains(&prev) || BINARY.contains(&prev) && prev != ".." || prev == "|closure"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_text(src: &str) -> String {
        let mut p = errdex_syntax::parser();
        let code = format!("fn f() {{ assert!({src}); }}");
        let tree = p.parse(&code, None).unwrap();
        let mut found = None;
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            if n.kind() == "token_tree" && found.is_none() {
                found = Some(n);
                break;
            }
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
        let tt = found.unwrap();
        let args = split_args(tt);
        pretty(&args[0].tokens, code.as_bytes())
    }

    #[test]
    fn prints_like_rustc() {
        assert_eq!(
            assert_text("a.len()>0&&b   ||   a.is_empty()"),
            "a.len() > 0 && b || a.is_empty()"
        );
        assert_eq!(assert_text("!v.is_empty()"), "!v.is_empty()");
        assert_eq!(assert_text("x == -1"), "x == -1");
        assert_eq!(
            assert_text("self.num_remote_reset_streams > 0"),
            "self.num_remote_reset_streams > 0"
        );
        assert_eq!(
            assert_text("v.iter().all(|&x|x>5)"),
            "v.iter().all(|&x| x > 5)"
        );
        assert_eq!(assert_text("matches!(x, Some(_))"), "matches!(x, Some(_))");
        assert_eq!(
            assert_text("*p != 0 && &a[..2] == b"),
            "*p != 0 && &a[..2] == b"
        );
        assert_eq!(assert_text("n as usize <= cap"), "n as usize <= cap");
        assert_eq!(assert_text("(0..n).contains(&i)"), "(0..n).contains(&i)");
        assert_eq!(assert_text("f(&[0xC0]).is_err()"), "f(&[0xC0]).is_err()");
        assert_eq!(assert_text("a & (b | c) != 0"), "a & (b | c) != 0");
    }
}
