//! Each template filed once, under its rarest word, with what a query can
//! check of it before reaching the compiled template: a signature of its
//! words, a signature of how its words are joined, its literal length
//! (which bounds the score of any match) and the first and last bytes a
//! whole match must begin and end with.

use crate::index::word_hash;
use crate::pattern::{words, Pattern};
use std::borrow::Cow;

/// Words of a query looked up, at most.
pub(crate) const MAX_QUERY_WORDS: usize = 512;
/// Bytes of a template's head and tail kept (the eighth byte of each word
/// holds how many).
const AFFIX: usize = 7;
/// Bits of a word signature.
const SIGNATURE_BITS: u64 = 64;

/// A template as filed under its rarest word.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Filed {
    /// One bit per word of the template (a word's hash modulo 64): a query
    /// that lacks one of these bits lacks one of its words.
    signature: u64,
    /// Bits of the joins of its literal text (see [`joins`]): a text that
    /// lacks one of these bits cannot match it, whole or in part.
    joins: [u64; 2],
    /// The pattern.
    pattern: u32,
    /// Characters of literal text.
    literal: u32,
    /// The first bytes of [`Pattern::head`], their count in the top byte.
    head: u64,
    /// The last bytes of [`Pattern::tail`], their count in the top byte.
    tail: u64,
}

// SAFETY: `Filed` is `repr(C)` of integers only, without padding (8 + 16 +
// 4 + 4 + 8 + 8 bytes at their alignment), so every bit pattern is a value
// and all zeroes is one.
unsafe impl bytemuck::Zeroable for Filed {}
// SAFETY: as above; it is `Copy` and `'static`.
unsafe impl bytemuck::Pod for Filed {}

/// Bytes packed into a word, little-endian, their count in the top byte.
fn affix(bytes: &[u8]) -> u64 {
    debug_assert!(bytes.len() <= AFFIX);
    let mut w = [0u8; 8];
    w[..bytes.len()].copy_from_slice(bytes);
    w[7] = bytes.len() as u8;
    u64::from_le_bytes(w)
}

/// The signature bit of a word's hash.
fn signature_bit(hash: u64) -> u64 {
    1 << (hash % SIGNATURE_BITS)
}

/// Whether `c` is part of a word, as [`words`] reads words.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The signature of a text's joins: every three characters that begin
/// where a word ends or starts (a word character next to one that is not):
/// `p w` and ` wi` in `step with`, `t: ` in ` left: `. A text holding a
/// template's literal segment holds its joins, the same characters at a
/// change of the same kind; one missing bit tells the text cannot match.
fn joins(text: &str) -> [u64; 2] {
    let mut sig = [0; 2];
    let mut chars = text.char_indices();
    let (Some(mut a), Some(mut b)) = (chars.next(), chars.next()) else {
        return sig;
    };
    for c in chars {
        if is_word_char(a.1) != is_word_char(b.1) {
            let h = word_hash(&text[a.0..c.0 + c.1.len_utf8()]);
            sig[(h >> 63) as usize] |= signature_bit(h);
        }
        (a, b) = (b, c);
    }
    sig
}

impl Filed {
    /// Pattern `pattern`, compiled as `p`, whose whole words hash to `words`.
    pub fn new(pattern: u32, p: &Pattern, words: &[u64]) -> Filed {
        let (head, tail) = (p.head().as_bytes(), p.tail().as_bytes());
        Filed {
            signature: words.iter().fold(0, |s, &h| s | signature_bit(h)),
            joins: p
                .literals()
                .map(joins)
                .fold([0; 2], |[a, b], [c, d]| [a | c, b | d]),
            pattern,
            literal: u32::try_from(p.literal_len()).unwrap_or(u32::MAX),
            head: affix(&head[..head.len().min(AFFIX)]),
            tail: affix(&tail[tail.len() - tail.len().min(AFFIX)..]),
        }
    }

    /// The same template filed as pattern `pattern`.
    pub fn renumbered(self, pattern: u32) -> Filed {
        Filed { pattern, ..self }
    }

    /// The pattern.
    pub fn pattern(&self) -> u32 {
        self.pattern
    }

    /// Characters of literal text: a match explains this many of the text.
    pub fn literal(&self) -> usize {
        self.literal as usize
    }
}

/// A query's words and what the filed templates are checked against.
pub(crate) struct Query<'a> {
    /// Its distinct words, lowercased (the first [`MAX_QUERY_WORDS`]).
    pub words: Vec<Cow<'a, str>>,
    /// Their hashes, sorted.
    hashes: Vec<u64>,
    /// Their signature bits.
    signature: u64,
    /// The signature of its [`joins`].
    joins: [u64; 2],
    /// The text's first `n` bytes packed as [`affix`] packs them, for each
    /// `n` up to [`AFFIX`] (none beyond the text's length).
    heads: [Option<u64>; AFFIX + 1],
    /// Its last `n` bytes, likewise.
    tails: [Option<u64>; AFFIX + 1],
}

