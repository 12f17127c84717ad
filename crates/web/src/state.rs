//! What the server holds: read-only catalogue connections, the matcher's
//! index, a cache of rendered pages with their ETags, and parsed snapshots
//! for analyses not cached in the catalogue. All of it is rebuilt when the
//! catalogue changes (a new snapshot or analysis).

use errdex_app::{Analyzers, Db, Location, Matcher};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// Read-only connections kept open.
const CONNECTIONS: usize = 4;
/// Rendered pages kept (then the cache starts over).
const MAX_PAGES: usize = 20_000;
/// Parsed snapshots kept.
const MAX_ANALYZERS: usize = 4;

/// A rendered response body and its validator.
#[derive(Clone)]
pub struct Page {
    /// `text/html; charset=utf-8`, `application/json`, …
    pub content_type: &'static str,
    /// The body.
    pub body: axum::body::Bytes,
    /// Strong ETag (quoted).
    pub etag: String,
}

impl Page {
    /// A page whose ETag is a hash of its body.
    pub fn new(content_type: &'static str, body: Vec<u8>) -> Self {
        let etag = format!("\"{:016x}\"", xxhash_rust::xxh3::xxh3_64(&body));
        Page {
            content_type,
            body: body.into(),
            etag,
        }
    }
}

/// The server's shared state.
pub struct State {
    /// The site's public base URL, no trailing slash (for links in JSON,
    /// the sitemap and issue reports).
    pub base_url: String,
    location: Location,
    pool: Vec<Mutex<Db>>,
    next: AtomicU64,
    matcher: RwLock<Arc<Matcher>>,
    generation: AtomicU64,
    pages: RwLock<HashMap<String, Page>>,
    /// Parsed snapshots for analyses not cached in the catalogue.
    pub analyzers: Analyzers,
}

impl State {
    /// Opens the catalogue read-only (a pool of connections, to a SQLite
    /// file or a PostgreSQL database) and the matcher's index (its
    /// persisted file, rebuilt first when the catalogue changed).
    pub fn open(db: Location, base_url: String) -> errdex_app::Result<Self> {
        let pool = (0..CONNECTIONS)
            .map(|_| Db::open_existing(&db).map(Mutex::new))
            .collect::<errdex_app::Result<Vec<_>>>()?;
        let (matcher, generation) = {
            let c = pool[0].lock().expect("fresh lock");
            (c.matcher(None)?, c.generation()?)
        };
        Ok(State {
            base_url,
            location: db,
            pool,
            next: AtomicU64::new(0),
            matcher: RwLock::new(Arc::new(matcher)),
            generation: AtomicU64::new(generation),
            pages: RwLock::new(HashMap::new()),
            analyzers: Analyzers::new(MAX_ANALYZERS),
        })
    }

    /// Where the catalogue is.
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Runs `f` with one of the read-only connections.
    pub fn with_catalog<T>(&self, f: impl FnOnce(&Db) -> T) -> T {
        let i = self.next.fetch_add(1, Ordering::Relaxed) as usize % self.pool.len();
        let c = self.pool[i].lock().unwrap_or_else(|p| p.into_inner());
        f(&c)
    }

    /// The matcher's index.
    pub fn matcher(&self) -> Arc<Matcher> {
        self.matcher
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// A cached page.
    pub fn page(&self, key: &str) -> Option<Page> {
        self.pages
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(key)
            .cloned()
    }

    /// Caches a page.
    pub fn keep(&self, key: String, page: Page) {
        let mut pages = self.pages.write().unwrap_or_else(|p| p.into_inner());
        if pages.len() >= MAX_PAGES {
            pages.clear();
        }
        pages.insert(key, page);
    }

    /// Checks whether the catalogue changed since the last check; if so,
    /// drops the cached pages and snapshots and takes the index again (the
    /// persisted file when its snapshot set is unchanged, as after an
    /// analysis; else rebuilt from the catalogue).
    pub fn refresh(&self) -> errdex_app::Result<bool> {
        let now = self.with_catalog(|c| c.generation())?;
        if now == self.generation.load(Ordering::Acquire) {
            return Ok(false);
        }
        let matcher = self.with_catalog(|c| c.matcher(None))?;
        *self.matcher.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(matcher);
        self.pages
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        self.analyzers.clear();
        self.generation.store(now, Ordering::Release);
        Ok(true)
    }
}
