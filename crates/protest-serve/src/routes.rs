//! The HTTP side (docs/serve.md, "Protocol"): every address is under an annotator's link,
//! `/a/TOKEN/…`; a request whose token is not a valid link's gets the same plain page as any
//! unknown address, and nothing is read or written for it. The link is checked from the request's
//! head alone ([`Link`], an extractor), before any byte of a body is read. Each link's rate of
//! requests, of parts made and of bytes written is bounded, and so are the bodies received at once
//! and the time a request may take; the master is written on one thread, one batch of changes at a
//! time ([`crate::writer`]).

use crate::connections::{self, Stopped, Watching, http_date};
use crate::limits::Rates;
use crate::links;
use crate::page::{self, NOT_A_LINK};
use crate::served::Served;
use crate::writer::Job;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequestParts, RawPathParams, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use protest::web::desk::Desk;
use protest::web::protocol::{Changes, MAX_BODY, MAX_CHANGES};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, SystemTime};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc, oneshot};
use tower_http::timeout::TimeoutLayer;

/// The page's security: only its own files and requests, not in a frame, no referrer (the link
/// holds the token).
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
                   img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// Refusals for asking too often answered after a pause at once: few, so that they never hold
/// many of the connections.
const PAUSED: usize = 16;

/// How often the rates of links and addresses gone quiet are forgotten.
const FORGET_EVERY: Duration = Duration::from_secs(10);

pub(crate) struct Shared {
    pub served: Arc<Served>,
    pub rates: Rates,
    /// Room for the request bodies received at once.
    bodies: Arc<Semaphore>,
    /// Room for the refusals answered after a pause.
    paused: Semaphore,
}

/// Serves `served` on `listener` until the first message on `stop`: then the requests under way
/// are given `Limits::stop` to finish (a second message ends them at once), their connections are
/// dropped, and what happened is returned. Folding the journal is [`Served::close`]'s.
pub async fn serve(
    served: Arc<Served>,
    listener: tokio::net::TcpListener,
    stop: mpsc::UnboundedReceiver<()>,
) -> Stopped {
    let limits = served.limits.clone();
    let shared = Arc::new(Shared {
        rates: Rates::new(&limits),
        bodies: Arc::new(Semaphore::new(limits.bodies)),
        paused: Semaphore::new(PAUSED),
        served,
    });
    let forgetting = tokio::spawn(forget_the_quiet(Arc::downgrade(&shared)));
    let app = router(Arc::clone(&shared));
    let stopped = connections::run(app, listener, &limits, stop, &*shared).await;
    forgetting.abort();
    stopped
}

fn router(shared: Arc<Shared>) -> Router {
    let request = shared.served.limits.request;
    Router::new()
        .route("/a/{token}", get(to_folder))
        .route("/a/{token}/", get(index))
        .route("/a/{token}/{file}", get(asset))
        .route("/a/{token}/api/part", get(part))
        .route("/a/{token}/api/changes", post(changes))
        .fallback(not_a_link)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, request))
        .layer(axum::middleware::map_response(secure))
        .with_state(shared)
}

impl Watching for Shared {
    fn stopping(&self, busy: usize, deadline: Duration) {
        let busy = match busy {
            1 => "1 request under way gets".to_owned(),
            n => format!("{n} requests under way get"),
        };
        self.served
            .voice
            .say(&format!("Stopping: {busy} {} s to finish (Ctrl+C again stops at once).", deadline.as_secs_f64()));
    }

    fn clock(&self, right: bool) {
        self.served.voice.warn(&match right {
            false => format!("{}; connections are closed until it is set right", clock_problem(SystemTime::now())),
            true => "the system clock is right again: connections are served".to_owned(),
        });
    }
}

/// What is wrong with a clock that HTTP dates cannot say (outside 1970–9999).
pub(crate) fn clock_problem(now: SystemTime) -> String {
    let said = protest::model::clock::at(now).err().map_or_else(|| "a time within them".to_owned(), |e| e.said);
    format!("the system clock says {said}, outside 1970–9999, where HTTP can date its answers")
}

