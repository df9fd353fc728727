//! The load benchmark of `protest serve` (docs/performance.md, "protest serve under load"): 50
//! simulated annotators on loopback, each sending its changes one request at a time as the page
//! does (one change per request, a pause of 0–50 ms between them), against the server in this
//! process. Prints the time to acknowledge (p50, p90, p99, max) and the throughput, then checks
//! that nothing was lost: every change acknowledged once, in the receipts and the master, and
//! the master valid once the server has stopped and folded its journal.
//!
//! `cargo bench -p protest-serve --bench load` runs it in full (50 annotators × 200 changes);
//! with `-- --hammer`, the first annotator instead asks for their part as fast as it is answered
//! meanwhile (a link's parts are bounded: the others' changes must not wait for them);
//! `cargo test` runs it small (5 × 10) as a test of the same checks.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use protest::batches::export::assign;
use protest::batches::plan::{self, Request, every};
use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Record};
use protest::store::based::Base;
use protest::store::journal::Entry;
use protest::store::master_file;
use protest::web::protocol::{Change, ChangeId, Changes};
use protest_serve::{Limits, Options, Served, Voice, serve};
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

const SAMPLE: &[u8] = include_bytes!("../../../sample_batches/sample.master.json");

/// The sample master with a task set of `annotators` parts (each with the IAA sample of 20
/// candidates), given to annotators A1, A2, …
fn master(annotators: u32, path: &Path) {
    let mut m = master_file::from_bytes(Path::new("sample.master.json"), SAMPLE).unwrap();
    m.task_sets.clear();
    m.annotators.clear();
    let planned = plan::plan(&m, &Request::everything(&m, annotators, 20, 7), every, chrono::Utc::now()).unwrap();
    m.task_sets.push(planned.task_set);
    let names: Vec<String> = (1..=annotators).map(|i| format!("A{i}")).collect();
    assign(&mut m, 1, &names).unwrap();
    m.reindex();
    master_file::save(&m, path).unwrap();
}

/// The server's words, on the terminal as they come.
struct Terminal;

impl Voice for Terminal {
    fn out(&self, _: &str) {
        // The links: the benchmark takes them from what `Served::open` returns.
    }

    fn say(&self, line: &str) {
        println!("{line}");
    }

    fn warn(&self, line: &str) {
        eprintln!("warning: {line}");
    }
}

struct Annotator {
    /// `/a/TOKEN/api/changes`
    url: String,
    id: AnnotatorId,
    /// Batch candidate ids of the part.
    candidates: u32,
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let hammering = std::env::args().any(|a| a == "--hammer");
    let (annotators, changes) = if full { (50, 200) } else { (5, 10) };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("load.master.json");
    master(annotators, &path);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap();
    let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
    let listen = listener.local_addr().unwrap();
    let options = Options {
        master: path.clone(),
        task_set: None,
        listen,
        url: None,
        links: None,
        revoke: Vec::new(),
        new_link: Vec::new(),
        limits: Limits::default(),
    };
    let (served, opened) = Served::open(&options, Arc::new(Terminal)).unwrap();
    let (stop, stopped) = tokio::sync::mpsc::unbounded_channel::<()>();
    let server = runtime.spawn(serve(Arc::clone(&served), listener, stopped));
    let master = master_file::load(&path).unwrap();
    let people: Vec<Annotator> = opened
        .made
        .iter()
        .map(|link| {
            let person = master.annotators.iter().find(|a| a.name == link.annotator).unwrap();
            let part = protest::batches::export::layout(&master, &master.task_sets[0], person.id);
            Annotator { url: format!("{}api/changes", link.url), id: person.id, candidates: part.order.len() as u32 }
        })
        .collect();
    assert_eq!(people.len(), annotators as usize);
    let mut people = people;
    // With --hammer, the first annotator does nothing but ask for their part, again and again, as
    // fast as it is answered, while the others annotate.
    let hammered = hammering.then(|| people.remove(0));

