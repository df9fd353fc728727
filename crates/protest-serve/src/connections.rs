//! The connections (docs/serve.md, "Safe on a network"): accepted by hand rather than by
//! `axum::serve`, which has no read timeouts and no bound on connections. hyper serves each one
//! with a time limit on a request's head (which is also the longest a connection may wait idle for
//! its next request) and bounded buffers; hyper-util's graceful shutdown lets the requests under
//! way finish when the server is told to stop, up to a deadline after which their connections are
//! dropped (at once on a second stop).
//!
//! At most [`Limits::connections`] are open. When one more comes, the oldest connection with no
//! request under way (idle, or still sending its head) is closed to make room, so that a crowd of
//! idle connections cannot keep an annotator's change out; when every one is answering a request,
//! the newcomer is closed.

use crate::limits::Limits;
use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::HeaderValue;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::{GracefulConnection, GracefulShutdown};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};
use tokio::net::TcpListener;
use tokio::sync::{Notify, mpsc};
use tokio::task::JoinSet;
use tower::ServiceExt;

/// How the server stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stopped {
    /// Connections still answering a request when the deadline passed (or the second stop came):
    /// dropped, their requests unanswered (a page sends its changes again).
    pub dropped: usize,
}

/// What the connections tell the server.
pub(crate) trait Watching: Sync {
    /// Told to stop with requests under way on `busy` connections (idle ones are closed at once).
    fn stopping(&self, busy: usize, deadline: Duration);
    /// The system clock went outside what HTTP dates can say (`right`: came back).
    fn clock(&self, right: bool);
}

/// The `Date` header for `now`, or none when the clock is outside what HTTP dates can say
/// (1970–9999).
pub(crate) fn http_date(now: SystemTime) -> Option<HeaderValue> {
    // 10000-01-01T00:00:00Z
    const YEAR_10000: Duration = Duration::from_secs(253_402_300_800);
    let since_1970 = now.duration_since(SystemTime::UNIX_EPOCH).ok()?;
    if since_1970 >= YEAR_10000 {
        return None;
    }
    HeaderValue::from_str(&httpdate::fmt_http_date(now)).ok()
}

/// Whether HTTP can date an answer now: hyper dates every connection's answers with a formatter
/// that panics outside 1970–9999 (even when asked not to send the date), so no connection is
/// handed to it then.
fn clock_is_right() -> bool {
    protest::model::clock::now().is_ok()
}

/// The open connections, oldest first.
#[derive(Default)]
struct Open {
    next: u64,
    by_age: BTreeMap<u64, Connection>,
}

struct Connection {
    /// Requests under way on it (from their head to the end of their answer).
    busy: Arc<AtomicUsize>,
    /// Closes it at once.
    close: Arc<Notify>,
}

impl Open {
    /// Makes room for one more connection if there are `limit` already: the oldest without a
    /// request under way is closed. Whether there is room.
    fn close_all(&mut self) {
        for (_, connection) in std::mem::take(&mut self.by_age) {
            connection.close.notify_one();
        }
    }

    fn make_room(&mut self, limit: usize) -> bool {
        if self.by_age.len() < limit {
            return true;
        }
        let idle = self.by_age.iter().find(|(_, c)| c.busy.load(Ordering::Acquire) == 0).map(|(&id, _)| id);
        match idle.and_then(|id| self.by_age.remove(&id)) {
            Some(oldest) => {
                oldest.close.notify_one();
                true
            }
            None => false,
        }
    }
}

/// Takes `open` out of the list when its task ends, however it ends.
struct Gone {
    open: Arc<Mutex<Open>>,
    id: u64,
}

impl Drop for Gone {
    fn drop(&mut self) {
        if let Ok(mut open) = self.open.lock() {
            open.by_age.remove(&self.id);
        }
    }
}

/// Counts a request as under way until its answer has been sent (or dropped).
struct Busy(Arc<AtomicUsize>);

