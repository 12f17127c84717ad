//! HTTP tests against the real server on an ephemeral port: every page and
//! API route, caching, limits, and hostile text from a repository.

mod common;

use common::server::Server;
use common::{errdex, facts_db, id_of};
use serde_json::Value;

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

fn get(url: &str) -> (u16, String, ureq::http::HeaderMap) {
    let mut r = agent().get(url).call().unwrap();
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    (
        status,
        r.body_mut().read_to_string().unwrap_or_default(),
        headers,
    )
}

#[test]
fn pages_and_api() {
    let tmp = tempfile::tempdir().unwrap();
    let db = facts_db(tmp.path());
    let s = Server::start(&db);
    let id = id_of(&db, "facts", "division by zero");

    let (status, home, headers) = get(&s.url("/"));
    assert_eq!(status, 200);
    assert!(home.contains("href=\"/repos/facts\""), "{home}");
    assert!(home.contains("<form action=\"/explain\" method=\"post\""));
    let csp = headers["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("default-src 'none'") && !csp.contains("script-src"),
        "{csp}"
    );
    assert_eq!(headers["x-content-type-options"], "nosniff");

    let (status, repo, _) = get(&s.url("/repos/facts?kind=panic"));
    assert_eq!(status, 200);
    assert!(repo.contains(&format!("/errors/{id}")), "{repo}");
    assert!(!repo.contains("stack is empty"), "filtered by kind: {repo}");

    // The error page: every section, in the design's order.
    let (status, page, headers) = get(&s.url(&format!("/errors/{id}")));
    assert_eq!(status, 200);
    let order = [
        "class=\"crumbs\"",
        "<h1 class=\"message\">",
        "id=\"message\"",
        "id=\"means\"",
        "id=\"when\"",
        "id=\"solutions\"",
        "id=\"example_fix\"",
        "id=\"related\"",
        "id=\"provenance\"",
        "id=\"source\"",
        "id=\"sites\"",
        "id=\"versions\"",
    ];
    let mut at = 0;
    for mark in order {
        let i = page[at..]
            .find(mark)
            .unwrap_or_else(|| panic!("{mark} missing or out of order"));
        at += i;
    }
    assert!(page.contains("Thrown at src/lib.rs:13"));
    assert!(page.contains("class=\"line marked\"><span class=\"ln\">13</span>"));
    assert!(page.contains(&format!(
        "Data as JSON: <a href=\"{}/api/errors/{id}\"",
        s.base
    )));
    assert!(page.contains("<title>division by zero: {a} / {b} · facts · errdex</title>"));

    // ETag: the same page again is 304.
    let etag = headers["etag"].to_str().unwrap().to_string();
    let r = agent()
        .get(&s.url(&format!("/errors/{id}")))
        .header("If-None-Match", &etag)
        .call()
        .unwrap();
    assert_eq!(r.status().as_u16(), 304);

    // JSON: the record and its page's url.
    let (status, body, headers) = get(&s.url(&format!("/api/errors/{id}")));
    assert_eq!(status, 200);
    assert_eq!(headers["content-type"], "application/json");
    let rec: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(rec["url"], s.url(&format!("/errors/{id}")));
    assert_eq!(rec["analysis"]["sections"].as_array().unwrap().len(), 4);

    let (_, body, _) = get(&s.url("/api/search?q=division%20by%20zero%3A%201%20%2F%200"));
    let x: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        x["matches"][0]["url"],
        s.url(&format!("/errors/{id}")),
        "{x}"
    );
    assert_eq!(x["matches"][0]["captures"][0]["value"], "1");

    let mut r = agent()
        .post(&s.url("/api/explain"))
        .header("content-type", "application/json")
        .send(r#"{"text": "thread 'main' panicked at src/lib.rs:13:9:\ndivision by zero: 4 / 0"}"#)
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let x: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
    let best = x["best"][0].as_u64().unwrap() as usize;
    assert_eq!(x["matches"][best]["url"], s.url(&format!("/errors/{id}")));

    let (_, body, _) = get(&s.url("/api/repos"));
    let repos: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(repos[0]["slug"], "facts");
    assert_eq!(repos[0]["url"], s.url("/repos/facts"));

    let (_, body, _) = get(&s.url("/api/openapi.json"));
    let doc: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(doc["openapi"], "3.0.3");
    assert!(doc["paths"]["/api/explain"]["post"].is_object());
    assert_eq!(doc["servers"][0]["url"], s.base);

    assert_eq!(get(&s.url("/healthz")).1, "ok");
    let (_, map, _) = get(&s.url("/sitemap.xml"));
    assert!(
        map.contains(&format!("<loc>{}/errors/{id}</loc>", s.base)),
        "{map}"
    );

    // The explain form (no JavaScript: a plain POST).
    let mut r = agent()
        .post(&s.url("/explain"))
        .header("content-type", "application/x-www-form-urlencoded")
        .send("text=division+by+zero%3A+9+%2F+0")
        .unwrap();
    let html = r.body_mut().read_to_string().unwrap();
    assert!(
        html.contains(&format!("href=\"/errors/{id}\" class=\"match\"")),
        "{html}"
    );
    assert!(html.contains("<code>a</code> = <code>9</code>"), "{html}");
}

