//! Backtrace frames of every form a paste holds: std's `N: symbol` with
//! `at path:line[:col]` below (short and full, old and new, Windows
//! paths), frames without locations (a stripped binary, log-panics), the
//! backtrace crate's inlined frames (a symbol line without a number), and
//! color-eyre's frames with source excerpts and `⋮ N frames hidden ⋮`.

use super::location::{self, Location};
use regex::Regex;
use serde::Serialize;
use std::sync::OnceLock;

/// One frame outside std: the function it names and where, when printed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// Where the frame's code is, when the backtrace prints it.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub at: Option<Location>,
    /// The function (`glam::f32::vec3::Vec3::normalize`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
}

impl Frame {
    /// A frame known only by where it is (Python's frames name a function
    /// without its path).
    pub fn at(at: Location) -> Self {
        Frame {
            at: Some(at),
            symbol: None,
        }
    }
}

struct Patterns {
    at: Regex,
    numbered: Regex,
    inlined: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        at: Regex::new(r"^\s+at (.+?:\d+(?::\d+)?)\s*$").expect("valid regex"),
        numbered: Regex::new(r"^\s*\d+:\s+(?:0x[0-9a-fA-F]+ - )?(\S.*?)\s*$").expect("valid regex"),
        inlined: Regex::new(r"^\s{4,}([A-Za-z_<][^\s]*::[^\s]*)\s*$").expect("valid regex"),
    })
}

/// True when a line is a frame's `at path:line` line.
pub fn is_at_line(line: &str) -> bool {
    patterns().at.is_match(line)
}

/// True when a line opens a backtrace or is one of its frames.
pub fn starts(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("stack backtrace:")
        || t.starts_with("Stack backtrace:")
        || t == "trace:"
        || (t.contains("BACKTRACE") && t.contains('━'))
}

/// Reads the frames from line `*i` on (a backtrace's header included),
/// keeping those outside std, innermost first; stops at the first line
/// that belongs to none.
pub fn take_frames(lines: &[&str], i: &mut usize) -> Vec<Frame> {
    let p = patterns();
    let mut frames: Vec<Frame> = Vec::new();
    // The frame being read: its symbol, and whether a location came.
    let mut open: Option<(String, bool)> = None;
    let close = |open: &mut Option<(String, bool)>, frames: &mut Vec<Frame>| {
        if let Some((symbol, false)) = open.take() {
            if !is_std_symbol(&symbol) {
                frames.push(Frame {
                    at: None,
                    symbol: Some(symbol),
                });
            }
        }
    };
    while *i < lines.len() {
        let l = lines[*i];
        let t = l.trim();
        if t.starts_with("note: ")
            || starts(l)
            || t.contains("frames hidden")
            || t.is_empty() && next_is_frame(lines, *i)
        {
            *i += 1;
            continue;
        }
        if let Some(c) = p.at.captures(l) {
            let symbol = open.as_ref().map(|o| o.0.clone()).unwrap_or_default();
            if let Some(loc) = location::parse(&c[1]) {
                if !is_std_frame(&symbol, &loc.path) {
                    frames.push(Frame {
                        at: Some(loc),
                        symbol: (!symbol.is_empty()).then_some(symbol),
                    });
                }
            }
            if let Some(o) = open.as_mut() {
                o.1 = true;
            }
            *i += 1;
            continue;
        }
        if let Some(c) = p.numbered.captures(l) {
            if l.starts_with(' ') || l.starts_with(|c: char| c.is_ascii_digit()) {
                close(&mut open, &mut frames);
                open = Some((c[1].to_string(), false));
                *i += 1;
                continue;
            }
        }
        if open.is_some() {
            if let Some(c) = p.inlined.captures(l) {
                close(&mut open, &mut frames);
                open = Some((c[1].to_string(), false));
                *i += 1;
                continue;
            }
            // A source excerpt under a frame (color-eyre).
            if super::report::is_decoration(l) {
                *i += 1;
                continue;
            }
        }
        break;
    }
    close(&mut open, &mut frames);
    frames
}

