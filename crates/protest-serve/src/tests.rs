//! The server's bounds, tried over loopback with plain sockets (every read with a timeout): a
//! partial request head, a body sent slowly or half, a crowd of idle connections, bodies with a
//! wrong token, the stop with requests under way, the rates of one link. The server runs in this
//! process with short limits; `tests/serve_cli.rs` tries the same as a user runs it.

use crate::{Limits, NewLink, Options, Served, Stopped, Voice, serve};
use client::{change, closed_within};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

#[path = "../benches/common/mod.rs"]
mod client;

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../sample_batches/sample.master.json");

/// What the server said.
#[derive(Default)]
struct Heard(Mutex<Vec<String>>);

impl Voice for Heard {
    fn out(&self, line: &str) {
        self.0.lock().unwrap().push(line.to_owned());
    }
    fn say(&self, line: &str) {
        self.0.lock().unwrap().push(line.to_owned());
    }
    fn warn(&self, line: &str) {
        self.0.lock().unwrap().push(format!("warning: {line}"));
    }
}

/// The sample master (task set 1 given to Anna and Ben) served on a free port of 127.0.0.1.
struct Running {
    addr: SocketAddr,
    links: Vec<NewLink>,
    stop: mpsc::UnboundedSender<()>,
    server: tokio::task::JoinHandle<Stopped>,
    served: Arc<Served>,
    heard: Arc<Heard>,
    runtime: tokio::runtime::Runtime,
    master: PathBuf,
    _dir: tempfile::TempDir,
}

fn start(limits: Limits) -> Running {
    let dir = tempfile::tempdir().unwrap();
    let master = dir.path().join("sample.master.json");
    std::fs::copy(SAMPLE, &master).unwrap();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let addr = listener.local_addr().unwrap();
    let options = Options {
        master: master.clone(),
        task_set: None,
        listen: addr,
        url: None,
        links: None,
        revoke: Vec::new(),
        new_link: Vec::new(),
        limits,
    };
    let heard = Arc::new(Heard::default());
    let (served, opened) = Served::open(&options, Arc::clone(&heard) as Arc<dyn Voice>).unwrap();
    let (stop, stops) = mpsc::unbounded_channel();
    let server = runtime.spawn(serve(Arc::clone(&served), listener, stops));
    Running { addr, links: opened.made, stop, server, served, heard, runtime, master, _dir: dir }
}

impl Running {
    /// `/a/TOKEN/` of `name`'s link.
    fn path(&self, name: &str) -> String {
        let url = &self.links.iter().find(|l| l.annotator == name).unwrap().url;
        url[url.find("/a/").unwrap()..].to_owned()
    }

    /// Tells it to stop (`times` times) and waits at most `limit`; how it stopped and how long it
    /// took. The master is then closed (its journal folded).
    fn stop(self, times: usize, limit: Duration) -> (Stopped, Duration) {
        let asked = Instant::now();
        for _ in 0..times {
            self.stop.send(()).unwrap();
        }
        let stopped = self.runtime.block_on(async { tokio::time::timeout(limit, self.server).await });
        let took = asked.elapsed();
        let stopped = stopped.unwrap_or_else(|_| panic!("still serving {limit:?} after being told to stop")).unwrap();
        drop(self.runtime);
        self.served.close().unwrap();
        assert!(!protest::store::journal::path_for(&self.master).exists(), "the journal was folded");
        assert!(!protest::store::lock_path(&self.master).exists(), "the lock was released");
        (stopped, took)
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream.set_write_timeout(Some(Duration::from_secs(10))).unwrap();
        stream
    }

    /// A connection from `from` (another address of 127/8: a machine that rotates its own).
    fn connect_from(&self, from: SocketAddr) -> TcpStream {
        let stream = self.runtime.block_on(async {
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket.bind(from).unwrap();
            socket.connect(self.addr).await.unwrap().into_std().unwrap()
        });
        stream.set_nonblocking(false).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        stream
    }

    /// Sends a request's head (its body is said to be `length` bytes) and `body`.
    fn send(&self, method: &str, target: &str, length: usize, body: &[u8]) -> TcpStream {
        let mut stream = self.connect();
        let head = format!("{method} {target} HTTP/1.1\r\nHost: {}\r\nContent-Length: {length}\r\n\r\n", self.addr);
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body).unwrap();
        stream
    }

    /// A whole request; the answer's status and text.
    fn request(&self, method: &str, target: &str, body: &[u8]) -> (u16, String) {
        answer(&mut self.send(method, target, body.len(), body))
    }
}

