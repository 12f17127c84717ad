//! Text helpers the stages share: quoted strings, std's shapes, cuts.

/// Messages longer than this are matched on their first part only.
pub(super) const MAX_MESSAGE: usize = 16 * 1024;

/// The strings a `Debug` output holds (`"…"` with Rust's escapes), read
/// back.
pub(super) fn quoted_strings(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut text = String::new();
        let mut closed = false;
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some('n') => text.push('\n'),
                    Some('t') => text.push('\t'),
                    Some(o) => text.push(o),
                    None => break,
                },
                '"' => {
                    closed = true;
                    break;
                }
                c => text.push(c),
            }
        }
        if closed {
            out.push(text);
        }
    }
    out
}

/// A value without std's `Option`/`Result` wrappers around it
/// (`Some(x)` → `x`); `None` prints nothing of a crate's.
pub(super) fn strip_std_shapes(s: &str) -> &str {
    let mut t = s.trim();
    while let Some(inner) = crate::index::STD_WRAPPERS
        .iter()
        .find_map(|p| t.strip_prefix(p)?.strip_suffix(')'))
    {
        t = inner.trim();
    }
    if t == "None" {
        ""
    } else {
        t
    }
}

/// The text inside a Debug-printed string (`"a \"b\""` → `a "b"`; the
/// `\'` older Rust printed for a single quote too).
pub(super) fn unquote(s: &str) -> String {
    let t = s.trim();
    let Some(inner) = t.strip_prefix('"').and_then(|r| r.strip_suffix('"')) else {
        return t.to_string();
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(e @ ('"' | '\'' | '\\')) => out.push(e),
            // `\u{…}`, `\r`, `\0`: as printed.
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}

pub(super) fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

#[cfg(test)]
mod tests {
    use super::unquote;

    #[test]
    fn debug_strings_are_read_back_with_their_escapes() {
        assert_eq!(unquote(r#""a \"b\" c\\d""#), r#"a "b" c\d"#);
        // Rust before 1.53 escaped single quotes in a `str`'s Debug.
        assert_eq!(
            unquote(r#""couldn\'t find [\'libclang.so\']""#),
            "couldn't find ['libclang.so']"
        );
        assert_eq!(unquote(r#""x\u{1b}y""#), r#"x\u{1b}y"#);
        assert_eq!(unquote("not quoted"), "not quoted");
    }
}