/// A blank line inside a backtrace (color-eyre puts them between parts).
fn next_is_frame(lines: &[&str], i: usize) -> bool {
    lines
        .get(i + 1)
        .is_some_and(|l| starts(l) || patterns().numbered.is_match(l) && l.starts_with(' '))
}

/// std's own frames say nothing of where an error came from.
fn is_std_symbol(symbol: &str) -> bool {
    let s = symbol.trim_start_matches('<');
    s.starts_with("std::")
        || s.starts_with("core::")
        || s.starts_with("alloc::")
        || s.starts_with("__rust")
        || s.starts_with("rust_begin_unwind")
        || s.starts_with("__libc")
        || s.starts_with("_start")
        || s.starts_with("backtrace::")
        || s.starts_with("log_panics::")
        || s.starts_with("color_eyre::")
        || s.starts_with("eyre::")
        || s == "main"
        || s.starts_with("BaseThreadInitThunk")
        || s.starts_with("RtlUserThreadStart")
}

fn is_std_frame(symbol: &str, path: &str) -> bool {
    path.starts_with("/rustc/") || path.contains("/lib/rustlib/src/rust/") || is_std_symbol(symbol)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(text: &str) -> Vec<Frame> {
        let lines: Vec<&str> = text.lines().collect();
        take_frames(&lines, &mut 0)
    }

    #[test]
    fn std_frames_and_locations() {
        let f = frames("stack backtrace:\n   0: __rustc::rust_begin_unwind\n             at /rustc/abc/library/std/src/panicking.rs:689:5\n   1: <str as serde_json::value::index::Index>::index_or_insert\n             at /h/.cargo/registry/src/i/serde_json-1.0.140/src/value/index.rs:102:18\n   2: app::main\n             at ./src/main.rs:82:14\n");
        assert_eq!(f.len(), 2);
        assert_eq!(
            f[0].at.as_ref().unwrap().registry.as_ref().unwrap().name,
            "serde_json"
        );
        assert_eq!(f[1].symbol.as_deref(), Some("app::main"));
    }

    #[test]
    fn old_windows_and_unlocated_frames() {
        // Old full backtrace, Windows path, no column.
        let f = frames("   0:     0x7ff6ce97b7d5 - std::backtrace_rs::backtrace::dbghelp::trace\n                                 at /rustc/ff59\\/library\\std\\src\\backtrace.rs:98\n   1:     0x7ff6 - bindgen::Builder::generate\n                                 at C:\\Users\\b\\.cargo\\registry\\src\\github.com-1ecc6299db9ec823\\bindgen-0.55.1\\src/lib.rs:1896\n");
        assert_eq!(f.len(), 1);
        let at = f[0].at.as_ref().unwrap();
        assert_eq!((at.line, at.column), (1896, None));
        // Frames without locations (log-panics): symbols only, std's dropped.
        let f = frames("   0: <backtrace::capture::Backtrace as core::default::Default>::default\n   1: log_panics::Config::install_panic_hook::{{closure}}\n   6: core::panicking::panic_fmt\n   7: ratatui::buffer::buffer::Buffer::index_of::{{closure}}\n  13: scxtop::main\n");
        let symbols: Vec<&str> = f.iter().filter_map(|f| f.symbol.as_deref()).collect();
        assert_eq!(
            symbols,
            vec![
                "ratatui::buffer::buffer::Buffer::index_of::{{closure}}",
                "scxtop::main"
            ]
        );
    }

    #[test]
    fn color_eyre_frames_with_excerpts() {
        let f = frames("  ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ BACKTRACE ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n                                ⋮ 10 frames hidden ⋮\n  11: ratatui::buffer::buffer::Buffer::index_of::{{closure}}::h04e82208d40decd1\n      at /h/.cargo/registry/src/i/ratatui-0.29.0/src/buffer/buffer.rs:253\n       251 │     pub fn index_of(&self, x: u16, y: u16) -> usize {\n       253 >             panic!(\n  12: core::option::Option<T>::unwrap_or_else::hf7946a691124f438\n      at /h/.rustup/toolchains/1.89.0-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/option.rs:1050\n");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].at.as_ref().unwrap().line, 253);
    }
}
