//! Python string literals and message formatting as templates: escape
//! decoding, f-strings, `%`-formatting and `str.format`, each giving the
//! text exactly as Python prints it (holes where runtime values go).

use errdex_model::{Hole, Kind, Piece, Template};

/// A string literal split into its prefix flags and the text between its
/// quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrLit<'a> {
    /// `r`: backslashes are text.
    pub raw: bool,
    /// `f` (or `t`): braces hold expressions.
    pub fmt: bool,
    /// The text between the quotes, as written.
    pub body: &'a str,
}

impl<'a> StrLit<'a> {
    /// Splits a literal as written (`rb'..'`, `f"""..."""`); `None` when
    /// `text` is not a string literal.
    pub fn parse(text: &'a str) -> Option<Self> {
        let prefix_len = text.find(['\'', '"'])?;
        let prefix = &text[..prefix_len];
        if prefix.len() > 3 || !prefix.chars().all(|c| "rRbBuUfFtT".contains(c)) {
            return None;
        }
        let rest = &text[prefix_len..];
        let quote = if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
            &rest[..3]
        } else {
            &rest[..1]
        };
        let inner = &rest[quote.len()..];
        let body = inner.strip_suffix(quote).unwrap_or(inner);
        let has = |c: char| prefix.contains(c) || prefix.contains(c.to_ascii_uppercase());
        Some(StrLit {
            raw: has('r'),
            fmt: has('f') || has('t'),
            body,
        })
    }

    /// The literal's template: its decoded text, with holes for an
    /// f-string's replacement fields.
    pub fn template(&self) -> Template {
        if self.fmt {
            fstring(self.body, self.raw)
        } else {
            Template::literal(decode(self.body, self.raw))
        }
    }
}

/// The template of one literal as written; `None` when it is not one.
pub fn literal_template(text: &str) -> Option<Template> {
    StrLit::parse(text).map(|s| s.template())
}