/// Reads an answer (the server closes the connection or says how long the body is).
fn answer(stream: &mut TcpStream) -> (u16, String) {
    let mut raw = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let n = stream.read(&mut buffer).expect("an answer within the read timeout");
        raw.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&raw).into_owned();
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end].lines().find_map(|l| {
                l.to_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap())
            });
            if n == 0 || length.is_some_and(|l| raw.len() >= end + 4 + l) {
                let status = text[9..12].parse().unwrap();
                return (status, text);
            }
        }
        assert!(n > 0, "the connection closed without an answer: {raw:?}");
    }
}

#[test]
fn a_partial_request_head_is_dropped_after_the_header_timeout() {
    let server = start(Limits { header: Duration::from_millis(300), ..Limits::default() });
    let mut stream = server.connect();
    stream.write_all(b"POST /a/x/api/changes HTTP/1.1\r\nHost: x\r\n").unwrap();
    let sent = Instant::now();
    assert!(closed_within(&mut stream, Duration::from_secs(5)), "a partial head kept its connection open");
    assert!(sent.elapsed() >= Duration::from_millis(250), "closed after {:?}", sent.elapsed());
    // An idle connection too, after its first request.
    let mut idle = server.send("GET", "/", 0, b"");
    let (status, _) = answer(&mut idle);
    assert_eq!(status, 404);
    assert!(closed_within(&mut idle, Duration::from_secs(5)), "an idle connection stayed open");
    server.stop(1, Duration::from_secs(10));
}

#[test]
fn a_crowd_of_idle_connections_does_not_keep_a_change_out() {
    let server = start(Limits { connections: 20, header: Duration::from_secs(60), ..Limits::default() });
    let mut crowd: Vec<TcpStream> = (0..100).map(|_| server.connect()).collect();
    for (i, stream) in crowd.iter_mut().enumerate() {
        if i % 2 == 0 {
            stream.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap(); // a head never finished
        }
    }
    let anna = server.path("Anna");
    let asked = Instant::now();
    let (status, text) = server.request("POST", &format!("{anna}api/changes"), &change(1, 1));
    assert_eq!(status, 200, "{text}");
    assert!(text.contains(&format!("{:032x}", 1)), "{text}");
    assert!(asked.elapsed() < Duration::from_secs(5), "took {:?}", asked.elapsed());
    // Room was made by closing the oldest idle connections, not the newest.
    assert!(closed_within(&mut crowd[0], Duration::from_secs(5)));
    drop(crowd);
    server.stop(1, Duration::from_secs(10));
}

#[test]
fn a_wrong_token_is_answered_before_any_byte_of_its_body_is_read() {
    let server = start(Limits::default());
    for token in ["0".repeat(64), "x".into()] {
        let mut stream = server.send("POST", &format!("/a/{token}/api/changes"), 1 << 20, b"");
        let (status, _) = answer(&mut stream);
        assert_eq!(status, 404, "answered without waiting for the 1 MiB announced");
        assert!(closed_within(&mut stream, Duration::from_secs(5)), "the connection is not kept to read the body");
    }
    // A valid link's body is read (and may be refused as too large before it is).
    let anna = server.path("Anna");
    let mut stream = server.send("POST", &format!("{anna}api/changes"), (1 << 20) + 1, b"");
    assert_eq!(answer(&mut stream).0, 413);
    server.stop(1, Duration::from_secs(10));
}

/// Every route under a link takes the `Link` extractor: with a token that is no valid link's,
/// each answers the plain page, the same as any unknown address; with a valid one, each is served.
#[test]
fn every_route_under_a_link_is_refused_without_a_valid_one() {
    let server = start(Limits::default());
    let routes = [("GET", ""), ("GET", "/"), ("GET", "/app.js"), ("GET", "/api/part"), ("POST", "/api/changes")];
    let (_, unknown) = server.request("GET", "/nothing/here", b"");
    assert!(unknown.contains(crate::page::NOT_A_LINK), "{unknown}");
    for token in ["0".repeat(64), "x".into()] {
        for (method, route) in routes {
            let (status, body) = server.request(method, &format!("/a/{token}{route}"), b"{\"changes\": []}");
            assert_eq!((status, body.contains(crate::page::NOT_A_LINK)), (404, true), "{method} {route}: {body}");
        }
    }
    let anna = server.path("Anna");
    let anna = anna.trim_end_matches('/');
    // (The page's files are tested with the page: their names are the build's.)
    for (method, route) in routes.into_iter().filter(|(_, route)| !route.starts_with("/app")) {
        let (status, body) = server.request(method, &format!("{anna}{route}"), b"{\"changes\": []}");
        assert!(matches!(status, 200 | 308), "{method} {route}: {status} {body}");
    }
    server.stop(1, Duration::from_secs(10));
}

