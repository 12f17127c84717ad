//! Reading whatever a user pastes into the messages it holds. A paste is
//! cleaned of what tools put around every line (`prefix`), then read line
//! by line by one recogniser per kind of output, each in its own module:
//! panic reports of every release and hook (`panic`), backtraces
//! (`backtrace`), `Error:` + `Caused by:` chains (`chain`), log lines of the
//! common loggers (`log`), report excerpts (`report`), locations printed
//! alone (`location`), then test-runner and build noise, and bare lines.
//! Crate versions the text names are read apart (`version`).

mod backtrace;
mod chain;
mod date;
mod location;
mod log;
mod panic;
mod prefix;
pub mod python;
mod report;
mod version;

pub use backtrace::Frame;
pub use date::latest_day;
pub use location::{registry_crate, Location, RegistryCrate};
pub use log::Level;
pub use version::{build_scripts, mentions, Mention};

use serde::Serialize;

/// Input beyond this many bytes is not read (the rest is reported cut).
pub const MAX_INPUT: usize = 1 << 20;
/// Chains inside causes are read this deep.
const MAX_NESTING: u32 = 4;
/// A report longer than this is not matched whole against layouts.
const MAX_REPORT: usize = 16 * 1024;
/// Bare lines in a row read as one message too, from this many.
const MIN_PARAGRAPH: usize = 3;
/// At most this many messages are taken from one input.
pub const MAX_MESSAGES: usize = 64;

/// Where in the input a message came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// The message of a panic report.
    Panic,
    /// The exception that ended a Python program: its traceback's last,
    /// pytest's `E   ` line, or a `Type: message` line.
    Exception,
    /// The top line of `Error: …` (what `main` returning `Err` prints).
    ErrorLine,
    /// A `Caused by:` layer.
    Cause,
    /// A log line (level and prefix removed).
    Log,
    /// A source location printed alone (a hook's `in file X on line N`,
    /// a location quoted without its message): the text is empty.
    Location,
    /// Consecutive bare lines read as one message (a multi-line message
    /// printed without a header: `eprintln!`, a build script's stderr);
    /// its lines are messages too.
    Paragraph,
    /// A line on its own.
    Bare,
}

/// One message found in the input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    /// The message text (several lines for multi-line panics).
    pub text: String,
    /// Where the report says it was raised (for a log line, the log call).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Backtrace frames outside std, innermost first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub frames: Vec<Frame>,
    /// How it was found.
    pub origin: Origin,
    /// For `Caused by:` layers, the depth (0 = the top error).
    pub layer: u32,
    /// The message is std's own text (set by the matcher).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub std: Option<crate::stdtext::StdText>,
    /// The level of the log line it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<Level>,
    /// The target of the log line it came from (a module path:
    /// `hyper::proto::h1`), which names the crate that logged it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// The whole report (header, excerpt, reason lines) a reason line below
    /// an excerpt stands in: the crate whose layout prints it printed the
    /// reason too.
    #[serde(skip)]
    pub report: Option<String>,
    /// The source line printed just above a Python exception whose frame
    /// line was not pasted (a traceback cut to its last lines): the line
    /// that raised it, as its file holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_line: Option<String>,
}

impl Message {
    /// A message with no location, frames or report.
    fn new(text: String, origin: Origin, layer: u32) -> Self {
        Message {
            text,
            location: None,
            frames: Vec::new(),
            origin,
            layer,
            std: None,
            level: None,
            target: None,
            report: None,
            source_line: None,
        }
    }
}

/// Why an input cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    /// Holds NUL bytes or is mostly control characters.
    Binary,
    /// Not UTF-8.
    NotUtf8,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::Binary => f.write_str("the input is binary, not text output"),
            InputError::NotUtf8 => f.write_str("the input is not UTF-8 text"),
        }
    }
}

impl std::error::Error for InputError {}

/// Reads raw bytes as pasted text: refuses binary, cuts at [`MAX_INPUT`].
pub fn decode(bytes: &[u8]) -> Result<String, InputError> {
    let bytes = &bytes[..bytes.len().min(MAX_INPUT)];
    if bytes.contains(&0) {
        return Err(InputError::Binary);
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        // A cut in the middle of a character is not the user's fault.
        Err(e) if e.error_len().is_none() && e.valid_up_to() + 4 > bytes.len() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).expect("valid prefix")
        }
        Err(_) => return Err(InputError::NotUtf8),
    };
    let control = text
        .chars()
        .filter(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t' | '\x1b'))
        .count();
    if control * 10 > text.chars().count().max(1) {
        return Err(InputError::Binary);
    }
    Ok(text.to_string())
}

/// The crate and item path a frame's symbol names, as the catalogue
/// writes item paths: `<slab::Slab<T> as Index<usize>>::index` →
/// (`slab`, [`Slab`, `index`]); `m::<impl Div for &D>::div` → (`m`, [`div`]).
pub fn symbol_path(symbol: &str) -> Option<(String, Vec<String>)> {
    let s = symbol.trim();
    let s = s
        .rsplit_once("::h")
        .filter(|(_, h)| h.chars().all(|c| c.is_ascii_hexdigit()) && h.len() == 16)
        .map_or(s, |(a, _)| a);
    // `<X as T>::f`: X's path, then f.
    let s: String = if let Some(rest) = s.strip_prefix('<') {
        let (inner, tail) = rest.split_once(">::")?;
        let ty = inner.split(" as ").next()?;
        format!("{ty}::{tail}")
    } else {
        s.to_string()
    };
    // Drop generic arguments and `<impl …>` segments.
    let mut clean = String::new();
    let mut depth = 0;
    for ch in s.chars() {
        match ch {
            '<' => depth += 1,
            '>' => depth -= 1,
            _ if depth == 0 => clean.push(ch),
            _ => {}
        }
    }
    let segs: Vec<String> = clean
        .split("::")
        .filter(|p| !p.is_empty() && !p.starts_with('{'))
        .map(|p| p.trim_start_matches('&').to_string())
        .collect();
    let (krate, rest) = segs.split_first()?;
    (!rest.is_empty()).then(|| (krate.clone(), rest.to_vec()))
}

/// Lines that say nothing of an error: test harness and build tool lines,
/// backtrace hints, a JavaScript stack's frames.
fn is_noise(line: &str) -> bool {
    let t = line.trim();
    t.is_empty()
        || t.starts_with("note: run with `RUST_BACKTRACE")
        || t.starts_with("note: run with RUST_BACKTRACE")
        || t.starts_with("note: Run with `RUST_BACKTRACE")
        || t.starts_with("note: Some details are omitted")
        || t.starts_with("stack backtrace:")
        || t.starts_with("running ")
        || t.starts_with("test result:")
        || t.starts_with("failures:")
        || t.starts_with("error: test failed")
        || t.starts_with("For more information, try")
        || t.starts_with("Usage:")
        || (t.starts_with("test ")
            && (t.ends_with("... ok") || t.ends_with("... FAILED") || t.ends_with("... ignored")))
        || (t.starts_with("---- ") && t.ends_with(" ----"))
        || t == "Caused by:"
        || t.starts_with("Stack backtrace:")
        || t.starts_with("Finished ")
        || t.starts_with("Running ")
        || t.starts_with("Compiling ")
        || t.starts_with("Updating ")
        || t.starts_with("Downloaded ")
        || t.starts_with("process didn't exit successfully")
        || t.starts_with("--- stderr")
        || t.starts_with("--- stdout")
        || t.starts_with("cargo:")
        || t.starts_with("warning: build failed")
        || t.starts_with("help:")
        || t.starts_with("tip:")
        || (t.starts_with("at ") && t.ends_with(')') && t.contains(" ("))
}

