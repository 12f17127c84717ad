//! The server's connections at the cap: each live connection is either
//! waiting for a request (reclaimable) or serving one (busy). A newcomer
//! past [`crate::Limits::max_connections`] takes the place of the
//! connection that has been waiting the longest — one that never sent a
//! whole request (slowloris) or one idle between keep-alive requests — and
//! is refused only when every connection is serving a request.

use axum::body::{Body, HttpBody};
use axum::http::{header, Request, Response, StatusCode};
use hyper::body::{Frame, Incoming, SizeHint};
use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::num::NonZeroUsize;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll};
use tokio::sync::oneshot;

/// How a reclaimed connection is to be closed, by what it was doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reclaimed {
    /// It never sent a whole request: nothing of ours is in flight on it,
    /// close it at once.
    BeforeFirstRequest,
    /// It is between keep-alive requests: close it once the end of its
    /// last response has left (hyper flushes before it shuts down).
    BetweenRequests,
}

/// What a tracked connection is doing.
#[derive(Debug)]
enum Activity {
    /// Waiting for a request since the sequence number `since` (its key
    /// in [`Table::waiting`]); `served` once it has answered one.
    Waiting { since: u64, served: bool },
    /// Serving this many requests (one at a time over HTTP/1; counted so
    /// that no interleaving of guards can mark it idle too early).
    Busy(NonZeroUsize),
}

/// One tracked connection.
#[derive(Debug)]
struct Entry {
    activity: Activity,
    /// Tells the connection's task it was reclaimed.
    reclaim: oneshot::Sender<Reclaimed>,
}

/// Every tracked connection, under one lock so that choosing a victim and
/// a request starting on it cannot interleave. Invariant, kept by the
/// methods below: `waiting` holds `(since, id)` exactly when `entries[id]`
/// is `Waiting { since, .. }`.
#[derive(Debug, Default)]
struct Table {
    /// The next sequence number (connection ids and waiting times share it).
    next: u64,
    entries: HashMap<u64, Entry>,
    /// The waiting connections' ids by the sequence number at which they
    /// started waiting: the first is the one waiting the longest.
    waiting: BTreeMap<u64, u64>,
}