/// Decodes the escape sequences of a string body (`\n`, `\x41`, `\u00e9`,
/// octal, line continuations); unknown escapes stay as written, as Python
/// keeps them.
pub fn decode(body: &str, raw: bool) -> String {
    if raw || !body.contains('\\') {
        return body.to_string();
    }
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            '\n' => {}
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
            }
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            '\\' | '\'' | '"' => out.push(e),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                out.extend(char::from_u32(v));
            }
            'x' | 'u' | 'U' => {
                let n = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let digits: String = chars.clone().take(n).collect();
                match u32::from_str_radix(&digits, 16)
                    .ok()
                    .filter(|_| digits.len() == n)
                    .and_then(char::from_u32)
                {
                    Some(ch) => {
                        out.push(ch);
                        for _ in 0..n {
                            chars.next();
                        }
                    }
                    None => {
                        out.push('\\');
                        out.push(e);
                    }
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}

/// Index just past the end of a replacement field's expression that starts
/// at `i`: the first top-level `!` (not `!=`), `:`, `}` or self-documenting
/// `=`, skipping brackets and quoted strings.
fn field_expr_end(b: &[u8], mut i: usize) -> (usize, bool) {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            q @ (b'\'' | b'"') => {
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'}' if depth > 0 => depth -= 1,
            b'}' => return (i, false),
            b'!' if depth == 0 && b.get(i + 1) != Some(&b'=') => return (i, false),
            b':' if depth == 0 => return (i, false),
            b'=' if depth == 0 => {
                let prev = if i > 0 { b[i - 1] } else { b' ' };
                let next = b[i + 1..].iter().find(|c| !c.is_ascii_whitespace());
                if !matches!(prev, b'=' | b'!' | b'<' | b'>')
                    && matches!(next, Some(b'}' | b'!' | b':'))
                {
                    return (i, true);
                }
                if b.get(i + 1) == Some(&b'=') {
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    (b.len(), false)
}

/// Index of the `}` closing a format spec that starts at `i` (nested
/// fields such as `{:{width}}` included).
fn spec_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'{' => depth += 1,
            b'}' if depth == 0 => return i,
            b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The first char boundary of `s` at or after `i` (at most its length).
fn char_boundary(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i.min(s.len())
}

/// A hole's spec: the conversion (`!r`) and the format spec after it.
fn hole_spec(conversion: &str, spec: &str) -> String {
    match (conversion.is_empty(), spec.is_empty()) {
        (_, true) => conversion.to_string(),
        (true, false) => spec.to_string(),
        (false, false) => format!("{conversion}:{spec}"),
    }
}

/// What a field whose expression is a plain string literal prints
/// (`{'locatedExpr'!r}` prints `'locatedExpr'`): its text, or its `repr`
/// under `!r`; none for any other expression or a format spec.
fn constant_field(expr: &str, conversion: &str, spec: &str) -> Option<String> {
    if !spec.is_empty() {
        return None;
    }
    let q = expr.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
    let inner = expr.strip_prefix(q)?.strip_suffix(q)?;
    if inner.is_empty() || inner.contains([q, '\\']) {
        return None;
    }
    match conversion {
        "" | "!s" => Some(inner.to_string()),
        // `repr` quotes with `'` unless the text holds one and no `"`.
        "!r" | "!a" if inner.contains('\'') && !inner.contains('"') => Some(format!("\"{inner}\"")),
        "!r" | "!a" if !inner.contains('\'') => Some(format!("'{inner}'")),
        _ => None,
    }
}

/// The template of an f-string body: literal text decoded, `{{`/`}}` as
/// one brace, each replacement field a hole (`arg` = the expression, `spec`
/// = conversion and format spec); `{x=}` prints `x=` before the value.
pub fn fstring(body: &str, raw: bool) -> Template {
    let b = body.as_bytes();
    let mut t = Template::new();
    let mut seg = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if !raw => {
                // `\N{NAME}` holds braces that are no field.
                if b.get(i + 1) == Some(&b'N') && b.get(i + 2) == Some(&b'{') {
                    i = body[i..].find('}').map_or(b.len(), |k| i + k + 1);
                } else {
                    i += 2;
                }
            }
            c @ (b'{' | b'}') if b.get(i + 1) == Some(&c) => {
                t.push_lit(&decode(&body[seg..=i], raw));
                i += 2;
                seg = i;
            }
            b'{' => {
                t.push_lit(&decode(&body[seg..i], raw));
                let (end, self_doc) = field_expr_end(b, i + 1);
                let expr = body[i + 1..end.min(b.len())].trim();
                let mut j = end;
                let mut conversion = String::new();
                if self_doc {
                    t.push_lit(&body[i + 1..end + 1]);
                    j = end + 1;
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    conversion.push_str("!r");
                }
                if b.get(j) == Some(&b'!') {
                    if let Some(c) = body.get(j + 1..).and_then(|r| r.chars().next()) {
                        conversion = format!("!{c}");
                        j += 1 + c.len_utf8();
                    }
                }
                let mut spec = "";
                if b.get(j) == Some(&b':') {
                    let e = spec_end(b, j + 1);
                    spec = &body[j + 1..e];
                    j = e;
                }
                match constant_field(expr, &conversion, spec) {
                    Some(text) => t.push_lit(&text),
                    None => t.push_hole(Hole {
                        arg: expr.to_string(),
                        spec: hole_spec(&conversion, spec),
                    }),
                }
                i = char_boundary(body, j + 1);
                seg = i;
            }
            _ => i += 1,
        }
    }
    if seg < b.len() {
        t.push_lit(&decode(&body[seg..], raw));
    }
    t
}

/// Between the parts of a message built as a list (`parts = ["a"]`,
/// `parts.append(…)`) until `SEP.join(parts)` says what joins them (a
/// character of Unicode's private use area, never in a source's text).
pub const LIST_SEP: &str = "\u{E000}";

/// `t` with the parts of a list joined by `sep`.
pub fn list_joined(t: &Template, sep: &str) -> Template {
    if !t.literals().any(|s| s.contains(LIST_SEP)) {
        return t.clone();
    }
    map_pieces(t, |s| s.replace(LIST_SEP, sep), Hole::clone)
}

/// `t` with each literal and each hole mapped.
fn map_pieces(
    t: &Template,
    lit: impl Fn(&str) -> String,
    hole: impl Fn(&Hole) -> Hole,
) -> Template {
    let mut out = Template::new();
    for p in t.pieces() {
        match p {
            Piece::Lit(s) => out.push_lit(&lit(s)),
            Piece::Hole(h) => out.push_hole(hole(h)),
        }
    }
    out
}

/// A hole filled by `repr(x)` (`f"{repr(a)} is {repr(b)}"`, `"%s" %
/// repr(x)`) prints what `{x!r}` prints: a quoted string, a number, a
/// bracketed value — so its hole is given `!r`.
fn repr_calls(t: &Template) -> Template {
    map_pieces(t, str::to_string, |h| {
        let inner = h
            .arg
            .strip_prefix("repr(")
            .and_then(|r| r.strip_suffix(')'))
            .filter(|i| balanced(i) && (h.spec.is_empty() || h.spec == "!s"));
        match inner {
            Some(i) => Hole {
                arg: i.trim().to_string(),
                spec: "!r".into(),
            },
            None => h.clone(),
        }
    })
}

/// Whether every bracket of an expression closes within it (so that
/// `a) + repr(b` is not read as one call's argument).
fn balanced(expr: &str) -> bool {
    let mut depth = 0i32;
    for c in expr.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

/// The arguments of a `%` operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PercentArgs {
    /// A tuple or a single value: the source text of each, in order.
    Positional(Vec<String>),
    /// A mapping: `%(name)s` holes take `name`.
    Mapping,
}

/// Applies `%`-formatting to the literal parts of `fmt`: `%%` prints `%`,
/// each conversion becomes a hole taking the next argument (or, for
/// `%(name)s`, the name); `spec` is the conversion written without `%`
/// (`d`, `.2f`, `!r` for `%r`, empty for a plain `%s`).
pub fn percent(fmt: &Template, args: &PercentArgs) -> Template {
    let mut out = Template::new();
    let mut next = 0;
    for piece in fmt.pieces() {
        let text = match piece {
            Piece::Lit(s) => s,
            Piece::Hole(h) => {
                out.push_hole(h.clone());
                continue;
            }
        };
        let b = text.as_bytes();
        let mut seg = 0;
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'%' {
                i += 1;
                continue;
            }
            if b.get(i + 1) == Some(&b'%') {
                out.push_lit(&text[seg..=i]);
                i += 2;
                seg = i;
                continue;
            }
            let Some((name, spec, end)) = percent_conversion(text, i + 1) else {
                i += 1;
                continue;
            };
            out.push_lit(&text[seg..i]);
            let arg = match (name, args) {
                (Some(n), _) => n.to_string(),
                (None, PercentArgs::Positional(v)) => {
                    next += 1;
                    v.get(next - 1).cloned().unwrap_or_default()
                }
                (None, PercentArgs::Mapping) => String::new(),
            };
            out.push_hole(Hole { arg, spec });
            i = end;
            seg = i;
        }
        if seg < b.len() {
            out.push_lit(&text[seg..]);
        }
    }
    out
}

/// Parses one `%` conversion whose text starts at `i` (after the `%`):
/// the mapping key, the hole spec and the index past it.
fn percent_conversion(text: &str, i: usize) -> Option<(Option<&str>, String, usize)> {
    let b = text.as_bytes();
    let mut j = i;
    let mut name = None;
    if b.get(j) == Some(&b'(') {
        let close = text[j..].find(')')? + j;
        name = Some(&text[j + 1..close]);
        j = close + 1;
    }
    let spec_start = j;
    while j < b.len() && b"#0- +".contains(&b[j]) {
        j += 1;
    }
    while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'*') {
        j += 1;
    }
    if b.get(j) == Some(&b'.') {
        j += 1;
        while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'*') {
            j += 1;
        }
    }
    while j < b.len() && b"hlL".contains(&b[j]) {
        j += 1;
    }
    let conv = *b.get(j)?;
    if !b"diouxXeEfFgGcrsa".contains(&conv) {
        return None;
    }
    let flags = &text[spec_start..j];
    let spec = match (conv, flags.is_empty()) {
        (b's', true) => String::new(),
        (b'r' | b'a', true) => format!("!{}", conv as char),
        _ => text[spec_start..=j].to_string(),
    };
    Some((name, spec, j + 1))
}

