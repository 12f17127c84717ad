//! The errdex catalogue: repos, snapshots, errors (stable across
//! snapshots), sites (an error's occurrences in one snapshot), evidence,
//! free literals, and the snapshot's source files (deflated, shared by
//! content) so excerpts can be shown without the original tree.
//!
//! Two stores behind one interface ([`Location`]): an embedded SQLite file
//! (WAL mode, schema version in `PRAGMA user_version`), the default, or a
//! PostgreSQL database (schema version in the `errdex_schema` table,
//! migrations under an advisory lock). The queries and migrations are
//! written once for both. Writing a snapshot is one transaction: a crash,
//! or a server gone mid-write, leaves the previous state intact. It knows
//! nothing of parsing.

mod backend;
mod blob;
mod cache;
mod changes;
mod location;
mod read;
mod schema;
mod snapshot;
mod write;

use backend::Conn;
use rusqlite::Connection;
use std::path::Path;

pub use blob::hash as content_hash;
pub use changes::Changes;
pub use location::{Location, PgUrl};
pub use read::{Counts, ErrorDetail, ErrorSummary, EvidenceRow, RepoSummary, SiteRow, Snapshots};
pub use snapshot::{Member, RunEntry, SnapshotRow, RULES_MODEL};
pub use write::{SnapshotInput, WriteSummary};

/// A catalogue error.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// SQLite failed.
    #[error("catalogue database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A `postgres://` URL that cannot be used (the reason never quotes the
    /// password).
    #[error("malformed PostgreSQL URL: {0}")]
    BadUrl(String),
    /// The PostgreSQL server could not be reached or refused the login.
    #[error("cannot connect to PostgreSQL at {at}: {reason}")]
    Connect {
        /// `HOST:PORT`.
        at: String,
        /// Why, in one line (`connection refused`, the server's message).
        reason: String,
    },
    /// The connection to PostgreSQL broke; an unfinished write was not
    /// committed.
    #[error(
        "lost the connection to PostgreSQL at {at} ({reason}); an unfinished write was rolled back"
    )]
    Lost {
        /// `HOST:PORT`.
        at: String,
        /// What ended it, in one line.
        reason: String,
    },
    /// PostgreSQL refused a statement.
    #[error("catalogue database (PostgreSQL at {at}): {reason}")]
    Postgres {
        /// `HOST:PORT`.
        at: String,
        /// The server's message, on one line.
        reason: String,
    },
    /// The file was written by a newer errdex.
    #[error(
        "catalogue schema version {found} is newer than this errdex understands ({supported})"
    )]
    TooNew {
        /// Version in the file.
        found: i64,
        /// Newest version this build knows.
        supported: i64,
    },
    /// A stored value could not be decoded.
    #[error("catalogue holds a malformed {0}")]
    Corrupt(&'static str),
    /// The file is not an errdex catalogue: empty, another program's
    /// SQLite database, or not SQLite at all (or a PostgreSQL database
    /// without the catalogue, or with another program's tables).
    #[error(
        "{path} is not an errdex catalogue ({what}); run `errdex index` to make one, or pass --db"
    )]
    NotACatalogue {
        /// The file or database.
        path: String,
        /// What it is instead.
        what: &'static str,
    },
}

/// [`CatalogError::NotACatalogue`] when `e` says the file is not SQLite.
fn not_sqlite(path: &Path, e: rusqlite::Error) -> CatalogError {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => CatalogError::NotACatalogue {
            path: path.display().to_string(),
            what: "not a SQLite database",
        },
        _ => CatalogError::Sqlite(e),
    }
}

/// Tables in the file (0 for a new or empty one).
fn table_count(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
        [],
        |r| r.get(0),
    )
}

/// Result alias.
pub type Result<T> = std::result::Result<T, CatalogError>;

/// An open catalogue.
pub struct Catalog {
    conn: Conn,
    /// Source texts already decompressed, by content hash (so never stale),
    /// with their line starts: an error of 20,000 sites decompresses each
    /// file once, not once per site.
    texts: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<read::Lines>>>,
}

/// Most source texts kept decompressed by one [`Catalog`].
const TEXTS_KEPT: usize = 256;

/// Statements each SQLite connection keeps prepared.
const SQLITE_STATEMENTS: usize = 64;

impl Catalog {
    /// Opens (creating if needed) a catalogue for reading and writing, and
    /// migrates its schema.
    pub fn open(location: &Location) -> Result<Self> {
        let conn = match location {
            Location::Sqlite(path) => Self::open_sqlite(path)?,
            Location::Postgres(url) => {
                let mut conn = url.connect()?;
                schema::migrate_postgres(&mut conn, &url.to_string())?;
                conn
            }
        };
        Ok(Catalog {
            conn,
            texts: Default::default(),
        })
    }

    fn open_sqlite(path: &Path) -> Result<Conn> {
        let mut conn = Connection::open(path)?;
        // Another program's database is never written into.
        let version = schema::check_version(&conn).map_err(|e| match e {
            CatalogError::Sqlite(e) => not_sqlite(path, e),
            e => e,
        })?;
        if version == 0 && table_count(&conn).map_err(|e| not_sqlite(path, e))? > 0 {
            return Err(CatalogError::NotACatalogue {
                path: path.display().to_string(),
                what: "a SQLite database of another program",
            });
        }
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        conn.set_prepared_statement_cache_capacity(SQLITE_STATEMENTS);
        schema::migrate(&mut conn)?;
        Ok(Conn::Sqlite(conn))
    }

    /// Opens an existing catalogue read-only (the web server's connection).
    pub fn open_read_only(location: &Location) -> Result<Self> {
        let conn = match location {
            Location::Sqlite(path) => Self::open_sqlite_read_only(path)?,
            Location::Postgres(url) => {
                let conn = url.connect()?;
                schema::check_postgres(&conn, &url.to_string())?;
                conn.batch("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")?;
                conn
            }
        };
        Ok(Catalog {
            conn,
            texts: Default::default(),
        })
    }

    fn open_sqlite_read_only(path: &Path) -> Result<Conn> {
        let conn = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(30))?;
        conn.set_prepared_statement_cache_capacity(SQLITE_STATEMENTS);
        let version = schema::check_version(&conn).map_err(|e| match e {
            CatalogError::Sqlite(e) => not_sqlite(path, e),
            e => e,
        })?;
        if version == 0 {
            let what = if std::fs::metadata(path).is_ok_and(|m| m.len() == 0) {
                "an empty file"
            } else if table_count(&conn).map_err(|e| not_sqlite(path, e))? > 0 {
                "a SQLite database of another program"
            } else {
                "an empty SQLite database"
            };
            return Err(CatalogError::NotACatalogue {
                path: path.display().to_string(),
                what,
            });
        }
        Ok(Conn::Sqlite(conn))
    }

    /// Whether the store's own check passes: SQLite's `PRAGMA
    /// integrity_check` answers `ok`; a PostgreSQL server guards its own
    /// pages, so there it is whether every snapshot holds the sites it says.
    pub fn integrity_ok(&self) -> Result<bool> {
        match &self.conn {
            Conn::Sqlite(c) => {
                let s: String = c.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
                Ok(s == "ok")
            }
            Conn::Postgres { .. } => Ok(self.counts()?.consistent),
        }
    }
}
