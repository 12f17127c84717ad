//! Writing one snapshot, atomically.

use crate::backend::{args, Conn};
use crate::{blob, Catalog, Result};
use errdex_model::{ErrorId, Extraction, Origin, SnapshotMeta, SourceFile};
use std::collections::{BTreeSet, HashSet};

/// What to store for one snapshot.
pub struct SnapshotInput<'a> {
    /// Which repo and revision.
    pub meta: &'a SnapshotMeta,
    /// The snapshot's files (stored for excerpts, shared by content).
    pub files: &'a [SourceFile],
    /// The extraction.
    pub extraction: &'a Extraction,
    /// The extractor build that made it (see `errdex_extract::FINGERPRINT`).
    pub fingerprint: &'a str,
    /// Per-file results parsed for this snapshot (index into `files`,
    /// encoded result), cached so the next snapshot reuses them; the cache
    /// keeps only entries of `fingerprint` for files some snapshot holds.
    pub parsed: &'a [(usize, Vec<u8>)],
    /// Where messages came from in history (index into the extraction's
    /// sites, origin); empty when the source has no history.
    pub origins: &'a [(usize, Origin)],
}

/// What a write did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteSummary {
    /// The snapshot's row id.
    pub snapshot_id: i64,
    /// Distinct errors in the snapshot.
    pub errors: usize,
    /// Sites written.
    pub sites: usize,
    /// The same repo and revision was already indexed and is replaced.
    pub replaced: bool,
    /// The same repo and revision was already indexed from the same
    /// input (files, metadata, history, extractor build): nothing was
    /// written, and the snapshot keeps its row id and time of indexing.
    pub unchanged: bool,
}

