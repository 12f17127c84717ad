//! Log lines of the common Rust loggers, read into their message, target
//! and, where the format prints it, the source location of the log call:
//! - env_logger `[TS LEVEL target] msg` (and `[TS LEVEL ] msg`), alacritty's
//!   `[0.00022s] [LEVEL] [target] msg` (the time since start),
//! - tracing's fmt `TS [file.rs:L] LEVEL [field=…] span{…}: target: [file.rs:L:] msg`
//!   and its JSON lines (`fields.message`, `target`, `filename`, `line_number`),
//! - simplelog `HH:MM:SS [LEVEL] (tid) target: [file.rs:L] msg`,
//! - `(target): msg` after the level (mdbook's logger), `[tool] LEVEL - msg`,
//! - simple_logger `TS LEVEL [target] msg`.

use super::location::{self, Location};
use regex::Regex;
use std::sync::OnceLock;

/// One log line's parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// The message, then the `error` field's text (a layer below), if any.
    pub texts: Vec<String>,
    /// The module path that logged it.
    pub target: Option<String>,
    /// The log call's location, where the format prints it.
    pub location: Option<Location>,
    /// The level, when the line says it.
    pub level: Option<Level>,
}

/// A log line's level, as the `log` crate names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Trace.
    Trace,
    /// Debug.
    Debug,
    /// Info.
    Info,
    /// Warn (and warning).
    Warn,
    /// Error (and fatal).
    Error,
}

impl Level {
    fn parse(s: &str) -> Option<Level> {
        Some(match s.to_ascii_uppercase().as_str() {
            "TRACE" => Level::Trace,
            "DEBUG" => Level::Debug,
            "INFO" => Level::Info,
            "WARN" | "WARNING" => Level::Warn,
            "ERROR" | "FATAL" => Level::Error,
            _ => return None,
        })
    }

    /// A line at this level reports a problem (warn or error), not progress.
    pub fn is_problem(self) -> bool {
        self >= Level::Warn
    }
}

fn pattern() -> &'static Regex {
    static P: OnceLock<Regex> = OnceLock::new();
    P.get_or_init(|| {
        Regex::new(
            r"(?x)^\s*
            (?:\[[A-Za-z][\w-]*\]\s+)?
            (?:\[?(?:\d{4}-\d\d-\d\d[T\ ])?\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?\s+
              |\[?\d+\.\d+s\]?\s+)?
            (?:(?P<lfile>[\w./\\-]+\.rs):(?P<lline>\d+)\s+)?
            (?:\[\s*(?P<lb>ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|error|warn|info|debug|trace)\s*\]
              |(?P<level>ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL)\s*\]?)\s+
            (?:\(\d+\)\s+)?
            (?:\[\w+=[^\]]*\]\s+)*
            (?:\[(?P<bracket>[A-Za-z_*][^\]\s=]*)\]\s+)?
            (?:\((?P<paren>[a-z_][\w]*(?:::\w+)*)\):?\s+)?
            (?:[a-z_]\w*\{[^}]*\}:\s*)*
            (?:(?P<target>[a-z_][\w-]*(?:::\w+)*)(?:\{[^}]*\})?(?::|\])\s+)?
            (?:(?P<tfile>[\w./\\-]+\.rs):(?P<tline>\d+):\s+)?
            (?:-\s+)?
            (?:\[(?P<file>[^\]\s]+\.rs):(?P<line>\d+)\]\s*)?
            (?P<msg>.*\S)\s*$",
        )
        .expect("valid regex")
    })
}

/// The line as a log line, when it is one.
pub fn parse(line: &str) -> Option<LogLine> {
    if let Some(l) = json(line) {
        return Some(l);
    }
    let c = pattern().captures(line)?;
    let target = c
        .name("target")
        .or_else(|| c.name("paren"))
        .or_else(|| c.name("bracket"))
        .map(|t| t.as_str().to_string());
    let file_line = [("file", "line"), ("tfile", "tline"), ("lfile", "lline")]
        .into_iter()
        .find_map(|(f, l)| Some((c.name(f)?, c.name(l)?)));
    let location = match file_line {
        Some((f, l)) => Some(location::at(f.as_str(), l.as_str().parse().ok()?, None)),
        None => None,
    };
    let level = c
        .name("level")
        .or_else(|| c.name("lb"))
        .and_then(|l| Level::parse(l.as_str()));
    let msg = c["msg"].to_string();
    // tracing's `error=…` field: the error is a layer below the event.
    let texts = match msg.split_once(" error=") {
        Some((event, err)) => vec![event.to_string(), err.trim_matches('"').to_string()],
        None => vec![msg],
    };
    Some(LogLine {
        texts,
        target,
        location,
        level,
    })
}

