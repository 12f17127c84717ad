//! The job queue's use cases: `enqueue` sources or analyses, `work` the
//! queue with a pool of threads (each its own connection, claiming with
//! `SKIP LOCKED` and renewing its lease while the job runs), and list
//! `jobs`. The queue lives in the PostgreSQL catalogue's database.

use crate::analyze::{analyze, AnalyzeOptions};
use crate::index::{index, IndexOptions, Indexed};
use crate::{AppError, Quiet, Result};
use errdex_catalog::{Location, PgUrl};
use errdex_queue::{Job, JobKind, NewJob, Queue};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use errdex_queue::{Enqueued, JobRow, JobState};

/// How a queued index job indexes (the options of `errdex index` that make
/// sense on another machine).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndexJobOptions {
    /// Parse every file again instead of reusing cached results.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_reuse: bool,
    /// Skip the git history pass.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_history: bool,
    /// The repo's name for a folder or git source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// How a queued analysis analyses (its key comes from the worker's
/// environment, never from the queue).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalyzeJobOptions {
    /// An OpenAI-compatible server or `local:PATH.gguf`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm: Option<String>,
    /// The model name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// At most this many errors per repo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<usize>,
}

/// What to enqueue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Work {
    /// Index each source; a `lock:` source becomes one job per registry
    /// package (a worker elsewhere cannot read the lock file).
    Index(Vec<String>, IndexJobOptions),
    /// Analyse a repo or an error (`None`: every repo).
    Analyze(Option<String>, AnalyzeJobOptions),
}

/// One enqueued job.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnqueuedJob {
    /// What it does.
    pub kind: &'static str,
    /// Its source.
    pub source: String,
    /// What enqueueing did.
    #[serde(flatten)]
    pub outcome: Enqueued,
}

/// What `enqueue` did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct EnqueueSummary {
    /// Each job.
    pub jobs: Vec<EnqueuedJob>,
    /// Lock-file packages not enqueued, by reason (only registry packages
    /// can be fetched by any worker).
    pub skipped: std::collections::BTreeMap<&'static str, usize>,
}

/// Opens the queue in the catalogue's PostgreSQL database.
pub fn queue_at(db: &Location) -> Result<Queue> {
    connect(postgres_of(db)?)
}

fn connect(url: &PgUrl) -> Result<Queue> {
    Ok(Queue::new(url.client()?)?)
}

/// The PostgreSQL database of a catalogue (a SQLite file has no queue).
fn postgres_of(db: &Location) -> Result<&PgUrl> {
    match db {
        Location::Postgres(url) => Ok(url),
        Location::Sqlite(_) => Err(AppError::input(
            "the job queue needs a PostgreSQL catalogue: pass --db postgres://USER@HOST:PORT/DB",
        )),
    }
}

/// Adds jobs (and wakes idle workers); jobs already queued, running or
/// done are left as they are.
pub fn enqueue(db: &Location, work: &Work, max_attempts: u32) -> Result<EnqueueSummary> {
    let mut queue = queue_at(db)?;
    let mut summary = EnqueueSummary::default();
    let mut jobs: Vec<NewJob> = Vec::new();
    match work {
        Work::Index(sources, opts) => {
            let options = serde_json::to_value(opts).expect("options serialise");
            for source in sources {
                for s in expand(source, &mut summary.skipped)? {
                    jobs.push(NewJob {
                        kind: JobKind::Index,
                        source: s,
                        options: options.clone(),
                        max_attempts,
                    });
                }
            }
        }
        Work::Analyze(target, opts) => jobs.push(NewJob {
            kind: JobKind::Analyze,
            source: target.clone().unwrap_or_default(),
            options: serde_json::to_value(opts).expect("options serialise"),
            max_attempts,
        }),
    }
    for job in jobs {
        let outcome = queue.enqueue(&job)?;
        summary.jobs.push(EnqueuedJob {
            kind: job.kind.as_str(),
            source: job.source,
            outcome,
        });
    }
    Ok(summary)
}

