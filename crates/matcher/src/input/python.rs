//! Python's output: tracebacks (3.x layouts with `^^^^`/`~~~` markers,
//! chained with `During handling…` / `The above exception…`, IPython's
//! `File PATH:LINE, in f` and `---> N` frames, exception groups' `| `
//! margins, frozen frames without source lines), the `Type: message` line
//! alone, `warnings` lines (`path:line: Category: message`), the logging
//! module's formats (`LEVEL:name:message`, `asctime LEVEL name: message`,
//! `asctime - name - LEVEL - message`, Flask's `LEVEL in module:`), and
//! pytest's `E   ` lines with the `path:line: Type` under them.
//!
//! A frame's path names an installed package's file when it runs through
//! `site-packages`, `dist-packages` or an `.egg` folder: the path below is
//! the file as the package ships it (`requests/models.py`).

use super::location::Location;
use super::Level;
use regex::Regex;
use std::sync::OnceLock;

/// One exception of a traceback (or a pytest report): its type, text, and
/// frames, innermost first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exception {
    /// The exception's type as printed (`requests.exceptions.InvalidSchema`).
    pub kind: String,
    /// Its message (empty for an exception raised without one).
    pub text: String,
    /// Where it was raised: the innermost frame.
    pub location: Option<Location>,
    /// The outer frames, innermost first.
    pub frames: Vec<Location>,
}

/// A line the logging or warnings module printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    /// The message.
    pub text: String,
    /// The logger's name (`urllib3.connectionpool`).
    pub target: Option<String>,
    /// The level; a warning is [`Level::Warn`].
    pub level: Level,
    /// Where a warning says it was issued.
    pub location: Option<Location>,
}

struct Patterns {
    frame: Regex,
    /// A frame's head anywhere in a line (a flattened traceback).
    inline_frame: Regex,
    /// An exception's `Type: ` anywhere in a line, after a space.
    inline_exception: Regex,
    ipython_frame: Regex,
    old_ipython_frame: Regex,
    pytest_at: Regex,
    exception: Regex,
    warning: Regex,
    docutils: Regex,
    log_basic: Regex,
    log_flask: Regex,
    log_dashes: Regex,
    log_name_first: Regex,
    log_bracketed: Regex,
    log_name_bracketed: Regex,
    django_location: Regex,
}

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        inline_frame: Regex::new(r#"File "[^"]+", line \d+, in [\w<>.]+"#).expect("valid regex"),
        inline_exception: Regex::new(
            r"\s(?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Fault): ",
        )
        .expect("valid regex"),
        frame: Regex::new(r#"^\s*File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<func>.+))?\s*$"#)
            .expect("valid regex"),
        ipython_frame: Regex::new(r"^\s*File (?P<path>\S.*?\.pyx?):(?P<line>\d+)(?:, in (?P<func>.+))?\s*$")
            .expect("valid regex"),
        old_ipython_frame: Regex::new(r"^(?P<path>\S.*?\.py) in (?P<func>[\w<>.]+)\(.*\)?\s*$")
            .expect("valid regex"),
        pytest_at: Regex::new(r"^(?P<path>\S+\.pyx?):(?P<line>\d+): (?:in \S+|(?P<kind>[A-Za-z_][\w.]*))\s*$")
            .expect("valid regex"),
        exception: Regex::new(
            r"^(?P<kind>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?::(?: (?P<msg>.*))?)?$",
        )
        .expect("valid regex"),
        warning: Regex::new(r"^\s*(?P<path>\S.*?\.pyx?):(?P<line>\d+): (?P<cat>[A-Z]\w*Warning): (?P<msg>.*\S)\s*$")
            .expect("valid regex"),
        docutils: Regex::new(r"^(?P<path>\S+):(?P<line>\d+): \((?P<level>[A-Z]+)/\d\) (?P<msg>.*\S)\s*$")
            .expect("valid regex"),
        log_basic: Regex::new(r"^(?P<level>CRITICAL|ERROR|WARNING|INFO|DEBUG):(?P<name>[\w.-]*):(?P<msg>.*\S)\s*$")
            .expect("valid regex"),
        log_flask: Regex::new(
            r"^\[[^\]]+\] (?P<level>CRITICAL|ERROR|WARNING|INFO|DEBUG) in (?P<name>[\w.]+): (?P<msg>.*\S)\s*$",
        )
        .expect("valid regex"),
        log_dashes: Regex::new(
            r"^(?:(?P<name0>[\w.]+) - )?\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?: - (?:[\w<>]+ in )?(?P<name>[\w.]+))? - (?P<level>CRITICAL|ERROR|WARNING|INFO|DEBUG) - (?P<msg>.*\S)\s*$",
        )
        .expect("valid regex"),
        django_location: Regex::new(
            r"^\s*Exception Location:\s+(?P<path>\S.*?\.py) in (?P<func>[\w<>.]+), line (?P<line>\d+)\s*$",
        )
        .expect("valid regex"),
        // gunicorn's `[%(asctime)s] [%(process)d] [%(levelname)s] %(message)s`
        // (older: the time unbracketed), and kin without the process.
        log_bracketed: Regex::new(
            r"^(?:\[[^\]]*\d\d:\d\d:\d\d[^\]]*\]|\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?: [+-]\d{4})?)\s+(?:\[\d+\]\s+)?\[(?P<level>CRITICAL|ERROR|WARNING|INFO|DEBUG)\]\s+(?P<msg>.*\S)\s*$",
        )
        .expect("valid regex"),
        // scrapy's `%(asctime)s [%(name)s] %(levelname)s: %(message)s`.
        log_name_bracketed: Regex::new(
            r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?: [+-]\d{4})? \[(?P<name>[\w.-]+)\] (?P<level>CRITICAL|ERROR|WARNING|INFO|DEBUG): (?P<msg>.*\S)\s*$",
        )
        .expect("valid regex"),
        log_name_first: Regex::new(
            r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\s+(?:\[?(?P<level>CRITICAL|ERROR|WARNING|INFO|DEBUG)\]?)\s+(?:(?P<name>[A-Za-z_][\w.]*\.[\w.]+|[a-z_][\w]*):\s+)?(?P<msg>.*\S)\s*$",
        )
        .expect("valid regex"),
    })
}

