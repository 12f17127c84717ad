//! A million-template catalogue from real ones, shared by the benches that
//! measure explain at that scale (`explain_speed` here, `start` of the
//! `errdex` crate): the real crates, a deterministic generator, derived
//! templates and rendered messages.

use errdex_model::{Piece, Template};

/// The real crates whose templates seed the catalogue.
pub const CRATES: &[&str] = &[
    "crate:tokio@1.47.1",
    "crate:regex-automata@0.4.9",
    "crate:clap_builder@4.5.47",
    "crate:regex-syntax@0.8.5",
    "crate:syn@2.0.106",
    "crate:hyper@1.7.0",
    "crate:serde_json@1.0.140",
    "crate:serde@1.0.219",
    "crate:semver@1.0.26",
    "crate:http@1.3.1",
    "crate:humantime@2.2.0",
    "crate:url@2.5.4",
    "crate:base64@0.22.1",
    "crate:uuid@1.17.0",
];

/// Distinct templates in the catalogue.
pub const TARGET: usize = 1_000_000;

/// A small deterministic generator (xorshift).
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The words of the real templates' literal text (three characters or
/// more, alphanumeric), sorted.
pub fn vocabulary(real: &[Template]) -> Vec<String> {
    let mut vocab: Vec<String> = real
        .iter()
        .flat_map(|t| {
            t.literals()
                .flat_map(|l| l.split(' '))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|w| w.len() >= 3 && w.chars().all(char::is_alphanumeric))
        .collect();
    vocab.sort();
    vocab.dedup();
    vocab
}

/// A real template with about half its words swapped for vocabulary words.
pub fn derive(t: &Template, vocab: &[String], rng: &mut Rng) -> Template {
    let mut out = Template::new();
    for p in t.pieces() {
        match p {
            Piece::Hole(h) => out.push_hole(h.clone()),
            Piece::Lit(s) => {
                let mut text = String::new();
                for (i, w) in s.split(' ').enumerate() {
                    if i > 0 {
                        text.push(' ');
                    }
                    if w.len() >= 2 && rng.below(2) == 0 {
                        text.push_str(&vocab[rng.below(vocab.len())]);
                    } else {
                        text.push_str(w);
                    }
                }
                out.push_lit(&text);
            }
        }
    }
    out
}

/// A message a template prints, holes filled with plausible values.
pub fn render(t: &Template, rng: &mut Rng) -> String {
    let mut s = String::new();
    for p in t.pieces() {
        match p {
            Piece::Lit(l) => s.push_str(l),
            Piece::Hole(_) => s.push_str(&format!("v{}", rng.below(1000))),
        }
    }
    s
}