/// Applies `str.format` to the literal parts of `fmt`: `{{`/`}}` print one
/// brace; each field becomes a hole taking its argument's source text (by
/// position, automatic numbering, or keyword; `{0.name}`/`{k[i]}` keep
/// their attribute or index after the argument).
pub fn format(fmt: &Template, positional: &[String], keywords: &[(String, String)]) -> Template {
    let mut out = Template::new();
    let mut auto = 0;
    for piece in fmt.pieces() {
        let text = match piece {
            Piece::Lit(s) => s,
            Piece::Hole(h) => {
                out.push_hole(h.clone());
                continue;
            }
        };
        let b = text.as_bytes();
        let mut seg = 0;
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                c @ (b'{' | b'}') if b.get(i + 1) == Some(&c) => {
                    out.push_lit(&text[seg..=i]);
                    i += 2;
                    seg = i;
                }
                b'{' => {
                    out.push_lit(&text[seg..i]);
                    let close = spec_end(b, i + 1);
                    let field = &text[i + 1..close];
                    let (head, spec) = match field.find([':', '!']) {
                        Some(k) => (&field[..k], &field[k..]),
                        None => (field, ""),
                    };
                    let (conversion, spec) = match spec.strip_prefix('!') {
                        Some(s) => {
                            let conv = s.chars().next().map_or(0, char::len_utf8);
                            let rest = s.get(conv..).unwrap_or("");
                            (
                                format!("!{}", &s[..conv]),
                                rest.strip_prefix(':').unwrap_or(rest),
                            )
                        }
                        None => (String::new(), spec.strip_prefix(':').unwrap_or(spec)),
                    };
                    let split = head.find(['.', '[']).unwrap_or(head.len());
                    let (base, rest) = head.split_at(split);
                    let arg = if base.is_empty() {
                        auto += 1;
                        positional.get(auto - 1).cloned()
                    } else if let Ok(n) = base.parse::<usize>() {
                        positional.get(n).cloned()
                    } else {
                        keywords
                            .iter()
                            .find(|(k, _)| k == base)
                            .map(|(_, v)| v.clone())
                    };
                    let arg = arg.unwrap_or_else(|| base.to_string());
                    out.push_hole(Hole {
                        arg: format!("{arg}{rest}"),
                        spec: hole_spec(&conversion, spec),
                    });
                    i = (close + 1).min(b.len());
                    seg = i;
                }
                _ => i += 1,
            }
        }
        if seg < b.len() {
            out.push_lit(&text[seg..]);
        }
    }
    out
}

