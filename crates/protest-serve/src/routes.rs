//! The HTTP side (docs/serve.md, "Protocol"): every address is under an annotator's link,
//! `/a/TOKEN/…`; a request whose token is not a valid link's gets the same plain page as any
//! unknown address, and nothing is read or written for it. Request bodies and each link's rate
//! of requests are bounded; the master is written on a blocking thread, one change at a time.

use crate::page::{self, NOT_A_LINK};
use crate::writer::Job;
use crate::{Served, Served1, links};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use protest::model::AnnotatorId;
use protest::web::protocol::{Changes, MAX_BODY, MAX_CHANGES};
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;
use tokio::sync::oneshot;

/// Requests per second one link may make, and in a burst: a page makes one at a time.
const PER_SECOND: u32 = 50;
const BURST: u32 = 200;
/// Requests per second an address may make with links that are not valid.
const STRANGER_PER_SECOND: u32 = 5;
const STRANGER_BURST: u32 = 20;

/// The page's security: only its own files and requests, not in a frame, no referrer (the link
/// holds the token).
const CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
                   img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

struct Shared {
    served: Arc<Served>,
    links: DefaultKeyedRateLimiter<AnnotatorId>,
    strangers: DefaultKeyedRateLimiter<IpAddr>,
}

/// Serves `served` on `listener` until `stop` completes; requests under way are finished first.
pub async fn serve(
    served: Arc<Served>,
    listener: tokio::net::TcpListener,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let quota = |n: u32, burst: u32| {
        Quota::per_second(NonZeroU32::new(n).expect("not 0")).allow_burst(NonZeroU32::new(burst).expect("not 0"))
    };
    let shared = Arc::new(Shared {
        served,
        links: RateLimiter::keyed(quota(PER_SECOND, BURST)),
        strangers: RateLimiter::keyed(quota(STRANGER_PER_SECOND, STRANGER_BURST)),
    });
    let app = Router::new()
        .route("/a/{token}", get(to_folder))
        .route("/a/{token}/", get(index))
        .route("/a/{token}/{file}", get(asset))
        .route("/a/{token}/api/part", get(part))
        .route("/a/{token}/api/changes", axum::routing::post(changes))
        .fallback(not_a_link)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::map_response(secure))
        .with_state(shared);
    axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).with_graceful_shutdown(stop).await
}

/// Headers every answer carries.
async fn secure(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    headers.entry(header::CACHE_CONTROL).or_insert(HeaderValue::from_static("no-store"));
    response
}

async fn not_a_link() -> Response {
    plain(StatusCode::NOT_FOUND, NOT_A_LINK)
}

fn plain(status: StatusCode, html: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

/// Why a request gets no answer of its own.
enum Refusal {
    /// The plain page: not a valid link.
    NotALink,
    /// An address (or a link) that asks too often.
    TooMany,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        match self {
            Refusal::NotALink => plain(StatusCode::NOT_FOUND, NOT_A_LINK),
            Refusal::TooMany => {
                plain(StatusCode::TOO_MANY_REQUESTS, "<!doctype html><p>Too many requests: wait a moment.</p>\n")
            }
        }
    }
}

/// The annotator of a valid link.
fn annotator(shared: &Shared, token: &str, from: SocketAddr) -> Result<Arc<Served1>, Refusal> {
    let found = links::well_formed(token).then(|| shared.served.annotators.get(&links::digest(token))).flatten();
    let Some(annotator) = found else {
        if shared.strangers.check_key(&from.ip()).is_err() {
            return Err(Refusal::TooMany);
        }
        return Err(Refusal::NotALink);
    };
    if shared.links.check_key(&annotator.desk.annotator()).is_err() {
        return Err(Refusal::TooMany);
    }
    Ok(Arc::clone(annotator))
}

type Link = (State<Arc<Shared>>, ConnectInfo<SocketAddr>, Path<String>);

async fn to_folder((State(shared), ConnectInfo(from), Path(token)): Link) -> Response {
    match annotator(&shared, &token, from) {
        Ok(_) => Redirect::permanent(&format!("{token}/")).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

async fn index(link: Link) -> Response {
    file(link, "")
}

async fn asset(
    State(shared): State<Arc<Shared>>,
    from: ConnectInfo<SocketAddr>,
    Path((token, name)): Path<(String, String)>,
) -> Response {
    file((State(shared), from, Path(token)), &name)
}

fn file((State(shared), ConnectInfo(from), Path(token)): Link, name: &str) -> Response {
    if let Err(refusal) = annotator(&shared, &token, from) {
        return refusal.into_response();
    }
    match page::asset(name) {
        Some(asset) => {
            let mut response =
                (StatusCode::OK, [(header::CONTENT_TYPE, asset.content_type)], asset.bytes).into_response();
            if name.starts_with("app.") {
                // The program is the same for every link and every start: cached, unless the
                // server is rebuilt (no-cache: the browser asks whether it changed).
                response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            }
            response
        }
        None => plain(StatusCode::NOT_FOUND, NOT_A_LINK),
    }
}

/// The annotator's part as a batch file, with their records as the master has them now.
async fn part((State(shared), ConnectInfo(from), Path(token)): Link) -> Response {
    let annotator = match annotator(&shared, &token, from) {
        Ok(a) => a,
        Err(refusal) => return refusal.into_response(),
    };
    let (reply, made) = oneshot::channel();
    if !shared.served.writer.send(Job::Part { annotator, reply }) {
        return trouble("the server is stopping".into());
    }
    match made.await {
        Ok(Ok(bytes)) => (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], bytes).into_response(),
        Ok(Err(why)) => trouble(format!("your part could not be made: {why}")),
        Err(_) => trouble("the server is stopping".into()),
    }
}

fn trouble(why: String) -> Response {
    eprintln!("protest serve: {why}");
    (StatusCode::INTERNAL_SERVER_ERROR, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], why).into_response()
}

/// Takes a page's changes, in order: each checked, stored and noted before it is acknowledged.
async fn changes((State(shared), ConnectInfo(from), Path(token)): Link, body: Bytes) -> Response {
    let annotator = match annotator(&shared, &token, from) {
        Ok(a) => a,
        Err(refusal) => return refusal.into_response(),
    };
    let changes: Changes = match serde_json::from_slice(&body) {
        Ok(c) => c,
        Err(e) => return bad_request(format!("not a list of changes: {e}")),
    };
    if changes.changes.len() > MAX_CHANGES {
        return bad_request(format!("at most {MAX_CHANGES} changes at a time, not {}", changes.changes.len()));
    }
    let (reply, taken) = oneshot::channel();
    if !shared.served.writer.send(Job::Changes { annotator, changes: changes.changes, reply }) {
        return trouble("the server is stopping".into());
    }
    match taken.await {
        Ok(answers) => {
            let body = Body::from(serde_json::to_vec(&answers).unwrap_or_default());
            (StatusCode::OK, [(header::CONTENT_TYPE, "application/json")], body).into_response()
        }
        Err(_) => trouble("the server is stopping".into()),
    }
}

fn bad_request(why: String) -> Response {
    (StatusCode::BAD_REQUEST, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], why).into_response()
}