impl Catalog {
    /// Stores a snapshot, replacing one of the same repo and revision, in a
    /// single transaction: readers and crashes see the old state or the new
    /// one, never a mix. Errors no snapshot has any more are removed.
    pub fn replace_snapshot(&mut self, input: &SnapshotInput) -> Result<WriteSummary> {
        let meta = input.meta;
        let x = input.extraction;
        let now = time::OffsetDateTime::now_utc()
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_default();
        let tx = self.conn.transaction()?;
        // Writers of one PostgreSQL catalogue install one at a time: they
        // share contents, packs and the extraction cache, and clean them up.
        tx.lock_writers()?;
        tx.execute(
            "INSERT INTO repos (slug, remote) VALUES (?1, ?2)
             ON CONFLICT (slug) DO UPDATE SET remote = COALESCE(excluded.remote, repos.remote)",
            args![meta.repo, meta.remote],
        )?;
        let repo_id: i64 = tx.query_one(
            "SELECT id FROM repos WHERE slug = ?1",
            args![meta.repo],
            |r| r.get(0),
        )?;
        // Its error ids first: an unchanged input answers with them alone.
        let ids: Vec<String> = x
            .sites
            .iter()
            .map(|s| {
                ErrorId::compute(&meta.repo, &x.language, s.kind, &s.template, &s.item_path)
                    .to_string()
            })
            .collect();
        let errors = ids.iter().collect::<HashSet<_>>().len();
        let hashes: Vec<String> = input.files.iter().map(|f| blob::hash(&f.text)).collect();
        let digest = input_digest(input, &hashes);
        let old: Option<(i64, Option<String>)> = tx.query_opt(
            "SELECT id, digest FROM snapshots WHERE repo_id = ?1 AND revision = ?2",
            args![repo_id, meta.revision],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if let Some((id, Some(d))) = &old {
            if *d == digest {
                tx.commit()?;
                return Ok(WriteSummary {
                    snapshot_id: *id,
                    errors,
                    sites: x.sites.len(),
                    replaced: false,
                    unchanged: true,
                });
            }
        }
        // The files of the snapshot replaced: only what they referred to
        // can be left unreferenced by this write.
        let replaced_files: Vec<(String, String)> = match &old {
            Some((id, _)) => {
                let files = tx.query_vec(
                    "SELECT path, hash FROM files WHERE snapshot_id = ?1",
                    args![id],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?;
                tx.execute("DELETE FROM snapshots WHERE id = ?1", args![id])?;
                files
            }
            None => Vec::new(),
        };
        let replaced = old.is_some();
        let snapshot_id: i64 = tx.query_one(
            "INSERT INTO snapshots (repo_id, revision, date, indexed_at, language, file_count, site_count,
                                    vcs_commit, path_in_vcs, deps, digest, extractor)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) RETURNING id",
            args![repo_id, meta.revision, meta.date, now, x.language, input.files.len() as i64, x.sites.len() as i64,
                meta.vcs.as_ref().map(|v| v.commit.as_str()),
                meta.vcs.as_ref().map(|v| v.path_in_vcs.as_str()),
                meta.deps.as_ref().map(|d| d.join(" ")),
                digest,
                input.fingerprint
            ],
            |r| r.get(0),
        )?;

        // Every file is recorded by hash and its text stored once per
        // content: excerpts, and the analysis (callers, tests) reads the
        // whole snapshot. Rows go in batches (one round trip per batch on
        // PostgreSQL), those referred to before those that refer to them.
        let stored = stored_contents(&tx, &hashes)?;
        tx.inserting(
            "INSERT INTO contents (hash, pack_id, \"offset\", len)",
            "ON CONFLICT DO NOTHING",
            |contents| {
                let mut record = |h: String, pack_id: i64, offset: i64, len: i64| {
                    contents.row(args![h, pack_id, offset, len])
                };
                let mut packs = blob::PackWriter::new("packs");
                let mut queued = HashSet::new();
                tx.inserting("INSERT INTO files (snapshot_id, path, hash)", "", |files| {
                    for (f, h) in input.files.iter().zip(&hashes) {
                        files.row(args![snapshot_id, f.path, h])?;
                        if stored.contains(h) || !queued.insert(h) {
                            continue;
                        }
                        packs.push(&tx, h.clone(), f.text.as_bytes(), &mut record)?;
                    }
                    Ok(())
                })?;
                packs.flush(&tx, &mut record)
            },
        )?;

        tx.inserting(
            "INSERT INTO errors (id, repo_id, language, kind, template, item_path)",
            "ON CONFLICT DO NOTHING",
            |errors| {
                let mut seen = HashSet::new();
                for (s, id) in x.sites.iter().zip(&ids) {
                    if seen.insert(id) {
                        let json = serde_json::to_string(&s.template).expect("templates serialise");
                        errors.row(args![
                            id,
                            repo_id,
                            x.language,
                            s.kind.as_str(),
                            json,
                            s.item_path
                        ])?;
                    }
                }
                Ok(())
            },
        )?;
        tx.inserting(
            "INSERT INTO sites (snapshot_id, error_id, path, line, col, end_line, report_line, report_col,
                    reported_at_caller, is_test, excerpt_start, excerpt_end, arm, via_macro, message_from, partial,
                    delegates_to)",
            "",
            |sites| {
                for (s, id) in x.sites.iter().zip(&ids) {
                    sites.row(args![
                        snapshot_id,
                        id,
                        s.path,
                        s.line,
                        s.column,
                        s.end_line,
                        s.report_line,
                        s.report_column,
                        s.reported_at_caller,
                        s.is_test,
                        s.excerpt_start,
                        s.excerpt_end,
                        s.arm,
                        s.via_macro,
                        s.message_from,
                        s.partial,
                        s.delegates_to
                    ])?;
                }
                Ok(())
            },
        )?;
        tx.inserting(
            "INSERT INTO evidence (snapshot_id, error_id, kind, path, line, item_path, text)",
            "",
            |evidence| {
                let mut linked = HashSet::new();
                for e in &x.evidence {
                    let id = &ids[e.site];
                    let ev = &e.evidence;
                    if linked.insert((id, ev.kind, &ev.path, ev.line, &ev.text)) {
                        evidence.row(args![
                            snapshot_id,
                            id,
                            ev.kind.as_str(),
                            ev.path,
                            ev.line,
                            ev.item_path,
                            ev.text
                        ])?;
                    }
                }
                Ok(())
            },
        )?;
        tx.inserting(
            "INSERT INTO literals (snapshot_id, path, line, col, text, is_test)",
            "",
            |literals| {
                for l in &x.literals {
                    literals.row(args![
                        snapshot_id,
                        l.path,
                        l.line,
                        l.column,
                        l.text,
                        l.is_test
                    ])?;
                }
                Ok(())
            },
        )?;
        tx.inserting(
            "INSERT INTO origins (snapshot_id, error_id, status, commit_sha, date, subject, pr)",
            "ON CONFLICT DO NOTHING",
            |origins| {
                for (site, origin) in input.origins {
                    let Some(id) = ids.get(*site) else { continue };
                    match origin {
                        Origin::Commit(c) => origins.row(args![
                            snapshot_id,
                            id,
                            "commit",
                            c.commit,
                            c.date,
                            c.subject,
                            c.pr
                        ])?,
                        Origin::BeforeShallowBoundary { boundary } => origins.row(args![
                            snapshot_id,
                            id,
                            "before_shallow_boundary",
                            boundary,
                            None::<String>,
                            None::<String>,
                            None::<u32>
                        ])?,
                    }
                }
                Ok(())
            },
        )?;
        crate::cache::store(&tx, input, &replaced_files)?;
        if replaced {
            tx.execute(
                "DELETE FROM errors WHERE repo_id = ?1 AND NOT EXISTS (SELECT 1 FROM sites WHERE sites.error_id = errors.id)",
                args![repo_id],
            )?;
            drop_unreferenced_contents(&tx, &replaced_files)?;
        }
        tx.bump_generation()?;
        tx.commit()?;
        Ok(WriteSummary {
            snapshot_id,
            errors,
            sites: x.sites.len(),
            replaced,
            unchanged: false,
        })
    }
}

