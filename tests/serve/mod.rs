//! Helpers of the `protest serve` tests: the server run as a user runs it (a child process on a
//! free port of 127.0.0.1), its links, plain HTTP requests to it, and the master as readers see it.
#![allow(dead_code)] // not every helper is used by every test

use protest::model::{AnnotatorId, Master, Record};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const ANNA: AnnotatorId = AnnotatorId(1);
pub const BEN: AnnotatorId = AnnotatorId(2);

/// A running `protest serve`, stopped (SIGTERM) when dropped.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
    /// The links it printed, by annotator name.
    pub links: Vec<(String, String)>,
    pub output: Vec<String>,
    /// Reads what it prints after it began serving (when it stops…), to the end.
    reader: Option<std::thread::JoinHandle<Vec<String>>>,
    /// Reads what it warns (standard error), passed on to the test's own standard error.
    warnings: Option<std::thread::JoinHandle<Vec<String>>>,
}

impl Server {
    /// Starts `protest serve MASTER ARGS` on `listen` (`127.0.0.1:0` for a free port) and waits
    /// until it serves.
    pub fn start(master: &Path, listen: &str, args: &[&str]) -> Server {
        Server::start_with(master, listen, args, |_| {})
    }

    /// [`Server::start`], with `prepare` setting up the command first (its environment…).
    pub fn start_with(master: &Path, listen: &str, args: &[&str], prepare: impl FnOnce(&mut Command)) -> Server {
        let mut command = Command::new(env!("CARGO_BIN_EXE_protest"));
        command.arg("serve").arg(master).args(["--listen", listen]).args(args);
        prepare(&mut command);
        Server::spawn(command)
    }

    /// Runs `command` (a `protest serve …`) and waits until it serves.
    pub fn spawn(mut command: Command) -> Server {
        let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let errors = BufReader::new(child.stderr.take().unwrap()).lines();
        let warnings =
            std::thread::spawn(move || errors.map_while(Result::ok).inspect(|line| eprintln!("{line}")).collect());
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let (mut links, mut output) = (Vec::new(), Vec::new());
        let addr = loop {
            let Some(Ok(line)) = lines.next() else {
                let status = child.wait().unwrap();
                panic!("protest serve stopped ({status}) before serving: {output:?}");
            };
            output.push(line.clone());
            if let Some((name, url)) = line.split_once('\t') {
                links.push((name.to_owned(), url.to_owned()));
            }
            if let Some(rest) = line.split(" on http://").nth(1) {
                break rest.split('/').next().unwrap().parse().unwrap();
            }
        };
        // Kept, and the pipe drained so that it never blocks.
        let reader = std::thread::spawn(move || lines.map_while(Result::ok).collect());
        Server { child, addr, links, output, reader: Some(reader), warnings: Some(warnings) }
    }

    /// Stops it as [`Server::stop`] does and returns whether it exited with success and what it
    /// printed after it began serving, then what it warned.
    pub fn stop_saying(mut self) -> (bool, Vec<String>) {
        let reader = self.reader.take().expect("read since it started");
        let warnings = self.warnings.take().expect("read since it started");
        let stopped = self.stop();
        let mut said = reader.join().unwrap();
        said.extend(warnings.join().unwrap());
        (stopped, said)
    }

    pub fn link(&self, name: &str) -> &str {
        &self.links.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no link for {name}: {:?}", self.links)).1
    }

    /// The path part of an annotator's link (`/a/TOKEN/`).
    pub fn path(&self, name: &str) -> String {
        let link = self.link(name);
        link[link.find("/a/").unwrap()..].to_owned()
    }

    /// Stops it as Ctrl+C would (it folds the journal) and waits; whether it exited with success.
    pub fn stop(mut self) -> bool {
        self.signal(libc::SIGTERM);
        let status = self.child.wait().unwrap();
        std::mem::forget(self);
        status.success()
    }

