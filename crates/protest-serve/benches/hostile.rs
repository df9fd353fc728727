//! What `protest serve` holds up to (docs/serve.md, "Safe on a network"), with figures: the
//! server runs in a child process (this program again, on a copy of the sample master) so that its
//! memory is its own, read from /proc; the clients are plain sockets on loopback, every read with
//! a timeout.
//!
//! - 300 connections each announcing a 1 MiB body under a wrong token and sending it: the
//!   server's memory before, while they are held, and after;
//! - 1,100 idle connections (half of them in the middle of a request's head) held while an
//!   annotator sends a change: the time to acknowledge it;
//! - a request's head left unfinished: when the server closes it;
//! - 100,000 requests with wrong tokens, each from another address of 127/8: the server's memory;
//! - a half-sent body under a valid link, then SIGTERM: the time to stop (the journal folded).
//!
//! `cargo bench -p protest-serve --bench hostile` runs it (Linux: /proc, addresses of 127/8);
//! `cargo test` runs it small (a twentieth of the connections, a hundredth of the addresses, time
//! limits of 2 s), as a test of the same checks.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod common;

use common::{change, closed_within};

const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../sample_batches/sample.master.json");
/// Set in the child: the master it serves.
const SERVE: &str = "PROTEST_HOSTILE_SERVE";
/// Set in the child of a small run: time limits of 2 s instead of the defaults.
const QUICK: &str = "PROTEST_HOSTILE_QUICK";

