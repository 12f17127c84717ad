//! What tools put around every line of a program's output, taken off
//! before anything is recognised: ANSI colour codes (with their ESC byte,
//! or without it as a web page keeps them: `[2m`), process managers' and
//! markdown's autolinks around what a renderer took for a web address
//! (`[core.rs:184](http://core.rs:184/)`), process managers' and
//! log collectors' line prefixes (pm2 `2|hasher   | `, docker compose
//! `web_1  | ` with or without its timestamps, Docker Desktop's
//! `2024-08-10 14:14:27 core-1  | `, journald/syslog `Dec 09 15:15:53 host unit[32197]: ` (or its
//! process alone, `unit[32197]: `),
//! Android logcat, GitHub Actions' timestamps, a bare date and time
//! before the program's own lines, as p2pool's `2014-06-11
//! 21:13:05.788529 > ` or twisted's `2014-06-11 21:13:05+0200 [-] `), a
//! terminal UI's right border (`▐`) and the quotes around a paste quoted
//! whole. The days stay in the paste for the version choice
//! ([`super::latest_day`] reads the text as pasted).

use regex::Regex;
use std::sync::OnceLock;

struct Patterns {
    ansi: Regex,
    autolink: Regex,
    prefixes: Vec<Regex>,
    stamp: Regex,
}

/// Log levels: a record's level after its timestamp (`2024-… ERROR …`)
/// makes the timestamp part of a log record, which the log recogniser
/// reads whole.
const LEVELS: &[&str] = &[
    "ERROR", "ERR", "WARN", "WARNING", "INFO", "DEBUG", "TRACE", "CRITICAL", "FATAL", "NOTICE",
    "SEVERE", "E", "W", "I", "D", "T",
];

fn patterns() -> &'static Patterns {
    static P: OnceLock<Patterns> = OnceLock::new();
    P.get_or_init(|| Patterns {
        ansi: Regex::new(r"\x1b\[[0-9;?]*[A-Za-z]|\[(?:\d{1,3}(?:;\d{1,3})*)?m")
            .expect("valid regex"),
        autolink: Regex::new(r"\[([^\[\]\s]+)\]\(https?://([^()\s]+)\)").expect("valid regex"),
        prefixes: [
            // Docker Desktop's log view (`2024-08-10 14:14:27 core-1  | `).
            r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [A-Za-z][\w.-]{0,39}\s*\| ?",
            // docker compose with `--timestamps` (`web-1  | 2024-…Z `).
            r"^[A-Za-z][\w.-]{0,39}\s*\| \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ",
            // pm2 (`ID|NAME | `) and docker compose (`NAME  | `).
            r"^(?:\d+\|)?[A-Za-z][\w.-]{0,39}\s*\| ?",
            // journald / syslog.
            r"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ [^\s:\[]+(?:\[\d+\])?: ",
            // journald's lines cut to their process (`gunicorn[26747]: `).
            r"^[A-Za-z][\w.@-]{0,39}\[\d+\]: ",
            // Android logcat (threadtime).
            r"^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+ [VDIWEF] [^:]*: ",
            // GitHub Actions' step timestamps.
            r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z ",
        ]
        .into_iter()
        .map(|p| Regex::new(p).expect("valid regex"))
        .collect(),
        stamp: Regex::new(
            r"^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)? +(?:> |\[-\] )?",
        )
        .expect("valid regex"),
    })
}

/// The rest of a line after its bare timestamp, unless the timestamp
/// opens a log record (a level word in capitals, or a bracket, dash or
/// pipe follows it without a marker between).
fn after_stamp<'a>(stamp: &Regex, line: &'a str) -> Option<&'a str> {
    let m = stamp.find(line)?;
    let rest = &line[m.end()..];
    let marked = m.as_str().ends_with("> ") || m.as_str().ends_with("[-] ");
    let word: &str = rest
        .split(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or("");
    let record = LEVELS.contains(&word) || rest.starts_with(['[', '-', '|', '(', '<']);
    (marked || !record).then_some(rest)
}