/// The length of a `str.format` field starting at `b[i] == b'{'` when it
/// looks like one a program fills (`{}`, `{0}`, `{name}`, `{obj.attr}`,
/// `{k[0]}`, `{name!r}`, `{n:>8}`); `None` for other braces (`{"a": 1}`,
/// `{ x }`, a lone `{`).
fn brace_field_len(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while j < b.len() && ident(b[j]) {
        j += 1;
    }
    if j > i + 1 && b[i + 1].is_ascii_digit() && !b[i + 1..j].iter().all(u8::is_ascii_digit) {
        return None;
    }
    // Attributes and indexes after a name.
    while j > i + 1 && j < b.len() && matches!(b[j], b'.' | b'[') {
        if b[j] == b'.' {
            let start = j + 1;
            j = start;
            while j < b.len() && ident(b[j]) {
                j += 1;
            }
            if j == start {
                return None;
            }
        } else {
            let close = b[j..].iter().position(|&c| c == b']')? + j;
            if b[j + 1..close]
                .iter()
                .any(|&c| matches!(c, b'{' | b'}' | b'\'' | b'"'))
            {
                return None;
            }
            j = close + 1;
        }
    }
    if b.get(j) == Some(&b'!') {
        if !matches!(b.get(j + 1), Some(b'r' | b's' | b'a')) {
            return None;
        }
        j += 2;
    }
    if b.get(j) == Some(&b':') {
        j += 1;
        while j < b.len() && !matches!(b[j], b'{' | b'}' | b'\n') {
            j += 1;
        }
    }
    (b.get(j) == Some(&b'}')).then_some(j + 1 - i)
}

