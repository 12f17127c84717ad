//! Panic reports of every Rust release and hook:
//! - Rust ≥ 1.73: `thread 'x' (id) panicked at PATH:L:C:` and the message
//!   on the lines below (or on the same line, where a hook joined them);
//!   hooks that drop the thread (`panicked at PATH:L:C:`);
//! - Rust < 1.73: `thread 'x' panicked at 'MSG', PATH:L:C`, the message
//!   over one line or many, the location after `', `, `': ` (log-panics) or
//!   a space, with or without a column, or cut off; `Thread` (substrate's
//!   handler), wasm's console hook (no thread);
//! - color-eyre's `The application panicked (crashed).` / `Message:` /
//!   `Location:`;
//! - a hook logging `PanicInfo { … message: Some(MSG), location: Location
//!   { file: "…", line: N, col: N } }`;
//! - rustc's report of a procedural macro that panicked while compiling
//!   (`error: proc-macro derive panicked`, `error: proc macro panicked`,
//!   `error: custom attribute panicked`, then the snippet of the user's
//!   code that invoked it and `= help: message: MSG`): the message is the
//!   macro crate's panic, placed nowhere (the snippet is the caller's).
//!
//! The header may stand anywhere in a line (after a log prefix, or after
//! a terminal's garbage); the message's lines lose the header's
//! indentation (cargo relays a build script's stderr indented), and runs
//! of a terminal UI's filler characters.

use super::backtrace::{self, Frame};
use super::location::{self, Location};
use super::report::{dedent, leading_spaces};
use regex::Regex;
use std::sync::OnceLock;

/// Lines an old-style message is read over, at most, looking for its end.
const MAX_OLD_LINES: usize = 200;

/// A panic found in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panic {
    /// The message (several lines for multi-line messages).
    pub text: String,
    /// Where the report says it was raised.
    pub location: Option<Location>,
    /// Frames of the backtrace that follows, innermost first.
    pub frames: Vec<Frame>,
}

struct Patterns {
    header: Regex,
    old_end: Regex,
    new_loc: Regex,
    panic_info: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        header: Regex::new(
            r"(?:[Tt]hread '[^']*'(?: \(\d+\))? |\b)panicked at (?P<rest>\S.*)$",
        )
        .expect("valid regex"),
        // The location may run into a backtrace's first frame (log-panics
        // logs `'MSG': PATH:LINE` and the backtrace on one line).
        old_end: Regex::new(
            r"^(?P<msg>.*)'\s*[,:]?\s*(?P<loc>[^\s',:].*?:\d+(?::\d+)?)(?:\s+\d+:\s.*)?\s*$",
        )
            .expect("valid regex"),
        new_loc: Regex::new(r"^(?P<loc>.+?:\d+:\d+):(?P<msg>.*)$").expect("valid regex"),
        panic_info: Regex::new(
            r#"Panic(?:Hook)?Info \{ payload: .*?(?:, message: Some\((?P<msg>.*)\))?, location: Location \{ file: "(?P<file>(?:[^"\\]|\\.)*)", line: (?P<line>\d+), col(?:umn)?: (?P<col>\d+)"#,
        )
        .expect("valid regex"),
    })
}

/// True when the line holds a panic's header.
pub fn is_header(line: &str) -> bool {
    patterns().header.is_match(line)
        || line.trim() == "The application panicked (crashed)."
        || line.contains("Info { payload: ")
        || is_macro_header(line)
}

/// rustc's first line for a procedural macro that panicked.
fn is_macro_header(line: &str) -> bool {
    matches!(
        line.trim(),
        "error: proc-macro derive panicked"
            | "error: proc macro panicked"
            | "error: custom attribute panicked"
    )
}

/// Lines read past a macro panic's header for its `= help: message:`.
const MAX_MACRO_LINES: usize = 40;

/// A procedural macro's panic as rustc reports it (header at line `*i`):
/// the text after `= help: message: `, with the lines that continue it
/// (indented past the `=`); `None` when no such line follows before the
/// next diagnostic.
fn macro_panic(lines: &[&str], i: &mut usize) -> Option<Panic> {
    let mut j = *i + 1;
    while j < lines.len() && j <= *i + MAX_MACRO_LINES {
        let line = lines[j];
        let t = line.trim_start();
        if t.starts_with("error") || t.starts_with("warning") {
            return None;
        }
        if let Some(first) = t.strip_prefix("= help: message: ") {
            let indent = leading_spaces(line);
            let mut text = vec![first.to_string()];
            j += 1;
            while let Some(next) = lines.get(j) {
                let n = next.trim_start();
                if leading_spaces(next) <= indent || n.is_empty() || n.starts_with('=') {
                    break;
                }
                text.push(n.to_string());
                j += 1;
            }
            *i = j;
            return Some(Panic {
                text: tidy(&text.join("\n")),
                location: None,
                frames: Vec::new(),
            });
        }
        j += 1;
    }
    None
}