/// The output's lines with colour codes, per-line prefixes and borders
/// taken off. A prefix is taken off only where at least half of the
/// non-empty lines carry it (one tool wrote them all).
pub fn clean(text: &str) -> Vec<String> {
    let p = patterns();
    let text = unquote_whole(text);
    let mut lines: Vec<String> = text
        .lines()
        .map(|l| {
            let l = p.ansi.replace_all(l.trim_end_matches('\r'), "");
            let l = unlink(&p.autolink, &l);
            strip_border(&l).to_string()
        })
        .collect();
    let nonempty = lines.iter().filter(|l| !l.trim().is_empty()).count();
    for prefix in &p.prefixes {
        let carrying = lines.iter().filter(|l| prefix.is_match(l)).count();
        if carrying > 0 && carrying * 2 >= nonempty {
            for l in &mut lines {
                if let Some(m) = prefix.find(l) {
                    *l = l[m.end()..].to_string();
                }
            }
        }
    }
    let rests: Vec<Option<String>> = lines
        .iter()
        .map(|l| after_stamp(&p.stamp, l).map(str::to_string))
        .collect();
    let stamped = rests.iter().flatten().count();
    if stamped > 0 && stamped * 2 >= nonempty {
        for (l, rest) in lines.iter_mut().zip(rests) {
            if let Some(rest) = rest {
                *l = rest;
            }
        }
    }
    join_report_wraps(lines)
}

/// miette wraps a report's `× message` to the terminal's width and hangs
/// the rest under a `│` (`  × Could not initialize … interacting` /
/// `  │ with the clipboard: …`): the message is one line again.
fn join_report_wraps(lines: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut open = false;
    for line in lines {
        let hung = line
            .trim_start()
            .strip_prefix("│ ")
            .map(str::trim)
            .filter(|t| !t.is_empty());
        match (open, hung, out.last_mut()) {
            (true, Some(rest), Some(last)) => {
                last.push(' ');
                last.push_str(rest);
            }
            _ => {
                let head = line.trim_start();
                let head = head.strip_prefix("Error:").map_or(head, str::trim_start);
                open = head.starts_with("× ");
                out.push(line);
            }
        }
    }
    out
}

/// The text of markdown links whose address is that text (`[a.rs:1](http://a.rs:1/)`,
/// what GitHub and chat apps make of `github.com` or `core.rs:184` in a
/// paste); other links stay as they are.
fn unlink<'a>(autolink: &Regex, line: &'a str) -> std::borrow::Cow<'a, str> {
    autolink.replace_all(line, |c: &regex::Captures| {
        let text = &c[1];
        let address = c[2].trim_end_matches('/');
        if address.eq_ignore_ascii_case(text.trim_end_matches('/')) {
            text.to_string()
        } else {
            c[0].to_string()
        }
    })
}

/// A terminal UI's right border and the padding before it.
fn strip_border(line: &str) -> &str {
    let t = line.trim_end();
    match t.strip_suffix(['▐', '▌', '┃', '║', '█']) {
        Some(rest) => rest.trim_end(),
        None => line,
    }
}

