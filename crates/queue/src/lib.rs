//! errdex's job queue, a table of the PostgreSQL catalogue, worked the way
//! crates.io's background jobs and docs.rs's build queue are: a worker
//! takes the oldest ready job with `SELECT … FOR UPDATE SKIP LOCKED` and
//! holds it under a lease it renews while it works. A worker that dies
//! stops renewing; once its lease runs out the job is ready again. A failed
//! attempt is retried after an exponential backoff, up to the job's
//! attempts, then the job is `failed` with its last error. Enqueueing
//! notifies (`NOTIFY errdex_jobs`) so idle workers wake at once.
//!
//! A job is a kind (`index`, `analyze`), a source (what `errdex index` or
//! `errdex analyze` takes) and options (JSON). The same kind, source and
//! options are one job: enqueueing them again is a no-op while the job is
//! queued, running or done, and retries a failed one.

mod schema;

use postgres::fallible_iterator::FallibleIterator;
use serde::Serialize;
use std::time::Duration;
use time::OffsetDateTime;

/// The channel enqueueing notifies and idle workers listen on.
pub const CHANNEL: &str = "errdex_jobs";

/// A queue error.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// A statement failed.
    #[error("job queue: {0}")]
    Db(#[from] postgres::Error),
    /// A stored value this build does not know.
    #[error("job queue holds an unknown {what} `{value}`")]
    Unknown {
        /// Which column.
        what: &'static str,
        /// Its value.
        value: String,
    },
    /// The queue's schema is newer than this build.
    #[error(
        "job queue schema version {found} is newer than this errdex understands ({supported})"
    )]
    TooNew {
        /// Version in the database.
        found: i32,
        /// Newest version this build knows.
        supported: i32,
    },
}

/// Result alias.
pub type Result<T> = std::result::Result<T, QueueError>;

/// What a job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobKind {
    /// Index a source into the catalogue.
    Index,
    /// Analyse a repo's (or every repo's) errors.
    Analyze,
}

impl JobKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Index => "index",
            JobKind::Analyze => "analyze",
        }
    }

    fn parse(s: &str) -> Result<Self> {
        match s {
            "index" => Ok(JobKind::Index),
            "analyze" => Ok(JobKind::Analyze),
            _ => Err(QueueError::Unknown {
                what: "job kind",
                value: s.to_string(),
            }),
        }
    }
}

/// Where a job is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    /// Waiting for a worker (maybe until a retry's backoff has passed).
    Queued,
    /// Held by a worker under a lease.
    Running,
    /// Finished; its result is stored.
    Done,
    /// Every attempt failed; the last error is stored.
    Failed,
}

impl JobState {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
            JobState::Failed => "failed",
        }
    }

    fn parse(s: &str) -> Result<Self> {
        match s {
            "queued" => Ok(JobState::Queued),
            "running" => Ok(JobState::Running),
            "done" => Ok(JobState::Done),
            "failed" => Ok(JobState::Failed),
            _ => Err(QueueError::Unknown {
                what: "job state",
                value: s.to_string(),
            }),
        }
    }
}

/// A job to add.
#[derive(Debug, Clone, PartialEq)]
pub struct NewJob {
    /// What it does.
    pub kind: JobKind,
    /// Its source (`crate:serde@1.0.0`, a folder, `GITDIR@REV`) or, for
    /// analysis, a repo slug or an empty string for every repo.
    pub source: String,
    /// Its options, as the worker reads them.
    pub options: serde_json::Value,
    /// Attempts before it is `failed` (at least 1).
    pub max_attempts: u32,
}

/// What enqueueing did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Enqueued {
    /// A new job.
    Added {
        /// Its id.
        id: i64,
    },
    /// The same job failed before; it is queued again with fresh attempts.
    Retried {
        /// Its id.
        id: i64,
    },
    /// The same job is already queued, running or done: nothing changed.
    Exists {
        /// Its id.
        id: i64,
        /// Its state.
        state: JobState,
    },
}

/// A job a worker holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    /// Its id.
    pub id: i64,
    /// What it does.
    pub kind: JobKind,
    /// Its source.
    pub source: String,
    /// Its options.
    pub options: serde_json::Value,
    /// This attempt's number (1 for the first).
    pub attempt: u32,
    /// Attempts before it is `failed`.
    pub max_attempts: u32,
}

/// A job as `errdex jobs` lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobRow {
    /// Its id.
    pub id: i64,
    /// What it does.
    pub kind: JobKind,
    /// Its source.
    pub source: String,
    /// Its options.
    pub options: serde_json::Value,
    /// Where it is.
    pub state: JobState,
    /// Attempts made so far.
    pub attempts: u32,
    /// Attempts before it is `failed`.
    pub max_attempts: u32,
    /// The last attempt's error (kept while a retry waits).
    pub error: Option<String>,
    /// The worker holding it, or that last held it.
    pub worker: Option<String>,
    /// What the job produced (a summary), once done.
    pub result: Option<serde_json::Value>,
    /// When it was enqueued (RFC 3339).
    pub enqueued_at: String,
    /// When its last attempt started.
    pub started_at: Option<String>,
    /// When it was done or failed.
    pub finished_at: Option<String>,
    /// Seconds from its last attempt's start to its end.
    pub seconds: Option<f64>,
}

