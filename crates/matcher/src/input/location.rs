//! Source locations as pastes print them — `path:line[:column]` in any
//! system's spelling — and the crate version a path names, wherever the
//! crate's folder sits: cargo's registry under any `CARGO_HOME` or index
//! folder (`index.crates.io-…`, `github.com-1ecc6299db9ec823`, a mirror's
//! name), Docker's `/cargo/registry`, a `vendor/` folder, Bazel's
//! `external/crate_index__NAME-VERSION/`, or a path the reporter trimmed
//! (`[snip]/naga-24.0.0/src/…`, `naia-client-socket-0.9.0\src\…`).

use regex::Regex;
use serde::Serialize;
use std::sync::OnceLock;

/// A source location named by the input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The path as printed.
    pub path: String,
    /// Line.
    pub line: u32,
    /// Column, when printed.
    pub column: Option<u32>,
    /// Crate and version, when a folder of the path is a published
    /// crate's (`NAME-VERSION`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub registry: Option<RegistryCrate>,
    /// The file as an installed Python package ships it, when the path
    /// runs through `site-packages` (`requests/models.py`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
}

impl Location {
    /// The path names a published package's file (a crate in a registry
    /// folder, an installed Python package): a library's line.
    pub fn is_library(&self) -> bool {
        self.registry.is_some() || self.package.is_some()
    }

    /// The path is a file of Rust's own library (see [`is_std_path`]): it
    /// says where std's code panicked, not which call of it did.
    pub fn is_std(&self) -> bool {
        is_std_path(&self.path)
    }
}

/// A file of Rust's standard library in any spelling a report prints:
/// the compiler's remapped `/rustc/HASH/library/core/src/…` (and before
/// 1.47 `/rustc/HASH/src/libcore/…`), a toolchain's
/// `lib/rustlib/src/rust/library/…`, better-panic's `rust:library/…`, and
/// the relative or build-bot paths of releases before track_caller
/// (`src/libcore/result.rs`, `libcore/result.rs`,
/// `/checkout/src/libcore/result.rs`).
pub fn is_std_path(path: &str) -> bool {
    let p = path.replace('\\', "/");
    p.starts_with("/rustc/")
        || p.starts_with("rust:")
        || p.contains("/lib/rustlib/src/rust/")
        || p.split('/').any(|part| {
            matches!(
                part,
                "libcore" | "libstd" | "liballoc" | "libcollections" | "libpanic_unwind"
            )
        })
}

/// A crate version named by a path, and the path inside it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RegistryCrate {
    /// Crate name.
    pub name: String,
    /// Version.
    pub version: String,
    /// Path inside the crate, `/`-separated.
    pub path: String,
}

struct Patterns {
    crate_dir: Regex,
    in_file_on_line: Regex,
    debug_location: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        // A crate's folder: NAME-SEMVER, with Bazel's `REPO__` before it.
        crate_dir: Regex::new(
            r"^(?:[A-Za-z0-9_]+__)?([A-Za-z][A-Za-z0-9_-]*?)-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$",
        )
        .expect("valid regex"),
        // `in file X on line N` (a hook's report), also quoted and after
        // the words that begin the sentence (human-panic's `Panic occurred
        // in file '/…/policy.rs' at line 95`).
        // color-backtrace's `in /…/lib.rs, line 31`, alone on its line.
        in_file_on_line: Regex::new(
            r#"(?:\bin file ['"`]?(.+?\.rs)['"`]?,? (?:on|at) line (\d+))|(?:^in (\S.*?\.rs), line (\d+))"#,
        )
        .expect("valid regex"),
        debug_location: Regex::new(
            r#"Location \{\s*file: "((?:[^"\\]|\\.)+)",\s*line: (\d+),\s*col(?:umn)?: (\d+),?\s*\}"#,
        )
        .expect("valid regex"),
    })
}

/// The crate version a path names: the innermost folder spelled
/// `NAME-VERSION` with the file below it.
pub fn registry_crate(path: &str) -> Option<RegistryCrate> {
    let segs: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
    let last = segs.len().checked_sub(1)?;
    (0..last).rev().find_map(|i| {
        let c = patterns().crate_dir.captures(segs[i])?;
        Some(RegistryCrate {
            name: c[1].to_string(),
            version: c[2].to_string(),
            path: segs[i + 1..].join("/"),
        })
    })
}