fn main() {
    if let Some(master) = std::env::var_os(SERVE) {
        return serve(master.into());
    }
    if !cfg!(target_os = "linux") {
        println!("hostile: Linux only (/proc, addresses of 127/8)");
        return;
    }
    let full = std::env::args().any(|a| a == "--bench");
    let scale = |n: usize| if full { n } else { n / 20 };
    let dir = tempfile::tempdir().unwrap();
    let master = dir.path().join("sample.master.json");
    std::fs::copy(SAMPLE, &master).unwrap();
    let server = Server::start(&master, !full);
    let anna = server.links[0].clone();

    let (before, _) = server.memory();
    let held = wrong_token_bodies(&server, scale(300));
    let (during, peak) = server.memory();
    drop(held);
    std::thread::sleep(Duration::from_millis(500));
    let (after, _) = server.memory();
    println!(
        "{} connections with 1 MiB bodies under a wrong token: memory {before} kB before, {during} kB while held (peak {peak} kB), {after} kB after",
        scale(300)
    );
    assert!(peak < before + 64 * 1024, "the bodies were read: peak {peak} kB from {before} kB");

    let crowd = idle(&server, scale(1100));
    let sent = Instant::now();
    let (status, answer) = request(server.addr, "POST", &format!("{anna}api/changes"), &change(1, 1));
    let acknowledged = sent.elapsed();
    assert!(status == 200 && answer.contains(&format!("{:032x}", 1)), "{status} {answer}");
    println!("{} idle connections held: a change acknowledged in {:.1} ms", crowd.len(), ms(acknowledged));
    drop(crowd);

    let mut partial = TcpStream::connect(server.addr).unwrap();
    partial.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    let started = Instant::now();
    let closed = closed_within(&mut partial, Duration::from_secs(30));
    println!("a request head left unfinished: closed by the server after {:.1} s", started.elapsed().as_secs_f64());
    assert!(closed);

    let (before, _) = server.memory();
    // Each takes some milliseconds to send on loopback: the small run sends a hundredth.
    let rotating = if full { 100_000 } else { 1_000 };
    let started = Instant::now();
    from_many_addresses(&server, rotating);
    let (after, peak) = server.memory();
    println!(
        "{rotating} wrong tokens, each from another address of 127/8 (sent in {:.0} s): memory {before} kB before, {after} kB after (peak {peak} kB)",
        started.elapsed().as_secs_f64()
    );

    let _half = half_body(server.addr, &format!("{anna}api/changes"));
    std::thread::sleep(Duration::from_millis(200));
    let took = server.stop();
    println!("a half-sent body under a valid link, then SIGTERM: stopped and folded in {:.1} s", took.as_secs_f64());
    assert!(took < Duration::from_secs(15));
    assert!(!protest::store::journal::path_for(&master).exists(), "the journal was folded");
    assert!(!protest::store::lock_path(&master).exists(), "the lock was released");
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The child: `protest serve` on `master`, on a free port, its words on stdout.
fn serve(master: std::path::PathBuf) {
    struct Plain;
    impl protest_serve::Voice for Plain {
        fn out(&self, line: &str) {
            println!("{line}");
        }
        fn say(&self, line: &str) {
            println!("{line}");
        }
        fn warn(&self, line: &str) {
            eprintln!("warning: {line}");
        }
    }
    let options = protest_serve::Options {
        master,
        task_set: None,
        listen: "127.0.0.1:0".parse().unwrap(),
        url: None,
        links: None,
        revoke: Vec::new(),
        new_link: Vec::new(),
        limits: match std::env::var_os(QUICK) {
            Some(_) => protest_serve::Limits {
                header: Duration::from_secs(2),
                stop: Duration::from_secs(2),
                ..protest_serve::Limits::default()
            },
            None => protest_serve::Limits::default(),
        },
    };
    protest_serve::run(&options, Arc::new(Plain)).unwrap();
}

struct Server {
    child: Child,
    addr: SocketAddr,
    /// `/a/TOKEN/` of each annotator.
    links: Vec<String>,
}

impl Server {
    fn start(master: &std::path::Path, quick: bool) -> Server {
        let mut command = Command::new(std::env::current_exe().unwrap());
        command.env(SERVE, master).stdout(Stdio::piped());
        if quick {
            command.env(QUICK, "1");
        }
        let mut child = command.spawn().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut links = Vec::new();
        let addr = loop {
            let line = lines.next().expect("the server says where it serves").unwrap();
            if let Some((_, url)) = line.split_once('\t') {
                links.push(url[url.find("/a/").unwrap()..].to_owned());
            }
            if let Some(rest) = line.split(" on http://").nth(1) {
                break rest.split('/').next().unwrap().parse().unwrap();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        Server { child, addr, links }
    }

    /// Its resident memory now and at its peak, in kB.
    fn memory(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        let field = |name: &str| {
            let line = status.lines().find(|l| l.starts_with(name)).unwrap();
            line.split_whitespace().nth(1).unwrap().parse().unwrap()
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    /// SIGTERM; the time until it exited (with success).
    fn stop(mut self) -> Duration {
        // SAFETY: a signal to our own child by its id.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let asked = Instant::now();
        let status = self.child.wait().unwrap();
        assert!(status.success());
        asked.elapsed()
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    stream.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
    stream
}

/// `n` connections each sending a 1 MiB body under a wrong token, as far as the server lets
/// them; held open.
fn wrong_token_bodies(server: &Server, n: usize) -> Vec<TcpStream> {
    let body = vec![b' '; 1 << 20];
    (0..n)
        .map(|i| {
            let mut stream = connect(server.addr);
            let head = format!(
                "POST /a/{:064x}/api/changes HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
                i + 1,
                body.len()
            );
            stream.write_all(head.as_bytes()).unwrap();
            // The server answers and closes without reading: the write stops short.
            let _ = stream.write_all(&body);
            stream
        })
        .collect()
}

/// `n` connections held idle, every other one in the middle of a request's head.
fn idle(server: &Server, n: usize) -> Vec<TcpStream> {
    (0..n)
        .map(|i| {
            let mut stream = connect(server.addr);
            if i % 2 == 0 {
                stream.write_all(b"POST /a/").unwrap();
            }
            stream
        })
        .collect()
}

/// A request with a wrong token from each of `n` addresses of 127/8, sent without waiting for
/// the answer (refusals are answered after a pause); then one more, answered.
fn from_many_addresses(server: &Server, n: usize) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let head = format!("GET /a/{}/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", "0".repeat(64));
    runtime.block_on(async {
        for i in 0..n as u32 {
            let from = SocketAddr::from(([127, 1 + (i >> 16) as u8, (i >> 8) as u8, i as u8], 0));
            let socket = tokio::net::TcpSocket::new_v4().unwrap();
            socket.bind(from).unwrap();
            match socket.connect(server.addr).await {
                Ok(stream) => {
                    // A few bytes on a new connection: written at once.
                    let _ = stream.into_std().and_then(|mut s| s.write_all(head.as_bytes()));
                }
                // The server's queue of connections not yet taken is full: a moment.
                Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
            }
        }
    });
    let (status, _) = request(server.addr, "GET", "/", b"");
    assert!(status == 404 || status == 429, "{status}");
}

fn half_body(addr: SocketAddr, target: &str) -> TcpStream {
    let mut stream = connect(addr);
    let head = format!("POST {target} HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{{\"changes\":[");
    stream.write_all(head.as_bytes()).unwrap();
    stream
}

/// A whole request; the answer's status and text.
fn request(addr: SocketAddr, method: &str, target: &str, body: &[u8]) -> (u16, String) {
    let mut stream = connect(addr);
    let head =
        format!("{method} {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n", body.len());
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body).unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    (status, text)
}
