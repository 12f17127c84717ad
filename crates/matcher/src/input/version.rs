//! Crate versions a paste names in its text rather than in a path: a
//! tool's banner (`Starting trunk 0.21.14`, `cargo make 0.37.23`), cargo's
//! `failed to run custom build command for `clang-sys v0.28.1``, a build
//! script's `openssl-sys = 0.9.5`, `name@1.2.3` — and Python packages'
//! versions as an install prints them: a pin (`Django==1.8`), an
//! installed folder (`Jinja2-2.8-py3.5.egg`, `discord.py-1.5.1.dist-info`).
//! Which of them are indexed packages is for the index to say.

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

/// A Python package's version as installs and reports print it: a pin,
/// an installed folder's name, a `NAME Version: X` line (Django's debug
/// page); Python versions may have two parts.
fn python_pattern() -> &'static Regex {
    static P: OnceLock<Regex> = OnceLock::new();
    P.get_or_init(|| {
        const VERSION: &str = r"\d+(?:\.\d+)+(?:(?:a|b|rc|\.post|\.dev)\d+)?";
        Regex::new(&format!(
            r"\b(?P<pin>[A-Za-z][\w.-]*)(?:==| [Vv]ersion:\s+)(?P<pinned>{VERSION})\b|\b(?P<name>[A-Za-z][\w.]*)-(?P<version>{VERSION})(?:-py\d+(?:\.\d+)?)?\.(?:egg|dist-info|egg-info)\b"
        ))
        .expect("valid regex")
    })
}

/// The packages whose build script cargo says failed (`failed to run
/// custom build command for `alsa-sys v0.1.2``): what a build script
/// printed under that header, it printed running that package's script.
pub fn build_scripts(text: &str) -> Vec<Mention> {
    static P: OnceLock<Regex> = OnceLock::new();
    let p = P.get_or_init(|| {
        Regex::new(r"failed to run custom build command for `(?P<name>[A-Za-z][\w-]*) v(?P<version>\d+\.\d+\.\d+[^\s`]*)(?:`| \()")
            .expect("valid regex")
    });
    let mut out: Vec<Mention> = p
        .captures_iter(text)
        .map(|c| Mention {
            name: c["name"].to_string(),
            version: c["version"].to_string(),
        })
        .collect();
    out.sort();
    out.dedup();
    out
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
    for c in python_pattern().captures_iter(text) {
        let named = c.name("pin").zip(c.name("pinned"));
        let Some((name, version)) = named.or_else(|| c.name("name").zip(c.name("version"))) else {
            continue;
        };
        out.push(Mention {
            name: name.as_str().to_string(),
            version: version.as_str().to_string(),
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
    fn failed_build_scripts() {
        let text = "error: failed to run custom build command for `alsa-sys v0.1.2`\n\
                    Caused by: failed to run custom build command for `alsa-sys v0.1.2`\n\
                    failed to run custom build command for `magick_rust v0.4.0 (file:///root/p)`";
        let found: Vec<(String, String)> = build_scripts(text)
            .into_iter()
            .map(|m| (m.name, m.version))
            .collect();
        assert_eq!(
            found,
            [
                ("alsa-sys".into(), "0.1.2".into()),
                ("magick_rust".into(), "0.4.0".into())
            ]
        );
        assert!(build_scripts("failed to run custom build command for `x`").is_empty());
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
        // Python: a pin, installed folders.
        assert!(has("pip install Django==1.8", "Django", "1.8"));
        assert!(has(
            "site-packages/Jinja2-2.8-py3.5.egg/jinja2/loaders.py",
            "Jinja2",
            "2.8"
        ));
        assert!(has(
            "site-packages/discord.py-1.5.1.dist-info",
            "discord.py",
            "1.5.1"
        ));
        assert!(has("numpy==2.0.0rc1", "numpy", "2.0.0rc1"));
        assert!(has("Django Version:\t1.8", "Django", "1.8"));
    }
}
