//! Making a git repository for the benches that index one.

use std::path::Path;
use std::process::Command;

/// Runs git in `dir` (as a bench identity; `date` as author and committer
/// date when given), which must succeed.
pub fn git(dir: &Path, args: &[&str], date: Option<&str>) {
    let mut c = Command::new("git");
    c.args([
        "-c",
        "user.name=bench",
        "-c",
        "user.email=bench@example.org",
    ])
    .args(args)
    .current_dir(dir);
    if let Some(d) = date {
        c.env("GIT_COMMITTER_DATE", d).env("GIT_AUTHOR_DATE", d);
    }
    let out = c.output().expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
