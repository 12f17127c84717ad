//! `errdex serve`: the catalogue as a web site (server-rendered HTML that
//! works without JavaScript) and a JSON API, from a read-only connection.
//!
//! Pages and JSON records are rendered once and kept with a strong ETag
//! until the catalogue changes; `If-None-Match` answers 304. Every response
//! carries a strict Content-Security-Policy (no script at all); bodies,
//! queries and request time are bounded.

pub mod api;
mod connections;
pub mod highlight;
pub mod pages;
pub mod state;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Query, RawQuery, State as Extract};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use pages::PageError;
use serde::Deserialize;
use state::{Page, State};
use std::sync::Arc;
use std::time::Duration;

/// Largest request body: pasted output past 1 MiB is not read anyway.
pub const MAX_BODY: usize = 1024 * 1024;
/// Longest query string.
pub const MAX_QUERY: usize = 8 * 1024;
/// Longest search text.
pub const MAX_SEARCH: usize = 4096;
/// A request taking longer is answered 408.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// Longest a connection reclaimed between requests is given to send the
/// end of its last response (a client not reading it) before it is closed.
const RECLAIM_FLUSH: Duration = Duration::from_secs(1);
/// How often the catalogue is checked for changes.
pub const REFRESH_EVERY: Duration = Duration::from_secs(2);

/// What one server holds open at most, and for how long.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections held open at once. A newcomer past this takes the place
    /// of the connection waiting the longest for a request — one that has
    /// not sent a whole request yet, or one idle between keep-alive
    /// requests —, which is closed; a connection serving a request is
    /// never closed for it. Only when every connection is serving one is
    /// the newcomer closed as soon as it is accepted (shed), so the ones
    /// served keep their descriptors and memory.
    pub max_connections: usize,
    /// A connection whose request headers are not complete this long
    /// after it starts waiting for them is closed. hyper starts this timer
    /// whenever a connection waits for a request, so it is also the idle
    /// keep-alive timeout.
    pub header_read_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_connections: 4096,
            header_read_timeout: Duration::from_secs(10),
        }
    }
}

/// Raises the soft limit on open file descriptors to the hard limit (at
/// most 1,048,576), so connections are not refused by `EMFILE` long
/// before [`Limits::max_connections`]. Returns the soft limit in force.
pub fn raise_fd_limit() -> u64 {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `lim` is a valid, writable rlimit for the duration of the call.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return 0;
    }
    let want = lim.rlim_max.min(1 << 20);
    if lim.rlim_cur < want {
        let raised = libc::rlimit {
            rlim_cur: want,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: `raised` is a valid rlimit; a refusal leaves the old one.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            lim.rlim_cur = want;
        }
    }
    #[allow(clippy::unnecessary_cast)] // `rlim_t` is not `u64` on every target
    let soft = lim.rlim_cur as u64;
    soft
}

/// No scripts, no inline styles, nothing from elsewhere.
pub const CSP: &str = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json";

type Shared = Arc<State>;

/// The site's routes.
pub fn app(state: Shared) -> Router {
    Router::new()
        .route("/", get(home))
        .route("/search", get(search))
        .route("/explain", post(explain_form))
        .route("/repos/{*slug}", get(repo))
        .route("/errors/{id}", get(error))
        .route("/source", get(source))
        .route("/api/errors/{id}", get(api_error))
        .route("/api/search", get(api_search))
        .route("/api/explain", post(api_explain))
        .route("/api/repos", get(api_repos))
        .route("/api/openapi.json", get(openapi))
        .route("/healthz", get(|| async { "ok" }))
        .route("/sitemap.xml", get(sitemap))
        .route("/static/style.css", get(style))
        .fallback(|| async { html_error(PageError::NotFound("No such page.".into())) })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(tower_http::timeout::TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(axum::middleware::from_fn(guard))
        .with_state(state)
}

/// Security headers on every response; oversized query strings and bodies
/// whose declared length is over [`MAX_BODY`] refused before anything is
/// read (a body without a length is cut at the limit as it is read).
async fn guard(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let too_long = req.uri().query().is_some_and(|q| q.len() > MAX_QUERY);
    let too_big = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<usize>().ok())
        .is_some_and(|n| n > MAX_BODY);
    let mut resp = if too_long {
        (StatusCode::URI_TOO_LONG, "query string too long").into_response()
    } else if too_big {
        (StatusCode::PAYLOAD_TOO_LARGE, "request body over 1 MiB").into_response()
    } else {
        next.run(req).await
    };
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    resp
}

/// Longest wait for a PostgreSQL catalogue's change notification before
/// the generation is read anyway (one row), and the pause before a lost
/// listening connection is made again.
const LISTEN_TIMEOUT: Duration = Duration::from_secs(60);