/// A traceback's lines as Python printed them, where a paste lost its
/// line breaks (a chat, an issue form: every frame, its source line and
/// the exception on one line) or a console wrapped a frame's path over
/// two lines (`File "…\site-pack` / `ages\pkg\main.py", line 176, in f`).
pub fn repair(lines: Vec<String>) -> Vec<String> {
    let (frame, exception) = (&patterns().inline_frame, &patterns().inline_exception);
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut it = lines.into_iter().peekable();
    while let Some(line) = it.next() {
        let t = line.trim_start();
        // A frame's path cut by the console's width.
        if t.starts_with("File \"") && t.matches('"').count() == 1 {
            if let Some(next) = it.peek().filter(|n| n.contains("\", line ")) {
                let joined = format!("{}{}", line.trim_end(), next.trim_start());
                it.next();
                out.push(joined);
                continue;
            }
        }
        let frames: Vec<(usize, usize)> = frame
            .find_iter(&line)
            .map(|m| (m.start(), m.end()))
            .collect();
        if frames.len() < 2 {
            out.push(line);
            continue;
        }
        // One line per frame and per source line, then the exception.
        let head = line[..frames[0].0].trim();
        if !head.is_empty() {
            out.push(head.to_string());
        }
        for (k, &(start, end)) in frames.iter().enumerate() {
            out.push(format!("  {}", &line[start..end]));
            let until = frames.get(k + 1).map_or(line.len(), |f| f.0);
            let mut rest = &line[end..until];
            if k + 1 == frames.len() {
                if let Some(e) = exception.find(rest) {
                    let source = rest[..e.start()].trim();
                    if !source.is_empty() {
                        out.push(format!("    {source}"));
                    }
                    rest = "";
                    out.push(line[end + e.start()..].trim().to_string());
                }
            }
            let source = rest.trim().trim_end_matches(['^', '~', ' ']).trim();
            if !source.is_empty() {
                out.push(format!("    {source}"));
            }
        }
    }
    out
}

/// The path below an installed-packages folder (`site-packages`,
/// `dist-packages`, an `.egg` folder, a frozen app's bundle), as the
/// package ships the file.
pub fn package_path(path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
    // A zipped egg's frames print the folder it was built in:
    // `build/bdist.linux-x86_64/egg/pkg/mod.py`.
    let built_egg = |i: usize| segs[i] == "egg" && i > 0 && segs[i - 1].starts_with("bdist.");
    let at = (0..segs.len()).rev().find(|&i| {
        matches!(segs[i], "site-packages" | "dist-packages")
            || segs[i].ends_with(".egg")
            || built_egg(i)
    })?;
    let rest = &segs[at + 1..];
    (!rest.is_empty() && rest.last().is_some_and(|f| f.ends_with(".py"))).then(|| rest.join("/"))
}

/// A location a Python frame prints.
fn located(path: &str, line: &str) -> Option<Location> {
    Some(Location {
        path: path.to_string(),
        line: line.parse().ok()?,
        column: None,
        registry: None,
        package: package_path(path),
    })
}

/// The place Django's debug page names (`Exception Location: PATH in
/// FUNC, line N`, under `Exception Value:`).
pub fn exception_location(line: &str) -> Option<Location> {
    let c = patterns().django_location.captures(line)?;
    located(&c["path"], &c["line"])
}

/// True when a line can only be Python's: a traceback's first line,
/// pytest's `E   ` line, a `warnings` or logging line of Python's own
/// formats, an exception line, a frame (`File "…", line N, in f`).
pub fn marks_python(line: &str) -> bool {
    let p = patterns();
    let t = line.trim_end();
    is_traceback_start(t)
        || p.frame.is_match(strip_margin(t))
        || p.django_location.is_match(t)
        || t.starts_with("E   ")
        || p.warning.is_match(t)
        || p.log_basic.is_match(t)
        || p.log_flask.is_match(t)
        || p.log_dashes.is_match(t)
        || p.docutils.is_match(t.trim())
        || p.log_name_first
            .captures(t)
            .is_some_and(|c| c.name("name").is_some_and(|n| n.as_str().contains('.')))
        || exception_line(t, true).is_some()
}

/// True for a file of Python itself (its standard library, a frozen
/// module), not of an installed package or the program.
pub fn is_runtime_path(path: &str) -> bool {
    let p = path.replace('\\', "/").to_ascii_lowercase();
    if package_path(path).is_some() {
        return false;
    }
    p.starts_with("<frozen") || (p.contains("python") && p.contains("/lib/"))
}

/// True when a line opens a traceback.
pub fn is_traceback_start(line: &str) -> bool {
    let t = strip_margin(line).trim();
    t == "Traceback (most recent call last):"
        || t.ends_with("Traceback (most recent call last)")
        || t.ends_with("Traceback (most recent call last):")
}

/// An exception group's `| ` margin and `+-+-` rules, removed.
fn strip_margin(line: &str) -> &str {
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix("| ") {
        return rest;
    }
    if t.starts_with("+ ") || t.starts_with("+-") {
        return t.trim_start_matches(['+', '-', ' ']);
    }
    line
}

/// True when a line is a traceback's chaining sentence.
pub fn is_chain_line(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("During handling of the above exception")
        || t.starts_with("The above exception was the direct cause")
}

/// The source line printed above the exception line at `i` (under
/// 3.11's `^^^^` markers, and a blank line a mangled paste put between,
/// if any) when no frame line names its place: a traceback pasted from its
/// last frame's source line on.
pub fn raising_line(lines: &[&str], i: usize) -> Option<String> {
    let mut k = i.checked_sub(1)?;
    let is_markers = |l: &str| {
        let t = l.trim();
        !t.is_empty() && t.chars().all(|c| matches!(c, '^' | '~' | ' '))
    };
    if lines[k].trim().is_empty() {
        k = k.checked_sub(1)?;
    }
    if is_markers(lines[k]) {
        k = k.checked_sub(1)?;
    }
    let line = strip_margin(lines[k]);
    let source = line.trim();
    let printed = line.starts_with(char::is_whitespace)
        && !source.is_empty()
        && frame(line).is_none()
        && !is_markers(line);
    let framed = k.checked_sub(1).is_some_and(|f| frame(lines[f]).is_some());
    (printed && !framed).then(|| source.to_string())
}

