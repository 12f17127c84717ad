//! A whole snapshot read back (its files and errors, for the analysis), and
//! the analyses cached per error.

use crate::backend::{args, Conn, Row};
use crate::{blob, Catalog, Result};
use errdex_model::SourceFile;

/// A snapshot's identity.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SnapshotRow {
    /// Row id.
    #[serde(skip)]
    pub id: i64,
    /// Repo slug.
    pub repo: String,
    /// Revision.
    pub revision: String,
    /// Date of the revision.
    pub date: Option<String>,
}

fn snapshot_row(r: &Row) -> Result<SnapshotRow> {
    Ok(SnapshotRow {
        id: r.get(0)?,
        repo: r.get(1)?,
        revision: r.get(2)?,
        date: r.get(3)?,
    })
}

/// One error of a recorded analysis run: its id, its facts hash, and
/// whether it has a site in library code.
pub type RunEntry = (String, String, bool);

/// The `model` of analyses made by rules alone, without a model.
pub const RULES_MODEL: &str = "rules";

/// A snapshot as the explain index's layers account for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// Row id.
    pub id: i64,
    /// When it was indexed (a snapshot indexed again has a new time).
    pub indexed_at: String,
    /// Its sites.
    pub sites: i64,
}

impl Catalog {
    /// The newest snapshot of `repo`.
    pub fn newest_snapshot(&self, repo: &str) -> Result<Option<SnapshotRow>> {
        self.conn.query_opt(
            "SELECT sn.id, r.slug, sn.revision, sn.date FROM snapshots sn
             JOIN repos r ON r.id = sn.repo_id WHERE r.slug = ?1
             ORDER BY sn.id DESC LIMIT 1",
            args![repo],
            snapshot_row,
        )
    }

    /// The snapshot `repo@revision`.
    pub fn snapshot_at(&self, repo: &str, revision: &str) -> Result<Option<SnapshotRow>> {
        self.conn.query_opt(
            "SELECT sn.id, r.slug, sn.revision, sn.date FROM snapshots sn
             JOIN repos r ON r.id = sn.repo_id WHERE r.slug = ?1 AND sn.revision = ?2",
            args![repo, revision],
            snapshot_row,
        )
    }

    /// The snapshot a site row belongs to.
    pub fn snapshot(&self, id: i64) -> Result<Option<SnapshotRow>> {
        self.conn.query_opt(
            "SELECT sn.id, r.slug, sn.revision, sn.date FROM snapshots sn
             JOIN repos r ON r.id = sn.repo_id WHERE sn.id = ?1",
            args![id],
            snapshot_row,
        )
    }