/// A JSON log line (tracing's JSON format, most JSON loggers): `message`
/// at its layer, `error` one below.
fn json(line: &str) -> Option<LogLine> {
    let t = line.trim();
    if !(t.starts_with('{') && t.ends_with('}')) {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(t).ok()?;
    let obj = v.get("fields").unwrap_or(&v);
    let texts: Vec<String> = ["message", "msg", "error", "err"]
        .iter()
        .filter_map(|k| obj.get(*k).and_then(|x| x.as_str()).map(str::to_string))
        .collect();
    let target = v.get("target").and_then(|t| t.as_str()).map(str::to_string);
    let location = v
        .get("filename")
        .and_then(|f| f.as_str())
        .zip(v.get("line_number").and_then(|l| l.as_u64()))
        .and_then(|(f, l)| Some(location::at(f, u32::try_from(l).ok()?, None)));
    let level = v
        .get("level")
        .and_then(|l| l.as_str())
        .and_then(Level::parse);
    (!texts.is_empty()).then_some(LogLine {
        texts,
        target,
        location,
        level,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> (String, Option<String>) {
        let l = parse(line).unwrap_or_else(|| panic!("a log line: {line}"));
        (l.texts[0].clone(), l.target)
    }

    #[test]
    fn loggers_of_every_kind() {
        for (line, text, target) in [
            ("[2024-05-01T10:00:00Z ERROR my_app::net] Tensor transfer denied", "Tensor transfer denied", Some("my_app::net")),
            ("2024-05-01T10:00:00.123456Z ERROR my_app::net{peer=7}: channel closed", "channel closed", Some("my_app::net")),
            ("ERROR my_app: channel closed", "channel closed", Some("my_app")),
            ("[ERROR] channel closed", "channel closed", None),
            ("[2025-05-07T08:22:23Z INFO ] Serial port: '/dev/ttyUSB0'", "Serial port: '/dev/ttyUSB0'", None),
            ("2019-12-16 11:04:54 [ERROR] (mdbook::utils): Error: Chapter file not found, 404.zh.md", "Error: Chapter file not found, 404.zh.md", Some("mdbook::utils")),
            ("[cargo-make] INFO - cargo make 0.37.23", "cargo make 0.37.23", None),
            ("2025-08-03T20:22:14.447190Z ERROR ❌ error", "❌ error", None),
            ("TRACE [dlopen_rs::debug] Add debugging information", "Add debugging information", Some("dlopen_rs::debug")),
            ("2022-03-01T10:00:00.123Z WARN [hyper::proto] connection reset", "connection reset", Some("hyper::proto")),
            // tracing's span prefix before the target; a `[key=value]` field.
            (r#"WARN system{name="bevy::check<A>"}: bevy_hierarchy::plugin: warning[B0004]: An entity"#, "warning[B0004]: An entity", Some("bevy_hierarchy::plugin")),
            // The time since start (alacritty's logger, tracing's uptime).
            ("[0.000227542s] [ERROR] [alacritty_config_derive] Unable to load config", "Unable to load config", Some("alacritty_config_derive")),
            ("  0.002107s  WARN app::net: slow", "slow", Some("app::net")),
            ("2022-11-08T14:46:32.080746Z app/src/mod.rs:1191 ERROR [trace_id=a42] app::telemetry: trace error occurred: channel is full", "trace error occurred: channel is full", Some("app::telemetry")),
            ("2024-01-01T00:00:00Z ERROR app::db: src/db.rs:42: pool timed out", "pool timed out", Some("app::db")),
        ] {
            assert_eq!(read(line), (text.to_string(), target.map(str::to_string)), "{line}");
        }
        assert!(parse("just a sentence").is_none());
        // A lowercase level only in brackets: `error from X` is a sentence.
        assert!(parse("error from HTML pipeline").is_none());
        assert_eq!(read("[error] boom").0, "boom");
    }

    #[test]
    fn simplelog_and_json_name_the_log_calls_location() {
        let l = parse("18:23:57 [TRACE] (2) sled::pagecache::logger: [/h/.cargo/registry/src/github.com-1ecc6299db9ec823/sled-0.34.7/src/pagecache/logger.rs:277] reserving buf of len 8").unwrap();
        assert_eq!(l.texts, vec!["reserving buf of len 8"]);
        assert_eq!(l.target.as_deref(), Some("sled::pagecache::logger"));
        assert_eq!(l.location.unwrap().registry.unwrap().name, "sled");
        let l = parse(r#"{"level":"TRACE","fields":{"message":"Could not read string"},"target":"probe_rs::probe","filename":"C:\\U\\probe-rs-0.21.1\\src\\probe\\cmsisdap\\tools.rs","line_number":81}"#).unwrap();
        assert_eq!(l.location.as_ref().unwrap().line, 81);
        assert_eq!(l.location.unwrap().registry.unwrap().version, "0.21.1");
    }

    #[test]
    fn tracing_with_file_and_line_names_the_log_calls_location() {
        let l =
            parse("2022-11-08T14:46:32Z app/src/mod.rs:1191 ERROR [trace_id=a42] app: x").unwrap();
        assert_eq!(l.location.unwrap().line, 1191);
        let l = parse("2024-01-01T00:00:00Z ERROR app::db: src/db.rs:42: pool timed out").unwrap();
        assert_eq!(l.location.unwrap().line, 42);
    }

    #[test]
    fn an_error_field_is_a_layer_below() {
        let l = parse(
            "2026-12-02T22:15:31.844053Z ERROR app: failed to load config error=invalid value",
        )
        .unwrap();
        assert_eq!(l.texts, vec!["failed to load config", "invalid value"]);
        assert_eq!(l.level, Some(Level::Error));
        assert_eq!(
            parse("[2025-05-07T08:22:23Z INFO ] x").unwrap().level,
            Some(Level::Info)
        );
    }
}
