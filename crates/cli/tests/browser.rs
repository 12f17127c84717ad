//! End to end in headless Chromium (Debian's `chromium` and
//! `chromium-driver`, installed by `.ci/run`): index a fixture, open an
//! error page, check its sections are visible, submit the explain form and
//! follow a result. With `ERRDEX_SCREENSHOT=PATH` it also saves a
//! screenshot of the error page there.

mod common;

use common::server::Server;
use common::{facts_db, id_of};
use fantoccini::{ClientBuilder, Locator};
use std::process::{Child, Command, Stdio};

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_page_and_explain_form_in_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let db = facts_db(tmp.path());
    let id = id_of(&db, "facts", "division by zero");
    let server = Server::start(&db);

    let port = free_port();
    let driver =
        Command::new(std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into()))
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver (Debian package chromium-driver) must be installed: see .ci/run");
    let _driver = Driver(driver);
    let profile = tmp.path().join("profile");
    let caps: serde_json::Map<String, serde_json::Value> = serde_json::from_value(serde_json::json!({
        "goog:chromeOptions": {
            "binary": std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into()),
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1200,1600",
                format!("--user-data-dir={}", profile.display()),
            ]
        }
    }))
    .unwrap();
    let mut client = None;
    for _ in 0..50 {
        match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
        {
            Ok(c) => {
                client = Some(c);
                break;
            }
            Err(_) => tokio::time::sleep(std::time::Duration::from_millis(200)).await,
        }
    }
    let c = client.expect("chromedriver did not start");

    // The error page: every section visible, in order.
    c.goto(&server.url(&format!("/errors/{id}"))).await.unwrap();
    let title = c.title().await.unwrap();
    assert!(title.starts_with("division by zero"), "{title}");
    let mut last_y = -1.0;
    for section in [
        "message",
        "means",
        "when",
        "solutions",
        "example_fix",
        "related",
        "source",
        "versions",
    ] {
        let el = c.find(Locator::Id(section)).await.unwrap();
        assert!(el.is_displayed().await.unwrap(), "{section} hidden");
        let (_, y, _, h) = el.rectangle().await.unwrap();
        assert!(h > 0.0 && y > last_y, "{section} out of order");
        last_y = y;
    }
    let marked = c.find(Locator::Css(".excerpt .line.marked")).await.unwrap();
    assert!(marked
        .text()
        .await
        .unwrap()
        .contains("panic!(\"division by zero"));
    if let Ok(path) = std::env::var("ERRDEX_SCREENSHOT") {
        std::fs::write(path, c.screenshot().await.unwrap()).unwrap();
    }

    // The explain form from the home page, then a result's link.
    c.goto(&server.url("/")).await.unwrap();
    let area = c.find(Locator::Id("explain-text")).await.unwrap();
    area.send_keys("thread 'main' panicked at src/lib.rs:13:9:\ndivision by zero: 7 / 0")
        .await
        .unwrap();
    c.find(Locator::Css("#explain-form button"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    let best = c
        .wait()
        .for_element(Locator::Css("li.best a.match"))
        .await
        .unwrap();
    let captures = c.find(Locator::Css("li.best .captures")).await.unwrap();
    assert!(captures.text().await.unwrap().contains("a = 7"));
    best.click().await.unwrap();
    c.wait().for_element(Locator::Id("means")).await.unwrap();
    assert!(c
        .current_url()
        .await
        .unwrap()
        .as_str()
        .ends_with(&format!("/errors/{id}")));
    c.close().await.unwrap();
}