async fn forget_the_quiet(shared: std::sync::Weak<Shared>) {
    let mut every = tokio::time::interval(FORGET_EVERY);
    loop {
        every.tick().await;
        match shared.upgrade() {
            Some(shared) => shared.rates.forget_the_quiet(),
            None => return,
        }
    }
}

/// Headers every answer carries.
async fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    if let Some(date) = http_date(SystemTime::now()) {
        headers.insert(header::DATE, date);
    }
    if response.status() == StatusCode::REQUEST_TIMEOUT {
        // The rest of a body sent too slowly is not waited for.
        response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

async fn not_a_link() -> Response {
    Refusal::NotALink.into_response()
}

fn plain(status: StatusCode, html: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

/// Why a request gets no answer of its own.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Refusal {
    /// The plain page: not a valid link.
    NotALink,
    /// An address (or a link) that asks too often.
    TooMany,
    /// As many bodies as the server receives at once are being received.
    Busy,
    /// A body said to be larger than any the server reads.
    TooLarge,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let (status, html) = match self {
            Refusal::NotALink => (StatusCode::NOT_FOUND, NOT_A_LINK),
            Refusal::TooMany => {
                (StatusCode::TOO_MANY_REQUESTS, "<!doctype html><p>Too many requests: wait a moment.</p>\n")
            }
            Refusal::Busy => {
                (StatusCode::SERVICE_UNAVAILABLE, "<!doctype html><p>The server is busy: try again in a moment.</p>\n")
            }
            Refusal::TooLarge => {
                (StatusCode::PAYLOAD_TOO_LARGE, "<!doctype html><p>A request body is at most 1 MiB.</p>\n")
            }
        };
        let mut response = plain(status, html);
        let headers = response.headers_mut();
        if matches!(self, Refusal::TooMany | Refusal::Busy) {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        // Closed after the answer: whatever body was sent is not read, not even to be skipped.
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
        response
    }
}

/// The annotator of the valid link a request is under, found from its head alone (the path and
/// the address it comes from), so that nothing of the body of a request without one is read.
pub(crate) struct Link(pub Arc<Desk>);

impl FromRequestParts<Arc<Shared>> for Link {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, shared: &Arc<Shared>) -> Result<Link, Refusal> {
        let params = RawPathParams::from_request_parts(parts, shared).await.map_err(|_| Refusal::NotALink)?;
        let token = params.iter().find(|(name, _)| *name == "token").map(|(_, token)| token).unwrap_or_default();
        let found = links::well_formed(token).then(|| shared.served.annotators.get(&links::digest(token))).flatten();
        let Some(annotator) = found else {
            let from = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(a)| a.ip());
            return match from.is_none_or(|ip| shared.rates.stranger(ip)) {
                true => Err(Refusal::NotALink),
                false => Err(too_many(shared).await),
            };
        };
        match shared.rates.link(annotator.annotator()) {
            true => Ok(Link(Arc::clone(annotator))),
            false => Err(too_many(shared).await),
        }
    }
}

/// A refusal for asking too often, answered after a pause (at most [`PAUSED`] at once, the
/// others at once): a client that asks again as soon as it is answered then asks about once per
/// pause, and costs the server next to nothing meanwhile.
async fn too_many(shared: &Shared) -> Refusal {
    if let Ok(_paused) = shared.paused.try_acquire() {
        tokio::time::sleep(shared.served.limits.pause).await;
    }
    Refusal::TooMany
}

/// Room to receive one more request body: taken after the link was checked, before the body is
/// read, and held until it is in.
pub(crate) struct Room(#[allow(dead_code)] OwnedSemaphorePermit);

impl FromRequestParts<Arc<Shared>> for Room {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, shared: &Arc<Shared>) -> Result<Room, Refusal> {
        let said = parts.headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        if said.is_some_and(|length| length > MAX_BODY as u64) {
            return Err(Refusal::TooLarge);
        }
        Arc::clone(&shared.bodies).try_acquire_owned().map(Room).map_err(|_| Refusal::Busy)
    }
}

async fn to_folder(_: Link, axum::extract::Path(token): axum::extract::Path<String>) -> Response {
    Redirect::permanent(&format!("{token}/")).into_response()
}

async fn index(_: Link, asked: axum::http::HeaderMap) -> Response {
    file("", &asked)
}

