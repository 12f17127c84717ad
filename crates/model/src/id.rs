//! Stable error identifiers.

use crate::{Kind, Template};
use serde::{Deserialize, Serialize};
use std::fmt;
use xxhash_rust::xxh3::Xxh3;

/// The stable identity of an error: 64 bits shown as 16 hex digits, a hash
/// of repo slug, language, kind, normalised template and enclosing item
/// path. Lines and revisions are not part of it, so an error keeps its id
/// (and its page) across versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct ErrorId(u64);

impl ErrorId {
    /// Computes the id of an error.
    pub fn compute(
        repo: &str,
        language: &str,
        kind: Kind,
        template: &Template,
        item: &str,
    ) -> Self {
        let mut h = Xxh3::new();
        for part in [repo, language, kind.as_str(), &template.normalized(), item] {
            h.update(part.as_bytes());
            h.update(&[0xff]);
        }
        ErrorId(h.digest())
    }

    /// Parses 16 hex digits.
    pub fn parse(s: &str) -> Option<Self> {
        if s.len() != 16 {
            return None;
        }
        u64::from_str_radix(s, 16).ok().map(ErrorId)
    }
}

impl fmt::Display for ErrorId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

impl From<ErrorId> for String {
    fn from(id: ErrorId) -> String {
        id.to_string()
    }
}

impl TryFrom<String> for ErrorId {
    type Error = String;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        ErrorId::parse(&s).ok_or_else(|| format!("not a 16-hex error id: {s}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_and_distinct() {
        let t = Template::literal("boom");
        let a = ErrorId::compute("crate:x", "rust", Kind::Panic, &t, "m::f");
        assert_eq!(
            a,
            ErrorId::compute("crate:x", "rust", Kind::Panic, &t, "m::f")
        );
        assert_ne!(
            a,
            ErrorId::compute("crate:x", "rust", Kind::Panic, &t, "m::g")
        );
        assert_ne!(
            a,
            ErrorId::compute("crate:x", "rust", Kind::Todo, &t, "m::f")
        );
        assert_eq!(ErrorId::parse(&a.to_string()), Some(a));
        assert_eq!(a.to_string().len(), 16);
        assert_eq!(ErrorId::parse("xyz"), None);
    }
}