/// A frame line: the location, if it has one.
fn frame(line: &str) -> Option<Option<Location>> {
    let p = patterns();
    let t = strip_margin(line);
    if let Some(c) = p.frame.captures(t).or_else(|| p.ipython_frame.captures(t)) {
        return Some(located(&c["path"], &c["line"]));
    }
    if t.trim_start().starts_with("Cell In[") || t.trim_start().starts_with("Input In [") {
        return Some(None);
    }
    None
}

/// The exception line (`pkg.Error: message`, `Error` alone): type and
/// message. `strict` asks for a name that reads as an exception's (a
/// dotted path, or one ending in `Error`, `Exception`, `Warning`…), as a
/// line outside a traceback must.
pub fn exception_line(line: &str, strict: bool) -> Option<(String, String)> {
    let t = line.trim_end();
    if t.starts_with(char::is_whitespace) && strict {
        return None;
    }
    let c = patterns().exception.captures(t.trim_start())?;
    let kind = c["kind"].to_string();
    let last = kind.rsplit('.').next().unwrap_or(&kind);
    let named = [
        "Error",
        "Exception",
        "Warning",
        "Exit",
        "Interrupt",
        "Failure",
        "Fault",
        "Timeout",
        "Iteration",
        "Invalid",
        "NotFound",
        "Refused",
    ]
    .iter()
    .any(|s| last.ends_with(s));
    let camel = last.starts_with(|ch: char| ch.is_ascii_uppercase());
    // Alone on a line, a bare name (`CapacityError`) is as likely another
    // language's value as Python's exception: it takes a message or a
    // module path.
    let has_msg = c.name("msg").is_some();
    let ok = if strict {
        (named && camel && (has_msg || kind.contains('.')))
            || (kind.contains('.') && camel && has_msg)
    } else {
        camel || kind.contains('.')
    };
    if !ok || matches!(last, "Traceback" | "Error" | "Warning") && !kind.contains('.') && strict {
        return None;
    }
    let msg = c.name("msg").map_or("", |m| m.as_str());
    // Twisted prints a `Failure` as `Failure: pkg.mod.Error: message`: the
    // exception is the one it wraps.
    if kind == "Failure" {
        if let Some((inner, text)) = exception_line(msg, true).filter(|(k, _)| k.contains('.')) {
            return Some((inner, text));
        }
    }
    Some((kind, msg.to_string()))
}

/// The further lines of a `warnings` message that began on the line
/// before `from`: the module prints the message whole, then the source
/// line `stacklevel` points at, indented by two spaces. The lines up to
/// that source line (kept only when one is found before other Python
/// output) and the index past it.
pub fn warning_continuation<'a>(lines: &[&'a str], from: usize) -> Option<(Vec<&'a str>, usize)> {
    for (k, line) in lines.iter().enumerate().skip(from).take(MAX_WARNING_LINES) {
        let source = line
            .strip_prefix("  ")
            .is_some_and(|r| r.starts_with(|c: char| !c.is_whitespace()));
        if source {
            return Some((lines[from..k].to_vec(), k + 1));
        }
        if !line.starts_with(char::is_whitespace) && marks_python(line) {
            return None;
        }
    }
    None
}

/// Lines of one warning's message read at most.
const MAX_WARNING_LINES: usize = 200;

/// An `OSError`'s text without the `[Errno N] ` (`[WinError N] `) that
/// Python's `str` of it puts before the message its raiser gave.
pub fn without_errno(text: &str) -> &str {
    let t = text.trim_start();
    let Some(rest) = t
        .strip_prefix("[Errno ")
        .or_else(|| t.strip_prefix("[WinError "))
    else {
        return text;
    };
    match rest.split_once("] ") {
        Some((n, msg))
            if n.trim_start_matches('-')
                .bytes()
                .all(|b| b.is_ascii_digit())
                && !n.is_empty() =>
        {
            msg
        }
        _ => text,
    }
}

/// The message an exception's printed text carries: `str()` of an
/// exception raised with several arguments prints their tuple
/// (`('msg', Attribute(...))`, `(2003, "Can't connect…")`), and
/// `KeyError` prints its argument's `repr` (`"['a'] not found"`); the
/// message is the first string then,
/// when it reads as a sentence (a key alone, `'a'`, stays as printed).
pub fn exception_text(text: &str) -> Option<String> {
    let t = text.trim();
    let (s, rest) = match t.strip_prefix('(') {
        Some(args) => {
            // Numbers and constants before it (`(2003, "Can't connect…")`).
            let mut args = args.trim_start();
            while !args.starts_with(['\'', '"']) {
                let (item, more) = args.split_once(',')?;
                let item = item.trim();
                let literal =
                    item.parse::<f64>().is_ok() || matches!(item, "None" | "True" | "False");
                if !literal {
                    return None;
                }
                args = more.trim_start();
            }
            let (s, rest) = string_repr(args)?;
            let rest = rest.trim_start();
            (rest.starts_with(',') || rest.starts_with(')')).then_some((s, rest))?
        }
        None => string_repr(t)?,
    };
    let whole = t.starts_with('(') || rest.is_empty();
    (whole && s.trim().contains(' ')).then_some(s)
}

/// The string a Python `repr` of a `str` at the start of `s` prints
/// (`'it''s'` escapes decoded), and what follows it.
fn string_repr(s: &str) -> Option<(String, &str)> {
    let q = s.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let mut out = String::new();
    let mut chars = s.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                let (_, e) = chars.next()?;
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    '\\' | '\'' | '"' => out.push(e),
                    other => {
                        out.push('\\');
                        out.push(other);
                    }
                }
            }
            c if c == q => return Some((out, &s[i + 1..])),
            c => out.push(c),
        }
    }
    None
}

/// Reads a traceback from line `*i` (its `Traceback` line) through the
/// exception's message; `*i` ends after it.
pub fn traceback(lines: &[&str], i: &mut usize) -> Option<Exception> {
    frames_from(lines, i, *i + 1)
}