async fn asset(
    _: Link,
    asked: axum::http::HeaderMap,
    axum::extract::Path((_, name)): axum::extract::Path<(String, String)>,
) -> Response {
    file(&name, &asked)
}

/// A file of the page: gzip-compressed where the client takes it (the program is 3 MB so, 10 MB
/// not), with its digest as a strong ETag, and no body at all when the client shows it has this
/// very file already. `no-cache`: the browser keeps the file but asks each time whether it is
/// still the one (a rebuilt server serves another page).
fn file(name: &str, asked: &axum::http::HeaderMap) -> Response {
    let Some(asset) = page::asset(name) else { return plain(StatusCode::NOT_FOUND, NOT_A_LINK) };
    let sent = match asset.sent(crate::negotiate::accepts_gzip(asked)) {
        Ok(sent) => sent,
        Err(why) => {
            return (StatusCode::INTERNAL_SERVER_ERROR, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], why)
                .into_response();
        }
    };
    let Ok(etag) = HeaderValue::from_str(&sent.etag) else { return StatusCode::INTERNAL_SERVER_ERROR.into_response() };
    let mut response = match crate::negotiate::has(asked, &sent.etag) {
        true => StatusCode::NOT_MODIFIED.into_response(),
        false => (StatusCode::OK, [(header::CONTENT_TYPE, asset.content_type)], sent.bytes).into_response(),
    };
    let headers = response.headers_mut();
    headers.insert(header::ETAG, etag);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if sent.gzip {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    response
}

/// The annotator's part as a batch file, with their records as the master has them now.
async fn part(State(shared): State<Arc<Shared>>, Link(annotator): Link) -> Response {
    if !shared.rates.part(annotator.annotator()) {
        return too_many(&shared).await.into_response();
    }
    match ask(&shared, |reply| Job::Part { annotator, reply }).await {
        Ok(Ok(bytes)) => (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], bytes).into_response(),
        Ok(Err(why)) => trouble(&shared, format!("your part could not be made: {why}")),
        Err(stopped) => stopped,
    }
}

/// Hands the writer a job and waits for its answer; once the writer has stopped, the answer is
/// the refusal saying so.
async fn ask<T>(shared: &Shared, job: impl FnOnce(oneshot::Sender<T>) -> Job) -> Result<T, Response> {
    let (reply, answer) = oneshot::channel();
    if !shared.served.writer.send(job(reply)) {
        return Err(trouble(shared, "the server is stopping".into()));
    }
    answer.await.map_err(|_| trouble(shared, "the server is stopping".into()))
}

fn trouble(shared: &Shared, why: String) -> Response {
    shared.served.voice.warn(&why);
    (StatusCode::INTERNAL_SERVER_ERROR, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], why).into_response()
}

/// Takes a page's changes, in order: each checked, stored and noted before it is acknowledged.
/// The link is checked first; then the body is received if there is room for it, and stored if
/// the link has not written too much lately.
/// (The extractors run in this order: the link, the room, the body.)
async fn changes(State(shared): State<Arc<Shared>>, Link(annotator): Link, room: Room, body: Bytes) -> Response {
    // The body is in: its room is free for the next one. What waits for the writer is bounded by
    // each link's rate of bytes.
    drop(room);
    if !shared.rates.write(annotator.annotator(), body.len()) {
        return too_many(&shared).await.into_response();
    }
    take(&shared, annotator, &body).await
}

async fn take(shared: &Shared, annotator: Arc<Desk>, body: &Bytes) -> Response {
    let changes: Changes = match serde_json::from_slice(body) {
        Ok(c) => c,
        Err(e) => return bad_request(format!("not a list of changes: {e}")),
    };
    if changes.changes.len() > MAX_CHANGES {
        return bad_request(format!("at most {MAX_CHANGES} changes at a time, not {}", changes.changes.len()));
    }
    match ask(shared, |reply| Job::Changes { annotator, changes: changes.changes, reply }).await {
        Ok(answers) => {
            let body = Body::from(serde_json::to_vec(&answers).unwrap_or_default());
            (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        Err(stopped) => stopped,
    }
}

fn bad_request(why: String) -> Response {
    (StatusCode::BAD_REQUEST, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], why).into_response()
}