impl<'a> Query<'a> {
    /// The query of a normalised text.
    pub fn new(text: &'a str) -> Query<'a> {
        // Most words are lowercase ASCII already: those are not copied.
        let lower = |w: &'a str| match w.is_ascii() && !w.bytes().any(|b| b.is_ascii_uppercase()) {
            true => Cow::Borrowed(w),
            false => Cow::Owned(w.to_lowercase()),
        };
        let mut words: Vec<Cow<'a, str>> = words(text).take(MAX_QUERY_WORDS).map(lower).collect();
        words.sort_unstable();
        words.dedup();
        let mut hashes: Vec<u64> = words.iter().map(|w| word_hash(w)).collect();
        hashes.sort_unstable();
        let b = text.as_bytes();
        let n = |i: usize| (i <= b.len()).then_some(i);
        Query {
            signature: hashes.iter().fold(0, |s, &h| s | signature_bit(h)),
            joins: joins(text),
            hashes,
            words,
            heads: std::array::from_fn(|i| n(i).map(|i| affix(&b[..i]))),
            tails: std::array::from_fn(|i| n(i).map(|i| affix(&b[b.len() - i..]))),
        }
    }

    /// Whether the text may hold every word of `f` (no word is missing from
    /// its signature).
    pub fn may_hold(&self, f: &Filed) -> bool {
        f.signature & !self.signature == 0
    }

    /// Whether the text may match `f` at all, whole or in part: it has
    /// every join of the template's literal text.
    pub fn may_join(&self, f: &Filed) -> bool {
        f.joins[0] & !self.joins[0] == 0 && f.joins[1] & !self.joins[1] == 0
    }

    /// Whether the text holds every word of the given hashes.
    pub fn holds(&self, hashes: &[u64]) -> bool {
        hashes.iter().all(|h| self.hashes.binary_search(h).is_ok())
    }

    /// Whether the text may match `f` whole: it begins with the template's
    /// head and ends with its tail, as far as they are kept.
    pub fn may_be_whole(&self, f: &Filed) -> bool {
        let count = |a: u64| (a >> 56) as usize;
        self.heads[count(f.head)] == Some(f.head) && self.tails[count(f.tail)] == Some(f.tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(parts: &[&str]) -> Pattern {
        Pattern::new(&crate::pattern::tests::t(parts), false)
    }

    fn hashes(p: &Pattern) -> Vec<u64> {
        p.whole_words()
            .iter()
            .map(|w| word_hash(&w.to_lowercase()))
            .collect()
    }

    fn filed(p: &Pattern) -> Filed {
        Filed::new(3, p, &hashes(p))
    }

    #[test]
    fn what_a_whole_match_needs_is_checked_before_the_template() {
        let p = pattern(&["unexpected token ", "$t", " at offset ", "$o"]);
        let f = filed(&p);
        assert_eq!((f.pattern(), f.literal()), (3, p.literal_len()));
        // A necessary condition: what it rules out never matches whole.
        for (text, may) in [
            ("unexpected token x at offset 3", true),
            ("an unexpected token x at offset 3", false),
            ("unexpected", true),
            ("unexp", false),
            ("", false),
        ] {
            let q = Query::new(text);
            assert_eq!(q.may_be_whole(&f), may, "{text}");
            assert!(may || p.full(text).is_none(), "{text}");
        }
        let p = pattern(&["$a", " was not found"]);
        let f = filed(&p);
        assert!(Query::new("key 7 was not found").may_be_whole(&f));
        assert!(!Query::new("key 7 was not found here").may_be_whole(&f));
        let p = pattern(&["ok"]);
        assert!(Query::new("ok").may_be_whole(&filed(&p)));
        assert!(!Query::new("okay").may_be_whole(&filed(&p)));
    }

    #[test]
    fn a_text_missing_a_word_is_told_by_the_signature_or_the_hashes() {
        let p = pattern(&["unexpected token ", "$t", " at offset ", "$o"]);
        let f = filed(&p);
        let hashes: Vec<u64> = ["unexpected", "token", "at", "offset"]
            .iter()
            .map(|w| word_hash(w))
            .collect();
        let q = Query::new("Unexpected TOKEN } at offset 3");
        assert!(q.may_hold(&f) && q.holds(&hashes));
        let q = Query::new("unexpected token } at 3");
        assert!(!q.holds(&hashes));
        assert!(Query::new("").words.is_empty());
    }

    #[test]
    fn a_text_a_template_matches_has_its_joins() {
        let p = pattern(&[
            "assertion failed: ",
            "$x",
            " left: ",
            "$l",
            " right: ",
            "$r",
        ]);
        let f = filed(&p);
        for text in [
            "assertion failed: x left: 1 right: 2",
            "an assertion failed: x == y left: `1` right: `2`",
            "xassertion failed: x left: 1 right: 2 and more",
        ] {
            assert!(p.full(text).is_some() || p.within(text).is_some(), "{text}");
            assert!(Query::new(text).may_join(&f), "{text}");
        }
        // Every word is there, not how the template joins them.
        let text = "assertion `left == right` failed: with current step";
        assert!(Query::new(text).holds(&hashes(&p)) && !Query::new(text).may_join(&f));
        assert!(p.within(text).is_none());
    }
}