#[test]
fn bad_requests_are_clear() {
    let tmp = tempfile::tempdir().unwrap();
    let db = facts_db(tmp.path());
    let s = Server::start(&db);
    let (status, body, _) = get(&s.url("/api/errors/0000000000000000"));
    assert_eq!(status, 404);
    assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    assert_eq!(get(&s.url("/errors/not-an-id")).0, 404);
    assert_eq!(get(&s.url("/no/such/page")).0, 404);
    assert_eq!(get(&s.url("/repos/nobody")).0, 404);
    assert_eq!(get(&s.url("/api/search")).0, 400);
    let long = "x".repeat(10_000);
    assert_eq!(get(&s.url(&format!("/search?q={long}"))).0, 414);
    let r = agent()
        .post(&s.url("/api/explain"))
        .header("content-type", "application/json")
        .send("not json")
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    // A 2 MiB body is refused from its Content-Length, before it is read:
    // send the head and a little of the body, then read the answer (a
    // client sending all of it may see the connection closed mid-way).
    {
        use std::io::{Read, Write};
        let addr = s.base.trim_start_matches("http://");
        let mut c = std::net::TcpStream::connect(addr).unwrap();
        write!(
            c,
            "POST /api/explain HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{{\"text\": \"aaaa",
            2 * 1024 * 1024
        )
        .unwrap();
        let mut answer = String::new();
        let _ = c.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    }
    // Still serving.
    assert_eq!(get(&s.url("/healthz")).0, 200);
}

#[test]
fn hostile_text_from_a_repository_renders_inert() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("hostile");
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("src/lib.rs"),
        "/// <img src=x onerror=alert(1)>\npub fn f() {\n    panic!(\"<script>alert(1)</script>\\\" onload=\\\"steal()\");\n}\n\
         // A neighbour, listed among the related errors of the first.\n\
         pub fn g() {\n    panic!(\"<script>second</script>\");\n}\n",
    )
    .unwrap();
    let db = tmp.path().join("h.db");
    assert!(errdex(&db)
        .arg("index")
        .arg(&root)
        .output()
        .unwrap()
        .status
        .success());
    let id = id_of(&db, "hostile", "alert(1)");
    let s = Server::start(&db);
    for path in [
        format!("/errors/{id}"),
        "/repos/hostile".to_string(),
        "/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E".to_string(),
    ] {
        let (status, html, _) = get(&s.url(&path));
        assert_eq!(status, 200, "{path}");
        assert!(!html.contains("<script"), "{path}: {html}");
        if path.starts_with("/errors/") {
            assert!(
                html.contains("second"),
                "the related error is listed: {html}"
            );
        }
        assert!(!html.contains("<img"), "{path}");
        assert!(!html.contains("\" onload="), "{path}");
        // Escaped, whichever entity form the template engine picks.
        assert!(
            html.contains("&lt;script&gt;") || html.contains("&#60;script&#62;"),
            "{path}"
        );
    }
    let (_, body, headers) = get(&s.url(&format!("/api/errors/{id}")));
    assert_eq!(headers["content-type"], "application/json");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    let rec: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        rec["template"],
        "<script>alert(1)</script>\" onload=\"steal()"
    );
}