/// `t` with each `str.format` field left in its literal text (a message
/// formatted later: `"Not a valid {obj_type}."` in a dict of messages,
/// `"{name} used but not defined"` handed to a helper) made a hole;
/// `{{`/`}}` stay as written.
pub fn brace_fields(t: &Template) -> Template {
    if !t.literals().any(|s| s.contains('{')) {
        return t.clone();
    }
    let mut out = Template::new();
    for piece in t.pieces() {
        let text = match piece {
            Piece::Lit(s) => s,
            Piece::Hole(h) => {
                out.push_hole(h.clone());
                continue;
            }
        };
        let b = text.as_bytes();
        let (mut seg, mut i) = (0, 0);
        while i < b.len() {
            if b[i] == b'{' && b.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let Some(len) = (b[i] == b'{').then(|| brace_field_len(b, i)).flatten() else {
                i += 1;
                continue;
            };
            out.push_lit(&text[seg..i]);
            let field = &text[i + 1..i + len - 1];
            let (head, spec) = match field.find([':', '!']) {
                Some(k) => (&field[..k], &field[k..]),
                None => (field, ""),
            };
            let (conversion, spec) = match spec.strip_prefix('!') {
                Some(s) => (&s[..1], s[1..].strip_prefix(':').unwrap_or("")),
                None => ("", spec.strip_prefix(':').unwrap_or(spec)),
            };
            let conversion = if conversion.is_empty() {
                String::new()
            } else {
                format!("!{conversion}")
            };
            out.push_hole(Hole {
                arg: head.to_string(),
                spec: hole_spec(&conversion, spec),
            });
            i += len;
            seg = i;
        }
        if seg < b.len() {
            out.push_lit(&text[seg..]);
        }
    }
    out
}

