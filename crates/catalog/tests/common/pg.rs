//! The PostgreSQL server of the tests: `ERRDEX_TEST_PG`, the URL of a
//! database on a server where the tests may create and drop databases
//! (`.ci/postgres.sh start DIR` prints one). Unset, the PostgreSQL tests
//! are skipped with a loud message, except under CI (`CI` set), where
//! they fail.

use std::sync::atomic::{AtomicUsize, Ordering};

/// `ERRDEX_TEST_PG`, or `None` after saying loudly that the PostgreSQL
/// tests are skipped (a failure when `CI` is set).
pub fn server() -> Option<String> {
    match std::env::var("ERRDEX_TEST_PG") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => panic!(
            "ERRDEX_TEST_PG is not set, and CI must run the PostgreSQL tests (.ci/run starts a server)"
        ),
        _ => {
            eprintln!(
                "\n*** SKIPPED: the PostgreSQL half of this test: set ERRDEX_TEST_PG=postgres://USER@HOST:PORT/DB \
                 (README, section PostgreSQL; `.ci/postgres.sh start DIR` starts one) ***\n"
            );
            None
        }
    }
}

/// `url` with its database replaced by `name`.
pub fn with_db(url: &str, name: &str) -> String {
    let (head, query) = match url.split_once('?') {
        Some((h, q)) => (h, format!("?{q}")),
        None => (url, String::new()),
    };
    let scheme_end = head.find("://").map_or(0, |i| i + 3);
    let base = match head[scheme_end..].find('/') {
        Some(i) => &head[..scheme_end + i],
        None => head,
    };
    format!("{base}/{name}{query}")
}

/// A database of its own on the test server, dropped when this is.
pub struct TempDb {
    /// Its URL.
    pub url: String,
    admin: String,
    name: String,
}

impl TempDb {
    /// A new empty database (`None` when no server is configured).
    pub fn new() -> Option<TempDb> {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let admin = server()?;
        let name = format!(
            "errdex_t_{}_{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut c = postgres::Client::connect(&admin, postgres::NoTls)
            .unwrap_or_else(|e| panic!("cannot connect to ERRDEX_TEST_PG: {e}"));
        c.batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
            .unwrap();
        c.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
        Some(TempDb {
            url: with_db(&admin, &name),
            admin,
            name,
        })
    }

    /// A superuser connection to this database.
    #[allow(dead_code)] // not every test file looks inside
    pub fn client(&self) -> postgres::Client {
        postgres::Client::connect(&self.url, postgres::NoTls).unwrap()
    }

    /// The server's URL (the database the tests were given).
    #[allow(dead_code)] // not every test file needs it
    pub fn admin(&self) -> &str {
        &self.admin
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}
