//! A window whose file another program changed keeps every change it then shows in a recovery
//! file: a child process drives a session as the window does, is detached by a command
//! run on its master after its lock was removed, goes on changing records, and is killed with
//! SIGKILL. The next opening of the master offers the recovery file; applied, it brings back every
//! change the child had shown (and at most the one in flight).
//!
//! The child is this test binary itself, re-run on the ignored test `window`.

use protest::annotate::edit::Edit;
use protest::model::{CandidateId, Master};
use protest::session::{Session, recovery};
use protest::store::Store;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn session(master: &Path, folder: &Path) -> Session {
    let (store, opened) = Store::<Master>::open(master).unwrap();
    assert!(opened.read_only.is_none(), "{opened:?}");
    let mut session = Session::new(Box::new(store), None);
    session.keep_unsaved_in(folder.to_path_buf());
    session
}

fn candidates(master: &Master) -> Vec<CandidateId> {
    master.candidates.iter().map(|c| c.id).collect()
}

/// Change `seq`: the remarks of one candidate.
fn change(seq: usize, ids: &[CandidateId]) -> (CandidateId, String) {
    (ids[seq % ids.len()], format!("change {seq}"))
}

#[test]
#[ignore = "the window of `a_killed_window_loses_no_change_it_showed`, not a test by itself"]
fn window() {
    let master = std::env::var("RECOVERY_MASTER").expect("run by the recovery test");
    let folder = std::env::var("RECOVERY_FOLDER").unwrap();
    let mut session = session(Path::new(&master), Path::new(&folder));
    let ids = candidates(session.master());
    let mut out = std::io::stdout().lock();
    writeln!(out).unwrap();
    let (candidate, text) = change(0, &ids);
    session.edit(candidate, Edit::Remarks(text)).unwrap();
    writeln!(out, "shown 0").unwrap();
    out.flush().unwrap();
    // Detached by the parent meanwhile.
    let mut go = String::new();
    std::io::stdin().read_line(&mut go).unwrap();
    for seq in 1.. {
        let (candidate, text) = change(seq, &ids);
        session.edit(candidate, Edit::Remarks(text)).unwrap();
        assert!(session.not_saved().is_some_and(|n| n.detached && n.kept_in.is_some()));
        writeln!(out, "shown {seq}").unwrap();
        out.flush().unwrap();
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_killed_window_loses_no_change_it_showed() {
    let dir = tempfile::tempdir().unwrap();
    let master = dir.path().join("tiny.master.json");
    std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tiny/tiny.master.json"), &master).unwrap();
    let folder = dir.path().join("data").join("recovery");
    let ids = candidates(&protest::store::master_file::load(&master).unwrap());

    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["recovery::window", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env("RECOVERY_MASTER", &master)
        .env("RECOVERY_FOLDER", &folder)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let shown = |lines: &mut std::io::Lines<_>| loop {
        let line: String = lines.next().expect("the window ended").unwrap();
        if let Some(seq) = line.strip_prefix("shown ") {
            return seq.parse::<usize>().unwrap();
        }
    };
    assert_eq!(shown(&mut lines), 0);
    // Someone removes the lock by hand and a command changes the master: the window detaches.
    std::fs::remove_file(protest::store::lock_path(&master)).unwrap();
    protest::workflow::on_master(&master, |s| protest::workflow::annotators::add(s, "Intruder")).unwrap();
    writeln!(child.stdin.as_mut().unwrap(), "go").unwrap();
    let mut last = 0;
    while last < 40 {
        last = shown(&mut lines);
    }
    child.kill().unwrap(); // SIGKILL: the window has no chance to save anything
    child.wait().unwrap();
    // What it showed before it was killed and this test had not read yet (each line is one write
    // to the pipe, whole; `max` all the same, should one be cut).
    for line in lines.map_while(Result::ok) {
        if let Some(seq) = line.strip_prefix("shown ").and_then(|s| s.parse().ok()) {
            last = last.max(seq);
        }
    }

    let mut next = session(&master, &folder);
    assert!(next.master().annotator_name(protest::model::AnnotatorId(1)) == "Intruder");
    let offered = next.recoveries();
    assert_eq!(offered.len(), 1, "{offered:?}");
    assert!(offered[0].entries.len() > last, "every change shown after the detachment, and the one before");
    assert_eq!(next.apply_recovery(&offered[0]).unwrap().applied, offered[0].entries.len());
    next.close().unwrap();
    let m = protest::store::master_file::load(&master).unwrap();
    // Each candidate's remarks are its last change shown, or the one in flight.
    for (i, id) in ids.iter().enumerate() {
        let remarks = m.records.get(*id, protest::model::AnnotatorId::RESEARCHER).map(|r| r.remarks.clone());
        let last_shown = (0..=last).rev().find(|seq| seq % ids.len() == i).map(|s| format!("change {s}"));
        let in_flight = ((last + 1) % ids.len() == i).then(|| format!("change {}", last + 1));
        assert!(
            remarks == last_shown || (in_flight.is_some() && remarks == in_flight),
            "candidate {id}: {remarks:?}, last shown {last_shown:?}"
        );
    }
    assert!(recovery::find(&folder, &std::fs::canonicalize(&master).unwrap(), &m.id).is_empty());
}