/// True when a line is a frame of a traceback whose header the paste cut
/// off (`File "…", line N, in f`, IPython's `File PATH:N, in f` or
/// `PATH in f(…)`).
pub fn is_frame(line: &str) -> bool {
    frame(line).is_some_and(|l| l.is_some())
        || patterns()
            .old_ipython_frame
            .captures(line.trim())
            .is_some_and(|c| c["path"].contains(['/', '\\']))
}

/// Reads a traceback's frames from line `from` on, then its exception.
pub fn frames_from(lines: &[&str], i: &mut usize, from: usize) -> Option<Exception> {
    let p = patterns();
    let mut j = from;
    let mut frames: Vec<Location> = Vec::new();
    let mut last: Option<Option<Location>> = None;
    while j < lines.len() {
        let raw = lines[j];
        let line = strip_margin(raw);
        let t = line.trim();
        if let Some(f) = frame(line) {
            if let Some(Some(prev)) = last.take() {
                frames.push(prev);
            }
            last = Some(f);
            j += 1;
            continue;
        }
        // Old IPython: `PATH in f(args)` then `--> N` on a source line.
        if let Some(c) = p.old_ipython_frame.captures(t) {
            let path = c["path"].to_string();
            let mut k = j + 1;
            let mut loc = None;
            while k < lines.len() && !lines[k].trim().is_empty() {
                let s = lines[k].trim_start();
                if let Some(n) = s.strip_prefix("-->").or_else(|| s.strip_prefix("--->")) {
                    let n: String = n
                        .trim_start()
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    loc = located(&path, &n);
                }
                k += 1;
            }
            if let Some(Some(prev)) = last.take() {
                frames.push(prev);
            }
            last = Some(loc);
            j = k;
            continue;
        }
        // Source lines, markers, repetition notes, IPython's rules, blanks
        // inside the frames: part of the traceback.
        if t.is_empty()
            || raw.starts_with(char::is_whitespace)
            || t.starts_with("[Previous line repeated")
            || t.starts_with("...")
            || t.chars().all(|c| matches!(c, '-' | '^' | '~' | '+' | '|'))
            || t.starts_with("-->")
            || t.starts_with("--->")
            || t.chars().next().is_some_and(|c| c.is_ascii_digit()) && last.is_some()
        {
            // An exception line indented (a paste's extra margin) ends the
            // frames as well, when it follows a frame's source line.
            if !t.is_empty() && raw.starts_with(char::is_whitespace) && last.is_some() {
                if let Some((kind, msg)) = exception_line(t, true) {
                    if !p.frame.is_match(t) {
                        return Some(finish(lines, i, j, kind, msg, last, frames));
                    }
                }
            }
            j += 1;
            continue;
        }
        if let Some((kind, msg)) = exception_line(t, false) {
            return Some(finish(lines, i, j, kind, msg, last, frames));
        }
        // Anything else: a frozen frame's source-less run ended, or noise.
        j += 1;
        if j - *i > 4000 {
            break;
        }
    }
    None
}

/// The exception at line `j` with its message's continuation lines: up
/// to a blank line, or past it while the text goes on indented (a
/// message of several paragraphs, as a banner or a list of places).
fn finish(
    lines: &[&str],
    i: &mut usize,
    j: usize,
    kind: String,
    msg: String,
    last: Option<Option<Location>>,
    mut frames: Vec<Location>,
) -> Exception {
    let mut text = msg;
    let mut k = j + 1;
    let ends = |t: &str| {
        is_chain_line(t)
            || is_traceback_start(t)
            || frame(t).is_some()
            || patterns().pytest_at.is_match(t.trim())
    };
    while k < lines.len() {
        let t = strip_margin(lines[k]).trim_end();
        if t.trim().is_empty() {
            let next = lines[k..].iter().position(|l| !l.trim().is_empty());
            let goes_on = next.is_some_and(|n| {
                let t = strip_margin(lines[k + n]);
                t.starts_with(char::is_whitespace) && !ends(t)
            });
            if !goes_on {
                break;
            }
            let n = next.unwrap_or(0);
            for _ in 0..n {
                text.push('\n');
            }
            k += n;
            continue;
        }
        if ends(t) {
            break;
        }
        text.push('\n');
        text.push_str(t);
        k += 1;
    }
    *i = k;
    frames.reverse();
    Exception {
        kind,
        text,
        location: last.flatten(),
        frames,
    }
}

/// pytest's `E   ` block from line `*i`: the exception and, from the
/// `path:line: Type` line after it, where it was raised.
pub fn pytest_error(lines: &[&str], i: &mut usize) -> Option<Exception> {
    let mut j = *i;
    let mut body: Vec<&str> = Vec::new();
    while j < lines.len() {
        let Some(rest) = lines[j].strip_prefix('E') else {
            break;
        };
        if !(rest.is_empty() || rest.starts_with(' ')) {
            break;
        }
        body.push(rest.strip_prefix(' ').unwrap_or(rest).trim_start());
        j += 1;
    }
    if body.is_empty() {
        return None;
    }
    let (kind, first) = exception_line(body[0], false).unwrap_or_default();
    let mut text = if kind.is_empty() {
        body[0].to_string()
    } else {
        first
    };
    for b in &body[1..] {
        text.push('\n');
        text.push_str(b);
    }
    // The location line follows, after a blank line.
    let mut location = None;
    let mut k = j;
    while k < lines.len() && k <= j + 2 {
        if let Some(c) = patterns().pytest_at.captures(lines[k].trim()) {
            location = located(&c["path"], &c["line"]);
            k += 1;
            break;
        }
        if !lines[k].trim().is_empty() {
            break;
        }
        k += 1;
    }
    *i = if location.is_some() { k } else { j };
    Some(Exception {
        kind,
        text,
        location,
        frames: Vec::new(),
    })
}

/// The statement pytest marks with `>` right above the `E   ` block that
/// starts at line `i`: where the exception was raised.
pub fn pytest_source_line(lines: &[&str], i: usize) -> Option<String> {
    let above = lines.get(i.checked_sub(1)?)?.trim_start();
    let source = above.strip_prefix('>')?.trim();
    (!source.is_empty()).then(|| source.to_string())
}