#[test]
fn serve_logs_through_tracing_as_rust_log_says() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let tmp = tempfile::tempdir().unwrap();
    let db = facts_db(tmp.path());
    let start = |filter: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_errdex"))
            .env("ERRDEX_DB", &db)
            .env("RUST_LOG", filter)
            .args(["serve", "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("errdex: serving http://"), "{first}");
        // The log line is written before the server accepts anything.
        std::thread::sleep(std::time::Duration::from_millis(300));
        let _ = child.kill();
        let out = child.wait_with_output().unwrap();
        String::from_utf8(out.stderr).unwrap()
    };
    let logged = start("info");
    assert!(
        logged.contains(" INFO ") && logged.contains("serving"),
        "{logged:?}"
    );
    assert!(logged.contains("max_connections=4096"), "{logged:?}");
    assert_eq!(start("off"), "");
}

/// Text of an HTML fragment without its tags, entities of the escaper undone.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&#39;", "'")
        .replace("&#38;", "&")
        .replace("&#34;", "\"")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[test]
fn citations_are_numbered_and_link_to_the_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let db = facts_db(tmp.path());
    let s = Server::start(&db);
    let id = id_of(&db, "facts", "division by zero");
    let (_, body, _) = get(&s.url(&format!("/api/errors/{id}")));
    let rec: Value = serde_json::from_str(&body).unwrap();
    let (status, page, _) = get(&s.url(&format!("/errors/{id}")));
    assert_eq!(status, 200);

    // Every citation is a number; the placed ones open the stored file at
    // the cited line of the analysed revision.
    let cites: Vec<&str> = page
        .split("<sup class=\"cite\"><a href=\"")
        .skip(1)
        .collect();
    assert!(!cites.is_empty(), "no citation on the page");
    let mut opened = 0;
    for c in &cites {
        let href = c[..c.find('"').unwrap()]
            .replace("&#38;", "&")
            .replace("&amp;", "&");
        let number = &c[c.find("\">[").unwrap() + 3..c.find("]</a>").unwrap()];
        assert!(number.parse::<usize>().is_ok(), "{number}");
        if let Some(rest) = href.strip_prefix("/source?") {
            let (query, line) = rest.split_once("#L").unwrap();
            let (status, source, _) = get(&s.url(&format!("/source?{query}")));
            assert_eq!(status, 200, "{href}");
            assert!(source.contains(&format!("id=\"L{line}\"")), "{href}");
            opened += 1;
        } else {
            assert!(href.starts_with("#source-"), "{href}");
        }
    }
    assert!(opened > 0, "no citation links to a line");

    // Sources name each cited fact's place and quote its line, not the
    // fact's sentence again (that is in the section that cites it).
    let sources = &page[page.find("id=\"sources\"").unwrap()..];
    let sources = &sources[..sources.find("</section>").unwrap()];
    assert!(sources.contains("id=\"source-1\""), "{sources}");
    let cited: Vec<&str> = rec["analysis"]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["sentences"].as_array().unwrap())
        .flat_map(|t| t["facts"].as_array().unwrap())
        .map(|f| f.as_str().unwrap())
        .collect();
    let listed = text_of(sources);
    for f in rec["analysis"]["facts"].as_array().unwrap() {
        let text = f["text"].as_str().unwrap().replace('`', "");
        if cited.contains(&f["id"].as_str().unwrap()) && f["kind"] != "related" {
            assert!(!listed.contains(&text), "repeated under Sources: {text}");
        }
    }
    // The site's own line is quoted where a fact cites it.
    assert!(listed.contains("panic!(\"division by zero"), "{listed}");

    // A file the snapshot does not hold is a 404, not an empty page.
    let revision = rec["analysis"]["provenance"]["revision"].as_str().unwrap();
    let (status, _, _) = get(&s.url(&format!(
        "/source?repo=facts&rev={revision}&path=src%2Fnope.rs"
    )));
    assert_eq!(status, 404);
    let (status, _, _) = get(&s.url("/source?repo=facts&rev=nope&path=src%2Flib.rs"));
    assert_eq!(status, 404);
}