    /// Stops it with SIGTERM and waits at most `limit`; whether it exited with success, and how
    /// long it took. Still running after `limit`: killed, and the test fails.
    pub fn stop_within(mut self, limit: Duration) -> (bool, Duration) {
        self.signal(libc::SIGTERM);
        let asked = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::mem::forget(self);
                return (status.success(), asked.elapsed());
            }
            if asked.elapsed() > limit {
                self.child.kill().unwrap();
                panic!("protest serve still ran {limit:?} after SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Kills it at once, as a crash or a power cut would (nothing folded).
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        std::mem::forget(self);
    }

    fn signal(&self, signal: i32) {
        // SAFETY: sends a signal to our own child process by its id.
        unsafe { libc::kill(self.child.id() as i32, signal) };
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.signal(libc::SIGTERM);
        let _ = self.child.wait();
    }
}

/// An answer: status, headers (lower-case names) and body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Sends `request_line` (`GET /a/…/ HTTP/1.1`, sent as it is: no normalising of the path) with
/// `body`, and reads the whole answer.
pub fn request(addr: SocketAddr, method: &str, target: &str, body: &[u8]) -> Answer {
    request_with(addr, method, target, &[], body)
}

/// [`request`] with more header lines (`Name: value`).
pub fn request_with(addr: SocketAddr, method: &str, target: &str, more: &[&str], body: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let more: String = more.iter().map(|line| format!("{line}\r\n")).collect();
    let head = format!(
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n{more}Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // A server may answer (413) before it read a large body, and close.
    let _ = stream.write_all(body);
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("an HTTP answer");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers =
        lines.filter_map(|l| l.split_once(':')).map(|(n, v)| (n.trim().to_lowercase(), v.trim().to_owned())).collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = |h: &Vec<(String, String)>| h.iter().any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let answer = Answer { status, headers, body: Vec::new() };
    if chunked(&answer.headers) {
        body = dechunk(&body);
    }
    Answer { body, ..answer }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    loop {
        let end = raw.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(std::str::from_utf8(&raw[..end]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return body;
        }
        body.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 4 + size..];
    }
}

pub fn get(addr: SocketAddr, target: &str) -> Answer {
    request(addr, "GET", target, b"")
}

pub fn post(addr: SocketAddr, target: &str, body: &[u8]) -> Answer {
    request(addr, "POST", target, body)
}

/// A change of `annotator`'s record of batch candidate `n`: the pronoun judged `judgement`
/// (`"yes"`/`"no"`), with id `id` (32 hex digits).
pub fn change(id: &str, n: u32, annotator: AnnotatorId, judgement: &str) -> String {
    format!(
        r#"{{"id":"{id}","put":{{"candidate":{n},"annotator":{},"pronoun":"{judgement}","active_ms":2500,"created":"2026-11-26T10:00:00Z","modified":"2026-11-26T10:00:00Z"}}}}"#,
        annotator.0
    )
}

pub fn changes(list: &[String]) -> Vec<u8> {
    format!(r#"{{"changes":[{}]}}"#, list.join(",")).into_bytes()
}

/// The master with its journal, as `protest check`, `report` and a read-only window read it.
pub fn as_readers_see(master: &Path) -> Master {
    protest::store::load_with_journal::<Master>(master).unwrap().0
}

/// `who`'s records in the master as readers see it.
pub fn records_of(master: &Path, who: AnnotatorId) -> Vec<Record> {
    as_readers_see(master).records.iter().filter(|r| r.annotator == who).cloned().collect()
}

/// Waits until `done` holds (polling), up to `limit`.
pub fn wait_for(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A folder with a copy of the sample master (task set 1 given to Anna and Ben).
pub fn sample() -> (tempfile::TempDir, PathBuf) {
    let dir = crate::common::copies(&["sample_batches/sample.master.json"]);
    let master = dir.path().join("sample.master.json");
    (dir, master)
}