/// A location spelled `path:line[:column]` (the whole of `s`, trimmed of
/// spaces, quotes and a trailing colon).
pub fn parse(s: &str) -> Option<Location> {
    let s = s
        .trim()
        .trim_matches(|c| matches!(c, '"' | '`' | '\''))
        .trim_end_matches(':');
    let (rest, last) = s.rsplit_once(':')?;
    let last: u32 = last.trim().parse().ok()?;
    let (path, line, column) = match rest.rsplit_once(':') {
        Some((p, l)) if l.trim().parse::<u32>().is_ok() && !p.is_empty() => {
            (p, l.trim().parse().ok()?, Some(last))
        }
        _ => (rest, last, None),
    };
    let path = path.trim();
    if path.is_empty() || path.chars().any(char::is_control) {
        return None;
    }
    Some(at(path, line, column))
}

/// A location from its parts.
pub fn at(path: &str, line: u32, column: Option<u32>) -> Location {
    Location {
        path: path.to_string(),
        line,
        column,
        registry: registry_crate(path),
        package: None,
    }
}

/// The line is a location and nothing else (what a hook prints on a line
/// of its own, or what a user quotes), or a sentence ending in one
/// (human-panic's `Panic occurred in file '…/policy.rs' at line 95`).
/// A label before it is the hook's word for it (rslint's `location:
/// …/parser.rs:124:9`, `panic location: …`).
pub fn alone(line: &str) -> Option<Location> {
    let t = line.trim().trim_end_matches('.');
    if let Some(c) = patterns().in_file_on_line.captures(t) {
        if c.get(0).is_some_and(|m| m.end() == t.len()) {
            let (path, n) = match (c.get(1), c.get(2)) {
                (Some(p), Some(n)) => (p.as_str(), n.as_str()),
                _ => (c.get(3)?.as_str(), c.get(4)?.as_str()),
            };
            return Some(at(path, n.parse().ok()?, None));
        }
    }
    // After a label (`location: …`) or a hook's words (`panic at …`).
    let t = match t.split_once(": ").or_else(|| t.split_once(" at ")) {
        Some((label, rest)) if is_label(label) => rest.trim(),
        _ => t,
    };
    if t.contains(char::is_whitespace) {
        return None;
    }
    let loc = parse(t)?;
    loc.path.ends_with(".rs").then_some(loc)
}

/// A sentence that ends in a library's location: a hook's own format
/// (servo's `MSG (thread NAME, at PATH:LINE)`) or a user's words before it
/// (`Application panicked in zenoh code: …/manager.rs:335:18`). Gives the
/// words before it (less the group the location closes, and a trailing
/// `at`/`in`/`:`) and the location. Only a path into a published crate
/// counts: a project path in prose is too often only mentioned.
pub fn trailing(text: &str) -> Option<(&str, Location)> {
    let t = text.trim_end().trim_end_matches('.');
    let closed = t.ends_with([')', ']']);
    let t = t.trim_end_matches([')', ']']);
    let start = t
        .char_indices()
        .rfind(|(_, c)| c.is_whitespace())
        .map_or(0, |(k, c)| k + c.len_utf8());
    let token = t[start..].trim_start_matches(['(', '[', '\'', '"', '`']);
    let loc = parse(token)?;
    if !loc.path.ends_with(".rs") || loc.registry.is_none() {
        return None;
    }
    let mut words = &t[..start];
    if closed {
        if let Some(k) = words.rfind(['(', '[']) {
            words = &words[..k];
        }
    }
    let mut words = words.trim_end();
    for tail in [" at", " in", ":", ",", " -"] {
        words = words.strip_suffix(tail).unwrap_or(words).trim_end();
    }
    Some((words, loc))
}

/// The location std's `Location` prints with `{:?}` or `{:#?}` (a hook that
/// logs its `PanicInfo`): `Location { file: "…", line: N, col: C }`, over
/// one line or several; with the byte range of `text` it spans.
pub fn debug_printed(text: &str) -> Option<(Location, std::ops::Range<usize>)> {
    let c = patterns().debug_location.captures(text)?;
    let path = c[1].replace("\\\\", "\\");
    let loc = at(&path, c[2].parse().ok()?, c[3].parse().ok());
    Some((loc, c.get(0)?.range()))
}