/// A paste quoted whole in double quotes, when the quotes are not part of
/// it (no other double quote inside).
fn unquote_whole(text: &str) -> &str {
    let t = text.trim();
    match t.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner) if !inner.contains('"') && inner.contains('\n') => inner,
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wrapped_report_message_is_one_line() {
        let text = "Jan 29 10:24:41 tears url-eater-start[4278]: Error:   × Could not initialize: Unknown error while interacting\nJan 29 10:24:41 tears url-eater-start[4278]:   │ with the clipboard: timed out because it was\nJan 29 10:24:41 tears url-eater-start[4278]:   │ unreachable";
        assert_eq!(
            clean(text),
            vec!["Error:   × Could not initialize: Unknown error while interacting with the clipboard: timed out because it was unreachable"]
        );
        // An excerpt's gutter below a report stays as it is.
        let excerpt = "  × bad value\n   ╭─[1:8]\n 1 │ a = b\n   │     ┬\n";
        assert_eq!(clean(excerpt).len(), 4);
    }

    #[test]
    fn prefixes_every_line_carries_are_taken_off() {
        let pm2 = "2|hasher   | thread '<unnamed>' panicked at src/a.rs:1:1:\n2|hasher   | assertion failed\n";
        assert_eq!(
            clean(pm2),
            vec![
                "thread '<unnamed>' panicked at src/a.rs:1:1:",
                "assertion failed"
            ]
        );
        let journal = "Dec 09 15:15:53 koesters conduit-bin[32197]: thread 'sled-io-2' panicked at 'x', a.rs:1:1\nDec 09 15:15:53 koesters conduit-bin[32197]: stack backtrace:";
        assert_eq!(clean(journal)[1], "stack backtrace:");
        let process = "gunicorn[26747]: Traceback (most recent call last):\ngunicorn[26747]:   File \"a.py\", line 1, in f\ngunicorn[26747]:     f(x)";
        assert_eq!(
            clean(process),
            vec![
                "Traceback (most recent call last):",
                "  File \"a.py\", line 1, in f",
                "    f(x)"
            ]
        );
        let compose = "web_1  | Error: boom\nweb_1  | \nweb_1  | Caused by:";
        assert_eq!(clean(compose), vec!["Error: boom", "", "Caused by:"]);
        let desktop = "2024-08-10 14:14:27 core-1  |   File \"a.py\", line 1, in f\n2024-08-10 14:14:27 core-1  | ValueError: x";
        assert_eq!(
            clean(desktop),
            vec!["  File \"a.py\", line 1, in f", "ValueError: x"]
        );
        let stamped = "web-1  | 2024-08-10T14:14:27.123456789Z Traceback (most recent call last):\nweb-1  | 2024-08-10T14:14:27.123456789Z ValueError: x";
        assert_eq!(
            clean(stamped),
            vec!["Traceback (most recent call last):", "ValueError: x"]
        );
    }

    #[test]
    fn a_bare_timestamp_before_the_programs_lines_goes_a_log_records_stays() {
        let p2pool = "2014-06-11 21:13:05.786919 Testing bitcoind RPC connection...\n2014-06-11 21:13:05.788529 > Error while checking Bitcoin connection:\n2014-06-11 21:13:05.788644 > Traceback (most recent call last):\n2014-06-11 21:13:05.788698 > Failure: twisted.internet.error.ConnectionRefusedError: Connection was refused by other side: 111: Connection refused.";
        assert_eq!(
            clean(p2pool),
            vec![
                "Testing bitcoind RPC connection...",
                "Error while checking Bitcoin connection:",
                "Traceback (most recent call last):",
                "Failure: twisted.internet.error.ConnectionRefusedError: Connection was refused by other side: 111: Connection refused."
            ]
        );
        let twisted = "2013-03-01 10:00:00+0100 [-] Unhandled error in Deferred:\n2013-03-01 10:00:00+0100 [-] Unhandled Error";
        assert_eq!(clean(twisted)[1], "Unhandled Error");
        // A log record's timestamp is the record's: its level follows.
        for record in [
            "2024-01-02T03:04:05.678Z ERROR app::db: connection refused",
            "2014-06-11 21:13:05,788 - app - ERROR - boom",
            "2019-12-16 11:04:54 [ERROR] (mdbook::utils): Error: x",
            "2024-01-02 03:04:05 WARNING:root:careful",
        ] {
            assert_eq!(clean(record), vec![record]);
        }
    }

    #[test]
    fn autolinks_give_back_their_text() {
        let linked = "panicked at 'x', /r/src/[github.com](http://github.com/)-1ecc6299db9ec823/indexmap-1.9.2/src/map/[core.rs:184](http://core.rs:184/):9";
        assert_eq!(
            clean(linked)[0],
            "panicked at 'x', /r/src/github.com-1ecc6299db9ec823/indexmap-1.9.2/src/map/core.rs:184:9"
        );
        // A link somewhere else is the paste's own text.
        let other = "see [the docs](https://docs.rs/x) for more";
        assert_eq!(clean(other)[0], other);
    }

    #[test]
    fn a_reports_gutter_is_not_a_prefix() {
        let toml = "TOML parse error at line 1, column 8\n  |\n1 | host = db1\n  |        ^^^\nstring values must be quoted";
        assert_eq!(clean(toml), toml.lines().collect::<Vec<_>>());
        // One line of many with a pipe is not a prefix of the output.
        let text = "a\nb\nc\nname | value";
        assert_eq!(clean(text)[3], "name | value");
    }

    #[test]
    fn colours_borders_and_quotes_go() {
        assert_eq!(
            clean("[2mpanic[0m[2m:[0m thread 'x'")[0],
            "panic: thread 'x'"
        );
        assert_eq!(clean("\x1b[31merror\x1b[0m: x")[0], "error: x");
        assert_eq!(
            clean(" thread 'w' panicked at /a/b.rs:1:2:        ▐\n next")[0],
            " thread 'w' panicked at /a/b.rs:1:2:"
        );
        assert_eq!(
            clean("\"thread 'main' panicked at 'x', a.rs:1:1\nnote: y\"")[0],
            "thread 'main' panicked at 'x', a.rs:1:1"
        );
    }
}