/// A source as jobs: a lock file's published packages one by one, a folder
/// or git directory by its absolute path, anything else as given.
fn expand(
    source: &str,
    skipped: &mut std::collections::BTreeMap<&'static str, usize>,
) -> Result<Vec<String>> {
    use errdex_source::lock::{packages, LockedSource};
    use errdex_source::SourceSpec;
    let spec = SourceSpec::parse(source).map_err(AppError::input)?;
    Ok(match spec {
        SourceSpec::Lock(path) => {
            let mut out = Vec::new();
            for p in packages(&path).map_err(AppError::input)? {
                match p.source {
                    LockedSource::Registry { .. } => {
                        out.push(format!("crate:{}@{}", p.name, p.version))
                    }
                    // (The lock's hashes stay behind: pip checks the index's.)
                    LockedSource::Pypi { .. } => {
                        out.push(format!("pypi:{}=={}", p.name, p.version))
                    }
                    LockedSource::Unpinned => *skipped.entry("not_pinned").or_insert(0) += 1,
                    LockedSource::Path => *skipped.entry("path").or_insert(0) += 1,
                    LockedSource::Git { .. } => *skipped.entry("git").or_insert(0) += 1,
                    LockedSource::Other(_) => *skipped.entry("unknown_source").or_insert(0) += 1,
                }
            }
            out
        }
        SourceSpec::Dir(_) | SourceSpec::Git(..) => {
            let (path, rev) = match source.rsplit_once('@') {
                Some((p, r)) if !std::path::Path::new(source).exists() => (p, Some(r)),
                _ => (source, None),
            };
            let abs: PathBuf =
                std::fs::canonicalize(path).map_err(|e| AppError::input(format!("{path}: {e}")))?;
            let abs = abs.display().to_string();
            vec![match rev {
                Some(r) => format!("{abs}@{r}"),
                None => abs,
            }]
        }
        SourceSpec::Crate(_) | SourceSpec::Pypi(_) => vec![source.to_string()],
    })
}

/// How to work the queue.
#[derive(Debug, Clone)]
pub struct WorkerOptions {
    /// Jobs run at once (threads, each with its own connections).
    pub concurrency: usize,
    /// Exit once no job is queued or running, instead of waiting for more.
    pub once: bool,
    /// How long a claim holds a job without renewal; renewed every third.
    pub lease: Duration,
    /// First retry's delay; doubled per attempt.
    pub backoff: Duration,
    /// This worker's name in the queue (threads add `/N`).
    pub name: String,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions {
            concurrency: 1,
            once: false,
            lease: Duration::from_secs(60),
            backoff: Duration::from_secs(10),
            name: default_worker_name(),
        }
    }
}

/// `HOST:PID`.
fn default_worker_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into());
    format!("{host}:{}", std::process::id())
}

/// What happened to one job a worker took.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct JobOutcome {
    /// The job.
    pub id: i64,
    /// Its kind.
    pub kind: JobKind,
    /// Its source.
    pub source: String,
    /// Which attempt this was.
    pub attempt: u32,
    /// Where the job is now (`None`: another worker had taken it over, its
    /// result was not recorded).
    pub state: Option<JobState>,
    /// The attempt's error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Seconds it took.
    pub seconds: f64,
}

/// What a worker did, once it stops.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct WorkSummary {
    /// Jobs done.
    pub done: usize,
    /// Attempts that failed and will be retried.
    pub retrying: usize,
    /// Jobs failed for good.
    pub failed: usize,
    /// Jobs lost to another worker (their lease ran out).
    pub lost: usize,
}

/// Works the queue of the PostgreSQL catalogue `db` with
/// `opts.concurrency` threads, calling `report` after each job; returns
/// when the queue is empty under `once`, else only on a database error.
pub fn work(
    db: &Location,
    opts: &WorkerOptions,
    report: &(dyn Fn(&JobOutcome) + Sync),
) -> Result<WorkSummary> {
    let url = postgres_of(db)?;
    // Connect (and migrate) once before the threads start.
    connect(url)?;
    let threads = opts.concurrency.max(1);
    let results: Vec<Result<WorkSummary>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let name = if threads == 1 {
                    opts.name.clone()
                } else {
                    format!("{}/{i}", opts.name)
                };
                s.spawn(move || work_thread(db, url, &name, opts, report))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    let mut total = WorkSummary::default();
    for r in results {
        let r = r?;
        total.done += r.done;
        total.retrying += r.retrying;
        total.failed += r.failed;
        total.lost += r.lost;
    }
    Ok(total)
}

