//! Message templates: literal text with holes where runtime values go.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A hole: a place where a runtime value is printed. Serialised as the
/// pair `[arg, spec]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "(String, String)", from = "(String, String)")]
pub struct Hole {
    /// The argument that fills it, as written in the source (`offset`,
    /// `self.line`, `.0.status()`, `$msg`); empty when unknown.
    pub arg: String,
    /// The format spec after the colon (`?`, `#?`, `>8.2`), empty for `{}`.
    pub spec: String,
}

impl From<Hole> for (String, String) {
    fn from(h: Hole) -> Self {
        (h.arg, h.spec)
    }
}

impl From<(String, String)> for Hole {
    fn from((arg, spec): (String, String)) -> Self {
        Hole { arg, spec }
    }
}

/// One part of a template. Serialised untagged: a literal is a JSON string,
/// a hole a `[arg, spec]` pair, so a template is e.g.
/// `["bad token ", ["tok", "?"], " at ", ["pos", ""]]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Piece {
    /// Text printed as is.
    Lit(String),
    /// A runtime value.
    Hole(Hole),
}

/// A message template: literal parts and holes, adjacent literals merged.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Template {
    pieces: Vec<Piece>,
}

impl Template {
    /// The empty template.
    pub fn new() -> Self {
        Template::default()
    }

    /// A template made of one literal text.
    pub fn literal(text: impl Into<String>) -> Self {
        let mut t = Template::new();
        t.push_lit(&text.into());
        t
    }

    /// A template that is one hole, e.g. a message passed through a variable.
    pub fn hole(arg: impl Into<String>, spec: impl Into<String>) -> Self {
        let mut t = Template::new();
        t.push_hole(Hole {
            arg: arg.into(),
            spec: spec.into(),
        });
        t
    }

    /// Appends literal text, merging with a preceding literal.
    pub fn push_lit(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some(Piece::Lit(last)) = self.pieces.last_mut() {
            last.push_str(text);
        } else {
            self.pieces.push(Piece::Lit(text.to_string()));
        }
    }

    /// Appends a hole.
    pub fn push_hole(&mut self, hole: Hole) {
        self.pieces.push(Piece::Hole(hole));
    }

    /// Appends every piece of `other`.
    pub fn append(&mut self, other: &Template) {
        for p in &other.pieces {
            match p {
                Piece::Lit(s) => self.push_lit(s),
                Piece::Hole(h) => self.push_hole(h.clone()),
            }
        }
    }

    /// `self` followed by `other`.
    pub fn then(mut self, other: &Template) -> Template {
        self.append(other);
        self
    }

    /// `prefix` followed by `self`.
    pub fn prefixed(self, prefix: &str) -> Template {
        let mut t = Template::literal(prefix);
        t.append(&self);
        t
    }

    /// The pieces in order.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// True when there is no piece at all.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// True when the template has no literal text: its message comes
    /// entirely from runtime values (a pass-through such as `"{}", msg`).
    pub fn is_dynamic(&self) -> bool {
        self.pieces.iter().all(|p| matches!(p, Piece::Hole(_)))
    }

    /// Characters of literal text, the part of a message a template explains.
    pub fn literal_len(&self) -> usize {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Lit(s) => s.chars().count(),
                Piece::Hole(_) => 0,
            })
            .sum()
    }

    /// The literal parts in order.
    pub fn literals(&self) -> impl Iterator<Item = &str> {
        self.pieces.iter().filter_map(|p| match p {
            Piece::Lit(s) => Some(s.as_str()),
            Piece::Hole(_) => None,
        })
    }

    /// The text by which the template is found in source code: its longest
    /// run of literal text that a string literal spells as-is (no escapes,
    /// quotes or braces) and that one of `sources` (the texts where the
    /// site and its message stand) contains, trimmed; shortened word by word
    /// at either end when the whole run is not in the source (std's `not
    /// implemented: ` prefix). `None` when no such run has
    /// [`Template::MIN_KEY_CHARS`].
    pub fn key_in(&self, sources: &[&str]) -> Option<String> {
        let mut candidates: Vec<String> = Vec::new();
        for text in self.literals() {
            for run in text.split(|c: char| c.is_control() || matches!(c, '"' | '\\' | '{' | '}')) {
                let words: Vec<&str> = run.split(' ').collect();
                for i in 0..words.len() {
                    candidates.push(words[i..].join(" ").trim().to_string());
                    candidates.push(words[..words.len() - i].join(" ").trim().to_string());
                }
            }
        }
        candidates.retain(|c| c.chars().count() >= Self::MIN_KEY_CHARS);
        candidates.sort_by_key(|c| std::cmp::Reverse(c.chars().count()));
        candidates
            .into_iter()
            .find(|c| sources.iter().any(|s| s.contains(c.as_str())))
    }

    /// Keys shorter than this say too little to find a message by
    /// (`"error"` is everywhere).
    pub const MIN_KEY_CHARS: usize = 8;

    /// The normalised text used for identity: holes as `{}`, literal braces
    /// doubled, so two templates that print alike normalise alike.
    pub fn normalized(&self) -> String {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Lit(s) => {
                    for c in s.chars() {
                        match c {
                            '{' => out.push_str("{{"),
                            '}' => out.push_str("}}"),
                            c => out.push(c),
                        }
                    }
                }
                Piece::Hole(_) => out.push_str("{}"),
            }
        }
        out
    }

    /// True when some rendering of the template could contain `needle`,
    /// with at least half of the needle matched by literal text (a hole
    /// matches any text, so it alone proves nothing). Used to link
    /// `should_panic(expected = ..)` tests to sites.
    pub fn could_contain(&self, needle: &str) -> bool {
        let needle: Vec<char> = needle.chars().collect();
        if needle.is_empty() {
            return true;
        }
        let need = needle.len().div_ceil(2);
        // reach[j]: the most literal characters with which needle[..j] can
        // be matched ending just before the current token.
        let mut reach: Vec<Option<usize>> = vec![None; needle.len() + 1];
        let mut best = 0;
        let tokens = self.pieces.iter().flat_map(|p| match p {
            Piece::Lit(s) => s.chars().map(Some).collect::<Vec<_>>(),
            Piece::Hole(_) => vec![None],
        });
        for tok in tokens {
            reach[0] = Some(reach[0].unwrap_or(0));
            let mut next: Vec<Option<usize>> = vec![None; needle.len() + 1];
            match tok {
                Some(c) => {
                    for j in 0..needle.len() {
                        if needle[j] == c {
                            next[j + 1] = reach[j].map(|n| n + 1);
                        }
                    }
                }
                None => {
                    let mut run: Option<usize> = None;
                    for j in 0..=needle.len() {
                        run = run.max(reach[j]);
                        next[j] = run;
                    }
                }
            }
            if let Some(n) = next[needle.len()] {
                best = best.max(n);
            }
            reach = next;
        }
        best >= need
    }
}

