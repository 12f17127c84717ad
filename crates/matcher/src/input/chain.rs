//! `Error: …` and its `Caused by:` section, as anyhow, eyre and `main`
//! returning a `Report` print them: one cause per numbered entry, or the
//! whole section when the chain has one cause; and miette's graphical
//! chain (`├─▶ cause`, `╰─▶ last cause`) below a report's `× message`.

use super::report::{dedent, leading_spaces};
use regex::Regex;
use std::sync::OnceLock;

fn numbered() -> &'static Regex {
    static P: OnceLock<Regex> = OnceLock::new();
    P.get_or_init(|| Regex::new(r"^\s*(\d+): (.*)$").expect("valid regex"))
}

/// The causes of a `Caused by:` section (its indented lines): numbered
/// (`    0: msg`, continuation lines indented under the text) or, when the
/// chain has one cause, the whole section; each dedented.
pub fn causes(section: &[&str]) -> Vec<String> {
    let p = numbered();
    if !section.iter().any(|l| p.is_match(l)) {
        let indent = section
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| leading_spaces(l))
            .min()
            .unwrap_or(0);
        let text: Vec<&str> = section
            .iter()
            .map(|l| l.get(indent..).unwrap_or(""))
            .collect();
        return vec![text.join("\n")];
    }
    let mut out: Vec<(usize, String)> = Vec::new();
    for l in section {
        match p.captures(l) {
            Some(c) => {
                let at = c.get(2).map_or(0, |m| m.start());
                out.push((at, c[2].to_string()));
            }
            None => match out.last_mut() {
                Some((at, text)) => {
                    text.push('\n');
                    text.push_str(dedent(l, *at));
                }
                None => out.push((0, l.trim().to_string())),
            },
        }
    }
    out.into_iter().map(|(_, t)| t).collect()
}

/// The cause a miette chain's line opens (`├─▶ cause`, the last one
/// `╰─▶ cause`), and whether it is the last.
fn miette_marker(line: &str) -> Option<(&str, bool)> {
    let t = line.trim_start();
    t.strip_prefix("├─▶")
        .map(|c| (c.trim(), false))
        .or_else(|| t.strip_prefix("╰─▶").map(|c| (c.trim(), true)))
}

/// miette's graphical chain from line `start`: one cause per `├─▶`/`╰─▶`
/// line, continued on the lines below it (under `│` for a cause that is
/// not the last, indented past the marker for the last), and the chain's
/// end (exclusive). `None` when line `start` opens no cause.
pub fn miette_causes(lines: &[&str], start: usize) -> Option<(Vec<String>, usize)> {
    let indent = leading_spaces(lines.get(start)?);
    miette_marker(lines[start])?;
    let mut causes: Vec<String> = Vec::new();
    let mut last = false;
    let mut i = start;
    while i < lines.len() {
        let l = lines[i];
        let more = match miette_marker(l) {
            Some((cause, is_last)) => {
                causes.push(cause.to_string());
                last = is_last;
                None
            }
            None if !last => l.trim_start().strip_prefix('│').map(str::trim),
            None if !l.trim().is_empty() && leading_spaces(l) > indent => Some(l.trim()),
            None => break,
        };
        if let Some(text) = more.filter(|t| !t.is_empty()) {
            if let Some(c) = causes.last_mut() {
                c.push('\n');
                c.push_str(text);
            }
        } else if more.is_none() && miette_marker(l).is_none() {
            break;
        }
        i += 1;
    }
    Some((causes, i))
}

/// The indented lines of a `Caused by:` section from line `start`: its
/// end (exclusive).
pub fn section_end(lines: &[&str], start: usize) -> usize {
    let mut i = start;
    while i < lines.len() && (lines[i].starts_with(' ') || lines[i].starts_with('\t')) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn miette_chain_causes_with_continuations() {
        let text = "  × oranda panicked.\n  ├─▶ at src/data/github/repo.rs:37:13\n  │   more of it\n  │\n  ╰─▶ not yet implemented\n      and its second line\n  help: set the `RUST_BACKTRACE=1` variable\n";
        let lines: Vec<&str> = text.lines().collect();
        assert!(miette_causes(&lines, 0).is_none());
        let (causes, end) = miette_causes(&lines, 1).unwrap();
        assert_eq!(
            causes,
            vec![
                "at src/data/github/repo.rs:37:13\nmore of it",
                "not yet implemented\nand its second line"
            ]
        );
        assert_eq!(
            lines[end].trim(),
            "help: set the `RUST_BACKTRACE=1` variable"
        );
    }
}