impl Busy {
    fn start(count: &Arc<AtomicUsize>) -> Busy {
        count.fetch_add(1, Ordering::AcqRel);
        Busy(Arc::clone(count))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Serves `app` on `listener` until the first message on `stop`; then lets the requests under way
/// finish for up to `limits.stop`, or until a second message, and drops what is left.
pub(crate) async fn run(
    app: Router,
    listener: TcpListener,
    limits: &Limits,
    mut stop: mpsc::UnboundedReceiver<()>,
    watching: &dyn Watching,
) -> Stopped {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header)
        .max_buf_size(MAX_BUFFER)
        .max_header_size(MAX_HEAD)
        // The server writes its own Date header, none when the clock is outside 1970–9999.
        .auto_date_header(false);
    let open = Arc::new(Mutex::new(Open::default()));
    let graceful = GracefulShutdown::new();
    let mut tasks = JoinSet::new();
    let (mut clock, mut clock_right) = (tokio::time::interval(Duration::from_secs(1)), true);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = clock.tick() => {
                if clock_is_right() != clock_right {
                    clock_right = !clock_right;
                    watching.clock(clock_right);
                }
                if !clock_right {
                    lock(&open).close_all();
                }
                continue;
            }
            Some(()) = stop.recv() => break,
        };
        while tasks.try_join_next().is_some() {}
        let (stream, from) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of file descriptors (or a connection reset before it was taken): make
                // room, wait a moment, go on, as axum::serve does.
                if is_out_of_files(&e) {
                    lock(&open).make_room(0);
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        if !clock_is_right() {
            continue; // closed before hyper could panic on it
        }
        let (busy, close) = (Arc::new(AtomicUsize::new(0)), Arc::new(Notify::new()));
        let gone = {
            let mut open_now = lock(&open);
            if !open_now.make_room(limits.connections) {
                continue; // every connection is answering a request: this one is closed
            }
            let id = open_now.next;
            open_now.next += 1;
            open_now.by_age.insert(id, Connection { busy: Arc::clone(&busy), close: Arc::clone(&close) });
            Gone { open: Arc::clone(&open), id }
        };
        let connection = serve_one(&http, app.clone(), stream, from, busy);
        let connection = graceful.watch(connection);
        tasks.spawn(async move {
            let _gone = gone;
            tokio::select! {
                _ = connection => {}
                () = close.notified() => {}
            }
        });
    }
    drop(listener);
    let under_way = lock(&open).by_age.values().filter(|c| c.busy.load(Ordering::Acquire) > 0).count();
    if under_way > 0 {
        watching.stopping(under_way, limits.stop);
    }
    wind_down(graceful, tasks, limits, stop).await
}

/// The requests under way get `limits.stop` (or until a second message on `stop`) to finish;
/// then the connections still open are dropped.
async fn wind_down(
    graceful: GracefulShutdown,
    mut tasks: JoinSet<()>,
    limits: &Limits,
    mut stop: mpsc::UnboundedReceiver<()>,
) -> Stopped {
    let finished = tokio::select! {
        () = graceful.shutdown() => true,
        () = tokio::time::sleep(limits.stop) => false,
        Some(()) = stop.recv() => false,
    };
    // Once the graceful shutdown is over, every connection has closed, though its task may not
    // have ended yet (it ends a moment later): counting the tasks then would call it dropped.
    let dropped = if finished {
        0
    } else {
        while tasks.try_join_next().is_some() {}
        tasks.len()
    };
    tasks.shutdown().await;
    Stopped { dropped }
}

/// A connection served by hyper: each request marked as under way until its answer is sent, and
/// told where it comes from.
fn serve_one(
    http: &hyper::server::conn::http1::Builder,
    app: Router,
    stream: tokio::net::TcpStream,
    from: std::net::SocketAddr,
    busy: Arc<AtomicUsize>,
) -> impl GracefulConnection + Send + use<> {
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        let busy = Busy::start(&busy);
        request.extensions_mut().insert(ConnectInfo(from));
        let app = app.clone();
        async move {
            let response = app.oneshot(request).await?;
            // The count ends when the answer's last byte is sent (the body is then dropped).
            Ok::<_, std::convert::Infallible>(response.map(|body| {
                Body::new(body.map_frame(move |frame| {
                    let _under_way = &busy;
                    frame
                }))
            }))
        }
    });
    http.serve_connection(TokioIo::new(stream), service)
}

/// The most a connection buffers (its request's head included): bounds the memory of many slow
/// connections.
const MAX_BUFFER: usize = 64 << 10;
/// The largest request head (431 beyond).
const MAX_HEAD: usize = 16 << 10;

fn lock(open: &Mutex<Open>) -> std::sync::MutexGuard<'_, Open> {
    // The list is only ever changed in a few lines that do not panic.
    open.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn is_out_of_files(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::EMFILE) | Some(libc::ENFILE))
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn connection(busy: usize) -> (Connection, Arc<Notify>) {
        let close = Arc::new(Notify::new());
        (Connection { busy: Arc::new(AtomicUsize::new(busy)), close: Arc::clone(&close) }, close)
    }

    #[tokio::test]
    async fn room_is_made_by_closing_the_oldest_idle_connection() {
        let mut open = Open::default();
        let mut closes = Vec::new();
        for (id, busy) in [(1, 1), (2, 0), (3, 0)] {
            let (c, close) = connection(busy);
            open.by_age.insert(id, c);
            closes.push(close);
        }
        assert!(open.make_room(4), "below the limit: nothing closed");
        assert_eq!(open.by_age.len(), 3);
        assert!(open.make_room(3));
        assert_eq!(open.by_age.keys().copied().collect::<Vec<_>>(), [1, 3], "the oldest idle one (2) went");
        let closed = tokio::time::timeout(Duration::from_secs(1), closes[1].notified()).await;
        assert!(closed.is_ok(), "connection 2 was told to close");
        open.by_age.get(&3).unwrap().busy.store(1, Ordering::Release);
        assert!(!open.make_room(2), "every connection busy: no room");
        assert_eq!(open.by_age.len(), 2);
    }
}