impl fmt::Display for Template {
    /// Renders the template as users read it: holes as `{arg:spec}` or
    /// `{}`, literal braces doubled.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.pieces {
            match p {
                Piece::Lit(s) => {
                    for c in s.chars() {
                        match c {
                            '{' => f.write_str("{{")?,
                            '}' => f.write_str("}}")?,
                            c => write!(f, "{c}")?,
                        }
                    }
                }
                Piece::Hole(h) => {
                    let simple = is_simple_name(&h.arg);
                    f.write_str("{")?;
                    if simple {
                        f.write_str(&h.arg)?;
                    }
                    if !h.spec.is_empty() {
                        write!(f, ":{}", h.spec)?;
                    }
                    f.write_str("}")?;
                }
            }
        }
        Ok(())
    }
}

/// An identifier or tuple index that reads well inside braces.
fn is_simple_name(s: &str) -> bool {
    !s.is_empty() && s.len() <= 40 && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        let t = Template::literal("invalid type: ")
            .then(&Template::hole("0", ""))
            .then(&Template::literal(", expected a \"string\"\n"));
        let src = r#"Err(format!("invalid type: {}, expected a \"string\"\n", x))"#;
        assert_eq!(t.key_in(&[src]).as_deref(), Some("invalid type:"));
        assert_eq!(Template::literal("oops").key_in(&["oops"]), None);
        let prefixed = Template::literal("not implemented: network layer missing");
        assert_eq!(
            prefixed
                .key_in(&[r#"unimplemented!("network layer missing")"#])
                .as_deref(),
            Some("network layer missing")
        );
        assert_eq!(prefixed.key_in(&["elsewhere"]), None);
    }

    fn t(parts: &[&str]) -> Template {
        let mut t = Template::new();
        for p in parts {
            if let Some(arg) = p.strip_prefix('$') {
                t.push_hole(Hole {
                    arg: arg.into(),
                    spec: String::new(),
                });
            } else {
                t.push_lit(p);
            }
        }
        t
    }

    #[test]
    fn renders_and_normalises() {
        let x = t(&["bad {", "$x", "} at ", "$self.pos"]);
        assert_eq!(x.to_string(), "bad {{{x}}} at {}");
        assert_eq!(x.normalized(), "bad {{{}}} at {}");
        assert_eq!(x.literal_len(), 10);
        assert!(!x.is_dynamic());
        assert!(t(&["$msg"]).is_dynamic());
    }

    #[test]
    fn compact_json_round_trips() {
        let x = t(&["bad ", "$tok", " at"]);
        let json = serde_json::to_string(&x).unwrap();
        assert_eq!(json, r#"["bad ",["tok",""]," at"]"#);
        assert_eq!(serde_json::from_str::<Template>(&json).unwrap(), x);
    }

    #[test]
    fn adjacent_literals_merge() {
        let x = t(&["a", "b", "$x", "c"]);
        assert_eq!(x.pieces().len(), 3);
    }

    #[test]
    fn could_contain_substrings_across_holes() {
        let x = t(&["index ", "$i", " is too big"]);
        assert!(x.could_contain("too big"));
        assert!(x.could_contain("index 5 is"));
        assert!(x.could_contain("5 is too"));
        assert!(x.could_contain("dex "));
        assert!(!x.could_contain("out of range"));
        assert!(!x.could_contain("is too bigger"));
        assert!(!t(&["$m"]).could_contain("anything"));
        assert!(!t(&["abc"]).could_contain("abd"));
        assert!(t(&["abc"]).could_contain("abc"));
    }
}