/// pytest's `path:line: in f` frame lines of a long report.
pub fn pytest_frame(line: &str) -> Option<Location> {
    let c = patterns().pytest_at.captures(line.trim())?;
    c.name("kind")
        .is_none()
        .then(|| located(&c["path"], &c["line"]))?
}

fn level(s: &str) -> Level {
    match s {
        "CRITICAL" | "ERROR" | "SEVERE" => Level::Error,
        "WARNING" => Level::Warn,
        "INFO" => Level::Info,
        _ => Level::Debug,
    }
}

/// A line of the `warnings` module (`path:line: Category: message`, or
/// `Category: message` when the location was cut), or of docutils'
/// reporter, or of a logging format.
pub fn logged(line: &str) -> Option<Logged> {
    let p = patterns();
    if let Some(c) = p.warning.captures(line) {
        return Some(Logged {
            text: c["msg"].to_string(),
            target: None,
            level: Level::Warn,
            location: located(&c["path"], &c["line"]),
        });
    }
    if let Some(c) = p.docutils.captures(line.trim()) {
        return Some(Logged {
            text: c["msg"].to_string(),
            target: None,
            level: level(&c["level"]),
            location: None,
        });
    }
    for re in [
        &p.log_basic,
        &p.log_flask,
        &p.log_dashes,
        &p.log_name_first,
        &p.log_bracketed,
        &p.log_name_bracketed,
    ] {
        if let Some(c) = re.captures(line.trim_end()) {
            let target = c
                .name("name")
                .or_else(|| c.name("name0"))
                .map(|n| n.as_str().to_string())
                .filter(|n| !n.is_empty() && n != "root");
            return Some(Logged {
                text: c["msg"].to_string(),
                target,
                level: level(&c["level"]),
                location: None,
            });
        }
    }
    None
}