/// Refreshes `state` whenever the PostgreSQL catalogue notifies a change
/// (and once a [`LISTEN_TIMEOUT`] without news); reconnects when the
/// listening connection is lost, refreshing then for what it missed.
fn listen_for_changes(url: &errdex_app::PgUrl, state: &Shared) {
    loop {
        match errdex_app::Changes::listen(url) {
            Ok(mut changes) => loop {
                if let Err(e) = state.refresh() {
                    tracing::warn!(error = %e, "reading the catalogue after a change");
                }
                if let Err(e) = changes.wait(LISTEN_TIMEOUT) {
                    tracing::warn!(error = %e, "lost the catalogue's change notifications; reconnecting");
                    break;
                }
            },
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for the catalogue's changes; retrying");
                std::thread::sleep(Duration::from_secs(5));
            }
        }
    }
}

/// Serves on `listener` until the process ends, within [`Limits`]; drops
/// its caches when the catalogue changes (a PostgreSQL catalogue notifies
/// it; a SQLite file is checked every [`REFRESH_EVERY`]).
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Shared,
    limits: Limits,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    let watcher = state.clone();
    match state.location().clone() {
        // PostgreSQL says when the catalogue changes: a write commits and
        // every web node hears it.
        errdex_app::Location::Postgres(url) => {
            std::thread::Builder::new()
                .name("errdex-changes".into())
                .spawn(move || listen_for_changes(&url, &watcher))?;
        }
        errdex_app::Location::Sqlite(_) => {
            tokio::spawn(async move {
                let mut tick = tokio::time::interval(REFRESH_EVERY);
                loop {
                    tick.tick().await;
                    let s = watcher.clone();
                    let _ = tokio::task::spawn_blocking(move || s.refresh()).await;
                }
            });
        }
    }
    let app = app(state);
    let connections = connections::Connections::new(limits.max_connections);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout);
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of descriptors or a connection reset before it was
            // taken: the listener itself is fine; wait a moment.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Some(admitted) = connections.admit() else {
            drop(stream);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = connections::Tracked {
            inner: TowerToHyperService::new(app.clone()),
            ticket: admitted.ticket,
        };
        let conn = http.serve_connection(TokioIo::new(stream), service);
        tokio::spawn(async move {
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                Ok(how) = admitted.reclaimed => match how {
                    // Nothing of ours on it: dropping it closes the socket.
                    connections::Reclaimed::BeforeFirstRequest => {}
                    // hyper closes an idle connection at once, after
                    // flushing the end of the last response.
                    connections::Reclaimed::BetweenRequests => {
                        conn.as_mut().graceful_shutdown();
                        let _ = tokio::time::timeout(RECLAIM_FLUSH, conn).await;
                    }
                },
            }
        });
    }
}

fn respond(page: &Page, headers: &HeaderMap) -> Response {
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .any(|t| t.trim() == page.etag || t.trim() == "*")
        });
    let etag = HeaderValue::from_str(&page.etag).expect("ETags are ASCII");
    if fresh {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, etag)]).into_response();
    }
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(page.content_type),
            ),
            (header::ETAG, etag),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        page.body.clone(),
    )
        .into_response()
}

/// The status and the reason shown for a failure (internal details are
/// logged, not shown).
fn status_of(e: PageError) -> (StatusCode, String) {
    match e {
        PageError::NotFound(w) => (StatusCode::NOT_FOUND, w),
        PageError::Bad(w) => (StatusCode::BAD_REQUEST, w),
        PageError::Internal(w) => {
            tracing::error!("request failed: {w}");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "The catalogue could not be read.".to_string(),
            )
        }
    }
}

fn html_error(e: PageError) -> Response {
    let (status, what) = status_of(e);
    (
        status,
        [(header::CONTENT_TYPE, HTML)],
        pages::not_found(&what),
    )
        .into_response()
}

fn json_error(e: PageError) -> Response {
    let (status, what) = status_of(e);
    (status, axum::Json(serde_json::json!({ "error": what }))).into_response()
}

/// A cached response for `key`, rendered by `render` on a blocking thread
/// when absent.
async fn cached<F>(
    state: Shared,
    key: String,
    headers: HeaderMap,
    json: bool,
    render: F,
) -> Response
where
    F: FnOnce(&State) -> Result<Page, PageError> + Send + 'static,
{
    if let Some(p) = state.page(&key) {
        return respond(&p, &headers);
    }
    let s = state.clone();
    let rendered = tokio::task::spawn_blocking(move || render(&s))
        .await
        .unwrap_or_else(|e| Err(PageError::Internal(e.to_string())));
    match rendered {
        Ok(p) => {
            let r = respond(&p, &headers);
            state.keep(key, p);
            r
        }
        Err(e) if json => json_error(e),
        Err(e) => html_error(e),
    }
}

