//! `errdex enqueue`, `errdex worker`, `errdex jobs`: the job queue of a
//! PostgreSQL catalogue.

use crate::Failure;
use errdex_app::worker::{self, EnqueueSummary, JobOutcome, JobRow, Work, WorkerOptions};
use errdex_app::Location;
use std::fmt::Write;

/// `errdex enqueue`: adds jobs, prints what each became.
pub fn enqueue(db: &Location, work: &Work, max_attempts: u32, json: bool) -> Result<u8, Failure> {
    let summary = worker::enqueue(db, work, max_attempts)?;
    let mut o = String::new();
    if json {
        let _ = writeln!(
            o,
            "{}",
            serde_json::to_string(&summary).expect("summary serialises")
        );
    } else {
        print_enqueued(&mut o, &summary);
    }
    crate::out::emit(&o, json);
    Ok(0)
}

fn print_enqueued(o: &mut String, s: &EnqueueSummary) {
    use errdex_app::worker::Enqueued;
    for j in &s.jobs {
        let what = match j.outcome {
            Enqueued::Added { id } => format!("job {id} queued"),
            Enqueued::Retried { id } => format!("job {id} had failed: queued again"),
            Enqueued::Exists { id, state } => format!("job {id} is {} already", state.as_str()),
        };
        let _ = writeln!(o, "{what}: {} {}", j.kind, j.source);
    }
    for (why, n) in &s.skipped {
        let _ = writeln!(
            o,
            "skipped {n} {why} package(s): only registry crates are queued"
        );
    }
}

/// `errdex worker`: works the queue; a line per job (JSON lines with
/// `--json`); exits 0 when `--once` finds the queue empty.
pub fn work(db: &Location, opts: &WorkerOptions, json: bool) -> Result<u8, Failure> {
    let report = |r: &JobOutcome| {
        let mut o = String::new();
        if json {
            let _ = writeln!(
                o,
                "{}",
                serde_json::to_string(r).expect("outcome serialises")
            );
        } else {
            let state = r.state.map_or("lost to another worker", |s| s.as_str());
            let _ = write!(
                o,
                "job {} {} {} (attempt {}): {state} in {:.1}s",
                r.id,
                r.kind.as_str(),
                r.source,
                r.attempt,
                r.seconds
            );
            if let Some(e) = &r.error {
                let _ = write!(o, ": {e}");
            }
            o.push('\n');
        }
        crate::out::emit(&o, json);
    };
    let summary = worker::work(db, opts, &report)?;
    if !json {
        let mut o = String::new();
        let _ = writeln!(
            o,
            "worker stopped: {} done, {} to retry, {} failed, {} lost",
            summary.done, summary.retrying, summary.failed, summary.lost
        );
        crate::out::print(&o);
    }
    Ok(0)
}

/// `errdex jobs`: every job with its state, attempts, error and timings.
pub fn jobs(db: &Location, json: bool) -> Result<u8, Failure> {
    let rows: Vec<JobRow> = worker::queue_at(db)?
        .list()
        .map_err(errdex_app::AppError::from)?;
    let mut o = String::new();
    if json {
        let _ = writeln!(
            o,
            "{}",
            serde_json::to_string(&rows).expect("rows serialise")
        );
        crate::out::print_json(&o);
        return Ok(0);
    }
    for r in &rows {
        let took = r.seconds.map(|s| format!(" {s:.1}s")).unwrap_or_default();
        let _ = write!(
            o,
            "{:>6} {:<7} {:<8} {}/{}{took} {}",
            r.id,
            r.kind.as_str(),
            r.state.as_str(),
            r.attempts,
            r.max_attempts,
            r.source
        );
        if let Some(e) = &r.error {
            let _ = write!(o, "  error: {e}");
        }
        o.push('\n');
    }
    crate::out::print(&o);
    Ok(0)
}