/// The panic whose header is line `*i`, reading past its message and
/// backtrace.
pub fn recognise(lines: &[&str], i: &mut usize) -> Option<Panic> {
    let line = lines[*i];
    if line.trim() == "The application panicked (crashed)." {
        return Some(color_eyre(lines, i));
    }
    if is_macro_header(line) {
        return macro_panic(lines, i);
    }
    let p = patterns();
    if let Some(c) = p.panic_info.captures(line) {
        *i += 1;
        let file = c["file"].replace("\\\\", "\\").replace("\\\"", "\"");
        let location = location::parse(&format!("{file}:{}:{}", &c["line"], &c["col"]));
        let frames = after(lines, i);
        return Some(Panic {
            text: c.name("msg").map_or("", |m| m.as_str()).to_string(),
            location,
            frames,
        });
    }
    let c = p.header.captures(line)?;
    let rest = c.name("rest").expect("group").as_str();
    let indent = leading_spaces(line);
    *i += 1;
    let panic = match rest.strip_prefix('\'') {
        Some(body) => old_form(lines, i, body, indent),
        None => new_form(lines, i, rest, indent)?,
    };
    let frames = after(lines, i);
    Some(Panic { frames, ..panic })
}

/// The operand lines std prints under a failed `assert_eq!`/`assert_ne!`
/// (`  left: 1`, ` right: 2`) after line `*i - 1`, when that line is the
/// assertion's first: they are its message's, not messages of their own.
/// Advances `i` past them.
pub fn assert_operands(first: &str, lines: &[&str], i: &mut usize) -> Option<String> {
    if !first.starts_with("assertion ") || !first.contains("left") {
        return None;
    }
    let mut out = String::new();
    for side in ["left:", "right:"] {
        let line = lines.get(*i)?;
        if !line.trim_start().starts_with(side) {
            break;
        }
        out.push('\n');
        out.push_str(line.trim_end());
        *i += 1;
    }
    (!out.is_empty()).then_some(out)
}

/// `panicked at 'MSG', LOC`: the message runs to the line that closes the
/// quote before a location; without one (a cut paste), to the report's
/// end.
fn old_form(lines: &[&str], i: &mut usize, body: &str, indent: usize) -> Panic {
    let p = patterns();
    // The message's lines: the header's rest, then the lines up to the
    // report's next part.
    let mut msg: Vec<String> = vec![body.to_string()];
    let start = *i;
    while let Some(next) = lines.get(start + msg.len() - 1) {
        let t = next.trim_start();
        if msg.len() > MAX_OLD_LINES
            || t.starts_with("note: ")
            || backtrace::starts(next)
            || is_header(next)
        {
            break;
        }
        msg.push(dedent(next, indent).to_string());
    }
    for (k, line) in msg.iter().enumerate() {
        let Some(c) = p.old_end.captures(line) else {
            continue;
        };
        if let Some(loc) = location::parse(&c["loc"]) {
            *i = start + k;
            let mut text = msg[..k].to_vec();
            text.push(c["msg"].to_string());
            return Panic {
                text: tidy(&text.join("\n")),
                location: Some(loc),
                frames: Vec::new(),
            };
        }
    }
    // No location (a cut paste): the first line closing the quote ends
    // the message, else what there is.
    let closing = msg.iter().position(|l| {
        let t = l.trim_end();
        t.ends_with('\'') || t.ends_with("',") || t.ends_with("':")
    });
    let end = closing.unwrap_or(msg.len() - 1);
    *i = start + end;
    let mut text = msg[..=end].join("\n");
    let trimmed = text.trim_end();
    let cut = trimmed
        .strip_suffix("',")
        .or_else(|| trimmed.strip_suffix("':"))
        .or_else(|| trimmed.strip_suffix('\''))
        .unwrap_or(trimmed)
        .len();
    text.truncate(cut);
    Panic {
        text: tidy(&text),
        location: None,
        frames: Vec::new(),
    }
}

