//! The store on a disk that lies — a rename that renames nothing, a write that writes short, an
//! `fsync` that does nothing, each reporting success — and what such a disk or a crash leaves:
//! nothing reported saved is lost, or an error says where it is.

use super::tests::{TINY, on_faulty_disk, record, tiny};
use super::*;
use crate::model::Judgement;
use crate::store::disk::{Fault, Faulty, Op};
use chrono::{DateTime, Utc};
use std::io::Write;

/// The master as any reader sees it: the file with its journal.
fn on_disk(path: &Path) -> Master {
    load_with_journal::<Master>(path).unwrap().0
}

/// The names in `dir` that are not the master.
fn beside(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "tiny.master.json")
        .collect();
    names.sort();
    names
}

/// A structural change: the master saved in full.
fn described(m: &mut Master) -> Result<()> {
    m.description = "saved in full".into();
    Ok(())
}

#[test]
fn a_full_save_on_a_disk_that_lies_once_anywhere_is_caught_or_true() {
    let dir = tempfile::tempdir().unwrap();
    let (path, disk, mut store) = on_faulty_disk(&dir);
    disk.set(Fault::None);
    store.update(described).unwrap();
    let count = disk.ops().len();
    assert!(count >= 8, "{:?}", disk.ops());
    drop(store);
    for k in 0..count {
        std::fs::write(&path, TINY).unwrap();
        let _ = std::fs::remove_file(journal::path_for(&path)); // an empty one went with its store
        let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        disk.set(Fault::Lie(k));
        let result = store.update(described);
        let lied = disk.failed();
        let why = format!("lie at {k} ({lied:?}): {result:?}");
        let now = on_disk(&path);
        assert_eq!(now.records.len(), 1, "{why}: the change journaled before is there either way");
        match &result {
            Ok(()) => assert_eq!(now.description, "saved in full", "{why}"),
            Err(e) => {
                // Only a lie the store can see makes it fail: a short write or a rename not done.
                assert!(matches!(lied, Some((Op::Write | Op::Rename | Op::Link, _))), "{why}");
                let e = e.to_string();
                assert!(
                    e.contains("does not do what it reports") || e.contains("did not store what it reported"),
                    "{e}"
                );
                assert_eq!(now.description, "", "{why}");
                assert_eq!(store.master().description, "", "{why}: memory as before");
            }
        }
        // No temporary file is left, whatever happened.
        assert!(beside(dir.path()).iter().all(|n| !n.ends_with(".tmp")), "{why}: {:?}", beside(dir.path()));
        drop(store);
    }
}

#[test]
fn a_write_that_lies_at_every_call_never_replaces_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let disk = Faulty::new(Fault::None);
    let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
    disk.set(Fault::Lies(Op::Write));
    let e = store.update(described).unwrap_err().to_string();
    assert!(e.contains("tiny.master.json: the new file, read back before it replaces this one, holds "), "{e}");
    assert!(e.contains("the disk or file system did not store what it reported"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
    // A change to the journal is refused too, cut back, and kept as not saved.
    let e = store.put(record(3, Judgement::Yes)).unwrap_err().to_string();
    assert!(e.contains("tiny.master.json.journal: it holds ") && e.contains("after the change was written"), "{e}");
    assert_eq!(store.not_saved(), 1);
    assert_eq!(on_disk(&path).records.len(), 0);
    disk.set(Fault::None);
    store.retry().unwrap();
    assert_eq!(on_disk(&path).records.len(), 1, "saved once the disk tells the truth");
    store.close().unwrap();
    assert_eq!(master_file::load(&path).unwrap().records.len(), 1);
}

#[test]
fn a_rename_that_lies_at_the_fold_loses_nothing_and_says_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let disk = Faulty::new(Fault::None);
    let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
    for c in 1..=6 {
        store.put(record(c, Judgement::No)).unwrap();
    }
    disk.set(Fault::Lies(Op::Rename));
    let e = store.close().unwrap_err().to_string();
    assert!(e.contains("tiny.master.json: the system reported the new file renamed into place, but it was not"), "{e}");
    // The journal holds every change, and no temporary file is left to be taken for debris.
    assert_eq!(beside(dir.path()), ["tiny.master.json.journal"]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), TINY);
    let (store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!((opened.recovered, store.master().records.len()), (6, 6));
    store.close().unwrap();
    assert_eq!(master_file::load(&path).unwrap().records.len(), 6);
}

