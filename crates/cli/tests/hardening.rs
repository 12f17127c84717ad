//! Hostile inputs found by probing the real binary (issue 13, section 3):
//! each test reproduces one failure — an abort, a hang, an injection, a
//! starved server — and checks that it now ends cleanly.

mod common;

use common::{errdex, run_json};
use std::path::Path;

/// A tree holding three files nested past the syntax depth limit, one
/// nested deeply but within it (with a site), and a plain one.
fn deep_tree(root: &Path) {
    std::fs::create_dir_all(root.join("src")).unwrap();
    let mut elseif = String::from("pub fn f(x: u32) -> u32 {\n    if x == 0 { 0 }\n");
    for i in 1..300 {
        elseif.push_str(&format!("    else if x == {i} {{ {i} }}\n"));
    }
    elseif.push_str("    else { panic!(\"too many arms\") }\n}\n");
    std::fs::write(root.join("src/elseif.rs"), elseif).unwrap();
    let matches = format!(
        "pub fn g(x: u32) -> u32 {{\n{}panic!(\"deep match\"){}\n}}\n",
        "match x { 0 => 0, _ => ".repeat(200),
        " }".repeat(200)
    );
    std::fs::write(root.join("src/matches.rs"), matches).unwrap();
    let chain = format!(
        "pub fn h(v: Vec<u32>) -> usize {{\n    v.iter(){}.count()\n}}\n",
        ".map(|x| x + 1)".repeat(300)
    );
    std::fs::write(root.join("src/chain.rs"), chain).unwrap();
    let mut near = String::from("pub fn k(x: u32) -> u32 {\n    if x == 0 { 0 }\n");
    for i in 1..100 {
        near.push_str(&format!("    else if x == {i} {{ {i} }}\n"));
    }
    near.push_str("    else { panic!(\"one hundred arms is fine\") }\n}\n");
    std::fs::write(root.join("src/near.rs"), near).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        "pub fn ok() { panic!(\"plain site\") }\n",
    )
    .unwrap();
}

#[test]
fn deep_syntax_is_skipped_and_counted_not_a_crash() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("deep");
    deep_tree(&root);
    let db = tmp.path().join("c.db");
    let out = errdex(&db)
        .args(["index", "--json"])
        .arg(&root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "status {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["skipped"]["too_deep"], 3, "{summary}");
    assert_eq!(summary["files"], 2, "{summary}");

    // The file within the limit is extracted, analysed, shown and served.
    let id = common::id_of(&db, "deep", "one hundred arms");
    let out = errdex(&db).args(["analyze", &id]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = run_json(errdex(&db).args(["show", "--json", &id]));
    assert_eq!(shown["sites"][0]["path"], "src/near.rs", "{shown}");
    let server = common::server::Server::start(&db);
    let page = ureq::get(&server.url(&format!("/errors/{id}")))
        .call()
        .unwrap()
        .into_body()
        .read_to_string()
        .unwrap();
    assert!(page.contains("one hundred arms is fine"));
}

/// Runs a command with a deadline: a hang is a failure, not a stuck test.
fn bounded(c: &mut assert_cmd::Command) -> std::process::Output {
    c.timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap()
}

#[test]
fn fifo_and_devices_are_skipped_without_reading() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("special");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "pub fn f() { panic!(\"real\") }\n").unwrap();
    // Opening a FIFO for reading blocks until a writer comes: none will.
    let st = std::process::Command::new("mkfifo")
        .arg(root.join("src/x.rs"))
        .status()
        .unwrap();
    assert!(st.success());
    // A character device named like a source file: /dev/zero never ends.
    let mknod = std::process::Command::new("mknod")
        .arg(root.join("src/zero.rs"))
        .args(["c", "1", "5"])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    // A link to it is never followed.
    std::os::unix::fs::symlink("/dev/zero", root.join("src/link.rs")).unwrap();

    let db = tmp.path().join("c.db");
    let out = bounded(errdex(&db).args(["index", "--json"]).arg(&root));
    assert!(
        out.status.success(),
        "{:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["files"], 1, "{summary}");
    let special = if mknod { 2 } else { 1 };
    assert_eq!(summary["skipped"]["not_regular"], special, "{summary}");
    assert_eq!(summary["skipped"]["symlink"], 1, "{summary}");

    // A lock file that is /dev/zero (through a link) or a FIFO: a clear
    // one-line error, at once.
    for (name, make) in [("zero", "link"), ("fifo", "fifo")] {
        let dir = tmp.path().join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let lock = dir.join("Cargo.lock");
        if make == "link" {
            std::os::unix::fs::symlink("/dev/zero", &lock).unwrap();
        } else {
            let st = std::process::Command::new("mkfifo")
                .arg(&lock)
                .status()
                .unwrap();
            assert!(st.success());
        }
        let out = bounded(
            errdex(&db)
                .args(["explain", "--lock"])
                .arg(&lock)
                .arg("boom"),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("not a regular file"), "{err}");
        let out = bounded(
            errdex(&db)
                .arg("index")
                .arg(format!("lock:{}", lock.display())),
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("not a regular file"), "{err}");
    }
}