/// The type and first line of the text of an exception another one
/// prints in parentheses before its own (`(sqlite3.OperationalError) no
/// such table: t`): a wrapper's way of showing its cause.
pub fn wrapped(text: &str) -> Option<(String, String)> {
    let rest = text.strip_prefix('(')?;
    let (kind, rest) = rest.split_once(") ")?;
    let dotted = kind.contains('.')
        && kind.split('.').all(|s| {
            s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
    let first = rest.lines().next()?.trim();
    (dotted && !first.is_empty()).then(|| (kind.to_string(), first.to_string()))
}

/// A frame or warning as a paste prints it: its place, the function a
/// frame names, and the source line under it when one is printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintedFrame {
    /// The location ([`Location::package`] set where the path tells).
    pub at: Location,
    /// The function a frame names (`in f`); none for a warning.
    pub function: Option<String>,
    /// The source line printed under it, trimmed (a zipped egg's or a
    /// frozen app's frame prints none).
    pub source: Option<String>,
}

/// Every frame (`File ".../site-packages/pkg/mod.py", line N, in f`,
/// pytest's `.../pkg/mod.py:N: in f`) and warning (`pkg/mod.py:N:
/// SomeWarning: …`), with the source line printed on the next, indented
/// line: what the file held at line N in the version that ran (a warning
/// without its line is left out: it names no function either). A path
/// below an installed-packages folder is the package's; a relative path
/// (a frozen app's frame, a warning printed relative to its folder) may
/// be one; another path's package is for the index to find.
pub fn printed_frames(text: &str) -> Vec<PrintedFrame> {
    let cleaned = super::prefix::clean(text);
    let mut out = Vec::new();
    for (i, line) in cleaned.iter().enumerate() {
        let p = patterns();
        let t = strip_margin(line);
        let framed = p.frame.captures(t).or_else(|| p.ipython_frame.captures(t));
        let function = framed
            .as_ref()
            .and_then(|c| c.name("func"))
            .map(|f| f.as_str().trim().to_string());
        let at = match framed {
            Some(c) => located(&c["path"], &c["line"]),
            None => p
                .warning
                .captures(t)
                .or_else(|| {
                    p.pytest_at
                        .captures(t.trim())
                        .filter(|c| c.name("kind").is_none())
                })
                .and_then(|c| located(&c["path"], &c["line"])),
        };
        let Some(mut at) = at else {
            continue;
        };
        at.package = at
            .package
            .take()
            .or_else(|| relative_package_path(&at.path));
        let next = cleaned.get(i + 1).map(|l| strip_margin(l));
        let source = next
            .filter(|next| {
                let source = next.trim();
                next.starts_with(char::is_whitespace)
                    && !source.is_empty()
                    && frame(next).is_none()
                    && !source
                        .chars()
                        .all(|c| matches!(c, '-' | '^' | '~' | '+' | '|'))
            })
            .map(|next| next.trim().to_string());
        if source.is_some() || function.is_some() {
            out.push(PrintedFrame {
                at,
                function,
                source,
            });
        }
    }
    out
}

/// Whether line `line` of a Python file sits in the body of the function
/// (or class body) a frame names, by indentation: `lines` are the file's
/// lines up to it, last is `line`. A module's own code is `<module>`.
/// Only the last dotted part of `function` is compared (a qualified
/// name). False when the file is shorter.
pub fn runs_in(lines: &[String], function: &str) -> bool {
    let name = function.rsplit('.').next().unwrap_or(function);
    let indent = |l: &str| l.len() - l.trim_start().len();
    let Some(last) = lines.last().filter(|l| !l.trim().is_empty()) else {
        return false;
    };
    let mut limit = indent(last);
    for l in lines.iter().rev().skip(1) {
        let t = l.trim_start();
        if limit == 0 {
            break;
        }
        if t.is_empty() || t.starts_with('#') || indent(l) >= limit {
            continue;
        }
        let header = t.strip_prefix("async ").unwrap_or(t);
        let defined = header
            .strip_prefix("def ")
            .or_else(|| header.strip_prefix("class "))
            .map(|r| r.trim_start());
        if let Some(rest) = defined {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            return &rest[..end] == name;
        }
        limit = indent(l);
    }
    limit == 0 && name == "<module>"
}

/// A relative path that may be a package's file as it ships
/// (`discord\http.py`, `setuptools/_distutils/version.py`): a folder and
/// a `.py` file, written with `/`.
fn relative_package_path(path: &str) -> Option<String> {
    let absolute = path.starts_with(['/', '\\', '.', '<']) || path.as_bytes().get(1) == Some(&b':');
    let segs: Vec<&str> = path.split(['/', '\\']).collect();
    let fits = segs.len() >= 2
        && segs.iter().all(|s| !s.is_empty() && *s != "..")
        && path.ends_with(".py");
    (!absolute && fits).then(|| segs.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flattened_or_wrapped_traceback_is_read_again() {
        let flat = "File \"C:\\a\\main.py\", line 4, in <module> from x import y File \"C:\\P\\site-packages\\pydantic\\main.py\", line 175, in __init__ self.v.validate_python(data) pydantic_core._pydantic_core.ValidationError: 2 validation errors for Settings";
        let lines = repair(vec![flat.to_string()]);
        assert_eq!(
            lines,
            vec![
                "  File \"C:\\a\\main.py\", line 4, in <module>",
                "    from x import y",
                "  File \"C:\\P\\site-packages\\pydantic\\main.py\", line 175, in __init__",
                "    self.v.validate_python(data)",
                "pydantic_core._pydantic_core.ValidationError: 2 validation errors for Settings",
            ]
        );
        let wrapped = vec![
            " File \"C:\\Python311\\Lib\\site-pack".to_string(),
            "ages\\pydantic\\main.py\", line 176, in __init__".to_string(),
        ];
        assert_eq!(
            repair(wrapped),
            vec![" File \"C:\\Python311\\Lib\\site-packages\\pydantic\\main.py\", line 176, in __init__"]
        );
    }

    #[test]
    fn an_os_errors_errno_is_not_its_raisers_message() {
        assert_eq!(
            without_errno("[Errno 101] Cannot connect to host a:80 ssl:False"),
            "Cannot connect to host a:80 ssl:False"
        );
        assert_eq!(
            without_errno("[WinError 10061] No connection"),
            "No connection"
        );
        assert_eq!(without_errno("[Errno x] kept"), "[Errno x] kept");
        assert_eq!(without_errno("plain"), "plain");
    }

    fn lines(s: &str) -> Vec<&str> {
        s.lines().collect()
    }

    #[test]
    fn a_traceback_names_the_innermost_frame() {
        let text = r#"Traceback (most recent call last):
  File "/home/dev/app/scripts/requests_cases.py", line 9, in invalid_schema
    requests.get("localhost:8000/api/items", timeout=2)
  File "/home/dev/.venv/lib/python3.11/site-packages/requests/sessions.py", line 881, in get_adapter
    raise InvalidSchema(f"No connection adapters were found for {url!r}")
requests.exceptions.InvalidSchema: No connection adapters were found for 'localhost:8000/api/items'
"#;
        let l = lines(text);
        let mut i = 0;
        let e = traceback(&l, &mut i).unwrap();
        assert_eq!(e.kind, "requests.exceptions.InvalidSchema");
        assert_eq!(
            e.text,
            "No connection adapters were found for 'localhost:8000/api/items'"
        );
        let loc = e.location.unwrap();
        assert_eq!(loc.line, 881);
        assert_eq!(loc.package.as_deref(), Some("requests/sessions.py"));
        assert_eq!(e.frames.len(), 1);
        assert_eq!(e.frames[0].package, None);
        assert_eq!(i, l.len());
    }

    #[test]
    fn windows_frozen_and_ipython_frames() {
        let text = "Traceback (most recent call last):\n  File \"C:\\Py37\\lib\\site-packages\\websockets\\protocol.py\", line 989, in keepalive_ping\n\tping_waiter, self.ping_timeout, loop=self.loop\n  File \"discord\\http.py\", line 807, in static_login\ndiscord.errors.LoginFailure: Improper token has been passed.";
        let l = lines(text);
        let e = traceback(&l, &mut 0).unwrap();
        assert_eq!(e.location.unwrap().path, "discord\\http.py");
        assert_eq!(
            e.frames[0].package.as_deref(),
            Some("websockets/protocol.py")
        );
        let ipy = "---------------------------------------------------------------------------\nValueError                                Traceback (most recent call last)\nCell In[3], line 1\n----> 1 f()\nFile ~/.venv/lib/python3.11/site-packages/pkg/mod.py:42, in f()\n     41 def f():\n---> 42     raise ValueError(\"bad\")\nValueError: bad";
        let l = lines(ipy);
        let mut i = 1;
        let e = traceback(&l, &mut i).unwrap();
        assert_eq!(e.text, "bad");
        assert_eq!(e.location.unwrap().package.as_deref(), Some("pkg/mod.py"));
    }

    #[test]
    fn exception_lines() {
        assert_eq!(
            exception_line("requests.exceptions.MissingSchema: Invalid URL 'x'", true),
            Some((
                "requests.exceptions.MissingSchema".into(),
                "Invalid URL 'x'".into()
            ))
        );
        assert_eq!(
            exception_line("KeyError: 'a'", true),
            Some(("KeyError".into(), "'a'".into()))
        );
        assert_eq!(
            exception_line("builtins.StopIteration", true),
            Some(("builtins.StopIteration".into(), String::new()))
        );
        assert_eq!(
            exception_line("StopIteration", false),
            Some(("StopIteration".into(), String::new()))
        );
        // Alone, a bare name may be any language's value.
        assert_eq!(exception_line("CapacityError", true), None);
        // Twisted's `Failure` names the exception it wraps.
        assert_eq!(
            exception_line(
                "Failure: twisted.internet.error.TimeoutError: User timeout caused connection failure.",
                true
            ),
            Some((
                "twisted.internet.error.TimeoutError".to_string(),
                "User timeout caused connection failure.".to_string()
            ))
        );
        for not in [
            "Error: no such option: -h",
            "Usage: export [OPTIONS]",
            "note: run with `RUST_BACKTRACE=1`",
            "thread 'main' panicked at src/main.rs:1:1:",
            "Hello: world",
        ] {
            assert_eq!(exception_line(not, true), None, "{not}");
        }
    }

    #[test]
    fn an_exception_of_several_arguments_says_its_first() {
        // attrs raises `ValueError(msg, attr, options, value)`.
        let t = "(\"'proto' must be in ['tcp', 'udp'] (got 'icmp')\", Attribute(name='proto'), ['tcp', 'udp'], 'icmp')";
        assert_eq!(
            exception_text(t).as_deref(),
            Some("'proto' must be in ['tcp', 'udp'] (got 'icmp')")
        );
        // `KeyError` prints its argument's repr.
        assert_eq!(
            exception_text("\"['price'] not found in axis\"").as_deref(),
            Some("['price'] not found in axis")
        );
        assert_eq!(
            exception_text("'it\\'s gone away'").as_deref(),
            Some("it's gone away")
        );
        // A key alone, or a quote that does not hold the whole text.
        assert_eq!(exception_text("'price'"), None);
        assert_eq!(exception_text("'a b' is not 'c d'"), None);
        assert_eq!(exception_text("(1, 2)"), None);
    }

    #[test]
    fn a_warning_message_runs_to_its_source_line() {
        let text = "/app/x.py:14: MarkupResemblesLocatorWarning: The input looks like a filename.\n\nIf you meant to:\n\n    filehandle = open(name)\n    \n  BeautifulSoup(\"index.html\")\nnext";
        let l = lines(text);
        let (more, end) = warning_continuation(&l, 1).unwrap();
        assert_eq!(
            more.join("\n").trim(),
            "If you meant to:\n\n    filehandle = open(name)"
        );
        assert_eq!(l[end], "next");
        // One line, then its source line.
        let l = lines("/a.py:1: UserWarning: w\n  f()\nWARNING:x:y");
        assert_eq!(warning_continuation(&l, 1), Some((vec![], 2)));
        // No source line before the next record: the message is one line.
        let l = lines("/a.py:1: UserWarning: w\nWARNING:x:y\n  f()");
        assert_eq!(warning_continuation(&l, 1), None);
    }

    #[test]
    fn runtime_paths() {
        assert!(is_runtime_path("/usr/lib/python3.11/json/decoder.py"));
        assert!(is_runtime_path("<frozen importlib._bootstrap>"));
        assert!(is_runtime_path("C:\\Python37\\lib\\asyncio\\tasks.py"));
        assert!(!is_runtime_path("/home/dev/app/scripts/x.py"));
        assert!(!is_runtime_path("/usr/lib/python3/dist-packages/yaml/x.py"));
    }

    #[test]
    fn package_paths() {
        assert_eq!(
            package_path("/usr/lib/python3/dist-packages/yaml/constructor.py").as_deref(),
            Some("yaml/constructor.py")
        );
        assert_eq!(
            package_path("C:\\Python\\Lib\\site-packages\\bs4\\__init__.py").as_deref(),
            Some("bs4/__init__.py")
        );
        assert_eq!(
            package_path("/x/foo-1.0-py3.8.egg/foo/a.py").as_deref(),
            Some("foo/a.py")
        );
        assert_eq!(package_path("/usr/lib/python3.11/json/decoder.py"), None);
    }

    #[test]
    fn warnings_and_logs() {
        let w = logged("/home/dev/.venv/lib/python3.11/site-packages/dateutil/parser/_parser.py:1201: UnknownTimezoneWarning: tzname EST identified but not understood.").unwrap();
        assert_eq!(w.text, "tzname EST identified but not understood.");
        assert_eq!(w.level, Level::Warn);
        assert_eq!(w.location.unwrap().line, 1201);
        let b = logged("WARNING:urllib3.connectionpool:Retrying (Retry(total=0)) after x").unwrap();
        assert_eq!(b.target.as_deref(), Some("urllib3.connectionpool"));
        assert_eq!(b.text, "Retrying (Retry(total=0)) after x");
        let f =
            logged("[2026-12-04 15:18:21,517] ERROR in app: Exception on /orders/7 [GET]").unwrap();
        assert_eq!(f.text, "Exception on /orders/7 [GET]");
        assert_eq!(f.level, Level::Error);
        let d = logged("passlib.handlers.bcrypt - 2024-02-29 03:53:02,323 - WARNING - (trapped) error reading bcrypt version").unwrap();
        assert_eq!(d.target.as_deref(), Some("passlib.handlers.bcrypt"));
        assert_eq!(d.text, "(trapped) error reading bcrypt version");
        let a =
            logged("2017-01-16 11:35:01,380 WARNING Run time of job \"x\" was missed by 0:00:01")
                .unwrap();
        assert_eq!(a.text, "Run time of job \"x\" was missed by 0:00:01");
        let r = logged("<string>:4: (ERROR/3) Unexpected indentation.").unwrap();
        assert_eq!(r.text, "Unexpected indentation.");
        assert!(logged("just a line").is_none());
        // scrapy's: the logger's name in brackets before the level.
        let s = logged("2024-05-04 13:12:06 [scrapy.downloadermiddlewares.retry] ERROR: Gave up retrying <GET https://a.ru/> (failed 3 times): 111: Connection refused.").unwrap();
        assert_eq!(
            s.target.as_deref(),
            Some("scrapy.downloadermiddlewares.retry")
        );
        assert_eq!(s.level, Level::Error);
        assert_eq!(
            s.text,
            "Gave up retrying <GET https://a.ru/> (failed 3 times): 111: Connection refused."
        );
        // gunicorn's format, now and in 2013.
        for (line, text) in [
            (
                "[2024-01-09 13:24:39 +0000] [1637] [CRITICAL] WORKER TIMEOUT (pid:7214)",
                "WORKER TIMEOUT (pid:7214)",
            ),
            (
                "2013-06-06 22:24:29 [26219] [WARNING] Worker with pid 7289 was terminated due to signal 6",
                "Worker with pid 7289 was terminated due to signal 6",
            ),
        ] {
            let r = logged(line).unwrap();
            assert_eq!(r.text, text);
            assert!(r.level >= Level::Warn);
        }
    }

    #[test]
    fn pytest_marks_the_raising_statement() {
        let l = lines("            for from_exc, to_exc in map.items():\n>                   raise to_exc(exc)\nE                   httpcore.ConnectError: [Errno -2] Name or service not known");
        assert_eq!(
            pytest_source_line(&l, 2).as_deref(),
            Some("raise to_exc(exc)")
        );
        assert_eq!(pytest_source_line(&l, 1), None);
    }

    #[test]
    fn pytest_blocks() {
        let text = ">               raise self.parse_error(ParseError, str(e)) from e\nE               tomlkit.exceptions.ParseError: Key \"server\" already exists. at line 4 col 0\n\n../.venv/lib/python3.11/site-packages/tomlkit/parser.py:209: ParseError";
        let l = lines(text);
        let mut i = 1;
        let e = pytest_error(&l, &mut i).unwrap();
        assert_eq!(e.kind, "tomlkit.exceptions.ParseError");
        assert_eq!(e.text, "Key \"server\" already exists. at line 4 col 0");
        let loc = e.location.unwrap();
        assert_eq!(
            (loc.package.as_deref(), loc.line),
            (Some("tomlkit/parser.py"), 209)
        );
        assert_eq!(i, 4);
        assert_eq!(
            pytest_frame("/x/site-packages/_pytest/mark/structures.py:324: in __getattr__")
                .unwrap()
                .line,
            324
        );
    }

    #[test]
    fn a_frame_without_its_source_line_still_names_its_function() {
        // A zipped egg's frames print no source lines.
        let text = "  File \"build/bdist.linux-x86_64/egg/kubernetes/config/kube_config.py\", line 134, in set_active_context\n\
                    kubernetes.config.config_exception.ConfigException: Invalid kube-config file.";
        let printed = printed_frames(text);
        assert_eq!(printed.len(), 1);
        assert_eq!(printed[0].function.as_deref(), Some("set_active_context"));
        assert_eq!(printed[0].source, None);
        assert_eq!(printed[0].at.line, 134);
        assert_eq!(
            printed[0].at.package.as_deref(),
            Some("kubernetes/config/kube_config.py")
        );
    }

    #[test]
    fn a_line_runs_in_the_function_whose_body_holds_it() {
        let file: Vec<String> = [
            "import os",
            "",
            "class Loader:",
            "    def load(self, key):",
            "        if key:",
            "            raise KeyError(",
            "                'Expected key %s' % key",
            "            )",
            "",
            "        # a comment",
            "        return self.go()",
            "    async def go(self):",
            "        pass",
            "x = Loader()",
        ]
        .iter()
        .map(|l| l.to_string())
        .collect();
        let upto = |n: usize| &file[..n];
        assert!(runs_in(upto(7), "load"));
        assert!(runs_in(upto(7), "Loader.load"));
        assert!(runs_in(upto(11), "load"));
        assert!(!runs_in(upto(11), "go"));
        assert!(runs_in(upto(13), "go"));
        assert!(runs_in(upto(14), "<module>"));
        assert!(!runs_in(upto(9), "load"), "a blank line runs nothing");
        assert!(runs_in(upto(4), "Loader"), "a class body");
    }

    #[test]
    fn the_source_lines_printed_under_package_frames() {
        // docker compose's prefix on every line; a marker line; a frame
        // of the program's own file; a frozen frame without its line.
        let text = "web_1  | Traceback (most recent call last):\n\
                    web_1  |   File \"/app/main.py\", line 3, in <module>\n\
                    web_1  |     run()\n\
                    web_1  |   File \"/usr/lib/python3/dist-packages/pkg/core.py\", line 40, in run\n\
                    web_1  |     s = step(x)\n\
                    web_1  |         ^^^^^^^\n\
                    web_1  |   File \"/usr/lib/python3/dist-packages/pkg/step.py\", line 9, in step\n\
                    web_1  |   File \"/usr/lib/python3/dist-packages/pkg/step.py\", line 12, in inner\n\
                    web_1  |     raise ValueError(\"bad\")\n\
                    web_1  | ValueError: bad\n\
                    web_1  | lib/tool/version.py:351: DeprecationWarning: old classes\n\
                    web_1  |   other = Version(other)\n\
                    web_1  |   File \"main.py\", line 2, in <module>\n\
                    web_1  |     go()\n\
                    web_1  | /venv/lib/python3.6/site-packages/_pytest/mark.py:324: in __getattr__\n\
                    web_1  |     PytestUnknownMarkWarning,\n";
        let printed = printed_frames(text);
        let got: Vec<(&str, u32, &str)> = printed
            .iter()
            .filter_map(|p| {
                let file = p.at.package.as_deref().unwrap_or(&p.at.path);
                Some((file, p.at.line, p.source.as_deref()?))
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("/app/main.py", 3, "run()"),
                ("pkg/core.py", 40, "s = step(x)"),
                ("pkg/step.py", 12, "raise ValueError(\"bad\")"),
                ("lib/tool/version.py", 351, "other = Version(other)"),
                ("main.py", 2, "go()"),
                ("_pytest/mark.py", 324, "PytestUnknownMarkWarning,"),
            ]
        );
    }

    #[test]
    fn several_arguments_and_a_wrapped_cause() {
        let t = r#"(2003, "Can't connect to MySQL server on 'localhost' ([Errno 111] Connection refused)")"#;
        assert_eq!(
            exception_text(t).as_deref(),
            Some("Can't connect to MySQL server on 'localhost' ([Errno 111] Connection refused)")
        );
        assert_eq!(
            exception_text("(None, 1.5, 'the real one', 'x')").as_deref(),
            Some("the real one")
        );
        assert_eq!(exception_text("(see the docs) for more"), None);
        assert_eq!(exception_text("(1, 2)"), None);
        assert_eq!(exception_text("(x, 'y z')"), None);
        let w = "(pymysql.err.OperationalError) (2003, \"Can't\")\n(Background on this error at: https://sqlalche.me/e/14/e3q8)";
        assert_eq!(
            wrapped(w),
            Some((
                "pymysql.err.OperationalError".to_string(),
                "(2003, \"Can't\")".to_string()
            ))
        );
        assert_eq!(wrapped("(see below) text"), None);
    }
}
