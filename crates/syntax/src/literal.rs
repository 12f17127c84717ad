//! Decoding Rust string literals (plain, raw, byte, C) to the text they denote.

/// The text a Rust string literal denotes, or `None` when `raw` is not a
/// string literal. Handles escapes, `\` line continuations, raw strings with
/// any number of `#`, and `b`/`c` prefixes (bytes decoded lossily). Carriage
/// returns before newlines are dropped, as rustc does.
pub fn decode(raw: &str) -> Option<String> {
    let raw = raw.replace("\r\n", "\n");
    let rest = raw.strip_prefix(['b', 'c']).unwrap_or(&raw);
    if let Some(r) = rest.strip_prefix('r') {
        let hashes = r.len() - r.trim_start_matches('#').len();
        let body = r[hashes..].strip_prefix('"')?;
        let end = body.len().checked_sub(hashes + 1)?;
        if !body[end..].starts_with('"') {
            return None;
        }
        return Some(body[..end].to_string());
    }
    let body = rest.strip_prefix('"')?.strip_suffix('"')?;
    let byte_string = raw.starts_with('b');
    let mut out = String::with_capacity(body.len());
    let mut bytes: Vec<u8> = Vec::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            push(&mut out, &mut bytes, byte_string, c);
            continue;
        }
        match chars.next()? {
            'n' => push(&mut out, &mut bytes, byte_string, '\n'),
            'r' => push(&mut out, &mut bytes, byte_string, '\r'),
            't' => push(&mut out, &mut bytes, byte_string, '\t'),
            '0' => push(&mut out, &mut bytes, byte_string, '\0'),
            '\\' => push(&mut out, &mut bytes, byte_string, '\\'),
            '\'' => push(&mut out, &mut bytes, byte_string, '\''),
            '"' => push(&mut out, &mut bytes, byte_string, '"'),
            'x' => {
                let hex: String = [chars.next()?, chars.next()?].iter().collect();
                let v = u8::from_str_radix(&hex, 16).ok()?;
                if byte_string {
                    bytes.push(v);
                } else {
                    out.push(char::from(v));
                }
            }
            'u' => {
                if chars.next()? != '{' {
                    return None;
                }
                let mut hex = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    if c != '_' {
                        hex.push(c);
                    }
                }
                let ch = char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?;
                push(&mut out, &mut bytes, byte_string, ch);
            }
            '\n' => {
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
            }
            _ => return None,
        }
    }
    if byte_string {
        Some(String::from_utf8_lossy(&bytes).into_owned())
    } else {
        Some(out)
    }
}

fn push(out: &mut String, bytes: &mut Vec<u8>, byte_string: bool, c: char) {
    if byte_string {
        let mut buf = [0u8; 4];
        bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    } else {
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn escapes_and_continuations() {
        assert_eq!(
            decode(r#""a\nb\t\"q\" \\ \x41 \u{1F600}""#).unwrap(),
            "a\nb\t\"q\" \\ A \u{1F600}"
        );
        assert_eq!(decode("\"one \\\n        two\"").unwrap(), "one two");
        assert_eq!(decode("\"x\\n\\\n   y\"").unwrap(), "x\ny");
        assert_eq!(
            decode("\"real\n    newline\"").unwrap(),
            "real\n    newline"
        );
        assert_eq!(decode("\"crlf\r\n\"").unwrap(), "crlf\n");
    }

    #[test]
    fn raw_byte_and_c_strings() {
        assert_eq!(decode(r##"r#"raw "q" \x7D"#"##).unwrap(), r#"raw "q" \x7D"#);
        assert_eq!(decode(r#"r"plain""#).unwrap(), "plain");
        assert_eq!(decode(r#"b"by\x41te""#).unwrap(), "byAte");
        assert_eq!(decode(r##"br#"b"r"#"##).unwrap(), "b\"r");
        assert_eq!(decode(r#"c"cstr""#).unwrap(), "cstr");
    }

    #[test]
    fn rejects_non_literals() {
        assert_eq!(decode("ident"), None);
        assert_eq!(decode(r#""bad \q escape""#), None);
        assert_eq!(decode(r##"r#"unterminated""##), None);
    }
}