fn html_page(body: String) -> Page {
    Page::new(HTML, body.into_bytes())
}

fn json_page(v: &impl serde::Serialize) -> Page {
    Page::new(JSON, serde_json::to_vec(v).expect("values serialise"))
}

async fn home(Extract(state): Extract<Shared>, headers: HeaderMap) -> Response {
    cached(state, "/".into(), headers, false, |s| {
        s.with_catalog(pages::home).map(html_page)
    })
    .await
}

#[derive(Deserialize)]
struct Search {
    q: Option<String>,
}

/// The text to explain from a query, bounded.
fn search_text(q: Option<String>) -> Result<String, PageError> {
    let q = q.unwrap_or_default();
    if q.trim().is_empty() {
        return Err(PageError::Bad("Give a message to search for: ?q=…".into()));
    }
    if q.len() > MAX_SEARCH {
        return Err(PageError::Bad(format!(
            "The search text is over {MAX_SEARCH} bytes."
        )));
    }
    Ok(q)
}

async fn search(
    Extract(state): Extract<Shared>,
    RawQuery(raw): RawQuery,
    Query(Search { q }): Query<Search>,
    headers: HeaderMap,
) -> Response {
    let q = match search_text(q) {
        Ok(q) => q,
        Err(e) => return html_error(e),
    };
    let key = format!("/search?{}", raw.unwrap_or_default());
    cached(state, key, headers, false, move |s| {
        let x = s.with_catalog(|db| s.matcher().explain(db, &q))?;
        pages::explain_page(&q, &x).map(html_page)
    })
    .await
}

#[derive(Deserialize)]
struct ExplainForm {
    text: String,
}

/// Decodes pasted text the way the CLI does (binary is refused).
fn pasted(text: &str) -> Result<String, PageError> {
    Ok(errdex_app::explain::read_pasted(text.as_bytes())?.text)
}

async fn explain_form(Extract(state): Extract<Shared>, Form(f): Form<ExplainForm>) -> Response {
    let text = match pasted(&f.text) {
        Ok(t) => t,
        Err(e) => return html_error(e),
    };
    let out = tokio::task::spawn_blocking(move || {
        let x = state.with_catalog(|db| state.matcher().explain(db, &text))?;
        pages::explain_page(&text, &x)
    })
    .await
    .unwrap_or_else(|e| Err(PageError::Internal(e.to_string())));
    match out {
        Ok(body) => ([(header::CONTENT_TYPE, HTML)], body).into_response(),
        Err(e) => html_error(e),
    }
}

#[derive(Deserialize)]
struct RepoFilter {
    kind: Option<String>,
    q: Option<String>,
    tests: Option<String>,
}

async fn repo(
    Extract(state): Extract<Shared>,
    Path(slug): Path<String>,
    RawQuery(raw): RawQuery,
    Query(f): Query<RepoFilter>,
    headers: HeaderMap,
) -> Response {
    let key = format!("/repos/{slug}?{}", raw.unwrap_or_default());
    cached(state, key, headers, false, move |s| {
        s.with_catalog(|c| {
            pages::repo(
                c,
                &slug,
                f.kind.as_deref(),
                f.q.as_deref(),
                f.tests.is_some(),
            )
        })
        .map(html_page)
    })
    .await
}

/// `?repo=SLUG&rev=REVISION&path=PATH` of a stored file's page.
#[derive(Deserialize)]
struct SourceQuery {
    repo: String,
    rev: String,
    path: String,
}

async fn source(
    Extract(state): Extract<Shared>,
    Query(SourceQuery { repo, rev, path }): Query<SourceQuery>,
    headers: HeaderMap,
) -> Response {
    let key = format!(
        "/source?repo={}&rev={}&path={}",
        pages::percent_query(&repo),
        pages::percent_query(&rev),
        pages::percent_query(&path)
    );
    cached(state, key, headers, false, move |s| {
        s.with_catalog(|c| pages::source_page(c, &repo, &rev, &path))
            .map(html_page)
    })
    .await
}

async fn error(
    Extract(state): Extract<Shared>,
    Path(id): Path<String>,
    Query(SitesPage { page }): Query<SitesPage>,
    headers: HeaderMap,
) -> Response {
    let page = page.unwrap_or(1).max(1);
    let key = format!("/errors/{id}?page={page}");
    cached(state, key, headers, false, move |s| {
        s.with_catalog(|c| {
            let d = pages::error_data(s, c, &id, page)?;
            pages::error_page(s, c, &d)
        })
        .map(html_page)
    })
    .await
}

/// `?page=N` of an error's page and of `GET /api/errors/{id}`.
#[derive(Deserialize)]
struct SitesPage {
    page: Option<usize>,
}