/// How much work is left, for a worker deciding whether to wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backlog {
    /// Jobs queued (ready or waiting for their backoff).
    pub queued: u64,
    /// Jobs running (under a live lease or an expired one).
    pub running: u64,
    /// Until the soonest queued job or expiring lease, if any.
    pub next_ready_in: Option<Duration>,
}

impl Backlog {
    /// No job is queued or running.
    pub fn is_empty(&self) -> bool {
        self.queued == 0 && self.running == 0
    }
}

/// A connection to the queue.
pub struct Queue {
    client: postgres::Client,
    listening: bool,
}

/// Seconds of a duration, for `make_interval(secs => …)`.
fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn rfc3339(t: OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_else(|_| t.to_string())
}

impl Queue {
    /// The queue over a connection to its database; creates or migrates
    /// the queue's table.
    pub fn new(mut client: postgres::Client) -> Result<Queue> {
        schema::migrate(&mut client)?;
        Ok(Queue {
            client,
            listening: false,
        })
    }

    /// Adds a job (and wakes idle workers), or says it exists already.
    pub fn enqueue(&mut self, job: &NewJob) -> Result<Enqueued> {
        let mut tx = self.client.transaction()?;
        let max = i32::try_from(job.max_attempts.max(1)).unwrap_or(i32::MAX);
        let added = tx.query_opt(
            "INSERT INTO errdex_jobs (kind, source, options, state, max_attempts)
             VALUES ($1, $2, $3, 'queued', $4)
             ON CONFLICT (kind, source, options) DO NOTHING
             RETURNING id",
            &[&job.kind.as_str(), &job.source, &job.options, &max],
        )?;
        let outcome = match added {
            Some(row) => Enqueued::Added { id: row.get(0) },
            None => {
                let row = tx.query_one(
                    "SELECT id, state FROM errdex_jobs
                     WHERE kind = $1 AND source = $2 AND options = $3 FOR UPDATE",
                    &[&job.kind.as_str(), &job.source, &job.options],
                )?;
                let id: i64 = row.get(0);
                let state = JobState::parse(row.get(1))?;
                if state == JobState::Failed {
                    tx.execute(
                        "UPDATE errdex_jobs SET state = 'queued', attempts = 0,
                         max_attempts = $2, run_after = now(), finished_at = NULL
                         WHERE id = $1",
                        &[&id, &max],
                    )?;
                    Enqueued::Retried { id }
                } else {
                    Enqueued::Exists { id, state }
                }
            }
        };
        if !matches!(outcome, Enqueued::Exists { .. }) {
            tx.execute("SELECT pg_notify($1, '')", &[&CHANNEL])?;
        }
        tx.commit()?;
        Ok(outcome)
    }

