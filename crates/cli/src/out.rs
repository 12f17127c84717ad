//! Writing to standard output: a closed pipe (`errdex list | head`) ends
//! the output quietly instead of failing.

use std::io::Write;

/// Writes `text` to stdout; a broken pipe is not an error.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
}