/// Splits pasted output into messages.
pub fn parse(text: &str) -> Vec<Message> {
    parse_nested(text, 0)
}

/// [`parse`] of a text that is a cause `depth` chains deep (past
/// [`MAX_NESTING`], a cause's lines are messages as they are).
fn parse_nested(text: &str, depth: u32) -> Vec<Message> {
    let cleaned = python::repair(prefix::clean(text));
    let lines: Vec<&str> = cleaned.iter().map(String::as_str).collect();
    let mut out: Vec<Message> = Vec::new();
    let mut report_depth = 0;
    // The line of the last message pushed from a line of its own, and the
    // report being read (its end line and text).
    let mut last_line: Option<usize> = None;
    let mut report: Option<(usize, String)> = None;
    // Bare lines: (line, text), for paragraphs.
    let mut bare: Vec<(usize, String)> = Vec::new();
    let mut i = 0;
    let python = lines.iter().any(|l| python::marks_python(l));
    while i < lines.len() && out.len() < MAX_MESSAGES {
        let line = lines[i];
        if python && python_step(&lines, &mut i, &mut out) {
            continue;
        }
        if panic::is_header(line) {
            let start = i;
            if let Some(p) = panic::recognise(&lines, &mut i) {
                out.push(Message {
                    location: p.location,
                    frames: p.frames,
                    ..Message::new(p.text, Origin::Panic, 0)
                });
                continue;
            }
            i = start;
        }
        // miette's graphical chain below a report's `× message`.
        if let Some((causes, end)) = chain::miette_causes(&lines, i) {
            push_causes(&mut out, causes, depth);
            i = end;
            continue;
        }
        // A backtrace pasted without its header (nor the panic's line, or
        // not next to it): its frames belong to the message just above,
        // else they are a report of their own, located where the
        // innermost frame outside std is.
        if backtrace::starts_headerless(&lines, i) {
            let above = last_line.is_some_and(|l| l + 1 == i);
            let start = i;
            let frames = backtrace::take_frames(&lines, &mut i);
            // (A line the frame reader does not take is passed over.)
            i = i.max(start + 1);
            match out.last_mut().filter(|m| above && m.frames.is_empty()) {
                Some(m) => m.frames = frames,
                None if !frames.is_empty() => out.push(Message {
                    location: frames.iter().find_map(|f| f.at.clone()),
                    frames,
                    ..Message::new(String::new(), Origin::Location, report_depth)
                }),
                None => {}
            }
            continue;
        }
        // `Caused by: cause` lines below any message.
        if inline_cause(line).is_some() {
            i = causes_after(&lines, i, &mut out, depth);
            continue;
        }
        // miette's graphical reports: `Error:` alone, then `× message`.
        if line.trim() == "Error:" {
            report_depth = 0;
            i += 1;
            continue;
        }
        if let Some(rest) = line.strip_prefix("Error: ") {
            report_depth = 0;
            // miette on one line: `Error:   × message`.
            let rest = rest.trim_start();
            let rest = rest.strip_prefix("× ").unwrap_or(rest);
            out.push(Message::new(rest.to_string(), Origin::ErrorLine, 0));
            last_line = Some(i);
            i += 1;
            i = causes_after(&lines, i, &mut out, depth);
            continue;
        }
        // anyhow's and eyre's `Stack backtrace:` after a chain: its frames
        // locate the deepest layer.
        if line.trim() == "Stack backtrace:" {
            i += 1;
            let frames = backtrace::take_frames(&lines, &mut i);
            if let Some(last) = out.last_mut() {
                last.frames.extend(frames);
            }
            continue;
        }
        // better-panic's backtrace, outermost frame first.
        if let Some(frames) = backtrace::take_outermost_first(&lines, &mut i) {
            let location = frames.iter().find_map(|f| f.at.clone());
            out.push(Message {
                location,
                frames,
                ..Message::new(String::new(), Origin::Location, report_depth)
            });
            continue;
        }
        // std's `Location` printed by a hook with `{:?}`/`{:#?}` (over
        // several lines): the panic's place.
        if line.contains("Location {") {
            let window = lines[i..lines.len().min(i + 6)].join("\n");
            if let Some((loc, span)) =
                location::debug_printed(&window).filter(|(_, span)| span.start < line.len())
            {
                i += window[..span.end].matches('\n').count() + 1;
                out.push(Message {
                    location: Some(loc),
                    ..Message::new(String::new(), Origin::Location, report_depth)
                });
                continue;
            }
        }
        // A location on a line of its own: the message's place, or (when a
        // report repeats it) nothing new.
        if let Some(loc) = location::alone(line) {
            let repeated = out
                .last()
                .and_then(|m| m.location.as_ref())
                .is_some_and(|l| l.line == loc.line && l.registry == loc.registry);
            if !repeated {
                out.push(Message {
                    location: Some(loc),
                    ..Message::new(String::new(), Origin::Location, report_depth)
                });
            }
            i += 1;
            continue;
        }
        // tracing's pretty format: the event's place on the line below it
        // (`    at …/dispatcher.rs:1237`), not a backtrace's frame.
        // (`on THREAD` may follow.)
        let event_place = line
            .trim()
            .strip_prefix("at ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(location::parse);
        if let Some(place) = event_place.filter(|_| last_line.is_some_and(|l| l + 1 == i)) {
            if let Some(m) = out
                .last_mut()
                .filter(|m| m.origin == Origin::Log && m.location.is_none())
            {
                m.location = Some(place);
                i += 1;
                continue;
            }
        }
        if is_noise(line) || backtrace::is_at_line(line) {
            i += 1;
            // A report's `help:` wrapped over several lines: the lines
            // indented past the keyword are the help's too.
            if let Some(indent) = report::help_indent(line) {
                while i < lines.len()
                    && !lines[i].trim().is_empty()
                    && report::leading_spaces(lines[i]) > indent
                {
                    i += 1;
                }
            }
            continue;
        }
        // A report's excerpt (gutter, carets, rules): decoration; what
        // follows it is the report's reason, a layer below its header.
        if report::is_decoration(line) {
            let header = (last_line.is_some_and(|l| l + 1 == i)).then(|| i - 1);
            while i < lines.len() && report::is_decoration(lines[i]) {
                i += 1;
            }
            // The report: its header, the excerpt, the reason lines up to
            // a blank line.
            if let Some(h) = header {
                let end = (i..lines.len())
                    .find(|&k| lines[k].trim().is_empty())
                    .unwrap_or(lines.len());
                let block = lines[h..end].join("\n");
                report = (block.len() <= MAX_REPORT).then_some((end, block));
            }
            // Below the header, whatever layer it was (an `error=` field
            // is already one below its event).
            report_depth = out
                .last()
                .map_or(report_depth, |m| m.layer.max(report_depth))
                + 1;
            continue;
        }
        let line = line.trim_start().strip_prefix("× ").unwrap_or(line);
        let in_report = report
            .as_ref()
            .filter(|(end, _)| i < *end)
            .map(|r| r.1.clone());
        // A reason after an excerpt may hang from a `=` (`= expected x`).
        let line = match &in_report {
            Some(_) => line.trim_start().strip_prefix("= ").unwrap_or(line),
            None => line,
        };
        let (texts, origin, target, location, level) = match log::parse(line) {
            Some(l) => (l.texts, Origin::Log, l.target, l.location, l.level),
            None => {
                let t = line.trim();
                let t = t.strip_prefix("error: ").unwrap_or(t);
                let t = python::without_errno(t);
                (vec![t.to_string()], Origin::Bare, None, None, None)
            }
        };
        for (k, text) in texts.into_iter().enumerate() {
            if text.trim().is_empty() {
                continue;
            }
            let layer = report_depth + k as u32;
            let mut m = Message::new(text, origin, layer);
            m.report = in_report.clone();
            // The target logged the event; its error field may come from
            // anywhere below.
            m.level = level;
            if k == 0 {
                m.target = target.clone();
                m.location = location.clone();
            }
            // A hook's log line naming the panic's place (`panic at …`).
            if origin == Origin::Log && m.location.is_none() {
                if let Some(place) = location::alone(&m.text) {
                    m.location = Some(place);
                    m.text.clear();
                    m.origin = Origin::Location;
                }
            }
            // A sentence ending in a library's location (a hook's own
            // format, a user's words before the place).
            if m.location.is_none() {
                if let Some((words, place)) = location::trailing(&m.text) {
                    m.text = words.to_string();
                    m.location = Some(place);
                    if m.text.is_empty() {
                        m.origin = Origin::Location;
                    }
                }
            }
            if origin == Origin::Bare && in_report.is_none() {
                bare.push((i, m.text.clone()));
            }
            out.push(m);
            last_line = Some(i);
        }
        i += 1;
        // A failed `assert_eq!`'s operand lines belong to its message.
        if let Some(m) = out.last_mut().filter(|_| last_line == Some(i - 1)) {
            if let Some(operands) = panic::assert_operands(&m.text, &lines, &mut i) {
                m.text.push_str(&operands);
            }
        }
        // An error's `{:?}` (anyhow, eyre) logged or printed without
        // `Error: `: its chain follows all the same.
        i = causes_after(&lines, i, &mut out, depth);
    }
    for p in paragraphs(&lines, &bare) {
        if out.len() >= MAX_MESSAGES {
            break;
        }
        out.push(Message::new(p, Origin::Paragraph, 0));
    }
    // (A cause's text is a part of the paste, not the paste.)
    if let Some(whole) = whole_message(&lines, &out).filter(|_| depth == 0) {
        if out.len() < MAX_MESSAGES {
            out.push(Message::new(whole, Origin::Paragraph, 0));
        }
    }
    out
}

/// Lines of a paste that may be one message printed whole, at most.
const MAX_WHOLE_LINES: usize = 40;

/// The whole paste as one message, when it is one printed alone: lines
/// that no recogniser read as a record (a panic, an exception, a log
/// line, a location, an `Error:` line, a tool's noise), two or more of
/// them, with blank lines or a caret line between, as a message of several
/// lines prints them (a parser's error with its excerpt, a report of
/// several parts); not a report with a gutter (`1 | …`), whose layout is
/// read apart; none when a paragraph already holds all of it.
fn whole_message(lines: &[&str], out: &[Message]) -> Option<String> {
    let bare = |m: &Message| matches!(m.origin, Origin::Bare | Origin::Paragraph);
    let caret = |l: &str| l.trim().chars().all(|c| matches!(c, '^' | '~' | ' '));
    let apart =
        |l: &&str| !l.trim().is_empty() && (is_noise(l) || (report::is_decoration(l) && !caret(l)));
    if out.is_empty() || !out.iter().all(bare) || lines.iter().any(apart) {
        return None;
    }
    let start = lines.iter().position(|l| !l.trim().is_empty())?;
    let end = lines.iter().rposition(|l| !l.trim().is_empty())? + 1;
    let body = &lines[start..end];
    let filled = body.iter().filter(|l| !l.trim().is_empty()).count();
    if filled < 2 || body.len() > MAX_WHOLE_LINES {
        return None;
    }
    let text = body.join("\n");
    let normal = crate::pattern::normalize(&text);
    let held = out
        .iter()
        .any(|m| m.origin == Origin::Paragraph && crate::pattern::normalize(&m.text) == normal);
    (text.len() <= MAX_REPORT && !held).then_some(text)
}

/// Reads what Python printed at line `*i` (a paste that holds Python
/// output): a traceback with its chain, pytest's `E   ` block, a warning or
/// logging line, an exception line; skips source lines and pytest's
/// decoration. False when the line is none of these.
fn python_step(lines: &[&str], i: &mut usize, out: &mut Vec<Message>) -> bool {
    let line = lines[*i];
    let t = line.trim();
    let cut = python::is_frame(line);
    if cut || python::is_traceback_start(line) {
        let start = *i;
        let mut chain: Vec<python::Exception> = Vec::new();
        // A traceback whose header was cut off starts at its first frame.
        let first = if cut {
            python::frames_from(lines, i, start)
        } else {
            python::traceback(lines, i)
        };
        let mut next = first;
        while let Some(e) = next.take() {
            chain.push(e);
            // `During handling…` / `The above exception…`, then the next.
            let mut k = *i;
            while k < lines.len() && lines[k].trim().is_empty() {
                k += 1;
            }
            if k < lines.len() && python::is_chain_line(lines[k]) {
                k += 1;
                while k < lines.len() && lines[k].trim().is_empty() {
                    k += 1;
                }
                if k < lines.len() && python::is_traceback_start(lines[k]) {
                    *i = k;
                    next = python::traceback(lines, i);
                    continue;
                }
                *i = k;
            }
            break;
        }
        if chain.is_empty() {
            *i = start + 1;
            return true;
        }
        // The last exception ended the program; those before it are its
        // context, a layer further down each.
        let n = chain.len();
        for (k, e) in chain.into_iter().enumerate().rev() {
            let layer = (n - 1 - k) as u32;
            let origin = if layer == 0 {
                Origin::Exception
            } else {
                Origin::Cause
            };
            push_exception(out, e, origin, layer);
        }
        return true;
    }
    if let Some(loc) = python::exception_location(line) {
        out.push(Message {
            location: Some(loc),
            ..Message::new(String::new(), Origin::Location, 0)
        });
        *i += 1;
        return true;
    }
    // pytest prints a chain's exceptions as blocks apart, joined by
    // Python's chaining sentence: what came before is the context of
    // what follows, a layer further down.
    if python::is_chain_line(line) {
        for m in out.iter_mut() {
            if matches!(m.origin, Origin::Exception | Origin::Cause) {
                m.origin = Origin::Cause;
                m.layer += 1;
            }
        }
        *i += 1;
        return true;
    }
    if line.starts_with("E ") || t == "E" {
        let start = *i;
        if let Some(e) = python::pytest_error(lines, i) {
            let first = out.len();
            let unlocated = e.location.is_none();
            push_exception(out, e, Origin::Exception, 0);
            // The `>` line above the block is the statement that raised.
            if unlocated {
                if let Some(m) = out.get_mut(first) {
                    m.source_line = python::pytest_source_line(lines, start);
                }
            }
            return true;
        }
    }
    if let Some(l) = python::logged(line) {
        let mut text = l.text;
        let mut next = *i + 1;
        // A warning's message may run over lines, up to its source line.
        if l.level == Level::Warn && l.location.is_some() {
            if let Some((more, end)) = python::warning_continuation(lines, next) {
                for m in more {
                    text.push('\n');
                    text.push_str(m.trim_end());
                }
                text.truncate(text.trim_end().len());
                next = end;
            }
        }
        let mut m = Message::new(text, Origin::Log, 0);
        m.level = Some(l.level);
        m.target = l.target;
        // A warning names the line `stacklevel` points at (the caller, as
        // a rule), not the `warn` call: a frame, not the place.
        m.frames = l.location.into_iter().map(Frame::at).collect();
        out.push(m);
        *i = next;
        return true;
    }
    if !line.starts_with(char::is_whitespace) {
        if let Some((kind, text)) = python::exception_line(t, true) {
            let mut text = text;
            // A message's further lines, up to a blank line.
            let mut k = *i + 1;
            while k < lines.len() && !lines[k].trim().is_empty() && !python::marks_python(lines[k])
            {
                text.push('\n');
                text.push_str(lines[k].trim_end());
                k += 1;
            }
            let e = python::Exception {
                kind,
                text,
                location: None,
                frames: Vec::new(),
            };
            let first = out.len();
            push_exception(out, e, Origin::Exception, 0);
            out[first].source_line = python::raising_line(lines, *i);
            *i = k;
            return true;
        }
    }
    // Source lines (a warning's, pytest's), pytest's frames, rules,
    // headers and summary: decoration.
    let decoration = line.starts_with(char::is_whitespace)
        || t.starts_with('>')
        || python::pytest_frame(t).is_some()
        || (t.starts_with("FAILED ") && t.contains("::"))
        || (t.starts_with("ERROR ") && t.contains("::"))
        || ((t.starts_with("___") || t.starts_with("===") || t.starts_with("_ "))
            && (t.ends_with("___") || t.ends_with("===") || t.ends_with(" _")));
    if decoration && !t.is_empty() {
        *i += 1;
        return true;
    }
    false
}

/// A Python exception as a message: its text (the string of an
/// exception made with several arguments, which prints them as a tuple),
/// where it was raised, its frames, and its type's module as the target
/// that names the package. An exception that prints another's type and
/// text (`(pymysql.err.OperationalError) (2003, "Can't connect…")`) has
/// that one as a cause, a layer down.
fn push_exception(out: &mut Vec<Message>, e: python::Exception, origin: Origin, layer: u32) {
    let module = |kind: &str| kind.rsplit_once('.').map(|(m, _)| m.to_string());
    let inner = python::wrapped(&e.text);
    let text = python::exception_text(&e.text).unwrap_or(e.text);
    let text = python::without_errno(&text).to_string();
    let mut m = Message::new(text, origin, layer);
    m.location = e.location;
    m.frames = e.frames.into_iter().map(Frame::at).collect();
    m.target = module(&e.kind);
    out.push(m);
    if let Some((kind, text)) = inner {
        let text = python::exception_text(&text).unwrap_or(text);
        let mut cause = Message::new(text, Origin::Cause, layer + 1);
        cause.target = module(&kind);
        out.push(cause);
    }
}

/// Runs of at least [`MIN_PARAGRAPH`] bare lines, consecutive or apart by
/// one blank line, joined (blank lines kept).
fn paragraphs(lines: &[&str], bare: &[(usize, String)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut run: Vec<&(usize, String)> = Vec::new();
    let flush = |run: &mut Vec<&(usize, String)>, out: &mut Vec<String>| {
        if run.len() >= MIN_PARAGRAPH {
            let mut text = String::new();
            for (k, (line, t)) in run.iter().enumerate() {
                if k > 0 {
                    text.push('\n');
                    if *line > run[k - 1].0 + 1 {
                        text.push('\n');
                    }
                }
                text.push_str(t);
            }
            if text.len() <= MAX_REPORT {
                out.push(text);
            }
        }
        run.clear();
    };
    for b in bare {
        let joins = run.last().is_some_and(|(last, _)| {
            b.0 == last + 1 || (b.0 == last + 2 && lines[last + 1].trim().is_empty())
        });
        if !joins {
            flush(&mut run, &mut out);
        }
        run.push(b);
    }
    flush(&mut run, &mut out);
    out
}

/// The `Caused by:` sections that follow line `i` (after blank lines), if
/// any: their causes are pushed below the last message, each section a
/// layer below the one before (cargo writes one section per cause);
/// returns the line after the last section (or `i`).
fn causes_after(lines: &[&str], i: usize, out: &mut Vec<Message>, depth: u32) -> usize {
    let mut i = i;
    loop {
        let mut j = i;
        while j < lines.len() && lines[j].trim().is_empty() {
            j += 1;
        }
        if j >= lines.len() {
            return i;
        }
        // error-chain's, failure's and some hand-written reports: one
        // `Caused by: cause` line per cause.
        let inline: Vec<String> = lines[j..]
            .iter()
            .map_while(|l| inline_cause(l))
            .map(str::to_string)
            .collect();
        if !inline.is_empty() {
            let end = j + inline.len();
            push_causes(out, inline, depth);
            return end;
        }
        if lines[j].trim() != "Caused by:" {
            return i;
        }
        let start = j + 1;
        let end = chain::section_end(lines, start);
        push_causes(out, chain::causes(&lines[start..end]), depth);
        if end == i || out.len() >= MAX_MESSAGES {
            return end;
        }
        i = end;
    }
}

/// The cause a `Caused by: cause` line names, when it is one.
fn inline_cause(line: &str) -> Option<&str> {
    let t = line.trim();
    t.strip_prefix("Caused by:")
        .map(str::trim)
        .filter(|c| !c.is_empty())
}

/// The causes of a chain (a `Caused by:` section, miette's `├─▶` lines)
/// below the last message, each read as output of its own (a report, a
/// chain) one layer below the one before; a cause that is only `at
/// PATH:LINE:COL` (miette's panic reports) is the place of what follows.
fn push_causes(out: &mut Vec<Message>, causes: Vec<String>, depth: u32) {
    let base = out.last().map_or(0, |m| m.layer);
    let mut layer = base + 1;
    for cause in causes {
        // `at PATH:L:C` (axocli), `At PATH:L:C` (zellij's report).
        let place = cause
            .strip_prefix("at ")
            .or_else(|| cause.strip_prefix("At "));
        if let Some(loc) = place.and_then(location::alone) {
            out.push(Message {
                location: Some(loc),
                ..Message::new(String::new(), Origin::Location, layer)
            });
            continue;
        }
        let inner = if depth < MAX_NESTING {
            parse_nested(&cause, depth + 1)
        } else {
            cause
                .lines()
                .map(|l| Message::new(l.trim().to_string(), Origin::Bare, 0))
                .filter(|m| !m.text.is_empty())
                .collect()
        };
        let deepest = inner.iter().map(|m| m.layer).max().unwrap_or(0);
        for mut m in inner {
            if out.len() >= MAX_MESSAGES {
                return;
            }
            m.layer += layer;
            if m.origin == Origin::Bare {
                m.origin = Origin::Cause;
            }
            out.push(m);
        }
        layer += deepest + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn miette_chain_causes_are_layers_and_a_place() {
        // axocli's panic report (oranda 0.1.1): the place, then the message.
        let m = parse("↪ >o_o< INFO: Running build...\n  × oranda panicked.\n  ├─▶ at src/data/github/repo.rs:37:13\n  ╰─▶ not yet implemented\n  help: set the `RUST_BACKTRACE=1` environment variable to display a backtrace.");
        let place = m.iter().find(|m| m.origin == Origin::Location).unwrap();
        assert_eq!(place.location.as_ref().unwrap().line, 37);
        let cause = m.iter().find(|m| m.text == "not yet implemented").unwrap();
        let top = m.iter().find(|m| m.text == "oranda panicked.").unwrap();
        assert!(cause.layer > top.layer);
        assert_eq!(cause.origin, Origin::Cause);
        // zellij's report spells it `At`, below its thread list.
        let m = parse("Error occurred in server:\n\n  × Thread 'screen' panicked.\n  ├─▶ Originating Thread(s)\n  │     1. screen_thread: TerminalResize\n  │\n  ├─▶ At zellij-server/src/panes/floating_panes/mod.rs:252:72\n  ╰─▶ called `Option::unwrap()` on a `None` value\n");
        let place = m.iter().find(|m| m.origin == Origin::Location).unwrap();
        assert_eq!(place.location.as_ref().unwrap().line, 252);
        // espflash's report: the cause one layer below the report.
        let m = parse("Error: espflash::connection_failed\n\n  × Error while connecting to device\n  ╰─▶ Failed to connect to the device\n  help: Ensure that the device is connected");
        let cause = m
            .iter()
            .find(|m| m.text == "Failed to connect to the device")
            .unwrap();
        assert_eq!(cause.origin, Origin::Cause);
    }

    #[test]
    fn a_backtrace_without_its_header_locates_its_report() {
        let m = parse("0: std::panicking::begin_panic_handler\n             at /rustc/59ee\\/library\\std\\src\\panicking.rs:517\n   1: core::panicking::panic_fmt\n             at /rustc/59ee\\/library\\core\\src\\panicking.rs:101\n   2: color_eyre::config::HookBuilder::into_hooks\n             at C:\\Users\\A\\.cargo\\registry\\src\\github.com-1ecc6299db9ec823\\color-eyre-0.5.11\\src\\config.rs:736\n   3: color_eyre::install\n");
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].origin, Origin::Location);
        assert_eq!(m[0].location.as_ref().unwrap().line, 736);
        assert_eq!(m[0].frames.len(), 2);
        // A frame line the frame reader does not take ends, not loops.
        let m = parse("\t1: a::b\n\t2: c::d\n");
        assert!(m.len() <= MAX_MESSAGES);
        // Below an error line, the frames are that error's.
        let m = parse("Error: no config\n   0: app::load\n             at ./src/load.rs:3:5\n   1: app::main\n             at ./src/main.rs:9:1\n");
        assert_eq!(m[0].text, "no config");
        assert_eq!(m[0].frames.len(), 2);
    }

    #[test]
    fn a_sentence_ending_in_a_library_place_is_its_message_at_that_place() {
        // servo's panic hook, after a log line; a user's words before a place.
        let m = parse("[2026-05-26T21:37:50Z DEBUG devtools::actor] registering NodeActor177\nalready mutably borrowed (thread DevtoolsClientHandler, at /h/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/atomic_refcell-0.1.14/src/lib.rs:158)");
        let m = m
            .iter()
            .find(|m| m.text == "already mutably borrowed")
            .unwrap();
        assert_eq!(m.location.as_ref().unwrap().line, 158);
        let m = parse("Application panicked in zenoh code: registry/src/index.crates.io-6f17d22bba15001f/zenoh-transport-0.10.1-rc/src/manager.rs:335:18");
        assert_eq!(m[0].text, "Application panicked in zenoh code");
        let r = m[0].location.as_ref().unwrap().registry.as_ref().unwrap();
        assert_eq!(
            (r.name.as_str(), r.version.as_str()),
            ("zenoh-transport", "0.10.1-rc")
        );
    }

    #[test]
    fn a_place_in_a_hooks_spelling_locates_the_report() {
        let place = |text: &str| -> Option<(String, u32)> {
            parse(text)
                .into_iter()
                .find_map(|m| m.location)
                .map(|l| (l.registry.map(|r| r.name).unwrap_or_default(), l.line))
        };
        // color-backtrace's report.
        let text = "The application panicked (crashed).\n  called `Result::unwrap()` on an `Err` value: CantOpen(DlOpen { desc: \"Dynamic loading not supported\" })\nin /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/yeslogic-fontconfig-sys-6.0.0/src/lib.rs, line 31\nthread: main";
        assert_eq!(place(text), Some(("yeslogic-fontconfig-sys".into(), 31)));
        // A log line from a panic hook.
        let text = "INFO [dlopen_rs::init] Initialize an existing library\nERROR [app] panic at /h/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/dlopen-rs-0.7.3/src/init.rs:233:6";
        assert_eq!(place(text), Some(("dlopen-rs".into(), 233)));
        // A hook's `{:#?}` of the `PanicInfo`: its fields are not messages.
        let text = "Got a panic: PanicInfo {\n    payload: Any { .. },\n    location: Location {\n        file: \"/h/.cargo/registry/src/github.com-1ecc6299db9ec823/librespot-playback-0.4.2/src/audio_backend/rodio.rs\",\n        line: 178,\n        col: 53,\n    },\n    can_unwind: true,\n}";
        assert_eq!(place(text), Some(("librespot-playback".into(), 178)));
        assert!(parse(text).iter().all(|m| !m.text.contains("line: 178")));
        // better-panic's backtrace: the innermost frame outside std.
        let text = "Backtrace (most recent call last):\n  File \"~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/sdl2-0.36.0/src/sdl2/audio.rs:202\", in sdl2::audio::AudioSubsystem::open\n    Ok(AudioSpec::convert_from_ll(spec))\n  File \"~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/sdl2-0.36.0/src/sdl2/audio.rs:721\", in sdl2::audio::AudioSpec::convert_from_ll\n    format: AudioFormat::from_ll(spec.format).unwrap(),\n  File \"rust:library/core/src/option.rs:935\", in core::option::Option<T>::unwrap";
        assert_eq!(place(text), Some(("sdl2".into(), 721)));
    }

    #[test]
    fn new_panic_header_with_multiline_message() {
        let m = parse(
            "\nthread 'main' (6499) panicked at src/main.rs:10:68:\nassertion `left == right` failed\n  left: 1\n right: 2\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n",
        );
        assert_eq!(m.len(), 1);
        assert_eq!(
            m[0].text,
            "assertion `left == right` failed\n  left: 1\n right: 2"
        );
        let loc = m[0].location.as_ref().unwrap();
        assert_eq!(
            (loc.path.as_str(), loc.line, loc.column),
            ("src/main.rs", 10, Some(68))
        );
        assert_eq!(m[0].origin, Origin::Panic);
    }

    #[test]
    fn a_pytest_chain_ends_with_its_last_exception() {
        let text = ">       sock.connect(addr)
E       ConnectionRefusedError: [Errno 111] Connection refused

../.venv/lib/python3.11/site-packages/redis/connection.py:2034: ConnectionRefusedError

The above exception was the direct cause of the following exception:

>               raise conn_error from e
E               redis.exceptions.ConnectionError: Error 111 connecting to 127.0.0.1:9. Connection refused.

../.venv/lib/python3.11/site-packages/redis/connection.py:1341: ConnectionError
";
        let m = parse(text);
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].origin, m[0].layer), (Origin::Cause, 1));
        assert_eq!((m[1].origin, m[1].layer), (Origin::Exception, 0));
        assert!(m[1].text.starts_with("Error 111 connecting"));
    }

    #[test]
    fn a_warning_of_several_lines_is_one_message() {
        let text =
            "/home/dev/app/x.py:19: GuessedAtParserWarning: No parser was explicitly specified.

The code that caused this warning is on line 19.

  BeautifulSoup(\"<p>hi</p>\")
";
        let m = parse(text);
        assert_eq!(m.len(), 1);
        assert_eq!(
            m[0].text,
            "No parser was explicitly specified.\n\nThe code that caused this warning is on line 19."
        );
        assert_eq!(m[0].frames[0].at.as_ref().unwrap().line, 19);
    }

    #[test]
    fn a_message_of_several_lines_alone_is_also_read_whole() {
        let text = "No terminal matches '2' in the current parser context, at line 1 col 3\n\n1 2\n  ^\nExpected one of:\n\t* OP\n";
        let m = parse(text);
        let whole = m.last().unwrap();
        assert_eq!(whole.origin, Origin::Paragraph);
        assert_eq!(whole.text, text.trim_end());
        // Not where a line is a record of its own.
        let m =
            parse("Usage: x [OPTIONS]\nTry 'x --help' for help.\n\nError: No such option '--n'.");
        assert!(m.iter().all(|m| m.origin != Origin::Paragraph));
        // Nor for one line.
        assert_eq!(parse("just one line\n\n").len(), 1);
    }

    #[test]
    fn old_panic_header() {
        let m = parse("thread 'main' panicked at 'explicit panic', src/main.rs:2:5\n");
        assert_eq!(m[0].text, "explicit panic");
        assert_eq!(m[0].location.as_ref().unwrap().line, 2);
    }

    #[test]
    fn registry_path_and_backtrace_frames() {
        let text = "thread 'main' (16085) panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/serde_json-1.0.140/src/value/index.rs:102:18:
cannot access key \"a\" in JSON number
stack backtrace:
   0: __rustc::rust_begin_unwind
             at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/panicking.rs:689:5
   1: <str as serde_json::value::index::Index>::index_or_insert
             at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/serde_json-1.0.140/src/value/index.rs:102:18
   2: panics2::main
             at ./src/main.rs:82:14
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
";
        let m = parse(text);
        assert_eq!(m.len(), 1);
        let r = m[0].location.as_ref().unwrap().registry.as_ref().unwrap();
        assert_eq!(
            (r.name.as_str(), r.version.as_str(), r.path.as_str()),
            ("serde_json", "1.0.140", "src/value/index.rs")
        );
        assert_eq!(m[0].frames.len(), 2);
        assert_eq!(m[0].frames[1].at.as_ref().unwrap().path, "./src/main.rs");
    }

    #[test]
    fn full_backtrace_frames() {
        let text = "thread 'main' (1) panicked at src/main.rs:3:5:\nboom\nstack backtrace:\n   0:     0x55842a49cd5a - std::backtrace_rs::backtrace::libunwind::trace::h1\n                               at /rustc/abc/library/std/src/../../backtrace/src/backtrace/libunwind.rs:117:9\n   1:     0x55842a49cd5a - app::main::h2\n                               at ./src/main.rs:3:5\n";
        let m = parse(text);
        assert_eq!(m[0].text, "boom");
        assert_eq!(m[0].frames.len(), 1);
    }

    #[test]
    fn causes_on_their_own_lines_are_layers() {
        // A context's own report: `Caused by: cause` on one line.
        let m = parse("Error: parse yaml (src/config.rs:25:34)\nCaused by: accessLog.format: invalid type: map, expected a YAML tag at line 80 column 5\n");
        let cause = m
            .iter()
            .find(|m| m.text.starts_with("accessLog.format: invalid type"))
            .unwrap();
        assert_eq!((cause.origin, cause.layer), (Origin::Cause, 1));
        // error-chain's: one line per cause, below any message.
        let m = parse("failed to fetch\nCaused by: connection refused\nCaused by: os error 111\n");
        let layers: Vec<(u32, &str)> = m.iter().map(|m| (m.layer, m.text.as_str())).collect();
        assert!(layers.contains(&(1, "connection refused")), "{layers:?}");
        assert!(layers.contains(&(2, "os error 111")), "{layers:?}");
        // cargo's: one `Caused by:` section per cause.
        let m = parse("error: failed to load source for a dependency on `object`\n\nCaused by:\n  Unable to update https://github.com/gimli-rs/object\n\nCaused by:\n  failed to clone into: /w/object-68\n\nCaused by:\n  failed to resolve address for github.com; class=Net (12)\n");
        let deepest = m.iter().max_by_key(|m| m.layer).unwrap();
        assert_eq!(
            deepest.text,
            "failed to resolve address for github.com; class=Net (12)"
        );
        assert_eq!(deepest.layer, 3, "{m:?}");
    }

    #[test]
    fn anyhow_chains_numbered_or_not() {
        let m = parse("Error: failed to start server\n\nCaused by:\n    0: failed to load config\n    1: No such file or directory (os error 2)\n");
        let texts: Vec<(&str, u32)> = m.iter().map(|m| (m.text.as_str(), m.layer)).collect();
        assert_eq!(
            texts,
            vec![
                ("failed to start server", 0),
                ("failed to load config", 1),
                ("No such file or directory (os error 2)", 2)
            ]
        );
        let m =
            parse("Error: parsing the count\n\nCaused by:\n    invalid digit found in string\n");
        assert_eq!(m[1].text, "invalid digit found in string");
        assert_eq!(m[1].origin, Origin::Cause);
    }

    #[test]
    fn log_prefixes() {
        for line in [
            "[2024-05-01T10:00:00Z ERROR my_app::net] Tensor transfer denied: timeout",
            "2024-05-01T10:00:00.123456Z ERROR my_app::net: Tensor transfer denied: timeout",
            "ERROR my_app: Tensor transfer denied: timeout",
            "[ERROR] Tensor transfer denied: timeout",
        ] {
            let m = parse(line);
            assert_eq!(m.len(), 1, "{line}");
            assert_eq!(m[0].text, "Tensor transfer denied: timeout", "{line}");
            assert_eq!(m[0].origin, Origin::Log, "{line}");
        }
    }

    #[test]
    fn bare_lines_in_a_row_are_a_paragraph_too() {
        let m = parse("  Could not find OpenSSL, and this crate cannot\n  proceed without it.\n\n  Make sure you have it.\n  $HOST = x86_64\n\n\nlone line\n");
        let texts: Vec<(&str, Origin)> = m.iter().map(|m| (m.text.as_str(), m.origin)).collect();
        // Its lines, the paragraph, and the whole paste.
        assert_eq!(texts.len(), 7);
        assert_eq!(
            texts[5],
            (
                "Could not find OpenSSL, and this crate cannot\nproceed without it.\n\nMake sure you have it.\n$HOST = x86_64",
                Origin::Paragraph
            )
        );
    }

    #[test]
    fn a_chain_follows_any_line() {
        let m = parse("error from HTML pipeline\n\nCaused by:\n    0: error from asset pipeline\n    1: cargo artifacts not found for target crate\n");
        let texts: Vec<(&str, u32)> = m.iter().map(|m| (m.text.as_str(), m.layer)).collect();
        assert_eq!(
            texts,
            vec![
                ("error from HTML pipeline", 0),
                ("error from asset pipeline", 1),
                ("cargo artifacts not found for target crate", 2)
            ]
        );
    }

    #[test]
    fn test_runner_and_clap_output() {
        let text = "running 1 test\ntest tests::t ... FAILED\n\nfailures:\n\n---- tests::t stdout ----\n\nthread 'tests::t' (16141) panicked at src/lib.rs:22:23:\nindex 5 is too big\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\nfailures:\n    tests::t\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        let m = parse(text);
        assert_eq!(m[0].text, "index 5 is too big");
        let clap = parse("error: unexpected argument '--foo' found\n\nUsage: app [OPTIONS]\n\nFor more information, try '--help'.\n");
        assert_eq!(clap.len(), 1);
        assert_eq!(clap[0].text, "unexpected argument '--foo' found");
    }

    #[test]
    fn report_excerpts_are_decoration_and_the_reason_a_layer_below() {
        let toml = "TOML parse error at line 1, column 8\n  |\n1 | host = db1\n  |        ^^^\nstring values must be quoted, expected literal string\n";
        let m = parse(toml);
        let texts: Vec<(&str, u32)> = m.iter().map(|m| (m.text.as_str(), m.layer)).collect();
        assert_eq!(
            texts,
            vec![
                ("TOML parse error at line 1, column 8", 0),
                ("string values must be quoted, expected literal string", 1)
            ]
        );
        let miette = "Error: \n  × Expected integer\n   ╭─[2:6]\n 1 │ title \"a\"\n   ·      ──┬─\n   ╰────\n  help: A valid value was partially parsed, but was not followed by a value\n        terminator. Did you want a space here?\n\nError: \n  × Expected end of document\n";
        let m = parse(miette);
        let texts: Vec<&str> = m.iter().map(|m| m.text.as_str()).collect();
        // The help's second line is the help's, not a message.
        assert_eq!(texts, vec!["Expected integer", "Expected end of document"]);
        // A report in tracing's `error=` field: its reason is below the field.
        let log = "2026-12-02T22:15:31.844053Z ERROR app: failed to load config error=TOML parse error at line 2, column 8\n  |\n2 | port = 70000\n  |        ^^^^^\ninvalid value: integer `70000`, expected u16\n";
        let layers: Vec<u32> = parse(log).iter().map(|m| m.layer).collect();
        assert_eq!(layers, vec![0, 1, 2]);
    }

    #[test]
    fn a_log_lines_target_is_kept() {
        for (line, target) in [
            (
                "[2026-12-03T10:00:00Z ERROR hyper::proto::h1::dispatch] channel closed",
                "hyper::proto::h1::dispatch",
            ),
            (
                "2026-12-03T10:00:00.123Z ERROR my_app::net{peer=7}: channel closed",
                "my_app::net",
            ),
            (
                r#"{"level":"ERROR","fields":{"message":"channel closed"},"target":"tokio::sync"}"#,
                "tokio::sync",
            ),
        ] {
            let m = parse(line);
            assert_eq!(m[0].text, "channel closed", "{line}");
            assert_eq!(m[0].target.as_deref(), Some(target), "{line}");
        }
        // An error field is the event's cause, not the target's own text.
        let m = parse("2026-12-03T10:00:00Z ERROR app::db: query failed error=connection reset");
        assert_eq!(
            (m[0].target.as_deref(), m[1].target.as_deref()),
            (Some("app::db"), None)
        );
        assert_eq!(parse("[ERROR] channel closed")[0].target, None);
    }

    #[test]
    fn tracings_pretty_format_places_the_event_on_the_line_below() {
        let m = parse("  2023-10-25T14:07:00.266255Z TRACE actix_http::h1::dispatcher:   head timer is active\n    at /u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/actix-http-3.4.0/src/h1/dispatcher.rs:1237 on main\n");
        assert_eq!(m.len(), 1, "{m:?}");
        let l = m[0].location.as_ref().unwrap();
        let r = l.registry.as_ref().unwrap();
        assert_eq!(
            (r.name.as_str(), r.path.as_str(), l.line),
            ("actix-http", "src/h1/dispatcher.rs", 1237)
        );
        assert_eq!(m[0].target.as_deref(), Some("actix_http::h1::dispatcher"));
    }

    #[test]
    fn a_cause_is_read_as_output_of_its_own() {
        // One cause (unnumbered): every indented line is it, a report here.
        let m = parse("Error: could not evaluate expression\n\nCaused by:\n     --> input.calc:1:5\n      |\n    1 | 1 +\n      |     ^---\n      |\n      = expected number\n");
        let texts: Vec<(&str, u32)> = m.iter().map(|m| (m.text.as_str(), m.layer)).collect();
        assert_eq!(
            texts,
            vec![
                ("could not evaluate expression", 0),
                ("--> input.calc:1:5", 1),
                ("expected number", 2)
            ]
        );
        let report = m[2].report.as_deref().unwrap();
        assert!(
            report.starts_with(" --> input.calc:1:5\n") && report.ends_with("= expected number")
        );
        assert_eq!(m[1].report, None);
        // Numbered causes, one continued on a second line.
        let m = parse(
            "Error: a\n\nCaused by:\n    0: first cause\n       goes on\n    1: second cause\n",
        );
        let texts: Vec<(&str, u32)> = m.iter().map(|m| (m.text.as_str(), m.layer)).collect();
        assert_eq!(
            texts,
            vec![
                ("a", 0),
                ("first cause", 1),
                ("goes on", 1),
                ("second cause", 2)
            ]
        );
    }

    #[test]
    fn json_logs_and_error_fields_are_layers() {
        let m = parse(
            r#"{"timestamp":"2026-12-02T22:15:31Z","level":"ERROR","fields":{"message":"enqueue failed","error":"sending on a disconnected channel"},"target":"app"}"#,
        );
        let texts: Vec<(&str, u32)> = m.iter().map(|m| (m.text.as_str(), m.layer)).collect();
        assert_eq!(
            texts,
            vec![
                ("enqueue failed", 0),
                ("sending on a disconnected channel", 1)
            ]
        );
        let m = parse("2026-12-02T22:15:31.844053Z ERROR app: failed to load config error=invalid value: integer `70000`, expected u16");
        assert_eq!(m[0].text, "failed to load config");
        assert_eq!(
            (m[1].text.as_str(), m[1].layer),
            ("invalid value: integer `70000`, expected u16", 1)
        );
    }

    #[test]
    fn anyhow_backtrace_frames_go_to_the_last_layer() {
        let text = "Error: loading key\n\nCaused by:\n    Odd number of digits\n\nStack backtrace:\n   0: hex::decode\n             at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/hex-0.4.3/src/lib.rs:10:14\n   1: app::main\n             at ./src/main.rs:7:47\n";
        let m = parse(text);
        assert_eq!(m.len(), 2, "{m:?}");
        assert_eq!(m[1].frames.len(), 2);
        assert_eq!(m[1].frames[0].symbol.as_deref(), Some("hex::decode"));
    }

    #[test]
    fn frame_symbols_name_crate_and_item() {
        let p = |s: &str| symbol_path(s).map(|(k, p)| (k, p.join("::")));
        assert_eq!(
            p("glam::f32::vec3::Vec3::normalize"),
            Some(("glam".into(), "f32::vec3::Vec3::normalize".into()))
        );
        assert_eq!(
            p("<slab::Slab<T> as core::ops::index::Index<usize>>::index"),
            Some(("slab".into(), "Slab::index".into()))
        );
        assert_eq!(
            p("rust_decimal::arithmetic_impls::<impl core::ops::arith::Div for &rust_decimal::decimal::Decimal>::div"),
            Some(("rust_decimal".into(), "arithmetic_impls::div".into()))
        );
        assert_eq!(p("main"), None);
    }

    #[test]
    fn garbage_is_refused_or_harmless() {
        assert_eq!(decode(b"\x00\x01\x02binary"), Err(InputError::Binary));
        assert_eq!(
            decode(&[0xff, 0xfe, b'a', b'b', b'c', b'd', b'e']),
            Err(InputError::NotUtf8)
        );
        assert!(parse("").is_empty());
        let big = "x".repeat(10 << 20);
        let text = decode(big.as_bytes()).unwrap();
        assert_eq!(text.len(), MAX_INPUT);
        assert_eq!(parse(&text).len(), 1);
        let many = "line\n".repeat(10_000);
        assert_eq!(parse(&many).len(), MAX_MESSAGES);
        // A huge excerpt is decoration, and no report to match whole.
        let huge = format!("header\n{}reason\n", "  | code\n".repeat(100_000));
        let m = parse(&huge);
        assert_eq!(m.len(), 2);
        assert!(m[1].report.is_none());
        // Chains nested in causes stay bounded.
        let deep = format!("Error: a\n\nCaused by:\n{}", "    x\n".repeat(10_000));
        assert!(parse(&deep).len() <= MAX_MESSAGES);
        let mut nested = String::from("Error: in\n");
        for d in 1..300 {
            let pad = " ".repeat(4 * d);
            nested = format!(
                "Error: e{d}\n{pad}\nCaused by:\n{}",
                nested
                    .lines()
                    .map(|l| format!("{pad}{l}\n"))
                    .collect::<String>()
            );
            if nested.len() > 1 << 20 {
                break;
            }
        }
        assert!(!parse(&nested).is_empty());
    }

    #[test]
    fn a_cut_traceback_with_a_message_of_several_paragraphs() {
        // The header was cut off; the exception line has no text; the
        // message is a banner and indented paragraphs; the program's
        // output after the traceback is not part of it.
        let text = "  File \"/env/lib/python3.10/site-packages/nltk/data.py\", line 583, in find\n\
                    \x20   raise LookupError(resource_not_found)\n\
                    LookupError: \n\
                    ****\n\
                    \x20 Resource punkt not found.\n\
                    \n\
                    \x20 >>> nltk.download('punkt')\n\
                    \n\
                    \x20 Searched in:\n\
                    \x20   - '/root/nltk_data'\n\
                    ****\n\
                    \n\
                    done\n";
        let m = parse(text);
        assert_eq!(m[0].origin, Origin::Exception, "{m:?}");
        assert_eq!(m[0].location.as_ref().unwrap().line, 583);
        assert_eq!(
            m[0].text,
            "\n****\n  Resource punkt not found.\n\n  >>> nltk.download('punkt')\n\n  Searched in:\n    - '/root/nltk_data'\n****"
        );
        assert_eq!(m.last().unwrap().text, "done");
    }

    #[test]
    fn djangos_debug_page_names_the_place() {
        let text = "OperationalError at /\nno such table: downloads\nRequest Method:\tGET\n\
                    Django Version:\t1.8\nException Type:\tOperationalError\n\
                    Exception Location:\t/usr/lib/python2.7/dist-packages/django/db/backends/sqlite3/base.py in execute, line 318\n";
        let m = parse(text);
        let located = m.iter().find(|m| m.origin == Origin::Location).unwrap();
        let at = located.location.as_ref().unwrap();
        assert_eq!(at.line, 318);
        assert_eq!(
            at.package.as_deref(),
            Some("django/db/backends/sqlite3/base.py")
        );
    }
}