async fn api_error(
    Extract(state): Extract<Shared>,
    Path(id): Path<String>,
    Query(SitesPage { page }): Query<SitesPage>,
    headers: HeaderMap,
) -> Response {
    let page = page.unwrap_or(1).max(1);
    let key = format!("/api/errors/{id}?page={page}");
    cached(state, key, headers, true, move |s| {
        s.with_catalog(|c| pages::error_data(s, c, &id, page))
            .map(|d| json_page(&api::error_record(s, d)))
    })
    .await
}

async fn api_search(
    Extract(state): Extract<Shared>,
    RawQuery(raw): RawQuery,
    Query(Search { q }): Query<Search>,
    headers: HeaderMap,
) -> Response {
    let q = match search_text(q) {
        Ok(q) => q,
        Err(e) => return json_error(e),
    };
    let key = format!("/api/search?{}", raw.unwrap_or_default());
    cached(state, key, headers, true, move |s| {
        Ok(json_page(&api::explanation(
            s,
            s.with_catalog(|db| s.matcher().explain(db, &q))?,
        )))
    })
    .await
}

#[derive(Deserialize)]
struct ExplainBody {
    text: String,
}

/// The pasted text of a `POST /api/explain` body, by its content type:
/// `application/json` (or none) `{"text": …}`, a form post's `text` field,
/// or the body itself (`text/plain` and any other type).
fn explain_body(headers: &HeaderMap, body: &[u8]) -> Result<String, PageError> {
    let ctype = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match ctype.as_str() {
        "" | "application/json" => serde_json::from_slice::<ExplainBody>(body)
            .map(|b| b.text)
            .map_err(|e| {
                PageError::Bad(format!(
                    "expected {{\"text\": \"…\"}} (or a text/plain body): {e}"
                ))
            }),
        "application/x-www-form-urlencoded" => form_text(body)
            .ok_or_else(|| PageError::Bad("expected a form with a `text` field".into())),
        _ => String::from_utf8(body.to_vec())
            .map_err(|_| PageError::Bad("the body is not UTF-8 text".into())),
    }
}

/// The `text` field of a URL-encoded form.
fn form_text(body: &[u8]) -> Option<String> {
    serde_urlencoded::from_bytes::<ExplainForm>(body)
        .ok()
        .map(|f| f.text)
}

async fn api_explain(Extract(state): Extract<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let text = match explain_body(&headers, &body) {
        Ok(t) => t,
        Err(e) => return json_error(e),
    };
    let text = match pasted(&text) {
        Ok(t) => t,
        Err(e) => return json_error(e),
    };
    let out = tokio::task::spawn_blocking(move || {
        let x = state.with_catalog(|db| state.matcher().explain(db, &text))?;
        Ok(api::explanation(&state, x))
    })
    .await
    .unwrap_or_else(|e| Err(PageError::Internal(e.to_string())));
    match out {
        Ok(v) => axum::Json(v).into_response(),
        Err(e) => json_error(e),
    }
}

async fn api_repos(Extract(state): Extract<Shared>, headers: HeaderMap) -> Response {
    cached(state, "/api/repos".into(), headers, true, |s| {
        let repos = s.with_catalog(|c| c.repos())?;
        Ok(json_page(&api::repos(s, repos)))
    })
    .await
}

async fn openapi(Extract(state): Extract<Shared>, headers: HeaderMap) -> Response {
    cached(state, "/api/openapi.json".into(), headers, true, |s| {
        Ok(json_page(&api::openapi(s)))
    })
    .await
}

async fn style(headers: HeaderMap) -> Response {
    let page = Page::new(
        "text/css; charset=utf-8",
        include_bytes!("../static/style.css").to_vec(),
    );
    respond(&page, &headers)
}

async fn sitemap(Extract(state): Extract<Shared>, headers: HeaderMap) -> Response {
    cached(state, "/sitemap.xml".into(), headers, false, |s| {
        let mut urls = vec![format!("{}/", s.base_url)];
        s.with_catalog(|c| -> Result<(), PageError> {
            for r in c.repos()? {
                urls.push(format!("{}{}", s.base_url, pages::repo_path(&r.slug)));
                for e in c.list(Some(&r.slug), None)? {
                    if !e.is_test {
                        urls.push(format!("{}{}", s.base_url, pages::error_path(&e.id)));
                    }
                }
            }
            Ok(())
        })?;
        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
        );
        for u in urls {
            xml.push_str(&format!("<url><loc>{}</loc></url>\n", highlight::escape(&u)));
        }
        xml.push_str("</urlset>\n");
        Ok(Page::new("application/xml", xml.into_bytes()))
    })
    .await
}