/// The fields a site's text leaves for later as holes: `str.format` ones
/// always ([`brace_fields`]); `%` ones too in a message stored for later
/// (`MESSAGE = "… %(parser)s …"`, [`Kind::ErrorDoc`]), which is formatted
/// where it is used.
pub fn pending_fields(t: &Template, kind: Kind) -> Template {
    let t = list_joined(&repr_calls(&brace_fields(t)), " ");
    if kind == Kind::ErrorDoc && t.literals().any(|s| s.contains('%')) {
        let args = if t.literals().any(|s| s.contains("%(")) {
            PercentArgs::Mapping
        } else {
            PercentArgs::Positional(Vec::new())
        };
        percent(&t, &args)
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn render(t: &Template) -> String {
        t.pieces()
            .iter()
            .map(|p| match p {
                Piece::Lit(s) => s.clone(),
                Piece::Hole(h) => format!("<{}|{}>", h.arg, h.spec),
            })
            .collect()
    }

    #[test]
    fn a_repr_call_hole_prints_a_repr() {
        let t = pending_fields(
            &fstring("{repr(a)} is {repr(b)}, not {repr(c) + repr(d)}", false),
            Kind::Raise,
        );
        assert_eq!(render(&t), "<a|!r> is <b|!r>, not <repr(c) + repr(d)|>");
    }

    fn lit(s: &str) -> String {
        render(&literal_template(s).unwrap())
    }

    #[test]
    fn plain_and_escaped() {
        assert_eq!(lit(r#""a\tb\n\x41\u00e9\101\q""#), "a\tb\nAé\u{41}\\q");
        assert_eq!(lit(r#"r"a\nb""#), "a\\nb");
        assert_eq!(lit("'''x\n'y'\n'''"), "x\n'y'\n");
        assert_eq!(lit(r#""""#), "");
        assert_eq!(lit("b'abc'"), "abc");
        assert_eq!(lit("\"a\\\nb\""), "ab");
    }

    #[test]
    fn fstrings() {
        assert_eq!(
            lit(r#"f"No adapters for {url!r} {{x}} at {pos:>8.2f}""#),
            "No adapters for <url|!r> {x} at <pos|>8.2f>"
        );
        assert_eq!(lit(r#"f"{a['k']}:{b!s:{w}}""#), "<a['k']|>:<b|!s:{w}>");
        assert_eq!(lit(r#"f"{x=}""#), "x=<x|!r>");
        assert_eq!(lit(r#"f"{a != b}\n""#), "<a != b|>\n");
        assert_eq!(lit(r#"rf"\d{n}""#), "\\d<n|>");
        assert_eq!(lit(r#"f"{d["k"]}""#), "<d[\"k\"]|>");
        // A string literal in a field prints itself.
        assert_eq!(
            lit(r#"f"{'locatedExpr'!r} deprecated - use {"Located"} {'a'}x""#),
            "'locatedExpr' deprecated - use Located ax"
        );
        assert_eq!(lit(r#"f"{"it's"!r} {'a':>4}""#), "\"it's\" <'a'|>4>");
    }

    #[test]
    fn percent_formats() {
        let f = Template::literal("bad %s at %(pos)d: %r, 100%% %5.2f %z");
        let t = percent(&f, &PercentArgs::Positional(vec!["a".into(), "b".into()]));
        assert_eq!(render(&t), "bad <a|> at <pos|d>: <b|!r>, 100% <|5.2f> %z");
    }

    #[test]
    fn malformed_input_never_panics() {
        let pieces = [
            "{", "}", "{{", "!", "é", "!é", ":", "=", "\\", "\\N{", "%", "%(", "(", "'", "\"", "x",
            "ü{",
        ];
        let mut seed = 7u32;
        for _ in 0..3000 {
            let mut body = String::new();
            for _ in 0..12 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                body.push_str(pieces[(seed >> 16) as usize % pieces.len()]);
            }
            let t = fstring(&body, false);
            let _ = fstring(&body, true);
            let _ = percent(&t, &PercentArgs::Positional(vec!["a".into()]));
            let _ = format(&Template::literal(&body), &["a".into()], &[]);
            let _ = literal_template(&format!("f'{body}'"));
            let _ = decode(&body, false);
        }
    }

    #[test]
    fn brace_fields_left_for_later() {
        let f = Template::literal(
            "Not a valid {obj_type}. {} {0} {k[1]}/{o.a!r:>4} {{lit}} {\"a\": 1} { x } {1x} {",
        );
        assert_eq!(
            render(&brace_fields(&f)),
            "Not a valid <obj_type|>. <|> <0|> <k[1]|>/<o.a|!r:>4> {{lit}} {\"a\": 1} { x } {1x} {"
        );
    }

    #[test]
    fn str_format() {
        let f = Template::literal("{} is {0.x!r} {{ok}} {name:>4} {}");
        let t = format(
            &f,
            &["v".into(), "w".into()],
            &[("name".into(), "n".into())],
        );
        assert_eq!(render(&t), "<v|> is <v.x|!r> {ok} <n|>4> <w|>");
    }
}