#[test]
fn an_fsync_that_does_nothing_loses_nothing_while_the_system_runs() {
    // A lying `fsync` cannot be seen from a program: what it risks is a power cut (docs/journal.md).
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let disk = Faulty::new(Fault::Lies(Op::Sync));
    let (mut store, _) = Store::<Master>::open_on(disk.shared(), &path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    store.update(described).unwrap();
    store.put(record(4, Judgement::No)).unwrap();
    drop(store);
    assert!(disk.ops().iter().any(|(op, _)| *op == Op::Sync));
    let m = on_disk(&path);
    assert_eq!((m.records.len(), m.description.as_str()), (2, "saved in full"));
}

#[test]
fn a_complete_save_left_unrenamed_with_no_journal_is_put_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    // What a rename that lied left before saves checked it: the fold written to a temporary file,
    // the journal removed as folded in.
    let mut folded = master_file::load(&path).unwrap();
    folded.records.put(record(3, Judgement::Yes));
    folded.revision = 1;
    let temp = dir.path().join(".tiny.master.json.protest-Fold12.tmp");
    master_file::save(&folded, &temp).unwrap();
    let torn = dir.path().join(".tiny.master.json.protest-Torn12.tmp");
    std::fs::write(&torn, &std::fs::read(&temp).unwrap()[..200]).unwrap();
    // A reader without the lock changes nothing.
    assert_eq!(on_disk(&path).records.len(), 0);
    assert!(temp.exists());
    let (store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!((store.master().revision, store.master().records.len()), (1, 1));
    let note = opened.dropped.unwrap();
    assert!(note.contains("tiny.master.json was at revision 0, but a complete save of it at revision 1"), "{note}");
    assert!(note.contains(".tiny.master.json.protest-Fold12.tmp) had not been put in its place"), "{note}");
    assert_eq!(beside(dir.path()), ["tiny.master.json.journal", "tiny.master.json.lock"], "the torn one is debris");
    store.close().unwrap();
    assert_eq!(master_file::load(&path).unwrap().records.len(), 1);
}

#[test]
fn a_save_left_unrenamed_whose_changes_the_journal_holds_is_debris() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    drop(store); // the journal continues revision 0 and holds the change
    let mut folded = master_file::load(&path).unwrap();
    folded.records.put(record(3, Judgement::Yes));
    folded.revision = 1;
    master_file::save(&folded, &dir.path().join(".tiny.master.json.protest-Fold12.tmp")).unwrap();
    let (store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!((store.master().revision, store.master().records.len(), opened.dropped), (0, 1, None));
    assert_eq!(beside(dir.path()), ["tiny.master.json.journal", "tiny.master.json.lock"]);
    // A save of another file under this one's temporary name is not ours to remove.
    drop(store);
    let mut other = folded.clone();
    other.id = "another-file".into();
    std::fs::remove_file(journal::path_for(&path)).unwrap();
    let theirs = dir.path().join(".tiny.master.json.protest-Other1.tmp");
    master_file::save(&other, &theirs).unwrap();
    let (store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!((store.master().revision, opened.dropped), (0, None));
    assert!(theirs.exists());
}

#[test]
fn a_damaged_line_in_the_middle_opens_with_what_comes_before_and_the_rest_set_aside() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(1, Judgement::Yes)).unwrap();
    store.put(record(2, Judgement::No)).unwrap();
    drop(store);
    // A write cut short that reported whole, then two more changes written after it.
    let half = serde_json::to_string(&Entry::Put(record(3, Judgement::Yes))).unwrap();
    let after = [Entry::Put(record(4, Judgement::Yes)), Entry::Put(record(5, Judgement::No))];
    let rest = format!(
        "{}{}\n{}\n",
        &half[..half.len() / 2],
        serde_json::to_string(&after[0]).unwrap(),
        serde_json::to_string(&after[1]).unwrap()
    );
    let journal = journal::path_for(&path);
    std::fs::OpenOptions::new().append(true).open(&journal).unwrap().write_all(rest.as_bytes()).unwrap();
    let header = std::fs::read_to_string(&journal).unwrap().lines().next().unwrap().to_owned();

    // A reader (protest check) counts what comes before and says so; it writes nothing.
    let before = beside(dir.path());
    let (m, replay) = load_with_journal::<Master>(&path).unwrap();
    assert_eq!((m.records.len(), replay.damaged.as_ref().unwrap().line), (2, 4));
    assert_eq!(beside(dir.path()), before);

    // A writer opens it too, and sets the rest aside, byte for byte.
    let (mut store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!((opened.recovered, store.master().records.len()), (2, 2));
    let note = opened.dropped.unwrap();
    assert!(note.starts_with(&format!("line 4 of {} is damaged (not a journal entry: ", journal.display())), "{note}");
    assert!(
        note.contains("the 2 changes before it are kept; that line and the line after it were set aside in "),
        "{note}"
    );
    let rests = journal::rests(&path);
    assert_eq!(rests.len(), 1);
    assert!(note.contains(&rests[0].display().to_string()), "{note}");
    assert_eq!(std::fs::read_to_string(&rests[0]).unwrap(), format!("{header}\n{rest}"));
    assert_eq!(journal::salvage(&std::fs::read(&rests[0]).unwrap()).entries, after);
    // The journal was rewritten without it: the next change follows the good ones.
    store.put(record(6, Judgement::Yes)).unwrap();
    drop(store);
    let (store, opened) = Store::<Master>::open(&path).unwrap();
    assert_eq!((opened.recovered, opened.dropped), (3, None));
    assert_eq!(journal::rests(&path), rests, "set aside once");
    store.close().unwrap();
}

#[test]
fn the_same_damage_met_twice_is_set_aside_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(1, Judgement::Yes)).unwrap();
    drop(store);
    let journal = journal::path_for(&path);
    std::fs::OpenOptions::new().append(true).open(&journal).unwrap().write_all(b"garbage\n").unwrap();
    let damaged = std::fs::read(&journal).unwrap();
    drop(Store::<Master>::open(&path).unwrap());
    // A crash before the journal was rewritten: the same damage again.
    std::fs::write(&journal, &damaged).unwrap();
    let (_, opened) = Store::<Master>::open(&path).unwrap();
    assert!(opened.dropped.unwrap().contains("that line were set aside in"));
    assert_eq!(journal::rests(&path).len(), 1);
}

