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
    file_in: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        at: Regex::new(r"^\s+at (.+?:\d+(?::\d+)?)\s*$").expect("valid regex"),
        numbered: Regex::new(r"^\s*\d+:\s+(?:0x[0-9a-fA-F]+ - )?(\S.*?)\s*$").expect("valid regex"),
        inlined: Regex::new(r"^\s{4,}([A-Za-z_<][^\s]*::[^\s]*)\s*$").expect("valid regex"),
        file_in: Regex::new(r#"^\s*File "(.+?:\d+(?::\d+)?)", in (\S.*)$"#).expect("valid regex"),
    })
}

/// True when a line is a frame's `at path:line` line.
pub fn is_at_line(line: &str) -> bool {
    patterns().at.is_match(line)
}

/// True when line `i` is the first frame of a backtrace pasted without
/// its header (the panic line left out, or put elsewhere): a numbered
/// frame naming a path (`0: std::panicking::begin_panic_handler`) with
/// its `at` line, or another such frame, below it.
pub fn starts_headerless(lines: &[&str], i: usize) -> bool {
    let p = patterns();
    let frame = |l: &str| p.numbered.captures(l).is_some_and(|c| c[1].contains("::"));
    frame(lines[i]) && lines.get(i + 1).is_some_and(|l| is_at_line(l) || frame(l))
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
    // Whether std's panic entry was passed (see [`is_panic_entry`]).
    let mut past_panic = false;
    let kept = |symbol: &str, past_panic: bool| past_panic || !is_hook_symbol(symbol);
    let close = |open: &mut Option<(String, bool)>, frames: &mut Vec<Frame>, past: &mut bool| {
        if let Some((symbol, false)) = open.take() {
            if is_panic_entry(&symbol) {
                // Inside it: the panic hook's own frames.
                frames.clear();
                *past = true;
            } else if !is_std_symbol(&symbol) && kept(&symbol, *past) {
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
            if is_panic_entry(&symbol) {
                frames.clear();
                past_panic = true;
            }
            if let Some(loc) = location::parse(&c[1]) {
                if !is_std_frame(&symbol, &loc.path) && kept(&symbol, past_panic) {
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
                close(&mut open, &mut frames, &mut past_panic);
                open = Some((c[1].to_string(), false));
                *i += 1;
                continue;
            }
        }
        if open.is_some() {
            if let Some(c) = p.inlined.captures(l) {
                close(&mut open, &mut frames, &mut past_panic);
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
    close(&mut open, &mut frames, &mut past_panic);
    frames
}

/// A blank line inside a backtrace (color-eyre puts them between parts).
fn next_is_frame(lines: &[&str], i: usize) -> bool {
    lines
        .get(i + 1)
        .is_some_and(|l| starts(l) || patterns().numbered.is_match(l) && l.starts_with(' '))
}

/// std's frames through which a panic starts: every frame inside them
/// (innermost first, so listed before them) is the panic machinery's —
/// the hook (color-eyre's, log-panics'), the backtrace's capture — and
/// the first frame outside std after them is the code that panicked.
fn is_panic_entry(symbol: &str) -> bool {
    let s = symbol.trim_start_matches('<');
    ["std::", "core::", "__rustc::", "rust_begin_unwind"]
        .iter()
        .any(|p| s.starts_with(p))
        && [
            "panicking::begin_panic",
            "panicking::panic",
            "panicking::rust_panic",
            "panicking::assert_failed",
            "rust_begin_unwind",
        ]
        .iter()
        .any(|p| s.contains(p))
}

/// std's own frames say nothing of where an error came from; nor do a
/// panic hook's, of where it came from (see [`is_panic_entry`]).
fn is_std_symbol(symbol: &str) -> bool {
    let s = symbol.trim_start_matches('<');
    s.starts_with("std::")
        || s.starts_with("core::")
        || s.starts_with("alloc::")
        || s.starts_with("__rust")
        || s.starts_with("rust_begin_unwind")
        || s.starts_with("__libc")
        || s.starts_with("_start")
        || s == "main"
        || s.starts_with("BaseThreadInitThunk")
        || s.starts_with("RtlUserThreadStart")
}

/// A panic hook's or error report's machinery (the backtrace's capture,
/// log-panics', color-eyre's): skipped up to the panic's entry, kept
/// after it, where it is the code that panicked.
fn is_hook_symbol(symbol: &str) -> bool {
    let s = symbol.trim_start_matches('<');
    ["backtrace::", "log_panics::", "color_eyre::", "eyre::"]
        .iter()
        .any(|p| s.starts_with(p))
}

fn is_std_frame(symbol: &str, path: &str) -> bool {
    super::location::is_std_path(path) || is_std_symbol(symbol)
}

/// better-panic's backtrace, printed the way Python prints one: the
/// header `Backtrace (most recent call last):`, then per frame `File
/// "PATH:LINE", in SYMBOL` with the source line below it, outermost
/// first. Reads it from line `*i` (the header) and returns its frames
/// outside std, innermost first; `None` when line `*i` is not its header.
pub fn take_outermost_first(lines: &[&str], i: &mut usize) -> Option<Vec<Frame>> {
    if lines.get(*i)?.trim() != "Backtrace (most recent call last):" {
        return None;
    }
    let file = patterns();
    let mut frames = Vec::new();
    let mut k = *i + 1;
    while let Some(l) = lines.get(k) {
        if let Some(c) = file.file_in.captures(l) {
            let symbol = c[2].trim().to_string();
            if let Some(loc) = location::parse(&c[1]) {
                if !is_std_frame(&symbol, &loc.path) {
                    frames.push(Frame {
                        at: Some(loc),
                        symbol: Some(symbol),
                    });
                }
            }
            k += 1;
            // The frame's source line.
            if lines.get(k).is_some_and(|n| {
                !n.trim().is_empty()
                    && !file.file_in.is_match(n)
                    && n.len() - n.trim_start().len() > l.len() - l.trim_start().len()
            }) {
                k += 1;
            }
            continue;
        }
        break;
    }
    *i = k;
    frames.reverse();
    Some(frames)
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
    fn better_panics_frames_outermost_first() {
        let text = "Backtrace (most recent call last):\n  File \"~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/sdl2-0.36.0/src/sdl2/audio.rs:202\", in sdl2::audio::AudioSubsystem::open\n    Ok(AudioSpec::convert_from_ll(spec))\n  File \"~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/sdl2-0.36.0/src/sdl2/audio.rs:721\", in sdl2::audio::AudioSpec::convert_from_ll\n    format: AudioFormat::from_ll(spec.format).unwrap(),\n  File \"rust:library/core/src/option.rs:935\", in core::option::Option<T>::unwrap\nafter";
        let lines: Vec<&str> = text.lines().collect();
        let mut i = 0;
        let f = take_outermost_first(&lines, &mut i).unwrap();
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].at.as_ref().unwrap().line, 721);
        assert_eq!(f[1].at.as_ref().unwrap().line, 202);
        assert_eq!(lines[i], "after");
        assert!(take_outermost_first(&["Traceback (most recent call last):"], &mut 0).is_none());
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
    fn frames_past_the_panic_entry_are_kept_whatever_their_crate() {
        // color-eyre's own `expect` panicked (not its hook): the frames
        // after std's panicking ones are the code that panicked.
        let text = "0: std::panicking::begin_panic_handler\n             at /rustc/59ee\\/library\\std\\src\\panicking.rs:517\n   1: core::panicking::panic_fmt\n             at /rustc/59ee\\/library\\core\\src\\panicking.rs:101\n   2: color_eyre::config::HookBuilder::into_hooks\n             at C:\\Users\\A\\.cargo\\registry\\src\\github.com-1ecc6299db9ec823\\color-eyre-0.5.11\\src\\config.rs:736\n   3: app::main\n";
        let lines: Vec<&str> = text.lines().collect();
        assert!(starts_headerless(&lines, 0));
        let f = take_frames(&lines, &mut 0);
        let at = f[0].at.as_ref().unwrap();
        assert_eq!(
            (at.registry.as_ref().unwrap().name.as_str(), at.line),
            ("color-eyre", 736)
        );
        // The hook's frames inside the panic entry are dropped.
        let f = frames("   0: log_panics::Config::install_panic_hook::{{closure}}\n   1: std::panicking::rust_panic_with_hook\n   2: std::panicking::begin_panic_handler::{{closure}}\n   3: ratatui::buffer::Buffer::index_of\n");
        let symbols: Vec<&str> = f.iter().filter_map(|f| f.symbol.as_deref()).collect();
        assert_eq!(symbols, vec!["ratatui::buffer::Buffer::index_of"]);
        // `std::panicking::try` is the thread's outer frame, not the entry.
        let f = frames("   0: core::panicking::panic_fmt\n   1: app::run\n   2: std::panicking::try::do_call\n   3: app::main\n");
        assert_eq!(f.len(), 2);
        // A numbered list is not a backtrace.
        assert!(!starts_headerless(&["1: install it", "2: run it"], 0));
    }

    #[test]
    fn color_eyre_frames_with_excerpts() {
        let f = frames("  ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ BACKTRACE ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\n                                ⋮ 10 frames hidden ⋮\n  11: ratatui::buffer::buffer::Buffer::index_of::{{closure}}::h04e82208d40decd1\n      at /h/.cargo/registry/src/i/ratatui-0.29.0/src/buffer/buffer.rs:253\n       251 │     pub fn index_of(&self, x: u16, y: u16) -> usize {\n       253 >             panic!(\n  12: core::option::Option<T>::unwrap_or_else::hf7946a691124f438\n      at /h/.rustup/toolchains/1.89.0-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/option.rs:1050\n");
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].at.as_ref().unwrap().line, 253);
    }
}
