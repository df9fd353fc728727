//! The lock across two real processes: while a child process holds a master open, a
//! second opener gets a read-only view naming the holder; once the child is killed with SIGKILL
//! (leaving its lock file behind), the next opener takes the lock over and can write.
//!
//! The holder is this test binary itself, re-run on the ignored test `holder`.

use chrono::Utc;
use protest::model::{AnnotatorId, CandidateId, Judgement, Master, Record};
use protest::store::{Store, lock_path};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

#[test]
#[ignore = "the holding process of `a_second_process_is_read_only_until_the_holder_dies`"]
fn holder() {
    let path = std::env::var("LOCK_MASTER").expect("run by the lock test");
    let (mut store, opened) = Store::<Master>::open(Path::new(&path)).unwrap();
    assert!(opened.read_only.is_none());
    let mut r = Record::new(CandidateId(3), AnnotatorId::RESEARCHER, Utc::now());
    r.pronoun = Judgement::Yes;
    store.put(r).unwrap();
    println!("\nholding {}", std::process::id());
    std::io::stdout().flush().unwrap();
    // Hold the file until killed.
    loop {
        std::thread::park();
    }
}

#[test]
fn a_second_process_is_read_only_until_the_holder_dies() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("locked.master.json");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny/tiny.master.json"), &path).unwrap();

    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["lock::holder", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env("LOCK_MASTER", &path)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let pid = loop {
        let line = lines.next().expect("the holder ended before opening the master").unwrap();
        if let Some(pid) = line.strip_prefix("holding ") {
            break pid.to_owned();
        }
    };
    assert_eq!(pid, child.id().to_string());

    // A second process: read-only, told who holds the file, sees the holder's saved change.
    let (mut second, opened) = Store::<Master>::open(&path).unwrap();
    let why = opened.read_only.expect("the second opener must be read-only");
    assert!(why.contains("locked.master.json") && why.contains(&format!("process {pid} ")), "{why}");
    assert!(second.is_read_only());
    assert_eq!(second.master().records.len(), 1);
    let err = second.remove(CandidateId(3), AnnotatorId::RESEARCHER).unwrap_err().to_string();
    assert!(err.contains("read-only"), "{err}");
    drop(second);

    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    assert!(lock_path(&path).exists(), "the dead holder's lock file is left behind");

    // The stale lock is taken over; the holder's journaled change is recovered.
    let (mut third, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!(opened.read_only, None);
    assert_eq!(opened.recovered, 1);
    third.remove(CandidateId(3), AnnotatorId::RESEARCHER).unwrap();
    third.close().unwrap();
    assert!(protest::store::master_file::load(&path).unwrap().records.is_empty());
    assert!(!lock_path(&path).exists());
}