#[test]
fn a_half_sent_body_holds_the_stop_only_until_its_deadline() {
    let server = start(Limits { stop: Duration::from_millis(500), ..Limits::default() });
    let anna = server.path("Anna");
    let mut half = server.send("POST", &format!("{anna}api/changes"), 1000, b"{\"changes\":");
    let mut stranger = server.send("POST", "/a/anything/api/changes", 1000, b"{\"changes\":");
    let (status, _) = answer(&mut stranger);
    assert_eq!(status, 404);
    assert!(closed_within(&mut stranger, Duration::from_secs(5)), "a body without a valid link is not even skipped");
    let (stopped, took) = server.stop(1, Duration::from_secs(10));
    assert_eq!(stopped.dropped, 1, "the half-sent body's connection was dropped");
    assert!(took >= Duration::from_millis(450) && took < Duration::from_secs(3), "stopped after {took:?}");
    assert!(closed_within(&mut half, Duration::from_secs(5)));
}

#[test]
fn connections_that_close_when_told_to_stop_are_not_counted_as_dropped() {
    // A connection's task ends a moment after hyper closes it; counted before then, it was
    // reported as dropped (and "Dropped 1 not finished" said) though nothing was cut.
    for round in 0..30 {
        let server = start(Limits::default());
        let anna = server.path("Anna");
        let idle: Vec<TcpStream> = (0..20)
            .map(|_| {
                let mut stream = server.send("GET", &anna, 0, b"");
                assert_eq!(answer(&mut stream).0, 200);
                stream
            })
            .collect();
        let (stopped, _) = server.stop(1, Duration::from_secs(10));
        assert_eq!(stopped.dropped, 0, "round {round}: idle connections counted as dropped");
        drop(idle);
    }
}

#[test]
fn a_second_stop_stops_at_once() {
    let server = start(Limits { stop: Duration::from_secs(600), ..Limits::default() });
    let anna = server.path("Anna");
    let _half = server.send("POST", &format!("{anna}api/changes"), 1000, b"{");
    std::thread::sleep(Duration::from_millis(100));
    let heard = Arc::clone(&server.heard);
    let (stopped, took) = server.stop(2, Duration::from_secs(10));
    assert_eq!(stopped.dropped, 1);
    assert!(took < Duration::from_secs(3), "took {took:?}");
    let said = heard.0.lock().unwrap().join("\n");
    assert!(said.contains("1 request under way gets 600 s") && said.contains("Ctrl+C again"), "{said}");
}

#[test]
fn a_body_sent_too_slowly_is_refused_and_bodies_at_once_are_bounded() {
    let server = start(Limits { request: Duration::from_millis(500), bodies: 2, ..Limits::default() });
    let anna = server.path("Anna");
    let target = format!("{anna}api/changes");
    let mut slow: Vec<TcpStream> = (0..2).map(|_| server.send("POST", &target, 100, b"{")).collect();
    std::thread::sleep(Duration::from_millis(100));
    let (status, text) = server.request("POST", &target, &change(2, 2));
    assert_eq!(status, 503, "a third body while two are received: {text}");
    assert!(text.to_lowercase().contains("retry-after: 1"), "{text}");
    for stream in &mut slow {
        assert_eq!(answer(stream).0, 408);
        assert!(closed_within(stream, Duration::from_secs(5)), "the rest of the body is not waited for");
    }
    assert_eq!(server.request("POST", &target, &change(2, 2)).0, 200, "room again");
    server.stop(1, Duration::from_secs(10));
}