/// Writes raw bytes as a git object of `kind` with `--literally` (no
/// checks: how a hostile repository is made); returns its id.
fn git_object(dir: &Path, kind: &str, data: &[u8]) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new("git")
        .args(["hash-object", "-t", kind, "--literally", "-w", "--stdin"])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(data).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A tree entry's bytes: `mode name\0<20-byte id>`.
fn tree_entry(mode: &str, name: &[u8], hex: &str) -> Vec<u8> {
    let mut e = format!("{mode} ").into_bytes();
    e.extend_from_slice(name);
    e.push(0);
    e.extend((0..20).map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap()));
    e
}

#[test]
fn crafted_git_tree_names_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("crafted");
    std::fs::create_dir_all(&repo).unwrap();
    common::git(&repo, &["init", "-q"]);
    let good = git_object(&repo, "blob", b"pub fn f() { panic!(\"inside\") }\n");
    let evil = git_object(
        &repo,
        "blob",
        b"pub fn e() { panic!(\"escaped the tree\") }\n",
    );
    let src = git_object(&repo, "tree", &tree_entry("100644", b"lib.rs", &good));
    let evil_tree = git_object(&repo, "tree", &tree_entry("100644", b"evil.rs", &evil));
    let mut root = Vec::new();
    root.extend(tree_entry("40000", b"..", &evil_tree));
    root.extend(tree_entry("40000", b".", &evil_tree));
    root.extend(tree_entry("100644", b"a/../../evil.rs", &evil));
    root.extend(tree_entry("40000", b"src", &src));
    let root = git_object(&repo, "tree", &root);
    let commit = common::git(&repo, &["commit-tree", &root, "-m", "crafted"]);
    common::git(&repo, &["update-ref", "refs/heads/main", &commit]);
    common::git(&repo, &["symbolic-ref", "HEAD", "refs/heads/main"]);

    let db = tmp.path().join("c.db");
    let summary = run_json(
        errdex(&db)
            .args(["index", "--json", "--no-history"])
            .arg(&repo),
    );
    assert_eq!(summary["files"], 1, "{summary}");
    assert_eq!(summary["skipped"]["bad_tree_entry"], 3, "{summary}");
    let list = run_json(errdex(&db).args(["list", "--json"]));
    let list = list.as_array().unwrap();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["template"], "inside");
    assert_eq!(list[0]["path"], "src/lib.rs", "{list:?}");
}

/// No raw control character (but newline and tab) in `bytes`.
fn assert_no_raw_controls(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let raw: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n' && c != '\t')
        .collect();
    assert!(raw.is_empty(), "{what} printed raw {raw:?}: {text}");
}

