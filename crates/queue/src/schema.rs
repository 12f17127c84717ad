//! The queue's table, created and migrated on connect: versioned steps in
//! one transaction under an advisory lock, so workers starting together
//! migrate once.

use crate::{QueueError, Result};

/// Each step brings the schema from version `i` to `i + 1`.
const STEPS: &[&str] = &["CREATE TABLE errdex_jobs (
        id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        kind          TEXT NOT NULL CHECK (kind IN ('index', 'analyze')),
        source        TEXT NOT NULL,
        options       JSONB NOT NULL,
        state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
        attempts      INT NOT NULL DEFAULT 0,
        max_attempts  INT NOT NULL CHECK (max_attempts >= 1),
        run_after     TIMESTAMPTZ NOT NULL DEFAULT now(),
        lease_until   TIMESTAMPTZ,
        worker        TEXT,
        error         TEXT,
        result        JSONB,
        enqueued_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
        started_at    TIMESTAMPTZ,
        finished_at   TIMESTAMPTZ,
        UNIQUE (kind, source, options)
    );
    CREATE INDEX errdex_jobs_ready ON errdex_jobs (run_after, id) WHERE state = 'queued';
    CREATE INDEX errdex_jobs_leased ON errdex_jobs (lease_until) WHERE state = 'running';"];

/// Key of the advisory lock held while migrating.
const LOCK: i64 = 0x6572_7264_6578_7100; // "errdexq\0"

/// Creates or migrates the queue's table.
pub(crate) fn migrate(client: &mut postgres::Client) -> Result<()> {
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LOCK])?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS errdex_queue_version (version INT NOT NULL)")?;
    let found: i32 = match tx.query_opt("SELECT version FROM errdex_queue_version", &[])? {
        Some(r) => r.get(0),
        None => {
            tx.execute("INSERT INTO errdex_queue_version VALUES (0)", &[])?;
            0
        }
    };
    let supported = i32::try_from(STEPS.len()).expect("few steps");
    if found > supported {
        return Err(QueueError::TooNew { found, supported });
    }
    for step in &STEPS[usize::try_from(found).unwrap_or(0)..] {
        tx.batch_execute(step)?;
    }
    tx.execute(
        "UPDATE errdex_queue_version SET version = $1",
        &[&supported],
    )?;
    tx.commit()?;
    Ok(())
}
