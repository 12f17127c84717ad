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

/// What a `Debug` tuple variant printed inside its name
/// (`DatabaseError(Conn(PoolTimedOut))` → `Conn(PoolTimedOut)`): a
/// program's own error enum wrapping a library's error prints its variant
/// around the library's value, and no indexed template holds that name.
/// Only when the whole text is one such shape (the parenthesis that opens
/// after the name closes at the end) and what it holds is a value of its
/// own (a type or variant name first, not a quoted string or a number).
pub(super) fn debug_tuple_inner(s: &str) -> Option<&str> {
    let t = s.trim();
    let name_end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))?;
    let (name, rest) = t.split_at(name_end);
    let last = name.rsplit("::").next().unwrap_or(name);
    if !last.starts_with(|c: char| c.is_ascii_uppercase()) || name.ends_with(':') {
        return None;
    }
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?;
    // The opening parenthesis must close at the end: `A(x) and B(y)` is
    // not one value.
    let mut depth = 0i32;
    let mut quoted = false;
    let mut escaped = false;
    for c in inner.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => depth += 1,
            ')' | ']' | '}' if !quoted => {
                depth -= 1;
                if depth < 0 {
                    return None;
                }
            }
            _ => {}
        }
    }
    (depth == 0 && !quoted).then_some(())?;
    let inner = inner.trim();
    inner
        .starts_with(|c: char| c.is_ascii_uppercase())
        .then_some(inner)
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
    use super::{debug_tuple_inner, unquote};

    #[test]
    fn a_debug_tuple_variant_holds_one_value() {
        assert_eq!(
            debug_tuple_inner("DatabaseError(Conn(SqlxError(PoolTimedOut)))"),
            Some("Conn(SqlxError(PoolTimedOut))")
        );
        assert_eq!(
            debug_tuple_inner("app::Error(Io(Os { code: 2 }))"),
            Some("Io(Os { code: 2 })")
        );
        assert_eq!(debug_tuple_inner("A(B) and C(D)"), None);
        assert_eq!(debug_tuple_inner(r#"Msg("a ) b")"#), None);
        assert_eq!(debug_tuple_inner("Code(5)"), None);
        assert_eq!(debug_tuple_inner("lower(Upper)"), None);
        assert_eq!(debug_tuple_inner(r#"W(X(")"))"#), Some(r#"X(")")"#));
    }

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