#[test]
fn terminal_output_escapes_control_characters() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("esc");
    std::fs::create_dir_all(root.join("src")).unwrap();
    // The message retitles the terminal and clears the screen; the file
    // name turns the text red.
    let message = "\x1b]0;pwned\x07\x1b[2J wiped the screen";
    std::fs::write(
        root.join("src/\x1b[31mred.rs"),
        // `#[track_caller]`: a report names the caller's line (`src/x.rs`).
        format!("#[track_caller]\npub fn f() {{ panic!(\"{message}\") }}\n"),
    )
    .unwrap();
    let db = tmp.path().join("c.db");
    let out = errdex(&db).arg("index").arg(&root).output().unwrap();
    assert!(out.status.success());

    let out = errdex(&db).arg("list").output().unwrap();
    assert!(out.status.success());
    assert_no_raw_controls("list", &out.stdout);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\\u{1b}]0;pwned\\u{7}"), "{text}");
    assert!(text.contains("src/\\u{1b}[31mred.rs"), "{text}");

    let id = common::id_of(&db, "esc", "wiped the screen");
    let out = errdex(&db).args(["show", &id]).output().unwrap();
    assert!(out.status.success());
    assert_no_raw_controls("show", &out.stdout);
    assert!(String::from_utf8_lossy(&out.stdout).contains("\\u{1b}[2J"));

    // Pasted input is echoed escaped too, and a bad argument's error line.
    let out = errdex(&db)
        .args([
            "explain",
            &format!("thread 'main' panicked at src/x.rs:1:1:\n{message}"),
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_no_raw_controls("explain", &out.stdout);
    assert_no_raw_controls("explain stderr", &out.stderr);
    let out = errdex(&db)
        .args(["show", "\x1b[31mnot-an-id"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_no_raw_controls("show error", &out.stderr);

    // JSON stays exact: the same characters, escaped as JSON does.
    let list = run_json(errdex(&db).args(["list", "--json"]));
    assert_eq!(list[0]["template"], message);
    assert_eq!(list[0]["path"], "src/\x1b[31mred.rs");
    let shown = run_json(errdex(&db).args(["show", "--json", &id]));
    assert_eq!(shown["template"], message, "{shown}");
}

/// `errdex serve` started by `sh` with the soft descriptor limit lowered to
/// `nofile` (as a default 1024 would be under ~20k connections), on an
/// ephemeral port; killed on drop.
struct LimitedServer {
    child: std::process::Child,
    addr: String,
}

impl LimitedServer {
    fn start(db: &Path, nofile: u32, args: &str) -> LimitedServer {
        use std::io::BufRead;
        let mut child = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -Sn {nofile} && exec \"$0\" serve --addr 127.0.0.1:0 {args}"
            ))
            .arg(env!("CARGO_BIN_EXE_errdex"))
            .env("ERRDEX_DB", db)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let addr = line
            .trim()
            .strip_prefix("errdex: serving http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        LimitedServer { child, addr }
    }

    /// A connection that sends part of a request's headers and stops.
    fn idle(&self) -> std::net::TcpStream {
        use std::io::Write;
        let mut s = std::net::TcpStream::connect(&self.addr).unwrap();
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            .unwrap();
        s
    }

    /// `/healthz` answers `ok` within 5 seconds.
    fn healthy(&self) -> bool {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(std::time::Duration::from_secs(5)))
            .build()
            .into();
        agent
            .get(&format!("http://{}/healthz", self.addr))
            .call()
            .ok()
            .and_then(|r| r.into_body().read_to_string().ok())
            .is_some_and(|b| b == "ok")
    }
}

impl Drop for LimitedServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// True when the server has closed `s` (end of stream or reset) within
/// `wait`; false when it is still open.
fn closed_within(s: &mut std::net::TcpStream, wait: std::time::Duration) -> bool {
    use std::io::Read;
    s.set_read_timeout(Some(wait)).unwrap();
    let mut buf = [0u8; 512];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return false
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn idle_connections_do_not_starve_the_server() {
    use std::io::Write;
    use std::time::Duration;
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("idle");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/lib.rs"), "pub fn f() { panic!(\"x\") }\n").unwrap();
    let db = tmp.path().join("c.db");
    assert!(errdex(&db)
        .arg("index")
        .arg(&root)
        .output()
        .unwrap()
        .status
        .success());

    // More idle connections than the soft descriptor limit it started with.
    let server = LimitedServer::start(&db, 256, "--header-timeout 2");
    let mut idle: Vec<_> = (0..400).map(|_| server.idle()).collect();
    assert!(server.healthy(), "/healthz starved by 400 idle connections");
    // A connection idle between requests (keep-alive) is closed too.
    let mut kept = std::net::TcpStream::connect(&server.addr).unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    // Every unfinished header is dropped after the timeout.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    for s in &mut idle {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        assert!(
            closed_within(s, left.max(Duration::from_millis(1))),
            "an idle connection outlived the header timeout"
        );
    }
    assert!(closed_within(&mut kept, Duration::from_secs(5)));
    drop(idle);

    // Past the cap, each newcomer takes the place of the idle connection
    // waiting the longest: the oldest 50 are closed, the newest 50 kept,
    // and /healthz answers at once, long before any header timeout.
    // (crates/web/tests/idle_connections.rs: keep-alive connections, and
    // connections serving a request, which are never taken.)
    let server = LimitedServer::start(&db, 256, "--header-timeout 60 --max-connections 50");
    let mut conns: Vec<_> = (0..100).map(|_| server.idle()).collect();
    std::thread::sleep(Duration::from_millis(500));
    let closed: Vec<bool> = conns
        .iter_mut()
        .map(|s| closed_within(s, Duration::from_millis(20)))
        .collect();
    assert!(
        closed[..50].iter().all(|&c| c) && !closed[50..].iter().any(|&c| c),
        "not the oldest 50 of 100 closed with a cap of 50: {closed:?}"
    );
    assert!(server.healthy(), "/healthz refused at the cap");
}

#[test]
fn show_is_linear_in_the_sites_of_one_error() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("many");
    std::fs::create_dir_all(root.join("src")).unwrap();
    let mut text = String::from("pub fn f(x: u32) {\n");
    for i in 0..20_000 {
        text.push_str(&format!(
            "    if x == {i} {{ panic!(\"the same message\") }}\n"
        ));
    }
    text.push_str("}\n");
    std::fs::write(root.join("src/lib.rs"), text).unwrap();
    let db = tmp.path().join("c.db");
    assert!(errdex(&db)
        .arg("index")
        .arg(&root)
        .output()
        .unwrap()
        .status
        .success());
    let id = common::id_of(&db, "many", "the same message");
    // Each site's excerpt decompressed the whole file again: 54 s.
    let started = std::time::Instant::now();
    let out = bounded(errdex(&db).args(["show", "--json", &id]));
    assert!(out.status.success());
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["sites"].as_array().unwrap().len(), 20_000);
    let last = shown["sites"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["excerpt"].as_array().unwrap())
        .find(|l| l["line"] == 20_001)
        .unwrap_or_else(|| panic!("no excerpt holds line 20001"));
    assert_eq!(
        last["text"],
        "    if x == 19999 { panic!(\"the same message\") }"
    );
    let secs = started.elapsed().as_secs_f64();
    assert!(secs < 20.0, "show took {secs:.1}s");

    // The API pages the sites.
    let server = common::server::Server::start(&db);
    let get = |q: &str| -> serde_json::Value {
        let body = ureq::get(&server.url(&format!("/api/errors/{id}{q}")))
            .call()
            .unwrap()
            .into_body()
            .read_to_string()
            .unwrap();
        serde_json::from_str(&body).unwrap()
    };
    let first = get("");
    assert_eq!(first["sites"].as_array().unwrap().len(), 500);
    assert_eq!(first["sites_total"], 20_000);
    assert_eq!(
        (first["page"].clone(), first["pages"].clone()),
        (1.into(), 40.into())
    );
    let last = get("?page=40");
    assert_eq!(last["sites"].as_array().unwrap().len(), 500);
    assert_ne!(first["sites"][0], last["sites"][0]);
    assert_eq!(get("?page=99")["page"], 40);

    // So does the HTML page, with links to the other pages.
    let html = |q: &str| -> String {
        ureq::get(&server.url(&format!("/errors/{id}{q}")))
            .call()
            .unwrap()
            .into_body()
            .read_to_string()
            .unwrap()
    };
    let page1 = html("");
    assert!(page1.contains("<h2>Sites (20000)</h2>"), "{page1}");
    assert_eq!(page1.matches("<li><code>src/lib.rs:").count(), 500);
    assert!(page1.contains(&format!("<a href=\"/errors/{id}?page=40#sites\">40</a>")));
    // The Sites list of each page (the Sources above it cite the
    // analysed site's line on every page).
    assert!(page1.contains("<li><code>src/lib.rs:2</code>"));
    let page40 = html("?page=40");
    assert!(page40.contains("<b>40</b>"));
    assert!(page40.contains("<code>src/lib.rs:20001</code>"));
    assert!(!page40.contains("<li><code>src/lib.rs:2</code>"));
}
