//! `Error: …` and its `Caused by:` section, as anyhow, eyre and `main`
//! returning a `Report` print them: one cause per numbered entry, or the
//! whole section when the chain has one cause.

use super::report::leading_spaces;
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
                    let cut = (*at).min(leading_spaces(l));
                    text.push('\n');
                    text.push_str(&l[cut..]);
                }
                None => out.push((0, l.trim().to_string())),
            },
        }
    }
    out.into_iter().map(|(_, t)| t).collect()
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