    let started = Instant::now();
    let client = Client::builder(TokioExecutor::new()).build_http::<Full<Bytes>>();
    let done = Arc::new(AtomicBool::new(false));
    let hammer = hammered.map(|person| {
        let (client, done) = (client.clone(), Arc::clone(&done));
        let url = person.url.replace("api/changes", "api/part");
        runtime.spawn(async move {
            let (mut made, mut refused) = (0usize, 0usize);
            while !done.load(Ordering::Relaxed) {
                let request = hyper::Request::get(&url).body(Full::new(Bytes::new())).unwrap();
                let response = client.request(request).await.unwrap();
                let status = response.status();
                let _ = response.into_body().collect().await;
                match status.as_u16() {
                    200 => made += 1,
                    429 => refused += 1,
                    other => panic!("GET part: {other}"),
                }
            }
            (made, refused)
        })
    });
    let tasks: Vec<_> = people
        .into_iter()
        .enumerate()
        .map(|(i, person)| {
            let client = client.clone();
            runtime.spawn(async move {
                let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(i as u64);
                let mut times = Vec::with_capacity(changes);
                // What the page holds of each record: the next change is made on it, as the page's are.
                let mut held: HashMap<u32, Record> = HashMap::new();
                for k in 0..changes {
                    let id = ChangeId::random(&mut rng);
                    let candidate = 1 + (k as u32 % person.candidates);
                    let even = (k as u32 / person.candidates).is_multiple_of(2);
                    let mut record = Record::new(CandidateId(candidate), person.id, chrono::Utc::now());
                    record.pronoun = if even { Judgement::Yes } else { Judgement::No };
                    record.active_ms = Some(1000 + k as u64);
                    let base = Some(Base::of(held.get(&candidate)));
                    held.insert(candidate, record.clone());
                    let change = Change { id: id.clone(), entry: Entry::Put(record), base };
                    let body = serde_json::to_string(&Changes { changes: vec![change] }).unwrap();
                    let id = id.to_string();
                    let request = hyper::Request::post(&person.url)
                        .header("content-type", "application/json")
                        .body(Full::new(Bytes::from(body)))
                        .unwrap();
                    let sent = Instant::now();
                    let response = client.request(request).await.unwrap();
                    let status = response.status();
                    let answer = response.into_body().collect().await.unwrap().to_bytes();
                    times.push(sent.elapsed());
                    let answer = String::from_utf8_lossy(&answer);
                    assert!(
                        status.is_success() && answer.contains(&format!(r#""taken":["{id}"]"#)),
                        "{status} {answer}"
                    );
                    tokio::time::sleep(Duration::from_millis(rng.random_range(0..=50))).await;
                }
                (person.id, times)
            })
        })
        .collect();
    let results: Vec<(AnnotatorId, Vec<Duration>)> = tasks.into_iter().map(|t| runtime.block_on(t).unwrap()).collect();
    let elapsed = started.elapsed();
    done.store(true, Ordering::Relaxed);
    if let Some(hammer) = hammer {
        let (made, refused) = runtime.block_on(hammer).unwrap();
        println!("one link asking for its part meanwhile: {made} made, {refused} refused (429)");
    }
    let _ = stop.send(());
    assert_eq!(runtime.block_on(server).unwrap().dropped, 0);
    drop(runtime);
    served.close().unwrap();

    let mut times: Vec<Duration> = results.iter().flat_map(|(_, t)| t.iter().copied()).collect();
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{} annotators × {changes} changes: {} acknowledged in {:.1} s ({:.0} per second); time to acknowledge p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        results.len(),
        times.len(),
        elapsed.as_secs_f64(),
        times.len() as f64 / elapsed.as_secs_f64(),
        ms(at(0.5)),
        ms(at(0.9)),
        ms(at(0.99)),
        ms(*times.last().unwrap()),
    );

    // Nothing lost: every change has its receipt, and the master (valid: it loads) has each
    // annotator's last judgement of each of their candidates.
    let receipts = std::fs::read_to_string(protest::web::receipts::path_for(&path)).unwrap();
    assert_eq!(receipts.lines().count() - 1, results.len() * changes);
    assert!(!protest::store::journal::path_for(&path).exists(), "folded when the server stopped");
    let after: Master = master_file::load(&path).unwrap();
    for (id, _) in &results {
        let part = protest::batches::export::layout(&after, &after.task_sets[0], *id).order;
        let n = part.len();
        for (position, &candidate) in part.iter().enumerate().take(changes) {
            let last = (0..changes).rev().find(|k| k % n == position).unwrap();
            let expected = if (last / n).is_multiple_of(2) { Judgement::Yes } else { Judgement::No };
            let record = after.records.get(candidate, *id).unwrap();
            assert_eq!((record.pronoun, record.active_ms), (expected, Some(1000 + last as u64)));
        }
    }
    println!(
        "nothing lost: {} receipts, the master valid with every annotator's last judgements",
        receipts.lines().count() - 1
    );
    if full {
        assert!(at(0.99) <= Duration::from_millis(50), "p99 {:.2} ms is over 50 ms", ms(at(0.99)));
    }
}
