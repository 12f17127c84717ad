//! Multi-line reports (rustc/pest/toml/miette style): their source
//! excerpts — gutters, carets, rules — are decoration, and a `help:` line
//! wrapped over several lines is one hint.

/// A line of a report's source excerpt: a gutter (`  |`, `1 | code`,
/// `3 >   code`, `╭─[1:8]`, `·`, `╰──`), carets or a rule of dashes.
pub fn is_decoration(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() {
        return false;
    }
    let gutter = t
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start();
    gutter.starts_with(['|', '│'])
        || gutter.starts_with('>') && t.starts_with(|c: char| c.is_ascii_digit())
        || t.starts_with(['╭', '│', '·', '╰', '├', '┬', '┴', '─'])
        || t.chars()
            .all(|c| matches!(c, '^' | '~' | '-' | '=' | '─' | ' ' | '+'))
        || (t.starts_with("i ") && t.contains('^'))
}

/// Where a `help:` line's keyword begins, when the line is one.
pub fn help_indent(line: &str) -> Option<usize> {
    line.trim_start()
        .starts_with("help:")
        .then(|| leading_spaces(line))
}

/// The width of a line's indentation.
pub fn leading_spaces(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// A line without up to `indent` bytes of its indentation, cut where a
/// character begins (an indentation may hold a space of several bytes,
/// such as U+0085).
pub fn dedent(line: &str, indent: usize) -> &str {
    let mut n = leading_spaces(line).min(indent);
    while !line.is_char_boundary(n) {
        n -= 1;
    }
    &line[n..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_decoration_text_is_not() {
        for l in [
            "  |",
            "1 | host = db1",
            "  |        ^^^",
            "   ╭─[2:6]",
            " 253 >   panic!(",
            "---",
        ] {
            assert!(is_decoration(l), "{l}");
        }
        for l in ["string values must be quoted", "", "x | y"] {
            assert!(!is_decoration(l), "{l}");
        }
        assert_eq!(help_indent("  help: do this"), Some(2));
        assert_eq!(dedent("    x", 2), "  x");
        assert_eq!(dedent("\u{85}x", 1), "\u{85}x");
    }
}