/// `panicked at LOC:` and the message below (or after the colon).
fn new_form(lines: &[&str], i: &mut usize, rest: &str, indent: usize) -> Option<Panic> {
    let p = patterns();
    let joined;
    let c = match p.new_loc.captures(rest) {
        Some(c) => c,
        None => {
            // A location hard-wrapped by the terminal: the next line ends it.
            let next = lines.get(*i)?;
            joined = format!("{rest}{}", next.trim());
            let c = p.new_loc.captures(&joined)?;
            *i += 1;
            c
        }
    };
    let location = location::parse(&c["loc"])?;
    let mut body: Vec<String> = Vec::new();
    let first = c["msg"].trim();
    if !first.is_empty() {
        body.push(first.to_string());
    }
    while let Some(l) = lines.get(*i) {
        let t = l.trim_start();
        // console_error_panic_hook (a panic in the browser) prints the
        // JavaScript stack under `Stack:`.
        if t.starts_with("note: ")
            || backtrace::starts(l)
            || is_header(l)
            || t.trim_end() == "Stack:"
        {
            break;
        }
        body.push(dedent(l, indent).to_string());
        *i += 1;
    }
    Some(Panic {
        text: tidy(&body.join("\n")),
        location: Some(location),
        frames: Vec::new(),
    })
}

/// color-eyre's report: `Message:` (one line or more) and `Location:`.
fn color_eyre(lines: &[&str], i: &mut usize) -> Panic {
    *i += 1;
    let mut text: Vec<&str> = Vec::new();
    let mut location = None;
    while let Some(l) = lines.get(*i) {
        let t = l.trim();
        if let Some(m) = t.strip_prefix("Message:") {
            text.push(m.trim());
        } else if let Some(loc) = t.strip_prefix("Location:") {
            location = location::parse(loc);
            *i += 1;
            break;
        } else if !text.is_empty() && !t.is_empty() {
            text.push(l);
        } else if !t.is_empty() {
            break;
        }
        *i += 1;
    }
    let frames = after(lines, i);
    Panic {
        text: tidy(&text.join("\n")),
        location,
        frames,
    }
}

/// The backtrace after a report, past blank lines and notes.
fn after(lines: &[&str], i: &mut usize) -> Vec<Frame> {
    let mut j = *i;
    while lines
        .get(j)
        .is_some_and(|l| l.trim().is_empty() || l.trim_start().starts_with("note: "))
    {
        j += 1;
    }
    if lines.get(j).is_some_and(|l| backtrace::starts(l)) {
        *i = j;
        return backtrace::take_frames(lines, i);
    }
    backtrace::take_frames(lines, i)
}

/// The message without a terminal's filler, the notes and backtrace
/// header a hook joined onto its line, and blank lines at its ends.
fn tidy(text: &str) -> String {
    let mut text = text.to_string();
    for end in [" stack backtrace:", "note: run with `RUST_BACKTRACE"] {
        if let Some(at) = text.find(end) {
            text.truncate(at);
        }
    }
    if let Some(cleared) = without_filler(&text) {
        text = cleared
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join("\n");
    }
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| !l.trim().is_empty());
    let end = lines.iter().rposition(|l| !l.trim().is_empty());
    match (start, end) {
        (Some(s), Some(e)) => lines[s..=e].join("\n").trim_end().to_string(),
        _ => String::new(),
    }
}

