//! The queue against a real PostgreSQL server: `ERRDEX_TEST_PG` names one
//! (`postgres://USER@HOST:PORT/DB`; each test makes its own database). CI
//! always sets it; elsewhere these tests say loudly that they were skipped.

#[path = "../../catalog/tests/common/pg.rs"]
mod pg;

use errdex_queue::{Enqueued, JobKind, JobState, NewJob, Queue};
use postgres::Config;
use std::str::FromStr;
use std::time::Duration;

/// A fresh database on the test server (dropped with the guard), or
/// `None` (skipped) without one.
fn fresh_db() -> Option<(pg::TempDb, Config)> {
    let db = pg::TempDb::new()?;
    let cfg = Config::from_str(&db.url).expect("ERRDEX_TEST_PG is a PostgreSQL URL");
    Some((db, cfg))
}

fn connect(cfg: &Config) -> errdex_queue::Result<Queue> {
    Queue::new(cfg.connect(postgres::NoTls).expect("test server answers"))
}

fn job(source: &str, attempts: u32) -> NewJob {
    NewJob {
        kind: JobKind::Index,
        source: source.into(),
        options: serde_json::json!({"history": false}),
        max_attempts: attempts,
    }
}

#[test]
fn a_job_is_added_once_and_done_once() {
    let Some((_db, cfg)) = fresh_db() else { return };
    let mut q = connect(&cfg).unwrap();
    let first = q.enqueue(&job("crate:a@1.0.0", 3)).unwrap();
    let Enqueued::Added { id } = first else {
        panic!("{first:?}")
    };
    assert_eq!(
        q.enqueue(&job("crate:a@1.0.0", 3)).unwrap(),
        Enqueued::Exists {
            id,
            state: JobState::Queued
        }
    );
    let j = q.claim("w1", Duration::from_secs(60)).unwrap().unwrap();
    assert_eq!(
        (j.id, j.attempt, j.source.as_str()),
        (id, 1, "crate:a@1.0.0")
    );
    assert!(q.claim("w2", Duration::from_secs(60)).unwrap().is_none());
    assert!(!q.complete(id, "w2", &serde_json::json!({})).unwrap());
    assert!(q
        .complete(id, "w1", &serde_json::json!({"sites": 3}))
        .unwrap());
    assert_eq!(
        q.enqueue(&job("crate:a@1.0.0", 3)).unwrap(),
        Enqueued::Exists {
            id,
            state: JobState::Done
        }
    );
    let rows = q.list().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].state, JobState::Done);
    assert_eq!(rows[0].result, Some(serde_json::json!({"sites": 3})));
    assert!(rows[0].seconds.is_some());
    assert!(q.backlog().unwrap().is_empty());
}

#[test]
fn concurrent_workers_take_distinct_jobs() {
    let Some((_db, cfg)) = fresh_db() else { return };
    let mut q = connect(&cfg).unwrap();
    for i in 0..20 {
        q.enqueue(&job(&format!("crate:c{i}@1.0.0"), 1)).unwrap();
    }
    let taken: Vec<Vec<i64>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|w| {
                let cfg = cfg.clone();
                s.spawn(move || {
                    let mut q = connect(&cfg).unwrap();
                    let name = format!("w{w}");
                    let mut mine = Vec::new();
                    while let Some(j) = q.claim(&name, Duration::from_secs(60)).unwrap() {
                        assert!(q.complete(j.id, &name, &serde_json::json!(null)).unwrap());
                        mine.push(j.id);
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut all: Vec<i64> = taken.concat();
    all.sort_unstable();
    assert_eq!(all.len(), 20, "{taken:?}");
    all.dedup();
    assert_eq!(all.len(), 20, "a job was taken twice: {taken:?}");
}

#[test]
fn an_expired_lease_gives_the_job_to_another_worker() {
    let Some((_db, cfg)) = fresh_db() else { return };
    let mut q = connect(&cfg).unwrap();
    let Enqueued::Added { id } = q.enqueue(&job("crate:l@1.0.0", 3)).unwrap() else {
        panic!()
    };
    let lease = Duration::from_millis(300);
    assert_eq!(q.claim("dead", lease).unwrap().unwrap().attempt, 1);
    assert!(
        q.claim("alive", lease).unwrap().is_none(),
        "lease still held"
    );
    std::thread::sleep(Duration::from_millis(500));
    let j = q.claim("alive", Duration::from_secs(60)).unwrap().unwrap();
    assert_eq!((j.id, j.attempt), (id, 2));
    assert!(
        !q.renew(id, "dead", lease).unwrap(),
        "the dead worker lost it"
    );
    assert!(!q.complete(id, "dead", &serde_json::json!(null)).unwrap());
    let row = &q.list().unwrap()[0];
    assert!(
        row.error
            .as_deref()
            .unwrap()
            .contains("dead stopped renewing"),
        "{row:?}"
    );
    assert!(q.renew(id, "alive", lease).unwrap());
    assert!(q.complete(id, "alive", &serde_json::json!(null)).unwrap());
}

#[test]
fn failures_back_off_then_fail_and_can_be_retried() {
    let Some((_db, cfg)) = fresh_db() else { return };
    let mut q = connect(&cfg).unwrap();
    let Enqueued::Added { id } = q.enqueue(&job("crate:f@1.0.0", 2)).unwrap() else {
        panic!()
    };
    let lease = Duration::from_secs(60);
    let backoff = Duration::from_millis(400);
    q.claim("w", lease).unwrap().unwrap();
    assert_eq!(
        q.fail(id, "w", "no such crate", backoff).unwrap(),
        Some(JobState::Queued)
    );
    assert!(q.claim("w", lease).unwrap().is_none(), "still backing off");
    let b = q.backlog().unwrap();
    assert_eq!((b.queued, b.running), (1, 0));
    assert!(b.next_ready_in.unwrap() <= backoff);
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(q.claim("w", lease).unwrap().unwrap().attempt, 2);
    assert_eq!(
        q.fail(id, "w", "no such crate", backoff).unwrap(),
        Some(JobState::Failed)
    );
    let row = &q.list().unwrap()[0];
    assert_eq!((row.state, row.attempts), (JobState::Failed, 2));
    assert_eq!(row.error.as_deref(), Some("no such crate"));
    assert!(q.backlog().unwrap().is_empty());
    assert_eq!(
        q.enqueue(&job("crate:f@1.0.0", 2)).unwrap(),
        Enqueued::Retried { id }
    );
    assert_eq!(q.claim("w", lease).unwrap().unwrap().attempt, 1);
}

#[test]
fn enqueueing_wakes_a_waiting_worker() {
    let Some((_db, cfg)) = fresh_db() else {
        return;
    };
    let mut idle = connect(&cfg).unwrap();
    assert!(!idle.wait(Duration::from_millis(50)).unwrap());
    let waker = {
        let cfg = cfg.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            connect(&cfg)
                .unwrap()
                .enqueue(&job("crate:n@1.0.0", 1))
                .unwrap();
        })
    };
    let started = std::time::Instant::now();
    assert!(idle.wait(Duration::from_secs(30)).unwrap());
    assert!(started.elapsed() < Duration::from_secs(30));
    waker.join().unwrap();
    assert!(idle.claim("w", Duration::from_secs(5)).unwrap().is_some());
}