    /// Takes the oldest ready job for `worker`, holding it for `lease`: a
    /// queued job whose backoff has passed, or a running one whose worker
    /// let its lease run out. Jobs out of attempts with an expired lease
    /// become `failed` first.
    pub fn claim(&mut self, worker: &str, lease: Duration) -> Result<Option<Job>> {
        self.client.execute(
            "UPDATE errdex_jobs SET state = 'failed', finished_at = now(), lease_until = NULL,
             error = 'the worker ' || coalesce(worker, '?') || ' stopped renewing its lease (attempt '
                     || attempts || ' of ' || max_attempts || ')'
             WHERE state = 'running' AND lease_until < now() AND attempts >= max_attempts",
            &[],
        )?;
        let row = self.client.query_opt(
            "WITH next AS (
                 SELECT id FROM errdex_jobs
                 WHERE (state = 'queued' AND run_after <= now())
                    OR (state = 'running' AND lease_until < now())
                 ORDER BY run_after, id
                 FOR UPDATE SKIP LOCKED
                 LIMIT 1)
             UPDATE errdex_jobs j SET
                 error = CASE WHEN j.state = 'running'
                     THEN 'the worker ' || coalesce(j.worker, '?') || ' stopped renewing its lease'
                     ELSE j.error END,
                 state = 'running', attempts = j.attempts + 1, worker = $1,
                 lease_until = now() + make_interval(secs => $2),
                 started_at = now(), finished_at = NULL
             FROM next WHERE j.id = next.id
             RETURNING j.id, j.kind, j.source, j.options, j.attempts, j.max_attempts",
            &[&worker, &secs(lease)],
        )?;
        row.map(|r| {
            Ok(Job {
                id: r.get(0),
                kind: JobKind::parse(r.get(1))?,
                source: r.get(2),
                options: r.get(3),
                attempt: u32::try_from(r.get::<_, i32>(4)).unwrap_or(0),
                max_attempts: u32::try_from(r.get::<_, i32>(5)).unwrap_or(1),
            })
        })
        .transpose()
    }

    /// Renews `worker`'s lease on job `id`; false when it lost the job (its
    /// lease ran out and another worker took it).
    pub fn renew(&mut self, id: i64, worker: &str, lease: Duration) -> Result<bool> {
        let n = self.client.execute(
            "UPDATE errdex_jobs SET lease_until = now() + make_interval(secs => $3)
             WHERE id = $1 AND worker = $2 AND state = 'running'",
            &[&id, &worker, &secs(lease)],
        )?;
        Ok(n == 1)
    }

    /// Marks job `id` done with its result; false when `worker` no longer
    /// held it.
    pub fn complete(&mut self, id: i64, worker: &str, result: &serde_json::Value) -> Result<bool> {
        let n = self.client.execute(
            "UPDATE errdex_jobs SET state = 'done', result = $3, error = NULL,
             lease_until = NULL, finished_at = now()
             WHERE id = $1 AND worker = $2 AND state = 'running'",
            &[&id, &worker, result],
        )?;
        Ok(n == 1)
    }

    /// Records a failed attempt of job `id`: queued again after `backoff`
    /// doubled per attempt made, or `failed` when out of attempts. `None`
    /// when `worker` no longer held it.
    pub fn fail(
        &mut self,
        id: i64,
        worker: &str,
        error: &str,
        backoff: Duration,
    ) -> Result<Option<JobState>> {
        let row = self.client.query_opt(
            "UPDATE errdex_jobs SET
                 state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
                 finished_at = CASE WHEN attempts >= max_attempts THEN now() END,
                 run_after = now() + make_interval(secs => $4 * power(2::float8, (attempts - 1)::float8)),
                 error = $3, lease_until = NULL
             WHERE id = $1 AND worker = $2 AND state = 'running'
             RETURNING state",
            &[&id, &worker, &error, &secs(backoff)],
        )?;
        row.map(|r| JobState::parse(r.get(0))).transpose()
    }

    /// Every job, oldest first.
    pub fn list(&mut self) -> Result<Vec<JobRow>> {
        let rows = self.client.query(
            "SELECT id, kind, source, options, state, attempts, max_attempts, error, worker,
                    result, enqueued_at, started_at, finished_at
             FROM errdex_jobs ORDER BY id",
            &[],
        )?;
        rows.iter()
            .map(|r| {
                let started: Option<OffsetDateTime> = r.get(11);
                let finished: Option<OffsetDateTime> = r.get(12);
                Ok(JobRow {
                    id: r.get(0),
                    kind: JobKind::parse(r.get(1))?,
                    source: r.get(2),
                    options: r.get(3),
                    state: JobState::parse(r.get(4))?,
                    attempts: u32::try_from(r.get::<_, i32>(5)).unwrap_or(0),
                    max_attempts: u32::try_from(r.get::<_, i32>(6)).unwrap_or(1),
                    error: r.get(7),
                    worker: r.get(8),
                    result: r.get(9),
                    enqueued_at: rfc3339(r.get(10)),
                    started_at: started.map(rfc3339),
                    finished_at: finished.map(rfc3339),
                    seconds: started.zip(finished).map(|(s, f)| (f - s).as_seconds_f64()),
                })
            })
            .collect()
    }

    /// How much work is left.
    pub fn backlog(&mut self) -> Result<Backlog> {
        let r = self.client.query_one(
            "SELECT count(*) FILTER (WHERE state = 'queued'),
                    count(*) FILTER (WHERE state = 'running'),
                    extract(epoch FROM least(
                        min(run_after) FILTER (WHERE state = 'queued'),
                        min(lease_until) FILTER (WHERE state = 'running')) - now())::float8
             FROM errdex_jobs",
            &[],
        )?;
        let count = |i: usize| u64::try_from(r.get::<_, i64>(i)).unwrap_or(0);
        Ok(Backlog {
            queued: count(0),
            running: count(1),
            next_ready_in: r
                .get::<_, Option<f64>>(2)
                .map(|s| Duration::from_secs_f64(s.clamp(0.0, 86_400.0))),
        })
    }

    /// Waits up to `timeout` for an enqueue's notification (listening from
    /// the first call on); true when one came.
    pub fn wait(&mut self, timeout: Duration) -> Result<bool> {
        if !self.listening {
            self.client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
            self.listening = true;
        }
        let mut notes = self.client.notifications();
        let mut got = false;
        {
            let mut iter = notes.timeout_iter(timeout);
            while let Some(n) = iter.next()? {
                if n.channel() == CHANNEL {
                    got = true;
                    break;
                }
            }
        }
        // Drain what else arrived: one wake-up is enough.
        let mut rest = notes.iter();
        while rest.next()?.is_some() {}
        Ok(got)
    }
}