#[test]
fn a_record_dated_past_9999_is_refused_before_the_journal_takes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    let mut far = record(3, Judgement::Yes);
    far.modified = DateTime::<Utc>::from_timestamp(253_402_300_800, 0).unwrap();
    let e = store.put(far).unwrap_err().to_string();
    assert!(
        e.contains("the record of candidate 3 is dated +10000-01-01 00:00:00 UTC, outside the years 1970 to 9999"),
        "{e}"
    );
    assert_eq!((store.not_saved(), store.master().records.len()), (0, 0));
    drop(store);
    // The journal still reads: nothing was written that would stop it.
    assert_eq!(Store::<Master>::open(&path).unwrap().1.recovered, 0);
}

#[test]
fn the_lock_names_what_holds_the_file_and_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let server = Holder::Server { address: "http://127.0.0.1:8720/".into() };
    let command = Holder::Command { command: "protest batch export".into() };
    for (holder, says, remedy) in [
        (&server, "is being served by `protest serve` at http://127.0.0.1:8720/ (process ", "stop the server first"),
        (&Holder::Window, "is open in a PROTEST window (process ", "close it there first"),
        (&command, "is being changed by `protest batch export` (process ", "wait until it has finished"),
    ] {
        let (first, _) = Store::<Master>::open_as(&path, holder).unwrap();
        let (second, opened) = Store::<Master>::open(&path).unwrap();
        let why = opened.read_only.unwrap();
        assert!(why.starts_with(&format!("{} {says}{}", path.display(), std::process::id())), "{why}");
        assert!(opened.remedy.unwrap().starts_with(remedy));
        let e = second.writable().unwrap_err().to_string();
        assert!(e.contains(says) && e.contains(remedy), "{e}");
        first.close().unwrap();
    }
    // A lock written by an older PROTEST, in words, is shown as it is.
    let (first, _) = Store::<Master>::open(&path).unwrap();
    std::fs::write(lock_path(&path), "process 7 of anna since 2026-11-26 20:15").unwrap();
    let (_, opened) = Store::<Master>::open(&path).unwrap();
    let why = opened.read_only.unwrap();
    assert!(why.ends_with("is open in another PROTEST program (process 7 of anna since 2026-11-26 20:15)"), "{why}");
    drop(first);
}

