//! Crash test of durable saves: a child process makes annotation changes through
//! `Store` and prints the sequence number of each change once `put`/`remove` has returned; the
//! parent kills it with SIGKILL at random moments, reopens the master and checks that every
//! change reported as saved is there — and nothing else but possibly the one change in flight.
//! The child folds the journal into the master every few changes, so many kills land in the
//! middle of a full save.
//!
//! The child is this test binary itself, re-run on the ignored test `child`.

use chrono::DateTime;
use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Record};
use protest::store::Store;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const KILLS: usize = 200;
const SEED: u64 = 0x5eed;
/// Fold every 8 changes (a journal grown past `store::FOLD_BYTES` folds by the same full save).
const SAVE_EVERY: u64 = 8;

/// One change, a pure function of its sequence number so that the parent can replay it.
#[derive(Debug, Clone, PartialEq)]
enum Change {
    Put(Record),
    Remove(CandidateId),
}

fn change(seq: u64, candidates: u32) -> Change {
    let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ seq.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let candidate = CandidateId(rng.random_range(1..=candidates));
    if rng.random_bool(0.25) {
        return Change::Remove(candidate);
    }
    let when = DateTime::from_timestamp(1_767_225_600 + seq as i64, 0).unwrap();
    let mut r = Record::new(candidate, AnnotatorId::RESEARCHER, when);
    r.pronoun = if rng.random_bool(0.5) { Judgement::Yes } else { Judgement::No };
    r.remarks = format!("change {seq}");
    Change::Put(r)
}

fn apply(records: &mut BTreeMap<CandidateId, Record>, c: &Change) {
    match c {
        Change::Put(r) => {
            records.insert(r.candidate, r.clone());
        }
        Change::Remove(id) => {
            records.remove(id);
        }
    }
}

fn records_of(master: &Master) -> BTreeMap<CandidateId, Record> {
    master.records.iter().map(|r| (r.candidate, r.clone())).collect()
}

#[test]
#[ignore = "the child process of `changes_reported_as_saved_survive_sigkill`, not a test by itself"]
fn child() {
    let path = PathBuf::from(std::env::var("CRASH_MASTER").expect("run by the crash test"));
    let mut seq: u64 = std::env::var("CRASH_START").unwrap().parse().unwrap();
    let mut store = open_for_writing(&path);
    let candidates = store.master().candidates.len() as u32;
    let mut out = std::io::stdout().lock();
    // libtest has written "test child ... " without a line end.
    writeln!(out).unwrap();
    loop {
        if seq.is_multiple_of(SAVE_EVERY) {
            writeln!(out, "fold").unwrap();
            store.save().unwrap();
            writeln!(out, "folded").unwrap();
        }
        match change(seq, candidates) {
            Change::Put(r) => store.put(r).unwrap(),
            Change::Remove(c) => store.remove(c, AnnotatorId::RESEARCHER).unwrap(),
        }
        // Reported as saved: only now.
        writeln!(out, "{seq}").unwrap();
        out.flush().unwrap();
        seq += 1;
    }
}

/// The store, writable. The parent has just held the lock to check the master; if another test
/// of this binary started a process meanwhile, the forked copy of the parent keeps the lock's open
/// file (and so the lock) until it runs its program, a moment later: wait that moment out.
fn open_for_writing(path: &Path) -> Store<Master> {
    let started = Instant::now();
    loop {
        let (store, opened) = Store::<Master>::open(path).unwrap();
        match opened.read_only {
            None => return store,
            Some(why) if started.elapsed() > Duration::from_secs(5) => panic!("{why}"),
            Some(_) => {
                drop(store);
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

/// What the parent learnt from one child's output.
struct Run {
    last_saved: Option<u64>,
    killed_in_fold: bool,
}

fn run_child(master: &Path, start: u64, delay: Duration) -> Run {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["crash::child", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env("CRASH_MASTER", master)
        .env("CRASH_START", start.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    child.kill().unwrap(); // SIGKILL
    let mut text = String::new();
    child.stdout.take().unwrap().read_to_string(&mut text).unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    child.wait().unwrap();
    assert!(!stderr.contains("panicked"), "the child failed:\n{stderr}");
    let mut run = Run { last_saved: None, killed_in_fold: false };
    for line in text.lines() {
        match line {
            "fold" => run.killed_in_fold = true,
            "folded" => run.killed_in_fold = false,
            _ => {
                if let Ok(seq) = line.parse::<u64>() {
                    assert_eq!(seq, run.last_saved.map_or(start, |s| s + 1), "changes out of order:\n{text}");
                    run.last_saved = Some(seq);
                    run.killed_in_fold = false;
                }
            }
        }
    }
    run
}

#[test]
fn changes_reported_as_saved_survive_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let master = dir.path().join("crash.master.json");
    let tiny = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny/tiny.master.json");
    std::fs::copy(tiny, &master).unwrap();
    let candidates = protest::store::master_file::load(&master).unwrap().candidates.len() as u32;

    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut expected: BTreeMap<CandidateId, Record> = BTreeMap::new();
    let mut next = 0u64;
    let (mut in_fold, mut in_flight_kept, mut saved_total) = (0, 0, 0);
    let started = Instant::now();
    for kill in 0..KILLS {
        let delay = Duration::from_millis(rng.random_range(20..120));
        let run = run_child(&master, next, delay);
        for seq in next..run.last_saved.map_or(next, |s| s + 1) {
            apply(&mut expected, &change(seq, candidates));
            saved_total += 1;
        }
        next = run.last_saved.map_or(next, |s| s + 1);
        in_fold += usize::from(run.killed_in_fold);

        let (store, _) = Store::<Master>::open(&master)
            .unwrap_or_else(|e| panic!("after kill {kill}, the master does not open: {e}"));
        let found = records_of(store.master());
        if found != expected {
            // The change in flight was on disk but not yet reported: allowed, and it now counts.
            let mut with_next = expected.clone();
            apply(&mut with_next, &change(next, candidates));
            assert!(
                found == with_next,
                "after kill {kill} (changes up to {next} reported as saved), the master holds something else"
            );
            expected = with_next;
            next += 1;
            in_flight_kept += 1;
        }
        drop(store);
    }
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    eprintln!(
        "{KILLS} kills in {:.1} s: {saved_total} changes reported as saved, {in_fold} kills during a full save, \
         {in_flight_kept} unreported changes found on disk, {} temporary files left",
        started.elapsed().as_secs_f64(),
        leftovers.len()
    );
    assert!(saved_total > 1_000, "too few changes were made ({saved_total}) for the test to mean much");
    assert!(in_fold >= 10, "only {in_fold} kills landed in a full save");
    assert!(leftovers.is_empty(), "temporary files of interrupted saves were left: {leftovers:?}");
    // A last clean close folds everything into the master.
    let (store, opened) = Store::<Master>::open(&master).unwrap();
    assert!(opened.read_only.is_none());
    store.close().unwrap();
    assert_eq!(records_of(&protest::store::master_file::load(&master).unwrap()), expected);
}