/// A word or two naming what follows (`location`, `panic location`).
fn is_label(s: &str) -> bool {
    let words: Vec<&str> = s.split(' ').collect();
    words.len() <= 2
        && words
            .iter()
            .all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic() || c == '_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn krate(path: &str) -> Option<(String, String, String)> {
        registry_crate(path).map(|r| (r.name, r.version, r.path))
    }

    fn t(n: &str, v: &str, p: &str) -> Option<(String, String, String)> {
        Some((n.into(), v.into(), p.into()))
    }

    #[test]
    fn a_crate_folder_anywhere_names_crate_version_and_path() {
        for (path, want) in [
            (
                "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/serde_json-1.0.140/src/value/index.rs",
                t("serde_json", "1.0.140", "src/value/index.rs"),
            ),
            (
                r"C:\Users\Michael Schnell\.cargo\registry\src\index.crates.io-6f17d22bba15001f\little_exif-0.6.0-beta.1\src\ifd\mod.rs",
                t("little_exif", "0.6.0-beta.1", "src/ifd/mod.rs"),
            ),
            (
                "/cargo/registry/src/github.com-1ecc6299db9ec823/scoped-tls-0.1.1/src/lib.rs",
                t("scoped-tls", "0.1.1", "src/lib.rs"),
            ),
            (
                r"D:\rust\.cargo\registry\src\mirrors.ustc.edu.cn-61ef6e0cd06fb9b8\wgpu-0.17.2\src\backend\direct.rs",
                t("wgpu", "0.17.2", "src/backend/direct.rs"),
            ),
            (
                "external/crate_index__prost-build-0.11.9/src/lib.rs",
                t("prost-build", "0.11.9", "src/lib.rs"),
            ),
            (
                "/usr/pkgsrc/wip/simp/work/vendor/wgpu-core-0.19.0/src/instance.rs",
                t("wgpu-core", "0.19.0", "src/instance.rs"),
            ),
            (
                "[snip]/naga-24.0.0/src/proc/emitter.rs",
                t("naga", "24.0.0", "src/proc/emitter.rs"),
            ),
            (
                r"naia-client-socket-0.9.0\src\impls\wasm_bindgen\packet_sender.rs",
                t("naia-client-socket", "0.9.0", "src/impls/wasm_bindgen/packet_sender.rs"),
            ),
            (
                "x/rustc_plugin-0.14.1-nightly-2025-08-20/src/cli.rs",
                t("rustc_plugin", "0.14.1-nightly-2025-08-20", "src/cli.rs"),
            ),
            (
                r"C:\r\winfsp-sys-0.2.2+winfsp-2.0\build.rs",
                t("winfsp-sys", "0.2.2+winfsp-2.0", "build.rs"),
            ),
        ] {
            assert_eq!(krate(path), want, "{path}");
        }
        // Toolchains, std and plain project paths name no crate.
        for path in [
            "/home/u/.rustup/toolchains/1.89.0-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/option.rs",
            "/rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs",
            "src/main.rs",
            "serde_json-1.0.140",
        ] {
            assert_eq!(krate(path), None, "{path}");
        }
    }

    #[test]
    fn std_files_in_every_spelling() {
        for path in [
            "src/libcore/result.rs",
            "libcore/result.rs",
            "/checkout/src/libcore/result.rs",
            "/rustc/90b35a6/src/libcore/option.rs",
            "/rustc/59807616e1fa/library/core/src/result.rs",
            r"/rustc/ff59\/library\std\src\backtrace.rs",
            "/home/u/.rustup/toolchains/1.89.0-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/option.rs",
            "rust:library/core/src/option.rs",
            "/home/rustbuild/src/rust-buildbot/slave/stable-dist-rustc-linux/build/src/libcore/result.rs",
        ] {
            assert!(is_std_path(path), "{path}");
        }
        for path in [
            "build.rs",
            "src/lib.rs",
            "/h/.cargo/registry/src/i/core-1.0.0/src/result.rs",
            "src/libcore_ext/a.rs",
        ] {
            assert!(!is_std_path(path), "{path}");
        }
    }

    #[test]
    fn locations_in_every_spelling() {
        let l = parse(r"C:\Users\a b\x-1.0.0\src\lib.rs:12:5").unwrap();
        assert_eq!(
            (l.path.as_str(), l.line, l.column),
            (r"C:\Users\a b\x-1.0.0\src\lib.rs", 12, Some(5))
        );
        assert_eq!(l.registry.unwrap().name, "x");
        let l = parse("/h/tokio-1.11.0/src/runtime/blocking/shutdown.rs:51").unwrap();
        assert_eq!((l.line, l.column), (51, None));
        assert_eq!(parse("src/lib.rs:10:5:").unwrap().column, Some(5));
        assert_eq!(parse("no location"), None);
        assert_eq!(parse(":12"), None);
        let l = alone("in file C:\\r\\hyper-0.14.27\\src\\server\\server.rs on line 79").unwrap();
        assert_eq!((l.line, l.registry.unwrap().name.as_str()), (79, "hyper"));
        assert!(alone("biome_js_parser-0.5.7/src/syntax/typescript/statement.rs:241:14").is_some());
        assert!(alone("see src/lib.rs:3 for more").is_none());
        let l = alone("Panic occurred in file '/Users/s/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/typos-cli-1.38.1/src/policy.rs' at line 95").unwrap();
        let r = l.registry.unwrap();
        assert_eq!(
            (r.name.as_str(), r.path.as_str(), l.line),
            ("typos-cli", "src/policy.rs", 95)
        );
        assert!(alone("Panic occurred in file 'src/main.rs' at line 4 of the run").is_none());
        let l = alone("[snip]/scoped-tls-1.0.0/src/lib.rs:168:9").unwrap();
        assert_eq!(
            (l.registry.unwrap().version.as_str(), l.line),
            ("1.0.0", 168)
        );
        assert!(alone("localhost:8080").is_none());
        // After a hook's label.
        let l = alone("location: /Users/t/.cargo/registry/src/index.crates.io-6f17d22bba15001f/rslint_parser-0.3.1/src/parser.rs:124:9").unwrap();
        assert_eq!(
            (l.registry.unwrap().name.as_str(), l.line),
            ("rslint_parser", 124)
        );
        assert!(alone("panic location: src/lib.rs:3:1").is_some());
        // A hook's words before it; color-backtrace's spelling.
        let l = alone("panic at /h/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/dlopen-rs-0.7.3/src/init.rs:233:6").unwrap();
        assert_eq!(
            (l.registry.unwrap().name.as_str(), l.line),
            ("dlopen-rs", 233)
        );
        let l = alone("in /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/yeslogic-fontconfig-sys-6.0.0/src/lib.rs, line 31").unwrap();
        assert_eq!(
            (l.registry.unwrap().name.as_str(), l.line),
            ("yeslogic-fontconfig-sys", 31)
        );
        assert!(alone("the run failed at src/lib.rs:3:1").is_none());
        // std's `Location` printed with `{:#?}`.
        let text = "    location: Location {\n        file: \"/h/.cargo/registry/src/github.com-1ecc6299db9ec823/librespot-playback-0.4.2/src/audio_backend/rodio.rs\",\n        line: 178,\n        col: 53,\n    },";
        let (l, r) = debug_printed(text).unwrap();
        assert_eq!(
            (l.line, l.column, l.registry.unwrap().name.as_str()),
            (178, Some(53), "librespot-playback")
        );
        assert!(text[r].ends_with('}'));
        let (l, _) =
            debug_printed(r#"Location { file: "src\\main.rs", line: 2, col: 5 }"#).unwrap();
        assert_eq!(l.path, r"src\main.rs");
        assert!(alone("the file at: src/lib.rs:3:1").is_none());
    }

    #[test]
    fn a_sentence_ending_in_a_library_location() {
        let (words, l) = trailing("already mutably borrowed (thread DevtoolsClientHandler, at /h/.local/share/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/atomic_refcell-0.1.14/src/lib.rs:158)").unwrap();
        assert_eq!(words, "already mutably borrowed");
        assert_eq!(
            (l.registry.unwrap().name.as_str(), l.line),
            ("atomic_refcell", 158)
        );
        let (words, l) = trailing("Application panicked in zenoh code: registry/src/index.crates.io-6f17d22bba15001f/zenoh-transport-0.10.1-rc/src/manager.rs:335:18").unwrap();
        assert_eq!(words, "Application panicked in zenoh code");
        assert_eq!((l.line, l.column), (335, Some(18)));
        let (words, _) =
            trailing(r"failed at C:\cargo\registry\src\x\foo-1.2.3\src\lib.rs:7:1.").unwrap();
        assert_eq!(words, "failed");
        // A project's path in prose, a non-Rust file, no location at all.
        assert!(trailing("the run failed at src/lib.rs:3:1").is_none());
        assert!(trailing("see /h/foo-1.2.3/README.md:3").is_none());
        assert!(trailing("connection refused").is_none());
        // A space of more than one byte (U+0085) before the last word.
        assert!(trailing("called `Result::unwrap()` on an `Err` value: &w\u{85}4$:").is_none());
        let (words, loc) =
            trailing("failed\u{85}/h/.cargo/registry/src/i/zenoh-0.10.1/src/a.rs:3:1").unwrap();
        assert_eq!((words, loc.line), ("failed", 3));
    }
}