/// The text with runs of five or more of one punctuation character (a
/// terminal UI drawn over the report) blanked, when it has any.
fn without_filler(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut found = false;
    let mut k = 0;
    while k < chars.len() {
        let c = chars[k];
        let run = chars[k..].iter().take_while(|&&d| d == c).count();
        if run >= 5 && !c.is_alphanumeric() && !c.is_whitespace() {
            out.push(' ');
            found = true;
        } else {
            out.extend(&chars[k..k + run]);
        }
        k += run;
    }
    found.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Panic {
        let lines: Vec<&str> = text.lines().collect();
        let start = lines.iter().position(|l| is_header(l)).expect("a header");
        recognise(&lines, &mut { start }).expect("a panic")
    }

    #[test]
    fn a_procedural_macros_panic_is_its_help_message() {
        // rust-embed-impl's derive (citybound#…, heldout 11), an
        // attribute's assertion, a message over two lines.
        let p = one("error: proc-macro derive panicked\n --> cb_server/browser_ui_server.rs:4:10\n  |\n4 | #[derive(RustEmbed)]\n  |          ^^^^^^^^^\n  |\n  = help: message: #[derive(RustEmbed)] folder 'cb_browser_ui/dist/' does not exist. cwd: '/Users/user/citybound'\n\nerror: aborting due to previous error");
        assert_eq!(
            p.text,
            "#[derive(RustEmbed)] folder 'cb_browser_ui/dist/' does not exist. cwd: '/Users/user/citybound'"
        );
        assert_eq!(p.location, None);
        let p = one("error: custom attribute panicked\n   --> src/lib.rs:292:1\n    |\n292 | #[no_panic(asdf)]\n    | ^^^^^^^^^^^^^^^^^\n    |\n    = help: message: assertion failed: args.is_empty()");
        assert_eq!(p.text, "assertion failed: args.is_empty()");
        let p = one("error: proc macro panicked\n  --> src/main.rs:9:5\n   |\n   = help: message: first line\n             second line\n\nerror: could not compile `x`");
        assert_eq!(p.text, "first line\nsecond line");
        // No help message before the next diagnostic: not a panic report.
        let lines = [
            "error: proc macro panicked",
            "  --> src/main.rs:9:5",
            "error: could not compile `x`",
        ];
        assert_eq!(recognise(&lines, &mut 0), None);
    }

    fn at(p: &Panic) -> (String, u32, Option<String>) {
        let l = p.location.as_ref().expect("a location");
        (
            l.path.clone(),
            l.line,
            l.registry
                .as_ref()
                .map(|r| format!("{}@{}", r.name, r.version)),
        )
    }

    #[test]
    fn new_form_with_and_without_thread() {
        let p = one("thread 'main' (6499) panicked at src/main.rs:10:68:\nassertion `left == right` failed\n  left: 1\n right: 2\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n");
        assert_eq!(
            p.text,
            "assertion `left == right` failed\n  left: 1\n right: 2"
        );
        let p = one("panicked at C:\\Users\\r\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\wgpu-core-0.19.0\\src\\instance.rs:521:39:\ncalled `Option::unwrap()` on a `None` value");
        assert_eq!(at(&p).2.as_deref(), Some("wgpu-core@0.19.0"));
        // Header, message and backtrace header joined on one line.
        let p = one("thread 'tokio-runtime-worker' panicked at C:\\U\\wry-0.43.1\\src\\webview2\\mod.rs:1001:5:PostMessage failed ; is the messages queue full? stack backtrace:");
        assert_eq!(p.text, "PostMessage failed ; is the messages queue full?");
        assert_eq!(at(&p).1, 1001);
        // In the browser (console_error_panic_hook): the JavaScript stack
        // under `Stack:` is no part of the message.
        let p = one("panicked at /Users/s/Development/wasmer/lib/api/src/js/module.rs:74:77:\ncalled `Option::unwrap()` on a `None` value\n\nStack:\n\ny_/e.wbg.__wbg_new_abda@https://r2.in/index.mjs:11:40940\n@https://r2.in/wasmer_js_bg.wasm:wasm-function[1120]:0x2b4935\n");
        assert_eq!(p.text, "called `Option::unwrap()` on a `None` value");
    }

    #[test]
    fn old_form_on_one_line_or_many() {
        let p = one("thread 'main' panicked at 'explicit panic', src/main.rs:2:5\n");
        assert_eq!((p.text.as_str(), at(&p).1), ("explicit panic", 2));
        let p = one("thread 'main' panicked at 'assertion failed: `(left == right)`\n  left: `826165`,\n right: `743000`', cargo/registry/src/github.com-1ecc6299db9ec823/rustface-0.1.6/src/common/image_pyramid.rs:32:9");
        assert_eq!(
            p.text,
            "assertion failed: `(left == right)`\n  left: `826165`,\n right: `743000`"
        );
        assert_eq!(at(&p).2.as_deref(), Some("rustface@0.1.6"));
        // log-panics in a tracing line: `'MSG': PATH:LINE`, then the
        // backtrace's first frame on the same line.
        let p = one("2026-01-28T19:23:51Z ERROR app::panic_log: panic thread 'main' panicked at 'called `Option::unwrap()` on a `None` value': /h/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/egui-0.33.3/src/hit_test.rs:364   0: std::backtrace_rs::backtrace::win64::trace\n             at /rustc/8d67/library/std/src/backtrace.rs:85:14\n");
        assert_eq!(p.text, "called `Option::unwrap()` on a `None` value");
        assert_eq!((at(&p).1, at(&p).2.as_deref()), (364, Some("egui@0.33.3")));
        // Relayed by cargo, indented; the location on the last line.
        let p = one("  thread 'main' panicked at '\n  failed to execute command: No such file or directory (os error 2)\n  is `cmake` not installed?\n\n  build script failed, must exit now', /U/.cargo/registry/src/github.com-1ecc6299db9ec823/cmake-0.1.45/src/lib.rs:894:5\n  note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace");
        assert_eq!(p.text, "failed to execute command: No such file or directory (os error 2)\nis `cmake` not installed?\n\nbuild script failed, must exit now");
        assert_eq!(at(&p).1, 894);
    }

    #[test]
    fn old_form_separators_and_cuts() {
        // log-panics: `': ` and no column.
        let p = one("15:44:07 [ERROR] thread 'main' panicked at 'index outside of buffer': /h/ratatui-0.29.0/src/buffer/buffer.rs:253");
        assert_eq!(
            (p.text.as_str(), at(&p).1),
            ("index outside of buffer", 253)
        );
        // No comma (as pasted), substrate's capital `Thread`.
        let p = one("thread 'sentry-transport' panicked at 'called `Result::unwrap()` on an `Err` value: E' .cargo/registry/src/github.com-1ecc6299db9ec823/sentry-0.22.0/src/transport.rs:204:37");
        assert_eq!(at(&p).2.as_deref(), Some("sentry@0.22.0"));
        let p = one("Thread 'main' panicked at 'Cannot drop a runtime', /h/tokio-1.11.0/src/runtime/blocking/shutdown.rs:51\n\nThis is a bug.");
        assert_eq!((p.text.as_str(), at(&p).1), ("Cannot drop a runtime", 51));
        // wasm's hook: no thread; a space before the comma.
        let p = one("panicked at '\\n' , github.com-1ecc6299db9ec823\\tokio-rusqlite-0.1.0\\src\\lib.rs:254:36");
        assert_eq!(at(&p).2.as_deref(), Some("tokio-rusqlite@0.1.0"));
        // Cut before the location: the message is what there is.
        let p = one("thread 'main' panicked at 'Unable to install global subscriber: SetLoggerError(())', \n\n/Users/james/.cargo/registry/src/github.com-1ecc6299db9ec");
        assert_eq!(
            p.text,
            "Unable to install global subscriber: SetLoggerError(())"
        );
        assert_eq!(p.location, None);
    }

    #[test]
    fn hooks_and_garbled_terminals() {
        let p = one("The application panicked (crashed).\nMessage:  index outside of buffer: the area is Rect { x: 0 } but index is (209, 49)\nLocation: C:\\Users\\i\\.cargo\\registry\\src\\index.crates.io-1949cf8c6b5b557f\\ratatui-0.29.0\\src\\buffer\\buffer.rs:253");
        assert_eq!(
            p.text,
            "index outside of buffer: the area is Rect { x: 0 } but index is (209, 49)"
        );
        assert_eq!(at(&p).2.as_deref(), Some("ratatui@0.29.0"));
        let p = one("[ERROR] panic: PanicInfo { payload: Any, message: Some(Trying to access position outside the buffer: x=0, area=Rect { x: 0 }), location: Location { file: \"/U/s/.cargo/registry/src/github.com-1ecc6299db9ec823/tui-0.9.5/src/buffer.rs\", line: 245, col: 9 } }");
        assert_eq!(
            p.text,
            "Trying to access position outside the buffer: x=0, area=Rect { x: 0 }"
        );
        assert_eq!(at(&p).1, 245);
        let p = one("Pthread 'main' panicked at /U/j/.cargo/registry/src/index.crates.io-6f17d22bba15001f/rand-0.8.5/src/rng.rs:134:9:+++++++++++++++++++          +++++++\n++++++++cannot sample empty range    +++++++++++\n+++++++++++      note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace");
        assert_eq!(p.text, "cannot sample empty range");
        assert_eq!(at(&p).2.as_deref(), Some("rand@0.8.5"));
        // A location the terminal wrapped.
        let p = one(" thread 'tokio-runtime-worker' panicked at /U/e/.cargo/registry/src/index.crates.io\n -1949cf8c6b5b557f/once_cell-1.21.3/src/lib.rs:1311:25:\n Lazy instance has previously been poisoned");
        assert_eq!(at(&p).2.as_deref(), Some("once_cell@1.21.3"));
        assert_eq!(p.text, "Lazy instance has previously been poisoned");
    }

    #[test]
    fn an_assertions_operand_lines_are_its_message() {
        let lines = [
            "assertion `left == right` failed: sizes",
            "  left: 3",
            " right: 4",
            "next",
        ];
        let mut i = 1;
        assert_eq!(
            assert_operands(lines[0], &lines, &mut i).as_deref(),
            Some("\n  left: 3\n right: 4")
        );
        assert_eq!(i, 3);
        let mut i = 1;
        assert_eq!(assert_operands("sizes differ", &lines, &mut i), None);
        assert_eq!(i, 1);
    }
}
