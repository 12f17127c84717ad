//! Writing to standard output: a closed pipe (`errdex list | head`) ends
//! the output quietly instead of failing; text for a terminal never holds
//! a raw control character.

use std::io::Write;

/// Writes human-readable `text` to stdout with [`escape_controls`]
/// applied: source text, file names and pasted input cannot move the
/// cursor, recolour or retitle the terminal. A broken pipe is not an error.
pub fn print(text: &str) {
    write(&escape_controls(text));
}

/// Writes JSON `text` to stdout exactly (serde_json already escapes every
/// C0 control character inside strings). A broken pipe is not an error.
pub fn print_json(text: &str) {
    write(text);
}

/// [`print_json`] when `json`, else [`print`].
pub fn emit(text: &str, json: bool) {
    if json {
        print_json(text)
    } else {
        print(text)
    }
}

fn write(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}

/// True for characters a terminal may act on rather than show: C0 and C1
/// controls and DEL (but not newline and tab), and the bidirectional
/// overrides and isolates that reorder what is shown ("Trojan Source").
pub fn is_unsafe_for_terminal(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every character [`is_unsafe_for_terminal`] written as a
/// Rust escape (`\u{1b}`), so it is seen and cannot act.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_unsafe_for_terminal) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_unsafe_for_terminal(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn controls_are_escaped() {
        assert_eq!(
            escape_controls("a\x1b]0;x\x07b\r\n\tc\u{9b}\u{202e}"),
            "a\\u{1b}]0;x\\u{7}b\\u{d}\n\tc\\u{9b}\\u{202e}"
        );
        assert_eq!(escape_controls("plain ü\n"), "plain ü\n");
    }
}