impl Table {
    fn tick(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// Tracks a new connection, waiting for its first request.
    fn insert(&mut self, reclaim: oneshot::Sender<Reclaimed>) -> u64 {
        let id = self.tick();
        let activity = Activity::Waiting {
            since: id,
            served: false,
        };
        self.entries.insert(id, Entry { activity, reclaim });
        self.waiting.insert(id, id);
        id
    }

    /// Stops tracking `id`.
    fn remove(&mut self, id: u64) {
        if let Some(Entry {
            activity: Activity::Waiting { since, .. },
            ..
        }) = self.entries.remove(&id)
        {
            self.waiting.remove(&since);
        }
    }

    /// Stops tracking the connection waiting the longest: its sender, and
    /// how it is to be closed.
    fn pop_longest_waiting(&mut self) -> Option<(oneshot::Sender<Reclaimed>, Reclaimed)> {
        let (_, id) = self.waiting.pop_first()?;
        let entry = self.entries.remove(&id)?;
        let how = match entry.activity {
            Activity::Waiting { served: false, .. } => Reclaimed::BeforeFirstRequest,
            Activity::Waiting { served: true, .. } => Reclaimed::BetweenRequests,
            // Never in `waiting` (the invariant); checked here all the
            // same, as this is the one place a connection is taken.
            Activity::Busy(_) => {
                self.entries.insert(id, entry);
                return None;
            }
        };
        Some((entry.reclaim, how))
    }

    /// Marks `id` busy with one more request; false if it is not tracked.
    fn start(&mut self, id: u64) -> bool {
        let Some(entry) = self.entries.get_mut(&id) else {
            return false;
        };
        match &mut entry.activity {
            Activity::Waiting { since, .. } => {
                self.waiting.remove(since);
                entry.activity = Activity::Busy(NonZeroUsize::MIN);
            }
            Activity::Busy(n) => *n = n.saturating_add(1),
        }
        true
    }

    /// Marks one request of `id` done; with none left, the connection
    /// waits again, as the newest waiting one.
    fn finish(&mut self, id: u64) {
        let since = self.tick();
        let Some(entry) = self.entries.get_mut(&id) else {
            return;
        };
        let Activity::Busy(n) = entry.activity else {
            return;
        };
        match NonZeroUsize::new(n.get() - 1) {
            Some(left) => entry.activity = Activity::Busy(left),
            None => {
                entry.activity = Activity::Waiting {
                    since,
                    served: true,
                };
                self.waiting.insert(since, id);
            }
        }
    }
}

/// The live connections of one server, at most `cap` of them.
#[derive(Debug)]
pub(crate) struct Connections {
    cap: usize,
    table: Mutex<Table>,
}

/// A connection let in by [`Connections::admit`].
#[derive(Debug)]
pub(crate) struct Admitted {
    /// Its place in the table, given up when the last clone is dropped.
    pub ticket: Arc<Ticket>,
    /// Resolves if the connection is reclaimed for a newcomer.
    pub reclaimed: oneshot::Receiver<Reclaimed>,
}

impl Connections {
    /// A table holding at most `cap` connections (at least one).
    pub(crate) fn new(cap: usize) -> Arc<Connections> {
        Arc::new(Connections {
            cap: cap.max(1),
            table: Mutex::new(Table::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Table> {
        // The table is consistent after every statement that can panic.
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Lets a new connection in, waiting for its first request. At the cap,
    /// the connection waiting the longest is reclaimed (told so through its
    /// receiver, and no longer counted) to make room; `None` when every
    /// connection is busy: the newcomer is refused.
    pub(crate) fn admit(self: &Arc<Self>) -> Option<Admitted> {
        let mut t = self.lock();
        if t.entries.len() >= self.cap {
            let (victim, how) = t.pop_longest_waiting()?;
            // A connection whose task has just ended has dropped its
            // receiver: it is gone either way.
            let _ = victim.send(how);
        }
        let (reclaim, reclaimed) = oneshot::channel();
        let id = t.insert(reclaim);
        Some(Admitted {
            ticket: Arc::new(Ticket {
                id,
                connections: self.clone(),
            }),
            reclaimed,
        })
    }

    /// Connections tracked (waiting or busy).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().entries.len()
    }
}

/// A tracked connection's place in its [`Connections`]; dropping it (when
/// the connection ends) frees the place.
#[derive(Debug)]
pub(crate) struct Ticket {
    id: u64,
    connections: Arc<Connections>,
}

impl Ticket {
    /// Marks the connection busy until the returned guard is dropped;
    /// `None` if it was reclaimed already (its request must not start).
    pub(crate) fn busy(self: &Arc<Self>) -> Option<Busy> {
        self.connections.lock().start(self.id).then(|| Busy {
            ticket: self.clone(),
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.connections.lock().remove(self.id);
    }
}

/// A request in flight on a connection; dropping it (when the response
/// body has been sent, or the request abandoned) makes the connection
/// reclaimable again, as the newest waiting one.
#[derive(Debug)]
pub(crate) struct Busy {
    ticket: Arc<Ticket>,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.ticket.connections.lock().finish(self.ticket.id);
    }
}

/// A response body that keeps its connection [`Busy`] until hyper has
/// taken all of it (or dropped it); without a guard for the refusal of a
/// request on a reclaimed connection.
#[derive(Debug)]
pub(crate) struct Guarded {
    body: Body,
    _busy: Option<Busy>,
}

impl HttpBody for Guarded {
    type Data = <Body as HttpBody>::Data;
    type Error = <Body as HttpBody>::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.get_mut().body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A connection's service: `inner` run for each request while the
/// connection is marked busy.
#[derive(Debug)]
pub(crate) struct Tracked<S> {
    /// The service answering requests.
    pub inner: S,
    /// The connection's place.
    pub ticket: Arc<Ticket>,
}

impl<S> hyper::service::Service<Request<Incoming>> for Tracked<S>
where
    S: hyper::service::Service<Request<Incoming>, Response = Response<Body>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Response<Guarded>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Response<Guarded>, S::Error>> + Send>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let Some(busy) = self.ticket.busy() else {
            // Reclaimed just before this request was read: it is not
            // started, and the connection is closing.
            let refused = Response::builder()
                .status(StatusCode::SERVICE_UNAVAILABLE)
                .header(header::CONNECTION, "close")
                .header(header::CONTENT_TYPE, "text/plain; charset=utf-8")
                .body(Body::from("connection reclaimed; retry\n"))
                .expect("a valid response");
            return Box::pin(std::future::ready(Ok(
                refused.map(|body| Guarded { body, _busy: None })
            )));
        };
        let answer = self.inner.call(req);
        Box::pin(async move {
            let resp = answer.await?;
            Ok(resp.map(|body| Guarded {
                body,
                _busy: Some(busy),
            }))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reclaimed(a: &mut Admitted) -> Option<Reclaimed> {
        a.reclaimed.try_recv().ok()
    }

    #[test]
    fn the_longest_waiting_is_reclaimed_at_the_cap() {
        let c = Connections::new(3);
        let mut a: Vec<_> = (0..3).map(|_| c.admit().unwrap()).collect();
        assert_eq!(c.len(), 3);
        let mut d = c.admit().unwrap();
        assert_eq!(reclaimed(&mut a[0]), Some(Reclaimed::BeforeFirstRequest));
        assert_eq!(reclaimed(&mut a[1]), None);
        assert_eq!(reclaimed(&mut a[2]), None);
        assert_eq!(reclaimed(&mut d), None);
        assert_eq!(c.len(), 3);
        // The reclaimed connection cannot start a request any more.
        assert!(a[0].ticket.busy().is_none());
    }

    #[test]
    fn a_busy_connection_is_never_reclaimed() {
        let c = Connections::new(3);
        let mut a: Vec<_> = (0..3).map(|_| c.admit().unwrap()).collect();
        // The oldest two are serving requests: the third goes.
        let busy: Vec<_> = a[..2].iter().map(|a| a.ticket.busy().unwrap()).collect();
        let mut d = c.admit().unwrap();
        assert_eq!(reclaimed(&mut a[0]), None);
        assert_eq!(reclaimed(&mut a[1]), None);
        assert_eq!(reclaimed(&mut a[2]), Some(Reclaimed::BeforeFirstRequest));
        // Every connection busy: the newcomer is refused.
        let _d_busy = d.ticket.busy().unwrap();
        assert!(c.admit().is_none());
        assert_eq!(c.len(), 3);
        // A request done: its connection waits again, between requests,
        // and is the one taken next.
        drop(busy);
        let _e = c.admit().unwrap();
        assert_eq!(reclaimed(&mut a[0]), Some(Reclaimed::BetweenRequests));
        assert_eq!(reclaimed(&mut a[1]), None);
        assert_eq!(reclaimed(&mut d), None);
    }

    #[test]
    fn waiting_is_counted_from_the_end_of_the_last_request() {
        let c = Connections::new(2);
        let mut a = c.admit().unwrap();
        let mut b = c.admit().unwrap();
        // `a` is older, but answered a request after `b` started waiting.
        drop(a.ticket.busy().unwrap());
        let _d = c.admit().unwrap();
        assert_eq!(reclaimed(&mut b), Some(Reclaimed::BeforeFirstRequest));
        assert_eq!(reclaimed(&mut a), None);
    }

    #[test]
    fn nested_requests_keep_a_connection_busy_until_the_last_ends() {
        let c = Connections::new(1);
        let mut a = c.admit().unwrap();
        let first = a.ticket.busy().unwrap();
        let second = a.ticket.busy().unwrap();
        drop(first);
        assert!(c.admit().is_none());
        drop(second);
        let _b = c.admit().unwrap();
        assert_eq!(reclaimed(&mut a), Some(Reclaimed::BetweenRequests));
    }

    #[test]
    fn a_closed_connection_frees_its_place() {
        let c = Connections::new(2);
        let a = c.admit().unwrap();
        let b = c.admit().unwrap();
        let busy = b.ticket.busy().unwrap();
        drop(a);
        assert_eq!(c.len(), 1);
        let mut d = c.admit().unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(reclaimed(&mut d), None);
        // A ticket outlived by its guard keeps the place until both go.
        let Admitted { ticket, .. } = b;
        drop(ticket);
        assert_eq!(c.len(), 2);
        drop(busy);
        assert_eq!(c.len(), 1);
    }
}