#[test]
fn a_link_writes_and_asks_for_its_part_at_bounded_rates() {
    let pause = Duration::from_millis(300);
    let server = start(Limits { pause, ..Limits::default() });
    let (anna, ben) = (server.path("Anna"), server.path("Ben"));
    // 1 MiB bodies of nothing to change: the bytes count, whatever they hold.
    let mut padded = vec![b' '; (1 << 20) - 20];
    padded.extend_from_slice(br#"{"changes":[]}"#);
    let statuses: Vec<u16> = (0..3).map(|_| server.request("POST", &format!("{anna}api/changes"), &padded).0).collect();
    assert_eq!(statuses, [200, 200, 429]);
    assert_eq!(server.request("POST", &format!("{ben}api/changes"), &padded).0, 200, "Ben is not slowed by Anna");
    let parts: Vec<u16> = (0..11).map(|_| server.request("GET", &format!("{anna}api/part"), b"").0).collect();
    assert_eq!(parts.iter().filter(|&&s| s == 200).count(), 10, "{parts:?}");
    assert_eq!(parts.last(), Some(&429));
    // A refusal is answered after a pause: asking again at once is asking once per pause.
    let asked = Instant::now();
    assert_eq!(server.request("GET", &format!("{anna}api/part"), b"").0, 429);
    assert!(asked.elapsed() >= pause - Duration::from_millis(20), "answered after {:?}", asked.elapsed());
    assert_eq!(server.request("GET", &format!("{ben}api/part"), b"").0, 200);
    server.stop(1, Duration::from_secs(10));
}

#[test]
fn strangers_from_many_addresses_are_remembered_up_to_a_bound() {
    let server = start(Limits { strangers: 50, pause: Duration::ZERO, ..Limits::default() });
    let mut refused = 0;
    for i in 0..300u32 {
        let from: SocketAddr = format!("127.0.{}.{}:0", 1 + i / 250, 1 + i % 250).parse().unwrap();
        let mut stream = server.connect_from(from);
        let head = format!("GET /a/{}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "0".repeat(64));
        stream.write_all(head.as_bytes()).unwrap();
        if answer(&mut stream).0 == 429 {
            refused += 1;
        }
    }
    // 50 addresses are remembered one by one; the other 250 share 20 requests at once.
    assert!(refused >= 200, "{refused} of 300 refused");
    server.stop(1, Duration::from_secs(10));
}

#[test]
fn http_dates_outside_1970_to_9999_are_left_out() {
    use crate::connections::http_date;
    use crate::routes::clock_problem;
    let epoch = std::time::SystemTime::UNIX_EPOCH;
    assert_eq!(http_date(epoch).unwrap(), "Thu, 01 Jan 1970 00:00:00 GMT");
    assert!(http_date(epoch + Duration::from_secs(253_402_300_799)).is_some(), "the last second of 9999");
    assert!(http_date(epoch + Duration::from_secs(253_402_300_800)).is_none(), "year 10000");
    assert!(http_date(epoch + Duration::from_secs(400_000_000_000)).is_none());
    assert!(http_date(epoch - Duration::from_secs(1)).is_none(), "1969");
    let said = clock_problem(epoch + Duration::from_secs(253_402_300_800 + 86_400 * 31));
    assert!(said.contains("says +10000-02-01 00:00:00 UTC, outside 1970–9999"), "{said}");
    assert!(clock_problem(epoch - Duration::from_secs(86_400)).contains("says 1969-12-31"));
}

#[test]
fn links_that_cannot_be_kept_are_taken_out_of_the_links_file_again() {
    use crate::links::{Links, LinksFile};
    let dir = tempfile::tempdir().unwrap();
    // A master in a folder that is gone: the links cannot be kept beside it.
    let links = Links::load(&dir.path().join("gone/m.json"), "m").unwrap();
    let made = vec![NewLink { annotator: "Anna".into(), url: "http://127.0.0.1:8720/a/1/".into() }];
    let plan = crate::served::Plan {
        task_set: 1,
        served: Vec::new(),
        links,
        opened: crate::served::Opened { made, ..crate::served::Opened::default() },
    };
    let had = dir.path().join("had.txt");
    std::fs::write(&had, "Ben\thttp://127.0.0.1:8720/a/2/").unwrap();
    let new = dir.path().join("new.txt");
    for (path, before) in [(&had, Some("Ben\thttp://127.0.0.1:8720/a/2/")), (&new, None)] {
        let file = LinksFile::open(path).unwrap();
        assert!(crate::served::keep_links(&plan, Some(&file)).is_err());
        assert_eq!(std::fs::read_to_string(path).ok().as_deref(), before, "{} put back", path.display());
    }
    // Kept: added after what the file held, on a line of its own.
    let plan = crate::served::Plan { links: Links::load(&dir.path().join("m.json"), "m").unwrap(), ..plan };
    crate::served::keep_links(&plan, Some(&LinksFile::open(&had).unwrap())).unwrap();
    let now = std::fs::read_to_string(&had).unwrap();
    assert_eq!(now, "Ben\thttp://127.0.0.1:8720/a/2/\nAnna\thttp://127.0.0.1:8720/a/1/\n");
}

/// Every line the server prints goes through its `Voice`: no module of the server writes to
/// stdout or stderr itself (its tests may).
#[test]
fn the_server_prints_only_through_its_voice() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut read = 0;
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        // A file's tests are its last item, by the crate's convention.
        let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or_default();
        for (i, line) in code.lines().enumerate() {
            let prints = ["print!(", "println!(", "eprint!(", "eprintln!(", "dbg!(", "io::stdout", "io::stderr"]
                .iter()
                .any(|p| line.contains(p));
            assert!(!prints, "{}:{}: {line}", path.display(), i + 1);
        }
        read += 1;
    }
    assert!(read >= 10, "the server's modules were read: {read}");
}