/// Which of `hashes` the catalogue holds a text of already.
/// What identifies a write's input: the snapshot's metadata, the
/// extractor build, each file's path and content, and the history's
/// origins (the extraction follows from the files and the build).
/// `hashes` are the files' content hashes.
fn input_digest(input: &SnapshotInput, hashes: &[String]) -> String {
    let mut text = format!("{:?}\n{}\n", input.meta, input.fingerprint);
    for (f, h) in input.files.iter().zip(hashes) {
        text.push_str(&f.path);
        text.push('\0');
        text.push_str(h);
        text.push('\n');
    }
    text.push_str(&format!("{:?}", input.origins));
    blob::hash(&text)
}

/// Removes the stored texts only the replaced snapshot's `files` referred
/// to, and the packs left without a text.
fn drop_unreferenced_contents(tx: &Conn, files: &[(String, String)]) -> Result<()> {
    let hashes: BTreeSet<&str> = files.iter().map(|(_, h)| h.as_str()).collect();
    let mut packs = BTreeSet::new();
    for h in hashes {
        packs.extend(tx.query_vec(
            "DELETE FROM contents WHERE hash = ?1
               AND NOT EXISTS (SELECT 1 FROM files WHERE files.hash = ?1) RETURNING pack_id",
            args![h],
            |r| r.get::<i64>(0),
        )?);
    }
    for p in packs {
        tx.execute(
            "DELETE FROM packs WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM contents WHERE contents.pack_id = ?1)",
            args![p],
        )?;
    }
    Ok(())
}

fn stored_contents(tx: &Conn, hashes: &[String]) -> Result<HashSet<String>> {
    let keys: Vec<&str> = hashes.iter().map(String::as_str).collect();
    let mut out = HashSet::new();
    tx.query_in(
        "SELECT hash FROM contents WHERE hash IN (KEYS)",
        &[],
        &keys,
        |r| {
            out.insert(r.get(0)?);
            Ok(())
        },
    )?;
    Ok(out)
}
