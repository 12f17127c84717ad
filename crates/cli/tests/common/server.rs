//! A real `errdex serve` on an ephemeral loopback port, stopped on drop.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// A running server.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
}

impl Server {
    /// Starts `errdex serve` on `db` (a file or a `postgres://` URL) and
    /// waits for its address line.
    pub fn start(db: impl AsRef<std::ffi::OsStr>) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
            .env("ERRDEX_DB", db)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let base = line
            .trim()
            .strip_prefix("errdex: serving ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, base }
    }

    /// `base` + `path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