/// Longest wait between looks at the queue when no notification comes
/// (a lease may run out or a backoff end without one).
const MAX_IDLE_WAIT: Duration = Duration::from_secs(5);

fn work_thread(
    db: &Location,
    url: &PgUrl,
    name: &str,
    opts: &WorkerOptions,
    report: &(dyn Fn(&JobOutcome) + Sync),
) -> Result<WorkSummary> {
    let mut queue = connect(url)?;
    let mut summary = WorkSummary::default();
    loop {
        let Some(job) = queue.claim(name, opts.lease)? else {
            let backlog = queue.backlog()?;
            if opts.once && backlog.is_empty() {
                return Ok(summary);
            }
            let wait = backlog
                .next_ready_in
                .unwrap_or(MAX_IDLE_WAIT)
                .clamp(Duration::from_millis(50), MAX_IDLE_WAIT);
            queue.wait(wait)?;
            continue;
        };
        let started = std::time::Instant::now();
        let ran = with_lease(url, &job, name, opts.lease, || run(db, &job));
        let (state, error) = match ran {
            Ok(result) => {
                let kept = queue.complete(job.id, name, &result)?;
                (kept.then_some(JobState::Done), None)
            }
            Err(e) => {
                let message = e.to_string();
                (
                    queue.fail(job.id, name, &message, opts.backoff)?,
                    Some(message),
                )
            }
        };
        match state {
            Some(JobState::Done) => summary.done += 1,
            Some(JobState::Failed) => summary.failed += 1,
            Some(_) => summary.retrying += 1,
            None => summary.lost += 1,
        }
        report(&JobOutcome {
            id: job.id,
            kind: job.kind,
            source: job.source.clone(),
            attempt: job.attempt,
            state,
            error,
            seconds: started.elapsed().as_secs_f64(),
        });
    }
}

/// Runs `f` while a thread renews the lease on `job` every third of it.
fn with_lease<T>(url: &PgUrl, job: &Job, name: &str, lease: Duration, f: impl FnOnce() -> T) -> T {
    let stop = Arc::new(AtomicBool::new(false));
    std::thread::scope(|s| {
        let renewer = {
            let stop = Arc::clone(&stop);
            s.spawn(move || {
                let Ok(mut q) = connect(url) else {
                    return;
                };
                let step = (lease / 3).max(Duration::from_millis(50));
                let tick = Duration::from_millis(20).min(step);
                let mut since = Duration::ZERO;
                while !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(tick);
                    since += tick;
                    if since >= step {
                        since = Duration::ZERO;
                        if !q.renew(job.id, name, lease).unwrap_or(false) {
                            return;
                        }
                    }
                }
            })
        };
        let out = f();
        stop.store(true, Ordering::Relaxed);
        let _ = renewer.join();
        out
    })
}

/// Runs one job against the catalogue `db`; its result as JSON.
fn run(db: &Location, job: &Job) -> Result<serde_json::Value> {
    match job.kind {
        JobKind::Index => {
            let o: IndexJobOptions = serde_json::from_value(job.options.clone())
                .map_err(|e| AppError::input(format!("job {}: bad options: {e}", job.id)))?;
            let opts = IndexOptions {
                reuse: !o.no_reuse,
                history: !o.no_history,
                clones: Vec::new(),
                name: o.name,
                skip_indexed: true,
            };
            let mut out = Vec::new();
            index(
                db,
                std::slice::from_ref(&job.source),
                &opts,
                &Quiet,
                &mut |done: Indexed| out.push(done),
            )?;
            Ok(serde_json::to_value(out).expect("summaries serialise"))
        }
        JobKind::Analyze => {
            let o: AnalyzeJobOptions = serde_json::from_value(job.options.clone())
                .map_err(|e| AppError::input(format!("job {}: bad options: {e}", job.id)))?;
            let opts = AnalyzeOptions {
                llm: o.llm,
                model: o.model,
                key: std::env::var("ERRDEX_LLM_KEY").ok(),
                limit: o.limit,
            };
            let target = (!job.source.is_empty()).then_some(job.source.as_str());
            let summary = analyze(db, target, &opts, &Quiet)?;
            Ok(serde_json::to_value(summary).expect("summary serialises"))
        }
    }
}