    /// Every stored file of a snapshot, by path.
    pub fn snapshot_files(&self, snapshot_id: i64) -> Result<Vec<SourceFile>> {
        let rows: Vec<(String, i64, i64, i64)> = self.conn.query_vec(
            "SELECT f.path, c.pack_id, c.\"offset\", c.len FROM files f
             JOIN contents c ON c.hash = f.hash WHERE f.snapshot_id = ?1
             ORDER BY c.pack_id, f.path",
            args![snapshot_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        let mut packs = blob::Packs::new(&self.conn, "packs");
        let mut out = Vec::with_capacity(rows.len());
        for (path, pack_id, offset, len) in rows {
            let bytes = packs.get(pack_id, offset, len)?;
            let text = String::from_utf8(bytes.to_vec())
                .map_err(|_| crate::CatalogError::Corrupt("source text"))?;
            out.push(SourceFile { path, text });
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    /// The error ids of a snapshot, in file order.
    pub fn snapshot_error_ids(&self, snapshot_id: i64) -> Result<Vec<String>> {
        self.conn.query_vec(
            "SELECT error_id FROM sites WHERE snapshot_id = ?1 GROUP BY error_id
             ORDER BY MIN(path), MIN(line)",
            args![snapshot_id],
            |r| r.get(0),
        )
    }

    /// A number that changes whenever a snapshot or an analysis is written
    /// (for caches of pages built from the catalogue): on SQLite derived
    /// from the rows, on PostgreSQL a counter that each such write bumps in
    /// its transaction (one row read, however large the catalogue).
    pub fn generation(&self) -> Result<u64> {
        match &self.conn {
            Conn::Sqlite(c) => {
                // The newest `indexed_at` too: a snapshot written again
                // may get the row id of the one it replaces.
                let (snapshots, newest, analyses): (i64, String, i64) = c.query_row(
                    "SELECT (SELECT COALESCE(MAX(id), 0) + COUNT(*) FROM snapshots),
                            (SELECT COALESCE(MAX(indexed_at), '') FROM snapshots),
                            (SELECT COUNT(*) * 1000003 + CAST(TOTAL(LENGTH(json)) AS INTEGER) FROM analyses)",
                    [],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
                )?;
                Ok(xxhash_rust::xxh3::xxh3_64(
                    format!("{snapshots}\t{newest}\t{analyses}").as_bytes(),
                ))
            }
            Conn::Postgres { .. } => {
                self.conn
                    .query_one("SELECT generation FROM errdex_schema", args![], |r| {
                        r.get(0)
                    })
            }
        }
    }

    /// A fingerprint of the catalogue's snapshots: how many, the newest row
    /// id and `indexed_at` (a snapshot indexed again gets a new one) and
    /// their sites in all. It changes whenever any snapshot is indexed,
    /// indexed again or removed, and at nothing else; one aggregate row is
    /// read, however many snapshots there are.
    pub fn snapshots_state(&self) -> Result<String> {
        let (count, newest_id, newest_at, sites): (i64, i64, String, i64) = self.conn.query_one(
            "SELECT COUNT(*), COALESCE(MAX(id), 0), COALESCE(MAX(indexed_at), ''),
                    CAST(COALESCE(SUM(site_count), 0) AS BIGINT)
             FROM snapshots",
            args![],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        Ok(format!("{count}\t{newest_id}\t{newest_at}\t{sites}"))
    }

    /// Every snapshot: its row id, when it was indexed and its site count,
    /// by row id.
    pub fn snapshot_members(&self) -> Result<Vec<Member>> {
        let mut out = Vec::new();
        self.conn.query_each(
            "SELECT id, indexed_at, site_count FROM snapshots ORDER BY id",
            args![],
            |r| {
                out.push(Member {
                    id: r.get(0)?,
                    indexed_at: r.get(1)?,
                    sites: r.get(2)?,
                });
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// The last whole-snapshot analysis run of `snapshot_id` with `model`:
    /// its key and, for each error it analysed, the error id, the facts hash
    /// and whether the error has a site in library code.
    pub fn analysis_run(
        &self,
        snapshot_id: i64,
        model: &str,
    ) -> Result<Option<(String, Vec<RunEntry>)>> {
        let row: Option<(String, String)> = self.conn.query_opt(
            "SELECT key, hashes FROM analysis_runs WHERE snapshot_id = ?1 AND model = ?2",
            args![snapshot_id, model],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok(row.and_then(|(key, hashes)| {
            let pairs = serde_json::from_str(&hashes).ok()?;
            Some((key, pairs))
        }))
    }

    /// Records a whole-snapshot analysis run (see [`Catalog::analysis_run`]).
    pub fn store_analysis_run(
        &self,
        snapshot_id: i64,
        model: &str,
        key: &str,
        pairs: &[RunEntry],
    ) -> Result<()> {
        let hashes = serde_json::to_string(pairs).expect("pairs serialise");
        self.conn.execute(
            "INSERT INTO analysis_runs (snapshot_id, model, key, hashes) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (snapshot_id, model) DO UPDATE SET key = excluded.key, hashes = excluded.hashes",
            args![snapshot_id, model, key, hashes],
        )?;
        Ok(())
    }

    /// A cached analysis (JSON) of an error for these facts and model.
    pub fn analysis(
        &self,
        error_id: &str,
        facts_hash: &str,
        model: &str,
    ) -> Result<Option<String>> {
        self.conn.query_opt(
            "SELECT json FROM analyses WHERE error_id = ?1 AND facts_hash = ?2 AND model = ?3",
            args![error_id, facts_hash, model],
            |r| r.get(0),
        )
    }

    /// A cached analysis of an error for these facts, whatever made it: a
    /// model's before the rules'.
    pub fn current_analysis(&self, error_id: &str, facts_hash: &str) -> Result<Option<String>> {
        self.conn.query_opt(
            "SELECT json FROM analyses WHERE error_id = ?1 AND facts_hash = ?2
             ORDER BY model = ?3 LIMIT 1",
            args![error_id, facts_hash, RULES_MODEL],
            |r| r.get(0),
        )
    }

    /// Caches an analysis.
    pub fn store_analysis(
        &self,
        error_id: &str,
        facts_hash: &str,
        model: &str,
        json: &str,
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO analyses (error_id, facts_hash, model, json) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (error_id, facts_hash, model) DO UPDATE SET json = excluded.json",
            args![error_id, facts_hash, model, json],
        )?;
        tx.bump_generation()?;
        tx.commit()
    }
}
