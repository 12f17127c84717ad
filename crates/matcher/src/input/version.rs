//! Crate versions a paste names in its text rather than in a path: a
//! tool's banner (`Starting trunk 0.21.14`, `cargo make 0.37.23`), cargo's
//! `failed to run custom build command for `clang-sys v0.28.1``, a build
//! script's `openssl-sys = 0.9.5`, `name@1.2.3`. Which of them are crates
//! is for the index to say.

use regex::Regex;
use std::sync::OnceLock;

/// A crate name and version the text names (not all are crates).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Mention {
    /// The name as printed (`-` and `_` as printed).
    pub name: String,
    /// The version.
    pub version: String,
}

fn pattern() -> &'static Regex {
    static P: OnceLock<Regex> = OnceLock::new();
    P.get_or_init(|| {
        Regex::new(
            r"(?:\b(?P<before>[A-Za-z][\w-]*) )?\b(?P<name>[A-Za-z][\w-]*)(?: ?= ?| v| |@|-)(?P<version>\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?)\b",
        )
        .expect("valid regex")
    })
}

/// Every `NAME VERSION` the text holds; a two-word name is also tried
/// joined by `-` (`cargo make` is the crate `cargo-make`).
pub fn mentions(text: &str) -> Vec<Mention> {
    let mut out = Vec::new();
    for c in pattern().captures_iter(text) {
        let version = c["version"].to_string();
        let name = &c["name"];
        if let Some(before) = c.name("before") {
            out.push(Mention {
                name: format!("{}-{name}", before.as_str()),
                version: version.clone(),
            });
        }
        out.push(Mention {
            name: name.to_string(),
            version,
        });
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn has(text: &str, name: &str, version: &str) -> bool {
        mentions(text)
            .iter()
            .any(|m| m.name == name && m.version == version)
    }

    #[test]
    fn banners_build_failures_and_paths() {
        assert!(has("INFO 🚀 Starting trunk 0.21.14", "trunk", "0.21.14"));
        assert!(has(
            "[cargo-make] INFO - cargo make 0.37.23",
            "cargo-make",
            "0.37.23"
        ));
        assert!(has(
            "error: failed to run custom build command for `clang-sys v0.28.1`",
            "clang-sys",
            "0.28.1"
        ));
        assert!(has("    openssl-sys = 0.9.5", "openssl-sys", "0.9.5"));
        assert!(has("/r/naga-24.0.0/src/a.rs", "naga", "24.0.0"));
        assert!(has(
            "little_exif@0.6.0-beta.1",
            "little_exif",
            "0.6.0-beta.1"
        ));
        assert!(mentions("no versions here, 1.2 or 3").is_empty());
    }
}