#[test]
fn a_hostile_or_absurd_lock_file_is_quoted_cut_and_never_breaks_the_message() {
    use crate::store::lock::HOLDER_BYTES;
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    let file = path.display().to_string();
    let (first, _) = Store::<Master>::open(&path).unwrap();
    let escape = "\u{1b}[2J\u{1b}]0;owned\u{7}\r\nprotest: saved\u{202E}";
    let megabyte = format!("{escape}{}", "x".repeat(1 << 20));
    let not_utf8: Vec<u8> = [&b"\xff\xfe"[..], &"é".repeat(3000).into_bytes()].concat(); // é cut at 4 KiB
    let json = |field: &str| {
        let value = serde_json::to_string(&format!("{escape}{}", "y".repeat(1500))).unwrap();
        format!(r#"{{"holder":"server","address":{v},"process":7,"user":{v},"since":null,"{field}":1}}"#, v = value)
    };
    for (written, holder) in [
        (megabyte.into_bytes(), "is open in another PROTEST program ("),
        (not_utf8, "is open in another PROTEST program ("),
        (json("extra").into_bytes(), "is being served by `protest serve` at "),
    ] {
        std::fs::write(lock_path(&path), &written).unwrap();
        let (second, opened) = Store::<Master>::open(&path).unwrap();
        let why = opened.read_only.unwrap();
        let said = why.strip_prefix(&format!("{file} {holder}")).unwrap_or_else(|| panic!("{why}"));
        assert!(said.len() <= HOLDER_BYTES + 2, "{} bytes of the holder shown", said.len());
        assert!(!why.chars().any(crate::model::text::hidden), "{why:?}");
        if !written.starts_with(b"\xff") {
            assert!(said.contains("\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{d}\\u{a}protest: saved\\u{202e}"), "{said}");
        }
        assert!(said.contains('…'), "said to be cut: {said}");
        let e = second.writable().unwrap_err().to_string();
        assert!(e.contains(said) && e.len() < file.len() + HOLDER_BYTES + 200, "{e}");
    }
    drop(first);
}

#[cfg(unix)]
#[test]
fn files_beside_a_master_are_never_writable_by_others() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    for (master, beside) in [(0o666, 0o644), (0o600, 0o600), (0o640, 0o640)] {
        let dir = tempfile::tempdir().unwrap();
        let path = tiny(&dir);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(master)).unwrap();
        let (mut store, _) = Store::<Master>::open(&path).unwrap();
        store.put(record(3, Judgement::Yes)).unwrap();
        assert_eq!(mode(&journal::path_for(&path)), beside, "journal of a {master:o} master");
        assert_eq!(mode(&lock_path(&path)) & 0o022, 0, "lock");
        store.save().unwrap();
        assert_eq!(mode(&path), master, "the master keeps its own");
        assert_eq!(mode(&journal::path_for(&path)), beside, "the new journal");
    }
}

#[test]
fn a_store_let_go_without_closing_leaves_nothing_that_holds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = tiny(&dir);
    // A start that fails after opening (protest serve with no task set to serve…).
    drop(Store::<Master>::open(&path).unwrap());
    assert_eq!(beside(dir.path()), Vec::<String>::new());
    // One that holds a change keeps its journal for the next opening.
    let (mut store, _) = Store::<Master>::open(&path).unwrap();
    store.put(record(3, Judgement::Yes)).unwrap();
    drop(store);
    assert_eq!(beside(dir.path()), ["tiny.master.json.journal"]);
    assert_eq!(Store::<Master>::open(&path).unwrap().1.recovered, 1);
}
