//! Schema and migrations, one list for both stores: written for SQLite,
//! and translated for PostgreSQL by [`postgres_ddl`] (64-bit integers,
//! identity keys, `BYTEA`, byte-order text so that both sort alike).

use crate::backend::{args, Conn};
use crate::{CatalogError, Result};
use rusqlite::Connection;

/// Migrations in order; entry `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE repos (
    id      INTEGER PRIMARY KEY,
    slug    TEXT NOT NULL UNIQUE,
    remote  TEXT
);
CREATE TABLE snapshots (
    id          INTEGER PRIMARY KEY,
    repo_id     INTEGER NOT NULL REFERENCES repos(id),
    revision    TEXT NOT NULL,
    date        TEXT,
    indexed_at  TEXT NOT NULL,
    language    TEXT NOT NULL,
    file_count  INTEGER NOT NULL,
    site_count  INTEGER NOT NULL,
    UNIQUE (repo_id, revision)
);
CREATE TABLE packs (
    id    INTEGER PRIMARY KEY,
    data  BLOB NOT NULL
);
CREATE TABLE contents (
    hash     TEXT PRIMARY KEY,
    pack_id  INTEGER NOT NULL REFERENCES packs(id),
    "offset" INTEGER NOT NULL,
    len      INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX contents_pack ON contents(pack_id);
CREATE TABLE files (
    snapshot_id  INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
    path         TEXT NOT NULL,
    hash         TEXT NOT NULL,
    PRIMARY KEY (snapshot_id, path)
) WITHOUT ROWID;
CREATE INDEX files_hash ON files(hash);
CREATE TABLE errors (
    id             TEXT PRIMARY KEY,
    repo_id        INTEGER NOT NULL REFERENCES repos(id),
    language       TEXT NOT NULL,
    kind           TEXT NOT NULL,
    template       TEXT NOT NULL,
    item_path      TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE sites (
    id                  INTEGER PRIMARY KEY,
    snapshot_id         INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
    error_id            TEXT NOT NULL REFERENCES errors(id),
    path                TEXT NOT NULL,
    line                INTEGER NOT NULL,
    col                 INTEGER NOT NULL,
    end_line            INTEGER NOT NULL,
    report_line         INTEGER NOT NULL,
    report_col          INTEGER NOT NULL,
    reported_at_caller  INTEGER NOT NULL,
    is_test             INTEGER NOT NULL,
    excerpt_start       INTEGER NOT NULL,
    excerpt_end         INTEGER NOT NULL,
    arm                 TEXT,
    via_macro           TEXT,
    message_from        TEXT,
    partial             INTEGER NOT NULL,
    delegates_to        TEXT
);
CREATE INDEX sites_error ON sites(error_id);
CREATE INDEX sites_snapshot ON sites(snapshot_id);
CREATE TABLE evidence (
    snapshot_id  INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
    error_id     TEXT NOT NULL REFERENCES errors(id),
    kind         TEXT NOT NULL,
    path         TEXT NOT NULL,
    line         INTEGER NOT NULL,
    item_path    TEXT NOT NULL,
    text         TEXT NOT NULL
);
CREATE INDEX evidence_error ON evidence(error_id);
CREATE INDEX evidence_snapshot ON evidence(snapshot_id);
CREATE TABLE literals (
    snapshot_id  INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
    path         TEXT NOT NULL,
    line         INTEGER NOT NULL,
    col          INTEGER NOT NULL,
    text         TEXT NOT NULL
);
CREATE INDEX literals_snapshot ON literals(snapshot_id);
"#,
    r#"
ALTER TABLE snapshots ADD COLUMN vcs_commit TEXT;
ALTER TABLE snapshots ADD COLUMN path_in_vcs TEXT;
"#,
    r#"
CREATE TABLE cache_packs (
    id    INTEGER PRIMARY KEY,
    data  BLOB NOT NULL
);
CREATE TABLE file_cache (
    path         TEXT NOT NULL,
    hash         TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    pack_id      INTEGER NOT NULL REFERENCES cache_packs(id),
    "offset"     INTEGER NOT NULL,
    len          INTEGER NOT NULL,
    PRIMARY KEY (path, hash)
) WITHOUT ROWID;
CREATE INDEX file_cache_pack ON file_cache(pack_id);
CREATE TABLE origins (
    snapshot_id  INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
    error_id     TEXT NOT NULL REFERENCES errors(id),
    status       TEXT NOT NULL,
    commit_sha   TEXT NOT NULL,
    date         TEXT,
    subject      TEXT,
    pr           INTEGER,
    PRIMARY KEY (error_id, snapshot_id)
) WITHOUT ROWID;
CREATE INDEX origins_snapshot ON origins(snapshot_id);
CREATE TABLE analyses (
    error_id    TEXT NOT NULL,
    facts_hash  TEXT NOT NULL,
    model       TEXT NOT NULL,
    json        TEXT NOT NULL,
    PRIMARY KEY (error_id, facts_hash, model)
) WITHOUT ROWID;
"#,
    r#"
ALTER TABLE literals ADD COLUMN is_test INTEGER NOT NULL DEFAULT 0;
"#,
    r#"
ALTER TABLE snapshots ADD COLUMN deps TEXT;
"#,
    r#"
CREATE TABLE analysis_runs (
    snapshot_id  INTEGER NOT NULL REFERENCES snapshots(id) ON DELETE CASCADE,
    model        TEXT NOT NULL,
    key          TEXT NOT NULL,
    hashes       TEXT NOT NULL,
    PRIMARY KEY (snapshot_id, model)
) WITHOUT ROWID;
"#,
    r#"
ALTER TABLE snapshots ADD COLUMN digest TEXT;
CREATE INDEX file_cache_fingerprint ON file_cache(fingerprint);
"#,
    r#"
ALTER TABLE snapshots ADD COLUMN extractor TEXT;
"#,
];

/// The schema version this build writes.
pub const VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the schema up to [`VERSION`], each step in its own transaction.
pub fn migrate(conn: &mut Connection) -> Result<()> {
    let current = check_version(conn)?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(current as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

/// The file's schema version, refused when newer than this build's.
pub fn check_version(conn: &Connection) -> Result<i64> {
    let v: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if v > VERSION {
        return Err(CatalogError::TooNew {
            found: v,
            supported: VERSION,
        });
    }
    Ok(v)
}

/// A migration as PostgreSQL DDL: `INTEGER` is `BIGINT` (an
/// `INTEGER PRIMARY KEY` an identity column, as SQLite's is a row id),
/// `BLOB` is `BYTEA`, `TEXT` compares bytes (`COLLATE "C"`, as SQLite's
/// `BINARY`), and `WITHOUT ROWID` goes.
pub fn postgres_ddl(sql: &str) -> String {
    sql.replace(
        "INTEGER PRIMARY KEY",
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    )
    .replace("INTEGER", "BIGINT")
    .replace("BLOB", "BYTEA")
    .replace("TEXT", "TEXT COLLATE \"C\"")
    .replace(") WITHOUT ROWID;", ");")
}

/// The advisory lock that serialises migrations of one PostgreSQL
/// database (`errdex` in ASCII).
const MIGRATION_LOCK: i64 = 0x65_72_72_64_65_78;

/// PostgreSQL's version table: the schema version, and the catalogue's
/// generation (bumped by every write that changes pages).
const POSTGRES_VERSION_TABLE: &str =
    "CREATE TABLE errdex_schema (version BIGINT NOT NULL, generation BIGINT NOT NULL)";

/// The schema version of a PostgreSQL database (`None` without the
/// catalogue), refused when newer than this build's or when the database
/// holds another program's tables of the same names.
fn postgres_version(conn: &Conn, shown: &str) -> Result<Option<i64>> {
    let has = |table: &str| {
        conn.query_one("SELECT to_regclass(?1) IS NOT NULL", args![table], |r| {
            r.get::<bool>(0)
        })
    };
    if !has("errdex_schema")? {
        if has("repos")? || has("snapshots")? {
            return Err(CatalogError::NotACatalogue {
                path: shown.to_string(),
                what: "a PostgreSQL database with another program's tables",
            });
        }
        return Ok(None);
    }
    let v: i64 = conn.query_one("SELECT version FROM errdex_schema", args![], |r| r.get(0))?;
    if v > VERSION {
        return Err(CatalogError::TooNew {
            found: v,
            supported: VERSION,
        });
    }
    Ok(Some(v))
}

/// Brings a PostgreSQL database's schema up to [`VERSION`] in one
/// transaction, holding an advisory lock so that concurrent openers
/// migrate once (the others wait, then find it done).
pub fn migrate_postgres(conn: &mut Conn, shown: &str) -> Result<()> {
    let tx = conn.transaction()?;
    tx.query_one(
        "SELECT pg_advisory_xact_lock(?1)",
        args![MIGRATION_LOCK],
        |_| Ok(()),
    )?;
    let current = match postgres_version(&tx, shown)? {
        Some(v) => v,
        None => {
            tx.batch(POSTGRES_VERSION_TABLE)?;
            tx.execute(
                "INSERT INTO errdex_schema (version, generation) VALUES (0, 0)",
                args![],
            )?;
            0
        }
    };
    if current == VERSION {
        return tx.commit();
    }
    for sql in MIGRATIONS.iter().skip(current as usize) {
        tx.batch(&postgres_ddl(sql))?;
    }
    tx.execute("UPDATE errdex_schema SET version = ?1", args![VERSION])?;
    tx.commit()
}

/// A PostgreSQL catalogue opened read-only must exist.
pub fn check_postgres(conn: &Conn, shown: &str) -> Result<()> {
    match postgres_version(conn, shown)? {
        Some(v) if v > 0 => Ok(()),
        _ => Err(CatalogError::NotACatalogue {
            path: shown.to_string(),
            what: "a PostgreSQL database without the catalogue",
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrates_an_older_file_keeping_its_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.db");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute("INSERT INTO repos (slug) VALUES ('crate:x')", [])
                .unwrap();
            conn.execute(
                "INSERT INTO snapshots (repo_id, revision, indexed_at, language, file_count, site_count)
                 VALUES (1, '1.0.0', 'now', 'rust', 0, 0)",
                [],
            )
            .unwrap();
        }
        let mut conn = Connection::open(&path).unwrap();
        migrate(&mut conn).unwrap();
        assert_eq!(check_version(&conn).unwrap(), VERSION);
        let (rev, vcs): (String, Option<String>) = conn
            .query_row("SELECT revision, vcs_commit FROM snapshots", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((rev.as_str(), vcs), ("1.0.0", None));
        conn.pragma_update(None, "user_version", VERSION + 1)
            .unwrap();
        assert!(matches!(
            check_version(&conn),
            Err(CatalogError::TooNew { .. })
        ));
    }
}
